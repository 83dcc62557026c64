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
 * pinned columns stay at the right edge, so → never moves them. The markers
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

/* Whether columns [from, to) fit between start and limit. */
static bool tail_fits(const int *nat, size_t from, size_t to, int start, int limit)
{
	int x = start;

	for (size_t i = from; i < to; i++)
		x += nat[i] + (i > from ? WTABLE_GAP : 0);
	return x <= limit;
}

/* Columns [from, to) side by side from x while they fit before limit. */
static size_t place_run(const int *nat, size_t from, size_t to, int x, int limit,
			struct wtable_layout *out, int *col_x, int *col_w)
{
	size_t end = from;

	for (size_t i = from; i < to; i++) {
		if (x + nat[i] > limit)
			break;
		col_x[i] = x;
		col_w[i] = nat[i];
		out->used = x + nat[i];
		end = i + 1;
		x += nat[i] + WTABLE_GAP;
	}
	return end;
}

size_t wtable_layout(const int *nat, size_t ncols, size_t scroll, int width, int frozen_min,
		     size_t pinned, struct wtable_layout *out, int *col_x, int *col_w)
{
	int fw, cap, start, limit, pin_w = 0;
	size_t send;            /* scrollable columns are [1, send) */

	memset(out, 0, sizeof *out);
	out->width = width;
	out->left_x = out->right_x = out->pin_x = -1;
	out->first = out->end = 1;
	for (size_t i = 0; i < ncols; i++) {
		col_x[i] = -1;
		col_w[i] = 0;
	}
	if (ncols == 0 || width <= 0)
		return 1;
	fw = nat[0] < 1 ? 1 : nat[0];
	if (ncols == 1) {
		if (fw > width)
			fw = width;
		col_x[0] = 0;
		col_w[0] = fw;
		out->frozen_w = fw;
		out->used = fw;
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
	if (!tail_fits(nat, 1, ncols, fw + WTABLE_FROZEN_GAP, width)) {
		/* columns will be hidden: the frozen one earns its width */
		int rel = width * WTABLE_FROZEN_PCT / 100;
		if (rel < frozen_min)
			rel = frozen_min;
		if (rel < WTABLE_MIN_FROZEN)
			rel = WTABLE_MIN_FROZEN;
		if (fw > rel)
			fw = rel;
		/* pinned columns: only with room for them and 6 columns of another */
		if (pinned >= ncols - 1 || tail_fits(nat, 1, ncols, fw + WTABLE_FROZEN_GAP, width))
			pinned = 0;
		for (size_t i = ncols - pinned; i < ncols; i++)
			pin_w += nat[i] + (i > ncols - pinned ? WTABLE_GAP : 0);
		if (pinned > 0 && fw + WTABLE_FROZEN_GAP + 6 + WTABLE_FROZEN_GAP + pin_w > width)
			pinned = 0;
	} else {
		pinned = 0;
	}
	col_x[0] = 0;
	col_w[0] = fw;
	out->frozen_w = fw;
	out->used = fw;
	send = ncols - pinned;
	start = fw + WTABLE_FROZEN_GAP;
	if (pinned > 0) {
		out->pinned = pinned;
		out->pin_x = width - pin_w;
		limit = out->pin_x - WTABLE_FROZEN_GAP; /* " › " before the pinned */
	} else {
		limit = width - 2;                      /* " ›" at the edge */
	}

	if (scroll < 1)
		scroll = 1;
	if (scroll > send - 1)
		scroll = send - 1;
	while (scroll > 1 && tail_fits(nat, scroll - 1, send, start, pinned ? limit : width))
		scroll--;
	out->first = out->end = scroll;
	out->more_left = scroll > 1;
	if (start >= width) {
		/* no room for any other column */
		out->more_right = true;
		return scroll;
	}
	if (out->more_left)
		out->left_x = fw + 1;
	if (!pinned && tail_fits(nat, scroll, send, start, width)) {
		out->end = place_run(nat, scroll, send, start, width, out, col_x, col_w);
		return scroll;
	}
	out->end = place_run(nat, scroll, send, start, limit, out, col_x, col_w);
	if (out->end == scroll && limit - start >= 1) {
		/* the first column alone is too wide: show it cut */
		col_x[scroll] = start;
		col_w[scroll] = limit - start;
		out->used = limit;
		out->end = scroll + 1;
	}
	out->more_right = out->end < send;
	if (pinned > 0) {
		place_run(nat, send, ncols, out->pin_x, width, out, col_x, col_w);
		if (out->more_right)
			out->right_x = out->pin_x - 2;
	} else if (out->more_right) {
		out->right_x = width - 1;
	}
	return scroll;
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

static void relayout(struct wtable *t)
{
	if (t->ncols == 0) {
		memset(&t->lay, 0, sizeof t->lay);
		t->lay.left_x = t->lay.right_x = t->lay.pin_x = -1;
		return;
	}
	t->scroll = wtable_layout(t->nat, t->ncols, t->scroll, t->base.w, t->frozen_min,
				  t->pinned, &t->lay, t->col_x, t->col_w);
}

void wtable_reload(struct wtable *t, bool keep_widths)
{
	size_t nc = ncols_of(t), nr = nrows(t);

	if (nc > t->nat_cap) {
		t->nat = xreallocarray(t->nat, nc, sizeof *t->nat);
		t->col_x = xreallocarray(t->col_x, nc, sizeof *t->col_x);
		t->col_w = xreallocarray(t->col_w, nc, sizeof *t->col_w);
		for (size_t i = t->nat_cap; i < nc; i++)
			t->nat[i] = 0;
		t->nat_cap = nc;
	}
	if (!keep_widths || nc != t->ncols)
		for (size_t i = 0; i < nc; i++)
			t->nat[i] = 0;
	t->ncols = nc;
	for (size_t c = 0; c < nc; c++) {
		int w;
		wcells_reset(&t->tmp);
		if (t->src.header)
			t->src.header(t->src.ctx, c, &t->tmp);
		w = t->tmp.width + 2; /* room for " ▲" */
		for (size_t r = 0; r < nr; r++) {
			wcells_reset(&t->tmp);
			t->src.cell(t->src.ctx, r, c, &t->tmp);
			if (t->tmp.width > w)
				w = t->tmp.width;
		}
		if (w > WTABLE_MAX_COL)
			w = WTABLE_MAX_COL;
		if (w > t->nat[c])
			t->nat[c] = w;
	}
	t->frozen_min = t->src.frozen_min ? t->src.frozen_min(t->src.ctx) : 0;
	t->pinned = t->src.pinned ? t->src.pinned(t->src.ctx) : 0;
	if (t->scroll < 1)
		t->scroll = 1;
	keep_visible(t);
	t->base.dirty = true;
}

/* ---- rendering ------------------------------------------------------------------------ */

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

static const struct wbinding table_bindings[] = {
	{ WKEY_UP, WTABLE_UP, N_("Move up") },
	{ 'k', WTABLE_UP, N_("Move up") },
	{ WKEY_DOWN, WTABLE_DOWN, N_("Move down") },
	{ 'j', WTABLE_DOWN, N_("Move down") },
	{ WKEY_PGUP, WTABLE_PGUP, N_("Page up") },
	{ WKEY_PGDN, WTABLE_PGDN, N_("Page down") },
	{ WKEY_HOME, WTABLE_HOME, N_("First row") },
	{ 'g', WTABLE_HOME, N_("First row") },
	{ WKEY_END, WTABLE_END, N_("Last row") },
	{ 'G', WTABLE_END, N_("Last row") },
	{ WKEY_LEFT, WTABLE_LEFT, N_("Scroll columns left (the GPU column stays)") },
	{ 'h', WTABLE_LEFT, N_("Scroll columns left (the GPU column stays)") },
	{ WKEY_RIGHT, WTABLE_RIGHT, N_("Scroll columns right") },
	{ 'l', WTABLE_RIGHT, N_("Scroll columns right") },
};

static unsigned table_handle(struct wwidget *w, const struct wevent *ev)
{
	struct wtable *t = (struct wtable *)w;

	t->event = WTABLE_EV_NONE;
	if (ev->type == WEV_KEY) {
		const struct wbinding *b = wbinding_find(table_bindings,
			sizeof table_bindings / sizeof table_bindings[0], ev->key);
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
	.bindings = table_bindings,
	.n_bindings = sizeof table_bindings / sizeof table_bindings[0],
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
