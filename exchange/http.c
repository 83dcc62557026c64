/*
 * exchange/http.c — gpuxd's HTTP server on libmicrohttpd.
 *
 * We create the listening sockets ourselves (TCP from --listen, where port 0
 * lets the kernel pick and --port-file tells the tests which; a Unix socket
 * from --socket, mode 0600) and hand each to its own MHD daemon, run with an
 * internal thread pool on epoll and suspend/resume enabled.
 *
 * MHD calls the access handler several times per request; a per-request
 * state (struct req) carries it through: NEW (collecting the body, capped at
 * 16 KiB), then routed once the body is complete. A read is answered on the
 * spot; a write is queued to the writer thread and the connection suspended
 * (state WAIT) until the writer has committed and resumes it (state DONE),
 * so a slow commit never blocks a pool thread. When MHD is done with the
 * request, one log line goes to stderr: request id, method, path (as sent,
 * not percent-decoded), status and milliseconds — never a key or a body;
 * method and path are escaped (xd_log_field), so a control character in a
 * request can neither act on an operator's terminal nor fake a log line.
 *
 * Each listening socket has a guard (guard.c): connection caps at accept,
 * header and body deadlines, and the strict checks of the request line and
 * headers, run on the handler's first call — before any body is read, so a
 * refused request (a declared body over the cap, duplicate Content-Length)
 * is answered at once, without "100 Continue", and the connection closed.
 *
 * Rate limits are token buckets per client address (TCP only) and per API
 * key, checked before the handler runs; over the limit is 429 with
 * Retry-After. Keys are checked here: SHA-256 (nettle) of the presented
 * key looked up among the API keys (keys.c) or, for a key not of their
 * shape, among the admin keys (admin.c), the hash compared in constant time.
 */
#include "exchange/xd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>
#include <nettle/memops.h>

#include "util/util.h"

enum req_state { R_NEW, R_WAIT, R_DONE };

struct bucket {
	char key[64];
	double tokens;
	int64_t last_us;
};

struct limiter {
	pthread_mutex_t mu;
	struct bucket *b;
	size_t cap, n;
	double rate, burst;
};

struct xd_server {
	struct MHD_Daemon *tcp, *unx;
	struct xd_guard *g_tcp, *g_unx;
	int tcp_fd, unix_fd;
	int port;            /* of tcp_fd */
	char *socket_path;
	struct xd_market *_Atomic m;   /* NULL until the database could be opened */
	struct xd_server_config cfg;
	struct limiter by_key, by_addr, signups;
	struct xd_door *door;        /* --trusted-proxy: gpuxd accepts on tcp_fd itself */
	_Atomic uint64_t counter;
};

struct req {
	struct xd_server *srv;
	struct MHD_Connection *conn;
	char rid[20];
	int64_t t0_us;
	int64_t read_us;     /* when the whole request had been read */
	struct buf body;
	bool too_large;
	bool header_done;    /* the handler's first call has been made */
	bool close;          /* answered before the body was read: close after */
	enum req_state state;
	char *path;          /* scratch holding the route's {} params */
	char *raw;           /* the request target as sent */
	char method[40];     /* escaped */
	struct xd_ctx ctx;
	struct xd_job job;
};

/* ---- rate limits ------------------------------------------------------------------ */

/* rate tokens a second, bursts of burst. */
static void limiter_init(struct limiter *l, double rate, double burst)
{
	pthread_mutex_init(&l->mu, NULL);
	l->rate = rate;
	l->burst = burst;
	l->cap = 4096;
	l->b = xcalloc(l->cap, sizeof *l->b);
}

static void limiter_free(struct limiter *l)
{
	pthread_mutex_destroy(&l->mu);
	free(l->b);
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* Take one token for key; 0 if allowed, else the seconds to wait. */
static int limiter_take(struct limiter *l, const char *key)
{
	if (l->rate <= 0)
		return 0;
	int64_t now = util_now_us();
	pthread_mutex_lock(&l->mu);
	if (l->n * 10 >= l->cap * 7) {   /* full of stale clients: start afresh */
		memset(l->b, 0, l->cap * sizeof *l->b);
		l->n = 0;
	}
	size_t i = (size_t)hash_str(key) & (l->cap - 1);
	while (l->b[i].key[0] && strcmp(l->b[i].key, key) != 0)
		i = (i + 1) & (l->cap - 1);
	struct bucket *b = &l->b[i];
	if (!b->key[0]) {
		snprintf(b->key, sizeof b->key, "%s", key);
		b->tokens = l->burst;
		b->last_us = now;
		l->n++;
	}
	b->tokens += (double)(now - b->last_us) / 1e6 * l->rate;
	if (b->tokens > l->burst)
		b->tokens = l->burst;
	b->last_us = now;
	int wait = 0;
	if (b->tokens >= 1.0) {
		b->tokens -= 1.0;
	} else {
		wait = (int)ceil((1.0 - b->tokens) / l->rate);
		if (wait < 1)
			wait = 1;
	}
	pthread_mutex_unlock(&l->mu);
	return wait;
}

/* ---- replies ------------------------------------------------------------------------ */

static enum MHD_Result send_reply(struct req *r)
{
	struct xd_reply *rep = &r->ctx.reply;
	if (rep->response) {   /* a ready response: the market stream */
		struct MHD_Response *sr = rep->response;
		rep->response = NULL;
		MHD_add_response_header(sr, "X-Request-Id", r->rid);
		enum MHD_Result sret = MHD_queue_response(r->conn, (unsigned)rep->status, sr);
		MHD_destroy_response(sr);
		return sret;
	}
	if (rep->status == 0)
		xd_reply_error(rep, 500, "INTERNAL", "no reply was produced");
	struct MHD_Response *resp;
	if (rep->status == 304) {
		resp = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
	} else {
		char *text;
		if (rep->raw) {
			text = rep->raw;
			rep->raw = NULL;
		} else {
			if (!rep->body)
				rep->body = cJSON_CreateObject();
			cJSON *err = cJSON_GetObjectItemCaseSensitive(rep->body, "error");
			if (cJSON_IsObject(err) && !cJSON_GetObjectItemCaseSensitive(err, "request_id"))
				cJSON_AddStringToObject(err, "request_id", r->rid);
			if (r->ctx.new_key[0] && rep->status == 201)
				cJSON_AddStringToObject(rep->body, "api_key", r->ctx.new_key);
			char *json = cJSON_PrintUnformatted(rep->body);
			if (!json)
				fatal("gpuxd: out of memory printing a reply");
			text = xasprintf("%s\n", json);
			cJSON_free(json);
		}
		resp = MHD_create_response_from_buffer(strlen(text), text, MHD_RESPMEM_MUST_FREE);
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
	}
	if (r->close)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
	explicit_bzero(r->ctx.new_key, sizeof r->ctx.new_key);
	MHD_add_response_header(resp, "X-Request-Id", r->rid);
	if (rep->etag) {
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, rep->etag);
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
	}
	if (rep->retry_after > 0) {
		char s[16];
		snprintf(s, sizeof s, "%d", rep->retry_after);
		MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, s);
	}
	if (rep->allow)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, rep->allow);
	if (rep->status == 401)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer");
	enum MHD_Result ret = MHD_queue_response(r->conn, (unsigned)rep->status, resp);
	MHD_destroy_response(resp);
	return ret;
}

/* ---- routing and auth ------------------------------------------------------------- */

static bool match(const char *pattern, const char *path, const char *params[2], char **store)
{
	/* "/v1/orders/{}" against "/v1/orders/42"; {} is one non-empty segment */
	const char *p = pattern, *s = path;
	int n = 0;
	char *out = *store;
	while (*p) {
		if (p[0] == '{' && p[1] == '}') {
			const char *e = s;
			while (*e && *e != '/')
				e++;
			if (e == s || n == 2)
				return false;
			memcpy(out, s, (size_t)(e - s));
			out[e - s] = 0;
			params[n++] = out;
			out += e - s + 1;
			s = e;
			p += 2;
			continue;
		}
		if (*p != *s)
			return false;
		p++, s++;
	}
	if (*s)
		return false;
	*store = out;
	return true;
}

static void authenticate(struct req *r)
{
	struct xd_ctx *c = &r->ctx;
	const char *h = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
	if (!h || strncasecmp(h, "Bearer ", 7) != 0)
		return;
	const char *key = h + 7;
	while (*key == ' ')
		key++;
	size_t n = strlen(key);
	while (n && key[n - 1] == ' ')
		n--;
	bool account_shape = n == 69 && strncmp(key, "gpux_", 5) == 0;
	for (size_t i = 5; account_shape && i < n; i++)
		if (!((key[i] >= '0' && key[i] <= '9') || (key[i] >= 'a' && key[i] <= 'f')))
			account_shape = false;
	unsigned char md[32];
	xd_keys_hash(key, n, md);
	if (account_shape)
		c->account = xd_keys_auth(c, md);
	else if (n >= 16)   /* an admin key (admin.c), looked up on every request */
		c->admin = xd_admin_auth(c, md) > 0;
}

/* The key the client's rate limits count under (xd_addr_key): the peer's
 * address — the one its PROXY header named, if it sent one — or, from a
 * trusted proxy, the client its X-Forwarded-For names. "" for a Unix
 * socket. */
static void client_key(struct req *r, char *out, size_t size)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(r->conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = ci ? ci->client_addr : NULL;
	const struct xd_trust *trust = r->srv->cfg.limits.trust;
	struct sockaddr_storage fwd;
	if (trust && xd_trust_has(trust, sa)) {
		const char *xff = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, "X-Forwarded-For");
		if (xff && xd_xff_client(trust, xff, &fwd) == 0)
			sa = (const struct sockaddr *)&fwd;
	}
	xd_addr_key(sa, out, size);
}

/* Signups allowed per client key per minute (bursts of as many); 0 = no
 * limit. The one place it is read: --signup-limit now, the operator's
 * stored setting once the store has them. */
static int signup_limit(const struct xd_server_config *c)
{
	return c->signup_per_min;
}

/* POST /v1/accounts over the client's signup limit: 429 in c->reply. */
static bool signup_refused(struct xd_server *srv, struct xd_ctx *c, const char *key)
{
	if (!key[0] || signup_limit(&srv->cfg) <= 0)
		return false;
	char k[80];
	snprintf(k, sizeof k, "s:%s", key);
	int wait = limiter_take(&srv->signups, k);
	if (!wait)
		return false;
	cJSON *e = xd_reply_error(&c->reply, 429, "RATE_LIMITED",
	                          "too many new accounts from this address (%d a minute); retry in %d s",
	                          signup_limit(&srv->cfg), wait);
	xd_jint(e, "retry_after", wait);
	c->reply.retry_after = wait;
	return true;
}

/* The route for method on url: its params in r->ctx (kept in *store, which
 * the caller owns), or NULL; allow gets the methods the path takes ("" for
 * an unknown path). */
static const struct xd_route *find_route(struct req *r, const char *url, const char *method,
                                         char *allow, size_t allow_size, char **store)
{
	const struct xd_route *route = NULL;
	char *scratch;
	*store = scratch = xmalloc(2 * strlen(url) + 8);
	for (size_t i = 0; i < xd_n_routes; i++) {
		const char *params[2] = { NULL, NULL };
		char *s = scratch;
		if (!match(xd_routes[i].pattern, url, params, &s))
			continue;
		if (strlen(allow) + strlen(xd_routes[i].method) + 3 < allow_size)
			snprintf(allow + strlen(allow), allow_size - strlen(allow), "%s%s",
			         allow[0] ? ", " : "", xd_routes[i].method);
		if (!route && strcmp(xd_routes[i].method, method) == 0) {
			route = &xd_routes[i];
			r->ctx.params[0] = params[0];
			r->ctx.params[1] = params[1];
			scratch = s;
		}
	}
	return route;
}

/* A read of the database failed (PostgreSQL unreachable or restarting):
 * whatever the handler made of the empty result is not the answer. */
static void store_unavailable(struct xd_reply *reply)
{
	xd_reply_clear(reply);
	xd_reply_error(reply, 503, "STORE_UNAVAILABLE",
	               "the exchange's database is unavailable; try again shortly");
	reply->retry_after = 1;
}

static void dispatch(struct req *r, const char *url, const char *method)
{
	struct xd_server *srv = r->srv;
	struct xd_ctx *c = &r->ctx;
	c->m = srv->m;
	if (!c->m) {   /* gpuxd started while its database was down */
		if (strcmp(method, "GET") == 0 && strcmp(url, "/v1/health") == 0) {
			cJSON *o = cJSON_CreateObject();   /* alive: it keeps trying */
			cJSON_AddStringToObject(o, "status", "ok");
			xd_reply_json(&c->reply, 200, o);
		} else if (strcmp(method, "GET") == 0 && strcmp(url, "/v1/ready") == 0) {
			xd_reply_error(&c->reply, 503, "NOT_READY", "this node cannot commit now: its "
			               "database could not be opened yet");
			c->reply.retry_after = 1;
		} else {
			store_unavailable(&c->reply);
		}
		return;
	}
	c->method = method;
	c->path = url;
	c->conn = r->conn;
	c->cfg = &srv->cfg;
	c->job = &r->job;
	c->body = r->body.data ? r->body.data : "";
	c->body_len = r->body.len;

	char addr[64];
	client_key(r, addr, sizeof addr);
	/* a load balancer's checks are cheap and never limited */
	bool check = strcmp(url, "/v1/health") == 0 || strcmp(url, "/v1/ready") == 0;
	if (addr[0] && !check) {
		char key[80];
		snprintf(key, sizeof key, "a:%s", addr);
		int wait = limiter_take(&srv->by_addr, key);
		if (wait) {
			cJSON *e = xd_reply_error(&c->reply, 429, "RATE_LIMITED",
			                          "too many requests from this address; retry in %d s", wait);
			xd_jint(e, "retry_after", wait);
			c->reply.retry_after = wait;
			return;
		}
	}
	if (r->too_large) {
		r->close = true;   /* a framing error: nothing more is read from here */
		cJSON *e = xd_reply_error(&c->reply, 413, "BODY_TOO_LARGE",
		                          "the request body is larger than %d bytes", XD_BODY_MAX);
		xd_jint(e, "max", XD_BODY_MAX);
		return;
	}

	char allow[64] = "";
	char *store = NULL;
	const struct xd_route *route = find_route(r, url, method, allow, sizeof allow, &store);
	if (!route) {
		free(store);
		if (allow[0]) {
			xd_reply_error(&c->reply, 405, "METHOD_NOT_ALLOWED", "%s is not allowed here; use %s",
			               method, allow);
			c->reply.allow = xstrdup(allow);
		} else {
			xd_reply_error(&c->reply, 404, "NOT_FOUND", "no such route");
		}
		return;
	}
	r->path = store;   /* keeps the params alive */
	if (xd_route_sheds(route) && xd_market_busy(c->m, r->read_us)) {
		xd_reply_overloaded(&c->reply);
		return;
	}
	if (strcmp(route->pattern, "/v1/accounts") == 0 && strcmp(method, "POST") == 0 &&
	    signup_refused(srv, c, addr))
		return;

	authenticate(r);
	bool demo = xd_market_demo(c->m);
	switch (route->auth) {
	case XD_PUBLIC:
		break;
	case XD_ACCOUNT:
		if (!c->account) {
			xd_reply_error(&c->reply, 401, "UNAUTHORIZED",
			               "this route needs \"Authorization: Bearer <api key>\" with a valid key");
			return;
		}
		break;
	case XD_ACCOUNT_OR_ADMIN:
		if (!c->account && !c->admin) {
			xd_reply_error(&c->reply, 401, "UNAUTHORIZED",
			               "this route needs \"Authorization: Bearer <api key>\" with a valid key");
			return;
		}
		break;
	case XD_ADMIN_OR_DEMO:
		if (!c->admin && !demo) {
			if (c->account)
				xd_reply_error(&c->reply, 403, "FORBIDDEN", "this route needs the admin key");
			else
				xd_reply_error(&c->reply, 401, "UNAUTHORIZED", "this route needs the admin key");
			return;
		}
		break;
	}
	if (c->account && !c->admin) {
		char key[40];
		snprintf(key, sizeof key, "k:%" PRId64, c->account);
		int wait = limiter_take(&srv->by_key, key);
		if (wait) {
			cJSON *e = xd_reply_error(&c->reply, 429, "RATE_LIMITED",
			                          "too many requests with this key; retry in %d s", wait);
			xd_jint(e, "retry_after", wait);
			c->reply.retry_after = wait;
			return;
		}
	}
	route->handler(c);
}

/* ---- the writer's answer ------------------------------------------------------------ */

static void job_done(struct xd_job *j)
{
	struct req *r = j->arg;
	xd_reply_move(&r->ctx.reply, &j->reply);
	r->state = R_DONE;
	MHD_resume_connection(r->conn);
}

void xd_ctx_submit(struct xd_ctx *c)
{
	struct req *r = (struct req *)((char *)c - offsetof(struct req, ctx));
	c->job->done = job_done;
	c->job->arg = r;
	c->job->arrived_us = r->read_us;
	c->submitted = true;
	r->state = R_WAIT;
	MHD_suspend_connection(r->conn);
	int rc = xd_market_submit(c->m, c->job);
	if (rc == 0)
		return;
	if (rc == XD_SUBMIT_BUSY) {
		xd_reply_overloaded(&c->reply);
	} else {
		xd_reply_error(&c->reply, 503, "UNAVAILABLE",
		               "the exchange is shutting down; retry (with the same client_order_id)");
		c->reply.retry_after = 1;
	}
	r->state = R_DONE;
	MHD_resume_connection(r->conn);
}

/* ---- MHD callbacks -------------------------------------------------------------------- */

static struct req *req_new(struct xd_server *srv, struct MHD_Connection *conn, const char *raw)
{
	struct req *r = xcalloc(1, sizeof *r);
	r->srv = srv;
	r->conn = conn;
	r->t0_us = util_now_us();
	r->raw = xstrdup(raw ? raw : "");
	snprintf(r->rid, sizeof r->rid, "r%012" PRIx64, ++srv->counter);
	return r;
}

/* The request line has been read: the request's state starts here, with the
 * target as sent (libmicrohttpd's url argument is percent-decoded). */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
	return req_new(cls, conn, uri);
}

/* The header is complete, nothing of the body read yet. */
static enum MHD_Result on_header_done(struct req *r, const char *method, const char *version)
{
	char *m = xd_log_field(method, 24);
	snprintf(r->method, sizeof r->method, "%s", m);
	free(m);
	r->header_done = true;
	xd_conn_phase(r->conn, XD_PHASE_BODY);
	if (xd_strict_request(r->conn, method, version, r->raw, &r->ctx.reply) == 0)
		return MHD_YES;
	r->close = true;
	r->state = R_DONE;
	xd_conn_phase(r->conn, XD_PHASE_BUSY);
	return send_reply(r);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version,
                                  const char *upload, size_t *upload_size, void **con_cls)
{
	struct xd_server *srv = cls;
	struct req *r = *con_cls;
	if (!r)
		*con_cls = r = req_new(srv, conn, url);
	if (!r->header_done)
		return on_header_done(r, method, version);
	if (r->state == R_DONE && r->close)
		return MHD_YES;   /* refused: the body is not read */
	if (*upload_size) {
		if (!r->too_large && r->body.len + *upload_size <= XD_BODY_MAX)
			buf_append(&r->body, upload, *upload_size);
		else
			r->too_large = true;
		*upload_size = 0;
		return MHD_YES;
	}
	if (r->state == R_NEW) {
		r->read_us = util_now_us();
		xd_conn_phase(conn, XD_PHASE_BUSY);
		xd_store_reader_fault();   /* a fault of an earlier request is not this one's */
		dispatch(r, url, method);
		if (r->state == R_WAIT)
			return MHD_YES;
		if (xd_store_reader_fault())
			store_unavailable(&r->ctx.reply);
	}
	if (r->state == R_WAIT)
		return MHD_YES;   /* resumed spuriously: wait on */
	r->state = R_DONE;
	return send_reply(r);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
	struct xd_server *srv = cls;
	struct req *r = *con_cls;
	(void)toe;
	if (!r)
		return;
	xd_conn_phase(conn, XD_PHASE_HEADER);   /* the next request's header, or idle */
	if (!srv->cfg.quiet) {
		double ms = (double)(util_now_us() - r->t0_us) / 1000.0;
		char t[40];
		xd_time_fmt((int64_t)time(NULL) * 1000, t, sizeof t);   /* wall clock */
		/* "-": no method (the request line was refused) or no status (the
		 * reply, if any, was libmicrohttpd's own) */
		char st[12] = "-";
		if (r->ctx.reply.status)
			snprintf(st, sizeof st, "%d", r->ctx.reply.status);
		char *path = xd_log_field(r->raw, 200);
		fprintf(stderr, "%s %s %s %s %s %.2fms\n", t, r->rid, r->method[0] ? r->method : "-",
		        path, st, ms);
		free(path);
	}
	xd_reply_clear(&r->ctx.reply);
	xd_reply_clear(&r->job.reply);
	buf_free(&r->body);
	free(r->path);
	free(r->raw);
	free(r);
	*con_cls = NULL;
}

/* ---- sockets ------------------------------------------------------------------------- */

static int listen_tcp(const char *spec, int *fd_out, int *port_out, char **cause)
{
	char *host, *port;
	const char *colon = strrchr(spec, ':');
	if (!colon || !colon[1])
		return set_cause(cause, "--listen %s: expected HOST:PORT", spec);
	if (spec[0] == '[') {
		const char *end = strchr(spec, ']');
		if (!end || end + 1 != colon)
			return set_cause(cause, "--listen %s: expected [IPV6]:PORT", spec);
		host = xstrndup(spec + 1, (size_t)(end - spec - 1));
	} else {
		host = xstrndup(spec, (size_t)(colon - spec));
	}
	port = xstrdup(colon + 1);
	char *end;
	long pn = strtol(port, &end, 10);
	if (*end || pn < 0 || pn > 65535) {
		free(host);
		free(port);
		return set_cause(cause, "--listen %s: the port must be 0..65535", spec);
	}
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
	                          .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *res = NULL;
	int e = getaddrinfo(host[0] && strcmp(host, "*") ? host : NULL, port, &hints, &res);
	free(port);
	if (e != 0) {
		int rc = set_cause(cause, "--listen %s: %s", spec, gai_strerror(e));
		free(host);
		return rc;
	}
	free(host);
	int fd = -1, err = 0;
	for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, SOMAXCONN) == 0)
			break;
		err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return set_cause(cause, "--listen %s: %s", spec, strerror(err));
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	getsockname(fd, (struct sockaddr *)&ss, &sl);
	*port_out = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
	                                           : ((struct sockaddr_in *)&ss)->sin_port);
	*fd_out = fd;
	return 0;
}

/* The socket is bound under a temporary name and renamed into place once it
 * listens, so whoever sees the path can connect (a path too long for the
 * temporary name is bound directly). */
static int listen_unix(const char *path, int *fd_out, char **cause)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof sa.sun_path)
		return set_cause(cause, "--socket %s: the path is too long", path);
	int n = snprintf(sa.sun_path, sizeof sa.sun_path, "%s.%d", path, (int)getpid());
	bool renamed = n > 0 && (size_t)n < sizeof sa.sun_path;
	if (!renamed)
		strcpy(sa.sun_path, path);
	struct stat st;
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode))
			return set_cause(cause, "--socket %s: exists and is not a socket", path);
		unlink(path);   /* a stale socket from an earlier run */
	}
	if (renamed)
		unlink(sa.sun_path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return set_cause(cause, "--socket %s: %s", path, strerror(errno));
	mode_t old = umask(0177);
	int rc = bind(fd, (struct sockaddr *)&sa, sizeof sa);
	int e = errno;
	umask(old);
	if (rc != 0 || chmod(sa.sun_path, 0600) != 0 || listen(fd, SOMAXCONN) != 0 ||
	    (renamed && rename(sa.sun_path, path) != 0)) {
		if (rc == 0) {
			e = errno;
			unlink(sa.sun_path);
		}
		close(fd);
		return set_cause(cause, "--socket %s: %s", path, strerror(e));
	}
	*fd_out = fd;
	return 0;
}

static int write_port_file(const char *path, int port, char **cause)
{
	char *tmp = xasprintf("%s.tmp%d", path, (int)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", port) < 0 || fclose(f) != 0 || rename(tmp, path) != 0) {
		int rc = set_cause(cause, "--port-file %s: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return rc;
	}
	free(tmp);
	return 0;
}

static enum MHD_Result on_accept(void *cls, const struct sockaddr *addr, socklen_t len)
{
	(void)len;
	return xd_guard_accept(cls, addr) ? MHD_YES : MHD_NO;
}

static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_ctx,
                          enum MHD_ConnectionNotificationCode code)
{
	if (code == MHD_CONNECTION_NOTIFY_STARTED)
		xd_guard_open(cls, conn, socket_ctx);
	else
		xd_guard_close(cls, socket_ctx);
}

/* A daemon serving fd; own_accept: it has no listening socket, connections
 * come from MHD_add_connection (the front door, or a test harness), and it
 * waits with poll(2): libmicrohttpd 0.9.75's epoll loop misses the end of
 * input of a connection handed over with its bytes already in it (an
 * incomplete request then waited for the header deadline; found by
 * tests/fuzz/fuzz_exchange_http.c). */
static struct MHD_Daemon *start_daemon(struct xd_server *s, int fd, bool own_accept,
                                       unsigned threads, struct xd_guard **gp)
{
	const struct xd_limits *l = &s->cfg.limits;
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | (own_accept ? MHD_USE_POLL : MHD_USE_EPOLL) | MHD_ALLOW_SUSPEND_RESUME |
	                 (own_accept ? MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC : 0) |
	                 (fd >= 0 ? MHD_USE_ERROR_LOG : 0);   /* detached (fuzzing): no log */
	/* libmicrohttpd's own cap is only a backstop (it splits it evenly over
	 * the pool's threads): the guard enforces the documented ones. Its
	 * inactivity timeout is the longest of the guard's deadlines. */
	unsigned backstop = 2u * (unsigned)(l->max_conns + l->max_streams) + 16u * threads;
	unsigned idle = (unsigned)(l->header_timeout_s > l->body_timeout_s ? l->header_timeout_s
	                                                                  : l->body_timeout_s) + 1u;
	struct xd_guard *g = xd_guard_new(l);
	struct MHD_OptionItem more[3];
	size_t n = 0;
	if (threads > 1)
		more[n++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)threads, NULL };
	if (!own_accept)
		more[n++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_SOCKET, fd, NULL };
	more[n] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
	struct MHD_Daemon *d = MHD_start_daemon(flags, 0, on_accept, g, on_request, s,
		MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
		MHD_OPTION_NOTIFY_CONNECTION, on_connection, g,
		MHD_OPTION_URI_LOG_CALLBACK, on_uri, s,
		MHD_OPTION_CONNECTION_TIMEOUT, idle,
		MHD_OPTION_CONNECTION_LIMIT, backstop,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)XD_HEADER_MEMORY,
		MHD_OPTION_ARRAY, more,
		MHD_OPTION_END);
	if (!d)
		xd_guard_free(&g);
	*gp = g;
	return d;
}

int xd_server_listen(const struct xd_server_config *c, struct xd_server **out, char **cause)
{
	struct xd_server *s = xcalloc(1, sizeof *s);
	*out = NULL;
	s->cfg = *c;
	s->tcp_fd = s->unix_fd = -1;
	limiter_init(&s->by_key, c->rate_per_key, 2.0 * c->rate_per_key);
	limiter_init(&s->by_addr, c->rate_per_addr, 2.0 * c->rate_per_addr);
	limiter_init(&s->signups, signup_limit(c) / 60.0, signup_limit(c));
	if (!c->listen && !c->socket_path) {
		xd_server_stop(&s);
		return set_cause(cause, "nothing to listen on: give --listen or --socket");
	}
	if ((c->listen && listen_tcp(c->listen, &s->tcp_fd, &s->port, cause) != 0) ||
	    (c->socket_path && listen_unix(c->socket_path, &s->unix_fd, cause) != 0)) {
		xd_server_stop(&s);
		return -1;
	}
	if (c->socket_path)
		s->socket_path = xstrdup(c->socket_path);
	*out = s;
	return 0;
}

void xd_server_set_market(struct xd_server *s, struct xd_market *m)
{
	s->m = m;
}

int xd_server_start(struct xd_server *s, struct xd_market *m, char **cause)
{
	const struct xd_server_config *c = &s->cfg;
	unsigned threads = c->threads > 0 ? (unsigned)c->threads : 2;
	s->m = m;
	if (c->listen) {
		bool door = c->limits.trust != NULL;
		s->tcp = start_daemon(s, s->tcp_fd, door, threads, &s->g_tcp);
		if (!s->tcp)
			return set_cause(cause, "--listen %s: libmicrohttpd would not start", c->listen);
		if (door && xd_door_start(s->tcp_fd, c->limits.trust, c->limits.header_timeout_s,
		                          s->tcp, &s->door, cause) != 0)
			return -1;
		if (c->port_file && write_port_file(c->port_file, s->port, cause) != 0)
			return -1;
		if (!c->quiet)
			fprintf(stderr, "gpuxd: listening on %s (port %d)\n", c->listen, s->port);
	}
	if (c->socket_path) {
		s->unx = start_daemon(s, s->unix_fd, false, threads, &s->g_unx);
		if (!s->unx)
			return set_cause(cause, "--socket %s: libmicrohttpd would not start", c->socket_path);
		if (!c->quiet)
			fprintf(stderr, "gpuxd: listening on unix:%s\n", c->socket_path);
	}
	return 0;
}

int xd_server_detached(const struct xd_server_config *c, struct xd_market *m,
                       struct xd_server **out, char **cause)
{
	struct xd_server *s = xcalloc(1, sizeof *s);
	*out = NULL;
	s->cfg = *c;
	s->tcp_fd = s->unix_fd = -1;
	s->m = m;
	limiter_init(&s->by_key, c->rate_per_key, 2.0 * c->rate_per_key);
	limiter_init(&s->by_addr, c->rate_per_addr, 2.0 * c->rate_per_addr);
	limiter_init(&s->signups, signup_limit(c) / 60.0, signup_limit(c));
	s->tcp = start_daemon(s, -1, true, c->threads > 0 ? (unsigned)c->threads : 1, &s->g_tcp);
	if (!s->tcp) {
		xd_server_stop(&s);
		return set_cause(cause, "libmicrohttpd would not start");
	}
	*out = s;
	return 0;
}

int xd_server_add(struct xd_server *s, int fd, const struct sockaddr *sa, unsigned len)
{
	return MHD_add_connection(s->tcp, fd, sa, len) == MHD_YES ? 0 : -1;
}

int64_t xd_server_idle_us(struct xd_server *s)
{
	int64_t a = s->g_tcp ? xd_guard_idle_us(s->g_tcp) : INT64_MAX;
	int64_t b = s->g_unx ? xd_guard_idle_us(s->g_unx) : INT64_MAX;
	return a < b ? a : b;
}

void xd_server_quiesce(struct xd_server *s)
{
	xd_door_stop(&s->door);
	if (s->tcp && !s->cfg.limits.trust)
		MHD_quiesce_daemon(s->tcp);
	if (s->unx)
		MHD_quiesce_daemon(s->unx);
}

void xd_server_stop(struct xd_server **sp)
{
	struct xd_server *s = *sp;
	if (!s)
		return;
	xd_door_stop(&s->door);
	if (s->tcp)
		MHD_stop_daemon(s->tcp);
	if (s->unx)
		MHD_stop_daemon(s->unx);
	struct xd_guard *gs[2] = { s->g_tcp, s->g_unx };
	for (int i = 0; i < 2 && !s->cfg.quiet; i++) {
		uint64_t refused, cut_h, cut_b, evicted;
		if (!gs[i])
			continue;
		xd_guard_stats(gs[i], &refused, &cut_h, &cut_b, &evicted);
		if (refused || cut_h || cut_b || evicted)
			fprintf(stderr, "gpuxd: %s: %" PRIu64 " connections refused at the caps, %" PRIu64
			        " cut at the header deadline, %" PRIu64 " at the body deadline, %" PRIu64
			        " idle ones closed to make room\n",
			        i == 0 ? "tcp" : "unix", refused, cut_h, cut_b, evicted);
	}
	xd_guard_free(&s->g_tcp);
	xd_guard_free(&s->g_unx);
	if (s->tcp_fd >= 0)
		close(s->tcp_fd);
	if (s->unix_fd >= 0)
		close(s->unix_fd);
	if (s->socket_path) {
		unlink(s->socket_path);
		free(s->socket_path);
	}

	limiter_free(&s->by_key);
	limiter_free(&s->by_addr);
	limiter_free(&s->signups);
	free(s);
	*sp = NULL;
}
