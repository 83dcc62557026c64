/*
 * tests/unit/test_door.c — who the client is (exchange/proxy.c): the key its
 * limits count under (IPv4 address, IPv6 /64), trusted ranges, the rightmost
 * untrusted hop of X-Forwarded-For, and the PROXY protocol's headers as the
 * HAProxy specification (proxy-protocol.txt, v1 section 2.1, v2 section 2.2)
 * writes them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cmocka.h>

#include "exchange/xd.h"

static struct sockaddr_storage addr(const char *ip)
{
	struct sockaddr_storage ss;
	memset(&ss, 0, sizeof ss);
	if (strchr(ip, ':')) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
		s6->sin6_family = AF_INET6;
		assert_int_equal(inet_pton(AF_INET6, ip, &s6->sin6_addr), 1);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
		s4->sin_family = AF_INET;
		assert_int_equal(inet_pton(AF_INET, ip, &s4->sin_addr), 1);
	}
	return ss;
}

static void key_of(const char *ip, char *out)
{
	struct sockaddr_storage ss = addr(ip);
	xd_addr_key((struct sockaddr *)&ss, out, 64);
}

static void test_keys(void **state)
{
	(void)state;
	char k[64], k2[64];
	key_of("192.0.2.7", k);
	assert_string_equal(k, "192.0.2.7");
	key_of("192.0.2.8", k2);
	assert_string_not_equal(k, k2);               /* IPv4: each address its own */
	key_of("::ffff:192.0.2.7", k2);
	assert_string_equal(k2, "192.0.2.7");         /* mapped: the IPv4 address */
	key_of("2001:db8:1:2::1", k);
	assert_string_equal(k, "2001:db8:1:2::/64");
	key_of("2001:db8:1:2:ffff:ffff:ffff:ffff", k2);
	assert_string_equal(k, k2);                   /* one /64, one key */
	key_of("2001:db8:1:3::1", k2);
	assert_string_not_equal(k, k2);               /* the next /64 */
	key_of("::1", k);
	assert_string_equal(k, "::/64");
	struct sockaddr un = { .sa_family = AF_UNIX };
	xd_addr_key(&un, k, sizeof k);
	assert_string_equal(k, "");
}

static bool trusted(const struct xd_trust *t, const char *ip)
{
	struct sockaddr_storage ss = addr(ip);
	return xd_trust_has(t, (struct sockaddr *)&ss);
}

static void test_trust(void **state)
{
	(void)state;
	struct xd_trust *t = NULL;
	char *cause = NULL;
	assert_int_equal(xd_trust_add(&t, "10.0.0.0/8", &cause), 0);
	assert_int_equal(xd_trust_add(&t, "2001:db8::/33", &cause), 0);
	assert_int_equal(xd_trust_add(&t, "192.0.2.7", &cause), 0);
	assert_true(trusted(t, "10.255.0.1"));
	assert_false(trusted(t, "11.0.0.1"));
	assert_true(trusted(t, "::ffff:10.1.2.3"));
	assert_true(trusted(t, "2001:db8:7fff::1"));
	assert_false(trusted(t, "2001:db8:8000::1"));  /* bit 33 set */
	assert_true(trusted(t, "192.0.2.7"));
	assert_false(trusted(t, "192.0.2.6"));
	assert_false(xd_trust_has(t, NULL));
	const char *bad[] = { "10.0.0.0/33", "10.0.0.0/", "10.0.0/8", "::/129", "", "/8", "host", "1.2.3.4/x" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(xd_trust_add(&t, bad[i], &cause), -1);
		assert_non_null(strstr(cause, "--trusted-proxy"));
		free(cause);
		cause = NULL;
	}
	xd_trust_free(&t);
	assert_null(t);
	assert_false(trusted(NULL, "10.0.0.1"));
}

static void xff_is(const struct xd_trust *t, const char *xff, const char *want)
{
	struct sockaddr_storage ss;
	if (!want) {
		assert_int_equal(xd_xff_client(t, xff, &ss), -1);
		return;
	}
	assert_int_equal(xd_xff_client(t, xff, &ss), 0);
	char got[64];
	if (ss.ss_family == AF_INET)
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, got, sizeof got);
	else
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, got, sizeof got);
	assert_string_equal(got, want);
}

static void test_xff(void **state)
{
	(void)state;
	struct xd_trust *t = NULL;
	char *cause = NULL;
	assert_int_equal(xd_trust_add(&t, "10.0.0.0/8", &cause), 0);
	xff_is(t, "198.51.100.7", "198.51.100.7");
	xff_is(t, "203.0.113.1, 198.51.100.7", "198.51.100.7");       /* rightmost */
	xff_is(t, "198.51.100.7, 10.0.0.2, 10.0.0.3", "198.51.100.7"); /* past trusted hops */
	xff_is(t, "10.0.0.2, 10.0.0.3", "10.0.0.2");                  /* all trusted: leftmost */
	xff_is(t, " 198.51.100.7 ,\t10.0.0.2 ", "198.51.100.7");
	xff_is(t, "[2001:db8::1]:443", "2001:db8::1");
	xff_is(t, "2001:db8::1", "2001:db8::1");
	xff_is(t, "198.51.100.7:5678", "198.51.100.7");
	xff_is(t, "garbage", NULL);
	xff_is(t, "198.51.100.7, ", NULL);                              /* an empty hop */
	xff_is(t, "", NULL);
	xff_is(t, "unknown, 10.0.0.2", NULL);
	xd_trust_free(&t);
}

static int parse(const void *data, size_t len, size_t *used, char *ip, unsigned *port)
{
	struct sockaddr_storage ss;
	memset(&ss, 0, sizeof ss);
	int rc = xd_proxy_parse(data, len, used, &ss);
	ip[0] = 0;
	*port = 0;
	if (rc == XD_PROXY_ADDR && ss.ss_family == AF_INET) {
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, ip, 64);
		*port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	} else if (rc == XD_PROXY_ADDR) {
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, ip, 64);
		*port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	}
	return rc;
}

static void test_proxy_v1(void **state)
{
	(void)state;
	char ip[64];
	unsigned port;
	size_t used;
	const char *h = "PROXY TCP4 192.0.2.1 198.51.100.1 56324 443\r\nGET / HTTP/1.1\r\n";
	assert_int_equal(parse(h, strlen(h), &used, ip, &port), XD_PROXY_ADDR);
	assert_string_equal(ip, "192.0.2.1");
	assert_int_equal(port, 56324);
	assert_int_equal(used, strlen("PROXY TCP4 192.0.2.1 198.51.100.1 56324 443\r\n"));
	h = "PROXY TCP6 2001:db8::1 2001:db8::2 1 2\r\n";
	assert_int_equal(parse(h, strlen(h), &used, ip, &port), XD_PROXY_ADDR);
	assert_string_equal(ip, "2001:db8::1");
	h = "PROXY UNKNOWN\r\n";
	assert_int_equal(parse(h, strlen(h), &used, ip, &port), XD_PROXY_LOCAL);
	assert_int_equal(used, strlen(h));
	/* every prefix of a header needs more */
	h = "PROXY TCP4 192.0.2.1 198.51.100.1 56324 443\r\n";
	for (size_t n = 1; n < strlen(h); n++)
		assert_int_equal(parse(h, n, &used, ip, &port), XD_PROXY_MORE);
	const char *bad[] = {
		"PROXY TCP4 192.0.2.1 198.51.100.1 56324\r\n",           /* a port missing */
		"PROXY TCP4 192.0.2.1 198.51.100.1 56324 443 x\r\n",     /* something after */
		"PROXY TCP4 2001:db8::1 198.51.100.1 1 2\r\n",           /* family mismatch */
		"PROXY TCP5 192.0.2.1 198.51.100.1 1 2\r\n",
		"PROXY TCP4 192.0.2.1 198.51.100.1 70000 2\r\n",
		"PROXY TCP4 192.0.2.300 198.51.100.1 1 2\r\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		assert_int_equal(parse(bad[i], strlen(bad[i]), &used, ip, &port), XD_PROXY_BAD);
	char longer[200];
	memset(longer, 'a', sizeof longer);
	memcpy(longer, "PROXY ", 6);
	assert_int_equal(parse(longer, sizeof longer, &used, ip, &port), XD_PROXY_BAD);  /* no CRLF in 107 */
	h = "GET / HTTP/1.1\r\n";
	assert_int_equal(parse(h, strlen(h), &used, ip, &port), XD_PROXY_NONE);
	assert_int_equal(parse("PROXIES", 7, &used, ip, &port), XD_PROXY_NONE);
}

static void test_proxy_v2(void **state)
{
	(void)state;
	char ip[64];
	unsigned port;
	size_t used;
	unsigned char h[64] = { 0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a,
	                        0x21, 0x11, 0x00, 0x0c, 203, 0, 113, 9, 127, 0, 0, 1, 0x9c, 0x40, 0x20, 0xe4,
	                        'G', 'E', 'T' };
	assert_int_equal(parse(h, 31, &used, ip, &port), XD_PROXY_ADDR);
	assert_string_equal(ip, "203.0.113.9");
	assert_int_equal(port, 40000);
	assert_int_equal(used, 28);
	for (size_t n = 1; n < 28; n++)
		assert_int_equal(parse(h, n, &used, ip, &port), XD_PROXY_MORE);
	/* TLVs after the addresses are skipped with the length */
	h[15] = 0x10;
	assert_int_equal(parse(h, 32, &used, ip, &port), XD_PROXY_ADDR);
	assert_int_equal(used, 32);
	/* IPv6 */
	unsigned char h6[52] = { 0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a,
	                         0x21, 0x21, 0x00, 0x24, 0x20, 0x01, 0x0d, 0xb8 };
	h6[31] = 1;
	h6[48] = 0x01;
	h6[49] = 0xbb;
	assert_int_equal(parse(h6, sizeof h6, &used, ip, &port), XD_PROXY_ADDR);
	assert_string_equal(ip, "2001:db8::1");
	assert_int_equal(port, 443);
	/* LOCAL: the proxy's own connection */
	unsigned char local[16] = { 0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a,
	                            0x20, 0x00, 0x00, 0x00 };
	assert_int_equal(parse(local, 16, &used, ip, &port), XD_PROXY_LOCAL);
	assert_int_equal(used, 16);
	/* version 1 in a v2 header, command 2, a short address block, a UDP stream */
	unsigned char bad[28];
	memcpy(bad, h, 28);
	bad[15] = 0x0c;
	bad[12] = 0x11;
	assert_int_equal(parse(bad, 28, &used, ip, &port), XD_PROXY_BAD);
	bad[12] = 0x22;
	assert_int_equal(parse(bad, 28, &used, ip, &port), XD_PROXY_BAD);
	bad[12] = 0x21;
	bad[15] = 0x04;
	assert_int_equal(parse(bad, 20, &used, ip, &port), XD_PROXY_BAD);
	bad[15] = 0x0c;
	bad[13] = 0x12;
	assert_int_equal(parse(bad, 28, &used, ip, &port), XD_PROXY_BAD);
	/* longer than gpuxd reads */
	bad[13] = 0x11;
	bad[14] = 0xff;
	assert_int_equal(parse(bad, 28, &used, ip, &port), XD_PROXY_BAD);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_trust),
		cmocka_unit_test(test_xff),
		cmocka_unit_test(test_proxy_v1),
		cmocka_unit_test(test_proxy_v2),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
