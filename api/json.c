/*
 * Strict readers for the exchange's JSON replies. cJSON parses numbers as
 * doubles; a whole number is accepted only when it is finite, integral and
 * within ±(2^53 - 1) (beyond that a double no longer holds every integer, so
 * "9007199254740993" could silently become another amount) and inside the
 * field's own range. Strings are sanitised for the terminal on the way in.
 * Every failure names the field by its path in the reply.
 */
#include "api/internal.h"

#include "util/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

char *api_json_path(const char *path, const char *name)
{
	if (path == NULL || *path == '\0')
		return xstrdup(name);
	return xasprintf("%s.%s", path, name);
}

char *api_json_index(const char *path, const char *name, size_t i)
{
	if (path == NULL || *path == '\0')
		return xasprintf("%s[%zu]", name, i);
	return xasprintf("%s.%s[%zu]", path, name, i);
}

/* A short description of what a JSON value is, for messages. */
static const char *kind_of(const cJSON *v)
{
	if (v == NULL)
		return "nothing (the field is missing)";
	if (cJSON_IsNull(v))
		return "null";
	if (cJSON_IsBool(v))
		return "a boolean";
	if (cJSON_IsNumber(v))
		return "a number";
	if (cJSON_IsString(v))
		return "a string";
	if (cJSON_IsArray(v))
		return "an array";
	if (cJSON_IsObject(v))
		return "an object";
	return "an unknown value";
}

static int field_error(char **cause, const char *path, const char *name, const char *want,
		       const cJSON *got)
{
	char *p = api_json_path(path, name);
	set_cause(cause, "%s: expected %s, got %s", p, want, kind_of(got));
	free(p);
	return -1;
}

/* True when data is a JSON text cut short: it ends inside a string or with
 * an object or array still open. */
static bool ends_early(const char *data, size_t len)
{
	size_t depth = 0;
	bool in_str = false, esc = false, seen = false;

	for (size_t i = 0; i < len; i++) {
		char ch = data[i];
		if (in_str) {
			if (esc)
				esc = false;
			else if (ch == '\\')
				esc = true;
			else if (ch == '"')
				in_str = false;
			continue;
		}
		if (ch == '"')
			in_str = true;
		else if (ch == '{' || ch == '[')
			depth++, seen = true;
		else if ((ch == '}' || ch == ']') && depth > 0)
			depth--;
	}
	return seen && (in_str || depth > 0);
}

cJSON *api_json_parse(const char *data, size_t len, char **cause)
{
	const char *end = NULL;
	cJSON *root;

	if (data == NULL || len == 0) {
		set_cause(cause, "the reply is empty");
		return NULL;
	}
	if (strlen(data) != len) {
		set_cause(cause, "the reply contains a NUL byte: not JSON");
		return NULL;
	}
	root = cJSON_ParseWithOpts(data, &end, 1);
	if (root == NULL) {
		size_t at = (end != NULL && end >= data) ? (size_t)(end - data) : 0;
		if (ends_early(data, len))
			set_cause(cause, "the reply ends before its JSON is complete "
				  "(truncated after %zu bytes)", len);
		else
			set_cause(cause, "the reply is not JSON (error at byte %zu of %zu)", at, len);
		return NULL;
	}
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		set_cause(cause, "the reply is not a JSON object");
		return NULL;
	}
	return root;
}

static int read_int(const cJSON *v, const char *path, const char *name, int64_t min,
		    int64_t max, int64_t *out, char **cause)
{
	double d;
	char *p;

	if (!cJSON_IsNumber(v))
		return field_error(cause, path, name, "a whole number", v);
	d = v->valuedouble;
	if (!isfinite(d) || d != floor(d) || fabs(d) > (double)API_SAFE_INT) {
		p = api_json_path(path, name);
		if (isfinite(d) && d == floor(d))
			set_cause(cause, "%s: %.17g is too large to be exact (limit 2^53)", p, d);
		else
			set_cause(cause, "%s: expected a whole number, got %.15g", p, d);
		free(p);
		return -1;
	}
	if (max > API_SAFE_INT)
		max = API_SAFE_INT;
	if (min < -API_SAFE_INT)
		min = -API_SAFE_INT;
	if ((int64_t)d < min || (int64_t)d > max) {
		p = api_json_path(path, name);
		set_cause(cause, "%s: %lld is out of range (%lld to %lld)", p, (long long)d,
			  (long long)min, (long long)max);
		free(p);
		return -1;
	}
	*out = (int64_t)d;
	return 0;
}

int api_json_int(const cJSON *obj, const char *path, const char *name, int64_t min,
		 int64_t max, int64_t *out, char **cause)
{
	return read_int(cJSON_GetObjectItemCaseSensitive(obj, name), path, name, min, max,
			out, cause);
}

int api_json_int_null(const cJSON *obj, const char *path, const char *name, int64_t min,
		      int64_t max, int64_t none, int64_t *out, char **cause)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	if (v == NULL)
		return field_error(cause, path, name, "a whole number or null", v);
	if (cJSON_IsNull(v)) {
		*out = none;
		return 0;
	}
	return read_int(v, path, name, min, max, out, cause);
}

int api_json_int_opt(const cJSON *obj, const char *path, const char *name, int64_t min,
		     int64_t max, int64_t none, int64_t *out, char **cause)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	if (v == NULL || cJSON_IsNull(v)) {
		*out = none;
		return 0;
	}
	return read_int(v, path, name, min, max, out, cause);
}

static int read_str(const cJSON *v, const char *path, const char *name, size_t maxlen,
		    bool allow_empty, char **out, char **cause)
{
	size_t len;
	char *p;

	if (!cJSON_IsString(v) || v->valuestring == NULL)
		return field_error(cause, path, name, "a string", v);
	len = strlen(v->valuestring);
	if (len > maxlen || (len == 0 && !allow_empty)) {
		p = api_json_path(path, name);
		if (len == 0)
			set_cause(cause, "%s: must not be empty", p);
		else
			set_cause(cause, "%s: longer than %zu bytes", p, maxlen);
		free(p);
		return -1;
	}
	*out = util_sanitize(v->valuestring, len, false);
	return 0;
}

int api_json_str(const cJSON *obj, const char *path, const char *name, size_t maxlen,
		 bool allow_empty, char **out, char **cause)
{
	return read_str(cJSON_GetObjectItemCaseSensitive(obj, name), path, name, maxlen,
			allow_empty, out, cause);
}

int api_json_str_opt(const cJSON *obj, const char *path, const char *name, size_t maxlen,
		     char **out, char **cause)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	if (v == NULL || cJSON_IsNull(v)) {
		*out = NULL;
		return 0;
	}
	return read_str(v, path, name, maxlen, true, out, cause);
}

int api_json_bool(const cJSON *obj, const char *path, const char *name, bool *out,
		  char **cause)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	if (!cJSON_IsBool(v))
		return field_error(cause, path, name, "true or false", v);
	*out = cJSON_IsTrue(v);
	return 0;
}

int api_json_enum(const cJSON *obj, const char *path, const char *name,
		  const char *const *names, int n, int *out, char **cause)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
	struct buf want = {0};
	char *p, *shown;

	if (!cJSON_IsString(v) || v->valuestring == NULL)
		return field_error(cause, path, name, "a string", v);
	for (int i = 0; i < n; i++) {
		if (strcmp(v->valuestring, names[i]) == 0) {
			*out = i;
			return 0;
		}
	}
	for (int i = 0; i < n; i++)
		buf_printf(&want, "%s%s", i ? ", " : "", names[i]);
	p = api_json_path(path, name);
	shown = util_sanitize(v->valuestring, 64, false);
	set_cause(cause, "%s: \"%s\" is not one of %s", p, shown, want.data);
	free(shown);
	free(p);
	buf_free(&want);
	return -1;
}

const cJSON *api_json_array(const cJSON *obj, const char *path, const char *name,
			    char **cause)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	if (!cJSON_IsArray(v)) {
		field_error(cause, path, name, "an array", v);
		return NULL;
	}
	return v;
}

const cJSON *api_json_object(const cJSON *obj, const char *path, const char *name,
			     char **cause)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	if (!cJSON_IsObject(v)) {
		field_error(cause, path, name, "an object", v);
		return NULL;
	}
	return v;
}

int api_json_double(const cJSON *obj, const char *path, const char *name, double min,
		    double max, double *out, char **cause)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
	char *p;

	if (!cJSON_IsNumber(v))
		return field_error(cause, path, name, "a number", v);
	if (!isfinite(v->valuedouble) || v->valuedouble < min || v->valuedouble > max) {
		p = api_json_path(path, name);
		set_cause(cause, "%s: %.17g is out of range (%g to %g)", p, v->valuedouble, min, max);
		free(p);
		return -1;
	}
	*out = v->valuedouble;
	return 0;
}

/* "2025-06-02T09:00:00Z" exactly (ISO 8601, UTC, second precision). */
static int parse_time(const char *s, int64_t *out)
{
	struct tm tm = {0};
	int y, mo, d, h, mi, se;
	char z;
	int n = 0;
	static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	if (strlen(s) != 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
	    s[16] != ':' || s[19] != 'Z')
		return -1;
	for (int i = 0; i < 19; i++)
		if (i != 4 && i != 7 && i != 10 && i != 13 && i != 16 && (s[i] < '0' || s[i] > '9'))
			return -1;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c%n", &y, &mo, &d, &h, &mi, &se, &z, &n) != 7 ||
	    n != 20)
		return -1;
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 || mi > 59 ||
	    se > 60)
		return -1;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = se;
	*out = (int64_t)timegm(&tm);
	return 0;
}

int api_json_time(const cJSON *obj, const char *path, const char *name, bool optional,
		  int64_t *out, char **cause)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
	char *p, *shown;

	if (optional && (v == NULL || cJSON_IsNull(v))) {
		*out = -1;
		return 0;
	}
	if (!cJSON_IsString(v) || v->valuestring == NULL)
		return field_error(cause, path, name, "a time (\"2025-06-02T09:00:00Z\")", v);
	if (parse_time(v->valuestring, out) != 0) {
		p = api_json_path(path, name);
		shown = util_sanitize(v->valuestring, 40, false);
		set_cause(cause, "%s: \"%s\" is not a time like \"2025-06-02T09:00:00Z\"", p, shown);
		free(shown);
		free(p);
		return -1;
	}
	return 0;
}
