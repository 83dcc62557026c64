/*
 * exchange/peers.c — what a node of a shared store (PostgreSQL) hears from
 * the others: a listener thread on a connection of its own, subscribed to
 * the channel "gpux" (LISTEN). A writer's transaction sends, with
 * pg_notify, one notification per book it changed, "<boot> <gpu> <first
 * trade id> <last trade id>" (0 0: no trade), "~settings" when the settings
 * changed (the market state among them) and "~clock" when the admin clock moved; PostgreSQL delivers them
 * when, and only if, the transaction commits.
 *
 * For a book another node changed the listener reads that book's resting
 * orders (its depth and quotes by node size) and last price and the trades
 * of that range (on one GPU a transaction's
 * trades are all its own: the book was locked) and hands them to the writer
 * (xd_market_put_book, xd_market_put_trade), which puts them in the
 * market-data snapshot (quotes, books, their ETag sequence) and the market
 * stream — so every node serves and streams what any node traded. Its own
 * writer's notifications (its boot id) are skipped. After its connection is
 * re-made it reads every book (notifications sent meanwhile are lost), and a
 * failed read never replaces what it had.
 */
#include "exchange/xd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/util.h"

struct xd_peers {
	struct xd_market *m;
	struct xd_store *s;
	pthread_t thread;
	_Atomic bool stop;
	bool running;
};

/* Read GPU g's book into the snapshot; false if the database failed. The
 * book's resting orders are loaded into an engine of the listener's own, as
 * the writer loads its books, so depth and quotes are computed one way. */
static bool refresh_book(struct xd_peers *p, int g)
{
	const struct xd_tables *t = xd_market_tables(p->m);
	struct engine *e = engine_new(1);
	char *cause = NULL;
	bool ok = xd_book_load(p->s, t, e, g, 0, &cause) == 0;
	free(cause);   /* a row this node cannot read: it keeps what it had */
	struct eng_level *ask = xcalloc(XD_DEPTH_MAX, sizeof *ask);
	struct eng_level *bid = xcalloc(XD_DEPTH_MAX, sizeof *bid);
	size_t na = engine_depth(e, 0, ENG_SELL, ask, XD_DEPTH_MAX);
	size_t nb = engine_depth(e, 0, ENG_BUY, bid, XD_DEPTH_MAX);
	struct xd_unit_quotes u;
	xd_unit_quotes_of(e, 0, &u);
	engine_free(&e);
	struct xd_q *q = xd_stmt(p->s, "SELECT price FROM trades WHERE gpu = ?1 ORDER BY id DESC LIMIT 1");
	xd_bind_text(q, 1, t->gpu_ids[g]);
	int64_t last = xd_step(q) == XD_ROW ? xd_col_int64(q, 0) : -1;
	xd_reset(q);
	ok = ok && p->s->fault == XD_FAULT_NONE;
	if (ok)
		xd_market_put_book(p->m, g, ask, na, bid, nb, last, &u);
	free(ask);
	free(bid);
	return ok;
}

static bool refresh_meta(struct xd_peers *p, bool clock)
{
	struct xd_store *s = p->s;
	if (clock) {
		int64_t off = xd_meta_get(s, "clock_offset_ms", 0);
		if (s->fault == XD_FAULT_NONE)
			xd_market_put_offset(p->m, off);
	} else {
		/* the settings another node changed (settings.c), for this node's
		 * readers; its writer reads them again itself at its next batch */
		struct xd_settings *set = NULL;
		if (xd_settings_load(s, &set) == 0 && s->fault == XD_FAULT_NONE)
			xd_market_publish_settings(p->m, set);
		else
			xd_settings_free(&set);
	}
	return s->fault == XD_FAULT_NONE;
}

static bool refresh_all(struct xd_peers *p)
{
	const struct xd_tables *t = xd_market_tables(p->m);
	bool ok = refresh_meta(p, false) && refresh_meta(p, true);
	for (size_t g = 0; ok && g < t->n_gpus; g++)
		ok = refresh_book(p, (int)g);
	return ok;
}

/* The trades another node made on GPU g, ids lo..hi, for this node's stream. */
static bool trades(struct xd_peers *p, int g, int64_t lo, int64_t hi)
{
	const struct xd_tables *t = xd_market_tables(p->m);
	struct xd_q *q = xd_stmt(p->s, "SELECT id, price, gpus, hours, taker_side, at_ms FROM trades "
	                               "WHERE gpu = ?1 AND id BETWEEN ?2 AND ?3 ORDER BY id");
	xd_bind_text(q, 1, t->gpu_ids[g]);
	xd_bind_int64(q, 2, lo);
	xd_bind_int64(q, 3, hi);
	while (xd_step(q) == XD_ROW) {
		const char *side = xd_col_text(q, 4);
		xd_market_put_trade(p->m, g, xd_col_int64(q, 0), xd_col_int64(q, 1), xd_col_int(q, 2),
		                    xd_col_int(q, 3), side && strcmp(side, "sell") == 0 ? ENG_SELL : ENG_BUY,
		                    xd_col_int64(q, 5));
	}
	xd_reset(q);
	return p->s->fault == XD_FAULT_NONE;
}

static bool handle(struct xd_peers *p, const char *payload)
{
	if (strcmp(payload, "~settings") == 0)
		return refresh_meta(p, false);
	if (strcmp(payload, "~clock") == 0)
		return refresh_meta(p, true);
	char boot[32], gpu[64];
	long long lo = 0, hi = 0;
	if (sscanf(payload, "%31s %63s %lld %lld", boot, gpu, &lo, &hi) != 4 ||
	    strcmp(boot, xd_market_boot(p->m)) == 0)
		return true;   /* not ours to read, or our own writer's */
	int g = xd_tables_gpu(xd_market_tables(p->m), gpu);
	if (g < 0)
		return true;
	if (lo > 0 && !trades(p, g, lo, hi))
		return false;
	return refresh_book(p, g);
}

static void *peers_main(void *arg)
{
	struct xd_peers *p = arg;
	bool subscribed = false;
	while (!p->stop) {
		p->s->fault = XD_FAULT_NONE;
		if (!subscribed) {
			if (p->s->ops->listen(p->s, "gpux") != 0 || !refresh_all(p)) {
				nanosleep(&(struct timespec){ .tv_nsec = 200000000L }, NULL);
				continue;
			}
			subscribed = true;
		}
		char *channel = NULL, *payload = NULL;
		int r = p->s->ops->wait_notify(p->s, 200, &channel, &payload);
		if (r < 0)
			subscribed = false;
		else if (r > 0 && !handle(p, payload))
			subscribed = false;
		free(channel);
		free(payload);
	}
	return NULL;
}

int xd_peers_start(struct xd_market *m, const char *target, struct xd_peers **out, char **cause)
{
	struct xd_peers *p = xcalloc(1, sizeof *p);
	p->m = m;
	*out = NULL;
	if (xd_store_open(target, false, &p->s, cause) != 0) {
		free(p);
		return -1;
	}
	if (pthread_create(&p->thread, NULL, peers_main, p) != 0) {
		xd_store_close(&p->s);
		free(p);
		return set_cause(cause, "cannot start the listener thread");
	}
	p->running = true;
	*out = p;
	return 0;
}

void xd_peers_stop(struct xd_peers **pp)
{
	struct xd_peers *p = *pp;
	if (!p)
		return;
	p->stop = true;
	if (p->running)
		pthread_join(p->thread, NULL);
	xd_store_close(&p->s);
	free(p);
	*pp = NULL;
}
