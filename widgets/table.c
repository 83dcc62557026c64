/*
 * The table widget: a header line and rows, column 0 frozen on the left, the
 * other columns scrolled sideways one column at a time (the web page's
 * "swipe sideways to see all columns").
 *
 * Layout is a pure function (wtable_layout) of the columns' natural widths,
 * the scroll position and the width, so it is unit-tested without a
 * terminal. A line is laid out as
 *
 *     GPU column   ‹ col  col  col  ›
 *     ^frozen_w    ^ " ‹ " gap        ^ " ›" when columns are hidden right
 *
 * or, with a pinned last column (the price) while columns are hidden:
 *
 *     GPU column   ‹ col  col       ›  Price/h
 *                                   ^ right_x  ^ pin_x = width - its width
 *
 * While columns are hidden the frozen column is cut to a share of the width
 * (not below the floor its owner gives: the GPU names' short form), and
 * toward that floor when its owner says so and that shows another column
 * (the fit job's figures before the architecture after a name; the same
 * width at every scroll), and
 * pinned columns stay at the right edge, so → never moves them; what the
 * scrolled columns leave of the room widens them evenly, so no gap opens
 * before the marker or the pinned columns, and sorting changes no width
 * (a sorted header cut to keep its ▲). The markers
 * are drawn on the header line only. Cells come from the owner's formatter
 * (struct wtable_source; cell_fit when a cell shortens itself better than by
 * cutting its end), are cut or padded to their column, and
 * the cursor row is recoloured (keeping flash roles, so a price that changes
 * under the cursor still flashes). The cursor row's bar ends with the last
 * column rather than at the window's edge: moving the cursor then rewrites
 * only the two rows' text, which keeps one row down small over SSH.
 */
#include "widgets/widgets.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

/* ---- layout (pure) ----------------------------------------------------------- */

static int min_of(const struct wtable_cols *c, size_t i)
{
	return c->min != NULL ? c->min[i] : c->nat[i];
}

/* Columns [from, to) of widths w side by side, gaps between: their width. */
static int run_width(const int *w, size_t from, size_t to)
{
	int x = 0;

	for (size_t i = from; i < to; i++)
		x += w[i] + (i > from ? WTABLE_GAP : 0);
	return x;
}

/* How many of columns [from, to) of widths w fit side by side in room. */
static size_t run_count(const int *w, size_t from, size_t to, int room)
{
	size_t n = 0;

	for (size_t i = from; i < to && run_width(w, from, i + 1) <= room; i++)
		n++;
	return n;
}

/* The widths of [from, to): each its narrowest (min) plus the extra
 * columns spread one at a time, left to right, up to its natural width. */
static void spread(const struct wtable_cols *c, size_t from, size_t to, int extra, int *cw)
{
	bool grew = true;

	for (size_t i = from; i < to; i++)
		cw[i] = min_of(c, i);
	while (extra > 0 && grew) {
		grew = false;
		for (size_t i = from; i < to && extra > 0; i++) {
			if (cw[i] < c->nat[i]) {
				cw[i]++;
				extra--;
				grew = true;
			}
		}
	}
}

/* What is left once [from, to) have their natural widths goes to them
 * evenly (the last ones first take a remainder), so a scrolled row reaches
 * its marker or the pinned columns without a gap. */
static void fill(size_t from, size_t to, int extra, int *cw)
{
	size_t n = to - from;

	if (extra <= 0 || n == 0)
		return;
	for (size_t i = from; i < to; i++)
		cw[i] += extra / (int)n + ((size_t)(to - i) <= (size_t)(extra % (int)n) ? 1 : 0);
}

/* Columns [from, to) of widths cw placed from x. */
static void place(const int *cw, size_t from, size_t to, int x, struct wtable_layout *out,
		  int *col_x, int *col_w)
{
	for (size_t i = from; i < to; i++) {
		col_x[i] = x;
		col_w[i] = cw[i];
		out->used = x + cw[i];
		x += cw[i] + WTABLE_GAP;
	}
}

/* The narrowest widths of every column into cw. */
static void narrowest(const struct wtable_cols *c, int *cw)
{
	for (size_t i = 0; i < c->n; i++)
		cw[i] = min_of(c, i);
}

/* Columns [1, n) side by side at their narrowest: their width. */
static int narrowest_tail(const struct wtable_cols *c)
{
	int x = 0;

	for (size_t i = 1; i < c->n; i++)
		x += min_of(c, i) + (i > 1 ? WTABLE_GAP : 0);
	return x;
}

/* Every column shown, the frozen one fw wide, the others spread over what
 * is left. */
static void layout_all(const struct wtable_cols *c, int fw, int width, struct wtable_layout *out,
		       int *col_x, int *col_w)
{
	int start = fw + WTABLE_FROZEN_GAP;

	col_x[0] = 0;
	out->frozen_w = out->used = fw;
	spread(c, 1, c->n, width - start - narrowest_tail(c), col_w);
	col_w[0] = fw;
	place(col_w, 1, c->n, start, out, col_x, col_w);
	out->end = c->n;
}

/* The width of column 0 while others are hidden: cut to a share of the
 * width, not below its floor. */
static int frozen_share(const struct wtable_cols *c, int fw, int width)
{
	int rel = width * WTABLE_FROZEN_PCT / 100;

	if (rel < c->frozen_min)
		rel = c->frozen_min;
	if (rel < WTABLE_MIN_FROZEN)
		rel = WTABLE_MIN_FROZEN;
	return fw > rel ? rel : fw;
}

/* The pinned columns that fit (with the frozen one and 6 columns of
 * another), and their width into *pin_w. */
static size_t pinned_fit(const struct wtable_cols *c, int fw, int width, int *pin_w)
{
	size_t pinned = c->pinned;

	*pin_w = 0;
	if (pinned >= c->n - 1)
		return 0;
	*pin_w = run_width(c->nat, c->n - pinned, c->n);
	if (pinned > 0 && fw + WTABLE_FROZEN_GAP + 6 + WTABLE_FROZEN_GAP + *pin_w > width)
		return 0;
	return pinned;
}

/* Scrolled: columns from `scroll` on as many as fit before limit (at their
 * narrowest, then spread up to their natural widths); a first column too
 * wide for the room is cut if it is text, dropped if it is a number
 * (floor: its widest cell). */
static void layout_run(const struct wtable_cols *c, size_t scroll, size_t send, int start,
		       int limit, struct wtable_layout *out, int *cw, int *col_x, int *col_w)
{
	size_t n;

	narrowest(c, cw);
	n = run_count(cw, scroll, send, limit - start);
	out->end = scroll + n;
	if (n > 0) {
		spread(c, scroll, scroll + n, limit - start - run_width(cw, scroll, scroll + n), cw);
		fill(scroll, scroll + n, limit - start - run_width(cw, scroll, scroll + n), cw);
		place(cw, scroll, scroll + n, start, out, col_x, col_w);
	} else if (limit - start >= 1 &&
		   limit - start >= (c->floor != NULL ? c->floor[scroll] : 1)) {
		col_x[scroll] = start;
		col_w[scroll] = limit - start;
		out->used = limit;
		out->end = scroll + 1;
	}
}

/* The frozen column's width while others are hidden: its share fw, or
 * where its owner lets it yield, less what lets more columns of the first
 * page show (at their narrowest in [start, limit)), not below the floor
 * its owner gives. Computed for the first page, so → never changes it. */
static int frozen_yield(const struct wtable_cols *c, const int *cw, size_t send, int fw,
			int start, int limit)
{
	int floor = c->frozen_min > WTABLE_MIN_FROZEN ? c->frozen_min : WTABLE_MIN_FROZEN;
	size_t n;

	if (!c->frozen_yields || c->frozen_min <= 0 || send <= 1)
		return fw;
	n = run_count(cw, 1, send, limit - start);
	while (1 + n < send) {
		int need = run_width(cw, 1, 2 + n) - (limit - start);
		if (fw - need < floor)
			break;
		fw -= need;
		start -= need;
		n++;
	}
	return fw;
}

/* Not every column fits: column 0 cut to its share (less what shows one
 * more column), the last `pinned` at the right edge, the others scrolled. */
static size_t layout_scrolled(const struct wtable_cols *c, size_t scroll, int fw, int width,
			      struct wtable_layout *out, int *col_x, int *col_w)
{
	int pin_w, start, limit, *cw = xcalloc(c->n, sizeof *cw);
	size_t pinned = pinned_fit(c, fw, width, &pin_w), send = c->n - pinned;

	/* " › " before the pinned columns, " ›" at the edge without */
	limit = pinned > 0 ? width - pin_w - WTABLE_FROZEN_GAP : width - 2;
	narrowest(c, cw);
	fw = frozen_yield(c, cw, send, fw, fw + WTABLE_FROZEN_GAP, limit);
	col_x[0] = 0;
	col_w[0] = out->frozen_w = out->used = fw;
	start = fw + WTABLE_FROZEN_GAP;
	if (pinned > 0) {
		out->pinned = pinned;
		out->pin_x = width - pin_w;
	}
	scroll = scroll < 1 ? 1 : scroll > send - 1 ? send - 1 : scroll;
	/* pulled left while the columns before it fit too */
	while (scroll > 1 && run_width(cw, scroll - 1, send) <= (pinned ? limit : width) - start)
		scroll--;
	out->first = out->end = scroll;
	out->more_left = scroll > 1;
	if (start >= width) {
		out->more_right = true;  /* no room for any other column */
		free(cw);
		return scroll;
	}
	if (out->more_left)
		out->left_x = fw + 1;
	if (!pinned && run_width(cw, scroll, send) <= width - start)
		limit = width;           /* the rest fits: no marker */
	layout_run(c, scroll, send, start, limit, out, cw, col_x, col_w);
	out->more_right = out->end < send;
	if (pinned > 0) {
		place(c->nat, send, c->n, out->pin_x, out, col_x, col_w);
		if (out->more_right)
			out->right_x = out->pin_x - 2;
	} else if (out->more_right) {
		out->right_x = width - 1;
	}
	free(cw);
	return scroll;
}

size_t wtable_layout(const struct wtable_cols *c, size_t scroll, int width,
		     struct wtable_layout *out, int *col_x, int *col_w)
{
	int fw, cap, room, floor;

	memset(out, 0, sizeof *out);
	out->width = width;
	out->left_x = out->right_x = out->pin_x = -1;
	out->first = out->end = 1;
	for (size_t i = 0; i < c->n; i++) {
		col_x[i] = -1;
		col_w[i] = 0;
	}
	if (c->n == 0 || width <= 0)
		return 1;
	fw = c->nat[0] < 1 ? 1 : c->nat[0];
	if (c->n == 1) {
		col_x[0] = 0;
		col_w[0] = out->frozen_w = out->used = fw > width ? width : fw;
		return 1;
	}
	/* the frozen column leaves at least 8 columns (or half) to the others */
	cap = width - WTABLE_FROZEN_GAP - 8;
	if (cap < width / 2)
		cap = width / 2;
	if (cap < WTABLE_MIN_FROZEN)
		cap = WTABLE_MIN_FROZEN < width ? WTABLE_MIN_FROZEN : width;
	if (fw > cap)
		fw = cap;
	/* every column shown when they fit at their narrowest, the frozen one
	 * cut if need be, down to its floor (the names' short form) or, without
	 * one, to its share */
	room = width - WTABLE_FROZEN_GAP - narrowest_tail(c);
	if (room >= fw) {
		layout_all(c, fw, width, out, col_x, col_w);
		return 1;
	}
	floor = c->frozen_min > 0 ? c->frozen_min : frozen_share(c, fw, width);
	if (floor < WTABLE_MIN_FROZEN)
		floor = WTABLE_MIN_FROZEN;
	if (room >= floor) {
		layout_all(c, room, width, out, col_x, col_w);
		return 1;
	}
	return layout_scrolled(c, scroll, frozen_share(c, fw, width), width, out, col_x, col_w);
}

/* ---- state ------------------------------------------------------------------------ */

static size_t nrows(const struct wtable *t)
{
	return t->src.rows ? t->src.rows(t->src.ctx) : 0;
}

static size_t ncols_of(const struct wtable *t)
{
	return t->src.cols ? t->src.cols(t->src.ctx) : 0;
}

static enum walign col_align(const struct wtable *t, size_t col)
{
	return t->src.align ? t->src.align(t->src.ctx, col) : WALIGN_LEFT;
}

int wtable_page(const struct wtable *t)
{
	int p = t->base.h - 1;
	return p < 1 ? 1 : p;
}

static void keep_visible(struct wtable *t)
{
	size_t n = nrows(t);
	size_t page = (size_t)wtable_page(t);

	if (n == 0) {
		t->sel = t->top = 0;
		return;
	}
	if (t->sel >= n)
		t->sel = n - 1;
	if (t->sel < t->top)
		t->top = t->sel;
	if (t->sel >= t->top + page)
		t->top = t->sel - page + 1;
	/* no empty space below the last row when the rows could fill it */
	if (n >= page && t->top > n - page)
		t->top = n - page;
	if (n < page)
		t->top = 0;
}

/* The narrowest widths for the layout, the same sorted or not (sorting
 * never moves a column: a sorted header without room for its indicator is
 * cut to keep it); a right-aligned column (a number) is never cut. */
static void narrow_widths(struct wtable *t)
{
	for (size_t c = 0; c < t->ncols; c++) {
		int m = t->head_w[c];
		if (m < t->cell_w[c])
			m = t->cell_w[c];
		t->min[c] = m > t->nat[c] ? t->nat[c] : m;
		t->floor[c] = col_align(t, c) == WALIGN_RIGHT ? t->cell_w[c] : 1;
	}
}

static void relayout(struct wtable *t)
{
	struct wtable_cols c = { .nat = t->nat, .min = t->min, .floor = t->floor, .n = t->ncols,
				 .frozen_min = t->frozen_min, .frozen_yields = t->frozen_yields,
				 .pinned = t->pinned };

	if (t->ncols == 0) {
		memset(&t->lay, 0, sizeof t->lay);
		t->lay.left_x = t->lay.right_x = t->lay.pin_x = -1;
		return;
	}
	narrow_widths(t);
	t->scroll = wtable_layout(&c, t->scroll, t->base.w, &t->lay, t->col_x, t->col_w);
}

static void grow(struct wtable *t, size_t nc)
{
	int **arrays[] = { &t->nat, &t->min, &t->floor, &t->head_w, &t->cell_w, &t->col_x, &t->col_w };

	if (nc <= t->nat_cap)
		return;
	for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++) {
		*arrays[a] = xreallocarray(*arrays[a], nc, sizeof **arrays[a]);
		for (size_t i = t->nat_cap; i < nc; i++)
			(*arrays[a])[i] = 0;
	}
	t->nat_cap = nc;
}

void wtable_reload(struct wtable *t, bool keep_widths)
{
	size_t nc = ncols_of(t), nr = nrows(t);

	grow(t, nc);
	if (!keep_widths || nc != t->ncols)
		for (size_t i = 0; i < nc; i++)
			t->nat[i] = t->head_w[i] = t->cell_w[i] = 0;
	t->ncols = nc;
	int cap = t->max_col > 0 ? t->max_col : WTABLE_MAX_COL;
	for (size_t c = 0; c < nc; c++) {
		int hw = 0, cw = 0;
		wcells_reset(&t->tmp);
		if (t->src.header)
			t->src.header(t->src.ctx, c, &t->tmp);
		hw = t->tmp.width;
		for (size_t r = 0; r < nr; r++) {
			wcells_reset(&t->tmp);
			t->src.cell(t->src.ctx, r, c, &t->tmp);
			if (t->tmp.width > cw)
				cw = t->tmp.width;
		}
		/* (never narrower than before with keep_widths: no jitter) */
		if (hw > t->head_w[c])
			t->head_w[c] = hw > cap ? cap : hw;
		if (cw > t->cell_w[c])
			t->cell_w[c] = cw > cap ? cap : cw;
		int w = hw + 2 > cw ? hw + 2 : cw; /* room for " ▲" */
		if (w > cap)
			w = cap;
		if (w > t->nat[c])
			t->nat[c] = w;
	}
	t->frozen_min = t->src.frozen_min ? t->src.frozen_min(t->src.ctx) : 0;
	t->frozen_yields = t->src.frozen_yields ? t->src.frozen_yields(t->src.ctx) : false;
	t->pinned = t->src.pinned ? t->src.pinned(t->src.ctx) : 0;
	if (t->scroll < 1)
		t->scroll = 1;
	keep_visible(t);
	t->base.dirty = true;
}

/* ---- rendering ------------------------------------------------------------------------ */

void wtable_set_bindings(struct wtable *t, const struct wbinding *map, size_t n)
{
	t->keys = map;
	t->n_keys = map != NULL ? n : 0;
}

void wtable_render_line(struct wtable *t, size_t row, int width, struct wcells *out)
{
	bool header = row == SIZE_MAX;
	bool selected = !header && row == t->sel;
	enum wrole base = header ? WR_HEADER : WR_NORMAL;
	static const enum wrole keep[] = { WR_FLASH, WR_FLASH_UP, WR_FLASH_DOWN };

	wcells_reset(out);
	out->ascii = t->base.ui->ascii;
	t->tmp.ascii = out->ascii;
	if (t->lay.width != width || t->lay.first != t->scroll) {
		int saved = t->base.w;
		t->base.w = width;
		relayout(t);
		t->base.w = saved;
	}
	bool marked = false;    /* the › marker is drawn */
	for (size_t c = 0; c < t->ncols; c++) {
		int cx = t->col_x[c], cw = t->col_w[c];
		if (cx < 0 || cw <= 0)
			continue;
		/* the gap before this column */
		if (out->width < cx) {
			if (c == t->lay.first && t->lay.more_left && header) {
				wcells_pad(out, t->lay.left_x - out->width, base);
				wcells_add_sym(out, WSYM_MORE_LEFT, WR_MARKER, 0);
			}
			if (header && t->lay.more_right && !marked && t->lay.right_x < cx &&
			    t->lay.right_x >= out->width) {
				/* columns hidden before the pinned ones */
				wcells_pad(out, t->lay.right_x - out->width, base);
				wcells_add_sym(out, WSYM_MORE_RIGHT, WR_MARKER, 0);
				marked = true;
			}
			wcells_pad(out, cx - out->width, base);
		}
		wcells_reset(&t->tmp);
		if (header) {
			enum wrole r = (int)c == t->sort_col ? WR_HEADER_SORT : WR_HEADER;
			if (t->src.header)
				t->src.header(t->src.ctx, c, &t->tmp);
			wcells_recolor(&t->tmp, r, NULL, 0);
			if ((int)c == t->sort_col) {
				wcells_pad(&t->tmp, 1, r);
				wcells_add_sym(&t->tmp, t->sort_desc ? WSYM_SORT_DOWN : WSYM_SORT_UP, r, 0);
			}
			/* a cut header keeps its indicator visible */
			if (t->tmp.width > cw && (int)c == t->sort_col && cw >= 3) {
				struct wcells ind;
				wcells_init(&ind, out->ascii);
				wcells_fit(&t->tmp, cw - 2, WALIGN_LEFT, r);
				wcells_pad(&ind, 1, r);
				wcells_add_sym(&ind, t->sort_desc ? WSYM_SORT_DOWN : WSYM_SORT_UP, r, 0);
				wcells_cat(&t->tmp, &ind);
				wcells_free(&ind);
			}
			wcells_fit(&t->tmp, cw, col_align(t, c), r);
		} else {
			if (t->src.cell_fit != NULL)
				t->src.cell_fit(t->src.ctx, row, c, cw, &t->tmp);
			else
				t->src.cell(t->src.ctx, row, c, &t->tmp);
			wcells_fit(&t->tmp, cw, col_align(t, c), base);
		}
		wcells_cat(out, &t->tmp);
	}
	if (header) {
		if (t->lay.more_right && !marked && t->lay.right_x >= out->width) {
			wcells_pad(out, t->lay.right_x - out->width, base);
			wcells_add_sym(out, WSYM_MORE_RIGHT, WR_MARKER, 0);
		}
		if (out->width < width)
			wcells_pad(out, width - out->width, base);
	}
	if (selected)
		wcells_recolor(out, WR_SELECTED, keep, sizeof keep / sizeof keep[0]);
	if (out->width > width)
		wcells_fit(out, width, WALIGN_LEFT, base);
}

static void table_draw(struct wwidget *w)
{
	struct wtable *t = (struct wtable *)w;
	size_t n = nrows(t);

	relayout(t);
	keep_visible(t);
	wtable_render_line(t, SIZE_MAX, w->w, &t->line);
	wcells_draw(&t->line, w->win, 0, 0, w->w, w->ui);
	for (int y = 1; y < w->h; y++) {
		size_t r = t->top + (size_t)(y - 1);
		if (r >= n)
			break;
		wtable_render_line(t, r, w->w, &t->line);
		wcells_draw(&t->line, w->win, y, 0, w->w, w->ui);
	}
	if (n == 0 && t->empty_text != NULL && w->h > 1 && w->w > 0) {
		/* wrapped to the width, centred, as many lines as the body has */
		char **lines;
		size_t nl = wtext_wrap(t->empty_text, w->w, w->ui->ascii, &lines);
		int body = w->h - 1, y0 = 1 + (body - (int)nl) / 2;
		if (y0 < 1)
			y0 = 1;
		for (size_t i = 0; i < nl && y0 + (int)i < w->h; i++) {
			wcells_reset(&t->line);
			t->line.ascii = w->ui->ascii;
			wcells_add(&t->line, lines[i], WR_DIM, 0);
			wcells_fit(&t->line, w->w, WALIGN_CENTER, WR_NORMAL);
			wcells_draw(&t->line, w->win, y0 + (int)i, 0, w->w, w->ui);
		}
		if (nl > 0)
			wtext_lines_free(lines, nl);
	}
}

/* ---- actions ---------------------------------------------------------------------------- */

void wtable_select(struct wtable *t, size_t row)
{
	size_t n = nrows(t);

	t->sel = n == 0 ? 0 : (row >= n ? n - 1 : row);
	keep_visible(t);
	t->base.dirty = true;
}

void wtable_set_sort(struct wtable *t, int col, bool desc)
{
	if (t->sort_col != col || t->sort_desc != desc) {
		t->sort_col = col;
		t->sort_desc = desc;
		t->lay.width = -1; /* its header changed */
		t->base.dirty = true;
	}
}

void wtable_set_scroll(struct wtable *t, size_t col)
{
	t->scroll = col < 1 ? 1 : col;
	t->base.dirty = true;
}

void wtable_show_column(struct wtable *t, size_t col)
{
	relayout(t);
	if (col == 0 || col >= t->ncols || t->col_w[col] > 0)
		return; /* the frozen, a pinned or a shown column */
	if (col < t->lay.first) {
		t->scroll = col;
	} else {
		/* the smallest scroll that shows col */
		for (size_t guard = 0; t->scroll < col && guard < t->ncols; guard++) {
			t->scroll++;
			relayout(t);
			if (t->col_w[col] > 0)
				break;
		}
	}
	relayout(t);
	t->base.dirty = true;
}

void wtable_set_empty_text(struct wtable *t, const char *text)
{
	free(t->empty_text);
	t->empty_text = text ? xstrdup(text) : NULL;
	t->base.dirty = true;
}

int wtable_column_at(const struct wtable *t, int x)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (t->col_x[c] >= 0 && x >= t->col_x[c] && x < t->col_x[c] + t->col_w[c])
			return (int)c;
	return -1;
}

static unsigned move_to(struct wtable *t, long target)
{
	size_t n = nrows(t), old = t->sel;

	if (n == 0)
		return W_HANDLED;
	if (target < 0)
		target = 0;
	if ((size_t)target >= n)
		target = (long)n - 1;
	t->sel = (size_t)target;
	keep_visible(t);
	if (t->sel == old)
		return W_HANDLED;
	t->base.dirty = true;
	return W_HANDLED | W_REDRAW | W_SELECT;
}

unsigned wtable_do(struct wtable *t, enum wtable_action a)
{
	long page = wtable_page(t);

	relayout(t);
	switch (a) {
	case WTABLE_UP: return move_to(t, (long)t->sel - 1);
	case WTABLE_DOWN: return move_to(t, (long)t->sel + 1);
	case WTABLE_PGUP: return move_to(t, (long)t->sel - page);
	case WTABLE_PGDN: return move_to(t, (long)t->sel + page);
	case WTABLE_HOME: return move_to(t, 0);
	case WTABLE_END: return move_to(t, (long)nrows(t) - 1);
	case WTABLE_LEFT:
		if (t->scroll <= 1 || !t->lay.more_left)
			return W_HANDLED;
		t->scroll--;
		t->base.dirty = true;
		return W_HANDLED | W_REDRAW;
	case WTABLE_RIGHT:
		if (!t->lay.more_right)
			return W_HANDLED;
		t->scroll = t->lay.first + 1;
		t->base.dirty = true;
		return W_HANDLED | W_REDRAW;
	case WTABLE_ACTIVATE:
		if (nrows(t) == 0)
			return W_HANDLED;
		t->event = WTABLE_EV_ACTIVATE;
		return W_HANDLED | W_ACTION;
	}
	return W_IGNORED;
}

const struct wbinding wtable_bindings[WTABLE_N_BINDINGS] = {
	{ WKEY_UP, WTABLE_UP, N_("Move up"), NULL, "up" },
	{ 'k', WTABLE_UP, N_("Move up"), NULL, "up" },
	{ WKEY_DOWN, WTABLE_DOWN, N_("Move down"), NULL, "down" },
	{ 'j', WTABLE_DOWN, N_("Move down"), NULL, "down" },
	{ WKEY_PGUP, WTABLE_PGUP, N_("Page up"), NULL, "page-up" },
	{ WKEY_PGDN, WTABLE_PGDN, N_("Page down"), NULL, "page-down" },
	{ WKEY_HOME, WTABLE_HOME, N_("First row"), NULL, "first" },
	{ 'g', WTABLE_HOME, N_("First row"), NULL, "first" },
	{ WKEY_END, WTABLE_END, N_("Last row"), NULL, "last" },
	{ 'G', WTABLE_END, N_("Last row"), NULL, "last" },
	{ WKEY_LEFT, WTABLE_LEFT, N_("Scroll columns left (the GPU column stays)"), NULL, "left" },
	{ 'h', WTABLE_LEFT, N_("Scroll columns left (the GPU column stays)"), NULL, "left" },
	{ WKEY_RIGHT, WTABLE_RIGHT, N_("Scroll columns right"), NULL, "right" },
	{ 'l', WTABLE_RIGHT, N_("Scroll columns right"), NULL, "right" },
};

static unsigned table_handle(struct wwidget *w, const struct wevent *ev)
{
	struct wtable *t = (struct wtable *)w;

	t->event = WTABLE_EV_NONE;
	if (ev->type == WEV_KEY) {
		const struct wbinding *b = t->keys != NULL ? wbinding_find(t->keys, t->n_keys, ev->key)
			: wbinding_find(wtable_bindings, WTABLE_N_BINDINGS, ev->key);
		if (b == NULL)
			return W_IGNORED;
		return wtable_do(t, (enum wtable_action)b->action);
	}
	if (ev->type != WEV_MOUSE)
		return W_IGNORED;
	if (ev->mouse == WM_WHEEL_UP)
		return move_to(t, (long)t->sel - 3);
	if (ev->mouse == WM_WHEEL_DOWN)
		return move_to(t, (long)t->sel + 3);
	if (!wwidget_contains(w, ev->y, ev->x))
		return W_IGNORED;
	int lx = ev->x - w->x, ly = ev->y - w->y;
	relayout(t);
	if (ly == 0) {
		if (t->lay.more_left && lx >= t->lay.left_x - 1 && lx <= t->lay.left_x + 1)
			return wtable_do(t, WTABLE_LEFT);
		if (t->lay.more_right && lx >= t->lay.right_x - 1 && lx <= t->lay.right_x + 1)
			return wtable_do(t, WTABLE_RIGHT);
		int c = wtable_column_at(t, lx);
		if (c < 0)
			return W_HANDLED;
		t->event = WTABLE_EV_HEADER_CLICK;
		t->event_col = (size_t)c;
		return W_HANDLED | W_ACTION;
	}
	size_t r = t->top + (size_t)(ly - 1);
	if (r >= nrows(t))
		return W_HANDLED;
	unsigned res = move_to(t, (long)r);
	if (ev->mouse == WM_DOUBLE) {
		t->event = WTABLE_EV_ACTIVATE;
		res |= W_ACTION;
	}
	return res;
}

static void table_destroy(struct wwidget *w)
{
	struct wtable *t = (struct wtable *)w;

	free(t->nat);
	free(t->min);
	free(t->floor);
	free(t->head_w);
	free(t->cell_w);
	free(t->col_x);
	free(t->col_w);
	free(t->empty_text);
	wcells_free(&t->tmp);
	wcells_free(&t->line);
}

static const struct wwidget_class table_class = {
	.name = "table",
	.draw = table_draw,
	.handle = table_handle,
	.destroy = table_destroy,
	.bindings = wtable_bindings,
	.n_bindings = WTABLE_N_BINDINGS,
};

struct wtable *wtable_new(const struct wui *ui, const struct wtable_source *src)
{
	struct wtable *t = xcalloc(1, sizeof *t);

	wwidget_init(&t->base, &table_class, ui);
	t->src = *src;
	t->sort_col = -1;
	t->scroll = 1;
	wcells_init(&t->tmp, ui->ascii);
	wcells_init(&t->line, ui->ascii);
	t->lay.left_x = t->lay.right_x = t->lay.pin_x = -1;
	wtable_reload(t, false);
	return t;
}

void wtable_free(struct wtable **t)
{
	struct wwidget *w = *t ? &(*t)->base : NULL;

	wwidget_free(&w);
	*t = NULL;
}
