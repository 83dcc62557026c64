/*
 * The order form (b / s / F5 on a table row, or tui_order_open from the fit
 * panel): side, type (market or limit), GPUs, hours, the limit price or the
 * market order's cap (max to pay, min to take), time in force. Beside it
 * (below it on a narrow terminal), live: the exchange's preview of exactly
 * what is typed (POST /v1/orders/preview, 300 ms after the last change and
 * every few seconds, as the market moves) and the GPU's book.
 *
 * This file is the screen: the fields, the two panels, the keys and the
 * requests; what the inputs mean and every line shown come from the pure
 * model (tui/trade/order_model.c).
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
#include "tui/trade/order_int.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "tui/trade/order_model.h"
#include "util/util.h"

enum {
	FORM_FIELD_ROW0 = ORDER_FORM_ROW0 + ORDER_GPUS, /* panel row of the GPUs field */
	FORM_BOOK_DEPTH = 10,
	FORM_MIN_TEXT_W = 8,          /* a panel's texts wrap to at least this width */
};

struct tp_form {
	struct order_model m;          /* the inputs, the preview, the book, the note */
	struct wfield *field[ORDER_NTEXT]; /* ORDER_GPUS .. ORDER_PRICE */
	struct wpanel *left, *right;
	int label_w;

	/* the exchange's preview */
	uint64_t pv_req, pv_req_gen;
	int64_t pv_due;
	bool confirm_wait;          /* Enter: confirm once the current preview is in */
	uint64_t confirm_gen;

	/* the book */
	uint64_t book_req;
	int64_t book_next;

	/* the order being placed */
	uint64_t place_req;
	int64_t place_sent_ms;      /* when it was sent (its note counts the seconds) */
	long place_secs_shown;
	char *coid;
	struct api_order_req placing;
	char *placing_gpu;
	struct view_order_ctx placing_ctx;
};

static struct tp_form *form(struct tui *t)
{
	return t->trade != NULL ? t->trade->form : NULL;
}

static void set_note(struct tp_form *f, const char *text, enum wrole role)
{
	order_model_note(&f->m, text, role);
}

/* What the model needs of the session: the exchange, the market's opening,
 * whether a preview is on its way. */
static void sync_model(struct tui *t)
{
	struct tp_form *f = form(t);
	struct tui_trade *tr = t->trade;

	f->m.have_exchange = t->api != NULL;
	f->m.pv_asking = f->pv_req != 0;
	f->m.lang = t->o->lang;
	f->m.ascii = t->ascii;
	if (tr->market != NULL)
		f->m.opens_at = tr->market->opens_at;
	else if (t->m.have_market)
		f->m.opens_at = t->m.opens_at;
	else
		f->m.opens_at = -1;
}

/* The model's texts and reasons into the fields. */
static void sync_fields(struct tp_form *f)
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

/* The inputs made a new generation: a preview of them soon. */
static void inputs_moved(struct tp_form *f)
{
	f->pv_due = util_now_ms() + TP_DEBOUNCE_MS;
	f->confirm_wait = false;
	sync_fields(f);
}

/* Something typed or chosen changed. */
static void changed(struct tui *t)
{
	struct tp_form *f = form(t);

	order_model_changed(&f->m);
	inputs_moved(f);
	if (f->place_req == 0)
		set_note(f, NULL, WR_NORMAL);
}

static int64_t quote_ask(struct tui *t)
{
	return tp_best_ask(t, form(t)->m.gpu);
}

static int role_of(const struct tui *t)
{
	const struct api_account *a = t->trade->acct;

	return a != NULL ? (int)a->role : -1;
}

void tp_form_account_changed(struct tui *t)
{
	struct tp_form *f = form(t);
	uint64_t gen;

	if (f == NULL)
		return;
	gen = f->m.gen;
	order_model_set_role(&f->m, role_of(t), quote_ask(t));
	if (f->m.gen != gen)
		inputs_moved(f);
}

/* ---- set-up --------------------------------------------------------------------------------------- */

static void set_focus(struct tui *t, int row)
{
	struct tp_form *f = form(t);

	if (order_is_text_row(f->m.focus))
		wfield_focus(f->field[f->m.focus - ORDER_GPUS], false);
	f->m.focus = row;
	if (order_is_text_row(row) && t->trade->page == TP_FORM)
		wfield_focus(f->field[row - ORDER_GPUS], true);
}

void tp_form_setup(struct tui *t, const char *gpu, bool sell, int gpus, int hours)
{
	struct tui_trade *tr = tp_get(t);
	struct tp_form *f = tr->form;

	if (f == NULL) {
		f = tr->form = xcalloc(1, sizeof *f);
		order_model_init(&f->m, t->cat, t->o->lang, t->ascii);
		f->left = wpanel_new(&t->ui);
		f->right = wpanel_new(&t->ui);
		f->field[0] = wfield_new_readline(&t->ui, "", "1", "order.gpus");
		f->field[1] = wfield_new_readline(&t->ui, "", "1", "order.hours");
		f->field[2] = wfield_new_readline(&t->ui, "", "", "order.price");
		f->label_w = order_model_label_width(&f->m);
	} else if (order_model_same_form(&f->m, gpu, sell, gpus, hours)) {
		/* the same form again: keep what was typed, not the last outcome */
		if (f->place_req == 0)
			set_note(f, NULL, WR_NORMAL);
		set_focus(t, ORDER_GPUS);
		return;
	}
	if (f->m.gpu == NULL || strcmp(f->m.gpu, gpu) != 0)
		f->book_next = 0;
	f->m.role = role_of(t);
	order_model_setup(&f->m, gpu, sell, gpus, hours, tp_best_ask(t, gpu));
	set_focus(t, ORDER_GPUS);
	inputs_moved(f);
	f->pv_due = 0; /* the first preview at once */
}

/* ---- requests and replies ----------------------------------------------------------------------------- */

static void on_book(void *ud, struct api_book *r, const struct api_error *e)
{
	struct tui *t = ud;
	struct tp_form *f = form(t);

	f->book_req = 0;
	if (e != NULL) {
		order_model_set_book_error(&f->m, tp_error_words(t, e));
	} else if (f->m.gpu != NULL && strcmp(r->gpu, f->m.gpu) == 0) {
		uint64_t gen = f->m.gen;
		if (order_model_set_book(&f->m, r, quote_ask(t)))
			f->m.pv_ms = 0; /* the book moved: the preview again, so they agree */
		if (f->m.gen != gen) {
			inputs_moved(f);
			if (f->place_req == 0)
				set_note(f, NULL, WR_NORMAL);
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
		order_model_set_preview_error(&f->m, tp_error_words(t, e));
		f->pv_due = now + TP_PREVIEW_MS;
		if (f->confirm_wait && f->pv_req_gen == f->m.gen) {
			f->confirm_wait = false;
			set_note(f, f->m.pv_error, WR_BAD);
		}
		tp_form_ops.rebuild(t);
		return;
	}
	order_model_set_preview(&f->m, r, f->pv_req_gen, now);
	if (f->confirm_wait && f->m.pv_gen == f->m.gen && t->trade->page == TP_FORM) {
		f->confirm_wait = false;
		decide(t);
	}
	tp_form_ops.rebuild(t);
}

static void start_preview(struct tui *t)
{
	struct tp_form *f = form(t);

	f->pv_req_gen = f->m.gen;
	f->pv_req = api_order_preview_start(t->api, &f->m.req, on_preview, t);
}

/* The current preview is in: refuse in words, or ask for confirmation. */
static void decide(struct tui *t)
{
	struct tp_form *f = form(t);
	char *text;

	sync_model(t);
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
	if (order_model_same_as_last(&f->m)) {
		/* Enter pressed on and on must not buy the same thing twice: the same
		 * order again is confirmed with y only */
		char *again = f->m.last_id >= 0
			? xasprintf(_("You placed this same order a moment ago (order %lld). "
				      "Place it again?\n%s"), (long long)f->m.last_id, text)
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

/* The outcome of a placed order: a dialog on the pages, else a message. */
static void show_outcome(struct tui *t, const char *title, const char *text)
{
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
		order_model_remember_last(&f->m, &f->placing, f->placing_gpu, -1); /* it may exist */
	if (e != NULL) {
		f->placing_ctx.currency = tp_currency(t); /* the account's, now */
		text = view_api_error_words(t->o->lang, e, &f->placing_ctx);
		title = e->kind == API_ERR_UNKNOWN_OUTCOME ? _("Outcome unknown") : _("Not placed");
		good = false;
	} else {
		text = view_order_result(t->o->lang, tp_gpu_name(t, o->gpu), o);
		good = !(o->status == API_ORDER_EXPIRED && o->filled_gpus == 0);
		order_model_remember_last(&f->m, &f->placing, f->placing_gpu, o->id);
		title = good ? _("Order placed") : _("Order placed: nothing filled");
		api_order_free(&o);
	}
	set_note(f, text, good ? WR_GOOD : WR_BAD);
	show_outcome(t, title, text);
	free(text);
	/* money moved: the balance, the lists, the book and the preview again */
	tp_account_soon(t);
	tp_lists_soon(t);
	f->book_next = 0;
	f->pv_due = 0;
	f->m.pv_ms = 0;
	tp_form_ops.rebuild(t);
}

static void place(struct tui *t)
{
	struct tp_form *f = form(t);

	if (f->place_req != 0 || !f->m.valid || f->confirm_gen != f->m.gen || f->m.pv == NULL)
		return;
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
		.available_minor = f->m.pv->balance_available_minor, .opens_at = -1,
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

static const char *on_its_way(void)
{
	return _("The order is on its way to the exchange: it is placed once, whatever is "
		 "pressed meanwhile.");
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
		set_note(f, on_its_way(), WR_DIM);
		return;
	}
	if (!f->m.valid) {
		set_note(f, f->m.bad, WR_BAD);
		set_focus(t, f->m.bad_row);
		return;
	}
	if (!order_model_side_allowed(&f->m, f->m.side)) {
		set_note(f, order_model_role_note(&f->m), WR_BAD);
		return;
	}
	if (order_model_preview_current(&f->m) && now - f->m.pv_ms <= TP_FRESH_MS) {
		decide(t);
		return;
	}
	f->confirm_wait = true;
	if (f->pv_req == 0)
		start_preview(t);
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

static void form_rebuild(struct tui *t)
{
	struct tp_form *f = form(t);
	struct tui_lines ls = { .ascii = t->ascii };
	int rows;

	if (f == NULL || f->m.gpu == NULL)
		return;
	sync_model(t);
	sync_fields(f);
	wpanel_begin(f->left);
	order_model_form_lines(&f->m, f->label_w, text_width(f->left), &ls);
	panel_put(f->left, &ls);
	wpanel_commit(f->left);
	wpanel_begin(f->right);
	ls.ascii = t->ascii;
	order_model_preview_lines(&f->m, text_width(f->right), &ls);
	rows = f->right->base.h - (int)ls.n;
	panel_put(f->right, &ls);
	ls.ascii = t->ascii;
	order_model_book_lines(&f->m, text_width(f->right), rows, &ls);
	panel_put(f->right, &ls);
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
	for (int i = 0; i < ORDER_NTEXT; i++)
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
	for (int i = 0; i < ORDER_NTEXT; i++) {
		if (FORM_FIELD_ROW0 + i < h && fw >= 4) {
			wwidget_place(&f->field[i]->base, y + FORM_FIELD_ROW0 + i, f->label_w, 1, fw);
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
	for (int i = 0; i < ORDER_NTEXT; i++) {
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

	if (!order_is_text_row(f->m.focus) || f->place_req != 0)
		return false;
	fd = f->field[f->m.focus - ORDER_GPUS];
	if (!wfield_cursor(fd, &y, &x))
		return false;
	wmove(fd->base.win, 0, x - fd->base.x);
	wnoutrefresh(fd->base.win);
	return true;
}

static void move_focus(struct tui *t, int dir)
{
	struct tp_form *f = form(t);

	set_focus(t, (f->m.focus + dir + ORDER_ROWS) % ORDER_ROWS);
}

/* ← → Space (or a letter) on a choice row. */
static void choose(struct tui *t, wkey k)
{
	struct tp_form *f = form(t);

	if (order_model_choose(&f->m, k, quote_ask(t))) {
		inputs_moved(f);
		if (f->place_req == 0)
			set_note(f, NULL, WR_NORMAL);
	}
}

static unsigned form_mouse(struct tui *t, const struct wevent *ev)
{
	struct tp_form *f = form(t);

	if (ev->mouse != WM_CLICK || f->place_req != 0)
		return W_HANDLED;
	for (int i = 0; i < ORDER_NTEXT; i++)
		if (wwidget_contains(&f->field[i]->base, ev->y, ev->x)) {
			set_focus(t, ORDER_GPUS + i);
			return W_HANDLED | W_REDRAW;
		}
	if (wwidget_contains(&f->left->base, ev->y, ev->x)) {
		int row = ev->y - f->left->base.y - ORDER_FORM_ROW0;
		if (row == ORDER_SIDE || row == ORDER_TYPE || row == ORDER_TIF)
			set_focus(t, row);
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

/* A bound key of the form; W_IGNORED when it is none of them. */
static unsigned form_action(struct tui *t, const struct wbinding *bd, const struct wevent *ev)
{
	struct tp_form *f = form(t);

	switch (bd->action) {
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
		if (order_is_text_row(f->m.focus) && f->place_req == 0) /* kept in the field's history */
			wwidget_handle(&f->field[f->m.focus - ORDER_GPUS]->base, ev);
		review(t);
		tp_form_ops.rebuild(t);
		return W_HANDLED | W_REDRAW;
	default:
		return W_IGNORED;
	}
}

/* A key in a text field: the field edits, the model reads it. */
static unsigned field_key(struct tui *t, const struct wevent *ev)
{
	struct tp_form *f = form(t);
	int row = f->m.focus;
	unsigned r = wwidget_handle(&f->field[row - ORDER_GPUS]->base, ev);

	if ((r & W_CHANGED) && order_model_set_text(&f->m, row, wfield_text(f->field[row - ORDER_GPUS]))) {
		changed(t);
		tp_form_ops.rebuild(t);
	}
	if (r == W_IGNORED && !wkey_printable(ev->key))
		return W_IGNORED; /* F10, Ctrl-L: the application's */
	return W_HANDLED | (r & W_REDRAW);
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
	if (bd != NULL && order_is_text_row(f->m.focus) && wkey_printable(k))
		bd = NULL;
	if (bd != NULL && (r = form_action(t, bd, ev)) != W_IGNORED)
		return r;
	if (bd == NULL && !wkey_printable(k) && !order_is_text_row(f->m.focus))
		return W_IGNORED; /* F10, Ctrl-L …: the application's */
	if (f->place_req != 0) {
		/* nothing changes while the order is on its way */
		set_note(f, on_its_way(), WR_DIM);
		tp_form_ops.rebuild(t);
		return W_HANDLED;
	}
	if (order_is_text_row(f->m.focus))
		return field_key(t, ev);
	if ((bd != NULL && bd->action == FK_CHOICE) || order_model_choice_key(&f->m, k)) {
		choose(t, k == 'h' ? WKEY_LEFT : (k == 'l' && f->m.focus != ORDER_TYPE) ? WKEY_RIGHT : k);
		tp_form_ops.rebuild(t);
		return W_HANDLED | W_REDRAW;
	}
	/* letters are no commands on the form (q does not lose it) */
	return wkey_printable(k) ? W_HANDLED : W_IGNORED;
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

	if (f == NULL || f->m.gpu == NULL)
		return;
	if (f->place_req != 0)
		sending_clock(t, f, now, next);
	if (f->book_req == 0 && now >= f->book_next) {
		f->book_next = now + TP_BOOK_MS;
		f->book_req = api_book_start(t->api, f->m.gpu, FORM_BOOK_DEPTH, on_book, t);
	}
	if (f->book_req == 0 && (*next < 0 || f->book_next < *next))
		*next = f->book_next;
	if (!f->m.valid || f->pv_req != 0)
		return;
	due = !order_model_preview_current(&f->m) ? f->pv_due : f->m.pv_ms + TP_PREVIEW_MS;
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
		if (order_is_text_row(f->m.focus))
			wfield_focus(f->field[f->m.focus - ORDER_GPUS], true);
	} else {
		f->confirm_wait = false;
		for (int i = 0; i < ORDER_NTEXT; i++)
			wfield_focus(f->field[i], false);
	}
}

static void form_fkeys(struct tui *t, struct wfkeys *k)
{
	(void)t;
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
	for (int i = 0; i < ORDER_NTEXT; i++)
		wfield_free(&f->field[i]);
	order_model_free(&f->m);
	free(f->coid);
	free(f->placing_gpu);
	free(f);
	t->trade->form = NULL;
}

/* The language changed (tui/frame/lang.c, through order_pages.c). The
 * labels' width, a typed price's decimal separator ("4,19" is refused in
 * English, "4.19" shown as "4,19" elsewhere) and the messages follow. */
void tp_form_lang_changed(struct tui *t)
{
	struct tp_form *f = form(t);

	if (f == NULL)
		return;
	order_model_set_lang(&f->m, t->o->lang);
	f->label_w = order_model_label_width(&f->m);
	sync_fields(f);
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
