/*
 * exchange/stream.c — GET /v1/stream: market data as Server-Sent Events
 * (docs/API.md, "The market stream").
 *
 * The hub holds what every stream needs: its own copy of the books (top
 * XD_DEPTH_MAX levels a side) and last prices, the channels' last sequence
 * numbers, and a bounded ring of the latest events, each already formatted
 * as SSE text ("id: …\nevent: …\ndata: {…}\n\n") once for all clients.
 *
 * The writer feeds it after COMMIT: xd_stream_trade() while a job fills
 * (held back until the commit), xd_stream_book() for every book published to
 * the snapshot, then xd_stream_commit(), which diffs the books against the
 * hub's copy, formats the batch's trade, book and quote events and appends
 * them to the ring; COALESCE_MS later the fan-out thread resumes the
 * connections waiting for them (so a burst of commits leaves in one send per
 * client).
 *
 * A connection is a libmicrohttpd callback response. Its content reader
 * copies, under the hub's mutex, first its own head (the retry line and the
 * snapshots, or a last `closing` event), then the ring's events of its
 * channels from its cursor on; with nothing to send it suspends its
 * connection (MHD_suspend_connection from the reader), and the fan-out
 * thread resumes it (for new events, or for a heartbeat). Nothing is copied per client beyond that
 * cursor, so a client's memory is bounded by its head, and the kernel's
 * socket buffer is capped (SO_SNDBUF) so a stalled reader pins little. A
 * client whose cursor the ring has overwritten gets `closing` with code
 * TOO_SLOW and the end of the response; one that reads nothing at all is
 * closed by the connection timeout. Nobody else waits for it.
 *
 * Event ids are "<boot>-<n>": a Last-Event-ID of this boot still in the ring
 * replays what followed it; anything else gets fresh snapshots.
 */
#include "exchange/xd.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>

#include <microhttpd.h>

#include "util/util.h"

#define COALESCE_MS 4          /* a commit's events leave at most this long after it,
                                  with those of the commits that follow meanwhile */
#define BEAT_MS 4000           /* a connection idle for a whole period gets a heartbeat,
                                  so ≤ 2 periods pass without a byte (the API promises 10 s) */
#define IDLE_TIMEOUT_S 30      /* a client that takes nothing for this long is closed */
#define SNDBUF_BYTES 65536     /* kernel send buffer of a stream socket */
#define SNAP_TRADES 50         /* trades in a trades channel's snapshot */
#define CHANNELS_MAX 256       /* entries of ?channels= */
#define BLOCK 32768            /* MHD's buffer for the content reader */

enum ev_kind { EV_QUOTE, EV_TRADE, EV_BOOK };

struct sbook {
	size_t n_ask, n_bid;
	struct eng_level ask[XD_DEPTH_MAX], bid[XD_DEPTH_MAX];
	int64_t last;
	struct xd_unit_quotes u;
};

struct ev {
	uint64_t id;
	enum ev_kind kind;
	int gpu;
	char *text;
	size_t len;
};

struct ptrade { int gpu; int64_t id, price, at; int32_t gpus, hours; int side; };

struct sconn {
	struct xd_stream *hub;
	struct MHD_Connection *conn;
	struct sconn *prev, *next;
	bool quotes;
	bool *trades, *book;           /* per GPU */
	uint64_t cursor;               /* next event id to send */
	size_t off;                    /* bytes of event `cursor` already sent */
	struct buf head;               /* sent before any event */
	size_t head_off;
	uint64_t beat_seen;
	bool suspended, ending;
};

struct xd_stream {
	const struct xd_tables *t;
	size_t n;                      /* GPUs */
	char boot[16];
	pthread_mutex_t mu;
	int refs;
	/* under mu */
	struct sbook *books;
	uint64_t seq;                  /* the market's seq of the last commit */
	uint64_t q_seq, *t_seq, *b_seq; /* each channel's last event seq */
	int64_t *last_tid;             /* per GPU, the last trade id published */
	struct ev *ring;
	size_t cap;
	uint64_t next_id, oldest;      /* ids [oldest, next_id) are in the ring */
	struct sconn *conns;
	size_t n_conns;
	uint64_t beat;
	bool closing;
	/* the writer's alone */
	struct sbook *staged;
	bool *staged_on;
	struct ptrade *pend;
	size_t n_pend, cap_pend;
	/* the fan-out (heartbeat) thread */
	int64_t flush_at_us;           /* under mu: when to resume for new events (0: none) */
	struct MHD_Connection **to_wake;
	size_t cap_wake;
	/* the heartbeat thread */
	pthread_t beat_thread;
	bool beat_running;
	pthread_cond_t beat_cv;
};

/* ---- the hub ---------------------------------------------------------------------- */

static void *beat_main(void *arg);
static bool wants(const struct sconn *c, enum ev_kind kind, int gpu);

struct xd_stream *xd_stream_new(const struct xd_tables *t, size_t backlog)
{
	struct xd_stream *s = xcalloc(1, sizeof *s);
	s->t = t;
	s->n = t->n_gpus;
	unsigned char rnd[3] = { 0 };
	if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
		memset(rnd, 0, sizeof rnd);
	snprintf(s->boot, sizeof s->boot, "%02x%02x%02x", rnd[0], rnd[1], rnd[2]);
	pthread_mutex_init(&s->mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->beat_cv, &ca);
	pthread_condattr_destroy(&ca);
	s->refs = 1;
	s->books = xcalloc(s->n, sizeof *s->books);
	s->staged = xcalloc(s->n, sizeof *s->staged);
	s->staged_on = xcalloc(s->n, sizeof *s->staged_on);
	s->t_seq = xcalloc(s->n, sizeof *s->t_seq);
	s->b_seq = xcalloc(s->n, sizeof *s->b_seq);
	s->last_tid = xcalloc(s->n, sizeof *s->last_tid);
	for (size_t g = 0; g < s->n; g++)
		s->books[g].last = -1;
	s->cap = backlog >= 16 ? backlog : 16;
	s->ring = xcalloc(s->cap, sizeof *s->ring);
	s->next_id = s->oldest = 1;
	s->beat_running = pthread_create(&s->beat_thread, NULL, beat_main, s) == 0;
	return s;
}

static void hub_unref(struct xd_stream *s)
{
	pthread_mutex_lock(&s->mu);
	bool last = --s->refs == 0;
	pthread_mutex_unlock(&s->mu);
	if (!last)
		return;
	for (size_t i = 0; i < s->cap; i++)
		free(s->ring[i].text);
	free(s->ring);
	free(s->books);
	free(s->staged);
	free(s->staged_on);
	free(s->t_seq);
	free(s->b_seq);
	free(s->last_tid);
	free(s->pend);
	free(s->to_wake);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->beat_cv);
	free(s);
}

/* Resume c if it waits; under mu. */
static void wake(struct sconn *c)
{
	if (c->suspended) {
		c->suspended = false;
		MHD_resume_connection(c->conn);
	}
}

void xd_stream_shutdown(struct xd_stream **sp)
{
	struct xd_stream *s = *sp;
	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	s->closing = true;
	pthread_cond_signal(&s->beat_cv);
	for (struct sconn *c = s->conns; c; c = c->next)
		wake(c);
	pthread_mutex_unlock(&s->mu);
	if (s->beat_running)
		pthread_join(s->beat_thread, NULL);
	s->beat_running = false;
	*sp = NULL;
	hub_unref(s);
}

/* Has c, suspended, anything to send: an event of its channels after its
 * cursor, or a cursor the ring has overwritten (TOO_SLOW)? Under mu. */
static bool pending_for(const struct xd_stream *s, const struct sconn *c)
{
	if (c->cursor < s->oldest)
		return c->cursor < s->next_id;
	for (uint64_t id = c->cursor; id < s->next_id; id++) {
		const struct ev *e = &s->ring[id % s->cap];
		if (wants(c, e->kind, e->gpu))
			return true;
	}
	return false;
}

/* Mark c awake and keep it for resuming after mu is released; under mu. */
static void to_wake(struct xd_stream *s, struct sconn *c, size_t *n)
{
	c->suspended = false;
	if (*n == s->cap_wake) {
		s->cap_wake = s->cap_wake ? 2 * s->cap_wake : 64;
		s->to_wake = xreallocarray(s->to_wake, s->cap_wake, sizeof *s->to_wake);
	}
	s->to_wake[(*n)++] = c->conn;
}

static void wait_until_us(struct xd_stream *s, int64_t at_us)
{
	struct timespec ts = { .tv_sec = (time_t)(at_us / 1000000),
	                       .tv_nsec = (long)(at_us % 1000000) * 1000 };
	pthread_cond_timedwait(&s->beat_cv, &s->mu, &ts);   /* CLOCK_MONOTONIC, as util_now_us */
}

/* The fan-out thread: COALESCE_MS after a commit it resumes every suspended
 * reader with something to send, so the commits of a burst go out in one
 * send per client; every BEAT_MS it resumes those idle for a whole period
 * (their heartbeat). Marked under mu, resumed after it: the pool threads'
 * readers take mu, and libmicrohttpd neither touches nor frees a suspended
 * connection until it is resumed. */
static void *beat_main(void *arg)
{
	struct xd_stream *s = arg;
	int64_t next_beat = util_now_us() + BEAT_MS * 1000LL;
	pthread_mutex_lock(&s->mu);
	while (!s->closing) {
		wait_until_us(s, s->flush_at_us && s->flush_at_us < next_beat ? s->flush_at_us : next_beat);
		if (s->closing)
			break;
		int64_t now = util_now_us();
		bool flush = s->flush_at_us && now >= s->flush_at_us, beat = now >= next_beat;
		if (beat) {
			s->beat++;
			next_beat = now + BEAT_MS * 1000LL;
		}
		if (flush)
			s->flush_at_us = 0;
		size_t n = 0;
		for (struct sconn *c = s->conns; c && (flush || beat); c = c->next) {
			if (c->suspended && ((flush && pending_for(s, c)) ||
			                     (beat && c->beat_seen + 1 < s->beat)))
				to_wake(s, c, &n);
		}
		pthread_mutex_unlock(&s->mu);
		for (size_t i = 0; i < n; i++)
			MHD_resume_connection(s->to_wake[i]);
		pthread_mutex_lock(&s->mu);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

/* ---- JSON pieces -------------------------------------------------------------------- */

static cJSON *quote_json(const struct xd_stream *s, int g, const struct sbook *b)
{
	return xd_quote_json(s->t->gpu_ids[g], &b->u, b->n_bid ? &b->bid[0] : NULL, b->last);
}

static bool quote_differs(const struct sbook *a, const struct sbook *b)
{
	if (a->last != b->last || (a->n_bid > 0) != (b->n_bid > 0) ||
	    xd_unit_quotes_differ(&a->u, &b->u))
		return true;
	return a->n_bid && (a->bid[0].price_cents != b->bid[0].price_cents ||
	                    a->bid[0].gpus != b->bid[0].gpus);
}

static cJSON *level_json(const struct eng_level *lv)
{
	cJSON *l = cJSON_CreateObject();
	xd_jint(l, "price_cents", lv->price_cents);
	xd_jint(l, "gpus", lv->gpus);
	xd_jint(l, "orders", lv->orders);
	xd_jint(l, "gpu_hours", lv->gpu_hours);
	return l;
}

static cJSON *levels_json(const struct eng_level *lv, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, level_json(&lv[i]));
	return a;
}

/* The levels of one side that differ between old and new (asks ascending,
 * bids descending, as `better` orders them); gpus 0 = the level is gone. A
 * level differs when its GPUs, orders or GPU-hours do (within one commit an
 * order can leave a level and another with other hours take its GPUs). */
static cJSON *levels_diff(const struct eng_level *o, size_t no, const struct eng_level *n,
                          size_t nn, bool bids)
{
	cJSON *a = cJSON_CreateArray();
	size_t i = 0, j = 0;
	while (i < no || j < nn) {
		bool take_old, take_new;
		if (i < no && j < nn && o[i].price_cents == n[j].price_cents) {
			take_old = take_new = true;
		} else if (j >= nn || (i < no && (bids ? o[i].price_cents > n[j].price_cents
		                                        : o[i].price_cents < n[j].price_cents))) {
			take_old = true;
			take_new = false;
		} else {
			take_old = false;
			take_new = true;
		}
		if (take_old && take_new) {
			if (o[i].gpus != n[j].gpus || o[i].orders != n[j].orders ||
			    o[i].gpu_hours != n[j].gpu_hours)
				cJSON_AddItemToArray(a, level_json(&n[j]));
		} else if (take_old) {
			const struct eng_level gone = { .price_cents = o[i].price_cents };
			cJSON_AddItemToArray(a, level_json(&gone));
		} else {
			cJSON_AddItemToArray(a, level_json(&n[j]));
		}
		i += take_old;
		j += take_new;
	}
	return a;
}

static cJSON *trade_json(const struct ptrade *p, int64_t at_ms)
{
	cJSON *e = cJSON_CreateObject();
	xd_jint(e, "id", p->id);
	xd_jint(e, "price_cents", p->price);
	xd_jint(e, "gpus", p->gpus);
	xd_jint(e, "hours", p->hours);
	cJSON_AddStringToObject(e, "taker_side", xd_side_names[p->side]);
	xd_jtime(e, "at", at_ms);
	return e;
}

/* SSE text of one event: the data is one line (cJSON prints no newlines). */
static char *sse_text(const char *boot, uint64_t id, const char *event, cJSON *data, size_t *len)
{
	char *json = cJSON_PrintUnformatted(data);
	cJSON_Delete(data);
	if (!json)
		fatal("gpuxd: out of memory printing a stream event");
	char *t = id ? xasprintf("id: %s-%" PRIu64 "\nevent: %s\ndata: %s\n\n", boot, id, event, json)
	             : xasprintf("event: %s\ndata: %s\n\n", event, json);
	cJSON_free(json);
	*len = strlen(t);
	return t;
}

/* ---- the writer's side --------------------------------------------------------------- */

void xd_stream_trade(struct xd_stream *s, int gpu, int64_t id, int64_t price, int32_t gpus,
                     int32_t hours, int taker_side, int64_t at_ms)
{
	if (!s)
		return;
	if (s->n_pend == s->cap_pend) {
		s->cap_pend = s->cap_pend ? 2 * s->cap_pend : 64;
		s->pend = xreallocarray(s->pend, s->cap_pend, sizeof *s->pend);
	}
	s->pend[s->n_pend++] = (struct ptrade){
		.gpu = gpu, .id = id, .price = price, .at = at_ms, .gpus = gpus, .hours = hours,
		.side = taker_side,
	};
}

void xd_stream_book(struct xd_stream *s, int gpu, const struct eng_level *ask, size_t n_ask,
                    const struct eng_level *bid, size_t n_bid, int64_t last,
                    const struct xd_unit_quotes *u)
{
	if (!s)
		return;
	struct sbook *b = &s->staged[gpu];
	b->n_ask = n_ask > XD_DEPTH_MAX ? XD_DEPTH_MAX : n_ask;
	b->n_bid = n_bid > XD_DEPTH_MAX ? XD_DEPTH_MAX : n_bid;
	memcpy(b->ask, ask, b->n_ask * sizeof *ask);
	memcpy(b->bid, bid, b->n_bid * sizeof *bid);
	b->last = last;
	b->u = *u;
	s->staged_on[gpu] = true;
}

struct batch {
	struct ev *v;
	size_t n, cap;
};

static void batch_add(struct xd_stream *s, struct batch *b, enum ev_kind kind, int gpu,
                      const char *name, cJSON *data)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 16;
		b->v = xreallocarray(b->v, b->cap, sizeof *b->v);
	}
	struct ev *e = &b->v[b->n];
	e->id = s->next_id + b->n;
	e->kind = kind;
	e->gpu = gpu;
	e->text = sse_text(s->boot, e->id, name, data, &e->len);
	b->n++;
}

static cJSON *inc_head(uint64_t seq, uint64_t prev, const char *gpu)
{
	cJSON *o = cJSON_CreateObject();
	xd_jint(o, "seq", (int64_t)seq);
	xd_jint(o, "prev", (int64_t)prev);
	if (gpu)
		cJSON_AddStringToObject(o, "gpu", gpu);
	return o;
}

/* The batch's trade events (one per GPU, trades in id order). */
static void make_trades(struct xd_stream *s, struct batch *b, uint64_t seq)
{
	for (size_t g = 0; g < s->n && s->n_pend; g++) {
		cJSON *arr = NULL;
		for (size_t i = 0; i < s->n_pend; i++) {
			if (s->pend[i].gpu != (int)g)
				continue;
			if (!arr)
				arr = cJSON_CreateArray();
			cJSON_AddItemToArray(arr, trade_json(&s->pend[i], s->pend[i].at));
		}
		if (!arr)
			continue;
		cJSON *o = inc_head(seq, s->t_seq[g], s->t->gpu_ids[g]);
		cJSON_AddItemToObject(o, "trades", arr);
		batch_add(s, b, EV_TRADE, (int)g, "trade", o);
	}
}

/* The batch's book events and its quote event; the hub's books are updated
 * by the caller under mu. */
static void make_books(struct xd_stream *s, struct batch *b, uint64_t seq)
{
	cJSON *quotes = NULL;
	for (size_t g = 0; g < s->n; g++) {
		if (!s->staged_on[g])
			continue;
		const struct sbook *o = &s->books[g], *nw = &s->staged[g];
		cJSON *asks = levels_diff(o->ask, o->n_ask, nw->ask, nw->n_ask, false);
		cJSON *bids = levels_diff(o->bid, o->n_bid, nw->bid, nw->n_bid, true);
		if (cJSON_GetArraySize(asks) || cJSON_GetArraySize(bids)) {
			cJSON *e = inc_head(seq, s->b_seq[g], s->t->gpu_ids[g]);
			cJSON_AddItemToObject(e, "asks", asks);
			cJSON_AddItemToObject(e, "bids", bids);
			batch_add(s, b, EV_BOOK, (int)g, "book", e);
		} else {
			cJSON_Delete(asks);
			cJSON_Delete(bids);
		}
		if (quote_differs(o, nw)) {
			if (!quotes)
				quotes = cJSON_CreateArray();
			cJSON_AddItemToArray(quotes, quote_json(s, (int)g, nw));
		}
	}
	if (quotes) {
		cJSON *e = inc_head(seq, s->q_seq, NULL);
		cJSON_AddItemToObject(e, "quotes", quotes);
		batch_add(s, b, EV_QUOTE, -1, "quote", e);
	}
}

static bool wants(const struct sconn *c, enum ev_kind kind, int gpu)
{
	switch (kind) {
	case EV_QUOTE: return c->quotes;
	case EV_TRADE: return c->trades[gpu];
	case EV_BOOK: return c->book[gpu];
	}
	return false;
}

void xd_stream_commit(struct xd_stream *s, uint64_t seq)
{
	if (!s)
		return;
	struct batch b = { 0 };
	make_trades(s, &b, seq);
	make_books(s, &b, seq);   /* reads s->books: only the writer writes them */
	pthread_mutex_lock(&s->mu);
	s->seq = seq;
	for (size_t i = 0; i < s->n_pend; i++)
		s->last_tid[s->pend[i].gpu] = s->pend[i].id;
	s->n_pend = 0;
	for (size_t g = 0; g < s->n; g++) {
		if (s->staged_on[g]) {
			s->books[g] = s->staged[g];
			s->staged_on[g] = false;
		}
	}
	for (size_t i = 0; i < b.n; i++) {
		struct ev *e = &b.v[i];
		struct ev *slot = &s->ring[e->id % s->cap];
		if (slot->text)
			s->oldest = slot->id + 1;
		free(slot->text);
		*slot = *e;
		switch (e->kind) {
		case EV_QUOTE: s->q_seq = seq; break;
		case EV_TRADE: s->t_seq[e->gpu] = seq; break;
		case EV_BOOK: s->b_seq[e->gpu] = seq; break;
		}
	}
	s->next_id += b.n;
	if (b.n && !s->flush_at_us) {   /* the fan-out thread resumes the readers */
		s->flush_at_us = util_now_us() + COALESCE_MS * 1000;
		pthread_cond_signal(&s->beat_cv);
	}
	pthread_mutex_unlock(&s->mu);
	free(b.v);
}

void xd_stream_set_seq(struct xd_stream *s, uint64_t seq)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	s->seq = seq;
	pthread_mutex_unlock(&s->mu);
}

void xd_stream_seed_trade(struct xd_stream *s, int gpu, int64_t id)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	if (id > s->last_tid[gpu])
		s->last_tid[gpu] = id;
	pthread_mutex_unlock(&s->mu);
}

/* ---- the content reader ----------------------------------------------------------------- */

static void add_closing(struct sconn *c, const char *code, const char *message)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "code", code);
	cJSON_AddStringToObject(o, "message", message);
	size_t len;
	char *t = sse_text(NULL, 0, "closing", o, &len);
	buf_append(&c->head, t, len);
	free(t);
	c->ending = true;
}

static size_t copy_head(struct sconn *c, char *buf, size_t max)
{
	size_t k = c->head.len - c->head_off;
	if (k > max)
		k = max;
	memcpy(buf, c->head.data + c->head_off, k);
	c->head_off += k;
	return k;
}

/* Copy the ring's events of c's channels; under mu. */
static size_t copy_events(struct xd_stream *s, struct sconn *c, char *buf, size_t max)
{
	size_t n = 0;
	while (n < max && c->cursor < s->next_id) {
		const struct ev *e = &s->ring[c->cursor % s->cap];
		if (!wants(c, e->kind, e->gpu)) {
			c->cursor++;
			continue;
		}
		size_t k = e->len - c->off;
		if (k > max - n)
			k = max - n;
		memcpy(buf + n, e->text + c->off, k);
		n += k;
		c->off += k;
		if (c->off == e->len) {
			c->cursor++;
			c->off = 0;
		}
	}
	return n;
}

static size_t heartbeat(struct xd_stream *s, char *buf, size_t max)
{
	int k = snprintf(buf, max, "event: heartbeat\ndata: {\"seq\":%" PRIu64 "}\n\n", s->seq);
	return k > 0 && (size_t)k < max ? (size_t)k : 0;
}

static ssize_t reader(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct sconn *c = cls;
	struct xd_stream *s = c->hub;
	(void)pos;
	pthread_mutex_lock(&s->mu);
	if (!c->ending && c->cursor < s->oldest && c->off > 0) {
		/* the rest of a half-sent event is gone: end without another event */
		pthread_mutex_unlock(&s->mu);
		return MHD_CONTENT_READER_END_WITH_ERROR;
	}
	if (!c->ending && c->cursor < s->oldest)
		add_closing(c, "TOO_SLOW", "this client fell behind the stream and was dropped; "
		            "reconnect (with Last-Event-ID, or for fresh snapshots)");
	size_t n = copy_head(c, buf, max);
	if (!c->ending && c->head_off == c->head.len)
		n += copy_events(s, c, buf + n, max - n);
	if (n == 0 && !c->ending && s->closing && c->cursor == s->next_id) {
		add_closing(c, "SHUTTING_DOWN", "the exchange is shutting down");
		n = copy_head(c, buf, max);
	}
	if (n == 0 && c->ending) {
		pthread_mutex_unlock(&s->mu);
		return MHD_CONTENT_READER_END_OF_STREAM;
	}
	if (n == 0 && c->beat_seen + 1 < s->beat)
		n = heartbeat(s, buf, max);
	if (n > 0)
		c->beat_seen = s->beat;   /* anything sent counts as a sign of life */
	if (n == 0 && !s->closing) {
		c->suspended = true;
		MHD_suspend_connection(c->conn);
	}
	pthread_mutex_unlock(&s->mu);
	return (ssize_t)n;
}

static void conn_free(void *cls)
{
	struct sconn *c = cls;
	struct xd_stream *s = c->hub;
	pthread_mutex_lock(&s->mu);
	if (c->prev)
		c->prev->next = c->next;
	else
		s->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	s->n_conns--;
	pthread_mutex_unlock(&s->mu);
	buf_free(&c->head);
	free(c->trades);
	free(c->book);
	free(c);
	hub_unref(s);
}

/* ---- the request ------------------------------------------------------------------------- */

/* Parse ?channels= into c; -1 with a 400 reply. */
static int parse_channels(struct xd_ctx *x, struct xd_stream *s, struct sconn *c, const char *spec)
{
	char *copy = xstrdup(spec ? spec : "quotes");
	int count = 0, rc = 0;
	for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool *set = NULL;
		const char *gpu = NULL;
		if (++count > CHANNELS_MAX) {
			rc = -1;
			cJSON *e = xd_reply_error(&x->reply, 400, "BAD_PARAM", "more than %d channels",
			                          CHANNELS_MAX);
			cJSON_AddStringToObject(e, "field", "channels");
			break;
		}
		if (strcmp(tok, "quotes") == 0) {
			c->quotes = true;
			continue;
		}
		if (strncmp(tok, "trades:", 7) == 0)
			set = c->trades, gpu = tok + 7;
		else if (strncmp(tok, "book:", 5) == 0)
			set = c->book, gpu = tok + 5;
		int g = gpu && strcmp(gpu, "*") ? xd_tables_gpu(s->t, gpu) : -1;
		if (set && gpu && strcmp(gpu, "*") == 0) {
			for (size_t i = 0; i < s->n; i++)
				set[i] = true;
		} else if (set && g >= 0) {
			set[g] = true;
		} else {
			char *safe = util_sanitize(tok, 40, true);
			cJSON *e = set ? xd_reply_error(&x->reply, 400, "UNKNOWN_GPU",
			                                "unknown GPU in channel \"%s\"", safe)
			               : xd_reply_error(&x->reply, 400, "BAD_PARAM", "unknown channel \"%s\"; "
			                                "accepted: quotes, trades:GPU, book:GPU, trades:*, "
			                                "book:*", safe);
			cJSON_AddStringToObject(e, "field", "channels");
			free(safe);
			rc = -1;
			break;
		}
	}
	if (rc == 0 && count == 0) {
		cJSON *e = xd_reply_error(&x->reply, 400, "BAD_PARAM", "no channel given; accepted: "
		                          "quotes, trades:GPU, book:GPU, trades:*, book:*");
		cJSON_AddStringToObject(e, "field", "channels");
		rc = -1;
	}
	free(copy);
	return rc;
}

/* Last-Event-ID "<boot>-<n>" of this boot still held: the cursor after it. */
static bool replay_from(struct xd_stream *s, const char *last, uint64_t *cursor)
{
	size_t bl = strlen(s->boot);
	if (!last || strncmp(last, s->boot, bl) != 0 || last[bl] != '-')
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(last + bl + 1, &end, 10);
	if (errno || *end || end == last + bl + 1)
		return false;
	if (v + 1 < s->oldest || v + 1 > s->next_id)
		return false;
	*cursor = v + 1;
	return true;
}

struct snapwant {
	uint64_t seq, id;
	struct sbook *books;           /* copies of the subscribed books (all if quotes) */
	int64_t *last_tid;
};

static void snap_event(struct sconn *c, struct xd_stream *s, uint64_t id, cJSON *o)
{
	size_t len;
	char *t = sse_text(s->boot, id, "snapshot", o, &len);
	buf_append(&c->head, t, len);
	free(t);
}

static cJSON *snap_head(const char *channel, uint64_t seq, const char *gpu)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "channel", channel);
	xd_jint(o, "seq", (int64_t)seq);
	if (gpu)
		cJSON_AddStringToObject(o, "gpu", gpu);
	return o;
}

/* The trades of gpu up to last_tid (committed: the writer publishes after
 * COMMIT), newest first. */
static cJSON *snap_trades(const char *gpu, int64_t last_tid)
{
	cJSON *arr = cJSON_CreateArray();
	if (last_tid <= 0)
		return arr;
	struct xd_page p = { .limit = SNAP_TRADES, .before = last_tid + 1 };
	cJSON *page = xd_read_trades(xd_store_reader(), gpu, &p);
	cJSON *rows = cJSON_DetachItemFromObjectCaseSensitive(page, "trades");
	cJSON_Delete(page);
	if (rows) {
		cJSON_Delete(arr);
		arr = rows;
	}
	return arr;
}

static void make_snapshots(struct sconn *c, struct xd_stream *s, const struct snapwant *w)
{
	if (c->quotes) {
		cJSON *o = snap_head("quotes", w->seq, NULL);
		cJSON *arr = cJSON_AddArrayToObject(o, "quotes");
		for (size_t g = 0; g < s->n; g++)
			cJSON_AddItemToArray(arr, quote_json(s, (int)g, &w->books[g]));
		snap_event(c, s, w->id, o);
	}
	for (size_t g = 0; g < s->n; g++) {
		char ch[96];
		if (c->book[g]) {
			snprintf(ch, sizeof ch, "book:%s", s->t->gpu_ids[g]);
			cJSON *o = snap_head(ch, w->seq, s->t->gpu_ids[g]);
			cJSON_AddItemToObject(o, "asks", levels_json(w->books[g].ask, w->books[g].n_ask));
			cJSON_AddItemToObject(o, "bids", levels_json(w->books[g].bid, w->books[g].n_bid));
			snap_event(c, s, w->id, o);
		}
		if (c->trades[g]) {
			snprintf(ch, sizeof ch, "trades:%s", s->t->gpu_ids[g]);
			cJSON *o = snap_head(ch, w->seq, s->t->gpu_ids[g]);
			cJSON_AddItemToObject(o, "trades", snap_trades(s->t->gpu_ids[g], w->last_tid[g]));
			snap_event(c, s, w->id, o);
		}
	}
}

/* Register c with the hub, its cursor from Last-Event-ID or its snapshots. */
static void attach(struct sconn *c, struct xd_stream *s, const char *last_id)
{
	struct snapwant w = { 0 };
	buf_puts(&c->head, "retry: 1000\n\n");
	pthread_mutex_lock(&s->mu);
	bool replay = replay_from(s, last_id, &c->cursor);
	if (!replay) {
		c->cursor = s->next_id;
		w.seq = s->seq;
		w.id = s->next_id - 1;
		w.books = xmalloc(s->n * sizeof *w.books);
		memcpy(w.books, s->books, s->n * sizeof *w.books);
		w.last_tid = xmalloc(s->n * sizeof *w.last_tid);
		memcpy(w.last_tid, s->last_tid, s->n * sizeof *w.last_tid);
	}
	c->beat_seen = s->beat;
	s->refs++;
	c->next = s->conns;
	if (s->conns)
		s->conns->prev = c;
	s->conns = c;
	s->n_conns++;
	pthread_mutex_unlock(&s->mu);
	if (!replay)
		make_snapshots(c, s, &w);   /* the ring keeps what follows meanwhile */
	free(w.books);
	free(w.last_tid);
}

void xd_stream_handle(struct xd_ctx *x, struct xd_stream *s)
{
	static const char *const allowed[] = { "channels", NULL };
	if (xd_query_check(x, allowed) != 0)
		return;
	if (!s) {
		xd_reply_error(&x->reply, 503, "UNAVAILABLE", "the exchange is shutting down");
		return;
	}
	if (xd_conn_stream(x->conn) != 0) {
		xd_reply_error(&x->reply, 503, "TOO_MANY_STREAMS",
		               "too many market streams are open; try again later");
		return;
	}
	struct sconn *c = xcalloc(1, sizeof *c);
	c->hub = s;
	c->conn = x->conn;
	c->trades = xcalloc(s->n, sizeof *c->trades);
	c->book = xcalloc(s->n, sizeof *c->book);
	if (parse_channels(x, s, c, xd_query(x, "channels")) != 0) {
		free(c->trades);
		free(c->book);
		free(c);
		return;
	}
	attach(c, s, MHD_lookup_connection_value(x->conn, MHD_HEADER_KIND, "Last-Event-ID"));
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(x->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (ci) {
		int sz = SNDBUF_BYTES;
		setsockopt(ci->connect_fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof sz);
	}
	MHD_set_connection_option(x->conn, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned)IDLE_TIMEOUT_S);
	struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, BLOCK, reader, c,
	                                                           conn_free);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
	MHD_add_response_header(r, "X-Accel-Buffering", "no");
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");   /* never reused */
	x->reply.status = 200;
	x->reply.response = r;
}

size_t xd_stream_clients(struct xd_stream *s)
{
	pthread_mutex_lock(&s->mu);
	size_t n = s->n_conns;
	pthread_mutex_unlock(&s->mu);
	return n;
}
