/*
 * The order form (b / s / F5 on a table row or the detail screen, a page of
 * its own: tui_open(TUI_ORDER_FORM)): side, type (market or limit), GPUs, hours, the limit price or the
 * market order's cap (max to pay, min to take), time in force. Beside it
 * (below it on a narrow terminal), live: the exchange's preview of exactly
 * what is typed (POST /v1/orders/preview, 300 ms after the last change and
 * every few seconds, as the market moves) and the GPU's book.
 *
 * This file is the screen (a trade page, kept when it leaves the stack, so
 * Esc keeps what was typed and an order on its way still gets its answer):
 * the fields, the two panels, the keys and the requests; what the inputs
 * mean and every line shown come from the pure model
 * (tui/trade/order_model.c).
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
 *    it refused, in words, keeping everything that was typed;
 *  - "Outcome unknown" (no answer, and asking for it by client order id did
 *    not answer either) offers r in its dialog and F8 (Ctrl-R) on the form:
 *    the same order, sent again as it was with the same client order id —
 *    the exchange places it at most once and answers what it recorded;
 *  - the confirmation follows the preview beside it: a preview that changes
 *    while it is open changes its text, saying so (and one that would now
 *    be refused makes y place nothing).
 */
#include "tui/trade/trade.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "tui/trade/order_model.h"
#include "util/util.h"

enum {
	FORM_BOOK_DEPTH = 10,
	FORM_MIN_TEXT_W = 8,        /* a panel's texts wrap to at least this width */
	FORM_BOOK_MS = 2000,        /* the book, while the form is shown */
	FORM_DEBOUNCE_MS = 300,     /* a preview this long after the last change */
	FORM_PREVIEW_MS = 5000,     /* and again this often (the market moves) */
	FORM_FRESH_MS = 5000,       /* a preview older than this is asked again
	                               before the confirmation */
};

struct order_form {
	struct tui_page page;       /* the screen */
	struct order_model m;       /* the inputs, the preview, the book, the note */
	struct wfield *field[ORDER_NTEXT]; /* the typed rows, by order_text_index */
	struct wpanel *left, *right;
	int label_w;
	bool dirty;                 /* the panels are made again at the next recalc */
	uint64_t seen_account, seen_state;

	/* the exchange's preview */
	uint64_t pv_req, pv_req_gen;
	int64_t pv_due;
	bool confirm_wait;          /* Enter: confirm once the current preview is in */
	uint64_t confirm_gen;

	/* the book (by node size for a buy's units) */
	uint64_t book_req;
	int64_t book_next;
	char *book_key;             /* the query it is asked with */

	/* the order being placed */
	uint64_t place_req;
	int64_t place_sent_ms;      /* when it was sent (its note counts the seconds) */
	long place_secs_shown;
	char *coid;
	struct api_order_req placing;
	char *placing_gpu;
	struct view_order_ctx placing_ctx;
	bool unknown;               /* the last placing's outcome is unknown: it can be
	                               sent again as it was, under its client order id */

	/* the confirmation open for confirm_gen (follows the preview), or NULL */
	struct tui_screen *confirm_dlg;
	char *confirm_text;         /* the summary it opened with */
};

static struct tui *tui_of(const struct order_form *f)
{
	return f->page.base.t;
}

static void set_note(struct order_form *f, const char *text, enum wrole role)
{
	order_model_note(&f->m, text, role);
	f->dirty = true;
}

/* What the model needs of the session: the exchange, the market's opening,
 * whether a preview is on its way. */
static void sync_model(struct order_form *f)
{
	struct tui *t = tui_of(f);

	f->m.have_exchange = t->api != NULL;
	f->m.pv_asking = f->pv_req != 0;
	f->m.lang = t->o->lang;
	f->m.ascii = t->ascii;
	f->m.opens_at = tui_market_opens_at(t);
}

/* The model's texts and reasons into the fields. */
static void sync_fields(struct order_form *f)
{
	for (int i = 0; i < ORDER_NTEXT; i++) {
		if (f->m.text_changed[i]) {
			if (strcmp(wfield_text(f->field[i]), f->m.text[i]) != 0)
				wfield_set_text(f->field[i], f->m.text[i]);
			f->m.text_changed[i] = false;
		}
		if ((f->field[i]->error == NULL) != (f->m.text_error[i] == NULL) ||
		    (f->m.text_error[i] != NULL && strcmp(f->field[i]->error, f->m.text_error[i]) != 0))
			wfield_set_error(f->field[i], f->m.text_error[i]);
	}
}

/* The book the inputs want, as a key: a new one is asked at once (the old
 * one, of other units, is not shown meanwhile). */
static void book_wanted(struct order_form *f)
{
	struct api_book_query q;
	bool by;
	char *key;

	order_model_book_query(&f->m, &q, &by);
	key = xasprintf("%d|%d|%s|%s", by, q.node_gpus, q.interconnect ? q.interconnect : "",
			q.regions ? q.regions : "");
	if (f->book_key == NULL || strcmp(key, f->book_key) != 0) {
		free(f->book_key);
		f->book_key = key;
		api_book_free(&f->m.book);
		if (f->book_req != 0 && tui_of(f)->api != NULL)
			api_abandon(tui_of(f)->api, f->book_req);
		f->book_req = 0;
		f->book_next = 0;
	} else {
		free(key);
	}
}

/* The inputs made a new generation: a preview of them soon. */
static void inputs_moved(struct order_form *f)
{
	book_wanted(f);
	f->pv_due = util_now_ms() + FORM_DEBOUNCE_MS;
	f->confirm_wait = false;
	sync_fields(f);
	f->dirty = true;
}

/* Something typed or chosen changed (gen: the generation before): a new
 * generation, and the last outcome's note goes. */
static void moved_from(struct order_form *f, uint64_t gen)
{
	if (f->m.gen == gen)
		return;
	inputs_moved(f);
	if (f->place_req == 0)
		set_note(f, NULL, WR_NORMAL);
}

static int64_t quote_ask(struct order_form *f)
{
	return tui_market_ask(tui_of(f), f->m.gpu);
}

static void set_focus(struct order_form *f, int row)
{
	if (order_is_text_row(f->m.focus))
		wfield_focus(f->field[order_text_index(f->m.focus)], false);
	f->m.focus = row;
	if (order_is_text_row(row) && tui_on_stack(tui_of(f), &f->page.base))
		wfield_focus(f->field[order_text_index(row)], true);
	f->dirty = true;
}

/* ---- requests and replies ----------------------------------------------------------------------------- */

static void on_book(void *ud, struct api_book *r, const struct api_error *e)
{
	struct order_form *f = ud;
	uint64_t gen = f->m.gen;

	f->book_req = 0;
	f->dirty = true;
	if (e != NULL) {
		order_model_set_book_error(&f->m, tui_error_words(tui_of(f), e));
	} else if (f->m.gpu != NULL && strcmp(r->gpu, f->m.gpu) == 0) {
		if (order_model_set_book(&f->m, r, quote_ask(f)))
			f->m.pv_ms = 0; /* the book moved: the preview again, so they agree */
		moved_from(f, gen);
	} else {
		api_book_free(&r);
	}
}

static void decide(struct order_form *f);
static void confirm_follow(struct order_form *f);

static void on_preview(void *ud, struct api_preview *r, const struct api_error *e)
{
	struct order_form *f = ud;
	int64_t now = util_now_ms();

	f->pv_req = 0;
	f->dirty = true;
	if (e != NULL) {
		order_model_set_preview_error(&f->m, tui_error_words(tui_of(f), e));
		f->pv_due = now + FORM_PREVIEW_MS;
		if (f->confirm_wait && f->pv_req_gen == f->m.gen) {
			f->confirm_wait = false;
			set_note(f, f->m.pv_error, WR_BAD);
		}
		return;
	}
	order_model_set_preview(&f->m, r, f->pv_req_gen, now);
	if (f->confirm_wait && f->m.pv_gen == f->m.gen && tui_on_stack(tui_of(f), &f->page.base)) {
		f->confirm_wait = false;
		decide(f);
	} else if (f->confirm_dlg != NULL && f->m.pv_gen == f->confirm_gen) {
		confirm_follow(f);
	}
}

/* The preview moved while its confirmation is open: the dialog says what
 * the preview beside it says now, and that it changed (never a snapshot
 * that disagrees with it); a preview that would now be refused says so,
 * and y places nothing (place). */
static void confirm_follow(struct order_form *f)
{
	struct tui *t = tui_of(f);
	char *now = f->m.pv->reject_code != NULL ? order_model_reject_words(&f->m, f->m.pv)
						 : order_model_summary(&f->m);
	char *x;

	if (f->confirm_text != NULL && strcmp(now, f->confirm_text) == 0) {
		free(now);
		return;
	}
	x = f->m.pv->reject_code != NULL
		? xasprintf(_("The exchange's preview changed while this was open: it would now "
			      "refuse the order, so y places nothing.\n%s"), now)
		: xasprintf(_("The exchange's preview changed while this was open; it now says:\n%s"),
			    now);
	tui_dialog_set_text(t, f->confirm_dlg, x);
	free(x);
	free(now);
}

static void start_preview(struct order_form *f)
{
	f->pv_req_gen = f->m.gen;
	f->pv_req = api_order_preview_start(tui_of(f)->api, &f->m.req, on_preview, f);
}

static void place(struct order_form *f);
static void resend(struct order_form *f);

/* The confirmation closed: place the order, or say it was not. */
static void confirm_done(void *ud, int64_t arg, bool yes, wkey key)
{
	struct order_form *f = ud;

	(void)arg;
	(void)key;
	f->confirm_dlg = NULL; /* freed after this */
	free(f->confirm_text);
	f->confirm_text = NULL;
	if (key == 'r' && f->unknown && f->m.last_id < 0) {
		resend(f);
		return;
	}
	if (yes) {
		place(f);
		return;
	}
	set_note(f, _("Not placed: nothing was sent."), WR_DIM);
	tui_message(tui_of(f), _("Not placed"));
}

/* The result closed: o and R go to the orders and the rentals. */
static void result_done(void *ud, int64_t arg, bool yes, wkey key)
{
	struct order_form *f = ud;

	(void)arg;
	(void)yes;
	if (key == 'o')
		tui_open(tui_of(f), TUI_ORDERS, NULL);
	else if (key == 'R')
		tui_open(tui_of(f), TUI_RENTALS, NULL);
	else if (key == 'r' && f->unknown)
		resend(f);
}

/* The current preview is in: refuse in words, or ask for confirmation. */
static void decide(struct order_form *f)
{
	struct tui *t = tui_of(f);
	char *text, *again;

	sync_model(f);
	if (f->m.pv->reject_code != NULL) {
		text = order_model_reject_words(&f->m, f->m.pv);
		set_note(f, text, WR_BAD);
		tui_message(t, _("Not placed: see the form"));
		free(text);
		return;
	}
	text = order_model_summary(&f->m);
	f->confirm_gen = f->m.gen;
	set_note(f, NULL, WR_NORMAL);
	free(f->confirm_text);
	f->confirm_text = xstrdup(text);
	if (!order_model_same_as_last(&f->m)) {
		f->confirm_dlg = tui_dialog_open(t, _("Place this order?"), text,
						 _("y or Enter: place it · any other key: do not"),
						 false, confirm_done, f, 0);
		free(text);
		return;
	}
	/* Enter pressed on and on must not buy the same thing twice: the same
	 * order again is confirmed with y only */
	again = f->m.last_id >= 0
		? xasprintf(_("You placed this same order a moment ago (order %lld). "
			      "Place it again?\n%s"), (long long)f->m.last_id, text)
		: xasprintf(_("This same order may have been placed a moment ago (its "
			      "outcome is unknown: check your orders). Place it again?\n%s"), text);
	f->confirm_dlg = tui_dialog_open(t, _("Place the same order again?"), again,
					 f->unknown && f->m.last_id < 0
					 ? _("r: send it again, its client order id (placed at most "
					     "once) · y: a new order · any other key: do not")
					 : _("y: place it again · any other key, Enter too: do not"),
					 true, confirm_done, f, 0);
	free(again);
	free(text);
}

/* The outcome of a placed order: a dialog while a page is shown, else a message. */
static void show_outcome(struct order_form *f, const char *title, const char *text)
{
	struct tui *t = tui_of(f);
	bool paged = false;

	for (enum tui_place p = TUI_ORDER_FORM; p <= TUI_ACCOUNT; p++)
		paged |= tui_place_screen(t, p) != NULL && tui_on_stack(t, tui_place_screen(t, p));
	if (paged && f->unknown) {
		/* TRANSLATORS: the hint of "Outcome unknown": r sends the very same
		 * order again, under its client order id */
		tui_dialog_open(t, title, text, _("r: send it again (the same client order id: placed "
						  "at most once) · o: your orders · any other key: "
						  "close"), false, result_done, f, 0);
	} else if (paged) {
		tui_dialog_open(t, title, text, _("o: your orders · R: your rentals · any other key: "
						  "close"), false, result_done, f, 0);
	} else {
		char *m = xasprintf("%s: %s", title, text);
		char *nl = strchr(m, '\n');
		if (nl != NULL)
			*nl = '\0';
		tui_message(t, m);
		free(m);
	}
}

static void on_place(void *ud, struct api_order *o, const struct api_error *e)
{
	struct order_form *f = ud;
	struct tui *t = tui_of(f);
	const char *title;
	char *text;
	bool good;

	f->place_req = 0;
	f->unknown = e != NULL && e->kind == API_ERR_UNKNOWN_OUTCOME;
	if (f->unknown)
		order_model_remember_last(&f->m, &f->placing, f->placing_gpu, -1); /* it may exist */
	if (e != NULL) {
		f->placing_ctx.currency = tui_account_currency(t); /* the account's, now */
		text = view_api_error_words(t->o->lang, e, &f->placing_ctx);
		title = e->kind == API_ERR_UNKNOWN_OUTCOME ? _("Outcome unknown") : _("Not placed");
		good = false;
	} else {
		text = view_order_result(t->o->lang, tui_gpu_name(t, o->gpu), o);
		good = !(o->status == API_ORDER_EXPIRED && o->filled_gpus == 0);
		order_model_remember_last(&f->m, &f->placing, f->placing_gpu, o->id);
		title = good ? _("Order placed") : _("Order placed: nothing filled");
		api_order_free(&o);
	}
	set_note(f, text, good ? WR_GOOD : WR_BAD);
	show_outcome(f, title, text);
	free(text);
	/* money moved: the balance, the lists, the book and the preview again */
	tui_account_moved(t);
	f->book_next = 0;
	f->pv_due = 0;
	f->m.pv_ms = 0;
}

static void place(struct order_form *f)
{
	struct tui *t = tui_of(f);

	if (f->place_req != 0 || !f->m.valid || f->confirm_gen != f->m.gen || f->m.pv == NULL)
		return;
	if (f->m.pv->reject_code != NULL) {
		decide(f); /* the preview changed to a refusal meanwhile: said, not placed */
		return;
	}
	/* one client order id for this intent: api/ re-sends this one, never a new one */
	free(f->coid);
	f->coid = api_client_order_id_new();
	f->placing = f->m.req;
	free(f->placing_gpu);
	f->placing_gpu = xstrdup(f->m.gpu);
	f->placing.gpu = f->placing_gpu;
	f->placing.client_order_id = f->coid;
	f->placing_ctx = (struct view_order_ctx){
		.currency = NULL, .required_minor = f->m.pv->hold_minor,
		.available_minor = f->m.pv->balance_available_minor,
		.opens_at = tui_market_opens_at(t),
	};
	f->place_req = api_order_place_start(t->api, &f->placing, on_place, f);
	f->place_sent_ms = util_now_ms();
	f->place_secs_shown = 0;
	set_note(f, _("Sending the order to the exchange…"), WR_DIM);
}

/* r (the outcome's dialog) or F8: the order whose outcome is unknown,
 * sent again as it was, under the same client order id — the exchange
 * places it at most once, and its answer (the order it recorded, or why
 * not) is shown as any placing's. */
static void resend(struct order_form *f)
{
	struct tui *t = tui_of(f);
	char *x;

	if (!f->unknown || f->place_req != 0 || t->api == NULL || f->coid == NULL)
		return;
	f->place_req = api_order_place_start(t->api, &f->placing, on_place, f);
	f->place_sent_ms = util_now_ms();
	f->place_secs_shown = 0;
	/* TRANSLATORS: %s is the client order id */
	x = xasprintf(_("Sending the same order again (client order id %s): the exchange places "
			"it at most once…"), f->coid);
	set_note(f, x, WR_DIM);
	tui_message(t, x);
	free(x);
}

static const char *on_its_way(void)
{
	return _("The order is on its way to the exchange: it is placed once, whatever is "
		 "pressed meanwhile.");
}

/* Enter: the confirmation, from a current preview. */
static void review(struct order_form *f)
{
	int64_t now = util_now_ms();

	if (tui_of(f)->api == NULL) {
		set_note(f, _("There is no exchange to send orders to (see the status bar)."), WR_BAD);
		return;
	}
	if (f->place_req != 0) {
		set_note(f, on_its_way(), WR_DIM);
		return;
	}
	if (!f->m.valid) {
		set_note(f, f->m.bad, WR_BAD);
		set_focus(f, f->m.bad_row);
		return;
	}
	if (!order_model_side_allowed(&f->m, f->m.side)) {
		set_note(f, order_model_role_note(&f->m), WR_BAD);
		return;
	}
	if (order_model_preview_current(&f->m) && now - f->m.pv_ms <= FORM_FRESH_MS) {
		decide(f);
		return;
	}
	f->confirm_wait = true;
	if (f->pv_req == 0)
		start_preview(f);
	set_note(f, _("Asking the exchange for the price…"), WR_DIM);
}

/* ---- drawing ------------------------------------------------------------------------------------------- */

static int text_width(const struct wpanel *p)
{
	return p->base.w > FORM_MIN_TEXT_W ? p->base.w : FORM_MIN_TEXT_W;
}

/* Lines made by the model into a panel. */
static void panel_put(struct wpanel *p, struct tui_lines *ls)
{
	for (size_t i = 0; i < ls->n; i++)
		wcells_cat(wpanel_add(p), &ls->l[i]);
	tui_lines_free(ls);
}

static void build(struct order_form *f)
{
	struct tui_lines ls = { .ascii = tui_of(f)->ascii };
	int rows;

	f->dirty = false;
	if (f->m.gpu == NULL)
		return;
	sync_model(f);
	sync_fields(f);
	wpanel_begin(f->left);
	order_model_form_lines(&f->m, f->label_w, text_width(f->left), &ls);
	panel_put(f->left, &ls);
	wpanel_commit(f->left);
	wpanel_begin(f->right);
	ls.ascii = tui_of(f)->ascii;
	order_model_preview_lines(&f->m, text_width(f->right), &ls);
	rows = f->right->base.h - (int)ls.n;
	panel_put(f->right, &ls);
	ls.ascii = tui_of(f)->ascii;
	order_model_book_lines(&f->m, text_width(f->right), rows, &ls);
	panel_put(f->right, &ls);
	wpanel_commit(f->right);
}

/* ---- the page ---------------------------------------------------------------------------------------------- */

static void form_layout(struct tui_screen *s, struct tui_area *body)
{
	struct order_form *f = (struct order_form *)s;
	int y = body->y, h = body->h, cols = s->t->cols, lw, fw;

	tui_page_layout(&f->page);
	if (cols >= 72) {
		lw = cols * 47 / 100;
		if (lw > 48)
			lw = 48;
		wwidget_place(&f->left->base, y, 0, h, lw);
		wwidget_place(&f->right->base, y, lw, h, cols - lw);
	} else {
		int lh = h < 16 ? h : 16;
		lw = cols;
		wwidget_place(&f->left->base, y, 0, lh, lw);
		wwidget_place(&f->right->base, y + lh, 0, h - lh, cols);
	}
	fw = lw - f->label_w - 1;
	for (int i = 0; i < ORDER_NTEXT; i++) {
		int line = ORDER_FORM_ROW0 + order_text_row(i);
		if (line < (cols >= 72 ? h : (h < 14 ? h : 14)) && fw >= 4)
			wwidget_place(&f->field[i]->base, y + line, f->label_w, 1, fw);
		else
			wwidget_hide(&f->field[i]->base);
	}
	body->h = 0;
	build(f);
}

static void form_recalc(struct tui_screen *s, int64_t now)
{
	struct order_form *f = (struct order_form *)s;
	struct tui *t = s->t;

	(void)now;
	if (f->seen_account != t->account.gen) {
		/* the account's role: a side it may not take is switched */
		uint64_t gen = f->m.gen;
		f->seen_account = t->account.gen;
		order_model_set_role(&f->m, tui_account_role(t), quote_ask(f));
		if (f->m.gen != gen)
			inputs_moved(f);
		f->dirty = true;
	}
	if (f->seen_state != t->m.state_gen && t->m.state != NULL) {
		/* the exchange's regions: what a typed region is checked against;
		 * the market's state moves often, its regions seldom. A new list
		 * (the first one too, which may come after Enter) is new inputs,
		 * but not the user's change: a confirmation asked for keeps
		 * waiting for the preview of these inputs, or says why the order
		 * cannot go now */
		f->seen_state = t->m.state_gen;
		if (order_model_set_regions(&f->m, t->m.state->regions, t->m.state->n_regions)) {
			bool waiting = f->confirm_wait;
			f->m.gen++;
			inputs_moved(f);
			if (waiting && f->m.valid)
				f->confirm_wait = true;
			else if (waiting)
				set_note(f, f->m.bad, WR_BAD);
		}
	}
	if (f->dirty)
		build(f);
}

static bool form_cursor(struct tui_screen *s)
{
	struct order_form *f = (struct order_form *)s;

	/* nothing is typed while the order is on its way */
	return f->place_req == 0 && tui_screen_cursor(s);
}

static void move_focus(struct order_form *f, int dir)
{
	int row = f->m.focus;

	do
		row = (row + dir + ORDER_ROWS) % ORDER_ROWS;
	while (!order_model_row_shown(&f->m, row));
	set_focus(f, row);
}

/* ← → Space (or a letter) on a choice row. */
static void choose(struct order_form *f, wkey k)
{
	if (order_model_choose(&f->m, k, quote_ask(f))) {
		inputs_moved(f);
		if (f->place_req == 0)
			set_note(f, NULL, WR_NORMAL);
	}
	f->dirty = true;
}

static unsigned form_mouse(struct order_form *f, const struct wevent *ev)
{
	if (tui_page_event(&f->page, ev) != W_IGNORED)
		return W_HANDLED | W_REDRAW; /* a page tab */
	if (ev->mouse != WM_CLICK || f->place_req != 0)
		return W_HANDLED;
	for (int i = 0; i < ORDER_NTEXT; i++)
		if (wwidget_contains(&f->field[i]->base, ev->y, ev->x)) {
			set_focus(f, order_text_row(i));
			return W_HANDLED | W_REDRAW;
		}
	if (wwidget_contains(&f->left->base, ev->y, ev->x)) {
		int row = ev->y - f->left->base.y - ORDER_FORM_ROW0;
		if (row >= 0 && row < ORDER_ROWS && !order_is_text_row(row) &&
		    order_model_row_shown(&f->m, row))
			set_focus(f, row);
	}
	return W_HANDLED | W_REDRAW;
}

enum form_action { FK_REVIEW = 1, FK_NEXT, FK_PREV, FK_CHOICE, FK_ORDERS, FK_BACK, FK_RESEND };

static const struct wbinding form_bindings[] = {
	{ WKEY_RETURN, FK_REVIEW, N_("Review, then place it (y) or not (any other key)"),
	  N_("Review"), "review" },
	{ WKEY_ENTER, FK_REVIEW, NULL, NULL, "review" },
	{ WKEY_TAB, FK_NEXT, N_("Next field"), N_("Next field"), "next-field" },
	{ WKEY_DOWN, FK_NEXT, N_("Next field"), NULL, "next-field" },
	{ WKEY_BTAB, FK_PREV, N_("Previous field"), NULL, "prev-field" },
	{ WKEY_UP, FK_PREV, N_("Previous field"), NULL, "prev-field" },
	{ WKEY_LEFT, FK_CHOICE, N_("Change a choice (side, type, in force)"), NULL, "choice" },
	{ WKEY_RIGHT, FK_CHOICE, N_("Change a choice (side, type, in force)"), NULL, "choice" },
	{ ' ', FK_CHOICE, N_("Change a choice (side, type, in force)"), NULL, "choice" },
	{ WKEY_F7, FK_ORDERS, N_("Your orders"), N_("Orders"), "orders" },
	{ WKEY_F8, FK_RESEND, N_("After \"Outcome unknown\": send that order again, under its "
				 "client order id (placed at most once)"), N_("Resend"), "resend" },
	{ 'R' - '@', FK_RESEND, N_("After \"Outcome unknown\": send that order again, under its "
				   "client order id (placed at most once)"), NULL, "resend" },
	{ WKEY_ESC, FK_BACK, N_("Back to the tables (keeps what was typed)"), N_("Back"), "back" },
};

/* The readline keys of the fields, for the help (the fields' own map names
 * Enter and Esc, which the form takes). */
static const struct wbinding field_bindings[] = {
	{ WKEY_LEFT, 1, N_("Move the cursor"), NULL },
	{ WKEY_RIGHT, 1, N_("Move the cursor"), NULL },
	{ WKEY_HOME, 2, N_("Start / end of the text"), NULL },
	{ WKEY_END, 2, N_("Start / end of the text"), NULL },
	{ 'U' - '@', 3, N_("Delete to the start of the text"), NULL },
	{ 'W' - '@', 4, N_("Delete the word before the cursor"), NULL },
	{ 'P' - '@', 5, N_("Earlier values of the field (Ctrl-N: later)"), NULL },
};

static const struct tui_keymap keys[] = {
	{ N_("Order form"), form_bindings, sizeof form_bindings / sizeof form_bindings[0] },
};

static size_t form_help(struct tui_screen *s, struct whelp_section *out, size_t max)
{
	size_t n = 0;

	(void)s;
	if (n < max)
		out[n++] = (struct whelp_section){ _(keys[0].title), keys[0].map, keys[0].n };
	if (n < max)
		out[n++] = (struct whelp_section){ _("Editing a field"), field_bindings,
						   sizeof field_bindings / sizeof field_bindings[0] };
	return n;
}

/* A bound key of the form; W_IGNORED when it is none of them. */
static unsigned form_action(struct order_form *f, const struct wbinding *bd, const struct wevent *ev)
{
	struct tui *t = tui_of(f);

	switch (bd->action) {
	case FK_BACK:
		tui_remove(t, &f->page.base); /* kept: what was typed stays */
		return W_HANDLED | W_REDRAW;
	case FK_ORDERS:
		tui_open(t, TUI_ORDERS, NULL);
		return W_HANDLED | W_REDRAW;
	case FK_RESEND:
		if (f->unknown && f->place_req == 0)
			resend(f);
		else
			set_note(f, _("Nothing to send again: no order's outcome is unknown."), WR_DIM);
		return W_HANDLED | W_REDRAW;
	case FK_NEXT:
	case FK_PREV:
		move_focus(f, bd->action == FK_NEXT ? 1 : -1);
		return W_HANDLED | W_REDRAW;
	case FK_REVIEW:
		if (order_is_text_row(f->m.focus) && f->place_req == 0) /* kept in the field's history */
			wwidget_handle(&f->field[order_text_index(f->m.focus)]->base, ev);
		review(f);
		return W_HANDLED | W_REDRAW;
	default:
		return W_IGNORED;
	}
}

/* A key in a text field: the field edits, the model reads it. */
static unsigned field_key(struct order_form *f, const struct wevent *ev)
{
	int row = f->m.focus;
	struct wfield *fd = f->field[order_text_index(row)];
	unsigned r = wwidget_handle(&fd->base, ev);

	if ((r & W_CHANGED) && order_model_set_text(&f->m, row, wfield_text(fd))) {
		order_model_changed(&f->m);
		inputs_moved(f);
		if (f->place_req == 0)
			set_note(f, NULL, WR_NORMAL);
	}
	if (r == W_IGNORED && !wkey_printable(ev->key))
		return W_IGNORED; /* F10, Ctrl-L: the frame's */
	return W_HANDLED | (r & W_REDRAW);
}

static unsigned form_event(struct tui_screen *s, const struct wevent *ev)
{
	struct order_form *f = (struct order_form *)s;
	const struct wbinding *bd;
	wkey k = ev->key;
	unsigned r;

	if (ev->type == WEV_MOUSE)
		return form_mouse(f, ev);
	bd = tui_keys_find(s->t, &keys[0], k);
	/* Space is text in a text field */
	if (bd != NULL && order_is_text_row(f->m.focus) && wkey_printable(k))
		bd = NULL;
	if (bd != NULL && (r = form_action(f, bd, ev)) != W_IGNORED)
		return r;
	if (bd == NULL && !wkey_printable(k) && !order_is_text_row(f->m.focus))
		return W_IGNORED; /* F10, Ctrl-L …: the frame's */
	if (k == '?' && !order_is_text_row(f->m.focus))
		return W_IGNORED; /* the help, the frame's */
	if (f->place_req != 0) {
		/* nothing changes while the order is on its way */
		set_note(f, on_its_way(), WR_DIM);
		return W_HANDLED;
	}
	if (order_is_text_row(f->m.focus))
		return field_key(f, ev);
	if (bd != NULL && bd->action == FK_CHOICE && k != WKEY_LEFT && k != WKEY_RIGHT && k != ' ')
		k = WKEY_RIGHT; /* a key the config file gave the choice: the next one */
	if ((bd != NULL && bd->action == FK_CHOICE) || order_model_choice_key(&f->m, k)) {
		choose(f, k == 'h' ? WKEY_LEFT : (k == 'l' && f->m.focus != ORDER_TYPE) ? WKEY_RIGHT : k);
		return W_HANDLED | W_REDRAW;
	}
	/* letters are no commands on the form (q does not lose it) */
	return wkey_printable(k) ? W_HANDLED : W_IGNORED;
}

/* While the order is on its way its note says for how long (the client
 * retries it under the same client_order_id: it is placed once). */
static void sending_clock(struct order_form *f, int64_t now, int64_t *next)
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
	}
	if (*next < 0 || tick < *next)
		*next = tick;
}

static void lower(int64_t *next, int64_t when)
{
	if (*next < 0 || when < *next)
		*next = when;
}

static void form_tick(struct tui_screen *s, int64_t now, int64_t *next)
{
	struct order_form *f = (struct order_form *)s;
	struct tui *t = s->t;
	int64_t due;

	if (t->api == NULL || f->m.gpu == NULL)
		return;
	tui_account_hurry(t);
	if (f->place_req != 0)
		sending_clock(f, now, next);
	if (f->book_req == 0 && now >= f->book_next) {
		struct api_book_query q;
		bool by;
		f->book_next = now + FORM_BOOK_MS;
		order_model_book_query(&f->m, &q, &by);
		q.depth = FORM_BOOK_DEPTH;
		f->book_req = by ? api_book_query_start(t->api, f->m.gpu, &q, on_book, f)
				 : api_book_start(t->api, f->m.gpu, FORM_BOOK_DEPTH, on_book, f);
	}
	if (f->book_req == 0)
		lower(next, f->book_next);
	if (!f->m.valid || f->pv_req != 0)
		return;
	due = !order_model_preview_current(&f->m) ? f->pv_due : f->m.pv_ms + FORM_PREVIEW_MS;
	if (f->confirm_wait)
		due = now;
	if (now >= due)
		start_preview(f);
	else
		lower(next, due);
}

/* The language changed: the labels' width, a typed price's decimal
 * separator ("4,19" is refused in English, "4.19" shown as "4,19"
 * elsewhere) and the messages follow. Shown (TN_ENTER) the book is asked
 * at once and the focused field takes the keyboard; left (TN_LEAVE), no
 * confirmation waits. */
static void form_notify(struct tui_screen *s, unsigned what)
{
	struct order_form *f = (struct order_form *)s;

	tui_page_notify(&f->page, what);
	if (what & TN_LANG) {
		order_model_set_lang(&f->m, s->t->o->lang);
		f->label_w = order_model_label_width(&f->m);
		sync_fields(f);
	}
	if (what & TN_ENTER) {
		f->book_next = 0;
		if (order_is_text_row(f->m.focus))
			wfield_focus(f->field[order_text_index(f->m.focus)], true);
	}
	if (what & TN_LEAVE) {
		f->confirm_wait = false;
		for (int i = 0; i < ORDER_NTEXT; i++)
			wfield_focus(f->field[i], false);
	}
	f->dirty = true;
}

static void form_free(struct tui_screen *s)
{
	struct order_form *f = (struct order_form *)s;
	struct tui *t = s->t;
	uint64_t reqs[] = { f->book_req, f->pv_req, f->place_req };

	/* quitting: an order on its way may still be placed (the orders screen
	 * of the next run shows it); nothing may call back into freed state */
	for (size_t i = 0; t->api != NULL && i < sizeof reqs / sizeof reqs[0]; i++)
		if (reqs[i] != 0)
			api_abandon(t->api, reqs[i]);
	order_model_free(&f->m);
	free(f->coid);
	free(f->placing_gpu);
	free(f->confirm_text);
	free(f->book_key);
}

/* The F-key bar offers F8 only while an outcome is unknown. */
static bool form_offers(const struct tui_screen *s, int action)
{
	const struct order_form *f = (const struct order_form *)s;

	return action != FK_RESEND || (f->unknown && f->place_req == 0);
}

const struct tui_screen_class tui_order_form_class = {
	.name = "order-form", .flags = TS_OPAQUE | TS_PAGE,
	.layout = form_layout, .recalc = form_recalc, .cursor = form_cursor, .event = form_event,
	.tick = form_tick, .notify = form_notify, .help = form_help, .offers = form_offers,
	.free = form_free, .keys = keys, .n_keys = 1,
};

/* ---- opening -------------------------------------------------------------------------------------------------- */

static struct order_form *form_new(struct tui *t)
{
	struct order_form *f = xcalloc(1, sizeof *f);
	static const char *const history[ORDER_NTEXT] = { "order.gpus", "order.hours", "order.price",
							  "order.regions", "order.cpu", "order.ram",
							  "order.disk", "order.trigger" };

	tui_page_init(&f->page, &tui_order_form_class, t, TUI_ORDER_FORM);
	order_model_init(&f->m, t->cat, t->o->lang, t->ascii);
	f->left = (struct wpanel *)tui_screen_add(&f->page.base, &wpanel_new(&t->ui)->base);
	f->right = (struct wpanel *)tui_screen_add(&f->page.base, &wpanel_new(&t->ui)->base);
	/* over the left panel's rows: copied again whenever it is */
	for (int i = 0; i < ORDER_NTEXT; i++)
		f->field[i] = (struct wfield *)tui_screen_add(
			&f->page.base, &wfield_new_readline(&t->ui, "", i < 2 ? "1" : "", history[i])->base);
	f->label_w = order_model_label_width(&f->m);
	f->seen_account = t->account.gen;
	return f;
}

/* (Re)fill the form for g->gpu; the same form again keeps what was typed. */
static void setup(struct order_form *f, const struct tui_goto *g)
{
	const char *gpu = g->gpu;
	bool sell = g->sell;
	int gpus = g->gpus, hours = g->hours;

	if (f->m.gpu != NULL && order_model_same_form(&f->m, gpu, sell, gpus, hours)) {
		/* the same form again: keep what was typed, not the last outcome */
		if (f->place_req == 0)
			set_note(f, NULL, WR_NORMAL);
		set_focus(f, ORDER_GPUS);
		return;
	}
	if (f->m.gpu == NULL || strcmp(f->m.gpu, gpu) != 0)
		f->book_next = 0;
	f->m.role = tui_account_role(tui_of(f));
	order_model_setup(&f->m, gpu, sell, gpus, hours, tui_market_ask(tui_of(f), gpu));
	if (!sell && g->node_gpus > 1)
		order_model_need(&f->m, g->node_gpus, g->interconnect); /* what runs the fit job */
	if (tui_of(f)->m.state != NULL)
		order_model_set_regions(&f->m, tui_of(f)->m.state->regions,
					tui_of(f)->m.state->n_regions);
	f->seen_state = tui_of(f)->m.state_gen;
	set_focus(f, ORDER_GPUS);
	inputs_moved(f);
	f->pv_due = 0; /* the first preview at once */
}

/* Open the form for g->gpu: buy, or sell (seller accounts only: a buyer
 * gets a message instead), gpus × hours prefilled; no gpu: the form as it
 * was left, if there is one. */
void tui_order_form_open(struct tui *t, const struct tui_goto *g)
{
	struct order_form *f = (struct order_form *)tui_find_kept(t, &tui_order_form_class);
	int role = tui_account_role(t);

	if (g->gpu == NULL && f != NULL) {
		tui_page_show(&f->page);
		return;
	}
	if (g->gpu == NULL) {
		/* TRANSLATORS: %1$s is the key back to the tables, %2$s the key that buys */
		tui_key_message(t, _("Choose a GPU in the tables (%1$s) and press %2$s to buy it"),
				"back", "buy", NULL);
		return;
	}
	if (catalog_gpu(t->cat, g->gpu) == NULL) {
		tui_key_no_selection(t);
		return;
	}
	if (g->sell && role == API_ROLE_BUYER) {
		tui_message(t, _("Your account is a buyer account: selling GPU hours needs a "
				 "seller account. Press b to buy."));
		return;
	}
	if (!g->sell && role == API_ROLE_SELLER) {
		tui_message(t, _("Your account is a seller account: buying GPU hours needs a "
				 "buyer account. Press s to sell."));
		return;
	}
	if (f == NULL)
		f = form_new(t);
	setup(f, g);
	tui_page_show(&f->page);
}
