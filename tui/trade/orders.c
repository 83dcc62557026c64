/*
 * Your orders (o, F7): the resting ones first (every one of them), then the
 * most recent done ones, refreshed every 2 s; the cursor stays on its order
 * as the list changes. Price/h is a limit order's limit and a market
 * order's average fill price (its cap is no price it paid). x (or Delete) cancels the order under the cursor
 * after a confirmation that says what it is and what hold comes back; the
 * freed hold shows at once in the balance line (the account is asked again
 * right away, and the released amount applied until it answers).
 */
#include "tui/trade/order_int.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

enum { OC_ID, OC_GPU, OC_SIDE, OC_STATUS, OC_GPUS, OC_FILLED, OC_HOURS, OC_PRICE, OC_TYPE,
       OC_HELD, OC_CREATED, OC_N };

static const char *const head[OC_N] = {
	N_("Order"), N_("GPU"), N_("Side"), N_("Status"), N_("GPUs"), N_("Filled"), N_("Hours"),
	N_("Price/h"), N_("Type"), N_("Held"), N_("Created"),
};
static const enum walign align[OC_N] = {
	WALIGN_RIGHT, WALIGN_LEFT, WALIGN_LEFT, WALIGN_LEFT, WALIGN_RIGHT, WALIGN_RIGHT,
	WALIGN_RIGHT, WALIGN_RIGHT, WALIGN_LEFT, WALIGN_RIGHT, WALIGN_LEFT,
};

struct tp_orders {
	struct tp_list l;
	struct api_orders *open, *done;
	uint64_t open_req, done_req;
	uint64_t cancel_req;
};

static struct tp_orders *orders(struct tui *t)
{
	return t->trade != NULL ? t->trade->orders : NULL;
}

static struct tp_list *list(struct tui *t)
{
	struct tp_orders *s = orders(t);

	return s != NULL ? &s->l : NULL;
}

static void set_note(struct tp_orders *s, char *text, enum wrole role)
{
	tp_list_note(&s->l, text, role);
}

static bool resting(const struct api_order *o)
{
	return o->status == API_ORDER_OPEN || o->status == API_ORDER_PARTIALLY_FILLED;
}

static const struct api_order *find(struct tp_orders *s, int64_t id)
{
	struct api_orders *l[2] = { s->open, s->done };

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; l[k] != NULL && i < l[k]->n; i++)
			if (l[k]->v[i].id == id)
				return &l[k]->v[i];
	return NULL;
}

const char *tp_orders_gpu(struct tui *t)
{
	struct tp_orders *s = orders(t);
	const struct api_order *o;

	if (s == NULL || s->l.table == NULL)
		return NULL;
	o = find(s, tp_table_key(s->l.table, &s->l.grid));
	return o != NULL ? o->gpu : NULL;
}

/* "Buy 4 × H200 for 10 h at US$3.80 per GPU-hour (limit, GTC)" */
static char *order_line(struct tui *t, const struct api_order *o)
{
	char *p = tp_usd(t, o->price_cents);
	char *s = xasprintf(_("%s %lld × %s for %lld h at %s per GPU-hour (%s, %s)"),
			    o->side == API_BUY ? _("Buy") : _("Sell"), (long long)o->gpus,
			    tp_gpu_name(t, o->gpu), (long long)o->hours, p,
			    o->type == API_LIMIT ? _("limit") : _("market"),
			    o->tif == API_GTC ? "GTC" : o->tif == API_FOK ? "FOK" : "IOC");
	free(p);
	return s;
}

static void add_row(struct tui *t, struct tp_grid *g, const struct api_order *o)
{
	tp_grid_row(g, o->id, resting(o) ? WR_NORMAL : WR_DIM);
	tp_grid_put(g, OC_ID, xasprintf("%lld", (long long)o->id));
	tp_grid_puts(g, OC_GPU, tp_gpu_name(t, o->gpu));
	tp_grid_puts(g, OC_SIDE, o->side == API_BUY ? C_("order side", "buy")
						     : C_("order side", "sell"));
	tp_grid_puts(g, OC_STATUS, view_order_status_text(t->o->lang, o->status));
	tp_grid_put(g, OC_GPUS, tp_int(t, o->gpus));
	tp_grid_put(g, OC_FILLED, tp_int(t, o->filled_gpus));
	tp_grid_put(g, OC_HOURS, tp_int(t, o->hours));
	tp_grid_put(g, OC_PRICE, tp_usd(t, view_order_list_price(o)));
	tp_grid_put(g, OC_TYPE, xasprintf("%s %s", o->type == API_LIMIT ? _("limit") : _("market"),
					  o->tif == API_GTC ? "GTC" : o->tif == API_FOK ? "FOK" : "IOC"));
	tp_grid_put(g, OC_HELD, o->hold_minor > 0 ? tp_money(t, o->hold_minor, o->currency)
						  : xstrdup(""));
	tp_grid_put(g, OC_CREATED, tp_date(t, o->created_at));
}

/* ---- the head lines the list pages share (order_int.h) --------------------------------------- */

void tp_add_whole(struct wcells *c, const char *seg, int width)
{
	if (c->width + wtext_width(seg, c->ascii) <= width)
		wcells_add(c, seg, WR_NORMAL, 0);
}

void tp_list_head_text(struct tui *t, struct tp_list *l, const char *text, enum wrole role)
{
	int w = l->head->base.w - 1;
	char **wl;
	size_t n = w >= 8 ? wtext_wrap(text, w, t->ascii, &wl) : 0;
	int want = n > 1 ? 3 : 2;

	if (n == 0) {
		struct wcells *c = wpanel_add(l->head);
		wcells_pad(c, 1, WR_NORMAL);
		wcells_add(c, text, role, 0);
	}
	for (size_t i = 0; i < n && i < 2; i++) {
		struct wcells *c = wpanel_add(l->head);
		wcells_pad(c, 1, WR_NORMAL);
		wcells_add(c, wl[i], role, 0);
		if (i == 1 && n > 2) {
			/* more than two lines: the second ends in "…" */
			wcells_pad(c, 1, role);
			wcells_add(c, wl[2], role, 0);
		}
	}
	if (n > 0)
		wtext_lines_free(wl, n);
	if (l->head_lines != want && l->head->base.w > 0) {
		l->head_lines = want;
		tui_relayout(t);
	}
}

/* ---- the orders page ------------------------------------------------------------------------- */

static void orders_rebuild(struct tui *t)
{
	struct tp_orders *s = orders(t);
	struct wcells *c;
	int64_t key;
	size_t n_open = 0, n_done = 0;
	char *x;

	if (s == NULL || s->l.table == NULL)
		return;
	key = tp_table_key(s->l.table, &s->l.grid);
	tp_grid_clear(&s->l.grid);
	for (size_t i = 0; s->open != NULL && i < s->open->n; i++, n_open++)
		add_row(t, &s->l.grid, &s->open->v[i]);
	for (size_t i = 0; s->done != NULL && i < s->done->n; i++) {
		if (resting(&s->done->v[i]))
			continue; /* listed above already */
		add_row(t, &s->l.grid, &s->done->v[i]);
		n_done++;
	}
	tp_table_reload(s->l.table, &s->l.grid, key);

	wpanel_begin(s->l.head);
	c = wpanel_add(s->l.head);
	wcells_pad(c, 1, WR_NORMAL);
	tp_balance_line(t, c);
	if (s->open != NULL) {
		x = xasprintf(P_(" · %zu resting order", " · %zu resting orders", n_open), n_open);
		tp_add_whole(c, x, s->l.head->base.w);
		free(x);
	}
	if (s->l.note != NULL)
		tp_list_head_text(t, &s->l, s->l.note, s->l.note_role);
	else if (s->l.error != NULL)
		tp_list_head_text(t, &s->l, s->l.error, WR_BAD);
	else if (t->api == NULL)
		tp_list_head_text(t, &s->l, _("No exchange: orders need one (see the status bar)."),
				  WR_BAD);
	else if (s->open == NULL)
		tp_list_head_text(t, &s->l, _("asking the exchange for your orders…"), WR_DIM);
	else if (n_open > 0)
		tp_list_head_text(t, &s->l, _("x cancels the resting order under the cursor"), WR_DIM);
	else
		tp_list_head_text(t, &s->l, _("No resting order: recent done ones are listed (dim)."),
				  WR_DIM);
	wpanel_commit(s->l.head);
}

static void on_list(struct tui *t, struct api_orders **slot, struct api_orders *r,
		    const struct api_error *e)
{
	if (tp_list_reply(t, list(t), e)) {
		api_orders_free(slot);
		*slot = r;
	}
	orders_rebuild(t);
}

static void on_open(void *ud, struct api_orders *r, const struct api_error *e)
{
	struct tui *t = ud;

	orders(t)->open_req = 0;
	on_list(t, &orders(t)->open, r, e);
}

static void on_done(void *ud, struct api_orders *r, const struct api_error *e)
{
	struct tui *t = ud;

	orders(t)->done_req = 0;
	on_list(t, &orders(t)->done, r, e);
}

static void on_cancel(void *ud, struct api_order *o, const struct api_error *e)
{
	struct tui *t = ud;
	struct tp_orders *s = orders(t);
	struct tui_trade *tr = t->trade;

	s->cancel_req = 0;
	if (e != NULL) {
		set_note(s, tp_error_words(t, e), WR_BAD);
	} else {
		const struct api_order *was = find(s, o->id);
		int64_t freed = was != NULL ? was->hold_minor - o->hold_minor : 0;
		if (freed > 0) {
			char *m = tp_money(t, freed, o->currency);
			set_note(s, xasprintf(_("Cancelled order %lld: %s released to your available "
						"balance."), (long long)o->id, m), WR_GOOD);
			free(m);
			/* visible at once; the account's answer confirms it */
			if (tr->acct != NULL && tr->acct->has_balance && o->currency != NULL &&
			    strcmp(tr->acct->currency, o->currency) == 0) {
				tr->acct->balance.available_minor += freed;
				tr->acct->balance.held_minor -= freed;
			}
		} else {
			set_note(s, xasprintf(P_("Cancelled order %lld (%lld of %lld GPU had filled).",
						 "Cancelled order %lld (%lld of %lld GPUs had filled).",
						 (unsigned long)o->gpus),
					      (long long)o->id, (long long)o->filled_gpus,
					      (long long)o->gpus), WR_GOOD);
		}
		tui_message(t, s->l.note);
		api_order_free(&o);
	}
	tp_account_soon(t);
	tp_lists_soon(t);
	tp_rebuild_all(t);
}

void tp_orders_dialog(struct tui *t, enum tp_dialog kind, int64_t id, bool yes)
{
	struct tp_orders *s = orders(t);

	if (s == NULL || kind != TD_CANCEL)
		return;
	if (!yes) {
		set_note(s, xasprintf(_("Order %lld was not cancelled."), (long long)id), WR_DIM);
	} else if (s->cancel_req == 0) {
		s->cancel_req = api_order_cancel_start(t->api, id, on_cancel, t);
		set_note(s, xasprintf(_("Cancelling order %lld…"), (long long)id), WR_DIM);
	}
	orders_rebuild(t);
}

static void ask_cancel(struct tui *t)
{
	struct tp_orders *s = orders(t);
	const struct api_order *o = find(s, tp_table_key(s->l.table, &s->l.grid));
	char *line, *text, *title;

	if (o == NULL) {
		tui_message(t, _("No order selected"));
		return;
	}
	if (!resting(o)) {
		set_note(s, xasprintf(_("Order %lld is %s: only resting orders can be cancelled."),
				      (long long)o->id, view_order_status_text(t->o->lang, o->status)),
			 WR_BAD);
		orders_rebuild(t);
		return;
	}
	if (t->api == NULL || s->cancel_req != 0)
		return;
	line = order_line(t, o);
	if (o->hold_minor > 0) {
		char *m = tp_money(t, o->hold_minor, o->currency);
		text = xasprintf(P_("%s; %lld of %lld GPU filled. Its hold of %s goes back to your "
				    "available balance.",
				    "%s; %lld of %lld GPUs filled. Its hold of %s goes back to your "
				    "available balance.", (unsigned long)o->gpus),
				 line, (long long)o->filled_gpus, (long long)o->gpus, m);
		free(m);
	} else {
		text = xasprintf(P_("%s; %lld of %lld GPU filled.", "%s; %lld of %lld GPUs filled.",
				    (unsigned long)o->gpus),
				 line, (long long)o->filled_gpus, (long long)o->gpus);
	}
	title = xasprintf(_("Cancel order %lld?"), (long long)o->id);
	tp_dialog(t, TD_CANCEL, o->id, title, text, _("y or Enter: cancel it · any other key: keep it"), false);
	free(title);
	free(text);
	free(line);
}

enum { OK_CANCEL = 1, OK_DETAIL };

static const struct wbinding orders_bindings[] = {
	{ 'x', OK_CANCEL, N_("Cancel the resting order under the cursor (asks first)") },
	{ WKEY_DELETE, OK_CANCEL, N_("Cancel the resting order under the cursor (asks first)") },
	{ WKEY_RETURN, OK_DETAIL, N_("The GPU of the order under the cursor in detail (Esc: back)") },
};

static unsigned orders_event(struct tui *t, const struct wevent *ev)
{
	const struct wbinding *b = ev->type != WEV_KEY ? NULL
		: wbinding_find(orders_bindings, sizeof orders_bindings / sizeof orders_bindings[0],
				ev->key);

	switch (b != NULL ? b->action : 0) {
	case OK_CANCEL:
		ask_cancel(t);
		return W_HANDLED | W_REDRAW;
	case OK_DETAIL:
		tp_detail_open(t, tp_orders_gpu(t));
		return W_HANDLED | W_REDRAW;
	}
	return tp_list_event(t, list(t), ev);
}

static void orders_tick(struct tui *t, int64_t now, int64_t *next)
{
	struct tp_orders *s = orders(t);
	struct api_list_query qo = { .status = "open", .limit = 200 };
	struct api_list_query qd = { .status = "closed", .limit = 50 };

	if (tp_list_due(&s->l, s->open_req != 0 || s->done_req != 0, now, TP_LIST_MS)) {
		s->open_req = api_orders_start(t->api, &qo, on_open, t);
		s->done_req = api_orders_start(t->api, &qd, on_done, t);
	}
	tp_list_wake(&s->l, s->open_req != 0 || s->done_req != 0, next);
}

static void orders_shown(struct tui *t, bool on)
{
	struct tui_trade *tr = tp_get(t);
	struct tp_orders *s = tr->orders;

	if (!on)
		return;
	if (s == NULL) {
		s = tr->orders = xcalloc(1, sizeof *s);
		tp_list_init(t, &s->l, 2, OC_N, head, align,
			     N_("No orders yet: press Esc, choose a GPU and press b to buy"));
	}
	s->l.next = 0;
}

static void orders_fkeys(struct tui *t, struct wfkeys *k)
{
	/* TRANSLATORS: F-key bar, x cancels the order under the cursor: the
	 * verb of "Order 12 cancelled" (de "Stornieren", not "Abbrechen") */
	wfkeys_add(k, 'x', "x", C_("fkey", "Cancel order"));
	wfkeys_add(k, 'R', "R", _("Rentals"));
	wfkeys_add(k, 'a', "a", _("Account"));
	wfkeys_add(k, WKEY_ESC, "Esc", _("Back"));
	wfkeys_add(k, WKEY_F1, "F1", _("Help"));
	wfkeys_add(k, WKEY_F10, "F10", _("Quit"));
}

static void orders_free(struct tui *t)
{
	struct tp_orders *s = orders(t);

	if (s == NULL)
		return;
	tp_list_free(t, &s->l, (const uint64_t[]){ s->open_req, s->done_req, s->cancel_req }, 3);
	api_orders_free(&s->open);
	api_orders_free(&s->done);
	free(s);
	t->trade->orders = NULL;
}

void tp_lists_soon(struct tui *t)
{
	struct tui_trade *tr = t->trade;

	if (tr == NULL)
		return;
	if (tr->orders != NULL)
		tr->orders->l.next = 0;
	tp_rentals_soon(t);
	tp_ledger_soon(t);
}

const struct tp_page_ops tp_orders_ops = {
	.list = list,
	.event = orders_event,
	.tick = orders_tick,
	.shown = orders_shown,
	.rebuild = orders_rebuild,
	.fkeys = orders_fkeys,
	.bindings = orders_bindings,
	.n_bindings = sizeof orders_bindings / sizeof orders_bindings[0],
	.help_title = N_("Your orders"),
	.free = orders_free,
};

/* The open orders list, when the orders page has fetched it (NULL before). */
const struct api_orders *tp_orders_open_list(const struct tui *t)
{
	return t->trade != NULL && t->trade->orders != NULL ? t->trade->orders->open : NULL;
}
