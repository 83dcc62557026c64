/*
 * The market as data, in one table: a row per catalogue GPU with its best
 * ask, bid and last trade, its flash (an ask that changed between two
 * answers flashes for TUI_FLASH_MS, with its direction, decided here so
 * every screen agrees) and its 24 h history (history.c). Two feeds fill it
 * through one function, tui_market_take:
 *
 *   the stream   GET /v1/stream, channel quotes (api/stream.c, pumped in the
 *                main loop): a snapshot, then the changed quotes; heartbeats
 *                keep the prices fresh ("updated N s ago" counts from the
 *                last event or heartbeat); it reconnects by itself
 *   the poller   while the stream is not live (an exchange that does not
 *                stream, a stream being reconnected): GET /v1/quotes every
 *                2 s with the last ETag, so an unchanged book costs a 304
 *
 * The screens read the rows (tui_market_quote, tui_market_prices,
 * tui_market_figures) in their recalc when t->m.gen moved. The market's
 * state (GET /v1/market: open or not, its opening, demo, simulated
 * payments) has its one owner here too: asked every 10 s, again 5 s after
 * a failure, at once when a page that shows it opens. Nothing here waits.
 *
 * Failure is a state, not an event: a failed or unanswered request (no
 * answer for TUI_STALE_MS is abandoned) marks the prices stale with a short
 * reason ("exchange unreachable (connection refused)"), and so does news
 * that is late against the cadence the exchange promises (a heartbeat at
 * least every 10 s on the stream, an answer to each 2 s poll): "no answer
 * from the exchange for N s", counted from the last news, within a second of
 * the promise broken. The last prices stay on screen, dimmed; the next tick
 * simply tries again, and the first good reply or heartbeat clears it all. A local demo exchange that died is started again by
 * the client itself (api_local_respawn), so the next tick finds it.
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n/i18n.h"
#include "tui/market/detail.h"
#include "util/util.h"

/* ---- the table ------------------------------------------------------------------------------ */

static struct tui_market_gpu *row_of(const struct tui *t, const char *gpu)
{
	const struct catalog_gpu *g = gpu != NULL ? catalog_gpu(t->cat, gpu) : NULL;

	return g != NULL ? &t->m.gpu[g - t->cat->gpus] : NULL;
}

static int64_t ask_of(const struct tui_market_gpu *r)
{
	return r->quoted ? r->q.best_ask_cents : -1;
}

/* The prices are known to be current (an answer, a heartbeat). */
static void fresh(struct tui_market *m, int64_t now)
{
	if (m->stale)
		m->gen++;
	m->stale = false;
	m->no_answer_since = 0;
	m->updated_ms = now;
}

/* Row r takes quote q: its ask flashes if it moved, a new last trade goes
 * into the history. */
static void row_take(struct tui *t, struct tui_market_gpu *r, const struct api_quote *q,
		     int64_t now)
{
	int64_t was = ask_of(r), is = q != NULL ? q->best_ask_cents : -1;
	size_t g = (size_t)(r - t->m.gpu);

	if (q != NULL && r->quoted && q->last_cents >= 0 && q->last_cents != r->q.last_cents)
		tui_history_trade(t, g, q->last_cents);
	if (t->m.have_prices && was != is) {
		r->flash_until = now + TUI_FLASH_MS;
		r->flash_dir = was >= 0 && is >= 0 ? (is > was ? 1 : -1) : 2;
	}
	if (q == NULL || !r->quoted || q->best_ask_cents != r->q.best_ask_cents ||
	    q->ask_gpus != r->q.ask_gpus || q->best_ask_n8_cents != r->q.best_ask_n8_cents ||
	    q->ask_n8_units != r->q.ask_n8_units)
		r->qgen++;
	if (q != NULL) {
		r->q = *q;
		r->q.gpu = t->cat->gpus[g].id;
	}
	r->quoted = q != NULL;
}

void tui_market_take(struct tui *t, const struct api_quote *v, size_t n, bool whole, int64_t now)
{
	struct tui_market *m = &t->m;

	if (whole) {
		for (size_t g = 0; g < m->n_gpus; g++) {
			const struct api_quote *q = NULL;
			for (size_t i = 0; i < n && q == NULL; i++)
				if (strcmp(v[i].gpu, t->cat->gpus[g].id) == 0)
					q = &v[i];
			row_take(t, &m->gpu[g], q, now);
		}
	} else {
		for (size_t i = 0; i < n; i++) {
			struct tui_market_gpu *r = row_of(t, v[i].gpu);
			if (r != NULL)
				row_take(t, r, &v[i], now);
		}
	}
	tui_units_asks(t);
	m->have_prices = true;
	fresh(m, now);
	m->gen++;
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

const struct api_quote *tui_market_quote(const struct tui *t, const char *gpu)
{
	const struct tui_market_gpu *r = row_of(t, gpu);

	return r != NULL && r->quoted ? &r->q : NULL;
}

int64_t tui_market_ask(const struct tui *t, const char *gpu)
{
	const struct tui_market_gpu *r = row_of(t, gpu);

	return r != NULL ? ask_of(r) : -1;
}

struct view_prices tui_market_prices(const struct tui *t)
{
	return (struct view_prices){ t->m.asks, t->m.n_asks, t->m.stale };
}

bool tui_market_spark_scale(const struct tui *t, int spark_cols, int64_t *lo, int64_t *hi)
{
	int64_t *col = xcalloc((size_t)spark_cols + 1, sizeof *col);

	*lo = *hi = -1;
	for (size_t g = 0; g < t->m.n_gpus; g++)
		if (tui_history_series(t, g, spark_cols, col))
			detail_series_widen(col, spark_cols, lo, hi);
	free(col);
	return *lo >= 0;
}

void tui_market_figures(const struct tui *t, int spark_cols, struct view_market *out)
{
	size_t n = t->m.n_gpus;
	struct view_quote *v = xcalloc(n + 1, sizeof *v);
	int64_t *col = xcalloc((size_t)spark_cols + 1, sizeof *col), lo = -1, hi = -1;
	bool shared = t->spark_shared && tui_market_spark_scale(t, spark_cols, &lo, &hi);

	memset(out, 0, sizeof *out);
	for (size_t g = 0; g < n; g++) {
		const struct tui_market_gpu *r = &t->m.gpu[g];
		v[g].gpu_id = t->cat->gpus[g].id;
		v[g].bid_cents = r->quoted ? r->q.best_bid_cents : -1;
		v[g].last_cents = r->quoted ? r->q.last_cents : -1;
		if (tui_history_series(t, g, spark_cols, col))
			v[g].spark = shared ? detail_sparkline_on(col, spark_cols, lo, hi, t->ascii)
				: detail_sparkline(col, spark_cols, t->ascii);
		v[g].has_change = r->has_change;
		v[g].change_bp = r->change_bp;
	}
	free(col);
	if (shared) {
		char *l = tui_usd(t, lo), *h = tui_usd(t, hi);
		/* TRANSLATORS: the header of the 24 h sparklines drawn on one scale: its lowest
		   and highest price ("24 h $0.80–$4.40") */
		out->spark_label = xasprintf(_("24 h %s\u2013%s"), l, h);
		free(l);
		free(h);
	}
	out->items = v;
	out->n = n;
}
bool tui_market_change(const struct tui *t, const char *gpu, int64_t *bp)
{
	const struct tui_market_gpu *r = row_of(t, gpu);

	if (r == NULL || !r->has_change)
		return false;
	*bp = r->change_bp;
	return true;
}

void tui_market_figures_free(struct view_market *m)
{
	struct view_quote *v = (struct view_quote *)m->items;

	for (size_t i = 0; v != NULL && i < m->n; i++)
		free((char *)v[i].spark);
	free(v);
	free((char *)m->spark_label);
	memset(m, 0, sizeof *m);
}

int tui_flash(const struct tui *t, size_t g, int64_t now)
{
	if (g >= t->m.n_gpus || now >= t->m.gpu[g].flash_until)
		return 0;
	return t->m.gpu[g].flash_dir;
}

int64_t tui_market_next_change(struct tui *t, int64_t now)
{
	int64_t next = -1;

	for (size_t g = 0; g < t->m.n_gpus; g++) {
		int64_t u = t->m.gpu[g].flash_until;
		if (u > now && (next < 0 || u < next))
			next = u;
	}
	return next;
}

/* ---- the poller ------------------------------------------------------------------------------ */

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
		return xstrdup(e->slow ? _("the exchange answers too slowly") : _("exchange not answering"));
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
		/* ask again when the exchange says (Retry-After), or after a backoff */
		m->next_quotes_ms = now + api_poll_delay_ms(e, ++m->poll_failures, TUI_REFRESH_MS);
		return;
	}
	m->poll_failures = 0;
	if (r->unchanged && m->have_prices) {
		fresh(m, now);
	} else {
		tui_market_take(t, r->v, r->n, true, now);
		free(m->etag);
		m->etag = r->etag ? xstrdup(r->etag) : NULL;
	}
	api_quotes_free(&r);
}

static void on_market(void *ud, struct api_market *r, const struct api_error *e)
{
	struct tui *t = ud;

	t->m.market_req = 0;
	if (e != NULL) {
		/* the quotes say whether the exchange is there; ask again sooner,
		 * or when it says (Retry-After) */
		int64_t now = util_now_ms();
		if (e->retry_after_s > 0)
			t->m.next_market_ms = now + api_poll_delay_ms(e, 1, TUI_MARKET_MS);
		else if (t->m.next_market_ms > now + TUI_RETRY_MS)
			t->m.next_market_ms = now + TUI_RETRY_MS;
		return;
	}
	api_market_free(&t->m.state);
	t->m.state = r;
	t->m.clock_skew = r->server_time > 0 ? r->server_time - (int64_t)time(NULL) : 0;
	t->m.state_gen++;
	t->m.clock_speed = r->clock_speed > 0 ? r->clock_speed : 1.0;
	tui_exchange_clock(t, r->server_time);
}


void tui_market_state_soon(struct tui *t)
{
	t->m.next_market_ms = 0;
}

int64_t tui_market_opens_at(const struct tui *t)
{
	return t->m.state != NULL ? t->m.state->opens_at : -1;
}

/* How long the prices may go without news before they are stale: the
 * cadence the exchange promises. Streamed, an event or a heartbeat at
 * least every TUI_HEARTBEAT_MS (docs/API.md), and a second for the wire;
 * polled, an answer every TUI_REFRESH_MS, each given as long again to come
 * (the next poll is due by then). */
static int64_t promised_ms(const struct tui_market *m)
{
	if (m->stream_state == API_STREAM_LIVE)
		return TUI_HEARTBEAT_MS + TUI_LATE_MS;
	return 2 * TUI_REFRESH_MS;
}

/* The promise broken: stale, counting from the last news, so a silent
 * stream or an unanswered poll says so within a second of its cadence. */
static void late_check(struct tui *t, int64_t now)
{
	struct tui_market *m = &t->m;

	if (!m->have_prices || m->stale || now - m->updated_ms < promised_ms(m))
		return;
	m->no_answer_since = m->updated_ms;
	tui_market_set_stale(t, _("no answer from the exchange"));
}

int tui_market_tick(struct tui *t, int64_t now)
{
	struct tui_market *m = &t->m;
	int64_t next;

	if (t->api == NULL)
		return -1;
	if (m->quotes_req != 0 && now - m->quotes_sent_ms >= TUI_STALE_MS) {
		/* a hung exchange: give up on this request, say so, ask again */
		bool slow = api_call_receiving(t->api, m->quotes_req);
		const struct api_error *busy = api_call_error(t->api, m->quotes_req);
		char *why = busy != NULL ? stale_reason(busy) : NULL;
		int64_t wait = busy != NULL ? api_poll_delay_ms(busy, ++m->poll_failures, 0) : 0;
		api_abandon(t->api, m->quotes_req);
		m->quotes_req = 0;
		if (why != NULL) {
			/* it was waiting to try again (Retry-After): say why, wait as told */
			m->no_answer_since = 0;
			tui_market_set_stale(t, why);
			free(why);
			m->next_quotes_ms = now + wait;
		} else if (slow) {
			/* its reply had begun: a trickle, not silence */
			m->no_answer_since = 0;
			tui_market_set_stale(t, _("the exchange answers too slowly"));
			m->next_quotes_ms = now + api_poll_delay_ms(NULL, ++m->poll_failures, 0);
		} else {
			/* the seconds count from the last news */
			if (m->no_answer_since == 0)
				m->no_answer_since = m->have_prices ? m->updated_ms : m->quotes_sent_ms;
			/* the reason's seconds count on in the status bar */
			tui_market_set_stale(t, _("no answer from the exchange"));
			m->next_quotes_ms = now;
		}
	}
	late_check(t, now);
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
	if (m->have_prices && !m->stale && m->updated_ms + promised_ms(m) < next)
		next = m->updated_ms + promised_ms(m);
	return next <= now ? 0 : (int)(next - now);
}

/* ---- the stream ------------------------------------------------------------------------------ */

static void on_quotes_event(void *ud, const struct api_stream_event *ev)
{
	struct tui *t = ud;
	int64_t now = util_now_ms();

	if (ev->kind == API_EV_HEARTBEAT && t->m.have_prices)
		fresh(&t->m, now);
	if (ev->kind == API_EV_HEARTBEAT || ev->channel != API_CH_QUOTES)
		return;
	if (ev->kind == API_EV_SNAPSHOT)
		tui_market_take(t, ev->quotes, ev->n_quotes, true, now);
	else if (ev->kind == API_EV_QUOTE)
		tui_market_take(t, ev->quotes, ev->n_quotes, false, now);
}

static void on_quotes_state(void *ud, enum api_stream_state st, const struct api_error *why)
{
	struct tui *t = ud;

	(void)why; /* the polling that takes over says what is wrong, if anything */
	if (st == t->m.stream_state)
		return;
	t->m.stream_state = st;
	api_stream_state(t->m.stream, &t->m.stream_since);
	if (st != API_STREAM_LIVE && t->m.poll_failures == 0)
		t->m.next_quotes_ms = 0; /* poll at once while the stream is away (unless backing off) */
	t->m.gen++;
}

void tui_market_open(struct tui *t)
{
	/* silent beyond the heartbeat's promise: the stream is given up and
	 * made again (and polled meanwhile), as the prices are called stale */
	struct api_stream_opts o = { .channels = "quotes", .no_poll = true,
				     .stall_ms = TUI_HEARTBEAT_MS + 2 * TUI_LATE_MS };
	struct api_stream_cbs cb = { .event = on_quotes_event, .state = on_quotes_state, .ud = t };

	if (t->api == NULL || t->m.stream != NULL)
		return;
	t->m.stream_state = API_STREAM_CONNECTING;
	t->m.stream = api_stream_open(t->api, &o, &cb);
	api_stream_state(t->m.stream, &t->m.stream_since);
}

int tui_market_fds(struct tui *t, struct pollfd *fds, int max, int *timeout_ms)
{
	int n = 0;

	if (t->m.stream != NULL)
		n += api_stream_fds(t->m.stream, fds, max, timeout_ms);
	n += tui_events_fds(t, fds + n, max - n, timeout_ms);
	return n + tui_focus_fds(t, fds + n, max - n, timeout_ms);
}

void tui_market_perform(struct tui *t)
{
	if (t->m.stream != NULL)
		api_stream_perform(t->m.stream);
	tui_events_perform(t);
	tui_focus_perform(t);
}

/* ---- life ------------------------------------------------------------------------------------ */

void tui_market_init(struct tui *t)
{
	t->m.n_gpus = t->cat->n_gpus;
	t->m.gpu = xcalloc(t->m.n_gpus + 1, sizeof *t->m.gpu);
	for (size_t g = 0; g < t->m.n_gpus; g++)
		t->m.gpu[g].units.t = t;
	t->m.asks = xcalloc(t->m.n_gpus + 1, sizeof *t->m.asks);
	t->m.next_quotes_ms = 0;
	t->m.next_market_ms = 0;
	tui_market_open(t);
}

void tui_market_free(struct tui *t)
{
	if (t->api != NULL && t->m.quotes_req != 0)
		api_abandon(t->api, t->m.quotes_req);
	if (t->api != NULL && t->m.market_req != 0)
		api_abandon(t->api, t->m.market_req);
	tui_focus_set(t, NULL);
	tui_history_free(t);
	tui_units_free(t);
	api_stream_close(&t->m.stream);
	free(t->m.gpu);
	free(t->m.asks);
	free(t->m.stale_reason);
	free(t->m.etag);
	api_market_free(&t->m.state);
	memset(&t->m, 0, sizeof t->m);
}
