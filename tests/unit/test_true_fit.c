/*
 * The fit panel shows only what is true, built from C (tui/frame/harness.h)
 * against a real gpuxd --demo, at 80×24 and 120×35, in English, pt-PT and
 * German:
 *
 *   - typing "f" (FLUX and Falcon match) never switches the method: after
 *     "f", nothing and "70" it is still Full training and the answer a
 *     training one; Enter on an image model does switch it, and says so;
 *   - a preset's whole name shows in the model field once the keyboard
 *     left it ("Llama 3.1 405B", not "lama 3.1 405B");
 *   - a job that does not fit on the GPUs asked but runs on more reads
 *     "✗ on 1 GPU; ✓ on 32: …", never "needs …, has 288 GB ✗", and the
 *     table's Fits column says its count ("Fits on 1");
 *   - a refusal writes its bounds as the language writes numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "data/catalog.h"
#include "fit/fit.h"
#include "i18n/i18n.h"
#include "tests/unit/screen_fixture.h"
#include "tui/frame/harness.h"
#include "tui/tui_int.h"
#include "util/util.h"

static struct catalog *cat;
static pid_t gpuxd_pid = -1;
static char gpuxd_url[64];

static const enum i18n_lang langs[] = { I18N_EN, I18N_PT_PT, I18N_DE };
static const int sizes[][2] = { { 24, 80 }, { 35, 120 } };

static int setup_all(void **state)
{
	(void)state;
	if (fx_demo_start("truefit", &cat, &gpuxd_pid, gpuxd_url, sizeof gpuxd_url) != 0)
		return -1;
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	fx_demo_stop(&cat, &gpuxd_pid);
	return 0;
}

static size_t prefix(const char *s, size_t n);

static struct tui_harness *open_panel(enum i18n_lang lang, int lines, int cols)
{
	struct tui_harness *h = fx_session(cat, gpuxd_url, NULL, lang, false, lines, cols);

	fx_expect_on_screen(h, "H200");
	tui_harness_key(h, WKEY_F4);
	assert_string_equal(tui_harness_top(h), "fit");
	return h;
}

/* The method field shows m ("‹ Full training ›"), and the job, if any, is m's. */
static void expect_method(struct tui_harness *h, enum fit_method m)
{
	struct tui *t = tui_harness_tui(h);
	char *shown = xasprintf("\u2039 %s", _(fit_method_label(m)));

	shown[prefix(shown, 12)] = '\0'; /* the field may cut the name */
	fx_expect_on_screen(h, shown);
	free(shown);
	if (t->job.have)
		assert_int_equal(t->job.job.method, m);
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

static void test_a_search_never_switches_the_method(void **state)
{
	(void)state;
	for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++) {
		for (size_t z = 0; z < 2; z++) {
			struct tui_harness *h = open_panel(langs[l], sizes[z][0], sizes[z][1]);
			struct tui *t = tui_harness_tui(h);

			tui_harness_type(h, "f");
			expect_method(h, FIT_FULL);
			tui_harness_key(h, WKEY_BACKSPACE);
			tui_harness_type(h, "70");
			expect_method(h, FIT_FULL);
			assert_true(t->job.have);
			assert_int_equal(t->job.job.method, FIT_FULL);
			assert_false(t->job.job.model.diffusion);
			fx_expect_not_on_screen(h, _(fit_method_label(FIT_DIFFUSION)));
			/* only image models match: none is live, the note says what Enter does */
			tui_harness_key(h, 'U' - '@');
			tui_harness_type(h, "flux");
			char *note = xasprintf(_("%s is an image model: Enter takes it, and the method "
						 "becomes Diffusion"), "FLUX.1 [dev]");
			note[prefix(note, 26)] = '\0'; /* the note may wrap after it */
			fx_expect_on_screen(h, note);
			free(note);
			expect_method(h, FIT_FULL);
			/* Enter takes it: Diffusion, said under the field */
			tui_harness_key(h, WKEY_RETURN);
			char *said = xasprintf(_("Method: %s, for %s (it was %s)"),
					       _(fit_method_label(FIT_DIFFUSION)), "FLUX.1 [dev]",
					       _(fit_method_label(FIT_FULL)));
			said[prefix(said, 20)] = '\0';
			fx_expect_on_screen(h, said);
			free(said);
			assert_int_equal(t->job.job.method, FIT_DIFFUSION);
			tui_harness_free(&h);
		}
	}
	i18n_init(I18N_EN);
}

/* A preset's whole name in the model field once the keyboard left it. */
static void test_model_field_shows_the_name_whole(void **state)
{
	(void)state;
	for (size_t z = 0; z < 2; z++) {
		struct tui_harness *h = open_panel(I18N_EN, sizes[z][0], sizes[z][1]);

		tui_harness_type(h, "llama 3.1 405");
		tui_harness_key(h, WKEY_RETURN); /* takes it, and goes to the next field */
		fx_expect_on_screen(h, "Llama 3.1 405B");
		char *row = xstrdup("");
		for (int y = 0; y < sizes[z][0]; y++) {
			free(row);
			row = tui_harness_row(h, y);
			if (strstr(row, "Model") != NULL)
				break;
		}
		if (strstr(row, " Llama 3.1 405B") == NULL)
			print_error("the model field: [%s]\n", row);
		assert_non_null(strstr(row, " Llama 3.1 405B"));
		free(row);
		tui_harness_free(&h);
	}
}

/* fmt up to its first %s, its %d written as n (malloc'ed). */
static char *with_count(const char *fmt, int n)
{
	char *head = xstrndup(fmt, (size_t)(strstr(fmt, "%s") - fmt)), *d = strstr(head, "%d");
	char *out;

	assert_non_null(d);
	*d = '\0';
	out = xasprintf("%s%d%s", head, n, d + 2);
	free(head);
	return out;
}

/* 405B, full training, 1 GPU: on no GPU alone, on 32 B300s. The panel
 * says both, each with its mark; the table's Fits column names the count. */
static void test_fits_says_its_count(void **state)
{
	(void)state;
	for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++) {
		for (size_t z = 0; z < 2; z++) {
			struct tui_harness *h = open_panel(langs[l], sizes[z][0], sizes[z][1]);
			char *on1, *header;

			tui_harness_type(h, "405");
			fx_expect_on_screen(h, "B300");
			/* "B300: ✗ on 1 GPU; ✓ on 32: 276 GB of 288 GB each" (the ✓ part
			 * on a line of its own where both do not fit one) */
			on1 = xasprintf(i18n_dngettext(langs[l], NULL, " on %d GPU; ", " on %d GPUs; ", 1), 1);
			on1[strlen(on1) - 1] = '\0'; /* the blank a line may end with */
			char *want = xasprintf("B300: \u2717%s", on1), *on32 = with_count(
				i18n_dgettext(langs[l], NULL, " on %d: %s of %s each"), 32);
			char *check = xasprintf("\u2713%s", on32);
			fx_expect_on_screen(h, want);
			fx_expect_on_screen(h, check);
			free(check);
			free(on32);
			fx_expect_not_on_screen(h, "288 GB \u2717");
			header = xasprintf(i18n_dngettext(langs[l], NULL, "Fits on %d", "Fits on %d", 1), 1);
			/* (scrolled into view where the panel beside the table leaves it no room) */
			tui_harness_key(h, WKEY_ESC);
			for (int i = 0; i < 4 && tui_harness_find(h, header) < 0; i++)
				tui_harness_key(h, WKEY_RIGHT);
			fx_expect_on_screen(h, header);
			free(header);
			free(want);
			free(on1);
			tui_harness_free(&h);
		}
	}
	i18n_init(I18N_EN);
}

/* A sequence length of 0: the bound written as the language writes numbers. */
static void test_bounds_as_the_language_writes_them(void **state)
{
	(void)state;
	for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++) {
		struct tui_harness *h = open_panel(langs[l], 35, 120);
		char *max = i18n_fmt_number(langs[l], 16777216, 0);

		tui_harness_type(h, "7");
		tui_harness_key(h, WKEY_TAB);
		tui_harness_key(h, WKEY_TAB); /* Method, then the sequence length */
		tui_harness_key(h, 'U' - '@');
		tui_harness_type(h, "0");
		fx_expect_on_screen(h, max);
		fx_expect_not_on_screen(h, "16777216");
		free(max);
		tui_harness_free(&h);
	}
	i18n_init(I18N_EN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_search_never_switches_the_method),
		cmocka_unit_test(test_model_field_shows_the_name_whole),
		cmocka_unit_test(test_fits_says_its_count),
		cmocka_unit_test(test_bounds_as_the_language_writes_them),
	};
	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
