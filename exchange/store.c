/*
 * exchange/store.c — SQLite for gpuxd: one write connection (the writer
 * thread's) and one read-only connection per HTTP thread, all on the same
 * database file in WAL mode, so reads never wait for the writer and see only
 * committed transactions. synchronous=FULL: a COMMIT returns after the WAL is
 * on disk, which is what lets the writer acknowledge an order after it.
 *
 * Statements are prepared once per connection and cached by the address of
 * their SQL text (always a string literal), so callers write the SQL where it
 * is used. A failing write is a fatal error: the writer's in-memory books
 * would no longer match the database, and the cure is a restart, which
 * rebuilds them from what was committed.
 *
 * The writer never checkpoints (wal_autocheckpoint=0): a checkpoint copies
 * pages into the database file and syncs it, which would stall the commits
 * that acknowledge orders. A checkpointer thread of market.c does it instead,
 * on its own read-write connection (xd_store_open_checkpointer: a read-only
 * one cannot checkpoint), in PASSIVE mode (it never blocks the writer). Once
 * a checkpoint has copied the whole WAL the writer starts it again from the
 * beginning, and journal_size_limit cuts the file back to 4 MiB then, so the
 * WAL stays bounded however long gpuxd runs.
 *
 * Money columns are integer minor units; times are exchange-clock Unix ms.
 *
 * The schema is versioned (PRAGMA user_version): `schema` is version 1 (a
 * database made before versions were counted is version 0, the same
 * tables); each entry of `migrations` takes a database from the version
 * before it to its own, in one transaction with the new user_version, when
 * the writer opens the database. A database from a newer gpuxd is refused.
 */
#include "exchange/xd.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;"
	/* kind: customer, demo, external, clearing, vat. The exchange's own
	 * accounts (external/clearing/vat) may go negative; customers may not. */
	"CREATE TABLE IF NOT EXISTS accounts("
	" id INTEGER PRIMARY KEY, kind TEXT NOT NULL, key_hash BLOB UNIQUE,"
	" email TEXT, country TEXT, currency TEXT NOT NULL, role TEXT,"
	" available INTEGER NOT NULL DEFAULT 0, held INTEGER NOT NULL DEFAULT 0,"
	" created_ms INTEGER NOT NULL,"
	" CHECK (kind IN ('external','clearing','vat') OR (available >= 0 AND held >= 0)));"
	"CREATE TABLE IF NOT EXISTS orders("
	" id INTEGER PRIMARY KEY, account INTEGER NOT NULL, client_order_id TEXT,"
	" gpu TEXT NOT NULL, side TEXT NOT NULL, type TEXT NOT NULL, tif TEXT NOT NULL,"
	" gpus INTEGER NOT NULL, hours INTEGER NOT NULL, price INTEGER NOT NULL,"
	" unit INTEGER NOT NULL, status TEXT NOT NULL,"
	" filled INTEGER NOT NULL DEFAULT 0, remaining INTEGER NOT NULL,"
	" filled_value INTEGER NOT NULL DEFAULT 0, hold INTEGER NOT NULL DEFAULT 0,"
	" created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,"
	" UNIQUE(account, client_order_id));"
	"CREATE INDEX IF NOT EXISTS orders_resting ON orders(id) WHERE remaining > 0;"
	"CREATE TABLE IF NOT EXISTS trades("
	" id INTEGER PRIMARY KEY, gpu TEXT NOT NULL, price INTEGER NOT NULL, gpus INTEGER NOT NULL,"
	" hours INTEGER NOT NULL, buy_order INTEGER NOT NULL, sell_order INTEGER NOT NULL,"
	" maker_order INTEGER NOT NULL, taker_side TEXT NOT NULL, at_ms INTEGER NOT NULL);"
	"CREATE INDEX IF NOT EXISTS trades_gpu ON trades(gpu, id);"
	"CREATE INDEX IF NOT EXISTS trades_buy ON trades(buy_order);"
	"CREATE INDEX IF NOT EXISTS trades_sell ON trades(sell_order);"
	/* one rental per trade, with the trade's id */
	"CREATE TABLE IF NOT EXISTS rentals("
	" id INTEGER PRIMARY KEY, gpu TEXT NOT NULL, buyer INTEGER NOT NULL, seller INTEGER NOT NULL,"
	" buy_order INTEGER NOT NULL, sell_order INTEGER NOT NULL, gpus INTEGER NOT NULL, hours INTEGER NOT NULL,"
	" price INTEGER NOT NULL, net_unit INTEGER NOT NULL, vat_unit INTEGER NOT NULL,"
	" payout_unit INTEGER NOT NULL, hours_billed INTEGER NOT NULL, status TEXT NOT NULL,"
	" started_ms INTEGER NOT NULL, stopped_ms INTEGER, next_ms INTEGER,"
	" billed INTEGER NOT NULL DEFAULT 0, refunded INTEGER NOT NULL DEFAULT 0,"
	" paid_out INTEGER NOT NULL DEFAULT 0);"
	"CREATE INDEX IF NOT EXISTS rentals_buyer ON rentals(buyer, id);"
	"CREATE INDEX IF NOT EXISTS rentals_seller ON rentals(seller, id);"
	"CREATE INDEX IF NOT EXISTS rentals_due ON rentals(next_ms) WHERE status = 'active';"
	"CREATE TABLE IF NOT EXISTS ledger("
	" id INTEGER PRIMARY KEY, entry INTEGER NOT NULL, account INTEGER NOT NULL,"
	" bucket TEXT NOT NULL, currency TEXT NOT NULL, amount INTEGER NOT NULL, kind TEXT NOT NULL,"
	" order_id INTEGER, rental_id INTEGER, at_ms INTEGER NOT NULL);"
	"CREATE INDEX IF NOT EXISTS ledger_account ON ledger(account, id);"
	"CREATE INDEX IF NOT EXISTS orders_account ON orders(account, id);";

/* Version 2: API keys as rows of their own (several per account, named,
 * scoped, last use). The one key each account had moves there as a trade key
 * named "default"; accounts.key_hash stays, always NULL from then on. And an
 * index to find a customer by e-mail (one account per address). */
static const char migrate_v2[] =
	"CREATE TABLE api_keys("
	" id INTEGER PRIMARY KEY, account INTEGER NOT NULL, key_hash BLOB NOT NULL UNIQUE,"
	" name TEXT NOT NULL, scope TEXT NOT NULL CHECK (scope IN ('trade','read')),"
	" created_ms INTEGER NOT NULL, last_used_ms INTEGER, revoked_ms INTEGER);"
	"CREATE INDEX api_keys_account ON api_keys(account, id);"
	"CREATE INDEX accounts_email ON accounts(lower(email)) WHERE kind = 'customer';"
	"INSERT INTO api_keys(account, key_hash, name, scope, created_ms)"
	" SELECT id, key_hash, 'default', 'trade', created_ms FROM accounts"
	" WHERE key_hash IS NOT NULL ORDER BY id;"
	"UPDATE accounts SET key_hash = NULL WHERE key_hash IS NOT NULL;";

static const struct migration { int version; const char *sql; } migrations[] = {
	{ 2, migrate_v2 },
};
#define SCHEMA_VERSION 2

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

/* Bring the database to SCHEMA_VERSION (the writer, after `schema`). */
static int migrate(sqlite3 *db, const char *path, char **cause)
{
	int v;
	if (user_version(db, &v) != 0)
		return set_cause(cause, "%s: cannot read the schema version: %s", path, sqlite3_errmsg(db));
	if (v > SCHEMA_VERSION)
		return set_cause(cause, "%s: schema version %d is newer than this gpuxd's (%d): "
		                 "use the gpuxd that wrote it", path, v, SCHEMA_VERSION);
	for (size_t i = 0; i < sizeof migrations / sizeof migrations[0]; i++) {
		if (migrations[i].version <= v)
			continue;
		char *set = xasprintf("PRAGMA user_version=%d; COMMIT;", migrations[i].version);
		int rc = pragma(db, "BEGIN IMMEDIATE;", cause, path);
		if (rc == 0 && (rc = pragma(db, migrations[i].sql, cause, path)) != 0)
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		if (rc == 0)
			rc = pragma(db, set, cause, path);
		free(set);
		if (rc != 0)
			return -1;
		v = migrations[i].version;
	}
	return 0;
}

int xd_store_open(const char *path, bool writer, struct xd_store **out, char **cause)
{
	sqlite3 *db = NULL;
	int flags = writer ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
	flags |= SQLITE_OPEN_NOMUTEX;
	*out = NULL;
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		int rc = set_cause(cause, "%s: %s", path, db ? sqlite3_errmsg(db) : "cannot open");
		sqlite3_close(db);
		return rc;
	}
	sqlite3_busy_timeout(db, 10000);
	if (writer) {
		sqlite3_stmt *st = NULL;
		if (sqlite3_prepare_v2(db, "PRAGMA journal_mode=WAL", -1, &st, NULL) != SQLITE_OK ||
		    sqlite3_step(st) != SQLITE_ROW ||
		    strcmp((const char *)sqlite3_column_text(st, 0), "wal") != 0) {
			sqlite3_finalize(st);
			int rc = set_cause(cause, "%s: cannot switch to WAL mode: %s", path, sqlite3_errmsg(db));
			sqlite3_close(db);
			return rc;
		}
		sqlite3_finalize(st);
		if (pragma(db, "PRAGMA synchronous=FULL; PRAGMA foreign_keys=OFF;"
		               "PRAGMA wal_autocheckpoint=0; PRAGMA journal_size_limit=4194304;",
		           cause, path) ||
		    pragma(db, schema, cause, path) || migrate(db, path, cause)) {
			sqlite3_close(db);
			return -1;
		}
	} else if (pragma(db, "PRAGMA query_only=1;", cause, path)) {
		sqlite3_close(db);
		return -1;
	}
	struct xd_store *s = xcalloc(1, sizeof *s);
	s->db = db;
	s->writer = writer;
	*out = s;
	return 0;
}

int xd_store_open_checkpointer(const char *path, struct xd_store **out, char **cause)
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
	s->db = db;
	*out = s;
	return 0;
}

void xd_store_close(struct xd_store **sp)
{
	struct xd_store *s = *sp;
	if (!s)
		return;
	for (size_t i = 0; i < s->n_stmts; i++)
		sqlite3_finalize(s->stmts[i].st);
	free(s->stmts);
	sqlite3_close(s->db);
	free(s);
	*sp = NULL;
}

sqlite3_stmt *xd_stmt(struct xd_store *s, const char *sql)
{
	for (size_t i = 0; i < s->n_stmts; i++) {
		if (s->stmts[i].sql == sql) {
			sqlite3_stmt *st = s->stmts[i].st;
			sqlite3_reset(st);
			sqlite3_clear_bindings(st);
			return st;
		}
	}
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK)
		fatal("gpuxd: SQL error: %s in: %s", sqlite3_errmsg(s->db), sql);
	s->stmts = xreallocarray(s->stmts, s->n_stmts + 1, sizeof *s->stmts);
	s->stmts[s->n_stmts].sql = sql;
	s->stmts[s->n_stmts].st = st;
	s->n_stmts++;
	return st;
}

void xd_step_done(struct xd_store *s, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		fatal("gpuxd: database write failed: %s (%s)", sqlite3_errmsg(s->db), sqlite3_sql(st));
	sqlite3_reset(st);
}

void xd_exec(struct xd_store *s, const char *sql)
{
	xd_step_done(s, xd_stmt(s, sql));
}

int64_t xd_meta_get(struct xd_store *s, const char *key, int64_t dflt)
{
	sqlite3_stmt *st = xd_stmt(s, "SELECT value FROM meta WHERE key = ?1");
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	int64_t v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : dflt;
	sqlite3_reset(st);
	return v;
}

void xd_meta_set(struct xd_store *s, const char *key, int64_t v)
{
	sqlite3_stmt *st = xd_stmt(s, "INSERT INTO meta(key, value) VALUES(?1, ?2) "
	                              "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, v);
	xd_step_done(s, st);
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
	if (xd_store_open(readers_path, false, &my_reader, &cause) != 0)
		fatal("gpuxd: %s", cause);
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
