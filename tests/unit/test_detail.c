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
	assert_int_equal(detail_series(c, 2, 0, 400, 4, col), 3);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill_walks_the_levels),
		cmocka_unit_test(test_series_carries_the_close),
		cmocka_unit_test(test_chart_ascii),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
