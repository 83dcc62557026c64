/*
 * faultd — a tiny HTTP/1.1 server on loopback that misbehaves on purpose, for
 * the exchange client's tests. One connection at a time, one request per
 * connection (every reply says "Connection: close").
 *
 *   faultd --listen 127.0.0.1:0 --port-file F --mode MODE [--upstream HOST:PORT]
 *          [--times N] [--delay-ms MS] [--retry-after S] [--log FILE]
 *          [--times-log FILE]
 *
 * MODE says what to do with the first N requests that the fault applies to
 * (--times, default: all); every other request is proxied to --upstream (a
 * real gpuxd), or answered with a canned, valid quotes reply without one.
 *
 *   proxy          no fault
 *   nonjson        200 with an HTML body
 *   truncated      200, Content-Length 4096, 60 bytes sent, connection closed
 *   truncated-json 200 without Content-Length, half a JSON object, closed
 *   wrongtypes     200, quotes whose best_ask_cents is a string
 *   negative       200, a negative price
 *   bignum         200, a price of 9007199254740993 (beyond 2^53)
 *   fraction       200, a price of 4.19 (not whole cents)
 *   missing        200, a quote without best_ask_cents
 *   huge           200, a 9 MiB JSON body without Content-Length
 *   huge-cl        the same with Content-Length
 *   500            500 {"error":{"code":"INTERNAL",…}}
 *   503            503 with Retry-After: 1 (--retry-after N: N) {"error":{"code":"UNAVAILABLE",…}},
 *                  to every request, streams too
 *   trickle        the reply (proxied or canned): its header at once, then
 *                  the body one byte every --delay-ms (default 1000) until
 *                  it is sent or the client goes
 *   502-html       502 with an HTML body
 *   slow           waits --delay-ms before answering (proxied or canned)
 *   reset          closes the connection with a TCP reset instead of answering
 *   reset-order    forwards POST /v1/orders to the upstream, waits for its
 *                  (committed) answer, then resets the connection instead of
 *                  passing the answer on; other requests are proxied
 *   reset-signup   the same for POST /v1/accounts (the account is created,
 *                  the client never hears of it)
 *   hang           reads the request and never answers; holds the connection
 *                  until the client closes it (at most 120 s), then takes the
 *                  next (which meanwhile waits in the listen backlog)
 *   503-date       503 with Retry-After as an HTTP date --delay-ms from now
 *                  (rounded up to a whole second)
 *   huge-header    200 with a 200 KB header line before a valid body
 *
 * Stream modes apply to GET /v1/stream only; every other request is proxied
 * or canned as above, and a stream request the fault does not apply to gets
 * a canned, valid stream (a quotes snapshot, one quote increment, a
 * heartbeat) held open for --delay-ms (default 1000), then closed:
 *   sse-garbage    a snapshot, then a line that is not SSE
 *   sse-huge       a snapshot, then a 2 MiB line
 *   sse-stall      a snapshot, then nothing for --delay-ms
 *   sse-drop       a snapshot, then half an event, then the connection closes
 *   sse-gap        a snapshot at seq 7, then an increment whose prev is 9
 *   sse-404        404 {"error":{"code":"NOT_FOUND",…}} (a server that does not stream)
 * The log gets "LAST-EVENT-ID <value>" (or "-") for every stream request.
 *
 * --log FILE gets one line per request: "METHOD PATH BODY" (never headers, so
 * never a key), then "AUTHORIZATION yes" or "AUTHORIZATION no" (whether the
 * request carried that header, never its value: a key sent to the wrong
 * exchange shows as "yes"), and "FAULT <mode>" when the fault was applied;
 * --times-log FILE gets "MS METHOD PATH" per request (a monotonic clock,
 * milliseconds).
 */
#include "util/util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define MAX_REQ (1024 * 1024)

static const char *mode = "proxy";
static const char *upstream_host;
static int upstream_port;
static long times = -1;      /* faults left; -1 = unlimited */
static long delay_ms = 0;
static long retry_after = 1;
static FILE *times_file;    /* --times-log: "MS METHOD PATH" per request (monotonic ms) */
static FILE *log_file;

static const char canned_quotes[] =
	"{\"seq\":7,\"server_time\":\"2025-06-02T09:00:00Z\",\"quotes\":["
	"{\"gpu\":\"h200\",\"best_ask_cents\":419,\"ask_gpus\":16,\"best_bid_cents\":405,"
	"\"bid_gpus\":8,\"last_cents\":null}]}";

static void usage(void)
{
	fprintf(stderr, "usage: faultd --listen HOST:PORT --port-file FILE --mode MODE "
			"[--upstream HOST:PORT] [--times N] [--delay-ms MS] [--log FILE]\n");
	exit(2);
}

static void send_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

static void reply(int fd, int status, const char *reason, const char *extra_headers,
		  const char *body, bool content_length)
{
	struct buf b = {0};

	buf_printf(&b, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\n"
		       "X-Request-Id: rfault\r\nConnection: close\r\n%s", status, reason,
		   extra_headers != NULL ? extra_headers : "");
	if (content_length)
		buf_printf(&b, "Content-Length: %zu\r\n", strlen(body));
	buf_puts(&b, "\r\n");
	buf_puts(&b, body);
	send_all(fd, b.data, b.len);
	buf_free(&b);
}

static void reset(int fd)
{
	struct linger lg = {.l_onoff = 1, .l_linger = 0};

	setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
	close(fd);
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Read one request: headers and a Content-Length body. 0 or -1. */
static int read_request(int fd, struct buf *req, size_t *head_len)
{
	char chunk[8192];
	char *end;
	size_t want = 0;

	for (;;) {
		ssize_t r = recv(fd, chunk, sizeof chunk, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		buf_append(req, chunk, (size_t)r);
		if (req->len > MAX_REQ)
			return -1;
		if (want == 0 && (end = strstr(req->data, "\r\n\r\n")) != NULL) {
			const char *cl;
			*head_len = (size_t)(end - req->data) + 4;
			want = *head_len;
			for (cl = req->data; (cl = strcasestr(cl, "\r\ncontent-length:")) != NULL &&
					     cl < end; cl++) {
				want += strtoul(cl + 17, NULL, 10);
				break;
			}
		}
		if (want > 0 && req->len >= want)
			return 0;
	}
}

static int connect_upstream(void)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)upstream_port)};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	inet_pton(AF_INET, upstream_host, &sa.sin_addr);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Forward the request (with "Connection: close") and read the whole answer. */
static int forward(const struct buf *req, size_t head_len, struct buf *resp)
{
	struct buf out = {0};
	const char *line = req->data, *head_end = req->data + head_len - 2;
	char chunk[16384];
	int fd = connect_upstream();

	if (fd < 0)
		return -1;
	/* copy the header lines except Connection, then ours */
	while (line < head_end) {
		const char *nl = strstr(line, "\r\n");
		if (nl == NULL || nl > head_end)
			break;
		if (strncasecmp(line, "connection:", 11) != 0)
			buf_append(&out, line, (size_t)(nl - line) + 2);
		line = nl + 2;
	}
	buf_puts(&out, "Connection: close\r\n\r\n");
	buf_append(&out, req->data + head_len, req->len - head_len);
	send_all(fd, out.data, out.len);
	buf_free(&out);
	for (;;) {
		ssize_t r = recv(fd, chunk, sizeof chunk, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		buf_append(resp, chunk, (size_t)r);
	}
	close(fd);
	return resp->len > 0 ? 0 : -1;
}

/* Pass an upstream answer on, with its Connection header replaced. */
static void relay(int fd, const struct buf *resp)
{
	struct buf out = {0};
	const char *end = strstr(resp->data, "\r\n\r\n"), *line = resp->data;

	if (end == NULL) {
		send_all(fd, resp->data, resp->len);
		return;
	}
	while (line < end) {
		const char *nl = strstr(line, "\r\n");
		if (strncasecmp(line, "connection:", 11) != 0 &&
		    strncasecmp(line, "keep-alive:", 11) != 0)
			buf_append(&out, line, (size_t)(nl - line) + 2);
		line = nl + 2;
	}
	buf_puts(&out, "Connection: close\r\n\r\n");
	buf_append(&out, end + 4, resp->len - (size_t)(end + 4 - resp->data));
	send_all(fd, out.data, out.len);
	buf_free(&out);
}

/* No fault: proxy, or the canned reply. */
static void pass(int fd, const struct buf *req, size_t head_len)
{
	struct buf resp = {0};

	if (upstream_host == NULL) {
		reply(fd, 200, "OK", NULL, canned_quotes, true);
		return;
	}
	if (forward(req, head_len, &resp) != 0)
		reply(fd, 502, "Bad Gateway", NULL,
		      "{\"error\":{\"code\":\"UPSTREAM\",\"message\":\"faultd: no upstream\"}}", true);
	else
		relay(fd, &resp);
	buf_free(&resp);
}

static void huge(int fd, bool cl)
{
	const size_t target = 9u * 1024 * 1024;
	struct buf b = {0};
	char head[256];

	buf_puts(&b, "{\"seq\":1,\"server_time\":\"2025-06-02T09:00:00Z\",\"pad\":\"");
	while (b.len < target)
		buf_puts(&b, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	buf_puts(&b, "\",\"quotes\":[]}");
	if (cl)
		snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
			 "Connection: close\r\nContent-Length: %zu\r\n\r\n", b.len);
	else
		snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
			 "Connection: close\r\n\r\n");
	send_all(fd, head, strlen(head));
	send_all(fd, b.data, b.len);
	buf_free(&b);
}

static const char sse_head[] = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
				"Cache-Control: no-cache\r\nConnection: close\r\n\r\nretry: 100\n\n";
static const char sse_snapshot[] =
	"id: f-1\nevent: snapshot\ndata: {\"channel\":\"quotes\",\"seq\":7,\"quotes\":["
	"{\"gpu\":\"h200\",\"best_ask_cents\":419,\"ask_gpus\":16,\"best_bid_cents\":405,"
	"\"bid_gpus\":8,\"last_cents\":null}]}\n\n";
static const char sse_quote[] =
	"id: f-2\nevent: quote\ndata: {\"seq\":8,\"prev\":7,\"quotes\":["
	"{\"gpu\":\"h200\",\"best_ask_cents\":420,\"ask_gpus\":4,\"best_bid_cents\":405,"
	"\"bid_gpus\":8,\"last_cents\":419}]}\n\nevent: heartbeat\ndata: {\"seq\":8}\n\n";

static void log_last_event_id(const struct buf *req, size_t head_len)
{
	const char *p = req->data, *end = req->data + head_len, *v = NULL;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			break;
		if (strncasecmp(p, "Last-Event-ID:", 14) == 0)
			v = p + 14;
		if (v != NULL)
			break;
		p = nl + 1;
	}
	if (log_file == NULL)
		return;
	if (v == NULL) {
		fprintf(log_file, "LAST-EVENT-ID -\n");
	} else {
		while (*v == ' ')
			v++;
		fprintf(log_file, "LAST-EVENT-ID %.*s\n", (int)strcspn(v, "\r\n"), v);
	}
	fflush(log_file);
}

/* A stream request: the fault of `mode`, or (fault false) the canned stream. */
static void serve_stream(int fd, bool fault)
{
	if (fault && strcmp(mode, "sse-404") == 0) {
		reply(fd, 404, "Not Found", NULL,
		      "{\"error\":{\"code\":\"NOT_FOUND\",\"message\":\"no such route\"}}", true);
		return;
	}
	send_all(fd, sse_head, strlen(sse_head));
	send_all(fd, sse_snapshot, strlen(sse_snapshot));
	if (!fault) {
		send_all(fd, sse_quote, strlen(sse_quote));
		sleep_ms(delay_ms > 0 ? delay_ms : 1000);
	} else if (strcmp(mode, "sse-garbage") == 0) {
		static const char g[] = "<html>this is not an event</html>\n\n";
		send_all(fd, g, strlen(g));
		sleep_ms(200);
	} else if (strcmp(mode, "sse-huge") == 0) {
		struct buf b = {0};
		buf_puts(&b, "data: ");
		while (b.len < 2u * 1024 * 1024)
			buf_puts(&b, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
		send_all(fd, b.data, b.len);
		buf_free(&b);
		sleep_ms(200);
	} else if (strcmp(mode, "sse-stall") == 0) {
		sleep_ms(delay_ms);
	} else if (strcmp(mode, "sse-drop") == 0) {
		static const char half[] = "id: f-2\nevent: quote\ndata: {\"seq\":8,\"prev";
		send_all(fd, half, strlen(half));
	} else if (strcmp(mode, "sse-gap") == 0) {
		static const char gap[] = "id: f-3\nevent: quote\ndata: {\"seq\":10,\"prev\":9,\"quotes\":[]}\n\n";
		send_all(fd, gap, strlen(gap));
		sleep_ms(200);
	}
}

/* Hold fd without answering until the peer closes it (or 120 s pass). */
static void hang(int fd)
{
	char b[4096];
	time_t end = time(NULL) + 120;
	struct timeval tv = {.tv_sec = 1};

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	while (time(NULL) < end) {
		ssize_t r = recv(fd, b, sizeof b, 0);
		if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR))
			break;
	}
}

/* The reply's header, then its body one byte every --delay-ms, until sent
 * or the client closes. */
static void trickle(int fd, const struct buf *req, size_t head_len)
{
	struct buf resp = {0};
	if (upstream_host == NULL || forward(req, head_len, &resp) != 0)
		buf_printf(&resp, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
			   "Connection: close\r\nContent-Length: %zu\r\n\r\n%s",
			   strlen(canned_quotes), canned_quotes);
	const char *body = memmem(resp.data, resp.len, "\r\n\r\n", 4);
	size_t i = body ? (size_t)(body - resp.data) + 4 : 0;
	send_all(fd, resp.data, i);   /* the status line and headers at once */
	for (; i < resp.len; i++) {
		if (send(fd, resp.data + i, 1, MSG_NOSIGNAL) != 1)
			break;
		sleep_ms(delay_ms > 0 ? delay_ms : 1000);
	}
	buf_free(&resp);
}

static void reply_503_date(int fd)
{
	char date[64], head[96];
	time_t t = time(NULL) + (delay_ms + 999) / 1000;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
	snprintf(head, sizeof head, "Retry-After: %s\r\n", date);
	reply(fd, 503, "Service Unavailable", head,
	      "{\"error\":{\"code\":\"UNAVAILABLE\",\"message\":\"faultd: busy\","
	      "\"request_id\":\"rfault503\"}}", true);
}

static void reply_huge_header(int fd)
{
	struct buf h = {0};

	buf_puts(&h, "X-Pad: ");
	while (h.len < 200 * 1024)
		buf_puts(&h, "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp");
	buf_puts(&h, "\r\n");
	reply(fd, 200, "OK", h.data, canned_quotes, true);
	buf_free(&h);
}

/* The faults that take a function of their own; false for another mode. */
static bool extra_fault(int fd)
{
	if (strcmp(mode, "hang") == 0)
		hang(fd);
	else if (strcmp(mode, "503-date") == 0)
		reply_503_date(fd);
	else if (strcmp(mode, "huge-header") == 0)
		reply_huge_header(fd);
	else
		return false;
	return true;
}

static void serve(int fd)
{
	struct buf req = {0};
	size_t head_len = 0;
	char method[16] = "", path[1024] = "";
	const char *body;
	bool is_order, is_signup, fault;

	if (read_request(fd, &req, &head_len) != 0) {
		close(fd);
		buf_free(&req);
		return;
	}
	sscanf(req.data, "%15s %1023s", method, path);
	body = req.data + head_len;
	is_order = strcmp(method, "POST") == 0 && strcmp(path, "/v1/orders") == 0;
	is_signup = strcmp(method, "POST") == 0 && strcmp(path, "/v1/accounts") == 0;
	if (log_file != NULL) {
		char *head = xstrndup(req.data, head_len);
		fprintf(log_file, "%s %s %.*s\n", method, path, (int)(req.len - head_len), body);
		fprintf(log_file, "AUTHORIZATION %s\n",
			strcasestr(head, "\r\nauthorization:") != NULL ? "yes" : "no");
		fflush(log_file);
		free(head);
	}
	if (times_file != NULL) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		fprintf(times_file, "%lld %s %s\n", (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000,
			method, path);
		fflush(times_file);
	}
	bool is_stream = strcmp(method, "GET") == 0 && strncmp(path, "/v1/stream", 10) == 0;
	bool sse_mode = strncmp(mode, "sse-", 4) == 0;
	if (is_stream)
		log_last_event_id(&req, head_len);
	if (strcmp(mode, "reset-order") == 0)
		fault = is_order && times != 0;
	else if (strcmp(mode, "503") == 0)
		fault = times != 0;   /* a busy exchange: streams too */
	else if (sse_mode || is_stream)
		fault = sse_mode && is_stream && times != 0;
	else if (strcmp(mode, "reset-signup") == 0)
		fault = is_signup && times != 0;
	else
		fault = strcmp(mode, "proxy") != 0 && times != 0;
	if (fault && times > 0)
		times--;
	if (fault && log_file != NULL) {
		fprintf(log_file, "FAULT %s\n", mode);
		fflush(log_file);
	}
	if (is_stream && !(fault && strcmp(mode, "503") == 0)) {
		serve_stream(fd, fault);
	} else if (!fault) {
		pass(fd, &req, head_len);
	} else if (strcmp(mode, "nonjson") == 0) {
		reply(fd, 200, "OK", NULL, "<html><body>It works!</body></html>", true);
	} else if (strcmp(mode, "truncated") == 0) {
		static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
					   "Connection: close\r\nContent-Length: 4096\r\n\r\n";
		send_all(fd, head, strlen(head));
		send_all(fd, canned_quotes, 60);
	} else if (strcmp(mode, "truncated-json") == 0) {
		reply(fd, 200, "OK", NULL, "{\"seq\":7,\"server_time\":\"2025-06-02T09:00:00Z\","
					   "\"quotes\":[{\"gpu\":\"h2", false);
	} else if (strcmp(mode, "wrongtypes") == 0) {
		reply(fd, 200, "OK", NULL, "{\"seq\":7,\"server_time\":\"2025-06-02T09:00:00Z\","
		      "\"quotes\":[{\"gpu\":\"h200\",\"best_ask_cents\":\"419\",\"ask_gpus\":16,"
		      "\"best_bid_cents\":null,\"bid_gpus\":0,\"last_cents\":null}]}", true);
	} else if (strcmp(mode, "negative") == 0) {
		reply(fd, 200, "OK", NULL, "{\"seq\":7,\"server_time\":\"2025-06-02T09:00:00Z\","
		      "\"quotes\":[{\"gpu\":\"h200\",\"best_ask_cents\":-419,\"ask_gpus\":16,"
		      "\"best_bid_cents\":null,\"bid_gpus\":0,\"last_cents\":null}]}", true);
	} else if (strcmp(mode, "bignum") == 0) {
		reply(fd, 200, "OK", NULL, "{\"seq\":7,\"server_time\":\"2025-06-02T09:00:00Z\","
		      "\"quotes\":[{\"gpu\":\"h200\",\"best_ask_cents\":9007199254740993,\"ask_gpus\":16,"
		      "\"best_bid_cents\":null,\"bid_gpus\":0,\"last_cents\":null}]}", true);
	} else if (strcmp(mode, "fraction") == 0) {
		reply(fd, 200, "OK", NULL, "{\"seq\":7,\"server_time\":\"2025-06-02T09:00:00Z\","
		      "\"quotes\":[{\"gpu\":\"h200\",\"best_ask_cents\":4.19,\"ask_gpus\":16,"
		      "\"best_bid_cents\":null,\"bid_gpus\":0,\"last_cents\":null}]}", true);
	} else if (strcmp(mode, "missing") == 0) {
		reply(fd, 200, "OK", NULL, "{\"seq\":7,\"server_time\":\"2025-06-02T09:00:00Z\","
		      "\"quotes\":[{\"gpu\":\"h200\",\"ask_gpus\":16,"
		      "\"best_bid_cents\":null,\"bid_gpus\":0,\"last_cents\":null}]}", true);
	} else if (strcmp(mode, "huge") == 0) {
		huge(fd, false);
	} else if (strcmp(mode, "huge-cl") == 0) {
		huge(fd, true);
	} else if (strcmp(mode, "500") == 0) {
		reply(fd, 500, "Internal Server Error", NULL,
		      "{\"error\":{\"code\":\"INTERNAL\",\"message\":\"faultd: a bug\","
		      "\"request_id\":\"rfault500\"}}", true);
	} else if (strcmp(mode, "503") == 0) {
		char head[48];
		snprintf(head, sizeof head, "Retry-After: %ld\r\n", retry_after);
		reply(fd, 503, "Service Unavailable", head,
		      "{\"error\":{\"code\":\"UNAVAILABLE\",\"message\":\"faultd: busy\","
		      "\"request_id\":\"rfault503\"}}", true);
	} else if (strcmp(mode, "trickle") == 0) {
		trickle(fd, &req, head_len);
	} else if (strcmp(mode, "502-html") == 0) {
		reply(fd, 502, "Bad Gateway", NULL,
		      "<html><head><title>502 Bad Gateway</title></head>\x1b[31m</html>", true);
	} else if (strcmp(mode, "slow") == 0) {
		sleep_ms(delay_ms);
		pass(fd, &req, head_len);
	} else if (strcmp(mode, "reset") == 0) {
		reset(fd);
		fd = -1;
	} else if (extra_fault(fd)) {
		/* hang, 503-date, huge-header */
	} else if (strcmp(mode, "reset-order") == 0 || strcmp(mode, "reset-signup") == 0) {
		struct buf resp = {0};
		forward(&req, head_len, &resp);   /* the exchange commits it ... */
		buf_free(&resp);
		reset(fd);                        /* ... and the client never hears */
		fd = -1;
	} else {
		fprintf(stderr, "faultd: unknown mode %s\n", mode);
		exit(2);
	}
	if (fd >= 0) {
		shutdown(fd, SHUT_WR);
		close(fd);
	}
	buf_free(&req);
}

int main(int argc, char **argv)
{
	const char *listen_on = NULL, *port_file = NULL, *log_path = NULL;
	struct sockaddr_in sa = {.sin_family = AF_INET};
	socklen_t sl = sizeof sa;
	int lfd, one = 1;
	char host[64];
	int port;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (v == NULL)
			usage();
		if (strcmp(a, "--listen") == 0)
			listen_on = v;
		else if (strcmp(a, "--port-file") == 0)
			port_file = v;
		else if (strcmp(a, "--mode") == 0)
			mode = v;
		else if (strcmp(a, "--upstream") == 0)
			upstream_host = v;
		else if (strcmp(a, "--times") == 0)
			times = atol(v);
		else if (strcmp(a, "--delay-ms") == 0)
			delay_ms = atol(v);
		else if (strcmp(a, "--retry-after") == 0)
			retry_after = atol(v);
		else if (strcmp(a, "--times-log") == 0) {
			times_file = fopen(v, "w");
			if (times_file == NULL)
				usage();
		}
		else if (strcmp(a, "--log") == 0)
			log_path = v;
		else
			usage();
		i++;
	}
	if (listen_on == NULL || sscanf(listen_on, "%63[^:]:%d", host, &port) != 2)
		usage();
	if (upstream_host != NULL) {
		static char uh[64];
		const char *u = upstream_host;
		if (strncmp(u, "http://", 7) == 0)
			u += 7;
		if (sscanf(u, "%63[^:]:%d", uh, &upstream_port) != 2)
			usage();
		upstream_host = uh;
	}
	if (log_path != NULL && (log_file = fopen(log_path, "a")) == NULL) {
		perror(log_path);
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	sa.sin_port = htons((uint16_t)port);
	inet_pton(AF_INET, host, &sa.sin_addr);
	if (bind(lfd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(lfd, 64) != 0) {
		perror("faultd: bind");
		return 1;
	}
	getsockname(lfd, (struct sockaddr *)&sa, &sl);
	if (port_file != NULL) {
		FILE *f = fopen(port_file, "w");
		if (f == NULL) {
			perror(port_file);
			return 1;
		}
		fprintf(f, "%d\n", ntohs(sa.sin_port));
		fclose(f);
	}
	for (;;) {
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR)
				continue;
			perror("faultd: accept");
			return 1;
		}
		serve(fd);
	}
}
