/*
 * The order pages through the screen harness (tui/frame/harness.h) against a
 * real gpuxd --demo on loopback, its clock slowed so that the demo's drift
 * does not move the books: what the order form, the orders and rentals
 * lists and the account page show, cell by cell, in English and in the
 * languages whose money is widest (pt-PT, pt-BR, es) at 80×24. A server
 * that cannot be started fails the tests.
 */
#include "tests/unit/screen_fixture.h"

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "tui/frame/harness.h"
#include "tui/tui_int.h"
#include "util/util.h"

static struct catalog *cat;
static pid_t gpuxd_pid = -1;
static char gpuxd_url[64];

static int setup_all(void **state)
{
	(void)state;
	if (fx_demo_start("orderpages", &cat, &gpuxd_pid, gpuxd_url, sizeof gpuxd_url) != 0)
		return -1;
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	fx_demo_stop(&cat, &gpuxd_pid);
	return 0;
}

/* A new buyer account with deposit_minor (EUR cents) on it: its key. */
static char *buyer(const char *email, int64_t deposit_minor)
{
	char *key = NULL;

	for (int i = 0; i < 50 && key == NULL; i++) {
		key = fx_new_account(gpuxd_url, email, "buyer", deposit_minor);
		if (key == NULL)
			usleep(100 * 1000);
	}
	if (key == NULL)
		fail_msg("no account from gpuxd at %s", gpuxd_url);
	return key;
}

static struct tui_harness *open_as(const char *key, enum i18n_lang lang, int lines, int cols)
{
	return fx_session(cat, gpuxd_url, key, lang, false, lines, cols);
}

static void close_session(struct tui_harness **h)
{
	tui_harness_free(h);
	i18n_init(I18N_EN);
}

/* The tables filtered to one GPU (its row under the cursor). */
static void choose_gpu(struct tui_harness *h, const char *name)
{
	fx_expect_on_screen(h, "H200");
	fx_settle(h); /* the market and the account came */
	tui_harness_key(h, '/');
	tui_harness_type(h, name);
	tui_harness_key(h, WKEY_RETURN);
}

/* The order form for one GPU, gpus × hours at price (focus starts on GPUs). */
static void form_for(struct tui_harness *h, const char *name, const char *gpus,
		     const char *hours, const char *price)
{
	choose_gpu(h, name);
	tui_harness_key(h, 'b');
	assert_string_equal(tui_harness_top(h), "order-form");
	tui_harness_key(h, 'U' - '@');
	tui_harness_type(h, gpus);
	tui_harness_key(h, WKEY_TAB);
	tui_harness_key(h, 'U' - '@');
	tui_harness_type(h, hours);
	tui_harness_key(h, WKEY_TAB);
	tui_harness_key(h, 'U' - '@');
	tui_harness_type(h, price);
	fx_settle(h); /* the preview of what was typed (after its debounce) */
}

/* The first row showing text, as a string (malloc'ed; fails if none). */
static char *row_with(struct tui_harness *h, const char *text)
{
	int y = tui_harness_find(h, text);

	if (y < 0) {
		char *s = tui_harness_screen(h);
		print_error("no row shows [%s]\n%s", text, s);
		free(s);
		fail();
	}
	return tui_harness_row(h, y);
}

/* The preview warns of a refusal; Enter explains it under the fields: the
 * form says "Not enough money" once, not in both panels. */
static void test_not_enough_money_said_once(void **state)
{
	char *key = buyer("poor@example.pt", 1000);
	struct tui_harness *h = open_as(key, I18N_EN, 24, 80);

	(void)state;
	form_for(h, "H200", "8", "24", "5");
	fx_expect_on_screen(h, "Not enough money");
	assert_int_equal(fx_count_on_screen(h, "Not enough money"), 1);
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Not placed: see the form");
	assert_int_equal(fx_count_on_screen(h, "Not enough money"), 1);
	assert_int_equal(fx_count_on_screen(h, "Place this order?"), 0);
	close_session(&h);
	free(key);
}

/* At 80×24 the balance before and after the order is never cut, in the
 * languages whose money is widest: what does not fit beside the label goes
 * on under it, each amount whole. */
static void balance_after_fits(enum i18n_lang lang, const char *label, const char *email)
{
	char *key = buyer(email, 100000000);
	struct tui_harness *h = open_as(key, lang, 24, 80);
	char *row, *next, *both;
	int y;

	form_for(h, "H200", "8", "24", lang == I18N_EN ? "5.00" : "5,00");
	fx_expect_on_screen(h, "\u2192");
	y = tui_harness_find(h, "\u2192");
	row = tui_harness_row(h, y);
	next = tui_harness_row(h, y + 1);
	both = xasprintf("%s\n%s", row, next);
	if (strstr(row, label) == NULL || strstr(both, "\u2026") != NULL ||
	    strstr(both, "1.000.000,00") == NULL || strstr(both, "999.088,00") == NULL) {
		char *s = tui_harness_screen(h);
		print_error("the balance line is cut or missing:\n%s", s);
		free(s);
		fail();
	}
	free(both);
	free(row);
	free(next);
	/* nor the best prices over the form ("melhor compr…") */
	for (y = 1; y <= 3; y++) {
		row = tui_harness_row(h, y);
		if (strstr(row, "\u2026") != NULL)
			fail_msg("row %d is cut: [%s]", y, row);
		free(row);
	}
	close_session(&h);
	free(key);
}

static void test_balance_after_fits_pt_pt(void **state)
{
	(void)state;
	balance_after_fits(I18N_PT_PT, "Disponível", "rich-pt@example.pt");
}

static void test_balance_after_fits_pt_br(void **state)
{
	(void)state;
	balance_after_fits(I18N_PT_BR, "Disponível", "rich-br@example.pt");
}

static void test_balance_after_fits_es(void **state)
{
	(void)state;
	balance_after_fits(I18N_ES, "Disponible", "rich-es@example.pt");
}

/* Fills at one price are one level: the H200 asks at US$4.19 come from two
 * sellers (16 + 8 GPUs); 40 GPUs fill 24 there and 16 at US$4.23. */
static void test_fills_grouped_by_level(void **state)
{
	char *key = buyer("levels@example.pt", 10000000);
	struct tui_harness *h = open_as(key, I18N_EN, 24, 100);
	char *row;

	(void)state;
	form_for(h, "H200", "40", "1", "20.00");
	fx_expect_on_screen(h, "Fills now");
	row = row_with(h, "Fills now");
	if (strstr(row, "24 × $4.19, 16 × $4.23") == NULL) {
		char *s = tui_harness_screen(h);
		print_error("fills not grouped by level:\n%s", s);
		free(s);
		fail();
	}
	free(row);
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Place this order?");
	fx_expect_on_screen(h, "24 GPUs at $4.19, 16 GPUs at $4.23");
	tui_harness_key(h, 'n');
	close_session(&h);
	free(key);
}

/* A market order's row in the orders list shows the average price it
 * filled at, not the cap it was sent with. */
static void test_orders_list_market_average(void **state)
{
	char *key = buyer("market@example.pt", 10000000);
	struct tui_harness *h;
	char *r, *row, *avg;
	long long value, gpus;

	(void)state;
	r = fx_post(gpuxd_url, "/v1/orders", key,
		    "{\"client_order_id\":\"pages-market-1\",\"gpu\":\"h100-sxm\",\"side\":\"buy\","
		    "\"type\":\"market\",\"gpus\":2,\"hours\":3,\"max_price_cents\":1000}");
	value = fx_json_int(r, "filled_value_cents");
	gpus = fx_json_int(r, "filled_gpus");
	if (gpus != 2)
		print_error("order reply: %s\n", r);
	assert_int_equal(gpus, 2);
	free(r);
	avg = i18n_fmt_money(I18N_EN, (value + gpus / 2) / gpus, "USD");
	h = open_as(key, I18N_EN, 24, 120);
	tui_harness_key(h, 'o');
	fx_expect_on_screen(h, "market IOC");
	row = row_with(h, "market IOC");
	if (strstr(row, avg) == NULL || strstr(row, "$10.00") != NULL) {
		print_error("want the average %s, not the cap $10.00: [%s]\n", avg, row);
		fail();
	}
	free(row);
	free(avg);
	close_session(&h);
	free(key);
}

/* Enter on the list's row: the H100 SXM detail; Esc: the list (page, showing
 * text) again. */
static void detail_and_back(struct tui_harness *h, const char *page, const char *text)
{
	char *row;

	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(tui_harness_top(h), "detail");
	row = tui_harness_row(h, 0);
	assert_non_null(strstr(row, "H100 SXM"));
	free(row);
	tui_harness_key(h, WKEY_ESC);
	assert_string_equal(tui_harness_top(h), page);
	fx_expect_on_screen(h, text);
}

/* A buyer (email) who bought 1 × H100 SXM for 2 h (client order id coid),
 * its session at 120×24 on the orders page; its key in *key. */
static struct tui_harness *on_orders_after_a_buy(const char *email, const char *coid, char **key)
{
	char body[256], *r;
	struct tui_harness *h;

	*key = buyer(email, 10000000);
	snprintf(body, sizeof body, "{\"client_order_id\":\"%s\",\"gpu\":\"h100-sxm\","
		 "\"side\":\"buy\",\"type\":\"market\",\"gpus\":1,\"hours\":2,"
		 "\"max_price_cents\":1000}", coid);
	r = fx_post(gpuxd_url, "/v1/orders", *key, body);
	assert_int_equal(fx_json_int(r, "filled_gpus"), 1);
	free(r);
	h = open_as(*key, I18N_EN, 24, 120);
	tui_harness_key(h, 'o');
	fx_expect_on_screen(h, "market IOC");
	return h;
}

/* Enter on a row of the orders or rentals list opens that GPU's detail
 * screen over the page; Esc comes back to the list. */
static void test_enter_opens_detail(void **state)
{
	char *key;
	struct tui_harness *h = on_orders_after_a_buy("detail@example.pt", "pages-detail-1", &key);

	(void)state;
	detail_and_back(h, "orders", "market IOC");
	tui_harness_key(h, 'R');
	fx_expect_on_screen(h, "1/2");
	detail_and_back(h, "rentals", "1/2");
	close_session(&h);
	free(key);
}

/* The F-key bar's row (the last of 24) holds each of has (NULL-ended) and
 * none of lacks: the bar is made from the page's key map. */
static void expect_bar(struct tui_harness *h, const char *const *has, const char *const *lacks)
{
	char *bar = tui_harness_row(h, 23);

	for (size_t i = 0; has[i] != NULL; i++)
		if (strstr(bar, has[i]) == NULL)
			fail_msg("the F-key bar lacks [%s]: [%s]", has[i], bar);
	for (size_t i = 0; lacks[i] != NULL; i++)
		if (strstr(bar, lacks[i]) != NULL)
			fail_msg("the F-key bar offers [%s]: [%s]", lacks[i], bar);
	free(bar);
}

/* Each page's F-key bar offers its own keys and the other pages (never the
 * page itself), Help first and Quit last; Tab goes round the pages. */
static void test_fkey_bars_of_the_pages(void **state)
{
	char *key = buyer("bars@example.pt", 100000);
	struct tui_harness *h = open_as(key, I18N_EN, 24, 120);
	char *bar;

	(void)state;
	fx_expect_on_screen(h, "prices updated");
	tui_harness_key(h, 'o');
	fx_expect_on_screen(h, "resting order");
	expect_bar(h, (const char *const[]){ "xCancel order", "RRentals", "aAccount", "EscBack",
					     "F1Help", "F10Quit", NULL },
		   (const char *const[]){ "oOrders", "F5Buy", NULL });
	bar = tui_harness_row(h, 23);
	assert_true(strncmp(bar, "F1Help", 6) == 0);
	assert_true(strstr(bar, "F10Quit") > strstr(bar, "EscBack"));
	free(bar);
	tui_harness_key(h, WKEY_TAB);
	assert_string_equal(tui_harness_top(h), "rentals");
	expect_bar(h, (const char *const[]){ "xStop early", "oOrders", "aAccount", NULL },
		   (const char *const[]){ "RRentals", "Cancel order", NULL });
	tui_harness_key(h, WKEY_TAB);
	assert_string_equal(tui_harness_top(h), "account");
	fx_expect_on_screen(h, "API keys (");
	expect_bar(h, (const char *const[]){ "dDeposit", "nNew key", "xRevoke key", "oOrders",
					     "RRentals", NULL },
		   (const char *const[]){ "aAccount", "Account or key", NULL });
	tui_harness_key(h, WKEY_TAB);
	assert_string_equal(tui_harness_top(h), "alerts");
	/* no order form yet: Tab skips its tab */
	tui_harness_key(h, WKEY_TAB);
	assert_string_equal(tui_harness_top(h), "orders");
	close_session(&h);
	free(key);
}

/* b on the detail screen opened over a page: the order form comes on top
 * (the page it replaces is kept), Esc goes back to the detail, then to the
 * tables; the orders page, shown again, still lists what it listed. */
static void test_form_over_the_detail_over_a_page(void **state)
{
	char *key;
	struct tui_harness *h = on_orders_after_a_buy("over@example.pt", "pages-over-1", &key);

	(void)state;
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(tui_harness_top(h), "detail");
	tui_harness_key(h, 'b');
	assert_string_equal(tui_harness_top(h), "order-form");
	fx_expect_on_screen(h, "Buy H100 SXM");
	tui_harness_key(h, WKEY_ESC);
	assert_string_equal(tui_harness_top(h), "detail");
	tui_harness_key(h, WKEY_ESC);
	assert_string_equal(tui_harness_top(h), "browse");
	tui_harness_key(h, 'o');
	assert_string_equal(tui_harness_top(h), "orders");
	fx_expect_on_screen(h, "market IOC");
	close_session(&h);
	free(key);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fills_grouped_by_level),
		cmocka_unit_test(test_not_enough_money_said_once),
		cmocka_unit_test(test_balance_after_fits_pt_pt),
		cmocka_unit_test(test_balance_after_fits_pt_br),
		cmocka_unit_test(test_balance_after_fits_es),
		cmocka_unit_test(test_orders_list_market_average),
		cmocka_unit_test(test_enter_opens_detail),
		cmocka_unit_test(test_fkey_bars_of_the_pages),
		cmocka_unit_test(test_form_over_the_detail_over_a_page),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
