/*
 * Orders in plain words (view/order.c), shared by `gpux order`, `gpux
 * orders` and the TUI's order pages: the plural forms of a count of GPUs
 * ("1 × H100 SXM GPU", "fill: 1 GPU"), fills at one price as one level
 * (GPUs summed, its rentals named), and the price an orders list shows (a
 * market order's average fill, not its cap).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/api.h"
#include "i18n/i18n.h"
#include "util/util.h"
#include "view/view.h"

static void expect_in(const char *text, const char *part)
{
	if (strstr(text, part) == NULL) {
		print_error("[%s] is not in:\n%s\n", part, text);
		fail();
	}
}

static void expect_not_in(const char *text, const char *part)
{
	if (strstr(text, part) != NULL) {
		print_error("[%s] should not be in:\n%s\n", part, text);
		fail();
	}
}

/* A filled market buy of gpus GPUs × 3 h in one fill at US$2.88. */
static struct api_order filled(int64_t gpus, struct api_fill *fill)
{
	*fill = (struct api_fill){ .price_cents = 288, .gpus = gpus, .hours = 3, .rental_id = 77 };
	return (struct api_order){
		.id = 5, .gpu = (char *)"h100-sxm", .side = API_BUY, .type = API_MARKET,
		.tif = API_IOC, .gpus = gpus, .hours = 3, .price_cents = 1000,
		.status = API_ORDER_FILLED, .filled_gpus = gpus, .filled_value_cents = 288 * gpus,
		.fills = fill, .n_fills = 1,
	};
}

static void test_one_gpu_singular(void **state)
{
	struct api_fill f;
	struct api_order o = filled(1, &f);
	char *s;

	(void)state;
	s = view_order_result(I18N_EN, "H100 SXM", &o);
	expect_in(s, "Filled: order 5, 1 × H100 SXM GPU for 3 h at $2.88 per GPU-hour (average).");
	expect_in(s, "  fill: 1 GPU × 3 h at $2.88 — rental 77");
	expect_not_in(s, "GPUs");
	free(s);
	o = filled(6, &f);
	s = view_order_result(I18N_EN, "H100 SXM", &o);
	expect_in(s, "6 × H100 SXM GPUs for 3 h");
	expect_in(s, "fill: 6 GPUs × 3 h");
	free(s);
	/* a resting order of one GPU, and one resting after a partial fill */
	o = filled(1, &f);
	o.status = API_ORDER_OPEN;
	o.type = API_LIMIT;
	o.filled_gpus = 0;
	o.n_fills = 0;
	o.remaining_gpus = 1;
	s = view_order_result(I18N_EN, "H100 SXM", &o);
	expect_in(s, "1 × H100 SXM GPU at $10.00 per GPU-hour is on the book");
	free(s);
	o.status = API_ORDER_PARTIALLY_FILLED;
	o.gpus = 3;
	o.filled_gpus = 2;
	o.filled_value_cents = 576;
	s = view_order_result(I18N_EN, "H100 SXM", &o);
	expect_in(s, "2 of 3 GPUs at $2.88 (average); 1 GPU rests on the book at $10.00.");
	free(s);
	/* pt-PT's singular too */
	o = filled(1, &f);
	s = view_order_result(I18N_PT_PT, "H100 SXM", &o);
	expect_in(s, "1 × H100 SXM GPU ");
	expect_not_in(s, "GPUs");
	free(s);
}

/* Two sellers at US$4.19 and one at US$4.23: two levels, two lines. */
static void test_fills_by_level(void **state)
{
	struct api_fill f[3] = {
		{ .price_cents = 419, .gpus = 16, .hours = 1, .rental_id = 10 },
		{ .price_cents = 419, .gpus = 8, .hours = 1, .rental_id = 11 },
		{ .price_cents = 423, .gpus = 16, .hours = 1, .rental_id = 12 },
	};
	struct api_order o = {
		.id = 9, .gpu = (char *)"h200", .side = API_BUY, .type = API_MARKET, .tif = API_IOC,
		.gpus = 40, .hours = 1, .price_cents = 2000, .status = API_ORDER_FILLED,
		.filled_gpus = 40, .filled_value_cents = 24 * 419 + 16 * 423, .fills = f, .n_fills = 3,
	};
	struct api_preview_fill pf[3] = { { .price_cents = 419, .gpus = 16 }, { .price_cents = 419, .gpus = 8 },
					  { .price_cents = 423, .gpus = 16 } }, lv[3];
	struct api_preview p = {
		.gpu = (char *)"h200", .side = API_BUY, .type = API_MARKET, .tif = API_IOC,
		.gpus = 40, .hours = 1, .price_cents = 2000, .fills = pf, .n_fills = 3,
		.fill_gpus = 40, .currency = (char *)"USD",
	};
	struct api_order_req r = { .gpu = "h200", .side = API_BUY, .type = API_MARKET, .gpus = 40,
				   .hours = 1, .price_cents = 2000, .tif = API_IOC };
	char *s;

	(void)state;
	assert_int_equal(view_fill_levels(pf, 3, lv), 2);
	assert_int_equal(lv[0].price_cents, 419);
	assert_int_equal(lv[0].gpus, 24);
	assert_int_equal(lv[1].price_cents, 423);
	assert_int_equal(lv[1].gpus, 16);
	s = view_order_result(I18N_EN, "H200", &o);
	expect_in(s, "  fill: 24 GPUs × 1 h at $4.19 — rentals 10, 11\n"
		     "  fill: 16 GPUs × 1 h at $4.23 — rental 12");
	free(s);
	s = view_order_summary(I18N_EN, "H200", &r, &p);
	expect_in(s, "Fills now: 24 GPUs at $4.19, 16 GPUs at $4.23.");
	free(s);
}

/* A market order's price in a list is what it paid on average. */
static void test_list_price(void **state)
{
	struct api_fill f;
	struct api_order o = filled(2, &f);

	(void)state;
	assert_int_equal(view_order_list_price(&o), 288);
	o.filled_gpus = 0;
	assert_int_equal(view_order_list_price(&o), -1);
	o.type = API_LIMIT;
	assert_int_equal(view_order_list_price(&o), 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_gpu_singular),
		cmocka_unit_test(test_fills_by_level),
		cmocka_unit_test(test_list_price),
	};

	i18n_init(I18N_EN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
