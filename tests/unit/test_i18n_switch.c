/*
 * tests/unit/test_i18n_switch.c — what a language switch inside the TUI does
 * to text that was typed or made in the old language (issue 8), without a
 * terminal:
 *
 * 1. The fit form (tui_ff_set_lang): "7,5" typed in pt-PT becomes "7.5" in
 *    English (where "7,5" is refused), and back to "7,5"; the job is the
 *    same 7.5 B model before and after; a preset's name ("Llama 3.1 70B",
 *    "Qwen2.5 7B") and a resolution ("1024×1024") are never touched; a
 *    field's error is made again in the new language.
 * 2. The catalogue follows i18n_init: the same msgid in the six languages,
 *    and every language's own name (the menu's entries) is itself in every
 *    language (never translated).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "data/catalog.h"
#include "tests/unit/catalog_fixture.h"
#include "fit/fit.h"
#include "i18n/i18n.h"
#include "tui/fitpanel/fitform.h"
#include "util/util.h"

static struct catalog *cat;

static int setup(void **state)
{
	(void)state;
	if (fx_catalog_load(&cat) != 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	catalog_free(&cat);
	i18n_init(I18N_EN);
	return 0;
}

/* ---- 1. the fit form ---------------------------------------------------------- */

static void test_fit_numbers_follow(void **state)
{
	struct tui_ff ff;
	unsigned gen;

	(void)state;
	i18n_init(I18N_PT_PT);
	tui_ff_init(&ff, cat, I18N_PT_PT, false);
	tui_ff_set_text(&ff, FF_MODEL, "7,5");
	tui_ff_set_text(&ff, FF_MFU, "12,5");
	assert_true(ff.valid);
	assert_true(fabs(ff.job.model.params_b - 7.5) < 1e-12);
	gen = ff.gen;

	i18n_init(I18N_EN);
	tui_ff_set_lang(&ff, I18N_EN);
	assert_int_equal(ff.lang, I18N_EN);
	assert_string_equal(ff.f[FF_MODEL].text, "7.5");
	assert_true(ff.f[FF_MODEL].text_changed);   /* the panel copies it into the editor */
	assert_string_equal(ff.f[FF_MFU].text, "12.5");
	assert_true(ff.valid);
	assert_null(ff.f[FF_MODEL].error);
	assert_true(fabs(ff.job.model.params_b - 7.5) < 1e-12);
	assert_true(fabs(ff.job.mfu - 0.125) < 1e-12);
	assert_int_equal(ff.gen, gen);              /* the same job: nothing recomputed */

	/* and back: German writes a comma again */
	ff.f[FF_MODEL].text_changed = false;
	i18n_init(I18N_DE);
	tui_ff_set_lang(&ff, I18N_DE);
	assert_string_equal(ff.f[FF_MODEL].text, "7,5");
	assert_true(ff.f[FF_MODEL].text_changed);
	assert_true(ff.valid);
	/* comma to comma: nothing to do */
	ff.f[FF_MODEL].text_changed = false;
	i18n_init(I18N_FR);
	tui_ff_set_lang(&ff, I18N_FR);
	assert_string_equal(ff.f[FF_MODEL].text, "7,5");
	assert_false(ff.f[FF_MODEL].text_changed);
	tui_ff_free(&ff);
	i18n_init(I18N_EN);
}

static void test_fit_names_untouched(void **state)
{
	struct tui_ff ff;

	(void)state;
	tui_ff_init(&ff, cat, I18N_EN, false);
	tui_ff_set_text(&ff, FF_MODEL, "Llama 3.1 70B");
	assert_non_null(ff.preset);
	const struct catalog_model *preset = ff.preset;
	tui_ff_set_lang(&ff, I18N_PT_PT);
	assert_string_equal(ff.f[FF_MODEL].text, "Llama 3.1 70B");  /* never "Llama 3,1 70B" */
	assert_ptr_equal(ff.preset, preset);
	assert_true(ff.valid);
	/* a search typed in English is still a search */
	tui_ff_set_text(&ff, FF_MODEL, "qwen 2.5");
	size_t n = ff.n_matches;
	tui_ff_set_lang(&ff, I18N_DE);
	assert_string_equal(ff.f[FF_MODEL].text, "qwen 2.5");
	assert_int_equal(ff.n_matches, n);
	tui_ff_free(&ff);
}

static void test_fit_errors_in_new_language(void **state)
{
	struct tui_ff ff;
	char *en;

	(void)state;
	i18n_init(I18N_EN);
	tui_ff_init(&ff, cat, I18N_EN, false);
	tui_ff_set_text(&ff, FF_SEQ, "abc");
	assert_false(ff.valid);
	assert_non_null(ff.f[FF_SEQ].error);
	en = xstrdup(ff.f[FF_SEQ].error);
	i18n_init(I18N_PT_PT);
	tui_ff_set_lang(&ff, I18N_PT_PT);
	assert_non_null(ff.f[FF_SEQ].error);
	/* made again through the catalogue: pt-PT has every message */
	assert_string_not_equal(ff.f[FF_SEQ].error, en);
	assert_string_equal(ff.f[FF_SEQ].text, "abc");
	free(en);
	tui_ff_free(&ff);
	i18n_init(I18N_EN);
}

/* ---- 2. the catalogue follows i18n_init ------------------------------------------ */

static void test_catalogue_follows(void **state)
{
	static const char *const memory[I18N_NLANGS] = {
		[I18N_EN] = "Memory", [I18N_PT_PT] = "Memória", [I18N_PT_BR] = "Memória",
		[I18N_ES] = "Memoria", [I18N_FR] = "Mémoire", [I18N_DE] = "Speicher",
	};

	(void)state;
	for (int l = 0; l < I18N_NLANGS; l++) {
		i18n_init((enum i18n_lang)l);
		assert_int_equal(i18n_current(), l);
		assert_string_equal(_("Memory"), memory[l]);
		/* the menu's names are not messages: the same in every language */
		for (int k = 0; k < I18N_NLANGS; k++)
			assert_string_equal(_(i18n_lang_name((enum i18n_lang)k)),
					    i18n_lang_name((enum i18n_lang)k));
	}
	assert_string_equal(i18n_lang_name(I18N_PT_PT), "Português (Portugal)");
	assert_string_equal(i18n_lang_name(I18N_FR), "Français");
	assert_string_equal(i18n_lang_name(I18N_DE), "Deutsch");
	assert_string_equal(i18n_lang_name(I18N_ES), "Español");
	i18n_init(I18N_EN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_numbers_follow),
		cmocka_unit_test(test_fit_names_untouched),
		cmocka_unit_test(test_fit_errors_in_new_language),
		cmocka_unit_test(test_catalogue_follows),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
