/*
 * bench_store — durable orders per second and latency at a fixed offered
 * rate against gpuxd nodes that are already running (bench/store.sh starts
 * them: SQLite, one PostgreSQL node, two PostgreSQL nodes).
 *
 *   bench_store --label TEXT [--rate N] [--seconds S] [--conns C] [--one-gpu] [--split]
 *               --admin-key KEY URL [URL...]
 *   bench_store --label TEXT --stream-delay PROBES --admin-key KEY URL_A URL_B
 *
 * Open loop, as bench_http: the i-th order is due at t0 + i/rate whatever
 * happened before, over keep-alive connections (spread round-robin over the
 * URLs, one request in flight each) driven by one epoll loop; latency runs
 * from an order's due time to its complete reply, so a stall is charged to
 * every order it delays. Orders are limit orders around one price per GPU,
 * about half crossing, on three GPUs — or all on one with --one-gpu (matching
 * on one book is serialised across nodes on purpose). An order counts when
 * its reply is 2xx: gpuxd sends that only after the COMMIT returned.
 *
 * --stream-delay: PROBES trades, one at a time, each a resting sell and a
 * crossing buy through node A, timed from sending the buy to its trade event
 * on a GET /v1/stream of node B (what LISTEN/NOTIFY and B's listener add).
 *
 * Prints one line: label, offered rate, acknowledged/s, 503/s (refused by
 * admission: the oldest write not yet answered waited too long), and the
 * p50, p99 and max latency of the acknowledged orders. --split adds a line
 * with the latencies from the moment each request was written (what gpuxd
 * and the kernel took, without the wait for a free connection), for the
 * acknowledged orders and for the 503s.
 * Figures are printed, never asserted.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/util.h"

#define ACCOUNTS_MAX 128   /* more connections share these accounts (the URLs share one database) */

struct conn {
	int fd, port;
	char *key;
	struct buf out, in;
	bool busy;
	int64_t due_us, sent_us;
};

struct run {
	const char *label, *admin;
	long rate, seconds, nconns;
	bool one_gpu, split;
	int ports[8];
	int n_ports;
	struct conn *cs;
};

static int dial(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
		fatal("bench_store: connect to 127.0.0.1:%d: %s", port, strerror(errno));
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return fd;
}

static size_t reply_complete(const struct buf *b, int *status)
{
	if (!b->data)
		return 0;
	const char *end = memmem(b->data, b->len, "\r\n\r\n", 4);
	if (!end)
		return 0;
	size_t head = (size_t)(end - b->data) + 4, cl = 0;
	for (const char *p = b->data; p && p < end; p = memchr(p + 1, '\n', (size_t)(end - p - 1)))
		if (strncasecmp(p + (*p == '\n'), "Content-Length:", 15) == 0)
			cl = strtoul(p + (*p == '\n') + 15, NULL, 10);
	if (b->len < head + cl)
		return 0;
	*status = atoi(b->data + 9);
	return head + cl;
}

/* One blocking request on its own connection (setup only): status, body in *out. */
static int http(int port, const char *method, const char *path, const char *key,
                const char *body, char **out)
{
	int fd = dial(port);
	struct buf req = { 0 }, in = { 0 };
	buf_printf(&req, "%s %s HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n", method, path);
	if (key)
		buf_printf(&req, "Authorization: Bearer %s\r\n", key);
	buf_printf(&req, "Content-Length: %zu\r\n\r\n%s", body ? strlen(body) : 0, body ? body : "");
	if (write(fd, req.data, req.len) != (ssize_t)req.len)
		fatal("bench_store: write: %s", strerror(errno));
	buf_free(&req);
	char chunk[4096];
	ssize_t n;
	while ((n = read(fd, chunk, sizeof chunk)) > 0)
		buf_append(&in, chunk, (size_t)n);
	close(fd);
	int status = 0;
	size_t len = reply_complete(&in, &status);
	const char *b = len ? strstr(in.data, "\r\n\r\n") + 4 : "";
	*out = xstrndup(b, len ? len - (size_t)(b - in.data) : 0);
	buf_free(&in);
	return status;
}

static char *json_field(const char *text, const char *name)
{
	char *pat = xasprintf("\"%s\":", name);
	const char *p = strstr(text, pat);
	free(pat);
	if (!p)
		return NULL;
	p = strchr(p, ':') + 1;
	if (*p == '"') {
		const char *e = strchr(p + 1, '"');
		return e ? xstrndup(p + 1, (size_t)(e - p - 1)) : NULL;
	}
	return xstrndup(p, strspn(p, "0123456789"));
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t rng = 0x853c49e6748fea9bULL;
static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static void build_order(const struct run *r, struct conn *c, long k, long i)
{
	static const char *const gpus[] = { "h200", "h100-sxm", "l40s" };
	static const int mid[] = { 419, 288, 79 };
	int g = r->one_gpu ? 0 : (int)(next_rand() % 3);
	bool buy = next_rand() % 2;
	int price = mid[g] + (int)(next_rand() % 21) - 10 + (buy ? 3 : -3);
	char body[320];
	int len = snprintf(body, sizeof body,
	                   "{\"client_order_id\":\"s%ld-%ld\",\"gpu\":\"%s\",\"side\":\"%s\",\"type\":\"limit\","
	                   "\"gpus\":%u,\"hours\":%u,\"price_cents\":%d}",
	                   k, i, gpus[g], buy ? "buy" : "sell", 1 + next_rand() % 4,
	                   1 + next_rand() % 24, price);
	buf_reset(&c->out);
	buf_printf(&c->out, "POST /v1/orders HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer %s\r\n"
	           "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", c->key, len, body);
}

/* http() for a set-up write, sent again while gpuxd answers 503 (it may
 * refuse a write that it could not answer soon enough: a stall). */
static int http_write(int port, const char *path, const char *key, const char *body, char **out)
{
	int st = 0;
	for (int i = 0; i < 50; i++) {
		st = http(port, "POST", path, key, body, out);
		if (st != 503)
			break;
		free(*out);
		*out = NULL;
		usleep(20000);
	}
	return st;
}

/* A new funded account (e-mail NAME@example.com) through the gpuxd on port: its key. */
static char *signup(int port, const char *admin, const char *name)
{
	char *body = NULL;
	char *req = xasprintf("{\"email\":\"%s@example.com\",\"country\":\"US\","
	                      "\"currency\":\"USD\",\"role\":\"both\"}", name);
	int st = http_write(port, "/v1/accounts", NULL, req, &body);
	free(req);
	if (st != 201)
		fatal("bench_store: signup failed: %s", body);
	char *key = json_field(body, "api_key");
	char *id = json_field(body, "id");
	free(body);
	char *dep = xasprintf("{\"account_id\":%s,\"amount_minor\":100000000000,"
	                      "\"reference\":\"bench-%s\"}", id, id);
	if (http_write(port, "/v1/deposits", admin, dep, &body) != 201)
		fatal("bench_store: deposit failed: %s", body);
	free(body);
	free(dep);
	free(id);
	return key;
}

/* The accounts first (one per connection up to ACCOUNTS_MAX, then shared
 * round-robin: each connection's client_order_ids are its own), then the
 * connections: a keep-alive connection left idle while the rest sign up
 * would reach gpuxd's header deadline. */
static void setup(struct run *r)
{
	r->cs = xcalloc((size_t)r->nconns, sizeof *r->cs);
	for (long i = 0; i < r->nconns; i++) {
		struct conn *c = &r->cs[i];
		c->port = r->ports[i % r->n_ports];
		if (i >= ACCOUNTS_MAX) {
			c->key = xstrdup(r->cs[i % ACCOUNTS_MAX].key);
			continue;
		}
		char name[32];
		snprintf(name, sizeof name, "bench%ld", i);
		c->key = signup(c->port, r->admin, name);
	}
	for (long i = 0; i < r->nconns; i++) {
		r->cs[i].fd = dial(r->cs[i].port);
		fcntl(r->cs[i].fd, F_SETFL, O_NONBLOCK);
	}
}

/* What the replies said: the latencies of the acknowledged orders from
 * their due time (lat) and from the moment they were written (wire), of the
 * 503s from the moment they were written (refused). */
struct tally {
	int64_t *lat, *wire, *refused;
	long done, acked, busy;
};

/* Read what arrived on c; a complete reply goes into t. True if it was.
 * An idle connection that gpuxd closed (one that waited past its header
 * deadline: at low rates each of many connections waits long between
 * orders) is opened again; a closed one with a request in flight is fatal. */
static bool on_readable(int ep, long i, struct conn *c, struct tally *t)
{
	char chunk[8192];
	ssize_t n;
	while ((n = read(c->fd, chunk, sizeof chunk)) > 0)
		buf_append(&c->in, chunk, (size_t)n);
	if (n == 0 && c->busy)
		fatal("bench_store: gpuxd closed a connection with a request in flight");
	if (n == 0) {
		close(c->fd);
		c->fd = dial(c->port);
		fcntl(c->fd, F_SETFL, O_NONBLOCK);
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = (uint64_t)i };
		epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev);
		buf_reset(&c->in);
		return false;
	}
	int status = 0;
	size_t len = reply_complete(&c->in, &status);
	if (!len)
		return false;
	bool was_busy = c->busy;
	if (c->busy) {
		int64_t now = util_now_us();
		t->done++;
		if (status >= 200 && status < 300) {
			t->wire[t->acked] = now - c->sent_us;
			t->lat[t->acked++] = now - c->due_us;
		} else if (status == 503) {
			t->refused[t->busy++] = now - c->sent_us;
		}
	}
	c->busy = false;
	memmove(c->in.data, c->in.data + len, c->in.len - len);
	c->in.len -= len;
	return was_busy;
}

/* The p-th fraction of the n sorted values, in ms. */
static double pct_ms(int64_t *v, long n, double p)
{
	return n ? (double)v[(long)((double)n * p) < n ? (long)((double)n * p) : n - 1] / 1000.0 : 0;
}

static void measure(struct run *r)
{
	int ep = epoll_create1(EPOLL_CLOEXEC);
	/* the idle connections, first freed first used (none idles into
	 * gpuxd's header deadline): a ring of n_idle from idle[first] */
	long *idle = xcalloc((size_t)r->nconns, sizeof *idle), n_idle = 0, first = 0;
	for (long i = 0; i < r->nconns; i++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = (uint64_t)i };
		epoll_ctl(ep, EPOLL_CTL_ADD, r->cs[i].fd, &ev);
		idle[n_idle++] = i;
	}
	long total = r->rate * r->seconds, sent = 0;
	struct tally t = { xcalloc((size_t)total, sizeof *t.lat), xcalloc((size_t)total, sizeof *t.wire),
	                   xcalloc((size_t)total, sizeof *t.refused), 0, 0, 0 };
	int64_t t0 = util_now_us() + 10000, deadline = t0 + r->seconds * 1000000 + 30000000;
	while (t.done < total && util_now_us() < deadline) {
		int64_t now = util_now_us();
		while (sent < total && n_idle > 0 && t0 + (int64_t)((double)sent * 1e6 / (double)r->rate) <= now) {
			long k = idle[first];
			first = (first + 1) % r->nconns;
			n_idle--;
			struct conn *c = &r->cs[k];
			build_order(r, c, k, sent);
			c->due_us = t0 + (int64_t)((double)sent * 1e6 / (double)r->rate);
			c->sent_us = now;
			c->busy = true;
			sent++;
			if (write(c->fd, c->out.data, c->out.len) != (ssize_t)c->out.len)
				fatal("bench_store: short write");
		}
		int64_t next_due = sent < total ? t0 + (int64_t)((double)sent * 1e6 / (double)r->rate) : now + 100000;
		int timeout = next_due > now ? (int)((next_due - now + 999) / 1000) : 100;
		struct epoll_event evs[64];
		int n = epoll_wait(ep, evs, 64, timeout);
		for (int e = 0; e < n; e++)
			if (on_readable(ep, (long)evs[e].data.u64, &r->cs[evs[e].data.u64], &t))
				idle[(first + n_idle++) % r->nconns] = (long)evs[e].data.u64;
	}
	double secs = (double)(util_now_us() - t0) / 1e6;
	qsort(t.lat, (size_t)t.acked, sizeof *t.lat, cmp_i64);
	qsort(t.wire, (size_t)t.acked, sizeof *t.wire, cmp_i64);
	qsort(t.refused, (size_t)t.busy, sizeof *t.refused, cmp_i64);
	/* sent < total: every connection was waiting for a reply when orders fell due */
	printf("  %-44s offered %5ld/s  acknowledged %6.0f/s  503 %6.0f/s  acknowledged p50 %7.2f ms  "
	       "p99 %7.2f ms  max %7.2f ms%s\n",
	       r->label, r->rate, (double)t.acked / secs, (double)t.busy / secs,
	       pct_ms(t.lat, t.acked, 0.5), pct_ms(t.lat, t.acked, 0.99), pct_ms(t.lat, t.acked, 1),
	       sent < total ? "  (not all sent: every connection busy)" : "");
	if (r->split)
		printf("  %-44s from written to answered: acknowledged p50 %.2f ms, p99 %.2f ms; "
		       "503 p50 %.2f ms, p99 %.2f ms\n", "", pct_ms(t.wire, t.acked, 0.5),
		       pct_ms(t.wire, t.acked, 0.99), pct_ms(t.refused, t.busy, 0.5),
		       pct_ms(t.refused, t.busy, 0.99));
	close(ep);
	free(idle);
	free(t.lat);
	free(t.wire);
	free(t.refused);
}

/* Read the stream on fd until an "event: trade" line: false on timeout. */
static bool await_trade(int fd, struct buf *in, int timeout_ms)
{
	int64_t end = util_now_us() + (int64_t)timeout_ms * 1000;
	for (;;) {
		char *hit = in->data ? memmem(in->data, in->len, "event: trade\n", 13) : NULL;
		if (hit) {
			size_t cut = (size_t)(hit - in->data) + 13;
			memmove(in->data, in->data + cut, in->len - cut);
			in->len -= cut;
			return true;
		}
		int64_t left = end - util_now_us();
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		if (left <= 0 || poll(&pfd, 1, (int)(left / 1000) + 1) <= 0)
			return false;
		char chunk[8192];
		ssize_t n = read(fd, chunk, sizeof chunk);
		if (n <= 0)
			return false;
		buf_append(in, chunk, (size_t)n);
	}
}

/* The cross-node stream delay: a resting sell and a crossing buy placed
 * through the first URL, timed from sending the buy to the trade event on a
 * stream of the second URL's node. */
static void stream_delay(struct run *r, long probes)
{
	int a = r->ports[0], b = r->ports[r->n_ports - 1];
	char *seller = signup(a, r->admin, "probe-seller"), *buyer = signup(a, r->admin, "probe-buyer");
	int sfd = dial(b);
	struct buf in = { 0 };
	char req[256];
	snprintf(req, sizeof req, "GET /v1/stream?channels=trades:l40s HTTP/1.1\r\nHost: bench\r\n\r\n");
	if (write(sfd, req, strlen(req)) != (ssize_t)strlen(req))
		fatal("bench_store: write: %s", strerror(errno));
	int64_t *lat = xcalloc((size_t)probes, sizeof *lat);
	long got = 0;
#define PROBE_ORDER "{\"client_order_id\":\"%c%ld\",\"gpu\":\"l40s\",\"side\":\"%s\"," \
	"\"type\":\"limit\",\"gpus\":1,\"hours\":1,\"price_cents\":79}"
	for (long i = 0; i < probes; i++) {
		char body[256], *reply = NULL;
		snprintf(body, sizeof body, PROBE_ORDER, 's', i, "sell");
		if (http(a, "POST", "/v1/orders", seller, body, &reply) != 201)
			fatal("bench_store: probe sell failed: %s", reply);
		free(reply);
		snprintf(body, sizeof body, PROBE_ORDER, 'b', i, "buy");
		struct buf rq = { 0 };
		buf_printf(&rq, "POST /v1/orders HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n"
		           "Authorization: Bearer %s\r\nContent-Length: %zu\r\n\r\n%s", buyer,
		           strlen(body), body);
		int fd = dial(a);
		int64_t t0 = util_now_us();
		if (write(fd, rq.data, rq.len) != (ssize_t)rq.len)
			fatal("bench_store: write: %s", strerror(errno));
		if (await_trade(sfd, &in, 5000))
			lat[got++] = util_now_us() - t0;
		char chunk[4096];
		while (read(fd, chunk, sizeof chunk) > 0)
			;
		close(fd);
		buf_free(&rq);
		usleep(20000);
	}
	qsort(lat, (size_t)got, sizeof *lat, cmp_i64);
	printf("  %-44s %5ld trades  seen %5ld  p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms\n", r->label,
	       probes, got, got ? (double)lat[got / 2] / 1000.0 : 0,
	       got ? (double)lat[(got * 99) / 100] / 1000.0 : 0, got ? (double)lat[got - 1] / 1000.0 : 0);
	free(lat);
	buf_free(&in);
	close(sfd);
	free(seller);
	free(buyer);
}

int main(int argc, char **argv)
{
	long probes = 0;
	struct run r = { .label = "gpuxd", .rate = 1000, .seconds = 5, .nconns = 32 };
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--rate") == 0 && i + 1 < argc) r.rate = atol(argv[++i]);
		else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) r.seconds = atol(argv[++i]);
		else if (strcmp(argv[i], "--conns") == 0 && i + 1 < argc) r.nconns = atol(argv[++i]);
		else if (strcmp(argv[i], "--label") == 0 && i + 1 < argc) r.label = argv[++i];
		else if (strcmp(argv[i], "--admin-key") == 0 && i + 1 < argc) r.admin = argv[++i];
		else if (strcmp(argv[i], "--one-gpu") == 0) r.one_gpu = true;
		else if (strcmp(argv[i], "--split") == 0) r.split = true;
		else if (strcmp(argv[i], "--stream-delay") == 0 && i + 1 < argc) probes = atol(argv[++i]);
		else if (r.n_ports < 8 && strncmp(argv[i], "http://127.0.0.1:", 17) == 0)
			r.ports[r.n_ports++] = atoi(argv[i] + 17);
		else {
			fprintf(stderr, "usage: bench_store --label TEXT [--rate N] [--seconds S] [--conns C] "
			        "[--one-gpu] [--split] [--stream-delay PROBES] --admin-key KEY http://127.0.0.1:PORT...\n");
			return 2;
		}
	}
	if (!r.admin || !r.n_ports || r.rate < 1 || r.seconds < 1 || r.nconns < 1 || r.nconns > 1000) {
		fprintf(stderr, "bench_store: --admin-key, a URL and sane --rate/--seconds/--conns are needed\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	if (probes > 0) {
		stream_delay(&r, probes);
		return 0;
	}
	setup(&r);
	measure(&r);
	for (long i = 0; i < r.nconns; i++) {
		close(r.cs[i].fd);
		free(r.cs[i].key);
		buf_free(&r.cs[i].out);
		buf_free(&r.cs[i].in);
	}
	free(r.cs);
	return 0;
}
