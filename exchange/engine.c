/*
 * exchange/engine.c — the matching engine: price-time priority books with the
 * hours rule, lots of nodes and the bids' requirements, GTC/IOC/FOK, dry runs
 * for previews.
 *
 * Layout. Every resting order lives in one entry of an engine-wide pool
 * (`rests`, grown by doubling; free entries are chained through `next`), and is
 * referred to by its int32 index, so growing the pool never invalidates a link.
 * An open-addressing hash map (linear probing, backward-shift deletion, so no
 * tombstones) takes an order id to its entry. A book has two sides; a side is an
 * array of price levels sorted so that the BEST level is the LAST element: bids
 * ascending, asks descending. Orders arrive near the best price, so inserting a
 * level is usually a short memmove at the end and removing the best level is a
 * decrement. Each level keeps an intrusive doubly-linked FIFO of its orders
 * (O(1) append and unlink), the sum of their GPUs and their count.
 *
 * A resting sell's nodes are a block of `lots`, an engine-wide array of struct
 * eng_node carved into power-of-two blocks (a free list per size), referred to
 * by offset; a sell being matched works on `scratch`, copied into a block if
 * it comes to rest.
 *
 * Matching walks the opposite side from its last (best) level down while the
 * price crosses, and each level's FIFO from its head, skipping orders that are
 * not eligible (same account; hours: a resting sell needs hours >= the buy's,
 * a resting buy needs hours <= the sell's; the buy's requirements; no node with
 * a unit free). Skipped orders keep their place. Each level remembers bounds on
 * what its orders can be — asks: the largest hours, and which units, links and
 * regions some order ever added could serve; bids: the smallest hours and the
 * units, links and regions some order ever added asks for — which are never
 * wrong in the direction that matters, so levels in which no order can trade
 * are passed over without walking their FIFO. Within a sell's lot, units come
 * from the nodes with the fewest free GPUs first, then the lowest index. A
 * taker visits each resting order at most once and takes from each of its
 * nodes at most once, so a dry run is the same walk with every write to the
 * book left out; FOK first makes such a counting pass and executes only if it
 * fills completely.
 *
 * Errors here are programming errors of the caller (a book index out of range,
 * an id that is already resting, a size that is not whole units): they abort
 * through fatal().
 */
#include "exchange/engine.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define NIL (-1)
#define LINKS_ALL 0x0Fu

struct rest {
	struct eng_order o;
	int32_t prev, next;   /* neighbours in the level FIFO; `next` chains the free list */
	uint32_t book;
	int32_t lot;          /* a sell: offset of its nodes in e->lots; a buy: NIL */
	int32_t n_nodes;
};

struct level {
	int64_t price;
	int64_t gpus;         /* sum of the orders' remaining GPUs */
	int64_t gpu_hours;    /* sum of the orders' remaining GPUs × hours */
	int32_t orders;
	int32_t head, tail;   /* rest indices, NIL when empty */
	int32_t hours_bound;  /* asks: >= every order's hours; bids: <= every order's hours */
	uint32_t units;       /* bit G: asks: some order could serve units of G; bids: some asks for G */
	uint32_t links;       /* bit L: asks: some order's link; bids: some accepts link L */
	uint64_t regions;     /* bit R: asks: some order's region; bids: some accepts region R */
};

struct side {
	struct level *lv;     /* worst first, best last */
	size_t n, cap;
};

struct book {
	struct side s[2];     /* s[ENG_BUY]: bids, s[ENG_SELL]: asks */
	uint64_t changes;     /* engine_changes */
};

struct slot {
	int64_t id;           /* 0: empty */
	int32_t rest;
};

struct i32stack { int32_t *v; size_t n, cap; };

#define LOT_CLASSES 31

struct engine {
	struct book *books;
	size_t nbooks;
	struct rest *rests;
	size_t nrests, caprests;
	int32_t free_head;
	struct slot *map;
	size_t mapmask, mapused;
	struct eng_node *lots;          /* the resting sells' nodes, in blocks of 2^c */
	size_t nlots, caplots;
	struct i32stack lot_free[LOT_CLASSES];
	struct eng_node *scratch;       /* the nodes of a sell being matched */
	size_t capscratch;
};

/* ---- fills --------------------------------------------------------------- */

void eng_fills_reset(struct eng_fills *f)
{
	f->n = 0;
	f->ntakes = 0;
}

void eng_fills_free(struct eng_fills *f)
{
	free(f->v);
	free(f->takes);
	*f = (struct eng_fills){ 0 };
}

static void fills_push(struct eng_fills *f, const struct eng_fill *x)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 16;
		f->v = xreallocarray(f->v, f->cap, sizeof *f->v);
	}
	f->v[f->n++] = *x;
}

static void takes_push(struct eng_fills *f, int32_t node, int32_t gpus)
{
	if (f->ntakes == f->captakes) {
		f->captakes = f->captakes ? f->captakes * 2 : 64;
		f->takes = xreallocarray(f->takes, f->captakes, sizeof *f->takes);
	}
	f->takes[f->ntakes++] = (struct eng_take){ .node = node, .gpus = gpus };
}

/* ---- id -> rest map -------------------------------------------------------- */

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
			return s->rest;
		if (s->id == 0)
			return NIL;
		i = (i + 1) & e->mapmask;
	}
}

static void map_insert_raw(struct slot *map, size_t mask, int64_t id, int32_t rest)
{
	size_t i = hash_id(id) & mask;
	while (map[i].id != 0)
		i = (i + 1) & mask;
	map[i].id = id;
	map[i].rest = rest;
}

static void map_put(struct engine *e, int64_t id, int32_t rest)
{
	if ((e->mapused + 1) * 2 > e->mapmask + 1) {
		size_t ncap = (e->mapmask + 1) * 2;
		struct slot *nm = xcalloc(ncap, sizeof *nm);
		for (size_t i = 0; i <= e->mapmask; i++)
			if (e->map[i].id != 0)
				map_insert_raw(nm, ncap - 1, e->map[i].id, e->map[i].rest);
		free(e->map);
		e->map = nm;
		e->mapmask = ncap - 1;
	}
	map_insert_raw(e->map, e->mapmask, id, rest);
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

/* ---- rest pool ------------------------------------------------------------- */

static int32_t rest_alloc(struct engine *e)
{
	if (e->free_head != NIL) {
		int32_t n = e->free_head;
		e->free_head = e->rests[n].next;
		return n;
	}
	if (e->nrests == e->caprests) {
		if (e->caprests >= (size_t)INT32_MAX / 2)
			fatal("engine: too many resting orders");
		e->caprests = e->caprests ? e->caprests * 2 : 1024;
		e->rests = xreallocarray(e->rests, e->caprests, sizeof *e->rests);
	}
	return (int32_t)e->nrests++;
}

/* ---- lots: blocks of nodes ------------------------------------------------- */

static int lot_class(size_t n)
{
	int c = 0;
	while (((size_t)1 << c) < n)
		c++;
	if (c >= LOT_CLASSES)
		fatal("engine: a lot of %zu nodes is too large", n);
	return c;
}

static int32_t lot_alloc(struct engine *e, size_t n)
{
	int c = lot_class(n);
	struct i32stack *fl = &e->lot_free[c];
	if (fl->n > 0)
		return fl->v[--fl->n];
	size_t size = (size_t)1 << c;
	if (e->nlots + size > (size_t)INT32_MAX)
		fatal("engine: too many resting nodes");
	if (e->nlots + size > e->caplots) {
		size_t cap = e->caplots ? e->caplots : 4096;
		while (cap < e->nlots + size)
			cap *= 2;
		e->lots = xreallocarray(e->lots, cap, sizeof *e->lots);
		e->caplots = cap;
	}
	int32_t off = (int32_t)e->nlots;
	e->nlots += size;
	return off;
}

static void lot_release(struct engine *e, int32_t off, size_t n)
{
	struct i32stack *fl = &e->lot_free[lot_class(n)];
	if (fl->n == fl->cap) {
		fl->cap = fl->cap ? fl->cap * 2 : 64;
		fl->v = xreallocarray(fl->v, fl->cap, sizeof *fl->v);
	}
	fl->v[fl->n++] = off;
}

static void rest_release(struct engine *e, int32_t n)
{
	struct rest *r = &e->rests[n];
	if (r->lot != NIL)
		lot_release(e, r->lot, (size_t)r->n_nodes);
	r->next = e->free_head;
	e->free_head = n;
}

/* ---- what a lot can serve ------------------------------------------------ */

static inline int32_t unit_of(const struct eng_order *o)
{
	return o->node_gpus > 1 ? o->node_gpus : 1;
}

/* The units a sell of node size k can serve, as bits. */
static inline uint32_t units_served(const struct eng_order *s)
{
	int32_t k = unit_of(s);
	return s->whole_nodes ? 1u << k : (1u << (k + 1)) - 2u;
}

/* Does sell s's lot satisfy buy b's requirements (price, hours, accounts and
 * free GPUs aside)? */
static inline bool lot_fits(const struct eng_order *b, const struct eng_order *s)
{
	int32_t g = unit_of(b);
	if (!((units_served(s) >> g) & 1u))
		return false;
	if (b->link != ENG_LINK_ANY && b->link != s->link)
		return false;
	if (b->regions != 0 && !((b->regions >> s->region) & 1u))
		return false;
	return s->host.cpu_cores >= b->host.cpu_cores && s->host.ram_gb >= b->host.ram_gb &&
	       s->host.disk_gb >= b->host.disk_gb;
}

/* Units of g GPUs the lot (nd, n nodes of k; gpus free in all) holds, given that
 * it can serve units of g at all (lot_fits). */
static int32_t lot_units(const struct eng_node *nd, int32_t n, int32_t gpus, int32_t k,
                         int32_t g, bool whole)
{
	if (g == 1)
		return gpus;
	if (whole)
		return gpus / k;   /* a whole-node lot's nodes are full or empty */
	int32_t u = 0;
	for (int32_t i = 0; i < n; i++)
		u += nd[i].free / g;
	return u;
}

/* Take `units` units of g from the lot, fewest free GPUs first, then the lowest
 * index; record each node's share in fills (may be NULL) and write the nodes'
 * new free counts if `write`. The lot holds at least `units` such units. */
static void lot_take(struct eng_node *nd, int32_t n, int32_t k, int32_t g, int32_t units,
                     bool write, struct eng_fills *fills)
{
	int32_t left = units;
	for (int32_t f = g; f <= k && left > 0; f++) {
		for (int32_t i = 0; i < n && left > 0; i++) {
			if (nd[i].free != f)
				continue;
			int32_t u = f / g < left ? f / g : left;
			left -= u;
			if (fills != NULL)
				takes_push(fills, i, u * g);
			if (write)
				nd[i].free -= u * g;
		}
	}
	if (left != 0)
		fatal("engine: a lot held %d units fewer than it was counted to", left);
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
	for (int c = 0; c < LOT_CLASSES; c++)
		free(e->lot_free[c].v);
	free(e->books);
	free(e->rests);
	free(e->map);
	free(e->lots);
	free(e->scratch);
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

/* Widen a level's bounds to cover order o. */
static void level_cover(struct level *l, const struct eng_order *o)
{
	if (o->side == ENG_SELL) {
		if (o->hours > l->hours_bound)
			l->hours_bound = o->hours;
		l->units |= units_served(o);
		l->links |= 1u << o->link;
		l->regions |= UINT64_C(1) << o->region;
	} else {
		if (o->hours < l->hours_bound)
			l->hours_bound = o->hours;
		l->units |= 1u << unit_of(o);
		l->links |= o->link == ENG_LINK_ANY ? LINKS_ALL : 1u << o->link;
		l->regions |= o->regions == 0 ? UINT64_MAX : o->regions;
	}
}

/* A sell's size and lot must be whole nodes of a known size; a buy's whole units. */
static void check_shape(const struct eng_order *o)
{
	int32_t k = unit_of(o);
	if (k > ENG_NODE_GPUS_MAX || o->gpus % k != 0)
		fatal("engine: order %lld: %d GPUs are not whole units of %d", (long long)o->id,
		      o->gpus, k);
	if (o->link > ENG_LINK_PCIE || o->region >= ENG_REGIONS_MAX)
		fatal("engine: order %lld has an unknown link or region", (long long)o->id);
}

/* Append order *o (gpus > 0, id not resting) at the tail of its price level; a
 * sell's lot is nodes[0..n_nodes). */
static void rest(struct engine *e, size_t book, const struct eng_order *o,
                 const struct eng_node *nodes, size_t n_nodes)
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
	level_cover(l, o);
	int32_t lot = NIL;
	if (o->side == ENG_SELL) {
		lot = lot_alloc(e, n_nodes);   /* may move e->lots; nodes is never in it */
		memcpy(&e->lots[lot], nodes, n_nodes * sizeof *nodes);
	}
	int32_t n = rest_alloc(e);
	struct rest *r = &e->rests[n];
	r->o = *o;
	r->o.tif = ENG_GTC;
	r->o.node_gpus = unit_of(o);
	r->book = (uint32_t)book;
	r->lot = lot;
	r->n_nodes = (int32_t)n_nodes;
	r->prev = l->tail;
	r->next = NIL;
	if (l->tail != NIL)
		e->rests[l->tail].next = n;
	else
		l->head = n;
	l->tail = n;
	l->orders++;
	l->gpus += o->gpus;
	l->gpu_hours += (int64_t)o->gpus * o->hours;
	map_put(e, o->id, n);
}

static void unlink_rest(struct engine *e, struct level *l, int32_t n)
{
	struct rest *r = &e->rests[n];
	if (r->prev != NIL)
		e->rests[r->prev].next = r->next;
	else
		l->head = r->next;
	if (r->next != NIL)
		e->rests[r->next].prev = r->prev;
	else
		l->tail = r->prev;
	l->orders--;
	l->gpus -= r->o.gpus;
	l->gpu_hours -= (int64_t)r->o.gpus * r->o.hours;
}

/* The scratch lot of a sell being matched: n whole nodes of k. */
static struct eng_node *scratch_full(struct engine *e, size_t n, int32_t k)
{
	if (n > e->capscratch) {
		e->capscratch = n > 2 * e->capscratch ? n : 2 * e->capscratch;
		e->scratch = xreallocarray(e->scratch, e->capscratch, sizeof *e->scratch);
	}
	for (size_t i = 0; i < n; i++)
		e->scratch[i].free = k;
	return e->scratch;
}

/* Can any order of level l trade with taker o? (the bounds only) */
static inline bool level_may_trade(const struct level *l, const struct eng_order *o)
{
	if (o->side == ENG_BUY) {
		if (l->hours_bound < o->hours || !((l->units >> unit_of(o)) & 1u))
			return false;
		if (o->link != ENG_LINK_ANY && !((l->links >> o->link) & 1u))
			return false;
		return o->regions == 0 || (l->regions & o->regions) != 0;
	}
	return l->hours_bound <= o->hours && (l->units & units_served(o)) != 0 &&
	       ((l->links >> o->link) & 1u) && ((l->regions >> o->region) & 1u);
}

/* Record one fill (its takes are fills->takes[take..]). */
static void push_fill(struct eng_fills *fills, const struct eng_order *o, const struct eng_order *m,
                      int32_t gpus, int32_t unit, size_t take)
{
	bool buy = o->side == ENG_BUY;
	struct eng_fill f = {
		.maker_id = m->id, .maker_account = m->account,
		.taker_id = o->id, .taker_account = o->account,
		.price_cents = m->price_cents, .gpus = gpus,
		.hours = buy ? o->hours : m->hours, .taker_side = o->side,
		.unit = unit, .take = take, .ntakes = (int32_t)(fills->ntakes - take),
	};
	fills_push(fills, &f);
}

/* After q GPUs of resting order n (at level l) traded: shrink it, or remove it
 * when nothing is left. */
static void rest_reduce(struct engine *e, struct level *l, int32_t n, int32_t q)
{
	struct rest *r = &e->rests[n];
	if (q == r->o.gpus) {
		unlink_rest(e, l, n);
		map_del(e, r->o.id);
		rest_release(e, n);
	} else {
		r->o.gpus -= q;
		l->gpus -= q;
		l->gpu_hours -= (int64_t)q * r->o.hours;
	}
}

/*
 * The one matching walk. Takes the taker *o (not modified; a sell's nodes are
 * `lot`, n_nodes of them, which it changes even in a dry run: they are the
 * taker's own) and wants all of its GPUs; with dry set the book is not written;
 * fills (may be NULL) receive each trade. Returns the GPUs filled.
 */
static int32_t match(struct engine *e, struct book *b, const struct eng_order *o,
                     struct eng_node *lot, int32_t n_nodes, bool dry, struct eng_fills *fills)
{
	bool buy = o->side == ENG_BUY;
	struct side *s = &b->s[buy ? ENG_SELL : ENG_BUY];
	int32_t left = o->gpus;
	for (size_t i = s->n; i-- > 0 && left > 0;) {
		struct level *l = &s->lv[i];
		if (buy ? l->price > o->price_cents : l->price < o->price_cents)
			break;
		if (!level_may_trade(l, o))
			continue;
		for (int32_t n = l->head; n != NIL && left > 0;) {
			struct rest *r = &e->rests[n];
			int32_t next = r->next;
			const struct eng_order *m = &r->o;
			const struct eng_order *bo = buy ? o : m, *so = buy ? m : o;
			if (m->account == o->account || bo->hours > so->hours || !lot_fits(bo, so)) {
				n = next;
				continue;
			}
			int32_t g = unit_of(bo), k = unit_of(so);
			struct eng_node *nd = buy ? &e->lots[r->lot] : lot;
			int32_t nn = buy ? r->n_nodes : n_nodes;
			int32_t have = lot_units(nd, nn, buy ? m->gpus : left, k, g, so->whole_nodes);
			int32_t want = (buy ? left : m->gpus) / g;
			int32_t u = have < want ? have : want;
			if (u == 0) {
				n = next;
				continue;
			}
			size_t take = fills != NULL ? fills->ntakes : 0;
			lot_take(nd, nn, k, g, u, !buy || !dry, fills);
			if (fills != NULL)
				push_fill(fills, o, m, u * g, g, take);
			left -= u * g;
			if (!dry)
				rest_reduce(e, l, n, u * g);
			n = next;
		}
		if (!dry && l->orders == 0)
			level_remove(s, i);
	}
	return o->gpus - left;
}

int32_t engine_submit(struct engine *e, size_t book, struct eng_order *o, bool dry_run,
                      struct eng_fills *fills)
{
	struct book *b = book_at(e, book);
	if (o->gpus <= 0)
		return 0;
	check_shape(o);
	struct eng_order t = *o;
	t.node_gpus = unit_of(o);
	bool sell = t.side == ENG_SELL;
	int32_t n_nodes = sell ? t.gpus / t.node_gpus : 0;
	struct eng_node *lot = sell ? scratch_full(e, (size_t)n_nodes, t.node_gpus) : NULL;
	if (t.tif == ENG_FOK) {
		if (match(e, b, &t, lot, n_nodes, true, NULL) < t.gpus)
			return 0;
		if (sell)
			scratch_full(e, (size_t)n_nodes, t.node_gpus);
	}
	int32_t filled = match(e, b, &t, lot, n_nodes, dry_run, fills);
	o->gpus -= filled;
	t.gpus = o->gpus;
	bool rests = !dry_run && t.gpus > 0 && t.tif == ENG_GTC;
	if (rests)
		rest(e, book, &t, lot, (size_t)n_nodes);
	if (!dry_run && (filled > 0 || rests))
		b->changes++;
	return filled;
}

void engine_restore(struct engine *e, size_t book, const struct eng_order *o,
                    const struct eng_node *nodes, size_t n_nodes)
{
	book_at(e, book);
	if (o->gpus <= 0)
		return;
	struct eng_order t = *o;
	t.node_gpus = unit_of(o);
	e->books[book].changes++;
	if (t.side == ENG_BUY) {
		check_shape(&t);
		rest(e, book, &t, NULL, 0);
		return;
	}
	if (nodes == NULL) {
		check_shape(&t);
		n_nodes = (size_t)(t.gpus / t.node_gpus);
		nodes = scratch_full(e, n_nodes, t.node_gpus);
	}
	int64_t sum = 0;
	for (size_t i = 0; i < n_nodes; i++) {
		if (nodes[i].free < 0 || nodes[i].free > t.node_gpus ||
		    (t.whole_nodes && nodes[i].free != 0 && nodes[i].free != t.node_gpus))
			fatal("engine: order %lld: node %zu has %d free GPUs", (long long)t.id, i,
			      nodes[i].free);
		sum += nodes[i].free;
	}
	if (sum != t.gpus || t.node_gpus > ENG_NODE_GPUS_MAX || n_nodes == 0)
		fatal("engine: order %lld: its nodes hold %lld GPUs, not %d", (long long)t.id,
		      (long long)sum, t.gpus);
	rest(e, book, &t, nodes, n_nodes);
}

int engine_cancel(struct engine *e, size_t book, int64_t id, struct eng_order *out)
{
	struct book *b = book_at(e, book);
	int32_t n = id > 0 ? map_get(e, id) : NIL;
	if (n == NIL || e->rests[n].book != book)
		return -1;
	struct rest *r = &e->rests[n];
	struct side *s = &b->s[r->o.side];
	size_t i = level_lower(s, r->o.side, r->o.price_cents);
	if (i >= s->n || s->lv[i].price != r->o.price_cents)
		fatal("engine: order %lld has no level", (long long)id);
	if (out != NULL)
		*out = r->o;
	unlink_rest(e, &s->lv[i], n);
	if (s->lv[i].orders == 0)
		level_remove(s, i);
	map_del(e, id);
	rest_release(e, n);
	b->changes++;
	return 0;
}

uint64_t engine_changes(const struct engine *e, size_t book)
{
	return book_at(e, book)->changes;
}

void engine_clear(struct engine *e, size_t book)
{
	struct book *b = book_at(e, book);
	for (int side = 0; side < 2; side++) {
		struct side *s = &b->s[side];
		while (s->n > 0) {
			struct level *l = &s->lv[s->n - 1];
			int64_t id = e->rests[l->head].o.id;
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
		                             .gpu_hours = s->lv[i].gpu_hours,
		                             .units = s->lv[i].gpus };
	return k;
}

/* Units of f->unit resting order r can serve or asks for under filter f (0: none). */
static int64_t units_for(const struct engine *e, const struct rest *r, const struct eng_filter *f)
{
	const struct eng_order *m = &r->o;
	int32_t g = f->unit > 1 ? f->unit : 1;
	if (m->side == ENG_BUY) {
		if (unit_of(m) != g)
			return 0;
		if (m->link != ENG_LINK_ANY && f->link != ENG_LINK_ANY && m->link != f->link)
			return 0;
		if (m->regions != 0 && f->regions != 0 && (m->regions & f->regions) == 0)
			return 0;
		return m->gpus / g;
	}
	struct eng_order probe = { .side = ENG_BUY, .node_gpus = g, .link = f->link,
	                           .regions = f->regions, .host = f->min };
	if (!lot_fits(&probe, m))
		return 0;
	return lot_units(&e->lots[r->lot], r->n_nodes, m->gpus, unit_of(m), g, m->whole_nodes);
}

size_t engine_depth_for(const struct engine *e, size_t book, enum eng_side side,
                        const struct eng_filter *f, struct eng_level *out, size_t max)
{
	const struct side *s = &book_at(e, book)->s[side];
	int32_t g = f->unit > 1 ? f->unit : 1;
	size_t k = 0;
	for (size_t i = s->n; i-- > 0 && k < max;) {
		const struct level *l = &s->lv[i];
		if (!((l->units >> g) & 1u))
			continue;
		struct eng_level x = { .price_cents = l->price };
		for (int32_t n = l->head; n != NIL; n = e->rests[n].next) {
			int64_t u = units_for(e, &e->rests[n], f);
			if (u == 0)
				continue;
			x.units += u;
			x.orders++;
			x.gpu_hours += u * g * e->rests[n].o.hours;
		}
		x.gpus = x.units * g;
		if (x.units > 0)
			out[k++] = x;
	}
	return k;
}

bool engine_best_for(const struct engine *e, size_t book, enum eng_side side,
                     const struct eng_filter *f, struct eng_level *out)
{
	return engine_depth_for(e, book, side, f, out, 1) == 1;
}

const struct eng_order *engine_find(const struct engine *e, size_t book, int64_t id)
{
	book_at(e, book);
	int32_t n = id > 0 ? map_get(e, id) : NIL;
	if (n == NIL || e->rests[n].book != book)
		return NULL;
	return &e->rests[n].o;
}

size_t engine_nodes(const struct engine *e, size_t book, int64_t id, const struct eng_node **out)
{
	book_at(e, book);
	int32_t n = id > 0 ? map_get(e, id) : NIL;
	*out = NULL;
	if (n == NIL || e->rests[n].book != book || e->rests[n].lot == NIL)
		return 0;
	*out = &e->lots[e->rests[n].lot];
	return (size_t)e->rests[n].n_nodes;
}
