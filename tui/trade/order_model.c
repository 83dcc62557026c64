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

/* The text of typed row r. */
static const char *txt(const struct order_model *m, int r)
{
	return m->text[order_text_index(r)];
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; v != NULL && i < n; i++)
		free(v[i]);
	free(v);
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
	m->node_gpus = 1;
	m->n_links = 1;
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
	free(m->last_lot);
	free(m->note);
	free_strv(m->known_regions, m->n_known_regions);
	free_strv(m->region_v, m->n_region_v);
	free(m->regions_text);
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
	const char *s = txt(m, ORDER_PRICE);
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

/* A host figure: empty (not stated, no minimum) or a whole number 0..max. */
static void validate_host(struct order_model *m, int row, long max, int64_t *out)
{
	const char *s = txt(m, row);
	int v = 0;

	*out = 0;
	if (strspn(s, " ") == strlen(s))
		return;
	if (!parse_count(s, 0, max, &v)) {
		char *lim = i18n_fmt_number(m->lang, (double)max, 0);
		mark_bad(m, row, xasprintf(_("%s: a whole number from 0 to %s, or nothing"),
					   order_model_row_label(m, row), lim),
			 _("a number"));
		free(lim);
		return;
	}
	*out = v;
}

static bool known_region(const struct order_model *m, const char *id)
{
	if (m->n_known_regions == 0)
		return true; /* not known here: the exchange checks it */
	for (size_t i = 0; i < m->n_known_regions; i++)
		if (strcmp(m->known_regions[i], id) == 0)
			return true;
	return false;
}

static char *known_list(const struct order_model *m)
{
	struct buf b = {0};

	for (size_t i = 0; i < m->n_known_regions; i++)
		buf_printf(&b, "%s%s", i > 0 ? ", " : "", m->known_regions[i]);
	return b.data != NULL ? buf_take(&b) : xstrdup("");
}

/* The regions typed: ids separated by commas or spaces (a sell: one). */
static void validate_regions(struct order_model *m)
{
	char *copy = xstrdup(txt(m, ORDER_REGIONS)), *save = NULL, *w;
	size_t max = m->side == API_SELL ? 1 : ORDER_MAX_REGIONS;

	free_strv(m->region_v, m->n_region_v);
	m->region_v = xcalloc(ORDER_MAX_REGIONS + 1, sizeof *m->region_v);
	m->n_region_v = 0;
	for (w = strtok_r(copy, ", ", &save); w != NULL; w = strtok_r(NULL, ", ", &save)) {
		if (!known_region(m, w) || strlen(w) > 64) {
			char *l = known_list(m);
			mark_bad(m, ORDER_REGIONS, xasprintf(_("Regions: \"%s\" is not one of this "
							       "exchange's: %s"), w, l),
				 _("unknown region"));
			free(l);
			break;
		}
		if (m->n_region_v >= max) {
			mark_bad(m, ORDER_REGIONS,
				 xstrdup(m->side == API_SELL ? _("Region: a sell's machines are in one region")
							     : _("Regions: at most 64")),
				 _("too many"));
			break;
		}
		m->region_v[m->n_region_v++] = xstrdup(w);
	}
	free(copy);
	free(m->regions_text);
	m->regions_text = NULL;
	if (m->n_region_v > 0) {
		struct buf b = {0};
		for (size_t i = 0; i < m->n_region_v; i++)
			buf_printf(&b, "%s%s", i > 0 ? "," : "", m->region_v[i]);
		m->regions_text = buf_take(&b);
	}
}

/* The machines: a buy's requirements or a sell's lot, into req. */
static void validate_lot(struct order_model *m)
{
	bool sell = m->side == API_SELL;

	validate_regions(m);
	validate_host(m, ORDER_CPU, 4096, &m->req.host.cpu_cores);
	validate_host(m, ORDER_RAM, 65536, &m->req.host.ram_gb);
	validate_host(m, ORDER_DISK, 1000000, &m->req.host.disk_gb);
	m->req.node_gpus = m->node_gpus > 1 ? m->node_gpus : 0;
	m->req.interconnect = m->link > 0 && m->link < m->n_links ? m->links[m->link] : NULL;
	m->req.whole_nodes = sell && m->whole_nodes;
	if (sell) {
		m->req.region = m->n_region_v > 0 ? m->region_v[0] : NULL;
	} else {
		m->req.regions = (const char *const *)m->region_v;
		m->req.n_regions = m->n_region_v;
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
	if (!parse_count(txt(m, ORDER_GPUS), 1, ORDER_MAX_GPUS, &m->req.gpus))
		mark_bad(m, ORDER_GPUS, xasprintf(_("GPUs: a whole number from 1 to %d"), ORDER_MAX_GPUS),
			 _("1 to 512"));
	else if (m->node_gpus > 1 && m->req.gpus % m->node_gpus != 0)
		mark_bad(m, ORDER_GPUS,
			 xasprintf(m->side == API_BUY
				   ? _("GPUs: whole units of %d (the nodes below): %d, %d, %d…")
				   : _("GPUs: whole machines of %d (the nodes below): %d, %d, %d…"),
				   m->node_gpus, m->node_gpus, 2 * m->node_gpus, 3 * m->node_gpus),
			 _("whole nodes"));
	if (!parse_count(txt(m, ORDER_HOURS), 1, ORDER_MAX_HOURS, &m->req.hours))
		mark_bad(m, ORDER_HOURS, xasprintf(_("Hours: a whole number from 1 to %d"), ORDER_MAX_HOURS),
			 _("1 to 720"));
	validate_price(m);
	validate_lot(m);
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
	int i = order_text_index(row);

	if (strcmp(m->text[i], text) == 0)
		return;
	set_str(&m->text[i], text);
	m->text_changed[i] = true;
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
	if (b != NULL && b->node_gpus > 1 && m->side == API_BUY) {
		/* units of a node size: the price at which all the GPUs typed fill */
		int64_t want = 0, got = 0;
		int gpus = 0;
		if (parse_count(txt(m, ORDER_GPUS), 1, ORDER_MAX_GPUS, &gpus))
			want = gpus;
		for (size_t i = 0; i < b->n_asks && got < want; i++) {
			got += b->asks[i].gpus;
			ask = b->asks[i].price_cents;
		}
	}
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

/* The links the GPU's machines can have (docs/API.md, an ask's
 * interconnect): its board's own (SXM: NVLink, OAM: Infinity Fabric), PCIe
 * for a PCIe card, and both for the cards sold as NVLink-bridged pairs. */
static void setup_links(struct order_model *m)
{
	const struct catalog_gpu *g = m->cat != NULL && m->gpu != NULL ? catalog_gpu(m->cat, m->gpu) : NULL;
	enum fit_interconnect own = FIT_LINK_PCIE;

	if (g != NULL && g->scale_up != NULL)
		fit_interconnect_parse(g->scale_up, &own, NULL);
	m->n_links = 0;
	m->links[m->n_links++] = NULL;
	if (own != FIT_LINK_PCIE)
		m->links[m->n_links++] = fit_interconnect_id(own);
	if (own == FIT_LINK_PCIE || (g != NULL && g->scale_up_gpus <= 2))
		m->links[m->n_links++] = fit_interconnect_id(FIT_LINK_PCIE);
}

void order_model_need(struct order_model *m, int node_gpus, const char *interconnect)
{
	m->node_gpus = node_gpus == 2 || node_gpus == 4 || node_gpus == 8 ? node_gpus : 1;
	m->link = 0;
	for (int i = 1; interconnect != NULL && i < m->n_links; i++)
		if (strcmp(m->links[i], interconnect) == 0)
			m->link = i;
	if (m->node_gpus > 1) {
		int gpus = 0;
		/* more than one machine of them: all of it or nothing */
		if (parse_count(txt(m, ORDER_GPUS), 1, ORDER_MAX_GPUS, &gpus) && gpus >= m->node_gpus)
			m->tif = API_FOK;
	}
	order_model_changed(m);
}

static bool same_regions(const struct order_model *m, const struct api_region *v, size_t n)
{
	if (m->known_regions == NULL || m->n_known_regions != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (strcmp(m->known_regions[i], v[i].id) != 0)
			return false;
	return true;
}

bool order_model_set_regions(struct order_model *m, const struct api_region *v, size_t n)
{
	if (same_regions(m, v, n))
		return false;
	free_strv(m->known_regions, m->n_known_regions);
	m->known_regions = xcalloc(n + 1, sizeof *m->known_regions);
	m->n_known_regions = n;
	for (size_t i = 0; i < n; i++)
		m->known_regions[i] = xstrdup(v[i].id);
	order_model_validate(m);
	return true;
}

bool order_model_row_shown(const struct order_model *m, int row)
{
	return row != ORDER_WHOLE || m->side == API_SELL;
}

void order_model_book_query(const struct order_model *m, struct api_book_query *q, bool *by)
{
	memset(q, 0, sizeof *q);
	*by = m->side == API_BUY && (m->node_gpus > 1 || m->link > 0 || m->regions_text != NULL);
	if (!*by)
		return;
	q->node_gpus = m->node_gpus;
	q->interconnect = m->link > 0 && m->link < m->n_links ? m->links[m->link] : NULL;
	q->regions = m->regions_text;
}

char *order_model_lot_key(const struct api_order_req *r)
{
	struct buf b = {0};

	buf_printf(&b, "%d|%s|%s|", r->node_gpus, r->interconnect ? r->interconnect : "",
		   r->region ? r->region : "");
	for (size_t i = 0; i < r->n_regions; i++)
		buf_printf(&b, "%s,", r->regions[i]);
	buf_printf(&b, "|%lld/%lld/%lld|%d", (long long)r->host.cpu_cores, (long long)r->host.ram_gb,
		   (long long)r->host.disk_gb, r->whole_nodes ? 1 : 0);
	return buf_take(&b);
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
	m->price_touched = false;
	setup_links(m);
	m->node_gpus = 1;
	m->link = 0;
	m->whole_nodes = false;
	for (int r = ORDER_REGIONS; r <= ORDER_DISK; r++)
		put_text(m, r, "");
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
	case ORDER_NODES: {
		static const int sizes[] = { 1, 2, 4, 8 };
		int i = 0;
		while (i < 3 && sizes[i] != m->node_gpus)
			i++;
		i = (i + (k == WKEY_LEFT ? 3 : 1)) % 4;
		m->node_gpus = sizes[i];
		break;
	}
	case ORDER_LINK:
		if (m->n_links <= 1)
			return false;
		m->link = (m->link + (k == WKEY_LEFT ? m->n_links - 1 : 1)) % m->n_links;
		break;
	case ORDER_WHOLE:
		if (m->side != API_SELL)
			return false;
		m->whole_nodes = !m->whole_nodes;
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
	if (first && txt(m, ORDER_PRICE)[0] == '\0') {
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

	char *lot;
	bool same;

	if (m->last_gpu == NULL || m->gpu == NULL || strcmp(m->last_gpu, m->gpu) != 0 ||
	    a->side != b->side || a->type != b->type || a->gpus != b->gpus ||
	    a->hours != b->hours || a->price_cents != b->price_cents || a->tif != b->tif)
		return false;
	lot = order_model_lot_key(a);
	same = m->last_lot != NULL && strcmp(lot, m->last_lot) == 0;
	free(lot);
	return same;
}

void order_model_remember_last(struct order_model *m, const struct api_order_req *r, const char *gpu,
		      int64_t id)
{
	free(m->last_lot);
	m->last_lot = order_model_lot_key(r);
	m->last = *r;
	m->last.client_order_id = NULL;
	/* the lot lives on in last_lot: the model's strings change */
	m->last.interconnect = m->last.region = NULL;
	m->last.regions = NULL;
	m->last.n_regions = 0;
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
	char to = i18n_decimal_sep(lang), from = to == '.' ? ',' : '.';
	char *s = xstrdup(txt(m, ORDER_PRICE));
	bool conv = false;

	m->lang = lang;
	for (char *p = s; *p != '\0'; p++) {
		if (*p == from && p > s && isdigit((unsigned char)p[-1]) && isdigit((unsigned char)p[1])) {
			*p = to;
			conv = true;
		}
	}
	if (conv)
		put_text(m, ORDER_PRICE, s);
	free(s);
	order_model_validate(m);
}

int order_model_label_width(const struct order_model *m)
{
	const char *labels[] = { _("Side"), _("Type"), _("GPUs"), _("Hours"), _("Limit price/h"),
				 _("Max price/h"), _("Min price/h"), _("In force"), _("In nodes of"),
				 _("Interconnect"), _("Regions"), _("Region"), _("Min CPU cores"),
				 _("Min RAM GB"), _("Min disk GB"), _("CPU cores"), _("RAM GB"),
				 _("Disk GB"), _("Whole nodes") };
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
	case ORDER_NODES:
		return m->side == API_BUY
			? _("GPUs that must share one machine: the order fills only in whole units "
			    "of this many, each inside one machine (a job with tensor parallelism "
			    "needs its GPUs together).")
			: _("GPUs per machine of your lot: the GPUs above are that many machines.");
	case ORDER_LINK:
		return m->side == API_BUY
			? _("Only machines whose GPUs are joined by this link (any: every machine).")
			: _("The link between the GPUs of each machine (the GPU's own by default).");
	case ORDER_REGIONS: {
		/* the exchange's regions, or what to type */
		return m->side == API_BUY
			? _("Only machines in these regions, e.g. eu-west,eu-central; empty: any region.")
			: _("Where your machines are, e.g. eu-west; empty: the exchange's first region.");
	}
	case ORDER_CPU:
	case ORDER_RAM:
	case ORDER_DISK:
		return m->side == API_BUY
			? _("Only machines whose host has at least this much; empty: no minimum.")
			: _("What each machine's host has; empty: not stated (it meets no minimum).");
	case ORDER_WHOLE:
		return _("Yes: only whole machines are sold, to bids in units of the node size.");
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

const char *order_model_row_label(const struct order_model *m, int row)
{
	bool sell = m->side == API_SELL;

	switch (row) {
	case ORDER_SIDE: return _("Side");
	case ORDER_TYPE: return _("Type");
	case ORDER_GPUS: return _("GPUs");
	case ORDER_HOURS: return _("Hours");
	case ORDER_PRICE: return order_model_price_label(m);
	case ORDER_TIF: return _("In force");
	/* TRANSLATORS: the order form: "In nodes of  ‹ 8 GPUs ›" (GPUs per machine) */
	case ORDER_NODES: return _("In nodes of");
	case ORDER_LINK: return _("Interconnect");
	case ORDER_REGIONS: return sell ? _("Region") : _("Regions");
	case ORDER_CPU: return sell ? _("CPU cores") : _("Min CPU cores");
	case ORDER_RAM: return sell ? _("RAM GB") : _("Min RAM GB");
	case ORDER_DISK: return sell ? _("Disk GB") : _("Min disk GB");
	case ORDER_WHOLE: return _("Whole nodes");
	default: return "";
	}
}

/* The node size's words: "8 GPUs"; a buy's 1: "any" (its GPUs on any machines). */
static char *nodes_value(const struct order_model *m)
{
	if (m->node_gpus <= 1 && m->side == API_BUY)
		return xstrdup(_("any"));
	return xasprintf(P_("%d GPU", "%d GPUs", (unsigned long)m->node_gpus), m->node_gpus);
}

static const char *link_value(const struct order_model *m)
{
	if (m->link <= 0 || m->link >= m->n_links)
		return m->side == API_BUY ? _("any") : _("the GPU's own");
	return view_link_text(m->lang, m->links[m->link]);
}

void order_model_form_lines(const struct order_model *m, int label_w, int width, struct tui_lines *out)
{
	char *x;

	title_lines(m, width, out);
	choice_line(out, label_w, _("Side"), m->side == API_BUY ? _("Buy") : _("Sell"),
		    m->focus == ORDER_SIDE);
	choice_line(out, label_w, _("Type"), m->type == API_MARKET ? _("Market") : _("Limit"),
		    m->focus == ORDER_TYPE);
	label_line(out, _("GPUs"), m->focus == ORDER_GPUS);
	label_line(out, _("Hours"), m->focus == ORDER_HOURS);
	label_line(out, order_model_price_label(m), m->focus == ORDER_PRICE);
	choice_line(out, label_w, _("In force"), tif_short(m->tif), m->focus == ORDER_TIF);
	x = nodes_value(m);
	choice_line(out, label_w, order_model_row_label(m, ORDER_NODES), x, m->focus == ORDER_NODES);
	free(x);
	choice_line(out, label_w, _("Interconnect"), link_value(m), m->focus == ORDER_LINK);
	for (int r = ORDER_REGIONS; r <= ORDER_DISK; r++)
		label_line(out, order_model_row_label(m, r), m->focus == r);
	if (order_model_row_shown(m, ORDER_WHOLE))
		choice_line(out, label_w, _("Whole nodes"), m->whole_nodes ? _("Yes") : _("No"),
			    m->focus == ORDER_WHOLE);
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
				 _("Total"), _("Held"), _("You are paid"), _("Available"), _("Rate"),
				 _("Machines") };
	int lw = 0;

	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
		int w = wtext_width(labels[i], m->ascii);
		if (w > lw)
			lw = w;
	}
	lw += 2;
	return lw < 12 ? 12 : lw;
}

/* The machines a buy's fills take, a line per lot: "o43-1, o43-2 ·
 * eu-west · 112 cores · 2,048 GB RAM · …", its words never split. */
static void preview_machines(struct pv_out *o, const struct api_preview *v)
{
	const struct order_model *m = o->m;
	bool first = true;

	if (v->side != API_BUY)
		return;
	for (size_t i = 0; i < v->n_fills && i < 4; i++) {
		const struct api_preview_fill *f = &v->fills[i];
		char *nodes, *host, *where, *p, *q;
		const char *atoms[8];
		size_t n = 0;
		if (!f->has_lot)
			continue;
		nodes = view_fmt_nodes(m->lang, f->nodes, f->n_nodes, f->lot.node_gpus, 3);
		host = view_fmt_host(m->lang, &f->lot.host);
		where = xasprintf("%s \u00b7 %s \u00b7", f->lot.region,
				  view_link_text(m->lang, f->lot.interconnect));
		atoms[n++] = nodes;
		atoms[n++] = where;
		/* the host's figures, each whole: "112 cores ·" "2,048 GB RAM ·" … */
		for (p = host; p != NULL && n < 8; p = q) {
			q = strstr(p, " \u00b7 ");
			if (q != NULL) {
				q[3] = '\0'; /* keep " ·" (4 bytes: " ", U+00B7, " "), cut before the blank */
				atoms[n++] = p;
				q += 4;
			} else {
				atoms[n++] = p;
			}
		}
		kv_atoms(o, first ? _("Machines") : "", atoms, n, WR_NORMAL, 0);
		first = false;
		free(nodes);
		free(host);
		free(where);
	}
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
		kv(o, _("Fills now"), _("nothing"), WR_BAD, 0);
	for (size_t i = 0; i < n; i++)
		free(atoms[i]);
	free(atoms);
	free(lv);
	preview_machines(o, v);
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
	if (v->side == API_BUY && v->rest_gpus > 0)
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
	if (m->book != NULL && m->book->node_gpus > 1)
		/* TRANSLATORS: the order form's ladder of what can serve units of N GPUs */
		x = xasprintf(_("Book of %s in nodes of %lld, per GPU-hour"), gpu_name(m, m->gpu),
			      (long long)m->book->node_gpus);
	else
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
