/*
 * exchange/guard.c — what stands between the network and the handlers:
 * connection caps, the header and body deadlines, the strict reading of a
 * request's line and headers, and log fields that are safe on a terminal.
 *
 * Connections. Each listening socket has a guard. A new connection is
 * refused at accept (closed at once, no reply) when the socket already holds
 * max_conns_per_addr request connections from the same client (its IPv4
 * address or IPv6 /64, xd_addr_key; TCP only, a Unix socket has no address,
 * and a trusted proxy's own connections are not counted per address). At
 * max_conns in all, the connection that has waited longest for a request
 * header is closed to make room (an idle keep-alive connection, or one
 * trickling its header), so holding connections open from many addresses
 * does not lock newcomers out; only when every connection is being
 * answered is the newcomer refused. A connection that a
 * handler turns into a long-lived stream (xd_conn_stream) leaves those
 * counts for the streams' own (max_streams, max_streams_per_addr), so any
 * number of streams up to their cap never starves requests, and requests
 * never starve streams.
 *
 * Deadlines. A connection must deliver a complete request header within
 * header_timeout seconds of its start or of the end of its previous reply
 * (so that is also how long an idle keep-alive connection is kept), and the
 * whole body within body_timeout seconds of the header. libmicrohttpd's own
 * timeout only counts inactivity, which one byte a second defeats; so a
 * sweeper thread looks at every connection's deadline a few times a second
 * and shuts the socket of one that is late (shutdown, not close: the
 * descriptor stays libmicrohttpd's, which then sees end of file and closes
 * it, telling us through the CLOSED notification, under our lock, before the
 * descriptor is closed — so a descriptor in our table is always still the
 * connection's own). A connection being answered or streaming has no
 * deadline here.
 */
#include "exchange/xd.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

#include <microhttpd.h>

#include "util/util.h"

struct addr_count {
	struct addr_count *next;
	char addr[64];                /* xd_addr_key */
	int conns, streams;
};

#define ADDR_BUCKETS 1024

struct xd_conn {
	struct xd_guard *g;
	struct xd_conn *prev, *next;
	int fd;
	char addr[64];                /* xd_addr_key; "" for a Unix socket or a trusted proxy */
	enum xd_phase phase;
	int64_t deadline_us;          /* 0 = none */
	int64_t idle_since_us;        /* when it began waiting for a request header */
	bool stream, cut;
};

struct xd_guard {
	struct xd_limits lim;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t sweeper;
	bool running, stopping;
	struct xd_conn *conns;        /* every open connection */
	int n_conns, n_streams;
	int n_cut;                    /* request connections shut down, not closed yet */
	int64_t quiet_since_us;       /* when the last connection closed */
	struct addr_count *by_addr[ADDR_BUCKETS];
	_Atomic uint64_t refused, cut_header, cut_body, evicted;
};

/* ---- per-address counts ------------------------------------------------------------- */

static unsigned addr_hash(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h % ADDR_BUCKETS;
}

static struct addr_count *addr_find(struct xd_guard *g, const char *addr, bool create)
{
	struct addr_count **pp = &g->by_addr[addr_hash(addr)];
	for (struct addr_count *a = *pp; a; a = a->next)
		if (strcmp(a->addr, addr) == 0)
			return a;
	if (!create)
		return NULL;
	struct addr_count *a = xcalloc(1, sizeof *a);
	snprintf(a->addr, sizeof a->addr, "%s", addr);
	a->next = *pp;
	*pp = a;
	return a;
}

static void addr_release(struct xd_guard *g, const char *addr)
{
	struct addr_count **pp = &g->by_addr[addr_hash(addr)];
	for (; *pp; pp = &(*pp)->next) {
		struct addr_count *a = *pp;
		if (strcmp(a->addr, addr) == 0) {
			if (a->conns <= 0 && a->streams <= 0) {
				*pp = a->next;
				free(a);
			}
			return;
		}
	}
}

void xd_addr_text(const struct sockaddr *sa, char *out, size_t size)
{
	out[0] = 0;
	if (!sa)
		return;
	if (sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out, (socklen_t)size);
	else if (sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, out, (socklen_t)size);
}

/* ---- accept, open, close ----------------------------------------------------------- */

/* Shut the socket of c down (libmicrohttpd then sees end of file and closes
 * it); under g->mu. */
static void cut(struct xd_guard *g, struct xd_conn *c)
{
	c->cut = true;
	if (!c->stream)
		g->n_cut++;
	shutdown(c->fd, SHUT_RDWR);
}

/* At the total cap: close the request connection that has waited longest
 * for a request header (an idle keep-alive one, or one sending its header
 * slowly), so a newcomer is served rather than refused. Under g->mu; false
 * if every connection is busy. */
static bool evict_idlest(struct xd_guard *g)
{
	struct xd_conn *best = NULL;
	for (struct xd_conn *c = g->conns; c; c = c->next)
		if (!c->cut && !c->stream && c->fd >= 0 && c->phase == XD_PHASE_HEADER &&
		    (!best || c->idle_since_us < best->idle_since_us))
			best = c;
	if (!best)
		return false;
	cut(g, best);
	g->evicted++;
	return true;
}

bool xd_guard_accept(struct xd_guard *g, const struct sockaddr *sa)
{
	char addr[64];
	xd_addr_key(sa, addr, sizeof addr);
	if (addr[0] && xd_trust_has(g->lim.trust, sa))
		addr[0] = 0;   /* a proxy holds many clients' connections */
	pthread_mutex_lock(&g->mu);
	bool ok = true;
	if (addr[0] && g->lim.max_conns_per_addr > 0) {
		struct addr_count *a = addr_find(g, addr, false);
		ok = !a || a->conns < g->lim.max_conns_per_addr;
	}
	if (ok && g->n_conns - g->n_cut >= g->lim.max_conns)
		ok = evict_idlest(g);
	pthread_mutex_unlock(&g->mu);
	if (!ok)
		g->refused++;
	return ok;
}

void xd_guard_open(struct xd_guard *g, struct MHD_Connection *conn, void **ctx)
{
	struct xd_conn *c = xcalloc(1, sizeof *c);
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	c->g = g;
	c->fd = ci ? ci->connect_fd : -1;
	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = ci ? ci->client_addr : NULL;
	xd_addr_key(sa, c->addr, sizeof c->addr);
	if (xd_trust_has(g->lim.trust, sa))
		c->addr[0] = 0;
	c->phase = XD_PHASE_HEADER;
	c->idle_since_us = util_now_us();
	c->deadline_us = c->idle_since_us + (int64_t)g->lim.header_timeout_s * 1000000;
	pthread_mutex_lock(&g->mu);
	c->next = g->conns;
	if (g->conns)
		g->conns->prev = c;
	g->conns = c;
	g->n_conns++;
	/* connections accepted at once may all have passed xd_guard_accept
	 * before any was counted here: what is over a cap now is closed */
	struct addr_count *a = c->addr[0] ? addr_find(g, c->addr, true) : NULL;
	if (a && ++a->conns > g->lim.max_conns_per_addr && g->lim.max_conns_per_addr > 0 && c->fd >= 0) {
		cut(g, c);
		g->refused++;
	} else if (g->n_conns - g->n_cut > g->lim.max_conns && !evict_idlest(g) && c->fd >= 0) {
		cut(g, c);
		g->refused++;
	}
	pthread_mutex_unlock(&g->mu);
	*ctx = c;
}

void xd_guard_close(struct xd_guard *g, void **ctx)
{
	struct xd_conn *c = *ctx;
	if (!c)
		return;
	pthread_mutex_lock(&g->mu);
	if (c->prev)
		c->prev->next = c->next;
	else
		g->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	if (c->stream)
		g->n_streams--;
	else
		g->n_conns--;
	if (c->cut && !c->stream)
		g->n_cut--;
	if (c->addr[0]) {
		struct addr_count *a = addr_find(g, c->addr, false);
		if (a) {
			if (c->stream)
				a->streams--;
			else
				a->conns--;
			addr_release(g, c->addr);
		}
	}
	if (g->n_conns + g->n_streams == 0)
		g->quiet_since_us = util_now_us();
	pthread_mutex_unlock(&g->mu);
	free(c);
	*ctx = NULL;
}

static struct xd_conn *conn_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci ? ci->socket_context : NULL;
}

void xd_conn_phase(struct MHD_Connection *conn, enum xd_phase p)
{
	struct xd_conn *c = conn_of(conn);
	if (!c)
		return;
	struct xd_guard *g = c->g;
	int64_t now = util_now_us();
	pthread_mutex_lock(&g->mu);
	if (!c->stream) {
		c->phase = p;
		if (p == XD_PHASE_HEADER)
			c->idle_since_us = now;
		c->deadline_us = p == XD_PHASE_HEADER ? now + (int64_t)g->lim.header_timeout_s * 1000000
		               : p == XD_PHASE_BODY ? now + (int64_t)g->lim.body_timeout_s * 1000000
		               : 0;
	}
	pthread_mutex_unlock(&g->mu);
}

int xd_conn_stream(struct MHD_Connection *conn)
{
	struct xd_conn *c = conn_of(conn);
	if (!c)
		return -1;
	struct xd_guard *g = c->g;
	int rc = 0;
	pthread_mutex_lock(&g->mu);
	struct addr_count *a = c->addr[0] ? addr_find(g, c->addr, false) : NULL;
	if (c->stream) {
		rc = 0;
	} else if (g->n_streams >= g->lim.max_streams ||
	           (a && g->lim.max_streams_per_addr > 0 && a->streams >= g->lim.max_streams_per_addr)) {
		rc = -1;
	} else {
		if (c->cut)
			g->n_cut--;   /* counted with the streams from here */
		c->stream = true;
		c->phase = XD_PHASE_STREAM;
		c->deadline_us = 0;
		g->n_conns--;
		g->n_streams++;
		if (a) {
			a->conns--;
			a->streams++;
		}
	}
	pthread_mutex_unlock(&g->mu);
	/* a stream may be quiet for long: no inactivity timeout either (the
	 * handler calls this on the connection's own thread, as libmicrohttpd
	 * requires); a dead peer shows when a write fails */
	if (rc == 0)
		MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT, 0u);
	return rc;
}

/* ---- the sweeper --------------------------------------------------------------------- */

static void *sweeper_main(void *arg)
{
	struct xd_guard *g = arg;
	pthread_mutex_lock(&g->mu);
	while (!g->stopping) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 200 * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&g->cv, &g->mu, &ts);
		int64_t now = util_now_us();
		for (struct xd_conn *c = g->conns; c; c = c->next) {
			if (c->cut || c->deadline_us == 0 || now < c->deadline_us || c->fd < 0)
				continue;
			if (c->phase == XD_PHASE_BODY)
				g->cut_body++;
			else
				g->cut_header++;
			cut(g, c);
		}
	}
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

struct xd_guard *xd_guard_new(const struct xd_limits *l)
{
	struct xd_guard *g = xcalloc(1, sizeof *g);
	g->lim = *l;
	g->quiet_since_us = util_now_us();
	pthread_mutex_init(&g->mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&g->cv, &ca);
	pthread_condattr_destroy(&ca);
	g->running = pthread_create(&g->sweeper, NULL, sweeper_main, g) == 0;
	return g;
}

void xd_guard_free(struct xd_guard **gp)
{
	struct xd_guard *g = *gp;
	if (!g)
		return;
	pthread_mutex_lock(&g->mu);
	g->stopping = true;
	pthread_cond_signal(&g->cv);
	pthread_mutex_unlock(&g->mu);
	if (g->running)
		pthread_join(g->sweeper, NULL);
	for (size_t i = 0; i < ADDR_BUCKETS; i++) {
		while (g->by_addr[i]) {
			struct addr_count *a = g->by_addr[i];
			g->by_addr[i] = a->next;
			free(a);
		}
	}
	while (g->conns) {   /* the daemon is stopped: whatever is left is ours */
		struct xd_conn *c = g->conns;
		g->conns = c->next;
		free(c);
	}
	pthread_cond_destroy(&g->cv);
	pthread_mutex_destroy(&g->mu);
	free(g);
	*gp = NULL;
}

void xd_guard_stats(struct xd_guard *g, uint64_t *refused, uint64_t *cut_header, uint64_t *cut_body,
                    uint64_t *evicted)
{
	*evicted = g->evicted;
	*refused = g->refused;
	*cut_header = g->cut_header;
	*cut_body = g->cut_body;
}

int64_t xd_guard_idle_us(struct xd_guard *g)
{
	pthread_mutex_lock(&g->mu);
	int64_t v = g->n_conns + g->n_streams > 0 ? 0 : util_now_us() - g->quiet_since_us;
	pthread_mutex_unlock(&g->mu);
	return v;
}

/* ---- log fields ------------------------------------------------------------------------ */

char *xd_log_field(const char *s, size_t max)
{
	struct buf b = { 0 };
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = 0;
	while (*p && n < max) {
		unsigned c = *p;
		size_t len = 1;
		if (c >= 0x80) {
			/* keep well-formed UTF-8, escape every other byte */
			size_t want = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
			size_t k = 1;
			while (want && k < want && (p[k] & 0xC0) == 0x80)
				k++;
			if (want && k == want && xd_utf8_valid((const char *)p, want)) {
				buf_append(&b, (const char *)p, want);
				len = want;
			} else {
				buf_printf(&b, "\\x%02x", c);
			}
		} else if (c < 0x20 || c == 0x7f) {
			buf_printf(&b, "\\x%02x", c);
		} else if (c == '\\') {
			buf_puts(&b, "\\\\");
		} else {
			buf_append(&b, (const char *)p, 1);
		}
		p += len;
		n += len;
	}
	if (*p)
		buf_puts(&b, "...");
	if (!b.data)
		buf_puts(&b, "");
	return buf_take(&b);
}

/* ---- the strict reading of a request ------------------------------------------------- */

struct hdr_scan {
	int n_length, n_te, n_auth, n_host;
	const char *length, *te;
	const char *bad;              /* the first bad header's name, and why */
	const char *why;
	const char *last_key, *last_value;   /* the header before, for fold_before */
};

static bool has_ctl(const char *s, bool allow_tab)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++)
		if ((*p < 0x20 && !(allow_tab && *p == '\t')) || *p == 0x7f)
			return true;
	return false;
}

static bool is_tchar(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* RFC 9110 §5.1: a field name is a token, 1*tchar. */
static bool is_token(const char *s)
{
	if (!*s)
		return false;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (!is_tchar(*p))
			return false;
	return true;
}

/* Obs-fold (a header line continued on a line that starts with a space or
 * tab, RFC 9112 §5.2). libmicrohttpd 0.9.75 splits the header in place in
 * its read buffer — the colon and each line's CR and LF become NULs — and
 * keeps pointers into it; of a folded line it appends the text (without
 * the leading blanks) to the header's NAME and leaves the value, and the
 * folded line's bytes, where they were. So the fold shows as a name that
 * ran over its value, or as bytes other than the one or two NULs of a line
 * end between a value and the next header's name; after the last header,
 * as a space or tab starting the line after the value's line end (CRLF or
 * LF, told apart by how the request line ended: a request that mixes them
 * and whose body starts with a blank is refused too). Only bytes of the
 * header block are read. tests/exchange/test_strict.sh holds every fold
 * variant to a 400, so a libmicrohttpd that changes this layout fails
 * there. */
static bool fold_overrun(const char *key, const char *value)
{
	return value >= key && value <= key + strlen(key);
}

static bool fold_before(const char *value, const char *next_key)
{
	const char *e = value + strlen(value);   /* the NUL where CR or LF was */
	return next_key < e + 1 || next_key > e + 2 || (next_key == e + 2 && e[1] != 0);
}

static bool fold_last(const char *value, bool crlf)
{
	const char *e = value + strlen(value);
	if (e[1] == ' ' || e[1] == '\t')
		return true;
	return crlf && e[1] == 0 && (e[2] == ' ' || e[2] == '\t');
}

static enum MHD_Result scan_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	struct hdr_scan *h = cls;
	(void)kind;
	if (!key)
		return MHD_YES;
	if (!h->bad) {
		if (!is_token(key))
			h->bad = key, h->why = "name";
		else if (has_ctl(value, true))
			h->bad = key, h->why = "ctl";
		else if (value && fold_overrun(key, value))
			h->bad = key, h->why = "fold";
		else if (h->last_value && fold_before(h->last_value, key))
			h->bad = h->last_key, h->why = "fold";
	}
	h->last_key = key;
	h->last_value = value;
	if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
		h->n_length++;
		h->length = value;
	} else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
		h->n_te++;
		h->te = value;
	} else if (strcasecmp(key, MHD_HTTP_HEADER_AUTHORIZATION) == 0) {
		h->n_auth++;
	} else if (strcasecmp(key, MHD_HTTP_HEADER_HOST) == 0) {
		h->n_host++;
	}
	return MHD_YES;
}

struct arg_scan {
	const char *novalue, *bad, *toolong;
};

static enum MHD_Result scan_arg(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	struct arg_scan *a = cls;
	(void)kind;
	if (!key)
		return MHD_YES;
	if (!value) {
		if (!a->novalue)
			a->novalue = key;
	} else if (has_ctl(value, false) || has_ctl(key, false)) {
		if (!a->bad)
			a->bad = key;
	} else if (strlen(value) > XD_QUERY_VALUE_MAX ||
	           (strcmp(key, "client_order_id") == 0 && strlen(value) > XD_COID_MAX)) {
		if (!a->toolong)
			a->toolong = key;
	}
	return MHD_YES;
}

/* %00..%1f or %7f at p? */
static bool pct_ctl(const char *p)
{
	if (p[0] != '%' || !p[1] || !p[2])
		return false;
	int hi = p[1] >= '0' && p[1] <= '9' ? p[1] - '0' : (p[1] | 32) >= 'a' && (p[1] | 32) <= 'f' ? (p[1] | 32) - 'a' + 10 : -1;
	int lo = p[2] >= '0' && p[2] <= '9' ? p[2] - '0' : (p[2] | 32) >= 'a' && (p[2] | 32) <= 'f' ? (p[2] | 32) - 'a' + 10 : -1;
	if (hi < 0 || lo < 0)
		return false;
	int v = hi * 16 + lo;
	return v < 0x20 || v == 0x7f;
}

static int check_line(const char *method, const char *raw, struct xd_reply *r)
{
	for (const unsigned char *p = (const unsigned char *)method; *p; p++) {
		if (!is_tchar(*p)) {
			xd_reply_error(r, 400, "BAD_REQUEST_LINE",
			               "the request method may only hold letters, digits and !#$%%&'*+-.^_`|~");
			return -1;
		}
	}
	for (const unsigned char *p = (const unsigned char *)raw; *p; p++) {
		if (*p <= 0x20 || *p >= 0x7f) {
			xd_reply_error(r, 400, "BAD_REQUEST_LINE",
			               "the request target holds a control, space or non-ASCII byte; "
			               "percent-encode it");
			return -1;
		}
	}
	const char *q = strchr(raw, '?');
	for (const char *p = raw; *p && (!q || p < q); p++) {
		if (pct_ctl(p)) {
			xd_reply_error(r, 400, "BAD_PATH", "the path holds an encoded control character (%.3s)", p);
			return -1;
		}
	}
	for (const char *p = q; p && *p; p++) {
		if (pct_ctl(p)) {
			xd_reply_error(r, 400, "BAD_PARAM",
			               "a query parameter holds an encoded control character (%.3s)", p);
			return -1;
		}
	}
	return 0;
}

/* version points at the request line's version in libmicrohttpd's buffer. */
static int check_headers(struct MHD_Connection *conn, const char *version, struct xd_reply *r)
{
	struct hdr_scan h = { 0 };
	MHD_get_connection_values(conn, MHD_HEADER_KIND, scan_header, &h);
	bool crlf = version && version[strlen(version) + 1] == 0;
	if (!h.bad && h.last_value && fold_last(h.last_value, crlf))
		h.bad = h.last_key, h.why = "fold";
	const char *dup = h.n_length > 1 ? "Content-Length" : h.n_te > 1 ? "Transfer-Encoding"
	                : h.n_auth > 1 ? "Authorization" : h.n_host > 1 ? "Host" : NULL;
	if (h.bad) {
		char *name = xd_log_field(h.bad, 64);
		cJSON *e = xd_reply_error(r, 400, "BAD_HEADER",
		    strcmp(h.why, "name") == 0 ? "header name \"%s\" is not a token (no spaces before the "
		                                 "colon; letters, digits and !#$%%&'*+-.^_`|~ only)"
		    : strcmp(h.why, "fold") == 0 ? "header %s is folded over two lines (obs-fold); "
		                                   "send it on one line"
		    : "header %s holds a control character", name);
		cJSON_AddStringToObject(e, "header", name);
		free(name);
		return -1;
	}
	if (dup) {
		cJSON *e = xd_reply_error(r, 400, "DUPLICATE_HEADER", "header %s is given more than once", dup);
		cJSON_AddStringToObject(e, "header", dup);
		return -1;
	}
	if (h.n_length && h.n_te) {
		xd_reply_error(r, 400, "CONFLICTING_HEADERS",
		               "Content-Length and Transfer-Encoding together; send one of them");
		return -1;
	}
	if (h.n_te && strcasecmp(h.te, "chunked") != 0) {
		cJSON *e = xd_reply_error(r, 400, "BAD_HEADER", "Transfer-Encoding may only be chunked");
		cJSON_AddStringToObject(e, "header", "Transfer-Encoding");
		return -1;
	}
	if (h.n_length) {
		const char *p = h.length;
		uint64_t v = 0;
		bool big = false;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (v > (uint64_t)XD_BODY_MAX)
				big = true;
			else
				v = v * 10 + (uint64_t)(*p - '0');
		}
		if (p == h.length || *p) {
			cJSON *e = xd_reply_error(r, 400, "BAD_HEADER", "Content-Length must be a number of bytes");
			cJSON_AddStringToObject(e, "header", "Content-Length");
			return -1;
		}
		if (big || v > XD_BODY_MAX) {
			cJSON *e = xd_reply_error(r, 413, "BODY_TOO_LARGE",
			                          "the request body is larger than %d bytes", XD_BODY_MAX);
			xd_jint(e, "max", XD_BODY_MAX);
			return -1;
		}
	}
	return 0;
}

static int check_args(struct MHD_Connection *conn, struct xd_reply *r)
{
	struct arg_scan a = { 0 };
	MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, scan_arg, &a);
	const char *k = a.novalue ? a.novalue : a.bad ? a.bad : a.toolong;
	if (!k)
		return 0;
	char *name = xd_log_field(k, 64);
	cJSON *e;
	if (a.novalue)
		e = xd_reply_error(r, 400, "BAD_PARAM", "query parameter \"%s\" has no value; write %s=VALUE",
		                   name, name);
	else if (a.bad)
		e = xd_reply_error(r, 400, "BAD_PARAM", "query parameter \"%s\" holds a control character", name);
	else
		e = xd_reply_error(r, 400, "BAD_PARAM", "query parameter \"%s\" is too long", name);
	cJSON_AddStringToObject(e, "field", name);
	free(name);
	return -1;
}

int xd_strict_request(struct MHD_Connection *conn, const char *method, const char *version,
                      const char *raw_uri, struct xd_reply *r)
{
	if (check_line(method, raw_uri ? raw_uri : "", r) != 0 || check_headers(conn, version, r) != 0)
		return -1;
	if (version && strcmp(version, MHD_HTTP_VERSION_1_1) == 0 &&
	    !MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST)) {
		cJSON *e = xd_reply_error(r, 400, "BAD_HEADER", "an HTTP/1.1 request needs a Host header");
		cJSON_AddStringToObject(e, "header", "Host");
		return -1;
	}
	return check_args(conn, r);
}
