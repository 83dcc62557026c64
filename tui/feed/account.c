/*
 * The account as data: the one owner of GET /v1/account in the TUI. The
 * status bar's balance, the trade pages (role, currency, balances, the
 * counts), the order form (whether it may sell) and the exchange's errors
 * in words all read what is here, comparing t->account.gen.
 *
 * It is asked at the start (the role decides whether s may sell), every
 * TUI_MARKET_MS, every TUI_ACCOUNT_FAST_MS while a trade page shows it,
 * and at once after anything that moves money. An answer that fails keeps
 * the last good one and says why in words; a 401, 403 or 404 (no key, or
 * an exchange without accounts) means there is no account to show a
 * balance of.
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static void on_account(void *ud, struct api_account *r, const struct api_error *e)
{
	struct tui *t = ud;
	struct tui_account *a = &t->account;

	a->req = 0;
	free(a->error);
	a->error = NULL;
	if (e != NULL) {
		if (e->retry_after_s > 0)   /* not before the exchange says */
			a->not_before = util_now_ms() + api_poll_delay_ms(e, 1, TUI_MARKET_MS);
		a->error = tui_error_words(t, e);
		a->refused = e->http_status == 401 || e->http_status == 403 || e->http_status == 404;
	} else {
		api_account_free(&a->a);
		a->a = r;
		a->refused = false;
	}
	a->gen++;
}

void tui_account_tick(struct tui *t, int64_t now, int64_t *next)
{
	struct tui_account *a = &t->account;
	int every = a->hurry ? TUI_ACCOUNT_FAST_MS : TUI_MARKET_MS;

	a->hurry = false;
	if (t->api == NULL)
		return;
	if (a->next < a->not_before)
		a->next = a->not_before;
	if (a->req == 0 && now >= a->next) {
		a->next = now + every;
		a->req = api_account_start(t->api, on_account, t);
	} else if (a->req == 0 && a->next > now + every && now + every >= a->not_before) {
		a->next = now + every; /* hurried since it was planned */
	}
	if (a->req == 0 && (*next < 0 || a->next < *next))
		*next = a->next;
}

void tui_account_hurry(struct tui *t)
{
	t->account.hurry = true;
}

void tui_account_soon(struct tui *t)
{
	t->account.next = 0;
}

void tui_account_moved(struct tui *t)
{
	t->account.next = 0;
	t->account.moved++;
}

/* The account's balances when they are in ccy, else NULL. */
static struct api_balance *balance_in(struct tui *t, const char *ccy)
{
	struct api_account *a = t->account.a;

	if (a == NULL || ccy == NULL || strcmp(a->currency, ccy) != 0)
		return NULL;
	return &a->balance;
}

void tui_account_release(struct tui *t, const char *ccy, int64_t minor)
{
	struct api_balance *b = balance_in(t, ccy);

	if (b == NULL || !t->account.a->has_balance)
		return;
	b->available_minor += minor;
	b->held_minor -= minor;
	t->account.gen++;
}

void tui_account_set_balance(struct tui *t, const char *ccy, const struct api_balance *nb)
{
	struct api_balance *b = balance_in(t, ccy);

	if (b == NULL)
		return;
	*b = *nb;
	t->account.a->has_balance = true;
	t->account.gen++;
}

void tui_account_set_open(struct tui *t, struct api_orders *open)
{
	api_orders_free(&t->account.open);
	t->account.open = open;
}

const char *tui_account_currency(const struct tui *t)
{
	return t->account.a != NULL ? t->account.a->currency : NULL;
}

int tui_account_role(const struct tui *t)
{
	return t->account.a != NULL ? (int)t->account.a->role : -1;
}

void tui_account_free(struct tui *t)
{
	struct tui_account *a = &t->account;

	if (a->req != 0 && t->api != NULL)
		api_abandon(t->api, a->req); /* quitting: nothing may call back into freed state */
	api_account_free(&a->a);
	api_orders_free(&a->open);
	free(a->error);
	memset(a, 0, sizeof *a);
}

char *tui_error_words(const struct tui *t, const struct api_error *e)
{
	const struct api_account *a = t->account.a;
	struct view_order_ctx x = {
		.currency = tui_account_currency(t), .required_minor = -1, .available_minor = -1,
		.opens_at = tui_market_opens_at(t),
	};

	if (a != NULL && a->has_balance)
		x.available_minor = a->balance.available_minor;
	return view_api_error_words(t->o->lang, e, &x);
}
