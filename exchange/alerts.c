/*
 * exchange/alerts.c — alerts kept by the exchange (docs/API.md "Alerts"):
 * GET/POST/DELETE /v1/alerts, and what happens when one fires.
 *
 * An alert is a row of the table alerts, of one of three sorts:
 *   - a price condition on one GPU's book (best ask, best bid or last at or
 *     below / at or above a price; the spread at or below / at or above): it
 *     lives in the watch of its GPU (watch.c), is evaluated in the
 *     transaction that changes the book, and fires once (state fired) or,
 *     with rearm_cents, re-arms once the price has moved back by that much
 *     (state rearming until then: the watch holds the opposite condition at
 *     the threshold ± rearm_cents), so prices that wobble around the
 *     threshold do not fire it again and again;
 *   - a rental ending within N minutes (one rental, or any the account buys):
 *     time-based, looked at by the lease holder (xd_alerts_tick) over the
 *     exchange time since its last look;
 *   - an order filled (one order, or any of the account's): looked at for the
 *     fills of each job (xd_alerts_fills);
 *   - a job's cheapest total at or below a budget (job_total_lte: the job
 *     body of a job order, its hours and regions): what a job order would
 *     pay now, VAT included, in the account's currency. Its row keeps the
 *     job as a job order's row does (xd_job_text, in job), the regions (in
 *     region), the budget max_total_minor (in price) and rearm_minor (in
 *     rearm); jobalerts.c evaluates it when a book it can run on changes,
 *     and xd_alerts_job_hit below fires or re-arms it, with the same
 *     hysteresis as a price alert's ("at or below" the budget fires it; a
 *     total at or above budget + rearm_minor, or no GPU that can run it,
 *     re-arms it).
 * A firing is an event of kind "alert" in the account's log (events.c) with
 * its own id, the market's seq and the time, written in the transaction
 * that fired it. Creating or deleting a book alert takes the book (so every
 * node's watch of that book is read again with it); an account's creations
 * are counted under its event_counters row, so its limit holds across nodes.
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define MINUTES_MAX 10080        /* a week */
#define EXPIRES_MAX_MS (366LL * 86400000LL)

static const char *const state_names[] = { "armed", "rearming", "fired", "expired", NULL };

static bool is_job(int when)
{
	return when == XD_WHEN_JOB_TOTAL_LTE;
}

static bool is_book(int when)
{
	enum xd_metric m;
	bool lte;
	return xd_when_price(when, &m, &lte);
}

/* The opposite condition of a book alert at threshold ± rearm (its re-arming). */
static struct xd_trigger rearming(const struct xd_trigger *t, int64_t rearm)
{
	struct xd_trigger r = *t;
	enum xd_metric m;
	bool lte;
	xd_when_price(t->when, &m, &lte);
	r.when = t->when + (lte ? 1 : -1);
	r.price = lte ? t->price + rearm : t->price - rearm;
	if (r.price < 0)
		r.price = 0;
	return r;
}

/* ---- the body ----------------------------------------------------------------------- */

static bool label_ok(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

/* Fields that do not go with `when`: the first one present, or NULL. */
static const char *misplaced(const cJSON *b, int when)
{
	static const char *const book_only[] = { "gpu", "price_cents", "rearm_cents", NULL };
	static const char *const rental_only[] = { "minutes", "rental_id", NULL };
	static const char *const order_only[] = { "order_id", NULL };
	static const char *const job_only[] = { "job", "hours", "regions", "max_total_minor",
	                                        "rearm_minor", NULL };
	const char *const *groups[4] = { book_only, rental_only, order_only, job_only };
	int mine = is_book(when) ? 0 : when == XD_WHEN_RENTAL_ENDING ? 1 : is_job(when) ? 3 : 2;
	for (int k = 0; k < 4; k++) {
		if (k == mine)
			continue;
		for (const char *const *f = groups[k]; *f; f++)
			if (cJSON_GetObjectItemCaseSensitive(b, *f))
				return *f;
	}
	return NULL;
}

static int parse_when(const cJSON *b, struct xd_alert_in *a, struct xd_reply *r)
{
	const char *s;
	if (xd_body_str(b, "when", true, 32, &s, r) < 0)
		return -1;
	a->when = xd_when_lookup(s);
	if (a->when == XD_WHEN_NONE) {
		struct buf list = { 0 };
		for (int i = 1; xd_when_names[i]; i++)
			buf_printf(&list, "%s\"%s\"", i > 1 ? ", " : "", xd_when_names[i]);
		xd_reply_field(r, "BAD_VALUE", "when", "\"when\" must be one of %s", list.data);
		buf_free(&list);
		return -1;
	}
	const char *f = misplaced(b, a->when);
	if (f) {
		xd_reply_field(r, "BAD_COMBINATION", f, "\"%s\" does not go with \"when\": \"%s\"", f,
		               xd_when_names[a->when]);
		return -1;
	}
	return 0;
}

static int parse_book(const struct xd_tables *t, const cJSON *b, struct xd_alert_in *a,
                      struct xd_reply *r)
{
	const char *gpu;
	if (xd_body_str(b, "gpu", true, 64, &gpu, r) < 0)
		return -1;
	a->gpu = xd_tables_gpu(t, gpu);
	if (a->gpu < 0) {
		char *safe = util_sanitize(gpu, 40, true);
		xd_reply_field(r, "UNKNOWN_GPU", "gpu", "unknown GPU \"%s\" (GET /v1/gpus lists them)",
		               safe);
		free(safe);
		return -1;
	}
	bool spread = a->when == XD_WHEN_SPREAD_LTE || a->when == XD_WHEN_SPREAD_GTE;
	if (xd_body_int(b, "price_cents", true, spread ? 0 : 1, XD_PRICE_MAX, &a->price, r) < 0 ||
	    xd_body_int(b, "rearm_cents", false, 1, XD_PRICE_MAX, &a->rearm, r) < 0)
		return -1;
	return 0;
}

/* A job alert: its budget, re-arming, regions and job (the job and hours
 * validated as a job order's, with the same codes). */
static int parse_job(const struct xd_tables *t, const cJSON *b, struct xd_alert_in *a,
                     struct xd_order_in *job, struct xd_reply *r)
{
	/* hours first, as a job order reads it (it is read again with the job) */
	if (xd_body_int(b, "hours", false, 1, XD_HOURS_MAX, &(int64_t){ 0 }, r) < 0 ||
	    xd_body_int(b, "max_total_minor", true, 1, XD_DEPOSIT_MAX, &a->price, r) < 0 ||
	    xd_body_int(b, "rearm_minor", false, 1, XD_DEPOSIT_MAX, &a->rearm, r) < 0 ||
	    xd_parse_regions(t, b, &job->regions, r) < 0 ||
	    xd_parse_job_fields(b, "a job alert", job, r) != 0)
		return -1;
	job->is_job = true;
	job->side = ENG_BUY;
	job->gpu = -1;
	job->max_total = a->price;
	return 0;
}

int xd_parse_alert(const struct xd_tables *t, const char *body, size_t len, struct xd_alert_in *a,
                   struct xd_order_in *job, struct xd_reply *r)
{
	static const char *const fields[] = {
		"when", "gpu", "price_cents", "rearm_cents", "minutes", "rental_id", "order_id",
		"job", "hours", "regions", "max_total_minor", "rearm_minor", "expires_at", "label", NULL,
	};
	cJSON *b = NULL;
	int rc = -1;
	memset(a, 0, sizeof *a);
	memset(job, 0, sizeof *job);
	a->gpu = -1;
	a->region = -1;
	a->expires_ms = -1;
	if (xd_body_parse(body, len, false, &b, r) || xd_body_fields(b, fields, r) ||
	    parse_when(b, a, r))
		goto out;
	if (is_book(a->when)) {
		if (parse_book(t, b, a, r))
			goto out;
	} else if (is_job(a->when)) {
		if (parse_job(t, b, a, job, r))
			goto out;
	} else if (a->when == XD_WHEN_RENTAL_ENDING) {
		int64_t minutes;
		if (xd_body_int(b, "minutes", true, 1, MINUTES_MAX, &minutes, r) < 0 ||
		    xd_body_int(b, "rental_id", false, 1, INT64_C(9007199254740991), &a->rental_id, r) < 0)
			goto out;
		a->minutes = (int32_t)minutes;
	} else if (xd_body_int(b, "order_id", false, 1, INT64_C(9007199254740991), &a->order_id, r) < 0) {
		goto out;
	}
	const char *s;
	int has = xd_body_str(b, "expires_at", false, 40, &s, r);
	if (has < 0)
		goto out;
	if (has && (exchange_parse_time(s, &a->expires_ms) != 0 || a->expires_ms < 0)) {
		xd_reply_field(r, "BAD_VALUE", "expires_at", "\"expires_at\" must be an ISO 8601 time "
		               "such as 2025-09-01T09:00:00Z");
		goto out;
	}
	if ((has = xd_body_str(b, "label", false, XD_LABEL_MAX, &s, r)) < 0)
		goto out;
	if (has && (!xd_utf8_valid(s, strlen(s)) || !label_ok(s))) {
		xd_reply_field(r, "BAD_VALUE", "label", "\"label\" must be text without control "
		               "characters");
		goto out;
	}
	if (has)
		snprintf(a->label, sizeof a->label, "%s", s);
	rc = 0;
out:
	cJSON_Delete(b);
	return rc;
}

/* ---- reading ------------------------------------------------------------------------- */

#define ALERT_COLS "id, cond, gpu, price, rearm, minutes, rental_id, order_id, label, state, " \
	"fired, fired_ms, expires_ms, created_ms, job, region, " \
	"(SELECT currency FROM accounts WHERE accounts.id = alerts.account)"

static void jint_col(cJSON *o, const char *k, struct xd_q *st, int i)
{
	xd_jint_or_null(o, k, xd_col_int64(st, i), !xd_col_null(st, i));
}

/* A job alert's job, hours, regions, budget and re-arming (columns 3, 4, 14,
 * 15, 16 of ALERT_COLS); null for the other alerts. */
static void job_cols(cJSON *o, struct xd_q *st, bool job)
{
	struct xd_order_in in = { 0 };
	bool ok = job && xd_col_text(st, 14) && xd_job_from_text(xd_col_text(st, 14), &in);
	cJSON_AddItemToObject(o, "job", ok ? xd_job_json(&in) : cJSON_CreateNull());
	xd_jint_or_null(o, "hours", in.job_hours, ok && in.job_hours > 0);
	if (job)
		xd_regions_json(o, "regions", xd_col_text(st, 15));
	else
		cJSON_AddNullToObject(o, "regions");
	xd_jint_or_null(o, "max_total_minor", xd_col_int64(st, 3), job);
	xd_jint_or_null(o, "rearm_minor", xd_col_int64(st, 4), job && !xd_col_null(st, 4));
	xd_jstr(o, "currency", job ? xd_col_text(st, 16) : NULL);
}

static cJSON *alert_json(struct xd_q *st, int64_t now)
{
	cJSON *o = cJSON_CreateObject();
	bool job = is_job(xd_when_lookup(xd_col_text(st, 1)));
	xd_jint(o, "id", xd_col_int64(st, 0));
	xd_jstr(o, "when", xd_col_text(st, 1));
	xd_jstr(o, "gpu", xd_col_text(st, 2));
	xd_jint_or_null(o, "price_cents", xd_col_int64(st, 3), !job && !xd_col_null(st, 3));
	xd_jint_or_null(o, "rearm_cents", xd_col_int64(st, 4), !job && !xd_col_null(st, 4));
	jint_col(o, "minutes", st, 5);
	jint_col(o, "rental_id", st, 6);
	jint_col(o, "order_id", st, 7);
	job_cols(o, st, job);
	xd_jstr(o, "label", xd_col_text(st, 8));
	const char *state = xd_col_text(st, 9);
	bool live = strcmp(state, "armed") == 0 || strcmp(state, "rearming") == 0;
	if (live && !xd_col_null(st, 12) && xd_col_int64(st, 12) <= now)
		state = "expired";
	xd_jstr(o, "state", state);
	xd_jint(o, "fired_count", xd_col_int64(st, 10));
	xd_jtime(o, "last_fired_at", xd_col_null(st, 11) ? -1 : xd_col_int64(st, 11));
	xd_jtime(o, "expires_at", xd_col_null(st, 12) ? -1 : xd_col_int64(st, 12));
	xd_jtime(o, "created_at", xd_col_int64(st, 13));
	return o;
}

static cJSON *read_alert(struct xd_store *s, int64_t account, int64_t id, int64_t now)
{
	struct xd_q *st = xd_stmt(s, "SELECT " ALERT_COLS " FROM alerts WHERE id = ?1 AND account = ?2");
	xd_bind_int64(st, 1, id);
	xd_bind_int64(st, 2, account);
	cJSON *o = xd_step(st) == XD_ROW ? alert_json(st, now) : NULL;
	xd_reset(st);
	return o;
}

/* Live alerts of the account (only its job alerts: jobs): armed or
 * re-arming, not expired. */
static int64_t live_count(struct xd_store *s, int64_t account, int64_t now, bool jobs)
{
	struct xd_q *st = xd_stmt(s, "SELECT count(*) FROM alerts WHERE account = ?1 AND state IN "
	                             "('armed', 'rearming') AND (expires_ms IS NULL OR expires_ms > ?2) "
	                             "AND (?3 = 0 OR cond = 'job_total_lte')");
	xd_bind_int64(st, 1, account);
	xd_bind_int64(st, 2, now);
	xd_bind_int(st, 3, jobs ? 1 : 0);
	int64_t n = xd_step(st) == XD_ROW ? xd_col_int64(st, 0) : 0;
	xd_reset(st);
	return n;
}

/* ---- the handlers ------------------------------------------------------------------------- */

void xd_alerts_h_list(struct xd_ctx *c)
{
	static const char *const allowed[] = { "limit", "cursor", NULL };
	struct xd_page p;
	if (xd_query_check(c, allowed) != 0 || xd_query_page(c, 100, &p) != 0)
		return;
	int64_t limit = p.limit, before = p.before;
	int64_t now = xd_market_now(c->m);
	struct xd_store *s = xd_store_reader();
	struct xd_q *st = xd_stmt(s, "SELECT " ALERT_COLS " FROM alerts WHERE account = ?1 AND id < ?2 "
	                             "ORDER BY id DESC LIMIT ?3");
	xd_bind_int64(st, 1, c->account);
	xd_bind_int64(st, 2, before);
	xd_bind_int64(st, 3, limit + 1);
	cJSON *o = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(o, "alerts");
	int64_t n = 0, last = 0;
	bool more = false;
	while (xd_step(st) == XD_ROW) {
		if (n == limit) {
			more = true;
			break;
		}
		last = xd_col_int64(st, 0);
		cJSON_AddItemToArray(arr, alert_json(st, now));
		n++;
	}
	xd_reset(st);
	if (more) {
		char cur[32];
		snprintf(cur, sizeof cur, "%" PRId64, last);
		cJSON_AddStringToObject(o, "next_cursor", cur);
	} else {
		cJSON_AddNullToObject(o, "next_cursor");
	}
	xd_jint(o, "live", live_count(s, c->account, now, false));
	xd_jint(o, "max", XD_ALERTS_MAX);
	xd_reply_json(&c->reply, 200, o);
}

void xd_alerts_h_get(struct xd_ctx *c)
{
	static const char *const none[] = { NULL };
	int64_t id;
	if (xd_query_check(c, none) != 0 || !xd_path_id(c, "alert", &id))
		return;
	cJSON *o = read_alert(xd_store_reader(), c->account, id, xd_market_now(c->m));
	if (o)
		xd_reply_json(&c->reply, 200, o);
	else
		xd_reply_error(&c->reply, 404, "NOT_FOUND", "no alert %" PRId64, id);
}

void xd_alerts_h_create(struct xd_ctx *c)
{
	static const char *const none[] = { NULL };
	if (xd_query_check(c, none) != 0 ||
	    xd_parse_alert(xd_market_tables(c->m), c->body, c->body_len, &c->job->alert,
	                   &c->job->order, &c->reply))
		return;
	c->job->kind = XD_JOB_ALERT_ADD;
	c->job->account = c->account;
	xd_ctx_submit(c);
}

void xd_alerts_h_delete(struct xd_ctx *c)
{
	static const char *const none[] = { NULL };
	int64_t id;
	if (xd_query_check(c, none) != 0 || !xd_path_id(c, "alert", &id))
		return;
	c->job->kind = XD_JOB_ALERT_DEL;
	c->job->account = c->account;
	c->job->target = id;
	xd_ctx_submit(c);
}

/* ---- firing ------------------------------------------------------------------------------ */

/* An alert row as the writer needs it. */
struct arow {
	int64_t id, account, price, rearm, rental_id, order_id, fired, expires;
	int when, state, gpu;
	int32_t minutes;
	char label[XD_LABEL_MAX + 1];
};

static bool load_alert(struct xd_writer *w, int64_t id, struct arow *a)
{
	struct xd_q *st = xd_stmt(w->st,
		"SELECT account, cond, gpu, price, rearm, minutes, rental_id, order_id, label, state, "
		"fired, expires_ms FROM alerts WHERE id = ?1");
	xd_bind_int64(st, 1, id);
	if (xd_step(st) != XD_ROW) {
		xd_reset(st);
		return false;
	}
	a->id = id;
	a->account = xd_col_int64(st, 0);
	a->when = xd_when_lookup(xd_col_text(st, 1));
	a->gpu = xd_col_null(st, 2) ? -1 : xd_tables_gpu(w->t, xd_col_text(st, 2));
	a->price = xd_col_int64(st, 3);
	a->rearm = xd_col_int64(st, 4);
	a->minutes = xd_col_int(st, 5);
	a->rental_id = xd_col_int64(st, 6);
	a->order_id = xd_col_int64(st, 7);
	snprintf(a->label, sizeof a->label, "%s", xd_col_text(st, 8) ? xd_col_text(st, 8) : "");
	a->state = xd_lookup(state_names, xd_col_text(st, 9));
	a->fired = xd_col_int64(st, 10);
	a->expires = xd_col_null(st, 11) ? -1 : xd_col_int64(st, 11);
	xd_reset(st);
	return true;
}

static void set_state(struct xd_writer *w, int64_t id, int state, bool fired)
{
	struct xd_q *st = xd_stmt(w->st,
		"UPDATE alerts SET state = ?2, fired = fired + ?3, fired_ms = CASE WHEN ?3 = 1 THEN ?4 "
		"ELSE fired_ms END, updated_ms = ?4 WHERE id = ?1");
	xd_bind_int64(st, 1, id);
	xd_bind_text(st, 2, state_names[state]);
	xd_bind_int(st, 3, fired ? 1 : 0);
	xd_bind_int64(st, 4, w->now);
	xd_step_done(w->st, st);
}

static bool expired(const struct xd_writer *w, const struct arow *a)
{
	return a->expires >= 0 && a->expires <= w->now;
}

/* The firing's event: what fired, where it stands now. The caller adds
 * what it saw and sends it. */
static cJSON *firing(struct xd_writer *w, const struct arow *a, int state_after)
{
	cJSON *o = cJSON_CreateObject();
	xd_jint(o, "alert_id", a->id);
	cJSON_AddStringToObject(o, "when", xd_when_names[a->when]);
	if (is_book(a->when)) {   /* the others say their GPU with what they fire for */
		cJSON_AddStringToObject(o, "gpu", w->t->gpu_ids[a->gpu]);
		xd_jint(o, "price_cents", a->price);
		xd_jint_or_null(o, "rearm_cents", a->rearm, a->rearm > 0);
	} else if (is_job(a->when)) {
		xd_jint(o, "max_total_minor", a->price);
		xd_jint_or_null(o, "rearm_minor", a->rearm, a->rearm > 0);
	}
	xd_jstr(o, "label", a->label[0] ? a->label : NULL);
	cJSON_AddStringToObject(o, "state", state_names[state_after]);
	xd_jint(o, "fired_count", a->fired + 1);
	return o;
}

static struct xd_trigger book_trigger(const struct arow *a)
{
	return (struct xd_trigger){ .when = a->when, .price = a->price, .region = -1 };
}

void xd_alerts_hit(struct xd_writer *w, int g, int64_t id, int64_t value)
{
	struct arow a;
	if (!load_alert(w, id, &a) || (a.state != XD_ALERT_ARMED && a.state != XD_ALERT_REARMING))
		return;
	if (expired(w, &a)) {
		set_state(w, id, XD_ALERT_EXPIRED, false);
		return;
	}
	struct xd_trigger t = book_trigger(&a);
	if (a.state == XD_ALERT_REARMING) {   /* the price moved back: armed again, silently */
		set_state(w, id, XD_ALERT_ARMED, false);
		xd_watch_add(w, g, XD_WATCH_ALERTS, &t, id);
		return;
	}
	int after = a.rearm > 0 ? XD_ALERT_REARMING : XD_ALERT_FIRED;
	cJSON *o = firing(w, &a, after);
	xd_jint(o, "value_cents", value);
	xd_events_add(w, a.account, "alert", o);
	set_state(w, id, after, true);
	if (a.rearm > 0) {
		struct xd_trigger r = rearming(&t, a.rearm);
		xd_watch_add(w, g, XD_WATCH_ALERTS, &r, id);
	}
}

/* The condition a live book alert holds in the watch now. */
static struct xd_trigger held_condition(const struct arow *a)
{
	struct xd_trigger t = book_trigger(a);
	return a->state == XD_ALERT_REARMING ? rearming(&t, a->rearm) : t;
}

void xd_alerts_load(struct xd_writer *w, int g)
{
	struct xd_q *st = xd_stmt(w->st,
		"SELECT id, cond, price, rearm, state FROM alerts WHERE gpu = ?1 AND state IN "
		"('armed', 'rearming') ORDER BY id");
	xd_bind_text(st, 1, w->t->gpu_ids[g]);
	while (xd_step(st) == XD_ROW) {
		struct arow a = { .id = xd_col_int64(st, 0), .when = xd_when_lookup(xd_col_text(st, 1)),
		                  .price = xd_col_int64(st, 2), .rearm = xd_col_int64(st, 3),
		                  .state = xd_lookup(state_names, xd_col_text(st, 4)) };
		struct xd_trigger t = held_condition(&a);
		xd_watch_add(w, g, XD_WATCH_ALERTS, &t, a.id);
	}
	xd_reset(st);
}

/* ---- order_filled -------------------------------------------------------------------- */

/* Fire alert a (an order_filled one) for fill f of order `order`. */
static void fire_fill(struct xd_writer *w, struct arow *a, const struct xd_fill_note *f,
                      int64_t order)
{
	const char *status = "open";
	struct xd_q *st = xd_stmt(w->st, "SELECT status FROM orders WHERE id = ?1");
	xd_bind_int64(st, 1, order);
	char buf[24] = "open";
	if (xd_step(st) == XD_ROW)
		snprintf(buf, sizeof buf, "%s", xd_col_text(st, 0));
	xd_reset(st);
	status = buf;
	/* an alert on one order is done once that order is closed */
	bool closed = strcmp(status, "open") != 0 && strcmp(status, "partially_filled") != 0 &&
	              strcmp(status, "waiting") != 0;
	int after = a->order_id && closed ? XD_ALERT_FIRED : XD_ALERT_ARMED;
	cJSON *o = firing(w, a, after);
	cJSON_AddStringToObject(o, "gpu", w->t->gpu_ids[f->gpu]);
	xd_jint(o, "order_id", order);
	cJSON_AddStringToObject(o, "side", order == f->buy_order ? "buy" : "sell");
	xd_jint(o, "trade_id", f->trade);
	xd_jint(o, "rental_id", f->trade);
	xd_jint(o, "fill_price_cents", f->price);
	xd_jint(o, "fill_gpus", f->gpus);
	xd_jint(o, "hours", f->hours);
	cJSON_AddStringToObject(o, "order_status", status);
	xd_events_add(w, a->account, "alert", o);
	set_state(w, a->id, after, true);
	a->fired++;
	a->state = after;
}

#define FILL_ACCOUNTS 8   /* accounts asked about in one statement */

/* The armed order_filled alerts of up to FILL_ACCOUNTS accounts. */
static size_t fill_alerts(struct xd_writer *w, const int64_t *accts, size_t n, struct arow **out)
{
	struct xd_q *st = xd_stmt(w->st,
		"SELECT id, account, order_id, expires_ms, label, fired FROM alerts "
		"WHERE cond = 'order_filled' AND gpu IS NULL AND state = 'armed' "
		"AND account IN (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ORDER BY id");
	for (size_t i = 0; i < FILL_ACCOUNTS; i++)
		xd_bind_int64(st, (int)i + 1, i < n ? accts[i] : 0);
	size_t k = 0;
	*out = NULL;
	while (xd_step(st) == XD_ROW) {
		*out = xreallocarray(*out, k + 1, sizeof **out);
		struct arow *a = &(*out)[k++];
		memset(a, 0, sizeof *a);
		a->id = xd_col_int64(st, 0);
		a->account = xd_col_int64(st, 1);
		a->order_id = xd_col_int64(st, 2);
		a->expires = xd_col_null(st, 3) ? -1 : xd_col_int64(st, 3);
		snprintf(a->label, sizeof a->label, "%s", xd_col_text(st, 4) ? xd_col_text(st, 4) : "");
		a->fired = xd_col_int64(st, 5);
		a->when = XD_WHEN_ORDER_FILLED;
		a->gpu = -1;
		a->state = XD_ALERT_ARMED;
	}
	xd_reset(st);
	return k;
}

static void fills_for(struct xd_writer *w, const int64_t *accts, size_t na,
                      const struct xd_fill_note *f, size_t n)
{
	struct arow *al;
	size_t k = fill_alerts(w, accts, na, &al);
	for (size_t i = 0; i < k; i++) {
		struct arow *a = &al[i];
		if (expired(w, a)) {
			set_state(w, a->id, XD_ALERT_EXPIRED, false);
			continue;
		}
		for (size_t j = 0; j < n && a->state == XD_ALERT_ARMED; j++) {
			int64_t order = f[j].buy_account == a->account ? f[j].buy_order
			              : f[j].sell_account == a->account ? f[j].sell_order : 0;
			if (order && (!a->order_id || a->order_id == order))
				fire_fill(w, a, &f[j], order);
		}
	}
	free(al);
}

void xd_alerts_fills(struct xd_writer *w, const struct xd_fill_note *f, size_t n)
{
	int64_t accts[FILL_ACCOUNTS];
	size_t na = 0;
	for (size_t i = 0; i < n; i++) {
		for (int side = 0; side < 2; side++) {
			int64_t id = side ? f[i].sell_account : f[i].buy_account;
			struct xd_acct *ac = xd_ops_acct(w, id);
			bool seen = false;
			for (size_t k = 0; k < na; k++)
				seen = seen || accts[k] == id;
			if (seen || !ac || ac->system)
				continue;
			accts[na++] = id;
			if (na == FILL_ACCOUNTS) {
				fills_for(w, accts, na, f, n);
				na = 0;
			}
		}
	}
	if (na)
		fills_for(w, accts, na, f, n);
}

/* ---- rental_ending ---------------------------------------------------------------------- */

/* When a rental is "ending within N minutes": N minutes before its end, or
 * at its start if it is shorter than that. */
#define DUE_SQL "(CASE WHEN r.started_ms + r.hours * 3600000 - a.minutes * 60000 > r.started_ms " \
	"THEN r.started_ms + r.hours * 3600000 - a.minutes * 60000 ELSE r.started_ms END)"

/* A rental_ending alert and the rental it fires for, as read. */
struct rdue {
	struct arow a;
	int64_t rental, ends;
	int gpu;
};

#define RDUE_COLS "a.id, a.account, a.minutes, a.rental_id, a.label, a.fired, r.id, r.gpu, " \
	"r.started_ms, r.hours"

static void rdue_read(struct xd_writer *w, struct xd_q *st, struct rdue *d)
{
	memset(d, 0, sizeof *d);
	d->a = (struct arow){
		.id = xd_col_int64(st, 0), .account = xd_col_int64(st, 1), .minutes = xd_col_int(st, 2),
		.rental_id = xd_col_int64(st, 3), .fired = xd_col_int64(st, 5),
		.when = XD_WHEN_RENTAL_ENDING, .gpu = -1, .state = XD_ALERT_ARMED,
	};
	snprintf(d->a.label, sizeof d->a.label, "%s", xd_col_text(st, 4) ? xd_col_text(st, 4) : "");
	d->rental = xd_col_int64(st, 6);
	d->gpu = xd_tables_gpu(w->t, xd_col_text(st, 7));
	d->ends = xd_col_int64(st, 8) + xd_col_int64(st, 9) * XD_HOUR_MS;
}

static void fire_rental(struct xd_writer *w, const struct rdue *d)
{
	int after = d->a.rental_id ? XD_ALERT_FIRED : XD_ALERT_ARMED;
	cJSON *o = firing(w, &d->a, after);
	if (d->gpu >= 0)
		cJSON_AddStringToObject(o, "gpu", w->t->gpu_ids[d->gpu]);
	xd_jint(o, "minutes", d->a.minutes);
	xd_jint(o, "rental_id", d->rental);
	xd_jtime(o, "ends_at", d->ends);
	xd_events_add(w, d->a.account, "alert", o);
	set_state(w, d->a.id, after, true);
}

/* Fire each (alert, rental) pair of the rows st yields, read first (firing
 * writes), each read again by its ids: a once-alert fires for one rental. */
static void fire_pairs(struct xd_writer *w, struct xd_q *st)
{
	struct buf keep = { 0 };
	size_t n = 0;
	while (xd_step(st) == XD_ROW) {
		int64_t pair[2] = { xd_col_int64(st, 0), xd_col_int64(st, 6) };
		buf_append(&keep, pair, sizeof pair);
		n++;
	}
	xd_reset(st);
	for (size_t i = 0; i < n; i++) {
		int64_t pair[2];
		memcpy(pair, keep.data + i * sizeof pair, sizeof pair);
		struct xd_q *one = xd_stmt(w->st, "SELECT " RDUE_COLS " FROM alerts a, rentals r "
		                                  "WHERE a.id = ?1 AND r.id = ?2 AND a.state = 'armed'");
		xd_bind_int64(one, 1, pair[0]);
		xd_bind_int64(one, 2, pair[1]);
		struct rdue d;
		bool found = xd_step(one) == XD_ROW;
		if (found)
			rdue_read(w, one, &d);
		xd_reset(one);
		if (found)
			fire_rental(w, &d);
	}
	buf_free(&keep);
}

/* Fire the rental_ending alerts whose rentals fell due in (from, to] — the
 * alerts made before that moment (an alert made later fired for it when it
 * was made). */
static void rentals_due(struct xd_writer *w, int64_t from, int64_t to)
{
	struct xd_q *st = xd_stmt(w->st,
		"SELECT " RDUE_COLS " FROM alerts a JOIN rentals r ON r.id = a.rental_id "
		"WHERE a.cond = 'rental_ending' AND a.gpu IS NULL AND a.state = 'armed' "
		"AND (a.expires_ms IS NULL OR a.expires_ms > ?2) AND r.status = 'active' "
		"AND " DUE_SQL " > ?1 AND " DUE_SQL " <= ?2 AND " DUE_SQL " > a.created_ms "
		"UNION ALL "
		"SELECT " RDUE_COLS " FROM alerts a JOIN rentals r ON r.buyer = a.account "
		"WHERE a.cond = 'rental_ending' AND a.gpu IS NULL AND a.state = 'armed' "
		"AND a.rental_id IS NULL AND (a.expires_ms IS NULL OR a.expires_ms > ?2) "
		"AND r.status = 'active' AND " DUE_SQL " > ?1 AND " DUE_SQL " <= ?2 "
		"AND " DUE_SQL " > a.created_ms ORDER BY 1, 7");
	xd_bind_int64(st, 1, from);
	xd_bind_int64(st, 2, to);
	fire_pairs(w, st);
}

void xd_alerts_tick(struct xd_writer *w)
{
	xd_ops_begin(w);
	int64_t from = xd_meta_get(w->st, "alerts_clock_ms", -1);
	if (from < 0 || from > w->now) {
		xd_meta_set(w->st, "alerts_clock_ms", w->now);
		return;
	}
	if (w->now - from < 1000)
		return;   /* looked a moment ago: minutes are these alerts' grain */
	rentals_due(w, from, w->now);
	xd_meta_set(w->st, "alerts_clock_ms", w->now);
}

/* The rentals alert id is due for now (within its minutes of their end):
 * fired at once when the alert is made. */
static void rentals_now(struct xd_writer *w, int64_t id)
{
	struct xd_q *st = xd_stmt(w->st,
		"SELECT " RDUE_COLS " FROM alerts a JOIN rentals r ON (r.id = a.rental_id OR "
		"(a.rental_id IS NULL AND r.buyer = a.account)) WHERE a.id = ?1 AND r.status = 'active' "
		"AND " DUE_SQL " <= ?2 ORDER BY 1, 7");
	xd_bind_int64(st, 1, id);
	xd_bind_int64(st, 2, w->now);
	fire_pairs(w, st);
}

/* ---- the writer's jobs ------------------------------------------------------------------- */

/* Checks of a new alert that need the store: its rental or order is the
 * account's; false with the error in the reply. */
static bool refs_ok(struct xd_writer *w, struct xd_job *j)
{
	const struct xd_alert_in *in = &j->alert;
	if (in->rental_id) {
		struct xd_q *st = xd_stmt(w->st, "SELECT status FROM rentals WHERE id = ?1 AND "
		                                 "(buyer = ?2 OR seller = ?2)");
		xd_bind_int64(st, 1, in->rental_id);
		xd_bind_int64(st, 2, j->account);
		bool found = xd_step(st) == XD_ROW;
		char status[24] = "";
		if (found)
			snprintf(status, sizeof status, "%s", xd_col_text(st, 0));
		xd_reset(st);
		if (!found) {
			xd_reply_error(&j->reply, 404, "NOT_FOUND", "no rental %" PRId64, in->rental_id);
			return false;
		}
		if (strcmp(status, "active") != 0) {
			cJSON *e = xd_reply_error(&j->reply, 409, "RENTAL_NOT_ACTIVE", "rental %" PRId64
			                          " is %s", in->rental_id, status);
			cJSON_AddStringToObject(e, "status", status);
			return false;
		}
	}
	if (in->order_id) {
		struct xd_q *st = xd_stmt(w->st, "SELECT 1 FROM orders WHERE id = ?1 AND account = ?2");
		xd_bind_int64(st, 1, in->order_id);
		xd_bind_int64(st, 2, j->account);
		bool found = xd_step(st) == XD_ROW;
		xd_reset(st);
		if (!found) {
			xd_reply_error(&j->reply, 404, "NOT_FOUND", "no order %" PRId64, in->order_id);
			return false;
		}
	}
	return true;
}

/* The new alert's row (job: a job alert's job, its text and regions bound). */
static int64_t insert_alert(struct xd_writer *w, int64_t account, const struct xd_alert_in *in,
                            const struct xd_order_in *job)
{
	struct xd_q *st = xd_stmt(w->st,
		"INSERT INTO alerts(account, cond, gpu, price, rearm, minutes, rental_id, order_id, label, "
		"state, expires_ms, created_ms, updated_ms, job, region) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, "
		"?8, ?9, 'armed', ?10, ?11, ?11, ?12, ?13) RETURNING id");
	char *text = NULL, *regions = NULL;
	xd_bind_int64(st, 1, account);
	xd_bind_text(st, 2, xd_when_names[in->when]);
	if (is_book(in->when)) {
		xd_bind_text(st, 3, w->t->gpu_ids[in->gpu]);
		xd_bind_int64(st, 4, in->price);
		if (in->rearm)
			xd_bind_int64(st, 5, in->rearm);
	}
	if (is_job(in->when)) {
		xd_bind_int64(st, 4, in->price);
		if (in->rearm)
			xd_bind_int64(st, 5, in->rearm);
		xd_bind_text(st, 12, (text = xd_job_text(job)));
		if ((regions = xd_regions_text(w->t, job->regions)))
			xd_bind_text(st, 13, regions);
	}
	if (in->when == XD_WHEN_RENTAL_ENDING)
		xd_bind_int64(st, 6, in->minutes);
	if (in->rental_id)
		xd_bind_int64(st, 7, in->rental_id);
	if (in->order_id)
		xd_bind_int64(st, 8, in->order_id);
	if (in->label[0])
		xd_bind_text(st, 9, in->label);
	if (in->expires_ms >= 0)
		xd_bind_int64(st, 10, in->expires_ms);
	xd_bind_int64(st, 11, w->now);
	int64_t id = xd_step_id(st);
	free(text);
	free(regions);
	return id;
}

/* Can a new job alert's job run on some GPU of the catalogue, whatever the
 * books hold? Else it could never fire: 422 JOB_NOT_RUNNABLE with the
 * alternatives, as a job order's refusal has them. If it can, the books of
 * those GPUs are held for its first look (before the account's alerts are
 * taken: books, then accounts, as every transaction takes them). */
static bool job_runs_somewhere(struct xd_writer *w, struct xd_job *j)
{
	struct xd_job_alt *alts;
	size_t n = xd_jalerts_fits(w->t, &j->order, &alts);
	if (n > 0) {
		int *gs = xcalloc(n, sizeof *gs);
		size_t k = 0;
		for (size_t g = 0; g < w->t->n_gpus; g++)
			if (alts[g].fits)
				gs[k++] = (int)g;
		w->nodes->hold_books(w, gs, k);
		free(gs);
	} else {
		cJSON *e = xd_reply_error(&j->reply, 422, "JOB_NOT_RUNNABLE", "no GPU of the catalogue "
		                          "can run this job, whatever the books hold (\"alternatives\" "
		                          "says why, GPU by GPU): the alert could never fire");
		if (e)
			cJSON_AddItemToObject(e, "alternatives", xd_jobs_alts_json(w->t, alts));
	}
	xd_jalerts_fits_free(w->t, &alts);
	return n > 0;
}

/* A new order_filled alert on an order that is filled already fires now. */
static void order_now(struct xd_writer *w, int64_t id, int64_t order)
{
	struct xd_q *st = xd_stmt(w->st, "SELECT status FROM orders WHERE id = ?1");
	xd_bind_int64(st, 1, order);
	bool filled = xd_step(st) == XD_ROW && strcmp(xd_col_text(st, 0), "filled") == 0;
	xd_reset(st);
	struct arow a;
	if (!filled || !load_alert(w, id, &a))
		return;
	cJSON *o = firing(w, &a, XD_ALERT_FIRED);
	xd_jint(o, "order_id", order);
	cJSON_AddStringToObject(o, "order_status", "filled");
	xd_events_add(w, a.account, "alert", o);
	set_state(w, id, XD_ALERT_FIRED, true);
}

void xd_alerts_job_add(struct xd_writer *w, struct xd_job *j)
{
	const struct xd_alert_in *in = &j->alert;
	if (!xd_ops_acct(w, j->account)) {
		xd_reply_error(&j->reply, 401, "UNAUTHORIZED", "unknown account");
		return;
	}
	if (in->expires_ms >= 0 && (in->expires_ms <= w->now || in->expires_ms > w->now + EXPIRES_MAX_MS)) {
		xd_reply_field(&j->reply, "BAD_VALUE", "expires_at", "\"expires_at\" must be later than "
		               "the exchange's clock and within a year of it");
		return;
	}
	if (is_job(in->when) && !job_runs_somewhere(w, j))
		return;
	xd_ops_begin(w);
	xd_events_turn(w, j->account);
	if (live_count(w->st, j->account, w->now, false) >= XD_ALERTS_MAX) {
		cJSON *e = xd_reply_error(&j->reply, 409, "TOO_MANY_ALERTS", "the account has %d live "
		                          "alerts, the most it may have; delete one first", XD_ALERTS_MAX);
		xd_jint(e, "max", XD_ALERTS_MAX);
		return;
	}
	if (is_job(in->when) && live_count(w->st, j->account, w->now, true) >= XD_JOB_ALERTS_MAX) {
		cJSON *e = xd_reply_error(&j->reply, 409, "TOO_MANY_JOB_ALERTS", "the account has %d "
		                          "live job alerts, the most it may have (each prices its job on "
		                          "every GPU at each change of their books); delete one first",
		                          XD_JOB_ALERTS_MAX);
		xd_jint(e, "max", XD_JOB_ALERTS_MAX);
		return;
	}
	if (!refs_ok(w, j))
		return;
	if (is_book(in->when))
		w->nodes->lock_book(w, in->gpu);
	int64_t id = insert_alert(w, j->account, in, &j->order);
	if (is_book(in->when)) {
		struct xd_trigger t = { .when = in->when, .price = in->price, .region = -1 };
		int64_t v;
		if (xd_watch_holds(w, in->gpu, &t, &v))
			xd_alerts_hit(w, in->gpu, id, v);   /* it holds already: it fires now */
		else
			xd_watch_add(w, in->gpu, XD_WATCH_ALERTS, &t, id);
	} else if (in->when == XD_WHEN_RENTAL_ENDING) {
		rentals_now(w, id);
	} else if (in->order_id) {
		order_now(w, id, in->order_id);
	} else if (is_job(in->when)) {
		xd_jalerts_made(w, id);   /* it holds already: it fires now */
	}
	xd_reply_json(&j->reply, 201, read_alert(w->st, j->account, id, w->now));
}

void xd_alerts_job_del(struct xd_writer *w, struct xd_job *j)
{
	struct arow a;
	if (!load_alert(w, j->target, &a) || a.account != j->account) {
		xd_reply_error(&j->reply, 404, "NOT_FOUND", "no alert %" PRId64, j->target);
		return;
	}
	xd_ops_begin(w);
	if (a.gpu >= 0 && is_book(a.when)) {
		if (w->nodes->lock_book(w, a.gpu) && !load_alert(w, j->target, &a)) {
			xd_reply_error(&j->reply, 404, "NOT_FOUND", "no alert %" PRId64, j->target);
			return;
		}
		if (a.state == XD_ALERT_ARMED || a.state == XD_ALERT_REARMING) {
			struct xd_trigger t = held_condition(&a);
			xd_watch_remove(w, a.gpu, XD_WATCH_ALERTS, &t, a.id);
		}
	}
	if (is_job(a.when))
		xd_jalerts_changed(w, a.id, -1);   /* every node lets it go */
	cJSON *o = read_alert(w->st, j->account, j->target, w->now);
	struct xd_q *st = xd_stmt(w->st, "DELETE FROM alerts WHERE id = ?1");
	xd_bind_int64(st, 1, j->target);
	xd_step_done(w->st, st);
	cJSON_AddBoolToObject(o, "deleted", true);
	xd_reply_json(&j->reply, 200, o);
}

/* ---- job_total_lte ------------------------------------------------------------------ */

static void job_fired(struct xd_writer *w, const struct arow *al, int after,
                      const struct xd_order_in *job, int gpu, const struct xd_job_alt *a)
{
	cJSON *o = firing(w, al, after);
	cJSON_AddItemToObject(o, "job", xd_job_json(job));
	cJSON_AddStringToObject(o, "gpu", w->t->gpu_ids[gpu]);
	xd_jint(o, "total_minor", a->total);
	struct xd_acct *ac = xd_ops_acct(w, al->account);
	xd_jstr(o, "currency", ac ? xd_cur_code(w, ac->cur) : NULL);
	xd_jint(o, "hours", a->hours);
	xd_jint(o, "gpus", a->gpus);
	xd_jint(o, "node_gpus", a->node_gpus);
	xd_jint(o, "nodes", a->nodes);
	xd_jstr(o, "interconnect", a->link != ENG_LINK_ANY ? xd_link_names[a->link] : NULL);
	xd_events_add(w, al->account, "alert", o);
}

int xd_alerts_job_hit(struct xd_writer *w, int64_t id, int64_t account,
                      const struct xd_order_in *job, int gpu, const struct xd_job_alt *a)
{
	struct arow al;
	/* one node at a time changes an account's alerts (its event_counters
	 * row); the row read after that is as the last of them left it */
	xd_events_turn(w, account);
	if (!load_alert(w, id, &al) || !is_job(al.when) ||
	    (al.state != XD_ALERT_ARMED && al.state != XD_ALERT_REARMING))
		return -1;
	if (expired(w, &al)) {
		set_state(w, id, XD_ALERT_EXPIRED, false);
		xd_jalerts_changed(w, id, -1);
		return -1;
	}
	if (al.state == XD_ALERT_REARMING) {
		if (gpu >= 0 && a->total < al.price + al.rearm)
			return XD_ALERT_REARMING;
		set_state(w, id, XD_ALERT_ARMED, false);   /* moved back: armed again, silently */
		xd_jalerts_changed(w, id, XD_ALERT_ARMED);
		return XD_ALERT_ARMED;
	}
	if (gpu < 0 || a->total > al.price)
		return XD_ALERT_ARMED;
	int after = al.rearm > 0 ? XD_ALERT_REARMING : XD_ALERT_FIRED;
	job_fired(w, &al, after, job, gpu, a);
	set_state(w, id, after, true);
	int live = after == XD_ALERT_FIRED ? -1 : after;
	xd_jalerts_changed(w, id, live);
	return live;
}
