/*
 * exchange/candles.c — GET /v1/candles/{gpu}: open, high, low and close
 * prices, volume and trade count per interval, computed from the trades
 * table on each request (docs/API.md, "Candles").
 *
 * Intervals are aligned to the Unix epoch in UTC (a day starts at 00:00Z).
 * An interval without trades is omitted: no price was made in it, and
 * carrying the previous close would invent one; a chart draws the gap or
 * carries the close itself. With `limit`, the newest intervals of the range
 * are returned, oldest first. The trades are read newest first on the GPU's
 * (gpu, id) index — ids grow with the exchange clock, which never goes back
 * — and the scan stops once `limit` intervals are complete.
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define CANDLES_DEFAULT 100
#define CANDLES_MAX 1000

static const char *const interval_names[] = { "1m", "5m", "1h", "1d", NULL };
static const int64_t interval_ms[] = { 60000, 300000, 3600000, 86400000 };

struct candle {
	int64_t start, open, high, low, close, gpus, gpu_hours, trades;
};

static int bad(struct xd_ctx *c, const char *field, const char *accepted, const char *v)
{
	char *safe = util_sanitize(v ? v : "", 40, true);
	cJSON *e = xd_reply_error(&c->reply, 400, "BAD_PARAM", "query parameter \"%s\" must be %s, "
	                          "not \"%s\"", field, accepted, safe);
	cJSON_AddStringToObject(e, "field", field);
	free(safe);
	return -1;
}

static int q_time(struct xd_ctx *c, const char *name, int64_t dflt, int64_t *out)
{
	const char *s = xd_query(c, name);
	*out = dflt;
	if (s && (exchange_parse_time(s, out) != 0 || *out < 0))
		return bad(c, name, "an ISO 8601 time such as 2025-06-02T09:00:00Z", s);
	return 0;
}

static int q_limit(struct xd_ctx *c, int64_t *out)
{
	const char *s = xd_query(c, "limit");
	*out = CANDLES_DEFAULT;
	if (!s)
		return 0;
	char *end;
	long long v = strtoll(s, &end, 10);
	if (!*s || *end || s[0] == '-' || s[0] == '+' || v < 1 || v > CANDLES_MAX) {
		char *safe = util_sanitize(s, 40, true);
		cJSON *e = xd_reply_error(&c->reply, 400, "BAD_PARAM", "query parameter \"limit\" must "
		                          "be an integer in 1..%d, not \"%s\"", CANDLES_MAX, safe);
		cJSON_AddStringToObject(e, "field", "limit");
		free(safe);
		return -1;
	}
	*out = v;
	return 0;
}

static cJSON *candle_json(const struct candle *k)
{
	cJSON *o = cJSON_CreateObject();
	xd_jtime(o, "start", k->start);
	xd_jint(o, "open_cents", k->open);
	xd_jint(o, "high_cents", k->high);
	xd_jint(o, "low_cents", k->low);
	xd_jint(o, "close_cents", k->close);
	xd_jint(o, "gpus", k->gpus);
	xd_jint(o, "gpu_hours", k->gpu_hours);
	xd_jint(o, "trades", k->trades);
	return o;
}

/* The newest `limit` candles of [from, to), newest first in v; returns n. */
static size_t scan(const char *gpu, int64_t iv, int64_t from, int64_t to, size_t limit,
                   struct candle *v)
{
	struct xd_q *st = xd_stmt(xd_store_reader(),
		"SELECT at_ms, price, gpus, hours FROM trades "
		"WHERE gpu = ?1 AND at_ms >= ?2 AND at_ms < ?3 ORDER BY id DESC");
	xd_bind_text(st, 1, gpu);
	xd_bind_int64(st, 2, from);
	xd_bind_int64(st, 3, to);
	size_t n = 0;
	while (xd_step(st) == XD_ROW) {
		int64_t at = xd_col_int64(st, 0), p = xd_col_int64(st, 1);
		int64_t g = xd_col_int64(st, 2), h = xd_col_int64(st, 3);
		int64_t start = at / iv * iv;
		struct candle *k = n ? &v[n - 1] : NULL;
		if (!k || k->start != start) {
			if (n == limit)
				break;
			k = &v[n++];
			*k = (struct candle){ .start = start, .high = p, .low = p, .close = p };
		}
		k->open = p;   /* read newest first: the last one read is the first traded */
		if (p > k->high)
			k->high = p;
		if (p < k->low)
			k->low = p;
		k->gpus += g;
		k->gpu_hours += g * h;
		k->trades++;
	}
	xd_reset(st);
	return n;
}

void xd_candles_handle(struct xd_ctx *c)
{
	static const char *const allowed[] = { "interval", "from", "to", "limit", NULL };
	if (xd_query_check(c, allowed) != 0)
		return;
	const char *ivs = xd_query(c, "interval");
	int iv = ivs ? xd_lookup(interval_names, ivs) : 2;
	if (iv < 0) {
		bad(c, "interval", "1m, 5m, 1h or 1d", ivs);
		return;
	}
	int64_t from, to, limit, now = xd_market_now(c->m);
	if (q_time(c, "from", 0, &from) || q_time(c, "to", now + 1, &to) || q_limit(c, &limit))
		return;
	if (to <= from) {
		cJSON *e = xd_reply_error(&c->reply, 400, "BAD_PARAM", "\"to\" must be later than \"from\"");
		cJSON_AddStringToObject(e, "field", "to");
		return;
	}
	const struct xd_tables *t = xd_market_tables(c->m);
	int g = xd_tables_gpu(t, c->params[0]);
	if (g < 0) {
		char *safe = util_sanitize(c->params[0], 40, true);
		xd_reply_error(&c->reply, 404, "UNKNOWN_GPU", "unknown GPU \"%s\"", safe);
		free(safe);
		return;
	}
	struct candle *v = xcalloc((size_t)limit, sizeof *v);
	size_t n = scan(t->gpu_ids[g], interval_ms[iv], from, to, (size_t)limit, v);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "gpu", t->gpu_ids[g]);
	cJSON_AddStringToObject(o, "interval", interval_names[iv]);
	xd_jint(o, "interval_ms", interval_ms[iv]);
	cJSON *arr = cJSON_AddArrayToObject(o, "candles");
	for (size_t i = n; i-- > 0;)
		cJSON_AddItemToArray(arr, candle_json(&v[i]));
	free(v);
	xd_jtime(o, "server_time", now);
	xd_reply_json(&c->reply, 200, o);
}
