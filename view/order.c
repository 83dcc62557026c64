/*
 * Orders in plain words, shared by `gpux order` and the TUI's order form:
 * what an order is about to do (the confirmation), what it did (the result,
 * which must match the exchange's record), and what a refusal or a failure
 * of the exchange means to a buyer, with what to do next.
 *
 * Pure: no curses, no network, no global state. The language is an
 * argument (messages are marked N_() for xgettext and looked up with
 * i18n_dgettext), money and prices go through the i18n formatter. The api/
 * structs are only read: nothing here calls into api/ (libview.a links
 * after libapi.a). Texts are malloc'ed UTF-8, several lines joined by "\n",
 * never ending in one.
 */
#include "view/view.h"

#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "util/util.h"

#define TR(msgid) i18n_dgettext(lang, NULL, (msgid))
/* Marks a plural pair for xgettext (keyword NP_:1,2), as i18n/parse.c does. */
#define NP_(one, many) one, many

static char *usd(enum i18n_lang lang, int64_t cents)
{
	if (cents < 0)
		return xstrdup("—");
	return i18n_fmt_money(lang, cents, "USD");
}

static void newline(struct buf *b)
{
	if (b->len > 0)
		buf_putc(b, '\n');
}

const char *view_order_status_text(enum i18n_lang lang, enum api_order_status st)
{
	switch (st) {
	case API_ORDER_OPEN: return TR(N_("resting"));
	case API_ORDER_PARTIALLY_FILLED: return TR(N_("partly filled, resting"));
	case API_ORDER_FILLED: return TR(N_("filled"));
	case API_ORDER_CANCELLED: return TR(N_("cancelled"));
	case API_ORDER_EXPIRED: return TR(N_("expired"));
	case API_ORDER_REJECTED: return TR(N_("rejected"));
	}
	return "?";
}

const char *view_role_text(enum i18n_lang lang, enum api_role role)
{
	switch (role) {
	case API_ROLE_BUYER: return TR(N_("buyer"));
	case API_ROLE_SELLER: return TR(N_("seller"));
	case API_ROLE_BOTH: return TR(N_("buyer and seller"));
	}
	return "?";
}

const char *view_tif_text(enum i18n_lang lang, enum api_tif tif, bool market)
{
	switch (tif) {
	case API_GTC:
		return TR(N_("GTC, good till cancelled: what does not fill now waits on the book "
			     "until it fills or you cancel it"));
	case API_IOC:
		return TR(N_("IOC, immediate or cancel: what cannot fill now is cancelled"));
	case API_FOK:
		return TR(N_("FOK, fill or kill: all of it fills now, or nothing happens"));
	case API_TIF_DEFAULT:
		break;
	}
	return market ? view_tif_text(lang, API_IOC, true) : view_tif_text(lang, API_GTC, false);
}

int64_t view_order_avg_price(const struct api_order *o)
{
	if (o->filled_gpus <= 0)
		return -1;
	return (o->filled_value_cents + o->filled_gpus / 2) / o->filled_gpus;
}

int64_t view_order_list_price(const struct api_order *o)
{
	return o->type == API_MARKET ? view_order_avg_price(o) : o->price_cents;
}

size_t view_fill_levels(const struct api_preview_fill *v, size_t n, struct api_preview_fill *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < k && out[j].price_cents != v[i].price_cents)
			j++;
		if (j == k)
			out[k++] = (struct api_preview_fill){ .price_cents = v[i].price_cents };
		out[j].gpus += v[i].gpus;
	}
	return k;
}

/* "8 GPUs at US$4.19, 2 GPUs at US$4.25": one entry per price level */
static void fills_text(struct buf *b, enum i18n_lang lang, const struct api_preview *p)
{
	struct api_preview_fill *lv = xreallocarray(NULL, p->n_fills + 1, sizeof *lv);
	size_t n = view_fill_levels(p->fills, p->n_fills, lv);

	for (size_t i = 0; i < n; i++) {
		char *pr = usd(lang, lv[i].price_cents);
		if (i > 0)
			buf_puts(b, ", ");
		buf_printf(b, i18n_dngettext(lang, NULL, NP_("%lld GPU at %s", "%lld GPUs at %s"),
					     (unsigned long)lv[i].gpus),
			   (long long)lv[i].gpus, pr);
		free(pr);
	}
	free(lv);
}

char *view_order_summary(enum i18n_lang lang, const char *gpu_name, const struct api_order_req *r,
			 const struct api_preview *p)
{
	struct buf b = {0};
	char *count = xasprintf(TR(N_("%d × %s")), r->gpus, gpu_name);
	char *hours = xasprintf(i18n_dngettext(lang, NULL, NP_("%d hour", "%d hours"),
					       (unsigned long)r->hours), r->hours);
	char *price = usd(lang, r->price_cents);
	bool buy = r->side == API_BUY, market = r->type == API_MARKET;

	if (buy && market)
		buf_printf(&b, TR(N_("Buy %s for %s at the best prices on offer, paying at most %s per "
				     "GPU-hour (market order).")), count, hours, price);
	else if (buy)
		buf_printf(&b, TR(N_("Buy %s for %s at %s per GPU-hour or less (limit order).")),
			   count, hours, price);
	else if (market)
		buf_printf(&b, TR(N_("Sell %s for up to %s to the best bids, for at least %s per "
				     "GPU-hour (market order).")), count, hours, price);
	else
		buf_printf(&b, TR(N_("Sell %s for up to %s at %s per GPU-hour or more (limit order).")),
			   count, hours, price);
	{
		char *lot = view_fmt_needs(lang, r, p);
		if (lot[0] != '\0') {
			newline(&b);
			buf_puts(&b, lot);
		}
		free(lot);
	}
	newline(&b);
	buf_puts(&b, view_tif_text(lang, p != NULL ? p->tif : r->tif, market));
	buf_puts(&b, ".");
	free(count);
	free(hours);
	free(price);
	if (p == NULL)
		return buf_take(&b);

	newline(&b);
	if (p->fill_gpus > 0) {
		struct buf f = {0};
		fills_text(&f, lang, p);
		buf_printf(&b, TR(N_("Fills now: %s.")), f.data != NULL ? f.data : "");
		buf_free(&f);
	} else {
		buf_puts(&b, TR(N_("Nothing fills now.")));
	}
	if (p->rest_gpus > 0) {
		buf_putc(&b, ' ');
		buf_printf(&b, i18n_dngettext(lang, NULL,
					      NP_("%lld GPU waits on the book.",
						  "%lld GPUs wait on the book."),
					      (unsigned long)p->rest_gpus),
			   (long long)p->rest_gpus);
	}
	if (p->expire_gpus > 0) {
		buf_putc(&b, ' ');
		buf_printf(&b, i18n_dngettext(lang, NULL,
					      NP_("%lld GPU cannot be filled now and is cancelled.",
						  "%lld GPUs cannot be filled now and are cancelled."),
					      (unsigned long)p->expire_gpus),
			   (long long)p->expire_gpus);
	}
	if (buy && p->fill_gpus > 0) {
		/* the machines those GPUs are on, a line per lot */
		char *lots = view_fmt_fill_lots(lang, p);
		if (lots[0] != '\0') {
			newline(&b);
			buf_puts(&b, TR(N_("From these machines:")));
			newline(&b);
			buf_puts(&b, lots);
		}
		free(lots);
	}
	if (buy) {
		if (p->fill_gpus > 0) {
			char *net = i18n_fmt_money(lang, p->net_minor, p->currency);
			char *vat = i18n_fmt_money(lang, p->vat_minor, p->currency);
			char *tot = i18n_fmt_money(lang, p->total_minor, p->currency);
			char *bp = i18n_fmt_percent(lang, (double)p->vat_rate_bp / 100.0,
						    p->vat_rate_bp % 100 != 0 ? 2 : 0);
			newline(&b);
			buf_printf(&b, TR(N_("Total with VAT: %s (%s before tax + %s VAT at %s).")),
				   tot, net, vat, bp);
			free(net);
			free(vat);
			free(tot);
			free(bp);
		}
		if (p->rest_gpus > 0) {
			char *h = i18n_fmt_money(lang, p->rest_gpus * p->hours * p->unit_minor,
						 p->currency);
			newline(&b);
			buf_printf(&b, TR(N_("Held for the GPUs that wait: %s with VAT, released if "
					     "you cancel.")), h);
			free(h);
		}
	} else if (p->fill_gpus > 0) {
		char *tot = i18n_fmt_money(lang, p->total_minor, p->currency);
		newline(&b);
		buf_printf(&b, TR(N_("You are paid %s for what fills now, hour by hour.")), tot);
		free(tot);
	}
	if (p->currency != NULL && strcmp(p->currency, "USD") != 0) {
		char *fx = i18n_fmt_number(lang, (double)p->fx_rate_micro / 1e6, 4);
		newline(&b);
		buf_printf(&b, TR(N_("At the exchange's rate: 1 USD = %s %s.")), fx, p->currency);
		free(fx);
	}
	{
		char *av = i18n_fmt_money(lang, p->balance_available_minor, p->currency);
		char *af = i18n_fmt_money(lang, p->balance_after_minor, p->currency);
		newline(&b);
		buf_printf(&b, TR(N_("Available balance: %s now, %s after.")), av, af);
		free(av);
		free(af);
	}
	return buf_take(&b);
}

/* What the order did, in one sentence with its plural forms. */
static void result_head(struct buf *b, enum i18n_lang lang, const char *gpu_name,
			const struct api_order *o)
{
	char *t = usd(lang, view_order_avg_price(o)), *u = usd(lang, o->price_cents);
	const char *tif = o->tif == API_GTC ? "gtc" : o->tif == API_FOK ? "fok" : "ioc";

	switch (o->status) {
	case API_ORDER_FILLED:
		buf_printf(b, i18n_dngettext(lang, NULL,
			NP_("Filled: order %lld, %lld × %s GPU for %lld h at %s per GPU-hour (average).",
			    "Filled: order %lld, %lld × %s GPUs for %lld h at %s per GPU-hour (average)."),
			(unsigned long)o->filled_gpus),
			(long long)o->id, (long long)o->filled_gpus, gpu_name, (long long)o->hours, t);
		break;
	case API_ORDER_PARTIALLY_FILLED:
		buf_printf(b, i18n_dngettext(lang, NULL,
			NP_("Partly filled: order %lld, %lld of %lld GPU at %s (average);",
			    "Partly filled: order %lld, %lld of %lld GPUs at %s (average);"),
			(unsigned long)o->gpus),
			(long long)o->id, (long long)o->filled_gpus, (long long)o->gpus, t);
		buf_putc(b, ' ');
		buf_printf(b, i18n_dngettext(lang, NULL,
			NP_("%lld GPU rests on the book at %s.", "%lld GPUs rest on the book at %s."),
			(unsigned long)o->remaining_gpus), (long long)o->remaining_gpus, u);
		break;
	case API_ORDER_OPEN:
		buf_printf(b, i18n_dngettext(lang, NULL,
			NP_("Resting: order %lld, %lld × %s GPU at %s per GPU-hour is on the book; "
			    "nothing filled yet.",
			    "Resting: order %lld, %lld × %s GPUs at %s per GPU-hour are on the book; "
			    "nothing filled yet."),
			(unsigned long)o->remaining_gpus),
			(long long)o->id, (long long)o->remaining_gpus, gpu_name, u);
		break;
	case API_ORDER_EXPIRED:
		if (o->filled_gpus > 0)
			buf_printf(b, i18n_dngettext(lang, NULL,
				NP_("Partly filled: order %lld, %lld of %lld GPU at %s (average); the "
				    "other %lld expired (%s).",
				    "Partly filled: order %lld, %lld of %lld GPUs at %s (average); the "
				    "other %lld expired (%s)."),
				(unsigned long)o->gpus),
				(long long)o->id, (long long)o->filled_gpus, (long long)o->gpus, t,
				(long long)(o->gpus - o->filled_gpus), tif);
		else
			buf_printf(b, TR(N_("Not filled: order %lld expired (%s): not enough GPUs "
					    "offered at %s or better for %lld h.")),
				   (long long)o->id, tif, u, (long long)o->hours);
		break;
	case API_ORDER_CANCELLED:
	case API_ORDER_REJECTED:
		buf_printf(b, TR(N_("Order %lld: %s.")), (long long)o->id,
			   view_order_status_text(lang, o->status));
		break;
	}
	free(t);
	free(u);
}

/* The fills, one line per price level and length (GPUs summed, the level's
 * rentals named). */
static void result_fills(struct buf *b, enum i18n_lang lang, const struct api_order *o)
{
	bool *done = xcalloc(o->n_fills + 1, sizeof *done);

	for (size_t i = 0; i < o->n_fills; i++) {
		const struct api_fill *f = &o->fills[i];
		struct buf ids = {0};
		int64_t gpus = 0;
		size_t n = 0;
		char *p;

		if (done[i])
			continue;
		for (size_t j = i; j < o->n_fills; j++) {
			const struct api_fill *g = &o->fills[j];
			if (done[j] || g->price_cents != f->price_cents || g->hours != f->hours)
				continue;
			done[j] = true;
			gpus += g->gpus;
			buf_printf(&ids, "%s%lld", n++ > 0 ? ", " : "", (long long)g->rental_id);
		}
		p = usd(lang, f->price_cents);
		newline(b);
		if (n == 1)
			buf_printf(b, i18n_dngettext(lang, NULL,
						     NP_("  fill: %lld GPU × %lld h at %s — rental %lld",
							 "  fill: %lld GPUs × %lld h at %s — rental %lld"),
						     (unsigned long)gpus),
				   (long long)gpus, (long long)f->hours, p, (long long)f->rental_id);
		else
			buf_printf(b, i18n_dngettext(lang, NULL,
						     NP_("  fill: %lld GPU × %lld h at %s — rentals %s",
							 "  fill: %lld GPUs × %lld h at %s — rentals %s"),
						     (unsigned long)gpus),
				   (long long)gpus, (long long)f->hours, p, ids.data);
		free(p);
		buf_free(&ids);
	}
	free(done);
}

char *view_order_result(enum i18n_lang lang, const char *gpu_name, const struct api_order *o)
{
	struct buf b = {0};

	result_head(&b, lang, gpu_name, o);
	{
		char *lot = view_fmt_order_lot(lang, o);
		if (lot[0] != '\0') {
			newline(&b);
			buf_printf(&b, "  %s", lot);
		}
		free(lot);
	}
	result_fills(&b, lang, o);
	if (o->replayed || o->reconciled) {
		newline(&b);
		buf_printf(&b, TR(N_("  (the exchange already had this order, client id %s: it was "
				     "placed once)")),
			   o->client_order_id != NULL ? o->client_order_id : "?");
	}
	return buf_take(&b);
}

/* A refusal by its stable code; NULL for codes without words of their own. */
static char *refusal(enum i18n_lang lang, const char *code, const char *message, int retry_after_s,
		     const struct view_order_ctx *x)
{
	if (strcmp(code, "MARKET_NOT_OPEN") == 0) {
		if (x != NULL && x->opens_at >= 0) {
			char *d = i18n_fmt_date(lang, x->opens_at, I18N_UTC);
			char *s = xasprintf(TR(N_("The market is not open yet: it opens on %s. No order "
						  "can be placed before then; previews, top-ups and "
						  "cancels work now.")), d);
			free(d);
			return s;
		}
		return xstrdup(TR(N_("The market is not open yet, and no opening time has been "
				     "announced. No order can be placed until it opens; previews, "
				     "top-ups and cancels work now.")));
	}
	if (strcmp(code, "MARKET_HALTED") == 0)
		return xstrdup(TR(N_("Trading is halted on the exchange. No order can be placed until "
				     "it resumes; cancels and top-ups still work. Try again later.")));
	if (strcmp(code, "INSUFFICIENT_FUNDS") == 0) {
		if (x != NULL && x->required_minor >= 0 && x->available_minor >= 0 &&
		    x->currency != NULL) {
			char *need = i18n_fmt_money(lang, x->required_minor, x->currency);
			char *have = i18n_fmt_money(lang, x->available_minor, x->currency);
			char *s = xasprintf(TR(N_("Not enough money: this order needs %s held and %s is "
						  "available. Top up your balance, or buy fewer GPUs "
						  "or hours, or lower the price.")), need, have);
			free(need);
			free(have);
			return s;
		}
		return xstrdup(TR(N_("Not enough money in your account for this order. Top up your "
				     "balance, or buy fewer GPUs or hours, or lower the price.")));
	}
	if (strcmp(code, "FORBIDDEN") == 0)
		return xasprintf(TR(N_("The exchange does not let your account do this (%s). Buying "
				       "needs a buyer account, selling a seller account.")), message);
	if (strcmp(code, "UNKNOWN_GPU") == 0)
		return xstrdup(TR(N_("The exchange does not trade this GPU. Choose another one from "
				     "the tables.")));
	if (strcmp(code, "RATE_LIMITED") == 0) {
		if (retry_after_s > 0)
			return xasprintf(TR(N_("Too many requests to the exchange just now: wait %d s "
					       "and try again.")), retry_after_s);
		return xstrdup(TR(N_("Too many requests to the exchange just now: wait a moment "
				     "and try again.")));
	}
	if (strcmp(code, "UNAUTHORIZED") == 0)
		return xstrdup(TR(N_("The exchange did not accept your API key. Give your key with "
				     "--key, GPUX_API_KEY or \"key = …\" in the config file, and "
				     "start gpux again.")));
	if (strcmp(code, "IDEMPOTENCY_CONFLICT") == 0)
		return xstrdup(TR(N_("The exchange already has a different order with this client "
				     "order id: nothing new was placed. Check your orders.")));
	if (strcmp(code, "ORDER_NOT_OPEN") == 0)
		return xasprintf(TR(N_("This order is not resting any more (%s): there is nothing "
				       "to cancel.")), message);
	if (strcmp(code, "RENTAL_NOT_ACTIVE") == 0)
		return xasprintf(TR(N_("This rental has already ended (%s): there is nothing to "
				       "stop.")), message);
	if (strcmp(code, "NOT_FOUND") == 0)
		return xstrdup(TR(N_("The exchange has no such order or rental in your account.")));
	if (strcmp(code, "UNAVAILABLE") == 0 || strcmp(code, "INTERNAL") == 0)
		return xasprintf(TR(N_("The exchange could not do it just now (%s). Try again in a "
				       "moment.")), message);
	if (strcmp(code, "JOB_NOT_RUNNABLE") == 0)
		return xstrdup(TR(N_("No GPU's book can run this job now: none offers the machines it "
				     "needs (see why for each GPU). Nothing was placed; try fewer "
				     "GPUs, other regions, or later.")));
	if (strcmp(code, "OVER_BUDGET") == 0)
		return xstrdup(TR(N_("The cheapest way to run this job costs more than your budget: "
				     "nothing was placed. Raise --max-total, or run it for fewer "
				     "hours.")));
	if (strcmp(code, "UNKNOWN_REGION") == 0)
		return xasprintf(TR(N_("The exchange has no such region (%s). Choose one of its "
				       "regions.")), message);
	return NULL;
}

char *view_refusal_text(enum i18n_lang lang, const char *code, const char *message,
			const struct view_order_ctx *x)
{
	char *s = refusal(lang, code != NULL ? code : "", message != NULL ? message : "", 0, x);

	if (s == NULL)
		s = xasprintf(TR(N_("The exchange refused: %s. Correct it and try again.")),
			      message != NULL && message[0] != '\0' ? message : code);
	return s;
}

/* Why the exchange could not be reached, as a msgid, or NULL when not known. */
static const char *net_cause(enum api_net n)
{
	switch (n) {
	case API_NET_REFUSED: return N_("connection refused");
	case API_NET_NO_SOCKET: return N_("not running");
	case API_NET_UNKNOWN_HOST: return N_("unknown host");
	case API_NET_NO_ROUTE: return N_("no route to it");
	case API_NET_LOST: return N_("connection lost");
	case API_NET_OTHER: break;
	}
	return NULL;
}

char *view_api_error_words(enum i18n_lang lang, const struct api_error *e,
			   const struct view_order_ctx *x)
{
	const char *msg = e->message != NULL ? e->message : "";
	struct view_order_ctx m = { NULL, -1, -1, -1 };
	char *s;

	/* what the exchange's error object says wins over what gpux knew */
	if (x != NULL)
		m = *x;
	if (e->required_minor >= 0 && e->available_minor >= 0 && e->currency != NULL) {
		m.required_minor = e->required_minor;
		m.available_minor = e->available_minor;
		m.currency = e->currency;
	}
	if (e->opens_at >= 0)
		m.opens_at = e->opens_at;
	switch (e->kind) {
	case API_ERR_HTTP:
		if (e->code != NULL &&
		    (s = refusal(lang, e->code, msg, e->retry_after_s, &m)) != NULL)
			return s;
		if (e->http_status >= 500)
			return xasprintf(TR(N_("The exchange could not do it just now (%s). Try again "
					       "in a moment.")), msg);
		if (e->http_status == 401)
			return refusal(lang, "UNAUTHORIZED", msg, 0, x);
		return xasprintf(TR(N_("The exchange refused: %s. Correct it and try again.")), msg);
	case API_ERR_UNKNOWN_OUTCOME:
		return xasprintf(TR(N_("The exchange did not answer, so it is not known whether the "
				       "order was placed (client order id %s). Check your orders "
				       "before placing it again: that would be a new order.")),
				 e->client_order_id != NULL ? e->client_order_id : "?");
	case API_ERR_TIMEOUT:
		return xasprintf(TR(N_("The exchange did not answer in time (%s). Try again in a "
				       "moment.")), msg);
	case API_ERR_PROTOCOL:
		return xasprintf(TR(N_("The exchange sent an answer gpux cannot use (%s).")), msg);
	case API_ERR_NETWORK:
		/* the cause in the user's words, not the client library's English */
		if (net_cause(e->net) != NULL)
			msg = TR(net_cause(e->net));
		break;
	case API_ERR_TLS:
	case API_ERR_CONFIG:
		break;
	}
	return xasprintf(TR(N_("Cannot reach the exchange (%s). Check the connection or the "
			       "exchange's address, and try again.")), msg);
}
