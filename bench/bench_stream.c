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
 * /proc/PID/stat over the phase), and the same less a first phase with the
 * trader alone and no client ("net": what serving the clients costs; the
 * trades' own commits are the same in both). Clients bind to
 * 127.0.0.2..127.0.0.11 in turn (so per-address limits see ten addresses)
 * and are read by one epoll thread of this program (bench/loadgen.c), which
 * competes with gpuxd for the same CPUs: the latencies include this
 * reader's own delay.
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
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/loadgen.h"
#include "util/util.h"

#define MAX_TRADES 2000
#define POLL_MS 2000

static int port;

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
		lg_http(port, "POST", "/v1/orders", t->seller, a, &reply);
		free(a);
		char *b = xasprintf("{\"client_order_id\":\"b%d-%ld\",\"gpu\":\"h200\",\"side\":\"buy\","
		                    "\"type\":\"limit\",\"gpus\":1,\"hours\":1,\"price_cents\":400,"
		                    "\"time_in_force\":\"ioc\"}", ph, i);
		lg_http(port, "POST", "/v1/orders", t->buyer, b, &reply);
		int64_t at = util_now_us();
		free(b);
		char *id = lg_json_field(lg_body(&reply), "trade_id");
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

/* What a stream client is in the middle of (one per pool connection). */
struct sclient {
	size_t scan;
	bool trade_event, snapshot;
	int64_t next_ms;           /* poll: its next request */
};

struct arrivals {
	int64_t first_id;          /* trade id of index 0 */
	int64_t *at;               /* [trade][client], 0 = not seen */
	long n_clients;
	long events;               /* events received, all clients */
};

struct phase {
	bool stream;
	long n;
	double seconds;
	double cpu_per_min;
	long trades, events_missing;
	double p50_ms, p99_ms, last_p50_ms, last_p99_ms, max_ms;
	long polls, events;
	/* while it runs */
	struct sclient *sc;
	struct arrivals ar;
};

/* Scan complete lines of a stream client; record the trades of trade events. */
static void scan_stream(struct lg_conn *c, struct sclient *s, long ci, struct arrivals *ar,
                        int64_t now)
{
	for (;;) {
		char *start = c->in.data + s->scan;
		char *nl = memchr(start, '\n', c->in.len - s->scan);
		if (!nl)
			break;
		*nl = 0;
		if (strncmp(start, "id: ", 4) == 0) {
			ar->events++;
		} else if (strncmp(start, "event: ", 7) == 0) {
			s->trade_event = strcmp(start + 7, "trade") == 0;
			if (strcmp(start + 7, "snapshot") == 0)
				s->snapshot = true;
		} else if (s->trade_event && strncmp(start, "data: ", 6) == 0) {
			for (char *p = strstr(start, "{\"id\":"); p; p = strstr(p + 6, "{\"id\":")) {
				int64_t id = atoll(p + 6);
				if (ar->at && ar->first_id && id - ar->first_id >= 0 &&
				    id - ar->first_id < MAX_TRADES)
					ar->at[(id - ar->first_id) * ar->n_clients + ci] = now;
			}
			s->trade_event = false;
		}
		s->scan = (size_t)(nl - c->in.data) + 1;
	}
	if (s->scan > 65536) {   /* drop what was scanned */
		memmove(c->in.data, c->in.data + s->scan, c->in.len - s->scan);
		c->in.len -= s->scan;
		s->scan = 0;
	}
}

static void on_read(struct lg_pool *p, long i, int64_t now, void *arg)
{
	struct phase *ph = arg;
	if (ph->stream) {
		scan_stream(&p->c[i], &ph->sc[i], i, &ph->ar, now);
		return;
	}
	while (p->c[i].busy && lg_take_reply(&p->c[i]) != 0)
		ph->polls++;
}

/* Every poll client whose time has come asks again (If-None-Match, as gpux
 * does); one request in flight each. */
static void poll_due(struct lg_pool *p, struct phase *ph)
{
	int64_t ms = util_now_ms();
	for (long i = 0; i < p->n; i++) {
		struct lg_conn *c = &p->c[i];
		if (c->busy || ms < ph->sc[i].next_ms)
			continue;
		ph->sc[i].next_ms += POLL_MS;
		char req[256];
		int n = snprintf(req, sizeof req, "GET /v1/quotes HTTP/1.1\r\nHost: bench\r\n%s%s%s\r\n",
		                 c->etag[0] ? "If-None-Match: " : "", c->etag, c->etag[0] ? "\r\n" : "");
		lg_send(p, i, req, (size_t)n);
	}
}

static void pump(struct lg_pool *p, struct phase *ph, int timeout)
{
	lg_pump(p, timeout, on_read, ph);
	if (p->closed) {
		fprintf(stderr, "bench_stream: a client was closed by the server\n");
		p->closed = false;
	}
	if (!ph->stream)
		poll_due(p, ph);
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
	qsort(all, (size_t)na, sizeof *all, lg_cmp_i64);
	qsort(last, (size_t)nl, sizeof *last, lg_cmp_i64);
	ph->p50_ms = na ? (double)all[na / 2] / 1000 : -1;
	ph->p99_ms = na ? (double)all[na * 99 / 100] / 1000 : -1;
	ph->last_p50_ms = nl ? (double)last[nl / 2] / 1000 : -1;
	ph->last_p99_ms = nl ? (double)last[nl * 99 / 100] / 1000 : -1;
	ph->max_ms = nl ? (double)last[nl - 1] / 1000 : -1;
	free(all);
	free(last);
}

/* Open the phase's clients: stream clients send their request and wait for
 * their snapshots; poll clients are spread evenly over POLL_MS. */
static void connect_clients(struct lg_pool *p, struct phase *ph)
{
	static const char req[] = "GET /v1/stream?channels=trades:h200,quotes HTTP/1.0\r\n"
	                          "Host: bench\r\nAccept: text/event-stream\r\n\r\n";
	lg_pool_open(p, ph->n, port, true);
	ph->sc = xcalloc((size_t)ph->n + 1, sizeof *ph->sc);
	for (long i = 0; i < ph->n; i++) {
		if (ph->stream)
			lg_send(p, i, req, sizeof req - 1);
		else
			ph->sc[i].next_ms = util_now_ms() + i * POLL_MS / ph->n;
	}
	int64_t until = util_now_ms() + 30000;
	for (long ready = 0; ph->stream && ready < ph->n && util_now_ms() < until;) {
		pump(p, ph, 50);
		ready = 0;
		for (long i = 0; i < ph->n; i++)
			ready += ph->sc[i].snapshot;
	}
}

static void run_phase(struct phase *ph, pid_t pid, struct trader *t)
{
	struct lg_pool pool = { 0 };
	ph->ar = (struct arrivals){ .n_clients = ph->n };
	if (ph->n > 0)
		connect_clients(&pool, ph);
	ph->ar.at = xcalloc((size_t)MAX_TRADES * (size_t)(ph->n + 1), sizeof *ph->ar.at);
	memset(t->reply_us, 0, sizeof t->reply_us);
	struct buf reply = { 0 };
	lg_http(port, "GET", "/v1/trades/h200?limit=1", NULL, NULL, &reply);
	char *last = lg_json_field(lg_body(&reply), "id");
	t->first_id = ph->ar.first_id = (last ? atoll(last) : 0) + 1;   /* the trader's trades follow */
	free(last);
	buf_free(&reply);
	t->n = 0;
	pthread_t th;
	t->run = true;
	double cpu0 = lg_cpu_seconds(pid);
	int64_t t0 = util_now_us();
	pthread_create(&th, NULL, trader_main, t);
	int64_t end = t0 + (int64_t)(ph->seconds * 1e6);
	while (util_now_us() < end) {
		if (ph->n > 0)
			pump(&pool, ph, 5);
		else
			usleep(5000);
	}
	t->run = false;
	pthread_join(th, NULL);
	/* the last trade's events: a second of reading, whatever arrives (a
	 * count of reads would end early while its fan-out is still going) */
	for (int64_t until = util_now_us() + 1000000; ph->n > 0 && util_now_us() < until;)
		pump(&pool, ph, 5);
	double cpu1 = lg_cpu_seconds(pid);
	double secs = (double)(util_now_us() - t0) / 1e6;
	ph->cpu_per_min = (cpu1 - cpu0) / secs * 60;
	if (t->n > MAX_TRADES)
		t->n = MAX_TRADES;
	ph->events = ph->ar.events;
	if (ph->stream && ph->n > 0)
		latency(ph, t, &ph->ar);
	else
		ph->trades = t->n;
	if (ph->n > 0)
		lg_pool_close(&pool);
	free(ph->ar.at);
	free(ph->sc);
	/* let gpuxd close them: a suspended stream notices its closed socket at
	 * its next send (a heartbeat within 8 s) */
	if (ph->n > 0)
		sleep(ph->stream ? 9 : 1);
}

/* ---- main ------------------------------------------------------------------------------------ */

static int parse(int argc, char **argv, const char **gpuxd, const char **clients, double *seconds,
                 double *rate)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--clients") == 0 && i + 1 < argc) *clients = argv[++i];
		else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) *seconds = atof(argv[++i]);
		else if (strcmp(argv[i], "--rate") == 0 && i + 1 < argc) *rate = atof(argv[++i]);
		else if (strcmp(argv[i], "--gpuxd") == 0 && i + 1 < argc) *gpuxd = argv[++i];
		else {
			fprintf(stderr, "usage: bench_stream [--clients 100,1000] [--seconds S] [--rate R] [--gpuxd PATH]\n");
			return 2;
		}
	}
	if (*seconds < 1 || *rate <= 0 || *rate > 1000) {
		fprintf(stderr, "bench_stream: bad --seconds or --rate\n");
		return 2;
	}
	return 0;
}

static void print_pair(const struct phase *s, const struct phase *p, double base)
{
	printf("%-8ld %-7s %12.2f %10.2f %10.2f %10.2f %12.2f %12.2f %10.2f %8ld%s\n", s->n, "stream",
	       s->cpu_per_min, s->cpu_per_min - base, s->p50_ms, s->p99_ms, s->last_p50_ms,
	       s->last_p99_ms, s->max_ms, s->trades, s->events_missing ? " (events missing!)" : "");
	printf("%-8ld %-7s %12.2f %10.2f %10s %10s %12s %12s %10s %8ld  (%ld polls; a change waits "
	       "1 s on average)\n", p->n, "poll", p->cpu_per_min, p->cpu_per_min - base, "-", "-", "-",
	       "-", "-", p->trades, p->polls);
	double sn = s->cpu_per_min - base, pn = p->cpu_per_min - base;
	printf("%-8s streaming CPU / polling CPU = %.3f (net of the trades alone: %.3f)\n", "",
	       p->cpu_per_min > 0 ? s->cpu_per_min / p->cpu_per_min : 0, pn > 0 ? sn / pn : 0);
	/* the phases ran s->seconds; CPU s/min * seconds / 60 = CPU seconds */
	printf("%-8s net CPU per event delivered %.1f us (%ld events), per poll answered %.1f us "
	       "(%ld polls)\n", "", s->events ? sn * s->seconds / 60 * 1e6 / (double)s->events : 0,
	       s->events, p->polls ? pn * p->seconds / 60 * 1e6 / (double)p->polls : 0, p->polls);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *gpuxd = NULL, *clients = "100,1000";
	double seconds = 20, rate = 1;
	if (parse(argc, argv, &gpuxd, &clients, &seconds, &rate) != 0)
		return 2;
	char *path = lg_gpuxd_path(argv[0], gpuxd);
	signal(SIGPIPE, SIG_IGN);
	printf("fd limit %lu (for this program and its gpuxd)\n", lg_raise_nofile());
	struct lg_gpuxd g;
	lg_gpuxd_start(&g, path, NULL);
	port = g.port;
	static struct trader t;
	pthread_mutex_init(&t.mu, NULL);
	t.seller = lg_account(port, "seller", false);
	t.buyer = lg_account(port, "buyer", true);
	t.rate = rate;
	printf("one gpuxd (2 HTTP threads), %.0f trades/s on h200, %.0f s per phase\n", rate, seconds);
	struct phase base = { .stream = false, .n = 0, .seconds = seconds };
	run_phase(&base, g.pid, &t);
	printf("the trades alone, no client: %.2f CPU s/min (subtracted for \"net\")\n",
	       base.cpu_per_min);
	printf("%-8s %-7s %12s %10s %10s %10s %12s %12s %10s %8s\n", "clients", "mode", "CPU s/min",
	       "net", "p50 ms", "p99 ms", "last p50 ms", "last p99 ms", "max ms", "trades");
	char *list = xstrdup(clients);
	for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct phase s = { .stream = true, .n = atol(tok), .seconds = seconds };
		struct phase p = { .stream = false, .n = atol(tok), .seconds = seconds };
		if (s.n < 1)
			continue;
		run_phase(&s, g.pid, &t);
		run_phase(&p, g.pid, &t);
		print_pair(&s, &p, base.cpu_per_min);
	}
	printf("reference: targets 1,000 clients p99 <= 50 ms; streaming CPU <= 1/10 of polling\n");
	lg_gpuxd_stop(&g, false);
	free(t.seller);
	free(t.buyer);
	free(list);
	free(path);
	return 0;
}
