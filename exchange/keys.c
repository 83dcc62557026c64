/*
 * exchange/keys.c — API keys as objects: several named keys per account,
 * each with a scope ("trade" or "read"), a creation time, a last-use time,
 * and revocation (docs/API.md, "API keys").
 *
 * The database holds only the SHA-256 of a key (table api_keys, made by the
 * version-2 migration of store.c); the key itself exists in the reply that
 * creates it and nowhere else. Lookups run on the HTTP threads against their
 * read connections; creating and revoking are writer jobs, so "revoked" is
 * committed before the DELETE is answered and the very next request with
 * that key sees no row and gets 401.
 *
 * Last use is coarse on purpose: a read must not become a write on the one
 * writer thread. An HTTP thread that authenticates a key whose stored
 * last_used_ms is older than XD_KEY_USE_MS (one minute of exchange time)
 * notes (id, now) in a small in-memory list, at most once per key per
 * minute of exchange time and never twice within a real second (a map of
 * recently noted ids guards against the threads that see the same stale row
 * meanwhile, and the real-time floor holds when the clock runs fast). The writer drains the list at its next
 * commit (xd_keys_flush, called by xd_ops_commit; the writer wakes at least
 * every 50 ms), so a busy key costs one UPDATE a minute, not one per
 * request, and last_used_at is exact to within a minute. A full list drops
 * notes (they come again a minute later): last use is information, not
 * accounting.
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <nettle/memops.h>
#include <nettle/sha2.h>

#include "util/util.h"

const char *const xd_scope_names[3] = { "trade", "read", NULL };

/* ---- last use ------------------------------------------------------------------ */

#define USE_SLOTS 1024          /* power of two */
#define USE_PENDING_MAX 4096

#define USE_REAL_MIN_MS 1000  /* real time between two notes of one key, at least */

struct use { int64_t id, ms, real_ms; };
static pthread_mutex_t use_mu = PTHREAD_MUTEX_INITIALIZER;
static struct use use_seen[USE_SLOTS];
static struct use use_pending[USE_PENDING_MAX];
static size_t n_pending;

/* stored_ms: the row's last_used_ms, -1 for never; now: the exchange clock. */
static void note_use(int64_t id, int64_t stored_ms, int64_t now)
{
	if (stored_ms >= 0 && now - stored_ms < XD_KEY_USE_MS)
		return;
	int64_t real = util_now_us() / 1000;
	pthread_mutex_lock(&use_mu);
	struct use *seen = &use_seen[(size_t)id & (USE_SLOTS - 1)];
	bool recent = seen->id == id && (now - seen->ms < XD_KEY_USE_MS ||
	                                 real - seen->real_ms < USE_REAL_MIN_MS);
	if (!recent && n_pending < USE_PENDING_MAX) {
		*seen = (struct use){ id, now, real };
		use_pending[n_pending++] = *seen;
	}
	pthread_mutex_unlock(&use_mu);
}

void xd_keys_flush(struct xd_writer *w)
{
	pthread_mutex_lock(&use_mu);
	size_t n = n_pending;
	struct use *v = NULL;
	if (n) {
		v = xreallocarray(NULL, n, sizeof *v);
		memcpy(v, use_pending, n * sizeof *v);
	}
	n_pending = 0;
	pthread_mutex_unlock(&use_mu);
	if (!n)
		return;
	xd_ops_begin(w);
	for (size_t i = 0; i < n; i++) {
		struct xd_q *st = xd_stmt(w->st, "UPDATE api_keys SET last_used_ms = ?2 WHERE id = ?1 "
		                                  "AND coalesce(last_used_ms, -1) < ?2");
		xd_bind_int64(st, 1, v[i].id);
		xd_bind_int64(st, 2, v[i].ms);
		xd_step_done(w->st, st);
	}
	free(v);
}

/* ---- authentication and scope ------------------------------------------------------ */

int64_t xd_keys_auth(struct xd_ctx *c, const unsigned char hash[32])
{
	struct xd_q *st = xd_stmt(xd_store_reader(),
		"SELECT id, account, scope, last_used_ms, key_hash FROM api_keys "
		"WHERE key_hash = ?1 AND revoked_ms IS NULL");
	xd_bind_blob(st, 1, hash, 32);
	int64_t id = 0, account = 0, used = -1;
	bool read_only = false;
	size_t n = 0;
	const void *stored = xd_step(st) == XD_ROW ? xd_col_blob(st, 4, &n) : NULL;
	if (stored && n == 32 && memeql_sec(stored, hash, 32)) {
		id = xd_col_int64(st, 0);
		account = xd_col_int64(st, 1);
		const char *scope = xd_col_text(st, 2);
		read_only = !scope || strcmp(scope, "trade") != 0;
		if (!xd_col_null(st, 3))
			used = xd_col_int64(st, 3);
	}
	xd_reset(st);
	if (!account)
		return 0;
	c->key_id = id;
	c->key_read_only = read_only;
	note_use(id, used, xd_market_now(c->m));
	return account;
}

bool xd_keys_may_trade(struct xd_ctx *c)
{
	if (!c->key_read_only)
		return true;
	xd_reply_error(&c->reply, 403, "KEY_SCOPE", "this API key is read-only (scope \"read\"): "
	               "orders, cancels, stops, deposits and key changes need a trade key");
	return false;
}

void xd_keys_hash(const char *key, size_t n, unsigned char hash[32])
{
	struct sha256_ctx ctx;
	sha256_init(&ctx);
	sha256_update(&ctx, n, (const uint8_t *)key);
	sha256_digest(&ctx, SHA256_DIGEST_SIZE, hash);
	explicit_bzero(&ctx, sizeof ctx);
}

int xd_keys_generate(char *out, unsigned char hash[32], struct xd_reply *r)
{
	unsigned char raw[32];
	if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw) {
		xd_reply_error(r, 503, "UNAVAILABLE", "no randomness for a key; retry");
		return -1;
	}
	memcpy(out, "gpux_", 5);
	for (size_t i = 0; i < 32; i++)
		snprintf(out + 5 + 2 * i, 3, "%02x", raw[i]);
	explicit_bzero(raw, sizeof raw);
	xd_keys_hash(out, 69, hash);
	return 0;
}

/* ---- rows and their JSON ------------------------------------------------------------- */

/* The key `id` of account as JSON, or NULL; current: the id of the key making
 * the request (its "current" is true). */
static cJSON *read_key(struct xd_store *s, int64_t account, int64_t id, int64_t current)
{
	struct xd_q *st = xd_stmt(s, "SELECT name, scope, created_ms, last_used_ms, revoked_ms "
	                              "FROM api_keys WHERE id = ?1 AND account = ?2");
	xd_bind_int64(st, 1, id);
	xd_bind_int64(st, 2, account);
	cJSON *o = NULL;
	if (xd_step(st) == XD_ROW) {
		o = cJSON_CreateObject();
		xd_jint(o, "id", id);
		xd_jstr(o, "name", xd_col_text(st, 0));
		xd_jstr(o, "scope", xd_col_text(st, 1));
		xd_jtime(o, "created_at", xd_col_int64(st, 2));
		xd_jtime(o, "last_used_at", xd_col_null(st, 3)
		                            ? -1 : xd_col_int64(st, 3));
		xd_jtime(o, "revoked_at", xd_col_null(st, 4)
		                          ? -1 : xd_col_int64(st, 4));
		cJSON_AddBoolToObject(o, "current", id == current);
	}
	xd_reset(st);
	return o;
}

static int64_t count_keys(struct xd_store *s, int64_t account, bool trade_only)
{
	struct xd_q *st = xd_stmt(s, "SELECT count(*) FROM api_keys WHERE account = ?1 "
	                              "AND revoked_ms IS NULL AND (?2 = 0 OR scope = 'trade')");
	xd_bind_int64(st, 1, account);
	xd_bind_int(st, 2, trade_only);
	int64_t n = xd_step(st) == XD_ROW ? xd_col_int64(st, 0) : 0;
	xd_reset(st);
	return n;
}

/* ---- the writer's jobs ------------------------------------------------------------------ */

int64_t xd_keys_insert(struct xd_writer *w, int64_t account, const unsigned char hash[32],
                       const char *name, int scope)
{
	xd_ops_begin(w);
	struct xd_q *st = xd_stmt(w->st, "INSERT INTO api_keys(account, key_hash, name, scope, "
	                                  "created_ms) VALUES(?1, ?2, coalesce(?3, ''), ?4, ?5) RETURNING id");
	xd_bind_int64(st, 1, account);
	xd_bind_blob(st, 2, hash, 32);
	if (name)
		xd_bind_text(st, 3, name);
	xd_bind_text(st, 4, xd_scope_names[scope]);
	xd_bind_int64(st, 5, w->now);
	int64_t id = xd_step_id(st);
	if (!name) {
		st = xd_stmt(w->st, "UPDATE api_keys SET name = 'key-' || id WHERE id = ?1");
		xd_bind_int64(st, 1, id);
		xd_step_done(w->st, st);
	}
	return id;
}

void xd_keys_job_create(struct xd_writer *w, struct xd_job *j)
{
	if (count_keys(w->st, j->account, false) >= XD_KEYS_MAX) {
		cJSON *e = xd_reply_error(&j->reply, 409, "TOO_MANY_KEYS", "this account has %d "
		                          "active keys already: revoke one first", XD_KEYS_MAX);
		xd_jint(e, "max", XD_KEYS_MAX);
		return;
	}
	int64_t id = xd_keys_insert(w, j->account, j->key_hash, j->key_name[0] ? j->key_name : NULL,
	                            j->key_scope);
	xd_reply_json(&j->reply, 201, read_key(w->st, j->account, id, j->key_id));
}

void xd_keys_job_revoke(struct xd_writer *w, struct xd_job *j)
{
	struct xd_q *st = xd_stmt(w->st, "SELECT scope FROM api_keys WHERE id = ?1 AND "
	                                  "account = ?2 AND revoked_ms IS NULL");
	xd_bind_int64(st, 1, j->target);
	xd_bind_int64(st, 2, j->account);
	int scope = -1;
	if (xd_step(st) == XD_ROW)
		scope = xd_lookup(xd_scope_names, xd_col_text(st, 0));
	xd_reset(st);
	if (scope < 0) {
		xd_reply_error(&j->reply, 404, "NOT_FOUND", "no active key %" PRId64, j->target);
		return;
	}
	if (scope == XD_SCOPE_TRADE && count_keys(w->st, j->account, true) <= 1) {
		xd_reply_error(&j->reply, 409, "LAST_TRADE_KEY", "key %" PRId64 " is this account's "
		               "last trade key: create another trade key before revoking it", j->target);
		return;
	}
	xd_ops_begin(w);
	st = xd_stmt(w->st, "UPDATE api_keys SET revoked_ms = ?2 WHERE id = ?1");
	xd_bind_int64(st, 1, j->target);
	xd_bind_int64(st, 2, w->now);
	xd_step_done(w->st, st);
	xd_reply_json(&j->reply, 200, read_key(w->st, j->account, j->target, j->key_id));
}

/* ---- the routes ---------------------------------------------------------------------------- */

/* Printable UTF-8 without C0 or C1 control characters. */
static bool name_ok(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			return false;
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			return false;
	}
	return true;
}

int xd_parse_key_create(const char *body, size_t len, struct xd_job *j, struct xd_reply *r)
{
	static const char *const fields[] = { "name", "scope", NULL };
	cJSON *b = NULL;
	const char *name = NULL;
	int scope = XD_SCOPE_TRADE, rc = -1;
	int has_name;
	if (xd_body_parse(body, len, true, &b, r) || xd_body_fields(b, fields, r) ||
	    (has_name = xd_body_str(b, "name", false, XD_KEY_NAME_MAX, &name, r)) < 0 ||
	    xd_body_enum(b, "scope", false, xd_scope_names, &scope, r) < 0)
		goto out;
	if (has_name && !name_ok(name)) {
		xd_reply_field(r, "BAD_VALUE", "name", "\"name\" must not hold control characters");
		goto out;
	}
	snprintf(j->key_name, sizeof j->key_name, "%s", has_name ? name : "");
	j->key_scope = scope;
	rc = 0;
out:
	cJSON_Delete(b);
	return rc;
}

static bool no_query(struct xd_ctx *c)
{
	static const char *const none[] = { NULL };
	return xd_query_check(c, none) == 0;
}

void xd_keys_h_list(struct xd_ctx *c)
{
	if (!no_query(c))
		return;
	struct xd_store *s = xd_store_reader();
	struct xd_q *st = xd_stmt(s, "SELECT id FROM api_keys WHERE account = ?1 AND "
	                              "revoked_ms IS NULL ORDER BY id");
	xd_bind_int64(st, 1, c->account);
	int64_t ids[XD_KEYS_MAX * 2];
	size_t n = 0;
	while (n < sizeof ids / sizeof ids[0] && xd_step(st) == XD_ROW)
		ids[n++] = xd_col_int64(st, 0);
	xd_reset(st);
	cJSON *o = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(o, "keys");
	for (size_t i = 0; i < n; i++) {
		cJSON *k = read_key(s, c->account, ids[i], c->key_id);
		if (k)
			cJSON_AddItemToArray(arr, k);
	}
	xd_jint(o, "max", XD_KEYS_MAX);
	xd_reply_json(&c->reply, 200, o);
}

void xd_keys_h_create(struct xd_ctx *c)
{
	struct xd_job *j = c->job;
	if (!xd_keys_may_trade(c) || !no_query(c) ||
	    xd_parse_key_create(c->body, c->body_len, j, &c->reply) ||
	    xd_keys_generate(c->new_key, j->key_hash, &c->reply))
		return;
	j->kind = XD_JOB_KEY_CREATE;
	j->account = c->account;
	j->key_id = c->key_id;
	xd_ctx_submit(c);
}

void xd_keys_h_revoke(struct xd_ctx *c)
{
	if (!xd_keys_may_trade(c) || !no_query(c))
		return;
	const char *p = c->params[0];
	int64_t id = 0;
	size_t n = strlen(p);
	for (size_t i = 0; i < n && n <= 15; i++) {
		if (p[i] < '0' || p[i] > '9') {
			id = 0;
			break;
		}
		id = id * 10 + (p[i] - '0');
	}
	if (n == 0 || n > 15 || id <= 0) {
		xd_reply_error(&c->reply, 404, "NOT_FOUND", "no such key");
		return;
	}
	struct xd_job *j = c->job;
	j->kind = XD_JOB_KEY_REVOKE;
	j->account = c->account;
	j->target = id;
	j->key_id = c->key_id;
	xd_ctx_submit(c);
}
