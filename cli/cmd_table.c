/*
 * `gpux table WORKLOAD [--sort COLUMN[:desc]] [--filter EXPR] [--columns
 * IDS | --saved-columns]`: one workload's GPU table, as the TUI's tab shows
 * it, built by view/ and printed through a sheet (aligned and localized, or
 * raw csv/json with the column ids of data/workloads.json). The filter is
 * the TUI's expression (view_filter_set); the columns every one of the
 * workload's, those named, or those the TUI saved (`columns.WORKLOAD` of
 * the config file). Prices come from ctx->get_prices when the exchange
 * client provides it; until then the price column is empty.
 */
#include "cli/cli_int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/catalog.h"
#include "i18n/i18n.h"
#include "util/util.h"

/* The columns the TUI saved for workload w (config `columns.ID`), as a
 * --columns value (malloc'ed), or NULL for none saved. */
static char *saved_columns(const struct catalog_workload *w)
{
	char *path = api_conf_path(), *cause = NULL, *key, *v = NULL;
	struct api_conf *c = NULL;

	if (path != NULL && api_conf_load(path, &c, &cause) == 0) {
		key = xasprintf("columns.%s", w->id);
		if (api_conf_get(c, key) != NULL)
			v = xstrdup(api_conf_get(c, key));
		free(key);
	}
	api_conf_free(&c);
	free(cause);
	free(path);
	return v;
}

/* The columns to print: every one, those of --columns, or the saved ones
 * (without the TUI's market columns, which this table has not; every one
 * when none is saved, as the TUI's tab shows them by default). */
static int pick_columns(struct cli_ctx *ctx, const struct cli_args *a, const struct view_table *t,
			size_t **cols, size_t *n)
{
	const char *spec = cli_arg(a, cli_table_opts, "--columns");
	bool saved = cli_arg(a, cli_table_opts, "--saved-columns") != NULL;
	char *s = NULL;
	int rc;

	*cols = NULL;
	*n = 0;
	if (spec != NULL && saved)
		return cli_usage(ctx, _("table: --columns or --saved-columns, not both"));
	if (saved)
		s = saved_columns(t->workload);
	if (spec == NULL && s == NULL)
		return CLI_OK;
	rc = cli_view_column_list(ctx, "table", t, s != NULL ? s : spec, s != NULL, cols, n);
	free(s);
	return rc;
}

int cli_cmd_table(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	const struct catalog_workload *w;
	struct view_prices prices;
	struct view_table *t;
	struct cli_sheet *s;
	const char *filter;
	char *cause = NULL;
	size_t *cols = NULL, n_cols = 0;
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
	if (rc == CLI_OK && view_filter_set(t, filter, &cause) != 0) {
		rc = cli_usage(ctx, _("table: --filter %s"), cause);
		free(cause);
	}
	if (rc == CLI_OK)
		rc = pick_columns(ctx, &a, t, &cols, &n_cols);
	if (rc == CLI_OK) {
		s = cli_sheet_new();
		if (cols != NULL) {
			cli_sheet_view_list(s, t, cols, n_cols, NULL);
			cli_sheet_view_unit_list(s, t, cols, n_cols, NULL);
		} else {
			cli_sheet_view_columns(s, t, CLI_ALL_KINDS);
			cli_sheet_view_unit_columns(s, t, CLI_ALL_KINDS);
		}
		for (i = 0; i < t->n_shown; i++) {
			const struct view_row *r = view_shown_row(t, i);
			cli_sheet_row(s);
			if (cols != NULL) {
				cli_sheet_view_list(s, t, cols, n_cols, r);
				cli_sheet_view_unit_list(s, t, cols, n_cols, r);
			} else {
				cli_sheet_view_cells(s, t, r, CLI_ALL_KINDS);
				cli_sheet_view_unit_cells(s, t, r, CLI_ALL_KINDS);
			}
		}
		cli_sheet_price_notes(ctx, s, false);
		cli_sheet_filter_note(s, t, filter);
		if (cli_sheet_print(ctx, s) != 0)
			rc = cli_fail(ctx, _("could not write the output"));
		cli_sheet_free(&s);
	}
	free(cols);
	view_free(&t);
	cli_args_free(&a);
	return rc;
}
