/*
 * util — the few things every other folder needs: allocation that cannot
 * fail (out of memory aborts through one path, after restoring the terminal;
 * util/xmalloc.c), a growable byte buffer (buf.c), sanitising text that came
 * over the network (sanitize.c), the files embedded into the binaries at
 * build time, reading a file (file.c), the monotonic clock (clock.c), libraries opened
 * at run time (dynlib.c), the ISO 4217 minor units of currencies (currency.c), and
 * error messages handed back through a `char **cause`.
 *
 * Error convention of the whole project: a function that can fail for a
 * reason a user should read returns 0 on success and -1 on failure, and on
 * failure stores a malloc'ed, human-readable message in *cause (the caller
 * frees it). Out of memory is not such a reason: it aborts via fatal().
 */
#ifndef GPUX_UTIL_H
#define GPUX_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- allocation: never returns NULL ------------------------------------ */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
/* Grow an array of n elements of size `size` to at least `want`, doubling. */
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap);
/* Free a secret (an API key, a line holding one), its bytes wiped first
 * (explicit_bzero, which the compiler keeps); NULL is nothing. */
void xfree_secret(char *s);

/* ---- fatal errors ------------------------------------------------------- */
/* A hook run once before a fatal exit, e.g. to restore the terminal (endwin).
 * Only one hook; setting it again replaces it. */
void util_set_fatal_hook(void (*hook)(void));
/* Runs the hook, prints "gpux: <message>" to stderr, exits with status 70. */
_Noreturn void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Store a formatted message in *cause (if cause is not NULL) and return -1,
 * so error paths read `return set_cause(cause, "bad %s", x);`. */
int set_cause(char **cause, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- growable buffer ---------------------------------------------------- */
/* Always NUL-terminated after any append (data may be NULL while len == 0). */
struct buf {
	char *data;
	size_t len;
	size_t cap;
};
void buf_append(struct buf *b, const void *data, size_t len);
void buf_puts(struct buf *b, const char *s);
void buf_putc(struct buf *b, char c);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Give the contents to the caller (never NULL; "" when empty); b is reset. */
char *buf_take(struct buf *b);
void buf_reset(struct buf *b);
void buf_free(struct buf *b);

/* ---- text from outside ---------------------------------------------------- */
/* Return a malloc'ed copy of `s` that is safe to print on a terminal: valid
 * UTF-8 kept, C0/C1 control characters (ESC, CR, BEL, DEL, U+0080..U+009F)
 * and invalid bytes replaced by U+FFFD ("?" when ascii is true), tabs and
 * newlines by a space. At most max_bytes bytes of input are read. */
char *util_sanitize(const char *s, size_t max_bytes, bool ascii);

/* ---- embedded files ------------------------------------------------------ */
/* Files compiled into the binary at build time (the JSON files of data/, the message
 * catalogues), by path relative to the source tree, e.g. "data/gpus.json" or
 * "i18n/pt_PT.mo". Returns NULL if no such file is embedded. The memory is
 * static and read-only. */
const unsigned char *assets_find(const char *path, size_t *len);

/* ---- files (util/file.c) -------------------------------------------------- */
/* Read a whole file into a malloc'ed NUL-terminated buffer; -1 and *cause on
 * failure (cause names the path and the reason). */
int util_read_file(const char *path, char **out, size_t *len, char **cause);
/* Write data[0..len) to path atomically: a temporary file beside it, synced,
 * renamed over it, with mode (0644, 0600). 0, or -1 and *cause naming the
 * path and the reason (nothing replaced then). */
int util_write_file(const char *path, const void *data, size_t len, int mode, char **cause);
/* data[0..len) in base64 (RFC 4648, padded), malloc'ed. */
char *util_base64(const void *data, size_t len);

/* ---- clocks (util/clock.c) ------------------------------------------------ */
/* Monotonic clock in milliseconds and microseconds. */
int64_t util_now_ms(void);
int64_t util_now_us(void);

/* ---- libraries opened at run time (util/dynlib.c) --------------------------- */
/* One function of a library opened by util_dynlib_open(): its name, and the
 * address of the function pointer to fill, declared with the function's own
 * type so that every call through it is type-checked:
 *
 *     static struct { __typeof__(PQfinish) *PQfinish; } pq;
 *     static const struct dynlib_fn fns[] = { { "PQfinish", &pq.PQfinish } };
 */
struct dynlib_fn {
	const char *name;
	void *slot;
};
/* Opens the first library of `sonames` (NULL-terminated, e.g. {"libpq.so.5",
 * NULL}) that loads and has every function of fns[0..n), and fills their
 * slots. All or nothing: on failure no slot changes, -1 and *cause says which
 * library or function was missing. The library stays loaded for the life of
 * the process. Callers run it once per table (pthread_once). */
int util_dynlib_open(const char *const *sonames, const struct dynlib_fn *fns, size_t n,
                     char **cause);

/* ISO 4217: the minor-unit digits of currency code ("JPY" 0, "EUR" 2, "KWD" 3,
 * "CLF" 4), from the standard's list of active codes whose minor unit is not
 * 2 (https://www.six-group.com/en/products-services/financial-information/
 * data-standards.html, list one); 2 for any other three-letter code, -1 for
 * what is not three ASCII letters. Upper case only. */
int util_ccy_exponent(const char *code);

#endif
