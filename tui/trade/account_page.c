/*
 * Your account (a): who it is (id, email, country and VAT, currency, role),
 * the balances available and held (and what the held part is for), and the
 * ledger, newest first, refreshed every few seconds with the cursor staying
 * on its row. d tops the balance up where the exchange takes simulated
 * payments (a demo exchange): the amount is typed as people write it in
 * their language, confirmed, and the new balance shows at once; elsewhere
 * the page shows the operator's top-up instructions instead. The API keys
 * of the account (name, scope, created, last used) are listed above the
 * ledger: n makes a read-only key, N a trade key (shown once, whole, on a
 * line of its own — or, on a terminal narrower than the key, how wide it
 * must be — until the next key is made or revoked), x revokes
 * one after a confirmation (the exchange refuses the last trade key, in its
 * own words). Without a key the page says so (w: the welcome screen), and
 * a ledger that could not be read is never called empty.
 *
 * The account itself is the feed's (t->account, one owner); this page
 * asks for the ledger, the keys and, where gpux cannot top up, the
 * operator's words.
 */
#include "tui/trade/trade.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

enum { LC_ID, LC_AT, LC_KIND, LC_BUCKET, LC_AMOUNT, LC_ORDER, LC_RENTAL, LC_N };

static const char *const head[LC_N] = {
	N_("Entry"), N_("When"), N_("Kind"), N_("Bucket"), N_("Amount"), N_("Order"), N_("Rental"),
};
static const enum walign align[LC_N] = {
	WALIGN_RIGHT, WALIGN_LEFT, WALIGN_LEFT, WALIGN_LEFT, WALIGN_RIGHT, WALIGN_RIGHT,
	WALIGN_RIGHT,
};

enum { AC_HEAD_LINES = 9, AC_KEYS_MAX_SHOWN = 8 };
#define AC_MAX_DEPOSIT_MINOR 100000000000LL /* docs/API.md, limits */

enum ac_input { AI_DEPOSIT, AI_KEY_READ, AI_KEY_TRADE, AI_REVOKE };

struct account_page {
	struct tui_list l;          /* l.input: what is typed (input says what for) */
	enum ac_input input;
	struct api_ledger *ledger;
	uint64_t ledger_req;
	uint64_t deposit_req;
	struct api_keys *keys;      /* NULL until the exchange answers */
	char *keys_error;           /* words; NULL when the last reply was good */
	uint64_t keys_req, key_req;
	struct api_topup *topup;    /* the operator's top-up words (not a demo) */
	uint64_t topup_req;
	/* the key just made, the one time the exchange gives it: shown whole
	 * on a line of its own until the next key is made or revoked */
	char *new_key;
	char *new_key_what;         /* "New trade key 2" */
};

static struct tui *tui_of(const struct account_page *s)
{
	return s->l.page.base.t;
}

static const char *kind_text(enum api_ledger_kind k)
{
	switch (k) {
	case API_LEDGER_DEPOSIT: return _("deposit");
	case API_LEDGER_HOLD: return _("hold");
	case API_LEDGER_RELEASE: return _("release");
	case API_LEDGER_CHARGE: return _("charge");
	case API_LEDGER_VAT: return _("VAT");
	case API_LEDGER_PAYOUT: return _("payout");
	case API_LEDGER_FEE: return _("fee");
	case API_LEDGER_DEPOSIT_REVERSAL: return _("deposit reversed");
	case API_LEDGER_WITHDRAWAL_HOLD: return _("withdrawal requested");
	case API_LEDGER_WITHDRAWAL: return _("withdrawal sent");
	case API_LEDGER_WITHDRAWAL_RELEASE: return _("withdrawal released");
	}
	return "?";
}

/* Whether this exchange takes deposits from gpux (simulated payments). */
static bool can_deposit(const struct tui *t)
{
	return t->m.state != NULL && t->m.state->simulated_payments;
}

static bool have_key(const struct tui *t)
{
	return api_client_has_key(t->api);
}

/* How to top up where gpux cannot (malloc'ed). */
static char *topup_words(const struct account_page *s)
{
	const struct api_topup *tp = s->topup;

	if (tp != NULL && (tp->text != NULL || tp->url != NULL))
		return xasprintf(_("Top up: %s%s%s"), tp->text ? tp->text : "",
				 tp->text && tp->url ? " " : "", tp->url ? tp->url : "");
	return xstrdup(_("Top up through the exchange's operator."));
}

/* ---- the head ---------------------------------------------------------------------------------- */

/* The API keys: a title line and one line per key. */
static void key_lines(struct account_page *s, struct wpanel *p)
{
	struct tui *t = tui_of(s);
	struct wcells *c;
	char *x;

	wpanel_add(p);
	c = wpanel_add(p);
	wcells_pad(c, 1, WR_NORMAL);
	if (s->keys == NULL) {
		wcells_add(c, s->keys_error != NULL ? s->keys_error
			   : _("API keys: asking the exchange…"),
			   s->keys_error != NULL ? WR_BAD : WR_DIM, 0);
		return;
	}
	x = xasprintf(_("API keys (%zu of at most %lld)"), s->keys->n, (long long)s->keys->max);
	wcells_add(c, x, WR_NORMAL, WAT_BOLD);
	free(x);
	/* TRANSLATORS: the keys that make a read-only key, a trade key, and revoke one */
	x = tui_key_text(t, _("  %s: new read-only key \u00b7 %s: new trade key \u00b7 %s: revoke"),
			 "new-key", "new-trade-key", "revoke-key", NULL);
	if (c->width + wtext_width(x, c->ascii) <= p->base.w)
		wcells_add(c, x, WR_DIM, 0);
	free(x);
	for (size_t i = 0; i < s->keys->n && i < AC_KEYS_MAX_SHOWN; i++) {
		const struct api_key *k = &s->keys->v[i];
		char *cr = tui_date(t, k->created_at);
		char *lu = k->last_used_at >= 0 ? tui_date(t, k->last_used_at) : xstrdup(_("never"));
		c = wpanel_add(p);
		wcells_pad(c, 3, WR_NORMAL);
		x = xasprintf("%lld  %s  %s", (long long)k->id, k->name != NULL ? k->name : "",
			      k->scope == API_SCOPE_READ ? _("read-only") : _("trade"));
		wcells_add(c, x, WR_NORMAL, 0);
		free(x);
		/* what does not fit the width is left out whole: a date is never cut */
		x = xasprintf(_(" · created %s"), cr);
		tui_add_whole(c, x, p->base.w);
		free(x);
		x = xasprintf(_(" · last used %s"), lu);
		tui_add_whole(c, x, p->base.w);
		free(x);
		if (k->current && c->width + wtext_width(_("  (this session's key)"), c->ascii) <=
					  p->base.w)
			wcells_add(c, _("  (this session's key)"), WR_DIM, 0);
		free(cr);
		free(lu);
	}
}

/* The key just made, whole: what it is and the warning (wrapped), then the
 * key alone at the line's first column — nothing before or after it, so a
 * selection over SSH takes exactly it — or, where the terminal is
 * narrower than the key, how wide it must be to show it. */
static void new_key_lines(struct account_page *s, struct wpanel *p)
{
	int kw, w = p->base.w;
	char *x;

	if (s->new_key == NULL)
		return;
	kw = wtext_width(s->new_key, false);
	char *k = tui_key_label(tui_of(s), "copy-key");
	/* TRANSLATORS: over the new API key, which has a line of its own below; %1$s
	   says which key, %2$s is the key that copies it */
	x = xasprintf(_("%1$s (%2$s copies it; it is not shown again):"), s->new_key_what, k);
	free(k);
	wpanel_text(p, x, WR_GOOD, 1);
	free(x);
	if (kw <= w) {
		wcells_add(wpanel_add(p), s->new_key, WR_NORMAL, WAT_BOLD);
		return;
	}
	/* TRANSLATORS: the new key does not fit the terminal's width */
	x = xasprintf(_("The key is %d characters long: widen the terminal to %d columns or more "
			"to see it whole (it stays here until the next key is made or revoked)."),
		      kw, kw);
	wpanel_text(p, x, WR_BAD, 1);
	free(x);
}

/* The lines new_key_lines takes at width w. */
static int new_key_height(const struct account_page *s, int w)
{
	char *x, **lines;
	size_t n = 0;
	int kw;

	if (s->new_key == NULL || w <= 1)
		return 0;
	kw = wtext_width(s->new_key, false);
	int tw = w - 1 < 8 ? 8 : w - 1; /* as wpanel_text wraps */
	char *k = tui_key_label(tui_of(s), "copy-key");
	/* TRANSLATORS: over the new API key, which has a line of its own below; %1$s
	   says which key, %2$s is the key that copies it */
	x = xasprintf(_("%1$s (%2$s copies it; it is not shown again):"), s->new_key_what, k);
	free(k);
	n += wtext_wrap(x, tw, tui_of(s)->ascii, &lines);
	wtext_lines_free(lines, n);
	free(x);
	if (kw <= w)
		return (int)n + 1;
	x = xasprintf(_("The key is %d characters long: widen the terminal to %d columns or more "
			"to see it whole (it stays here until the next key is made or revoked)."),
		      kw, kw);
	size_t m = wtext_wrap(x, tw, tui_of(s)->ascii, &lines);
	wtext_lines_free(lines, m);
	free(x);
	return (int)(n + m);
}

static void new_key_forget(struct account_page *s)
{
	xfree_secret(s->new_key);
	free(s->new_key_what);
	s->new_key = s->new_key_what = NULL;
}

/* The head's height: the account's lines, the new key's and the keys'. */
static void fit_head(struct account_page *s)
{
	size_t n = s->keys != NULL ? s->keys->n : 0;
	int h = tui_of(s)->account.a == NULL
		? AC_HEAD_LINES : AC_HEAD_LINES + 2 + (int)(n < AC_KEYS_MAX_SHOWN ? n : AC_KEYS_MAX_SHOWN);

	h += new_key_height(s, s->l.head != NULL ? s->l.head->base.w : tui_of(s)->cols);

	if (s->l.head_lines != h) {
		s->l.head_lines = h;
		tui_relayout(tui_of(s));
	}
}

/* The line under the balances: the last action's outcome, the list's
 * error, or how to top up on this exchange. */
static void note_line(struct account_page *s, struct wcells *c)
{
	struct tui *t = tui_of(s);
	char *x;

	wcells_pad(c, 1, WR_NORMAL);
	if (s->l.note != NULL)
		wcells_add(c, s->l.note, s->l.note_role, 0);
	else if (s->l.error != NULL)
		wcells_add(c, s->l.error, WR_BAD, 0);
	else if (t->api == NULL)
		wcells_add(c, _("No exchange: orders need one (see the status bar)."), WR_BAD, 0);
	else if (t->m.state == NULL)
		wcells_add(c, _("Asking the exchange how to top up…"), WR_DIM, 0);
	else if (!can_deposit(t)) {
		x = topup_words(s);
		wcells_add(c, x, WR_NORMAL, 0);
		free(x);
	} else {
		/* TRANSLATORS: %s is the key that deposits (d unless rebound) */
		x = tui_key_text(t, api_client_is_local_demo(t->api)
				 ? _("Local demo exchange, simulated money: %s deposits (tops up).")
				 : _("%s deposits (tops up): a simulated payment on this exchange."),
				 "deposit", NULL);
		wcells_add(c, x, WR_DIM, 0);
		free(x);
	}
}

/* Without an account: why, in one paragraph. */
static void no_account(struct account_page *s, struct wpanel *p)
{
	struct tui *t = tui_of(s);
	const char *err = t->account.error;

	if (t->api == NULL)
		wpanel_text(p, _("No exchange: orders need one (see the status bar)."), WR_BAD, 1);
	else if (!have_key(t))
		wpanel_text(p, _("No API key is configured for this exchange, so there is no "
				 "account to show: w creates an account or enters the key of one."),
			    WR_NORMAL, 1);
	else
		wpanel_text(p, err != NULL ? err : _("asking the exchange for your account…"),
			    err != NULL ? WR_BAD : WR_DIM, 1);
}

/* "label   amount" of a balance, a line of p. */
static struct wcells *balance_line(struct tui *t, struct wpanel *p, int lw, const char *label,
				   int64_t minor, const char *ccy, unsigned attrs)
{
	struct wcells *c = wpanel_add(p);
	char *m = tui_money(t, minor, ccy);

	wcells_pad(c, 1, WR_NORMAL);
	wpanel_kv(c, lw, label, m, WR_NORMAL, attrs);
	free(m);
	return c;
}

/* Who the account is: its number, e-mail and role; its country, VAT and currency. */
static void who_lines(struct tui *t, struct wpanel *p, const struct api_account *a)
{
	struct wcells *c = wpanel_add(p);
	char *bp, *x;

	wcells_pad(c, 1, WR_NORMAL);
	x = xasprintf(_("Account %lld · %s · %s"), (long long)a->id, a->email,
		      view_role_text(t->o->lang, a->role));
	wcells_add(c, x, WR_NORMAL, WAT_BOLD);
	free(x);
	c = wpanel_add(p);
	wcells_pad(c, 1, WR_NORMAL);
	bp = i18n_fmt_percent(t->o->lang, (double)a->vat_rate_bp / 100.0,
			      a->vat_rate_bp % 100 != 0 ? 2 : 0);
	x = xasprintf(_("%s, VAT %s · pays in %s"), a->country, bp, a->currency);
	wcells_add(c, x, WR_DIM, 0);
	free(x);
	free(bp);
	if (a->fx_rate_micro > 0 && strcmp(a->currency, "USD") != 0) {
		char *fx = i18n_fmt_number(t->o->lang, (double)a->fx_rate_micro / 1e6, 4);
		x = xasprintf(_(" · 1 USD = %s %s (the exchange's rate)"), fx, a->currency);
		wcells_add(c, x, WR_DIM, 0);
		free(x);
		free(fx);
	}
}

static void head_lines(struct account_page *s)
{
	struct tui *t = tui_of(s);
	const struct api_account *a = t->account.a;
	struct wpanel *p = s->l.head;
	const char *labels[] = { _("Available"), _("Held"), _("Total") };
	int lw = 0;
	struct wcells *c;
	char *o, *r, *x;

	wpanel_begin(p);
	if (a == NULL) {
		no_account(s, p);
		wpanel_commit(p);
		return;
	}
	for (size_t i = 0; i < 3; i++)
		if (wtext_width(labels[i], t->ascii) > lw)
			lw = wtext_width(labels[i], t->ascii);
	lw += 3;
	who_lines(t, p, a);
	wpanel_add(p);
	if (a->has_balance) {
		balance_line(t, p, lw, labels[0], a->balance.available_minor, a->currency, WAT_BOLD);
		wcells_add(balance_line(t, p, lw, labels[1], a->balance.held_minor, a->currency, 0),
			   _("  for resting orders and rental hours not begun yet"), WR_DIM, 0);
		balance_line(t, p, lw, labels[2], a->balance.total_minor, a->currency, 0);
	}
	o = xasprintf(P_("%lld resting order", "%lld resting orders",
			 (unsigned long)a->open_orders), (long long)a->open_orders);
	r = xasprintf(P_("%lld active rental", "%lld active rentals",
			 (unsigned long)a->active_rentals), (long long)a->active_rentals);
	x = xasprintf("%s · %s", o, r);
	c = wpanel_add(p);
	wcells_pad(c, 1, WR_NORMAL);
	wcells_add(c, x, WR_NORMAL, 0);
	free(x);
	free(o);
	free(r);
	note_line(s, wpanel_add(p));
	new_key_lines(s, p);
	key_lines(s, p);
	wpanel_commit(p);
}

/* What the ledger's table says without rows: never "no entries" when it
 * could not be read. */
static const char *ledger_empty(const struct account_page *s)
{
	struct tui *t = tui_of(s);

	if (t->api != NULL && !have_key(t))
		return N_("No ledger without an account.");
	if (s->ledger == NULL && s->l.error != NULL)
		return N_("The ledger could not be read: see the line above.");
	if (s->ledger == NULL)
		return N_("Asking the exchange for the ledger…");
	return N_("No ledger entries yet");
}

static void build(struct tui_list *l)
{
	struct account_page *s = (struct account_page *)l;
	struct tui *t = tui_of(s);
	struct tui_grid *g = &l->grid;

	fit_head(s);
	head_lines(s);
	g->empty = ledger_empty(s);
	for (size_t i = 0; s->ledger != NULL && i < s->ledger->n; i++) {
		const struct api_ledger_row *r = &s->ledger->v[i];
		tui_grid_row(g, r->id, WR_NORMAL);
		tui_grid_put(g, LC_ID, xasprintf("%lld", (long long)r->id));
		tui_grid_put(g, LC_AT, tui_date(t, r->at));
		tui_grid_puts(g, LC_KIND, kind_text(r->kind));
		tui_grid_puts(g, LC_BUCKET, r->held ? _("held") : r->debt ? _("debt") : _("available"));
		tui_grid_put(g, LC_AMOUNT, tui_money(t, r->amount_minor, r->currency));
		tui_grid_put(g, LC_ORDER, r->order_id >= 0 ? xasprintf("%lld", (long long)r->order_id)
							   : xstrdup(""));
		tui_grid_put(g, LC_RENTAL, r->rental_id >= 0
			     ? xasprintf("%lld", (long long)r->rental_id) : xstrdup(""));
	}
}

/* ---- the exchange's answers ----------------------------------------------------------------------- */

static void on_ledger(void *ud, struct api_ledger *r, const struct api_error *e)
{
	struct account_page *s = ud;

	s->ledger_req = 0;
	if (tui_list_reply(&s->l, e)) {
		api_ledger_free(&s->ledger);
		s->ledger = r;
	}
}

static void on_keys(void *ud, struct api_keys *r, const struct api_error *e)
{
	struct account_page *s = ud;

	s->keys_req = 0;
	free(s->keys_error);
	s->keys_error = NULL;
	if (e != NULL) {
		char *w = tui_error_words(tui_of(s), e);
		s->keys_error = xasprintf(_("API keys: %s"), w);
		free(w);
	} else {
		api_keys_free(&s->keys);
		s->keys = r;
	}
	tui_list_dirty(&s->l);
}

static void on_topup(void *ud, struct api_topup *r, const struct api_error *e)
{
	struct account_page *s = ud;

	s->topup_req = 0;
	if (e == NULL) {
		api_topup_free(&s->topup);
		s->topup = r;
		tui_list_dirty(&s->l);
	}
}

/* A key made (made) or revoked: note (taken) on success, else why not in
 * the exchange's words; the list again. */
static void key_answer(struct account_page *s, const struct api_error *e, bool made, char *note)
{
	s->key_req = 0;
	if (e != NULL) {
		char *w = tui_error_words(tui_of(s), e);
		free(note);
		tui_list_note(&s->l, made ? xasprintf(_("No key was made: %s"), w)
				     : xasprintf(_("The key was not revoked: %s"), w), WR_BAD);
		free(w);
	} else {
		tui_list_note(&s->l, note, WR_GOOD);
	}
	tui_list_soon(&s->l);
}

static void on_key_made(void *ud, struct api_key *k, const struct api_error *e)
{
	struct account_page *s = ud;
	char *note = NULL;

	/* the one time the exchange gives it: shown whole on its own line
	 * (new_key_lines), saved nowhere, in no message */
	new_key_forget(s);
	if (e == NULL) {
		/* TRANSLATORS: "New trade key 2", "New read-only key 3" */
		s->new_key_what = xasprintf(k->scope == API_SCOPE_READ ? _("New read-only key %lld")
								      : _("New trade key %lld"),
					    (long long)k->id);
		s->new_key = xstrdup(k->api_key != NULL ? k->api_key : "?");
	}
	key_answer(s, e, true, note);
	api_key_free(&k);
}

static void on_key_revoked(void *ud, struct api_key *k, const struct api_error *e)
{
	if (e == NULL)
		new_key_forget(ud);
	char *note = e != NULL ? NULL
		: xasprintf(_("Key %lld is revoked: the exchange refuses it from now on."),
			    (long long)k->id);

	key_answer(ud, e, false, note);
	api_key_free(&k);
}

static void on_deposit(void *ud, struct api_deposit *d, const struct api_error *e)
{
	struct account_page *s = ud;
	struct tui *t = tui_of(s);
	char *x, *av;

	s->deposit_req = 0;
	if (e != NULL && e->http_status == 403) {
		tui_list_note(&s->l, xstrdup(_("This exchange takes real payments: top up through "
					       "its operator.")), WR_BAD);
		tui_account_moved(t);
		return;
	}
	if (e != NULL) {
		tui_list_acted(&s->l, e, NULL);
		return;
	}
	x = tui_money(t, d->amount_minor, d->currency);
	av = tui_money(t, d->balance.available_minor, d->currency);
	tui_account_set_balance(t, d->currency, &d->balance);
	tui_list_acted(&s->l, NULL, xasprintf(_("Deposited %s; available now %s."), x, av));
	tui_list_input_close(&s->l);
	free(x);
	free(av);
	api_deposit_free(&d);
}

/* ---- what is typed: a deposit, a key's name, the key to revoke ------------------------------------------ */

static void deposit_done(void *ud, int64_t amount, bool yes, wkey key)
{
	struct account_page *s = ud;
	struct tui *t = tui_of(s);

	(void)key;
	if (!yes) {
		tui_list_note(&s->l, xstrdup(_("Nothing was deposited.")), WR_DIM);
	} else if (s->deposit_req == 0 && t->api != NULL) {
		s->deposit_req = api_deposit_start(t->api, amount, on_deposit, s);
		tui_list_note(&s->l, xstrdup(_("Depositing…")), WR_DIM);
	}
}

static void revoke_done(void *ud, int64_t id, bool yes, wkey key)
{
	struct account_page *s = ud;
	struct tui *t = tui_of(s);

	(void)key;
	if (!yes)
		tui_list_note(&s->l, xstrdup(_("No key was revoked.")), WR_DIM);
	else if (s->key_req == 0 && t->api != NULL)
		s->key_req = api_key_revoke_start(t->api, id, on_key_revoked, s);
}

static const struct api_key *key_by_id(const struct account_page *s, int64_t id)
{
	for (size_t i = 0; s->keys != NULL && i < s->keys->n; i++)
		if (s->keys->v[i].id == id)
			return &s->keys->v[i];
	return NULL;
}

static void open_field(struct account_page *s, enum ac_input kind, const char *prompt,
		       const char *hint)
{
	s->input = kind;
	tui_list_input_open(&s->l, prompt, hint, kind == AI_DEPOSIT ? "account.deposit" : NULL);
}

/* n, N, x: a key's name, or the number of the key to revoke. */
static void open_key_input(struct account_page *s, enum ac_input kind)
{
	if (s->l.input != NULL)
		return;
	if (tui_of(s)->account.a == NULL || s->keys == NULL) {
		tui_message(tui_of(s), _("Your keys are not known yet: wait for them, then press the "
					 "key again"));
		return;
	}
	if (kind == AI_REVOKE)
		open_field(s, kind, _("Revoke the API key number: "), _("Enter: review · Esc: cancel"));
	else
		open_field(s, kind, kind == AI_KEY_READ ? _("New read-only key, its name: ")
			   : _("New trade key, its name: "),
			   _("Enter: make it (an empty name: the exchange names it) · Esc: cancel"));
}

static void submit_key_input(struct account_page *s)
{
	struct tui *t = tui_of(s);
	const char *text = wfield_text(s->l.input);
	char *end = NULL, *title, *body;
	const struct api_key *k;
	long long id;

	if (s->input != AI_REVOKE) {
		if (s->key_req == 0)
			s->key_req = api_key_create_start(t->api, text[0] != '\0' ? text : NULL,
							  s->input == AI_KEY_READ ? API_SCOPE_READ
							  : API_SCOPE_TRADE, on_key_made, s);
		tui_list_note(&s->l, xstrdup(_("Making the key…")), WR_DIM);
		tui_list_input_close(&s->l);
		return;
	}
	id = strtoll(text, &end, 10);
	k = end != text && *end == '\0' ? key_by_id(s, id) : NULL;
	if (k == NULL) {
		wfield_set_error(s->l.input, _("not the number of one of your keys"));
		return;
	}
	title = xasprintf(_("Revoke API key %lld?"), id);
	body = xasprintf(_("Key %lld (%s, %s) stops working at once: every program that uses "
			   "it is refused from its next request.%s"), id, k->name ? k->name : "",
			 k->scope == API_SCOPE_READ ? _("read-only") : _("trade"),
			 k->current ? _(" It is the key of this session.") : "");
	tui_list_input_close(&s->l);
	tui_dialog_open(t, title, body, _("y: revoke · any other key: keep it"), true, revoke_done,
			s, id);
	free(title);
	free(body);
}

static void open_deposit(struct account_page *s)
{
	struct tui *t = tui_of(s);
	char *prompt;

	if (t->account.a == NULL || t->m.state == NULL) {
		/* TRANSLATORS: %s is the key that deposits (d unless rebound) */
		tui_key_message(t, _("Your account is not known yet: wait for it, then press %s again"),
				"deposit", NULL);
		return;
	}
	if (!can_deposit(t)) {
		tui_list_note(&s->l, topup_words(s), WR_BAD);
		return;
	}
	if (s->l.input != NULL)
		return;
	prompt = xasprintf(_("Deposit (%s): "), tui_account_currency(t));
	open_field(s, AI_DEPOSIT, prompt, _("Enter: review · Esc: cancel"));
	free(prompt);
}

static void submit_deposit(struct account_page *s)
{
	struct tui *t = tui_of(s);
	const char *ccy = tui_account_currency(t);
	char *cause = NULL, *m, *text, *title;
	int64_t amount = 0;

	if (i18n_parse_decimal(t->o->lang, wfield_text(s->l.input), 2, &amount, &cause) != 0 ||
	    amount < 1 || amount > AC_MAX_DEPOSIT_MINOR) {
		tui_list_note(&s->l, xasprintf(_("Not an amount%s%s: type e.g. %s, in %s"),
					       cause != NULL ? ": " : "", cause != NULL ? cause : "",
					       i18n_decimal_sep(t->o->lang) == ',' ? "500,00" : "500.00",
					       ccy), WR_BAD);
		wfield_set_error(s->l.input, _("not an amount"));
		free(cause);
		return;
	}
	m = tui_money(t, amount, ccy);
	text = xasprintf(_("Deposit %s into account %lld. %s"), m, (long long)t->account.a->id,
			 t->m.state->demo ? _("This is a simulated payment: no real money moves.")
			 : _("The exchange records it as a payment into your balance."));
	title = xasprintf(_("Deposit %s?"), m);
	tui_dialog_open(t, title, text, _("y or Enter: deposit · any other key: do not"), false,
			deposit_done, s, amount);
	free(title);
	free(text);
	free(m);
}

/* A key in the line being typed. */
static unsigned typed(struct tui_list *l, const struct wevent *ev)
{
	struct account_page *s = (struct account_page *)l;
	unsigned r;

	if (ev->type != WEV_KEY)
		return W_HANDLED;
	r = wwidget_handle(&s->l.input->base, ev);
	if (r & W_CLOSE) {
		if (!s->l.input->submitted)
			tui_list_input_close(&s->l);
		else if (s->input == AI_DEPOSIT)
			submit_deposit(s);
		else
			submit_key_input(s);
	}
	return W_HANDLED | W_REDRAW;
}

/* ---- the screen ------------------------------------------------------------------------------------------- */

enum { AK_DEPOSIT = 1, AK_KEY_READ, AK_KEY_TRADE, AK_REVOKE, AK_WELCOME, AK_COPY_KEY };

static const struct wbinding account_bindings[] = {
	{ 'd', AK_DEPOSIT, N_("Deposit (top up), where the exchange allows it"), N_("Deposit"),
	  "deposit" },
	{ '+', AK_DEPOSIT, N_("Deposit (top up), where the exchange allows it"), NULL, "deposit" },
	{ 'n', AK_KEY_READ, N_("New read-only API key (no orders, cancels, stops or deposits)"),
	  N_("New key"), "new-key" },
	{ 'N', AK_KEY_TRADE, N_("New trade API key"), NULL, "new-trade-key" },
	{ 'x', AK_REVOKE, N_("Revoke an API key (asks first)"), N_("Revoke key"), "revoke-key" },
	{ 'y', AK_COPY_KEY, N_("Copy the API key just made to the clipboard"), NULL, "copy-key" },
	{ 'w', AK_WELCOME, N_("Without a key: create an account or enter its key"),
	  N_("Account or key"), "welcome" },
};

static const struct tui_keymap keys[] = {
	{ N_("Your account"), account_bindings, sizeof account_bindings / sizeof account_bindings[0] },
	{ N_("Pages"), tui_page_bindings, TUI_PAGE_N_KEYS },
};

static unsigned account_key(struct tui_list *l, int action)
{
	struct account_page *s = (struct account_page *)l;
	struct tui *t = tui_of(s);

	switch (action) {
	case AK_DEPOSIT:
		if (have_key(t))
			open_deposit(s);
		break;
	case AK_KEY_READ:
	case AK_KEY_TRADE:
	case AK_REVOKE:
		if (have_key(t))
			open_key_input(s, action == AK_REVOKE ? AI_REVOKE
				       : action == AK_KEY_READ ? AI_KEY_READ : AI_KEY_TRADE);
		break;
	case AK_WELCOME:
		if (t->api != NULL && !have_key(t))
			tui_open(t, TUI_WELCOME, NULL);
		break;
	case AK_COPY_KEY:
		if (s->new_key != NULL)
			tui_copy(t, s->new_key, _("the new API key"), true);
		else
			/* TRANSLATORS: the keys that make a read-only and a trade API key */
			tui_key_message(t, _("No new key to copy: %s or %s makes one"), "new-key",
					"new-trade-key", NULL);
		break;
	default:
		return W_IGNORED;
	}
	return W_HANDLED | W_REDRAW;
}

static bool account_offers(const struct tui_list *l, int action)
{
	const struct tui *t = l->page.base.t;

	switch (action) {
	case AK_WELCOME: return !have_key(t);
	case AK_DEPOSIT: return have_key(t) && can_deposit(t);
	default: return have_key(t);
	}
}

static void ask(struct tui_list *l)
{
	struct account_page *s = (struct account_page *)l;
	struct api_client *api = tui_of(s)->api;
	struct api_list_query q = { .limit = 100 };

	s->ledger_req = api_ledger_start(api, &q, on_ledger, s);
	if (s->keys_req == 0)
		s->keys_req = api_keys_list_start(api, on_keys, s);
}

static bool busy(const struct tui_list *l)
{
	const struct account_page *s = (const struct account_page *)l;

	/* nothing to ask without a key: the page says how to get one */
	return s->ledger_req != 0 || !have_key(tui_of(s));
}

static void account_tick(struct tui_screen *sc, int64_t now, int64_t *next)
{
	struct account_page *s = (struct account_page *)sc;
	struct tui *t = sc->t;

	tui_list_tick(sc, now, next);
	if (t->api != NULL && have_key(t) && s->topup == NULL && s->topup_req == 0 &&
	    t->m.state != NULL && !t->m.state->simulated_payments)
		s->topup_req = api_topup_start(t->api, on_topup, s);
}

static void account_free(struct tui_screen *sc)
{
	struct account_page *s = (struct account_page *)sc;

	tui_list_free(&s->l, (const uint64_t[]){ s->ledger_req, s->deposit_req, s->keys_req,
						  s->key_req, s->topup_req }, 5);
	api_ledger_free(&s->ledger);
	api_keys_free(&s->keys);
	api_topup_free(&s->topup);
	free(s->keys_error);
	new_key_forget(s);
}

const struct tui_screen_class tui_account_page_class = {
	.name = "account", .flags = TS_OPAQUE | TS_PAGE, .layout = tui_list_layout,
	.recalc = tui_list_recalc, .event = tui_list_event, .tick = account_tick,
	.notify = tui_list_notify, .help = tui_list_help, .offers = tui_list_offers,
	.free = account_free, .keys = keys, .n_keys = 2,
};

void tui_account_page_open(struct tui *t, const struct tui_goto *g)
{
	static const struct tui_list_def def = {
		&tui_account_page_class, TUI_ACCOUNT, sizeof(struct account_page), TUI_LEDGER_MS,
		AC_HEAD_LINES, LC_N, head, align, N_("No ledger entries yet"),
	};
	static const struct tui_list_ops ops = {
		.key = account_key, .typed = typed, .offers = account_offers, .ask = ask,
		.busy = busy, .build = build,
	};

	(void)g;
	tui_list_open(t, &def, &ops);
}
