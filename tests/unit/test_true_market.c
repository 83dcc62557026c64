/*
 * The market screens show only what is true, built from C
 * (tui/frame/harness.h) against a real gpuxd on loopback whose trades this
 * test makes itself, on a clock it moves (POST /v1/admin/clock): one trade
 * of H200 at $4.00, 23 hours later one at $4.40, then 1 h 30 min more — so
 * the last 24 h start at $4.00 (carried from before them) and end at $4.40:
 * +10.00 %, and the last hour holds no trade.
 *
 *   - the detail chart is asked by time (from/to on GET /v1/candles), a
 *     quiet interval drawn as the last price carried (a line) and said so,
 *     with a time axis; the 24 h change is one figure, the same in the
 *     table, the detail's title (whatever range the chart shows) and
 *     compare;
 *   - the price is always in view, pinned at the right edge, whatever the
 *     column chooser added after it;
 *   - a frozen exchange reads stale within a second of the heartbeat the
 *     stream promises (docs/API.md: no 10 s without one), not after the
 *     client's 25 s stall;
 *   - trades are dated as the language writes dates; ASCII separates with
 *     "|" and keeps "*" for markers; the spec sheet's figures stand in one
 *     column in German too;
 *   - a fit job's b orders the same from the table and the detail.
 *
 * Each at 80×24 and 120×35 where the layout differs, in English, pt-PT and
 * German where the words do.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
static char gpuxd_url[64], gpuxd_log[512], conf_path[512];
static char *buyer_key, *seller_key;
static const char admin_key[] = "true-market-admin-key-0123456789";
static int order_seq;

static const enum i18n_lang langs[] = { I18N_EN, I18N_PT_PT, I18N_DE };
static const int sizes[][2] = { { 24, 80 }, { 35, 120 } };

/* ---- the exchange and its trades ------------------------------------------------------- */

static char *order(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *order(const char *key, const char *fmt, ...)
{
	char body[512], fields[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fields, sizeof fields, fmt, ap);
	va_end(ap);
	snprintf(body, sizeof body, "{\"client_order_id\":\"true-%d\",%s}", ++order_seq, fields);
	return fx_post(gpuxd_url, "/v1/orders", key, body);
}

/* One H200 GPU-hour traded at cents: the seller asks it, the buyer takes it. */
static void trade(int cents)
{
	char *r;

	free(order(seller_key, "\"gpu\":\"h200\",\"side\":\"sell\",\"type\":\"limit\",\"gpus\":1,"
		   "\"hours\":1,\"price_cents\":%d", cents));
	r = order(buyer_key, "\"gpu\":\"h200\",\"side\":\"buy\",\"type\":\"market\",\"gpus\":1,"
		  "\"hours\":1,\"max_price_cents\":%d", cents);
	if (strstr(r, "\"filled\"") == NULL)
		print_error("the trade at %d did not fill: %s\n", cents, r);
	free(r);
}

static int setup_all(void **state)
{
	(void)state;
	if (fx_market_start("truemarket", admin_key, &cat, &gpuxd_pid, gpuxd_url, sizeof gpuxd_url,
			    &seller_key, &buyer_key) != 0)
		return -1;
	snprintf(gpuxd_log, sizeof gpuxd_log, "%s/gpuxd.log", fx_tmpdir);
	snprintf(conf_path, sizeof conf_path, "%s/gpux.conf", fx_tmpdir);
	/* $4.00, 23 h later $4.40, then 1 h 30 min on: now */
	trade(400);
	fx_advance_clock(gpuxd_url, admin_key, 23 * 3600);
	trade(440);
	fx_advance_clock(gpuxd_url, admin_key, 90 * 60);
	/* an ask resting for the tables' price column */
	free(order(seller_key, "\"gpu\":\"h200\",\"side\":\"sell\",\"type\":\"limit\",\"gpus\":8,"
		   "\"hours\":720,\"price_cents\":450"));
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

/* The tables' columns as the settings file remembers them (NULL: none). */
static void remember_columns(const char *training)
{
	FILE *f = fopen(conf_path, "w");

	assert_non_null(f);
	if (training != NULL)
		fprintf(f, "columns.training = %s\n", training);
	fclose(f);
}

static struct tui_harness *open_session(const char *url, enum i18n_lang lang, bool ascii,
					int lines, int cols)
{
	struct tui_harness *h = fx_session_conf(cat, url, buyer_key, lang, ascii, conf_path, lines,
						cols);

	fx_wait_prices(h);
	return h;
}

/* The row showing text, malloc'ed; the test fails when none does. */
static char *row_with(struct tui_harness *h, const char *text)
{
	int y;

	fx_expect_on_screen(h, text);
	y = tui_harness_find(h, text);
	assert_true(y >= 0);
	return tui_harness_row(h, y);
}

/* The cursor on the H200 row of the tables (the catalogue's fifth). */
static void to_h200(struct tui_harness *h)
{
	char *r;

	tui_harness_key(h, WKEY_HOME);
	for (int i = 0; i < 4; i++)
		tui_harness_key(h, WKEY_DOWN);
	assert_true(tui_harness_tui(h)->sel.view != NULL);
	r = row_with(h, "H200");
	(void)r;
	free(r);
}

/* The 24 h change as the tables show it in the session's language. */
static char *change_text(enum i18n_lang lang, bool ascii)
{
	return view_change_text(lang, ascii, 1000); /* $4.00 → $4.40 */
}

/* Whether the gpuxd log holds a line with text. */
static bool logged(const char *text)
{
	char *log = NULL, *cause = NULL;
	size_t n = 0;
	bool found;

	if (util_read_file(gpuxd_log, &log, &n, &cause) != 0) {
		print_error("%s\n", cause);
		free(cause);
		return false;
	}
	found = strstr(log, text) != NULL;
	if (!found && strstr(text, "candles") != NULL)
		for (char *l = strtok(log, "\n"); l != NULL; l = strtok(NULL, "\n"))
			if (strstr(l, "/v1/candles") != NULL)
				print_error("logged: %s\n", l);
	free(log);
	return found;
}

/* Whether the chart's axis (the row ending in now) shows a clock time. */
static bool axis_has_clock(struct tui_harness *h, const char *now)
{
	regex_t re;
	int y = tui_harness_find(h, now);
	char *row = y >= 0 ? tui_harness_row(h, y) : xstrdup("");
	bool ok;

	assert_int_equal(regcomp(&re, "[0-2][0-9]:[0-5][0-9]", REG_EXTENDED | REG_NOSUB), 0);
	ok = regexec(&re, row, 0, NULL, 0) == 0;
	if (!ok)
		print_error("no clock time on the axis: [%s]\n", row);
	regfree(&re);
	free(row);
	return ok;
}

/* ---- the chart and the one 24 h figure ------------------------------------------------------ */

/* The detail's chart asks for its range by time, from its start on the
 * exchange clock, and for the price before it; quiet intervals carry the
 * last price as a line, said so on screen; a time axis runs under it; the
 * title's 24 h change is the table's, whichever range is drawn. */
static void test_chart_by_time_and_one_change(void **state)
{
	(void)state;
	remember_columns("memory,spark_24h,change_24h,price");
	for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++) {
		for (size_t z = 0; z < 2; z++) {
			struct tui_harness *h = open_session(gpuxd_url, langs[l], false, sizes[z][0],
							     sizes[z][1]);
			char *chg = change_text(langs[l], false), *title, *row, *axis_now;

			fx_expect_on_screen(h, _("24 h %"));
			to_h200(h);
			/* the table's figure */
			for (int i = 0; i < 100 && fx_count_on_screen(h, chg) == 0; i++)
				tui_harness_pump(h, 50);
			row = row_with(h, "H200");
			if (strstr(row, chg) == NULL)
				print_error("table row: [%s], want [%s]\n", row, chg);
			assert_non_null(strstr(row, chg));
			free(row);
			tui_harness_key(h, WKEY_RETURN);
			assert_string_equal(tui_harness_top(h), "detail");
			fx_expect_on_screen(h, _("Price, last 24 h (5 min)"));
			/* the same figure in the detail's title, labelled 24 h */
			title = xasprintf(_("%s (24 h)"), chg);
			fx_expect_on_screen(h, title);
			row = tui_harness_row(h, 0);
			assert_non_null(strstr(row, title));
			free(row);
			/* the axis: clock times up to now */
			axis_now = xasprintf("%s", _("now"));
			fx_expect_on_screen(h, axis_now);
			assert_true(axis_has_clock(h, axis_now));
			/* asked by time: the range from its start, the price before it */
			assert_true(logged("GET /v1/candles/h200?interval=5m&from="));
			assert_true(logged("GET /v1/candles/h200?interval=1d&to="));
			assert_false(logged("interval=5m&limit=288"));
			fx_expect_on_screen(h, _("Recent trades (UTC)"));
			/* the last hour holds no trade: a line at the carried $4.40, no bar */
			tui_harness_key(h, '1');
			fx_expect_on_screen(h, _("Price, last hour (1 min)"));
			fx_settle(h);
			assert_true(axis_has_clock(h, axis_now));
			assert_true(logged("GET /v1/candles/h200?interval=1m&from="));
			assert_false(logged("interval=1m&limit=60"));
			assert_int_equal(fx_count_on_screen(h, "\u2588"), 0);
			assert_true(fx_count_on_screen(h, "\u2500") > 10);
			char *legend = xasprintf(_("%s no trade in that interval: the last price, carried"),
						 "\u2500");
			legend[fx_prefix_bytes(legend, 24)] = '\0'; /* the panel may wrap it after */
			fx_expect_on_screen(h, legend);
			free(legend);
			/* the title keeps the 24 h figure */
			row = tui_harness_row(h, 0);
			if (strstr(row, title) == NULL)
				print_error("title over the hour's chart: [%s], want [%s]\n", row, title);
			assert_non_null(strstr(row, title));
			free(row);
			/* the week holds both trades: bars */
			tui_harness_key(h, '3');
			fx_expect_on_screen(h, _("Price, last 7 days (1 h)"));
			for (int i = 0; i < 100 && fx_count_on_screen(h, "\u2588") == 0; i++)
				tui_harness_pump(h, 50);
			assert_true(fx_count_on_screen(h, "\u2588") > 0);
			/* compare: the same figure again */
			tui_harness_key(h, WKEY_ESC);
			to_h200(h);
			tui_harness_key(h, ' ');
			tui_harness_key(h, WKEY_UP);
			tui_harness_key(h, ' ');
			tui_harness_key(h, '=');
			fx_expect_on_screen(h, chg);
			free(axis_now);
			free(title);
			free(chg);
			tui_harness_free(&h);
		}
	}
	i18n_init(I18N_EN);
}

/* ---- the price in view ---------------------------------------------------------------------- */

/* What the column chooser saved when bid, spread, last and the change were
 * added after the price: the price still last, at the right edge, at 80
 * and 120 columns, in every language. */
static void test_price_always_in_view(void **state)
{
	(void)state;
	remember_columns("memory,memory_type,bandwidth,bf16,fit_full_1,fit_full_8,spark_24h,price,"
			 "bid,spread,last,change_24h");
	for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++) {
		for (size_t z = 0; z < 2; z++) {
			struct tui_harness *h = open_session(gpuxd_url, langs[l], false, sizes[z][0],
							     sizes[z][1]);
			char *price = i18n_fmt_money(langs[l], 450, "USD"), *head, *row;
			const char *label = _("Price/h");
			size_t hl;

			fx_expect_on_screen(h, label);
			fx_expect_on_screen(h, price);
			head = tui_harness_row(h, 1);
			hl = strlen(head);
			if (hl < strlen(label) || strcmp(head + hl - strlen(label), label) != 0)
				print_error("%dx%d: the header does not end with the price: [%s]\n",
					    sizes[z][1], sizes[z][0], head);
			assert_true(hl >= strlen(label) && strcmp(head + hl - strlen(label), label) == 0);
			row = row_with(h, "H200");
			assert_true(strlen(row) >= strlen(price));
			assert_string_equal(row + strlen(row) - strlen(price), price);
			/* scrolled to the end, still there */
			for (int i = 0; i < 12; i++)
				tui_harness_key(h, WKEY_RIGHT);
			free(row);
			row = row_with(h, "H200");
			assert_string_equal(row + strlen(row) - strlen(price), price);
			free(row);
			free(head);
			free(price);
			tui_harness_free(&h);
		}
	}
	remember_columns(NULL);
	i18n_init(I18N_EN);
}

/* ---- stale against the promise ----------------------------------------------------------------- */

/* A frozen exchange: no heartbeat comes; the prices read STALE within a
 * second of the 10 s the stream promises (here: within 15 s of the freeze,
 * where the client alone would wait 25 s for its stall and 6 s more for a
 * poll), and fresh again once it thaws. */
static void test_frozen_exchange_reads_stale(void **state)
{
	char url[64], db[512];
	char *gx[] = { (char *)"--demo", (char *)"--quiet", (char *)"--db", db, NULL };
	pid_t pid;
	struct tui_harness *h;

	(void)state;
	snprintf(db, sizeof db, "%s/frozen.db", fx_tmpdir);
	pid = fx_start_server("gpuxd", "frozen", gx, url, sizeof url);
	assert_true(pid > 0);
	h = open_session(url, I18N_EN, false, 24, 80);
	fx_expect_on_screen(h, "live since");
	assert_int_equal(kill(pid, SIGSTOP), 0);
	bool stale = tui_harness_wait(h, "STALE: no answer from the exchange for", 15000);
	if (!stale) {
		char *s = tui_harness_screen(h);
		print_error("not stale 15 s after the exchange froze:\n%s", s);
		free(s);
	}
	kill(pid, SIGCONT);
	assert_true(stale);
	/* the seconds count from the last news: at least the promise */
	char *row = row_with(h, "STALE");
	long secs = atol(strstr(row, " for ") + 5);
	assert_true(secs >= 10);
	free(row);
	/* thawed: fresh again, by itself */
	fx_expect_on_screen(h, "prices updated");
	for (int i = 0; i < 300 && fx_count_on_screen(h, "STALE") > 0; i++)
		tui_harness_pump(h, 50);
	fx_expect_not_on_screen(h, "STALE");
	tui_harness_free(&h);
	fx_stop_server(&pid);
}

/* ---- dates, separators, the spec sheet --------------------------------------------------------- */

/* The detail's trades dated as the language writes dates (no year, the
 * zone in the heading): de 01.12. 23:34:49, pt-PT 01/12 23:34:49. */
static void test_trades_dated_in_the_language(void **state)
{
	static const char *const pattern[] = {
		"[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}",
		"[0-9]{2}/[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}",
		"[0-9]{2}\\.[0-9]{2}\\. [0-9]{2}:[0-9]{2}:[0-9]{2}",
	};
	char *r = fx_get(gpuxd_url, "/v1/trades/h200?limit=1", buyer_key);
	const char *at = strstr(r, "\"at\":\"");
	int y, mo, d, hh, mm, ss;

	(void)state;
	assert_non_null(at);
	assert_int_equal(sscanf(at + 6, "%d-%d-%dT%d:%d:%d", &y, &mo, &d, &hh, &mm, &ss), 6);
	remember_columns(NULL);
	for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++) {
		struct tui_harness *h = open_session(gpuxd_url, langs[l], false, 24, 80);
		char want[32];
		regex_t re;

		if (langs[l] == I18N_DE)
			snprintf(want, sizeof want, "%02d.%02d. %02d:%02d:%02d", d, mo, hh, mm, ss);
		else if (langs[l] == I18N_PT_PT)
			snprintf(want, sizeof want, "%02d/%02d %02d:%02d:%02d", d, mo, hh, mm, ss);
		else
			snprintf(want, sizeof want, "%02d-%02d %02d:%02d:%02d", mo, d, hh, mm, ss);
		fx_expect_on_screen(h, "H200");
		to_h200(h);
		tui_harness_key(h, WKEY_RETURN);
		fx_expect_on_screen(h, _("Recent trades (UTC)"));
		fx_expect_on_screen(h, want);
		char *row = row_with(h, want);
		assert_int_equal(regcomp(&re, pattern[l], REG_EXTENDED | REG_NOSUB), 0);
		assert_int_equal(regexec(&re, row, 0, NULL, 0), 0);
		regfree(&re);
		free(row);
		tui_harness_free(&h);
	}
	free(r);
	i18n_init(I18N_EN);
}

/* ASCII: " | " between the parts of a line, "*" only as a marker. */
static void test_ascii_separator_is_not_the_marker(void **state)
{
	struct tui_harness *h;
	char *row;

	(void)state;
	remember_columns(NULL);
	h = open_session(gpuxd_url, I18N_EN, true, 24, 80);
	fx_expect_on_screen(h, "H200");
	to_h200(h);
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, " | bid ");
	row = tui_harness_row(h, 0);
	if (strstr(row, "ask $4.50 | bid ") == NULL)
		print_error("[%s]\n", row);
	assert_non_null(strstr(row, "ask $4.50 | bid "));
	assert_null(strstr(row, " * "));
	free(row);
	tui_harness_free(&h);
}

/* The column where a spec's figure starts: after its label and blanks. */
static int figure_column(const char *row, const char *label)
{
	const char *p = strstr(row, label);
	int col = 0;

	assert_non_null(p);
	p += strlen(label);
	while (*p == ' ')
		p++;
	for (const char *q = row; q < p; q++)
		col += ((unsigned char)*q & 0xc0) != 0x80; /* columns: these are one wide */
	return col;
}

/* Every figure of the spec sheet starts in one column, the longest label
 * of the language included (de: "Leistungsaufnahme" for the board power). */
static void test_spec_figures_in_one_column(void **state)
{
	(void)state;
	remember_columns(NULL);
	for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++) {
		for (size_t z = 0; z < 2; z++) {
			struct tui_harness *h = open_session(gpuxd_url, langs[l], false, sizes[z][0],
							     sizes[z][1]);
			char *mem, *power;

			fx_expect_on_screen(h, "H200");
			to_h200(h);
			tui_harness_key(h, WKEY_RETURN);
			fx_expect_on_screen(h, _("Specifications"));
			/* 80×24: the specs follow the trades, below the screen's end
			 * unless the trades are few; make room */
			tui_harness_resize(h, 60, sizes[z][1]);
			mem = row_with(h, _("Memory type"));
			power = row_with(h, _("Board power"));
			int a = figure_column(mem, _("Memory type")), b = figure_column(power,
											 _("Board power"));
			if (a != b)
				print_error("figures at %d and %d:\n[%s]\n[%s]\n", a, b, mem, power);
			assert_int_equal(a, b);
			free(mem);
			free(power);
			tui_harness_free(&h);
		}
	}
	i18n_init(I18N_EN);
}

/* ---- b: the same order from the table and from the detail ------------------------------------ */

/* The value of the order form's field label (its row starts with it). */
static char *form_value(struct tui_harness *h, const char *label)
{
	for (int y = 0; y < 40; y++) {
		char *row = tui_harness_row(h, y), *p, *v;
		if (row == NULL || strncmp(row, label, strlen(label)) != 0) {
			free(row);
			continue;
		}
		p = row + strlen(label);
		while (*p == ' ')
			p++;
		v = xstrndup(p, strcspn(p, " "));
		free(row);
		return v;
	}
	fail_msg("no field %s on the form", label);
	return NULL;
}

/* A fit job without a run length (inference): b on the table and b in the
 * detail prefill the same GPUs and hours, and the detail says so. */
static void test_b_prefills_the_same(void **state)
{
	struct tui_harness *h;
	char *gpus_t, *hours_t, *gpus_d, *hours_d, *needs;
	struct tui *t;

	(void)state;
	remember_columns(NULL);
	h = open_session(gpuxd_url, I18N_EN, false, 35, 120);
	t = tui_harness_tui(h);
	fx_expect_on_screen(h, "H200");
	tui_harness_key(h, WKEY_F4);
	fx_expect_on_screen(h, "Fit calculator");
	tui_harness_type(h, "8");
	/* the method: inference at FP16 */
	tui_harness_key(h, WKEY_TAB);
	for (int i = 0; i < 8 && !(t->job.have && fit_method_is_inference(t->job.job.method)); i++)
		tui_harness_key(h, WKEY_RIGHT);
	assert_true(t->job.have && fit_method_is_inference(t->job.job.method));
	tui_harness_key(h, WKEY_ESC);
	to_h200(h);
	tui_harness_key(h, 'b');
	fx_expect_on_screen(h, "Preview by the exchange");
	gpus_t = form_value(h, "GPUs");
	hours_t = form_value(h, "Hours");
	tui_harness_key(h, WKEY_ESC);
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(tui_harness_top(h), "detail");
	needs = xasprintf("needs %s GPUs \u00d7 %s h", gpus_t, hours_t);
	fx_expect_on_screen(h, needs);
	/* one ask level fills it: "1 level", not "1 levels" */
	fx_expect_on_screen(h, "from the asks now: 1 level,");
	tui_harness_key(h, 'b');
	fx_expect_on_screen(h, "Preview by the exchange");
	gpus_d = form_value(h, "GPUs");
	hours_d = form_value(h, "Hours");
	assert_string_equal(gpus_d, gpus_t);
	assert_string_equal(hours_d, hours_t);
	assert_string_equal(hours_t, "1");
	free(needs);
	free(gpus_t);
	free(hours_t);
	free(gpus_d);
	free(hours_d);
	tui_harness_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chart_by_time_and_one_change),
		cmocka_unit_test(test_price_always_in_view),
		cmocka_unit_test(test_frozen_exchange_reads_stale),
		cmocka_unit_test(test_trades_dated_in_the_language),
		cmocka_unit_test(test_ascii_separator_is_not_the_marker),
		cmocka_unit_test(test_spec_figures_in_one_column),
		cmocka_unit_test(test_b_prefills_the_same),
	};
	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
