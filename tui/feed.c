/*
 * The market streamed into the TUI (GET /v1/stream through api/stream.c,
 * pumped in the main loop next to the client's requests):
 *
 *   quotes       every GPU's ask, bid and last trade; each snapshot or
 *                increment goes through tui_market_apply_quotes, the one
 *                way prices change, so the tables flash and rewrite only
 *                the cells that moved. While this stream is live, market.c
 *                polls nothing; while it is not (an exchange that does not
 *                stream, a stream being reconnected), market.c polls
 *                GET /v1/quotes as before.
 *   trades:GPU,  the GPU being looked at (the detail screen): its book
 *   book:GPU     (levels merged as increments arrive) and recent trades.
 *                Until that stream is live they are fetched every 2 s.
 *                The stream's levels carry no GPU-hours: after a change
 *                the book is asked once (GET /v1/books, at most every
 *                second) for them.
 *
 * The market columns' history: each GPU's 1 h candles of the last day,
 * fetched once (GET /v1/candles, a few at a time) when a screen shows it,
 * then kept current from the quotes: every change of a GPU's last-trade
 * price is a trade, and moves the close of the hour it falls in. The close
 * is all a sparkline and a 24 h change need, and a trade at the price
 * already last leaves both as they are, so nothing is polled.
 *
 * Heartbeats keep the prices fresh ("updated N s ago" counts from the last
 * event or heartbeat). The stream reconnects and resyncs by itself.
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui/detail.h"

#include "i18n/i18n.h"
#include "util/util.h"

/* ---- the quotes ------------------------------------------------------------------------ */

const struct api_quote *tui_quote(const struct tui *t, const char *gpu)
{
	for (size_t i = 0; gpu != NULL && i < t->m.n_quotes; i++)
		if (strcmp(t->m.quotes[i].gpu, gpu) == 0)
			return &t->m.quotes[i];
	return NULL;
}

static void quotes_free(struct tui_market *m)
{
	for (size_t i = 0; i < m->n_quotes; i++)
		free(m->quotes[i].gpu);
	free(m->quotes);
	m->quotes = NULL;
	m->n_quotes = 0;
}

static void history_trade(struct tui *t, const char *gpu, int64_t price);

void tui_feed_store_quotes(struct tui *t, const struct api_quote *v, size_t n, bool whole,
			   int64_t now)
{
	struct tui_market *m = &t->m;
	struct view_price *np;

	/* a last price that moved is a trade: the history follows it */
	for (size_t i = 0; i < n; i++) {
		const struct api_quote *old = tui_quote(t, v[i].gpu);
		if (old != NULL && v[i].last_cents >= 0 && v[i].last_cents != old->last_cents)
			history_trade(t, v[i].gpu, v[i].last_cents);
	}
	if (whole)
		quotes_free(m);
	for (size_t i = 0; i < n; i++) {
		struct api_quote *q = (struct api_quote *)tui_quote(t, v[i].gpu);
		if (q == NULL) {
			m->quotes = xreallocarray(m->quotes, m->n_quotes + 1, sizeof *m->quotes);
			q = &m->quotes[m->n_quotes++];
			q->gpu = xstrdup(v[i].gpu);
		}
		char *id = q->gpu;
		*q = v[i];
		q->gpu = id;
	}
	np = xcalloc(m->n_quotes ? m->n_quotes : 1, sizeof *np);
	for (size_t i = 0; i < m->n_quotes; i++) {
		np[i].gpu_id = m->quotes[i].gpu;
		np[i].cents = m->quotes[i].best_ask_cents;
	}
	tui_market_apply_quotes(t, np, m->n_quotes, now);
	free(np);
}

/* The prices are known to be current without a change (a heartbeat). */
static void fresh(struct tui *t, int64_t now)
{
	struct tui_market *m = &t->m;

	if (!m->have_prices)
		return;
	if (m->stale)
		m->gen++;
	m->stale = false;
	m->no_answer_since = 0;
	m->updated_ms = now;
}

static void on_quotes_event(void *ud, const struct api_stream_event *ev)
{
	struct tui *t = ud;
	int64_t now = util_now_ms();

	if (ev->kind == API_EV_HEARTBEAT) {
		fresh(t, now);
		return;
	}
	if (ev->channel != API_CH_QUOTES)
		return;
	if (ev->kind == API_EV_SNAPSHOT)
		tui_feed_store_quotes(t, ev->quotes, ev->n_quotes, true, now);
	else if (ev->kind == API_EV_QUOTE)
		tui_feed_store_quotes(t, ev->quotes, ev->n_quotes, false, now);
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

void tui_feed_open(struct tui *t)
{
	struct api_stream_opts o = { .channels = "quotes", .no_poll = true };
	struct api_stream_cbs cb = { .event = on_quotes_event, .state = on_quotes_state, .ud = t };

	if (t->m.hist == NULL) {
		t->m.hist = xcalloc(1, sizeof *t->m.hist);
		t->m.hist->g = xcalloc(t->cat->n_gpus + 1, sizeof *t->m.hist->g);
	}
	if (t->api == NULL || t->m.stream != NULL)
		return;
	t->m.stream_state = API_STREAM_CONNECTING;
	t->m.stream = api_stream_open(t->api, &o, &cb);
	api_stream_state(t->m.stream, &t->m.stream_since);
}

/* ---- the 24 h history ---------------------------------------------------------------------- */

enum {
	HIST_LIMIT = 26,            /* 1 h candles asked: a day and the hour before it */
	HIST_IN_FLIGHT = 4,         /* candle requests at once */
	HIST_SLIDE_MS = 300000,     /* the window moves on (a sparkline column is 2 h) */
	HIST_KEEP_S = 26 * 3600,
};

static int64_t exchange_now(const struct tui *t)
{
	return (int64_t)time(NULL) + (t->m.hist != NULL ? t->m.hist->offset_s : 0);
}

static struct tui_hist_gpu *hist_of(const struct tui *t, const char *gpu)
{
	const struct catalog_gpu *g = gpu != NULL ? catalog_gpu(t->cat, gpu) : NULL;

	if (t->m.hist == NULL || g == NULL)
		return NULL;
	return &t->m.hist->g[g - t->cat->gpus];
}

static void history_trade(struct tui *t, const char *gpu, int64_t price)
{
	struct tui_hist_gpu *h = hist_of(t, gpu);
	int64_t now = exchange_now(t), hour = now - now % 3600;
	struct api_candle *c;

	if (h == NULL || !h->have)
		return; /* the candles, when they come, hold it */
	c = h->n > 0 ? &h->v[h->n - 1] : NULL;
	if (c == NULL || c->start < hour) {
		size_t drop = 0;
		while (drop < h->n && h->v[drop].start < now - HIST_KEEP_S)
			drop++;
		memmove(h->v, h->v + drop, (h->n - drop) * sizeof *h->v);
		h->n -= drop;
		h->v = xreallocarray(h->v, h->n + 1, sizeof *h->v);
		c = &h->v[h->n++];
		memset(c, 0, sizeof *c);
		c->start = hour;
		c->open_cents = c->high_cents = c->low_cents = price;
	}
	c->close_cents = price;
	if (price > c->high_cents)
		c->high_cents = price;
	if (price < c->low_cents)
		c->low_cents = price;
	c->trades++;
	t->m.hist->gen++;
}

static void on_hist(void *ud, struct api_candles *r, const struct api_error *e)
{
	struct tui_hist_gpu *h = ud;
	struct tui_history *x = h->t->m.hist;

	h->req = 0;
	if (e != NULL) {
		h->failed = true; /* shown as no history; not asked again */
	} else {
		free(h->v);
		h->v = xcalloc(r->n ? r->n : 1, sizeof *h->v);
		if (r->n > 0)
			memcpy(h->v, r->v, r->n * sizeof *h->v);
		h->n = r->n;
		h->have = true;
		if (r->server_time > 0)
			x->offset_s = r->server_time - (int64_t)time(NULL);
		x->gen++;
	}
	api_candles_free(&r);
}

void tui_history_want(struct tui *t)
{
	if (t->m.hist != NULL)
		t->m.hist->wanted = true;
}

static void history_tick(struct tui *t, int64_t now, int64_t *next)
{
	struct tui_history *x = t->m.hist;
	size_t busy = 0;

	if (x == NULL || !x->wanted || t->api == NULL)
		return;
	for (size_t g = 0; g < t->cat->n_gpus; g++)
		busy += x->g[g].req != 0;
	for (size_t g = 0; g < t->cat->n_gpus && busy < HIST_IN_FLIGHT; g++) {
		struct tui_hist_gpu *h = &x->g[g];
		if (h->have || h->failed || h->req != 0)
			continue;
		struct api_candles_query q = { .interval = "1h", .from = -1, .to = -1,
					       .limit = HIST_LIMIT };
		h->t = t;
		h->req = api_candles_start(t->api, t->cat->gpus[g].id, &q, on_hist, h);
		busy++;
	}
	if (now >= x->next_slide_ms) {
		if (x->next_slide_ms > 0)
			x->gen++;
		x->next_slide_ms = now + HIST_SLIDE_MS;
	}
	if (*next < 0 || x->next_slide_ms < *next)
		*next = x->next_slide_ms;
}

bool tui_history_series(const struct tui *t, size_t g, int cols, int64_t *col)
{
	const struct tui_hist_gpu *h;
	int64_t now = exchange_now(t);

	for (int j = 0; j < cols; j++)
		col[j] = -1;
	if (t->m.hist == NULL || g >= t->cat->n_gpus)
		return false;
	h = &t->m.hist->g[g];
	if (!h->have)
		return false;
	return detail_series(h->v, h->n, now - 86400, now, cols, col) > 0;
}

size_t tui_view_market(const struct tui *t, int spark_cols, struct view_quote **out)
{
	size_t n = t->cat->n_gpus;
	struct view_quote *v = xcalloc(n + 1, sizeof *v);
	int64_t *col = xcalloc((size_t)spark_cols + 1, sizeof *col), fine[96];

	for (size_t g = 0; g < n; g++) {
		const char *id = t->cat->gpus[g].id;
		const struct api_quote *q = tui_quote(t, id);
		v[g].gpu_id = id;
		v[g].bid_cents = q != NULL ? q->best_bid_cents : -1;
		v[g].last_cents = q != NULL ? q->last_cents : -1;
		if (tui_history_series(t, g, spark_cols, col))
			v[g].spark = detail_sparkline(col, spark_cols, t->ascii);
		/* the change from the price 24 h ago (to a quarter of an hour) */
		if (tui_history_series(t, g, 96, fine))
			v[g].has_change = detail_change_bp(fine, 96, &v[g].change_bp);
	}
	free(col);
	*out = v;
	return n;
}

void tui_view_market_free(struct view_quote *v, size_t n)
{
	for (size_t i = 0; v != NULL && i < n; i++)
		free((char *)v[i].spark);
	free(v);
}

static void history_free(struct tui *t)
{
	struct tui_history *x = t->m.hist;

	if (x == NULL)
		return;
	for (size_t g = 0; g < t->cat->n_gpus; g++) {
		if (x->g[g].req != 0 && t->api != NULL)
			api_abandon(t->api, x->g[g].req);
		free(x->g[g].v);
	}
	free(x->g);
	free(x);
	t->m.hist = NULL;
}

/* ---- the focus: one GPU's book and trades ------------------------------------------------ */

static void focus_free(struct tui *t)
{
	struct tui_focus *f = t->m.focus;

	if (f == NULL)
		return;
	api_stream_close(&f->stream);
	if (f->book_req != 0)
		api_abandon(t->api, f->book_req);
	if (f->trades_req != 0)
		api_abandon(t->api, f->trades_req);
	free(f->gpu);
	free(f->asks);
	free(f->bids);
	free(f->trades);
	free(f);
	t->m.focus = NULL;
}

void tui_feed_close(struct tui *t)
{
	focus_free(t);
	history_free(t);
	api_stream_close(&t->m.stream);
	quotes_free(&t->m);
}

static void levels_set(struct api_level **dst, size_t *n, const struct api_level *src, size_t m)
{
	free(*dst);
	*dst = xcalloc(m ? m : 1, sizeof **dst);
	if (m > 0)
		memcpy(*dst, src, m * sizeof **dst);
	*n = m;
}

/* A changed level into a ladder sorted best first (asks: lowest price
 * first; bids: highest); gpus 0 removes it. */
static void level_merge(struct api_level **v, size_t *n, const struct api_level *l, bool asks)
{
	size_t i = 0;

	while (i < *n && (asks ? (*v)[i].price_cents < l->price_cents
			       : (*v)[i].price_cents > l->price_cents))
		i++;
	if (i < *n && (*v)[i].price_cents == l->price_cents) {
		if (l->gpus == 0)
			memmove(&(*v)[i], &(*v)[i + 1], (*n - i - 1) * sizeof **v);
		else
			(*v)[i] = *l;
		*n -= l->gpus == 0;
		return;
	}
	if (l->gpus == 0)
		return;
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	memmove(&(*v)[i + 1], &(*v)[i], (*n - i) * sizeof **v);
	(*v)[i] = *l;
	(*n)++;
}

static void trades_set(struct tui_focus *f, const struct api_trade *v, size_t n)
{
	if (n > TUI_TRADES_MAX)
		n = TUI_TRADES_MAX;
	free(f->trades);
	f->trades = xcalloc(TUI_TRADES_MAX, sizeof *f->trades);
	if (n > 0)
		memcpy(f->trades, v, n * sizeof *v);
	f->n_trades = n;
	f->have_trades = true;
}

/* New trades, oldest first: each goes on top of the list. */
static void trades_add(struct tui_focus *f, const struct api_trade *v, size_t n)
{
	if (f->trades == NULL)
		trades_set(f, NULL, 0);
	for (size_t i = 0; i < n; i++) {
		size_t keep = f->n_trades < TUI_TRADES_MAX ? f->n_trades : TUI_TRADES_MAX - 1;
		memmove(&f->trades[1], &f->trades[0], keep * sizeof *f->trades);
		f->trades[0] = v[i];
		f->n_trades = keep + 1;
	}
}

/* True when a level of the book lacks its GPU-hours (an exchange whose
 * stream does not send them): the book is then asked for them. */
static bool hours_missing(const struct tui_focus *f)
{
	for (size_t i = 0; i < f->n_asks; i++)
		if (f->asks[i].gpu_hours < 0)
			return true;
	for (size_t i = 0; i < f->n_bids; i++)
		if (f->bids[i].gpu_hours < 0)
			return true;
	return false;
}

static void on_focus_event(void *ud, const struct api_stream_event *ev)
{
	struct tui_focus *f = ((struct tui *)ud)->m.focus;

	if (f == NULL || ev->gpu == NULL || strcmp(ev->gpu, f->gpu) != 0)
		return;
	if (ev->channel == API_CH_BOOK && ev->kind == API_EV_SNAPSHOT) {
		levels_set(&f->asks, &f->n_asks, ev->asks, ev->n_asks);
		levels_set(&f->bids, &f->n_bids, ev->bids, ev->n_bids);
		f->have_book = true;
		f->hours_due = hours_missing(f);
	} else if (ev->channel == API_CH_BOOK && ev->kind == API_EV_BOOK) {
		for (size_t i = 0; i < ev->n_asks; i++)
			level_merge(&f->asks, &f->n_asks, &ev->asks[i], true);
		for (size_t i = 0; i < ev->n_bids; i++)
			level_merge(&f->bids, &f->n_bids, &ev->bids[i], false);
		f->hours_due = hours_missing(f);
	} else if (ev->channel == API_CH_TRADES && ev->kind == API_EV_SNAPSHOT) {
		trades_set(f, ev->trades, ev->n_trades);
		f->trade_gen++;
	} else if (ev->channel == API_CH_TRADES && ev->kind == API_EV_TRADE) {
		trades_add(f, ev->trades, ev->n_trades);
		f->trade_gen++;
	} else {
		return;
	}
	f->gen++;
}

static void on_focus_state(void *ud, enum api_stream_state st, const struct api_error *why)
{
	struct tui_focus *f = ((struct tui *)ud)->m.focus;

	(void)why;
	if (f != NULL && f->state != st) {
		f->state = st;
		f->gen++;
	}
}

void tui_feed_focus(struct tui *t, const char *gpu)
{
	struct tui_focus *f;
	char ch[160];

	if (t->m.focus != NULL && gpu != NULL && strcmp(t->m.focus->gpu, gpu) == 0)
		return;
	focus_free(t);
	if (gpu == NULL || t->api == NULL)
		return;
	f = t->m.focus = xcalloc(1, sizeof *f);
	f->gpu = xstrdup(gpu);
	f->state = API_STREAM_CONNECTING;
	snprintf(ch, sizeof ch, "trades:%s,book:%s", gpu, gpu);
	struct api_stream_opts o = { .channels = ch, .no_poll = true };
	struct api_stream_cbs cb = { .event = on_focus_event, .state = on_focus_state, .ud = t };
	f->stream = api_stream_open(t->api, &o, &cb);
}

/* The GPU-hours of a fetched book into the streamed levels that have the
 * same price and GPUs (one that moved since waits for the next fetch). */
static void hours_merge(struct api_level *v, size_t n, const struct api_level *src, size_t m)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < m; j++)
			if (src[j].price_cents == v[i].price_cents && src[j].gpus == v[i].gpus)
				v[i].gpu_hours = src[j].gpu_hours;
}

static void on_book(void *ud, struct api_book *r, const struct api_error *e)
{
	struct tui_focus *f = ((struct tui *)ud)->m.focus;

	if (f != NULL)
		f->book_req = 0;
	if (e == NULL && f != NULL && f->state != API_STREAM_LIVE) {
		levels_set(&f->asks, &f->n_asks, r->asks, r->n_asks);
		levels_set(&f->bids, &f->n_bids, r->bids, r->n_bids);
		f->have_book = true;
		f->gen++;
	} else if (e == NULL && f != NULL) {
		hours_merge(f->asks, f->n_asks, r->asks, r->n_asks);
		hours_merge(f->bids, f->n_bids, r->bids, r->n_bids);
		f->gen++;
	}
	api_book_free(&r);
}

static void on_trades(void *ud, struct api_trades *r, const struct api_error *e)
{
	struct tui_focus *f = ((struct tui *)ud)->m.focus;

	if (f != NULL)
		f->trades_req = 0;
	if (e == NULL && f != NULL && f->state != API_STREAM_LIVE) {
		bool news = !f->have_trades || r->n != f->n_trades ||
			    (r->n > 0 && r->v[0].id != f->trades[0].id);
		trades_set(f, r->v, r->n);
		if (news)
			f->trade_gen++;
		f->gen++;
	}
	api_trades_free(&r);
}

void tui_feed_tick(struct tui *t, int64_t now, int64_t *next)
{
	struct tui_focus *f = t->m.focus;

	history_tick(t, now, next);
	if (f != NULL && t->api != NULL && f->state == API_STREAM_LIVE && f->hours_due) {
		if (now >= f->next_hours_ms && f->book_req == 0) {
			f->hours_due = false;
			f->next_hours_ms = now + 1000;
			f->book_req = api_book_start(t->api, f->gpu, TUI_BOOK_DEPTH, on_book, t);
		} else if (f->next_hours_ms > now && (*next < 0 || f->next_hours_ms < *next)) {
			*next = f->next_hours_ms; /* (a reply on its way wakes the loop) */
		}
	}
	if (f == NULL || t->api == NULL || f->state == API_STREAM_LIVE)
		return;
	if (now >= f->next_fetch_ms && f->book_req == 0 && f->trades_req == 0) {
		struct api_list_query q = { .limit = TUI_TRADES_MAX };
		f->next_fetch_ms = now + TUI_REFRESH_MS;
		f->book_req = api_book_start(t->api, f->gpu, TUI_BOOK_DEPTH, on_book, t);
		f->trades_req = api_trades_start(t->api, f->gpu, &q, on_trades, t);
	}
	if (*next < 0 || f->next_fetch_ms < *next)
		*next = f->next_fetch_ms;
}

/* ---- the loop's part ---------------------------------------------------------------------- */

int tui_feed_fds(struct tui *t, struct pollfd *fds, int max, int *timeout_ms)
{
	int n = 0;

	if (t->m.stream != NULL)
		n += api_stream_fds(t->m.stream, fds, max, timeout_ms);
	if (t->m.focus != NULL && t->m.focus->stream != NULL && n < max)
		n += api_stream_fds(t->m.focus->stream, fds + n, max - n, timeout_ms);
	return n;
}

void tui_feed_perform(struct tui *t)
{
	if (t->m.stream != NULL)
		api_stream_perform(t->m.stream);
	if (t->m.focus != NULL && t->m.focus->stream != NULL)
		api_stream_perform(t->m.focus->stream);
}
