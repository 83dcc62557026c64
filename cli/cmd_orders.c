/*
 * `gpux orders` (every page of the listing) and `gpux cancel ORDER`.
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
		cli_cell_id(s, o->id);
		cli_sheet_text(s, NULL, o->client_order_id);
		cli_sheet_text(s, cli_gpu_name(ctx, o->gpu), o->gpu);
		cli_sheet_text(s, cli_side_text(o->side), api_side_name(o->side));
		cli_sheet_text(s, o->type == API_LIMIT ? _("limit") : _("market"),
			       api_order_type_name(o->type));
		cli_cell_usd(s, ctx, o->price_cents);
		cli_cell_usd(s, ctx, view_order_avg_price(o));
		cli_cell_int(s, ctx, o->gpus);
		cli_cell_int(s, ctx, o->hours);
		cli_cell_int(s, ctx, o->filled_gpus);
		cli_cell_int(s, ctx, o->remaining_gpus);
		cli_sheet_text(s, cli_status_text(ctx, o->status), api_order_status_name(o->status));
		cli_sheet_text(s, api_tif_name(o->tif), api_tif_name(o->tif));
		cli_sheet_int(s, NULL, o->hold_minor);
		cli_sheet_text(s, NULL, o->currency);
		cli_cell_time(s, ctx, o->created_at);
		cli_order_lot_cells(s, ctx, o);
	}
	*next = l->next_cursor != NULL ? xstrdup(l->next_cursor) : NULL;
	api_orders_free(&l);
	return 0;
}

/* What an empty listing says, for its status filter and GPU (or NULL);
 * malloc'ed. */
static char *no_orders_text(const char *status, const char *gpu)
{
	char *text;

	if (strcmp(status, "open") == 0)
		text = gpu != NULL ? xasprintf(_("You have no open orders for %s."), gpu)
				   : xstrdup(_("You have no open orders."));
	else if (strcmp(status, "closed") == 0)
		text = gpu != NULL ? xasprintf(_("You have no finished orders for %s."), gpu)
				   : xstrdup(_("You have no finished orders."));
	else
		text = gpu != NULL ? xasprintf(_("You have no orders for %s yet."), gpu)
				   : xstrdup(_("You have no orders yet."));
	return text;
}

/* The columns of orders_page's cells, then the lot's. */
static const struct cli_column order_columns[] = {
	{"id", N_("Order"), CLI_RIGHT, CLI_SHOW_ALL},
	{"client_order_id", NULL, CLI_LEFT, CLI_SHOW_DATA},
	{"gpu", N_("GPU"), CLI_LEFT, CLI_SHOW_ALL},
	{"side", N_("Side"), CLI_LEFT, CLI_SHOW_ALL},
	{"type", N_("Type"), CLI_LEFT, CLI_SHOW_ALL},
	{"price_cents", N_("Price/h"), CLI_RIGHT, CLI_SHOW_ALL},
	/* TRANSLATORS: column of `gpux orders`: the average price the order's
	 * fills paid per GPU-hour (a market order's Price/h is only its cap) */
	{"avg_price_cents", N_("Avg fill/h"), CLI_RIGHT, CLI_SHOW_ALL},
	{"gpus", N_("GPUs"), CLI_RIGHT, CLI_SHOW_ALL},
	{"hours", N_("Hours"), CLI_RIGHT, CLI_SHOW_ALL},
	{"filled_gpus", N_("Filled"), CLI_RIGHT, CLI_SHOW_ALL},
	{"remaining_gpus", N_("Resting"), CLI_RIGHT, CLI_SHOW_ALL},
	{"status", N_("Status"), CLI_LEFT, CLI_SHOW_ALL},
	{"time_in_force", N_("TIF"), CLI_LEFT, CLI_SHOW_ALL},
	{"hold_minor", NULL, CLI_RIGHT, CLI_SHOW_DATA},
	{"currency", NULL, CLI_LEFT, CLI_SHOW_DATA},
	{"created_at", N_("Created"), CLI_LEFT, CLI_SHOW_ALL},
	{NULL},
};

static void orders_columns(struct cli_sheet *s)
{
	cli_sheet_columns(s, order_columns);
	cli_lot_columns(s, true);
}

static const struct cli_list_status order_statuses[] = {
	{"open", "open", false},
	{"done", "closed", false},
	{"closed", "closed", true},
	{"all", "all", false},
	{NULL, NULL, false},
};

static const struct cli_listing orders_listing = {
	.cmd = "orders", .opts = cli_orders_opts, .statuses = order_statuses,
	.columns = orders_columns, .page = orders_page,
	.more = N_("More orders exist than are shown here."), .none = no_orders_text,
};

int cli_cmd_orders(struct cli_ctx *ctx, int argc, char **argv)
{
	return cli_list_command(ctx, &orders_listing, argc, argv);
}

int cli_cmd_cancel(struct cli_ctx *ctx, int argc, char **argv)
{
	struct api_client *c = NULL;
	struct api_order *o = NULL;
	struct api_error *e = NULL;
	int64_t id;
	int rc;

	if ((rc = cli_id_command(ctx, "cancel", cli_cancel_opts, argc, argv,
			     N_("cancel: which order? e.g. gpux cancel 41 (ids: gpux orders)"), &id,
			     &c)) != CLI_OK)
		goto out;
	if (api_order_cancel(c, id, &o, &e) != 0) {
		rc = cli_fail_id(ctx, e, id, false);
		goto out;
	}
	if (ctx->format == CLI_FORMAT_TABLE)
		if (o->filled_gpus == 0)
			cli_say(ctx, _("Cancelled order %lld; none of it had filled."), (long long)o->id);
		else
			cli_say(ctx, P_("Cancelled order %lld; %lld of its %lld GPU had filled.",
					"Cancelled order %lld; %lld of its %lld GPUs had filled.",
					(unsigned long)o->gpus),
				(long long)o->id, (long long)o->filled_gpus, (long long)o->gpus);
	else
		cli_print_order_result(ctx, o);
	rc = CLI_OK;
out:
	api_order_free(&o);
	api_error_free(&e);
	api_client_free(&c);
	return rc;
}
