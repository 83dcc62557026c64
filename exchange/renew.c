/*
 * exchange/renew.c — renewals: the one mechanism by which the exchange keeps
 * a rental going past its end (docs/ARCHITECTURE.md "Renewals", docs/API.md
 * "Standing orders").
 *
 * A renewal is a row of the table renewals: the account, the rental it
 * renews, what it renews it for — a standing order (order_id), or the rental
 * itself (order_id NULL: an automatic extension of that rental) —, the hours
 * of a period, the price cap in cents, when it is next due and its state:
 *
 *   extend   due one hour before the rental ends (at its start if it is an
 *            hour long): extend the rental on the same node by one period,
 *            from its seller's window (the hours the seller's ask offered),
 *            at the rental's price — if that price is within the cap and the
 *            buyer's available balance holds the period (a hold entry). Then
 *            it is due again a period later. When the seller's window is
 *            used up, a standing order's row turns to
 *   buy      due when the rental ends: the standing order buys the rental's
 *            GPUs again at its price or better (it enters the book with them,
 *            its hold taken again), so the GPUs it keeps may come from another
 *            seller; an automatic extension stops instead;
 *   done, stopped (with reason).
 * Funds short, or the standing order stopped: the row stops, and a standing
 * order stops with it (cond.c), saying why. Every outcome goes to the
 * account's event log: "standing" for a standing order's, "rental" for an
 * extension of the rental's own.
 *
 * xd_renew_run is the function: the lease holder runs it before billing
 * (watch.c's tick), while the market is open, so one node renews and a
 * renewal and the billing of the hour it extends are in one transaction.
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define BATCH 64
#define RUN_MAX 4096              /* renewals run by one call, at most */

int64_t xd_renew_due(int64_t started, int32_t hours)
{
	int64_t due = started + ((int64_t)hours - 1) * XD_HOUR_MS;
	return due > started ? due : started;
}

void xd_renew_add(struct xd_writer *w, int64_t account, int64_t rental_id, int64_t order_id,
                  int32_t hours, int64_t cap, int64_t due_ms)
{
	xd_ops_begin(w);
	struct xd_q *st = xd_stmt(w->st,
		"INSERT INTO renewals(account, rental_id, order_id, hours, cap, due_ms, state, "
		"created_ms, updated_ms) VALUES(?1, ?2, ?3, ?4, ?5, ?6, 'extend', ?7, ?7)");
	xd_bind_int64(st, 1, account);
	xd_bind_int64(st, 2, rental_id);
	if (order_id)
		xd_bind_int64(st, 3, order_id);
	xd_bind_int(st, 4, hours);
	xd_bind_int64(st, 5, cap);
	xd_bind_int64(st, 6, due_ms);
	xd_bind_int64(st, 7, w->now);
	xd_step_done(w->st, st);
}

void xd_renew_stop_order(struct xd_writer *w, int64_t order_id, const char *reason)
{
	xd_ops_begin(w);
	struct xd_q *st = xd_stmt(w->st,
		"UPDATE renewals SET state = 'stopped', reason = ?2, updated_ms = ?3 "
		"WHERE order_id = ?1 AND state IN ('extend', 'buy')");
	xd_bind_int64(st, 1, order_id);
	xd_bind_text(st, 2, reason);
	xd_bind_int64(st, 3, w->now);
	xd_step_done(w->st, st);
}

/* ---- one renewal ------------------------------------------------------------------------- */

struct ren {
	int64_t id, account, rental, order, cap, due;
	int32_t hours;
	bool buy;                      /* state 'buy' (else 'extend') */
};

struct rent {
	int64_t buyer, sell_order, price, unit, started;
	int32_t gpus, hours;
	int gpu;
	bool active, stopped;          /* stopped: by its buyer */
};

static bool load_ren(struct xd_writer *w, int64_t id, struct ren *r)
{
	struct xd_q *st = xd_stmt(w->st,
		"SELECT account, rental_id, order_id, hours, cap, due_ms, state FROM renewals "
		"WHERE id = ?1 AND state IN ('extend', 'buy') FOR UPDATE");
	xd_bind_int64(st, 1, id);
	bool found = xd_step(st) == XD_ROW;
	if (found) {
		*r = (struct ren){
			.id = id, .account = xd_col_int64(st, 0), .rental = xd_col_int64(st, 1),
			.order = xd_col_int64(st, 2), .hours = xd_col_int(st, 3), .cap = xd_col_int64(st, 4),
			.due = xd_col_int64(st, 5), .buy = strcmp(xd_col_text(st, 6), "buy") == 0,
		};
	}
	xd_reset(st);
	return found;
}

static bool load_rent(struct xd_writer *w, int64_t id, struct rent *r)
{
	struct xd_q *st = xd_stmt(w->st,
		"SELECT buyer, sell_order, price, net_unit + vat_unit, started_ms, gpus, hours, status, gpu "
		"FROM rentals WHERE id = ?1 FOR UPDATE");
	xd_bind_int64(st, 1, id);
	bool found = xd_step(st) == XD_ROW;
	if (found) {
		*r = (struct rent){
			.buyer = xd_col_int64(st, 0), .sell_order = xd_col_int64(st, 1),
			.price = xd_col_int64(st, 2), .unit = xd_col_int64(st, 3),
			.started = xd_col_int64(st, 4), .gpus = xd_col_int(st, 5), .hours = xd_col_int(st, 6),
			.active = strcmp(xd_col_text(st, 7), "active") == 0,
			.stopped = strcmp(xd_col_text(st, 7), "stopped") == 0,
			.gpu = xd_tables_gpu(w->t, xd_col_text(st, 8)),
		};
	}
	xd_reset(st);
	return found;
}

static void set_row(struct xd_writer *w, const struct ren *r, const char *state, int64_t due,
                    const char *reason, bool renewed)
{
	struct xd_q *st = xd_stmt(w->st,
		"UPDATE renewals SET state = ?2, due_ms = ?3, reason = ?4, renewed = renewed + ?5, "
		"updated_ms = ?6 WHERE id = ?1");
	xd_bind_int64(st, 1, r->id);
	xd_bind_text(st, 2, state);
	xd_bind_int64(st, 3, due);
	if (reason)
		xd_bind_text(st, 4, reason);
	xd_bind_int(st, 5, renewed ? 1 : 0);
	xd_bind_int64(st, 6, w->now);
	xd_step_done(w->st, st);
}

static bool order_standing(struct xd_writer *w, int64_t order)
{
	struct xd_q *st = xd_stmt(w->st, "SELECT standing FROM orders WHERE id = ?1");
	xd_bind_int64(st, 1, order);
	bool active = xd_step(st) == XD_ROW && !xd_col_null(st, 0) &&
	              strcmp(xd_col_text(st, 0), "active") == 0;
	xd_reset(st);
	return active;
}

/* The hours the rental's seller offered (the ask's window). */
static int32_t seller_window(struct xd_writer *w, int64_t sell_order)
{
	struct xd_q *st = xd_stmt(w->st, "SELECT hours FROM orders WHERE id = ?1");
	xd_bind_int64(st, 1, sell_order);
	int32_t h = xd_step(st) == XD_ROW ? xd_col_int(st, 0) : 0;
	xd_reset(st);
	return h;
}

/* The outcome for the account: a standing order's ("standing") or the
 * rental's own ("rental"). */
static void tell(struct xd_writer *w, const struct ren *r, const struct rent *rt, const char *what,
                 const char *reason)
{
	cJSON *e = cJSON_CreateObject();
	if (r->order)
		xd_jint(e, "order_id", r->order);
	xd_jint(e, "rental_id", r->rental);
	if (rt->gpu >= 0)
		cJSON_AddStringToObject(e, "gpu", w->t->gpu_ids[rt->gpu]);
	cJSON_AddStringToObject(e, "event", what);
	xd_jstr(e, "reason", reason);
	xd_jint(e, "hours", rt->hours);
	xd_jtime(e, "ends_at", rt->started + (int64_t)rt->hours * XD_HOUR_MS);
	xd_events_add(w, r->account, r->order ? "standing" : "rental", e);
}

/* The renewal stops: a standing order with it, saying why. */
static void give_up(struct xd_writer *w, const struct ren *r, const struct rent *rt, char *why)
{
	set_row(w, r, "stopped", r->due, why, false);
	if (r->order)
		xd_cond_standing_stop(w, r->order, why);
	else
		tell(w, r, rt, "not_renewed", why);
	free(why);
}

/* Extend rental rt by a period: false and *why if it cannot be. */
static bool extend(struct xd_writer *w, const struct ren *r, struct rent *rt, char **why)
{
	if (rt->price > r->cap) {
		*why = xasprintf("price: the rental's %" PRId64 " cents are above the cap of %" PRId64,
		                 rt->price, r->cap);
		return false;
	}
	int32_t window = seller_window(w, rt->sell_order);
	if (rt->hours + r->hours > window) {
		*why = xasprintf("the seller's window: it offered %" PRId32 " hours; the rental has %"
		                 PRId32, window, rt->hours);
		return false;
	}
	int64_t hold = (int64_t)rt->gpus * r->hours * rt->unit;
	struct xd_acct *a = xd_ops_acct(w, rt->buyer);
	if (!a || hold > a->avail) {
		*why = xasprintf("funds: the next period needs %" PRId64 " %s minor units; %" PRId64
		                 " are available", hold, a ? xd_cur_code(w, a->cur) : "", a ? a->avail : 0);
		return false;
	}
	xd_ops_post(w, "hold", rt->buyer, false, rt->buyer, true, hold, 0, r->rental);
	struct xd_q *st = xd_stmt(w->st, "UPDATE rentals SET hours = hours + ?2 WHERE id = ?1");
	xd_bind_int64(st, 1, r->rental);
	xd_bind_int(st, 2, r->hours);
	xd_step_done(w->st, st);
	rt->hours += r->hours;
	return true;
}

static bool is_funds(const char *why)
{
	return strncmp(why, "funds", 5) == 0;
}

static void run_extend(struct xd_writer *w, const struct ren *r, struct rent *rt)
{
	char *why = NULL;
	if (!rt->active) {
		if (r->order && !rt->stopped) {   /* it ended unextended: buy in its place now */
			set_row(w, r, "buy", w->now, NULL, false);
			return;
		}
		set_row(w, r, "done", r->due, rt->stopped ? "the buyer stopped the rental"
		                                          : "the rental ended", false);
		return;
	}
	if (extend(w, r, rt, &why)) {
		set_row(w, r, "extend", xd_renew_due(rt->started, rt->hours), NULL, true);
		tell(w, r, rt, "renewed", NULL);
		return;
	}
	if (r->order && !is_funds(why) && strncmp(why, "price", 5) != 0) {
		/* the seller's window is used up: the standing order buys again at the end */
		set_row(w, r, "buy", rt->started + (int64_t)rt->hours * XD_HOUR_MS, why, false);
		tell(w, r, rt, "not_extended", why);
		free(why);
		return;
	}
	give_up(w, r, rt, why);
}

static void run_buy(struct xd_writer *w, const struct ren *r, const struct rent *rt)
{
	char *why = NULL;
	if (xd_cond_regrow(w, r->order, rt->gpus, rt->price, &why)) {
		set_row(w, r, "done", r->due, NULL, true);
		return;
	}
	give_up(w, r, rt, why);
}

static void run_one(struct xd_writer *w, int64_t id)
{
	struct ren r;
	struct rent rt;
	if (!load_ren(w, id, &r) || r.due > w->now)
		return;   /* another transaction ran it */
	if (!load_rent(w, r.rental, &rt)) {
		set_row(w, &r, "stopped", r.due, "the rental is not there", false);
		return;
	}
	if (r.order && !order_standing(w, r.order)) {
		set_row(w, &r, "stopped", r.due, "the standing order has stopped", false);
		return;
	}
	if (r.buy)
		run_buy(w, &r, &rt);
	else
		run_extend(w, &r, &rt);
}

int64_t xd_renew_run(struct xd_writer *w)
{
	int64_t total = 0;
	while (total < RUN_MAX) {
		struct xd_q *st = xd_stmt(w->st,
			"SELECT id FROM renewals WHERE state IN ('extend', 'buy') AND due_ms <= ?1 "
			"ORDER BY due_ms, id LIMIT 64");
		xd_bind_int64(st, 1, w->now);
		int64_t ids[BATCH];
		size_t n = 0;
		while (n < BATCH && xd_step(st) == XD_ROW)
			ids[n++] = xd_col_int64(st, 0);
		xd_reset(st);
		if (n == 0)
			break;
		xd_ops_begin(w);
		for (size_t i = 0; i < n; i++)
			run_one(w, ids[i]);
		total += (int64_t)n;
	}
	return total;
}
