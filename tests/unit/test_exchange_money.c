/*
 * tests/unit/test_exchange_money.c — the money arithmetic of gpuxd against
 * the rounding rules and worked examples of docs/API.md ("Money, VAT, FX and
 * rounding"), and the exchange's ISO 8601 time parser.
 *
 * Rates: data/fx.json (EUR 920000, GBP 790000 units per USD x 10^6) and
 * data/vat.json (PT 2300, GB 2000, DE 1900, FI 2550 basis points).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "exchange/exchange.h"

static void test_api_md_example(void **state)
{
	(void)state;
	/* docs/API.md: EUR account in PT, p = 419: net ceil(385.48) = 386,
	 * VAT ceil(88.78) = 89, unit 475; 8 GPUs x 24 h hold 91 200 */
	assert_int_equal(exchange_net_unit(419, 920000), 386);
	assert_int_equal(exchange_vat_unit(386, 2300), 89);
	assert_int_equal(exchange_unit(419, 920000, 2300), 475);
	assert_int_equal(8 * 24 * exchange_unit(419, 920000, 2300), 91200);
	/* the preview example at 430: 396 + 92 = 488, hold 93 696 */
	assert_int_equal(exchange_unit(430, 920000, 2300), 488);
	assert_int_equal(8 * 24 * exchange_unit(430, 920000, 2300), 93696);
}

static void test_usd_no_vat_is_exact(void **state)
{
	(void)state;
	for (int64_t p = 1; p <= 2000; p++) {
		assert_int_equal(exchange_unit(p, 1000000, 0), p);
		assert_int_equal(exchange_payout_unit(p, 1000000), p);
	}
}

static void test_rounding_directions(void **state)
{
	(void)state;
	/* buyers round up, sellers down: 288 USD cents in GBP = 227.52 */
	assert_int_equal(exchange_net_unit(288, 790000), 228);
	assert_int_equal(exchange_payout_unit(288, 790000), 227);
	assert_int_equal(exchange_vat_unit(228, 2000), 46);      /* 45.6 */
	assert_int_equal(exchange_vat_unit(100, 2550), 26);      /* 25.5: Finland */
	assert_int_equal(exchange_vat_unit(200, 2550), 51);      /* exact */
	assert_int_equal(exchange_vat_unit(0, 2300), 0);
	/* an exact conversion is not rounded up */
	assert_int_equal(exchange_net_unit(100, 920000), 92);
}

static void test_monotone_and_no_overflow(void **state)
{
	(void)state;
	/* a cheaper fill never costs more per GPU-hour: releases are never negative */
	for (int64_t p = 1; p < 5000; p++) {
		assert_true(exchange_unit(p, 920000, 2700) <= exchange_unit(p + 1, 920000, 2700));
		assert_true(exchange_unit(p, 790000, 2000) <= exchange_unit(p + 1, 790000, 2000));
	}
	/* the largest hold: 512 GPUs x 720 h at US$ 10 000, EUR, 27 % */
	int64_t u = exchange_unit(1000000, 920000, 2700);
	assert_int_equal(u, 920000 + 248400);
	assert_true(512 * 720 * u > 0);
}

static void test_parse_time(void **state)
{
	(void)state;
	int64_t ms;
	assert_int_equal(exchange_parse_time("1970-01-01T00:00:00Z", &ms), 0);
	assert_int_equal(ms, 0);
	assert_int_equal(exchange_parse_time("2030-01-01T09:00:00Z", &ms), 0);
	assert_int_equal(ms, 1893488400000LL);   /* date -u -d 2030-01-01T09:00:00Z +%s */
	assert_int_equal(exchange_parse_time("2030-01-01T10:00:00+01:00", &ms), 0);
	assert_int_equal(ms, 1893488400000LL);
	assert_int_equal(exchange_parse_time("2024-02-29T12:00:00.250Z", &ms), 0);
	assert_int_equal(ms, 1709208000250LL);
	assert_int_equal(exchange_parse_time("2023-02-29T12:00:00Z", &ms), -1);
	assert_int_equal(exchange_parse_time("2030-01-01 09:00", &ms), -1);
	assert_int_equal(exchange_parse_time("2030-13-01T09:00:00Z", &ms), -1);
	assert_int_equal(exchange_parse_time("2030-01-01T09:00:00", &ms), -1);
	assert_int_equal(exchange_parse_time("", &ms), -1);
	assert_int_equal(exchange_parse_time("2030-01-01T09:00:00Zjunk", &ms), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_api_md_example),
		cmocka_unit_test(test_usd_no_vat_is_exact),
		cmocka_unit_test(test_rounding_directions),
		cmocka_unit_test(test_monotone_and_no_overflow),
		cmocka_unit_test(test_parse_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
