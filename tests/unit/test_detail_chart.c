/*
 * The detail screen's chart read through its screens (tui/frame/harness.h),
 * against a real gpuxd on loopback whose trades this test makes itself on a
 * clock it moves (POST /v1/admin/clock), in a time zone 5 h 30 min east of
 * UTC (TZ=IST-5:30, so a round hour of the local clock is never one of UTC):
 * one H200 trade at $4.00, ten hours later four at once (the group below),
 * then four hours on — so the 24 h chart has one column with the four, one
 * with the first, the price carried between and after them.
 *
 *   - the candle view (c): its title, wicks and bodies, its legend, and c
 *     again back to the close view;
 *   - the inspect cursor (End, ←): on the group's column, the line under the
 *     chart says its open, high, low, close, GPUs, GPU-hours and trades, as
 *     computed here from the trades made; on a quiet column, the price
 *     carried; the column kept through a range there and back; Esc hides
 *     the cursor, a second Esc goes back to the tables;
 *   - the axis: clock times on round hours of the local clock, the zone
 *     named.
 *
 * At 80×24 and 120×35, in English and pt-PT.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "tests/unit/screen_fixture.h"
#include "tui/frame/harness.h"
#include "tui/market/detail_chart.h"
#include "tui/tui_int.h"
#include "util/util.h"

static struct catalog *cat;
static pid_t gpuxd_pid = -1;
static char gpuxd_url[64], conf_path[512];
static char *buyer_key, *seller_key;
static const char admin_key[] = "detail-chart-admin-key-0123456789";
static int order_seq;

static const enum i18n_lang langs[] = { I18N_EN, I18N_PT_PT };
static const int sizes[][2] = { { 24, 80 }, { 35, 120 } };

/* The group traded at once: price, GPUs, hours. */
static const struct { int cents, gpus, hours; } group[] = {
	{ 420, 2, 3 }, { 460, 1, 1 }, { 390, 1, 2 }, { 430, 1, 1 },
};
enum { N_GROUP = sizeof group / sizeof group[0] };

/* ---- the exchange and its trades ------------------------------------------------------- */

/* gpus × hours of H200 traded at cents: the seller asks it, the buyer takes it. */
static void trade(int cents, int gpus, int hours)
{
	char body[512], *r;

	snprintf(body, sizeof body, "{\"client_order_id\":\"chart-%d\",\"gpu\":\"h200\","
		 "\"side\":\"sell\",\"type\":\"limit\",\"gpus\":%d,\"hours\":%d,\"price_cents\":%d}",
		 ++order_seq, gpus, hours, cents);
	free(fx_post(gpuxd_url, "/v1/orders", seller_key, body));
	snprintf(body, sizeof body, "{\"client_order_id\":\"chart-%d\",\"gpu\":\"h200\","
		 "\"side\":\"buy\",\"type\":\"market\",\"gpus\":%d,\"hours\":%d,"
		 "\"max_price_cents\":%d}", ++order_seq, gpus, hours, cents);
	r = fx_post(gpuxd_url, "/v1/orders", buyer_key, body);
	if (strstr(r, "\"filled\"") == NULL)
		print_error("the trade at %d did not fill: %s\n", cents, r);
	free(r);
}

static int setup_all(void **state)
{
	(void)state;
	setenv("TZ", "IST-5:30", 1);
	tzset();
	if (fx_market_start("detailchart", admin_key, &cat, &gpuxd_pid, gpuxd_url, sizeof gpuxd_url,
			    &seller_key, &buyer_key) != 0)
		return -1;
	snprintf(conf_path, sizeof conf_path, "%s/gpux.conf", fx_tmpdir);
	trade(400, 1, 1);
	fx_advance_clock(gpuxd_url, admin_key, 10 * 3600);
	for (int i = 0; i < N_GROUP; i++)
		trade(group[i].cents, group[i].gpus, group[i].hours);
	fx_advance_clock(gpuxd_url, admin_key, 4 * 3600);
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	free(buyer_key);
	free(seller_key);
	fx_demo_stop(&cat, &gpuxd_pid);
	return 0;
}

/* ---- sessions ----------------------------------------------------------------------------- */

static struct tui_harness *open_session_as(enum i18n_lang lang, int lines, int cols, bool ascii)
{
	struct tui_harness *h = fx_session_conf(cat, gpuxd_url, buyer_key, lang, ascii, conf_path,
						lines, cols);

	fx_wait_prices(h);
	return h;
}

static struct tui_harness *open_session(enum i18n_lang lang, int lines, int cols)
{
	return open_session_as(lang, lines, cols, false);
}

/* The H200 detail (the catalogue's fifth row), its 24 h chart drawn. */
static void open_h200(struct tui_harness *h)
{
	tui_harness_key(h, WKEY_HOME);
	for (int i = 0; i < 4; i++)
		tui_harness_key(h, WKEY_DOWN);
	fx_expect_on_screen(h, "H200");
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(tui_harness_top(h), "detail");
	fx_expect_on_screen(h, _("Price, last 24 h (5 min)"));
	fx_expect_on_screen(h, _("now"));
	fx_settle(h);
}

static char *money(enum i18n_lang lang, int64_t cents)
{
	return i18n_fmt_money(lang, cents, "USD");
}

/* What the inspect line says of the group's column, from the trades made:
 * open of the first, highest, lowest, close of the last, Σ GPUs, Σ GPU ×
 * hours, how many (malloc'ed segments, NULL-terminated). */
static char **group_segments(enum i18n_lang lang)
{
	int64_t hi = group[0].cents, lo = group[0].cents, gpus = 0, gh = 0;
	char **s = xcalloc(8, sizeof *s), *x;

	for (int i = 0; i < N_GROUP; i++) {
		hi = group[i].cents > hi ? group[i].cents : hi;
		lo = group[i].cents < lo ? group[i].cents : lo;
		gpus += group[i].gpus;
		gh += (int64_t)group[i].gpus * group[i].hours;
	}
	x = money(lang, group[0].cents);
	s[0] = xasprintf(_("open %s"), x);
	free(x);
	x = money(lang, hi);
	s[1] = xasprintf(_("high %s"), x);
	free(x);
	x = money(lang, lo);
	s[2] = xasprintf(_("low %s"), x);
	free(x);
	x = money(lang, group[N_GROUP - 1].cents);
	s[3] = xasprintf(_("close %s"), x);
	free(x);
	s[4] = xasprintf(P_("%lld GPU", "%lld GPUs", (unsigned long)gpus), (long long)gpus);
	s[5] = xasprintf(_("%lld GPU-h"), (long long)gh);
	s[6] = xasprintf(P_("%lld trade", "%lld trades", N_GROUP), (long long)N_GROUP);
	return s;
}

static void free_segments(char **s)
{
	for (size_t i = 0; s[i] != NULL; i++)
		free(s[i]);
	free(s);
}

/* The cursor from the last column leftwards onto the first that shows
 * text; how many steps it took (the test fails when none does). */
static int cursor_to(struct tui_harness *h, const char *text)
{
	tui_harness_key(h, WKEY_END);
	for (int i = 0; i < 200; i++) {
		if (tui_harness_find(h, text) >= 0)
			return i;
		tui_harness_key(h, i % 2 == 0 ? WKEY_LEFT : 'h');
	}
	fx_expect_on_screen(h, text); /* fails, with the screen */
	return -1;
}

/* ---- the candle view ---------------------------------------------------------------------- */

static void test_candle_view(void **state)
{
	(void)state;
	for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++) {
		for (size_t z = 0; z < 2; z++) {
			struct tui_harness *h = open_session(langs[l], sizes[z][0], sizes[z][1]);
			char *legend;

			open_h200(h);
			/* the close view: bars, no wick */
			assert_int_equal(fx_count_on_screen(h, "\u2502"), 0);
			tui_harness_key(h, 'c');
			fx_expect_on_screen(h, _("Candles, last 24 h (5 min)"));
			fx_expect_not_on_screen(h, _("Price, last 24 h (5 min)"));
			/* the group's candle: a wick above and below its body */
			assert_true(fx_count_on_screen(h, "\u2502") >= 2);
			assert_true(fx_count_on_screen(h, "\u2588") >= 1);
			/* the quiet columns carry the price as a line */
			assert_true(fx_count_on_screen(h, "\u2500") > 5);
			legend = xasprintf(_("%s high to low, %s open to close"), "\u2502", "\u2588");
			legend[fx_prefix_bytes(legend, 20)] = '\0'; /* the panel may wrap it after */
			fx_expect_on_screen(h, legend);
			free(legend);
			/* back by its name on the command line */
			tui_harness_key(h, ':');
			assert_string_equal(tui_harness_top(h), "command");
			tui_harness_type(h, "candles");
			tui_harness_key(h, WKEY_RETURN);
			fx_expect_on_screen(h, _("Price, last 24 h (5 min)"));
			assert_int_equal(fx_count_on_screen(h, "\u2502"), 0);
			tui_harness_free(&h);
		}
	}
	i18n_init(I18N_EN);
}

/* ASCII: the wick |, the body #, the carried price -; no block drawn. */
static void test_candle_view_ascii(void **state)
{
	struct tui_harness *h;

	(void)state;
	h = open_session_as(I18N_EN, 24, 80, true);
	open_h200(h);
	tui_harness_key(h, 'c');
	fx_expect_on_screen(h, _("Candles, last 24 h (5 min)"));
	fx_settle(h);
	assert_true(fx_count_on_screen(h, "|") >= 2);
	assert_true(fx_count_on_screen(h, "#") >= 1);
	assert_true(fx_count_on_screen(h, "-----") >= 1);
	fx_expect_on_screen(h, "| high to low, # open to close");
	assert_int_equal(fx_count_on_screen(h, "\u2588"), 0);
	tui_harness_free(&h);
}

/* The help (F1) lists the chart's keys under their own title. */
static void test_help_lists_the_chart(void **state)
{
	struct tui_harness *h;

	(void)state;
	h = open_session(I18N_EN, 35, 120);
	open_h200(h);
	tui_harness_key(h, WKEY_F1);
	fx_expect_on_screen(h, _("GPU detail: the chart"));
	for (int i = 0; i < 20 && tui_harness_find(h, _("Chart: inspect the first column")) < 0; i++)
		tui_harness_key(h, WKEY_PGDN);
	fx_expect_on_screen(h, _("Chart: candles (open, high, low, close) / close price"));
	fx_expect_on_screen(h, _("Chart: inspect the first column"));
	tui_harness_free(&h);
}

/* The same chart for another GPU (what next/previous GPU calls): its
 * range, view and cursor column kept, its candles dropped and asked again
 * for the new GPU, which has none. */
static void test_set_gpu_keeps_the_view(void **state)
{
	struct tui_harness *h = open_session(I18N_EN, 24, 80);
	struct tui *t = tui_harness_tui(h);
	struct detail_chart c;
	int64_t next = -1;
	uint64_t gen;

	(void)state;
	detail_chart_init(&c, t, "h200");
	detail_chart_tick(&c, util_now_ms(), &next);
	for (int i = 0; i < 200 && (c.candles == NULL || !c.have_before); i++)
		tui_harness_pump(h, 20);
	assert_non_null(c.candles);
	assert_true(c.candles->n > 0);
	c.range = DR_7D;
	c.view = DCV_CANDLES;
	c.cursor = 5;
	gen = c.gen;
	detail_chart_set_gpu(&c, "h100-sxm");
	assert_string_equal(c.gpu, "h100-sxm");
	assert_null(c.candles);
	assert_true(c.gen != gen);
	assert_int_equal(c.range, DR_7D);
	assert_int_equal(c.view, DCV_CANDLES);
	assert_int_equal(c.cursor, 5);
	next = -1;
	detail_chart_tick(&c, util_now_ms(), &next);
	assert_true(c.candles_req != 0);
	for (int i = 0; i < 200 && (c.candles == NULL || !c.have_before); i++)
		tui_harness_pump(h, 20);
	assert_non_null(c.candles);
	assert_int_equal(c.candles->n, 0); /* no H100 trade on this exchange */
	detail_chart_free(&c);
	tui_harness_free(&h);
}

/* ---- the inspect cursor ------------------------------------------------------------------- */

static void test_inspect_cursor(void **state)
{
	(void)state;
	for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++) {
		for (size_t z = 0; z < 2; z++) {
			struct tui_harness *h = open_session(langs[l], sizes[z][0], sizes[z][1]);
			char **want = group_segments(langs[l]), *carried, *first;
			int steps;

			open_h200(h);
			fx_expect_not_on_screen(h, want[0]);
			/* End: the cursor on now's column, which carries the group's close */
			tui_harness_key(h, WKEY_END);
			first = money(langs[l], group[N_GROUP - 1].cents);
			carried = xasprintf(_("last price %s carried"), first);
			fx_expect_on_screen(h, carried);
			free(first);
			/* leftwards to the group's column: all it holds */
			steps = cursor_to(h, want[0]);
			assert_true(steps > 0);
			for (size_t i = 0; want[i] != NULL; i++)
				fx_expect_on_screen(h, want[i]);
			fx_expect_not_on_screen(h, carried);
			/* in candles too; then a range there and back keeps the column */
			tui_harness_key(h, 'c');
			fx_expect_on_screen(h, _("Candles, last 24 h (5 min)"));
			fx_expect_on_screen(h, want[3]);
			tui_harness_key(h, 'c');
			tui_harness_key(h, '1');
			fx_expect_on_screen(h, _("Price, last hour (1 min)"));
			fx_settle(h);
			tui_harness_key(h, '2');
			fx_expect_on_screen(h, _("Price, last 24 h (5 min)"));
			fx_settle(h);
			fx_expect_on_screen(h, want[0]);
			fx_expect_on_screen(h, want[6]);
			/* Esc: the cursor goes, the screen stays */
			tui_harness_key(h, WKEY_ESC);
			assert_string_equal(tui_harness_top(h), "detail");
			fx_expect_gone(h, want[0], 2000);
			fx_expect_on_screen(h, _("Price, last 24 h (5 min)"));
			/* a second Esc: back to the tables */
			tui_harness_key(h, WKEY_ESC);
			assert_string_equal(tui_harness_top(h), "browse");
			free(carried);
			free_segments(want);
			tui_harness_free(&h);
		}
	}
	i18n_init(I18N_EN);
}

/* ---- the axis ------------------------------------------------------------------------------- */

/* The axis row: clock times, each on a round hour of the local clock
 * (IST: a round hour of UTC would read :30), and the zone named. */
static void test_axis_in_the_zone(void **state)
{
	regex_t re;
	regmatch_t m;

	(void)state;
	assert_int_equal(regcomp(&re, "([0-2][0-9]):([0-5][0-9])", REG_EXTENDED), 0);
	for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++) {
		for (size_t z = 0; z < 2; z++) {
			struct tui_harness *h = open_session(langs[l], sizes[z][0], sizes[z][1]);
			int y, clocks = 0;
			char *row;

			open_h200(h);
			fx_expect_on_screen(h, "IST");
			y = tui_harness_find(h, "IST");
			assert_true(y >= 0);
			row = tui_harness_row(h, y);
			assert_non_null(strstr(row, _("now")));
			for (const char *p = row; regexec(&re, p, 1, &m, 0) == 0; p += m.rm_eo) {
				if (strncmp(p + m.rm_so + 3, "00", 2) != 0)
					print_error("not a round hour: [%s]\n", row);
				assert_int_equal(strncmp(p + m.rm_so + 3, "00", 2), 0);
				clocks++;
			}
			if (clocks == 0)
				print_error("no clock time on the axis: [%s]\n", row);
			assert_true(clocks > 0);
			free(row);
			tui_harness_free(&h);
		}
	}
	regfree(&re);
	i18n_init(I18N_EN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_candle_view),
		cmocka_unit_test(test_candle_view_ascii),
		cmocka_unit_test(test_help_lists_the_chart),
		cmocka_unit_test(test_set_gpu_keeps_the_view),
		cmocka_unit_test(test_inspect_cursor),
		cmocka_unit_test(test_axis_in_the_zone),
	};
	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
