/*
 * tests/unit/test_exchange_pglib.c — gpuxd opens libpq only for a
 * PostgreSQL store. When the library cannot be loaded (here: a list of
 * library names none of which exists, set through xd_store_pg_libraries
 * before the first PostgreSQL store), a PostgreSQL store fails with one
 * sentence naming the library and the Debian package to install, gpuxd
 * refuses to start with it, and a SQLite store is unaffected.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exchange/exchange.h"
#include "exchange/store.h"

static const char *const absent[] = { "libgpux-test-no-libpq.so.5", NULL };

#define WANT "a PostgreSQL store needs libpq (install the Debian package libpq5): " \
	"cannot load libgpux-test-no-libpq.so.5: " \
	"cannot open shared object file: No such file or directory"

static void test_a_postgresql_store_names_the_library_and_its_package(void **state)
{
	struct xd_store *s = NULL;
	char *cause = NULL;
	assert_int_equal(xd_store_open("postgresql://127.0.0.1:1/gpux", true, &s, &cause), -1);
	assert_null(s);
	assert_string_equal(cause, WANT);
	free(cause);
	/* the same answer for every later store, a read connection too */
	cause = NULL;
	assert_int_equal(xd_store_open("host=127.0.0.1 port=1 dbname=gpux", false, &s, &cause), -1);
	assert_null(s);
	assert_string_equal(cause, WANT);
	free(cause);
}

static void test_gpuxd_does_not_start_on_postgresql_without_libpq(void **state)
{
	char dir[] = "/tmp/gpux-pglib-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char sock[64];
	snprintf(sock, sizeof sock, "%s/gpuxd.sock", dir);
	struct exchange_config c;
	exchange_config_defaults(&c);
	c.listen = NULL;
	c.socket_path = sock;
	c.db_path = "postgresql://127.0.0.1:1/gpux";
	c.quiet = true;
	char *cause = NULL;
	assert_int_equal(exchange_run(&c, &cause), -1);
	assert_string_equal(cause, WANT);
	free(cause);
	/* nothing is left listening */
	assert_int_not_equal(access(sock, F_OK), 0);
	rmdir(dir);
}

static void test_a_sqlite_store_does_not_need_libpq(void **state)
{
	char dir[] = "/tmp/gpux-pglib-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char db[64];
	snprintf(db, sizeof db, "%s/gpuxd.db", dir);
	struct xd_store *s = NULL;
	char *cause = NULL;
	assert_int_equal(xd_store_open(db, true, &s, &cause), 0);
	assert_null(cause);
	xd_meta_set(s, "pglib_test", 42);
	assert_int_equal(xd_meta_get(s, "pglib_test", 0), 42);
	xd_store_close(&s);
	char path[80];
	const char *const suffixes[] = { "", "-wal", "-shm", ".lock" };
	/* the database, its WAL, and the lock file the writer held beside it */
	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof path, "%s%s", db, suffixes[i]);
		unlink(path);
	}
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	xd_store_pg_libraries(absent);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_postgresql_store_names_the_library_and_its_package),
		cmocka_unit_test(test_gpuxd_does_not_start_on_postgresql_without_libpq),
		cmocka_unit_test(test_a_sqlite_store_does_not_need_libpq),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
