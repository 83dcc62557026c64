/*
 * The browse screen: one tab per workload, each a view/ table (built when
 * first shown) drawn by the table widget through a small adapter — the
 * adapter is the pure row formatter: it turns a view cell (display text and
 * flags) into cells with roles: "not published" and stale prices dim, fits
 * ✓ green and ✗ red, a price that just changed in the flash roles, the GPU's
 * architecture dim after its name.
 *
 * The cursor follows its GPU, not its row number: before anything reorders
 * or filters the rows the GPU under the cursor is noted (browse_note_cursor),
 * and afterwards the table's cursor is put back on it (view_find).
 *
 * Which columns a tab shows, and in which order, is a list of column ids
 * (remembered in the config file); the GPU column is always first, and
 * "your model" columns (fit panel) follow it whenever the view has them; the
 * price, what a buyer compares first, is always last and always shown
 * (fixed in the column chooser, as the GPU column is): whatever else is
 * chosen, it stays pinned at the right edge while the others scroll (the
 * GPU column's twin on the left).
 *
 * When columns are hidden the GPU column earns its width: the table cuts it
 * to a share of the terminal, and the formatter cuts the architecture first
 * ("B300 Blackwell U…", then "B300"), the name only after it and never below
 * its short form ("RTX PRO 6000…", view_gpu_short_width).
 *
 * The tabs carry each workload's title and its short title (data/
 * workloads.json); the tabs widget picks what fits.
 */
#include "tui/market/browse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

static void publish_sel(struct tui_browse *b);

enum { SPARK_PIN_COLS = 100 };

static struct tui_tab *cur_tab(struct tui_browse *b)
{
	return &b->tab[b->cur];
}

/* ---- the table source: the pure row formatter ------------------------------------------ */

static size_t src_rows(void *ctx)
{
	struct tui_browse *b = ctx;
	struct tui_tab *tb = cur_tab(b);
	return tb->view ? tb->view->n_shown : 0;
}

static size_t src_cols(void *ctx)
{
	struct tui_browse *b = ctx;
	return cur_tab(b)->view ? cur_tab(b)->n_vis : 0;
}

static void src_header(void *ctx, size_t col, struct wcells *out)
{
	struct tui_browse *b = ctx;
	struct tui_tab *tb = cur_tab(b);
	wcells_add(out, tb->view->columns[tb->vis[col]].label, WR_HEADER, 0);
}

static enum walign src_align(void *ctx, size_t col)
{
	struct tui_browse *b = ctx;
	struct tui_tab *tb = cur_tab(b);
	switch (tb->view->columns[tb->vis[col]].align) {
	case VIEW_RIGHT: return WALIGN_RIGHT;
	case VIEW_CENTER: return WALIGN_CENTER;
	default: return WALIGN_LEFT;
	}
}

static size_t gpu_index(const struct tui_browse *b, const struct catalog_gpu *g)
{
	struct tui *t = b->base.t;
	return (size_t)(g - t->cat->gpus);
}

void tui_format_cell(const struct view_table *v, size_t shown_row, size_t column, int flash,
		     struct wcells *out)
{
	tui_format_cell_fit(v, shown_row, column, flash, -1, out);
}

void tui_format_cell_fit(const struct view_table *v, size_t shown_row, size_t column, int flash,
			 int width, struct wcells *out)
{
	const struct view_row *r = view_shown_row(v, shown_row);
	const struct view_column *vc = &v->columns[column];
	const struct view_cell *c = &r->cells[column];
	enum wrole role = WR_NORMAL;

	if (c->flags & (VIEW_CELL_UNKNOWN | VIEW_CELL_STALE))
		role = WR_DIM;
	else if (vc->kind == VIEW_COL_JOB_FITS)
		role = c->flag ? WR_GOOD : WR_BAD;
	else if ((vc->kind == VIEW_COL_CHANGE || vc->kind == VIEW_COL_SPARK) &&
		 c->raw == VIEW_RAW_NUMBER && c->number != 0)
		/* the colour repeats what ▲/▼ and the sign say */
		role = c->number > 0 ? WR_GOOD : WR_BAD;
	if (r->flags & VIEW_ROW_DIMMED)
		role = WR_DIM;
	if ((vc->kind == VIEW_COL_PRICE || vc->kind == VIEW_COL_JOB_COST) &&
	    !(c->flags & VIEW_CELL_STALE) && flash != 0)
		role = flash == 2 ? WR_FLASH : flash > 0 ? WR_FLASH_UP : WR_FLASH_DOWN;
	wcells_add(out, c->display, role, 0);
	if (vc->kind == VIEW_COL_GPU && c->detail != NULL) {
		/* the architecture after the name, cut first; dropped when no
		 * more than "Hop…" of it would show */
		int room = width - out->width - 1;
		struct wcells d;

		if (width >= 0 && room < 4)
			return;
		wcells_init(&d, out->ascii);
		wcells_add(&d, c->detail, WR_DIM, 0);
		if (width >= 0 && d.width > room)
			wcells_fit(&d, room, WALIGN_LEFT, WR_DIM);
		wcells_pad(out, 1, role);
		wcells_cat(out, &d);
		wcells_free(&d);
	}
}

/* While GPUs are marked, the GPU column starts with the mark ("●",
 * ASCII "*") or a blank; while the watchlist has GPUs, with the star of
 * those on it ("★", ASCII "+") or a blank; then a blank. Its width is
 * theirs less. */
static int mark_prefix(struct tui_browse *b, size_t col, const struct view_row *r,
		       struct wcells *out)
{
	int w = 0;

	if (col != 0 || (b->n_marks == 0 && b->n_watch == 0))
		return 0;
	if (b->n_marks > 0) {
		if (browse_is_marked(b, r->gpu->id))
			wcells_add(out, out->ascii ? "*" : "\u25cf", WR_GOOD, WAT_BOLD);
		else
			wcells_pad(out, 1, WR_NORMAL);
		w++;
	}
	if (b->n_watch > 0) {
		if (browse_is_watched(b, r->gpu->id))
			wcells_add(out, out->ascii ? "+" : "\u2605", WR_FLASH, WAT_BOLD);
		else
			wcells_pad(out, 1, WR_NORMAL);
		w++;
	}
	wcells_pad(out, 1, WR_NORMAL);
	return w + 1;
}

static void src_cell(void *ctx, size_t row, size_t col, struct wcells *out)
{
	struct tui_browse *b = ctx;
	struct tui_tab *tb = cur_tab(b);
	const struct view_row *r = view_shown_row(tb->view, row);
	int flash = tui_flash(b->base.t, gpu_index(b, r->gpu), util_now_ms());
	struct wcells x;

	if (mark_prefix(b, col, r, out) == 0) {
		tui_format_cell(tb->view, row, tb->vis[col], flash, out);
		return;
	}
	wcells_init(&x, out->ascii);
	tui_format_cell(tb->view, row, tb->vis[col], flash, &x);
	wcells_cat(out, &x);
	wcells_free(&x);
}

static void src_cell_fit(void *ctx, size_t row, size_t col, int width, struct wcells *out)
{
	struct tui_browse *b = ctx;
	struct tui_tab *tb = cur_tab(b);
	const struct view_row *r = view_shown_row(tb->view, row);
	int flash = tui_flash(b->base.t, gpu_index(b, r->gpu), util_now_ms());
	int pre = mark_prefix(b, col, r, out);
	struct wcells x;

	wcells_init(&x, out->ascii);
	tui_format_cell_fit(tb->view, row, tb->vis[col], flash, width - pre, &x);
	wcells_cat(out, &x);
	wcells_free(&x);
}

/* The GPU column is cut no narrower than the widest short form of a name. */
static int src_frozen_min(void *ctx)
{
	struct tui_browse *b = ctx;
	const struct view_table *v = cur_tab(b)->view;
	size_t m = 0;

	for (size_t i = 0; v != NULL && i < v->n_rows; i++) {
		size_t w = view_gpu_short_width(v->rows[i].gpu);
		if (w > m)
			m = w;
	}
	return (int)m;
}

/* With the fit job's columns the GPU column gives way (to its names'
 * short form) where that shows another of them: at 80 columns whether the
 * job fits, beside the price, before the architecture after a name. */
static bool src_frozen_yields(void *ctx)
{
	struct tui_browse *b = ctx;
	const struct view_table *v = cur_tab(b)->view;

	return v != NULL && v->has_job;
}

/* The price column (last unless moved) stays at the right edge, and the
 * 24 h sparkline with it when it comes just before on a table of
 * SPARK_PIN_COLS columns or more without a fit job: narrower, or with the
 * job's columns, the figures keep the room (the sparkline scrolls, just
 * left of the price). */
static size_t src_pinned(void *ctx)
{
	struct tui_browse *b = ctx;
	const struct tui_tab *tb = cur_tab(b);
	const struct view_column *c = tb->view != NULL ? tb->view->columns : NULL;

	if (c == NULL || tb->n_vis < 3 || c[tb->vis[tb->n_vis - 1]].kind != VIEW_COL_PRICE)
		return 0;
	return tb->n_vis >= 4 && !tb->view->has_job && b->table != NULL &&
	       b->table->base.w >= SPARK_PIN_COLS &&
	       c[tb->vis[tb->n_vis - 2]].kind == VIEW_COL_SPARK ? 2 : 1;
}

/* ---- columns ------------------------------------------------------------------------------------ */

static void free_ids(char **ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}

static void compute_vis(struct tui_tab *tb)
{
	struct view_table *v = tb->view;
	size_t n = 0;

	free(tb->vis);
	tb->vis = xcalloc(v->n_columns + 1, sizeof *tb->vis);
	for (size_t i = 0; i < v->n_columns; i++)
		if (v->columns[i].kind == VIEW_COL_GPU)
			tb->vis[n++] = i;
	for (size_t i = 0; i < v->n_columns; i++)
		if (v->columns[i].kind >= VIEW_COL_JOB_MEM)
			tb->vis[n++] = i;
	for (size_t k = 0; k < tb->n_col_ids; k++) {
		int i = view_column_index(v, tb->col_ids[k]);
		if (i < 0 || v->columns[i].kind == VIEW_COL_GPU || v->columns[i].kind >= VIEW_COL_JOB_MEM ||
		    v->columns[i].kind == VIEW_COL_PRICE)
			continue;
		bool dup = false;
		for (size_t j = 0; j < n; j++)
			dup |= tb->vis[j] == (size_t)i;
		if (!dup)
			tb->vis[n++] = (size_t)i;
	}
	/* the order chosen is the order shown, and the price comes last
	 * whatever is chosen: always shown, pinned at the right edge */
	for (size_t i = 0; i < v->n_columns; i++)
		if (v->columns[i].kind == VIEW_COL_PRICE)
			tb->vis[n++] = i;
	tb->n_vis = n;
}

/* The workload's columns, and of the market columns only the 24 h
 * sparkline, just before the price: the trend at a glance in 12 columns;
 * bid, spread, last and the change in figures are the chooser's (a buyer
 * compares asks; the detail screen has the rest). */
static void default_ids(struct tui_tab *tb)
{
	tb->col_ids = xcalloc(tb->w->n_columns + 2, sizeof *tb->col_ids);
	tb->n_col_ids = 0;
	for (size_t i = 0; i < tb->w->n_columns; i++) {
		if (tb->w->columns[i].kind == CATALOG_COL_GPU)
			continue;
		if (tb->w->columns[i].kind == CATALOG_COL_PRICE)
			tb->col_ids[tb->n_col_ids++] = xstrdup("spark_24h");
		tb->col_ids[tb->n_col_ids++] = xstrdup(tb->w->columns[i].id);
	}
}

/* What the table says when the filter leaves no row, in today's language,
 * naming the key that clears it as bound. */
static void set_empty_text(struct tui_browse *b)
{
	/* TRANSLATORS: %s is the key that clears the filter (Esc unless rebound) */
	char *e = tui_key_text(b->base.t, _("No GPU matches the filter (%s clears it)"),
			       "clear-filter", NULL);

	wtable_set_empty_text(b->table, e);
	free(e);
}

static struct view_prices prices_of(struct tui_browse *b)
{
	struct tui *t = b->base.t;
	return tui_market_prices(t);
}

/* The market figures (bid, last, the 24 h change and sparkline) into v. */
static void set_market(struct tui_browse *b, struct view_table *v)
{
	struct view_market m;

	tui_market_figures(b->base.t, TUI_SPARK_COLS, &m);
	view_set_market(v, &m);
	tui_market_figures_free(&m);
}

static struct view_table *new_view(struct tui_browse *b, const struct catalog_workload *w,
				   const struct fit_job *job)
{
	struct tui *t = b->base.t;
	struct view_prices p = prices_of(b);
	struct view_table *v = view_new(t->cat, w, t->m.have_prices ? &p : NULL, job, t->o->lang,
					t->ascii);

	view_add_market(v);
	set_market(b, v);
	return v;
}

/* The sort and filter remembered for the tab (tui/frame/state.c):
 * "sort.ID = COLUMN[ desc]" or "cheapest", "filter.ID = EXPRESSION". */
static void restore_tab(struct tui_browse *b, struct tui_tab *tb)
{
	struct tui *t = b->base.t;
	char *k = xasprintf("filter.%s", tb->w->id);
	const char *v = tui_state_get(t, k);

	free(k);
	if (v != NULL && view_filter_set(tb->view, v, NULL) == 0) {
		free(tb->filter);
		tb->filter = tb->view->filter != NULL ? xstrdup(tb->view->filter) : NULL;
	}
	k = xasprintf("sort.%s", tb->w->id);
	v = tui_state_get(t, k);
	free(k);
	if (v == NULL)
		return;
	if (strcmp(v, "cheapest") == 0) {
		view_sort_cheapest(tb->view);
		return;
	}
	char *col = xstrdup(v), *sp = strchr(col, ' ');
	if (sp != NULL)
		*sp++ = '\0';
	int c = view_column_index(tb->view, col);
	if (c >= 0)
		view_sort(tb->view, c, sp != NULL && strcmp(sp, "desc") == 0);
	free(col);
}

void browse_remember(struct tui_browse *b)
{
	struct tui *t = b->base.t;
	struct tui_tab *tb = cur_tab(b);
	const struct view_table *v = tb->view;
	char *k, *s;

	if (v == NULL)
		return;
	tui_state_set(t, "tab", tb->w->id);
	k = xasprintf("filter.%s", tb->w->id);
	tui_state_set(t, k, tb->filter);
	free(k);
	k = xasprintf("sort.%s", tb->w->id);
	s = v->sort_cheapest ? xstrdup("cheapest")
	    : v->sort_col >= 0 ? xasprintf("%s%s", v->columns[v->sort_col].id, v->sort_desc ? " desc" : "")
	    : NULL;
	/* a sort on a job's column goes with the job: not remembered */
	if (v->sort_col >= 0 && v->columns[v->sort_col].kind >= VIEW_COL_JOB_MEM) {
		free(s);
		s = NULL;
	}
	tui_state_set(t, k, s);
	free(s);
	free(k);
	tui_state_set_ids(t, "marks", b->marks, b->n_marks);
	tui_state_set_ids(t, "watch", b->watch, b->n_watch);
}

static void build_view(struct tui_browse *b, struct tui_tab *tb)
{
	if (tb->view != NULL)
		return;
	tb->view = new_view(b, tb->w, NULL);
	view_set_pinned(tb->view, b->watch, b->n_watch);
	if (tb->filter != NULL)
		view_filter(tb->view, tb->filter);
	restore_tab(b, tb);
	compute_vis(tb);
}

/* ---- life cycle ---------------------------------------------------------------------------------- */

/* The tabs, titled in the current language (again after a switch): each
 * workload's title and, for narrow terminals, its short title (C_("tab",
 * …), as data/labels.c marks them); the widget picks what fits. */
static void make_tabs(struct tui_browse *b)
{
	struct tui *t = b->base.t;
	char **labels = xcalloc(b->n_tabs ? b->n_tabs : 1, sizeof *labels);

	for (size_t i = 0; i < b->n_tabs; i++)
		labels[i] = xasprintf("%zu %s", i + 1, _(b->tab[i].w->title));
	if (b->tabs != NULL)
		tui_screen_remove(&b->base, &b->tabs->base);
	b->tabs = wtabs_new(&t->ui, (const char *const *)labels, b->n_tabs);
	tui_screen_add(&b->base, &b->tabs->base);
	for (size_t i = 0; i < b->n_tabs; i++) {
		char *s = xasprintf("%zu %s", i + 1, C_("tab", b->tab[i].w->short_title));
		wtabs_set_short(b->tabs, i, s);
		free(s);
		free(labels[i]);
	}
	free(labels);
}

void browse_init(struct tui_browse *b)
{
	struct tui *t = b->base.t;
	struct wtable_source src = {
		.ctx = b, .rows = src_rows, .cols = src_cols, .header = src_header,
		.cell = src_cell, .align = src_align, .cell_fit = src_cell_fit,
		.frozen_min = src_frozen_min, .frozen_yields = src_frozen_yields,
		.pinned = src_pinned,
	};

	b->n_tabs = t->cat->n_workloads;
	b->tab = xcalloc(b->n_tabs ? b->n_tabs : 1, sizeof *b->tab);
	for (size_t i = 0; i < b->n_tabs; i++) {
		struct tui_tab *tb = &b->tab[i];
		tb->w = &t->cat->workloads[i];
		tb->scroll = 1;
		tb->n_col_ids = tui_settings_columns(t, tb->w->id, &tb->col_ids);
		if (tb->n_col_ids == 0) {
			free_ids(tb->col_ids, 0);
			default_ids(tb);
		}
	}
	make_tabs(b);
	b->cur = 0;
	b->n_marks = tui_state_ids(t, "marks", &b->marks);
	b->n_watch = tui_state_ids(t, "watch", &b->watch);
	t->spark_shared = tui_state_get(t, "spark") != NULL &&
			  strcmp(tui_state_get(t, "spark"), "shared") == 0;
	/* the tab remembered */
	for (size_t i = 0; i < b->n_tabs; i++)
		if (tui_state_get(t, "tab") != NULL && strcmp(tui_state_get(t, "tab"), b->tab[i].w->id) == 0)
			b->cur = i;
	if (b->n_tabs > 0)
		build_view(b, &b->tab[b->cur]);
	wtabs_set_active(b->tabs, b->cur);
	b->table = (struct wtable *)tui_screen_add(&b->base, &wtable_new(&t->ui, &src)->base);
	set_empty_text(b);
	wwidget_set_focus(&b->table->base, true);
	browse_refresh_table(b, false);
}

/* The language changed. Every built view is made
 * again in it (headers, numbers, "not published"), with its fit job, sort
 * (by column id), filter; the tabs and the empty text too. */
void browse_lang_changed(struct tui_browse *b)
{
	browse_note_cursor(b);
	for (size_t i = 0; i < b->n_tabs; i++) {
		struct tui_tab *tb = &b->tab[i];
		struct view_table *old = tb->view, *v;
		if (old == NULL)
			continue;
		v = new_view(b, tb->w, old->has_job ? &old->job : NULL);
		view_set_pinned(v, b->watch, b->n_watch);
		if (tb->filter != NULL)
			view_filter(v, tb->filter);
		if (old->sort_cheapest)
			view_sort_cheapest(v);
		else if (old->sort_col >= 0)
			view_sort(v, view_column_index(v, old->columns[old->sort_col].id), old->sort_desc);
		tb->view = v;
		view_free(&old);
		compute_vis(tb);
	}
	make_tabs(b);
	wtabs_set_active(b->tabs, b->cur);
	set_empty_text(b);
	browse_refresh_table(b, false);
	wtable_set_scroll(b->table, b->tab[b->cur].scroll);
	publish_sel(b);
}

void browse_free(struct tui_browse *b)
{
	for (size_t i = 0; i < b->n_tabs; i++) {
		struct tui_tab *tb = &b->tab[i];
		view_free(&tb->view);
		free_ids(tb->col_ids, tb->n_col_ids);
		free(tb->vis);
		free(tb->cursor_gpu);
		free(tb->filter);
	}
	free(b->tab);
	b->tab = NULL;
	free_ids(b->marks, b->n_marks);
	free_ids(b->watch, b->n_watch);
	b->watch = NULL;
	b->n_watch = 0;
	free(b->search_text);
	free(b->search_start);
	b->marks = NULL;
	b->n_marks = 0;
	b->base.t->sel.view = NULL;
}

/* ---- the cursor follows its GPU --------------------------------------------------------------------- */

void browse_note_cursor(struct tui_browse *b)
{
	struct tui_tab *tb = cur_tab(b);

	if (tb->view == NULL || b->table == NULL)
		return;
	tb->scroll = b->table->scroll;
	if (tb->view->n_shown == 0)
		return;
	free(tb->cursor_gpu);
	tb->cursor_gpu = xstrdup(view_shown_row(tb->view, b->table->sel)->gpu->id);
}

void browse_refresh_table(struct tui_browse *b, bool keep_widths)
{
	struct tui_tab *tb = cur_tab(b);
	int sort_vis = -1;

	if (tb->view == NULL)
		return;
	for (size_t i = 0; i < tb->n_vis; i++)
		if ((int)tb->vis[i] == tb->view->sort_col)
			sort_vis = (int)i;
	wtable_reload(b->table, keep_widths);
	wtable_set_sort(b->table, sort_vis, tb->view->sort_desc);
	if (tb->cursor_gpu != NULL) {
		int pos = view_find(tb->view, tb->cursor_gpu);
		wtable_select(b->table, pos >= 0 ? (size_t)pos : 0);
	}
	browse_note_cursor(b);
}

void browse_show_tab(struct tui_browse *b, size_t i)
{
	if (i >= b->n_tabs)
		return;
	if (i == b->cur && cur_tab(b)->view != NULL)
		return;
	browse_note_cursor(b);
	b->cur = i;
	build_view(b, cur_tab(b));
	wtabs_set_active(b->tabs, i);
	b->table->sel = 0;
	b->table->top = 0;
	wtable_set_scroll(b->table, cur_tab(b)->scroll);
	browse_refresh_table(b, false);
	if (b->filter != NULL) {
		wfield_set_text(b->filter, cur_tab(b)->filter ? cur_tab(b)->filter : "");
		char *n = browse_count_text(b);
		wfield_set_after(b->filter, n);
		free(n);
	}
}

/* ---- sorting --------------------------------------------------------------------------------------- */

static int sorted_vis(struct tui_tab *tb)
{
	for (size_t i = 0; i < tb->n_vis; i++)
		if ((int)tb->vis[i] == tb->view->sort_col)
			return (int)i;
	return -1;
}

static void sort_by(struct tui_browse *b, size_t vc, bool desc)
{
	struct tui_tab *tb = cur_tab(b);

	browse_note_cursor(b);
	view_sort(tb->view, (int)tb->vis[vc], desc);
	browse_refresh_table(b, true);
	wtable_show_column(b->table, vc);
	tb->scroll = b->table->scroll;
}

void browse_sort_step(struct tui_browse *b, int dir)
{
	struct tui_tab *tb = cur_tab(b);
	int p, n = (int)tb->n_vis;

	if (tb->view == NULL || n == 0)
		return;
	p = sorted_vis(tb);
	if (p < 0)
		p = dir > 0 ? (n > 1 ? 1 : 0) : n - 1;
	else
		p = ((p + dir) % n + n) % n;
	sort_by(b, (size_t)p, false);
}

void browse_sort_reverse(struct tui_browse *b)
{
	struct tui *t = b->base.t;
	struct tui_tab *tb = cur_tab(b);
	int p;

	if (tb->view == NULL)
		return;
	p = sorted_vis(tb);
	if (p < 0) {
		/* TRANSLATORS: the keys that sort by the previous and the next column */
		tui_key_message(t, _("Choose a sort column first: %s or %s, or click a header"),
				"sort-prev", "sort-next", NULL);
		return;
	}
	sort_by(b, (size_t)p, !tb->view->sort_desc);
}

int browse_sort_named(struct tui_browse *b, const char *id, bool desc)
{
	struct tui_tab *tb = cur_tab(b);
	int col = tb->view != NULL ? view_column_index(tb->view, id) : -1;

	if (col < 0)
		return -1;
	browse_note_cursor(b);
	view_sort(tb->view, col, desc);
	browse_refresh_table(b, true);
	for (size_t i = 0; i < tb->n_vis; i++)
		if ((int)tb->vis[i] == col)
			wtable_show_column(b->table, i);
	tb->scroll = b->table->scroll;
	return 0;
}

void browse_goto(struct tui_browse *b, const char *gpu_id)
{
	struct tui *t = b->base.t;
	struct tui_tab *tb = cur_tab(b);
	int pos;

	if (tb->view == NULL)
		return;
	pos = view_find(tb->view, gpu_id);
	if (pos < 0 && tb->filter != NULL) {
		/* the filter hides it: shown again, and said */
		browse_set_filter(b, NULL, NULL);
		tui_message(t, _("The filter hid that GPU: cleared"));
		pos = view_find(tb->view, gpu_id);
	}
	if (pos < 0)
		return;
	wtable_select(b->table, (size_t)pos);
	browse_note_cursor(b);
}

void browse_sort_visible(struct tui_browse *b, size_t vc)
{
	struct tui_tab *tb = cur_tab(b);

	if (tb->view == NULL || vc >= tb->n_vis)
		return;
	if (sorted_vis(tb) == (int)vc)
		sort_by(b, vc, !tb->view->sort_desc);
	else
		sort_by(b, vc, false);
}

/* ---- filtering -------------------------------------------------------------------------------------- */

int browse_set_filter(struct tui_browse *b, const char *text, char **cause)
{
	struct tui_tab *tb = cur_tab(b);

	if (tb->view == NULL)
		return 0;
	browse_note_cursor(b);
	if (view_filter_set(tb->view, text, cause) != 0)
		return -1;
	free(tb->filter);
	tb->filter = tb->view->filter != NULL ? xstrdup(tb->view->filter) : NULL;
	browse_refresh_table(b, true);
	return 0;
}

int browse_search(struct tui_browse *b, const char *text, int dir, bool here, bool *wrapped,
		  char **cause)
{
	struct tui_tab *tb = cur_tab(b);
	struct view_filter_expr *e = NULL;
	size_t n = tb->view != NULL ? tb->view->n_shown : 0, at = b->table->sel;
	int found = 0;

	*wrapped = false;
	if (n == 0 || text == NULL || text[0] == '\0')
		return 0;
	if (view_filter_parse(tb->view, text, &e, cause) != 0)
		return -1;
	for (size_t k = here ? 0 : 1; k <= n && !found; k++) {
		size_t i = dir >= 0 ? (at + k) % n : (at + n - k % n) % n;
		if (!view_filter_match(e, tb->view, view_shown_row(tb->view, i)))
			continue;
		*wrapped = dir >= 0 ? i < at : i > at;
		wtable_select(b->table, i);
		browse_note_cursor(b);
		found = 1;
	}
	view_filter_expr_free(&e);
	return found;
}

int browse_export(struct tui_browse *b, enum view_export_format fmt, const char *path,
		  size_t *rows, char **cause)
{
	struct tui_tab *tb = cur_tab(b);
	struct buf out = {0};
	int rc;

	*rows = 0;
	if (tb->view == NULL)
		return set_cause(cause, "%s", _("no table to export yet"));
	view_export(tb->view, tb->vis, tb->n_vis, fmt, &out);
	rc = util_write_file(path, out.data != NULL ? out.data : "", out.len, 0644, cause);
	buf_free(&out);
	*rows = tb->view->n_shown;
	return rc;
}

char *browse_cell(struct tui_browse *b, const char *col_id, char **what)
{
	struct tui *t = b->base.t;
	struct tui_tab *tb = cur_tab(b);
	const struct view_table *v = tb->view;
	const struct view_row *r;
	int k;

	*what = NULL;
	if (v == NULL || v->n_shown == 0 || b->table->sel >= v->n_shown)
		return NULL;
	r = view_shown_row(v, b->table->sel);
	k = col_id != NULL ? view_column_index(v, col_id) : v->sort_col;
	if (k < 0 || v->columns[k].kind == VIEW_COL_GPU) {
		*what = xstrdup(_("the GPU's name"));
		return xstrdup(r->gpu->name);
	}
	/* TRANSLATORS: what was copied: %s a column's header, %s a GPU's name ("Price/h of H200") */
	*what = xasprintf(_("%s of %s"), v->columns[k].label, tui_gpu_name(t, r->gpu->id));
	return xstrdup(r->cells[k].display);
}

char *browse_count_text(struct tui_browse *b)
{
	struct tui_tab *tb = cur_tab(b);
	return tb->view ? view_count_text(tb->view) : xstrdup("");
}

/* ---- columns ----------------------------------------------------------------------------------------- */

static void columns_closed(struct tui *t, struct wwidget *w, void *ud)
{
	struct tui_browse *b = ud;
	const struct wchecklist *c = (const struct wchecklist *)w;
	struct tui_tab *tb = cur_tab(b);
	char **ids;
	size_t n = 0;

	if (!c->accepted)
		return;
	ids = xcalloc(c->n + 1, sizeof *ids);
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].on && !c->items[i].fixed)
			ids[n++] = xstrdup(c->items[i].id);
	free_ids(tb->col_ids, tb->n_col_ids);
	tb->col_ids = ids;
	tb->n_col_ids = n;
	browse_note_cursor(b);
	compute_vis(tb);
	browse_refresh_table(b, false);
	tui_settings_save_columns(t, tb->w->id, ids, n);
}

static void columns_place(struct wwidget *w, int lines, int cols)
{
	wchecklist_place((struct wchecklist *)w, lines, cols);
}

void browse_columns_open(struct tui_browse *b)
{
	struct tui *t = b->base.t;
	struct tui_tab *tb = cur_tab(b);
	struct view_table *v = tb->view;
	struct wcheck_item *items;
	size_t n = 0;

	if (v == NULL)
		return;
	items = xcalloc(v->n_columns + 1, sizeof *items);
	for (size_t i = 0; i < v->n_columns; i++)
		if (v->columns[i].kind == VIEW_COL_GPU)
			items[n++] = (struct wcheck_item){ v->columns[i].id, v->columns[i].label, true, true };
	/* the shown columns in the order shown, then the others; the price
	 * last and fixed like the GPU (always shown, at the right edge) */
	for (size_t k = 0; k < tb->n_vis; k++) {
		size_t i = tb->vis[k];
		if (v->columns[i].kind != VIEW_COL_GPU && v->columns[i].kind < VIEW_COL_JOB_MEM &&
		    v->columns[i].kind != VIEW_COL_PRICE)
			items[n++] = (struct wcheck_item){ v->columns[i].id, v->columns[i].label, true, false };
	}
	for (size_t i = 0; i < v->n_columns; i++) {
		bool listed = false;
		if (v->columns[i].kind == VIEW_COL_GPU || v->columns[i].kind >= VIEW_COL_JOB_MEM ||
		    v->columns[i].kind == VIEW_COL_PRICE)
			continue;
		for (size_t k = 0; k < n; k++)
			listed |= strcmp(items[k].id, v->columns[i].id) == 0;
		if (!listed)
			items[n++] = (struct wcheck_item){ v->columns[i].id, v->columns[i].label, false, false };
	}
	for (size_t i = 0; i < v->n_columns; i++)
		if (v->columns[i].kind == VIEW_COL_PRICE)
			items[n++] = (struct wcheck_item){ v->columns[i].id, v->columns[i].label, true, true };
	char *title = xasprintf(_("Columns of %s"), _(tb->w->title));
	struct wchecklist *c = wchecklist_new(&t->ui, title,
		_("Space show/hide  [ ] move  Enter save  Esc cancel"), items, n);
	free(title);
	free(items);
	tui_push(t, tui_overlay_new(t, &c->base, columns_place, columns_closed, b));
}

/* ---- what the tables pull: prices, the fit job, flashes --------------------------------------------- */

static void apply_prices(struct tui_browse *b, bool prices)
{
	struct tui *t = b->base.t;
	struct view_prices p = prices_of(b);

	browse_note_cursor(b);
	for (size_t i = 0; i < b->n_tabs; i++) {
		if (b->tab[i].view == NULL)
			continue;
		if (prices)
			view_set_prices(b->tab[i].view, t->m.have_prices ? &p : NULL);
		set_market(b, b->tab[i].view);
	}
	browse_refresh_table(b, true);
}

/* The current tab shows the 24 h change or sparkline: the history is fetched. */
static void want_history(struct tui_browse *b)
{
	const struct tui_tab *tb = cur_tab(b);

	for (size_t i = 0; tb->view != NULL && i < tb->n_vis; i++) {
		enum view_col_kind k = tb->view->columns[tb->vis[i]].kind;
		if (k == VIEW_COL_CHANGE || k == VIEW_COL_SPARK)
			tui_history_want(b->base.t);
	}
}

/* Make the current tab's view carry the published fit job (or none). */
static void pull_job(struct tui_browse *b)
{
	struct tui *t = b->base.t;
	struct tui_tab *tb = cur_tab(b);
	struct view_table *v = tb->view;
	const struct fit_job *want = t->job.have ? &t->job.job : NULL;
	bool had;

	if (v == NULL)
		return;
	if (want == NULL ? !v->has_job : v->has_job && memcmp(&v->job, want, sizeof *want) == 0)
		return;
	had = v->has_job;
	browse_note_cursor(b);
	view_set_job(v, want);
	compute_vis(tb);
	if (!had && want != NULL) {
		/* the "your model" columns come right after the GPU: show them */
		tb->scroll = 1;
		wtable_set_scroll(b->table, 1);
	}
	browse_refresh_table(b, had && want != NULL);
}

/* Flash starts and ends: the table is drawn again when the set changes. */
static void pull_flashes(struct tui_browse *b, int64_t now)
{
	struct tui *t = b->base.t;
	uint64_t sig = 1469598103934665603u; /* FNV-1a over which GPUs flash */

	for (size_t g = 0; g < t->cat->n_gpus; g++)
		sig = (sig ^ (uint64_t)(tui_flash(t, g, now) != 0)) * 1099511628211u;
	if (sig != b->flash_sig) {
		b->flash_sig = sig;
		wwidget_dirty(&b->table->base);
	}
}

/* The cursor, for the screens above (t->sel); again whenever a view is
 * made or freed, so it never points at a freed view. */
static void publish_sel(struct tui_browse *b)
{
	struct tui *t = b->base.t;
	struct tui_tab *tb = cur_tab(b);

	t->sel.view = tb->view;
	t->sel.row = tb->view != NULL && b->table != NULL && b->table->sel < tb->view->n_shown
		? b->table->sel : 0;
}

void browse_recalc(struct tui_browse *b, int64_t now)
{
	struct tui *t = b->base.t;

	uint64_t hg = t->m.hist.gen;

	want_history(b);
	if (b->market_seen != t->m.gen || b->hist_seen != hg) {
		bool prices = b->market_seen != t->m.gen;
		b->market_seen = t->m.gen;
		b->hist_seen = hg;
		apply_prices(b, prices);
	}
	pull_job(b);
	pull_flashes(b, now);
	publish_sel(b);
}

void browse_sort_cheapest(struct tui_browse *b)
{
	struct tui *t = b->base.t;
	struct view_table *v = cur_tab(b)->view;

	pull_job(b);
	if (v == NULL || !v->has_job) {
		/* TRANSLATORS: %s is the key that opens the fit calculator */
		tui_key_message(t, _("Sorting by the job's cost needs a job: press %s and type a model"),
				"fit", NULL);
		return;
	}
	browse_note_cursor(b);
	if (v->sort_cheapest) {
		view_sort(v, -1, false);
		tui_message(t, _("Catalogue order"));
	} else {
		view_sort_cheapest(v);
		tui_message(t, _("Cheapest per hour for this job first (GPUs that cannot take it last)"));
	}
	browse_refresh_table(b, true);
}

/* ---- marks ------------------------------------------------------------------------------------------ */

bool browse_is_marked(const struct tui_browse *b, const char *gpu_id)
{
	for (size_t i = 0; gpu_id != NULL && i < b->n_marks; i++)
		if (strcmp(b->marks[i], gpu_id) == 0)
			return true;
	return false;
}

void browse_toggle_mark(struct tui_browse *b)
{
	struct tui *t = b->base.t;
	const char *gpu;
	size_t i;

	browse_note_cursor(b);
	gpu = cur_tab(b)->view != NULL && cur_tab(b)->view->n_shown > 0 ? cur_tab(b)->cursor_gpu : NULL;
	if (gpu == NULL) {
		tui_key_no_selection(t);
		return;
	}
	for (i = 0; i < b->n_marks && strcmp(b->marks[i], gpu) != 0; i++)
		;
	if (i < b->n_marks) {
		free(b->marks[i]);
		memmove(&b->marks[i], &b->marks[i + 1], (b->n_marks - i - 1) * sizeof *b->marks);
		b->n_marks--;
	} else {
		b->marks = xreallocarray(b->marks, b->n_marks + 1, sizeof *b->marks);
		b->marks[b->n_marks++] = xstrdup(gpu);
	}
	/* the GPU column gains or loses the marks' room */
	browse_refresh_table(b, false);
	wtable_do(b->table, WTABLE_DOWN);
	browse_note_cursor(b);
}

bool browse_is_watched(const struct tui_browse *b, const char *gpu_id)
{
	for (size_t i = 0; gpu_id != NULL && i < b->n_watch; i++)
		if (strcmp(b->watch[i], gpu_id) == 0)
			return true;
	return false;
}

void browse_toggle_spark_scale(struct tui_browse *b)
{
	struct tui *t = b->base.t;
	int64_t lo, hi;
	char *m;

	t->spark_shared = !t->spark_shared;
	tui_state_set(t, "spark", t->spark_shared ? "shared" : NULL);
	browse_note_cursor(b);
	for (size_t i = 0; i < b->n_tabs; i++)
		if (b->tab[i].view != NULL)
			set_market(b, b->tab[i].view);
	browse_refresh_table(b, false);
	if (!t->spark_shared) {
		m = xstrdup(_("Sparklines each on its own scale"));
	} else if (tui_market_spark_scale(t, TUI_SPARK_COLS, &lo, &hi)) {
		char *l = tui_usd(t, lo), *h = tui_usd(t, hi);
		/* TRANSLATORS: the sparklines now share one scale; %s–%s its lowest and highest price */
		m = xasprintf(_("Sparklines on one scale, %s\u2013%s (the last 24 h of every GPU)"), l, h);
		free(l);
		free(h);
	} else {
		m = xstrdup(_("Sparklines on one scale, once a GPU has traded in the last 24 h"));
	}
	tui_message(t, m);
	free(m);
}

void browse_toggle_watch(struct tui_browse *b)
{
	struct tui *t = b->base.t;
	const char *gpu;
	char *m, *id;
	size_t i;

	browse_note_cursor(b);
	gpu = cur_tab(b)->view != NULL && cur_tab(b)->view->n_shown > 0 ? cur_tab(b)->cursor_gpu : NULL;
	if (gpu == NULL) {
		tui_key_no_selection(t);
		return;
	}
	id = xstrdup(gpu);
	for (i = 0; i < b->n_watch && strcmp(b->watch[i], id) != 0; i++)
		;
	if (i < b->n_watch) {
		free(b->watch[i]);
		memmove(&b->watch[i], &b->watch[i + 1], (b->n_watch - i - 1) * sizeof *b->watch);
		b->n_watch--;
		/* TRANSLATORS: %s is a GPU's name */
		m = xasprintf(_("%s is off the watchlist"), tui_gpu_name(t, id));
	} else {
		b->watch = xreallocarray(b->watch, b->n_watch + 1, sizeof *b->watch);
		b->watch[b->n_watch++] = xstrdup(id);
		char *k = tui_key_label(t, "watch");
		/* TRANSLATORS: %1$s is a GPU's name, %2$s the key that unpins it */
		m = xasprintf(_("%1$s is on the watchlist, on top of every tab (%2$s unpins)"),
			      tui_gpu_name(t, id), k);
		free(k);
	}
	for (size_t k = 0; k < b->n_tabs; k++)
		if (b->tab[k].view != NULL)
			view_set_pinned(b->tab[k].view, b->watch, b->n_watch);
	/* the cursor stays on the GPU, wherever it went */
	browse_refresh_table(b, false);
	tui_message(t, m);
	free(m);
	free(id);
}

void browse_compare(struct tui_browse *b)
{
	struct tui *t = b->base.t;
	char *x;

	if (b->n_marks >= 2 && b->n_marks <= 4) {
		tui_open(t, TUI_COMPARE, &(struct tui_goto){ .ids = b->marks, .n_ids = b->n_marks });
		return;
	}
	if (b->n_marks < 2)
		/* TRANSLATORS: %zu is how many GPUs are marked now (0 or 1) */
		x = xasprintf(P_("Compare needs 2 to 4 GPUs: mark them with Space (%zu marked)",
				 "Compare needs 2 to 4 GPUs: mark them with Space (%zu marked)",
				 (unsigned long)b->n_marks), b->n_marks);
	else
		x = xasprintf(P_("Compare takes at most 4 GPUs: %zu are marked (Space unmarks)",
				 "Compare takes at most 4 GPUs: %zu are marked (Space unmarks)",
				 (unsigned long)b->n_marks), b->n_marks);
	tui_message(t, x);
	free(x);
}

void browse_order_size(struct tui_browse *b, const char *gpu_id, struct tui_goto *g)
{
	const struct view_table *v = cur_tab(b)->view;
	int pos;

	g->gpus = g->hours = g->node_gpus = 0;
	g->interconnect = NULL;
	g->fits = -1;
	pull_job(b);
	if (v == NULL || !v->has_job || gpu_id == NULL)
		return;
	pos = view_find(v, gpu_id);
	if (pos < 0)
		return;
	const struct fit_result *j = &view_shown_row(v, (size_t)pos)->job;
	g->fits = j->fits;
	if (j->gpus_run <= 0)
		return;
	g->gpus = j->gpus_run;
	g->hours = TUI_JOB_HOURS;
	if (fit_method_is_training(v->job.method) && isfinite(j->train_hours) && j->train_hours > 0 &&
	    j->train_hours < 1e6)
		g->hours = (int)ceil(j->train_hours - 1e-9);
	if (j->shape.link_needed) {
		/* what runs it: whole machines of its node size, on its link */
		struct view_job_need n;
		view_job_need_of(j, &n);
		g->node_gpus = n.node_gpus;
		g->interconnect = n.link ? fit_interconnect_id(n.interconnect) : NULL;
	}
}
