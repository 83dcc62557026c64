/*
 * api/admin.c — money out and the operator's routes (api.h, "money out and
 * the operator's routes"): withdrawals, deposits by reference and their
 * reversals, the exchange's settings (market state, FX, fees, top-up), admin
 * keys, and the operator's reads of accounts and ledgers, as blocking calls
 * on the request engine of client.c.
 *
 * The decoders are as strict as wire.c's: every field checked, every string
 * sanitised; a new admin key is checked for its shape and never quoted in a
 * message. Every call that changes something is safe to send again (its
 * reference, or its value, makes a repeat a no-op on the exchange), so they
 * are retried like orders, except the creation of an admin key.
 */
#include "api/wire_int.h"

#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const wd_names[] = {"pending", "sent", "rejected"};
static const char *const state_names[] = {"pre_open", "open", "halted"};

const char *api_withdrawal_status_name(enum api_withdrawal_status v)
{
	return (unsigned)v < 3 ? wd_names[v] : "?";
}

/* ---- frees ---------------------------------------------------------------------------- */

static void wd_clear(struct api_withdrawal *w)
{
	free(w->currency);
	free(w->reference);
	free(w->payout_reference);
	free(w->reason);
	memset(w, 0, sizeof *w);
}

void api_withdrawal_free(struct api_withdrawal **p)
{
	if (p == NULL || *p == NULL)
		return;
	wd_clear(*p);
	free(*p);
	*p = NULL;
}

void api_withdrawals_free(struct api_withdrawals **p)
{
	if (p == NULL || *p == NULL)
		return;
	for (size_t i = 0; i < (*p)->n; i++)
		wd_clear(&(*p)->v[i]);
	free((*p)->v);
	free((*p)->next_cursor);
	free(*p);
	*p = NULL;
}

void api_currency_info_clear(struct api_currency_info *v, size_t n)
{
	for (size_t i = 0; v != NULL && i < n; i++)
		free(v[i].code);
	free(v);
}

void api_exchange_settings_free(struct api_exchange_settings **p)
{
	if (p == NULL || *p == NULL)
		return;
	free((*p)->topup_url);
	free((*p)->topup_text);
	api_currency_info_clear((*p)->cur, (*p)->n_cur);
	free(*p);
	*p = NULL;
}

static void key_clear(struct api_admin_key *k)
{
	free(k->name);
	xfree_secret(k->secret);
	memset(k, 0, sizeof *k);
}

void api_admin_key_free(struct api_admin_key **p)
{
	if (p == NULL || *p == NULL)
		return;
	key_clear(*p);
	free(*p);
	*p = NULL;
}

void api_admin_keys_free(struct api_admin_keys **p)
{
	if (p == NULL || *p == NULL)
		return;
	for (size_t i = 0; i < (*p)->n; i++)
		key_clear(&(*p)->v[i]);
	free((*p)->v);
	free(*p);
	*p = NULL;
}

void api_accounts_free(struct api_accounts **p)
{
	if (p == NULL || *p == NULL)
		return;
	for (size_t i = 0; i < (*p)->n; i++) {
		struct api_account *a = xmalloc(sizeof *a);
		*a = (*p)->v[i];
		api_account_free(&a);
	}
	free((*p)->v);
	free((*p)->next_cursor);
	free(*p);
	*p = NULL;
}

/* ---- decoders ------------------------------------------------------------------------- */

static int dec_wd_into(const cJSON *o, const char *p, struct api_withdrawal *w, char **cause)
{
	DEC_INT(o, p, "id", 1, MAX_ID, w->id);
	DEC_INT(o, p, "account_id", 1, MAX_ID, w->account_id);
	DEC_INT(o, p, "amount_minor", 1, MAX_MONEY, w->amount_minor);
	DEC_STR(o, p, "currency", SHORT, w->currency);
	DEC_STR(o, p, "reference", SHORT, w->reference);
	DEC_ENUM(o, p, "status", wd_names, w->status);
	DEC_TIME(o, p, "requested_at", w->requested_at);
	DEC_TIME_OPT(o, p, "decided_at", w->decided_at);
	DEC_STR_OPT(o, p, "payout_reference", SHORT, w->payout_reference);
	DEC_STR_OPT(o, p, "reason", LONG, w->reason);
	w->replayed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "replayed"));
	if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(o, "balance"))) {
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "balance");
		char *bp = api_json_path(p, "balance");
		int rc = api_json_int(b, bp, "available_minor", 0, MAX_MONEY,
				      &w->balance.available_minor, cause) ||
			 api_json_int(b, bp, "held_minor", 0, MAX_MONEY, &w->balance.held_minor, cause) ||
			 api_json_int(b, bp, "total_minor", 0, MAX_MONEY, &w->balance.total_minor, cause);
		free(bp);
		if (rc != 0)
			goto fail;
		w->has_balance = true;
	}
	return 0;
fail:
	return -1;
}

static int dec_wd(const cJSON *root, long status, void **out, char **cause)
{
	struct api_withdrawal *w = xcalloc(1, sizeof *w);

	(void)status;
	if (dec_wd_into(root, "", w, cause) != 0) {
		api_withdrawal_free(&w);
		return -1;
	}
	*out = w;
	return 0;
}

static int wd_item(const cJSON *it, const char *path, void *dst, size_t i, void *ctx, char **cause)
{
	(void)i;
	(void)ctx;
	return dec_wd_into(it, path, dst, cause);
}

static int dec_wds(const cJSON *root, long status, void **out, char **cause)
{
	struct api_withdrawals *l = xcalloc(1, sizeof *l);
	void *v = NULL;

	(void)status;
	if (api_dec_list(root, "", "withdrawals", sizeof *l->v, wd_item, NULL, &v, &l->n, cause) != 0 ||
	    api_json_str_opt(root, "", "next_cursor", SHORT, &l->next_cursor, cause) != 0) {
		l->v = v;
		api_withdrawals_free(&l);
		return -1;
	}
	l->v = v;
	*out = l;
	return 0;
}

static int cur_item(const cJSON *it, const char *p, void *dst, size_t i, void *ctx, char **cause)
{
	struct api_currency_info *c = dst;
	(void)i;
	(void)ctx;
	DEC_STR(it, p, "code", SHORT, c->code);
	DEC_INT(it, p, "exponent", 0, 4, c->exponent);
	DEC_INT(it, p, "rate_micro", 1, MAX_MONEY, c->rate_micro);
	DEC_TIME(it, p, "rate_set_at", c->rate_set_at);
	DEC_INT(it, p, "rate_age_seconds", 0, MAX_MONEY, c->rate_age_s);
	if (api_json_bool(it, p, "demo_rate", &c->demo_rate, cause) != 0 ||
	    api_json_bool(it, p, "stale", &c->stale, cause) != 0)
		goto fail;
	return 0;
fail:
	return -1;
}

static int dec_settings(const cJSON *o, long status, void **out, char **cause)
{
	struct api_exchange_settings *s = xcalloc(1, sizeof *s);
	const cJSON *fees, *fx, *tu;
	void *v = NULL;

	(void)status;
	if (api_json_bool(o, "", "changed", &s->changed, cause) != 0)
		goto fail;
	DEC_INT(o, "", "version", 0, MAX_ID, s->version);
	DEC_ENUM(o, "", "state", state_names, s->state);
	DEC_TIME_OPT(o, "", "opens_at", s->opens_at);
	DEC_TIME(o, "", "server_time", s->server_time);
	if ((fees = api_json_object(o, "", "fees", cause)) == NULL)
		goto fail;
	DEC_INT(fees, "fees", "trade_bp", 0, 10000, s->fee_trade_bp);
	DEC_INT(fees, "fees", "forward_cancel_bp", 0, 10000, s->fee_forward_cancel_bp);
	DEC_INT(fees, "fees", "resale_bp", 0, 10000, s->fee_resale_bp);
	if ((fx = api_json_object(o, "", "fx", cause)) == NULL)
		goto fail;
	DEC_INT(fx, "fx", "max_age_seconds", 0, MAX_MONEY, s->fx_max_age_s);
	if (api_json_bool(fx, "fx", "halt_when_stale", &s->fx_halt_stale, cause) != 0 ||
	    api_json_bool(fx, "fx", "demo_rates", &s->fx_demo_rates, cause) != 0)
		goto fail;
	if ((tu = api_json_object(o, "", "topup", cause)) == NULL)
		goto fail;
	DEC_STR_OPT(tu, "topup", "url", 2048, s->topup_url);
	DEC_STR_OPT(tu, "topup", "text", 4096, s->topup_text);
	if (api_dec_list(o, "", "currency_info", sizeof *s->cur, cur_item, NULL, &v, &s->n_cur,
			 cause) != 0) {
		s->cur = v;
		goto fail;
	}
	s->cur = v;
	*out = s;
	return 0;
fail:
	api_exchange_settings_free(&s);
	return -1;
}

static int dec_key_into(const cJSON *o, const char *p, bool secret, struct api_admin_key *k,
			char **cause)
{
	DEC_INT(o, p, "id", 1, MAX_ID, k->id);
	DEC_STR(o, p, "name", 256, k->name);
	DEC_TIME(o, p, "created_at", k->created_at);
	DEC_INT_NULL(o, p, "created_by", 1, MAX_ID, k->created_by);
	DEC_TIME_OPT(o, p, "last_used_at", k->last_used_at);
	DEC_TIME_OPT(o, p, "revoked_at", k->revoked_at);
	if (api_json_bool(o, p, "current", &k->current, cause) != 0)
		goto fail;
	if (secret) {
		const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "api_key");
		/* secret: never quoted in a message */
		if (!cJSON_IsString(s) || strlen(s->valuestring) < 16 || strlen(s->valuestring) > 256 ||
		    strspn(s->valuestring, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
			    strlen(s->valuestring)) {
			set_cause(cause, "api_key: expected an admin key of 16 to 256 letters, digits "
					 "or '_'");
			goto fail;
		}
		k->secret = xstrdup(s->valuestring);
	}
	return 0;
fail:
	return -1;
}

static int dec_key(const cJSON *o, long status, void **out, char **cause)
{
	struct api_admin_key *k = xcalloc(1, sizeof *k);

	if (dec_key_into(o, "", status == 201, k, cause) != 0) {
		api_admin_key_free(&k);
		return -1;
	}
	*out = k;
	return 0;
}

static int key_item(const cJSON *it, const char *path, void *dst, size_t i, void *ctx, char **cause)
{
	(void)i;
	(void)ctx;
	return dec_key_into(it, path, false, dst, cause);
}

static int dec_keys(const cJSON *o, long status, void **out, char **cause)
{
	struct api_admin_keys *l = xcalloc(1, sizeof *l);
	void *v = NULL;

	(void)status;
	if (api_dec_list(o, "", "keys", sizeof *l->v, key_item, NULL, &v, &l->n, cause) != 0) {
		l->v = v;
		api_admin_keys_free(&l);
		return -1;
	}
	l->v = v;
	*out = l;
	return 0;
}

static int acct_item(const cJSON *it, const char *path, void *dst, size_t i, void *ctx,
		     char **cause)
{
	void *one = NULL;
	(void)i;
	(void)ctx;
	if (api_dec_account(it, 200, &one, cause) != 0) {
		char *c = *cause;
		*cause = xasprintf("%s: %s", path, c != NULL ? c : "");
		free(c);
		return -1;
	}
	memcpy(dst, one, sizeof(struct api_account));
	free(one);
	return 0;
}

static int dec_accounts(const cJSON *o, long status, void **out, char **cause)
{
	struct api_accounts *l = xcalloc(1, sizeof *l);
	void *v = NULL;

	(void)status;
	if (api_dec_list(o, "", "accounts", sizeof *l->v, acct_item, NULL, &v, &l->n, cause) != 0 ||
	    api_json_str_opt(o, "", "next_cursor", SHORT, &l->next_cursor, cause) != 0) {
		l->v = v;
		api_accounts_free(&l);
		return -1;
	}
	l->v = v;
	*out = l;
	return 0;
}

/* The market of POST /v1/admin/market, with its "changed". */
struct market_changed {
	struct api_market *m;
	bool changed;
};

static int dec_market_changed(const cJSON *o, long status, void **out, char **cause)
{
	struct market_changed *r = xcalloc(1, sizeof *r);
	void *m = NULL;

	if (api_dec_market(o, status, &m, cause) != 0 ||
	    api_json_bool(o, "", "changed", &r->changed, cause) != 0) {
		struct api_market *mm = m;
		api_market_free(&mm);
		free(r);
		return -1;
	}
	r->m = m;
	*out = r;
	return 0;
}

/* ---- requests --------------------------------------------------------------------------- */

typedef void (*any_cb)(void *ud, void *reply, const struct api_error *e);

static void deliver_any(struct api_call *call, void *reply, const struct api_error *e)
{
	any_cb cb = (any_cb)api_call_cb(call);

	cb(api_call_ud(call), reply, e);
}

static void free_wd(void *r) { api_withdrawal_free((struct api_withdrawal **)&r); }
static void free_wds(void *r) { api_withdrawals_free((struct api_withdrawals **)&r); }
static void free_settings(void *r) { api_exchange_settings_free((struct api_exchange_settings **)&r); }
static void free_key(void *r) { api_admin_key_free((struct api_admin_key **)&r); }
static void free_keys(void *r) { api_admin_keys_free((struct api_admin_keys **)&r); }
static void free_accounts(void *r) { api_accounts_free((struct api_accounts **)&r); }
static void free_deposit(void *r) { api_deposit_free((struct api_deposit **)&r); }
static void free_ledger(void *r) { api_ledger_free((struct api_ledger **)&r); }
static void free_mc(void *r)
{
	struct market_changed *mc = r;
	api_market_free(&mc->m);
	free(mc);
}

static const struct api_ep ep_wd = {"withdrawal", dec_wd, free_wd, deliver_any, NULL, NULL, false};
static const struct api_ep ep_wds = {"withdrawals", dec_wds, free_wds, deliver_any, NULL, NULL, false};
static const struct api_ep ep_settings = {"settings", dec_settings, free_settings, deliver_any, NULL,
					  NULL, false};
static const struct api_ep ep_key = {"admin key", dec_key, free_key, deliver_any, NULL, NULL, false};
static const struct api_ep ep_keys = {"admin keys", dec_keys, free_keys, deliver_any, NULL, NULL, false};
static const struct api_ep ep_accounts = {"accounts", dec_accounts, free_accounts, deliver_any, NULL,
					  NULL, false};
static const struct api_ep ep_deposit = {"deposit", api_dec_deposit, free_deposit, deliver_any, NULL,
					 NULL, false};
static const struct api_ep ep_ledger = {"ledger", api_dec_ledger, free_ledger, deliver_any, NULL,
					NULL, false};
static const struct api_ep ep_market = {"market", dec_market_changed, free_mc, deliver_any, NULL,
					NULL, false};

struct wait {
	bool done;
	void *reply;
	struct api_error *err;
};

static char *dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

static void wait_cb(void *ud, void *reply, const struct api_error *e)
{
	struct wait *w = ud;

	w->done = true;
	w->reply = reply;
	if (e != NULL) {
		struct api_error *c = xcalloc(1, sizeof *c);
		*c = *e;
		c->code = dup_or_null(e->code);
		c->message = xstrdup(e->message != NULL ? e->message : "");
		c->request_id = dup_or_null(e->request_id);
		c->client_order_id = dup_or_null(e->client_order_id);
		c->field = dup_or_null(e->field);
		c->currency = dup_or_null(e->currency);
		w->err = c;
	}
}

static int run(struct api_client *c, const char *method, char *path, cJSON *body,
	       enum api_retry retry, const struct api_ep *ep, void **out, struct api_error **err)
{
	struct wait w = {0};
	char *text = NULL;

	if (body != NULL) {
		char *s = cJSON_PrintUnformatted(body);
		if (s == NULL)
			fatal("out of memory");
		text = xstrdup(s);
		cJSON_free(s);
		cJSON_Delete(body);
	}
	struct api_req r = {
		.method = method, .path = path, .body = text, .retry = retry, .ep = ep,
		.cb = (void (*)(void))wait_cb, .ud = &w,
	};
	uint64_t id = api_call_start(c, &r);

	api_run_until_done(c, id, &w.done);
	*out = w.reply;
	if (err != NULL)
		*err = w.err;
	else
		api_error_free(&w.err);
	return w.reply != NULL ? 0 : -1;
}

static void add_int(cJSON *o, const char *name, int64_t v)
{
	char num[24];

	snprintf(num, sizeof num, "%lld", (long long)v);
	cJSON_AddItemToObject(o, name, cJSON_CreateRaw(num));
}

/* base?status=…&cursor=…&limit=… (values are plain tokens here; the free
 * text of an account search is escaped by the caller). */
static char *list_path(const char *base, const char *status, const char *q_text,
		       const struct api_list_query *q)
{
	struct buf b = {0};

	buf_puts(&b, base);
	if (status != NULL)
		buf_printf(&b, "%cstatus=%s", strchr(b.data, '?') ? '&' : '?', status);
	if (q_text != NULL) {
		buf_printf(&b, "%cq=", strchr(b.data, '?') ? '&' : '?');
		for (const unsigned char *p = (const unsigned char *)q_text; *p; p++) {
			if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			    (*p >= '0' && *p <= '9') || strchr("-._~@", *p))
				buf_putc(&b, (char)*p);
			else
				buf_printf(&b, "%%%02X", *p);
		}
	}
	if (q != NULL && q->cursor != NULL)
		buf_printf(&b, "%ccursor=%s", strchr(b.data, '?') ? '&' : '?', q->cursor);
	if (q != NULL && q->limit > 0)
		buf_printf(&b, "%climit=%d", strchr(b.data, '?') ? '&' : '?', q->limit);
	return buf_take(&b);
}

int api_withdraw(struct api_client *c, int64_t amount_minor, const char *reference,
		 struct api_withdrawal **out, struct api_error **err)
{
	cJSON *b = cJSON_CreateObject();
	add_int(b, "amount_minor", amount_minor);
	cJSON_AddStringToObject(b, "reference", reference);
	return run(c, "POST", xstrdup("/v1/withdrawals"), b, API_RETRY_ORDER, &ep_wd, (void **)out,
		   err);
}

int api_withdrawals(struct api_client *c, bool admin, const char *status,
		    const struct api_list_query *q, struct api_withdrawals **out,
		    struct api_error **err)
{
	return run(c, "GET", list_path(admin ? "/v1/admin/withdrawals" : "/v1/withdrawals", status,
				       NULL, q), NULL, API_RETRY_READ, &ep_wds, (void **)out, err);
}

int api_admin_decide(struct api_client *c, int64_t id, bool approve, const char *text,
		     struct api_withdrawal **out, struct api_error **err)
{
	cJSON *b = cJSON_CreateObject();
	if (text != NULL)
		cJSON_AddStringToObject(b, approve ? "reference" : "reason", text);
	return run(c, "POST", xasprintf("/v1/admin/withdrawals/%lld/%s", (long long)id,
					approve ? "approve" : "reject"), b, API_RETRY_ORDER, &ep_wd,
		   (void **)out, err);
}

int api_admin_deposit(struct api_client *c, int64_t account, int64_t amount_minor,
		      const char *reference, struct api_deposit **out, struct api_error **err)
{
	cJSON *b = cJSON_CreateObject();
	add_int(b, "account_id", account);
	add_int(b, "amount_minor", amount_minor);
	if (reference != NULL)
		cJSON_AddStringToObject(b, "reference", reference);
	/* with a reference, the same request credits once however often it is sent */
	return run(c, "POST", xstrdup("/v1/deposits"), b,
		   reference != NULL ? API_RETRY_ORDER : API_RETRY_UNSAFE, &ep_deposit, (void **)out,
		   err);
}

int api_admin_reverse(struct api_client *c, const char *reference, bool debt, const char *reason,
		      struct api_deposit **out, struct api_error **err)
{
	cJSON *b = cJSON_CreateObject();
	cJSON_AddStringToObject(b, "reference", reference);
	if (debt)
		cJSON_AddTrueToObject(b, "debt");
	if (reason != NULL)
		cJSON_AddStringToObject(b, "reason", reason);
	return run(c, "POST", xstrdup("/v1/admin/deposits/reverse"), b, API_RETRY_ORDER, &ep_deposit,
		   (void **)out, err);
}

int api_admin_settings(struct api_client *c, struct api_exchange_settings **out,
		       struct api_error **err)
{
	return run(c, "GET", xstrdup("/v1/admin/settings"), NULL, API_RETRY_READ, &ep_settings,
		   (void **)out, err);
}

int api_admin_market(struct api_client *c, const char *state, const char *opens_at,
		     struct api_market **out, bool *changed, struct api_error **err)
{
	cJSON *b = cJSON_CreateObject();
	struct market_changed *mc = NULL;
	int rc;

	if (state != NULL)
		cJSON_AddStringToObject(b, "state", state);
	if (opens_at != NULL) {
		if (*opens_at == '\0')
			cJSON_AddNullToObject(b, "opens_at");
		else
			cJSON_AddStringToObject(b, "opens_at", opens_at);
	}
	rc = run(c, "POST", xstrdup("/v1/admin/market"), b, API_RETRY_ORDER, &ep_market,
		 (void **)&mc, err);
	*out = NULL;
	if (rc == 0) {
		*out = mc->m;
		if (changed != NULL)
			*changed = mc->changed;
		free(mc);
	}
	return rc;
}

int api_admin_fx(struct api_client *c, const char *code, int64_t rate_micro, int exponent,
		 const char *as_of, int64_t max_age_s, int halt, struct api_exchange_settings **out,
		 struct api_error **err)
{
	cJSON *b = cJSON_CreateObject();
	if (code != NULL) {
		cJSON_AddStringToObject(b, "currency", code);
		add_int(b, "rate_micro", rate_micro);
		if (exponent >= 0)
			add_int(b, "exponent", exponent);
		if (as_of != NULL)
			cJSON_AddStringToObject(b, "as_of", as_of);
	}
	if (max_age_s >= 0)
		add_int(b, "max_age_seconds", max_age_s);
	if (halt >= 0)
		cJSON_AddBoolToObject(b, "halt_when_stale", halt != 0);
	return run(c, "POST", xstrdup("/v1/admin/fx"), b, API_RETRY_ORDER, &ep_settings,
		   (void **)out, err);
}

int api_admin_fees(struct api_client *c, int64_t trade_bp, int64_t forward_cancel_bp,
		   int64_t resale_bp, struct api_exchange_settings **out, struct api_error **err)
{
	cJSON *b = cJSON_CreateObject();
	if (trade_bp >= 0)
		add_int(b, "trade_bp", trade_bp);
	if (forward_cancel_bp >= 0)
		add_int(b, "forward_cancel_bp", forward_cancel_bp);
	if (resale_bp >= 0)
		add_int(b, "resale_bp", resale_bp);
	return run(c, "POST", xstrdup("/v1/admin/fees"), b, API_RETRY_ORDER, &ep_settings,
		   (void **)out, err);
}

int api_admin_topup(struct api_client *c, const char *url, const char *text,
		    struct api_exchange_settings **out, struct api_error **err)
{
	cJSON *b = cJSON_CreateObject();
	if (url != NULL) {
		if (*url)
			cJSON_AddStringToObject(b, "url", url);
		else
			cJSON_AddNullToObject(b, "url");
	}
	if (text != NULL) {
		if (*text)
			cJSON_AddStringToObject(b, "text", text);
		else
			cJSON_AddNullToObject(b, "text");
	}
	return run(c, "POST", xstrdup("/v1/admin/topup"), b, API_RETRY_ORDER, &ep_settings,
		   (void **)out, err);
}

int api_admin_keys_list(struct api_client *c, struct api_admin_keys **out, struct api_error **err)
{
	return run(c, "GET", xstrdup("/v1/admin/keys"), NULL, API_RETRY_READ, &ep_keys, (void **)out,
		   err);
}

int api_admin_key_create(struct api_client *c, const char *name, struct api_admin_key **out,
			 struct api_error **err)
{
	cJSON *b = cJSON_CreateObject();
	cJSON_AddStringToObject(b, "name", name);
	/* not idempotent: a retry could make a second key (its name is then taken) */
	return run(c, "POST", xstrdup("/v1/admin/keys"), b, API_RETRY_UNSAFE, &ep_key, (void **)out,
		   err);
}

int api_admin_key_revoke(struct api_client *c, int64_t id, struct api_admin_key **out,
			 struct api_error **err)
{
	return run(c, "DELETE", xasprintf("/v1/admin/keys/%lld", (long long)id), NULL,
		   API_RETRY_UNSAFE, &ep_key, (void **)out, err);
}

int api_admin_accounts(struct api_client *c, const char *text, const struct api_list_query *q,
		       struct api_accounts **out, struct api_error **err)
{
	return run(c, "GET", list_path("/v1/admin/accounts", NULL, text, q), NULL, API_RETRY_READ,
		   &ep_accounts, (void **)out, err);
}

int api_admin_ledger(struct api_client *c, int64_t id, const struct api_list_query *q,
		     struct api_ledger **out, struct api_error **err)
{
	char *base = xasprintf("/v1/admin/accounts/%lld/ledger", (long long)id);
	char *path = list_path(base, NULL, NULL, q);
	free(base);
	return run(c, "GET", path, NULL, API_RETRY_READ, &ep_ledger, (void **)out, err);
}
