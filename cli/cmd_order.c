/*
 * `gpux order buy|sell GPU ...`: the request checked here, previewed by the
 * exchange, then placed only with --yes or after a "y" on a terminal, with
 * one client_order_id made for this intent (api/ re-sends it, never a new
 * one, until the exchange answers).
 */
#include "cli/cli_int.h"

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

/* ---- placing: gpux order, gpux job ------------------------------------------------------ */

int cli_place_opts(struct cli_ctx *ctx, const struct cli_args *a, const char *notty, bool *dry,
		   bool *yes)
{
	*dry = cli_arg(a, a->opts, "--dry-run") != NULL;
	*yes = cli_arg(a, a->opts, "--yes") != NULL;
	if (!*dry && !*yes && !isatty(STDIN_FILENO))
		return cli_usage(ctx, "%s", notty);
	return CLI_OK;
}

bool cli_place_confirmed(struct cli_ctx *ctx, bool dry, bool yes, const char *question, int *rc)
{
	if (dry) {
		*rc = CLI_OK;
		return false;
	}
	if (!yes && !cli_confirm(ctx, question)) {
		cli_note(ctx, "%s", _("not placed"));
		*rc = CLI_FAILED;
		return false;
	}
	return true;
}

/* ---- gpux order ------------------------------------------------------------------------ */

/* The terms an order's record and its preview's both begin with: GPU, side,
 * type, time in force, status (an order's; a preview has none: NULL), GPUs,
 * hours and price. */
static void terms_record(struct cli_record *r, const char *gpu, enum api_side side,
			 enum api_order_type type, enum api_tif tif, const char *status,
			 int64_t gpus, int64_t hours, int64_t price_cents)
{
	cli_record_text(r, "gpu", gpu);
	cli_record_text(r, "side", api_side_name(side));
	cli_record_text(r, "type", api_order_type_name(type));
	cli_record_text(r, "time_in_force", api_tif_name(tif));
	if (status != NULL)
		cli_record_text(r, "status", status);
	cli_record_int(r, "gpus", gpus);
	cli_record_int(r, "hours", hours);
	cli_record_int(r, "price_cents", price_cents);
}

static void print_preview(struct cli_ctx *ctx, const struct api_order_req *r,
			  const struct api_preview *p)
{
	char *t;

	if (ctx->format != CLI_FORMAT_TABLE) {
		struct cli_record *rec = cli_record_new();
		terms_record(rec, p->gpu, p->side, p->type, p->tif, NULL, p->gpus, p->hours,
			     p->price_cents);
		cli_record_int(rec, "fill_gpus", p->fill_gpus);
		cli_record_int(rec, "rest_gpus", p->rest_gpus);
		cli_record_int(rec, "expire_gpus", p->expire_gpus);
		cli_record_text(rec, "currency", p->currency);
		cli_record_int(rec, "net_minor", p->net_minor);
		cli_record_int(rec, "vat_minor", p->vat_minor);
		cli_record_int(rec, "total_minor", p->total_minor);
		cli_record_int(rec, "hold_minor", p->hold_minor);
		cli_record_int(rec, "balance_available_minor", p->balance_available_minor);
		cli_record_int(rec, "balance_after_minor", p->balance_after_minor);
		cli_record_text(rec, "would_status", api_order_status_name(p->would_status));
		cli_record_text(rec, "would_reject", p->reject_code);
		cli_preview_lot_record(rec, p);
		cli_record_print(ctx, &rec);
		return;
	}
	/* the same confirmation as the TUI's order form (view/order.c) */
	t = view_order_summary(ctx->lang, cli_gpu_name(ctx, p->gpu), r, p);
	cli_say_lines(ctx, t);
	free(t);
}

/* The rental ids of an order's fills (malloc'ed, room for one at least). */
static int64_t *rental_ids(const struct api_order *o)
{
	int64_t *ids = xcalloc(o->n_fills + 1, sizeof *ids);

	for (size_t i = 0; i < o->n_fills; i++)
		ids[i] = o->fills[i].rental_id;
	return ids;
}

void cli_print_order_result(struct cli_ctx *ctx, const struct api_order *o)
{
	char *t;

	if (ctx->format != CLI_FORMAT_TABLE) {
		struct cli_record *r = cli_record_new();
		int64_t *rentals = rental_ids(o);
		cli_record_int(r, "id", o->id);
		cli_record_text(r, "client_order_id", o->client_order_id);
		terms_record(r, o->gpu, o->side, o->type, o->tif, api_order_status_name(o->status),
			     o->gpus, o->hours, o->price_cents);
		cli_record_int(r, "filled_gpus", o->filled_gpus);
		cli_record_int(r, "remaining_gpus", o->remaining_gpus);
		if (o->filled_gpus > 0)
			cli_record_int(r, "avg_price_cents", view_order_avg_price(o));
		else
			cli_record_text(r, "avg_price_cents", NULL);
		cli_record_int(r, "filled_value_cents", o->filled_value_cents);
		cli_record_int(r, "hold_minor", o->hold_minor);
		cli_record_text(r, "currency", o->currency);
		/* an array of integers in json, space-separated in csv */
		cli_record_ints(r, "rental_ids", rentals, o->n_fills);
		free(rentals);
		cli_order_lot_record(r, o);
		cli_record_print(ctx, &r);
		return;
	}
	/* the same words as the TUI's order form (view/order.c) */
	t = view_order_result(ctx->lang, cli_gpu_name(ctx, o->gpu), o);
	cli_say_lines(ctx, t);
	free(t);
}

/* The side, GPU, size and price of the order from the command line into *r.
 * CLI_OK, or a usage message and CLI_USAGE. */
static int parse_size(struct cli_ctx *ctx, const struct cli_args *a, struct api_order_req *r)
{
	const char *v;
	long long n;
	int rc;

	if (strcmp(a->pos[0], "buy") == 0)
		r->side = API_BUY;
	else if (strcmp(a->pos[0], "sell") == 0)
		r->side = API_SELL;
	else
		return cli_usage(ctx, _("order: \"%s\" is not a side; accepted: buy, sell"), a->pos[0]);
	if ((rc = cli_check_gpu(ctx, "order", a->pos[1], &r->gpu)) != CLI_OK)
		return rc;
	if ((v = cli_arg(a, cli_order_opts, "--gpus")) == NULL)
		return cli_usage(ctx, _("order: --gpus N is required (1 to %d)"), MAX_GPUS);
	if ((rc = cli_parse_int(ctx, "--gpus", v, 1, MAX_GPUS, &n)) != CLI_OK)
		return rc;
	r->gpus = (int)n;
	if ((v = cli_arg(a, cli_order_opts, "--hours")) == NULL)
		return cli_usage(ctx, _("order: --hours H is required (1 to %d)"), MAX_HOURS);
	if ((rc = cli_parse_int(ctx, "--hours", v, 1, MAX_HOURS, &n)) != CLI_OK)
		return rc;
	r->hours = (int)n;
	return CLI_OK;
}

/* The type, price and time in force of the order into *r. */
static int parse_price_tif(struct cli_ctx *ctx, const struct cli_args *a, struct api_order_req *r)
{
	const char *lim = cli_arg(a, cli_order_opts, "--limit");
	const char *maxp = cli_arg(a, cli_order_opts, "--max-price");
	const char *minp = cli_arg(a, cli_order_opts, "--min-price");
	const char *tif = cli_arg(a, cli_order_opts, "--tif");
	bool market = cli_arg(a, cli_order_opts, "--market") != NULL;

	if ((lim != NULL) == market)
		return cli_usage(ctx, "%s", _("order: give either --limit PRICE or --market (with "
					      "--max-price to buy, --min-price to sell)"));
	if (lim != NULL) {
		if (maxp != NULL || minp != NULL)
			return cli_usage(ctx, "%s", _("order: --max-price and --min-price go with "
						      "--market; a limit order has its price in --limit"));
		r->type = API_LIMIT;
		if (cli_parse_price(ctx, "--limit", lim, &r->price_cents) != CLI_OK)
			return CLI_USAGE;
	} else {
		r->type = API_MARKET;
		if (r->side == API_BUY && (maxp == NULL || minp != NULL))
			return cli_usage(ctx, "%s", _("order: a market buy needs --max-price PRICE, the "
						      "most to pay per GPU-hour (it sizes the hold)"));
		if (r->side == API_SELL && (minp == NULL || maxp != NULL))
			return cli_usage(ctx, "%s", _("order: a market sell needs --min-price PRICE, the "
						      "least to accept per GPU-hour"));
		if (cli_parse_price(ctx, maxp != NULL ? "--max-price" : "--min-price",
				    maxp != NULL ? maxp : minp, &r->price_cents) != CLI_OK)
			return CLI_USAGE;
	}
	if (tif == NULL)
		return CLI_OK;
	if (api_tif_parse(tif, &r->tif) != 0)
		return cli_usage(ctx, _("--tif: \"%s\" is not a time in force; accepted: gtc, ioc, fok"),
				 tif);
	if (r->type == API_MARKET && r->tif == API_GTC)
		return cli_usage(ctx, "%s", _("--tif: a market order cannot rest on the book; "
					      "accepted: ioc, fok"));
	return CLI_OK;
}

/* A trigger, a one-cancels-other group, standing: into *r. */
static int parse_cond(struct cli_ctx *ctx, const struct cli_args *a, struct api_order_req *r)
{
	static const char *const triggers[] = {
		"--if-ask-below", "--if-ask-above", "--if-bid-below", "--if-bid-above",
		"--if-last-below", "--if-last-above",
	};
	const char *which = NULL;

	for (size_t i = 0; i < sizeof triggers / sizeof triggers[0]; i++) {
		const char *v = cli_arg(a, cli_order_opts, triggers[i]);
		if (v == NULL)
			continue;
		if (which != NULL)
			return cli_usage(ctx, _("order: one trigger at most (%s and %s)"), which,
					 triggers[i]);
		which = triggers[i];
		r->has_trigger = true;
		r->trigger_when = (enum api_when)i;
		if (cli_parse_price(ctx, which, v, &r->trigger_price_cents) != CLI_OK)
			return CLI_USAGE;
	}
	r->oco_group = cli_arg(a, cli_order_opts, "--oco");
	r->standing = cli_arg(a, cli_order_opts, "--standing") != NULL;
	if (r->standing && (r->side != API_BUY || r->type != API_LIMIT ||
			    (r->tif != API_TIF_DEFAULT && r->tif != API_GTC)))
		return cli_usage(ctx, "%s", _("order: --standing is a limit buy (--limit PRICE, the most "
					      "it pays), good till cancelled"));
	if (r->standing && (r->has_trigger || r->oco_group != NULL))
		return cli_usage(ctx, "%s", _("order: --standing takes no trigger and no --oco"));
	return CLI_OK;
}

/* A point in time in the user's language and time zone, in words:
 * "1 September 2027 at 10:00 WEST"; malloc'ed. */
static char *long_date(int64_t t)
{
	static const char *const months[12] = {
		N_("January"), N_("February"), N_("March"), N_("April"), N_("May"), N_("June"),
		N_("July"), N_("August"), N_("September"), N_("October"), N_("November"),
		N_("December"),
	};
	time_t tt = (time_t)t;
	struct tm tm;
	char hm[16], zone[16];

	if (localtime_r(&tt, &tm) == NULL)
		return xstrdup("?");
	strftime(hm, sizeof hm, "%H:%M", &tm);
	strftime(zone, sizeof zone, "%Z", &tm);
	/* TRANSLATORS: a date and time: day, month name, year, hours:minutes and
	 * time zone, e.g. "1 September 2027 at 10:00 WEST"; reorder with %1$d... */
	return xasprintf(_("%1$d %2$s %3$d at %4$s %5$s"), tm.tm_mday, _(months[tm.tm_mon]),
			 tm.tm_year + 1900, hm, zone);
}

/* An order refused because the market has not opened: when it opens, in
 * words. NULL when no opening time is known (the caller's words then). */
static char *not_open_text(const char *code, int64_t opens_at)
{
	char *d, *s;

	if (code == NULL || strcmp(code, "MARKET_NOT_OPEN") != 0 || opens_at < 0)
		return NULL;
	d = long_date(opens_at);
	s = xasprintf(_("The market is not open yet: trading opens on %s. No order can be placed "
			"before then; previews, top-ups and cancels work now."), d);
	free(d);
	return s;
}

/* The announced opening of the market, or -1. */
static int64_t market_opens_at(struct api_client *c)
{
	struct api_market *m = NULL;
	struct api_error *e = NULL;
	int64_t t = -1;

	if (api_market(c, &m, &e) == 0)
		t = m->opens_at;
	api_market_free(&m);
	api_error_free(&e);
	return t;
}

/* The preview said the exchange would refuse the order: say why. */
static int fail_preview(struct cli_ctx *ctx, struct api_client *c, const struct api_preview *pv)
{
	struct view_order_ctx x = {.currency = pv->currency, .required_minor = pv->hold_minor,
				   .available_minor = pv->balance_available_minor, .opens_at = -1};
	char *w;
	int rc;

	if (strcmp(pv->reject_code, "MARKET_NOT_OPEN") == 0)
		x.opens_at = market_opens_at(c);
	w = not_open_text(pv->reject_code, x.opens_at);
	if (w == NULL)
		w = view_refusal_text(ctx->lang, pv->reject_code, pv->reject_message, &x);
	rc = cli_fail(ctx, "%s [%s]", w, pv->reject_code);
	free(w);
	return rc;
}

/* The exchange did not place it (e): why, in words, and how to check an
 * outcome that is not known. */
static int fail_place(struct cli_ctx *ctx, const struct api_error *e, const char *coid)
{
	struct view_order_ctx x = {.currency = e->currency, .required_minor = e->required_minor,
				   .available_minor = e->available_minor, .opens_at = e->opens_at};
	char *w = not_open_text(e->code, e->opens_at);
	int rc;

	if (w == NULL)
		w = view_api_error_words(ctx->lang, e, &x);
	rc = e->code != NULL ? cli_fail(ctx, "%s [%s]", w, e->code) : cli_fail(ctx, "%s", w);
	free(w);
	if (e->kind == API_ERR_UNKNOWN_OUTCOME || e->kind == API_ERR_PROTOCOL) {
		char *t = api_error_text(e);
		cli_note(ctx, "%s", t);
		free(t);
	}
	if (e->kind == API_ERR_UNKNOWN_OUTCOME)
		cli_note(ctx, _("to check: gpux orders --format csv | grep %s"), coid);
	return rc;
}

/* Place the previewed order r (with its intent's client order id: api/
 * re-sends that one on every retry) and print what became of it. */
static int place(struct cli_ctx *ctx, struct api_client *c, const struct api_order_req *r)
{
	struct api_order *o = NULL;
	struct api_error *e = NULL;
	int rc;

	if (api_order_place(c, r, &o, &e) != 0) {
		if ((rc = cli_fail_region(ctx, c, e)) == CLI_OK)
			rc = fail_place(ctx, e, r->client_order_id);
	} else {
		if (ctx->format == CLI_FORMAT_TABLE)
			cli_say(ctx, "%s", "");
		cli_print_order_result(ctx, o);
		/* nothing traded and nothing resting: say so in the exit status too */
		rc = (o->status == API_ORDER_EXPIRED && o->filled_gpus == 0) ? CLI_FAILED : CLI_OK;
	}
	api_order_free(&o);
	api_error_free(&e);
	return rc;
}

int cli_cmd_order(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c = NULL;
	struct api_preview *pv = NULL;
	struct api_error *e = NULL;
	struct api_order_req r = {.tif = API_TIF_DEFAULT};
	struct cli_regions regions = {0};
	char *coid = NULL;
	bool dry, yes;
	int rc;

	if ((rc = cli_args_parse(ctx, "order", cli_order_opts, argc, argv, 2, &a)) != CLI_OK)
		return rc;
	if (a.n_pos != 2) {
		rc = cli_usage(ctx, _("order: buy or sell what? e.g. gpux order buy h200 --gpus 8 "
				      "--hours 24 --market --max-price 5"));
		goto out;
	}
	if ((rc = parse_size(ctx, &a, &r)) != CLI_OK || (rc = parse_price_tif(ctx, &a, &r)) != CLI_OK ||
	    (rc = cli_lot_parse(ctx, &a, cli_order_opts, &r, &regions)) != CLI_OK ||
	    (rc = parse_cond(ctx, &a, &r)) != CLI_OK ||
	    (rc = cli_place_opts(ctx, &a, _("order: not on a terminal, so nobody can confirm: pass "
					    "--yes to place it, or --dry-run to see the preview"),
				 &dry, &yes)) != CLI_OK)
		goto out;
	if ((c = cli_open_client(ctx, 0, 0, false, NULL)) == NULL) {
		rc = CLI_FAILED;
		goto out;
	}
	if (api_order_preview(c, &r, &pv, &e) != 0) {
		if ((rc = cli_fail_region(ctx, c, e)) == CLI_OK)
			rc = cli_fail_api(ctx, e);
		goto out;
	}
	if (dry || !yes || ctx->format == CLI_FORMAT_TABLE)
		print_preview(ctx, &r, pv);
	if (pv->reject_code != NULL) {
		rc = fail_preview(ctx, c, pv);
	} else if (cli_place_confirmed(ctx, dry, yes, _("Place this order? [y/N]"), &rc)) {
		/* one client order id for this intent: every retry re-sends it */
		r.client_order_id = coid = api_client_order_id_new();
		rc = place(ctx, c, &r);
	}
out:
	free(coid);
	api_preview_free(&pv);
	api_error_free(&e);
	api_client_free(&c);
	cli_args_free(&a);
	cli_regions_free(&regions);
	return rc;
}
