/*
 * The live-fit calculator panel, a screen (tui/frame/screen.h) above the tables:
 * a form of the job's inputs and,
 * for the GPU under the table's cursor, the answer — memory per GPU broken
 * down and drawn as a bar, GPUs needed, cost per hour at the live best ask,
 * a training run's time and cost or inference's decode speed.
 *
 * Where: beside the table on terminals of FIT_WIDE_COLS columns or more (a
 * column of FIT_SIDE_* width, full height), below it otherwise (fields in a
 * grid of cells of at least 34 columns; the table keeps what is left, at
 * least FIT_TABLE_MIN lines, or 2 — header and cursor row — while the panel
 * is being edited on a short terminal). What does not fit is given up in a
 * fixed order (blank line, detailed answer → compact, architecture, hints,
 * then the fields scroll around the focused one; lines left over go back to
 * the answer), so 80×24 stays usable and 200×50 shows everything. The
 * architecture's figures pack several to a line (two beside the table);
 * the Architecture and Advanced folds show or hide their fields.
 *
 * Keys (the panel's map below, listed by the help overlay): `f` shows and
 * focuses it (again: focuses it), F4 shows/hides it, Esc goes back to the
 * table (the panel stays, answering for the row under the cursor), `$`
 * sorts the tab by the job's cost per hour, `b` (F5) opens the order form
 * with the GPUs the job runs on (the tables read them from the job's
 * columns). Tab/↓ and Shift-Tab/↑ move between fields; ←/→ or Space change a choice; text fields are GNU
 * readline (emacs keys, Ctrl-P/Ctrl-N recall that field's history; what a
 * field held when it was left is added to it). In the model field, while
 * the text is a search, ↑/↓ choose among the matching presets and Enter
 * takes one. F-keys and PgUp/PgDn still reach the application and table.
 *
 * Live: every change of a field re-reads the form (tui/fitpanel/fitform.c) into a
 * job, which the panel publishes (t->job, with a generation counter); the
 * tables pull it in their recalc (view_set_job: the "your model" columns,
 * dimmed rows; the cursor stays on its GPU) and publish the row under their
 * cursor (t->sel), for which the panel composes its lines as cells at
 * render (pure; the answer's lines come from tui/fitpanel/fitanswer.c), redrawing
 * its window only when a line differs. The text fields are
 * wfield widgets with the readline engine, placed over the panel's value
 * areas. Bad input leaves the last valid job in place: the answer is
 * greyed and the field says why.
 */
#include "tui/fitpanel/fitpanel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

enum {
	FIT_WIDE_COLS = 120,    /* from here the panel stands beside the table */
	FIT_SIDE_W = 46,        /* its width there (56 from 160 columns) */
	FIT_SIDE_W_WIDE = 56,
	FIT_CELL_W = 34,        /* a field's cell in the grid below the table */
	FIT_FIGURE_W = 22,      /* an architecture figure's cell (beside the table too) */
	FIT_FIGURES_MAX = 4,    /* architecture figures a line */
	FIT_TABLE_MIN = 5,      /* table lines kept below which the panel gives up lines */
	FIT_VALUE_MAX = 15,     /* widest text field ("Llama 3.1 405B" and the cursor) */
	FIT_VALUE_SIDE = 15,    /* ... beside the table */
	FIT_SUGGEST_MAX = 6,    /* presets listed beside the model field */
};

/* ---- the fields block (pure but for the panel's state) --------------------------------- */

struct fblock {
	struct tui_lines ls;
	struct tui_fit_slot slot[FF_COUNT];   /* y: line within the block */
	int focus_first, focus_last;  /* lines of the focused field, its error and list */
	int sug_line;                 /* first suggestion line (side), -1 */
	size_t sug_first, sug_n;
};

static bool show_error(const struct tui_fit *p, enum tui_ff_id id)
{
	return p->ff.f[id].error != NULL;
}

/* The value area of a choice or toggle: "‹ QLoRA (4-bit base) ›". */
static void choice_cells(const struct tui_fit *p, enum tui_ff_id id, struct wcells *c, int w)
{
	bool foc = p->focused && p->cur == id;
	enum wrole role = foc ? WR_FIELD_FOCUS : WR_FIELD;

	if (tui_ff_kind(id) == FFK_TOGGLE) {
		wcells_add(c, p->ff.f[id].choice ? "[x] " : "[ ] ", role, 0);
		wcells_add(c, tui_ff_choice_text(&p->ff, id), role, 0);
	} else if (tui_ff_kind(id) == FFK_FOLD) {
		/* "▸ show" closed, "▾ hide" open */
		bool open = p->ff.f[id].choice != 0;
		wcells_add(c, c->ascii ? (open ? "- " : "+ ") : (open ? "▾ " : "▸ "), role, 0);
		wcells_add(c, tui_ff_choice_text(&p->ff, id), role, 0);
	} else {
		wcells_add_sym(c, WSYM_MORE_LEFT, role, 0);
		wcells_pad(c, 1, role);
		wcells_add(c, tui_ff_choice_text(&p->ff, id), role, 0);
		wcells_pad(c, 1, role);
		wcells_add_sym(c, WSYM_MORE_RIGHT, role, 0);
	}
	if (c->width > w)
		wcells_fit(c, w, WALIGN_LEFT, role);
}

/* One field's cell of cw columns at column x of line c; records its slot. */
static void field_cell(const struct tui_fit *p, struct fblock *b, enum tui_ff_id id, struct wcells *c,
		       int cw, int lw, int vw, int uw, bool notes, int line)
{
	const struct tui_ff *ff = &p->ff;
	struct wcells cell;
	int x0 = c->width;
	bool err = show_error(p, id), foc = p->focused && p->cur == id;

	wcells_init(&cell, b->ls.ascii);
	if (err)
		wcells_add_sym(&cell, WSYM_CROSS, WR_FIELD_ERROR, 0);
	else if (foc)
		wcells_add_sym(&cell, WSYM_CURSOR_ROW, WR_NORMAL, WAT_BOLD);
	else
		wcells_pad(&cell, 1, WR_NORMAL);
	{
		struct wcells lab;
		wcells_init(&lab, b->ls.ascii);
		wcells_add(&lab, _(tui_ff_label(ff, id)), err ? WR_FIELD_ERROR : WR_NORMAL,
			   foc ? WAT_BOLD : 0);
		wcells_fit(&lab, lw, WALIGN_LEFT, WR_NORMAL);
		wcells_cat(&cell, &lab);
		wcells_free(&lab);
	}
	wcells_pad(&cell, 1, WR_NORMAL);
	if (tui_ff_kind(id) == FFK_TEXT) {
		const char *unit = tui_ff_unit(id);
		b->slot[id] = (struct tui_fit_slot){ .y = line, .x = x0 + cell.width, .w = vw, .on = true };
		wcells_pad(&cell, vw, WR_FIELD);   /* the field's window lies here */
		if (unit != NULL) {
			wcells_pad(&cell, 1, WR_NORMAL);
			wcells_add(&cell, unit, WR_NORMAL, 0);
		}
		while (cell.width < 1 + lw + 1 + vw + uw)
			wcells_pad(&cell, 1, WR_NORMAL);
	} else {
		struct wcells ch;
		wcells_init(&ch, b->ls.ascii);
		choice_cells(p, id, &ch, cw - cell.width - 1);
		b->slot[id] = (struct tui_fit_slot){ .y = line, .x = x0 + cell.width, .w = ch.width, .on = true };
		wcells_cat(&cell, &ch);
		wcells_free(&ch);
	}
	if (notes && id != FF_MODEL && tui_ff_kind(id) != FFK_FOLD && cw - cell.width >= 12 &&
	    tui_ff_changed(ff, id)) {
		char *d = tui_ff_default_text(ff, id);
		char *n = xasprintf(_("default %s"), d);
		wcells_pad(&cell, 1, WR_NORMAL);
		wcells_add(&cell, n, WR_DIM, 0);
		free(n);
		free(d);
	}
	wcells_fit(&cell, cw, WALIGN_LEFT, WR_NORMAL);
	wcells_cat(c, &cell);
	wcells_free(&cell);
}

static void suggestions(const struct tui_fit *p, struct fblock *b, int w, bool side)
{
	const struct tui_ff *ff = &p->ff;

	if (side) {
		size_t n = ff->n_matches < FIT_SUGGEST_MAX ? ff->n_matches : FIT_SUGGEST_MAX;
		size_t first = 0;
		if (ff->match_sel >= n)
			first = ff->match_sel - n + 1;
		b->sug_line = (int)b->ls.n;
		b->sug_first = first;
		b->sug_n = n;
		for (size_t i = first; i < first + n; i++) {
			struct wcells *c = tui_lines_add(&b->ls);
			bool sel = i == ff->match_sel;
			wcells_pad(c, 3, WR_NORMAL);
			wcells_add(c, ff->matches[i]->name, sel ? WR_SELECTED : WR_NORMAL, 0);
			wcells_fit(c, w, WALIGN_LEFT, WR_NORMAL);
		}
		return;
	}
	/* one line: the matches from the chosen one on, the chosen one marked */
	struct wcells *c = tui_lines_add(&b->ls);
	size_t start = ff->match_sel > 0 ? ff->match_sel - 1 : 0;
	wcells_pad(c, 3, WR_NORMAL);
	if (start > 0)
		wcells_add_sym(c, WSYM_ELLIPSIS, WR_DIM, 0);
	for (size_t i = start; i < ff->n_matches && c->width < w; i++) {
		if (i > start || start > 0)
			wcells_pad(c, 2, WR_NORMAL);
		wcells_add(c, ff->matches[i]->name, i == ff->match_sel ? WR_SELECTED : WR_DIM, 0);
	}
	wcells_fit(c, w, WALIGN_LEFT, WR_NORMAL);
}

/* The grid of a run of fields: gc cells of cw columns, labels of lw,
 * values of vw, units of uw. */
struct grid {
	int gc, cw, lw, vw, uw;
};

/* Architecture figures (short numbers) pack several to a line. */
static bool is_figure(enum tui_ff_id id)
{
	return tui_ff_section(id) == FFS_ARCH && tui_ff_kind(id) == FFK_TEXT;
}

static void grid_for(const struct tui_fit *p, const enum tui_ff_id *vis, size_t n, bool figures,
		     int w, bool side, struct grid *g)
{
	bool ascii = p->t->ascii;
	int gc = figures ? w / FIT_FIGURE_W : side ? 1 : w / FIT_CELL_W;
	int gmax = figures ? FIT_FIGURES_MAX : 3, vmax = side ? FIT_VALUE_SIDE : FIT_VALUE_MAX;

	gc = gc < 1 ? 1 : gc > gmax ? gmax : gc;
	*g = (struct grid){ .gc = gc, .cw = w / gc };
	for (size_t i = 0; i < n; i++) {
		int lwi = wtext_width(_(tui_ff_label(&p->ff, vis[i])), ascii);
		const char *u = tui_ff_unit(vis[i]);
		if (is_figure(vis[i]) != figures)
			continue;
		if (lwi > g->lw)
			g->lw = lwi;
		if (!figures && u != NULL && wtext_width(u, ascii) + 1 > g->uw)
			g->uw = wtext_width(u, ascii) + 1;
	}
	if (g->lw > g->cw * 2 / 5)
		g->lw = g->cw * 2 / 5;
	g->vw = g->cw - 1 - g->lw - 1 - g->uw - (gc > 1 ? 2 : 0);
	if (g->vw > vmax)
		g->vw = vmax;
	if (g->vw < 4)
		g->vw = 4;
}

/* One line of fields vis[i, i + k) and what goes under it: their errors,
 * the preset suggestions under the model field. */
static void fields_row(const struct tui_fit *p, struct fblock *b, const enum tui_ff_id *vis,
		       size_t k, const struct grid *g, int w, bool side)
{
	int line = (int)b->ls.n;
	struct wcells *c = tui_lines_add(&b->ls);
	bool has_focus = false;

	for (size_t j = 0; j < k; j++) {
		/* the last cell of a full row takes what is left; a figure's unit
		 * (Active's "B") takes from its own value */
		int this_w = j + 1 == (size_t)g->gc ? w - c->width : g->cw;
		const char *u = tui_ff_unit(vis[j]);
		int uw = is_figure(vis[j]) && u != NULL ? wtext_width(u, b->ls.ascii) + 1 : g->uw;
		int vw = is_figure(vis[j]) ? g->vw - uw : g->vw;
		field_cell(p, b, vis[j], c, this_w, g->lw, vw < 3 ? 3 : vw, uw, side, line);
		has_focus |= p->cur == vis[j];
	}
	c = &b->ls.l[line];
	wcells_fit(c, w, WALIGN_LEFT, WR_NORMAL);
	if (has_focus)
		b->focus_first = line;
	for (size_t j = 0; j < k; j++)
		if (show_error(p, vis[j]))
			tui_lines_wrap(&b->ls, p->ff.f[vis[j]].error, w, 2, WR_FIELD_ERROR, 3);
	for (size_t j = 0; j < k; j++)
		if (vis[j] == FF_MODEL && p->focused && p->cur == FF_MODEL && tui_ff_searching(&p->ff))
			suggestions(p, b, w, side);
	if (has_focus)
		b->focus_last = (int)b->ls.n - 1;
}

/* The shown fields in rows: the job's and the advanced ones in cells of
 * FIT_CELL_W (one a line beside the table), the architecture's figures
 * several to a line; a row holds fields of one kind. */
static void fields_block(const struct tui_fit *p, struct fblock *b, int w, bool side)
{
	enum tui_ff_id vis[FF_COUNT];
	size_t n = tui_ff_visible(&p->ff, vis);
	struct grid g[2];

	memset(b->slot, 0, sizeof b->slot);
	b->focus_first = b->focus_last = 0;
	b->sug_line = -1;
	grid_for(p, vis, n, false, w, side, &g[0]);
	grid_for(p, vis, n, true, w, side, &g[1]);
	for (size_t i = 0; i < n;) {
		bool fig = is_figure(vis[i]);
		size_t k = 1;
		while (i + k < n && k < (size_t)g[fig].gc && is_figure(vis[i + k]) == fig)
			k++;
		fields_row(p, b, vis + i, k, &g[fig], w, side);
		i += k;
	}
	if (p->ff.job_error != NULL && p->ff.have_job)
		tui_lines_wrap(&b->ls, p->ff.job_error, w, 2, WR_FIELD_ERROR, 1);
}

/* ---- composing the panel ------------------------------------------------------------------- */

/* The row under the tables' cursor (published by the tables), or NULL. */
static const struct view_row *selected_row(const struct tui *t)
{
	const struct view_table *v = t->sel.view;

	if (v == NULL || v->n_shown == 0)
		return NULL;
	return view_shown_row(v, t->sel.row < v->n_shown ? t->sel.row : 0);
}

static void title_line(const struct tui_fit *p, struct wcells *c, int w)
{
	const struct view_table *v = p->t->sel.view;
	const char *sep = c->ascii ? " | " : " \u00b7 ";

	wcells_add(c, " ", WR_HEADER, 0);
	wcells_add(c, _("Fit calculator"), WR_HEADER, WAT_BOLD);
	if (v != NULL && v->sort_cheapest) {
		wcells_add(c, sep, WR_HEADER, 0);
		wcells_add(c, _("sorted: cheapest per hour"), WR_HEADER, 0);
	}
	wcells_add(c, sep, WR_HEADER, 0);
	if (p->focused)
		wcells_add(c, _("Tab \u2191\u2193 fields, \u2190\u2192 choices, Esc table, F4 hide"),
			   WR_HEADER, 0);
	else
		wcells_add(c, _("f edit, F4 hide, $ cheapest, b buy"), WR_HEADER, 0);
	wcells_fit(c, w, WALIGN_LEFT, WR_HEADER);
}

static void hint_lines(const struct tui_fit *p, struct tui_lines *ls, int w, size_t max)
{
	struct buf b = {0};
	char *s;

	if (!p->focused)
		return;
	if (p->cur == FF_MODEL && tui_ff_searching(&p->ff)) {
		buf_puts(&b, _("\u2191\u2193 choose a preset, Enter takes it; or type a size"));
	} else {
		const char *help = _(tui_ff_help(p->cur));
		char *d = p->cur != FF_MODEL ? tui_ff_default_text(&p->ff, p->cur) : NULL;
		struct buf db = {0};
		if (d != NULL && d[0] != '\0') {
			/* an architecture figure's default is the model's own */
			const char *u = tui_ff_unit(p->cur);
			buf_printf(&db, tui_ff_section(p->cur) == FFS_ARCH ? _("the model's %s")
									   : _("default %s"), d);
			if (u != NULL)
				buf_printf(&db, " %s", u);
		}
		free(d);
		if (db.data == NULL) {
			buf_puts(&b, help);
		} else if (max == 1 && wtext_width(help, ls->ascii) + 3 +
					       wtext_width(db.data, ls->ascii) > w - 1) {
			/* one line that cannot hold both: the default first, the
			 * description cut after it, never the figure */
			buf_printf(&b, "%s \u00b7 %s", db.data, help);
		} else {
			buf_printf(&b, "%s \u00b7 %s", help, db.data);
		}
		free(db.data);
	}
	s = buf_take(&b);
	tui_lines_wrap(ls, s, w, max, WR_DIM, 1);
	free(s);
}

/* How many lines each part of the panel gets: title, architecture, fields,
 * hints, blank, answer; use_det: the detailed answer (beside the table). */
struct budget {
	int nT, nA, nF, nH, nB, nR;
	bool use_det;
};

static int total(const struct budget *g)
{
	return g->nT + g->nA + g->nF + g->nH + g->nB + g->nR;
}

/* Lines given up and left over are given back: to the answer (up to its
 * compact length), the hints, the architecture. */
static void give_back(struct budget *g, const struct budget *want, int h, int n_comp)
{
	int spare = h - total(g);
	int r_max = g->use_det ? want->nR : n_comp;

	while (spare > 0) {
		if (g->nR < r_max && g->nR > 0)
			g->nR++;
		else if (g->nH < want->nH && g->nH > 0)
			g->nH++;
		else if (g->nA < want->nA)
			g->nA++;
		else
			break;
		spare--;
	}
}

/* Give up lines in a fixed order until the parts fit in h: the blank line,
 * the detailed answer, the architecture and hints to one line, the
 * answer to two lines (focused), the architecture; then (focused) the fields around
 * the focused one (span lines at least), the answer to one, hints, the
 * answer, the fields to one; or (not focused) the fields, then the answer;
 * the title last. What is left over goes back (give_back). */
static void share(struct budget *g, int h, bool focused, int span, int n_comp)
{
	const struct budget want = *g;
	int rest;

	if (total(g) > h)
		g->nB = 0;
	if (total(g) > h && g->use_det) {
		g->use_det = false;
		g->nR = n_comp;
	}
	if (total(g) > h && g->nA > 1)
		g->nA = 1;
	if (total(g) > h && g->nH > 1)
		g->nH = 1;
	if (focused && total(g) > h && g->nR > 2)
		g->nR = 2; /* the architecture line before the answer's third */
	if (total(g) > h)
		g->nA = 0;
	if (focused) {
		rest = h - (g->nT + g->nA + g->nH + g->nB + g->nR);
		if (total(g) > h)
			g->nF = rest > span ? rest : span;
		if (total(g) > h && g->nR > 1) {
			g->nR = 1;
			rest = h - (g->nT + g->nA + g->nH + g->nB + g->nR);
			g->nF = rest > span ? rest : span;
		}
		if (total(g) > h)
			g->nH = 0;
		if (total(g) > h)
			g->nR = 0;
		if (total(g) > h)
			g->nF = h - g->nT > 1 ? h - g->nT : 1;
	} else {
		rest = h - (g->nT + g->nA + g->nH + g->nB + g->nR);
		if (total(g) > h)
			g->nF = rest > 0 ? rest : 0;
		if (total(g) > h)
			g->nR = h - g->nT > 0 ? h - g->nT : 0;
	}
	if (total(g) > h)
		g->nT = 0;
	if (g->nF >= want.nF)
		give_back(g, &want, h, n_comp);
}

/* The fields' window of nF lines keeps the focused field in it. */
static void scroll_fields(struct tui_fit *p, const struct fblock *fb, int nF)
{
	if (nF >= (int)fb->ls.n) {
		p->top = 0;
		return;
	}
	if (fb->focus_first < p->top)
		p->top = fb->focus_first;
	if (fb->focus_last >= p->top + nF)
		p->top = fb->focus_last - nF + 1;
	if (p->top > fb->focus_first)
		p->top = fb->focus_first;
	if (p->top > (int)fb->ls.n - nF)
		p->top = (int)fb->ls.n - nF;
	if (p->top < 0)
		p->top = 0;
}

/* The border on the side, every line exactly w wide; the fields' slots and
 * the suggestions' lines where the fields block landed (y_fields). */
static void finish(struct tui_fit *p, struct tui_lines *out, const struct fblock *fb,
		   const struct budget *g, int w, bool side, int y_fields)
{
	int ox = side ? 2 : 0;

	for (size_t i = 0; i < out->n; i++) {
		struct wcells *c = &out->l[i];
		if (side && !(g->nT > 0 && i == 0)) {
			struct wcells b;
			wcells_init(&b, out->ascii);
			wcells_add_sym(&b, WSYM_VLINE, WR_DIM, 0);
			wcells_pad(&b, 1, WR_NORMAL);
			wcells_cat(&b, c);
			wcells_free(c);
			*c = b;
		}
		wcells_fit(c, w, WALIGN_LEFT, WR_NORMAL);
	}
	for (size_t i = 0; i < FF_COUNT; i++) {
		struct tui_fit_slot s = fb->slot[i];
		p->slot[i] = (struct tui_fit_slot){ 0 };
		if (!s.on || s.y < p->top || s.y >= p->top + g->nF)
			continue;
		p->slot[i] = (struct tui_fit_slot){ .y = y_fields + s.y - p->top, .x = ox + s.x,
					    .w = s.w, .on = true };
		if (p->slot[i].x + p->slot[i].w > w)
			p->slot[i].w = w - p->slot[i].x;
		if (p->slot[i].w < 1)
			p->slot[i].on = false;
	}
	p->sug_y = fb->sug_line >= p->top && fb->sug_line < p->top + g->nF
		? y_fields + fb->sug_line - p->top : -1;
	p->sug_first = fb->sug_first;
	p->sug_n = fb->sug_n;
}

/* Compose the panel's h lines of w columns (side: with a border column)
 * into p->shown_lines and the fields' slots, and return the natural height
 * (all parts, compact answer) the layout shares by; h < 0: only measure
 * (nothing of the panel changes). */
static int compose(struct tui_fit *p, int w, int h, bool side)
{
	bool ascii = p->t->ascii;
	int cw = side ? w - 2 : w;    /* content width: "│ " before it on the side */
	struct fblock fb = { .ls = { .ascii = ascii } };
	struct tui_lines arch = { .ascii = ascii }, hint = { .ascii = ascii };
	struct tui_lines det = { .ascii = ascii }, comp = { .ascii = ascii }, out = { .ascii = ascii };
	const struct view_row *r = selected_row(p->t);
	struct budget g;
	char *a;
	int natural, y_fields;

	if (cw < 8)
		cw = 8;
	fields_block(p, &fb, cw, side);
	a = tui_ff_arch_text(&p->ff);
	if (a != NULL) {
		tui_lines_wrap(&arch, a, cw, side ? 2 : 1, WR_DIM, 1);
		free(a);
	}
	hint_lines(p, &hint, cw, side ? 2 : 1);
	if (!side && p->focused) {
		/* below the table, one line of either: the model's architecture
		 * while its field has the keyboard, else the field's help */
		if (p->cur == FF_MODEL && arch.n > 0 && !tui_ff_searching(&p->ff))
			tui_lines_free(&hint);
		else
			tui_lines_free(&arch);
	}
	if (side)
		det.n = tui_fit_answer_lines(&p->ff, r, cw, true, ascii, &det.l);
	det.cap = det.n;
	comp.n = tui_fit_answer_lines(&p->ff, r, cw, false, ascii, &comp.l);
	comp.cap = comp.n;
	g = (struct budget){ .nT = 1, .nA = (int)arch.n, .nF = (int)fb.ls.n, .nH = (int)hint.n,
			     .nB = side ? 1 : 0, .use_det = side && det.n > 0 };
	g.nR = g.use_det ? (int)det.n : (int)comp.n;
	natural = g.nT + g.nA + g.nF + g.nH + (int)comp.n;
	if (h >= 0) {
		share(&g, h, p->focused, fb.focus_last - fb.focus_first + 1, (int)comp.n);
		if (g.nF > (int)fb.ls.n)
			g.nF = (int)fb.ls.n;
		if (g.nF < 0)
			g.nF = 0;
		scroll_fields(p, &fb, g.nF);
		if (g.nT > 0)
			title_line(p, tui_lines_add(&out), w);
		y_fields = (int)out.n;
		tui_lines_take(&out, &fb.ls, (size_t)p->top, (size_t)g.nF);
		tui_lines_take(&out, &arch, 0, (size_t)g.nA);
		tui_lines_take(&out, &hint, 0, (size_t)g.nH);
		if (g.nB > 0)
			tui_lines_add(&out);
		tui_lines_take(&out, g.use_det ? &det : &comp, 0, (size_t)g.nR);
		while ((int)out.n < h)
			tui_lines_add(&out);
		finish(p, &out, &fb, &g, w, side, y_fields);
		tui_lines_free(&p->shown_lines);
		p->shown_lines = out;
	}
	tui_lines_free(&fb.ls);
	tui_lines_free(&arch);
	tui_lines_free(&hint);
	tui_lines_free(&det);
	tui_lines_free(&comp);
	return natural;
}

/* ---- fields ------------------------------------------------------------------------------------- */

static const char *const history_id[FF_COUNT] = {
	[FF_MODEL] = "fit.model", [FF_SEQ] = "fit.seq", [FF_BATCH] = "fit.batch",
	[FF_GPUS] = "fit.gpus", [FF_TOKENS] = "fit.tokens", [FF_MFU] = "fit.mfu",
	[FF_BWEFF] = "fit.bweff", [FF_RANK] = "fit.rank", [FF_RES] = "fit.resolution",
	[FF_FRAMES] = "fit.frames", [FF_OVERHEAD] = "fit.overhead", [FF_MARGIN] = "fit.margin",
	[FF_LAYERS] = "fit.layers", [FF_HIDDEN] = "fit.hidden", [FF_HEADS] = "fit.heads",
	[FF_KVHEADS] = "fit.kv_heads", [FF_HEADDIM] = "fit.head_dim", [FF_VOCAB] = "fit.vocab",
	[FF_FFN] = "fit.ffn", [FF_ACTIVE] = "fit.active", [FF_INT4G] = "fit.int4_group",
	[FF_ALLREDUCE] = "fit.allreduce",
};

static void field_hide(struct tui_fit *p, enum tui_ff_id id)
{
	if (p->field[id] != NULL)
		wwidget_hide(&p->field[id]->base);
	p->placed[id] = (struct tui_fit_slot){ 0 };
}

/* Put the text fields' windows where compose() left their slots. */
static void fields_place(struct tui_fit *p)
{
	for (size_t i = 0; i < FF_COUNT; i++) {
		struct wfield *f = p->field[i];
		struct tui_fit_slot s = p->slot[i], *was = &p->placed[i];
		if (f == NULL)
			continue;
		if (!s.on || p->panel->base.win == NULL) {
			field_hide(p, (enum tui_ff_id)i);
			continue;
		}
		if (was->on && was->y == s.y && was->x == s.x && was->w == s.w && f->base.win != NULL)
			continue;
		wwidget_place(&f->base, p->panel->base.y + s.y, p->panel->base.x + s.x, 1, s.w);
		*was = s;
	}
}

/* Copy texts the form replaced (a preset's resolution) into the editors. */
void tui_fit_fields_pull(struct tui_fit *p)
{
	for (size_t i = 0; i < FF_COUNT; i++) {
		if (!p->ff.f[i].text_changed)
			continue;
		p->ff.f[i].text_changed = false;
		if (p->field[i] != NULL)
			wfield_set_text(p->field[i], p->ff.f[i].text);
	}
}

static void focus_field(struct tui_fit *p, enum tui_ff_id id, bool on)
{
	if (p->field[id] != NULL)
		wfield_focus(p->field[id], on);
}

/* Leaving a text field: what it holds goes into its history (as Enter
 * would, through readline's own line handler). */
static void commit_field(struct tui_fit *p, enum tui_ff_id id)
{
	struct wfield *f = p->field[id];
	struct wevent ev = { .type = WEV_KEY, .key = WKEY_RETURN };

	if (f == NULL || !f->base.focused || wfield_text(f)[0] == '\0')
		return;
	wwidget_handle(&f->base, &ev);
}

void tui_fit_move_focus(struct tui_fit *p, enum tui_ff_id to)
{
	if (to == p->cur)
		return;
	commit_field(p, p->cur);
	focus_field(p, p->cur, false);
	p->cur = to;
	if (p->focused)
		focus_field(p, to, true);
}

void tui_fit_step_focus(struct tui_fit *p, int dir)
{
	enum tui_ff_id vis[FF_COUNT];
	size_t n = tui_ff_visible(&p->ff, vis), i;

	for (i = 0; i < n && vis[i] != p->cur; i++)
		;
	if (i == n)
		i = 0;
	else
		i = dir > 0 ? (i + 1) % n : (i + n - 1) % n;
	tui_fit_move_focus(p, vis[i]);
}

/* The focused field must be one that is shown (a method change hides some). */
void tui_fit_keep_focus_shown(struct tui_fit *p)
{
	if (!tui_ff_shown(&p->ff, p->cur))
		tui_fit_move_focus(p, FF_METHOD);
}

/* ---- the job, published ------------------------------------------------------------------------ */

/* The job the tables pull (none while the panel is hidden or has none). */
void tui_fit_publish(struct tui_fit *p)
{
	struct tui_job *j = &p->t->job;
	bool have = p->visible && p->ff.have_job;

	if (have == j->have && (!have || memcmp(&j->job, &p->ff.job, sizeof j->job) == 0))
		return;
	j->have = have;
	if (have)
		j->job = p->ff.job;
	j->gen++;
}

/* ---- layout ------------------------------------------------------------------------------------------ */

static void hide_all(struct tui_fit *p)
{
	p->mode = FM_HIDDEN;
	p->scr.shown = false; /* the stack hides the panel and the fields */
}

/* The panel's height below the table in an area of h lines (< 2: none). */
static int below_height(struct tui_fit *p, int w, int h)
{
	int natural = compose(p, w, -1, false);
	/* being edited, the panel leaves the table a third of the lines (the
	 * header and the cursor row at least; the fields scroll), else
	 * FIT_TABLE_MIN */
	int tmin = p->focused ? (h / 3 < 2 ? 2 : h / 3 > FIT_TABLE_MIN + 1 ? FIT_TABLE_MIN + 1 : h / 3)
			      : FIT_TABLE_MIN;
	int ph = natural;

	if (ph > h - tmin)
		ph = h - tmin;
	if (ph < 2 && p->focused)
		ph = h; /* nothing else fits: the panel alone */
	return ph;
}

/* Take the panel's share of the tables' area: a column on the right from
 * FIT_WIDE_COLS columns, else lines at the bottom. */
static void scr_layout(struct tui_screen *s, struct tui_area *a)
{
	struct tui_fit *p = (struct tui_fit *)s;

	p->ay = a->y;
	p->ax = a->x;
	p->ah = a->h;
	p->aw = a->w;
	if (!p->visible || a->h <= 0 || a->w <= 0) {
		hide_all(p);
		return;
	}
	if (a->w >= FIT_WIDE_COLS) {
		int pw = a->w >= 160 ? FIT_SIDE_W_WIDE : FIT_SIDE_W;
		p->mode = FM_SIDE;
		wwidget_place(&p->panel->base, a->y, a->x + a->w - pw, a->h, pw);
		a->w -= pw;
	} else {
		int ph = below_height(p, a->w, a->h);
		if (ph < 2) {
			hide_all(p);
			return;
		}
		p->mode = FM_BELOW;
		p->placed_h = ph;
		wwidget_place(&p->panel->base, a->y + a->h - ph, a->x, ph, a->w);
		a->h -= ph;
	}
	for (size_t i = 0; i < FF_COUNT; i++)
		p->placed[i].on = false;
}

/* ---- recalc and rendering -------------------------------------------------------------------------------- */

static void scr_recalc(struct tui_screen *s, int64_t now)
{
	struct tui_fit *p = (struct tui_fit *)s;

	(void)now;
	if (!p->visible)
		return;
	tui_fit_fields_pull(p);
	tui_fit_keep_focus_shown(p);
	tui_fit_publish(p);
	if (!s->shown && p->mode != FM_HIDDEN)
		return; /* covered by a page */
	if (p->mode == FM_HIDDEN && p->ah > 0) {
		tui_relayout(p->t);
	} else if (p->mode == FM_BELOW && p->panel->base.win != NULL) {
		/* the content grew or shrank (a method with more fields): share again */
		int want = below_height(p, p->aw, p->ah);
		if (want >= 2 && want != p->placed_h)
			tui_relayout(p->t);
	}
}

/* The lines for the panel's final size, and the fields where they lie. */
static void scr_repaint(struct tui_screen *s)
{
	struct tui_fit *p = (struct tui_fit *)s;

	if (p->panel->base.win == NULL)
		return;
	tui_lines_free(&p->shown_lines);
	p->shown_lines = (struct tui_lines){ .ascii = p->t->ascii };
	compose(p, p->panel->base.w, p->panel->base.h, p->mode == FM_SIDE);
	/* the panel redraws its window only when a line differs (and the
	 * fields over it are copied again then: they come after it) */
	wpanel_begin(p->panel);
	for (size_t i = 0; i < p->shown_lines.n; i++)
		wcells_cat(wpanel_add(p->panel), &p->shown_lines.l[i]);
	wpanel_commit(p->panel);
	fields_place(p);
}

static bool scr_wants_focus(const struct tui_screen *s)
{
	const struct tui_fit *p = (const struct tui_fit *)s;

	return p->visible && p->focused;
}

/* ---- opening, closing -------------------------------------------------------------------------------------- */

void tui_fit_set_focus(struct tui_fit *p, bool on)
{
	if (p->focused == on)
		return;
	if (!on)
		commit_field(p, p->cur);
	p->focused = on;
	focus_field(p, p->cur, on);
	wwidget_dirty(&p->panel->base);
	tui_relayout(p->t);
}

static void scr_notify(struct tui_screen *s, unsigned what)
{
	struct tui_fit *p = (struct tui_fit *)s;

	if (!(what & TN_LANG))
		return;
	/* the form's numbers and messages follow (the lines are composed on
	 * every frame) */
	tui_ff_set_lang(&p->ff, p->t->o->lang);
	wwidget_dirty(&p->panel->base);
	tui_fit_publish(p);
}

static void scr_free(struct tui_screen *s)
{
	struct tui_fit *p = (struct tui_fit *)s;
	struct tui *t = p->t;

	tui_ff_free(&p->ff);
	tui_lines_free(&p->shown_lines);
	if (t->job.have) {
		t->job.have = false;
		t->job.gen++;
	}
}


static const struct tui_keymap keys[] = {
	{ N_("Fit calculator (while it has the keyboard)"), tui_fit_keys, TUI_FIT_N_KEYS },
};

static const struct tui_screen_class fit_class = {
	.name = "fit", .layout = scr_layout, .recalc = scr_recalc, .repaint = scr_repaint,
	.event = tui_fit_screen_event, .notify = scr_notify, .wants_focus = scr_wants_focus,
	.free = scr_free, .keys = keys, .n_keys = 1,
};

static struct tui_fit *fit_new(struct tui *t)
{
	struct tui_fit *p = xcalloc(1, sizeof *p);

	tui_screen_init(&p->scr, &fit_class, t);
	p->panel = (struct wpanel *)tui_screen_add(&p->scr, &wpanel_new(&t->ui)->base);
	p->t = t;
	p->shown_lines.ascii = t->ascii;
	p->sug_y = -1;
	tui_ff_init(&p->ff, t->cat, t->o->lang, t->ascii);
	for (size_t i = 0; i < FF_COUNT; i++) {
		if (tui_ff_kind((enum tui_ff_id)i) != FFK_TEXT)
			continue;
		p->field[i] = (struct wfield *)tui_screen_add(
			&p->scr, &wfield_new_readline(&t->ui, "", p->ff.f[i].text, history_id[i])->base);
	}
	p->cur = FF_MODEL;
	return p;
}

static struct tui_fit *find(struct tui *t)
{
	return (struct tui_fit *)tui_find(t, &fit_class);
}

/* f: show the panel, with the keyboard. */
static void fit_show(struct tui *t)
{
	struct tui_fit *p = find(t);

	if (p == NULL) {
		p = fit_new(t);
		tui_push_under(t, &p->scr);
	}
	if (!p->visible) {
		p->visible = true;
		tui_relayout(t);
	}
	tui_fit_set_focus(p, true);
	tui_fit_publish(p);
}

void tui_fit_toggle(struct tui *t)
{
	struct tui_fit *p = find(t);

	if (p != NULL && p->visible) {
		tui_fit_set_focus(p, false);
		p->visible = false;
		tui_fit_publish(p);
		tui_relayout(t);
	} else {
		fit_show(t);
	}
}

void tui_fit_open(struct tui *t, const struct tui_goto *g)
{
	if (g->toggle)
		tui_fit_toggle(t);
	else
		fit_show(t);
}

