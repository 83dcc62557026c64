/*
 * `gpux account` (balances and the account's country, currency, role) and
 * `gpux deposit AMOUNT` (demo exchanges only).
 */
#include "cli/cli_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "util/util.h"
#include "view/view.h"

#define MAX_DEPOSIT_MINOR 100000000000LL

/* ---- gpux account, gpux deposit --------------------------------------------------------------- */

static void kv_money(struct cli_sheet *s, const struct cli_ctx *ctx, const char *label,
		     int64_t v, const char *ccy)
{
	char *d = cli_fmt_money(ctx, v, ccy);

	cli_sheet_row(s);
	cli_sheet_text(s, label, label);
	cli_sheet_text(s, d, d);
	free(d);
}

static void kv_text(struct cli_sheet *s, const char *label, const char *v)
{
	cli_sheet_row(s);
	cli_sheet_text(s, label, label);
	cli_sheet_text(s, v, v);
}

static void print_account(struct cli_ctx *ctx, const struct api_account *a, bool local)
{
	struct cli_sheet *s = cli_sheet_new();
	char *t;

	if (ctx->format != CLI_FORMAT_TABLE) {
		cli_sheet_column(s, "id", "id", CLI_RIGHT);
		cli_sheet_column(s, "email", "email", CLI_LEFT);
		cli_sheet_column(s, "country", "country", CLI_LEFT);
		cli_sheet_column(s, "currency", "currency", CLI_LEFT);
		cli_sheet_column(s, "role", "role", CLI_LEFT);
		cli_sheet_column(s, "vat_rate_bp", "vat_rate_bp", CLI_RIGHT);
		cli_sheet_column(s, "available_minor", "available_minor", CLI_RIGHT);
		cli_sheet_column(s, "held_minor", "held_minor", CLI_RIGHT);
		cli_sheet_column(s, "total_minor", "total_minor", CLI_RIGHT);
		cli_sheet_column(s, "open_orders", "open_orders", CLI_RIGHT);
		cli_sheet_column(s, "active_rentals", "active_rentals", CLI_RIGHT);
		cli_sheet_column(s, "local_demo", "local_demo", CLI_LEFT);
		cli_sheet_row(s);
		cli_sheet_int(s, NULL, a->id);
		cli_sheet_text(s, NULL, a->email);
		cli_sheet_text(s, NULL, a->country);
		cli_sheet_text(s, NULL, a->currency);
		cli_sheet_text(s, NULL, api_role_name(a->role));
		cli_sheet_int(s, NULL, a->vat_rate_bp);
		cli_sheet_int(s, NULL, a->balance.available_minor);
		cli_sheet_int(s, NULL, a->balance.held_minor);
		cli_sheet_int(s, NULL, a->balance.total_minor);
		cli_sheet_int(s, NULL, a->open_orders);
		cli_sheet_int(s, NULL, a->active_rentals);
		cli_sheet_bool(s, NULL, local);
	} else {
		cli_sheet_column(s, "field", _("Account"), CLI_LEFT);
		cli_sheet_column(s, "value", "", CLI_LEFT);
		t = xasprintf("%lld", (long long)a->id);
		kv_text(s, _("Id"), t);
		free(t);
		kv_text(s, _("Email"), a->email);
		t = i18n_fmt_percent(ctx->lang, (double)a->vat_rate_bp / 100.0, 2);
		{
			char *cv = xasprintf("%s (%s %s)", a->country, _("VAT"), t);
			kv_text(s, _("Country"), cv);
			free(cv);
		}
		free(t);
		kv_text(s, _("Currency"), a->currency);
		kv_text(s, _("Role"), view_role_text(ctx->lang, a->role));
		kv_money(s, ctx, _("Available"), a->balance.available_minor, a->currency);
		kv_money(s, ctx, _("Held"), a->balance.held_minor, a->currency);
		kv_money(s, ctx, _("Total"), a->balance.total_minor, a->currency);
		t = xasprintf("%lld", (long long)a->open_orders);
		kv_text(s, _("Open orders"), t);
		free(t);
		t = xasprintf("%lld", (long long)a->active_rentals);
		kv_text(s, _("Active rentals"), t);
		free(t);
		if (local)
			cli_sheet_note(s, _("Local demo exchange: simulated money."));
	}
	cli_sheet_print(ctx, s);
	cli_sheet_free(&s);
}

int cli_cmd_account(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c;
	struct api_account *acc = NULL;
	struct api_error *e = NULL;
	int rc;

	if ((rc = cli_args_parse(ctx, "account", cli_account_opts, argc, argv, 0, &a)) != CLI_OK)
		return rc;
	cli_args_free(&a);
	if ((c = cli_open_client(ctx, 0, 0, false, NULL)) == NULL)
		return CLI_FAILED;
	if (api_account(c, &acc, &e) != 0) {
		rc = cli_fail_api(ctx, e);
		if (e->http_status == 401)
			cli_note(ctx, "%s", _("give your API key with --key, GPUX_API_KEY or \"key = …\" in "
					  "the config file"));
	} else {
		print_account(ctx, acc, api_client_is_local_demo(c));
		rc = CLI_OK;
	}
	api_account_free(&acc);
	api_error_free(&e);
	api_client_free(&c);
	return rc;
}

int cli_cmd_deposit(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c = NULL;
	struct api_account *acc = NULL;
	struct api_deposit *d = NULL;
	struct api_error *e = NULL;
	int64_t amount;
	char *cause = NULL;
	int rc;

	if ((rc = cli_args_parse(ctx, "deposit", cli_deposit_opts, argc, argv, 1, &a)) != CLI_OK)
		return rc;
	if (a.n_pos != 1) {
		rc = cli_usage(ctx, "%s", _("deposit: how much? e.g. gpux deposit 500 (in your "
					    "account's currency)"));
		goto out;
	}
	if (i18n_parse_decimal(ctx->lang, a.pos[0], 2, &amount, &cause) != 0 || amount < 1 ||
	    amount > MAX_DEPOSIT_MINOR) {
		char *lo = i18n_fmt_number(ctx->lang, 0.01, 2);
		char *hi = i18n_fmt_number(ctx->lang, (double)MAX_DEPOSIT_MINOR / 100.0, 0);
		const char *eg = i18n_decimal_sep(ctx->lang) == ',' ? "500,00" : "500.00";

		/* the parser's cause quotes the amount already */
		if (cause != NULL)
			rc = cli_usage(ctx, _("deposit: %s; accepted: %s to %s in your account's "
					      "currency, e.g. %s"), cause, lo, hi, eg);
		else
			rc = cli_usage(ctx, _("deposit: \"%s\" is out of range; accepted: %s to %s in "
					      "your account's currency, e.g. %s"), a.pos[0], lo, hi, eg);
		free(lo);
		free(hi);
		free(cause);
		goto out;
	}
	if ((c = cli_open_client(ctx, 0, 0, false, NULL)) == NULL) {
		rc = CLI_FAILED;
		goto out;
	}
	if (api_deposit(c, amount, &d, &e) != 0) {
		rc = cli_fail_api(ctx, e);
		if (e->http_status == 403)
			cli_note(ctx, "%s", _("this exchange takes real payments: top up through its "
					  "operator, not with gpux deposit"));
		goto out;
	}
	if (ctx->format == CLI_FORMAT_TABLE) {
		char *x = cli_fmt_money(ctx, d->amount_minor, d->currency);
		char *av = cli_fmt_money(ctx, d->balance.available_minor, d->currency);
		cli_say(ctx, _("Deposited %s; available now %s."), x, av);
		free(x);
		free(av);
	} else {
		struct cli_sheet *s = cli_sheet_new();
		cli_sheet_column(s, "id", "id", CLI_RIGHT);
		cli_sheet_column(s, "amount_minor", "amount_minor", CLI_RIGHT);
		cli_sheet_column(s, "currency", "currency", CLI_LEFT);
		cli_sheet_column(s, "available_minor", "available_minor", CLI_RIGHT);
		cli_sheet_column(s, "held_minor", "held_minor", CLI_RIGHT);
		cli_sheet_column(s, "total_minor", "total_minor", CLI_RIGHT);
		cli_sheet_row(s);
		cli_sheet_int(s, NULL, d->id);
		cli_sheet_int(s, NULL, d->amount_minor);
		cli_sheet_text(s, NULL, d->currency);
		cli_sheet_int(s, NULL, d->balance.available_minor);
		cli_sheet_int(s, NULL, d->balance.held_minor);
		cli_sheet_int(s, NULL, d->balance.total_minor);
		cli_sheet_print(ctx, s);
		cli_sheet_free(&s);
	}
	rc = CLI_OK;
out:
	api_account_free(&acc);
	api_deposit_free(&d);
	api_error_free(&e);
	api_client_free(&c);
	cli_args_free(&a);
	return rc;
}
