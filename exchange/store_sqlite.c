/*
 * exchange/store_sqlite.c — the SQLite backend of exchange/store.h, the
 * embedded default (`gpuxd --db PATH`).
 *
 * One database file in WAL mode with synchronous=FULL: a COMMIT returns once
 * the WAL is synced. The writer's connection creates and migrates the schema
 * and does not checkpoint after commits (wal_autocheckpoint=0): an automatic
 * checkpoint would run inside the COMMIT of whichever batch crossed the
 * threshold and stall the writer; a checkpointer connection
 * (the store's upkeep, run by market.c beside the writer)
 * does it in PASSIVE mode, and journal_size_limit cuts the WAL back to 4 MiB
 * once a checkpoint has copied all of it. The readers' connections are read-only
 * (query_only). SQLite has one writer, so a trailing FOR UPDATE in a statement
 * is dropped and there is nothing to lock, lease or notify across nodes.
 *
 * Money columns are integer minor units; times are exchange-clock Unix ms.
 *
 * The schema is exchange/schema.c's, versioned by PRAGMA user_version (a
 * database made before versions were counted is version 0 and holds the
 * tables of version 1): when the writer opens the database, each migration
 * after its version runs in one transaction with the new user_version. A
 * database from a newer gpuxd is refused.
 *
 * One database file, one gpuxd: the writer holds an exclusive flock on
 * PATH.lock (beside the database, mode 0600, holding its pid) for as long as
 * it is open, so a second gpuxd on the same file — two local demo exchanges
 * started from two runtime directories, or a service started twice — stops
 * at start, naming the process that has it, instead of running a second
 * copy of the books on the same rows.
 */
#include "exchange/store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <sqlite3.h>

#include "util/util.h"

struct xd_q {
	struct xd_store *s;
	sqlite3_stmt *st;
};

struct sqc {
	sqlite3 *db;
	int lock_fd;                /* the writer's PATH.lock, -1 for the others */
};

static sqlite3 *db_of(struct xd_store *s) { return ((struct sqc *)s->impl)->db; }

/* The writer's exclusive lock on PATH.lock: its descriptor, or -1 and *cause
 * naming the gpuxd that holds it. */
static int lock_db(const char *path, char **cause)
{
	char *lp = xasprintf("%s.lock", path);
	int fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		set_cause(cause, "%s: %s", lp, strerror(errno));
		free(lp);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		char held[32] = "";
		ssize_t n = pread(fd, held, sizeof held - 1, 0);
		held[n > 0 ? n : 0] = 0;
		held[strcspn(held, "\n")] = 0;
		set_cause(cause, "%s is in use by another gpuxd%s%s%s (its lock %s is held): one SQLite "
		          "database is served by one gpuxd; several nodes share a PostgreSQL database "
		          "(docs/DEPLOY.md)", path, held[0] ? " (pid " : "", held, held[0] ? ")" : "", lp);
		close(fd);
		free(lp);
		return -1;
	}
	char pid[24];
	int n = snprintf(pid, sizeof pid, "%d\n", (int)getpid());
	if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
		/* the lock holds without the pid: only the message is poorer */
	}
	free(lp);
	return fd;
}

/* ---- schema: exchange/schema.c, rendered for SQLite ---------------------------- */

static int pragma(sqlite3 *db, const char *sql, char **cause, const char *path)
{
	char *err = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		int rc = set_cause(cause, "%s: %s", path, err ? err : sqlite3_errmsg(db));
		sqlite3_free(err);
		return rc;
	}
	return 0;
}

static int user_version(sqlite3 *db, int *v)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;
	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		*v = sqlite3_column_int(st, 0);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

/* Bring the database to the newest schema version (the writer): each
 * migration after PRAGMA user_version in one transaction with its new
 * user_version. A database of a newer gpuxd is refused. */
static int migrate(sqlite3 *db, const char *path, char **cause)
{
	int v;
	size_t newest = xd_schema_versions();
	if (user_version(db, &v) != 0)
		return set_cause(cause, "%s: cannot read the schema version: %s", path, sqlite3_errmsg(db));
	if (v < 0 || (size_t)v > newest)
		return set_cause(cause, "%s: schema version %d is newer than this gpuxd's (%zu): "
		                 "use the gpuxd that wrote it", path, v, newest);
	for (size_t next = (size_t)v + 1; next <= newest; next++) {
		char *sql = xd_schema_sql(XD_DIALECT_SQLITE, next);
		char *set = xasprintf("PRAGMA user_version=%zu; COMMIT;", next);
		int rc = pragma(db, "BEGIN IMMEDIATE;", cause, path);
		if (rc == 0 && (rc = pragma(db, sql, cause, path)) != 0)
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		if (rc == 0)
			rc = pragma(db, set, cause, path);
		free(set);
		free(sql);
		if (rc != 0)
			return -1;
	}
	return 0;
}

static int sq_open(struct xd_store *s, const char *path, char **cause)
{
	sqlite3 *db = NULL;
	int lock_fd = -1;
	if (s->writer && (lock_fd = lock_db(path, cause)) < 0)
		return -1;
	int flags = s->writer ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
	flags |= SQLITE_OPEN_NOMUTEX;
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		int rc = set_cause(cause, "%s: %s", path, db ? sqlite3_errmsg(db) : "cannot open");
		sqlite3_close(db);
		if (lock_fd >= 0)
			close(lock_fd);
		return rc;
	}
	sqlite3_busy_timeout(db, 10000);
	if (s->writer) {
		sqlite3_stmt *st = NULL;
		if (sqlite3_prepare_v2(db, "PRAGMA journal_mode=WAL", -1, &st, NULL) != SQLITE_OK ||
		    sqlite3_step(st) != SQLITE_ROW ||
		    strcmp((const char *)sqlite3_column_text(st, 0), "wal") != 0) {
			sqlite3_finalize(st);
			int rc = set_cause(cause, "%s: cannot switch to WAL mode: %s", path, sqlite3_errmsg(db));
			sqlite3_close(db);
			close(lock_fd);
			return rc;
		}
		sqlite3_finalize(st);
		if (pragma(db, "PRAGMA synchronous=FULL; PRAGMA foreign_keys=OFF;"
		               "PRAGMA wal_autocheckpoint=0; PRAGMA journal_size_limit=4194304;",
		           cause, path) ||
		    migrate(db, path, cause)) {
			sqlite3_close(db);
			close(lock_fd);
			return -1;
		}
	} else if (pragma(db, "PRAGMA query_only=1;", cause, path)) {
		sqlite3_close(db);
		return -1;
	}
	struct sqc *c = xcalloc(1, sizeof *c);
	c->db = db;
	c->lock_fd = lock_fd;
	s->impl = c;
	return 0;
}

static void sq_close(struct xd_store *s)
{
	struct sqc *c = s->impl;
	sqlite3_close(c->db);
	/* after the database is closed: SQLite's own locks never outlive it */
	if (c->lock_fd >= 0)
		close(c->lock_fd);
	free(c);
	s->impl = NULL;
}

/* ---- statements ------------------------------------------------------------------ */

static struct xd_q *sq_prepare(struct xd_store *s, const char *sql)
{
	size_t n = strlen(sql);
	const char *tail = " FOR UPDATE";
	size_t tn = strlen(tail);
	int len = (int)n;
	if (n > tn && strcmp(sql + n - tn, tail) == 0)
		len = (int)(n - tn);
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v3(db_of(s), sql, len, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK)
		fatal("gpuxd: SQL error: %s in: %s", sqlite3_errmsg(db_of(s)), sql);
	struct xd_q *q = xcalloc(1, sizeof *q);
	q->s = s;
	q->st = st;
	return q;
}

static void sq_finalize(struct xd_q *q)
{
	sqlite3_finalize(q->st);
	free(q);
}

static void sq_reset(struct xd_q *q)
{
	sqlite3_reset(q->st);
	sqlite3_clear_bindings(q->st);
}

static void sq_bind_int64(struct xd_q *q, int i, int64_t v) { sqlite3_bind_int64(q->st, i, v); }

static void sq_bind_text(struct xd_q *q, int i, const char *v)
{
	sqlite3_bind_text(q->st, i, v, -1, SQLITE_STATIC);
}

static void sq_bind_blob(struct xd_q *q, int i, const void *v, size_t n)
{
	sqlite3_bind_blob(q->st, i, v, (int)n, SQLITE_STATIC);
}

static int sq_step(struct xd_q *q)
{
	int rc = sqlite3_step(q->st);
	if (rc == SQLITE_ROW)
		return XD_ROW;
	if (rc != SQLITE_DONE && !sqlite3_stmt_readonly(q->st))
		fatal("gpuxd: database write failed: %s (%s)", sqlite3_errmsg(db_of(q->s)),
		      sqlite3_sql(q->st));
	return XD_DONE;
}

static int64_t sq_col_int64(struct xd_q *q, int i) { return sqlite3_column_int64(q->st, i); }

static const char *sq_col_text(struct xd_q *q, int i)
{
	return (const char *)sqlite3_column_text(q->st, i);
}

static const void *sq_col_blob(struct xd_q *q, int i, size_t *n)
{
	const void *p = sqlite3_column_blob(q->st, i);
	*n = (size_t)sqlite3_column_bytes(q->st, i);
	return p;
}

static bool sq_col_null(struct xd_q *q, int i)
{
	return sqlite3_column_type(q->st, i) == SQLITE_NULL;
}

/* ---- transactions ---------------------------------------------------------------- */

static void sq_begin(struct xd_store *s) { xd_exec(s, "BEGIN IMMEDIATE"); }

static enum xd_commit sq_commit(struct xd_store *s)
{
	xd_exec(s, "COMMIT");
	return XD_COMMITTED;
}

static void sq_rollback(struct xd_store *s) { xd_exec(s, "ROLLBACK"); }

static bool sq_lease(struct xd_store *s, int64_t key) { return true; }

static void sq_notify(struct xd_store *s, const char *channel, const char *payload) {}

static void sq_durable(struct xd_store *s, bool on)
{
	xd_exec(s, on ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=OFF");
}

/* The upkeep: a PASSIVE checkpoint of the WAL on a read-write connection
 * of its own (a read-only one cannot checkpoint). */
static void sq_upkeep(struct xd_store *s)
{
	sqlite3_wal_checkpoint_v2(db_of(s), NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
}

static int sq_open_upkeep(const char *path, struct xd_store **out, char **cause)
{
	sqlite3 *db = NULL;
	*out = NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		int rc = set_cause(cause, "%s: %s", path, db ? sqlite3_errmsg(db) : "cannot open");
		sqlite3_close(db);
		return rc;
	}
	sqlite3_busy_timeout(db, 100);
	/* the read makes the connection open the WAL: until then it would take
	 * the database for one without a WAL, and checkpoint nothing */
	if (pragma(db, "PRAGMA wal_autocheckpoint=0; PRAGMA journal_size_limit=4194304;"
	               "SELECT count(*) FROM sqlite_master;", cause, path)) {
		sqlite3_close(db);
		return -1;
	}
	struct xd_store *s = xcalloc(1, sizeof *s);
	struct sqc *c = xcalloc(1, sizeof *c);
	c->db = db;
	c->lock_fd = -1;
	s->ops = &xd_store_sqlite;
	s->impl = c;
	*out = s;
	return 0;
}

const struct xd_store_ops xd_store_sqlite = {
	.name = "sqlite",
	.open = sq_open, .close = sq_close, .prepare = sq_prepare, .finalize = sq_finalize,
	.reset = sq_reset, .bind_int64 = sq_bind_int64, .bind_text = sq_bind_text,
	.bind_blob = sq_bind_blob, .step = sq_step, .col_int64 = sq_col_int64,
	.col_text = sq_col_text, .col_blob = sq_col_blob, .col_null = sq_col_null,
	.begin = sq_begin, .commit = sq_commit, .rollback = sq_rollback, .lease = sq_lease,
	.notify = sq_notify, .listen = NULL, .wait_notify = NULL,
	.durable = sq_durable, .open_upkeep = sq_open_upkeep, .upkeep = sq_upkeep,
};

