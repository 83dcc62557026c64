/*
 * The tables' sparklines on one scale (S, :spark-scale), built from C
 * (tui/frame/harness.h) against a real gpuxd on loopback whose trades this
 * test makes itself, on a clock it moves (POST /v1/admin/clock): H200 at
 * $4.00 and, 6 h later, $4.40; the A100 PCIe at $0.40 and then $0.50.
 *
 *   - on its own scale each GPU's sparkline spans the full height (▁ … █);
 *   - on the one scale the cheap GPU's line lies at the bottom (▁ alone)
 *     and H200's near the top, and the column's header says the scale: the
 *     lowest and highest price traded ("24 h $0.40–$4.40");
 *   - compare draws its sparklines on the same scale;
 *   - the choice is remembered with the exchange's state: a new session
 *     starts on the one scale.
 */
#include "tests/unit/screen_fixture.h"

#include <sys/stat.h>

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "tui/frame/harness.h"
#include "tui/market/browse.h"
#include "tui/tui_int.h"
#include "util/util.h"

static struct catalog *cat;
static pid_t gpuxd_pid = -1;
static char gpuxd_url[64], conf_path[512];
static char *buyer_key, *seller_key;
static const char admin_key[] = "spark-scale-admin-key-0123456789";

/* The trades made, in cents: H200's and the A100 PCIe's, oldest first. */
static const int h200_trades[] = { 400, 440 };
static const int pcie_trades[] = { 40, 50 };

/* ---- the exchange and its trades ------------------------------------------------------- */

static int trade(const char *gpu, int cents)
{
	return fx_trade(gpuxd_url, seller_key, buyer_key, gpu, cents);
}

static int setup_all(void **state)
{
	char st[512];
	FILE *f;

	(void)state;
	if (fx_market_start("sparkscale", admin_key, &cat, &gpuxd_pid, gpuxd_url, sizeof gpuxd_url,
			    &seller_key, &buyer_key) != 0)
		return -1;
	snprintf(st, sizeof st, "%s/state", fx_tmpdir);
	setenv("XDG_STATE_HOME", st, 1);
	snprintf(conf_path, sizeof conf_path, "%s/gpux.conf", fx_tmpdir);
	f = fopen(conf_path, "w");
	if (f == NULL)
		return -1;
	fclose(f);
	chmod(conf_path, 0600);
	/* the first prices, 6 h later the second ones, then an hour on: now */
	if (trade("h200", h200_trades[0]) != 0 || trade("a100-pcie", pcie_trades[0]) != 0)
		return -1;
	fx_advance_clock(gpuxd_url, admin_key, 6 * 3600);
	if (trade("h200", h200_trades[1]) != 0 || trade("a100-pcie", pcie_trades[1]) != 0)
		return -1;
	fx_advance_clock(gpuxd_url, admin_key, 3600);
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

static struct tui_harness *open_session(void)
{
	return fx_session_conf(cat, gpuxd_url, buyer_key, I18N_EN, false, conf_path, 40, 120);
}

static const char *const eighths[8] = {
	"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
};

/* The screen row showing name (the test fails when none does), malloc'ed. */
static char *row_of(struct tui_harness *h, const char *name)
{
	int y;

	fx_expect_on_screen(h, name);
	y = tui_harness_find(h, name);
	assert_true(y >= 0);
	return tui_harness_row(h, y);
}

/* Which of the eighth blocks the row of name shows (a mask: bit i ▁+i). */
static unsigned blocks_of(struct tui_harness *h, const char *name)
{
	char *r = row_of(h, name);
	unsigned m = 0;

	for (int i = 0; i < 8; i++)
		if (strstr(r, eighths[i]) != NULL)
			m |= 1u << i;
	free(r);
	return m;
}

/* Pump until the row of name shows blocks of want (all of its bits), 8 s. */
static unsigned wait_blocks(struct tui_harness *h, const char *name, unsigned want)
{
	unsigned m = 0;

	for (int i = 0; i < 160 && ((m = blocks_of(h, name)) & want) != want; i++)
		tui_harness_pump(h, 50);
	if ((m & want) != want) {
		char *s = tui_harness_screen(h);
		print_error("the row of %s shows blocks %#x, not %#x:\n%s", name, m, want, s);
		free(s);
	}
	return m;
}

/* "$4.40" for 440, as the English tables write dollars. */
static void dollars(char *out, size_t n, int cents)
{
	snprintf(out, n, "$%d.%02d", cents / 100, cents % 100);
}

/* The header of the one scale: the lowest and highest price traded. */
static void scale_text(char *out, size_t n)
{
	int lo = h200_trades[0], hi = h200_trades[0];
	char l[16], h[16];

	for (size_t i = 0; i < 2; i++) {
		int v[2] = { h200_trades[i], pcie_trades[i] };
		for (int k = 0; k < 2; k++) {
			lo = v[k] < lo ? v[k] : lo;
			hi = v[k] > hi ? v[k] : hi;
		}
	}
	dollars(l, sizeof l, lo);
	dollars(h, sizeof h, hi);
	snprintf(out, n, "24 h %s\u2013%s", l, h);
}

enum { LOWEST = 1u << 0, HIGHEST = 1u << 7, ABOVE_LOWEST = 0xfeu };

/* Own scales: both full height. S: the cheap one at the bottom, the scale
 * in the header; compare the same; S remembered; S again: own scales. */
static void test_one_scale(void **state)
{
	struct tui_harness *h = open_session();
	char scale[64];

	(void)state;
	scale_text(scale, sizeof scale);
	/* each on its own scale: ▁ … █ in both rows */
	assert_int_equal(wait_blocks(h, "H200", LOWEST | HIGHEST) & (LOWEST | HIGHEST),
			 LOWEST | HIGHEST);
	assert_int_equal(wait_blocks(h, "A100 PCIe", LOWEST | HIGHEST) & (LOWEST | HIGHEST),
			 LOWEST | HIGHEST);
	fx_expect_not_on_screen(h, scale);

	/* one scale: the A100 PCIe's prices are the lowest of it, at the bottom */
	tui_harness_key(h, 'S');
	fx_expect_on_screen(h, scale);
	assert_true(tui_harness_tui(h)->spark_shared);
	assert_int_equal(blocks_of(h, "A100 PCIe"), LOWEST);
	assert_int_equal(blocks_of(h, "H200") & (LOWEST | HIGHEST), HIGHEST);
	fx_expect_on_screen(h, "Sparklines on one scale");

	/* compare the two: the same scale */
	tui_harness_key(h, WKEY_HOME);
	for (int i = 0; i < 4; i++)
		tui_harness_key(h, WKEY_DOWN);
	tui_harness_key(h, ' ');             /* H200, the catalogue's fifth */
	for (int i = 0; i < 4; i++)
		tui_harness_key(h, WKEY_DOWN);
	tui_harness_key(h, ' ');             /* the A100 PCIe, its ninth */
	assert_int_equal(((struct tui_browse *)tui_harness_tui(h)->stack[0])->n_marks, 2);
	tui_harness_key(h, '=');
	assert_string_equal(tui_harness_top(h), "compare");
	fx_expect_on_screen(h, scale);
	tui_harness_key(h, WKEY_ESC);
	tui_harness_free(&h);

	/* a new session: still on the one scale */
	h = open_session();
	assert_true(tui_harness_tui(h)->spark_shared);
	fx_expect_on_screen(h, scale);
	assert_int_equal(wait_blocks(h, "H200", HIGHEST) & LOWEST, 0);
	assert_int_equal(blocks_of(h, "A100 PCIe"), LOWEST);
	/* :spark-scale: back to each its own */
	tui_harness_key(h, ':');
	tui_harness_type(h, "spark-scale");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Sparklines each on its own scale");
	fx_expect_not_on_screen(h, scale);
	assert_int_equal(blocks_of(h, "A100 PCIe") & (LOWEST | HIGHEST), LOWEST | HIGHEST);
	tui_harness_free(&h);
	h = open_session();
	assert_false(tui_harness_tui(h)->spark_shared);
	tui_harness_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_scale),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
