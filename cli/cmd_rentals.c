/*
 * `gpux rentals` (every page of the listing) and `gpux stop RENTAL`.
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
		cli_cell_id(s, r->id);
		cli_sheet_text(s, cli_gpu_name(ctx, r->gpu), r->gpu);
		cli_sheet_text(s, r->seller ? _("seller") : _("buyer"),
			       r->seller ? "seller" : "buyer");
		cli_cell_int(s, ctx, r->gpus);
		cli_cell_int(s, ctx, r->hours);
		cli_cell_usd(s, ctx, r->price_cents);
		cli_sheet_text(s, rental_status_text(r->status),
			       api_rental_status_name(r->status));
		cli_cell_int(s, ctx, r->hours_billed);
		cli_cell_money(s, ctx, r->hourly_minor, r->currency);
		cli_cell_money(s, ctx, r->billed_minor, r->currency);
		cli_cell_money(s, ctx, r->refunded_minor, r->currency);
		cli_sheet_text(s, NULL, r->currency);
		cli_cell_id(s, r->order_id);
		cli_cell_time(s, ctx, r->started_at);
		cli_cell_time(s, ctx, r->stopped_at >= 0 ? r->stopped_at : r->ends_at);
		cli_rental_lot_cells(s, ctx, r);
	}
	*next = l->next_cursor != NULL ? xstrdup(l->next_cursor) : NULL;
	api_rentals_free(&l);
	return 0;
}

/* What an empty listing says, for its status filter and GPU (or NULL);
 * malloc'ed. */
static char *no_rentals_text(const char *status, const char *gpu)
{
	char *text;

	if (strcmp(status, "active") == 0)
		text = gpu != NULL ? xasprintf(_("You have no active rentals of %s."), gpu)
				   : xstrdup(_("You have no active rentals."));
	else if (strcmp(status, "ended") == 0)
		text = gpu != NULL ? xasprintf(_("You have no ended rentals of %s."), gpu)
				   : xstrdup(_("You have no ended rentals."));
	else
		text = gpu != NULL ? xasprintf(_("You have no rentals of %s yet."), gpu)
				   : xstrdup(_("You have no rentals yet."));
	return text;
}

/* The columns of rentals_page's cells, then the lot's. */
static const struct cli_column rental_columns[] = {
	{"id", N_("Rental"), CLI_RIGHT, CLI_SHOW_ALL},
	{"gpu", N_("GPU"), CLI_LEFT, CLI_SHOW_ALL},
	{"role", N_("Role"), CLI_LEFT, CLI_SHOW_ALL},
	{"gpus", N_("GPUs"), CLI_RIGHT, CLI_SHOW_ALL},
	{"hours", N_("Hours"), CLI_RIGHT, CLI_SHOW_ALL},
	{"price_cents", N_("Price/h"), CLI_RIGHT, CLI_SHOW_ALL},
	{"status", N_("Status"), CLI_LEFT, CLI_SHOW_ALL},
	{"hours_billed", N_("Billed h"), CLI_RIGHT, CLI_SHOW_ALL},
	{"hourly_minor", N_("Per hour"), CLI_RIGHT, CLI_SHOW_ALL},
	{"billed_minor", N_("Billed"), CLI_RIGHT, CLI_SHOW_ALL},
	{"refunded_minor", N_("Refunded"), CLI_RIGHT, CLI_SHOW_ALL},
	{"currency", NULL, CLI_LEFT, CLI_SHOW_DATA},
	{"order_id", NULL, CLI_RIGHT, CLI_SHOW_DATA},
	{"started_at", N_("Started"), CLI_LEFT, CLI_SHOW_ALL},
	{"ends_at", N_("Ends"), CLI_LEFT, CLI_SHOW_ALL},
	{NULL},
};

static void rentals_columns(struct cli_sheet *s)
{
	cli_sheet_columns(s, rental_columns);
	cli_lot_columns(s, false);
}

static const struct cli_list_status rental_statuses[] = {
	{"active", "active", false},
	{"ended", "ended", false},
	{"all", "all", false},
	{NULL, NULL, false},
};

static const struct cli_listing rentals_listing = {
	.cmd = "rentals", .opts = cli_rentals_opts, .statuses = rental_statuses,
	.columns = rentals_columns, .page = rentals_page,
	.more = N_("More rentals exist than are shown here."), .none = no_rentals_text,
};

int cli_cmd_rentals(struct cli_ctx *ctx, int argc, char **argv)
{
	return cli_list_command(ctx, &rentals_listing, argc, argv);
}

int cli_cmd_stop(struct cli_ctx *ctx, int argc, char **argv)
{
	struct api_client *c = NULL;
	struct api_rental *r = NULL;
	struct api_error *e = NULL;
	int64_t id;
	int rc;

	if ((rc = cli_id_command(ctx, "stop", cli_stop_opts, argc, argv,
			     N_("stop: which rental? e.g. gpux stop 9 (ids: gpux rentals)"), &id,
			     &c)) != CLI_OK)
		goto out;
	if (api_rental_stop(c, id, &r, &e) != 0) {
		rc = cli_fail_id(ctx, e, id, true);
		goto out;
	}
	if (ctx->format == CLI_FORMAT_TABLE) {
		char *b = cli_fmt_money(ctx, r->billed_minor, r->currency);
		char *f = cli_fmt_money(ctx, r->refunded_minor, r->currency);
		cli_say(ctx, P_("Stopped rental %lld: %lld of %lld hour billed (%s), %s refunded.",
				"Stopped rental %lld: %lld of %lld hours billed (%s), %s refunded.",
				(unsigned long)r->hours),
			(long long)r->id, (long long)r->hours_billed, (long long)r->hours, b, f);
		free(b);
		free(f);
	} else {
		struct cli_record *rec = cli_record_new();
		cli_record_int(rec, "id", r->id);
		cli_record_text(rec, "status", api_rental_status_name(r->status));
		cli_record_int(rec, "hours", r->hours);
		cli_record_int(rec, "hours_billed", r->hours_billed);
		cli_record_int(rec, "billed_minor", r->billed_minor);
		cli_record_int(rec, "refunded_minor", r->refunded_minor);
		cli_record_text(rec, "currency", r->currency);
		cli_record_print(ctx, &rec);
	}
	rc = CLI_OK;
out:
	api_rental_free(&r);
	api_error_free(&e);
	api_client_free(&c);
	return rc;
}
