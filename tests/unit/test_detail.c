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
#include "i18n/i18n.h"

#include <time.h>

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

/* A column of the candle view: the candles that start in it, open of the
 * first, highest high, lowest low, close of the last, volumes summed; a
 * column without one carries the last close (candles before the range
 * only set it). */
static void test_ohlc_columns(void **state)
{
	const struct api_candle c[] = {
		{ .start = -10, .open_cents = 390, .high_cents = 390, .low_cents = 390,
		  .close_cents = 390, .gpus = 9, .gpu_hours = 9, .trades = 9 },
		{ .start = 10, .open_cents = 400, .high_cents = 410, .low_cents = 395,
		  .close_cents = 405, .gpus = 2, .gpu_hours = 2, .trades = 2 },
		{ .start = 50, .open_cents = 405, .high_cents = 450, .low_cents = 380,
		  .close_cents = 420, .gpus = 1, .gpu_hours = 3, .trades = 1 },
		{ .start = 250, .open_cents = 430, .high_cents = 430, .low_cents = 430,
		  .close_cents = 430, .gpus = 1, .gpu_hours = 1, .trades = 1 },
	};
	struct detail_ohlc o[4];
	int64_t lo, hi;

	(void)state;
	assert_int_equal(detail_ohlc_columns(c, 4, 0, 400, 4, o), 4);
	assert_true(o[0].traded);
	assert_int_equal(o[0].open, 400);
	assert_int_equal(o[0].high, 450);
	assert_int_equal(o[0].low, 380);
	assert_int_equal(o[0].close, 420);
	assert_int_equal(o[0].gpus, 3);
	assert_int_equal(o[0].gpu_hours, 5);
	assert_int_equal(o[0].trades, 3);
	assert_int_equal(o[0].carried, 390);
	assert_false(o[1].traded);
	assert_int_equal(o[1].carried, 420);
	assert_true(o[2].traded);
	assert_int_equal(o[2].close, 430);
	assert_false(o[3].traded);
	assert_int_equal(o[3].carried, 430);
	assert_int_equal(detail_candle_dir(&o[0]), 1);
	assert_int_equal(detail_candle_dir(&o[1]), 0);
	detail_ohlc_range(o, 4, &lo, &hi);
	assert_int_equal(lo, 380);
	assert_int_equal(hi, 450);
	/* nothing before, nothing in it: no price */
	assert_int_equal(detail_ohlc_columns(c + 3, 1, 0, 200, 2, o), 0);
	assert_int_equal(o[0].carried, -1);
}

/* A candle over 8 rows spanning 380 … 450 (a row per 10 cents): the wick
 * from high (row 0) to low (row 7), the body from close 420 (row 3) to open
 * 400 (row 5); a column without trades a line at its carried price's row. */
static void test_candle_glyphs(void **state)
{
	const struct detail_ohlc down = { .traded = true, .open = 420, .high = 450, .low = 380,
					  .close = 400 };
	const struct detail_ohlc quiet = { .carried = 420 }, none = { .carried = -1 };
	const char *want[8] = { "|", "|", "|", "#", "#", "#", "|", "|" };

	(void)state;
	for (int r = 0; r < 8; r++) {
		assert_string_equal(detail_candle_cell(&down, 380, 450, 8, r, true), want[r]);
		assert_string_equal(detail_candle_cell(&quiet, 380, 450, 8, r, false),
				    r == 3 ? "\u2500" : " ");
		assert_string_equal(detail_candle_cell(&none, 380, 450, 8, r, false), " ");
	}
	assert_string_equal(detail_candle_cell(&down, 380, 450, 8, 0, false), "\u2502");
	assert_string_equal(detail_candle_cell(&down, 380, 450, 8, 4, false), "\u2588");
	assert_int_equal(detail_candle_dir(&down), -1);
	/* at half a row: 445 the lower half of row 0, a body 425 … 415 from the
	 * lower half of row 2 to the upper half of row 4 (a row per 10 cents,
	 * half-rows of 70/15 cents) */
	const struct detail_ohlc half = { .traded = true, .open = 415, .high = 445, .low = 380,
					  .close = 425 };
	assert_string_equal(detail_candle_cell(&half, 380, 450, 8, 0, false), "\u2577");
	assert_string_equal(detail_candle_cell(&half, 380, 450, 8, 1, false), "\u2502");
	assert_string_equal(detail_candle_cell(&half, 380, 450, 8, 2, false), "\u2584");
	assert_string_equal(detail_candle_cell(&half, 380, 450, 8, 3, false), "\u2588");
	assert_string_equal(detail_candle_cell(&half, 380, 450, 8, 4, false), "\u2580");
	assert_string_equal(detail_candle_cell(&half, 380, 450, 8, 5, false), "\u2502");
	assert_string_equal(detail_candle_cell(&half, 380, 450, 8, 4, true), "#");
	assert_int_equal(detail_candle_dir(&half), 1);
	/* one price: the top half of the middle row */
	assert_int_equal(detail_price_half(400, 400, 400, 5), 4);
}

/* The axis's ticks on round times of the local clock: every 6 h from a
 * range starting at 15:00 local (09:30 UTC in a zone 5 h 30 min east), so
 * 18:00, 00:00, 06:00, 12:00 — never the quarters of the range; local
 * midnights across a change to summer time (Lisbon, 30 March 2025). */
static void test_round_ticks(void **state)
{
	const int64_t from = 1741944600; /* 2025-03-14 09:30 UTC */
	const char *want[] = { "18:00", "00:00", "06:00", "12:00" };
	int64_t t[16];
	size_t n;

	(void)state;
	setenv("TZ", "IST-5:30", 1);
	tzset();
	n = detail_round_ticks(from, from + 86400, 21600, t, 16);
	assert_int_equal(n, 4);
	assert_int_equal(t[0], from + 3 * 3600);
	for (size_t i = 0; i < n; i++) {
		char *x = i18n_fmt_clock(I18N_EN, t[i], 0);
		assert_string_equal(x, want[i]);
		free(x);
	}
	assert_int_equal(detail_round_ticks(from + 60, from + 660, 3600, t, 16), 0);
	setenv("TZ", "Europe/Lisbon", 1);
	tzset();
	n = detail_round_ticks(1743202800, 1743465600, 86400, t, 16);
	assert_int_equal(n, 4);
	assert_int_equal(t[0], 1743206400); /* 29 March 00:00 WET */
	assert_int_equal(t[1], 1743292800); /* 30 March 00:00 WET */
	assert_int_equal(t[2], 1743375600); /* 31 March 00:00 WEST: 23:00 UTC */
	assert_int_equal(t[3], 1743462000);
	setenv("TZ", "UTC", 1);
	tzset();
}

/* The step: the smallest of the range's whose ticks stand a label and two
 * blanks apart. */
static void test_tick_step(void **state)
{
	(void)state;
	assert_int_equal(detail_tick_step(DR_24H, 26, 5), 43200);
	assert_int_equal(detail_tick_step(DR_24H, 32, 5), 21600);
	assert_int_equal(detail_tick_step(DR_24H, 45, 5), 14400);
	assert_int_equal(detail_tick_step(DR_24H, 100, 5), 7200);
	assert_int_equal(detail_tick_step(DR_1H, 40, 5), 900);
	assert_int_equal(detail_tick_step(DR_7D, 60, 6), 86400);
	assert_int_equal(detail_tick_step(DR_7D, 20, 6), 7 * 86400);
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
		cmocka_unit_test(test_ohlc_columns),
		cmocka_unit_test(test_candle_glyphs),
		cmocka_unit_test(test_round_ticks),
		cmocka_unit_test(test_tick_step),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
