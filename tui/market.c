/*
 * The exchange feed of the TUI: best asks every 2 s (GET /v1/quotes with the
 * last ETag, so an unchanged book costs a 304), the market state and the
 * account every 10 s, all through the client's non-blocking calls pumped by
 * the main loop. Nothing here waits.
 *
 * Failure is a state, not an event: a failed or unanswered request (no
 * answer for TUI_STALE_MS is abandoned) marks the prices stale with a short
 * reason ("exchange unreachable (connection refused)"); the last prices stay
 * on screen, dimmed; the next tick simply tries again, and the first good
 * reply clears it all. A local demo exchange that died is started again by
 * the client itself (api_local_respawn), so the next tick finds it.
 *
 * A price that changed between two replies flashes for TUI_FLASH_MS
 * (per GPU, with its direction), decided here by comparing the two replies,
 * so every tab agrees on what is flashing.
 *
 * The status bar says it all in segments with priorities (PRIO_*): on a
 * narrow terminal "market open" and the balance go first, a stale marker and
 * the prices' age never (they are cut if they must), and the exchange is not
 * named twice when the stale reason names it.
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n/i18n.h"
#include "util/util.h"

static int64_t price_in(const struct view_price *p, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(p[i].gpu_id, id) == 0)
			return p[i].cents;
	return -1;
}

static void prices_free(struct tui_market *m)
{
	for (size_t i = 0; i < m->n_prices; i++)
		free((char *)m->prices[i].gpu_id);
	free(m->prices);
	m->prices = NULL;
	m->n_prices = 0;
}

void tui_market_set_stale(struct tui *t, const char *reason)
{
	struct tui_market *m = &t->m;

	if (m->stale && m->stale_reason != NULL && strcmp(m->stale_reason, reason) == 0)
		return;
	free(m->stale_reason);
	m->stale_reason = xstrdup(reason);
	m->stale = true;
	m->gen++; /* price cells turn dim */
}

void tui_market_apply_quotes(struct tui *t, const struct view_price *p, size_t n, int64_t now)
{
	struct tui_market *m = &t->m;
	struct view_price *np = xcalloc(n ? n : 1, sizeof *np);

	for (size_t i = 0; i < n; i++) {
		np[i].gpu_id = xstrdup(p[i].gpu_id);
		np[i].cents = p[i].cents;
	}
	if (m->have_prices) {
		for (size_t g = 0; g < t->cat->n_gpus; g++) {
			const char *id = t->cat->gpus[g].id;
			int64_t a = price_in(m->prices, m->n_prices, id);
			int64_t b = price_in(np, n, id);
			if (a == b)
				continue;
			m->flash_until[g] = now + TUI_FLASH_MS;
			m->flash_dir[g] = a >= 0 && b >= 0 ? (b > a ? 1 : -1) : 2;
		}
	}
	prices_free(m);
	m->prices = np;
	m->n_prices = n;
	m->have_prices = true;
	m->stale = false;
	m->no_answer_since = 0;
	m->updated_ms = now;
	m->gen++;
}

/* Why the prices are stale, in a few plain words that stay whole on an
 * 80-column status bar beside the prices' age: "exchange unreachable
 * (connection refused)" rather than the client's full sentence with the
 * exchange's address (which the bar shows in a segment of its own). */
static char *stale_reason(const struct api_error *e)
{
	const char *why = NULL;

	if (e->restarting) {
		/* TRANSLATORS: why prices are stale, after "STALE: "; ≤ 45 columns */
		return xstrdup(_("local demo exchange stopped; restarting it"));
	}
	switch (e->kind) {
	case API_ERR_NETWORK:
		switch (e->net) {
		case API_NET_REFUSED: why = _("connection refused"); break;
		case API_NET_NO_SOCKET: why = _("not running"); break;
		case API_NET_UNKNOWN_HOST: why = _("unknown host"); break;
		case API_NET_NO_ROUTE: why = _("no route to it"); break;
		case API_NET_LOST: why = _("connection lost"); break;
		case API_NET_OTHER: break;
		}
		/* TRANSLATORS: %s is "connection refused", "not running", … */
		return why != NULL ? xasprintf(_("exchange unreachable (%s)"), why)
				   : xstrdup(_("exchange unreachable"));
	case API_ERR_TIMEOUT:
		return xstrdup(_("exchange not answering"));
	case API_ERR_TLS:
		return xstrdup(_("exchange unreachable (TLS failed)"));
	case API_ERR_HTTP:
		if (e->code != NULL)
			return xasprintf(_("exchange error (%s)"), e->code);
		return xasprintf(_("exchange error (HTTP %d)"), e->http_status);
	case API_ERR_PROTOCOL:
		return xstrdup(_("unreadable reply from the exchange"));
	case API_ERR_UNKNOWN_OUTCOME:
	case API_ERR_CONFIG:
		break;
	}
	return api_error_text(e);
}

static void on_quotes(void *ud, struct api_quotes *r, const struct api_error *e)
{
	struct tui *t = ud;
	struct tui_market *m = &t->m;
	int64_t now = util_now_ms();

	m->quotes_req = 0;
	if (e != NULL) {
		char *why = stale_reason(e);
		m->no_answer_since = 0;
		tui_market_set_stale(t, why);
		free(why);
		return;
	}
	if (r->unchanged && m->have_prices) {
		if (m->stale)
			m->gen++;
		m->stale = false;
		m->no_answer_since = 0;
		m->updated_ms = now;
		api_quotes_free(&r);
		return;
	}
	tui_feed_store_quotes(t, r->v, r->n, true, now);
	free(m->etag);
	m->etag = r->etag ? xstrdup(r->etag) : NULL;
	api_quotes_free(&r);
}

static void on_market(void *ud, struct api_market *r, const struct api_error *e)
{
	struct tui *t = ud;

	t->m.market_req = 0;
	if (e != NULL)
		return; /* the quotes say whether the exchange is there */
	t->m.have_market = true;
	t->m.state = r->state;
	t->m.opens_at = r->opens_at;
	t->m.clock_skew = r->server_time - (int64_t)time(NULL);
	api_market_free(&r);
}

static void on_account(void *ud, struct api_account *r, const struct api_error *e)
{
	struct tui *t = ud;

	t->m.account_req = 0;
	if (e != NULL) {
		/* no key, or an exchange without accounts: no balance shown */
		if (e->http_status == 401 || e->http_status == 403 || e->http_status == 404) {
			free(t->m.balance);
			t->m.balance = NULL;
		}
		return;
	}
	free(t->m.balance);
	t->m.balance = r->has_balance
		? i18n_fmt_money(t->o->lang, r->balance.available_minor, r->currency)
		: NULL;
	t->m.fx_stale = r->fx_rate_stale;
	api_account_free(&r);
}

void tui_market_init(struct tui *t)
{
	t->m.flash_until = xcalloc(t->cat->n_gpus + 1, sizeof *t->m.flash_until);
	t->m.flash_dir = xcalloc(t->cat->n_gpus + 1, sizeof *t->m.flash_dir);
	t->m.next_quotes_ms = 0;
	t->m.next_market_ms = 0;
	tui_feed_open(t);
}

void tui_market_free(struct tui *t)
{
	tui_feed_close(t);
	prices_free(&t->m);
	free(t->m.stale_reason);
	free(t->m.etag);
	free(t->m.balance);
	free(t->m.flash_until);
	free(t->m.flash_dir);
	memset(&t->m, 0, sizeof t->m);
}

int tui_market_tick(struct tui *t, int64_t now)
{
	struct tui_market *m = &t->m;
	int64_t next;

	if (t->api == NULL)
		return -1;
	if (m->quotes_req != 0 && now - m->quotes_sent_ms >= TUI_STALE_MS) {
		/* a hung exchange: give up on this request, say so, ask again */
		api_abandon(t->api, m->quotes_req);
		m->quotes_req = 0;
		if (m->no_answer_since == 0)
			m->no_answer_since = m->quotes_sent_ms;
		/* the reason's seconds count on in the status bar */
		tui_market_set_stale(t, _("no answer from the exchange"));
		m->next_quotes_ms = now;
	}
	if (m->stream_state == API_STREAM_LIVE) {
		/* streamed: nothing to poll */
		m->next_quotes_ms = now + TUI_REFRESH_MS;
	} else if (m->quotes_req == 0 && now >= m->next_quotes_ms) {
		m->quotes_sent_ms = now;
		m->next_quotes_ms = now + TUI_REFRESH_MS;
		m->quotes_req = api_quotes_start(t->api, m->etag, on_quotes, t);
	}
	if (now >= m->next_market_ms) {
		m->next_market_ms = now + TUI_MARKET_MS;
		if (m->market_req == 0)
			m->market_req = api_market_start(t->api, on_market, t);
		if (m->account_req == 0)
			m->account_req = api_account_start(t->api, on_account, t);
	}
	next = m->next_quotes_ms < m->next_market_ms ? m->next_quotes_ms : m->next_market_ms;
	if (m->quotes_req != 0 && m->quotes_sent_ms + TUI_STALE_MS < next)
		next = m->quotes_sent_ms + TUI_STALE_MS;
	return next <= now ? 0 : (int)(next - now);
}

int tui_flash(const struct tui *t, size_t g, int64_t now)
{
	if (t->m.flash_until == NULL || g >= t->cat->n_gpus || now >= t->m.flash_until[g])
		return 0;
	return t->m.flash_dir[g];
}

int64_t tui_market_next_change(struct tui *t, int64_t now)
{
	int64_t next = -1;

	for (size_t g = 0; g < t->cat->n_gpus; g++)
		if (t->m.flash_until[g] > now && (next < 0 || t->m.flash_until[g] < next))
			next = t->m.flash_until[g];
	if (t->m.have_prices) {
		/* the "updated N s ago" clock */
		int64_t tick = t->m.updated_ms + ((now - t->m.updated_ms) / 1000 + 1) * 1000;
		if (next < 0 || tick < next)
			next = tick;
	}
	if (t->msg != NULL && (next < 0 || t->msg_until < next))
		next = t->msg_until;
	return next;
}

static const char *state_name(enum api_market_state s)
{
	switch (s) {
	case API_MARKET_PRE_OPEN: return _("pre-open");
	case API_MARKET_OPEN: return _("market open");
	case API_MARKET_HALTED: return _("trading halted");
	}
	return "?";
}

/* The market's state for the status bar; in pre-open with an announced
 * opening, when it opens (in the user's language and time zone), as a
 * countdown under a day before it (malloc'ed). */
static char *state_text(struct tui *t)
{
	/* on the exchange's clock, which may run ahead of ours */
	int64_t left = t->m.opens_at - ((int64_t)time(NULL) + t->m.clock_skew);

	if (t->m.state != API_MARKET_PRE_OPEN || t->m.opens_at < 0)
		return xstrdup(state_name(t->m.state));
	if (left > 0 && left < 24 * 3600) {
		long h = (long)(left / 3600), mn = (long)((left % 3600 + 59) / 60);
		if (mn == 60) {
			h++;
			mn = 0;
		}
		return h > 0 ? xasprintf(_("pre-open: trading opens in %ld h %02ld min"), h, mn)
			     : xasprintf(_("pre-open: trading opens in %ld min"), mn);
	}
	char *when = i18n_fmt_when(t->o->lang, t->m.opens_at, 0);
	char *x = xasprintf(_("pre-open: trading opens on %s"), when);
	free(when);
	return x;
}

/* Status segments, most important last to go: stale data and its age are
 * never dropped (cut if they must); then a message the user just caused, a
 * filter that hides rows, the exchange, a market that is not open, the
 * prices' age, the balance, and "market open" (the usual state) first. */
enum {
	PRIO_MSG = WSTATUS_HIGH + 10,
	PRIO_FILTER = WSTATUS_HIGH - 5,
	PRIO_EXCHANGE = WSTATUS_HIGH - 10,
	PRIO_MARKET_SHUT = WSTATUS_HIGH - 15,
	PRIO_UPDATED = WSTATUS_NORMAL + 5,
	PRIO_FEED = WSTATUS_NORMAL + 4,
	PRIO_BALANCE = WSTATUS_NORMAL - 20,
	PRIO_MARKET_OPEN = WSTATUS_LOW,
};

/* How the prices come, and since when: "live since 10:21" (streamed) or
 * "polled since 10:21" (GET /v1/quotes every 2 s). */
static void feed_segment(struct tui *t)
{
	time_t since = (time_t)(t->m.stream_since / 1000);
	struct tm tm;
	char hm[16] = "?", *x;

	if (localtime_r(&since, &tm) != NULL)
		strftime(hm, sizeof hm, "%H:%M", &tm);
	if (t->m.stream_state == API_STREAM_LIVE)
		/* TRANSLATORS: status bar: prices are streamed; %s is a time, 10:21 */
		x = xasprintf(_("live since %s"), hm);
	else
		/* TRANSLATORS: status bar: prices are asked for every 2 s; %s is a time */
		x = xasprintf(_("polled since %s"), hm);
	wstatus_add_prio(t->status, x, WR_STATUS, true, PRIO_FEED);
	free(x);
}

void tui_status_update(struct tui *t, int64_t now)
{
	struct wstatus *s = t->status;
	char *x;

	wstatus_begin(s);
	if (t->api != NULL && t->m.stale && t->m.no_answer_since > 0) {
		long secs = (long)((now - t->m.no_answer_since) / 1000);
		char *why = xasprintf(P_("no answer from the exchange for %ld s",
					 "no answer from the exchange for %ld s", (unsigned long)secs),
				      secs);
		x = xasprintf(_("STALE: %s"), why);
		wstatus_add_prio(s, x, WR_STATUS_ERROR, false, WSTATUS_KEEP);
		free(x);
		free(why);
	} else if (t->api != NULL && t->m.stale) {
		x = xasprintf(_("STALE: %s"), t->m.stale_reason ? t->m.stale_reason : "?");
		wstatus_add_prio(s, x, WR_STATUS_ERROR, false, WSTATUS_KEEP);
		free(x);
	}
	if (t->msg != NULL && now < t->msg_until)
		wstatus_add_prio(s, t->msg, WR_STATUS_WARN, false, PRIO_MSG);
	if (t->api == NULL) {
		wstatus_add_prio(s, t->api_error ? t->api_error
				     : _("no exchange yet: the catalogue without prices"),
				 WR_STATUS_WARN, false, WSTATUS_KEEP);
	} else {
		bool local = api_client_is_local_demo(t->api);
		const char *label = local ? _("local demo exchange") : api_client_label(t->api);
		/* a stale reason names the exchange already: not twice */
		if (!t->m.stale || t->m.stale_reason == NULL || strstr(t->m.stale_reason, label) == NULL)
			wstatus_add_prio(s, label, local ? WR_STATUS_WARN : WR_STATUS, false,
					 PRIO_EXCHANGE);
		if (t->m.have_market) {
			x = state_text(t);
			wstatus_add_prio(s, x, WR_STATUS, false,
					 t->m.state == API_MARKET_OPEN ? PRIO_MARKET_OPEN
								       : PRIO_MARKET_SHUT);
			free(x);
		}
		if (t->m.balance != NULL) {
			x = xasprintf(_("balance %s"), t->m.balance);
			wstatus_add_prio(s, x, WR_STATUS, false, PRIO_BALANCE);
			free(x);
		}
		if (t->m.fx_stale)
			wstatus_add_prio(s, _("FX rate out of date"), WR_STATUS_WARN, false,
					 PRIO_MARKET_SHUT);
	}
	if (t->status_note != NULL)
		wstatus_add_prio(s, t->status_note, WR_STATUS, false, PRIO_FILTER);
	if (t->api != NULL) {
		if (t->m.have_prices && !t->m.stale)
			feed_segment(t);
		if (t->m.have_prices) {
			long ago = (long)((now - t->m.updated_ms) / 1000);
			x = xasprintf(P_("prices updated %ld s ago", "prices updated %ld s ago",
					 (unsigned long)ago), ago);
			if (t->m.stale)
				wstatus_add_prio(s, x, WR_STATUS_ERROR, true, WSTATUS_KEEP);
			else
				wstatus_add_prio(s, x, WR_STATUS, true, PRIO_UPDATED);
			free(x);
		} else if (!t->m.stale) {
			wstatus_add_prio(s, _("waiting for prices"), WR_STATUS, true, PRIO_UPDATED);
		}
	}
	wstatus_commit(s);
}
