/*
 * Your alerts (A): the alerts the exchange keeps for the account — what
 * each watches, whether it re-arms, its state, how often it fired — asked
 * again every 2 s; and, with m, the account's messages instead: its event
 * log as the TUI has heard it (tui/feed/events.c), newest first, in words.
 *
 * A new alert is one typed line, opened by n here and by A on any row of
 * the tables or on the detail screen (tui_open(TUI_ALERTS) with the GPU),
 * prefilled for that GPU at its best ask: "ask <= 4,19". The line takes
 * [GPU] ask|bid|last|spread, <= or >= (< and > alike), and a price as the
 * language writes it; or "job <= AMOUNT [H h]": a job alert on the fit
 * panel's job (the cheapest total of a job order of it, in the account's
 * currency, for H hours; a training run's own time without them). Enter
 * adds it, Esc forgets it. x (or Delete) removes
 * the alert under the cursor after a confirmation. An alert that fires
 * while the TUI runs is said on the status bar with the terminal's bell
 * (tui/feed/events.c), and is the first line of the messages here.
 */
#include "tui/trade/trade.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n/i18n.h"
#include "util/util.h"

#define PRICE_MAX 1000000        /* docs/API.md, limits: US$ 10 000 per GPU-hour */

enum { AC_ID, AC_WHAT, AC_REARM, AC_STATE, AC_FIRED, AC_LAST, AC_LABEL, AC_N };
enum { MC_ID, MC_TIME, MC_WHAT, MC_N };

static const char *const head[AC_N] = {
	N_("Alert"), N_("Watches"), N_("Re-arms after"), N_("State"), N_("Fired"),
	N_("Last fired"), N_("Label"),
};
static const enum walign align[AC_N] = {
	WALIGN_RIGHT, WALIGN_LEFT, WALIGN_RIGHT, WALIGN_LEFT, WALIGN_RIGHT, WALIGN_LEFT, WALIGN_LEFT,
};
static const char *const msg_head[MC_N] = { N_("Event"), N_("Time"), N_("Message") };
static const enum walign msg_align[MC_N] = { WALIGN_RIGHT, WALIGN_LEFT, WALIGN_LEFT };

struct alerts {
	struct tui_list l;
	struct api_alerts *list;
	uint64_t list_req, add_req, del_req;
	bool messages;              /* the table lists the account's messages */
	char *gpu;                  /* the GPU a new alert is for */
	uint64_t seen_events;
};

static struct alerts *of(struct tui_list *l)
{
	return (struct alerts *)l;
}

static const struct api_alert *find(const struct alerts *s, int64_t id)
{
	for (size_t i = 0; s->list != NULL && i < s->list->n; i++)
		if (s->list->v[i].id == id)
			return &s->list->v[i];
	return NULL;
}

static char *what(struct tui *t, const struct api_alert *a)
{
	return view_alert_what(t->o->lang, a, a->gpu != NULL ? tui_gpu_name(t, a->gpu) : NULL);
}

/* What re-arms an alert: a price, a job alert's amount, or "once". */
static char *rearm_text(struct tui *t, const struct api_alert *a)
{
	if (a->rearm_cents > 0)
		return tui_usd(t, a->rearm_cents);
	if (a->rearm_minor > 0 && a->currency != NULL)
		return i18n_fmt_money(t->o->lang, a->rearm_minor, a->currency);
	return xstrdup(C_("alert rearm", "once"));
}

/* ---- the rows ------------------------------------------------------------------------------- */

static void alert_rows(struct alerts *s)
{
	struct tui *t = s->l.page.base.t;

	for (size_t i = 0; s->list != NULL && i < s->list->n; i++) {
		const struct api_alert *a = &s->list->v[i];
		bool live = a->state == API_ALERT_ARMED || a->state == API_ALERT_REARMING;
		tui_grid_row(&s->l.grid, a->id, live ? WR_NORMAL : WR_DIM);
		tui_grid_put(&s->l.grid, AC_ID, xasprintf("%lld", (long long)a->id));
		tui_grid_put(&s->l.grid, AC_WHAT, what(t, a));
		tui_grid_put(&s->l.grid, AC_REARM, rearm_text(t, a));
		tui_grid_puts(&s->l.grid, AC_STATE, view_alert_state_text(t->o->lang, a->state));
		tui_grid_put(&s->l.grid, AC_FIRED, tui_int(t, a->fired_count));
		tui_grid_put(&s->l.grid, AC_LAST, tui_date(t, a->last_fired_at));
		tui_grid_puts(&s->l.grid, AC_LABEL, a->label != NULL ? a->label : "");
	}
}

static void message_rows(struct alerts *s)
{
	struct tui *t = s->l.page.base.t;
	const struct tui_events *x = &t->events;

	for (size_t i = x->n; i-- > 0;) {
		const struct api_account_event *e = x->v[i];
		bool alert = e->kind != NULL && strcmp(e->kind, "alert") == 0;
		tui_grid_row(&s->l.grid, e->id, alert ? WR_NORMAL : WR_DIM);
		tui_grid_put(&s->l.grid, MC_ID, xasprintf("%lld", (long long)e->id));
		tui_grid_put(&s->l.grid, MC_TIME, tui_date(t, e->at));
		tui_grid_put(&s->l.grid, MC_WHAT, view_account_event_text(t->o->lang, e,
			     e->gpu != NULL ? tui_gpu_name(t, e->gpu) : NULL));
	}
}

/* The table's columns: the alerts', or the messages'. */
static void columns(struct alerts *s)
{
	struct tui_grid *g = &s->l.grid;

	tui_grid_clear(g);
	s->l.table->max_col = s->messages ? 400 : 0;   /* a message is a sentence */
	g->n_cols = s->messages ? MC_N : AC_N;
	g->head = s->messages ? msg_head : head;
	g->align = s->messages ? msg_align : align;
	g->empty = s->messages ? N_("No messages yet: alerts that fire and what conditional and "
				    "standing orders do are listed here")
			       /* TRANSLATORS: %s is the tables' alert key (A unless rebound) */
			       : N_("No alerts yet: press n, or %s on a row of the tables");
	g->empty_keys[0] = s->messages ? NULL : "alert";
}

static void build(struct tui_list *l)
{
	struct alerts *s = of(l);
	struct tui *t = l->page.base.t;
	char *count = NULL;

	s->seen_events = t->events.gen;
	if (s->messages) {
		message_rows(s);
		count = xasprintf(P_(" · %zu message", " · %zu messages", t->events.n), t->events.n);
	} else {
		alert_rows(s);
		if (s->list != NULL)
			count = xasprintf(_(" · %lld of %lld alerts live"), (long long)s->list->live,
					  (long long)s->list->max);
	}
	tui_list_head(l, (const char *const[]){ count }, 1, s->messages || s->list != NULL,
		      _("asking the exchange for your alerts…"),
		      s->messages ? _("m: back to your alerts")
				  : _("n adds an alert · x removes the one under the cursor · m: messages"));
	free(count);
}

static const char *row_gpu(struct tui_list *l, int64_t key)
{
	struct alerts *s = of(l);
	const struct api_alert *a = s->messages ? NULL : find(s, key);

	return a != NULL ? a->gpu : s->gpu;
}

/* ---- asking ------------------------------------------------------------------------------------ */

static void on_list(void *ud, struct api_alerts *r, const struct api_error *e)
{
	struct alerts *s = ud;

	s->list_req = 0;
	if (tui_list_reply(&s->l, e)) {
		api_alerts_free(&s->list);
		s->list = r;
	}
}

static void ask(struct tui_list *l)
{
	struct alerts *s = of(l);

	s->list_req = api_alerts_list_start(l->page.base.t->api, NULL, 200, on_list, s);
}

static bool busy(const struct tui_list *l)
{
	const struct alerts *s = (const struct alerts *)l;

	return s->list_req != 0;
}

/* ---- a new alert: the typed line --------------------------------------------------------------- */

/* "4,19": cents as the language writes a price, for the line to edit. */
static char *price_text(const struct tui *t, int64_t cents)
{
	return xasprintf("%lld%c%02lld", (long long)(cents / 100), i18n_decimal_sep(t->o->lang),
			 (long long)(cents % 100));
}

static void open_new(struct alerts *s, const char *gpu)
{
	struct tui *t = s->l.page.base.t;
	const char *id = gpu != NULL ? gpu : s->gpu != NULL ? s->gpu : t->cat->gpus[0].id;
	int64_t ask = -1;
	char *prompt, *line;

	for (size_t g = 0; g < t->m.n_gpus; g++)
		if (strcmp(t->cat->gpus[g].id, id) == 0)
			ask = t->m.gpu[g].q.best_ask_cents;
	free(s->gpu);
	s->gpu = xstrdup(id);
	if (s->messages) {
		s->messages = false;
		columns(s);
	}
	prompt = xasprintf(_("Alert on %s: "), tui_gpu_name(t, id));
	line = xasprintf("ask <= %s", ask > 0 ? price_text(t, ask) : "");
	tui_list_input_open(&s->l, prompt,
			    _("ask|bid|last|spread, <= or >=, a price · Enter adds it · Esc: not now"),
			    "alerts");
	wfield_set_text(s->l.input, line);
	free(prompt);
	free(line);
	tui_list_dirty(&s->l);
}

/* The rest of a line "job <= AMOUNT [H h]" (save: strtok_r's, after "job")
 * into r, on the fit panel's job; NULL, or why not (malloc'ed). */
static char *parse_job(struct alerts *s, char **save, struct api_alert_req *r)
{
	struct tui *t = s->l.page.base.t;
	char *tok = strtok_r(NULL, " \t", save), *end;
	long h = 0;

	*r = (struct api_alert_req){ .when = API_WHEN_JOB_TOTAL_LTE, .expires_at = -1 };
	if (!t->job.have)
		/* TRANSLATORS: %s is the key that opens the fit calculator (f unless rebound) */
		return tui_key_text(t, _("Set a fit job first: %s opens the fit calculator"), "fit", NULL);
	if (tok != NULL && (strcmp(tok, "<=") == 0 || strcmp(tok, "<") == 0 || strcmp(tok, "≤") == 0))
		tok = strtok_r(NULL, " \t", save);
	if (tok == NULL || i18n_parse_decimal(t->o->lang, tok, 2, &r->max_total_minor, NULL) != 0 ||
	    r->max_total_minor < 1)
		return xstrdup(_("Type the job's budget, e.g. job <= 900 24h (your account's currency, "
				 "VAT included; the hours the job rents)"));
	if ((tok = strtok_r(NULL, " \t", save)) != NULL) {
		const char *unit;
		h = strtol(tok, &end, 10);
		unit = end;
		if (end != tok && *end == '\0') {   /* "24 h", "24": the unit apart, or none */
			unit = strtok_r(NULL, " \t", save);
			unit = unit != NULL ? unit : "h";
		}
		if (end == tok || strcmp(unit, "h") != 0 || h < 1 || h > 720 ||
		    strtok_r(NULL, " \t", save) != NULL)
			return xstrdup(_("Hours: a whole number from 1 to 720, e.g. job <= 900 24h"));
	} else if (!fit_method_is_training(t->job.job.method)) {
		return xstrdup(_("Give the hours the job rents, e.g. job <= 900 24h (a training run "
				 "takes its own time without them)"));
	}
	r->job = &t->job.job;
	r->hours = (int)h;
	return NULL;
}

/* Read the typed line into r (r->gpu is s->gpu unless the line names
 * another); NULL, or why not (malloc'ed). */
static char *parse_line(struct alerts *s, const char *text, struct api_alert_req *r)
{
	static const char *const metric[] = { "ask", "bid", "last", "spread" };
	struct tui *t = s->l.page.base.t;
	char *copy = xstrdup(text), *save = NULL, *tok = strtok_r(copy, " \t", &save);
	int m = 0, lte = -1;
	char *why = NULL;

	if (tok != NULL && strcasecmp(tok, "job") == 0) {
		why = parse_job(s, &save, r);
		free(copy);
		return why;
	}
	*r = (struct api_alert_req){ .gpu = s->gpu, .expires_at = -1 };
	for (size_t g = 0; tok != NULL && g < t->cat->n_gpus; g++) {
		if (strcasecmp(tok, t->cat->gpus[g].id) == 0) {
			r->gpu = t->cat->gpus[g].id;
			tok = strtok_r(NULL, " \t", &save);
			break;
		}
	}
	for (int i = 0; tok != NULL && i < 4; i++) {
		if (strcasecmp(tok, metric[i]) == 0) {
			m = i;
			tok = strtok_r(NULL, " \t", &save);
			break;
		}
	}
	if (tok != NULL && (strncmp(tok, "<", 1) == 0 || strncmp(tok, "≤", 3) == 0))
		lte = 1;
	else if (tok != NULL && (strncmp(tok, ">", 1) == 0 || strncmp(tok, "≥", 3) == 0))
		lte = 0;
	if (lte >= 0) {
		tok += strspn(tok, "<>=") + (strncmp(tok, "≤", 3) == 0 || strncmp(tok, "≥", 3) == 0 ? 3 : 0);
		if (*tok == '\0')
			tok = strtok_r(NULL, " \t", &save);
	}
	if (lte < 0 || tok == NULL) {
		why = xstrdup(_("Type what to watch, e.g. ask <= 4.10 (ask, bid, last or spread; <= "
				"or >=; a price), or job <= 900 24h (the fit job's cheapest total)"));
	} else if (i18n_parse_decimal(t->o->lang, tok, 2, &r->price_cents, &why) == 0 &&
		   (r->price_cents < (m == 3 ? 0 : 1) || r->price_cents > PRICE_MAX)) {
		why = xstrdup(_("That price is out of range"));
	} else if (why == NULL && strtok_r(NULL, " \t", &save) != NULL) {
		why = xstrdup(_("Only one price, please: e.g. ask <= 4.10"));
	}
	if (why == NULL)
		r->when = (enum api_when)(API_WHEN_ASK_LTE + 2 * m + (lte ? 0 : 1));
	free(copy);
	return why;
}

static void on_added(void *ud, struct api_alert *a, const struct api_error *e)
{
	struct alerts *s = ud;
	struct tui *t = s->l.page.base.t;
	char *note = NULL;

	s->add_req = 0;
	if (e == NULL) {
		char *w = what(t, a);
		note = a->state == API_ALERT_ARMED
		       ? xasprintf(_("Alert %lld: %s. The exchange watches it, also while gpux is "
				     "closed."), (long long)a->id, w)
		       : xasprintf(_("Alert %lld: %s — it holds already: it fired now."),
				   (long long)a->id, w);
		free(w);
	}
	tui_list_acted(&s->l, e, note);
	tui_list_soon(&s->l);
	api_alert_free(&a);
}

static void submit(struct alerts *s)
{
	struct api_alert_req r;
	char *why = parse_line(s, wfield_text(s->l.input), &r);

	if (why != NULL) {
		tui_list_note(&s->l, why, WR_BAD);   /* the line stays to be mended */
		wfield_focus(s->l.input, true);
		s->l.input->submitted = false;
		return;
	}
	tui_list_input_close(&s->l);
	if (s->add_req == 0 && s->l.page.base.t->api != NULL)
		s->add_req = api_alert_create_start(s->l.page.base.t->api, &r, on_added, s);
}

static unsigned typed(struct tui_list *l, const struct wevent *ev)
{
	struct alerts *s = of(l);
	unsigned r;

	if (ev->type != WEV_KEY)
		return W_HANDLED;
	r = wwidget_handle(&s->l.input->base, ev);
	if (r & W_CLOSE) {
		if (!s->l.input->submitted)
			tui_list_input_close(&s->l);
		else
			submit(s);
	}
	return W_HANDLED | W_REDRAW;
}

/* ---- removing ------------------------------------------------------------------------------------ */

static void on_removed(void *ud, struct api_alert *a, const struct api_error *e)
{
	struct alerts *s = ud;

	s->del_req = 0;
	tui_list_acted(&s->l, e, e == NULL ? xasprintf(_("Alert %lld removed."), (long long)a->id)
					   : NULL);
	tui_list_soon(&s->l);
	api_alert_free(&a);
}

static void removing(struct tui_list *l, int64_t id)
{
	struct alerts *s = of(l);

	if (s->del_req == 0)
		s->del_req = api_alert_delete_start(l->page.base.t->api, id, on_removed, s);
}

static void ask_remove(struct alerts *s)
{
	struct tui *t = s->l.page.base.t;
	const struct api_alert *a = s->messages ? NULL : find(s, tui_list_key(&s->l));
	char *w, *title;

	if (a == NULL) {
		tui_message(t, _("No alert selected"));
		return;
	}
	if (t->api == NULL || s->del_req != 0)
		return;
	w = what(t, a);
	title = xasprintf(_("Remove alert %lld?"), (long long)a->id);
	tui_list_confirm(&s->l, a->id, title, w, _("y or Enter: remove it · any other key: keep it"),
			 removing, xasprintf(_("Alert %lld was kept."), (long long)a->id));
	free(title);
	free(w);
}

/* ---- the screen ---------------------------------------------------------------------------------- */

enum { AK_NEW = 1, AK_REMOVE, AK_MESSAGES };

static const struct wbinding alerts_bindings[] = {
	{ 'n', AK_NEW, N_("New alert for the GPU of the row (a line to type, at its best ask; "
			  "job <= AMOUNT 24h: on the fit job's cheapest total)"), N_("New alert") },
	{ 'x', AK_REMOVE, N_("Remove the alert under the cursor (asks first)"), N_("Remove") },
	{ WKEY_DELETE, AK_REMOVE, N_("Remove the alert under the cursor (asks first)"), NULL },
	{ 'm', AK_MESSAGES, N_("Your messages (alerts fired, orders' news) or back to the alerts"),
	  N_("Messages") },
	{ WKEY_RETURN, 0, N_("The GPU of the alert under the cursor in detail (Esc: back)"), NULL },
};

static const struct tui_keymap keys[] = {
	{ N_("Your alerts"), alerts_bindings, sizeof alerts_bindings / sizeof alerts_bindings[0] },
	{ N_("Pages"), tui_page_bindings, TUI_PAGE_N_KEYS },
};

static unsigned alerts_key(struct tui_list *l, int action)
{
	struct alerts *s = of(l);

	switch (action) {
	case AK_NEW:
		if (l->page.base.t->api != NULL)
			open_new(s, row_gpu(l, tui_list_key(l)));
		break;
	case AK_REMOVE:
		ask_remove(s);
		break;
	case AK_MESSAGES:
		s->messages = !s->messages;
		columns(s);
		tui_list_dirty(l);
		break;
	default:
		return W_IGNORED;
	}
	return W_HANDLED | W_REDRAW;
}

static bool alerts_offers(const struct tui_list *l, int action)
{
	const struct alerts *s = (const struct alerts *)l;

	return action != AK_REMOVE || !s->messages;
}

static void alerts_recalc(struct tui_screen *sc, int64_t now)
{
	struct alerts *s = (struct alerts *)sc;

	if (s->messages && s->seen_events != sc->t->events.gen)
		s->l.dirty = true;
	tui_list_recalc(sc, now);
}

static void alerts_free(struct tui_screen *sc)
{
	struct alerts *s = (struct alerts *)sc;

	tui_list_free(&s->l, (const uint64_t[]){ s->list_req, s->add_req, s->del_req }, 3);
	api_alerts_free(&s->list);
	free(s->gpu);
}

const struct tui_screen_class tui_alerts_class = {
	.name = "alerts", .flags = TS_OPAQUE | TS_PAGE, .layout = tui_list_layout,
	.recalc = alerts_recalc, .event = tui_list_event, .tick = tui_list_tick,
	.notify = tui_list_notify, .help = tui_list_help, .offers = tui_list_offers,
	.free = alerts_free, .keys = keys, .n_keys = 2,
};

void tui_alerts_open(struct tui *t, const struct tui_goto *g)
{
	static const struct tui_list_def def = {
		&tui_alerts_class, TUI_ALERTS, sizeof(struct alerts), TUI_LIST_MS, 2, AC_N, head,
		align, N_("No alerts yet: press n, or %s on a row of the tables"), { "alert" },
	};
	static const struct tui_list_ops ops = {
		.key = alerts_key, .typed = typed, .offers = alerts_offers, .ask = ask, .busy = busy,
		.build = build, .gpu = row_gpu,
	};
	struct alerts *s;

	tui_list_open(t, &def, &ops);
	s = (struct alerts *)tui_place_screen(t, TUI_ALERTS);
	if (s != NULL && g != NULL && g->gpu != NULL && t->api != NULL)
		open_new(s, g->gpu);   /* A on a row: a new alert for its GPU */
}
