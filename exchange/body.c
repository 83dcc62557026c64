/*
 * exchange/body.c — strict validation of request bodies (docs/API.md,
 * "Errors"): the body must be one UTF-8 JSON object with nothing after it,
 * without a byte order mark and without numbers written with leading zeros
 * (cJSON would take both: RFC 8259 allows neither);
 * every member must be known and appear once; every value must have the
 * documented JSON type, integer-ness, range and length. Each failure has its
 * own stable code and names the field. Nothing here changes any state, so a
 * request that fails validation changes nothing.
 */
#include "exchange/xd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

bool xd_utf8_valid(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;
	while (i < len) {
		unsigned c = s[i];
		if (c == 0)
			return false;
		if (c < 0x80) {
			i++;
			continue;
		}
		size_t n;
		unsigned min;
		if ((c & 0xE0) == 0xC0) n = 1, min = 0x80, c &= 0x1F;
		else if ((c & 0xF0) == 0xE0) n = 2, min = 0x800, c &= 0x0F;
		else if ((c & 0xF8) == 0xF0) n = 3, min = 0x10000, c &= 0x07;
		else return false;
		if (i + n >= len)
			return false;
		for (size_t k = 1; k <= n; k++) {
			if ((s[i + k] & 0xC0) != 0x80)
				return false;
			c = (c << 6) | (s[i + k] & 0x3F);
		}
		if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
			return false;
		i += n + 1;
	}
	return true;
}

/* JSON whitespace (strchr would also match the NUL byte). */
static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* A \u0000 escape in any string of a parsed body (every backslash is in a
 * string and starts a two-character escape): cJSON's C strings would end
 * there and silently drop the rest of the name or value. */
static bool has_nul_escape(const char *data, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++) {
		if (data[i] != '\\')
			continue;
		if (i + 6 <= len && memcmp(data + i + 1, "u0000", 5) == 0)
			return true;
		i++;
	}
	return false;
}

/* ---- integers from the text ---------------------------------------------
 * cJSON reads every number through strtod, so 0.99999999999999999 and
 * 1.0000000000000001 arrive as the double 1.0. Every number of this API is an
 * integer, so the check runs on the literal as written: a literal is exact
 * when its decimal value (digits × 10^exponent) is a whole number of at most
 * 2^53 in magnitude (8, 8.0, 1e2, -0 are; 8.5, 1e400 and 9007199254740993
 * are not). A number item whose literal is not exact gets NAN, which
 * xd_body_int refuses as NOT_INTEGER naming its field. cJSON keeps members in
 * the order of the text, so the literals and the number items pair up in a
 * depth-first walk. */

#define EXACT_MAX 9007199254740992ull   /* 2^53 */

/* Is the number literal at s (len bytes, JSON grammar) an exact integer of
 * magnitude at most 2^53? */
static bool literal_exact(const char *s, size_t len)
{
	size_t i = s[0] == '-';
	char digits[24];
	size_t nd = 0, lead = 1;
	long exp10 = 0;
	bool frac = false;
	for (; i < len && s[i] != 'e' && s[i] != 'E'; i++) {
		if (s[i] == '.') {
			frac = true;
			continue;
		}
		if (lead && s[i] == '0') {   /* leading zeros carry no digit */
			if (frac)
				exp10--;
			continue;
		}
		lead = 0;
		if (nd == sizeof digits)
			return false;             /* more than 24 significant digits */
		digits[nd++] = s[i];
		if (frac)
			exp10--;
	}
	if (i < len) {                        /* the exponent, bounded */
		i++;
		bool neg = i < len && s[i] == '-';
		if (i < len && (s[i] == '-' || s[i] == '+'))
			i++;
		long e = 0;
		for (; i < len; i++)
			if ((e = e * 10 + (s[i] - '0')) > 1000)
				return nd == 0;       /* 0e999 is 0; anything else is out */
		exp10 += neg ? -e : e;
	}
	while (nd > 0 && digits[nd - 1] == '0') {
		nd--;
		exp10++;
	}
	if (nd == 0)
		return true;                  /* zero, however written */
	if (exp10 < 0 || (long)nd + exp10 > 16)
		return false;
	uint64_t v = 0;                       /* below 10^16: no overflow */
	for (size_t k = 0; k < nd; k++)
		v = v * 10 + (uint64_t)(digits[k] - '0');
	for (long k = 0; k < exp10; k++)
		v *= 10;
	return v <= EXACT_MAX;
}

struct literals { bool *exact; size_t n, cap, next; };

/* The exactness of every number literal of data, in the order of the text. */
static void scan_literals(const char *data, size_t len, struct literals *l)
{
	bool in_str = false;
	for (size_t i = 0; i < len; i++) {
		char c = data[i];
		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
			continue;
		}
		if (c == '"') {
			in_str = true;
			continue;
		}
		if (c != '-' && (c < '0' || c > '9'))
			continue;
		size_t j = i;
		while (j < len && strchr("+-.0123456789eE", data[j]) && data[j] != '\0')
			j++;
		if (l->n == l->cap) {
			l->cap = l->cap ? 2 * l->cap : 16;
			l->exact = xreallocarray(l->exact, l->cap, sizeof *l->exact);
		}
		l->exact[l->n++] = literal_exact(data + i, j - i);
		i = j - 1;
	}
}

static void mark_inexact(cJSON *item, struct literals *l)
{
	for (cJSON *c = item; c; c = c->next) {
		if (cJSON_IsNumber(c)) {
			if (l->next >= l->n || !l->exact[l->next])
				c->valuedouble = NAN;
			l->next++;
		}
		if (c->child)
			mark_inexact(c->child, l);
	}
}

/* The offset of a number with a leading zero ("007", "-01") outside the
 * strings of data, or -1. A number starts after [ , : or at the start. */
static long leading_zero(const char *data, size_t len)
{
	bool in_str = false;
	char prev = '[';
	for (size_t i = 0; i < len; i++) {
		char c = data[i];
		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
			continue;
		}
		if (c == '"') {
			in_str = true;
		} else if ((c == '-' || (c >= '0' && c <= '9')) && (prev == '[' || prev == ',' || prev == ':')) {
			size_t j = i + (c == '-');
			if (j + 1 < len && data[j] == '0' && data[j + 1] >= '0' && data[j + 1] <= '9')
				return (long)i;
		}
		if (!is_ws(c))
			prev = c;
	}
	return -1;
}

/* The offset of a control character outside the strings of data other
 * than JSON's four kinds of whitespace (cJSON skips every byte below 0x21
 * as if it were, so ":\x11007" would pass the leading-zero check), or -1. */
static long stray_control(const char *data, size_t len)
{
	bool in_str = false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)data[i];
		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
		} else if (c == '"') {
			in_str = true;
		} else if ((c < 0x20 || c == 0x7f) && !is_ws((char)c)) {
			return (long)i;
		}
	}
	return -1;
}

int xd_body_parse(const char *data, size_t len, bool allow_empty, cJSON **out, struct xd_reply *r)
{
	*out = NULL;
	size_t i = 0;
	while (i < len && is_ws(data[i]))
		i++;
	if (i == len) {
		if (allow_empty) {
			*out = cJSON_CreateObject();
			return 0;
		}
		xd_reply_error(r, 400, "BAD_JSON", "a JSON object is required as the request body");
		return -1;
	}
	if (!xd_utf8_valid(data, len)) {
		xd_reply_error(r, 400, "BAD_JSON", "the request body is not valid UTF-8");
		return -1;
	}
	if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
		xd_reply_error(r, 400, "BAD_JSON", "the request body starts with a byte order mark; "
		               "send the JSON without it");
		return -1;
	}
	long sc = stray_control(data, len);
	if (sc >= 0) {
		xd_reply_error(r, 400, "BAD_JSON", "a control character outside a string (near byte "
		               "%ld): JSON allows only spaces, tabs and line breaks there", sc);
		return -1;
	}
	long lz = leading_zero(data, len);
	if (lz >= 0) {
		xd_reply_error(r, 400, "BAD_JSON", "a number has a leading zero (near byte %ld); "
		               "write 7, not 007", lz);
		return -1;
	}
	const char *end = NULL;
	cJSON *j = cJSON_ParseWithLengthOpts(data, len, &end, false);
	if (!j) {
		size_t at = 0;
		const char *e = cJSON_GetErrorPtr();
		if (e && e >= data && e <= data + len)
			at = (size_t)(e - data);
		xd_reply_error(r, 400, "BAD_JSON", "the request body is not valid JSON (near byte %zu)", at);
		return -1;
	}
	for (const char *p = end; p && p < data + len; p++) {
		if (!is_ws(*p)) {
			cJSON_Delete(j);
			xd_reply_error(r, 400, "BAD_JSON", "the request body has text after the JSON value");
			return -1;
		}
	}
	if (!cJSON_IsObject(j)) {
		cJSON_Delete(j);
		xd_reply_error(r, 400, "BAD_JSON", "the request body must be a JSON object");
		return -1;
	}
	if (has_nul_escape(data, len)) {
		cJSON_Delete(j);
		xd_reply_error(r, 400, "BAD_JSON", "the request body holds a NUL character (\\u0000)");
		return -1;
	}
	struct literals lit = { 0 };
	scan_literals(data, len, &lit);
	mark_inexact(j->child, &lit);
	free(lit.exact);
	*out = j;
	return 0;
}

int xd_body_fields(const cJSON *o, const char *const *allowed, struct xd_reply *r)
{
	for (const cJSON *c = o->child; c; c = c->next) {
		const char *k = c->string ? c->string : "";
		if (xd_lookup(allowed, k) < 0) {
			char *safe = util_sanitize(k, 64, true);
			xd_reply_field(r, "UNKNOWN_FIELD", safe, "unknown field \"%s\"", safe);
			free(safe);
			return -1;
		}
		for (const cJSON *d = c->next; d; d = d->next) {
			if (d->string && strcmp(d->string, k) == 0) {
				xd_reply_field(r, "DUPLICATE_FIELD", k, "field \"%s\" appears more than once", k);
				return -1;
			}
		}
	}
	return 0;
}

static const char *type_name(const cJSON *v)
{
	if (cJSON_IsNull(v)) return "null";
	if (cJSON_IsBool(v)) return "a boolean";
	if (cJSON_IsNumber(v)) return "a number";
	if (cJSON_IsString(v)) return "a string";
	if (cJSON_IsArray(v)) return "an array";
	return "an object";
}

int xd_body_int(const cJSON *o, const char *k, bool required, int64_t min, int64_t max,
                int64_t *out, struct xd_reply *r)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	if (!v) {
		if (!required)
			return 0;
		xd_reply_field(r, "MISSING_FIELD", k, "field \"%s\" is required", k);
		return -1;
	}
	if (!cJSON_IsNumber(v)) {
		xd_reply_field(r, "WRONG_TYPE", k, "field \"%s\" must be an integer, not %s", k, type_name(v));
		return -1;
	}
	double d = v->valuedouble;
	if (!isfinite(d) || d != floor(d) || fabs(d) > 9007199254740992.0) {
		xd_reply_field(r, "NOT_INTEGER", k, "field \"%s\" must be a whole number", k);
		return -1;
	}
	int64_t x = (int64_t)d;
	if (x < min || x > max) {
		cJSON *e = xd_reply_field(r, "OUT_OF_RANGE", k, "field \"%s\" must be between %lld and %lld",
		                          k, (long long)min, (long long)max);
		xd_jint(e, "min", min);
		xd_jint(e, "max", max);
		return -1;
	}
	*out = x;
	return 1;
}

int xd_body_str(const cJSON *o, const char *k, bool required, size_t maxlen,
                const char **out, struct xd_reply *r)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	if (!v) {
		if (!required)
			return 0;
		xd_reply_field(r, "MISSING_FIELD", k, "field \"%s\" is required", k);
		return -1;
	}
	if (!cJSON_IsString(v) || !v->valuestring) {
		xd_reply_field(r, "WRONG_TYPE", k, "field \"%s\" must be a string, not %s", k, type_name(v));
		return -1;
	}
	size_t n = strlen(v->valuestring);
	if (n > maxlen) {
		cJSON *e = xd_reply_field(r, "STRING_TOO_LONG", k, "field \"%s\" is longer than %zu bytes",
		                          k, maxlen);
		xd_jint(e, "max", (int64_t)maxlen);
		return -1;
	}
	if (n == 0) {
		xd_reply_field(r, "BAD_VALUE", k, "field \"%s\" must not be empty", k);
		return -1;
	}
	*out = v->valuestring;
	return 1;
}

int xd_body_enum(const cJSON *o, const char *k, bool required, const char *const *vals,
                 int *out, struct xd_reply *r)
{
	const char *s;
	int rc = xd_body_str(o, k, required, 64, &s, r);
	if (rc <= 0)
		return rc;
	int i = xd_lookup(vals, s);
	if (i < 0) {
		struct buf b = { 0 };
		for (int n = 0; vals[n]; n++)
			buf_printf(&b, "%s\"%s\"", n ? ", " : "", vals[n]);
		xd_reply_field(r, "BAD_VALUE", k, "field \"%s\" must be one of %s", k, b.data);
		buf_free(&b);
		return -1;
	}
	*out = i;
	return 1;
}

int xd_body_bool(const cJSON *o, const char *k, bool required, bool *out, struct xd_reply *r)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	if (!v) {
		if (!required)
			return 0;
		xd_reply_field(r, "MISSING_FIELD", k, "field \"%s\" is required", k);
		return -1;
	}
	if (!cJSON_IsBool(v)) {
		xd_reply_field(r, "WRONG_TYPE", k, "field \"%s\" must be true or false, not %s", k,
		               type_name(v));
		return -1;
	}
	*out = cJSON_IsTrue(v);
	return 1;
}
