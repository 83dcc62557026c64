/*
 * exchange/conninfo.c — a PostgreSQL connection string as gpuxd may show it:
 * with every password taken out (exchange/store.h: xd_conninfo_redact,
 * xd_conninfo_scrub), for the start-up line, the connect and migration
 * errors, and anything else that names the database.
 *
 * Both of libpq's forms are read as libpq reads them:
 *   URI        postgresql://user:PASSWORD@host1,host2/db?password=P&sslpassword=P
 *              (the userinfo ends at the first '@' before any '/'; query
 *              parameters are split at '&')
 *   key=value  host=db1 password=PASSWORD sslpassword = 'quoted \' value'
 *              (spaces around '=', single quotes with backslash escapes)
 * A password becomes "***"; nothing else changes, so the operator still sees
 * which hosts, database and user are meant. A message about the connection
 * (libpq's errors may quote part of a malformed string) is scrubbed of every
 * password the string holds, as written and percent-decoded. Anything that
 * is not a PostgreSQL connection string (a SQLite path) is returned as is.
 */
#include "exchange/store.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define MASK "***"

static bool is_password_key(const char *k, size_t n)
{
	return (n == 8 && strncmp(k, "password", 8) == 0) ||
	       (n == 11 && strncmp(k, "sslpassword", 11) == 0);
}

/* A span [from, to) of the string that holds a password. */
struct span { size_t from, to; };
struct spans { struct span *v; size_t n; };

static void add_span(struct spans *s, size_t from, size_t to)
{
	if (to <= from)
		return;
	s->v = xreallocarray(s->v, s->n + 1, sizeof *s->v);
	s->v[s->n++] = (struct span){ from, to };
}

static bool is_uri(const char *t)
{
	return strncmp(t, "postgresql://", 13) == 0 || strncmp(t, "postgres://", 11) == 0;
}

static void uri_spans(const char *t, struct spans *out)
{
	size_t start = (size_t)(strstr(t, "://") - t) + 3;
	size_t end = start;
	while (t[end] && t[end] != '@' && t[end] != '/')
		end++;
	if (t[end] == '@') {
		const char *colon = memchr(t + start, ':', end - start);
		if (colon)
			add_span(out, (size_t)(colon - t) + 1, end);
	}
	const char *q = strchr(t + start, '?');
	if (!q)
		return;
	for (size_t i = (size_t)(q - t) + 1; t[i];) {
		size_t k = i;
		while (t[i] && t[i] != '&' && t[i] != '=')
			i++;
		size_t kn = i - k;
		if (t[i] == '=') {
			size_t v = ++i;
			while (t[i] && t[i] != '&')
				i++;
			if (is_password_key(t + k, kn))
				add_span(out, v, i);
		}
		if (t[i] == '&')
			i++;
	}
}

static void kv_spans(const char *t, struct spans *out)
{
	size_t i = 0;
	for (;;) {
		while (isspace((unsigned char)t[i]))
			i++;
		if (!t[i])
			return;
		size_t k = i;
		while (t[i] && t[i] != '=' && !isspace((unsigned char)t[i]))
			i++;
		size_t kn = i - k;
		while (isspace((unsigned char)t[i]))
			i++;
		if (t[i] != '=')
			continue;   /* malformed: libpq refuses it; look on */
		i++;
		while (isspace((unsigned char)t[i]))
			i++;
		size_t v = i;
		if (t[i] == '\'') {
			for (i++; t[i] && t[i] != '\''; i++)
				if (t[i] == '\\' && t[i + 1])
					i++;
			if (t[i] == '\'')
				i++;
		} else {
			for (; t[i] && !isspace((unsigned char)t[i]); i++)
				if (t[i] == '\\' && t[i + 1])
					i++;
		}
		if (is_password_key(t + k, kn))
			add_span(out, v, i);
	}
}

/* The password spans of t, in order; none for a SQLite path. */
static struct spans find_spans(const char *t)
{
	struct spans s = { 0 };
	if (is_uri(t))
		uri_spans(t, &s);
	else if (xd_store_backend(t) == &xd_store_pg)
		kv_spans(t, &s);
	return s;
}

char *xd_conninfo_redact(const char *target)
{
	if (!target)
		return xstrdup("");
	struct spans s = find_spans(target);
	struct buf b = { 0 };
	size_t at = 0;
	for (size_t i = 0; i < s.n; i++) {
		buf_append(&b, target + at, s.v[i].from - at);
		/* a quoted key=value password keeps its quotes' shape */
		buf_puts(&b, target[s.v[i].from] == '\'' ? "'" MASK "'" : MASK);
		at = s.v[i].to;
	}
	buf_puts(&b, target + at);
	free(s.v);
	return buf_take(&b);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

/* The password as libpq reads it: percent-decoded (URI), or without quotes
 * and escapes (key=value). */
static char *decoded(const char *t, const struct span *sp, bool uri)
{
	struct buf b = { 0 };
	const char *p = t + sp->from, *e = t + sp->to;
	if (!uri && p < e && *p == '\'') {
		p++;
		if (e > p && e[-1] == '\'')
			e--;
	}
	while (p < e) {
		int h, l;
		if (uri && *p == '%' && e - p >= 3 && (h = hexval(p[1])) >= 0 && (l = hexval(p[2])) >= 0) {
			buf_putc(&b, (char)(h * 16 + l));
			p += 3;
		} else if (!uri && *p == '\\' && p + 1 < e) {
			buf_putc(&b, p[1]);
			p += 2;
		} else {
			buf_putc(&b, *p++);
		}
	}
	return buf_take(&b);
}

/* Replace every occurrence of needle in *text by the mask. */
static void mask_all(char **text, const char *needle)
{
	size_t n = strlen(needle);
	if (n == 0 || !strstr(*text, needle))
		return;
	struct buf b = { 0 };
	const char *p = *text, *hit;
	while ((hit = strstr(p, needle)) != NULL) {
		buf_append(&b, p, (size_t)(hit - p));
		buf_puts(&b, MASK);
		p = hit + n;
	}
	buf_puts(&b, p);
	free(*text);
	*text = buf_take(&b);
}

char *xd_conninfo_scrub(const char *target, const char *text)
{
	char *out = xstrdup(text ? text : "");
	if (!target)
		return out;
	char *shown = xd_conninfo_redact(target);
	if (strcmp(shown, target) != 0 && strstr(out, target)) {
		/* the whole string quoted: show its redacted form */
		struct buf b = { 0 };
		const char *p = out, *hit;
		while ((hit = strstr(p, target)) != NULL) {
			buf_append(&b, p, (size_t)(hit - p));
			buf_puts(&b, shown);
			p = hit + strlen(target);
		}
		buf_puts(&b, p);
		free(out);
		out = buf_take(&b);
	}
	free(shown);
	struct spans s = find_spans(target);
	bool uri = is_uri(target);
	for (size_t i = 0; i < s.n; i++) {
		char *raw = xstrndup(target + s.v[i].from, s.v[i].to - s.v[i].from);
		char *dec = decoded(target, &s.v[i], uri);
		mask_all(&out, raw);
		mask_all(&out, dec);
		xfree_secret(raw);
		xfree_secret(dec);
	}
	free(s.v);
	return out;
}
