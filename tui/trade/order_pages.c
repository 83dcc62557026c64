/*
 * The screen of the order pages: the order form, your orders, your rentals
 * and your account cover the tables (an opaque screen on the stack, Esc
 * goes back) under a line of page tabs, above the app's status bar and a
 * per-page F-key bar. This file holds that screen and what the pages share:
 *
 *  - the account (role, currency, balances) and the market (state, opening
 *    time, whether deposits are simulated), fetched while a page is shown
 *    and after anything that moves money, so every page shows the same;
 *  - dialogs (confirmations and results), screens over the page: each
 *    carries the callback of the page that opened it;
 *  - struct wpanel (lines of cells, redrawn only when they change) and
 *    struct tp_grid (rows of texts the table widget shows, the cursor
 *    following its row's id, not its position, as rows come and go);
 *  - struct tp_list: a head panel over a table, the plumbing of the orders,
 *    rentals and account pages (layout, render, keys, when to ask again);
 *  - formatting in the TUI's language and the exchange's errors in words.
 *
 * Nothing waits: every request is started from the tick (or a key) and its
 * callback stores the reply and rebuilds what shows it.
 */
#include "tui/trade/order_int.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

static const struct tp_page_ops *const page_ops[TP_COUNT] = {
	[TP_FORM] = &tp_form_ops,
	[TP_ORDERS] = &tp_orders_ops,
	[TP_RENTALS] = &tp_rentals_ops,
	[TP_ACCOUNT] = &tp_account_ops,
};

static const struct tp_page_ops *ops(enum tp_page p)
{
	return p > TP_NONE && p < TP_COUNT ? page_ops[p] : NULL;
}

/* The page's own layout, hide, render and cursor, or its list's. */
static void page_layout(struct tui *t, enum tp_page p, int y, int h)
{
	if (ops(p)->list != NULL)
		tp_list_layout(t, ops(p)->list(t), y, h);
	else
		ops(p)->layout(t, y, h);
}

static void page_hide(struct tui *t, enum tp_page p)
{
	if (ops(p)->list != NULL)
		tp_list_hide(ops(p)->list(t));
	else
		ops(p)->hide(t);
}

static bool page_render(struct tui *t, enum tp_page p, bool touch)
{
	return ops(p)->list != NULL ? tp_list_render(ops(p)->list(t), touch)
				    : ops(p)->render(t, touch);
}

static bool page_cursor(struct tui *t, enum tp_page p)
{
	return ops(p)->list != NULL ? tp_list_cursor(ops(p)->list(t)) : ops(p)->cursor(t);
}

/* ---- grids under the table widget ---------------------------------------------------------------- */

void tp_grid_init(struct tp_grid *g, size_t n_cols, const char *const *head,
		  const enum walign *align)
{
	memset(g, 0, sizeof *g);
	g->n_cols = n_cols;
	g->head = head;
	g->align = align;
}

void tp_grid_clear(struct tp_grid *g)
{
	for (size_t i = 0; i < g->n_rows * g->n_cols; i++)
		free(g->text[i]);
	g->n_rows = 0;
}

void tp_grid_free(struct tp_grid *g)
{
	tp_grid_clear(g);
	free(g->text);
	free(g->role);
	free(g->key);
	g->text = NULL;
	g->role = NULL;
	g->key = NULL;
	g->cap = 0;
}

void tp_grid_row(struct tp_grid *g, int64_t key, enum wrole role)
{
	if (g->n_rows == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 32;
		g->text = xreallocarray(g->text, cap * g->n_cols, sizeof *g->text);
		g->role = xreallocarray(g->role, cap, sizeof *g->role);
		g->key = xreallocarray(g->key, cap, sizeof *g->key);
		g->cap = cap;
	}
	for (size_t c = 0; c < g->n_cols; c++)
		g->text[g->n_rows * g->n_cols + c] = NULL;
	g->role[g->n_rows] = (unsigned char)role;
	g->key[g->n_rows] = key;
	g->n_rows++;
}

void tp_grid_put(struct tp_grid *g, size_t col, char *text)
{
	char **slot = &g->text[(g->n_rows - 1) * g->n_cols + col];

	free(*slot);
	*slot = text;
}

void tp_grid_puts(struct tp_grid *g, size_t col, const char *text)
{
	tp_grid_put(g, col, xstrdup(text != NULL ? text : ""));
}

static size_t grid_rows(void *ctx)
{
	return ((struct tp_grid *)ctx)->n_rows;
}

static size_t grid_cols(void *ctx)
{
	return ((struct tp_grid *)ctx)->n_cols;
}

static void grid_header(void *ctx, size_t col, struct wcells *out)
{
	struct tp_grid *g = ctx;
	wcells_add(out, _(g->head[col]), WR_HEADER, 0);
}

static void grid_cell(void *ctx, size_t row, size_t col, struct wcells *out)
{
	struct tp_grid *g = ctx;
	const char *s = g->text[row * g->n_cols + col];
	wcells_add(out, s != NULL ? s : "", (enum wrole)g->role[row], 0);
}

static enum walign grid_align(void *ctx, size_t col)
{
	struct tp_grid *g = ctx;
	return g->align != NULL ? g->align[col] : WALIGN_LEFT;
}

struct wtable *tp_table_new(struct tui *t, struct tp_grid *g, const char *empty)
{
	struct wtable_source src = {
		.ctx = g, .rows = grid_rows, .cols = grid_cols, .header = grid_header,
		.cell = grid_cell, .align = grid_align,
	};
	struct wtable *tb = wtable_new(&t->ui, &src);

	g->empty = empty;
	wtable_set_empty_text(tb, _(empty));
	wwidget_set_focus(&tb->base, true);
	return tb;
}

int64_t tp_table_key(const struct wtable *tb, const struct tp_grid *g)
{
	if (tb == NULL || g->n_rows == 0 || tb->sel >= g->n_rows)
		return -1;
	return g->key[tb->sel];
}

void tp_table_reload(struct wtable *tb, const struct tp_grid *g, int64_t key)
{
	if (g->empty != NULL)
		wtable_set_empty_text(tb, _(g->empty)); /* in today's language */
	wtable_reload(tb, true);
	if (key < 0)
		return;
	for (size_t i = 0; i < g->n_rows; i++) {
		if (g->key[i] == key) {
			if (i != tb->sel)
				wtable_select(tb, i);
			return;
		}
	}
}

/* ---- a list page: a head panel over a table ------------------------------------------------------- */

void tp_list_init(struct tui *t, struct tp_list *l, int head_lines, size_t n_cols,
		  const char *const *head, const enum walign *align, const char *empty)
{
	l->head = wpanel_new(&t->ui);
	l->head_lines = head_lines;
	tp_grid_init(&l->grid, n_cols, head, align);
	l->table = tp_table_new(t, &l->grid, empty);
}

void tp_list_free(struct tui *t, struct tp_list *l, const uint64_t *reqs, size_t n)
{
	for (size_t i = 0; t->api != NULL && i < n; i++)
		if (reqs[i] != 0)
			api_abandon(t->api, reqs[i]);
	wpanel_free(&l->head);
	wtable_free(&l->table);
	tp_grid_free(&l->grid);
	wfield_free(&l->input);
	free(l->error);
	free(l->note);
}

void tp_list_note(struct tp_list *l, char *text, enum wrole role)
{
	free(l->note);
	l->note = text;
	l->note_role = role;
}

bool tp_list_reply(struct tui *t, struct tp_list *l, const struct api_error *e)
{
	free(l->error);
	l->error = e != NULL ? tp_error_words(t, e) : NULL;
	return e == NULL;
}

void tp_list_layout(struct tui *t, struct tp_list *l, int y, int h)
{
	int hh = h < l->head_lines ? h : l->head_lines;
	int th = h - hh - (l->input != NULL ? 1 : 0);

	wwidget_place(&l->head->base, y, 0, hh, t->cols);
	wwidget_place(&l->table->base, y + hh, 0, th, t->cols);
	if (l->input != NULL) {
		wwidget_place(&l->input->base, y + h - 1, 0, 1, t->cols);
		if (l->input->base.win != NULL)
			leaveok(l->input->base.win, FALSE);
	}
}

void tp_list_hide(struct tp_list *l)
{
	if (l == NULL)
		return;
	wwidget_hide(&l->head->base);
	wwidget_hide(&l->table->base);
	if (l->input != NULL)
		wwidget_hide(&l->input->base);
}

bool tp_list_render(struct tp_list *l, bool touch)
{
	bool any = false;

	if (touch) {
		wwidget_touch(&l->head->base);
		wwidget_touch(&l->table->base);
		if (l->input != NULL)
			wwidget_touch(&l->input->base);
	}
	any |= wwidget_render(&l->head->base);
	any |= wwidget_render(&l->table->base);
	if (l->input != NULL)
		any |= wwidget_render(&l->input->base);
	return any;
}

bool tp_list_cursor(struct tp_list *l)
{
	int y, x;

	if (l->input == NULL || !wfield_cursor(l->input, &y, &x))
		return false;
	wmove(l->input->base.win, 0, x - l->input->base.x);
	wnoutrefresh(l->input->base.win);
	return true;
}

unsigned tp_list_event(struct tui *t, struct tp_list *l, const struct wevent *ev)
{
	unsigned r;

	if (ev->type == WEV_KEY) {
		if (ev->key == '?' || ev->key == WKEY_F1) {
			struct whelp_section h = { _("Moving around"), l->table->base.cls->bindings,
						   l->table->base.cls->n_bindings };
			tp_help(t, &h, 1);
			return W_HANDLED | W_REDRAW;
		}
		if ((r = tp_common_key(t, ev->key)) != W_IGNORED)
			return r;
	}
	r = wwidget_handle(&l->table->base, ev);
	/* keys of no map here (q, F10, Ctrl-L, L) are the application's */
	return ev->type == WEV_MOUSE ? r | W_HANDLED : r;
}

bool tp_list_due(struct tp_list *l, bool busy, int64_t now, int every_ms)
{
	if (busy || now < l->next)
		return false;
	l->next = now + every_ms;
	return true;
}

void tp_list_wake(const struct tp_list *l, bool busy, int64_t *next)
{
	if (!busy && (*next < 0 || l->next < *next))
		*next = l->next;
}

/* ---- formatting -------------------------------------------------------------------------------------- */

char *tp_usd(const struct tui *t, int64_t cents)
{
	return cents < 0 ? xstrdup("—") : i18n_fmt_money(t->o->lang, cents, "USD");
}

char *tp_money(const struct tui *t, int64_t minor, const char *ccy)
{
	return i18n_fmt_money(t->o->lang, minor, ccy);
}

char *tp_int(const struct tui *t, int64_t v)
{
	return i18n_fmt_number(t->o->lang, (double)v, 0);
}

char *tp_date(const struct tui *t, int64_t unix_s)
{
	return unix_s < 0 ? xstrdup("—") : i18n_fmt_date(t->o->lang, unix_s, I18N_UTC);
}

const char *tp_gpu_name(const struct tui *t, const char *id)
{
	const struct catalog_gpu *g = id != NULL ? catalog_gpu(t->cat, id) : NULL;

	return g != NULL ? g->name : (id != NULL ? id : "?");
}

int64_t tp_best_ask(const struct tui *t, const char *gpu)
{
	for (size_t i = 0; gpu != NULL && i < t->m.n_prices; i++)
		if (strcmp(t->m.prices[i].gpu_id, gpu) == 0)
			return t->m.prices[i].cents;
	return -1;
}

const char *tp_currency(const struct tui *t)
{
	return t->trade != NULL && t->trade->acct != NULL ? t->trade->acct->currency : NULL;
}

char *tp_error_words(struct tui *t, const struct api_error *e)
{
	struct tui_trade *tr = t->trade;
	struct view_order_ctx x = {
		.currency = tp_currency(t), .required_minor = -1, .available_minor = -1,
		.opens_at = -1,
	};

	if (tr != NULL && tr->market != NULL)
		x.opens_at = tr->market->opens_at;
	else if (t->m.have_market)
		x.opens_at = t->m.opens_at;
	if (tr != NULL && tr->acct != NULL && tr->acct->has_balance)
		x.available_minor = tr->acct->balance.available_minor;
	return view_api_error_words(t->o->lang, e, &x);
}

/* ---- the account and the market ------------------------------------------------------------------------ */

static void on_account(void *ud, struct api_account *r, const struct api_error *e)
{
	struct tui *t = ud;
	struct tui_trade *tr = t->trade;

	tr->acct_req = 0;
	free(tr->acct_error);
	tr->acct_error = NULL;
	if (e != NULL) {
		tr->acct_error = tp_error_words(t, e);
	} else {
		api_account_free(&tr->acct);
		tr->acct = r;
		if (tr->form != NULL)
			tp_form_account_changed(t);
	}
	tp_rebuild_all(t);
}

static void on_market(void *ud, struct api_market *r, const struct api_error *e)
{
	struct tui *t = ud;
	struct tui_trade *tr = t->trade;

	tr->market_req = 0;
	if (e != NULL)
		return; /* the status bar says whether the exchange is there */
	api_market_free(&tr->market);
	tr->market = r;
	tp_rebuild_all(t);
}

void tp_account_soon(struct tui *t)
{
	struct tui_trade *tr = tp_get(t);

	tr->acct_next = 0;
	t->m.next_market_ms = 0; /* the status bar's balance too */
}

void tp_rebuild_all(struct tui *t)
{
	struct tui_trade *tr = t->trade;

	if (tr == NULL)
		return;
	if (tr->form != NULL)
		tp_form_ops.rebuild(t);
	if (tr->orders != NULL)
		tp_orders_ops.rebuild(t);
	if (tr->rentals != NULL)
		tp_rentals_ops.rebuild(t);
	if (tr->account != NULL)
		tp_account_ops.rebuild(t);
}

/* ---- the frame ---------------------------------------------------------------------------------------------- */

/* The page tabs, in the current language (again after a switch). */
static struct wtabs *page_tabs(struct tui *t)
{
	const char *labels[TP_COUNT - 1];

	labels[TP_FORM - 1] = _("Order form");
	labels[TP_ORDERS - 1] = _("Orders");
	labels[TP_RENTALS - 1] = _("Rentals");
	labels[TP_ACCOUNT - 1] = _("Account");
	return wtabs_new(&t->ui, labels, TP_COUNT - 1);
}

struct tui_trade *tp_get(struct tui *t)
{
	struct tui_trade *tr = t->trade;

	if (tr != NULL)
		return tr;
	tr = t->trade = xcalloc(1, sizeof *tr);
	tr->tabs = page_tabs(t);
	tr->fkeys = wfkeys_new(&t->ui);
	tr->lang = t->o->lang;
	return tr;
}

/* The language changed. The page tabs, the F-keys, the form and every
 * page's panels and tables are made again in it. */
static void trade_lang_changed(struct tui *t)
{
	struct tui_trade *tr = t->trade;

	if (tr == NULL)
		return;
	tr->lang = t->o->lang;
	wtabs_free(&tr->tabs);
	tr->tabs = page_tabs(t);
	if (tr->page != TP_NONE)
		wtabs_set_active(tr->tabs, (size_t)(tr->page - 1));
	tp_form_lang_changed(t);
	if (tr->page != TP_NONE)
		tp_fkeys_changed(t);
	tp_rebuild_all(t);
	tui_relayout(t);
}

static void hide_all(struct tui *t)
{
	struct tui_trade *tr = t->trade;

	wwidget_hide(&tr->tabs->base);
	wwidget_hide(&tr->fkeys->base);
	for (int p = TP_FORM; p < TP_COUNT; p++)
		page_hide(t, (enum tp_page)p);
}

void tp_fkeys_changed(struct tui *t)
{
	struct tui_trade *tr = t->trade;

	wfkeys_clear(tr->fkeys);
	if (ops(tr->page) != NULL)
		ops(tr->page)->fkeys(t, tr->fkeys);
}

enum { TK_ORDERS = 1, TK_RENTALS, TK_ACCOUNT, TK_NEXT, TK_PREV, TK_BUY, TK_SELL, TK_BACK };

/* The keys every page shares (a page's own map comes first); q, F10,
 * Ctrl-L, F1 and L are the application's. */
static const struct wbinding common_bindings[] = {
	{ 'o', TK_ORDERS, N_("Your orders") },
	{ WKEY_F7, TK_ORDERS, N_("Your orders") },
	{ 'R', TK_RENTALS, N_("Your rentals") },
	{ 'a', TK_ACCOUNT, N_("Your account") },
	{ WKEY_TAB, TK_NEXT, N_("Next page") },
	{ WKEY_BTAB, TK_PREV, N_("Previous page") },
	{ 'b', TK_BUY, N_("Order form: buy the selected row's GPU") },
	{ WKEY_F5, TK_BUY, N_("Order form: buy the selected row's GPU") },
	{ 's', TK_SELL, N_("Order form: sell the selected row's GPU (seller accounts)") },
	{ WKEY_ESC, TK_BACK, N_("Back to the tables") },
};

/* ---- the pages as screens ------------------------------------------------------------------------------------ */

/* A page on the stack: it covers the tables; which page it shows is
 * tr->page (each page's state lives in struct tui_trade while the screen
 * comes and goes). */
struct page_screen {
	struct tui_screen base;
};

static const struct tui_screen_class page_class;

static struct tui_screen *page_screen(struct tui *t)
{
	return tui_find(t, &page_class);
}

static void scr_layout(struct tui_screen *s, struct tui_area *body, bool shown)
{
	struct tui *t = s->t;
	struct tui_trade *tr = t->trade;

	if (!shown || tr->page == TP_NONE) {
		hide_all(t);
		return;
	}
	for (int p = TP_FORM; p < TP_COUNT; p++)
		if (p != (int)tr->page)
			page_hide(t, (enum tp_page)p);
	wwidget_place(&tr->tabs->base, 0, 0, 1, t->cols);
	tr->body_y = body->y;
	tr->body_h = body->h;
	page_layout(t, tr->page, tr->body_y, tr->body_h);
	ops(tr->page)->rebuild(t);
	wwidget_place(&tr->fkeys->base, t->lines - 1, 0, 1, t->cols);
	body->h = 0;
}

static bool scr_render(struct tui_screen *s, bool under)
{
	struct tui *t = s->t;
	struct tui_trade *tr = t->trade;
	bool any = false;

	if (tr->page == TP_NONE)
		return false;
	if (under) {
		wwidget_touch(&tr->tabs->base);
		wwidget_touch(&tr->fkeys->base);
	}
	any |= wwidget_render(&tr->tabs->base);
	any |= page_render(t, tr->page, under);
	any |= wwidget_render(&tr->fkeys->base);
	return any;
}

static bool scr_cursor(struct tui_screen *s)
{
	struct tui_trade *tr = s->t->trade;

	return tr->page != TP_NONE && page_cursor(s->t, tr->page);
}

static void scr_touch(struct tui_screen *s)
{
	struct tui *t = s->t;
	struct tui_trade *tr = t->trade;

	if (tr->page == TP_NONE)
		return;
	wwidget_touch(&tr->tabs->base);
	wwidget_touch(&tr->fkeys->base);
	page_render(t, tr->page, true); /* touches, renders what is dirty */
}

static unsigned scr_event(struct tui_screen *s, const struct wevent *ev)
{
	struct tui *t = s->t;
	struct tui_trade *tr = t->trade;
	unsigned r;

	if (ev->type == WEV_KEY && ev->key == WKEY_RESIZE)
		return W_IGNORED;
	if (ev->type == WEV_MOUSE && wwidget_contains(&tr->tabs->base, ev->y, ev->x)) {
		r = wwidget_handle(&tr->tabs->base, ev);
		if (r & W_ACTION) {
			enum tp_page p = (enum tp_page)(tr->tabs->clicked + 1);
			if (p == TP_FORM && tr->form == NULL)
				tui_message(t, _("Choose a GPU in the tables (Esc) and press b to buy it"));
			else
				tp_show(t, p);
		}
		return W_HANDLED | W_REDRAW;
	}
	if (ev->type == WEV_MOUSE && wwidget_contains(&tr->fkeys->base, ev->y, ev->x)) {
		r = wwidget_handle(&tr->fkeys->base, ev);
		if (r & W_ACTION) {
			struct wevent k = { .type = WEV_KEY, .key = tr->fkeys->clicked };
			return tui_feed_event(t, &k) | W_HANDLED;
		}
		return W_HANDLED;
	}
	return ops(tr->page)->event(t, ev);
}

static void lower(int64_t *next, int64_t when)
{
	if (when >= 0 && (*next < 0 || when < *next))
		*next = when;
}

static void scr_tick(struct tui_screen *s, int64_t now, int64_t *next)
{
	struct tui *t = s->t;
	struct tui_trade *tr = t->trade;

	if (t->api == NULL || tr->page == TP_NONE)
		return;
	if (tr->acct_req == 0 && now >= tr->acct_next) {
		tr->acct_next = now + TP_ACCOUNT_MS;
		tr->acct_req = api_account_start(t->api, on_account, t);
	}
	if (tr->market_req == 0 && now >= tr->market_next) {
		tr->market_next = now + TP_MARKET_MS;
		tr->market_req = api_market_start(t->api, on_market, t);
	}
	if (tr->acct_req == 0)
		lower(next, tr->acct_next);
	if (tr->market_req == 0)
		lower(next, tr->market_next);
	ops(tr->page)->tick(t, now, next);
}

static void scr_notify(struct tui_screen *s, unsigned what)
{
	if (what & TN_LANG)
		trade_lang_changed(s->t);
	if (what & TN_ACCOUNT)
		tp_account_soon(s->t);
}

static size_t scr_help(struct tui_screen *s, struct whelp_section *out, size_t max)
{
	struct tui_trade *tr = s->t->trade;
	const struct tp_page_ops *o = ops(tr->page);
	size_t n = 0;

	if (o == NULL)
		return 0;
	if (n < max)
		out[n++] = (struct whelp_section){ _(o->help_title), o->bindings, o->n_bindings };
	if (tr->page != TP_FORM && n < max)
		out[n++] = (struct whelp_section){ _("Pages"), common_bindings,
						   sizeof common_bindings / sizeof common_bindings[0] };
	return n;
}

static void scr_free(struct tui_screen *s)
{
	struct tui *t = s->t;
	struct tui_trade *tr = t->trade;

	if (tr != NULL && tr->page != TP_NONE) {
		ops(tr->page)->shown(t, false);
		tr->page = TP_NONE;
		hide_all(t);
	}
	free(s);
}

static const struct tui_screen_class page_class = {
	.name = "page",
	.flags = TS_OPAQUE,
	.layout = scr_layout,
	.render = scr_render,
	.cursor = scr_cursor,
	.event = scr_event,
	.tick = scr_tick,
	.notify = scr_notify,
	.touch = scr_touch,
	.help = scr_help,
	.free = scr_free,
	.bindings = common_bindings,
	.n_bindings = sizeof common_bindings / sizeof common_bindings[0],
	.help_title = N_("Pages"),
};

void tp_show(struct tui *t, enum tp_page page)
{
	struct tui_trade *tr = tp_get(t);
	struct tui_screen *s = page_screen(t);

	if (ops(page) == NULL)
		return;
	if (tr->lang != t->o->lang)
		trade_lang_changed(t); /* switched while no page was shown */
	if (tr->page != page && ops(tr->page) != NULL)
		ops(tr->page)->shown(t, false);
	if (tr->page == TP_NONE) {
		/* from the tables: ask for what every page shows */
		tr->acct_next = 0;
		tr->market_next = 0;
	}
	tr->page = page;
	wtabs_set_active(tr->tabs, (size_t)(page - 1));
	ops(page)->shown(t, true);
	tp_fkeys_changed(t);
	if (s == NULL) {
		s = xcalloc(1, sizeof(struct page_screen));
		tui_screen_init(s, &page_class, t);
		tui_push(t, s);
	}
	tui_relayout(t);
}

void tp_back(struct tui *t)
{
	struct tui_screen *s = page_screen(t);

	if (s != NULL)
		tui_remove(t, s);
}

bool tp_shown(const struct tui *t)
{
	return t->trade != NULL && t->trade->page != TP_NONE;
}

static void dlg_form_confirm(struct tui *t, int64_t id, bool yes, wkey key)
{
	(void)id;
	tp_form_dialog(t, TD_CONFIRM, yes, key);
}

static void dlg_form_result(struct tui *t, int64_t id, bool yes, wkey key)
{
	(void)id;
	tp_form_dialog(t, TD_RESULT, yes, key);
}

static void dlg_cancel(struct tui *t, int64_t id, bool yes, wkey key)
{
	(void)key;
	tp_orders_dialog(t, TD_CANCEL, id, yes);
}

static void dlg_stop(struct tui *t, int64_t id, bool yes, wkey key)
{
	(void)key;
	tp_rentals_dialog(t, TD_STOP, id, yes);
}

static void dlg_deposit(struct tui *t, int64_t id, bool yes, wkey key)
{
	(void)key;
	tp_account_dialog(t, TD_DEPOSIT, id, yes);
}

void tp_dialog(struct tui *t, enum tp_dialog kind, int64_t id, const char *title,
	       const char *text, const char *hint, bool y_only)
{
	void (*done)(struct tui *, int64_t, bool, wkey) = NULL;

	switch (kind) {
	case TD_CONFIRM: done = dlg_form_confirm; break;
	case TD_RESULT: done = dlg_form_result; break;
	case TD_CANCEL: done = dlg_cancel; break;
	case TD_STOP: done = dlg_stop; break;
	case TD_DEPOSIT: done = dlg_deposit; break;
	case TD_INFO:
	case TD_NONE: break;
	}
	tp_get(t);
	tui_dialog_open(t, title, text, hint, y_only, done, id);
}

void tp_help(struct tui *t, const struct whelp_section *extra, size_t n_extra)
{
	struct whelp_section s[8];
	struct tui_screen *ps = page_screen(t);
	size_t n = ps != NULL ? scr_help(ps, s, 6) : 0;

	for (size_t i = 0; i < n_extra && n < 7; i++)
		s[n++] = extra[i];
	tui_help_show(t, s, n);
}

/* ---- the keys every list page shares ---------------------------------------------------------------- */

static const char *selected_gpu(struct tui *t)
{
	struct tui_trade *tr = t->trade;
	const char *g = NULL;

	if (tr->page == TP_ORDERS)
		g = tp_orders_gpu(t);
	else if (tr->page == TP_RENTALS)
		g = tp_rentals_gpu(t);
	return g;
}

static void cycle(struct tui *t, int dir)
{
	struct tui_trade *tr = t->trade;
	int p = tr->page;

	for (int i = 0; i < TP_COUNT; i++) {
		p = (p - 1 + dir + (TP_COUNT - 1)) % (TP_COUNT - 1) + 1;
		if (p != TP_FORM || tr->form != NULL)
			break;
	}
	tp_show(t, (enum tp_page)p);
}

static void open_form(struct tui *t, bool sell)
{
	const char *g = selected_gpu(t);

	if (g != NULL) {
		char *id = xstrdup(g);
		tui_order_open(t, id, sell, 0, 0);
		free(id);
	} else if (t->trade->form != NULL) {
		tp_show(t, TP_FORM);
	} else {
		tui_message(t, _("Choose a GPU in the tables (Esc) and press b to buy it"));
	}
}

void tp_detail_open(struct tui *t, const char *gpu)
{
	char *id;

	if (gpu == NULL) {
		tui_message(t, _("No row selected"));
		return;
	}
	id = xstrdup(gpu); /* the list may be rebuilt meanwhile */
	tui_detail_open(t, id, 0, 0, -1);
	free(id);
}

unsigned tp_common_key(struct tui *t, wkey k)
{
	const struct wbinding *b = wbinding_find(common_bindings,
		sizeof common_bindings / sizeof common_bindings[0], k);

	if (b == NULL)
		return W_IGNORED;
	switch (b->action) {
	case TK_ORDERS: tp_show(t, TP_ORDERS); break;
	case TK_RENTALS: tp_show(t, TP_RENTALS); break;
	case TK_ACCOUNT: tp_show(t, TP_ACCOUNT); break;
	case TK_NEXT: cycle(t, 1); break;
	case TK_PREV: cycle(t, -1); break;
	case TK_BUY: open_form(t, false); break;
	case TK_SELL: open_form(t, true); break;
	case TK_BACK: tp_back(t); break;
	}
	return W_HANDLED | W_REDRAW;
}

/* ---- the pages' shared requests, from the start ---------------------------------------------------------------- */

void tui_trade_tick(struct tui *t, int64_t now, int64_t *next)
{
	struct tui_trade *tr;

	(void)next;
	if (t->api == NULL)
		return;
	/* from the start: the account's role decides whether s may sell */
	tr = tp_get(t);
	if (tr->page == TP_NONE && tr->acct == NULL && tr->acct_req == 0 && now >= tr->acct_next) {
		tr->acct_next = now + TP_MARKET_MS;
		tr->acct_req = api_account_start(t->api, on_account, t);
	}
}

void tui_trade_free(struct tui *t)
{
	struct tui_trade *tr = t->trade;

	if (tr == NULL)
		return;
	for (int p = TP_FORM; p < TP_COUNT; p++)
		ops((enum tp_page)p)->free(t);
	if (t->api != NULL) {
		/* quitting: nothing of ours may call back into freed state */
		if (tr->acct_req != 0)
			api_abandon(t->api, tr->acct_req);
		if (tr->market_req != 0)
			api_abandon(t->api, tr->market_req);
	}
	wtabs_free(&tr->tabs);
	wfkeys_free(&tr->fkeys);
	api_account_free(&tr->acct);
	api_market_free(&tr->market);
	free(tr->acct_error);
	free(tr);
	t->trade = NULL;
}

/* ---- entry points ------------------------------------------------------------------------------------------------ */

void tui_order_open(struct tui *t, const char *gpu_id, bool sell, int gpus, int hours)
{
	struct tui_trade *tr = tp_get(t);

	if (gpu_id == NULL || catalog_gpu(t->cat, gpu_id) == NULL) {
		tui_message(t, _("No GPU selected: clear the filter (Esc) and choose a row"));
		return;
	}
	if (tr->acct != NULL) {
		if (sell && tr->acct->role == API_ROLE_BUYER) {
			tui_message(t, _("Your account is a buyer account: selling GPU hours needs a "
					 "seller account. Press b to buy."));
			return;
		}
		if (!sell && tr->acct->role == API_ROLE_SELLER) {
			tui_message(t, _("Your account is a seller account: buying GPU hours needs a "
					 "buyer account. Press s to sell."));
			return;
		}
	}
	tp_form_setup(t, gpu_id, sell, gpus, hours);
	tp_show(t, TP_FORM);
}

void tui_orders_open(struct tui *t)
{
	tp_show(t, TP_ORDERS);
}

void tui_rentals_open(struct tui *t)
{
	tp_show(t, TP_RENTALS);
}

void tui_account_open(struct tui *t)
{
	tp_show(t, TP_ACCOUNT);
}

void tp_balance_line(struct tui *t, struct wcells *c)
{
	struct tui_trade *tr = t->trade;
	const struct api_account *a = tr != NULL ? tr->acct : NULL;
	char *av, *hd, *x;

	if (a == NULL || !a->has_balance) {
		wcells_add(c, tr != NULL && tr->acct_error != NULL ? tr->acct_error
			   : _("asking the exchange for your balance…"),
			   tr != NULL && tr->acct_error != NULL ? WR_BAD : WR_DIM, 0);
		return;
	}
	av = tp_money(t, a->balance.available_minor, a->currency);
	hd = tp_money(t, a->balance.held_minor, a->currency);
	x = xasprintf(_("Available %s"), av);
	wcells_add(c, x, WR_NORMAL, WAT_BOLD);
	free(x);
	x = xasprintf(_(" · held %s"), hd);
	wcells_add(c, x, WR_NORMAL, 0);
	free(x);
	free(av);
	free(hd);
}
