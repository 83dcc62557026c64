/*
 * The order form end to end through the screen harness (tui/frame/harness.h)
 * against a real gpuxd --demo on loopback at 80×24, its clock slowed so
 * that the demo's drift does not move the books between a preview and the
 * fill: the form for the selected row, the preview's lines, the
 * confirmation, the result, the rentals and orders pages after it, the
 * same order again, a cancel and the hold it frees, an order the exchange
 * refuses at submit, and the refusals the preview foresees. What the
 * screen shows is checked against what the exchange recorded (its API).
 * A server that cannot be started fails the tests.
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
	if (fx_demo_start("orderflow", &cat, &gpuxd_pid, gpuxd_url, sizeof gpuxd_url) != 0)
		return -1;
	setenv("NO_COLOR", "1", 1);
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	fx_demo_stop(&cat, &gpuxd_pid);
	return 0;
}

/* A new buyer account on url with deposit_minor (EUR cents): its key. */
static char *buyer_at(const char *url, const char *email, int64_t deposit_minor)
{
	char *key = NULL;

	for (int i = 0; i < 50 && key == NULL; i++) {
		key = fx_new_account(url, email, "buyer", deposit_minor);
		if (key == NULL)
			usleep(100 * 1000);
	}
	if (key == NULL)
		fail_msg("no account from gpuxd at %s", url);
	return key;
}

static struct tui_harness *open_at(const char *url, const char *key)
{
	struct tui_harness *h = fx_session(cat, url, key, I18N_EN, false, 24, 80);

	fx_expect_on_screen(h, "H200 Hopper");
	return h;
}

static long long balance(const char *url, const char *key, const char *which)
{
	char *r = fx_get(url, "/v1/account", key);
	long long v = fx_json_int(r, which);

	free(r);
	return v;
}

/* How many orders the exchange has for the account. */
static int n_orders(const char *url, const char *key)
{
	char *r = fx_get(url, "/v1/orders", key);
	int n = 0;

	for (const char *p = r; (p = strstr(p, "\"client_order_id\"")) != NULL; p++)
		n++;
	free(r);
	return n;
}

/* The first row showing first, in which each further word (NULL-ended)
 * follows the one before; else the test fails with the screen printed. */
static void expect_row(struct tui_harness *h, const char *first, ...)
{
	va_list ap;
	char *row = NULL;
	const char *p = NULL, *w;

	for (int i = 0; i < 80 && p == NULL; i++) {
		int y = tui_harness_find(h, first);
		free(row);
		row = y >= 0 ? tui_harness_row(h, y) : xstrdup("");
		p = strstr(row, first);
		va_start(ap, first);
		for (w = va_arg(ap, const char *); p != NULL && w != NULL; w = va_arg(ap, const char *))
			p = strstr(p, w) != NULL ? strstr(p, w) + strlen(w) : NULL;
		va_end(ap);
		if (p == NULL)
			tui_harness_pump(h, 100);
	}
	if (p == NULL) {
		char *s = tui_harness_screen(h);
		print_error("no row [%s ...] as expected; closest [%s]\n%s", first, row, s);
		free(s);
		free(row);
		fail();
	}
	free(row);
}

/* The text inside the dialog box on screen, as one line: what each row
 * shows between its first two │, blanks squeezed (malloc'ed). */
static char *dialog_text(struct tui_harness *h)
{
	struct buf b = {0};

	for (int y = 0; y < 24; y++) {
		char *row = tui_harness_row(h, y);
		char *a = strstr(row, "│"), *e = a != NULL ? strstr(a + 3, "│") : NULL;
		if (e != NULL) {
			for (char *p = a + 3; p < e; p++) {
				bool blank = *p == ' ';
				if (!blank || (b.len > 0 && b.data[b.len - 1] != ' '))
					buf_append(&b, blank ? " " : p, 1);
			}
			if (b.len > 0 && b.data[b.len - 1] != ' ')
				buf_append(&b, " ", 1);
		}
		free(row);
	}
	return b.data != NULL ? buf_take(&b) : xstrdup("");
}

static void expect_in_dialog(struct tui_harness *h, const char *text)
{
	char *d = dialog_text(h);

	if (strstr(d, text) == NULL) {
		print_error("not in the dialog: [%s]\ndialog: [%s]\n", text, d);
		free(d);
		fail();
	}
	free(d);
}

static void ctrl_u_type(struct tui_harness *h, const char *s)
{
	tui_harness_key(h, 'U' - '@');
	tui_harness_type(h, s);
}

/* The order form for one GPU: the filter keeps only its row, b opens the
 * form; gpus × hours at price typed (focus starts on GPUs). */
static void form_for(struct tui_harness *h, const char *gpu, const char *gpus,
		     const char *hours, const char *price)
{
	fx_settle(h); /* the market and the account came */
	tui_harness_key(h, '/');
	tui_harness_type(h, gpu);
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, ": 1 of");
	tui_harness_key(h, 'b');
	fx_expect_on_screen(h, "Preview by the exchange");
	ctrl_u_type(h, gpus);
	tui_harness_key(h, WKEY_TAB);
	ctrl_u_type(h, hours);
	tui_harness_key(h, WKEY_TAB);
	ctrl_u_type(h, price);
}

/* The preview's "Total" (what fills now, with VAT) in cents, from the screen. */
static long long screen_total(struct tui_harness *h)
{
	int y = tui_harness_find(h, "Total ");
	char *row = y >= 0 ? tui_harness_row(h, y) : xstrdup("");
	char *p = strstr(row, "€");
	long long v = 0;

	for (p = p != NULL ? p + 3 : row + strlen(row); *p != '\0' && *p != ' '; p++)
		if (*p >= '0' && *p <= '9')
			v = v * 10 + (*p - '0');
	free(row);
	return v;
}

/* Buy 8 × H200 for 24 h at market (docs/API.md's worked example: an EUR
 * account in PT, the seed's best H200 ask US$4.19, 23 % VAT): the preview,
 * the confirmation, y y Enter placing one order, the balance dropping by
 * the total on screen, the rental on the rentals page. */
static void market_buy(struct tui_harness *h, const char *key)
{
	static const char title[] = "Buy H200 · NVIDIA Hopper · 141 GB";
	char *row = tui_harness_row(h, 1);
	long long total, before;

	if (strncmp(row, title, strlen(title)) != 0)
		fail_msg("the form is not for the H200 row: [%s]", row);
	free(row);
	fx_expect_on_screen(h, "€912.00");
	expect_row(h, "Fills now", "8 × $4.19", NULL);
	expect_row(h, "VAT 23%", "€170.88", NULL);
	expect_row(h, "Available", "€5,000.00 → €4,088.00", NULL);
	expect_row(h, "ask", "$4.19", NULL);
	total = screen_total(h);
	assert_int_equal(total, 91200);
	before = balance(gpuxd_url, key, "available_minor");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Place this order?");
	expect_in_dialog(h, "Buy 8 × H200 for 24 hours at the best prices on offer, paying at most "
			 "$5.00 per GPU-hour (market order)");
	expect_in_dialog(h, "Total with VAT: €912.00");
	assert_int_equal(n_orders(gpuxd_url, key), 0);
	/* the second y and the Enter arrive while the order is on its way */
	tui_harness_key(h, 'y');
	tui_harness_key(h, 'y');
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Order placed");
	expect_in_dialog(h, "8 × H200 GPUs for 24 h at $4.19 per GPU-hour");
	expect_in_dialog(h, "Filled: order ");
	fx_settle(h); /* a second order, had the keys sent one, answered too */
	assert_int_equal(n_orders(gpuxd_url, key), 1);
	assert_int_equal(before - balance(gpuxd_url, key, "available_minor"), total);
	tui_harness_key(h, 'R');
	fx_expect_on_screen(h, "Rental");
	expect_row(h, "H200", "8", "active", "1/24", "23", "$4.19", NULL);
	fx_expect_on_screen(h, "Available €4,088.00");
}

/* The form again over the filled order: Enter asks about the same order
 * again, only y would place it. */
static void same_order_again(struct tui_harness *h, const char *key)
{
	tui_harness_key(h, WKEY_ESC);
	fx_expect_on_screen(h, "H200 Hopper");
	tui_harness_key(h, 'b');
	fx_expect_on_screen(h, "Preview by the exchange");
	fx_settle(h); /* its preview came */
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Place the same order again?");
	expect_in_dialog(h, "You placed this same order a moment ago (order ");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Not placed: nothing was sent");
	assert_int_equal(n_orders(gpuxd_url, key), 1);
}

/* The form kept what was typed: → on Type (the row above GPUs) makes it a
 * limit order at US$3.00, which rests; the orders page lists it, x cancels
 * it and names the hold that comes back. */
static void limit_rests_then_cancelled(struct tui_harness *h, const char *key)
{
	long long held0 = balance(gpuxd_url, key, "held_minor");
	char *r, oid[32], text[96];
	long long id;

	tui_harness_key(h, WKEY_BTAB);
	tui_harness_key(h, WKEY_RIGHT);
	for (int i = 0; i < 3; i++)
		tui_harness_key(h, WKEY_TAB);
	ctrl_u_type(h, "3");
	fx_expect_on_screen(h, "Limit price/h");
	expect_row(h, "Waits on book", "8 GPUs", NULL);
	/* 8 × 24 × unit(300) = 192 × (276 + 64) = 65 280 cents */
	expect_row(h, "Held", "€652.80", NULL);
	fx_expect_on_screen(h, "far from the");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Place this order?");
	expect_in_dialog(h, "at $3.00 per GPU-hour or less (limit order)");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Resting: order");
	r = fx_get(gpuxd_url, "/v1/orders?status=open", key);
	id = fx_json_int(r, "id");
	snprintf(oid, sizeof oid, " %lld ", id); /* its row's first cell */
	assert_non_null(strstr(r, "\"open\""));
	free(r);
	assert_int_equal(balance(gpuxd_url, key, "held_minor") - held0, 65280);
	tui_harness_key(h, 'o');
	expect_row(h, oid, "H200", "buy", "resting", "8", "0", "24", "$3.00", NULL);
	tui_harness_key(h, 'g');
	tui_harness_key(h, 'x');
	snprintf(text, sizeof text, "Cancel order %lld?", id);
	fx_expect_on_screen(h, text);
	expect_in_dialog(h, "Its hold of €652.80 goes back");
	tui_harness_key(h, 'y');
	snprintf(text, sizeof text, "Cancelled order %lld: €652.80 released", id);
	fx_expect_on_screen(h, text);
	fx_expect_on_screen(h, "Available €4,088.00 · held");
	assert_int_equal(balance(gpuxd_url, key, "held_minor"), held0);
	expect_row(h, oid, "H200", "buy", "cancelled", NULL);
}

/* The market closes between the preview and y: "Not placed", the reason
 * in words, no new order, and the form keeps what was typed. */
static void refused_at_submit(struct tui_harness *h, const char *key)
{
	int n0;

	tui_harness_key(h, 'b');
	fx_expect_on_screen(h, "Preview by the exchange");
	tui_harness_key(h, WKEY_BTAB);
	tui_harness_key(h, WKEY_LEFT);
	for (int i = 0; i < 3; i++)
		tui_harness_key(h, WKEY_TAB);
	ctrl_u_type(h, "5");
	fx_expect_on_screen(h, "Max price/h");
	fx_expect_on_screen(h, "€912.00");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Place this order?");
	free(fx_post(gpuxd_url, "/v1/admin/market", NULL, "{\"state\":\"halted\"}"));
	n0 = n_orders(gpuxd_url, key);
	tui_harness_key(h, 'y');
	fx_expect_on_screen(h, "Not placed");
	expect_in_dialog(h, "Trading is halted on the exchange");
	assert_int_equal(n_orders(gpuxd_url, key), n0);
	tui_harness_key(h, WKEY_ESC);
	expect_row(h, "GPUs", "8", NULL);
	expect_row(h, "Hours", "24", NULL);
	expect_row(h, "Max price/h", "5", NULL);
	free(fx_post(gpuxd_url, "/v1/admin/market", NULL, "{\"state\":\"open\"}"));
}

static void test_order_flow(void **state)
{
	char *key = buyer_at(gpuxd_url, "flow@example.pt", 500000);
	struct tui_harness *h = open_at(gpuxd_url, key);

	(void)state;
	form_for(h, "h200", "8", "24", "5");
	market_buy(h, key);
	same_order_again(h, key);
	limit_rests_then_cancelled(h, key);
	refused_at_submit(h, key);
	tui_harness_free(&h);
	free(key);
}

/* Not enough money: the preview warns, Enter explains under the fields
 * with the amounts, no confirmation, no order; s on a buyer account says
 * why there is no sell form. */
static void test_not_enough_money(void **state)
{
	char *key = buyer_at(gpuxd_url, "poor-flow@example.pt", 1000);
	struct tui_harness *h = open_at(gpuxd_url, key);

	(void)state;
	form_for(h, "h200", "8", "24", "5");
	fx_expect_on_screen(h, "Not enough money");
	tui_harness_key(h, WKEY_RETURN);
	fx_settle(h);
	/* the hold at the cap: 8 × 24 × unit(500) = 192 × (460 + 106) = 108 672 cents */
	fx_expect_on_screen(h, "€1,086.72");
	fx_expect_on_screen(h, "Top up your balance");
	assert_int_equal(fx_count_on_screen(h, "Place this order"), 0);
	assert_int_equal(n_orders(gpuxd_url, key), 0);
	tui_harness_key(h, WKEY_ESC);
	fx_expect_on_screen(h, "H200 Hopper");
	fx_settle(h);
	tui_harness_key(h, 's');
	fx_expect_on_screen(h, "buyer account: selling GPU hours needs a seller account");
	tui_harness_free(&h);
	free(key);
}

/* A pre-open market: the status bar says so, the preview warns, Enter
 * names the opening time, no confirmation, no order. */
static void test_pre_open(void **state)
{
	char db[512], url[64];
	char *gx[] = { (char *)"--demo", (char *)"--quiet", (char *)"--clock-speed", (char *)"0.001",
		       (char *)"--market", (char *)"pre_open", (char *)"--opens-at",
		       (char *)"2030-01-01T09:00:00Z", (char *)"--db", db, NULL };
	pid_t pid;
	char *key;
	struct tui_harness *h;

	(void)state;
	snprintf(db, sizeof db, "%s/preopen.db", fx_tmpdir);
	pid = fx_start_server("gpuxd", "preopen", gx, url, sizeof url);
	assert_true(pid > 0);
	key = buyer_at(url, "early@example.pt", 500000);
	h = open_at(url, key);
	fx_expect_on_screen(h, "pre-open");
	form_for(h, "h200", "8", "24", "5");
	fx_expect_on_screen(h, "The market is not open yet");
	tui_harness_key(h, WKEY_RETURN);
	fx_settle(h);
	fx_expect_on_screen(h, "2030-01-01 09:00 UTC");
	assert_int_equal(fx_count_on_screen(h, "Place this order"), 0);
	assert_int_equal(n_orders(url, key), 0);
	tui_harness_free(&h);
	free(key);
	fx_stop_server(&pid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_flow),
		cmocka_unit_test(test_not_enough_money),
		cmocka_unit_test(test_pre_open),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
