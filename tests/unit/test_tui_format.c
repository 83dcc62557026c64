/*
 * The browse table's row formatter (tui_format_cell) on the real catalogue
 * and view/, without a terminal: which text and colour role every kind of
 * cell gets, and a whole row and header laid out by the table widget at a
 * given width — what the user sees, cell by cell.
 */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "data/catalog.h"
#include "fit/fit.h"
#include "tui/tui.h"
#include "util/util.h"
#include "view/view.h"
#include "widgets/widgets.h"

static struct catalog *CAT;
static struct wui UI;

static const struct view_price PRICES[] = {
	{ "b300", 899, {0} }, { "b200", 799, {0} }, { "h200", 419, {0} }, { "h100-sxm", 288, {0} },
	{ "rtx-4090", 39, {0} },
};

static struct view_table *table_of(const char *workload, bool stale)
{
	struct view_prices p = { PRICES, sizeof PRICES / sizeof PRICES[0], stale };
	return view_new(CAT, catalog_workload(CAT, workload), &p, NULL, I18N_EN, false);
}

/* The cells of (row of gpu, column id) with flash f. */
static void cell_of(struct view_table *v, const char *gpu, const char *col, int f,
		    struct wcells *out)
{
	int r = view_find(v, gpu), c = view_column_index(v, col);
	assert_true(r >= 0);
	assert_true(c >= 0);
	wcells_reset(out);
	tui_format_cell(v, (size_t)r, (size_t)c, f, out);
}

static void assert_text(const struct wcells *c, const char *want)
{
	char *s = wcells_text(c);
	assert_string_equal(s, want);
	free(s);
}

static void assert_all_role(const struct wcells *c, enum wrole r)
{
	assert_true(c->len > 0);
	for (size_t i = 0; i < c->len; i++)
		assert_int_equal(c->cell[i].role, r);
}

static void test_cells_and_roles(void **state)
{
	(void)state;
	struct view_table *v = table_of("training", false);
	struct wcells c;

	wcells_init(&c, false);
	/* the GPU column: name, then the architecture dimmed (seeds: "B300Blackwell Ultra") */
	cell_of(v, "b300", "gpu", 0, &c);
	assert_text(&c, "B300 Blackwell Ultra");
	assert_int_equal(c.cell[0].role, WR_NORMAL);
	assert_int_equal(c.cell[c.len - 1].role, WR_DIM);
	/* "Not published" (seeds: B300 bandwidth and BF16) is dim */
	cell_of(v, "b300", "bf16", 0, &c);
	assert_text(&c, "Not published");
	assert_all_role(&c, WR_DIM);
	/* a published figure is normal */
	cell_of(v, "h200", "bandwidth", 0, &c);
	assert_text(&c, "4,800 GB/s");
	assert_all_role(&c, WR_NORMAL);
	/* the price, and its flash roles */
	cell_of(v, "h200", "price", 0, &c);
	assert_text(&c, "$4.19");
	assert_all_role(&c, WR_NORMAL);
	cell_of(v, "h200", "price", 1, &c);
	assert_all_role(&c, WR_FLASH_UP);
	cell_of(v, "h200", "price", -1, &c);
	assert_all_role(&c, WR_FLASH_DOWN);
	cell_of(v, "h200", "price", 2, &c);
	assert_all_role(&c, WR_FLASH);
	/* no ask: dim */
	cell_of(v, "mi300x", "price", 0, &c);
	assert_all_role(&c, WR_DIM);
	view_free(&v);

	/* stale prices are dim and never flash */
	v = table_of("training", true);
	cell_of(v, "h200", "price", 1, &c);
	assert_text(&c, "$4.19");
	assert_all_role(&c, WR_DIM);
	view_free(&v);
	wcells_free(&c);
}

static void test_job_roles(void **state)
{
	(void)state;
	struct view_table *v = table_of("finetune", false);
	struct fit_job job;
	struct wcells c;
	char *cause = NULL;

	/* issue 6: 70B with QLoRA fits one H200 and not one RTX 4090 */
	fit_job_defaults(&job);
	assert_int_equal(fit_model_from_size(70, &job.model, &cause), 0);
	job.method = FIT_QLORA;
	job.gpus = 1;
	view_set_job(v, &job);
	wcells_init(&c, false);
	cell_of(v, "h200", "job_fits", 0, &c);
	assert_text(&c, "\u2713");
	assert_all_role(&c, WR_GOOD);
	cell_of(v, "rtx-4090", "job_fits", 0, &c);
	assert_text(&c, "\u2717");
	/* the row cannot take the job: every cell of it is dim */
	assert_all_role(&c, WR_DIM);
	cell_of(v, "rtx-4090", "memory", 0, &c);
	assert_all_role(&c, WR_DIM);
	wcells_free(&c);
	view_free(&v);
}

/* ---- a row through the table widget ------------------------------------------------ */

static struct view_table *V;

static size_t s_rows(void *ctx) { (void)ctx; return V->n_shown; }
static size_t s_cols(void *ctx) { (void)ctx; return V->n_columns; }
static void s_header(void *ctx, size_t c, struct wcells *out)
{
	(void)ctx;
	wcells_add(out, V->columns[c].label, WR_HEADER, 0);
}
static void s_cell(void *ctx, size_t r, size_t c, struct wcells *out)
{
	(void)ctx;
	tui_format_cell(V, r, c, 0, out);
}
static enum walign s_align(void *ctx, size_t c)
{
	(void)ctx;
	return V->columns[c].align == VIEW_RIGHT ? WALIGN_RIGHT : WALIGN_LEFT;
}

static void test_row_in_table(void **state)
{
	(void)state;
	struct wtable_source src = { .rows = s_rows, .cols = s_cols, .header = s_header,
				     .cell = s_cell, .align = s_align };
	struct wtable *t;
	struct wcells line;
	char *s;

	V = table_of("training", false);
	t = wtable_new(&UI, &src);
	wcells_init(&line, false);
	/* 80 columns: GPU and the first columns, › for the hidden ones */
	wtable_render_line(t, SIZE_MAX, 80, &line);
	s = wcells_text(&line);
	assert_true(strncmp(s, "GPU ", 4) == 0);
	assert_non_null(strstr(s, "Memory"));
	assert_null(strstr(s, "Price/h"));
	assert_string_equal(s + strlen(s) - 3, "\u203A");
	free(s);
	/* scrolled to the end: the GPU column stays, the price shows */
	t->base.w = 80;
	for (int i = 0; i < 8; i++)
		wtable_do(t, WTABLE_RIGHT);
	wtable_render_line(t, SIZE_MAX, 80, &line);
	s = wcells_text(&line);
	assert_true(strncmp(s, "GPU ", 4) == 0);
	assert_non_null(strstr(s, "\u2039"));
	assert_non_null(strstr(s, "Price/h"));
	free(s);
	wtable_render_line(t, (size_t)view_find(V, "h200"), 80, &line);
	s = wcells_text(&line);
	assert_true(strncmp(s, "H200 Hopper", 11) == 0);
	assert_string_equal(s + strlen(s) - 5, "$4.19");
	assert_true(line.width <= 80);
	free(s);
	/* 20 columns (the smallest screen): the row is cut, never wider */
	wtable_render_line(t, 0, 20, &line);
	assert_true(line.width <= 20);
	wcells_free(&line);
	wtable_free(&t);
	view_free(&V);
}

int main(void)
{
	char *cause = NULL;

	setlocale(LC_CTYPE, "C.UTF-8");
	if (catalog_load(NULL, &CAT, &cause) != 0) {
		fprintf(stderr, "catalogue: %s\n", cause);
		return 1;
	}
	wui_init(&UI, &wtheme_color, false, false);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cells_and_roles),
		cmocka_unit_test(test_job_roles),
		cmocka_unit_test(test_row_in_table),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	catalog_free(&CAT);
	return rc;
}
