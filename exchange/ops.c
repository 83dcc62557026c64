/*
 * exchange/ops.c — what the writer thread does, inside its transaction:
 * accounts, deposits, orders and their fills, holds, rentals, hourly billing
 * and the double-entry ledger (docs/API.md is the contract).
 *
 * The writer is the only code that changes the books or the database, so it
 * keeps every account's balances in memory (w->accts, indexed by id) and
 * writes the changed ones back once per transaction. Every money movement goes
 * through post(): one ledger entry of two rows in one currency that sum to
 * zero, and a customer's bucket going below zero is a bug that stops the
 * daemon before anything is committed.
 *
 * Each job checks everything that can refuse it (idempotency, role, market
 * state, funds) before it changes anything, so a refused job leaves the
 * engine and the transaction as they were. Amounts follow the rounding rules:
 * per GPU-hour, up for buyers, down for sellers (exchange_unit & co.).
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* The writer's view of one order row. */
struct ord {
	int64_t id, account;
	int gpu;
	enum eng_side side;
	enum xd_otype type;
	enum eng_tif tif;
	int32_t gpus, hours, filled, remaining;
	int64_t price, unit, filled_value, hold;
	const char *status;
	struct xd_order_in lot;      /* its lot (a sell) or requirements (a buy) */
};

struct rental {
	int64_t id, buyer, seller, buy_order, sell_order;
	int32_t gpus, hours, billed_h;
	int64_t net_unit, vat_unit, payout_unit, started, billed, paid_out;
	int64_t fee_unit, fees;      /* the trade fee per GPU-hour, and charged so far */
};

/* ---- transactions and balances ---------------------------------------------- */

void xd_ops_begin(struct xd_writer *w)
{
	if (!w->in_tx) {
		w->st->ops->begin(w->st);
		w->in_tx = true;
		w->tx++;
	}
}

static struct xd_acct *acct_slot(struct xd_writer *w, int64_t id);
static int acct_fill(struct xd_writer *w, int64_t id, struct xd_q *st);

/* An account's row, read into w->accts for this transaction (nodes.c's
 * shared store reads each account once per transaction, as another node may
 * have changed it since; it is not locked: the transaction's changes are
 * written as deltas at COMMIT, and a hold that another node spent meanwhile
 * fails the row's CHECK there, and the batch runs again). */
void xd_ops_account_read(struct xd_writer *w, int64_t id)
{
	xd_ops_begin(w);
	struct xd_q *st = xd_stmt(w->st, "SELECT id, kind, currency, country, role, available, held, "
	                                 "debt FROM accounts WHERE id = ?1");
	xd_bind_int64(st, 1, id);
	if (xd_step(st) != XD_ROW || acct_fill(w, id, st) != 0) {
		if ((size_t)id < w->n_accts)
			w->accts[id].exists = false;
	} else {
		struct xd_acct *a = &w->accts[id];
		a->tx = w->tx;
		a->base_avail = a->avail;
		a->base_held = a->held;
		a->base_debt = a->debt;
	}
	xd_reset(st);
}

struct xd_acct *xd_ops_acct(struct xd_writer *w, int64_t id)
{
	if (id <= 0)
		return NULL;
	w->nodes->account(w, id);
	if ((size_t)id >= w->n_accts || !w->accts[id].exists)
		return NULL;
	return &w->accts[id];
}

static struct xd_acct *acct(struct xd_writer *w, int64_t id)
{
	return xd_ops_acct(w, id);
}

static struct xd_acct *acct_slot(struct xd_writer *w, int64_t id)
{
	if ((size_t)id >= w->n_accts) {
		size_t n = w->n_accts ? w->n_accts : 64;
		while (n <= (size_t)id)
			n *= 2;
		w->accts = xrealloc(w->accts, n * sizeof *w->accts);
		memset(w->accts + w->n_accts, 0, (n - w->n_accts) * sizeof *w->accts);
		w->n_accts = n;
	}
	return &w->accts[id];
}

static void mark_dirty(struct xd_writer *w, int64_t id)
{
	struct xd_acct *a = &w->accts[id];
	if (a->dirty)
		return;
	a->dirty = true;
	if (w->n_dirty == w->cap_dirty) {
		w->cap_dirty = w->cap_dirty ? 2 * w->cap_dirty : 64;
		w->dirty = xrealloc(w->dirty, w->cap_dirty * sizeof *w->dirty);
	}
	w->dirty[w->n_dirty++] = id;
}

enum xd_commit xd_ops_commit(struct xd_writer *w)
{
	xd_keys_flush(w);
	if (!w->in_tx)
		return XD_COMMITTED;
	w->nodes->flush_accounts(w);
	w->nodes->before_commit(w);
	if (w->lease)
		xd_meta_set(w->st, "clock_ms", w->now);
	w->in_tx = false;
	return w->st->ops->commit(w->st);
}

const char *const xd_bucket_names[4] = { "available", "held", "debt", NULL };

static int64_t *bucket_of(struct xd_acct *a, int bucket)
{
	return bucket == XD_HELD ? &a->held : bucket == XD_DEBT ? &a->debt : &a->avail;
}

void xd_ops_post(struct xd_writer *w, const char *kind, int64_t from, int from_bucket, int64_t to,
                 int to_bucket, int64_t amount, int64_t order_id, int64_t rental_id)
{
	if (amount == 0)
		return;
	struct xd_acct *a = acct(w, from), *b = acct(w, to);
	if (!a || !b || a->cur != b->cur || amount < 0)
		fatal("gpuxd: bad ledger movement %s %" PRId64 " -> %" PRId64 " of %" PRId64, kind, from,
		      to, amount);
	int64_t *fa = bucket_of(a, from_bucket), *tb = bucket_of(b, to_bucket);
	*fa -= amount;
	*tb += amount;
	if (!a->system && from_bucket != XD_DEBT && *fa < 0)
		fatal("gpuxd: %s would leave account %" PRId64 " negative", kind, from);
	if (!b->system && to_bucket == XD_DEBT && *tb > 0)
		fatal("gpuxd: %s would leave account %" PRId64 " owed money", kind, to);
	mark_dirty(w, from);
	mark_dirty(w, to);
	const int64_t ids[2] = { from, to };
	const int buckets[2] = { from_bucket, to_bucket };
	w->last_entry = w->nodes->ledger(w, kind, a->cur, ids, buckets, amount, order_id, rental_id);
}

/* Move amount from (from, bucket) to (to, bucket) as one ledger entry of two
 * rows. held: the customer's "held" bucket, else "available". */
static void post(struct xd_writer *w, const char *kind, int64_t from, bool from_held, int64_t to,
                 bool to_held, int64_t amount, int64_t order_id, int64_t rental_id)
{
	xd_ops_post(w, kind, from, from_held ? XD_HELD : XD_AVAILABLE, to,
	            to_held ? XD_HELD : XD_AVAILABLE, amount, order_id, rental_id);
}

/* ---- accounts ------------------------------------------------------------------ */

int64_t xd_ops_account(struct xd_writer *w, const char *kind, const char *email,
                       const char *country, int cur, int role, const unsigned char *key_hash)
{
	xd_ops_begin(w);
	struct xd_q *st = xd_stmt(w->st,
		"INSERT INTO accounts(kind, email, country, currency, role, created_ms) "
		"VALUES(?1, ?2, ?3, ?4, ?5, ?6) RETURNING id");
	xd_bind_text(st, 1, kind);
	if (email)
		xd_bind_text(st, 2, email);
	if (country)
		xd_bind_text(st, 3, country);
	xd_bind_text(st, 4, xd_cur_code(w, cur));
	if (role >= 0)
		xd_bind_text(st, 5, xd_role_names[role]);
	xd_bind_int64(st, 6, w->now);
	int64_t id = xd_step_id(st);
	if (key_hash)
		xd_keys_insert(w, id, key_hash, "default", XD_SCOPE_TRADE);
	struct xd_acct *a = acct_slot(w, id);
	memset(a, 0, sizeof *a);
	a->exists = true;
	a->cur = cur;
	a->role = role;
	a->system = role < 0;
	a->tx = w->tx;
	int32_t bp = country ? xd_tables_vat(w->t, country) : 0;
	a->vat_bp = bp < 0 ? 0 : bp;
	return id;
}

void xd_ops_deposit(struct xd_writer *w, int64_t account, int64_t amount)
{
	xd_ops_begin(w);
	struct xd_acct *a = acct(w, account);
	post(w, "deposit", w->sys_external[a->cur], false, account, false, amount, 0, 0);
}

/* ---- orders -------------------------------------------------------------------- */

static bool load_order(struct xd_writer *w, int64_t id, struct ord *o)
{
	struct xd_q *st = xd_stmt(w->st,
		"SELECT account, gpu, side, type, tif, gpus, hours, filled, remaining, price, unit, "
		"filled_value, hold, " XD_LOT_COLS " FROM orders WHERE id = ?1");
	xd_bind_int64(st, 1, id);
	if (xd_step(st) != XD_ROW) {
		xd_reset(st);
		return false;
	}
	o->id = id;
	o->account = xd_col_int64(st, 0);
	o->gpu = xd_tables_gpu(w->t, xd_col_text(st, 1));
	o->side = (enum eng_side)xd_lookup(xd_side_names, xd_col_text(st, 2));
	o->type = (enum xd_otype)xd_lookup(xd_type_names, xd_col_text(st, 3));
	o->tif = (enum eng_tif)xd_lookup(xd_tif_names, xd_col_text(st, 4));
	o->gpus = xd_col_int(st, 5);
	o->hours = xd_col_int(st, 6);
	o->filled = xd_col_int(st, 7);
	o->remaining = xd_col_int(st, 8);
	o->price = xd_col_int64(st, 9);
	o->unit = xd_col_int64(st, 10);
	o->filled_value = xd_col_int64(st, 11);
	o->hold = xd_col_int64(st, 12);
	o->status = NULL;
	o->lot = (struct xd_order_in){ .gpu = o->gpu, .side = o->side };
	xd_lot_from_row(w->t, st, 13, o->gpu, &o->lot);
	xd_reset(st);
	return true;
}

/* Write an order's row back; a resting sell's nodes as the engine has them. */
static void save_order(struct xd_writer *w, const struct ord *o)
{
	const struct eng_node *nd;
	size_t n = o->side == ENG_SELL && o->remaining > 0
	           ? engine_nodes(w->eng, (size_t)o->gpu, o->id, &nd) : 0;
	char *nodes = n ? xd_nodes_text(nd, n) : NULL;
	struct xd_q *st = xd_stmt(w->st,
		"UPDATE orders SET status = ?2, filled = ?3, remaining = ?4, filled_value = ?5, "
		"hold = ?6, updated_ms = ?7, nodes_free = ?8 WHERE id = ?1");
	xd_bind_int64(st, 1, o->id);
	xd_bind_text(st, 2, o->status);
	xd_bind_int(st, 3, o->filled);
	xd_bind_int(st, 4, o->remaining);
	xd_bind_int64(st, 5, o->filled_value);
	xd_bind_int64(st, 6, o->hold);
	xd_bind_int64(st, 7, w->now);
	if (nodes)
		xd_bind_text(st, 8, nodes);
	xd_step_done(w->st, st);
	free(nodes);
}

static const char *resting_status(const struct ord *o)
{
	return o->filled > 0 ? "partially_filled" : "open";
}

/* Bill nh hours of a rental: the buyer's hold pays net and VAT, the seller is
 * paid. The caller saves the rental row. */
static void bill_hours(struct xd_writer *w, struct rental *r, int32_t nh)
{
	struct xd_acct *b = acct(w, r->buyer), *s = acct(w, r->seller);
	int64_t net = (int64_t)nh * r->gpus * r->net_unit;
	int64_t vat = (int64_t)nh * r->gpus * r->vat_unit;
	int64_t pay = (int64_t)nh * r->gpus * r->payout_unit;
	post(w, "charge", r->buyer, true, w->sys_clearing[b->cur], false, net, r->buy_order, r->id);
	post(w, "vat", r->buyer, true, w->sys_vat[b->cur], false, vat, r->buy_order, r->id);
	post(w, "payout", w->sys_clearing[s->cur], false, r->seller, false, pay, r->sell_order, r->id);
	int64_t fee = (int64_t)nh * r->gpus * r->fee_unit;
	xd_fee_bill(w, r->seller, s->cur, fee, r->sell_order, r->id);
	r->billed_h += nh;
	r->billed += net + vat;
	r->paid_out += pay;
	r->fees += fee;
}

/* One fill: a trade, a rental (the lot it was cut from and its nodes) with its
 * first hour billed, the buy order's hold narrowed to the trade price, the
 * maker's row updated. */
static void do_fill(struct xd_writer *w, int gpu, const struct eng_fill *f, struct ord *taker)
{
	struct ord maker;
	if (!load_order(w, f->maker_id, &maker))
		fatal("gpuxd: resting order %" PRId64 " is not in the database", f->maker_id);
	struct ord *buy = taker->side == ENG_BUY ? taker : &maker;
	struct ord *sell = taker->side == ENG_BUY ? &maker : taker;
	int64_t p = f->price_cents;
	int32_t g = f->gpus, h = f->hours;

	struct xd_q *st = xd_stmt(w->st,
		"INSERT INTO trades(gpu, price, gpus, hours, buy_order, sell_order, maker_order, "
		"taker_side, at_ms) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) RETURNING id");
	xd_bind_text(st, 1, w->t->gpu_ids[gpu]);
	xd_bind_int64(st, 2, p);
	xd_bind_int(st, 3, g);
	xd_bind_int(st, 4, h);
	xd_bind_int64(st, 5, buy->id);
	xd_bind_int64(st, 6, sell->id);
	xd_bind_int64(st, 7, maker.id);
	xd_bind_text(st, 8, xd_side_names[taker->side]);
	xd_bind_int64(st, 9, w->now);
	int64_t tid = xd_step_id(st);
	if (!w->tid_lo[gpu])
		w->tid_lo[gpu] = tid;
	w->tid_hi[gpu] = tid;
	xd_stream_trade(w->stream, gpu, tid, p, g, h, (int)taker->side, w->now);

	struct xd_acct *ba = acct(w, buy->account), *sa = acct(w, sell->account);
	struct rental r = {
		.id = tid, .buyer = buy->account, .seller = sell->account, .buy_order = buy->id,
		.sell_order = sell->id, .gpus = g, .hours = h, .started = w->now,
	};
	r.net_unit = xd_fx_net_unit(w, ba->cur, p);
	r.vat_unit = exchange_vat_unit(r.net_unit, ba->vat_bp);
	if (r.net_unit + r.vat_unit > buy->unit) {
		/* only if the tables changed while the order rested: never charge more
		 * than the hold the buyer agreed to */
		r.vat_unit = r.vat_unit < buy->unit ? r.vat_unit : buy->unit;
		r.net_unit = buy->unit - r.vat_unit;
	}
	r.payout_unit = xd_fx_payout_unit(w, sa->cur, p);
	r.fee_unit = xd_fee_unit(w, r.payout_unit);

	/* the buy order's hold for these GPUs becomes the rental's; the rest is freed */
	int64_t consumed = (int64_t)g * h * buy->unit;
	int64_t kept = (int64_t)g * h * (r.net_unit + r.vat_unit);
	buy->hold -= consumed;
	post(w, "release", buy->account, true, buy->account, false, consumed - kept, buy->id, 0);

	bill_hours(w, &r, 1);
	char *nodes = xd_takes_text(&w->fills.takes[f->take], f->ntakes);
	const struct xd_order_in *lot = &sell->lot;
	st = xd_stmt(w->st,
		"INSERT INTO rentals(id, gpu, buyer, seller, buy_order, sell_order, gpus, hours, price, "
		"net_unit, vat_unit, payout_unit, hours_billed, status, started_ms, next_ms, billed, "
		"paid_out, node_gpus, interconnect, region, cpu_cores, ram_gb, disk_gb, nodes, "
		"fee_unit, fees) "
		"VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, 'active', ?14, "
		"?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26)");
	xd_bind_int64(st, 1, tid);
	xd_bind_text(st, 2, w->t->gpu_ids[gpu]);
	xd_bind_int64(st, 3, r.buyer);
	xd_bind_int64(st, 4, r.seller);
	xd_bind_int64(st, 5, r.buy_order);
	xd_bind_int64(st, 6, r.sell_order);
	xd_bind_int(st, 7, g);
	xd_bind_int(st, 8, h);
	xd_bind_int64(st, 9, p);
	xd_bind_int64(st, 10, r.net_unit);
	xd_bind_int64(st, 11, r.vat_unit);
	xd_bind_int64(st, 12, r.payout_unit);
	xd_bind_int(st, 13, r.billed_h);
	xd_bind_int64(st, 14, r.started);
	/* the next event: the start of hour 2, or the end of a one-hour rental */
	xd_bind_int64(st, 15, r.started + XD_HOUR_MS);
	xd_bind_int64(st, 16, r.billed);
	xd_bind_int64(st, 17, r.paid_out);
	xd_bind_int(st, 18, lot->node_gpus);
	xd_bind_text(st, 19, xd_link_names[lot->link]);
	xd_bind_text(st, 20, w->t->regions[lot->region].id);
	xd_bind_int(st, 21, lot->host.cpu_cores);
	xd_bind_int(st, 22, lot->host.ram_gb);
	xd_bind_int(st, 23, lot->host.disk_gb);
	xd_bind_text(st, 24, nodes);
	xd_bind_int64(st, 25, r.fee_unit);
	xd_bind_int64(st, 26, r.fees);
	xd_step_done(w->st, st);
	free(nodes);

	maker.filled += g;
	maker.remaining -= g;
	maker.filled_value += p * g;
	maker.status = maker.remaining > 0 ? "partially_filled" : "filled";
	save_order(w, &maker);
	taker->filled += g;
	taker->remaining -= g;
	taker->filled_value += p * g;
	w->last_price[gpu] = p;
}

int64_t xd_ops_place(struct xd_writer *w, int64_t account, const struct xd_order_in *req)
{
	xd_ops_begin(w);
	struct xd_acct *a = acct(w, account);
	struct xd_order_in norm = *req, *in = &norm;
	xd_order_norm(w->t, in);
	w->nodes->lock_book(w, in->gpu);
	struct ord o = {
		.account = account, .gpu = in->gpu, .side = in->side, .type = in->type, .tif = in->tif,
		.gpus = in->gpus, .hours = in->hours, .remaining = in->gpus, .price = in->price,
		.lot = *in,
	};
	if (o.side == ENG_BUY) {
		o.unit = xd_fx_unit(w, a->cur, a->vat_bp, o.price);
		o.hold = (int64_t)o.gpus * o.hours * o.unit;
		if (o.hold > a->avail)
			return 0;
	}
	struct xd_q *st = xd_stmt(w->st,
		"INSERT INTO orders(account, client_order_id, gpu, side, type, tif, gpus, hours, price, "
		"unit, status, remaining, hold, created_ms, updated_ms, " XD_LOT_COLS ", job, max_total, "
		"alternatives) "
		"VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'open', ?7, ?11, ?12, ?12, ?13, ?14, "
		"?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23) "
		"ON CONFLICT(account, client_order_id) DO NOTHING RETURNING id");
	xd_bind_int64(st, 1, account);
	if (in->coid[0])
		xd_bind_text(st, 2, in->coid);
	xd_bind_text(st, 3, w->t->gpu_ids[o.gpu]);
	xd_bind_text(st, 4, xd_side_names[o.side]);
	xd_bind_text(st, 5, xd_type_names[o.type]);
	xd_bind_text(st, 6, xd_tif_names[o.tif]);
	xd_bind_int(st, 7, o.gpus);
	xd_bind_int(st, 8, o.hours);
	xd_bind_int64(st, 9, o.price);
	xd_bind_int64(st, 10, o.unit);
	xd_bind_int64(st, 11, o.hold);
	xd_bind_int64(st, 12, w->now);
	char *regions;
	xd_lot_bind(st, 13, w->t, in, &regions);
	if (in->job_text) {   /* a job order: what its replays compare, what they answer */
		xd_bind_text(st, 21, in->job_text);
		xd_bind_int64(st, 22, in->max_total);
		xd_bind_text(st, 23, in->alternatives);
	}
	o.id = xd_step_id(st);
	free(regions);
	if (o.id == 0)
		return -1;   /* another node has just stored this client_order_id */
	post(w, "hold", account, false, account, true, o.hold, o.id, 0);

	struct eng_order e;
	xd_order_engine(in, o.id, account, &e);
	eng_fills_reset(&w->fills);
	engine_submit(w->eng, (size_t)o.gpu, &e, false, &w->fills);
	for (size_t i = 0; i < w->fills.n; i++)
		do_fill(w, o.gpu, &w->fills.v[i], &o);
	if (o.remaining != e.gpus)
		fatal("gpuxd: engine and ledger disagree on order %" PRId64, o.id);
	if (o.tif == ENG_GTC && o.remaining > 0) {
		o.status = resting_status(&o);
	} else {
		if (o.remaining > 0 && o.side == ENG_BUY) {
			int64_t rel = (int64_t)o.remaining * o.hours * o.unit;
			o.hold -= rel;
			post(w, "release", account, true, account, false, rel, o.id, 0);
		}
		o.status = o.filled == o.gpus ? "filled" : "expired";
		o.remaining = 0;
	}
	save_order(w, &o);
	w->book_changed[o.gpu] = true;
	return o.id;
}

int xd_ops_cancel(struct xd_writer *w, int64_t id)
{
	struct ord o;
	if (!load_order(w, id, &o) || o.remaining <= 0)
		return -1;
	xd_ops_begin(w);
	if (w->nodes->lock_book(w, o.gpu) && (!load_order(w, id, &o) || o.remaining <= 0))
		return -1;   /* another node filled or cancelled it meanwhile */
	if (engine_cancel(w->eng, (size_t)o.gpu, id, NULL) != 0)
		fatal("gpuxd: order %" PRId64 " rests in the database but not in the book", id);
	post(w, "release", o.account, true, o.account, false, o.hold, o.id, 0);
	o.hold = 0;
	o.remaining = 0;
	o.status = "cancelled";
	save_order(w, &o);
	w->book_changed[o.gpu] = true;
	return 0;
}

/* ---- rentals and billing ------------------------------------------------------- */

static bool load_rental(struct xd_writer *w, int64_t id, struct rental *r, const char **status)
{
	struct xd_q *st = xd_stmt(w->st,
		"SELECT buyer, seller, buy_order, sell_order, gpus, hours, hours_billed, net_unit, "
		"vat_unit, payout_unit, started_ms, billed, paid_out, status, fee_unit, fees FROM rentals "
		"WHERE id = ?1 FOR UPDATE");
	xd_bind_int64(st, 1, id);
	if (xd_step(st) != XD_ROW) {
		xd_reset(st);
		return false;
	}
	r->id = id;
	r->buyer = xd_col_int64(st, 0);
	r->seller = xd_col_int64(st, 1);
	r->buy_order = xd_col_int64(st, 2);
	r->sell_order = xd_col_int64(st, 3);
	r->gpus = xd_col_int(st, 4);
	r->hours = xd_col_int(st, 5);
	r->billed_h = xd_col_int(st, 6);
	r->net_unit = xd_col_int64(st, 7);
	r->vat_unit = xd_col_int64(st, 8);
	r->payout_unit = xd_col_int64(st, 9);
	r->started = xd_col_int64(st, 10);
	r->billed = xd_col_int64(st, 11);
	r->paid_out = xd_col_int64(st, 12);
	r->fee_unit = xd_col_int64(st, 14);
	r->fees = xd_col_int64(st, 15);
	const char *s = xd_col_text(st, 13);
	*status = strcmp(s, "active") == 0 ? "active" : strcmp(s, "stopped") == 0 ? "stopped" : "completed";
	xd_reset(st);
	return true;
}

static void save_rental(struct xd_writer *w, const struct rental *r, const char *status,
                        int64_t refunded)
{
	bool active = strcmp(status, "active") == 0;
	struct xd_q *st = xd_stmt(w->st,
		"UPDATE rentals SET hours_billed = ?2, billed = ?3, paid_out = ?4, status = ?5, "
		"next_ms = ?6, stopped_ms = ?7, refunded = refunded + ?8, fees = ?9 WHERE id = ?1");
	xd_bind_int64(st, 1, r->id);
	xd_bind_int(st, 2, r->billed_h);
	xd_bind_int64(st, 3, r->billed);
	xd_bind_int64(st, 4, r->paid_out);
	xd_bind_text(st, 5, status);
	if (active)
		xd_bind_int64(st, 6, r->started + (int64_t)r->billed_h * XD_HOUR_MS);
	if (strcmp(status, "stopped") == 0)
		xd_bind_int64(st, 7, w->now);
	xd_bind_int64(st, 8, refunded);
	xd_bind_int64(st, 9, r->fees);
	xd_step_done(w->st, st);
}

int64_t xd_ops_bill(struct xd_writer *w)
{
	int64_t total = 0;
	for (;;) {
		struct xd_q *st = xd_stmt(w->st,
			"SELECT id FROM rentals WHERE status = 'active' AND next_ms <= ?1 "
			"ORDER BY next_ms, id LIMIT 256");
		xd_bind_int64(st, 1, w->now);
		int64_t ids[256];
		size_t n = 0;
		while (n < 256 && xd_step(st) == XD_ROW)
			ids[n++] = xd_col_int64(st, 0);
		xd_reset(st);
		if (n == 0)
			break;
		xd_ops_begin(w);
		for (size_t i = 0; i < n; i++) {
			struct rental r;
			const char *status;
			if (!load_rental(w, ids[i], &r, &status) || strcmp(status, "active") != 0)
				continue;   /* another node stopped or billed it meanwhile */
			int64_t elapsed = w->now - r.started;
			int64_t due = elapsed / XD_HOUR_MS + 1;   /* hours begun */
			if (due > r.hours)
				due = r.hours;
			if (due > r.billed_h) {
				total += due - r.billed_h;
				bill_hours(w, &r, (int32_t)(due - r.billed_h));
			}
			bool over = elapsed >= (int64_t)r.hours * XD_HOUR_MS;
			save_rental(w, &r, over ? "completed" : "active", 0);
		}
	}
	return total;
}

/* ---- the jobs ------------------------------------------------------------------ */

static const char *const status_err_code[] = { "MARKET_NOT_OPEN", NULL, "MARKET_HALTED" };

/* Refusals that come before any change (role, market state); NULL if none. */
const char *xd_ops_refusal(struct xd_writer *w, const struct xd_acct *a, enum eng_side side,
                           char **msg)
{
	if (side == ENG_BUY && a->role == XD_ROLE_SELLER) {
		*msg = xstrdup("this account's role is seller: it cannot buy");
		return "FORBIDDEN";
	}
	if (side == ENG_SELL && a->role == XD_ROLE_BUYER) {
		*msg = xstrdup("this account's role is buyer: it cannot sell");
		return "FORBIDDEN";
	}
	if (w->state != EXCHANGE_OPEN) {
		if (w->state == EXCHANGE_PRE_OPEN) {
			if (w->opens_at_ms >= 0) {
				char t[40];
				xd_time_fmt(w->opens_at_ms, t, sizeof t);
				*msg = xasprintf("the market is not open yet: it opens at %s", t);
			} else {
				*msg = xstrdup("the market is not open yet");
			}
		} else {
			*msg = xstrdup("trading is halted");
		}
		return status_err_code[w->state];
	}
	if (xd_settings_fx_stale(w->set, a->cur, w->now, msg))
		return "FX_STALE";
	return NULL;
}

void xd_ops_refusal_reply(struct xd_writer *w, struct xd_reply *r, const char *code, char *msg)
{
	int status = strcmp(code, "FORBIDDEN") == 0 ? 403 : 422;
	cJSON *e = xd_reply_error(r, status, code, "%s", msg);
	free(msg);
	if (status == 422 && strcmp(code, "FX_STALE") != 0) {
		cJSON_AddStringToObject(e, "state", xd_state_names[w->state]);
		if (w->state == EXCHANGE_PRE_OPEN)
			xd_jtime(e, "opens_at", w->opens_at_ms);
	}
}

static void funds_reply(const struct xd_writer *w, struct xd_reply *r, const struct xd_acct *a,
                        int64_t need)
{
	cJSON *e = xd_reply_error(r, 422, "INSUFFICIENT_FUNDS",
	                          "the order needs a hold of %" PRId64 " %s minor units; %" PRId64
	                          " are available", need, xd_cur_code(w, a->cur), a->avail);
	xd_jint(e, "required_minor", need);
	xd_jint(e, "available_minor", a->avail);
	cJSON_AddStringToObject(e, "currency", xd_cur_code(w, a->cur));
}

void xd_ops_conflict(struct xd_reply *r, const char *coid, int64_t id)
{
	cJSON *e = xd_reply_error(r, 409, "IDEMPOTENCY_CONFLICT", "client_order_id \"%s\" was "
	                          "already used for order %" PRId64 " with a different body", coid, id);
	xd_jint(e, "order_id", id);
}

static void job_order(struct xd_writer *w, struct xd_job *j)
{
	const struct xd_order_in *in = &j->order;
	struct xd_acct *a = acct(w, j->account);
	if (!a) {
		xd_reply_error(&j->reply, 401, "UNAUTHORIZED", "unknown account");
		return;
	}
	if (in->is_job) {
		xd_jobs_order(w, j, a);
		return;
	}
	/* idempotency first: a replay gets the original whatever happened since */
	struct xd_q *st = xd_stmt(w->st,
		"SELECT id, gpu, side, type, tif, gpus, hours, price, " XD_LOT_COLS ", job FROM orders "
		"WHERE account = ?1 AND client_order_id = ?2");
	xd_bind_int64(st, 1, j->account);
	xd_bind_text(st, 2, in->coid);
	if (xd_step(st) == XD_ROW) {
		int64_t id = xd_col_int64(st, 0);
		struct xd_order_in req = *in, row = { .gpu = in->gpu, .side = in->side };
		xd_order_norm(w->t, &req);
		bool same = strcmp(xd_col_text(st, 1), w->t->gpu_ids[in->gpu]) == 0 &&
		            strcmp(xd_col_text(st, 2), xd_side_names[in->side]) == 0 &&
		            strcmp(xd_col_text(st, 3), xd_type_names[in->type]) == 0 &&
		            strcmp(xd_col_text(st, 4), xd_tif_names[in->tif]) == 0 &&
		            xd_col_int(st, 5) == in->gpus && xd_col_int(st, 6) == in->hours &&
		            xd_col_int64(st, 7) == in->price && xd_col_null(st, 16);
		if (same) {
			xd_lot_from_row(w->t, st, 8, in->gpu, &row);
			same = xd_lot_same(&req, &row);
		}
		xd_reset(st);
		if (same)
			xd_reply_json(&j->reply, 200, xd_read_order(w->st, w->t, j->account, id, true));
		else
			xd_ops_conflict(&j->reply, in->coid, id);
		return;
	}
	xd_reset(st);
	char *msg = NULL;
	const char *code = xd_ops_refusal(w, a, in->side, &msg);
	if (code) {
		xd_ops_refusal_reply(w, &j->reply, code, msg);
		return;
	}
	int64_t id = xd_ops_place(w, j->account, in);
	if (id < 0 && !j->replayed) {
		/* stored meanwhile through another node: answer as a replay */
		j->replayed = true;
		job_order(w, j);
		return;
	}
	if (id == 0) {
		funds_reply(w, &j->reply, a,
		            (int64_t)in->gpus * in->hours * xd_fx_unit(w, a->cur, a->vat_bp, in->price));
		return;
	}
	xd_reply_json(&j->reply, 201, xd_read_order(w->st, w->t, j->account, id, true));
}

/* A preview's fill: its price and GPUs, and the lot it is cut from — for a buy
 * the resting ask's, its nodes named as a rental would name them; for a sell
 * the seller's own, its nodes named new-1, new-2, … (the order has no id yet). */
static cJSON *preview_fill(struct xd_writer *w, const struct xd_order_in *in,
                           const struct eng_fill *f)
{
	cJSON *x = cJSON_CreateObject();
	xd_jint(x, "price_cents", f->price_cents);
	xd_jint(x, "gpus", f->gpus);
	xd_jint(x, "unit_gpus", f->unit);
	struct ord maker;
	bool buy = in->side == ENG_BUY;
	if (buy && !load_order(w, f->maker_id, &maker))
		fatal("gpuxd: resting order %" PRId64 " is not in the database", f->maker_id);
	xd_lot_json(x, w->t, buy ? &maker.lot : in);
	cJSON_AddBoolToObject(x, "whole_nodes", buy ? maker.lot.whole_nodes : in->whole_nodes);
	cJSON *nodes = cJSON_AddArrayToObject(x, "nodes");
	for (int32_t t = 0; t < f->ntakes; t++) {
		const struct eng_take *tk = &w->fills.takes[f->take + (size_t)t];
		cJSON *n = cJSON_CreateObject();
		char label[48];
		if (buy)
			snprintf(label, sizeof label, "o%" PRId64 "-%d", f->maker_id, tk->node + 1);
		else
			snprintf(label, sizeof label, "new-%d", tk->node + 1);
		cJSON_AddStringToObject(n, "node", label);
		xd_jint(n, "gpus", tk->gpus);
		cJSON_AddItemToArray(nodes, n);
	}
	return x;
}

cJSON *xd_ops_preview(struct xd_writer *w, int64_t account, const struct xd_order_in *req)
{
	struct xd_order_in norm = *req, *in = &norm;
	xd_order_norm(w->t, in);
	struct xd_acct *a = acct(w, account);
	int64_t rate = xd_fx_rate(w, a->cur);
	struct eng_order e;
	xd_order_engine(in, INT64_MAX, account, &e);
	w->nodes->peek_book(w, in->gpu);
	eng_fills_reset(&w->fills);
	int32_t filled = engine_submit(w->eng, (size_t)in->gpu, &e, true, &w->fills);
	int32_t left = in->gpus - filled;
	bool buy = in->side == ENG_BUY;
	int64_t unit = buy ? xd_fx_unit(w, a->cur, a->vat_bp, in->price) : 0;
	int64_t net = 0, vat = 0, fee = 0;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "gpu", w->t->gpu_ids[in->gpu]);
	cJSON_AddStringToObject(o, "side", xd_side_names[in->side]);
	cJSON_AddStringToObject(o, "type", xd_type_names[in->type]);
	cJSON_AddStringToObject(o, "time_in_force", xd_tif_names[in->tif]);
	xd_jint(o, "gpus", in->gpus);
	xd_jint(o, "hours", in->hours);
	xd_jint(o, "price_cents", in->price);
	xd_request_json(o, w->t, in);
	cJSON_AddStringToObject(o, "market_state", xd_state_names[w->state]);
	cJSON *arr = cJSON_AddArrayToObject(o, "fills");
	for (size_t i = 0; i < w->fills.n; i++) {
		const struct eng_fill *f = &w->fills.v[i];
		cJSON_AddItemToArray(arr, preview_fill(w, in, f));
		int64_t gh = (int64_t)f->gpus * f->hours;
		if (buy) {
			int64_t nu = xd_fx_net_unit(w, a->cur, f->price_cents);
			net += gh * nu;
			vat += gh * exchange_vat_unit(nu, a->vat_bp);
		} else {
			int64_t pu = xd_fx_payout_unit(w, a->cur, f->price_cents);
			net += gh * pu;
			fee += gh * xd_fee_unit(w, pu);
		}
	}
	int32_t rest = in->tif == ENG_GTC ? left : 0;
	xd_jint(o, "fill_gpus", filled);
	xd_jint(o, "rest_gpus", rest);
	xd_jint(o, "expire_gpus", left - rest);
	cJSON_AddStringToObject(o, "currency", xd_cur_code(w, a->cur));
	xd_jint(o, "fx_rate_micro", rate);
	xd_jint(o, "vat_rate_bp", buy ? a->vat_bp : 0);
	xd_jint(o, "unit_minor", unit);
	int64_t hold = (int64_t)in->gpus * in->hours * unit;
	xd_jint(o, "hold_minor", hold);
	cJSON *c = cJSON_AddObjectToObject(o, "cost");
	xd_jint(c, "net_minor", net);
	xd_jint(c, "vat_minor", vat);
	xd_jint(c, "total_minor", net + vat);
	/* the fees that would apply (docs/API.md "Fees"): a seller's trade fee
	 * on these fills; the others are charged elsewhere, and named here */
	cJSON *fs = cJSON_AddObjectToObject(o, "fees");
	xd_jint(fs, "trade_bp", w->set->fee_trade_bp);
	xd_jint(fs, "trade_minor", fee);
	xd_jint(fs, "forward_cancel_bp", w->set->fee_forward_cancel_bp);
	xd_jint(fs, "resale_bp", w->set->fee_resale_bp);
	xd_jint(o, "balance_available_minor", a->avail);
	int64_t after = a->avail;
	if (buy)
		after -= net + vat + (int64_t)rest * in->hours * unit;
	xd_jint(o, "balance_after_minor", after);
	const char *ws = filled == in->gpus ? "filled"
	               : in->tif != ENG_GTC ? "expired"
	               : filled > 0 ? "partially_filled" : "open";
	cJSON_AddStringToObject(o, "would_status", ws);
	char *msg = NULL;
	const char *code = xd_ops_refusal(w, a, in->side, &msg);
	if (!code && buy && hold > a->avail) {
		code = "INSUFFICIENT_FUNDS";
		msg = xasprintf("the order needs a hold of %" PRId64 " %s minor units; %" PRId64
		                " are available", hold, xd_cur_code(w, a->cur), a->avail);
	}
	if (code) {
		cJSON *r = cJSON_AddObjectToObject(o, "would_reject");
		cJSON_AddStringToObject(r, "code", code);
		cJSON_AddStringToObject(r, "message", msg);
		free(msg);
	} else {
		cJSON_AddNullToObject(o, "would_reject");
	}
	return o;
}

static void job_preview(struct xd_writer *w, struct xd_job *j)
{
	struct xd_acct *a = acct(w, j->account);
	if (!a) {
		xd_reply_error(&j->reply, 401, "UNAUTHORIZED", "unknown account");
		return;
	}
	if (j->order.is_job)
		xd_jobs_preview(w, j, a);
	else
		xd_reply_json(&j->reply, 200, xd_ops_preview(w, j->account, &j->order));
}

static void job_cancel(struct xd_writer *w, struct xd_job *j)
{
	struct ord o;
	if (!load_order(w, j->target, &o) || o.account != j->account) {
		xd_reply_error(&j->reply, 404, "NOT_FOUND", "no order %" PRId64, j->target);
		return;
	}
	if (w->nodes->lock_book(w, o.gpu))
		load_order(w, j->target, &o);   /* another node may have filled it meanwhile */
	if (o.remaining <= 0) {
		cJSON *row = xd_read_order(w->st, w->t, j->account, j->target, false);
		const cJSON *s = cJSON_GetObjectItemCaseSensitive(row, "status");
		cJSON *e = xd_reply_error(&j->reply, 409, "ORDER_NOT_OPEN", "order %" PRId64 " is %s",
		                          j->target, cJSON_IsString(s) ? s->valuestring : "closed");
		cJSON_AddStringToObject(e, "status", cJSON_IsString(s) ? s->valuestring : "closed");
		cJSON_Delete(row);
		return;
	}
	xd_ops_cancel(w, j->target);
	xd_reply_json(&j->reply, 200, xd_read_order(w->st, w->t, j->account, j->target, true));
}

/* A customer account with this e-mail address (any case) exists already? */
static bool email_taken(struct xd_writer *w, const char *email)
{
	struct xd_q *st = xd_stmt(w->st, "SELECT 1 FROM accounts WHERE kind = 'customer' AND "
	                                  "lower(email) = lower(?1) LIMIT 1");
	xd_bind_text(st, 1, email);
	bool taken = xd_step(st) == XD_ROW;
	xd_reset(st);
	return taken;
}

static void job_account(struct xd_writer *w, struct xd_job *j)
{
	/* one account per address on a real exchange; a demo market lets anyone
	 * (and gpux's own local demo) open as many as it likes */
	if (!w->demo && email_taken(w, j->email)) {
		cJSON *e = xd_reply_error(&j->reply, 409, "EMAIL_TAKEN", "an account with this e-mail "
		                          "address exists already");
		cJSON_AddStringToObject(e, "field", "email");
		return;
	}
	if (j->cur < 0 || (size_t)j->cur >= w->set->n_cur) {
		xd_reply_field(&j->reply, "BAD_VALUE", "currency", "this exchange does not take that "
		               "currency (GET /v1/market lists them)");
		return;
	}
	int64_t id = xd_ops_account(w, "customer", j->email, j->country, j->cur, j->role, j->key_hash);
	cJSON *o = cJSON_CreateObject();
	xd_jint(o, "id", id);
	cJSON_AddStringToObject(o, "email", j->email);
	cJSON_AddStringToObject(o, "country", j->country);
	cJSON_AddStringToObject(o, "currency", xd_cur_code(w, j->cur));
	cJSON_AddStringToObject(o, "role", xd_role_names[j->role]);
	xd_jint(o, "vat_rate_bp", w->accts[id].vat_bp);
	xd_jtime(o, "created_at", w->now);
	xd_reply_json(&j->reply, 201, o);
}

static void job_stop(struct xd_writer *w, struct xd_job *j)
{
	struct rental r;
	const char *status;
	xd_ops_bill(w);   /* an hour that began since the batch started is billed, not refunded */
	if (!load_rental(w, j->target, &r, &status) ||
	    (r.buyer != j->account && r.seller != j->account)) {
		xd_reply_error(&j->reply, 404, "NOT_FOUND", "no rental %" PRId64, j->target);
		return;
	}
	if (r.buyer != j->account) {
		xd_reply_error(&j->reply, 403, "FORBIDDEN", "only the buyer can stop rental %" PRId64,
		               j->target);
		return;
	}
	if (strcmp(status, "active") != 0) {
		cJSON *e = xd_reply_error(&j->reply, 409, "RENTAL_NOT_ACTIVE", "rental %" PRId64 " is %s",
		                          j->target, status);
		cJSON_AddStringToObject(e, "status", status);
		return;
	}
	xd_ops_begin(w);
	int64_t refund = (int64_t)(r.hours - r.billed_h) * r.gpus * (r.net_unit + r.vat_unit);
	post(w, "release", r.buyer, true, r.buyer, false, refund, r.buy_order, r.id);
	save_rental(w, &r, "stopped", refund);
	xd_reply_json(&j->reply, 200, xd_read_rental(w->st, w->t, j->account, j->target));
}

void xd_ops_run(struct xd_writer *w, struct xd_job *j)
{
	switch (j->kind) {
	case XD_JOB_ORDER: job_order(w, j); break;
	case XD_JOB_PREVIEW: job_preview(w, j); break;
	case XD_JOB_CANCEL: job_cancel(w, j); break;
	case XD_JOB_ACCOUNT: job_account(w, j); break;
	case XD_JOB_STOP: job_stop(w, j); break;
	case XD_JOB_KEY_CREATE: xd_keys_job_create(w, j); break;
	case XD_JOB_KEY_REVOKE: xd_keys_job_revoke(w, j); break;
	case XD_JOB_BOOK:
		w->nodes->peek_book(w, (int)j->target);
		xd_reply_json(&j->reply, 200, xd_market_book_for(w->m, w->eng, (int)j->target,
		                                                  &j->filter, (int)j->amount));
		break;
	case XD_JOB_RUN: j->run(w, j); break;
	case XD_JOB_CLOCK:
		break;   /* market.c handles it: it moves the clock */
	}
}

/* ---- start-up ------------------------------------------------------------------ */

/* An account from a row (id, kind, currency, country, role, available, held,
 * debt); -1 if its currency is not in the settings. */
static int acct_fill(struct xd_writer *w, int64_t id, struct xd_q *st)
{
	const char *kind = xd_col_text(st, 1);
	int cur = xd_settings_cur(w->set, xd_col_text(st, 2));
	if (cur < 0)
		return -1;
	struct xd_acct *a = acct_slot(w, id);
	bool dirty = a->dirty;
	memset(a, 0, sizeof *a);
	a->dirty = dirty;
	a->exists = true;
	a->cur = cur;
	a->avail = xd_col_int64(st, 5);
	a->held = xd_col_int64(st, 6);
	a->debt = xd_col_int64(st, 7);
	const char *role = xd_col_text(st, 4);
	a->role = role ? xd_lookup(xd_role_names, role) : -1;
	a->system = a->role < 0;
	const char *cc = xd_col_text(st, 3);
	int32_t bp = cc ? xd_tables_vat(w->t, cc) : 0;
	a->vat_bp = bp < 0 ? 0 : bp;
	if (a->system) {
		if (strcmp(kind, "external") == 0) w->sys_external[cur] = id;
		else if (strcmp(kind, "clearing") == 0) w->sys_clearing[cur] = id;
		else if (strcmp(kind, "vat") == 0) w->sys_vat[cur] = id;
		else if (strcmp(kind, "fees") == 0) w->sys_fees[cur] = id;
	}
	return 0;
}

/* The exchange's own account of kind for currency cur: the oldest such row,
 * else a new one. */
static int64_t system_account(struct xd_writer *w, const char *kind, int cur)
{
	struct xd_q *st = xd_stmt(w->st, "SELECT id FROM accounts WHERE kind = ?1 AND currency = ?2 "
	                                 "ORDER BY id LIMIT 1");
	xd_bind_text(st, 1, kind);
	xd_bind_text(st, 2, xd_cur_code(w, cur));
	int64_t id = xd_step(st) == XD_ROW ? xd_col_int64(st, 0) : 0;
	xd_reset(st);
	if (id) {
		acct(w, id);
		return id;
	}
	return xd_ops_account(w, kind, NULL, NULL, cur, -1, NULL);
}

void xd_ops_system_accounts(struct xd_writer *w)
{
	for (size_t c = 0; c < w->set->n_cur; c++) {
		if (!w->sys_external[c])
			w->sys_external[c] = system_account(w, "external", (int)c);
		if (!w->sys_clearing[c])
			w->sys_clearing[c] = system_account(w, "clearing", (int)c);
		if (!w->sys_vat[c])
			w->sys_vat[c] = system_account(w, "vat", (int)c);
		if (!w->sys_fees[c])
			w->sys_fees[c] = system_account(w, "fees", (int)c);
	}
}


int xd_ops_restore(struct xd_writer *w, char **cause)
{
	struct xd_q *st = xd_stmt(w->st,
		"SELECT id, kind, currency, country, role, available, held, debt FROM accounts ORDER BY id");
	while (xd_step(st) == XD_ROW) {
		int64_t id = xd_col_int64(st, 0);
		if (acct_fill(w, id, st) != 0) {
			char *code = xstrdup(xd_col_text(st, 2) ? xd_col_text(st, 2) : "");
			xd_reset(st);
			int rc = set_cause(cause, "account %" PRId64 " is in %s, which is not among the "
			                   "exchange's currencies", id, code);
			free(code);
			return rc;
		}
	}
	xd_reset(st);
	xd_ops_system_accounts(w);
	w->next_entry = 1;
	st = xd_stmt(w->st, "SELECT max(entry) FROM ledger");
	if (xd_step(st) == XD_ROW)
		w->next_entry = xd_col_int64(st, 0) + 1;
	xd_reset(st);

	/* the books, in acceptance order so time priority is kept */
	if (xd_book_load(w->st, w->t, w->eng, -1, 0, cause) != 0)
		return -1;
	for (size_t g = 0; g < w->t->n_gpus; g++)
		w->book_changed[g] = true;

	/* no version of any book is known yet: in a shared store, where other
	 * nodes go on changing the books, each is read again under its lock the
	 * first time it is used (one node's copy is always current) */
	for (size_t g = 0; g < w->t->n_gpus; g++)
		w->book_ver[g] = -1;
	for (size_t g = 0; g < w->t->n_gpus; g++) {
		st = xd_stmt(w->st, "SELECT price, id FROM trades WHERE gpu = ?1 ORDER BY id DESC LIMIT 1");
		xd_bind_text(st, 1, w->t->gpu_ids[g]);
		bool any = xd_step(st) == XD_ROW;
		w->last_price[g] = any ? xd_col_int64(st, 0) : -1;
		if (any)
			xd_stream_seed_trade(w->stream, (int)g, xd_col_int64(st, 1));
		xd_reset(st);
	}
	return 0;
}
