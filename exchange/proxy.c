/*
 * exchange/proxy.c — who the client is: the key its limits are counted
 * under, the trusted proxies (--trusted-proxy CIDR…) and what they say about
 * the client (the PROXY protocol, v1 and v2, and X-Forwarded-For), and the
 * front door that accepts TCP connections itself when proxies are trusted.
 *
 * Keys. A client's caps and rate limits are counted per IPv4 address and per
 * IPv6 /64 (one host is commonly given a whole /64, so a /128 would let it
 * pick a new address per connection); an IPv4-mapped IPv6 address is its
 * IPv4 address.
 *
 * Trusted proxies. A connection whose peer is in a trusted range may start
 * with a PROXY protocol header (HAProxy's "send-proxy"/"send-proxy-v2",
 * nginx's "proxy_protocol on" in a stream block): the front door reads it,
 * and hands the connection to libmicrohttpd with the address it names, so
 * every cap, deadline and limit counts the real client. One without a PROXY
 * header is an HTTP proxy (nginx's proxy_pass): its connections are
 * exempt from the per-address connection cap (one balancer holds many
 * clients' connections), and the rate limits use the rightmost address of
 * X-Forwarded-For that is not itself a trusted proxy. A PROXY header from an
 * untrusted peer is not read: libmicrohttpd sees it as a malformed request
 * line and closes the connection.
 *
 * The front door is one thread with an epoll set: the listening socket, and
 * the trusted connections whose PROXY header has not arrived yet (each with
 * the header deadline; a peer that sends nothing within it is closed). The
 * header is read with MSG_PEEK until complete and then consumed exactly, so
 * the request bytes behind it stay in the socket for libmicrohttpd.
 */
#include "exchange/xd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "util/util.h"

/* ---- keys -------------------------------------------------------------------------- */

static bool v4_mapped(const struct in6_addr *a)
{
	static const unsigned char prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	return memcmp(a->s6_addr, prefix, 12) == 0;
}

void xd_addr_key(const struct sockaddr *sa, char *out, size_t size)
{
	out[0] = 0;
	if (!sa || size < INET6_ADDRSTRLEN + 4)
		return;
	if (sa->sa_family == AF_INET) {
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out, (socklen_t)size);
	} else if (sa->sa_family == AF_INET6) {
		const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
		if (v4_mapped(a)) {
			inet_ntop(AF_INET, a->s6_addr + 12, out, (socklen_t)size);
			return;
		}
		struct in6_addr net = { 0 };
		memcpy(net.s6_addr, a->s6_addr, 8);
		inet_ntop(AF_INET6, &net, out, (socklen_t)size);
		strcat(out, "/64");
	}
}

/* ---- trusted ranges -------------------------------------------------------------- */

struct xd_cidr {
	int family;                   /* AF_INET or AF_INET6 */
	unsigned char net[16];
	int bits;
};

struct xd_trust {
	struct xd_cidr *v;
	size_t n;
};

static int parse_ip(const char *s, int *family, unsigned char out[16])
{
	if (inet_pton(AF_INET, s, out) == 1) {
		*family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, out) == 1) {
		*family = AF_INET6;
		return 0;
	}
	return -1;
}

int xd_trust_add(struct xd_trust **tp, const char *spec, char **cause)
{
	char ip[INET6_ADDRSTRLEN + 1];
	const char *slash = strchr(spec, '/');
	size_t n = slash ? (size_t)(slash - spec) : strlen(spec);
	struct xd_cidr c = { 0 };
	if (n == 0 || n >= sizeof ip)
		return set_cause(cause, "--trusted-proxy %s: expected an address or CIDR range "
		                 "(10.0.0.0/8, 2001:db8::/32, 192.0.2.7)", spec);
	memcpy(ip, spec, n);
	ip[n] = 0;
	if (parse_ip(ip, &c.family, c.net) != 0)
		return set_cause(cause, "--trusted-proxy %s: %s is not an IPv4 or IPv6 address", spec, ip);
	int max = c.family == AF_INET ? 32 : 128;
	c.bits = max;
	if (slash) {
		char *end;
		long b = strtol(slash + 1, &end, 10);
		if (!slash[1] || *end || b < 0 || b > max)
			return set_cause(cause, "--trusted-proxy %s: the prefix length must be 0..%d", spec, max);
		c.bits = (int)b;
	}
	struct xd_trust *t = *tp ? *tp : xcalloc(1, sizeof *t);
	t->v = xrealloc(t->v, (t->n + 1) * sizeof *t->v);
	t->v[t->n++] = c;
	*tp = t;
	return 0;
}

void xd_trust_free(struct xd_trust **tp)
{
	if (!*tp)
		return;
	free((*tp)->v);
	free(*tp);
	*tp = NULL;
}

static bool prefix_eq(const unsigned char *a, const unsigned char *b, int bits)
{
	int bytes = bits / 8, rest = bits % 8;
	if (memcmp(a, b, (size_t)bytes) != 0)
		return false;
	if (!rest)
		return true;
	unsigned char mask = (unsigned char)(0xff << (8 - rest));
	return (a[bytes] & mask) == (b[bytes] & mask);
}

static bool trust_raw(const struct xd_trust *t, int family, const unsigned char *a)
{
	unsigned char v4[4];
	if (family == AF_INET6 && v4_mapped((const struct in6_addr *)(const void *)a)) {
		memcpy(v4, a + 12, 4);
		family = AF_INET;
		a = v4;
	}
	for (size_t i = 0; t && i < t->n; i++)
		if (t->v[i].family == family && prefix_eq(t->v[i].net, a, t->v[i].bits))
			return true;
	return false;
}

bool xd_trust_has(const struct xd_trust *t, const struct sockaddr *sa)
{
	if (!t || !sa)
		return false;
	if (sa->sa_family == AF_INET)
		return trust_raw(t, AF_INET, (const unsigned char *)&((const struct sockaddr_in *)sa)->sin_addr);
	if (sa->sa_family == AF_INET6)
		return trust_raw(t, AF_INET6, ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr);
	return false;
}

/* ---- X-Forwarded-For ------------------------------------------------------------- */

int xd_xff_client(const struct xd_trust *t, const char *xff, struct sockaddr_storage *out)
{
	/* hops are appended on the right: walk from there, past the trusted ones */
	const char *end = xff + strlen(xff);
	while (end > xff) {
		const char *start = end;
		while (start > xff && start[-1] != ',')
			start--;
		const char *a = start, *b = end;
		while (a < b && (*a == ' ' || *a == '\t'))
			a++;
		while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		char ip[INET6_ADDRSTRLEN + 1];
		size_t n = (size_t)(b - a);
		/* "[2001:db8::1]" and "[2001:db8::1]:443" (RFC 7239 style) */
		if (n > 2 && a[0] == '[') {
			const char *close = memchr(a, ']', n);
			if (close) {
				a++;
				n = (size_t)(close - a);
			}
		} else if (n && memchr(a, '.', n) && memchr(a, ':', n)) {
			n = (size_t)((const char *)memchr(a, ':', n) - a);   /* "192.0.2.1:5678" */
		}
		int family;
		unsigned char raw[16];
		if (n == 0 || n >= sizeof ip)
			return -1;
		memcpy(ip, a, n);
		ip[n] = 0;
		if (parse_ip(ip, &family, raw) != 0)
			return -1;
		if (!trust_raw(t, family, raw) || start == xff) {
			memset(out, 0, sizeof *out);
			if (family == AF_INET) {
				struct sockaddr_in *s4 = (struct sockaddr_in *)out;
				s4->sin_family = AF_INET;
				memcpy(&s4->sin_addr, raw, 4);
			} else {
				struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)out;
				s6->sin6_family = AF_INET6;
				memcpy(s6->sin6_addr.s6_addr, raw, 16);
			}
			return 0;
		}
		end = start > xff ? start - 1 : xff;
	}
	return -1;
}

/* ---- the PROXY protocol ---------------------------------------------------------- */

static const unsigned char v2_sig[12] = { 0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51,
                                          0x55, 0x49, 0x54, 0x0a };

static int set_addr(struct sockaddr_storage *out, int family, const void *ip, uint16_t port_be)
{
	memset(out, 0, sizeof *out);
	if (family == AF_INET) {
		struct sockaddr_in *s4 = (struct sockaddr_in *)out;
		s4->sin_family = AF_INET;
		memcpy(&s4->sin_addr, ip, 4);
		s4->sin_port = port_be;
	} else {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)out;
		s6->sin6_family = AF_INET6;
		memcpy(s6->sin6_addr.s6_addr, ip, 16);
		s6->sin6_port = port_be;
	}
	return 0;
}

/* "PROXY TCP4 192.0.2.1 198.51.100.1 56324 443\r\n" (at most 107 bytes). */
static int parse_v1(const char *p, size_t len, size_t *used, struct sockaddr_storage *out)
{
	const char *crlf = NULL;
	for (size_t i = 0; i + 1 < len && i < 107; i++)
		if (p[i] == '\r' && p[i + 1] == '\n') {
			crlf = p + i;
			break;
		}
	if (!crlf)
		return len >= 107 ? XD_PROXY_BAD : XD_PROXY_MORE;
	char line[108];
	size_t n = (size_t)(crlf - p);
	memcpy(line, p, n);
	line[n] = 0;
	*used = n + 2;
	char proto[8], src[48], dst[48];
	unsigned sport, dport;
	char extra;
	if (strcmp(line, "PROXY UNKNOWN") == 0 || strncmp(line, "PROXY UNKNOWN ", 14) == 0)
		return XD_PROXY_LOCAL;
	if (sscanf(line, "PROXY %7s %47s %47s %5u %5u%c", proto, src, dst, &sport, &dport, &extra) != 5 ||
	    sport > 65535 || dport > 65535)
		return XD_PROXY_BAD;
	unsigned char raw[16], raw_dst[16];
	int family = strcmp(proto, "TCP4") == 0 ? AF_INET : strcmp(proto, "TCP6") == 0 ? AF_INET6 : 0;
	if (!family || inet_pton(family, src, raw) != 1 || inet_pton(family, dst, raw_dst) != 1)
		return XD_PROXY_BAD;
	set_addr(out, family, raw, htons((uint16_t)sport));
	return XD_PROXY_ADDR;
}

static int parse_v2(const unsigned char *p, size_t len, size_t *used, struct sockaddr_storage *out)
{
	if (len < 16)
		return XD_PROXY_MORE;
	size_t body = (size_t)p[14] << 8 | p[15];
	if (16 + body > XD_PROXY_MAX)
		return XD_PROXY_BAD;
	if (len < 16 + body)
		return XD_PROXY_MORE;
	*used = 16 + body;
	int version = p[12] >> 4, command = p[12] & 0x0f, fam = p[13] >> 4, proto = p[13] & 0x0f;
	if (version != 2 || command > 1)
		return XD_PROXY_BAD;
	if (command == 0)
		return XD_PROXY_LOCAL;   /* the proxy's own health check */
	if (proto != 1)              /* not a stream: nothing to speak HTTP on */
		return fam == 0 ? XD_PROXY_LOCAL : XD_PROXY_BAD;
	const unsigned char *a = p + 16;
	if (fam == 1 && body >= 12) {
		uint16_t port;
		memcpy(&port, a + 8, 2);
		set_addr(out, AF_INET, a, port);
		return XD_PROXY_ADDR;
	}
	if (fam == 2 && body >= 36) {
		uint16_t port;
		memcpy(&port, a + 32, 2);
		set_addr(out, AF_INET6, a, port);
		return XD_PROXY_ADDR;
	}
	return fam == 0 ? XD_PROXY_LOCAL : XD_PROXY_BAD;
}

int xd_proxy_parse(const void *data, size_t len, size_t *used, struct sockaddr_storage *out)
{
	const unsigned char *p = data;
	*used = 0;
	size_t k = len < 12 ? len : 12;
	if (memcmp(p, v2_sig, k) == 0)
		return k < 12 ? XD_PROXY_MORE : parse_v2(p, len, used, out);
	k = len < 6 ? len : 6;
	if (memcmp(p, "PROXY ", k) == 0)
		return k < 6 ? XD_PROXY_MORE : parse_v1(data, len, used, out);
	return XD_PROXY_NONE;
}

/* ---- the front door ---------------------------------------------------------------- */

struct pending {
	struct pending *next;
	int fd;
	int64_t deadline_us;
	struct sockaddr_storage peer;
	socklen_t peer_len;
};

struct xd_door {
	int listen_fd, ep;
	const struct xd_trust *trust;
	int header_timeout_s;
	struct MHD_Daemon *d;
	pthread_t thread;
	bool running;
	_Atomic bool stopping;
	struct pending *pending;
	_Atomic uint64_t bad_headers;
};

static void hand_over(struct xd_door *dr, int fd, const struct sockaddr *sa, socklen_t len)
{
	/* libmicrohttpd runs its accept policy (the guard's caps) on it, and
	 * closes it if refused */
	if (MHD_add_connection(dr->d, fd, sa, len) != MHD_YES && errno != ECONNABORTED)
		close(fd);
}

static void accept_all(struct xd_door *dr)
{
	for (;;) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof ss;
		int fd = accept4(dr->listen_fd, (struct sockaddr *)&ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;   /* EAGAIN, or out of descriptors: the backlog keeps them */
		if (!xd_trust_has(dr->trust, (struct sockaddr *)&ss)) {
			hand_over(dr, fd, (struct sockaddr *)&ss, sl);
			continue;
		}
		struct pending *p = xcalloc(1, sizeof *p);
		p->fd = fd;
		p->peer = ss;
		p->peer_len = sl;
		p->deadline_us = util_now_us() + (int64_t)dr->header_timeout_s * 1000000;
		p->next = dr->pending;
		dr->pending = p;
		struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP, .data.ptr = p };
		if (epoll_ctl(dr->ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
			dr->pending = p->next;
			close(fd);
			free(p);
		}
	}
}

static void unlink_pending(struct xd_door *dr, struct pending *p)
{
	for (struct pending **pp = &dr->pending; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	epoll_ctl(dr->ep, EPOLL_CTL_DEL, p->fd, NULL);
}

/* A trusted peer's connection has bytes: a PROXY header (read it, hand the
 * connection over under the address it names), or a request (hand it over
 * as it is). */
static void read_header(struct xd_door *dr, struct pending *p)
{
	unsigned char buf[XD_PROXY_MAX];
	ssize_t n = recv(p->fd, buf, sizeof buf, MSG_PEEK);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	struct sockaddr_storage real;
	size_t used = 0;
	int rc = n > 0 ? xd_proxy_parse(buf, (size_t)n, &used, &real) : XD_PROXY_BAD;
	if (rc == XD_PROXY_MORE)
		return;
	unlink_pending(dr, p);
	if (rc == XD_PROXY_ADDR || rc == XD_PROXY_LOCAL) {
		ssize_t k = recv(p->fd, buf, used, 0);   /* consumed exactly: the request stays */
		if (k != (ssize_t)used)
			rc = XD_PROXY_BAD;
	}
	if (rc == XD_PROXY_BAD) {
		dr->bad_headers++;
		close(p->fd);
	} else if (rc == XD_PROXY_ADDR) {
		hand_over(dr, p->fd, (struct sockaddr *)&real,
		          real.ss_family == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6));
	} else {
		hand_over(dr, p->fd, (struct sockaddr *)&p->peer, p->peer_len);
	}
	free(p);
}

static void sweep_pending(struct xd_door *dr)
{
	int64_t now = util_now_us();
	struct pending **pp = &dr->pending;
	while (*pp) {
		struct pending *p = *pp;
		if (now < p->deadline_us) {
			pp = &p->next;
			continue;
		}
		*pp = p->next;
		epoll_ctl(dr->ep, EPOLL_CTL_DEL, p->fd, NULL);
		close(p->fd);
		free(p);
	}
}

/* Stops within 200 ms of xd_door_stop. */
static void *door_main(void *arg)
{
	struct xd_door *dr = arg;
	while (!dr->stopping) {
		struct epoll_event ev[64];
		int n = epoll_wait(dr->ep, ev, 64, 200);
		for (int i = 0; i < n; i++) {
			if (ev[i].data.ptr == &dr->listen_fd)
				accept_all(dr);
			else
				read_header(dr, ev[i].data.ptr);
		}
		sweep_pending(dr);
	}
	return NULL;
}

int xd_door_start(int listen_fd, const struct xd_trust *trust, int header_timeout_s,
                  struct MHD_Daemon *d, struct xd_door **out, char **cause)
{
	struct xd_door *dr = xcalloc(1, sizeof *dr);
	dr->listen_fd = listen_fd;
	dr->trust = trust;
	dr->header_timeout_s = header_timeout_s;
	dr->d = d;
	dr->ep = epoll_create1(EPOLL_CLOEXEC);
	if (dr->ep < 0) {
		int e = errno;
		free(dr);
		return set_cause(cause, "--trusted-proxy: %s", strerror(e));
	}
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &dr->listen_fd };
	if (epoll_ctl(dr->ep, EPOLL_CTL_ADD, listen_fd, &ev) != 0 ||
	    pthread_create(&dr->thread, NULL, door_main, dr) != 0) {
		int e = errno;
		close(dr->ep);
		free(dr);
		return set_cause(cause, "--trusted-proxy: %s", strerror(e));
	}
	dr->running = true;
	*out = dr;
	return 0;
}

void xd_door_stop(struct xd_door **dp)
{
	struct xd_door *dr = *dp;
	if (!dr)
		return;
	dr->stopping = true;
	if (dr->running)
		pthread_join(dr->thread, NULL);
	while (dr->pending) {
		struct pending *p = dr->pending;
		dr->pending = p->next;
		close(p->fd);
		free(p);
	}
	close(dr->ep);
	free(dr);
	*dp = NULL;
}
