/*
 * The account commands of gpux: keys, account, deposit (and, for them and
 * cli/cmd_signup.c, the helpers of cli/account_int.h).
 *
 * `gpux keys` lists, creates and revokes the account's API keys; a new key
 * is shown once (or written to a new 0600 file with --save, never over an
 * existing one). `gpux account` shows the balances and where the market
 * stands: when it opens (in the user's language and time zone) and how to
 * top up on a real exchange. `gpux deposit` tops up on a demo exchange and,
 * on a real one, prints the operator's instructions instead of a refusal.
 */
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "api/api.h"
#include "i18n/i18n.h"
#include "util/util.h"
#include "view/view.h"

#include "cli/cli_int.h"

#define MAX_DEPOSIT_MINOR 100000000000LL

/* ---- options ----------------------------------------------------------------------- */


/* ---- helpers ----------------------------------------------------------------------- */

char *cli_acct_ascii(const struct cli_ctx *ctx, char *s)
{
	if (ctx->ascii) {
		char *a = i18n_ascii(s);
		free(s);
		return a;
	}
	return s;
}

/* The exchange of the flags/environment/config (or the local demo one);
 * *key_given tells whether an API key was configured. NULL after saying why. */
struct api_client *cli_acct_open(struct cli_ctx *ctx, bool *key_given)
{
	struct api_settings used = {0};
	struct api_client *c = cli_open_client_settings(ctx, &used);

	if (key_given != NULL)
		*key_given = used.key != NULL;
	api_settings_clear(&used);
	return c;
}

char *cli_acct_vat(const struct cli_ctx *ctx, int64_t bp)
{
	return i18n_fmt_percent(ctx->lang, (double)bp / 100.0, 2);
}

/* What a new account needs to hear about the market: "The market is open.",
 * "Trading opens on 1 September 2027 at 10:00." (local time), … Malloc'ed. */
char *cli_acct_opening(const struct cli_ctx *ctx, const struct api_topup *t)
{
	if (t->state == API_MARKET_OPEN)
		return xstrdup(_("The market is open."));
	if (t->state == API_MARKET_HALTED && t->opens_at < 0)
		return xstrdup(_("Trading is halted on the exchange for now."));
	if (t->opens_at < 0)
		return xstrdup(_("The market is not open yet; no opening time has been announced."));
	char *when = i18n_fmt_when(ctx->lang, t->opens_at, 0);
	char *s = xasprintf(t->state == API_MARKET_HALTED ? _("Trading is halted; it reopens on %s.")
							 : _("Trading opens on %s."), when);
	free(when);
	if (t->server_time >= 0 && t->opens_at > t->server_time) {
		/* the countdown, on the exchange's clock */
		char *in = i18n_fmt_duration(ctx->lang, t->opens_at - t->server_time);
		char *with = xasprintf(_("%s (in %s)"), s, in);
		free(in);
		free(s);
		s = with;
	}
	return s;
}

/* How to top up on this exchange, one or two lines on ctx->out. */
void cli_acct_topup(struct cli_ctx *ctx, const struct api_topup *t)
{
	if (t->simulated_payments) {
		cli_say(ctx, "%s", _("To top up: gpux deposit AMOUNT (simulated money on this demo "
				 "exchange)."));
		return;
	}
	if (t->text != NULL)
		cli_say(ctx, _("To top up: %s"), t->text);
	if (t->url != NULL)
		cli_say(ctx, _("Top up at: %s"), t->url);
	if (t->text == NULL && t->url == NULL)
		cli_say(ctx, "%s", _("To top up, ask the exchange's operator: this exchange has not "
				 "published how."));
}

/* ---- gpux keys --------------------------------------------------------------------- */

static const char *scope_text(enum api_key_scope s)
{
	return s == API_SCOPE_READ ? _("read-only") : _("trade");
}

static int print_keys(struct cli_ctx *ctx, const struct api_keys *k)
{
	struct cli_sheet *s = cli_sheet_new();
	char *n;

	cli_sheet_column(s, "id", _("Id"), CLI_RIGHT);
	cli_sheet_column(s, "name", _("Name"), CLI_LEFT);
	cli_sheet_column(s, "scope", _("Scope"), CLI_LEFT);
	cli_sheet_column(s, "created_at", _("Created"), CLI_LEFT);
	cli_sheet_column(s, "last_used_at", _("Last used"), CLI_LEFT);
	cli_sheet_column(s, "current", _("In use here"), CLI_LEFT);
	for (size_t i = 0; i < k->n; i++) {
		const struct api_key *x = &k->v[i];
		cli_sheet_row(s);
		cli_cell_id(s, x->id);
		cli_sheet_text(s, x->name, x->name);
		cli_sheet_text(s, scope_text(x->scope), api_key_scope_name(x->scope));
		cli_cell_time(s, ctx, x->created_at);
		cli_cell_time(s, ctx, x->last_used_at);
		cli_sheet_bool(s, x->current ? _("yes") : "", x->current);
	}
	n = xasprintf(_("%zu of at most %lld keys; the last use is recorded to the minute."), k->n,
		      (long long)k->max);
	cli_sheet_note(s, n);
	free(n);
	return cli_sheet_print_free(ctx, &s);
}

static int keys_list(struct cli_ctx *ctx, struct api_client *c)
{
	struct api_keys *k = NULL;
	struct api_error *e = NULL;
	int rc;

	if (api_keys_list(c, &k, &e) != 0)
		return cli_fail_api_free(ctx, &e);
	rc = print_keys(ctx, k);
	api_keys_free(&k);
	return rc;
}

/* Write key to a new file path, mode 0600; 0 or -1 with errno. */
static int save_key(const char *path, const char *key)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	size_t n = strlen(key), off = 0;

	if (fd < 0)
		return -1;
	while (off <= n) {
		const char *p = off < n ? key + off : "\n";
		ssize_t w = write(fd, p, off < n ? n - off : 1);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0 || fsync(fd) != 0) {
			int err = errno;
			close(fd);
			unlink(path);
			errno = err;
			return -1;
		}
		off += (size_t)w;
	}
	return close(fd);
}

/* What a refused keys request says (key id: the key it was about, or 0),
 * and frees e; CLI_FAILED. */
static int keys_fail(struct cli_ctx *ctx, struct api_error **e, long long id)
{
	const char *code = (*e)->code != NULL ? (*e)->code : "";
	int rc;

	if (strcmp(code, "KEY_SCOPE") == 0)
		rc = cli_fail(ctx, "%s", _("keys: this is a read-only key; creating and "
					   "revoking keys needs a trade key"));
	else if (strcmp(code, "TOO_MANY_KEYS") == 0)
		rc = cli_fail(ctx, "%s", _("keys: the account has as many keys as it may; "
					   "revoke one first (gpux keys list)"));
	else if (strcmp(code, "LAST_TRADE_KEY") == 0)
		rc = cli_fail(ctx, _("keys: key %lld is your account's last trade key, so it "
				     "stays: create another first (gpux keys create), then "
				     "revoke this one"), id);
	else if (strcmp(code, "NOT_FOUND") == 0 && id > 0)
		rc = cli_fail(ctx, _("keys: your account has no active key %lld (see gpux keys "
				     "list)"), id);
	else
		rc = cli_fail_api(ctx, *e);
	api_error_free(e);
	return rc;
}

static int keys_create(struct cli_ctx *ctx, struct api_client *c, const struct cli_args *a)
{
	const char *name = cli_arg(a, cli_keys_opts, "--name");
	const char *file = cli_arg(a, cli_keys_opts, "--save");
	bool ro = cli_arg(a, cli_keys_opts, "--read-only") != NULL;
	struct api_key *k = NULL;
	struct api_error *e = NULL;
	int rc = CLI_OK;

	if (api_key_create(c, name, ro ? API_SCOPE_READ : API_SCOPE_TRADE, &k, &e) != 0)
		return keys_fail(ctx, &e, 0);
	if (file != NULL) {
		if (save_key(file, k->api_key) != 0) {
			/* created but not saved: revoke it rather than lose it */
			int err = errno;
			struct api_key *gone = NULL;
			bool revoked = api_key_revoke(c, k->id, &gone, NULL) == 0;
			rc = cli_fail(ctx, _("keys: cannot write %s: %s; the new key %lld was %s"), file,
				      strerror(err), (long long)k->id,
				      revoked ? _("revoked again") : _("created: revoke it"));
			api_key_free(&gone);
		} else if (ctx->format == CLI_FORMAT_TABLE) {
			cli_say(ctx, _("Key %lld (%s, %s) created and written to %s (mode 0600)."),
			    (long long)k->id, k->name, scope_text(k->scope), file);
		}
	} else if (ctx->format == CLI_FORMAT_TABLE) {
		cli_say(ctx, _("Key %lld (%s, %s) created. It is shown this once; keep it now:"),
		    (long long)k->id, k->name, scope_text(k->scope));
		fprintf(ctx->out, "%s\n", k->api_key);
	}
	if (rc == CLI_OK && ctx->format != CLI_FORMAT_TABLE) {
		struct cli_record *r = cli_record_new();
		cli_record_int(r, "id", k->id);
		cli_record_text(r, "name", k->name);
		cli_record_text(r, "scope", api_key_scope_name(k->scope));
		cli_record_text(r, "api_key", file != NULL ? NULL : k->api_key);
		cli_record_print(ctx, &r);
	}
	api_key_free(&k);
	return rc;
}

static int keys_revoke(struct cli_ctx *ctx, struct api_client *c, const char *arg)
{
	struct api_key *k = NULL;
	struct api_error *e = NULL;
	long long id;
	int rc;

	if ((rc = cli_parse_int(ctx, "keys revoke", arg, 1, 999999999999999LL, &id)) != CLI_OK)
		return rc;
	if (api_key_revoke(c, id, &k, &e) != 0)
		return keys_fail(ctx, &e, id);
	if (ctx->format == CLI_FORMAT_TABLE)
		cli_say(ctx, _("Key %lld (%s) is revoked: it no longer works."), id, k->name);
	else {
		struct cli_record *r = cli_record_new();
		cli_record_int(r, "id", k->id);
		cli_record_text(r, "name", k->name);
		cli_record_time(r, "revoked_at", k->revoked_at);
		cli_record_print(ctx, &r);
	}
	if (k->current)
		cli_note(ctx, "%s", _("that was the key this gpux used: give it another one (--key, "
				  "GPUX_API_KEY or key = in the config file)"));
	api_key_free(&k);
	return CLI_OK;
}

int cli_cmd_keys(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c = NULL;
	const char *sub;
	int rc;

	if ((rc = cli_args_parse(ctx, "keys", cli_keys_opts, argc, argv, 2, &a)) != CLI_OK)
		return rc;
	sub = a.n_pos > 0 ? a.pos[0] : "list";
	if (strcmp(sub, "list") != 0 && strcmp(sub, "create") != 0 && strcmp(sub, "revoke") != 0) {
		rc = cli_usage(ctx, _("keys: \"%s\" is not something keys does; accepted: list, "
				      "create, revoke ID"), sub);
	} else if (strcmp(sub, "revoke") == 0 ? a.n_pos != 2 : a.n_pos > 1) {
		rc = cli_usage(ctx, "%s", strcmp(sub, "revoke") == 0
					  ? _("keys revoke: which key? e.g. gpux keys revoke 3 (the ids "
					      "are in gpux keys list)")
					  : _("keys: too many arguments; accepted: list, create, revoke ID"));
	} else if (strcmp(sub, "create") != 0 &&
		   (cli_arg(&a, cli_keys_opts, "--read-only") || cli_arg(&a, cli_keys_opts, "--name") ||
		    cli_arg(&a, cli_keys_opts, "--save"))) {
		rc = cli_usage(ctx, _("keys %s: --read-only, --name and --save are for keys create"),
			       sub);
	} else if ((c = cli_acct_open(ctx, NULL)) == NULL) {
		rc = CLI_FAILED;
	} else if (strcmp(sub, "list") == 0) {
		rc = keys_list(ctx, c);
	} else if (strcmp(sub, "create") == 0) {
		rc = keys_create(ctx, c, &a);
	} else {
		rc = keys_revoke(ctx, c, a.pos[1]);
	}
	api_client_free(&c);
	cli_args_free(&a);
	return rc;
}

/* ---- gpux account, gpux deposit ----------------------------------------------------- */

static void kv_text(struct cli_sheet *s, const char *label, const char *v)
{
	cli_sheet_row(s);
	cli_sheet_text(s, label, label);
	cli_sheet_text(s, v, v);
}

static void kv_money(struct cli_sheet *s, const struct cli_ctx *ctx, const char *label,
		     int64_t v, const char *ccy)
{
	char *d = cli_fmt_money(ctx, v, ccy);

	kv_text(s, label, d);
	free(d);
}

static void kv_count(struct cli_sheet *s, const char *label, int64_t v)
{
	char *t = xasprintf("%lld", (long long)v);

	kv_text(s, label, t);
	free(t);
}

void cli_acct_record(struct cli_record *r, const struct api_account *a)
{
	cli_record_int(r, "id", a->id);
	cli_record_text(r, "email", a->email);
	cli_record_text(r, "country", a->country);
	cli_record_text(r, "currency", a->currency);
	cli_record_text(r, "role", api_role_name(a->role));
	cli_record_int(r, "vat_rate_bp", a->vat_rate_bp);
}

/* csv/json: one row of raw values. t may be NULL (the market was not read). */
static void account_data(struct cli_ctx *ctx, const struct api_account *a, bool local,
			 const struct api_topup *t)
{
	struct cli_record *r = cli_record_new();

	cli_acct_record(r, a);
	cli_record_int(r, "available_minor", a->balance.available_minor);
	cli_record_int(r, "held_minor", a->balance.held_minor);
	cli_record_int(r, "total_minor", a->balance.total_minor);
	cli_record_int(r, "open_orders", a->open_orders);
	cli_record_int(r, "active_rentals", a->active_rentals);
	cli_record_bool(r, "local_demo", local);
	cli_record_text(r, "market_state", t != NULL ? api_market_state_name(t->state) : NULL);
	cli_record_time(r, "opens_at", t != NULL ? t->opens_at : -1);
	cli_record_text(r, "topup_url", t != NULL ? t->url : NULL);
	cli_record_text(r, "topup_text", t != NULL ? t->text : NULL);
	cli_record_int(r, "debt_minor", a->balance.debt_minor);
	cli_record_int(r, "withdrawals_pending_minor", a->balance.withdrawals_pending_minor);
	cli_record_time(r, "fx_rate_set_at", a->fx_rate_set_at);
	cli_record_bool(r, "fx_rate_stale", a->fx_rate_stale);
	cli_record_print(ctx, &r);
}

static void print_account(struct cli_ctx *ctx, const struct api_account *a, bool local,
			  const struct api_topup *t)
{
	struct cli_sheet *s;
	char *v, *cv, *id;

	if (ctx->format != CLI_FORMAT_TABLE) {
		account_data(ctx, a, local, t);
		return;
	}
	s = cli_sheet_new();
	v = cli_acct_vat(ctx, a->vat_rate_bp);
	cli_sheet_column(s, "field", _("Account"), CLI_LEFT);
	cli_sheet_column(s, "value", "", CLI_LEFT);
	id = xasprintf("%lld", (long long)a->id);
	kv_text(s, _("Id"), id);
	kv_text(s, _("Email"), a->email);
	cv = xasprintf("%s (%s %s)", a->country, _("VAT"), v);
	kv_text(s, _("Country"), cv);
	kv_text(s, _("Currency"), a->currency);
	kv_text(s, _("Role"), view_role_text(ctx->lang, a->role));
	kv_money(s, ctx, _("Available"), a->balance.available_minor, a->currency);
	kv_money(s, ctx, _("Held"), a->balance.held_minor, a->currency);
	kv_money(s, ctx, _("Total"), a->balance.total_minor, a->currency);
	if (a->balance.withdrawals_pending_minor > 0)
		kv_money(s, ctx, _("Being paid out"), a->balance.withdrawals_pending_minor, a->currency);
	if (a->balance.debt_minor > 0)
		kv_money(s, ctx, _("Owed"), a->balance.debt_minor, a->currency);
	if (a->fx_rate_stale && a->fx_rate_set_at >= 0) {
		int64_t age = (int64_t)time(NULL) - a->fx_rate_set_at;
		char *when = i18n_fmt_when(ctx->lang, a->fx_rate_set_at, 0);
		char *ago = i18n_fmt_duration(ctx->lang, age > 0 ? age : 0);
		char *fx = xasprintf(_("set %s, %s ago: older than the exchange's limit"), when, ago);
		kv_text(s, _("FX rate"), fx);
		free(fx);
		free(ago);
		free(when);
	}
	kv_count(s, _("Open orders"), a->open_orders);
	kv_count(s, _("Active rentals"), a->active_rentals);
	if (t != NULL) {
		char *w = cli_acct_opening(ctx, t);
		kv_text(s, _("Market"), w);
		free(w);
		if (!t->simulated_payments && t->text != NULL)
			kv_text(s, _("Top up"), t->text);
		if (!t->simulated_payments && t->url != NULL)
			kv_text(s, t->text != NULL ? "" : _("Top up"), t->url);
	}
	if (local)
		cli_sheet_note(s, _("Local demo exchange: simulated money."));
	free(v);
	free(cv);
	free(id);
	cli_sheet_print(ctx, s);
	cli_sheet_free(&s);
}

int cli_cmd_account(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c;
	struct api_account *acc = NULL;
	struct api_topup *t = NULL;
	struct api_error *e = NULL;
	bool key_given = false;
	int rc;

	if ((rc = cli_args_parse(ctx, "account", cli_account_opts, argc, argv, 0, &a)) != CLI_OK)
		return rc;
	cli_args_free(&a);
	if ((c = cli_acct_open(ctx, &key_given)) == NULL)
		return CLI_FAILED;
	if (api_account(c, &acc, &e) != 0) {
		rc = cli_fail_api(ctx, e);
		if (e->http_status == 401 && !key_given)
			cli_note(ctx, "%s", _("no API key is configured: open an account with gpux signup, "
					  "or give your key with --key, GPUX_API_KEY or \"key = …\" in "
					  "the config file"));
		else if (e->http_status == 401)
			cli_note(ctx, "%s", _("the exchange does not know this API key, or it was revoked: "
					  "give another with --key, GPUX_API_KEY or \"key = …\" in the "
					  "config file"));
	} else {
		/* the opening time and top-up words are extras: without them, still the account */
		api_topup(c, &t, NULL);
		print_account(ctx, acc, api_client_is_local_demo(c), t);
		rc = CLI_OK;
	}
	api_topup_free(&t);
	api_account_free(&acc);
	api_error_free(&e);
	api_client_free(&c);
	return rc;
}

static void print_deposit(struct cli_ctx *ctx, const struct api_deposit *d)
{
	if (ctx->format == CLI_FORMAT_TABLE) {
		char *x = cli_fmt_money(ctx, d->amount_minor, d->currency);
		char *av = cli_fmt_money(ctx, d->balance.available_minor, d->currency);
		cli_say(ctx, _("Deposited %s; available now %s."), x, av);
		free(x);
		free(av);
		return;
	}
	struct cli_record *r = cli_record_new();
	cli_record_int(r, "id", d->id);
	cli_record_int(r, "amount_minor", d->amount_minor);
	cli_record_text(r, "currency", d->currency);
	cli_record_int(r, "available_minor", d->balance.available_minor);
	cli_record_int(r, "held_minor", d->balance.held_minor);
	cli_record_int(r, "total_minor", d->balance.total_minor);
	cli_record_print(ctx, &r);
}

/* A real exchange: its top-up words instead of a deposit, and the account
 * id to give as the payment's reference (the operator credits by it). */
static int deposit_real(struct cli_ctx *ctx, struct api_client *c, const struct api_topup *t)
{
	struct api_account *acc = NULL;

	cli_say(ctx, "%s", _("This exchange takes real payments, so gpux cannot top up here."));
	cli_acct_topup(ctx, t);
	if (api_account(c, &acc, NULL) == 0)
		cli_say(ctx, _("Give your account id, %lld, as the payment's reference, so that the "
			       "operator credits it to you."), (long long)acc->id);
	api_account_free(&acc);
	cli_note(ctx, "%s", _("deposit: nothing was deposited; top up as the exchange says above"));
	return CLI_FAILED;
}

int cli_cmd_deposit(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c = NULL;
	struct api_deposit *d = NULL;
	struct api_topup *t = NULL;
	struct api_error *e = NULL;
	int64_t amount = 0;
	char *cause = NULL;
	int rc;

	if ((rc = cli_args_parse(ctx, "deposit", cli_deposit_opts, argc, argv, 1, &a)) != CLI_OK)
		return rc;
	if (a.n_pos == 1 && (i18n_parse_decimal(ctx->lang, a.pos[0], 2, &amount, &cause) != 0 ||
			     amount < 1 || amount > MAX_DEPOSIT_MINOR)) {
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
	if ((c = cli_acct_open(ctx, NULL)) == NULL) {
		rc = CLI_FAILED;
		goto out;
	}
	if (api_topup(c, &t, &e) != 0) {
		rc = cli_fail_api(ctx, e);
		goto out;
	}
	if (!t->simulated_payments) {
		rc = deposit_real(ctx, c, t);
		goto out;
	}
	if (a.n_pos != 1) {
		rc = cli_usage(ctx, "%s", _("deposit: how much? e.g. gpux deposit 500 (in your "
					    "account's currency)"));
		goto out;
	}
	if (api_deposit(c, amount, &d, &e) != 0) {
		rc = cli_fail_api(ctx, e);
		if (e->code != NULL && strcmp(e->code, "KEY_SCOPE") == 0)
			cli_note(ctx, "%s", _("this is a read-only key: deposits need a trade key"));
		goto out;
	}
	print_deposit(ctx, d);
	rc = CLI_OK;
out:
	api_topup_free(&t);
	api_deposit_free(&d);
	api_error_free(&e);
	api_client_free(&c);
	cli_args_free(&a);
	return rc;
}
