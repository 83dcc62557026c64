/*
 * bench_http — gpuxd over HTTP with durable commits: acknowledged orders per
 * second and latency at a fixed offered rate.
 *
 * It starts its own gpuxd (BUILD/gpuxd next to this program's directory, or
 * $GPUXD) on 127.0.0.1 port 0 with a fresh database in a temporary directory,
 * opens accounts, then offers POST /v1/orders at a fixed rate (open loop: the
 * i-th order is due at t0 + i/rate whatever happened before) over keep-alive
 * connections driven by one epoll loop, each connection with one request in
 * flight. Latency runs from an order's DUE time to its complete reply, so a
 * stall is charged to every order it delays (no coordinated omission). Orders
 * are limit orders around one price, about half of them crossing, so the
 * writer does real work: holds, fills, rentals, first-hour billing, ledger.
 * An order counts as acknowledged when its reply is 2xx: gpuxd sends that
 * only after the order's transaction is committed (WAL, synchronous=FULL).
 *
 *   bench_http [--rate N] [--seconds S] [--conns C] [--gpuxd PATH] [--keep]
 *
 * Figures are printed, never asserted.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

static const char admin_key[] = "bench-admin-key-0123456789abcdef";

struct conn {
	int fd;
	char *key;
	struct buf out;       /* request being written */
	size_t out_off;
	struct buf in;        /* reply being read */
	bool busy;
	int64_t due_us;
};

static int connect_to(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
		fatal("bench_http: connect to 127.0.0.1:%d: %s", port, strerror(errno));
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return fd;
}

/* Is a complete reply in b? Returns its length (0 if not yet) and the status. */
static size_t reply_complete(const struct buf *b, int *status)
{
	if (!b->data)
		return 0;
	const char *end = memmem(b->data, b->len, "\r\n\r\n", 4);
	if (!end)
		return 0;
	size_t head = (size_t)(end - b->data) + 4;
	size_t cl = 0;
	for (const char *p = b->data; p && p < end; p = memchr(p, '\n', (size_t)(end - p))) {
		if (*p == '\n')
			p++;
		if (strncasecmp(p, "Content-Length:", 15) == 0)
			cl = strtoul(p + 15, NULL, 10);
	}
	if (b->len < head + cl)
		return 0;
	*status = atoi(b->data + 9);
	return head + cl;
}

/* One blocking request on its own connection (setup only). */
static int http(int port, const char *method, const char *path, const char *key,
                const char *body, struct buf *reply)
{
	int fd = connect_to(port);
	struct buf req = { 0 };
	buf_printf(&req, "%s %s HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n", method, path);
	if (key)
		buf_printf(&req, "Authorization: Bearer %s\r\n", key);
	buf_printf(&req, "Content-Length: %zu\r\n\r\n%s", body ? strlen(body) : 0, body ? body : "");
	if (write(fd, req.data, req.len) != (ssize_t)req.len)
		fatal("bench_http: write: %s", strerror(errno));
	buf_free(&req);
	buf_reset(reply);
	char chunk[4096];
	ssize_t n;
	while ((n = read(fd, chunk, sizeof chunk)) > 0)
		buf_append(reply, chunk, (size_t)n);
	close(fd);
	int status = 0;
	if (!reply_complete(reply, &status))
		fatal("bench_http: %s %s: incomplete reply", method, path);
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
	size_t n = strspn(p, "0123456789");
	return xstrndup(p, n);
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

static void build_order(struct conn *c, int conn_no, long i)
{
	static const char *const gpus[] = { "h200", "h100-sxm", "l40s" };
	static const int mid[] = { 419, 288, 79 };
	int g = (int)(next_rand() % 3);
	bool buy = next_rand() % 2;
	/* buys a little above mid and sells a little below cross about half the time */
	int price = mid[g] + (int)(next_rand() % 21) - 10 + (buy ? 3 : -3);
	char body[320];
	int len = snprintf(body, sizeof body,
	                   "{\"client_order_id\":\"b%d-%ld\",\"gpu\":\"%s\",\"side\":\"%s\",\"type\":\"limit\","
	                   "\"gpus\":%u,\"hours\":%u,\"price_cents\":%d}",
	                   conn_no, i, gpus[g], buy ? "buy" : "sell", 1 + next_rand() % 4,
	                   1 + next_rand() % 24, price);
	buf_reset(&c->out);
	buf_printf(&c->out, "POST /v1/orders HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer %s\r\n"
	           "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", c->key, len, body);
	c->out_off = 0;
}

static int64_t now_us(void) { return util_now_us(); }

int main(int argc, char **argv)
{
	long rate = 5000, seconds = 10, nconns = 64;
	const char *gpuxd = getenv("GPUXD");
	bool keep = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--rate") == 0 && i + 1 < argc) rate = atol(argv[++i]);
		else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) seconds = atol(argv[++i]);
		else if (strcmp(argv[i], "--conns") == 0 && i + 1 < argc) nconns = atol(argv[++i]);
		else if (strcmp(argv[i], "--gpuxd") == 0 && i + 1 < argc) gpuxd = argv[++i];
		else if (strcmp(argv[i], "--keep") == 0) keep = true;
		else {
			fprintf(stderr, "usage: bench_http [--rate N] [--seconds S] [--conns C] [--gpuxd PATH] [--keep]\n");
			return 2;
		}
	}
	if (rate < 1 || seconds < 1 || nconns < 1 || nconns > 1000) {
		fprintf(stderr, "bench_http: bad --rate, --seconds or --conns\n");
		return 2;
	}
	char *gpuxd_path;
	if (gpuxd) {
		gpuxd_path = xstrdup(gpuxd);
	} else {
		char *self = xstrdup(argv[0]);
		char *slash = strrchr(self, '/');
		if (slash)
			*slash = 0;
		gpuxd_path = xasprintf("%s/../gpuxd", slash ? self : ".");
		free(self);
	}
	signal(SIGPIPE, SIG_IGN);

	/* ---- start gpuxd on a fresh database ---- */
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char *dir = xasprintf("%s/gpuxbench.XXXXXX", tmp);
	if (!mkdtemp(dir))
		fatal("bench_http: mkdtemp %s: %s", dir, strerror(errno));
	char *keyf = xasprintf("%s/admin.key", dir), *portf = xasprintf("%s/port", dir);
	char *db = xasprintf("%s/bench.db", dir), *logf = xasprintf("%s/gpuxd.log", dir);
	FILE *f = fopen(keyf, "w");
	if (!f)
		fatal("bench_http: %s: %s", keyf, strerror(errno));
	fprintf(f, "%s\n", admin_key);
	fclose(f);
	chmod(keyf, 0600);   /* gpuxd refuses a key file others can read */
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(logf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execl(gpuxd_path, "gpuxd", "--listen", "127.0.0.1:0", "--port-file", portf, "--db", db,
		      "--admin-key-file", keyf, "--market", "open", "--rate-limit", "0",
		      "--ip-rate-limit", "0", "--max-connections-per-addr", "0", "--quiet", (char *)NULL);
		_exit(127);
	}
	int port = 0;
	for (int i = 0; i < 200 && !port; i++) {
		char *text;
		if (util_read_file(portf, &text, NULL, NULL) == 0) {
			port = atoi(text);
			free(text);
		}
		if (!port)
			usleep(50000);
	}
	if (!port) {
		kill(pid, SIGTERM);
		fatal("bench_http: %s did not start (log: %s)", gpuxd_path, logf);
	}

	/* ---- accounts ---- */
	struct conn *cs = xcalloc((size_t)nconns, sizeof *cs);
	struct buf reply = { 0 };
	for (long i = 0; i < nconns; i++) {
		if (http(port, "POST", "/v1/accounts", NULL,
		         "{\"email\":\"bench@example.com\",\"country\":\"US\",\"currency\":\"USD\",\"role\":\"both\"}",
		         &reply) != 201)
			fatal("bench_http: signup failed: %s", reply.data);
		const char *body = strstr(reply.data, "\r\n\r\n") + 4;
		cs[i].key = json_field(body, "api_key");
		char *id = json_field(body, "id");
		char *dep = xasprintf("{\"account_id\":%s,\"amount_minor\":100000000000}", id);
		if (http(port, "POST", "/v1/deposits", admin_key, dep, &reply) != 201)
			fatal("bench_http: deposit failed: %s", reply.data);
		free(dep);
		free(id);
		cs[i].fd = connect_to(port);
		fcntl(cs[i].fd, F_SETFL, O_NONBLOCK);
	}

	/* ---- the run ---- */
	int ep = epoll_create1(EPOLL_CLOEXEC);
	for (long i = 0; i < nconns; i++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = (uint64_t)i };
		epoll_ctl(ep, EPOLL_CTL_ADD, cs[i].fd, &ev);
	}
	long total = rate * seconds, sent = 0, done = 0, acked = 0, errors = 0, idle_hits = 0;
	int64_t *lat = xcalloc((size_t)total, sizeof *lat);
	long *by_status = xcalloc(600, sizeof *by_status);
	int64_t t0 = now_us() + 10000;
	int64_t deadline = t0 + seconds * 1000000 + 30000000;
	long next_free = 0;
	while (done < total && now_us() < deadline) {
		int64_t now = now_us();
		/* send what is due on idle connections */
		while (sent < total && t0 + (int64_t)((double)sent * 1e6 / (double)rate) <= now) {
			long k = -1;
			for (long n = 0; n < nconns; n++) {
				long c = (next_free + n) % nconns;
				if (!cs[c].busy) {
					k = c;
					break;
				}
			}
			if (k < 0) {
				idle_hits++;
				break;
			}
			next_free = (k + 1) % nconns;
			struct conn *c = &cs[k];
			build_order(c, (int)k, sent);
			c->due_us = t0 + (int64_t)((double)sent * 1e6 / (double)rate);
			c->busy = true;
			sent++;
			ssize_t w = write(c->fd, c->out.data, c->out.len);
			if (w != (ssize_t)c->out.len)
				fatal("bench_http: short write (%zd of %zu)", w, c->out.len);
		}
		/* sleep until the next order is due, or, when it is due already but
		 * every connection is busy, until a reply frees one (never spin: the
		 * server shares this machine's two cores) */
		int64_t next_due = sent < total ? t0 + (int64_t)((double)sent * 1e6 / (double)rate) : now + 100000;
		int timeout = next_due > now ? (int)((next_due - now + 999) / 1000) : 100;
		struct epoll_event evs[64];
		int n = epoll_wait(ep, evs, 64, timeout);
		for (int e = 0; e < n; e++) {
			struct conn *c = &cs[evs[e].data.u64];
			char chunk[8192];
			ssize_t r;
			while ((r = read(c->fd, chunk, sizeof chunk)) > 0)
				buf_append(&c->in, chunk, (size_t)r);
			if (r == 0)
				fatal("bench_http: gpuxd closed a connection (log: %s)", logf);
			int status = 0;
			size_t len = reply_complete(&c->in, &status);
			if (!len)
				continue;
			int64_t t = now_us();
			if (c->busy) {
				lat[done++] = t - c->due_us;
				if (status >= 200 && status < 300)
					acked++;
				else
					errors++;
				if (status > 0 && status < 600)
					by_status[status]++;
			}
			c->busy = false;
			memmove(c->in.data, c->in.data + len, c->in.len - len);
			c->in.len -= len;
		}
	}
	int64_t t_end = now_us();
	double secs = (double)(t_end - t0) / 1e6;
	qsort(lat, (size_t)done, sizeof *lat, cmp_i64);
	double p50 = done ? (double)lat[done / 2] / 1000.0 : 0;
	double p90 = done ? (double)lat[(done * 90) / 100] / 1000.0 : 0;
	double p99 = done ? (double)lat[(done * 99) / 100] / 1000.0 : 0;
	double pmax = done ? (double)lat[done - 1] / 1000.0 : 0;

	http(port, "GET", "/v1/trades/h200?limit=1", NULL, NULL, &reply);
	char *last_trade = json_field(strstr(reply.data, "\r\n\r\n") + 4, "id");

	printf("gpuxd over HTTP/1.1 keep-alive on 127.0.0.1, durable commits (SQLite WAL, synchronous=FULL)\n");
	printf("  offered  %ld orders/s for %ld s on %ld connections (limit orders, about half crossing)\n",
	       rate, seconds, nconns);
	printf("  sent %ld, answered %ld, acknowledged (2xx) %ld, errors %ld", sent, done, acked, errors);
	for (int s = 300; s < 600; s++)
		if (by_status[s])
			printf(" [%d: %ld]", s, by_status[s]);
	printf("\n");
	printf("  acknowledged %.0f orders/s over %.2f s\n", (double)acked / secs, secs);
	printf("  latency from the due time: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
	       p50, p90, p99, pmax);
	printf("  h200 trades so far: %s (ids); all connections busy at a due time: %ld times\n",
	       last_trade ? last_trade : "0", idle_hits);
	free(last_trade);

	kill(pid, SIGTERM);
	int st;
	waitpid(pid, &st, 0);
	if (!keep) {
		unlink(keyf);
		unlink(portf);
		unlink(logf);
		unlink(db);
		char *w = xasprintf("%s-wal", db), *s = xasprintf("%s-shm", db);
		unlink(w);
		unlink(s);
		free(w);
		free(s);
		rmdir(dir);
	} else {
		printf("  kept %s\n", dir);
	}
	for (long i = 0; i < nconns; i++) {
		close(cs[i].fd);
		free(cs[i].key);
		buf_free(&cs[i].out);
		buf_free(&cs[i].in);
	}
	free(cs);
	free(lat);
	free(by_status);
	buf_free(&reply);
	free(gpuxd_path);
	free(dir);
	free(keyf);
	free(portf);
	free(db);
	free(logf);
	return acked == total ? 0 : 1;
}
