/*
 * bench_view — the table model on 100,000 rows, beside two plain sorts of
 * the same size measured in the same run:
 *
 *   reference  qsort of 100,000 random int64 keys (a comparison of two
 *              integers through a function pointer: the least a sort by a
 *              number costs), and qsort of 100,000 GPU names with strcmp
 *   view_new   the every-GPU table (5 columns: gpu, memory, bandwidth,
 *              bf16, price) built on a synthetic catalogue: the catalogue's
 *              GPUs repeated, each name made unique ("H100 SXM #123"),
 *              memory and bandwidth varied, a fifth of the bandwidths "not
 *              published", every GPU priced
 *   view_sort  by memory, bandwidth (unknowns last), price and gpu, each
 *              ascending and descending, in that order; then view_set_prices
 *              (new prices, re-sorted by the current column)
 *
 *   build/bench/bench_view [ROUNDS]      (default 3)
 *
 * Each figure is the minimum and the median over the rounds (a fresh table
 * per round). Figures are printed, never asserted.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/catalog.h"
#include "i18n/i18n.h"
#include "util/util.h"
#include "view/view.h"

enum { N = 100000, MAX_ROUNDS = 15 };

static const char *const sort_cols[] = { "memory", "bandwidth", "price", "gpu" };
#define N_SORTS (2 * sizeof sort_cols / sizeof sort_cols[0])

struct figures {
	double ref_int[MAX_ROUNDS], ref_str[MAX_ROUNDS];
	double view_new[MAX_ROUNDS], sort[N_SORTS][MAX_ROUNDS], prices[MAX_ROUNDS];
	double view_free[MAX_ROUNDS];
};

static double ms_since(int64_t t0)
{
	return (double)(util_now_us() - t0) / 1000.0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The median of the first reference, which the other figures are divided
 * by: a ratio holds better than a time on a machine others load too. */
static double ref_median;

/* min and median of n figures (sorted in place), and the median's ratio to
 * the reference */
static void print_row(const char *what, double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	printf("   %-44s %8.1f ms min %8.1f ms median %6.2f x ref\n", what, v[0], v[n / 2],
	       ref_median > 0 ? v[n / 2] / ref_median : 0);
}

static void make_catalog(const struct catalog *real, struct catalog *fake)
{
	memset(fake, 0, sizeof *fake);
	fake->n_gpus = N;
	fake->gpus = xcalloc(N, sizeof *fake->gpus);
	for (size_t i = 0; i < N; i++) {
		struct catalog_gpu *g = &fake->gpus[i];
		*g = real->gpus[i % real->n_gpus];
		g->name = xasprintf("%s #%zu", real->gpus[i % real->n_gpus].name, i);
		g->memory_gb = 16 + rand() % 273;
		g->bandwidth_gbs = rand() % 5 == 0 ? NAN : 500 + rand() % 7500;
	}
}

static void references(const struct catalog *fake, struct figures *f, int r)
{
	int64_t *keys = xcalloc(N, sizeof *keys);
	const char **names = xcalloc(N, sizeof *names);
	int64_t t0;

	for (size_t i = 0; i < N; i++) {
		keys[i] = ((int64_t)rand() << 31) ^ rand();
		names[i] = fake->gpus[(i * 7919) % N].name;
	}
	t0 = util_now_us();
	qsort(keys, N, sizeof *keys, cmp_i64);
	f->ref_int[r] = ms_since(t0);
	t0 = util_now_us();
	qsort(names, N, sizeof *names, cmp_str);
	f->ref_str[r] = ms_since(t0);
	free(keys);
	free(names);
}

static void one_round(const struct catalog *real, const struct catalog *fake, struct figures *f,
		      int r)
{
	struct view_price *pr = xcalloc(real->n_gpus, sizeof *pr);
	struct view_prices prices = { pr, real->n_gpus, false };
	struct view_table *v;
	int64_t t0;
	size_t k = 0;

	references(fake, f, r);
	for (size_t i = 0; i < real->n_gpus; i++)
		pr[i] = (struct view_price){ .gpu_id = real->gpus[i].id, .cents = 100 + (int64_t)(rand() % 900) };
	t0 = util_now_us();
	v = view_new(fake, NULL, &prices, NULL, I18N_EN, false);
	f->view_new[r] = ms_since(t0);
	for (size_t c = 0; c < sizeof sort_cols / sizeof sort_cols[0]; c++) {
		int col = view_column_index(v, sort_cols[c]);
		for (int desc = 0; desc <= 1; desc++, k++) {
			t0 = util_now_us();
			view_sort(v, col, desc);
			f->sort[k][r] = ms_since(t0);
		}
	}
	for (size_t i = 0; i < real->n_gpus; i++)
		pr[i].cents = 100 + (int64_t)(rand() % 900);
	t0 = util_now_us();
	view_set_prices(v, &prices);
	f->prices[r] = ms_since(t0);
	t0 = util_now_us();
	view_free(&v);
	f->view_free[r] = ms_since(t0);
	free(pr);
}

int main(int argc, char **argv)
{
	struct catalog *real = NULL, fake;
	struct figures f;
	char *cause = NULL, what[64];
	int rounds = argc > 1 ? atoi(argv[1]) : 3;
	size_t k = 0;

	if (rounds < 1 || rounds > MAX_ROUNDS)
		rounds = 3;
	if (catalog_load(NULL, &real, &cause) != 0)
		fatal("bench_view: catalogue: %s", cause);
	srand(42);
	make_catalog(real, &fake);
	memset(&f, 0, sizeof f);
	for (int r = 0; r < rounds; r++)
		one_round(real, &fake, &f, r);

	printf("   %d rows, %d rounds (min and median of the rounds; x ref: median / the int64 "
	       "qsort's median)\n", N, rounds);
	qsort(f.ref_int, (size_t)rounds, sizeof *f.ref_int, cmp_double);
	ref_median = f.ref_int[rounds / 2];
	print_row("reference: qsort of 100,000 int64 keys", f.ref_int, rounds);
	print_row("reference: qsort of 100,000 names (strcmp)", f.ref_str, rounds);
	print_row("view_new, every-GPU table (5 columns)", f.view_new, rounds);
	for (size_t c = 0; c < sizeof sort_cols / sizeof sort_cols[0]; c++) {
		for (int desc = 0; desc <= 1; desc++, k++) {
			snprintf(what, sizeof what, "view_sort by %s %s", sort_cols[c],
				 desc ? "desc" : "asc");
			print_row(what, f.sort[k], rounds);
		}
	}
	print_row("view_set_prices (re-sorted by gpu desc)", f.prices, rounds);
	print_row("view_free", f.view_free, rounds);
	printf("   targets: view_sort <= 20 ms, view_new <= 50 ms\n");
	for (size_t i = 0; i < N; i++)
		free(fake.gpus[i].name);
	free(fake.gpus);
	catalog_free(&real);
	return 0;
}
