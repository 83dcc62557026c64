/*
 * Unit tests of api/ that need no server: the strict reply decoders (the
 * examples of docs/API.md decode; every class of bad value is refused with
 * the field named), error bodies, error texts, the config file, URLs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/api.h"
#include "util/util.h"

/* Decode text as reply `name`; returns the reply (or NULL) and the cause. */
static void *dec(const char *name, long status, const char *text, char **cause)
{
	void *out = NULL;

	*cause = NULL;
	if (api_decode(name, status, text, strlen(text), &out, cause) != 0)
		return NULL;
	return out;
}

/* Decoding must fail with a cause containing want. */
static void refuse(const char *name, const char *text, const char *want)
{
	char *cause = NULL;
	void *r = dec(name, 200, text, &cause);

	if (r != NULL) {
		api_reply_free(name, &r);
		fail_msg("decoded although it should not: %s", text);
	}
	assert_non_null(cause);
	if (strstr(cause, want) == NULL)
		fail_msg("cause [%s] does not contain [%s]", cause, want);
	free(cause);
}

#define QUOTE(ask) \
	"{\"seq\":1043,\"server_time\":\"2025-06-02T09:00:05Z\",\"quotes\":[" \
	"{\"gpu\":\"h200\",\"best_ask_cents\":" ask ",\"ask_gpus\":16,\"best_bid_cents\":405," \
	"\"bid_gpus\":8,\"last_cents\":419}]}"

/* docs/API.md, GET /v1/quotes example */
static void test_quotes_example(void **state)
{
	const char *text =
		"{\"seq\": 1043, \"server_time\": \"2025-06-02T09:00:05Z\",\n \"quotes\": [\n"
		"  {\"gpu\": \"h200\", \"best_ask_cents\": 419, \"ask_gpus\": 16, \"best_bid_cents\": 405, \"bid_gpus\": 8,\n"
		"   \"last_cents\": 419},\n"
		"  {\"gpu\": \"rtx-4090\", \"best_ask_cents\": 33, \"ask_gpus\": 24, \"best_bid_cents\": null, \"bid_gpus\": 0,\n"
		"   \"last_cents\": null}], \"future_field\": [1, 2]}";
	char *cause;
	struct api_quotes *q = dec("quotes", 200, text, &cause);

	assert_non_null(q);
	assert_int_equal(q->seq, 1043);
	assert_int_equal(q->server_time, 1748854805);  /* 2025-06-02T09:00:05Z */
	assert_int_equal(q->n, 2);
	assert_string_equal(q->v[0].gpu, "h200");
	assert_int_equal(q->v[0].best_ask_cents, 419);
	assert_int_equal(q->v[0].last_cents, 419);
	assert_int_equal(q->v[1].best_bid_cents, -1);  /* null: no bid */
	assert_int_equal(q->v[1].last_cents, -1);
	assert_ptr_equal(api_quotes_find(q, "rtx-4090"), &q->v[1]);
	assert_null(api_quotes_find(q, "b300"));
	api_quotes_free(&q);
	assert_null(q);
}

static void test_quotes_bad_numbers(void **state)
{
	refuse("quotes", QUOTE("\"419\""), "quotes[0].best_ask_cents: expected a whole number, got a string");
	refuse("quotes", QUOTE("4.19"), "expected a whole number, got 4.19");
	refuse("quotes", QUOTE("-419"), "-419 is out of range");
	refuse("quotes", QUOTE("0"), "0 is out of range");   /* a price of 0 is never taken */
	refuse("quotes", QUOTE("9007199254740993"), "too large to be exact");
	refuse("quotes", QUOTE("1e400"), "expected a whole number");
	refuse("quotes", QUOTE("true"), "got a boolean");
	refuse("quotes", QUOTE("[]"), "got an array");
	refuse("quotes", "{\"seq\":1,\"server_time\":\"2025-06-02T09:00:05Z\",\"quotes\":[{\"gpu\":\"h200\","
			 "\"ask_gpus\":16,\"best_bid_cents\":null,\"bid_gpus\":0,\"last_cents\":null}]}",
	       "best_ask_cents: expected a whole number or null, got nothing");
	refuse("quotes", "{\"seq\":1,\"server_time\":\"2025-06-02T09:00:05Z\"}",
	       "quotes: expected an array, got nothing");
	refuse("quotes", "{\"seq\":1,\"server_time\":\"2025-13-02T09:00:05Z\",\"quotes\":[]}",
	       "server_time: \"2025-13-02T09:00:05Z\" is not a time");
	refuse("quotes", "{\"seq\":1,\"server_time\":\"yesterday\",\"quotes\":[]}", "is not a time");
	/* an ask with no GPUs behind it is not a price */
	refuse("quotes", "{\"seq\":1,\"server_time\":\"2025-06-02T09:00:05Z\",\"quotes\":[{\"gpu\":\"h200\","
			 "\"best_ask_cents\":419,\"ask_gpus\":0,\"best_bid_cents\":null,\"bid_gpus\":0,"
			 "\"last_cents\":null}]}", "disagree");
	/* 2^53 - 1 is the largest exact id */
	{
		char *cause;
		struct api_quotes *q = dec("quotes", 200,
			"{\"seq\":9007199254740991,\"server_time\":\"2025-06-02T09:00:05Z\",\"quotes\":[]}", &cause);
		assert_non_null(q);
		assert_true(q->seq == 9007199254740991LL);
		api_quotes_free(&q);
	}
}

static void test_bodies_that_are_not_json(void **state)
{
	char *cause = NULL;
	void *out = NULL;

	refuse("quotes", "<html>It works!</html>", "not JSON");
	refuse("quotes", "{\"seq\":1,\"quotes\":[{\"gpu\":\"h2", "ends before its JSON is complete");
	refuse("quotes", "[1,2,3]", "not a JSON object");
	refuse("quotes", "{\"seq\":1} trailing", "not JSON");
	refuse("quotes", "", "empty");
	/* a NUL byte inside the body */
	assert_int_equal(api_decode("quotes", 200, "{\"seq\"\0:1}", 10, &out, &cause), -1);
	assert_non_null(strstr(cause, "NUL"));
	free(cause);
	/* deep nesting is refused by the parser, not by a crash */
	{
		size_t n = 100000;
		char *deep = xmalloc(2 * n + 1);
		memset(deep, '[', n);
		memset(deep + n, ']', n);
		deep[2 * n] = '\0';
		refuse("quotes", deep, "not JSON");
		free(deep);
	}
}

static void test_strings_are_sanitised(void **state)
{
	char *cause;
	struct api_quotes *q = dec("quotes", 200,
		"{\"seq\":1,\"server_time\":\"2025-06-02T09:00:05Z\",\"quotes\":[{\"gpu\":\"h\\u001b[2Jx\","
		"\"best_ask_cents\":1,\"ask_gpus\":1,\"best_bid_cents\":null,\"bid_gpus\":0,\"last_cents\":null}]}",
		&cause);

	assert_non_null(q);
	assert_null(strchr(q->v[0].gpu, 0x1b));
	assert_non_null(strstr(q->v[0].gpu, "[2Jx"));
	api_quotes_free(&q);
}

/* docs/API.md, POST /v1/orders example (201), and the same as a replay (200) */
static void test_order_example(void **state)
{
	const char *text =
		"{\"id\": 40, \"client_order_id\": \"b-20250602-0001\", \"gpu\": \"h200\", \"side\": \"buy\", \"type\": \"limit\",\n"
		" \"time_in_force\": \"gtc\", \"gpus\": 8, \"hours\": 24, \"price_cents\": 430,\n"
		" \"status\": \"filled\", \"filled_gpus\": 8, \"remaining_gpus\": 0, \"filled_value_cents\": 3352,\n"
		" \"currency\": \"EUR\", \"hold_minor\": 0,\n"
		" \"created_at\": \"2025-06-02T09:00:04Z\", \"updated_at\": \"2025-06-02T09:00:04Z\",\n"
		" \"fills\": [{\"trade_id\": 77, \"price_cents\": 419, \"gpus\": 8, \"hours\": 24, \"rental_id\": 9,\n"
		"            \"liquidity\": \"taker\", \"at\": \"2025-06-02T09:00:04Z\"}]}";
	char *cause;
	struct api_order *o = dec("order", 201, text, &cause);

	assert_non_null(o);
	assert_int_equal(o->id, 40);
	assert_int_equal(o->status, API_ORDER_FILLED);
	assert_int_equal(o->tif, API_GTC);
	assert_int_equal(o->n_fills, 1);
	assert_int_equal(o->fills[0].rental_id, 9);
	assert_false(o->fills[0].maker);
	assert_false(o->replayed);
	api_order_free(&o);
	o = dec("order", 200, text, &cause);
	assert_non_null(o);
	assert_true(o->replayed);
	api_order_free(&o);
	/* a status the contract does not have */
	{
		char *bad = xstrdup(text);
		memcpy(strstr(bad, "\"filled\","), "\"fulled\",", 9);
		refuse("order", bad, "status: \"fulled\" is not one of open, partially_filled, filled");
		free(bad);
	}
}

/* docs/API.md, POST /v1/orders/preview example */
static void test_preview_example(void **state)
{
	const char *text =
		"{\"gpu\": \"h200\", \"side\": \"buy\", \"type\": \"limit\", \"time_in_force\": \"gtc\", \"gpus\": 8, \"hours\": 24,\n"
		" \"price_cents\": 430, \"market_state\": \"open\",\n"
		" \"fills\": [{\"price_cents\": 419, \"gpus\": 8}],\n"
		" \"fill_gpus\": 8, \"rest_gpus\": 0, \"expire_gpus\": 0,\n"
		" \"currency\": \"EUR\", \"fx_rate_micro\": 920000, \"vat_rate_bp\": 2300,\n"
		" \"unit_minor\": 488, \"hold_minor\": 93696,\n"
		" \"cost\": {\"net_minor\": 74112, \"vat_minor\": 17088, \"total_minor\": 91200},\n"
		" \"balance_available_minor\": 500000, \"balance_after_minor\": 408800,\n"
		" \"would_status\": \"filled\", \"would_reject\": null}";
	char *cause;
	struct api_preview *p = dec("preview", 200, text, &cause);

	assert_non_null(p);
	assert_int_equal(p->total_minor, 91200);
	assert_int_equal(p->balance_after_minor, 408800);
	assert_null(p->reject_code);
	api_preview_free(&p);
	/* the parts must add up */
	{
		char *bad = xstrdup(text);
		memcpy(strstr(bad, "91200"), "91201", 5);
		refuse("preview", bad, "cost.total_minor is not net_minor + vat_minor");
		free(bad);
	}
}

/* docs/API.md, GET /v1/account and GET /v1/rentals examples */
static void test_account_and_rentals(void **state)
{
	char *cause;
	struct api_account *a = dec("account", 200,
		"{\"id\": 12, \"email\": \"ana@example.pt\", \"country\": \"PT\", \"currency\": \"EUR\", \"role\": \"buyer\",\n"
		" \"vat_rate_bp\": 2300, \"fx_rate_micro\": 920000, \"created_at\": \"2025-06-02T09:00:00Z\",\n"
		" \"balance\": {\"available_minor\": 408800, \"held_minor\": 91200, \"total_minor\": 500000},\n"
		" \"open_orders\": 1, \"active_rentals\": 1}", &cause);
	struct api_rentals *r;

	assert_non_null(a);
	assert_int_equal(a->balance.held_minor, 91200);
	assert_null(a->api_key);
	api_account_free(&a);
	refuse("account",
	       "{\"id\": 12, \"email\": \"a@b\", \"country\": \"PT\", \"currency\": \"EUR\", \"role\": \"buyer\",\n"
	       " \"vat_rate_bp\": 2300, \"fx_rate_micro\": 920000, \"created_at\": \"2025-06-02T09:00:00Z\",\n"
	       " \"balance\": {\"available_minor\": -1, \"held_minor\": 0, \"total_minor\": -1},\n"
	       " \"open_orders\": 1, \"active_rentals\": 1}", "balance.available_minor: -1 is out of range");
	r = dec("rentals", 200,
		"{\"rentals\": [\n"
		"  {\"id\": 9, \"gpu\": \"h200\", \"role\": \"buyer\", \"order_id\": 40, \"trade_id\": 77,\n"
		"   \"gpus\": 8, \"hours\": 24, \"price_cents\": 419, \"status\": \"active\",\n"
		"   \"hours_billed\": 1, \"started_at\": \"2025-06-02T09:00:04Z\", \"ends_at\": \"2025-06-03T09:00:04Z\",\n"
		"   \"stopped_at\": null, \"next_bill_at\": \"2025-06-02T10:00:04Z\",\n"
		"   \"currency\": \"EUR\", \"unit_minor\": 475, \"hourly_minor\": 3800, \"hourly_vat_minor\": 712,\n"
		"   \"billed_minor\": 3800, \"refunded_minor\": 0, \"held_minor\": 87400}],\n"
		" \"next_cursor\": null}", &cause);
	assert_non_null(r);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->v[0].stopped_at, -1);
	assert_int_equal(r->v[0].ends_at - r->v[0].started_at, 24 * 3600);
	assert_null(r->next_cursor);
	api_rentals_free(&r);
}

static void test_error_bodies(void **state)
{
	char *cause, *t;
	struct api_error *e = dec("error", 422,
		"{\"error\": {\"code\": \"INSUFFICIENT_FUNDS\", \"message\": \"the order needs a hold of 9120 EUR cents; 5000 are available\","
		" \"request_id\": \"r00000000002a\", \"required_minor\": 9120, \"available_minor\": 5000}}", &cause);

	assert_non_null(e);
	assert_int_equal(e->kind, API_ERR_HTTP);
	assert_int_equal(e->http_status, 422);
	assert_string_equal(e->code, "INSUFFICIENT_FUNDS");
	assert_string_equal(e->request_id, "r00000000002a");
	assert_int_equal(e->required_minor, 9120);
	assert_int_equal(e->available_minor, 5000);
	assert_null(e->currency);
	assert_int_equal(e->opens_at, -1);
	t = api_error_text(e);
	assert_string_equal(t, "the exchange refused: INSUFFICIENT_FUNDS: the order needs a hold of "
			       "9120 EUR cents; 5000 are available (request r00000000002a)");
	free(t);
	api_error_free(&e);
	assert_null(e);
	/* not an error object: the start of the body, made safe */
	e = dec("error", 502, "<html>\x1b]0;pwned\x07 Bad Gateway</html>", &cause);
	assert_non_null(e);
	assert_null(e->code);
	assert_null(strchr(e->message, 0x1b));
	assert_null(strchr(e->message, 0x07));
	assert_non_null(strstr(e->message, "Bad Gateway"));
	api_error_free(&e);
	e = dec("error", 503, "", &cause);
	assert_non_null(strstr(e->message, "empty body"));
	api_error_free(&e);
}

static void test_error_texts(void **state)
{
	struct api_error *e = api_error_new(API_ERR_UNKNOWN_OUTCOME, "no answer");
	char *t;

	e->client_order_id = xstrdup("c0ffee");
	t = api_error_text(e);
	assert_string_equal(t, "the outcome of order c0ffee is unknown: no answer");
	free(t);
	e->kind = API_ERR_HTTP;
	e->code = xstrdup("RATE_LIMITED");
	e->retry_after_s = 3;
	t = api_error_text(e);
	assert_string_equal(t, "the exchange refused: RATE_LIMITED: no answer (try again in 3 s)");
	free(t);
	api_error_free(&e);
	assert_string_equal(api_err_name(API_ERR_TIMEOUT), "timeout");
}

static void test_client_order_ids(void **state)
{
	char *a = api_client_order_id_new(), *b = api_client_order_id_new();

	assert_int_equal(strlen(a), 32);
	assert_int_equal(strspn(a, "0123456789abcdef"), 32);
	assert_string_not_equal(a, b);
	free(a);
	free(b);
}

static void test_urls(void **state)
{
	const char *good[] = {"http://127.0.0.1:8420", "https://exchange.example.com/",
			      "unix:/run/gpux/gpuxd.sock", "https://user:secret@host.example:8443/api"};
	const char *bad[] = {"", "ftp://example.com", "exchange.example.com", "unix:relative.sock",
			     "http://"};
	char *cause = NULL;

	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		struct api_config cfg = {.url = good[i]};
		struct api_client *c = api_client_new(&cfg, &cause);
		if (c == NULL)
			fail_msg("%s refused: %s", good[i], cause);
		/* the label never shows credentials */
		assert_null(strstr(api_client_label(c), "secret"));
		assert_false(api_client_is_local_demo(c));
		api_client_free(&c);
		assert_null(c);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct api_config cfg = {.url = bad[i]};
		assert_null(api_client_new(&cfg, &cause));
		assert_non_null(cause);
		free(cause);
		cause = NULL;
	}
	{
		struct api_config cfg = {.url = "unix:/x.sock", .local_demo = true};
		struct api_client *c = api_client_new(&cfg, &cause);
		assert_true(api_client_is_local_demo(c));
		assert_string_equal(api_client_label(c), "local demo exchange");
		api_client_free(&c);
	}
}

/* libcurl is opened at run time: a library that is not there, or one without
 * curl's functions, gives one sentence naming it and the package to install,
 * and leaves the table alone; the real one then loads. */
static void test_curl_loading(void **state)
{
	static const char *const missing[] = {"libcurl-gpux-missing.so.4", NULL};
	static const char *const wrong[] = {"libm.so.6", NULL};
	char *cause = NULL;

	(void)state;
	assert_int_equal(api_curl_open(missing, &cause), -1);
	assert_non_null(cause);
	assert_non_null(strstr(cause, "cannot load libcurl-gpux-missing.so.4"));
	assert_non_null(strstr(cause, "no exchange can be reached; install the package libcurl4"));
	free(cause);
	cause = NULL;
	assert_int_equal(api_curl_open(wrong, &cause), -1);
	assert_non_null(strstr(cause, "libm.so.6 has no function curl_global_init"));
	free(cause);
	cause = NULL;
	assert_int_equal(api_curl_ready(&cause), 0);
	assert_null(cause);
	assert_int_equal(api_curl_ready(NULL), 0);
}

static void test_conf_parse(void **state)
{
	struct api_conf *c = NULL;
	char *cause = NULL;

	assert_int_equal(api_conf_parse("F", "# comment\n\n  api = https://x.example \n"
				       "key = \"gpux_abc\"\nlang=pt-PT\nlang = de\n", &c, &cause), 0);
	assert_string_equal(api_conf_get(c, "api"), "https://x.example");
	assert_string_equal(api_conf_get(c, "key"), "gpux_abc");
	assert_string_equal(api_conf_get(c, "lang"), "de");   /* the last one wins */
	assert_null(api_conf_get(c, "theme"));
	api_conf_free(&c);
	/* a malformed line is named by number only: it may be the key */
	assert_int_equal(api_conf_parse("F", "api = x\ngpux_secretkey\n", &c, &cause), -1);
	assert_string_equal(cause, "F, line 2: expected \"name = value\"");
	free(cause);
	assert_int_equal(api_conf_parse("F", "Key Name = v\n", &c, &cause), -1);
	assert_non_null(strstr(cause, "line 1"));
	free(cause);
}

static void test_conf_files(void **state)
{
	char dir[] = "/tmp/gpux-test-conf.XXXXXX";
	char *path, *cause = NULL, *text = NULL;
	struct api_conf *c = NULL;
	size_t len;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/sub/config", dir);
	/* missing: empty */
	assert_int_equal(api_conf_load(path, &c, &cause), 0);
	assert_null(api_conf_get(c, "api"));
	/* set and save: 0600, directory created, comments kept */
	api_conf_free(&c);
	assert_int_equal(api_conf_parse(path, "# mine\nlang = en\ntheme = dark\n", &c, &cause), 0);
	api_conf_set(c, "lang", "pt-PT");
	api_conf_set(c, "theme", NULL);
	api_conf_set(c, "key", "gpux_k");
	assert_int_equal(api_conf_save(c, path, &cause), 0);
	api_conf_free(&c);
	assert_int_equal(util_read_file(path, &text, &len, &cause), 0);
	assert_string_equal(text, "# mine\nlang = pt-PT\nkey = gpux_k\n");
	free(text);
	{
		struct stat st;
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0600);
	}
	/* a key readable by others is refused, with the fix */
	chmod(path, 0644);
	assert_int_equal(api_conf_load(path, &c, &cause), -1);
	assert_non_null(strstr(cause, "chmod 600"));
	assert_null(strstr(cause, "gpux_k"));
	free(cause);
	/* without a key, 0644 is fine */
	f = fopen(path, "w");
	fputs("lang = fr\n", f);
	fclose(f);
	assert_int_equal(api_conf_load(path, &c, &cause), 0);
	assert_string_equal(api_conf_get(c, "lang"), "fr");
	api_conf_free(&c);
	unlink(path);
	free(path);
	path = xasprintf("%s/sub", dir);
	rmdir(path);
	free(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quotes_example),
		cmocka_unit_test(test_quotes_bad_numbers),
		cmocka_unit_test(test_bodies_that_are_not_json),
		cmocka_unit_test(test_strings_are_sanitised),
		cmocka_unit_test(test_order_example),
		cmocka_unit_test(test_preview_example),
		cmocka_unit_test(test_account_and_rentals),
		cmocka_unit_test(test_error_bodies),
		cmocka_unit_test(test_error_texts),
		cmocka_unit_test(test_client_order_ids),
		cmocka_unit_test(test_urls),
		cmocka_unit_test(test_conf_parse),
		cmocka_unit_test(test_conf_files),
		cmocka_unit_test(test_curl_loading),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
