/*
 * exchange/store.c — the backend-independent half of exchange/store.h: which
 * backend a --db value names, the per-connection cache of prepared
 * statements, the statement calls, the meta table, faults, and the HTTP
 * threads' read connections (one per thread, opened on first use).
 */
#include "exchange/xd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

const struct xd_store_ops *xd_store_backend(const char *target)
{
	if (strncmp(target, "postgresql://", 13) == 0 || strncmp(target, "postgres://", 11) == 0 ||
	    strchr(target, '=') != NULL)
		return &xd_store_pg;
	return &xd_store_sqlite;
}

int xd_store_open(const char *target, bool writer, struct xd_store **out, char **cause)
{
	struct xd_store *s = xcalloc(1, sizeof *s);
	s->ops = xd_store_backend(target);
	s->writer = writer;
	*out = NULL;
	int rc = s->ops->open(s, target, cause);
	if (rc != 0) {
		xd_store_close(&s);
		return rc < 0 ? rc : -1;
	}
	*out = s;
	return 0;
}

void xd_store_close(struct xd_store **sp)
{
	struct xd_store *s = *sp;
	if (!s)
		return;
	for (size_t i = 0; i < s->n_stmts; i++)
		s->ops->finalize(s->stmts[i].q);
	free(s->stmts);
	if (s->impl)
		s->ops->close(s);
	free(s);
	*sp = NULL;
}

void xd_store_fault(struct xd_store *s, enum xd_fault kind, const char *msg)
{
	s->fault = kind;
	snprintf(s->fault_msg, sizeof s->fault_msg, "%s", msg ? msg : "");
	s->fault_msg[strcspn(s->fault_msg, "\n")] = 0;
	if (s->on_fault) {
		jmp_buf *j = s->on_fault;
		s->on_fault = NULL;
		longjmp(*j, (int)kind);
	}
}

struct xd_q *xd_stmt(struct xd_store *s, const char *sql)
{
	for (size_t i = 0; i < s->n_stmts; i++) {
		if (s->stmts[i].sql == sql) {
			struct xd_q *q = s->stmts[i].q;
			s->ops->reset(q);
			return q;
		}
	}
	struct xd_q *q = s->ops->prepare(s, sql);
	s->stmts = xreallocarray(s->stmts, s->n_stmts + 1, sizeof *s->stmts);
	s->stmts[s->n_stmts].sql = sql;
	s->stmts[s->n_stmts].q = q;
	s->n_stmts++;
	return q;
}

/* Every statement begins with its store pointer (both backends' struct xd_q). */
struct xd_q_head { struct xd_store *s; };
struct xd_store *xd_q_store(struct xd_q *q) { return ((struct xd_q_head *)q)->s; }

int xd_step(struct xd_q *q) { return xd_q_store(q)->ops->step(q); }
void xd_reset(struct xd_q *q) { xd_q_store(q)->ops->reset(q); }
void xd_bind_int64(struct xd_q *q, int i, int64_t v) { xd_q_store(q)->ops->bind_int64(q, i, v); }
void xd_bind_int(struct xd_q *q, int i, int v) { xd_q_store(q)->ops->bind_int64(q, i, v); }
void xd_bind_text(struct xd_q *q, int i, const char *v)
{
	if (v)
		xd_q_store(q)->ops->bind_text(q, i, v);
}
void xd_bind_blob(struct xd_q *q, int i, const void *v, size_t n)
{
	xd_q_store(q)->ops->bind_blob(q, i, v, n);
}
int64_t xd_col_int64(struct xd_q *q, int i) { return xd_q_store(q)->ops->col_int64(q, i); }
int xd_col_int(struct xd_q *q, int i) { return (int)xd_q_store(q)->ops->col_int64(q, i); }
const char *xd_col_text(struct xd_q *q, int i) { return xd_q_store(q)->ops->col_text(q, i); }
const void *xd_col_blob(struct xd_q *q, int i, size_t *n)
{
	return xd_q_store(q)->ops->col_blob(q, i, n);
}
bool xd_col_null(struct xd_q *q, int i) { return xd_q_store(q)->ops->col_null(q, i); }

void xd_step_done(struct xd_store *s, struct xd_q *q)
{
	if (s->ops->exec) {
		s->ops->exec(q);
		return;
	}
	s->ops->step(q);
	s->ops->reset(q);
}

int64_t xd_step_id(struct xd_q *q)
{
	struct xd_store *s = xd_q_store(q);
	int64_t id = s->ops->step(q) == XD_ROW ? s->ops->col_int64(q, 0) : 0;
	s->ops->reset(q);
	return id;
}

void xd_exec(struct xd_store *s, const char *sql)
{
	xd_step_done(s, xd_stmt(s, sql));
}

int64_t xd_meta_get(struct xd_store *s, const char *key, int64_t dflt)
{
	struct xd_q *q = xd_stmt(s, "SELECT value FROM meta WHERE key = ?1");
	xd_bind_text(q, 1, key);
	int64_t v = xd_step(q) == XD_ROW ? xd_col_int64(q, 0) : dflt;
	xd_reset(q);
	return v;
}

void xd_meta_set(struct xd_store *s, const char *key, int64_t v)
{
	struct xd_q *q = xd_stmt(s, "INSERT INTO meta(key, value) VALUES(?1, ?2) "
	                            "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
	xd_bind_text(q, 1, key);
	xd_bind_int64(q, 2, v);
	xd_step_done(s, q);
}

/* ---- per-thread read connections ------------------------------------------- */

static pthread_mutex_t readers_mu = PTHREAD_MUTEX_INITIALIZER;
static char *readers_path;
static struct xd_store **readers;
static size_t n_readers;
static _Atomic int readers_gen;
static _Thread_local struct xd_store *my_reader;
static _Thread_local int my_gen;

void xd_store_readers_init(const char *path)
{
	pthread_mutex_lock(&readers_mu);
	free(readers_path);
	readers_path = xstrdup(path);
	pthread_mutex_unlock(&readers_mu);
}

struct xd_store *xd_store_reader(void)
{
	if (my_reader && my_gen == readers_gen)
		return my_reader;
	my_reader = NULL;
	char *cause = NULL;
	pthread_mutex_lock(&readers_mu);
	if (!readers_path)
		fatal("gpuxd: read connections used before xd_store_readers_init");
	struct xd_store *s = NULL;
	if (xd_store_open(readers_path, false, &s, &cause) != 0)
		fatal("gpuxd: %s", cause);
	my_reader = s;
	readers = xreallocarray(readers, n_readers + 1, sizeof *readers);
	readers[n_readers++] = my_reader;
	my_gen = readers_gen;
	pthread_mutex_unlock(&readers_mu);
	return my_reader;
}

void xd_store_readers_close(void)
{
	pthread_mutex_lock(&readers_mu);
	for (size_t i = 0; i < n_readers; i++)
		xd_store_close(&readers[i]);
	free(readers);
	readers = NULL;
	n_readers = 0;
	free(readers_path);
	readers_path = NULL;
	readers_gen++;
	pthread_mutex_unlock(&readers_mu);
}

bool xd_store_reader_fault(void)
{
	if (!my_reader || my_gen != readers_gen || my_reader->fault == XD_FAULT_NONE)
		return false;
	my_reader->fault = XD_FAULT_NONE;
	return true;
}
