/*
 * exchange/watch.c — what the writer does after a book changes: the price
 * triggers of each GPU's alerts and waiting conditional orders (trig.h, one
 * set of each per GPU), the orders it watches when they fill (members of
 * one-cancels-other groups, standing orders), and the fills of the
 * transaction for what follows them.
 *
 * xd_watch_settle runs after every job, after the demo's drift and at
 * COMMIT. It looks only at books that changed (w->book_changed) or that it
 * was told to (the market opening) and that this transaction holds: with
 * one node every book, on a shared store those this node locked — so each
 * book's triggers are evaluated by whichever node changes it, against the
 * state every node will read once it commits. It works in rounds: the
 * fills noted since the last round (order_filled alerts, OCO siblings
 * cancelled, standing orders' new rentals put up for renewal), then, while
 * the market is open, the conditional orders whose trigger now holds enter
 * the book (in id order: acceptance order), which may fill and move the
 * book again; when a round does nothing, the alerts of the books as they
 * now stand fire, the job alerts last (jobalerts.c: each looks at every
 * book its job can run on). Evaluation is of the state, not of the path to it: a
 * condition that holds is taken out and acted on, so looking twice is
 * harmless and a book read again from the store needs only its triggers
 * read again with it (xd_watch_reload, from nodes.c).
 *
 * The triggers of a GPU are the store's rows (alerts.c, cond.c load them);
 * after a rolled-back transaction every GPU's are read again before use.
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "exchange/trig.h"
#include "util/util.h"

#define SETTLE_ROUNDS 64        /* cascades of conditional orders, at most */
#define TICK_US 250000          /* time-based work, at most this often */

const char *const xd_when_names[XD_WHEN_N + 1] = {
	"", "ask_lte", "ask_gte", "bid_lte", "bid_gte", "last_lte", "last_gte", "spread_lte",
	"spread_gte", "rental_ending", "order_filled", "job_total_lte", NULL,
};

int xd_when_lookup(const char *s)
{
	int i = s && *s ? xd_lookup(xd_when_names, s) : -1;
	return i > 0 ? i : XD_WHEN_NONE;
}

bool xd_when_price(int when, enum xd_metric *metric, bool *lte)
{
	if (when < XD_WHEN_ASK_LTE || when > XD_WHEN_SPREAD_GTE)
		return false;
	*metric = (enum xd_metric)((when - XD_WHEN_ASK_LTE) / 2);
	*lte = (when - XD_WHEN_ASK_LTE) % 2 == 0;
	return true;
}

struct gwatch {
	struct trig_set *set[2];     /* enum xd_watch_set */
	struct xd_mark *marks;       /* sorted by order id */
	size_t n_marks, cap_marks;
	bool force;                  /* look at this book at the next settle */
	bool stale;                  /* read its triggers again before use */
};

struct xd_watch {
	struct gwatch *g;
	size_t n;
	struct xd_fill_note *fills;
	size_t n_fills, cap_fills;
	struct trig_hits hits;
	bool settling;
	int64_t tick_us;             /* when the time-based work last ran (real time) */
};

/* ---- keys and prices ------------------------------------------------------------ */

/* A series: the metric, the node size and the region of a trigger. */
static uint32_t key_of(const struct xd_trigger *t, enum xd_metric m)
{
	uint32_t ng = t->node_gpus > 1 ? (uint32_t)t->node_gpus : 0;
	return (uint32_t)m | (ng & 0xff) << 4 | ((uint32_t)(t->region + 1) & 0xfff) << 12;
}

/* The price of series key on GPU g's book now; false when there is none
 * (an empty side, no trade yet). */
static bool price_of(struct xd_writer *w, int g, uint32_t key, int64_t *v)
{
	enum xd_metric m = (enum xd_metric)(key & 0xf);
	struct eng_level ask, bid;
	bool has_ask = false, has_bid = false;
	if (key >> 4)
		return false;   /* node sizes and regions: not priced by this book */
	if (m == XD_M_LAST) {
		*v = w->last_price[g];
		return *v >= 0;
	}
	if (m != XD_M_BID)
		has_ask = engine_best(w->eng, (size_t)g, ENG_SELL, &ask);
	if (m != XD_M_ASK)
		has_bid = engine_best(w->eng, (size_t)g, ENG_BUY, &bid);
	switch (m) {
	case XD_M_ASK: *v = ask.price_cents; return has_ask;
	case XD_M_BID: *v = bid.price_cents; return has_bid;
	case XD_M_SPREAD: *v = ask.price_cents - bid.price_cents; return has_ask && has_bid;
	case XD_M_LAST: break;
	}
	return false;
}

bool xd_watch_holds(struct xd_writer *w, int g, const struct xd_trigger *t, int64_t *value)
{
	enum xd_metric m;
	bool lte;
	if (!xd_when_price(t->when, &m, &lte) || !price_of(w, g, key_of(t, m), value))
		return false;
	return lte ? *value <= t->price : *value >= t->price;
}

/* ---- the sets --------------------------------------------------------------------- */

void xd_watch_new(struct xd_writer *w)
{
	struct xd_watch *x = xcalloc(1, sizeof *x);
	x->n = w->t->n_gpus;
	x->g = xcalloc(x->n ? x->n : 1, sizeof *x->g);
	for (size_t g = 0; g < x->n; g++)
		for (int k = 0; k < 2; k++)
			x->g[g].set[k] = trig_set_new();
	w->watch = x;
	xd_jalerts_new(w);
}

void xd_watch_free(struct xd_writer *w)
{
	struct xd_watch *x = w->watch;
	if (!x)
		return;
	for (size_t g = 0; g < x->n; g++) {
		for (int k = 0; k < 2; k++)
			trig_set_free(&x->g[g].set[k]);
		free(x->g[g].marks);
	}
	free(x->g);
	free(x->fills);
	trig_hits_free(&x->hits);
	free(x);
	w->watch = NULL;
	xd_jalerts_free(w);
}

static void add_or_remove(struct xd_writer *w, int g, enum xd_watch_set set,
                          const struct xd_trigger *t, int64_t id, bool add)
{
	enum xd_metric m;
	bool lte;
	if (!w->watch || g < 0 || (size_t)g >= w->watch->n || !xd_when_price(t->when, &m, &lte))
		return;
	struct trig_set *s = w->watch->g[g].set[set];
	if (add)
		trig_add(s, key_of(t, m), lte ? TRIG_LTE : TRIG_GTE, t->price, id);
	else
		trig_remove(s, key_of(t, m), lte ? TRIG_LTE : TRIG_GTE, t->price, id);
}

void xd_watch_add(struct xd_writer *w, int g, enum xd_watch_set set, const struct xd_trigger *t,
                  int64_t id)
{
	add_or_remove(w, g, set, t, id, true);
}

void xd_watch_remove(struct xd_writer *w, int g, enum xd_watch_set set, const struct xd_trigger *t,
                     int64_t id)
{
	add_or_remove(w, g, set, t, id, false);
}

/* ---- marks ---------------------------------------------------------------------------- */

static size_t mark_at(const struct gwatch *gw, int64_t order, bool *found)
{
	size_t lo = 0, hi = gw->n_marks;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (gw->marks[mid].order < order)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < gw->n_marks && gw->marks[lo].order == order;
	return lo;
}

void xd_watch_mark(struct xd_writer *w, int g, const struct xd_mark *m)
{
	struct gwatch *gw = &w->watch->g[g];
	bool found;
	size_t i = mark_at(gw, m->order, &found);
	if (!found) {
		if (gw->n_marks == gw->cap_marks) {
			gw->cap_marks = gw->cap_marks ? 2 * gw->cap_marks : 8;
			gw->marks = xreallocarray(gw->marks, gw->cap_marks, sizeof *gw->marks);
		}
		memmove(&gw->marks[i + 1], &gw->marks[i], (gw->n_marks - i) * sizeof *gw->marks);
		gw->n_marks++;
	}
	gw->marks[i] = *m;
}

void xd_watch_unmark(struct xd_writer *w, int g, int64_t order)
{
	struct gwatch *gw = &w->watch->g[g];
	bool found;
	size_t i = mark_at(gw, order, &found);
	if (found) {
		memmove(&gw->marks[i], &gw->marks[i + 1], (gw->n_marks - i - 1) * sizeof *gw->marks);
		gw->n_marks--;
	}
}

const struct xd_mark *xd_watch_marked(struct xd_writer *w, int g, int64_t order)
{
	struct gwatch *gw = &w->watch->g[g];
	bool found;
	size_t i = mark_at(gw, order, &found);
	return found ? &gw->marks[i] : NULL;
}

size_t xd_watch_group(struct xd_writer *w, int g, int64_t account, const char *oco,
                      struct xd_mark **out)
{
	struct gwatch *gw = &w->watch->g[g];
	size_t n = 0;
	*out = NULL;
	for (size_t i = 0; i < gw->n_marks; i++) {
		const struct xd_mark *m = &gw->marks[i];
		if (m->account != account || !m->oco[0] || strcmp(m->oco, oco) != 0)
			continue;
		*out = xreallocarray(*out, n + 1, sizeof **out);
		(*out)[n++] = *m;
	}
	return n;
}

/* ---- loading ----------------------------------------------------------------------------- */

void xd_watch_reload(struct xd_writer *w, int g)
{
	struct xd_watch *x = w->watch;
	if (!x || g < 0 || (size_t)g >= x->n)
		return;
	struct gwatch *gw = &x->g[g];
	for (int k = 0; k < 2; k++)
		trig_set_clear(gw->set[k]);
	gw->n_marks = 0;
	gw->stale = false;
	xd_alerts_load(w, g);
	xd_cond_load(w, g);
	gw->force = true;   /* look at it, now that it is known again */
}

int xd_watch_restore(struct xd_writer *w, char **cause)
{
	for (size_t g = 0; g < w->watch->n; g++)
		xd_watch_reload(w, (int)g);
	return 0;
}

void xd_watch_forget(struct xd_writer *w)
{
	struct xd_watch *x = w->watch;
	if (!x)
		return;
	for (size_t g = 0; g < x->n; g++)
		x->g[g].stale = true;
	x->n_fills = 0;
	xd_jalerts_forget(w);
}

void xd_watch_fill(struct xd_writer *w, const struct xd_fill_note *f)
{
	struct xd_watch *x = w->watch;
	if (x->n_fills == x->cap_fills) {
		x->cap_fills = x->cap_fills ? 2 * x->cap_fills : 32;
		x->fills = xreallocarray(x->fills, x->cap_fills, sizeof *x->fills);
	}
	x->fills[x->n_fills++] = *f;
}

void xd_watch_opened(struct xd_writer *w)
{
	struct xd_watch *x = w->watch;
	for (size_t g = 0; g < x->n; g++) {
		if (trig_set_size(x->g[g].set[XD_WATCH_ORDERS]) == 0)
			continue;
		xd_ops_begin(w);   /* they are looked at in this transaction */
		w->nodes->lock_book(w, (int)g);
		x->g[g].force = true;
	}
}

/* ---- settling ---------------------------------------------------------------------------- */

static void *memdup(const void *p, size_t n)
{
	void *q = xmalloc(n ? n : 1);
	memcpy(q, p, n);
	return q;
}

/* Is GPU g's book to be looked at now? Its triggers read again if need be. */
static bool candidate(struct xd_writer *w, int g)
{
	struct gwatch *gw = &w->watch->g[g];
	if (!(w->book_changed[g] || gw->force) || !w->nodes->holds_book(w, g))
		return false;
	if (gw->stale)
		xd_watch_reload(w, g);
	return true;
}

/* Take every condition of set that GPU g's prices meet into x->hits, each
 * hit's threshold replaced by the price that met it. */
static size_t take(struct xd_writer *w, int g, enum xd_watch_set set)
{
	struct xd_watch *x = w->watch;
	struct trig_set *s = x->g[g].set[set];
	trig_hits_reset(&x->hits);
	if (trig_set_size(s) == 0)
		return 0;
	const uint32_t *k0;
	size_t nk = trig_keys(s, &k0);
	uint32_t *keys = memdup(k0, nk * sizeof *keys);
	for (size_t i = 0; i < nk; i++) {
		int64_t v;
		if (!price_of(w, g, keys[i], &v))
			continue;
		size_t from = x->hits.n;
		trig_take(s, keys[i], v, &x->hits);
		for (size_t h = from; h < x->hits.n; h++)
			x->hits.v[h].threshold = v;
	}
	free(keys);
	return x->hits.n;
}

/* The hits of x->hits, copied out (handling one may take more). */
static struct trig_hit *hits_copy(struct xd_watch *x, size_t *n)
{
	*n = x->hits.n;
	return *n ? memdup(x->hits.v, *n * sizeof *x->hits.v) : NULL;
}

static bool settle_fills(struct xd_writer *w)
{
	struct xd_watch *x = w->watch;
	if (x->n_fills == 0)
		return false;
	struct xd_fill_note *f = x->fills;
	size_t n = x->n_fills;
	x->fills = NULL;
	x->n_fills = x->cap_fills = 0;
	xd_alerts_fills(w, f, n);
	xd_cond_fills(w, f, n);
	free(f);
	return true;
}

static bool settle_orders(struct xd_writer *w)
{
	bool acted = false;
	for (size_t g = 0; g < w->watch->n; g++) {
		if (!candidate(w, (int)g) || take(w, (int)g, XD_WATCH_ORDERS) == 0)
			continue;
		size_t n;
		struct trig_hit *h = hits_copy(w->watch, &n);
		for (size_t i = 0; i < n; i++)
			xd_cond_hit(w, (int)g, h[i].id, h[i].threshold);
		free(h);
		acted = true;
	}
	return acted;
}

static void settle_alerts(struct xd_writer *w)
{
	for (size_t g = 0; g < w->watch->n; g++) {
		if (!candidate(w, (int)g) || take(w, (int)g, XD_WATCH_ALERTS) == 0)
			continue;
		size_t n;
		struct trig_hit *h = hits_copy(w->watch, &n);
		for (size_t i = 0; i < n; i++)
			xd_alerts_hit(w, (int)g, h[i].id, h[i].threshold);
		free(h);
	}
}

void xd_watch_settle(struct xd_writer *w)
{
	struct xd_watch *x = w->watch;
	if (!x || x->settling || !w->in_tx)
		return;
	x->settling = true;
	for (int round = 0; round < SETTLE_ROUNDS; round++) {
		bool acted = settle_fills(w);
		if (w->state == EXCHANGE_OPEN)
			acted = settle_orders(w) || acted;
		if (!acted)
			break;
	}
	settle_alerts(w);
	xd_jalerts_settle(w);
	for (size_t g = 0; g < x->n; g++)
		if (w->nodes->holds_book(w, (int)g))
			x->g[g].force = false;
	x->settling = false;
}

void xd_watch_tick(struct xd_writer *w, bool now)
{
	struct xd_watch *x = w->watch;
	int64_t t = util_now_us();
	if (!now && t - x->tick_us < TICK_US)
		return;
	x->tick_us = t;
	xd_alerts_tick(w);
	if (w->state == EXCHANGE_OPEN)
		xd_renew_run(w);
	xd_watch_settle(w);
}
