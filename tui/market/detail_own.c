/*
 * The detail screen's "yours here" (a part the detail screen owns, as its
 * machines are): the account's open orders on the GPU and its active
 * rentals of it, from GET /v1/orders?status=open&gpu= and
 * GET /v1/rentals?status=active&gpu=.
 *
 * Asked when the detail opens, again every DETAIL_OWN_MS while it is shown,
 * and at once (no sooner than DETAIL_OWN_MIN_MS after the last) when money
 * moved in the account or the GPU traded: a fill of the user's may have been
 * that trade. Without an account key there is nothing to ask and the section
 * is left out. The replies are kept as data and gen moves; the detail
 * screen draws them (detail.c calls detail_own_lines).
 */
#include "tui/market/detail_own.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

enum { DETAIL_OWN_MS = 5000, DETAIL_OWN_MIN_MS = 1000, DETAIL_OWN_LIMIT = 50 };

void detail_own_init(struct detail_own *o, struct tui *t, const char *gpu)
{
	memset(o, 0, sizeof *o);
	o->t = t;
	o->gpu = xstrdup(gpu);
}

static void abandon(struct detail_own *o, uint64_t *req)
{
	if (*req != 0 && o->t->api != NULL)
		api_abandon(o->t->api, *req);
	*req = 0;
}

void detail_own_free(struct detail_own *o)
{
	abandon(o, &o->orders_req);
	abandon(o, &o->rentals_req);
	api_orders_free(&o->orders);
	api_rentals_free(&o->rentals);
	free(o->error);
	free(o->gpu);
	memset(o, 0, sizeof *o);
}

bool detail_own_shown(const struct detail_own *o)
{
	return o->t->api != NULL && api_client_has_key(o->t->api) && !o->t->account.refused;
}

static void failed(struct detail_own *o, const struct api_error *e)
{
	free(o->error);
	o->error = tui_error_words(o->t, e);
}

static void on_orders(void *ud, struct api_orders *r, const struct api_error *e)
{
	struct detail_own *o = ud;

	o->orders_req = 0;
	if (e != NULL) {
		failed(o, e);
	} else {
		api_orders_free(&o->orders);
		o->orders = r;
	}
	o->gen++;
}

static void on_rentals(void *ud, struct api_rentals *r, const struct api_error *e)
{
	struct detail_own *o = ud;

	o->rentals_req = 0;
	if (e != NULL) {
		failed(o, e);
	} else {
		api_rentals_free(&o->rentals);
		o->rentals = r;
	}
	o->gen++;
}

static uint64_t trades_seen(const struct detail_own *o)
{
	const struct tui_focus *f = o->t->m.focus;

	return f != NULL ? f->trade_gen : 0;
}

static void ask(struct detail_own *o, int64_t now)
{
	struct api_list_query qo = { .status = "open", .gpu = o->gpu, .limit = DETAIL_OWN_LIMIT };
	struct api_list_query qr = { .status = "active", .gpu = o->gpu, .limit = DETAIL_OWN_LIMIT };

	free(o->error); /* the failure of this round's replies, if any */
	o->error = NULL;
	o->seen_moved = o->t->account.moved;
	o->seen_trades = trades_seen(o);
	o->next = now + DETAIL_OWN_MS;
	o->orders_req = api_orders_start(o->t->api, &qo, on_orders, o);
	o->rentals_req = api_rentals_start(o->t->api, &qr, on_rentals, o);
}

void detail_own_tick(struct detail_own *o, int64_t now, int64_t *next)
{
	bool changed = o->seen_moved != o->t->account.moved || o->seen_trades != trades_seen(o);
	int64_t due = o->next;

	if (!detail_own_shown(o) || o->orders_req != 0 || o->rentals_req != 0)
		return;
	if (changed && o->next - DETAIL_OWN_MS + DETAIL_OWN_MIN_MS < due)
		due = o->next - DETAIL_OWN_MS + DETAIL_OWN_MIN_MS;
	if (o->orders == NULL && o->rentals == NULL && o->error == NULL)
		due = now; /* the first ask */
	if (now >= due)
		ask(o, now);
	else if (*next < 0 || due < *next)
		*next = due;
}

/* ---- the section ----------------------------------------------------------------------------- */

static char *order_line(const struct tui *t, const struct api_order *r)
{
	char *gpus = tui_int(t, r->gpus), *price = tui_usd(t, r->price_cents);
	char *left = tui_int(t, r->remaining_gpus), *x;

	unsigned long n = (unsigned long)r->gpus;

	if (r->side == API_BUY)
		/* TRANSLATORS: the detail's "yours here": an open buy order; order id, GPUs, hours, price per GPU-hour, GPUs still to fill */
		x = xasprintf(P_("order %lld: buy %s GPU \u00d7 %lld h at %s, %s to fill",
				 "order %lld: buy %s GPUs \u00d7 %lld h at %s, %s to fill", n),
			      (long long)r->id, gpus, (long long)r->hours, price, left);
	else
		/* TRANSLATORS: the detail's "yours here": an open sell order; order id, GPUs, hours, price per GPU-hour, GPUs still unsold */
		x = xasprintf(P_("order %lld: sell %s GPU \u00d7 %lld h at %s, %s unsold",
				 "order %lld: sell %s GPUs \u00d7 %lld h at %s, %s unsold", n),
			      (long long)r->id, gpus, (long long)r->hours, price, left);
	if (r->status != API_ORDER_OPEN && r->status != API_ORDER_PARTIALLY_FILLED) {
		char *y = xasprintf("%s (%s)", x, view_order_status_text(t->o->lang, r->status));
		free(x);
		x = y;
	}
	free(gpus);
	free(price);
	free(left);
	return x;
}

static char *rental_line(const struct tui *t, const struct api_rental *r)
{
	char *gpus = tui_int(t, r->gpus), *price = tui_usd(t, r->price_cents);
	char *ends = r->ends_at >= 0 ? tui_date(t, r->ends_at) : xstrdup("\u2014"), *x;

	unsigned long n = (unsigned long)r->gpus;

	if (r->seller)
		/* TRANSLATORS: the detail's "yours here": a rental of the seller's GPUs; id, GPUs, hours billed, hours, price per GPU-hour, its end */
		x = xasprintf(P_("rental %lld (you sell): %s GPU, %lld of %lld h, %s/h, ends %s",
				 "rental %lld (you sell): %s GPUs, %lld of %lld h, %s/h, ends %s", n),
			      (long long)r->id, gpus, (long long)r->hours_billed,
			      (long long)r->hours, price, ends);
	else
		/* TRANSLATORS: the detail's "yours here": a rental the user bought; id, GPUs, hours billed, hours, price per GPU-hour, its end */
		x = xasprintf(P_("rental %lld: %s GPU, %lld of %lld h used, %s/h, ends %s",
				 "rental %lld: %s GPUs, %lld of %lld h used, %s/h, ends %s", n),
			      (long long)r->id, gpus, (long long)r->hours_billed,
			      (long long)r->hours, price, ends);
	free(gpus);
	free(price);
	free(ends);
	return x;
}

void detail_own_lines(const struct detail_own *o, struct wpanel *p, int rows)
{
	const struct tui *t = o->t;
	size_t n_o = o->orders != NULL ? o->orders->n : 0;
	size_t n_r = o->rentals != NULL ? o->rentals->n : 0, shown = 0, all = n_o + n_r;

	if (!detail_own_shown(o))
		return;
	/* TRANSLATORS: the detail's section of the user's own open orders and active rentals on its GPU */
	struct wcells *c = wpanel_add(p);
	wcells_pad(c, 1, WR_NORMAL);
	wcells_add(c, _("Yours on this GPU"), WR_HEADER, WAT_BOLD);
	if (o->orders == NULL && o->rentals == NULL) {
		wpanel_text(p, o->error != NULL ? o->error : _("Asking for your orders and rentals\u2026"),
			    WR_DIM, 1);
		return;
	}
	if (o->error != NULL)
		wpanel_text(p, o->error, WR_BAD, 1);
	if (all == 0)
		wpanel_text(p, _("No open order or rental of yours here."), WR_DIM, 1);
	if (rows < 1)
		rows = 1;
	for (size_t i = 0; i < n_r && (int)shown < rows - (all > (size_t)rows); i++, shown++) {
		char *x = rental_line(t, &o->rentals->v[i]);
		wpanel_text(p, x, WR_NORMAL, 1);
		free(x);
	}
	for (size_t i = 0; i < n_o && (int)shown < rows - (all > (size_t)rows); i++, shown++) {
		char *x = order_line(t, &o->orders->v[i]);
		wpanel_text(p, x, o->orders->v[i].side == API_BUY ? WR_GOOD : WR_BAD, 1);
		free(x);
	}
	if (shown < all) {
		/* TRANSLATORS: the detail's "yours here" has no room for the rest */
		char *x = xasprintf(P_("and %zu more: the orders and rentals pages list it",
				       "and %zu more: the orders and rentals pages list them",
				       (unsigned long)(all - shown)), all - shown);
		wpanel_text(p, x, WR_DIM, 1);
		free(x);
	}
}
