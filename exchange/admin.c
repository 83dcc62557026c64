/*
 * exchange/admin.c — the operator's keys and reads (docs/API.md, "Operator").
 *
 * Admin keys are rows of admin_keys, like API keys: only their SHA-256 is
 * stored, each has a name, who made it, when it last acted and when it was
 * revoked. Every request presenting one is looked up on the HTTP thread's
 * read connection, so a key revoked on any node is refused on every node from
 * the next request. The first start of a database makes the key of
 * --admin-key-file the admin key "bootstrap"; from it the operators make
 * named keys of their own (POST /v1/admin/keys) and revoke the bootstrap
 * one. The last active admin key cannot be revoked.
 *
 * Every action of an admin key leaves an audit row (settings.c's xd_audit)
 * or a ledger entry with a row naming it (money.c's deposits, withdrawals);
 * its last_used_ms is the last time it acted.
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <nettle/memops.h>

#include "util/util.h"

#define ADMIN_NAME_MAX 64

static bool no_query(struct xd_ctx *c)
{
	static const char *const none[] = { NULL };
	return xd_query_check(c, none) == 0;
}

/* ---- authentication ------------------------------------------------------------------ */

int64_t xd_admin_auth(struct xd_ctx *c, const unsigned char hash[32])
{
	struct xd_q *st = xd_stmt(xd_store_reader(), "SELECT id, key_hash FROM admin_keys "
	                                             "WHERE key_hash = ?1 AND revoked_ms IS NULL");
	xd_bind_blob(st, 1, hash, 32);
	int64_t id = 0;
	size_t n = 0;
	const void *stored = xd_step(st) == XD_ROW ? xd_col_blob(st, 1, &n) : NULL;
	if (stored && n == 32 && memeql_sec(stored, hash, 32))
		id = xd_col_int64(st, 0);
	xd_reset(st);
	c->admin_key_id = id;
	return id;
}

bool xd_admin_only(struct xd_ctx *c)
{
	if (c->admin || xd_market_demo(c->m))
		return true;
	if (c->account)
		xd_reply_error(&c->reply, 403, "FORBIDDEN", "this route needs an admin key");
	else
		xd_reply_error(&c->reply, 401, "UNAUTHORIZED", "this route needs an admin key");
	return false;
}

/* The admin key that acted now. */
static void acted(struct xd_writer *w, int64_t admin_key)
{
	if (admin_key <= 0)
		return;
	struct xd_q *q = xd_stmt(w->st, "UPDATE admin_keys SET last_used_ms = ?2 WHERE id = ?1");
	xd_bind_int64(q, 1, admin_key);
	xd_bind_int64(q, 2, w->now);
	xd_step_done(w->st, q);
}

void xd_admin_bootstrap(struct xd_writer *w, const char *key)
{
	if (!key)
		return;
	xd_ops_begin(w);
	unsigned char hash[32];
	xd_keys_hash(key, strlen(key), hash);
	struct xd_q *q = xd_stmt(w->st, "SELECT count(*) FROM admin_keys");
	int64_t n = xd_step(q) == XD_ROW ? xd_col_int64(q, 0) : 0;
	xd_reset(q);
	if (n == 0) {
		q = xd_stmt(w->st, "INSERT INTO admin_keys(name, key_hash, created_ms) "
		                   "VALUES('bootstrap', ?1, ?2) RETURNING id");
		xd_bind_blob(q, 1, hash, 32);
		xd_bind_int64(q, 2, w->now);
		int64_t id = xd_step_id(q);
		xd_audit(w, id, "admin_key_bootstrap", "bootstrap",
		         "{\"from\":\"--admin-key-file at the first start\"}");
		return;
	}
	q = xd_stmt(w->st, "SELECT name FROM admin_keys WHERE key_hash = ?1 AND revoked_ms IS NULL");
	xd_bind_blob(q, 1, hash, 32);
	bool active = xd_step(q) == XD_ROW;
	xd_reset(q);
	if (!active)
		fprintf(stderr, "gpuxd: the key of --admin-key-file is not an active admin key of this "
		        "database (it was revoked, or the database has keys of its own): it gives no "
		        "access\n");
}

/* ---- keys ------------------------------------------------------------------------------ */

static cJSON *key_json(struct xd_q *q, int64_t current)
{
	cJSON *o = cJSON_CreateObject();
	int64_t id = xd_col_int64(q, 0);
	xd_jint(o, "id", id);
	xd_jstr(o, "name", xd_col_text(q, 1));
	xd_jtime(o, "created_at", xd_col_int64(q, 2));
	xd_jint_or_null(o, "created_by", xd_col_int64(q, 3), !xd_col_null(q, 3));
	xd_jtime(o, "last_used_at", xd_col_null(q, 4) ? -1 : xd_col_int64(q, 4));
	xd_jtime(o, "revoked_at", xd_col_null(q, 5) ? -1 : xd_col_int64(q, 5));
	cJSON_AddBoolToObject(o, "current", id == current);
	return o;
}

#define KEY_COLS "id, name, created_ms, created_by, last_used_ms, revoked_ms"

static cJSON *read_key(struct xd_store *s, int64_t id, int64_t current)
{
	struct xd_q *q = xd_stmt(s, "SELECT " KEY_COLS " FROM admin_keys WHERE id = ?1");
	xd_bind_int64(q, 1, id);
	cJSON *o = xd_step(q) == XD_ROW ? key_json(q, current) : NULL;
	xd_reset(q);
	return o;
}

void xd_admin_h_keys(struct xd_ctx *c)
{
	if (!xd_admin_only(c) || !no_query(c))
		return;
	struct xd_q *q = xd_stmt(xd_store_reader(), "SELECT " KEY_COLS " FROM admin_keys "
	                                            "WHERE revoked_ms IS NULL ORDER BY id");
	cJSON *o = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(o, "keys");
	while (xd_step(q) == XD_ROW)
		cJSON_AddItemToArray(arr, key_json(q, c->admin_key_id));
	xd_reset(q);
	xd_reply_json(&c->reply, 200, o);
}

static bool name_ok(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			return false;
	return true;
}

static void run_key_create(struct xd_writer *w, struct xd_job *j)
{
	struct xd_q *q = xd_stmt(w->st, "SELECT 1 FROM admin_keys WHERE name = ?1");
	xd_bind_text(q, 1, j->str[0]);
	bool taken = xd_step(q) == XD_ROW;
	xd_reset(q);
	if (taken) {
		cJSON *e = xd_reply_error(&j->reply, 409, "NAME_TAKEN", "an admin key is named \"%s\" "
		                          "already", j->str[0]);
		cJSON_AddStringToObject(e, "field", "name");
		return;
	}
	xd_ops_begin(w);
	q = xd_stmt(w->st, "INSERT INTO admin_keys(name, key_hash, created_ms, created_by) "
	                   "VALUES(?1, ?2, ?3, ?4) RETURNING id");
	xd_bind_text(q, 1, j->str[0]);
	xd_bind_blob(q, 2, j->key_hash, 32);
	xd_bind_int64(q, 3, w->now);
	if (j->admin_key_id > 0)
		xd_bind_int64(q, 4, j->admin_key_id);
	int64_t id = xd_step_id(q);
	char detail[128];
	snprintf(detail, sizeof detail, "{\"id\":%" PRId64 "}", id);
	xd_audit(w, j->admin_key_id, "admin_key_create", j->str[0], detail);
	acted(w, j->admin_key_id);
	xd_reply_json(&j->reply, 201, read_key(w->st, id, j->admin_key_id));
}

void xd_admin_h_key_create(struct xd_ctx *c)
{
	static const char *const fields[] = { "name", NULL };
	if (!xd_admin_only(c) || !no_query(c))
		return;
	cJSON *b = NULL;
	const char *name;
	if (xd_body_parse(c->body, c->body_len, false, &b, &c->reply) ||
	    xd_body_fields(b, fields, &c->reply) ||
	    xd_body_str(b, "name", true, ADMIN_NAME_MAX, &name, &c->reply) < 0) {
		cJSON_Delete(b);
		return;
	}
	if (!name_ok(name)) {
		xd_reply_field(&c->reply, "BAD_VALUE", "name", "\"name\" must not hold control characters");
		cJSON_Delete(b);
		return;
	}
	snprintf(c->job->str[0], sizeof c->job->str[0], "%s", name);
	cJSON_Delete(b);
	/* "gpuxa_" and 64 hex digits: an API key's shape with another prefix */
	if (xd_keys_generate(c->new_key, c->job->key_hash, &c->reply) != 0)
		return;
	memmove(c->new_key + 6, c->new_key + 5, 65);
	memcpy(c->new_key, "gpuxa_", 6);
	xd_keys_hash(c->new_key, 70, c->job->key_hash);
	c->job->kind = XD_JOB_RUN;
	c->job->run = run_key_create;
	c->job->admin_key_id = c->admin_key_id;
	xd_ctx_submit(c);
}

static void run_key_revoke(struct xd_writer *w, struct xd_job *j)
{
	struct xd_q *q = xd_stmt(w->st, "SELECT name FROM admin_keys WHERE id = ?1 AND revoked_ms IS NULL");
	xd_bind_int64(q, 1, j->target);
	char *name = xd_step(q) == XD_ROW ? xstrdup(xd_col_text(q, 0)) : NULL;
	xd_reset(q);
	if (!name) {
		xd_reply_error(&j->reply, 404, "NOT_FOUND", "no active admin key %" PRId64, j->target);
		return;
	}
	q = xd_stmt(w->st, "SELECT count(*) FROM admin_keys WHERE revoked_ms IS NULL");
	int64_t n = xd_step(q) == XD_ROW ? xd_col_int64(q, 0) : 0;
	xd_reset(q);
	if (n <= 1) {
		xd_reply_error(&j->reply, 409, "LAST_ADMIN_KEY", "admin key %" PRId64 " (%s) is the last "
		               "active one: create another before revoking it", j->target, name);
		free(name);
		return;
	}
	xd_ops_begin(w);
	q = xd_stmt(w->st, "UPDATE admin_keys SET revoked_ms = ?2 WHERE id = ?1");
	xd_bind_int64(q, 1, j->target);
	xd_bind_int64(q, 2, w->now);
	xd_step_done(w->st, q);
	char detail[64];
	snprintf(detail, sizeof detail, "{\"id\":%" PRId64 "}", j->target);
	xd_audit(w, j->admin_key_id, "admin_key_revoke", name, detail);
	acted(w, j->admin_key_id);
	free(name);
	xd_reply_json(&j->reply, 200, read_key(w->st, j->target, j->admin_key_id));
}

int64_t xd_path_id(const char *p)
{
	int64_t id = 0;
	size_t n = p ? strlen(p) : 0;
	if (n == 0 || n > 15)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return 0;
		id = id * 10 + (p[i] - '0');
	}
	return id;
}

void xd_admin_h_key_revoke(struct xd_ctx *c)
{
	if (!xd_admin_only(c) || !no_query(c))
		return;
	int64_t id = xd_path_id(c->params[0]);
	if (id <= 0) {
		xd_reply_error(&c->reply, 404, "NOT_FOUND", "no such admin key");
		return;
	}
	c->job->kind = XD_JOB_RUN;
	c->job->run = run_key_revoke;
	c->job->target = id;
	c->job->admin_key_id = c->admin_key_id;
	xd_ctx_submit(c);
}

/* ---- reads ----------------------------------------------------------------------------- */

int xd_admin_page(struct xd_ctx *c, struct xd_page *p)
{
	const char *l = xd_query(c, "limit"), *cur = xd_query(c, "cursor");
	p->limit = 50;
	p->before = INT64_MAX;
	if (l) {
		int64_t v = xd_path_id(l);
		if (v < 1 || v > XD_LIMIT_MAX) {
			cJSON *e = xd_reply_error(&c->reply, 400, "BAD_PARAM", "query parameter \"limit\" "
			                          "must be an integer in 1..%d", XD_LIMIT_MAX);
			cJSON_AddStringToObject(e, "field", "limit");
			return -1;
		}
		p->limit = v;
	}
	if (cur && (p->before = xd_path_id(cur)) <= 0) {
		cJSON *e = xd_reply_error(&c->reply, 400, "BAD_PARAM", "bad cursor");
		cJSON_AddStringToObject(e, "field", "cursor");
		return -1;
	}
	return 0;
}

void xd_next_cursor(cJSON *o, bool more, int64_t last)
{
	if (more) {
		char b[32];
		snprintf(b, sizeof b, "%" PRId64, last);
		cJSON_AddStringToObject(o, "next_cursor", b);
	} else {
		cJSON_AddNullToObject(o, "next_cursor");
	}
}

/* GET /v1/admin/accounts?q=TEXT: customers whose e-mail holds TEXT (any
 * case), or whose id is TEXT; newest first. */
void xd_admin_h_accounts(struct xd_ctx *c)
{
	static const char *const allowed[] = { "q", "limit", "cursor", NULL };
	struct xd_page p;
	if (!xd_admin_only(c) || xd_query_check(c, allowed) || xd_admin_page(c, &p))
		return;
	const char *text = xd_query(c, "q");
	if (text && (!*text || strlen(text) > XD_EMAIL_MAX)) {
		cJSON *e = xd_reply_error(&c->reply, 400, "BAD_PARAM", "query parameter \"q\" must be "
		                          "1..%d bytes", XD_EMAIL_MAX);
		cJSON_AddStringToObject(e, "field", "q");
		return;
	}
	struct xd_q *q = xd_stmt(xd_store_reader(),
		"SELECT id FROM accounts WHERE kind = 'customer' AND id < ?1 AND (CAST(?2 AS TEXT) IS NULL "
		"OR id = ?3 OR lower(email) LIKE '%' || lower(CAST(?2 AS TEXT)) || '%') ORDER BY id DESC "
		"LIMIT ?4");
	xd_bind_int64(q, 1, p.before);
	xd_bind_text(q, 2, text);
	xd_bind_int64(q, 3, text ? xd_path_id(text) : 0);
	xd_bind_int64(q, 4, p.limit + 1);
	int64_t ids[XD_LIMIT_MAX + 1];
	size_t n = 0;
	while (n < (size_t)p.limit + 1 && xd_step(q) == XD_ROW)
		ids[n++] = xd_col_int64(q, 0);
	xd_reset(q);
	struct xd_settings *set = xd_market_settings(c->m);
	cJSON *o = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(o, "accounts");
	size_t shown = n > (size_t)p.limit ? (size_t)p.limit : n;
	for (size_t i = 0; i < shown; i++) {
		cJSON *a = xd_read_account(xd_store_reader(), xd_market_tables(c->m), set,
		                           xd_market_now(c->m), ids[i]);
		if (a)
			cJSON_AddItemToArray(arr, a);
	}
	xd_market_settings_done(c->m, &set);
	xd_next_cursor(o, n > (size_t)p.limit, shown ? ids[shown - 1] : 0);
	xd_reply_json(&c->reply, 200, o);
}

void xd_admin_h_ledger(struct xd_ctx *c)
{
	static const char *const allowed[] = { "limit", "cursor", NULL };
	struct xd_page p;
	if (!xd_admin_only(c) || xd_query_check(c, allowed) || xd_admin_page(c, &p))
		return;
	int64_t id = xd_path_id(c->params[0]);
	struct xd_settings *set = xd_market_settings(c->m);
	cJSON *acct = id > 0 ? xd_read_account(xd_store_reader(), xd_market_tables(c->m), set,
	                                       xd_market_now(c->m), id) : NULL;
	xd_market_settings_done(c->m, &set);
	if (!acct) {
		xd_reply_error(&c->reply, 404, "NOT_FOUND", "no such account");
		return;
	}
	cJSON *o = xd_read_ledger(xd_store_reader(), id, &p);
	cJSON_AddItemToObject(o, "account", acct);
	xd_reply_json(&c->reply, 200, o);
}

void xd_admin_h_audit(struct xd_ctx *c)
{
	static const char *const allowed[] = { "limit", "cursor", NULL };
	struct xd_page p;
	if (!xd_admin_only(c) || xd_query_check(c, allowed) || xd_admin_page(c, &p))
		return;
	struct xd_q *q = xd_stmt(xd_store_reader(),
		"SELECT a.id, a.at_ms, a.admin_key, k.name, a.action, a.subject, a.detail FROM audit a "
		"LEFT JOIN admin_keys k ON k.id = a.admin_key WHERE a.id < ?1 ORDER BY a.id DESC LIMIT ?2");
	xd_bind_int64(q, 1, p.before);
	xd_bind_int64(q, 2, p.limit + 1);
	cJSON *o = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(o, "entries");
	int64_t n = 0, last = 0;
	bool more = false;
	while (xd_step(q) == XD_ROW) {
		if (n == p.limit) {
			more = true;
			break;
		}
		cJSON *e = cJSON_CreateObject();
		last = xd_col_int64(q, 0);
		xd_jint(e, "id", last);
		xd_jtime(e, "at", xd_col_int64(q, 1));
		xd_jint_or_null(e, "admin_key_id", xd_col_int64(q, 2), !xd_col_null(q, 2));
		xd_jstr(e, "admin_key_name", xd_col_text(q, 3));
		xd_jstr(e, "action", xd_col_text(q, 4));
		xd_jstr(e, "subject", xd_col_text(q, 5));
		const char *d = xd_col_text(q, 6);
		cJSON *dj = d ? cJSON_Parse(d) : NULL;
		cJSON_AddItemToObject(e, "detail", dj ? dj : cJSON_CreateNull());
		cJSON_AddItemToArray(arr, e);
		n++;
	}
	xd_reset(q);
	xd_next_cursor(o, more, last);
	xd_reply_json(&c->reply, 200, o);
}
