/*
 * util_dynlib_open: a library's functions land in a typed table, all or
 * nothing, and a missing library or function is named in the error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static struct {
	__typeof__(cos) *cos;
	__typeof__(sqrt) *sqrt;
} m;

static void test_fills_the_table_with_callable_functions(void **state)
{
	const char *const names[] = {"libm.so.6", NULL};
	const struct dynlib_fn fns[] = {{"cos", &m.cos}, {"sqrt", &m.sqrt}};
	char *cause = NULL;
	assert_int_equal(util_dynlib_open(names, fns, 2, &cause), 0);
	assert_null(cause);
	assert_non_null(m.cos);
	assert_true(fabs(m.cos(0.0) - 1.0) < 1e-12);
	assert_true(fabs(m.sqrt(2.25) - 1.5) < 1e-12);
}

static void test_a_missing_function_changes_no_slot_and_is_named(void **state)
{
	__typeof__(cos) *c = NULL;
	void (*nothing)(void) = NULL;
	const char *const names[] = {"libm.so.6", NULL};
	const struct dynlib_fn fns[] = {{"cos", &c}, {"gpux_no_such_function", &nothing}};
	char *cause = NULL;
	assert_int_equal(util_dynlib_open(names, fns, 2, &cause), -1);
	assert_null(c);
	assert_null(nothing);
	assert_non_null(strstr(cause, "gpux_no_such_function"));
	assert_non_null(strstr(cause, "libm.so.6"));
	free(cause);
}

static void test_the_first_library_that_loads_is_taken(void **state)
{
	__typeof__(cos) *c = NULL;
	const char *const names[] = {"libgpux-not-installed.so.9", "libm.so.6", NULL};
	const struct dynlib_fn fns[] = {{"cos", &c}};
	assert_int_equal(util_dynlib_open(names, fns, 1, NULL), 0);
	assert_non_null(c);
}

static void test_no_library_is_an_error_naming_it(void **state)
{
	__typeof__(cos) *c = NULL;
	const char *const names[] = {"libgpux-not-installed.so.9", NULL};
	const struct dynlib_fn fns[] = {{"cos", &c}};
	char *cause = NULL;
	assert_int_equal(util_dynlib_open(names, fns, 1, &cause), -1);
	assert_null(c);
	assert_string_equal(cause, "cannot load libgpux-not-installed.so.9: "
			    "cannot open shared object file: No such file or directory");
	free(cause);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fills_the_table_with_callable_functions),
		cmocka_unit_test(test_a_missing_function_changes_no_slot_and_is_named),
		cmocka_unit_test(test_the_first_library_that_loads_is_taken),
		cmocka_unit_test(test_no_library_is_an_error_naming_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
