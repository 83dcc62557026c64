/*
 * api — gpux's client for the exchange's HTTP+JSON API (docs/API.md), on
 * libcurl's multi interface and cJSON.
 *
 * Non-blocking core. An api_client owns one curl multi handle (and so one
 * connection cache: keep-alive, HTTP/2 multiplexing where TLS offers it).
 * A request is started with api_<endpoint>_start(client, ..., callback,
 * userdata), which returns at once; nothing happens on the wire until the
 * owner of the poll loop pumps the client:
 *
 *     struct pollfd fds[16 + 1];          // the keyboard in fds[0]
 *     int timeout = 1000;                 // what the loop would wait anyway
 *     int n = api_fds(client, fds + 1, 16, &timeout);   // lowers timeout
 *     poll(fds, n + 1, timeout);
 *     api_perform(client);                // never blocks; runs callbacks
 *
 * Callbacks run only from inside api_perform() (or a blocking call), never
 * from inside a *_start function. A callback receives either the decoded
 * reply, which it then OWNS (free it with the type's _free function), or an
 * error, which it only BORROWS (valid during the callback); exactly one of
 * them is non-NULL. Callbacks may start new requests; they must not free the
 * client.
 *
 * Blocking convenience: api_<endpoint>(client, ..., &out, &err) runs the
 * same machinery until that request is done (for the scriptable commands).
 * Returns 0 and *out, or -1 and *err (the caller frees it with
 * api_error_free).
 *
 * Strictness: every reply is decoded into typed structs; a missing field, a
 * wrong type, a number that is not a whole number where one is required, a
 * negative amount of money, a number beyond 2^53, a truncated or non-JSON or
 * oversized (> API_MAX_REPLY bytes) body becomes an API_ERR_PROTOCOL error
 * naming the field; no zero is ever taken silently for a price. Every string
 * that came from the server is passed through util_sanitize() before it is
 * stored, so it is safe to print on a terminal.
 *
 * Retries: reads (GET) are retried with exponential backoff and jitter on
 * network errors, timeouts, 5xx and 429 (honouring Retry-After, in seconds
 * or as an HTTP date), all within one deadline: the request's timeout is the
 * whole time it may take, every try and wait included (one try takes at
 * most half of it, so that a stuck connection leaves room for another). An order
 * carries a client_order_id generated once per intent; after a timeout, a
 * reset or a 5xx it is sent again with the SAME id, which the exchange
 * answers with the original order (docs/API.md, idempotency), so it can
 * never be placed twice. If no attempt gets an answer the error is
 * API_ERR_UNKNOWN_OUTCOME, naming the client_order_id.
 *
 * The API key is sent in the Authorization header only; it never appears in
 * an error, a message or a log line of this library.
 */
#ifndef GPUX_API_H
#define GPUX_API_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest reply body accepted, after decompression. */
#define API_MAX_REPLY (8u * 1024u * 1024u)

/* ---- errors ------------------------------------------------------------------ */

enum api_err {
	API_ERR_NETWORK = 1,    /* could not connect, connection reset, DNS */
	API_ERR_TIMEOUT,        /* no (complete) answer within the timeout */
	API_ERR_TLS,            /* certificate or TLS handshake failure */
	API_ERR_HTTP,           /* the exchange answered with an error (4xx/5xx) */
	API_ERR_PROTOCOL,       /* the reply could not be understood (or was too big) */
	API_ERR_UNKNOWN_OUTCOME,/* an order was sent but no attempt got an answer */
	API_ERR_CONFIG,         /* bad URL, key file, local exchange could not start */
};

struct api_error {
	enum api_err kind;
	int http_status;        /* 0 when no HTTP status was received */
	char *code;             /* the server's code, e.g. "INSUFFICIENT_FUNDS", or NULL */
	char *message;          /* readable, sanitised, never NULL */
	char *request_id;       /* the server's request id, or NULL */
	int retry_after_s;      /* from Retry-After (429/503), else 0 */
	char *client_order_id;  /* for order errors (and UNKNOWN_OUTCOME), else NULL */
	int attempts;           /* how many times the request was sent */
	/* extra fields of the server's error object (docs/API.md, Errors), when sent: */
	char *field;            /* the request field a validation error is about, or NULL */
	int64_t required_minor; /* INSUFFICIENT_FUNDS: the hold needed; -1 if not sent */
	int64_t available_minor;/* INSUFFICIENT_FUNDS: the available balance; -1 */
	char *currency;         /* INSUFFICIENT_FUNDS: their currency, or NULL */
	int64_t opens_at;       /* MARKET_NOT_OPEN: the announced opening (Unix s); -1 */
	/* API_ERR_NETWORK: what went wrong, for a short status line */
	enum api_net {
		API_NET_OTHER = 0,
		API_NET_REFUSED,        /* nothing listens there (ECONNREFUSED) */
		API_NET_NO_SOCKET,      /* the Unix socket is gone (ENOENT) */
		API_NET_UNKNOWN_HOST,   /* the host name does not resolve */
		API_NET_NO_ROUTE,       /* network or host unreachable */
		API_NET_LOST,           /* the connection broke (reset, nothing received) */
	} net;
	bool restarting;        /* the local demo exchange was not there and is being
	                           started again (api_local_respawn): the next request
	                           should find it */
	bool slow;              /* API_ERR_TIMEOUT: the reply had begun to arrive, but
	                           did not finish in time (a server trickling bytes) */
	/* a job order's refusal (JOB_NOT_RUNNABLE, OVER_BUDGET, …): the GPUs the
	 * exchange compared, as in struct api_job; NULL / 0 otherwise */
	struct api_job_alt *alternatives;
	size_t n_alternatives;
};

/* How long a poller (a screen that asks again on a timer) waits after e
 * before its next request: the server's Retry-After when it sent one (at
 * most an hour), else a backoff that doubles with each failure in a row
 * (failures >= 1) from 1 s to 60 s, with "equal jitter" (half fixed, half
 * random, so many clients spread); never less than min_ms. */
int64_t api_poll_delay_ms(const struct api_error *e, int failures, int64_t min_ms);

/* A new error of `kind` with a formatted message (no code, no status). */
struct api_error *api_error_new(enum api_err kind, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Free and set *e to NULL; NULL and *e == NULL are fine. */
void api_error_free(struct api_error **e);
/* One line a user can read (translated), malloc'ed, e.g.
 *   "the exchange refused: INSUFFICIENT_FUNDS: available 12.00 USD (request r-9f2)"
 *   "cannot reach the exchange at 127.0.0.1:8080: Connection refused"
 * Never contains the API key. */
char *api_error_text(const struct api_error *e);
/* The stable name of a kind: "network", "timeout", "tls", "http", "protocol",
 * "unknown_outcome", "config" (static; for JSON output and tests). */
const char *api_err_name(enum api_err kind);

/* ---- configuration ----------------------------------------------------------- */

struct api_config {
	const char *url;          /* "https://host[:port][/prefix]", "http://…", "unix:/path.sock" */
	const char *key;          /* API key (Bearer), or NULL for public endpoints only */
	long connect_timeout_ms;  /* 0: 5000 */
	long timeout_ms;          /* the whole request, retries included; 0: 15000 */
	int max_attempts;         /* per request, including the first; 0: 4; 1: no retry */
	long backoff_ms;          /* first retry delay before jitter; 0: 250 */
	bool insecure;            /* do not verify TLS certificates (say so loudly) */
	bool local_demo;          /* this is gpux's own local demo exchange */
};

/* ---- the configuration file ----------------------------------------------------
 * $XDG_CONFIG_HOME/gpux/config (default ~/.config/gpux/config): lines of
 * `name = value` (a value may be "quoted"), `#` comments, and `[NAME]` lines
 * that start a profile (one per exchange). Known names:
 *   api = URL               the exchange (else the local demo exchange)
 *   key = KEY               its API key (the file must then be chmod 600); sent
 *                           to that exchange only, never to another URL
 *   timeout = SECONDS       the whole of one request, retries included (default
 *                           15); connect_timeout (per try, default 5)
 *   profile = NAME          (top level) the profile used without --profile
 *   country = PT, currency = EUR   the local demo account (default US, USD)
 * and whatever the TUI keeps there (lang = pt-PT, …), at the top level.
 * api, key and the timeouts may stand at the top level (a profile without a
 * name, as files had them before profiles) or in a profile. Shared by the
 * CLI and the TUI. */
struct api_conf;

struct api_conf *api_conf_new(void);
/* Parse text (path only names it in messages); 0 and *out, or -1 and *cause
 * ("FILE, line 3: expected "name = value"" — a line is never quoted). */
int api_conf_parse(const char *path, const char *data, struct api_conf **out, char **cause);
/* Read a file; a missing file gives an empty conf. A file holding `key` that
 * group or others can read is refused ("… run: chmod 600 FILE"). */
int api_conf_load(const char *path, struct api_conf **out, char **cause);
/* The value of name at the top level (the last one if repeated), or NULL.
 * Borrowed. */
const char *api_conf_get(const struct api_conf *c, const char *name);
/* The names at the top level that start with prefix ("bind."), each once, in
 * the order of their first line: a malloc'ed array of borrowed names (free the array),
 * and how many. */
size_t api_conf_names(const struct api_conf *c, const char *prefix, const char ***names);
/* The same in profile `section` (NULL: the top level). */
const char *api_conf_get_in(const struct api_conf *c, const char *section, const char *name);
/* Set name to value (copied), or remove it (value NULL), keeping other lines:
 * at the top level (a new line goes before the first profile), or in profile
 * section (made at the end of the file if it is not there). */
void api_conf_set(struct api_conf *c, const char *name, const char *value);
void api_conf_set_in(struct api_conf *c, const char *section, const char *name,
		     const char *value);
/* Whether any line, top level or profile, is a `key`. */
bool api_conf_has_key(const struct api_conf *c);
/* The profiles' names in file order (*names malloc'ed, its strings borrowed);
 * how many. */
size_t api_conf_sections(const struct api_conf *c, const char ***names);
bool api_conf_has_section(const struct api_conf *c, const char *section);
/* Do two exchange URLs name the same exchange? (scheme and host in any case,
 * a default port written or not, a trailing '/'). NULL: never. */
bool api_same_exchange(const char *a, const char *b);
/* Write atomically (temporary file + rename), mode 0600, creating the
 * directory (0700); comments and order are kept. */
int api_conf_save(const struct api_conf *c, const char *path, char **cause);
void api_conf_free(struct api_conf **c);
/* $XDG_CONFIG_HOME/gpux/config and $XDG_DATA_HOME/gpux (HOME-based defaults),
 * malloc'ed; NULL when neither the variable nor HOME is set. */
char *api_conf_path(void);
char *api_data_dir(void);
/* $XDG_STATE_HOME/gpux (default ~/.local/state/gpux), malloc'ed; NULL when
 * neither the variable nor HOME is set: what the TUI remembers of a
 * session (tui/frame/state.c). */
char *api_state_dir(void);

/* The exchange settings, resolved: each from the flag (argument), else the
 * environment (GPUX_API, GPUX_API_KEY, GPUX_TIMEOUT, GPUX_PROFILE), else the
 * config file: the URL from the profile (--profile, else `profile =`, else
 * the top level); the key as given (flag, GPUX_API_KEY), else the key saved
 * for that URL's exchange — in the profile named if its api is that URL, else
 * at the top level if its api is, else in the first profile whose api is —
 * and otherwise none: a saved key is never sent to another exchange, and a
 * new exchange without a key is a first run (signup, the welcome screen).
 * A --profile that the file does not have is an error. */
struct api_settings {
	char *url;                  /* NULL: none configured → the local demo exchange */
	char *key;                  /* NULL: none */
	char *profile;              /* the profile of url's saved key (NULL: the top
	                               level, or none); where a new key is saved */
	long timeout_ms;            /* 0: default */
	long connect_timeout_ms;    /* 0: default */
	char *demo_country, *demo_currency; /* for the local demo account, or NULL */
	char *config_path;          /* the file consulted (may not exist), or NULL */
};
int api_settings_resolve(const char *flag_url, const char *flag_key, const char *flag_profile,
			 struct api_settings *out, char **cause);
void api_settings_clear(struct api_settings *s);

/* ---- the local demo exchange (the embedded default) ----------------------------
 * With no exchange configured gpux uses its own gpuxd --demo on a Unix socket
 * ($XDG_RUNTIME_DIR/gpux/d-HASH/gpuxd.sock, else /tmp/gpux-UID/d-HASH/, one
 * per data directory), its database and log in $XDG_DATA_HOME/gpux/ (else
 * ~/.local/share/gpux/), started as a daemon the first time and reused
 * afterwards (replaced when it runs another gpuxd binary); the demo account's key is kept in
 * that data directory (demo.key, 0600), not in the user's config. */
struct api_local {
	char *url;                 /* "unix:/…/gpuxd.sock" */
	char *socket_path;
	char *data_dir;
	char *log_path;
	char *key;                 /* the demo account's key (never print it) */
	int pid;                   /* gpuxd's pid (from gpuxd.pid), 0 if unknown */
	bool started;              /* started now (else an exchange already running) */
	bool account_created;      /* the demo account was opened now */
};
/* Find or start the local demo exchange and its account (blocks up to ~15 s
 * the first time). country/currency: the demo account's (NULL: "US", "USD").
 * 0 and *l filled (free with api_local_clear), or -1 and *cause. */
int api_local_start(struct api_local *l, const char *country, const char *currency,
		    char **cause);
void api_local_clear(struct api_local *l);
/* The local demo exchange on socket_path died while a client runs: start it
 * again in the background, without waiting (a detached process holds the
 * startup lock until the socket accepts, so two gpux never start two; same
 * database, so the demo account's key stays valid). Returns 1 when it is
 * being started, 0 when there is nothing to do (it accepts again, or another
 * gpux is starting it), -1 and *cause when it cannot be (no gpuxd, the
 * environment moved the socket). The client calls it itself (at most every
 * API_RESPAWN_MS) when a request of a local demo client cannot connect. */
int api_local_respawn(const char *socket_path, char **cause);
#define API_RESPAWN_MS 5000

/* `gpux demo`: the local demo exchange seen from outside. It is started in
 * the background the first time gpux needs it and exits by itself after
 * GPUX_DEMO_IDLE seconds (default 300) without a connection. */
struct api_local_status {
	char *data_dir, *socket_path, *log_path, *db_path;
	int pid;                   /* its process (from the pid file), 0 if none */
	bool running;              /* its socket accepts connections */
	bool stale_binary;         /* it runs another gpuxd than the one gpux would start
	                              (it is replaced the next time gpux uses it) */
	int64_t db_bytes, wal_bytes; /* -1: no such file */
	bool has_account;          /* the demo account's key is kept */
};
int api_local_status(struct api_local_status *st, char **cause);
void api_local_status_clear(struct api_local_status *st);
/* Stop it: 1 stopped, 0 it was not running, -1 and *cause. */
int api_local_stop(char **cause);
/* Stop it and remove its database (and WAL) and the demo account's key: the
 * next gpux starts a fresh demo market with a new account. 0, or -1. */
int api_local_reset(char **cause);

/* ---- libcurl, opened at run time (api/curl.c) ------------------------------------- */
/* gpux does not link libcurl: loading it and its thirty libraries (TLS,
 * Kerberos, LDAP, ...) takes longer than the rest of gpux's start. main calls
 * api_curl_start() as soon as it knows it has a command or the interactive
 * screen to run; a thread then opens libcurl.so.4 and initialises it while
 * main goes on. Call it once, from the main thread, before any other thread. */
void api_curl_start(void);
/* Waits until libcurl is loaded and initialised (loading it here if
 * api_curl_start was not called): 0, or -1 and *cause, one sentence naming
 * the library and the package to install. Every client and stream is made
 * after it; api_client_new and api_open call it. Any thread, any number of
 * times; the answer never changes. */
int api_curl_ready(char **cause);
/* Waits for the thread of api_curl_start, if there is one, without loading
 * anything otherwise: main calls it before it returns, so that the process
 * never exits while the thread is inside the dynamic loader or libcurl. */
void api_curl_settle(void);
/* Opens the first library of sonames (NULL-terminated) that has every
 * function gpux calls and initialises it: 0, or -1 and *cause as
 * api_curl_ready's. api_curl_ready runs it once with {"libcurl.so.4", NULL}. */
int api_curl_open(const char *const *sonames, char **cause);

/* Everything a front end needs to get a client: resolve the settings (flag,
 * environment, config file), and with no exchange configured start or reuse
 * the local demo exchange (api_client_is_local_demo() is then true: say so).
 * Blocks while the local exchange starts. If used is not NULL it receives
 * the settings (free with api_settings_clear). NULL and *cause on failure. */
struct api_open_opts {
	const char *url;           /* --api, or NULL */
	const char *key;           /* --key, or NULL */
	const char *profile;       /* --profile, or NULL */
	bool insecure;             /* --insecure */
	long timeout_ms;           /* at most this per request (0: config or default) */
	int max_attempts;          /* 0: default */
};
struct api_client *api_open(const struct api_open_opts *o, struct api_settings *used,
			    char **cause);

/* ---- the client ---------------------------------------------------------------- */

struct api_client;

/* A new client for cfg (strings are copied); NULL and *cause on a bad URL. */
struct api_client *api_client_new(const struct api_config *cfg, char **cause);
/* Free the client, abandoning every pending request without calling its
 * callback; sets *c to NULL. Not from inside a callback. */
void api_client_free(struct api_client **c);
/* Authenticate the requests started from now on with key (copied; NULL:
 * none); whether the client has a key. */
void api_client_set_key(struct api_client *c, const char *key);
bool api_client_has_key(const struct api_client *c);
/* True when the client talks to gpux's own local demo exchange (see
 * api_local_start); everything that prints should say so. */
bool api_client_is_local_demo(const struct api_client *c);
/* "127.0.0.1:8080", "exchange.example.com", "local demo exchange" — for
 * status lines and messages (static inside the client; no credentials). */
const char *api_client_label(const struct api_client *c);

/* ---- the pump (poll integration) ------------------------------------------------ */

/* Fill fds[0..max-1] with the sockets the client waits on (events set,
 * revents 0) and return how many were written. Lower *timeout_ms (in/out;
 * -1 = infinite) to when the client next needs api_perform() even if no
 * socket is ready (curl's timers, retry backoff); never raises it.
 * With more sockets than max, only max are written and *timeout_ms is
 * lowered to a few ms so the others are still served. */
int api_fds(struct api_client *c, struct pollfd *fds, int max, int *timeout_ms);
/* Do whatever can be done now without waiting: read/write ready sockets,
 * run expired timers, start due retries, decode finished replies, call
 * their callbacks. Cheap when there is nothing to do. */
void api_perform(struct api_client *c);
/* Number of requests started and not yet delivered. */
int api_pending(const struct api_client *c);
/* Request `id` in flight: which try it is on (1, 2, …), and when the
 * request and that try started (util_now_ms clock), for "Sending… 3 s,
 * try 2". -1 when it is not pending (delivered or unknown). */
int api_call_try(const struct api_client *c, uint64_t id, int64_t *started_ms,
		 int64_t *try_started_ms);
/* Has any byte of the reply to request `id` arrived (its status line,
 * say)? For a caller that gives up on a request before the client's own
 * timeout, to tell "no answer" from "answers too slowly". */
bool api_call_receiving(const struct api_client *c, uint64_t id);
/* The error of request `id`'s last try while it waits to try again (a 503
 * with Retry-After, say), or NULL; owned by the client, valid until the
 * next api_perform or api_abandon. */
const struct api_error *api_call_error(const struct api_client *c, uint64_t id);
/* Abandon request `id` (returned by a *_start): its callback will not be
 * called. An order already sent may still be placed: only abandon an order
 * when quitting. Unknown ids are ignored. */
void api_abandon(struct api_client *c, uint64_t id);

/* ---- wire types (docs/API.md) --------------------------------------------------
 * Conventions of every decoded struct: strings are malloc'ed and sanitised;
 * money is int64 minor units (prices: US cents per GPU-hour); a price or id
 * that may be absent (JSON null) is -1; times are Unix seconds of the
 * exchange clock, -1 when null. Each type has a _free(T **) that frees it
 * and sets the pointer to NULL (NULL is fine). */

enum api_side { API_BUY, API_SELL };
enum api_order_type { API_LIMIT, API_MARKET };
enum api_tif { API_TIF_DEFAULT = -1, API_GTC = 0, API_IOC, API_FOK };
enum api_order_status {
	API_ORDER_OPEN, API_ORDER_PARTIALLY_FILLED, API_ORDER_FILLED,
	API_ORDER_CANCELLED, API_ORDER_EXPIRED, API_ORDER_REJECTED,
	API_ORDER_WAITING,         /* a conditional order off the book, waiting for its trigger */
};
/* What an alert watches, and a conditional order's trigger (the first six):
 * a price at or below (lte) / at or above (gte) a threshold, the spread, a
 * rental ending, an order filled, a job's cheapest total at or below a
 * budget (docs/API.md "Alerts"). */
enum api_when {
	API_WHEN_ASK_LTE, API_WHEN_ASK_GTE, API_WHEN_BID_LTE, API_WHEN_BID_GTE,
	API_WHEN_LAST_LTE, API_WHEN_LAST_GTE, API_WHEN_SPREAD_LTE, API_WHEN_SPREAD_GTE,
	API_WHEN_RENTAL_ENDING, API_WHEN_ORDER_FILLED, API_WHEN_JOB_TOTAL_LTE,
};
/* Is it about a price of one GPU's book (gpu, price_cents, rearm_cents)? */
bool api_when_is_price(enum api_when v);
enum api_role { API_ROLE_BUYER, API_ROLE_SELLER, API_ROLE_BOTH };
enum api_market_state { API_MARKET_PRE_OPEN, API_MARKET_OPEN, API_MARKET_HALTED };
enum api_rental_status { API_RENTAL_ACTIVE, API_RENTAL_COMPLETED, API_RENTAL_STOPPED };
enum api_ledger_kind {
	API_LEDGER_DEPOSIT, API_LEDGER_HOLD, API_LEDGER_RELEASE, API_LEDGER_CHARGE,
	API_LEDGER_VAT, API_LEDGER_PAYOUT, API_LEDGER_FEE, API_LEDGER_DEPOSIT_REVERSAL,
	API_LEDGER_WITHDRAWAL_HOLD, API_LEDGER_WITHDRAWAL, API_LEDGER_WITHDRAWAL_RELEASE,
};

/* The wire names ("buy", "partially_filled", "pre_open", …); static. */
const char *api_side_name(enum api_side v);
const char *api_order_type_name(enum api_order_type v);
const char *api_tif_name(enum api_tif v);            /* "gtc"; "" for DEFAULT */
const char *api_order_status_name(enum api_order_status v);
const char *api_role_name(enum api_role v);
const char *api_market_state_name(enum api_market_state v);
const char *api_rental_status_name(enum api_rental_status v);
const char *api_ledger_kind_name(enum api_ledger_kind v);
const char *api_when_name(enum api_when v);           /* "ask_lte", … */
/* Parse a wire name; 0 and *out, or -1. */
int api_tif_parse(const char *s, enum api_tif *out);
int api_when_parse(const char *s, enum api_when *out);

/* A named integer rate: FX ("EUR" → 920000 micro-units per USD) or VAT
 * ("PT" → 2300 basis points). */
struct api_rate {
	char *key;
	int64_t value;
};

/* A region of the exchange (GET /v1/market's "regions"). */
struct api_region {
	char *id;                  /* "eu-west": what orders name */
	char *name;                /* "Europe West (Lisbon)" */
};

/* ---- lots: what an ask sells and what a bid requires (docs/API.md, the
 * market's rules). An ask is a lot of machines ("nodes") of node_gpus GPUs
 * each, on one interconnect, in one region, each with a host; a bid fills
 * in units of its node_gpus GPUs inside one machine that meet what it
 * requires. An exchange from before lots sends none of these fields: the
 * structs that carry them say so (has_lot false). */

/* A machine's host; per machine, 0 = not stated. */
struct api_host {
	int64_t cpu_cores, ram_gb, disk_gb;
};
/* One machine of a lot ("o4117-2": sell order 4117, its machine 2) and GPUs
 * of it: those of a rental or a fill there; of a resting sell order, those
 * not sold yet. */
struct api_node {
	char *node;
	int64_t gpus;
};
/* The lot an ask is, or a fill or a rental was cut from. */
struct api_lot {
	int64_t node_gpus;         /* GPUs per machine: 1, 2, 4 or 8 */
	char *interconnect;        /* "nvlink", "infinity-fabric", "pcie" */
	char *region;              /* a region id */
	struct api_host host;
	bool whole_nodes;          /* only whole machines are sold (not known for a
	                              rental: false) */
};
/* What a bid requires (all optional). */
struct api_needs {
	int64_t node_gpus;         /* units of this many GPUs in one machine; 1: none */
	char *interconnect;        /* NULL: any */
	char **regions;            /* any of these; none: any region */
	size_t n_regions;
	struct api_host min;       /* per machine, at least; 0: no minimum */
};
void api_lot_clear(struct api_lot *l);
void api_needs_clear(struct api_needs *n);
void api_nodes_free(struct api_node *v, size_t n);

/* GET /v1/market */
struct api_market {
	enum api_market_state state;
	int64_t opens_at;          /* -1: not announced */
	int64_t server_time;
	double clock_speed;        /* exchange seconds per real second */
	bool demo, simulated_payments;
	char **currencies;
	size_t n_currencies;
	char *fx_date, *fx_note;
	struct api_rate *fx;       /* rate_micro, units of C per USD × 10^6 */
	size_t n_fx;
	char *vat_date, *vat_source;
	struct api_rate *vat;      /* rate_bp per country */
	size_t n_vat;
	int64_t gpus_max, hours_max, price_cents_max; /* from "limits"; -1 if absent */
	struct api_region *regions; /* where the sellers' machines are, in the
	                              exchange's order (the first is an ask's
	                              default); none from an exchange before lots */
	size_t n_regions;
};
void api_market_free(struct api_market **p);

/* GET /v1/gpus (the catalogue; the fields gpux uses from the exchange) */
struct api_gpu {
	char *id, *name, *arch, *vendor;
	double memory_gb;
};
struct api_gpus {
	struct api_gpu *v;
	size_t n;
};
void api_gpus_free(struct api_gpus **p);

/* GET /v1/workloads */
struct api_workload {
	char *id, *title;
	char **gpus;               /* GPU ids, in table order */
	size_t n_gpus;
};
struct api_workloads {
	struct api_workload *v;
	size_t n;
};
void api_workloads_free(struct api_workloads **p);

/* GET /v1/quotes */
struct api_quote {
	char *gpu;
	int64_t best_ask_cents;    /* -1: no ask */
	int64_t ask_gpus;
	int64_t best_bid_cents;    /* -1: no bid */
	int64_t bid_gpus;
	int64_t last_cents;        /* -1: no trade yet */
	/* a whole unit of 8 GPUs inside one machine: the best price (-1: none)
	 * and the units at it; has_n8 false from an exchange before lots */
	bool has_n8;
	int64_t best_ask_n8_cents;
	int64_t ask_n8_units;
};
struct api_quotes {
	bool unchanged;            /* 304: same as the reply whose ETag was sent; v empty */
	char *etag;                /* send it back as the etag of the next request */
	int64_t seq;               /* -1 when unchanged */
	int64_t server_time;       /* -1 when unchanged */
	struct api_quote *v;
	size_t n;
};
void api_quotes_free(struct api_quotes **p);
/* The quote of gpu id, or NULL. */
const struct api_quote *api_quotes_find(const struct api_quotes *q, const char *gpu);

/* GET /v1/books/{gpu} */
struct api_level {
	int64_t price_cents, gpus, orders;
	int64_t gpu_hours;         /* Σ GPUs × hours of its orders; -1: the exchange sent none */
	int64_t units;             /* a ladder by node size: units of the book's node_gpus
	                              (gpus = units × node_gpus); -1 in the plain book */
};
struct api_book {
	char *gpu;
	int64_t node_gpus;         /* the ladder of units of this many GPUs inside one
	                              machine; 0: the plain book (no query) */
	char *interconnect;        /* ... on this link only (NULL: any) */
	char **regions;            /* ... in these regions (none: any) */
	size_t n_regions;
	int64_t seq, server_time;
	struct api_level *asks;    /* best (lowest) first */
	size_t n_asks;
	struct api_level *bids;    /* best (highest) first */
	size_t n_bids;
};
void api_book_free(struct api_book **p);

/* GET /v1/trades/{gpu} */
struct api_trade {
	int64_t id, price_cents, gpus, hours;
	enum api_side taker_side;
	int64_t at;
};
struct api_trades {
	char *gpu;
	struct api_trade *v;       /* newest first */
	size_t n;
	char *next_cursor;         /* NULL on the last page */
};
void api_trades_free(struct api_trades **p);

/* GET /v1/candles/{gpu}: OHLC per interval; intervals without trades are
 * not there (no price was made in them). */
struct api_candle {
	int64_t start;             /* Unix s, aligned to the interval (UTC) */
	int64_t open_cents, high_cents, low_cents, close_cents;
	int64_t gpus, gpu_hours, trades;
};
struct api_candles {
	char *gpu, *interval;      /* "1m", "5m", "1h", "1d" */
	int64_t interval_s, server_time;
	struct api_candle *v;      /* oldest first */
	size_t n;
};
void api_candles_free(struct api_candles **p);

/* POST /v1/accounts and GET /v1/account */
struct api_balance {
	int64_t available_minor, held_minor, total_minor;
	int64_t debt_minor;        /* what the account owes (>= 0); 0 when not sent */
	int64_t withdrawals_pending_minor; /* the part of held waiting to be paid out; 0 */
};
struct api_account {
	int64_t id;
	char *api_key;             /* only from api_account_create: shown once; wiped by _free */
	char *email, *country, *currency;
	enum api_role role;
	int64_t vat_rate_bp;
	int64_t fx_rate_micro;     /* -1 from create */
	int64_t currency_exponent; /* ISO 4217 minor-unit digits; 2 when not sent */
	int64_t fx_rate_set_at;    /* when the rate was set (Unix s); -1 when not sent */
	bool fx_rate_stale;        /* older than the exchange's limit */
	int64_t created_at;
	bool has_balance;          /* false from create */
	struct api_balance balance;
	int64_t open_orders, active_rentals; /* -1 from create */
};
void api_account_free(struct api_account **p);

/* POST /v1/deposits, POST /v1/admin/deposits/reverse */
struct api_deposit {
	int64_t id, account_id, amount_minor;
	char *currency;
	int64_t at;
	struct api_balance balance;
	int64_t deposit_id;        /* -1 when not sent */
	char *reference;           /* the payment's reference, or NULL */
	bool replayed;             /* the reference was credited (or reversed) before */
	char *note;                /* what the exchange says of a replay, or NULL */
	int64_t debt_paid_minor;   /* of the amount, what paid the account's debt */
	int64_t reversed_at;       /* -1: not reversed */
	int64_t reversal_debt_minor; /* what a reversal left owed */
};
void api_deposit_free(struct api_deposit **p);

/* GET /v1/ledger */
struct api_ledger_row {
	int64_t id, entry_id;
	enum api_ledger_kind kind;
	bool held;                 /* bucket "held" */
	bool debt;                 /* bucket "debt" (what the account owes); neither: "available" */
	int64_t amount_minor;      /* signed */
	char *currency;
	int64_t order_id, rental_id; /* -1 when null */
	int64_t at;
};
struct api_ledger {
	struct api_ledger_row *v;
	size_t n;
	char *next_cursor;
};
void api_ledger_free(struct api_ledger **p);

/* An order as the client asks for it (POST /v1/orders and /preview). */
struct api_order_req {
	const char *client_order_id; /* place: NULL = a new one is generated (see
	                                api_client_order_id_new); preview: ignored */
	const char *gpu;
	enum api_side side;
	enum api_order_type type;
	int gpus, hours;
	int64_t price_cents;       /* limit price; for a market order its cap
	                              (max_price_cents of a buy, min_price_cents of a sell) */
	enum api_tif tif;          /* API_TIF_DEFAULT: the exchange's default */
	/* The lot (a sell) or what the bid requires (a buy); each left 0 /
	 * NULL / false is not sent, and the exchange's default applies. */
	int node_gpus;             /* 1, 2, 4, 8: GPUs per machine / per unit */
	const char *interconnect;  /* "nvlink", "infinity-fabric", "pcie" */
	const char *region;        /* a sell: its region */
	const char *const *regions; /* a buy: any of these */
	size_t n_regions;
	struct api_host host;      /* a sell: each machine's; a buy: the minimums */
	bool whole_nodes;          /* a sell: only whole machines */
	/* a conditional order: it waits off the book until trigger_when holds at
	 * trigger_price_cents (one of the first six conditions) */
	bool has_trigger;
	enum api_when trigger_when;
	int64_t trigger_price_cents;
	const char *oco_group;     /* one-cancels-other group, or NULL */
	bool standing;             /* keep gpus for periods of hours at <= price (a limit buy) */
};

/* POST /v1/orders/preview */
struct api_preview_fill {
	int64_t price_cents, gpus;
	int64_t unit_gpus;         /* the buy's unit (gpus ÷ unit whole units); 0 unknown */
	bool has_lot;              /* the lot and nodes below were sent */
	struct api_lot lot;        /* the lot it is cut from (a buy: the resting ask's) */
	struct api_node *nodes;    /* the machines and GPUs of each */
	size_t n_nodes;
};
struct api_preview {
	char *gpu;
	enum api_side side;
	enum api_order_type type;
	enum api_tif tif;
	int64_t gpus, hours, price_cents;
	enum api_market_state market_state;
	struct api_preview_fill *fills;
	size_t n_fills;
	int64_t fill_gpus, rest_gpus, expire_gpus;
	char *currency;
	int64_t fx_rate_micro, vat_rate_bp;
	int64_t unit_minor, hold_minor;
	int64_t net_minor, vat_minor, total_minor;   /* cost of the fills */
	int64_t balance_available_minor, balance_after_minor; /* after may be < 0 if rejected */
	enum api_order_status would_status;
	char *reject_code, *reject_message;          /* NULL unless it would be rejected */
	bool has_lot;              /* the request's lot or requirements, echoed: */
	struct api_lot lot;        /* ... a sell's */
	struct api_needs needs;    /* ... a buy's */
	int trigger_holds;         /* a conditional order: 1 its trigger holds now, 0 not; -1 none */
};
void api_preview_free(struct api_preview **p);

/* POST /v1/orders, GET /v1/orders/{id}, DELETE /v1/orders/{id} */
struct api_fill {
	int64_t trade_id, price_cents, gpus, hours, rental_id;
	bool maker;                /* liquidity "maker" (it was resting) */
	int64_t at;
};
struct api_order {
	int64_t id;
	char *client_order_id;
	char *gpu;
	enum api_side side;
	enum api_order_type type;
	enum api_tif tif;
	int64_t gpus, hours, price_cents; /* limit price, or the cap/floor of a market order */
	enum api_order_status status;
	int64_t filled_gpus, remaining_gpus, filled_value_cents;
	char *currency;
	int64_t hold_minor;
	int64_t created_at, updated_at;
	bool has_fills;            /* false in lists */
	struct api_fill *fills;    /* oldest first */
	size_t n_fills;
	bool replayed;             /* place: the exchange had this client_order_id already
	                              (a retry found the original order) */
	bool reconciled;           /* place: found by client_order_id after the POSTs got
	                              no answer */
	bool has_lot;              /* the lot or requirements were sent: */
	struct api_lot lot;        /* ... a sell's */
	struct api_needs needs;    /* ... a buy's */
	struct api_node *nodes;    /* a resting sell: each machine and its GPUs not sold */
	size_t n_nodes;
	bool has_trigger;          /* a conditional order's trigger */
	enum api_when trigger_when;
	int64_t trigger_price_cents;
	char *oco_group;           /* NULL: none */
	enum api_standing { API_STANDING_NONE, API_STANDING_ACTIVE, API_STANDING_STOPPED } standing;
	char *standing_reason;     /* why a standing order stopped, or NULL */
};
void api_order_free(struct api_order **p);

/* GET /v1/orders */
struct api_orders {
	struct api_order *v;
	size_t n;
	char *next_cursor;
};
void api_orders_free(struct api_orders **p);

/* GET /v1/rentals, POST /v1/rentals/{id}/stop */
struct api_rental {
	int64_t id;
	char *gpu;
	bool seller;               /* role "seller" (else "buyer") */
	int64_t order_id, trade_id, gpus, hours, price_cents;
	enum api_rental_status status;
	int64_t hours_billed;
	int64_t started_at, ends_at, stopped_at, next_bill_at; /* -1 when null */
	char *currency;
	int64_t unit_minor, hourly_minor, hourly_vat_minor;
	int64_t billed_minor, refunded_minor, held_minor;
	bool has_lot;              /* the lot was sent (an exchange with lots) */
	struct api_lot lot;        /* what was bought: the lot it was cut from */
	struct api_node *nodes;    /* its machines and GPUs on each; NULL: not recorded */
	size_t n_nodes;
};
void api_rental_free(struct api_rental **p);
struct api_rentals {
	struct api_rental *v;
	size_t n;
	char *next_cursor;
};
void api_rentals_free(struct api_rentals **p);

/* Filters and paging of the list endpoints; NULL / 0 = not sent.
 * orders: status ("open", "closed", "all" or a status name), gpu, side,
 * client_order_id; rentals: status ("active", "ended", "all"), gpu;
 * ledger and trades: only cursor and limit. */
struct api_list_query {
	const char *status;
	const char *gpu;
	const char *side;
	const char *client_order_id;
	const char *cursor;
	int limit;                 /* 1..200; 0 = the exchange's default (50) */
};

/* A new client order id (32 hex digits, 128 random bits), malloc'ed. Make ONE
 * per intent to trade and send that same id again when retrying it. */
char *api_client_order_id_new(void);

/* ---- asynchronous calls ------------------------------------------------------
 * Each returns the request's id (> 0) for api_abandon(). The callback gets
 * (userdata, reply, NULL) — and owns reply — or (userdata, NULL, error) —
 * and only borrows error. Arguments are copied; nothing needs to outlive the
 * call. */
typedef void (*api_market_cb)(void *ud, struct api_market *r, const struct api_error *e);
typedef void (*api_gpus_cb)(void *ud, struct api_gpus *r, const struct api_error *e);
typedef void (*api_workloads_cb)(void *ud, struct api_workloads *r, const struct api_error *e);
typedef void (*api_quotes_cb)(void *ud, struct api_quotes *r, const struct api_error *e);
typedef void (*api_book_cb)(void *ud, struct api_book *r, const struct api_error *e);
typedef void (*api_trades_cb)(void *ud, struct api_trades *r, const struct api_error *e);
typedef void (*api_account_cb)(void *ud, struct api_account *r, const struct api_error *e);
typedef void (*api_deposit_cb)(void *ud, struct api_deposit *r, const struct api_error *e);
typedef void (*api_ledger_cb)(void *ud, struct api_ledger *r, const struct api_error *e);
typedef void (*api_preview_cb)(void *ud, struct api_preview *r, const struct api_error *e);
typedef void (*api_order_cb)(void *ud, struct api_order *r, const struct api_error *e);
typedef void (*api_orders_cb)(void *ud, struct api_orders *r, const struct api_error *e);
typedef void (*api_rental_cb)(void *ud, struct api_rental *r, const struct api_error *e);
typedef void (*api_rentals_cb)(void *ud, struct api_rentals *r, const struct api_error *e);

uint64_t api_market_start(struct api_client *c, api_market_cb cb, void *ud);
uint64_t api_gpus_start(struct api_client *c, api_gpus_cb cb, void *ud);
uint64_t api_workloads_start(struct api_client *c, api_workloads_cb cb, void *ud);
/* etag: the last reply's ETag or NULL; an unchanged book gives r->unchanged. */
uint64_t api_quotes_start(struct api_client *c, const char *etag, api_quotes_cb cb, void *ud);
/* depth 0: the exchange's default (20). */
uint64_t api_book_start(struct api_client *c, const char *gpu, int depth, api_book_cb cb,
			void *ud);
uint64_t api_trades_start(struct api_client *c, const char *gpu,
			  const struct api_list_query *q, api_trades_cb cb, void *ud);
/* POST /v1/accounts: currency "EUR"|"USD"|"GBP", role: buyer|seller|both.
 * Not retried unless the request surely did not leave (it is not idempotent). */
uint64_t api_account_create_start(struct api_client *c, const char *email,
				  const char *country, const char *currency, enum api_role role,
				  api_account_cb cb, void *ud);
uint64_t api_account_start(struct api_client *c, api_account_cb cb, void *ud);
/* POST /v1/deposits to the caller's own account (demo exchanges). Not retried
 * unless the request surely did not leave. */
uint64_t api_deposit_start(struct api_client *c, int64_t amount_minor, api_deposit_cb cb,
			   void *ud);
uint64_t api_ledger_start(struct api_client *c, const struct api_list_query *q,
			  api_ledger_cb cb, void *ud);
uint64_t api_order_preview_start(struct api_client *c, const struct api_order_req *o,
				 api_preview_cb cb, void *ud);
/* Place an order: retried with the same client_order_id after a timeout, a
 * reset, a 5xx or a 429; if no attempt is answered, the exchange is asked for
 * the order by client_order_id (r->reconciled), and if that fails too the
 * error is API_ERR_UNKNOWN_OUTCOME. Errors carry e->client_order_id. */
uint64_t api_order_place_start(struct api_client *c, const struct api_order_req *o,
			       api_order_cb cb, void *ud);
uint64_t api_order_get_start(struct api_client *c, int64_t id, api_order_cb cb, void *ud);
uint64_t api_order_cancel_start(struct api_client *c, int64_t id, api_order_cb cb, void *ud);
uint64_t api_orders_start(struct api_client *c, const struct api_list_query *q,
			  api_orders_cb cb, void *ud);
uint64_t api_rentals_start(struct api_client *c, const struct api_list_query *q,
			   api_rentals_cb cb, void *ud);
uint64_t api_rental_stop_start(struct api_client *c, int64_t id, api_rental_cb cb, void *ud);

/* GET /v1/books/{gpu} by node size: the ladder of what can serve units of
 * node_gpus GPUs inside one machine (0: 1), on that interconnect (NULL:
 * any), in these regions (comma-separated ids; NULL: any); depth 0: the
 * exchange's default. */
struct api_book_query {
	int depth;
	int node_gpus;
	const char *interconnect;
	const char *regions;
};
uint64_t api_book_query_start(struct api_client *c, const char *gpu,
			      const struct api_book_query *q, api_book_cb cb, void *ud);
int api_book_query(struct api_client *c, const char *gpu, const struct api_book_query *q,
		   struct api_book **out, struct api_error **err);

/* ---- job orders (docs/API.md, "Job orders") -------------------------------------
 * "Run this job at the lowest total across every GPU book": the fit job's
 * inputs in their wire form (fit_job_to_fields), a budget in the account's
 * currency (VAT included), optional regions and hours. The exchange prices
 * the job on every GPU with the same fit/ library, compares, and places the
 * cheapest as one FOK order (or, previewed, says what it would place). */
struct fit_job;
struct api_job_req {
	const char *client_order_id; /* place: NULL = a new one; preview: ignored */
	const struct fit_job *job;   /* checked (fit_job_check) */
	const char *label;           /* the model's preset id, or NULL */
	int hours;                   /* 0: not sent (training: the run's time) */
	int64_t max_total_minor;     /* the budget, in the account's currency */
	const char *const *regions;  /* only machines in these (none: any) */
	size_t n_regions;
};
/* One GPU the exchange compared. -1 / NULL where it sent null. */
struct api_job_alt {
	char *gpu;
	bool runnable;             /* its book can run the job now */
	char *reason;              /* in words; NULL for the one chosen */
	int64_t gpus, node_gpus, nodes, hours, total_minor;
	char *interconnect;
};
void api_job_alts_free(struct api_job_alt *v, size_t n);
struct api_job {
	int64_t fit_model_version; /* of the model that priced it on the exchange */
	char *gpu;                 /* the GPU chosen; NULL when none can run it */
	int64_t hours, total_minor, max_total_minor; /* -1: null */
	char *currency;
	struct api_order *order;   /* place: the FOK order placed */
	struct api_preview *preview; /* preview: the FOK order it would place, or NULL */
	char *reject_code, *reject_message; /* preview: the refusal it would meet, or NULL */
	struct api_job_alt *alternatives; /* one per GPU, in catalogue order */
	size_t n_alternatives;
	bool replayed;             /* place: the exchange had this client_order_id */
	bool reconciled;           /* place: found by client_order_id (no frame then:
	                              only order and gpu are set) */
};
void api_job_free(struct api_job **p);
typedef void (*api_job_cb)(void *ud, struct api_job *r, const struct api_error *e);
/* POST /v1/orders/preview with a job (retried like a read). */
uint64_t api_job_preview_start(struct api_client *c, const struct api_job_req *r, api_job_cb cb,
			       void *ud);
/* POST /v1/orders with a job: retried with the same client_order_id, and
 * reconciled, as api_order_place_start. A refusal (JOB_NOT_RUNNABLE,
 * OVER_BUDGET, …) carries the alternatives in the error. */
uint64_t api_job_place_start(struct api_client *c, const struct api_job_req *r, api_job_cb cb,
			     void *ud);
int api_job_preview(struct api_client *c, const struct api_job_req *r, struct api_job **out,
		    struct api_error **err);
int api_job_place(struct api_client *c, const struct api_job_req *r, struct api_job **out,
		  struct api_error **err);

/* interval: "1m", "5m", "1h", "1d" or NULL (1h); from/to: Unix s, or -1;
 * limit 0: the exchange's default (100). */
struct api_candles_query {
	const char *interval;
	int64_t from, to;
	int limit;
};
typedef void (*api_candles_cb)(void *ud, struct api_candles *r, const struct api_error *e);
uint64_t api_candles_start(struct api_client *c, const char *gpu,
			   const struct api_candles_query *q, api_candles_cb cb, void *ud);
int api_candles(struct api_client *c, const char *gpu, const struct api_candles_query *q,
		struct api_candles **out, struct api_error **err);

/* ---- the market stream (GET /v1/stream, api/stream.c) ----------------------------
 * Market data pushed by the exchange: one snapshot per channel, then
 * sequenced increments. A stream has its own curl multi handle, pumped in
 * the caller's poll loop next to the client's:
 *
 *     n = api_fds(client, fds + 1, 16, &timeout);
 *     n += api_stream_fds(stream, fds + 1 + n, 16 - n, &timeout);
 *     poll(fds, n + 1, timeout);
 *     api_perform(client);
 *     api_stream_perform(stream);      // never blocks; runs the callbacks
 *
 * It reconnects by itself after any failure (backoff with jitter, sending
 * Last-Event-ID so that nothing is missed while the exchange still holds
 * it), resyncs (reconnects for fresh snapshots) when an increment shows a
 * gap, and treats garbage, a line over API_STREAM_LINE_MAX bytes and
 * silence over the stall time as failures. When the exchange does not
 * stream (404, or not text/event-stream), it polls GET /v1/quotes every 2 s
 * through the client instead and delivers each new reply as a quotes
 * snapshot (state API_STREAM_POLLING); it tries the stream again every
 * minute. Events are delivered as decoded, strictly checked structs. */
#define API_STREAM_LINE_MAX (1u << 20)

enum api_stream_state {
	API_STREAM_CONNECTING,     /* first connection under way */
	API_STREAM_LIVE,           /* streamed: the snapshots have arrived */
	API_STREAM_POLLING,        /* the exchange does not stream: /v1/quotes every 2 s */
	API_STREAM_RETRYING,       /* the stream failed; waiting to reconnect */
};
const char *api_stream_state_name(enum api_stream_state s);  /* "live", … (static) */

enum api_ev_kind {
	API_EV_SNAPSHOT,           /* a channel's whole state (channel says which) */
	API_EV_QUOTE,              /* quotes that changed */
	API_EV_TRADE,              /* one GPU's new trades, oldest first */
	API_EV_BOOK,               /* one GPU's changed levels; gpus 0 = the level is gone */
	API_EV_HEARTBEAT,
	API_EV_ACCOUNT,            /* an event of the account's log (the account channel) */
};
enum api_channel { API_CH_QUOTES, API_CH_TRADES, API_CH_BOOK, API_CH_NONE, API_CH_ACCOUNT };
struct api_stream_event {
	enum api_ev_kind kind;
	enum api_channel channel;  /* of a snapshot or increment */
	char *gpu;                 /* trades and book channels; NULL for quotes */
	int64_t seq;               /* the exchange's seq (as in /v1/quotes) */
	int64_t prev;              /* increments: seq of the channel's previous event; else -1 */
	struct api_quote *quotes;  /* quotes snapshot: every GPU; quote: the changed ones */
	size_t n_quotes;
	struct api_level *asks, *bids; /* book snapshot: best first; book: changed levels */
	size_t n_asks, n_bids;
	struct api_trade *trades;  /* trades snapshot: newest first; trade: oldest first */
	size_t n_trades;
	bool polled;               /* made from a GET /v1/quotes reply (polling) */
	/* the account channel: its snapshot's last_id (the log's number it
	 * starts after), or one event of the log */
	int64_t account_last;
	struct api_account_event *account;
};
void api_stream_event_free(struct api_stream_event **e);
/* Decode one SSE event (its name and data, NUL-terminated at data[len]):
 * 0 and *out, 1 for an event name this client does not know (ignored),
 * -1 and *cause. For tests and fuzzers; the stream uses it itself. */
int api_stream_decode(const char *event, const char *data, size_t len,
		      struct api_stream_event **out, char **cause);

/* Callbacks run only from inside api_stream_perform() (polled quotes: from
 * api_perform()); they may start requests but must not close the stream. */
struct api_stream_cbs {
	/* An event (borrowed: valid during the call). */
	void (*event)(void *ud, const struct api_stream_event *ev);
	/* The state changed; why is the failure behind RETRYING or POLLING
	 * (borrowed), else NULL. */
	void (*state)(void *ud, enum api_stream_state st, const struct api_error *why);
	void *ud;
};
struct api_stream_opts {
	const char *channels;      /* "quotes,trades:h200,book:*"; NULL: "quotes". With
	                              "account" the client's key is sent (the account
	                              channel is private), and the account's events are
	                              delivered once each: a number already delivered on
	                              this stream is never delivered again, across
	                              reconnects and a restart of the exchange */
	bool account_resume;       /* start the account channel after account_after (an
	                              event number delivered before, e.g. by an earlier
	                              run) instead of at the log's end */
	int64_t account_after;
	bool no_poll;              /* never fall back to polling (gpux watch) */
	long stall_ms;             /* silence that counts as a failure; 0: 25000 */
	long max_backoff_ms;       /* 0: 10000 */
};
struct api_stream;
/* Start streaming (returns at once; nothing happens until pumped). The
 * client must outlive the stream. */
struct api_stream *api_stream_open(struct api_client *c, const struct api_stream_opts *o,
				   const struct api_stream_cbs *cb);
void api_stream_close(struct api_stream **s);
int api_stream_fds(struct api_stream *s, struct pollfd *fds, int max, int *timeout_ms);
void api_stream_perform(struct api_stream *s);
/* The state and since when (Unix ms). */
enum api_stream_state api_stream_state(const struct api_stream *s, int64_t *since_ms);
/* Reconnects so far (after failures, gaps or the server's closing). */
int api_stream_reconnects(const struct api_stream *s);
/* The number of the last account event delivered (-1: none yet). */
int64_t api_stream_account_last(const struct api_stream *s);

/* ---- blocking calls (scriptable commands) ---------------------------------------
 * The same requests, run to the end: 0 and *out (caller frees), or -1 and *err
 * (caller frees with api_error_free). Other pending requests of the client
 * progress meanwhile (and their callbacks run). */
int api_market(struct api_client *c, struct api_market **out, struct api_error **err);
int api_gpus(struct api_client *c, struct api_gpus **out, struct api_error **err);
int api_workloads(struct api_client *c, struct api_workloads **out, struct api_error **err);
int api_quotes(struct api_client *c, const char *etag, struct api_quotes **out,
	       struct api_error **err);
int api_book(struct api_client *c, const char *gpu, int depth, struct api_book **out,
	     struct api_error **err);
int api_trades(struct api_client *c, const char *gpu, const struct api_list_query *q,
	       struct api_trades **out, struct api_error **err);
int api_account_create(struct api_client *c, const char *email, const char *country,
		       const char *currency, enum api_role role, struct api_account **out,
		       struct api_error **err);
int api_account(struct api_client *c, struct api_account **out, struct api_error **err);
int api_deposit(struct api_client *c, int64_t amount_minor, struct api_deposit **out,
		struct api_error **err);
int api_ledger(struct api_client *c, const struct api_list_query *q, struct api_ledger **out,
	       struct api_error **err);
int api_order_preview(struct api_client *c, const struct api_order_req *o,
		      struct api_preview **out, struct api_error **err);
int api_order_place(struct api_client *c, const struct api_order_req *o, struct api_order **out,
		    struct api_error **err);
int api_order_get(struct api_client *c, int64_t id, struct api_order **out,
		  struct api_error **err);
int api_order_cancel(struct api_client *c, int64_t id, struct api_order **out,
		     struct api_error **err);
int api_orders(struct api_client *c, const struct api_list_query *q, struct api_orders **out,
	       struct api_error **err);
int api_rentals(struct api_client *c, const struct api_list_query *q, struct api_rentals **out,
		struct api_error **err);
int api_rental_stop(struct api_client *c, int64_t id, struct api_rental **out,
		    struct api_error **err);

/* ---- reply decoders (exposed for tests and fuzzers) -------------------------------
 * Decode a reply body of `len` bytes (NUL-terminated at data[len]) as the
 * reply of endpoint `name` ("market", "gpus", "workloads", "quotes", "book",
 * "trades", "account", "deposit", "ledger", "preview", "order", "orders",
 * "rental", "rentals", "job", "error") with HTTP status `status`. 0 and *out (free
 * with api_reply_free(name, &out)), or -1 and *cause. */
int api_decode(const char *name, long status, const char *data, size_t len, void **out,
	       char **cause);
void api_reply_free(const char *name, void **out);

/* ---- API keys and the first steps of an account (api/keys.c) -------------------
 * GET /v1/keys, POST /v1/keys, DELETE /v1/keys/{id} (docs/API.md, "API keys"),
 * and what a new account needs from GET /v1/market: the opening time and
 * how to top up. Same conventions as the wire types above. */
enum api_key_scope { API_SCOPE_TRADE, API_SCOPE_READ };
const char *api_key_scope_name(enum api_key_scope v);   /* "trade", "read" */
struct api_key {
	int64_t id;
	char *name;
	enum api_key_scope scope;
	int64_t created_at, last_used_at, revoked_at; /* -1 when null; last use is
	                                                  exact to about a minute */
	bool current;              /* the key this client authenticated with */
	char *api_key;             /* only from api_key_create: shown once; wiped by _free */
};
void api_key_free(struct api_key **p);
struct api_keys {
	struct api_key *v;         /* oldest first, active keys only */
	size_t n;
	int64_t max;               /* how many active keys an account may have */
};
void api_keys_free(struct api_keys **p);
/* GET /v1/market, the fields of a first run. */
struct api_topup {
	enum api_market_state state;
	int64_t opens_at;          /* -1: not announced */
	int64_t server_time;       /* the exchange clock (Unix s), for a countdown; -1 */
	bool simulated_payments;   /* a demo exchange: gpux deposit works */
	char *url, *text;          /* the operator's top-up link and words, or NULL */
};
void api_topup_free(struct api_topup **p);

int api_keys_list(struct api_client *c, struct api_keys **out, struct api_error **err);
/* name NULL: the exchange names it. Not retried unless it surely did not leave. */
int api_key_create(struct api_client *c, const char *name, enum api_key_scope scope,
		   struct api_key **out, struct api_error **err);
int api_key_revoke(struct api_client *c, int64_t id, struct api_key **out,
		   struct api_error **err);
int api_topup(struct api_client *c, struct api_topup **out, struct api_error **err);
/* The same, asynchronous (as the calls above). */
typedef void (*api_keys_cb)(void *ud, struct api_keys *r, const struct api_error *e);
typedef void (*api_key_cb)(void *ud, struct api_key *r, const struct api_error *e);
typedef void (*api_topup_cb)(void *ud, struct api_topup *r, const struct api_error *e);
uint64_t api_keys_list_start(struct api_client *c, api_keys_cb cb, void *ud);
uint64_t api_key_create_start(struct api_client *c, const char *name, enum api_key_scope scope,
			      api_key_cb cb, void *ud);
uint64_t api_key_revoke_start(struct api_client *c, int64_t id, api_key_cb cb, void *ud);
uint64_t api_topup_start(struct api_client *c, api_topup_cb cb, void *ud);
/* Decode a reply body as "keys", "key" or "topup" (tests, fuzzers); as
 * api_decode. Free with api_keys_reply_free(name, &out). */
int api_keys_decode(const char *name, long status, const char *data, size_t len, void **out,
		    char **cause);
void api_keys_reply_free(const char *name, void **out);

/* ---- writing the key to the configuration file (api/config_write.c) -------------
 * Check, before an account is created, that its key could be saved in the
 * config file at path for the exchange at url: the file parses, is not
 * readable by others when it holds a key, the profile the key would go to
 * holds no key unless force, and its directory can be written (created 0700
 * if missing). The key goes to `profile` when given; else to the profile
 * that names url's exchange already (the top level included); else to the
 * top level when it names no exchange and holds no key; else to a new
 * profile named after url's host. 0, or -1 and *cause (translated). */
int api_conf_key_check(const char *path, const char *profile, const char *url, bool force,
		       char **cause);
/* Put `api = URL` and `key = KEY` into that profile of the config file at
 * path, keeping its other lines: written to a temporary file in the same
 * directory, mode 0600, synced, renamed over the file, the directory synced;
 * a failure leaves the old file as it was. Refuses to replace an existing key
 * unless force. 0 and *saved_in (the profile's name, malloc'ed, NULL for the
 * top level; saved_in may be NULL), or -1 and *cause. Never puts the key in
 * *cause. */
int api_conf_store_key(const char *path, const char *profile, const char *url, const char *key,
		       bool force, char **saved_in, char **cause);

/* ---- money out and the operator's routes (api/admin.c) ------------------------
 * docs/API.md "Withdrawals" and "Operator". The operator's calls need a client
 * made with an admin key; each is safe to send again: a deposit, a reversal,
 * a withdrawal and its approval are idempotent by their references, the
 * settings by their values (a repeat changes nothing and says so). */
enum api_withdrawal_status { API_WD_PENDING, API_WD_SENT, API_WD_REJECTED };
const char *api_withdrawal_status_name(enum api_withdrawal_status v);  /* "pending", … */
struct api_withdrawal {
	int64_t id, account_id, amount_minor;
	char *currency, *reference;    /* the customer's reference */
	enum api_withdrawal_status status;
	int64_t requested_at, decided_at; /* -1: not decided */
	char *payout_reference;        /* the operator's, once sent; or NULL */
	char *reason;                  /* why it was rejected, or NULL */
	bool replayed;                 /* this reference was used before: the original */
	bool has_balance;
	struct api_balance balance;    /* the account's, after (when sent) */
};
void api_withdrawal_free(struct api_withdrawal **p);
struct api_withdrawals {
	struct api_withdrawal *v;      /* newest first */
	size_t n;
	char *next_cursor;
};
void api_withdrawals_free(struct api_withdrawals **p);
/* A customer's withdrawal (POST /v1/withdrawals): reference is the client's
 * own (one per intent, e.g. api_client_order_id_new), so a retry never
 * withdraws twice. */
int api_withdraw(struct api_client *c, int64_t amount_minor, const char *reference,
		 struct api_withdrawal **out, struct api_error **err);
/* The caller's withdrawals, or (admin) everyone's: status NULL (admin:
 * pending; else all), "pending", "sent", "rejected", "all". */
int api_withdrawals(struct api_client *c, bool admin, const char *status,
		    const struct api_list_query *q, struct api_withdrawals **out,
		    struct api_error **err);
/* The operator marks withdrawal id sent (approve, text: the payout's
 * reference) or rejects it (text: the reason, or NULL). */
int api_admin_decide(struct api_client *c, int64_t id, bool approve, const char *text,
		     struct api_withdrawal **out, struct api_error **err);
/* An operator's deposit to account, naming the payment by reference. */
int api_admin_deposit(struct api_client *c, int64_t account, int64_t amount_minor,
		      const char *reference, struct api_deposit **out, struct api_error **err);
/* A reversal (a chargeback) of the deposit of reference; debt: take the
 * account below zero into a stated debt if need be; reason or NULL. */
int api_admin_reverse(struct api_client *c, const char *reference, bool debt, const char *reason,
		      struct api_deposit **out, struct api_error **err);

/* GET /v1/admin/settings and the replies of the settings routes. */
struct api_currency_info {
	char *code;
	int64_t exponent;              /* ISO 4217 minor-unit digits */
	int64_t rate_micro;            /* units per USD x 10^6 */
	int64_t rate_set_at;           /* Unix s */
	int64_t rate_age_s;
	bool demo_rate, stale;
};
void api_currency_info_clear(struct api_currency_info *v, size_t n);
struct api_exchange_settings {
	bool changed;                  /* the call changed something */
	int64_t version;
	enum api_market_state state;
	int64_t opens_at, server_time; /* opens_at -1: none */
	int64_t fee_trade_bp, fee_forward_cancel_bp, fee_resale_bp;
	int64_t fx_max_age_s;          /* 0: no limit */
	bool fx_halt_stale, fx_demo_rates;
	char *topup_url, *topup_text;  /* NULL: none */
	struct api_currency_info *cur;
	size_t n_cur;
};
void api_exchange_settings_free(struct api_exchange_settings **p);
int api_admin_settings(struct api_client *c, struct api_exchange_settings **out,
		       struct api_error **err);
/* The market's state (NULL: as it is) and announced opening (opens_at: NULL
 * leaves it, "" clears it, else ISO 8601 UTC): the GET /v1/market reply. */
int api_admin_market(struct api_client *c, const char *state, const char *opens_at,
		     struct api_market **out, bool *changed, struct api_error **err);
/* A currency's rate (code NULL: none; exponent -1: the standard's; as_of
 * NULL: now) and/or the FX limits (max_age_s -1, halt -1: as they are). */
int api_admin_fx(struct api_client *c, const char *code, int64_t rate_micro, int exponent,
		 const char *as_of, int64_t max_age_s, int halt, struct api_exchange_settings **out,
		 struct api_error **err);
/* The fees in basis points (-1: as it is). */
int api_admin_fees(struct api_client *c, int64_t trade_bp, int64_t forward_cancel_bp,
		   int64_t resale_bp, struct api_exchange_settings **out, struct api_error **err);
/* How to top up: url, text (NULL: as it is, "": none). */
int api_admin_topup(struct api_client *c, const char *url, const char *text,
		    struct api_exchange_settings **out, struct api_error **err);

/* Admin keys (GET/POST /v1/admin/keys, DELETE /v1/admin/keys/{id}). */
struct api_admin_key {
	int64_t id;
	char *name;
	int64_t created_at, created_by; /* created_by -1: the bootstrap key */
	int64_t last_used_at, revoked_at; /* -1 when null */
	bool current;                  /* the key this client used */
	char *secret;                  /* only from api_admin_key_create: shown once */
};
struct api_admin_keys {
	struct api_admin_key *v;
	size_t n;
};
void api_admin_key_free(struct api_admin_key **p);
void api_admin_keys_free(struct api_admin_keys **p);
int api_admin_keys_list(struct api_client *c, struct api_admin_keys **out, struct api_error **err);
int api_admin_key_create(struct api_client *c, const char *name, struct api_admin_key **out,
			 struct api_error **err);
int api_admin_key_revoke(struct api_client *c, int64_t id, struct api_admin_key **out,
			 struct api_error **err);

/* Customers whose e-mail holds text (or whose id is text); NULL: all. */
struct api_accounts {
	struct api_account *v;
	size_t n;
	char *next_cursor;
};
void api_accounts_free(struct api_accounts **p);
int api_admin_accounts(struct api_client *c, const char *text, const struct api_list_query *q,
		       struct api_accounts **out, struct api_error **err);
/* Account id's ledger rows (newest first), as GET /v1/ledger gives a customer its own. */
int api_admin_ledger(struct api_client *c, int64_t id, const struct api_list_query *q,
		     struct api_ledger **out, struct api_error **err);

/* ---- alerts and the account's events (api/alerts.c) ---------------------------
 * POST/GET/DELETE /v1/alerts and GET /v1/events (docs/API.md "Alerts", "The
 * account channel"): alerts the exchange keeps and fires by itself, and the
 * account's event log (firings, conditional and standing orders' doings,
 * renewals), which the stream's account channel delivers. Any key of the
 * account may manage its alerts. Same conventions as the wire types above. */
enum api_alert_state { API_ALERT_ARMED, API_ALERT_REARMING, API_ALERT_FIRED, API_ALERT_EXPIRED };
const char *api_alert_state_name(enum api_alert_state v);
struct api_alert_req {
	enum api_when when;
	const char *gpu;           /* price conditions */
	int64_t price_cents;       /* price conditions: the threshold (the spread's, for spread_*) */
	int64_t rearm_cents;       /* price conditions: 0 fires once; else it re-arms once the
	                              price has moved back by this much */
	int minutes;               /* rental_ending: within this many minutes of the end */
	int64_t rental_id;         /* rental_ending: 0 any rental the account buys */
	int64_t order_id;          /* order_filled: 0 any of the account's orders */
	/* job_total_lte: the job as a job order's (struct api_job_req) and the
	 * budget its cheapest total is held to */
	const struct fit_job *job;   /* checked (fit_job_check) */
	const char *job_label;     /* the model's preset id, or NULL */
	int hours;                 /* 0: not sent (training: the run's time) */
	int64_t max_total_minor;   /* in the account's currency, VAT included */
	int64_t rearm_minor;       /* 0 fires once; else it re-arms once the total is
	                              back at budget + this (or no GPU can run it) */
	const char *const *regions;  /* only machines in these (none: any) */
	size_t n_regions;
	int64_t expires_at;        /* Unix s on the exchange clock, -1: never */
	const char *label;         /* the account's words for it, or NULL */
};
struct api_alert {
	int64_t id;
	enum api_when when;
	char *gpu;                 /* NULL unless a price condition */
	int64_t price_cents, rearm_cents, minutes, rental_id, order_id;  /* -1 when null */
	/* job_total_lte (NULL / -1 otherwise): the job's preset id (NULL for a
	 * size), method id and size; its hours (-1: the run's), budget, re-arming,
	 * the account's currency, regions (comma-separated, NULL: any) */
	char *job_model, *job_method;
	int64_t job_params_millions, hours, max_total_minor, rearm_minor;
	char *currency, *regions;
	char *label;
	enum api_alert_state state;
	int64_t fired_count, last_fired_at, expires_at, created_at;       /* -1 when null */
};
void api_alert_free(struct api_alert **p);
struct api_alerts {
	struct api_alert *v;       /* newest first */
	size_t n;
	char *next_cursor;
	int64_t live, max;         /* live (armed or re-arming) alerts, and how many may be */
};
void api_alerts_free(struct api_alerts **p);
/* One event of the account's log, as the exchange sent it and, for the kinds
 * this client knows, its fields (-1, NULL or false when absent). */
struct api_account_event {
	int64_t id;                /* the log's number: unique to the account, increasing */
	char *kind;                /* "alert", "order", "standing", "rental", or newer ones */
	int64_t at, seq;
	char *json;                /* the whole event, compact JSON (for scripts) */
	int64_t alert_id, order_id, rental_id;
	bool has_when;
	enum api_when when;        /* alert: what it watches */
	char *gpu, *label, *event, *reason, *state, *status;
	int64_t price_cents, value_cents, fill_price_cents, fill_gpus, gpus, hours, minutes;
	int64_t ends_at;
	/* a job alert's firing: its job (preset id, method id, size), the total
	 * and the budget in currency, the machines (node_gpus × nodes) */
	char *job_model, *job_method, *currency, *interconnect;
	int64_t job_params_millions, total_minor, max_total_minor, node_gpus, nodes;
};
void api_account_event_free(struct api_account_event **p);
struct api_events {
	struct api_account_event *v; /* oldest first */
	size_t n;
	int64_t last_id, head;     /* the last number given; the log's last */
};
void api_events_free(struct api_events **p);

int api_alert_create(struct api_client *c, const struct api_alert_req *r, struct api_alert **out,
		     struct api_error **err);
/* cursor NULL: the first page; limit 0: the exchange's default (100). */
int api_alerts_list(struct api_client *c, const char *cursor, int limit, struct api_alerts **out,
		    struct api_error **err);
int api_alert_delete(struct api_client *c, int64_t id, struct api_alert **out,
		     struct api_error **err);
/* The events after number `after`; limit 0: the exchange's default (50). */
int api_events(struct api_client *c, int64_t after, int limit, struct api_events **out,
	       struct api_error **err);
typedef void (*api_alert_cb)(void *ud, struct api_alert *r, const struct api_error *e);
typedef void (*api_alerts_cb)(void *ud, struct api_alerts *r, const struct api_error *e);
typedef void (*api_events_cb)(void *ud, struct api_events *r, const struct api_error *e);
uint64_t api_alert_create_start(struct api_client *c, const struct api_alert_req *r,
				api_alert_cb cb, void *ud);
uint64_t api_alerts_list_start(struct api_client *c, const char *cursor, int limit,
			       api_alerts_cb cb, void *ud);
uint64_t api_alert_delete_start(struct api_client *c, int64_t id, api_alert_cb cb, void *ud);
uint64_t api_events_start(struct api_client *c, int64_t after, int limit, api_events_cb cb,
			  void *ud);
/* Decode a reply body as "alert", "alerts", "events" or "account_event" (one
 * event's data, as the stream sends it) for tests and fuzzers; as
 * api_decode. Free with api_alerts_reply_free(name, &out). */
int api_alerts_decode(const char *name, long status, const char *data, size_t len, void **out,
		      char **cause);
void api_alerts_reply_free(const char *name, void **out);

#endif
