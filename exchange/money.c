/*
 * exchange/money.c — money in and out of the exchange (docs/API.md,
 * "Deposits", "Withdrawals", "the ledger"), the trade fee, and the FX
 * arithmetic per currency exponent.
 *
 * Money in. A deposit names the payment it credits by a reference (the bank
 * transfer's, say), required on a real exchange: table deposits holds it
 * UNIQUE, so the same reference credits once whatever the retries, the
 * nodes or the races (the second INSERT waits for the first's COMMIT and
 * then finds it), and a replay says what was credited then and that nothing
 * was now. A reversal (a chargeback) takes the deposit back from the
 * account's available balance; beyond it only when the operator states a
 * debt, which goes to the account's "debt" bucket (<= 0) and is paid first
 * by the next deposits.
 *
 * Money out. A customer asks for a withdrawal (idempotent by its own
 * reference): the amount moves from available to held ("withdrawal_hold");
 * the operator marks it sent with the payout's reference ("withdrawal", held
 * to the outside world) or rejects it ("withdrawal_release", back to
 * available). Each acting row names the admin key.
 *
 * Ledger kinds here: deposit, deposit_reversal, withdrawal_hold, withdrawal,
 * withdrawal_release, fee. "payout" stays what it was: a seller's hourly
 * earnings, inside the exchange.
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* ---- FX and fees --------------------------------------------------------------------- */

static const struct xd_currency *currency(const struct xd_writer *w, int cur)
{
	if (!w->set || cur < 0 || (size_t)cur >= w->set->n_cur)
		fatal("gpuxd: currency %d is not in the settings", cur);
	return &w->set->cur[cur];
}

int64_t xd_fx_rate(const struct xd_writer *w, int cur)
{
	return currency(w, cur)->rate_micro;
}

int64_t xd_fx_net_unit(const struct xd_writer *w, int cur, int64_t price_cents)
{
	const struct xd_currency *c = currency(w, cur);
	return exchange_net_unit_e(price_cents, c->rate_micro, c->exponent);
}

int64_t xd_fx_unit(const struct xd_writer *w, int cur, int32_t vat_bp, int64_t price_cents)
{
	const struct xd_currency *c = currency(w, cur);
	return exchange_unit_e(price_cents, c->rate_micro, c->exponent, vat_bp);
}

int64_t xd_fx_payout_unit(const struct xd_writer *w, int cur, int64_t price_cents)
{
	const struct xd_currency *c = currency(w, cur);
	return exchange_payout_unit_e(price_cents, c->rate_micro, c->exponent);
}

int64_t xd_fee_unit(const struct xd_writer *w, int64_t payout_unit)
{
	return exchange_fee_unit(payout_unit, w->set ? w->set->fee_trade_bp : 0);
}

void xd_fee_bill(struct xd_writer *w, int64_t seller, int cur, int64_t fee, int64_t sell_order,
                 int64_t rental)
{
	if (fee > 0)
		xd_ops_post(w, "fee", seller, XD_AVAILABLE, w->sys_fees[cur], XD_AVAILABLE, fee,
		            sell_order, rental);
}

/* ---- helpers ---------------------------------------------------------------------------- */

static bool no_query(struct xd_ctx *c)
{
	static const char *const none[] = { NULL };
	return xd_query_check(c, none) == 0;
}

/* Printable ASCII (a bank's reference: letters, digits, spaces, / - . : …). */
static bool reference_ok(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return false;
	return true;
}

/* An optional or required reference member into out (XD_REF_MAX + 1 bytes). */
static int body_reference(const cJSON *b, const char *k, bool required, char *out,
                          struct xd_reply *r)
{
	const char *v = NULL;
	int has = xd_body_str(b, k, required, XD_REF_MAX, &v, r);
	if (has <= 0)
		return has;
	if (!reference_ok(v)) {
		xd_reply_field(r, "BAD_VALUE", k, "\"%s\" may hold letters, digits, spaces and "
		               "punctuation (printable ASCII), nothing else", k);
		return -1;
	}
	snprintf(out, XD_REF_MAX + 1, "%s", v);
	return 1;
}

static void balance_json(cJSON *o, const struct xd_acct *a)
{
	cJSON *b = cJSON_AddObjectToObject(o, "balance");
	xd_jint(b, "available_minor", a->avail);
	xd_jint(b, "held_minor", a->held);
	xd_jint(b, "total_minor", a->avail + a->held);
	xd_jint(b, "debt_minor", -a->debt);
}

static void acted(struct xd_writer *w, int64_t admin_key)
{
	if (admin_key <= 0)
		return;
	struct xd_q *q = xd_stmt(w->st, "UPDATE admin_keys SET last_used_ms = ?2 WHERE id = ?1");
	xd_bind_int64(q, 1, admin_key);
	xd_bind_int64(q, 2, w->now);
	xd_step_done(w->st, q);
}

static struct xd_acct *customer(struct xd_writer *w, int64_t id, struct xd_reply *r)
{
	struct xd_acct *a = xd_ops_acct(w, id);
	if (!a || a->system) {
		xd_reply_error(r, 404, "NOT_FOUND", "no account %" PRId64, id);
		return NULL;
	}
	return a;
}

/* ---- deposits --------------------------------------------------------------------------- */

/* Credit amount to account: what it owes first (a debt bucket below zero),
 * then its available balance. The amount that paid the debt. */
static int64_t credit(struct xd_writer *w, int64_t account, int64_t amount)
{
	struct xd_acct *a = xd_ops_acct(w, account);
	int64_t ext = w->sys_external[a->cur];
	int64_t owed = -a->debt, repay = owed < amount ? owed : amount;
	int64_t entry = 0;
	if (repay > 0) {
		xd_ops_post(w, "deposit", ext, XD_AVAILABLE, account, XD_DEBT, repay, 0, 0);
		entry = w->last_entry;
	}
	if (amount - repay > 0)
		xd_ops_post(w, "deposit", ext, XD_AVAILABLE, account, XD_AVAILABLE, amount - repay, 0, 0);
	else
		w->last_entry = entry;
	return repay;
}

void xd_money_credit(struct xd_writer *w, int64_t account, int64_t amount)
{
	xd_ops_begin(w);
	credit(w, account, amount);
}

#define DEPOSIT_COLS "id, account, amount, currency, reference, entry, at_ms, reversed_ms, " \
	"reversal_entry, reversal_debt, reversal_reason"

static cJSON *deposit_json(struct xd_q *q)
{
	cJSON *o = cJSON_CreateObject();
	xd_jint(o, "id", xd_col_int64(q, 5));             /* the ledger entry, as ever */
	xd_jint(o, "deposit_id", xd_col_int64(q, 0));
	xd_jint(o, "account_id", xd_col_int64(q, 1));
	xd_jint(o, "amount_minor", xd_col_int64(q, 2));
	xd_jstr(o, "currency", xd_col_text(q, 3));
	xd_jstr(o, "reference", xd_col_text(q, 4));
	xd_jtime(o, "at", xd_col_int64(q, 6));
	xd_jtime(o, "reversed_at", xd_col_null(q, 7) ? -1 : xd_col_int64(q, 7));
	xd_jint_or_null(o, "reversal_entry_id", xd_col_int64(q, 8), !xd_col_null(q, 8));
	xd_jint(o, "reversal_debt_minor", xd_col_int64(q, 9));
	xd_jstr(o, "reversal_reason", xd_col_text(q, 10));
	return o;
}

/* The deposit with this reference, as JSON (NULL: none); lock: FOR UPDATE. */
static cJSON *deposit_by_ref(struct xd_writer *w, const char *ref, bool lock)
{
	struct xd_q *q = lock
		? xd_stmt(w->st, "SELECT " DEPOSIT_COLS " FROM deposits WHERE reference = ?1 FOR UPDATE")
		: xd_stmt(w->st, "SELECT " DEPOSIT_COLS " FROM deposits WHERE reference = ?1");
	xd_bind_text(q, 1, ref);
	cJSON *o = xd_step(q) == XD_ROW ? deposit_json(q) : NULL;
	xd_reset(q);
	return o;
}

/* An integer member of a reply built here (xd_jint writes raw digits). */
static int64_t jint(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	if (cJSON_IsRaw(v) && v->valuestring)
		return strtoll(v->valuestring, NULL, 10);
	return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : -1;
}

/* A deposit whose reference was credited before: the original, or a 409. */
static void deposit_replay(struct xd_writer *w, struct xd_job *j, cJSON *orig, int64_t account)
{
	if (jint(orig, "account_id") != account || jint(orig, "amount_minor") != j->amount) {
		cJSON *e = xd_reply_error(&j->reply, 409, "IDEMPOTENCY_CONFLICT", "reference \"%s\" "
		                          "credited %" PRId64 " to account %" PRId64 " already: a "
		                          "different deposit needs another reference", j->str[0],
		                          jint(orig, "amount_minor"), jint(orig, "account_id"));
		xd_jint(e, "deposit_id", jint(orig, "deposit_id"));
		cJSON_AddStringToObject(e, "field", "reference");
		cJSON_Delete(orig);
		return;
	}
	cJSON_AddBoolToObject(orig, "replayed", true);
	cJSON_AddStringToObject(orig, "note", "this reference was credited already: nothing was "
	                        "credited now");
	struct xd_acct *a = xd_ops_acct(w, account);
	if (a)
		balance_json(orig, a);
	xd_reply_json(&j->reply, 200, orig);
}

/* DEPOSIT: target the account, amount, str[0] the reference ("" none),
 * admin_key_id who. */
static void run_deposit(struct xd_writer *w, struct xd_job *j)
{
	struct xd_acct *a = customer(w, j->target, &j->reply);
	if (!a)
		return;
	const char *ref = j->str[0][0] ? j->str[0] : NULL;
	xd_ops_begin(w);
	if (ref) {
		cJSON *orig = deposit_by_ref(w, ref, false);
		if (orig) {
			deposit_replay(w, j, orig, j->target);
			return;
		}
	}
	struct xd_q *q = xd_stmt(w->st, "INSERT INTO deposits(account, reference, amount, currency, "
	                                "entry, at_ms, admin_key) VALUES(?1, ?2, ?3, ?4, 0, ?5, ?6) "
	                                "ON CONFLICT(reference) DO NOTHING RETURNING id");
	xd_bind_int64(q, 1, j->target);
	xd_bind_text(q, 2, ref);
	xd_bind_int64(q, 3, j->amount);
	xd_bind_text(q, 4, xd_cur_code(w, a->cur));
	xd_bind_int64(q, 5, w->now);
	if (j->admin_key_id > 0)
		xd_bind_int64(q, 6, j->admin_key_id);
	int64_t id = xd_step_id(q);
	if (id == 0) {   /* credited meanwhile through another node: a replay */
		cJSON *orig = deposit_by_ref(w, ref, false);
		if (orig)
			deposit_replay(w, j, orig, j->target);
		else
			xd_reply_error(&j->reply, 500, "INTERNAL", "reference \"%s\" is taken and not found",
			               ref);
		return;
	}
	int64_t repaid = credit(w, j->target, j->amount);
	q = xd_stmt(w->st, "UPDATE deposits SET entry = ?2 WHERE id = ?1");
	xd_bind_int64(q, 1, id);
	xd_bind_int64(q, 2, w->last_entry);
	xd_step_done(w->st, q);
	acted(w, j->admin_key_id);
	cJSON *o = cJSON_CreateObject();
	xd_jint(o, "id", w->last_entry);
	xd_jint(o, "deposit_id", id);
	xd_jint(o, "account_id", j->target);
	xd_jint(o, "amount_minor", j->amount);
	cJSON_AddStringToObject(o, "currency", xd_cur_code(w, a->cur));
	xd_jstr(o, "reference", ref);
	xd_jtime(o, "at", w->now);
	xd_jint(o, "debt_paid_minor", repaid);
	cJSON_AddBoolToObject(o, "replayed", false);
	balance_json(o, a);
	xd_reply_json(&j->reply, 201, o);
}

int xd_parse_deposit(const char *body, size_t len, bool admin, struct xd_job *j, struct xd_reply *r)
{
	static const char *const fields[] = { "amount_minor", "account_id", "reference", NULL };
	cJSON *b = NULL;
	int rc = -1;
	j->target = 0;
	j->str[0][0] = 0;
	if (xd_body_parse(body, len, false, &b, r) == 0 &&
	    xd_body_fields(b, fields, r) == 0 &&
	    xd_body_int(b, "amount_minor", true, 1, XD_DEPOSIT_MAX, &j->amount, r) >= 0 &&
	    xd_body_int(b, "account_id", admin, 1, INT64_C(9007199254740991), &j->target, r) >= 0 &&
	    body_reference(b, "reference", false, j->str[0], r) >= 0)
		rc = 0;
	cJSON_Delete(b);
	return rc;
}

void xd_money_h_deposit(struct xd_ctx *c)
{
	struct xd_job *j = c->job;
	if (!xd_keys_may_trade(c) || !no_query(c) ||
	    xd_parse_deposit(c->body, c->body_len, c->admin, j, &c->reply))
		return;
	bool demo = xd_market_demo(c->m);
	if (!c->admin) {
		if (!demo) {
			xd_reply_error(&c->reply, 403, "FORBIDDEN", "this exchange takes no simulated "
			               "payments: deposits are made by the operator (admin key)");
			return;
		}
		if (j->target && j->target != c->account) {
			xd_reply_error(&c->reply, 403, "FORBIDDEN", "an account can only deposit to itself");
			return;
		}
		j->target = c->account;
	}
	if (!demo && !j->str[0][0]) {
		xd_reply_field(&c->reply, "MISSING_FIELD", "reference", "a deposit on this exchange "
		               "names the payment it credits: \"reference\" (the bank transfer's, "
		               "say); the same reference never credits twice");
		return;
	}
	j->kind = XD_JOB_RUN;
	j->run = run_deposit;
	j->account = c->account;
	j->admin = c->admin;
	j->admin_key_id = c->admin_key_id;
	xd_ctx_submit(c);
}

/* ---- reversals ----------------------------------------------------------------------------- */

/* REVERSE: str[0] the reference, flag[0] a debt is stated, text the reason. */
static void run_reverse(struct xd_writer *w, struct xd_job *j)
{
	xd_ops_begin(w);
	cJSON *d = deposit_by_ref(w, j->str[0], true);
	if (!d) {
		cJSON *e = xd_reply_error(&j->reply, 404, "NOT_FOUND", "no deposit has reference \"%s\"",
		                          j->str[0]);
		cJSON_AddStringToObject(e, "field", "reference");
		return;
	}
	int64_t account = jint(d, "account_id"), amount = jint(d, "amount_minor");
	struct xd_acct *a = customer(w, account, &j->reply);
	if (!a) {
		cJSON_Delete(d);
		return;
	}
	if (!cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(d, "reversed_at"))) {
		cJSON_AddBoolToObject(d, "replayed", true);
		cJSON_AddStringToObject(d, "note", "this deposit was reversed already: nothing was "
		                        "taken now");
		balance_json(d, a);
		xd_reply_json(&j->reply, 200, d);
		return;
	}
	int64_t from_avail = a->avail < amount ? a->avail : amount, debt = amount - from_avail;
	if (debt > 0 && !j->flag[0]) {
		cJSON *e = xd_reply_error(&j->reply, 409, "INSUFFICIENT_FUNDS", "account %" PRId64 " has "
		                          "%" PRId64 " available; reversing %" PRId64 " would take it "
		                          "below zero: send \"debt\": true to record the other %" PRId64
		                          " as the customer's debt, or reverse later", account, a->avail,
		                          amount, debt);
		xd_jint(e, "required_minor", amount);
		xd_jint(e, "available_minor", a->avail);
		xd_jstr(e, "currency", xd_cur_code(w, a->cur));
		cJSON_Delete(d);
		return;
	}
	int64_t ext = w->sys_external[a->cur], entry = 0;
	if (from_avail > 0) {
		xd_ops_post(w, "deposit_reversal", account, XD_AVAILABLE, ext, XD_AVAILABLE, from_avail, 0, 0);
		entry = w->last_entry;
	}
	if (debt > 0) {
		xd_ops_post(w, "deposit_reversal", account, XD_DEBT, ext, XD_AVAILABLE, debt, 0, 0);
		entry = entry ? entry : w->last_entry;
	}
	struct xd_q *q = xd_stmt(w->st, "UPDATE deposits SET reversed_ms = ?2, reversal_entry = ?3, "
	                                "reversed_by = ?4, reversal_debt = ?5, reversal_reason = ?6 "
	                                "WHERE id = ?1");
	xd_bind_int64(q, 1, jint(d, "deposit_id"));
	xd_bind_int64(q, 2, w->now);
	xd_bind_int64(q, 3, entry);
	if (j->admin_key_id > 0)
		xd_bind_int64(q, 4, j->admin_key_id);
	xd_bind_int64(q, 5, debt);
	xd_bind_text(q, 6, j->text[0] ? j->text : NULL);
	xd_step_done(w->st, q);
	char detail[160];
	snprintf(detail, sizeof detail, "{\"deposit_id\":%" PRId64 ",\"amount_minor\":%" PRId64
	         ",\"debt_minor\":%" PRId64 "}", jint(d, "deposit_id"), amount, debt);
	xd_audit(w, j->admin_key_id, "deposit_reversal", j->str[0], detail);
	acted(w, j->admin_key_id);
	cJSON_Delete(d);
	d = deposit_by_ref(w, j->str[0], false);
	cJSON_AddBoolToObject(d, "replayed", false);
	balance_json(d, a);
	xd_reply_json(&j->reply, 200, d);
}

void xd_money_h_reverse(struct xd_ctx *c)
{
	static const char *const fields[] = { "reference", "debt", "reason", NULL };
	struct xd_job *j = c->job;
	if (!xd_admin_only(c) || !no_query(c))
		return;
	cJSON *b = NULL;
	const char *reason = NULL;
	bool debt = false;
	int rc = xd_body_parse(c->body, c->body_len, false, &b, &c->reply) ||
	         xd_body_fields(b, fields, &c->reply) ||
	         body_reference(b, "reference", true, j->str[0], &c->reply) < 0 ||
	         xd_body_bool(b, "debt", false, &debt, &c->reply) < 0 ||
	         xd_body_str(b, "reason", false, 200, &reason, &c->reply) < 0;
	if (!rc && reason && !reference_ok(reason)) {
		xd_reply_field(&c->reply, "BAD_VALUE", "reason", "\"reason\" must be printable ASCII");
		rc = 1;
	}
	if (!rc) {
		j->flag[0] = debt;
		snprintf(j->text, sizeof j->text, "%s", reason ? reason : "");
	}
	cJSON_Delete(b);
	if (rc)
		return;
	j->kind = XD_JOB_RUN;
	j->run = run_reverse;
	j->admin_key_id = c->admin_key_id;
	xd_ctx_submit(c);
}

/* ---- withdrawals --------------------------------------------------------------------------- */

#define W_COLS "id, account, amount, currency, reference, status, requested_ms, decided_ms, " \
	"payout_reference, reason, hold_entry, entry"

static cJSON *withdrawal_json(struct xd_q *q)
{
	cJSON *o = cJSON_CreateObject();
	xd_jint(o, "id", xd_col_int64(q, 0));
	xd_jint(o, "account_id", xd_col_int64(q, 1));
	xd_jint(o, "amount_minor", xd_col_int64(q, 2));
	xd_jstr(o, "currency", xd_col_text(q, 3));
	xd_jstr(o, "reference", xd_col_text(q, 4));
	xd_jstr(o, "status", xd_col_text(q, 5));
	xd_jtime(o, "requested_at", xd_col_int64(q, 6));
	xd_jtime(o, "decided_at", xd_col_null(q, 7) ? -1 : xd_col_int64(q, 7));
	xd_jstr(o, "payout_reference", xd_col_text(q, 8));
	xd_jstr(o, "reason", xd_col_text(q, 9));
	xd_jint(o, "hold_entry_id", xd_col_int64(q, 10));
	xd_jint_or_null(o, "entry_id", xd_col_int64(q, 11), !xd_col_null(q, 11));
	return o;
}

static cJSON *withdrawal(struct xd_store *s, int64_t id, bool lock)
{
	struct xd_q *q = lock ? xd_stmt(s, "SELECT " W_COLS " FROM withdrawals WHERE id = ?1 FOR UPDATE")
	                      : xd_stmt(s, "SELECT " W_COLS " FROM withdrawals WHERE id = ?1");
	xd_bind_int64(q, 1, id);
	cJSON *o = xd_step(q) == XD_ROW ? withdrawal_json(q) : NULL;
	xd_reset(q);
	return o;
}

static const char *jstr(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A withdrawal whose reference this account used before: the original, or
 * a 409 when the amount differs. */
static void withdraw_replay(struct xd_writer *w, struct xd_job *j, int64_t id, struct xd_acct *a)
{
	cJSON *o = withdrawal(w->st, id, false);
	if (!o) {
		xd_reply_error(&j->reply, 500, "INTERNAL", "withdrawal %" PRId64 " is not found", id);
		return;
	}
	if (jint(o, "amount_minor") != j->amount) {
		cJSON *e = xd_reply_error(&j->reply, 409, "IDEMPOTENCY_CONFLICT", "reference \"%s\" "
		                          "was used for withdrawal %" PRId64 " of another amount",
		                          j->str[0], id);
		xd_jint(e, "withdrawal_id", id);
		cJSON_AddStringToObject(e, "field", "reference");
		cJSON_Delete(o);
		return;
	}
	cJSON_AddBoolToObject(o, "replayed", true);
	balance_json(o, a);
	xd_reply_json(&j->reply, 200, o);
}

/* WITHDRAW: account, amount, str[0] the customer's reference. */
static void run_withdraw(struct xd_writer *w, struct xd_job *j)
{
	struct xd_acct *a = customer(w, j->account, &j->reply);
	if (!a)
		return;
	xd_ops_begin(w);
	struct xd_q *q = xd_stmt(w->st, "SELECT id FROM withdrawals WHERE account = ?1 AND reference = ?2");
	xd_bind_int64(q, 1, j->account);
	xd_bind_text(q, 2, j->str[0]);
	int64_t id = xd_step(q) == XD_ROW ? xd_col_int64(q, 0) : 0;
	xd_reset(q);
	if (id) {
		withdraw_replay(w, j, id, a);
		return;
	}
	if (a->debt < 0) {
		cJSON *e = xd_reply_error(&j->reply, 409, "ACCOUNT_IN_DEBT", "the account owes %" PRId64
		                          " %s minor units: nothing can be withdrawn until it is paid",
		                          -a->debt, xd_cur_code(w, a->cur));
		xd_jint(e, "debt_minor", -a->debt);
		return;
	}
	if (j->amount > a->avail) {
		cJSON *e = xd_reply_error(&j->reply, 422, "INSUFFICIENT_FUNDS", "the withdrawal of %" PRId64
		                          " %s minor units is more than the %" PRId64 " available",
		                          j->amount, xd_cur_code(w, a->cur), a->avail);
		xd_jint(e, "required_minor", j->amount);
		xd_jint(e, "available_minor", a->avail);
		cJSON_AddStringToObject(e, "currency", xd_cur_code(w, a->cur));
		return;
	}
	q = xd_stmt(w->st, "INSERT INTO withdrawals(account, reference, amount, currency, status, "
	                   "requested_ms, hold_entry) VALUES(?1, ?2, ?3, ?4, 'pending', ?5, 0) "
	                   "ON CONFLICT(account, reference) DO NOTHING RETURNING id");
	xd_bind_int64(q, 1, j->account);
	xd_bind_text(q, 2, j->str[0]);
	xd_bind_int64(q, 3, j->amount);
	xd_bind_text(q, 4, xd_cur_code(w, a->cur));
	xd_bind_int64(q, 5, w->now);
	id = xd_step_id(q);
	if (id == 0) {   /* the same reference through another node meanwhile */
		q = xd_stmt(w->st, "SELECT id FROM withdrawals WHERE account = ?1 AND reference = ?2");
		xd_bind_int64(q, 1, j->account);
		xd_bind_text(q, 2, j->str[0]);
		id = xd_step(q) == XD_ROW ? xd_col_int64(q, 0) : 0;
		xd_reset(q);
		withdraw_replay(w, j, id, a);
		return;
	}
	xd_ops_post(w, "withdrawal_hold", j->account, XD_AVAILABLE, j->account, XD_HELD, j->amount, 0, 0);
	q = xd_stmt(w->st, "UPDATE withdrawals SET hold_entry = ?2 WHERE id = ?1");
	xd_bind_int64(q, 1, id);
	xd_bind_int64(q, 2, w->last_entry);
	xd_step_done(w->st, q);
	cJSON *o = withdrawal(w->st, id, false);
	cJSON_AddBoolToObject(o, "replayed", false);
	balance_json(o, a);
	xd_reply_json(&j->reply, 201, o);
}

void xd_money_h_withdraw(struct xd_ctx *c)
{
	static const char *const fields[] = { "amount_minor", "reference", NULL };
	struct xd_job *j = c->job;
	if (!xd_keys_may_trade(c) || !no_query(c))
		return;
	cJSON *b = NULL;
	int rc = xd_body_parse(c->body, c->body_len, false, &b, &c->reply) ||
	         xd_body_fields(b, fields, &c->reply) ||
	         xd_body_int(b, "amount_minor", true, 1, XD_DEPOSIT_MAX, &j->amount, &c->reply) < 0 ||
	         body_reference(b, "reference", true, j->str[0], &c->reply) < 0;
	cJSON_Delete(b);
	if (rc)
		return;
	j->kind = XD_JOB_RUN;
	j->run = run_withdraw;
	j->account = c->account;
	xd_ctx_submit(c);
}

/* The list routes: limit, cursor, status (admin: pending by default). */
static void list(struct xd_ctx *c, int64_t account, const char *dflt)
{
	static const char *const allowed[] = { "status", "limit", "cursor", NULL };
	static const char *const statuses[] = { "pending", "sent", "rejected", "all", NULL };
	if (xd_query_check(c, allowed))
		return;
	const char *st = xd_query(c, "status");
	struct xd_page p;
	if (st && xd_lookup(statuses, st) < 0) {
		cJSON *e = xd_reply_error(&c->reply, 400, "BAD_PARAM", "query parameter \"status\" must "
		                          "be pending, sent, rejected or all");
		cJSON_AddStringToObject(e, "field", "status");
		return;
	}
	if (xd_admin_page(c, &p) != 0)
		return;
	int64_t limit = p.limit, before = p.before;
	if (!st)
		st = dflt;
	struct xd_q *q = xd_stmt(xd_store_reader(),
		"SELECT " W_COLS " FROM withdrawals WHERE id < ?1 AND (?2 = 0 OR account = ?2) AND "
		"(?3 = 'all' OR status = ?3) ORDER BY id DESC LIMIT ?4");
	xd_bind_int64(q, 1, before);
	xd_bind_int64(q, 2, account);
	xd_bind_text(q, 3, st);
	xd_bind_int64(q, 4, limit + 1);
	cJSON *o = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(o, "withdrawals");
	int64_t n = 0, last = 0;
	bool more = false;
	while (xd_step(q) == XD_ROW) {
		if (n == limit) {
			more = true;
			break;
		}
		last = xd_col_int64(q, 0);
		cJSON_AddItemToArray(arr, withdrawal_json(q));
		n++;
	}
	xd_reset(q);
	xd_next_cursor(o, more, last);
	xd_reply_json(&c->reply, 200, o);
}

void xd_money_h_withdrawals(struct xd_ctx *c)
{
	list(c, c->account, "all");
}

void xd_money_h_admin_withdrawals(struct xd_ctx *c)
{
	if (xd_admin_only(c))
		list(c, 0, "pending");
}

/* APPROVE (flag[0]) or REJECT: target the withdrawal, str[0] the payout's
 * reference (approve) / text the reason (reject). */
static void run_decide(struct xd_writer *w, struct xd_job *j)
{
	bool approve = j->flag[0];
	xd_ops_begin(w);
	cJSON *o = withdrawal(w->st, j->target, true);
	if (!o) {
		xd_reply_error(&j->reply, 404, "NOT_FOUND", "no withdrawal %" PRId64, j->target);
		return;
	}
	const char *status = jstr(o, "status");
	int64_t account = jint(o, "account_id"), amount = jint(o, "amount_minor");
	struct xd_acct *a = customer(w, account, &j->reply);
	if (!a) {
		cJSON_Delete(o);
		return;
	}
	const char *want = approve ? "sent" : "rejected";
	if (strcmp(status, want) == 0) {
		const char *pr = jstr(o, "payout_reference");
		if (approve && (!pr || strcmp(pr, j->str[0]) != 0)) {
			cJSON *e = xd_reply_error(&j->reply, 409, "IDEMPOTENCY_CONFLICT", "withdrawal %" PRId64
			                          " was sent already with payout reference \"%s\"", j->target,
			                          pr ? pr : "");
			cJSON_AddStringToObject(e, "status", status);
			cJSON_Delete(o);
			return;
		}
		cJSON_AddBoolToObject(o, "replayed", true);
		balance_json(o, a);
		xd_reply_json(&j->reply, 200, o);
		return;
	}
	if (strcmp(status, "pending") != 0) {
		cJSON *e = xd_reply_error(&j->reply, 409, "WITHDRAWAL_CLOSED", "withdrawal %" PRId64 " was "
		                          "%s already", j->target, status);
		cJSON_AddStringToObject(e, "status", status);
		cJSON_Delete(o);
		return;
	}
	cJSON_Delete(o);
	if (approve)
		xd_ops_post(w, "withdrawal", account, XD_HELD, w->sys_external[a->cur], XD_AVAILABLE,
		            amount, 0, 0);
	else
		xd_ops_post(w, "withdrawal_release", account, XD_HELD, account, XD_AVAILABLE, amount, 0, 0);
	struct xd_q *q = xd_stmt(w->st, "UPDATE withdrawals SET status = ?2, decided_ms = ?3, "
	                                "admin_key = ?4, payout_reference = ?5, reason = ?6, "
	                                "entry = ?7 WHERE id = ?1");
	xd_bind_int64(q, 1, j->target);
	xd_bind_text(q, 2, want);
	xd_bind_int64(q, 3, w->now);
	if (j->admin_key_id > 0)
		xd_bind_int64(q, 4, j->admin_key_id);
	xd_bind_text(q, 5, approve ? j->str[0] : NULL);
	xd_bind_text(q, 6, !approve && j->text[0] ? j->text : NULL);
	xd_bind_int64(q, 7, w->last_entry);
	xd_step_done(w->st, q);
	char detail[200];
	snprintf(detail, sizeof detail, "{\"withdrawal_id\":%" PRId64 ",\"account_id\":%" PRId64
	         ",\"amount_minor\":%" PRId64 "}", j->target, account, amount);
	xd_audit(w, j->admin_key_id, approve ? "withdrawal_sent" : "withdrawal_rejected",
	         approve ? j->str[0] : NULL, detail);
	acted(w, j->admin_key_id);
	o = withdrawal(w->st, j->target, false);
	cJSON_AddBoolToObject(o, "replayed", false);
	balance_json(o, a);
	xd_reply_json(&j->reply, 200, o);
}

static void decide(struct xd_ctx *c, bool approve)
{
	static const char *const f_approve[] = { "reference", NULL };
	static const char *const f_reject[] = { "reason", NULL };
	struct xd_job *j = c->job;
	if (!xd_admin_only(c) || !no_query(c))
		return;
	if ((j->target = xd_path_id(c->params[0])) <= 0) {
		xd_reply_error(&c->reply, 404, "NOT_FOUND", "no such withdrawal");
		return;
	}
	cJSON *b = NULL;
	const char *reason = NULL;
	int rc = xd_body_parse(c->body, c->body_len, !approve, &b, &c->reply) ||
	         xd_body_fields(b, approve ? f_approve : f_reject, &c->reply) ||
	         (approve ? body_reference(b, "reference", true, j->str[0], &c->reply) < 0
	                  : xd_body_str(b, "reason", false, 200, &reason, &c->reply) < 0);
	if (!rc && reason && !reference_ok(reason)) {
		xd_reply_field(&c->reply, "BAD_VALUE", "reason", "\"reason\" must be printable ASCII");
		rc = 1;
	}
	if (!rc)
		snprintf(j->text, sizeof j->text, "%s", reason ? reason : "");
	cJSON_Delete(b);
	if (rc)
		return;
	j->flag[0] = approve;
	j->kind = XD_JOB_RUN;
	j->run = run_decide;
	j->admin_key_id = c->admin_key_id;
	xd_ctx_submit(c);
}

void xd_money_h_approve(struct xd_ctx *c) { decide(c, true); }
void xd_money_h_reject(struct xd_ctx *c) { decide(c, false); }
