/*
 * tests/unit/test_view_sort.c — the table's sort against the rule it
 * promises, written out as a plain comparison (the one the table used
 * before it sorted by precomputed keys):
 *
 *   a column's value ascending or descending (numbers as numbers, texts
 *   case-insensitively then exactly, a catalogue flag no before yes, the
 *   job's "fits" yes before no), rows without a value LAST either way, ties
 *   by GPU name case-insensitively, then exactly, then by GPU id, then by
 *   catalogue order; the cheapest sort: priced GPUs that can run the job by
 *   cost, then unpriced ones, then those that cannot take it.
 *
 * On synthetic catalogues of 2,000 GPUs built from the real ones: names
 * that differ only in case ("h100 sxm" / "H100 SXM"), names equal with
 * different ids, names that are prefixes of each other ("A" / "A1"), names
 * with bytes above 0x7F, negative zero, unpublished figures, every column
 * of every workload and of the every-GPU table, both directions, with and
 * without a job, after a price update, and with a filter.
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
#include "fit/fit.h"
#include "i18n/i18n.h"
#include "util/util.h"
#include "view/view.h"

enum { N = 2000 };

static struct catalog *real;
static struct catalog fake;
static char *names[N], *ids[N];

/* A name of one of ten kinds: the GPU's own (often, so names repeat), with a
 * number, prefixes of each other, non-ASCII, empty. */
static char *fake_name(const char *real_name)
{
	size_t k = (size_t)rand() % 50;

	switch (rand() % 10) {
	case 0: case 1: case 3: return xstrdup(real_name);
	case 2: return xasprintf("%s #%zu", real_name, k);
	case 4: return xstrdup("A");
	case 5: return xstrdup("A1");
	case 6: return xstrdup("a");
	case 7: return xasprintf("\xc3\x84%zu", k);          /* "Ä12" */
	case 8: return xasprintf("\xc3\xa9tude %zu", k);      /* "étude 12" */
	default: return xstrdup("");
	}
}

static void make_fake(unsigned seed)
{
	srand(seed);
	fake.n_gpus = N;
	fake.gpus = xcalloc(N, sizeof *fake.gpus);
	for (size_t i = 0; i < N; i++) {
		const struct catalog_gpu *g0 = &real->gpus[(size_t)rand() % real->n_gpus];
		struct catalog_gpu *g = &fake.gpus[i];
		char *n = fake_name(g0->name);

		*g = *g0;
		if (rand() % 4 == 0)                 /* the same name in other case */
			for (char *p = n; *p != '\0'; p++)
				if (*p >= 'A' && *p <= 'Z')
					*p = (char)(*p + 32);
		names[i] = n;
		ids[i] = xasprintf("gpu-%d", rand() % (N / 2)); /* ids repeat too */
		g->name = names[i];
		g->id = ids[i];
		g->memory_gb = rand() % 7 == 0 ? -0.0 : 16 + rand() % 40;
		g->bandwidth_gbs = rand() % 5 == 0 ? NAN : 500 + rand() % 30;
		g->bf16_tflops = rand() % 3 == 0 ? NAN : g->bf16_tflops;
		g->ecc = rand() % 2;
	}
}

static void free_fake(void)
{
	for (size_t i = 0; i < N; i++) {
		free(names[i]);
		free(ids[i]);
	}
	free(fake.gpus);
	memset(&fake, 0, sizeof fake);
}

static int setup(void **state)
{
	char *cause = NULL;

	(void)state;
	if (catalog_load(NULL, &real, &cause) != 0) {
		print_error("catalog_load: %s\n", cause != NULL ? cause : "?");
		free(cause);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	catalog_free(&real);
	return 0;
}

/* ---- the rule, as a comparison ---------------------------------------------------- */

static int tie_break(const struct view_row *a, const struct view_row *b)
{
	int d = strcasecmp(a->gpu->name, b->gpu->name);

	if (d == 0)
		d = strcmp(a->gpu->name, b->gpu->name);
	if (d == 0)
		d = strcmp(a->gpu->id, b->gpu->id);
	if (d == 0)
		d = a->seq < b->seq ? -1 : a->seq > b->seq;
	return d;
}

/* known: 0 = no value; then a number or a text */
static int key_of(const struct view_table *t, const struct view_row *r, int col, double *num,
		  const char **text)
{
	const struct view_cell *c = &r->cells[col];

	*text = NULL;
	switch (c->raw) {
	case VIEW_RAW_NONE:
		return 0;
	case VIEW_RAW_NUMBER:
		*num = c->number;
		break;
	case VIEW_RAW_CENTS:
		*num = (double)c->cents;
		break;
	case VIEW_RAW_BOOL:
		*num = t->columns[col].kind == VIEW_COL_FIELD ? (c->flag ? 1 : 0) : (c->flag ? 0 : 1);
		break;
	case VIEW_RAW_TEXT:
		*text = c->text != NULL ? c->text : c->display;
		break;
	}
	return 1;
}

static int expected_order(const struct view_table *t, const struct view_row *a,
			  const struct view_row *b)
{
	double na = 0, nb = 0;
	const char *ta, *tb;
	int ka, kb, d = 0;

	if (t->sort_cheapest && t->has_job) {
		int xa = a->job.gpus_run > 0 ? (a->job.hourly_cents >= 0 ? 0 : 1) : 2;
		int xb = b->job.gpus_run > 0 ? (b->job.hourly_cents >= 0 ? 0 : 1) : 2;
		if (xa != xb)
			return xa < xb ? -1 : 1;
		if (xa == 0 && a->job.hourly_cents != b->job.hourly_cents)
			return a->job.hourly_cents < b->job.hourly_cents ? -1 : 1;
		return tie_break(a, b);
	}
	if (t->sort_col < 0)
		return a->seq < b->seq ? -1 : a->seq > b->seq;
	ka = key_of(t, a, t->sort_col, &na, &ta);
	kb = key_of(t, b, t->sort_col, &nb, &tb);
	if (ka != kb)
		return ka ? -1 : 1;
	if (ka) {
		if (ta != NULL && tb != NULL) {
			d = strcasecmp(ta, tb);
			if (d == 0)
				d = strcmp(ta, tb);
		} else if (na != nb) {
			d = na < nb ? -1 : 1;
		}
		if (t->sort_desc)
			d = -d;
	}
	return d != 0 ? d : tie_break(a, b);
}

/* Every adjacent pair of rows in the rule's order, and the filter's index
 * in row order. */
static void check_sorted(const struct view_table *t, const char *what)
{
	for (size_t i = 1; i < t->n_rows; i++) {
		if (expected_order(t, &t->rows[i - 1], &t->rows[i]) >= 0) {
			fail_msg("%s (col %d %s): rows %zu \"%s\" [%s] and %zu \"%s\" [%s] out of order",
				 what, t->sort_col, t->sort_desc ? "desc" : "asc", i - 1,
				 t->rows[i - 1].gpu->name, t->rows[i - 1].gpu->id, i,
				 t->rows[i].gpu->name, t->rows[i].gpu->id);
		}
	}
	for (size_t i = 1; i < t->n_shown; i++)
		assert_true(t->shown[i - 1] < t->shown[i]);
}

static void sort_every_way(struct view_table *t, const char *what)
{
	for (int col = -1; col < (int)t->n_columns; col++) {
		for (int desc = 0; desc <= 1; desc++) {
			view_sort(t, col, desc);
			check_sorted(t, what);
		}
	}
}

/* ---- tests ---------------------------------------------------------------------------- */

static void test_every_workload(void **state)
{
	(void)state;
	for (unsigned seed = 1; seed <= 3; seed++) {
		make_fake(seed);
		for (size_t w = 0; w <= real->n_workloads; w++) {
			struct view_table *t;
			if (w == real->n_workloads) {
				t = view_new(&fake, NULL, NULL, NULL, I18N_EN, false);
			} else {
				/* the workload's columns over the fake GPUs */
				struct catalog_workload wl = real->workloads[w];
				const struct catalog_gpu **gp = xcalloc(N, sizeof *gp);
				for (size_t i = 0; i < N; i++)
					gp[i] = &fake.gpus[i];
				wl.gpus = gp;
				wl.n_gpus = N;
				t = view_new(&fake, &wl, NULL, NULL, I18N_PT_PT, false);
				sort_every_way(t, wl.id);
				view_free(&t);
				free(gp);
				continue;
			}
			sort_every_way(t, "every GPU");
			view_free(&t);
		}
		free_fake();
	}
}

static void test_prices_job_filter(void **state)
{
	struct view_price pr[40];
	struct view_prices prices = { pr, 0, false };
	struct fit_job job;
	struct view_table *t;

	(void)state;
	make_fake(7);
	memset(pr, 0, sizeof pr); /* no supply beyond the best ask */
	for (size_t i = 0; i < 40; i++) {
		pr[i].gpu_id = ids[i * 13];
		pr[i].cents = i % 9 == 0 ? -1 : 100 + (int64_t)(i * 37 % 500);
	}
	prices.n = 40;
	t = view_new(&fake, NULL, &prices, NULL, I18N_EN, false);
	sort_every_way(t, "priced");
	for (size_t i = 0; i < 40; i++)
		pr[i].cents = 100 + (int64_t)(i * 53 % 300);
	view_sort(t, view_column_index(t, "price"), true);
	view_set_prices(t, &prices);
	check_sorted(t, "after a price update");

	fit_job_defaults(&job);
	assert_int_equal(fit_model_from_size(70, &job.model, NULL), 0);
	job.method = FIT_INFER_FP16;
	job.gpus = 2;
	view_set_job(t, &job);
	check_sorted(t, "with a job");
	sort_every_way(t, "with a job");
	view_sort_cheapest(t);
	check_sorted(t, "cheapest");

	view_filter(t, "h100");
	assert_true(t->n_shown > 0 && t->n_shown < t->n_rows);
	sort_every_way(t, "filtered");
	view_sort_cheapest(t);
	check_sorted(t, "filtered, cheapest");
	view_free(&t);
	free_fake();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_workload),
		cmocka_unit_test(test_prices_job_filter),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
