/*
 * Sheets: the one output path of every command. A command fills columns (id,
 * translated label, alignment) and rows of cells; each cell keeps both what a
 * person reads (localized display text) and what a script reads (the raw
 * value: a number, an integer, text, a boolean, or null = not published).
 * cli_sheet_print() then writes one of three formats:
 *   table  display texts, padded in terminal columns (view_text_width, never
 *          bytes), a rule under the header, notes under the table;
 *   csv    RFC 4180, header = column ids, raw values, empty = null;
 *   json   an array of objects keyed by column id, raw values, null.
 * csv and json never depend on the language.
 */
#include "cli/cli.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"
#include "view/view.h"

enum raw_type { RAW_NULL, RAW_NUMBER, RAW_INT, RAW_TEXT, RAW_BOOL, RAW_INTS };

struct cell {
	char *display;
	enum raw_type type;
	double number;
	int64_t integer;
	char *text;
	bool flag;
};

struct column {
	char *id;
	char *label;
	enum cli_align align;
	enum cli_show show;
};

struct cli_sheet {
	struct column *cols;
	size_t n_cols;
	struct cell *cells;   /* n_rows * n_cols, row-major */
	size_t n_cells;       /* cells added so far */
	size_t n_rows;
	char **notes;
	size_t n_notes;
};

struct cli_sheet *cli_sheet_new(void)
{
	return xcalloc(1, sizeof(struct cli_sheet));
}

void cli_sheet_free(struct cli_sheet **sp)
{
	struct cli_sheet *s = sp != NULL ? *sp : NULL;
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->n_cols; i++) {
		free(s->cols[i].id);
		free(s->cols[i].label);
	}
	for (i = 0; i < s->n_rows * s->n_cols; i++) {
		free(s->cells[i].display);
		free(s->cells[i].text);
	}
	for (i = 0; i < s->n_notes; i++)
		free(s->notes[i]);
	free(s->cols);
	free(s->cells);
	free(s->notes);
	free(s);
	*sp = NULL;
}

void cli_sheet_column(struct cli_sheet *s, const char *id, const char *label, enum cli_align align)
{
	cli_sheet_column_for(s, id, label, align, CLI_SHOW_ALL);
}

void cli_sheet_column_for(struct cli_sheet *s, const char *id, const char *label,
			  enum cli_align align, enum cli_show show)
{
	if (s->n_rows > 0)
		fatal("cli_sheet_column after the first row");
	s->cols = xreallocarray(s->cols, s->n_cols + 1, sizeof *s->cols);
	s->cols[s->n_cols].id = xstrdup(id);
	s->cols[s->n_cols].label = xstrdup(label != NULL ? label : id);
	s->cols[s->n_cols].align = align;
	s->cols[s->n_cols].show = show;
	s->n_cols++;
}

void cli_sheet_columns(struct cli_sheet *s, const struct cli_column *cols)
{
	for (size_t i = 0; cols[i].id != NULL; i++)
		cli_sheet_column_for(s, cols[i].id, cols[i].label != NULL ? _(cols[i].label) : NULL,
				     cols[i].align, cols[i].show);
}

void cli_sheet_row(struct cli_sheet *s)
{
	size_t i;

	/* pad a short previous row with nulls so every row has n_cols cells */
	while (s->n_cells < s->n_rows * s->n_cols)
		cli_sheet_null(s, "");
	s->n_rows++;
	s->cells = xreallocarray(s->cells, s->n_rows * s->n_cols, sizeof *s->cells);
	for (i = (s->n_rows - 1) * s->n_cols; i < s->n_rows * s->n_cols; i++)
		memset(&s->cells[i], 0, sizeof s->cells[i]);
}

static struct cell *next_cell(struct cli_sheet *s, const char *display)
{
	struct cell *c;

	if (s->n_rows == 0 || s->n_cells >= s->n_rows * s->n_cols)
		fatal("cli_sheet: more cells than columns");
	c = &s->cells[s->n_cells++];
	c->display = xstrdup(display != NULL ? display : "");
	return c;
}

void cli_sheet_text(struct cli_sheet *s, const char *display, const char *raw)
{
	struct cell *c = next_cell(s, display);

	if (raw != NULL) {
		c->type = RAW_TEXT;
		c->text = xstrdup(raw);
	}
}

void cli_sheet_number(struct cli_sheet *s, const char *display, double raw)
{
	struct cell *c = next_cell(s, display);

	if (isfinite(raw)) {
		c->type = RAW_NUMBER;
		c->number = raw;
	}
}

void cli_sheet_int(struct cli_sheet *s, const char *display, int64_t raw)
{
	struct cell *c = next_cell(s, display);

	c->type = RAW_INT;
	c->integer = raw;
}

void cli_sheet_bool(struct cli_sheet *s, const char *display, bool raw)
{
	struct cell *c = next_cell(s, display);

	c->type = RAW_BOOL;
	c->flag = raw;
}

void cli_sheet_int_or_null(struct cli_sheet *s, bool have, int64_t v)
{
	if (have)
		cli_sheet_int(s, NULL, v);
	else
		cli_sheet_null(s, NULL);
}

void cli_sheet_text_or_null(struct cli_sheet *s, const char *v)
{
	if (v != NULL)
		cli_sheet_text(s, NULL, v);
	else
		cli_sheet_null(s, NULL);
}

void cli_sheet_null(struct cli_sheet *s, const char *display)
{
	next_cell(s, display);
}

void cli_sheet_ints(struct cli_sheet *s, const char *display, const int64_t *v, size_t n)
{
	struct cell *c = next_cell(s, display);
	struct buf b = {0};

	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s%" PRId64, i ? " " : "", v[i]);
	c->type = RAW_INTS;
	c->text = buf_take(&b);
}

void cli_sheet_note(struct cli_sheet *s, const char *note)
{
	s->notes = xreallocarray(s->notes, s->n_notes + 1, sizeof *s->notes);
	s->notes[s->n_notes++] = xstrdup(note);
}

/* ---- raw value text ------------------------------------------------------ */

/* The raw value as JSON (json = true) or CSV text; malloc'ed. */
static char *raw_text(const struct cell *c, bool json)
{
	switch (c->type) {
	case RAW_NULL:
		return xstrdup(json ? "null" : "");
	case RAW_NUMBER:
		return view_raw_number(c->number);
	case RAW_INT:
		return xasprintf("%" PRId64, c->integer);
	case RAW_BOOL:
		return xstrdup(c->flag ? "true" : "false");
	case RAW_TEXT:
		return json ? view_json_string(c->text) : view_csv_field(c->text);
	case RAW_INTS: {
		/* json: an array of integers; csv: the integers, space-separated */
		if (!json)
			return xstrdup(c->text);
		struct buf b = {0};
		buf_putc(&b, '[');
		for (const char *p = c->text; *p; p++)
			buf_putc(&b, *p == ' ' ? ',' : *p);
		buf_putc(&b, ']');
		return buf_take(&b);
	}
	}
	return xstrdup("");
}

/* ---- the three writers ------------------------------------------------------ */

/* What reaches the terminal: sanitised, and transliterated under --ascii. */
static char *for_terminal(const struct cli_ctx *ctx, const char *s)
{
	char *t = util_sanitize(s != NULL ? s : "", SIZE_MAX, false);

	if (ctx->ascii) {
		char *a = i18n_ascii(t);
		free(t);
		t = a;
	}
	return t;
}

static void pad(struct buf *b, size_t n)
{
	while (n-- > 0)
		buf_putc(b, ' ');
}

/* Indexes of the columns a format prints; returns how many. */
static size_t visible(const struct cli_sheet *s, bool table, size_t *out)
{
	size_t c, n = 0;

	for (c = 0; c < s->n_cols; c++)
		if (s->cols[c].show == CLI_SHOW_ALL ||
		    s->cols[c].show == (table ? CLI_SHOW_TABLE : CLI_SHOW_DATA))
			out[n++] = c;
	return n;
}

static void print_table(const struct cli_ctx *ctx, const struct cli_sheet *s, struct buf *b)
{
	size_t *vis = xcalloc(s->n_cols + 1, sizeof *vis);
	size_t nv = visible(s, true, vis);
	size_t *width = xcalloc(nv + 1, sizeof *width);
	/* row 0 the header, then the rows; sanitised, then measured in columns */
	char **text = xcalloc((s->n_rows + 1) * (nv + 1), sizeof *text);
	size_t r, v, i;

	for (r = 0; r <= s->n_rows; r++) {
		for (v = 0; v < nv; v++) {
			const char *src = r == 0 ? s->cols[vis[v]].label
						 : s->cells[(r - 1) * s->n_cols + vis[v]].display;
			size_t w;

			text[r * nv + v] = for_terminal(ctx, src);
			w = view_text_width(text[r * nv + v]);
			if (w > width[v])
				width[v] = w;
		}
	}
	for (r = 0; r <= s->n_rows + 1; r++) {
		/* line 0 the header, line 1 the rule, then the rows */
		for (v = 0; v < nv; v++) {
			const char *t = r == 0 ? text[v] : r == 1 ? NULL : text[(r - 1) * nv + v];
			bool last = v + 1 == nv;

			if (v > 0)
				buf_puts(b, "  ");
			if (t == NULL) {
				for (i = 0; i < width[v]; i++)
					buf_puts(b, ctx->ascii ? "-" : "\u2500");
				continue;
			}
			if (s->cols[vis[v]].align == CLI_RIGHT) {
				pad(b, width[v] - view_text_width(t));
				buf_puts(b, t);
			} else {
				buf_puts(b, t);
				if (!last)
					pad(b, width[v] - view_text_width(t));
			}
		}
		buf_putc(b, '\n');
	}
	for (i = 0; i < s->n_notes; i++) {
		char *n = for_terminal(ctx, s->notes[i]);
		buf_printf(b, "%s\n", n);
		free(n);
	}
	for (i = 0; i < (s->n_rows + 1) * nv; i++)
		free(text[i]);
	free(text);
	free(width);
	free(vis);
}

static void print_csv(const struct cli_sheet *s, struct buf *b)
{
	size_t *vis = xcalloc(s->n_cols + 1, sizeof *vis);
	size_t nv = visible(s, false, vis);
	size_t r, v;

	for (v = 0; v < nv; v++) {
		char *f = view_csv_field(s->cols[vis[v]].id);
		buf_printf(b, "%s%s", v > 0 ? "," : "", f);
		free(f);
	}
	buf_putc(b, '\n');
	for (r = 0; r < s->n_rows; r++) {
		for (v = 0; v < nv; v++) {
			char *f = raw_text(&s->cells[r * s->n_cols + vis[v]], false);
			buf_printf(b, "%s%s", v > 0 ? "," : "", f);
			free(f);
		}
		buf_putc(b, '\n');
	}
	free(vis);
}

static void print_json(const struct cli_sheet *s, struct buf *b)
{
	size_t *vis = xcalloc(s->n_cols + 1, sizeof *vis);
	size_t nv = visible(s, false, vis);
	size_t r, v;

	buf_puts(b, "[");
	for (r = 0; r < s->n_rows; r++) {
		buf_puts(b, r > 0 ? ",\n  {" : "\n  {");
		for (v = 0; v < nv; v++) {
			char *k = view_json_string(s->cols[vis[v]].id);
			char *val = raw_text(&s->cells[r * s->n_cols + vis[v]], true);
			buf_printf(b, "%s%s: %s", v > 0 ? ", " : "", k, val);
			free(k);
			free(val);
		}
		buf_puts(b, "}");
	}
	buf_puts(b, s->n_rows > 0 ? "\n]\n" : "]\n");
	free(vis);
}

int cli_sheet_print(const struct cli_ctx *ctx, const struct cli_sheet *s)
{
	struct buf b = {0};
	FILE *out = ctx->out != NULL ? ctx->out : stdout;
	int rc = 0;

	/* cells never filled (a short last row) are zeroed: null, no display */
	switch (ctx->format) {
	case CLI_FORMAT_TABLE: print_table(ctx, s, &b); break;
	case CLI_FORMAT_CSV: print_csv(s, &b); break;
	case CLI_FORMAT_JSON: print_json(s, &b); break;
	}
	if (b.len > 0 && fwrite(b.data, 1, b.len, out) != b.len)
		rc = -1;
	if (fflush(out) != 0)
		rc = -1;
	buf_free(&b);
	return rc;
}

int cli_sheet_print_free(const struct cli_ctx *ctx, struct cli_sheet **s)
{
	int rc = cli_sheet_print(ctx, *s) == 0 ? CLI_OK : CLI_FAILED;

	cli_sheet_free(s);
	return rc;
}

size_t cli_sheet_rows(const struct cli_sheet *s)
{
	return s != NULL ? s->n_rows : 0;
}

/* ---- records: one row, built field by field ----------------------------------- */

/* A record is a sheet of one row whose columns come with their cells. */
struct cli_record {
	struct cli_sheet *s;
};

struct cli_record *cli_record_new(void)
{
	struct cli_record *r = xcalloc(1, sizeof *r);

	r->s = cli_sheet_new();
	r->s->n_rows = 1;
	return r;
}

/* A column for the next cell: the row grows by one cell. */
static struct cli_sheet *field(struct cli_record *r, const char *id, enum cli_align align)
{
	struct cli_sheet *s = r->s;

	s->cols = xreallocarray(s->cols, s->n_cols + 1, sizeof *s->cols);
	s->cols[s->n_cols] = (struct column){ .id = xstrdup(id), .label = xstrdup(id),
					      .align = align, .show = CLI_SHOW_ALL };
	s->n_cols++;
	s->cells = xreallocarray(s->cells, s->n_cols, sizeof *s->cells);
	memset(&s->cells[s->n_cols - 1], 0, sizeof *s->cells);
	return s;
}

void cli_record_int(struct cli_record *r, const char *id, int64_t v)
{
	cli_sheet_int(field(r, id, CLI_RIGHT), NULL, v);
}

void cli_record_text(struct cli_record *r, const char *id, const char *v)
{
	cli_sheet_text(field(r, id, CLI_LEFT), NULL, v);
}

void cli_record_ints(struct cli_record *r, const char *id, const int64_t *v, size_t n)
{
	cli_sheet_ints(field(r, id, CLI_LEFT), NULL, v, n);
}

void cli_record_bool(struct cli_record *r, const char *id, bool v)
{
	cli_sheet_bool(field(r, id, CLI_LEFT), NULL, v);
}

int cli_record_print(const struct cli_ctx *ctx, struct cli_record **rp)
{
	struct cli_record *r = *rp;
	int rc = cli_sheet_print(ctx, r->s);

	cli_sheet_free(&r->s);
	free(r);
	*rp = NULL;
	return rc;
}
