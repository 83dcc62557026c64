/*
 * exchange — gpuxd, the reference exchange: an HTTP+JSON API (docs/API.md)
 * over libmicrohttpd, per-GPU order books (engine.h), accounts, a
 * double-entry ledger and hourly billing in SQLite.
 *
 * Shape: HTTP threads (a libmicrohttpd thread pool) parse and validate a
 * request, answer reads from their own read-only SQLite connection, and hand
 * every write (order, cancel, deposit, signup, rental stop, clock) to ONE
 * writer thread through a queue, suspending the connection meanwhile. The
 * writer owns the engine and the write connection; it takes a batch of
 * queued jobs, runs them in one transaction, commits (group commit), and only
 * then answers them. On start the books are rebuilt from the database.
 *
 * This header is what gpuxd's main and the tests need: the daemon's
 * configuration and entry point, and the pure money arithmetic (the rounding
 * rules of docs/API.md) so unit tests can hold it to the documented figures.
 */
#ifndef GPUX_EXCHANGE_H
#define GPUX_EXCHANGE_H

#include <stdbool.h>
#include <stdint.h>

#define EXCHANGE_VERSION "0.1.0"

enum exchange_state { EXCHANGE_PRE_OPEN = 0, EXCHANGE_OPEN = 1, EXCHANGE_HALTED = 2 };

struct exchange_config {
	const char *listen;         /* "HOST:PORT" (port 0: the kernel picks), or NULL */
	const char *socket_path;    /* Unix socket path (mode 0600), or NULL */
	const char *port_file;      /* write the bound TCP port here, or NULL */
	const char *db_path;        /* SQLite database file */
	const char *data_dir;       /* catalogue directory, NULL = embedded */
	const char *admin_key_file; /* first line = the operator's admin key, or NULL */
	bool demo;                  /* demo market, simulated payments, open admin routes */
	int state;                  /* enum exchange_state, or -1 for the default */
	int64_t opens_at_ms;        /* announced opening (Unix ms), or -1 */
	double clock_speed;         /* exchange seconds per real second (> 0) */
	uint64_t seed;              /* demo drift seed */
	int rate_per_key;           /* requests/s per API key, 0 = unlimited */
	int rate_per_addr;          /* requests/s per client address, 0 = unlimited */
	int threads;                /* HTTP threads per listening socket */
	bool quiet;                 /* no per-request log lines */
	int stream_backlog;         /* market-stream events kept for replay, 0: default */
	/* docs/API.md "Limits": per listening socket */
	int max_conns;              /* request connections (default 1024) */
	int max_conns_per_addr;     /* ... from one client address (default 128) */
	int max_streams;            /* streaming connections (default 2048) */
	int max_streams_per_addr;   /* ... from one client address (default 512) */
	int header_timeout_s;       /* a complete request header within (default 5) */
	int body_timeout_s;         /* the whole body within, after the header (default 5) */
	int idle_exit_s;            /* exit after this long without a connection; 0 = never */
	const char *pid_file;       /* written at start, removed at exit, or NULL */
	const char *topup_url;      /* how to top up (GET /v1/market "topup"), or NULL */
	const char *topup_text;     /* the same in words, or NULL */
	/* docs/API.md "Limits": behind a load balancer, and under load */
#define EXCHANGE_TRUSTED_MAX 32
	const char *trusted_proxies[EXCHANGE_TRUSTED_MAX];   /* CIDR ranges, as given */
	int n_trusted_proxies;
	int signup_limit;           /* new accounts per client address a minute (default 20; 0 = off) */
	int queue_wait_ms;          /* refuse writes that would wait longer for their answer (default 50) */
	int commit_deadline_ms;     /* STORE_OUTCOME_UNKNOWN after this long in COMMIT (default 5000) */
};

/* Fill *c with the defaults (listen 127.0.0.1:8420, db gpuxd.db, speed 1, …). */
void exchange_config_defaults(struct exchange_config *c);

/* Run gpuxd until SIGINT or SIGTERM: open the database, rebuild the books,
 * seed the demo market if asked, listen, serve. Returns 0 after a clean
 * shutdown, or -1 with *cause (malloc'ed) if it could not start. */
int exchange_run(const struct exchange_config *c, char **cause);

/* The operator's top-up instructions, checked before they are served to
 * every client: url NULL or an http:// or https:// URL of printable ASCII
 * (no spaces, quotes or angle brackets), at most 512 bytes; text NULL or
 * valid UTF-8 without control characters, 1..1000 bytes. 0, or -1 and
 * *cause (malloc'ed) naming the flag. */
int exchange_topup_check(const char *url, const char *text, char **cause);

/* Parse "2025-06-02T09:00:00Z" (also with a fraction of a second, or an
 * offset like +01:00) to Unix milliseconds; 0 on success, -1 if malformed or
 * if the instant is outside the years 0000..9999 UTC. */
int exchange_parse_time(const char *s, int64_t *ms);

/* ---- money: docs/API.md "Money, VAT, FX and rounding" ---------------------- */
/* Net price of one GPU-hour at price_cents (US cents) in a currency whose rate
 * is rate_micro units per USD × 10^6: ceil(price × rate / 10^6). */
int64_t exchange_net_unit(int64_t price_cents, int64_t rate_micro);
/* VAT on a net amount at vat_bp basis points: ceil(net × bp / 10^4). */
int64_t exchange_vat_unit(int64_t net_minor, int32_t vat_bp);
/* What a buyer pays per GPU-hour, VAT included: net_unit + vat_unit. */
int64_t exchange_unit(int64_t price_cents, int64_t rate_micro, int32_t vat_bp);
/* What a seller gets per GPU-hour: floor(price × rate / 10^6). */
int64_t exchange_payout_unit(int64_t price_cents, int64_t rate_micro);
/* The same for a currency whose ISO 4217 minor unit has `exponent` digits
 * (the functions above are exponent 2: cents, pence): a price of p US cents
 * is p × rate / 10^8 major units, so ceil(p × rate × 10^exponent / 10^8)
 * minor units for the buyer and the floor for the seller, exact in 128-bit
 * integers (JPY 0: 419 cents at 150 JPY/USD is ceil(628.5) = 629 yen; KWD 3:
 * at 0.307 KWD/USD, ceil(1286.33) = 1287 fils). */
int64_t exchange_net_unit_e(int64_t price_cents, int64_t rate_micro, int exponent);
int64_t exchange_unit_e(int64_t price_cents, int64_t rate_micro, int exponent, int32_t vat_bp);
int64_t exchange_payout_unit_e(int64_t price_cents, int64_t rate_micro, int exponent);
/* The exchange's trade fee on a seller's payout per GPU-hour at fee_bp basis
 * points: floor(payout × bp / 10^4) — never more than the stated rate. */
int64_t exchange_fee_unit(int64_t payout_unit, int32_t fee_bp);

#endif
