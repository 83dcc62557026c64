/*
 * bench/bench_jobs.c — a job-order preview across all 15 GPU books: "run
 * Llama 3.1 405B at FP8 for 24 hours at the lowest total", the preview gpux
 * asks for before it places a job order. For each GPU the exchange evaluates
 * the job with fit/ and prices it by a dry run of the order it would place
 * (and a second one where the book falls short), so one preview is 15 fit
 * evaluations and 15 to 30 dry runs of the engine, on the demo market's books.
 *
 *   bench_jobs [--runs N] [--gpuxd PATH] [--keep]
 *
 * In-process: the demo market opened by the exchange library itself on a
 * fresh SQLite file in a temporary directory (the writer thread, its engine,
 * the demo's books), each preview handed to the writer as an HTTP thread
 * hands it (xd_market_call: queued, run, answered) — what a request costs
 * inside gpuxd, the hand-over to the writer included. Over HTTP: a gpuxd
 * --demo of its own on loopback (bench/loadgen.h), the same body sent over one
 * keep-alive connection, one request at a time, timed from the send to the
 * whole reply. The body is what gpux writes: the catalogue's preset, the fit
 * job's fields by fit_job_to_fields.
 *
 * Prints p50, p99 and max of both beside the target (in-process p99 <= 5 ms).
 * Figures are printed, never asserted. The in-process half includes
 * exchange/xd.h, the exchange's interface to itself, as its fuzzer does: it
 * measures the exchange from inside.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "bench/loadgen.h"
#include "data/catalog.h"
#include "exchange/xd.h"
#include "fit/fit.h"
#include "util/util.h"
#include "view/view.h"

#define PRESET "llama-3.1-405b"

/* The preview's body, as gpux writes a job order's: the preset's job at FP8
 * with an 8k context, 24 hours, a budget. */
static char *job_body(void)
{
	struct catalog *cat = NULL;
	char *cause = NULL;
	if (catalog_load(NULL, &cat, &cause) != 0)
		fatal("bench_jobs: the catalogue: %s", cause);
	const struct catalog_model *m = catalog_model(cat, PRESET);
	if (!m)
		fatal("bench_jobs: no preset %s", PRESET);
	struct fit_job job;
	fit_job_defaults(&job);
	view_job_use_preset(&job, m);
	job.method = FIT_INFER_FP8;
	job.seq_len = 8192;
	struct fit_field f[FIT_JOB_FIELDS_MAX];
	int n = fit_job_to_fields(&job, m->id, f, FIT_JOB_FIELDS_MAX);
	cJSON *j = cJSON_CreateObject();
	for (int i = 0; i < n; i++) {
		if (f[i].kind == FIT_FIELD_BOOL) {
			cJSON_AddBoolToObject(j, f[i].name, f[i].i != 0);
		} else if (f[i].kind == FIT_FIELD_INT) {
			char num[32];
			snprintf(num, sizeof num, "%lld", (long long)f[i].i);
			cJSON_AddItemToObject(j, f[i].name, cJSON_CreateRaw(num));
		} else {
			cJSON_AddStringToObject(j, f[i].name, f[i].s);
		}
	}
	cJSON *b = cJSON_CreateObject();
	cJSON_AddStringToObject(b, "side", "buy");
	cJSON_AddNumberToObject(b, "hours", 24);
	cJSON_AddNumberToObject(b, "max_total_minor", 100000000);
	cJSON_AddItemToObject(b, "job", j);
	char *text = cJSON_PrintUnformatted(b);
	cJSON_Delete(b);
	catalog_free(&cat);
	return text;
}

struct figures { double p50, p99, max; char chosen[32]; };

static void summarise(int64_t *lat, long n, struct figures *f)
{
	qsort(lat, (size_t)n, sizeof *lat, lg_cmp_i64);
	f->p50 = (double)lat[n / 2] / 1000.0;
	f->p99 = (double)lat[n * 99 / 100] / 1000.0;
	f->max = (double)lat[n - 1] / 1000.0;
}

/* The reply's chosen GPU (a preview that chose none would measure something else). */
static void chosen_of(const cJSON *o, struct figures *f)
{
	const cJSON *g = cJSON_GetObjectItemCaseSensitive(o, "gpu");
	if (!cJSON_IsString(g))
		fatal("bench_jobs: the preview chose no GPU");
	snprintf(f->chosen, sizeof f->chosen, "%s", g->valuestring);
}

static void in_process(const char *body, long runs, struct figures *f)
{
	char *cause = NULL, dir[] = "/tmp/bench_jobs.XXXXXX";
	if (!mkdtemp(dir))
		fatal("bench_jobs: mkdtemp");
	char *db = xasprintf("%s/gpuxd.db", dir);
	struct xd_tables *t = NULL;
	struct xd_market *m = NULL;
	if (xd_tables_load(NULL, &t, &cause) != 0)
		fatal("bench_jobs: %s", cause);
	struct xd_market_config c = {
		.tables = t, .db_path = db, .demo = true, .state = EXCHANGE_OPEN, .opens_at_ms = -1,
		.clock_speed = 1.0, .seed = 1,
	};
	if (xd_market_open(&c, &m, &cause) != 0)
		fatal("bench_jobs: %s", cause);
	struct xd_job *j = xcalloc(1, sizeof *j);
	j->kind = XD_JOB_ACCOUNT;
	snprintf(j->email, sizeof j->email, "bench@example.com");
	memcpy(j->country, "US", 3);
	j->cur = -1;   /* US dollars: their index among a new database's currencies */
	for (size_t i = 0; i < t->n_fx && j->cur < 0; i++)
		if (strcmp(t->fx[i].code, "USD") == 0)
			j->cur = (int)i;
	j->role = XD_ROLE_BUYER;
	xd_market_call(m, j);
	/* the exchange writes integers raw (exchange/reply.c) */
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(j->reply.body, "id");
	if (j->reply.status != 201 || !cJSON_IsRaw(id))
		fatal("bench_jobs: no account (%d)", j->reply.status);
	int64_t account = atoll(id->valuestring);
	xd_reply_clear(&j->reply);
	struct xd_order_in order;
	struct xd_reply r = { 0 };
	if (xd_parse_order(t, body, strlen(body), false, &order, &r) != 0)
		fatal("bench_jobs: the body is refused");
	int64_t *lat = xmalloc((size_t)runs * sizeof *lat);
	for (long i = 0; i < runs; i++) {
		memset(j, 0, sizeof *j);
		j->kind = XD_JOB_PREVIEW;
		j->account = account;
		j->order = order;
		int64_t t0 = util_now_us() * 1000;
		xd_market_call(m, j);
		lat[i] = util_now_us() * 1000 - t0;
		if (j->reply.status != 200)
			fatal("bench_jobs: preview answered %d", j->reply.status);
		if (i == 0)
			chosen_of(j->reply.body, f);
		xd_reply_clear(&j->reply);
	}
	summarise(lat, runs, f);
	free(lat);
	free(j);
	xd_market_close(&m);
	xd_tables_free(&t);
	char *rm = xasprintf("rm -rf '%s'", dir);
	if (system(rm) != 0)
		fprintf(stderr, "bench_jobs: could not remove %s\n", dir);
	free(rm);
	free(db);
}

struct http_wait { int status; };

static void on_read(struct lg_pool *p, long i, int64_t now_us, void *arg)
{
	struct http_wait *w = arg;
	(void)now_us;
	int st = lg_take_reply(&p->c[i]);
	if (st != 0)
		w->status = st;
}

static void over_http(const char *argv0, const char *path, bool keep, const char *body, long runs,
                      struct figures *f)
{
	static const char *const extra[] = { "--demo", NULL };
	struct lg_gpuxd g;
	char *exe = lg_gpuxd_path(argv0, path);
	lg_gpuxd_start(&g, exe, extra);
	char *key = lg_account(g.port, "buyer", true);
	struct buf req = { 0 };
	buf_printf(&req, "POST /v1/orders/preview HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer "
	           "%s\r\nContent-Length: %zu\r\n\r\n%s", key, strlen(body), body);
	struct buf one = { 0 };
	if (lg_http(g.port, "POST", "/v1/orders/preview", key, body, &one) != 200)
		fatal("bench_jobs: the preview over HTTP: %s", one.data);
	cJSON *o = cJSON_Parse(lg_body(&one));
	chosen_of(o, f);
	cJSON_Delete(o);
	buf_free(&one);
	struct lg_pool pool;
	lg_pool_open(&pool, 1, g.port, false);
	int64_t *lat = xmalloc((size_t)runs * sizeof *lat);
	for (long i = 0; i < runs; i++) {
		struct http_wait w = { 0 };
		int64_t t0 = util_now_us();
		lg_send(&pool, 0, req.data, req.len);
		while (w.status == 0 && !pool.closed)
			lg_pump(&pool, 1000, on_read, &w);
		if (w.status != 200)
			fatal("bench_jobs: preview over HTTP answered %d", w.status);
		lat[i] = (util_now_us() - t0) * 1000;
	}
	summarise(lat, runs, f);
	free(lat);
	lg_pool_close(&pool);
	buf_free(&req);
	free(key);
	lg_gpuxd_stop(&g, keep);
	free(exe);
}

int main(int argc, char **argv)
{
	long runs = 2000;
	const char *gpuxd = NULL;
	bool keep = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
			runs = atol(argv[++i]);
		else if (strcmp(argv[i], "--gpuxd") == 0 && i + 1 < argc)
			gpuxd = argv[++i];
		else if (strcmp(argv[i], "--keep") == 0)
			keep = true;
		else {
			fprintf(stderr, "usage: bench_jobs [--runs N] [--gpuxd PATH] [--keep]\n");
			return 2;
		}
	}
	if (runs < 100)
		runs = 100;
	char *body = job_body();
	struct figures in = { 0 }, http = { 0 };
	in_process(body, runs, &in);
	over_http(argv[0], gpuxd, keep, body, runs, &http);
	printf("job-order preview (%s, infer-fp8, 8k context, 24 h) across %d GPU books, "
	       "%ld runs each, fit model %d:\n", PRESET, 15, runs, FIT_MODEL_VERSION);
	printf("  in-process: p50 %.2f ms  p99 %.2f ms  max %.2f ms  (target: p99 <= 5 ms)  "
	       "chose %s\n", in.p50 / 1000.0, in.p99 / 1000.0, in.max / 1000.0, in.chosen);
	printf("  over HTTP:  p50 %.2f ms  p99 %.2f ms  max %.2f ms  (one keep-alive connection)"
	       "  chose %s\n", http.p50 / 1000.0, http.p99 / 1000.0, http.max / 1000.0, http.chosen);
	free(body);
	return 0;
}
