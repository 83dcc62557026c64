/*
 * tests/unit/test_jobs_gpu.c — gpuxd's job orders see each GPU as gpux does.
 *
 * gpuxd evaluates a job order with the fit library on its own view of every
 * catalogue GPU (exchange/tables.c: xd_tables' fit_gpus); gpux's tables and
 * fit panel use view_fit_gpu. Both must be the same figures, or the
 * exchange would choose by another answer than the one the user was shown:
 * every field of every GPU is compared (NAN equal to NAN: "not published").
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "data/catalog.h"
#include "exchange/xd.h"
#include "fit/fit.h"
#include "view/view.h"

static bool same(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

static void test_exchange_sees_gpus_as_gpux(void **state)
{
	(void)state;
	struct xd_tables *t = NULL;
	struct catalog *cat = NULL;
	char *cause = NULL;
	assert_int_equal(xd_tables_load(NULL, &t, &cause), 0);
	assert_int_equal(catalog_load(NULL, &cat, &cause), 0);
	assert_int_equal(t->n_gpus, cat->n_gpus);
	for (size_t i = 0; i < cat->n_gpus; i++) {
		struct fit_gpu v;
		const struct fit_gpu *x = &t->fit_gpus[i];
		view_fit_gpu(&cat->gpus[i], -1, &v);
		if (!same(x->memory_gb, v.memory_gb) || !same(x->bandwidth_gbs, v.bandwidth_gbs) ||
		    !same(x->bf16_tflops, v.bf16_tflops) || !same(x->fp8_tflops, v.fp8_tflops) ||
		    !same(x->link_gbs, v.link_gbs) || !same(x->pcie_gbs, v.pcie_gbs) ||
		    x->price_cents != v.price_cents || x->scale_up != v.scale_up ||
		    x->scale_up_gpus != v.scale_up_gpus)
			fail_msg("%s: gpuxd's fit view of the GPU differs from gpux's", cat->gpus[i].id);
	}
	/* and the figures are real ones, not a zeroed struct */
	int boards = 0;
	for (size_t i = 0; i < t->n_gpus; i++)
		boards += t->fit_gpus[i].scale_up_gpus == 8 && t->fit_gpus[i].memory_gb > 0;
	assert_true(boards >= 7);
	catalog_free(&cat);
	xd_tables_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exchange_sees_gpus_as_gpux),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
