/*
 * Cell buffers: text decoded once into grapheme-sized cells that know their
 * width in terminal columns, their colour role and attributes (htop's
 * RichString, without its fixed maximum length). Widths come from
 * view_char_width() (wcwidth under the TUI's UTF-8 LC_CTYPE, a built-in table
 * otherwise) so the CLI's tables and the TUI agree. A zero-width code point
 * (a combining mark, a variation selector) joins the previous cell, up to
 * WCELL_CHARS code points per cell; more are dropped. Nothing here calls
 * curses except wcells_draw()/wui_fill() at the end of the file.
 */
#include "widgets/widgets.h"

#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "i18n/i18n.h"
#include "util/util.h"
#include "view/view.h"

void wcells_init(struct wcells *c, bool ascii)
{
	memset(c, 0, sizeof *c);
	c->ascii = ascii;
}

void wcells_reset(struct wcells *c)
{
	c->len = 0;
	c->width = 0;
}

void wcells_free(struct wcells *c)
{
	free(c->cell);
	c->cell = NULL;
	c->len = c->cap = 0;
	c->width = 0;
}

static struct wcell *push(struct wcells *c)
{
	if (c->len == c->cap) {
		c->cell = xreallocarray(c->cell, c->cap ? c->cap * 2 : 32, sizeof *c->cell);
		c->cap = c->cap ? c->cap * 2 : 32;
	}
	struct wcell *x = &c->cell[c->len++];
	memset(x, 0, sizeof *x);
	return x;
}

/* Decode one UTF-8 sequence (at most n bytes); returns its length and the
 * code point, U+FFFD with length 1 for an invalid byte. */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t v;
	size_t len, i;

	if (s[0] < 0x80) { *cp = s[0]; return 1; }
	if (s[0] >= 0xC2 && s[0] <= 0xDF) { len = 2; v = s[0] & 0x1F; }
	else if (s[0] >= 0xE0 && s[0] <= 0xEF) { len = 3; v = s[0] & 0x0F; }
	else if (s[0] >= 0xF0 && s[0] <= 0xF4) { len = 4; v = s[0] & 0x07; }
	else { *cp = 0xFFFD; return 1; }
	if (len > n) { *cp = 0xFFFD; return 1; }
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80) { *cp = 0xFFFD; return 1; }
		v = (v << 6) | (s[i] & 0x3F);
	}
	if ((len == 3 && v < 0x800) || (len == 4 && (v < 0x10000 || v > 0x10FFFF)) ||
	    (v >= 0xD800 && v <= 0xDFFF)) {
		*cp = 0xFFFD;
		return 1;
	}
	*cp = v;
	return len;
}

static bool is_control(uint32_t cp)
{
	return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) ||
	       cp == 0x2028 || cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

static void add_cp(struct wcells *c, uint32_t cp, enum wrole role, unsigned attrs)
{
	int w;

	if (cp == '\t' || cp == '\n' || cp == '\r')
		cp = ' ';
	else if (is_control(cp))
		cp = c->ascii ? '?' : 0xFFFD;
	if (c->ascii && cp >= 0x80)
		cp = '?';
	w = view_char_width(cp);
	if (w == 0) {
		/* joins the previous cluster; a mark with nothing before it is dropped */
		if (c->len == 0)
			return;
		struct wcell *prev = &c->cell[c->len - 1];
		for (size_t i = 1; i < WCELL_CHARS; i++) {
			if (prev->ch[i] == 0) {
				prev->ch[i] = (wchar_t)cp;
				if (i + 1 < WCELL_CHARS)
					prev->ch[i + 1] = 0;
				return;
			}
		}
		return;
	}
	struct wcell *x = push(c);
	x->ch[0] = (wchar_t)cp;
	x->width = (uint8_t)(w > 2 ? 2 : w);
	x->role = (uint8_t)role;
	x->attrs = (uint8_t)attrs;
	c->width += x->width;
}

void wcells_addn(struct wcells *c, const char *utf8, size_t bytes, enum wrole role, unsigned attrs)
{
	const unsigned char *p;
	char *tr = NULL;
	size_t n;

	if (utf8 == NULL)
		return;
	n = strnlen(utf8, bytes);
	if (c->ascii) {
		bool plain = true;
		for (size_t i = 0; i < n; i++)
			if ((unsigned char)utf8[i] >= 0x80)
				plain = false;
		if (!plain) {
			char *cut = xstrndup(utf8, n);
			tr = i18n_ascii(cut);
			free(cut);
			utf8 = tr;
			n = strlen(tr);
		}
	}
	p = (const unsigned char *)utf8;
	while (n > 0) {
		uint32_t cp;
		size_t k = utf8_decode(p, n, &cp);
		add_cp(c, cp, role, attrs);
		p += k;
		n -= k;
	}
	free(tr);
}

void wcells_add(struct wcells *c, const char *utf8, enum wrole role, unsigned attrs)
{
	if (utf8 != NULL)
		wcells_addn(c, utf8, strlen(utf8), role, attrs);
}

void wcells_add_sym(struct wcells *c, enum wsym s, enum wrole role, unsigned attrs)
{
	wcells_add(c, wsym(s, c->ascii), role, attrs);
}

void wcells_pad(struct wcells *c, int n, enum wrole role)
{
	for (int i = 0; i < n; i++)
		add_cp(c, ' ', role, 0);
}

void wcells_cat(struct wcells *dst, const struct wcells *src)
{
	for (size_t i = 0; i < src->len; i++) {
		struct wcell *x = push(dst);
		*x = src->cell[i];
		dst->width += x->width;
	}
}

/* Insert n spaces at the front. */
static void pad_front(struct wcells *c, int n, enum wrole role)
{
	size_t old = c->len;

	if (n <= 0)
		return;
	for (int i = 0; i < n; i++)
		push(c);
	memmove(c->cell + n, c->cell, old * sizeof *c->cell);
	for (int i = 0; i < n; i++) {
		memset(&c->cell[i], 0, sizeof c->cell[i]);
		c->cell[i].ch[0] = L' ';
		c->cell[i].width = 1;
		c->cell[i].role = (uint8_t)role;
	}
	c->width += n;
}

void wcells_fit(struct wcells *c, int width, enum walign align, enum wrole pad_role)
{
	if (width <= 0) {
		wcells_reset(c);
		return;
	}
	if (c->width > width) {
		/* keep cells while they and the ellipsis fit */
		int used = 0;
		size_t keep = 0;
		enum wrole last_role = c->len ? (enum wrole)c->cell[0].role : pad_role;
		unsigned last_attrs = c->len ? c->cell[0].attrs : 0;
		while (keep < c->len && used + c->cell[keep].width <= width - 1) {
			used += c->cell[keep].width;
			last_role = (enum wrole)c->cell[keep].role;
			last_attrs = c->cell[keep].attrs;
			keep++;
		}
		c->len = keep;
		c->width = used;
		wcells_add_sym(c, WSYM_ELLIPSIS, last_role, last_attrs);
		/* a double-width character could not have been kept past width - 1,
		 * so only padding can be missing now */
		if (c->width < width)
			wcells_pad(c, width - c->width, pad_role);
		return;
	}
	int gap = width - c->width;
	switch (align) {
	case WALIGN_RIGHT:
		pad_front(c, gap, pad_role);
		break;
	case WALIGN_CENTER:
		pad_front(c, gap / 2, pad_role);
		wcells_pad(c, gap - gap / 2, pad_role);
		break;
	default:
		wcells_pad(c, gap, pad_role);
		break;
	}
}

void wcells_recolor(struct wcells *c, enum wrole role, const enum wrole *keep, size_t n_keep)
{
	for (size_t i = 0; i < c->len; i++) {
		bool k = false;
		for (size_t j = 0; j < n_keep; j++)
			if (c->cell[i].role == keep[j])
				k = true;
		if (!k)
			c->cell[i].role = (uint8_t)role;
	}
}

static void put_utf8(struct buf *b, uint32_t cp)
{
	char s[4];

	if (cp < 0x80) {
		buf_putc(b, (char)cp);
	} else if (cp < 0x800) {
		s[0] = (char)(0xC0 | (cp >> 6));
		s[1] = (char)(0x80 | (cp & 0x3F));
		buf_append(b, s, 2);
	} else if (cp < 0x10000) {
		s[0] = (char)(0xE0 | (cp >> 12));
		s[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		s[2] = (char)(0x80 | (cp & 0x3F));
		buf_append(b, s, 3);
	} else {
		s[0] = (char)(0xF0 | (cp >> 18));
		s[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		s[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		s[3] = (char)(0x80 | (cp & 0x3F));
		buf_append(b, s, 4);
	}
}

char *wcells_text(const struct wcells *c)
{
	struct buf b = {0};

	for (size_t i = 0; i < c->len; i++)
		for (size_t j = 0; j < WCELL_CHARS && c->cell[i].ch[j] != 0; j++)
			put_utf8(&b, (uint32_t)c->cell[i].ch[j]);
	return buf_take(&b);
}

int wtext_width(const char *utf8, bool ascii)
{
	struct wcells c;
	int w;

	wcells_init(&c, ascii);
	wcells_add(&c, utf8, WR_NORMAL, 0);
	w = c.width;
	wcells_free(&c);
	return w;
}

/* ---- wrapping ------------------------------------------------------------- */

static void lines_push(char ***lines, size_t *n, size_t *cap, char *s)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		*lines = xreallocarray(*lines, *cap, sizeof **lines);
	}
	(*lines)[(*n)++] = s;
}

static bool is_ccy(const wchar_t *ch)
{
	return ch[0] == L'$' || ch[0] == L'\u20ac' || ch[0] == L'\u00a3';
}

/* Whether the space at j holds a money sign to its figure ("US$ 4,19",
 * "4,19 $", "4,19 US$", "-US$ 2,00"): no line is broken there. */
static bool binds(const struct wcells *c, size_t j)
{
	const wchar_t *prev, *next;

	if (j == 0 || j + 1 >= c->len)
		return false;
	prev = c->cell[j - 1].ch;
	next = c->cell[j + 1].ch;
	if (is_ccy(prev))
		return iswdigit((wint_t)next[0]) || next[0] == L'-' || next[0] == L'\u2212';
	if (!iswdigit((wint_t)prev[0]))
		return false;
	if (is_ccy(next))
		return true;
	/* "US$" after a figure (es "4,19 US$") */
	return next[0] == L'U' && j + 3 < c->len && c->cell[j + 2].ch[0] == L'S' &&
	       is_ccy(c->cell[j + 3].ch);
}

/* Wrap one paragraph (no newlines) of cells. */
static void wrap_para(const struct wcells *c, int width, char ***lines, size_t *n, size_t *cap)
{
	size_t i = 0;

	if (c->len == 0) {
		lines_push(lines, n, cap, xstrdup(""));
		return;
	}
	while (i < c->len) {
		/* skip leading spaces of a continuation line */
		if (i > 0)
			while (i < c->len && c->cell[i].ch[0] == L' ')
				i++;
		if (i >= c->len)
			break;
		size_t j = i, brk = 0;
		int w = 0;
		while (j < c->len && w + c->cell[j].width <= width) {
			w += c->cell[j].width;
			j++;
			if (j < c->len && c->cell[j].ch[0] == L' ' && !binds(c, j))
				brk = j;
		}
		if (j < c->len && brk > i)
			j = brk;            /* break at the last space */
		if (j == i)
			j = i + 1;          /* a character wider than the line */
		struct wcells part = { .cell = c->cell + i, .len = j - i };
		lines_push(lines, n, cap, wcells_text(&part));
		i = j;
	}
}

size_t wtext_wrap(const char *utf8, int width, bool ascii, char ***lines)
{
	size_t n = 0, cap = 0;
	const char *p = utf8 ? utf8 : "";
	struct wcells c;

	*lines = NULL;
	if (width < 1)
		width = 1;
	wcells_init(&c, ascii);
	for (;;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		wcells_reset(&c);
		wcells_addn(&c, p, len, WR_NORMAL, 0);
		wrap_para(&c, width, lines, &n, &cap);
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	wcells_free(&c);
	return n;
}

void wtext_lines_free(char **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

/* ---- drawing ---------------------------------------------------------------- */

static attr_t cell_attr(const struct wui *ui, const struct wcell *x, short *pair)
{
	attr_t a = ui->attr[x->role < WR_COUNT ? x->role : WR_NORMAL];

	*pair = ui->pair[x->role < WR_COUNT ? x->role : WR_NORMAL];
	if (x->attrs & WAT_BOLD)
		a |= A_BOLD;
	if (x->attrs & WAT_UNDERLINE)
		a |= A_UNDERLINE;
	if (x->attrs & WAT_REVERSE)
		a |= A_REVERSE;
	if (x->attrs & WAT_DIM)
		a |= A_DIM;
	return a;
}

void wcells_draw(const struct wcells *c, WINDOW *win, int y, int x, int maxw, const struct wui *ui)
{
	int used = 0;

	if (win == NULL || maxw <= 0)
		return;
	wmove(win, y, x);
	for (size_t i = 0; i < c->len; i++) {
		const struct wcell *cell = &c->cell[i];
		cchar_t cc;
		short pair;
		attr_t a;

		if (used + cell->width > maxw)
			break;
		a = cell_attr(ui, cell, &pair);
		setcchar(&cc, cell->ch, a, pair, NULL);
		/* the last column of the last line returns ERR but is drawn */
		wadd_wch(win, &cc);
		used += cell->width;
	}
}

void wui_fill(const struct wui *ui, WINDOW *win, int y, int x, int n, enum wrole role)
{
	struct wcells c;

	if (n <= 0 || win == NULL)
		return;
	wcells_init(&c, true);
	wcells_pad(&c, n, role);
	wcells_draw(&c, win, y, x, n, ui);
	wcells_free(&c);
}
