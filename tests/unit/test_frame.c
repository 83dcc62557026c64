/*
 * The frame loop, the widgets and the layout, through the screen harness
 * (tui/frame/harness.h) against a real gpuxd --demo on loopback: what a user sees
 * at 80×24, 120×35 and 200×50 and at tiny sizes, cell by cell, with no
 * terminal and no tmux. A server that cannot be started fails the tests.
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
#include <wchar.h>
#include <wctype.h>

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "tui/market/browse.h"
#include "tui/frame/harness.h"
#include "tests/unit/screen_fixture.h"
#include "tui/tui_int.h"
#include "util/util.h"

static struct catalog *cat;
static pid_t gpuxd_pid = -1, faultd_pid = -1;
static char gpuxd_url[64], faultd_url[64];
static char *buyer_key;

/* ---- servers ---------------------------------------------------------------------------- */

/* A buyer account with €5,000.00 on it: its key. */
static int setup_all(void **state)
{
	char *fx[] = { (char *)"--mode", (char *)"slow", (char *)"--delay-ms", (char *)"20000", NULL };

	(void)state;
	if (fx_demo_start("frame", &cat, &gpuxd_pid, gpuxd_url, sizeof gpuxd_url) != 0)
		return -1;
	faultd_pid = fx_start_server("tests/faultd", "faultd", fx, faultd_url, sizeof faultd_url);
	if (faultd_pid < 0)
		return -1;
	buyer_key = fx_first_account(gpuxd_url, "frame@example.pt", "buyer", 500000);
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

static struct tui_harness *open_lang(const char *key, int lines, int cols, enum i18n_lang lang)
{
	return fx_session(cat, gpuxd_url, key, lang, false, lines, cols);
}

static struct tui_harness *open_at(int lines, int cols)
{
	return open_lang(buyer_key, lines, cols, I18N_EN);
}

static void expect_row_has(struct tui_harness *h, int y, const char *text, bool has)
{
	char *r = tui_harness_row(h, y);

	if ((strstr(r, text) != NULL) != has) {
		char *s = tui_harness_screen(h);
		print_error("row %d %s [%s]: [%s]\n%s", y, has ? "lacks" : "has", text, r, s);
		free(s);
		free(r);
		fail();
	}
	free(r);
}

/* One market order of the buyer's, so the lists have rows. */
static void buy_once(const char *id, int gpus)
{
	char body[256], *r;

	snprintf(body, sizeof body,
		 "{\"client_order_id\":\"%s\",\"gpu\":\"h200\",\"side\":\"buy\",\"type\":\"market\","
		 "\"gpus\":%d,\"hours\":5,\"max_price_cents\":2000}", id, gpus);
	r = fx_post(gpuxd_url, "/v1/orders", buyer_key, body);
	assert_non_null(r);
	assert_non_null(strstr(r, "\"filled\""));
	free(r);
}

/* ---- the width there is ---------------------------------------------------------------------- */

/* The first tab uses the width there is: every column when they fit, no ›
 * marker hiding one. */
static void test_columns_take_the_width(void **state)
{
	/* 150 columns hold the training tab's seven columns, the 24 h trend and
	 * the price at their narrowest: all show, none behind › */
	struct tui_harness *h = open_at(35, 150);

	(void)state;
	fx_expect_on_screen(h, "prices updated");
	expect_row_has(h, 1, "Full training, 1 GPU", true);
	expect_row_has(h, 1, "Full training, 8 GPUs", true);
	expect_row_has(h, 1, "24 h trend", true);
	expect_row_has(h, 1, "Price/h", true);
	expect_row_has(h, 1, "\u203a", false);
	fx_expect_on_screen(h, "\u2248 110B");
	tui_harness_free(&h);
	/* at 120 the width goes to the columns up to the one that does not fit,
	 * the trend and the price pinned at the right edge */
	h = open_at(35, 120);
	fx_expect_on_screen(h, "prices updated");
	expect_row_has(h, 1, "Full training, 1 GPU", true);
	expect_row_has(h, 1, "24 h trend", true);
	expect_row_has(h, 1, "Price/h", true);
	tui_harness_free(&h);
}

/* The rentals at 150×35: every column shows down to Ends (at 120 the
 * machines and their region push it off to the right), the machines' host
 * after it behind the › marker; at 200 the host shows too, nothing behind. */
static void test_rentals_take_the_width(void **state)
{
	static const int cols[] = { 150, 200 };
	int y;

	(void)state;
	buy_once("frame-rentals-1", 2);
	for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
		struct tui_harness *h = open_at(35, cols[i]);
		bool wide = cols[i] >= 200;

		fx_expect_on_screen(h, "prices updated");
		tui_harness_key(h, 'R');
		assert_string_equal(tui_harness_top(h), "rentals");
		fx_expect_on_screen(h, "Refunded");
		fx_expect_on_screen(h, "active");
		y = tui_harness_find(h, "Refunded");
		expect_row_has(h, y, "Ends", true);
		expect_row_has(h, y, "Host", wide);
		expect_row_has(h, y, "\u203a", !wide);
		fx_expect_on_screen(h, " UTC");
		if (wide)
			fx_expect_on_screen(h, " cores");
		tui_harness_free(&h);
	}
}

/* Whether the cells [x, x + w) of a row hold a cut text (…). */
static bool cut_at(const wchar_t *row, size_t n, int x, int w)
{
	for (int i = x; i < x + w && (size_t)i < n; i++)
		if (row[i] == L'\u2026')
			return true;
	return false;
}

/* The browse table: no right-aligned (number) column shows a cut cell. */
static void expect_no_cut_number(struct tui_harness *h, struct tui_browse *b)
{
	const struct wtable *tb = b->table;
	const struct tui_tab *tab = &b->tab[b->cur];

	for (int y = tb->base.y + 1; y < tb->base.y + tb->base.h; y++) {
		char *r = tui_harness_row(h, y);
		wchar_t w[512];
		size_t n = mbstowcs(w, r, sizeof w / sizeof w[0] - 1);

		assert_true(n != (size_t)-1);
		for (size_t c = 1; c < tb->ncols; c++) {
			if (tb->col_x[c] < 0 ||
			    tab->view->columns[tab->vis[c]].align != VIEW_RIGHT ||
			    !cut_at(w, n, tb->col_x[c], tb->col_w[c]))
				continue;
			char *s = tui_harness_screen(h);
			print_error("a number cut on row %d, column %zu: [%s]\n%s", y, c, r, s);
			free(s);
			free(r);
			fail();
		}
		free(r);
	}
}

/* A list: no word of a row is a number cut short ("€14.…", "1,2…"); the
 * time of a date (a text, left-aligned) may be. */
static void expect_no_cut_word(struct tui_harness *h, int y0, int y1)
{
	for (int y = y0; y < y1; y++) {
		char *r = tui_harness_row(h, y), *save = NULL;
		char *copy = xstrdup(r);
		bool after_date = false;

		for (char *tok = strtok_r(copy, " ", &save); tok != NULL;
		     tok = strtok_r(NULL, " ", &save)) {
			size_t len = strlen(tok), stem = len > 3 ? len - 3 : 0;
			if (!after_date && stem > 0 && strcmp(tok + stem, "\u2026") == 0 &&
			    strspn(tok, "$\u20ac0123456789.,/") >= stem) {
				print_error("a number cut on row %d: [%s]\n", y, r);
				fail();
			}
			after_date = strchr(tok, '-') != NULL;
		}
		free(copy);
		free(r);
	}
}

/* At tiny widths a number is never cut (1,239… reads as another number):
 * the column is dropped instead, in every tab scrolled to every column. */
static void test_numbers_never_cut(void **state)
{
	static const int widths[] = { 20, 23, 27, 31, 36 };
	struct tui_harness *h = open_at(24, 80);
	struct tui *t = tui_harness_tui(h);
	struct tui_browse *b = (struct tui_browse *)t->stack[0];

	(void)state;
	fx_expect_on_screen(h, "prices updated");
	for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
		tui_harness_resize(h, 24, widths[wi]);
		for (wkey tab = '1'; tab <= '6'; tab++) {
			tui_harness_key(h, tab);
			for (int k = 0; k < 12; k++) {
				expect_no_cut_number(h, b);
				tui_harness_key(h, WKEY_RIGHT);
			}
			for (int k = 0; k < 12; k++)
				tui_harness_key(h, WKEY_LEFT);
		}
	}
	/* the lists too */
	buy_once("frame-cut-1", 1);
	tui_harness_resize(h, 24, 80);
	tui_harness_key(h, 'R');
	fx_expect_on_screen(h, "active");
	for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
		tui_harness_resize(h, 24, widths[wi]);
		for (int k = 0; k < 12; k++) {
			expect_no_cut_word(h, 4, 22);
			tui_harness_key(h, WKEY_RIGHT);
		}
		for (int k = 0; k < 12; k++)
			tui_harness_key(h, WKEY_LEFT);
	}
	tui_harness_free(&h);
}

/* The help's hint at 80×24 in every language: wrapped inside the box, its
 * last words on screen, never cut. */
static void test_help_hint_fits(void **state)
{
	static const enum i18n_lang langs[] = { I18N_EN, I18N_PT_PT, I18N_PT_BR, I18N_ES, I18N_FR,
						I18N_DE };

	(void)state;
	for (size_t i = 0; i < sizeof langs / sizeof langs[0]; i++) {
		struct tui_harness *h = open_lang(buyer_key, 24, 80, langs[i]);
		const char *hint = _("\u2191\u2193 PgUp PgDn scroll \u00b7 any other key closes \u00b7 "
				     "mouse: click a header to sort, a tab or row to select");
		const char *last = strrchr(hint, ' ');

		tui_harness_key(h, '?');
		assert_string_equal(tui_harness_top(h), "overlay");
		assert_non_null(last);
		if (tui_harness_find(h, last + 1) < 0) {
			char *s = tui_harness_screen(h);
			print_error("the hint's last word [%s] is not on screen:\n%s", last + 1, s);
			free(s);
			fail();
		}
		tui_harness_free(&h);
	}
	i18n_init(I18N_EN);
}

/* A terminal without F-keys in its description (ansi), or without F5
 * (vt220): the F-key bar offers the letters that do the same, and leaves
 * out what has none; a terminal with them keeps the F-keys. */
static void test_fkeys_the_terminal_has(void **state)
{
	static struct api_config cfg;
	struct tui_options o = { .catalog = cat, .lang = I18N_EN, .config_path = "" };
	struct tui_harness *h;
	char *bar;

	(void)state;
	memset(&cfg, 0, sizeof cfg);
	cfg.url = gpuxd_url;
	cfg.key = buyer_key;
	cfg.max_attempts = 1;
	o.api = &cfg;
	h = tui_harness_new_term(&o, 24, 80, "ansi");
	fx_expect_on_screen(h, "prices updated");
	bar = tui_harness_row(h, 23);
	assert_null(strstr(bar, "F1"));
	assert_null(strstr(bar, "F5"));
	assert_null(strstr(bar, "F10"));
	assert_non_null(strstr(bar, "?Help"));
	assert_non_null(strstr(bar, "bBuy"));
	assert_non_null(strstr(bar, "qQuit"));
	free(bar);
	/* a click on an item sends its letter: b opens the order form */
	bar = tui_harness_row(h, 23);
	tui_harness_click(h, 23, (int)(strstr(bar, "bBuy") - bar));
	free(bar);
	assert_string_equal(tui_harness_top(h), "order-form");
	/* in the form a letter would be typed: none is offered */
	fx_expect_on_screen(h, "Review");
	expect_row_has(h, 23, "Review", true);
	expect_row_has(h, 23, "qQuit", false);
	expect_row_has(h, 23, "?Help", false);
	tui_harness_free(&h);

	h = tui_harness_new_term(&o, 24, 80, "vt220");
	fx_expect_on_screen(h, "prices updated");
	bar = tui_harness_row(h, 23);
	assert_non_null(strstr(bar, "F1Help"));
	assert_non_null(strstr(bar, "bBuy"));
	assert_null(strstr(bar, "F5"));
	assert_non_null(strstr(bar, "F10Quit"));
	free(bar);
	tui_harness_free(&h);

	h = tui_harness_new_term(&o, 24, 80, "xterm-256color");
	fx_expect_on_screen(h, "prices updated");
	bar = tui_harness_row(h, 23);
	assert_non_null(strstr(bar, "F5Buy"));
	assert_non_null(strstr(bar, "F10Quit"));
	free(bar);
	tui_harness_free(&h);
}

/* A status message shows once, for its time, and never again unless it is
 * posted again: not after tabs, pages, a resize or minutes of frames. */
static void test_message_shows_once(void **state)
{
	struct tui_harness *h = open_at(24, 100);
	struct tui *t = tui_harness_tui(h);
	static const wkey keys[] = { '2', '1', 'R', WKEY_ESC, 'a', WKEY_ESC, 'L' - '@' };

	(void)state;
	fx_expect_on_screen(h, "prices updated");
	tui_message(t, "frame note one");
	tui_harness_frame(h);
	assert_true(tui_harness_find(h, "frame note one") >= 0);
	fx_expect_gone(h, "frame note one", TUI_MSG_MS + 2000);
	assert_null(t->msg);
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		tui_harness_key(h, keys[i]);
		fx_settle(h); /* what the key asked the exchange for came */
		assert_true(tui_harness_find(h, "frame note one") < 0);
	}
	tui_harness_resize(h, 24, 80);
	fx_settle(h);
	assert_true(tui_harness_find(h, "frame note one") < 0);
	/* posted again: shown again */
	tui_message(t, "frame note one");
	tui_harness_frame(h);
	assert_true(tui_harness_find(h, "frame note one") >= 0);
	tui_harness_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns_take_the_width),
		cmocka_unit_test(test_rentals_take_the_width),
		cmocka_unit_test(test_numbers_never_cut),
		cmocka_unit_test(test_help_hint_fits),
		cmocka_unit_test(test_fkeys_the_terminal_has),
		cmocka_unit_test(test_message_shows_once),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
