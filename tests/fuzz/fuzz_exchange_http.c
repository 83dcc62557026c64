/*
 * libFuzzer target over gpuxd's front door as a whole: the real
 * libmicrohttpd daemon (exchange/http.c, detached: no listening socket),
 * the guard's strict checks (exchange/guard.c), the router and handlers
 * (exchange/routes.c) and the writer, over a throwaway SQLite store in a
 * temporary directory (market open, an admin key, no rate limits).
 *
 * Input: raw bytes of one or more pipelined requests, written on one end of
 * a socketpair whose other end is handed to the daemon (MHD_add_connection,
 * as from 127.0.0.1); then the write side is shut and everything the server
 * sends is read until it closes the connection (a 5 s silence aborts: a
 * connection that neither answers nor closes after end of input is a hang).
 * Requests with "Authorization: Bearer fuzz-admin-key-0123456789" act as the
 * operator (deposits, the clock, the market state).
 *
 * Besides crashes, leaks and UB, it checks what docs/API.md "Strict HTTP"
 * promises and abort()s on a violation: every reply is a well-formed
 * HTTP/1.x status line with headers and a body of its Content-Length; a
 * gpuxd reply (X-Request-Id) has a JSON body and Content-Type; a refusal of
 * the framing (BAD_HEADER, DUPLICATE_HEADER, CONFLICTING_HEADERS,
 * BAD_REQUEST_LINE, BODY_TOO_LARGE) says Connection: close and nothing
 * follows it; an error libmicrohttpd answers itself says Connection: close
 * and no gpuxd reply follows it; there are no more replies than request
 * lines.
 *
 *   make build/fuzz/fuzz_exchange_http && build/fuzz/fuzz_exchange_http \
 *       -max_len=4096 -max_total_time=300 tests/fuzz/corpus/fuzz_exchange_http
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "exchange/xd.h"
#include "util/util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct xd_tables *tables;
static struct xd_market *market;
static struct xd_server *server;
static char dir[] = "/tmp/fuzz_exchange_http.XXXXXX";

static const struct buf *replies_seen;   /* printed when an invariant fails */

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "invariant failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	if (replies_seen && replies_seen->data) { \
		fprintf(stderr, "the server sent:\n"); \
		fwrite(replies_seen->data, 1, replies_seen->len, stderr); } \
	abort(); } } while (0)

static void cleanup(void)
{
	xd_server_quiesce(server);
	xd_market_close(&market);
	xd_server_stop(&server);
	xd_tables_free(&tables);
	char *cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz_exchange_http: could not remove %s\n", dir);
	free(cmd);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	char *cause = NULL;
	if (!mkdtemp(dir) || xd_tables_load(NULL, &tables, &cause) != 0) {
		fprintf(stderr, "fuzz_exchange_http: %s\n", cause ? cause : strerror(errno));
		abort();
	}
	char *db = xasprintf("%s/gpuxd.db", dir);
	struct xd_market_config mc = {
		.tables = tables, .db_path = db, .state = EXCHANGE_OPEN, .opens_at_ms = -1,
		.clock_speed = 1.0, .seed = 1, .admin_key = "fuzz-admin-key-0123456789",
	};
	struct xd_server_config sc = {
		.threads = 2, .quiet = true,
		.limits = { .max_conns = 64, .max_conns_per_addr = 0, .max_streams = 8,
		            .max_streams_per_addr = 0, .header_timeout_s = 5, .body_timeout_s = 5 },
	};
	if (xd_market_open(&mc, &market, &cause) != 0 ||
	    xd_server_detached(&sc, market, &server, &cause) != 0) {
		fprintf(stderr, "fuzz_exchange_http: %s\n", cause);
		abort();
	}
	free(db);
	atexit(cleanup);
	return 0;
}

/* Write data while reading what comes back (neither side may fill up),
 * then shut the write side and read until the server closes. */
static void exchange(int fd, const uint8_t *data, size_t size, struct buf *out)
{
	size_t sent = 0;
	bool shut = false;
	for (;;) {
		if (sent == size && !shut) {
			shutdown(fd, SHUT_WR);
			shut = true;
		}
		struct pollfd p = { .fd = fd, .events = POLLIN | (sent < size ? POLLOUT : 0) };
		int n = poll(&p, 1, 5000);
		CHECK(n > 0);   /* neither an answer nor a close within 5 s: a hang */
		if (p.revents & POLLOUT) {
			ssize_t w = send(fd, data + sent, size - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
			if (w > 0)
				sent += (size_t)w;
			else if (w < 0 && errno != EAGAIN)
				sent = size;   /* the server closed: the rest is not read */
		}
		if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
			char b[16384];
			ssize_t r = recv(fd, b, sizeof b, MSG_DONTWAIT);
			if (r == 0 || (r < 0 && errno != EAGAIN))
				return;
			if (r > 0)
				buf_append(out, b, (size_t)r);
		}
	}
}

static const char *find_header(const char *head, size_t len, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = head; p && p < head + len; ) {
		const char *eol = memchr(p, '\n', (size_t)(head + len - p));
		if (!eol)
			return NULL;
		if ((size_t)(eol - p) > n + 1 && strncasecmp(p, name, n) == 0 && p[n] == ':')
			return p + n + 1;
		p = eol + 1;
	}
	return NULL;
}

static bool framing_refusal(const char *body, size_t len)
{
	static const char *const codes[] = { "BAD_HEADER", "DUPLICATE_HEADER", "CONFLICTING_HEADERS",
	                                     "BAD_REQUEST_LINE", "BODY_TOO_LARGE", NULL };
	for (size_t i = 0; codes[i]; i++) {
		char *pat = xasprintf("\"code\":\"%s\"", codes[i]);
		bool hit = memmem(body, len, pat, strlen(pat)) != NULL;
		free(pat);
		if (hit)
			return true;
	}
	return false;
}

/* Every reply in out: well-formed, and a framing refusal is the last
 * (head: the input has a HEAD request, whose reply has no body). */
static void check_replies(const struct buf *out, size_t request_lines, bool head)
{
	if (!out->data)
		return;   /* closed without a reply */
	const char *p = out->data, *end = out->data + out->len;
	size_t replies = 0;
	while (p < end) {
		CHECK(end - p >= 12 && (memcmp(p, "HTTP/1.1 ", 9) == 0 || memcmp(p, "HTTP/1.0 ", 9) == 0));
		CHECK(p[9] >= '1' && p[9] <= '5' && p[10] >= '0' && p[10] <= '9' && p[11] >= '0' && p[11] <= '9');
		const char *hend = memmem(p, (size_t)(end - p), "\r\n\r\n", 4);
		CHECK(hend);
		size_t hlen = (size_t)(hend - p) + 2;
		if (p[9] == '1') {   /* 100 Continue: no body, not a reply */
			p = hend + 4;
			continue;
		}
		if (!find_header(p, hlen, "X-Request-Id") && p[9] >= '4') {
			/* libmicrohttpd's own refusal (docs/API.md, Strict HTTP): it
			 * closes the connection, and nothing after it was run. (0.9.75
			 * may send its status line and headers twice before the body.) */
			const char *conn = find_header(p, hlen, "Connection");
			CHECK(conn && strncasecmp(conn, " close", 6) == 0);
			CHECK(!memmem(p, (size_t)(end - p), "X-Request-Id", 12));
			break;
		}
		const char *cl = find_header(p, hlen, "Content-Length");
		CHECK(cl);
		char *e;
		long n = strtol(cl, &e, 10);
		const char *body = hend + 4;
		replies++;
		if (head && n > 0 && (body == end || (end - body >= 7 && memcmp(body, "HTTP/1.", 7) == 0))) {
			p = body;    /* the reply to a HEAD: its length, no body */
			continue;
		}
		CHECK(n >= 0 && body + n <= end);
		if (find_header(p, hlen, "X-Request-Id")) {
			const char *ct = find_header(p, hlen, "Content-Type");
			CHECK(ct && strncmp(ct, " application/json", 17) == 0);
			CHECK(n > 0 && body[0] == '{');
			if (framing_refusal(body, (size_t)n)) {
				const char *conn = find_header(p, hlen, "Connection");
				CHECK(conn && strncasecmp(conn, " close", 6) == 0);
				CHECK(body + n == end);   /* nothing after it: the connection closed */
			}
		}
		p = body + n;
	}
	CHECK(replies <= request_lines + 1);
}

static size_t count_lines(const uint8_t *data, size_t size)
{
	size_t n = 0;
	for (size_t i = 0; i < size; i++)
		n += data[i] == '\n';
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		abort();
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(40000),
	                          .sin_addr.s_addr = htonl(0x7f000001) };
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	if (xd_server_add(server, sv[1], (struct sockaddr *)&sa, sizeof sa) != 0) {
		close(sv[0]);
		return 0;   /* refused at the caps: libmicrohttpd closed it */
	}
	struct buf out = { 0 };
	replies_seen = &out;
	exchange(sv[0], data, size, &out);
	close(sv[0]);
	check_replies(&out, count_lines(data, size), memmem(data, size, "HEAD", 4) != NULL);
	replies_seen = NULL;
	buf_free(&out);
	return 0;
}
