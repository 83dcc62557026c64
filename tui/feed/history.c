/*
 * The market table's 24 h history (the market columns' change and
 * sparkline, the compare screen): each GPU's 1 h candles of the last day,
 * fetched once (GET /v1/candles, a few at a time) when a screen shows it,
 * then kept current from the quotes: every change of a GPU's last-trade
 * price is a trade (tui_history_trade, from the table), and moves the close
 * of the hour it falls in. The close is all a sparkline and a 24 h change
 * need, and a trade at the price already last leaves both as they are, so
 * nothing is polled.
 *
 * The 24 h change is computed here, once, whenever a GPU's candles or the
 * window move (detail_change_since: from the last close of an hour begun
 * before 24 h ago to the last close), and every screen reads it from the
 * market table: the tables' 24 h %, the detail screen's title and the
 * compare screen show the same figure. The 26 newest hours that traded
 * always hold the hour before the window, if any traded.
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>

#include "tui/market/detail.h"
#include "util/util.h"

enum {
	HIST_LIMIT = 26,            /* 1 h candles asked: a day and the hour before it */
	HIST_IN_FLIGHT = 4,         /* candle requests at once */
	HIST_SLIDE_MS = 300000,     /* the window moves on (a sparkline column is 2 h) */
	HIST_KEEP_S = 26 * 3600,
};

/* GPU g's 24 h change from its candles now: the one figure every screen
 * shows (struct tui_market_gpu). */
static void change_update(struct tui *t, size_t g)
{
	struct tui_market_gpu *r = &t->m.gpu[g];
	const struct tui_hist_gpu *h = &r->hist;

	r->has_change = h->have &&
			detail_change_since(h->v, h->n, tui_exchange_now(t) - 86400, &r->change_bp);
}

void tui_history_trade(struct tui *t, size_t g, int64_t price)
{
	struct tui_hist_gpu *h = &t->m.gpu[g].hist;
	int64_t now = tui_exchange_now(t), hour = now - now % 3600;
	struct api_candle *c;

	if (!h->have)
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
	change_update(t, g);
	t->m.hist.gen++;
}

static void on_hist(void *ud, struct api_candles *r, const struct api_error *e)
{
	struct tui_hist_gpu *h = ud;
	struct tui_history *x = &h->t->m.hist;

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
		tui_exchange_clock(h->t, r->server_time);
		change_update(h->t, h->g);
		x->gen++;
	}
	api_candles_free(&r);
}

void tui_history_want(struct tui *t)
{
	t->m.hist.wanted = true;
}

void tui_history_tick(struct tui *t, int64_t now, int64_t *next)
{
	struct tui_history *x = &t->m.hist;
	size_t busy = 0;

	if (!x->wanted || t->api == NULL)
		return;
	for (size_t g = 0; g < t->m.n_gpus; g++)
		busy += t->m.gpu[g].hist.req != 0;
	for (size_t g = 0; g < t->m.n_gpus && busy < HIST_IN_FLIGHT; g++) {
		struct tui_hist_gpu *h = &t->m.gpu[g].hist;
		struct api_candles_query q = { .interval = "1h", .from = -1, .to = -1,
					       .limit = HIST_LIMIT };
		if (h->have || h->failed || h->req != 0)
			continue;
		h->t = t;
		h->g = g;
		h->req = api_candles_start(t->api, t->cat->gpus[g].id, &q, on_hist, h);
		busy++;
	}
	if (now >= x->next_slide_ms) {
		if (x->next_slide_ms > 0) {
			for (size_t g = 0; g < t->m.n_gpus; g++)
				change_update(t, g);
			x->gen++;
		}
		x->next_slide_ms = now + HIST_SLIDE_MS;
	}
	if (*next < 0 || x->next_slide_ms < *next)
		*next = x->next_slide_ms;
}

bool tui_history_series(const struct tui *t, size_t g, int cols, int64_t *col)
{
	const struct tui_hist_gpu *h;
	int64_t now = tui_exchange_now(t);

	for (int j = 0; j < cols; j++)
		col[j] = -1;
	if (g >= t->m.n_gpus)
		return false;
	h = &t->m.gpu[g].hist;
	if (!h->have)
		return false;
	return detail_series(h->v, h->n, now - 86400, now, cols, col, NULL) > 0;
}

void tui_history_free(struct tui *t)
{
	for (size_t g = 0; g < t->m.n_gpus; g++) {
		struct tui_hist_gpu *h = &t->m.gpu[g].hist;
		if (h->req != 0 && t->api != NULL)
			api_abandon(t->api, h->req);
		free(h->v);
		memset(h, 0, sizeof *h);
	}
}
