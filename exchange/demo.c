/*
 * exchange/demo.c — the demo market of `gpuxd --demo` (docs/API.md, "The
 * demo market").
 *
 * Per GPU, three seller accounts rest a ladder of asks whose best price is
 * the seed pages' "from" price, with depth above it, and two buyer accounts
 * (shared by all GPUs) rest bids a few percent below. Each ladder is a pure
 * function of the GPU's base price P and an offset of d ticks (a tick is
 * 0.5 % of P, at least one cent): the best ask is P + d·tick, so at start
 * (d = 0) it is exactly P — for units of 1, and for SXM/OAM boards for
 * nodes of 8 too. The asks are lots as such machines are sold: PCIe cards
 * as single-GPU nodes, SXM and OAM boards as nodes of 8 on their link (one
 * maker also in nodes of 4, one level whole-node only), in the exchange's
 * regions in turn, each node with a host (cores, RAM, disk) of its size.
 *
 * The drift is a deterministic random walk on the exchange clock: every
 * STEP_MS of exchange time one GPU, chosen by a hash of (seed, step), moves
 * its offset one tick up or down (reflecting at ±MAX_TICKS), and its makers
 * cancel their resting orders and re-quote the whole ladder at full size
 * (which also replenishes what buyers took). The offsets at a given clock
 * reading depend only on the seed, so a restarted daemon continues the same
 * walk. Demo accounts have no API keys; they are kind 'demo' in the database.
 *
 * The market also trades by itself, slowly: at a quarter of the steps
 * (chosen by the same hash) a demo taker crosses the spread on the stepped
 * GPU for a few GPU-hours — a buy of the best ask when its price moved up,
 * a sell into the best bid when it moved down — as real orders, with their
 * rentals and ledger entries. Only steps taken live trade; the replay of a
 * walk after a restart does not.
 *
 * A fresh demo database also gets a history: HISTORY_DAYS of trades per GPU
 * before the first start, a seeded random walk in ticks that ends at the
 * seed price (within a tick), one trade every 15 to 45 minutes, so that candles and charts
 * have something to show at once. History trades are market data only:
 * they name no orders (buy_order, sell_order and maker_order are 0) and
 * have no rentals.
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define STEP_MS 2000
#define MAX_TICKS 10
#define MAKERS 3
#define BUYERS 2
#define MAX_RESTING 16
#define HISTORY_DAYS 7
#define HISTORY_TICKS 15

struct xd_demo {
	uint64_t seed;
	int64_t epoch;          /* exchange ms of step 0 */
	int64_t step;           /* last step applied */
	int32_t *offset;        /* per GPU, ticks */
	bool *dirty;            /* per GPU: re-quote at the next tick */
	int64_t (*makers)[MAKERS];
	int64_t buyers[BUYERS];
	int64_t (*resting)[MAX_RESTING];   /* per GPU, demo order ids that may rest */
	size_t *n_resting;
};

static uint64_t mix(uint64_t x)
{
	/* splitmix64 finaliser */
	x += 0x9E3779B97F4A7C15ULL;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

static void apply_step(struct xd_demo *d, size_t n_gpus, int64_t k)
{
	uint64_t h = mix(d->seed * 0x100000001B3ULL ^ (uint64_t)k);
	size_t g = (size_t)(h % n_gpus);
	int dir = (h >> 40) & 1 ? 1 : -1;
	if (d->offset[g] + dir > MAX_TICKS || d->offset[g] + dir < -MAX_TICKS)
		dir = -dir;
	d->offset[g] += dir;
	d->dirty[g] = true;
}

/* A demo order's lot (a sell) or unit (a buy): GPUs per node, whole nodes
 * only, the region (taken modulo the exchange's regions). */
struct demo_lot { int32_t node_gpus; bool whole; int region; };

/* A node's host, by its size: a board server of 8 (2 × 56 cores, 2 TB, 30 TB
 * of NVMe), of 4 (64 cores, 1 TB, 15 TB), a workstation-class host per PCIe
 * card (16 cores, 192 GB, 3.84 TB). */
static struct eng_host demo_host(int32_t node_gpus)
{
	if (node_gpus >= 8)
		return (struct eng_host){ 112, 2048, 30720 };
	if (node_gpus >= 4)
		return (struct eng_host){ 64, 1024, 15360 };
	return (struct eng_host){ 16, 192, 3840 };
}

static void place(struct xd_writer *w, int64_t account, int gpu, enum eng_side side,
                  int64_t price, int32_t gpus, int32_t hours, const struct demo_lot *lot)
{
	struct xd_demo *d = w->demo;
	if (price < 1)
		return;
	struct xd_order_in in = {
		.gpu = gpu, .side = side, .type = XD_LIMIT, .tif = ENG_GTC, .gpus = gpus,
		.hours = hours, .price = price, .node_gpus = lot->node_gpus,
		.whole_nodes = lot->whole, .region = lot->region % (int)w->t->n_regions,
	};
	if (side == ENG_SELL)
		in.host = demo_host(lot->node_gpus);
	int64_t id = xd_ops_place(w, account, &in);
	if (id > 0 && engine_find(w->eng, (size_t)gpu, id) && d->n_resting[gpu] < MAX_RESTING)
		d->resting[gpu][d->n_resting[gpu]++] = id;
}

static int64_t pct(int64_t p, int64_t per_mille, int64_t min)
{
	int64_t x = p * per_mille / 1000;
	return x < min ? min : x;
}

/* The demo orders resting on GPU g, from the database. */
static void resting_from_db(struct xd_writer *w, int g)
{
	struct xd_demo *d = w->demo;
	struct xd_q *st = xd_stmt(w->st,
		"SELECT o.id FROM orders o JOIN accounts a ON a.id = o.account "
		"WHERE o.gpu = ?1 AND o.remaining > 0 AND a.kind = 'demo' ORDER BY o.id");
	xd_bind_text(st, 1, w->t->gpu_ids[g]);
	d->n_resting[g] = 0;
	while (xd_step(st) == XD_ROW && d->n_resting[g] < MAX_RESTING)
		d->resting[g][d->n_resting[g]++] = xd_col_int64(st, 0);
	xd_reset(st);
}

void xd_demo_forget(struct xd_writer *w)
{
	struct xd_demo *d = w->demo;
	for (size_t g = 0; d && g < w->t->n_gpus; g++)
		d->dirty[g] = true;
}

static void requote(struct xd_writer *w, int g)
{
	struct xd_demo *d = w->demo;
	int64_t base = w->t->demo_from_cents[g];
	if (base <= 0)
		return;
	resting_from_db(w, g);   /* another node may have driven the demo before */
	for (size_t i = 0; i < d->n_resting[g]; i++)
		xd_ops_cancel(w, d->resting[g][i]);   /* -1 if it filled meanwhile: fine */
	d->n_resting[g] = 0;
	int64_t tick = base / 200 > 0 ? base / 200 : 1;
	int64_t p = base + d->offset[g] * tick;
	if (p < 1)
		p = 1;
	const int64_t *mk = d->makers[g];
	bool board = w->t->gpu_link[g] != ENG_LINK_PCIE;
	int32_t k8 = board ? 8 : 1, k4 = board ? 4 : 1;
	const struct demo_lot l0 = { k8, false, 0 }, l1 = { k4, false, 1 }, l2 = { k8, false, 2 },
	                      l3 = { k8, board, 1 }, l4 = { k8, false, 0 }, plain = { 1, false, 0 },
	                      node = { 8, false, 0 };
	place(w, mk[0], g, ENG_SELL, p, 16, 720, &l0);
	place(w, mk[1], g, ENG_SELL, p, 8, 720, &l1);
	place(w, mk[2], g, ENG_SELL, p + pct(p, 10, 1), 32, 720, &l2);
	place(w, mk[0], g, ENG_SELL, p + pct(p, 25, 2), 48, 720, &l3);
	place(w, mk[1], g, ENG_SELL, p + pct(p, 50, 3), 64, 720, &l4);
	place(w, d->buyers[0], g, ENG_BUY, p - pct(p, 30, 1), 8, 4, &plain);
	place(w, d->buyers[1], g, ENG_BUY, p - pct(p, 60, 2), 16, 2, board ? &node : &plain);
}

/* The taker of step k: a few GPU-hours across the spread of the GPU that
 * moved, at a quarter of the steps. */
static void take(struct xd_writer *w, int64_t k)
{
	struct xd_demo *d = w->demo;
	uint64_t h = mix(d->seed * 0x100000001B3ULL ^ (uint64_t)k);
	size_t g = (size_t)(h % w->t->n_gpus);
	uint64_t r = mix(h);
	struct eng_level best;
	if (r % 4 != 0 || w->t->demo_from_cents[g] <= 0)
		return;
	bool buy = (h >> 40) & 1;
	static const struct eng_filter one = { .unit = 1 };
	if (!engine_best_for(w->eng, g, buy ? ENG_SELL : ENG_BUY, &one, &best))
		return;
	struct xd_order_in in = {
		.gpu = (int)g, .side = buy ? ENG_BUY : ENG_SELL, .type = XD_LIMIT, .tif = ENG_IOC,
		.gpus = (int32_t)(1 + (r >> 8) % 3), .hours = (int32_t)(1 + (r >> 16) % 8),
		.price = best.price_cents,
	};
	xd_ops_place(w, buy ? d->buyers[1] : d->makers[g][2], &in);
}

void xd_demo_tick(struct xd_writer *w)
{
	struct xd_demo *d = w->demo;
	if (!d)
		return;
	int64_t k = (w->now - d->epoch) / STEP_MS;
	for (int64_t s = d->step + 1; s <= k; s++) {
		apply_step(d, w->t->n_gpus, s);
		if (s > k - 8)            /* a long pause does not trade its backlog */
			take(w, s);
	}
	if (k > d->step)
		d->step = k;
	for (size_t g = 0; g < w->t->n_gpus; g++) {
		if (d->dirty[g]) {
			d->dirty[g] = false;
			requote(w, (int)g);
		}
	}
}

int64_t xd_demo_next_ms(struct xd_writer *w)
{
	struct xd_demo *d = w->demo;
	if (!d)
		return INT64_MAX;
	return d->epoch + (d->step + 1) * STEP_MS - w->now;
}

static int64_t find_account(struct xd_writer *w, const char *email)
{
	struct xd_q *st = xd_stmt(w->st, "SELECT id FROM accounts WHERE kind = 'demo' AND email = ?1");
	xd_bind_text(st, 1, email);
	int64_t id = xd_step(st) == XD_ROW ? xd_col_int64(st, 0) : 0;
	xd_reset(st);
	return id;
}

static int64_t demo_account(struct xd_writer *w, const char *email, int role, bool funded)
{
	int64_t id = find_account(w, email);
	if (id)
		return id;
	id = xd_ops_account(w, "demo", email, "US", xd_settings_cur(w->set, "USD"), role, NULL);
	if (funded)
		xd_ops_deposit(w, id, 10000000000000LL);   /* US$ 100 billion of bids */
	return id;
}

/* HISTORY_DAYS of trades of gpu before `end`, ending at its seed price. */
static void history_gpu(struct xd_writer *w, int g, int64_t end)
{
	struct xd_demo *d = w->demo;
	int64_t base = w->t->demo_from_cents[g];
	int64_t tick = base / 200 > 0 ? base / 200 : 1;
	int64_t at = end, off = 0, last_id = 0;
	uint64_t h = mix(d->seed ^ 0x5EED0000ULL ^ (uint64_t)g << 32);
	struct xd_q *st = xd_stmt(w->st,
		"INSERT INTO trades(gpu, price, gpus, hours, buy_order, sell_order, maker_order, "
		"taker_side, at_ms) VALUES(?1, ?2, ?3, ?4, 0, 0, 0, ?5, ?6) RETURNING id");
	/* walk back from the seed price; inserted oldest first, so ids follow time */
	int64_t n = 0, cap = HISTORY_DAYS * 24 * 4 + 1;
	struct { int64_t at, price; int32_t gpus, hours; int side; } *v = xcalloc((size_t)cap, sizeof *v);
	while (n < cap) {
		h = mix(h);
		at -= 15 * 60000 + (int64_t)(h % (30 * 60000));
		if (at <= end - HISTORY_DAYS * 86400000LL)
			break;
		int step = (h >> 32) & 1 ? 1 : -1;
		if (off + step > HISTORY_TICKS || off + step < -HISTORY_TICKS)
			step = -step;
		off += step;
		int64_t p = base + off * tick;
		v[n].at = at;
		v[n].price = p > 1 ? p : 1;
		v[n].gpus = (int32_t)(1 + (h >> 40) % 8);
		v[n].hours = (int32_t)(1 + (h >> 48) % 24);
		v[n].side = (int)((h >> 56) & 1);
		n++;
	}
	for (int64_t i = n; i-- > 0;) {
		xd_reset(st);
		xd_bind_text(st, 1, w->t->gpu_ids[g]);
		xd_bind_int64(st, 2, v[i].price);
		xd_bind_int(st, 3, v[i].gpus);
		xd_bind_int(st, 4, v[i].hours);
		xd_bind_text(st, 5, xd_side_names[v[i].side]);
		xd_bind_int64(st, 6, v[i].at);
		last_id = xd_step_id(st);
		w->last_price[g] = v[i].price;
	}
	free(v);
	if (last_id) {
		xd_stream_seed_trade(w->stream, g, last_id);
		w->book_changed[g] = true;
	}
}

int xd_demo_init(struct xd_writer *w, uint64_t seed, char **cause)
{
	size_t n = w->t->n_gpus;
	struct xd_demo *d = xcalloc(1, sizeof *d);
	d->seed = seed;
	d->offset = xcalloc(n, sizeof *d->offset);
	d->dirty = xcalloc(n, sizeof *d->dirty);
	d->makers = xcalloc(n, sizeof *d->makers);
	d->resting = xcalloc(n, sizeof *d->resting);
	d->n_resting = xcalloc(n, sizeof *d->n_resting);
	w->demo = d;
	xd_ops_begin(w);
	bool fresh = xd_meta_get(w->st, "demo_epoch", -1) < 0;
	if (fresh)
		xd_meta_set(w->st, "demo_epoch", w->now);
	d->epoch = xd_meta_get(w->st, "demo_epoch", w->now);
	for (size_t g = 0; fresh && g < n; g++)
		if (w->t->demo_from_cents[g] > 0)
			history_gpu(w, (int)g, d->epoch);
	for (int b = 0; b < BUYERS; b++) {
		char *email = xasprintf("buyer-%d@demo.gpux", b + 1);
		d->buyers[b] = demo_account(w, email, XD_ROLE_BUYER, true);
		free(email);
	}
	for (size_t g = 0; g < n; g++) {
		for (int k = 0; k < MAKERS; k++) {
			char *email = xasprintf("maker-%s-%d@demo.gpux", w->t->gpu_ids[g], k + 1);
			d->makers[g][k] = demo_account(w, email, XD_ROLE_SELLER, false);
			free(email);
		}
	}
	/* what rests from an earlier run: cancelled at the first re-quote */
	struct xd_q *st = xd_stmt(w->st,
		"SELECT o.id, o.gpu FROM orders o JOIN accounts a ON a.id = o.account "
		"WHERE o.remaining > 0 AND a.kind = 'demo' ORDER BY o.id");
	while (xd_step(st) == XD_ROW) {
		int g = xd_tables_gpu(w->t, xd_col_text(st, 1));
		if (g >= 0 && d->n_resting[g] < MAX_RESTING)
			d->resting[g][d->n_resting[g]++] = xd_col_int64(st, 0);
	}
	xd_reset(st);
	/* replay the walk up to now; every ladder is (re)quoted */
	d->step = 0;
	int64_t k = (w->now - d->epoch) / STEP_MS;
	for (int64_t s = 1; s <= k; s++)
		apply_step(d, n, s);
	d->step = k > 0 ? k : 0;
	for (size_t g = 0; g < n; g++)
		d->dirty[g] = true;
	if (w->nodes->leader(w))
		xd_demo_tick(w);
	(void)cause;
	return 0;
}

void xd_demo_free(struct xd_demo **dp)
{
	struct xd_demo *d = *dp;
	if (!d)
		return;
	free(d->offset);
	free(d->dirty);
	free(d->makers);
	free(d->resting);
	free(d->n_resting);
	free(d);
	*dp = NULL;
}
