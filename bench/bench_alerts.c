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
 * Then job alerts (exchange/jobalerts.c), through the exchange library on a
 * fresh SQLite file of its own, as an HTTP thread hands the writer its jobs
 * (xd_market_call, as bench_jobs.c): books of machines of 8 on the GPUs that
 * can run Llama 3.1 405B at FP8 (the job of bench_jobs.c and of the tests),
 * then asks on the H200 book — every one a change of a book the job can run
 * on — timed one by one, first with no job alert, then with JOB_ALERTS of
 * them (budgets no book meets: evaluated, never fired). The difference of
 * the means, divided by JOB_ALERTS, is what one job alert costs per book
 * change (its look: one dry run of the changed book, a minimum over the
 * prices it keeps); the engine's cost per order above is the reference. A
 * new job alert's first look (the fit on every GPU, every book priced, its
 * row written and committed) is timed too.
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

#include <cjson/cJSON.h>

#include "bench/loadgen.h"
#include "data/catalog.h"
#include "exchange/engine.h"
#include "exchange/trig.h"
#include "exchange/xd.h"
#include "fit/fit.h"
#include "util/util.h"
#include "view/view.h"

#define ALERTS 10000
#define CONDS 1000
#define JOB_ALERTS 1000       /* 100 accounts of 10, the most an account may hold */
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

static double in_process(long orders)
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
	return eng_mean;
}

/* ---- job alerts, per book change ----------------------------------------------------------- */

struct jbench {
	struct xd_market *m;
	const struct xd_tables *t;
	struct xd_job *j;
	long n;                      /* client order ids */
};

/* One job through the writer; its reply's status (the reply cleared). */
static int call(struct jbench *b)
{
	xd_market_call(b->m, b->j);
	int st = b->j->reply.status;
	xd_reply_clear(&b->j->reply);
	return st;
}

/* The index of US dollars among a new database's currencies (data/fx.json). */
static int usd(const struct xd_tables *t)
{
	for (size_t i = 0; i < t->n_fx; i++)
		if (strcmp(t->fx[i].code, "USD") == 0)
			return (int)i;
	fatal("bench_alerts: no USD in data/fx.json");
}

static int64_t account(struct jbench *b, int role)
{
	memset(b->j, 0, sizeof *b->j);
	b->j->kind = XD_JOB_ACCOUNT;
	snprintf(b->j->email, sizeof b->j->email, "bench%ld@example.com", b->n++);
	memcpy(b->j->country, "US", 3);
	b->j->cur = usd(b->t);
	b->j->role = role;
	memcpy(b->j->key_hash, &b->n, sizeof b->n);   /* a key of its own (never used) */
	xd_market_call(b->m, b->j);
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(b->j->reply.body, "id");
	if (b->j->reply.status != 201 || !cJSON_IsRaw(id))   /* integers are written raw */
		fatal("bench_alerts: no account (%d)", b->j->reply.status);
	int64_t v = atoll(id->valuestring);
	xd_reply_clear(&b->j->reply);
	return v;
}

/* A machine of 8 on gpu at price, for 720 h: 201 or fatal. */
static void ask(struct jbench *b, int64_t seller, const char *gpu, int64_t price)
{
	char body[320];
	snprintf(body, sizeof body, "{\"client_order_id\":\"b%ld\",\"gpu\":\"%s\",\"side\":\"sell\","
	         "\"type\":\"limit\",\"gpus\":8,\"hours\":720,\"price_cents\":%lld,"
	         "\"node_gpus\":8}", b->n++, gpu, (long long)price);
	memset(b->j, 0, sizeof *b->j);
	struct xd_reply r = { 0 };
	if (xd_parse_order(b->t, body, strlen(body), true, &b->j->order, &r) != 0)
		fatal("bench_alerts: the ask is refused: %s", body);
	b->j->kind = XD_JOB_ORDER;
	b->j->account = seller;
	b->j->book = -1;
	if (call(b) != 201)
		fatal("bench_alerts: the ask was not placed");
}

/* The alert body on the preset's job at FP8 with an 8k context, for 24 h,
 * with a budget of 1 minor unit (no book meets it). */
static char *job_alert_body(void)
{
	struct catalog *cat = NULL;
	char *cause = NULL;
	if (catalog_load(NULL, &cat, &cause) != 0)
		fatal("bench_alerts: the catalogue: %s", cause);
	const struct catalog_model *pm = catalog_model(cat, "llama-3.1-405b");
	if (!pm)
		fatal("bench_alerts: no preset llama-3.1-405b");
	struct fit_job job;
	fit_job_defaults(&job);
	view_job_use_preset(&job, pm);
	job.method = FIT_INFER_FP8;
	job.seq_len = 8192;
	struct fit_field f[FIT_JOB_FIELDS_MAX];
	int n = fit_job_to_fields(&job, pm->id, f, FIT_JOB_FIELDS_MAX);
	cJSON *o = cJSON_CreateObject(), *jo = cJSON_AddObjectToObject(o, "job");
	for (int i = 0; i < n; i++) {
		if (f[i].kind == FIT_FIELD_BOOL) {
			cJSON_AddBoolToObject(jo, f[i].name, f[i].i != 0);
		} else if (f[i].kind == FIT_FIELD_INT) {
			char num[32];
			snprintf(num, sizeof num, "%lld", (long long)f[i].i);
			cJSON_AddItemToObject(jo, f[i].name, cJSON_CreateRaw(num));
		} else {
			cJSON_AddStringToObject(jo, f[i].name, f[i].s);
		}
	}
	cJSON_AddStringToObject(o, "when", "job_total_lte");
	cJSON_AddNumberToObject(o, "hours", 24);
	cJSON_AddNumberToObject(o, "max_total_minor", 1);
	char *text = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	catalog_free(&cat);
	return text;
}

struct asks_time { double mean, p50; };

/* The time of `orders` asks on the H200 book above its best (each rests: a
 * change of the book), in ns: the mean, and the median (commits that wait
 * for the disk move the mean more). */
static struct asks_time asks_timed(struct jbench *b, int64_t seller, long orders)
{
	int64_t *v = xmalloc((size_t)orders * sizeof *v), total = 0;
	for (long i = 0; i < orders; i++) {
		int64_t t0 = now_ns();
		ask(b, seller, "h200", 900 + i % 100);
		v[i] = now_ns() - t0;
		total += v[i];
	}
	qsort(v, (size_t)orders, sizeof *v, cmp_i64);
	struct asks_time r = { (double)total / (double)orders, (double)v[orders / 2] };
	free(v);
	return r;
}

static void job_alerts(long orders, double engine_ns)
{
	static const char *const gpus[] = { "h200", "b200", "b300", "mi300x", "mi325x" };
	char *cause = NULL, dir[] = "/tmp/bench_alerts.XXXXXX";
	if (!mkdtemp(dir))
		fatal("bench_alerts: mkdtemp");
	char *db = xasprintf("%s/gpuxd.db", dir);
	struct xd_tables *t = NULL;
	if (xd_tables_load(NULL, &t, &cause) != 0)
		fatal("bench_alerts: %s", cause);
	struct xd_market_config c = {
		.tables = t, .db_path = db, .state = EXCHANGE_OPEN, .opens_at_ms = -1,
		.clock_speed = 1.0, .seed = 1, .quiet = true,
	};
	struct jbench b = { .t = t, .j = xcalloc(1, sizeof *b.j) };
	if (xd_market_open(&c, &b.m, &cause) != 0)
		fatal("bench_alerts: %s", cause);
	int64_t seller = account(&b, XD_ROLE_SELLER);
	for (size_t g = 0; g < sizeof gpus / sizeof gpus[0]; g++)
		for (int k = 0; k < 20; k++)
			ask(&b, seller, gpus[g], 400 + 25 * (int64_t)g + k);
	struct asks_time none = asks_timed(&b, seller, orders);
	char *body = job_alert_body();
	int64_t made = 0, buyer = 0;
	for (int a = 0; a < JOB_ALERTS; a++) {
		if (a % XD_JOB_ALERTS_MAX == 0)   /* the most one account may hold */
			buyer = account(&b, XD_ROLE_BUYER);
		memset(b.j, 0, sizeof *b.j);
		struct xd_reply r = { 0 };
		if (xd_parse_alert(t, body, strlen(body), &b.j->alert, &b.j->order, &r) != 0)
			fatal("bench_alerts: the job alert is refused");
		b.j->kind = XD_JOB_ALERT_ADD;
		b.j->account = buyer;
		b.j->book = -1;
		int64_t t0 = now_ns();
		if (call(&b) != 201)
			fatal("bench_alerts: the job alert was not made");
		made += now_ns() - t0;
	}
	struct asks_time with = asks_timed(&b, seller, orders);
	double per = (with.p50 - none.p50) / JOB_ALERTS;
	printf("job alerts (%s, infer-fp8, 8k, 24 h; %zu GPU books of machines of 8 that can run "
	       "it, 20 each), per ask on the H200 book through the writer, %ld asks each:\n",
	       "llama-3.1-405b", sizeof gpus / sizeof gpus[0], orders);
	printf("  no job alert          p50 %8.0f ns  mean %8.0f ns  (the writer's whole job: "
	       "parse, match, store, commit)\n", none.p50, none.mean);
	printf("  %4d job alerts       p50 %8.0f ns  mean %8.0f ns\n", JOB_ALERTS, with.p50, with.mean);
	printf("  one job alert per book change: %.0f ns (p50s' difference / %d; means': %.0f ns), "
	       "%.2f × the engine's own mean per order above (%.0f ns)\n", per, JOB_ALERTS,
	       (with.mean - none.mean) / JOB_ALERTS, engine_ns > 0 ? per / engine_ns : 0, engine_ns);
	printf("  a new job alert's first look (the fit on every GPU, every book priced, its "
	       "row committed): mean %.0f us\n", (double)made / JOB_ALERTS / 1000.0);
	free(body);
	free(b.j);
	xd_market_close(&b.m);
	xd_tables_free(&t);
	char *rm = xasprintf("rm -rf '%s'", dir);
	if (system(rm) != 0)
		fprintf(stderr, "bench_alerts: could not remove %s\n", dir);
	free(rm);
	free(db);
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
	double engine_ns = in_process(orders >= 1000 ? orders : 1000);
	job_alerts(2000, engine_ns);
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
