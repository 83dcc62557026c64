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
/* Decimal digits only, at most max_len of them (16 hold 2^53 - 1). */
static bool parse_digits(const char *s, size_t max_len, int64_t *out)
{
	if (!s || !*s || strlen(s) > max_len)
		return false;
	int64_t v = 0;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		v = v * 10 + (*p - '0');
	}
	*out = v;
	return true;
}

static bool parse_id(const char *s, int64_t *out)
{
	int64_t v;
	if (!parse_digits(s, 15, &v) || v <= 0)
		return false;
	*out = v;
	return true;
}

int64_t xd_id_of(const char *p)
{
	int64_t v;
	return parse_id(p, &v) ? v : 0;
}

int xd_query_int(struct xd_ctx *c, const char *name, int64_t min, int64_t max, int64_t dflt,
                 int64_t *out)
{
	const char *s = xd_query(c, name);
	int64_t v;
	if (!s) {
		*out = dflt;
		return 0;
	}
	if (!parse_digits(s, 16, &v) || v < min || v > max) {
		cJSON *e = xd_reply_error(&c->reply, 400, "BAD_PARAM",
		                          "query parameter \"%s\" must be an integer in %" PRId64 "..%" PRId64,
		                          name, min, max);
		cJSON_AddStringToObject(e, "field", name);
		return -1;
	}
	*out = v;
	return 0;
}

int xd_query_page(struct xd_ctx *c, int64_t dflt, struct xd_page *p)
{
	if (xd_query_int(c, "limit", 1, XD_LIMIT_MAX, dflt, &p->limit) != 0)
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

/* A reply rendered by market.c: 1 (304 Not Modified) or 0 (200), its
 * body and ETag. */
static void rendered_reply(struct xd_ctx *c, int same, char *body, char *etag)
{
	c->reply.status = same == 1 ? 304 : 200;
	c->reply.raw = body;
	c->reply.etag = etag;
}

static const char *if_none_match(struct xd_ctx *c)
{
	return MHD_lookup_connection_value(c->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
}

static void h_quotes(struct xd_ctx *c)
{
	if (!no_query(c))
		return;
	char *etag = NULL, *body = NULL;
	int same = xd_market_quotes_text(c->m, if_none_match(c), &body, &etag);
	rendered_reply(c, same, body, etag);
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

/* The ladder's filter of GET /v1/books/{gpu}?node_gpus=&region=&interconnect=
 * (region: one id or several, comma-separated). 1 if any was given, 0 if
 * none (today's book), -1 with an error reply. */
static int query_units(struct xd_ctx *c, struct eng_filter *f)
{
	const struct xd_tables *t = xd_market_tables(c->m);
	const char *region = xd_query(c, "region"), *link = xd_query(c, "interconnect");
	int64_t k;
	*f = (struct eng_filter){ .unit = 1 };
	if (xd_query_int(c, "node_gpus", 1, ENG_NODE_GPUS_MAX, 1, &k) != 0)
		return -1;
	if (k & (k - 1)) {
		cJSON *e = xd_reply_error(&c->reply, 400, "BAD_PARAM", "node_gpus must be 1, 2, 4 or 8");
		cJSON_AddStringToObject(e, "field", "node_gpus");
		return -1;
	}
	f->unit = (int32_t)k;
	if (link) {
		int l = xd_lookup(xd_link_names + 1, link);
		if (l < 0) {
			cJSON *e = xd_reply_error(&c->reply, 400, "BAD_PARAM", "interconnect must be "
			                          "nvlink, infinity-fabric or pcie");
			cJSON_AddStringToObject(e, "field", "interconnect");
			return -1;
		}
		f->link = (uint8_t)(l + 1);
	}
	if (region && xd_regions_parse(t, region, &f->regions) != 0) {
		cJSON *e = xd_reply_error(&c->reply, 400, "UNKNOWN_REGION", "region must be one or "
		                          "more region ids, comma-separated (GET /v1/market lists them)");
		cJSON_AddStringToObject(e, "field", "region");
		return -1;
	}
	return xd_query(c, "node_gpus") || region || link ? 1 : 0;
}

static void h_book(struct xd_ctx *c)
{
	static const char *const allowed[] = { "depth", "node_gpus", "region", "interconnect", NULL };
	int64_t depth;
	if (xd_query_check(c, allowed) || xd_query_int(c, "depth", 1, XD_DEPTH_MAX, 20, &depth))
		return;
	int g = path_gpu(c);
	if (g < 0)
		return;
	struct eng_filter f;
	int units = query_units(c, &f);
	if (units < 0)
		return;
	if (units == 0) {
		char *etag = NULL, *body = NULL;
		int same = xd_market_book_text(c->m, g, (int)depth, if_none_match(c), &body, &etag);
		rendered_reply(c, same, body, etag);
		return;
	}
	c->job->kind = XD_JOB_BOOK;
	c->job->target = g;
	c->job->amount = depth;
	c->job->filter = f;
	xd_ctx_submit(c);
}

static void h_trades(struct xd_ctx *c)
{
	static const char *const allowed[] = { "limit", "cursor", NULL };
	struct xd_page p;
	if (xd_query_check(c, allowed) || xd_query_page(c, 50, &p))
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

int xd_parse_signup(const struct xd_tables *t, const struct xd_settings *set, const char *body,
                    size_t len, struct xd_job *j, struct xd_reply *r)
{
	static const char *const fields[] = { "email", "country", "currency", "role", NULL };
	cJSON *b = NULL;
	const char *email, *country, *code;
	int cur, role, rc = -1;
	if (xd_body_parse(body, len, false, &b, r) ||
	    xd_body_fields(b, fields, r) ||
	    xd_body_str(b, "email", true, XD_EMAIL_MAX, &email, r) < 0 ||
	    xd_body_str(b, "country", true, 2, &country, r) < 0 ||
	    xd_body_str(b, "currency", true, 3, &code, r) < 0 ||
	    xd_body_enum(b, "role", true, xd_role_names, &role, r) < 0)
		goto out;
	if ((cur = xd_settings_cur(set, code)) < 0) {
		struct buf l = { 0 };
		for (size_t i = 0; i < set->n_cur; i++)
			buf_printf(&l, "%s\"%s\"", i ? ", " : "", set->cur[i].code);
		xd_reply_field(r, "BAD_VALUE", "currency", "field \"currency\" must be one of %s",
		               l.data ? l.data : "");
		buf_free(&l);
		goto out;
	}
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
	if (!no_query(c))
		return;
	struct xd_settings *set = xd_market_settings(c->m);
	int rc = xd_parse_signup(xd_market_tables(c->m), set, c->body, c->body_len, c->job, &c->reply);
	xd_market_settings_done(c->m, &set);
	if (rc)
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
	struct xd_settings *set = xd_market_settings(c->m);
	cJSON *o = xd_read_account(xd_store_reader(), xd_market_tables(c->m), set,
	                           xd_market_now(c->m), c->account);
	xd_market_settings_done(c->m, &set);
	if (o)
		xd_reply_json(&c->reply, 200, o);
	else
		xd_reply_error(&c->reply, 401, "UNAUTHORIZED", "unknown account");
}

static void h_ledger(struct xd_ctx *c)
{
	static const char *const allowed[] = { "limit", "cursor", NULL };
	struct xd_page p;
	if (xd_query_check(c, allowed) || xd_query_page(c, 50, &p))
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

/* A field that only the other side takes: BAD_COMBINATION. */
static int other_side(const cJSON *b, const char *const *names, enum eng_side side,
                      struct xd_reply *r)
{
	for (; *names; names++)
		if (cJSON_GetObjectItemCaseSensitive(b, *names)) {
			xd_reply_field(r, "BAD_COMBINATION", *names, "\"%s\" is for %s orders", *names,
			               side == ENG_BUY ? "sell" : "buy");
			return -1;
		}
	return 0;
}

int xd_parse_regions(const struct xd_tables *t, const cJSON *b, uint64_t *mask,
                     struct xd_reply *r)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(b, "regions");
	*mask = 0;
	if (!a)
		return 0;
	int n = cJSON_GetArraySize(a);
	if (!cJSON_IsArray(a) || n < 1 || n > ENG_REGIONS_MAX) {
		xd_reply_field(r, cJSON_IsArray(a) ? "BAD_VALUE" : "WRONG_TYPE", "regions",
		               "\"regions\" must be an array of 1..%d region ids (GET /v1/market lists "
		               "them)", ENG_REGIONS_MAX);
		return -1;
	}
	for (const cJSON *x = a->child; x; x = x->next) {
		int g = cJSON_IsString(x) ? xd_tables_region(t, x->valuestring) : -1;
		if (g < 0) {
			char *safe = cJSON_IsString(x) ? util_sanitize(x->valuestring, 40, true) : NULL;
			xd_reply_field(r, cJSON_IsString(x) ? "UNKNOWN_REGION" : "WRONG_TYPE", "regions",
			               "\"regions\" holds %s%s%s, which is not a region (GET /v1/market lists "
			               "them)", safe ? "\"" : "something", safe ? safe : "", safe ? "\"" : "");
			free(safe);
			return -1;
		}
		*mask |= UINT64_C(1) << g;
	}
	return 1;
}

/* The lot of a sell or the requirements of a buy (docs/API.md "The market's
 * rules"), after side, gpu and gpus are known. */
static int parse_lot(const struct xd_tables *t, const cJSON *b, struct xd_order_in *o,
                     struct xd_reply *r)
{
	static const char *const sell_only[] = { "region", "cpu_cores", "ram_gb", "disk_gb",
	                                         "whole_nodes", NULL };
	static const char *const buy_only[] = { "regions", "min_cpu_cores", "min_ram_gb",
	                                        "min_disk_gb", NULL };
	bool sell = o->side == ENG_SELL;
	int64_t k = 1, cpu = 0, ram = 0, disk = 0;
	int link = -1;
	const char *region = NULL;
	if (other_side(b, sell ? buy_only : sell_only, o->side, r) ||
	    xd_body_int(b, "node_gpus", false, 1, ENG_NODE_GPUS_MAX, &k, r) < 0 ||
	    xd_body_enum(b, "interconnect", false, xd_link_names + 1, &link, r) < 0 ||
	    xd_body_int(b, sell ? "cpu_cores" : "min_cpu_cores", false, 0, XD_CPU_CORES_MAX, &cpu, r) < 0 ||
	    xd_body_int(b, sell ? "ram_gb" : "min_ram_gb", false, 0, XD_RAM_GB_MAX, &ram, r) < 0 ||
	    xd_body_int(b, sell ? "disk_gb" : "min_disk_gb", false, 0, XD_DISK_GB_MAX, &disk, r) < 0 ||
	    (sell && xd_body_bool(b, "whole_nodes", false, &o->whole_nodes, r) < 0) ||
	    (sell && xd_body_str(b, "region", false, XD_REGION_ID_MAX + 8, &region, r) < 0) ||
	    (!sell && xd_parse_regions(t, b, &o->regions, r) < 0))
		return -1;
	if (k & (k - 1)) {
		xd_reply_field(r, "BAD_VALUE", "node_gpus", "\"node_gpus\" must be 1, 2, 4 or 8");
		return -1;
	}
	if (o->gpus % k != 0) {
		xd_reply_field(r, "BAD_COMBINATION", "gpus", "\"gpus\" must be a multiple of "
		               "\"node_gpus\" (%lld): %s", (long long)k, sell ? "whole nodes"
		               : "whole units of node_gpus GPUs");
		return -1;
	}
	o->node_gpus = (int32_t)k;
	o->link = link < 0 ? (sell ? t->gpu_link[o->gpu] : ENG_LINK_ANY) : link + 1;
	if (o->link != ENG_LINK_ANY && !xd_tables_link_ok(t, o->gpu, o->link, o->node_gpus)) {
		xd_reply_field(r, "BAD_COMBINATION", "interconnect", "%s nodes are linked by %s%s",
		               t->gpu_ids[o->gpu], xd_link_names[t->gpu_link[o->gpu]],
		               t->gpu_bridge[o->gpu] ? " (or nvlink, as bridged pairs: node_gpus 1 or 2)"
		                                     : "");
		return -1;
	}
	if (region && (o->region = xd_tables_region(t, region)) < 0) {
		char *safe = util_sanitize(region, 40, true);
		xd_reply_field(r, "UNKNOWN_REGION", "region", "unknown region \"%s\" (GET /v1/market "
		               "lists them)", safe);
		free(safe);
		return -1;
	}
	o->host = (struct eng_host){ (int32_t)cpu, (int32_t)ram, (int32_t)disk };
	return 0;
}

int xd_parse_order(const struct xd_tables *t, const char *body, size_t len, bool need_coid,
                   struct xd_order_in *o, struct xd_reply *r)
{
	static const char *const fields[] = {
		"client_order_id", "gpu", "side", "type", "gpus", "hours", "price_cents",
		"max_price_cents", "min_price_cents", "time_in_force",
		"node_gpus", "interconnect", "region", "cpu_cores", "ram_gb", "disk_gb", "whole_nodes",
		"regions", "min_cpu_cores", "min_ram_gb", "min_disk_gb", "job", "max_total_minor",
		"trigger", "oco_group", "standing", NULL,
	};
	static const char *const not_with_job[] = {
		"gpu", "gpus", "type", "price_cents", "max_price_cents", "min_price_cents", "node_gpus",
		"interconnect", "region", "cpu_cores", "ram_gb", "disk_gb", "whole_nodes",
		"min_cpu_cores", "min_ram_gb", "min_disk_gb", NULL,
	};
	/* a job order is placed now, on the GPU that is cheapest now */
	static const char *const not_conditional[] = { "trigger", "oco_group", "standing", NULL };
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
	if (cJSON_GetObjectItemCaseSensitive(b, "job")) {   /* a job order (jobs.c) */
		for (const char *const *f = not_with_job; *f; f++)
			if (cJSON_GetObjectItemCaseSensitive(b, *f)) {
				xd_reply_field(r, "BAD_COMBINATION", *f, "a job order names no \"%s\": the "
				               "exchange works it out from the job", *f);
				goto out;
			}
		for (const char *const *f = not_conditional; *f; f++)
			if (cJSON_GetObjectItemCaseSensitive(b, *f)) {
				xd_reply_field(r, "BAD_COMBINATION", *f, "a job order is placed at once on "
				               "the GPU that runs the job cheapest now: \"%s\" belongs to an "
				               "order for one GPU", *f);
				goto out;
			}
		if (xd_parse_job(t, b, o, r) != 0)
			goto out;
		if (has_coid)
			snprintf(o->coid, sizeof o->coid, "%s", coid);
		rc = 0;
		goto out;
	}
	if (cJSON_GetObjectItemCaseSensitive(b, "max_total_minor")) {
		xd_reply_field(r, "BAD_COMBINATION", "max_total_minor", "\"max_total_minor\" is the "
		               "budget of a job order (with \"job\")");
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
	if (parse_lot(t, b, o, r) != 0 || xd_parse_cond(t, b, o, r) != 0)
		goto out;
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
	"open", "closed", "all", "partially_filled", "filled", "cancelled", "expired", "rejected",
	"waiting", "live", NULL,
};

static void h_orders(struct xd_ctx *c)
{
	static const char *const allowed[] = { "status", "gpu", "side", "client_order_id", "limit",
	                                       "cursor", NULL };
	struct xd_page p;
	const char *status, *gpu, *side;
	if (xd_query_check(c, allowed) || xd_query_page(c, 50, &p) ||
	    query_enum(c, "status", order_statuses, &status) || query_gpu(c, &gpu) ||
	    query_enum(c, "side", xd_side_names, &side))
		return;
	xd_reply_json(&c->reply, 200, xd_read_orders(xd_store_reader(), xd_market_tables(c->m), c->account, status, gpu, side,
	                                             xd_query(c, "client_order_id"), &p));
}

bool xd_path_id(struct xd_ctx *c, const char *what, int64_t *id)
{
	if (parse_id(c->params[0], id))
		return true;
	xd_reply_error(&c->reply, 404, "NOT_FOUND", "no such %s", what);
	return false;
}

static void h_order_get(struct xd_ctx *c)
{
	int64_t id;
	if (!no_query(c) || !xd_path_id(c, "order", &id))
		return;
	cJSON *o = xd_read_order(xd_store_reader(), xd_market_tables(c->m), c->account, id, true);
	if (o)
		xd_reply_json(&c->reply, 200, o);
	else
		xd_reply_error(&c->reply, 404, "NOT_FOUND", "no order %" PRId64, id);
}

static void h_order_cancel(struct xd_ctx *c)
{
	int64_t id;
	if (!xd_keys_may_trade(c) || !no_query(c) || !xd_path_id(c, "order", &id))
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
	if (xd_query_check(c, allowed) || xd_query_page(c, 50, &p) ||
	    query_enum(c, "status", statuses, &status) || query_gpu(c, &gpu))
		return;
	xd_reply_json(&c->reply, 200, xd_read_rentals(xd_store_reader(), xd_market_tables(c->m), c->account, status, gpu, &p));
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
	if (!xd_keys_may_trade(c) || !no_query(c) || !xd_path_id(c, "rental", &id) || xd_parse_stop(c->body, c->body_len, &c->reply))
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
	{ "POST", "/v1/deposits", XD_ACCOUNT_OR_ADMIN, xd_money_h_deposit },
	{ "POST", "/v1/withdrawals", XD_ACCOUNT, xd_money_h_withdraw },
	{ "GET", "/v1/withdrawals", XD_ACCOUNT, xd_money_h_withdrawals },
	{ "GET", "/v1/ledger", XD_ACCOUNT, h_ledger },
	{ "POST", "/v1/orders/preview", XD_ACCOUNT, h_preview },
	{ "POST", "/v1/orders", XD_ACCOUNT, h_order },
	{ "GET", "/v1/orders", XD_ACCOUNT, h_orders },
	{ "GET", "/v1/orders/{}", XD_ACCOUNT, h_order_get },
	{ "DELETE", "/v1/orders/{}", XD_ACCOUNT, h_order_cancel },
	{ "GET", "/v1/rentals", XD_ACCOUNT, h_rentals },
	{ "POST", "/v1/rentals/{}/stop", XD_ACCOUNT, h_rental_stop },
	{ "POST", "/v1/admin/clock", XD_ADMIN_OR_DEMO, h_clock },
	{ "POST", "/v1/admin/market", XD_ADMIN_OR_DEMO, xd_settings_h_market },
	{ "GET", "/v1/admin/settings", XD_ADMIN_OR_DEMO, xd_settings_h_show },
	{ "POST", "/v1/admin/fx", XD_ADMIN_OR_DEMO, xd_settings_h_fx },
	{ "POST", "/v1/admin/fees", XD_ADMIN_OR_DEMO, xd_settings_h_fees },
	{ "POST", "/v1/admin/topup", XD_ADMIN_OR_DEMO, xd_settings_h_topup },
	{ "POST", "/v1/admin/deposits/reverse", XD_ADMIN_OR_DEMO, xd_money_h_reverse },
	{ "GET", "/v1/admin/withdrawals", XD_ADMIN_OR_DEMO, xd_money_h_admin_withdrawals },
	{ "POST", "/v1/admin/withdrawals/{}/approve", XD_ADMIN_OR_DEMO, xd_money_h_approve },
	{ "POST", "/v1/admin/withdrawals/{}/reject", XD_ADMIN_OR_DEMO, xd_money_h_reject },
	{ "GET", "/v1/admin/keys", XD_ADMIN_OR_DEMO, xd_admin_h_keys },
	{ "POST", "/v1/admin/keys", XD_ADMIN_OR_DEMO, xd_admin_h_key_create },
	{ "DELETE", "/v1/admin/keys/{}", XD_ADMIN_OR_DEMO, xd_admin_h_key_revoke },
	{ "GET", "/v1/admin/accounts", XD_ADMIN_OR_DEMO, xd_admin_h_accounts },
	{ "GET", "/v1/admin/accounts/{}/ledger", XD_ADMIN_OR_DEMO, xd_admin_h_ledger },
	{ "GET", "/v1/admin/audit", XD_ADMIN_OR_DEMO, xd_admin_h_audit },
	{ "GET", "/v1/keys", XD_ACCOUNT, xd_keys_h_list },
	{ "POST", "/v1/keys", XD_ACCOUNT, xd_keys_h_create },
	{ "DELETE", "/v1/keys/{}", XD_ACCOUNT, xd_keys_h_revoke },
	{ "GET", "/v1/alerts", XD_ACCOUNT, xd_alerts_h_list },
	{ "POST", "/v1/alerts", XD_ACCOUNT, xd_alerts_h_create },
	{ "GET", "/v1/alerts/{}", XD_ACCOUNT, xd_alerts_h_get },
	{ "DELETE", "/v1/alerts/{}", XD_ACCOUNT, xd_alerts_h_delete },
	{ "GET", "/v1/events", XD_ACCOUNT, xd_events_h_list },
};
const size_t xd_n_routes = sizeof xd_routes / sizeof xd_routes[0];

bool xd_route_sheds(const struct xd_route *route)
{
	return route->handler == h_order;
}
