/*
 * The trade pages show only what is true, built from C (tui/frame/harness.h)
 * against a real gpuxd --demo on loopback, and for a lost answer against
 * tests/faultd in front of it:
 *
 *   - after "Outcome unknown" (the order committed, its answer and the
 *     check for it lost) r sends the same order again with the same client
 *     order id: the exchange answers the order it recorded, the screen says
 *     "Order placed", and the account holds one order, not two;
 *   - the confirmation follows the live preview beside it: when the book
 *     moves while it is open, it says the preview changed and what it says
 *     now;
 *   - the one-time API key whole on a line of its own at 80 and 120
 *     columns, with its warning; narrower than the key, how wide the
 *     terminal must be;
 *   - the account page's F-key bar keeps every key at 80 columns in every
 *     language;
 *   - an order that expires says why in words, not "(fok)";
 *   - German says "Markt", not "Market".
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
#include <unistd.h>

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "tests/unit/screen_fixture.h"
#include "tui/frame/harness.h"
#include "tui/tui_int.h"
#include "util/util.h"

static struct catalog *cat;
static pid_t gpuxd_pid = -1;
static char gpuxd_url[64];

static const enum i18n_lang langs[] = { I18N_EN, I18N_PT_PT, I18N_DE };
static const enum i18n_lang all_langs[] = { I18N_EN, I18N_PT_PT, I18N_PT_BR, I18N_ES, I18N_FR,
					    I18N_DE };

static int setup_all(void **state)
{
	(void)state;
	if (fx_demo_start("truetrade", &cat, &gpuxd_pid, gpuxd_url, sizeof gpuxd_url) != 0)
		return -1;
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	fx_demo_stop(&cat, &gpuxd_pid);
	return 0;
}

static int n_accounts;

/* A new account of role with €5,000.00 (demo: its own deposit): its key. */
static char *account(const char *role)
{
	char email[64];

	snprintf(email, sizeof email, "trade%d@example.pt", ++n_accounts);
	return fx_first_account(gpuxd_url, email, role, 500000);
}

static struct tui_harness *open_at(const char *url, const char *key, enum i18n_lang lang,
				   int lines, int cols, long timeout_ms)
{
	static struct api_config cfg;
	struct tui_options o = { .catalog = cat, .lang = lang, .config_path = "" };
	struct tui_harness *h;

	memset(&cfg, 0, sizeof cfg);
	cfg.url = url;
	cfg.key = key;
	cfg.max_attempts = 1;
	cfg.timeout_ms = timeout_ms;
	o.api = &cfg;
	i18n_init(lang);
	h = tui_harness_new(&o, lines, cols);
	assert_non_null(h);
	for (int i = 0; i < 300 && !tui_harness_tui(h)->m.have_prices; i++)
		tui_harness_pump(h, 20);
	assert_true(tui_harness_tui(h)->m.have_prices);
	return h;
}

/* The order form for the H200 row (the catalogue's fifth). */
static void form_h200(struct tui_harness *h)
{
	tui_harness_key(h, WKEY_HOME);
	for (int i = 0; i < 4; i++)
		tui_harness_key(h, WKEY_DOWN);
	tui_harness_key(h, 'b');
	fx_expect_on_screen(h, _("Preview by the exchange"));
	fx_expect_on_screen(h, "H200");
}

/* The bytes of s's first n characters (UTF-8). */
static size_t prefix(const char *s, size_t n)
{
	size_t i = 0;

	for (size_t k = 0; s[i] != '\0' && k < n; k++)
		do
			i++;
		while (((unsigned char)s[i] & 0xc0) == 0x80);
	return i;
}

/* Whether a row of the screen is exactly a key (re). */
static bool key_line_shown(struct tui_harness *h, regex_t *re)
{
	struct tui *t = tui_harness_tui(h);
	bool whole = false;

	for (int y = 0; y < t->lines && !whole; y++) {
		char *row = tui_harness_row(h, y);
		whole = regexec(re, row, 0, NULL, 0) == 0;
		free(row);
	}
	return whole;
}

/* The id of the account's newest API key (GET /v1/keys). */
/* The account's newest key id, asked again while the exchange refuses (its
 * rate limit per key: the session uses the same key meanwhile). */
static long long newest_key_id(const char *key)
{
	char *r = fx_get(gpuxd_url, "/v1/keys", key);
	long long max = -1;

	for (int i = 0; i < 50 && (r == NULL || strstr(r, "\"keys\"") == NULL); i++) {
		free(r);
		usleep(100 * 1000);
		r = fx_get(gpuxd_url, "/v1/keys", key);
	}

	for (const char *p = r; (p = strstr(p, "\"id\":")) != NULL; p += 5)
		if (atoll(p + 5) > max)
			max = atoll(p + 5);
	free(r);
	return max;
}

static int n_orders(const char *key)
{
	char *r = fx_get(gpuxd_url, "/v1/orders?status=all", key);
	int n = 0;

	for (const char *p = r; (p = strstr(p, "\"client_order_id\"")) != NULL; p++)
		n++;
	free(r);
	return n;
}

/* ---- the unknown outcome, resent --------------------------------------------------------------- */

/* faultd passes the order to gpuxd (it commits), resets the connection,
 * and resets the client's check for it: "Outcome unknown". r sends the
 * same order again, under its client order id: proxied now, the exchange
 * answers the order it recorded, placed once. */
static void test_unknown_outcome_resent(void **state)
{
	char url[64], up[64], logf[512], *key = account("buyer");
	char *fx[] = { (char *)"--mode", (char *)"lost-order", (char *)"--times", (char *)"1",
		       (char *)"--delay-ms", (char *)"1", (char *)"--upstream", up, (char *)"--log",
		       logf, NULL };
	pid_t pid;
	struct tui_harness *h;
	char *log = NULL, *cause = NULL, *coid, *r;
	size_t n = 0;

	(void)state;
	snprintf(up, sizeof up, "%s", gpuxd_url + strlen("http://"));
	snprintf(logf, sizeof logf, "%s/faultd.log", fx_tmpdir);
	pid = fx_start_server("tests/faultd", "faultd", fx, url, sizeof url);
	assert_true(pid > 0);
	h = open_at(url, key, I18N_EN, 24, 80, 2000);
	form_h200(h);
	fx_expect_on_screen(h, "Fills now");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Place this order?");
	tui_harness_key(h, 'y');
	assert_true(tui_harness_wait(h, "Outcome unknown", 20000));
	/* committed once, unknown to the client */
	assert_int_equal(n_orders(key), 1);
	fx_expect_on_screen(h, "r: send it again");
	tui_harness_key(h, 'r');
	fx_expect_on_screen(h, "Order placed");
	assert_int_equal(n_orders(key), 1);
	/* the order on screen is the one the exchange recorded */
	r = fx_get(gpuxd_url, "/v1/orders?status=all", key);
	long long id = fx_json_int(r, "id");
	char want[64];
	snprintf(want, sizeof want, "order %lld", id);
	fx_expect_on_screen(h, want);
	free(r);
	/* both POSTs carried one client order id */
	assert_int_equal(util_read_file(logf, &log, &n, &cause), 0);
	const char *p = strstr(log, "POST /v1/orders {");
	assert_non_null(p);
	p = strstr(p, "\"client_order_id\":\"");
	assert_non_null(p);
	p += strlen("\"client_order_id\":\"");
	coid = xstrndup(p, strcspn(p, "\""));
	int posts = 0, same = 0;
	for (const char *q = log; (q = strstr(q, "POST /v1/orders {")) != NULL; q++) {
		const char *e = strchr(q, '\n');
		char *line = xstrndup(q, e != NULL ? (size_t)(e - q) : strlen(q));
		posts++;
		same += strstr(line, coid) != NULL;
		free(line);
	}
	assert_int_equal(posts, 2);
	assert_int_equal(same, 2);
	free(coid);
	free(log);
	tui_harness_free(&h);
	fx_stop_server(&pid);
	free(key);
}

/* Without a dialog (the form left): F8 on the form does the same. The
 * F-key bar offers it only while an outcome is unknown. */
static void test_resend_from_the_form(void **state)
{
	char url[64], up[64], *key = account("buyer");
	char *fx[] = { (char *)"--mode", (char *)"lost-order", (char *)"--times", (char *)"1",
		       (char *)"--delay-ms", (char *)"1", (char *)"--upstream", up, NULL };
	pid_t pid;
	struct tui_harness *h;
	char *bar;

	(void)state;
	snprintf(up, sizeof up, "%s", gpuxd_url + strlen("http://"));
	pid = fx_start_server("tests/faultd", "faultd2", fx, url, sizeof url);
	assert_true(pid > 0);
	h = open_at(url, key, I18N_EN, 24, 80, 2000);
	form_h200(h);
	fx_expect_on_screen(h, "Fills now");
	bar = tui_harness_row(h, 23);
	assert_null(strstr(bar, "Resend"));
	free(bar);
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Place this order?");
	tui_harness_key(h, 'y');
	assert_true(tui_harness_wait(h, "Outcome unknown", 20000));
	tui_harness_key(h, 'x'); /* closes the dialog */
	fx_expect_on_screen(h, "F8Resend");
	tui_harness_key(h, WKEY_F8);
	fx_expect_on_screen(h, "Order placed");
	assert_int_equal(n_orders(key), 1);
	tui_harness_key(h, 'x');
	fx_expect_not_on_screen(h, "F8Resend");
	tui_harness_free(&h);
	fx_stop_server(&pid);
	free(key);
}

/* ---- the confirmation follows the preview ------------------------------------------------------- */

/* While "Place this order?" is open, a seller puts a cheaper ask on the
 * book: the next preview (every few seconds) moves the price beside it,
 * and the dialog says the preview changed and shows it. */
static void test_confirmation_follows_the_preview(void **state)
{
	char *key = account("buyer"), *seller = account("seller"), *r;
	struct tui_harness *h;

	(void)state;
	h = open_at(gpuxd_url, key, I18N_EN, 35, 120, 0);
	form_h200(h);
	fx_expect_on_screen(h, "Fills now");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Place this order?");
	r = fx_post(gpuxd_url, "/v1/orders", seller,
		    "{\"client_order_id\":\"cheap-1\",\"gpu\":\"h200\",\"side\":\"sell\","
		    "\"type\":\"limit\",\"gpus\":1,\"hours\":720,\"price_cents\":410}");
	if (strstr(r, "\"open\"") == NULL)
		print_error("the ask: %s\n", r);
	assert_non_null(strstr(r, "\"open\""));
	free(r);
	assert_true(tui_harness_wait(h, "The exchange's preview changed while this was open", 15000));
	fx_expect_on_screen(h, "$4.10");
	tui_harness_key(h, 'n');
	tui_harness_free(&h);
	free(key);
	free(seller);
}

/* ---- the new key, whole ---------------------------------------------------------------------- */

/* N on the account page: the key on a line of its own, whole, exactly the
 * key (a selection takes it and nothing else), with its warning whole;
 * narrower than the key, the width it needs, in words. */
static void test_new_key_whole(void **state)
{
	static const int widths[][2] = { { 24, 80 }, { 35, 120 }, { 24, 60 } };
	char *key = account("buyer");
	regex_t re;

	(void)state;
	assert_int_equal(regcomp(&re, "^gpux_[0-9a-f]{64}$", REG_EXTENDED | REG_NOSUB), 0);
	for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++) {
		for (size_t z = 0; z < 3; z++) {
			struct tui_harness *h = open_at(gpuxd_url, key, langs[l], widths[z][0],
							widths[z][1], 0);
			char *warn, *what;
			bool whole = false;
			long long before = newest_key_id(key);

			tui_harness_key(h, 'a');
			fx_expect_on_screen(h, _("Available"));
			for (int i = 0; i < 200 && tui_harness_find(h, "default") < 0; i++)
				tui_harness_pump(h, 20); /* the keys listed */
			tui_harness_key(h, 'N');
			tui_harness_key(h, WKEY_RETURN);
			/* the key made: its line, or the width it needs (asked of the
			 * screen, not of the exchange: its rate limit) */
			char *narrow = xasprintf(_("The key is %d characters long: widen the terminal to %d columns or more to see it whole (it stays here until the next key is made or revoked)."), 69, 69);
			narrow[prefix(narrow, 20)] = '\0';
			for (int i = 0; i < 300 && !key_line_shown(h, &re) &&
					tui_harness_find(h, narrow) < 0; i++)
				tui_harness_pump(h, 20);
			free(narrow);
			assert_true(newest_key_id(key) > before);
			what = xasprintf(_("New trade key %lld"), newest_key_id(key));
			warn = xasprintf(_("%1$s (%2$s copies it; it is not shown again):"), what, "y");
			/* the warning, from its start (it may wrap on a narrow screen) */
			warn[prefix(warn, 30)] = '\0';
			fx_expect_on_screen(h, warn);
			for (int y = 0; y < widths[z][0]; y++) {
				char *row = tui_harness_row(h, y);
				whole |= regexec(&re, row, 0, NULL, 0) == 0;
				free(row);
			}
			if (widths[z][1] >= 69) {
				if (!whole) {
					char *s = tui_harness_screen(h);
					print_error("no line is the key, whole:\n%s", s);
					free(s);
				}
				assert_true(whole);
			} else {
				char *wide = xasprintf(_("The key is %d characters long: widen the terminal to %d columns or more to see it whole (it stays here until the next key is made or revoked)."), 69, 69);
				wide[prefix(wide, 20)] = '\0';
				assert_false(whole);
				fx_expect_on_screen(h, wide);
				free(wide);
			}
			free(warn);
			free(what);
			tui_harness_free(&h);
		}
	}
	regfree(&re);
	i18n_init(I18N_EN);
	free(key);
}

/* ---- the account page's F-key bar ----------------------------------------------------------------- */

/* At 80 columns the account page's bar shows every key it has, in every
 * language: Deposit, New key, Revoke key, Orders, Rentals, Back, Quit. */
static void test_account_bar_whole(void **state)
{
	static const char *const words[] = { "Help", "Deposit", "New key", "Revoke key", "Orders",
					     "Rentals", "Back", "Quit" };
	char *key = account("buyer");

	(void)state;
	for (size_t l = 0; l < sizeof all_langs / sizeof all_langs[0]; l++) {
		struct tui_harness *h = open_at(gpuxd_url, key, all_langs[l], 24, 80, 0);
		char *bar;

		tui_harness_key(h, 'a');
		fx_expect_on_screen(h, _("Available"));
		for (int i = 0; i < 100 && tui_harness_tui(h)->m.state == NULL; i++)
			tui_harness_pump(h, 20);
		tui_harness_frame(h);
		bar = tui_harness_row(h, 23);
		for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
			if (strstr(bar, _(words[w])) == NULL)
				print_error("%s: no \"%s\" on the bar: [%s]\n", i18n_lang_tag(all_langs[l]),
					    _(words[w]), bar);
			assert_non_null(strstr(bar, _(words[w])));
		}
		free(bar);
		tui_harness_free(&h);
	}
	i18n_init(I18N_EN);
	free(key);
}

/* ---- words, not wire names ------------------------------------------------------------------------- */

/* A fill-or-kill buy larger than the book expires: the outcome says why in
 * the language's words, never the wire's "(fok)"; German writes "Markt". */
static void test_expired_in_words(void **state)
{
	char *key = account("buyer");

	(void)state;
	for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++) {
		struct tui_harness *h = open_at(gpuxd_url, key, langs[l], 35, 120, 0);
		char *s;

		form_h200(h);
		/* 512 GPUs, FOK: more than the book holds */
		tui_harness_key(h, 'U' - '@');
		tui_harness_type(h, "512");
		for (int i = 0; i < 3; i++)
			tui_harness_key(h, WKEY_DOWN); /* Hours, Max price, In force */
		tui_harness_key(h, WKEY_RIGHT); /* IOC → FOK */
		fx_expect_on_screen(h, "FOK");
		tui_harness_key(h, WKEY_RETURN);
		fx_expect_on_screen(h, _("Place this order?"));
		s = tui_harness_screen(h);
		if (langs[l] == I18N_DE)
			assert_null(strstr(s, "Market"));
		free(s);
		int before = n_orders(key);
		tui_harness_key(h, 'y');
		for (int i = 0; i < 200 && n_orders(key) == before; i++)
			tui_harness_pump(h, 20);
		char *r = fx_get(gpuxd_url, "/v1/orders?status=all&limit=1", key), *sentence;
		sentence = xasprintf(_("Not filled: order %lld expired (%s): not enough GPUs offered at "
				       "%s or better for %lld h."), fx_json_int(r, "id"),
				     _("FOK, fill or kill: all of it fills now, or nothing happens"), "",
				     1LL);
		free(r);
		sentence[prefix(sentence, 34)] = '\0'; /* the form wraps it after */
		fx_expect_on_screen(h, sentence);
		fx_expect_not_on_screen(h, "(fok)");
		free(sentence);
		tui_harness_free(&h);
	}
	i18n_init(I18N_EN);
	free(key);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_outcome_resent),
		cmocka_unit_test(test_resend_from_the_form),
		cmocka_unit_test(test_confirmation_follows_the_preview),
		cmocka_unit_test(test_new_key_whole),
		cmocka_unit_test(test_account_bar_whole),
		cmocka_unit_test(test_expired_in_words),
	};
	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
