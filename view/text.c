/*
 * Width of text in terminal columns. The text is decoded as UTF-8 here (not
 * with mbrtowc, so it works whatever LC_CTYPE is); each code point is measured
 * with the C library's wcwidth() when that knows it (a UTF-8 LC_CTYPE, as the
 * TUI sets, so widths agree with what ncursesw draws), else with a small
 * table of the zero-width and double-width ranges (the "C" locale of a CLI
 * run, where wcwidth() knows no character above U+007F). Invalid bytes and
 * control characters count one column: they are printed as a replacement
 * character after sanitising.
 */
#include "view/view.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "util/util.h"

/* Decode one UTF-8 sequence; returns its length (1 for an invalid byte, with
 * *cp = U+FFFD) and never reads past the NUL. */
static size_t utf8_next(const unsigned char *s, uint32_t *cp)
{
	uint32_t v;
	size_t n, i;

	if (s[0] < 0x80) { *cp = s[0]; return 1; }
	if (s[0] >= 0xC2 && s[0] <= 0xDF) { n = 2; v = s[0] & 0x1F; }
	else if (s[0] >= 0xE0 && s[0] <= 0xEF) { n = 3; v = s[0] & 0x0F; }
	else if (s[0] >= 0xF0 && s[0] <= 0xF4) { n = 4; v = s[0] & 0x07; }
	else { *cp = 0xFFFD; return 1; }
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80) { *cp = 0xFFFD; return 1; }
		v = (v << 6) | (s[i] & 0x3F);
	}
	if ((n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 || v > 0x10FFFF)) ||
	    (v >= 0xD800 && v <= 0xDFFF)) {
		*cp = 0xFFFD;
		return 1;
	}
	*cp = v;
	return n;
}

struct range { uint32_t lo, hi; };

/* Combining marks and format characters that take no column. */
static const struct range zero_width[] = {
	{0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A},
	{0x064B, 0x065F}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x1AB0, 0x1AFF},
	{0x1DC0, 0x1DFF}, {0x200B, 0x200F}, {0x202A, 0x202E}, {0x2060, 0x2064},
	{0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF},
	{0xE0100, 0xE01EF},
};

/* East Asian wide and fullwidth characters, and emoji presentation. */
static const struct range double_width[] = {
	{0x1100, 0x115F}, {0x231A, 0x231B}, {0x2329, 0x232A}, {0x23E9, 0x23EC},
	{0x23F0, 0x23F0}, {0x23F3, 0x23F3}, {0x25FD, 0x25FE}, {0x2614, 0x2615},
	{0x2648, 0x2653}, {0x267F, 0x267F}, {0x2693, 0x2693}, {0x26A1, 0x26A1},
	{0x26AA, 0x26AB}, {0x26BD, 0x26BE}, {0x26C4, 0x26C5}, {0x26CE, 0x26CE},
	{0x26D4, 0x26D4}, {0x26EA, 0x26EA}, {0x26F2, 0x26F3}, {0x26F5, 0x26F5},
	{0x26FA, 0x26FA}, {0x26FD, 0x26FD}, {0x2705, 0x2705}, {0x270A, 0x270B},
	{0x2728, 0x2728}, {0x274C, 0x274C}, {0x274E, 0x274E}, {0x2753, 0x2755},
	{0x2757, 0x2757}, {0x2795, 0x2797}, {0x27B0, 0x27B0}, {0x27BF, 0x27BF},
	{0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55}, {0x2E80, 0x303E},
	{0x3041, 0x33FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xA000, 0xA4CF},
	{0xA960, 0xA97F}, {0xAC00, 0xD7A3}, {0xF900, 0xFAFF}, {0xFE10, 0xFE19},
	{0xFE30, 0xFE6F}, {0xFF00, 0xFF60}, {0xFFE0, 0xFFE6}, {0x1F004, 0x1F004},
	{0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251},
	{0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F7E0, 0x1F7EB}, {0x1F90C, 0x1F9FF},
	{0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

static bool in_ranges(const struct range *r, size_t n, uint32_t cp)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (cp < r[mid].lo)
			hi = mid;
		else if (cp > r[mid].hi)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

int view_char_width(uint32_t cp)
{
	int w;

	if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
		return 1; /* shown as a replacement character */
	if (cp < 0x7F)
		return 1;
	w = wcwidth((wchar_t)cp);
	if (w >= 0)
		return w;
	if (in_ranges(zero_width, sizeof zero_width / sizeof zero_width[0], cp))
		return 0;
	if (in_ranges(double_width, sizeof double_width / sizeof double_width[0], cp))
		return 2;
	return 1;
}

size_t view_text_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s != NULL ? s : "");
	size_t w = 0;

	while (*p != '\0') {
		uint32_t cp;
		if (*p >= 0x20 && *p < 0x7F) { /* printable ASCII: one column */
			w++;
			p++;
			continue;
		}
		p += utf8_next(p, &cp);
		w += (size_t)view_char_width(cp);
	}
	return w;
}

char *view_text_cut(const char *s, size_t cols, bool ascii)
{
	const unsigned char *p = (const unsigned char *)(s != NULL ? s : "");
	const char *mark = ascii ? "~" : "\u2026";
	struct buf b = {0};
	size_t w = 0;

	if (view_text_width(s) <= cols)
		return xstrdup(s != NULL ? s : "");
	if (cols == 0)
		return xstrdup("");
	while (*p != '\0') {
		uint32_t cp;
		size_t n = utf8_next(p, &cp);
		size_t cw = (size_t)view_char_width(cp);

		if (w + cw > cols - 1)
			break;
		buf_append(&b, p, n);
		w += cw;
		p += n;
	}
	buf_puts(&b, mark);
	return buf_take(&b);
}
