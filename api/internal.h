/*
 * api/internal.h — what the files of api/ share and nobody else sees: the
 * request record, the description of an endpoint (how to decode its reply,
 * how to hand it to its typed callback), and the strict JSON readers.
 */
#ifndef GPUX_API_INTERNAL_H
#define GPUX_API_INTERNAL_H

#include "api/api.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct api_call;

/* How a failed attempt may be repeated. */
enum api_retry {
	API_RETRY_READ,   /* idempotent: network, timeout, 5xx, 429 */
	API_RETRY_ORDER,  /* same client_order_id: network, timeout, 5xx, 429 */
	API_RETRY_UNSAFE, /* only when the request surely did not leave (connect failed, 429) */
};

/* One endpoint's reply type. */
struct api_ep {
	const char *what;  /* for messages: "quotes", "order book" */
	/* Decode a 2xx reply body (root is never NULL); 0 and *out, or -1 and
	 * *cause naming the field. */
	int (*decode)(const cJSON *root, long status, void **out, char **cause);
	/* Free a decoded reply (as the type's public _free does). */
	void (*free_reply)(void *reply);
	/* Call the typed callback stored in the call with reply or err. */
	void (*deliver)(struct api_call *call, void *reply, const struct api_error *err);
	/* For 304 Not Modified (ETag): build the "unchanged" reply; NULL = none. */
	void *(*not_modified)(const char *etag);
	/* Store the reply's ETag header in a decoded reply; NULL = not wanted. */
	void (*set_etag)(void *reply, const char *etag);
	/* Accept an empty 2xx body (e.g. 204): decode gets an empty object. */
	bool empty_ok;
};

/* What an endpoint function hands to api_call_start (strings are taken). */
struct api_req {
	const char *method;     /* "GET", "POST", "DELETE" (static) */
	char *path;             /* "/v1/quotes" (taken) */
	char *body;             /* JSON body or NULL (taken) */
	char *etag;             /* If-None-Match or NULL (taken) */
	char *client_order_id;  /* for orders: copied into errors (taken) */
	enum api_retry retry;
	const struct api_ep *ep;
	/* Orders: when no attempt got an answer, GET this path (taken) and decode
	 * it with reconcile_ep, whose reply has the type of ep's. */
	char *reconcile_path;
	const struct api_ep *reconcile_ep;
	void (*cb)(void);       /* the typed callback, cast back by ep->deliver */
	void *ud;
};

/* The typed callback and userdata of a call (for ep->deliver). */
void (*api_call_cb(const struct api_call *call))(void);
void *api_call_ud(const struct api_call *call);

/* Start a request; returns its id (> 0). Takes ownership of req's strings. */
uint64_t api_call_start(struct api_client *c, struct api_req *req);

/* The error of a non-2xx reply: {"error":{"code","message","request_id"}}
 * read leniently (a body that is not such an object still gives a readable
 * message quoting its start). */
/* A deep copy of e (its alternatives too), for the blocking calls. */
struct api_error *api_error_copy(const struct api_error *e);
struct api_error *api_error_from_reply(long status, const char *data, size_t len,
				       const char *request_id_header);

/* How the client reaches the exchange (for api/stream.c's own transfers):
 * the base URL ("http://localhost" for a Unix socket), the socket path or
 * NULL, --insecure, the connect timeout. Borrowed. */
void api_client_transport(const struct api_client *c, const char **base, const char **unix_path,
			  bool *insecure, long *connect_ms);
/* The client's "Authorization: Bearer …" header line, or NULL without a key
 * (for api/stream.c's account channel). Borrowed; never print it. */
const char *api_client_auth_header(const struct api_client *c);

/* ---- an endpoint's request, its untyped halves (api/calls.c) --------------------
 * For endpoint files whose callbacks all have the shape
 * void cb(void *ud, T *reply, const struct api_error *e): ep->deliver may be
 * api_deliver_any; api_start_req starts a request (strings taken), and
 * api_run_req runs it to the end for the blocking calls (0 and *out, or -1
 * and *err, a copy the caller frees). */
void api_deliver_any(struct api_call *call, void *reply, const struct api_error *e);
uint64_t api_start_req(struct api_client *c, const char *method, char *path, char *body,
		       enum api_retry retry, const struct api_ep *ep, void (*cb)(void), void *ud);
int api_run_req(struct api_client *c, const char *method, char *path, char *body,
		enum api_retry retry, const struct api_ep *ep, void **out, struct api_error **err);

/* One account event object (the data of a stream event, an element of GET
 * /v1/events) at path into *e (zeroed by the caller); 0, or -1 and *cause.
 * api_account_event_clear frees what it holds (api/alerts.c). */
/* o[key]: job in the fit library's wire form (every field, fit_job_to_fields;
 * label as "model"), as job orders and job alerts send it. */
struct fit_job;
void api_job_fields_put(cJSON *o, const char *key, const struct fit_job *job, const char *label);
int api_dec_account_event(const cJSON *o, const char *path, struct api_account_event *e,
			  char **cause);
void api_account_event_clear(struct api_account_event *e);
/* An order's trigger, oco_group and standing (all optional) into *x. */
int api_dec_order_cond(const cJSON *o, const char *path, struct api_order *x, char **cause);
/* ---- classifying an ended attempt (api/client.c) -------------------------------
 * Pure: from the facts of one ended try to what it means. The client then
 * builds the error in words, retries (within the deadline), or, for an order
 * whose fate is open, asks the exchange for it by client_order_id. */
enum api_reason {
	API_R_OK,               /* 2xx, or 304 to a conditional request */
	API_R_HTTP,             /* an error status: the exchange's own error */
	API_R_UNEXPECTED,       /* 1xx/3xx, or 304 to a request without an ETag */
	API_R_TOO_BIG,          /* the body passed API_MAX_REPLY */
	API_R_HEADER_TOO_BIG,   /* the header passed API_MAX_HEADER */
	API_R_CONNECT,          /* could not connect, or the name does not resolve */
	API_R_TIMEOUT,          /* the try's time ran out */
	API_R_BROKE,            /* the connection broke (reset, nothing received) */
	API_R_BROKE_PARTIAL,    /* ... in the middle of the reply */
	API_R_TLS,              /* certificate or handshake */
	API_R_PROTOCOL,         /* curl could not read the reply */
	API_R_OTHER,
};
struct api_attempt {
	int curl_code;          /* CURLcode */
	long status;            /* HTTP status, 0 if none */
	bool request_sent;      /* bytes of the request left (CURLINFO_REQUEST_SIZE > 0) */
	bool body_too_big, header_too_big;
	bool conditional;       /* If-None-Match sent, and the endpoint takes a 304 */
	enum api_retry policy;
	long retry_after_s;     /* the reply's Retry-After, 0 = none */
};
struct api_verdict {
	enum api_reason reason;
	enum api_err kind;      /* the error's kind (0 for API_R_OK) */
	bool retry;             /* worth another try, if tries and time are left */
	bool maybe_sent;        /* the request may have reached the exchange and been acted on */
};
struct api_verdict api_classify(const struct api_attempt *a);
/* Retry-After: delta-seconds, or an HTTP date (IMF-fixdate, RFC 850, asctime)
 * turned into seconds from now; 0 when absent, past or malformed; at most
 * 86400. */
long api_retry_after(const char *value, time_t now);
/* The value of header line `line` (len bytes, CRLF included or not) when
 * its name is `name` (any case): trimmed, sanitized, malloc'ed; else NULL. */
char *api_header_value(const char *line, size_t len, const char *name);
#define API_MAX_HEADER (100u * 1024u)  /* largest reply header accepted (curl's own cap for a line) */

/* The local demo exchange's restart (api_local_respawn), set on a local demo
 * client by api_open: the client calls it when a request cannot connect. */
typedef int (*api_respawn_fn)(const char *socket_path, char **cause);
void api_client_set_respawn(struct api_client *c, api_respawn_fn fn);

/* ---- the local demo exchange's files and process (api/local.c, api/localctl.c) -- */
struct local_paths {
	char *data_dir, *run_dir, *sock, *lock, *pidfile, *db, *log, *keyfile;
};
/* Compute (and create) the runtime and data directories; 0, or -1 and *cause.
 * When the data directory's exchange runs (its pid file names a gpuxd --demo
 * on p->db), p->sock is that exchange's socket, wherever it was started. */
int api_local_paths(struct local_paths *p, char **cause);
void api_local_paths_clear(struct local_paths *p);
/* gpuxd next to our own binary, else on PATH ($GPUX_GPUXD first); NULL if none. */
char *api_local_find_gpuxd(void);
/* Is anything accepting connections on the socket? */
bool api_local_socket_alive(const char *path);
/* The pid in the pid file if that process is a gpuxd --demo on our database
 * (p->db); else 0. */
int api_local_pid(const struct local_paths *p);
/* The --socket of process pid's command line, malloc'ed; NULL if none. */
char *api_local_socket_of(int pid);
/* Does process pid run the binary at path (same file: device and inode)?
 * True when that cannot be told. */
bool api_local_same_binary(int pid, const char *path);
/* SIGTERM our gpuxd pid and wait (up to 10 s) until its socket is gone;
 * 0, or -1 and *cause. */
int api_local_stop_pid(const struct local_paths *p, int pid, char **cause);

/* Run the client until call `id` has been delivered (the blocking API). */
void api_run_until_done(struct api_client *c, uint64_t id, const bool *done);

/* A new client_order_id: 32 lowercase hex digits from getrandom(). */
char *api_new_client_order_id(void);

/* Random 64-bit value from getrandom() (jitter). */
uint64_t api_random64(void);

/* ---- strict JSON readers (api/json.c) ----------------------------------------
 * Each reads member `name` of object `obj`; on failure returns -1 and sets
 * *cause to "PATH.NAME: what was expected, what was found". `path` names the
 * object in the reply ("quotes[3]", or "" for the root). */

#define API_SAFE_INT ((int64_t)9007199254740991) /* 2^53 - 1 */

/* Parse a reply body (len bytes, NUL-terminated) as one JSON value with
 * nothing after it; NULL and *cause on failure. */
cJSON *api_json_parse(const char *data, size_t len, char **cause);
/* Required whole number in [min, max] (max at most 2^53 - 1). */
int api_json_int(const cJSON *obj, const char *path, const char *name, int64_t min,
		 int64_t max, int64_t *out, char **cause);
/* The same, but null or absent gives `none`. */
int api_json_int_opt(const cJSON *obj, const char *path, const char *name, int64_t min,
		     int64_t max, int64_t none, int64_t *out, char **cause);
/* Required member that is a whole number in [min, max] or null (→ none). */
int api_json_int_null(const cJSON *obj, const char *path, const char *name, int64_t min,
		      int64_t max, int64_t none, int64_t *out, char **cause);
/* Required string, sanitised; at most maxlen bytes; empty allowed if
 * allow_empty. */
int api_json_str(const cJSON *obj, const char *path, const char *name, size_t maxlen,
		 bool allow_empty, char **out, char **cause);
/* Optional string: null or absent gives NULL. */
int api_json_str_opt(const cJSON *obj, const char *path, const char *name, size_t maxlen,
		     char **out, char **cause);
/* Required (or, with optional, null → -1) time "YYYY-MM-DDTHH:MM:SSZ" as Unix
 * seconds. */
int api_json_time(const cJSON *obj, const char *path, const char *name, bool optional,
		  int64_t *out, char **cause);
/* Required number (finite), as a double. */
int api_json_double(const cJSON *obj, const char *path, const char *name, double min,
		    double max, double *out, char **cause);
/* Required boolean. */
int api_json_bool(const cJSON *obj, const char *path, const char *name, bool *out,
		  char **cause);
/* Required string that must be one of names[0..n-1]; *out is its index. */
int api_json_enum(const cJSON *obj, const char *path, const char *name,
		  const char *const *names, int n, int *out, char **cause);
/* Required array / object member; NULL and *cause otherwise. */
const cJSON *api_json_array(const cJSON *obj, const char *path, const char *name,
			    char **cause);
const cJSON *api_json_object(const cJSON *obj, const char *path, const char *name,
			     char **cause);
/* "path.name" or "name" (malloc'ed), and "path[i]". */
char *api_json_path(const char *path, const char *name);
char *api_json_index(const char *path, const char *name, size_t i);

/* Decode the array member `name` of o (path names o) into a new array of
 * elements of `size` bytes (zeroed, one spare): each element must be an
 * object and is decoded by item(element, "path.name[i]", dst, i, ctx, cause).
 * 0 with *v and *n, or -1 and *cause; on failure *n counts the elements
 * touched (the failed one too), so the caller's free releases them. */
typedef int (*api_item_fn)(const cJSON *it, const char *path, void *dst, size_t i, void *ctx,
			   char **cause);
int api_dec_list(const cJSON *o, const char *path, const char *name, size_t size,
		 api_item_fn item, void *ctx, void **v, size_t *n, char **cause);

/* ---- decoders and frees of the reply types (api/wire*.c) --------------------- */
int api_dec_candles(const cJSON *root, long status, void **out, char **cause);
void api_free_candles(void *reply);
int api_dec_market(const cJSON *root, long status, void **out, char **cause);
int api_dec_gpus(const cJSON *root, long status, void **out, char **cause);
int api_dec_workloads(const cJSON *root, long status, void **out, char **cause);
int api_dec_quotes(const cJSON *root, long status, void **out, char **cause);
int api_dec_book(const cJSON *root, long status, void **out, char **cause);
int api_dec_trades(const cJSON *root, long status, void **out, char **cause);
int api_dec_account(const cJSON *root, long status, void **out, char **cause);
int api_dec_deposit(const cJSON *root, long status, void **out, char **cause);
int api_dec_ledger(const cJSON *root, long status, void **out, char **cause);
int api_dec_preview(const cJSON *root, long status, void **out, char **cause);
int api_dec_order(const cJSON *root, long status, void **out, char **cause);
int api_dec_order_cancel(const cJSON *root, long status, void **out, char **cause);
int api_dec_order_found(const cJSON *root, long status, void **out, char **cause);
int api_dec_orders(const cJSON *root, long status, void **out, char **cause);
int api_dec_rental(const cJSON *root, long status, void **out, char **cause);
int api_dec_rentals(const cJSON *root, long status, void **out, char **cause);
void api_free_market(void *reply);
void api_free_gpus(void *reply);
void api_free_workloads(void *reply);
void api_free_quotes(void *reply);
void api_free_book(void *reply);
void api_free_trades(void *reply);
void api_free_account(void *reply);
void api_free_deposit(void *reply);
void api_free_ledger(void *reply);
void api_free_preview(void *reply);
void api_free_order(void *reply);
void api_free_orders(void *reply);
void api_free_rental(void *reply);
void api_free_rentals(void *reply);
/* The lot fields (api/wire_lots.c), each called by its type's decoder
 * with the object at path p once the type's own fields are read; a reply
 * without node_gpus (an exchange from before lots) leaves has_lot false. */
int api_dec_order_lot(const cJSON *o, const char *p, struct api_order *x, char **cause);
int api_dec_rental_lot(const cJSON *o, const char *p, struct api_rental *x, char **cause);
int api_dec_fill_lot(const cJSON *o, const char *p, struct api_preview_fill *x, char **cause);
int api_dec_preview_lot(const cJSON *o, struct api_preview *v, char **cause);
int api_dec_market_regions(const cJSON *o, struct api_market *m, char **cause);
void api_regions_free(struct api_region *v, size_t n);
/* A ladder by node size: its query echoed (node_gpus, interconnect, regions). */
int api_dec_book_query(const cJSON *o, struct api_book *b, char **cause);
void api_book_query_clear(struct api_book *b);
/* Job orders: the reply of POST /v1/orders, of the preview, the
 * reconciliation's, and "alternatives" of object o (path p). */
int api_dec_job(const cJSON *root, long status, void **out, char **cause);
int api_dec_job_preview(const cJSON *root, long status, void **out, char **cause);
int api_dec_job_found(const cJSON *root, long status, void **out, char **cause);
int api_dec_job_alts(const cJSON *o, const char *p, struct api_job_alt **v, size_t *n,
		     char **cause);
void api_free_job(void *reply);
void *api_quotes_not_modified(const char *etag);
void api_quotes_set_etag(void *reply, const char *etag);

#endif
