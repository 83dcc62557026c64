/*
 * exchange/settings.c — what the operator sets, kept as state in the store
 * (xd.h, "settings.c"): table settings (key → text value) for the market
 * state, the announced opening, how to top up, the fees and the FX limits;
 * table currencies for the currencies, their ISO 4217 exponents and their
 * rates with the time each was set; table audit for who changed what.
 *
 * A new database is seeded from the flags (--market, --opens-at,
 * --topup-url, --topup-text) and data/fx.json; an existing one keeps its
 * settings, and a flag that says otherwise is named in the log and ignored —
 * so a node that restarts, with whatever command line, changes nothing.
 *
 * The writer holds the settings its transaction runs on (w->set). A change
 * is a writer job: it writes the rows and an audit row naming the admin key,
 * bumps meta.settings_version, tells the other nodes (nodes.c) and reads the
 * settings again; after COMMIT market.c publishes them for the HTTP threads.
 * Every batch starts by comparing the store's version with its own (one
 * query on a shared store, none with one node), so a change committed on any
 * node holds for every order that comes after it.
 *
 * The scheduled opening: a market that is pre_open or halted with an
 * announced opening opens by itself when the exchange clock reaches it. Only
 * the lease holder tries (billing's lease, nodes.c), and the UPDATE is
 * conditional, so it happens once, with one audit row, whichever node.
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* ---- snapshots -------------------------------------------------------------------- */

static struct xd_settings *settings_new(void)
{
	struct xd_settings *s = xcalloc(1, sizeof *s);
	s->state = EXCHANGE_PRE_OPEN;
	s->opens_at_ms = -1;
	s->refs = 1;
	return s;
}

void xd_settings_free(struct xd_settings **sp)
{
	struct xd_settings *s = *sp;
	if (!s)
		return;
	free(s->topup_url);
	free(s->topup_text);
	free(s);
	*sp = NULL;
}

static struct xd_settings *settings_copy(const struct xd_settings *o)
{
	struct xd_settings *s = xmalloc(sizeof *s);
	*s = *o;
	s->topup_url = o->topup_url ? xstrdup(o->topup_url) : NULL;
	s->topup_text = o->topup_text ? xstrdup(o->topup_text) : NULL;
	s->refs = 1;
	return s;
}

static int64_t to_int(const char *v, int64_t dflt)
{
	if (!v || !*v)
		return dflt;
	char *end;
	long long x = strtoll(v, &end, 10);
	return *end ? dflt : (int64_t)x;
}

static void apply(struct xd_settings *s, const char *key, const char *value)
{
	if (strcmp(key, "market_state") == 0) {
		int st = xd_lookup(xd_state_names, value);
		s->state = st < 0 ? EXCHANGE_PRE_OPEN : st;
	} else if (strcmp(key, "opens_at_ms") == 0) {
		s->opens_at_ms = to_int(value, -1);
	} else if (strcmp(key, "topup_url") == 0) {
		free(s->topup_url);
		s->topup_url = xstrdup(value);
	} else if (strcmp(key, "topup_text") == 0) {
		free(s->topup_text);
		s->topup_text = xstrdup(value);
	} else if (strcmp(key, "fee_trade_bp") == 0) {
		s->fee_trade_bp = (int32_t)to_int(value, 0);
	} else if (strcmp(key, "fee_forward_cancel_bp") == 0) {
		s->fee_forward_cancel_bp = (int32_t)to_int(value, 0);
	} else if (strcmp(key, "fee_resale_bp") == 0) {
		s->fee_resale_bp = (int32_t)to_int(value, 0);
	} else if (strcmp(key, "fx_max_age_s") == 0) {
		s->fx_max_age_s = to_int(value, 0);
	} else if (strcmp(key, "fx_halt_stale") == 0) {
		s->fx_halt_stale = to_int(value, 0) != 0;
	}
}

int xd_settings_load(struct xd_store *st, struct xd_settings **out)
{
	struct xd_settings *s = settings_new();
	enum xd_fault before = st->fault;
	s->version = (uint64_t)xd_meta_get(st, "settings_version", 0);
	struct xd_q *q = xd_stmt(st, "SELECT key, value FROM settings");
	while (xd_step(q) == XD_ROW)
		apply(s, xd_col_text(q, 0), xd_col_text(q, 1));
	xd_reset(q);
	q = xd_stmt(st, "SELECT code, exponent, rate_micro, rate_ms, source FROM currencies ORDER BY id");
	while (xd_step(q) == XD_ROW && s->n_cur < XD_CUR_MAX) {
		struct xd_currency *c = &s->cur[s->n_cur++];
		snprintf(c->code, sizeof c->code, "%s", xd_col_text(q, 0));
		c->exponent = xd_col_int(q, 1);
		c->rate_micro = xd_col_int64(q, 2);
		c->rate_ms = xd_col_int64(q, 3);
		const char *src = xd_col_text(q, 4);
		c->demo_rate = src && strcmp(src, "demo") == 0;
	}
	xd_reset(q);
	if (st->fault != XD_FAULT_NONE && before == XD_FAULT_NONE) {
		xd_settings_free(&s);
		return -1;
	}
	*out = s;
	return 0;
}

int xd_settings_cur(const struct xd_settings *s, const char *code)
{
	for (size_t i = 0; s && code && i < s->n_cur; i++)
		if (strcmp(s->cur[i].code, code) == 0)
			return (int)i;
	return -1;
}

const char *xd_cur_code(const struct xd_writer *w, int cur)
{
	if (!w->set || cur < 0 || (size_t)cur >= w->set->n_cur)
		fatal("gpuxd: currency %d is not in the settings", cur);
	return w->set->cur[cur].code;
}

/* ---- writing ------------------------------------------------------------------------ */

void xd_audit(struct xd_writer *w, int64_t admin_key, const char *action, const char *subject,
              const char *detail)
{
	xd_ops_begin(w);
	struct xd_q *q = xd_stmt(w->st, "INSERT INTO audit(at_ms, admin_key, action, subject, detail) "
	                                "VALUES(?1, ?2, ?3, ?4, ?5)");
	xd_bind_int64(q, 1, w->now);
	if (admin_key > 0)
		xd_bind_int64(q, 2, admin_key);
	xd_bind_text(q, 3, action);
	xd_bind_text(q, 4, subject);
	xd_bind_text(q, 5, detail);
	xd_step_done(w->st, q);
}

void xd_settings_put(struct xd_writer *w, const char *key, const char *value, int64_t admin_key,
                     const char *action)
{
	xd_ops_begin(w);
	struct xd_q *q;
	if (value) {
		q = xd_stmt(w->st, "INSERT INTO settings(key, value, updated_ms, admin_key) "
		                   "VALUES(?1, ?2, ?3, ?4) ON CONFLICT(key) DO UPDATE SET "
		                   "value = excluded.value, updated_ms = excluded.updated_ms, "
		                   "admin_key = excluded.admin_key");
		xd_bind_text(q, 2, value);
		xd_bind_int64(q, 3, w->now);
		if (admin_key > 0)
			xd_bind_int64(q, 4, admin_key);
	} else {
		q = xd_stmt(w->st, "DELETE FROM settings WHERE key = ?1");
	}
	xd_bind_text(q, 1, key);
	xd_step_done(w->st, q);
	if (action) {
		cJSON *d = cJSON_CreateObject();
		xd_jstr(d, key, value);
		char *text = cJSON_PrintUnformatted(d);
		xd_audit(w, admin_key, action, key, text);
		free(text);
		cJSON_Delete(d);
	}
}

static void put_int(struct xd_writer *w, const char *key, int64_t v, int64_t admin_key,
                    const char *action)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%" PRId64, v);
	xd_settings_put(w, key, buf, admin_key, action);
}

/* Read the settings again into w->set (a new version, or after a rollback);
 * the exchange's own accounts of a currency another node listed meanwhile. */
static void reload(struct xd_writer *w)
{
	struct xd_settings *s = NULL;
	if (xd_settings_load(w->st, &s) != 0)
		return;   /* a shared store that failed: the batch runs again */
	xd_settings_free(&w->set);
	w->set = s;
	w->set_stale = false;
	w->state = s->state;
	w->opens_at_ms = s->opens_at_ms;
	if (w->in_tx)
		xd_ops_system_accounts(w);
}

void xd_settings_changed(struct xd_writer *w)
{
	xd_ops_begin(w);
	struct xd_q *q = xd_stmt(w->st, "INSERT INTO meta(key, value) VALUES('settings_version', 1) "
	                                "ON CONFLICT(key) DO UPDATE SET value = meta.value + 1");
	xd_step_done(w->st, q);
	w->nodes->settings_changed(w);
	reload(w);
	w->set_changed = true;
}

/* ---- start-up -------------------------------------------------------------------------- */

static bool has_key(struct xd_store *st, const char *key)
{
	struct xd_q *q = xd_stmt(st, "SELECT 1 FROM settings WHERE key = ?1");
	xd_bind_text(q, 1, key);
	bool found = xd_step(q) == XD_ROW;
	xd_reset(q);
	return found;
}

static int64_t count_rows(struct xd_store *st, const char *sql)
{
	struct xd_q *q = xd_stmt(st, sql);
	int64_t n = xd_step(q) == XD_ROW ? xd_col_int64(q, 0) : 0;
	xd_reset(q);
	return n;
}

/* A flag the database's setting overrides: said once in the log. */
static void ignored(const char *flag, const char *given, const char *kept)
{
	fprintf(stderr, "gpuxd: %s %s is ignored: the database's setting is %s (flags only seed a "
	        "new database; change it with gpux admin)\n", flag, given, kept);
}

static void seed(struct xd_writer *w, const struct xd_market_config *c)
{
	bool fresh = count_rows(w->st, "SELECT count(*) FROM settings") == 0;
	if (!has_key(w->st, "market_state"))
		xd_settings_put(w, "market_state", xd_state_names[c->state], 0, NULL);
	if (fresh && c->opens_at_ms >= 0)
		put_int(w, "opens_at_ms", c->opens_at_ms, 0, NULL);
	if (fresh && c->topup_url)
		xd_settings_put(w, "topup_url", c->topup_url, 0, NULL);
	if (fresh && c->topup_text)
		xd_settings_put(w, "topup_text", c->topup_text, 0, NULL);
	if (fresh)
		xd_audit(w, 0, "seed", "settings", "{\"from\":\"the command line of the first start\"}");
	if (count_rows(w->st, "SELECT count(*) FROM currencies") == 0) {
		const struct xd_tables *t = w->t;
		for (size_t i = 0; i < t->n_fx; i++) {
			struct xd_q *q = xd_stmt(w->st, "INSERT INTO currencies(code, exponent, rate_micro, "
			                                "rate_ms, source, listed_ms) VALUES(?1, ?2, ?3, ?4, "
			                                "'demo', ?5)");
			xd_bind_text(q, 1, t->fx[i].code);
			xd_bind_int(q, 2, t->fx[i].exponent);
			xd_bind_int64(q, 3, t->fx[i].rate_micro);
			xd_bind_int64(q, 4, t->fx_date_ms);
			xd_bind_int64(q, 5, w->now);
			xd_step_done(w->st, q);
		}
	}
}

/* The flags that say otherwise than the database, for the log. */
static void compare(const struct xd_settings *s, const struct xd_market_config *c, bool fresh)
{
	if (fresh)
		return;
	if (c->state_given && c->state != s->state)
		ignored("--market", xd_state_names[c->state], xd_state_names[s->state]);
	if (c->opens_at_ms >= 0 && c->opens_at_ms != s->opens_at_ms) {
		char a[40], b[40] = "none";
		xd_time_fmt(c->opens_at_ms, a, sizeof a);
		if (s->opens_at_ms >= 0)
			xd_time_fmt(s->opens_at_ms, b, sizeof b);
		ignored("--opens-at", a, b);
	}
	if (c->topup_url && (!s->topup_url || strcmp(c->topup_url, s->topup_url) != 0))
		ignored("--topup-url", c->topup_url, s->topup_url ? s->topup_url : "none");
	if (c->topup_text && (!s->topup_text || strcmp(c->topup_text, s->topup_text) != 0))
		ignored("--topup-text", "(its text)", s->topup_text ? "another text" : "none");
}

int xd_settings_start(struct xd_writer *w, const struct xd_market_config *c, char **cause)
{
	xd_ops_begin(w);
	bool fresh = count_rows(w->st, "SELECT count(*) FROM settings") == 0;
	seed(w, c);
	struct xd_settings *s = NULL;
	if (xd_settings_load(w->st, &s) != 0)
		return set_cause(cause, "the settings could not be read");
	xd_settings_free(&w->set);
	w->set = s;
	w->set_changed = true;   /* published once the market opens */
	w->state = s->state;
	w->opens_at_ms = s->opens_at_ms;
	compare(s, c, fresh);   /* said even with --quiet: it is about the command line */
	if (xd_settings_cur(s, "USD") < 0)
		return set_cause(cause, "the database lists no USD (the base of every price)");
	bool demo_rates = false;
	for (size_t i = 0; i < s->n_cur; i++)
		demo_rates = demo_rates || (s->cur[i].demo_rate && strcmp(s->cur[i].code, "USD") != 0);
	if (demo_rates && !c->demo)
		fprintf(stderr, "gpuxd: WARNING: the FX rates are the embedded demo rates of %s, not market "
		        "rates; set real ones with: gpux admin fx set CURRENCY RATE\n", w->t->fx_date);
	return 0;
}

/* ---- each batch ---------------------------------------------------------------------------- */

/* The announced opening has come: open, once. */
static void scheduled_opening(struct xd_writer *w)
{
	const struct xd_settings *s = w->set;
	if (s->state == EXCHANGE_OPEN || s->opens_at_ms < 0 || w->now < s->opens_at_ms)
		return;
	xd_ops_begin(w);
	struct xd_q *q = xd_stmt(w->st,
		"UPDATE settings SET value = 'open', updated_ms = ?1, admin_key = NULL "
		"WHERE key = 'market_state' AND value <> 'open' AND EXISTS (SELECT 1 FROM settings o "
		"WHERE o.key = 'opens_at_ms' AND CAST(o.value AS bigint) <= ?1) RETURNING key");
	xd_bind_int64(q, 1, w->now);
	bool opened = xd_step(q) == XD_ROW;
	xd_reset(q);
	if (!opened)
		return;
	char at[40], detail[96];
	xd_time_fmt(s->opens_at_ms, at, sizeof at);
	snprintf(detail, sizeof detail, "{\"opens_at\":\"%s\",\"market_state\":\"open\"}", at);
	xd_settings_put(w, "opens_at_ms", NULL, 0, NULL);
	xd_audit(w, 0, "scheduled_opening", "market_state", detail);
	xd_settings_changed(w);
}

void xd_settings_batch(struct xd_writer *w, bool leader)
{
	if (w->set_stale || w->nodes->settings_version(w) != w->set->version) {
		reload(w);
		w->set_changed = true;   /* published after this batch's COMMIT */
	}
	w->state = w->set->state;
	w->opens_at_ms = w->set->opens_at_ms;
	if (leader)
		scheduled_opening(w);
}

/* ---- what clients are told --------------------------------------------------------------- */

int xd_settings_fx_stale(const struct xd_settings *s, int cur, int64_t now, char **msg)
{
	if (!s->fx_halt_stale || s->fx_max_age_s <= 0 || cur < 0 || (size_t)cur >= s->n_cur)
		return 0;
	const struct xd_currency *c = &s->cur[cur];
	if (strcmp(c->code, "USD") == 0 || now - c->rate_ms <= s->fx_max_age_s * 1000)
		return 0;
	*msg = xasprintf("the %s rate was set %" PRId64 " s ago and the exchange converts at rates "
	                 "at most %" PRId64 " s old: trading in %s waits for a new rate", c->code,
	                 (now - c->rate_ms) / 1000, s->fx_max_age_s, c->code);
	return 1;
}

static bool rate_stale(const struct xd_settings *s, const struct xd_currency *c, int64_t now)
{
	return s->fx_max_age_s > 0 && strcmp(c->code, "USD") != 0 &&
	       now - c->rate_ms > s->fx_max_age_s * 1000;
}

void xd_settings_json(const struct xd_settings *s, const struct xd_tables *t, int64_t now,
                      bool demo, cJSON *o)
{
	cJSON *arr = cJSON_AddArrayToObject(o, "currencies");
	for (size_t i = 0; i < s->n_cur; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(s->cur[i].code));
	bool demo_rates = false, any_stale = false;
	int64_t oldest = -1;
	cJSON *info = cJSON_AddArrayToObject(o, "currency_info");
	for (size_t i = 0; i < s->n_cur; i++) {
		const struct xd_currency *c = &s->cur[i];
		bool usd = strcmp(c->code, "USD") == 0;
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "code", c->code);
		xd_jint(x, "exponent", c->exponent);
		xd_jint(x, "rate_micro", c->rate_micro);
		xd_jtime(x, "rate_set_at", c->rate_ms);
		xd_jint(x, "rate_age_seconds", now > c->rate_ms ? (now - c->rate_ms) / 1000 : 0);
		cJSON_AddBoolToObject(x, "demo_rate", c->demo_rate);
		cJSON_AddBoolToObject(x, "stale", rate_stale(s, c, now));
		cJSON_AddItemToArray(info, x);
		if (!usd) {
			demo_rates = demo_rates || c->demo_rate;
			any_stale = any_stale || rate_stale(s, c, now);
			if (oldest < 0 || c->rate_ms < oldest)
				oldest = c->rate_ms;
		}
	}
	cJSON *fx = cJSON_AddObjectToObject(o, "fx");
	cJSON_AddStringToObject(fx, "base", "USD");
	char date[40] = "";
	if (oldest >= 0)
		xd_time_fmt(oldest, date, sizeof date);
	date[10] = 0;
	cJSON_AddStringToObject(fx, "date", oldest >= 0 ? date : t->fx_date);
	cJSON_AddStringToObject(fx, "note", demo_rates ? t->fx_note : "rates set by the operator");
	cJSON *r = cJSON_AddObjectToObject(fx, "rate_micro");
	for (size_t i = 0; i < s->n_cur; i++)
		xd_jint(r, s->cur[i].code, s->cur[i].rate_micro);
	cJSON_AddBoolToObject(fx, "demo_rates", demo_rates);
	/* a real exchange on the embedded rates says so, in words too */
	if (demo_rates && !demo)
		cJSON_AddStringToObject(fx, "warning", "this exchange converts at the embedded demo rates, "
		                        "not at market rates");
	xd_jint(fx, "max_age_seconds", s->fx_max_age_s);
	cJSON_AddBoolToObject(fx, "halt_when_stale", s->fx_halt_stale);
	cJSON_AddBoolToObject(fx, "stale", any_stale);
	cJSON *fees = cJSON_AddObjectToObject(o, "fees");
	xd_jint(fees, "trade_bp", s->fee_trade_bp);
	xd_jint(fees, "forward_cancel_bp", s->fee_forward_cancel_bp);
	xd_jint(fees, "resale_bp", s->fee_resale_bp);
	cJSON *tu = cJSON_AddObjectToObject(o, "topup");
	xd_jstr(tu, "url", s->topup_url);
	xd_jstr(tu, "text", s->topup_text);
}

/* ---- the routes --------------------------------------------------------------------------- */

static bool no_query(struct xd_ctx *c)
{
	static const char *const none[] = { NULL };
	return xd_query_check(c, none) == 0;
}

/* The reply of every settings route: GET /v1/admin/settings's body. */
static cJSON *settings_reply(struct xd_writer *w, bool changed)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "changed", changed);
	xd_jint(o, "version", (int64_t)w->set->version);
	cJSON_AddStringToObject(o, "state", xd_state_names[w->set->state]);
	xd_jtime(o, "opens_at", w->set->opens_at_ms);
	xd_jtime(o, "server_time", w->now);
	xd_settings_json(w->set, w->t, w->now, xd_market_demo(w->m), o);
	return o;
}

static void submit(struct xd_ctx *c, void (*run)(struct xd_writer *, struct xd_job *))
{
	c->job->kind = XD_JOB_RUN;
	c->job->run = run;
	c->job->admin_key_id = c->admin_key_id;
	xd_ctx_submit(c);
}

static void run_show(struct xd_writer *w, struct xd_job *j)
{
	xd_reply_json(&j->reply, 200, settings_reply(w, false));
}

void xd_settings_h_show(struct xd_ctx *c)
{
	if (!xd_admin_only(c) || !no_query(c))
		return;
	submit(c, run_show);   /* the writer's settings: what the next order meets */
}

/* POST /v1/admin/market: n[0] state or -1, flag[0] opens_at given, n[1] its ms or -1. */
int xd_parse_state(const char *body, size_t len, struct xd_job *j, struct xd_reply *r)
{
	static const char *const fields[] = { "state", "opens_at", NULL };
	cJSON *b = NULL;
	int state = -1, rc = -1, has;
	if (xd_body_parse(body, len, false, &b, r) ||
	    xd_body_fields(b, fields, r) ||
	    (has = xd_body_enum(b, "state", false, xd_state_names, &state, r)) < 0)
		goto out;
	const cJSON *oa = cJSON_GetObjectItemCaseSensitive(b, "opens_at");
	j->flag[0] = oa != NULL;
	j->n[1] = -1;
	if (oa && cJSON_IsString(oa)) {
		if (exchange_parse_time(oa->valuestring, &j->n[1]) != 0 || j->n[1] < 0) {
			xd_reply_field(r, "BAD_VALUE", "opens_at", "\"opens_at\" must be an ISO 8601 time "
			               "such as 2025-09-01T09:00:00Z, or null");
			goto out;
		}
	} else if (oa && !cJSON_IsNull(oa)) {
		xd_reply_field(r, "WRONG_TYPE", "opens_at", "\"opens_at\" must be a string or null");
		goto out;
	}
	if (!has && !oa) {
		xd_reply_field(r, "MISSING_FIELD", "state", "give \"state\", \"opens_at\" or both");
		goto out;
	}
	if (state == EXCHANGE_OPEN && oa && j->n[1] >= 0) {
		xd_reply_field(r, "BAD_COMBINATION", "opens_at", "an open market has no opening to "
		               "announce: \"opens_at\" goes with \"pre_open\" or \"halted\"");
		goto out;
	}
	j->n[0] = has ? state : -1;
	rc = 0;
out:
	cJSON_Delete(b);
	return rc;
}

static void run_market(struct xd_writer *w, struct xd_job *j)
{
	int state = j->n[0] >= 0 ? (int)j->n[0] : w->set->state;
	int64_t opens = j->flag[0] ? j->n[1] : state == EXCHANGE_OPEN ? -1 : w->set->opens_at_ms;
	if (j->flag[0] && opens >= 0 && opens <= w->now) {
		char now[40];
		xd_time_fmt(w->now, now, sizeof now);
		xd_reply_field(&j->reply, "BAD_VALUE", "opens_at", "\"opens_at\" is in the past: the "
		               "exchange clock says %s", now);
		return;
	}
	if (j->n[0] < 0 && w->set->state == EXCHANGE_OPEN && opens >= 0) {
		cJSON *e = xd_reply_error(&j->reply, 409, "MARKET_OPEN", "the market is open: halt it "
		                          "first to announce a reopening");
		cJSON_AddStringToObject(e, "state", "open");
		return;
	}
	bool changed = state != w->set->state || opens != w->set->opens_at_ms;
	if (changed) {
		if (state != w->set->state)
			xd_settings_put(w, "market_state", xd_state_names[state], j->admin_key_id, "market");
		if (opens != w->set->opens_at_ms) {
			if (opens >= 0) {
				char v[32], iso[40], detail[64];
				snprintf(v, sizeof v, "%" PRId64, opens);
				xd_settings_put(w, "opens_at_ms", v, j->admin_key_id, NULL);
				xd_time_fmt(opens, iso, sizeof iso);
				snprintf(detail, sizeof detail, "{\"opens_at\":\"%s\"}", iso);
				xd_audit(w, j->admin_key_id, "schedule", "opens_at", detail);
			} else {
				xd_settings_put(w, "opens_at_ms", NULL, j->admin_key_id, NULL);
				xd_audit(w, j->admin_key_id, "schedule", "opens_at", "{\"opens_at\":null}");
			}
		}
		xd_settings_changed(w);
	}
	/* the writer's own view: the snapshot is published after COMMIT */
	cJSON *o = xd_market_info_of(w->m, w->set);
	cJSON_AddBoolToObject(o, "changed", changed);
	xd_reply_json(&j->reply, 200, o);
}

void xd_settings_h_market(struct xd_ctx *c)
{
	if (!xd_admin_only(c) || !no_query(c) || xd_parse_state(c->body, c->body_len, c->job, &c->reply))
		return;
	submit(c, run_market);
}

/* POST /v1/admin/fx: str[0] currency ("" none), n[0] rate_micro (0 none),
 * n[1] exponent (-1 none), n[2] as_of ms (-1: now), n[3] max_age_seconds (-1
 * none), flag[0] halt_when_stale given, flag[1] its value. */
static int parse_fx(const char *body, size_t len, struct xd_job *j, struct xd_reply *r)
{
	static const char *const fields[] = { "currency", "rate_micro", "exponent", "as_of",
	                                      "max_age_seconds", "halt_when_stale", NULL };
	cJSON *b = NULL;
	const char *code = NULL, *as_of = NULL;
	int rc = -1, has_code, has_rate, has_exp, has_as_of, has_age, has_halt;
	int64_t rate = 0, exp = -1, age = -1;
	bool halt = false;
	if (xd_body_parse(body, len, false, &b, r) || xd_body_fields(b, fields, r) ||
	    (has_code = xd_body_str(b, "currency", false, 3, &code, r)) < 0 ||
	    (has_rate = xd_body_int(b, "rate_micro", false, 1, INT64_C(1000000000000000), &rate, r)) < 0 ||
	    (has_exp = xd_body_int(b, "exponent", false, 0, 4, &exp, r)) < 0 ||
	    (has_as_of = xd_body_str(b, "as_of", false, 40, &as_of, r)) < 0 ||
	    (has_age = xd_body_int(b, "max_age_seconds", false, 0, XD_ADVANCE_MAX, &age, r)) < 0 ||
	    (has_halt = xd_body_bool(b, "halt_when_stale", false, &halt, r)) < 0)
		goto out;
	if (has_code && util_ccy_exponent(code) < 0) {
		xd_reply_field(r, "BAD_VALUE", "currency", "\"currency\" must be an ISO 4217 code: three "
		               "capital letters such as CHF");
		goto out;
	}
	if (has_code != has_rate) {
		xd_reply_field(r, has_code ? "MISSING_FIELD" : "BAD_COMBINATION",
		               has_code ? "rate_micro" : "rate_micro", "\"currency\" and \"rate_micro\" "
		               "go together: the rate of that currency, units per USD x 10^6");
		goto out;
	}
	if ((has_exp || has_as_of) && !has_code) {
		xd_reply_field(r, "BAD_COMBINATION", has_exp ? "exponent" : "as_of", "\"%s\" goes with "
		               "\"currency\" and \"rate_micro\"", has_exp ? "exponent" : "as_of");
		goto out;
	}
	if (has_exp && exp != util_ccy_exponent(code)) {
		xd_reply_field(r, "BAD_VALUE", "exponent", "the ISO 4217 minor unit of %s has %d digits, "
		               "not %" PRId64, code, util_ccy_exponent(code), exp);
		goto out;
	}
	j->n[2] = -1;
	if (has_as_of && (exchange_parse_time(as_of, &j->n[2]) != 0 || j->n[2] < 0)) {
		xd_reply_field(r, "BAD_VALUE", "as_of", "\"as_of\" must be an ISO 8601 time such as "
		               "2025-09-01T09:00:00Z");
		goto out;
	}
	if (!has_code && !has_age && !has_halt) {
		xd_reply_field(r, "MISSING_FIELD", "currency", "give a rate (\"currency\", "
		               "\"rate_micro\"), \"max_age_seconds\" or \"halt_when_stale\"");
		goto out;
	}
	snprintf(j->str[0], sizeof j->str[0], "%s", has_code ? code : "");
	j->n[0] = has_rate ? rate : 0;
	j->n[1] = has_code ? util_ccy_exponent(code) : -1;
	j->n[3] = has_age ? age : -1;
	j->flag[0] = has_halt;
	j->flag[1] = halt;
	rc = 0;
out:
	cJSON_Delete(b);
	return rc;
}

static bool set_rate(struct xd_writer *w, struct xd_job *j)
{
	const char *code = j->str[0];
	int64_t at = j->n[2] >= 0 ? j->n[2] : w->now;
	if (at > w->now) {
		xd_reply_field(&j->reply, "BAD_VALUE", "as_of", "\"as_of\" is after the exchange clock");
		return false;
	}
	int cur = xd_settings_cur(w->set, code);
	if (strcmp(code, "USD") == 0 && j->n[0] != 1000000) {
		xd_reply_field(&j->reply, "BAD_VALUE", "rate_micro", "USD is the base: its rate is "
		               "1000000 (prices are US cents)");
		return false;
	}
	if (cur < 0 && w->set->n_cur >= XD_CUR_MAX) {
		cJSON *e = xd_reply_error(&j->reply, 409, "TOO_MANY_CURRENCIES", "the exchange lists %d "
		                          "currencies already", XD_CUR_MAX);
		xd_jint(e, "max", XD_CUR_MAX);
		return false;
	}
	if (cur >= 0 && w->set->cur[cur].rate_micro == j->n[0] && w->set->cur[cur].rate_ms == at &&
	    !w->set->cur[cur].demo_rate)
		return false;   /* the same rate, set at the same time: nothing to do */
	struct xd_q *q;
	if (cur >= 0) {
		q = xd_stmt(w->st, "UPDATE currencies SET rate_micro = ?2, rate_ms = ?3, "
		                   "source = 'operator' WHERE code = ?1");
	} else {
		q = xd_stmt(w->st, "INSERT INTO currencies(code, exponent, rate_micro, rate_ms, source, "
		                   "listed_ms) VALUES(?1, ?4, ?2, ?3, 'operator', ?5)");
		xd_bind_int64(q, 4, j->n[1]);
		xd_bind_int64(q, 5, w->now);
	}
	xd_bind_text(q, 1, code);
	xd_bind_int64(q, 2, j->n[0]);
	xd_bind_int64(q, 3, at);
	xd_step_done(w->st, q);
	char iso[40], detail[400];
	xd_time_fmt(at, iso, sizeof iso);
	snprintf(detail, sizeof detail, "{\"currency\":\"%s\",\"rate_micro\":%" PRId64 ",\"exponent\":"
	         "%" PRId64 ",\"as_of\":\"%s\",\"listed\":%s}", code, j->n[0],
	         cur >= 0 ? (int64_t)w->set->cur[cur].exponent : j->n[1], iso, cur < 0 ? "true" : "false");
	xd_audit(w, j->admin_key_id, cur < 0 ? "fx_list" : "fx_rate", code, detail);
	return true;
}

static void run_fx(struct xd_writer *w, struct xd_job *j)
{
	bool changed = false;
	xd_ops_begin(w);
	if (j->str[0][0]) {
		changed = set_rate(w, j);
		if (j->reply.status)
			return;
	}
	if (j->n[3] >= 0 && j->n[3] != w->set->fx_max_age_s) {
		put_int(w, "fx_max_age_s", j->n[3], j->admin_key_id, "fx_limit");
		changed = true;
	}
	if (j->flag[0] && j->flag[1] != w->set->fx_halt_stale) {
		put_int(w, "fx_halt_stale", j->flag[1], j->admin_key_id, "fx_limit");
		changed = true;
	}
	if (changed)
		xd_settings_changed(w);
	xd_reply_json(&j->reply, 200, settings_reply(w, changed));
}

void xd_settings_h_fx(struct xd_ctx *c)
{
	if (!xd_admin_only(c) || !no_query(c) || parse_fx(c->body, c->body_len, c->job, &c->reply))
		return;
	submit(c, run_fx);
}

/* POST /v1/admin/fees: n[0..2] trade, forward-cancel, resale bp (-1: not given). */
static int parse_fees(const char *body, size_t len, struct xd_job *j, struct xd_reply *r)
{
	static const char *const fields[] = { "trade_bp", "forward_cancel_bp", "resale_bp", NULL };
	cJSON *b = NULL;
	int rc = -1, any = 0;
	for (int i = 0; i < 3; i++)
		j->n[i] = -1;
	if (xd_body_parse(body, len, false, &b, r) == 0 && xd_body_fields(b, fields, r) == 0) {
		rc = 0;
		for (int i = 0; i < 3 && rc == 0; i++) {
			int has = xd_body_int(b, fields[i], false, 0, XD_FEE_BP_MAX, &j->n[i], r);
			if (has < 0)
				rc = -1;
			any += has > 0;
		}
		if (rc == 0 && !any) {
			xd_reply_field(r, "MISSING_FIELD", "trade_bp", "give \"trade_bp\", "
			               "\"forward_cancel_bp\" or \"resale_bp\" (basis points, 0..%d)",
			               XD_FEE_BP_MAX);
			rc = -1;
		}
	}
	cJSON_Delete(b);
	return rc;
}

static void run_fees(struct xd_writer *w, struct xd_job *j)
{
	static const char *const keys[] = { "fee_trade_bp", "fee_forward_cancel_bp", "fee_resale_bp" };
	const int32_t now[] = { w->set->fee_trade_bp, w->set->fee_forward_cancel_bp,
	                        w->set->fee_resale_bp };
	bool changed = false;
	for (int i = 0; i < 3; i++) {
		if (j->n[i] >= 0 && j->n[i] != now[i]) {
			put_int(w, keys[i], j->n[i], j->admin_key_id, "fees");
			changed = true;
		}
	}
	if (changed)
		xd_settings_changed(w);
	xd_reply_json(&j->reply, 200, settings_reply(w, changed));
}

void xd_settings_h_fees(struct xd_ctx *c)
{
	if (!xd_admin_only(c) || !no_query(c) || parse_fees(c->body, c->body_len, c->job, &c->reply))
		return;
	submit(c, run_fees);
}

/* POST /v1/admin/topup: flag[0] url given (str[0], "" = null), flag[1] text
 * given (text, "" = null). */
static int parse_topup(const char *body, size_t len, struct xd_job *j, struct xd_reply *r)
{
	static const char *const fields[] = { "url", "text", NULL };
	cJSON *b = NULL;
	int rc = -1;
	if (xd_body_parse(body, len, false, &b, r) || xd_body_fields(b, fields, r))
		goto out;
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(b, "url");
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(b, "text");
	if (!u && !t) {
		xd_reply_field(r, "MISSING_FIELD", "url", "give \"url\", \"text\" or both (null clears)");
		goto out;
	}
	for (int i = 0; i < 2; i++) {
		const cJSON *v = i ? t : u;
		const char *k = i ? "text" : "url";
		if (!v || cJSON_IsNull(v))
			continue;
		if (!cJSON_IsString(v)) {
			xd_reply_field(r, "WRONG_TYPE", k, "\"%s\" must be a string or null", k);
			goto out;
		}
		char *why = NULL;
		if (exchange_topup_check(i ? NULL : v->valuestring, i ? v->valuestring : NULL, &why) != 0) {
			/* the flag's words, for a field */
			char *f = strstr(why, ": ");
			xd_reply_field(r, "BAD_VALUE", k, "\"%s\": %s", k, f ? f + 2 : why);
			free(why);
			goto out;
		}
	}
	j->flag[0] = u != NULL;
	j->flag[1] = t != NULL;
	snprintf(j->str[0], sizeof j->str[0], "%s", u && cJSON_IsString(u) ? u->valuestring : "");
	if (u && cJSON_IsString(u) && strlen(u->valuestring) >= sizeof j->str[0]) {
		xd_reply_field(r, "STRING_TOO_LONG", "url", "\"url\" is longer than %zu bytes",
		               sizeof j->str[0] - 1);
		goto out;
	}
	snprintf(j->text, sizeof j->text, "%s", t && cJSON_IsString(t) ? t->valuestring : "");
	rc = 0;
out:
	cJSON_Delete(b);
	return rc;
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void run_topup(struct xd_writer *w, struct xd_job *j)
{
	bool changed = false;
	const char *url = j->str[0][0] ? j->str[0] : NULL, *text = j->text[0] ? j->text : NULL;
	if (j->flag[0] && !same(url, w->set->topup_url)) {
		xd_settings_put(w, "topup_url", url, j->admin_key_id, "topup");
		changed = true;
	}
	if (j->flag[1] && !same(text, w->set->topup_text)) {
		xd_settings_put(w, "topup_text", text, j->admin_key_id, "topup");
		changed = true;
	}
	if (changed)
		xd_settings_changed(w);
	xd_reply_json(&j->reply, 200, settings_reply(w, changed));
}

void xd_settings_h_topup(struct xd_ctx *c)
{
	if (!xd_admin_only(c) || !no_query(c) || parse_topup(c->body, c->body_len, c->job, &c->reply))
		return;
	submit(c, run_topup);
}

/* ---- the market's copy -------------------------------------------------------------------- */

struct xd_settings *xd_settings_copy(const struct xd_settings *s)
{
	return settings_copy(s);
}
