/*
 * exchange/jobalerts.c — the alerts on a job's cheapest total (job_total_lte,
 * docs/API.md "Alerts"): "tell me when this job can be run for at most Y".
 *
 * The cheapest total is what a job order of the alert's job, hours and
 * regions would pay now (jobs.c): on every GPU the fit's units, priced by a
 * dry run of the FOK order for them, VAT included, in the account's
 * currency; the cheapest runnable GPU's. Its two parts change at different
 * times, and each alert keeps them apart:
 *   - the fit's part (which GPUs can run the job at all, in which units, for
 *     how many hours) does not depend on the books: worked out once, when
 *     the alert is first read;
 *   - a GPU's price changes only when its book does (or the FX rates): kept
 *     with the book's change count (engine_changes) and the settings'
 *     version, and taken again only when one of them moved.
 * So the evaluation is bounded by the books' changes, not by time: after
 * each job (xd_jalerts_settle, from xd_watch_settle) an alert is looked at
 * only if a book that this transaction holds and its job can run on has
 * changed since its price there was taken — at most once per change of such
 * a book — and a look costs a dry run on each GPU whose book changed (one,
 * typically) and a minimum over the totals kept. A rate limit instead (at
 * most once a second per alert) would need a timer to look again after the
 * last change and would fire up to a second late; this bound is the book
 * changes the exchange makes anyway, and an account holds at most
 * XD_JOB_ALERTS_MAX job alerts.
 *
 * Every node keeps every live job alert (a change of any book may bring one
 * under its budget), read again from the store whenever the store's
 * job_alerts_version (meta) differs from the list's: a change of a job
 * alert's row anywhere bumps it (xd_jalerts_changed). The version is looked
 * at once per transaction, and again once the transaction holds a book it
 * did not hold at the last look, so whichever node changes a book sees the
 * alerts made before it took the book; a new alert's first look holds the
 * books it can run on (hold_books), so a change another node has in flight
 * is seen by one of the two transactions. Firing and re-arming read the row
 * again with the account's alerts taken in turn (xd_alerts_job_hit), so an
 * alert fires once, on whichever node. (On a shared store, an alert that
 * one node re-arms while another changes a book at the same moment is
 * looked at again at the next change of a book it can run on.)
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define NOT_PRICED UINT64_MAX

struct jalert {
	int64_t id, account;
	int state;                   /* XD_ALERT_ARMED or _REARMING as last known; -1: gone */
	int64_t max_total, rearm;    /* the budget, the re-arming (0: fires once) */
	int64_t expires;             /* -1: never */
	int cur;                     /* the account's currency and VAT */
	int32_t vat_bp;
	struct xd_order_in in;       /* the job, its hours and regions */
	struct xd_job_alt *alt;      /* per GPU: the fit's part and the last price */
	uint64_t *seen;              /* per GPU: engine_changes at that price */
	uint64_t set_version;        /* the settings the prices were taken under */
};

struct xd_jalerts {
	struct jalert *v;            /* by id, ascending */
	size_t n, cap;
	int64_t version;             /* the store's job_alerts_version the list is of; -1: unknown */
	uint64_t read_tx;            /* the transaction that last looked at it */
	size_t read_held;            /* the books that transaction held then */
};

void xd_jalerts_new(struct xd_writer *w)
{
	w->jalerts = xcalloc(1, sizeof *w->jalerts);
	w->jalerts->version = -1;
}

static void entry_clear(const struct xd_tables *t, struct jalert *e)
{
	for (size_t g = 0; e->alt && g < t->n_gpus; g++)
		xd_job_alt_clear(&e->alt[g]);
	free(e->alt);
	free(e->seen);
	memset(e, 0, sizeof *e);
}

void xd_jalerts_free(struct xd_writer *w)
{
	struct xd_jalerts *x = w->jalerts;
	if (!x)
		return;
	for (size_t i = 0; i < x->n; i++)
		entry_clear(w->t, &x->v[i]);
	free(x->v);
	free(x);
	w->jalerts = NULL;
}

void xd_jalerts_forget(struct xd_writer *w)
{
	if (w->jalerts)
		w->jalerts->version = -1;
}

size_t xd_jalerts_fits(const struct xd_tables *t, const struct xd_order_in *job,
                       struct xd_job_alt **alts)
{
	size_t n = 0;
	*alts = xcalloc(t->n_gpus ? t->n_gpus : 1, sizeof **alts);
	for (size_t g = 0; g < t->n_gpus; g++) {
		xd_jobs_fit(t, job, (int)g, &(*alts)[g]);
		n += (*alts)[g].fits;
	}
	return n;
}

void xd_jalerts_fits_free(const struct xd_tables *t, struct xd_job_alt **alts)
{
	for (size_t g = 0; *alts && g < t->n_gpus; g++)
		xd_job_alt_clear(&(*alts)[g]);
	free(*alts);
	*alts = NULL;
}

/* ---- the list ---------------------------------------------------------------------- */

/* The index of id's entry, or where it would go (*found false). */
static size_t entry_at(const struct xd_jalerts *x, int64_t id, bool *found)
{
	size_t lo = 0, hi = x->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x->v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < x->n && x->v[lo].id == id;
	return lo;
}

/* A live job alert's row, as read. */
struct jrow {
	int64_t id, account, price, rearm, expires;
	int state;
	char *job, *regions;
};

#define JROW_COLS "id, account, state, price, rearm, expires_ms, job, region"

static void jrow_read(struct xd_q *st, struct jrow *r)
{
	r->id = xd_col_int64(st, 0);
	r->account = xd_col_int64(st, 1);
	r->state = strcmp(xd_col_text(st, 2), "rearming") == 0 ? XD_ALERT_REARMING : XD_ALERT_ARMED;
	r->price = xd_col_int64(st, 3);
	r->rearm = xd_col_null(st, 4) ? 0 : xd_col_int64(st, 4);
	r->expires = xd_col_null(st, 5) ? -1 : xd_col_int64(st, 5);
	r->job = xd_col_text(st, 6) ? xstrdup(xd_col_text(st, 6)) : NULL;
	r->regions = xd_col_text(st, 7) ? xstrdup(xd_col_text(st, 7)) : NULL;
}

static void jrow_free(struct jrow *r)
{
	free(r->job);
	free(r->regions);
}

/* A new entry from row r (its job read and fitted on every GPU); false when
 * the row cannot be one (its account gone, a job this build cannot read). */
static bool entry_make(struct xd_writer *w, const struct jrow *r, struct jalert *e)
{
	memset(e, 0, sizeof *e);
	struct xd_acct *ac = xd_ops_acct(w, r->account);
	if (!ac || !r->job || !xd_job_from_text(r->job, &e->in) ||
	    xd_regions_parse(w->t, r->regions, &e->in.regions) != 0)
		return false;
	e->in.is_job = true;
	e->id = r->id;
	e->account = r->account;
	e->cur = ac->cur;
	e->vat_bp = ac->vat_bp;
	xd_jalerts_fits(w->t, &e->in, &e->alt);
	e->seen = xcalloc(w->t->n_gpus ? w->t->n_gpus : 1, sizeof *e->seen);
	for (size_t g = 0; g < w->t->n_gpus; g++)
		e->seen[g] = NOT_PRICED;
	return true;
}

static void entry_update(struct jalert *e, const struct jrow *r)
{
	e->state = r->state;
	e->max_total = r->price;
	e->rearm = r->rearm;
	e->expires = r->expires;
}

/* Put row r into the list: its entry updated, or a new one. */
static struct jalert *entry_put(struct xd_writer *w, const struct jrow *r)
{
	struct xd_jalerts *x = w->jalerts;
	bool found;
	size_t i = entry_at(x, r->id, &found);
	if (!found) {
		struct jalert e;
		if (!entry_make(w, r, &e))
			return NULL;
		if (x->n == x->cap) {
			x->cap = x->cap ? 2 * x->cap : 16;
			x->v = xreallocarray(x->v, x->cap, sizeof *x->v);
		}
		memmove(&x->v[i + 1], &x->v[i], (x->n - i) * sizeof *x->v);
		x->v[i] = e;
		x->n++;
	}
	entry_update(&x->v[i], r);
	return &x->v[i];
}

/* Drop the entries that are gone (state -1). */
static void compact(struct xd_writer *w)
{
	struct xd_jalerts *x = w->jalerts;
	size_t k = 0;
	for (size_t i = 0; i < x->n; i++) {
		if (x->v[i].state < 0)
			entry_clear(w->t, &x->v[i]);
		else
			x->v[k++] = x->v[i];
	}
	x->n = k;
}

/* Read every live job alert again: the entries known keep their fit and
 * prices, new ones are made, the others dropped. */
static void reload(struct xd_writer *w)
{
	struct xd_jalerts *x = w->jalerts;
	struct xd_q *st = xd_stmt(w->st, "SELECT " JROW_COLS " FROM alerts WHERE cond = "
	                                 "'job_total_lte' AND state IN ('armed', 'rearming') "
	                                 "ORDER BY id");
	struct jrow *rows = NULL;
	size_t n = 0, cap = 0;
	while (xd_step(st) == XD_ROW) {
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			rows = xreallocarray(rows, cap, sizeof *rows);
		}
		jrow_read(st, &rows[n++]);
	}
	xd_reset(st);   /* entry_make reads the account with statements of its own */
	for (size_t i = 0; i < x->n; i++)
		x->v[i].state = -1;
	for (size_t i = 0; i < n; i++) {
		entry_put(w, &rows[i]);
		jrow_free(&rows[i]);
	}
	free(rows);
	compact(w);
}

/* How many books this transaction holds. */
static size_t held(struct xd_writer *w)
{
	size_t n = 0;
	for (size_t g = 0; g < w->t->n_gpus; g++)
		n += w->nodes->holds_book(w, (int)g);
	return n;
}

/* The list as the store has it now, looked at once per transaction and
 * again when it holds more books. */
static void refresh(struct xd_writer *w)
{
	struct xd_jalerts *x = w->jalerts;
	size_t h = held(w);
	if (x->version >= 0 && x->read_tx == w->tx && x->read_held == h)
		return;
	int64_t v = xd_meta_get(w->st, "job_alerts_version", 0);
	if (v != x->version)
		reload(w);
	x->version = v;
	x->read_tx = w->tx;
	x->read_held = h;
}

void xd_jalerts_changed(struct xd_writer *w, int64_t id, int state)
{
	struct xd_jalerts *x = w->jalerts;
	bool found;
	size_t i = entry_at(x, id, &found);
	if (found)
		x->v[i].state = state;
	struct xd_q *st = xd_stmt(w->st,
		"INSERT INTO meta(key, value) VALUES('job_alerts_version', 1) ON CONFLICT(key) "
		"DO UPDATE SET value = meta.value + 1 RETURNING value");
	int64_t v = xd_step_id(st);
	/* still the store's list if nobody else changed one since it was read */
	x->version = x->version >= 0 && x->version == v - 1 ? v : -1;
}

/* ---- looking ------------------------------------------------------------------------- */

/* The cheapest GPU that can run e's job now (-1: none), its books' prices
 * taken again where they changed. */
static int cheapest(struct xd_writer *w, struct jalert *e)
{
	uint64_t set_version = w->set ? w->set->version : 0;
	bool all = e->set_version != set_version;
	int best = -1;
	for (size_t g = 0; g < w->t->n_gpus; g++) {
		struct xd_job_alt *a = &e->alt[g];
		if (!a->fits)
			continue;
		if (!w->nodes->holds_book(w, (int)g))
			w->nodes->peek_book(w, (int)g);
		uint64_t c = engine_changes(w->eng, g);
		if (all || c != e->seen[g]) {
			xd_jobs_price(w, &e->in, e->cur, e->vat_bp, e->account, (int)g, a);
			e->seen[g] = c;
		}
		if (a->runnable && (best < 0 || a->total < e->alt[best].total))
			best = (int)g;
	}
	e->set_version = set_version;
	return best;
}

/* Evaluate e now: fire, re-arm or expire it when its condition says so. */
static void look(struct xd_writer *w, struct jalert *e)
{
	int best = cheapest(w, e);
	const struct xd_job_alt *a = best >= 0 ? &e->alt[best] : NULL;
	bool hit = e->state == XD_ALERT_ARMED ? a && a->total <= e->max_total
	                                      : !a || a->total >= e->max_total + e->rearm;
	if (!hit && !(e->expires >= 0 && e->expires <= w->now))
		return;
	int64_t id = e->id;
	int state = xd_alerts_job_hit(w, id, e->account, &e->in, best, a);
	bool found;
	size_t i = entry_at(w->jalerts, id, &found);
	if (found)
		w->jalerts->v[i].state = state;
}

/* Has a book that this transaction holds and e's job can run on changed
 * since e's price there was taken? */
static bool due(struct xd_writer *w, const struct jalert *e)
{
	for (size_t g = 0; g < w->t->n_gpus; g++)
		if (e->alt[g].fits && w->book_changed[g] && w->nodes->holds_book(w, (int)g) &&
		    engine_changes(w->eng, g) != e->seen[g])
			return true;
	return false;
}

void xd_jalerts_settle(struct xd_writer *w)
{
	bool changed = false;
	for (size_t g = 0; g < w->t->n_gpus && !changed; g++)
		changed = w->book_changed[g] && w->nodes->holds_book(w, (int)g);
	if (!changed || !w->in_tx)
		return;
	refresh(w);
	struct xd_jalerts *x = w->jalerts;
	for (size_t i = 0; i < x->n; i++)
		if (x->v[i].state >= 0 && due(w, &x->v[i]))
			look(w, &x->v[i]);
	compact(w);
}

void xd_jalerts_made(struct xd_writer *w, int64_t id)
{
	xd_jalerts_changed(w, id, XD_ALERT_ARMED);
	struct xd_q *st = xd_stmt(w->st, "SELECT " JROW_COLS " FROM alerts WHERE id = ?1");
	xd_bind_int64(st, 1, id);
	struct jrow r;
	bool found = xd_step(st) == XD_ROW;
	if (found)
		jrow_read(st, &r);
	xd_reset(st);
	if (!found)
		return;
	struct jalert *e = entry_put(w, &r);
	jrow_free(&r);
	if (e)
		look(w, e);
	compact(w);
}
