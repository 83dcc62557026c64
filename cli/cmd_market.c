/*
 * The market-data commands of gpux: quotes, book, trades, candles and watch.
 *
 * `gpux quotes` (best bid and ask of every GPU), `gpux book GPU` (one GPU's
 * order book as a ladder), `gpux trades` and `gpux candles` are one request
 * each, printed as a sheet (table, csv or json). `gpux watch` follows the exchange's market stream
 * (api_stream_open) in a poll loop and prints one line per change as it
 * arrives — a trade, or a GPU's best bid/ask/last moving — until SIGINT or
 * SIGTERM (exit 0) or --count changes; with --format csv a header first,
 * with json one object per line. It does not fall back to polling: when the
 * stream cannot be had before it first goes live, it exits 1 saying why;
 * once live, a broken stream is reconnected (noted on stderr) and nothing
 * is missed while the exchange still holds the events.
 */
#include "cli/cli.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "api/api.h"
#include "cli/cli_int.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "util/util.h"
#include "view/view.h"


/* ---- small pieces -------------------------------------------------------------------- */

/* The options of a command about one GPU in *a (cli_args_free it whatever
 * this returns) and the GPU's catalogue id in *gpu; none given: which (a
 * msgid) says so. CLI_OK, or a usage message and CLI_USAGE. */
static int gpu_args(struct cli_ctx *ctx, const char *cmd, const struct cli_opt *opts, int argc,
		    char **argv, const char *which, struct cli_args *a, const char **gpu)
{
	int rc;

	if ((rc = cli_args_parse(ctx, cmd, opts, argc, argv, 1, a)) != CLI_OK)
		return rc;
	if (a->n_pos != 1)
		return cli_usage(ctx, "%s", _(which));
	return cli_check_gpu(ctx, cmd, a->pos[0], gpu);
}

/* ---- gpux quotes ---------------------------------------------------------------------- */

/* The quotes of q (demo: from the local demo exchange) as a sheet, printed. */
static int print_quotes(struct cli_ctx *ctx, const struct api_quotes *q, bool demo)
{
	struct cli_sheet *s = cli_sheet_new();

	cli_sheet_column(s, "gpu", _("GPU"), CLI_LEFT);
	cli_sheet_column(s, "name", _("Name"), CLI_LEFT);
	cli_sheet_column(s, "best_ask_cents", _("Best ask"), CLI_RIGHT);
	cli_sheet_column(s, "ask_gpus", _("GPUs"), CLI_RIGHT);
	cli_sheet_column(s, "best_bid_cents", _("Best bid"), CLI_RIGHT);
	cli_sheet_column(s, "bid_gpus", _("GPUs"), CLI_RIGHT);
	cli_sheet_column(s, "last_cents", _("Last"), CLI_RIGHT);
	/* TRANSLATORS: column of gpux quotes: the best price of a whole machine of 8 GPUs */
	cli_sheet_column(s, "best_ask_n8_cents", _("Node of 8"), CLI_RIGHT);
	/* TRANSLATORS: column of gpux quotes: how many machines of 8 at that price */
	cli_sheet_column(s, "ask_n8_units", _("Nodes"), CLI_RIGHT);
	for (size_t i = 0; i < q->n; i++) {
		const struct api_quote *x = &q->v[i];
		cli_sheet_row(s);
		cli_sheet_text(s, x->gpu, x->gpu);
		cli_sheet_text(s, cli_gpu_name(ctx, x->gpu), cli_gpu_name(ctx, x->gpu));
		cli_cell_usd(s, ctx, x->best_ask_cents);
		cli_cell_int(s, ctx, x->ask_gpus);
		cli_cell_usd(s, ctx, x->best_bid_cents);
		cli_cell_int(s, ctx, x->bid_gpus);
		cli_cell_usd(s, ctx, x->last_cents);
		if (x->has_n8) {
			cli_cell_usd(s, ctx, x->best_ask_n8_cents);
			cli_cell_int(s, ctx, x->ask_n8_units);
		} else {
			cli_sheet_null(s, ctx->ascii ? "-" : "\u2014");
			cli_sheet_null(s, ctx->ascii ? "-" : "\u2014");
		}
	}
	cli_sheet_note(s, _("Prices per GPU-hour, before tax."));
	cli_sheet_note(s, _("Best ask: one GPU; Node of 8: a whole machine of 8 GPUs (per GPU-hour), "
			    "and how many such machines at that price."));
	if (demo)
		cli_sheet_note(s, _("Local demo exchange: simulated money."));
	return cli_sheet_print_free(ctx, &s);
}

int cli_cmd_quotes(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c;
	struct api_quotes *q = NULL;
	struct api_error *e = NULL;
	int rc;

	if ((rc = cli_args_parse(ctx, "quotes", cli_quotes_opts, argc, argv, 0, &a)) != CLI_OK)
		return rc;
	cli_args_free(&a);
	if ((c = cli_open_client(ctx, 0, 0, false, NULL)) == NULL)
		return CLI_FAILED;
	if (api_quotes(c, NULL, &q, &e) != 0)
		rc = cli_fail_api_free(ctx, &e);
	else
		rc = print_quotes(ctx, q, api_client_is_local_demo(c));
	api_quotes_free(&q);
	api_client_free(&c);
	return rc;
}

/* ---- gpux book GPU [--depth N] --------------------------------------------------------- */

/* One level of the ladder: side its raw word, text its translation. */
static void book_row(struct cli_sheet *s, const struct cli_ctx *ctx, const char *side,
		     const char *text, const struct api_level *l, bool units)
{
	cli_sheet_row(s);
	cli_sheet_text(s, text, side);
	cli_cell_usd(s, ctx, l->price_cents);
	if (units)
		cli_cell_int(s, ctx, l->units);
	cli_cell_int(s, ctx, l->gpus);
	cli_cell_int(s, ctx, l->orders);
}

/* --node-gpus, --region, --interconnect: the ladder by node size (*by). */
static int book_query(struct cli_ctx *ctx, const struct cli_args *a, struct api_book_query *q,
		      bool *by)
{
	const char *v;
	int rc;

	*by = false;
	if ((v = cli_arg(a, cli_book_opts, "--node-gpus")) != NULL) {
		if ((rc = cli_parse_node_gpus(ctx, "--node-gpus", v, &q->node_gpus)) != CLI_OK)
			return rc;
		*by = true;
	}
	if ((v = cli_arg(a, cli_book_opts, "--interconnect")) != NULL) {
		if ((rc = cli_parse_link(ctx, "--interconnect", v, &q->interconnect)) != CLI_OK)
			return rc;
		*by = true;
	}
	if ((v = cli_arg(a, cli_book_opts, "--region")) != NULL) {
		struct cli_regions r;
		if ((rc = cli_regions_parse(ctx, "--region", v, 64, &r)) != CLI_OK)
			return rc;
		cli_regions_free(&r);
		q->regions = v; /* checked; sent as typed */
		*by = true;
	}
	return CLI_OK;
}

/* "H200, units of 8 GPUs inside one machine (NVLink) in eu-west: …" */
static void book_note(struct cli_sheet *s, const struct cli_ctx *ctx, const char *gpu,
		      const struct api_book *b)
{
	struct buf n = {0};

	if (b->node_gpus <= 0)
		return;
	buf_printf(&n, _("%s: what can serve units of %lld GPUs inside one machine"),
		   cli_gpu_name(ctx, gpu), (long long)b->node_gpus);
	if (b->interconnect != NULL)
		buf_printf(&n, _(", on %s"), view_link_text(ctx->lang, b->interconnect));
	for (size_t i = 0; i < b->n_regions; i++)
		buf_printf(&n, "%s%s", i == 0 ? _(", in ") : ", ", b->regions[i]);
	buf_puts(&n, _("; Units: such units at the price, GPUs: units × their GPUs."));
	cli_sheet_note(s, n.data);
	buf_free(&n);
}

/* The ladder of b (by_size: by node size) as a sheet, printed. */
static int print_book(struct cli_ctx *ctx, const char *gpu, const struct api_book *b, bool by_size)
{
	struct cli_sheet *s = cli_sheet_new();

	cli_sheet_column(s, "side", _("Side"), CLI_LEFT);
	cli_sheet_column(s, "price_cents", _("Price/h"), CLI_RIGHT);
	if (by_size)
		/* TRANSLATORS: ladder by node size: units of G GPUs inside one machine */
		cli_sheet_column(s, "units", _("Units"), CLI_RIGHT);
	cli_sheet_column(s, "gpus", _("GPUs"), CLI_RIGHT);
	cli_sheet_column(s, "orders", _("Orders"), CLI_RIGHT);
	/* a ladder: asks from the highest down to the best, then bids from the best */
	for (size_t i = b->n_asks; i-- > 0;)
		book_row(s, ctx, "ask", C_("book side", "ask"), &b->asks[i], by_size);
	for (size_t i = 0; i < b->n_bids; i++)
		book_row(s, ctx, "bid", C_("book side", "bid"), &b->bids[i], by_size);
	book_note(s, ctx, gpu, b);
	if (b->n_asks > 0 && b->n_bids > 0) {
		char *sp = cli_fmt_usd(ctx, b->asks[0].price_cents - b->bids[0].price_cents);
		char *n = xasprintf(_("%s: spread %s; prices per GPU-hour, before tax."),
				    cli_gpu_name(ctx, gpu), sp);
		cli_sheet_note(s, n);
		free(n);
		free(sp);
	}
	return cli_sheet_print_free(ctx, &s);
}

int cli_cmd_book(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c = NULL;
	struct api_book *b = NULL;
	struct api_error *e = NULL;
	struct api_book_query bq = {0};
	const char *gpu;
	bool by_size = false;
	int64_t depth = 10;
	int rc;

	if ((rc = gpu_args(ctx, "book", cli_book_opts, argc, argv,
			   N_("book: which GPU? e.g. gpux book h200"), &a, &gpu)) != CLI_OK ||
	    (rc = cli_arg_int(ctx, &a, "--depth", 1, 100, &depth)) != CLI_OK ||
	    (rc = book_query(ctx, &a, &bq, &by_size)) != CLI_OK)
		goto out;
	bq.depth = (int)depth;
	if ((c = cli_open_client(ctx, 0, 0, false, NULL)) == NULL) {
		rc = CLI_FAILED;
		goto out;
	}
	if ((by_size ? api_book_query(c, gpu, &bq, &b, &e) : api_book(c, gpu, (int)depth, &b, &e)) != 0) {
		if ((rc = cli_fail_region(ctx, c, e)) == CLI_OK)
			rc = cli_fail_api(ctx, e);
	} else if (by_size && b->node_gpus <= 0) {
		rc = cli_fail(ctx, _("book: this exchange has no ladder by node size (it sells loose GPUs "
				     "only); gpux book %s without --node-gpus shows its book"), gpu);
	} else {
		rc = print_book(ctx, gpu, b, by_size);
	}
out:
	api_book_free(&b);
	api_error_free(&e);
	api_client_free(&c);
	cli_args_free(&a);
	return rc;
}

/* ---- gpux trades GPU, gpux candles GPU ------------------------------------------------------ */

static int print_trades(struct cli_ctx *ctx, const struct api_trades *t)
{
	struct cli_sheet *s = cli_sheet_new();

	cli_sheet_column(s, "id", _("Trade"), CLI_RIGHT);
	cli_sheet_column(s, "at", _("Time"), CLI_LEFT);
	cli_sheet_column(s, "price_cents", _("Price/GPU-h"), CLI_RIGHT);
	cli_sheet_column(s, "gpus", _("GPUs"), CLI_RIGHT);
	cli_sheet_column(s, "hours", _("Hours"), CLI_RIGHT);
	cli_sheet_column(s, "taker_side", _("Taker"), CLI_LEFT);
	for (size_t i = 0; i < t->n; i++) {
		const struct api_trade *x = &t->v[i];
		cli_sheet_row(s);
		cli_cell_id(s, x->id);
		cli_cell_time(s, ctx, x->at);
		cli_cell_usd(s, ctx, x->price_cents);
		cli_cell_int(s, ctx, x->gpus);
		cli_cell_int(s, ctx, x->hours);
		cli_sheet_text(s, cli_side_text(x->taker_side), api_side_name(x->taker_side));
	}
	if (t->n == 0)
		cli_sheet_note(s, _("no trades yet"));
	return cli_sheet_print_free(ctx, &s);
}

int cli_cmd_trades(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_trades *t = NULL;
	struct api_error *e = NULL;
	struct api_client *c;
	const char *gpu;
	int64_t limit = 50;
	int rc;

	if ((rc = gpu_args(ctx, "trades", cli_trades_opts, argc, argv,
			   N_("trades: give one GPU, e.g. gpux trades h200"), &a, &gpu)) == CLI_OK)
		rc = cli_arg_int(ctx, &a, "--limit", 1, 200, &limit);
	cli_args_free(&a);
	if (rc != CLI_OK)
		return rc;
	if ((c = cli_open_client(ctx, 0, 0, false, NULL)) == NULL)
		return CLI_FAILED;
	if (api_trades(c, gpu, &(struct api_list_query){.limit = (int)limit}, &t, &e) != 0)
		rc = cli_fail_api_free(ctx, &e);
	else
		rc = print_trades(ctx, t);
	api_trades_free(&t);
	api_client_free(&c);
	return rc;
}

/* --interval, --from, --to, --limit into *q. */
static int candles_args(struct cli_ctx *ctx, const struct cli_args *a, struct api_candles_query *q)
{
	static const char *const ivs[] = {"1m", "5m", "1h", "1d"};
	const char *v;
	int64_t limit = 0;
	int rc = CLI_OK;

	q->from = q->to = -1;
	if ((v = cli_arg(a, cli_candles_opts, "--interval")) != NULL) {
		for (size_t i = 0; i < 4; i++)
			if (strcmp(v, ivs[i]) == 0)
				q->interval = ivs[i];
		if (q->interval == NULL)
			return cli_usage(ctx, _("--interval: \"%s\" is not an interval; accepted: 1m, 5m, "
						"1h, 1d"), v);
	}
	if ((v = cli_arg(a, cli_candles_opts, "--from")) != NULL)
		rc = cli_parse_time(ctx, "--from", v, &q->from);
	if (rc == CLI_OK && (v = cli_arg(a, cli_candles_opts, "--to")) != NULL)
		rc = cli_parse_time(ctx, "--to", v, &q->to);
	if (rc == CLI_OK && (rc = cli_arg_int(ctx, a, "--limit", 1, 1000, &limit)) == CLI_OK)
		q->limit = (int)limit;
	if (rc == CLI_OK && q->from >= 0 && q->to >= 0 && q->to <= q->from)
		rc = cli_usage(ctx, _("--to must be later than --from"));
	return rc;
}

static int print_candles(struct cli_ctx *ctx, const struct api_candles *k)
{
	struct cli_sheet *s = cli_sheet_new();

	cli_sheet_column(s, "start", _("Start"), CLI_LEFT);
	cli_sheet_column(s, "open_cents", _("Open"), CLI_RIGHT);
	cli_sheet_column(s, "high_cents", _("High"), CLI_RIGHT);
	cli_sheet_column(s, "low_cents", _("Low"), CLI_RIGHT);
	cli_sheet_column(s, "close_cents", _("Close"), CLI_RIGHT);
	cli_sheet_column(s, "gpus", _("GPUs"), CLI_RIGHT);
	cli_sheet_column(s, "gpu_hours", _("GPU-hours"), CLI_RIGHT);
	cli_sheet_column(s, "trades", _("Trades"), CLI_RIGHT);
	for (size_t i = 0; i < k->n; i++) {
		const struct api_candle *x = &k->v[i];
		cli_sheet_row(s);
		cli_cell_time(s, ctx, x->start);
		cli_cell_usd(s, ctx, x->open_cents);
		cli_cell_usd(s, ctx, x->high_cents);
		cli_cell_usd(s, ctx, x->low_cents);
		cli_cell_usd(s, ctx, x->close_cents);
		cli_cell_int(s, ctx, x->gpus);
		cli_cell_int(s, ctx, x->gpu_hours);
		cli_cell_int(s, ctx, x->trades);
	}
	if (k->n == 0)
		cli_sheet_note(s, _("no trades in this range"));
	else
		cli_sheet_note(s, _("intervals without trades are left out"));
	return cli_sheet_print_free(ctx, &s);
}

int cli_cmd_candles(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_candles_query q = {0};
	struct api_candles *k = NULL;
	struct api_error *e = NULL;
	struct api_client *c;
	const char *gpu;
	int rc;

	if ((rc = gpu_args(ctx, "candles", cli_candles_opts, argc, argv,
			   N_("candles: give one GPU, e.g. gpux candles h200 --interval 1h"), &a,
			   &gpu)) == CLI_OK)
		rc = candles_args(ctx, &a, &q);
	cli_args_free(&a);
	if (rc != CLI_OK)
		return rc;
	if ((c = cli_open_client(ctx, 0, 0, false, NULL)) == NULL)
		return CLI_FAILED;
	if (api_candles(c, gpu, &q, &k, &e) != 0)
		rc = cli_fail_api_free(ctx, &e);
	else
		rc = print_candles(ctx, k);
	api_candles_free(&k);
	api_client_free(&c);
	return rc;
}

/* ---- gpux watch ----------------------------------------------------------------------------- */

volatile sig_atomic_t cli_watch_stop;

static void on_signal(int sig)
{
	cli_watch_stop = sig;
}

void cli_watch_signals(void)
{
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
}

void cli_watch_step(struct api_client *c, struct api_stream *st)
{
	struct pollfd fds[64];
	int timeout = 200, n;

	n = api_fds(c, fds, 32, &timeout);
	n += api_stream_fds(st, fds + n, 32, &timeout);
	poll(fds, (nfds_t)n, timeout);
	api_perform(c);
	api_stream_perform(st);
}

struct watch {
	struct cli_ctx *ctx;
	const char **gpus;          /* NULL: all */
	size_t n_gpus;
	long long count, printed;
	bool ever_live, failed;
	char *why;                  /* the failure before it went live */
	struct api_quote *last;     /* the latest quote of each GPU seen */
	size_t n_last;
};

static bool watched(const struct watch *w, const char *gpu)
{
	if (w->gpus == NULL)
		return true;
	for (size_t i = 0; i < w->n_gpus; i++)
		if (strcmp(w->gpus[i], gpu) == 0)
			return true;
	return false;
}

static const char *const watch_cols[] = {"at", "gpu", "kind", "trade_id", "price_cents", "gpus",
					 "hours", "taker_side", "best_bid_cents", "best_ask_cents",
					 "last_cents"};

/* v as decimal text, or `none` when it is -1 (no price). */
static const char *num(char *b, size_t size, int64_t v, const char *none)
{
	if (v < 0)
		return none;
	snprintf(b, size, "%lld", (long long)v);
	return b;
}

static void print_raw(struct watch *w, const struct api_trade *t, const struct api_quote *q,
		      const char *gpu, const char *at)
{
	FILE *o = w->ctx->out;
	char b1[24], b2[24], b3[24];

	if (w->ctx->format == CLI_FORMAT_JSON) {
		char *g = view_json_string(gpu);
		if (t != NULL)
			fprintf(o, "{\"at\":\"%s\",\"gpu\":%s,\"kind\":\"trade\",\"trade_id\":%lld,"
				"\"price_cents\":%lld,\"gpus\":%lld,\"hours\":%lld,\"taker_side\":\"%s\"}\n",
				at, g, (long long)t->id, (long long)t->price_cents, (long long)t->gpus,
				(long long)t->hours, api_side_name(t->taker_side));
		else
			fprintf(o, "{\"at\":\"%s\",\"gpu\":%s,\"kind\":\"quote\",\"best_bid_cents\":%s,"
				"\"best_ask_cents\":%s,\"last_cents\":%s}\n", at, g,
				num(b1, sizeof b1, q->best_bid_cents, "null"),
				num(b2, sizeof b2, q->best_ask_cents, "null"),
				num(b3, sizeof b3, q->last_cents, "null"));
		free(g);
	} else if (t != NULL) {
		fprintf(o, "%s,%s,trade,%lld,%lld,%lld,%lld,%s,,,\n", at, gpu, (long long)t->id,
			(long long)t->price_cents, (long long)t->gpus, (long long)t->hours,
			api_side_name(t->taker_side));
	} else {
		fprintf(o, "%s,%s,quote,,,,,,%s,%s,%s\n", at, gpu, num(b1, sizeof b1, q->best_bid_cents, ""),
			num(b2, sizeof b2, q->best_ask_cents, ""), num(b3, sizeof b3, q->last_cents, ""));
	}
}

static void print_line(struct watch *w, const struct api_trade *t, const struct api_quote *q,
		       const char *gpu, int64_t when)
{
	struct cli_ctx *ctx = w->ctx;
	char *d = i18n_fmt_date(ctx->lang, when, I18N_UTC), *line;

	if (t != NULL) {
		char *p = i18n_fmt_money(ctx->lang, t->price_cents, "USD");
		line = xasprintf(P_("%s  %-10s trade  %s × %lld GPU × %lld h (%s)",
				    "%s  %-10s trade  %s × %lld GPUs × %lld h (%s)",
				    (unsigned long)t->gpus),
				 d, gpu, p, (long long)t->gpus, (long long)t->hours,
				 cli_side_text(t->taker_side));
		free(p);
	} else {
		char *b = cli_fmt_usd(ctx, q->best_bid_cents), *k = cli_fmt_usd(ctx, q->best_ask_cents);
		char *l = cli_fmt_usd(ctx, q->last_cents);
		line = xasprintf(_("%s  %-10s quote  bid %s  ask %s  last %s"), d, gpu, b, k, l);
		free(b);
		free(k);
		free(l);
	}
	cli_say(ctx, "%s", line);
	free(line);
	free(d);
}

/* One change: a trade (t) or a quote (q). */
static void print_change(struct watch *w, const struct api_trade *t, const struct api_quote *q,
			 const char *gpu)
{
	int64_t when = t != NULL ? t->at : (int64_t)time(NULL);
	char *at = cli_iso_time(when);

	if (at == NULL)
		at = xstrdup("");

	if (w->count > 0 && w->printed >= w->count)
		return;
	if (w->ctx->format == CLI_FORMAT_TABLE)
		print_line(w, t, q, gpu, when);
	else
		print_raw(w, t, q, gpu, at);
	free(at);
	fflush(w->ctx->out);
	w->printed++;
}

static struct api_quote *last_quote(struct watch *w, const char *gpu)
{
	for (size_t i = 0; i < w->n_last; i++)
		if (strcmp(w->last[i].gpu, gpu) == 0)
			return &w->last[i];
	w->last = xreallocarray(w->last, w->n_last + 1, sizeof *w->last);
	w->last[w->n_last] = (struct api_quote){.gpu = xstrdup(gpu), .best_ask_cents = -2};
	return &w->last[w->n_last++];
}

/* Remember q; true when it differs from what was known (and something was). */
static bool quote_moved(struct watch *w, const struct api_quote *q)
{
	struct api_quote *l = last_quote(w, q->gpu);
	bool known = l->best_ask_cents != -2;
	bool moved = l->best_ask_cents != q->best_ask_cents || l->ask_gpus != q->ask_gpus ||
		     l->best_bid_cents != q->best_bid_cents || l->bid_gpus != q->bid_gpus ||
		     l->last_cents != q->last_cents;
	char *g = l->gpu;

	*l = *q;
	l->gpu = g;
	return known && moved;
}

static void on_event(void *ud, const struct api_stream_event *ev)
{
	struct watch *w = ud;

	for (size_t i = 0; i < ev->n_quotes; i++)
		if (watched(w, ev->quotes[i].gpu) && quote_moved(w, &ev->quotes[i]) &&
		    ev->kind != API_EV_SNAPSHOT)
			print_change(w, NULL, &ev->quotes[i], ev->quotes[i].gpu);
	if (ev->kind == API_EV_TRADE && watched(w, ev->gpu))
		for (size_t i = 0; i < ev->n_trades; i++)
			print_change(w, &ev->trades[i], NULL, ev->gpu);
}

static void on_state(void *ud, enum api_stream_state st, const struct api_error *why)
{
	struct watch *w = ud;
	char *t = why != NULL ? api_error_text(why) : NULL;

	if (st == API_STREAM_LIVE) {
		/* said once live: a quiet market prints nothing for long */
		cli_note(w->ctx, "%s", w->ever_live ? _("the stream is live again")
						    : _("the stream is live; Ctrl-C ends it"));
		w->ever_live = true;
	} else if (st == API_STREAM_RETRYING || st == API_STREAM_POLLING) {
		if (!w->ever_live) {
			w->failed = true;
			free(w->why);
			w->why = t;
			t = NULL;
		} else {
			cli_note(w->ctx, _("reconnecting: %s"), t != NULL ? t : "?");
		}
	}
	free(t);
}

static char *watch_channels(const struct watch *w)
{
	struct buf b = {0};

	buf_puts(&b, "quotes");
	if (w->gpus == NULL)
		buf_puts(&b, ",trades:*");
	for (size_t i = 0; i < w->n_gpus; i++)
		buf_printf(&b, ",trades:%s", w->gpus[i]);
	return buf_take(&b);
}

static void watch_loop(struct watch *w, struct api_client *c, struct api_stream *st)
{
	while (!cli_watch_stop && !w->failed && (w->count == 0 || w->printed < w->count))
		cli_watch_step(c, st);
}

int cli_cmd_watch(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct watch w = {.ctx = ctx};
	struct api_client *c;
	struct api_stream *st;
	const char *v;
	char *channels;
	int rc;

	if ((rc = cli_args_parse(ctx, "watch", cli_watch_opts, argc, argv, 64, &a)) != CLI_OK)
		return rc;
	if ((v = cli_arg(&a, cli_watch_opts, "--count")) != NULL)
		rc = cli_parse_int(ctx, "--count", v, 1, 1000000000, &w.count);
	if (rc == CLI_OK && cli_arg(&a, cli_watch_opts, "--alerts") != NULL) {
		rc = cli_watch_alerts(ctx, &a, w.count);
		cli_args_free(&a);
		return rc;
	}
	if (rc == CLI_OK && (cli_arg(&a, cli_watch_opts, "--exec") || cli_arg(&a, cli_watch_opts, "--since") ||
			     cli_arg(&a, cli_watch_opts, "--give-up")))
		rc = cli_usage(ctx, "%s", _("watch: --exec, --since and --give-up go with --alerts"));
	if (a.n_pos > 0) {
		w.gpus = xcalloc(a.n_pos, sizeof *w.gpus);
		for (size_t i = 0; rc == CLI_OK && i < a.n_pos; i++)
			rc = cli_check_gpu(ctx, "watch", a.pos[i], &w.gpus[w.n_gpus++]);
	}
	if (rc != CLI_OK || (c = cli_open_client(ctx, 0, 0, false, NULL)) == NULL) {
		free(w.gpus);
		cli_args_free(&a);
		return rc != CLI_OK ? rc : CLI_FAILED;
	}
	if (ctx->format == CLI_FORMAT_CSV) {
		for (size_t i = 0; i < sizeof watch_cols / sizeof watch_cols[0]; i++)
			fprintf(ctx->out, "%s%s", i ? "," : "", watch_cols[i]);
		fprintf(ctx->out, "\n");
		fflush(ctx->out);
	}
	channels = watch_channels(&w);
	cli_watch_signals();
	st = api_stream_open(c, &(struct api_stream_opts){.channels = channels, .no_poll = true},
			     &(struct api_stream_cbs){.event = on_event, .state = on_state, .ud = &w});
	watch_loop(&w, c, st);
	rc = CLI_OK;
	if (w.failed)
		rc = cli_fail(ctx, _("the exchange's market stream cannot be had: %s"),
			      w.why != NULL ? w.why : "?");
	api_stream_close(&st);
	api_client_free(&c);
	for (size_t i = 0; i < w.n_last; i++)
		free(w.last[i].gpu);
	free(w.last);
	free(w.why);
	free(channels);
	free(w.gpus);
	cli_args_free(&a);
	return rc;
}
