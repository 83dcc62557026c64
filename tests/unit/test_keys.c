/*
 * tests/unit/test_keys.c — the pure parts of API keys and the first run:
 * the opening time in words (i18n_fmt_when) in every language and in the
 * time zone of TZ; gpuxd's check of the operator's top-up instructions;
 * the body of POST /v1/keys; the client's decoders of the keys, of a new
 * key (never quoting it) and of GET /v1/market's top-up fields.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "api/api.h"
#include "exchange/xd.h"
#include "i18n/i18n.h"

/* 2027-09-01T09:00:00Z */
#define OPENS 1819789200LL

static void expect_when(enum i18n_lang lang, int64_t t, unsigned flags, const char *want)
{
	char *s = i18n_fmt_when(lang, t, flags);
	assert_string_equal(s, want);
	free(s);
}

static void test_when_languages(void **state)
{
	(void)state;
	setenv("TZ", "Europe/Lisbon", 1);
	tzset();
	/* Lisbon in September is UTC+1 (WEST) */
	expect_when(I18N_EN, OPENS, 0, "1 September 2027 at 10:00");
	expect_when(I18N_PT_PT, OPENS, 0, "1 de setembro de 2027 às 10:00");
	expect_when(I18N_PT_BR, OPENS, 0, "1 de setembro de 2027 às 10:00");
	expect_when(I18N_ES, OPENS, 0, "1 de septiembre de 2027 a las 10:00");
	expect_when(I18N_FR, OPENS, 0, "1er septembre 2027 à 10:00");
	expect_when(I18N_DE, OPENS, 0, "1. September 2027 um 10:00");
	expect_when(I18N_FR, OPENS + 86400, 0, "2 septembre 2027 à 10:00");
	expect_when(I18N_EN, OPENS, I18N_UTC, "1 September 2027 at 09:00 UTC");
}

static void test_when_time_zone(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	expect_when(I18N_EN, OPENS, 0, "1 September 2027 at 09:00");
	setenv("TZ", "America/New_York", 1);
	tzset();
	/* 05:00 EDT; and the day before when it is still night there */
	expect_when(I18N_EN, OPENS, 0, "1 September 2027 at 05:00");
	expect_when(I18N_DE, OPENS - 6 * 3600, 0, "31. August 2027 um 23:00");
	setenv("TZ", "Europe/Lisbon", 1);
	tzset();
	/* winter: Lisbon is UTC, March in every language's month names */
	expect_when(I18N_PT_PT, 1804150800LL, 0, "4 de março de 2027 às 09:00");
}

static void test_topup_check(void **state)
{
	char *cause = NULL;
	(void)state;
	assert_int_equal(exchange_topup_check(NULL, NULL, &cause), 0);
	assert_int_equal(exchange_topup_check("https://pay.example.com/x?a=1&b=2", "Transferência "
	                                      "para PT50 0002, referência: a sua conta", &cause), 0);
	assert_int_equal(exchange_topup_check("http://pay.example", NULL, &cause), 0);
	static const char *const bad_urls[] = {
		"ftp://x", "https://", "https://a b", "https://x/\"><script>", "javascript:alert(1)",
		"https://x/\x1b[2J", "", "pay.example.com",
	};
	for (size_t i = 0; i < sizeof bad_urls / sizeof bad_urls[0]; i++) {
		assert_int_equal(exchange_topup_check(bad_urls[i], NULL, &cause), -1);
		assert_non_null(strstr(cause, "--topup-url"));
		free(cause);
		cause = NULL;
	}
	char long_url[600];
	memset(long_url, 'a', sizeof long_url - 1);
	memcpy(long_url, "https://", 8);
	long_url[sizeof long_url - 1] = 0;
	assert_int_equal(exchange_topup_check(long_url, NULL, &cause), -1);
	free(cause);
	cause = NULL;
	static const char *const bad_texts[] = { "", "pay\x1b[2J", "two\nlines", "\xc2\x9b" "31m",
	                                         "bad \xff utf-8" };
	for (size_t i = 0; i < sizeof bad_texts / sizeof bad_texts[0]; i++) {
		assert_int_equal(exchange_topup_check(NULL, bad_texts[i], &cause), -1);
		assert_non_null(strstr(cause, "--topup-text"));
		free(cause);
		cause = NULL;
	}
}

static int parse_key(const char *body, struct xd_job *j, struct xd_reply *r)
{
	memset(j, 0, sizeof *j);
	memset(r, 0, sizeof *r);
	return xd_parse_key_create(body, strlen(body), j, r);
}

static void expect_refused(const char *body, const char *code, const char *field)
{
	struct xd_job j;
	struct xd_reply r;
	assert_int_equal(parse_key(body, &j, &r), -1);
	assert_int_equal(r.status, 400);
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(r.body, "error");
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(e, "code")->valuestring, code);
	if (field)
		assert_string_equal(cJSON_GetObjectItemCaseSensitive(e, "field")->valuestring, field);
	xd_reply_clear(&r);
}

static void expect_hash(const char *text, const char *hex)
{
	unsigned char h[32];
	char got[65];
	xd_keys_hash(text, strlen(text), h);
	for (size_t i = 0; i < 32; i++)
		snprintf(got + 2 * i, 3, "%02x", h[i]);
	assert_string_equal(got, hex);
}

/* What api_keys.key_hash holds: the SHA-256 of the key's text. FIPS 180-2's
 * "abc", and a key as gpuxd makes them (sha256sum of the same bytes). */
static void test_key_hash_is_sha256_of_the_text(void **state)
{
	(void)state;
	expect_hash("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	expect_hash("gpux_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	            "1e00bd5fc87755e9d95ad2253be938ecaf3cebcb48b1257987de15c4bcf05238");
	char key[72];
	unsigned char h[32], again[32];
	struct xd_reply r;
	memset(&r, 0, sizeof r);
	assert_int_equal(xd_keys_generate(key, h, &r), 0);
	assert_int_equal(strlen(key), 69);
	xd_keys_hash(key, 69, again);
	assert_memory_equal(h, again, 32);
}

static void test_key_create_body(void **state)
{
	struct xd_job j;
	struct xd_reply r;
	(void)state;
	assert_int_equal(parse_key("", &j, &r), 0);
	assert_string_equal(j.key_name, "");
	assert_int_equal(j.key_scope, XD_SCOPE_TRADE);
	assert_int_equal(parse_key("{\"name\":\"ci – läuft\",\"scope\":\"read\"}", &j, &r), 0);
	assert_string_equal(j.key_name, "ci – läuft");
	assert_int_equal(j.key_scope, XD_SCOPE_READ);
	expect_refused("{\"scope\":\"admin\"}", "BAD_VALUE", "scope");
	expect_refused("{\"scope\":1}", "WRONG_TYPE", "scope");
	expect_refused("{\"name\":\"\"}", "BAD_VALUE", "name");
	expect_refused("{\"name\":\"a\\u001bb\"}", "BAD_VALUE", "name");
	expect_refused("{\"name\":\"a\\u0085b\"}", "BAD_VALUE", "name");
	expect_refused("{\"name\":\"x\",\"name\":\"y\"}", "DUPLICATE_FIELD", "name");
	expect_refused("{\"label\":\"x\"}", "UNKNOWN_FIELD", "label");
	expect_refused("[]", "BAD_JSON", NULL);
	char big[128];
	snprintf(big, sizeof big, "{\"name\":\"%065d\"}", 0);
	expect_refused(big, "STRING_TOO_LONG", "name");
}

static void *decode(const char *name, long status, const char *json, char **cause)
{
	void *out = NULL;
	*cause = NULL;
	if (api_keys_decode(name, status, json, strlen(json), &out, cause) != 0)
		return NULL;
	return out;
}

static void test_decode_keys(void **state)
{
	char *cause;
	(void)state;
	struct api_keys *k = decode("keys", 200, "{\"keys\":[{\"id\":1,\"name\":\"default\","
		"\"scope\":\"trade\",\"created_at\":\"2027-09-01T09:00:00Z\",\"last_used_at\":null,"
		"\"revoked_at\":null,\"current\":true},{\"id\":7,\"name\":\"ci\x1b[2J\",\"scope\":"
		"\"read\",\"created_at\":\"2027-09-01T09:00:00Z\",\"last_used_at\":"
		"\"2027-09-01T09:01:00Z\",\"revoked_at\":null,\"current\":false}],\"max\":20}", &cause);
	assert_non_null(k);
	assert_int_equal(k->n, 2);
	assert_int_equal(k->max, 20);
	assert_int_equal(k->v[0].scope, API_SCOPE_TRADE);
	assert_true(k->v[0].current);
	assert_int_equal(k->v[0].last_used_at, -1);
	assert_int_equal(k->v[1].scope, API_SCOPE_READ);
	assert_int_equal(k->v[1].last_used_at, OPENS + 60);
	assert_null(strchr(k->v[1].name, '\x1b'));   /* sanitised */
	assert_null(k->v[1].api_key);
	api_keys_free(&k);
	assert_null(k);

	assert_null(decode("keys", 200, "{\"keys\":[{\"id\":1,\"name\":\"x\",\"scope\":\"admin\","
		"\"created_at\":\"2027-09-01T09:00:00Z\",\"last_used_at\":null,\"revoked_at\":null,"
		"\"current\":true}],\"max\":20}", &cause));
	assert_non_null(strstr(cause, "keys[0].scope"));
	free(cause);
	assert_null(decode("keys", 200, "{\"keys\":[],\"max\":\"20\"}", &cause));
	free(cause);
}

static void test_decode_new_key(void **state)
{
	char *cause;
	(void)state;
	const char *ok = "{\"id\":7,\"name\":\"ci\",\"scope\":\"read\",\"created_at\":"
		"\"2027-09-01T09:00:00Z\",\"last_used_at\":null,\"revoked_at\":null,\"current\":false,"
		"\"api_key\":\"gpux_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"}";
	struct api_key *k = decode("key", 201, ok, &cause);
	assert_non_null(k);
	assert_string_equal(k->api_key, "gpux_0123456789abcdef0123456789abcdef0123456789abcdef"
	                    "0123456789abcdef");
	api_key_free(&k);
	/* a 201 without the key, or with a key of the wrong shape, is an error that never
	 * quotes the key */
	assert_null(decode("key", 201, "{\"id\":7,\"name\":\"ci\",\"scope\":\"read\",\"created_at\":"
		"\"2027-09-01T09:00:00Z\",\"last_used_at\":null,\"revoked_at\":null,\"current\":false}",
		&cause));
	free(cause);
	assert_null(decode("key", 201, "{\"id\":7,\"name\":\"ci\",\"scope\":\"read\",\"created_at\":"
		"\"2027-09-01T09:00:00Z\",\"last_used_at\":null,\"revoked_at\":null,\"current\":false,"
		"\"api_key\":\"gpux_secret with space\"}", &cause));
	assert_null(strstr(cause, "secret"));
	free(cause);
	/* the revoke reply (200) has no key and a revoked_at */
	k = decode("key", 200, "{\"id\":7,\"name\":\"ci\",\"scope\":\"read\",\"created_at\":"
		"\"2027-09-01T09:00:00Z\",\"last_used_at\":null,\"revoked_at\":\"2027-09-01T09:00:00Z\","
		"\"current\":false}", &cause);
	assert_non_null(k);
	assert_int_equal(k->revoked_at, OPENS);
	assert_null(k->api_key);
	api_key_free(&k);
}

static void test_decode_topup(void **state)
{
	char *cause;
	(void)state;
	struct api_topup *t = decode("topup", 200, "{\"state\":\"pre_open\",\"opens_at\":"
		"\"2027-09-01T09:00:00Z\",\"simulated_payments\":false,\"topup\":{\"url\":"
		"\"https://pay.example.com\",\"text\":\"IBAN\\u001b[31m PT50\"}}", &cause);
	assert_non_null(t);
	assert_int_equal(t->state, API_MARKET_PRE_OPEN);
	assert_int_equal(t->opens_at, OPENS);
	assert_false(t->simulated_payments);
	assert_string_equal(t->url, "https://pay.example.com");
	assert_null(strchr(t->text, '\x1b'));
	api_topup_free(&t);
	/* an exchange without instructions (or older than them) */
	t = decode("topup", 200, "{\"state\":\"open\",\"opens_at\":null,\"simulated_payments\":true}",
	           &cause);
	assert_non_null(t);
	assert_int_equal(t->opens_at, -1);
	assert_null(t->url);
	assert_null(t->text);
	api_topup_free(&t);
	t = decode("topup", 200, "{\"state\":\"open\",\"opens_at\":null,\"simulated_payments\":true,"
	           "\"topup\":{\"url\":null,\"text\":null}}", &cause);
	assert_non_null(t);
	api_topup_free(&t);
	assert_null(decode("topup", 200, "{\"state\":\"open\",\"opens_at\":null,"
	                   "\"simulated_payments\":true,\"topup\":\"pay me\"}", &cause));
	free(cause);
	assert_null(decode("topup", 200, "{\"state\":\"closed\",\"opens_at\":null,"
	                   "\"simulated_payments\":true}", &cause));
	free(cause);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_when_languages),
		cmocka_unit_test(test_when_time_zone),
		cmocka_unit_test(test_topup_check),
		cmocka_unit_test(test_key_hash_is_sha256_of_the_text),
		cmocka_unit_test(test_key_create_body),
		cmocka_unit_test(test_decode_keys),
		cmocka_unit_test(test_decode_new_key),
		cmocka_unit_test(test_decode_topup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
