/*
 * Filter expressions on any column of a table, the way k9s and VisiData
 * users type them: terms separated by spaces, every one must hold; a term
 * is either a plain word — it matches a GPU whose name, architecture,
 * vendor or id, or a text column of the table (the memory type, the link),
 * contains it, any case ("h100", "hopper", "amd", "hbm3e"); "!word" those
 * that do not — or COLUMN OP VALUE, with OP one of = != < <= > >=:
 *
 *     mem>=80          memory of 80 GB and more (the column's own unit)
 *     type=hbm3e       a text column contains it, any case (!= does not)
 *     price<3          US$ per GPU-hour (cents inside: 300)
 *     ecc=yes          yes/no for the columns that are one
 *     h100|a100        alternatives, with or without a column: vendor=amd|intel
 *
 * A column is named by its id (memory, memory_type, bandwidth, bf16, price,
 * fit_full_8 …), its header (any case, blanks as _), or a short name (mem,
 * type, bw, tflops, vram). A value the table does not have (not published,
 * no price) matches no comparison. Numbers take "." or the language's
 * decimal separator. What cannot be read is said in words and the table
 * keeps the filter it had. Pure: no I/O.
 */
#include "view/view.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n/i18n.h"
#include "util/util.h"

#define T(t, msgid) i18n_dgettext((t)->lang, NULL, (msgid))

enum op { OP_WORD, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };

struct alt {
	char *text;                 /* the value (or the word), as typed */
	double number;              /* the value as a number, in the column's unit */
	bool is_number;
	int boolean;                /* -1 none, 0 no, 1 yes */
};

/* What a term looks at besides a column: the GPU's own words. */
enum field { F_COLUMN, F_ANY, F_NAME, F_VENDOR, F_ARCH, F_ID };

struct term {
	enum op op;
	bool negate;                /* "!word" */
	enum field field;           /* F_ANY for a plain word */
	char *column;               /* the column's id (F_COLUMN), else NULL */
	struct alt *alts;
	size_t n_alts;
};

struct view_filter_expr {
	struct term *terms;
	size_t n;
};

static const struct {
	const char *alias, *id;
} aliases[] = {
	{ "mem", "memory" }, { "vram", "memory" }, { "gb", "memory" },
	{ "type", "memory_type" }, { "memtype", "memory_type" },
	{ "bw", "bandwidth" }, { "tflops", "bf16" }, { "ask", "price" },
	{ "rt", "rt_cores" }, { "tdp", "power" }, { "link", "interconnect" },
};

static void free_term(struct term *t)
{
	for (size_t i = 0; i < t->n_alts; i++)
		free(t->alts[i].text);
	free(t->alts);
	free(t->column);
}

void view_filter_expr_free(struct view_filter_expr **pe)
{
	struct view_filter_expr *e = *pe;

	if (e == NULL)
		return;
	for (size_t i = 0; i < e->n; i++)
		free_term(&e->terms[i]);
	free(e->terms);
	free(e);
	*pe = NULL;
}

/* The same name, any case, a blank and a '_' alike. */
static bool same_name(const char *a, const char *b)
{
	for (; *a != '\0' && *b != '\0'; a++, b++) {
		char x = *a == ' ' ? '_' : (char)tolower((unsigned char)*a);
		char y = *b == ' ' ? '_' : (char)tolower((unsigned char)*b);
		if (x != y)
			return false;
	}
	return *a == *b;
}

/* The column name stands for: its index, or -1. */
static int find_column(const struct view_table *t, const char *name)
{
	int k = view_column_index(t, name);

	for (size_t i = 0; k < 0 && i < sizeof aliases / sizeof aliases[0]; i++)
		if (same_name(name, aliases[i].alias))
			k = view_column_index(t, aliases[i].id);
	for (size_t i = 0; k < 0 && i < t->n_columns; i++)
		if (same_name(name, t->columns[i].id) || same_name(name, t->columns[i].label))
			k = (int)i;
	return k;
}

static const struct {
	const char *name;
	enum field f;
} gpu_fields[] = {
	{ "name", F_NAME }, { "gpu", F_NAME }, { "vendor", F_VENDOR }, { "arch", F_ARCH },
	{ "architecture", F_ARCH }, { "id", F_ID },
};

/* The column ids, comma-separated, for an error (malloc'ed). */
static char *column_ids(const struct view_table *t)
{
	struct buf b = {0};

	for (size_t i = 0; i < t->n_columns; i++) {
		if (t->columns[i].kind == VIEW_COL_GPU)
			continue;
		if (b.len > 0)
			buf_puts(&b, ", ");
		buf_puts(&b, t->columns[i].id);
	}
	return b.data != NULL ? buf_take(&b) : xstrdup("");
}

/* Where the operator of a term starts (NULL: a plain word), and its kind. */
static const char *find_op(const char *s, enum op *op, size_t *len)
{
	for (const char *p = s; *p != '\0'; p++) {
		*len = 2;
		if (p[0] == '>' && p[1] == '=') { *op = OP_GE; return p; }
		if (p[0] == '<' && p[1] == '=') { *op = OP_LE; return p; }
		if (p[0] == '!' && p[1] == '=') { *op = OP_NE; return p; }
		*len = 1;
		if (p[0] == '>') { *op = OP_GT; return p; }
		if (p[0] == '<') { *op = OP_LT; return p; }
		if (p[0] == '=') { *op = OP_EQ; return p; }
	}
	return NULL;
}

static int yes_no(const char *s)
{
	static const char *const yes[] = { "yes", "y", "true", "1", "on", "sim", "s\u00ed", "oui", "ja" };
	static const char *const no[] = { "no", "n", "false", "0", "off", "n\u00e3o", "non", "nein" };

	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
		if (strcasecmp(s, yes[i]) == 0)
			return 1;
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
		if (strcasecmp(s, no[i]) == 0)
			return 0;
	return -1;
}

static bool cents_column(enum view_col_kind k)
{
	return k == VIEW_COL_PRICE || k == VIEW_COL_BID || k == VIEW_COL_SPREAD ||
	       k == VIEW_COL_LAST || k == VIEW_COL_JOB_COST;
}

/* A value of column c read: a number (prices in US$, kept in cents), a
 * yes/no, or text. -1 and *cause when the column wants what it is not. */
static int read_value(const struct view_table *t, const struct view_column *c, enum op op,
		      const char *term, struct alt *a, char **cause)
{
	bool numeric = c->numeric || cents_column(c->kind) || c->kind == VIEW_COL_CHANGE ||
		       c->kind == VIEW_COL_SPARK;
	const char *s = a->text;
	int64_t v;
	char *why = NULL;

	a->boolean = yes_no(s);
	if (!numeric) {
		if (op != OP_EQ && op != OP_NE)
			return set_cause(cause, T(t, N_("%s: %s is text, so = (contains) or != (does not) "
						  "compare it")), term, c->id);
		return 0;
	}
	if (s[0] == '$')
		s++;
	int scale = 4;
	bool neg = s[0] == '-';
	if (i18n_parse_decimal(t->lang, neg ? s + 1 : s, scale, &v, &why) != 0) {
		free(why);
		return set_cause(cause, T(t, N_("%s: \u201c%s\u201d is not a number (like mem>=80 or "
					  "price<3.5)")), term, a->text);
	}
	a->is_number = true;
	a->number = (neg ? -(double)v : (double)v) / 10000.0;
	if (cents_column(c->kind))
		a->number = round(a->number * 100.0);   /* the cells hold cents */
	else if (c->kind == VIEW_COL_CHANGE || c->kind == VIEW_COL_SPARK)
		a->number = round(a->number * 100.0);   /* percent → hundredths */
	return 0;
}

static int parse_term(const struct view_table *t, const char *tok, struct term *out,
		      char **cause)
{
	enum op op;
	size_t oplen;
	const char *o = find_op(tok, &op, &oplen), *vals;
	int col = -1;

	memset(out, 0, sizeof *out);
	if (o == NULL || o == tok) {
		if (o == tok)
			return set_cause(cause, T(t, N_("%s: a column before %.*s (like mem>=80)")), tok,
					 (int)oplen, o);
		out->op = OP_WORD;
		out->field = F_ANY;
		out->negate = tok[0] == '!' && tok[1] != '\0';
		vals = out->negate ? tok + 1 : tok;
	} else {
		char *name = xstrndup(tok, (size_t)(o - tok));
		for (size_t i = 0; i < sizeof gpu_fields / sizeof gpu_fields[0]; i++)
			if (same_name(name, gpu_fields[i].name))
				out->field = gpu_fields[i].f;
		if (out->field != F_COLUMN && op != OP_EQ && op != OP_NE) {
			int rc = set_cause(cause, T(t, N_("%s: %s is text, so = (contains) or != (does "
							  "not) compare it")), tok, name);
			free(name);
			return rc;
		}
		col = out->field == F_COLUMN ? find_column(t, name) : -1;
		if (col < 0 && out->field == F_COLUMN) {
			char *ids = column_ids(t);
			int rc = set_cause(cause, T(t, N_("%s: this table has no column \u201c%s\u201d (its "
						    "columns: %s; a plain word matches names, vendors "
						    "and architectures)")), tok, name, ids);
			free(ids);
			free(name);
			return rc;
		}
		free(name);
		out->op = op;
		out->column = col >= 0 ? xstrdup(t->columns[col].id) : NULL;
		vals = o + oplen;
		if (*vals == '\0')
			return set_cause(cause, T(t, N_("%s: a value after %.*s")), tok, (int)oplen, o);
	}
	/* the alternatives */
	for (const char *p = vals; ; ) {
		size_t len = strcspn(p, "|");
		if (len > 0) {
			out->alts = xreallocarray(out->alts, out->n_alts + 1, sizeof *out->alts);
			struct alt *a = &out->alts[out->n_alts++];
			memset(a, 0, sizeof *a);
			a->text = xstrndup(p, len);
			a->boolean = -1;
			if (col >= 0 && read_value(t, &t->columns[col], op, tok, a, cause) != 0)
				return -1;
		}
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	if (out->n_alts == 0)
		return set_cause(cause, T(t, N_("%s: nothing to look for")), tok);
	return 0;
}

int view_filter_parse(const struct view_table *t, const char *text, struct view_filter_expr **out,
		      char **cause)
{
	struct view_filter_expr *e = xcalloc(1, sizeof *e);
	char *copy = xstrdup(text != NULL ? text : ""), *save = NULL;

	*out = NULL;
	for (char *tok = strtok_r(copy, " \t", &save); tok != NULL; tok = strtok_r(NULL, " \t", &save)) {
		e->terms = xreallocarray(e->terms, e->n + 1, sizeof *e->terms);
		if (parse_term(t, tok, &e->terms[e->n], cause) != 0) {
			e->n++;
			view_filter_expr_free(&e);
			free(copy);
			return -1;
		}
		e->n++;
	}
	free(copy);
	*out = e;
	return 0;
}

/* ---- matching ---------------------------------------------------------------------------------- */

static bool contains_ci(const char *hay, const char *needle)
{
	return hay != NULL && strcasestr(hay, needle) != NULL;
}

/* A text column's value of r contains w (memory type, link, …). */
static bool text_cell_matches(const struct view_table *t, const struct view_row *r, const char *w)
{
	for (size_t k = 0; k < t->n_columns; k++) {
		const struct view_cell *c = &r->cells[k];
		if (t->columns[k].kind != VIEW_COL_GPU && c->raw == VIEW_RAW_TEXT &&
		    !(c->flags & VIEW_CELL_UNKNOWN) && contains_ci(c->text, w))
			return true;
	}
	return false;
}

static bool field_matches(enum field f, const struct view_table *t, const struct view_row *r,
			  const char *w)
{
	const struct catalog_gpu *g = r->gpu;

	switch (f) {
	case F_NAME: return contains_ci(g->name, w) || contains_ci(g->id, w);
	case F_VENDOR: return contains_ci(g->vendor, w);
	case F_ARCH: return contains_ci(g->arch, w);
	case F_ID: return contains_ci(g->id, w);
	default:
		return contains_ci(g->name, w) || contains_ci(g->arch, w) ||
		       contains_ci(g->vendor, w) || contains_ci(g->id, w) ||
		       text_cell_matches(t, r, w);
	}
}

/* The cell's value as a number, or false when it has none. */
static bool cell_number(const struct view_cell *c, const struct view_row *r,
			enum view_col_kind k, double *v)
{
	if (k == VIEW_COL_CHANGE || k == VIEW_COL_SPARK) {
		*v = (double)r->change_bp;
		return r->has_change;
	}
	if (c->flags & VIEW_CELL_UNKNOWN)
		return false;
	switch (c->raw) {
	case VIEW_RAW_NUMBER: *v = c->number; return true;
	case VIEW_RAW_CENTS: *v = (double)c->cents; return true;
	case VIEW_RAW_BOOL: *v = c->flag ? 1 : 0; return true;
	default: return false;
	}
}

static bool compare(enum op op, double a, double b)
{
	switch (op) {
	case OP_EQ: return fabs(a - b) < 1e-9;
	case OP_NE: return fabs(a - b) >= 1e-9;
	case OP_LT: return a < b;
	case OP_LE: return a <= b + 1e-9;
	case OP_GT: return a > b;
	case OP_GE: return a >= b - 1e-9;
	default: return false;
	}
}

static bool alt_matches(const struct term *tm, const struct alt *a, const struct view_table *t,
			const struct view_row *r, int col)
{
	const struct view_column *c = &t->columns[col];
	const struct view_cell *cell = &r->cells[col];
	double v;

	if (c->kind == VIEW_COL_GPU)
		return field_matches(F_NAME, t, r, a->text) == (tm->op == OP_EQ);
	if (cell->raw == VIEW_RAW_BOOL && !(cell->flags & VIEW_CELL_UNKNOWN) && a->boolean >= 0)
		return (cell->flag == (a->boolean == 1)) == (tm->op == OP_EQ);
	if (a->is_number)
		return cell_number(cell, r, c->kind, &v) && compare(tm->op, v, a->number);
	if (cell->flags & VIEW_CELL_UNKNOWN)
		return false;
	/* text: the value or what is shown contains it */
	return (contains_ci(cell->raw == VIEW_RAW_TEXT ? cell->text : NULL, a->text) ||
		contains_ci(cell->display, a->text)) == (tm->op == OP_EQ);
}

static bool term_matches(const struct term *tm, const struct view_table *t,
			 const struct view_row *r)
{
	int col = tm->column != NULL ? view_column_index(t, tm->column) : -1;

	if (tm->op == OP_WORD || tm->field != F_COLUMN) {
		/* a word, or name= vendor= arch= id=: = any of them, != none */
		bool none = tm->negate || tm->op == OP_NE;
		for (size_t i = 0; i < tm->n_alts; i++)
			if (field_matches(tm->field, t, r, tm->alts[i].text))
				return !none;
		return none;
	}
	if (col < 0)
		return false; /* the column went (a job's, the job cleared) */
	if (tm->op == OP_NE) {
		/* none of the alternatives */
		for (size_t i = 0; i < tm->n_alts; i++)
			if (!alt_matches(tm, &tm->alts[i], t, r, col))
				return false;
		return true;
	}
	for (size_t i = 0; i < tm->n_alts; i++)
		if (alt_matches(tm, &tm->alts[i], t, r, col))
			return true;
	return false;
}

bool view_filter_match(const struct view_filter_expr *e, const struct view_table *t,
		       const struct view_row *r)
{
	for (size_t i = 0; e != NULL && i < e->n; i++)
		if (!term_matches(&e->terms[i], t, r))
			return false;
	return true;
}

const char *view_filter_hint(enum i18n_lang lang)
{
	return i18n_dgettext(lang, NULL,
		N_("Words match a GPU's name, vendor, architecture or a text column such as the memory "
		   "type (!word: not); or COLUMN OP VALUE: mem>=80 type=hbm3e price<3 ecc=yes; a|b "
		   "either; spaces: all of them"));
}
