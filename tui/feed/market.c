/*
 * The market as data: best asks every 2 s (GET /v1/quotes with the last
 * ETag, so an unchanged book costs a 304) while the stream (feed.c) is not
 * live, and the market's state (GET /v1/market: open or not, its opening,
 * demo, simulated payments; the one owner of it) every 10 s, again 5 s
 * after a failure, at once when a page that shows it opens; all through
 * the client's non-blocking calls pumped by the main loop. Nothing here
 * waits.
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
	if (e != NULL) {
		/* the quotes say whether the exchange is there; ask again sooner */
		if (t->m.next_market_ms > util_now_ms() + TUI_RETRY_MS)
			t->m.next_market_ms = util_now_ms() + TUI_RETRY_MS;
		return;
	}
	api_market_free(&t->m.state);
	t->m.state = r;
	t->m.state_gen++;
}

void tui_market_state_soon(struct tui *t)
{
	t->m.next_market_ms = 0;
}

int64_t tui_market_opens_at(const struct tui *t)
{
	return t->m.state != NULL ? t->m.state->opens_at : -1;
}

int64_t tui_market_ask(const struct tui *t, const char *gpu)
{
	return gpu != NULL ? price_in(t->m.prices, t->m.n_prices, gpu) : -1;
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
	if (t->api != NULL && t->m.quotes_req != 0)
		api_abandon(t->api, t->m.quotes_req);
	if (t->api != NULL && t->m.market_req != 0)
		api_abandon(t->api, t->m.market_req);
	tui_feed_close(t);
	prices_free(&t->m);
	free(t->m.stale_reason);
	free(t->m.etag);
	api_market_free(&t->m.state);
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
	if (now >= m->next_market_ms && m->market_req == 0) {
		m->next_market_ms = now + TUI_MARKET_MS;
		m->market_req = api_market_start(t->api, on_market, t);
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
	return next;
}
