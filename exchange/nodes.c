/*
 * exchange/nodes.c — what the writer does differently when other gpuxd nodes
 * share its store (PostgreSQL): the per-GPU book lock and its version, the
 * notifications sent at COMMIT, forgetting a rolled-back transaction, and the
 * lease that says which node bills and drives the demo. With SQLite (one
 * node) each of these is a no-op or always true.
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
	struct xd_q *st = xd_stmt(w->st, "SELECT id, account, side, price, remaining, hours FROM orders "
	                                 "WHERE gpu = ?1 AND remaining > 0 ORDER BY id");
	xd_bind_text(st, 1, w->t->gpu_ids[g]);
	while (xd_step(st) == XD_ROW) {
		struct eng_order o = {
			.id = xd_col_int64(st, 0), .account = xd_col_int64(st, 1),
			.side = (enum eng_side)xd_lookup(xd_side_names, xd_col_text(st, 2)),
			.tif = ENG_GTC, .price_cents = xd_col_int64(st, 3), .gpus = xd_col_int(st, 4),
			.hours = xd_col_int(st, 5),
		};
		engine_restore(w->eng, (size_t)g, &o, NULL, 0);
	}
	xd_reset(st);
	st = xd_stmt(w->st, "SELECT price FROM trades WHERE gpu = ?1 ORDER BY id DESC LIMIT 1");
	xd_bind_text(st, 1, w->t->gpu_ids[g]);
	w->last_price[g] = xd_step(st) == XD_ROW ? xd_col_int64(st, 0) : -1;
	xd_reset(st);
	w->book_changed[g] = true;
}

/* GPU g's book is locked by this transaction at version v: bring our copy
 * up to date (the version counts the transactions that locked it). */
static void book_locked(struct xd_writer *w, int g, int64_t v)
{
	if (w->book_ver[g] < 0 || v != w->book_ver[g] + 1)
		book_reload(w, g);
	w->book_ver[g] = v;
	w->book_tx[g] = w->tx;
}

/* Shared store: lock GPU g's book until the end of the transaction (its row
 * of book_versions), waiting for another node that holds it. One matcher per
 * GPU at a time, on any node. */
void xd_book_lock(struct xd_writer *w, int g)
{
	if (!w->shared)
		return;
	xd_ops_begin(w);
	if (w->book_tx[g] == w->tx && w->book_ver[g] >= 0)
		return;   /* locked already in this transaction */
	struct xd_q *st = xd_stmt(w->st,
		"INSERT INTO book_versions(gpu, version) VALUES(?1, 1) ON CONFLICT(gpu) "
		"DO UPDATE SET version = book_versions.version + 1 RETURNING version");
	xd_bind_text(st, 1, w->t->gpu_ids[g]);
	book_locked(w, g, xd_step_id(st));
}

void xd_books_init(struct xd_writer *w)
{
	if (!w->shared)
		return;
	xd_ops_begin(w);
	for (size_t g = 0; g < w->t->n_gpus; g++) {
		struct xd_q *st = xd_stmt(w->st, "INSERT INTO book_versions(gpu, version) VALUES(?1, 0) "
		                                 "ON CONFLICT(gpu) DO NOTHING");
		xd_bind_text(st, 1, w->t->gpu_ids[g]);
		xd_step_done(w->st, st);
	}
}

/* Lock those of the wanted books that no other node holds now, without
 * waiting (FOR UPDATE SKIP LOCKED). */
static void books_try(struct xd_writer *w, const int *gs, size_t n)
{
	struct buf arr = { 0 };
	buf_printf(&arr, "{");
	for (size_t i = 0; i < n; i++)
		if (w->book_tx[gs[i]] != w->tx || w->book_ver[gs[i]] < 0)
			buf_printf(&arr, "%s\"%s\"", arr.len > 1 ? "," : "", w->t->gpu_ids[gs[i]]);
	buf_printf(&arr, "}");
	if (arr.len > 2) {
		struct xd_q *st = xd_stmt(w->st,
			"UPDATE book_versions SET version = version + 1 WHERE gpu IN (SELECT gpu FROM "
			"book_versions WHERE gpu = ANY(CAST(?1 AS text[])) ORDER BY gpu FOR UPDATE SKIP LOCKED) "
			"RETURNING gpu, version");
		xd_bind_text(st, 1, arr.data);
		int64_t *got = xcalloc(n, sizeof *got);
		int *gi = xcalloc(n, sizeof *gi);
		size_t ng = 0;
		while (ng < n && xd_step(st) == XD_ROW) {
			gi[ng] = xd_tables_gpu(w->t, xd_col_text(st, 0));
			got[ng++] = xd_col_int64(st, 1);
		}
		xd_reset(st);
		for (size_t i = 0; i < ng; i++)   /* book_reload uses statements of its own */
			if (gi[i] >= 0)
				book_locked(w, gi[i], got[i]);
		free(got);
		free(gi);
	}
	buf_free(&arr);
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

static bool ours(const struct xd_writer *w, int g)
{
	return w->book_tx[g] == w->tx && w->book_ver[g] >= 0;
}

void xd_books_claim(struct xd_writer *w, struct xd_job *batch)
{
	if (!w->shared)
		return;
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
			xd_book_lock(w, order[i]);
	}
	books_try(w, order, k);
	size_t held = 0;
	for (size_t i = 0; i < k; i++)
		held += ours(w, order[i]);
	if (k > 0 && held == 0)
		xd_book_lock(w, order[0]);   /* every book it wants is busy: wait for the first */
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

void xd_accts_flush(struct xd_writer *w)
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
		if (da == 0 && dh == 0)
			continue;
		struct xd_q *st = xd_stmt(w->st, "UPDATE accounts SET available = available + ?2, "
		                                 "held = held + ?3 WHERE id = ?1");
		xd_bind_int64(st, 1, keys[i].id);
		xd_bind_int64(st, 2, da);
		xd_bind_int64(st, 3, dh);
		xd_step_done(w->st, st);   /* the next transaction reads it again */
	}
	w->n_dirty = 0;
	free(keys);
}

/* Shared store: bring our copy of GPU g's book up to date without locking it
 * (previews). */
void xd_book_peek(struct xd_writer *w, int g)
{
	if (!w->shared)
		return;
	struct xd_q *st = xd_stmt(w->st, "SELECT version FROM book_versions WHERE gpu = ?1");
	xd_bind_text(st, 1, w->t->gpu_ids[g]);
	int64_t v = xd_step(st) == XD_ROW ? xd_col_int64(st, 0) : 0;
	xd_reset(st);
	if (v != w->book_ver[g]) {
		book_reload(w, g);
		w->book_ver[g] = v;
	}
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
}

/* Shared store: tell the other nodes which books changed and which trades
 * were made ("<boot> <gpu> <first trade id> <last trade id>"), delivered at
 * COMMIT. */
void xd_ops_notify(struct xd_writer *w)
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

int64_t xd_ledger_insert(struct xd_writer *w, const char *kind, int cur, const int64_t acct[2],
                         const bool held[2], int64_t amount, int64_t order_id, int64_t rental_id)
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
		xd_bind_text(st, 2 + 2 * side, held[side] ? "held" : "available");
	}
	xd_bind_text(st, 5, xd_cur_names[cur]);
	xd_bind_text(st, 6, kind);
	if (order_id > 0)
		xd_bind_int64(st, 7, order_id);
	if (rental_id > 0)
		xd_bind_int64(st, 8, rental_id);
	xd_bind_int64(st, 9, w->now);
	xd_bind_int64(st, 10, amount);
	if (strcmp(kind, "deposit") == 0)
		return xd_step_id(st);   /* its number is in the reply */
	xd_step_done(w->st, st);
	return 0;
}

#define LEASE_KEY 0x67707578626c6cLL   /* "gpuxbll": billing and the demo */

bool xd_ops_leader(struct xd_writer *w)
{
	if (!w->shared)
		return true;
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
