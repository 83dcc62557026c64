/*
 * Allocation that cannot fail, fatal errors, and the cause convention.
 * Out of memory is handled in exactly one place: fatal(), which restores the
 * terminal through the hook before it prints.
 */
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void (*fatal_hook)(void);

void util_set_fatal_hook(void (*hook)(void)) { fatal_hook = hook; }

_Noreturn void fatal(const char *fmt, ...)
{
	void (*hook)(void) = fatal_hook;
	va_list ap;

	fatal_hook = NULL; /* a hook that fails must not recurse */
	if (hook != NULL)
		hook();
	fputs("gpux: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(70);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (p == NULL)
		fatal("out of memory (%zu bytes)", size);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (p == NULL)
		fatal("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);
	if (q == NULL)
		fatal("out of memory (%zu bytes)", size);
	return q;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		fatal("out of memory (%zu x %zu bytes)", n, size);
	return xrealloc(p, n * size);
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;
	if (vasprintf(&s, fmt, ap) < 0)
		fatal("out of memory (format)");
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

int set_cause(char **cause, const char *fmt, ...)
{
	va_list ap;
	if (cause != NULL) {
		va_start(ap, fmt);
		*cause = xvasprintf(fmt, ap);
		va_end(ap);
	}
	return -1;
}

void xfree_secret(char *s)
{
	if (s == NULL)
		return;
	explicit_bzero(s, strlen(s));
	free(s);
}
