/*
 * The account and rentals pages through the screen harness (tui/frame/harness.h)
 * against a real gpuxd --demo on loopback, its clock at 1/1000 so that
 * nothing is billed unless a test advances it (POST /v1/admin/clock): the
 * balances and the ledger, a deposit refused and then made, rentals whose
 * hours used and left update live, a rental stopped early with what stays
 * billed and what comes back, a key the exchange does not know, a seller's
 * sell form, and a pt-PT price written "4.500" refused. A server that
 * cannot be started fails the tests.
 */
#include "tests/unit/screen_fixture.h"

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "tui/frame/harness.h"
#include "util/util.h"

static struct catalog *cat;
static pid_t gpuxd_pid = -1;
static char gpuxd_url[64];

static int setup_all(void **state)
{
	(void)state;
	if (fx_demo_start("accountpages", &cat, &gpuxd_pid, gpuxd_url, sizeof gpuxd_url) != 0)
		return -1;
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	fx_demo_stop(&cat, &gpuxd_pid);
	return 0;
}

/* A new account of role with deposit_minor (EUR cents) on it: its key. */
static char *account(const char *email, const char *role, int64_t deposit_minor)
{
	char *key = NULL;

	for (int i = 0; i < 50 && key == NULL; i++) {
		key = fx_new_account(gpuxd_url, email, role, deposit_minor);
		if (key == NULL)
			usleep(100 * 1000);
	}
	if (key == NULL)
		fail_msg("no account from gpuxd at %s", gpuxd_url);
	return key;
}

static struct tui_harness *open_as(const char *key, enum i18n_lang lang, int lines, int cols)
{
	struct tui_harness *h = fx_session(cat, gpuxd_url, key, lang, false, lines, cols);

	fx_expect_on_screen(h, "H200");
	return h;
}

static void close_session(struct tui_harness **h)
{
	tui_harness_free(h);
	i18n_init(I18N_EN);
}

static long long available(const char *key)
{
	char *r = fx_get(gpuxd_url, "/v1/account", key);
	long long v = fx_json_int(r, "available_minor");

	free(r);
	return v;
}

/* A market buy through the API: its rental's id. */
static long long buy(const char *key, const char *gpu, int gpus, int hours, int max_cents)
{
	char body[512];
	char *r;
	long long id;

	snprintf(body, sizeof body, "{\"client_order_id\":\"acct-%s-%d-%d\",\"gpu\":\"%s\","
		 "\"side\":\"buy\",\"type\":\"market\",\"gpus\":%d,\"hours\":%d,"
		 "\"max_price_cents\":%d,\"time_in_force\":\"ioc\"}", gpu, gpus, hours, gpu,
		 gpus, hours, max_cents);
	r = fx_post(gpuxd_url, "/v1/orders", key, body);
	id = fx_json_int(r, "rental_id");
	if (id <= 0)
		print_error("no rental: %s\n", r);
	free(r);
	assert_true(id > 0);
	return id;
}

/* The row of the list whose first word is id, as a string (malloc'ed), or NULL. */
static char *rental_row(struct tui_harness *h, long long id)
{
	for (int y = 0; y < 24; y++) {
		char *row = tui_harness_row(h, y);
		long long first;
		if (sscanf(row, " %lld", &first) == 1 && first == id)
			return row;
		free(row);
	}
	return NULL;
}

/* The rental id's row shows each of want (NULL-terminated) within 8 s. */
static void expect_rental(struct tui_harness *h, long long id, const char *const want[])
{
	char *row = NULL;
	bool all = false;

	for (int i = 0; i < 80 && !all; i++) {
		free(row);
		row = rental_row(h, id);
		all = row != NULL;
		for (size_t k = 0; all && want[k] != NULL; k++)
			all = strstr(row, want[k]) != NULL;
		if (!all)
			tui_harness_pump(h, 100);
	}
	if (!all) {
		char *s = tui_harness_screen(h);
		print_error("rental %lld: want [%s ...], row [%s]\n%s", id, want[0],
			    row != NULL ? row : "(none)", s);
		free(s);
		fail();
	}
	free(row);
}

/* The account page: who the account is, its balance as the exchange has
 * it, country and VAT, what is held and why, and the ledger. */
static void test_account_page(void **state)
{
	char *key = account("acct@example.pt", "buyer", 500000);
	struct tui_harness *h;
	char *want, *line;
	long long av;

	(void)state;
	buy(key, "h100-sxm", 2, 3, 400);
	h = open_as(key, I18N_EN, 24, 80);
	tui_harness_key(h, 'a');
	fx_expect_on_screen(h, "acct@example.pt \u00b7 buyer");
	line = tui_harness_row(h, tui_harness_find(h, "acct@example.pt"));
	assert_non_null(strstr(line, "Account "));
	free(line);
	av = available(key);
	want = i18n_fmt_money(I18N_EN, av, "EUR");
	fx_expect_on_screen(h, want);
	line = tui_harness_row(h, tui_harness_find(h, want));
	assert_non_null(strstr(line, "Available"));
	free(line);
	free(want);
	fx_expect_on_screen(h, "PT, VAT 23% \u00b7 pays in EUR");
	fx_expect_on_screen(h, "for resting orders and rental hours");
	line = tui_harness_row(h, tui_harness_find(h, "for resting orders and rental hours"));
	assert_non_null(strstr(line, "Held"));
	free(line);
	tui_harness_key(h, 'G');
	fx_expect_on_screen(h, "\u20ac5,000.00");
	line = tui_harness_row(h, tui_harness_find(h, "\u20ac5,000.00"));
	assert_non_null(strstr(line, "deposit"));
	free(line);
	tui_harness_key(h, 'g');
	fx_expect_on_screen(h, "charge");
	close_session(&h);
	free(key);
}

/* d asks for an amount: a bad one is refused in words with no dialog; a
 * good one is confirmed as simulated, then the new balance shows at once. */
static void test_deposit_bad_amount_then_good(void **state)
{
	char *key = account("deposit@example.pt", "buyer", 500000);
	struct tui_harness *h = open_as(key, I18N_EN, 24, 80);
	char *want, *note;
	long long av;

	(void)state;
	tui_harness_key(h, 'a');
	fx_expect_on_screen(h, "deposit@example.pt");
	av = available(key);
	tui_harness_key(h, 'd');
	fx_expect_on_screen(h, "Deposit (EUR):");
	tui_harness_type(h, "abc");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Not an amount");
	assert_int_equal(fx_count_on_screen(h, "Deposit \u20ac"), 0);
	tui_harness_key(h, 'U' - '@');
	tui_harness_type(h, "250");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Deposit \u20ac250.00?");
	fx_expect_on_screen(h, "This is a simulated");
	fx_expect_on_screen(h, "no real money moves");
	tui_harness_key(h, 'y');
	want = i18n_fmt_money(I18N_EN, av + 25000, "EUR");
	note = xasprintf("Deposited \u20ac250.00; available now %s.", want);
	fx_expect_on_screen(h, note);
	assert_int_equal(available(key), av + 25000);
	free(note);
	free(want);
	close_session(&h);
	free(key);
}

/* R: the rentals with hours used and left; an hour passing on the exchange
 * shows at once, the cursor still on its rental (x names it); x stops it:
 * the hours begun stay billed, the rest comes back, on screen and in the
 * balance. */
static void test_rentals_live_and_stopped_early(void **state)
{
	char *key = account("rentals@example.pt", "buyer", 500000);
	struct tui_harness *h;
	long long r1, r2, before;
	char *ask, *note, *r;

	(void)state;
	r1 = buy(key, "h100-sxm", 2, 3, 400);
	r2 = buy(key, "a100-sxm", 1, 5, 300);
	h = open_as(key, I18N_EN, 24, 80);
	tui_harness_key(h, 'R');
	expect_rental(h, r2, (const char *const[]){ "A100 SXM", " 1 ", "active", "1/5", NULL });
	expect_rental(h, r1, (const char *const[]){ "H100 SXM", " 2 ", "active", "1/3", NULL });
	tui_harness_key(h, 'j');
	free(fx_post(gpuxd_url, "/v1/admin/clock", NULL, "{\"advance_seconds\":3600}"));
	expect_rental(h, r1, (const char *const[]){ "H100 SXM", "active", "2/3", NULL });
	expect_rental(h, r2, (const char *const[]){ "A100 SXM", "active", "2/5", NULL });
	before = available(key);
	tui_harness_key(h, 'x');
	ask = xasprintf("Stop rental %lld now?", r1);
	fx_expect_on_screen(h, ask);
	fx_expect_on_screen(h, "2 \u00d7 H100 SXM at $2.88 per GPU-hour: 2 of 3 hours");
	fx_expect_on_screen(h, "have begun and stay billed");
	tui_harness_key(h, 'y');
	/* H100 SXM at US$2.88, EUR in PT (docs/API.md rounding): net 265, VAT 61,
	 * so 326 per GPU-hour; 2 GPUs × 1 hour not begun = 652 cents back */
	note = xasprintf("Stopped rental %lld: 2 of 3 hours billed (\u20ac13.04), \u20ac6.52 refunded.",
			 r1);
	fx_expect_on_screen(h, note);
	expect_rental(h, r1, (const char *const[]){ "H100 SXM", "stopped", NULL });
	assert_int_equal(available(key) - before, 652);
	r = fx_get(gpuxd_url, "/v1/rentals", key);
	assert_non_null(strstr(r, "\"stopped\""));
	free(r);
	tui_harness_key(h, WKEY_ESC);
	fx_expect_on_screen(h, "H200 Hopper");
	free(note);
	free(ask);
	close_session(&h);
	free(key);
}

/* A key the exchange does not know: the orders page says it was refused,
 * the account page how to give one. */
static void test_bad_key_said(void **state)
{
	struct tui_harness *h = open_as(
		"gpux_0000000000000000000000000000000000000000000000000000000000000000",
		I18N_EN, 24, 80);

	(void)state;
	tui_harness_key(h, 'o');
	fx_expect_on_screen(h, "did not accept your API key");
	tui_harness_key(h, 'a');
	fx_expect_on_screen(h, "Give your key with --key");
	close_session(&h);
}

/* The tables filtered to one GPU (its row under the cursor). */
static void choose_gpu(struct tui_harness *h, const char *name)
{
	fx_settle(h); /* the market and the account came */
	tui_harness_key(h, '/');
	tui_harness_type(h, name);
	tui_harness_key(h, WKEY_RETURN);
	fx_settle(h);
}

/* The first row showing text shows a, then b after it. */
static void expect_row(struct tui_harness *h, const char *text, const char *a, const char *b)
{
	int y = tui_harness_find(h, text);
	char *row = y >= 0 ? tui_harness_row(h, y) : xstrdup("");
	const char *pa = strstr(row, a);

	if (pa == NULL || strstr(pa + strlen(a), b) == NULL) {
		char *s = tui_harness_screen(h);
		print_error("want [%s ... %s] on one row: [%s]\n%s", a, b, row, s);
		free(s);
		free(row);
		fail();
	}
	free(row);
}

/* A seller pressing b is told why not; s opens the sell form, a market
 * sell asking for the least price, a limit sell previewing what rests. */
static void test_seller_sell_form(void **state)
{
	char *key = account("seller@example.pt", "seller", 100);
	struct tui_harness *h = open_as(key, I18N_EN, 24, 80);

	(void)state;
	choose_gpu(h, "h200");
	tui_harness_key(h, 'b');
	fx_expect_on_screen(h, "seller account: buying GPU hours needs a buyer account");
	tui_harness_key(h, 's');
	fx_expect_on_screen(h, "Sell H200");
	fx_expect_on_screen(h, "Min price/h");
	tui_harness_key(h, WKEY_BTAB);
	tui_harness_key(h, WKEY_RIGHT);
	tui_harness_key(h, WKEY_TAB);
	tui_harness_key(h, WKEY_TAB);
	tui_harness_key(h, WKEY_TAB);
	tui_harness_key(h, 'U' - '@');
	tui_harness_type(h, "5");
	fx_expect_on_screen(h, "Limit price/h");
	fx_expect_on_screen(h, "Waits on book");
	expect_row(h, "Waits on book", "Waits on book", " 1 GPU");
	close_session(&h);
	free(key);
}

/* In pt-PT a price is typed as people write it there: "4,50" is a price,
 * its confirmation in Portuguese; n sends nothing; "4.500" is refused,
 * never taken as 4.5 or 4500. */
static void test_pt_pt_prices(void **state)
{
	char *key = account("pt@example.pt", "buyer", 500000);
	struct tui_harness *h = open_as(key, I18N_PT_PT, 24, 80);
	char *r;

	(void)state;
	choose_gpu(h, "h200");
	tui_harness_key(h, 'b');
	fx_expect_on_screen(h, "Comprar H200");
	tui_harness_key(h, 'U' - '@');
	tui_harness_type(h, "2");
	tui_harness_key(h, WKEY_TAB);
	tui_harness_key(h, 'U' - '@');
	tui_harness_type(h, "3");
	tui_harness_key(h, WKEY_TAB);
	tui_harness_key(h, 'U' - '@');
	tui_harness_type(h, "4,50");
	/* the demo's prices drift: only the total's pt-PT form is checked */
	fx_expect_on_screen(h, "Total");
	expect_row(h, "Total", "Total", ",");
	expect_row(h, "Total", "Total", " \u20ac");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Colocar esta ordem?");
	fx_expect_on_screen(h, "pagando no m\u00e1ximo US$ 4,50 por GPU-hora");
	tui_harness_key(h, 'n');
	fx_expect_on_screen(h, "N\u00e3o colocada: nada foi enviado");
	r = fx_get(gpuxd_url, "/v1/orders", key);
	assert_null(strstr(r, "\"id\""));
	free(r);
	tui_harness_key(h, 'U' - '@');
	tui_harness_type(h, "4.500");
	fx_expect_on_screen(h, "Pre\u00e7o: um ponto antes de tr\u00eas");
	tui_harness_key(h, WKEY_ESC);
	fx_expect_on_screen(h, "H200 Hopper");
	close_session(&h);
	free(key);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_account_page),
		cmocka_unit_test(test_deposit_bad_amount_then_good),
		cmocka_unit_test(test_bad_key_said),
		cmocka_unit_test(test_seller_sell_form),
		cmocka_unit_test(test_pt_pt_prices),
		cmocka_unit_test(test_rentals_live_and_stopped_early),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
