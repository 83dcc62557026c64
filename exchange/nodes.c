/*
 * exchange/nodes.c — what the writer does differently with one node and
 * with many (xd.h, struct xd_nodes_ops): the per-GPU book lock and its
 * version, how balances are read and written, how ledger entries are
 * numbered, the notifications sent at COMMIT, the market state and clock
 * every node shares, and the lease that says which node bills and drives
 * the demo. xd_nodes_one serves a store only this process writes (SQLite);
 * xd_nodes_shared one that other gpuxd nodes write too (PostgreSQL). The
 * writer picks one when it opens its store and calls nothing else of this
 * kind, so ops.c, market.c and demo.c hold one path for both.
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Rebuild GPU g's book from the database, in acceptance order. */
static void book_reload(struct xd_writer *w, int g)
{
	engine_clear(w->eng, (size_t)g);
	char *cause = NULL;
	if (xd_book_load(w->st, w->t, w->eng, g, (size_t)g, &cause) != 0)
		fatal("gpuxd: another node's orders cannot be read: %s", cause);
	struct xd_q *st = xd_stmt(w->st, "SELECT price FROM trades WHERE gpu = ?1 ORDER BY id DESC LIMIT 1");
	xd_bind_text(st, 1, w->t->gpu_ids[g]);
	w->last_price[g] = xd_step(st) == XD_ROW ? xd_col_int64(st, 0) : -1;
	xd_reset(st);
	w->book_changed[g] = true;
	xd_watch_reload(w, g);   /* its alerts and conditional orders, as of the same read */
}

/* ---- many nodes (a shared store) ----------------------------------------------- */

/* GPU g's book is locked by this transaction at version v: bring our copy
 * up to date (the version counts the transactions that locked it). True if
 * it was read again. */
static bool book_locked(struct xd_writer *w, int g, int64_t v)
{
	bool stale = w->book_ver[g] < 0 || v != w->book_ver[g] + 1;
	if (stale)
		book_reload(w, g);
	w->book_ver[g] = v;
	w->book_tx[g] = w->tx;
	return stale;
}

/* Lock GPU g's book until the end of the transaction (its row of
 * book_versions), waiting for another node that holds it. One matcher per
 * GPU at a time, on any node. */
static bool shared_lock_book(struct xd_writer *w, int g)
{
	xd_ops_begin(w);
	if (w->book_tx[g] == w->tx && w->book_ver[g] >= 0)
		return false;   /* locked already in this transaction */
	struct xd_q *st = xd_stmt(w->st,
		"INSERT INTO book_versions(gpu, version) VALUES(?1, 1) ON CONFLICT(gpu) "
		"DO UPDATE SET version = book_versions.version + 1 RETURNING version");
	xd_bind_text(st, 1, w->t->gpu_ids[g]);
	return book_locked(w, g, xd_step_id(st));
}

static void shared_init_books(struct xd_writer *w)
{
	xd_ops_begin(w);
	for (size_t g = 0; g < w->t->n_gpus; g++) {
		struct xd_q *st = xd_stmt(w->st, "INSERT INTO book_versions(gpu, version) VALUES(?1, 0) "
		                                 "ON CONFLICT(gpu) DO NOTHING");
		xd_bind_text(st, 1, w->t->gpu_ids[g]);
		xd_step_done(w->st, st);
	}
}

static bool ours(const struct xd_writer *w, int g)
{
	return w->book_tx[g] == w->tx && w->book_ver[g] >= 0;
}

/* Run sql over those of books gs[0..n) this transaction does not hold (its
 * ?1: their ids as a text[]); it returns (gpu, version) rows, each handed to
 * then() once all are read (book_reload uses statements of its own). */
static void books_rows(struct xd_writer *w, const int *gs, size_t n, const char *sql,
                       void (*then)(struct xd_writer *w, int g, int64_t v))
{
	struct buf arr = { 0 };
	buf_printf(&arr, "{");
	for (size_t i = 0; i < n; i++)
		if (!ours(w, gs[i]))
			buf_printf(&arr, "%s\"%s\"", arr.len > 1 ? "," : "", w->t->gpu_ids[gs[i]]);
	buf_printf(&arr, "}");
	if (arr.len > 2) {
		struct xd_q *st = xd_stmt(w->st, sql);
		xd_bind_text(st, 1, arr.data);
		int64_t *got = xcalloc(n, sizeof *got);
		int *gi = xcalloc(n, sizeof *gi);
		size_t ng = 0;
		while (ng < n && xd_step(st) == XD_ROW) {
			gi[ng] = xd_tables_gpu(w->t, xd_col_text(st, 0));
			got[ng++] = xd_col_int64(st, 1);
		}
		xd_reset(st);
		for (size_t i = 0; i < ng; i++)
			if (gi[i] >= 0)
				then(w, gi[i], got[i]);
		free(got);
		free(gi);
	}
	buf_free(&arr);
}

static void locked(struct xd_writer *w, int g, int64_t v)
{
	book_locked(w, g, v);
}

/* Lock those of the wanted books that no other node holds now, without
 * waiting (FOR UPDATE SKIP LOCKED). */
static void books_try(struct xd_writer *w, const int *gs, size_t n)
{
	books_rows(w, gs, n,
	           "UPDATE book_versions SET version = version + 1 WHERE gpu IN (SELECT gpu FROM "
	           "book_versions WHERE gpu = ANY(CAST(?1 AS text[])) ORDER BY gpu FOR UPDATE SKIP LOCKED) "
	           "RETURNING gpu, version", locked);
}

struct gpu_key { const char *id; int g; };

static int cmp_gpu(const void *a, const void *b)
{
	return strcmp(((const struct gpu_key *)a)->id, ((const struct gpu_key *)b)->id);
}

/* The GPU whose book job j matches on, -1 if none. */
static int job_book(struct xd_writer *w, const struct xd_job *j)
{
	if (j->kind == XD_JOB_ORDER)
		return j->order.gpu;
	if (j->kind != XD_JOB_CANCEL)
		return -1;
	struct xd_q *st = xd_stmt(w->st, "SELECT gpu FROM orders WHERE id = ?1");
	xd_bind_int64(st, 1, j->target);
	int g = xd_step(st) == XD_ROW ? xd_tables_gpu(w->t, xd_col_text(st, 0)) : -1;
	xd_reset(st);
	return g;
}

/* Before anything else is locked, lock the books the batch's orders and
 * cancels match on — those left for the next batch before, in GPU-id order,
 * waiting; the others only if no other node holds them (SKIP LOCKED) — and
 * mark the jobs whose book another node holds deferred. */
static void shared_claim_books(struct xd_writer *w, struct xd_job *batch)
{
	xd_ops_begin(w);
	size_t n = w->t->n_gpus, k = 0;
	char *want = xcalloc(n ? n : 1, 1);   /* 1: wanted, 2: wanted by a job left before */
	for (struct xd_job *j = batch; j; j = j->next) {
		j->deferred = false;
		j->book = job_book(w, j);
		if (j->book < 0 || (size_t)j->book >= n)
			j->book = -1;
		else if (want[j->book] < 1 + (j->defers > 0))
			want[j->book] = (char)(1 + (j->defers > 0));
	}
	struct gpu_key *keys = xcalloc(n ? n : 1, sizeof *keys);
	for (size_t g = 0; g < n; g++)
		if (want[g])
			keys[k++] = (struct gpu_key){ w->t->gpu_ids[g], (int)g };
	qsort(keys, k, sizeof *keys, cmp_gpu);
	int *order = xcalloc(k ? k : 1, sizeof *order);
	for (size_t i = 0; i < k; i++) {
		order[i] = keys[i].g;
		if (want[order[i]] == 2)   /* waited for in GPU-id order, before any other lock */
			shared_lock_book(w, order[i]);
	}
	books_try(w, order, k);
	size_t held = 0;
	for (size_t i = 0; i < k; i++)
		held += ours(w, order[i]);
	if (k > 0 && held == 0)
		shared_lock_book(w, order[0]);   /* every book it wants is busy: wait for the first */
	for (struct xd_job *j = batch; j; j = j->next) {
		if (j->book >= 0 && !ours(w, j->book)) {
			j->deferred = true;
			j->defers++;
		}
	}
	free(order);
	free(keys);
	free(want);
}

struct acct_key { bool system; int64_t id; };

static int cmp_acct(const void *a, const void *b)
{
	const struct acct_key *x = a, *y = b;
	if (x->system != y->system)
		return x->system ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The transaction's balance changes as deltas, customer accounts first and
 * the exchange's own (hot) accounts last, each group in id order, so row
 * locks are taken in one order and the hot rows are held only from their
 * UPDATE to the COMMIT. */
static void shared_flush_accounts(struct xd_writer *w)
{
	size_t n = w->n_dirty;
	struct acct_key *keys = xcalloc(n ? n : 1, sizeof *keys);
	for (size_t i = 0; i < n; i++)
		keys[i] = (struct acct_key){ w->accts[w->dirty[i]].system, w->dirty[i] };
	qsort(keys, n, sizeof *keys, cmp_acct);
	for (size_t i = 0; i < n; i++) {
		struct xd_acct *a = &w->accts[keys[i].id];
		a->dirty = false;
		int64_t da = a->avail - a->base_avail, dh = a->held - a->base_held;
		int64_t dd = a->debt - a->base_debt;
		if (da == 0 && dh == 0 && dd == 0)
			continue;
		struct xd_q *st = xd_stmt(w->st, "UPDATE accounts SET available = available + ?2, "
		                                 "held = held + ?3, debt = debt + ?4 WHERE id = ?1");
		xd_bind_int64(st, 1, keys[i].id);
		xd_bind_int64(st, 2, da);
		xd_bind_int64(st, 3, dh);
		xd_bind_int64(st, 4, dd);
		xd_step_done(w->st, st);   /* the next transaction reads it again */
	}
	w->n_dirty = 0;
	free(keys);
}

/* Our copy of book g brought to version v (read, not locked, by us). */
static void seen(struct xd_writer *w, int g, int64_t v)
{
	if (v != w->book_ver[g]) {
		book_reload(w, g);
		w->book_ver[g] = v;
	}
}

static void shared_peek_book(struct xd_writer *w, int g)
{
	struct xd_q *st = xd_stmt(w->st, "SELECT version FROM book_versions WHERE gpu = ?1");
	xd_bind_text(st, 1, w->t->gpu_ids[g]);
	int64_t v = xd_step(st) == XD_ROW ? xd_col_int64(st, 0) : 0;
	xd_reset(st);
	seen(w, g, v);
}

static void shared_hold_books(struct xd_writer *w, const int *gs, size_t n)
{
	xd_ops_begin(w);
	books_rows(w, gs, n, "SELECT gpu, version FROM book_versions WHERE gpu = ANY(CAST(?1 AS "
	                     "text[])) ORDER BY gpu FOR SHARE", seen);
}

void xd_ops_forget(struct xd_writer *w)
{
	for (size_t i = 0; i < w->n_dirty; i++)
		w->accts[w->dirty[i]].dirty = false;
	w->n_dirty = 0;
	w->in_tx = false;
	w->tx++;
	for (size_t g = 0; g < w->t->n_gpus; g++) {
		w->book_ver[g] = -1;
		w->tid_lo[g] = w->tid_hi[g] = 0;
	}
	xd_watch_forget(w);
	xd_events_forget(w);
}

/* Tell the other nodes which books changed and which trades were made
 * ("<boot> <gpu> <first trade id> <last trade id>"), delivered at COMMIT. */
static void shared_before_commit(struct xd_writer *w)
{
	for (size_t g = 0; g < w->t->n_gpus; g++) {
		if (!w->book_changed[g] && !w->tid_lo[g])
			continue;
		char payload[160];
		snprintf(payload, sizeof payload, "%s %s %" PRId64 " %" PRId64, xd_market_boot(w->m),
		         w->t->gpu_ids[g], w->tid_lo[g], w->tid_hi[g]);
		w->st->ops->notify(w->st, "gpux", payload);
		w->tid_lo[g] = w->tid_hi[g] = 0;
	}
}

/* One statement: the entry's number from the sequence ledger_entry and its
 * two rows. Only a deposit's number is read back (its reply has it); other
 * entries go down the pipeline unread, and answer 0. */
static int64_t shared_ledger(struct xd_writer *w, const char *kind, int cur, const int64_t acct[2],
                             const int bucket[2], int64_t amount, int64_t order_id, int64_t rental_id)
{
	struct xd_q *st = xd_stmt(w->st,
		"WITH e AS (SELECT nextval('ledger_entry') AS n) "
		"INSERT INTO ledger(entry, account, bucket, currency, amount, kind, order_id, rental_id, at_ms) "
		"SELECT e.n, v.account, v.bucket, CAST(?5 AS text), v.amount, CAST(?6 AS text), "
		"CAST(?7 AS bigint), CAST(?8 AS bigint), CAST(?9 AS bigint) FROM e, (VALUES "
		"(CAST(?1 AS bigint), CAST(?2 AS text), -CAST(?10 AS bigint)), "
		"(CAST(?3 AS bigint), CAST(?4 AS text), CAST(?10 AS bigint))) AS v(account, bucket, amount) "
		"RETURNING entry");
	for (int side = 0; side < 2; side++) {
		xd_bind_int64(st, 1 + 2 * side, acct[side]);
		xd_bind_text(st, 2 + 2 * side, xd_bucket_names[bucket[side]]);
	}
	xd_bind_text(st, 5, xd_cur_code(w, cur));
	xd_bind_text(st, 6, kind);
	if (order_id > 0)
		xd_bind_int64(st, 7, order_id);
	if (rental_id > 0)
		xd_bind_int64(st, 8, rental_id);
	xd_bind_int64(st, 9, w->now);
	xd_bind_int64(st, 10, amount);
	if (strncmp(kind, "deposit", 7) == 0 || strncmp(kind, "withdrawal", 10) == 0)
		return xd_step_id(st);   /* its number is in the reply */
	xd_step_done(w->st, st);
	return 0;
}

#define LEASE_KEY 0x67707578626c6cLL   /* "gpuxbll": billing and the demo */

static bool shared_leader(struct xd_writer *w)
{
	int64_t now = util_now_us();
	if (w->lease && w->lease_gen == w->st->gen)
		return true;
	if (now - w->lease_at_us < 1000000 && w->lease_at_us != 0)
		return false;
	w->lease_at_us = now;
	w->lease = w->st->ops->lease(w->st, LEASE_KEY);
	w->lease_gen = w->st->gen;
	return w->lease;
}

/* Read each account once per transaction: another node may have changed it. */
static void shared_account(struct xd_writer *w, int64_t id)
{
	if ((size_t)id >= w->n_accts || !w->in_tx || w->accts[id].tx != w->tx)
		xd_ops_account_read(w, id);
}

/* A book read again from the database since the last rollback. */
static bool shared_book_current(const struct xd_writer *w, int g)
{
	return w->book_ver[g] >= 0;
}

static bool shared_holds_book(const struct xd_writer *w, int g)
{
	return ours(w, g);
}

/* The settings are the database's, for every node (settings.c): the other
 * nodes' listeners read them again when told; their writers see the
 * version move at their next batch. */
static void shared_settings_changed(struct xd_writer *w)
{
	w->st->ops->notify(w->st, "gpux", "~settings");
}

/* Read inside the batch's transaction: a change another node committed
 * before it began is seen. */
static uint64_t shared_settings_version(struct xd_writer *w)
{
	xd_ops_begin(w);
	return (uint64_t)xd_meta_get(w->st, "settings_version", 0);
}

#define START_LOCK "1735554424"   /* nodes starting together: one at a time */

static void shared_start_lock(struct xd_writer *w)
{
	xd_exec(w->st, "SELECT pg_advisory_lock(" START_LOCK ")");
}

static int shared_start_done(struct xd_writer *w)
{
	xd_exec(w->st, "SELECT pg_advisory_unlock(" START_LOCK ")");
	return 0;
}

/* Every node reads the same clock, a function of the wall clock from the
 * epoch the first node recorded (clock_epoch_ms, at the --clock-speed all
 * nodes run) plus the admin's advances, so a node that restarts goes on
 * where the others are instead of jumping. */
static void shared_clock_start(struct xd_writer *w, int64_t wall, double speed, int64_t *now,
                               int64_t *offset)
{
	int64_t epoch = xd_meta_get(w->st, "clock_epoch_ms", -1);
	if (epoch < 0 || epoch > wall) {
		epoch = wall;
		xd_meta_set(w->st, "clock_epoch_ms", epoch);
	}
	*now = epoch + (int64_t)((double)(wall - epoch) * speed);
	*offset = xd_meta_get(w->st, "clock_offset_ms", 0);
}

static void shared_clock_advanced(struct xd_writer *w, int64_t ms)
{
	xd_ops_begin(w);
	xd_meta_set(w->st, "clock_offset_ms", xd_meta_get(w->st, "clock_offset_ms", 0) + ms);
	w->st->ops->notify(w->st, "gpux", "~clock");
}

const struct xd_nodes_ops xd_nodes_shared = {
	.name = "shared",
	.start_lock = shared_start_lock,
	.init_books = shared_init_books,
	.start_done = shared_start_done,
	.clock_start = shared_clock_start,
	.claim_books = shared_claim_books,
	.lock_book = shared_lock_book,
	.peek_book = shared_peek_book,
	.hold_books = shared_hold_books,
	.book_current = shared_book_current,
	.holds_book = shared_holds_book,
	.account = shared_account,
	.flush_accounts = shared_flush_accounts,
	.ledger = shared_ledger,
	.before_commit = shared_before_commit,
	.clock_advanced = shared_clock_advanced,
	.settings_changed = shared_settings_changed,
	.settings_version = shared_settings_version,
	.leader = shared_leader,
	.probe_ms = 1000,
};

/* ---- one node (a store only this process writes) ---------------------------------- */

/* The only writer holds the lease from the start. */
static void one_start_lock(struct xd_writer *w) { w->lease = true; }
static int one_start_done(struct xd_writer *w) { return 0; }
static void one_claim_books(struct xd_writer *w, struct xd_job *batch) {}
static void one_peek_book(struct xd_writer *w, int g) {}
static void one_hold_books(struct xd_writer *w, const int *gs, size_t n) {}
static bool one_lock_book(struct xd_writer *w, int g) { return false; }
static bool one_book_current(const struct xd_writer *w, int g) { return true; }
static bool one_holds_book(const struct xd_writer *w, int g) { return true; }
static void one_account(struct xd_writer *w, int64_t id) {}
static void one_nothing(struct xd_writer *w) {}
static void one_clock_advanced(struct xd_writer *w, int64_t ms) {}
static bool one_leader(struct xd_writer *w) { return true; }
/* settings change only through this writer: what it holds is current */
static uint64_t one_settings_version(struct xd_writer *w) { return w->set ? w->set->version : 0; }

/* The clock goes on from the last reading stored, or from the wall clock
 * when that is later. */
static void one_clock_start(struct xd_writer *w, int64_t wall, double speed, int64_t *now,
                            int64_t *offset)
{
	int64_t stored = xd_meta_get(w->st, "clock_ms", 0);
	*now = wall > stored ? wall : stored;
	*offset = 0;
}

/* The balances in memory are the database's: write them as they are. */
static void one_flush_accounts(struct xd_writer *w)
{
	for (size_t i = 0; i < w->n_dirty; i++) {
		struct xd_acct *a = &w->accts[w->dirty[i]];
		struct xd_q *st = xd_stmt(w->st, "UPDATE accounts SET available = ?2, held = ?3, debt = ?4 "
		                                 "WHERE id = ?1");
		xd_bind_int64(st, 1, w->dirty[i]);
		xd_bind_int64(st, 2, a->avail);
		xd_bind_int64(st, 3, a->held);
		xd_bind_int64(st, 4, a->debt);
		xd_step_done(w->st, st);
		a->dirty = false;
	}
	w->n_dirty = 0;
}

/* Entries are numbered by the writer (w->next_entry, from the ledger's
 * largest at start). */
static int64_t one_ledger(struct xd_writer *w, const char *kind, int cur, const int64_t acct[2],
                          const int bucket[2], int64_t amount, int64_t order_id, int64_t rental_id)
{
	int64_t entry = w->next_entry++;
	for (int side = 0; side < 2; side++) {
		struct xd_q *st = xd_stmt(w->st,
			"INSERT INTO ledger(entry, account, bucket, currency, amount, kind, order_id, "
			"rental_id, at_ms) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
		xd_bind_int64(st, 1, entry);
		xd_bind_int64(st, 2, acct[side]);
		xd_bind_text(st, 3, xd_bucket_names[bucket[side]]);
		xd_bind_text(st, 4, xd_cur_code(w, cur));
		xd_bind_int64(st, 5, side ? amount : -amount);
		xd_bind_text(st, 6, kind);
		if (order_id > 0)
			xd_bind_int64(st, 7, order_id);
		if (rental_id > 0)
			xd_bind_int64(st, 8, rental_id);
		xd_bind_int64(st, 9, w->now);
		xd_step_done(w->st, st);
	}
	return entry;
}

const struct xd_nodes_ops xd_nodes_one = {
	.name = "one",
	.start_lock = one_start_lock,
	.init_books = one_nothing,
	.start_done = one_start_done,
	.clock_start = one_clock_start,
	.claim_books = one_claim_books,
	.lock_book = one_lock_book,
	.peek_book = one_peek_book,
	.hold_books = one_hold_books,
	.book_current = one_book_current,
	.holds_book = one_holds_book,
	.account = one_account,
	.flush_accounts = one_flush_accounts,
	.ledger = one_ledger,
	.before_commit = one_nothing,
	.clock_advanced = one_clock_advanced,
	.settings_changed = one_nothing,
	.settings_version = one_settings_version,
	.leader = one_leader,
};
