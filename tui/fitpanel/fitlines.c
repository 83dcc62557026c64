/*
 * The fit panel's lines, composed for a given size (tui/fitpanel/fitpanel.h,
 * tui_fit_compose): the fields block (a grid of cells below the table, a
 * column beside it; the slots where the text fields' windows go), the
 * title, the hints, and the answer for the row under the tables' cursor
 * (tui/fitpanel/fitanswer.c); what does not fit is given up in a fixed
 * order (blank line, detailed answer → compact, architecture, hints, then
 * the fields scroll around the focused one; lines left over go back to the
 * answer). Pure but for the panel's state: no curses window is touched.
 */
#include "tui/fitpanel/fitpanel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

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
	/* the method a preset brought, or what Enter would do: never silent */
	for (size_t j = 0; j < k; j++)
		if (vis[j] == FF_MODEL && p->ff.model_note != NULL && !show_error(p, FF_MODEL))
			tui_lines_wrap(&b->ls, p->ff.model_note, w, 2, WR_HEADER, 2);
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
	char *keys;

	wcells_add(c, " ", WR_HEADER, 0);
	wcells_add(c, _("Fit calculator"), WR_HEADER, WAT_BOLD);
	if (v != NULL && v->sort_cheapest) {
		wcells_add(c, sep, WR_HEADER, 0);
		wcells_add(c, _("sorted: cheapest per hour"), WR_HEADER, 0);
	}
	wcells_add(c, sep, WR_HEADER, 0);
	/* TRANSLATORS: the fit panel's keys as bound: next field (Tab), back to the
	   table (Esc), hide (F4) */
	keys = p->focused ? tui_key_text(p->t, _("%s \u2191\u2193 fields, \u2190\u2192 choices, "
						  "%s table, %s hide"), "next-field", "back",
					 "fit-hide", NULL)
	/* TRANSLATORS: the fit panel's keys as bound: edit (f), hide (F4), cheapest ($), buy (b) */
			   : tui_key_text(p->t, _("%s edit, %s hide, %s cheapest, %s buy"), "fit",
					  "fit-toggle", "cheapest", "buy", NULL);
	wcells_add(c, keys, WR_HEADER, 0);
	free(keys);
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
int tui_fit_compose(struct tui_fit *p, int w, int h, bool side)
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

