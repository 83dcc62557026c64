/*
 * Defects a demanding user hit, each held by a screen built through the
 * harness (tui/frame/harness.h) against a real gpuxd --demo on loopback: a text
 * field that shows its whole text again once it is short enough, the
 * "too small" notice whole at the smallest sizes, a fit field's error
 * whole at 80 columns, and an order the exchange could not take said in
 * the user's language. A server that cannot be started fails the tests.
 */
#include "tests/unit/screen_fixture.h"

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "tui/frame/harness.h"
#include "util/util.h"
#include "view/view.h"

static struct catalog *cat;
static pid_t gpuxd_pid = -1;
static char gpuxd_url[64];
static char *buyer_key;

static int setup_all(void **state)
{
	(void)state;
	if (fx_demo_start("sweep", &cat, &gpuxd_pid, gpuxd_url, sizeof gpuxd_url) != 0)
		return -1;
	setenv("NO_COLOR", "1", 1);
	buyer_key = fx_first_account(gpuxd_url, "sweep@example.pt", "buyer", 500000);
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

static struct tui_harness *open_at(const char *url, enum i18n_lang lang, int lines, int cols)
{
	return fx_session(cat, url, buyer_key, lang, false, lines, cols);
}

/* The row that shows text (the test fails when none does), malloc'ed. */
static char *row_with(struct tui_harness *h, const char *text)
{
	int y;

	fx_expect_on_screen(h, text);
	y = tui_harness_find(h, text);
	assert_true(y >= 0);
	return tui_harness_row(h, y);
}

/* A field scrolled sideways by a long text shows the whole text again once
 * it is short enough: the GPU count field, 20 digits typed and 12 taken
 * back, shows all of "99999999" + "8", not a lone "8" beside "1 to 512". */
static void test_field_shows_its_text_after_backspace(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, I18N_EN, 24, 80);
	char *r;

	(void)state;
	fx_expect_on_screen(h, "prices updated");
	tui_harness_key(h, 'b');
	fx_expect_on_screen(h, "How many GPUs");
	tui_harness_key(h, 'U' - '@');
	tui_harness_type(h, "99999999999999999999");
	for (int i = 0; i < 12; i++)
		tui_harness_key(h, 127);
	tui_harness_type(h, "8");
	r = row_with(h, "1 to 512");
	assert_non_null(strstr(r, "999999998"));
	free(r);
	tui_harness_free(&h);
}

/* An order the exchange could not take because nothing answered: said once,
 * in the user's language, with the cause in words (pt-PT "ligação
 * recusada"), never the client library's English nor "cannot reach the
 * exchange" twice. */
static void test_unreachable_said_in_words(void **state)
{
	struct api_error e = { .kind = API_ERR_NETWORK, .net = API_NET_REFUSED,
			       .required_minor = -1, .available_minor = -1, .opens_at = -1,
			       .message = (char *)"cannot reach the exchange at 127.0.0.1:9: Failed to "
						  "connect to 127.0.0.1 port 9 after 0 ms: Couldn't "
						  "connect to server" };
	char *s;

	(void)state;
	s = view_api_error_words(I18N_PT_PT, &e, NULL);
	assert_non_null(strstr(s, "ligação recusada"));
	assert_null(strstr(s, "Failed"));
	assert_null(strstr(s, "contactar a bolsa em"));
	free(s);
	s = view_api_error_words(I18N_EN, &e, NULL);
	assert_string_equal(s, "Cannot reach the exchange (connection refused). Check the "
			       "connection or the exchange's address, and try again.");
	free(s);
}

/* Below the minimum size the notice says how to quit even when its whole
 * sentence takes more rows than the terminal has (German at 20×5 lost
 * "drücken", pt-PT "q para sair"). */
static void test_too_small_says_q(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, I18N_DE, 24, 80);
	char *s;

	(void)state;
	fx_expect_on_screen(h, "Preisstand");
	tui_harness_resize(h, 5, 20);
	s = tui_harness_screen(h);
	assert_non_null(strstr(s, "Zu klein"));
	assert_non_null(strstr(s, "q: Beenden"));
	free(s);
	tui_harness_resize(h, 3, 12);
	s = tui_harness_screen(h);
	assert_non_null(strstr(s, "Zu klein"));
	free(s);
	tui_harness_resize(h, 24, 80);
	fx_expect_on_screen(h, "Preisstand");
	tui_harness_free(&h);
	i18n_init(I18N_EN);
}

/* A fit field's error is read whole at 80 columns, on a second line when
 * it needs one: German "… 1000 oder 1,5 eingeben" was cut to "1,5…",
 * which reads as a cut number. */
static void test_fit_error_whole_at_80(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, I18N_DE, 24, 80);
	char *r;
	int y;

	(void)state;
	fx_expect_on_screen(h, "Preisstand");
	tui_harness_key(h, 'f');
	tui_harness_type(h, "1.000");
	fx_expect_on_screen(h, "1000 oder 1,5");
	fx_expect_not_on_screen(h, "1,5\u2026");
	y = tui_harness_find(h, "1000 oder 1,5");
	r = tui_harness_row(h, y + 1);
	assert_string_equal(r, "   eingeben");
	free(r);
	tui_harness_free(&h);
	i18n_init(I18N_EN);
}

/* The rentals page's summary at 80 columns in pt-PT: a segment that does
 * not fit is left out whole ("cobrado até ago…" hid the money); at 130
 * columns it is there. */
static void test_rentals_summary_never_cut(void **state)
{
	char *r = fx_post(gpuxd_url, "/v1/orders", buyer_key,
			  "{\"client_order_id\":\"sweep-r1\",\"gpu\":\"h200\",\"side\":\"buy\","
			  "\"type\":\"market\",\"gpus\":1,\"hours\":2,\"max_price_cents\":900,"
			  "\"time_in_force\":\"ioc\"}");
	struct tui_harness *h;

	(void)state;
	assert_true(fx_json_int(r, "fill_gpus") == 1 || strstr(r, "\"filled\"") != NULL);
	free(r);
	h = open_at(gpuxd_url, I18N_PT_PT, 24, 80);
	fx_expect_on_screen(h, "preços de há");
	tui_harness_key(h, 'R');
	fx_expect_on_screen(h, "aluguer ativo");
	r = tui_harness_row(h, 1);
	assert_null(strstr(r, "\u2026"));
	free(r);
	tui_harness_resize(h, 24, 130);
	fx_expect_on_screen(h, "cobrado até agora");
	tui_harness_free(&h);
	i18n_init(I18N_EN);
}

/* The account page's API keys at 80 columns in pt-PT: the line of a key
 * leaves out what does not fit whole ("último uso 01/12/2026…" cut a
 * date), and the hint of n/N/x goes (the key bar has them); at 200
 * columns both are there. */
static void test_account_keys_never_cut(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, I18N_PT_PT, 24, 80);
	char *r;

	(void)state;
	fx_expect_on_screen(h, "preços de há");
	tui_harness_key(h, 'a');
	fx_expect_on_screen(h, "Chaves de API");
	fx_expect_on_screen(h, "criada");
	r = tui_harness_row(h, tui_harness_find(h, "criada"));
	assert_null(strstr(r, "\u2026"));
	free(r);
	r = tui_harness_row(h, tui_harness_find(h, "Chaves de API"));
	assert_null(strstr(r, "\u2026"));
	free(r);
	tui_harness_resize(h, 50, 200);
	fx_expect_on_screen(h, "último uso");
	fx_expect_on_screen(h, "N: nova chave de negociação");
	tui_harness_free(&h);
	i18n_init(I18N_EN);
}

/* The detail screen's first row in pt-PT: at 80 columns the last price is
 * whole (it read "último US$ 9,0…", the maker's name taking the room); at
 * 50 a part that does not fit goes whole. */
static void test_detail_head_never_cuts_a_price(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, I18N_PT_PT, 24, 80);
	char *r;

	(void)state;
	fx_expect_on_screen(h, "preços de há");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Livro");
	fx_expect_on_screen(h, "(24 h)");
	r = tui_harness_row(h, 0);
	assert_non_null(strstr(r, "último US$ "));
	assert_null(strstr(r, "\u2026"));
	free(r);
	tui_harness_resize(h, 20, 50);
	r = tui_harness_row(h, 0);
	assert_non_null(strstr(r, "compra US$ "));
	assert_null(strstr(r, "\u2026"));
	free(r);
	tui_harness_free(&h);
	i18n_init(I18N_EN);
}

/* The ladder's legend "* your resting order" shows only when a level shown
 * carries one of the user's orders, not for every user with an order list. */
static void test_detail_legend_only_with_own_level(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, I18N_EN, 24, 80);
	char *r;

	(void)state;
	fx_expect_on_screen(h, "prices updated");
	tui_harness_key(h, 'o');
	fx_expect_on_screen(h, "resting order");
	tui_harness_key(h, WKEY_ESC);
	tui_harness_key(h, WKEY_HOME);
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "spread");
	fx_settle(h); /* the account's orders came, had the detail asked for them */
	fx_expect_not_on_screen(h, "your resting order");
	tui_harness_free(&h);
	/* a bid just under the best ask: the top of the bids */
	r = fx_get(gpuxd_url, "/v1/quotes", buyer_key);
	assert_non_null(strstr(r, "b300"));
	free(r);
	r = fx_post(gpuxd_url, "/v1/orders", buyer_key,
		    "{\"client_order_id\":\"sweep-l1\",\"gpu\":\"b300\",\"side\":\"buy\","
		    "\"type\":\"limit\",\"gpus\":1,\"hours\":1,\"price_cents\":880,"
		    "\"time_in_force\":\"gtc\"}");
	assert_non_null(strstr(r, "\"remaining_gpus\":1"));
	free(r);
	h = open_at(gpuxd_url, I18N_EN, 24, 80);
	fx_expect_on_screen(h, "prices updated");
	tui_harness_key(h, 'o');
	fx_expect_on_screen(h, "1 resting order");
	tui_harness_key(h, WKEY_ESC);
	tui_harness_key(h, WKEY_HOME);
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "* your resting order");
	fx_expect_on_screen(h, " *      $8.80");
	tui_harness_free(&h);
}

/* The order form's book title at 80 columns in German: whole or shortened,
 * never cut ("Orderbuch B300, pro GPU-Stunde ohne Steue…"). */
static void test_order_book_title_never_cut(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, I18N_DE, 24, 80);
	char *r;

	(void)state;
	fx_expect_on_screen(h, "Preisstand");
	tui_harness_key(h, 'b');
	r = row_with(h, "Orderbuch B300");
	assert_null(strstr(r, "\u2026"));
	free(r);
	tui_harness_resize(h, 24, 120);
	fx_expect_on_screen(h, "Orderbuch B300, pro GPU-Stunde ohne Steuern");
	tui_harness_free(&h);
	i18n_init(I18N_EN);
}

/* pt-PT keeps "GPU" invariable, as the seed pages do ("8 GPU", "as GPU"):
 * the compare screen's title and the detail ladder's header. */
static void test_pt_pt_gpu_invariable(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, I18N_PT_PT, 24, 80);

	(void)state;
	fx_expect_on_screen(h, "preços de há");
	tui_harness_key(h, WKEY_HOME);
	tui_harness_key(h, ' ');
	tui_harness_key(h, ' ');
	tui_harness_key(h, '=');
	fx_expect_on_screen(h, "A comparar 2 GPU (Esc volta)");
	tui_harness_key(h, WKEY_ESC);
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "GPU acum.");
	fx_expect_not_on_screen(h, "GPUs");
	tui_harness_free(&h);
	i18n_init(I18N_EN);
}

/* The compare screen in pt-PT: the section title "O seu trabalho aqui" and
 * the note under it are whole at 80 columns (they were cut to the labels'
 * width and to the row); at 40 columns the cheapest mark "<" goes rather
 * than cutting the price ("US$ 7,75…"). */
static void test_compare_never_cuts(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, I18N_PT_PT, 24, 80);
	char *r;

	(void)state;
	fx_expect_on_screen(h, "preços de há");
	tui_harness_key(h, WKEY_HOME);
	tui_harness_key(h, ' ');
	tui_harness_key(h, ' ');
	tui_harness_key(h, '=');
	fx_expect_on_screen(h, " O seu trabalho aqui");
	fx_expect_on_screen(h, "precisa em cada GPU.");
	fx_expect_not_on_screen(h, "\u2026");
	tui_harness_resize(h, 20, 40);
	r = row_with(h, " Preço/h ");
	assert_null(strstr(r, "\u2026"));
	free(r);
	tui_harness_free(&h);
	i18n_init(I18N_EN);
}

/* The order form's price in pt-PT: "1.000" is a thousand to its reader,
 * so it is refused as a thousands separator, not as "at most 2 decimal
 * places"; "9,5" and "9.5" are prices. */
static void test_price_dot_thousands_pt_pt(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, I18N_PT_PT, 24, 80);

	(void)state;
	fx_expect_on_screen(h, "preços de há");
	tui_harness_key(h, 'b');
	fx_expect_on_screen(h, "Quantas GPU");
	tui_harness_key(h, '\t');
	tui_harness_key(h, '\t');
	tui_harness_key(h, 'U' - '@');
	tui_harness_type(h, "1.000");
	fx_expect_on_screen(h, "um ponto antes de três");
	fx_expect_not_on_screen(h, "casas decimais");
	tui_harness_key(h, 'U' - '@');
	tui_harness_type(h, "9,5");
	fx_settle(h);
	fx_expect_not_on_screen(h, "um ponto antes de três");
	fx_expect_not_on_screen(h, "inválido");
	tui_harness_free(&h);
	i18n_init(I18N_EN);
}

/* A dying exchange in pt-PT at 80 columns: "DESATUALIZADO", its reason
 * whole ("bolsa inacessível (ligação recusada)") and the prices' age with
 * two digits, all on the status bar, nothing cut ("ligação recusad…"). */
static void test_stale_whole_pt_pt(void **state)
{
	char db[512], url[64];
	char *gx[] = { (char *)"--demo", (char *)"--quiet", (char *)"--db", db, NULL };
	pid_t pid;
	struct tui_harness *h;
	char *r;

	(void)state;
	snprintf(db, sizeof db, "%s/dying.db", fx_tmpdir);
	pid = fx_start_server("gpuxd", "dying", gx, url, sizeof url);
	assert_true(pid > 0);
	h = open_at(url, I18N_PT_PT, 24, 80);
	fx_expect_on_screen(h, "preços de há");
	fx_stop_server(&pid);
	fx_expect_on_screen(h, "DESATUALIZADO: bolsa inacessível (ligação recusada)");
	/* until the age has two digits */
	for (int i = 0; i < 80 && (tui_harness_find(h, "preços de há 1") < 0 ||
				   tui_harness_find(h, "preços de há 1 s") >= 0); i++)
		tui_harness_pump(h, 250);
	r = tui_harness_row(h, 22);
	assert_non_null(strstr(r, "DESATUALIZADO: bolsa inacessível (ligação recusada)"));
	assert_non_null(strstr(r, "preços de há 1"));
	assert_null(strstr(r, "preços de há 1 s"));
	assert_null(strstr(r, "\u2026"));
	free(r);
	tui_harness_free(&h);
	i18n_init(I18N_EN);
}

/* What stopping a rental did, in pt-PT at 80 columns: the note over the
 * table takes a second line rather than cutting the refund ("US$ 72,24
 * reemb…"). */
static void test_rental_stopped_note_whole(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, I18N_PT_PT, 24, 80);

	(void)state;
	fx_expect_on_screen(h, "preços de há");
	tui_harness_key(h, 'R');
	fx_expect_on_screen(h, "aluguer ativo");
	tui_harness_key(h, 'x');
	fx_expect_on_screen(h, "agora?");
	tui_harness_key(h, 'y');
	fx_expect_on_screen(h, "interrompido:");
	fx_expect_on_screen(h, "reembolsad");
	for (int y = 1; y <= 3; y++) {
		char *r = tui_harness_row(h, y);
		assert_null(strstr(r, "\u2026"));
		free(r);
	}
	tui_harness_free(&h);
	i18n_init(I18N_EN);
}

/* The fit panel's hint under the bottom panel at 80 columns: a field's
 * default is never the part cut ("… (prompt and output) · def…"). */
static void test_fit_hint_keeps_the_default(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, I18N_EN, 24, 80);

	(void)state;
	fx_expect_on_screen(h, "prices updated");
	tui_harness_key(h, 'f');
	tui_harness_type(h, "70");
	tui_harness_key(h, '\t');
	tui_harness_key(h, '\t');
	fx_expect_on_screen(h, "Tokens per sequence");
	fx_expect_on_screen(h, "default 2048");
	tui_harness_free(&h);
}

/* The ladder on a narrow detail screen: columns that do not fit go whole,
 * never a figure cut ("$…", "6…"); under 40 columns the ladder takes the
 * whole width; at the minimum size it stays above the key bar. */
static void test_detail_ladder_narrow(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, I18N_EN, 24, 80);
	static const int sizes[][2] = { { 8, 20 }, { 10, 30 }, { 6, 20 } };
	char *r;

	(void)state;
	fx_expect_on_screen(h, "prices updated");
	tui_harness_key(h, WKEY_HOME);
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "spread");
	tui_harness_resize(h, 12, 40);
	r = row_with(h, "Price/h");
	assert_non_null(strstr(r, "Price/h   GPUs"));
	assert_null(strstr(r, "GPU\u2026"));
	free(r);
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		tui_harness_resize(h, sizes[i][0], sizes[i][1]);
		assert_string_equal(tui_harness_top(h), "detail");
		for (int y = 1; y < sizes[i][0] - 2; y++) {
			r = tui_harness_row(h, y);
			if (strstr(r, "\u2026") != NULL)
				print_error("%dx%d row %d: [%s]\n", sizes[i][1], sizes[i][0], y, r);
			assert_null(strstr(r, "\u2026"));
			free(r);
		}
		r = tui_harness_row(h, sizes[i][0] - 1);
		assert_non_null(strstr(r, "F1Help"));
		free(r);
	}
	tui_harness_free(&h);
}

/* The help at 40×10 in pt-PT: its footer, cut in the bottom border, stops
 * short of the "more below" arrow instead of running under it ("qualqu↓…"). */
static void test_help_footer_clear_of_the_arrow(void **state)
{
	struct tui_harness *h = open_at(gpuxd_url, I18N_PT_PT, 10, 40);
	char *r;

	(void)state;
	fx_expect_on_screen(h, "preços");
	tui_harness_key(h, '?');
	r = row_with(h, "deslocam");
	assert_non_null(strstr(r, "\u2026\u2193\u2500\u2518"));
	free(r);
	tui_harness_free(&h);
	i18n_init(I18N_EN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_shows_its_text_after_backspace),
		cmocka_unit_test(test_unreachable_said_in_words),
		cmocka_unit_test(test_too_small_says_q),
		cmocka_unit_test(test_fit_error_whole_at_80),
		cmocka_unit_test(test_fit_hint_keeps_the_default),
		cmocka_unit_test(test_help_footer_clear_of_the_arrow),
		cmocka_unit_test(test_rentals_summary_never_cut),
		cmocka_unit_test(test_rental_stopped_note_whole),
		cmocka_unit_test(test_account_keys_never_cut),
		cmocka_unit_test(test_detail_head_never_cuts_a_price),
		cmocka_unit_test(test_detail_ladder_narrow),
		cmocka_unit_test(test_order_book_title_never_cut),
		cmocka_unit_test(test_pt_pt_gpu_invariable),
		cmocka_unit_test(test_compare_never_cuts),
		cmocka_unit_test(test_price_dot_thousands_pt_pt),
		cmocka_unit_test(test_stale_whole_pt_pt),
		cmocka_unit_test(test_detail_legend_only_with_own_level),
	};
	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
