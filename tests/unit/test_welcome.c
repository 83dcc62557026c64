/*
 * The welcome screen (tui/trade/welcome.c) through the screen harness, against a
 * real gpuxd that is not a demo (pre-open, an announced opening) on
 * loopback, in English and in European Portuguese: creating an account
 * with every field checked as typed, entering an existing key (masked,
 * refused when wrong, saved when right), Esc to browse; and a demo gpuxd,
 * where no welcome shows. A server that cannot be started fails the tests.
 */
#include "tests/unit/screen_fixture.h"

#include <sys/stat.h>

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "tui/frame/harness.h"
#include "tui/tui_int.h"
#include "util/util.h"

static struct catalog *cat;
static pid_t real_pid = -1, demo_pid = -1;
static char real_url[64], demo_url[64];

/* A buyer account (email) on the exchange that is not a demo: its key. */
static char *new_buyer(const char *email)
{
	return fx_new_account(real_url, email, "buyer", 0);
}

static int setup_all(void **state)
{
	char *cause = NULL;
	char db1[512], db2[512];
	char *rx[] = { (char *)"--quiet", (char *)"--opens-at", (char *)"2027-09-01T08:00:00Z",
		       (char *)"--topup-text", (char *)"Bank transfer to IBAN PT50 0000 0000",
		       (char *)"--db", db1, NULL };
	char *dx[] = { (char *)"--demo", (char *)"--quiet", (char *)"--db", db2, NULL };

	(void)state;
	i18n_init(I18N_EN);
	if (catalog_load(NULL, &cat, &cause) != 0) {
		print_error("catalog_load: %s\n", cause != NULL ? cause : "?");
		return -1;
	}
	if (fx_mkdtemp("welcome") != 0)
		return -1;
	setenv("HOME", fx_tmpdir, 1);
	setenv("XDG_CONFIG_HOME", fx_tmpdir, 1);
	/* central European time: 08:00 UTC on 1 September 2027 is 10:00 */
	setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1);
	unsetenv("NO_COLOR");
	snprintf(db1, sizeof db1, "%s/real.db", fx_tmpdir);
	snprintf(db2, sizeof db2, "%s/demo.db", fx_tmpdir);
	real_pid = fx_start_server("gpuxd", "real", rx, real_url, sizeof real_url);
	demo_pid = fx_start_server("gpuxd", "demo", dx, demo_url, sizeof demo_url);
	if (real_pid < 0 || demo_pid < 0)
		return -1;
	if (api_curl_ready(NULL) != 0)
		return -1;
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	fx_stop_server(&real_pid);
	fx_stop_server(&demo_pid);
	fx_rmtemp();
	catalog_free(&cat);
	return 0;
}

/* ---- sessions --------------------------------------------------------------------------------- */

static char conf[600];

/* A session without a key, its settings and key going to a fresh config file. */
static struct tui_harness *open_nokey(const char *url, enum i18n_lang lang, const char *name)
{
	static struct api_config cfg;
	struct tui_options o = { .catalog = cat, .lang = lang };
	struct tui_harness *h;

	snprintf(conf, sizeof conf, "%s/%s.conf", fx_tmpdir, name);
	unlink(conf);
	o.config_path = conf;
	memset(&cfg, 0, sizeof cfg);
	cfg.url = url;
	cfg.max_attempts = 1;
	o.api = &cfg;
	i18n_init(lang);
	h = tui_harness_new(&o, 30, 110);
	assert_non_null(h);
	return h;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	struct buf b = {0};
	char chunk[512];
	size_t n;

	if (f == NULL)
		return xstrdup("");
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_append(&b, chunk, n);
	fclose(f);
	return b.data != NULL ? buf_take(&b) : xstrdup("");
}

static void backspaces(struct tui_harness *h, int n)
{
	for (int i = 0; i < n; i++)
		tui_harness_key(h, WKEY_BACKSPACE);
}

static struct tui_harness *open_key(const char *url, const char *key);

/* ---- tests ------------------------------------------------------------------------------------- */

/* English: c, every field checked as typed, Enter on the last creates the
 * account; the key is in the config file (0600), never on the screen; the
 * opening day is said. */
static void test_welcome_creates_account(void **state)
{
	struct tui_harness *h = open_nokey(real_url, I18N_EN, "create");
	struct stat st;
	char *text, *s;

	(void)state;
	fx_expect_on_screen(h, "Welcome to gpux");
	assert_string_equal(tui_harness_top(h), "welcome");
	fx_expect_on_screen(h, "No API key is configured for");
	fx_expect_not_on_screen(h, "did not accept");
	tui_harness_key(h, 'c');
	fx_expect_on_screen(h, "E-mail address:");
	tui_harness_type(h, "ana");
	fx_expect_on_screen(h, "\"ana\" is not an e-mail address");
	tui_harness_type(h, "@example.pt");
	fx_expect_not_on_screen(h, "is not an e-mail address");
	tui_harness_key(h, WKEY_TAB);
	tui_harness_type(h, "xx");
	fx_expect_on_screen(h, "\"xx\" is not a country of this exchange's VAT table");
	backspaces(h, 2);
	tui_harness_type(h, "pt");
	fx_expect_on_screen(h, "VAT of 23% is added to what you buy");
	fx_expect_on_screen(h, "Currency: EUR");
	fx_expect_on_screen(h, "Trading opens on 1 September 2027 at 10:00");
	tui_harness_key(h, WKEY_TAB);
	tui_harness_key(h, WKEY_TAB);
	backspaces(h, 5);
	tui_harness_type(h, "boss");
	fx_expect_on_screen(h, "\"boss\" is not a role");
	backspaces(h, 4);
	tui_harness_type(h, "both");
	fx_expect_on_screen(h, "buyer and seller");
	tui_harness_key(h, WKEY_ENTER);
	fx_expect_on_screen(h, "Your account is ready");
	fx_expect_on_screen(h, "created for ana@example.pt");
	fx_expect_on_screen(h, "readable only by you");
	text = slurp(conf);
	s = strstr(text, "key = ");
	assert_non_null(s);
	assert_int_equal(stat(conf, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	{
		char key[128];
		size_t n = strcspn(s + 6, "\n");
		snprintf(key, sizeof key, "%.*s", (int)n, s + 6);
		fx_expect_not_on_screen(h, key);
	}
	assert_non_null(strstr(text, real_url));
	free(text);
	/* the same e-mail again: the exchange's words, nothing saved over it */
	tui_harness_key(h, WKEY_ENTER);
	assert_string_equal(tui_harness_top(h), "browse");
	assert_true(api_client_has_key(tui_harness_tui(h)->api));
	tui_harness_free(&h);
}

/* European Portuguese: a wrong key is refused in words and not saved; the
 * right one (masked while typed) is saved; Esc leaves for the tables. */
static void test_welcome_enters_key_pt(void **state)
{
	char *key = new_buyer("chave@example.pt");
	struct tui_harness *h;
	char *text;

	(void)state;
	assert_non_null(key);
	h = open_nokey(real_url, I18N_PT_PT, "key");
	fx_expect_on_screen(h, "Bem-vindo ao gpux");
	tui_harness_key(h, 'k');
	tui_harness_type(h, "gpx_not_a_key_at_all_0000");
	fx_expect_not_on_screen(h, "not_a_key");
	tui_harness_key(h, WKEY_ENTER);
	fx_expect_on_screen(h, "A bolsa não aceitou esta chave");
	text = slurp(conf);
	assert_null(strstr(text, "key ="));
	free(text);
	for (int i = 0; i < 40; i++)
		tui_harness_key(h, WKEY_BACKSPACE);
	tui_harness_type(h, key);
	fx_expect_not_on_screen(h, key);
	tui_harness_key(h, WKEY_ENTER);
	fx_expect_on_screen(h, "chave@example.pt");
	text = slurp(conf);
	assert_non_null(strstr(text, key));
	free(text);
	tui_harness_key(h, WKEY_ESC);
	assert_string_equal(tui_harness_top(h), "browse");
	tui_harness_free(&h);
	free(key);
	i18n_init(I18N_EN);
}

/* Esc on the welcome: the tables, prices browsable, no account needed. */
static void test_welcome_esc_browses(void **state)
{
	struct tui_harness *h = open_nokey(real_url, I18N_EN, "esc");

	(void)state;
	fx_expect_on_screen(h, "Welcome to gpux");
	tui_harness_key(h, WKEY_ESC);
	assert_string_equal(tui_harness_top(h), "browse");
	fx_expect_not_on_screen(h, "Welcome to gpux");
	/* the status bar: when trading opens, in the user's time zone */
	fx_expect_on_screen(h, "pre-open: trading opens on 1 September 2027 at 10:00");
	tui_harness_free(&h);
}

/* Pre-open, a key given: the order form says when trading opens, never
 * that no opening time was announced. */
static void test_order_form_says_opening(void **state)
{
	char *key = new_buyer("form@example.pt");
	struct tui_harness *h;

	(void)state;
	assert_non_null(key);
	h = open_key(real_url, key);
	fx_expect_on_screen(h, "pre-open: trading opens on 1 September 2027 at 10:00");
	tui_harness_key(h, 'b');
	fx_expect_on_screen(h, "1 September 2027 at 10:00");
	fx_settle(h); /* the form's requests answered */
	fx_expect_not_on_screen(h, "no opening time");
	tui_harness_free(&h);
	free(key);
}

/* A demo exchange: no welcome, the tables at once. */
static void test_no_welcome_on_demo(void **state)
{
	struct tui_harness *h = open_nokey(demo_url, I18N_EN, "demo");

	(void)state;
	fx_expect_on_screen(h, "prices updated");
	fx_settle(h); /* the exchange said what it is (the welcome waits for that) */
	assert_string_equal(tui_harness_top(h), "browse");
	fx_expect_not_on_screen(h, "Welcome to gpux");
	tui_harness_free(&h);
}

/* A session with a key (the harness's config file: none). */
static struct tui_harness *open_key(const char *url, const char *key)
{
	static struct api_config cfg;
	struct tui_options o = { .catalog = cat, .lang = I18N_EN, .config_path = "" };
	struct tui_harness *h;

	memset(&cfg, 0, sizeof cfg);
	cfg.url = url;
	cfg.key = key;
	cfg.max_attempts = 1;
	o.api = &cfg;
	i18n_init(I18N_EN);
	h = tui_harness_new(&o, 40, 120);
	assert_non_null(h);
	return h;
}

/* Without a key the account page says so: no "did not accept", no "no
 * ledger entries"; w opens the welcome. */
static void test_account_without_key(void **state)
{
	struct tui_harness *h = open_nokey(real_url, I18N_EN, "nokey");

	(void)state;
	fx_expect_on_screen(h, "Welcome to gpux");
	tui_harness_key(h, WKEY_ESC);
	tui_harness_key(h, 'a');
	fx_expect_on_screen(h, "No API key is configured for this exchange");
	fx_expect_on_screen(h, "No ledger without an account.");
	fx_settle(h);
	fx_expect_not_on_screen(h, "did not accept");
	fx_expect_not_on_screen(h, "No ledger entries yet");
	fx_expect_not_on_screen(h, "Deposit");
	tui_harness_key(h, 'w');
	fx_expect_on_screen(h, "Welcome to gpux");
	assert_string_equal(tui_harness_top(h), "welcome");
	tui_harness_free(&h);
}

/* The account page on an exchange that takes real payments: the operator's
 * top-up words, no Deposit; the keys listed, a read-only key made (shown
 * once), the last trade key refused in the exchange's words, the read-only
 * key revoked after a confirmation. */
static void test_account_keys(void **state)
{
	char *key = new_buyer("keys@example.pt");
	struct tui_harness *h;

	(void)state;
	assert_non_null(key);
	h = open_key(real_url, key);
	tui_harness_key(h, 'a');
	fx_expect_on_screen(h, "API keys (1 of at most");
	fx_expect_on_screen(h, "Top up: Bank transfer to IBAN PT50 0000 0000");
	fx_expect_on_screen(h, "(this session's key)");
	fx_expect_on_screen(h, "No ledger entries yet");
	fx_expect_not_on_screen(h, "Deposit");
	tui_harness_key(h, 'd');
	fx_expect_on_screen(h, "Top up: Bank transfer");
	fx_expect_not_on_screen(h, "Deposit (");
	tui_harness_key(h, 'n');
	tui_harness_type(h, "ci");
	tui_harness_key(h, WKEY_ENTER);
	fx_expect_on_screen(h, "New read-only key");
	fx_expect_on_screen(h, "(y copies it;"); /* the key is shown once, y copies it */
	fx_expect_on_screen(h, "API keys (2 of at most");
	fx_expect_on_screen(h, "ci  read-only");
	/* the session's trade key is the last one: the exchange refuses */
	tui_harness_key(h, 'x');
	tui_harness_type(h, "999");
	tui_harness_key(h, WKEY_ENTER);
	fx_expect_on_screen(h, "not the number of one of your keys");
	for (int i = 0; i < 3; i++)
		tui_harness_key(h, WKEY_BACKSPACE);
	{
		int y = tui_harness_find(h, "(this session's key)");
		char *r = tui_harness_row(h, y);
		char id[16];
		snprintf(id, sizeof id, "%d", atoi(r));
		free(r);
		tui_harness_type(h, id);
	}
	tui_harness_key(h, WKEY_ENTER);
	fx_expect_on_screen(h, "It is the key of this session.");
	tui_harness_key(h, 'y');
	fx_expect_on_screen(h, "last trade key");
	fx_expect_on_screen(h, "The key was not revoked");
	{
		int y = tui_harness_find(h, "ci  read-only");
		char *r = tui_harness_row(h, y);
		char id[16];
		snprintf(id, sizeof id, "%d", atoi(r));
		free(r);
		tui_harness_key(h, 'x');
		tui_harness_type(h, id);
	}
	tui_harness_key(h, WKEY_ENTER);
	fx_expect_on_screen(h, "Revoke API key");
	tui_harness_key(h, 'y');
	fx_expect_on_screen(h, "is revoked");
	fx_expect_on_screen(h, "API keys (1 of at most");
	tui_harness_free(&h);
	free(key);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_welcome_creates_account),
		cmocka_unit_test(test_welcome_enters_key_pt),
		cmocka_unit_test(test_welcome_esc_browses),
		cmocka_unit_test(test_no_welcome_on_demo),
		cmocka_unit_test(test_account_without_key),
		cmocka_unit_test(test_account_keys),
		cmocka_unit_test(test_order_form_says_opening),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
