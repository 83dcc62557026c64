/*
 * The browse screen: one tab per workload, each a view/ table (built when
 * first shown) drawn by the table widget through a small adapter — the
 * adapter is the pure row formatter: it turns a view cell (display text and
 * flags) into cells with roles: "not published" and stale prices dim, fits
 * ✓ green and ✗ red, a price that just changed in the flash roles, the GPU's
 * architecture dim after its name.
 *
 * The cursor follows its GPU, not its row number: before anything reorders
 * or filters the rows the GPU under the cursor is noted (tui_note_cursor),
 * and afterwards the table's cursor is put back on it (view_find).
 *
 * Which columns a tab shows, and in which order, is a list of column ids
 * (remembered in the config file); the GPU column is always first, and
 * "your model" columns (fit panel) follow it whenever the view has them; the
 * price, what a buyer compares first, is always last and stays pinned at the
 * right edge while the others scroll (the GPU column's twin on the left).
 *
 * When columns are hidden the GPU column earns its width: the table cuts it
 * to a share of the terminal, and the formatter cuts the architecture first
 * ("B300 Blackwell U…", then "B300"), the name only after it and never below
 * its short form ("RTX PRO 6000…", view_gpu_short_width).
 *
 * The tabs carry each workload's title and its short title (data/
 * workloads.json); the tabs widget picks what fits.
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

static struct tui_tab *cur_tab(struct tui *t)
{
	return &t->tab[t->cur];
}

/* ---- the table source: the pure row formatter ------------------------------------------ */

static size_t src_rows(void *ctx)
{
	struct tui *t = ctx;
	struct tui_tab *tb = cur_tab(t);
	return tb->view ? tb->view->n_shown : 0;
}

static size_t src_cols(void *ctx)
{
	struct tui *t = ctx;
	return cur_tab(t)->view ? cur_tab(t)->n_vis : 0;
}

static void src_header(void *ctx, size_t col, struct wcells *out)
{
	struct tui *t = ctx;
	struct tui_tab *tb = cur_tab(t);
	wcells_add(out, tb->view->columns[tb->vis[col]].label, WR_HEADER, 0);
}

static enum walign src_align(void *ctx, size_t col)
{
	struct tui *t = ctx;
	struct tui_tab *tb = cur_tab(t);
	switch (tb->view->columns[tb->vis[col]].align) {
	case VIEW_RIGHT: return WALIGN_RIGHT;
	case VIEW_CENTER: return WALIGN_CENTER;
	default: return WALIGN_LEFT;
	}
}

static size_t gpu_index(const struct tui *t, const struct catalog_gpu *g)
{
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

static void src_cell(void *ctx, size_t row, size_t col, struct wcells *out)
{
	struct tui *t = ctx;
	struct tui_tab *tb = cur_tab(t);
	const struct view_row *r = view_shown_row(tb->view, row);
	int flash = tui_flash(t, gpu_index(t, r->gpu), util_now_ms());

	tui_format_cell(tb->view, row, tb->vis[col], flash, out);
}

static void src_cell_fit(void *ctx, size_t row, size_t col, int width, struct wcells *out)
{
	struct tui *t = ctx;
	struct tui_tab *tb = cur_tab(t);
	const struct view_row *r = view_shown_row(tb->view, row);
	int flash = tui_flash(t, gpu_index(t, r->gpu), util_now_ms());

	tui_format_cell_fit(tb->view, row, tb->vis[col], flash, width, out);
}

/* The GPU column is cut no narrower than the widest short form of a name. */
static int src_frozen_min(void *ctx)
{
	struct tui *t = ctx;
	const struct view_table *v = cur_tab(t)->view;
	size_t m = 0;

	for (size_t i = 0; v != NULL && i < v->n_rows; i++) {
		size_t w = view_gpu_short_width(v->rows[i].gpu);
		if (w > m)
			m = w;
	}
	return (int)m;
}

/* The price column (always last when shown) stays at the right edge. */
static size_t src_pinned(void *ctx)
{
	struct tui *t = ctx;
	const struct tui_tab *tb = cur_tab(t);

	if (tb->view == NULL || tb->n_vis < 3)
		return 0;
	return tb->view->columns[tb->vis[tb->n_vis - 1]].kind == VIEW_COL_PRICE ? 1 : 0;
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
		if (i < 0 || v->columns[i].kind == VIEW_COL_GPU || v->columns[i].kind >= VIEW_COL_JOB_MEM)
			continue;
		bool dup = false;
		for (size_t j = 0; j < n; j++)
			dup |= tb->vis[j] == (size_t)i;
		if (!dup)
			tb->vis[n++] = (size_t)i;
	}
	/* the price last, whatever the order chosen (it is pinned there) */
	for (size_t j = 0; j + 1 < n; j++) {
		if (v->columns[tb->vis[j]].kind == VIEW_COL_PRICE) {
			size_t p = tb->vis[j];
			memmove(&tb->vis[j], &tb->vis[j + 1], (n - j - 1) * sizeof *tb->vis);
			tb->vis[n - 1] = p;
			break;
		}
	}
	tb->n_vis = n;
}

static void default_ids(struct tui_tab *tb)
{
	tb->col_ids = xcalloc(tb->w->n_columns + 1, sizeof *tb->col_ids);
	tb->n_col_ids = 0;
	for (size_t i = 0; i < tb->w->n_columns; i++)
		if (tb->w->columns[i].kind != CATALOG_COL_GPU)
			tb->col_ids[tb->n_col_ids++] = xstrdup(tb->w->columns[i].id);
}

static struct view_prices prices_of(struct tui *t)
{
	struct view_prices p = { t->m.prices, t->m.n_prices, t->m.stale };
	return p;
}

static void build_view(struct tui *t, struct tui_tab *tb)
{
	struct view_prices p = prices_of(t);

	if (tb->view != NULL)
		return;
	tb->view = view_new(t->cat, tb->w, t->m.have_prices ? &p : NULL, NULL, t->o->lang, t->ascii);
	if (tb->filter != NULL)
		view_filter(tb->view, tb->filter);
	compute_vis(tb);
}

/* ---- life cycle ---------------------------------------------------------------------------------- */

/* The tabs, titled in the current language (again after a switch): each
 * workload's title and, for narrow terminals, its short title (C_("tab",
 * …), as data/labels.c marks them); the widget picks what fits. */
static void make_tabs(struct tui *t)
{
	char **labels = xcalloc(t->n_tabs ? t->n_tabs : 1, sizeof *labels);

	for (size_t i = 0; i < t->n_tabs; i++)
		labels[i] = xasprintf("%zu %s", i + 1, _(t->tab[i].w->title));
	wtabs_free(&t->tabs);
	t->tabs = wtabs_new(&t->ui, (const char *const *)labels, t->n_tabs);
	for (size_t i = 0; i < t->n_tabs; i++) {
		char *s = xasprintf("%zu %s", i + 1, C_("tab", t->tab[i].w->short_title));
		wtabs_set_short(t->tabs, i, s);
		free(s);
		free(labels[i]);
	}
	free(labels);
}

void tui_browse_init(struct tui *t)
{
	struct wtable_source src = {
		.ctx = t, .rows = src_rows, .cols = src_cols, .header = src_header,
		.cell = src_cell, .align = src_align, .cell_fit = src_cell_fit,
		.frozen_min = src_frozen_min, .pinned = src_pinned,
	};

	t->n_tabs = t->cat->n_workloads;
	t->tab = xcalloc(t->n_tabs ? t->n_tabs : 1, sizeof *t->tab);
	for (size_t i = 0; i < t->n_tabs; i++) {
		struct tui_tab *tb = &t->tab[i];
		tb->w = &t->cat->workloads[i];
		tb->scroll = 1;
		tb->n_col_ids = tui_settings_columns(t, tb->w->id, &tb->col_ids);
		if (tb->n_col_ids == 0) {
			free_ids(tb->col_ids, 0);
			default_ids(tb);
		}
	}
	make_tabs(t);
	t->cur = 0;
	if (t->n_tabs > 0)
		build_view(t, &t->tab[0]);
	t->table = wtable_new(&t->ui, &src);
	wtable_set_empty_text(t->table, _("No GPU matches the filter (Esc clears it)"));
	wwidget_set_focus(&t->table->base, true);
	tui_refresh_table(t, false);
}

/* issue 8 (tui/lang.c): the language changed. Every built view is made
 * again in it (headers, numbers, "not published"), with its fit job, sort
 * (by column id), filter; the tabs and the empty text too. */
void tui_browse_lang_changed(struct tui *t)
{
	struct view_prices p = prices_of(t);

	tui_note_cursor(t);
	for (size_t i = 0; i < t->n_tabs; i++) {
		struct tui_tab *tb = &t->tab[i];
		struct view_table *old = tb->view, *v;
		if (old == NULL)
			continue;
		v = view_new(t->cat, tb->w, t->m.have_prices ? &p : NULL, old->has_job ? &old->job : NULL,
			     t->o->lang, t->ascii);
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
	make_tabs(t);
	wtabs_set_active(t->tabs, t->cur);
	wtable_set_empty_text(t->table, _("No GPU matches the filter (Esc clears it)"));
	tui_refresh_table(t, false);
	wtable_set_scroll(t->table, t->tab[t->cur].scroll);
}

void tui_browse_free(struct tui *t)
{
	for (size_t i = 0; i < t->n_tabs; i++) {
		struct tui_tab *tb = &t->tab[i];
		view_free(&tb->view);
		free_ids(tb->col_ids, tb->n_col_ids);
		free(tb->vis);
		free(tb->cursor_gpu);
		free(tb->filter);
	}
	free(t->tab);
	t->tab = NULL;
	wtable_free(&t->table);
	wtabs_free(&t->tabs);
}

/* ---- the cursor follows its GPU --------------------------------------------------------------------- */

void tui_note_cursor(struct tui *t)
{
	struct tui_tab *tb = cur_tab(t);

	if (tb->view == NULL || t->table == NULL)
		return;
	tb->scroll = t->table->scroll;
	if (tb->view->n_shown == 0)
		return;
	free(tb->cursor_gpu);
	tb->cursor_gpu = xstrdup(view_shown_row(tb->view, t->table->sel)->gpu->id);
}

void tui_refresh_table(struct tui *t, bool keep_widths)
{
	struct tui_tab *tb = cur_tab(t);
	int sort_vis = -1;

	if (tb->view == NULL)
		return;
	for (size_t i = 0; i < tb->n_vis; i++)
		if ((int)tb->vis[i] == tb->view->sort_col)
			sort_vis = (int)i;
	wtable_reload(t->table, keep_widths);
	wtable_set_sort(t->table, sort_vis, tb->view->sort_desc);
	if (tb->cursor_gpu != NULL) {
		int pos = view_find(tb->view, tb->cursor_gpu);
		wtable_select(t->table, pos >= 0 ? (size_t)pos : 0);
	}
	tui_note_cursor(t);
}

void tui_show_tab(struct tui *t, size_t i)
{
	if (i >= t->n_tabs)
		return;
	if (i == t->cur && cur_tab(t)->view != NULL)
		return;
	tui_note_cursor(t);
	t->cur = i;
	build_view(t, cur_tab(t));
	wtabs_set_active(t->tabs, i);
	t->table->sel = 0;
	t->table->top = 0;
	wtable_set_scroll(t->table, cur_tab(t)->scroll);
	tui_refresh_table(t, false);
	if (t->filter != NULL) {
		wfield_set_text(t->filter, cur_tab(t)->filter ? cur_tab(t)->filter : "");
		char *n = tui_count_text(t);
		wfield_set_after(t->filter, n);
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

static void sort_by(struct tui *t, size_t vc, bool desc)
{
	struct tui_tab *tb = cur_tab(t);

	tui_note_cursor(t);
	view_sort(tb->view, (int)tb->vis[vc], desc);
	tui_refresh_table(t, true);
	wtable_show_column(t->table, vc);
	tb->scroll = t->table->scroll;
}

void tui_sort_step(struct tui *t, int dir)
{
	struct tui_tab *tb = cur_tab(t);
	int p, n = (int)tb->n_vis;

	if (tb->view == NULL || n == 0)
		return;
	p = sorted_vis(tb);
	if (p < 0)
		p = dir > 0 ? (n > 1 ? 1 : 0) : n - 1;
	else
		p = ((p + dir) % n + n) % n;
	sort_by(t, (size_t)p, false);
}

void tui_sort_reverse(struct tui *t)
{
	struct tui_tab *tb = cur_tab(t);
	int p;

	if (tb->view == NULL)
		return;
	p = sorted_vis(tb);
	if (p < 0) {
		tui_message(t, _("Choose a sort column first: < or >, or click a header"));
		return;
	}
	sort_by(t, (size_t)p, !tb->view->sort_desc);
}

void tui_sort_visible(struct tui *t, size_t vc)
{
	struct tui_tab *tb = cur_tab(t);

	if (tb->view == NULL || vc >= tb->n_vis)
		return;
	if (sorted_vis(tb) == (int)vc)
		sort_by(t, vc, !tb->view->sort_desc);
	else
		sort_by(t, vc, false);
}

/* ---- filtering -------------------------------------------------------------------------------------- */

void tui_set_filter(struct tui *t, const char *text)
{
	struct tui_tab *tb = cur_tab(t);

	if (tb->view == NULL)
		return;
	tui_note_cursor(t);
	free(tb->filter);
	tb->filter = text != NULL && text[0] != '\0' ? xstrdup(text) : NULL;
	view_filter(tb->view, tb->filter);
	tui_refresh_table(t, true);
}

char *tui_count_text(struct tui *t)
{
	struct tui_tab *tb = cur_tab(t);
	return tb->view ? view_count_text(tb->view) : xstrdup("");
}

/* ---- columns ----------------------------------------------------------------------------------------- */

void tui_columns_open(struct tui *t)
{
	struct tui_tab *tb = cur_tab(t);
	struct view_table *v = tb->view;
	struct wcheck_item *items;
	size_t n = 0;

	if (v == NULL)
		return;
	items = xcalloc(v->n_columns + 1, sizeof *items);
	for (size_t i = 0; i < v->n_columns; i++)
		if (v->columns[i].kind == VIEW_COL_GPU)
			items[n++] = (struct wcheck_item){ v->columns[i].id, v->columns[i].label, true, true };
	/* the shown columns in the order shown (the price last) */
	for (size_t k = 0; k < tb->n_vis; k++) {
		size_t i = tb->vis[k];
		if (v->columns[i].kind != VIEW_COL_GPU && v->columns[i].kind < VIEW_COL_JOB_MEM)
			items[n++] = (struct wcheck_item){ v->columns[i].id, v->columns[i].label, true, false };
	}
	for (size_t i = 0; i < v->n_columns; i++) {
		bool listed = false;
		if (v->columns[i].kind == VIEW_COL_GPU || v->columns[i].kind >= VIEW_COL_JOB_MEM)
			continue;
		for (size_t k = 0; k < n; k++)
			listed |= strcmp(items[k].id, v->columns[i].id) == 0;
		if (!listed)
			items[n++] = (struct wcheck_item){ v->columns[i].id, v->columns[i].label, false, false };
	}
	char *title = xasprintf(_("Columns of %s"), _(tb->w->title));
	struct wchecklist *c = wchecklist_new(&t->ui, title,
		_("Space show/hide  [ ] move  Enter save  Esc cancel"), items, n);
	free(title);
	free(items);
	t->overlay = &c->base;
	t->ov = OV_COLUMNS;
	wchecklist_place(c, t->lines, t->cols);
}

void tui_columns_apply(struct tui *t, const struct wchecklist *c)
{
	struct tui_tab *tb = cur_tab(t);
	char **ids = xcalloc(c->n + 1, sizeof *ids);
	size_t n = 0;

	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].on && !c->items[i].fixed)
			ids[n++] = xstrdup(c->items[i].id);
	free_ids(tb->col_ids, tb->n_col_ids);
	tb->col_ids = ids;
	tb->n_col_ids = n;
	tui_note_cursor(t);
	compute_vis(tb);
	tui_refresh_table(t, false);
	tui_settings_save_columns(t, tb->w->id, ids, n);
}

/* ---- prices ------------------------------------------------------------------------------------------ */

void tui_apply_prices(struct tui *t)
{
	struct view_prices p = prices_of(t);

	tui_note_cursor(t);
	for (size_t i = 0; i < t->n_tabs; i++)
		if (t->tab[i].view != NULL)
			view_set_prices(t->tab[i].view, t->m.have_prices ? &p : NULL);
	tui_refresh_table(t, true);
}

/* ---- for the fit panel (fitpanel.c) ------------------------------------------------------------------- */

void tui_tab_columns_changed(struct tui *t, size_t i)
{
	if (i < t->n_tabs && t->tab[i].view != NULL)
		compute_vis(&t->tab[i]);
}
