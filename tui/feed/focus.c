/*
 * The GPU being looked at (the detail screen), as data: its book (levels
 * merged as increments arrive) and recent trades, streamed (GET /v1/stream,
 * channels trades:GPU and book:GPU, through api/stream.c, pumped in the
 * main loop next to the client's requests). Until that stream is live they
 * are fetched every 2 s. The stream's levels carry no GPU-hours: after a
 * change the book is asked once (GET /v1/books, at most every second) for
 * them. The stream reconnects and resyncs by itself.
 */
#include "tui/tui_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

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

void tui_focus_set(struct tui *t, const char *gpu)
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

void tui_focus_tick(struct tui *t, int64_t now, int64_t *next)
{
	struct tui_focus *f = t->m.focus;

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

int tui_focus_fds(struct tui *t, struct pollfd *fds, int max, int *timeout_ms)
{
	if (t->m.focus == NULL || t->m.focus->stream == NULL || max <= 0)
		return 0;
	return api_stream_fds(t->m.focus->stream, fds, max, timeout_ms);
}

void tui_focus_perform(struct tui *t)
{
	if (t->m.focus != NULL && t->m.focus->stream != NULL)
		api_stream_perform(t->m.focus->stream);
}
