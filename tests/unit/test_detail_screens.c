/*
 * The detail screen among the tables, built from C (tui/frame/harness.h)
 * against a real gpuxd --demo on loopback: ↓/j and ↑/k go to the next and
 * previous GPU of the table the detail was opened from (its sort and
 * filter), keeping the chart's range and the book's node size, the tables'
 * cursor following; and "Yours on this GPU": the account's open orders and
 * active rentals there, as the exchange lists them, a new rental shown once
 * it is made.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "tests/unit/screen_fixture.h"
#include "tui/frame/harness.h"
#include "tui/tui_int.h"
#include "util/util.h"
#include "view/view.h"

static struct catalog *cat;
static pid_t gpuxd_pid = -1;
static char gpuxd_url[64];
static char *buyer_key;

static int setup_all(void **state)
{
	(void)state;
	if (fx_demo_start("detailscreens", &cat, &gpuxd_pid, gpuxd_url, sizeof gpuxd_url) != 0)
		return -1;
	setenv("XDG_STATE_HOME", fx_tmpdir, 1);
	setenv("TZ", "UTC", 1);
	buyer_key = fx_first_account(gpuxd_url, "detail@example.pt", "buyer", 500000);
	return buyer_key != NULL ? 0 : -1;
}

static int teardown_all(void **state)
{
	(void)state;
	free(buyer_key);
	fx_demo_stop(&cat, &gpuxd_pid);
	return 0;
}

static struct tui_harness *open_as(const char *key, enum i18n_lang lang, int lines, int cols)
{
	return fx_session(cat, gpuxd_url, key, lang, false, lines, cols);
}

/* The tables sorted by name, a stable order while prices move. */
static void sort_by_name(struct tui_harness *h)
{
	fx_expect_on_screen(h, "live since ");
	tui_harness_key(h, ':');
	tui_harness_type(h, "sort gpu");
	tui_harness_key(h, WKEY_RETURN);
	tui_harness_key(h, WKEY_HOME);
	fx_settle(h);
}

/* The name of the table's shown row i. */
static const char *row_name(struct tui_harness *h, size_t i)
{
	const struct view_table *v = tui_harness_tui(h)->sel.view;

	assert_non_null(v);
	assert_true(i < v->n_shown);
	return view_shown_row(v, i)->gpu->name;
}

/* The detail's first row names GPU name (" NAME vendor arch  ask …"). */
static void expect_detail_of(struct tui_harness *h, const char *name)
{
	size_t n = strlen(name);

	for (int i = 0; i < 160; i++) {
		char *r = tui_harness_row(h, 0);
		bool ok = strncmp(r + 1, name, n) == 0 && r[1 + n] == ' ';
		free(r);
		if (ok && strcmp(tui_harness_top(h), "detail") == 0)
			return;
		tui_harness_pump(h, 50);
	}
	char *s = tui_harness_screen(h);
	fprintf(stderr, "not the detail of %s:\n%s\n", name, s);
	free(s);
	fail();
}

/* ↓ from the first row's detail: the second row's, the range (7 days), the
 * candle view and the node size (8) kept; k back; ↑ at the first row says there is none and
 * stays; Esc: the tables, the cursor on the GPU last shown. */
static void test_next_and_previous_keep_the_view(void **state)
{
	struct tui_harness *h = open_as(buyer_key, I18N_EN, 35, 120);
	struct tui *t = tui_harness_tui(h);
	char first[64], second[64], third[64];

	(void)state;
	sort_by_name(h);
	snprintf(first, sizeof first, "%s", row_name(h, 0));
	snprintf(second, sizeof second, "%s", row_name(h, 1));
	snprintf(third, sizeof third, "%s", row_name(h, 2));
	tui_harness_key(h, WKEY_RETURN);
	expect_detail_of(h, first);
	tui_harness_key(h, '3');
	tui_harness_key(h, 'n');
	tui_harness_key(h, 'c');
	fx_expect_on_screen(h, "Candles, last 7 days");
	fx_expect_on_screen(h, "Book: nodes of 8 GPUs");

	tui_harness_key(h, WKEY_DOWN);
	expect_detail_of(h, second);
	fx_expect_on_screen(h, "Candles, last 7 days");
	fx_expect_on_screen(h, "Book: nodes of 8 GPUs");
	tui_harness_key(h, 'c');
	fx_expect_on_screen(h, "Price, last 7 days");
	assert_string_equal(t->m.focus->gpu, view_shown_row(t->sel.view, 1)->gpu->id);
	tui_harness_key(h, 'j');
	expect_detail_of(h, third);
	tui_harness_key(h, 'k');
	expect_detail_of(h, second);
	tui_harness_key(h, WKEY_UP);
	expect_detail_of(h, first);
	fx_expect_on_screen(h, "Price, last 7 days");
	tui_harness_key(h, WKEY_UP);
	fx_expect_on_screen(h, "The first GPU of the table: no previous one");
	expect_detail_of(h, first);

	tui_harness_key(h, 'j');
	expect_detail_of(h, second);
	tui_harness_key(h, WKEY_ESC);
	assert_string_equal(tui_harness_top(h), "browse");
	assert_int_equal(t->sel.row, 1);
	tui_harness_free(&h);
}

/* With a filter the steps go through the rows it shows: from its last, no next. */
static void test_steps_follow_the_filter(void **state)
{
	struct tui_harness *h = open_as(buyer_key, I18N_EN, 24, 80);
	const struct view_table *v;

	(void)state;
	sort_by_name(h);
	tui_harness_key(h, '/');
	tui_harness_type(h, "h100|h200");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, " of ");
	v = tui_harness_tui(h)->sel.view;
	size_t n = v->n_shown;
	assert_true(n >= 2 && n < cat->n_gpus);
	char last[64];
	snprintf(last, sizeof last, "%s", row_name(h, n - 1));
	tui_harness_key(h, WKEY_RETURN);
	expect_detail_of(h, row_name(h, 0));
	for (size_t i = 1; i < n; i++) {
		tui_harness_key(h, 'j');
		expect_detail_of(h, row_name(h, i));
	}
	expect_detail_of(h, last);
	tui_harness_key(h, 'j');
	fx_expect_on_screen(h, "The last GPU of the table: no next one");
	expect_detail_of(h, last);
	tui_harness_free(&h);
}

/* The best ask of gpu, in cents (the exchange's book). */
static long long best_ask(const char *gpu)
{
	char path[64], *b;
	long long p;

	snprintf(path, sizeof path, "/v1/books/%s?depth=1", gpu);
	b = fx_get(gpuxd_url, path, buyer_key);
	p = fx_json_int(strstr(b, "\"asks\""), "price_cents");
	free(b);
	return p;
}

/* A buy of gpus × hours on gpu at price, limit tif: the order's id. */
static long long buy(const char *coid, const char *gpu, int gpus, int hours, long long price,
		     const char *tif)
{
	char body[256], *r;
	long long id;

	snprintf(body, sizeof body, "{\"client_order_id\":\"%s\",\"gpu\":\"%s\",\"side\":\"buy\","
		 "\"type\":\"limit\",\"time_in_force\":\"%s\",\"gpus\":%d,\"hours\":%d,\"price_cents\":%lld}",
		 coid, gpu, tif, gpus, hours, price);
	r = fx_post(gpuxd_url, "/v1/orders", buyer_key, body);
	id = fx_json_int(r, "id");
	if (id <= 0)
		print_error("%s\n-> %s\n", body, r);
	free(r);
	assert_true(id > 0);
	return id;
}

/* The line the section shows for the account's rental of gpu made by order. */
static char *rental_text(const char *gpu, long long order)
{
	char path[96], *r, *at, line[256];
	long long id, gpus, hours, billed, price;

	snprintf(path, sizeof path, "/v1/rentals?status=active&gpu=%s", gpu);
	r = fx_get(gpuxd_url, path, buyer_key);
	snprintf(line, sizeof line, "\"order_id\":%lld", order);
	at = strstr(r, line);
	assert_non_null(at);
	while (at > r && strncmp(at, "{\"id\":", 6) != 0)
		at--;
	id = fx_json_int(at, "id");
	gpus = fx_json_int(at, "gpus");
	hours = fx_json_int(at, "hours");
	billed = fx_json_int(at, "hours_billed");
	price = fx_json_int(at, "price_cents");
	free(r);
	char *p = i18n_fmt_money(I18N_EN, price, "USD");
	snprintf(line, sizeof line, "rental %lld: %lld GPU%s, %lld of %lld h used, %s/h", id, gpus,
		 gpus == 1 ? "" : "s", billed, hours, p);
	free(p);
	return xstrdup(line);
}

/* An open bid far under the asks and a rental bought at the ask: both in
 * "Yours on this GPU", as the exchange lists them; a second rental, bought
 * while the detail is open, comes without a key pressed. Without a key the
 * section is not there. */
static void test_yours_on_this_gpu(void **state)
{
	struct tui_harness *h;
	long long ask = best_ask("h200"), bid_id, buy1, buy2;
	char want[160], *r1, *r2;

	(void)state;
	assert_true(ask > 100);
	bid_id = buy("detail-bid-1", "h200", 2, 5, 50, "gtc");
	buy1 = buy("detail-buy-1", "h200", 1, 3, ask * 2, "ioc");
	r1 = rental_text("h200", buy1);

	h = open_as(buyer_key, I18N_EN, 50, 200);
	fx_expect_on_screen(h, "live since ");
	tui_harness_key(h, ':');
	tui_harness_type(h, "h200");
	tui_harness_key(h, WKEY_RETURN);
	tui_harness_key(h, WKEY_RETURN);
	expect_detail_of(h, "H200");
	fx_expect_on_screen(h, "Yours on this GPU");
	snprintf(want, sizeof want, "order %lld: buy 2 GPUs \u00d7 5 h at $0.50, 2 to fill", bid_id);
	fx_expect_on_screen(h, want);
	fx_expect_on_screen(h, r1);
	/* the book marks the level of the open bid as the user's */
	fx_expect_on_screen(h, "* your resting order");

	buy2 = buy("detail-buy-2", "h200", 1, 4, ask * 2, "ioc");
	r2 = rental_text("h200", buy2);
	fx_expect_on_screen(h, r2);
	fx_expect_on_screen(h, r1);
	fx_expect_on_screen(h, want);
	tui_harness_free(&h);

	/* at 80 × 24 the section is there, in its two lines' room */
	h = open_as(buyer_key, I18N_EN, 24, 80);
	fx_expect_on_screen(h, "live since ");
	tui_harness_key(h, ':');
	tui_harness_type(h, "h200");
	tui_harness_key(h, WKEY_RETURN);
	tui_harness_key(h, WKEY_RETURN);
	expect_detail_of(h, "H200");
	fx_expect_on_screen(h, "Yours on this GPU");
	fx_expect_on_screen(h, "and 2 more: the orders and rentals");
	tui_harness_free(&h);

	/* no key: no section */
	h = open_as(NULL, I18N_EN, 35, 120);
	fx_expect_on_screen(h, "live since ");
	tui_harness_key(h, ':');
	tui_harness_type(h, "h200");
	tui_harness_key(h, WKEY_RETURN);
	tui_harness_key(h, WKEY_RETURN);
	expect_detail_of(h, "H200");
	fx_expect_on_screen(h, "Recent trades");
	fx_settle(h);
	fx_expect_not_on_screen(h, "Yours on this GPU");
	tui_harness_free(&h);
	free(r1);
	free(r2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_next_and_previous_keep_the_view),
		cmocka_unit_test(test_steps_follow_the_filter),
		cmocka_unit_test(test_yours_on_this_gpu),
	};
	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
