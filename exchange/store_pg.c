/*
 * exchange/store_pg.c — the PostgreSQL backend of exchange/store.h, through
 * libpq: `gpuxd --db postgresql://…` (or any libpq connection string,
 * multi-host with target_session_attrs=read-write included).
 *
 * Statements are prepared on first use under a name of their own, with the
 * ?N parameters rewritten to $N, and run with text parameters (PostgreSQL
 * infers each parameter's type from where it is used). A statement's rows
 * are fetched whole by its first step and handed out one by one.
 *
 * A connection that is lost is re-made on next use (PQreset walks the hosts
 * of a multi-host string again, so after a failover it finds the new
 * primary); statements then prepare again. Faults are classified by SQLSTATE:
 * deadlock and serialization failures, and a balance of accounts that a
 * delta took below zero (its CHECK), can be retried; connection failures,
 * shutdowns, a read-only (standby) server and too many connections mean the
 * store is unavailable; anything else is a bug and stops the daemon, as with
 * SQLite.
 *
 * The schema is exchange/schema.c's, versioned by meta.schema_version (the
 * last migration applied). Migrations run in one transaction under a session advisory lock,
 * so nodes starting together apply each exactly once. Money columns are
 * bigint minor units; times are bigint Unix milliseconds, UTC, on the
 * exchange clock (which tests and the demo may run faster than the wall
 * clock, so they are not wall timestamps).
 */
#include "exchange/store.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <pthread.h>

#include <libpq-fe.h>

#include "util/util.h"

#define MAX_PARAMS 32
#define MIGRATE_LOCK 0x67707578LL   /* "gpux" */

struct pgc {
	PGconn *c;
	char *target;
	unsigned n_names;
	bool in_tx;
	bool piped;                 /* in pipeline mode, with `pending` results unread */
	int pending;
};

struct xd_q {
	struct xd_store *s;
	char *sql;                  /* with $N parameters */
	char name[24];
	int nparams;
	unsigned prepared_gen;      /* s->gen + 1 when prepared on this connection */
	const char *vals[MAX_PARAMS];
	char *owned[MAX_PARAMS];    /* blobs as \x… text */
	char nums[MAX_PARAMS][24];
	PGresult *res;
	int row, nrows;
	unsigned char *blob;
};

static struct pgc *pc(struct xd_store *s) { return s->impl; }

/* ---- libpq, opened when the first PostgreSQL store is ------------------------------ */

/* Every libpq function this file calls, called through `pq`: gpuxd does not
 * link libpq, so a SQLite gpuxd never loads it nor the libraries it needs
 * (libssl, Kerberos, LDAP…), which would cost every start milliseconds. */
#define PQ_FUNCTIONS(X) \
	X(PQclear) X(PQcmdStatus) X(PQconnectdb) X(PQconsumeInput) X(PQenterPipelineMode) \
	X(PQerrorMessage) X(PQescapeIdentifier) X(PQexec) X(PQexecPrepared) \
	X(PQexitPipelineMode) X(PQfinish) X(PQfreemem) X(PQgetResult) X(PQgetisnull) \
	X(PQgetvalue) X(PQnfields) X(PQnotifies) X(PQntuples) X(PQpipelineSync) X(PQprepare) \
	X(PQreset) X(PQresultErrorField) X(PQresultErrorMessage) X(PQresultStatus) \
	X(PQsendPrepare) X(PQsendQueryPrepared) X(PQsocket) X(PQstatus) X(PQunescapeBytea) \
	X(PQsendQuery) X(PQisBusy) X(PQgetCancel) X(PQcancel) X(PQfreeCancel)

#define PQ_SLOT(f) __typeof__(f) *f;
static struct { PQ_FUNCTIONS(PQ_SLOT) } pq;
#undef PQ_SLOT

static const char *const pq_default_sonames[] = { "libpq.so.5", NULL };
static const char *const *pq_sonames = pq_default_sonames;
static pthread_once_t pq_once = PTHREAD_ONCE_INIT;
static char *pq_missing;    /* why libpq could not be opened, or NULL */

void xd_store_pg_libraries(const char *const *sonames)
{
	pq_sonames = sonames;
}

static void pq_load(void)
{
#define PQ_ENTRY(f) { #f, &pq.f },
	static const struct dynlib_fn fns[] = { PQ_FUNCTIONS(PQ_ENTRY) };
#undef PQ_ENTRY
	char *why = NULL;
	if (util_dynlib_open(pq_sonames, fns, sizeof fns / sizeof fns[0], &why) != 0) {
		pq_missing = xasprintf("a PostgreSQL store needs libpq (install the Debian package "
		                       "libpq5): %s", why);
		free(why);
	}
}

/* Open libpq once for the process: 0, or -1 and *cause saying what to install. */
static int pq_open(char **cause)
{
	pthread_once(&pq_once, pq_load);
	return pq_missing ? set_cause(cause, "%s", pq_missing) : 0;
}

/* ---- faults --------------------------------------------------------------------- */

static enum xd_fault classify(PGconn *c, const PGresult *r)
{
	if (pq.PQstatus(c) == CONNECTION_BAD)
		return XD_FAULT_DOWN;
	const char *st = r ? pq.PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	if (!st)
		return XD_FAULT_DOWN;
	if (strcmp(st, "40P01") == 0 || strcmp(st, "40001") == 0)
		return XD_FAULT_RETRY;
	/* a balance written as a delta went below zero: another node spent the
	 * funds this transaction read; run it again on the balance as it is now */
	const char *table = pq.PQresultErrorField(r, PG_DIAG_TABLE_NAME);
	if (strcmp(st, "23514") == 0 && table && strcmp(table, "accounts") == 0)
		return XD_FAULT_RETRY;
	if (strncmp(st, "08", 2) == 0 || strncmp(st, "57P", 3) == 0 || strcmp(st, "25006") == 0 ||
	    strcmp(st, "53300") == 0 || strcmp(st, "55000") == 0)
		return XD_FAULT_DOWN;
	return XD_FAULT_NONE;   /* a bug */
}

/* r failed: report the fault (longjmp if armed). r is cleared here. */
static void failed(struct xd_store *s, PGresult *r, const char *what)
{
	struct pgc *p = pc(s);
	enum xd_fault k = classify(p->c, r);
	char msg[256];
	snprintf(msg, sizeof msg, "%s", r ? pq.PQresultErrorMessage(r) : pq.PQerrorMessage(p->c));
	msg[strcspn(msg, "\n")] = 0;
	pq.PQclear(r);
	if (k == XD_FAULT_NONE)
		fatal("gpuxd: PostgreSQL error: %s in: %s", msg, what);
	xd_store_fault(s, k, msg);
}

static bool ok_result(PGresult *r)
{
	ExecStatusType t = pq.PQresultStatus(r);
	return t == PGRES_COMMAND_OK || t == PGRES_TUPLES_OK;
}

/* Make sure the connection is up: re-make it if it was lost. */
static bool ensure(struct xd_store *s)
{
	struct pgc *p = pc(s);
	if (pq.PQstatus(p->c) == CONNECTION_OK)
		return true;
	pq.PQreset(p->c);
	s->gen++;
	p->in_tx = false;
	p->piped = false;
	p->pending = 0;
	if (pq.PQstatus(p->c) != CONNECTION_OK) {
		char *safe = xd_conninfo_scrub(p->target, pq.PQerrorMessage(p->c));
		xd_store_fault(s, XD_FAULT_DOWN, safe);
		free(safe);
		return false;
	}
	pq.PQclear(pq.PQexec(p->c, "SET TIME ZONE 'UTC'"));
	return true;
}

/* Outside a transaction a connection found dead is made again and the
 * statement tried once more: nothing of it can have happened. */
static bool again(struct xd_store *s, PGresult **r)
{
	struct pgc *p = pc(s);
	if (p->in_tx || pq.PQstatus(p->c) != CONNECTION_BAD)
		return false;
	pq.PQclear(*r);
	*r = NULL;
	return ensure(s);
}

static bool pipe_finish(struct xd_store *s);

static PGresult *run(struct xd_store *s, const char *sql)
{
	if (!pipe_finish(s) || !ensure(s))
		return NULL;
	PGresult *r = pq.PQexec(pc(s)->c, sql);
	if (!ok_result(r) && again(s, &r))
		r = pq.PQexec(pc(s)->c, sql);
	if (!ok_result(r)) {
		failed(s, r, sql);
		return NULL;
	}
	return r;
}

/* ---- connections and migrations ---------------------------------------------------- */

/* A cause naming the store by its redacted name, with whatever libpq said
 * scrubbed of the connection string's passwords. */
static int pg_cause(char **cause, const char *target, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int pg_cause(char **cause, const char *target, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		fatal("out of memory");
	va_end(ap);
	char *shown = xd_conninfo_redact(target), *safe = xd_conninfo_scrub(target, msg);
	int rc = set_cause(cause, "%s: %s", shown, safe);
	free(shown);
	free(safe);
	free(msg);
	return rc;
}

static int migrate(struct xd_store *s, const char *target, char **cause)
{
	PGconn *c = pc(s)->c;
	char sql[128];
	snprintf(sql, sizeof sql, "SELECT pg_advisory_lock(%lld)", MIGRATE_LOCK);
	PGresult *r = pq.PQexec(c, sql);
	int rc = 0;
	if (!ok_result(r)) {
		rc = pg_cause(cause, target, "%s", pq.PQerrorMessage(c));
		pq.PQclear(r);
		return rc;
	}
	pq.PQclear(r);
	r = pq.PQexec(c, "SELECT value FROM meta WHERE key = 'schema_version'");
	long long have = ok_result(r) && pq.PQntuples(r) == 1 ? atoll(pq.PQgetvalue(r, 0, 0)) : 0;
	pq.PQclear(r);
	size_t newest = xd_schema_versions();
	for (size_t v = (size_t)have + 1; have >= 0 && v <= newest && rc == 0; v++) {
		char *stmts = xd_schema_sql(XD_DIALECT_PG, v);
		char *step = xasprintf("BEGIN; %s INSERT INTO meta(key, value) VALUES('schema_version', %zu) "
		                       "ON CONFLICT(key) DO UPDATE SET value = excluded.value; COMMIT",
		                       stmts, v);
		r = pq.PQexec(c, step);
		if (!ok_result(r)) {
			rc = pg_cause(cause, target, "schema migration %zu (%s): %s", v,
			              xd_schema_what(v), pq.PQresultErrorMessage(r));
			pq.PQclear(pq.PQexec(c, "ROLLBACK"));
		}
		pq.PQclear(r);
		free(step);
		free(stmts);
	}
	if (rc == 0 && (have < 0 || have > (long long)newest))
		rc = pg_cause(cause, target, "the schema is version %lld, newer than this gpuxd knows (%zu)",
		              have, newest);
	snprintf(sql, sizeof sql, "SELECT pg_advisory_unlock(%lld)", MIGRATE_LOCK);
	pq.PQclear(pq.PQexec(c, sql));
	return rc;
}

static int pg_open(struct xd_store *s, const char *target, char **cause)
{
	if (pq_open(cause) != 0)
		return -1;
	struct pgc *p = xcalloc(1, sizeof *p);
	p->target = xstrdup(target);
	s->impl = p;
	s->shared = true;
	p->c = pq.PQconnectdb(target);
	if (pq.PQstatus(p->c) != CONNECTION_OK && !s->writer) {
		/* a read connection is made again on next use; until then its
		 * requests are answered 503 */
		char *safe = xd_conninfo_scrub(target, pq.PQerrorMessage(p->c));
		xd_store_fault(s, XD_FAULT_DOWN, safe);
		free(safe);
		return 0;
	}
	if (pq.PQstatus(p->c) != CONNECTION_OK) {
		char *e = xstrdup(pq.PQerrorMessage(p->c));
		e[strcspn(e, "\n")] = 0;
		pg_cause(cause, target, "cannot connect: %s", e);
		free(e);
		return -2;   /* down or refusing: the caller may try again */
	}
	pq.PQclear(pq.PQexec(p->c, "SET TIME ZONE 'UTC'"));
	if (s->writer && migrate(s, target, cause) != 0)
		return pq.PQstatus(p->c) == CONNECTION_BAD ? -2 : -1;
	return 0;
}

static void pg_close(struct xd_store *s)
{
	struct pgc *p = pc(s);
	if (!p)
		return;
	pq.PQfinish(p->c);
	free(p->target);
	free(p);
	s->impl = NULL;
}

/* ---- statements ------------------------------------------------------------------- */

/* ?N -> $N outside string literals; a trailing FOR UPDATE is kept. */
static char *translate(const char *sql, int *nparams)
{
	size_t n = strlen(sql);
	char *out = xcalloc(1, n + 1);
	size_t o = 0;
	bool quoted = false;
	*nparams = 0;
	for (size_t i = 0; i < n; i++) {
		char ch = sql[i];
		if (ch == '\'')
			quoted = !quoted;
		if (!quoted && ch == '?' && i + 1 < n && sql[i + 1] >= '0' && sql[i + 1] <= '9') {
			out[o++] = '$';
			int k = atoi(sql + i + 1);
			if (k > *nparams)
				*nparams = k;
			continue;
		}
		out[o++] = ch;
	}
	if (strncmp(out, "BEGIN IMMEDIATE", 15) == 0)
		memcpy(out, "BEGIN          ", 15);
	return out;
}

static struct xd_q *pg_prepare(struct xd_store *s, const char *sql)
{
	struct pgc *p = pc(s);
	struct xd_q *q = xcalloc(1, sizeof *q);
	q->s = s;
	q->sql = translate(sql, &q->nparams);
	if (q->nparams > MAX_PARAMS)
		fatal("gpuxd: too many parameters (%d) in: %s", q->nparams, sql);
	snprintf(q->name, sizeof q->name, "q%u", ++p->n_names);
	return q;
}

static void pg_reset(struct xd_q *q)
{
	pq.PQclear(q->res);
	q->res = NULL;
	q->row = q->nrows = 0;
	for (int i = 0; i < MAX_PARAMS; i++) {
		free(q->owned[i]);
		q->owned[i] = NULL;
		q->vals[i] = NULL;
	}
	pq.PQfreemem(q->blob);
	q->blob = NULL;
}

static void pg_finalize(struct xd_q *q)
{
	pg_reset(q);
	free(q->sql);
	free(q);
}

static void pg_bind_int64(struct xd_q *q, int i, int64_t v)
{
	if (i < 1 || i > MAX_PARAMS)
		return;
	snprintf(q->nums[i - 1], sizeof q->nums[i - 1], "%" PRId64, v);
	q->vals[i - 1] = q->nums[i - 1];
}

static void pg_bind_text(struct xd_q *q, int i, const char *v)
{
	if (i >= 1 && i <= MAX_PARAMS)
		q->vals[i - 1] = v;
}

static void pg_bind_blob(struct xd_q *q, int i, const void *v, size_t n)
{
	if (i < 1 || i > MAX_PARAMS)
		return;
	static const char hex[] = "0123456789abcdef";
	char *t = xcalloc(1, 2 * n + 3);
	t[0] = '\\';
	t[1] = 'x';
	for (size_t k = 0; k < n; k++) {
		t[2 + 2 * k] = hex[((const unsigned char *)v)[k] >> 4];
		t[3 + 2 * k] = hex[((const unsigned char *)v)[k] & 15];
	}
	free(q->owned[i - 1]);
	q->owned[i - 1] = t;
	q->vals[i - 1] = t;
}

static PGresult *exec_prepared(struct xd_q *q)
{
	struct xd_store *s = q->s;
	struct pgc *p = pc(s);
	if (q->prepared_gen != s->gen + 1) {
		PGresult *r = pq.PQprepare(p->c, q->name, q->sql, 0, NULL);
		if (!ok_result(r))
			return r;
		pq.PQclear(r);
		q->prepared_gen = s->gen + 1;
	}
	return pq.PQexecPrepared(p->c, q->name, q->nparams, q->vals, NULL, NULL, 0);
}

/* ---- the writer's pipeline ---------------------------------------------------------- */

/* Inside the writer's transaction a statement whose rows nobody reads (an
 * INSERT, an UPDATE, xd_step_done) is sent without waiting for its result
 * (libpq's pipeline mode); the next statement whose rows are wanted goes
 * down the same pipeline, and one round trip reads every result. The first
 * failure among them is the statement's; COMMIT and ROLLBACK read what is
 * left first. */
static bool pipe_send(struct xd_q *q)
{
	struct xd_store *s = q->s;
	struct pgc *p = pc(s);
	if (!p->piped) {
		if (pq.PQenterPipelineMode(p->c) != 1)
			return false;
		p->piped = true;
	}
	if (q->prepared_gen != s->gen + 1) {
		if (pq.PQsendPrepare(p->c, q->name, q->sql, 0, NULL) != 1)
			return false;
		p->pending++;
		q->prepared_gen = s->gen + 1;
	}
	if (pq.PQsendQueryPrepared(p->c, q->name, q->nparams, q->vals, NULL, NULL, 0) != 1)
		return false;
	p->pending++;
	return true;
}

/* Sync, read every pending result, leave pipeline mode. The last statement's
 * result if keep; the first failure in *bad (NULL if none). */
static PGresult *pipe_end(struct xd_store *s, bool keep, PGresult **bad)
{
	struct pgc *p = pc(s);
	PGresult *last = NULL;
	*bad = NULL;
	bool lost = pq.PQpipelineSync(p->c) != 1;
	for (int i = 0; i < p->pending && !lost; i++) {
		PGresult *r;
		while ((r = pq.PQgetResult(p->c)) != NULL) {
			ExecStatusType t = pq.PQresultStatus(r);
			if (!ok_result(r) && t != PGRES_PIPELINE_ABORTED && !*bad)
				*bad = r;
			else if (keep && i == p->pending - 1 && !last)
				last = r;
			else
				pq.PQclear(r);
		}
		lost = pq.PQstatus(p->c) == CONNECTION_BAD;
	}
	PGresult *r = lost ? NULL : pq.PQgetResult(p->c);
	if (!r || pq.PQresultStatus(r) != PGRES_PIPELINE_SYNC)
		lost = true;
	pq.PQclear(r);
	p->pending = 0;
	p->piped = false;
	if (!lost)
		pq.PQexitPipelineMode(p->c);
	if (lost && !*bad) {
		pq.PQclear(last);
		last = NULL;
	}
	return last;
}

/* Read what is left in the pipeline: false (and the fault reported) if a
 * statement failed. */
static bool pipe_finish(struct xd_store *s)
{
	if (!pc(s)->piped)
		return true;
	PGresult *bad = NULL;
	pq.PQclear(pipe_end(s, false, &bad));
	if (!bad && pq.PQstatus(pc(s)->c) == CONNECTION_OK)
		return true;
	failed(s, bad, "a statement sent down the pipeline");
	return false;
}

/* Run q down the pipeline and read every result: false if anything failed. */
static bool pipe_execute(struct xd_q *q)
{
	struct xd_store *s = q->s;
	PGresult *bad = NULL;
	bool sent = pipe_send(q);
	PGresult *r = pipe_end(s, sent, &bad);
	if (!bad && (!sent || !r || pq.PQstatus(pc(s)->c) != CONNECTION_OK)) {
		pq.PQclear(r);
		failed(s, NULL, q->sql);
		return false;
	}
	if (bad) {
		pq.PQclear(r);
		failed(s, bad, q->sql);
		return false;
	}
	q->res = r;
	q->row = -1;
	q->nrows = pq.PQntuples(r);
	return true;
}

static bool execute(struct xd_q *q)
{
	struct xd_store *s = q->s;
	if (pc(s)->piped)
		return pipe_execute(q);
	if (!ensure(s))
		return false;
	PGresult *r = exec_prepared(q);
	if (!ok_result(r) && again(s, &r))
		r = exec_prepared(q);
	if (!ok_result(r)) {
		failed(s, r, q->sql);
		return false;
	}
	q->res = r;
	q->row = -1;
	q->nrows = pq.PQntuples(r);
	return true;
}

static int pg_step(struct xd_q *q)
{
	if (!q->res && !execute(q))
		return XD_DONE;
	if (q->row + 1 >= q->nrows) {
		q->row = q->nrows;
		return XD_DONE;
	}
	q->row++;
	return XD_ROW;
}

/* A statement whose rows nobody reads: down the writer's pipeline when in
 * its transaction, else run now. Reset either way. */
static void pg_exec(struct xd_q *q)
{
	struct xd_store *s = q->s;
	struct pgc *p = pc(s);
	if (s->writer && p->in_tx && pq.PQstatus(p->c) == CONNECTION_OK) {
		if (!pipe_send(q)) {
			pg_reset(q);
			pipe_finish(s);
			failed(s, NULL, q->sql);
			return;
		}
		pg_reset(q);
		if (p->pending >= 256)
			pipe_finish(s);
		return;
	}
	pg_step(q);
	pg_reset(q);
}

static bool have(struct xd_q *q, int i)
{
	return q->res && q->row >= 0 && q->row < q->nrows && i >= 0 && i < pq.PQnfields(q->res);
}

static bool pg_col_null(struct xd_q *q, int i)
{
	return !have(q, i) || pq.PQgetisnull(q->res, q->row, i);
}

static int64_t pg_col_int64(struct xd_q *q, int i)
{
	if (pg_col_null(q, i))
		return 0;
	const char *v = pq.PQgetvalue(q->res, q->row, i);
	if (v[0] == 't' || v[0] == 'f')
		return v[0] == 't';   /* a boolean */
	return strtoll(v, NULL, 10);
}

static const char *pg_col_text(struct xd_q *q, int i)
{
	return pg_col_null(q, i) ? NULL : pq.PQgetvalue(q->res, q->row, i);
}

static const void *pg_col_blob(struct xd_q *q, int i, size_t *n)
{
	*n = 0;
	if (pg_col_null(q, i))
		return NULL;
	pq.PQfreemem(q->blob);
	q->blob = pq.PQunescapeBytea((const unsigned char *)pq.PQgetvalue(q->res, q->row, i), n);
	return q->blob;
}

/* ---- transactions, leases, notifications ---------------------------------------------- */

static void pg_begin(struct xd_store *s)
{
	PGresult *r = run(s, "BEGIN");
	pq.PQclear(r);
	if (r)
		pc(s)->in_tx = true;
}

/* COMMIT, waited for at most s->commit_deadline_ms. Past it (a synchronous
 * standby that does not answer — one named in synchronous_standby_names of a
 * promoted server, or a network gone quiet) the server is asked to cancel
 * the wait (the commit is then local only, or was never made) and given a
 * second more; a server that does not answer even then loses the
 * connection (the next statement makes it again). *late says the deadline
 * passed, whatever the result. */
static PGresult *commit_within(struct xd_store *s, bool *late)
{
	PGconn *c = pc(s)->c;
	*late = false;
	if (s->commit_deadline_ms <= 0)
		return pq.PQexec(c, "COMMIT");
	if (pq.PQsendQuery(c, "COMMIT") != 1)
		return NULL;
	int64_t end = util_now_us() + (int64_t)s->commit_deadline_ms * 1000;
	while (pq.PQisBusy(c)) {
		int64_t left = end - util_now_us();
		if (left <= 0 && !*late) {
			*late = true;
			PGcancel *k = pq.PQgetCancel(c);
			char err[256];
			if (k)
				pq.PQcancel(k, err, sizeof err);
			pq.PQfreeCancel(k);
			end = util_now_us() + 1000000;
			continue;
		}
		if (left <= 0) {
			shutdown(pq.PQsocket(c), SHUT_RDWR);
			pq.PQconsumeInput(c);
			break;
		}
		struct pollfd pfd = { .fd = pq.PQsocket(c), .events = POLLIN };
		if (pfd.fd < 0 || (poll(&pfd, 1, (int)((left + 999) / 1000)) < 0 && errno != EINTR) ||
		    !pq.PQconsumeInput(c))
			break;
	}
	PGresult *r = pq.PQgetResult(c), *more;
	while ((more = pq.PQgetResult(c)) != NULL)
		pq.PQclear(more);
	return r;
}

static enum xd_commit pg_commit(struct xd_store *s)
{
	struct pgc *p = pc(s);
	if (!pipe_finish(s)) {   /* COMMIT was not sent */
		p->in_tx = false;
		return XD_NOT_COMMITTED;
	}
	p->in_tx = false;
	bool late;
	PGresult *r = commit_within(s, &late);
	ExecStatusType t = pq.PQresultStatus(r);
	if (late) {
		snprintf(s->fault_msg, sizeof s->fault_msg, "COMMIT did not finish within the commit "
		         "deadline (%d ms): is a synchronous standby missing?", s->commit_deadline_ms);
		pq.PQclear(r);
		return XD_COMMIT_UNKNOWN;
	}
	if (t == PGRES_COMMAND_OK) {
		/* COMMIT of an aborted transaction answers ROLLBACK */
		bool rolled = strcmp(pq.PQcmdStatus(r), "ROLLBACK") == 0;
		pq.PQclear(r);
		return rolled ? XD_NOT_COMMITTED : XD_COMMITTED;
	}
	enum xd_fault k = classify(p->c, r);
	snprintf(s->fault_msg, sizeof s->fault_msg, "%s", pq.PQerrorMessage(p->c));
	pq.PQclear(r);
	/* the server may or may not have committed before the connection went */
	if (k == XD_FAULT_DOWN)
		return XD_COMMIT_UNKNOWN;
	return XD_NOT_COMMITTED;
}

static void pg_rollback(struct xd_store *s)
{
	struct pgc *p = pc(s);
	if (p->piped) {
		PGresult *bad = NULL;
		pq.PQclear(pipe_end(s, false, &bad));
		pq.PQclear(bad);
	}
	p->in_tx = false;
	if (pq.PQstatus(p->c) == CONNECTION_OK)
		pq.PQclear(pq.PQexec(p->c, "ROLLBACK"));
}

static bool pg_lease(struct xd_store *s, int64_t key)
{
	char sql[96];
	snprintf(sql, sizeof sql, "SELECT pg_try_advisory_lock(%" PRId64 ")", key);
	jmp_buf *armed = s->on_fault;
	s->on_fault = NULL;
	PGresult *r = run(s, sql);
	s->on_fault = armed;
	bool held = r && pq.PQntuples(r) == 1 && pq.PQgetvalue(r, 0, 0)[0] == 't';
	pq.PQclear(r);
	return held;
}

static void pg_notify(struct xd_store *s, const char *channel, const char *payload)
{
	struct xd_q *q = xd_stmt(s, "SELECT pg_notify(?1, ?2)");
	xd_bind_text(q, 1, channel);
	xd_bind_text(q, 2, payload);
	xd_step_done(s, q);
}

static int pg_listen(struct xd_store *s, const char *channel)
{
	struct pgc *p = pc(s);
	if (!ensure(s))
		return -1;
	char *id = pq.PQescapeIdentifier(p->c, channel, strlen(channel));
	char *sql = xasprintf("LISTEN %s", id ? id : "gpux");
	pq.PQfreemem(id);
	PGresult *r = pq.PQexec(p->c, sql);
	free(sql);
	int rc = ok_result(r) ? 0 : -1;
	pq.PQclear(r);
	return rc;
}

static int pg_wait_notify(struct xd_store *s, int timeout_ms, char **channel, char **payload)
{
	struct pgc *p = pc(s);
	if (pq.PQstatus(p->c) != CONNECTION_OK)
		return -1;
	PGnotify *n = pq.PQnotifies(p->c);
	if (!n) {
		struct pollfd pfd = { .fd = pq.PQsocket(p->c), .events = POLLIN };
		if (pfd.fd < 0)
			return -1;
		if (poll(&pfd, 1, timeout_ms) <= 0)
			return 0;
		if (!pq.PQconsumeInput(p->c))
			return -1;
		n = pq.PQnotifies(p->c);
		if (!n)
			return pq.PQstatus(p->c) == CONNECTION_OK ? 0 : -1;
	}
	*channel = xstrdup(n->relname);
	*payload = xstrdup(n->extra);
	pq.PQfreemem(n);
	return 1;
}

const struct xd_store_ops xd_store_pg = {
	.name = "postgresql",
	.open = pg_open, .close = pg_close, .prepare = pg_prepare, .finalize = pg_finalize,
	.reset = pg_reset, .bind_int64 = pg_bind_int64, .bind_text = pg_bind_text,
	.bind_blob = pg_bind_blob, .step = pg_step, .exec = pg_exec, .col_int64 = pg_col_int64,
	.col_text = pg_col_text, .col_blob = pg_col_blob, .col_null = pg_col_null,
	.begin = pg_begin, .commit = pg_commit, .rollback = pg_rollback, .lease = pg_lease,
	.notify = pg_notify, .listen = pg_listen, .wait_notify = pg_wait_notify,
};
