/*
 * The status bar (row lines-2), the frame's: what the market feed, the
 * account and the last message say, in segments with priorities (PRIO_*):
 * on a narrow terminal "market open" and the balance go first, a stale
 * marker and the prices' age never (they are cut if they must), and the
 * exchange is not named twice when the stale reason names it. Made again
 * every frame from the data (wstatus_commit redraws it only when a segment
 * changed), so a language switch needs nothing here.
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n/i18n.h"
#include "util/util.h"

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
	const struct api_market *m = t->m.state;
	/* on the exchange's clock, which may run ahead of ours */
	int64_t left = m->opens_at - ((int64_t)time(NULL) + t->m.clock_skew);

	if (m->state != API_MARKET_PRE_OPEN || m->opens_at < 0)
		return xstrdup(state_name(m->state));
	if (left > 0 && left < 24 * 3600) {
		long h = (long)(left / 3600), mn = (long)((left % 3600 + 59) / 60);
		if (mn == 60) {
			h++;
			mn = 0;
		}
		return h > 0 ? xasprintf(_("pre-open: trading opens in %ld h %02ld min"), h, mn)
			     : xasprintf(_("pre-open: trading opens in %ld min"), mn);
	}
	char *when = i18n_fmt_when(t->o->lang, m->opens_at, 0);
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

/* The account's available balance, in the language of now. */
static void balance_segment(struct tui *t)
{
	const struct api_account *a = t->account.a;
	char *m, *x;

	if (a == NULL || t->account.refused || !a->has_balance)
		return;
	m = i18n_fmt_money(t->o->lang, a->balance.available_minor, a->currency);
	x = xasprintf(_("balance %s"), m);
	wstatus_add_prio(t->status, x, WR_STATUS, false, PRIO_BALANCE);
	free(x);
	free(m);
	if (a->fx_rate_stale)
		wstatus_add_prio(t->status, _("FX rate out of date"), WR_STATUS_WARN, false,
				 PRIO_MARKET_SHUT);
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
		if (t->m.state != NULL) {
			x = state_text(t);
			wstatus_add_prio(s, x, WR_STATUS, false,
					 t->m.state->state == API_MARKET_OPEN ? PRIO_MARKET_OPEN
									      : PRIO_MARKET_SHUT);
			free(x);
		}
		balance_segment(t);
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

int64_t tui_status_next_change(struct tui *t, int64_t now)
{
	int64_t next = -1;

	if (t->m.have_prices) {
		/* the "updated N s ago" clock */
		next = t->m.updated_ms + ((now - t->m.updated_ms) / 1000 + 1) * 1000;
	}
	if (t->msg != NULL && (next < 0 || t->msg_until < next))
		next = t->msg_until;
	return next;
}
