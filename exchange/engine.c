/*
 * exchange/engine.c — the matching engine: price-time priority books with the
 * hours rule, GTC/IOC/FOK, dry runs for previews.
 *
 * Layout. Every resting order lives in one node of an engine-wide pool
 * (`nodes`, grown by doubling; free nodes are chained through `next`), and is
 * referred to by its int32 index, so growing the pool never invalidates a link.
 * An open-addressing hash map (linear probing, backward-shift deletion, so no
 * tombstones) takes an order id to its node. A book has two sides; a side is an
 * array of price levels sorted so that the BEST level is the LAST element: bids
 * ascending, asks descending. Orders arrive near the best price, so inserting a
 * level is usually a short memmove at the end and removing the best level is a
 * decrement. Each level keeps an intrusive doubly-linked FIFO of its orders
 * (O(1) append and unlink), the sum of their GPUs and their count.
 *
 * Matching walks the opposite side from its last (best) level down while the
 * price crosses, and each level's FIFO from its head, skipping orders that are
 * not eligible (same account; hours: a resting sell needs hours >= the buy's,
 * a resting buy needs hours <= the sell's). Skipped orders keep their place.
 * Each level remembers a bound on its orders' hours (asks: the largest ever
 * added, bids: the smallest), which is never wrong in the direction that
 * matters, so levels in which no order can satisfy the hours rule are passed
 * over without walking their FIFO. A taker visits each resting order at most
 * once, so a dry run is the same walk with every write left out; FOK first
 * makes such a counting pass and executes only if it fills completely.
 *
 * Errors here are programming errors of the caller (a book index out of range,
 * an id that is already resting): they abort through fatal().
 */
#include "exchange/engine.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define NIL (-1)

struct node {
	struct eng_order o;
	int32_t prev, next;   /* neighbours in the level FIFO; `next` chains the free list */
	uint32_t book;
};

struct level {
	int64_t price;
	int64_t gpus;         /* sum of the orders' remaining GPUs */
	int64_t gpu_hours;    /* sum of the orders' remaining GPUs × hours */
	int32_t orders;
	int32_t head, tail;   /* node indices, NIL when empty */
	int32_t hours_bound;  /* asks: >= every order's hours; bids: <= every order's hours */
};

struct side {
	struct level *lv;     /* worst first, best last */
	size_t n, cap;
};

struct book {
	struct side s[2];     /* s[ENG_BUY]: bids, s[ENG_SELL]: asks */
};

struct slot {
	int64_t id;           /* 0: empty */
	int32_t node;
};

struct engine {
	struct book *books;
	size_t nbooks;
	struct node *nodes;
	size_t nnodes, capnodes;
	int32_t free_head;
	struct slot *map;
	size_t mapmask, mapused;
};

/* ---- fills --------------------------------------------------------------- */

void eng_fills_reset(struct eng_fills *f) { f->n = 0; }

void eng_fills_free(struct eng_fills *f)
{
	free(f->v);
	f->v = NULL;
	f->n = f->cap = 0;
}

static void fills_push(struct eng_fills *f, const struct eng_fill *x)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 16;
		f->v = xreallocarray(f->v, f->cap, sizeof *f->v);
	}
	f->v[f->n++] = *x;
}

/* ---- id -> node map -------------------------------------------------------- */

static inline size_t hash_id(int64_t id)
{
	uint64_t x = (uint64_t)id * 0x9E3779B97F4A7C15ull;
	return (size_t)(x ^ (x >> 29));
}

static int32_t map_get(const struct engine *e, int64_t id)
{
	size_t i = hash_id(id) & e->mapmask;
	for (;;) {
		const struct slot *s = &e->map[i];
		if (s->id == id)
			return s->node;
		if (s->id == 0)
			return NIL;
		i = (i + 1) & e->mapmask;
	}
}

static void map_insert_raw(struct slot *map, size_t mask, int64_t id, int32_t node)
{
	size_t i = hash_id(id) & mask;
	while (map[i].id != 0)
		i = (i + 1) & mask;
	map[i].id = id;
	map[i].node = node;
}

static void map_put(struct engine *e, int64_t id, int32_t node)
{
	if ((e->mapused + 1) * 2 > e->mapmask + 1) {
		size_t ncap = (e->mapmask + 1) * 2;
		struct slot *nm = xcalloc(ncap, sizeof *nm);
		for (size_t i = 0; i <= e->mapmask; i++)
			if (e->map[i].id != 0)
				map_insert_raw(nm, ncap - 1, e->map[i].id, e->map[i].node);
		free(e->map);
		e->map = nm;
		e->mapmask = ncap - 1;
	}
	map_insert_raw(e->map, e->mapmask, id, node);
	e->mapused++;
}

static void map_del(struct engine *e, int64_t id)
{
	size_t mask = e->mapmask, i = hash_id(id) & mask;
	while (e->map[i].id != id) {
		if (e->map[i].id == 0)
			return;
		i = (i + 1) & mask;
	}
	/* backward-shift: pull later members of the probe run into the hole */
	for (size_t j = i;;) {
		j = (j + 1) & mask;
		if (e->map[j].id == 0)
			break;
		size_t k = hash_id(e->map[j].id) & mask;
		/* the entry at j may move to i only if its home k is not in (i, j] */
		bool stays = i <= j ? (k > i && k <= j) : (k > i || k <= j);
		if (!stays) {
			e->map[i] = e->map[j];
			i = j;
		}
	}
	e->map[i].id = 0;
	e->mapused--;
}

/* ---- node pool ------------------------------------------------------------- */

static int32_t node_alloc(struct engine *e)
{
	if (e->free_head != NIL) {
		int32_t n = e->free_head;
		e->free_head = e->nodes[n].next;
		return n;
	}
	if (e->nnodes == e->capnodes) {
		if (e->capnodes >= (size_t)INT32_MAX / 2)
			fatal("engine: too many resting orders");
		e->capnodes = e->capnodes ? e->capnodes * 2 : 1024;
		e->nodes = xreallocarray(e->nodes, e->capnodes, sizeof *e->nodes);
	}
	return (int32_t)e->nnodes++;
}

static void node_release(struct engine *e, int32_t n)
{
	e->nodes[n].next = e->free_head;
	e->free_head = n;
}

/* ---- engine ------------------------------------------------------------------ */

struct engine *engine_new(size_t nbooks)
{
	if (nbooks > UINT32_MAX)
		fatal("engine: %zu books is too many", nbooks);
	struct engine *e = xcalloc(1, sizeof *e);
	e->nbooks = nbooks;
	e->books = xcalloc(nbooks ? nbooks : 1, sizeof *e->books);
	e->free_head = NIL;
	e->mapmask = 63;
	e->map = xcalloc(e->mapmask + 1, sizeof *e->map);
	return e;
}

void engine_free(struct engine **ep)
{
	struct engine *e = *ep;
	if (e == NULL)
		return;
	for (size_t b = 0; b < e->nbooks; b++) {
		free(e->books[b].s[0].lv);
		free(e->books[b].s[1].lv);
	}
	free(e->books);
	free(e->nodes);
	free(e->map);
	free(e);
	*ep = NULL;
}

static struct book *book_at(const struct engine *e, size_t book)
{
	if (book >= e->nbooks)
		fatal("engine: book %zu out of range (%zu books)", book, e->nbooks);
	return &e->books[book];
}

/* Is level price p strictly worse than q on this side? */
static inline bool worse(enum eng_side side, int64_t p, int64_t q)
{
	return side == ENG_BUY ? p < q : p > q;
}

/* Index of the first level not worse than `price` (== s->n if none). */
static size_t level_lower(const struct side *s, enum eng_side side, int64_t price)
{
	/* fast path: at or beyond the best level */
	if (s->n == 0 || worse(side, s->lv[s->n - 1].price, price))
		return s->n;
	size_t lo = 0, hi = s->n - 1;   /* answer in [lo, hi] */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (worse(side, s->lv[mid].price, price))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void level_remove(struct side *s, size_t i)
{
	memmove(&s->lv[i], &s->lv[i + 1], (s->n - i - 1) * sizeof *s->lv);
	s->n--;
}

/* Append order *o (gpus > 0, id not resting) at the tail of its price level. */
static void rest(struct engine *e, size_t book, const struct eng_order *o)
{
	if (o->id <= 0)
		fatal("engine: order id %lld is not positive", (long long)o->id);
	if (map_get(e, o->id) != NIL)
		fatal("engine: order %lld is already resting", (long long)o->id);
	struct side *s = &e->books[book].s[o->side];
	size_t i = level_lower(s, o->side, o->price_cents);
	struct level *l;
	if (i < s->n && s->lv[i].price == o->price_cents) {
		l = &s->lv[i];
		if (o->side == ENG_SELL ? o->hours > l->hours_bound : o->hours < l->hours_bound)
			l->hours_bound = o->hours;
	} else {
		if (s->n == s->cap) {
			s->cap = s->cap ? s->cap * 2 : 16;
			s->lv = xreallocarray(s->lv, s->cap, sizeof *s->lv);
		}
		memmove(&s->lv[i + 1], &s->lv[i], (s->n - i) * sizeof *s->lv);
		s->n++;
		l = &s->lv[i];
		*l = (struct level){ .price = o->price_cents, .head = NIL, .tail = NIL,
		                     .hours_bound = o->hours };
	}
	int32_t n = node_alloc(e);
	struct node *nd = &e->nodes[n];
	nd->o = *o;
	nd->o.tif = ENG_GTC;
	nd->book = (uint32_t)book;
	nd->prev = l->tail;
	nd->next = NIL;
	if (l->tail != NIL)
		e->nodes[l->tail].next = n;
	else
		l->head = n;
	l->tail = n;
	l->orders++;
	l->gpus += o->gpus;
	l->gpu_hours += (int64_t)o->gpus * o->hours;
	map_put(e, o->id, n);
}

static void unlink_node(struct engine *e, struct level *l, int32_t n)
{
	struct node *nd = &e->nodes[n];
	if (nd->prev != NIL)
		e->nodes[nd->prev].next = nd->next;
	else
		l->head = nd->next;
	if (nd->next != NIL)
		e->nodes[nd->next].prev = nd->prev;
	else
		l->tail = nd->prev;
	l->orders--;
	l->gpus -= nd->o.gpus;
	l->gpu_hours -= (int64_t)nd->o.gpus * nd->o.hours;
}

/*
 * The one matching walk. Takes the taker *o (not modified), wants at most
 * `want` GPUs; with dry set nothing is written; fills (may be NULL) receive
 * each trade. Returns the GPUs filled.
 */
static int32_t match(struct engine *e, struct book *b, const struct eng_order *o,
                     int32_t want, bool dry, struct eng_fills *fills)
{
	bool buy = o->side == ENG_BUY;
	struct side *s = &b->s[buy ? ENG_SELL : ENG_BUY];
	int32_t left = want;
	for (size_t i = s->n; i-- > 0 && left > 0;) {
		struct level *l = &s->lv[i];
		if (buy ? l->price > o->price_cents : l->price < o->price_cents)
			break;
		if (buy ? l->hours_bound < o->hours : l->hours_bound > o->hours)
			continue;
		for (int32_t n = l->head; n != NIL && left > 0;) {
			struct node *nd = &e->nodes[n];
			int32_t next = nd->next;
			const struct eng_order *m = &nd->o;
			if (m->account == o->account ||
			    (buy ? m->hours < o->hours : m->hours > o->hours)) {
				n = next;
				continue;
			}
			int32_t q = m->gpus < left ? m->gpus : left;
			left -= q;
			if (fills != NULL) {
				struct eng_fill f = {
					.maker_id = m->id, .maker_account = m->account,
					.taker_id = o->id, .taker_account = o->account,
					.price_cents = m->price_cents, .gpus = q,
					.hours = buy ? o->hours : m->hours, .taker_side = o->side,
				};
				fills_push(fills, &f);
			}
			if (!dry) {
				if (q == m->gpus) {
					unlink_node(e, l, n);
					map_del(e, m->id);
					node_release(e, n);
				} else {
					nd->o.gpus -= q;
					l->gpus -= q;
					l->gpu_hours -= (int64_t)q * m->hours;
				}
			}
			n = next;
		}
		if (!dry && l->orders == 0)
			level_remove(s, i);
	}
	return want - left;
}

int32_t engine_submit(struct engine *e, size_t book, struct eng_order *o, bool dry_run,
                      struct eng_fills *fills)
{
	struct book *b = book_at(e, book);
	if (o->gpus <= 0)
		return 0;
	if (o->tif == ENG_FOK && match(e, b, o, o->gpus, true, NULL) < o->gpus)
		return 0;
	int32_t filled = match(e, b, o, o->gpus, dry_run, fills);
	o->gpus -= filled;
	if (!dry_run && o->gpus > 0 && o->tif == ENG_GTC)
		rest(e, book, o);
	return filled;
}

void engine_restore(struct engine *e, size_t book, const struct eng_order *o)
{
	book_at(e, book);
	if (o->gpus > 0)
		rest(e, book, o);
}

int engine_cancel(struct engine *e, size_t book, int64_t id, struct eng_order *out)
{
	struct book *b = book_at(e, book);
	int32_t n = id > 0 ? map_get(e, id) : NIL;
	if (n == NIL || e->nodes[n].book != book)
		return -1;
	struct node *nd = &e->nodes[n];
	struct side *s = &b->s[nd->o.side];
	size_t i = level_lower(s, nd->o.side, nd->o.price_cents);
	if (i >= s->n || s->lv[i].price != nd->o.price_cents)
		fatal("engine: order %lld has no level", (long long)id);
	if (out != NULL)
		*out = nd->o;
	unlink_node(e, &s->lv[i], n);
	if (s->lv[i].orders == 0)
		level_remove(s, i);
	map_del(e, id);
	node_release(e, n);
	return 0;
}

void engine_clear(struct engine *e, size_t book)
{
	struct book *b = book_at(e, book);
	for (int side = 0; side < 2; side++) {
		struct side *s = &b->s[side];
		while (s->n > 0) {
			struct level *l = &s->lv[s->n - 1];
			int64_t id = e->nodes[l->head].o.id;
			engine_cancel(e, book, id, NULL);
		}
	}
}

bool engine_best(const struct engine *e, size_t book, enum eng_side side, struct eng_level *out)
{
	return engine_depth(e, book, side, out, 1) == 1;
}

size_t engine_depth(const struct engine *e, size_t book, enum eng_side side,
                    struct eng_level *out, size_t max)
{
	const struct side *s = &book_at(e, book)->s[side];
	size_t k = 0;
	for (size_t i = s->n; i-- > 0 && k < max; k++)
		out[k] = (struct eng_level){ .price_cents = s->lv[i].price, .gpus = s->lv[i].gpus,
		                             .orders = s->lv[i].orders,
		                             .gpu_hours = s->lv[i].gpu_hours };
	return k;
}

const struct eng_order *engine_find(const struct engine *e, size_t book, int64_t id)
{
	book_at(e, book);
	int32_t n = id > 0 ? map_get(e, id) : NIL;
	if (n == NIL || e->nodes[n].book != book)
		return NULL;
	return &e->nodes[n].o;
}
