/*
 * The order form's pure model (tui/trade/order_model.c), without a terminal or
 * an exchange: what is typed read into an order (a number only once it
 * parses, prices in the language's own decimal separator), the suggested
 * price from the book, the account's role deciding the side, the same
 * order again, and the lines the form and its preview show.
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
#include "data/catalog.h"
#include "tests/unit/catalog_fixture.h"
#include "i18n/i18n.h"
#include "tui/trade/order_model.h"
#include "util/util.h"
#include "widgets/widgets.h"

static struct catalog *cat;

static int setup(void **state)
{
	(void)state;
	if (fx_catalog_load(&cat) != 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	catalog_free(&cat);
	return 0;
}

/* A form for H200 in lang, 8 × 24 typed, the price "price". */
static void form_for(struct order_model *m, enum i18n_lang lang, const char *price)
{
	i18n_init(lang);
	order_model_init(m, cat, lang, false);
	m->have_exchange = true;
	order_model_setup(m, "h200", false, 8, 24, 419);
	order_model_set_text(m, ORDER_PRICE, price);
	order_model_changed(m);
}

/* Every line as text, joined by "\n" (malloc'ed); the lines freed. */
static char *lines_text(struct tui_lines *ls)
{
	struct buf b = {0};

	for (size_t i = 0; i < ls->n; i++) {
		char *s = wcells_text(&ls->l[i]);
		buf_printf(&b, "%s\n", s);
		free(s);
	}
	tui_lines_free(ls);
	return b.data != NULL ? buf_take(&b) : xstrdup("");
}

static void test_inputs_read_as_typed(void **state)
{
	struct order_model m;

	(void)state;
	form_for(&m, I18N_EN, "4.19");
	assert_true(m.valid);
	assert_int_equal(m.req.gpus, 8);
	assert_int_equal(m.req.hours, 24);
	assert_int_equal(m.req.price_cents, 419);
	assert_string_equal(m.req.gpu, "h200");
	/* a count out of range, letters, nothing: the first bad field is named */
	order_model_set_text(&m, ORDER_GPUS, "513");
	order_model_set_text(&m, ORDER_HOURS, "ten");
	order_model_changed(&m);
	assert_false(m.valid);
	assert_int_equal(m.bad_row, ORDER_GPUS);
	assert_string_equal(m.bad, "GPUs: a whole number from 1 to 512");
	assert_string_equal(m.text_error[0], "1 to 512");
	assert_string_equal(m.text_error[1], "1 to 720");
	assert_null(m.text_error[2]);
	/* the English decimal point: "4,19" is not a price */
	order_model_set_text(&m, ORDER_GPUS, "8");
	order_model_set_text(&m, ORDER_HOURS, "24");
	order_model_set_text(&m, ORDER_PRICE, "4,19");
	order_model_changed(&m);
	assert_false(m.valid);
	assert_int_equal(m.bad_row, ORDER_PRICE);
	order_model_free(&m);
	/* … which is the pt-PT way to write it */
	form_for(&m, I18N_PT_PT, "4,19");
	assert_true(m.valid);
	assert_int_equal(m.req.price_cents, 419);
	/* a switch to English takes the point */
	order_model_set_lang(&m, I18N_EN);
	assert_string_equal(m.text[2], "4.19");
	assert_true(m.text_changed[2]);
	assert_true(m.valid);
	order_model_free(&m);
	i18n_init(I18N_EN);
}

/* Every change is a new generation; a preview answers only its own. */
static void test_generations(void **state)
{
	struct order_model m;
	struct api_preview *pv = xcalloc(1, sizeof *pv);
	uint64_t g;

	(void)state;
	form_for(&m, I18N_EN, "4.60");
	g = m.gen;
	pv->gpu = xstrdup("h200");
	pv->currency = xstrdup("EUR");
	order_model_set_preview(&m, pv, g, 1000);
	assert_true(order_model_preview_current(&m));
	order_model_set_text(&m, ORDER_GPUS, "9");
	order_model_changed(&m);
	assert_true(m.gen > g);
	assert_false(order_model_preview_current(&m));
	order_model_free(&m);
}

/* The suggested price: a market buy's cap is the best ask + 10 %, rounded
 * up to 10 cents; a limit the best ask; a typed price is never replaced. */
static void test_suggested_price(void **state)
{
	struct order_model m;
	struct api_book *b = xcalloc(1, sizeof *b);

	(void)state;
	i18n_init(I18N_EN);
	order_model_init(&m, cat, I18N_EN, false);
	order_model_setup(&m, "h200", false, 0, 0, 419);
	assert_string_equal(m.text[2], "4.60");
	assert_string_equal(m.text[0], "1");
	b->gpu = xstrdup("h200");
	b->asks = xcalloc(1, sizeof *b->asks);
	b->asks[0] = (struct api_level){ .price_cents = 500, .gpus = 8, .orders = 1 };
	b->n_asks = 1;
	order_model_set_book(&m, b, -1);
	m.focus = ORDER_TYPE;
	assert_true(order_model_choose(&m, 'l', -1));
	assert_int_equal(m.type, API_LIMIT);
	assert_int_equal(m.tif, API_GTC);
	assert_string_equal(m.text[2], "5.00");
	order_model_set_text(&m, ORDER_PRICE, "3.00");
	assert_true(m.price_touched);
	assert_true(order_model_choose(&m, 'm', -1));
	assert_string_equal(m.text[2], "3.00");
	order_model_free(&m);
}

/* A buyer account cannot choose to sell: the side stays, a note says why;
 * a form opened to sell on a buyer account turns to buy. */
static void test_role_decides_the_side(void **state)
{
	struct order_model m;

	(void)state;
	form_for(&m, I18N_EN, "4.60");
	order_model_set_role(&m, API_ROLE_BUYER, 419);
	m.focus = ORDER_SIDE;
	assert_false(order_model_choose(&m, 's', 419));
	assert_int_equal(m.side, API_BUY);
	assert_non_null(strstr(m.note, "buyer account"));
	order_model_setup(&m, "h200", true, 1, 1, 419);
	order_model_set_role(&m, API_ROLE_BUYER, 419);
	assert_int_equal(m.side, API_BUY);
	order_model_free(&m);
}

static void test_same_order_again(void **state)
{
	struct order_model m;

	(void)state;
	form_for(&m, I18N_EN, "4.60");
	assert_false(order_model_same_as_last(&m));
	order_model_remember_last(&m, &m.req, "h200", 12);
	assert_true(order_model_same_as_last(&m));
	order_model_set_text(&m, ORDER_HOURS, "25");
	order_model_changed(&m);
	assert_false(order_model_same_as_last(&m));
	order_model_free(&m);
}

/* The form's rows are where the screen puts its fields. */
static void test_form_lines(void **state)
{
	struct order_model m;
	struct tui_lines ls = {0};
	char *s;

	(void)state;
	form_for(&m, I18N_EN, "4.60");
	m.focus = ORDER_GPUS;
	order_model_form_lines(&m, order_model_label_width(&m), 37, &ls);
	assert_true(ls.n > ORDER_FORM_ROW0 + ORDER_TIF);
	s = wcells_text(&ls.l[ORDER_FORM_ROW0 + ORDER_SIDE]);
	assert_non_null(strstr(s, "Side"));
	assert_non_null(strstr(s, "Buy"));
	free(s);
	s = wcells_text(&ls.l[ORDER_FORM_ROW0 + ORDER_PRICE]);
	assert_non_null(strstr(s, "Max price/h"));
	free(s);
	s = lines_text(&ls);
	assert_non_null(strstr(s, "Buy H200"));
	assert_non_null(strstr(s, "How many GPUs, 1 to 512."));
	free(s);
	order_model_free(&m);
}

/* The When row: a trigger prefilled at the book's price and read as a
 * price; a standing order chosen with Limit and GTC, refused for a market
 * order, never on a sell. */
static void test_when_row(void **state)
{
	struct order_model m;
	struct tui_lines ls = {0};
	char *text;

	(void)state;
	form_for(&m, I18N_EN, "4.19");
	assert_int_equal(m.when, ORDER_NOW);
	assert_false(m.req.has_trigger);
	m.focus = ORDER_WHEN;
	assert_true(order_model_choose(&m, WKEY_RIGHT, 419));
	assert_int_equal(m.when, ORDER_STANDING);
	assert_int_equal(m.type, API_LIMIT);
	assert_int_equal(m.tif, API_GTC);
	assert_true(m.valid);
	assert_true(m.req.standing);
	/* a market standing order is refused, on the When row */
	m.type = API_MARKET;
	m.tif = API_IOC;
	order_model_changed(&m);
	assert_false(m.valid);
	assert_int_equal(m.bad_row, ORDER_WHEN);
	m.type = API_LIMIT;
	m.tif = API_GTC;
	/* the next: if the best ask is at most the trigger, prefilled at the quotes' ask */
	assert_true(order_model_choose(&m, WKEY_RIGHT, 419));
	assert_int_equal(m.when, ORDER_IF_ASK_LTE);
	assert_string_equal(m.text[order_text_index(ORDER_TRIGGER)], "4.19");
	assert_true(m.text_changed[order_text_index(ORDER_TRIGGER)]);
	order_model_set_text(&m, ORDER_TRIGGER, "4.10");
	order_model_changed(&m);
	assert_true(m.valid);
	assert_false(m.req.standing);
	assert_true(m.req.has_trigger);
	assert_int_equal(m.req.trigger_when, API_WHEN_ASK_LTE);
	assert_int_equal(m.req.trigger_price_cents, 410);
	order_model_set_text(&m, ORDER_TRIGGER, "");
	order_model_changed(&m);
	assert_false(m.valid);
	assert_int_equal(m.bad_row, ORDER_TRIGGER);
	assert_string_equal(m.text_error[order_text_index(ORDER_TRIGGER)], "needed");
	/* the lines name the row and its value */
	order_model_set_text(&m, ORDER_TRIGGER, "4.10");
	order_model_changed(&m);
	order_model_form_lines(&m, order_model_label_width(&m), 60, &ls);
	text = lines_text(&ls);
	assert_non_null(strstr(text, "When"));
	assert_non_null(strstr(text, "If ask ≤"));
	assert_non_null(strstr(text, "Trigger/h"));
	free(text);
	/* back around: a sell skips Standing */
	m.side = API_SELL;
	m.when = ORDER_NOW;
	assert_true(order_model_choose(&m, WKEY_RIGHT, 419));
	assert_int_equal(m.when, ORDER_IF_ASK_LTE);
	assert_true(order_model_choose(&m, WKEY_LEFT, 419));
	assert_true(order_model_choose(&m, WKEY_LEFT, 419));
	assert_int_equal(m.when, ORDER_IF_LAST_GTE);
	order_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inputs_read_as_typed),
		cmocka_unit_test(test_generations),
		cmocka_unit_test(test_suggested_price),
		cmocka_unit_test(test_role_decides_the_side),
		cmocka_unit_test(test_same_order_again),
		cmocka_unit_test(test_form_lines),
		cmocka_unit_test(test_when_row),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
