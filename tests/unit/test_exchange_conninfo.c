/*
 * tests/unit/test_exchange_conninfo.c — a PostgreSQL connection string as
 * gpuxd logs it: every password gone, in libpq's two forms (URI and
 * key=value, https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-CONNSTRING),
 * everything else kept; and a message quoting the string or its password
 * (libpq's errors may) scrubbed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "exchange/store.h"

static void redacted(const char *in, const char *want)
{
	char *got = xd_conninfo_redact(in);
	assert_string_equal(got, want);
	free(got);
}

static void test_uri_userinfo_and_query(void **state)
{
	(void)state;
	redacted("postgresql://gpuxd:S3cret@db1.example,db2.example/gpux?target_session_attrs=read-write",
	         "postgresql://gpuxd:***@db1.example,db2.example/gpux?target_session_attrs=read-write");
	redacted("postgres://gpuxd:p%40ss@db/gpux", "postgres://gpuxd:***@db/gpux");
	redacted("postgresql://gpuxd@db/gpux?password=S3cret&connect_timeout=3",
	         "postgresql://gpuxd@db/gpux?password=***&connect_timeout=3");
	redacted("postgresql:///gpux?host=/run/pg&user=u&sslpassword=K3y&password=S3cret",
	         "postgresql:///gpux?host=/run/pg&user=u&sslpassword=***&password=***");
	/* no password: as it is; a ':' after the host is a port, not a password */
	redacted("postgresql://gpuxd@db:5432/gpux", "postgresql://gpuxd@db:5432/gpux");
	redacted("postgresql://db:5432/gpux?user=a", "postgresql://db:5432/gpux?user=a");
}

static void test_key_value(void **state)
{
	(void)state;
	redacted("host=db1 password=S3cret dbname=gpux", "host=db1 password=*** dbname=gpux");
	redacted("host=db1 password = S3cret dbname=gpux", "host=db1 password = *** dbname=gpux");
	redacted("password='it\\'s a secret' host=db", "password='***' host=db");
	redacted("dbname=gpux sslpassword='k e y' password=a\\ b", "dbname=gpux sslpassword='***' password=***");
	/* a key that only contains the word is not a password */
	redacted("host=db application_name=password", "host=db application_name=password");
}

static void test_sqlite_paths_untouched(void **state)
{
	(void)state;
	redacted("/var/lib/gpuxd/gpuxd.db", "/var/lib/gpuxd/gpuxd.db");
	redacted("gpuxd.db", "gpuxd.db");
}

static void test_scrub_messages(void **state)
{
	(void)state;
	const char *t = "postgresql://gpuxd:pa%zzss@db/gpux";
	char *s = xd_conninfo_scrub(t, "invalid percent-encoded token: \"pa%zzss\"");
	assert_null(strstr(s, "pa%zzss"));
	assert_non_null(strstr(s, "invalid percent-encoded token"));
	free(s);
	t = "postgresql://gpuxd:p%40ss@db/gpux";
	s = xd_conninfo_scrub(t, "connecting to postgresql://gpuxd:p%40ss@db/gpux failed; user p@ss");
	assert_string_equal(s, "connecting to postgresql://gpuxd:***@db/gpux failed; user ***");
	free(s);
	t = "host=db password='se cr\\'et'";
	s = xd_conninfo_scrub(t, "missing \"=\" after \"se cr'et\" in connection info string");
	assert_null(strstr(s, "se cr'et"));
	free(s);
	s = xd_conninfo_scrub("/tmp/x.db", "cannot open /tmp/x.db");
	assert_string_equal(s, "cannot open /tmp/x.db");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uri_userinfo_and_query),
		cmocka_unit_test(test_key_value),
		cmocka_unit_test(test_sqlite_paths_untouched),
		cmocka_unit_test(test_scrub_messages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
