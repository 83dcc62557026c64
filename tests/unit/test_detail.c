/*
 * The detail screen's pure model (tui/market/detail.h): the ladder walked for an
 * order, candles into chart columns, the chart as text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "tui/market/detail.h"

/* 10 GPUs × 24 h from 4 @ 419, 8 @ 425: 4 + 6, two levels. */
static void test_fill_walks_the_levels(void **state)
{
	const struct api_level asks[] = { { 419, 4, 1, 96, -1 }, { 425, 8, 2, 192, -1 }, { 430, 64, 1, 1536, -1 } };
	struct tui_fill f;

	(void)state;
	detail_fill(asks, 3, 10, 24, &f);
	assert_true(f.complete);
	assert_int_equal(f.gpus, 10);
	assert_int_equal(f.levels, 2);
	assert_int_equal(f.total_cents, 4 * 24 * 419 + 6 * 24 * 425);
	assert_int_equal(f.avg_cents, (4 * 419 + 6 * 425 + 5) / 10);
	assert_int_equal(f.worst_cents, 425);
	/* more than the book holds: what it can give, not complete */
	detail_fill(asks, 3, 100, 1, &f);
	assert_false(f.complete);
	assert_int_equal(f.gpus, 76);
	/* an empty book */
	detail_fill(NULL, 0, 8, 24, &f);
	assert_false(f.complete);
	assert_int_equal(f.gpus, 0);
	assert_int_equal(f.worst_cents, -1);
}

/* Columns carry the last close; before the first candle they are empty. */
static void test_series_carries_the_close(void **state)
{
	const struct api_candle c[] = {
		{ .start = 100, .close_cents = 400 },
		{ .start = 350, .close_cents = 420 },
	};
	int64_t col[4], bp;

	(void)state;
	bool traded[4];

	assert_int_equal(detail_series(c, 2, 0, 400, 4, col, traded), 3);
	/* which columns had a trade, which carry the one before */
	assert_false(traded[0]);
	assert_true(traded[1]);
	assert_false(traded[2]);
	assert_true(traded[3]);
	assert_int_equal(col[0], -1);
	assert_int_equal(col[1], 400);
	assert_int_equal(col[2], 400);
	assert_int_equal(col[3], 420);
	assert_true(detail_change_bp(col, 4, &bp));
	assert_int_equal(bp, 500); /* +5.00 % */
}

/* ASCII: the low column a dot at the bottom, the high one '#' to the top;
 * the empty column blank; every row exactly as wide as the series. */
static void test_chart_ascii(void **state)
{
	const int64_t col[3] = { -1, 100, 200 };
	char *rows[2];

	(void)state;
	detail_chart(col, 3, 2, true, rows);
	assert_string_equal(rows[0], "  #");
	assert_string_equal(rows[1], " .#");
	free(rows[0]);
	free(rows[1]);
	char *sp = detail_sparkline(col, 3, false);
	assert_string_equal(sp, " \u2581\u2588");
	free(sp);
}

/* One scale for several series: the range widened by each in turn (a
 * series without a price leaves it), and each drawn on it — the cheap
 * series all at the bottom, the dear one near the top, a price outside the
 * scale at its edge; on its own scale each spans ▁ … █. */
static void test_sparklines_on_one_scale(void **state)
{
	const int64_t cheap[4] = { 80, 90, 100, -1 }, dear[4] = { -1, 400, 420, 440 };
	const int64_t none[4] = { -1, -1, -1, -1 };
	int64_t lo = -1, hi = -1;
	char *sp;

	(void)state;
	detail_series_widen(none, 4, &lo, &hi);
	assert_int_equal(lo, -1);
	assert_int_equal(hi, -1);
	detail_series_widen(cheap, 4, &lo, &hi);
	assert_int_equal(lo, 80);
	assert_int_equal(hi, 100);
	detail_series_widen(dear, 4, &lo, &hi);
	assert_int_equal(lo, 80);
	assert_int_equal(hi, 440);
	/* eighths: 1 + (v - 80)·7/360, rounded: 80 … 100 → 1, 400 → 7, 420 and 440 → 8 */
	sp = detail_sparkline_on(cheap, 4, lo, hi, false);
	assert_string_equal(sp, "\u2581\u2581\u2581 ");
	free(sp);
	sp = detail_sparkline_on(dear, 4, lo, hi, false);
	assert_string_equal(sp, " \u2587\u2588\u2588");
	free(sp);
	sp = detail_sparkline_on(dear, 4, lo, hi, true);
	assert_string_equal(sp, " ###");
	free(sp);
	/* each on its own scale: the full height */
	sp = detail_sparkline(cheap, 4, false);
	assert_string_equal(sp, "\u2581\u2585\u2588 ");
	free(sp);
	/* outside the scale: at its edges */
	sp = detail_sparkline_on((const int64_t[2]){ 10, 900 }, 2, 80, 440, false);
	assert_string_equal(sp, "\u2581\u2588");
	free(sp);
}

/* A price carried through a quiet interval is a line in the row of its
 * level alone, never a bar: ─ (ASCII -), blank below and above it. */
static void test_carried_price_is_a_line(void **state)
{
	(void)state;
	/* 2 rows over 100 … 200: 200 reaches the top row, 100 the bottom one */
	assert_string_equal(detail_cell(200, 100, 200, 2, 0, false, false), "\u2588");
	assert_string_equal(detail_cell(200, 100, 200, 2, 1, false, false), "\u2588");
	assert_string_equal(detail_cell(200, 100, 200, 2, 0, true, false), "\u2500");
	assert_string_equal(detail_cell(200, 100, 200, 2, 1, true, false), " ");
	assert_string_equal(detail_cell(100, 100, 200, 2, 0, true, true), " ");
	assert_string_equal(detail_cell(100, 100, 200, 2, 1, true, true), "-");
	assert_string_equal(detail_cell(-1, 100, 200, 2, 1, true, false), " ");
}

/* The 24 h change: from the close of the last candle begun before the
 * window (the price then) to the last close; from the first trade in the
 * window when none came before; nothing when nothing traded since. */
static void test_change_since(void **state)
{
	const struct api_candle c[] = {
		{ .start = 0, .open_cents = 390, .close_cents = 400 },
		{ .start = 3600, .open_cents = 401, .close_cents = 410 },
		{ .start = 7200, .open_cents = 411, .close_cents = 380 },
	};
	int64_t bp = 0;

	(void)state;
	assert_true(detail_change_since(c, 3, 3000, &bp));
	assert_int_equal(bp, -500);        /* 400 → 380: −5.00 % */
	assert_true(detail_change_since(c, 3, 3600, &bp));
	assert_int_equal(bp, -500);        /* the hour before still sets the price then */
	assert_true(detail_change_since(c, 2, -10, &bp));
	assert_int_equal(bp, 513);         /* no candle before: from the first open, 390 → 410 */
	assert_false(detail_change_since(c, 3, 9000, &bp));
	assert_false(detail_change_since(NULL, 0, 0, &bp));
}

/* The axis: labels centred under their columns, kept inside the row, a
 * blank between them (a label moved by a column or two for it, else left
 * out), "now" always at the right edge, exactly cols columns. */
static void test_axis(void **state)
{
	const char *l4[] = { "-24 h", "-18 h", "-12 h", "-6 h", "now" };
	const int at4[] = { 0, 6, 13, 20, 26 };
	const char *crowd[] = { "-7 d", "-6 d", "-5 d", "now" };
	const int atc[] = { 0, 2, 4, 9 };
	char *a;

	(void)state;
	a = detail_axis(27, l4, at4, 5);
	assert_string_equal(a, "-24 h -18 h -12 h -6 h  now");
	free(a);
	a = detail_axis(10, crowd, atc, 4);
	assert_string_equal(a, "-7 d   now");
	free(a);
	a = detail_axis(2, crowd, atc, 4);
	assert_string_equal(a, "  ");
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_carried_price_is_a_line),
		cmocka_unit_test(test_sparklines_on_one_scale),
		cmocka_unit_test(test_change_since),
		cmocka_unit_test(test_axis),
		cmocka_unit_test(test_fill_walks_the_levels),
		cmocka_unit_test(test_series_carries_the_close),
		cmocka_unit_test(test_chart_ascii),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
