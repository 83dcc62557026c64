/*
 * The market columns of the table model (view/view.h, view/market.c): bid,
 * spread, last, 24 h change and sparkline, on the embedded catalogue. They
 * join a table only when asked; an update marks exactly the cells whose
 * value moved; the change says up and down in signs (▲/▼ and +/−, ASCII
 * + and -), not only in colour; a sort by the sparkline is a sort by the
 * change.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static const struct view_cell *cell(const struct view_table *t, const char *gpu, const char *col)
{
	int k = view_column_index(t, col);

	assert_true(k >= 0);
	for (size_t i = 0; i < t->n_rows; i++)
		if (strcmp(t->rows[i].gpu->id, gpu) == 0)
			return &t->rows[i].cells[k];
	fail_msg("no row %s", gpu);
	return NULL;
}

static const struct view_price asks[] = { { "h200", 419, {0} }, { "a100-sxm", 179, {0} } };

static struct view_table *market_table(enum i18n_lang lang, bool ascii)
{
	struct view_prices p = { asks, 2, false };
	struct view_table *t = view_new(cat, catalog_workload(cat, "training"), &p, NULL, lang, ascii);

	view_add_market(t);
	return t;
}

/* Without view_add_market a table has none of them (`gpux table`); with it,
 * the five follow the workload's columns, unknown ("—") until figures come. */
static void test_columns_only_when_asked(void **state)
{
	struct view_prices p = { asks, 2, false };
	struct view_table *t = view_new(cat, catalog_workload(cat, "training"), &p, NULL, I18N_EN,
					false);
	size_t n = t->n_columns;

	(void)state;
	assert_int_equal(view_column_index(t, "spark_24h"), -1);
	assert_int_equal(view_column_index(t, "bid"), -1);
	view_add_market(t);
	view_add_market(t); /* once */
	assert_int_equal(t->n_columns, n + 5);
	assert_int_equal(view_column_index(t, "bid"), (int)n);
	assert_int_equal(view_column_index(t, "spark_24h"), (int)n + 4);
	assert_string_equal(t->columns[n].label, "Bid/h");
	assert_string_equal(cell(t, "h200", "bid")->display, "\u2014");
	assert_string_equal(cell(t, "h200", "spark_24h")->display, "\u2014");
	/* the asks are kept */
	assert_string_equal(cell(t, "h200", "price")->display, "$4.19");
	view_free(&t);
}

/* Bid, spread (ask − bid), last; the change with ▲/▼ and a sign. */
static void test_figures_and_signs(void **state)
{
	struct view_table *t = market_table(I18N_EN, false);
	const struct view_quote q[] = {
		{ "h200", 405, 419, true, 123, "\u2581\u2588" },
		{ "a100-sxm", -1, 180, true, -40, NULL },
	};
	struct view_market m = { q, 2 };

	(void)state;
	assert_int_equal(view_set_market(t, &m), 7); /* h200: all 5; a100: last and 24 h % */
	assert_string_equal(cell(t, "h200", "bid")->display, "$4.05");
	assert_string_equal(cell(t, "h200", "spread")->display, "$0.14");
	assert_string_equal(cell(t, "h200", "last")->display, "$4.19");
	assert_string_equal(cell(t, "h200", "change_24h")->display, "\u25b2 +1.23%");
	assert_string_equal(cell(t, "h200", "spark_24h")->display, "\u2581\u2588");
	assert_string_equal(cell(t, "a100-sxm", "change_24h")->display, "\u25bc \u22120.40%");
	/* no bid: no spread */
	assert_true(cell(t, "a100-sxm", "spread")->flags & VIEW_CELL_UNKNOWN);
	assert_true(cell(t, "a100-sxm", "bid")->flags & VIEW_CELL_UNKNOWN);
	view_free(&t);
}

/* The same figures again change nothing; a new bid changes the bid and the
 * spread of that GPU only, marked up or down. */
static void test_only_changed_cells_marked(void **state)
{
	struct view_table *t = market_table(I18N_EN, false);
	struct view_quote q[] = {
		{ "h200", 405, 419, true, 123, "ab" },
		{ "a100-sxm", 170, 180, true, -40, "cd" },
	};
	struct view_market m = { q, 2 };
	struct view_prices p = { asks, 2, false };
	struct view_price up[] = { { "h200", 425, {0} }, { "a100-sxm", 179, {0} } };
	struct view_prices pu = { up, 2, false };

	(void)state;
	view_set_market(t, &m);
	assert_int_equal(view_set_market(t, &m), 0);
	assert_false(cell(t, "h200", "bid")->flags & VIEW_CELL_CHANGED);
	q[0].bid_cents = 410;
	assert_int_equal(view_set_market(t, &m), 2);
	assert_true(cell(t, "h200", "bid")->flags & VIEW_CELL_CHANGED);
	assert_true(cell(t, "h200", "bid")->flags & VIEW_CELL_UP);
	assert_true(cell(t, "h200", "spread")->flags & VIEW_CELL_DOWN);
	assert_false(cell(t, "h200", "last")->flags & VIEW_CELL_CHANGED);
	assert_false(cell(t, "a100-sxm", "bid")->flags & VIEW_CELL_CHANGED);
	assert_string_equal(cell(t, "h200", "spread")->display, "$0.09");
	/* a new ask moves the spread too */
	view_set_prices(t, &pu);
	assert_string_equal(cell(t, "h200", "spread")->display, "$0.15");
	assert_true(cell(t, "h200", "spread")->flags & VIEW_CELL_CHANGED);
	assert_false(cell(t, "a100-sxm", "spread")->flags & VIEW_CELL_CHANGED);
	view_set_prices(t, &p);
	view_free(&t);
}

/* ASCII: + and - instead of the triangles; pt-PT: a decimal comma. */
static void test_ascii_and_language(void **state)
{
	struct view_table *t = market_table(I18N_EN, true);
	const struct view_quote q[] = { { "h200", 405, 419, true, -250, "..##" } };
	struct view_market m = { q, 1 };

	(void)state;
	view_set_market(t, &m);
	assert_string_equal(cell(t, "h200", "change_24h")->display, "-2.50%");
	assert_string_equal(cell(t, "h200", "bid")->display, "$4.05");
	view_free(&t);
	t = market_table(I18N_PT_PT, false);
	view_set_market(t, &m);
	assert_string_equal(cell(t, "h200", "change_24h")->display, "\u25bc \u22122,50 %");
	view_free(&t);
}

/* Sorting by the sparkline sorts by the change; GPUs without history last. */
static void test_sort_by_sparkline(void **state)
{
	struct view_table *t = market_table(I18N_EN, false);
	const struct view_quote q[] = {
		{ "h200", 405, 419, true, 123, "x" },
		{ "a100-sxm", 170, 180, true, -40, "y" },
		{ "b200", -1, -1, true, 500, "z" },
	};
	struct view_market m = { q, 3 };

	(void)state;
	view_set_market(t, &m);
	view_sort(t, view_column_index(t, "spark_24h"), false);
	assert_string_equal(view_shown_row(t, 0)->gpu->id, "a100-sxm");
	assert_string_equal(view_shown_row(t, 1)->gpu->id, "h200");
	assert_string_equal(view_shown_row(t, 2)->gpu->id, "b200");
	view_sort(t, view_column_index(t, "spark_24h"), true);
	assert_string_equal(view_shown_row(t, 0)->gpu->id, "b200");
	assert_true(view_shown_row(t, t->n_shown - 1)->spark == NULL);
	/* a job rebuilds the columns: the market figures stay */
	struct fit_job job;
	fit_job_defaults(&job);
	view_job_use_preset(&job, &cat->models[0]);
	view_set_job(t, &job);
	assert_string_equal(cell(t, "h200", "bid")->display, "$4.05");
	assert_string_equal(cell(t, "h200", "spark_24h")->display, "x");
	view_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns_only_when_asked),
		cmocka_unit_test(test_figures_and_signs),
		cmocka_unit_test(test_only_changed_cells_marked),
		cmocka_unit_test(test_ascii_and_language),
		cmocka_unit_test(test_sort_by_sparkline),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
