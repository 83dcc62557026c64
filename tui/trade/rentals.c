/*
 * Your rentals (R): the active ones first, with hours used (begun, so
 * billed) and left and the charges so far, then the recent ended ones;
 * refreshed every 2 s, the cursor staying on its rental. x stops the rental
 * under the cursor early, after a confirmation that says how many hours stay
 * billed and what comes back (hours not yet begun are refunded at once).
 * A seller sees the rentals of its GPUs too, but only a buyer may stop one.
 */
#include "tui/trade/trade.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

enum { RC_ID, RC_GPU, RC_GPUS, RC_NODE, RC_REGION, RC_STATUS, RC_USED, RC_LEFT, RC_PRICE,
       RC_HOURLY, RC_BILLED, RC_REFUNDED, RC_ENDS, RC_HOST, RC_N };

static const char *const head[RC_N] = {
	N_("Rental"), N_("GPU"), N_("GPUs"), N_("Machines"), N_("Region"), N_("Status"),
	N_("Used h"), N_("Left h"), N_("Price/h"), N_("Per hour"), N_("Charged"), N_("Refunded"),
	N_("Ends"), N_("Host"),
};
static const enum walign align[RC_N] = {
	WALIGN_RIGHT, WALIGN_LEFT, WALIGN_RIGHT, WALIGN_LEFT, WALIGN_LEFT, WALIGN_LEFT,
	WALIGN_RIGHT, WALIGN_RIGHT, WALIGN_RIGHT, WALIGN_RIGHT, WALIGN_RIGHT, WALIGN_RIGHT,
	WALIGN_LEFT, WALIGN_LEFT,
};

struct rentals {
	struct tui_list l;
	struct api_rentals *active, *ended;
	uint64_t active_req, ended_req, stop_req;
};

static const struct api_rental *find(const struct rentals *s, int64_t id)
{
	const struct api_rentals *l[2] = { s->active, s->ended };

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; l[k] != NULL && i < l[k]->n; i++)
			if (l[k]->v[i].id == id)
				return &l[k]->v[i];
	return NULL;
}

static const char *row_gpu(struct tui_list *l, int64_t key)
{
	const struct api_rental *r = find((struct rentals *)l, key);

	return r != NULL ? r->gpu : NULL;
}

static const char *status_text(const struct api_rental *r)
{
	switch (r->status) {
	case API_RENTAL_ACTIVE: return r->seller ? _("active (you sell)") : _("active");
	case API_RENTAL_COMPLETED: return _("completed");
	case API_RENTAL_STOPPED: return _("stopped");
	}
	return "?";
}

static void add_row(struct tui *t, struct tui_grid *g, const struct api_rental *r)
{
	bool active = r->status == API_RENTAL_ACTIVE;

	tui_grid_row(g, r->id, active ? WR_NORMAL : WR_DIM);
	tui_grid_put(g, RC_ID, xasprintf("%lld", (long long)r->id));
	tui_grid_puts(g, RC_GPU, tui_gpu_name(t, r->gpu));
	tui_grid_put(g, RC_GPUS, tui_int(t, r->gpus));
	tui_grid_puts(g, RC_STATUS, status_text(r));
	tui_grid_put(g, RC_USED, xasprintf("%lld/%lld", (long long)r->hours_billed,
					   (long long)r->hours));
	tui_grid_put(g, RC_LEFT, tui_int(t, active ? r->hours - r->hours_billed : 0));
	tui_grid_put(g, RC_PRICE, tui_usd(t, r->price_cents));
	tui_grid_put(g, RC_HOURLY, tui_money(t, r->hourly_minor, r->currency));
	tui_grid_put(g, RC_BILLED, tui_money(t, r->billed_minor, r->currency));
	tui_grid_put(g, RC_REFUNDED, tui_money(t, r->refunded_minor, r->currency));
	tui_grid_put(g, RC_ENDS, tui_date(t, r->stopped_at >= 0 ? r->stopped_at : r->ends_at));
	/* which machines it has, where, and their host */
	tui_grid_put(g, RC_NODE, view_fmt_rental_machines(t->o->lang, r, t->ascii));
	tui_grid_put(g, RC_REGION, r->has_lot && r->lot.region != NULL ? xstrdup(r->lot.region)
								  : xstrdup(t->ascii ? "-" : "\u2014"));
	tui_grid_put(g, RC_HOST, r->has_lot ? view_fmt_host(t->o->lang, &r->lot.host)
					    : xstrdup(t->ascii ? "-" : "\u2014"));
}

/* " · charged so far €1.00, €0.50 per hour" of the active rentals the
 * account buys (malloc'ed), NULL when there is none. */
static char *charges(struct tui *t, const struct api_rentals *active)
{
	int64_t billed = 0, hourly = 0;
	const char *ccy = NULL;
	char *b, *h, *x;

	for (size_t i = 0; active != NULL && i < active->n; i++) {
		if (!active->v[i].seller) {
			billed += active->v[i].billed_minor;
			hourly += active->v[i].hourly_minor;
			ccy = active->v[i].currency;
		}
	}
	if (ccy == NULL)
		return NULL;
	b = tui_money(t, billed, ccy);
	h = tui_money(t, hourly, ccy);
	x = xasprintf(_(" · charged so far %s, %s per hour"), b, h);
	free(b);
	free(h);
	return x;
}

static void build(struct tui_list *l)
{
	struct rentals *s = (struct rentals *)l;
	struct tui *t = l->page.base.t;
	size_t n_active = s->active != NULL ? s->active->n : 0;
	char *x[2] = { NULL, charges(t, s->active) }, *hint;

	for (size_t i = 0; i < n_active; i++)
		add_row(t, &l->grid, &s->active->v[i]);
	for (size_t i = 0; s->ended != NULL && i < s->ended->n; i++)
		if (s->ended->v[i].status != API_RENTAL_ACTIVE)
			add_row(t, &l->grid, &s->ended->v[i]);
	if (s->active != NULL)
		x[0] = xasprintf(P_(" · %zu active rental", " · %zu active rentals", n_active),
				 n_active);
	/* TRANSLATORS: %s is the key that stops a rental (x unless rebound) */
	hint = tui_key_text(t, _("%s stops the rental under the cursor early: hours not begun "
				 "come back"), "stop", NULL);
	tui_list_head(l, (const char *const *)x, 2, s->active != NULL,
		      _("asking the exchange for your rentals…"),
		      n_active > 0 ? hint : _("No active rental: recent ended ones are listed (dim)."));
	free(hint);
	free(x[0]);
	free(x[1]);
}

static void on_list(struct rentals *s, struct api_rentals **slot, struct api_rentals *r,
		    const struct api_error *e)
{
	if (tui_list_reply(&s->l, e)) {
		api_rentals_free(slot);
		*slot = r;
	}
}

static void on_active(void *ud, struct api_rentals *r, const struct api_error *e)
{
	struct rentals *s = ud;

	s->active_req = 0;
	on_list(s, &s->active, r, e);
}

static void on_ended(void *ud, struct api_rentals *r, const struct api_error *e)
{
	struct rentals *s = ud;

	s->ended_req = 0;
	on_list(s, &s->ended, r, e);
}

static void ask(struct tui_list *l)
{
	struct rentals *s = (struct rentals *)l;
	struct api_client *api = l->page.base.t->api;
	struct api_list_query qa = { .status = "active", .limit = 200 };
	struct api_list_query qe = { .status = "ended", .limit = 50 };

	s->active_req = api_rentals_start(api, &qa, on_active, s);
	s->ended_req = api_rentals_start(api, &qe, on_ended, s);
}

static bool busy(const struct tui_list *l)
{
	const struct rentals *s = (const struct rentals *)l;

	return s->active_req != 0 || s->ended_req != 0;
}

/* ---- stopping ---------------------------------------------------------------------------------------- */

static void on_stop(void *ud, struct api_rental *r, const struct api_error *e)
{
	struct rentals *s = ud;
	struct tui *t = s->l.page.base.t;
	char *note = NULL;

	s->stop_req = 0;
	if (e == NULL) {
		char *b = tui_money(t, r->billed_minor, r->currency);
		char *f = tui_money(t, r->refunded_minor, r->currency);
		note = xasprintf(_("Stopped rental %lld: %lld of %lld hours billed (%s), %s "
				   "refunded."), (long long)r->id, (long long)r->hours_billed,
				 (long long)r->hours, b, f);
		free(b);
		free(f);
		tui_account_release(t, r->currency, r->refunded_minor);
	}
	tui_list_acted(&s->l, e, note);
	api_rental_free(&r);
}

static void stop(struct tui_list *l, int64_t id)
{
	struct rentals *s = (struct rentals *)l;

	if (s->stop_req != 0)
		return;
	s->stop_req = api_rental_stop_start(l->page.base.t->api, id, on_stop, s);
	tui_list_note(l, xasprintf(_("Stopping rental %lld…"), (long long)id), WR_DIM);
}

/* What stopping r now means, for the confirmation (malloc'ed). */
static char *stop_text(struct tui *t, const struct api_rental *r)
{
	int64_t left = r->hours - r->hours_billed;
	char *p = tui_usd(t, r->price_cents);
	char *billed = tui_money(t, r->billed_minor, r->currency);
	char *back = tui_money(t, left * r->hourly_minor, r->currency);
	char *begun = xasprintf(P_("%lld of %lld hours has begun and stays billed (%s)",
				   "%lld of %lld hours have begun and stay billed (%s)",
				   (unsigned long)r->hours_billed),
				(long long)r->hours_billed, (long long)r->hours, billed);
	char *rest = xasprintf(P_("the other %lld hour, %s, comes back to your available balance.",
				  "the other %lld hours, %s, come back to your available balance.",
				  (unsigned long)left),
			       (long long)left, back);
	/* TRANSLATORS: "2 × H200 at $4.19 per GPU-hour: 1 of 3 hours has begun …; the other …" */
	char *text = xasprintf(_("%lld × %s at %s per GPU-hour: %s; %s"), (long long)r->gpus,
			       tui_gpu_name(t, r->gpu), p, begun, rest);

	if (r->has_lot && r->n_nodes > 1) {
		/* a rental on several machines stops whole */
		char *nodes = view_fmt_nodes(t->o->lang, r->nodes, r->n_nodes, r->lot.node_gpus, 8);
		char *all = xasprintf(_("%s\nIt stops on all its machines at once: %s."), text, nodes);
		free(text);
		free(nodes);
		text = all;
	}
	free(begun);
	free(rest);
	free(p);
	free(billed);
	free(back);
	return text;
}

static void ask_stop(struct rentals *s)
{
	struct tui *t = s->l.page.base.t;
	const struct api_rental *r = find(s, tui_list_key(&s->l));
	char *text, *title;

	if (r == NULL) {
		tui_message(t, _("No rental selected"));
		return;
	}
	if (r->status != API_RENTAL_ACTIVE) {
		tui_list_note(&s->l, xasprintf(_("Rental %lld has ended already: there is nothing "
						 "to stop."), (long long)r->id), WR_BAD);
		return;
	}
	if (r->seller) {
		tui_list_note(&s->l, xasprintf(_("You sell rental %lld: only its buyer can stop it."),
					       (long long)r->id), WR_BAD);
		return;
	}
	if (t->api == NULL || s->stop_req != 0)
		return;
	text = stop_text(t, r);
	title = xasprintf(_("Stop rental %lld now?"), (long long)r->id);
	tui_list_confirm(&s->l, r->id, title, text, _("y or Enter: stop it · any other key: keep it"),
			 stop, xasprintf(_("Rental %lld goes on."), (long long)r->id));
	free(title);
	free(text);
}

/* ---- the screen ------------------------------------------------------------------------------------ */

enum { RK_STOP = 1 };

static const struct wbinding rentals_bindings[] = {
	{ 'x', RK_STOP, N_("Stop the rental under the cursor early (asks first)"), N_("Stop early"),
	  "stop" },
	{ WKEY_DELETE, RK_STOP, N_("Stop the rental under the cursor early (asks first)"), NULL,
	  "stop" },
	{ WKEY_RETURN, 0, N_("The GPU of the rental under the cursor in detail (Esc: back)"), NULL,
	  "detail" },
};

static const struct tui_keymap keys[] = {
	{ N_("Your rentals"), rentals_bindings, sizeof rentals_bindings / sizeof rentals_bindings[0] },
	{ N_("Pages"), tui_page_bindings, TUI_PAGE_N_KEYS },
};

static unsigned rentals_key(struct tui_list *l, int action)
{
	if (action != RK_STOP)
		return W_IGNORED;
	ask_stop((struct rentals *)l);
	return W_HANDLED | W_REDRAW;
}

static void rentals_free(struct tui_screen *sc)
{
	struct rentals *s = (struct rentals *)sc;

	tui_list_free(&s->l, (const uint64_t[]){ s->active_req, s->ended_req, s->stop_req }, 3);
	api_rentals_free(&s->active);
	api_rentals_free(&s->ended);
}

const struct tui_screen_class tui_rentals_class = {
	.name = "rentals", .flags = TS_OPAQUE | TS_PAGE, .layout = tui_list_layout,
	.recalc = tui_list_recalc, .event = tui_list_event, .tick = tui_list_tick,
	.notify = tui_list_notify, .help = tui_list_help, .offers = tui_list_offers,
	.free = rentals_free, .keys = keys, .n_keys = 2,
};

void tui_rentals_open(struct tui *t, const struct tui_goto *g)
{
	static const struct tui_list_def def = {
		&tui_rentals_class, TUI_RENTALS, sizeof(struct rentals), TUI_LIST_MS, 2, RC_N, head,
		align, N_("No rentals yet: a filled buy order starts one"),
	};
	static const struct tui_list_ops ops = {
		.key = rentals_key, .ask = ask, .busy = busy, .build = build, .gpu = row_gpu,
	};

	(void)g;
	tui_list_open(t, &def, &ops);
}
