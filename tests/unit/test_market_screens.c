/*
 * The market made visible in the TUI, built from C (tui/frame/harness.h) against
 * a real gpuxd --demo on loopback: the market columns (the 24 h sparkline
 * from the seeded history, shown by default; bid, spread, last and the
 * change in the chooser), the history kept current by the quotes without
 * asking for candles again, the GPU-hours of the detail screen's ladder,
 * and marking GPUs with Space and comparing them with =.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <curl/curl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "tui/market/browse.h"
#include "tui/frame/harness.h"
#include "tests/unit/screen_fixture.h"
#include "tui/tui_int.h"
#include "util/util.h"

static struct catalog *cat;
static pid_t gpuxd_pid = -1;
static char gpuxd_url[64];
static char *buyer_key;

/* ---- servers ---------------------------------------------------------------------------- */

/* A buyer account with €5,000.00 on it: its key. */
static int setup_all(void **state)
{
	(void)state;
	if (fx_demo_start("mscreens", &cat, &gpuxd_pid, gpuxd_url, sizeof gpuxd_url) != 0)
		return -1;
	buyer_key = fx_first_account(gpuxd_url, "mscreens@example.pt", "buyer", 500000);
	if (buyer_key == NULL)
		return -1;
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	free(buyer_key);
	fx_demo_stop(&cat, &gpuxd_pid);
	return 0;
}

/* ---- sessions --------------------------------------------------------------------------------- */

static struct tui_harness *open_at(const char *url, const char *key, int lines, int cols)
{
	return fx_session(cat, url, key, I18N_EN, false, lines, cols);
}

static struct tui_harness *open_ascii(bool ascii, int lines, int cols)
{
	return fx_session(cat, gpuxd_url, buyer_key, I18N_EN, ascii, lines, cols);
}

static size_t gpu_of(const char *id)
{
	return (size_t)(catalog_gpu(cat, id) - cat->gpus);
}

/* Whether some row shows a sparkline: n of the eighth blocks in a row. */
static bool sparkline_shown(struct tui_harness *h, const char *const *blocks, size_t nb)
{
	char *s = tui_harness_screen(h);
	bool found = false;

	for (char *line = strtok(s, "\n"); line != NULL && !found; line = strtok(NULL, "\n")) {
		size_t n = 0;
		for (size_t i = 0; i < nb; i++)
			for (const char *p = strstr(line, blocks[i]); p != NULL;
			     p = strstr(p + strlen(blocks[i]), blocks[i]))
				n++;
		found = n >= 8;
	}
	free(s);
	return found;
}

static const char *const eighths[] = {
	"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
};

/* At 100×30 the rows show the 24 h sparkline from the demo's seeded
 * history, pinned with the price; at 80 columns it scrolls, just left of
 * the price (→ shows it). */
static void test_sparklines_by_default(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, buyer_key, 30, 100);
	struct tui *t = tui_harness_tui(h);
	bool shown = false;

	(void)state;
	fx_expect_on_screen(h, "24 h trend");
	fx_expect_on_screen(h, "Price/h");
	for (int i = 0; i < 100 && !shown; i++) {
		tui_harness_pump(h, 50);
		shown = sparkline_shown(h, eighths, 8);
	}
	if (!shown) {
		char *s = tui_harness_screen(h);
		print_error("no sparkline:\n%s", s);
		free(s);
	}
	assert_true(shown);
	assert_true(t->m.gpu[gpu_of("h200")].hist.have);
	assert_true(t->m.gpu[gpu_of("h200")].hist.n > 10);
	tui_harness_resize(h, 24, 80);
	assert_int_equal(tui_harness_find(h, "24 h trend"), -1);
	for (int i = 0; i < 8; i++)
		tui_harness_key(h, WKEY_RIGHT);
	fx_expect_on_screen(h, "24 h trend");
	assert_true(sparkline_shown(h, eighths, 8));
	tui_harness_free(&h);
}

/* ASCII: the sparkline in . : # */
static void test_sparklines_ascii(void **state)
{
	struct tui_harness *h = open_ascii(true, 30, 100);
	static const char *const ascii[] = { ".", ":", "#" };
	bool shown = false;

	(void)state;
	fx_expect_on_screen(h, "24 h trend");
	for (int i = 0; i < 100 && !shown; i++) {
		tui_harness_pump(h, 50);
		shown = sparkline_shown(h, ascii, 3) && tui_harness_find(h, "\u2588") < 0;
	}
	assert_true(shown);
	tui_harness_free(&h);
}

/* The chooser lists the market columns; bid, spread, last and the change
 * are off until chosen, then show with ▲/▼ and a sign. */
static void test_market_columns_in_chooser(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, buyer_key, 35, 200);
	struct tui *t = tui_harness_tui(h);
	struct tui_browse *b = (struct tui_browse *)t->stack[0];

	(void)state;
	fx_expect_on_screen(h, "live since");
	assert_int_equal(tui_harness_find(h, "Bid/h"), -1);
	tui_harness_key(h, 'c');
	fx_expect_on_screen(h, "[ ] Bid/h");
	fx_expect_on_screen(h, "[ ] Spread");
	fx_expect_on_screen(h, "[ ] Last/h");
	fx_expect_on_screen(h, "[ ] 24 h %");
	fx_expect_on_screen(h, "[\u2713] 24 h trend");
	/* the price is last, fixed (always shown); the four before it on */
	fx_expect_on_screen(h, "[\u2713] Price/h");
	tui_harness_key(h, WKEY_END);
	tui_harness_key(h, ' ');
	fx_expect_on_screen(h, "[\u2713] Price/h");
	tui_harness_key(h, WKEY_UP);
	for (int i = 0; i < 4; i++) {
		tui_harness_key(h, ' ');
		tui_harness_key(h, WKEY_UP);
	}
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(tui_harness_top(h), "browse");
	fx_expect_on_screen(h, "Bid/h");
	fx_expect_on_screen(h, "Spread");
	fx_expect_on_screen(h, "Last/h");
	fx_expect_on_screen(h, "24 h %");
	bool sign = false;
	for (int i = 0; i < 100 && !sign; i++) {
		tui_harness_pump(h, 50);
		sign = tui_harness_find(h, "\u25b2 +") >= 0 || tui_harness_find(h, "\u25bc \u2212") >= 0;
	}
	assert_true(sign);
	assert_true(b->tab[b->cur].view->market);
	tui_harness_free(&h);
}

/* A trade placed by a script moves the history's last close to its price,
 * from the quotes stream: no candles are asked again. */
static void test_trade_moves_history(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, buyer_key, 24, 80);
	struct tui *t = tui_harness_tui(h);
	struct tui_hist_gpu *g;
	int64_t ask;
	char *r;

	(void)state;
	fx_expect_on_screen(h, "live since");
	g = &t->m.gpu[gpu_of("a100-sxm")].hist;
	for (int i = 0; i < 100 && !g->have; i++)
		tui_harness_pump(h, 50);
	assert_true(g->have);
	ask = tui_market_quote(t, "a100-sxm")->best_ask_cents;
	r = fx_post(gpuxd_url, "/v1/orders", buyer_key,
		 "{\"client_order_id\":\"mscreens-1\",\"gpu\":\"a100-sxm\",\"side\":\"buy\",\"type\":\"market\","
		 "\"gpus\":1,\"hours\":2,\"max_price_cents\":100000}");
	assert_non_null(strstr(r, "\"filled\""));
	free(r);
	for (int i = 0; i < 100 && tui_market_quote(t, "a100-sxm")->last_cents != ask; i++) {
		tui_harness_pump(h, 20);
		for (size_t k = 0; k < cat->n_gpus; k++)
			assert_int_equal(t->m.gpu[k].hist.req, 0);
	}
	assert_int_equal(tui_market_quote(t, "a100-sxm")->last_cents, ask);
	assert_int_equal(g->v[g->n - 1].close_cents, ask);
	tui_harness_free(&h);
}

/* The detail screen's ladder has a GPU-h column; the streamed levels carry
 * their GPU-hours, so no book request is needed for them, and they are the
 * book's: the demo's asks offer GPUs for up to 720 h. */
static void test_ladder_gpu_hours(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, buyer_key, 35, 120);
	struct tui *t = tui_harness_tui(h);
	const struct tui_focus *f;

	(void)state;
	fx_expect_on_screen(h, "live since ");
	tui_harness_key(h, '/');
	tui_harness_type(h, "H200");
	tui_harness_key(h, WKEY_RETURN);
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(tui_harness_top(h), "detail");
	fx_expect_on_screen(h, "GPU-h");
	f = t->m.focus;
	for (int i = 0; i < 200 && (!f->have_book || f->state != API_STREAM_LIVE); i++)
		tui_harness_pump(h, 20);
	assert_true(f->n_asks > 0);
	assert_true(f->asks[0].gpu_hours >= 0);   /* from the stream's snapshot itself */
	assert_true(f->asks[0].gpu_hours >= f->asks[0].gpus);
	assert_true(f->asks[0].gpu_hours <= f->asks[0].gpus * 720);
	assert_int_equal(f->state, API_STREAM_LIVE);
	assert_false(f->hours_due);
	char *book = fx_get(gpuxd_url, "/v1/books/h200?depth=1", buyer_key);
	assert_int_equal(fx_json_int(book, "gpu_hours"), f->asks[0].gpu_hours);
	free(book);
	char *want = i18n_fmt_number(I18N_EN, (double)f->asks[0].gpu_hours, 0);
	fx_expect_on_screen(h, want);
	free(want);

	/* a new best ask of 3 GPUs × 7 h arrives by the stream with its 21 GPU-hours */
	int64_t price = f->asks[0].price_cents - 1;
	char *seller = fx_new_account(gpuxd_url, "mscreens-seller@example.pt", "seller", 0), body[256];
	assert_non_null(seller);
	snprintf(body, sizeof body, "{\"client_order_id\":\"ladder-1\",\"gpu\":\"h200\","
		 "\"side\":\"sell\",\"type\":\"limit\",\"gpus\":3,\"hours\":7,"
		 "\"price_cents\":%lld}", (long long)price);
	free(fx_post(gpuxd_url, "/v1/orders", seller, body));
	for (int i = 0; i < 200 && (f->n_asks == 0 || f->asks[0].price_cents != price); i++)
		tui_harness_pump(h, 20);
	assert_int_equal(f->asks[0].price_cents, price);
	assert_int_equal(f->asks[0].gpu_hours, 21);
	free(seller);
	tui_harness_free(&h);
}

/* Space marks (● in the GPU column, a count in the status bar) and moves
 * down; = with fewer than 2 or more than 4 says so; with 2 the compare
 * screen shows them side by side; Esc back, the marks kept. */
static void test_mark_and_compare(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, buyer_key, 30, 100);
	struct tui *t = tui_harness_tui(h);
	struct tui_browse *b = (struct tui_browse *)t->stack[0];
	char *row;

	(void)state;
	fx_expect_on_screen(h, "live since");
	tui_harness_key(h, '=');
	fx_expect_on_screen(h, "Compare needs 2 to 4 GPUs: mark them with Space (0 marked)");
	assert_string_equal(tui_harness_top(h), "browse");
	tui_harness_key(h, ' ');
	fx_expect_on_screen(h, "1 marked (= compares)");
	row = tui_harness_row(h, 2);
	assert_non_null(strstr(row, "\u25cf B300"));
	free(row);
	assert_int_equal(b->table->sel, 1);
	tui_harness_key(h, '=');
	fx_expect_on_screen(h, "(1 marked)");
	tui_harness_key(h, WKEY_DOWN);
	tui_harness_key(h, WKEY_DOWN);
	tui_harness_key(h, ' ');
	fx_expect_on_screen(h, "2 marked (= compares)");
	tui_harness_key(h, '=');
	assert_string_equal(tui_harness_top(h), "compare");
	fx_expect_on_screen(h, "Comparing 2 GPUs");
	row = tui_harness_row(h, 1);
	assert_non_null(strstr(row, "B300"));
	assert_non_null(strstr(row, "MI300X"));
	free(row);
	fx_expect_on_screen(h, "Prices");
	fx_expect_on_screen(h, "Bid/h");
	fx_expect_on_screen(h, "24 h %");
	fx_expect_on_screen(h, "Specifications");
	fx_expect_on_screen(h, "Set a fit job (f)");
	tui_harness_key(h, WKEY_ESC);
	assert_string_equal(tui_harness_top(h), "browse");
	/* five marked: too many */
	for (int i = 0; i < 3; i++)
		tui_harness_key(h, ' ');
	fx_expect_on_screen(h, "5 marked");
	tui_harness_key(h, '=');
	fx_expect_on_screen(h, "Compare takes at most 4 GPUs: 5 are marked (Space unmarks)");
	assert_string_equal(tui_harness_top(h), "browse");
	/* the help lists both keys */
	tui_harness_key(h, '?');
	for (int i = 0; i < 8 && !tui_harness_wait(h, "Mark or unmark the selected GPU", 300); i++)
		tui_harness_key(h, WKEY_PGDN);
	fx_expect_on_screen(h, "Mark or unmark the selected GPU");
	tui_harness_free(&h);
}

/* With a fit job the compare screen answers it per GPU, from the same
 * fit model as the table's job columns. */
static void test_compare_with_job(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, buyer_key, 40, 120);

	(void)state;
	fx_expect_on_screen(h, "live since");
	tui_harness_key(h, 'f');
	tui_harness_type(h, "70");
	fx_expect_on_screen(h, "Per GPU at N");
	tui_harness_key(h, WKEY_ESC);
	tui_harness_key(h, ' ');
	tui_harness_key(h, ' ');
	tui_harness_key(h, '=');
	assert_string_equal(tui_harness_top(h), "compare");
	fx_expect_on_screen(h, "Your job here");
	fx_expect_on_screen(h, "GPUs needed");
	fx_expect_on_screen(h, "Job/h");
	tui_harness_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sparklines_by_default),
		cmocka_unit_test(test_sparklines_ascii),
		cmocka_unit_test(test_market_columns_in_chooser),
		cmocka_unit_test(test_trade_moves_history),
		cmocka_unit_test(test_ladder_gpu_hours),
		cmocka_unit_test(test_mark_and_compare),
		cmocka_unit_test(test_compare_with_job),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
