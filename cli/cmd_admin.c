/*
 * The operator's command, `gpux admin …`, and a customer's `gpux withdraw`:
 * every action of docs/API.md "Operator" through api/ (api/admin.c), so an
 * exchange can be run for real customers with nothing done by curl.
 *
 * `gpux admin` needs an admin key, given as any key is (--key-file, --key,
 * GPUX_API_KEY) or in GPUX_ADMIN_KEY; it never takes the account key saved
 * in the config file. Amounts are typed in the account's currency with its
 * own decimals (JPY none, KWD three), as the exchange says (currency_exponent).
 * Every action is safe to run again: a deposit, a reversal, a withdrawal and
 * its approval go by their references, and the exchange answers a repeat
 * with what was done the first time ("already credited", "already sent").
 */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api.h"
#include "i18n/i18n.h"
#include "util/util.h"

#include "cli/cli_int.h"

#define MAX_AMOUNT_MINOR 100000000000LL
#define FEE_BP_MAX 5000

/* ---- helpers ---------------------------------------------------------------------------- */

/* A client for the operator: the exchange of the flags, environment or
 * profile, the admin key as given. NULL after saying why (*rc the status). */
static struct api_client *admin_client(struct cli_ctx *ctx, int *rc)
{
	const char *key = ctx->api_key;
	struct api_open_opts o = {.url = ctx->api_url, .profile = ctx->profile,
				  .insecure = ctx->insecure};
	struct api_client *c;
	char *cause = NULL;

	if (key == NULL || *key == '\0')
		key = getenv("GPUX_ADMIN_KEY");
	if ((key == NULL || *key == '\0') && ctx->api_url == NULL && ctx->profile == NULL &&
	    getenv("GPUX_API") == NULL)
		key = NULL; /* the local demo exchange: its admin routes need no key */
	else if (key == NULL || *key == '\0') {
		*rc = cli_usage(ctx, "%s", _("admin: which admin key? Give --key-file FILE (the bootstrap "
					     "key is /etc/gpuxd/admin.key) or set GPUX_ADMIN_KEY"));
		return NULL;
	}
	o.key = key;
	c = api_open(&o, NULL, &cause);
	if (c == NULL) {
		*rc = cli_fail(ctx, "%s", cause != NULL ? cause : "?");
		free(cause);
		return NULL;
	}
	if (key != NULL)
		api_client_set_key(c, key);
	return c;
}

/* An amount typed in currency ccy's units (its exponent's decimals) into
 * minor units; CLI_OK or a usage message. */
static int parse_amount(struct cli_ctx *ctx, const char *what, const char *s, int exponent,
			const char *ccy, int64_t *out)
{
	char *cause = NULL;

	if (i18n_parse_decimal(ctx->lang, s, exponent, out, &cause) != 0 || *out < 1 ||
	    *out > MAX_AMOUNT_MINOR) {
		int rc = cli_usage(ctx, _("%s: %s; accepted: an amount in %s with at most %d decimals, "
					  "above zero"), what, cause != NULL ? cause : s, ccy, exponent);
		free(cause);
		return rc;
	}
	return CLI_OK;
}

static void say_balance(struct cli_ctx *ctx, const struct api_balance *b, const char *ccy)
{
	char *av = cli_fmt_money(ctx, b->available_minor, ccy);
	char *he = cli_fmt_money(ctx, b->held_minor, ccy);
	if (b->debt_minor > 0) {
		char *de = cli_fmt_money(ctx, b->debt_minor, ccy);
		cli_say(ctx, _("Balance: %s available, %s held, %s owed."), av, he, de);
		free(de);
	} else {
		cli_say(ctx, _("Balance: %s available, %s held."), av, he);
	}
	free(av);
	free(he);
}

/* One row of name/value pairs for csv/json. */
struct kv {
	const char *id;
	const char *text;   /* NULL: the integer */
	int64_t num;
	bool null;
};

static void print_kv(struct cli_ctx *ctx, const struct kv *v, size_t n)
{
	struct cli_sheet *s = cli_sheet_new();
	for (size_t i = 0; i < n; i++)
		cli_sheet_column(s, v[i].id, v[i].id, v[i].text ? CLI_LEFT : CLI_RIGHT);
	cli_sheet_row(s);
	for (size_t i = 0; i < n; i++) {
		if (v[i].null)
			cli_sheet_null(s, "");
		else if (v[i].text)
			cli_sheet_text(s, v[i].text, v[i].text);
		else
			cli_sheet_int(s, NULL, v[i].num);
	}
	cli_sheet_print(ctx, s);
	cli_sheet_free(&s);
}

/* The account's currency and its decimals (admin: any account; else the caller's). */
static int account_currency(struct cli_ctx *ctx, struct api_client *c, int64_t id, char **ccy,
			    int *exponent)
{
	struct api_error *e = NULL;

	*ccy = NULL;
	if (id > 0) {
		struct api_accounts *l = NULL;
		char num[24];
		snprintf(num, sizeof num, "%lld", (long long)id);
		if (api_admin_accounts(c, num, NULL, &l, &e) != 0)
			return cli_fail_api_free(ctx, &e);
		for (size_t i = 0; i < l->n; i++)
			if (l->v[i].id == id) {
				*ccy = xstrdup(l->v[i].currency);
				*exponent = (int)l->v[i].currency_exponent;
			}
		api_accounts_free(&l);
		if (*ccy == NULL)
			return cli_fail(ctx, _("there is no account %lld on this exchange"), (long long)id);
		return CLI_OK;
	}
	struct api_account *a = NULL;
	if (api_account(c, &a, &e) != 0)
		return cli_fail_api_free(ctx, &e);
	*ccy = xstrdup(a->currency);
	*exponent = (int)a->currency_exponent;
	api_account_free(&a);
	return CLI_OK;
}

/* ---- market -------------------------------------------------------------------------------- */

static int do_market(struct cli_ctx *ctx, struct api_client *c, const char *state,
		     const char *opens_at)
{
	struct api_market *m = NULL;
	struct api_error *e = NULL;
	bool changed = false;

	if (api_admin_market(c, state, opens_at, &m, &changed, &e) != 0)
		return cli_fail_api_free(ctx, &e);
	if (ctx->format != CLI_FORMAT_TABLE) {
		char *iso = cli_iso_time(m->opens_at);
		struct kv v[] = {{"state", api_market_state_name(m->state), 0, false},
				 {"opens_at", iso, 0, iso == NULL}, {"changed", changed ? "true" : "false", 0, false}};
		print_kv(ctx, v, 3);
		free(iso);
	} else if (m->state == API_MARKET_OPEN) {
		cli_say(ctx, "%s", changed ? _("The market is open.") : _("The market was open already."));
	} else if (m->opens_at >= 0) {
		char *when = i18n_fmt_when(ctx->lang, m->opens_at, 0);
		cli_say(ctx, _("The market opens by itself on %s (%s now)."), when,
			m->state == API_MARKET_HALTED ? _("halted") : _("not open yet"));
		free(when);
	} else {
		cli_say(ctx, "%s", m->state == API_MARKET_HALTED ? _("Trading is halted.")
								 : _("The market is not open yet."));
	}
	api_market_free(&m);
	return CLI_OK;
}

/* "2027-09-01T09:00:00Z" as the exchange wants it, from what an operator types. */
static int schedule_time(struct cli_ctx *ctx, const char *s, char **iso)
{
	struct tm tm;

	*iso = NULL;
	if (strcmp(s, "none") == 0) {
		*iso = xstrdup("");
		return CLI_OK;
	}
	if (!cli_strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) && !cli_strptime(s, "%Y-%m-%dT%H:%MZ", &tm))
		return cli_usage(ctx, _("schedule: \"%s\" is not a time; accepted: ISO 8601 UTC such as "
					"2027-09-01T09:00:00Z, or none"), s);
	*iso = xasprintf("%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
			 tm.tm_hour, tm.tm_min, tm.tm_sec);
	return CLI_OK;
}

/* ---- money ---------------------------------------------------------------------------------- */

static void print_deposit_result(struct cli_ctx *ctx, const struct api_deposit *d, bool reversal)
{
	if (ctx->format != CLI_FORMAT_TABLE) {
		struct kv v[] = {
			{"deposit_id", NULL, d->deposit_id, d->deposit_id < 0},
			{"account_id", NULL, d->account_id, false},
			{"amount_minor", NULL, d->amount_minor, false},
			{"currency", d->currency, 0, false},
			{"reference", d->reference, 0, d->reference == NULL},
			{"replayed", d->replayed ? "true" : "false", 0, false},
			{"debt_paid_minor", NULL, d->debt_paid_minor, false},
			{"reversal_debt_minor", NULL, d->reversal_debt_minor, false},
			{"available_minor", NULL, d->balance.available_minor, false},
			{"held_minor", NULL, d->balance.held_minor, false},
			{"debt_minor", NULL, d->balance.debt_minor, false},
		};
		print_kv(ctx, v, sizeof v / sizeof v[0]);
		return;
	}
	char *x = cli_fmt_money(ctx, d->amount_minor, d->currency);
	if (reversal && d->replayed)
		cli_say(ctx, _("Deposit %s (%s) was reversed already: nothing was taken now."),
			d->reference, x);
	else if (reversal)
		cli_say(ctx, _("Deposit %s (%s) to account %lld reversed."), d->reference, x,
			(long long)d->account_id);
	else if (d->replayed)
		cli_say(ctx, _("Reference %s was credited already (%s to account %lld): nothing was "
			       "credited now."), d->reference, x, (long long)d->account_id);
	else
		cli_say(ctx, _("Credited %s to account %lld (reference %s)."), x,
			(long long)d->account_id, d->reference);
	if (!reversal && d->debt_paid_minor > 0) {
		char *p = cli_fmt_money(ctx, d->debt_paid_minor, d->currency);
		cli_say(ctx, _("Of it, %s paid what the account owed."), p);
		free(p);
	}
	free(x);
	say_balance(ctx, &d->balance, d->currency);
}

static int do_deposit(struct cli_ctx *ctx, struct api_client *c, const struct cli_args *a)
{
	const char *ref = cli_arg(a, cli_admin_opts, "--reference");
	struct api_deposit *d = NULL;
	struct api_error *e = NULL;
	int64_t id, amount;
	char *ccy = NULL;
	int exponent = 2, rc;

	if (a->n_pos != 3)
		return cli_usage(ctx, "%s", _("admin deposit: give ACCOUNT AMOUNT --reference REF"));
	if ((rc = cli_parse_id(ctx, "ACCOUNT", a->pos[1], &id)) != CLI_OK)
		return rc;
	if (ref == NULL)
		return cli_usage(ctx, "%s", _("admin deposit: --reference REF is needed: the payment's "
					      "reference, so that one payment is never credited twice"));
	if ((rc = account_currency(ctx, c, id, &ccy, &exponent)) != CLI_OK)
		return rc;
	if ((rc = parse_amount(ctx, "AMOUNT", a->pos[2], exponent, ccy, &amount)) == CLI_OK) {
		if (api_admin_deposit(c, id, amount, ref, &d, &e) != 0) {
			rc = cli_fail_api(ctx, e);
		} else {
			print_deposit_result(ctx, d, false);
			rc = CLI_OK;
		}
	}
	free(ccy);
	api_deposit_free(&d);
	api_error_free(&e);
	return rc;
}

static int do_reverse(struct cli_ctx *ctx, struct api_client *c, const struct cli_args *a)
{
	struct api_deposit *d = NULL;
	struct api_error *e = NULL;
	int rc;

	if (a->n_pos != 2)
		return cli_usage(ctx, "%s", _("admin reverse-deposit: give the deposit's REFERENCE"));
	if (api_admin_reverse(c, a->pos[1], cli_arg(a, cli_admin_opts, "--debt") != NULL,
			      cli_arg(a, cli_admin_opts, "--reason"), &d, &e) != 0) {
		rc = cli_fail_api(ctx, e);
		if (e->code != NULL && strcmp(e->code, "INSUFFICIENT_FUNDS") == 0)
			cli_note(ctx, "%s", _("add --debt to take the rest as the customer's debt "
					      "(paid first by its next deposits)"));
	} else {
		print_deposit_result(ctx, d, true);
		rc = CLI_OK;
	}
	api_deposit_free(&d);
	api_error_free(&e);
	return rc;
}

/* The operator's sheets are headed by their column ids in every format. */
static const struct cli_column wd_columns[] = {
	{"id", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"account_id", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"amount_minor", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"currency", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"status", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"reference", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"requested_at", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"decided_at", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"payout_reference", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{NULL},
};

static void wd_row(struct cli_sheet *s, const struct cli_ctx *ctx, const struct api_withdrawal *w)
{
	cli_sheet_row(s);
	cli_cell_id(s, w->id);
	cli_cell_id(s, w->account_id);
	cli_cell_money(s, ctx, w->amount_minor, w->currency);
	cli_sheet_text(s, w->currency, w->currency);
	cli_sheet_text(s, api_withdrawal_status_name(w->status), api_withdrawal_status_name(w->status));
	cli_sheet_text(s, w->reference, w->reference);
	cli_cell_time(s, ctx, w->requested_at);
	cli_cell_time(s, ctx, w->decided_at);
	if (w->payout_reference)
		cli_sheet_text(s, w->payout_reference, w->payout_reference);
	else
		cli_sheet_null(s, "");
}

static int do_withdrawals(struct cli_ctx *ctx, struct api_client *c, const struct cli_args *a)
{
	struct api_withdrawals *l = NULL;
	struct api_error *e = NULL;
	const char *st = cli_arg(a, cli_admin_opts, "--status");

	if (st && strcmp(st, "pending") && strcmp(st, "sent") && strcmp(st, "rejected") &&
	    strcmp(st, "all"))
		return cli_usage(ctx, _("--status %s: accepted: pending, sent, rejected, all"), st);
	if (api_withdrawals(c, true, st, NULL, &l, &e) != 0)
		return cli_fail_api_free(ctx, &e);
	if (l->n == 0 && ctx->format == CLI_FORMAT_TABLE) {
		cli_note(ctx, "%s", _("no withdrawal to show"));
	} else {
		struct cli_sheet *s = cli_sheet_new();
		cli_sheet_columns(s, wd_columns);
		for (size_t i = 0; i < l->n; i++)
			wd_row(s, ctx, &l->v[i]);
		cli_sheet_print(ctx, s);
		cli_sheet_free(&s);
	}
	api_withdrawals_free(&l);
	return CLI_OK;
}

static void print_wd(struct cli_ctx *ctx, const struct api_withdrawal *w)
{
	if (ctx->format != CLI_FORMAT_TABLE) {
		struct cli_sheet *s = cli_sheet_new();
		cli_sheet_columns(s, wd_columns);
		wd_row(s, ctx, w);
		cli_sheet_print(ctx, s);
		cli_sheet_free(&s);
		return;
	}
	char *x = cli_fmt_money(ctx, w->amount_minor, w->currency);
	switch (w->status) {
	case API_WD_PENDING:
		cli_say(ctx, w->replayed ? _("Withdrawal %lld of %s was requested already: it waits for "
					     "the exchange's operator.")
					 : _("Withdrawal %lld of %s requested: the amount is held until the "
					     "exchange's operator sends it."), (long long)w->id, x);
		break;
	case API_WD_SENT:
		cli_say(ctx, w->replayed ? _("Withdrawal %lld of %s was sent already (payout %s).")
					 : _("Withdrawal %lld of %s marked sent (payout %s)."),
			(long long)w->id, x, w->payout_reference ? w->payout_reference : "");
		break;
	case API_WD_REJECTED:
		cli_say(ctx, w->replayed ? _("Withdrawal %lld of %s was rejected already.")
					 : _("Withdrawal %lld of %s rejected: the amount is available again."),
			(long long)w->id, x);
		break;
	}
	free(x);
	if (w->has_balance)
		say_balance(ctx, &w->balance, w->currency);
}

static int do_decide(struct cli_ctx *ctx, struct api_client *c, const struct cli_args *a)
{
	struct api_withdrawal *w = NULL;
	struct api_error *e = NULL;
	int64_t id;
	int rc;
	bool approve;

	if (a->n_pos != 3 || (strcmp(a->pos[1], "approve") != 0 && strcmp(a->pos[1], "reject") != 0))
		return cli_usage(ctx, "%s", _("admin withdrawal: give approve ID --reference REF, or "
					      "reject ID"));
	approve = strcmp(a->pos[1], "approve") == 0;
	if ((rc = cli_parse_id(ctx, "ID", a->pos[2], &id)) != CLI_OK)
		return rc;
	const char *text = cli_arg(a, cli_admin_opts, approve ? "--reference" : "--reason");
	if (approve && text == NULL)
		return cli_usage(ctx, "%s", _("admin withdrawal approve: --reference REF is needed: the "
					      "payout's reference (the bank transfer that sent it)"));
	if (api_admin_decide(c, id, approve, text, &w, &e) != 0) {
		rc = cli_fail_api(ctx, e);
	} else {
		print_wd(ctx, w);
		rc = CLI_OK;
	}
	api_withdrawal_free(&w);
	api_error_free(&e);
	return rc;
}

/* ---- accounts, ledger ------------------------------------------------------------------------ */

static const struct cli_column account_columns[] = {
	{"id", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"email", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"country", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"currency", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"role", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"available_minor", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"held_minor", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"debt_minor", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{NULL},
};

static int do_accounts(struct cli_ctx *ctx, struct api_client *c, const struct cli_args *a)
{
	struct api_accounts *l = NULL;
	struct api_error *e = NULL;

	if (a->n_pos > 2)
		return cli_usage(ctx, "%s", _("admin accounts: give at most one text to search for"));
	if (api_admin_accounts(c, a->n_pos == 2 ? a->pos[1] : NULL, NULL, &l, &e) != 0)
		return cli_fail_api_free(ctx, &e);
	struct cli_sheet *s = cli_sheet_new();
	cli_sheet_columns(s, account_columns);
	for (size_t i = 0; i < l->n; i++) {
		const struct api_account *x = &l->v[i];
		cli_sheet_row(s);
		cli_cell_id(s, x->id);
		cli_sheet_text(s, x->email, x->email);
		cli_sheet_text(s, x->country, x->country);
		cli_sheet_text(s, x->currency, x->currency);
		cli_sheet_text(s, api_role_name(x->role), api_role_name(x->role));
		cli_cell_money(s, ctx, x->balance.available_minor, x->currency);
		cli_cell_money(s, ctx, x->balance.held_minor, x->currency);
		cli_cell_money(s, ctx, x->balance.debt_minor, x->currency);
	}
	if (l->n == 0 && ctx->format == CLI_FORMAT_TABLE)
		cli_note(ctx, "%s", _("no account to show"));
	else
		cli_sheet_print(ctx, s);
	cli_sheet_free(&s);
	api_accounts_free(&l);
	return CLI_OK;
}

static const struct cli_column ledger_columns[] = {
	{"id", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"entry_id", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"at", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"kind", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"bucket", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"amount_minor", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"currency", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"order_id", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"rental_id", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{NULL},
};

static int do_ledger(struct cli_ctx *ctx, struct api_client *c, const struct cli_args *a)
{
	struct api_ledger *l = NULL;
	struct api_error *e = NULL;
	int64_t id;
	int rc;

	if (a->n_pos != 2)
		return cli_usage(ctx, "%s", _("admin ledger: give the ACCOUNT"));
	if ((rc = cli_parse_id(ctx, "ACCOUNT", a->pos[1], &id)) != CLI_OK)
		return rc;
	if (api_admin_ledger(c, id, NULL, &l, &e) != 0)
		return cli_fail_api_free(ctx, &e);
	struct cli_sheet *s = cli_sheet_new();
	cli_sheet_columns(s, ledger_columns);
	for (size_t i = 0; i < l->n; i++) {
		const struct api_ledger_row *r = &l->v[i];
		const char *b = r->held ? "held" : r->debt ? "debt" : "available";
		cli_sheet_row(s);
		cli_cell_id(s, r->id);
		cli_cell_id(s, r->entry_id);
		cli_cell_time(s, ctx, r->at);
		cli_sheet_text(s, api_ledger_kind_name(r->kind), api_ledger_kind_name(r->kind));
		cli_sheet_text(s, b, b);
		cli_cell_money(s, ctx, r->amount_minor, r->currency);
		cli_sheet_text(s, r->currency, r->currency);
		if (r->order_id > 0) cli_cell_id(s, r->order_id); else cli_sheet_null(s, "");
		if (r->rental_id > 0) cli_cell_id(s, r->rental_id); else cli_sheet_null(s, "");
	}
	cli_sheet_print(ctx, s);
	cli_sheet_free(&s);
	api_ledger_free(&l);
	return CLI_OK;
}

/* ---- settings: fx, fees, topup ------------------------------------------------------------------ */

static const struct cli_column fx_columns[] = {
	{"currency", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"exponent", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"rate_micro", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"rate_set_at", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"rate_age_seconds", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"demo_rate", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"stale", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{NULL},
};

static const struct cli_column fee_columns[] = {
	{"trade_bp", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"forward_cancel_bp", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"resale_bp", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"changed", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{NULL},
};

static void print_settings(struct cli_ctx *ctx, const struct api_exchange_settings *st, bool fx)
{
	if (ctx->format != CLI_FORMAT_TABLE) {
		struct cli_sheet *s = cli_sheet_new();
		if (fx) {
			cli_sheet_columns(s, fx_columns);
			for (size_t i = 0; i < st->n_cur; i++) {
				const struct api_currency_info *c = &st->cur[i];
				cli_sheet_row(s);
				cli_sheet_text(s, c->code, c->code);
				cli_sheet_int(s, NULL, c->exponent);
				cli_sheet_int(s, NULL, c->rate_micro);
				cli_cell_time(s, ctx, c->rate_set_at);
				cli_sheet_int(s, NULL, c->rate_age_s);
				cli_sheet_bool(s, NULL, c->demo_rate);
				cli_sheet_bool(s, NULL, c->stale);
			}
		} else {
			cli_sheet_columns(s, fee_columns);
			cli_sheet_row(s);
			cli_sheet_int(s, NULL, st->fee_trade_bp);
			cli_sheet_int(s, NULL, st->fee_forward_cancel_bp);
			cli_sheet_int(s, NULL, st->fee_resale_bp);
			cli_sheet_bool(s, NULL, st->changed);
		}
		cli_sheet_print(ctx, s);
		cli_sheet_free(&s);
		return;
	}
	if (fx) {
		for (size_t i = 0; i < st->n_cur; i++) {
			const struct api_currency_info *c = &st->cur[i];
			char *when = i18n_fmt_when(ctx->lang, c->rate_set_at, 0);
			char *age = i18n_fmt_duration(ctx->lang, c->rate_age_s);
			if (strcmp(c->code, "USD") == 0)
				cli_say(ctx, _("%s: the base of every price (%d decimals)"), c->code,
					(int)c->exponent);
			else
				cli_say(ctx, _("%s: %lld.%06lld per US$ (%d decimals), set %s, %s ago%s%s"),
					c->code, (long long)(c->rate_micro / 1000000),
					(long long)(c->rate_micro % 1000000), (int)c->exponent, when, age,
					c->demo_rate ? _(" — the embedded demo rate") : "",
					c->stale ? _(" — older than the limit") : "");
			free(when);
			free(age);
		}
		if (st->fx_max_age_s > 0) {
			char *lim = i18n_fmt_duration(ctx->lang, st->fx_max_age_s);
			cli_say(ctx, st->fx_halt_stale ? _("Rates older than %s halt trading in their currency.")
						       : _("Rates older than %s are shown as old."), lim);
			free(lim);
		}
		return;
	}
	cli_say(ctx, _("Fees: trade %lld bp of the seller's payout; forward cancellation %lld bp; resale %lld bp."),
		(long long)st->fee_trade_bp, (long long)st->fee_forward_cancel_bp,
		(long long)st->fee_resale_bp);
	if (!st->changed)
		cli_note(ctx, "%s", _("nothing changed"));
}

/* A rate typed in units per US$ ("0.92", "150.25", "0.307") as micro-units. */
static int parse_rate(struct cli_ctx *ctx, const char *s, int64_t *out)
{
	char *cause = NULL;

	/* the C locale's "." whatever the language: rates are not money */
	if (i18n_parse_decimal(I18N_EN, s, 6, out, &cause) != 0 || *out < 1) {
		int rc = cli_usage(ctx, _("fx set: %s; accepted: units of the currency per US$, up to 6 "
					  "decimals (0.92, 150.25)"), cause != NULL ? cause : s);
		free(cause);
		return rc;
	}
	return CLI_OK;
}

static int do_fx(struct cli_ctx *ctx, struct api_client *c, const struct cli_args *a)
{
	struct api_exchange_settings *st = NULL;
	struct api_error *e = NULL;
	const char *sub = a->n_pos >= 2 ? a->pos[1] : "show";
	int rc = CLI_OK;

	if (strcmp(sub, "show") == 0 && a->n_pos <= 2) {
		rc = api_admin_settings(c, &st, &e) != 0 ? -1 : 0;
	} else if (strcmp(sub, "set") == 0 && a->n_pos == 4) {
		int64_t rate;
		long long exp = -1;
		const char *ev = cli_arg(a, cli_admin_opts, "--exponent");
		if ((rc = parse_rate(ctx, a->pos[3], &rate)) != CLI_OK ||
		    (ev != NULL && (rc = cli_parse_int(ctx, "--exponent", ev, 0, 4, &exp)) != CLI_OK))
			return rc;
		rc = api_admin_fx(c, a->pos[2], rate, (int)exp, cli_arg(a, cli_admin_opts, "--as-of"), -1,
				  -1, &st, &e) != 0 ? -1 : 0;
	} else if (strcmp(sub, "limit") == 0 && a->n_pos == 2) {
		const char *ma = cli_arg(a, cli_admin_opts, "--max-age");
		bool halt = cli_arg(a, cli_admin_opts, "--halt") != NULL;
		bool nohalt = cli_arg(a, cli_admin_opts, "--no-halt") != NULL;
		long long hours = -1;
		if (halt && nohalt)
			return cli_usage(ctx, "%s", _("fx limit: --halt or --no-halt, not both"));
		if (ma == NULL && !halt && !nohalt)
			return cli_usage(ctx, "%s", _("fx limit: give --max-age HOURS, --halt or --no-halt"));
		if (ma != NULL && (rc = cli_parse_int(ctx, "--max-age", ma, 0, 8760, &hours)) != CLI_OK)
			return rc;
		rc = api_admin_fx(c, NULL, 0, -1, NULL, hours >= 0 ? hours * 3600 : -1,
				  halt ? 1 : nohalt ? 0 : -1, &st, &e) != 0 ? -1 : 0;
	} else {
		return cli_usage(ctx, "%s", _("admin fx: show, set CURRENCY RATE, or limit --max-age HOURS "
					      "[--halt]"));
	}
	if (rc != 0) {
		rc = cli_fail_api(ctx, e);
	} else {
		print_settings(ctx, st, true);
		rc = CLI_OK;
	}
	api_exchange_settings_free(&st);
	api_error_free(&e);
	return rc;
}

static int do_fees(struct cli_ctx *ctx, struct api_client *c, const struct cli_args *a)
{
	struct api_exchange_settings *st = NULL;
	struct api_error *e = NULL;
	const char *sub = a->n_pos >= 2 ? a->pos[1] : "show";
	int64_t t = -1, f = -1, r = -1; /* -1: not changed */
	int rc;

	if (strcmp(sub, "show") == 0 && a->n_pos <= 2) {
		rc = api_admin_settings(c, &st, &e) != 0 ? -1 : 0;
	} else if (strcmp(sub, "set") == 0 && a->n_pos == 2) {
		if ((rc = cli_arg_int(ctx, a, "--trade", 0, FEE_BP_MAX, &t)) != CLI_OK ||
		    (rc = cli_arg_int(ctx, a, "--forward-cancel", 0, FEE_BP_MAX, &f)) != CLI_OK ||
		    (rc = cli_arg_int(ctx, a, "--resale", 0, FEE_BP_MAX, &r)) != CLI_OK)
			return rc;
		if (t < 0 && f < 0 && r < 0)
			return cli_usage(ctx, "%s", _("fees set: give --trade, --forward-cancel or --resale "
						      "(basis points: 100 is 1 %)"));
		rc = api_admin_fees(c, t, f, r, &st, &e) != 0 ? -1 : 0;
	} else {
		return cli_usage(ctx, "%s", _("admin fees: show, or set --trade BP --forward-cancel BP "
					      "--resale BP"));
	}
	if (rc != 0) {
		rc = cli_fail_api(ctx, e);
	} else {
		print_settings(ctx, st, false);
		rc = CLI_OK;
	}
	api_exchange_settings_free(&st);
	api_error_free(&e);
	return rc;
}

static int do_topup(struct cli_ctx *ctx, struct api_client *c, const struct cli_args *a)
{
	struct api_exchange_settings *st = NULL;
	struct api_error *e = NULL;
	const char *url = cli_arg(a, cli_admin_opts, "--url"), *text = cli_arg(a, cli_admin_opts, "--text");
	int rc;

	if (url == NULL && text == NULL)
		return cli_usage(ctx, "%s", _("admin topup: give --url URL, --text TEXT or both"));
	if (api_admin_topup(c, url, text, &st, &e) != 0) {
		rc = cli_fail_api(ctx, e);
	} else {
		cli_say(ctx, _("Top up: %s%s%s"), st->topup_text ? st->topup_text : "-",
			st->topup_url ? " " : "", st->topup_url ? st->topup_url : "");
		rc = CLI_OK;
	}
	api_exchange_settings_free(&st);
	api_error_free(&e);
	return rc;
}

/* ---- admin keys ----------------------------------------------------------------------------------- */

static const struct cli_column admin_key_columns[] = {
	{"id", NULL, CLI_RIGHT, CLI_SHOW_ALL},
	{"name", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"created_at", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"last_used_at", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{"current", NULL, CLI_LEFT, CLI_SHOW_ALL},
	{NULL},
};

static int do_keys(struct cli_ctx *ctx, struct api_client *c, const struct cli_args *a)
{
	const char *sub = a->n_pos >= 2 ? a->pos[1] : "list";
	struct api_error *e = NULL;
	int rc;

	if (strcmp(sub, "list") == 0 && a->n_pos <= 2) {
		struct api_admin_keys *l = NULL;
		if (api_admin_keys_list(c, &l, &e) != 0)
			return cli_fail_api_free(ctx, &e);
		struct cli_sheet *s = cli_sheet_new();
		cli_sheet_columns(s, admin_key_columns);
		for (size_t i = 0; i < l->n; i++) {
			cli_sheet_row(s);
			cli_cell_id(s, l->v[i].id);
			cli_sheet_text(s, l->v[i].name, l->v[i].name);
			cli_cell_time(s, ctx, l->v[i].created_at);
			cli_cell_time(s, ctx, l->v[i].last_used_at);
			cli_sheet_bool(s, l->v[i].current ? "*" : "", l->v[i].current);
		}
		cli_sheet_print(ctx, s);
		cli_sheet_free(&s);
		api_admin_keys_free(&l);
		return CLI_OK;
	}
	if (strcmp(sub, "create") == 0 && a->n_pos == 3) {
		struct api_admin_key *k = NULL;
		if (api_admin_key_create(c, a->pos[2], &k, &e) != 0)
			return cli_fail_api_free(ctx, &e);
		/* the key itself on stdout, alone, to be redirected into a 0600 file */
		fprintf(ctx->out, "%s\n", k->secret);
		cli_note(ctx, _("admin key %lld (%s) created; it is shown this once"), (long long)k->id,
			 k->name);
		api_admin_key_free(&k);
		return CLI_OK;
	}
	if (strcmp(sub, "revoke") == 0 && a->n_pos == 3) {
		struct api_admin_key *k = NULL;
		int64_t id;
		if ((rc = cli_parse_id(ctx, "ID", a->pos[2], &id)) != CLI_OK)
			return rc;
		if (api_admin_key_revoke(c, id, &k, &e) != 0)
			return cli_fail_api_free(ctx, &e);
		cli_say(ctx, _("Admin key %lld (%s) revoked: refused from now on, on every node."),
			(long long)k->id, k->name);
		api_admin_key_free(&k);
		return CLI_OK;
	}
	return cli_usage(ctx, "%s", _("admin keys: list, create NAME, or revoke ID"));
}

/* ---- the command ------------------------------------------------------------------------------------ */

static int do_open(struct cli_ctx *ctx, struct api_client *c, const struct cli_args *a)
{
	return do_market(ctx, c, "open", NULL);
}

static int do_halt(struct cli_ctx *ctx, struct api_client *c, const struct cli_args *a)
{
	return do_market(ctx, c, "halted", NULL);
}

/* admin schedule TIME, checked before the exchange is asked (so that a
 * mistyped time costs no connection); then asked. */
static int schedule_check(struct cli_ctx *ctx, const struct cli_args *a)
{
	char *iso;
	int rc;

	if (a->n_pos != 2)
		return cli_usage(ctx, "%s", _("admin schedule: give the TIME of the opening (ISO 8601 "
					      "UTC), or none"));
	rc = schedule_time(ctx, a->pos[1], &iso);
	free(iso);
	return rc;
}

static int do_schedule(struct cli_ctx *ctx, struct api_client *c, const struct cli_args *a)
{
	char *iso;
	int rc;

	if ((rc = schedule_time(ctx, a->pos[1], &iso)) == CLI_OK)
		rc = do_market(ctx, c, NULL, iso);
	free(iso);
	return rc;
}

/* What gpux admin does, by the word that names it (a->pos[0]): what is
 * checked before the exchange is asked (NULL: nothing), and the action. */
static const struct {
	const char *name;
	int (*check)(struct cli_ctx *ctx, const struct cli_args *a);
	int (*fn)(struct cli_ctx *ctx, struct api_client *c, const struct cli_args *a);
} actions[] = {
	{"open", NULL, do_open},
	{"halt", NULL, do_halt},
	{"schedule", schedule_check, do_schedule},
	{"deposit", NULL, do_deposit},
	{"reverse-deposit", NULL, do_reverse},
	{"withdrawals", NULL, do_withdrawals},
	{"withdrawal", NULL, do_decide},
	{"accounts", NULL, do_accounts},
	{"ledger", NULL, do_ledger},
	{"fx", NULL, do_fx},
	{"fees", NULL, do_fees},
	{"topup", NULL, do_topup},
	{"keys", NULL, do_keys},
};
#define N_ACTIONS (sizeof actions / sizeof actions[0])

int cli_cmd_admin(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c = NULL;
	const char *word;
	size_t i;
	int rc;

	if ((rc = cli_args_parse(ctx, "admin", cli_admin_opts, argc, argv, 4, &a)) != CLI_OK)
		return rc;
	word = a.n_pos > 0 ? a.pos[0] : "";
	for (i = 0; i < N_ACTIONS && strcmp(word, actions[i].name) != 0; i++)
		;
	if (i == N_ACTIONS)
		rc = cli_usage(ctx, "%s", _("admin: what? accepted: open, halt, schedule TIME, deposit, "
					    "reverse-deposit, withdrawals, withdrawal, accounts, ledger, "
					    "fx, fees, topup, keys (gpux admin --help)"));
	else if ((actions[i].check == NULL || (rc = actions[i].check(ctx, &a)) == CLI_OK) &&
		 (c = admin_client(ctx, &rc)) != NULL)
		rc = actions[i].fn(ctx, c, &a);
	api_client_free(&c);
	cli_args_free(&a);
	return rc;
}

/* ---- gpux withdraw --------------------------------------------------------------------------------- */

/* Ask for a withdrawal of amount (minor units) and say what became of it,
 * with one reference for this intent: a retry of the request never
 * withdraws twice. */
static int withdraw(struct cli_ctx *ctx, struct api_client *c, int64_t amount)
{
	char *ref = api_client_order_id_new();
	struct api_withdrawal *w = NULL;
	struct api_error *e = NULL;
	int rc = CLI_OK;

	if (api_withdraw(c, amount, ref, &w, &e) != 0)
		rc = cli_fail_api_free(ctx, &e);
	else
		print_wd(ctx, w);
	api_withdrawal_free(&w);
	free(ref);
	return rc;
}

int cli_cmd_withdraw(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c = NULL;
	char *ccy = NULL;
	int64_t amount;
	int exponent = 2, rc;

	if ((rc = cli_args_parse(ctx, "withdraw", cli_withdraw_opts, argc, argv, 1, &a)) != CLI_OK)
		return rc;
	if (a.n_pos != 1)
		rc = cli_usage(ctx, "%s", _("withdraw: how much? e.g. gpux withdraw 500 (in your account's "
					    "currency)"));
	else if ((c = cli_acct_open(ctx, NULL)) == NULL)
		rc = CLI_FAILED;
	else if ((rc = account_currency(ctx, c, 0, &ccy, &exponent)) == CLI_OK &&
		 (rc = parse_amount(ctx, "withdraw", a.pos[0], exponent, ccy, &amount)) == CLI_OK)
		rc = withdraw(ctx, c, amount);
	free(ccy);
	api_client_free(&c);
	cli_args_free(&a);
	return rc;
}
