/*
 * Screens built from C (tui/frame/harness.h) against a real gpuxd --demo on
 * loopback (and tests/tools/faultd for an exchange that does not answer):
 * keys are fed, the model (struct tui, the stack) and the cells the screen
 * shows are checked, with no terminal and no tmux. A server that cannot be
 * started fails the tests.
 */
#include "tests/unit/screen_fixture.h"

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "tui/market/browse.h"
#include "tui/frame/harness.h"
#include "tui/tui_int.h"
#include "util/util.h"

static struct catalog *cat;
static pid_t gpuxd_pid = -1, faultd_pid = -1;
static char gpuxd_url[64], faultd_url[64];
static char *buyer_key;

/* A buyer account with €5,000.00 on it: its key. */
static int setup_all(void **state)
{
	char *fx[] = { (char *)"--mode", (char *)"slow", (char *)"--delay-ms", (char *)"20000", NULL };

	(void)state;
	if (fx_demo_start("screens", &cat, &gpuxd_pid, gpuxd_url, sizeof gpuxd_url) != 0)
		return -1;
	faultd_pid = fx_start_server("tests/faultd", "faultd", fx, faultd_url, sizeof faultd_url);
	if (faultd_pid < 0)
		return -1;
	buyer_key = fx_first_account(gpuxd_url, "screens@example.pt", "buyer", 500000);
	if (buyer_key == NULL)
		return -1;
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	fx_stop_server(&faultd_pid);
	free(buyer_key);
	fx_demo_stop(&cat, &gpuxd_pid);
	return 0;
}

/* ---- sessions --------------------------------------------------------------------------------- */

static struct tui_harness *open_at(const char *url, const char *key, int lines, int cols)
{
	return fx_session(cat, url, key, I18N_EN, false, lines, cols);
}

static bool row_blank(struct tui_harness *h, int y)
{
	char *r = tui_harness_row(h, y);
	bool blank = r[0] == '\0';

	free(r);
	return blank;
}

/* The tables pull the market's prices: the generation counter moves, the
 * price column shows the demo's asks. */
static void test_browse_pulls_prices(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, buyer_key, 35, 120);
	struct tui *t = tui_harness_tui(h);

	(void)state;
	assert_string_equal(tui_harness_top(h), "browse");
	fx_expect_on_screen(h, "prices updated");
	assert_true(t->m.have_prices);
	assert_true(t->m.gen > 0);
	fx_expect_on_screen(h, "$");
	tui_harness_free(&h);
}

/* The quotes come streamed: the status bar says live, and since when;
 * nothing is polled while the stream is live. */
static void test_prices_streamed_live(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, buyer_key, 24, 120);
	struct tui *t = tui_harness_tui(h);

	(void)state;
	fx_expect_on_screen(h, "live since ");
	assert_int_equal(t->m.stream_state, API_STREAM_LIVE);
	assert_true(t->m.n_asks >= 15); /* every catalogue GPU quoted */
	assert_non_null(tui_market_quote(t, "h200"));
	/* a whole polling period and more: no poll is sent (nor in flight) */
	int64_t sent = t->m.quotes_sent_ms, end = util_now_ms() + TUI_REFRESH_MS + 500;
	while (util_now_ms() < end) {
		tui_harness_pump(h, 50);
		assert_int_equal(t->m.quotes_req, 0);
		assert_true(t->m.quotes_sent_ms == sent);
	}
	tui_harness_free(&h);
}

/* Enter on the H200 row: the detail screen with its ladder (asks above
 * the spread, bids below), a chart from the seeded history and trades;
 * Esc back to the tables. */
static void detail_at(int lines, int cols)
{
	struct tui_harness *h = open_at(gpuxd_url, buyer_key, lines, cols);
	struct tui *t = tui_harness_tui(h);
	char *row;

	fx_expect_on_screen(h, "live since ");
	tui_harness_key(h, '/');
	tui_harness_type(h, "H200");
	tui_harness_key(h, WKEY_RETURN);
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(tui_harness_top(h), "detail");
	row = tui_harness_row(h, 0);
	assert_non_null(strstr(row, "H200"));
	assert_non_null(strstr(row, "ask "));
	free(row);
	fx_expect_on_screen(h, "Cum. GPUs");
	fx_expect_on_screen(h, "spread ");
	fx_expect_on_screen(h, "Price, last 24 h");
	fx_expect_on_screen(h, "\u2588");
	fx_expect_on_screen(h, "Recent trades");
	assert_non_null(t->m.focus);
	assert_string_equal(t->m.focus->gpu, "h200");
	assert_true(t->m.focus->n_asks > 0);
	tui_harness_key(h, '3');
	fx_expect_on_screen(h, "Price, last 7 days");
	tui_harness_key(h, WKEY_ESC);
	assert_string_equal(tui_harness_top(h), "browse");
	assert_null(t->m.focus);
	tui_harness_free(&h);
}

/* A trade placed by another client (a plain POST, as a script would) shows
 * in the open detail screen's trades and in the last price, streamed: the
 * TUI asks nothing meanwhile (no quotes request, the focus stream live). */
static void test_trade_streamed_to_detail(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, buyer_key, 24, 80);
	struct tui *t = tui_harness_tui(h);
	uint64_t before;
	char *r;

	(void)state;
	fx_expect_on_screen(h, "live since ");
	tui_harness_key(h, '/');
	tui_harness_type(h, "H200");
	tui_harness_key(h, WKEY_RETURN);
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Recent trades");
	for (int i = 0; i < 80 && t->m.focus->state != API_STREAM_LIVE; i++)
		tui_harness_pump(h, 50);
	assert_int_equal(t->m.focus->state, API_STREAM_LIVE);
	before = t->m.focus->trade_gen;
	r = fx_post(gpuxd_url, "/v1/orders", buyer_key,
		 "{\"client_order_id\":\"screens-trade-1\",\"gpu\":\"h200\",\"side\":\"buy\",\"type\":\"market\",\"gpus\":3,"
		 "\"hours\":7,\"max_price_cents\":1000}");
	if (strstr(r, "\"filled\"") == NULL)
		print_error("order reply: %s\n", r);
	assert_non_null(strstr(r, "\"filled\""));
	free(r);
	for (int i = 0; i < 100 && t->m.focus->trade_gen == before; i++) {
		tui_harness_pump(h, 20);
		assert_int_equal(t->m.quotes_req, 0);
	}
	assert_true(t->m.focus->trade_gen > before);
	assert_int_equal(t->m.focus->trades[0].gpus, 3);
	assert_int_equal(t->m.focus->trades[0].hours, 7);
	fx_expect_on_screen(h, " 3 \u00d7 7 h");
	assert_int_equal(t->m.stream_state, API_STREAM_LIVE);
	tui_harness_free(&h);
}

static void test_detail_80x24(void **state)
{
	(void)state;
	detail_at(24, 80);
}

static void test_detail_120x35(void **state)
{
	(void)state;
	detail_at(35, 120);
}

static void test_detail_200x50(void **state)
{
	(void)state;
	detail_at(50, 200);
}


/* b opens the order form (a page over the tables); Esc goes back. */
static void test_order_form_opens_and_closes(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, buyer_key, 24, 80);

	(void)state;
	fx_expect_on_screen(h, "prices updated");
	tui_harness_key(h, 'b');
	assert_string_equal(tui_harness_top(h), "order-form");
	fx_expect_on_screen(h, "Order form");
	tui_harness_key(h, WKEY_ESC);
	assert_string_equal(tui_harness_top(h), "browse");
	tui_harness_free(&h);
}

/* Ctrl-L in a confirmation redraws; it neither confirms nor cancels. */
static void test_ctrl_l_keeps_the_confirmation(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, buyer_key, 24, 80);

	(void)state;
	fx_expect_on_screen(h, "prices updated");
	tui_harness_key(h, 'b');
	fx_expect_on_screen(h, "Order form");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Place this order?");
	assert_string_equal(tui_harness_top(h), "dialog");
	tui_harness_key(h, 'L' - '@');
	assert_string_equal(tui_harness_top(h), "dialog");
	assert_true(tui_harness_find(h, "Place this order?") >= 0);
	tui_harness_key(h, 'n');
	assert_string_equal(tui_harness_top(h), "order-form");
	fx_expect_on_screen(h, "Not placed");
	tui_harness_free(&h);
}

/* A dialog over a page, the terminal shrunk from 200×50 to 80×24: the page
 * tabs, the rows under them and the key bar are drawn again. */
static void test_dialog_survives_a_shrink(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, buyer_key, 50, 200);

	(void)state;
	fx_expect_on_screen(h, "prices updated");
	tui_harness_key(h, 'b');
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Place this order?");
	tui_harness_resize(h, 24, 80);
	assert_string_equal(tui_harness_top(h), "dialog");
	assert_true(tui_harness_find(h, "Place this order?") >= 0);
	for (int y = 0; y < 3; y++)
		assert_false(row_blank(h, y));
	assert_false(row_blank(h, 23));
	tui_harness_free(&h);
}

/* The help scrolls with the arrows and says so; another key closes it. */
static void test_help_scrolls_then_closes(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, buyer_key, 24, 80);

	(void)state;
	tui_harness_key(h, '?');
	assert_string_equal(tui_harness_top(h), "overlay");
	fx_expect_on_screen(h, "scroll");
	tui_harness_key(h, WKEY_DOWN);
	assert_string_equal(tui_harness_top(h), "overlay");
	tui_harness_key(h, 'x');
	assert_string_equal(tui_harness_top(h), "browse");
	tui_harness_free(&h);
}

/* The orders and account pages read the account. */
static void test_account_and_orders_pages(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, buyer_key, 24, 80);

	(void)state;
	tui_harness_key(h, 'a');
	assert_string_equal(tui_harness_top(h), "account");
	fx_expect_on_screen(h, "Available");
	fx_expect_on_screen(h, "5,000.00");
	tui_harness_key(h, 'o');
	assert_string_equal(tui_harness_top(h), "orders");
	fx_expect_on_screen(h, "Orders");
	tui_harness_key(h, WKEY_ESC);
	assert_string_equal(tui_harness_top(h), "browse");
	tui_harness_free(&h);
}

/* An exchange that never answers: the STALE reason counts its seconds. */
static void test_stale_reason_counts(void **state)
{
	struct tui_harness *h = open_at(faultd_url, NULL, 24, 100);
	int a = -1, b = -1;
	char *r;
	const char *p;
	int y;

	(void)state;
	fx_expect_on_screen(h, "no answer from the exchange for");
	y = tui_harness_find(h, "no answer from the exchange for");
	r = tui_harness_row(h, y);
	p = strstr(r, "for ");
	a = atoi(p + 4);
	free(r);
	tui_harness_pump(h, 2100);
	y = tui_harness_find(h, "no answer from the exchange for");
	assert_true(y >= 0);
	r = tui_harness_row(h, y);
	p = strstr(r, "for ");
	b = atoi(p + 4);
	free(r);
	assert_true(b >= a + 2);
	tui_harness_free(&h);
}

static bool has_col(const struct tui_tab *tb, const char *id)
{
	for (size_t i = 0; i < tb->n_col_ids; i++)
		if (strcmp(tb->col_ids[i], id) == 0)
			return true;
	return false;
}

/* The column chooser: the price is its last entry and fixed, as the GPU
 * column is first: Space does not hide it, K does not move it, and moving
 * the entry above it down stops there; whatever is chosen, the price is
 * the table's last column, pinned at the right edge. */
static void test_column_chooser_order(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, buyer_key, 35, 200);
	struct tui *t = tui_harness_tui(h);
	struct tui_browse *b = (struct tui_browse *)t->stack[0];
	struct tui_tab *tb = &b->tab[b->cur];
	char *head;

	(void)state;
	fx_expect_on_screen(h, "Price/h");
	tui_harness_key(h, 'c');
	assert_string_equal(tui_harness_top(h), "overlay");
	fx_expect_on_screen(h, "[\u2713] Price/h");
	/* End: the price; Space and K change nothing */
	tui_harness_key(h, WKEY_END);
	tui_harness_key(h, ' ');
	tui_harness_key(h, 'K');
	fx_expect_on_screen(h, "[\u2713] Price/h");
	/* the entry above it (24 h %) on, and moved down: it stays above */
	tui_harness_key(h, WKEY_UP);
	tui_harness_key(h, ' ');
	tui_harness_key(h, 'J');
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(tui_harness_top(h), "browse");
	assert_false(has_col(tb, "price")); /* fixed: not a choice to remember */
	assert_true(has_col(tb, "change_24h"));
	assert_int_equal(tb->view->columns[tb->vis[tb->n_vis - 1]].kind, VIEW_COL_PRICE);
	fx_expect_on_screen(h, "24 h %");
	head = tui_harness_row(h, 1);
	assert_true(strlen(head) > strlen("Price/h"));
	assert_string_equal(head + strlen(head) - strlen("Price/h"), "Price/h");
	free(head);
	tui_harness_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_browse_pulls_prices),
		cmocka_unit_test(test_prices_streamed_live),
		cmocka_unit_test(test_detail_80x24),
		cmocka_unit_test(test_trade_streamed_to_detail),
		cmocka_unit_test(test_detail_120x35),
		cmocka_unit_test(test_detail_200x50),
		cmocka_unit_test(test_order_form_opens_and_closes),
		cmocka_unit_test(test_ctrl_l_keeps_the_confirmation),
		cmocka_unit_test(test_dialog_survives_a_shrink),
		cmocka_unit_test(test_help_scrolls_then_closes),
		cmocka_unit_test(test_account_and_orders_pages),
		cmocka_unit_test(test_column_chooser_order),
		cmocka_unit_test(test_stale_reason_counts),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
