/*
 * Unit tests of widgets/ without a terminal: the cell buffer (widths in
 * columns, cutting with "…" never mid-character, grapheme clusters, control
 * characters, the ASCII fallback), the table's pure layout (which columns a
 * width shows, where the ‹ › markers go, the frozen column), a table row and
 * header rendered exactly as drawn (a pinned price column too), tabs with
 * short titles, the status bar and its priorities, the help generated
 * from key maps (and wrapped to its box), wrapping and the line editor
 * behind the text field.
 */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "widgets/widgets.h"
#include "util/util.h"

static struct wui UI, UI_ASCII;

static char *fit_text(const char *s, int width, enum walign a, bool ascii)
{
	struct wcells c;
	wcells_init(&c, ascii);
	wcells_add(&c, s, WR_NORMAL, 0);
	wcells_fit(&c, width, a, WR_NORMAL);
	assert_int_equal(c.width, width);
	char *r = wcells_text(&c);
	wcells_free(&c);
	return r;
}

static void test_cells_width(void **state)
{
	(void)state;
	assert_int_equal(wtext_width("H200", false), 4);
	/* "≈ 10 mil M" is 10 columns, 12 bytes */
	assert_int_equal(wtext_width("\u2248 10 mil M", false), 10);
	assert_int_equal(wtext_width("N\u00e3o publicado", false), 13);
	/* a combining acute accent joins the "e": one cell, one column */
	struct wcells c;
	wcells_init(&c, false);
	wcells_add(&c, "e\u0301", WR_NORMAL, 0);
	assert_int_equal(c.len, 1);
	assert_int_equal(c.width, 1);
	wcells_reset(&c);
	/* double-width CJK */
	wcells_add(&c, "\u65e5\u672c", WR_NORMAL, 0);
	assert_int_equal(c.width, 4);
	wcells_free(&c);
}

static void test_cells_cut(void **state)
{
	(void)state;
	char *s = fit_text("N\u00e3o publicado", 8, WALIGN_LEFT, false);
	assert_string_equal(s, "N\u00e3o pub\u2026");
	free(s);
	/* never mid-character: 日本語 in 4 columns is "日…" and a space */
	s = fit_text("\u65e5\u672c\u8a9e", 4, WALIGN_LEFT, false);
	assert_string_equal(s, "\u65e5\u2026 ");
	free(s);
	s = fit_text("4.800 GB/s", 12, WALIGN_RIGHT, false);
	assert_string_equal(s, "  4.800 GB/s");
	free(s);
	s = fit_text("ab", 6, WALIGN_CENTER, false);
	assert_string_equal(s, "  ab  ");
	free(s);
	s = fit_text("abcdef", 1, WALIGN_LEFT, false);
	assert_string_equal(s, "\u2026");
	free(s);
	s = fit_text("abcdef", 4, WALIGN_LEFT, true);
	assert_string_equal(s, "abc~");
	free(s);
}

static void test_cells_sanitise_and_ascii(void **state)
{
	(void)state;
	struct wcells c;
	char *s;

	/* an escape sequence from the network cannot reach the terminal */
	wcells_init(&c, false);
	wcells_add(&c, "a\x1b[2Jb\x07", WR_NORMAL, 0);
	s = wcells_text(&c);
	assert_string_equal(s, "a\ufffd[2Jb\ufffd");
	free(s);
	wcells_free(&c);
	/* invalid UTF-8 */
	wcells_init(&c, false);
	wcells_add(&c, "x\xff\xc3y", WR_NORMAL, 0);
	s = wcells_text(&c);
	assert_string_equal(s, "x\ufffd\ufffdy");
	free(s);
	wcells_free(&c);
	/* ASCII fallback: the seeds' strings transliterated */
	wcells_init(&c, true);
	wcells_add(&c, "\u2248 10 mil M \u00b7 N\u00e3o publicado", WR_NORMAL, 0);
	wcells_add_sym(&c, WSYM_SORT_UP, WR_NORMAL, 0);
	wcells_add(&c, "\x1b", WR_NORMAL, 0);
	s = wcells_text(&c);
	for (const char *p = s; *p; p++)
		assert_true((unsigned char)*p < 0x80);
	assert_non_null(strstr(s, "~ 10 mil M"));
	assert_non_null(strstr(s, "Nao publicado^?"));
	free(s);
	wcells_free(&c);
}

static void test_symbols(void **state)
{
	(void)state;
	static const char *ascii[] = { "^", "v", "<", ">", "+", "x", "~" };
	for (int i = 0; i <= WSYM_ELLIPSIS; i++) {
		assert_string_equal(wsym((enum wsym)i, true), ascii[i]);
		assert_int_equal(wtext_width(wsym((enum wsym)i, false), false), 1);
	}
	assert_string_equal(wsym(WSYM_SORT_DOWN, false), "\u25BC");
}

/* ---- layout ---------------------------------------------------------------------- */

/* Columns of natural widths only (none narrower than its natural width). */
static size_t wtable_layout_nat(const int *nat, size_t n, size_t scroll, int width, int frozen_min,
				size_t pinned, struct wtable_layout *out, int *x, int *w)
{
	struct wtable_cols c = { .nat = nat, .n = n, .frozen_min = frozen_min, .pinned = pinned };

	return wtable_layout(&c, scroll, width, out, x, w);
}

static void test_layout_all_fit(void **state)
{
	(void)state;
	int nat[] = { 20, 10, 10, 10, 10 }, x[5], w[5];
	struct wtable_layout l;
	size_t s = wtable_layout_nat(nat, 5, 1, 80, 0, 0, &l, x, w);

	assert_int_equal(s, 1);
	assert_int_equal(l.first, 1);
	assert_int_equal(l.end, 5);
	assert_false(l.more_left);
	assert_false(l.more_right);
	assert_int_equal(l.left_x, -1);
	assert_int_equal(l.right_x, -1);
	assert_int_equal(x[0], 0);
	assert_int_equal(w[0], 20);
	assert_int_equal(x[1], 20 + WTABLE_FROZEN_GAP);
	assert_int_equal(x[2], x[1] + 10 + WTABLE_GAP);
	assert_int_equal(l.used, x[4] + 10);
}

static void test_layout_scrolling(void **state)
{
	(void)state;
	int nat[] = { 20, 10, 10, 10, 10 }, x[5], w[5];
	struct wtable_layout l;

	/* (a floor of 20: the frozen column is never cut here) */
	/* 40 columns: the GPU column, then column 1; › at the right edge */
	size_t s = wtable_layout_nat(nat, 5, 1, 40, 20, 0, &l, x, w);
	assert_int_equal(s, 1);
	assert_int_equal(l.first, 1);
	assert_int_equal(l.end, 2);
	assert_false(l.more_left);
	assert_true(l.more_right);
	assert_int_equal(l.right_x, 39);
	assert_int_equal(x[2], -1);
	/* scrolled by one: column 2 shown, the GPU column stays, ‹ after it */
	s = wtable_layout_nat(nat, 5, 2, 40, 20, 0, &l, x, w);
	assert_int_equal(s, 2);
	assert_int_equal(x[0], 0);
	assert_int_equal(w[0], 20);
	assert_int_equal(x[1], -1);
	assert_int_equal(x[2], 23);
	assert_true(l.more_left);
	assert_int_equal(l.left_x, 21);
	assert_true(l.more_right);
	/* the last column: no › */
	s = wtable_layout_nat(nat, 5, 4, 40, 20, 0, &l, x, w);
	assert_int_equal(s, 4);
	assert_int_equal(l.end, 5);
	assert_false(l.more_right);
	/* scrolling past the end is clamped */
	s = wtable_layout_nat(nat, 5, 99, 40, 20, 0, &l, x, w);
	assert_int_equal(s, 4);
	/* a wider terminal pulls the columns back into view */
	s = wtable_layout_nat(nat, 5, 3, 200, 20, 0, &l, x, w);
	assert_int_equal(s, 1);
	assert_false(l.more_left);
	assert_false(l.more_right);
}

static void test_layout_narrow(void **state)
{
	(void)state;
	int nat[] = { 24, 12, 9 }, x[3], w[3];
	struct wtable_layout l;

	/* 20 columns (the smallest screen): the frozen column is cut to its
	 * floor (10 here; at most half the width), the first data column shown
	 * cut to what is left */
	wtable_layout_nat(nat, 3, 1, 20, 10, 0, &l, x, w);
	assert_int_equal(w[0], 10);
	assert_int_equal(x[1], 13);
	assert_int_equal(w[1], 20 - 2 - 13);
	assert_true(l.more_right);
	/* tiny widths never crash and never overflow the line */
	for (int width = 0; width <= 30; width++) {
		for (size_t sc = 0; sc < 4; sc++) {
			for (size_t pin = 0; pin < 3; pin++) {
				wtable_layout_nat(nat, 3, sc, width, 13, pin, &l, x, w);
				for (int i = 0; i < 3; i++)
					if (x[i] >= 0)
						assert_true(x[i] + w[i] <= width);
				assert_true(l.right_x < width);
				for (int i = 1; i < 3; i++) /* no overlaps */
					if (x[i] >= 0 && x[i - 1] >= 0)
						assert_true(x[i - 1] + w[i - 1] < x[i]);
			}
		}
	}
	/* one column only */
	int one[] = { 30 };
	wtable_layout_nat(one, 1, 1, 12, 0, 0, &l, x, w);
	assert_int_equal(w[0], 12);
}

static void test_layout_frozen_share(void **state)
{
	(void)state;
	int nat[] = { 30, 10, 10, 10, 10, 10, 10 }, x[7], w[7];
	struct wtable_layout l;

	/* everything fits: the frozen column keeps its natural width */
	wtable_layout_nat(nat, 7, 1, 200, 0, 0, &l, x, w);
	assert_int_equal(w[0], 30);
	assert_false(l.more_right);
	/* columns hidden: it is cut to 30 % of 80 ... */
	wtable_layout_nat(nat, 7, 1, 80, 0, 0, &l, x, w);
	assert_int_equal(w[0], 24);
	assert_int_equal(x[1], 24 + WTABLE_FROZEN_GAP);
	assert_true(l.more_right);
	/* ... but never below its floor (the names' short form) */
	wtable_layout_nat(nat, 7, 1, 80, 27, 0, &l, x, w);
	assert_int_equal(w[0], 27);
	/* a floor wider than the column changes nothing */
	wtable_layout_nat(nat, 7, 1, 80, 45, 0, &l, x, w);
	assert_int_equal(w[0], 30);
	/* cutting it (no more than to 30 %) makes everything fit: no marker,
	 * and it takes what the others leave */
	int nat2[] = { 40, 20, 20 };
	wtable_layout_nat(nat2, 3, 1, 70, 0, 1, &l, x, w);
	assert_int_equal(w[0], 25);
	assert_false(l.more_right);
	assert_int_equal(l.pinned, 0);
	assert_int_equal(x[2], 25 + WTABLE_FROZEN_GAP + 20 + WTABLE_GAP);
	assert_int_equal(x[2] + w[2], 70);
}

/* The columns take the width there is: at their narrowest (the headers
 * without room for a sort indicator) every column fits, the GPU column cut
 * down to its names' short form if need be; what is left widens them back. */
static void test_layout_takes_the_width(void **state)
{
	(void)state;
	/* the first tab at 120 columns: GPU, Memory, Memory type, Bandwidth,
	 * Tensor BF16, Full training 1 GPU / 8 GPUs, Price/h */
	int nat[] = { 22, 8, 13, 13, 13, 22, 23, 9 }, min[] = { 22, 6, 11, 13, 13, 20, 21, 7 };
	int x[8], w[8];
	struct wtable_cols c = { .nat = nat, .min = min, .n = 8, .frozen_min = 12, .pinned = 1,
				 .frozen_yields = true };
	struct wtable_layout l;

	wtable_layout(&c, 1, 120, &l, x, w);
	assert_false(l.more_right);
	assert_int_equal(l.pinned, 0);
	for (int i = 1; i < 8; i++)
		assert_true(x[i] > x[i - 1] && w[i] >= min[i]);
	assert_int_equal(w[0], 120 - WTABLE_FROZEN_GAP - (6 + 11 + 13 + 13 + 20 + 21 + 7) - 6 * WTABLE_GAP);
	assert_int_equal(x[7] + w[7], 120);
	/* 10 columns more: the GPU column gets them first, the rest stays narrowest */
	wtable_layout(&c, 1, 130, &l, x, w);
	assert_int_equal(w[0], 22);
	assert_int_equal(x[7] + w[7], 130);
	assert_int_equal(w[1] + w[2] + w[5] + w[6] + w[7], 6 + 11 + 20 + 21 + 7 + 2);
	/* no floor for the GPU column (0): cut no narrower than 30 % */
	c.frozen_min = 0;
	wtable_layout(&c, 1, 120, &l, x, w);
	assert_true(l.more_right);
	assert_int_equal(w[0], 22);
	/* scrolled: as many as fit at their narrowest (the price pinned),
	 * widened by what is left; the GPU column at its share (22 here) or,
	 * where it yields and that shows one more column, cut by what it
	 * needs, not below its floor: at 100, 8 columns give Full training
	 * 1 GPU room (22 → 14) */
	c.frozen_min = 12;
	wtable_layout(&c, 1, 100, &l, x, w);
	assert_true(l.more_right);
	assert_int_equal(l.pinned, 1);
	assert_int_equal(w[0], 14);
	assert_int_equal(l.end, 6);
	assert_true(w[1] >= 6 && w[2] >= 11 && w[5] >= 20);
	assert_int_equal(x[6], -1);
	/* ... to the marker: no gap before › and the price */
	assert_int_equal(x[5] + w[5], l.right_x - 1);
	/* scrolled on (→): the GPU column keeps its width */
	wtable_layout(&c, 3, 100, &l, x, w);
	assert_int_equal(w[0], 14);
	assert_true(l.more_left);
	/* a floor of 16: 8 columns would cut the names, so the GPU column
	 * keeps its share and Full training 1 GPU stays hidden */
	c.frozen_min = 16;
	wtable_layout(&c, 1, 100, &l, x, w);
	assert_int_equal(w[0], 22);
	assert_int_equal(l.end, 5);
	assert_int_equal(x[5], -1);
	assert_int_equal(x[4] + w[4], l.right_x - 1);
	/* no floor: the share, never less */
	c.frozen_min = 0;
	wtable_layout(&c, 1, 100, &l, x, w);
	assert_int_equal(w[0], 22);
	assert_int_equal(l.end, 5);
	/* a floor but not yielding: the share */
	c.frozen_min = 12;
	c.frozen_yields = false;
	wtable_layout(&c, 1, 100, &l, x, w);
	assert_int_equal(w[0], 22);
	assert_int_equal(l.end, 5);
	assert_int_equal(x[5], -1);
}

/* At tiny widths a number is never cut (1,239… reads as another number):
 * the column is dropped; text may be cut. */
static void test_layout_never_cuts_a_number(void **state)
{
	(void)state;
	int nat[] = { 24, 12, 12 }, min[] = { 24, 10, 10 }, text[] = { 1, 1, 1 }, num[] = { 1, 9, 9 };
	int x[3], w[3];
	struct wtable_cols c = { .nat = nat, .min = min, .floor = num, .n = 3, .frozen_min = 10 };
	struct wtable_layout l;

	/* 20 columns: 10 for the GPU column, 5 left, a 9-column number: dropped */
	wtable_layout(&c, 1, 20, &l, x, w);
	assert_int_equal(w[0], 10);
	assert_int_equal(x[1], -1);
	assert_int_equal(w[1], 0);
	assert_true(l.more_right);
	assert_true(l.right_x < 20);
	/* 24: 9 left, the number fits whole (its header is cut) */
	wtable_layout(&c, 1, 24, &l, x, w);
	assert_int_equal(x[1], 13);
	assert_int_equal(w[1], 9);
	/* a text column is cut to what is left */
	c.floor = text;
	wtable_layout(&c, 1, 20, &l, x, w);
	assert_int_equal(x[1], 13);
	assert_int_equal(w[1], 5);
}

static void test_layout_pinned(void **state)
{
	(void)state;
	int nat[] = { 20, 10, 10, 10, 10, 9 }, x[6], w[6];
	struct wtable_layout l;

	/* 60 columns, the last column pinned: GPU, columns 1 and 2, › and the
	 * pinned column at the right edge */
	size_t s = wtable_layout_nat(nat, 6, 1, 60, 0, 1, &l, x, w);
	assert_int_equal(s, 1);
	assert_int_equal(l.pinned, 1);
	assert_int_equal(l.pin_x, 51);
	assert_int_equal(x[5], 51);
	assert_int_equal(w[5], 9);
	assert_int_equal(x[1], 18 + WTABLE_FROZEN_GAP);   /* GPU cut to 30 % */
	assert_int_equal(l.end, 3);
	assert_int_equal(x[3], -1);
	assert_true(l.more_right);
	assert_int_equal(l.right_x, 49);
	/* scrolled to the end: the pinned column stays where it was, no › */
	s = wtable_layout_nat(nat, 6, 9, 60, 0, 1, &l, x, w);
	assert_int_equal(s, 3);
	assert_int_equal(x[3], 21);
	assert_int_equal(x[5], 51);
	/* what the two columns leave widens them: no gap before the pinned one */
	assert_int_equal(x[4] + w[4], x[5] - WTABLE_FROZEN_GAP);
	assert_true(w[4] - w[3] >= 0 && w[4] - w[3] <= 1);
	assert_true(l.more_left);
	assert_false(l.more_right);
	/* too narrow to pin it and show another column: it scrolls as before */
	wtable_layout_nat(nat, 6, 1, 25, 0, 1, &l, x, w);
	assert_int_equal(l.pinned, 0);
	assert_int_equal(x[5], -1);
	assert_int_equal(l.right_x, 24);
	/* wide enough for all: nothing pinned, the columns in their order */
	wtable_layout_nat(nat, 6, 1, 100, 0, 1, &l, x, w);
	assert_int_equal(l.pinned, 0);
	assert_int_equal(x[5], x[4] + 10 + WTABLE_GAP);
}

/* ---- a table over test data --------------------------------------------------------- */

struct fake {
	const char *head[4];
	const char *cells[3][4];
	size_t rows;
};

static size_t f_rows(void *ctx) { return ((struct fake *)ctx)->rows; }
static size_t f_cols(void *ctx) { (void)ctx; return 4; }
static void f_header(void *ctx, size_t c, struct wcells *out)
{
	wcells_add(out, ((struct fake *)ctx)->head[c], WR_NORMAL, 0);
}
static void f_cell(void *ctx, size_t r, size_t c, struct wcells *out)
{
	const char *s = ((struct fake *)ctx)->cells[r][c];
	wcells_add(out, s, c == 3 && r == 1 ? WR_FLASH : WR_NORMAL, 0);
}
static enum walign f_align(void *ctx, size_t c) { (void)ctx; return c == 0 ? WALIGN_LEFT : WALIGN_RIGHT; }
/* the names are never cut (so the scrolling below is the only change) */
static int f_frozen_min(void *ctx) { (void)ctx; return 20; }

static struct fake FAKE = {
	.head = { "GPU", "Memory", "Bandwidth", "Price/h" },
	.cells = {
		{ "B300 Blackwell Ultra", "288 GB", "Not published", "$8.99" },
		{ "H200 Hopper", "141 GB", "4,800 GB/s", "$4.19" },
		{ "RTX 4090 Ada", "24 GB", "1,008 GB/s", "$0.39" },
	},
	.rows = 3,
};

static struct wtable *fake_table(bool ascii)
{
	struct wtable_source src = { .ctx = &FAKE, .rows = f_rows, .cols = f_cols,
				     .header = f_header, .cell = f_cell, .align = f_align,
				     .frozen_min = f_frozen_min };
	return wtable_new(ascii ? &UI_ASCII : &UI, &src);
}

static char *line_of(struct wtable *t, size_t row, int width, struct wcells *c)
{
	wtable_render_line(t, row, width, c);
	assert_true(c->width <= width);
	return wcells_text(c);
}

static void test_table_render(void **state)
{
	(void)state;
	struct wtable *t = fake_table(false);
	struct wcells c;
	char *s;

	wcells_init(&c, false);
	/* natural widths: the widest of header + 2 (sort indicator) and cells */
	assert_int_equal(t->nat[0], 20);
	assert_int_equal(t->nat[2], 13);
	wtable_set_sort(t, 3, false);
	s = line_of(t, SIZE_MAX, 80, &c);
	/* header: sort indicator ▲ on Price/h, the line padded to the width */
	assert_non_null(strstr(s, "Price/h \u25B2"));
	assert_int_equal(c.width, 80);
	for (size_t i = 0; i < c.len; i++)
		assert_true(c.cell[i].role == WR_HEADER || c.cell[i].role == WR_HEADER_SORT);
	free(s);
	s = line_of(t, 1, 80, &c);
	/* GPU 20 columns + " ‹ " gap 3, Memory 8 (header + indicator room),
	 * Bandwidth 13, Price/h 9, gaps of 2, numbers right-aligned */
	assert_string_equal(s, "H200 Hopper" "         " "   " "  141 GB" "  "
			       "   4,800 GB/s" "  " "    $4.19");
	free(s);
	/* the cursor row (row 0) is recoloured; a flash keeps its role */
	wtable_select(t, 1);
	free(line_of(t, 1, 80, &c));
	bool flash = false;
	for (size_t i = 0; i < c.len; i++) {
		assert_true(c.cell[i].role == WR_SELECTED || c.cell[i].role == WR_FLASH);
		flash |= c.cell[i].role == WR_FLASH;
	}
	assert_true(flash);
	wcells_free(&c);
	wtable_free(&t);
	assert_null(t);
}

static void test_table_markers(void **state)
{
	(void)state;
	struct wtable *t = fake_table(false);
	struct wcells c;
	char *s;

	wcells_init(&c, false);
	/* 40 columns: GPU + Memory, then › at column 39 */
	s = line_of(t, SIZE_MAX, 40, &c);
	assert_int_equal(c.width, 40);
	assert_string_equal(s + strlen(s) - 3, "\u203A");
	assert_int_equal(c.cell[39].role, WR_MARKER);
	free(s);
	s = line_of(t, 1, 40, &c);
	/* Memory takes the room up to the marker: no gap before it */
	assert_string_equal(s, "H200 Hopper" "         " "   " "         141 GB");
	free(s);
	/* one column right: the GPU column stays, ‹ after it, Bandwidth shown */
	t->base.w = 40;
	assert_true(wtable_do(t, WTABLE_RIGHT) & W_REDRAW);
	s = line_of(t, SIZE_MAX, 40, &c);
	assert_int_equal(c.cell[21].role, WR_MARKER);
	assert_int_equal((int)c.cell[21].ch[0], 0x2039);
	assert_non_null(strstr(s, "GPU"));
	assert_non_null(strstr(s, "Bandwidth"));
	assert_null(strstr(s, "Memory"));
	free(s);
	s = line_of(t, 0, 40, &c);
	assert_string_equal(s, "B300 Blackwell Ultra     Not published");
	free(s);
	/* ASCII markers */
	struct wtable *a = fake_table(true);
	a->base.w = 40;
	wtable_do(a, WTABLE_RIGHT);
	s = line_of(a, SIZE_MAX, 40, &c);
	assert_int_equal((int)c.cell[21].ch[0], '<');
	assert_int_equal((int)c.cell[39].ch[0], '>');
	free(s);
	/* left again, and no further */
	assert_true(wtable_do(t, WTABLE_LEFT) & W_REDRAW);
	assert_int_equal(t->scroll, 1);
	assert_false(wtable_do(t, WTABLE_LEFT) & W_REDRAW);
	wcells_free(&c);
	wtable_free(&t);
	wtable_free(&a);
}

/* Sorting moves no column: at every width the columns stand where they
 * stood unsorted, whichever is sorted (a header with no room for its ▲ is
 * cut, keeping the ▲); no column dropped, no gap opened. */
static void test_table_sort_keeps_layout(void **state)
{
	(void)state;
	struct wtable *t = fake_table(false);
	struct wcells c;
	int x[4], w[4];

	wcells_init(&c, false);
	for (int width = 20; width <= 60; width++) {
		for (int col = 0; col < 4; col++) {
			wtable_set_sort(t, -1, false);
			free(line_of(t, SIZE_MAX, width, &c));
			memcpy(x, t->col_x, sizeof x);
			memcpy(w, t->col_w, sizeof w);
			wtable_set_sort(t, col, col == 2);
			char *s = line_of(t, SIZE_MAX, width, &c);
			for (int i = 0; i < 4; i++) {
				if (t->col_x[i] != x[i] || t->col_w[i] != w[i])
					print_error("width %d, sorted by %d: column %d at %d+%d, unsorted "
						    "%d+%d\n%s\n", width, col, i, t->col_x[i],
						    t->col_w[i], x[i], w[i], s);
				assert_int_equal(t->col_x[i], x[i]);
				assert_int_equal(t->col_w[i], w[i]);
			}
			if (x[col] >= 0 && w[col] >= 3)
				assert_non_null(strstr(s, col == 2 ? "\u25BC" : "\u25B2"));
			free(s);
		}
	}
	wcells_free(&c);
	wtable_free(&t);
}

/* The same table with the price pinned right and a GPU cell that knows how
 * to shorten itself (as tui/market/browse.c does it). */
static size_t f_pinned(void *ctx) { (void)ctx; return 1; }
static void f_cell_fit(void *ctx, size_t r, size_t c, int width, struct wcells *out)
{
	if (c == 0 && width < 20 && r == 0) {
		wcells_add(out, "B300", WR_NORMAL, 0); /* the detail left out */
		return;
	}
	f_cell(ctx, r, c, out);
}

static void test_table_pinned(void **state)
{
	(void)state;
	struct wtable_source src = { .ctx = &FAKE, .rows = f_rows, .cols = f_cols,
				     .header = f_header, .cell = f_cell, .align = f_align,
				     .frozen_min = f_frozen_min, .pinned = f_pinned,
				     .cell_fit = f_cell_fit };
	struct wtable *t = wtable_new(&UI, &src);
	struct wcells c;
	char *s;

	wcells_init(&c, false);
	/* 48 columns: GPU, Memory, › and the price at the right edge */
	s = line_of(t, SIZE_MAX, 48, &c);
	assert_int_equal(c.width, 48);
	assert_string_equal(s + strlen(s) - strlen("›   Price/h"), "›   Price/h");
	assert_int_equal(c.cell[48 - 9 - 2].role, WR_MARKER);
	assert_null(strstr(s, "Bandwidth"));
	free(s);
	s = line_of(t, 1, 48, &c);
	/* Memory widened to the pinned price's gap: " › " is the header's */
	assert_string_equal(s, "H200 Hopper" "         " "   " "       141 GB" "   " "    $4.19");
	free(s);
	/* → scrolls Bandwidth in; the price stays */
	t->base.w = 48;
	wtable_do(t, WTABLE_RIGHT);
	s = line_of(t, 1, 48, &c);
	assert_string_equal(s, "H200 Hopper" "         " "   " "   4,800 GB/s" "   " "    $4.19");
	free(s);
	/* no further: Bandwidth was the last column that scrolls */
	assert_false(wtable_do(t, WTABLE_RIGHT) & W_REDRAW);
	/* the cursor row's bar reaches the pinned price */
	wtable_select(t, 1);
	free(line_of(t, 1, 48, &c));
	assert_int_equal(c.width, 48);
	assert_int_equal(c.cell[38].role, WR_SELECTED);
	assert_int_equal(c.cell[47].role, WR_FLASH);
	/* the GPU cell is told its width: whole at 20 columns, its own short
	 * form ("B300") rather than a cut when narrower (30: 19 columns) */
	s = line_of(t, 0, 48, &c);
	assert_true(strncmp(s, "B300 Blackwell Ultra", 20) == 0);
	free(s);
	s = line_of(t, 0, 30, &c);
	assert_true(strncmp(s, "B300               ", 19) == 0);
	free(s);
	wcells_free(&c);
	wtable_free(&t);
}

static void test_table_navigation(void **state)
{
	(void)state;
	struct wtable *t = fake_table(false);

	t->base.h = 3; /* header + two rows */
	assert_int_equal(t->sel, 0);
	assert_true(wtable_do(t, WTABLE_DOWN) & W_SELECT);
	assert_true(wtable_do(t, WTABLE_DOWN) & W_SELECT);
	assert_int_equal(t->sel, 2);
	assert_int_equal(t->top, 1);            /* kept visible */
	assert_false(wtable_do(t, WTABLE_DOWN) & W_SELECT);
	wtable_do(t, WTABLE_HOME);
	assert_int_equal(t->sel, 0);
	assert_int_equal(t->top, 0);
	wtable_do(t, WTABLE_END);
	assert_int_equal(t->sel, 2);
	/* fewer rows (a filter): the cursor is clamped */
	FAKE.rows = 1;
	wtable_reload(t, true);
	assert_int_equal(t->sel, 0);
	FAKE.rows = 0;
	wtable_reload(t, true);
	assert_int_equal(wtable_do(t, WTABLE_DOWN), W_HANDLED);
	FAKE.rows = 3;
	wtable_free(&t);
}

/* ---- tabs, status, help ----------------------------------------------------------------- */

static void test_tabs_layout(void **state)
{
	(void)state;
	const char *labels[] = { "1 Training", "2 Fine-tuning", "3 Inference", "4 Image & video",
				 "5 Rendering", "6 HPC" };
	struct wtabs *t = wtabs_new(&UI, labels, 6);
	int x[6], w[6];

	wtabs_layout(t, 100, x, w);
	assert_int_equal(x[0], 0);
	assert_int_equal(w[0], 12);
	assert_int_equal(x[1], 13);
	wtabs_layout(t, 40, x, w);
	assert_true(x[5] + w[5] <= 40);
	assert_true(w[0] >= 3);
	/* 12 columns: numbers only */
	wtabs_layout(t, 12, x, w);
	for (int i = 0; i < 6; i++)
		assert_int_equal(w[i], 1);
	wtabs_free(&t);
}

static void test_tabs_short(void **state)
{
	(void)state;
	const char *labels[] = { "1 LLM training", "2 Fine-tuning", "3 LLM inference",
				 "4 Image & video generation", "5 3D rendering & VFX",
				 "6 Scientific computing & HPC" };
	const char *shorts[] = { "1 Training", "2 Fine-tune", "3 Inference", "4 Image/video",
				 "5 Rendering", "6 HPC" };
	struct wtabs *t = wtabs_new(&UI, labels, 6);
	int x[6], w[6];

	for (size_t i = 0; i < 6; i++)
		wtabs_set_short(t, i, shorts[i]);
	/* wide: every full title */
	wtabs_layout(t, 140, x, w);
	assert_int_equal(w[3], 26 + 2);
	/* 100 columns: the active tab's full title, the others short */
	wtabs_layout(t, 100, x, w);
	assert_int_equal(w[0], 14 + 2);
	assert_int_equal(w[1], 11 + 2);
	assert_int_equal(w[5], 5 + 2);
	wtabs_set_active(t, 3);
	wtabs_layout(t, 100, x, w);
	assert_int_equal(w[0], 10 + 2);
	assert_int_equal(w[3], 26 + 2);
	/* 80 columns: every short title, none cut (78 columns) */
	wtabs_set_active(t, 0);
	wtabs_layout(t, 80, x, w);
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(w[i], (int)strlen(shorts[i]) + 2);
	assert_int_equal(x[5] + w[5], 78);
	/* ... and the active one full when it still fits: "2 Fine-tuning" */
	wtabs_set_active(t, 1);
	wtabs_layout(t, 80, x, w);
	assert_int_equal(w[1], 13 + 2);
	assert_true(x[5] + w[5] <= 80);
	/* 60: the active one short and whole, the others cut alike */
	wtabs_layout(t, 60, x, w);
	assert_int_equal(w[1], 11 + 2);
	assert_true(x[5] + w[5] <= 60);
	for (size_t i = 0; i < 6; i++)
		assert_true(w[i] >= 5 + 2);
	/* 40: the active one short, the others their numbers */
	wtabs_layout(t, 40, x, w);
	assert_int_equal(w[1], 11 + 2);
	assert_int_equal(w[0], 1 + 2);
	assert_int_equal(w[5], 1 + 2);
	/* 20: numbers only */
	wtabs_layout(t, 20, x, w);
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(w[i], 1);
	wtabs_free(&t);
}

static char *status_at(struct wstatus *s, int width, struct wcells *c)
{
	wstatus_render_line(s, width, c);
	assert_int_equal(c->width, width);
	return wcells_text(c);
}

static void test_status_priorities(void **state)
{
	(void)state;
	struct wstatus *s = wstatus_new(&UI);
	struct wcells c;
	char *txt;

	wcells_init(&c, false);
	wstatus_begin(s);
	wstatus_add_prio(s, "local demo exchange", WR_STATUS_WARN, false, 70);
	wstatus_add_prio(s, "market open", WR_STATUS, false, WSTATUS_LOW);
	wstatus_add_prio(s, "balance $10,000.00", WR_STATUS, false, 30);
	wstatus_add_prio(s, "prices updated 1 s ago", WR_STATUS, true, 55);
	wstatus_commit(s);
	txt = status_at(s, 100, &c);
	assert_non_null(strstr(txt, "market open"));
	free(txt);
	/* 70 columns: "market open" goes first, the prices' age stays right */
	txt = status_at(s, 70, &c);
	assert_null(strstr(txt, "market open"));
	assert_non_null(strstr(txt, "balance"));
	assert_string_equal(txt + strlen(txt) - strlen("prices updated 1 s ago "),
			    "prices updated 1 s ago ");
	free(txt);
	/* 50: then the balance */
	txt = status_at(s, 50, &c);
	assert_null(strstr(txt, "balance"));
	assert_non_null(strstr(txt, "local demo exchange"));
	assert_non_null(strstr(txt, "prices updated"));
	free(txt);
	/* 12: the last segment left is cut, never a blank bar */
	txt = status_at(s, 12, &c);
	assert_string_equal(txt, " local demo…");
	free(txt);

	/* stale: the reason and the age are never dropped; the reason is cut */
	wstatus_begin(s);
	wstatus_add(s, "STALE: cannot reach the exchange: Connection refused", WR_STATUS_ERROR, false);
	wstatus_add_prio(s, "local demo exchange", WR_STATUS_WARN, false, 70);
	wstatus_add(s, "prices updated 40 s ago", WR_STATUS_ERROR, true);
	wstatus_commit(s);
	txt = status_at(s, 60, &c);
	assert_true(strncmp(txt, " STALE: cannot reach", 20) == 0);
	assert_null(strstr(txt, "local demo"));
	assert_string_equal(txt + strlen(txt) - strlen("…  prices updated 40 s ago "),
			    "…  prices updated 40 s ago ");
	free(txt);
	wcells_free(&c);
	wstatus_free(&s);
}

static void test_status_line(void **state)
{
	(void)state;
	struct wstatus *s = wstatus_new(&UI);
	struct wcells c;
	char *txt;

	wcells_init(&c, false);
	wstatus_begin(s);
	wstatus_add(s, "local demo exchange", WR_STATUS_WARN, false);
	wstatus_add(s, "pre-open", WR_STATUS, false);
	wstatus_add(s, "updated 3 s ago", WR_STATUS, true);
	wstatus_commit(s);
	assert_true(s->base.dirty);
	wstatus_render_line(s, 60, &c);
	txt = wcells_text(&c);
	assert_int_equal(c.width, 60);
	assert_non_null(strstr(txt, "local demo exchange \u00b7 pre-open"));
	assert_string_equal(txt + strlen(txt) - strlen("updated 3 s ago "), "updated 3 s ago ");
	free(txt);
	/* narrow: the right part goes first */
	wstatus_render_line(s, 36, &c);
	txt = wcells_text(&c);
	assert_null(strstr(txt, "updated"));
	assert_non_null(strstr(txt, "local demo"));
	free(txt);
	/* the same contents again: not dirty */
	s->base.dirty = false;
	wstatus_begin(s);
	wstatus_add(s, "local demo exchange", WR_STATUS_WARN, false);
	wstatus_add(s, "pre-open", WR_STATUS, false);
	wstatus_add(s, "updated 3 s ago", WR_STATUS, true);
	wstatus_commit(s);
	assert_false(s->base.dirty);
	wcells_free(&c);
	wstatus_free(&s);
}

static void test_help_generated(void **state)
{
	(void)state;
	static const struct wbinding map[] = {
		{ WKEY_DOWN, 1, "Move down", NULL },
		{ 'j', 1, "Move down", NULL },
		{ 'q', 2, "Quit", NULL },
		{ WKEY_F10, 2, "Quit", NULL },
		{ 'x', 3, NULL, NULL },
	};
	struct whelp_section sec = { "Keys", map, 5 };
	struct whelp *h = whelp_new(&UI, "Help", "any key closes", &sec, 1);
	char *l;

	assert_int_equal(h->n_lines, 3); /* title + two actions; x has no help */
	l = wcells_text(&h->lines[1]);
	assert_non_null(strstr(l, "\u2193 j"));
	assert_non_null(strstr(l, "Move down"));
	free(l);
	l = wcells_text(&h->lines[2]);
	assert_non_null(strstr(l, "q F10"));
	free(l);
	whelp_free(&h);
}

/* The words of text, one space between them (to compare wrapped lines with
 * what they came from). */
static char *words_of(const char *text)
{
	struct buf b = {0};
	const char *p = text;

	while (*p != '\0') {
		while (*p == ' ')
			p++;
		const char *e = p;
		while (*e != '\0' && *e != ' ')
			e++;
		if (e > p) {
			if (b.len > 0)
				buf_putc(&b, ' ');
			buf_append(&b, p, (size_t)(e - p));
		}
		p = e;
	}
	return buf_take(&b);
}

/* Long help lines wrap in terminal columns, continuation lines under the
 * description column, nothing lost, never cut inside a character; the
 * scroll keys still reach the last line. */
static void test_help_wraps(void **state)
{
	(void)state;
	/* tui/market/browse_screen.c's longest line, the one cut at 80 columns before */
	const char *fit = "Fit calculator: show it and type in it (Esc back to the table)";
	/* double-width characters (2 columns each) and a combining accent */
	const char *wide = "\u65e5\u672c\u8a9e\u306e\u8aac\u660e\u6587 "
			   "\u65e5\u672c\u8a9e\u306e\u8aac\u660e\u6587\u3067\u3059 cafe\u0301 ok";
	static struct wbinding map[] = {
		{ 'f', 1, NULL, NULL },
		{ WKEY_DOWN, 2, "Move down", NULL },
		{ 'j', 2, "Move down", NULL },
		{ 'w', 3, NULL, NULL },
	};
	map[0].help = fit;
	map[3].help = wide;
	struct whelp_section sec = { "Keys of the tables", map, 4 };
	struct whelp *h = whelp_new(&UI, "gpux keys", "any key closes", &sec, 1);
	char *l;

	/* unwrapped until laid out: one line each */
	assert_int_equal(h->n_lines, 4);
	l = wcells_text(&h->lines[1]);
	assert_string_equal(l, " f    Fit calculator: show it and type in it (Esc back to the table)");
	free(l);

	/* the help box at 80 columns is 76 wide: 72 inside, the line fits */
	whelp_layout(h, 72);
	assert_int_equal(h->n_lines, 4);

	/* 40 columns: the description column is 1 + 3 (keys "↓ j") + 2 = 6 */
	whelp_layout(h, 40);
	struct buf fit_back = {0}, wide_back = {0};
	int fit_lines = 0, wide_lines = 0;
	for (size_t i = 0; i < h->n_lines; i++) {
		const struct wcells *c = &h->lines[i];
		assert_true(c->width <= 40);
		l = wcells_text(c);
		/* what wcells measure is what the text is: no half character */
		assert_int_equal(wtext_width(l, false), c->width);
		if (i >= 1 && i < 1 + 2) {  /* the f line and its continuation */
			assert_memory_equal(l, i == 1 ? " f    " : "      ", 6);
			assert_true(l[6] != ' ');
			buf_puts(&fit_back, l + 6);
			buf_putc(&fit_back, ' ');
			fit_lines++;
		}
		if (i >= 4) {               /* the w line and its continuations */
			assert_memory_equal(l, i == 4 ? " w    " : "      ", 6);
			buf_puts(&wide_back, l + 6);
			buf_putc(&wide_back, ' ');
			wide_lines++;
		}
		free(l);
	}
	assert_int_equal(fit_lines, 2);
	l = wcells_text(&h->lines[0]);
	assert_string_equal(l, "Keys of the tables");
	free(l);
	l = wcells_text(&h->lines[3]);
	assert_string_equal(l, " \u2193 j  Move down");
	free(l);
	char *a = words_of(fit_back.data), *b = words_of(fit);
	assert_string_equal(a, b);   /* every word kept, in order */
	free(a);
	free(b);
	/* "日本語の説明文" is 14 columns, "日本語の説明文です" 18: at 34 columns
	 * for the description, the two words cannot share a line */
	assert_true(wide_lines >= 2);
	a = words_of(wide_back.data);
	b = words_of(wide);
	assert_string_equal(a, b);
	free(a);
	free(b);
	buf_free(&fit_back);
	buf_free(&wide_back);

	/* a word longer than the description column is split between
	 * characters, each piece within the line */
	whelp_layout(h, 6 + 12);
	for (size_t i = 0; i < h->n_lines; i++) {
		assert_true(h->lines[i].width <= 18);
		l = wcells_text(&h->lines[i]);
		assert_int_equal(wtext_width(l, false), h->lines[i].width);
		free(l);
	}

	/* scrolling reaches the last wrapped line and stops there (a box of 4
	 * text lines: the help's height minus its border) */
	size_t n = h->n_lines;
	assert_true(n > 6);
	h->base.h = 6;
	struct wevent down = { .type = WEV_KEY, .key = WKEY_DOWN };
	struct wevent end = { .type = WEV_KEY, .key = WKEY_END };
	struct wevent home = { .type = WEV_KEY, .key = WKEY_HOME };
	assert_true(wwidget_handle(&h->base, &down) & W_REDRAW);
	assert_int_equal(h->top, 1);
	wwidget_handle(&h->base, &end);
	assert_int_equal(h->top, n - 4);
	assert_false(wwidget_handle(&h->base, &down) & W_REDRAW);
	assert_int_equal(h->top, n - 4);
	wwidget_handle(&h->base, &home);
	assert_int_equal(h->top, 0);
	/* laid out wider again: fewer lines, top kept inside them */
	h->top = n - 1;
	whelp_layout(h, 0);
	assert_int_equal(h->n_lines, 4);
	assert_true(h->top < h->n_lines);
	whelp_free(&h);
}

static void test_wrap(void **state)
{
	(void)state;
	char **lines;
	size_t n = wtext_wrap("Buy 8 H200 for 24 hours at market?\nTotal $805.00", 16, false, &lines);

	assert_int_equal(n, 4);
	assert_string_equal(lines[0], "Buy 8 H200 for");
	assert_string_equal(lines[1], "24 hours at");
	assert_string_equal(lines[2], "market?");
	assert_string_equal(lines[3], "Total $805.00");
	for (size_t i = 0; i < n; i++)
		assert_true(wtext_width(lines[i], false) <= 16);
	wtext_lines_free(lines, n);
	n = wtext_wrap("abcdefghij", 4, false, &lines);
	assert_int_equal(n, 3);
	wtext_lines_free(lines, n);
}

static void test_key_names(void **state)
{
	(void)state;
	char *s;
	s = wkey_name(WKEY_UP, false); assert_string_equal(s, "\u2191"); free(s);
	s = wkey_name(WKEY_UP, true); assert_string_equal(s, "Up"); free(s);
	s = wkey_name(WKEY_F10, true); assert_string_equal(s, "F10"); free(s);
	s = wkey_name(WKEY_BTAB, true); assert_string_equal(s, "Shift-Tab"); free(s);
	s = wkey_name('L' - '@', true); assert_string_equal(s, "Ctrl-L"); free(s);
	s = wkey_name('<', true); assert_string_equal(s, "<"); free(s);
	s = wkey_name(' ', true); assert_string_equal(s, "Space"); free(s);
}

/* ---- field -------------------------------------------------------------------------------- */

static unsigned feed(struct wfield *f, wkey k)
{
	struct wevent ev = { .type = WEV_KEY, .key = k };
	return wwidget_handle(&f->base, &ev);
}

static void test_field_editing(void **state)
{
	(void)state;
	struct wfield *f = wfield_new(&UI, "Filter: ", NULL);

	assert_true(feed(f, 'h') & W_CHANGED);
	feed(f, '1');
	feed(f, '0');
	assert_string_equal(wfield_text(f), "h10");
	assert_false(feed(f, WKEY_LEFT) & W_CHANGED);
	feed(f, 0xE3); /* ã, two bytes */
	assert_string_equal(wfield_text(f), "h1\u00e30");
	feed(f, 127);   /* backspace removes the whole character */
	assert_string_equal(wfield_text(f), "h10");
	feed(f, WKEY_HOME);
	feed(f, WKEY_DELETE);
	assert_string_equal(wfield_text(f), "10");
	feed(f, WKEY_END);
	feed(f, ' ');
	feed(f, 'x');
	feed(f, 'W' - '@');
	assert_string_equal(wfield_text(f), "10 ");
	feed(f, 'U' - '@');
	assert_string_equal(wfield_text(f), "");
	assert_true(feed(f, WKEY_RETURN) & W_CLOSE);
	assert_true(f->submitted);
	assert_true(feed(f, WKEY_ESC) & W_CLOSE);
	assert_false(f->submitted);
	wfield_set_text(f, "H100");
	assert_string_equal(wfield_text(f), "H100");
	wfield_free(&f);
}

/* Escape sequences curses left undecoded: decoded, or swallowed whole. */
static void test_escape_sequences(void **state)
{
	const wkey f5[] = { WKEY_ESC, '[', '1', '5', '~', 'x' };
	const wkey f10[] = { WKEY_ESC, '[', '2', '1', '~' };
	const wkey end[] = { WKEY_ESC, '[', '4', '~' };
	const wkey up[] = { WKEY_ESC, 'O', 'A' };
	const wkey ctl_right[] = { WKEY_ESC, '[', '1', ';', '5', 'C' };
	const wkey unknown[] = { WKEY_ESC, '[', '9', '9', 'z', '1' };
	const wkey alone[] = { WKEY_ESC, 'q' };
	const wkey cut[] = { WKEY_ESC, '[', '1', '5' };
	wkey k;

	(void)state;
	assert_int_equal(wkey_decode_escape(f5, 6, &k), 5);
	assert_int_equal(k, WKEY_F5);
	assert_int_equal(wkey_decode_escape(f10, 5, &k), 5);
	assert_int_equal(k, WKEY_F10);
	assert_int_equal(wkey_decode_escape(end, 4, &k), 4);
	assert_int_equal(k, WKEY_END);
	assert_int_equal(wkey_decode_escape(up, 3, &k), 3);
	assert_int_equal(k, WKEY_UP);
	assert_int_equal(wkey_decode_escape(ctl_right, 6, &k), 6);
	assert_int_equal(k, WKEY_RIGHT);
	/* swallowed whole: its digits never become keys */
	assert_int_equal(wkey_decode_escape(unknown, 6, &k), 5);
	assert_int_equal(k, WKEY_NONE);
	/* Esc then a letter, and a sequence not yet whole: no sequence */
	assert_int_equal(wkey_decode_escape(alone, 2, &k), 0);
	assert_int_equal(wkey_decode_escape(cut, 4, &k), 0);
}

/* A money sign stays with its figure when text wraps, in every order the
 * languages write it: "US$ 4,19", "4,19 $", "4,19 US$", "-US$ 2,00". */
static void test_wrap_keeps_money_whole(void **state)
{
	const char *text = "Total com IVA: US$ 9,35 (US$ 9,35 sem impostos + US$ 0,00 de IVA), "
			   "Gesamt 9,35 $ und 0,00 $, total 9,35 US$ y 0,00 US$, saldo -US$ 2,00";
	char **l;
	size_t n;

	(void)state;
	for (int w = 8; w <= 60; w++) {
		n = wtext_wrap(text, w, false, &l);
		for (size_t i = 0; i + 1 < n; i++) {
			size_t len = strlen(l[i]);
			char last = len > 0 ? l[i][len - 1] : ' ', first = l[i + 1][0];
			bool sign_then_figure = last == '$' && (first == '-' || (first >= '0' && first <= '9'));
			bool figure_then_sign = last >= '0' && last <= '9' &&
						(first == '$' || strncmp(l[i + 1], "US$", 3) == 0);
			if (sign_then_figure || figure_then_sign)
				fail_msg("width %d: [%s] / [%s]", w, l[i], l[i + 1]);
		}
		wtext_lines_free(l, n);
	}
}

int main(void)
{
	setlocale(LC_CTYPE, "C.UTF-8");
	wui_init(&UI, &wtheme_color, false, false);
	wui_init(&UI_ASCII, &wtheme_mono, true, false);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cells_width),
		cmocka_unit_test(test_cells_cut),
		cmocka_unit_test(test_cells_sanitise_and_ascii),
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_layout_all_fit),
		cmocka_unit_test(test_layout_scrolling),
		cmocka_unit_test(test_layout_narrow),
		cmocka_unit_test(test_layout_frozen_share),
		cmocka_unit_test(test_layout_pinned),
		cmocka_unit_test(test_layout_takes_the_width),
		cmocka_unit_test(test_layout_never_cuts_a_number),
		cmocka_unit_test(test_table_render),
		cmocka_unit_test(test_table_markers),
		cmocka_unit_test(test_table_sort_keeps_layout),
		cmocka_unit_test(test_table_pinned),
		cmocka_unit_test(test_table_navigation),
		cmocka_unit_test(test_tabs_layout),
		cmocka_unit_test(test_tabs_short),
		cmocka_unit_test(test_status_line),
		cmocka_unit_test(test_status_priorities),
		cmocka_unit_test(test_help_generated),
		cmocka_unit_test(test_help_wraps),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_wrap_keeps_money_whole),
		cmocka_unit_test(test_key_names),
		cmocka_unit_test(test_escape_sequences),
		cmocka_unit_test(test_field_editing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
