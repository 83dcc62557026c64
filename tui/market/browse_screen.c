/*
 * The browse tables as a screen (tui/frame/screen.h), the bottom of the stack:
 * the workload tabs, the table, and the filter field while one is typed (on
 * the F-key bar's row). Its key map is data (nnn's bindings[]): key →
 * action, with the help line each action shows and, for the F-keys, the
 * bar's word; the handler dispatches on the action. An
 * event goes, in order, to the filter field while one is typed, to this map,
 * then to the table widget (its own bindings: arrows, hjkl, PgUp/PgDn,
 * Home/End, g/G). The keys every screen shares (q, F10, Ctrl-L, F1, ?, L)
 * are the frame's (tui/frame/app.c). The help and the F-key bar are made
 * from the maps, so they can never offer a key that does not work. Other
 * screens are opened by place (tui_open): the order form, the detail and
 * compare screens, the fit panel, the trade pages.
 *
 * Recalc pulls what other parts publish: the market's prices (t->m.gen),
 * the fit job (t->job), the flashes; and publishes the cursor (t->sel) for
 * the fit panel above.
 */
#include "tui/market/browse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

static const struct wbinding bindings[] = {
	{ '1', A_TAB, N_("Workload tab by its number"), NULL, "tab", "TAB" },
	{ '2', A_TAB, N_("Workload tab by its number"), NULL, "tab", "TAB" },
	{ '3', A_TAB, N_("Workload tab by its number"), NULL, "tab", "TAB" },
	{ '4', A_TAB, N_("Workload tab by its number"), NULL, "tab", "TAB" },
	{ '5', A_TAB, N_("Workload tab by its number"), NULL, "tab", "TAB" },
	{ '6', A_TAB, N_("Workload tab by its number"), NULL, "tab", "TAB" },
	{ WKEY_TAB, A_TAB_NEXT, N_("Next workload tab"), NULL, "tab-next" },
	{ WKEY_BTAB, A_TAB_PREV, N_("Previous workload tab"), NULL, "tab-prev" },
	{ '>', A_SORT_NEXT, N_("Sort by the next column"), NULL, "sort-next" },
	{ WKEY_F6, A_SORT_NEXT, N_("Sort by the next column"), N_("Sort"), "sort-next" },
	{ '<', A_SORT_PREV, N_("Sort by the previous column"), NULL, "sort-prev" },
	{ 'r', A_SORT_REVERSE, N_("Reverse the sort (not published stays last)"), NULL,
	  "sort-reverse" },
	{ WKEY_NONE, A_SORT, N_("Sort by a column (its id; desc after it: descending)"), NULL,
	  "sort", "COLUMN" },
	{ '/', A_FILTER, N_("Filter rows as you type (Enter keeps, Esc clears)"), NULL, "filter",
	  "TEXT" },
	{ WKEY_F3, A_FILTER, N_("Filter rows as you type (Enter keeps, Esc clears)"), N_("Filter"),
	  "filter", "TEXT" },
	{ '\\', A_SEARCH, N_("Search: jump to the next row that matches, hiding none (as a filter "
			      "takes it)"), NULL, "search", "TEXT" },
	{ 'F' - '@', A_SEARCH, N_("Search: jump to the next row that matches, hiding none (as a "
				 "filter takes it)"), NULL, "search", "TEXT" },
	{ 'n', A_SEARCH_NEXT, N_("The next row the search matches"), NULL, "search-next" },
	{ 'N', A_SEARCH_PREV, N_("The previous row the search matches"), NULL, "search-prev" },
	{ 'e', A_EXPORT, N_("Export the table as shown (columns, sort, filter) to CSV or JSON"), NULL,
	  "export", "FORMAT" },
	{ 'y', A_COPY, N_("Copy the selected row's cell of the sorted column (or the GPU's name; "
			  ":copy COLUMN another)"), NULL, "copy", "COLUMN" },
	{ 'c', A_COLUMNS, N_("Choose and order the columns"), NULL, "columns" },
	{ WKEY_F2, A_COLUMNS, N_("Choose and order the columns"), N_("Columns"), "columns" },
	{ 'f', A_FIT, N_("Fit calculator: show it and type in it (Esc back to the table)"), NULL,
	  "fit" },
	{ WKEY_F4, A_FIT_TOGGLE, N_("Show or hide the fit calculator"), N_("Fit"), "fit-toggle" },
	{ '$', A_FIT_CHEAPEST, N_("Sort by the job's cost per hour, GPUs that can take it first (again: catalogue order)"), NULL, "cheapest" },
	{ 'J', A_JOB_ORDER, N_("Job order: run the fit job at the lowest total across every GPU (preview, then confirm)"), NULL, "job-order" },
	{ WKEY_F8, A_JOB_ORDER, N_("Job order: run the fit job at the lowest total across every GPU (preview, then confirm)"), N_("Job"), "job-order" },
	{ WKEY_RETURN, A_DETAIL, N_("The selected GPU in detail: specs, book, chart, trades"), NULL,
	  "detail" },
	{ WKEY_NONE, A_GOTO, N_("Put the cursor on a GPU (:h200 alone does it too)"), NULL, "gpu",
	  "GPU" },
	{ ' ', A_MARK, N_("Mark or unmark the selected GPU (to compare)"), NULL, "mark" },
	{ '*', A_WATCH, N_("Watchlist: pin the selected GPU on top of every tab, or unpin it"), NULL,
	  "watch" },
	{ '=', A_COMPARE, N_("Compare the marked GPUs side by side (2 to 4)"), NULL, "compare" },
	{ 'b', A_BUY, N_("Buy the selected GPU: the order form"), NULL, "buy" },
	{ WKEY_F5, A_BUY, N_("Buy the selected GPU: the order form"), N_("Buy"), "buy" },
	{ 's', A_SELL, N_("Sell the selected GPU (seller accounts)"), NULL, "sell" },
	{ 'o', A_ORDERS, N_("Your orders (cancel with x)"), NULL, "orders" },
	{ WKEY_F7, A_ORDERS, N_("Your orders (cancel with x)"), NULL, "orders" },
	{ 'R', A_RENTALS, N_("Your rentals (stop early with x)"), NULL, "rentals" },
	{ 'a', A_ACCOUNT, N_("Your account: balance, top-up, ledger"), NULL, "account" },
	{ 'S', A_SPARK_SCALE, N_("Sparklines on one scale (in the header), or each on its own"),
	  NULL, "spark-scale" },
	{ 'A', A_ALERT, N_("An alert on the selected GPU, kept by the exchange (at its best ask)"), NULL,
	  "alert" },
	{ WKEY_ESC, A_ESCAPE, N_("Clear the filter"), NULL, "clear-filter" },
};

static struct tui_browse *of(struct tui_screen *s)
{
	return (struct tui_browse *)s;
}

/* ---- the filter field ------------------------------------------------------------------------- */

/* What the filter field says after the text: how many rows it leaves, or
 * why what is typed cannot be read (the rows stay as the last filter that
 * could). */
static void filter_typed(struct tui_browse *b)
{
	char *cause = NULL, *n;

	if (browse_set_filter(b, wfield_text(b->filter), &cause) != 0) {
		wfield_set_error(b->filter, cause);
		free(cause);
		return;
	}
	wfield_set_error(b->filter, NULL);
	n = browse_count_text(b);
	wfield_set_after(b->filter, n);
	free(n);
}

/* The hint line over the status bar while a filter is typed. */
static void hint_build(struct tui_browse *b)
{
	struct tui *t = b->base.t;

	wpanel_begin(b->hint);
	wcells_add(wpanel_add(b->hint), view_filter_hint(t->o->lang), WR_STATUS, 0);
	wpanel_commit(b->hint);
}

static void open_filter(struct tui_browse *b)
{
	struct tui_tab *tb = &b->tab[b->cur];
	char *n;

	if (b->filter != NULL)
		return;
	b->filter = (struct wfield *)tui_screen_add(
		&b->base, &wfield_new(&b->base.t->ui, _("Filter: "), tb->filter)->base);
	b->hint = (struct wpanel *)tui_screen_add(&b->base, &wpanel_new(&b->base.t->ui)->base);
	n = browse_count_text(b);
	wfield_set_after(b->filter, n);
	free(n);
	wfield_focus(b->filter, true);
	tui_relayout(b->base.t);
}

static void close_filter(struct tui_browse *b)
{
	tui_screen_remove(&b->base, &b->filter->base);
	tui_screen_remove(&b->base, &b->hint->base);
	b->filter = NULL;
	b->hint = NULL;
}

static unsigned filter_event(struct tui_browse *b, const struct wevent *ev)
{
	struct tui *t = b->base.t;
	unsigned r;

	/* moving the cursor while filtering works as usual */
	if (ev->type == WEV_KEY && (ev->key == WKEY_UP || ev->key == WKEY_DOWN ||
				    ev->key == WKEY_PGUP || ev->key == WKEY_PGDN))
		return W_IGNORED;
	if (ev->type != WEV_KEY || ev->key == 'L' - '@' || ev->key == WKEY_F10)
		return W_IGNORED;
	r = wwidget_handle(&b->filter->base, ev);
	if (r & W_CHANGED)
		filter_typed(b);
	if (r & W_CLOSE) {
		if (!b->filter->submitted) {
			browse_set_filter(b, NULL, NULL);
		} else if (b->filter->error != NULL) {
			/* Enter on what cannot be read: said, the last filter stays */
			tui_message(t, b->filter->error);
		}
		close_filter(b);
	}
	/* typed keys never reach the map; W_CLOSE is the field's, not the screen's */
	return (r & ~(unsigned)W_CLOSE) | W_HANDLED | W_REDRAW;
}

/* ---- the search field ---------------------------------------------------------------------------- */

/* As typed: from the row the search started on, the first that matches. */
static void search_typed(struct tui_browse *b)
{
	const char *text = wfield_text(b->search);
	char *cause = NULL;
	bool wrapped;
	int rc;

	if (b->search_start != NULL)
		browse_goto(b, b->search_start);
	if (text[0] == '\0') {
		wfield_set_error(b->search, NULL);
		wfield_set_after(b->search, "");
		return;
	}
	rc = browse_search(b, text, 1, true, &wrapped, &cause);
	if (rc < 0)
		wfield_set_error(b->search, cause);
	else if (rc == 0)
		wfield_set_error(b->search, _("no row matches"));
	else {
		wfield_set_error(b->search, NULL);
		/* TRANSLATORS: the keys of the next and the previous match of the search */
		char *a = tui_key_text(b->base.t, _("Enter keeps it: %s next, %s previous"),
				       "search-next", "search-prev", NULL);
		wfield_set_after(b->search, a);
		free(a);
	}
	free(cause);
}

static void open_search(struct tui_browse *b)
{
	if (b->search != NULL || b->filter != NULL)
		return;
	browse_note_cursor(b);
	free(b->search_start);
	b->search_start = b->tab[b->cur].cursor_gpu != NULL ? xstrdup(b->tab[b->cur].cursor_gpu) : NULL;
	b->search = (struct wfield *)tui_screen_add(
		&b->base, &wfield_new(&b->base.t->ui, _("Search: "), "")->base);
	b->hint = (struct wpanel *)tui_screen_add(&b->base, &wpanel_new(&b->base.t->ui)->base);
	wfield_focus(b->search, true);
	tui_relayout(b->base.t);
}

static void close_search(struct tui_browse *b)
{
	tui_screen_remove(&b->base, &b->search->base);
	tui_screen_remove(&b->base, &b->hint->base);
	b->search = NULL;
	b->hint = NULL;
}

static unsigned search_event(struct tui_browse *b, const struct wevent *ev)
{
	unsigned r;

	if (ev->type != WEV_KEY || ev->key == 'L' - '@' || ev->key == WKEY_F10)
		return W_IGNORED;
	r = wwidget_handle(&b->search->base, ev);
	if (r & W_CHANGED)
		search_typed(b);
	if (r & W_CLOSE) {
		if (b->search->submitted && b->search->error == NULL && wfield_text(b->search)[0] != '\0') {
			free(b->search_text);
			b->search_text = xstrdup(wfield_text(b->search));
		} else if (b->search_start != NULL) {
			browse_goto(b, b->search_start); /* back where it started */
		}
		close_search(b);
	}
	return (r & ~(unsigned)W_CLOSE) | W_HANDLED | W_REDRAW;
}

/* n, N: the next or previous match of the search kept; :search TEXT. */
static void search_step(struct tui_browse *b, const char *text, int dir)
{
	struct tui *t = b->base.t;
	char *cause = NULL, *m = NULL;
	bool wrapped;
	int rc;

	if (text == NULL) {
		/* TRANSLATORS: %s is the key that starts a search (\\ unless rebound) */
		tui_key_message(t, _("No search yet: %s searches"), "search", NULL);
		return;
	}
	rc = browse_search(b, text, dir, false, &wrapped, &cause);
	if (rc < 0)
		m = cause;
	else if (rc == 0) {
		char *k = tui_key_label(t, "clear-filter");
		/* TRANSLATORS: %1$s is the search typed, %2$s the key that clears the filter */
		m = xasprintf(_("No row matches \u201c%1$s\u201d (the filter may hide some: %2$s clears it)"),
			      text, k);
		free(k);
	} else if (wrapped)
		m = xstrdup(dir > 0 ? _("Search went on from the top") : _("Search went on from the bottom"));
	if (m != NULL)
		tui_message(t, m);
	free(m);
}

/* ---- export and copy -------------------------------------------------------------------------------- */

/* :export csv|json [FILE] (FILE: gpux-WORKLOAD.csv in the directory gpux
 * started in); e opens the command line with that written in. */
static void export_table(struct tui_browse *b, const char *arg)
{
	struct tui *t = b->base.t;
	const char *id = b->tab[b->cur].w->id;
	char *copy = xstrdup(arg != NULL ? arg : ""), *fmt = copy, *file, *path, *cause = NULL, *m;
	size_t rows;

	file = fmt + strcspn(fmt, " ");
	if (*file != '\0') {
		*file++ = '\0';
		file += strspn(file, " ");
	}
	if (strcmp(fmt, "csv") != 0 && strcmp(fmt, "json") != 0) {
		m = xasprintf(_("Export as csv or json (:export csv [FILE]), not \u201c%s\u201d"), fmt);
		tui_message(t, m);
		free(m);
		free(copy);
		return;
	}
	path = *file != '\0' ? xstrdup(file) : xasprintf("gpux-%s.%s", id, fmt);
	if (browse_export(b, strcmp(fmt, "json") == 0 ? VIEW_EXPORT_JSON : VIEW_EXPORT_CSV, path, &rows,
			  &cause) != 0) {
		m = xasprintf(_("Not exported: %s"), cause);
		tui_messages_add(t, TUI_MSG_ERROR, m);
		free(cause);
	} else {
		/* TRANSLATORS: %zu rows of the table, %s the file */
		m = xasprintf(P_("Exported %zu row to %s", "Exported %zu rows to %s", (unsigned long)rows),
			      rows, path);
		tui_message(t, m);
	}
	free(m);
	free(path);
	free(copy);
}

static void copy_cell(struct tui_browse *b, const char *col)
{
	struct tui *t = b->base.t;
	char *what, *text = browse_cell(b, col, &what);

	if (text == NULL) {
		tui_key_no_selection(t);
		return;
	}
	if (col != NULL && b->tab[b->cur].view != NULL &&
	    view_column_index(b->tab[b->cur].view, col) < 0 && strcmp(col, "gpu") != 0) {
		char *m = xasprintf(_("No column \u201c%s\u201d in this table: Tab after :sort lists them"),
				    col);
		tui_message(t, m);
		free(m);
	} else {
		tui_copy(t, text, what, false);
	}
	free(text);
	free(what);
}

/* ---- actions ------------------------------------------------------------------------------------ */

static unsigned order(struct tui_browse *b, bool sell)
{
	struct tui *t = b->base.t;
	const char *gpu;

	browse_note_cursor(b);
	gpu = b->tab[b->cur].cursor_gpu;
	if (gpu == NULL) {
		tui_key_no_selection(t);
	} else {
		struct tui_goto g = { .sell = sell }; /* what the fit job needs on this GPU */
		char *id = xstrdup(gpu);
		if (!sell)
			browse_order_size(b, id, &g);
		g.sell = sell;
		g.gpu = id;
		tui_open(t, TUI_ORDER_FORM, &g);
		free(id);
	}
	return W_HANDLED | W_REDRAW;
}

/* A: the alerts page, a new alert for the row's GPU being typed. */
static void alert_on_row(struct tui_browse *b)
{
	struct tui *t = b->base.t;
	char *id;

	browse_note_cursor(b);
	if (b->tab[b->cur].cursor_gpu == NULL) {
		tui_key_no_selection(t);
		return;
	}
	id = xstrdup(b->tab[b->cur].cursor_gpu);
	tui_open(t, TUI_ALERTS, &(struct tui_goto){ .gpu = id });
	free(id);
}

static unsigned detail(struct tui_browse *b)
{
	struct tui *t = b->base.t;
	const char *gpu;

	browse_note_cursor(b);
	gpu = b->tab[b->cur].cursor_gpu;
	if (gpu == NULL) {
		tui_key_no_selection(t);
		return W_HANDLED | W_REDRAW;
	}
	char *id = xstrdup(gpu);
	struct tui_goto g = { 0 };
	browse_order_size(b, id, &g);
	g.gpu = id;
	tui_open(t, TUI_DETAIL, &g);
	free(id);
	return W_HANDLED | W_REDRAW;
}

void tui_browse_step_open(struct tui *t, const struct tui_goto *g)
{
	struct tui_browse *b = (struct tui_browse *)tui_find(t, &tui_browse_class);
	const struct view_table *v = b != NULL ? b->tab[b->cur].view : NULL;
	int pos, to;

	if (v == NULL || v->n_shown == 0 || b->table == NULL)
		return;
	pos = g->gpu != NULL ? view_find(v, g->gpu) : -1;
	if (pos < 0)
		pos = (int)b->table->sel;
	to = pos + (g->step < 0 ? -1 : 1);
	if (to < 0 || (size_t)to >= v->n_shown) {
		tui_message(t, to < 0 ? _("The first GPU of the table: no previous one")
				      : _("The last GPU of the table: no next one"));
		return;
	}
	wtable_select(b->table, (size_t)to);
	browse_note_cursor(b);
	detail(b);
}

/* :tab N or :tab WORKLOAD (its id, "inference"), or the digit pressed. */
static void tab_to(struct tui_browse *b, wkey key, const char *arg)
{
	struct tui *t = b->base.t;

	if (arg == NULL) {
		if (key >= '1' && key <= '9')
			browse_show_tab(b, (size_t)(key - '1'));
		return;
	}
	for (size_t i = 0; i < b->n_tabs; i++) {
		char n[24];
		snprintf(n, sizeof n, "%zu", i + 1);
		if (strcmp(arg, n) == 0 || strcmp(arg, b->tab[i].w->id) == 0) {
			browse_show_tab(b, i);
			return;
		}
	}
	char *m = xasprintf(_("No tab \u201c%s\u201d: 1 to %zu, or a workload's id"), arg, b->n_tabs);
	tui_message(t, m);
	free(m);
}

/* :sort COLUMN [desc] */
static void sort_named(struct tui_browse *b, const char *arg)
{
	struct tui *t = b->base.t;
	char *col = xstrdup(arg != NULL ? arg : ""), *sp = strchr(col, ' ');
	bool desc = false;

	if (sp != NULL) {
		*sp++ = '\0';
		desc = strcmp(sp, "desc") == 0 || strcmp(sp, "-") == 0;
	}
	if (col[0] == '-') {
		desc = true;
		memmove(col, col + 1, strlen(col));
	}
	if (browse_sort_named(b, col, desc) != 0) {
		char *m = xasprintf(_("No column \u201c%s\u201d in this table: Tab after :sort lists them"),
				    col);
		tui_message(t, m);
		free(m);
	}
	free(col);
}

static unsigned goto_gpu(struct tui_browse *b, const char *arg)
{
	struct tui *t = b->base.t;
	const struct catalog_gpu *g = tui_gpu_named(t, arg);

	if (g == NULL) {
		char *m = xasprintf(_("No GPU \u201c%s\u201d in the catalogue"), arg != NULL ? arg : "");
		tui_message(t, m);
		free(m);
		return W_HANDLED | W_REDRAW;
	}
	browse_goto(b, g->id);
	return W_HANDLED | W_REDRAW;
}

static unsigned table_move(struct tui_browse *b, int action)
{
	unsigned r = wtable_do(b->table, (enum wtable_action)action);

	if (r & W_SELECT)
		browse_note_cursor(b);
	b->tab[b->cur].scroll = b->table->scroll;
	return r | W_HANDLED;
}

static unsigned act(struct tui_screen *s, size_t map, int action, wkey key, const char *arg)
{
	struct tui_browse *b = of(s);
	struct tui *t = s->t;

	if (map == 1)
		return table_move(b, action);
	switch ((enum tui_action)action) {
	case A_TAB: tab_to(b, key, arg); break;
	case A_TAB_NEXT: browse_show_tab(b, (b->cur + 1) % b->n_tabs); break;
	case A_TAB_PREV: browse_show_tab(b, (b->cur + b->n_tabs - 1) % b->n_tabs); break;
	case A_SORT_NEXT: browse_sort_step(b, 1); break;
	case A_SORT_PREV: browse_sort_step(b, -1); break;
	case A_SORT_REVERSE: browse_sort_reverse(b); break;
	case A_SORT: sort_named(b, arg); break;
	case A_FILTER:
		if (b->search != NULL)
			break;
		if (arg != NULL) {
			char *cause = NULL;
			if (browse_set_filter(b, arg, &cause) != 0) {
				tui_message(t, cause);
				free(cause);
			}
		} else {
			open_filter(b);
		}
		break;
	case A_SEARCH:
		if (arg == NULL) {
			open_search(b);
		} else {
			free(b->search_text);
			b->search_text = xstrdup(arg);
			search_step(b, b->search_text, 1);
		}
		break;
	case A_SEARCH_NEXT: search_step(b, b->search_text, 1); break;
	case A_SEARCH_PREV: search_step(b, b->search_text, -1); break;
	case A_COLUMNS: browse_columns_open(b); break;
	case A_ESCAPE:
		if (b->tab[b->cur].filter != NULL)
			browse_set_filter(b, NULL, NULL);
		break;
	case A_DETAIL: return detail(b);
	case A_GOTO: return goto_gpu(b, arg);
	case A_MARK: browse_toggle_mark(b); break;
	case A_WATCH: browse_toggle_watch(b); break;
	case A_EXPORT:
		if (arg != NULL) {
			export_table(b, arg);
		} else {
			char *line = xasprintf("export csv gpux-%s.csv", b->tab[b->cur].w->id);
			tui_command_open_with(t, line);
			free(line);
		}
		break;
	case A_COPY: copy_cell(b, arg); break;
	case A_COMPARE: browse_compare(b); break;
	case A_BUY: return order(b, false);
	case A_SELL: return order(b, true);
	case A_FIT: tui_open(t, TUI_FIT, NULL); break;
	case A_FIT_TOGGLE: tui_open(t, TUI_FIT, &(struct tui_goto){ .toggle = true }); break;
	case A_FIT_CHEAPEST: browse_sort_cheapest(b); break;
	case A_JOB_ORDER: tui_open(t, TUI_JOB_ORDER, NULL); break;
	case A_ORDERS: tui_open(t, TUI_ORDERS, NULL); break;
	case A_RENTALS: tui_open(t, TUI_RENTALS, NULL); break;
	case A_ACCOUNT: tui_open(t, TUI_ACCOUNT, NULL); break;
	case A_ALERT: alert_on_row(b); break;
	case A_SPARK_SCALE: browse_toggle_spark_scale(b); break;
	default: return W_IGNORED;
	}
	return W_HANDLED | W_REDRAW;
}

/* Every action, and what the session remembers after it. */
static unsigned scr_act(struct tui_screen *s, size_t map, int action, wkey key, const char *arg)
{
	unsigned r = act(s, map, action, key, arg);

	browse_remember(of(s));
	return r;
}

static unsigned mouse_event(struct tui_browse *b, const struct wevent *ev)
{
	unsigned r;

	if (wwidget_contains(&b->tabs->base, ev->y, ev->x)) {
		r = wwidget_handle(&b->tabs->base, ev);
		if (r & W_ACTION)
			browse_show_tab(b, b->tabs->clicked);
		return r | W_HANDLED;
	}
	if (!wwidget_contains(&b->table->base, ev->y, ev->x))
		return W_IGNORED;
	r = wwidget_handle(&b->table->base, ev);
	if ((r & W_ACTION) && b->table->event == WTABLE_EV_HEADER_CLICK)
		browse_sort_visible(b, b->table->event_col);
	if (r & W_SELECT)
		browse_note_cursor(b);
	return r | W_HANDLED;
}

static unsigned scr_event(struct tui_screen *s, const struct wevent *ev)
{
	struct tui_browse *b = of(s);
	unsigned r;

	if (b->filter != NULL) {
		r = filter_event(b, ev);
		if (r != W_IGNORED) {
			browse_remember(b);
			return r;
		}
	}
	if (b->search != NULL) {
		r = search_event(b, ev);
		if (r != W_IGNORED)
			return r;
	}
	if (ev->type == WEV_MOUSE) {
		r = mouse_event(b, ev);
		browse_remember(b);
		return r;
	}
	/* the tables' keys, then the table's moves: both maps of the registry */
	return tui_screen_dispatch(s, ev);
}

/* ---- the screen class ------------------------------------------------------------------------- */

static void scr_layout(struct tui_screen *s, struct tui_area *body)
{
	struct tui_browse *b = of(s);
	struct tui *t = s->t;

	wwidget_place(&b->tabs->base, 0, 0, 1, t->cols);
	wwidget_place(&b->table->base, body->y, body->x, body->h, body->w);
	if (b->filter != NULL) {
		/* the filter takes the F-key bar's row, what it takes the status bar's */
		wwidget_place(&b->filter->base, t->lines - 1, 0, 1, t->cols);
		wwidget_place(&b->hint->base, t->lines - 2, 0, 1, t->cols);
		hint_build(b);
		body->fkeys = false;
	}
	if (b->search != NULL) {
		wwidget_place(&b->search->base, t->lines - 1, 0, 1, t->cols);
		wwidget_place(&b->hint->base, t->lines - 2, 0, 1, t->cols);
		hint_build(b);
		body->fkeys = false;
	}
	/* the pinned columns depend on the width (the sparkline's) */
	wtable_reload(b->table, true);
	/* windows were made afresh: let the table keep its cursor in view */
	wtable_select(b->table, b->table->sel);
	body->h = 0;
}

static void scr_recalc(struct tui_screen *s, int64_t now)
{
	struct tui_browse *b = of(s);
	struct tui *t = s->t;
	struct tui_tab *tb = &b->tab[b->cur];

	browse_recalc(b, now);
	free(t->status_note);
	t->status_note = NULL;
	if (tb->filter != NULL && b->filter == NULL) {
		char *n = browse_count_text(b);
		char *f = view_text_cut(tb->filter, 16, t->ascii);
		t->status_note = xasprintf(_("filter \"%s\": %s"), f, n);
		free(f);
		free(n);
	}
	if (b->n_marks > 0) {
		/* TRANSLATORS: status bar: GPUs marked with Space; = compares them */
		char *m = xasprintf(P_("%zu marked (= compares)", "%zu marked (= compares)",
				       (unsigned long)b->n_marks), b->n_marks);
		char *x = t->status_note != NULL ? xasprintf("%s \u00b7 %s", t->status_note, m) : m;
		if (x != m)
			free(m);
		free(t->status_note);
		t->status_note = x;
	}
}

static void scr_notify(struct tui_screen *s, unsigned what)
{
	if (what & TN_LANG)
		browse_lang_changed(of(s));
}

static const struct tui_keymap keys[] = {
	{ N_("Tables"), bindings, sizeof bindings / sizeof bindings[0] },
	{ N_("Moving around"), wtable_bindings, WTABLE_N_BINDINGS },
};

/* The table's own keys first, then the tables', as bound. */
static size_t scr_help(struct tui_screen *s, struct whelp_section *out, size_t max)
{
	size_t n = 0, nm;
	const struct wbinding *m;

	if (n < max) {
		m = tui_keys_map(s->t, &keys[1], &nm);
		out[n++] = (struct whelp_section){ _(keys[1].title), m, nm };
	}
	if (n < max) {
		m = tui_keys_map(s->t, &keys[0], &nm);
		out[n++] = (struct whelp_section){ _(keys[0].title), m, nm };
	}
	return n;
}

static void scr_free(struct tui_screen *s)
{
	browse_free(of(s));
}

/* The job order is offered on the F-key bar while a fit job is set. */
static bool scr_offers(const struct tui_screen *s, int action)
{
	return action != A_JOB_ORDER || s->t->job.have;
}

const struct tui_screen_class tui_browse_class = {
	.name = "browse", .flags = TS_OPAQUE, .layout = scr_layout, .recalc = scr_recalc,
	.event = scr_event, .notify = scr_notify, .help = scr_help, .offers = scr_offers,
	.free = scr_free, .act = scr_act, .keys = keys, .n_keys = 2,
};

struct tui_screen *tui_browse_new(struct tui *t)
{
	struct tui_browse *b = xcalloc(1, sizeof *b);

	tui_screen_init(&b->base, &tui_browse_class, t);
	browse_init(b);
	return &b->base;
}
