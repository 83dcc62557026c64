/*
 * A table as data: the current rows (sort and filter as they are) and the
 * columns asked for, in CSV (RFC 4180: a header of column ids, raw values,
 * empty for none) or JSON (an array of objects keyed by column id, raw
 * values, null for none) — exactly what `gpux table --format csv|json`
 * prints for the same columns (the GPU column is three: gpu (its id),
 * name, arch; a column whose id says no unit given again at the end under
 * one that does, view_unit_id), never depending on the language. Money
 * stays in integer cents. The TUI's export writes this (tui/market/browse.c). Pure.
 */
#include "view/view.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

char *view_raw_number(double v)
{
	if (!isfinite(v))
		return xstrdup("");
	if (v == 0)
		return xstrdup("0"); /* also for -0 */
	/* 15 significant digits: exact for every figure of the catalogue and
	 * for integers below 10^15, without float noise such as 47.329953533600005 */
	return xasprintf("%.15g", v);
}

char *view_json_string(const char *s)
{
	struct buf b = {0};

	buf_putc(&b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
		switch (*p) {
		case '"': buf_puts(&b, "\\\""); break;
		case '\\': buf_puts(&b, "\\\\"); break;
		case '\n': buf_puts(&b, "\\n"); break;
		case '\r': buf_puts(&b, "\\r"); break;
		case '\t': buf_puts(&b, "\\t"); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				buf_printf(&b, "\\u%04x", *p);
			else
				buf_putc(&b, (char)*p);
		}
	}
	buf_putc(&b, '"');
	return buf_take(&b);
}

char *view_csv_field(const char *s)
{
	struct buf b = {0};

	if (strpbrk(s, ",\"\r\n") == NULL && s[0] != ' ' && (s[0] == '\0' || s[strlen(s) - 1] != ' '))
		return xstrdup(s);
	buf_putc(&b, '"');
	for (const char *p = s; *p != '\0'; p++) {
		if (*p == '"')
			buf_putc(&b, '"');
		buf_putc(&b, *p);
	}
	buf_putc(&b, '"');
	return buf_take(&b);
}

/* The columns whose csv/json names said no unit: kept one release under the
 * old name, and given again under the new one (docs/gpux.1, "deprecated"). */
static const struct { const char *old, *renamed; } unit_names[] = {
	{"price", "price_cents"}, {"memory", "memory_gb"}, {"job_cost", "job_cost_cents"},
};

const char *view_unit_id(const char *id)
{
	for (size_t i = 0; i < sizeof unit_names / sizeof unit_names[0]; i++)
		if (strcmp(id, unit_names[i].old) == 0)
			return unit_names[i].renamed;
	return NULL;
}

/* A field of the output: its id and the raw value of row r. */
static void field(struct buf *b, bool json, bool first, const char *id, char *value)
{
	if (json) {
		char *k = view_json_string(id);
		buf_printf(b, "%s%s: %s", first ? "" : ", ", k, value);
		free(k);
	} else {
		buf_printf(b, "%s%s", first ? "" : ",", value);
	}
	free(value);
}

static char *text_value(const char *s, bool json)
{
	return json ? view_json_string(s != NULL ? s : "") : view_csv_field(s != NULL ? s : "");
}

static char *raw_value(const struct view_cell *c, bool json)
{
	switch (c->raw) {
	case VIEW_RAW_NUMBER: return view_raw_number(c->number);
	case VIEW_RAW_CENTS: return xasprintf("%" PRId64, c->cents);
	case VIEW_RAW_BOOL: return xstrdup(c->flag ? "true" : "false");
	case VIEW_RAW_TEXT: return text_value(c->text != NULL ? c->text : c->display, json);
	default: return xstrdup(json ? "null" : "");
	}
}

static void row_fields(const struct view_table *t, const struct view_row *r, const size_t *cols,
		       size_t n, bool json, struct buf *b)
{
	bool first = true;

	for (size_t i = 0; i < n; i++) {
		const struct view_column *c = &t->columns[cols[i]];
		if (c->kind == VIEW_COL_GPU) {
			field(b, json, first, c->id, text_value(r->gpu->id, json));
			field(b, json, false, "name", text_value(r->gpu->name, json));
			field(b, json, false, "arch", text_value(r->gpu->arch, json));
		} else {
			field(b, json, first, c->id, raw_value(&r->cells[cols[i]], json));
		}
		first = false;
	}
	for (size_t i = 0; i < n; i++) {
		const char *id = view_unit_id(t->columns[cols[i]].id);
		if (id != NULL)
			field(b, json, first, id, raw_value(&r->cells[cols[i]], json));
		first = false;
	}
}

void view_export(const struct view_table *t, const size_t *cols, size_t n,
		 enum view_export_format fmt, struct buf *out)
{
	bool json = fmt == VIEW_EXPORT_JSON;

	if (!json) {
		for (size_t i = 0; i < n; i++) {
			const struct view_column *c = &t->columns[cols[i]];
			char *f = view_csv_field(c->id);
			buf_printf(out, "%s%s", i > 0 ? "," : "", f);
			free(f);
			if (c->kind == VIEW_COL_GPU)
				buf_puts(out, ",name,arch");
		}
		for (size_t i = 0; i < n; i++) {
			const char *id = view_unit_id(t->columns[cols[i]].id);
			if (id != NULL)
				buf_printf(out, "%s%s", n > 0 ? "," : "", id);
		}
		buf_putc(out, '\n');
		for (size_t r = 0; r < t->n_shown; r++) {
			row_fields(t, view_shown_row(t, r), cols, n, false, out);
			buf_putc(out, '\n');
		}
		return;
	}
	buf_puts(out, "[");
	for (size_t r = 0; r < t->n_shown; r++) {
		buf_puts(out, r > 0 ? ",\n  {" : "\n  {");
		row_fields(t, view_shown_row(t, r), cols, n, true, out);
		buf_puts(out, "}");
	}
	buf_puts(out, t->n_shown > 0 ? "\n]\n" : "]\n");
}
