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
		engine_restore(w->eng, (size_t)g, &o);
	}
	xd_reset(st);
	st = xd_stmt(w->st, "SELECT price FROM trades WHERE gpu = ?1 ORDER BY id DESC LIMIT 1");
	xd_bind_text(st, 1, w->t->gpu_ids[g]);
	w->last_price[g] = xd_step(st) == XD_ROW ? xd_col_int64(st, 0) : -1;
	xd_reset(st);
	w->book_changed[g] = true;
}

/* Shared store: lock GPU g's book until the end of the transaction (the row
 * of book_versions, whose version counts the transactions that locked it)
 * and bring our copy up to date. One matcher per GPU at a time, on any node. */
void xd_book_lock(struct xd_writer *w, int g)
{
	if (!w->shared)
		return;
	xd_ops_begin(w);
	struct xd_q *st = xd_stmt(w->st,
		"INSERT INTO book_versions(gpu, version) VALUES(?1, 1) ON CONFLICT(gpu) "
		"DO UPDATE SET version = book_versions.version + 1 RETURNING version");
	xd_bind_text(st, 1, w->t->gpu_ids[g]);
	int64_t v = xd_step_id(st);
	if (w->book_ver[g] < 0 || v != w->book_ver[g] + 1)
		book_reload(w, g);
	w->book_ver[g] = v;
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
