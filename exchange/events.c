/*
 * exchange/events.c — each account's event log: what the exchange has to
 * tell an account that is not the answer to one of its requests (an alert
 * firing, a conditional order entering the book, a standing order buying or
 * stopping, a rental renewed or not), kept in the store so that a restart
 * loses none of it (docs/API.md "The account channel").
 *
 * The writer adds events during its transaction (xd_events_add); before
 * COMMIT they are numbered and written, account by account in id order:
 * the account's row of event_counters is taken first (an upsert that adds
 * the events' count and returns the last number), so on a shared store two
 * nodes adding to one account's log number its events in the order they
 * commit, and a reader that has seen event n has seen every event before it.
 * A notification per account ("@<boot> <account>", LISTEN/NOTIFY, delivered
 * at COMMIT) tells the other nodes; after COMMIT this node's stream hub is
 * told (xd_stream_account). Readers — the stream's account channel and GET
 * /v1/events — read the log from their own connections, after a number.
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "util/util.h"

struct pend {
	int64_t account;
	size_t order;                /* keeps events of one account in their order */
	char kind[16];
	cJSON *data;
};

struct xd_events {
	struct pend *v;
	size_t n, cap;
	int64_t *told;               /* accounts written, to tell after COMMIT */
	size_t n_told, cap_told;
};

static struct xd_events *events_of(struct xd_writer *w)
{
	if (!w->events)
		w->events = xcalloc(1, sizeof *w->events);
	return w->events;
}

void xd_events_add(struct xd_writer *w, int64_t account, const char *kind, cJSON *data)
{
	struct xd_events *e = events_of(w);
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 16;
		e->v = xreallocarray(e->v, e->cap, sizeof *e->v);
	}
	struct pend *p = &e->v[e->n];
	p->account = account;
	p->order = e->n;
	snprintf(p->kind, sizeof p->kind, "%s", kind);
	p->data = data;
	e->n++;
}

static int cmp_pend(const void *a, const void *b)
{
	const struct pend *x = a, *y = b;
	if (x->account != y->account)
		return x->account < y->account ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The seq the market data of this transaction will be published under: the
 * next one when a book this node can publish changed, else the current. */
static int64_t seq_after(struct xd_writer *w)
{
	int64_t seq = (int64_t)xd_market_seq(w->m);
	for (size_t g = 0; g < w->t->n_gpus; g++)
		if (w->book_changed[g] && w->nodes->book_current(w, (int)g))
			return seq + 1;
	return seq;
}

/* The event as stored and sent: id, kind, at and seq first, then data's. */
static char *event_text(const struct pend *p, int64_t n, int64_t at, int64_t seq)
{
	cJSON *o = cJSON_CreateObject();
	xd_jint(o, "id", n);
	cJSON_AddStringToObject(o, "kind", p->kind);
	xd_jtime(o, "at", at);
	xd_jint(o, "seq", seq);
	while (p->data && p->data->child) {
		cJSON *item = p->data->child;
		cJSON_DetachItemViaPointer(p->data, item);
		cJSON_AddItemToObject(o, item->string, item);
	}
	char *text = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (!text)
		fatal("gpuxd: out of memory printing an account event");
	return text;
}

/* Number and write the events of one account, v[0..k). */
static void write_account(struct xd_writer *w, struct pend *v, size_t k, int64_t seq)
{
	struct xd_q *st = xd_stmt(w->st,
		"INSERT INTO event_counters(account, n) VALUES(?1, ?2) ON CONFLICT(account) "
		"DO UPDATE SET n = event_counters.n + ?2 RETURNING n");
	xd_bind_int64(st, 1, v[0].account);
	xd_bind_int64(st, 2, (int64_t)k);
	int64_t last = xd_step_id(st);
	for (size_t i = 0; i < k; i++) {
		int64_t n = last - (int64_t)k + 1 + (int64_t)i;
		char *text = event_text(&v[i], n, w->now, seq);
		st = xd_stmt(w->st, "INSERT INTO account_events(account, n, kind, data, at_ms) "
		                    "VALUES(?1, ?2, ?3, ?4, ?5)");
		xd_bind_int64(st, 1, v[i].account);
		xd_bind_int64(st, 2, n);
		xd_bind_text(st, 3, v[i].kind);
		xd_bind_text(st, 4, text);
		xd_bind_int64(st, 5, w->now);
		xd_step_done(w->st, st);
		free(text);
	}
	char payload[64];
	snprintf(payload, sizeof payload, "@%s %" PRId64, xd_market_boot(w->m), v[0].account);
	w->st->ops->notify(w->st, "gpux", payload);
}

static void drop_pending(struct xd_events *e)
{
	for (size_t i = 0; i < e->n; i++)
		cJSON_Delete(e->v[i].data);
	e->n = 0;
}

void xd_events_flush(struct xd_writer *w)
{
	struct xd_events *e = w->events;
	if (!e || e->n == 0)
		return;
	qsort(e->v, e->n, sizeof *e->v, cmp_pend);
	int64_t seq = seq_after(w);
	for (size_t i = 0; i < e->n;) {
		size_t k = 1;
		while (i + k < e->n && e->v[i + k].account == e->v[i].account)
			k++;
		write_account(w, &e->v[i], k, seq);
		if (e->n_told == e->cap_told) {
			e->cap_told = e->cap_told ? 2 * e->cap_told : 16;
			e->told = xreallocarray(e->told, e->cap_told, sizeof *e->told);
		}
		e->told[e->n_told++] = e->v[i].account;
		i += k;
	}
	drop_pending(e);
}

void xd_events_committed(struct xd_writer *w)
{
	struct xd_events *e = w->events;
	if (!e)
		return;
	for (size_t i = 0; i < e->n_told; i++)
		xd_stream_account(w->stream, e->told[i]);
	e->n_told = 0;
}

void xd_events_forget(struct xd_writer *w)
{
	struct xd_events *e = w->events;
	if (!e)
		return;
	drop_pending(e);
	e->n_told = 0;
}

void xd_events_free(struct xd_writer *w)
{
	struct xd_events *e = w->events;
	if (!e)
		return;
	drop_pending(e);
	free(e->v);
	free(e->told);
	free(e);
	w->events = NULL;
}

void xd_events_turn(struct xd_writer *w, int64_t account)
{
	xd_ops_begin(w);
	struct xd_q *st = xd_stmt(w->st,
		"INSERT INTO event_counters(account, n) VALUES(?1, 0) ON CONFLICT(account) "
		"DO UPDATE SET n = event_counters.n RETURNING n");
	xd_bind_int64(st, 1, account);
	xd_step_id(st);
}

/* ---- readers ---------------------------------------------------------------------- */

int64_t xd_events_head(struct xd_store *s, int64_t account)
{
	struct xd_q *st = xd_stmt(s, "SELECT n FROM event_counters WHERE account = ?1");
	xd_bind_int64(st, 1, account);
	int64_t n = xd_step(st) == XD_ROW ? xd_col_int64(st, 0) : 0;
	xd_reset(st);
	return n;
}

int xd_events_sse(struct xd_store *s, int64_t account, int64_t after, int limit,
                  const char *id_prefix, struct buf *out, int64_t *last)
{
	struct xd_q *st = xd_stmt(s, "SELECT n, data FROM account_events WHERE account = ?1 "
	                             "AND n > ?2 ORDER BY n LIMIT ?3");
	xd_bind_int64(st, 1, account);
	xd_bind_int64(st, 2, after);
	xd_bind_int64(st, 3, limit);
	int count = 0;
	*last = after;
	while (xd_step(st) == XD_ROW) {
		*last = xd_col_int64(st, 0);
		buf_printf(out, "id: %s%" PRId64 "\nevent: account\ndata: %s\n\n", id_prefix, *last,
		           xd_col_text(st, 1));
		count++;
	}
	xd_reset(st);
	return count;
}

/* GET /v1/events?after=N&limit=L: the caller's events after number N,
 * oldest first, each as the stream sends it. */
void xd_events_h_list(struct xd_ctx *c)
{
	static const char *const allowed[] = { "after", "limit", NULL };
	if (xd_query_check(c, allowed) != 0)
		return;
	int64_t after, limit;
	if (xd_query_int(c, "after", 0, INT64_C(9007199254740991), 0, &after) != 0 ||
	    xd_query_int(c, "limit", 1, XD_EVENTS_PAGE_MAX, 50, &limit) != 0)
		return;
	struct xd_store *s = xd_store_reader();
	struct xd_q *st = xd_stmt(s, "SELECT n, data FROM account_events WHERE account = ?1 "
	                             "AND n > ?2 ORDER BY n LIMIT ?3");
	xd_bind_int64(st, 1, c->account);
	xd_bind_int64(st, 2, after);
	xd_bind_int64(st, 3, limit);
	cJSON *o = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(o, "events");
	int64_t last = after;
	while (xd_step(st) == XD_ROW) {
		cJSON *ev = cJSON_Parse(xd_col_text(st, 1));
		if (!ev)
			continue;
		last = xd_col_int64(st, 0);
		cJSON_AddItemToArray(arr, ev);
	}
	xd_reset(st);
	xd_jint(o, "last_id", last);
	xd_jint(o, "head", xd_events_head(s, c->account));
	xd_reply_json(&c->reply, 200, o);
}
