/*
 * The order form (b / s / F5 on a table row, or tui_order_open from the fit
 * panel): side, type (market or limit), GPUs, hours, the limit price or the
 * market order's cap (max to pay, min to take), time in force. Beside it
 * (below it on a narrow terminal), live: the exchange's preview of exactly
 * what is typed (POST /v1/orders/preview, 300 ms after the last change and
 * every few seconds, as the market moves) and the GPU's book.
 *
 * It must be impossible to buy what you did not mean to, or twice:
 *  - a number is only sent once it parses (prices as people write them in
 *    their language, i18n_parse_decimal), every change makes a new
 *    generation of the inputs, and a preview is shown as current only for
 *    the generation it was asked for;
 *  - Enter asks for the exchange's preview of the current inputs if the one
 *    on screen is not current and fresh, and opens the confirmation only
 *    from it: side, GPU, count, hours, type, price or cap and the total with
 *    VAT in plain words (view_order_summary, shared with `gpux order`); an
 *    order the preview says would be refused is explained, not offered;
 *  - y / Enter in the confirmation makes ONE client order id for that intent
 *    and places it (api/ re-sends the same id after a timeout, a reset or a
 *    5xx and reconciles); while it is on its way, Enter does nothing but
 *    say so, and nothing can be edited;
 *  - the result says what the exchange recorded (view_order_result), or why
 *    it refused, in words, keeping everything that was typed.
 */
#include "tui/order_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

enum tf_row { TF_SIDE, TF_TYPE, TF_GPUS, TF_HOURS, TF_PRICE, TF_TIF, TF_ROWS };

enum {
	TF_MAX_GPUS = 512,          /* docs/API.md, limits */
	TF_MAX_HOURS = 720,
	TF_MAX_PRICE = 1000000,
	TF_FIELD_ROW0 = 5,          /* panel row of the GPUs field */
	TF_BOOK_DEPTH = 10,
};

static bool is_text_row(int r)
{
	return r >= TF_GPUS && r <= TF_PRICE;
}

struct tp_form {
	char *gpu;                  /* catalogue id */
	enum api_side side;
	enum api_order_type type;
	enum api_tif tif;           /* never API_TIF_DEFAULT */
	struct wfield *field[3];    /* TF_GPUS .. TF_PRICE */
	int focus;                  /* enum tf_row */
	bool price_touched;         /* the user typed the price: no more suggestions */
	struct wpanel *left, *right;
	int label_w;

	/* the inputs */
	uint64_t gen;               /* bumped by every change */
	bool valid;
	int bad_row;
	char *bad;                  /* why not valid (translated) */
	struct api_order_req req;   /* when valid; req.gpu = gpu */

	/* the exchange's preview */
	uint64_t pv_req, pv_req_gen;
	int64_t pv_due;
	struct api_preview *pv;
	uint64_t pv_gen;
	int64_t pv_ms;
	char *pv_error;
	bool confirm_wait;          /* Enter: confirm once the current preview is in */
	uint64_t confirm_gen;

	/* the book */
	struct api_book *book;
	uint64_t book_req;
	int64_t book_next;
	char *book_error;

	/* the order being placed */
	uint64_t place_req;
	int64_t place_sent_ms;      /* when it was sent (its note counts the seconds) */
	long place_secs_shown;
	char *coid;
	struct api_order_req placing;
	char *placing_gpu;
	struct view_order_ctx placing_ctx;
	/* the last order placed from this form, to ask before the same again */
	struct api_order_req last;
	char *last_gpu;
	int64_t last_id;

	char *note;                 /* the last action's outcome, under the fields */
	enum wrole note_role;
};

static struct tp_form *form(struct tui *t)
{
	return t->trade != NULL ? t->trade->form : NULL;
}

static void set_note(struct tp_form *f, const char *text, enum wrole role)
{
	free(f->note);
	f->note = text != NULL ? xstrdup(text) : NULL;
	f->note_role = role;
}

/* ---- the inputs -------------------------------------------------------------------------------- */

/* A whole number in min..max, digits only (spaces around are fine). */
static bool parse_count(const char *s, long min, long max, int *out)
{
	long v = 0;
	bool any = false;

	while (*s == ' ')
		s++;
	for (; isdigit((unsigned char)*s); s++) {
		v = v * 10 + (*s - '0');
		any = true;
		if (v > max)
			return false;
	}
	while (*s == ' ')
		s++;
	if (!any || *s != '\0' || v < min)
		return false;
	*out = (int)v;
	return true;
}

static char *plain_price(const struct tui *t, int64_t cents)
{
	return xasprintf("%lld%c%02lld", (long long)(cents / 100), i18n_decimal_sep(t->o->lang),
			 (long long)(cents % 100));
}

static const char *price_label(const struct tp_form *f)
{
	if (f->type == API_LIMIT)
		return _("Limit price/h");
	return f->side == API_BUY ? _("Max price/h") : _("Min price/h");
}

static void mark_bad(struct tp_form *f, int row, char *why, const char *short_why)
{
	if (f->bad == NULL) {
		f->bad = why;
		f->bad_row = row;
	} else {
		free(why);
	}
	wfield_set_error(f->field[row - TF_GPUS], short_why);
}

static void validate(struct tui *t)
{
	struct tp_form *f = form(t);
	const char *s;
	char *cause = NULL;
	int64_t cents = 0;

	free(f->bad);
	f->bad = NULL;
	f->bad_row = -1;
	for (int i = 0; i < 3; i++)
		if (f->field[i]->error != NULL)
			wfield_set_error(f->field[i], NULL);
	memset(&f->req, 0, sizeof f->req);
	f->req.gpu = f->gpu;
	f->req.side = f->side;
	f->req.type = f->type;
	f->req.tif = f->tif;
	if (!parse_count(wfield_text(f->field[0]), 1, TF_MAX_GPUS, &f->req.gpus))
		mark_bad(f, TF_GPUS, xasprintf(_("GPUs: a whole number from 1 to %d"), TF_MAX_GPUS),
			 _("1 to 512"));
	if (!parse_count(wfield_text(f->field[1]), 1, TF_MAX_HOURS, &f->req.hours))
		mark_bad(f, TF_HOURS, xasprintf(_("Hours: a whole number from 1 to %d"), TF_MAX_HOURS),
			 _("1 to 720"));
	s = wfield_text(f->field[2]);
	if (strspn(s, " ") == strlen(s)) {
		const char *eg = i18n_decimal_sep(t->o->lang) == ',' ? "4,19" : "4.19";
		char *why;
		if (f->type == API_LIMIT)
			why = xasprintf(_("Type your price in US$ per GPU-hour, e.g. %s"), eg);
		else if (f->side == API_BUY)
			why = xasprintf(_("Type the most you would pay in US$ per GPU-hour, e.g. %s"), eg);
		else
			why = xasprintf(_("Type the least you would take in US$ per GPU-hour, e.g. %s"), eg);
		mark_bad(f, TF_PRICE, why, _("needed"));
	} else if (i18n_parse_decimal(t->o->lang, s, 2, &cents, &cause) != 0) {
		mark_bad(f, TF_PRICE, xasprintf(_("Price: %s"), cause != NULL ? cause : "?"),
			 _("not a price"));
		free(cause);
	} else if (cents < 1 || cents > TF_MAX_PRICE) {
		char *lo = tp_usd(t, 1), *hi = tp_usd(t, TF_MAX_PRICE);
		mark_bad(f, TF_PRICE, xasprintf(_("Price: from %s to %s per GPU-hour"), lo, hi),
			 _("out of range"));
		free(lo);
		free(hi);
	} else {
		f->req.price_cents = cents;
	}
	f->valid = f->bad == NULL;
}

/* Something typed or chosen changed: a new generation of the inputs. */
static void changed(struct tui *t)
{
	struct tp_form *f = form(t);

	validate(t);
	f->gen++;
	f->pv_due = util_now_ms() + TP_DEBOUNCE_MS;
	f->confirm_wait = false;
	if (f->place_req == 0)
		set_note(f, NULL, WR_NORMAL);
}

/* Unless the user typed a price: the cap or limit a buyer would expect from
 * the market (a market buy: the best ask + 10 %, rounded up to 10 cents). */
static void suggest_price(struct tui *t)
{
	struct tp_form *f = form(t);
	int64_t ask = f->book != NULL && f->book->n_asks > 0 ? f->book->asks[0].price_cents
							      : tp_best_ask(t, f->gpu);
	int64_t bid = f->book != NULL && f->book->n_bids > 0 ? f->book->bids[0].price_cents : -1;
	int64_t p = -1;
	char *s;

	if (f->price_touched)
		return;
	if (f->side == API_BUY)
		p = f->type == API_MARKET ? (ask >= 0 ? (ask * 11 / 10 + 9) / 10 * 10 : -1) : ask;
	else if (f->type == API_MARKET)
		p = bid >= 0 ? bid * 9 / 10 / 10 * 10 : -1;
	else
		p = ask >= 0 ? ask : bid;
	if (p == 0)
		p = 1;
	if (p > TF_MAX_PRICE)
		p = TF_MAX_PRICE;
	s = p > 0 ? plain_price(t, p) : xstrdup("");
	if (strcmp(s, wfield_text(f->field[2])) != 0)
		wfield_set_text(f->field[2], s);
	free(s);
}

static bool side_allowed(struct tui *t, enum api_side side)
{
	const struct api_account *a = t->trade->acct;

	if (a == NULL || a->role == API_ROLE_BOTH)
		return true;
	return side == API_BUY ? a->role == API_ROLE_BUYER : a->role == API_ROLE_SELLER;
}

static const char *role_note(struct tui *t)
{
	return t->trade->acct != NULL && t->trade->acct->role == API_ROLE_SELLER
		? _("Your account is a seller account: selling GPU hours is what it can do.")
		: _("Your account is a buyer account: selling GPU hours needs a seller account.");
}

void tp_form_account_changed(struct tui *t)
{
	struct tp_form *f = form(t);

	if (f == NULL || f->gpu == NULL || side_allowed(t, f->side))
		return;
	f->side = f->side == API_BUY ? API_SELL : API_BUY;
	suggest_price(t);
	changed(t);
	set_note(f, role_note(t), WR_BAD);
}

/* ---- set-up --------------------------------------------------------------------------------------- */

static void compute_label_w(struct tui *t)
{
	struct tp_form *f = form(t);
	const char *labels[] = { _("Side"), _("Type"), _("GPUs"), _("Hours"), _("Limit price/h"),
				 _("Max price/h"), _("Min price/h"), _("In force") };
	int w = 0;

	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
		int lw = wtext_width(labels[i], t->ascii);
		if (lw > w)
			w = lw;
	}
	f->label_w = w + 2;
}

static void set_focus(struct tui *t, int row)
{
	struct tp_form *f = form(t);

	if (is_text_row(f->focus))
		wfield_focus(f->field[f->focus - TF_GPUS], false);
	f->focus = row;
	if (is_text_row(row) && t->trade->page == TP_FORM)
		wfield_focus(f->field[row - TF_GPUS], true);
}

void tp_form_setup(struct tui *t, const char *gpu, bool sell, int gpus, int hours)
{
	struct tui_trade *tr = tp_get(t);
	struct tp_form *f = tr->form;
	char *g, *h;

	if (f == NULL) {
		f = tr->form = xcalloc(1, sizeof *f);
		f->left = wpanel_new(&t->ui);
		f->right = wpanel_new(&t->ui);
		f->field[0] = wfield_new_readline(&t->ui, "", "1", "order.gpus");
		f->field[1] = wfield_new_readline(&t->ui, "", "1", "order.hours");
		f->field[2] = wfield_new_readline(&t->ui, "", "", "order.price");
		compute_label_w(t);
	} else if (f->gpu != NULL && strcmp(f->gpu, gpu) == 0 && gpus <= 0 && hours <= 0 &&
		   (f->side == API_SELL) == sell) {
		/* the same form again: keep what was typed, not the last outcome */
		if (f->place_req == 0)
			set_note(f, NULL, WR_NORMAL);
		set_focus(t, TF_GPUS);
		return;
	}
	if (f->gpu == NULL || strcmp(f->gpu, gpu) != 0) {
		free(f->gpu);
		f->gpu = xstrdup(gpu);
		api_book_free(&f->book);
		free(f->book_error);
		f->book_error = NULL;
		f->book_next = 0;
	}
	f->side = sell ? API_SELL : API_BUY;
	f->type = API_MARKET;
	f->tif = API_IOC;
	f->price_touched = false;
	g = xasprintf("%d", gpus > 0 ? gpus : 1);
	h = xasprintf("%d", hours > 0 ? hours : 1);
	wfield_set_text(f->field[0], g);
	wfield_set_text(f->field[1], h);
	free(g);
	free(h);
	suggest_price(t);
	set_focus(t, TF_GPUS);
	changed(t);
	f->pv_due = 0; /* the first preview at once */
	set_note(f, NULL, WR_NORMAL);
}

/* ---- requests and replies ----------------------------------------------------------------------------- */

static void on_book(void *ud, struct api_book *r, const struct api_error *e)
{
	struct tui *t = ud;
	struct tp_form *f = form(t);

	f->book_req = 0;
	if (e != NULL) {
		free(f->book_error);
		f->book_error = tp_error_words(t, e);
	} else if (f->gpu != NULL && strcmp(r->gpu, f->gpu) == 0) {
		bool first = f->book == NULL;
		if (!first && r->seq != f->book->seq)
			f->pv_ms = 0; /* the book moved: the preview again, so they agree */
		free(f->book_error);
		f->book_error = NULL;
		api_book_free(&f->book);
		f->book = r;
		if (first && wfield_text(f->field[2])[0] == '\0') {
			suggest_price(t);
			changed(t);
		}
	} else {
		api_book_free(&r);
	}
	tp_form_ops.rebuild(t);
}

static void decide(struct tui *t);

static void on_preview(void *ud, struct api_preview *r, const struct api_error *e)
{
	struct tui *t = ud;
	struct tp_form *f = form(t);
	int64_t now = util_now_ms();

	f->pv_req = 0;
	if (e != NULL) {
		free(f->pv_error);
		f->pv_error = tp_error_words(t, e);
		f->pv_due = now + TP_PREVIEW_MS;
		if (f->confirm_wait && f->pv_req_gen == f->gen) {
			f->confirm_wait = false;
			set_note(f, f->pv_error, WR_BAD);
		}
		tp_form_ops.rebuild(t);
		return;
	}
	free(f->pv_error);
	f->pv_error = NULL;
	api_preview_free(&f->pv);
	f->pv = r;
	f->pv_gen = f->pv_req_gen;
	f->pv_ms = now;
	if (f->confirm_wait && f->pv_gen == f->gen && t->trade->page == TP_FORM) {
		f->confirm_wait = false;
		decide(t);
	}
	tp_form_ops.rebuild(t);
}

static void start_preview(struct tui *t)
{
	struct tp_form *f = form(t);

	f->pv_req_gen = f->gen;
	f->pv_req = api_order_preview_start(t->api, &f->req, on_preview, t);
}

/* The words for a refusal the preview announces, with its numbers. */
static char *reject_words(struct tui *t, const struct api_preview *p)
{
	struct tui_trade *tr = t->trade;
	struct view_order_ctx x = {
		.currency = p->currency, .required_minor = p->hold_minor,
		.available_minor = p->balance_available_minor, .opens_at = -1,
	};

	if (tr->market != NULL)
		x.opens_at = tr->market->opens_at;
	else if (t->m.have_market)
		x.opens_at = t->m.opens_at;
	return view_refusal_text(t->o->lang, p->reject_code, p->reject_message, &x);
}

/* The inputs are those of the last order placed from this form. */
static bool same_as_last(const struct tp_form *f)
{
	const struct api_order_req *a = &f->req, *b = &f->last;

	return f->last_gpu != NULL && strcmp(f->last_gpu, f->gpu) == 0 && a->side == b->side &&
	       a->type == b->type && a->gpus == b->gpus && a->hours == b->hours &&
	       a->price_cents == b->price_cents && a->tif == b->tif;
}

/* The current preview is in: refuse in words, or ask for confirmation. */
static void decide(struct tui *t)
{
	struct tp_form *f = form(t);
	char *text;

	if (f->pv->reject_code != NULL) {
		text = reject_words(t, f->pv);
		set_note(f, text, WR_BAD);
		tui_message(t, _("Not placed: see the form"));
		free(text);
		return;
	}
	text = view_order_summary(t->o->lang, tp_gpu_name(t, f->gpu), &f->req, f->pv);
	f->confirm_gen = f->gen;
	set_note(f, NULL, WR_NORMAL);
	if (same_as_last(f)) {
		/* Enter pressed on and on must not buy the same thing twice: the same
		 * order again is confirmed with y only */
		char *again = f->last_id >= 0
			? xasprintf(_("You placed this same order a moment ago (order %lld). "
				      "Place it again?\n%s"), (long long)f->last_id, text)
			: xasprintf(_("This same order may have been placed a moment ago (its "
				      "outcome is unknown: check your orders). Place it again?\n%s"),
				    text);
		tp_dialog(t, TD_CONFIRM, 0, _("Place the same order again?"), again,
			  _("y: place it again · any other key, Enter too: do not"), true);
		free(again);
	} else {
		tp_dialog(t, TD_CONFIRM, 0, _("Place this order?"), text,
			  _("y or Enter: place it · any other key: do not"), false);
	}
	free(text);
}

static void remember_last(struct tp_form *f, int64_t id)
{
	f->last = f->placing;
	f->last.client_order_id = NULL;
	free(f->last_gpu);
	f->last_gpu = xstrdup(f->placing_gpu);
	f->last.gpu = f->last_gpu;
	f->last_id = id;
}

static void on_place(void *ud, struct api_order *o, const struct api_error *e)
{
	struct tui *t = ud;
	struct tp_form *f = form(t);
	const char *title;
	char *text;
	bool good;

	f->place_req = 0;
	if (e != NULL && e->kind == API_ERR_UNKNOWN_OUTCOME)
		remember_last(f, -1); /* it may exist: ask before the same again */
	if (e != NULL) {
		f->placing_ctx.currency = tp_currency(t); /* the account's, now */
		text = view_api_error_words(t->o->lang, e, &f->placing_ctx);
		title = e->kind == API_ERR_UNKNOWN_OUTCOME ? _("Outcome unknown") : _("Not placed");
		good = false;
	} else {
		text = view_order_result(t->o->lang, tp_gpu_name(t, o->gpu), o);
		good = !(o->status == API_ORDER_EXPIRED && o->filled_gpus == 0);
		remember_last(f, o->id);
		title = good ? _("Order placed") : _("Order placed: nothing filled");
		api_order_free(&o);
	}
	set_note(f, text, good ? WR_GOOD : WR_BAD);
	if (tp_shown(t)) {
		tp_dialog(t, TD_RESULT, 0, title, text,
			  _("o: your orders · R: your rentals · any other key: close"), false);
	} else {
		char *m = xasprintf("%s: %s", title, text);
		char *nl = strchr(m, '\n');
		if (nl != NULL)
			*nl = '\0';
		tui_message(t, m);
		free(m);
	}
	free(text);
	/* money moved: the balance, the lists, the book and the preview again */
	tp_account_soon(t);
	tp_lists_soon(t);
	f->book_next = 0;
	f->pv_due = 0;
	f->pv_ms = 0;
	tp_form_ops.rebuild(t);
}

static void place(struct tui *t)
{
	struct tp_form *f = form(t);

	if (f->place_req != 0 || !f->valid || f->confirm_gen != f->gen || f->pv == NULL)
		return;
	/* one client order id for this intent: api/ re-sends this one, never a new one */
	free(f->coid);
	f->coid = api_client_order_id_new();
	f->placing = f->req;
	free(f->placing_gpu);
	f->placing_gpu = xstrdup(f->gpu);
	f->placing.gpu = f->placing_gpu;
	f->placing.client_order_id = f->coid;
	f->placing_ctx = (struct view_order_ctx){
		.currency = NULL, .required_minor = f->pv->hold_minor,
		.available_minor = f->pv->balance_available_minor, .opens_at = -1,
	};
	if (t->trade->market != NULL)
		f->placing_ctx.opens_at = t->trade->market->opens_at;
	f->place_req = api_order_place_start(t->api, &f->placing, on_place, t);
	f->place_sent_ms = util_now_ms();
	f->place_secs_shown = 0;
	set_note(f, _("Sending the order to the exchange…"), WR_DIM);
}

void tp_form_dialog(struct tui *t, enum tp_dialog kind, bool yes, wkey key)
{
	struct tp_form *f = form(t);

	if (f == NULL)
		return;
	if (kind == TD_CONFIRM) {
		if (!yes) {
			set_note(f, _("Not placed: nothing was sent."), WR_DIM);
			tui_message(t, _("Not placed"));
		} else {
			place(t);
		}
	} else if (kind == TD_RESULT) {
		if (key == 'o')
			tp_show(t, TP_ORDERS);
		else if (key == 'R')
			tp_show(t, TP_RENTALS);
	}
	tp_form_ops.rebuild(t);
}

/* Enter: the confirmation, from a current preview. */
static void review(struct tui *t)
{
	struct tp_form *f = form(t);
	int64_t now = util_now_ms();

	if (t->api == NULL) {
		set_note(f, _("There is no exchange to send orders to (see the status bar)."), WR_BAD);
		return;
	}
	if (f->place_req != 0) {
		set_note(f, _("The order is on its way to the exchange: it is placed once, "
			      "whatever is pressed meanwhile."), WR_DIM);
		return;
	}
	if (!f->valid) {
		set_note(f, f->bad, WR_BAD);
		set_focus(t, f->bad_row);
		return;
	}
	if (!side_allowed(t, f->side)) {
		set_note(f, role_note(t), WR_BAD);
		return;
	}
	if (f->pv != NULL && f->pv_gen == f->gen && now - f->pv_ms <= TP_FRESH_MS) {
		decide(t);
		return;
	}
	f->confirm_wait = true;
	if (f->pv_req == 0)
		start_preview(t);
	set_note(f, _("Asking the exchange for the price…"), WR_DIM);
}

/* ---- drawing ------------------------------------------------------------------------------------------- */

static void choice_line(struct tui *t, const char *label, const char *value, bool focused)
{
	struct tp_form *f = form(t);
	struct wcells *c = wpanel_add(f->left);
	int w0;

	wcells_add(c, label, focused ? WR_NORMAL : WR_DIM, focused ? WAT_BOLD : 0);
	w0 = c->width;
	wcells_pad(c, f->label_w - w0, WR_NORMAL);
	wcells_add_sym(c, WSYM_MORE_LEFT, focused ? WR_FIELD_FOCUS : WR_FIELD, 0);
	wcells_add(c, " ", focused ? WR_FIELD_FOCUS : WR_FIELD, 0);
	wcells_add(c, value, focused ? WR_FIELD_FOCUS : WR_FIELD, 0);
	wcells_add(c, " ", focused ? WR_FIELD_FOCUS : WR_FIELD, 0);
	wcells_add_sym(c, WSYM_MORE_RIGHT, focused ? WR_FIELD_FOCUS : WR_FIELD, 0);
}

static void label_line(struct tui *t, const char *label, bool focused)
{
	struct tp_form *f = form(t);
	struct wcells *c = wpanel_add(f->left);

	wcells_add(c, label, focused ? WR_NORMAL : WR_DIM, focused ? WAT_BOLD : 0);
}

static const char *tif_short(enum api_tif tif)
{
	switch (tif) {
	case API_GTC: return "GTC";
	case API_FOK: return "FOK";
	default: return "IOC";
	}
}

/* What the focused row means, when there is nothing else to say. */
static const char *explain(struct tp_form *f)
{
	switch (f->focus) {
	case TF_SIDE:
		return _("Buy rents GPUs for exactly the hours below; sell offers yours for up "
			 "to those hours.");
	case TF_TYPE:
		return f->type == API_MARKET
			? _("Market: fills now at the best asks, never above your max price.")
			: _("Limit: your price or better; what does not fill can wait on the book.");
	case TF_GPUS:
		return _("How many GPUs, 1 to 512.");
	case TF_HOURS:
		return f->side == API_BUY
			? _("Rented for exactly these hours, billed at the start of each hour "
			    "(1 to 720).")
			: _("Offered for up to these hours (1 to 720).");
	case TF_PRICE:
		if (f->type == API_LIMIT)
			return _("Per GPU-hour in US$, before tax; trades happen at the resting "
				 "order's price.");
		return f->side == API_BUY
			? _("The most to pay per GPU-hour in US$, before tax; the hold is sized at "
			    "it and the difference comes back.")
			: _("The least to take per GPU-hour in US$.");
	default:
		return NULL;
	}
}

static void build_left(struct tui *t)
{
	struct tp_form *f = form(t);
	struct wpanel *p = f->left;
	struct wcells *c;
	const struct catalog_gpu *g = catalog_gpu(t->cat, f->gpu);
	char *x;

	wpanel_begin(p);
	c = wpanel_add(p);
	x = xasprintf(f->side == API_BUY ? _("Buy %s") : _("Sell %s"), tp_gpu_name(t, f->gpu));
	wcells_add(c, x, WR_NORMAL, WAT_BOLD);
	free(x);
	if (g != NULL) {
		char *mem = i18n_fmt_unit(t->o->lang, g->memory_gb, 0, "GB");
		x = xasprintf(" · %s %s · %s", g->vendor, g->arch, mem);
		wcells_add(c, x, WR_DIM, 0);
		free(x);
		free(mem);
	}
	c = wpanel_add(p);
	if (f->book != NULL) {
		char *a = tp_usd(t, f->book->n_asks ? f->book->asks[0].price_cents : -1);
		char *b = tp_usd(t, f->book->n_bids ? f->book->bids[0].price_cents : -1);
		x = xasprintf(_("best ask %s · best bid %s"), a, b);
		wcells_add(c, x, WR_DIM, 0);
		free(x);
		free(a);
		free(b);
	}
	wpanel_add(p);
	choice_line(t, _("Side"), f->side == API_BUY ? _("Buy") : _("Sell"), f->focus == TF_SIDE);
	choice_line(t, _("Type"), f->type == API_MARKET ? _("Market") : _("Limit"),
		    f->focus == TF_TYPE);
	label_line(t, _("GPUs"), f->focus == TF_GPUS);
	label_line(t, _("Hours"), f->focus == TF_HOURS);
	label_line(t, price_label(f), f->focus == TF_PRICE);
	choice_line(t, _("In force"), tif_short(f->tif), f->focus == TF_TIF);
	wpanel_add(p);
	if (f->note != NULL)
		wpanel_text(p, f->note, f->note_role, 0);
	else if (!f->valid && f->bad_row == f->focus)
		wpanel_text(p, f->bad, WR_BAD, 0);
	else if (f->focus == TF_TIF)
		wpanel_text(p, view_tif_text(t->o->lang, f->tif, f->type == API_MARKET), WR_DIM, 0);
	else
		wpanel_text(p, explain(f), WR_DIM, 0);
	wpanel_commit(p);
}

static void kv(struct wpanel *p, int lw, const char *label, const char *value, enum wrole role,
	       unsigned attrs)
{
	struct wcells *c = wpanel_add(p);

	wcells_pad(c, 2, WR_NORMAL);
	wpanel_kv(c, lw, label, value, role, attrs);
}

static void kv_money(struct tui *t, int lw, const char *label, int64_t minor, const char *ccy,
		     unsigned attrs)
{
	char *m = tp_money(t, minor, ccy);

	kv(form(t)->right, lw, label, m, WR_NORMAL, attrs);
	free(m);
}

static void build_preview(struct tui *t, int lw)
{
	struct tp_form *f = form(t);
	struct wpanel *p = f->right;
	const struct api_preview *v = f->pv;
	bool current = v != NULL && f->pv_gen == f->gen;
	struct wcells *c = wpanel_add(p);
	char *x;

	wcells_pad(c, 1, WR_NORMAL);
	wcells_add(c, _("Preview by the exchange"), WR_HEADER, 0);
	if (f->valid && !current && (v != NULL || f->pv_req != 0)) {
		wcells_pad(c, 1, WR_NORMAL);
		wcells_add(c, _("updating…"), WR_DIM, 0);
	}
	if (t->api == NULL) {
		wpanel_text(p, _("No exchange: orders need one (see the status bar)."), WR_BAD, 2);
		return;
	}
	if (!f->valid) {
		wpanel_text(p, _("Fix the marked field to see the price."), WR_DIM, 2);
		return;
	}
	if (f->pv_error != NULL && !current) {
		wpanel_text(p, f->pv_error, WR_BAD, 2);
		return;
	}
	if (v == NULL || (f->gpu != NULL && strcmp(v->gpu, f->gpu) != 0)) {
		wpanel_text(p, _("Asking the exchange…"), WR_DIM, 2);
		return;
	}
	{
		struct buf b = {0};
		for (size_t i = 0; i < v->n_fills; i++) {
			char *pr = tp_usd(t, v->fills[i].price_cents);
			buf_printf(&b, "%s%lld × %s", i ? ", " : "", (long long)v->fills[i].gpus, pr);
			free(pr);
		}
		kv(p, lw, _("Fills now"), b.data != NULL ? b.data : _("nothing"),
		   v->fill_gpus > 0 ? WR_NORMAL : WR_BAD, 0);
		buf_free(&b);
	}
	if (v->rest_gpus > 0) {
		x = xasprintf(P_("%lld GPU", "%lld GPUs", (unsigned long)v->rest_gpus),
			      (long long)v->rest_gpus);
		kv(p, lw, _("Waits on book"), x, WR_NORMAL, 0);
		free(x);
	}
	if (v->expire_gpus > 0) {
		x = xasprintf(P_("%lld GPU", "%lld GPUs", (unsigned long)v->expire_gpus),
			      (long long)v->expire_gpus);
		kv(p, lw, _("Not filled"), x, WR_BAD, 0);
		free(x);
	}
	if (v->side == API_BUY && v->fill_gpus > 0) {
		char *bp = i18n_fmt_percent(t->o->lang, (double)v->vat_rate_bp / 100.0,
					    v->vat_rate_bp % 100 != 0 ? 2 : 0);
		kv_money(t, lw, _("Before tax"), v->net_minor, v->currency, 0);
		x = xasprintf(_("VAT %s"), bp);
		kv_money(t, lw, x, v->vat_minor, v->currency, 0);
		free(x);
		free(bp);
		kv_money(t, lw, _("Total"), v->total_minor, v->currency, WAT_BOLD);
	} else if (v->side == API_SELL && v->fill_gpus > 0) {
		kv_money(t, lw, _("You are paid"), v->total_minor, v->currency, WAT_BOLD);
	}
	if (v->side == API_BUY && v->rest_gpus > 0)
		kv_money(t, lw, _("Held"), v->rest_gpus * v->hours * v->unit_minor, v->currency, 0);
	{
		char *a = tp_money(t, v->balance_available_minor, v->currency);
		char *b = tp_money(t, v->balance_after_minor, v->currency);
		x = xasprintf("%s %s %s", a, wsym(WSYM_ARROW_RIGHT, t->ascii), b);
		kv(p, lw, _("Available"), x, v->balance_after_minor < 0 ? WR_BAD : WR_NORMAL, 0);
		free(x);
		free(a);
		free(b);
	}
	if (strcmp(v->currency, "USD") != 0) {
		char *fx = i18n_fmt_number(t->o->lang, (double)v->fx_rate_micro / 1e6, 4);
		x = xasprintf("1 USD = %s %s", fx, v->currency);
		kv(p, lw, _("Rate"), x, WR_DIM, 0);
		free(x);
		free(fx);
	}
	/* warnings */
	if (v->reject_code != NULL) {
		char *w = reject_words(t, v);
		wpanel_text(p, w, WR_BAD, 2);
		free(w);
	} else if (v->fill_gpus == 0 && v->rest_gpus == 0) {
		wpanel_text(p, v->side == API_BUY
			     ? _("No liquidity: no GPUs offered at this price or lower for these "
				 "hours; nothing would fill now.")
			     : _("No liquidity: no bid at this price or higher for these hours or "
				 "fewer; nothing would fill now."), WR_BAD, 2);
	} else if (v->fill_gpus == 0 && v->type == API_LIMIT) {
		wpanel_text(p, _("Nothing fills at this price now: the order would wait on the book."),
			    WR_DIM, 2);
	}
	if (v->type == API_LIMIT) {
		int64_t ask = f->book && f->book->n_asks ? f->book->asks[0].price_cents : -1;
		int64_t bid = f->book && f->book->n_bids ? f->book->bids[0].price_cents : -1;
		int64_t ref = v->side == API_BUY ? ask : (bid >= 0 ? bid : ask);
		if (ref > 0 && (v->price_cents * 10 < ref * 8 || v->price_cents * 10 > ref * 12)) {
			char *r = tp_usd(t, ref);
			x = xasprintf(v->side == API_BUY ? _("Your limit is far from the market: the "
							     "best ask is %s.")
							   : _("Your limit is far from the market: the "
							     "best bid is %s."), r);
			wpanel_text(p, x, WR_BAD, 2);
			free(x);
			free(r);
		}
	}
}

/* The book's side column: as wide as the wider of the two translated words
 * ("ask"/"bid", pt "compra"), at least 3 and at most 10 columns. */
static int side_width(const struct tui *t)
{
	int a = wtext_width(C_("book side", "ask"), t->ascii);
	int b = wtext_width(C_("book side", "bid"), t->ascii);
	int w = a > b ? a : b;

	return w < 3 ? 3 : w > 10 ? 10 : w;
}

static void level_line(struct tui *t, const char *side, const struct api_level *l, bool best)
{
	struct wcells *c = wpanel_add(form(t)->right);
	char *pr = tp_usd(t, l->price_cents), *g = tp_int(t, l->gpus), *o = tp_int(t, l->orders);
	struct wcells col;

	wcells_init(&col, t->ascii);
	wcells_pad(c, 2, WR_NORMAL);
	wcells_add(&col, side, WR_DIM, 0);
	wcells_fit(&col, side_width(t), WALIGN_LEFT, WR_NORMAL);
	wcells_cat(c, &col);
	wcells_reset(&col);
	wcells_add(&col, pr, WR_NORMAL, best ? WAT_BOLD : 0);
	wcells_fit(&col, 12, WALIGN_RIGHT, WR_NORMAL);
	wcells_cat(c, &col);
	wcells_reset(&col);
	wcells_add(&col, g, WR_NORMAL, 0);
	wcells_fit(&col, 7, WALIGN_RIGHT, WR_NORMAL);
	wcells_cat(c, &col);
	wcells_pad(c, 1, WR_NORMAL); /* a gap: "GPUs" and a long "Orders" never touch */
	wcells_reset(&col);
	wcells_add(&col, o, WR_DIM, 0);
	wcells_fit(&col, 8, WALIGN_RIGHT, WR_NORMAL);
	wcells_cat(c, &col);
	wcells_free(&col);
	free(pr);
	free(g);
	free(o);
}

static void build_book(struct tui *t)
{
	struct tp_form *f = form(t);
	struct wpanel *p = f->right;
	const struct api_book *b = f->book;
	struct wcells *c;
	int room, k, kb;
	char *x;

	wpanel_add(p);
	c = wpanel_add(p);
	wcells_pad(c, 1, WR_NORMAL);
	x = xasprintf(_("Book of %s, per GPU-hour before tax"), tp_gpu_name(t, f->gpu));
	wcells_add(c, x, WR_HEADER, 0);
	free(x);
	if (b == NULL) {
		wpanel_text(p, f->book_error != NULL ? f->book_error : _("waiting for the book…"),
			    f->book_error != NULL ? WR_BAD : WR_DIM, 2);
		return;
	}
	c = wpanel_add(p);
	{
		struct wcells col;
		wcells_init(&col, t->ascii);
		wcells_pad(c, 2 + side_width(t), WR_NORMAL);
		wcells_add(&col, _("Price"), WR_DIM, 0);
		wcells_fit(&col, 12, WALIGN_RIGHT, WR_NORMAL);
		wcells_cat(c, &col);
		wcells_reset(&col);
		wcells_add(&col, _("GPUs"), WR_DIM, 0);
		wcells_fit(&col, 7, WALIGN_RIGHT, WR_NORMAL);
		wcells_cat(c, &col);
		wcells_pad(c, 1, WR_NORMAL); /* a gap: "GPUs" and a long "Orders" never touch */
		wcells_reset(&col);
		wcells_add(&col, _("Orders"), WR_DIM, 0);
		wcells_fit(&col, 8, WALIGN_RIGHT, WR_NORMAL);
		wcells_cat(c, &col);
		wcells_free(&col);
	}
	/* the rows left: asks above the spread line, bids below, as many as fit */
	room = p->base.h - (int)p->n_next - 1;
	if (room < 2)
		room = 2;
	kb = (int)b->n_bids < room / 2 ? (int)b->n_bids : room / 2;
	k = (int)b->n_asks < room - kb ? (int)b->n_asks : room - kb;
	kb = (int)b->n_bids < room - k ? (int)b->n_bids : room - k;
	if (k < 1)
		k = 1;
	if (kb < 1)
		kb = 1;
	for (int i = k - 1; i >= 0; i--)
		if ((size_t)i < b->n_asks)
			level_line(t, C_("book side", "ask"), &b->asks[i], i == 0);
	if (b->n_asks == 0)
		wpanel_text(p, _("no asks: nobody sells now"), WR_DIM, 2);
	c = wpanel_add(p);
	wcells_pad(c, 2, WR_NORMAL);
	if (b->n_asks > 0 && b->n_bids > 0) {
		char *sp = tp_usd(t, b->asks[0].price_cents - b->bids[0].price_cents);
		x = xasprintf(_("spread %s"), sp);
		wcells_add(c, x, WR_DIM, 0);
		free(x);
		free(sp);
	}
	for (int i = 0; i < kb && (size_t)i < b->n_bids; i++)
		level_line(t, C_("book side", "bid"), &b->bids[i], i == 0);
	if (b->n_bids == 0)
		wpanel_text(p, _("no bids: nobody buys now"), WR_DIM, 2);
}

static void form_rebuild(struct tui *t)
{
	struct tp_form *f = form(t);
	int lw = 0;
	const char *labels[] = { _("Fills now"), _("Waits on book"), _("Not filled"), _("Before tax"),
				 _("Total"), _("Held"), _("You are paid"), _("Available"), _("Rate") };

	if (f == NULL || f->gpu == NULL)
		return;
	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
		int w = wtext_width(labels[i], t->ascii);
		if (w > lw)
			lw = w;
	}
	lw += 2;
	if (lw < 12)
		lw = 12;
	build_left(t);
	wpanel_begin(f->right);
	build_preview(t, lw);
	build_book(t);
	wpanel_commit(f->right);
}

/* ---- the page ---------------------------------------------------------------------------------------------- */

static void form_hide(struct tui *t)
{
	struct tp_form *f = form(t);

	if (f == NULL)
		return;
	wwidget_hide(&f->left->base);
	wwidget_hide(&f->right->base);
	for (int i = 0; i < 3; i++)
		wwidget_hide(&f->field[i]->base);
}

static void form_layout(struct tui *t, int y, int h)
{
	struct tp_form *f = form(t);
	int lw, fw;

	if (f == NULL)
		return;
	if (t->cols >= 72) {
		lw = t->cols * 47 / 100;
		if (lw > 48)
			lw = 48;
		wwidget_place(&f->left->base, y, 0, h, lw);
		wwidget_place(&f->right->base, y, lw, h, t->cols - lw);
	} else {
		int lh = h < 14 ? h : 14;
		lw = t->cols;
		wwidget_place(&f->left->base, y, 0, lh, lw);
		wwidget_place(&f->right->base, y + lh, 0, h - lh, t->cols);
	}
	fw = lw - f->label_w - 1;
	for (int i = 0; i < 3; i++) {
		if (TF_FIELD_ROW0 + i < h && fw >= 4) {
			wwidget_place(&f->field[i]->base, y + TF_FIELD_ROW0 + i, f->label_w, 1, fw);
			if (f->field[i]->base.win != NULL)
				leaveok(f->field[i]->base.win, FALSE);
		} else {
			wwidget_hide(&f->field[i]->base);
		}
	}
}

static bool form_render(struct tui *t, bool touch)
{
	struct tp_form *f = form(t);
	bool any = false, left;

	if (touch) {
		wwidget_touch(&f->left->base);
		wwidget_touch(&f->right->base);
	}
	left = wwidget_render(&f->left->base);
	any |= left;
	for (int i = 0; i < 3; i++) {
		if (left || touch)
			wwidget_touch(&f->field[i]->base);
		any |= wwidget_render(&f->field[i]->base);
	}
	any |= wwidget_render(&f->right->base);
	return any;
}

static bool form_cursor(struct tui *t)
{
	struct tp_form *f = form(t);
	struct wfield *fd;
	int y, x;

	if (!is_text_row(f->focus) || f->place_req != 0)
		return false;
	fd = f->field[f->focus - TF_GPUS];
	if (!wfield_cursor(fd, &y, &x))
		return false;
	wmove(fd->base.win, 0, x - fd->base.x);
	wnoutrefresh(fd->base.win);
	return true;
}

static void move_focus(struct tui *t, int dir)
{
	struct tp_form *f = form(t);

	set_focus(t, (f->focus + dir + TF_ROWS) % TF_ROWS);
}

/* ← → Space (or a letter) on a choice row. */
static void choose(struct tui *t, wkey k)
{
	struct tp_form *f = form(t);
	int dir = k == WKEY_LEFT ? -1 : 1;

	switch (f->focus) {
	case TF_SIDE: {
		enum api_side s = k == 'b' ? API_BUY : k == 's' ? API_SELL
			: (f->side == API_BUY ? API_SELL : API_BUY);
		if (s == f->side)
			return;
		if (!side_allowed(t, s)) {
			set_note(f, role_note(t), WR_BAD);
			return;
		}
		f->side = s;
		break;
	}
	case TF_TYPE:
		f->type = k == 'm' ? API_MARKET : k == 'l' ? API_LIMIT
			: (f->type == API_MARKET ? API_LIMIT : API_MARKET);
		if (f->type == API_MARKET && f->tif == API_GTC)
			f->tif = API_IOC;
		if (f->type == API_LIMIT && f->tif == API_IOC)
			f->tif = API_GTC;
		break;
	case TF_TIF:
		if (k == 'g' && f->type == API_LIMIT)
			f->tif = API_GTC;
		else if (k == 'i')
			f->tif = API_IOC;
		else if (k == 'f')
			f->tif = API_FOK;
		else if (f->type == API_MARKET)
			f->tif = f->tif == API_IOC ? API_FOK : API_IOC;
		else
			f->tif = (enum api_tif)(((int)f->tif + dir + 3) % 3);
		break;
	default:
		return;
	}
	suggest_price(t);
	changed(t);
}

static unsigned form_mouse(struct tui *t, const struct wevent *ev)
{
	struct tp_form *f = form(t);

	if (ev->mouse != WM_CLICK || f->place_req != 0)
		return W_HANDLED;
	for (int i = 0; i < 3; i++)
		if (wwidget_contains(&f->field[i]->base, ev->y, ev->x)) {
			set_focus(t, TF_GPUS + i);
			return W_HANDLED | W_REDRAW;
		}
	if (wwidget_contains(&f->left->base, ev->y, ev->x)) {
		int row = ev->y - f->left->base.y;
		if (row == 3)
			set_focus(t, TF_SIDE);
		else if (row == 4)
			set_focus(t, TF_TYPE);
		else if (row == 8)
			set_focus(t, TF_TIF);
	}
	return W_HANDLED | W_REDRAW;
}

enum form_action { FK_REVIEW = 1, FK_NEXT, FK_PREV, FK_CHOICE, FK_ORDERS, FK_BACK, FK_HELP };

static const struct wbinding form_bindings[] = {
	{ WKEY_RETURN, FK_REVIEW, N_("Review, then place it (y) or not (any other key)") },
	{ WKEY_ENTER, FK_REVIEW, NULL },
	{ WKEY_TAB, FK_NEXT, N_("Next field") },
	{ WKEY_DOWN, FK_NEXT, N_("Next field") },
	{ WKEY_BTAB, FK_PREV, N_("Previous field") },
	{ WKEY_UP, FK_PREV, N_("Previous field") },
	{ WKEY_LEFT, FK_CHOICE, N_("Change a choice (side, type, in force)") },
	{ WKEY_RIGHT, FK_CHOICE, N_("Change a choice (side, type, in force)") },
	{ ' ', FK_CHOICE, N_("Change a choice (side, type, in force)") },
	{ WKEY_F7, FK_ORDERS, N_("Your orders") },
	{ WKEY_ESC, FK_BACK, N_("Back to the tables (keeps what was typed)") },
	{ WKEY_F1, FK_HELP, N_("This help") },
	{ '?', FK_HELP, NULL },
};

/* The readline keys of the fields, for the help (the fields' own map names
 * Enter and Esc, which the form takes). */
static const struct wbinding field_bindings[] = {
	{ WKEY_LEFT, 1, N_("Move the cursor") },
	{ WKEY_RIGHT, 1, N_("Move the cursor") },
	{ WKEY_HOME, 2, N_("Start / end of the text") },
	{ WKEY_END, 2, N_("Start / end of the text") },
	{ 'U' - '@', 3, N_("Delete to the start of the text") },
	{ 'W' - '@', 4, N_("Delete the word before the cursor") },
	{ 'P' - '@', 5, N_("Earlier values of the field (Ctrl-N: later)") },
};

/* The letters that choose on a choice row (b/s, m/l, g/i/f; h and l step). */
static bool choice_key(const struct tp_form *f, wkey k)
{
	return k == 'h' || k == 'l' || (f->focus == TF_SIDE && (k == 'b' || k == 's')) ||
	       (f->focus == TF_TYPE && k == 'm') ||
	       (f->focus == TF_TIF && (k == 'g' || k == 'i' || k == 'f'));
}

static unsigned form_event(struct tui *t, const struct wevent *ev)
{
	struct tp_form *f = form(t);
	const struct wbinding *bd;
	wkey k = ev->key;
	unsigned r;

	if (ev->type == WEV_MOUSE)
		return form_mouse(t, ev);
	bd = wbinding_find(form_bindings, sizeof form_bindings / sizeof form_bindings[0], k);
	/* ? and Space are text in a text field */
	if (bd != NULL && is_text_row(f->focus) && wkey_printable(k))
		bd = NULL;
	switch (bd != NULL ? bd->action : 0) {
	case FK_BACK:
		tp_back(t);
		return W_HANDLED | W_REDRAW;
	case FK_HELP: {
		struct whelp_section s = { _("Editing a field"), field_bindings,
					   sizeof field_bindings / sizeof field_bindings[0] };
		tp_help(t, &s, 1);
		return W_HANDLED | W_REDRAW;
	}
	case FK_ORDERS:
		tp_show(t, TP_ORDERS);
		return W_HANDLED | W_REDRAW;
	case FK_NEXT:
	case FK_PREV:
		move_focus(t, bd->action == FK_NEXT ? 1 : -1);
		tp_form_ops.rebuild(t);
		return W_HANDLED | W_REDRAW;
	case FK_REVIEW:
		if (is_text_row(f->focus) && f->place_req == 0) /* kept in the field's history */
			wwidget_handle(&f->field[f->focus - TF_GPUS]->base, ev);
		review(t);
		tp_form_ops.rebuild(t);
		return W_HANDLED | W_REDRAW;
	default:
		break;
	}
	if (bd == NULL && !wkey_printable(k) && !is_text_row(f->focus))
		return W_IGNORED; /* F10, Ctrl-L …: the application's */
	if (f->place_req != 0) {
		/* nothing changes while the order is on its way */
		set_note(f, _("The order is on its way to the exchange: it is placed once, "
			      "whatever is pressed meanwhile."), WR_DIM);
		tp_form_ops.rebuild(t);
		return W_HANDLED;
	}
	if (!is_text_row(f->focus)) {
		if ((bd != NULL && bd->action == FK_CHOICE) || choice_key(f, k)) {
			choose(t, k == 'h' ? WKEY_LEFT : (k == 'l' && f->focus != TF_TYPE) ? WKEY_RIGHT : k);
			tp_form_ops.rebuild(t);
			return W_HANDLED | W_REDRAW;
		}
		/* letters are no commands on the form (q does not lose it) */
		return wkey_printable(k) ? W_HANDLED : W_IGNORED;
	}
	r = wwidget_handle(&f->field[f->focus - TF_GPUS]->base, ev);
	if (r & W_CHANGED) {
		if (f->focus == TF_PRICE)
			f->price_touched = true;
		changed(t);
		tp_form_ops.rebuild(t);
	}
	if (r == W_IGNORED && !wkey_printable(k))
		return W_IGNORED; /* F10, Ctrl-L: the application's */
	return W_HANDLED | (r & W_REDRAW);
}

/* While the order is on its way its note says for how long (the client
 * retries it under the same client_order_id: it is placed once). */
static void sending_clock(struct tui *t, struct tp_form *f, int64_t now, int64_t *next)
{
	long secs = (long)((now - f->place_sent_ms) / 1000);
	int64_t tick = f->place_sent_ms + (int64_t)(secs + 1) * 1000;

	if (secs >= 1 && secs != f->place_secs_shown) {
		char *n = xasprintf(P_("Sending the order to the exchange… %ld s (it is placed once, "
				       "even when sent again)",
				       "Sending the order to the exchange… %ld s (it is placed once, "
				       "even when sent again)", (unsigned long)secs), secs);
		f->place_secs_shown = secs;
		set_note(f, n, WR_DIM);
		free(n);
		tp_form_ops.rebuild(t);
	}
	if (*next < 0 || tick < *next)
		*next = tick;
}

static void form_tick(struct tui *t, int64_t now, int64_t *next)
{
	struct tp_form *f = form(t);
	int64_t due;

	if (f == NULL || f->gpu == NULL)
		return;
	if (f->place_req != 0)
		sending_clock(t, f, now, next);
	if (f->book_req == 0 && now >= f->book_next) {
		f->book_next = now + TP_BOOK_MS;
		f->book_req = api_book_start(t->api, f->gpu, TF_BOOK_DEPTH, on_book, t);
	}
	if (f->book_req == 0 && (*next < 0 || f->book_next < *next))
		*next = f->book_next;
	if (!f->valid || f->pv_req != 0)
		return;
	due = (f->pv == NULL || f->pv_gen != f->gen) ? f->pv_due : f->pv_ms + TP_PREVIEW_MS;
	if (f->confirm_wait)
		due = now;
	if (now >= due) {
		start_preview(t);
		return;
	}
	if (*next < 0 || due < *next)
		*next = due;
}

static void form_shown(struct tui *t, bool on)
{
	struct tp_form *f = form(t);

	if (f == NULL)
		return;
	if (on) {
		f->book_next = 0;
		if (is_text_row(f->focus))
			wfield_focus(f->field[f->focus - TF_GPUS], true);
	} else {
		f->confirm_wait = false;
		for (int i = 0; i < 3; i++)
			wfield_focus(f->field[i], false);
	}
}

static void form_fkeys(struct tui *t, struct wfkeys *k)
{
	wfkeys_add(k, WKEY_RETURN, "Enter", _("Review"));
	wfkeys_add(k, WKEY_TAB, "Tab", _("Next field"));
	wfkeys_add(k, WKEY_ESC, "Esc", _("Back"));
	wfkeys_add(k, WKEY_F1, "F1", _("Help"));
	wfkeys_add(k, WKEY_F7, "F7", _("Orders"));
	wfkeys_add(k, WKEY_F10, "F10", _("Quit"));
}

static void form_free(struct tui *t)
{
	struct tp_form *f = form(t);

	if (f == NULL)
		return;
	if (t->api != NULL) {
		/* quitting: an order on its way may still be placed (the orders screen
		 * of the next run shows it); nothing may call back into freed state */
		if (f->book_req != 0)
			api_abandon(t->api, f->book_req);
		if (f->pv_req != 0)
			api_abandon(t->api, f->pv_req);
		if (f->place_req != 0)
			api_abandon(t->api, f->place_req);
	}
	wpanel_free(&f->left);
	wpanel_free(&f->right);
	for (int i = 0; i < 3; i++)
		wfield_free(&f->field[i]);
	api_book_free(&f->book);
	api_preview_free(&f->pv);
	free(f->gpu);
	free(f->bad);
	free(f->pv_error);
	free(f->book_error);
	free(f->coid);
	free(f->placing_gpu);
	free(f->last_gpu);
	free(f->note);
	free(f);
	t->trade->form = NULL;
}

/* The language changed (tui/lang.c, through order_pages.c). The
 * labels' width, a typed price's decimal separator ("4,19" is refused in
 * English, "4.19" shown as "4,19" elsewhere) and the messages follow. */
void tp_form_lang_changed(struct tui *t)
{
	struct tp_form *f = form(t);
	char to = i18n_decimal_sep(t->o->lang), from = to == '.' ? ',' : '.';
	char *s;
	bool conv = false;

	if (f == NULL)
		return;
	compute_label_w(t);
	s = xstrdup(wfield_text(f->field[2]));
	for (char *p = s; *p != '\0'; p++) {
		if (*p == from && p > s && isdigit((unsigned char)p[-1]) && isdigit((unsigned char)p[1])) {
			*p = to;
			conv = true;
		}
	}
	if (conv)
		wfield_set_text(f->field[2], s);
	free(s);
	validate(t);
}

const struct tp_page_ops tp_form_ops = {
	.layout = form_layout,
	.hide = form_hide,
	.render = form_render,
	.cursor = form_cursor,
	.event = form_event,
	.tick = form_tick,
	.shown = form_shown,
	.rebuild = form_rebuild,
	.fkeys = form_fkeys,
	.bindings = form_bindings,
	.n_bindings = sizeof form_bindings / sizeof form_bindings[0],
	.help_title = N_("Order form"),
	.free = form_free,
};
