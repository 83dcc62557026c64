/*
 * `gpux quotes` (best bid and ask of every GPU) and `gpux book GPU` (one
 * GPU's order book as a ladder).
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
	if ((c = cli_open_client(ctx, 0, 0, false, NULL)) == NULL)
		return CLI_FAILED;
	if (api_quotes(c, NULL, &q, &e) != 0) {
		rc = cli_fail_api(ctx, e);
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
		     const char *cli_side_text, const struct api_level *l, bool units)
{
	cli_sheet_row(s);
	cli_sheet_text(s, cli_side_text, side);
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

int cli_cmd_book(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c = NULL;
	struct api_book *b = NULL;
	struct api_error *e = NULL;
	struct cli_sheet *s = NULL;
	const char *gpu = NULL, *v;
	struct api_book_query bq = {0};
	bool by_size = false;
	long long depth = 10;
	int rc;

	if ((rc = cli_args_parse(ctx, "book", cli_book_opts, argc, argv, 1, &a)) != CLI_OK)
		return rc;
	if (a.n_pos != 1) {
		rc = cli_usage(ctx, _("book: which GPU? e.g. gpux book h200"));
		goto out;
	}
	if ((rc = cli_check_gpu(ctx, "book", a.pos[0], &gpu)) != CLI_OK)
		goto out;
	if ((v = cli_arg(&a, cli_book_opts, "--depth")) != NULL &&
	    (rc = cli_parse_int(ctx, "--depth", v, 1, 100, &depth)) != CLI_OK)
		goto out;
	if ((rc = book_query(ctx, &a, &bq, &by_size)) != CLI_OK)
		goto out;
	bq.depth = (int)depth;
	if ((c = cli_open_client(ctx, 0, 0, false, NULL)) == NULL) {
		rc = CLI_FAILED;
		goto out;
	}
	if ((by_size ? api_book_query(c, gpu, &bq, &b, &e) : api_book(c, gpu, (int)depth, &b, &e)) != 0) {
		if ((rc = cli_fail_region(ctx, c, e)) == CLI_OK)
			rc = cli_fail_api(ctx, e);
		goto out;
	}
	if (by_size && b->node_gpus <= 0) {
		rc = cli_fail(ctx, _("book: this exchange has no ladder by node size (it sells loose GPUs "
				     "only); gpux book %s without --node-gpus shows its book"), gpu);
		goto out;
	}
	s = cli_sheet_new();
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
	rc = cli_sheet_print(ctx, s) == 0 ? CLI_OK : CLI_FAILED;
out:
	cli_sheet_free(&s);
	api_book_free(&b);
	api_error_free(&e);
	api_client_free(&c);
	cli_args_free(&a);
	return rc;
}
