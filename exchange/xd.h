/*
 * exchange/xd.h — gpuxd's internal interfaces, shared by the files of
 * exchange/ only (others include exchange/exchange.h). Every name here has
 * the prefix xd_.
 *
 *   tables.c   the catalogue's GPU ids, VAT and FX tables, served JSON files
 *   reply.c    replies and errors, JSON output helpers, times
 *   body.c     strict validation of request bodies
 *   store.c    the store interface (store.h): backends, statements, readers
 *   store_sqlite.c, store_pg.c   its SQLite and PostgreSQL backends
 *   reads.c    JSON views of accounts, orders, rentals, ledger, trades
 *   market.c   the writer thread: queue, group commit, clock, snapshot
 *   ops.c      what the writer does: orders, fills, holds, billing, ledger
 *   lots.c     a sell's lot and a buy's requirements: defaults, rows, JSON
 *   jobs.c     job orders: a fit job evaluated on every GPU book, the cheapest
 *              runnable bought as one FOK order
 *   demo.c     the demo market and its drift
 *   nodes.c    what the writer does with one node or many: book locks,
 *              balances, ledger numbering, notifications, the lease
 *   peers.c    a shared store's listener: what the other nodes did
 *   http.c     libmicrohttpd, per-request state, rate limits, logging
 *   guard.c    connection caps and deadlines, strict request line and headers,
 *              log fields safe on a terminal
 *   proxy.c    client keys (IPv4, IPv6 /64), trusted proxies, the PROXY
 *              protocol and X-Forwarded-For, the front door that reads them
 *   routes.c   the router and the handlers
 *   stream.c   GET /v1/stream: the hub, its event ring, SSE connections
 *   candles.c  GET /v1/candles/{gpu}: OHLC from the trades table
 *   keys.c     API keys: lookup, scopes, last use, GET/POST/DELETE /v1/keys
 *   settings.c settings as state: market state, opening, top-up, fees,
 *              currencies and FX; the audit; the scheduled opening
 *   admin.c    admin keys, the operator's reads (accounts, ledger, audit)
 *   money.c    money in and out: deposits by reference, reversals, debts,
 *              withdrawals, the trade fee, FX units per currency exponent
 *   conninfo.c connection strings without their passwords
 *   trig.c     price triggers (trig.h, pure): "at or below / above" indexes
 *   watch.c    after each change of a book: its alerts and conditional orders
 *   alerts.c   GET/POST/DELETE /v1/alerts and what a firing writes
 *   cond.c     conditional (trigger), one-cancels-other and standing orders
 *   renew.c    renewals: the one mechanism that extends or replaces a rental
 *   events.c   the account's event log (the stream's account channel,
 *              GET /v1/events)
 */
#ifndef GPUX_EXCHANGE_XD_H
#define GPUX_EXCHANGE_XD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "exchange/engine.h"
#include "exchange/exchange.h"
#include "exchange/store.h"
#include "fit/fit.h"

#define XD_BODY_MAX 16384
/* --queue-wait's default, ms: see xd_market_submit */
#define XD_QUEUE_WAIT_MS 50
#define XD_GPUS_MAX 512
#define XD_HOURS_MAX 720
#define XD_PRICE_MAX 1000000
#define XD_DEPOSIT_MAX 100000000000LL
#define XD_COID_MAX 64
#define XD_EMAIL_MAX 254
#define XD_DEPTH_MAX 100
#define XD_LIMIT_MAX 200
#define XD_ADVANCE_MAX 31536000LL
#define XD_HOUR_MS 3600000LL
#define XD_QUERY_VALUE_MAX 256
#define XD_HEADER_MEMORY 32768   /* libmicrohttpd's memory per connection: header + URL */
#define XD_KEY_NAME_MAX 64
#define XD_KEYS_MAX 20           /* active keys per account */
#define XD_TOPUP_URL_MAX 512
#define XD_TOPUP_TEXT_MAX 1000
#define XD_CPU_CORES_MAX 4096     /* per node: an ask's host, a bid's minimums */
#define XD_RAM_GB_MAX 65536
#define XD_DISK_GB_MAX 1000000

/* Currencies are data (settings.c: the operator lists them); an account's
 * currency is an index into the settings' list, which only grows. */
#define XD_CUR_MAX 64
#define XD_REF_MAX 64           /* a deposit's or withdrawal's reference */
#define XD_ARG_MAX 255          /* a string argument of an admin job */
enum xd_role { XD_ROLE_BUYER = 0, XD_ROLE_SELLER = 1, XD_ROLE_BOTH = 2 };
extern const char *const xd_role_names[4];
extern const char *const xd_state_names[4];            /* enum exchange_state */
/* Index of s in a NULL-terminated list, or -1. */
int xd_lookup(const char *const *list, const char *s);

/* ---- tables.c ------------------------------------------------------------ */
struct xd_vat { char country[3]; int32_t bp; };
struct xd_region { char *id, *name; };
#define XD_REGION_ID_MAX 32
struct xd_tables {
	size_t n_gpus;
	char **gpu_ids;              /* catalogue order; the index is the engine's book */
	int64_t *demo_from_cents;    /* the seeds' "from" price, -1 if none */
	uint8_t *gpu_link;           /* per GPU: its nodes' link (enum eng_link) by its form factor */
	bool *gpu_bridge;            /* per GPU: a PCIe card that also comes as NVLink-bridged pairs */
	struct xd_region *regions;   /* data/regions.json, in order; the index is the engine's */
	size_t n_regions;
	struct fit_gpu *fit_gpus;    /* per GPU: the fit model's view of it (no price) */
	char *gpus_json;             /* served by GET /v1/gpus, verbatim */
	char *workloads_json;        /* served by GET /v1/workloads */
	struct xd_vat *vat;          /* sorted by country */
	size_t n_vat;
	char *vat_date, *vat_source;
	/* data/fx.json: what a new database's currencies start with */
	struct xd_fx_seed { char code[4]; int exponent; int64_t rate_micro; } fx[XD_CUR_MAX];
	size_t n_fx;
	char *fx_date, *fx_note;
	int64_t fx_date_ms;          /* fx_date, midnight UTC */
};
/* Load from dir (NULL = embedded files); -1 and *cause naming file and field. */
int xd_tables_load(const char *dir, struct xd_tables **out, char **cause);
void xd_tables_free(struct xd_tables **t);
int xd_tables_gpu(const struct xd_tables *t, const char *id);      /* index or -1 */
int32_t xd_tables_vat(const struct xd_tables *t, const char *cc);  /* bp or -1 */
int xd_tables_region(const struct xd_tables *t, const char *id);   /* index or -1 */
/* Can GPU gpu's nodes of node_gpus have link (enum eng_link)? SXM: NVLink, OAM:
 * Infinity Fabric, PCIe: PCIe, or NVLink for bridged cards in nodes of <= 2. */
bool xd_tables_link_ok(const struct xd_tables *t, int gpu, int link, int32_t node_gpus);

/* ---- reply.c ------------------------------------------------------------- */
struct xd_reply {
	int status;          /* 0 = not answered yet */
	cJSON *body;         /* owned; NULL for 304 or a raw body */
	char *raw;           /* owned JSON text sent as is (catalogue files), or NULL */
	char *etag;          /* owned, or NULL */
	int retry_after;     /* seconds, 0 = none */
	char *allow;         /* owned "GET, POST" for a 405, or NULL */
	void *response;      /* a ready struct MHD_Response (the stream), queued as is */
};
/* Set the reply to (status, body), taking ownership of body. */
void xd_reply_json(struct xd_reply *r, int status, cJSON *body);
/* Set an error reply {"error":{"code","message"}} and return the inner error
 * object (owned by the reply) so the caller can add fields. Returns NULL-safe. */
cJSON *xd_reply_error(struct xd_reply *r, int status, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A validation error: like xd_reply_error (status 400) with "field". */
cJSON *xd_reply_field(struct xd_reply *r, const char *code, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void xd_reply_clear(struct xd_reply *r);
/* Move src into dst (dst cleared first); src is left empty. */
void xd_reply_move(struct xd_reply *dst, struct xd_reply *src);

/* JSON output: exact integers (raw, never through a double), strings or null. */
void xd_jint(cJSON *o, const char *k, int64_t v);
void xd_jint_or_null(cJSON *o, const char *k, int64_t v, bool present);
void xd_jstr(cJSON *o, const char *k, const char *s);  /* NULL -> null */
/* Exchange-clock time as ISO 8601 UTC; ms < 0 -> null. */
void xd_jtime(cJSON *o, const char *k, int64_t ms);
/* Format ms as "2025-06-02T09:00:00Z" into out (at least 32 bytes). */
void xd_time_fmt(int64_t ms, char *out, size_t size);

/* ---- body.c: strict request bodies ---------------------------------------- */
/* Parse a body (UTF-8 JSON object, nothing after it). An empty body is {}
 * when allow_empty. 0 and *out (owned), or -1 with an error reply. */
int xd_body_parse(const char *data, size_t len, bool allow_empty, cJSON **out, struct xd_reply *r);
/* Every member's name must be in allowed (NULL-terminated), and appear once. */
int xd_body_fields(const cJSON *o, const char *const *allowed, struct xd_reply *r);
/* Integer member in [min, max]. Returns 1 if present (and *out set), 0 if
 * absent and not required, -1 with an error reply otherwise. */
int xd_body_int(const cJSON *o, const char *k, bool required, int64_t min, int64_t max,
                int64_t *out, struct xd_reply *r);
/* String member, 1..maxlen bytes. *out points into o. Same returns. */
int xd_body_str(const cJSON *o, const char *k, bool required, size_t maxlen,
                const char **out, struct xd_reply *r);
/* String member that must be one of vals (NULL-terminated); *out its index. */
int xd_body_enum(const cJSON *o, const char *k, bool required, const char *const *vals,
                 int *out, struct xd_reply *r);
/* Boolean member (true/false). Same returns. */
int xd_body_bool(const cJSON *o, const char *k, bool required, bool *out, struct xd_reply *r);
/* Valid UTF-8 without NUL? */
bool xd_utf8_valid(const char *s, size_t len);

/* ---- reads.c ------------------------------------------------------------- */
struct xd_ctx;
/* JSON of an order (with fills if asked); NULL if it is not account's. */
cJSON *xd_read_order(struct xd_store *s, const struct xd_tables *t, int64_t account, int64_t id,
                     bool fills);
/* Account JSON (balances from the database, its currency's rate from set,
 * now the exchange clock). NULL if there is no such account. */
struct xd_settings;
cJSON *xd_read_account(struct xd_store *s, const struct xd_tables *t,
                       const struct xd_settings *set, int64_t now, int64_t id);
cJSON *xd_read_rental(struct xd_store *s, const struct xd_tables *t, int64_t account, int64_t id);
/* Parse the list query (limit, cursor) — defaults and ranges of docs/API.md. */
struct xd_page { int64_t limit; int64_t before; };  /* before = INT64_MAX: first page */
cJSON *xd_read_orders(struct xd_store *s, const struct xd_tables *t, int64_t account, const char *status_filter,
                      const char *gpu, const char *side, const char *coid,
                      const struct xd_page *p);
cJSON *xd_read_rentals(struct xd_store *s, const struct xd_tables *t, int64_t account, const char *status_filter,
                       const char *gpu, const struct xd_page *p);
cJSON *xd_read_ledger(struct xd_store *s, int64_t account, const struct xd_page *p);
cJSON *xd_read_trades(struct xd_store *s, const char *gpu, const struct xd_page *p);

/* ---- market.c + ops.c: the writer --------------------------------------- */
enum xd_job_kind {
	XD_JOB_ORDER, XD_JOB_PREVIEW, XD_JOB_CANCEL, XD_JOB_ACCOUNT,
	XD_JOB_STOP, XD_JOB_CLOCK,
	XD_JOB_KEY_CREATE, XD_JOB_KEY_REVOKE,
	XD_JOB_BOOK,                 /* a ladder by node size: the engine's book, not the snapshot */
	XD_JOB_RUN,                  /* j->run: settings.c, admin.c, money.c */
	XD_JOB_ALERT_ADD, XD_JOB_ALERT_DEL,
};
enum xd_otype { XD_LIMIT = 0, XD_MARKET = 1 };
extern const char *const xd_side_names[3], *const xd_type_names[3], *const xd_tif_names[4];
/* enum eng_link by index: "any" (a bid that requires none), "nvlink", "infinity-fabric",
 * "pcie"; NULL-terminated. */
extern const char *const xd_link_names[5];

/* A price condition (docs/API.md "Alerts", "Conditional orders"): which
 * price crosses which threshold; alerts add the conditions that are not
 * about a price. XD_WHEN_NONE (0) is "no condition". */
enum xd_when {
	XD_WHEN_NONE = 0,
	XD_WHEN_ASK_LTE, XD_WHEN_ASK_GTE, XD_WHEN_BID_LTE, XD_WHEN_BID_GTE,
	XD_WHEN_LAST_LTE, XD_WHEN_LAST_GTE, XD_WHEN_SPREAD_LTE, XD_WHEN_SPREAD_GTE,
	XD_WHEN_RENTAL_ENDING, XD_WHEN_ORDER_FILLED,
	XD_WHEN_JOB_TOTAL_LTE,       /* a job's cheapest total (jobalerts.c) */
	XD_WHEN_N
};
extern const char *const xd_when_names[XD_WHEN_N + 1];   /* [0] "", NULL-terminated */
/* The condition named s (XD_WHEN_NONE if none). */
int xd_when_lookup(const char *s);
/* Which price a price condition watches, and whether "at or below" (else "at
 * or above"); false for the conditions that are not about a price. */
enum xd_metric { XD_M_ASK, XD_M_BID, XD_M_LAST, XD_M_SPREAD };
bool xd_when_price(int when, enum xd_metric *metric, bool *lte);

struct xd_trigger {
	int when;                    /* enum xd_when; a price condition, or NONE */
	int64_t price;               /* cents: the threshold */
	int32_t node_gpus;           /* 0: any capacity (units of 1) */
	int region;                  /* -1: any */
};
/* What makes an order conditional, one-cancels-other or standing. */
struct xd_cond_in {
	struct xd_trigger trigger;   /* when NONE: not conditional */
	char oco[XD_COID_MAX + 1];   /* "" for none */
	bool standing;               /* keep gpus for periods of hours at <= price */
};

struct xd_order_in {
	char coid[XD_COID_MAX + 1];  /* "" for none (preview, demo) */
	int gpu;
	enum eng_side side;
	enum xd_otype type;
	enum eng_tif tif;
	int32_t gpus, hours;
	int64_t price;               /* limit, or the market order's cap/floor */
	/* a sell's lot, a buy's requirements (docs/API.md "The market's rules");
	 * zero is the default of each (xd_order_norm fills in a sell's) */
	int32_t node_gpus;           /* 0 or 1, 2, 4, 8 */
	int link;                    /* enum eng_link: a sell's, a buy's required (ANY: none) */
	int region;                  /* sell: index in the tables' regions */
	uint64_t regions;            /* buy: bit r for region r; 0: any */
	struct eng_host host;        /* sell: per node (0: not stated); buy: minimums */
	bool whole_nodes;            /* sell */
	/* a job order (docs/API.md "Job orders"): the fit job instead of a GPU */
	bool is_job;
	struct fit_job fit;
	char fit_label[65];          /* the job's "model", "" if none */
	int32_t job_hours;           /* as given; 0: the training run's */
	int64_t max_total;           /* the budget, minor units of the account's currency */
	/* what a job order's row keeps (borrowed; NULL for any other order) */
	const char *job_text, *alternatives;
	struct xd_cond_in cond;      /* trigger, oco_group, standing (cond.c) */
};

#define XD_LABEL_MAX 64
/* POST /v1/alerts, validated (alerts.c). */
struct xd_alert_in {
	int when;                    /* enum xd_when */
	int gpu;                     /* price conditions; -1 otherwise */
	int64_t price, rearm;        /* price conditions (rearm 0: fires once) */
	int32_t node_gpus;           /* 0: any */
	int region;                  /* -1: any */
	int32_t minutes;             /* RENTAL_ENDING */
	int64_t rental_id, order_id; /* 0: any of the account's */
	int64_t expires_ms;          /* -1: never */
	char label[XD_LABEL_MAX + 1];
};

struct xd_writer;
struct xd_job {
	enum xd_job_kind kind;
	int64_t account;             /* the caller; 0 for none/admin */
	bool admin;
	struct xd_order_in order;    /* ORDER, PREVIEW */
	int64_t target;              /* order id, rental id, deposit's account */
	int64_t amount;              /* deposit */
	int64_t advance_ms;          /* CLOCK */
	struct eng_filter filter;    /* BOOK (and its depth in amount) */
	/* RUN: the writer calls run(w, j); the handler put what it validated in
	 * the fields below (their meaning is the handler's and run's) */
	void (*run)(struct xd_writer *w, struct xd_job *j);
	int64_t admin_key_id;        /* the admin key that acted (audit), 0: none (demo) */
	int64_t n[6];
	bool flag[4];
	char str[3][XD_ARG_MAX + 1];
	char text[XD_TOPUP_TEXT_MAX + 1];
	/* ACCOUNT */
	char email[XD_EMAIL_MAX + 1];
	char country[3];
	int cur, role;
	unsigned char key_hash[32];
	/* KEY_CREATE (and key_hash), KEY_REVOKE (target = the key's id) */
	char key_name[XD_KEY_NAME_MAX + 1];   /* "" = the exchange names it */
	int key_scope;               /* enum xd_scope */
	struct xd_alert_in alert;    /* ALERT_ADD (ALERT_DEL: target = its id); a job
	                                alert's job, hours and regions are in order */
	int64_t key_id;              /* the key that made the request */
	bool replayed;               /* ORDER: stored meanwhile by another node */
	/* shared store: the GPU whose book the job matches on (-1: none); left
	 * for the next batch while another node holds that book, and how often */
	int book;
	bool deferred;
	int defers;
	/* result, set by the writer before done() */
	struct xd_reply reply;
	void (*done)(struct xd_job *j);  /* called on the writer thread after commit */
	void *arg;
	struct xd_job *next;
	int64_t queued_us;           /* when it was queued (admission by time) */
	int64_t arrived_us;          /* when its whole request had been read (0: = queued_us) */
};

struct xd_market_config {
	const struct xd_tables *tables;
	const char *db_path;
	bool demo;
	const char *admin_key;       /* --admin-key-file's key: the bootstrap admin key */
	/* what a new database starts with (settings.c); an existing one keeps
	 * its own settings and these are only compared, for the log */
	int state;
	bool state_given;            /* --market given (else the default of demo or not) */
	int64_t opens_at_ms;
	const char *topup_url, *topup_text;
	bool quiet;
	double clock_speed;
	uint64_t seed;
	size_t stream_backlog;       /* events the stream keeps for replay; 0: default */
	int queue_wait_ms;           /* admission: a write's longest wait for its answer */
	int commit_deadline_ms;      /* a COMMIT's longest wait (a shared store) */
};
struct xd_market;
/* Open the store, rebuild the books, start the writer: 0 and *out; -1 and
 * *cause; or -2 and *cause when the database cannot be reached now (run.c
 * then answers 503 and tries again). */
int xd_market_open(const struct xd_market_config *c, struct xd_market **out, char **cause);
/* Finish queued jobs, stop the writer, close the database. */
void xd_market_close(struct xd_market **m);
/* Queue a job (the writer calls j->done after commit). 0; or the caller
 * answers 503 itself: XD_SUBMIT_CLOSED when the market is shutting down,
 * XD_SUBMIT_BUSY when the job would not be answered within queue_wait_ms
 * (XD_QUEUE_WAIT_MS if 0) of its arrival (j->arrived_us): by what the
 * writer's batches and COMMITs have cost lately, the batch under way and
 * the jobs queued before it would take longer, or the oldest job not yet
 * answered (in the batch under way or queued) has already waited longer
 * (or the queue holds its backstop count) — never for a cancel, a read (a
 * ladder by node size, a preview) or an admin job, which are always
 * queued. */
enum { XD_SUBMIT_CLOSED = -1, XD_SUBMIT_BUSY = -2 };
int xd_market_submit(struct xd_market *m, struct xd_job *j);
/* Would a write that arrived at arrived_us be refused as overload if it
 * were queued now (as xd_market_submit decides)? Asked before the work of
 * reading a request's key and body (http.c, xd_route_sheds). */
bool xd_market_busy(struct xd_market *m, int64_t arrived_us);
/* The answer to a write refused as overload (XD_SUBMIT_BUSY; or, queued,
 * when its batch was about to run and it could no longer be answered within
 * the bound): 503 UNAVAILABLE, Retry-After: 1. */
void xd_reply_overloaded(struct xd_reply *r);
/* GET /v1/ready: can this node commit now? true, or false with *why (a
 * static English sentence): shutting down, a commit stuck or failed, no
 * successful write probe lately. */
bool xd_market_ready(struct xd_market *m, const char **why);
/* Run a job on the calling thread and wait for it (tests, start-up). */
void xd_market_call(struct xd_market *m, struct xd_job *j);
/* Exchange clock now (Unix ms), thread-safe. */
int64_t xd_market_now(struct xd_market *m);
/* GET /v1/market body, from the published settings (or from s). */
cJSON *xd_market_info(struct xd_market *m);
cJSON *xd_market_info_of(struct xd_market *m, const struct xd_settings *s);
/* GET /v1/quotes, rendered once per change of the market's seq and served
 * from that text with only this request's server_time added: 0 and *body
 * (the JSON text and a newline, malloc'ed), or 1 (304: etag_in matches)
 * and *body NULL; *etag (malloc'ed) either way. */
int xd_market_quotes_text(struct xd_market *m, const char *etag_in, char **body, char **etag);
/* GET /v1/books/{gpu} without a filter, to depth (1..XD_DEPTH_MAX): as
 * xd_market_quotes_text, rendered once per seq for each (gpu, depth). */
int xd_market_book_text(struct xd_market *m, int gpu, int depth, const char *etag_in,
                        char **body, char **etag);
/* GET /v1/books/{gpu}?node_gpus=…: the ladders of engine e's book gpu for
 * units under f (the writer, its copy of the book current). */
cJSON *xd_market_book_for(struct xd_market *m, const struct engine *e, int gpu,
                          const struct eng_filter *f, int depth);
const struct xd_tables *xd_market_tables(const struct xd_market *m);
/* What other nodes of a shared store did (peers.c): a book's depth and last
 * price (-1 none), the market state, the admin clock's total advance. */
struct xd_unit_quotes;
void xd_market_put_book(struct xd_market *m, int gpu, const struct eng_level *ask, size_t n_ask,
                        const struct eng_level *bid, size_t n_bid, int64_t last,
                        const struct xd_unit_quotes *u);
/* A trade another node made (peers.c), for this node's stream. */
void xd_market_put_trade(struct xd_market *m, int gpu, int64_t id, int64_t price, int32_t gpus,
                         int32_t hours, int taker_side, int64_t at_ms);
/* This process's boot id (ETags, stream ids, notifications). */
const char *xd_market_boot(const struct xd_market *m);
void xd_market_put_offset(struct xd_market *m, int64_t offset);
/* The seq of the market data published last (GET /v1/quotes). */
uint64_t xd_market_seq(struct xd_market *m);
/* peers.c: the listener of a shared store. */
struct xd_peers;
int xd_peers_start(struct xd_market *m, const char *target, struct xd_peers **out, char **cause);
void xd_peers_stop(struct xd_peers **p);
bool xd_market_demo(const struct xd_market *m);

/* ---- lots.c: lots and requirements ---------------------------------------- */
/* The columns of an order row that hold its lot or requirements, in the order
 * xd_lot_bind binds and xd_lot_from_row reads them. */
#define XD_LOT_COLS "node_gpus, interconnect, region, regions, cpu_cores, ram_gb, disk_gb, " \
	"whole_nodes"
/* Fill in a request's defaults: node_gpus 1; a sell's link from its GPU; what
 * belongs to the other side cleared. */
void xd_order_norm(const struct xd_tables *t, struct xd_order_in *in);
/* The engine's order for in (normalised), with its id and account. */
void xd_order_engine(const struct xd_order_in *in, int64_t id, int64_t account,
                     struct eng_order *e);
/* Do two normalised requests name the same lot or requirements? */
bool xd_lot_same(const struct xd_order_in *a, const struct xd_order_in *b);
/* Bind XD_LOT_COLS as parameters first..first+7; *regions_text (malloc'ed or
 * NULL) is bound and must live until the statement has run. */
void xd_lot_bind(struct xd_q *st, int first, const struct xd_tables *t,
                 const struct xd_order_in *in, char **regions_text);
/* Read XD_LOT_COLS from column first on (in->side set; gpu for a sell's default
 * link, -1 if unknown). */
void xd_lot_from_row(const struct xd_tables *t, struct xd_q *st, int first, int gpu,
                     struct xd_order_in *in);
/* A buy's regions as stored ("eu-west,us-east", malloc'ed; NULL for any) and
 * back (-1 if the text names a region the tables do not have, or none). */
char *xd_regions_text(const struct xd_tables *t, uint64_t mask);
int xd_regions_parse(const struct xd_tables *t, const char *text, uint64_t *mask);
/* o[key]: the stored regions as an array of ids, or null. */
void xd_regions_json(cJSON *o, const char *key, const char *text);
/* A lot's nodes as stored ("8,8,3", "1*512"; malloc'ed) and back (each node
 * 0..k free; 0 and *out malloc'ed, or -1). */
char *xd_nodes_text(const struct eng_node *nd, size_t n);
int xd_nodes_parse(const char *text, int32_t k, struct eng_node **out, size_t *n);
/* A fill's takes as a rental stores them ("index:gpus,…", malloc'ed), and as
 * JSON o[key]: [{"node":"o<sell>-<index+1>","gpus":N}], null for NULL. */
char *xd_takes_text(const struct eng_take *tk, int32_t n);
void xd_nodes_json(cJSON *o, const char *key, int64_t sell_order, const char *takes);
/* An order's lot or requirements as its JSON says them (docs/API.md, POST
 * /v1/orders): a sell's node_gpus, interconnect, region, cpu_cores, ram_gb,
 * disk_gb, whole_nodes; a buy's node_gpus, interconnect (null: any), regions
 * (null: any), min_cpu_cores, min_ram_gb, min_disk_gb. */
void xd_request_json(cJSON *o, const struct xd_tables *t, const struct xd_order_in *in);
/* node_gpus, interconnect, region, host{cpu_cores, ram_gb, disk_gb} of a lot. */
void xd_lot_json(cJSON *o, const struct xd_tables *t, const struct xd_order_in *lot);
/* What quotes say of the asks beside the top of the book: the best price (and
 * the GPUs at it) for units of 1 — whole-node lots of more than one GPU left
 * out — and for whole units of 8 GPUs inside one node (and the units at it). */
struct xd_unit_quotes { bool has1, has8; struct eng_level l1, l8; };
void xd_unit_quotes_of(const struct engine *e, size_t book, struct xd_unit_quotes *q);
bool xd_unit_quotes_differ(const struct xd_unit_quotes *a, const struct xd_unit_quotes *b);
/* One GPU's quote as GET /v1/quotes and the stream give it (bid NULL: none). */
cJSON *xd_quote_json(const char *gpu, const struct xd_unit_quotes *u, const struct eng_level *bid,
                     int64_t last);
/* Restore GPU gpu's resting orders (every GPU's when gpu < 0, each into its own
 * book) into book `book` of e, in acceptance order; -1 and *cause when a row
 * cannot be (an unknown GPU or region, nodes that do not add up). */
int xd_book_load(struct xd_store *st, const struct xd_tables *t, struct engine *e, int gpu,
                 size_t book, char **cause);

/* ---- jobs.c: job orders ------------------------------------------------------ */
/* The body of a job order (b holds "job"), after its client_order_id: 0 and
 * o->is_job, or -1 with a 400 reply. */
int xd_parse_job(const struct xd_tables *t, const cJSON *b, struct xd_order_in *o,
                 struct xd_reply *r);
/* A buy's "regions" (routes.c): 1 with *mask, 0 if absent, -1 with a reply. */
int xd_parse_regions(const struct xd_tables *t, const cJSON *b, uint64_t *mask,
                     struct xd_reply *r);
/* The "job" and "hours" of body b as a job order takes them (the fit
 * library's fields; hours required unless the method trains) into o->fit,
 * o->fit_label and o->job_hours: 0, or -1 with a 400 naming "job.<field>"
 * (or "hours"; what names the request in its message: "a job order"). */
int xd_parse_job_fields(const cJSON *b, const char *what, struct xd_order_in *o,
                        struct xd_reply *r);
/* The request as a job order's row keeps it (the job's fields, canonical,
 * and the hours as given), malloc'ed; a job alert's row keeps the same. */
char *xd_job_text(const struct xd_order_in *o);
/* Such a text read back into o->fit, o->fit_label and o->job_hours (false
 * when it is not one). */
bool xd_job_from_text(const char *text, struct xd_order_in *o);
/* o's job in its wire form (docs/API.md "Job body"): every field. */
cJSON *xd_job_json(const struct xd_order_in *o);
/* One GPU's answer for a job (the "alternatives" of a job order). The fit's
 * part, which does not depend on the book: the units the job needs there
 * (gpus = node_gpus × nodes on link) and its hours, or why it cannot run
 * there whatever the book holds (fits false). The book's part: whether the
 * book can run it now (runnable), the fills' total in the account's
 * currency with VAT, their dearest price; reason (owned) says why not. */
struct xd_job_alt {
	bool shaped;                 /* the fit gave a node shape */
	bool fits;                   /* units and hours known, within an order's limits */
	bool runnable;
	char *reason;
	int32_t gpus, node_gpus, nodes, hours;   /* hours 0: not known */
	int link;                    /* the link the units need (ENG_LINK_ANY: any) */
	int64_t total, price;
};
/* The fit's part of job in on GPU g (a cleared first). Pure. */
void xd_jobs_fit(const struct xd_tables *t, const struct xd_order_in *in, int g,
                 struct xd_job_alt *a);
/* The book's part (a->fits): a dry run of the FOK order of those units, for
 * account (its own asks skipped) in currency cur at VAT vat_bp, on the
 * writer's copy of GPU g's book as it stands (the caller peeks it). */
void xd_jobs_price(struct xd_writer *w, const struct xd_order_in *in, int cur, int32_t vat_bp,
                   int64_t account, int g, struct xd_job_alt *a);
void xd_job_alt_clear(struct xd_job_alt *a);
struct xd_acct;
struct xd_writer;
/* What the writer chose for a job: the cheapest GPU that can run it (best, -1
 * if none), the FOK order that buys it, its total, the reply's frame (owned),
 * and why it cannot be placed (code NULL if it can; msg owned). */
struct xd_job_choice {
	int best;
	struct xd_order_in order;
	int64_t total;
	cJSON *frame;
	const char *code;
	char *msg;
};
void xd_jobs_choose(struct xd_writer *w, const struct xd_order_in *in, const struct xd_acct *acc,
                    int64_t account, struct xd_job_choice *c);
void xd_jobs_choice_free(struct xd_job_choice *c);
/* The writer's PREVIEW of a job order (the account exists). */
struct xd_job;
void xd_jobs_preview(struct xd_writer *w, struct xd_job *j, const struct xd_acct *acc);
/* The writer's ORDER of a job order: its replay, or its choice placed. */
void xd_jobs_order(struct xd_writer *w, struct xd_job *j, struct xd_acct *a);

/* ---- the writer's state, shared by market.c, ops.c and demo.c ------------- */
struct xd_acct {
	int64_t avail, held;
	int64_t debt;        /* the "debt" bucket: <= 0, what the customer owes */
	int cur;
	int32_t vat_bp;
	int role;            /* -1 for the exchange's own accounts */
	bool dirty, exists, system;
	uint64_t tx;         /* shared store: the transaction that read it */
	int64_t base_avail, base_held, base_debt;   /* shared store: the balances as read then */
};

struct xd_demo;
struct xd_writer {
	struct xd_market *m;
	const struct xd_tables *t;
	struct xd_store *st;
	struct engine *eng;
	struct eng_fills fills;
	struct xd_acct *accts;       /* indexed by account id */
	size_t n_accts;
	int64_t *dirty;              /* ids of dirty accounts */
	size_t n_dirty, cap_dirty;
	int64_t next_entry;
	int64_t now;                 /* exchange clock at the start of this job */
	bool in_tx;
	bool *book_changed;          /* per GPU, since the last snapshot */
	int64_t *last_price;         /* per GPU, -1 = no trade yet */
	/* the exchange's own accounts per currency (an index of set->cur) */
	int64_t sys_external[XD_CUR_MAX], sys_clearing[XD_CUR_MAX], sys_vat[XD_CUR_MAX];
	int64_t sys_fees[XD_CUR_MAX];
	struct xd_settings *set;     /* the settings this transaction runs on (settings.c) */
	bool set_changed;            /* a job changed them: publish after COMMIT */
	bool set_stale;              /* a rolled-back batch may have: read them again */
	int state;                   /* set->state and set->opens_at_ms, for ops.c */
	int64_t opens_at_ms;
	struct xd_demo *demo;
	const struct xd_nodes_ops *nodes;   /* one node or many (nodes.c) */
	uint64_t tx;                 /* counts transactions */
	int64_t *book_ver;           /* per GPU: the version our copy is of, -1 = stale */
	uint64_t *book_tx;           /* per GPU: the transaction that holds its lock */
	int64_t *tid_lo, *tid_hi;    /* per GPU: the trades of this transaction, 0 = none */
	int64_t last_entry;          /* the last ledger entry posted */
	bool lease;                  /* this node bills and drives the demo */
	unsigned lease_gen;          /* the connection generation the lease is held on */
	int64_t lease_at_us;         /* when the lease was last tried */
	struct xd_stream *stream;    /* market data for GET /v1/stream */
	struct xd_watch *watch;      /* the books' alerts and conditional orders (watch.c) */
	struct xd_jalerts *jalerts;  /* the job alerts (jobalerts.c) */
	struct xd_events *events;    /* account events of this transaction (events.c) */
};

/* An account's buckets: what it may spend, what is held for its orders,
 * rentals and withdrawals, and what it owes (<= 0; docs/API.md "the ledger"). */
enum xd_bucket { XD_AVAILABLE = 0, XD_HELD = 1, XD_DEBT = 2 };
extern const char *const xd_bucket_names[4];

/* ops.c — all run on the writer thread, inside its transaction. */
void xd_ops_begin(struct xd_writer *w);            /* BEGIN if not in a transaction */
enum xd_commit xd_ops_commit(struct xd_writer *w);           /* flush balances, COMMIT */
int xd_ops_restore(struct xd_writer *w, char **cause);
/* After a rolled-back transaction: forget what it changed in memory (the
 * books are stale until reloaded, the accounts are loaded again). */
void xd_ops_forget(struct xd_writer *w);
/* Read account id's row into w->accts for this transaction (nodes.c, when
 * another node may have changed it). */
void xd_ops_account_read(struct xd_writer *w, int64_t id);

/* nodes.c — what the writer does differently when other gpuxd nodes share
 * its store. The writer calls it through w->nodes, chosen once when its
 * store is opened: xd_nodes_one (SQLite: this node is the only writer, so
 * nothing is locked, read again or told, balances are written as they are,
 * ledger entries are numbered in memory, and it always holds the lease) or
 * xd_nodes_shared (PostgreSQL: book locks with versions, balances read per
 * transaction and written as deltas, entries from a sequence, notifications
 * at COMMIT, a lease for billing and the demo). */
struct xd_nodes_ops {
	const char *name;
	/* Start-up, inside the start-up transaction: nodes starting together
	 * go one at a time (start_lock … start_done); a row per GPU book. */
	void (*start_lock)(struct xd_writer *w);
	void (*init_books)(struct xd_writer *w);
	/* After the start-up commit: release the start-up lock; -1 if that
	 * failed. */
	int (*start_done)(struct xd_writer *w);
	/* The exchange clock at start (wall, in ms, and the clock's speed):
	 * its value now and the admin's total advance. */
	void (*clock_start)(struct xd_writer *w, int64_t wall, double speed, int64_t *now,
	                    int64_t *offset);
	/* Before a batch runs: lock the books its orders and cancels match on,
	 * and mark deferred the jobs whose book another node holds. */
	void (*claim_books)(struct xd_writer *w, struct xd_job *batch);
	/* Lock GPU g's book for the transaction and bring the engine's copy up
	 * to date: true if it was read again from the database (what was read
	 * of its orders before may be stale). */
	bool (*lock_book)(struct xd_writer *w, int g);
	/* The engine's copy of g's book up to date, without the lock (previews). */
	void (*peek_book)(struct xd_writer *w, int g);
	/* The engine's copies of books gs[0..n) up to date, and held as they are
	 * until the end of the transaction without changing them (a shared
	 * lock): a book change in flight on another node is waited for and
	 * read, and one that comes later waits for this commit (a new job
	 * alert's first look at the books it can run on). */
	void (*hold_books)(struct xd_writer *w, const int *gs, size_t n);
	/* Is the engine's copy of g's book the database's (publishable)? */
	bool (*book_current)(const struct xd_writer *w, int g);
	/* Does this transaction hold g's book (its lock), so that what is read
	 * of it now is what every node would read until it commits? */
	bool (*holds_book)(const struct xd_writer *w, int g);
	/* w->accts[id] current for this transaction (no-op with one node). */
	void (*account)(struct xd_writer *w, int64_t id);
	/* Write the transaction's changed balances (before COMMIT). */
	void (*flush_accounts)(struct xd_writer *w);
	/* One ledger entry of two rows, amount from acct[0] to acct[1]: its
	 * number. */
	int64_t (*ledger)(struct xd_writer *w, const char *kind, int cur, const int64_t acct[2],
	                  const int bucket[2], int64_t amount, int64_t order_id, int64_t rental_id);
	/* Last thing before COMMIT: tell the other nodes what changed. */
	void (*before_commit)(struct xd_writer *w);
	/* The admin advanced the clock by ms: every node's moves with it. */
	void (*clock_advanced)(struct xd_writer *w, int64_t ms);
	/* The settings changed in this transaction (settings.c): tell the
	 * other nodes at COMMIT. The settings' version in the store now. */
	void (*settings_changed)(struct xd_writer *w);
	uint64_t (*settings_version)(struct xd_writer *w);
	/* May this node bill and drive the demo now? (the lease) */
	bool (*leader)(struct xd_writer *w);
	/* How often an idle writer proves it can commit (a write probe for
	 * GET /v1/ready: other nodes, a failover, a synchronous standby can
	 * stop commits while this node is idle), in ms; 0 = never needed. */
	int probe_ms;
};
extern const struct xd_nodes_ops xd_nodes_one, xd_nodes_shared;
void xd_ops_run(struct xd_writer *w, struct xd_job *j);
/* Bill every rental hour due at or before w->now; returns the hours billed. */
int64_t xd_ops_bill(struct xd_writer *w);
/* Move amount (> 0) from (from, its bucket) to (to, its bucket) as one
 * ledger entry of two rows in their one currency; w->last_entry is its
 * number. A customer bucket below its floor (0; the debt bucket may go down)
 * is a bug that stops the daemon before anything is committed. */
void xd_ops_post(struct xd_writer *w, const char *kind, int64_t from, int from_bucket, int64_t to,
                 int to_bucket, int64_t amount, int64_t order_id, int64_t rental_id);
/* The writer's view of account id for this transaction, or NULL. */
struct xd_acct *xd_ops_acct(struct xd_writer *w, int64_t id);
/* The exchange's own accounts (external, clearing, vat, fees) of every
 * currency of the settings, found or made. */
void xd_ops_system_accounts(struct xd_writer *w);
/* Create an account; returns its id. role -1 and cur for the exchange's own. */
int64_t xd_ops_account(struct xd_writer *w, const char *kind, const char *email,
                       const char *country, int cur, int role, const unsigned char *key_hash);
void xd_ops_deposit(struct xd_writer *w, int64_t account, int64_t amount);
/* Place an order for account (no idempotency, state or role checks: demo and
 * internal use). Returns the order id, or 0 if funds were short. */
int64_t xd_ops_place(struct xd_writer *w, int64_t account, const struct xd_order_in *o);
/* What `in` would do now for account (an existing account), as the body of
 * POST /v1/orders/preview; nothing is changed. */
cJSON *xd_ops_preview(struct xd_writer *w, int64_t account, const struct xd_order_in *in);
/* What every order is refused for before anything changes (the role, the
 * market's state): the code and *msg (malloc'ed), or NULL; its reply. */
const char *xd_ops_refusal(struct xd_writer *w, const struct xd_acct *a, enum eng_side side,
                           char **msg);
void xd_ops_refusal_reply(struct xd_writer *w, struct xd_reply *r, const char *code, char *msg);
/* 409 IDEMPOTENCY_CONFLICT: coid was used for order id with another body. */
void xd_ops_conflict(struct xd_reply *r, const char *coid, int64_t id);
/* Cancel a resting order (any owner). 0, or -1 if it is not resting. */
int xd_ops_cancel(struct xd_writer *w, int64_t id);
/* Accept an order off the book (a conditional order): its row with status
 * 'waiting' and remaining 0, its hold taken. The id, 0 if funds were short,
 * -1 if another node stored this client_order_id meanwhile. */
int64_t xd_ops_place_waiting(struct xd_writer *w, int64_t account, const struct xd_order_in *o);
/* Order id enters the book with add_gpus more GPUs (a waiting order: all of
 * them; a resting one goes to the back of its level with the rest), as a new
 * acceptance: it matches, then rests or expires by its time in force.
 * add_hold is moved from the account's available balance to the order's
 * hold first. 0, or -1 if the order is not there or the funds are short. */
int xd_ops_enter(struct xd_writer *w, int64_t id, int32_t add_gpus, int64_t add_hold);

/* demo.c */
int xd_demo_init(struct xd_writer *w, uint64_t seed, char **cause);
/* Advance the drift to w->now; re-quote what moved. */
void xd_demo_tick(struct xd_writer *w);
/* Milliseconds of exchange time until the next drift step. */
int64_t xd_demo_next_ms(struct xd_writer *w);
void xd_demo_free(struct xd_demo **d);
/* After a rolled-back transaction: quote every ladder again at the next tick. */
void xd_demo_forget(struct xd_writer *w);

/* ---- stream.c: GET /v1/stream -------------------------------------------- */
#define XD_STREAM_BACKLOG 4096
struct xd_stream;
struct xd_stream *xd_stream_new(const struct xd_tables *t, size_t backlog);
/* The writer, during a job: a trade (held back until xd_stream_commit). */
void xd_stream_trade(struct xd_stream *s, int gpu, int64_t id, int64_t price, int32_t gpus,
                     int32_t hours, int taker_side, int64_t at_ms);
/* The writer, after COMMIT: a book as published to the snapshot... */
void xd_stream_book(struct xd_stream *s, int gpu, const struct eng_level *ask, size_t n_ask,
                    const struct eng_level *bid, size_t n_bid, int64_t last,
                    const struct xd_unit_quotes *u);
/* ...then the batch's events under the market's new seq. */
void xd_stream_commit(struct xd_stream *s, uint64_t seq);
void xd_stream_set_seq(struct xd_stream *s, uint64_t seq);
/* The last trade of gpu already in the database (start-up, demo history). */
void xd_stream_seed_trade(struct xd_stream *s, int gpu, int64_t id);
/* Say goodbye to every stream, stop the heartbeat, drop the market's
 * reference (connections hold theirs until they end); *s = NULL. */
void xd_stream_shutdown(struct xd_stream **s);
/* Streams connected now. */
size_t xd_stream_clients(struct xd_stream *s);
struct xd_market;
struct xd_stream *xd_market_stream(struct xd_market *m);
/* ---- candles.c: GET /v1/candles/{gpu} ------------------------------------- */
struct xd_ctx;
void xd_candles_handle(struct xd_ctx *c);
/* ---- proxy.c: who the client is ------------------------------------------------ */
struct sockaddr;
struct sockaddr_storage;
/* The key a client's caps and rate limits are counted under: its IPv4
 * address ("192.0.2.7"; also for an IPv4-mapped IPv6 address), or its IPv6
 * /64 ("2001:db8:1:2::/64"); "" if sa is not IP. size >= 64. */
void xd_addr_key(const struct sockaddr *sa, char *out, size_t size);
/* The trusted proxies (--trusted-proxy): a list of CIDR ranges. */
struct xd_trust;
/* Add "10.0.0.0/8", "2001:db8::/32" or a single address to *t (created on
 * first use); 0, or -1 and *cause naming the flag. */
int xd_trust_add(struct xd_trust **t, const char *spec, char **cause);
void xd_trust_free(struct xd_trust **t);
/* Is sa in one of the ranges? (false for t NULL or a non-IP address) */
bool xd_trust_has(const struct xd_trust *t, const struct sockaddr *sa);
/* The client of an X-Forwarded-For value as seen through trusted proxies:
 * the rightmost address that is not trusted (or the leftmost, if all are).
 * 0 and *out, or -1 if the value is malformed (then the peer's address
 * stands). */
int xd_xff_client(const struct xd_trust *t, const char *xff, struct sockaddr_storage *out);
/* A PROXY protocol header (v1 text or v2 binary) at the start of data:
 *   XD_PROXY_NONE   the data does not start with one
 *   XD_PROXY_MORE   a header's start: more bytes are needed
 *   XD_PROXY_BAD    malformed (or over XD_PROXY_MAX bytes)
 *   XD_PROXY_LOCAL  a header of *used bytes that names no client (v2 LOCAL,
 *                   v1 UNKNOWN): the peer's own connection
 *   XD_PROXY_ADDR   a header of *used bytes naming the client *out */
enum { XD_PROXY_NONE, XD_PROXY_MORE, XD_PROXY_BAD, XD_PROXY_LOCAL, XD_PROXY_ADDR };
#define XD_PROXY_MAX 536    /* v2: 16 + the longest address block gpuxd reads TLVs in */
int xd_proxy_parse(const void *data, size_t len, size_t *used, struct sockaddr_storage *out);
/* The front door: a thread accepting on listen_fd and handing each
 * connection to d (a daemon without a listening socket) — a trusted peer's
 * after its PROXY header, if it sends one (within header_timeout_s). */
struct xd_door;
struct MHD_Daemon;
int xd_door_start(int listen_fd, const struct xd_trust *trust, int header_timeout_s,
                  struct MHD_Daemon *d, struct xd_door **out, char **cause);
void xd_door_stop(struct xd_door **d);

/* ---- guard.c: connection caps, deadlines, strict HTTP, log fields ---------- */
/* The caps and deadlines of docs/API.md "Limits", per listening socket. */
struct xd_limits {
	int max_conns, max_conns_per_addr;       /* request connections */
	int max_streams, max_streams_per_addr;   /* connections turned into streams */
	int header_timeout_s, body_timeout_s;
	const struct xd_trust *trust;            /* peers exempt from the per-address caps */
};
enum xd_phase { XD_PHASE_HEADER, XD_PHASE_BODY, XD_PHASE_BUSY, XD_PHASE_STREAM };
struct xd_guard;
struct MHD_Connection;
struct sockaddr;
struct xd_guard *xd_guard_new(const struct xd_limits *l);
/* After the daemon using it has stopped. */
void xd_guard_free(struct xd_guard **g);
/* libmicrohttpd's accept policy: false when the caps are reached. */
bool xd_guard_accept(struct xd_guard *g, const struct sockaddr *addr);
/* Connection started / closed (libmicrohttpd's socket context in *ctx). */
void xd_guard_open(struct xd_guard *g, struct MHD_Connection *conn, void **ctx);
void xd_guard_close(struct xd_guard *g, void **ctx);
/* The request on conn moved on: HEADER (waiting for the next request's
 * header, the header deadline runs), BODY (header read: the body deadline
 * runs), BUSY (being answered: no deadline). */
void xd_conn_phase(struct MHD_Connection *conn, enum xd_phase p);
/* Turn conn into a long-lived stream (for a streaming route's handler, on
 * the connection's thread): it leaves the request connections' caps and
 * deadlines (and libmicrohttpd's inactivity timeout) for the streams' caps.
 * 0, or -1 when max_streams (or max_streams_per_addr) is reached: the
 * handler then answers 503 TOO_MANY_STREAMS. Idempotent. */
int xd_conn_stream(struct MHD_Connection *conn);
/* Until its handler calls xd_conn_stream, a connection counts as a request
 * connection: a benchmark that opens N streams at once from one address
 * needs N <= --max-connections-per-addr (default 128), or more addresses
 * (any of 127.0.0.0/8), or that flag raised. */
/* Counters since start: connections refused at accept, cut at the header
 * deadline, cut at the body deadline, closed (idle) to make room at the
 * total cap. */
void xd_guard_stats(struct xd_guard *g, uint64_t *refused, uint64_t *cut_header, uint64_t *cut_body,
                    uint64_t *evicted);
/* How long no connection has been open (0 while one is). */
int64_t xd_guard_idle_us(struct xd_guard *g);
/* The numeric address of sa ("" if not IP). */
void xd_addr_text(const struct sockaddr *sa, char *out, size_t size);
/* A log field: printable text kept, control characters, backslashes and
 * bytes that are not UTF-8 escaped (\x1b, \\), at most max bytes of input
 * then "...". Malloc'ed. */
char *xd_log_field(const char *s, size_t max);
/* The strict checks of docs/API.md "Strict HTTP", run once the header is
 * complete and before the body is read: 0, or -1 with a 400 (or 413) error
 * reply. raw_uri is the request target as sent (not percent-decoded). */
struct xd_reply;
int xd_strict_request(struct MHD_Connection *conn, const char *method, const char *version,
                      const char *raw_uri, struct xd_reply *r);

/* ---- http.c + routes.c --------------------------------------------------- */
struct xd_server_config {
	const char *listen, *socket_path, *port_file;
	int rate_per_key, rate_per_addr, threads;
	bool quiet;
	struct xd_limits limits;
	int signup_per_min;          /* POST /v1/accounts per client key a minute; 0 = no limit */
};
struct xd_server;
/* Bind and listen (connections wait in the kernel's backlog, unanswered). */
int xd_server_listen(const struct xd_server_config *c, struct xd_server **out, char **cause);
/* Answer them: the daemons on the sockets, then the port file. m NULL: every
 * request is answered 503 STORE_UNAVAILABLE (Retry-After: 1) until
 * xd_server_set_market gives the market, once its database could be opened. */
int xd_server_start(struct xd_server *s, struct xd_market *m, char **cause);
void xd_server_set_market(struct xd_server *s, struct xd_market *m);
/* How long neither socket has had a connection open (0 while one is). */
int64_t xd_server_idle_us(struct xd_server *s);
/* A server without a listening socket, answering for m at once: its
 * connections are handed over with xd_server_add (the front door's path;
 * tests/fuzz/fuzz_exchange_http.c drives the real daemon that way over a
 * socketpair, as if sa had connected). libmicrohttpd's own error log is off.
 * Stop it with xd_server_stop. */
int xd_server_detached(const struct xd_server_config *c, struct xd_market *m,
                       struct xd_server **out, char **cause);
int xd_server_add(struct xd_server *s, int fd, const struct sockaddr *sa, unsigned len);
/* Stop accepting new connections (existing ones are still served). */
void xd_server_quiesce(struct xd_server *s);
/* Stop the daemons (after xd_market_close has answered every queued job). */
void xd_server_stop(struct xd_server **s);

/* What a handler sees. */
struct xd_ctx {
	struct xd_market *m;
	const char *method;
	const char *path;
	const char *params[2];       /* the {} segments of the route */
	const char *body;
	size_t body_len;
	int64_t account;             /* authenticated account, 0 = none */
	bool admin;                  /* the admin key was presented */
	struct MHD_Connection *conn;
	const struct xd_server_config *cfg;
	struct xd_reply reply;
	struct xd_job *job;          /* zeroed storage for a write; see xd_ctx_submit */
	bool submitted;              /* a handler queued c->job */
	char new_key[72];            /* POST /v1/accounts, /v1/keys: the key to show once */
	int64_t key_id;              /* the API key presented (api_keys.id), 0 = none */
	int64_t admin_key_id;        /* the admin key presented (admin_keys.id), 0 = none */
	bool key_read_only;          /* its scope is "read" */
};
enum xd_auth { XD_PUBLIC, XD_ACCOUNT, XD_ADMIN_OR_DEMO, XD_ACCOUNT_OR_ADMIN };
struct xd_route {
	const char *method;
	const char *pattern;         /* "/v1/orders/{}" */
	enum xd_auth auth;
	void (*handler)(struct xd_ctx *c);
};
extern const struct xd_route xd_routes[];
/* Is route the write that floods an overload (POST /v1/orders), to be
 * refused (xd_market_busy) before its key is checked or its body read? The
 * key costs a read of the store, a round trip on PostgreSQL. */
bool xd_route_sheds(const struct xd_route *route);
extern const size_t xd_n_routes;
/* A query parameter (NULL if absent). */
const char *xd_query(struct xd_ctx *c, const char *name);
/* Every query parameter's name must be in allowed; 400 BAD_PARAM otherwise. */
int xd_query_check(struct xd_ctx *c, const char *const *allowed);
/* Query parameter name as an integer in min..max (dflt when absent), and
 * limit/cursor of a page (routes.c); -1 with a 400 BAD_PARAM reply. */
int xd_query_int(struct xd_ctx *c, const char *name, int64_t min, int64_t max, int64_t dflt,
                 int64_t *out);
struct xd_page;
int xd_query_page(struct xd_ctx *c, int64_t dflt, struct xd_page *p);
/* The path's {id}: a positive id, or false with 404 "no such <what>". */
bool xd_path_id(struct xd_ctx *c, const char *what, int64_t *id);
/* Hand c->job (filled in by the handler) to the writer; the reply comes when
 * it is committed. */
void xd_ctx_submit(struct xd_ctx *c);
/* GET /v1/stream (stream.c): sets c->reply.response, or an error reply. */
void xd_stream_handle(struct xd_ctx *c, struct xd_stream *s);

/* The write routes' body validation (routes.c, settings.c, money.c), pure:
 * no database, no connection, no state. Each takes the body (len bytes, not
 * necessarily NUL-terminated) and returns 0 with the typed result, or -1 with
 * a 400 error reply in *r. The handlers call them after their query and path
 * checks; tests/fuzz/fuzz_exchange_body.c calls them directly.
 *   signup: j->email, country, cur (an index of set's currencies), role
 *   deposit (money.c): j->amount, target (0 if absent), str[0] the reference ("")
 *   state (settings.c): n[0] the state or -1, flag[0] opens_at given, n[1]
 *          its time (-1 for null) */
struct xd_settings;
int xd_parse_signup(const struct xd_tables *t, const struct xd_settings *set, const char *body,
                    size_t len, struct xd_job *j, struct xd_reply *r);
int xd_parse_order(const struct xd_tables *t, const char *body, size_t len, bool need_coid,
                   struct xd_order_in *o, struct xd_reply *r);
int xd_parse_stop(const char *body, size_t len, struct xd_reply *r);
int xd_parse_clock(const char *body, size_t len, int64_t *advance_ms, struct xd_reply *r);
int xd_parse_state(const char *body, size_t len, struct xd_job *j, struct xd_reply *r);

/* ---- alerts, conditional and standing orders, renewals, account events ----
 * After every job (and the demo's drift, and at COMMIT) the writer settles
 * what the books' changes set off (xd_watch_settle): conditional orders
 * whose trigger holds enter the book (while the market is open), then the
 * alerts whose condition holds fire. A book is looked at only in a
 * transaction that holds it (w->nodes->holds_book), so on a shared store
 * whichever node changes a book evaluates its triggers, and every node's
 * copy of a book's triggers is read again with the book. Time-based work —
 * rentals ending soon, renewals — is the lease holder's (xd_watch_tick).
 * What the account should hear goes to its event log in the same
 * transaction (xd_events_add), and to the stream's account channel after
 * COMMIT, on every node (LISTEN/NOTIFY on a shared store). */
#define XD_ALERTS_MAX 100         /* live alerts per account */
#define XD_JOB_ALERTS_MAX 10      /* of which job_total_lte (each prices a job on every GPU) */
#define XD_CONDS_MAX 20           /* waiting conditional and active standing orders */
#define XD_EVENTS_PAGE_MAX 200    /* GET /v1/events */

/* A fill, as watch.c notes it for what follows (order_filled alerts, OCO
 * and standing orders). */
struct xd_fill_note {
	int gpu;
	int64_t trade;               /* also the rental's id */
	int64_t buy_order, buy_account, sell_order, sell_account;
	int64_t price;
	int32_t gpus, hours;
	int64_t started;
};

/* watch.c: the writer's per-GPU triggers (w->watch). */
enum xd_watch_set { XD_WATCH_ALERTS, XD_WATCH_ORDERS };
void xd_watch_new(struct xd_writer *w);
void xd_watch_free(struct xd_writer *w);
/* Start-up: every GPU's alerts and conditional orders from the store. */
int xd_watch_restore(struct xd_writer *w, char **cause);
/* GPU g's book was read again (nodes.c): read its triggers again. */
void xd_watch_reload(struct xd_writer *w, int g);
/* A rolled-back transaction: read every GPU's triggers again before use. */
void xd_watch_forget(struct xd_writer *w);
/* ops.c, for every fill. */
void xd_watch_fill(struct xd_writer *w, const struct xd_fill_note *f);
/* What the changes since the last call set off (see above). */
void xd_watch_settle(struct xd_writer *w);
/* The lease holder, before billing: rentals ending soon, due renewals
 * (at most every 250 ms of real time unless now). */
void xd_watch_tick(struct xd_writer *w, bool now);
/* The market has just opened: look at every book with conditional orders. */
void xd_watch_opened(struct xd_writer *w);
/* A condition of alert or order id on GPU g's set, or out of it. */
void xd_watch_add(struct xd_writer *w, int g, enum xd_watch_set set, const struct xd_trigger *t,
                  int64_t id);
void xd_watch_remove(struct xd_writer *w, int g, enum xd_watch_set set, const struct xd_trigger *t,
                     int64_t id);
/* Would trigger t hold on GPU g's book now? (*value: the price it saw) */
bool xd_watch_holds(struct xd_writer *w, int g, const struct xd_trigger *t, int64_t *value);
/* Orders of GPU g's book that something watches when they fill: the
 * members of one-cancels-other groups and standing orders. */
struct xd_mark { int64_t order, account; char oco[XD_COID_MAX + 1]; bool standing; };
void xd_watch_mark(struct xd_writer *w, int g, const struct xd_mark *m);
void xd_watch_unmark(struct xd_writer *w, int g, int64_t order);
/* The mark of order on g, or NULL (valid until the marks change). */
const struct xd_mark *xd_watch_marked(struct xd_writer *w, int g, int64_t order);
/* Every mark of g in one account's oco group (copied into *out, malloc'ed). */
size_t xd_watch_group(struct xd_writer *w, int g, int64_t account, const char *oco,
                      struct xd_mark **out);

/* alerts.c */
/* An alert's states (alerts.state). */
enum xd_alert_state { XD_ALERT_ARMED, XD_ALERT_REARMING, XD_ALERT_FIRED, XD_ALERT_EXPIRED };
/* POST /v1/alerts's body into *a; a job_total_lte alert's job, hours and
 * regions into *job (is_job set; a->price is its max_total_minor, a->rearm
 * its rearm_minor). 0, or -1 with a 400 reply. */
int xd_parse_alert(const struct xd_tables *t, const char *body, size_t len, struct xd_alert_in *a,
                   struct xd_order_in *job, struct xd_reply *r);
void xd_alerts_h_list(struct xd_ctx *c);
void xd_alerts_h_get(struct xd_ctx *c);
void xd_alerts_h_create(struct xd_ctx *c);
void xd_alerts_h_delete(struct xd_ctx *c);
void xd_alerts_job_add(struct xd_writer *w, struct xd_job *j);
void xd_alerts_job_del(struct xd_writer *w, struct xd_job *j);
/* GPU g's live book alerts into the watch. */
void xd_alerts_load(struct xd_writer *w, int g);
/* Alert id's condition was met at price value (watch.c took it out). */
void xd_alerts_hit(struct xd_writer *w, int g, int64_t id, int64_t value);
void xd_alerts_fills(struct xd_writer *w, const struct xd_fill_note *f, size_t n);
/* The lease holder: rental_ending alerts due since the last tick. */
void xd_alerts_tick(struct xd_writer *w);
/* Job alert id of account, on job, was evaluated (jobalerts.c): the
 * cheapest GPU that can run its job now is gpu, with a (gpu -1: none can).
 * With the account's alerts taken in turn and the row read again, it fires
 * (an event), re-arms or stays as it is; returns the state it is in now, or
 * -1 when it is no longer live. */
int xd_alerts_job_hit(struct xd_writer *w, int64_t id, int64_t account,
                      const struct xd_order_in *job, int gpu, const struct xd_job_alt *a);

/* jobalerts.c: the job_total_lte alerts (w->jalerts), evaluated when a book
 * they can run on changes; see the file's head. */
void xd_jalerts_new(struct xd_writer *w);
void xd_jalerts_free(struct xd_writer *w);
/* A rolled-back transaction: read the alerts again before use. */
void xd_jalerts_forget(struct xd_writer *w);
/* After the book alerts of a settle: every job alert whose job can run on a
 * book that this transaction changed since it was last priced. */
void xd_jalerts_settle(struct xd_writer *w);
/* Job alert id's row changed in this transaction (deleted, fired, re-armed,
 * expired): it is in state now (-1: no longer live). This node's list
 * follows; every node reads the list again (job_alerts_version). */
void xd_jalerts_changed(struct xd_writer *w, int64_t id, int state);
/* The new job alert id, in the store already: in the list, every node told,
 * and evaluated now (it may fire). */
void xd_jalerts_made(struct xd_writer *w, int64_t id);
/* The GPUs job can run on whatever the books hold (xd_jobs_fit): their
 * number, and the alternatives in *alts (one per GPU, owned by the caller:
 * xd_jalerts_fits_free). */
size_t xd_jalerts_fits(const struct xd_tables *t, const struct xd_order_in *job,
                       struct xd_job_alt **alts);
void xd_jalerts_fits_free(const struct xd_tables *t, struct xd_job_alt **alts);
/* The alternatives as a job order's reply has them. */
cJSON *xd_jobs_alts_json(const struct xd_tables *t, const struct xd_job_alt *alts);

/* cond.c */
/* The body's trigger, oco_group and standing into o->cond (o's other fields
 * parsed already); 0, or -1 with a 400 reply. */
int xd_parse_cond(const struct xd_tables *t, const cJSON *body, struct xd_order_in *o,
                  struct xd_reply *r);
bool xd_cond_any(const struct xd_cond_in *c);
/* Does stored order id carry exactly c? (idempotent replays) */
bool xd_cond_same(struct xd_writer *w, int64_t id, const struct xd_cond_in *c);
/* Refusals of POST /v1/orders that only conditional, OCO and standing
 * orders have (their limit, an OCO group on another GPU): true with the
 * error in j->reply. */
bool xd_cond_refused(struct xd_writer *w, struct xd_job *j);
/* Does the order wait off the book (a trigger), so that it is accepted in
 * every market state? */
bool xd_cond_waits(const struct xd_order_in *in);
/* Place such an order (xd_ops_place's returns). */
int64_t xd_cond_place(struct xd_writer *w, int64_t account, const struct xd_order_in *in);
/* DELETE /v1/orders/{id} of a waiting or standing order: true when done
 * here (the reply set); false for the ordinary cancel. */
bool xd_cond_cancel(struct xd_writer *w, struct xd_job *j);
/* GPU g's waiting orders and marks into the watch. */
void xd_cond_load(struct xd_writer *w, int g);
/* Waiting order id's trigger holds (watch.c took it out): it enters. */
void xd_cond_hit(struct xd_writer *w, int g, int64_t id, int64_t value);
void xd_cond_fills(struct xd_writer *w, const struct xd_fill_note *f, size_t n);
/* Standing order id buys again the gpus of a rental of it, bought at price,
 * that could not be extended (renew.c): they leave its filled GPUs (and
 * value) for its remaining ones, and it enters the book with them, their
 * period's hold taken. False and *why (malloc'ed) if it could not. */
bool xd_cond_regrow(struct xd_writer *w, int64_t id, int32_t gpus, int64_t price, char **why);
/* Standing order id stops: its resting part cancelled, its renewals
 * stopped, the account told why. */
void xd_cond_standing_stop(struct xd_writer *w, int64_t id, const char *reason);
/* The columns reads.c selects for an order's trigger, oco_group and
 * standing, and their JSON (from column first on). */
#define XD_COND_COLS "o.trigger_cond, o.trigger_price, o.oco_group, o.standing, o.standing_reason"
void xd_cond_json(cJSON *o, struct xd_q *st, int first);

/* renew.c: renewals (docs/ARCHITECTURE.md "Renewals"). A row renews one
 * rental for a standing order (order_id) or for itself (order_id 0: the
 * rental's automatic extension), period by period of `hours` at no more
 * than cap cents, next at due_ms. */
void xd_renew_add(struct xd_writer *w, int64_t account, int64_t rental_id, int64_t order_id,
                  int32_t hours, int64_t cap, int64_t due_ms);
/* Run every renewal due at w->now (the lease holder, market open): extend
 * the rental from its seller's window, else (a standing order's) buy in its
 * place when it ends; funds and cap checked; the account told. Returns
 * how many were run. */
int64_t xd_renew_run(struct xd_writer *w);
/* Stop the renewals of standing order id (reason for the rows). */
void xd_renew_stop_order(struct xd_writer *w, int64_t order_id, const char *reason);
/* When a rental of `hours` from `started` is first due for renewal. */
int64_t xd_renew_due(int64_t started, int32_t hours);

/* events.c: the account's event log. */
/* Add an event of kind for account to this transaction (data taken; its
 * "id", "kind", "at" and "seq" are filled in when it is written). */
void xd_events_add(struct xd_writer *w, int64_t account, const char *kind, cJSON *data);
/* Before COMMIT: number and write the transaction's events (accounts in id
 * order), and tell the other nodes. */
void xd_events_flush(struct xd_writer *w);
/* After COMMIT: tell this node's streams; after a rollback: forget them. */
void xd_events_committed(struct xd_writer *w);
void xd_events_forget(struct xd_writer *w);
void xd_events_free(struct xd_writer *w);
/* Take the account's row of event_counters until COMMIT, so that one
 * account's limited creations (alerts, conditional orders) are counted one
 * transaction at a time on every node. */
void xd_events_turn(struct xd_writer *w, int64_t account);
/* The account's last event number (0: none). */
int64_t xd_events_head(struct xd_store *s, int64_t account);
/* Up to limit events of account after number `after`, oldest first, each
 * as its SSE text ("id: …\nevent: account\ndata: {…}\n\n", the id as
 * id_prefix + n) appended to out; returns how many, and the last number in
 * *last. */
struct buf;
int xd_events_sse(struct xd_store *s, int64_t account, int64_t after, int limit,
                  const char *id_prefix, struct buf *out, int64_t *last);
void xd_events_h_list(struct xd_ctx *c);

/* stream.c: account news for the account channel (account 0: look again
 * for every account, after notifications may have been lost). */
void xd_stream_account(struct xd_stream *s, int64_t account);

/* ---- keys.c: API keys ------------------------------------------------------
 * An account has up to XD_KEYS_MAX active keys (table api_keys: the SHA-256
 * of the key, never the key), each named, with a scope: "trade" (everything
 * the account may do) or "read" (no orders, cancels, stops, deposits or key
 * changes: 403 KEY_SCOPE). A revoked key keeps its row (revoked_ms) and is
 * refused at once. */
enum xd_scope { XD_SCOPE_TRADE = 0, XD_SCOPE_READ = 1 };
extern const char *const xd_scope_names[3];
/* Authenticate the key whose SHA-256 is hash (HTTP thread, read connection):
 * the account id, with c->key_id and c->key_read_only set; 0 if the key is
 * unknown or revoked. Notes the use for last_used_at (see xd_keys_flush). */
int64_t xd_keys_auth(struct xd_ctx *c, const unsigned char hash[32]);
/* A route that trades (or changes keys) asks this first: true for a trade
 * key or the admin key; false with 403 KEY_SCOPE in c->reply for a read key. */
bool xd_keys_may_trade(struct xd_ctx *c);
/* The SHA-256 of the n bytes of key, as stored in api_keys.key_hash. */
void xd_keys_hash(const char *key, size_t n, unsigned char hash[32]);
/* A new random key "gpux_" + 64 hex digits into out (at least 72 bytes) and
 * its SHA-256 into hash; 0, or -1 with an error reply in r. */
int xd_keys_generate(char *out, unsigned char hash[32], struct xd_reply *r);
/* Writer: insert a key row for account; returns its id. name NULL: "key-ID". */
int64_t xd_keys_insert(struct xd_writer *w, int64_t account, const unsigned char hash[32],
                       const char *name, int scope);
/* Writer: the KEY_CREATE and KEY_REVOKE jobs. */
void xd_keys_job_create(struct xd_writer *w, struct xd_job *j);
void xd_keys_job_revoke(struct xd_writer *w, struct xd_job *j);
/* Writer, at every commit: write the last uses noted since the last call
 * (at most one per key per XD_KEY_USE_MS of exchange time). */
#define XD_KEY_USE_MS 60000
void xd_keys_flush(struct xd_writer *w);
/* POST /v1/keys body: name (optional), scope (optional, default trade). */
int xd_parse_key_create(const char *body, size_t len, struct xd_job *j, struct xd_reply *r);
/* The handlers of GET /v1/keys, POST /v1/keys, DELETE /v1/keys/{id}. */
void xd_keys_h_list(struct xd_ctx *c);
void xd_keys_h_create(struct xd_ctx *c);
void xd_keys_h_revoke(struct xd_ctx *c);

/* ---- settings.c: settings as state --------------------------------------------
 * What the operator sets lives in the store (tables settings and currencies)
 * and is the same for every node: the market state and the announced
 * opening, how to top up, the fees, the currencies with their ISO 4217
 * exponents and FX rates (and when each rate was set), how old a rate may be.
 * A new database is seeded from the flags and data/fx.json; after that the
 * flags are only compared and a difference is said in the log. Every change
 * is a writer job, audited with the admin key that made it, and bumps
 * meta.settings_version: a node of a shared store reads the version at the
 * start of each batch (xd_nodes_ops.settings_current) and the settings again
 * when it moved, so an order that reaches any node after a change's COMMIT
 * is judged by the new settings. A snapshot is immutable and refcounted. */
struct xd_currency {
	char code[4];
	int exponent;                /* ISO 4217 minor-unit digits: JPY 0, EUR 2, KWD 3 */
	int64_t rate_micro;          /* units of it per USD x 10^6 */
	int64_t rate_ms;             /* when the rate was set (exchange clock) */
	bool demo_rate;              /* the embedded demo rate (data/fx.json) */
};
struct xd_settings {
	uint64_t version;            /* meta.settings_version it was read at */
	int state;                   /* enum exchange_state */
	int64_t opens_at_ms;         /* -1: none announced */
	char *topup_url, *topup_text;   /* NULL: none */
	int32_t fee_trade_bp, fee_forward_cancel_bp, fee_resale_bp;
	int64_t fx_max_age_s;        /* 0: no limit */
	bool fx_halt_stale;          /* refuse conversions at a rate older than the limit */
	struct xd_currency cur[XD_CUR_MAX];
	size_t n_cur;
	int refs;                    /* under the market's info lock */
};
#define XD_FEE_BP_MAX 5000       /* 50 % */
/* Read the settings and currencies (any connection): 0 and *out (refs 1), or
 * -1 when the store failed. */
int xd_settings_load(struct xd_store *s, struct xd_settings **out);
void xd_settings_free(struct xd_settings **s);
/* A copy of s (refs 1). */
struct xd_settings *xd_settings_copy(const struct xd_settings *s);
/* Index of currency code in s, or -1. */
int xd_settings_cur(const struct xd_settings *s, const char *code);
const char *xd_cur_code(const struct xd_writer *w, int cur);
/* Start-up, in the start-up transaction: seed what a new database lacks from
 * c (and the tables' fx), read the settings into w->set, create the
 * exchange's own accounts of each currency; log flags that differ. */
int xd_settings_start(struct xd_writer *w, const struct xd_market_config *c, char **cause);
/* Writer, at the start of each batch: the settings current (reloaded after a
 * rollback, or when another node changed them); then the scheduled opening
 * (the lease holder only: exactly one node opens the market, once). */
void xd_settings_batch(struct xd_writer *w, bool leader);
/* Writer: set key to value (NULL: remove) and note it in the audit. */
void xd_settings_put(struct xd_writer *w, const char *key, const char *value, int64_t admin_key,
                     const char *action);
/* Writer: the settings changed in this transaction: bump the version, tell
 * the other nodes, read them again into w->set. */
void xd_settings_changed(struct xd_writer *w);
/* Writer: one row of the audit (detail: JSON text or NULL). */
void xd_audit(struct xd_writer *w, int64_t admin_key, const char *action, const char *subject,
              const char *detail);
/* The market's published settings (a reference: release with xd_market_put_settings). */
struct xd_settings *xd_market_settings(struct xd_market *m);
void xd_market_settings_done(struct xd_market *m, struct xd_settings **s);
/* Publish s (taken) if it is newer than what the market has. */
void xd_market_publish_settings(struct xd_market *m, struct xd_settings *s);
/* GET /v1/market's settings part: state, opens_at, currencies, fx, fees, topup. */
void xd_settings_json(const struct xd_settings *s, const struct xd_tables *t, int64_t now,
                      bool demo, cJSON *o);
/* The age of currency cur's rate when it is older than the limit (and
 * conversion is halted then): 1 and *msg, else 0. USD never is. */
int xd_settings_fx_stale(const struct xd_settings *s, int cur, int64_t now, char **msg);
/* The routes: POST /v1/admin/market, GET /v1/admin/settings,
 * POST /v1/admin/fx, POST /v1/admin/fees, POST /v1/admin/topup. */
void xd_settings_h_market(struct xd_ctx *c);
void xd_settings_h_show(struct xd_ctx *c);
void xd_settings_h_fx(struct xd_ctx *c);
void xd_settings_h_fees(struct xd_ctx *c);
void xd_settings_h_topup(struct xd_ctx *c);

/* ---- admin.c: admin keys and the operator's reads ------------------------------
 * Admin keys are rows (admin_keys: SHA-256, name, who made it, last use,
 * revocation), looked up on every request like API keys, so a revocation
 * holds on every node from the next request. The key of --admin-key-file
 * becomes the admin key "bootstrap" on a database that has none. */
/* The admin key whose SHA-256 is hash, active: its id (c->admin_key_id set),
 * else 0 (HTTP thread). */
int64_t xd_admin_auth(struct xd_ctx *c, const unsigned char hash[32]);
/* Start-up: the bootstrap key (NULL: none) if the database has no admin key;
 * a log line if the file's key is not an active admin key. */
void xd_admin_bootstrap(struct xd_writer *w, const char *key);
void xd_admin_h_keys(struct xd_ctx *c);        /* GET /v1/admin/keys */
void xd_admin_h_key_create(struct xd_ctx *c);  /* POST /v1/admin/keys */
void xd_admin_h_key_revoke(struct xd_ctx *c);  /* DELETE /v1/admin/keys/{id} */
void xd_admin_h_accounts(struct xd_ctx *c);    /* GET /v1/admin/accounts */
void xd_admin_h_ledger(struct xd_ctx *c);      /* GET /v1/admin/accounts/{id}/ledger */
void xd_admin_h_audit(struct xd_ctx *c);       /* GET /v1/admin/audit */
/* A route that acts for the operator: true for the admin key; false with
 * 403 FORBIDDEN (or 401) in c->reply otherwise. With --demo, anyone. */
bool xd_admin_only(struct xd_ctx *c);
/* A positive decimal id of at most 15 digits (a path segment, a query value), else 0. */
int64_t xd_id_of(const char *p);
/* The query's limit (1..XD_LIMIT_MAX, default 50) and cursor into *p: 0, or -1
 * with 400 BAD_PARAM in c->reply. */
int xd_admin_page(struct xd_ctx *c, struct xd_page *p);
/* A list's "next_cursor": the last id shown when there are more, else null. */
void xd_next_cursor(cJSON *o, bool more, int64_t last);

/* ---- money.c: money in and out ------------------------------------------------- */
/* The FX arithmetic of docs/API.md for currency cur of the settings: net
 * minor units per GPU-hour at price_cents, VAT included, and the payout. */
int64_t xd_fx_net_unit(const struct xd_writer *w, int cur, int64_t price_cents);
int64_t xd_fx_unit(const struct xd_writer *w, int cur, int32_t vat_bp, int64_t price_cents);
int64_t xd_fx_payout_unit(const struct xd_writer *w, int cur, int64_t price_cents);
int64_t xd_fx_rate(const struct xd_writer *w, int cur);
/* The trade fee per GPU-hour of a payout unit at the settings' fee_trade_bp. */
int64_t xd_fee_unit(const struct xd_writer *w, int64_t payout_unit);
/* Charge the fees of nh billed hours of a rental to its seller (kind "fee"). */
void xd_fee_bill(struct xd_writer *w, int64_t seller, int cur, int64_t fee, int64_t sell_order,
                 int64_t rental);
/* Demo and start-up: a deposit with no reference. */
void xd_money_credit(struct xd_writer *w, int64_t account, int64_t amount);
void xd_money_h_deposit(struct xd_ctx *c);        /* POST /v1/deposits */
void xd_money_h_reverse(struct xd_ctx *c);        /* POST /v1/admin/deposits/reverse */
void xd_money_h_withdraw(struct xd_ctx *c);       /* POST /v1/withdrawals */
void xd_money_h_withdrawals(struct xd_ctx *c);    /* GET /v1/withdrawals */
void xd_money_h_admin_withdrawals(struct xd_ctx *c);  /* GET /v1/admin/withdrawals */
void xd_money_h_approve(struct xd_ctx *c);        /* POST /v1/admin/withdrawals/{id}/approve */
void xd_money_h_reject(struct xd_ctx *c);         /* POST /v1/admin/withdrawals/{id}/reject */
/* POST /v1/deposits' body: amount_minor, account_id (admin), reference. */
int xd_parse_deposit(const char *body, size_t len, bool admin, struct xd_job *j, struct xd_reply *r);

#endif
