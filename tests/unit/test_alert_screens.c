/*
 * Alerts in the TUI through the screen harness (tui/frame/harness.h)
 * against a real gpuxd --demo on loopback, its clock slowed so that the
 * demo's drift does not move the books (H200's best ask stays at the seed
 * pages' US$ 4.19): A on a row opens the alerts page with a new alert for
 * its GPU typed at its best ask; one that holds fires at once; one that
 * does not waits (4.18), and fires when a seller's ask crosses it — said on the
 * status bar with the bell, and listed under m (the messages); a line that
 * is not an alert is said so and kept; x removes an alert after asking; the
 * orders page shows a conditional order waiting and what it waits for; the
 * order form's When row places one; "job <= AMOUNT 24h" makes a job alert on
 * the fit panel's job (the demo's books run it: a budget above its cheapest
 * total fires at once — counted as the firings that ring the bell are, its total on the status bar; one
 * under it waits), and a job line without hours or a fit job is said so. A
 * server that cannot be started fails the tests.
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
	if (fx_demo_start("alertscreens", &cat, &gpuxd_pid, gpuxd_url, sizeof gpuxd_url) != 0)
		return -1;
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	fx_demo_stop(&cat, &gpuxd_pid);
	return 0;
}

static struct tui_harness *open_as(const char *key, int cols)
{
	return fx_session(cat, gpuxd_url, key, I18N_EN, false, 24, cols);
}

/* The tables filtered to H200, its row under the cursor; then A. */
static void alert_on_h200(struct tui_harness *h)
{
	fx_expect_on_screen(h, "H200");
	tui_harness_pump(h, 200);
	tui_harness_key(h, '/');
	tui_harness_type(h, "H200");
	tui_harness_key(h, WKEY_RETURN);
	tui_harness_key(h, 'A');
	assert_string_equal(tui_harness_top(h), "alerts");
}

/* The line typed anew: Ctrl-U, then text. */
static void retype(struct tui_harness *h, const char *text)
{
	tui_harness_key(h, 'U' - '@');
	tui_harness_type(h, text);
}

static void test_alert_from_a_row_at_its_best_ask(void **state)
{
	char *key = fx_first_account(gpuxd_url, "a1@example.com", "buyer", 1000000);
	struct tui_harness *h;

	(void)state;
	assert_non_null(key);
	h = open_as(key, 100);
	alert_on_h200(h);
	fx_expect_on_screen(h, "Alert on H200: ask <= 4.19");
	/* the ask is 4.19: an alert at 4.19 holds already, and fires now */
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, ": H200 ask at or below $4.19 — it holds already: it fired now.");
	fx_expect_on_screen(h, ": H200 ask at or below $4.19 — now $4.19");
	assert_int_equal(tui_harness_tui(h)->events.fired, 1);
	fx_expect_on_screen(h, "fired");
	tui_harness_free(&h);
	free(key);
}

static void test_alert_waits_then_fires_with_the_bell(void **state)
{
	char *key = fx_first_account(gpuxd_url, "a2@example.com", "buyer", 1000000);
	char *seller = fx_first_account(gpuxd_url, "s2@example.com", "seller", 0);
	struct tui_harness *h;
	char *r;

	(void)state;
	assert_non_null(key);
	assert_non_null(seller);
	h = open_as(key, 100);
	alert_on_h200(h);
	fx_expect_on_screen(h, "Alert on H200:");
	retype(h, "ask <= 4.18");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "H200 ask at or below $4.18. The exchange watches it");
	fx_expect_on_screen(h, "armed");
	assert_int_equal(tui_harness_tui(h)->events.fired, 0);
	/* a seller's ask at 4.18 (above the demo's bids) crosses it */
	r = fx_post(gpuxd_url, "/v1/orders", seller, "{\"client_order_id\":\"x1\",\"gpu\":\"h200\","
		    "\"side\":\"sell\",\"type\":\"limit\",\"gpus\":1,\"hours\":720,\"price_cents\":418}");
	assert_non_null(strstr(r, "\"status\":\"open\""));
	free(r);
	fx_expect_on_screen(h, "— now $4.18");
	assert_int_equal(tui_harness_tui(h)->events.fired, 1);
	/* the message history */
	tui_harness_key(h, 'm');
	fx_expect_on_screen(h, "Message");
	fx_expect_on_screen(h, ": H200 ask at or below $4.18 — now $4.18");
	tui_harness_key(h, 'm');
	fx_expect_on_screen(h, "Watches");
	/* removing it, after asking */
	tui_harness_key(h, 'x');
	fx_expect_on_screen(h, "Remove alert ");
	tui_harness_key(h, 'y');
	fx_expect_on_screen(h, " removed.");
	tui_harness_free(&h);
	free(key);
	free(seller);
}

static void test_a_line_that_is_no_alert(void **state)
{
	char *key = fx_first_account(gpuxd_url, "a3@example.com", "buyer", 1000000);
	struct tui_harness *h;
	char *r;

	(void)state;
	assert_non_null(key);
	h = open_as(key, 100);
	alert_on_h200(h);
	fx_expect_on_screen(h, "Alert on H200:");
	retype(h, "ask 4");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Type what to watch, e.g. ask <= 4.10");
	fx_expect_on_screen(h, "Alert on H200: ask 4");   /* kept, to be mended */
	retype(h, "bid >= 4.1.0");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_not_on_screen(h, "The exchange watches it");
	r = fx_get(gpuxd_url, "/v1/alerts", key);
	assert_non_null(strstr(r, "\"alerts\":[]"));
	free(r);
	tui_harness_free(&h);
	free(key);
}

/* The fit panel: Llama 3.1 405B at FP8, then back to the table. */
static void fit_405b_fp8(struct tui_harness *h)
{
	struct tui *t = tui_harness_tui(h);

	tui_harness_key(h, 'f');
	tui_harness_type(h, "llama-3.1-405b");
	tui_harness_key(h, WKEY_TAB); /* takes the preset, goes to the method */
	for (int i = 0; i < FIT_METHOD_COUNT && !(t->job.have && t->job.job.method == FIT_INFER_FP8); i++)
		tui_harness_key(h, WKEY_RIGHT);
	assert_true(t->job.have);
	assert_int_equal(t->job.job.method, FIT_INFER_FP8);
	tui_harness_key(h, WKEY_ESC);
}

static void test_job_alert_on_the_fit_job(void **state)
{
	char *key = fx_first_account(gpuxd_url, "a6@example.com", "buyer", 1000000);
	struct tui_harness *h;
	char *r;

	(void)state;
	assert_non_null(key);
	h = open_as(key, 160);
	alert_on_h200(h);
	retype(h, "job <= 900 24h");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Set a fit job first");
	tui_harness_key(h, WKEY_ESC);
	tui_harness_key(h, WKEY_ESC);
	fit_405b_fp8(h);
	alert_on_h200(h);
	retype(h, "job <= 900");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Give the hours the job rents, e.g. job <= 900 24h");
	/* far above what the demo's books ask for it: it holds, and fires now */
	retype(h, "job <= 100000 24h");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "(Inference FP8) for 24 h at or below €100,000.00 — it holds already: "
			    "it fired now.");
	fx_expect_on_screen(h, "(Inference FP8) for 24 h at or below €100,000.00 — now €");
	assert_int_equal(tui_harness_tui(h)->events.fired, 1);
	/* a budget of a dollar: it waits, listed in words */
	tui_harness_key(h, 'n');
	retype(h, "job <= 1 24h");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "for 24 h at or below €1.00. The exchange watches it");
	fx_expect_on_screen(h, "armed");
	r = fx_get(gpuxd_url, "/v1/alerts", key);
	assert_non_null(strstr(r, "\"when\":\"job_total_lte\""));
	assert_non_null(strstr(r, "\"max_total_minor\":100"));
	assert_non_null(strstr(r, "\"method\":\"infer-fp8\""));
	assert_non_null(strstr(r, "\"hours\":24"));
	free(r);
	assert_int_equal(tui_harness_tui(h)->events.fired, 1);
	tui_harness_free(&h);
	free(key);
}

static void test_orders_show_a_waiting_order(void **state)
{
	char *key = fx_first_account(gpuxd_url, "a4@example.com", "buyer", 1000000);
	struct tui_harness *h;
	char *r;

	(void)state;
	assert_non_null(key);
	r = fx_post(gpuxd_url, "/v1/orders", key, "{\"client_order_id\":\"w1\",\"gpu\":\"h200\","
		    "\"side\":\"buy\",\"type\":\"limit\",\"gpus\":2,\"hours\":3,\"price_cents\":400,"
		    "\"trigger\":{\"when\":\"ask_lte\",\"price_cents\":400}}");
	assert_non_null(strstr(r, "\"status\":\"waiting\""));
	free(r);
	h = open_as(key, 160);
	fx_expect_on_screen(h, "H200");
	tui_harness_key(h, 'o');
	fx_expect_on_screen(h, "waiting for its trigger");
	fx_expect_on_screen(h, "limit GTC · if ask at most $4.00");
	tui_harness_key(h, 'x');
	fx_expect_on_screen(h, "Cancel order");
	tui_harness_key(h, 'y');
	fx_expect_on_screen(h, "released to your available balance");
	tui_harness_free(&h);
	free(key);
}

/* The order form's When row: Tab to it, → twice (Standing, then "if ask ≤"
 * prefilled at the best ask), the trigger's price typed: placed, the order
 * waits off the book for it. */
static void test_order_form_places_a_conditional_order(void **state)
{
	char *key = fx_first_account(gpuxd_url, "a5@example.com", "buyer", 1000000);
	struct tui_harness *h;
	char *r;

	(void)state;
	assert_non_null(key);
	h = open_as(key, 120);
	fx_expect_on_screen(h, "H200");
	fx_settle(h);
	tui_harness_key(h, '/');
	tui_harness_type(h, "H200");
	tui_harness_key(h, WKEY_RETURN);
	tui_harness_key(h, 'b');
	fx_expect_on_screen(h, "Preview by the exchange");
	retype(h, "2");
	tui_harness_key(h, WKEY_TAB);
	retype(h, "3");
	for (int i = 0; i < 3; i++)   /* the price, in force, when */
		tui_harness_key(h, WKEY_TAB);
	fx_expect_on_screen(h, "Now: the order goes to the market at once.");
	tui_harness_key(h, WKEY_RIGHT);
	fx_expect_on_screen(h, "Standing: it keeps these GPUs");
	tui_harness_key(h, WKEY_RIGHT);
	fx_expect_on_screen(h, "If ask ≤");
	fx_expect_on_screen(h, "It waits off the book, its hold taken now");
	tui_harness_key(h, WKEY_TAB);
	retype(h, "4.00");
	fx_expect_on_screen(h, "Its trigger does not hold now: nothing fills now.");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Place this order?");
	tui_harness_key(h, 'y');
	fx_expect_on_screen(h, "Waiting: order ");
	fx_settle(h);
	r = fx_get(gpuxd_url, "/v1/orders?status=live", key);
	assert_non_null(strstr(r, "\"status\":\"waiting\""));
	assert_non_null(strstr(r, "\"trigger\":{\"when\":\"ask_lte\",\"price_cents\":400}"));
	free(r);
	tui_harness_free(&h);
	free(key);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alert_from_a_row_at_its_best_ask),
		cmocka_unit_test(test_alert_waits_then_fires_with_the_bell),
		cmocka_unit_test(test_a_line_that_is_no_alert),
		cmocka_unit_test(test_orders_show_a_waiting_order),
		cmocka_unit_test(test_order_form_places_a_conditional_order),
		cmocka_unit_test(test_job_alert_on_the_fit_job),
	};
	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
