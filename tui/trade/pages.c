/*
 * What every trade page is (struct tui_page, trade.h): a screen that
 * covers the tables under a row of page tabs (Order form · Orders ·
 * Rentals · Account), above the frame's status and F-key bars, with the
 * keys that move between pages. A page is kept when it leaves the stack
 * (TS_PAGE), and the stack holds one at a time: opening another takes its
 * place, Esc goes back to what lay beneath (the tables, or the detail
 * screen it was opened over).
 *
 * A page opens another only by place (tui_open): the order form for the
 * GPU of the row under its cursor (b, s), the next page (Tab), or a page
 * by its key or tab.
 */
#include "tui/trade/trade.h"

#include <stdlib.h>

#include "i18n/i18n.h"
#include "util/util.h"

/* The pages in the order of their tabs. */
static const struct {
	enum tui_place place;
	const char *label;          /* msgid */
} tabs[] = {
	{ TUI_ORDER_FORM, N_("Order form") },
	{ TUI_ORDERS, N_("Orders") },
	{ TUI_RENTALS, N_("Rentals") },
	{ TUI_ACCOUNT, N_("Account") },
	{ TUI_ALERTS, N_("Alerts") },
};
enum { N_TABS = sizeof tabs / sizeof tabs[0] };

enum { PK_ORDERS = TUI_PAGE_ACTIONS, PK_RENTALS, PK_ACCOUNT, PK_ALERTS, PK_NEXT, PK_PREV, PK_BUY,
       PK_SELL, PK_BACK };

/* The keys every page shares (a page's own map comes first); q, F10,
 * Ctrl-L, F1, ? and L are the frame's. */
const struct wbinding tui_page_bindings[TUI_PAGE_N_KEYS] = {
	{ 'o', PK_ORDERS, N_("Your orders"), N_("Orders"), "orders" },
	{ WKEY_F7, PK_ORDERS, N_("Your orders"), NULL, "orders" },
	{ 'R', PK_RENTALS, N_("Your rentals"), N_("Rentals"), "rentals" },
	{ 'a', PK_ACCOUNT, N_("Your account"), N_("Account"), "account" },
	/* not on the F-key bar: the tabs above name the page, and at 80 columns
	 * Back and Quit come first */
	{ 'A', PK_ALERTS, N_("Your alerts and messages"), NULL, "alerts" },
	{ WKEY_TAB, PK_NEXT, N_("Next page"), NULL, "page-next" },
	{ WKEY_BTAB, PK_PREV, N_("Previous page"), NULL, "page-prev" },
	{ 'b', PK_BUY, N_("Order form: buy the selected row's GPU"), NULL, "buy" },
	{ WKEY_F5, PK_BUY, N_("Order form: buy the selected row's GPU"), NULL, "buy" },
	{ 's', PK_SELL, N_("Order form: sell the selected row's GPU (seller accounts)"), NULL,
	  "sell" },
	{ WKEY_ESC, PK_BACK, N_("Back to the tables"), N_("Back"), "back" },
};

static size_t tab_of(enum tui_place p)
{
	for (size_t i = 0; i < N_TABS; i++)
		if (tabs[i].place == p)
			return i;
	return 0;
}

/* The page tabs, in the current language (again after a switch). */
static struct wtabs *tabs_new(struct tui_page *p)
{
	const char *labels[N_TABS];
	struct wtabs *w;

	for (size_t i = 0; i < N_TABS; i++)
		labels[i] = _(tabs[i].label);
	w = wtabs_new(&p->base.t->ui, labels, N_TABS);
	wtabs_set_active(w, tab_of(p->place));
	return w;
}

void tui_page_init(struct tui_page *p, const struct tui_screen_class *cls, struct tui *t,
		   enum tui_place place)
{
	tui_screen_init(&p->base, cls, t);
	p->place = place;
	p->tabs = (struct wtabs *)tui_screen_add(&p->base, &tabs_new(p)->base);
}

void tui_page_show(struct tui_page *p)
{
	struct tui *t = p->base.t;

	if (tui_on_stack(t, &p->base) || tui_find_kept(t, p->base.cls) == &p->base)
		tui_raise(t, &p->base);
	else
		tui_push(t, &p->base);
}

void tui_page_layout(struct tui_page *p)
{
	wwidget_place(&p->tabs->base, 0, 0, 1, p->base.t->cols);
}

void tui_page_notify(struct tui_page *p, unsigned what)
{
	if (what & TN_LANG) {
		tui_screen_remove(&p->base, &p->tabs->base);
		p->tabs = (struct wtabs *)tui_screen_add(&p->base, &tabs_new(p)->base);
	}
	if (what & TN_ENTER) {
		/* what every page shows, asked again */
		tui_account_soon(p->base.t);
		tui_market_state_soon(p->base.t);
	}
}

bool tui_page_offers(const struct tui_page *p, int action)
{
	switch (action) {
	case PK_ORDERS: return p->place != TUI_ORDERS;
	case PK_RENTALS: return p->place != TUI_RENTALS;
	case PK_ACCOUNT: return p->place != TUI_ACCOUNT;
	case PK_ALERTS: return p->place != TUI_ALERTS;
	default: return true;
	}
}

/* Tab: the next page (the order form only once there is one). */
static void cycle(struct tui_page *p, int dir)
{
	struct tui *t = p->base.t;
	size_t i = tab_of(p->place);

	for (size_t k = 0; k < N_TABS; k++) {
		i = (i + N_TABS + (size_t)(dir > 0 ? 1 : N_TABS - 1)) % N_TABS;
		if (tabs[i].place != TUI_ORDER_FORM || tui_place_screen(t, TUI_ORDER_FORM) != NULL)
			break;
	}
	tui_open(t, tabs[i].place, NULL);
}

/* b, s: the order form for the row's GPU, else the form as it was. */
static void to_form(struct tui_page *p, bool sell)
{
	const char *g = p->gpu != NULL ? p->gpu(p) : NULL;
	char *id = g != NULL ? xstrdup(g) : NULL; /* the list may be rebuilt meanwhile */

	tui_open(p->base.t, TUI_ORDER_FORM, &(struct tui_goto){ .gpu = id, .sell = sell });
	free(id);
}

static unsigned tab_click(struct tui_page *p, const struct wevent *ev)
{
	if (wwidget_handle(&p->tabs->base, ev) & W_ACTION)
		tui_open(p->base.t, tabs[p->tabs->clicked % N_TABS].place, NULL);
	return W_HANDLED | W_REDRAW;
}

unsigned tui_page_event(struct tui_page *p, const struct wevent *ev)
{
	struct tui *t = p->base.t;
	const struct wbinding *b;

	if (ev->type == WEV_MOUSE)
		return wwidget_contains(&p->tabs->base, ev->y, ev->x) ? tab_click(p, ev) : W_IGNORED;
	size_t n;
	const struct wbinding *map = tui_keys_bound(t, tui_page_bindings, TUI_PAGE_N_KEYS, &n);

	b = wbinding_find(map, n, ev->key);
	if (b == NULL)
		return W_IGNORED;
	switch (b->action) {
	case PK_ORDERS: tui_open(t, TUI_ORDERS, NULL); break;
	case PK_RENTALS: tui_open(t, TUI_RENTALS, NULL); break;
	case PK_ACCOUNT: tui_open(t, TUI_ACCOUNT, NULL); break;
	case PK_ALERTS: tui_open(t, TUI_ALERTS, NULL); break;
	case PK_NEXT: cycle(p, 1); break;
	case PK_PREV: cycle(p, -1); break;
	case PK_BUY: to_form(p, false); break;
	case PK_SELL: to_form(p, true); break;
	case PK_BACK: tui_remove(t, &p->base); break;
	}
	return W_HANDLED | W_REDRAW;
}

void tui_page_detail(struct tui_page *p, const char *gpu)
{
	char *id;

	if (gpu == NULL) {
		tui_message(p->base.t, _("No row selected"));
		return;
	}
	id = xstrdup(gpu); /* the list may be rebuilt meanwhile */
	tui_open(p->base.t, TUI_DETAIL, &(struct tui_goto){ .gpu = id, .fits = -1 });
	free(id);
}

/* ---- what the pages' heads say ----------------------------------------------------------------- */

void tui_add_whole(struct wcells *c, const char *seg, int width)
{
	if (c->width + wtext_width(seg, c->ascii) <= width)
		wcells_add(c, seg, WR_NORMAL, 0);
}

void tui_page_balance(struct tui *t, struct wcells *c)
{
	const struct api_account *a = t->account.a;
	const char *err = t->account.error;
	char *av, *hd, *x;

	if (a == NULL || !a->has_balance) {
		wcells_add(c, err != NULL ? err : _("asking the exchange for your balance…"),
			   err != NULL ? WR_BAD : WR_DIM, 0);
		return;
	}
	av = tui_money(t, a->balance.available_minor, a->currency);
	hd = tui_money(t, a->balance.held_minor, a->currency);
	x = xasprintf(_("Available %s"), av);
	wcells_add(c, x, WR_NORMAL, WAT_BOLD);
	free(x);
	x = xasprintf(_(" · held %s"), hd);
	wcells_add(c, x, WR_NORMAL, 0);
	free(x);
	free(av);
	free(hd);
}
