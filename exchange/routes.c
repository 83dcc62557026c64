/*
 * exchange/routes.c — the router table and the handlers of docs/API.md.
 *
 * A handler is a function of the request (struct xd_ctx) that either sets
 * c->reply (reads: from the snapshot or the thread's read connection) or
 * fills c->job and calls xd_ctx_submit (writes: the writer answers after its
 * commit). Validation happens here, completely, before anything is queued:
 * a request that gets a 4xx from this file changed nothing.
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <microhttpd.h>

#include "util/util.h"

/* ---- query parameters ---------------------------------------------------------------- */

const char *xd_query(struct xd_ctx *c, const char *name)
{
	return MHD_lookup_connection_value(c->conn, MHD_GET_ARGUMENT_KIND, name);
}

struct qcheck {
	const char *const *allowed;
	const char *bad;
	const char *dup;
	const char *seen[16];
	size_t n;
};

static enum MHD_Result qcheck_one(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	struct qcheck *q = cls;
	(void)kind;
	(void)value;
	if (xd_lookup(q->allowed, key) < 0) {
		q->bad = key;
		return MHD_NO;
	}
	for (size_t i = 0; i < q->n; i++) {
		if (strcmp(q->seen[i], key) == 0) {
			q->dup = key;
			return MHD_NO;
		}
	}
	if (q->n < 16)
		q->seen[q->n++] = key;
	return MHD_YES;
}

int xd_query_check(struct xd_ctx *c, const char *const *allowed)
{
	struct qcheck q = { .allowed = allowed };
	MHD_get_connection_values(c->conn, MHD_GET_ARGUMENT_KIND, qcheck_one, &q);
	if (q.bad) {
		char *safe = util_sanitize(q.bad, 64, true);
		cJSON *e = xd_reply_error(&c->reply, 400, "BAD_PARAM", "unknown query parameter \"%s\"", safe);
		cJSON_AddStringToObject(e, "field", safe);
		free(safe);
		return -1;
	}
	if (q.dup) {
		cJSON *e = xd_reply_error(&c->reply, 400, "BAD_PARAM", "query parameter \"%s\" appears twice",
		                          q.dup);
		cJSON_AddStringToObject(e, "field", q.dup);
		return -1;
	}
	return 0;
}

/* A positive decimal integer of at most 15 digits, nothing else. */
static bool parse_id(const char *s, int64_t *out)
{
	if (!s || !*s || strlen(s) > 15)
		return false;
	int64_t v = 0;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		v = v * 10 + (*p - '0');
	}
	if (v <= 0)
		return false;
	*out = v;
	return true;
}

static int query_int(struct xd_ctx *c, const char *name, int64_t min, int64_t max, int64_t dflt,
                     int64_t *out)
{
	const char *s = xd_query(c, name);
	int64_t v;
	if (!s) {
		*out = dflt;
		return 0;
	}
	if (!parse_id(s, &v) || v < min || v > max) {
		cJSON *e = xd_reply_error(&c->reply, 400, "BAD_PARAM",
		                          "query parameter \"%s\" must be an integer in %" PRId64 "..%" PRId64,
		                          name, min, max);
		cJSON_AddStringToObject(e, "field", name);
		return -1;
	}
	*out = v;
	return 0;
}

static int query_page(struct xd_ctx *c, struct xd_page *p)
{
	if (query_int(c, "limit", 1, XD_LIMIT_MAX, 50, &p->limit) != 0)
		return -1;
	const char *cur = xd_query(c, "cursor");
	p->before = INT64_MAX;
	if (cur && !parse_id(cur, &p->before)) {
		cJSON *e = xd_reply_error(&c->reply, 400, "BAD_PARAM", "bad cursor");
		cJSON_AddStringToObject(e, "field", "cursor");
		return -1;
	}
	return 0;
}

static int query_gpu(struct xd_ctx *c, const char **out)
{
	const char *g = xd_query(c, "gpu");
	*out = NULL;
	if (!g)
		return 0;
	if (xd_tables_gpu(xd_market_tables(c->m), g) < 0) {
		char *safe = util_sanitize(g, 40, true);
		cJSON *e = xd_reply_error(&c->reply, 400, "UNKNOWN_GPU", "unknown GPU \"%s\"", safe);
		cJSON_AddStringToObject(e, "field", "gpu");
		free(safe);
		return -1;
	}
	*out = g;
	return 0;
}

static int query_enum(struct xd_ctx *c, const char *name, const char *const *vals, const char **out)
{
	const char *s = xd_query(c, name);
	*out = s;
	if (!s || xd_lookup(vals, s) >= 0)
		return 0;
	cJSON *e = xd_reply_error(&c->reply, 400, "BAD_PARAM", "query parameter \"%s\" has a value "
	                          "that is not accepted", name);
	cJSON_AddStringToObject(e, "field", name);
	return -1;
}

static bool no_query(struct xd_ctx *c)
{
	static const char *const none[] = { NULL };
	return xd_query_check(c, none) == 0;
}

/* ---- a load balancer's checks ------------------------------------------------------- */

/* GET /v1/health: the process answers (liveness); nothing else is looked at. */
static void h_health(struct xd_ctx *c)
{
	if (!no_query(c))
		return;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "status", "ok");
	xd_reply_json(&c->reply, 200, o);
}

/* GET /v1/ready: this node can commit now (its writer's last commit, or
 * write probe, finished within the commit deadline); not the market state:
 * signups, deposits, cancels and reads work before the market opens. */
static void h_ready(struct xd_ctx *c)
{
	if (!no_query(c))
		return;
	const char *why = NULL;
	if (!xd_market_ready(c->m, &why)) {
		xd_reply_error(&c->reply, 503, "NOT_READY", "this node cannot commit now: %s", why);
		c->reply.retry_after = 1;
		return;
	}
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "status", "ready");
	xd_reply_json(&c->reply, 200, o);
}

/* ---- market data ----------------------------------------------------------------------- */

static void h_market(struct xd_ctx *c)
{
	if (!no_query(c))
		return;
	cJSON *o = xd_market_info(c->m);
	cJSON *l = cJSON_AddObjectToObject(o, "limits");
	xd_jint(l, "body_bytes", XD_BODY_MAX);
	xd_jint(l, "gpus_max", XD_GPUS_MAX);
	xd_jint(l, "hours_max", XD_HOURS_MAX);
	xd_jint(l, "price_cents_max", XD_PRICE_MAX);
	xd_jint(l, "rate_per_key", c->cfg->rate_per_key);
	xd_jint(l, "rate_per_address", c->cfg->rate_per_addr);
	cJSON *tu = cJSON_AddObjectToObject(o, "topup");
	xd_jstr(tu, "url", c->cfg->topup_url);
	xd_jstr(tu, "text", c->cfg->topup_text);
	xd_reply_json(&c->reply, 200, o);
}

static void h_gpus(struct xd_ctx *c)
{
	if (!no_query(c))
		return;
	xd_reply_json(&c->reply, 200, NULL);
	c->reply.raw = xstrdup(xd_market_tables(c->m)->gpus_json);
}

static void h_workloads(struct xd_ctx *c)
{
	if (!no_query(c))
		return;
	xd_reply_json(&c->reply, 200, NULL);
	c->reply.raw = xstrdup(xd_market_tables(c->m)->workloads_json);
}

static void h_quotes(struct xd_ctx *c)
{
	if (!no_query(c))
		return;
	const char *inm = MHD_lookup_connection_value(c->conn, MHD_HEADER_KIND,
	                                              MHD_HTTP_HEADER_IF_NONE_MATCH);
	char *etag = NULL, *body = NULL;
	bool same = xd_market_quotes_text(c->m, inm, &body, &etag) == 1;
	c->reply.status = same ? 304 : 200;
	c->reply.raw = body;
	c->reply.etag = etag;
}

static int path_gpu(struct xd_ctx *c)
{
	int g = xd_tables_gpu(xd_market_tables(c->m), c->params[0]);
	if (g < 0) {
		char *safe = util_sanitize(c->params[0], 40, true);
		xd_reply_error(&c->reply, 404, "UNKNOWN_GPU", "unknown GPU \"%s\"", safe);
		free(safe);
	}
	return g;
}

static void h_book(struct xd_ctx *c)
{
	static const char *const allowed[] = { "depth", NULL };
	int64_t depth;
	if (xd_query_check(c, allowed) || query_int(c, "depth", 1, XD_DEPTH_MAX, 20, &depth))
		return;
	int g = path_gpu(c);
	if (g >= 0) {
		xd_reply_json(&c->reply, 200, xd_market_book(c->m, g, (int)depth));
	}
}

static void h_trades(struct xd_ctx *c)
{
	static const char *const allowed[] = { "limit", "cursor", NULL };
	struct xd_page p;
	if (xd_query_check(c, allowed) || query_page(c, &p))
		return;
	int g = path_gpu(c);
	if (g >= 0)
		xd_reply_json(&c->reply, 200, xd_read_trades(xd_store_reader(),
		              xd_market_tables(c->m)->gpu_ids[g], &p));
}

static void h_stream(struct xd_ctx *c)
{
	xd_stream_handle(c, xd_market_stream(c->m));
}

static void h_candles(struct xd_ctx *c)
{
	xd_candles_handle(c);
}

/* ---- accounts -------------------------------------------------------------------------- */

static bool email_ok(const char *s)
{
	const char *at = strchr(s, '@');
	if (!at || at == s || !at[1] || strchr(at + 1, '@'))
		return false;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p <= ' ' || *p == 0x7f)
			return false;
	return true;
}

int xd_parse_signup(const struct xd_tables *t, const char *body, size_t len, struct xd_job *j,
                    struct xd_reply *r)
{
	static const char *const fields[] = { "email", "country", "currency", "role", NULL };
	cJSON *b = NULL;
	const char *email, *country;
	int cur, role, rc = -1;
	if (xd_body_parse(body, len, false, &b, r) ||
	    xd_body_fields(b, fields, r) ||
	    xd_body_str(b, "email", true, XD_EMAIL_MAX, &email, r) < 0 ||
	    xd_body_str(b, "country", true, 2, &country, r) < 0 ||
	    xd_body_enum(b, "currency", true, xd_cur_names, &cur, r) < 0 ||
	    xd_body_enum(b, "role", true, xd_role_names, &role, r) < 0)
		goto out;
	if (!email_ok(email)) {
		xd_reply_field(r, "BAD_VALUE", "email", "\"email\" must look like name@domain, "
		               "without spaces");
		goto out;
	}
	if (xd_tables_vat(t, country) < 0) {
		char *safe = util_sanitize(country, 8, true);
		xd_reply_field(r, "UNKNOWN_COUNTRY", "country", "country \"%s\" is not in the "
		               "VAT table (GET /v1/market lists the countries)", safe);
		free(safe);
		goto out;
	}
	snprintf(j->email, sizeof j->email, "%s", email);
	memcpy(j->country, country, 3);
	j->cur = cur;
	j->role = role;
	rc = 0;
out:
	cJSON_Delete(b);
	return rc;
}

static void h_signup(struct xd_ctx *c)
{
	if (!no_query(c) || xd_parse_signup(xd_market_tables(c->m), c->body, c->body_len, c->job,
	                                    &c->reply))
		return;
	struct xd_job *j = c->job;
	if (xd_keys_generate(c->new_key, j->key_hash, &c->reply) != 0)
		return;
	j->kind = XD_JOB_ACCOUNT;
	xd_ctx_submit(c);
}

static void h_account(struct xd_ctx *c)
{
	if (!no_query(c))
		return;
	cJSON *o = xd_read_account(xd_store_reader(), xd_market_tables(c->m), c->account);
	if (o)
		xd_reply_json(&c->reply, 200, o);
	else
		xd_reply_error(&c->reply, 401, "UNAUTHORIZED", "unknown account");
}

int xd_parse_deposit(const char *body, size_t len, bool admin, int64_t *amount, int64_t *target,
                     struct xd_reply *r)
{
	static const char *const fields[] = { "amount_minor", "account_id", NULL };
	cJSON *b = NULL;
	int rc = -1;
	*target = 0;
	if (xd_body_parse(body, len, false, &b, r) == 0 &&
	    xd_body_fields(b, fields, r) == 0 &&
	    xd_body_int(b, "amount_minor", true, 1, XD_DEPOSIT_MAX, amount, r) >= 0 &&
	    xd_body_int(b, "account_id", admin, 1, INT64_C(9007199254740991), target, r) >= 0)
		rc = 0;
	cJSON_Delete(b);
	return rc;
}

static void h_deposit(struct xd_ctx *c)
{
	int64_t amount, target;
	if (!xd_keys_may_trade(c) || !no_query(c) || xd_parse_deposit(c->body, c->body_len, c->admin, &amount, &target,
	                                     &c->reply))
		return;
	bool demo = xd_market_demo(c->m);
	if (!c->admin) {
		if (!demo) {
			xd_reply_error(&c->reply, 403, "FORBIDDEN", "this exchange takes no simulated "
			               "payments: deposits are made by the operator (admin key)");
			return;
		}
		if (target && target != c->account) {
			xd_reply_error(&c->reply, 403, "FORBIDDEN", "an account can only deposit to itself");
			return;
		}
	}
	struct xd_job *j = c->job;
	j->kind = XD_JOB_DEPOSIT;
	j->account = c->account;
	j->admin = c->admin;
	j->target = c->admin ? target : c->account;
	j->amount = amount;
	xd_ctx_submit(c);
}

static void h_ledger(struct xd_ctx *c)
{
	static const char *const allowed[] = { "limit", "cursor", NULL };
	struct xd_page p;
	if (xd_query_check(c, allowed) || query_page(c, &p))
		return;
	xd_reply_json(&c->reply, 200, xd_read_ledger(xd_store_reader(), c->account, &p));
}

/* ---- orders ----------------------------------------------------------------------------- */

static bool coid_ok(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '-' || *s == '.' || *s == ':'))
			return false;
	return true;
}

int xd_parse_order(const struct xd_tables *t, const char *body, size_t len, bool need_coid,
                   struct xd_order_in *o, struct xd_reply *r)
{
	static const char *const fields[] = {
		"client_order_id", "gpu", "side", "type", "gpus", "hours", "price_cents",
		"max_price_cents", "min_price_cents", "time_in_force", NULL,
	};
	cJSON *b = NULL;
	const char *coid = NULL, *gpu;
	int side, type, tif = -1;
	int64_t gpus, hours, price = 0, maxp = 0, minp = 0;
	int has_coid, has_price, has_max, has_min, has_tif;
	int rc = -1;
	memset(o, 0, sizeof *o);
	if (xd_body_parse(body, len, false, &b, r) ||
	    xd_body_fields(b, fields, r) ||
	    (has_coid = xd_body_str(b, "client_order_id", need_coid, XD_COID_MAX, &coid, r)) < 0)
		goto out;
	if (has_coid && !coid_ok(coid)) {
		xd_reply_field(r, "BAD_VALUE", "client_order_id", "\"client_order_id\" may only "
		               "hold letters, digits and _ - . :");
		goto out;
	}
	if (xd_body_str(b, "gpu", true, 64, &gpu, r) < 0)
		goto out;
	o->gpu = xd_tables_gpu(t, gpu);
	if (o->gpu < 0) {
		char *safe = util_sanitize(gpu, 40, true);
		xd_reply_field(r, "UNKNOWN_GPU", "gpu", "unknown GPU \"%s\" (GET /v1/gpus lists "
		               "them)", safe);
		free(safe);
		goto out;
	}
	if (xd_body_enum(b, "side", true, xd_side_names, &side, r) < 0 ||
	    xd_body_enum(b, "type", true, xd_type_names, &type, r) < 0 ||
	    xd_body_int(b, "gpus", true, 1, XD_GPUS_MAX, &gpus, r) < 0 ||
	    xd_body_int(b, "hours", true, 1, XD_HOURS_MAX, &hours, r) < 0 ||
	    (has_price = xd_body_int(b, "price_cents", false, 1, XD_PRICE_MAX, &price, r)) < 0 ||
	    (has_max = xd_body_int(b, "max_price_cents", false, 1, XD_PRICE_MAX, &maxp, r)) < 0 ||
	    (has_min = xd_body_int(b, "min_price_cents", false, 1, XD_PRICE_MAX, &minp, r)) < 0 ||
	    (has_tif = xd_body_enum(b, "time_in_force", false, xd_tif_names, &tif, r)) < 0)
		goto out;
	if (type == XD_LIMIT) {
		if (has_max || has_min) {
			const char *f = has_max ? "max_price_cents" : "min_price_cents";
			xd_reply_field(r, "BAD_COMBINATION", f, "\"%s\" is for market orders; a limit "
			               "order takes \"price_cents\"", f);
			goto out;
		}
		if (!has_price) {
			xd_reply_field(r, "MISSING_FIELD", "price_cents", "a limit order needs "
			               "\"price_cents\"");
			goto out;
		}
		o->price = price;
		o->tif = has_tif ? (enum eng_tif)tif : ENG_GTC;
	} else {
		const char *want = side == ENG_BUY ? "max_price_cents" : "min_price_cents";
		if (has_price || (side == ENG_BUY && has_min) || (side == ENG_SELL && has_max)) {
			const char *f = has_price ? "price_cents" : side == ENG_BUY ? "min_price_cents"
			                                                             : "max_price_cents";
			xd_reply_field(r, "BAD_COMBINATION", f, "a market %s takes \"%s\", not \"%s\"",
			               xd_side_names[side], want, f);
			goto out;
		}
		if (!(side == ENG_BUY ? has_max : has_min)) {
			xd_reply_field(r, "MISSING_FIELD", want, "a market %s needs \"%s\" (its price "
			               "%s)", xd_side_names[side], want, side == ENG_BUY ? "cap" : "floor");
			goto out;
		}
		o->price = side == ENG_BUY ? maxp : minp;
		if (has_tif && tif == ENG_GTC) {
			xd_reply_field(r, "BAD_COMBINATION", "time_in_force", "a market order is "
			               "\"ioc\" or \"fok\", never \"gtc\"");
			goto out;
		}
		o->tif = has_tif ? (enum eng_tif)tif : ENG_IOC;
	}
	if (has_coid)
		snprintf(o->coid, sizeof o->coid, "%s", coid);
	o->side = (enum eng_side)side;
	o->type = (enum xd_otype)type;
	o->gpus = (int32_t)gpus;
	o->hours = (int32_t)hours;
	rc = 0;
out:
	cJSON_Delete(b);
	return rc;
}

static void h_order(struct xd_ctx *c)
{
	if (!xd_keys_may_trade(c) || !no_query(c) || xd_parse_order(xd_market_tables(c->m), c->body, c->body_len, true,
	                                   &c->job->order, &c->reply) != 0)
		return;
	c->job->kind = XD_JOB_ORDER;
	c->job->account = c->account;
	xd_ctx_submit(c);
}

static void h_preview(struct xd_ctx *c)
{
	if (!no_query(c) || xd_parse_order(xd_market_tables(c->m), c->body, c->body_len, false,
	                                   &c->job->order, &c->reply) != 0)
		return;
	c->job->kind = XD_JOB_PREVIEW;
	c->job->account = c->account;
	xd_ctx_submit(c);
}

static const char *const order_statuses[] = {
	"open", "closed", "all", "partially_filled", "filled", "cancelled", "expired", "rejected", NULL,
};

static void h_orders(struct xd_ctx *c)
{
	static const char *const allowed[] = { "status", "gpu", "side", "client_order_id", "limit",
	                                       "cursor", NULL };
	struct xd_page p;
	const char *status, *gpu, *side;
	if (xd_query_check(c, allowed) || query_page(c, &p) ||
	    query_enum(c, "status", order_statuses, &status) || query_gpu(c, &gpu) ||
	    query_enum(c, "side", xd_side_names, &side))
		return;
	xd_reply_json(&c->reply, 200, xd_read_orders(xd_store_reader(), c->account, status, gpu, side,
	                                             xd_query(c, "client_order_id"), &p));
}

static bool path_id(struct xd_ctx *c, const char *what, int64_t *id)
{
	if (parse_id(c->params[0], id))
		return true;
	xd_reply_error(&c->reply, 404, "NOT_FOUND", "no such %s", what);
	return false;
}

static void h_order_get(struct xd_ctx *c)
{
	int64_t id;
	if (!no_query(c) || !path_id(c, "order", &id))
		return;
	cJSON *o = xd_read_order(xd_store_reader(), c->account, id, true);
	if (o)
		xd_reply_json(&c->reply, 200, o);
	else
		xd_reply_error(&c->reply, 404, "NOT_FOUND", "no order %" PRId64, id);
}

static void h_order_cancel(struct xd_ctx *c)
{
	int64_t id;
	if (!xd_keys_may_trade(c) || !no_query(c) || !path_id(c, "order", &id))
		return;
	c->job->kind = XD_JOB_CANCEL;
	c->job->account = c->account;
	c->job->target = id;
	xd_ctx_submit(c);
}

/* ---- rentals ---------------------------------------------------------------------------- */

static void h_rentals(struct xd_ctx *c)
{
	static const char *const allowed[] = { "status", "gpu", "limit", "cursor", NULL };
	static const char *const statuses[] = { "active", "ended", "all", NULL };
	struct xd_page p;
	const char *status, *gpu;
	if (xd_query_check(c, allowed) || query_page(c, &p) ||
	    query_enum(c, "status", statuses, &status) || query_gpu(c, &gpu))
		return;
	xd_reply_json(&c->reply, 200, xd_read_rentals(xd_store_reader(), c->account, status, gpu, &p));
}

int xd_parse_stop(const char *body, size_t len, struct xd_reply *r)
{
	static const char *const fields[] = { NULL };
	cJSON *b = NULL;
	int rc = xd_body_parse(body, len, true, &b, r) || xd_body_fields(b, fields, r) ? -1 : 0;
	cJSON_Delete(b);
	return rc;
}

static void h_rental_stop(struct xd_ctx *c)
{
	int64_t id;
	if (!xd_keys_may_trade(c) || !no_query(c) || !path_id(c, "rental", &id) || xd_parse_stop(c->body, c->body_len, &c->reply))
		return;
	c->job->kind = XD_JOB_STOP;
	c->job->account = c->account;
	c->job->target = id;
	xd_ctx_submit(c);
}

/* ---- admin ------------------------------------------------------------------------------ */

int xd_parse_clock(const char *body, size_t len, int64_t *advance_ms, struct xd_reply *r)
{
	static const char *const fields[] = { "advance_seconds", NULL };
	cJSON *b = NULL;
	int64_t secs;
	int rc = -1;
	if (xd_body_parse(body, len, false, &b, r) == 0 && xd_body_fields(b, fields, r) == 0 &&
	    xd_body_int(b, "advance_seconds", true, 1, XD_ADVANCE_MAX, &secs, r) >= 0) {
		*advance_ms = secs * 1000;
		rc = 0;
	}
	cJSON_Delete(b);
	return rc;
}

static void h_clock(struct xd_ctx *c)
{
	if (!no_query(c) || xd_parse_clock(c->body, c->body_len, &c->job->advance_ms, &c->reply))
		return;
	c->job->kind = XD_JOB_CLOCK;
	xd_ctx_submit(c);
}

int xd_parse_state(const char *body, size_t len, struct xd_job *j, struct xd_reply *r)
{
	static const char *const fields[] = { "state", "opens_at", NULL };
	cJSON *b = NULL;
	int state, rc = -1;
	if (xd_body_parse(body, len, false, &b, r) ||
	    xd_body_fields(b, fields, r) ||
	    xd_body_enum(b, "state", true, xd_state_names, &state, r) < 0)
		goto out;
	const cJSON *oa = cJSON_GetObjectItemCaseSensitive(b, "opens_at");
	if (oa) {
		j->opens_at_given = true;
		j->opens_at_ms = -1;
		if (cJSON_IsString(oa)) {
			if (exchange_parse_time(oa->valuestring, &j->opens_at_ms) != 0 || j->opens_at_ms < 0) {
				xd_reply_field(r, "BAD_VALUE", "opens_at", "\"opens_at\" must be an ISO "
				               "8601 time such as 2025-09-01T09:00:00Z, or null");
				goto out;
			}
		} else if (!cJSON_IsNull(oa)) {
			xd_reply_field(r, "WRONG_TYPE", "opens_at", "\"opens_at\" must be a string "
			               "or null");
			goto out;
		}
	}
	j->state = state;
	rc = 0;
out:
	cJSON_Delete(b);
	return rc;
}

static void h_state(struct xd_ctx *c)
{
	if (!no_query(c) || xd_parse_state(c->body, c->body_len, c->job, &c->reply))
		return;
	c->job->kind = XD_JOB_STATE;
	xd_ctx_submit(c);
}

const struct xd_route xd_routes[] = {
	{ "GET", "/v1/health", XD_PUBLIC, h_health },
	{ "GET", "/v1/ready", XD_PUBLIC, h_ready },
	{ "GET", "/v1/market", XD_PUBLIC, h_market },
	{ "GET", "/v1/gpus", XD_PUBLIC, h_gpus },
	{ "GET", "/v1/workloads", XD_PUBLIC, h_workloads },
	{ "GET", "/v1/quotes", XD_PUBLIC, h_quotes },
	{ "GET", "/v1/books/{}", XD_PUBLIC, h_book },
	{ "GET", "/v1/trades/{}", XD_PUBLIC, h_trades },
	{ "GET", "/v1/candles/{}", XD_PUBLIC, h_candles },
	{ "GET", "/v1/stream", XD_PUBLIC, h_stream },
	{ "POST", "/v1/accounts", XD_PUBLIC, h_signup },
	{ "GET", "/v1/account", XD_ACCOUNT, h_account },
	{ "POST", "/v1/deposits", XD_ACCOUNT_OR_ADMIN, h_deposit },
	{ "GET", "/v1/ledger", XD_ACCOUNT, h_ledger },
	{ "POST", "/v1/orders/preview", XD_ACCOUNT, h_preview },
	{ "POST", "/v1/orders", XD_ACCOUNT, h_order },
	{ "GET", "/v1/orders", XD_ACCOUNT, h_orders },
	{ "GET", "/v1/orders/{}", XD_ACCOUNT, h_order_get },
	{ "DELETE", "/v1/orders/{}", XD_ACCOUNT, h_order_cancel },
	{ "GET", "/v1/rentals", XD_ACCOUNT, h_rentals },
	{ "POST", "/v1/rentals/{}/stop", XD_ACCOUNT, h_rental_stop },
	{ "POST", "/v1/admin/clock", XD_ADMIN_OR_DEMO, h_clock },
	{ "POST", "/v1/admin/market", XD_ADMIN_OR_DEMO, h_state },
	{ "GET", "/v1/keys", XD_ACCOUNT, xd_keys_h_list },
	{ "POST", "/v1/keys", XD_ACCOUNT, xd_keys_h_create },
	{ "DELETE", "/v1/keys/{}", XD_ACCOUNT, xd_keys_h_revoke },
};
const size_t xd_n_routes = sizeof xd_routes / sizeof xd_routes[0];
