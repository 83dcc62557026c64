/*
 * Your account (a): who it is (id, email, country and VAT, currency, role),
 * the balances available and held (and what the held part is for), and the
 * ledger, newest first, refreshed every few seconds with the cursor staying
 * on its row. d tops the balance up where the exchange takes simulated
 * payments (a demo exchange): the amount is typed as people write it in
 * their language, confirmed, and the new balance shows at once; elsewhere
 * the page shows the operator's top-up instructions instead. The API keys
 * of the account (name, scope, created, last used) are listed above the
 * ledger: n makes a read-only key, N a trade key (shown once), x revokes
 * one after a confirmation (the exchange refuses the last trade key, in its
 * own words). Without a key the page says so (w: the welcome screen), and
 * a ledger that could not be read is never called empty.
 */
#include "tui/order_int.h"

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

enum { AC_HEAD_LINES = 9 };
#define AC_MAX_DEPOSIT_MINOR 100000000000LL /* docs/API.md, limits */

enum ac_input { AI_DEPOSIT, AI_KEY_READ, AI_KEY_TRADE, AI_REVOKE };

struct tp_account {
	struct tp_list l;           /* l.input: what is typed (input says what for) */
	enum ac_input input;
	struct api_ledger *ledger;
	uint64_t ledger_req;
	uint64_t deposit_req;
	struct api_keys *keys;      /* NULL until the exchange answers */
	char *keys_error;           /* words; NULL when the last reply was good */
	uint64_t keys_req, key_req;
	struct api_topup *topup;    /* the operator's top-up words (not a demo) */
	uint64_t topup_req;
};

static struct tp_account *account(struct tui *t)
{
	return t->trade != NULL ? t->trade->account : NULL;
}

static struct tp_list *list(struct tui *t)
{
	struct tp_account *s = account(t);

	return s != NULL ? &s->l : NULL;
}

static void set_note(struct tp_account *s, char *text, enum wrole role)
{
	tp_list_note(&s->l, text, role);
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
	const struct api_market *m = t->trade->market;

	return m != NULL && m->simulated_payments;
}

static bool have_key(const struct tui *t)
{
	return api_client_has_key(t->api);
}

/* How to top up where gpux cannot (malloc'ed). */
static char *topup_words(struct tui *t)
{
	const struct api_topup *tp = account(t)->topup;

	if (tp != NULL && (tp->text != NULL || tp->url != NULL))
		return xasprintf(_("Top up: %s%s%s"), tp->text ? tp->text : "",
				 tp->text && tp->url ? " " : "", tp->url ? tp->url : "");
	return xstrdup(_("Top up through the exchange's operator."));
}

enum { AC_KEYS_MAX_SHOWN = 8 };

/* The API keys: a title line and one line per key. */
static void key_lines(struct tui *t, struct wpanel *p)
{
	struct tp_account *s = account(t);
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
	if (c->width + wtext_width(_("  n: new read-only key · N: new trade key · x: revoke"),
				   c->ascii) <= p->base.w)
		wcells_add(c, _("  n: new read-only key · N: new trade key · x: revoke"), WR_DIM, 0);
	for (size_t i = 0; i < s->keys->n && i < AC_KEYS_MAX_SHOWN; i++) {
		const struct api_key *k = &s->keys->v[i];
		char *cr = tp_date(t, k->created_at);
		char *lu = k->last_used_at >= 0 ? tp_date(t, k->last_used_at) : xstrdup(_("never"));
		c = wpanel_add(p);
		wcells_pad(c, 3, WR_NORMAL);
		x = xasprintf("%lld  %s  %s", (long long)k->id, k->name != NULL ? k->name : "",
			      k->scope == API_SCOPE_READ ? _("read-only") : _("trade"));
		wcells_add(c, x, WR_NORMAL, 0);
		free(x);
		/* what does not fit the width is left out whole: a date is never cut */
		x = xasprintf(_(" · created %s"), cr);
		tp_add_whole(c, x, p->base.w);
		free(x);
		x = xasprintf(_(" · last used %s"), lu);
		tp_add_whole(c, x, p->base.w);
		free(x);
		if (k->current && c->width + wtext_width(_("  (this session's key)"), c->ascii) <=
					  p->base.w)
			wcells_add(c, _("  (this session's key)"), WR_DIM, 0);
		free(cr);
		free(lu);
	}
}

/* The head's height: the account's lines and the keys'. */
static int head_height(struct tui *t)
{
	struct tp_account *s = account(t);
	size_t n = s->keys != NULL ? s->keys->n : 0;

	if (t->trade->acct == NULL)
		return AC_HEAD_LINES;
	return AC_HEAD_LINES + 2 + (int)(n < AC_KEYS_MAX_SHOWN ? n : AC_KEYS_MAX_SHOWN);
}

static void fit_head(struct tui *t)
{
	struct tp_account *s = account(t);
	int h = head_height(t);

	if (s->l.head_lines != h) {
		s->l.head_lines = h;
		tui_relayout(t);
	}
}

/* The line under the balances: the last action's outcome, the list's
 * error, or how to top up on this exchange. */
static void note_line(struct tui *t, struct wcells *c)
{
	struct tp_account *s = account(t);
	char *x;

	wcells_pad(c, 1, WR_NORMAL);
	if (s->l.note != NULL)
		wcells_add(c, s->l.note, s->l.note_role, 0);
	else if (s->l.error != NULL)
		wcells_add(c, s->l.error, WR_BAD, 0);
	else if (t->api == NULL)
		wcells_add(c, _("No exchange: orders need one (see the status bar)."), WR_BAD, 0);
	else if (t->trade->market == NULL)
		wcells_add(c, _("Asking the exchange how to top up…"), WR_DIM, 0);
	else if (!can_deposit(t)) {
		x = topup_words(t);
		wcells_add(c, x, WR_NORMAL, 0);
		free(x);
	} else if (t->api != NULL && api_client_is_local_demo(t->api))
		wcells_add(c, _("Local demo exchange, simulated money: d deposits (tops up)."),
			   WR_DIM, 0);
	else
		wcells_add(c, _("d deposits (tops up): a simulated payment on this exchange."),
			   WR_DIM, 0);
}

static void head_lines(struct tui *t)
{
	struct tp_account *s = account(t);
	const struct api_account *a = t->trade->acct;
	struct wpanel *p = s->l.head;
	struct wcells *c;
	int lw = 0;
	const char *labels[] = { _("Available"), _("Held"), _("Total") };
	char *x, *m;

	wpanel_begin(p);
	if (a == NULL) {
		if (t->api == NULL)
			wpanel_text(p, _("No exchange: orders need one (see the status bar)."),
				    WR_BAD, 1);
		else if (!have_key(t))
			wpanel_text(p, _("No API key is configured for this exchange, so there is no "
					 "account to show: w creates an account or enters the key "
					 "of one."), WR_NORMAL, 1);
		else
			wpanel_text(p, t->trade->acct_error != NULL ? t->trade->acct_error
				    : _("asking the exchange for your account…"),
				    t->trade->acct_error != NULL ? WR_BAD : WR_DIM, 1);
		wpanel_commit(p);
		return;
	}
	for (size_t i = 0; i < 3; i++)
		if (wtext_width(labels[i], t->ascii) > lw)
			lw = wtext_width(labels[i], t->ascii);
	lw += 3;
	c = wpanel_add(p);
	wcells_pad(c, 1, WR_NORMAL);
	x = xasprintf(_("Account %lld · %s · %s"), (long long)a->id, a->email, view_role_text(t->o->lang, a->role));
	wcells_add(c, x, WR_NORMAL, WAT_BOLD);
	free(x);
	c = wpanel_add(p);
	wcells_pad(c, 1, WR_NORMAL);
	{
		char *bp = i18n_fmt_percent(t->o->lang, (double)a->vat_rate_bp / 100.0,
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
	wpanel_add(p);
	if (a->has_balance) {
		c = wpanel_add(p);
		wcells_pad(c, 1, WR_NORMAL);
		m = tp_money(t, a->balance.available_minor, a->currency);
		wpanel_kv(c, lw, _("Available"), m, WR_NORMAL, WAT_BOLD);
		free(m);
		c = wpanel_add(p);
		wcells_pad(c, 1, WR_NORMAL);
		m = tp_money(t, a->balance.held_minor, a->currency);
		wpanel_kv(c, lw, _("Held"), m, WR_NORMAL, 0);
		wcells_add(c, _("  for resting orders and rental hours not begun yet"), WR_DIM, 0);
		free(m);
		c = wpanel_add(p);
		wcells_pad(c, 1, WR_NORMAL);
		m = tp_money(t, a->balance.total_minor, a->currency);
		wpanel_kv(c, lw, _("Total"), m, WR_NORMAL, 0);
		free(m);
	}
	c = wpanel_add(p);
	wcells_pad(c, 1, WR_NORMAL);
	{
		char *o = xasprintf(P_("%lld resting order", "%lld resting orders",
				       (unsigned long)a->open_orders), (long long)a->open_orders);
		char *r = xasprintf(P_("%lld active rental", "%lld active rentals",
				       (unsigned long)a->active_rentals), (long long)a->active_rentals);
		x = xasprintf("%s · %s", o, r);
		wcells_add(c, x, WR_NORMAL, 0);
		free(x);
		free(o);
		free(r);
	}
	note_line(t, wpanel_add(p));
	key_lines(t, p);
	wpanel_commit(p);
}

/* What the ledger's table says without rows: never "no entries" when it
 * could not be read. */
static const char *ledger_empty(struct tui *t)
{
	struct tp_account *s = account(t);

	if (t->api != NULL && !have_key(t))
		return N_("No ledger without an account.");
	if (s->ledger == NULL && s->l.error != NULL)
		return N_("The ledger could not be read: see the line above.");
	if (s->ledger == NULL)
		return N_("Asking the exchange for the ledger…");
	return N_("No ledger entries yet");
}

static void account_rebuild(struct tui *t)
{
	struct tp_account *s = account(t);
	int64_t key;

	if (s == NULL || s->l.table == NULL)
		return;
	fit_head(t);
	head_lines(t);
	s->l.grid.empty = ledger_empty(t);
	key = tp_table_key(s->l.table, &s->l.grid);
	tp_grid_clear(&s->l.grid);
	for (size_t i = 0; s->ledger != NULL && i < s->ledger->n; i++) {
		const struct api_ledger_row *r = &s->ledger->v[i];
		tp_grid_row(&s->l.grid, r->id, WR_NORMAL);
		tp_grid_put(&s->l.grid, LC_ID, xasprintf("%lld", (long long)r->id));
		tp_grid_put(&s->l.grid, LC_AT, tp_date(t, r->at));
		tp_grid_puts(&s->l.grid, LC_KIND, kind_text(r->kind));
		tp_grid_puts(&s->l.grid, LC_BUCKET, r->held ? _("held") : r->debt ? _("debt")
										  : _("available"));
		tp_grid_put(&s->l.grid, LC_AMOUNT, tp_money(t, r->amount_minor, r->currency));
		tp_grid_put(&s->l.grid, LC_ORDER, r->order_id >= 0
			    ? xasprintf("%lld", (long long)r->order_id) : xstrdup(""));
		tp_grid_put(&s->l.grid, LC_RENTAL, r->rental_id >= 0
			    ? xasprintf("%lld", (long long)r->rental_id) : xstrdup(""));
	}
	tp_table_reload(s->l.table, &s->l.grid, key);
}

static void on_ledger(void *ud, struct api_ledger *r, const struct api_error *e)
{
	struct tui *t = ud;
	struct tp_account *s = account(t);

	s->ledger_req = 0;
	if (tp_list_reply(t, &s->l, e)) {
		api_ledger_free(&s->ledger);
		s->ledger = r;
	}
	account_rebuild(t);
}

static void on_keys(void *ud, struct api_keys *r, const struct api_error *e)
{
	struct tui *t = ud;
	struct tp_account *s = account(t);

	s->keys_req = 0;
	free(s->keys_error);
	s->keys_error = NULL;
	if (e != NULL) {
		char *w = tp_error_words(t, e);
		s->keys_error = xasprintf(_("API keys: %s"), w);
		free(w);
	} else {
		api_keys_free(&s->keys);
		s->keys = r;
	}
	account_rebuild(t);
}

static void on_topup(void *ud, struct api_topup *r, const struct api_error *e)
{
	struct tui *t = ud;
	struct tp_account *s = account(t);

	s->topup_req = 0;
	if (e == NULL) {
		api_topup_free(&s->topup);
		s->topup = r;
		account_rebuild(t);
	}
}

static void on_key_made(void *ud, struct api_key *k, const struct api_error *e)
{
	struct tui *t = ud;
	struct tp_account *s = account(t);

	s->key_req = 0;
	if (e != NULL) {
		char *w = tp_error_words(t, e);
		set_note(s, xasprintf(_("No key was made: %s"), w), WR_BAD);
		free(w);
	} else {
		/* the one time the exchange gives it: shown here, saved nowhere */
		set_note(s, xasprintf(_("New %s key %lld: %s (copy it now: it is not shown again)"),
				      k->scope == API_SCOPE_READ ? _("read-only") : _("trade"),
				      (long long)k->id, k->api_key != NULL ? k->api_key : "?"),
			 WR_GOOD);
		api_key_free(&k);
	}
	s->l.next = 0;
	account_rebuild(t);
}

static void on_key_revoked(void *ud, struct api_key *k, const struct api_error *e)
{
	struct tui *t = ud;
	struct tp_account *s = account(t);

	s->key_req = 0;
	if (e != NULL) {
		char *w = tp_error_words(t, e);
		set_note(s, xasprintf(_("The key was not revoked: %s"), w), WR_BAD);
		free(w);
	} else {
		set_note(s, xasprintf(_("Key %lld is revoked: the exchange refuses it from now on."),
				      (long long)k->id), WR_GOOD);
		api_key_free(&k);
	}
	s->l.next = 0;
	account_rebuild(t);
}

static void revoke_done(struct tui *t, int64_t id, bool yes, wkey key)
{
	struct tp_account *s = account(t);

	(void)key;
	if (s == NULL)
		return;
	if (!yes)
		set_note(s, xstrdup(_("No key was revoked.")), WR_DIM);
	else if (s->key_req == 0 && t->api != NULL)
		s->key_req = api_key_revoke_start(t->api, id, on_key_revoked, t);
	account_rebuild(t);
}

static const struct api_key *key_by_id(struct tp_account *s, int64_t id)
{
	for (size_t i = 0; s->keys != NULL && i < s->keys->n; i++)
		if (s->keys->v[i].id == id)
			return &s->keys->v[i];
	return NULL;
}

/* ---- deposits ---------------------------------------------------------------------------------- */

static void close_input(struct tui *t)
{
	struct tp_account *s = account(t);

	if (s->l.input == NULL)
		return;
	wfield_free(&s->l.input);
	tui_relayout(t);
	tp_fkeys_changed(t);
}

static void on_deposit(void *ud, struct api_deposit *d, const struct api_error *e)
{
	struct tui *t = ud;
	struct tp_account *s = account(t);
	struct tui_trade *tr = t->trade;

	s->deposit_req = 0;
	if (e != NULL) {
		char *w = e->http_status == 403
			? xstrdup(_("This exchange takes real payments: top up through its operator."))
			: tp_error_words(t, e);
		set_note(s, w, WR_BAD);
	} else {
		char *x = tp_money(t, d->amount_minor, d->currency);
		char *av = tp_money(t, d->balance.available_minor, d->currency);
		set_note(s, xasprintf(_("Deposited %s; available now %s."), x, av), WR_GOOD);
		free(x);
		free(av);
		if (tr->acct != NULL && strcmp(tr->acct->currency, d->currency) == 0) {
			tr->acct->balance = d->balance;
			tr->acct->has_balance = true;
		}
		tui_message(t, s->l.note);
		api_deposit_free(&d);
		close_input(t);
	}
	tp_account_soon(t);
	s->l.next = 0;
	tp_rebuild_all(t);
}

void tp_account_dialog(struct tui *t, enum tp_dialog kind, int64_t amount, bool yes)
{
	struct tp_account *s = account(t);

	if (s == NULL || kind != TD_DEPOSIT)
		return;
	if (!yes) {
		set_note(s, xstrdup(_("Nothing was deposited.")), WR_DIM);
	} else if (s->deposit_req == 0 && t->api != NULL) {
		s->deposit_req = api_deposit_start(t->api, amount, on_deposit, t);
		set_note(s, xstrdup(_("Depositing…")), WR_DIM);
	}
	account_rebuild(t);
}

static void open_field(struct tui *t, enum ac_input kind, const char *prompt, const char *hint)
{
	struct tp_account *s = account(t);

	s->input = kind;
	s->l.input = wfield_new_readline(&t->ui, prompt, "",
					 kind == AI_DEPOSIT ? "account.deposit" : NULL);
	wfield_set_after(s->l.input, hint);
	wfield_focus(s->l.input, true);
	tui_relayout(t);
}

/* n, N, x: a key's name, or the number of the key to revoke. */
static void open_key_input(struct tui *t, enum ac_input kind)
{
	struct tp_account *s = account(t);

	if (s->l.input != NULL)
		return;
	if (t->trade->acct == NULL || s->keys == NULL) {
		tui_message(t, _("Your keys are not known yet: wait for them, then press the key "
				 "again"));
		return;
	}
	if (kind == AI_REVOKE)
		open_field(t, kind, _("Revoke the API key number: "), _("Enter: review · Esc: cancel"));
	else
		open_field(t, kind, kind == AI_KEY_READ ? _("New read-only key, its name: ")
			   : _("New trade key, its name: "),
			   _("Enter: make it (an empty name: the exchange names it) · Esc: cancel"));
}

static void submit_key_input(struct tui *t)
{
	struct tp_account *s = account(t);
	const char *text = wfield_text(s->l.input);
	char *end = NULL, *title, *body;
	const struct api_key *k;
	long long id;

	if (s->input != AI_REVOKE) {
		if (s->key_req == 0)
			s->key_req = api_key_create_start(t->api, text[0] != '\0' ? text : NULL,
							  s->input == AI_KEY_READ ? API_SCOPE_READ
							  : API_SCOPE_TRADE, on_key_made, t);
		set_note(s, xstrdup(_("Making the key…")), WR_DIM);
		close_input(t);
		account_rebuild(t);
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
	close_input(t);
	tui_dialog_open(t, title, body, _("y: revoke · any other key: keep it"), true, revoke_done,
			id);
	free(title);
	free(body);
}

static void open_input(struct tui *t)
{
	struct tp_account *s = account(t);
	const char *ccy = tp_currency(t);
	char *prompt;

	if (t->trade->acct == NULL || t->trade->market == NULL) {
		tui_message(t, _("Your account is not known yet: wait for it, then press d again"));
		return;
	}
	if (!can_deposit(t)) {
		set_note(s, topup_words(t), WR_BAD);
		account_rebuild(t);
		return;
	}
	if (s->l.input != NULL)
		return;
	prompt = xasprintf(_("Deposit (%s): "), ccy);
	open_field(t, AI_DEPOSIT, prompt, _("Enter: review · Esc: cancel"));
	free(prompt);
}

static void submit_input(struct tui *t)
{
	struct tp_account *s = account(t);
	const char *ccy = tp_currency(t);
	char *cause = NULL, *m, *text, *title;
	int64_t amount = 0;

	if (i18n_parse_decimal(t->o->lang, wfield_text(s->l.input), 2, &amount, &cause) != 0 ||
	    amount < 1 || amount > AC_MAX_DEPOSIT_MINOR) {
		set_note(s, xasprintf(_("Not an amount%s%s: type e.g. %s, in %s"),
				      cause != NULL ? ": " : "", cause != NULL ? cause : "",
				      i18n_decimal_sep(t->o->lang) == ',' ? "500,00" : "500.00", ccy),
			 WR_BAD);
		wfield_set_error(s->l.input, _("not an amount"));
		free(cause);
		account_rebuild(t);
		return;
	}
	m = tp_money(t, amount, ccy);
	text = xasprintf(_("Deposit %s into account %lld. %s"), m, (long long)t->trade->acct->id,
			 t->trade->market != NULL && t->trade->market->demo
			 ? _("This is a simulated payment: no real money moves.")
			 : _("The exchange records it as a payment into your balance."));
	title = xasprintf(_("Deposit %s?"), m);
	tp_dialog(t, TD_DEPOSIT, amount, title, text, _("y or Enter: deposit · any other key: do not"), false);
	free(title);
	free(text);
	free(m);
}

/* ---- the page -------------------------------------------------------------------------------------- */

enum { AK_DEPOSIT = 1, AK_KEY_READ, AK_KEY_TRADE, AK_REVOKE, AK_WELCOME };

static const struct wbinding account_bindings[] = {
	{ 'd', AK_DEPOSIT, N_("Deposit (top up), where the exchange allows it") },
	{ '+', AK_DEPOSIT, N_("Deposit (top up), where the exchange allows it") },
	{ 'n', AK_KEY_READ, N_("New read-only API key (no orders, cancels, stops or deposits)") },
	{ 'N', AK_KEY_TRADE, N_("New trade API key") },
	{ 'x', AK_REVOKE, N_("Revoke an API key (asks first)") },
	{ 'w', AK_WELCOME, N_("Without a key: create an account or enter its key") },
};

static unsigned account_event(struct tui *t, const struct wevent *ev)
{
	struct tp_account *s = account(t);
	const struct wbinding *b;
	unsigned r;

	if (s->l.input != NULL) {
		if (ev->type != WEV_KEY)
			return W_HANDLED;
		r = wwidget_handle(&s->l.input->base, ev);
		if (r & W_CLOSE) {
			if (!s->l.input->submitted)
				close_input(t);
			else if (s->input == AI_DEPOSIT)
				submit_input(t);
			else
				submit_key_input(t);
		}
		return W_HANDLED | W_REDRAW;
	}
	b = ev->type != WEV_KEY ? NULL
		: wbinding_find(account_bindings,
				sizeof account_bindings / sizeof account_bindings[0], ev->key);
	switch (b != NULL ? b->action : 0) {
	case AK_DEPOSIT:
		if (have_key(t))
			open_input(t);
		return W_HANDLED | W_REDRAW;
	case AK_KEY_READ:
	case AK_KEY_TRADE:
	case AK_REVOKE:
		if (have_key(t))
			open_key_input(t, b->action == AK_REVOKE ? AI_REVOKE
				       : b->action == AK_KEY_READ ? AI_KEY_READ : AI_KEY_TRADE);
		return W_HANDLED | W_REDRAW;
	case AK_WELCOME:
		if (t->api != NULL && !have_key(t))
			tui_welcome_open(t);
		return W_HANDLED | W_REDRAW;
	}
	return tp_list_event(t, &s->l, ev);
}

static void account_tick(struct tui *t, int64_t now, int64_t *next)
{
	struct tp_account *s = account(t);
	struct api_list_query q = { .limit = 100 };

	if (!have_key(t))
		return; /* nothing to ask: the page says how to get a key */
	if (tp_list_due(&s->l, s->ledger_req != 0, now, TP_ACCOUNT_MS)) {
		s->ledger_req = api_ledger_start(t->api, &q, on_ledger, t);
		if (s->keys_req == 0)
			s->keys_req = api_keys_list_start(t->api, on_keys, t);
	}
	if (s->topup == NULL && s->topup_req == 0 && t->trade->market != NULL &&
	    !t->trade->market->simulated_payments)
		s->topup_req = api_topup_start(t->api, on_topup, t);
	tp_list_wake(&s->l, s->ledger_req != 0, next);
}

static void account_shown(struct tui *t, bool on)
{
	struct tui_trade *tr = tp_get(t);
	struct tp_account *s = tr->account;

	if (!on) {
		if (s != NULL && s->l.input != NULL)
			wfield_free(&s->l.input);
		return;
	}
	if (s == NULL) {
		s = tr->account = xcalloc(1, sizeof *s);
		tp_list_init(t, &s->l, AC_HEAD_LINES, LC_N, head, align, N_("No ledger entries yet"));
	}
	s->l.next = 0;
}

void tp_ledger_soon(struct tui *t)
{
	struct tp_account *s = account(t);

	if (s != NULL)
		s->l.next = 0;
}

static void account_fkeys(struct tui *t, struct wfkeys *k)
{
	if (!have_key(t))
		wfkeys_add(k, 'w', "w", _("Account or key"));
	else if (can_deposit(t))
		wfkeys_add(k, 'd', "d", _("Deposit"));
	if (have_key(t)) {
		wfkeys_add(k, 'n', "n", _("New key"));
		wfkeys_add(k, 'x', "x", _("Revoke key"));
	}
	wfkeys_add(k, 'o', "o", _("Orders"));
	wfkeys_add(k, 'R', "R", _("Rentals"));
	wfkeys_add(k, WKEY_ESC, "Esc", _("Back"));
	wfkeys_add(k, WKEY_F1, "F1", _("Help"));
	wfkeys_add(k, WKEY_F10, "F10", _("Quit"));
}

static void account_free(struct tui *t)
{
	struct tp_account *s = account(t);

	if (s == NULL)
		return;
	tp_list_free(t, &s->l, (const uint64_t[]){ s->ledger_req, s->deposit_req, s->keys_req,
						    s->key_req, s->topup_req }, 5);
	api_ledger_free(&s->ledger);
	api_keys_free(&s->keys);
	api_topup_free(&s->topup);
	free(s->keys_error);
	free(s);
	t->trade->account = NULL;
}

const struct tp_page_ops tp_account_ops = {
	.list = list,
	.event = account_event,
	.tick = account_tick,
	.shown = account_shown,
	.rebuild = account_rebuild,
	.fkeys = account_fkeys,
	.bindings = account_bindings,
	.n_bindings = sizeof account_bindings / sizeof account_bindings[0],
	.help_title = N_("Your account"),
	.free = account_free,
};
