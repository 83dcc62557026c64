/*
 * Your account (a): who it is (id, email, country and VAT, currency, role),
 * the balances available and held (and what the held part is for), and the
 * ledger, newest first, refreshed every few seconds with the cursor staying
 * on its row. d tops the balance up where the exchange allows it (the local
 * demo exchange: a simulated payment): the amount is typed as people write
 * it in their language, confirmed, and the new balance shows at once.
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

struct tp_account {
	struct tp_list l;           /* l.input: the amount of a deposit, while typed */
	struct api_ledger *ledger;
	uint64_t ledger_req;
	uint64_t deposit_req;
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
	}
	return "?";
}

/* Whether this exchange takes deposits from gpux (simulated payments). */
static bool can_deposit(const struct tui *t)
{
	const struct api_market *m = t->trade->market;

	return m == NULL || m->simulated_payments;
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
	c = wpanel_add(p);
	wcells_pad(c, 1, WR_NORMAL);
	if (s->l.note != NULL)
		wcells_add(c, s->l.note, s->l.note_role, 0);
	else if (s->l.error != NULL)
		wcells_add(c, s->l.error, WR_BAD, 0);
	else if (t->api == NULL)
		wcells_add(c, _("No exchange: orders need one (see the status bar)."), WR_BAD, 0);
	else if (!can_deposit(t))
		wcells_add(c, _("Top-ups go through the exchange's operator."), WR_DIM, 0);
	else if (t->api != NULL && api_client_is_local_demo(t->api))
		wcells_add(c, _("Local demo exchange, simulated money: d deposits (tops up)."),
			   WR_DIM, 0);
	else
		wcells_add(c, _("d deposits (tops up): a simulated payment on this exchange."),
			   WR_DIM, 0);
	wpanel_commit(p);
}

static void account_rebuild(struct tui *t)
{
	struct tp_account *s = account(t);
	int64_t key;

	if (s == NULL || s->l.table == NULL)
		return;
	head_lines(t);
	key = tp_table_key(s->l.table, &s->l.grid);
	tp_grid_clear(&s->l.grid);
	for (size_t i = 0; s->ledger != NULL && i < s->ledger->n; i++) {
		const struct api_ledger_row *r = &s->ledger->v[i];
		tp_grid_row(&s->l.grid, r->id, WR_NORMAL);
		tp_grid_put(&s->l.grid, LC_ID, xasprintf("%lld", (long long)r->id));
		tp_grid_put(&s->l.grid, LC_AT, tp_date(t, r->at));
		tp_grid_puts(&s->l.grid, LC_KIND, kind_text(r->kind));
		tp_grid_puts(&s->l.grid, LC_BUCKET, r->held ? _("held") : _("available"));
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

static void open_input(struct tui *t)
{
	struct tp_account *s = account(t);
	const char *ccy = tp_currency(t);
	char *prompt;

	if (t->trade->acct == NULL) {
		tui_message(t, _("Your account is not known yet: wait for it, then press d again"));
		return;
	}
	if (!can_deposit(t)) {
		set_note(s, xstrdup(_("This exchange takes real payments: top up through its "
				      "operator.")), WR_BAD);
		account_rebuild(t);
		return;
	}
	if (s->l.input != NULL)
		return;
	prompt = xasprintf(_("Deposit (%s): "), ccy);
	s->l.input = wfield_new_readline(&t->ui, prompt, "", "account.deposit");
	free(prompt);
	wfield_set_after(s->l.input, _("Enter: review · Esc: cancel"));
	wfield_focus(s->l.input, true);
	tui_relayout(t);
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

enum { AK_DEPOSIT = 1 };

static const struct wbinding account_bindings[] = {
	{ 'd', AK_DEPOSIT, N_("Deposit (top up), where the exchange allows it") },
	{ '+', AK_DEPOSIT, N_("Deposit (top up), where the exchange allows it") },
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
			if (s->l.input->submitted)
				submit_input(t);
			else
				close_input(t);
		}
		return W_HANDLED | W_REDRAW;
	}
	b = ev->type != WEV_KEY ? NULL
		: wbinding_find(account_bindings,
				sizeof account_bindings / sizeof account_bindings[0], ev->key);
	switch (b != NULL ? b->action : 0) {
	case AK_DEPOSIT:
		open_input(t);
		return W_HANDLED | W_REDRAW;
	}
	return tp_list_event(t, &s->l, ev);
}

static void account_tick(struct tui *t, int64_t now, int64_t *next)
{
	struct tp_account *s = account(t);
	struct api_list_query q = { .limit = 100 };

	if (tp_list_due(&s->l, s->ledger_req != 0, now, TP_ACCOUNT_MS))
		s->ledger_req = api_ledger_start(t->api, &q, on_ledger, t);
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
	wfkeys_add(k, 'd', "d", _("Deposit"));
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
	tp_list_free(t, &s->l, (const uint64_t[]){ s->ledger_req, s->deposit_req }, 2);
	api_ledger_free(&s->ledger);
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
