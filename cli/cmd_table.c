/*
 * `gpux table WORKLOAD [--sort COLUMN[:desc]] [--filter TEXT]`: one
 * workload's GPU table, as the TUI's tab shows it, built by view/ and printed
 * through a sheet (aligned and localized, or raw csv/json with the column
 * ids of data/workloads.json). Prices come from ctx->get_prices when the
 * exchange client provides it; until then the price column is empty.
 */
#include "cli/cli_int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/catalog.h"
#include "i18n/i18n.h"
#include "util/util.h"

int cli_cmd_table(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	const struct catalog_workload *w;
	struct view_prices prices;
	struct view_table *t;
	struct cli_sheet *s;
	const char *filter;
	int rc;
	size_t i;

	rc = cli_args_parse(ctx, "table", cli_table_opts, argc, argv, 1, &a);
	if (rc != CLI_OK)
		return rc;
	if (a.n_pos == 0) {
		char *ids = cli_workload_ids(ctx->catalog);
		rc = cli_usage(ctx, _("table: which workload? accepted: %s"), ids);
		free(ids);
		cli_args_free(&a);
		return rc;
	}
	if ((rc = cli_check_workload(ctx, "table", a.pos[0], &w)) != CLI_OK) {
		cli_args_free(&a);
		return rc;
	}

	cli_load_prices(ctx, &prices);
	t = view_new(ctx->catalog, w, &prices, NULL, ctx->lang, ctx->ascii);
	cli_prices_free(&prices);
	rc = cli_apply_sort(ctx, "table", t, cli_arg(&a, cli_table_opts, "--sort"), false);
	filter = cli_arg(&a, cli_table_opts, "--filter");
	if (rc == CLI_OK) {
		view_filter(t, filter);
		s = cli_sheet_new();
		cli_sheet_view_columns(s, t, CLI_ALL_KINDS);
		cli_sheet_view_unit_columns(s, t, CLI_ALL_KINDS);
		for (i = 0; i < t->n_shown; i++) {
			cli_sheet_row(s);
			cli_sheet_view_cells(s, t, view_shown_row(t, i), CLI_ALL_KINDS);
			cli_sheet_view_unit_cells(s, t, view_shown_row(t, i), CLI_ALL_KINDS);
		}
		cli_sheet_price_notes(ctx, s, false);
		cli_sheet_filter_note(s, t, filter);
		if (cli_sheet_print(ctx, s) != 0)
			rc = cli_fail(ctx, _("could not write the output"));
		cli_sheet_free(&s);
	}
	view_free(&t);
	cli_args_free(&a);
	return rc;
}
