/*
 * The order form as a pure model (see tui/trade/order_model.h): the inputs read
 * into one struct api_order_req exactly as typed (a number only once it
 * parses, prices as people write them in their language through
 * i18n_parse_decimal), the suggested price, the account's role, and every
 * line the form shows, made from the state as cells. Nothing here draws or
 * asks the exchange.
 */
#include "tui/trade/order_model.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "view/view.h"

enum { ORDER_WRAP_MAX = 64 };  /* lines of one wrapped text, at the most */

static char *usd(const struct order_model *m, int64_t cents)
{
	return cents < 0 ? xstrdup("—") : i18n_fmt_money(m->lang, cents, "USD");
}

static const char *gpu_name(const struct order_model *m, const char *id)
{
	const struct catalog_gpu *g = id != NULL && m->cat != NULL ? catalog_gpu(m->cat, id) : NULL;

	return g != NULL ? g->name : (id != NULL ? id : "?");
}

static void set_str(char **slot, const char *s)
{
	free(*slot);
	*slot = s != NULL ? xstrdup(s) : NULL;
}

void order_model_init(struct order_model *m, const struct catalog *cat, enum i18n_lang lang, bool ascii)
{
	memset(m, 0, sizeof *m);
	m->cat = cat;
	m->lang = lang;
	m->ascii = ascii;
	m->side = API_BUY;
	m->type = API_MARKET;
	m->tif = API_IOC;
	m->role = -1;
	m->opens_at = -1;
	m->bad_row = -1;
	m->last_id = -1;
	for (int i = 0; i < ORDER_NTEXT; i++)
		m->text[i] = xstrdup("");
}

void order_model_free(struct order_model *m)
{
	for (int i = 0; i < ORDER_NTEXT; i++) {
		free(m->text[i]);
		free(m->text_error[i]);
	}
	api_book_free(&m->book);
	api_preview_free(&m->pv);
	free(m->gpu);
	free(m->bad);
	free(m->pv_error);
	free(m->book_error);
	free(m->last_gpu);
	free(m->note);
	memset(m, 0, sizeof *m);
}

void order_model_note(struct order_model *m, const char *text, enum wrole role)
{
	set_str(&m->note, text);
	m->note_role = role;
}

/* ---- the inputs ------------------------------------------------------------------------------ */

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

static char *plain_price(const struct order_model *m, int64_t cents)
{
	return xasprintf("%lld%c%02lld", (long long)(cents / 100), i18n_decimal_sep(m->lang),
			 (long long)(cents % 100));
}

const char *order_model_price_label(const struct order_model *m)
{
	if (m->type == API_LIMIT)
		return _("Limit price/h");
	return m->side == API_BUY ? _("Max price/h") : _("Min price/h");
}

static void mark_bad(struct order_model *m, int row, char *why, const char *short_why)
{
	if (m->bad == NULL) {
		m->bad = why;
		m->bad_row = row;
	} else {
		free(why);
	}
	set_str(&m->text_error[order_text_index(row)], short_why);
}

/* Where the decimal separator is a comma, a dot between a digit and three
 * digits ("1.000") is the thousands separator its reader means: the price
 * is refused as such, never as "at most 2 decimal places". */
static bool dot_thousands(enum i18n_lang lang, const char *s)
{
	if (i18n_decimal_sep(lang) == '.')
		return false;
	for (const char *p = s; (p = strchr(p, '.')) != NULL; p++)
		if (p > s && p[-1] >= '0' && p[-1] <= '9' && strspn(p + 1, "0123456789") == 3)
			return true;
	return false;
}

static void validate_price(struct order_model *m)
{
	const char *s = m->text[order_text_index(ORDER_PRICE)];
	char *cause = NULL;
	int64_t cents = 0;

	if (strspn(s, " ") == strlen(s)) {
		const char *eg = i18n_decimal_sep(m->lang) == ',' ? "4,19" : "4.19";
		char *why;
		if (m->type == API_LIMIT)
			why = xasprintf(_("Type your price in US$ per GPU-hour, e.g. %s"), eg);
		else if (m->side == API_BUY)
			why = xasprintf(_("Type the most you would pay in US$ per GPU-hour, e.g. %s"), eg);
		else
			why = xasprintf(_("Type the least you would take in US$ per GPU-hour, e.g. %s"), eg);
		mark_bad(m, ORDER_PRICE, why, _("needed"));
	} else if (dot_thousands(m->lang, s)) {
		mark_bad(m, ORDER_PRICE, xasprintf(_("Price: %s"),
						_("a dot before three digits is a thousands "
						  "separator here: type 1000 or 1,5")),
			 _("not a price"));
	} else if (i18n_parse_decimal(m->lang, s, 2, &cents, &cause) != 0) {
		mark_bad(m, ORDER_PRICE, xasprintf(_("Price: %s"), cause != NULL ? cause : "?"),
			 _("not a price"));
		free(cause);
	} else if (cents < 1 || cents > ORDER_MAX_PRICE) {
		char *lo = usd(m, 1), *hi = usd(m, ORDER_MAX_PRICE);
		mark_bad(m, ORDER_PRICE, xasprintf(_("Price: from %s to %s per GPU-hour"), lo, hi),
			 _("out of range"));
		free(lo);
		free(hi);
	} else {
		m->req.price_cents = cents;
	}
}

/* The trigger's price, typed as any price (the When row is a trigger). */
static void validate_trigger(struct order_model *m)
{
	static const enum api_when whens[] = {
		API_WHEN_ASK_LTE, API_WHEN_ASK_GTE, API_WHEN_BID_LTE, API_WHEN_BID_GTE,
		API_WHEN_LAST_LTE, API_WHEN_LAST_GTE,
	};
	const char *s = m->text[order_text_index(ORDER_TRIGGER)];
	char *cause = NULL;
	int64_t cents = 0;

	if (strspn(s, " ") == strlen(s)) {
		mark_bad(m, ORDER_TRIGGER, xstrdup(_("Type the trigger's price in US$ per GPU-hour: "
						     "the order waits until the market reaches it")),
			 _("needed"));
	} else if (dot_thousands(m->lang, s) || i18n_parse_decimal(m->lang, s, 2, &cents, &cause) != 0) {
		mark_bad(m, ORDER_TRIGGER, xasprintf(_("Trigger price: %s"),
						     cause != NULL ? cause : _("not a price")),
			 _("not a price"));
		free(cause);
	} else if (cents < 1 || cents > ORDER_MAX_PRICE) {
		char *lo = usd(m, 1), *hi = usd(m, ORDER_MAX_PRICE);
		mark_bad(m, ORDER_TRIGGER, xasprintf(_("Trigger price: from %s to %s per GPU-hour"), lo,
						     hi),
			 _("out of range"));
		free(lo);
		free(hi);
	} else {
		m->req.has_trigger = true;
		m->req.trigger_when = whens[m->when - ORDER_IF_ASK_LTE];
		m->req.trigger_price_cents = cents;
	}
}

/* A standing order is a limit buy, good till cancelled. */
static void validate_when(struct order_model *m)
{
	if (m->when == ORDER_STANDING) {
		if (m->side != API_BUY || m->type != API_LIMIT || m->tif != API_GTC) {
			if (m->bad == NULL) {
				m->bad = xstrdup(_("A standing order is a limit buy, good till "
						   "cancelled: choose Buy, Limit and GTC"));
				m->bad_row = ORDER_WHEN;
			}
		} else {
			m->req.standing = true;
		}
	} else if (m->when >= ORDER_IF_ASK_LTE) {
		validate_trigger(m);
	}
}

void order_model_validate(struct order_model *m)
{
	free(m->bad);
	m->bad = NULL;
	m->bad_row = -1;
	for (int i = 0; i < ORDER_NTEXT; i++)
		set_str(&m->text_error[i], NULL);
	memset(&m->req, 0, sizeof m->req);
	m->req.gpu = m->gpu;
	m->req.side = m->side;
	m->req.type = m->type;
	m->req.tif = m->tif;
	if (!parse_count(m->text[0], 1, ORDER_MAX_GPUS, &m->req.gpus))
		mark_bad(m, ORDER_GPUS, xasprintf(_("GPUs: a whole number from 1 to %d"), ORDER_MAX_GPUS),
			 _("1 to 512"));
	if (!parse_count(m->text[1], 1, ORDER_MAX_HOURS, &m->req.hours))
		mark_bad(m, ORDER_HOURS, xasprintf(_("Hours: a whole number from 1 to %d"), ORDER_MAX_HOURS),
			 _("1 to 720"));
	validate_price(m);
	validate_when(m);
	m->valid = m->bad == NULL;
}

void order_model_changed(struct order_model *m)
{
	order_model_validate(m);
	m->gen++;
}

bool order_model_set_text(struct order_model *m, int row, const char *text)
{
	char **slot = &m->text[order_text_index(row)];

	if (strcmp(*slot, text) == 0)
		return false;
	set_str(slot, text);
	if (row == ORDER_PRICE)
		m->price_touched = true;
	return true;
}

/* The model writes a field's text (the screen copies it into the field). */
static void put_text(struct order_model *m, int row, const char *text)
{
	if (strcmp(m->text[order_text_index(row)], text) == 0)
		return;
	set_str(&m->text[order_text_index(row)], text);
	m->text_changed[order_text_index(row)] = true;
}

void order_model_suggest_price(struct order_model *m, int64_t quote_ask)
{
	const struct api_book *b = m->book;
	int64_t ask = b != NULL && b->n_asks > 0 ? b->asks[0].price_cents : quote_ask;
	int64_t bid = b != NULL && b->n_bids > 0 ? b->bids[0].price_cents : -1;
	int64_t p = -1;
	char *s;

	if (m->price_touched)
		return;
	if (m->side == API_BUY)
		p = m->type == API_MARKET ? (ask >= 0 ? (ask * 11 / 10 + 9) / 10 * 10 : -1) : ask;
	else if (m->type == API_MARKET)
		p = bid >= 0 ? bid * 9 / 10 / 10 * 10 : -1;
	else
		p = ask >= 0 ? ask : bid;
	if (p == 0)
		p = 1;
	if (p > ORDER_MAX_PRICE)
		p = ORDER_MAX_PRICE;
	s = p > 0 ? plain_price(m, p) : xstrdup("");
	put_text(m, ORDER_PRICE, s);
	free(s);
}

bool order_model_same_form(const struct order_model *m, const char *gpu, bool sell, int gpus, int hours)
{
	return m->gpu != NULL && strcmp(m->gpu, gpu) == 0 && gpus <= 0 && hours <= 0 &&
	       (m->side == API_SELL) == sell;
}

void order_model_setup(struct order_model *m, const char *gpu, bool sell, int gpus, int hours, int64_t ask)
{
	char *g, *h;

	if (m->gpu == NULL || strcmp(m->gpu, gpu) != 0) {
		set_str(&m->gpu, gpu);
		api_book_free(&m->book);
		set_str(&m->book_error, NULL);
	}
	m->side = sell ? API_SELL : API_BUY;
	m->type = API_MARKET;
	m->tif = API_IOC;
	m->when = ORDER_NOW;
	m->price_touched = false;
	g = xasprintf("%d", gpus > 0 ? gpus : 1);
	h = xasprintf("%d", hours > 0 ? hours : 1);
	put_text(m, ORDER_GPUS, g);
	put_text(m, ORDER_HOURS, h);
	free(g);
	free(h);
	order_model_suggest_price(m, ask);
	order_model_changed(m);
	order_model_note(m, NULL, WR_NORMAL);
}

/* ---- the account's role and the choices ---------------------------------------------------------- */

bool order_model_side_allowed(const struct order_model *m, enum api_side side)
{
	if (m->role < 0 || m->role == API_ROLE_BOTH)
		return true;
	return side == API_BUY ? m->role == API_ROLE_BUYER : m->role == API_ROLE_SELLER;
}

const char *order_model_role_note(const struct order_model *m)
{
	return m->role == API_ROLE_SELLER
		? _("Your account is a seller account: selling GPU hours is what it can do.")
		: _("Your account is a buyer account: selling GPU hours needs a seller account.");
}

void order_model_set_role(struct order_model *m, int role, int64_t ask)
{
	m->role = role;
	if (m->gpu == NULL || order_model_side_allowed(m, m->side))
		return;
	m->side = m->side == API_BUY ? API_SELL : API_BUY;
	order_model_suggest_price(m, ask);
	order_model_changed(m);
	order_model_note(m, order_model_role_note(m), WR_BAD);
}

static bool choose_side(struct order_model *m, wkey k)
{
	enum api_side s = k == 'b' ? API_BUY : k == 's' ? API_SELL
		: (m->side == API_BUY ? API_SELL : API_BUY);

	if (s == m->side)
		return false;
	if (!order_model_side_allowed(m, s)) {
		order_model_note(m, order_model_role_note(m), WR_BAD);
		return false;
	}
	m->side = s;
	if (m->when == ORDER_STANDING)
		m->when = ORDER_NOW;   /* a standing order buys */
	return true;
}

static void choose_tif(struct order_model *m, wkey k, int dir)
{
	if (k == 'g' && m->type == API_LIMIT)
		m->tif = API_GTC;
	else if (k == 'i')
		m->tif = API_IOC;
	else if (k == 'f')
		m->tif = API_FOK;
	else if (m->type == API_MARKET)
		m->tif = m->tif == API_IOC ? API_FOK : API_IOC;
	else
		m->tif = (enum api_tif)(((int)m->tif + dir + 3) % 3);
}

/* The book's price of what a trigger watches (-1: none): for the trigger's
 * field when nothing is typed there. */
static int64_t watched_price(const struct order_model *m, int64_t quote_ask)
{
	const struct api_book *b = m->book;

	switch (m->when) {
	case ORDER_IF_ASK_LTE:
	case ORDER_IF_ASK_GTE:
		return b != NULL && b->n_asks > 0 ? b->asks[0].price_cents : quote_ask;
	case ORDER_IF_BID_LTE:
	case ORDER_IF_BID_GTE:
		return b != NULL && b->n_bids > 0 ? b->bids[0].price_cents : -1;
	default:
		return b != NULL && b->n_asks > 0 ? b->asks[0].price_cents : quote_ask;
	}
}

/* Step the When row; a standing order only for a buy (it is one: Limit,
 * GTC are chosen with it). */
static void choose_when(struct order_model *m, int dir, int64_t ask)
{
	do
		m->when = (enum order_when)(((int)m->when + dir + ORDER_WHENS) % ORDER_WHENS);
	while (m->when == ORDER_STANDING && m->side != API_BUY);
	if (m->when == ORDER_STANDING) {
		m->type = API_LIMIT;
		m->tif = API_GTC;
	}
	if (m->when >= ORDER_IF_ASK_LTE && m->text[order_text_index(ORDER_TRIGGER)][0] == '\0') {
		int64_t p = watched_price(m, ask);
		if (p > 0) {
			char *t = plain_price(m, p);
			put_text(m, ORDER_TRIGGER, t);
			free(t);
		}
	}
}

bool order_model_choose(struct order_model *m, wkey k, int64_t ask)
{
	switch (m->focus) {
	case ORDER_SIDE:
		if (!choose_side(m, k))
			return false;
		break;
	case ORDER_TYPE:
		m->type = k == 'm' ? API_MARKET : k == 'l' ? API_LIMIT
			: (m->type == API_MARKET ? API_LIMIT : API_MARKET);
		if (m->type == API_MARKET && m->tif == API_GTC)
			m->tif = API_IOC;
		if (m->type == API_LIMIT && m->tif == API_IOC)
			m->tif = API_GTC;
		break;
	case ORDER_TIF:
		choose_tif(m, k, k == WKEY_LEFT ? -1 : 1);
		break;
	case ORDER_WHEN:
		choose_when(m, k == WKEY_LEFT || k == 'h' ? -1 : 1, ask);
		break;
	default:
		return false;
	}
	order_model_suggest_price(m, ask);
	order_model_changed(m);
	return true;
}

bool order_model_choice_key(const struct order_model *m, wkey k)
{
	return k == 'h' || k == 'l' || (m->focus == ORDER_SIDE && (k == 'b' || k == 's')) ||
	       (m->focus == ORDER_TYPE && k == 'm') ||
	       (m->focus == ORDER_TIF && (k == 'g' || k == 'i' || k == 'f'));
}

/* ---- the exchange's answers ------------------------------------------------------------------------ */

bool order_model_set_book(struct order_model *m, struct api_book *b, int64_t ask)
{
	bool first = m->book == NULL;
	bool moved = !first && b->seq != m->book->seq;

	set_str(&m->book_error, NULL);
	api_book_free(&m->book);
	m->book = b;
	if (first && m->text[order_text_index(ORDER_PRICE)][0] == '\0') {
		order_model_suggest_price(m, ask);
		order_model_changed(m);
	}
	return moved;
}

void order_model_set_book_error(struct order_model *m, char *words)
{
	free(m->book_error);
	m->book_error = words;
}

void order_model_set_preview(struct order_model *m, struct api_preview *pv, uint64_t gen, int64_t now)
{
	set_str(&m->pv_error, NULL);
	api_preview_free(&m->pv);
	m->pv = pv;
	m->pv_gen = gen;
	m->pv_ms = now;
}

void order_model_set_preview_error(struct order_model *m, char *words)
{
	free(m->pv_error);
	m->pv_error = words;
}

bool order_model_preview_current(const struct order_model *m)
{
	return m->pv != NULL && m->pv_gen == m->gen;
}

char *order_model_reject_words(const struct order_model *m, const struct api_preview *p)
{
	struct view_order_ctx x = {
		.currency = p->currency, .required_minor = p->hold_minor,
		.available_minor = p->balance_available_minor, .opens_at = m->opens_at,
	};

	return view_refusal_text(m->lang, p->reject_code, p->reject_message, &x);
}

bool order_model_same_as_last(const struct order_model *m)
{
	const struct api_order_req *a = &m->req, *b = &m->last;

	return m->last_gpu != NULL && m->gpu != NULL && strcmp(m->last_gpu, m->gpu) == 0 &&
	       a->side == b->side && a->type == b->type && a->gpus == b->gpus &&
	       a->hours == b->hours && a->price_cents == b->price_cents && a->tif == b->tif &&
	       a->has_trigger == b->has_trigger && a->standing == b->standing &&
	       (!a->has_trigger || (a->trigger_when == b->trigger_when &&
				    a->trigger_price_cents == b->trigger_price_cents));
}

void order_model_remember_last(struct order_model *m, const struct api_order_req *r, const char *gpu,
		      int64_t id)
{
	m->last = *r;
	m->last.client_order_id = NULL;
	set_str(&m->last_gpu, gpu);
	m->last.gpu = m->last_gpu;
	m->last_id = id;
}

char *order_model_summary(const struct order_model *m)
{
	return view_order_summary(m->lang, gpu_name(m, m->gpu), &m->req, m->pv);
}

void order_model_set_lang(struct order_model *m, enum i18n_lang lang)
{
	static const int rows[] = { ORDER_PRICE, ORDER_TRIGGER };
	char to = i18n_decimal_sep(lang), from = to == '.' ? ',' : '.';

	m->lang = lang;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char *s = xstrdup(m->text[order_text_index(rows[i])]);
		bool conv = false;
		for (char *p = s; *p != '\0'; p++) {
			if (*p == from && p > s && isdigit((unsigned char)p[-1]) &&
			    isdigit((unsigned char)p[1])) {
				*p = to;
				conv = true;
			}
		}
		if (conv)
			put_text(m, rows[i], s);
		free(s);
	}
	order_model_validate(m);
}

int order_model_label_width(const struct order_model *m)
{
	const char *labels[] = { _("Side"), _("Type"), _("GPUs"), _("Hours"), _("Limit price/h"),
				 _("Max price/h"), _("Min price/h"), _("In force"),
				 C_("order form row", "When"), _("Trigger/h") };
	int w = 0;

	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
		int lw = wtext_width(labels[i], m->ascii);
		if (lw > w)
			w = lw;
	}
	return w + 2;
}

/* ---- the form's lines ------------------------------------------------------------------------------- */

static void choice_line(struct tui_lines *out, int label_w, const char *label, const char *value,
			bool focused)
{
	struct wcells *c = tui_lines_add(out);
	enum wrole r = focused ? WR_FIELD_FOCUS : WR_FIELD;

	wcells_add(c, label, focused ? WR_NORMAL : WR_DIM, focused ? WAT_BOLD : 0);
	wcells_pad(c, label_w - c->width, WR_NORMAL);
	wcells_add_sym(c, WSYM_MORE_LEFT, r, 0);
	wcells_add(c, " ", r, 0);
	wcells_add(c, value, r, 0);
	wcells_add(c, " ", r, 0);
	wcells_add_sym(c, WSYM_MORE_RIGHT, r, 0);
}

static void label_line(struct tui_lines *out, const char *label, bool focused)
{
	wcells_add(tui_lines_add(out), label, focused ? WR_NORMAL : WR_DIM, focused ? WAT_BOLD : 0);
}

static const char *tif_short(enum api_tif tif)
{
	switch (tif) {
	case API_GTC: return "GTC";
	case API_FOK: return "FOK";
	default: return "IOC";
	}
}

/* The When row's value, short. */
static const char *when_short(const struct order_model *m)
{
	bool a = m->ascii;

	switch (m->when) {
	case ORDER_STANDING: return _("Standing");
	case ORDER_IF_ASK_LTE: return a ? _("If ask <=") : _("If ask ≤");
	case ORDER_IF_ASK_GTE: return a ? _("If ask >=") : _("If ask ≥");
	case ORDER_IF_BID_LTE: return a ? _("If bid <=") : _("If bid ≤");
	case ORDER_IF_BID_GTE: return a ? _("If bid >=") : _("If bid ≥");
	case ORDER_IF_LAST_LTE: return a ? _("If last <=") : _("If last ≤");
	case ORDER_IF_LAST_GTE: return a ? _("If last >=") : _("If last ≥");
	default: return _("Now");
	}
}

/* What the focused row means, when there is nothing else to say. */
static const char *explain(const struct order_model *m)
{
	switch (m->focus) {
	case ORDER_SIDE:
		return _("Buy rents GPUs for exactly the hours below; sell offers yours for up "
			 "to those hours.");
	case ORDER_TYPE:
		return m->type == API_MARKET
			? _("Market: fills now at the best asks, never above your max price.")
			: _("Limit: your price or better; what does not fill can wait on the book.");
	case ORDER_GPUS:
		return _("How many GPUs, 1 to 512.");
	case ORDER_HOURS:
		return m->side == API_BUY
			? _("Rented for exactly these hours, billed at the start of each hour "
			    "(1 to 720).")
			: _("Offered for up to these hours (1 to 720).");
	case ORDER_PRICE:
		if (m->type == API_LIMIT)
			return _("Per GPU-hour in US$, before tax; trades happen at the resting "
				 "order's price.");
		return m->side == API_BUY
			? _("The most to pay per GPU-hour in US$, before tax; the hold is sized at "
			    "it and the difference comes back.")
			: _("The least to take per GPU-hour in US$.");
	case ORDER_TIF:
		return view_tif_text(m->lang, m->tif, m->type == API_MARKET);
	case ORDER_WHEN:
		if (m->when == ORDER_NOW)
			return _("Now: the order goes to the market at once. ← →: standing, or "
				 "waiting for a trigger.");
		if (m->when == ORDER_STANDING)
			return _("Standing: it keeps these GPUs, period after period of these hours, "
				 "at your limit or less: each rental is extended before it ends while "
				 "your balance holds the next period.");
		return _("It waits off the book, its hold taken now, until the trigger below "
			 "holds while the market is open; then it enters the book as a new order.");
	case ORDER_TRIGGER:
		return m->when >= ORDER_IF_ASK_LTE
			? _("The price in US$ per GPU-hour the market must reach before the order "
			    "enters the book.")
			: _("Used only when the order waits for a trigger (the When row).");
	default:
		return NULL;
	}
}

/* "Buy H200 · NVIDIA Hopper · 141 GB", then the best prices. */
static void title_lines(const struct order_model *m, int width, struct tui_lines *out)
{
	const struct catalog_gpu *g = m->cat != NULL ? catalog_gpu(m->cat, m->gpu) : NULL;
	struct wcells *c = tui_lines_add(out);
	char *x;

	x = xasprintf(m->side == API_BUY ? _("Buy %s") : _("Sell %s"), gpu_name(m, m->gpu));
	wcells_add(c, x, WR_NORMAL, WAT_BOLD);
	free(x);
	if (g != NULL) {
		char *mem = i18n_fmt_unit(m->lang, g->memory_gb, 0, "GB");
		x = xasprintf(" · %s %s · %s", g->vendor, g->arch, mem);
		wcells_add(c, x, WR_DIM, 0);
		free(x);
		free(mem);
	}
	c = tui_lines_add(out);
	if (m->book != NULL) {
		char *a = usd(m, m->book->n_asks ? m->book->asks[0].price_cents : -1);
		char *b = usd(m, m->book->n_bids ? m->book->bids[0].price_cents : -1);
		x = xasprintf(_("best ask %s · best bid %s"), a, b);
		if (wtext_width(x, m->ascii) <= width) {
			wcells_add(c, x, WR_DIM, 0);
		} else {
			/* too narrow for one line: the bid on the blank line under it */
			char *ask = xasprintf(_("best ask %s"), a), *bid = xasprintf(_("best bid %s"), b);
			wcells_add(c, ask, WR_DIM, 0);
			wcells_add(tui_lines_add(out), bid, WR_DIM, 0);
			free(ask);
			free(bid);
			free(x);
			free(a);
			free(b);
			return;
		}
		free(x);
		free(a);
		free(b);
	}
	tui_lines_add(out);
}

void order_model_form_lines(const struct order_model *m, int label_w, int width, struct tui_lines *out)
{
	title_lines(m, width, out);
	choice_line(out, label_w, _("Side"), m->side == API_BUY ? _("Buy") : _("Sell"),
		    m->focus == ORDER_SIDE);
	choice_line(out, label_w, _("Type"), m->type == API_MARKET ? _("Market") : _("Limit"),
		    m->focus == ORDER_TYPE);
	label_line(out, _("GPUs"), m->focus == ORDER_GPUS);
	label_line(out, _("Hours"), m->focus == ORDER_HOURS);
	label_line(out, order_model_price_label(m), m->focus == ORDER_PRICE);
	choice_line(out, label_w, _("In force"), tif_short(m->tif), m->focus == ORDER_TIF);
	choice_line(out, label_w, C_("order form row", "When"), when_short(m), m->focus == ORDER_WHEN);
	label_line(out, _("Trigger/h"), m->focus == ORDER_TRIGGER);
	tui_lines_add(out);
	if (m->note != NULL)
		tui_lines_wrap(out, m->note, width, ORDER_WRAP_MAX, m->note_role, 0);
	else if (!m->valid && m->bad_row == m->focus)
		tui_lines_wrap(out, m->bad, width, ORDER_WRAP_MAX, WR_BAD, 0);
	else
		tui_lines_wrap(out, explain(m), width, ORDER_WRAP_MAX, WR_DIM, 0);
}

/* ---- the preview's lines ------------------------------------------------------------------------------ */

/* How the preview's lines are made: the width, the labels' column. */
struct pv_out {
	const struct order_model *m;
	struct tui_lines *out;
	int width, lw;
};

/* "label   value": value is words (atoms) that are never split; what does
 * not fit beside the label goes on under it, aligned with the value, so a
 * number is never cut. */
static void kv_atoms(struct pv_out *o, const char *label, const char *const *atoms, size_t n,
		     enum wrole role, unsigned attrs)
{
	struct wcells *c = tui_lines_add(o->out);
	int col, used = 0;

	wcells_pad(c, 2, WR_NORMAL);
	wcells_add(c, label, WR_DIM, 0);
	col = c->width + 1 > 2 + o->lw ? c->width + 1 : 2 + o->lw;
	wcells_pad(c, col - c->width, WR_NORMAL);
	for (size_t i = 0; i < n; i++) {
		int w = wtext_width(atoms[i], o->m->ascii);
		if (used > 0 && col + used + 1 + w > o->width) {
			c = tui_lines_add(o->out);
			wcells_pad(c, col, WR_NORMAL);
			used = 0;
		} else if (used > 0) {
			wcells_add(c, " ", role, attrs);
			used++;
		}
		wcells_add(c, atoms[i], role, attrs);
		used += w;
	}
}

static void kv(struct pv_out *o, const char *label, const char *value, enum wrole role,
	       unsigned attrs)
{
	kv_atoms(o, label, &value, 1, role, attrs);
}

static void kv_money(struct pv_out *o, const char *label, int64_t minor, const char *ccy,
		     unsigned attrs)
{
	char *s = i18n_fmt_money(o->m->lang, minor, ccy);

	kv(o, label, s, WR_NORMAL, attrs);
	free(s);
}

static void text(struct pv_out *o, const char *s, enum wrole role)
{
	tui_lines_wrap(o->out, s, o->width, ORDER_WRAP_MAX, role, 2);
}

/* The labels' column: the widest label and two blanks, at least 12. */
static int preview_label_width(const struct order_model *m)
{
	const char *labels[] = { _("Fills now"), _("Waits on book"), _("Not filled"), _("Before tax"),
				 _("Total"), _("Held"), _("You are paid"), _("Available"), _("Rate") };
	int lw = 0;

	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
		int w = wtext_width(labels[i], m->ascii);
		if (w > lw)
			lw = w;
	}
	lw += 2;
	return lw < 12 ? 12 : lw;
}

/* Fills now (one entry per price level), what waits on the book, what is
 * not filled. */
static void preview_fills(struct pv_out *o, const struct api_preview *v)
{
	const struct order_model *m = o->m;
	struct api_preview_fill *lv = xreallocarray(NULL, v->n_fills + 1, sizeof *lv);
	size_t n = view_fill_levels(v->fills, v->n_fills, lv);
	char **atoms = xreallocarray(NULL, n + 1, sizeof *atoms);
	char *x;

	for (size_t i = 0; i < n; i++) {
		char *pr = usd(m, lv[i].price_cents);
		atoms[i] = xasprintf("%lld × %s%s", (long long)lv[i].gpus, pr, i + 1 < n ? "," : "");
		free(pr);
	}
	if (n > 0)
		kv_atoms(o, _("Fills now"), (const char *const *)atoms, n,
			 v->fill_gpus > 0 ? WR_NORMAL : WR_BAD, 0);
	else
		kv(o, _("Fills now"), _("nothing"),
		   v->would_status == API_ORDER_WAITING ? WR_DIM : WR_BAD, 0);
	for (size_t i = 0; i < n; i++)
		free(atoms[i]);
	free(atoms);
	free(lv);
	if (v->rest_gpus > 0) {
		x = xasprintf(P_("%lld GPU", "%lld GPUs", (unsigned long)v->rest_gpus),
			      (long long)v->rest_gpus);
		kv(o, _("Waits on book"), x, WR_NORMAL, 0);
		free(x);
	}
	if (v->expire_gpus > 0) {
		x = xasprintf(P_("%lld GPU", "%lld GPUs", (unsigned long)v->expire_gpus),
			      (long long)v->expire_gpus);
		kv(o, _("Not filled"), x, WR_BAD, 0);
		free(x);
	}
}

/* The money: before tax, VAT, total (or what a seller is paid), the hold,
 * the balance before and after, the exchange rate. */
static void preview_money(struct pv_out *o, const struct api_preview *v)
{
	const struct order_model *m = o->m;
	char *x;

	if (v->side == API_BUY && v->fill_gpus > 0) {
		char *bp = i18n_fmt_percent(m->lang, (double)v->vat_rate_bp / 100.0,
					    v->vat_rate_bp % 100 != 0 ? 2 : 0);
		kv_money(o, _("Before tax"), v->net_minor, v->currency, 0);
		x = xasprintf(_("VAT %s"), bp);
		kv_money(o, x, v->vat_minor, v->currency, 0);
		free(x);
		free(bp);
		kv_money(o, _("Total"), v->total_minor, v->currency, WAT_BOLD);
	} else if (v->side == API_SELL && v->fill_gpus > 0) {
		kv_money(o, _("You are paid"), v->total_minor, v->currency, WAT_BOLD);
	}
	if (v->side == API_BUY && v->would_status == API_ORDER_WAITING)
		kv_money(o, _("Held"), v->hold_minor, v->currency, 0);
	else if (v->side == API_BUY && v->rest_gpus > 0)
		kv_money(o, _("Held"), v->rest_gpus * v->hours * v->unit_minor, v->currency, 0);
	{
		/* "€5,000.00 → €4,088.00", the after part under the before part
		 * where the two do not fit */
		char *a = i18n_fmt_money(m->lang, v->balance_available_minor, v->currency);
		char *b = i18n_fmt_money(m->lang, v->balance_after_minor, v->currency);
		char *from = xasprintf("%s %s", a, wsym(WSYM_ARROW_RIGHT, m->ascii));
		const char *atoms[2] = { from, b };
		kv_atoms(o, _("Available"), atoms, 2,
			 v->balance_after_minor < 0 ? WR_BAD : WR_NORMAL, 0);
		free(from);
		free(a);
		free(b);
	}
	if (strcmp(v->currency, "USD") != 0) {
		char *fx = i18n_fmt_number(m->lang, (double)v->fx_rate_micro / 1e6, 4);
		x = xasprintf("1 USD = %s %s", fx, v->currency);
		kv(o, _("Rate"), x, WR_DIM, 0);
		free(x);
		free(fx);
	}
}

/* A refusal, no liquidity, a limit far from the market. */
static void preview_warnings(struct pv_out *o, const struct api_preview *v)
{
	const struct order_model *m = o->m;

	if (v->reject_code != NULL) {
		/* said once: not again when the note under the fields says it */
		char *w = order_model_reject_words(m, v);
		if (m->note == NULL || strcmp(m->note, w) != 0)
			text(o, w, WR_BAD);
		free(w);
	} else if (v->would_status == API_ORDER_WAITING) {
		/* a conditional order: it waits off the book, whatever the book holds */
		text(o, v->trigger_holds == 1
		     ? _("Its trigger holds now, but the market is not open: nothing fills now.")
		     : _("Its trigger does not hold now: nothing fills now."), WR_DIM);
	} else if (v->fill_gpus == 0 && v->rest_gpus == 0) {
		text(o, v->side == API_BUY
		     ? _("No liquidity: no GPUs offered at this price or lower for these "
			 "hours; nothing would fill now.")
		     : _("No liquidity: no bid at this price or higher for these hours or "
			 "fewer; nothing would fill now."), WR_BAD);
	} else if (v->fill_gpus == 0 && v->type == API_LIMIT) {
		text(o, _("Nothing fills at this price now: the order would wait on the book."),
		     WR_DIM);
	}
	if (v->type == API_LIMIT) {
		const struct api_book *b = m->book;
		int64_t ask = b && b->n_asks ? b->asks[0].price_cents : -1;
		int64_t bid = b && b->n_bids ? b->bids[0].price_cents : -1;
		int64_t ref = v->side == API_BUY ? ask : (bid >= 0 ? bid : ask);
		if (ref > 0 && (v->price_cents * 10 < ref * 8 || v->price_cents * 10 > ref * 12)) {
			char *r = usd(m, ref);
			char *x = xasprintf(v->side == API_BUY
					    ? _("Your limit is far from the market: the best ask is %s.")
					    : _("Your limit is far from the market: the best bid is %s."),
					    r);
			text(o, x, WR_BAD);
			free(x);
			free(r);
		}
	}
}

void order_model_preview_lines(const struct order_model *m, int width, struct tui_lines *out)
{
	struct pv_out o = { m, out, width, preview_label_width(m) };
	const struct api_preview *v = m->pv;
	bool current = order_model_preview_current(m);
	struct wcells *c = tui_lines_add(out);

	wcells_pad(c, 1, WR_NORMAL);
	wcells_add(c, _("Preview by the exchange"), WR_HEADER, 0);
	if (m->valid && !current && (v != NULL || m->pv_asking)) {
		wcells_pad(c, 1, WR_NORMAL);
		wcells_add(c, _("updating…"), WR_DIM, 0);
	}
	if (!m->have_exchange)
		text(&o, _("No exchange: orders need one (see the status bar)."), WR_BAD);
	else if (!m->valid)
		text(&o, _("Fix the marked field to see the price."), WR_DIM);
	else if (m->pv_error != NULL && !current)
		text(&o, m->pv_error, WR_BAD);
	else if (v == NULL || (m->gpu != NULL && strcmp(v->gpu, m->gpu) != 0))
		text(&o, _("Asking the exchange…"), WR_DIM);
	else {
		preview_fills(&o, v);
		preview_money(&o, v);
		preview_warnings(&o, v);
	}
}

/* ---- the book's lines ----------------------------------------------------------------------------------- */

/* The book's side column: as wide as the wider of the two translated words
 * ("ask"/"bid", pt "compra"), at least 3 and at most 10 columns. */
static int side_width(const struct order_model *m)
{
	int a = wtext_width(C_("book side", "ask"), m->ascii);
	int b = wtext_width(C_("book side", "bid"), m->ascii);
	int w = a > b ? a : b;

	return w < 3 ? 3 : w > 10 ? 10 : w;
}

/* One column of a book line: text fitted to w columns. */
static void column(struct wcells *c, const char *s, int w, enum walign al, enum wrole role,
		   unsigned attrs, bool ascii)
{
	struct wcells col;

	wcells_init(&col, ascii);
	wcells_add(&col, s, role, attrs);
	wcells_fit(&col, w, al, WR_NORMAL);
	wcells_cat(c, &col);
	wcells_free(&col);
}

/* Side, price, GPUs, orders; a gap between GPUs and a long "Orders". */
static void book_row(const struct order_model *m, struct wcells *c, const char *side,
		     const char *price, const char *gpus, const char *orders, bool head, bool best)
{
	wcells_pad(c, 2, WR_NORMAL);
	if (head)
		wcells_pad(c, side_width(m), WR_NORMAL);
	else
		column(c, side, side_width(m), WALIGN_LEFT, WR_DIM, 0, m->ascii);
	column(c, price, 12, WALIGN_RIGHT, head ? WR_DIM : WR_NORMAL, best ? WAT_BOLD : 0, m->ascii);
	column(c, gpus, 7, WALIGN_RIGHT, head ? WR_DIM : WR_NORMAL, 0, m->ascii);
	wcells_pad(c, 1, WR_NORMAL);
	column(c, orders, 8, WALIGN_RIGHT, WR_DIM, 0, m->ascii);
}

static void level_line(const struct order_model *m, struct tui_lines *out, const char *side,
		       const struct api_level *l, bool best)
{
	char *pr = usd(m, l->price_cents);
	char *g = i18n_fmt_number(m->lang, (double)l->gpus, 0);
	char *o = i18n_fmt_number(m->lang, (double)l->orders, 0);

	book_row(m, tui_lines_add(out), side, pr, g, o, false, best);
	free(pr);
	free(g);
	free(o);
}

/* The asks above the spread line, the bids below, as many as room allows. */
static void book_levels(const struct order_model *m, struct tui_lines *out, int width, int room)
{
	const struct api_book *b = m->book;
	struct wcells *c;
	int k, kb;

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
			level_line(m, out, C_("book side", "ask"), &b->asks[i], i == 0);
	if (b->n_asks == 0)
		tui_lines_wrap(out, _("no asks: nobody sells now"), width, ORDER_WRAP_MAX, WR_DIM, 2);
	c = tui_lines_add(out);
	wcells_pad(c, 2, WR_NORMAL);
	if (b->n_asks > 0 && b->n_bids > 0) {
		char *sp = usd(m, b->asks[0].price_cents - b->bids[0].price_cents);
		char *x = xasprintf(_("spread %s"), sp);
		wcells_add(c, x, WR_DIM, 0);
		free(x);
		free(sp);
	}
	for (int i = 0; i < kb && (size_t)i < b->n_bids; i++)
		level_line(m, out, C_("book side", "bid"), &b->bids[i], i == 0);
	if (b->n_bids == 0)
		tui_lines_wrap(out, _("no bids: nobody buys now"), width, ORDER_WRAP_MAX, WR_DIM, 2);
}

void order_model_book_lines(const struct order_model *m, int width, int rows, struct tui_lines *out)
{
	struct wcells *c;
	char *x;

	tui_lines_add(out);
	c = tui_lines_add(out);
	wcells_pad(c, 1, WR_NORMAL);
	x = xasprintf(_("Book of %s, per GPU-hour before tax"), gpu_name(m, m->gpu));
	if (c->width + wtext_width(x, c->ascii) > width) {
		/* too long for the column: the title without its note, never cut */
		free(x);
		/* TRANSLATORS: the order form's book title where the long one does not fit */
		x = xasprintf(_("Book of %s"), gpu_name(m, m->gpu));
	}
	wcells_add(c, x, WR_HEADER, 0);
	free(x);
	if (m->book == NULL) {
		tui_lines_wrap(out, m->book_error != NULL ? m->book_error : _("waiting for the book…"),
			       width, ORDER_WRAP_MAX, m->book_error != NULL ? WR_BAD : WR_DIM, 2);
		return;
	}
	book_row(m, tui_lines_add(out), NULL, _("Price"), _("GPUs"), _("Orders"), true, false);
	book_levels(m, out, width, rows - 3 - 1);
}
