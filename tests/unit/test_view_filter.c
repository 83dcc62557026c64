/*
 * tests/unit/test_view_filter.c — filter expressions on any column
 * (view/filter.c, view_filter_set), on the embedded catalogue: plain words
 * (name, vendor, architecture, id; !word), COLUMN OP VALUE on numbers,
 * text, prices in US$ and yes/no columns, alternatives with |, terms that
 * must all hold, unknown values matching no comparison, the language's
 * decimal separator, and each error said in words with the filter kept.
 * The expected rows are counted from the catalogue itself, never typed in.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "data/catalog.h"
#include "tests/unit/catalog_fixture.h"
#include "i18n/i18n.h"
#include "util/util.h"
#include "view/view.h"

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
	return 0;
}

/* Every GPU priced at 100 + 25 × its catalogue index cents (one without). */
static struct view_table *table(const char *workload, enum i18n_lang lang)
{
	const struct catalog_workload *w = catalog_workload(cat, workload);
	struct view_price *p = xcalloc(cat->n_gpus, sizeof *p);
	struct view_prices ps = { p, cat->n_gpus - 1, false };
	struct view_table *t;

	assert_non_null(w);
	for (size_t i = 0; i < cat->n_gpus; i++)
		p[i] = (struct view_price){ cat->gpus[i].id, 100 + 25 * (int64_t)i };
	t = view_new(cat, w, &ps, NULL, lang, false);
	free(p);
	return t;
}

static bool shown(const struct view_table *t, const char *id)
{
	return view_find(t, id) >= 0;
}

/* How many GPUs of t's workload pass pred (i: the catalogue index). */
static const struct view_table *cur;
static size_t count(bool (*pred)(const struct catalog_gpu *g, size_t i))
{
	size_t n = 0;

	for (size_t r = 0; r < cur->n_rows; r++)
		n += pred(cur->rows[r].gpu, (size_t)(cur->rows[r].gpu - cat->gpus));
	return n;
}

static bool mem_80(const struct catalog_gpu *g, size_t i) { (void)i; return g->memory_gb >= 141; }
static bool hbm3e(const struct catalog_gpu *g, size_t i)
{
	(void)i;
	return g->memory_type != NULL && strcasestr(g->memory_type, "hbm3e") != NULL;
}
static bool under_3(const struct catalog_gpu *g, size_t i)
{
	(void)g;
	return i < cat->n_gpus - 1 && 100 + 25 * i < 300;
}
static bool amd_80(const struct catalog_gpu *g, size_t i)
{
	return mem_80(g, i) && strcmp(g->vendor, "AMD") == 0;
}
static bool under_3_5(const struct catalog_gpu *g, size_t i)
{
	(void)g;
	return i < cat->n_gpus - 1 && 100 + 25 * i < 350;
}
static bool amd_any(const struct catalog_gpu *g, size_t i)
{
	(void)i;
	return strcmp(g->vendor, "AMD") == 0;
}
static bool ecc(const struct catalog_gpu *g, size_t i)
{
	(void)i;
	return g->ecc;
}
static bool bw_known_over_3000(const struct catalog_gpu *g, size_t i)
{
	(void)i;
	return !isnan(g->bandwidth_gbs) && g->bandwidth_gbs > 3000;
}
static bool not_nvidia(const struct catalog_gpu *g, size_t i)
{
	(void)i;
	return strcasestr(g->vendor, "nvidia") == NULL && strcasestr(g->name, "nvidia") == NULL &&
	       strcasestr(g->arch, "nvidia") == NULL && strcasestr(g->id, "nvidia") == NULL;
}

static void expect_rows(struct view_table *t, const char *expr, size_t want)
{
	char *cause = NULL;

	if (view_filter_set(t, expr, &cause) != 0) {
		print_error("%s: %s\n", expr, cause);
		fail();
	}
	if (t->n_shown != want) {
		print_error("%s: %zu rows, want %zu\n", expr, t->n_shown, want);
		fail();
	}
}

static void test_columns_compared(void **state)
{
	struct view_table *t = table("training", I18N_EN);

	(void)state;
	cur = t;
	expect_rows(t, "mem>=141", count(mem_80));
	assert_true(count(mem_80) < t->n_rows); /* the test says something */
	expect_rows(t, "memory>=141", count(mem_80));
	expect_rows(t, "type=hbm3e", count(hbm3e));
	assert_true(count(hbm3e) > 0);
	expect_rows(t, "type!=hbm3e", t->n_rows - count(hbm3e));
	/* US$ per GPU-hour: 3 is 300 cents; the unpriced GPU matches no comparison */
	expect_rows(t, "price<3", count(under_3));
	expect_rows(t, "price<$3.00", count(under_3));
	expect_rows(t, "mem>=141 vendor=amd", count(amd_80));
	expect_rows(t, "mem>=141 amd", count(amd_80));
	/* not published matches nothing: B300 and B200 drop out */
	expect_rows(t, "bw>3000", count(bw_known_over_3000));
	assert_false(shown(t, "b300"));
	view_free(&t);
}

static void test_words_and_alternatives(void **state)
{
	struct view_table *t = table("training", I18N_EN);

	(void)state;
	cur = t;
	expect_rows(t, "h100|a100", 4);
	assert_true(shown(t, "h100-sxm") && shown(t, "h100-nvl") && shown(t, "a100-sxm") &&
		    shown(t, "a100-pcie"));
	expect_rows(t, "hopper", 3);
	expect_rows(t, "!nvidia", count(not_nvidia));
	expect_rows(t, "hbm3e", count(hbm3e));   /* a text column's value */
	expect_rows(t, "vendor=amd|nvidia", t->n_rows);
	expect_rows(t, "vendor!=amd", t->n_rows - count(amd_any));
	expect_rows(t, "arch=hopper", 3);
	expect_rows(t, "gpu=h200", 1);
	expect_rows(t, "", t->n_rows);
	view_free(&t);
	/* a yes/no column (HPC: ECC) */
	t = table("hpc", I18N_EN);
	cur = t;
	expect_rows(t, "ecc=yes", count(ecc));
	assert_true(count(ecc) > 0);
	expect_rows(t, "ecc=no", t->n_rows - count(ecc));
	view_free(&t);
}

static void test_language_decimals(void **state)
{
	struct view_table *t = table("training", I18N_PT_PT);

	(void)state;
	cur = t;
	/* 3,5 in pt-PT is 3.5: 350 cents */
	expect_rows(t, "price<3,5", count(under_3_5));
	expect_rows(t, "price<3.5", count(under_3_5));
	view_free(&t);
}

static void expect_error(struct view_table *t, const char *expr, const char *words)
{
	char *cause = NULL;
	size_t before = t->n_shown;

	assert_int_equal(view_filter_set(t, expr, &cause), -1);
	assert_non_null(cause);
	if (strstr(cause, words) == NULL) {
		print_error("%s: [%s] lacks [%s]\n", expr, cause, words);
		fail();
	}
	assert_int_equal(t->n_shown, before); /* the filter it had */
	free(cause);
}

static void test_errors_in_words(void **state)
{
	struct view_table *t = table("training", I18N_EN);

	(void)state;
	expect_rows(t, "hopper", 3);
	expect_error(t, "colour=red", "this table has no column \u201ccolour\u201d (its columns: memory");
	expect_error(t, "mem>=eighty", "\u201ceighty\u201d is not a number");
	expect_error(t, "type<3", "memory_type is text, so = (contains) or != (does not) compare it");
	expect_error(t, "mem>=", "a value after >=");
	expect_error(t, ">=80", "a column before >=");
	assert_string_equal(t->filter, "hopper");
	view_free(&t);
	/* in the table's language */
	t = table("training", I18N_DE);
	char *cause = NULL;
	assert_int_equal(view_filter_set(t, "mem>=acht", &cause), -1);
	assert_null(strstr(cause, "is not a number"));
	free(cause);
	view_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns_compared),
		cmocka_unit_test(test_words_and_alternatives),
		cmocka_unit_test(test_language_decimals),
		cmocka_unit_test(test_errors_in_words),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
