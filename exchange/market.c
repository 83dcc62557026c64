/*
 * exchange/market.c — the writer thread, its queue, the exchange clock and
 * the market-data snapshot.
 *
 * HTTP threads queue jobs (struct xd_job) and return at once; the writer
 * wakes, takes everything queued (group commit), runs the due billing and
 * the demo drift, runs each job inside ONE transaction, COMMITs (the
 * WAL is synced), publishes the changed books to the snapshot, and only then
 * calls each job's done() — so no client ever hears of an order that is not
 * on disk. (Overlapping the sync of one batch with the work of the next, on a
 * second thread, was measured slower here: the sync and the next batch's WAL
 * writes contend for the same file.)
 * With nothing queued the writer still wakes every 50 ms to bill the hours
 * that fall due. An upkeep thread does what the store wants done beside the
 * writer (SQLite: it copies the WAL into the database file in PASSIVE mode,
 * so the writer never waits for a checkpoint either).
 *
 * The exchange clock is real time × clock_speed plus whatever the admin
 * route has added; it never goes back across restarts (it starts from the
 * later of the wall clock and the last committed clock).
 *
 * Readers of market data (quotes, books) never touch the engine: they copy
 * from the snapshot under a mutex. `seq` counts snapshot changes; the ETag of
 * /v1/quotes is "q-<boot id>-<seq>".
 */
#include "exchange/xd.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "util/util.h"

#define QUEUE_MAX 20000   /* a backstop: admission is by the oldest job's wait */
#define BATCH_MAX 1024
#define IDLE_WAKE_MS 50
#define COST_BATCHES 8
#define STAT_STEP_US 100
#define STAT_STEPS 100000   /* 10 s */

struct snap_book {
	size_t n_ask, n_bid;
	struct eng_level ask[XD_DEPTH_MAX], bid[XD_DEPTH_MAX];
	int64_t last;
	struct xd_unit_quotes u;     /* the best asks for units of 1 and of 8 */
};

/* A market reply rendered for one seq: its body split where each request's
 * server_time goes, and its ETag. */
struct rendered {
	bool valid;
	uint64_t seq;
	char *head, *tail, *etag;
	size_t head_len, tail_len;
};

struct xd_market {
	const struct xd_tables *t;
	bool demo;
	double speed;
	char boot[16];

	pthread_mutex_t clock_mu;
	int64_t base_exch, base_mono_us, offset;

	pthread_mutex_t info_mu;
	struct xd_settings *set;     /* published after each COMMIT that changed them */

	pthread_mutex_t q_mu;
	pthread_cond_t q_cv;
	pthread_cond_t upkeep_cv;
	struct xd_job *head, *tail;
	size_t qlen;
	bool stopping;
	pthread_t thread;
	bool running;
	/* admission (xd_market_submit), under q_mu: the bound on a write's
	 * wait for its answer; the batch under way (when it began, 0: none;
	 * its jobs; the arrival of its oldest); what the writer's work has
	 * cost, learnt from the batches that committed (moving averages over
	 * about COST_BATCHES of them): a COMMIT, and one job's work */
	int64_t wait_us;
	int64_t batch_start_us, batch_oldest_us;
	size_t batch_n;
	int64_t cost_commit_us, cost_job_us;
	/* readiness (xd_market_ready), written by the writer */
	_Atomic int64_t commit_since_us;   /* when the COMMIT under way began; 0: none */
	_Atomic int64_t commit_ok_us;      /* when the last one committed in time */
	_Atomic bool commit_failed;        /* the last one did not (until one does) */
	int64_t commit_deadline_us;

	struct xd_writer w;

	/* GPUXD_STATS=1: the writer's time split, printed at shutdown */
	bool stats;
	int64_t st_batches, st_jobs, st_max_batch, st_run_us, st_commit_us, st_max_commit_us;
	/* and where each job's time went (STAT_SPLITS histograms in STAT_STEP_US
	 * steps): from its request's arrival to the queue, in the queue, in its
	 * batch (run and commit), and all of it */
	uint32_t *st_hist[4];
	int64_t st_refused, st_late; /* under q_mu: refused at admission, or when due to run */

	char *upkeep_path;           /* the database the upkeep thread opens */
	struct xd_store *upkeep_db;  /* its connection, opened on its own thread */
	pthread_t upkeep_thread;
	bool upkeep_running;

	pthread_mutex_t snap_mu;
	struct snap_book *books;
	uint64_t seq;
	/* the market replies as rendered for a seq (under snap_mu): GET
	 * /v1/quotes, and GET /v1/books/{gpu} without a filter at each depth
	 * asked for (n_gpus × XD_DEPTH_MAX, by gpu then depth - 1); and the
	 * server_time of the second they were last served in */
	struct rendered quotes_text, *book_text;
	int64_t time_s;
	char time_text[32];

	struct xd_peers *peers;      /* shared store: what the other nodes did */
	pthread_mutex_t in_mu;       /* peers.c's inbox, drained by the writer */
	struct snap_book *in_books;
	bool *in_changed;
	struct in_trade { int gpu, side; int64_t id, price, at; int32_t gpus, hours; } *in_trades;
	size_t n_in, cap_in;
};

/* ---- clock ---------------------------------------------------------------------- */

static int64_t wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t xd_market_now(struct xd_market *m)
{
	pthread_mutex_lock(&m->clock_mu);
	double real_ms = (double)(util_now_us() - m->base_mono_us) / 1000.0;
	int64_t now = m->base_exch + (int64_t)(real_ms * m->speed) + m->offset;
	pthread_mutex_unlock(&m->clock_mu);
	return now;
}

static void clock_advance(struct xd_market *m, int64_t ms)
{
	pthread_mutex_lock(&m->clock_mu);
	m->offset += ms;
	pthread_mutex_unlock(&m->clock_mu);
}

/* ---- snapshot ------------------------------------------------------------------- */

/* What peers.c heard from other nodes goes to the snapshot and the stream,
 * on the writer's thread (the stream's feed is the writer's). */
static bool drain_inbox(struct xd_market *m)
{
	struct xd_writer *w = &m->w;
	bool any = false;
	pthread_mutex_lock(&m->in_mu);
	for (size_t i = 0; i < m->n_in; i++) {
		const struct in_trade *t = &m->in_trades[i];
		xd_stream_trade(w->stream, t->gpu, t->id, t->price, t->gpus, t->hours, t->side, t->at);
	}
	any = m->n_in > 0;
	m->n_in = 0;
	for (size_t g = 0; g < m->t->n_gpus; g++) {
		if (!m->in_changed[g])
			continue;
		m->in_changed[g] = false;
		const struct snap_book *b = &m->in_books[g];
		xd_stream_book(w->stream, (int)g, b->ask, b->n_ask, b->bid, b->n_bid, b->last, &b->u);
		pthread_mutex_lock(&m->snap_mu);
		m->books[g] = *b;
		pthread_mutex_unlock(&m->snap_mu);
		any = true;
	}
	pthread_mutex_unlock(&m->in_mu);
	return any;
}

static void publish(struct xd_market *m)
{
	struct xd_writer *w = &m->w;
	bool any = false;
	if (w->set_changed && !w->set_stale) {
		xd_market_publish_settings(m, xd_settings_copy(w->set));
		w->set_changed = false;
	}
	for (size_t g = 0; g < m->t->n_gpus; g++) {
		if (!w->book_changed[g] || !w->nodes->book_current(w, (int)g))
			continue;
		w->book_changed[g] = false;
		any = true;
		struct snap_book tmp;
		tmp.n_ask = engine_depth(w->eng, g, ENG_SELL, tmp.ask, XD_DEPTH_MAX);
		tmp.n_bid = engine_depth(w->eng, g, ENG_BUY, tmp.bid, XD_DEPTH_MAX);
		tmp.last = w->last_price[g];
		xd_unit_quotes_of(w->eng, g, &tmp.u);
		xd_stream_book(w->stream, (int)g, tmp.ask, tmp.n_ask, tmp.bid, tmp.n_bid, tmp.last,
		               &tmp.u);
		pthread_mutex_lock(&m->snap_mu);
		m->books[g] = tmp;
		pthread_mutex_unlock(&m->snap_mu);
	}
	any = drain_inbox(m) || any;
	if (any) {
		pthread_mutex_lock(&m->snap_mu);
		uint64_t seq = ++m->seq;
		pthread_mutex_unlock(&m->snap_mu);
		xd_stream_commit(w->stream, seq);
	}
}

void xd_market_put_book(struct xd_market *m, int gpu, const struct eng_level *ask, size_t n_ask,
                        const struct eng_level *bid, size_t n_bid, int64_t last,
                        const struct xd_unit_quotes *u)
{
	pthread_mutex_lock(&m->in_mu);
	struct snap_book *b = &m->in_books[gpu];
	b->n_ask = n_ask < XD_DEPTH_MAX ? n_ask : XD_DEPTH_MAX;
	b->n_bid = n_bid < XD_DEPTH_MAX ? n_bid : XD_DEPTH_MAX;
	memcpy(b->ask, ask, b->n_ask * sizeof *ask);
	memcpy(b->bid, bid, b->n_bid * sizeof *bid);
	b->last = last;
	b->u = *u;
	m->in_changed[gpu] = true;
	pthread_mutex_unlock(&m->in_mu);
	pthread_mutex_lock(&m->q_mu);
	pthread_cond_signal(&m->q_cv);   /* the writer publishes it now */
	pthread_mutex_unlock(&m->q_mu);
}

void xd_market_put_trade(struct xd_market *m, int gpu, int64_t id, int64_t price, int32_t gpus,
                         int32_t hours, int taker_side, int64_t at_ms)
{
	pthread_mutex_lock(&m->in_mu);
	if (m->n_in == m->cap_in) {
		m->cap_in = m->cap_in ? 2 * m->cap_in : 64;
		m->in_trades = xreallocarray(m->in_trades, m->cap_in, sizeof *m->in_trades);
	}
	m->in_trades[m->n_in++] = (struct in_trade){
		.gpu = gpu, .side = taker_side, .id = id, .price = price, .at = at_ms, .gpus = gpus,
		.hours = hours,
	};
	pthread_mutex_unlock(&m->in_mu);
}

const char *xd_market_boot(const struct xd_market *m) { return m->boot; }

uint64_t xd_market_seq(struct xd_market *m)
{
	pthread_mutex_lock(&m->snap_mu);
	uint64_t seq = m->seq;
	pthread_mutex_unlock(&m->snap_mu);
	return seq;
}

struct xd_settings *xd_market_settings(struct xd_market *m)
{
	pthread_mutex_lock(&m->info_mu);
	struct xd_settings *s = m->set;
	s->refs++;
	pthread_mutex_unlock(&m->info_mu);
	return s;
}

void xd_market_settings_done(struct xd_market *m, struct xd_settings **sp)
{
	struct xd_settings *s = *sp;
	if (!s)
		return;
	pthread_mutex_lock(&m->info_mu);
	bool last = --s->refs == 0;
	pthread_mutex_unlock(&m->info_mu);
	if (last)
		xd_settings_free(&s);
	*sp = NULL;
}

void xd_market_publish_settings(struct xd_market *m, struct xd_settings *s)
{
	struct xd_settings *old = NULL;
	pthread_mutex_lock(&m->info_mu);
	if (!m->set || s->version >= m->set->version) {
		old = m->set;
		m->set = s;
		s = NULL;
	}
	pthread_mutex_unlock(&m->info_mu);
	if (old)
		xd_market_settings_done(m, &old);
	xd_settings_free(&s);   /* older than what is published: dropped */
}

void xd_market_put_offset(struct xd_market *m, int64_t offset)
{
	pthread_mutex_lock(&m->clock_mu);
	m->offset = offset;
	pthread_mutex_unlock(&m->clock_mu);
}

/* ---- the market replies, rendered once per seq ---------------------------------- */

static void rendered_free(struct rendered *r)
{
	free(r->head);
	free(r->tail);
	free(r->etag);
	memset(r, 0, sizeof *r);
}

/* r := the members of before, then (at each request) server_time, then the
 * members of after: two non-empty objects, consumed. */
static void render(struct rendered *r, cJSON *before, cJSON *after, uint64_t seq, char *etag)
{
	char *a = cJSON_PrintUnformatted(before), *b = cJSON_PrintUnformatted(after);
	cJSON_Delete(before);
	cJSON_Delete(after);
	if (!a || !b)
		fatal("gpuxd: out of memory rendering a market reply");
	rendered_free(r);
	r->head = xasprintf("%.*s,", (int)strlen(a) - 1, a);   /* {"seq":N, */
	r->head_len = strlen(r->head);
	r->tail = xasprintf("%s\n", b + 1);                      /* "quotes":[…]}\n */
	r->tail_len = strlen(r->tail);
	r->etag = etag;
	r->seq = seq;
	r->valid = true;
	cJSON_free(a);
	cJSON_free(b);
}

/* The body of r for a request at now (exchange ms): its head, server_time,
 * its tail. Under snap_mu. */
static char *rendered_body(struct xd_market *m, const struct rendered *r, int64_t now)
{
	if (!m->time_text[0] || now / 1000 != m->time_s) {
		m->time_s = now / 1000;
		xd_time_fmt(now, m->time_text, sizeof m->time_text);
	}
	static const char key[] = "\"server_time\":\"";
	size_t tn = strlen(m->time_text), n = r->head_len + sizeof key - 1 + tn + 2 + r->tail_len;
	char *p = xmalloc(n + 1), *w = p;
	memcpy(w, r->head, r->head_len), w += r->head_len;
	memcpy(w, key, sizeof key - 1), w += sizeof key - 1;
	memcpy(w, m->time_text, tn), w += tn;
	memcpy(w, "\",", 2), w += 2;
	memcpy(w, r->tail, r->tail_len), w += r->tail_len;
	*w = 0;
	return p;
}

/* Serve r (rendered for m->seq): its ETag in *etag; 1 if etag_in names it
 * (304, *body NULL), else 0 and the body. Under snap_mu, which it releases. */
static int rendered_serve(struct xd_market *m, const struct rendered *r, int64_t now,
                          const char *etag_in, char **body, char **etag)
{
	*etag = xstrdup(r->etag);
	*body = NULL;
	bool same = etag_in && strstr(etag_in, r->etag);
	if (!same)
		*body = rendered_body(m, r, now);
	pthread_mutex_unlock(&m->snap_mu);
	return same ? 1 : 0;
}

/* The body of GET /v1/quotes at m->seq; under snap_mu. */
static void quotes_render(struct xd_market *m)
{
	cJSON *head = cJSON_CreateObject(), *o = cJSON_CreateObject();
	xd_jint(head, "seq", (int64_t)m->seq);
	cJSON *arr = cJSON_AddArrayToObject(o, "quotes");
	for (size_t g = 0; g < m->t->n_gpus; g++) {
		const struct snap_book *b = &m->books[g];
		cJSON_AddItemToArray(arr, xd_quote_json(m->t->gpu_ids[g], &b->u,
		                                        b->n_bid ? &b->bid[0] : NULL, b->last));
	}
	render(&m->quotes_text, head, o, m->seq, xasprintf("\"q-%s-%" PRIu64 "\"", m->boot, m->seq));
}

int xd_market_quotes_text(struct xd_market *m, const char *etag_in, char **body, char **etag)
{
	int64_t now = xd_market_now(m);
	pthread_mutex_lock(&m->snap_mu);
	struct rendered *r = &m->quotes_text;
	if (!r->valid || r->seq != m->seq)
		quotes_render(m);
	return rendered_serve(m, r, now, etag_in, body, etag);
}

/* GPU gpu's book to depth at m->seq into r; under snap_mu. */
static void book_render(struct xd_market *m, struct rendered *r, int gpu, int depth)
{
	cJSON *head = cJSON_CreateObject(), *o = cJSON_CreateObject();
	cJSON_AddStringToObject(head, "gpu", m->t->gpu_ids[gpu]);
	xd_jint(head, "seq", (int64_t)m->seq);
	const struct snap_book *b = &m->books[gpu];
	for (int side = 0; side < 2; side++) {
		cJSON *a = cJSON_AddArrayToObject(o, side ? "bids" : "asks");
		const struct eng_level *lv = side ? b->bid : b->ask;
		size_t n = side ? b->n_bid : b->n_ask;
		for (size_t i = 0; i < n && (int)i < depth; i++) {
			cJSON *l = cJSON_CreateObject();
			xd_jint(l, "price_cents", lv[i].price_cents);
			xd_jint(l, "gpus", lv[i].gpus);
			xd_jint(l, "orders", lv[i].orders);
			xd_jint(l, "gpu_hours", lv[i].gpu_hours);
			cJSON_AddItemToArray(a, l);
		}
	}
	render(r, head, o, m->seq, xasprintf("\"b-%s-%" PRIu64 "\"", m->boot, m->seq));
}

int xd_market_book_text(struct xd_market *m, int gpu, int depth, const char *etag_in,
                        char **body, char **etag)
{
	int64_t now = xd_market_now(m);
	pthread_mutex_lock(&m->snap_mu);
	struct rendered *r = &m->book_text[(size_t)gpu * XD_DEPTH_MAX + (size_t)(depth - 1)];
	if (!r->valid || r->seq != m->seq)
		book_render(m, r, gpu, depth);
	return rendered_serve(m, r, now, etag_in, body, etag);
}

cJSON *xd_market_book_for(struct xd_market *m, const struct engine *e, int gpu,
                          const struct eng_filter *f, int depth)
{
	const struct xd_tables *t = m->t;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "gpu", t->gpu_ids[gpu]);
	xd_jint(o, "node_gpus", f->unit);
	xd_jstr(o, "interconnect", f->link == ENG_LINK_ANY ? NULL : xd_link_names[f->link]);
	char *regions = xd_regions_text(t, f->regions);
	xd_regions_json(o, "regions", regions);
	free(regions);
	pthread_mutex_lock(&m->snap_mu);
	xd_jint(o, "seq", (int64_t)m->seq);
	pthread_mutex_unlock(&m->snap_mu);
	xd_jtime(o, "server_time", xd_market_now(m));
	struct eng_level *lv = xcalloc((size_t)depth, sizeof *lv);
	for (int side = 0; side < 2; side++) {
		size_t n = engine_depth_for(e, (size_t)gpu, side ? ENG_BUY : ENG_SELL, f, lv,
		                            (size_t)depth);
		cJSON *a = cJSON_AddArrayToObject(o, side ? "bids" : "asks");
		for (size_t i = 0; i < n; i++) {
			cJSON *l = cJSON_CreateObject();
			xd_jint(l, "price_cents", lv[i].price_cents);
			xd_jint(l, "units", lv[i].units);
			xd_jint(l, "gpus", lv[i].gpus);
			xd_jint(l, "orders", lv[i].orders);
			xd_jint(l, "gpu_hours", lv[i].gpu_hours);
			cJSON_AddItemToArray(a, l);
		}
	}
	free(lv);
	return o;
}

cJSON *xd_market_info_of(struct xd_market *m, const struct xd_settings *s)
{
	const struct xd_tables *t = m->t;
	cJSON *o = cJSON_CreateObject();
	int64_t now = xd_market_now(m);
	cJSON_AddStringToObject(o, "state", xd_state_names[s->state]);
	xd_jtime(o, "opens_at", s->opens_at_ms);
	xd_jtime(o, "server_time", now);
	cJSON_AddNumberToObject(o, "clock_speed", m->speed);
	cJSON_AddBoolToObject(o, "demo", m->demo);
	cJSON_AddBoolToObject(o, "simulated_payments", m->demo);
	/* a real exchange wants a reference with every deposit */
	cJSON_AddBoolToObject(o, "deposit_reference_required", !m->demo);
	xd_settings_json(s, t, now, m->demo, o);
	cJSON *rg = cJSON_AddArrayToObject(o, "regions");
	for (size_t i = 0; i < t->n_regions; i++) {
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "id", t->regions[i].id);
		cJSON_AddStringToObject(x, "name", t->regions[i].name);
		cJSON_AddItemToArray(rg, x);
	}
	cJSON *vat = cJSON_AddObjectToObject(o, "vat");
	cJSON_AddStringToObject(vat, "date", t->vat_date);
	cJSON_AddStringToObject(vat, "source", t->vat_source);
	cJSON *r = cJSON_AddObjectToObject(vat, "rate_bp");
	for (size_t i = 0; i < t->n_vat; i++)
		xd_jint(r, t->vat[i].country, t->vat[i].bp);
	return o;
}

cJSON *xd_market_info(struct xd_market *m)
{
	struct xd_settings *s = xd_market_settings(m);
	cJSON *o = xd_market_info_of(m, s);
	xd_market_settings_done(m, &s);
	return o;
}

const struct xd_tables *xd_market_tables(const struct xd_market *m) { return m->t; }
struct xd_stream *xd_market_stream(struct xd_market *m) { return m->w.stream; }
bool xd_market_demo(const struct xd_market *m) { return m->demo; }

/* ---- the writer ----------------------------------------------------------------- */

static void run_job(struct xd_market *m, struct xd_job *j)
{
	struct xd_writer *w = &m->w;
	w->now = xd_market_now(m);
	switch (j->kind) {
	case XD_JOB_CLOCK: {
		clock_advance(m, j->advance_ms);
		w->nodes->clock_advanced(w, j->advance_ms);
		w->now = xd_market_now(m);
		if (w->nodes->leader(w))
			xd_watch_tick(w, true);
		int64_t billed = xd_ops_bill(w);
		if (w->demo && w->nodes->leader(w))
			xd_demo_tick(w);
		cJSON *o = cJSON_CreateObject();
		xd_jtime(o, "server_time", w->now);
		xd_jint(o, "billed_hours", billed);
		xd_reply_json(&j->reply, 200, o);
		break;
	}
	default:
		xd_ops_run(w, j);
		break;
	}
}

/* One attempt at a batch in one transaction: 0 once committed, else the
 * fault (a shared store's statements longjmp here when they fail).
 * *t_run: when its COMMIT began. */
static int run_batch(struct xd_market *m, struct xd_job *batch, int64_t *t_run)
{
	struct xd_writer *w = &m->w;
	jmp_buf jb;
	int fault = setjmp(jb);
	if (fault != 0) {
		w->st->on_fault = NULL;
		return fault;
	}
	w->st->on_fault = &jb;
	w->now = xd_market_now(m);
	w->nodes->claim_books(w, batch);
	bool leader = w->nodes->leader(w);
	/* the settings as the store has them now (another node may have changed
	 * them), and the scheduled opening */
	xd_settings_batch(w, leader);
	if (leader) {
		xd_watch_tick(w, false);
		xd_ops_bill(w);
	}
	if (w->demo && leader) {
		xd_demo_tick(w);
		xd_watch_settle(w);
	}
	for (struct xd_job *j = batch; j; j = j->next) {
		if (j->deferred)
			continue;
		run_job(m, j);
		xd_watch_settle(w);   /* what the job set off, before the next job */
	}
	int64_t t0 = util_now_us();
	if (w->nodes->probe_ms > 0 && t0 - m->commit_ok_us > (int64_t)w->nodes->probe_ms * 1000) {
		xd_ops_begin(w);   /* a write probe: this commit is the proof */
		xd_meta_set(w->st, "probe_ms", w->now);
	}
	*t_run = t0;
	m->commit_since_us = w->in_tx ? t0 : 0;
	enum xd_commit c = xd_ops_commit(w);
	if (m->commit_since_us || c != XD_COMMITTED) {
		int64_t t1 = util_now_us();
		bool ok = c == XD_COMMITTED && t1 - t0 <= m->commit_deadline_us;
		m->commit_failed = !ok;
		if (ok)
			m->commit_ok_us = t1;
		m->commit_since_us = 0;
	}
	w->st->on_fault = NULL;
	return c == XD_COMMITTED ? 0 : c == XD_COMMIT_UNKNOWN ? XD_FAULT_UNKNOWN : XD_FAULT_RETRY;
}

/* A batch that did not commit: roll back, forget what it did in memory. */
static void recover(struct xd_market *m, struct xd_job *batch)
{
	struct xd_writer *w = &m->w;
	w->st->ops->rollback(w->st);
	xd_ops_forget(w);
	/* what a rolled-back job did to the settings is not so */
	w->set_stale = true;
	w->set_changed = false;
	if (w->demo)
		xd_demo_forget(w);
	for (struct xd_job *j = batch; j; j = j->next) {
		xd_reply_clear(&j->reply);
		j->replayed = false;
	}
}

/* Shared store: the jobs whose book another node held go back to the head
 * of the queue, in their order, for the next batch; the rest are returned. */
static struct xd_job *requeue_deferred(struct xd_market *m, struct xd_job *batch, size_t *n_back)
{
	struct xd_job *keep = NULL, **kt = &keep, *back = NULL, **bt = &back, *last = NULL;
	size_t k = 0;
	for (struct xd_job *j = batch, *next; j; j = next) {
		next = j->next;
		j->next = NULL;
		if (j->deferred) {
			*bt = last = j;
			bt = &j->next;
			k++;
		} else {
			*kt = j;
			kt = &j->next;
		}
	}
	if (back) {
		pthread_mutex_lock(&m->q_mu);
		last->next = m->head;
		if (!m->head)
			m->tail = last;
		m->head = back;
		m->qlen += k;
		pthread_mutex_unlock(&m->q_mu);
	}
	*n_back = k;
	return keep;
}

/* Every job of a batch that could not be committed is answered 5xx. */
static void answer_fault(struct xd_job *batch, int fault)
{
	for (struct xd_job *j = batch; j; j = j->next) {
		xd_reply_clear(&j->reply);
		if (fault == XD_FAULT_UNKNOWN) {
			xd_reply_error(&j->reply, 500, "STORE_OUTCOME_UNKNOWN",
			               "the database did not confirm the commit (the connection was lost, "
			               "or the commit deadline passed): the request may or may not have "
			               "taken effect; send it again (an order with the same "
			               "client_order_id is not placed twice)");
		} else {
			xd_reply_error(&j->reply, 503, "STORE_UNAVAILABLE",
			               "the exchange's database is unavailable; try again shortly");
		}
		j->reply.retry_after = 1;
	}
}

/* When a job's whole request had been read. */
static int64_t arrival(const struct xd_job *j)
{
	return j->arrived_us ? j->arrived_us : j->queued_us;
}

static void stat_add(uint32_t *h, int64_t us)
{
	int64_t k = us / STAT_STEP_US;
	h[k < 0 ? 0 : k >= STAT_STEPS ? STAT_STEPS - 1 : k]++;
}

/* GPUXD_STATS: the answered jobs of a batch taken at start_us. */
static void stats_split(struct xd_market *m, const struct xd_job *batch, int64_t start_us)
{
	int64_t now = util_now_us();
	for (const struct xd_job *j = batch; j; j = j->next) {
		int64_t arrived = arrival(j);
		stat_add(m->st_hist[0], j->queued_us - arrived);
		stat_add(m->st_hist[1], start_us - j->queued_us);
		stat_add(m->st_hist[2], now - start_us);
		stat_add(m->st_hist[3], now - arrived);
	}
}

/* The p-th percentile of histogram h, in ms. */
static double stat_pct(const uint32_t *h, double p)
{
	uint64_t n = 0, seen = 0;
	for (size_t k = 0; k < STAT_STEPS; k++)
		n += h[k];
	for (size_t k = 0; k < STAT_STEPS; k++)
		if ((seen += h[k]) > 0 && (double)seen >= p * (double)n)
			return (double)(k + 1) * STAT_STEP_US / 1000.0;
	return 0;
}

static void stats_print(struct xd_market *m)
{
	static const char *const name[] = { "arrival to queue", "queued", "in its batch", "in all" };
	fprintf(stderr, "gpuxd: writer: %" PRId64 " jobs in %" PRId64 " batches (max %" PRId64
	        "), %.1f us of work per job, %.2f ms per commit (max %.2f ms)\n",
	        m->st_jobs, m->st_batches, m->st_max_batch,
	        (double)m->st_run_us / (double)m->st_jobs,
	        (double)m->st_commit_us / 1000.0 / (double)m->st_batches,
	        (double)m->st_max_commit_us / 1000.0);
	for (size_t i = 0; i < 4; i++)
		fprintf(stderr, "gpuxd: writer: a job's time %s: p50 %.1f ms, p99 %.1f ms\n", name[i],
		        stat_pct(m->st_hist[i], 0.5), stat_pct(m->st_hist[i], 0.99));
	fprintf(stderr, "gpuxd: writer: %" PRId64 " writes refused as overload, %" PRId64 " more when "
	        "due to run (a write waits at most %.0f ms; at the end a COMMIT took %.2f ms, a "
	        "job's work %.0f us)\n", m->st_refused, m->st_late, (double)m->wait_us / 1000.0,
	        (double)m->cost_commit_us / 1000.0, (double)m->cost_job_us);
}

/* Jobs that shed load, that only read, or that the operator sends: queued
 * whatever the wait. */
static bool always_admitted(const struct xd_job *j)
{
	return j->kind == XD_JOB_CANCEL || j->kind == XD_JOB_BOOK || j->kind == XD_JOB_PREVIEW ||
	       j->admin || j->admin_key_id > 0 || j->kind == XD_JOB_CLOCK;
}

/* Of the jobs of a batch about to run at now, those that admission may
 * refuse and that have already waited longer than the bound since their
 * arrival (a stall held them) go to *late, to be answered 503 instead of
 * run; the rest are returned, in their order. Under q_mu. */
static struct xd_job *drop_late(struct xd_market *m, struct xd_job *batch, int64_t now,
                                struct xd_job **late)
{
	struct xd_job *keep = NULL, **kt = &keep, **lt = late;
	for (struct xd_job *j = batch, *next; j; j = next) {
		next = j->next;
		j->next = NULL;
		if (!always_admitted(j) && now - arrival(j) > m->wait_us) {
			*lt = j;
			lt = &j->next;
			m->st_late++;
		} else {
			*kt = j;
			kt = &j->next;
		}
	}
	return keep;
}

/* The next batch: the queue's first BATCH_MAX jobs, once there are any (or
 * IDLE_WAKE_MS has passed), less those too late (drop_late: in *late);
 * *stop when the market stops after it. The batch under way (for
 * admission) is this one from here on. */
static struct xd_job *take_batch(struct xd_market *m, size_t *n_out, bool *stop,
                                 struct xd_job **late)
{
	pthread_mutex_lock(&m->q_mu);
	m->batch_start_us = m->batch_oldest_us = 0;   /* the last batch has been answered */
	m->batch_n = 0;
	if (!m->head && !m->stopping) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += IDLE_WAKE_MS * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&m->q_cv, &m->q_mu, &ts);
	}
	struct xd_job *batch = m->head, *last = NULL;
	size_t n = 0;
	for (struct xd_job *j = batch; j && n < BATCH_MAX; j = j->next, n++)
		last = j;
	*late = NULL;
	if (last) {
		m->head = last->next;
		if (!m->head)
			m->tail = NULL;
		last->next = NULL;
		m->qlen -= n;
		m->batch_start_us = util_now_us();
		batch = drop_late(m, batch, m->batch_start_us, late);
		n = 0;
		for (struct xd_job *j = batch; j; j = j->next, n++)
			if (!m->batch_oldest_us || arrival(j) < m->batch_oldest_us)
				m->batch_oldest_us = arrival(j);
		m->batch_n = n;
	}
	*stop = m->stopping && !m->head;
	pthread_mutex_unlock(&m->q_mu);
	*n_out = n;
	return batch;
}

/* A moving average of the costs; a sample over four times it counts as
 * four times it, so that one stall (the age of the oldest job shows those)
 * does not leave admission refusing for long after. */
static void average(int64_t *avg, int64_t sample)
{
	if (*avg > 0 && sample > 4 * *avg)
		sample = 4 * *avg;
	*avg += (sample - *avg) / COST_BATCHES;
}

/* A batch of n jobs committed: its work took run_us, its COMMIT commit_us. */
static void learn_costs(struct xd_market *m, size_t n, int64_t run_us, int64_t commit_us)
{
	if (!n)
		return;
	pthread_mutex_lock(&m->q_mu);
	average(&m->cost_job_us, run_us / (int64_t)n);
	average(&m->cost_commit_us, commit_us);
	pthread_mutex_unlock(&m->q_mu);
}

static void count_batch(struct xd_market *m, size_t n, int64_t t0, int64_t t1, int64_t t2)
{
	m->st_batches++;
	m->st_jobs += (int64_t)n;
	m->st_max_batch = (int64_t)n > m->st_max_batch ? (int64_t)n : m->st_max_batch;
	m->st_run_us += t1 - t0;
	m->st_commit_us += t2 - t1;
	if (t2 - t1 > m->st_max_commit_us)
		m->st_max_commit_us = t2 - t1;
}

static void *writer_main(void *arg)
{
	struct xd_market *m = arg;
	for (;;) {
		size_t n = 0;
		bool stop = false;
		struct xd_job *late = NULL;
		struct xd_job *batch = take_batch(m, &n, &stop, &late);
		for (struct xd_job *j = late, *next; j; j = next) {
			next = j->next;
			xd_reply_overloaded(&j->reply);
			j->done(j);
		}
		int64_t t0 = util_now_us(), t1 = t0;
		int fault = 0;
		for (int attempt = 0; attempt < 5; attempt++) {
			fault = run_batch(m, batch, &t1);
			if (fault == 0)
				break;
			recover(m, batch);
			if (fault != XD_FAULT_RETRY)
				break;
		}
		int64_t t2 = util_now_us();
		if (fault)
			answer_fault(batch, fault);
		for (struct xd_job *j = fault ? batch : NULL; j; j = j->next)
			j->deferred = false;
		size_t n_back = 0;
		batch = requeue_deferred(m, batch, &n_back);
		stop = stop && n_back == 0;
		publish(m);
		if (!fault)
			learn_costs(m, n - n_back, t1 - t0, t2 - t1);
		if (m->stats && n)
			count_batch(m, n, t0, t1, t2);
		if (m->stats)
			stats_split(m, batch, t0);
		for (struct xd_job *j = batch, *next; j; j = next) {
			next = j->next;
			j->done(j);
		}
		if (stop && !batch)
			break;
	}
	return NULL;
}

/* The store's upkeep (SQLite: a checkpoint of the WAL) every 200 ms on its
 * own connection, so the writer's commits never wait for it. It stops with
 * the writer (it shares q_mu/q_cv's stopping flag). */
static void *upkeep_main(void *arg)
{
	struct xd_market *m = arg;
	/* best effort: without it SQLite's WAL is checkpointed at close */
	char *ignored = NULL;
	if (m->w.st->ops->open_upkeep(m->upkeep_path, &m->upkeep_db, &ignored) != 0) {
		free(ignored);
		return NULL;
	}
	for (;;) {
		pthread_mutex_lock(&m->q_mu);
		if (!m->stopping) {
			struct timespec ts;
			clock_gettime(CLOCK_MONOTONIC, &ts);
			ts.tv_nsec += 200 * 1000000L;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			pthread_cond_timedwait(&m->upkeep_cv, &m->q_mu, &ts);
		}
		bool stop = m->stopping;
		pthread_mutex_unlock(&m->q_mu);
		if (stop)
			break;
		m->upkeep_db->ops->upkeep(m->upkeep_db);
	}
	return NULL;
}

/* When the oldest job the writer has not answered yet arrived — one in the
 * batch under way or in the queue (a job another node's book sent back
 * keeps its arrival) — or 0 if there is none. Called with q_mu held. */
static int64_t oldest_unanswered(const struct xd_market *m)
{
	int64_t queued = m->head ? arrival(m->head) : 0;
	if (!m->batch_oldest_us || (queued && queued < m->batch_oldest_us))
		return queued;
	return m->batch_oldest_us;
}

/* When the writer would answer a job queued at now, by what its work has
 * cost lately: once the batch under way is done, the jobs queued before it
 * and its own, and their COMMIT (one per BATCH_MAX jobs). Under q_mu. */
static int64_t predicted_answer(const struct xd_market *m, int64_t now)
{
	int64_t start = now;
	if (m->batch_start_us) {
		int64_t end = m->batch_start_us + m->cost_commit_us + (int64_t)m->batch_n * m->cost_job_us;
		start = end > now ? end : now;
	}
	int64_t ahead = (int64_t)m->qlen + 1;
	return start + (1 + ahead / BATCH_MAX) * m->cost_commit_us + ahead * m->cost_job_us;
}

/* Should a write that arrived at arrived be refused, queued at now? When
 * the oldest unanswered job has waited longer than the bound (a commit
 * that stalls shows there, not in the costs), or the jobs ahead of it would
 * delay its answer past the bound after its arrival. With nothing ahead it
 * is queued whatever it costs: refusing it would spare no one a wait. */
static bool overloaded(const struct xd_market *m, int64_t now, int64_t arrived)
{
	if (m->qlen >= QUEUE_MAX)
		return true;
	int64_t bound = m->wait_us, oldest = oldest_unanswered(m);
	if (!oldest)
		return false;
	if (now - oldest > bound)
		return true;
	return predicted_answer(m, now) - arrived > bound;
}

bool xd_market_busy(struct xd_market *m, int64_t arrived_us)
{
	pthread_mutex_lock(&m->q_mu);
	bool busy = m->running && !m->stopping && overloaded(m, util_now_us(), arrived_us);
	m->st_refused += busy;
	pthread_mutex_unlock(&m->q_mu);
	return busy;
}

int xd_market_submit(struct xd_market *m, struct xd_job *j)
{
	j->next = NULL;
	j->queued_us = util_now_us();
	pthread_mutex_lock(&m->q_mu);
	if (m->stopping || !m->running) {
		pthread_mutex_unlock(&m->q_mu);
		return XD_SUBMIT_CLOSED;
	}
	if (!always_admitted(j) && overloaded(m, j->queued_us, arrival(j))) {
		m->st_refused++;
		pthread_mutex_unlock(&m->q_mu);
		return XD_SUBMIT_BUSY;
	}
	if (m->tail)
		m->tail->next = j;
	else
		m->head = j;
	m->tail = j;
	m->qlen++;
	pthread_cond_signal(&m->q_cv);
	pthread_mutex_unlock(&m->q_mu);
	return 0;
}

void xd_reply_overloaded(struct xd_reply *r)
{
	xd_reply_clear(r);
	xd_reply_error(r, 503, "UNAVAILABLE", "the exchange is overloaded: the writes before this "
	               "one would keep it waiting too long; retry (with the same client_order_id)");
	r->retry_after = 1;
}

bool xd_market_ready(struct xd_market *m, const char **why)
{
	int64_t now = util_now_us(), since = m->commit_since_us;
	pthread_mutex_lock(&m->q_mu);
	bool up = m->running && !m->stopping;
	int64_t oldest = oldest_unanswered(m);
	pthread_mutex_unlock(&m->q_mu);
	int probe_ms = m->w.nodes->probe_ms;
	if (!up)
		*why = "the exchange is shutting down";
	else if (since && now - since > m->commit_deadline_us)
		*why = "a commit has been waiting longer than the commit deadline";
	else if (m->commit_failed)
		*why = "the last commit failed or missed the commit deadline";
	else if (oldest && now - oldest > m->commit_deadline_us)
		*why = "queued writes have been waiting longer than the commit deadline";
	else if (probe_ms > 0 && now - m->commit_ok_us > 3 * (int64_t)probe_ms * 1000 + m->commit_deadline_us)
		*why = "no write probe has committed lately";
	else
		return true;
	return false;
}

struct waiter {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool done;
};

static void wake_waiter(struct xd_job *j)
{
	struct waiter *wt = j->arg;
	pthread_mutex_lock(&wt->mu);
	wt->done = true;
	pthread_cond_signal(&wt->cv);
	pthread_mutex_unlock(&wt->mu);
}

void xd_market_call(struct xd_market *m, struct xd_job *j)
{
	struct waiter wt = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false };
	j->done = wake_waiter;
	j->arg = &wt;
	int rc = xd_market_submit(m, j);
	if (rc == XD_SUBMIT_BUSY) {
		xd_reply_overloaded(&j->reply);
		return;
	}
	if (rc != 0) {
		xd_reply_error(&j->reply, 503, "UNAVAILABLE", "the exchange is shutting down");
		return;
	}
	pthread_mutex_lock(&wt.mu);
	while (!wt.done)
		pthread_cond_wait(&wt.cv, &wt.mu);
	pthread_mutex_unlock(&wt.mu);
	pthread_mutex_destroy(&wt.mu);
	pthread_cond_destroy(&wt.cv);
}

/* ---- open and close -------------------------------------------------------------- */

/* The demo's start-up transaction (its makers' orders) is written without a
 * sync (synchronous=OFF: neither the WAL's header when the WAL is new nor
 * its directory, nor the commit): lost in a power cut, the next start makes
 * it again, and the first acknowledged write syncs it with itself (they
 * share one WAL; the directory is synced with it). That is safe because no
 * WAL is restarted over old frames in it: the writer never checkpoints, and
 * the first connection to a database recovers its WAL and appends to it. */
static void demo_sync(struct xd_writer *w, bool demo, bool full)
{
	if (demo && w->st->ops->durable)
		w->st->ops->durable(w->st, full);
}

/* The start-up transaction's commit, synced again from then on. */
static enum xd_commit startup_commit(struct xd_writer *w, bool demo)
{
	enum xd_commit rc = xd_ops_commit(w);
	demo_sync(w, demo, true);
	return rc;
}

/* The exchange clock at start (nodes.c says where it goes on from). Called
 * with the start-up lock held. */
static void clock_start(struct xd_market *m)
{
	m->w.nodes->clock_start(&m->w, wall_ms(), m->speed, &m->base_exch, &m->offset);
	m->base_mono_us = util_now_us();
}

/* A market with its locks and snapshot, its writer not yet connected. */
static struct xd_market *market_new(const struct xd_market_config *c)
{
	struct xd_market *m = xcalloc(1, sizeof *m);
	m->t = c->tables;
	m->demo = c->demo;
	m->speed = c->clock_speed > 0 ? c->clock_speed : 1.0;
	const char *stats = getenv("GPUXD_STATS");
	m->stats = stats && *stats && strcmp(stats, "0") != 0;
	for (size_t i = 0; m->stats && i < 4; i++)
		m->st_hist[i] = xcalloc(STAT_STEPS, sizeof *m->st_hist[i]);
	unsigned char rnd[3] = { 0 };
	if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
		memset(rnd, 0, sizeof rnd);
	snprintf(m->boot, sizeof m->boot, "%02x%02x%02x", rnd[0], rnd[1], rnd[2]);
	pthread_mutex_init(&m->clock_mu, NULL);
	pthread_mutex_init(&m->info_mu, NULL);
	pthread_mutex_init(&m->q_mu, NULL);
	pthread_mutex_init(&m->snap_mu, NULL);
	pthread_mutex_init(&m->in_mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&m->q_cv, &ca);
	pthread_cond_init(&m->upkeep_cv, &ca);
	pthread_condattr_destroy(&ca);
	m->books = xcalloc(m->t->n_gpus, sizeof *m->books);
	m->book_text = xcalloc(m->t->n_gpus * XD_DEPTH_MAX, sizeof *m->book_text);
	m->in_books = xcalloc(m->t->n_gpus, sizeof *m->in_books);
	m->in_changed = xcalloc(m->t->n_gpus, sizeof *m->in_changed);
	for (size_t g = 0; g < m->t->n_gpus; g++)
		m->books[g].last = -1;
	return m;
}

/* The writer's per-GPU state and engine, once its store is open. */
static void writer_alloc(struct xd_market *m, const struct xd_market_config *c)
{
	struct xd_writer *w = &m->w;
	w->eng = engine_new(m->t->n_gpus);
	w->stream = xd_stream_new(m->t, c->stream_backlog ? c->stream_backlog : XD_STREAM_BACKLOG);
	w->book_changed = xcalloc(m->t->n_gpus, sizeof *w->book_changed);
	w->last_price = xcalloc(m->t->n_gpus, sizeof *w->last_price);
	w->book_ver = xcalloc(m->t->n_gpus, sizeof *w->book_ver);
	w->book_tx = xcalloc(m->t->n_gpus, sizeof *w->book_tx);
	w->tid_lo = xcalloc(m->t->n_gpus, sizeof *w->tid_lo);
	w->tid_hi = xcalloc(m->t->n_gpus, sizeof *w->tid_hi);
	w->nodes = w->st->shared ? &xd_nodes_shared : &xd_nodes_one;
	xd_watch_new(w);
}

static int startup_failed(const struct xd_market_config *c, char **cause)
{
	char *shown = xd_conninfo_redact(c->db_path);
	int rc = set_cause(cause, "%s: the start-up transaction did not commit", shown);
	free(shown);
	return rc;
}

int xd_market_open(const struct xd_market_config *c, struct xd_market **out, char **cause)
{
	struct xd_market *m = market_new(c);
	*out = NULL;
	m->wait_us = (int64_t)(c->queue_wait_ms > 0 ? c->queue_wait_ms : XD_QUEUE_WAIT_MS) * 1000;
	m->commit_deadline_us = (int64_t)(c->commit_deadline_ms > 0 ? c->commit_deadline_ms : 5000) * 1000;
	m->commit_ok_us = util_now_us();
	struct xd_writer *w = &m->w;
	w->m = m;
	w->t = m->t;
	int rc = xd_store_open(c->db_path, true, &w->st, cause);
	if (rc != 0) {
		xd_market_close(&m);
		return rc;   /* -2: the database cannot be reached now */
	}
	demo_sync(w, c->demo, false);
	writer_alloc(m, c);
	w->nodes->start_lock(w);
	clock_start(m);
	w->now = xd_market_now(m);
	if (xd_settings_start(w, c, cause) != 0 || xd_ops_restore(w, cause) != 0) {
		xd_market_close(&m);
		return -1;
	}
	xd_admin_bootstrap(w, c->admin_key);
	w->nodes->init_books(w);
	if (c->demo) {
		w->demo = NULL;
		if (xd_demo_init(w, c->seed, cause) != 0) {
			xd_market_close(&m);
			return -1;
		}
	}
	if (startup_commit(w, c->demo) != XD_COMMITTED) {
		xd_market_close(&m);
		return startup_failed(c, cause);
	}
	if (w->nodes->start_done(w) != 0) {
		xd_market_close(&m);
		return startup_failed(c, cause);
	}
	publish(m);
	m->seq = 1;
	xd_stream_set_seq(w->stream, 1);
	xd_store_readers_init(c->db_path);
	m->running = true;
	w->st->commit_deadline_ms = (int)(m->commit_deadline_us / 1000);   /* from here on */
	int e = pthread_create(&m->thread, NULL, writer_main, m);
	if (e != 0) {
		m->running = false;
		xd_market_close(&m);
		return set_cause(cause, "cannot start the writer thread: %s", strerror(e));
	}
	if (w->st->ops->listen && xd_peers_start(m, c->db_path, &m->peers, cause) != 0) {
		xd_market_close(&m);
		return -1;
	}
	/* the store's upkeep, which opens its connection on its own thread, off
	 * the path to the first answer */
	if (w->st->ops->upkeep) {
		m->upkeep_path = xstrdup(c->db_path);
		m->upkeep_running = pthread_create(&m->upkeep_thread, NULL, upkeep_main, m) == 0;
	}
	*out = m;
	return 0;
}

void xd_market_close(struct xd_market **mp)
{
	struct xd_market *m = *mp;
	if (!m)
		return;
	if (m->running) {
		pthread_mutex_lock(&m->q_mu);
		m->stopping = true;
		pthread_cond_signal(&m->q_cv);
		pthread_mutex_unlock(&m->q_mu);
		pthread_join(m->thread, NULL);
		m->running = false;
		if (m->stats && m->st_batches)
			stats_print(m);
	}
	xd_peers_stop(&m->peers);
	if (m->upkeep_running) {
		pthread_mutex_lock(&m->q_mu);
		m->stopping = true;
		pthread_cond_signal(&m->upkeep_cv);
		pthread_mutex_unlock(&m->q_mu);
		pthread_join(m->upkeep_thread, NULL);
		m->upkeep_running = false;
	}
	xd_store_close(&m->upkeep_db);
	free(m->upkeep_path);
	struct xd_writer *w = &m->w;
	xd_stream_shutdown(&w->stream);
	if (w->st && w->in_tx)
		xd_ops_commit(w);
	xd_demo_free(&w->demo);
	xd_watch_free(w);
	xd_events_free(w);
	xd_store_readers_close();
	xd_store_close(&w->st);
	engine_free(&w->eng);
	eng_fills_free(&w->fills);
	xd_settings_free(&w->set);
	xd_market_settings_done(m, &m->set);
	free(w->accts);
	free(w->dirty);
	free(w->book_changed);
	free(w->last_price);
	free(w->book_ver);
	free(w->book_tx);
	free(w->tid_lo);
	free(w->tid_hi);
	free(m->books);
	free(m->in_books);
	free(m->in_changed);
	free(m->in_trades);
	pthread_mutex_destroy(&m->in_mu);
	pthread_mutex_destroy(&m->clock_mu);
	pthread_mutex_destroy(&m->info_mu);
	pthread_mutex_destroy(&m->q_mu);
	pthread_mutex_destroy(&m->snap_mu);
	rendered_free(&m->quotes_text);
	for (size_t i = 0; m->book_text && i < m->t->n_gpus * XD_DEPTH_MAX; i++)
		rendered_free(&m->book_text[i]);
	free(m->book_text);
	for (size_t i = 0; i < 4; i++)
		free(m->st_hist[i]);
	pthread_cond_destroy(&m->q_cv);
	pthread_cond_destroy(&m->upkeep_cv);
	free(m);
	*mp = NULL;
}
