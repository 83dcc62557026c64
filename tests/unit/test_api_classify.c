/*
 * Unit tests of the exchange client's classifier (api_classify): from the
 * facts of one ended try to what it means — success, a final error, or a
 * retry — and whether the request may have been acted on (which decides
 * whether an order must be reconciled by its client_order_id). Also the
 * Retry-After reader, in seconds and as HTTP dates.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <curl/curl.h>
#include <time.h>

#include "api/internal.h"

static struct api_verdict classify(int rc, long status, enum api_retry policy)
{
	struct api_attempt a = {.curl_code = rc, .status = status, .request_sent = true,
				.policy = policy};
	return api_classify(&a);
}

static void test_success(void **state)
{
	struct api_verdict v = classify(CURLE_OK, 200, API_RETRY_READ);
	struct api_attempt a = {.curl_code = CURLE_OK, .status = 304, .conditional = true};

	(void)state;
	assert_int_equal(v.reason, API_R_OK);
	assert_false(v.retry);
	assert_int_equal(classify(CURLE_OK, 201, API_RETRY_ORDER).reason, API_R_OK);
	assert_int_equal(classify(CURLE_OK, 204, API_RETRY_UNSAFE).reason, API_R_OK);
	assert_int_equal(api_classify(&a).reason, API_R_OK);
	a.conditional = false;   /* a 304 nobody asked for */
	assert_int_equal(api_classify(&a).reason, API_R_UNEXPECTED);
	assert_int_equal(api_classify(&a).kind, API_ERR_PROTOCOL);
}

static void test_http_errors(void **state)
{
	struct api_verdict v;

	(void)state;
	v = classify(CURLE_OK, 400, API_RETRY_ORDER);
	assert_int_equal(v.reason, API_R_HTTP);
	assert_int_equal(v.kind, API_ERR_HTTP);
	assert_false(v.retry);
	assert_false(v.maybe_sent);     /* refused: nothing was done */
	v = classify(CURLE_OK, 429, API_RETRY_UNSAFE);
	assert_true(v.retry);           /* rate limited: not processed, even a cancel */
	assert_false(v.maybe_sent);
	v = classify(CURLE_OK, 503, API_RETRY_ORDER);
	assert_true(v.retry);
	assert_true(v.maybe_sent);      /* a 5xx may have come after the commit */
	v = classify(CURLE_OK, 500, API_RETRY_UNSAFE);
	assert_false(v.retry);          /* a cancel is not sent twice after a 5xx */
	v = classify(CURLE_OK, 302, API_RETRY_READ);
	assert_int_equal(v.reason, API_R_UNEXPECTED);
	assert_int_equal(v.kind, API_ERR_PROTOCOL);
}

static void test_network(void **state)
{
	struct api_verdict v;
	struct api_attempt a = {.curl_code = CURLE_OPERATION_TIMEDOUT, .policy = API_RETRY_UNSAFE};

	(void)state;
	v = classify(CURLE_COULDNT_CONNECT, 0, API_RETRY_UNSAFE);
	assert_int_equal(v.reason, API_R_CONNECT);
	assert_true(v.retry);           /* it never left: safe for anything */
	assert_false(v.maybe_sent);
	v = classify(CURLE_OPERATION_TIMEDOUT, 0, API_RETRY_ORDER);
	assert_int_equal(v.reason, API_R_TIMEOUT);
	assert_int_equal(v.kind, API_ERR_TIMEOUT);
	assert_true(v.retry);
	assert_true(v.maybe_sent);
	v = api_classify(&a);           /* timed out while connecting */
	assert_true(v.retry);
	assert_false(v.maybe_sent);
	v = classify(CURLE_RECV_ERROR, 0, API_RETRY_ORDER);
	assert_int_equal(v.reason, API_R_BROKE);
	assert_true(v.retry);
	assert_true(v.maybe_sent);
	v = classify(CURLE_PARTIAL_FILE, 0, API_RETRY_READ);
	assert_int_equal(v.reason, API_R_BROKE_PARTIAL);
	v = classify(CURLE_GOT_NOTHING, 0, API_RETRY_UNSAFE);
	assert_false(v.retry);          /* it may have been done: not twice */
	v = classify(CURLE_PEER_FAILED_VERIFICATION, 0, API_RETRY_READ);
	assert_int_equal(v.kind, API_ERR_TLS);
	assert_false(v.retry);
	assert_false(v.maybe_sent);
}

static void test_sizes_and_waits(void **state)
{
	struct api_attempt a = {.curl_code = CURLE_WRITE_ERROR, .header_too_big = true,
				.policy = API_RETRY_READ};
	struct api_verdict v = api_classify(&a);

	(void)state;
	assert_int_equal(v.reason, API_R_HEADER_TOO_BIG);   /* not "out of memory" */
	assert_int_equal(v.kind, API_ERR_PROTOCOL);
	assert_false(v.retry);
	a.header_too_big = false;
	a.curl_code = CURLE_OUT_OF_MEMORY;      /* curl's refusal of one header line over 100 KB */
	assert_int_equal(api_classify(&a).reason, API_R_HEADER_TOO_BIG);
	a.curl_code = CURLE_WRITE_ERROR;
	a.body_too_big = true;
	assert_int_equal(api_classify(&a).reason, API_R_TOO_BIG);
	a = (struct api_attempt){.curl_code = CURLE_OK, .status = 503, .policy = API_RETRY_READ,
				 .retry_after_s = 31};
	assert_false(api_classify(&a).retry);   /* a long Retry-After is reported, not waited */
	a.retry_after_s = 2;
	assert_true(api_classify(&a).retry);
}

static void test_retry_after(void **state)
{
	time_t now = 1748854800;    /* Mon, 02 Jun 2025 09:00:00 GMT */

	(void)state;
	assert_int_equal(api_retry_after("7", now), 7);
	assert_int_equal(api_retry_after(" 0 ", now), 0);
	assert_int_equal(api_retry_after("Mon, 02 Jun 2025 09:00:05 GMT", now), 5);
	assert_int_equal(api_retry_after("Monday, 02-Jun-25 09:01:00 GMT", now), 60);
	assert_int_equal(api_retry_after("Mon Jun  2 09:00:09 2025", now), 9);
	assert_int_equal(api_retry_after("Mon, 02 Jun 2025 08:59:00 GMT", now), 0);  /* past */
	assert_int_equal(api_retry_after("Tue, 03 Jun 2026 09:00:00 GMT", now), 86400);
	assert_int_equal(api_retry_after("soon", now), 0);
	assert_int_equal(api_retry_after("-3", now), 0);
	assert_int_equal(api_retry_after("5x", now), 0);
	assert_int_equal(api_retry_after(NULL, now), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_success),
		cmocka_unit_test(test_http_errors),
		cmocka_unit_test(test_network),
		cmocka_unit_test(test_sizes_and_waits),
		cmocka_unit_test(test_retry_after),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
