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
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/loadgen.h"
#include "util/util.h"

struct opts {
	long rate, seconds, conns;
	const char *gpuxd;
	bool keep;
};

/* The run's state: the connections' keys, and what came back. */
struct run {
	struct lg_pool pool;
	char **keys;
	int64_t t0;
	long total, sent, done, acked, errors, idle_hits, next_free;
	int64_t *lat;
	long by_status[600];
};

static int parse(int argc, char **argv, struct opts *o)
{
	*o = (struct opts){ .rate = 5000, .seconds = 10, .conns = 64 };
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--rate") == 0 && i + 1 < argc) o->rate = atol(argv[++i]);
		else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) o->seconds = atol(argv[++i]);
		else if (strcmp(argv[i], "--conns") == 0 && i + 1 < argc) o->conns = atol(argv[++i]);
		else if (strcmp(argv[i], "--gpuxd") == 0 && i + 1 < argc) o->gpuxd = argv[++i];
		else if (strcmp(argv[i], "--keep") == 0) o->keep = true;
		else {
			fprintf(stderr, "usage: bench_http [--rate N] [--seconds S] [--conns C] "
			        "[--gpuxd PATH] [--keep]\n");
			return 2;
		}
	}
	if (o->rate < 1 || o->seconds < 1 || o->conns < 1 || o->conns > 1000) {
		fprintf(stderr, "bench_http: bad --rate, --seconds or --conns\n");
		return 2;
	}
	return 0;
}

static uint64_t rng = 0x853c49e6748fea9bULL;
static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

/* The i-th order, on connection k. */
static void send_order(struct run *r, long k, long i)
{
	static const char *const gpus[] = { "h200", "h100-sxm", "l40s" };
	static const int mid[] = { 419, 288, 79 };
	int g = (int)(next_rand() % 3);
	bool buy = next_rand() % 2;
	/* buys a little above mid and sells a little below cross about half the time */
	int price = mid[g] + (int)(next_rand() % 21) - 10 + (buy ? 3 : -3);
	char body[320];
	int len = snprintf(body, sizeof body,
	                   "{\"client_order_id\":\"b%ld-%ld\",\"gpu\":\"%s\",\"side\":\"%s\",\"type\":\"limit\","
	                   "\"gpus\":%u,\"hours\":%u,\"price_cents\":%d}",
	                   k, i, gpus[g], buy ? "buy" : "sell", 1 + next_rand() % 4,
	                   1 + next_rand() % 24, price);
	char *req = xasprintf("POST /v1/orders HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer %s\r\n"
	                      "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
	                      r->keys[k], len, body);
	lg_send(&r->pool, k, req, strlen(req));
	free(req);
}

static int64_t due(const struct run *r, long i, long rate)
{
	return r->t0 + (int64_t)((double)i * 1e6 / (double)rate);
}

static void on_reply(struct lg_pool *p, long i, int64_t now, void *arg)
{
	struct run *r = arg;
	struct lg_conn *c = &p->c[i];
	bool busy = c->busy;
	int status;
	while ((status = lg_take_reply(c)) != 0) {
		if (!busy)
			continue;
		busy = false;
		r->lat[r->done++] = now - c->due_us;
		if (status >= 200 && status < 300)
			r->acked++;
		else
			r->errors++;
		if (status > 0 && status < 600)
			r->by_status[status]++;
	}
}

/* Send what is due on idle connections (round robin); false when all are busy. */
static bool send_due(struct run *r, long rate)
{
	int64_t now = util_now_us();
	while (r->sent < r->total && due(r, r->sent, rate) <= now) {
		long k = -1;
		for (long n = 0; n < r->pool.n && k < 0; n++)
			if (!r->pool.c[(r->next_free + n) % r->pool.n].busy)
				k = (r->next_free + n) % r->pool.n;
		if (k < 0)
			return false;
		r->next_free = (k + 1) % r->pool.n;
		r->pool.c[k].due_us = due(r, r->sent, rate);
		send_order(r, k, r->sent);
		r->sent++;
	}
	return true;
}

/* The open loop: never spins (the server shares this machine's two cores):
 * it sleeps until the next order is due or, when every connection is busy,
 * until a reply frees one. */
static void run_load(struct run *r, const struct opts *o, const char *logf)
{
	r->t0 = util_now_us() + 10000;
	int64_t deadline = r->t0 + o->seconds * 1000000 + 30000000;
	while (r->done < r->total && util_now_us() < deadline) {
		if (!send_due(r, o->rate))
			r->idle_hits++;
		int64_t now = util_now_us();
		int64_t next = r->sent < r->total ? due(r, r->sent, o->rate) : now + 100000;
		int timeout = next > now ? (int)((next - now + 999) / 1000) : 100;
		lg_pump(&r->pool, timeout, on_reply, r);
		if (r->pool.closed)
			fatal("bench_http: gpuxd closed a connection (log: %s)", logf);
	}
}

static void report(struct run *r, const struct opts *o, int port)
{
	double secs = (double)(util_now_us() - r->t0) / 1e6;
	long d = r->done;
	qsort(r->lat, (size_t)d, sizeof *r->lat, lg_cmp_i64);
	double p50 = d ? (double)r->lat[d / 2] / 1000.0 : 0, p90 = d ? (double)r->lat[d * 90 / 100] / 1000.0 : 0;
	double p99 = d ? (double)r->lat[d * 99 / 100] / 1000.0 : 0, pmax = d ? (double)r->lat[d - 1] / 1000.0 : 0;
	struct buf reply = { 0 };
	lg_http(port, "GET", "/v1/trades/h200?limit=1", NULL, NULL, &reply);
	char *last_trade = lg_json_field(lg_body(&reply), "id");
	printf("gpuxd over HTTP/1.1 keep-alive on 127.0.0.1, durable commits (SQLite WAL, synchronous=FULL)\n");
	printf("  offered  %ld orders/s for %ld s on %ld connections (limit orders, about half crossing)\n",
	       o->rate, o->seconds, o->conns);
	printf("  sent %ld, answered %ld, acknowledged (2xx) %ld, errors %ld", r->sent, d, r->acked, r->errors);
	for (int s = 300; s < 600; s++)
		if (r->by_status[s])
			printf(" [%d: %ld]", s, r->by_status[s]);
	printf("\n  acknowledged %.0f orders/s over %.2f s\n", (double)r->acked / secs, secs);
	printf("  latency from the due time: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
	       p50, p90, p99, pmax);
	printf("  h200 trades so far: %s (ids); all connections busy at a due time: %ld times\n",
	       last_trade ? last_trade : "0", r->idle_hits);
	free(last_trade);
	buf_free(&reply);
}

int main(int argc, char **argv)
{
	struct opts o;
	if (parse(argc, argv, &o) != 0)
		return 2;
	char *path = lg_gpuxd_path(argv[0], o.gpuxd);
	signal(SIGPIPE, SIG_IGN);
	static const char *const extra[] = { "--max-connections-per-addr", "0", NULL };
	struct lg_gpuxd g;
	lg_gpuxd_start(&g, path, extra);

	static struct run r;
	r.keys = xcalloc((size_t)o.conns, sizeof *r.keys);
	for (long i = 0; i < o.conns; i++)
		r.keys[i] = lg_account(g.port, "both", true);
	lg_pool_open(&r.pool, o.conns, g.port, false);
	r.total = o.rate * o.seconds;
	r.lat = xcalloc((size_t)r.total, sizeof *r.lat);
	run_load(&r, &o, g.logf);
	report(&r, &o, g.port);

	lg_gpuxd_stop(&g, o.keep);
	lg_pool_close(&r.pool);
	for (long i = 0; i < o.conns; i++)
		free(r.keys[i]);
	free(r.keys);
	free(r.lat);
	free(path);
	return r.acked == r.total ? 0 : 1;
}
