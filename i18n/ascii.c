/*
 * Transliteration of UTF-8 text to ASCII for terminals and locales that are
 * not UTF-8. Covers what gpux prints: the formatter's symbols (≈, €, £,
 * no-break spaces), the letters of the six languages (base letter without
 * its diacritic: readable in every one of them, if not elegant in German),
 * typographic punctuation and the table's markers. Anything else becomes
 * "?", one per character; invalid UTF-8 one "?" per byte.
 */
#include "i18n/i18n.h"
#include "util/util.h"

#include <string.h>

/* U+00C0..U+00FF */
static const char *const latin1[64] = {
	"A", "A", "A", "A", "A", "A", "AE", "C", "E", "E", "E", "E", "I", "I", "I", "I",
	"D", "N", "O", "O", "O", "O", "O", "x", "O", "U", "U", "U", "U", "Y", "TH", "ss",
	"a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
	"d", "n", "o", "o", "o", "o", "o", "/", "o", "u", "u", "u", "u", "y", "th", "y",
};

/* Decode one UTF-8 sequence at p (n bytes available); returns its length and
 * the code point, or 0 for an invalid sequence. */
static size_t decode(const unsigned char *p, size_t n, uint32_t *cp)
{
	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	size_t len;
	uint32_t c, min;
	if ((p[0] & 0xe0) == 0xc0)
		len = 2, c = p[0] & 0x1f, min = 0x80;
	else if ((p[0] & 0xf0) == 0xe0)
		len = 3, c = p[0] & 0x0f, min = 0x800;
	else if ((p[0] & 0xf8) == 0xf0)
		len = 4, c = p[0] & 0x07, min = 0x10000;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

static const char *map(uint32_t c)
{
	if (c >= 0xc0 && c <= 0xff)
		return latin1[c - 0xc0];
	switch (c) {
	case 0xa0: case 0x2002: case 0x2003: case 0x2004: case 0x2005: case 0x2006:
	case 0x2007: case 0x2008: case 0x2009: case 0x200a: case 0x202f:
		return " ";
	case 0x200b: case 0x2060: case 0xfeff: /* zero-width */
		return "";
	case 0x2248: return "~";
	case 0x20ac: return "EUR";
	case 0xa3: return "GBP";
	case 0xa5: return "JPY";
	case 0xab: case 0xbb: case 0x201c: case 0x201d: case 0x201e: return "\"";
	case 0x2018: case 0x2019: case 0x201a: case 0x2032: return "'";
	case 0x2010: case 0x2011: case 0x2012: case 0x2013: case 0x2014: case 0x2015:
	case 0x2212:
		return "-";
	case 0x2026: return "...";
	case 0xb7: return "|";          /* a separator: "*" is a marker */
	case 0x2022: return "*";
	case 0xb0: return "o";
	case 0xd7: return "x";
	case 0x2039: case 0x2190: return "<";
	case 0x203a: case 0x2192: return ">";
	case 0x25b2: case 0x2191: return "^";
	case 0x25bc: case 0x2193: return "v";
	case 0x2264: return "<=";
	case 0x2265: return ">=";
	case 0x152: return "OE";
	case 0x153: return "oe";
	case 0x178: return "Y";
	default: return NULL;
	}
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

char *i18n_ascii(const char *utf8)
{
	struct buf b = {0};
	if (utf8 == NULL)
		return buf_take(&b);
	const unsigned char *p = (const unsigned char *)utf8;
	size_t n = strlen(utf8);
	size_t i = 0;
	while (i < n) {
		uint32_t c;
		size_t l = decode(p + i, n - i, &c);
		if (l == 0) {
			buf_putc(&b, '?');
			i++;
			continue;
		}
		i += l;
		if (c < 0x80) {
			buf_putc(&b, (char)c);
			continue;
		}
		const char *m = map(c);
		if (m == NULL) {
			buf_putc(&b, '?');
			continue;
		}
		bool symbol = c == 0x20ac || c == 0xa3 || c == 0xa5;
		if (c == 0xa3 && n - i >= 2 && p[i] == 'G' && p[i + 1] == 'B')
			i += 2;   /* French "£GB" is GBP too */
		if (symbol && b.len > 0 && is_digit(b.data[b.len - 1]))
			buf_putc(&b, ' ');
		buf_puts(&b, m);
		if (symbol && i < n && (is_digit(p[i]) || p[i] == '-'))
			buf_putc(&b, ' ');
	}
	return buf_take(&b);
}
