/*
 * The exchange commands of gpux: quotes, book, order, orders, cancel,
 * rentals, stop — and the live prices of `gpux table` (account, deposit,
 * keys and signup are in cli/cmd_account.c and cli/cmd_signup.c).
 *
 * Each command opens a client with api_open() (flag, environment, config
 * file; with none of them the local demo exchange, which is then named on
 * stderr), makes its requests with the blocking calls of api/, and prints a
 * sheet (table, csv or json) on stdout. Errors go to stderr as one line and
 * set the exit status: 0 done, 1 the exchange could not do it (network,
 * refusal, unknown outcome), 2 bad usage (checked here before anything is
 * sent: GPU ids against the catalogue, counts and prices against the
 * contract's ranges).
 *
 * Prices are typed as people write them ("4.19", or "4,19" in a language
 * whose decimal separator is the comma) and converted exactly to cents by
 * i18n_parse_decimal; money is printed with i18n_fmt_money in tables and as
 * raw minor units in csv/json.
 *
 * An order is always previewed by the exchange first; it is placed only with
 * --yes or after a "y" on a terminal, with one client_order_id made for this
 * intent (api/ re-sends it, never a new one, until the exchange answers).
 */
#include "cli/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "util/util.h"
#include "view/view.h"

#define MAX_GPUS 512        /* docs/API.md, limits */
#define MAX_HOURS 720
#define MAX_PRICE_CENTS 1000000
#define MAX_DEPOSIT_MINOR 100000000000LL
#define MAX_PAGES 50

/* ---- options ----------------------------------------------------------------------- */

const struct cli_opt cli_quotes_opts[] = {{NULL, NULL, NULL}};
const struct cli_opt cli_book_opts[] = {
	{"--depth", "N", N_("price levels per side, 1 to 100 (default 10)")},
	{NULL, NULL, NULL},
};
const struct cli_opt cli_order_opts[] = {
	{"--gpus", "N", N_("number of GPUs, 1 to 512")},
	{"--hours", "H", N_("hours: a buy rents exactly H hours, a sell offers up to H (1 to 720)")},
	{"--limit", "PRICE", N_("limit order at PRICE US$ per GPU-hour (e.g. 4.19)")},
	{"--market", NULL, N_("market order (needs --max-price to buy, --min-price to sell)")},
	{"--max-price", "PRICE", N_("market buy: the most to pay per GPU-hour (sizes the hold)")},
	{"--min-price", "PRICE", N_("market sell: the least to accept per GPU-hour")},
	{"--tif", "TIF", N_("time in force: gtc (limit default), ioc (market default), fok")},
	{"--dry-run", NULL, N_("show the exchange's preview and place nothing")},
	{"--yes", NULL, N_("place without asking (needed when not on a terminal)")},
	{NULL, NULL, NULL},
};
const struct cli_opt cli_orders_opts[] = {
	{"--status", "STATUS", N_("open (resting), done (filled, cancelled, expired) or all (default)")},
	{"--gpu", "GPU", N_("only this GPU")},
	{NULL, NULL, NULL},
};
const struct cli_opt cli_cancel_opts[] = {{NULL, NULL, NULL}};
const struct cli_opt cli_rentals_opts[] = {
	{"--status", "STATUS", N_("active, ended or all (default)")},
	{"--gpu", "GPU", N_("only this GPU")},
	{NULL, NULL, NULL},
};
const struct cli_opt cli_stop_opts[] = {{NULL, NULL, NULL}};

/* ---- helpers -------------------------------------------------------------------------- */

/* Print a line of human text on ctx->out (transliterated with --ascii). */
static void say(struct cli_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct cli_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	if (ctx->ascii) {
		char *a = i18n_ascii(s);
		free(s);
		s = a;
	}
	fprintf(ctx->out, "%s\n", s);
	free(s);
}

/* A note on stderr, prefixed "gpux: ". */
static void note(struct cli_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct cli_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	if (ctx->ascii) {
		char *a = i18n_ascii(s);
		free(s);
		s = a;
	}
	fprintf(ctx->err, "gpux: %s\n", s);
	free(s);
}

static int fail_api(struct cli_ctx *ctx, const struct api_error *e)
{
	char *t = api_error_text(e);
	int rc = cli_fail(ctx, "%s", t);

	free(t);
	return rc;
}

/* Open the exchange named by the flags/environment/config, or the local demo
 * one; NULL after printing why. */
static struct api_client *open_client(struct cli_ctx *ctx, int max_attempts, long timeout_ms,
				      bool quiet, char **cause_out)
{
	struct api_open_opts o = {.url = ctx->api_url, .key = ctx->api_key,
				  .insecure = ctx->insecure, .timeout_ms = timeout_ms,
				  .max_attempts = max_attempts};
	struct api_client *c;
	char *cause = NULL;

	if (ctx->insecure)
		note(ctx, "%s", _("WARNING: --insecure: the exchange's TLS certificate is NOT "
				  "verified; anyone on the network path can read and change what "
				  "gpux sends and receives, including your API key"));
	c = api_open(&o, NULL, &cause);
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
		note(ctx, "%s", _("local demo exchange (simulated money; give --api URL or set "
				  "GPUX_API for a real exchange)"));
	return c;
}

static char *fmt_money(const struct cli_ctx *ctx, int64_t minor, const char *ccy)
{
	return i18n_fmt_money(ctx->lang, minor, ccy);
}

/* A price in US cents, or "—" for none (-1). */
static char *fmt_usd(const struct cli_ctx *ctx, int64_t cents)
{
	if (cents < 0)
		return xstrdup("—");
	return fmt_money(ctx, cents, "USD");
}

static char *iso_time(int64_t t)
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
static void cell_usd(struct cli_sheet *s, const struct cli_ctx *ctx, int64_t cents)
{
	char *d = fmt_usd(ctx, cents);

	if (cents < 0)
		cli_sheet_null(s, d);
	else
		cli_sheet_int(s, d, cents);
	free(d);
}

static void cell_money(struct cli_sheet *s, const struct cli_ctx *ctx, int64_t minor,
		       const char *ccy)
{
	char *d = fmt_money(ctx, minor, ccy);

	cli_sheet_int(s, d, minor);
	free(d);
}

static void cell_int(struct cli_sheet *s, const struct cli_ctx *ctx, int64_t v)
{
	char *d = i18n_fmt_number(ctx->lang, (double)v, 0);

	cli_sheet_int(s, d, v);
	free(d);
}

/* An id: plain digits in every format. */
static void cell_id(struct cli_sheet *s, int64_t v)
{
	char *d = xasprintf("%lld", (long long)v);

	cli_sheet_int(s, d, v);
	free(d);
}

static void cell_time(struct cli_sheet *s, const struct cli_ctx *ctx, int64_t t)
{
	char *raw = iso_time(t), *d;

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
static const char *gpu_name(const struct cli_ctx *ctx, const char *id)
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
static int check_gpu(struct cli_ctx *ctx, const char *cmd, const char *id, const char **out)
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
static int parse_price(struct cli_ctx *ctx, const char *opt, const char *s, int64_t *cents)
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
		lo = fmt_usd(ctx, 1);
		hi = fmt_usd(ctx, MAX_PRICE_CENTS);
		rc = cli_usage(ctx, _("%s: \"%s\" is out of range; accepted: %s to %s per GPU-hour"),
			       opt, s, lo, hi);
		free(lo);
		free(hi);
		return rc;
	}
	return CLI_OK;
}

/* An id given on the command line: a whole number ≥ 1. */
static int parse_id(struct cli_ctx *ctx, const char *what, const char *s, int64_t *id)
{
	long long v;
	int rc = cli_parse_int(ctx, what, s, 1, 9007199254740991LL, &v);

	*id = v;
	return rc;
}

/* ---- gpux quotes ---------------------------------------------------------------------- */

int cli_cmd_quotes(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c;
	struct api_quotes *q = NULL;
	struct api_error *e = NULL;
	struct cli_sheet *s;
	int rc;

	if ((rc = cli_args_parse(ctx, "quotes", cli_quotes_opts, argc, argv, 0, &a)) != CLI_OK)
		return rc;
	cli_args_free(&a);
	if ((c = open_client(ctx, 0, 0, false, NULL)) == NULL)
		return CLI_FAILED;
	if (api_quotes(c, NULL, &q, &e) != 0) {
		rc = fail_api(ctx, e);
		api_error_free(&e);
		api_client_free(&c);
		return rc;
	}
	s = cli_sheet_new();
	cli_sheet_column_for(s, "gpu", _("GPU"), CLI_LEFT, CLI_SHOW_ALL);
	cli_sheet_column_for(s, "name", _("Name"), CLI_LEFT, CLI_SHOW_ALL);
	cli_sheet_column(s, "best_ask_cents", _("Best ask"), CLI_RIGHT);
	cli_sheet_column(s, "ask_gpus", _("GPUs"), CLI_RIGHT);
	cli_sheet_column(s, "best_bid_cents", _("Best bid"), CLI_RIGHT);
	cli_sheet_column(s, "bid_gpus", _("GPUs"), CLI_RIGHT);
	cli_sheet_column(s, "last_cents", _("Last"), CLI_RIGHT);
	for (size_t i = 0; i < q->n; i++) {
		const struct api_quote *x = &q->v[i];
		cli_sheet_row(s);
		cli_sheet_text(s, x->gpu, x->gpu);
		cli_sheet_text(s, gpu_name(ctx, x->gpu), gpu_name(ctx, x->gpu));
		cell_usd(s, ctx, x->best_ask_cents);
		cell_int(s, ctx, x->ask_gpus);
		cell_usd(s, ctx, x->best_bid_cents);
		cell_int(s, ctx, x->bid_gpus);
		cell_usd(s, ctx, x->last_cents);
	}
	cli_sheet_note(s, _("Prices per GPU-hour, before tax."));
	if (api_client_is_local_demo(c))
		cli_sheet_note(s, _("Local demo exchange: simulated money."));
	rc = cli_sheet_print(ctx, s) == 0 ? CLI_OK : CLI_FAILED;
	cli_sheet_free(&s);
	api_quotes_free(&q);
	api_client_free(&c);
	return rc;
}

/* ---- gpux book GPU [--depth N] --------------------------------------------------------- */

static void book_row(struct cli_sheet *s, const struct cli_ctx *ctx, const char *side,
		     const char *side_text, const struct api_level *l)
{
	cli_sheet_row(s);
	cli_sheet_text(s, side_text, side);
	cell_usd(s, ctx, l->price_cents);
	cell_int(s, ctx, l->gpus);
	cell_int(s, ctx, l->orders);
}

int cli_cmd_book(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c = NULL;
	struct api_book *b = NULL;
	struct api_error *e = NULL;
	struct cli_sheet *s = NULL;
	const char *gpu = NULL, *v;
	long long depth = 10;
	int rc;

	if ((rc = cli_args_parse(ctx, "book", cli_book_opts, argc, argv, 1, &a)) != CLI_OK)
		return rc;
	if (a.n_pos != 1) {
		rc = cli_usage(ctx, _("book: which GPU? e.g. gpux book h200"));
		goto out;
	}
	if ((rc = check_gpu(ctx, "book", a.pos[0], &gpu)) != CLI_OK)
		goto out;
	if ((v = cli_arg(&a, cli_book_opts, "--depth")) != NULL &&
	    (rc = cli_parse_int(ctx, "--depth", v, 1, 100, &depth)) != CLI_OK)
		goto out;
	if ((c = open_client(ctx, 0, 0, false, NULL)) == NULL) {
		rc = CLI_FAILED;
		goto out;
	}
	if (api_book(c, gpu, (int)depth, &b, &e) != 0) {
		rc = fail_api(ctx, e);
		goto out;
	}
	s = cli_sheet_new();
	cli_sheet_column(s, "side", _("Side"), CLI_LEFT);
	cli_sheet_column(s, "price_cents", _("Price/h"), CLI_RIGHT);
	cli_sheet_column(s, "gpus", _("GPUs"), CLI_RIGHT);
	cli_sheet_column(s, "orders", _("Orders"), CLI_RIGHT);
	/* a ladder: asks from the highest down to the best, then bids from the best */
	for (size_t i = b->n_asks; i-- > 0;)
		book_row(s, ctx, "ask", C_("book side", "ask"), &b->asks[i]);
	for (size_t i = 0; i < b->n_bids; i++)
		book_row(s, ctx, "bid", C_("book side", "bid"), &b->bids[i]);
	if (b->n_asks > 0 && b->n_bids > 0) {
		char *sp = fmt_usd(ctx, b->asks[0].price_cents - b->bids[0].price_cents);
		char *n = xasprintf(_("%s: spread %s; prices per GPU-hour, before tax."),
				    gpu_name(ctx, gpu), sp);
		cli_sheet_note(s, n);
		free(n);
		free(sp);
	}
	rc = cli_sheet_print(ctx, s) == 0 ? CLI_OK : CLI_FAILED;
out:
	cli_sheet_free(&s);
	api_book_free(&b);
	api_error_free(&e);
	api_client_free(&c);
	cli_args_free(&a);
	return rc;
}

/* ---- gpux order ------------------------------------------------------------------------ */

static const char *side_text(enum api_side s)
{
	return s == API_BUY ? C_("order side", "buy") : C_("order side", "sell");
}

static const char *status_text(const struct cli_ctx *ctx, enum api_order_status st)
{
	return view_order_status_text(ctx->lang, st);
}

/* Print several lines of text (joined by "\n") with say(). */
static void say_lines(struct cli_ctx *ctx, const char *text)
{
	const char *p = text;

	while (p != NULL && *p != '\0') {
		const char *nl = strchr(p, '\n');
		int len = nl != NULL ? (int)(nl - p) : (int)strlen(p);
		say(ctx, "%.*s", len, p);
		p = nl != NULL ? nl + 1 : NULL;
	}
}

static void print_preview(struct cli_ctx *ctx, const struct api_order_req *r,
			  const struct api_preview *p)
{
	struct cli_sheet *s = cli_sheet_new();
	char *t;

	if (ctx->format != CLI_FORMAT_TABLE) {
		cli_sheet_column(s, "gpu", "gpu", CLI_LEFT);
		cli_sheet_column(s, "side", "side", CLI_LEFT);
		cli_sheet_column(s, "type", "type", CLI_LEFT);
		cli_sheet_column(s, "time_in_force", "time_in_force", CLI_LEFT);
		cli_sheet_column(s, "gpus", "gpus", CLI_RIGHT);
		cli_sheet_column(s, "hours", "hours", CLI_RIGHT);
		cli_sheet_column(s, "price_cents", "price_cents", CLI_RIGHT);
		cli_sheet_column(s, "fill_gpus", "fill_gpus", CLI_RIGHT);
		cli_sheet_column(s, "rest_gpus", "rest_gpus", CLI_RIGHT);
		cli_sheet_column(s, "expire_gpus", "expire_gpus", CLI_RIGHT);
		cli_sheet_column(s, "currency", "currency", CLI_LEFT);
		cli_sheet_column(s, "net_minor", "net_minor", CLI_RIGHT);
		cli_sheet_column(s, "vat_minor", "vat_minor", CLI_RIGHT);
		cli_sheet_column(s, "total_minor", "total_minor", CLI_RIGHT);
		cli_sheet_column(s, "hold_minor", "hold_minor", CLI_RIGHT);
		cli_sheet_column(s, "balance_available_minor", "balance_available_minor", CLI_RIGHT);
		cli_sheet_column(s, "balance_after_minor", "balance_after_minor", CLI_RIGHT);
		cli_sheet_column(s, "would_status", "would_status", CLI_LEFT);
		cli_sheet_column(s, "would_reject", "would_reject", CLI_LEFT);
		cli_sheet_row(s);
		cli_sheet_text(s, p->gpu, p->gpu);
		cli_sheet_text(s, NULL, api_side_name(p->side));
		cli_sheet_text(s, NULL, api_order_type_name(p->type));
		cli_sheet_text(s, NULL, api_tif_name(p->tif));
		cli_sheet_int(s, NULL, p->gpus);
		cli_sheet_int(s, NULL, p->hours);
		cli_sheet_int(s, NULL, p->price_cents);
		cli_sheet_int(s, NULL, p->fill_gpus);
		cli_sheet_int(s, NULL, p->rest_gpus);
		cli_sheet_int(s, NULL, p->expire_gpus);
		cli_sheet_text(s, NULL, p->currency);
		cli_sheet_int(s, NULL, p->net_minor);
		cli_sheet_int(s, NULL, p->vat_minor);
		cli_sheet_int(s, NULL, p->total_minor);
		cli_sheet_int(s, NULL, p->hold_minor);
		cli_sheet_int(s, NULL, p->balance_available_minor);
		cli_sheet_int(s, NULL, p->balance_after_minor);
		cli_sheet_text(s, NULL, api_order_status_name(p->would_status));
		if (p->reject_code != NULL)
			cli_sheet_text(s, NULL, p->reject_code);
		else
			cli_sheet_null(s, NULL);
		cli_sheet_print(ctx, s);
		cli_sheet_free(&s);
		return;
	}
	cli_sheet_free(&s);
	/* the same confirmation as the TUI's order form (view/order.c) */
	t = view_order_summary(ctx->lang, gpu_name(ctx, p->gpu), r, p);
	say_lines(ctx, t);
	free(t);
}

static void print_order_result(struct cli_ctx *ctx, const struct api_order *o)
{
	struct cli_sheet *s;
	char *t;

	if (ctx->format != CLI_FORMAT_TABLE) {
		s = cli_sheet_new();
		cli_sheet_column(s, "id", "id", CLI_RIGHT);
		cli_sheet_column(s, "client_order_id", "client_order_id", CLI_LEFT);
		cli_sheet_column(s, "gpu", "gpu", CLI_LEFT);
		cli_sheet_column(s, "side", "side", CLI_LEFT);
		cli_sheet_column(s, "type", "type", CLI_LEFT);
		cli_sheet_column(s, "time_in_force", "time_in_force", CLI_LEFT);
		cli_sheet_column(s, "status", "status", CLI_LEFT);
		cli_sheet_column(s, "gpus", "gpus", CLI_RIGHT);
		cli_sheet_column(s, "hours", "hours", CLI_RIGHT);
		cli_sheet_column(s, "price_cents", "price_cents", CLI_RIGHT);
		cli_sheet_column(s, "filled_gpus", "filled_gpus", CLI_RIGHT);
		cli_sheet_column(s, "remaining_gpus", "remaining_gpus", CLI_RIGHT);
		cli_sheet_column(s, "avg_price_cents", "avg_price_cents", CLI_RIGHT);
		cli_sheet_column(s, "filled_value_cents", "filled_value_cents", CLI_RIGHT);
		cli_sheet_column(s, "hold_minor", "hold_minor", CLI_RIGHT);
		cli_sheet_column(s, "currency", "currency", CLI_LEFT);
		cli_sheet_column(s, "rental_ids", "rental_ids", CLI_LEFT);
		cli_sheet_row(s);
		cli_sheet_int(s, NULL, o->id);
		cli_sheet_text(s, NULL, o->client_order_id);
		cli_sheet_text(s, NULL, o->gpu);
		cli_sheet_text(s, NULL, api_side_name(o->side));
		cli_sheet_text(s, NULL, api_order_type_name(o->type));
		cli_sheet_text(s, NULL, api_tif_name(o->tif));
		cli_sheet_text(s, NULL, api_order_status_name(o->status));
		cli_sheet_int(s, NULL, o->gpus);
		cli_sheet_int(s, NULL, o->hours);
		cli_sheet_int(s, NULL, o->price_cents);
		cli_sheet_int(s, NULL, o->filled_gpus);
		cli_sheet_int(s, NULL, o->remaining_gpus);
		if (o->filled_gpus > 0)
			cli_sheet_int(s, NULL, view_order_avg_price(o));
		else
			cli_sheet_null(s, NULL);
		cli_sheet_int(s, NULL, o->filled_value_cents);
		cli_sheet_int(s, NULL, o->hold_minor);
		cli_sheet_text(s, NULL, o->currency);
		{
			struct buf b = {0};
			for (size_t i = 0; i < o->n_fills; i++)
				buf_printf(&b, "%s%lld", i ? " " : "", (long long)o->fills[i].rental_id);
			cli_sheet_text(s, NULL, b.data != NULL ? b.data : "");
			buf_free(&b);
		}
		cli_sheet_print(ctx, s);
		cli_sheet_free(&s);
		return;
	}
	/* the same words as the TUI's order form (view/order.c) */
	t = view_order_result(ctx->lang, gpu_name(ctx, o->gpu), o);
	say_lines(ctx, t);
	free(t);
}

/* Ask y/N on the terminal; true for yes. */
static bool confirm(struct cli_ctx *ctx)
{
	char line[64];
	const char *yes = _("yes");

	fprintf(ctx->err, "%s ", _("Place this order? [y/N]"));
	fflush(ctx->err);
	if (fgets(line, sizeof line, stdin) == NULL)
		return false;
	line[strcspn(line, "\r\n")] = '\0';
	return strcasecmp(line, "y") == 0 || strcasecmp(line, "yes") == 0 ||
	       strcasecmp(line, yes) == 0 ||
	       (line[0] != '\0' && line[1] == '\0' && strncasecmp(line, yes, 1) == 0);
}

int cli_cmd_order(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c = NULL;
	struct api_preview *pv = NULL;
	struct api_order *o = NULL;
	struct api_error *e = NULL;
	struct api_order_req r = {.tif = API_TIF_DEFAULT};
	const char *v, *lim, *maxp, *minp, *tif;
	char *coid = NULL;
	long long n;
	bool market, dry, yes;
	int rc;

	if ((rc = cli_args_parse(ctx, "order", cli_order_opts, argc, argv, 2, &a)) != CLI_OK)
		return rc;
	if (a.n_pos != 2) {
		rc = cli_usage(ctx, _("order: buy or sell what? e.g. gpux order buy h200 --gpus 8 "
				      "--hours 24 --market --max-price 5"));
		goto out;
	}
	if (strcmp(a.pos[0], "buy") == 0)
		r.side = API_BUY;
	else if (strcmp(a.pos[0], "sell") == 0)
		r.side = API_SELL;
	else {
		rc = cli_usage(ctx, _("order: \"%s\" is not a side; accepted: buy, sell"), a.pos[0]);
		goto out;
	}
	if ((rc = check_gpu(ctx, "order", a.pos[1], &r.gpu)) != CLI_OK)
		goto out;
	if ((v = cli_arg(&a, cli_order_opts, "--gpus")) == NULL) {
		rc = cli_usage(ctx, _("order: --gpus N is required (1 to %d)"), MAX_GPUS);
		goto out;
	}
	if ((rc = cli_parse_int(ctx, "--gpus", v, 1, MAX_GPUS, &n)) != CLI_OK)
		goto out;
	r.gpus = (int)n;
	if ((v = cli_arg(&a, cli_order_opts, "--hours")) == NULL) {
		rc = cli_usage(ctx, _("order: --hours H is required (1 to %d)"), MAX_HOURS);
		goto out;
	}
	if ((rc = cli_parse_int(ctx, "--hours", v, 1, MAX_HOURS, &n)) != CLI_OK)
		goto out;
	r.hours = (int)n;
	lim = cli_arg(&a, cli_order_opts, "--limit");
	market = cli_arg(&a, cli_order_opts, "--market") != NULL;
	maxp = cli_arg(&a, cli_order_opts, "--max-price");
	minp = cli_arg(&a, cli_order_opts, "--min-price");
	if ((lim != NULL) == market) {
		rc = cli_usage(ctx, "%s", _("order: give either --limit PRICE or --market (with "
					    "--max-price to buy, --min-price to sell)"));
		goto out;
	}
	if (lim != NULL) {
		if (maxp != NULL || minp != NULL) {
			rc = cli_usage(ctx, "%s", _("order: --max-price and --min-price go with "
						    "--market; a limit order has its price in --limit"));
			goto out;
		}
		r.type = API_LIMIT;
		if ((rc = parse_price(ctx, "--limit", lim, &r.price_cents)) != CLI_OK)
			goto out;
	} else {
		r.type = API_MARKET;
		if (r.side == API_BUY && (maxp == NULL || minp != NULL)) {
			rc = cli_usage(ctx, "%s", _("order: a market buy needs --max-price PRICE, the "
						    "most to pay per GPU-hour (it sizes the hold)"));
			goto out;
		}
		if (r.side == API_SELL && (minp == NULL || maxp != NULL)) {
			rc = cli_usage(ctx, "%s", _("order: a market sell needs --min-price PRICE, the "
						    "least to accept per GPU-hour"));
			goto out;
		}
		if ((rc = parse_price(ctx, maxp != NULL ? "--max-price" : "--min-price",
				      maxp != NULL ? maxp : minp, &r.price_cents)) != CLI_OK)
			goto out;
	}
	if ((tif = cli_arg(&a, cli_order_opts, "--tif")) != NULL) {
		if (api_tif_parse(tif, &r.tif) != 0) {
			rc = cli_usage(ctx, _("--tif: \"%s\" is not a time in force; accepted: gtc, "
					      "ioc, fok"), tif);
			goto out;
		}
		if (r.type == API_MARKET && r.tif == API_GTC) {
			rc = cli_usage(ctx, "%s", _("--tif: a market order cannot rest on the book; "
						    "accepted: ioc, fok"));
			goto out;
		}
	}
	dry = cli_arg(&a, cli_order_opts, "--dry-run") != NULL;
	yes = cli_arg(&a, cli_order_opts, "--yes") != NULL;
	if (!dry && !yes && !isatty(STDIN_FILENO)) {
		rc = cli_usage(ctx, "%s", _("order: not on a terminal, so nobody can confirm: pass "
					    "--yes to place it, or --dry-run to see the preview"));
		goto out;
	}

	if ((c = open_client(ctx, 0, 0, false, NULL)) == NULL) {
		rc = CLI_FAILED;
		goto out;
	}
	if (api_order_preview(c, &r, &pv, &e) != 0) {
		rc = fail_api(ctx, e);
		goto out;
	}
	if (dry || !yes || ctx->format == CLI_FORMAT_TABLE)
		print_preview(ctx, &r, pv);
	if (pv->reject_code != NULL) {
		struct view_order_ctx x = {.currency = pv->currency, .required_minor = pv->hold_minor,
					   .available_minor = pv->balance_available_minor,
					   .opens_at = -1};
		char *w = view_refusal_text(ctx->lang, pv->reject_code, pv->reject_message, &x);
		rc = cli_fail(ctx, "%s [%s]", w, pv->reject_code);
		free(w);
		goto out;
	}
	if (dry) {
		rc = CLI_OK;
		goto out;
	}
	if (!yes && !confirm(ctx)) {
		note(ctx, "%s", _("not placed"));
		rc = CLI_FAILED;
		goto out;
	}
	/* one client order id for this intent: every retry re-sends this one */
	coid = api_client_order_id_new();
	r.client_order_id = coid;
	if (api_order_place(c, &r, &o, &e) != 0) {
		struct view_order_ctx x = {.currency = e->currency, .required_minor = e->required_minor,
					   .available_minor = e->available_minor,
					   .opens_at = e->opens_at};
		char *w = view_api_error_words(ctx->lang, e, &x);
		if (e->code != NULL)
			rc = cli_fail(ctx, "%s [%s]", w, e->code);
		else
			rc = cli_fail(ctx, "%s", w);
		free(w);
		if (e->kind == API_ERR_UNKNOWN_OUTCOME || e->kind == API_ERR_PROTOCOL) {
			char *t = api_error_text(e);
			note(ctx, "%s", t);
			free(t);
		}
		if (e->kind == API_ERR_UNKNOWN_OUTCOME)
			note(ctx, _("to check: gpux orders --format csv | grep %s"), coid);
		goto out;
	}
	if (ctx->format == CLI_FORMAT_TABLE)
		say(ctx, "%s", "");
	print_order_result(ctx, o);
	/* nothing traded and nothing resting: say so in the exit status too */
	rc = (o->status == API_ORDER_EXPIRED && o->filled_gpus == 0) ? CLI_FAILED : CLI_OK;
out:
	free(coid);
	api_preview_free(&pv);
	api_order_free(&o);
	api_error_free(&e);
	api_client_free(&c);
	cli_args_free(&a);
	return rc;
}

/* ---- what the listing and id commands share ------------------------------------------ */

/* One page of a listing: ask for q (its cursor set), add the rows to s,
 * *next the next page's cursor (malloc'ed) or NULL at the end. 0, or -1
 * with *e filled. */
typedef int list_page_fn(struct cli_ctx *ctx, struct api_client *c, const struct api_list_query *q,
			 struct cli_sheet *s, char **next, struct api_error **e);

/* Every page of a listing (MAX_PAGES at the most: more, the note that says
 * some are left out) into s, then s printed. CLI_OK or CLI_FAILED. */
static int list_pages(struct cli_ctx *ctx, struct api_client *c, struct api_list_query *q,
		      struct cli_sheet *s, list_page_fn *page, const char *more)
{
	struct api_error *e = NULL;
	char *cursor = NULL, *next;
	int rc, pages = 0;

	do {
		q->cursor = cursor;
		if (page(ctx, c, q, s, &next, &e) != 0) {
			rc = fail_api(ctx, e);
			goto out;
		}
		free(cursor);
		cursor = next;
	} while (cursor != NULL && ++pages < MAX_PAGES);
	if (cursor != NULL)
		cli_sheet_note(s, more);
	rc = cli_sheet_print(ctx, s) == 0 ? CLI_OK : CLI_FAILED;
out:
	free(cursor);
	api_error_free(&e);
	return rc;
}

/* gpux cancel ID, gpux stop ID: the one id (which: what a missing one
 * says, a msgid translated here, after the options) and a client to ask (*c, the caller's to free). CLI_OK or the
 * command's return code, said already. */
static int id_command(struct cli_ctx *ctx, const char *cmd, const struct cli_opt *opts, int argc,
		      char **argv, const char *which, int64_t *id, struct api_client **c)
{
	struct cli_args a;
	int rc;

	if ((rc = cli_args_parse(ctx, cmd, opts, argc, argv, 1, &a)) != CLI_OK)
		return rc;
	if (a.n_pos != 1)
		rc = cli_usage(ctx, "%s", _(which));
	else if ((rc = parse_id(ctx, cmd, a.pos[0], id)) == CLI_OK &&
		 (*c = open_client(ctx, 0, 0, false, NULL)) == NULL)
		rc = CLI_FAILED;
	cli_args_free(&a);
	return rc;
}

/* What a refused cancel of order id (rental: stop of rental id) says: 409,
 * it is over already (with the exchange's words); 404, not yours; else the
 * error as any other. */
static int fail_id(struct cli_ctx *ctx, const struct api_error *e, int64_t id, bool rental)
{
	if (e->kind == API_ERR_HTTP && e->http_status == 409)
		return rental ? cli_fail(ctx, _("rental %lld has already ended: %s"), (long long)id,
					 e->message)
			      : cli_fail(ctx, _("order %lld is not resting any more: %s"),
					 (long long)id, e->message);
	if (e->kind == API_ERR_HTTP && e->http_status == 404)
		return rental ? cli_fail(ctx, _("you have no rental %lld (see gpux rentals)"),
					 (long long)id)
			      : cli_fail(ctx, _("you have no order %lld (see gpux orders)"),
					 (long long)id);
	return fail_api(ctx, e);
}

/* ---- gpux orders, gpux cancel ----------------------------------------------------------- */

static int orders_page(struct cli_ctx *ctx, struct api_client *c, const struct api_list_query *q,
		       struct cli_sheet *s, char **next, struct api_error **e)
{
	struct api_orders *l = NULL;

	if (api_orders(c, q, &l, e) != 0) {
		api_orders_free(&l);
		return -1;
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct api_order *o = &l->v[i];
		cli_sheet_row(s);
		cell_id(s, o->id);
		cli_sheet_text(s, NULL, o->client_order_id);
		cli_sheet_text(s, gpu_name(ctx, o->gpu), o->gpu);
		cli_sheet_text(s, side_text(o->side), api_side_name(o->side));
		cli_sheet_text(s, o->type == API_LIMIT ? _("limit") : _("market"),
			       api_order_type_name(o->type));
		cell_usd(s, ctx, o->price_cents);
		cell_int(s, ctx, o->gpus);
		cell_int(s, ctx, o->hours);
		cell_int(s, ctx, o->filled_gpus);
		cell_int(s, ctx, o->remaining_gpus);
		cli_sheet_text(s, status_text(ctx, o->status), api_order_status_name(o->status));
		cli_sheet_text(s, api_tif_name(o->tif), api_tif_name(o->tif));
		cli_sheet_int(s, NULL, o->hold_minor);
		cli_sheet_text(s, NULL, o->currency);
		cell_time(s, ctx, o->created_at);
	}
	*next = l->next_cursor != NULL ? xstrdup(l->next_cursor) : NULL;
	api_orders_free(&l);
	return 0;
}

int cli_cmd_orders(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c = NULL;
	struct cli_sheet *s = NULL;
	struct api_list_query q = {.status = "all", .limit = 200};
	const char *st, *g;
	int rc;

	if ((rc = cli_args_parse(ctx, "orders", cli_orders_opts, argc, argv, 0, &a)) != CLI_OK)
		return rc;
	if ((st = cli_arg(&a, cli_orders_opts, "--status")) != NULL) {
		if (strcmp(st, "open") == 0)
			q.status = "open";
		else if (strcmp(st, "done") == 0 || strcmp(st, "closed") == 0)
			q.status = "closed";
		else if (strcmp(st, "all") == 0)
			q.status = "all";
		else {
			rc = cli_usage(ctx, _("--status: \"%s\" is not a status; accepted: open, done, all"),
				       st);
			goto out;
		}
	}
	if ((g = cli_arg(&a, cli_orders_opts, "--gpu")) != NULL &&
	    (rc = check_gpu(ctx, "orders", g, &q.gpu)) != CLI_OK)
		goto out;
	if ((c = open_client(ctx, 0, 0, false, NULL)) == NULL) {
		rc = CLI_FAILED;
		goto out;
	}
	s = cli_sheet_new();
	cli_sheet_column(s, "id", _("Order"), CLI_RIGHT);
	cli_sheet_column_for(s, "client_order_id", "client_order_id", CLI_LEFT, CLI_SHOW_DATA);
	cli_sheet_column(s, "gpu", _("GPU"), CLI_LEFT);
	cli_sheet_column(s, "side", _("Side"), CLI_LEFT);
	cli_sheet_column(s, "type", _("Type"), CLI_LEFT);
	cli_sheet_column(s, "price_cents", _("Price/h"), CLI_RIGHT);
	cli_sheet_column(s, "gpus", _("GPUs"), CLI_RIGHT);
	cli_sheet_column(s, "hours", _("Hours"), CLI_RIGHT);
	cli_sheet_column(s, "filled_gpus", _("Filled"), CLI_RIGHT);
	cli_sheet_column(s, "remaining_gpus", _("Resting"), CLI_RIGHT);
	cli_sheet_column(s, "status", _("Status"), CLI_LEFT);
	cli_sheet_column(s, "time_in_force", _("TIF"), CLI_LEFT);
	cli_sheet_column_for(s, "hold_minor", "hold_minor", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "currency", "currency", CLI_LEFT, CLI_SHOW_DATA);
	cli_sheet_column(s, "created_at", _("Created"), CLI_LEFT);
	rc = list_pages(ctx, c, &q, s, orders_page, _("More orders exist than are shown here."));
out:
	cli_sheet_free(&s);
	api_client_free(&c);
	cli_args_free(&a);
	return rc;
}

int cli_cmd_cancel(struct cli_ctx *ctx, int argc, char **argv)
{
	struct api_client *c = NULL;
	struct api_order *o = NULL;
	struct api_error *e = NULL;
	int64_t id;
	int rc;

	if ((rc = id_command(ctx, "cancel", cli_cancel_opts, argc, argv,
			     N_("cancel: which order? e.g. gpux cancel 41 (ids: gpux orders)"), &id,
			     &c)) != CLI_OK)
		goto out;
	if (api_order_cancel(c, id, &o, &e) != 0) {
		rc = fail_id(ctx, e, id, false);
		goto out;
	}
	if (ctx->format == CLI_FORMAT_TABLE)
		say(ctx, _("Cancelled order %lld (%lld of %lld GPUs had filled)."), (long long)o->id,
		    (long long)o->filled_gpus, (long long)o->gpus);
	else
		print_order_result(ctx, o);
	rc = CLI_OK;
out:
	api_order_free(&o);
	api_error_free(&e);
	api_client_free(&c);
	return rc;
}

/* ---- gpux rentals, gpux stop -------------------------------------------------------------- */

static const char *rental_status_text(enum api_rental_status s)
{
	switch (s) {
	case API_RENTAL_ACTIVE: return _("active");
	case API_RENTAL_COMPLETED: return _("completed");
	case API_RENTAL_STOPPED: return _("stopped");
	}
	return "?";
}

static int rentals_page(struct cli_ctx *ctx, struct api_client *c, const struct api_list_query *q,
			struct cli_sheet *s, char **next, struct api_error **e)
{
	struct api_rentals *l = NULL;

	if (api_rentals(c, q, &l, e) != 0) {
		api_rentals_free(&l);
		return -1;
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct api_rental *r = &l->v[i];
		cli_sheet_row(s);
		cell_id(s, r->id);
		cli_sheet_text(s, gpu_name(ctx, r->gpu), r->gpu);
		cli_sheet_text(s, r->seller ? _("seller") : _("buyer"),
			       r->seller ? "seller" : "buyer");
		cell_int(s, ctx, r->gpus);
		cell_int(s, ctx, r->hours);
		cell_usd(s, ctx, r->price_cents);
		cli_sheet_text(s, rental_status_text(r->status),
			       api_rental_status_name(r->status));
		cell_int(s, ctx, r->hours_billed);
		cell_money(s, ctx, r->hourly_minor, r->currency);
		cell_money(s, ctx, r->billed_minor, r->currency);
		cell_money(s, ctx, r->refunded_minor, r->currency);
		cli_sheet_text(s, NULL, r->currency);
		cell_id(s, r->order_id);
		cell_time(s, ctx, r->started_at);
		cell_time(s, ctx, r->stopped_at >= 0 ? r->stopped_at : r->ends_at);
	}
	*next = l->next_cursor != NULL ? xstrdup(l->next_cursor) : NULL;
	api_rentals_free(&l);
	return 0;
}

int cli_cmd_rentals(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c = NULL;
	struct cli_sheet *s = NULL;
	struct api_list_query q = {.status = "all", .limit = 200};
	const char *st, *g;
	int rc;

	if ((rc = cli_args_parse(ctx, "rentals", cli_rentals_opts, argc, argv, 0, &a)) != CLI_OK)
		return rc;
	if ((st = cli_arg(&a, cli_rentals_opts, "--status")) != NULL) {
		if (strcmp(st, "active") != 0 && strcmp(st, "ended") != 0 && strcmp(st, "all") != 0) {
			rc = cli_usage(ctx, _("--status: \"%s\" is not a status; accepted: active, "
					      "ended, all"), st);
			goto out;
		}
		q.status = st;
	}
	if ((g = cli_arg(&a, cli_rentals_opts, "--gpu")) != NULL &&
	    (rc = check_gpu(ctx, "rentals", g, &q.gpu)) != CLI_OK)
		goto out;
	if ((c = open_client(ctx, 0, 0, false, NULL)) == NULL) {
		rc = CLI_FAILED;
		goto out;
	}
	s = cli_sheet_new();
	cli_sheet_column(s, "id", _("Rental"), CLI_RIGHT);
	cli_sheet_column(s, "gpu", _("GPU"), CLI_LEFT);
	cli_sheet_column(s, "role", _("Role"), CLI_LEFT);
	cli_sheet_column(s, "gpus", _("GPUs"), CLI_RIGHT);
	cli_sheet_column(s, "hours", _("Hours"), CLI_RIGHT);
	cli_sheet_column(s, "price_cents", _("Price/h"), CLI_RIGHT);
	cli_sheet_column(s, "status", _("Status"), CLI_LEFT);
	cli_sheet_column(s, "hours_billed", _("Billed h"), CLI_RIGHT);
	cli_sheet_column(s, "hourly_minor", _("Per hour"), CLI_RIGHT);
	cli_sheet_column(s, "billed_minor", _("Billed"), CLI_RIGHT);
	cli_sheet_column(s, "refunded_minor", _("Refunded"), CLI_RIGHT);
	cli_sheet_column_for(s, "currency", "currency", CLI_LEFT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "order_id", "order_id", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column(s, "started_at", _("Started"), CLI_LEFT);
	cli_sheet_column(s, "ends_at", _("Ends"), CLI_LEFT);
	rc = list_pages(ctx, c, &q, s, rentals_page, _("More rentals exist than are shown here."));
out:
	cli_sheet_free(&s);
	api_client_free(&c);
	cli_args_free(&a);
	return rc;
}

int cli_cmd_stop(struct cli_ctx *ctx, int argc, char **argv)
{
	struct api_client *c = NULL;
	struct api_rental *r = NULL;
	struct api_error *e = NULL;
	int64_t id;
	int rc;

	if ((rc = id_command(ctx, "stop", cli_stop_opts, argc, argv,
			     N_("stop: which rental? e.g. gpux stop 9 (ids: gpux rentals)"), &id,
			     &c)) != CLI_OK)
		goto out;
	if (api_rental_stop(c, id, &r, &e) != 0) {
		rc = fail_id(ctx, e, id, true);
		goto out;
	}
	if (ctx->format == CLI_FORMAT_TABLE) {
		char *b = fmt_money(ctx, r->billed_minor, r->currency);
		char *f = fmt_money(ctx, r->refunded_minor, r->currency);
		say(ctx, _("Stopped rental %lld: %lld of %lld hours billed (%s), %s refunded."),
		    (long long)r->id, (long long)r->hours_billed, (long long)r->hours, b, f);
		free(b);
		free(f);
	} else {
		struct cli_sheet *s = cli_sheet_new();
		cli_sheet_column(s, "id", "id", CLI_RIGHT);
		cli_sheet_column(s, "status", "status", CLI_LEFT);
		cli_sheet_column(s, "hours", "hours", CLI_RIGHT);
		cli_sheet_column(s, "hours_billed", "hours_billed", CLI_RIGHT);
		cli_sheet_column(s, "billed_minor", "billed_minor", CLI_RIGHT);
		cli_sheet_column(s, "refunded_minor", "refunded_minor", CLI_RIGHT);
		cli_sheet_column(s, "currency", "currency", CLI_LEFT);
		cli_sheet_row(s);
		cli_sheet_int(s, NULL, r->id);
		cli_sheet_text(s, NULL, api_rental_status_name(r->status));
		cli_sheet_int(s, NULL, r->hours);
		cli_sheet_int(s, NULL, r->hours_billed);
		cli_sheet_int(s, NULL, r->billed_minor);
		cli_sheet_int(s, NULL, r->refunded_minor);
		cli_sheet_text(s, NULL, r->currency);
		cli_sheet_print(ctx, s);
		cli_sheet_free(&s);
	}
	rc = CLI_OK;
out:
	api_rental_free(&r);
	api_error_free(&e);
	api_client_free(&c);
	return rc;
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
	if ((c = open_client(ctx, 2, 5000, true, cause)) == NULL)
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
	}
	out->items = items;
	out->n = q->n;
	out->stale = false;
	api_quotes_free(&q);
	api_client_free(&c);
	return 0;
}
