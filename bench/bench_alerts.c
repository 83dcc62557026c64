/*
 * bench/bench_alerts.c — what alerts and conditional orders cost.
 *
 *   build/bench/bench_alerts [ORDERS]                 (default 1,000,000)
 *   build/bench/bench_alerts --latency PROBES URL_A [URL_B]
 *
 * In-process (the default): one book seeded with resting depth around its
 * mid, beside the price-trigger index the writer keeps for it (exchange/
 * trig.h): 10,000 resting alerts (best ask, best bid, last and spread, at or
 * below / at or above thresholds within 60 cents of the mid) and 1,000
 * conditional orders' triggers (ask, bid, last). Then the market mix of
 * bench_engine (60 % passive GTC, 30 % crossing IOC/GTC/FOK, 10 % cancels),
 * and after every order — every change of the book — what xd_watch_settle
 * does in memory: the book's prices (engine_best, the last trade) and
 * trig_take on every series of both sets; each condition met is put back as
 * its re-arming opposite 5 cents away (an alert's hysteresis), so the index
 * stays 11,000 strong. The engine's own cost per order is timed in the same
 * run, call by call, as the reference. (What a firing then writes — its row,
 * its event — is the store's, per firing, not per change: the HTTP figures
 * below include it.)
 *
 * Then, and with --latency, trade → alert at a streaming client: a GPU-hour
 * sold and bought PROBES times, one at a time, by a buyer with an
 * order_filled alert; for each, from the moment the buy is written to the
 * moment (a) its reply, (b) the trade on a market stream (trades:l40s) and
 * (c) the alert on an account stream (the buyer's key) arrive — the streams
 * on URL_B's node when given (two PostgreSQL nodes: the order's node
 * evaluates the alert, the event crosses by LISTEN/NOTIFY). Without URLs it
 * starts a gpuxd on SQLite of its own (bench/loadgen.c). Target: the alert
 * within 50 ms (p99) on SQLite.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/loadgen.h"
#include "exchange/engine.h"
#include "exchange/trig.h"
#include "util/util.h"

#define ALERTS 10000
#define CONDS 1000
#define MID 419
#define REARM 5

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}
static int32_t pick(uint64_t *s, int32_t n) { return (int32_t)(rnd(s) % (uint64_t)n); }

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- in-process --------------------------------------------------------------------- */

enum { M_ASK, M_BID, M_LAST, M_SPREAD };

/* A random condition: series (metric), direction, threshold. */
static void random_cond(uint64_t *s, int metrics, uint32_t *key, enum trig_dir *d, int64_t *t)
{
	*key = (uint32_t)pick(s, metrics);
	*d = pick(s, 2) ? TRIG_GTE : TRIG_LTE;
	if (*key == M_SPREAD) {
		*t = pick(s, 30);
		*d = pick(s, 4) ? TRIG_LTE : TRIG_GTE;
	} else {
		*t = MID + (*d == TRIG_LTE ? -1 : 1) * (1 + pick(s, 60));
	}
}

struct book_state { struct engine *e; int64_t last; };

static bool price_of(const struct book_state *b, uint32_t key, int64_t *v)
{
	struct eng_level a, d;
	bool ha = engine_best(b->e, 0, ENG_SELL, &a), hb = engine_best(b->e, 0, ENG_BUY, &d);
	switch (key) {
	case M_ASK: *v = a.price_cents; return ha;
	case M_BID: *v = d.price_cents; return hb;
	case M_LAST: *v = b->last; return b->last >= 0;
	default: *v = a.price_cents - d.price_cents; return ha && hb;
	}
}

/* What the writer does in memory after a book change: take what the prices
 * meet from both sets; every hit comes back as its re-arming opposite. */
static long evaluate(const struct book_state *b, struct trig_set *set[2], struct trig_hits *h)
{
	long hits = 0;
	for (int k = 0; k < 2; k++) {
		const uint32_t *keys;
		size_t nk = trig_keys(set[k], &keys);
		uint32_t ks[4];
		memcpy(ks, keys, nk * sizeof *ks);
		trig_hits_reset(h);
		for (size_t i = 0; i < nk; i++) {
			int64_t v;
			if (price_of(b, ks[i], &v))
				trig_take(set[k], ks[i], v, h);
		}
		for (size_t i = 0; i < h->n; i++) {
			const struct trig_hit *x = &h->v[i];
			enum trig_dir back = x->dir == TRIG_LTE ? TRIG_GTE : TRIG_LTE;
			int64_t t = x->dir == TRIG_LTE ? x->threshold + REARM : x->threshold - REARM;
			trig_add(set[k], x->key, back, t < 0 ? 0 : t, x->id);
		}
		hits += (long)h->n;
	}
	return hits;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static void in_process(long orders)
{
	uint64_t s = 0x5EED5EED12345678ull;
	struct book_state b = { .e = engine_new(1), .last = -1 };
	struct eng_fills fills = { 0 };
	struct trig_set *set[2] = { trig_set_new(), trig_set_new() };
	struct trig_hits h = { 0 };
	int64_t next_id = 1, *oids = xcalloc((size_t)orders + 1000, sizeof *oids);
	size_t n_oids = 0, head = 0;

	for (int i = 0; i < 800; i++) {
		bool sell = i & 1;
		struct eng_order o = {
			.id = next_id++, .account = 1 + pick(&s, 2000), .side = sell ? ENG_SELL : ENG_BUY,
			.tif = ENG_GTC, .price_cents = MID + (sell ? 1 : -1) * (1 + pick(&s, 10)),
			.gpus = 1 + pick(&s, 8), .hours = sell ? 720 : 24,
		};
		engine_restore(b.e, 0, &o, NULL, 0);
		oids[n_oids++] = o.id;
	}
	for (int i = 0; i < ALERTS + CONDS; i++) {
		uint32_t key;
		enum trig_dir d;
		int64_t t;
		random_cond(&s, i < ALERTS ? 4 : 3, &key, &d, &t);
		trig_add(set[i < ALERTS ? 0 : 1], key, d, t, i + 1);
	}
	int64_t *eng = xmalloc((size_t)orders * sizeof *eng), *ev = xmalloc((size_t)orders * sizeof *ev);
	long hits = 0, n_fills = 0;
	int64_t mid = MID;
	for (long n = 0; n < orders; n++) {
		int kind = pick(&s, 100);
		if (pick(&s, 64) == 0) {
			int64_t step = pick(&s, 2) ? 1 : -1;
			if (mid + step >= MID - 60 && mid + step <= MID + 60)
				mid += step;
		}
		int64_t t0 = now_ns();
		if (kind < 10) {
			int64_t id = head < n_oids ? oids[head++] : 0;
			engine_cancel(b.e, 0, id, NULL);
		} else {
			bool sell = pick(&s, 2);
			int64_t sign = sell ? 1 : -1;
			struct eng_order o = {
				.id = next_id++, .account = 1 + pick(&s, 2000), .side = sell ? ENG_SELL : ENG_BUY,
				.gpus = 1 + pick(&s, 6), .hours = sell ? 720 : 24, .tif = ENG_GTC,
				.price_cents = mid + sign * (1 + pick(&s, 10)),
			};
			if (kind >= 70) {
				int t = pick(&s, 10);
				o.tif = t < 7 ? ENG_IOC : t < 9 ? ENG_GTC : ENG_FOK;
				o.price_cents = mid - sign * pick(&s, 12);
				o.gpus = 1 + pick(&s, 16);
			}
			eng_fills_reset(&fills);
			engine_submit(b.e, 0, &o, false, &fills);
			if (fills.n)
				b.last = fills.v[fills.n - 1].price_cents;
			n_fills += (long)fills.n;
			if (o.tif == ENG_GTC && o.gpus > 0)
				oids[n_oids++] = o.id;
		}
		int64_t t1 = now_ns();
		hits += evaluate(&b, set, &h);
		int64_t t2 = now_ns();
		eng[n] = t1 - t0;
		ev[n] = t2 - t1;
	}
	double eng_mean = 0, ev_mean = 0;
	for (long n = 0; n < orders; n++) {
		eng_mean += (double)eng[n];
		ev_mean += (double)ev[n];
	}
	eng_mean /= (double)orders;
	ev_mean /= (double)orders;
	qsort(eng, (size_t)orders, sizeof *eng, cmp_i64);
	qsort(ev, (size_t)orders, sizeof *ev, cmp_i64);
	printf("in-process, per book change (%ld orders on one book; %zu alerts and %zu "
	       "conditional orders' triggers resting):\n", orders, trig_set_size(set[0]),
	       trig_set_size(set[1]));
	printf("  evaluating them  mean %7.0f ns  p50 %6lld ns  p99 %6lld ns  (%.2f conditions met "
	       "per change)\n", ev_mean, (long long)ev[orders / 2], (long long)ev[orders * 99 / 100],
	       (double)hits / (double)orders);
	printf("  the engine alone mean %7.0f ns  p50 %6lld ns  p99 %6lld ns  (reference: "
	       "engine_submit/cancel, %ld fills)\n", eng_mean, (long long)eng[orders / 2],
	       (long long)eng[orders * 99 / 100], n_fills);
	printf("  evaluation / engine: %.2f (means; clock reads of ~20 ns included in both)\n",
	       ev_mean / eng_mean);
	free(eng);
	free(ev);
	free(oids);
	trig_hits_free(&h);
	trig_set_free(&set[0]);
	trig_set_free(&set[1]);
	eng_fills_free(&fills);
	engine_free(&b.e);
}

/* ---- trade -> alert at a streaming client --------------------------------------------- */

static int port_of(const char *url)
{
	const char *c = strrchr(url, ':');
	int p = c ? atoi(c + 1) : 0;
	if (p <= 0)
		fatal("bench_alerts: %s: expected http://127.0.0.1:PORT", url);
	return p;
}

/* A GET /v1/stream on port (key: the account channel's). */
static int open_stream(int port, const char *channels, const char *key)
{
	int fd = lg_connect(port, -1);
	struct buf rq = { 0 };
	buf_printf(&rq, "GET /v1/stream?channels=%s HTTP/1.1\r\nHost: bench\r\n", channels);
	if (key)
		buf_printf(&rq, "Authorization: Bearer %s\r\n", key);
	buf_puts(&rq, "\r\n");
	if (write(fd, rq.data, rq.len) != (ssize_t)rq.len)
		fatal("bench_alerts: write: %s", strerror(errno));
	buf_free(&rq);
	return fd;
}

/* Read what fd has; true once in holds a line "event: NAME" (then emptied). */
static bool saw(int fd, struct buf *in, const char *name)
{
	char chunk[8192];
	ssize_t n = read(fd, chunk, sizeof chunk);
	if (n <= 0)
		fatal("bench_alerts: a stream ended: %s", n < 0 ? strerror(errno) : "closed");
	buf_append(in, chunk, (size_t)n);
	char want[64];
	snprintf(want, sizeof want, "\nevent: %s\n", name);
	if (!in->data || !strstr(in->data, want))
		return false;
	buf_reset(in);
	return true;
}

/* Wait until the stream has said it is there (its first event). */
static void await_start(int fd, struct buf *in)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	while (poll(&p, 1, 5000) > 0)
		if (saw(fd, in, "snapshot"))
			return;
	fatal("bench_alerts: a stream sent no snapshot");
}

struct probe_lat { int64_t *reply, *trade, *alert; long n; };

static void report(const char *what, int64_t *v, long n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_i64);
	printf("    %-34s p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms\n", what,
	       n ? (double)v[n / 2] / 1000.0 : 0, n ? (double)v[n * 99 / 100] / 1000.0 : 0,
	       n ? (double)v[n - 1] / 1000.0 : 0);
}

#define PROBE_ORDER "{\"client_order_id\":\"%c%ld\",\"gpu\":\"l40s\",\"side\":\"%s\"," \
	"\"type\":\"limit\",\"gpus\":1,\"hours\":1,\"price_cents\":79}"

/* One probe: a resting sell, then a crossing buy timed to its reply, its
 * trade on the market stream and its alert on the account stream. */
static bool probe(int a, const char *seller, const char *buyer, long i, int mfd, int afd,
                  struct buf *min, struct buf *ain, struct probe_lat *l)
{
	struct buf reply = { 0 };
	char body[256];
	snprintf(body, sizeof body, PROBE_ORDER, 's', i, "sell");
	if (lg_http(a, "POST", "/v1/orders", seller, body, &reply) != 201)
		fatal("bench_alerts: probe sell failed: %s", reply.data);
	snprintf(body, sizeof body, PROBE_ORDER, 'b', i, "buy");
	struct buf rq = { 0 };
	buf_printf(&rq, "POST /v1/orders HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n"
	           "Authorization: Bearer %s\r\nContent-Length: %zu\r\n\r\n%s", buyer, strlen(body),
	           body);
	int ofd = lg_connect(a, -1);
	int64_t t0 = util_now_us(), tr = -1, tt = -1, ta = -1;
	if (write(ofd, rq.data, rq.len) != (ssize_t)rq.len)
		fatal("bench_alerts: write: %s", strerror(errno));
	buf_free(&rq);
	buf_reset(&reply);
	while (tr < 0 || tt < 0 || ta < 0) {
		struct pollfd p[3] = { { .fd = ofd, .events = POLLIN }, { .fd = mfd, .events = POLLIN },
		                       { .fd = afd, .events = POLLIN } };
		if (poll(p, 3, 5000) <= 0)
			break;
		int64_t now = util_now_us();
		if (tr < 0 && p[0].revents) {
			char chunk[4096];
			ssize_t n = read(ofd, chunk, sizeof chunk);
			if (n > 0)
				buf_append(&reply, chunk, (size_t)n);
			else
				tr = now;
		}
		if (tt < 0 && p[1].revents && saw(mfd, min, "trade"))
			tt = now;
		if (ta < 0 && p[2].revents && saw(afd, ain, "account"))
			ta = now;
	}
	close(ofd);
	bool ok = tr >= 0 && tt >= 0 && ta >= 0 && reply.len > 12 && atoi(reply.data + 9) == 201;
	if (ok) {
		l->reply[l->n] = tr - t0;
		l->trade[l->n] = tt - t0;
		l->alert[l->n] = ta - t0;
		l->n++;
	}
	buf_free(&reply);
	return ok;
}

static void latency(const char *label, int a, int b, long probes)
{
	char *seller = lg_account(a, "seller", false), *buyer = lg_account(a, "buyer", true);
	struct buf reply = { 0 };
	if (lg_http(a, "POST", "/v1/alerts", buyer, "{\"when\":\"order_filled\"}", &reply) != 201)
		fatal("bench_alerts: the alert was refused: %s", reply.data);
	buf_free(&reply);
	struct buf min = { 0 }, ain = { 0 };
	int mfd = open_stream(b, "trades:l40s", NULL), afd = open_stream(b, "account", buyer);
	await_start(mfd, &min);
	await_start(afd, &ain);
	struct probe_lat l = { xcalloc((size_t)probes, sizeof(int64_t)),
	                       xcalloc((size_t)probes, sizeof(int64_t)),
	                       xcalloc((size_t)probes, sizeof(int64_t)), 0 };
	for (long i = 0; i < probes; i++) {
		probe(a, seller, buyer, i, mfd, afd, &min, &ain, &l);
		usleep(10000);
	}
	printf("  %s: %ld probes, %ld seen; from the buy written:\n", label, probes, l.n);
	report("its reply (the order's round trip)", l.reply, l.n);
	report("its trade on a market stream", l.trade, l.n);
	report("its alert on an account stream", l.alert, l.n);
	free(l.reply);
	free(l.trade);
	free(l.alert);
	buf_free(&min);
	buf_free(&ain);
	close(mfd);
	close(afd);
	free(seller);
	free(buyer);
}

int main(int argc, char **argv)
{
	if (argc >= 4 && strcmp(argv[1], "--latency") == 0) {
		long probes = atol(argv[2]);
		int a = port_of(argv[3]), b = argc > 4 ? port_of(argv[4]) : a;
		latency(argc > 4 ? "trade on node A -> alert on a stream of node B (two PostgreSQL nodes)"
		                 : "trade -> alert", a, b, probes > 0 ? probes : 200);
		return 0;
	}
	long orders = argc > 1 ? atol(argv[1]) : 1000000;
	in_process(orders >= 1000 ? orders : 1000);
	char *gp = lg_gpuxd_path(argv[0], NULL);
	struct lg_gpuxd g;
	lg_gpuxd_start(&g, gp, NULL);
	double load = 0;
	FILE *f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf", &load) != 1)
			load = 0;
		fclose(f);
	}
	printf("trade -> alert at a streaming client, gpuxd on SQLite (WAL, synchronous=FULL), "
	       "%ld cores, load %.2f (target: the alert within 50 ms):\n",
	       sysconf(_SC_NPROCESSORS_ONLN), load);
	latency("SQLite, one node", g.port, g.port, 200);
	lg_gpuxd_stop(&g, false);
	free(gp);
	return 0;
}
