/*
 * bench/loadgen.c — the loopback benchmarks' gpuxd, set-up requests and
 * connection pool (bench/loadgen.h).
 */
#include "bench/loadgen.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const char lg_admin_key[] = "bench-admin-key-0123456789abcdef";

/* ---- gpuxd ------------------------------------------------------------------------- */

char *lg_gpuxd_path(const char *argv0, const char *given)
{
	if (!given)
		given = getenv("GPUXD");
	if (given)
		return xstrdup(given);
	const char *slash = strrchr(argv0, '/');
	return slash ? xasprintf("%.*s/../gpuxd", (int)(slash - argv0), argv0) : xstrdup("../gpuxd");
}

void lg_gpuxd_start(struct lg_gpuxd *g, const char *path, const char *const extra[])
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	memset(g, 0, sizeof *g);
	g->dir = xasprintf("%s/gpuxbench.XXXXXX", tmp);
	if (!mkdtemp(g->dir))
		fatal("bench: mkdtemp %s: %s", g->dir, strerror(errno));
	g->keyf = xasprintf("%s/admin.key", g->dir);
	g->portf = xasprintf("%s/port", g->dir);
	g->db = xasprintf("%s/bench.db", g->dir);
	g->logf = xasprintf("%s/gpuxd.log", g->dir);
	FILE *f = fopen(g->keyf, "w");
	if (!f)
		fatal("bench: %s: %s", g->keyf, strerror(errno));
	fprintf(f, "%s\n", lg_admin_key);
	fclose(f);
	chmod(g->keyf, 0600);   /* gpuxd refuses a key file others can read */
	const char *argv[64] = { "gpuxd", "--listen", "127.0.0.1:0", "--port-file", g->portf,
	                         "--db", g->db, "--admin-key-file", g->keyf, "--market", "open",
	                         "--rate-limit", "0", "--ip-rate-limit", "0", "--signup-limit", "0",
	                         "--quiet" };
	size_t n = 18;
	for (size_t i = 0; extra && extra[i] && n < 63; i++)
		argv[n++] = extra[i];
	argv[n] = NULL;
	g->pid = fork();
	if (g->pid == 0) {
		int fd = open(g->logf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execv(path, (char *const *)argv);
		_exit(127);
	}
	for (int i = 0; i < 400 && !g->port; i++) {
		char *text;
		if (util_read_file(g->portf, &text, NULL, NULL) == 0) {
			g->port = atoi(text);
			free(text);
		}
		if (!g->port)
			usleep(25000);
	}
	if (!g->port) {
		kill(g->pid, SIGTERM);
		fatal("bench: %s did not start (log: %s)", path, g->logf);
	}
}

void lg_gpuxd_stop(struct lg_gpuxd *g, bool keep)
{
	if (g->pid > 0) {
		kill(g->pid, SIGTERM);
		waitpid(g->pid, NULL, 0);
	}
	if (keep) {
		printf("  kept %s\n", g->dir);
	} else {
		const char *const files[] = { g->keyf, g->portf, g->logf, g->db };
		for (size_t i = 0; i < 4; i++)
			unlink(files[i]);
		char *w = xasprintf("%s-wal", g->db), *s = xasprintf("%s-shm", g->db);
		unlink(w);
		unlink(s);
		free(w);
		free(s);
		rmdir(g->dir);
	}
	free(g->dir);
	free(g->keyf);
	free(g->portf);
	free(g->db);
	free(g->logf);
	memset(g, 0, sizeof *g);
}

/* ---- small things -------------------------------------------------------------------- */

unsigned long lg_raise_nofile(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max > 65536 ? 65536 : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	getrlimit(RLIMIT_NOFILE, &rl);
	return (unsigned long)rl.rlim_cur;
}

double lg_cpu_seconds(pid_t pid)
{
	char path[64], *text = NULL;
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if (util_read_file(path, &text, NULL, NULL) != 0)
		return 0;
	const char *p = strrchr(text, ')');
	unsigned long ut = 0, st = 0;
	/* after ") ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime */
	if (p)
		sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st);
	free(text);
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

int lg_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* ---- blocking requests ------------------------------------------------------------------ */

int lg_connect(int port, int src)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && src >= 0) {
		struct sockaddr_in from = { .sin_family = AF_INET };
		from.sin_addr.s_addr = htonl(0x7f000002u + (uint32_t)(src % 10));
		if (bind(fd, (struct sockaddr *)&from, sizeof from) != 0)
			fatal("bench: bind 127.0.0.%d: %s", 2 + src % 10, strerror(errno));
	}
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
		fatal("bench: connect to 127.0.0.1:%d: %s", port, strerror(errno));
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return fd;
}

int lg_http(int port, const char *method, const char *path, const char *key, const char *body,
            struct buf *reply)
{
	int fd = lg_connect(port, -1);
	struct buf req = { 0 };
	buf_printf(&req, "%s %s HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n", method, path);
	if (key)
		buf_printf(&req, "Authorization: Bearer %s\r\n", key);
	buf_printf(&req, "Content-Length: %zu\r\n\r\n%s", body ? strlen(body) : 0, body ? body : "");
	if (write(fd, req.data, req.len) != (ssize_t)req.len)
		fatal("bench: write: %s", strerror(errno));
	buf_free(&req);
	buf_reset(reply);
	char chunk[4096];
	ssize_t n;
	while ((n = read(fd, chunk, sizeof chunk)) > 0)
		buf_append(reply, chunk, (size_t)n);
	close(fd);
	if (reply->len < 12)
		fatal("bench: %s %s: no reply", method, path);
	return atoi(reply->data + 9);
}

const char *lg_body(const struct buf *reply)
{
	const char *b = reply->data ? strstr(reply->data, "\r\n\r\n") : NULL;
	return b ? b + 4 : "";
}

char *lg_json_field(const char *text, const char *name)
{
	char *pat = xasprintf("\"%s\":", name);
	const char *p = text ? strstr(text, pat) : NULL;
	free(pat);
	if (!p)
		return NULL;
	p = strchr(p, ':') + 1;
	if (*p == '"') {
		const char *e = strchr(p + 1, '"');
		return e ? xstrndup(p + 1, (size_t)(e - p - 1)) : NULL;
	}
	return xstrndup(p, strspn(p, "0123456789"));
}

char *lg_account(int port, const char *role, bool funded)
{
	static long serial;
	struct buf reply = { 0 };
	char *body = xasprintf("{\"email\":\"bench-%s-%d-%ld@example.com\",\"country\":\"US\","
	                       "\"currency\":\"USD\",\"role\":\"%s\"}", role, (int)getpid(),
	                       ++serial, role);
	int st = 0;
	for (int i = 0; i < 50 && (st = lg_http(port, "POST", "/v1/accounts", NULL, body, &reply)) == 503; i++)
		usleep(20000);   /* refused as overload (a stall): sent again */
	if (st != 201)
		fatal("bench: signup failed: %s", reply.data);
	free(body);
	char *key = lg_json_field(lg_body(&reply), "api_key");
	char *id = lg_json_field(lg_body(&reply), "id");
	if (!key || !id)
		fatal("bench: signup reply without a key or an id: %s", reply.data);
	if (funded) {
		char *dep = xasprintf("{\"account_id\":%s,\"amount_minor\":100000000000,"
		                      "\"reference\":\"bench-%s\"}", id, id);
		if (lg_http(port, "POST", "/v1/deposits", lg_admin_key, dep, &reply) != 201)
			fatal("bench: deposit failed: %s", reply.data);
		free(dep);
	}
	free(id);
	buf_free(&reply);
	return key;
}

/* ---- the pool ---------------------------------------------------------------------------- */

void lg_pool_open(struct lg_pool *p, long n, int port, bool spread)
{
	memset(p, 0, sizeof *p);
	p->c = xcalloc((size_t)n, sizeof *p->c);
	p->n = n;
	p->ep = epoll_create1(EPOLL_CLOEXEC);
	for (long i = 0; i < n; i++) {
		p->c[i].fd = lg_connect(port, spread ? (int)i : -1);
		fcntl(p->c[i].fd, F_SETFL, O_NONBLOCK);
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = (uint64_t)i };
		epoll_ctl(p->ep, EPOLL_CTL_ADD, p->c[i].fd, &ev);
	}
}

void lg_pool_close(struct lg_pool *p)
{
	for (long i = 0; i < p->n; i++) {
		close(p->c[i].fd);
		buf_free(&p->c[i].in);
	}
	close(p->ep);
	free(p->c);
	memset(p, 0, sizeof *p);
}

void lg_send(struct lg_pool *p, long i, const char *req, size_t len)
{
	ssize_t w = write(p->c[i].fd, req, len);
	if (w != (ssize_t)len)
		fatal("bench: short write (%zd of %zu): %s", w, len, strerror(errno));
	p->c[i].busy = true;
}

int lg_pump(struct lg_pool *p, int timeout_ms,
            void (*on_read)(struct lg_pool *p, long i, int64_t now_us, void *arg), void *arg)
{
	struct epoll_event evs[256];
	int k = epoll_wait(p->ep, evs, 256, timeout_ms);
	int64_t now = util_now_us();
	for (int e = 0; e < k; e++) {
		long i = (long)evs[e].data.u64;
		struct lg_conn *c = &p->c[i];
		char chunk[16384];
		ssize_t r;
		while ((r = read(c->fd, chunk, sizeof chunk)) > 0)
			buf_append(&c->in, chunk, (size_t)r);
		if (r == 0) {
			epoll_ctl(p->ep, EPOLL_CTL_DEL, c->fd, NULL);
			p->closed = true;
		}
		on_read(p, i, now, arg);
	}
	return k > 0 ? k : 0;
}

int lg_take_reply(struct lg_conn *c)
{
	if (!c->in.data)
		return 0;
	const char *end = memmem(c->in.data, c->in.len, "\r\n\r\n", 4);
	if (!end)
		return 0;
	size_t head = (size_t)(end - c->in.data) + 4, cl = 0;
	char etag[sizeof c->etag] = "";
	for (const char *p = c->in.data; p && p < end; p = memchr(p, '\n', (size_t)(end - p))) {
		if (*p == '\n')
			p++;
		if (strncasecmp(p, "Content-Length:", 15) == 0)
			cl = strtoul(p + 15, NULL, 10);
		else if (strncasecmp(p, "ETag: ", 6) == 0)
			snprintf(etag, sizeof etag, "%.*s", (int)strcspn(p + 6, "\r\n"), p + 6);
	}
	if (c->in.len < head + cl)
		return 0;
	int status = atoi(c->in.data + 9);
	if (etag[0])
		memcpy(c->etag, etag, sizeof etag);
	memmove(c->in.data, c->in.data + head + cl, c->in.len - head - cl);
	c->in.len -= head + cl;
	c->busy = false;
	return status > 0 ? status : -1;
}
