/*
 * bench_stream — gpuxd's market stream against polling, with many clients.
 *
 * It starts its own gpuxd (BUILD/gpuxd, or $GPUXD) on 127.0.0.1 port 0 with a
 * fresh database, raises RLIMIT_NOFILE (for itself and the gpuxd it forks),
 * and for each client count (100 and 1000 by default) runs two phases of
 * --seconds each while a trader thread makes --rate trades per second on
 * H200 (a 1-GPU-hour ask, then an IOC buy that takes it):
 *
 *   stream   every client holds GET /v1/stream?channels=trades:h200,quotes;
 *            for each trade, the time from its commit to its event at every
 *            client. The commit is taken as the earlier of the buy's reply
 *            at the trader (gpuxd answers after COMMIT) and the event's first
 *            arrival (events are published after COMMIT too).
 *   poll     every client polls GET /v1/quotes every 2 s (If-None-Match, as
 *            gpux does), spread evenly over the 2 s.
 *
 * For both, the server's CPU seconds per minute (utime+stime of its
 * /proc/PID/stat over the phase). Clients bind to 127.0.0.2..127.0.0.11 in
 * turn (so per-address limits see ten addresses) and are read by one epoll
 * thread of this program, which competes with gpuxd for the same CPUs: the
 * latencies include this reader's own delay.
 *
 *   bench_stream [--clients 100,1000] [--seconds S] [--rate R] [--gpuxd PATH]
 *
 * The default rate, one trade a second (each trade is two commits: the ask,
 * then the buy that takes it, so a client of trades and quotes gets about
 * two sends a second), is busier than the demo market (a book change every
 * 2 s, a trade every 8 s or so); the streaming cost grows with the market's
 * rate of change, the polling cost with the clients' polling rate.
 *
 * Figures are printed, never asserted.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

#define MAX_TRADES 2000
#define POLL_MS 2000

static const char admin_key[] = "bench-admin-key-0123456789abcdef";
static int port;

static int connect_from(int n)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in src = { .sin_family = AF_INET };
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	src.sin_addr.s_addr = htonl(0x7f000002u + (uint32_t)(n % 10));
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&src, sizeof src) != 0 ||
	    connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
		fatal("bench_stream: connect to 127.0.0.1:%d: %s", port, strerror(errno));
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return fd;
}

/* One blocking request on its own connection; returns the status, body in *reply. */
static int http(const char *method, const char *path, const char *key, const char *body,
                struct buf *reply)
{
	int fd = connect_from(0);
	struct buf req = { 0 };
	buf_printf(&req, "%s %s HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n", method, path);
	if (key)
		buf_printf(&req, "Authorization: Bearer %s\r\n", key);
	buf_printf(&req, "Content-Length: %zu\r\n\r\n%s", body ? strlen(body) : 0, body ? body : "");
	if (write(fd, req.data, req.len) != (ssize_t)req.len)
		fatal("bench_stream: write: %s", strerror(errno));
	buf_free(&req);
	buf_reset(reply);
	char chunk[4096];
	ssize_t n;
	while ((n = read(fd, chunk, sizeof chunk)) > 0)
		buf_append(reply, chunk, (size_t)n);
	close(fd);
	return reply->len > 12 ? atoi(reply->data + 9) : 0;
}

static char *json_field(const char *text, const char *name)
{
	char *pat = xasprintf("\"%s\":", name);
	const char *p = text ? strstr(text, pat) : NULL;
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

static double cpu_seconds(pid_t pid)
{
	char path[64], *text = NULL;
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if (util_read_file(path, &text, NULL, NULL) != 0)
		return 0;
	const char *p = strrchr(text, ')');
	unsigned long ut = 0, st = 0;
	/* after ") ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime */
	if (p)
		sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st);
	free(text);
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* ---- the trader thread ------------------------------------------------------------- */

struct trader {
	char *seller, *buyer;
	double rate;
	volatile bool run;
	pthread_mutex_t mu;
	int64_t first_id;
	int64_t reply_us[MAX_TRADES];   /* by trade id - first_id; 0 = none */
	long n;
};

static void *trader_main(void *arg)
{
	static int phase;            /* client order ids are new in every phase */
	struct trader *t = arg;
	int ph = ++phase;
	struct buf reply = { 0 };
	int64_t t0 = util_now_us();
	for (long i = 0; t->run; i++) {
		int64_t due = t0 + (int64_t)((double)i * 1e6 / t->rate), now = util_now_us();
		if (due > now)
			usleep((useconds_t)(due - now));
		const char *ask = "{\"gpu\":\"h200\",\"side\":\"sell\",\"type\":\"limit\",\"gpus\":1,"
		                  "\"hours\":1,\"price_cents\":400}";
		char *a = xasprintf("{\"client_order_id\":\"s%d-%ld\",%s", ph, i, ask + 1);
		http("POST", "/v1/orders", t->seller, a, &reply);
		free(a);
		char *b = xasprintf("{\"client_order_id\":\"b%d-%ld\",\"gpu\":\"h200\",\"side\":\"buy\","
		                    "\"type\":\"limit\",\"gpus\":1,\"hours\":1,\"price_cents\":400,"
		                    "\"time_in_force\":\"ioc\"}", ph, i);
		http("POST", "/v1/orders", t->buyer, b, &reply);
		int64_t at = util_now_us();
		free(b);
		char *id = json_field(strstr(reply.data ? reply.data : "", "\r\n\r\n"), "trade_id");
		if (id) {
			int64_t v = atoll(id);
			pthread_mutex_lock(&t->mu);
			if (v - t->first_id >= 0 && v - t->first_id < MAX_TRADES)
				t->reply_us[v - t->first_id] = at;
			t->n++;
			pthread_mutex_unlock(&t->mu);
		}
		free(id);
	}
	buf_free(&reply);
	return NULL;
}

/* ---- clients ------------------------------------------------------------------------- */

struct client {
	int fd;
	struct buf in;
	size_t scan;
	bool trade_event, snapshot;
	int64_t due_ms;            /* poll: next request */
	bool busy;
	char etag[64];
};

struct arrivals {
	int64_t first_id;          /* trade id of index 0 */
	int64_t *at;               /* [trade][client], 0 = not seen */
	long n_clients;
};

/* Scan complete lines of a stream client; record the trades of trade events. */
static void scan_stream(struct client *c, long ci, struct arrivals *ar, int64_t now)
{
	for (;;) {
		char *start = c->in.data + c->scan;
		char *nl = memchr(start, '\n', c->in.len - c->scan);
		if (!nl)
			break;
		*nl = 0;
		if (strncmp(start, "event: ", 7) == 0) {
			c->trade_event = strcmp(start + 7, "trade") == 0;
			if (strcmp(start + 7, "snapshot") == 0)
				c->snapshot = true;
		} else if (c->trade_event && strncmp(start, "data: ", 6) == 0) {
			for (char *p = strstr(start, "{\"id\":"); p; p = strstr(p + 6, "{\"id\":")) {
				int64_t id = atoll(p + 6);
				if (ar->first_id && id - ar->first_id >= 0 && id - ar->first_id < MAX_TRADES)
					ar->at[(id - ar->first_id) * ar->n_clients + ci] = now;
			}
			c->trade_event = false;
		}
		c->scan = (size_t)(nl - c->in.data) + 1;
	}
	if (c->scan > 65536) {   /* drop what was scanned */
		memmove(c->in.data, c->in.data + c->scan, c->in.len - c->scan);
		c->in.len -= c->scan;
		c->scan = 0;
	}
}

static void poll_send(struct client *c)
{
	char req[256];
	int n = snprintf(req, sizeof req, "GET /v1/quotes HTTP/1.1\r\nHost: bench\r\n%s%s%s\r\n",
	                 c->etag[0] ? "If-None-Match: " : "", c->etag, c->etag[0] ? "\r\n" : "");
	if (write(c->fd, req, (size_t)n) != n)
		fatal("bench_stream: poll write: %s", strerror(errno));
	c->busy = true;
	buf_reset(&c->in);
}

/* A complete keep-alive reply in c->in? Keeps its ETag. */
static bool poll_done(struct client *c)
{
	if (!c->in.data)
		return false;
	const char *end = memmem(c->in.data, c->in.len, "\r\n\r\n", 4);
	if (!end)
		return false;
	size_t head = (size_t)(end - c->in.data) + 4, cl = 0;
	for (const char *p = c->in.data; p && p < end; p = memchr(p, '\n', (size_t)(end - p))) {
		if (*p == '\n')
			p++;
		if (strncasecmp(p, "Content-Length:", 15) == 0)
			cl = strtoul(p + 15, NULL, 10);
		else if (strncasecmp(p, "ETag: ", 6) == 0)
			snprintf(c->etag, sizeof c->etag, "%.*s", (int)strcspn(p + 6, "\r\n"), p + 6);
	}
	return c->in.len >= head + cl;
}

struct phase {
	bool stream;
	long n;
	double seconds;
	double cpu_per_min;
	long trades, events_missing;
	double p50_ms, p99_ms, last_p50_ms, last_p99_ms, max_ms;
	long polls;
};

static void connect_all(struct client *cs, long n, bool stream, int ep)
{
	for (long i = 0; i < n; i++) {
		cs[i] = (struct client){ .fd = connect_from((int)i) };
		if (stream) {
			static const char req[] = "GET /v1/stream?channels=trades:h200,quotes HTTP/1.0\r\n"
			                          "Host: bench\r\nAccept: text/event-stream\r\n\r\n";
			if (write(cs[i].fd, req, sizeof req - 1) != (ssize_t)(sizeof req - 1))
				fatal("bench_stream: write: %s", strerror(errno));
		} else {
			cs[i].due_ms = util_now_ms() + i * POLL_MS / n;
		}
		fcntl(cs[i].fd, F_SETFL, O_NONBLOCK);
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = (uint64_t)i };
		epoll_ctl(ep, EPOLL_CTL_ADD, cs[i].fd, &ev);
	}
}

/* Read what is there; false when a stream client was closed by the server. */
static void pump(struct client *cs, long n, bool stream, int ep, int timeout, struct arrivals *ar,
                 struct phase *ph)
{
	struct epoll_event evs[256];
	int k = epoll_wait(ep, evs, 256, timeout);
	int64_t now = util_now_us();
	for (int e = 0; e < k; e++) {
		struct client *c = &cs[evs[e].data.u64];
		char chunk[16384];
		ssize_t r;
		while ((r = read(c->fd, chunk, sizeof chunk)) > 0)
			buf_append(&c->in, chunk, (size_t)r);
		if (r == 0) {
			epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
			fprintf(stderr, "bench_stream: client %ld closed by the server\n", (long)evs[e].data.u64);
		}
		if (stream)
			scan_stream(c, (long)evs[e].data.u64, ar, now);
		else if (c->busy && poll_done(c)) {
			c->busy = false;
			ph->polls++;
		}
	}
	if (!stream) {
		int64_t ms = util_now_ms();
		for (long i = 0; i < n; i++) {
			if (!cs[i].busy && ms >= cs[i].due_ms) {
				cs[i].due_ms += POLL_MS;
				poll_send(&cs[i]);
			}
		}
	}
}

static void latency(struct phase *ph, struct trader *t, struct arrivals *ar)
{
	long n = ph->n, m = t->n < MAX_TRADES ? t->n : MAX_TRADES;
	int64_t *all = xcalloc((size_t)(m * n + 1), sizeof *all), *last = xcalloc((size_t)m + 1, sizeof *last);
	long na = 0, nl = 0;
	for (long i = 0; i < m; i++) {
		int64_t *row = &ar->at[i * n], first = 0, lastt = 0;
		long seen = 0;
		for (long c = 0; c < n; c++) {
			if (!row[c])
				continue;
			seen++;
			first = !first || row[c] < first ? row[c] : first;
			lastt = row[c] > lastt ? row[c] : lastt;
		}
		int64_t commit = t->reply_us[i] && (!first || t->reply_us[i] < first) ? t->reply_us[i] : first;
		if (!commit)
			continue;
		ph->events_missing += n - seen;
		for (long c = 0; c < n; c++)
			if (row[c])
				all[na++] = row[c] - commit;
		if (seen == n)
			last[nl++] = lastt - commit;
		ph->trades++;
	}
	qsort(all, (size_t)na, sizeof *all, cmp_i64);
	qsort(last, (size_t)nl, sizeof *last, cmp_i64);
	ph->p50_ms = na ? (double)all[na / 2] / 1000 : -1;
	ph->p99_ms = na ? (double)all[na * 99 / 100] / 1000 : -1;
	ph->last_p50_ms = nl ? (double)last[nl / 2] / 1000 : -1;
	ph->last_p99_ms = nl ? (double)last[nl * 99 / 100] / 1000 : -1;
	ph->max_ms = nl ? (double)last[nl - 1] / 1000 : -1;
	free(all);
	free(last);
}

static void run_phase(struct phase *ph, pid_t pid, struct trader *t)
{
	struct client *cs = xcalloc((size_t)ph->n, sizeof *cs);
	struct arrivals ar = { .n_clients = ph->n };
	int ep = epoll_create1(EPOLL_CLOEXEC);
	connect_all(cs, ph->n, ph->stream, ep);
	/* the stream clients' snapshots first */
	int64_t until = util_now_ms() + 30000;
	for (long ready = 0; ph->stream && ready < ph->n && util_now_ms() < until;) {
		pump(cs, ph->n, true, ep, 50, &ar, ph);
		ready = 0;
		for (long i = 0; i < ph->n; i++)
			ready += cs[i].snapshot;
	}
	ar.at = xcalloc((size_t)MAX_TRADES * (size_t)ph->n, sizeof *ar.at);
	memset(t->reply_us, 0, sizeof t->reply_us);
	struct buf reply = { 0 };
	http("GET", "/v1/trades/h200?limit=1", NULL, NULL, &reply);
	char *last = json_field(strstr(reply.data, "\r\n\r\n"), "id");
	t->first_id = ar.first_id = (last ? atoll(last) : 0) + 1;   /* the trader's trades follow */
	free(last);
	buf_free(&reply);
	t->n = 0;
	pthread_t th;
	t->run = true;
	double cpu0 = cpu_seconds(pid);
	int64_t t0 = util_now_us();
	pthread_create(&th, NULL, trader_main, t);
	int64_t end = t0 + (int64_t)(ph->seconds * 1e6);
	while (util_now_us() < end) {
		pump(cs, ph->n, ph->stream, ep, 5, &ar, ph);
	}
	t->run = false;
	pthread_join(th, NULL);
	for (int i = 0; i < 40; i++)        /* the last events */
		pump(cs, ph->n, ph->stream, ep, 5, &ar, ph);
	double cpu1 = cpu_seconds(pid);
	double secs = (double)(util_now_us() - t0) / 1e6;
	ph->cpu_per_min = (cpu1 - cpu0) / secs * 60;
	if (t->n > MAX_TRADES)
		t->n = MAX_TRADES;
	if (ph->stream)
		latency(ph, t, &ar);
	else
		ph->trades = t->n;
	for (long i = 0; i < ph->n; i++) {
		close(cs[i].fd);
		buf_free(&cs[i].in);
	}
	close(ep);
	free(ar.at);
	free(cs);
	/* let gpuxd close them: a suspended stream notices its closed socket at
	 * its next send (a heartbeat within 8 s) */
	sleep(ph->stream ? 9 : 1);
}

/* ---- gpuxd and the accounts ---------------------------------------------------------------- */

static pid_t start_gpuxd(const char *gpuxd, const char *dir)
{
	char *keyf = xasprintf("%s/admin.key", dir), *portf = xasprintf("%s/port", dir);
	char *db = xasprintf("%s/bench.db", dir), *logf = xasprintf("%s/gpuxd.log", dir);
	FILE *f = fopen(keyf, "w");
	if (!f)
		fatal("bench_stream: %s: %s", keyf, strerror(errno));
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
		execl(gpuxd, "gpuxd", "--listen", "127.0.0.1:0", "--port-file", portf, "--db", db,
		      "--admin-key-file", keyf, "--market", "open", "--rate-limit", "0",
		      "--ip-rate-limit", "0", "--quiet", (char *)NULL);
		_exit(127);
	}
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
		fatal("bench_stream: %s did not start (log: %s)", gpuxd, logf);
	}
	free(keyf);
	free(portf);
	free(db);
	free(logf);
	return pid;
}

static char *account(const char *role, bool fund)
{
	struct buf reply = { 0 };
	char *body = xasprintf("{\"email\":\"bench-%s@example.com\",\"country\":\"US\",\"currency\":\"USD\","
	                       "\"role\":\"%s\"}", role, role);
	if (http("POST", "/v1/accounts", NULL, body, &reply) != 201)
		fatal("bench_stream: signup failed: %s", reply.data);
	free(body);
	const char *b = strstr(reply.data, "\r\n\r\n") + 4;
	char *key = json_field(b, "api_key"), *id = json_field(b, "id");
	if (fund) {
		char *dep = xasprintf("{\"account_id\":%s,\"amount_minor\":100000000000}", id);
		if (http("POST", "/v1/deposits", admin_key, dep, &reply) != 201)
			fatal("bench_stream: deposit failed: %s", reply.data);
		free(dep);
	}
	free(id);
	buf_free(&reply);
	return key;
}

static void raise_nofile(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max > 65536 ? 65536 : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	getrlimit(RLIMIT_NOFILE, &rl);
	printf("fd limit %llu (for this program and its gpuxd)\n", (unsigned long long)rl.rlim_cur);
}

int main(int argc, char **argv)
{
	const char *gpuxd = getenv("GPUXD"), *clients = "100,1000";
	double seconds = 20, rate = 1;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--clients") == 0 && i + 1 < argc) clients = argv[++i];
		else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) seconds = atof(argv[++i]);
		else if (strcmp(argv[i], "--rate") == 0 && i + 1 < argc) rate = atof(argv[++i]);
		else if (strcmp(argv[i], "--gpuxd") == 0 && i + 1 < argc) gpuxd = argv[++i];
		else {
			fprintf(stderr, "usage: bench_stream [--clients 100,1000] [--seconds S] [--rate R] [--gpuxd PATH]\n");
			return 2;
		}
	}
	if (seconds < 1 || rate <= 0 || rate > 1000) {
		fprintf(stderr, "bench_stream: bad --seconds or --rate\n");
		return 2;
	}
	char *path = gpuxd ? xstrdup(gpuxd) : NULL;
	if (!path) {
		char *self = xstrdup(argv[0]), *slash = strrchr(self, '/');
		if (slash)
			*slash = 0;
		path = xasprintf("%s/../gpuxd", slash ? self : ".");
		free(self);
	}
	signal(SIGPIPE, SIG_IGN);
	raise_nofile();
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char *dir = xasprintf("%s/gpuxbench.XXXXXX", tmp);
	if (!mkdtemp(dir))
		fatal("bench_stream: mkdtemp %s: %s", dir, strerror(errno));
	pid_t pid = start_gpuxd(path, dir);
	static struct trader t;
	pthread_mutex_init(&t.mu, NULL);
	t.seller = account("seller", false);
	t.buyer = account("buyer", true);
	t.rate = rate;
	printf("one gpuxd (2 HTTP threads), %.0f trades/s on h200, %.0f s per phase\n", rate, seconds);
	printf("%-8s %-7s %12s %10s %10s %12s %12s %10s %8s\n", "clients", "mode", "CPU s/min",
	       "p50 ms", "p99 ms", "last p50 ms", "last p99 ms", "max ms", "trades");
	char *list = xstrdup(clients);
	for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct phase s = { .stream = true, .n = atol(tok), .seconds = seconds };
		struct phase p = { .stream = false, .n = atol(tok), .seconds = seconds };
		if (s.n < 1)
			continue;
		run_phase(&s, pid, &t);
		printf("%-8ld %-7s %12.2f %10.2f %10.2f %12.2f %12.2f %10.2f %8ld%s\n", s.n, "stream",
		       s.cpu_per_min, s.p50_ms, s.p99_ms, s.last_p50_ms, s.last_p99_ms, s.max_ms, s.trades,
		       s.events_missing ? " (events missing!)" : "");
		fflush(stdout);
		run_phase(&p, pid, &t);
		printf("%-8ld %-7s %12.2f %10s %10s %12s %12s %10s %8ld  (%ld polls; a change waits 1 s on average)\n",
		       p.n, "poll", p.cpu_per_min, "-", "-", "-", "-", "-", p.trades, p.polls);
		printf("%-8s streaming CPU / polling CPU = %.3f\n", "", p.cpu_per_min > 0 ? s.cpu_per_min / p.cpu_per_min : 0);
		fflush(stdout);
	}
	printf("reference: targets 1,000 clients p99 <= 50 ms; streaming CPU <= 1/10 of polling\n");
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	free(list);
	free(path);
	free(dir);
	return 0;
}
