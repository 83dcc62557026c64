/*
 * What the exchange commands of gpux share: the client they open, the cells
 * and words they print, the listing and id helpers, and the live prices of
 * `gpux table` and `gpux fit` (their options are in cli/commands.c). The
 * commands themselves are in cli/cmd_market.c (quotes, book, trades,
 * candles, watch), cli/cmd_order.c (order),
 * cli/cmd_orders.c (orders, cancel), cli/cmd_rentals.c (rentals, stop),
 * cli/cmd_account.c (account, deposit, keys) and cli/cmd_signup.c (signup).
 *
 * Each command opens a client with cli_open_client() (flag, environment,
 * config file; with none of them the local demo exchange, which is then
 * named on stderr), makes its requests with the blocking calls of api/, and
 * prints a sheet (table, csv or json) on stdout. Errors go to stderr as one
 * line and set the exit status: 0 done, 1 the exchange could not do it
 * (network, refusal, unknown outcome), 2 bad usage (checked before anything
 * is sent: GPU ids against the catalogue, counts and prices against the
 * contract's ranges).
 *
 * Prices are typed as people write them ("4.19", or "4,19" in a language
 * whose decimal separator is the comma) and converted exactly to cents by
 * i18n_parse_decimal; money is printed with i18n_fmt_money in tables and as
 * raw minor units in csv/json.
 */
#include "cli/cli_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "util/util.h"
#include "view/view.h"

#define MAX_PRICE_CENTS 1000000
#define MAX_PAGES 50

/* ---- options ----------------------------------------------------------------------- */


/* ---- helpers -------------------------------------------------------------------------- */

/* One line of human text on f after prefix, transliterated with --ascii. */
static void emit_line(const struct cli_ctx *ctx, FILE *f, const char *prefix, const char *fmt,
		      va_list ap)
{
	char *s = xvasprintf(fmt, ap);

	if (ctx->ascii) {
		char *a = i18n_ascii(s);
		free(s);
		s = a;
	}
	fprintf(f, "%s%s\n", prefix, s);
	free(s);
}

void cli_say(struct cli_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit_line(ctx, ctx->out, "", fmt, ap);
	va_end(ap);
}

void cli_note(struct cli_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit_line(ctx, ctx->err, "gpux: ", fmt, ap);
	va_end(ap);
}

bool cli_is_yes(const char *answer)
{
	const char *yes = _("yes");

	return answer != NULL &&
	       (strcasecmp(answer, "y") == 0 || strcasecmp(answer, "yes") == 0 ||
		strcasecmp(answer, yes) == 0 ||
		(answer[0] != '\0' && answer[1] == '\0' && strncasecmp(answer, yes, 1) == 0));
}

bool cli_confirm(struct cli_ctx *ctx, const char *question)
{
	char line[64];

	fprintf(ctx->err, "%s ", question);
	fflush(ctx->err);
	if (fgets(line, sizeof line, stdin) == NULL)
		return false;
	line[strcspn(line, "\r\n")] = '\0';
	return cli_is_yes(line);
}

int cli_fail_api(struct cli_ctx *ctx, const struct api_error *e)
{
	char *t = api_error_text(e);
	int rc = cli_fail(ctx, "%s", t);

	free(t);
	return rc;
}

int cli_fail_api_free(struct cli_ctx *ctx, struct api_error **e)
{
	int rc = cli_fail_api(ctx, *e);

	api_error_free(e);
	return rc;
}

/* The exchange o names (the flags, environment or config file), else the
 * local demo one (said on stderr unless quiet); the settings it took in *used
 * when that is not NULL. NULL after printing why, or with the cause in
 * *cause_out when that is not NULL. */
static struct api_client *open_exchange(struct cli_ctx *ctx, const struct api_open_opts *o,
					struct api_settings *used, bool quiet, char **cause_out)
{
	struct api_client *c;
	char *cause = NULL;

	cli_conf_warn_unknown(ctx);
	if (ctx->insecure)
		cli_note(ctx, "%s", _("WARNING: --insecure: the exchange's TLS certificate is NOT "
				      "verified; anyone on the network path can read and change what "
				      "gpux sends and receives, including your API key"));
	c = api_open(o, used, &cause);
	if (c == NULL) {
		if (cause_out != NULL)
			*cause_out = cause;
		else {
			cli_fail(ctx, "%s", cause != NULL ? cause : "?");
			free(cause);
		}
		return NULL;
	}
	if (api_client_is_local_demo(c) && !quiet)
		cli_note(ctx, "%s", _("local demo exchange (simulated money; give --api URL or set "
				      "GPUX_API for a real exchange)"));
	return c;
}

struct api_client *cli_open_client(struct cli_ctx *ctx, int max_attempts, long timeout_ms,
				   bool quiet, char **cause_out)
{
	struct api_open_opts o = {.url = ctx->api_url, .key = ctx->api_key, .profile = ctx->profile,
				  .insecure = ctx->insecure, .timeout_ms = timeout_ms,
				  .max_attempts = max_attempts};

	return open_exchange(ctx, &o, NULL, quiet, cause_out);
}

struct api_client *cli_open_client_settings(struct cli_ctx *ctx, struct api_settings *used)
{
	struct api_open_opts o = {.url = ctx->api_url, .key = ctx->api_key, .profile = ctx->profile,
				  .insecure = ctx->insecure};

	return open_exchange(ctx, &o, used, false, NULL);
}

char *cli_fmt_money(const struct cli_ctx *ctx, int64_t minor, const char *ccy)
{
	return i18n_fmt_money(ctx->lang, minor, ccy);
}

/* A price in US cents, or "—" for none (-1). */
char *cli_fmt_usd(const struct cli_ctx *ctx, int64_t cents)
{
	if (cents < 0)
		return xstrdup("—");
	return cli_fmt_money(ctx, cents, "USD");
}

char *cli_iso_time(int64_t t)
{
	struct tm tm;
	time_t tt = (time_t)t;
	char b[32];

	if (t < 0 || gmtime_r(&tt, &tm) == NULL)
		return NULL;
	strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xstrdup(b);
}

/* Cells for money/prices/times: display localized, raw for csv/json. */
void cli_cell_usd(struct cli_sheet *s, const struct cli_ctx *ctx, int64_t cents)
{
	char *d = cli_fmt_usd(ctx, cents);

	if (cents < 0)
		cli_sheet_null(s, d);
	else
		cli_sheet_int(s, d, cents);
	free(d);
}

void cli_cell_money(struct cli_sheet *s, const struct cli_ctx *ctx, int64_t minor,
		    const char *ccy)
{
	char *d = cli_fmt_money(ctx, minor, ccy);

	cli_sheet_int(s, d, minor);
	free(d);
}

void cli_cell_int(struct cli_sheet *s, const struct cli_ctx *ctx, int64_t v)
{
	char *d = i18n_fmt_number(ctx->lang, (double)v, 0);

	cli_sheet_int(s, d, v);
	free(d);
}

/* An id: plain digits in every format. */
void cli_cell_id(struct cli_sheet *s, int64_t v)
{
	char *d = xasprintf("%lld", (long long)v);

	cli_sheet_int(s, d, v);
	free(d);
}

void cli_record_time(struct cli_record *r, const char *id, int64_t t)
{
	char *raw = cli_iso_time(t);

	cli_record_text(r, id, raw);
	free(raw);
}

void cli_cell_time(struct cli_sheet *s, const struct cli_ctx *ctx, int64_t t)
{
	char *raw = cli_iso_time(t), *d;

	if (raw == NULL) {
		cli_sheet_null(s, "—");
		return;
	}
	d = i18n_fmt_date(ctx->lang, t, I18N_UTC);
	cli_sheet_text(s, d, raw);
	free(d);
	free(raw);
}

/* The catalogue's name of a GPU id ("H200"), or the id itself. */
const char *cli_gpu_name(const struct cli_ctx *ctx, const char *id)
{
	const struct catalog_gpu *g = ctx->catalog != NULL ? catalog_gpu(ctx->catalog, id) : NULL;

	return g != NULL ? g->name : id;
}

static char *gpu_ids(const struct catalog *c)
{
	struct buf b = {0};

	for (size_t i = 0; i < c->n_gpus; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", c->gpus[i].id);
	return buf_take(&b);
}

/* A GPU id of the catalogue, case-insensitively ("H200" → "h200"). */
int cli_check_gpu(struct cli_ctx *ctx, const char *cmd, const char *id, const char **out)
{
	char *ids;
	int rc;

	for (size_t i = 0; ctx->catalog != NULL && i < ctx->catalog->n_gpus; i++) {
		if (strcasecmp(ctx->catalog->gpus[i].id, id) == 0) {
			*out = ctx->catalog->gpus[i].id;
			return CLI_OK;
		}
	}
	if (ctx->catalog == NULL) {
		*out = id;
		return CLI_OK;
	}
	ids = gpu_ids(ctx->catalog);
	rc = cli_usage(ctx, _("%s: unknown GPU \"%s\"; accepted: %s"), cmd, id, ids);
	free(ids);
	return rc;
}

/* A price as people type it ("4.19", "4,19") → cents in 1..MAX_PRICE_CENTS. */
int cli_parse_price(struct cli_ctx *ctx, const char *opt, const char *s, int64_t *cents)
{
	char *cause = NULL;
	char *lo, *hi;
	int rc;

	if (i18n_parse_decimal(ctx->lang, s, 2, cents, &cause) != 0) {
		rc = cli_usage(ctx, _("%s: %s; accepted: a price in US$ per GPU-hour such as %s"),
			       opt, cause != NULL ? cause : "?",
			       i18n_decimal_sep(ctx->lang) == ',' ? "4,19" : "4.19");
		free(cause);
		return rc;
	}
	if (*cents < 1 || *cents > MAX_PRICE_CENTS) {
		lo = cli_fmt_usd(ctx, 1);
		hi = cli_fmt_usd(ctx, MAX_PRICE_CENTS);
		rc = cli_usage(ctx, _("%s: \"%s\" is out of range; accepted: %s to %s per GPU-hour"),
			       opt, s, lo, hi);
		free(lo);
		free(hi);
		return rc;
	}
	return CLI_OK;
}

#define MAX_AMOUNT_MINOR 100000000000LL /* docs/API.md: 1 .. 10^11 */

int cli_parse_amount(struct cli_ctx *ctx, const char *cmd, const char *opt, const char *s,
		     int64_t *minor)
{
	char *cause = NULL;
	int rc;

	if (i18n_parse_decimal(ctx->lang, s, 2, minor, &cause) == 0 && *minor >= 1 &&
	    *minor <= MAX_AMOUNT_MINOR)
		return CLI_OK;
	rc = cli_usage(ctx, _("%s: %s \"%s\"%s%s; accepted: an amount in your account's currency "
			      "above 0, e.g. %s"),
		       cmd, opt, s, cause != NULL ? ": " : "", cause != NULL ? cause : "",
		       i18n_decimal_sep(ctx->lang) == ',' ? "900,00" : "900.00");
	free(cause);
	return rc;
}

/* An id given on the command line: a whole number ≥ 1. */
int cli_parse_id(struct cli_ctx *ctx, const char *what, const char *s, int64_t *id)
{
	long long v;
	int rc = cli_parse_int(ctx, what, s, 1, 9007199254740991LL, &v);

	*id = v;
	return rc;
}

bool cli_strptime(const char *s, const char *fmt, struct tm *tm)
{
	const char *end;

	memset(tm, 0, sizeof *tm);
	end = strptime(s, fmt, tm);
	return end != NULL && *end == '\0';
}

int cli_parse_time(struct cli_ctx *ctx, const char *opt, const char *s, int64_t *out)
{
	struct tm tm;

	if (!cli_strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) && !cli_strptime(s, "%Y-%m-%d", &tm))
		return cli_usage(ctx, _("%s: \"%s\" is not a time; accepted: 2025-06-02T09:00:00Z or "
					"2025-06-02 (UTC)"), opt, s);
	*out = (int64_t)timegm(&tm);
	return CLI_OK;
}

/* ---- words shared by the order commands ----------------------------------------------- */

const char *cli_side_text(enum api_side s)
{
	return s == API_BUY ? C_("order side", "buy") : C_("order side", "sell");
}

const char *cli_status_text(const struct cli_ctx *ctx, enum api_order_status st)
{
	return view_order_status_text(ctx->lang, st);
}

/* Print several lines of text (joined by "\n") with cli_say(). */
void cli_say_lines(struct cli_ctx *ctx, const char *text)
{
	const char *p = text;

	while (p != NULL && *p != '\0') {
		const char *nl = strchr(p, '\n');
		int len = nl != NULL ? (int)(nl - p) : (int)strlen(p);
		cli_say(ctx, "%.*s", len, p);
		p = nl != NULL ? nl + 1 : NULL;
	}
}

/* ---- what the listing and id commands share ------------------------------------------ */

/* Every page of a listing (MAX_PAGES at the most: more, the note that says
 * some are left out) into s, then s printed; none (translated) on stderr
 * when there is no row, in place of a bare header. CLI_OK or CLI_FAILED. */
/* The status the exchange is asked for a listing's --status word (NULL: the
 * last of the list), in *asked; else a usage message naming the words. */
static int list_status(struct cli_ctx *ctx, const struct cli_list_status *st, const char *word,
		       const char **asked)
{
	struct buf words = {0};
	size_t i;
	int rc;

	for (i = 0; st[i].word != NULL; i++)
		if (word != NULL && strcmp(word, st[i].word) == 0) {
			*asked = st[i].asked;
			return CLI_OK;
		}
	if (word == NULL) {
		*asked = st[i - 1].asked;
		return CLI_OK;
	}
	for (i = 0; st[i].word != NULL; i++)
		if (!st[i].alias)
			buf_printf(&words, "%s%s", words.len > 0 ? ", " : "", st[i].word);
	rc = cli_usage(ctx, _("--status: \"%s\" is not a status; accepted: %s"), word, words.data);
	buf_free(&words);
	return rc;
}

/* Every page of a listing into s, then s printed; with no row, `none`
 * (translated) on stderr instead of a bare header in --format table, and
 * the empty csv header or json array on stdout. CLI_OK or CLI_FAILED. */
static int list_pages(struct cli_ctx *ctx, struct api_client *c, struct api_list_query *q,
		      struct cli_sheet *s, cli_list_page_fn *page, const char *more, const char *none)
{
	struct api_error *e = NULL;
	char *cursor = NULL, *next;
	int rc, pages = 0;

	do {
		q->cursor = cursor;
		if (page(ctx, c, q, s, &next, &e) != 0) {
			rc = cli_fail_api(ctx, e);
			goto out;
		}
		free(cursor);
		cursor = next;
	} while (cursor != NULL && ++pages < MAX_PAGES);
	if (cursor != NULL)
		cli_sheet_note(s, more);
	if (cli_sheet_rows(s) == 0) {
		/* the result is there are none: said on stderr, so csv and json
		 * keep their shape (a header, an empty array) on stdout */
		cli_note(ctx, "%s", none);
		rc = CLI_OK;
		if (ctx->format != CLI_FORMAT_TABLE && cli_sheet_print(ctx, s) != 0)
			rc = CLI_FAILED;
		goto out;
	}
	rc = cli_sheet_print(ctx, s) == 0 ? CLI_OK : CLI_FAILED;
out:
	free(cursor);
	api_error_free(&e);
	return rc;
}

int cli_list_command(struct cli_ctx *ctx, const struct cli_listing *l, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c = NULL;
	struct cli_sheet *s = NULL;
	struct api_list_query q = {.limit = 200};
	const char *st, *g;
	char *none;
	int rc;

	if ((rc = cli_args_parse(ctx, l->cmd, l->opts, argc, argv, 0, &a)) != CLI_OK)
		return rc;
	st = cli_arg(&a, l->opts, "--status");
	if ((rc = list_status(ctx, l->statuses, st, &q.status)) != CLI_OK)
		goto out;
	if ((g = cli_arg(&a, l->opts, "--gpu")) != NULL &&
	    (rc = cli_check_gpu(ctx, l->cmd, g, &q.gpu)) != CLI_OK)
		goto out;
	if ((c = cli_open_client(ctx, 0, 0, false, NULL)) == NULL) {
		rc = CLI_FAILED;
		goto out;
	}
	s = cli_sheet_new();
	l->columns(s);
	none = l->none(q.status, g != NULL ? cli_gpu_name(ctx, q.gpu) : NULL);
	rc = list_pages(ctx, c, &q, s, l->page, _(l->more), none);
	free(none);
out:
	cli_sheet_free(&s);
	api_client_free(&c);
	cli_args_free(&a);
	return rc;
}

/* gpux cancel ID, gpux stop ID: the one id (which: what a missing one
 * says, a msgid translated here, after the options) and a client to ask
 * (*c, the caller's to free). CLI_OK or the command's return code, said
 * already. */
int cli_id_command(struct cli_ctx *ctx, const char *cmd, const struct cli_opt *opts, int argc,
		   char **argv, const char *which, int64_t *id, struct api_client **c)
{
	struct cli_args a;
	int rc;

	if ((rc = cli_args_parse(ctx, cmd, opts, argc, argv, 1, &a)) != CLI_OK)
		return rc;
	if (a.n_pos != 1)
		rc = cli_usage(ctx, "%s", _(which));
	else if ((rc = cli_parse_id(ctx, cmd, a.pos[0], id)) == CLI_OK &&
		 (*c = cli_open_client(ctx, 0, 0, false, NULL)) == NULL)
		rc = CLI_FAILED;
	cli_args_free(&a);
	return rc;
}

/* The status word at the end of the exchange's 409 message ("order 177 is
 * cancelled" → "cancelled"), or "". */
static const char *status_word(const char *message)
{
	const char *sp = message != NULL ? strrchr(message, ' ') : NULL;

	return sp != NULL ? sp + 1 : "";
}

/* What a refused cancel of order id (rental: stop of rental id) says: 409,
 * it is over already, in one sentence with the reason; 404, not yours; else
 * the error as any other. */
int cli_fail_id(struct cli_ctx *ctx, const struct api_error *e, int64_t id, bool rental)
{
	long long n = (long long)id;

	if (e->kind == API_ERR_HTTP && e->http_status == 409) {
		const char *st = status_word(e->message);

		if (rental && strcmp(st, "stopped") == 0)
			return cli_fail(ctx, _("rental %lld was stopped already"), n);
		if (rental)
			return cli_fail(ctx, _("rental %lld has ended already: all its hours are used"), n);
		if (strcmp(st, "filled") == 0)
			return cli_fail(ctx, _("order %lld is filled: nothing of it is left to cancel"), n);
		if (strcmp(st, "cancelled") == 0)
			return cli_fail(ctx, _("order %lld was cancelled already"), n);
		if (strcmp(st, "expired") == 0)
			return cli_fail(ctx, _("order %lld has expired: nothing of it is resting"), n);
		return cli_fail(ctx, _("order %lld is not resting any more"), n);
	}
	if (e->kind == API_ERR_HTTP && e->http_status == 404)
		return rental ? cli_fail(ctx, _("you have no rental %lld (see gpux rentals)"), n)
			      : cli_fail(ctx, _("you have no order %lld (see gpux orders)"), n);
	return cli_fail_api(ctx, e);
}

/* ---- the live prices of gpux table / gpux fit ----------------------------------------------------- */

int cli_exchange_prices(struct cli_ctx *ctx, struct view_prices *out, char **cause)
{
	struct api_client *c;
	struct api_quotes *q = NULL;
	struct api_error *e = NULL;
	struct view_price *items;

	memset(out, 0, sizeof *out);
	/* a table is worth printing without prices: do not wait long for them.
	 * Quiet: `gpux table` keeps stderr for errors (its tests hold it to that) */
	if ((c = cli_open_client(ctx, 2, 5000, true, cause)) == NULL)
		return -1;
	if (api_quotes(c, NULL, &q, &e) != 0) {
		*cause = api_error_text(e);
		api_error_free(&e);
		api_client_free(&c);
		return -1;
	}
	items = xcalloc(q->n + 1, sizeof *items);
	for (size_t i = 0; i < q->n; i++) {
		items[i].gpu_id = xstrdup(q->v[i].gpu);
		items[i].cents = q->v[i].best_ask_cents;
		view_supply_of_quote(&q->v[i], &items[i].supply);
	}
	out->items = items;
	out->n = q->n;
	out->stale = false;
	ctx->prices_demo = api_client_is_local_demo(c);
	api_quotes_free(&q);
	api_client_free(&c);
	return 0;
}
