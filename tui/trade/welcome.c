/*
 * The welcome screen: the first run without an API key on an exchange that
 * is not a demo (the local demo exchange has its account already). Instead
 * of an error it offers
 *
 *   c  create an account: e-mail, country (its VAT rate shown), currency,
 *      role, each checked as it is typed (view/signup.c, as `gpux signup`),
 *      the key the exchange returns saved in the config file (mode 0600,
 *      atomically, api/config_write.c) and never shown;
 *   k  enter the key of an existing account: a masked field, the key tried
 *      on GET /v1/account before it is saved;
 *   Esc  browse the prices without an account.
 *
 * It waits, invisible, for the exchange's market first (the feed's market
 * state, GET /v1/market: whether it is a demo, its VAT table and
 * currencies, the opening time) and leaves without a trace when the
 * exchange is a demo; an exchange that does not answer is asked again, and
 * the tables say it does not answer.
 * Once shown it covers the tables and takes every key (TS_OPAQUE |
 * TS_MODAL); q on its menu still quits.
 */
#include "tui/trade/trade.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

enum wmode { WM_MENU, WM_FORM, WM_KEY, WM_DONE };
enum { F_EMAIL, F_COUNTRY, F_CURRENCY, F_ROLE, F_N };

/* A masked field: the built-in line editor behind bullets. */
struct mask_ed {
	void *in;
	char *shown;
	const char *bullet;
};

struct welcome {
	struct tui_screen base;
	enum wmode mode;
	struct wpanel *head, *foot;
	struct wfield *f[F_N];
	bool ok[F_N];
	char *why[F_N];             /* the full refusal of each field, or NULL */
	int focus;
	struct wfield *key;
	struct mask_ed *mask;       /* the key field's engine */
	uint64_t seen_state;        /* the market's state as last read (t->m.state_gen) */
	struct api_topup *topup;
	uint64_t topup_req, create_req, check_req;
	char *note;                 /* the last step's outcome, or NULL */
	enum wrole note_role;
	char cc[3], ccy[4];
	int64_t vat_bp;
	int role;
	char *candidate;            /* the key being checked (wiped) */
	int64_t account_id;
	char *done_text;            /* what the done page says */
};

static const struct tui_screen_class wait_class;

/* ---- the masked field ----------------------------------------------------------------------------- */

static void mask_destroy(void *ed)
{
	struct mask_ed *m = ed;

	wfield_line_editor.destroy(m->in);
	free(m->shown);
	free(m);
}

static unsigned mask_feed(void *ed, wkey k, bool *submitted)
{
	return wfield_line_editor.feed(((struct mask_ed *)ed)->in, k, submitted);
}

static size_t codepoints(const char *s, size_t bytes)
{
	size_t n = 0;

	for (size_t i = 0; i < bytes && s[i] != '\0'; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			n++;
	return n;
}

static const char *mask_text(void *ed)
{
	struct mask_ed *m = ed;
	const char *t = wfield_line_editor.text(m->in);
	size_t n = codepoints(t, strlen(t)), bl = strlen(m->bullet);

	free(m->shown);
	m->shown = xmalloc(n * bl + 1);
	for (size_t i = 0; i < n; i++)
		memcpy(m->shown + i * bl, m->bullet, bl);
	m->shown[n * bl] = '\0';
	return m->shown;
}

static size_t mask_cursor(void *ed)
{
	struct mask_ed *m = ed;
	const char *t = wfield_line_editor.text(m->in);

	return codepoints(t, wfield_line_editor.cursor(m->in)) * strlen(m->bullet);
}

static void mask_set_text(void *ed, const char *utf8)
{
	wfield_line_editor.set_text(((struct mask_ed *)ed)->in, utf8);
}

static const struct wfield_engine mask_engine = {
	.destroy = mask_destroy,
	.feed = mask_feed,
	.text = mask_text,
	.cursor = mask_cursor,
	.set_text = mask_set_text,
};

/* ---- texts ------------------------------------------------------------------------------------------- */

static const char *field_prompt(int i)
{
	switch (i) {
	case F_EMAIL: return _("E-mail address: ");
	case F_COUNTRY: return _("Country, two letters: ");
	case F_CURRENCY: return _("Currency: ");
	default: return _("Role (buyer, seller or both): ");
	}
}

static void set_prompt(struct wfield *f, const char *p)
{
	free(f->prompt);
	f->prompt = xstrdup(p);
	wwidget_dirty(&f->base);
}

static void set_note(struct welcome *w, char *text, enum wrole role)
{
	free(w->note);
	w->note = text;
	w->note_role = role;
}

/* The exchange's market (the feed's), NULL until it answers. */
static const struct api_market *market(const struct welcome *w)
{
	return w->base.t->m.state;
}

static char *opening_text(struct welcome *w)
{
	const struct api_market *m = market(w);

	if (m == NULL || m->state != API_MARKET_PRE_OPEN || m->opens_at < 0)
		return NULL;
	char *when = i18n_fmt_when(w->base.t->o->lang, m->opens_at, 0);
	char *s = xasprintf(_("Trading opens on %s."), when);
	free(when);
	return s;
}

/* How to top up on this exchange, in its operator's words (malloc'ed). */
static char *topup_text(struct welcome *w)
{
	const struct api_topup *tp = w->topup;

	if ((tp != NULL && tp->simulated_payments) || (market(w) != NULL && market(w)->simulated_payments))
		/* TRANSLATORS: %1$s is the key of the account page (a), %2$s its deposit key (d) */
		return tui_key_text(w->base.t, _("Top up: press %1$s for your account, then "
							 "%2$s (a simulated payment on this "
							 "exchange)."), "account", "deposit", NULL);
	if (tp != NULL && (tp->text != NULL || tp->url != NULL))
		return xasprintf(_("Top up: %s%s%s"), tp->text ? tp->text : "",
				 tp->text && tp->url ? " " : "", tp->url ? tp->url : "");
	return xstrdup(_("Top up through the exchange's operator."));
}

/* ---- the panels ---------------------------------------------------------------------------------------- */

/* One line of the menu: text, its %s the key of action as bound. */
static void menu_line(struct welcome *w, struct wpanel *p, const char *text, const char *action)
{
	char *x = tui_key_text(w->base.t, text, action, NULL);

	wpanel_text(p, x, WR_NORMAL, 3);
	free(x);
}

static void head_build(struct welcome *w)
{
	struct tui *t = w->base.t;
	struct wpanel *p = w->head;
	struct wcells *c;
	char *x;

	wpanel_begin(p);
	c = wpanel_add(p);
	wcells_pad(c, 1, WR_NORMAL);
	wcells_add(c, w->mode == WM_FORM ? _("Create an account")
		   : w->mode == WM_KEY ? _("Enter your API key")
		   : w->mode == WM_DONE ? _("Your account is ready") : _("Welcome to gpux"),
		   WR_NORMAL, WAT_BOLD);
	wpanel_add(p);
	if (w->mode == WM_MENU) {
		x = xasprintf(_("No API key is configured for %s: you have no account there "
				"yet, or gpux does not know its key."), api_client_label(t->api));
		wpanel_text(p, x, WR_NORMAL, 1);
		free(x);
		wpanel_add(p);
		/* TRANSLATORS: the menu's keys as bound (c, k, Esc), each before what it does */
		menu_line(w, p, _("%s  Create an account (e-mail, country, currency, role)"),
			  "create-account");
		menu_line(w, p, _("%s  Enter the API key of an account you have"), "enter-key");
		menu_line(w, p, _("%s  Browse the prices without an account"), "browse");
	} else if (w->mode == WM_FORM) {
		x = xasprintf(_("An account on %s. Each field is checked as you type; nothing "
				"is created before Enter on the last one."), api_client_label(t->api));
		wpanel_text(p, x, WR_DIM, 1);
		free(x);
	} else if (w->mode == WM_KEY) {
		wpanel_text(p, _("The key is checked with the exchange, then saved in the config "
				 "file, readable only by you. It is not shown as you type."),
			    WR_DIM, 1);
	} else {
		wpanel_text(p, w->done_text, WR_GOOD, 1);
	}
	wpanel_add(p);
	wpanel_commit(p);
}

static void foot_build(struct welcome *w)
{
	struct wpanel *p = w->foot;
	char *open = opening_text(w);

	wpanel_begin(p);
	wpanel_add(p);
	if (w->note != NULL)
		wpanel_text(p, w->note, w->note_role, 1);
	else if (w->mode == WM_FORM && w->why[w->focus] != NULL)
		wpanel_text(p, w->why[w->focus], WR_BAD, 1);
	else if (w->mode == WM_FORM && market(w) == NULL)
		wpanel_text(p, _("Asking the exchange for its countries and currencies…"),
			    WR_DIM, 1);
	if (open != NULL)
		wpanel_text(p, open, WR_DIM, 1);
	free(open);
	if (w->mode == WM_FORM)
		wpanel_text(p, _("Tab or ↓: next field · Shift-Tab or ↑: previous · Enter on "
				 "the last field: create · Esc: back"), WR_DIM, 1);
	else if (w->mode == WM_KEY)
		wpanel_text(p, _("Enter: check and save · Esc: back"), WR_DIM, 1);
	else if (w->mode == WM_DONE) {
		/* TRANSLATORS: %s is the key of the account page (a unless rebound) */
		char *x = tui_key_text(w->base.t, _("%s: your account \u00b7 Enter or Esc: the tables"),
				       "account", NULL);
		wpanel_text(p, x, WR_DIM, 1);
		free(x);
	}
	wpanel_commit(p);
}

static void rebuild(struct welcome *w)
{
	if (!w->base.shown)
		return;
	head_build(w);
	foot_build(w);
}

/* ---- the fields, checked as typed ---------------------------------------------------------------------- */

static void check_field(struct welcome *w, int i)
{
	struct tui *t = w->base.t;
	const char *s = wfield_text(w->f[i]);
	char *why = NULL, *after = NULL;
	int rc = -1;

	free(w->why[i]);
	w->why[i] = NULL;
	if (s[0] == '\0') {
		w->ok[i] = false;
		wfield_set_error(w->f[i], NULL);
		wfield_set_after(w->f[i], "");
		return;
	}
	if (i == F_EMAIL)
		rc = view_signup_email(s, &why);
	else if (i == F_ROLE)
		rc = view_signup_role(s, true, &w->role, &why);
	else if (market(w) == NULL)
		rc = 1; /* not known yet: checked when the market comes */
	else if (i == F_COUNTRY)
		rc = view_signup_country(market(w), s, w->cc, &w->vat_bp, &why);
	else
		rc = view_signup_currency(market(w), s, w->ccy, &why);
	w->ok[i] = rc == 0;
	if (rc == 0 && i == F_COUNTRY) {
		char *bp = i18n_fmt_percent(t->o->lang, (double)w->vat_bp / 100.0,
					    w->vat_bp % 100 != 0 ? 2 : 0);
		after = xasprintf(_("VAT of %s is added to what you buy"), bp);
		free(bp);
	} else if (rc == 0 && i == F_ROLE) {
		after = xstrdup(view_role_text(t->o->lang, (enum api_role)w->role));
	}
	wfield_set_error(w->f[i], rc < 0 ? _("not accepted (see below)") : NULL);
	wfield_set_after(w->f[i], after != NULL ? after : "");
	free(after);
	w->why[i] = why;
}

/* The country chosen: the currency it most likely wants, if none is typed. */
static void country_chosen(struct welcome *w)
{
	if (!w->ok[F_COUNTRY] || market(w) == NULL || wfield_text(w->f[F_CURRENCY])[0] != '\0')
		return;
	wfield_set_text(w->f[F_CURRENCY], view_signup_default_currency(market(w), w->cc));
	check_field(w, F_CURRENCY);
}

static void focus_field(struct welcome *w, int i)
{
	wfield_focus(w->f[w->focus], false);
	w->focus = (i + F_N) % F_N;
	wfield_focus(w->f[w->focus], true);
}

static void fields_new(struct welcome *w)
{
	struct tui *t = w->base.t;

	for (int i = 0; i < F_N; i++)
		w->f[i] = (struct wfield *)tui_screen_add(
			&w->base, &wfield_new(&t->ui, field_prompt(i), i == F_ROLE ? _("buyer") : "")->base);
	check_field(w, F_ROLE);
}

/* ---- the exchange's answers ---------------------------------------------------------------------------- */

static void become_shown(struct welcome *w)
{
	w->base.cls = &tui_welcome_class; /* the same screen, now covering the tables */
	tui_raise(w->base.t, &w->base);
	tui_relayout(w->base.t);
}

/* The market's state came or changed: a demo needs no welcome; else the
 * screen shows, and the fields that depend on it are checked again. */
static void market_came(struct welcome *w)
{
	struct tui *t = w->base.t;

	if (market(w)->demo && w->base.cls == &wait_class) {
		/* a demo exchange: its prices need no account; nothing to welcome */
		tui_remove(t, &w->base);
		return;
	}
	for (int i = F_COUNTRY; i <= F_CURRENCY; i++)
		check_field(w, i);
	if (w->base.cls == &wait_class)
		become_shown(w);
	rebuild(w);
	t->redraw = true;
}

static void on_topup(void *ud, struct api_topup *r, const struct api_error *e)
{
	struct welcome *w = ud;

	w->topup_req = 0;
	if (e == NULL) {
		api_topup_free(&w->topup);
		w->topup = r;
	}
}

/* The key works: saved in the config file, used from now on. */
static void key_accepted(struct welcome *w, const char *key, const char *what)
{
	struct tui *t = w->base.t;
	char *cause = NULL, *top = topup_text(w), *saved;

	api_client_set_key(t->api, key);
	if (t->conf_path == NULL)
		saved = xstrdup(_("There is no config file to save the key in: it is used until "
				  "gpux ends."));
	else if (api_conf_store_key(t->conf_path, t->api_profile, t->api_url, key, false, NULL, &cause) != 0)
		saved = xasprintf(_("The key could not be saved (%s): it is used until gpux ends."),
				  cause != NULL ? cause : "?");
	else
		saved = xasprintf(_("The key is saved in %s, readable only by you."), t->conf_path);
	free(w->done_text);
	/* the opening time follows on the foot's line */
	w->done_text = xasprintf("%s %s %s", what, saved, top);
	free(cause);
	free(saved);
	free(top);
	w->mode = WM_DONE;
	set_note(w, NULL, WR_NORMAL);
	tui_account_moved(t); /* another account: its balance, its lists */
	tui_relayout(t);
}

static void on_created(void *ud, struct api_account *a, const struct api_error *e)
{
	struct welcome *w = ud;
	struct tui *t = w->base.t;

	w->create_req = 0;
	if (e != NULL) {
		char *words = tui_error_words(t, e);
		set_note(w, xasprintf(_("No account was created: %s"), words), WR_BAD);
		free(words);
	} else {
		char *what = xasprintf(_("Account %lld created for %s (%s)."), (long long)a->id,
				       a->email, view_role_text(t->o->lang, a->role));
		w->account_id = a->id;
		key_accepted(w, a->api_key, what);
		free(what);
		api_account_free(&a);
	}
	rebuild(w);
	t->redraw = true;
}

static void wipe_candidate(struct welcome *w)
{
	xfree_secret(w->candidate);
	w->candidate = NULL;
}

static void on_checked(void *ud, struct api_account *a, const struct api_error *e)
{
	struct welcome *w = ud;
	struct tui *t = w->base.t;

	w->check_req = 0;
	if (e != NULL) {
		api_client_set_key(t->api, NULL);
		if (e->http_status == 401)
			set_note(w, xstrdup(_("The exchange did not accept this key: check it and "
					      "type it again.")), WR_BAD);
		else
			set_note(w, tui_error_words(t, e), WR_BAD);
	} else {
		char *what = xasprintf(_("The key is the one of account %lld (%s)."),
				       (long long)a->id, a->email);
		key_accepted(w, w->candidate, what);
		free(what);
		api_account_free(&a);
	}
	wipe_candidate(w);
	rebuild(w);
	t->redraw = true;
}

/* ---- actions ------------------------------------------------------------------------------------------------- */

static void create(struct welcome *w)
{
	struct tui *t = w->base.t;
	char *cause = NULL;

	for (int i = 0; i < F_N; i++) {
		check_field(w, i);
		if (!w->ok[i]) {
			focus_field(w, i);
			set_note(w, market(w) == NULL && (i == F_COUNTRY || i == F_CURRENCY)
				 ? xstrdup(_("The exchange has not said yet which countries and "
					     "currencies it takes; wait a moment."))
				 : xstrdup(_("This field is still needed.")), WR_BAD);
			return;
		}
	}
	if (t->conf_path != NULL && api_conf_key_check(t->conf_path, t->api_profile, t->api_url, false, &cause) != 0) {
		set_note(w, xasprintf(_("No account was created: its key could not be saved: %s"),
				      cause), WR_BAD);
		free(cause);
		return;
	}
	if (w->create_req != 0)
		return;
	w->create_req = api_account_create_start(t->api, wfield_text(w->f[F_EMAIL]), w->cc, w->ccy,
						 (enum api_role)w->role, on_created, w);
	set_note(w, xstrdup(_("Creating the account…")), WR_DIM);
}

static void check_key(struct welcome *w)
{
	struct tui *t = w->base.t;
	const char *k = wfield_line_editor.text(w->mask->in);

	if (k[0] == '\0') {
		set_note(w, xstrdup(_("Type or paste the key first.")), WR_BAD);
		return;
	}
	if (w->check_req != 0)
		return;
	wipe_candidate(w);
	w->candidate = xstrdup(k);
	api_client_set_key(t->api, w->candidate);
	w->check_req = api_account_start(t->api, on_checked, w);
	set_note(w, xstrdup(_("Checking the key with the exchange…")), WR_DIM);
}

static void key_field_new(struct welcome *w)
{
	struct tui *t = w->base.t;

	if (w->key != NULL)
		return;
	w->mask = xcalloc(1, sizeof *w->mask);
	w->mask->in = wfield_line_editor_new("", 0);
	w->mask->bullet = t->ascii ? "*" : "\u2022";
	w->key = (struct wfield *)tui_screen_add(
		&w->base, &wfield_new_engine(&t->ui, _("API key: "), &mask_engine, w->mask)->base);
}

static void set_mode(struct welcome *w, enum wmode m)
{
	if (w->mode == WM_FORM)
		wfield_focus(w->f[w->focus], false);
	if (w->mode == WM_KEY && w->key != NULL)
		wfield_focus(w->key, false);
	w->mode = m;
	set_note(w, NULL, WR_NORMAL);
	if (m == WM_FORM)
		wfield_focus(w->f[w->focus], true);
	if (m == WM_KEY) {
		key_field_new(w);
		wfield_focus(w->key, true);
	}
	tui_relayout(w->base.t);
}

/* ---- the screen ---------------------------------------------------------------------------------------------- */

enum { WK_CREATE = 1, WK_KEY, WK_BROWSE, WK_ACCOUNT, WK_BACK };

static const struct wbinding menu_bindings[] = {
	{ 'c', WK_CREATE, N_("Create an account"), N_("Create account"), "create-account" },
	{ 'k', WK_KEY, N_("Enter the API key of an account you have"), N_("Enter key"), "enter-key" },
	{ 'a', WK_ACCOUNT, N_("Your account (once it is ready)"), N_("Account"), "account" },
	{ WKEY_ESC, WK_BROWSE, N_("Browse the prices without an account (or go back)"),
	  N_("Browse"), "browse" },
	/* Esc while a field is typed (the field's) or once done, on the bar */
	{ WKEY_ESC, WK_BACK, NULL, N_("Back") },
};

static const struct tui_keymap keys[] = {
	{ N_("Welcome"), menu_bindings, sizeof menu_bindings / sizeof menu_bindings[0] },
};

/* The bar's keys of each mode. */
static bool scr_offers(const struct tui_screen *s, int action)
{
	const struct welcome *w = (const struct welcome *)s;

	switch (action) {
	case WK_CREATE: case WK_KEY: case WK_BROWSE: return w->mode == WM_MENU;
	case WK_ACCOUNT: return w->mode == WM_DONE;
	default: return w->mode != WM_MENU;
	}
}

static unsigned form_event(struct welcome *w, wkey k)
{
	unsigned r;

	if (k == WKEY_TAB || k == WKEY_DOWN || k == WKEY_BTAB || k == WKEY_UP) {
		focus_field(w, w->focus + (k == WKEY_TAB || k == WKEY_DOWN ? 1 : -1));
		set_note(w, NULL, WR_NORMAL);
		return W_HANDLED | W_REDRAW;
	}
	r = wwidget_handle(&w->f[w->focus]->base, &(struct wevent){ .type = WEV_KEY, .key = k });
	if (r & W_CHANGED) {
		check_field(w, w->focus);
		if (w->focus == F_COUNTRY)
			country_chosen(w);
		set_note(w, NULL, WR_NORMAL);
	}
	if (r & W_CLOSE) {
		if (!w->f[w->focus]->submitted)
			set_mode(w, WM_MENU);
		else if (w->focus == F_N - 1)
			create(w);
		else
			focus_field(w, w->focus + 1);
	}
	/* the field's W_CLOSE is the field's, not the screen's */
	return r == W_IGNORED ? W_IGNORED : (r & ~(unsigned)W_CLOSE) | W_HANDLED | W_REDRAW;
}

static unsigned key_event(struct welcome *w, wkey k)
{
	unsigned r = wwidget_handle(&w->key->base, &(struct wevent){ .type = WEV_KEY, .key = k });

	if (r & W_CHANGED)
		set_note(w, NULL, WR_NORMAL);
	if (r & W_CLOSE) {
		if (w->key->submitted)
			check_key(w);
		else
			set_mode(w, WM_MENU);
	}
	return W_HANDLED | W_REDRAW;
}

static unsigned scr_event(struct tui_screen *s, const struct wevent *ev)
{
	struct welcome *w = (struct welcome *)s;
	struct tui *t = s->t;
	const struct wbinding *b;

	if (s->cls == &wait_class || ev->type != WEV_KEY || ev->key == WKEY_RESIZE)
		return s->cls == &wait_class || ev->type == WEV_KEY ? W_IGNORED : W_HANDLED;
	if (w->mode == WM_FORM && w->create_req == 0)
		return form_event(w, ev->key);
	if (w->mode == WM_KEY && w->check_req == 0)
		return key_event(w, ev->key);
	if (w->mode == WM_FORM || w->mode == WM_KEY)
		return W_HANDLED; /* waiting for the exchange's answer */
	b = tui_keys_find(t, &keys[0], ev->key);
	if (w->mode == WM_DONE && ev->key == WKEY_ENTER)
		return W_HANDLED | W_CLOSE;
	switch (b != NULL ? b->action : 0) {
	case WK_CREATE:
		if (w->mode == WM_MENU)
			set_mode(w, WM_FORM);
		return W_HANDLED | W_REDRAW;
	case WK_KEY:
		if (w->mode == WM_MENU)
			set_mode(w, WM_KEY);
		return W_HANDLED | W_REDRAW;
	case WK_ACCOUNT:
		if (w->mode != WM_DONE)
			return W_HANDLED;
		tui_open(t, TUI_ACCOUNT, NULL);
		return W_HANDLED | W_CLOSE;
	case WK_BROWSE:
		return W_HANDLED | W_CLOSE;
	}
	return W_IGNORED;
}

static void scr_layout(struct tui_screen *s, struct tui_area *body)
{
	struct welcome *w = (struct welcome *)s;
	struct tui *t = s->t;
	int y = 0, bottom = body->y + body->h, hh;

	if (s->cls == &wait_class) {
		s->shown = false;
		return;
	}
	tui_screen_hide(s); /* each mode shows its own widgets */
	wwidget_place(&w->head->base, 0, 0, 1, t->cols); /* the width, for the wrap */
	head_build(w);
	hh = (int)w->head->n < bottom - 2 ? (int)w->head->n : bottom - 2;
	wwidget_place(&w->head->base, y, 0, hh, t->cols);
	y += hh;
	if (w->mode == WM_FORM) {
		for (int i = 0; i < F_N && y < bottom - 1; i++)
			wwidget_place(&w->f[i]->base, y++, 1, 1, t->cols - 2);
	} else if (w->mode == WM_KEY && y < bottom - 1) {
		wwidget_place(&w->key->base, y++, 1, 1, t->cols - 2);
	}
	if (y < bottom)
		wwidget_place(&w->foot->base, y, 0, bottom - y, t->cols);
	rebuild(w);
	body->h = 0;
}

static void scr_recalc(struct tui_screen *s, int64_t now)
{
	struct welcome *w = (struct welcome *)s;

	(void)now;
	if (market(w) != NULL && w->seen_state != s->t->m.state_gen) {
		w->seen_state = s->t->m.state_gen;
		market_came(w); /* may take the screen off the stack */
	}
}

static void scr_repaint(struct tui_screen *s)
{
	rebuild((struct welcome *)s);
}

static bool scr_wants_focus(const struct tui_screen *s)
{
	return s->cls == &tui_welcome_class;
}

static void scr_tick(struct tui_screen *s, int64_t now, int64_t *next)
{
	struct welcome *w = (struct welcome *)s;
	struct tui *t = s->t;

	(void)now;
	(void)next;
	if (t->api != NULL && w->topup == NULL && w->topup_req == 0 && market(w) != NULL)
		w->topup_req = api_topup_start(t->api, on_topup, w);
}

static void scr_notify(struct tui_screen *s, unsigned what)
{
	struct welcome *w = (struct welcome *)s;

	if (!(what & TN_LANG))
		return;
	for (int i = 0; i < F_N; i++) {
		set_prompt(w->f[i], field_prompt(i));
		check_field(w, i);
	}
	if (w->key != NULL)
		set_prompt(w->key, _("API key: "));
	tui_relayout(s->t);
}

static void scr_free(struct tui_screen *s)
{
	struct welcome *w = (struct welcome *)s;
	struct tui *t = s->t;
	uint64_t reqs[] = { w->topup_req, w->create_req, w->check_req };

	for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++)
		if (reqs[i] != 0 && t->api != NULL)
			api_abandon(t->api, reqs[i]);
	if (w->check_req != 0 && t->api != NULL)
		api_client_set_key(t->api, NULL); /* a key that was never accepted */
	wipe_candidate(w);
	for (int i = 0; i < F_N; i++)
		free(w->why[i]);
	api_topup_free(&w->topup);
	free(w->note);
	free(w->done_text);
}

/* Waiting for the market: nothing shown, no key taken. */
static const struct tui_screen_class wait_class = {
	.name = "welcome-wait", .layout = scr_layout, .recalc = scr_recalc, .event = scr_event,
	.tick = scr_tick, .notify = scr_notify, .wants_focus = scr_wants_focus, .free = scr_free,
};
const struct tui_screen_class tui_welcome_class = {
	.name = "welcome", .flags = TS_OPAQUE | TS_MODAL, .layout = scr_layout,
	.recalc = scr_recalc, .repaint = scr_repaint, .event = scr_event, .tick = scr_tick,
	.notify = scr_notify, .wants_focus = scr_wants_focus, .offers = scr_offers,
	.free = scr_free, .keys = keys, .n_keys = 1,
};

static struct welcome *welcome_new(struct tui *t, const struct tui_screen_class *cls)
{
	struct welcome *w = xcalloc(1, sizeof *w);

	tui_screen_init(&w->base, cls, t);
	w->head = (struct wpanel *)tui_screen_add(&w->base, &wpanel_new(&t->ui)->base);
	w->foot = (struct wpanel *)tui_screen_add(&w->base, &wpanel_new(&t->ui)->base);
	w->role = API_ROLE_BUYER;
	fields_new(w);
	return w;
}

/* Without an API key on an exchange other than the local demo: the
 * welcome, once the exchange has said it is not a demo. */
void tui_first_run_open(struct tui *t, const struct tui_goto *g)
{
	(void)g;
	if (t->api == NULL || api_client_is_local_demo(t->api) || api_client_has_key(t->api) ||
	    tui_find(t, &wait_class) != NULL)
		return;
	tui_push(t, &welcome_new(t, &wait_class)->base);
}

/* The welcome at once (the account page's w, without a key). */
void tui_welcome_open(struct tui *t, const struct tui_goto *g)
{
	(void)g;
	if (t->api == NULL || tui_find(t, &tui_welcome_class) != NULL)
		return;
	tui_push(t, &welcome_new(t, &tui_welcome_class)->base);
}
