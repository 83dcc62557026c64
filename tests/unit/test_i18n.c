/*
 * Tests of i18n/: language choice from tags and the environment, the .mo
 * reader (the real embedded catalogues, a byte-swapped copy, hand-built
 * files with contexts and plurals, and damaged buffers), plural rules against
 * the catalogues' own Plural-Forms headers, the formatter in every language
 * (pt-PT against the seed pages' strings), decimal parsing and the ASCII
 * fallback.
 *
 * Seed strings: /work/shared/seeds/000_*.txt (LLM training table) and
 * 002_*.txt (fine-tuning table), the marketplace's pt-PT pages.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n/i18n.h"
#include "util/util.h"

static void eq(char *got, const char *want)
{
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

/* ---- the seeds' strings, exactly ------------------------------------------ */
static void test_seed_strings_pt_pt(void **state)
{
	(void)state;
	enum i18n_lang pt = I18N_PT_PT;
	/* seed 000, training table: bandwidth and BF16 columns */
	eq(i18n_fmt_unit(pt, 1307, 0, "TFLOPS"), "1.307 TFLOPS");
	eq(i18n_fmt_unit(pt, 989, 0, "TFLOPS"), "989 TFLOPS");
	eq(i18n_fmt_unit(pt, 4800, 0, "GB/s"), "4.800 GB/s");
	eq(i18n_fmt_unit(pt, 6000, 0, "GB/s"), "6.000 GB/s");
	eq(i18n_fmt_unit(pt, 2039, 0, "GB/s"), "2.039 GB/s");
	eq(i18n_fmt_unit(pt, 141, 0, "GB"), "141 GB");
	/* seed 002, fine-tuning table */
	eq(i18n_fmt_unit(pt, 1008, 0, "GB/s"), "1.008 GB/s");
	eq(i18n_fmt_unit(pt, 768, 0, "GB/s"), "768 GB/s");
	/* prices, "a partir de US$ 4,19" */
	eq(i18n_fmt_money(pt, 419, "USD"), "US$ 4,19");
	eq(i18n_fmt_money(pt, 899, "USD"), "US$ 8,99");
	eq(i18n_fmt_money(pt, 33, "USD"), "US$ 0,33");
	eq(i18n_fmt_money(pt, 179, "USD"), "US$ 1,79");
	/* model sizes */
	eq(i18n_fmt_billions(pt, 7, false), "≈ 7 mil M");
	eq(i18n_fmt_billions(pt, 110, false), "≈ 110 mil M");
	eq(i18n_fmt_billions(pt, 10, false), "≈ 10 mil M");
	eq(i18n_fmt_billions(pt, 55, false), "≈ 55 mil M");
	/* labels */
	assert_string_equal(i18n_dgettext(pt, NULL, "Not published"), "Não publicado");
	i18n_init(I18N_PT_PT);
	assert_int_equal(i18n_current(), I18N_PT_PT);
	assert_string_equal(_("Not published"), "Não publicado");
	assert_string_equal(_("Memory"), "Memória");
	assert_string_equal(_("Memory type"), "Tipo de memória");
	assert_string_equal(_("Bandwidth"), "Largura de banda");
	assert_string_equal(_("Tensor BF16"), "Tensor BF16");
	assert_string_equal(_("Full training, 1 GPU"), "Treino completo, 1 GPU");
	assert_string_equal(_("Full training, 8 GPUs"), "Treino completo, 8 GPU");
	assert_string_equal(_("Price/h"), "Preço/h");
	assert_string_equal(_("QLoRA base model"), "QLoRA, modelo base");
	assert_string_equal(_("LoRA 16-bit base model"), "LoRA 16 bits, modelo base");
	assert_string_equal(_("from %s"), "a partir de %s");
	eq(i18n_fmt_price_from(I18N_PT_PT, 899, "USD"), "a partir de US$ 8,99");   /* seed 000, B300 */
	eq(i18n_fmt_price_from(I18N_EN, 899, "USD"), "from $8.99");
	/* untranslated: the English msgid itself */
	const char *msgid = "No such message in any catalogue";
	assert_ptr_equal(_(msgid), msgid);
	assert_string_equal(P_("one thing", "many things", 3), "many things");
	assert_string_equal(P_("one thing", "many things", 1), "one thing");
	i18n_init(I18N_EN);
	assert_string_equal(_("Not published"), "Not published");
	i18n_init((enum i18n_lang)99);
	assert_int_equal(i18n_current(), I18N_EN);
}

/* ---- numbers --------------------------------------------------------------- */
static void test_numbers(void **state)
{
	(void)state;
	eq(i18n_fmt_number(I18N_EN, 1307, 0), "1,307");
	eq(i18n_fmt_number(I18N_PT_PT, 1307, 0), "1.307");
	eq(i18n_fmt_number(I18N_PT_BR, 1307, 0), "1.307");
	eq(i18n_fmt_number(I18N_DE, 1307, 0), "1.307");
	eq(i18n_fmt_number(I18N_FR, 1307, 0), "1\u202f307");
	eq(i18n_fmt_number(I18N_ES, 1307, 0), "1307");        /* es groups from 5 digits */
	eq(i18n_fmt_number(I18N_ES, 14400, 0), "14.400");
	eq(i18n_fmt_number(I18N_EN, 999, 0), "999");
	eq(i18n_fmt_number(I18N_EN, 1234567.891, 2), "1,234,567.89");
	eq(i18n_fmt_number(I18N_PT_PT, 1234567.891, 2), "1.234.567,89");
	eq(i18n_fmt_number(I18N_FR, 1234567.891, 2), "1\u202f234\u202f567,89");
	eq(i18n_fmt_number(I18N_DE, 0.5, 1), "0,5");
	eq(i18n_fmt_number(I18N_EN, 0.05, 2), "0.05");
	eq(i18n_fmt_number(I18N_EN, -1307.25, 1), "-1,307.3");   /* half away from zero */
	eq(i18n_fmt_number(I18N_EN, 2.5, 0), "3");
	eq(i18n_fmt_number(I18N_EN, -0.001, 2), "0.00");           /* no "-0.00" */
	eq(i18n_fmt_number(I18N_EN, 14.4, 1), "14.4");
	eq(i18n_fmt_number(I18N_EN, 1e20, 0), "100,000,000,000,000,000,000");
	eq(i18n_fmt_number(I18N_PT_PT, -1e20, 1), "-100.000.000.000.000.000.000,0");
	eq(i18n_fmt_number(I18N_EN, NAN, 0), "—");
	eq(i18n_fmt_number(I18N_EN, INFINITY, 2), "—");
	eq(i18n_fmt_number(I18N_EN, 3.14159, 42), "3.141590000");   /* clamped to 9 */
	eq(i18n_fmt_number(I18N_EN, 3.7, -1), "4");
	eq(i18n_fmt_unit(I18N_EN, 4800, 0, "GB/s"), "4,800 GB/s");
	eq(i18n_fmt_unit(I18N_DE, 4800, 0, "GB/s"), "4.800 GB/s");
	eq(i18n_fmt_unit(I18N_EN, 80, 0, NULL), "80");
	eq(i18n_fmt_percent(I18N_EN, 80, 0), "80%");
	eq(i18n_fmt_percent(I18N_PT_PT, 80, 0), "80 %");   /* seeds: "contando 80 % da memória" */
	eq(i18n_fmt_percent(I18N_DE, 19.5, 1), "19,5 %");
	eq(i18n_fmt_percent(I18N_FR, 80, 0), "80\u202f%");       /* CLDR fr: narrow no-break */
	eq(i18n_fmt_percent(I18N_ES, 40, 0), "40 %");
	assert_int_equal(i18n_decimal_sep(I18N_EN), '.');
	for (int l = I18N_PT_PT; l < I18N_NLANGS; l++)
		assert_int_equal(i18n_decimal_sep((enum i18n_lang)l), ',');
	assert_string_equal(i18n_group_sep(I18N_EN), ",");
	assert_string_equal(i18n_group_sep(I18N_FR), "\u202f");
}

/* ---- money ----------------------------------------------------------------- */
static void test_money(void **state)
{
	(void)state;
	static const struct { enum i18n_lang l; int64_t v; const char *ccy, *want; } c[] = {
		{ I18N_EN, 419, "USD", "$4.19" },
		{ I18N_PT_PT, 419, "USD", "US$ 4,19" },
		{ I18N_PT_BR, 419, "USD", "US$ 4,19" },
		{ I18N_ES, 419, "USD", "4,19 US$" },
		{ I18N_FR, 419, "USD", "4,19\u00a0$US" }    /* CLDR fr: no-break space */,
		{ I18N_DE, 419, "USD", "4,19 $" },
		{ I18N_EN, 419, "EUR", "€4.19" },
		{ I18N_PT_PT, 419, "EUR", "4,19 €" },
		{ I18N_PT_BR, 419, "EUR", "€ 4,19" },
		{ I18N_ES, 419, "EUR", "4,19 €" },
		{ I18N_FR, 419, "EUR", "4,19\u00a0€" },
		{ I18N_DE, 419, "EUR", "4,19 €" },
		{ I18N_EN, 419, "GBP", "£4.19" },
		{ I18N_PT_PT, 419, "GBP", "4,19 £" },
		{ I18N_PT_BR, 419, "GBP", "£ 4,19" },
		{ I18N_ES, 419, "GBP", "4,19 GBP" },
		{ I18N_FR, 419, "GBP", "4,19\u00a0£GB" },
		{ I18N_DE, 419, "GBP", "4,19 £" },
		{ I18N_EN, -419, "USD", "-$4.19" },
		{ I18N_PT_PT, -419, "USD", "-US$ 4,19" },
		{ I18N_DE, -5, "EUR", "-0,05 €" },
		{ I18N_EN, 0, "USD", "$0.00" },
		{ I18N_EN, 123456789, "USD", "$1,234,567.89" },
		{ I18N_PT_PT, 123456, "USD", "US$ 1.234,56" },
		{ I18N_FR, 123456, "EUR", "1\u202f234,56\u00a0€" },
		{ I18N_ES, 123456, "EUR", "1234,56 €" },
		{ I18N_EN, 1500, "usd", "$15.00" },               /* code case-insensitive */
		{ I18N_EN, 1500, "JPY", "JPY 1,500" },            /* no minor unit */
		{ I18N_EN, 419, "CHF", "CHF 4.19" },
		{ I18N_DE, 419, "CHF", "4,19 CHF" },
		{ I18N_FR, 419, "CHF", "4,19\u00a0CHF" },
		{ I18N_FR, -5, "USD", "-0,05\u00a0$US" },
		{ I18N_EN, 419, NULL, "4.19" },
		{ I18N_EN, 419, "", "4.19" },
		{ I18N_EN, 419, "US\x1b", "??? 4.19" },           /* never prints a bad code */
		{ I18N_EN, INT64_MIN, "USD", "-$92,233,720,368,547,758.08" },
		{ I18N_EN, INT64_MAX, "USD", "$92,233,720,368,547,758.07" },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
		eq(i18n_fmt_money(c[i].l, c[i].v, c[i].ccy), c[i].want);
}

/* ---- billions of parameters ---------------------------------------------------- */
static void test_billions(void **state)
{
	(void)state;
	static const char *const want[I18N_NLANGS] = {
		"≈ 7B", "≈ 7 mil M", "≈ 7 bi", "≈ 7 mil M", "≈ 7\u00a0Md", "≈ 7 Mrd.",
	};
	static const char *const want_ascii[I18N_NLANGS] = {
		"~ 7B", "~ 7 mil M", "~ 7 bi", "~ 7 mil M", "~ 7 Md", "~ 7 Mrd.",
	};
	for (int l = 0; l < I18N_NLANGS; l++) {
		eq(i18n_fmt_billions((enum i18n_lang)l, 7, false), want[l]);
		eq(i18n_fmt_billions((enum i18n_lang)l, 7, true), want_ascii[l]);
	}
	eq(i18n_fmt_billions(I18N_EN, 1000, false), "≈ 1,000B");
	eq(i18n_fmt_billions(I18N_PT_PT, 1000, true), "~ 1.000 mil M");
	eq(i18n_fmt_billions(I18N_EN, 0, false), "≈ 0B");
	eq(i18n_fmt_billions(I18N_EN, LONG_MIN, true), "~ -9,223,372,036,854,775,808B");
}

/* ---- durations and dates ------------------------------------------------------- */
static void test_durations(void **state)
{
	(void)state;
	eq(i18n_fmt_duration(I18N_EN, 0), "0 s");
	eq(i18n_fmt_duration(I18N_EN, 45), "45 s");
	eq(i18n_fmt_duration(I18N_EN, 20 * 60), "20 min");
	eq(i18n_fmt_duration(I18N_EN, 5 * 60 + 30), "5 min 30 s");
	eq(i18n_fmt_duration(I18N_EN, 3 * 3600 + 20 * 60 + 59), "3 h 20 min");
	eq(i18n_fmt_duration(I18N_PT_PT, 3 * 3600), "3 h");
	eq(i18n_fmt_duration(I18N_DE, 2 * 86400 + 4 * 3600 + 7), "2 d 4 h");
	eq(i18n_fmt_duration(I18N_FR, 2 * 86400 + 4 * 3600), "2 j 4 h");
	eq(i18n_fmt_duration(I18N_ES, 86400), "1 d");
	eq(i18n_fmt_duration(I18N_EN, -90), "-1 min 30 s");
	char *s = i18n_fmt_duration(I18N_EN, INT64_MIN);
	assert_int_equal(s[0], '-');
	free(s);
}

static void test_dates(void **state)
{
	(void)state;
	const int64_t t = 1741944600;   /* 2025-03-14 09:30:00 UTC */
	eq(i18n_fmt_date(I18N_EN, t, I18N_UTC), "2025-03-14 09:30 UTC");
	eq(i18n_fmt_date(I18N_PT_PT, t, I18N_UTC), "14/03/2025 09:30 UTC");
	eq(i18n_fmt_date(I18N_PT_BR, t, I18N_UTC | I18N_DATE_ONLY), "14/03/2025 UTC");
	eq(i18n_fmt_date(I18N_ES, t, I18N_UTC), "14/03/2025 09:30 UTC");
	eq(i18n_fmt_date(I18N_FR, t, I18N_UTC), "14/03/2025 09:30 UTC");
	eq(i18n_fmt_date(I18N_DE, t, I18N_UTC), "14.03.2025 09:30 UTC");
	eq(i18n_fmt_date(I18N_EN, 946684799, I18N_UTC), "1999-12-31 23:59 UTC");
	setenv("TZ", "Europe/Lisbon", 1);   /* WET in March: same as UTC */
	eq(i18n_fmt_date(I18N_PT_PT, t, 0), "14/03/2025 09:30");
	char *s = i18n_fmt_date(I18N_EN, INT64_MAX, I18N_UTC);   /* no crash */
	assert_non_null(s);
	free(s);
}

/* A time axis's labels: the clock in 24 h, the weekday and day in the
 * language, local time (a fixed zone east of UTC by 5 h 30 min: local
 * 15:00 is 09:30 UTC) or UTC. */
static void test_axis_labels(void **state)
{
	(void)state;
	const int64_t t = 1741944600;   /* Friday 2025-03-14 09:30:00 UTC */
	eq(i18n_fmt_clock(I18N_EN, t, I18N_UTC), "09:30");
	eq(i18n_fmt_day(I18N_EN, t, I18N_UTC), "Fri 14");
	eq(i18n_fmt_day(I18N_PT_PT, t, I18N_UTC), "sex 14");
	eq(i18n_fmt_day(I18N_PT_BR, t, I18N_UTC), "sex 14");
	eq(i18n_fmt_day(I18N_ES, t, I18N_UTC), "vie 14");
	eq(i18n_fmt_day(I18N_FR, t, I18N_UTC), "ven. 14");
	eq(i18n_fmt_day(I18N_DE, t, I18N_UTC), "Fr. 14.");
	eq(i18n_fmt_day(I18N_PT_PT, t + 86400, I18N_UTC), "s\u00e1b 15");
	setenv("TZ", "IST-5:30", 1);
	tzset();
	eq(i18n_fmt_clock(I18N_DE, t, 0), "15:00");
	eq(i18n_fmt_clock(I18N_EN, t + 52200, 0), "05:30"); /* past local midnight: */
	eq(i18n_fmt_day(I18N_EN, t + 52200, 0), "Sat 15");  /* the next day */
	eq(i18n_zone_name(t), "IST");
	setenv("TZ", "UTC", 1);
	tzset();
	eq(i18n_zone_name(t), "UTC");
	eq(i18n_fmt_clock(I18N_EN, INT64_MAX, 0), "?");
}

/* ---- language choice ------------------------------------------------------------- */
static void test_lang_parse(void **state)
{
	(void)state;
	static const struct { const char *tag; int want; } c[] = {
		{ "en", I18N_EN }, { "EN_us.UTF-8", I18N_EN }, { "en_GB", I18N_EN },
		{ "pt-PT", I18N_PT_PT }, { "pt_PT", I18N_PT_PT }, { "pt_PT.UTF-8", I18N_PT_PT },
		{ "pt_PT.utf8@euro", I18N_PT_PT }, { "pt", I18N_PT_PT }, { "PT-pt", I18N_PT_PT },
		{ "pt_AO", I18N_PT_PT }, { "pt-BR", I18N_PT_BR }, { "pt_br.UTF-8", I18N_PT_BR },
		{ "es", I18N_ES }, { "es_MX", I18N_ES }, { "es-419", I18N_ES },
		{ "fr_CA", I18N_FR }, { "fr", I18N_FR }, { "de_AT", I18N_DE }, { "de_CH.UTF-8", I18N_DE },
		{ "C", -1 }, { "POSIX", -1 }, { "C.UTF-8", -1 }, { "", -1 }, { "ja_JP", -1 },
		{ "p", -1 }, { "pt_", -1 }, { "pt-", -1 }, { "-pt", -1 }, { "ptt_PT", -1 },
		{ "pt PT", -1 }, { "en_US.UTF 8", -1 }, { "portuguese", -1 }, { "de_AT\n", -1 },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		enum i18n_lang l = (enum i18n_lang)77;
		int rc = i18n_lang_parse(c[i].tag, &l);
		if (c[i].want < 0) {
			if (rc != -1)
				fail_msg("\"%s\" should be unknown", c[i].tag);
			assert_int_equal(l, 77);
		} else {
			if (rc != 0 || (int)l != c[i].want)
				fail_msg("\"%s\": got rc %d lang %d, want %d", c[i].tag, rc, l, c[i].want);
		}
	}
	assert_int_equal(i18n_lang_parse(NULL, &(enum i18n_lang){0}), -1);
	/* the canonical tags parse back to themselves */
	for (int l = 0; l < I18N_NLANGS; l++) {
		enum i18n_lang back;
		assert_int_equal(i18n_lang_parse(i18n_lang_tag((enum i18n_lang)l), &back), 0);
		assert_int_equal(back, l);
		assert_non_null(strstr(i18n_lang_list(), i18n_lang_tag((enum i18n_lang)l)));
	}
	assert_string_equal(i18n_lang_tag(I18N_PT_PT), "pt-PT");
	assert_string_equal(i18n_lang_list(), "en, pt-PT, pt-BR, es, fr, de");
	assert_string_equal(i18n_lang_name(I18N_PT_BR), "Português (Brasil)");
	assert_string_equal(i18n_lang_tag((enum i18n_lang)42), "en");
}

/* Precedence (issue 8): --lang, then the language remembered in the config
 * file (the TUI's menu), then the environment, then English. */
static void env(const char *language, const char *lc_all, const char *lc_messages,
                const char *lang);

static void test_lang_resolve(void **state)
{
	(void)state;
	enum i18n_lang l = (enum i18n_lang)77;
	enum i18n_lang_source src = (enum i18n_lang_source)77;

	env(NULL, NULL, NULL, "de_DE.UTF-8");
	/* --lang beats the remembered choice and the environment */
	assert_int_equal(i18n_lang_resolve("pt-BR", "fr", &l, &src), 0);
	assert_int_equal(l, I18N_PT_BR);
	assert_int_equal(src, I18N_FROM_FLAG);
	/* the remembered choice beats the environment */
	assert_int_equal(i18n_lang_resolve(NULL, "fr", &l, &src), 0);
	assert_int_equal(l, I18N_FR);
	assert_int_equal(src, I18N_FROM_CONFIG);
	env("es", NULL, NULL, "de_DE.UTF-8");             /* LANGUAGE too */
	assert_int_equal(i18n_lang_resolve(NULL, "pt-PT", &l, &src), 0);
	assert_int_equal(l, I18N_PT_PT);
	/* nothing remembered, or something unknown: the environment */
	assert_int_equal(i18n_lang_resolve(NULL, NULL, &l, &src), 0);
	assert_int_equal(l, I18N_ES);
	assert_int_equal(src, I18N_FROM_ENV);
	assert_int_equal(i18n_lang_resolve(NULL, "klingon", &l, NULL), 0);
	assert_int_equal(l, I18N_ES);
	env(NULL, NULL, NULL, "C.UTF-8");                 /* nothing known: English */
	assert_int_equal(i18n_lang_resolve(NULL, "", &l, &src), 0);
	assert_int_equal(l, I18N_EN);
	assert_int_equal(src, I18N_FROM_ENV);
	/* an unknown --lang is an error, nothing changed */
	l = (enum i18n_lang)77;
	src = (enum i18n_lang_source)77;
	assert_int_equal(i18n_lang_resolve("xx", "fr", &l, &src), -1);
	assert_int_equal(l, 77);
	assert_int_equal(src, 77);
	assert_int_equal(i18n_lang_resolve("", NULL, &l, NULL), -1);
	env(NULL, NULL, NULL, NULL);
}

static void env(const char *language, const char *lc_all, const char *lc_messages,
                const char *lang)
{
	const char *names[] = { "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG" };
	const char *vals[] = { language, lc_all, lc_messages, lang };
	for (int i = 0; i < 4; i++) {
		if (vals[i] == NULL)
			unsetenv(names[i]);
		else
			setenv(names[i], vals[i], 1);
	}
}

static void test_lang_from_env(void **state)
{
	(void)state;
	env(NULL, NULL, NULL, NULL);
	assert_int_equal(i18n_lang_from_env(), I18N_EN);
	env("pt_BR:pt", NULL, NULL, NULL);
	assert_int_equal(i18n_lang_from_env(), I18N_PT_BR);
	env("pt_BR:pt", NULL, NULL, "pt_PT.UTF-8");       /* LANGUAGE before LANG */
	assert_int_equal(i18n_lang_from_env(), I18N_PT_BR);
	env("pt_BR:pt", NULL, NULL, "C.UTF-8");           /* honoured under C.UTF-8 */
	assert_int_equal(i18n_lang_from_env(), I18N_PT_BR);
	env("ja:xx:de_DE", NULL, NULL, NULL);              /* first known entry wins */
	assert_int_equal(i18n_lang_from_env(), I18N_DE);
	env("::", NULL, NULL, "fr_FR.UTF-8");
	assert_int_equal(i18n_lang_from_env(), I18N_FR);
	env(NULL, "C", NULL, "pt_PT.UTF-8");               /* LC_ALL overrides LANG */
	assert_int_equal(i18n_lang_from_env(), I18N_EN);
	env("pt_PT", "C", NULL, NULL);                     /* LC_ALL=C: LANGUAGE ignored */
	assert_int_equal(i18n_lang_from_env(), I18N_EN);
	env(NULL, NULL, NULL, "pt");
	assert_int_equal(i18n_lang_from_env(), I18N_PT_PT);
	env(NULL, NULL, NULL, "fr_CA.UTF-8");
	assert_int_equal(i18n_lang_from_env(), I18N_FR);
	env(NULL, NULL, "es_MX.UTF-8", "de_DE.UTF-8");     /* LC_MESSAGES before LANG */
	assert_int_equal(i18n_lang_from_env(), I18N_ES);
	env(NULL, "", "", "de_DE.UTF-8");                  /* empty means unset */
	assert_int_equal(i18n_lang_from_env(), I18N_DE);
	env(NULL, NULL, NULL, "xx_YY.UTF-8");              /* unknown → English */
	assert_int_equal(i18n_lang_from_env(), I18N_EN);
	env("klingon", NULL, NULL, "nonsense");
	assert_int_equal(i18n_lang_from_env(), I18N_EN);
	env(NULL, NULL, NULL, NULL);
}

/* ---- plural forms -------------------------------------------------------------- */
/* A small evaluator of the C-like Plural-Forms expressions (n, integers,
 * ! * / % + - < > <= >= == != && || ?: and parentheses), to check that the C
 * rules agree with what each catalogue declares. */
struct pexpr { const char *p; unsigned long n; bool bad; };
static unsigned long p_ternary(struct pexpr *e);
static void p_ws(struct pexpr *e) { while (*e->p == ' ') e->p++; }
static bool p_eat(struct pexpr *e, const char *tok)
{
	p_ws(e);
	size_t l = strlen(tok);
	if (strncmp(e->p, tok, l) != 0)
		return false;
	/* do not take "<" out of "<=", "=" out of "==" etc. */
	if (l == 1 && (tok[0] == '<' || tok[0] == '>' || tok[0] == '!') && e->p[1] == '=')
		return false;
	e->p += l;
	return true;
}
static unsigned long p_primary(struct pexpr *e)
{
	p_ws(e);
	if (p_eat(e, "(")) {
		unsigned long v = p_ternary(e);
		if (!p_eat(e, ")"))
			e->bad = true;
		return v;
	}
	if (p_eat(e, "!"))
		return !p_primary(e);
	if (*e->p == 'n') {
		e->p++;
		return e->n;
	}
	if (isdigit((unsigned char)*e->p))
		return strtoul(e->p, (char **)&e->p, 10);
	e->bad = true;
	return 0;
}
static unsigned long p_mul(struct pexpr *e)
{
	unsigned long v = p_primary(e);
	for (;;) {
		if (p_eat(e, "%")) { unsigned long r = p_primary(e); v = r ? v % r : 0; }
		else if (p_eat(e, "*")) v *= p_primary(e);
		else if (p_eat(e, "/")) { unsigned long r = p_primary(e); v = r ? v / r : 0; }
		else return v;
	}
}
static unsigned long p_add(struct pexpr *e)
{
	unsigned long v = p_mul(e);
	for (;;) {
		if (p_eat(e, "+")) v += p_mul(e);
		else if (p_eat(e, "-")) v -= p_mul(e);
		else return v;
	}
}
static unsigned long p_rel(struct pexpr *e)
{
	unsigned long v = p_add(e);
	for (;;) {
		if (p_eat(e, "<=")) v = v <= p_add(e);
		else if (p_eat(e, ">=")) v = v >= p_add(e);
		else if (p_eat(e, "<")) v = v < p_add(e);
		else if (p_eat(e, ">")) v = v > p_add(e);
		else return v;
	}
}
static unsigned long p_eq(struct pexpr *e)
{
	unsigned long v = p_rel(e);
	for (;;) {
		if (p_eat(e, "==")) v = v == p_rel(e);
		else if (p_eat(e, "!=")) v = v != p_rel(e);
		else return v;
	}
}
static unsigned long p_and(struct pexpr *e)
{
	unsigned long v = p_eq(e);
	while (p_eat(e, "&&")) { unsigned long r = p_eq(e); v = v && r; }
	return v;
}
static unsigned long p_or(struct pexpr *e)
{
	unsigned long v = p_and(e);
	while (p_eat(e, "||")) { unsigned long r = p_and(e); v = v || r; }
	return v;
}
static unsigned long p_ternary(struct pexpr *e)
{
	unsigned long c = p_or(e);
	if (!p_eat(e, "?"))
		return c;
	unsigned long a = p_ternary(e);
	if (!p_eat(e, ":"))
		e->bad = true;
	unsigned long b = p_ternary(e);
	return c ? a : b;
}

static const char *const mo_names[I18N_NLANGS] = {
	NULL, "i18n/pt_PT.mo", "i18n/pt_BR.mo", "i18n/es.mo", "i18n/fr.mo", "i18n/de.mo",
};

static void test_plural_rules_match_catalogues(void **state)
{
	(void)state;
	/* the rules themselves: pt-BR and fr treat 0 as singular */
	assert_int_equal(i18n_plural_index(I18N_EN, 0), 1);
	assert_int_equal(i18n_plural_index(I18N_EN, 1), 0);
	assert_int_equal(i18n_plural_index(I18N_PT_PT, 0), 1);
	assert_int_equal(i18n_plural_index(I18N_PT_BR, 0), 0);
	assert_int_equal(i18n_plural_index(I18N_PT_BR, 1), 0);
	assert_int_equal(i18n_plural_index(I18N_PT_BR, 2), 1);
	assert_int_equal(i18n_plural_index(I18N_FR, 0), 0);
	assert_int_equal(i18n_plural_index(I18N_DE, 2), 1);
	assert_int_equal(i18n_plural_index(I18N_ES, 1000000), 1);
	for (int l = I18N_PT_PT; l < I18N_NLANGS; l++) {
		size_t len;
		const unsigned char *data = assets_find(mo_names[l], &len);
		if (data == NULL)
			fail_msg("%s is not embedded", mo_names[l]);
		struct i18n_mo mo;
		char *cause = NULL;
		assert_int_equal(i18n_mo_open(&mo, data, len, &cause), 0);
		const char *header = i18n_mo_lookup(&mo, NULL, "", 0, NULL);
		assert_non_null(header);
		assert_non_null(strstr(header, "charset=UTF-8"));
		const char *pf = strstr(header, "Plural-Forms:");
		assert_non_null(pf);
		assert_non_null(strstr(pf, "nplurals=2;"));
		const char *ex = strstr(pf, "plural=");
		assert_non_null(ex);
		for (unsigned long n = 0; n < 1000; n++) {
			struct pexpr e = { ex + strlen("plural="), n, false };
			unsigned long v = p_ternary(&e);
			p_ws(&e);
			if (e.bad || *e.p != ';')
				fail_msg("%s: cannot read Plural-Forms", mo_names[l]);
			if (v != i18n_plural_index((enum i18n_lang)l, n))
				fail_msg("%s: plural index for %lu is %lu in the catalogue, %u in C",
				         mo_names[l], n, v, i18n_plural_index((enum i18n_lang)l, n));
		}
	}
	/* the same plural message at 0: singular in pt-BR and fr, plural in pt-PT */
	const char *one = "\"%s\": at most %d decimal place";
	const char *many = "\"%s\": at most %d decimal places";
	assert_string_equal(i18n_dngettext(I18N_PT_BR, NULL, one, many, 0),
	                    "“%s”: no máximo %d casa decimal");
	assert_string_equal(i18n_dngettext(I18N_PT_PT, NULL, one, many, 0),
	                    "«%s»: no máximo %d casas decimais");
	assert_string_equal(i18n_dngettext(I18N_PT_PT, NULL, one, many, 1),
	                    "«%s»: no máximo %d casa decimal");
	assert_string_equal(i18n_dngettext(I18N_EN, NULL, one, many, 0), many);
}

/* ---- the .mo reader ------------------------------------------------------------- */
/* Build a little-endian .mo from sorted (key, translation) pairs; keys and
 * translations may contain NULs (plurals), so lengths are given. */
struct mo_entry { const char *k; size_t kl; const char *v; size_t vl; };
static unsigned char *build_mo(const struct mo_entry *e, uint32_t n, size_t *len)
{
	size_t size = 28 + 16 * (size_t)n;
	for (uint32_t i = 0; i < n; i++)
		size += e[i].kl + 1 + e[i].vl + 1;
	unsigned char *m = xcalloc(1, size);
	uint32_t hdr[7] = { 0x950412de, 0, n, 28, 28 + 8 * n, 0, 0 };
	memcpy(m, hdr, sizeof hdr);
	size_t at = 28 + 16 * (size_t)n;
	for (int tbl = 0; tbl < 2; tbl++)
		for (uint32_t i = 0; i < n; i++) {
			uint32_t l = (uint32_t)(tbl == 0 ? e[i].kl : e[i].vl);
			uint32_t pair[2] = { l, (uint32_t)at };
			memcpy(m + 28 + (size_t)tbl * 8 * n + 8 * i, pair, 8);
			memcpy(m + at, tbl == 0 ? e[i].k : e[i].v, l);
			at += l + 1;
		}
	*len = size;
	return m;
}

static void test_mo_handbuilt(void **state)
{
	(void)state;
	/* sorted by key bytes: "Buy" < "order\004Buy" < "vote\004Buy" < "zz GPU\0zz GPUs" */
	static const char pl_k[] = "zz GPU\0zz GPUs";
	static const char pl_v[] = "%d placa\0%d placas";
	const struct mo_entry e[] = {
		{ "Buy", 3, "Comprar", 7 },
		{ "order\004Buy", 9, "Compra", 6 },
		{ "vote\004Buy", 8, "", 0 },   /* empty = untranslated */
		{ pl_k, sizeof pl_k - 1, pl_v, sizeof pl_v - 1 },
	};
	size_t len;
	unsigned char *m = build_mo(e, 4, &len);
	struct i18n_mo mo;
	assert_int_equal(i18n_mo_open(&mo, m, len, NULL), 0);
	size_t l = 0;
	assert_string_equal(i18n_mo_lookup(&mo, NULL, "Buy", 0, &l), "Comprar");
	assert_int_equal(l, 7);
	assert_string_equal(i18n_mo_lookup(&mo, "order", "Buy", 0, NULL), "Compra");
	assert_null(i18n_mo_lookup(&mo, "vote", "Buy", 0, NULL));
	assert_null(i18n_mo_lookup(&mo, "other", "Buy", 0, NULL));
	assert_null(i18n_mo_lookup(&mo, NULL, "Bu", 0, NULL));
	assert_null(i18n_mo_lookup(&mo, NULL, "Buyer", 0, NULL));
	assert_string_equal(i18n_mo_lookup(&mo, NULL, "zz GPU", 0, NULL), "%d placa");
	assert_string_equal(i18n_mo_lookup(&mo, NULL, "zz GPU", 1, NULL), "%d placas");
	assert_null(i18n_mo_lookup(&mo, NULL, "zz GPU", 2, NULL));
	assert_null(i18n_mo_lookup(&mo, NULL, "zz GPU", 99, NULL));
	assert_null(i18n_mo_lookup(NULL, NULL, "Buy", 0, NULL));
	assert_null(i18n_mo_lookup(&mo, NULL, NULL, 0, NULL));

	/* a translation's offset beyond the end, a length running past it, and a
	 * string without its NUL: all "not found" */
	uint32_t bad = (uint32_t)len + 100;
	memcpy(m + 28 + 8 * 4 + 4, &bad, 4);          /* translation 0 offset */
	assert_null(i18n_mo_lookup(&mo, NULL, "Buy", 0, NULL));
	uint32_t biglen = 0xfffffff0u;
	memcpy(m + 28 + 8 * 4 + 8, &biglen, 4);       /* translation 1 length */
	assert_null(i18n_mo_lookup(&mo, "order", "Buy", 0, NULL));
	uint32_t k3off;
	memcpy(&k3off, m + 28 + 8 * 3 + 4, 4);
	memset(m + k3off, 'x', len - k3off);          /* last key loses its NUL */
	assert_null(i18n_mo_lookup(&mo, NULL, "zz GPU", 0, NULL));
	free(m);
}

static void swap32(unsigned char *p)
{
	unsigned char t = p[0]; p[0] = p[3]; p[3] = t;
	t = p[1]; p[1] = p[2]; p[2] = t;
}

static void test_mo_big_endian(void **state)
{
	(void)state;
	size_t len;
	const unsigned char *data = assets_find("i18n/pt_PT.mo", &len);
	assert_non_null(data);
	struct i18n_mo le;
	assert_int_equal(i18n_mo_open(&le, data, len, NULL), 0);
	assert_false(le.swap);   /* msgfmt writes the host's order (x86: little) */
	/* swap the header and both tables: the file a big-endian msgfmt writes */
	unsigned char *m = xmalloc(len);
	memcpy(m, data, len);
	for (size_t i = 0; i < 7; i++)
		swap32(m + 4 * i);
	for (uint32_t i = 0; i < 2 * le.n; i++) {
		swap32(m + le.orig + 4 * i);
		swap32(m + le.trans + 4 * i);
	}
	struct i18n_mo be;
	assert_int_equal(i18n_mo_open(&be, m, len, NULL), 0);
	assert_true(be.swap);
	assert_int_equal(be.n, le.n);
	const char *t = i18n_mo_lookup(&be, NULL, "Not published", 0, NULL);
	assert_non_null(t);
	assert_string_equal(t, "Não publicado");
	t = i18n_mo_lookup(&be, NULL, "from %s", 0, NULL);
	assert_non_null(t);
	assert_string_equal(t, "a partir de %s");
	assert_null(i18n_mo_lookup(&be, NULL, "No such message", 0, NULL));
	free(m);
}

static void test_mo_damaged(void **state)
{
	(void)state;
	char *cause = NULL;
	struct i18n_mo mo;
	static const unsigned char garbage[64] = "this is not a message catalogue at all, no";
	assert_int_equal(i18n_mo_open(&mo, garbage, sizeof garbage, &cause), -1);
	assert_non_null(strstr(cause, "magic"));
	free(cause);
	cause = NULL;
	assert_int_equal(i18n_mo_open(&mo, NULL, 0, &cause), -1);
	free(cause);
	assert_int_equal(i18n_mo_open(&mo, (const unsigned char *)"\xde\x12\x04\x95", 4, NULL), -1);
	/* a header claiming 2^32-1 strings */
	unsigned char huge[28] = { 0xde, 0x12, 0x04, 0x95, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
	                           28, 0, 0, 0, 28, 0, 0, 0 };
	cause = NULL;
	assert_int_equal(i18n_mo_open(&mo, huge, sizeof huge, &cause), -1);
	assert_non_null(cause);
	free(cause);
	/* unknown major revision */
	unsigned char rev[28] = { 0xde, 0x12, 0x04, 0x95, 0, 0, 2, 0 };
	assert_int_equal(i18n_mo_open(&mo, rev, sizeof rev, NULL), -1);

	/* every truncation of a real catalogue, copied to an exact-size heap block
	 * so that AddressSanitizer sees any read past the end */
	size_t len;
	const unsigned char *data = assets_find("i18n/pt_PT.mo", &len);
	assert_non_null(data);
	for (size_t cut = 0; cut <= len; cut += (cut < 400 ? 1 : 37)) {
		unsigned char *m = xmalloc(cut ? cut : 1);
		memcpy(m, data, cut);
		if (i18n_mo_open(&mo, m, cut, NULL) == 0) {
			(void)i18n_mo_lookup(&mo, NULL, "Not published", 0, NULL);
			(void)i18n_mo_lookup(&mo, NULL, "Memory", 0, NULL);
			(void)i18n_mo_lookup(&mo, NULL, "", 0, NULL);
		}
		free(m);
	}
	/* random corruption (a fixed LCG, so the run is reproducible) */
	unsigned long long seed = 12345;
	unsigned char *m = xmalloc(len);
	for (int round = 0; round < 3000; round++) {
		memcpy(m, data, len);
		for (int k = 0; k < 1 + round % 8; k++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			size_t at = (size_t)(seed >> 33) % len;
			/* aim at the header and the tables most of the time */
			if (round % 2 == 0)
				at %= 28 + 16 * (size_t)(len > 2000 ? 100 : 4);
			m[at] = (unsigned char)(seed >> 24);
		}
		if (i18n_mo_open(&mo, m, len, NULL) == 0) {
			(void)i18n_mo_lookup(&mo, NULL, "Not published", 0, NULL);
			(void)i18n_mo_lookup(&mo, "ctx", "Memory", 1, NULL);
			(void)i18n_mo_lookup(&mo, NULL, "\"%s\": at most %d decimal place", 1, NULL);
		}
	}
	free(m);
}

/* ---- decimal parsing ------------------------------------------------------------- */
static void test_parse_decimal_good(void **state)
{
	(void)state;
	static const struct { enum i18n_lang l; const char *s; int scale; int64_t want; } c[] = {
		{ I18N_EN, "4.19", 2, 419 },
		{ I18N_PT_PT, "4,19", 2, 419 },
		{ I18N_PT_PT, "4.19", 2, 419 },     /* a keypad's "." works everywhere */
		{ I18N_PT_BR, "4,19", 2, 419 },
		{ I18N_ES, "4,19", 2, 419 },
		{ I18N_FR, "4,19", 2, 419 },
		{ I18N_DE, "4,19", 2, 419 },
		{ I18N_EN, "4", 2, 400 },
		{ I18N_EN, "4.1", 2, 410 },
		{ I18N_EN, ".5", 2, 50 },
		{ I18N_DE, ",5", 2, 50 },
		{ I18N_EN, "0", 2, 0 },
		{ I18N_EN, "007", 0, 7 },
		{ I18N_EN, "  8.99\t", 2, 899 },
		{ I18N_EN, "1500", 0, 1500 },
		{ I18N_EN, "0.000000000000000001", 18, 1 },
		{ I18N_EN, "9223372036854775807", 0, INT64_MAX },
		{ I18N_EN, "92233720368547758.07", 2, INT64_MAX },
		{ I18N_EN, "0.1", 1, 1 },   /* no binary floating point: exactly 1 */
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		int64_t v = -1;
		char *cause = NULL;
		if (i18n_parse_decimal(c[i].l, c[i].s, c[i].scale, &v, &cause) != 0)
			fail_msg("\"%s\" rejected: %s", c[i].s, cause);
		assert_int_equal(v, c[i].want);
	}
}

static void test_parse_decimal_bad(void **state)
{
	(void)state;
	static const struct { enum i18n_lang l; const char *s; int scale; const char *says; } c[] = {
		{ I18N_EN, "", 2, "enter a number" },
		{ I18N_EN, "   ", 2, "enter a number" },
		{ I18N_EN, NULL, 2, "enter a number" },
		{ I18N_EN, "-4.19", 2, "without a sign" },
		{ I18N_EN, "+4.19", 2, "without a sign" },
		{ I18N_EN, "4,19", 2, "use \".\"" },        /* in English a comma is never decimal */
		{ I18N_EN, "1,307", 0, "use \".\"" },       /* …nor a thousands separator */
		{ I18N_PT_PT, "1.307,50", 2, "separador de milhares" },
		{ I18N_EN, "1.2.3", 2, "thousands" },
		{ I18N_PT_PT, "1,5,0", 2, "separador de milhares" },
		{ I18N_EN, "4.199", 2, "at most 2 decimal places" },
		{ I18N_PT_PT, "1.500", 2, "no máximo 2 casas decimais" },  /* never 1.5 */
		{ I18N_EN, "1.5", 0, "whole number" },
		{ I18N_EN, "0.05", 1, "\"0.05\": at most 1 decimal place" },
		{ I18N_EN, "4.", 2, "digits are missing" },
		{ I18N_EN, ".", 2, "digits are missing" },
		{ I18N_EN, "4 19", 2, "not a number" },
		{ I18N_EN, "4.19$", 2, "not a number" },
		{ I18N_EN, "1e3", 2, "not a number" },
		{ I18N_EN, "abc", 2, "not a number" },
		{ I18N_EN, "0x10", 0, "not a number" },
		{ I18N_EN, "4\xc2\xa0" "19", 2, "not a number" },
		{ I18N_EN, "9223372036854775808", 0, "too large" },
		{ I18N_EN, "92233720368547758.08", 2, "too large" },
		{ I18N_EN, "99999999999999999999999999", 2, "too large" },
		{ I18N_DE, "abc", 2, "ist keine Zahl" },
		{ I18N_FR, "abc", 2, "n’est pas un nombre" },
		{ I18N_EN, "\x1b[2J", 2, "not a number" },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		int64_t v = 12345;
		char *cause = NULL;
		if (i18n_parse_decimal(c[i].l, c[i].s, c[i].scale, &v, &cause) != -1)
			fail_msg("\"%s\" accepted as %lld", c[i].s, (long long)v);
		assert_int_equal(v, 12345);
		assert_non_null(cause);
		if (strstr(cause, c[i].says) == NULL)
			fail_msg("\"%s\": cause \"%s\" does not say \"%s\"", c[i].s, cause, c[i].says);
		assert_null(strchr(cause, '\x1b'));   /* the input is cleaned before it is echoed */
		free(cause);
	}
	int64_t v;
	assert_int_equal(i18n_parse_decimal(I18N_EN, "1", 19, &v, NULL), -1);
	assert_int_equal(i18n_parse_decimal(I18N_EN, "1", -1, &v, NULL), -1);
	assert_int_equal(i18n_parse_decimal(I18N_EN, "x", 2, &v, NULL), -1);   /* cause NULL ok */
}

/* ---- ASCII fallback ------------------------------------------------------------- */
static void test_ascii(void **state)
{
	(void)state;
	eq(i18n_ascii("≈ 7 mil M"), "~ 7 mil M");
	eq(i18n_ascii("Não publicado"), "Nao publicado");
	eq(i18n_ascii("Memória"), "Memoria");
	eq(i18n_ascii("€4.19"), "EUR 4.19");
	eq(i18n_ascii("-€4.19"), "-EUR 4.19");
	eq(i18n_ascii("4,19 €"), "4,19 EUR");
	eq(i18n_ascii("£ 4,19"), "GBP 4,19");
	eq(i18n_ascii("4,19 £GB"), "4,19 GBP");
	eq(i18n_ascii("1\u202f234,56 €"), "1 234,56 EUR");
	eq(i18n_ascii("1\u202f234,56\u00a0€"), "1 234,56 EUR");
	eq(i18n_ascii("80\u202f%"), "80 %");
	/* ASCII billions: no no-break space either */
	eq(i18n_fmt_billions(I18N_FR, 7, true), "~ 7 Md");
	eq(i18n_ascii("Größe « Entraînement »"), "Grosse \" Entrainement \"");
	eq(i18n_ascii("Preço ▲"), "Preco ^");
	eq(i18n_ascii("a\xff" "b"), "a?b");
	eq(i18n_ascii("\xe2\x82"), "??");            /* truncated sequence */
	eq(i18n_ascii("\xc0\xaf"), "??");            /* overlong */
	eq(i18n_ascii("日本"), "??");
	eq(i18n_ascii(""), "");
	eq(i18n_ascii(NULL), "");
	/* every formatter output in every language becomes pure ASCII */
	for (int l = 0; l < I18N_NLANGS; l++) {
		char *outs[] = {
			i18n_fmt_money((enum i18n_lang)l, 123456, "EUR"),
			i18n_fmt_money((enum i18n_lang)l, 123456, "GBP"),
			i18n_fmt_number((enum i18n_lang)l, 1234567, 0),
			i18n_fmt_billions((enum i18n_lang)l, 1000, false),
			i18n_fmt_money((enum i18n_lang)l, 419, "USD"),
			i18n_fmt_percent((enum i18n_lang)l, 80, 0),
			(char *)xstrdup(i18n_dgettext((enum i18n_lang)l, NULL, "Not published")),
		};
		for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
			char *a = i18n_ascii(outs[i]);
			for (const char *p = a; *p; p++)
				if ((unsigned char)*p >= 0x80 || *p == '?')
					fail_msg("\"%s\" → \"%s\" is not clean ASCII", outs[i], a);
			free(a);
			free(outs[i]);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_strings_pt_pt),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_money),
		cmocka_unit_test(test_billions),
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_lang_parse),
		cmocka_unit_test(test_lang_from_env),
		cmocka_unit_test(test_plural_rules_match_catalogues),
		cmocka_unit_test(test_lang_resolve),
		cmocka_unit_test(test_mo_handbuilt),
		cmocka_unit_test(test_mo_big_endian),
		cmocka_unit_test(test_mo_damaged),
		cmocka_unit_test(test_parse_decimal_good),
		cmocka_unit_test(test_parse_decimal_bad),
		cmocka_unit_test(test_ascii),
		cmocka_unit_test(test_axis_labels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
