/*
 * bench/loadgen.h — what the loopback benchmarks share: a gpuxd of their own
 * on a fresh database in a temporary directory, blocking set-up requests,
 * and a pool of keep-alive connections read by one epoll loop, each with at
 * most one request in flight.
 *
 * Everything fails loudly (fatal) rather than measuring something else.
 */
#ifndef GPUX_BENCH_LOADGEN_H
#define GPUX_BENCH_LOADGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/util.h"

extern const char lg_admin_key[];

/* A gpuxd started on 127.0.0.1 port 0 with --market open, no rate limits,
 * --quiet, its files in dir. */
struct lg_gpuxd {
	pid_t pid;
	int port;
	char *dir, *keyf, *portf, *db, *logf;
};

/* The gpuxd to run: `given` (--gpuxd), else $GPUXD, else ../gpuxd beside
 * the program (argv0). */
char *lg_gpuxd_path(const char *argv0, const char *given);
/* Start it with the extra arguments (NULL-terminated, or NULL); exits if it
 * does not come up. */
void lg_gpuxd_start(struct lg_gpuxd *g, const char *path, const char *const extra[]);
/* SIGTERM, wait; remove its files unless keep (then say where they are). */
void lg_gpuxd_stop(struct lg_gpuxd *g, bool keep);

/* Raise RLIMIT_NOFILE to its hard limit (at most 65536) for this program and
 * the gpuxd it forks; returns the limit. */
unsigned long lg_raise_nofile(void);
/* utime + stime of a process, in seconds. */
double lg_cpu_seconds(pid_t pid);
int lg_cmp_i64(const void *a, const void *b);

/* A blocking TCP connection to 127.0.0.1:port with TCP_NODELAY; from
 * 127.0.0.(2 + src % 10) when src >= 0 (per-address limits see ten
 * addresses), else from 127.0.0.1. */
int lg_connect(int port, int src);
/* One request on its own connection (Connection: close); the status, the
 * whole reply in *reply. */
int lg_http(int port, const char *method, const char *path, const char *key, const char *body,
            struct buf *reply);
/* The body of a reply lg_http read ("" if none). */
const char *lg_body(const struct buf *reply);
/* A top-level-looking field "name": string or digits, copied; NULL if absent. */
char *lg_json_field(const char *text, const char *name);
/* Open an account (its e-mail address made unique; sent again while gpuxd
 * answers 503); funded: a large deposit with the admin key. Returns its API
 * key. */
char *lg_account(int port, const char *role, bool funded);

/* ---- the pool -------------------------------------------------------------------- */

struct lg_conn {
	int fd;
	struct buf in;         /* what was read and not yet taken */
	bool busy;             /* a request is in flight */
	int64_t due_us;        /* the caller's: when its request was due */
	char etag[64];         /* the last reply's ETag ("" = none) */
};

struct lg_pool {
	struct lg_conn *c;
	long n;
	int ep;
	bool closed;           /* a connection was closed by the server */
};

/* Open n non-blocking connections (lg_connect with src = i when spread). */
void lg_pool_open(struct lg_pool *p, long n, int port, bool spread);
void lg_pool_close(struct lg_pool *p);
/* Write a whole request on connection i and mark it busy. */
void lg_send(struct lg_pool *p, long i, const char *req, size_t len);
/* Wait up to timeout_ms for input; read everything there is on each ready
 * connection into its `in`, then call on_read(p, i, now_us, arg). Returns
 * the number of connections read. */
int lg_pump(struct lg_pool *p, int timeout_ms,
            void (*on_read)(struct lg_pool *p, long i, int64_t now_us, void *arg), void *arg);
/* A complete reply (Content-Length framed) at the start of c->in? Takes it
 * out, keeps its ETag, clears busy; returns its status, 0 if incomplete. */
int lg_take_reply(struct lg_conn *c);

#endif
