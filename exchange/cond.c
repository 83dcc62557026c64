/*
 * exchange/cond.c — orders with something more than a price (docs/API.md
 * "Conditional and standing orders"):
 *
 *   - a conditional order ("trigger"): accepted off the book with its hold
 *     taken (status waiting, remaining 0); it enters the book — matched as a
 *     new acceptance, with time priority from then — when its trigger holds
 *     while the market is open (watch.c evaluates it with every change of its
 *     book, and when the market opens); cancelled before, its hold returns;
 *   - one-cancels-other ("oco_group"): the account's orders of one group, on
 *     one GPU; when one of them enters the book or fills, the others still
 *     open or waiting are cancelled;
 *   - a standing order ("standing": a GTC limit buy of N GPUs for H hours at
 *     most P): it buys like any bid, each rental it gets is renewed period
 *     after period (renew.c) while the funds are there, and when a rental
 *     cannot be extended the order buys in its place when it ends; it stops,
 *     and says why on the account channel, when the funds run short or its
 *     account cancels it.
 * What the exchange does to such orders by itself goes to the account's
 * event log (kind "order" and "standing").
 *
 * At most XD_CONDS_MAX waiting and standing orders per account, counted under
 * the account's event_counters row (so on every node at once).
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* ---- the body ------------------------------------------------------------------------- */

/* A validation error about a member of "trigger": its field named in full. */
static void prefix_field(struct xd_reply *r, const char *prefix)
{
	cJSON *e = r->body ? cJSON_GetObjectItemCaseSensitive(r->body, "error") : NULL;
	cJSON *f = e ? cJSON_GetObjectItemCaseSensitive(e, "field") : NULL;
	if (!cJSON_IsString(f))
		return;
	char *name = xasprintf("%s.%s", prefix, f->valuestring);
	cJSON_ReplaceItemInObjectCaseSensitive(e, "field", cJSON_CreateString(name));
	free(name);
}

static bool group_ok(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '-' || *s == '.' || *s == ':'))
			return false;
	return true;
}

static int parse_trigger(const cJSON *v, struct xd_trigger *t, struct xd_reply *r)
{
	static const char *const fields[] = { "when", "price_cents", NULL };
	static const char *const whens[] = { "ask_lte", "ask_gte", "bid_lte", "bid_gte", "last_lte",
	                                     "last_gte", NULL };
	int when;
	if (!cJSON_IsObject(v)) {
		xd_reply_field(r, "WRONG_TYPE", "trigger", "\"trigger\" must be an object such as "
		               "{\"when\": \"ask_lte\", \"price_cents\": 400}");
		return -1;
	}
	if (xd_body_fields(v, fields, r) || xd_body_enum(v, "when", true, whens, &when, r) < 0 ||
	    xd_body_int(v, "price_cents", true, 1, XD_PRICE_MAX, &t->price, r) < 0) {
		prefix_field(r, "trigger");
		return -1;
	}
	t->when = xd_when_lookup(whens[when]);
	t->region = -1;
	return 0;
}

int xd_parse_cond(const struct xd_tables *t, const cJSON *b, struct xd_order_in *o,
                  struct xd_reply *r)
{
	struct xd_cond_in *c = &o->cond;
	memset(c, 0, sizeof *c);
	c->trigger.region = -1;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(b, "trigger");
	if (v && parse_trigger(v, &c->trigger, r))
		return -1;
	const char *group;
	int has = xd_body_str(b, "oco_group", false, XD_COID_MAX, &group, r);
	if (has < 0)
		return -1;
	if (has && !group_ok(group)) {
		xd_reply_field(r, "BAD_VALUE", "oco_group", "\"oco_group\" may only hold letters, "
		               "digits and _ - . :");
		return -1;
	}
	if (has)
		snprintf(c->oco, sizeof c->oco, "%s", group);
	v = cJSON_GetObjectItemCaseSensitive(b, "standing");
	if (v && !cJSON_IsBool(v)) {
		xd_reply_field(r, "WRONG_TYPE", "standing", "\"standing\" must be true or false");
		return -1;
	}
	c->standing = v && cJSON_IsTrue(v);
	if (c->standing && (o->side != ENG_BUY || o->type != XD_LIMIT || o->tif != ENG_GTC)) {
		xd_reply_field(r, "BAD_COMBINATION", "standing", "a standing order is a limit buy, good "
		               "till cancelled: its price is the most it pays");
		return -1;
	}
	if (c->standing && (c->trigger.when || c->oco[0])) {
		const char *f = c->trigger.when ? "trigger" : "oco_group";
		xd_reply_field(r, "BAD_COMBINATION", f, "a standing order takes no \"%s\"", f);
		return -1;
	}
	return 0;
}

bool xd_cond_any(const struct xd_cond_in *c)
{
	return c->trigger.when != XD_WHEN_NONE || c->oco[0] || c->standing;
}

bool xd_cond_waits(const struct xd_order_in *in)
{
	return in->cond.trigger.when != XD_WHEN_NONE;
}

static bool same_text(const char *stored, const char *given)
{
	return strcmp(stored ? stored : "", given ? given : "") == 0;
}

bool xd_cond_same(struct xd_writer *w, int64_t id, const struct xd_cond_in *c)
{
	struct xd_q *st = xd_stmt(w->st, "SELECT trigger_cond, trigger_price, oco_group, standing "
	                                 "FROM orders WHERE id = ?1");
	xd_bind_int64(st, 1, id);
	bool same = false;
	if (xd_step(st) == XD_ROW) {
		const char *when = c->trigger.when ? xd_when_names[c->trigger.when] : NULL;
		same = same_text(xd_col_text(st, 0), when) &&
		       (!c->trigger.when || xd_col_int64(st, 1) == c->trigger.price) &&
		       same_text(xd_col_text(st, 2), c->oco) &&
		       !xd_col_null(st, 3) == c->standing;
	}
	xd_reset(st);
	return same;
}

/* ---- an order's row ------------------------------------------------------------------- */

struct crow {
	int64_t id, account, price, hold, unit;
	int gpu;
	int32_t gpus, hours, remaining;
	char status[20];
	struct xd_trigger trigger;
	char oco[XD_COID_MAX + 1];
	bool standing, standing_active;
};

static bool load(struct xd_writer *w, int64_t id, struct crow *o)
{
	struct xd_q *st = xd_stmt(w->st,
		"SELECT account, gpu, price, hold, unit, gpus, hours, remaining, status, trigger_cond, "
		"trigger_price, oco_group, standing FROM orders WHERE id = ?1");
	xd_bind_int64(st, 1, id);
	if (xd_step(st) != XD_ROW) {
		xd_reset(st);
		return false;
	}
	memset(o, 0, sizeof *o);
	o->id = id;
	o->account = xd_col_int64(st, 0);
	o->gpu = xd_tables_gpu(w->t, xd_col_text(st, 1));
	o->price = xd_col_int64(st, 2);
	o->hold = xd_col_int64(st, 3);
	o->unit = xd_col_int64(st, 4);
	o->gpus = xd_col_int(st, 5);
	o->hours = xd_col_int(st, 6);
	o->remaining = xd_col_int(st, 7);
	snprintf(o->status, sizeof o->status, "%s", xd_col_text(st, 8));
	o->trigger = (struct xd_trigger){ .when = xd_when_lookup(xd_col_text(st, 9)),
	                                  .price = xd_col_int64(st, 10), .region = -1 };
	snprintf(o->oco, sizeof o->oco, "%s", xd_col_text(st, 11) ? xd_col_text(st, 11) : "");
	o->standing = !xd_col_null(st, 12);
	o->standing_active = o->standing && strcmp(xd_col_text(st, 12), "active") == 0;
	xd_reset(st);
	return o->gpu >= 0;
}

static bool waiting(const struct crow *o)
{
	return strcmp(o->status, "waiting") == 0;
}

static void mark(struct xd_writer *w, const struct crow *o)
{
	struct xd_mark m = { .order = o->id, .account = o->account, .standing = o->standing_active };
	snprintf(m.oco, sizeof m.oco, "%s", o->oco);
	xd_watch_mark(w, o->gpu, &m);
}

/* An event of kind "order" about order o. */
static cJSON *order_event(struct xd_writer *w, const struct crow *o, const char *what)
{
	cJSON *e = cJSON_CreateObject();
	xd_jint(e, "order_id", o->id);
	cJSON_AddStringToObject(e, "gpu", w->t->gpu_ids[o->gpu]);
	cJSON_AddStringToObject(e, "event", what);
	return e;
}

/* The order's status now, for an event. */
static void add_status(struct xd_writer *w, cJSON *e, int64_t id)
{
	struct xd_q *st = xd_stmt(w->st, "SELECT status, filled, remaining FROM orders WHERE id = ?1");
	xd_bind_int64(st, 1, id);
	if (xd_step(st) == XD_ROW) {
		xd_jstr(e, "status", xd_col_text(st, 0));
		xd_jint(e, "filled_gpus", xd_col_int64(st, 1));
		xd_jint(e, "remaining_gpus", xd_col_int64(st, 2));
	}
	xd_reset(st);
}

/* ---- placing ---------------------------------------------------------------------------- */

/* Waiting and active standing orders of the account. */
static int64_t cond_count(struct xd_writer *w, int64_t account)
{
	struct xd_q *st = xd_stmt(w->st, "SELECT count(*) FROM orders WHERE account = ?1 AND "
	                                 "(status = 'waiting' OR standing = 'active')");
	xd_bind_int64(st, 1, account);
	int64_t n = xd_step(st) == XD_ROW ? xd_col_int64(st, 0) : 0;
	xd_reset(st);
	return n;
}

bool xd_cond_refused(struct xd_writer *w, struct xd_job *j)
{
	const struct xd_order_in *in = &j->order;
	const struct xd_cond_in *c = &in->cond;
	if (!xd_cond_any(c))
		return false;
	xd_ops_begin(w);
	xd_events_turn(w, j->account);
	if ((c->trigger.when || c->standing) && cond_count(w, j->account) >= XD_CONDS_MAX) {
		cJSON *e = xd_reply_error(&j->reply, 409, "TOO_MANY_CONDITIONAL", "the account has %d "
		                          "waiting or standing orders, the most it may have",
		                          XD_CONDS_MAX);
		xd_jint(e, "max", XD_CONDS_MAX);
		return true;
	}
	if (!c->oco[0])
		return false;
	struct xd_q *st = xd_stmt(w->st,
		"SELECT gpu FROM orders WHERE account = ?1 AND oco_group = ?2 AND gpu <> ?3 AND "
		"(status = 'waiting' OR remaining > 0) LIMIT 1");
	xd_bind_int64(st, 1, j->account);
	xd_bind_text(st, 2, c->oco);
	xd_bind_text(st, 3, w->t->gpu_ids[in->gpu]);
	char other[64] = "";
	if (xd_step(st) == XD_ROW)
		snprintf(other, sizeof other, "%s", xd_col_text(st, 0));
	xd_reset(st);
	if (!other[0])
		return false;
	cJSON *e = xd_reply_error(&j->reply, 409, "OCO_OTHER_GPU", "oco_group \"%s\" has open "
	                          "orders for %s: the orders of one group are for one GPU", c->oco,
	                          other);
	cJSON_AddStringToObject(e, "field", "oco_group");
	return true;
}

static void store_cond(struct xd_writer *w, int64_t id, const struct xd_cond_in *c)
{
	struct xd_q *st = xd_stmt(w->st, "UPDATE orders SET trigger_cond = ?2, trigger_price = ?3, "
	                                 "oco_group = ?4, standing = ?5 WHERE id = ?1");
	xd_bind_int64(st, 1, id);
	if (c->trigger.when) {
		xd_bind_text(st, 2, xd_when_names[c->trigger.when]);
		xd_bind_int64(st, 3, c->trigger.price);
	}
	if (c->oco[0])
		xd_bind_text(st, 4, c->oco);
	if (c->standing)
		xd_bind_text(st, 5, "active");
	xd_step_done(w->st, st);
}

static void enter(struct xd_writer *w, const struct crow *o, int64_t value);

int64_t xd_cond_place(struct xd_writer *w, int64_t account, const struct xd_order_in *in)
{
	bool waits = xd_cond_waits(in);
	int64_t id = waits ? xd_ops_place_waiting(w, account, in) : xd_ops_place(w, account, in);
	if (id <= 0)
		return id;
	store_cond(w, id, &in->cond);
	struct crow o;
	if (!load(w, id, &o))
		fatal("gpuxd: order %" PRId64 " is not in the database", id);
	if (o.oco[0] || o.standing)
		mark(w, &o);   /* its fills, noted already, are settled after the job */
	int64_t v;
	if (waits && w->state == EXCHANGE_OPEN && xd_watch_holds(w, o.gpu, &o.trigger, &v))
		enter(w, &o, v);
	else if (waits)
		xd_watch_add(w, o.gpu, XD_WATCH_ORDERS, &o.trigger, id);
	return id;
}

/* ---- one-cancels-other ------------------------------------------------------------------ */

/* Cancel waiting order o: its hold back, its trigger out of the watch. */
static void cancel_waiting(struct xd_writer *w, const struct crow *o)
{
	xd_ops_begin(w);
	xd_ops_post(w, "release", o->account, XD_HELD, o->account, XD_AVAILABLE, o->hold, o->id, 0);
	struct xd_q *st = xd_stmt(w->st, "UPDATE orders SET status = 'cancelled', hold = 0, "
	                                 "updated_ms = ?2 WHERE id = ?1");
	xd_bind_int64(st, 1, o->id);
	xd_bind_int64(st, 2, w->now);
	xd_step_done(w->st, st);
	xd_watch_remove(w, o->gpu, XD_WATCH_ORDERS, &o->trigger, o->id);
	xd_watch_unmark(w, o->gpu, o->id);
}

/* Order `by` of the account's group entered the book or filled: the
 * group's other orders still open or waiting are cancelled. */
static void cancel_group(struct xd_writer *w, int g, int64_t account, const char *oco, int64_t by)
{
	struct xd_mark *m;
	size_t n = xd_watch_group(w, g, account, oco, &m);
	for (size_t i = 0; i < n; i++) {
		struct crow o;
		if (m[i].order == by || !load(w, m[i].order, &o))
			continue;
		if (waiting(&o))
			cancel_waiting(w, &o);
		else if (o.remaining > 0)
			xd_ops_cancel(w, o.id);
		else
			continue;
		xd_watch_unmark(w, g, o.id);
		cJSON *e = order_event(w, &o, "cancelled");
		cJSON_AddStringToObject(e, "reason", "oco");
		cJSON_AddStringToObject(e, "oco_group", oco);
		xd_jint(e, "by_order_id", by);
		add_status(w, e, o.id);
		xd_events_add(w, o.account, "order", e);
	}
	free(m);
}

/* ---- entering the book -------------------------------------------------------------------- */

static void enter(struct xd_writer *w, const struct crow *o, int64_t value)
{
	if (xd_ops_enter(w, o->id, o->gpus, 0) != 0)
		return;
	cJSON *e = order_event(w, o, "entered");
	cJSON *t = cJSON_AddObjectToObject(e, "trigger");
	cJSON_AddStringToObject(t, "when", xd_when_names[o->trigger.when]);
	xd_jint(t, "price_cents", o->trigger.price);
	xd_jint(e, "value_cents", value);
	add_status(w, e, o->id);
	xd_events_add(w, o->account, "order", e);
	if (o->oco[0])
		cancel_group(w, o->gpu, o->account, o->oco, o->id);
}

void xd_cond_hit(struct xd_writer *w, int g, int64_t id, int64_t value)
{
	struct crow o;
	if (load(w, id, &o) && waiting(&o))
		enter(w, &o, value);
}

void xd_cond_load(struct xd_writer *w, int g)
{
	struct xd_q *st = xd_stmt(w->st,
		"SELECT id FROM orders WHERE gpu = ?1 AND "
		"(status = 'waiting' OR oco_group IS NOT NULL OR standing = 'active') ORDER BY id");
	xd_bind_text(st, 1, w->t->gpu_ids[g]);
	struct buf ids = { 0 };
	size_t n = 0;
	while (xd_step(st) == XD_ROW) {
		int64_t id = xd_col_int64(st, 0);
		buf_append(&ids, &id, sizeof id);
		n++;
	}
	xd_reset(st);
	for (size_t i = 0; i < n; i++) {
		int64_t id;
		memcpy(&id, ids.data + i * sizeof id, sizeof id);
		struct crow o;
		if (!load(w, id, &o))
			continue;
		if (waiting(&o))
			xd_watch_add(w, g, XD_WATCH_ORDERS, &o.trigger, id);
		if (o.standing_active || (o.oco[0] && (waiting(&o) || o.remaining > 0)))
			mark(w, &o);
	}
	buf_free(&ids);
}

/* ---- fills --------------------------------------------------------------------------------- */

/* Standing order o bought rental f: renewed from now on, the account told. */
static void standing_bought(struct xd_writer *w, const struct crow *o, const struct xd_fill_note *f)
{
	xd_renew_add(w, o->account, f->trade, o->id, f->hours, o->price,
	             xd_renew_due(f->started, f->hours));
	cJSON *e = cJSON_CreateObject();
	xd_jint(e, "order_id", o->id);
	cJSON_AddStringToObject(e, "gpu", w->t->gpu_ids[o->gpu]);
	cJSON_AddStringToObject(e, "event", "bought");
	xd_jint(e, "rental_id", f->trade);
	xd_jint(e, "gpus", f->gpus);
	xd_jint(e, "hours", f->hours);
	xd_jint(e, "price_cents", f->price);
	xd_jint(e, "target_gpus", o->gpus);
	xd_events_add(w, o->account, "standing", e);
}

void xd_cond_fills(struct xd_writer *w, const struct xd_fill_note *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (int side = 0; side < 2; side++) {
			int64_t id = side ? f[i].sell_order : f[i].buy_order;
			const struct xd_mark *m = xd_watch_marked(w, f[i].gpu, id);
			struct crow o;
			if (!m || !load(w, id, &o))
				continue;
			if (o.standing_active && side == 0)
				standing_bought(w, &o, &f[i]);
			if (o.oco[0])
				cancel_group(w, f[i].gpu, o.account, o.oco, id);
			if (!o.standing_active && o.remaining == 0)
				xd_watch_unmark(w, f[i].gpu, id);
		}
	}
}

/* ---- cancelling and stopping ------------------------------------------------------------------ */

static void standing_state(struct xd_writer *w, int64_t id, const char *reason)
{
	struct xd_q *st = xd_stmt(w->st, "UPDATE orders SET standing = 'stopped', standing_reason = ?2, "
	                                 "updated_ms = ?3 WHERE id = ?1");
	xd_bind_int64(st, 1, id);
	xd_bind_text(st, 2, reason);
	xd_bind_int64(st, 3, w->now);
	xd_step_done(w->st, st);
}

static void stop_standing(struct xd_writer *w, const struct crow *o, const char *reason)
{
	if (o->remaining > 0)
		xd_ops_cancel(w, o->id);
	standing_state(w, o->id, reason);
	xd_renew_stop_order(w, o->id, reason);
	xd_watch_unmark(w, o->gpu, o->id);
}

void xd_cond_standing_stop(struct xd_writer *w, int64_t id, const char *reason)
{
	struct crow o;
	if (!load(w, id, &o) || !o.standing_active)
		return;
	w->nodes->lock_book(w, o.gpu);
	if (!load(w, id, &o) || !o.standing_active)
		return;
	stop_standing(w, &o, reason);
	cJSON *e = cJSON_CreateObject();
	xd_jint(e, "order_id", o.id);
	cJSON_AddStringToObject(e, "gpu", w->t->gpu_ids[o.gpu]);
	cJSON_AddStringToObject(e, "event", "stopped");
	cJSON_AddStringToObject(e, "reason", reason);
	xd_events_add(w, o.account, "standing", e);
}

bool xd_cond_regrow(struct xd_writer *w, int64_t id, int32_t gpus, int64_t price, char **why)
{
	struct crow o;
	if (!load(w, id, &o) || !o.standing_active) {
		*why = xstrdup("the standing order has stopped");
		return false;
	}
	int64_t hold = (int64_t)gpus * o.hours * o.unit;
	struct xd_acct *a = xd_ops_acct(w, o.account);
	if (!a || hold > a->avail) {
		*why = xasprintf("funds: the next period of %" PRId32 " GPUs needs %" PRId64 " %s "
		                 "minor units; %" PRId64 " are available", gpus, hold,
		                 a ? xd_cur_code(w, a->cur) : "", a ? a->avail : 0);
		return false;
	}
	/* the GPUs of the rental that ended are no longer held: back to be bought */
	struct xd_q *st = xd_stmt(w->st, "UPDATE orders SET filled = filled - ?2, "
	                                 "filled_value = filled_value - ?3 WHERE id = ?1");
	xd_bind_int64(st, 1, id);
	xd_bind_int(st, 2, gpus);
	xd_bind_int64(st, 3, price * gpus);
	xd_step_done(w->st, st);
	if (xd_ops_enter(w, id, gpus, hold) != 0) {
		*why = xstrdup("the standing order could not enter the book");
		return false;
	}
	cJSON *e = cJSON_CreateObject();
	xd_jint(e, "order_id", id);
	cJSON_AddStringToObject(e, "gpu", w->t->gpu_ids[o.gpu]);
	cJSON_AddStringToObject(e, "event", "buying");
	xd_jint(e, "gpus", gpus);
	xd_jint(e, "price_cents", o.price);
	add_status(w, e, id);
	xd_events_add(w, o.account, "standing", e);
	return true;
}

bool xd_cond_cancel(struct xd_writer *w, struct xd_job *j)
{
	struct crow o;
	if (!load(w, j->target, &o) || o.account != j->account)
		return false;
	if (!waiting(&o) && !o.standing_active) {
		if (o.oco[0])
			xd_watch_unmark(w, o.gpu, o.id);
		return false;
	}
	xd_ops_begin(w);
	if (w->nodes->lock_book(w, o.gpu) &&
	    (!load(w, j->target, &o) || (!waiting(&o) && !o.standing_active)))
		return false;   /* another node moved it meanwhile: the ordinary cancel says how */
	if (waiting(&o))
		cancel_waiting(w, &o);
	else
		stop_standing(w, &o, "cancelled by the account");
	xd_reply_json(&j->reply, 200, xd_read_order(w->st, w->t, j->account, j->target, true));
	return true;
}

/* ---- reading ------------------------------------------------------------------------------ */

void xd_cond_json(cJSON *o, struct xd_q *st, int first)
{
	if (xd_col_null(st, first)) {
		cJSON_AddNullToObject(o, "trigger");
	} else {
		cJSON *t = cJSON_AddObjectToObject(o, "trigger");
		xd_jstr(t, "when", xd_col_text(st, first));
		xd_jint(t, "price_cents", xd_col_int64(st, first + 1));
	}
	xd_jstr(o, "oco_group", xd_col_text(st, first + 2));
	if (xd_col_null(st, first + 3)) {
		cJSON_AddNullToObject(o, "standing");
	} else {
		cJSON *s = cJSON_AddObjectToObject(o, "standing");
		xd_jstr(s, "state", xd_col_text(st, first + 3));
		xd_jstr(s, "reason", xd_col_text(st, first + 4));
	}
}
