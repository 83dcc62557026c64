/*
 * gpux signup: an account on the configured exchange, from the terminal.
 *
 * It reads the exchange's market first (the countries of its VAT table, the
 * currencies it offers, when it opens, how to top up), checks every field
 * before anything is created — flags at once, with exit status 2; on a
 * terminal each answer as it is given, with readline and Tab completion of
 * the accepted values — and checks that the key can be saved before it asks
 * for it, so an account is never created whose key would be lost. The key
 * goes to the config file (api/config_write.c: atomically, mode 0600, never
 * over another key without --force) and is printed only with --show-key. A
 * failure on the way leaves the config file as it was. Never on the local
 * demo exchange, which has its account already.
 */
#include "cli/cli.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <readline/readline.h>

#include "api/api.h"
#include "i18n/i18n.h"
#include "util/util.h"
#include "view/view.h"

#include "cli/cli_int.h"


/* ---- signup: the fields ------------------------------------------------------------ */

struct signup {
	char *email;
	char country[3];
	char currency[4];
	int role;                  /* enum api_role, -1 = not given */
	int64_t vat_bp;
};

/* The shared checks (view/signup.c) on the fields of f. */
static int field_country(const struct api_market *m, const char *s, struct signup *f, char **why)
{
	return view_signup_country(m, s, f->country, &f->vat_bp, why);
}

static int field_currency(const struct api_market *m, const char *s, struct signup *f, char **why)
{
	return view_signup_currency(m, s, f->currency, why);
}

static int field_role(const char *s, struct signup *f, char **why, bool asked)
{
	return view_signup_role(s, asked, &f->role, why);
}

static int field_email(const char *s, struct signup *f, char **why)
{
	if (view_signup_email(s, why) != 0)
		return -1;
	free(f->email);
	f->email = xstrdup(s);
	return 0;
}

/* ---- signup: asking on a terminal ------------------------------------------------ */

static const char *const *complete_words;
static char *complete_next(const char *text, int state)
{
	static size_t i, len;

	if (state == 0) {
		i = 0;
		len = strlen(text);
	}
	while (complete_words != NULL && complete_words[i] != NULL) {
		const char *w = complete_words[i++];
		if (strncasecmp(w, text, len) == 0)
			return xstrdup(w);
	}
	return NULL;
}

static char **complete(const char *text, int start, int end)
{
	(void)start;
	(void)end;
	rl_attempted_completion_over = 1;
	return complete_words != NULL ? rl_completion_matches(text, complete_next) : NULL;
}

/* One answer, read with readline; "" becomes dflt (when not NULL). NULL on
 * end of input. Tab completes from words (NULL: nothing). */
static char *ask(const char *prompt, const char *dflt, const char *const *words)
{
	char *line;

	complete_words = words;
	rl_attempted_completion_function = complete;
	/* one Tab lists what fits when it is ambiguous (PL, PT) */
	rl_variable_bind("show-all-if-ambiguous", "on");
	rl_variable_bind("completion-ignore-case", "on");
	line = readline(prompt);
	complete_words = NULL;
	if (line == NULL)
		return NULL;
	char *t = line;
	while (*t == ' ' || *t == '\t')
		t++;
	size_t n = strlen(t);
	while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\t'))
		n--;
	char *r = n == 0 && dflt != NULL ? xstrdup(dflt) : xstrndup(t, n);
	free(line);
	return r;
}

enum field { F_EMAIL, F_COUNTRY, F_CURRENCY, F_ROLE };

/* Ask for field k until a valid answer; 0, or -1 at end of input. */
static int ask_field(struct cli_ctx *ctx, const struct api_market *m, enum field k,
		     struct signup *f, const char *const *countries)
{
	const char *role_local[4] = {NULL, NULL, NULL, NULL};

	for (;;) {
		char *prompt = NULL, *a, *why = NULL;
		const char *dflt = NULL;
		const char *const *words = NULL;
		switch (k) {
		case F_EMAIL:
			prompt = xstrdup(_("E-mail address: "));
			break;
		case F_COUNTRY:
			prompt = xasprintf(_("Country, two letters (e.g. PT; Tab lists them): "));
			words = countries;
			break;
		case F_CURRENCY: {
			char *list = view_signup_currencies(m);
			dflt = view_signup_default_currency(m, f->country);
			prompt = xasprintf(_("Currency (%s) [%s]: "), list, dflt);
			words = (const char *const *)m->currencies;
			free(list);
			break;
		}
		case F_ROLE:
			role_local[0] = _("buyer");
			role_local[1] = _("seller");
			role_local[2] = _("both");
			dflt = role_local[0];
			prompt = xasprintf(_("Role: %s, %s or %s [%s]: "), role_local[0], role_local[1],
					   role_local[2], dflt);
			words = role_local;
			break;
		}
		prompt = cli_acct_ascii(ctx, prompt);
		a = ask(prompt, dflt, words);
		free(prompt);
		if (a == NULL)
			return -1;
		int rc = k == F_EMAIL ? field_email(a, f, &why)
		       : k == F_COUNTRY ? field_country(m, a, f, &why)
		       : k == F_CURRENCY ? field_currency(m, a, f, &why)
		       : field_role(a, f, &why, true);
		free(a);
		if (rc == 0) {
			if (k == F_COUNTRY) {
				char *v = cli_acct_vat(ctx, f->vat_bp);
				cli_say(ctx, _("  %s: VAT of %s is added to what you buy."), f->country, v);
				free(v);
			}
			return 0;
		}
		cli_note(ctx, "%s", why);
		free(why);
	}
}

/* Yes to "question [y/N]" on the terminal? */
static bool ask_yes(struct cli_ctx *ctx, const char *question)
{
	char *p = cli_acct_ascii(ctx, xasprintf("%s ", question));
	char *a = ask(p, "", NULL);
	bool yes = cli_is_yes(a);

	free(p);
	free(a);
	return yes;
}

/* ---- gpux signup ------------------------------------------------------------------- */

struct signup_run {
	struct cli_args a;
	struct api_settings set;
	struct api_client *c;
	struct api_market *m;
	struct api_topup *t;
	struct api_account *acc;
	struct api_error *e;
	char **countries;          /* NULL-terminated, borrowed from m */
	struct signup f;
	bool force, show_key, yes, tty;
	char *saved_in;            /* the profile the key went to, NULL: the top level */
};

static void signup_run_clear(struct signup_run *r)
{
	cli_args_free(&r->a);
	api_settings_clear(&r->set);
	api_account_free(&r->acc);
	api_market_free(&r->m);
	api_topup_free(&r->t);
	api_error_free(&r->e);
	api_client_free(&r->c);
	free(r->countries);
	free(r->f.email);
	free(r->saved_in);
}

/* The flags that need no exchange; CLI_OK or a usage error. */
static int signup_flags_offline(struct cli_ctx *ctx, struct signup_run *r)
{
	const char *email = cli_arg(&r->a, cli_signup_opts, "--email");
	const char *role = cli_arg(&r->a, cli_signup_opts, "--role");
	char *why = NULL;
	struct buf missing = {0};
	int rc = CLI_OK;

	if ((email != NULL && field_email(email, &r->f, &why) != 0) ||
	    (role != NULL && field_role(role, &r->f, &why, false) != 0)) {
		rc = cli_usage(ctx, _("signup: %s; nothing was created"), why);
		free(why);
		return rc;
	}
	if (!r->tty) {
		const char *names[] = {"--email", "--country", "--currency", "--role"};
		for (size_t i = 0; i < 4; i++)
			if (cli_arg(&r->a, cli_signup_opts, names[i]) == NULL)
				buf_printf(&missing, "%s%s", missing.len ? ", " : "", names[i]);
		if (missing.len)
			rc = cli_usage(ctx, _("signup: not on a terminal, so every field is needed as "
					      "a flag: missing %s (e.g. gpux signup --email "
					      "ana@example.pt --country PT --currency EUR --role buyer "
					      "--yes)"), missing.data);
		else if (!r->yes)
			rc = cli_usage(ctx, "%s", _("signup: not on a terminal: add --yes to create "
						    "the account"));
		buf_free(&missing);
	}
	return rc;
}

/* The flags checked against the exchange's market; CLI_OK or a usage error. */
static int signup_flags_market(struct cli_ctx *ctx, struct signup_run *r)
{
	const char *country = cli_arg(&r->a, cli_signup_opts, "--country");
	const char *currency = cli_arg(&r->a, cli_signup_opts, "--currency");
	char *why = NULL;
	int rc = CLI_OK;

	if ((country != NULL && field_country(r->m, country, &r->f, &why) != 0) ||
	    (currency != NULL && field_currency(r->m, currency, &r->f, &why) != 0)) {
		rc = cli_usage(ctx, _("signup: %s; nothing was created"), why);
		free(why);
	}
	return rc;
}

/* The exchange, its market and its top-up words; CLI_OK or CLI_FAILED. */
static int signup_connect(struct cli_ctx *ctx, struct signup_run *r)
{
	struct api_config cfg = {.url = r->set.url, .key = NULL, .insecure = ctx->insecure,
				 .timeout_ms = r->set.timeout_ms,
				 .connect_timeout_ms = r->set.connect_timeout_ms};
	char *cause = NULL;

	if ((r->c = api_client_new(&cfg, &cause)) == NULL) {
		int rc = cli_fail(ctx, "%s", cause != NULL ? cause : "?");
		free(cause);
		return rc;
	}
	if (api_market(r->c, &r->m, &r->e) != 0 || api_topup(r->c, &r->t, &r->e) != 0) {
		cli_fail_api(ctx, r->e);
		cli_note(ctx, "%s", _("nothing was created"));
		return CLI_FAILED;
	}
	r->countries = xcalloc(r->m->n_vat + 1, sizeof *r->countries);
	for (size_t i = 0; i < r->m->n_vat; i++)
		r->countries[i] = r->m->vat[i].key;
	return CLI_OK;
}

/* Ask on the terminal for what the flags did not give, then for a yes. */
static int signup_ask(struct cli_ctx *ctx, struct signup_run *r)
{
	const char *const *cc = (const char *const *)r->countries;

	if ((r->f.email == NULL && ask_field(ctx, r->m, F_EMAIL, &r->f, cc) != 0) ||
	    (r->f.country[0] == '\0' && ask_field(ctx, r->m, F_COUNTRY, &r->f, cc) != 0) ||
	    (r->f.currency[0] == '\0' && ask_field(ctx, r->m, F_CURRENCY, &r->f, cc) != 0) ||
	    (r->f.role < 0 && ask_field(ctx, r->m, F_ROLE, &r->f, cc) != 0)) {
		cli_say(ctx, "%s", "");
		cli_note(ctx, "%s", _("signup cancelled; nothing was created"));
		return CLI_FAILED;
	}
	if (r->yes)
		return CLI_OK;
	char *v = cli_acct_vat(ctx, r->f.vat_bp);
	cli_say(ctx, _("Account on %s: %s, %s (VAT %s), %s, %s."), api_client_label(r->c), r->f.email,
	    r->f.country, v, r->f.currency, view_role_text(ctx->lang, (enum api_role)r->f.role));
	free(v);
	if (!ask_yes(ctx, _("Create this account? [y/N]"))) {
		cli_note(ctx, "%s", _("signup cancelled; nothing was created"));
		return CLI_FAILED;
	}
	return CLI_OK;
}

/* The exchange did not create the account (or gpux cannot tell): say which. */
static int signup_refused(struct cli_ctx *ctx, struct signup_run *r)
{
	const struct api_error *e = r->e;

	if (e->code != NULL && strcmp(e->code, "EMAIL_TAKEN") == 0)
		return cli_fail(ctx, _("signup: %s has an account on this exchange already: use its "
				       "API key (--key, GPUX_API_KEY or key = in the config file), or "
				       "sign up with another address; nothing was created"),
				r->f.email);
	if (e->kind == API_ERR_HTTP && e->http_status >= 400 && e->http_status < 500)
		return cli_fail(ctx, _("signup: the exchange refused it: %s; nothing was created"),
				e->message);
	cli_fail_api(ctx, e);
	if ((e->kind == API_ERR_NETWORK && e->net != API_NET_LOST) || e->kind == API_ERR_CONFIG ||
	    e->kind == API_ERR_TLS)
		cli_note(ctx, _("nothing was created, and %s is as it was"), r->set.config_path);
	else
		cli_note(ctx, _("the exchange may have created the account without gpux hearing back; "
			    "%s is as it was. Sign up again: if it was created, the exchange says "
			    "the address is registered, and its operator can help"),
		     r->set.config_path);
	return CLI_FAILED;
}

static void signup_print(struct cli_ctx *ctx, const struct signup_run *r)
{
	const struct api_account *a = r->acc;

	if (ctx->format != CLI_FORMAT_TABLE) {
		struct cli_record *rec = cli_record_new();
		cli_acct_record(rec, a);
		cli_record_text(rec, "config_file", r->set.config_path);
		if (r->show_key)
			cli_record_text(rec, "api_key", a->api_key);
		cli_record_print(ctx, &rec);
		return;
	}
	char *v = cli_acct_vat(ctx, a->vat_rate_bp), *open = cli_acct_opening(ctx, r->t);
	cli_say(ctx, _("Account %lld created on %s: %s, %s (VAT %s), %s, %s."), (long long)a->id,
	    api_client_label(r->c), a->email, a->country, v, a->currency,
	    view_role_text(ctx->lang, a->role));
	if (r->saved_in != NULL)
		cli_say(ctx, _("Its API key is saved in %s as profile [%s], readable only by you; gpux "
			       "uses it for this exchange from now on (and sends it to no other)."),
			r->set.config_path, r->saved_in);
	else
		cli_say(ctx, _("Its API key is saved in %s, readable only by you; gpux uses it from now on."),
			r->set.config_path);
	if (r->show_key)
		cli_say(ctx, _("API key: %s"), a->api_key);
	cli_say(ctx, "%s", _("Next:"));
	cli_acct_topup(ctx, r->t);
	cli_say(ctx, "%s", open);
	free(v);
	free(open);
}

int cli_cmd_signup(struct cli_ctx *ctx, int argc, char **argv)
{
	struct signup_run r = {.f = {.role = -1}};
	char *cause = NULL;
	int rc;

	if ((rc = cli_args_parse(ctx, "signup", cli_signup_opts, argc, argv, 0, &r.a)) != CLI_OK)
		return rc;
	r.force = cli_arg(&r.a, cli_signup_opts, "--force") != NULL;
	r.show_key = cli_arg(&r.a, cli_signup_opts, "--show-key") != NULL;
	r.yes = cli_arg(&r.a, cli_signup_opts, "--yes") != NULL;
	r.tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	if ((rc = signup_flags_offline(ctx, &r)) != CLI_OK)
		goto out;
	if (api_settings_resolve(ctx->api_url, NULL, ctx->profile, &r.set, &cause) != 0) {
		rc = cli_fail(ctx, "%s", cause);
		goto out;
	}
	if (r.set.url == NULL) {
		rc = cli_usage(ctx, "%s", _("signup: which exchange? Give --api URL (or GPUX_API, or "
					    "api = URL in the config file); the local demo exchange "
					    "has its account already"));
		goto out;
	}
	if (api_conf_key_check(r.set.config_path, r.set.profile, r.set.url, r.force, &cause) != 0) {
		rc = cli_fail(ctx, _("signup: %s; nothing was created"), cause);
		goto out;
	}
	if ((rc = signup_connect(ctx, &r)) != CLI_OK || (rc = signup_flags_market(ctx, &r)) != CLI_OK ||
	    (r.tty && (rc = signup_ask(ctx, &r)) != CLI_OK))
		goto out;
	if (api_account_create(r.c, r.f.email, r.f.country, r.f.currency, (enum api_role)r.f.role,
			       &r.acc, &r.e) != 0) {
		rc = signup_refused(ctx, &r);
		goto out;
	}
	if (api_conf_store_key(r.set.config_path, r.set.profile, r.set.url, r.acc->api_key, r.force,
			       &r.saved_in, &cause) != 0) {
		/* the account exists: its key must not be lost with the error */
		rc = cli_fail(ctx, _("account %lld was created, but its key could not be saved: %s. "
				     "Keep this key now, it is not shown again: %s"),
			      (long long)r.acc->id, cause, r.acc->api_key);
		goto out;
	}
	signup_print(ctx, &r);
	rc = CLI_OK;
out:
	free(cause);
	signup_run_clear(&r);
	return rc;
}

