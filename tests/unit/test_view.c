/*
 * tests/unit/test_view.c — the table model (view/view.h), on the embedded
 * catalogue.
 *
 * 1. Row formatting of known GPUs in English and pt-PT: the pt-PT strings are
 *    the seed pages' own (../shared/seeds/000_7d2d0ce89a47add6.txt, training
 *    table: "4.800 GB/s", "989 TFLOPS", "1.307 TFLOPS", "≈ 7 mil M",
 *    "≈ 55 mil M", "Não publicado"; 002_f3322caf67fa1350.txt, fine-tuning).
 * 2. The 36 model-size cells of the two seed tables, raw and displayed.
 * 3. Sorting: ascending and descending, unpublished / unpriced last both
 *    ways, ties broken by GPU name in either direction, catalogue order back.
 * 4. Filter ("N of M shown"), find by id across sorts and filters.
 * 5. Prices: money display, changed/up/down flags, stale flag, re-sort.
 * 6. A fit job: "your model" columns, dimmed rows, the cheapest sort, the
 *    job set and cleared while sort and filter are kept.
 * 7. Text width in terminal columns, cutting.
 * 8. GPU names: no architecture after a name that says it, short forms.
 */
#include <math.h>
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
#include "fit/fit.h"
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

static struct view_table *table(const char *workload, enum i18n_lang lang)
{
	const struct catalog_workload *w = catalog_workload(cat, workload);

	assert_non_null(w);
	return view_new(cat, w, NULL, NULL, lang, false);
}

/* The cell of GPU gpu_id in column col_id (among all rows). */
static const struct view_cell *cell(const struct view_table *t, const char *gpu_id, const char *col_id)
{
	int col = view_column_index(t, col_id);
	size_t i;

	if (col < 0)
		fail_msg("no column %s", col_id);
	for (i = 0; i < t->n_rows; i++)
		if (strcmp(t->rows[i].gpu->id, gpu_id) == 0)
			return &t->rows[i].cells[col];
	fail_msg("no row %s", gpu_id);
	return NULL;
}

/* The GPU ids of the shown rows, space-separated. */
static char *order(const struct view_table *t)
{
	struct buf b = {0};
	size_t i;

	for (i = 0; i < t->n_shown; i++)
		buf_printf(&b, "%s%s", i > 0 ? " " : "", view_shown_row(t, i)->gpu->id);
	return buf_take(&b);
}

#define assert_order(t, want)                                \
	do {                                                 \
		char *got_ = order(t);                       \
		assert_string_equal(got_, (want));           \
		free(got_);                                  \
	} while (0)

/* ---- 1. formatting ------------------------------------------------------------ */

static void test_columns_training(void **state)
{
	struct view_table *t = table("training", I18N_EN);
	static const char *const ids[] = {"gpu", "memory", "memory_type", "bandwidth", "bf16",
					  "fit_full_1", "fit_full_8", "price"};
	size_t k;

	(void)state;
	assert_int_equal(t->n_columns, 8);
	for (k = 0; k < 8; k++)
		assert_string_equal(t->columns[k].id, ids[k]);
	assert_int_equal(t->columns[0].kind, VIEW_COL_GPU);
	assert_false(t->columns[0].numeric);
	assert_int_equal(t->columns[2].align, VIEW_LEFT);   /* memory type: text */
	assert_true(t->columns[3].numeric);
	assert_int_equal(t->columns[3].align, VIEW_RIGHT);
	assert_int_equal(t->columns[7].kind, VIEW_COL_PRICE);
	assert_string_equal(t->columns[1].label, "Memory");
	/* seed row order: B300 first, A100 PCIe last */
	assert_int_equal(t->n_rows, 9);
	assert_int_equal(t->n_shown, 9);
	assert_order(t, "b300 b200 mi325x mi300x h200 h100-nvl h100-sxm a100-sxm a100-pcie");
	view_free(&t);
	assert_null(t);
}

/* The GPU column's architecture and the names' short forms (the catalogue's
 * names: "RTX PRO 6000 Blackwell", "RTX 6000 Ada", arch "Ada Lovelace"). */
static void test_gpu_names(void **state)
{
	struct view_table *t = table("finetune", I18N_EN);
	const struct catalog_gpu *pro = catalog_gpu(cat, "rtx-pro-6000");
	const struct catalog_gpu *ada = catalog_gpu(cat, "rtx-6000-ada");
	const struct catalog_gpu *h200 = catalog_gpu(cat, "h200");
	const struct catalog_gpu *b300 = catalog_gpu(cat, "b300");
	char *d;

	(void)state;
	/* the name says the architecture already: not twice */
	assert_string_equal(cell(t, "rtx-pro-6000", "gpu")->display, "RTX PRO 6000 Blackwell");
	assert_null(cell(t, "rtx-pro-6000", "gpu")->detail);
	assert_null(cell(t, "rtx-6000-ada", "gpu")->detail);
	assert_string_equal(cell(t, "rtx-4090", "gpu")->detail, "Ada Lovelace");
	assert_string_equal(cell(t, "rtx-5090", "gpu")->detail, "Blackwell");
	d = view_gpu_detail(b300);
	assert_string_equal(d, "Blackwell Ultra");
	free(d);
	/* short forms: the name without the architecture's words, and "…" */
	assert_int_equal(view_gpu_short_width(pro), strlen("RTX PRO 6000") + 1);
	assert_int_equal(view_gpu_short_width(ada), strlen("RTX 6000") + 1);
	assert_int_equal(view_gpu_short_width(h200), strlen("H200"));
	assert_int_equal(view_gpu_short_width(b300), strlen("B300"));
	view_free(&t);
}

static void test_format_en(void **state)
{
	struct view_table *t = table("training", I18N_EN);
	const struct view_cell *c;

	(void)state;
	c = cell(t, "h200", "gpu");
	assert_string_equal(c->display, "H200");
	assert_string_equal(c->detail, "Hopper");
	assert_string_equal(cell(t, "h200", "memory")->display, "141 GB");
	assert_true(cell(t, "h200", "memory")->number == 141);
	assert_string_equal(cell(t, "h200", "memory_type")->display, "HBM3e");
	assert_int_equal(cell(t, "h200", "memory_type")->raw, VIEW_RAW_TEXT);
	assert_string_equal(cell(t, "h200", "bandwidth")->display, "4,800 GB/s");
	assert_string_equal(cell(t, "h200", "bf16")->display, "989 TFLOPS");
	assert_string_equal(cell(t, "mi325x", "bf16")->display, "1,307 TFLOPS");
	assert_string_equal(cell(t, "h200", "fit_full_1")->display, "\u2248 7B");
	assert_string_equal(cell(t, "h200", "fit_full_8")->display, "\u2248 55B");
	c = cell(t, "b300", "bandwidth");
	assert_string_equal(c->display, "Not published");
	assert_int_equal(c->raw, VIEW_RAW_NONE);
	assert_true(c->flags & VIEW_CELL_UNKNOWN);
	/* no prices yet: a dash, unknown */
	c = cell(t, "h200", "price");
	assert_string_equal(c->display, "\u2014");
	assert_true(c->flags & VIEW_CELL_UNKNOWN);
	assert_int_equal(c->raw, VIEW_RAW_NONE);
	view_free(&t);
}

/* The seed page's strings, 000_7d2d0ce89a47add6.txt */
static void test_format_pt(void **state)
{
	struct view_table *t = table("training", I18N_PT_PT);

	(void)state;
	assert_string_equal(t->columns[3].label, "Largura de banda");
	assert_string_equal(t->columns[4].label, "Tensor BF16");
	assert_string_equal(t->columns[5].label, "Treino completo, 1 GPU");
	assert_string_equal(cell(t, "h200", "memory")->display, "141 GB");
	assert_string_equal(cell(t, "h200", "bandwidth")->display, "4.800 GB/s");
	assert_string_equal(cell(t, "h200", "bf16")->display, "989 TFLOPS");
	assert_string_equal(cell(t, "mi325x", "bf16")->display, "1.307 TFLOPS");
	assert_string_equal(cell(t, "mi325x", "bandwidth")->display, "6.000 GB/s");
	assert_string_equal(cell(t, "a100-sxm", "bandwidth")->display, "2.039 GB/s");
	assert_string_equal(cell(t, "h200", "fit_full_1")->display, "\u2248 7 mil M");
	assert_string_equal(cell(t, "h200", "fit_full_8")->display, "\u2248 55 mil M");
	assert_string_equal(cell(t, "b300", "fit_full_1")->display, "\u2248 10 mil M");
	assert_string_equal(cell(t, "b300", "fit_full_8")->display, "\u2248 110 mil M");
	assert_string_equal(cell(t, "b300", "bandwidth")->display, "N\u00e3o publicado");
	assert_string_equal(cell(t, "b200", "bf16")->display, "N\u00e3o publicado");
	/* widths are terminal columns: "Não publicado" is 13 columns, 14 bytes */
	assert_int_equal(t->columns[3].width, 16); /* "Largura de banda" */
	assert_int_equal(t->columns[4].width, 13); /* "Não publicado" */
	view_free(&t);

	t = table("finetune", I18N_PT_PT);
	assert_string_equal(cell(t, "rtx-4090", "bandwidth")->display, "1.008 GB/s");
	assert_string_equal(cell(t, "rtx-4090", "fit_qlora_1")->display, "\u2248 15 mil M");
	assert_string_equal(cell(t, "h200", "fit_lora_1")->display, "\u2248 45 mil M");
	view_free(&t);
}

static void test_format_ascii(void **state)
{
	const struct catalog_workload *w = catalog_workload(cat, "training");
	struct view_table *t = view_new(cat, w, NULL, NULL, I18N_EN, true);

	(void)state;
	assert_string_equal(cell(t, "h200", "fit_full_1")->display, "~ 7B");
	assert_string_equal(cell(t, "h200", "price")->display, "-");
	view_free(&t);
}

/* ---- 2. the 36 seed cells ---------------------------------------------------------- */

struct seed_cell {
	const char *gpu;
	long a, b;
};

/* 000_7d2d0ce89a47add6.txt: "Treino completo, 1 GPU" / "Treino completo, 8 GPU" */
static const struct seed_cell training_cells[] = {
	{"b300", 10, 110}, {"b200", 9, 70}, {"mi325x", 10, 100}, {"mi300x", 9, 75},
	{"h200", 7, 55}, {"h100-nvl", 4, 35}, {"h100-sxm", 4, 30}, {"a100-sxm", 4, 30},
	{"a100-pcie", 4, 30},
};
/* 002_f3322caf67fa1350.txt: "QLoRA, modelo base" / "LoRA 16 bits, modelo base" */
static const struct seed_cell finetune_cells[] = {
	{"rtx-4090", 15, 7}, {"rtx-5090", 25, 10}, {"rtx-a6000", 35, 15}, {"l40s", 35, 15},
	{"rtx-6000-ada", 35, 15}, {"a100-sxm", 60, 25}, {"h100-sxm", 60, 25},
	{"rtx-pro-6000", 75, 30}, {"h200", 110, 45},
};

static void check_seed(const char *workload, const char *col_a, const char *col_b,
		       const struct seed_cell *cells, size_t n)
{
	struct view_table *t = table(workload, I18N_PT_PT);
	size_t i;

	assert_int_equal(t->n_rows, n);
	for (i = 0; i < n; i++) {
		const struct view_cell *a = cell(t, cells[i].gpu, col_a);
		const struct view_cell *b = cell(t, cells[i].gpu, col_b);
		char *want_a = xasprintf("\u2248 %ld mil M", cells[i].a);
		char *want_b = xasprintf("\u2248 %ld mil M", cells[i].b);

		assert_int_equal(t->rows[i].gpu == catalog_gpu(cat, cells[i].gpu), 1); /* seed order */
		assert_int_equal(a->raw, VIEW_RAW_NUMBER);
		assert_true(a->number == (double)cells[i].a);
		assert_true(b->number == (double)cells[i].b);
		assert_string_equal(a->display, want_a);
		assert_string_equal(b->display, want_b);
		free(want_a);
		free(want_b);
	}
	view_free(&t);
}

static void test_seed_cells(void **state)
{
	(void)state;
	check_seed("training", "fit_full_1", "fit_full_8", training_cells,
		   sizeof training_cells / sizeof training_cells[0]);
	check_seed("finetune", "fit_qlora_1", "fit_lora_1", finetune_cells,
		   sizeof finetune_cells / sizeof finetune_cells[0]);
}

/* ---- 3. sorting ---------------------------------------------------------------------- */

static void test_sort_unknown_last(void **state)
{
	struct view_table *t = table("training", I18N_EN);
	int bw = view_column_index(t, "bandwidth");

	(void)state;
	/* B300/B200 bandwidth is "Não publicado" in the seeds: last both ways,
	 * between themselves by name (B200 before B300) */
	view_sort(t, bw, false);
	assert_order(t, "a100-pcie a100-sxm h100-sxm h100-nvl h200 mi300x mi325x b200 b300");
	view_sort(t, bw, true);
	assert_order(t, "mi325x mi300x h200 h100-nvl h100-sxm a100-sxm a100-pcie b200 b300");
	view_sort(t, view_column_index(t, "bf16"), true);
	/* 1307 (MI325X, MI300X: tie by name), 989 (H100 SXM, H200), 835, 312 x2 */
	assert_order(t, "mi300x mi325x h100-sxm h200 h100-nvl a100-pcie a100-sxm b200 b300");
	view_free(&t);
}

static void test_sort_ties_stable(void **state)
{
	struct view_table *t = table("training", I18N_EN);
	int mem = view_column_index(t, "memory");

	(void)state;
	/* three 80 GB GPUs: by name in either direction */
	view_sort(t, mem, false);
	assert_order(t, "a100-pcie a100-sxm h100-sxm h100-nvl h200 b200 mi300x mi325x b300");
	view_sort(t, mem, true);
	assert_order(t, "b300 mi325x mi300x b200 h200 h100-nvl a100-pcie a100-sxm h100-sxm");
	/* the same sort twice gives the same order, whatever the order before */
	view_sort(t, view_column_index(t, "gpu"), true);
	view_sort(t, mem, true);
	assert_order(t, "b300 mi325x mi300x b200 h200 h100-nvl a100-pcie a100-sxm h100-sxm");
	/* text column */
	view_sort(t, view_column_index(t, "memory_type"), false);
	assert_order(t, "a100-pcie a100-sxm h100-nvl h100-sxm mi300x b200 b300 h200 mi325x");
	/* GPU column: by name */
	view_sort(t, 0, false);
	assert_order(t, "a100-pcie a100-sxm b200 b300 h100-nvl h100-sxm h200 mi300x mi325x");
	/* -1: the catalogue's (seed) order again */
	view_sort(t, -1, false);
	assert_order(t, "b300 b200 mi325x mi300x h200 h100-nvl h100-sxm a100-sxm a100-pcie");
	assert_int_equal(t->sort_col, -1);
	view_free(&t);
}

static void test_sort_capacity(void **state)
{
	struct view_table *t = table("finetune", I18N_EN);

	(void)state;
	view_sort(t, view_column_index(t, "fit_qlora_1"), true);
	/* 110, 75, 60 x2 (A100 SXM, H100 SXM), 35 x3 (L40S, RTX 6000 Ada, RTX A6000), 25, 15 */
	assert_order(t, "h200 rtx-pro-6000 a100-sxm h100-sxm l40s rtx-6000-ada rtx-a6000 rtx-5090 rtx-4090");
	view_free(&t);
}

/* ---- 4. filter and find ----------------------------------------------------------------- */

static void test_filter(void **state)
{
	struct view_table *t = table("training", I18N_EN);
	char *n;

	(void)state;
	view_filter(t, "hopper"); /* architecture, any case */
	assert_order(t, "h200 h100-nvl h100-sxm");
	n = view_count_text(t);
	assert_string_equal(n, "3 of 9 shown");
	free(n);
	assert_true(t->rows[0].flags & VIEW_ROW_HIDDEN); /* b300 */
	view_filter(t, "amd"); /* vendor */
	assert_order(t, "mi325x mi300x");
	view_filter(t, "SXM"); /* name */
	assert_order(t, "h100-sxm a100-sxm");
	view_filter(t, "zzz");
	assert_int_equal(t->n_shown, 0);
	assert_null(view_shown_row(t, 0));
	view_filter(t, "");
	assert_int_equal(t->n_shown, 9);
	view_filter(t, "h100");
	/* a sort keeps the filter */
	view_sort(t, view_column_index(t, "memory"), false);
	assert_order(t, "h100-sxm h100-nvl");
	view_filter(t, NULL);
	assert_int_equal(t->n_shown, 9);
	view_free(&t);

	t = table("training", I18N_PT_PT);
	view_filter(t, "cdna");
	n = view_count_text(t);
	assert_string_equal(n, "2 de 9 vis\u00edveis");
	free(n);
	view_free(&t);
}

static void test_find(void **state)
{
	struct view_table *t = table("training", I18N_EN);

	(void)state;
	assert_int_equal(view_find(t, "b300"), 0);
	assert_int_equal(view_find(t, "a100-pcie"), 8);
	assert_int_equal(view_find(t, "rtx-4090"), -1); /* not in this table */
	assert_int_equal(view_find(t, NULL), -1);
	view_sort(t, view_column_index(t, "memory"), false);
	assert_int_equal(view_find(t, "b300"), 8);
	assert_int_equal(view_find(t, "a100-pcie"), 0);
	view_filter(t, "hopper");
	assert_int_equal(view_find(t, "h200"), 2);
	assert_int_equal(view_find(t, "b300"), -1); /* filtered out */
	assert_string_equal(view_shown_row(t, (size_t)view_find(t, "h200"))->gpu->id, "h200");
	view_free(&t);
}

/* ---- 5. prices ------------------------------------------------------------------------------- */

/* The seeds' "a partir de" prices, as the demo market opens */
static struct view_price seed_prices[] = {
	{ "b300", 899, {0} }, { "b200", 799, {0} }, { "mi325x", 482, {0} }, { "mi300x", 416, {0} }, { "h200", 419, {0} },
	{ "h100-nvl", 319, {0} }, { "h100-sxm", 288, {0} }, { "a100-sxm", 179, {0} },
	/* a100-pcie: no ask */
};

static void test_prices(void **state)
{
	const struct catalog_workload *w = catalog_workload(cat, "training");
	struct view_prices p = {seed_prices, sizeof seed_prices / sizeof seed_prices[0], false};
	struct view_table *t = view_new(cat, w, &p, NULL, I18N_PT_PT, false);
	int price = view_column_index(t, "price");
	const struct view_cell *c;
	struct view_price moved[] = {{ "h200", 450, {0} }, { "h100-sxm", 250, {0} }, { "a100-pcie", 150, {0} }};
	struct view_prices p2 = {moved, 3, true};

	(void)state;
	c = cell(t, "h200", "price");
	assert_string_equal(c->display, "US$ 4,19");
	assert_int_equal(c->raw, VIEW_RAW_CENTS);
	assert_int_equal(c->cents, 419);
	assert_false(c->flags & VIEW_CELL_STALE);
	assert_true(cell(t, "a100-pcie", "price")->flags & VIEW_CELL_UNKNOWN);

	/* price ascending and descending: the GPU without an ask is last both ways */
	view_sort(t, price, false);
	assert_order(t, "a100-sxm h100-sxm h100-nvl mi300x h200 mi325x b200 b300 a100-pcie");
	view_sort(t, price, true);
	assert_order(t, "b300 b200 mi325x h200 mi300x h100-nvl h100-sxm a100-sxm a100-pcie");

	/* an update: changed cells flagged, the sort re-applied, stale marked */
	assert_int_equal(view_set_prices(t, &p2), 9); /* 3 moved + 6 asks gone */
	c = cell(t, "h200", "price");
	assert_string_equal(c->display, "US$ 4,50");
	assert_true(c->flags & VIEW_CELL_CHANGED);
	assert_true(c->flags & VIEW_CELL_UP);
	assert_true(c->flags & VIEW_CELL_STALE);
	assert_true(cell(t, "h100-sxm", "price")->flags & VIEW_CELL_DOWN);
	assert_true(cell(t, "b300", "price")->flags & VIEW_CELL_CHANGED);
	assert_true(cell(t, "b300", "price")->flags & VIEW_CELL_UNKNOWN);
	assert_order(t, "h200 h100-sxm a100-pcie a100-sxm b200 b300 h100-nvl mi300x mi325x");
	/* the same prices again: nothing changed */
	assert_int_equal(view_set_prices(t, &p2), 0);
	assert_false(cell(t, "h200", "price")->flags & VIEW_CELL_CHANGED);
	view_free(&t);
}

/* ---- 6. a fit job ---------------------------------------------------------------------------- */

static void qlora_70b(struct fit_job *job)
{
	char *cause = NULL;

	fit_job_defaults(job);
	job->method = FIT_QLORA;
	assert_int_equal(fit_model_from_size(70, &job->model, &cause), 0);
	assert_int_equal(fit_job_check(job, &cause), 0);
}

static void test_job(void **state)
{
	const struct catalog_workload *w = catalog_workload(cat, "finetune");
	struct view_prices p = {seed_prices, sizeof seed_prices / sizeof seed_prices[0], false};
	struct view_table *t;
	struct fit_job job;
	struct fit_result want;
	struct fit_gpu fg;
	const struct view_cell *c;

	(void)state;
	qlora_70b(&job);
	t = view_new(cat, w, &p, &job, I18N_EN, false);
	/* the job columns come right after the GPU column */
	assert_int_equal(t->n_columns, 6 + 5);
	assert_string_equal(t->columns[1].id, "job_mem_gb");
	assert_string_equal(t->columns[2].id, "job_avail_gb");
	assert_string_equal(t->columns[3].id, "job_fits");
	assert_string_equal(t->columns[4].id, "job_gpus");
	assert_string_equal(t->columns[5].id, "job_cost");
	assert_string_equal(t->columns[6].id, "memory");

	/* issue 6: 70B with QLoRA fits an H200 on one GPU, not an RTX 4090 */
	c = cell(t, "h200", "job_fits");
	assert_int_equal(c->raw, VIEW_RAW_BOOL);
	assert_true(c->flag);
	assert_string_equal(c->display, "\u2713");
	assert_true(c->flags & VIEW_CELL_FITS);
	c = cell(t, "rtx-4090", "job_fits");
	assert_false(c->flag);
	assert_string_equal(c->display, "\u2717");
	assert_true(c->flags & VIEW_CELL_NOFIT);
	assert_int_equal(t->rows[view_find(t, "rtx-4090")].flags & VIEW_ROW_DIMMED, VIEW_ROW_DIMMED);
	assert_int_equal(t->rows[view_find(t, "h200")].flags & VIEW_ROW_DIMMED, 0);

	/* the cells are fit_evaluate's numbers (one implementation) */
	view_fit_gpu(catalog_gpu(cat, "h200"), 419, &fg);
	fit_evaluate(&job, &fg, &want);
	c = cell(t, "h200", "job_mem_gb");
	assert_true(c->number == want.mem.total);
	assert_true(cell(t, "h200", "job_avail_gb")->number == 141);
	assert_string_equal(cell(t, "h200", "job_avail_gb")->display, "141 GB");
	assert_true(cell(t, "h200", "job_gpus")->number == want.gpus_needed);
	assert_int_equal(cell(t, "h200", "job_cost")->cents, 419);
	assert_int_equal(cell(t, "rtx-4090", "job_gpus")->number > 1, 1);

	/* cheapest GPU-hours for this job: priced runnable rows by job cost,
	 * then runnable without price, then the rest */
	view_sort_cheapest(t);
	{
		const struct view_row *prev = NULL;
		size_t i;
		for (i = 0; i < t->n_shown; i++) {
			const struct view_row *r = view_shown_row(t, i);
			if (prev != NULL && prev->job.hourly_cents >= 0 && r->job.hourly_cents >= 0)
				assert_true(prev->job.hourly_cents <= r->job.hourly_cents);
			if (prev != NULL && prev->job.hourly_cents < 0)
				assert_true(r->job.hourly_cents < 0);
			prev = r;
		}
	}
	/* seed prices: A100 SXM 1,79 < H100 SXM 2,88 < H200 4,19; the GeForce /
	 * workstation cards have no ask in seed_prices, so they follow */
	assert_string_equal(view_shown_row(t, 0)->gpu->id, "a100-sxm");
	assert_string_equal(view_shown_row(t, 1)->gpu->id, "h100-sxm");
	assert_string_equal(view_shown_row(t, 2)->gpu->id, "h200");
	view_free(&t);
}

static void test_job_set_clear(void **state)
{
	const struct catalog_workload *w = catalog_workload(cat, "finetune");
	struct view_table *t = view_new(cat, w, NULL, NULL, I18N_EN, false);
	struct fit_job job;

	(void)state;
	view_sort(t, view_column_index(t, "bandwidth"), true);
	view_filter(t, "ada");
	assert_order(t, "rtx-4090 rtx-6000-ada l40s");
	qlora_70b(&job);
	view_set_job(t, &job);
	assert_int_equal(t->n_columns, 11);
	/* sort (by id) and filter kept although the column moved */
	assert_string_equal(t->columns[t->sort_col].id, "bandwidth");
	assert_true(t->sort_desc);
	assert_order(t, "rtx-4090 rtx-6000-ada l40s");
	view_sort(t, view_column_index(t, "job_fits"), false);
	/* fits first (none of these Ada cards fits 70B QLoRA on one GPU: by name) */
	assert_order(t, "l40s rtx-4090 rtx-6000-ada");
	view_set_job(t, NULL);
	assert_int_equal(t->n_columns, 6);
	assert_int_equal(t->sort_col, -1); /* job_fits is gone */
	assert_int_equal(t->rows[0].flags & VIEW_ROW_DIMMED, 0);
	assert_order(t, "rtx-4090 l40s rtx-6000-ada");
	view_free(&t);
}

static void test_every_gpu(void **state)
{
	struct fit_job job;
	struct view_table *t;

	(void)state;
	qlora_70b(&job);
	t = view_new(cat, NULL, NULL, &job, I18N_EN, false);
	assert_int_equal(t->n_rows, cat->n_gpus);
	assert_int_equal(view_column_index(t, "gpu"), 0);
	assert_true(view_column_index(t, "price") > 0);
	view_sort(t, view_column_index(t, "job_avail_gb"), true);
	assert_string_equal(view_shown_row(t, 0)->gpu->id, "b300");
	view_free(&t);
}

static void test_inference_decode(void **state)
{
	struct view_table *t = table("inference", I18N_EN);
	const struct view_cell *c;

	(void)state;
	/* Llama 3.1 70B at INT4 (~35 GB + KV) does not fit a 24 GB RTX 4090 */
	c = cell(t, "rtx-4090", "decode_70b");
	assert_true(c->flags & VIEW_CELL_NOFIT);
	assert_true(c->flags & VIEW_CELL_UNKNOWN);
	/* B300 bandwidth not published: no estimate */
	assert_true(cell(t, "b300", "decode_8b")->flags & VIEW_CELL_UNKNOWN);
	/* an estimate is a positive number, faster on the faster memory */
	assert_int_equal(cell(t, "h200", "decode_8b")->raw, VIEW_RAW_NUMBER);
	assert_true(cell(t, "h200", "decode_8b")->number > cell(t, "a100-sxm", "decode_8b")->number);
	view_sort(t, view_column_index(t, "decode_70b"), true);
	/* unknowns (not published, does not fit) last */
	assert_true(view_shown_row(t, t->n_shown - 1)->cells[view_column_index(t, "decode_70b")].flags &
		    VIEW_CELL_UNKNOWN);
	assert_false(view_shown_row(t, 0)->cells[view_column_index(t, "decode_70b")].flags &
		     VIEW_CELL_UNKNOWN);
	view_free(&t);
}

/* ---- 7. text width -------------------------------------------------------------------------- */

static void test_text_width(void **state)
{
	char *s;

	(void)state;
	assert_int_equal(view_text_width(NULL), 0);
	assert_int_equal(view_text_width(""), 0);
	assert_int_equal(view_text_width("GPU"), 3);
	assert_int_equal(view_text_width("N\u00e3o publicado"), 13);
	assert_int_equal(view_text_width("\u2248 10 mil M"), 10);
	assert_int_equal(view_text_width("US$ 4,19"), 8);
	assert_int_equal(view_text_width("\u65e5\u672c"), 4);       /* wide CJK */
	assert_int_equal(view_text_width("e\u0301"), 1);            /* combining accent */
	assert_int_equal(view_text_width("\xff"), 1);               /* invalid byte */
	s = view_text_cut("Largura de banda", 8, false);
	assert_string_equal(s, "Largura\u2026");
	assert_int_equal(view_text_width(s), 8);
	free(s);
	s = view_text_cut("N\u00e3o publicado", 4, true);
	assert_string_equal(s, "N\u00e3o~");
	free(s);
	s = view_text_cut("\u65e5\u672c\u8a9e", 4, false); /* never half a wide char */
	assert_string_equal(s, "\u65e5\u2026");
	free(s);
	s = view_text_cut("short", 10, false);
	assert_string_equal(s, "short");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns_training),
		cmocka_unit_test(test_gpu_names),
		cmocka_unit_test(test_format_en),
		cmocka_unit_test(test_format_pt),
		cmocka_unit_test(test_format_ascii),
		cmocka_unit_test(test_seed_cells),
		cmocka_unit_test(test_sort_unknown_last),
		cmocka_unit_test(test_sort_ties_stable),
		cmocka_unit_test(test_sort_capacity),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_prices),
		cmocka_unit_test(test_job),
		cmocka_unit_test(test_job_set_clear),
		cmocka_unit_test(test_every_gpu),
		cmocka_unit_test(test_inference_decode),
		cmocka_unit_test(test_text_width),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
