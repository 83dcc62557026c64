/*
 * The catalogue's validating reader (data/catalog_int.h): errors that name
 * the file and the object, text checks, typed members of an object, and the
 * files themselves (embedded or DIR/file) parsed into their root object.
 */
#include "data/catalog_int.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"

/* ---- reading context and errors ----------------------------------------- */


int cat_bad(const struct ctx *x, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (x->where != NULL)
		set_cause(x->cause, "%s: %s: %s", x->file, x->where, msg);
	else
		set_cause(x->cause, "%s: %s", x->file, msg);
	free(msg);
	return -1;
}

void cat_set_where(struct ctx *x, char *where)
{
	free(x->where);
	x->where = where;
}

/* "gpus[4] (\"h200\")" or "gpus[4]" when the id is not readable yet. */
char *cat_where_item(const char *array, size_t i, const cJSON *obj)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(obj, "id");
	if (cJSON_IsString(id) && id->valuestring != NULL && strlen(id->valuestring) <= 64) {
		char *safe = util_sanitize(id->valuestring, 64, true);
		char *w = xasprintf("%s[%zu] (\"%s\")", array, i, safe);
		free(safe);
		return w;
	}
	return xasprintf("%s[%zu]", array, i);
}

/* ---- text checks ------------------------------------------------------------ */

/* Valid UTF-8 without control characters; returns the number of code points,
 * or -1. */
static long cat_utf8_chars(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	long n = 0;

	while (*p != '\0') {
		unsigned c = *p;
		int extra;
		unsigned cp;

		if (c < 0x20 || c == 0x7f)
			return -1;
		if (c < 0x80) {
			p++;
			n++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			extra = 1;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			extra = 2;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			extra = 3;
			cp = c & 0x07;
		} else {
			return -1;
		}
		p++;
		for (int i = 0; i < extra; i++, p++) {
			if ((*p & 0xc0) != 0x80)
				return -1;
			cp = (cp << 6) | (*p & 0x3f);
		}
		if ((extra == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
		    (extra == 3 && (cp < 0x10000 || cp > 0x10ffff)))
			return -1;
		if (cp >= 0x80 && cp <= 0x9f) /* C1 controls */
			return -1;
		n++;
	}
	return n;
}

static bool cat_valid_id(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 32)
		return false;
	if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9')))
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
		      c == '_'))
			return false;
	}
	return true;
}

/* ---- typed field readers ------------------------------------------------------ */

/* Every key of obj must be in allowed[] (NULL-terminated), and none twice. */
int cat_check_keys(const struct ctx *x, const cJSON *obj, const char *const *allowed)
{
	for (const cJSON *a = obj->child; a != NULL; a = a->next) {
		bool known = false;
		for (size_t i = 0; allowed[i] != NULL; i++)
			if (a->string != NULL && strcmp(a->string, allowed[i]) == 0)
				known = true;
		if (!known) {
			char *safe = util_sanitize(a->string != NULL ? a->string : "", 64, true);
			int r = cat_bad(x, "unknown field \"%s\"", safe);
			free(safe);
			return r;
		}
		for (const cJSON *b = a->next; b != NULL; b = b->next)
			if (b->string != NULL && strcmp(a->string, b->string) == 0)
				return cat_bad(x, "field \"%s\" appears twice", a->string);
	}
	return 0;
}

/* The member `key`; *out NULL when absent or JSON null. -1 when it is absent
 * but required (must_exist). */
int cat_member(const struct ctx *x, const cJSON *obj, const char *key, bool must_exist,
                  const cJSON **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = NULL;
	if (v == NULL) {
		if (must_exist)
			return cat_bad(x, "missing field \"%s\"", key);
		return 0;
	}
	if (!cJSON_IsNull(v))
		*out = v;
	return 0;
}

/* A string of at most max_chars characters (0 = MAX_TEXT_BYTES bytes).
 * nullable: null (or absence, when !must_exist) gives *out = NULL. */
int cat_get_text(const struct ctx *x, const cJSON *obj, const char *key, bool must_exist,
                    bool nullable, long max_chars, char **out)
{
	const cJSON *v;
	long n;

	*out = NULL;
	if (cat_member(x, obj, key, must_exist, &v) < 0)
		return -1;
	if (v == NULL) {
		if (nullable)
			return 0;
		if (cJSON_GetObjectItemCaseSensitive(obj, key) == NULL)
			return cat_bad(x, "missing field \"%s\"", key);
		return cat_bad(x, "\"%s\" must be a non-empty string, not null", key);
	}
	if (!cJSON_IsString(v) || v->valuestring == NULL || v->valuestring[0] == '\0')
		return cat_bad(x, "\"%s\" must be a non-empty string%s", key, nullable ? " or null" : "");
	if (strlen(v->valuestring) > MAX_TEXT_BYTES)
		return cat_bad(x, "\"%s\" is longer than %d bytes", key, MAX_TEXT_BYTES);
	n = cat_utf8_chars(v->valuestring);
	if (n < 0)
		return cat_bad(x, "\"%s\" must be UTF-8 text without control characters", key);
	if (max_chars > 0 && n > max_chars)
		return cat_bad(x, "\"%s\" must be at most %ld characters (has %ld)", key, max_chars, n);
	*out = xstrdup(v->valuestring);
	return 0;
}

int cat_get_id(const struct ctx *x, const cJSON *obj, const char *key, char **out)
{
	const cJSON *v;

	*out = NULL;
	if (cat_member(x, obj, key, true, &v) < 0)
		return -1;
	if (v == NULL || !cJSON_IsString(v) || v->valuestring == NULL ||
	    !cat_valid_id(v->valuestring))
		return cat_bad(x, "\"%s\" must be an id of 1 to 32 lowercase letters, digits, '.', '-' or '_'",
		           key);
	*out = xstrdup(v->valuestring);
	return 0;
}

/* A number in (0, MAX_NUMBER]; NAN for null when nullable. */
int cat_get_positive(const struct ctx *x, const cJSON *obj, const char *key, bool must_exist,
                        bool nullable, double *out)
{
	const cJSON *v;

	*out = NAN;
	if (cat_member(x, obj, key, must_exist, &v) < 0)
		return -1;
	if (v == NULL && nullable)
		return 0;
	if (nullable && cJSON_IsString(v) && strcmp(v->valuestring, "not supported") == 0) {
		*out = CATALOG_NOT_SUPPORTED; /* the GPU has no such unit */
		return 0;
	}
	if (v == NULL || !cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble <= 0 ||
	    v->valuedouble > MAX_NUMBER)
		return cat_bad(x, "\"%s\" must be a positive number%s", key,
		           nullable ? ", null or \"not supported\"" : "");
	*out = v->valuedouble;
	return 0;
}

/* A whole number in [min, max]; -1 for null when nullable. */
int cat_get_int(const struct ctx *x, const cJSON *obj, const char *key, bool must_exist,
                   bool nullable, long min, long max, int *out)
{
	const cJSON *v;

	*out = -1;
	if (cat_member(x, obj, key, must_exist, &v) < 0)
		return -1;
	if (v == NULL && nullable)
		return 0;
	if (v == NULL || !cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
	    v->valuedouble != floor(v->valuedouble) || v->valuedouble < (double)min ||
	    v->valuedouble > (double)max)
		return cat_bad(x, "\"%s\" must be a whole number from %ld to %ld%s", key, min, max,
		           nullable ? " or null" : "");
	*out = (int)v->valuedouble;
	return 0;
}

int cat_get_bool(const struct ctx *x, const cJSON *obj, const char *key, bool *out)
{
	const cJSON *v;

	*out = false;
	if (cat_member(x, obj, key, true, &v) < 0)
		return -1;
	if (v == NULL || !cJSON_IsBool(v))
		return cat_bad(x, "\"%s\" must be true or false", key);
	*out = cJSON_IsTrue(v);
	return 0;
}

/* The top-level array `key` of a file's root object. */
int cat_get_array(const struct ctx *x, const cJSON *root, const char *key, const cJSON **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);

	if (v == NULL)
		return cat_bad(x, "missing field \"%s\"", key);
	if (!cJSON_IsArray(v))
		return cat_bad(x, "\"%s\" must be an array", key);
	*out = v;
	return 0;
}

/* ---- files ---------------------------------------------------------------- */


void cat_file_free(struct file *f)
{
	free(f->name);
	free(f->text);
	memset(f, 0, sizeof *f);
}

int cat_file_read(const char *dir, const char *base, bool optional, struct file *f,
                     char **cause)
{
	memset(f, 0, sizeof *f);
	if (dir == NULL) {
		char *path = xasprintf("data/%s", base);
		size_t len;
		const unsigned char *p = assets_find(path, &len);

		f->name = path;
		if (p == NULL) {
			if (optional) {
				f->absent = true;
				return 0;
			}
			return set_cause(cause, "%s: not embedded in this program", path);
		}
		f->text = xmalloc(len + 1);
		memcpy(f->text, p, len);
		f->text[len] = '\0';
		f->len = len;
		return 0;
	}
	{
		size_t dl = strlen(dir);
		struct stat st;

		f->name = xasprintf("%s%s%s", dir, dl > 0 && dir[dl - 1] == '/' ? "" : "/", base);
		if (stat(f->name, &st) < 0) {
			if (errno == ENOENT && optional) {
				f->absent = true;
				return 0;
			}
			return set_cause(cause, "%s: %s", f->name, strerror(errno));
		}
		if (!S_ISREG(st.st_mode))
			return set_cause(cause, "%s: not a regular file", f->name);
		if ((unsigned long long)st.st_size > MAX_FILE_BYTES)
			return set_cause(cause, "%s: larger than %u bytes", f->name, MAX_FILE_BYTES);
		return util_read_file(f->name, &f->text, &f->len, cause);
	}
}

/* Parse a file into its root object; errors give the line and column. */
int cat_file_parse(const struct file *f, cJSON **out, char **cause)
{
	const char *end = NULL;
	cJSON *root;

	*out = NULL;
	if (strlen(f->text) != f->len)
		return set_cause(cause, "%s: contains a NUL byte", f->name);
	/* the length includes the terminating NUL: cJSON's "require null
	 * terminated" looks for it inside the buffer */
	root = cJSON_ParseWithLengthOpts(f->text, f->len + 1, &end, true);
	if (root == NULL) {
		size_t line = 1, col = 1;
		const char *p;

		if (end == NULL || end < f->text || end > f->text + f->len)
			end = f->text + f->len;
		for (p = f->text; p < end; p++) {
			if (*p == '\n') {
				line++;
				col = 1;
			} else {
				col++;
			}
		}
		return set_cause(cause, "%s: invalid JSON at line %zu, column %zu", f->name, line,
		                 col);
	}
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		return set_cause(cause, "%s: the top level must be a JSON object", f->name);
	}
	*out = root;
	return 0;
}

