/*
 * exchange/store.h — the store of record behind gpuxd: one interface, two
 * backends. SQLite (store_sqlite.c) is the embedded default: one file, one
 * writer thread, `--db PATH`. PostgreSQL (store_pg.c, through libpq) is the
 * shared store of many gpuxd nodes: `--db postgresql://…` or any libpq
 * connection string, multi-host ones included.
 *
 * The interface is the statement: every read and write of the exchange is a
 * statement text in the SQL both engines understand (numbered parameters ?1,
 * ?2 …, INSERT … RETURNING id, INSERT … ON CONFLICT, a trailing FOR UPDATE
 * that SQLite, which has one writer, drops; a parameter tested with IS NULL
 * is written CAST(?N AS TEXT) so PostgreSQL knows its type). The backend
 * owns what differs: connections and their statement caches, the schema and
 * its migrations, the writer's transaction, locks, leases, notifications and
 * how an error is reported.
 *
 * Errors. SQLite errors are bugs: fatal(), as the single writer cannot go on
 * with an engine that no longer matches the file. A PostgreSQL error is a
 * fault of a kind (XD_FAULT_*): when the connection's on_fault is armed (the
 * writer arms it around a batch) the backend longjmps there; otherwise (the
 * HTTP threads' reads) it records the fault, the step returns XD_DONE, and the
 * request is answered 503 STORE_UNAVAILABLE instead of whatever the empty
 * result would have said. A lost connection is re-established on next use.
 */
#ifndef GPUX_EXCHANGE_STORE_H
#define GPUX_EXCHANGE_STORE_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { XD_DONE = 0, XD_ROW = 1 };

enum xd_fault {
	XD_FAULT_NONE = 0,
	XD_FAULT_RETRY,      /* deadlock or serialization failure: run it again */
	XD_FAULT_DOWN,       /* the database cannot be reached (or is read-only) */
	XD_FAULT_UNKNOWN,    /* the connection was lost during COMMIT */
};

/* The outcome of the writer's COMMIT. */
enum xd_commit { XD_COMMITTED = 0, XD_NOT_COMMITTED = -1, XD_COMMIT_UNKNOWN = -2 };

struct xd_q;             /* a prepared statement of one connection */
struct xd_store;

struct xd_store_ops {
	const char *name;    /* "sqlite", "postgresql" */
	/* Open a connection; the writer's also brings the schema up to date.
	 * 0, -1 and *cause, or -2 and *cause when the database cannot be
	 * reached now (down, a standby, refusing connections): worth trying
	 * again later. */
	int (*open)(struct xd_store *s, const char *target, char **cause);
	void (*close)(struct xd_store *s);
	struct xd_q *(*prepare)(struct xd_store *s, const char *sql);
	void (*finalize)(struct xd_q *q);
	void (*reset)(struct xd_q *q);      /* end the statement, clear its bindings */
	void (*bind_int64)(struct xd_q *q, int i, int64_t v);
	void (*bind_text)(struct xd_q *q, int i, const char *v);   /* kept until reset */
	void (*bind_blob)(struct xd_q *q, int i, const void *v, size_t n);
	int (*step)(struct xd_q *q);        /* XD_ROW or XD_DONE */
	/* Run a statement whose rows nobody reads, and reset it; the backend may
	 * send it on and report its failure with a later statement or the
	 * COMMIT (NULL: step and reset). */
	void (*exec)(struct xd_q *q);
	int64_t (*col_int64)(struct xd_q *q, int i);
	const char *(*col_text)(struct xd_q *q, int i);            /* NULL for NULL */
	const void *(*col_blob)(struct xd_q *q, int i, size_t *n);
	bool (*col_null)(struct xd_q *q, int i);
	/* The writer's transaction. begin reconnects first if it must. */
	void (*begin)(struct xd_store *s);
	enum xd_commit (*commit)(struct xd_store *s);
	void (*rollback)(struct xd_store *s);
	/* Hold key for the life of the connection if no other session holds it:
	 * true if held now. SQLite: always true (one node). */
	bool (*lease)(struct xd_store *s, int64_t key);
	/* Deliver payload on channel to the other nodes when the transaction
	 * commits. No-op for SQLite. */
	void (*notify)(struct xd_store *s, const char *channel, const char *payload);
	/* A listener connection: subscribe, then wait up to timeout_ms for one
	 * notification (1 and *payload owned, 0 on timeout, -1 if the connection
	 * is lost: subscribe again). NULL for SQLite. */
	int (*listen)(struct xd_store *s, const char *channel);
	int (*wait_notify)(struct xd_store *s, int timeout_ms, char **channel, char **payload);
	/* The writer's commits need not reach the disk until this is called
	 * again with true (a start-up transaction that the next start makes
	 * again if it is lost). NULL: every commit is durable. */
	void (*durable)(struct xd_store *s, bool on);
	/* Upkeep the backend wants done beside the writer, on a connection of
	 * its own, every few hundred milliseconds (SQLite: checkpoint the WAL
	 * into the database file, so that no commit waits for one). NULL: none.
	 * open_upkeep is called on the thread that then calls upkeep. */
	int (*open_upkeep)(const char *target, struct xd_store **out, char **cause);
	void (*upkeep)(struct xd_store *s);
};

extern const struct xd_store_ops xd_store_sqlite, xd_store_pg;

struct xd_store {
	const struct xd_store_ops *ops;
	void *impl;                 /* the backend's connection */
	bool writer;
	bool shared;                /* other nodes may write the same database */
	struct xd_stmt_slot { const char *sql; struct xd_q *q; } *stmts;
	size_t n_stmts;
	enum xd_fault fault;        /* the last fault, XD_FAULT_NONE if none */
	char fault_msg[256];
	jmp_buf *on_fault;          /* armed: a fault longjmps here with its kind */
	unsigned gen;               /* bumped whenever the connection is re-made */
	int commit_deadline_ms;     /* a COMMIT waits at most this long, then its outcome
	                               is unknown (XD_COMMIT_UNKNOWN); 0 = no bound */
};

/* The schema, defined once (schema.c) and rendered per dialect. Migration
 * v (1..xd_schema_versions()) takes a database from version v-1 to v;
 * xd_schema_sql returns its statements, each ending in ";\n", malloc'ed;
 * xd_schema_what says in a few words what it does. The backend runs them
 * in a transaction with its own record of the version. */
enum xd_dialect { XD_DIALECT_SQLITE, XD_DIALECT_PG };
size_t xd_schema_versions(void);
char *xd_schema_sql(enum xd_dialect d, size_t v);
const char *xd_schema_what(size_t v);

/* The backend for a --db value: PostgreSQL for a postgresql:// or
 * postgres:// URI or a key=value connection string, else SQLite. */
const struct xd_store_ops *xd_store_backend(const char *target);

/* A connection string as gpuxd may log it (conninfo.c): every password of
 * a PostgreSQL URI (user:PASSWORD@, ?password=, ?sslpassword=) or key=value
 * string (password=, sslpassword=, quoted or not) replaced by "***"; a SQLite
 * path as it is. Malloc'ed. */
char *xd_conninfo_redact(const char *target);
/* text (a message about target, e.g. libpq's error) with target shown
 * redacted wherever it is quoted and each of its passwords, as written and
 * as libpq decodes it, masked wherever it appears. Malloc'ed. */
char *xd_conninfo_scrub(const char *target, const char *text);

/* The libraries tried in turn for libpq, which is opened when the first
 * PostgreSQL store is (default {"libpq.so.5", NULL}; NULL-terminated, kept).
 * Call it before that, if at all. */
void xd_store_pg_libraries(const char *const *sonames);

/* Report a fault: longjmp to on_fault when armed, else record it. */
void xd_store_fault(struct xd_store *s, enum xd_fault kind, const char *msg);

/* Open, close, and the statement API (cached by the SQL text's pointer: pass
 * string literals); xd_stmt returns the statement reset, bindings cleared.
 * xd_store_open returns what the backend's open does (-2: not reachable now). */
int xd_store_open(const char *target, bool writer, struct xd_store **out, char **cause);
void xd_store_close(struct xd_store **s);
struct xd_q *xd_stmt(struct xd_store *s, const char *sql);
struct xd_store *xd_q_store(struct xd_q *q);
int xd_step(struct xd_q *q);
void xd_reset(struct xd_q *q);
void xd_bind_int64(struct xd_q *q, int i, int64_t v);
void xd_bind_int(struct xd_q *q, int i, int v);
void xd_bind_text(struct xd_q *q, int i, const char *v);
void xd_bind_blob(struct xd_q *q, int i, const void *v, size_t n);
int64_t xd_col_int64(struct xd_q *q, int i);
int xd_col_int(struct xd_q *q, int i);
const char *xd_col_text(struct xd_q *q, int i);
const void *xd_col_blob(struct xd_q *q, int i, size_t *n);
bool xd_col_null(struct xd_q *q, int i);
/* Step a statement that writes (a RETURNING row is allowed) and reset it. */
void xd_step_done(struct xd_store *s, struct xd_q *q);
/* Step an INSERT … RETURNING id: the new id, 0 if no row came back (ON
 * CONFLICT DO NOTHING). */
int64_t xd_step_id(struct xd_q *q);
void xd_exec(struct xd_store *s, const char *sql);
int64_t xd_meta_get(struct xd_store *s, const char *key, int64_t dflt);
void xd_meta_set(struct xd_store *s, const char *key, int64_t v);

/* The calling thread's read connection (opened on first use). */
struct xd_store *xd_store_reader(void);
/* Where read connections are opened from; close them all at shutdown. */
void xd_store_readers_init(const char *target);
void xd_store_readers_close(void);
/* The calling thread's read connection has had a fault since the last call
 * (which clears it): answer 503 rather than what the reads returned. */
bool xd_store_reader_fault(void);

#endif
