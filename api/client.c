/*
 * The exchange client's engine: one curl multi handle driven through
 * api_curl.multi_socket_action(). libcurl tells us which sockets it wants watched
 * (CURLMOPT_SOCKETFUNCTION) and when it next needs time (CURLMOPT_TIMERFUNCTION);
 * we keep both in the client, so api_fds() can hand them to the caller's poll()
 * and api_perform() can serve exactly what is ready (a zero-timeout poll over
 * our own sockets tells it which) without ever waiting.
 *
 * A call is one request as the caller sees it; it may take several attempts.
 * Each attempt gets a fresh easy handle (connections stay in the multi's cache,
 * so keep-alive and HTTP/2 reuse still work). When an attempt ends it is
 * classified: success (decoded by the endpoint's decoder), a final error, or a
 * retryable failure, which schedules the next attempt after an exponential
 * backoff with jitter (or the server's Retry-After). Finished calls are
 * delivered to their typed callbacks at the end of api_perform(), after curl
 * is done with them, so a callback may start new calls.
 *
 * A client of the local demo exchange whose request cannot connect to the
 * socket (gpuxd died) has it started again in the background
 * (api_local_respawn, rate-limited) and ends that request at once with
 * e->restarting set; the next request finds the new exchange.
 */
#include "api/internal.h"

#include "i18n/i18n.h"
#include "util/util.h"

#include "api/curl_int.h"
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define DEFAULT_CONNECT_MS 5000
#define DEFAULT_TIMEOUT_MS 15000
#define DEFAULT_ATTEMPTS 4
#define DEFAULT_BACKOFF_MS 250
#define MAX_BACKOFF_MS 8000
#define MIN_ATTEMPT_MS 200     /* no try is started with less time than this left */

struct api_sock {
	curl_socket_t fd;
	short events;
};

struct api_call {
	struct api_call *next;
	struct api_client *c;
	uint64_t id;
	struct api_req req;
	int attempts;
	int64_t t0_ms;             /* when the call started (util_now_ms) */
	int64_t deadline_ms;       /* when it must have ended, retries included */
	int64_t attempt_t0_ms;     /* when the try in flight started */
	int64_t retry_at;          /* ms (util_now_ms), -1 when not waiting */
	bool maybe_sent;           /* an attempt may have reached the exchange */
	bool reconciling;          /* an order: asking for it by client_order_id */
	struct api_error *post_err; /* an order: the last POST's failure, while reconciling */
	bool abandoned;
	/* the attempt in flight */
	CURL *easy;
	struct curl_slist *headers;
	struct buf body;
	bool too_big;
	bool header_too_big;       /* the reply's header passed API_MAX_HEADER */
	size_t header_bytes;
	long retry_after_s;        /* the reply's Retry-After (seconds or a date), 0 = none */
	char *etag_seen;
	char *request_id_seen;
	char errbuf[CURL_ERROR_SIZE]; /* curl's API wants a buffer of this size */
	/* the outcome */
	bool done;
	void *reply;
	struct api_error *err;
};

struct api_client {
	CURLM *multi;
	char *base;                /* "https://host:port/prefix", no trailing '/' */
	char *unix_path;           /* or NULL */
	char *auth;                /* "Authorization: Bearer KEY" or NULL; wiped on free */
	char *label;
	long connect_ms, total_ms, backoff_ms;
	int max_attempts;
	bool insecure, local;
	struct api_sock *socks;
	size_t n_socks;
	struct pollfd *scratch;
	size_t cap_scratch;
	int64_t timer_at;          /* -1: curl needs no timeout call */
	int64_t respawn_after;     /* local demo: no restart of gpuxd before this (ms) */
	api_respawn_fn respawn;    /* local demo: starts gpuxd again (set by api_open), or NULL */
	struct api_call *calls;    /* started, not yet finished */
	struct api_call *delivering; /* finished, being handed to callbacks */
	uint64_t next_id;
};

/* ---- curl's callbacks ----------------------------------------------------------- */

static int on_socket(CURL *easy, curl_socket_t fd, int what, void *userp, void *socketp)
{
	struct api_client *c = userp;
	size_t i;

	for (i = 0; i < c->n_socks; i++)
		if (c->socks[i].fd == fd)
			break;
	if (what == CURL_POLL_REMOVE) {
		if (i < c->n_socks)
			c->socks[i] = c->socks[--c->n_socks];
		return 0;
	}
	if (i == c->n_socks) {
		c->socks = xreallocarray(c->socks, c->n_socks + 1, sizeof *c->socks);
		c->socks[c->n_socks++].fd = fd;
	}
	c->socks[i].events = (short)(((what & CURL_POLL_IN) ? POLLIN : 0) |
				     ((what & CURL_POLL_OUT) ? POLLOUT : 0));
	return 0;
}

static int on_timer(CURLM *multi, long timeout_ms, void *userp)
{
	struct api_client *c = userp;

	c->timer_at = timeout_ms < 0 ? -1 : util_now_ms() + timeout_ms;
	return 0;
}

static size_t on_body(char *data, size_t size, size_t n, void *userp)
{
	struct api_call *call = userp;
	size_t len = size * n;

	if (call->body.len + len > API_MAX_REPLY) {
		call->too_big = true;
		return 0;    /* aborts the transfer with CURLE_WRITE_ERROR */
	}
	buf_append(&call->body, data, len);
	return len;
}

static size_t on_header(char *data, size_t size, size_t n, void *userp)
{
	struct api_call *call = userp;
	size_t len = size * n;
	char *v;

	call->header_bytes += len;
	if (call->header_bytes > API_MAX_HEADER) {
		call->header_too_big = true;
		return 0;    /* aborts the transfer */
	}
	if (len >= 5 && strncmp(data, "HTTP/", 5) == 0) {
		/* a new response (after 100 Continue, say): forget the last one's headers */
		free(call->etag_seen);
		free(call->request_id_seen);
		call->etag_seen = call->request_id_seen = NULL;
		call->retry_after_s = 0;
	} else if ((v = api_header_value(data, len, "Retry-After")) != NULL) {
		call->retry_after_s = api_retry_after(v, time(NULL));
		free(v);
	} else if ((v = api_header_value(data, len, "ETag")) != NULL) {
		free(call->etag_seen);
		call->etag_seen = v;
	} else if ((v = api_header_value(data, len, "X-Request-Id")) != NULL) {
		free(call->request_id_seen);
		call->request_id_seen = v;
	}
	return len;
}

/* ---- the client ------------------------------------------------------------------- */

static int parse_url(struct api_client *c, const char *url, char **cause)
{
	CURLU *u;
	char *host = NULL, *port = NULL, *scheme = NULL;
	size_t len;

	if (url == NULL || *url == '\0')
		return set_cause(cause, _("no exchange URL given"));
	if (strncmp(url, "unix:", 5) == 0) {
		if (url[5] != '/')
			return set_cause(cause, _("\"%s\" is not an exchange URL; accepted: "
						  "unix:/PATH/TO.sock"), url);
		c->unix_path = xstrdup(url + 5);
		c->base = xstrdup("http://localhost");
		c->label = xstrdup(url);
		return 0;
	}
	u = api_curl.url();
	if (api_curl.url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    api_curl.url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0) ||
	    api_curl.url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK) {
		char *shown = util_sanitize(url, 200, true);
		api_curl.free(scheme);
		api_curl.url_cleanup(u);
		set_cause(cause, _("\"%s\" is not an exchange URL; accepted: https://HOST[:PORT], "
				   "http://HOST[:PORT], unix:/PATH/TO.sock"), shown);
		free(shown);
		return -1;
	}
	if (api_curl.url_get(u, CURLUPART_PORT, &port, 0) == CURLUE_OK)
		c->label = xasprintf("%s:%s", host, port);
	else
		c->label = xstrdup(host);
	api_curl.free(host);
	api_curl.free(port);
	api_curl.free(scheme);
	api_curl.url_cleanup(u);
	c->base = xstrdup(url);
	len = strlen(c->base);
	while (len > 0 && c->base[len - 1] == '/')
		c->base[--len] = '\0';
	return 0;
}

struct api_client *api_client_new(const struct api_config *cfg, char **cause)
{
	struct api_client *c;

	if (api_curl_ready(cause) != 0)
		return NULL;
	c = xcalloc(1, sizeof *c);
	if (parse_url(c, cfg->url, cause) != 0) {
		free(c->base);
		free(c->unix_path);
		free(c->label);
		free(c);
		return NULL;
	}
	if (cfg->local_demo) {
		free(c->label);
		c->label = xstrdup(_("local demo exchange"));
	}
	if (cfg->key != NULL && *cfg->key != '\0')
		c->auth = xasprintf("Authorization: Bearer %s", cfg->key);
	c->connect_ms = cfg->connect_timeout_ms > 0 ? cfg->connect_timeout_ms : DEFAULT_CONNECT_MS;
	c->total_ms = cfg->timeout_ms > 0 ? cfg->timeout_ms : DEFAULT_TIMEOUT_MS;
	c->max_attempts = cfg->max_attempts > 0 ? cfg->max_attempts : DEFAULT_ATTEMPTS;
	c->backoff_ms = cfg->backoff_ms > 0 ? cfg->backoff_ms : DEFAULT_BACKOFF_MS;
	c->insecure = cfg->insecure;
	c->local = cfg->local_demo;
	c->timer_at = -1;
	c->next_id = 1;
	c->multi = api_curl.multi_init();
	if (c->multi == NULL)
		fatal("curl_multi_init failed");
	api_curl.multi_setopt(c->multi, CURLMOPT_SOCKETFUNCTION, on_socket);
	api_curl.multi_setopt(c->multi, CURLMOPT_SOCKETDATA, c);
	api_curl.multi_setopt(c->multi, CURLMOPT_TIMERFUNCTION, on_timer);
	api_curl.multi_setopt(c->multi, CURLMOPT_TIMERDATA, c);
	api_curl.multi_setopt(c->multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
	api_curl.multi_setopt(c->multi, CURLMOPT_MAX_HOST_CONNECTIONS, 6L);
	return c;
}

void api_client_set_respawn(struct api_client *c, api_respawn_fn fn)
{
	c->respawn = fn;
}

int api_call_try(const struct api_client *c, uint64_t id, int64_t *started_ms,
		 int64_t *try_started_ms)
{
	for (const struct api_call *call = c->calls; call != NULL; call = call->next) {
		if (call->id != id)
			continue;
		if (started_ms != NULL)
			*started_ms = call->t0_ms;
		if (try_started_ms != NULL)
			*try_started_ms = call->attempt_t0_ms;
		return call->attempts;
	}
	return -1;
}

void api_client_set_key(struct api_client *c, const char *key)
{
	xfree_secret(c->auth);
	c->auth = key != NULL && *key != '\0' ? xasprintf("Authorization: Bearer %s", key) : NULL;
}

bool api_client_has_key(const struct api_client *c)
{
	return c != NULL && c->auth != NULL;
}

bool api_client_is_local_demo(const struct api_client *c)
{
	return c != NULL && c->local;
}

const char *api_client_label(const struct api_client *c)
{
	return c->label;
}

static void attempt_end(struct api_call *call)
{
	if (call->easy != NULL) {
		api_curl.multi_remove_handle(call->c->multi, call->easy);
		api_curl.easy_cleanup(call->easy);
		call->easy = NULL;
	}
	api_curl.slist_free_all(call->headers);
	call->headers = NULL;
	buf_free(&call->body);
	call->too_big = call->header_too_big = false;
	call->header_bytes = 0;
	call->retry_after_s = 0;
	free(call->etag_seen);
	free(call->request_id_seen);
	call->etag_seen = call->request_id_seen = NULL;
}

static void call_free(struct api_call *call)
{
	attempt_end(call);
	free(call->req.path);
	free(call->req.body);
	free(call->req.etag);
	free(call->req.client_order_id);
	if (call->reply != NULL)
		call->req.ep->free_reply(call->reply);
	api_error_free(&call->err);
	api_error_free(&call->post_err);
	free(call->req.reconcile_path);
	free(call);
}

void api_client_free(struct api_client **pc)
{
	struct api_client *c;

	if (pc == NULL || *pc == NULL)
		return;
	c = *pc;
	while (c->calls != NULL) {
		struct api_call *next = c->calls->next;
		call_free(c->calls);
		c->calls = next;
	}
	while (c->delivering != NULL) {
		struct api_call *next = c->delivering->next;
		call_free(c->delivering);
		c->delivering = next;
	}
	api_curl.multi_cleanup(c->multi);
	xfree_secret(c->auth);
	free(c->base);
	free(c->unix_path);
	free(c->label);
	free(c->socks);
	free(c->scratch);
	free(c);
	*pc = NULL;
}

/* ---- attempts ------------------------------------------------------------------------ */

/* The time the current phase of a call must end by: the whole deadline, or
 * for an order that can still be reconciled, the part of it left for its
 * POSTs (the rest is for asking the exchange about it). */
static int64_t phase_deadline(const struct api_call *call)
{
	if (call->req.reconcile_path != NULL)
		return call->t0_ms + call->c->total_ms * 3 / 4;
	return call->deadline_ms;
}

static void attempt_start(struct api_call *call)
{
	struct api_client *c = call->c;
	CURL *e = api_curl.easy_init();
	char *url;
	int64_t now = util_now_ms(), left = phase_deadline(call) - now, cap = c->total_ms / 2;

	if (e == NULL)
		fatal("curl_easy_init failed");
	/* one try may take half the time, so that a stuck connection leaves
	 * room for another; never past the deadline */
	if (cap < 2000)
		cap = 2000;
	if (left > cap)
		left = cap;
	if (left < 1)
		left = 1;
	call->easy = e;
	call->attempts++;
	call->attempt_t0_ms = now;
	call->retry_at = -1;
	call->errbuf[0] = '\0';
	url = xasprintf("%s%s", c->base, call->req.path);
	api_easy_setopt(e, CURLOPT_URL, url);
	free(url);
	api_easy_setopt(e, CURLOPT_PRIVATE, call);
	api_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	api_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	api_easy_setopt(e, CURLOPT_ERRORBUFFER, call->errbuf);
	api_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
	api_easy_setopt(e, CURLOPT_WRITEDATA, call);
	api_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
	api_easy_setopt(e, CURLOPT_HEADERDATA, call);
	api_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, c->connect_ms < left ? c->connect_ms : (long)left);
	api_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)left);
	api_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)API_MAX_REPLY);
	api_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	api_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
	api_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
	api_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
	api_easy_setopt(e, CURLOPT_USERAGENT, "gpux");
	if (c->unix_path != NULL)
		api_easy_setopt(e, CURLOPT_UNIX_SOCKET_PATH, c->unix_path);
	if (c->insecure) {
		api_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
		api_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
	}
	call->headers = api_curl.slist_append(call->headers, "Accept: application/json");
	call->headers = api_curl.slist_append(call->headers, "Expect:");
	if (c->auth != NULL)
		call->headers = api_curl.slist_append(call->headers, c->auth);
	if (call->req.etag != NULL) {
		char *h = xasprintf("If-None-Match: %s", call->req.etag);
		call->headers = api_curl.slist_append(call->headers, h);
		free(h);
	}
	if (call->req.body != NULL) {
		call->headers = api_curl.slist_append(call->headers, "Content-Type: application/json");
		api_easy_setopt(e, CURLOPT_POSTFIELDSIZE, (long)strlen(call->req.body));
		api_easy_setopt(e, CURLOPT_POSTFIELDS, call->req.body);
	}
	if (strcmp(call->req.method, "GET") != 0) {
		if (call->req.body == NULL && strcmp(call->req.method, "POST") == 0) {
			api_easy_setopt(e, CURLOPT_POSTFIELDSIZE, 0L);
			api_easy_setopt(e, CURLOPT_POSTFIELDS, "");
		} else if (strcmp(call->req.method, "POST") != 0) {
			api_easy_setopt(e, CURLOPT_CUSTOMREQUEST, call->req.method);
		}
	}
	api_easy_setopt(e, CURLOPT_HTTPHEADER, call->headers);
	if (api_curl.multi_add_handle(c->multi, e) != CURLM_OK)
		fatal("curl_multi_add_handle failed");
}

uint64_t api_call_start(struct api_client *c, struct api_req *req)
{
	struct api_call *call = xcalloc(1, sizeof *call);

	call->c = c;
	call->id = c->next_id++;
	call->req = *req;
	memset(req, 0, sizeof *req);
	call->retry_at = -1;
	call->t0_ms = util_now_ms();
	call->deadline_ms = call->t0_ms + c->total_ms;
	call->next = c->calls;
	c->calls = call;
	attempt_start(call);
	return call->id;
}

void (*api_call_cb(const struct api_call *call))(void)
{
	return call->req.cb;
}

void *api_call_ud(const struct api_call *call)
{
	return call->req.ud;
}

/* ---- classifying an ended attempt ---------------------------------------------------- */

/* Milliseconds as people read a time: "15 s", "1.5 s", "500 ms" (to the
 * nearest tenth of a second from one second on). */
static char *fmt_ms(int64_t ms)
{
	int64_t tenths = (ms + 50) / 100;

	if (ms < 1000)
		return xasprintf("%ld ms", (long)ms);
	if (tenths % 10 == 0)
		return xasprintf("%ld s", (long)(tenths / 10));
	return xasprintf("%ld.%ld s", (long)(tenths / 10), (long)(tenths % 10));
}

static const char *curl_reason(const struct api_call *call, CURLcode rc)
{
	/* For a Unix socket curl's text speaks of "localhost port 80": say less. */
	if (call->errbuf[0] != '\0' && call->c->unix_path == NULL)
		return call->errbuf;
	return api_curl.easy_strerror(rc);
}

/* What a failed connection's errno says, for a short status line. */
static enum api_net net_cause(struct api_call *call, CURLcode rc)
{
	long os_errno = 0;

	if (rc == CURLE_COULDNT_RESOLVE_HOST)
		return API_NET_UNKNOWN_HOST;
	api_easy_getinfo(call->easy, CURLINFO_OS_ERRNO, &os_errno);
	switch (os_errno) {
	case ECONNREFUSED: return API_NET_REFUSED;
	case ENOENT: return call->c->unix_path != NULL ? API_NET_NO_SOCKET : API_NET_OTHER;
	case ENETUNREACH: case EHOSTUNREACH: return API_NET_NO_ROUTE;
	case ECONNRESET: case EPIPE: case ECONNABORTED: return API_NET_LOST;
	}
	return API_NET_OTHER;
}

/* A local demo client could not connect to its socket: gpuxd died. Start it
 * again in the background (at most every API_RESPAWN_MS); true when that
 * happened. A failure to do so is added to e's message. */
static bool local_respawn(struct api_client *c, struct api_error *e)
{
	int64_t now = util_now_ms();
	char *cause = NULL;
	int r;

	if (!c->local || c->respawn == NULL || c->unix_path == NULL || now < c->respawn_after)
		return false;
	c->respawn_after = now + API_RESPAWN_MS;
	r = c->respawn(c->unix_path, &cause);
	if (r < 0 && cause != NULL) {
		char *m = xasprintf(_("%s; starting it again failed: %s"), e->message, cause);
		free(e->message);
		e->message = m;
	}
	free(cause);
	return r == 1;
}

static void finish_ok(struct api_call *call, long status)
{
	char *cause = NULL;
	cJSON *root;
	void *reply = NULL;

	if (status == 304 && call->req.ep->not_modified != NULL && call->req.etag != NULL) {
		call->reply = call->req.ep->not_modified(call->req.etag);
		call->done = true;
		return;
	}
	if (call->body.len == 0 && call->req.ep->empty_ok)
		root = cJSON_CreateObject();
	else
		root = api_json_parse(call->body.data, call->body.len, &cause);
	if (root != NULL && call->req.ep->decode(root, status, &reply, &cause) == 0) {
		call->reply = reply;
		if (call->etag_seen != NULL && call->req.ep->set_etag != NULL)
			call->req.ep->set_etag(reply, call->etag_seen);
	} else if (call->reconciling) {
		char *why = api_error_text(call->post_err);
		call->err = api_error_new(API_ERR_UNKNOWN_OUTCOME,
			_("no answer after %d attempts (last: %s), and the exchange does not list "
			  "the order (%s); it was probably not placed: send it again with the same "
			  "client order id, which can never place it twice"),
			call->post_err->attempts, why, cause != NULL ? cause : "?");
		free(why);
		call->err->client_order_id = xstrdup(call->req.client_order_id);
		call->err->attempts = call->post_err->attempts;
	} else {
		call->err = api_error_new(API_ERR_PROTOCOL, "%s (%s %s, HTTP %ld)",
					  cause != NULL ? cause : "?", call->req.method,
					  call->req.path, status);
		call->err->http_status = (int)status;
		call->err->attempts = call->attempts;
	}
	free(cause);
	cJSON_Delete(root);
	call->done = true;
}

/* The facts of the attempt that just ended. */
static struct api_attempt attempt_facts(const struct api_call *call, CURLcode rc)
{
	struct api_attempt a = {.curl_code = rc, .policy = call->req.retry};
	long req_size = 0;

	api_easy_getinfo(call->easy, CURLINFO_RESPONSE_CODE, &a.status);
	api_easy_getinfo(call->easy, CURLINFO_REQUEST_SIZE, &req_size);
	a.request_sent = req_size > 0;
	a.body_too_big = call->too_big;
	a.header_too_big = call->header_too_big;
	a.conditional = call->req.etag != NULL && call->req.ep->not_modified != NULL;
	a.retry_after_s = call->retry_after_s;
	return a;
}

/* The error of a failed attempt, in words. */
static struct api_error *attempt_error(struct api_call *call, const struct api_attempt *a,
				       const struct api_verdict *v, CURLcode rc)
{
	struct api_client *c = call->c;
	struct api_error *e = NULL;
	char *t;

	switch (v->reason) {
	case API_R_OK:
		break;
	case API_R_HTTP:
	case API_R_UNEXPECTED:
		if (a->curl_code == CURLE_OK && a->status != 304 && a->status >= 400) {
			e = api_error_from_reply(a->status, call->body.data, call->body.len,
						 call->request_id_seen);
			if (a->status == 429)
				e->retry_after_s = (int)(a->retry_after_s > 0 ? a->retry_after_s : 1);
			else if (a->retry_after_s > 0)
				e->retry_after_s = (int)a->retry_after_s;
			return e;
		}
		e = api_error_new(API_ERR_PROTOCOL, _("unexpected HTTP %ld for %s %s"), a->status,
				  call->req.method, call->req.path);
		e->http_status = (int)a->status;
		return e;
	case API_R_HEADER_TOO_BIG:
		return api_error_new(API_ERR_PROTOCOL, _("the exchange sent a reply header over %u KB "
							 "(%s %s)"), API_MAX_HEADER / 1024,
				     call->req.method, call->req.path);
	case API_R_TOO_BIG:
		return api_error_new(API_ERR_PROTOCOL, _("the reply to %s %s is larger than %u MiB"),
				     call->req.method, call->req.path, API_MAX_REPLY >> 20);
	case API_R_CONNECT:
		e = api_error_new(API_ERR_NETWORK, _("cannot reach the exchange at %s: %s"),
				  c->label, curl_reason(call, rc));
		e->net = net_cause(call, rc);
		return e;
	case API_R_TIMEOUT:
		/* the time it took, which is the deadline when that is what ended it */
		t = fmt_ms(util_now_ms() - call->t0_ms < c->total_ms ? util_now_ms() - call->t0_ms
								     : c->total_ms);
		if (call->header_bytes > 0 || call->body.len > 0) {
			e = api_error_new(API_ERR_TIMEOUT, _("the exchange at %s answers too slowly: "
							     "no complete reply in %s"), c->label, t);
			e->slow = true;
			free(t);
			return e;
		}
		e = api_error_new(API_ERR_TIMEOUT, P_("no answer from the exchange at %s in %s "
						      "after %d try",
						      "no answer from the exchange at %s in %s "
						      "after %d tries", (unsigned long)call->attempts),
				  c->label, t, call->attempts);
		free(t);
		return e;
	case API_R_BROKE:
	case API_R_BROKE_PARTIAL:
		e = api_error_new(API_ERR_NETWORK,
				  v->reason == API_R_BROKE_PARTIAL
					  ? _("the connection to %s broke in the middle of the reply: %s")
					  : _("the connection to %s broke: %s"),
				  c->label, curl_reason(call, rc));
		e->net = API_NET_LOST;
		return e;
	case API_R_TLS:
		return api_error_new(API_ERR_TLS, _("TLS with %s failed: %s (the certificate is "
						    "checked unless --insecure is given)"),
				     c->label, curl_reason(call, rc));
	case API_R_PROTOCOL:
		return api_error_new(API_ERR_PROTOCOL, "%s (%s %s)", curl_reason(call, rc),
				     call->req.method, call->req.path);
	case API_R_OTHER:
		break;
	}
	e = api_error_new(API_ERR_NETWORK, _("request to %s failed: %s"), c->label,
			  curl_reason(call, rc));
	e->net = net_cause(call, rc);
	return e;
}

/* Another attempt after a backoff, if tries and time are left; true when
 * scheduled (e is then kept as the call's error until the next try). */
static bool schedule_retry(struct api_call *call, struct api_error *e, long retry_after_s)
{
	struct api_client *c = call->c;
	int64_t delay = c->backoff_ms, at;

	if (call->attempts >= c->max_attempts)
		return false;
	for (int i = 1; i < call->attempts && delay < MAX_BACKOFF_MS; i++)
		delay *= 2;
	if (delay > MAX_BACKOFF_MS)
		delay = MAX_BACKOFF_MS;
	/* "equal jitter": half fixed, half random, so retries of many clients spread */
	delay = delay / 2 + (int64_t)(api_random64() % (uint64_t)(delay / 2 + 1));
	if (retry_after_s > 0 && retry_after_s * 1000 > delay)
		delay = retry_after_s * 1000;
	at = util_now_ms() + delay;
	if (at + MIN_ATTEMPT_MS > phase_deadline(call))
		return false;     /* no time left for a useful try */
	call->retry_at = at;
	api_error_free(&call->err);
	call->err = e;
	return true;
}

/* Every POST of an order failed in a way that leaves its fate open: ask for
 * it by client_order_id (a read, retried as reads are) until the deadline.
 * Takes e; false when the order has no reconcile path. */
static bool start_reconcile(struct api_call *call, struct api_error *e)
{
	if (call->req.reconcile_path == NULL)
		return false;
	call->reconciling = true;
	call->post_err = e;
	free(call->req.path);
	call->req.path = call->req.reconcile_path;
	call->req.reconcile_path = NULL;
	free(call->req.body);
	call->req.body = NULL;
	call->req.method = "GET";
	call->req.retry = API_RETRY_READ;
	call->req.ep = call->req.reconcile_ep;
	call->attempts = 0;
	call->retry_at = util_now_ms() + call->c->backoff_ms;
	if (call->retry_at + MIN_ATTEMPT_MS > call->deadline_ms)
		call->retry_at = util_now_ms();
	return true;
}

/* The final error of a call whose last attempt failed with e (taken). */
static void call_failed(struct api_call *call, struct api_error *e, bool retryable)
{
	api_error_free(&call->err);
	e->attempts = call->attempts;
	if (call->req.client_order_id != NULL)
		e->client_order_id = xstrdup(call->req.client_order_id);
	if (call->reconciling) {
		/* the check by client_order_id failed too: the outcome stays open */
		char *why = api_error_text(call->post_err), *why2 = api_error_text(e);
		struct api_error *u = api_error_new(API_ERR_UNKNOWN_OUTCOME,
			_("no answer after %d attempts (last: %s), and asking the exchange for it "
			  "failed (%s); it may or may not have been placed: list your orders to "
			  "see, or send it again with the same client order id, which can never "
			  "place it twice"),
			call->post_err->attempts, why, why2);
		free(why);
		free(why2);
		u->attempts = call->post_err->attempts;
		u->client_order_id = xstrdup(call->req.client_order_id);
		api_error_free(&e);
		e = u;
	} else if (call->req.retry == API_RETRY_ORDER && retryable && call->maybe_sent) {
		if (start_reconcile(call, e))
			return;
		char *why = api_error_text(e);
		struct api_error *u = api_error_new(API_ERR_UNKNOWN_OUTCOME,
			_("no answer after %d attempts (last: %s); it may or may not have been "
			  "placed: list your orders to see, or send it again with the same "
			  "client order id, which can never place it twice"),
			call->attempts, why);
		free(why);
		u->attempts = call->attempts;
		u->client_order_id = xstrdup(call->req.client_order_id);
		u->http_status = e->http_status;
		api_error_free(&e);
		e = u;
	}
	call->err = e;
	call->done = true;
}

/* After an attempt ended: fill call->reply or call->err and set done, or
 * schedule another attempt. */
static void attempt_ended(struct api_call *call, CURLcode rc)
{
	struct api_attempt a = attempt_facts(call, rc);
	struct api_verdict v = api_classify(&a);
	struct api_error *e;

	if (v.reason == API_R_OK) {
		finish_ok(call, a.status);
		attempt_end(call);
		return;
	}
	e = attempt_error(call, &a, &v, rc);
	if (v.reason == API_R_CONNECT && rc == CURLE_COULDNT_CONNECT && local_respawn(call->c, e)) {
		/* no use knocking again at once: the next request (a refresh, or
		 * the user trying again) finds the new one */
		e->restarting = true;
		v.retry = false;
	}
	if (v.maybe_sent)
		call->maybe_sent = true;
	attempt_end(call);
	if (v.retry && schedule_retry(call, e, a.retry_after_s))
		return;
	call_failed(call, e, v.retry);
}

/* ---- the pump -------------------------------------------------------------------------- */

int api_fds(struct api_client *c, struct pollfd *fds, int max, int *timeout_ms)
{
	int n = 0;
	int64_t now = util_now_ms(), next = -1;

	for (size_t i = 0; i < c->n_socks; i++) {
		if (n >= max) {
			next = now + 5;
			break;
		}
		fds[n].fd = c->socks[i].fd;
		fds[n].events = c->socks[i].events;
		fds[n].revents = 0;
		n++;
	}
	if (c->timer_at >= 0 && (next < 0 || c->timer_at < next))
		next = c->timer_at;
	for (struct api_call *call = c->calls; call != NULL; call = call->next)
		if (call->retry_at >= 0 && (next < 0 || call->retry_at < next))
			next = call->retry_at;
	if (c->delivering != NULL)
		next = now;
	if (next >= 0) {
		int64_t wait = next > now ? next - now : 0;
		if (*timeout_ms < 0 || wait < *timeout_ms)
			*timeout_ms = (int)(wait > 1000000 ? 1000000 : wait);
	}
	return n;
}

static void serve_sockets(struct api_client *c)
{
	size_t n = c->n_socks;
	int running;

	if (n == 0)
		return;
	if (c->cap_scratch < n) {
		c->scratch = xreallocarray(c->scratch, n, sizeof *c->scratch);
		c->cap_scratch = n;
	}
	for (size_t i = 0; i < n; i++) {
		c->scratch[i].fd = c->socks[i].fd;
		c->scratch[i].events = c->socks[i].events;
		c->scratch[i].revents = 0;
	}
	if (poll(c->scratch, (nfds_t)n, 0) <= 0)
		return;
	for (size_t i = 0; i < n; i++) {
		short r = c->scratch[i].revents;
		int mask = 0;
		if (r == 0)
			continue;
		if (r & POLLIN)
			mask |= CURL_CSELECT_IN;
		if (r & POLLOUT)
			mask |= CURL_CSELECT_OUT;
		if (r & (POLLERR | POLLHUP | POLLNVAL))
			mask |= CURL_CSELECT_ERR;
		api_curl.multi_socket_action(c->multi, c->scratch[i].fd, mask, &running);
	}
}

static void collect_finished(struct api_client *c)
{
	CURLMsg *m;
	int left;

	while ((m = api_curl.multi_info_read(c->multi, &left)) != NULL) {
		struct api_call *call = NULL;
		if (m->msg != CURLMSG_DONE)
			continue;
		api_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&call);
		if (call == NULL || call->easy != m->easy_handle)
			continue;
		attempt_ended(call, m->data.result);
	}
}

void api_perform(struct api_client *c)
{
	int running;
	int64_t now;
	struct api_call **pp;

	serve_sockets(c);
	if (c->timer_at >= 0 && util_now_ms() >= c->timer_at) {
		c->timer_at = -1;
		api_curl.multi_socket_action(c->multi, CURL_SOCKET_TIMEOUT, 0, &running);
	}
	collect_finished(c);

	now = util_now_ms();
	for (struct api_call *call = c->calls; call != NULL; call = call->next)
		if (!call->done && call->easy == NULL && call->retry_at >= 0 && call->retry_at <= now)
			attempt_start(call);

	/* move finished calls to the delivery list, keeping their order */
	for (pp = &c->calls; *pp != NULL;) {
		struct api_call *call = *pp;
		if (call->done) {
			struct api_call **tail = &c->delivering;
			*pp = call->next;
			while (*tail != NULL)
				tail = &(*tail)->next;
			call->next = NULL;
			*tail = call;
		} else {
			pp = &call->next;
		}
	}
	while (c->delivering != NULL) {
		struct api_call *call = c->delivering;
		c->delivering = call->next;
		if (!call->abandoned) {
			void *reply = call->reply;
			call->reply = NULL;   /* the callback owns it now */
			call->req.ep->deliver(call, reply, reply != NULL ? NULL : call->err);
		}
		call_free(call);
	}
}

int api_pending(const struct api_client *c)
{
	int n = 0;

	for (const struct api_call *call = c->calls; call != NULL; call = call->next)
		n++;
	for (const struct api_call *call = c->delivering; call != NULL; call = call->next)
		n += !call->abandoned;
	return n;
}

bool api_call_receiving(const struct api_client *c, uint64_t id)
{
	for (const struct api_call *call = c->calls; call != NULL; call = call->next)
		if (call->id == id)
			return call->header_bytes > 0 || call->body.len > 0;
	return false;
}

const struct api_error *api_call_error(const struct api_client *c, uint64_t id)
{
	for (const struct api_call *call = c->calls; call != NULL; call = call->next)
		if (call->id == id)
			return call->retry_at > 0 ? call->err : NULL;
	return NULL;
}

void api_abandon(struct api_client *c, uint64_t id)
{
	for (struct api_call **pp = &c->calls; *pp != NULL; pp = &(*pp)->next) {
		if ((*pp)->id == id) {
			struct api_call *call = *pp;
			*pp = call->next;
			call_free(call);
			return;
		}
	}
	for (struct api_call *call = c->delivering; call != NULL; call = call->next)
		if (call->id == id)
			call->abandoned = true;
}

void api_run_until_done(struct api_client *c, uint64_t id, const bool *done)
{
	struct pollfd *fds = NULL;
	size_t cap = 0;

	while (!*done) {
		int timeout = 200, n;
		if (cap < c->n_socks + 1) {
			cap = c->n_socks + 4;
			fds = xreallocarray(fds, cap, sizeof *fds);
		}
		n = api_fds(c, fds, (int)cap, &timeout);
		if (timeout != 0)
			poll(fds, (nfds_t)n, timeout);
		api_perform(c);
	}
	free(fds);
	(void)id;
}

const char *api_client_auth_header(const struct api_client *c)
{
	return c->auth;
}

void api_client_transport(const struct api_client *c, const char **base, const char **unix_path,
			  bool *insecure, long *connect_ms)
{
	*base = c->base;
	*unix_path = c->unix_path;
	*insecure = c->insecure;
	*connect_ms = c->connect_ms;
}
