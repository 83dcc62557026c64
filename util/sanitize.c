/*
 * Text that came over the network is made safe for a terminal before it is
 * drawn: a hostile exchange must not be able to move the cursor, change the
 * title or ring the bell. Like tmux's utf8_sanitize, but keeping valid UTF-8.
 */
#include "util.h"

#include <string.h>

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid. */
static size_t utf8_valid_len(const unsigned char *s, size_t avail, unsigned *cp)
{
	unsigned c = s[0];
	size_t n;
	unsigned v;

	if (c < 0x80) { *cp = c; return 1; }
	if (c >= 0xC2 && c <= 0xDF) { n = 2; v = c & 0x1F; }
	else if (c >= 0xE0 && c <= 0xEF) { n = 3; v = c & 0x0F; }
	else if (c >= 0xF0 && c <= 0xF4) { n = 4; v = c & 0x07; }
	else return 0;
	if (avail < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3F);
	}
	if ((n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 || v > 0x10FFFF)) ||
	    (v >= 0xD800 && v <= 0xDFFF))
		return 0;
	*cp = v;
	return n;
}

char *util_sanitize(const char *s, size_t max_bytes, bool ascii)
{
	struct buf b = {0};
	const unsigned char *p = (const unsigned char *)s;
	size_t avail = s ? strnlen(s, max_bytes) : 0;
	const char *bad = ascii ? "?" : "\xEF\xBF\xBD";

	while (avail > 0) {
		unsigned cp;
		size_t n = utf8_valid_len(p, avail, &cp);
		if (n == 0) {
			buf_puts(&b, bad);
			n = 1;
		} else if (cp == '\t' || cp == '\n' || cp == '\r') {
			buf_putc(&b, ' ');
		} else if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) ||
			   cp == 0x2028 || cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E) ||
			   (cp >= 0x2066 && cp <= 0x2069)) {
			/* controls, line separators and bidi overrides */
			buf_puts(&b, bad);
		} else if (ascii && cp >= 0x80) {
			buf_putc(&b, '?');
		} else {
			buf_append(&b, p, n);
		}
		p += n;
		avail -= n;
	}
	return buf_take(&b);
}
