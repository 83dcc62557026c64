/*
 * api/wire_market.c — the market-data wire types: quotes, books, trades,
 * candles and the events of the market stream, decoded as strictly as every
 * other reply (api/wire.c): each list through api_dec_list with one item
 * decoder shared by the REST reply and the stream event that carry it.
 */
#include "api/wire_int.h"

#include "util/util.h"

#include <stdlib.h>
#include <string.h>

static const char *const side_names[] = {"buy", "sell"};

/* ---- items ----------------------------------------------------------------------------- */

static int quote_item(const cJSON *it, const char *p, void *dst, size_t i, void *ctx, char **cause)
{
	struct api_quote *x = dst;

	DEC_STR(it, p, "gpu", SHORT, x->gpu);
	DEC_INT_NULL(it, p, "best_ask_cents", 1, MAX_PRICE, x->best_ask_cents);
	DEC_INT(it, p, "ask_gpus", 0, MAX_COUNT, x->ask_gpus);
	DEC_INT_NULL(it, p, "best_bid_cents", 1, MAX_PRICE, x->best_bid_cents);
	DEC_INT(it, p, "bid_gpus", 0, MAX_COUNT, x->bid_gpus);
	DEC_INT_NULL(it, p, "last_cents", 1, MAX_PRICE, x->last_cents);
	/* a side with a price has GPUs at it, and one without has none */
	if ((x->best_ask_cents < 0) != (x->ask_gpus == 0) ||
	    (x->best_bid_cents < 0) != (x->bid_gpus == 0))
		return set_cause(cause, "%s: a best price and its GPU count disagree", p);
	/* whole units of 8 GPUs in one machine (an exchange with lots) */
	x->best_ask_n8_cents = -1;
	x->has_n8 = cJSON_GetObjectItemCaseSensitive(it, "best_ask_n8_cents") != NULL;
	if (!x->has_n8)
		return 0;
	DEC_INT_NULL(it, p, "best_ask_n8_cents", 1, MAX_PRICE, x->best_ask_n8_cents);
	DEC_INT(it, p, "ask_n8_units", 0, MAX_COUNT, x->ask_n8_units);
	if ((x->best_ask_n8_cents < 0) != (x->ask_n8_units == 0))
		return set_cause(cause, "%s: the best price of 8-GPU units and their count disagree", p);
	return 0;
fail:
	return -1;
}

/* How a list of levels is checked: asks or bids, whether a level of 0
 * GPUs (a removed level, in a book increment) is allowed, and the unit of
 * a ladder by node size (0: the plain book, whose levels have no units). */
struct level_rule { bool asks, changes; int64_t node_gpus; };

static int level_item(const cJSON *it, const char *p, void *dst, size_t i, void *ctx, char **cause)
{
	const struct level_rule *r = ctx;
	struct api_level *x = dst;
	int64_t min = r->changes ? 0 : 1;

	DEC_INT(it, p, "price_cents", 1, MAX_PRICE, x->price_cents);
	DEC_INT(it, p, "gpus", min, MAX_COUNT, x->gpus);
	DEC_INT(it, p, "orders", min, MAX_COUNT, x->orders);
	DEC_INT_OPT(it, p, "gpu_hours", 0, MAX_ID, x->gpu_hours);
	if ((x->gpus == 0) != (x->orders == 0))
		return set_cause(cause, "%s: GPUs and orders disagree", p);
	x->units = -1;
	if (r->node_gpus > 0) {
		DEC_INT(it, p, "units", 1, MAX_COUNT, x->units);
		if (x->gpus != x->units * r->node_gpus)
			return set_cause(cause, "%s: gpus is not units × node_gpus", p);
	}
	/* best first: asks rise, bids fall, strictly (levels are aggregated) */
	if (i > 0 && (r->asks ? x->price_cents <= x[-1].price_cents
			      : x->price_cents >= x[-1].price_cents))
		return set_cause(cause, "%s: levels are not in best-first price order", p);
	return 0;
fail:
	return -1;
}

static int trade_item(const cJSON *it, const char *p, void *dst, size_t i, void *ctx, char **cause)
{
	struct api_trade *x = dst;

	DEC_INT(it, p, "id", 1, MAX_ID, x->id);
	DEC_INT(it, p, "price_cents", 1, MAX_PRICE, x->price_cents);
	DEC_INT(it, p, "gpus", 1, MAX_COUNT, x->gpus);
	DEC_INT(it, p, "hours", 1, MAX_COUNT, x->hours);
	DEC_ENUM(it, p, "taker_side", side_names, x->taker_side);
	DEC_TIME(it, p, "at", x->at);
	return 0;
fail:
	return -1;
}

static int candle_item(const cJSON *it, const char *p, void *dst, size_t i, void *ctx, char **cause)
{
	struct api_candle *x = dst;

	DEC_TIME(it, p, "start", x->start);
	DEC_INT(it, p, "open_cents", 1, MAX_PRICE, x->open_cents);
	DEC_INT(it, p, "high_cents", 1, MAX_PRICE, x->high_cents);
	DEC_INT(it, p, "low_cents", 1, MAX_PRICE, x->low_cents);
	DEC_INT(it, p, "close_cents", 1, MAX_PRICE, x->close_cents);
	DEC_INT(it, p, "gpus", 1, MAX_COUNT, x->gpus);
	DEC_INT(it, p, "gpu_hours", 1, MAX_ID, x->gpu_hours);
	DEC_INT(it, p, "trades", 1, MAX_COUNT, x->trades);
	if (x->low_cents > x->open_cents || x->low_cents > x->close_cents ||
	    x->high_cents < x->open_cents || x->high_cents < x->close_cents)
		return set_cause(cause, "%s: low and high do not enclose open and close", p);
	if (i > 0 && x->start <= x[-1].start)
		return set_cause(cause, "%s: candles are not in time order", p);
	return 0;
fail:
	return -1;
}

static void free_quotes_v(struct api_quote *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].gpu);
	free(v);
}

/* ---- quotes, book, trades, candles -------------------------------------------------------- */

void api_quotes_free(struct api_quotes **pp)
{
	struct api_quotes *q;

	if (pp == NULL || (q = *pp) == NULL)
		return;
	free_quotes_v(q->v, q->n);
	free(q->etag);
	free(q);
	*pp = NULL;
}

const struct api_quote *api_quotes_find(const struct api_quotes *q, const char *gpu)
{
	for (size_t i = 0; q != NULL && gpu != NULL && i < q->n; i++)
		if (strcmp(q->v[i].gpu, gpu) == 0)
			return &q->v[i];
	return NULL;
}

int api_dec_quotes(const cJSON *o, long status, void **out, char **cause)
{
	struct api_quotes *q = xcalloc(1, sizeof *q);

	DEC_INT(o, "", "seq", 0, MAX_ID, q->seq);
	DEC_TIME(o, "", "server_time", q->server_time);
	if (api_dec_list(o, "", "quotes", sizeof *q->v, quote_item, NULL, (void **)&q->v, &q->n,
			 cause) != 0)
		goto fail;
	*out = q;
	return 0;
fail:
	api_quotes_free(&q);
	return -1;
}

void *api_quotes_not_modified(const char *etag)
{
	struct api_quotes *q = xcalloc(1, sizeof *q);

	q->unchanged = true;
	q->etag = xstrdup(etag);
	q->seq = q->server_time = -1;
	return q;
}

void api_quotes_set_etag(void *reply, const char *etag)
{
	struct api_quotes *q = reply;

	free(q->etag);
	q->etag = xstrdup(etag);
}

void api_book_free(struct api_book **pp)
{
	struct api_book *b;

	if (pp == NULL || (b = *pp) == NULL)
		return;
	free(b->gpu);
	free(b->asks);
	free(b->bids);
	api_book_query_clear(b);
	free(b);
	*pp = NULL;
}

static int dec_sides_of(const cJSON *o, bool changes, int64_t node_gpus, struct api_level **asks,
			size_t *n_asks, struct api_level **bids, size_t *n_bids, char **cause)
{
	struct level_rule ra = {true, changes, node_gpus}, rb = {false, changes, node_gpus};

	if (api_dec_list(o, "", "asks", sizeof **asks, level_item, &ra, (void **)asks, n_asks,
			 cause) != 0)
		return -1;
	return api_dec_list(o, "", "bids", sizeof **bids, level_item, &rb, (void **)bids, n_bids,
			    cause);
}

static int dec_sides(const cJSON *o, bool changes, struct api_level **asks, size_t *n_asks,
		     struct api_level **bids, size_t *n_bids, char **cause)
{
	return dec_sides_of(o, changes, 0, asks, n_asks, bids, n_bids, cause);
}

int api_dec_book(const cJSON *o, long status, void **out, char **cause)
{
	struct api_book *b = xcalloc(1, sizeof *b);

	DEC_STR(o, "", "gpu", SHORT, b->gpu);
	DEC_INT(o, "", "seq", 0, MAX_ID, b->seq);
	DEC_TIME(o, "", "server_time", b->server_time);
	if (api_dec_book_query(o, b, cause) != 0 ||
	    dec_sides_of(o, false, b->node_gpus, &b->asks, &b->n_asks, &b->bids, &b->n_bids,
			 cause) != 0)
		goto fail;
	*out = b;
	return 0;
fail:
	api_book_free(&b);
	return -1;
}

void api_trades_free(struct api_trades **pp)
{
	struct api_trades *t;

	if (pp == NULL || (t = *pp) == NULL)
		return;
	free(t->gpu);
	free(t->v);
	free(t->next_cursor);
	free(t);
	*pp = NULL;
}

int api_dec_trades(const cJSON *o, long status, void **out, char **cause)
{
	struct api_trades *t = xcalloc(1, sizeof *t);

	DEC_STR(o, "", "gpu", SHORT, t->gpu);
	DEC_STR_OPT(o, "", "next_cursor", SHORT, t->next_cursor);
	if (api_dec_list(o, "", "trades", sizeof *t->v, trade_item, NULL, (void **)&t->v, &t->n,
			 cause) != 0)
		goto fail;
	*out = t;
	return 0;
fail:
	api_trades_free(&t);
	return -1;
}

void api_candles_free(struct api_candles **pp)
{
	struct api_candles *c;

	if (pp == NULL || (c = *pp) == NULL)
		return;
	free(c->gpu);
	free(c->interval);
	free(c->v);
	free(c);
	*pp = NULL;
}

void api_free_candles(void *r)
{
	struct api_candles *c = r;

	api_candles_free(&c);
}

int api_dec_candles(const cJSON *o, long status, void **out, char **cause)
{
	struct api_candles *c = xcalloc(1, sizeof *c);
	int64_t ms = 0;

	DEC_STR(o, "", "gpu", SHORT, c->gpu);
	DEC_STR(o, "", "interval", SHORT, c->interval);
	DEC_INT(o, "", "interval_ms", 1000, 31LL * 86400000, ms);
	DEC_TIME(o, "", "server_time", c->server_time);
	c->interval_s = ms / 1000;
	if (api_dec_list(o, "", "candles", sizeof *c->v, candle_item, NULL, (void **)&c->v, &c->n,
			 cause) != 0)
		goto fail;
	*out = c;
	return 0;
fail:
	api_candles_free(&c);
	return -1;
}

/* ---- stream events ------------------------------------------------------------------------ */

void api_stream_event_free(struct api_stream_event **pp)
{
	struct api_stream_event *e;

	if (pp == NULL || (e = *pp) == NULL)
		return;
	free(e->gpu);
	free_quotes_v(e->quotes, e->n_quotes);
	free(e->asks);
	free(e->bids);
	free(e->trades);
	free(e);
	*pp = NULL;
}

/* "quotes", "trades:GPU", "book:GPU" → the channel and *gpu (malloc'ed). */
static int parse_channel(const char *s, struct api_stream_event *e, char **cause)
{
	const char *g = NULL;

	if (strcmp(s, "quotes") == 0) {
		e->channel = API_CH_QUOTES;
		return 0;
	}
	if (strncmp(s, "trades:", 7) == 0)
		e->channel = API_CH_TRADES, g = s + 7;
	else if (strncmp(s, "book:", 5) == 0)
		e->channel = API_CH_BOOK, g = s + 5;
	if (g == NULL || *g == '\0' || strlen(g) > SHORT)
		return set_cause(cause, "channel: \"%s\" is not a channel", s);
	e->gpu = xstrdup(g);
	return 0;
}

static int dec_snapshot(const cJSON *o, struct api_stream_event *e, char **cause)
{
	char *ch = NULL, *gpu = NULL;
	int rc = -1;

	DEC_STR(o, "", "channel", 2 * SHORT, ch);
	if (parse_channel(ch, e, cause) != 0)
		goto fail;
	if (e->channel != API_CH_QUOTES) {
		DEC_STR(o, "", "gpu", SHORT, gpu);
		if (strcmp(gpu, e->gpu) != 0) {
			set_cause(cause, "gpu: \"%s\" is not the channel's GPU", gpu);
			goto fail;
		}
	}
	if (e->channel == API_CH_QUOTES)
		rc = api_dec_list(o, "", "quotes", sizeof *e->quotes, quote_item, NULL,
				  (void **)&e->quotes, &e->n_quotes, cause);
	else if (e->channel == API_CH_BOOK)
		rc = dec_sides(o, false, &e->asks, &e->n_asks, &e->bids, &e->n_bids, cause);
	else
		rc = api_dec_list(o, "", "trades", sizeof *e->trades, trade_item, NULL,
				  (void **)&e->trades, &e->n_trades, cause);
fail:
	free(ch);
	free(gpu);
	return rc;
}

static int dec_increment(const cJSON *o, struct api_stream_event *e, char **cause)
{
	DEC_INT(o, "", "prev", 0, MAX_ID, e->prev);
	if (e->prev >= e->seq)
		return set_cause(cause, "prev: %lld is not before seq %lld", (long long)e->prev,
				 (long long)e->seq);
	if (e->kind == API_EV_QUOTE) {
		e->channel = API_CH_QUOTES;
		return api_dec_list(o, "", "quotes", sizeof *e->quotes, quote_item, NULL,
				    (void **)&e->quotes, &e->n_quotes, cause);
	}
	DEC_STR(o, "", "gpu", SHORT, e->gpu);
	if (e->kind == API_EV_BOOK) {
		e->channel = API_CH_BOOK;
		return dec_sides(o, true, &e->asks, &e->n_asks, &e->bids, &e->n_bids, cause);
	}
	e->channel = API_CH_TRADES;
	if (api_dec_list(o, "", "trades", sizeof *e->trades, trade_item, NULL, (void **)&e->trades,
			 &e->n_trades, cause) != 0)
		return -1;
	for (size_t i = 1; i < e->n_trades; i++)
		if (e->trades[i].id <= e->trades[i - 1].id)
			return set_cause(cause, "trades[%zu]: trades are not in id order", i);
	return 0;
fail:
	return -1;
}

int api_stream_decode(const char *event, const char *data, size_t len,
		      struct api_stream_event **out, char **cause)
{
	static const char *const names[] = {"snapshot", "quote", "trade", "book", "heartbeat"};
	struct api_stream_event *e;
	cJSON *o;
	int kind = -1, rc = -1;

	*out = NULL;
	for (int i = 0; i < 5; i++)
		if (strcmp(event, names[i]) == 0)
			kind = i;
	if (kind < 0)
		return 1;
	if ((o = api_json_parse(data, len, cause)) == NULL)
		return -1;
	e = xcalloc(1, sizeof *e);
	e->kind = (enum api_ev_kind)kind;
	e->channel = API_CH_NONE;
	e->prev = -1;
	if (!cJSON_IsObject(o)) {
		set_cause(cause, "expected an object");
		goto fail;
	}
	DEC_INT(o, "", "seq", 0, MAX_ID, e->seq);
	if (e->kind == API_EV_SNAPSHOT)
		rc = dec_snapshot(o, e, cause);
	else if (e->kind == API_EV_HEARTBEAT)
		rc = 0;
	else
		rc = dec_increment(o, e, cause);
fail:
	cJSON_Delete(o);
	if (rc != 0) {
		api_stream_event_free(&e);
		return -1;
	}
	*out = e;
	return 0;
}
