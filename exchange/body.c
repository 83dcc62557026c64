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
