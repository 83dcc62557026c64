/*
 * The key map of the browse screen, as data (nnn's bindings[]): key →
 * action, with the help line each action shows in the `?` overlay. An event
 * goes, in order, to the open overlay, to the filter field while one is
 * typed, to this map, then to the table widget (its own bindings: arrows,
 * hjkl, PgUp/PgDn, Home/End, g/G). The help is generated from this map and
 * the widgets' maps, so it can never list a key that does not work.
 *
 * The keys of the next issues (f fit panel, b/s order form, o orders,
 * a account) are not in the map until their screens exist.
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

static const struct wbinding bindings[] = {
	{ '1', A_TAB, N_("Workload tab by its number") },
	{ '2', A_TAB, N_("Workload tab by its number") },
	{ '3', A_TAB, N_("Workload tab by its number") },
	{ '4', A_TAB, N_("Workload tab by its number") },
	{ '5', A_TAB, N_("Workload tab by its number") },
	{ '6', A_TAB, N_("Workload tab by its number") },
	{ WKEY_TAB, A_TAB_NEXT, N_("Next workload tab") },
	{ WKEY_BTAB, A_TAB_PREV, N_("Previous workload tab") },
	{ '>', A_SORT_NEXT, N_("Sort by the next column") },
	{ WKEY_F6, A_SORT_NEXT, N_("Sort by the next column") },
	{ '<', A_SORT_PREV, N_("Sort by the previous column") },
	{ 'r', A_SORT_REVERSE, N_("Reverse the sort (not published stays last)") },
	{ '/', A_FILTER, N_("Filter rows as you type (Enter keeps, Esc clears)") },
	{ WKEY_F3, A_FILTER, N_("Filter rows as you type (Enter keeps, Esc clears)") },
	{ 'c', A_COLUMNS, N_("Choose and order the columns") },
	{ WKEY_F2, A_COLUMNS, N_("Choose and order the columns") },
	/* fitpanel.c: the fit calculator */
	{ 'f', A_FIT, N_("Fit calculator: show it and type in it (Esc back to the table)") },
	{ WKEY_F4, A_FIT_TOGGLE, N_("Show or hide the fit calculator") },
	{ '$', A_FIT_CHEAPEST, N_("Sort by the job's cost per hour, GPUs that can take it first (again: catalogue order)") },
	/* order.c: order entry, orders, rentals, account */
	{ 'b', A_BUY, N_("Buy the selected GPU: the order form") },
	{ WKEY_F5, A_BUY, N_("Buy the selected GPU: the order form") },
	{ 's', A_SELL, N_("Sell the selected GPU (seller accounts)") },
	{ 'o', A_ORDERS, N_("Your orders (cancel with x)") },
	{ WKEY_F7, A_ORDERS, N_("Your orders (cancel with x)") },
	{ 'R', A_RENTALS, N_("Your rentals (stop early with x)") },
	{ 'a', A_ACCOUNT, N_("Your account: balance, top-up, ledger") },
	{ WKEY_ESC, A_ESCAPE, N_("Clear the filter") },
	{ 'L', A_LANG, N_("Language (remembered for the next start)") }, /* lang.c */
	{ 'L' - '@', A_REDRAW, N_("Redraw the screen") },
	{ '?', A_HELP, N_("This help") },
	{ WKEY_F1, A_HELP, N_("This help") },
	{ 'q', A_QUIT, N_("Quit") },
	{ WKEY_F10, A_QUIT, N_("Quit") },
};

static const size_t n_bindings = sizeof bindings / sizeof bindings[0];

/* The table widget's class bindings, for the help. */
static const struct wbinding *table_bindings(const struct tui *t, size_t *n)
{
	*n = t->table->base.cls->n_bindings;
	return t->table->base.cls->bindings;
}

struct whelp *tui_help_new(struct tui *t)
{
	size_t nt, nf;
	const struct wbinding *tb = table_bindings(t, &nt);
	const struct wbinding *fb = tui_fit_bindings(&nf); /* fitpanel.c */
	struct whelp_section s[] = {
		{ _("Moving around"), tb, nt },
		{ _("Tables"), bindings, n_bindings },
		{ _("Fit calculator (while it has the keyboard)"), fb, nf },
	};

	return whelp_new(&t->ui, _("gpux keys"),
			 _("mouse: click a header to sort, a tab or row to select; any key closes"),
			 s, sizeof s / sizeof s[0]);
}

static void open_filter(struct tui *t)
{
	struct tui_tab *tb = &t->tab[t->cur];
	char *n;

	if (t->filter != NULL)
		return;
	t->filter = wfield_new(&t->ui, _("Filter: "), tb->filter);
	n = tui_count_text(t);
	wfield_set_after(t->filter, n);
	free(n);
	wfield_focus(t->filter, true);
	tui_relayout(t);
}

static void close_filter(struct tui *t)
{
	wfield_free(&t->filter);
	tui_relayout(t);
}

static unsigned do_action(struct tui *t, enum tui_action a, wkey key)
{
	switch (a) {
	case A_QUIT:
		t->quit = true;
		return W_HANDLED | W_QUIT;
	case A_HELP: {
		struct whelp *h = tui_help_new(t);
		whelp_place(h, t->lines, t->cols);
		t->overlay = &h->base;
		t->ov = OV_HELP;
		return W_HANDLED | W_REDRAW;
	}
	case A_TAB:
		if (key >= '1' && key <= '9')
			tui_show_tab(t, (size_t)(key - '1'));
		return W_HANDLED | W_REDRAW;
	case A_TAB_NEXT:
		tui_show_tab(t, (t->cur + 1) % t->n_tabs);
		return W_HANDLED | W_REDRAW;
	case A_TAB_PREV:
		tui_show_tab(t, (t->cur + t->n_tabs - 1) % t->n_tabs);
		return W_HANDLED | W_REDRAW;
	case A_SORT_NEXT:
		tui_sort_step(t, 1);
		return W_HANDLED | W_REDRAW;
	case A_SORT_PREV:
		tui_sort_step(t, -1);
		return W_HANDLED | W_REDRAW;
	case A_SORT_REVERSE:
		tui_sort_reverse(t);
		return W_HANDLED | W_REDRAW;
	case A_FILTER:
		open_filter(t);
		return W_HANDLED | W_REDRAW;
	case A_COLUMNS:
		tui_columns_open(t);
		return W_HANDLED | W_REDRAW;
	case A_ESCAPE:
		if (t->tab[t->cur].filter != NULL)
			tui_set_filter(t, NULL);
		return W_HANDLED | W_REDRAW;
	case A_REDRAW:
		clearok(curscr, TRUE);
		tui_relayout(t);
		return W_HANDLED | W_REDRAW;
	/* order.c */
	case A_BUY:
	case A_SELL:
		tui_note_cursor(t);
		if (t->tab[t->cur].cursor_gpu == NULL)
			tui_message(t, _("No GPU selected: clear the filter (Esc) and choose a row"));
		else {
			int gpus = 0, hours = 0; /* fitpanel.c: what the job needs on this GPU */
			if (a == A_BUY)
				tui_fit_order_size(t, t->tab[t->cur].cursor_gpu, &gpus, &hours);
			tui_order_open(t, t->tab[t->cur].cursor_gpu, a == A_SELL, gpus, hours);
		}
		return W_HANDLED | W_REDRAW;
	/* fitpanel.c */
	case A_FIT:
		tui_fit_open(t);
		return W_HANDLED | W_REDRAW;
	case A_FIT_TOGGLE:
		tui_fit_toggle(t);
		return W_HANDLED | W_REDRAW;
	case A_FIT_CHEAPEST:
		tui_fit_sort_cheapest(t);
		return W_HANDLED | W_REDRAW;
	case A_ORDERS:
		tui_orders_open(t);
		return W_HANDLED | W_REDRAW;
	case A_RENTALS:
		tui_rentals_open(t);
		return W_HANDLED | W_REDRAW;
	case A_ACCOUNT:
		tui_account_open(t);
		return W_HANDLED | W_REDRAW;
	case A_LANG: /* lang.c */
		tui_lang_open(t);
		return W_HANDLED | W_REDRAW;
	case A_NONE:
		break;
	}
	return W_IGNORED;
}

/* What lies beneath an overlay is copied to the screen again. */
static void touch_beneath(struct tui *t)
{
	wwidget_touch(&t->tabs->base);
	wwidget_touch(&t->table->base);
	wwidget_touch(&t->status->base);
	wwidget_touch(&t->fkeys->base);
	if (t->filter != NULL)
		wwidget_touch(&t->filter->base);
	tui_trade_touch(t); /* order.c */
	tui_fit_touch(t); /* fitpanel.c */
}

static unsigned overlay_event(struct tui *t, const struct wevent *ev)
{
	unsigned r;

	/* lang.c: L on a help screen (of the tables or of a page) opens the
	 * language menu in its place */
	if (t->ov == OV_HELP && ev->type == WEV_KEY && ev->key == 'L') {
		tui_lang_open(t);
		touch_beneath(t);
		return W_HANDLED | W_REDRAW;
	}
	r = wwidget_handle(t->overlay, ev);
	if (!(r & W_CLOSE))
		return r | W_HANDLED;
	if (t->ov == OV_COLUMNS) {
		struct wchecklist *c = (struct wchecklist *)t->overlay;
		if (c->accepted)
			tui_columns_apply(t, c);
	}
	if (t->ov == OV_LANG) /* lang.c: switch now if a language was chosen */
		tui_lang_menu_closed(t);
	wwidget_free(&t->overlay);
	t->ov = OV_NONE;
	touch_beneath(t); /* what lay beneath is copied to the screen again */
	return W_HANDLED | W_REDRAW;
}

static unsigned filter_event(struct tui *t, const struct wevent *ev)
{
	unsigned r;

	/* moving the cursor while filtering works as usual */
	if (ev->type == WEV_KEY && (ev->key == WKEY_UP || ev->key == WKEY_DOWN ||
				    ev->key == WKEY_PGUP || ev->key == WKEY_PGDN))
		return W_IGNORED;
	if (ev->type != WEV_KEY)
		return W_IGNORED;
	r = wwidget_handle(&t->filter->base, ev);
	if (r & W_CHANGED) {
		char *n;
		tui_set_filter(t, wfield_text(t->filter));
		n = tui_count_text(t);
		wfield_set_after(t->filter, n);
		free(n);
	}
	if (r & W_CLOSE) {
		if (!t->filter->submitted)
			tui_set_filter(t, NULL);
		close_filter(t);
	}
	return r & W_HANDLED ? r : W_HANDLED; /* typed keys never reach the map */
}

static unsigned mouse_event(struct tui *t, const struct wevent *ev)
{
	unsigned r;

	if (wwidget_contains(&t->tabs->base, ev->y, ev->x)) {
		r = wwidget_handle(&t->tabs->base, ev);
		if (r & W_ACTION)
			tui_show_tab(t, t->tabs->clicked);
		return r;
	}
	if (wwidget_contains(&t->fkeys->base, ev->y, ev->x)) {
		r = wwidget_handle(&t->fkeys->base, ev);
		if (r & W_ACTION) {
			const struct wbinding *b = wbinding_find(bindings, n_bindings, t->fkeys->clicked);
			if (b != NULL)
				return do_action(t, (enum tui_action)b->action, b->key);
		}
		return r;
	}
	r = wwidget_handle(&t->table->base, ev);
	if ((r & W_ACTION) && t->table->event == WTABLE_EV_HEADER_CLICK)
		tui_sort_visible(t, t->table->event_col);
	if (r & W_SELECT)
		tui_note_cursor(t);
	return r;
}

unsigned tui_handle_event(struct tui *t, const struct wevent *ev)
{
	unsigned r;

	if (t->overlay != NULL)
		return overlay_event(t, ev);
	if (t->too_small) {
		if (ev->type == WEV_KEY && (ev->key == 'q' || ev->key == WKEY_F10)) {
			t->quit = true;
			return W_QUIT;
		}
		return W_HANDLED;
	}
	if (tui_trade_shown(t)) /* order.c: a page replaces the tables */
		return tui_trade_event(t, ev);
	if (t->filter != NULL) {
		r = filter_event(t, ev);
		if (r != W_IGNORED)
			return r;
	}
	r = tui_fit_event(t, ev); /* fitpanel.c: its keys while focused, clicks on it */
	if (r != W_IGNORED)
		return r;
	if (ev->type == WEV_MOUSE)
		return mouse_event(t, ev);
	const struct wbinding *b = wbinding_find(bindings, n_bindings, ev->key);
	if (b != NULL)
		return do_action(t, (enum tui_action)b->action, ev->key);
	r = wwidget_handle(&t->table->base, ev);
	if (r & W_SELECT)
		tui_note_cursor(t);
	if (r & W_REDRAW)
		t->tab[t->cur].scroll = t->table->scroll;
	return r;
}
