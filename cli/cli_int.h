/*
 * Internal to cli/: helpers shared by the commands that print a view table
 * (`gpux table`, `gpux fit`). Not part of the public header.
 */
#ifndef GPUX_CLI_INT_H
#define GPUX_CLI_INT_H

#include "cli/cli.h"
#include "view/view.h"

/* Apply "--sort COLUMN[:asc|:desc]" to t. With allow_cheapest, COLUMN may be
 * "cheapest" (cheapest GPU-hours for the job). Unknown column or direction:
 * usage message naming the accepted ids, CLI_USAGE. NULL spec: CLI_OK. */
int cli_apply_sort(struct cli_ctx *ctx, const char *cmd, struct view_table *t, const char *spec,
		   bool allow_cheapest);

/* Ask ctx->get_prices (when set) for the best asks. *p is zeroed first and
 * stays empty when there is no price source; a failing source prints a
 * warning on ctx->err and leaves *p empty. Release with cli_prices_free. */
void cli_load_prices(struct cli_ctx *ctx, struct view_prices *p);

/* Add the columns of t whose kind is in `kinds` (a mask of 1u << enum
 * view_col_kind; CLI_ALL_KINDS for all) to a sheet. The GPU column becomes
 * a table-only "name (architecture)" column and data-only gpu (the id),
 * name and arch columns. */
#define CLI_ALL_KINDS (~0u)
#define CLI_KIND(k) (1u << (k))
void cli_sheet_view_columns(struct cli_sheet *s, const struct view_table *t, unsigned kinds);
/* Add the cells of one row of t, matching cli_sheet_view_columns. */
void cli_sheet_view_cells(struct cli_sheet *s, const struct view_table *t,
			  const struct view_row *r, unsigned kinds);

/* The comma-separated ids of a catalogue's workloads / model presets,
 * malloc'ed, for "accepted: ..." messages. */
char *cli_workload_ids(const struct catalog *c);
char *cli_model_ids(const struct catalog *c);

#endif
