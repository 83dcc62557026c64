/*
 * exchange/reply.c — replies, errors and JSON output helpers.
 *
 * A reply is a status and a cJSON body the reply owns. Errors follow
 * docs/API.md: {"error":{"code","message"}}; the HTTP layer adds the
 * request id when it sends the reply. Integers are written as raw JSON text
 * from int64, never through a double, so no amount is ever rounded. Times
 * are the exchange clock, in ISO 8601 UTC with second precision.
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/util.h"

const char *const xd_role_names[4] = { "buyer", "seller", "both", NULL };
const char *const xd_state_names[4] = { "pre_open", "open", "halted", NULL };
const char *const xd_side_names[3] = { "buy", "sell", NULL };
const char *const xd_type_names[3] = { "limit", "market", NULL };
const char *const xd_tif_names[4] = { "gtc", "ioc", "fok", NULL };

int xd_lookup(const char *const *list, const char *s)
{
	for (int i = 0; s && list[i]; i++)
		if (strcmp(list[i], s) == 0)
			return i;
	return -1;
}

void xd_reply_clear(struct xd_reply *r)
{
	cJSON_Delete(r->body);
	free(r->raw);
	free(r->allow);
	free(r->etag);
	memset(r, 0, sizeof *r);
}

void xd_reply_move(struct xd_reply *dst, struct xd_reply *src)
{
	if (dst == src)
		return;
	xd_reply_clear(dst);
	*dst = *src;
	memset(src, 0, sizeof *src);
}

void xd_reply_json(struct xd_reply *r, int status, cJSON *body)
{
	xd_reply_clear(r);
	r->status = status;
	r->body = body;
}

static cJSON *verror(struct xd_reply *r, int status, const char *code, const char *fmt, va_list ap)
{
	char *msg = xvasprintf(fmt, ap);
	cJSON *root = cJSON_CreateObject();
	cJSON *err = cJSON_AddObjectToObject(root, "error");
	cJSON_AddStringToObject(err, "code", code);
	cJSON_AddStringToObject(err, "message", msg);
	free(msg);
	xd_reply_json(r, status, root);
	return err;
}

cJSON *xd_reply_error(struct xd_reply *r, int status, const char *code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cJSON *e = verror(r, status, code, fmt, ap);
	va_end(ap);
	return e;
}

cJSON *xd_reply_field(struct xd_reply *r, const char *code, const char *field, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cJSON *e = verror(r, 400, code, fmt, ap);
	va_end(ap);
	cJSON_AddStringToObject(e, "field", field);
	return e;
}

void xd_jint(cJSON *o, const char *k, int64_t v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%" PRId64, v);
	cJSON_AddRawToObject(o, k, buf);
}

void xd_jint_or_null(cJSON *o, const char *k, int64_t v, bool present)
{
	if (present)
		xd_jint(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

void xd_jstr(cJSON *o, const char *k, const char *s)
{
	if (s)
		cJSON_AddStringToObject(o, k, s);
	else
		cJSON_AddNullToObject(o, k);
}

void xd_time_fmt(int64_t ms, char *out, size_t size)
{
	time_t t = (time_t)(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void xd_jtime(cJSON *o, const char *k, int64_t ms)
{
	if (ms < 0) {
		cJSON_AddNullToObject(o, k);
		return;
	}
	char buf[40];
	xd_time_fmt(ms, buf, sizeof buf);
	cJSON_AddStringToObject(o, k, buf);
}

static int digits(const char **p, int n, int *out)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if ((*p)[i] < '0' || (*p)[i] > '9')
			return -1;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*out = v;
	return 0;
}

int exchange_parse_time(const char *s, int64_t *ms)
{
	int Y, M, D, h, m, sec;
	const char *p = s;
	if (!s || digits(&p, 4, &Y) || *p++ != '-' || digits(&p, 2, &M) || *p++ != '-' ||
	    digits(&p, 2, &D) || (*p != 'T' && *p != 't' && *p != ' '))
		return -1;
	p++;
	if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &m) || *p++ != ':' ||
	    digits(&p, 2, &sec))
		return -1;
	int64_t frac = 0;
	if (*p == '.') {
		p++;
		int n = 0;
		while (*p >= '0' && *p <= '9') {
			if (n < 3)
				frac = frac * 10 + (*p - '0');
			n++, p++;
		}
		if (n == 0)
			return -1;
		for (; n < 3; n++)
			frac *= 10;
	}
	int64_t off = 0;
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		int sign = *p == '-' ? -1 : 1, oh, om;
		p++;
		if (digits(&p, 2, &oh) || *p++ != ':' || digits(&p, 2, &om) || oh > 23 || om > 59)
			return -1;
		off = sign * (oh * 3600 + om * 60);
	} else {
		return -1;
	}
	if (*p || M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || m > 59 || sec > 60)
		return -1;
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	bool leap = (Y % 4 == 0 && Y % 100 != 0) || Y % 400 == 0;
	if (D > mdays[M - 1] + (M == 2 && leap))
		return -1;
	/* days from civil (Howard Hinnant's algorithm) */
	int y = Y - (M <= 2);
	int era = (y >= 0 ? y : y - 399) / 400;
	int yoe = y - era * 400;
	int doy = (153 * (M + (M > 2 ? -3 : 9)) + 2) / 5 + D - 1;
	int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	int64_t days = (int64_t)era * 146097 + doe - 719468;
	int64_t v = ((days * 86400 + h * 3600 + m * 60 + sec) - off) * 1000 + frac;
	/* the instant itself must fall in the years 0000..9999 UTC, so that it
	 * prints back with four digits (an offset or a leap second can carry
	 * 9999-12-31 into the year 10000) */
	if (v < INT64_C(-62167219200000) || v >= INT64_C(253402300800000))
		return -1;
	*ms = v;
	return 0;
}

/* ---- money ------------------------------------------------------------------ */

/* price x rate x 10^exponent / 10^8, exact (128 bits), rounded up or down;
 * beyond 2^63 saturates (no price and rate of docs/API.md get near it). */
static int64_t scaled(int64_t price_cents, int64_t rate_micro, int exponent, bool up)
{
	static const int64_t pow10[] = { 1, 10, 100, 1000, 10000 };
	if (exponent < 0 || exponent > 4 || price_cents < 0 || rate_micro < 0)
		return 0;
	unsigned __int128 num = (unsigned __int128)price_cents * (unsigned __int128)rate_micro *
	                        (unsigned __int128)pow10[exponent];
	unsigned __int128 q = num / 100000000u + (up && num % 100000000u != 0);
	return q > (unsigned __int128)INT64_MAX ? INT64_MAX : (int64_t)q;
}

int64_t exchange_net_unit_e(int64_t price_cents, int64_t rate_micro, int exponent)
{
	return scaled(price_cents, rate_micro, exponent, true);
}

int64_t exchange_payout_unit_e(int64_t price_cents, int64_t rate_micro, int exponent)
{
	return scaled(price_cents, rate_micro, exponent, false);
}

int64_t exchange_unit_e(int64_t price_cents, int64_t rate_micro, int exponent, int32_t vat_bp)
{
	int64_t net = exchange_net_unit_e(price_cents, rate_micro, exponent);
	return net + exchange_vat_unit(net, vat_bp);
}

int64_t exchange_net_unit(int64_t price_cents, int64_t rate_micro)
{
	return exchange_net_unit_e(price_cents, rate_micro, 2);
}

int64_t exchange_vat_unit(int64_t net_minor, int32_t vat_bp)
{
	return (net_minor * vat_bp + 9999) / 10000;
}

int64_t exchange_unit(int64_t price_cents, int64_t rate_micro, int32_t vat_bp)
{
	return exchange_unit_e(price_cents, rate_micro, 2, vat_bp);
}

int64_t exchange_payout_unit(int64_t price_cents, int64_t rate_micro)
{
	return exchange_payout_unit_e(price_cents, rate_micro, 2);
}

int64_t exchange_fee_unit(int64_t payout_unit, int32_t fee_bp)
{
	if (payout_unit <= 0 || fee_bp <= 0)
		return 0;
	return (int64_t)((unsigned __int128)payout_unit * (unsigned)fee_bp / 10000u);
}
