/*
 * Your rentals (R): the active ones first, with hours used (begun, so
 * billed) and left and the charges so far, then the recent ended ones;
 * refreshed every 2 s, the cursor staying on its rental. x stops the rental
 * under the cursor early, after a confirmation that says how many hours stay
 * billed and what comes back (hours not yet begun are refunded at once).
 * A seller sees the rentals of its GPUs too, but only a buyer may stop one.
 */
#include "tui/trade/order_int.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

enum { RC_ID, RC_GPU, RC_GPUS, RC_STATUS, RC_USED, RC_LEFT, RC_PRICE, RC_HOURLY, RC_BILLED,
       RC_REFUNDED, RC_ENDS, RC_N };

static const char *const head[RC_N] = {
	N_("Rental"), N_("GPU"), N_("GPUs"), N_("Status"), N_("Used h"), N_("Left h"),
	N_("Price/h"), N_("Per hour"), N_("Charged"), N_("Refunded"), N_("Ends"),
};
static const enum walign align[RC_N] = {
	WALIGN_RIGHT, WALIGN_LEFT, WALIGN_RIGHT, WALIGN_LEFT, WALIGN_RIGHT, WALIGN_RIGHT,
	WALIGN_RIGHT, WALIGN_RIGHT, WALIGN_RIGHT, WALIGN_RIGHT, WALIGN_LEFT,
};

struct tp_rentals {
	struct tp_list l;
	struct api_rentals *active, *ended;
	uint64_t active_req, ended_req;
	uint64_t stop_req;
};

static struct tp_rentals *rentals(struct tui *t)
{
	return t->trade != NULL ? t->trade->rentals : NULL;
}

static struct tp_list *list(struct tui *t)
{
	struct tp_rentals *s = rentals(t);

	return s != NULL ? &s->l : NULL;
}

static void set_note(struct tp_rentals *s, char *text, enum wrole role)
{
	tp_list_note(&s->l, text, role);
}

static const struct api_rental *find(struct tp_rentals *s, int64_t id)
{
	struct api_rentals *l[2] = { s->active, s->ended };

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; l[k] != NULL && i < l[k]->n; i++)
			if (l[k]->v[i].id == id)
				return &l[k]->v[i];
	return NULL;
}

const char *tp_rentals_gpu(struct tui *t)
{
	struct tp_rentals *s = rentals(t);
	const struct api_rental *r;

	if (s == NULL || s->l.table == NULL)
		return NULL;
	r = find(s, tp_table_key(s->l.table, &s->l.grid));
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

static void add_row(struct tui *t, struct tp_grid *g, const struct api_rental *r)
{
	bool active = r->status == API_RENTAL_ACTIVE;

	tp_grid_row(g, r->id, active ? WR_NORMAL : WR_DIM);
	tp_grid_put(g, RC_ID, xasprintf("%lld", (long long)r->id));
	tp_grid_puts(g, RC_GPU, tp_gpu_name(t, r->gpu));
	tp_grid_put(g, RC_GPUS, tp_int(t, r->gpus));
	tp_grid_puts(g, RC_STATUS, status_text(r));
	tp_grid_put(g, RC_USED, xasprintf("%lld/%lld", (long long)r->hours_billed,
					  (long long)r->hours));
	tp_grid_put(g, RC_LEFT, tp_int(t, active ? r->hours - r->hours_billed : 0));
	tp_grid_put(g, RC_PRICE, tp_usd(t, r->price_cents));
	tp_grid_put(g, RC_HOURLY, tp_money(t, r->hourly_minor, r->currency));
	tp_grid_put(g, RC_BILLED, tp_money(t, r->billed_minor, r->currency));
	tp_grid_put(g, RC_REFUNDED, tp_money(t, r->refunded_minor, r->currency));
	tp_grid_put(g, RC_ENDS, tp_date(t, r->stopped_at >= 0 ? r->stopped_at : r->ends_at));
}

static void rentals_rebuild(struct tui *t)
{
	struct tp_rentals *s = rentals(t);
	struct wcells *c;
	int64_t key, billed = 0, hourly = 0;
	size_t n_active = 0;
	const char *ccy = NULL;
	char *x;

	if (s == NULL || s->l.table == NULL)
		return;
	key = tp_table_key(s->l.table, &s->l.grid);
	tp_grid_clear(&s->l.grid);
	for (size_t i = 0; s->active != NULL && i < s->active->n; i++) {
		const struct api_rental *r = &s->active->v[i];
		add_row(t, &s->l.grid, r);
		n_active++;
		if (!r->seller) {
			billed += r->billed_minor;
			hourly += r->hourly_minor;
			ccy = r->currency;
		}
	}
	for (size_t i = 0; s->ended != NULL && i < s->ended->n; i++)
		if (s->ended->v[i].status != API_RENTAL_ACTIVE)
			add_row(t, &s->l.grid, &s->ended->v[i]);
	tp_table_reload(s->l.table, &s->l.grid, key);

	wpanel_begin(s->l.head);
	c = wpanel_add(s->l.head);
	wcells_pad(c, 1, WR_NORMAL);
	tp_balance_line(t, c);
	if (s->active != NULL) {
		x = xasprintf(P_(" · %zu active rental", " · %zu active rentals", n_active), n_active);
		tp_add_whole(c, x, s->l.head->base.w);
		free(x);
	}
	if (ccy != NULL) {
		char *b = tp_money(t, billed, ccy), *h = tp_money(t, hourly, ccy);
		x = xasprintf(_(" · charged so far %s, %s per hour"), b, h);
		tp_add_whole(c, x, s->l.head->base.w);
		free(x);
		free(b);
		free(h);
	}
	if (s->l.note != NULL)
		tp_list_head_text(t, &s->l, s->l.note, s->l.note_role);
	else if (s->l.error != NULL)
		tp_list_head_text(t, &s->l, s->l.error, WR_BAD);
	else if (t->api == NULL)
		tp_list_head_text(t, &s->l, _("No exchange: orders need one (see the status bar)."),
				  WR_BAD);
	else if (s->active == NULL)
		tp_list_head_text(t, &s->l, _("asking the exchange for your rentals…"), WR_DIM);
	else if (n_active > 0)
		tp_list_head_text(t, &s->l, _("x stops the rental under the cursor early: hours not "
					      "begun come back"), WR_DIM);
	else
		tp_list_head_text(t, &s->l, _("No active rental: recent ended ones are listed (dim)."),
				  WR_DIM);
	wpanel_commit(s->l.head);
}

static void on_list(struct tui *t, struct api_rentals **slot, struct api_rentals *r,
		    const struct api_error *e)
{
	if (tp_list_reply(t, list(t), e)) {
		api_rentals_free(slot);
		*slot = r;
	}
	rentals_rebuild(t);
}

static void on_active(void *ud, struct api_rentals *r, const struct api_error *e)
{
	struct tui *t = ud;

	rentals(t)->active_req = 0;
	on_list(t, &rentals(t)->active, r, e);
}

static void on_ended(void *ud, struct api_rentals *r, const struct api_error *e)
{
	struct tui *t = ud;

	rentals(t)->ended_req = 0;
	on_list(t, &rentals(t)->ended, r, e);
}

static void on_stop(void *ud, struct api_rental *r, const struct api_error *e)
{
	struct tui *t = ud;
	struct tp_rentals *s = rentals(t);
	struct tui_trade *tr = t->trade;

	s->stop_req = 0;
	if (e != NULL) {
		set_note(s, tp_error_words(t, e), WR_BAD);
	} else {
		char *b = tp_money(t, r->billed_minor, r->currency);
		char *f = tp_money(t, r->refunded_minor, r->currency);
		set_note(s, xasprintf(_("Stopped rental %lld: %lld of %lld hours billed (%s), %s "
					"refunded."), (long long)r->id, (long long)r->hours_billed,
				      (long long)r->hours, b, f), WR_GOOD);
		free(b);
		free(f);
		if (tr->acct != NULL && tr->acct->has_balance && r->currency != NULL &&
		    strcmp(tr->acct->currency, r->currency) == 0) {
			tr->acct->balance.available_minor += r->refunded_minor;
			tr->acct->balance.held_minor -= r->refunded_minor;
		}
		tui_message(t, s->l.note);
		api_rental_free(&r);
	}
	tp_account_soon(t);
	tp_lists_soon(t);
	tp_rebuild_all(t);
}

void tp_rentals_dialog(struct tui *t, enum tp_dialog kind, int64_t id, bool yes)
{
	struct tp_rentals *s = rentals(t);

	if (s == NULL || kind != TD_STOP)
		return;
	if (!yes) {
		set_note(s, xasprintf(_("Rental %lld goes on."), (long long)id), WR_DIM);
	} else if (s->stop_req == 0) {
		s->stop_req = api_rental_stop_start(t->api, id, on_stop, t);
		set_note(s, xasprintf(_("Stopping rental %lld…"), (long long)id), WR_DIM);
	}
	rentals_rebuild(t);
}

static void ask_stop(struct tui *t)
{
	struct tp_rentals *s = rentals(t);
	const struct api_rental *r = find(s, tp_table_key(s->l.table, &s->l.grid));
	char *text, *title, *p, *billed, *back, *begun, *rest;
	int64_t left;

	if (r == NULL) {
		tui_message(t, _("No rental selected"));
		return;
	}
	if (r->status != API_RENTAL_ACTIVE) {
		set_note(s, xasprintf(_("Rental %lld has ended already: there is nothing to stop."),
				      (long long)r->id), WR_BAD);
		rentals_rebuild(t);
		return;
	}
	if (r->seller) {
		set_note(s, xasprintf(_("You sell rental %lld: only its buyer can stop it."),
				      (long long)r->id), WR_BAD);
		rentals_rebuild(t);
		return;
	}
	if (t->api == NULL || s->stop_req != 0)
		return;
	left = r->hours - r->hours_billed;
	p = tp_usd(t, r->price_cents);
	billed = tp_money(t, r->billed_minor, r->currency);
	back = tp_money(t, left * r->hourly_minor, r->currency);
	begun = xasprintf(P_("%lld of %lld hours has begun and stays billed (%s)",
			     "%lld of %lld hours have begun and stay billed (%s)",
			     (unsigned long)r->hours_billed),
			  (long long)r->hours_billed, (long long)r->hours, billed);
	rest = xasprintf(P_("the other %lld hour, %s, comes back to your available balance.",
			    "the other %lld hours, %s, come back to your available balance.",
			    (unsigned long)left),
			 (long long)left, back);
	/* TRANSLATORS: "2 × H200 at $4.19 per GPU-hour: 1 of 3 hours has begun …; the other …" */
	text = xasprintf(_("%lld × %s at %s per GPU-hour: %s; %s"), (long long)r->gpus,
			 tp_gpu_name(t, r->gpu), p, begun, rest);
	free(begun);
	free(rest);
	title = xasprintf(_("Stop rental %lld now?"), (long long)r->id);
	tp_dialog(t, TD_STOP, r->id, title, text, _("y or Enter: stop it · any other key: keep it"), false);
	free(title);
	free(text);
	free(p);
	free(billed);
	free(back);
}

enum { RK_STOP = 1, RK_DETAIL };

static const struct wbinding rentals_bindings[] = {
	{ 'x', RK_STOP, N_("Stop the rental under the cursor early (asks first)") },
	{ WKEY_DELETE, RK_STOP, N_("Stop the rental under the cursor early (asks first)") },
	{ WKEY_RETURN, RK_DETAIL, N_("The GPU of the rental under the cursor in detail (Esc: back)") },
};

static unsigned rentals_event(struct tui *t, const struct wevent *ev)
{
	const struct wbinding *b = ev->type != WEV_KEY ? NULL
		: wbinding_find(rentals_bindings, sizeof rentals_bindings / sizeof rentals_bindings[0],
				ev->key);

	switch (b != NULL ? b->action : 0) {
	case RK_STOP:
		ask_stop(t);
		return W_HANDLED | W_REDRAW;
	case RK_DETAIL:
		tp_detail_open(t, tp_rentals_gpu(t));
		return W_HANDLED | W_REDRAW;
	}
	return tp_list_event(t, list(t), ev);
}

static void rentals_tick(struct tui *t, int64_t now, int64_t *next)
{
	struct tp_rentals *s = rentals(t);
	struct api_list_query qa = { .status = "active", .limit = 200 };
	struct api_list_query qe = { .status = "ended", .limit = 50 };

	if (tp_list_due(&s->l, s->active_req != 0 || s->ended_req != 0, now, TP_LIST_MS)) {
		s->active_req = api_rentals_start(t->api, &qa, on_active, t);
		s->ended_req = api_rentals_start(t->api, &qe, on_ended, t);
	}
	tp_list_wake(&s->l, s->active_req != 0 || s->ended_req != 0, next);
}

static void rentals_shown(struct tui *t, bool on)
{
	struct tui_trade *tr = tp_get(t);
	struct tp_rentals *s = tr->rentals;

	if (!on)
		return;
	if (s == NULL) {
		s = tr->rentals = xcalloc(1, sizeof *s);
		tp_list_init(t, &s->l, 2, RC_N, head, align,
			     N_("No rentals yet: a filled buy order starts one"));
	}
	s->l.next = 0;
}

void tp_rentals_soon(struct tui *t)
{
	struct tp_rentals *s = rentals(t);

	if (s != NULL)
		s->l.next = 0;
}

static void rentals_fkeys(struct tui *t, struct wfkeys *k)
{
	wfkeys_add(k, 'x', "x", _("Stop early"));
	wfkeys_add(k, 'o', "o", _("Orders"));
	wfkeys_add(k, 'a', "a", _("Account"));
	wfkeys_add(k, WKEY_ESC, "Esc", _("Back"));
	wfkeys_add(k, WKEY_F1, "F1", _("Help"));
	wfkeys_add(k, WKEY_F10, "F10", _("Quit"));
}

static void rentals_free(struct tui *t)
{
	struct tp_rentals *s = rentals(t);

	if (s == NULL)
		return;
	tp_list_free(t, &s->l, (const uint64_t[]){ s->active_req, s->ended_req, s->stop_req }, 3);
	api_rentals_free(&s->active);
	api_rentals_free(&s->ended);
	free(s);
	t->trade->rentals = NULL;
}

const struct tp_page_ops tp_rentals_ops = {
	.list = list,
	.event = rentals_event,
	.tick = rentals_tick,
	.shown = rentals_shown,
	.rebuild = rentals_rebuild,
	.fkeys = rentals_fkeys,
	.bindings = rentals_bindings,
	.n_bindings = sizeof rentals_bindings / sizeof rentals_bindings[0],
	.help_title = N_("Your rentals"),
	.free = rentals_free,
};
