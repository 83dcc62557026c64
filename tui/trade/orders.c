/*
 * Your orders (o, F7): the live ones first (resting, waiting for their
 * trigger, standing: every one of them), then the
 * most recent done ones, refreshed every 2 s; the cursor stays on its order
 * as the list changes. Price/h is a limit order's limit and a market
 * order's average fill price (its cap is no price it paid). x (or Delete)
 * cancels the order under the cursor after a confirmation that says what it
 * is and what hold comes back; the freed hold shows at once in the balance
 * line (the account is asked again right away, and the released amount
 * applied until it answers). The open orders, as last listed, are also the
 * account's (t->account.open): the detail screen marks their levels.
 */
#include "tui/trade/trade.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

enum { OC_ID, OC_GPU, OC_SIDE, OC_STATUS, OC_GPUS, OC_FILLED, OC_HOURS, OC_PRICE, OC_TYPE,
       OC_HELD, OC_CREATED, OC_NODE, OC_REGION, OC_HOST, OC_N };

static const char *const head[OC_N] = {
	N_("Order"), N_("GPU"), N_("Side"), N_("Status"), N_("GPUs"), N_("Filled"), N_("Hours"),
	N_("Price/h"), N_("Type"), N_("Held"), N_("Created"), N_("Machines"), N_("Region"),
	N_("Host"),
};
static const enum walign align[OC_N] = {
	WALIGN_RIGHT, WALIGN_LEFT, WALIGN_LEFT, WALIGN_LEFT, WALIGN_RIGHT, WALIGN_RIGHT,
	WALIGN_RIGHT, WALIGN_RIGHT, WALIGN_LEFT, WALIGN_RIGHT, WALIGN_LEFT, WALIGN_LEFT,
	WALIGN_LEFT, WALIGN_LEFT,
};

struct orders {
	struct tui_list l;
	struct api_orders *done;    /* the open ones are t->account.open */
	uint64_t open_req, done_req, cancel_req;
};

/* Resting, waiting for its trigger, or standing: what x can cancel. */
static bool live(const struct api_order *o)
{
	return o->status == API_ORDER_OPEN || o->status == API_ORDER_PARTIALLY_FILLED ||
	       o->status == API_ORDER_WAITING || o->standing == API_STANDING_ACTIVE;
}

static const struct api_order *find(const struct orders *s, int64_t id)
{
	const struct api_orders *l[2] = { s->l.page.base.t->account.open, s->done };

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; l[k] != NULL && i < l[k]->n; i++)
			if (l[k]->v[i].id == id)
				return &l[k]->v[i];
	return NULL;
}

static const char *row_gpu(struct tui_list *l, int64_t key)
{
	const struct api_order *o = find((struct orders *)l, key);

	return o != NULL ? o->gpu : NULL;
}

static const char *tif_text(enum api_tif tif)
{
	return tif == API_GTC ? "GTC" : tif == API_FOK ? "FOK" : "IOC";
}

/* "Buy 4 × H200 for 10 h at US$3.80 per GPU-hour (limit, GTC)" */
static char *order_line(struct tui *t, const struct api_order *o)
{
	char *p = tui_usd(t, o->price_cents);
	char *s = xasprintf(_("%s %lld × %s for %lld h at %s per GPU-hour (%s, %s)"),
			    o->side == API_BUY ? _("Buy") : _("Sell"), (long long)o->gpus,
			    tui_gpu_name(t, o->gpu), (long long)o->hours, p,
			    o->type == API_LIMIT ? _("limit") : _("market"), tif_text(o->tif));
	free(p);
	return s;
}

/* "limit GTC", and what it waits for or keeps: "limit GTC · if ask at most
 * $4.10", "limit GTC · standing". */
static char *type_text(struct tui *t, const struct api_order *o)
{
	char *s = xasprintf("%s %s", o->type == API_LIMIT ? _("limit") : _("market"), tif_text(o->tif));

	if (o->has_trigger) {
		char *w = view_trigger_short(t->o->lang, o->trigger_when, o->trigger_price_cents);
		char *x = xasprintf(_("%s · if %s"), s, w);
		free(w);
		free(s);
		s = x;
	}
	if (o->standing != API_STANDING_NONE) {
		char *x = xasprintf("%s · %s", s, o->standing == API_STANDING_ACTIVE
					   ? _("standing") : _("standing, stopped"));
		free(s);
		s = x;
	}
	if (o->oco_group != NULL) {
		char *x = xasprintf(_("%s · OCO %s"), s, o->oco_group);
		free(s);
		s = x;
	}
	return s;
}

static void add_row(struct tui *t, struct tui_grid *g, const struct api_order *o)
{
	tui_grid_row(g, o->id, live(o) ? WR_NORMAL : WR_DIM);
	tui_grid_put(g, OC_ID, xasprintf("%lld", (long long)o->id));
	tui_grid_puts(g, OC_GPU, tui_gpu_name(t, o->gpu));
	tui_grid_puts(g, OC_SIDE, o->side == API_BUY ? C_("order side", "buy")
						      : C_("order side", "sell"));
	tui_grid_puts(g, OC_STATUS, view_order_status_text(t->o->lang, o->status));
	tui_grid_put(g, OC_GPUS, tui_int(t, o->gpus));
	tui_grid_put(g, OC_FILLED, tui_int(t, o->filled_gpus));
	tui_grid_put(g, OC_HOURS, tui_int(t, o->hours));
	tui_grid_put(g, OC_PRICE, tui_usd(t, view_order_list_price(o)));
	tui_grid_put(g, OC_TYPE, type_text(t, o));
	tui_grid_put(g, OC_HELD, o->hold_minor > 0 ? tui_money(t, o->hold_minor, o->currency)
						   : xstrdup(""));
	tui_grid_put(g, OC_CREATED, tui_date(t, o->created_at));
	/* a sell's lot, a buy's requirements */
	tui_grid_put(g, OC_NODE, view_fmt_order_machines(t->o->lang, o, t->ascii));
	tui_grid_put(g, OC_REGION, view_fmt_order_region(t->o->lang, o, t->ascii));
	tui_grid_put(g, OC_HOST, view_fmt_order_host(t->o->lang, o, t->ascii));
}

static void build(struct tui_list *l)
{
	struct orders *s = (struct orders *)l;
	struct tui *t = l->page.base.t;
	const struct api_orders *open = t->account.open;
	size_t n_open = 0;
	char *count = NULL, *hint;

	for (size_t i = 0; open != NULL && i < open->n; i++, n_open++)
		add_row(t, &l->grid, &open->v[i]);
	for (size_t i = 0; s->done != NULL && i < s->done->n; i++)
		if (!live(&s->done->v[i])) /* listed above already */
			add_row(t, &l->grid, &s->done->v[i]);
	if (open != NULL)
		count = xasprintf(P_(" · %zu resting order", " · %zu resting orders", n_open), n_open);
	/* TRANSLATORS: %s is the key that cancels an order (x unless rebound) */
	hint = tui_key_text(t, _("%s cancels the resting order under the cursor"), "cancel", NULL);
	tui_list_head(l, (const char *const[]){ count }, 1, open != NULL,
		      _("asking the exchange for your orders…"),
		      n_open > 0 ? hint : _("No resting order: recent done ones are listed (dim)."));
	free(count);
	free(hint);
}

static void on_open(void *ud, struct api_orders *r, const struct api_error *e)
{
	struct orders *s = ud;

	s->open_req = 0;
	if (tui_list_reply(&s->l, e))
		tui_account_set_open(s->l.page.base.t, r);
}

static void on_done(void *ud, struct api_orders *r, const struct api_error *e)
{
	struct orders *s = ud;

	s->done_req = 0;
	if (tui_list_reply(&s->l, e)) {
		api_orders_free(&s->done);
		s->done = r;
	}
}

static void ask(struct tui_list *l)
{
	struct orders *s = (struct orders *)l;
	struct api_client *api = l->page.base.t->api;
	struct api_list_query qo = { .status = "live", .limit = 200 };
	struct api_list_query qd = { .status = "closed", .limit = 50 };

	s->open_req = api_orders_start(api, &qo, on_open, s);
	s->done_req = api_orders_start(api, &qd, on_done, s);
}

static bool busy(const struct tui_list *l)
{
	const struct orders *s = (const struct orders *)l;

	return s->open_req != 0 || s->done_req != 0;
}

/* ---- cancelling ------------------------------------------------------------------------------- */

static void on_cancel(void *ud, struct api_order *o, const struct api_error *e)
{
	struct orders *s = ud;
	struct tui *t = s->l.page.base.t;
	const struct api_order *was = e == NULL ? find(s, o->id) : NULL;
	int64_t freed = was != NULL ? was->hold_minor - o->hold_minor : 0;
	char *note = NULL, *m;

	s->cancel_req = 0;
	if (e == NULL && freed > 0) {
		m = tui_money(t, freed, o->currency);
		note = xasprintf(_("Cancelled order %lld: %s released to your available balance."),
				 (long long)o->id, m);
		free(m);
		/* visible at once; the account's answer confirms it */
		tui_account_release(t, o->currency, freed);
	} else if (e == NULL) {
		note = xasprintf(P_("Cancelled order %lld (%lld of %lld GPU had filled).",
				    "Cancelled order %lld (%lld of %lld GPUs had filled).",
				    (unsigned long)o->gpus),
				 (long long)o->id, (long long)o->filled_gpus, (long long)o->gpus);
	}
	tui_list_acted(&s->l, e, note);
	api_order_free(&o);
}

static void cancel(struct tui_list *l, int64_t id)
{
	struct orders *s = (struct orders *)l;

	if (s->cancel_req != 0)
		return;
	s->cancel_req = api_order_cancel_start(l->page.base.t->api, id, on_cancel, s);
	tui_list_note(l, xasprintf(_("Cancelling order %lld…"), (long long)id), WR_DIM);
}

static void ask_cancel(struct orders *s)
{
	struct tui *t = s->l.page.base.t;
	const struct api_order *o = find(s, tui_list_key(&s->l));
	char *line, *text, *title, *m;

	if (o == NULL) {
		tui_message(t, _("No order selected"));
		return;
	}
	if (!live(o)) {
		tui_list_note(&s->l, xasprintf(_("Order %lld is %s: only resting, waiting or standing "
						 "orders can be cancelled."), (long long)o->id,
					       view_order_status_text(t->o->lang, o->status)),
			      WR_BAD);
		return;
	}
	if (t->api == NULL || s->cancel_req != 0)
		return;
	line = order_line(t, o);
	if (o->hold_minor > 0) {
		m = tui_money(t, o->hold_minor, o->currency);
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
	tui_list_confirm(&s->l, o->id, title, text, _("y or Enter: cancel it · any other key: keep it"),
			 cancel, xasprintf(_("Order %lld was not cancelled."), (long long)o->id));
	free(title);
	free(text);
	free(line);
}

/* ---- the screen ------------------------------------------------------------------------------------ */

enum { OK_CANCEL = 1, OK_COPY };

static const struct wbinding orders_bindings[] = {
	/* TRANSLATORS: F-key bar, x cancels the order under the cursor: the
	 * verb of "Order 12 cancelled" (de "Stornieren", not "Abbrechen") */
	{ 'x', OK_CANCEL, N_("Cancel the resting order under the cursor (asks first)"),
	  N_("Cancel order"), "cancel" },
	{ WKEY_DELETE, OK_CANCEL, N_("Cancel the resting order under the cursor (asks first)"), NULL,
	  "cancel" },
	{ WKEY_RETURN, 0, N_("The GPU of the order under the cursor in detail (Esc: back)"), NULL,
	  "detail" },
	{ 'y', OK_COPY, N_("Copy the id of the order under the cursor to the clipboard"), NULL,
	  "copy" },
};

static const struct tui_keymap keys[] = {
	{ N_("Your orders"), orders_bindings, sizeof orders_bindings / sizeof orders_bindings[0] },
	{ N_("Pages"), tui_page_bindings, TUI_PAGE_N_KEYS },
};

static unsigned orders_key(struct tui_list *l, int action)
{
	int64_t id = tui_list_key(l);

	if (action == OK_COPY) {
		if (id < 0) {
			tui_message(l->page.base.t, _("No row selected"));
		} else {
			char *text = xasprintf("%lld", (long long)id);
			/* TRANSLATORS: what was copied: the order whose id is %s */
			char *what = xasprintf(_("the id of order %s"), text);
			tui_copy(l->page.base.t, text, what, false);
			free(what);
			free(text);
		}
		return W_HANDLED | W_REDRAW;
	}
	if (action != OK_CANCEL)
		return W_IGNORED;
	ask_cancel((struct orders *)l);
	return W_HANDLED | W_REDRAW;
}

static void orders_free(struct tui_screen *sc)
{
	struct orders *s = (struct orders *)sc;

	tui_list_free(&s->l, (const uint64_t[]){ s->open_req, s->done_req, s->cancel_req }, 3);
	api_orders_free(&s->done);
}

const struct tui_screen_class tui_orders_class = {
	.name = "orders", .flags = TS_OPAQUE | TS_PAGE, .layout = tui_list_layout,
	.recalc = tui_list_recalc, .event = tui_list_event, .tick = tui_list_tick,
	.notify = tui_list_notify, .help = tui_list_help, .offers = tui_list_offers,
	.free = orders_free, .keys = keys, .n_keys = 2,
};

void tui_orders_open(struct tui *t, const struct tui_goto *g)
{
	static const struct tui_list_def def = {
		&tui_orders_class, TUI_ORDERS, sizeof(struct orders), TUI_LIST_MS, 2, OC_N, head,
		/* TRANSLATORS: %1$s is the key back to the tables (Esc), %2$s the key that buys (b) */
		align, N_("No orders yet: press %1$s, choose a GPU and press %2$s to buy"),
		{ "back", "buy" },
	};
	static const struct tui_list_ops ops = {
		.key = orders_key, .ask = ask, .busy = busy, .build = build, .gpu = row_gpu,
	};

	(void)g;
	tui_list_open(t, &def, &ops);
}
