/*
 * From a view table to a sheet: the bridge between view/ (cells with raw
 * values and display texts) and the output writers (cli/sheet.c), plus the
 * two things every table command does the same way: --sort parsing and
 * asking the exchange for prices.
 */
#include "cli/cli_int.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/catalog.h"
#include "i18n/i18n.h"
#include "util/util.h"

static char *column_ids(const struct view_table *t, bool cheapest)
{
	struct buf b = {0};
	size_t k;

	for (k = 0; k < t->n_columns; k++)
		buf_printf(&b, "%s%s", k > 0 ? ", " : "", t->columns[k].id);
	if (cheapest)
		buf_puts(&b, ", cheapest");
	return buf_take(&b);
}

int cli_apply_sort(struct cli_ctx *ctx, const char *cmd, struct view_table *t, const char *spec,
		   bool allow_cheapest)
{
	const char *colon;
	char *name;
	bool desc = false;
	int col;

	if (spec == NULL)
		return CLI_OK;
	colon = strchr(spec, ':');
	name = colon != NULL ? xstrndup(spec, (size_t)(colon - spec)) : xstrdup(spec);
	if (colon != NULL) {
		if (strcasecmp(colon + 1, "desc") == 0) {
			desc = true;
		} else if (strcasecmp(colon + 1, "asc") != 0) {
			free(name);
			return cli_usage(ctx, _("%s: unknown sort direction \"%s\" in --sort %s; accepted: COLUMN, COLUMN:asc, COLUMN:desc"),
					 cmd, colon + 1, spec);
		}
	}
	if (allow_cheapest && strcasecmp(name, "cheapest") == 0) {
		free(name);
		if (desc)
			return cli_usage(ctx, _("%s: --sort cheapest has no direction; write --sort cheapest"), cmd);
		view_sort_cheapest(t);
		return CLI_OK;
	}
	col = view_column_index(t, name);
	if (col < 0) {
		char *ids = column_ids(t, allow_cheapest);
		int rc = cli_usage(ctx, _("%s: unknown column \"%s\" in --sort; accepted: %s (add :desc to reverse)"),
				   cmd, name, ids);
		free(ids);
		free(name);
		return rc;
	}
	free(name);
	view_sort(t, col, desc);
	return CLI_OK;
}

void cli_prices_free(struct view_prices *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->n; i++) {
		free((char *)p->items[i].gpu_id);
		free((void *)p->items[i].supply.ladder);
	}
	free((void *)p->items);
	memset(p, 0, sizeof *p);
}

void cli_load_prices(struct cli_ctx *ctx, struct view_prices *p)
{
	char *cause = NULL;

	memset(p, 0, sizeof *p);
	if (ctx->get_prices == NULL)
		return; /* no exchange client yet: the price column stays empty */
	if (ctx->get_prices(ctx, p, &cause) != 0) {
		/* a warning, not a failure: the table is still worth printing */
		char *safe = util_sanitize(cause != NULL ? cause : "?", 4096, false);
		fprintf(ctx->err, "gpux: %s: %s\n", _("no live prices"), safe);
		free(safe);
		free(cause);
		memset(p, 0, sizeof *p);
	}
	ctx->prices_live = p->n > 0;
}

void cli_sheet_price_notes(const struct cli_ctx *ctx, struct cli_sheet *s, bool costs)
{
	if (!ctx->prices_live)
		return;
	cli_sheet_note(s, costs ? _("Prices per GPU-hour and costs, before tax.")
				: _("Prices per GPU-hour, before tax."));
	if (ctx->prices_demo)
		cli_sheet_note(s, _("Local demo exchange: simulated money."));
}

void cli_sheet_filter_note(struct cli_sheet *s, const struct view_table *t, const char *filter)
{
	char *n;

	if (filter == NULL || filter[0] == '\0')
		return;
	n = view_count_text(t);
	cli_sheet_note(s, n);
	free(n);
}

static enum cli_align align_of(const struct view_column *c)
{
	return c->align == VIEW_LEFT ? CLI_LEFT : CLI_RIGHT;
}

static void view_column(struct cli_sheet *s, const struct view_column *c)
{
	if (c->kind == VIEW_COL_GPU) {
		cli_sheet_column_for(s, c->id, c->label, CLI_LEFT, CLI_SHOW_TABLE);
		cli_sheet_column_for(s, c->id, c->label, CLI_LEFT, CLI_SHOW_DATA);
		cli_sheet_column_for(s, "name", "name", CLI_LEFT, CLI_SHOW_DATA);
		cli_sheet_column_for(s, "arch", "arch", CLI_LEFT, CLI_SHOW_DATA);
		return;
	}
	cli_sheet_column(s, c->id, c->label, align_of(c));
}

static void view_cell(struct cli_sheet *s, const struct view_column *col, const struct view_row *r,
		      const struct view_cell *c)
{
	if (col->kind == VIEW_COL_GPU) {
		char *shown = c->detail != NULL ? xasprintf("%s (%s)", c->display, c->detail)
						: xstrdup(c->display);
		cli_sheet_text(s, shown, NULL);
		cli_sheet_text(s, r->gpu->id, r->gpu->id);
		cli_sheet_text(s, r->gpu->name, r->gpu->name);
		cli_sheet_text(s, r->gpu->arch, r->gpu->arch);
		free(shown);
		return;
	}
	switch (c->raw) {
	case VIEW_RAW_NONE:
		cli_sheet_null(s, c->display);
		break;
	case VIEW_RAW_NUMBER:
		cli_sheet_number(s, c->display, c->number);
		break;
	case VIEW_RAW_CENTS:
		cli_sheet_int(s, c->display, c->cents);
		break;
	case VIEW_RAW_TEXT:
		cli_sheet_text(s, c->display, c->text != NULL ? c->text : c->display);
		break;
	case VIEW_RAW_BOOL:
		cli_sheet_bool(s, c->display, c->flag);
		break;
	}
}

void cli_sheet_view_columns(struct cli_sheet *s, const struct view_table *t, unsigned kinds)
{
	for (size_t k = 0; k < t->n_columns; k++)
		if (kinds & CLI_KIND(t->columns[k].kind))
			view_column(s, &t->columns[k]);
}

void cli_sheet_view_cells(struct cli_sheet *s, const struct view_table *t,
			  const struct view_row *r, unsigned kinds)
{
	for (size_t k = 0; k < t->n_columns; k++)
		if (kinds & CLI_KIND(t->columns[k].kind))
			view_cell(s, &t->columns[k], r, &r->cells[k]);
}

void cli_sheet_view_list(struct cli_sheet *s, const struct view_table *t, const size_t *cols,
			 size_t n, const struct view_row *r)
{
	for (size_t i = 0; i < n; i++) {
		if (r == NULL)
			view_column(s, &t->columns[cols[i]]);
		else
			view_cell(s, &t->columns[cols[i]], r, &r->cells[cols[i]]);
	}
}

int cli_view_column_list(struct cli_ctx *ctx, const char *cmd, const struct view_table *t,
			 const char *spec, bool skip_unknown, size_t **cols, size_t *n)
{
	char *copy = xstrdup(spec), *save = NULL;

	*cols = xcalloc(t->n_columns + 1, sizeof **cols);
	*n = 0;
	for (size_t k = 0; k < t->n_columns; k++)
		if (t->columns[k].kind == VIEW_COL_GPU)
			(*cols)[(*n)++] = k; /* the GPU first, always */
	for (char *tok = strtok_r(copy, ", ", &save); tok != NULL; tok = strtok_r(NULL, ", ", &save)) {
		int k = view_column_index(t, tok);
		bool dup = false;
		if (k < 0 && skip_unknown)
			continue;
		if (k < 0) {
			char *ids = column_ids(t, false);
			int rc = cli_usage(ctx, _("%s: this table has no column \"%s\"; its columns: %s"),
					   cmd, tok, ids);
			free(ids);
			free(copy);
			free(*cols);
			*cols = NULL;
			return rc;
		}
		for (size_t i = 0; i < *n; i++)
			dup |= (*cols)[i] == (size_t)k;
		if (!dup)
			(*cols)[(*n)++] = (size_t)k;
	}
	free(copy);
	return CLI_OK;
}

/* A unit column's cell: the raw value alone (csv/json only). */
static void unit_cell(struct cli_sheet *s, const struct view_cell *c)
{
	switch (c->raw) {
	case VIEW_RAW_NUMBER: cli_sheet_number(s, NULL, c->number); break;
	case VIEW_RAW_CENTS: cli_sheet_int(s, NULL, c->cents); break;
	case VIEW_RAW_BOOL: cli_sheet_bool(s, NULL, c->flag); break;
	case VIEW_RAW_TEXT: cli_sheet_text(s, NULL, c->text != NULL ? c->text : c->display); break;
	case VIEW_RAW_NONE: cli_sheet_null(s, NULL); break;
	}
}

/* Column k of t again under its name with a unit, or its cell of row r
 * (r NULL: the column); nothing when its name needs none. */
static void unit_column(struct cli_sheet *s, const struct view_table *t, size_t k,
			const struct view_row *r)
{
	const struct view_column *c = &t->columns[k];
	const char *n = view_unit_id(c->id);

	if (n == NULL)
		return;
	if (r == NULL)
		cli_sheet_column_for(s, n, n, align_of(c), CLI_SHOW_DATA);
	else
		unit_cell(s, &r->cells[k]);
}

void cli_sheet_view_unit_columns(struct cli_sheet *s, const struct view_table *t, unsigned kinds)
{
	for (size_t k = 0; k < t->n_columns; k++)
		if ((kinds & CLI_KIND(t->columns[k].kind)) != 0)
			unit_column(s, t, k, NULL);
}

void cli_sheet_view_unit_cells(struct cli_sheet *s, const struct view_table *t,
			       const struct view_row *r, unsigned kinds)
{
	for (size_t k = 0; k < t->n_columns; k++)
		if ((kinds & CLI_KIND(t->columns[k].kind)) != 0)
			unit_column(s, t, k, r);
}

void cli_sheet_view_unit_list(struct cli_sheet *s, const struct view_table *t, const size_t *cols,
			      size_t n, const struct view_row *r)
{
	for (size_t i = 0; i < n; i++)
		unit_column(s, t, cols[i], r);
}

int cli_check_workload(struct cli_ctx *ctx, const char *cmd, const char *id,
		       const struct catalog_workload **out)
{
	const struct catalog *c = ctx->catalog;
	char *ids;
	int rc;

	for (size_t i = 0; i < c->n_workloads; i++) {
		if (strcasecmp(c->workloads[i].id, id) == 0) {
			*out = &c->workloads[i];
			return CLI_OK;
		}
	}
	ids = cli_workload_ids(c);
	rc = cli_usage(ctx, _("%s: unknown workload \"%s\"; accepted: %s"), cmd, id, ids);
	free(ids);
	return rc;
}

/* The ids of n catalogue entries of `size` bytes from first, each entry's id
 * the string at offset id_at, comma-separated (malloc'ed). */
static char *join_ids(const void *first, size_t n, size_t size, size_t id_at)
{
	struct buf b = {0};

	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s%s", i > 0 ? ", " : "",
			   *(char *const *)((const char *)first + i * size + id_at));
	return buf_take(&b);
}

char *cli_workload_ids(const struct catalog *c)
{
	return join_ids(c->workloads, c->n_workloads, sizeof *c->workloads,
			offsetof(struct catalog_workload, id));
}

char *cli_model_ids(const struct catalog *c)
{
	return join_ids(c->models, c->n_models, sizeof *c->models, offsetof(struct catalog_model, id));
}
