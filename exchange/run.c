/*
 * exchange/run.c — exchange_run(): load the tables, open the market (which
 * rebuilds the books from the database and starts the writer), start the
 * HTTP server, wait for SIGINT/SIGTERM (or, with an idle exit, for that long
 * without any connection), then shut down in the order that loses nothing:
 * stop accepting connections, let the writer answer every queued job and
 * commit, stop the HTTP daemons, close the database (which folds the WAL
 * into it), remove the pid file.
 *
 * The open-file limit is raised to its hard maximum at start, and the
 * connection caps are lowered, with a log line, to fit in it with room for
 * the database files, so gpuxd never runs out of descriptors (which would
 * lock every client out) before its caps refuse a connection.
 */
#include "exchange/xd.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

void exchange_config_defaults(struct exchange_config *c)
{
	memset(c, 0, sizeof *c);
	c->listen = "127.0.0.1:8420";
	c->db_path = "gpuxd.db";
	c->state = -1;
	c->opens_at_ms = -1;
	c->clock_speed = 1.0;
	c->seed = 1;
	c->rate_per_key = 100;
	c->rate_per_addr = 1000;
	c->threads = 2;
	c->max_conns = 1024;
	c->max_conns_per_addr = 128;
	c->max_streams = 2048;
	c->max_streams_per_addr = 512;
	c->header_timeout_s = 5;
	c->body_timeout_s = 5;
	c->signup_limit = 20;
	c->queue_wait_ms = XD_QUEUE_WAIT_MS;
	c->commit_deadline_ms = 5000;
}

#define FD_RESERVE 64   /* descriptors kept for the database, logs and listeners */

/* Raise RLIMIT_NOFILE to its hard limit and fit the caps in it. */
static void fit_limits(struct xd_limits *l, bool quiet)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur == RLIM_INFINITY)
		return;
	/* two listening sockets may each fill their caps */
	long room = ((long)rl.rlim_cur - FD_RESERVE) / 2;
	long want = (long)l->max_conns + l->max_streams;
	if (want <= room || room <= 0)
		return;
	int conns = (int)((long)l->max_conns * room / want), streams = (int)(room - conns);
	if (!quiet)
		fprintf(stderr, "gpuxd: the open-file limit is %ld: --max-connections %d -> %d, "
		        "--max-streams %d -> %d\n", (long)rl.rlim_cur, l->max_conns, conns,
		        l->max_streams, streams);
	l->max_conns = conns > 1 ? conns : 1;
	l->max_streams = streams > 1 ? streams : 1;
}

static int write_pid_file(const char *path, char **cause)
{
	char *tmp = xasprintf("%s.tmp%d", path, (int)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0 || rename(tmp, path) != 0) {
		int rc = set_cause(cause, "--pid-file %s: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return rc;
	}
	free(tmp);
	return 0;
}

/* Remove the pid file if it still names this process. */
static void remove_pid_file(const char *path)
{
	char *text = NULL, *cause = NULL;
	size_t len;
	if (util_read_file(path, &text, &len, &cause) == 0 && atoi(text) == (int)getpid())
		unlink(path);
	free(text);
	free(cause);
}

int exchange_topup_check(const char *url, const char *text, char **cause)
{
	if (url) {
		size_t n = strlen(url);
		bool scheme = strncmp(url, "https://", 8) == 0 || strncmp(url, "http://", 7) == 0;
		bool chars = n > 0;
		for (const char *p = url; *p && chars; p++)
			chars = *p > ' ' && *p < 0x7f && !strchr("\"'<>\\^`{|}", *p);
		if (!scheme || !chars || n > XD_TOPUP_URL_MAX || n <= (size_t)(url[4] == 's' ? 8 : 7))
			return set_cause(cause, "--topup-url: expected an http:// or https:// URL of at "
			                 "most %d characters, without spaces or quotes", XD_TOPUP_URL_MAX);
	}
	if (text) {
		size_t n = strlen(text);
		bool ok = n > 0 && n <= XD_TOPUP_TEXT_MAX && xd_utf8_valid(text, n);
		for (const unsigned char *p = (const unsigned char *)text; *p && ok; p++)
			ok = *p >= ' ' && *p != 0x7f && !(p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f);
		if (!ok)
			return set_cause(cause, "--topup-text: expected 1 to %d bytes of UTF-8 text on "
			                 "one line, without control characters", XD_TOPUP_TEXT_MAX);
	}
	return 0;
}

static int read_admin_key(const char *path, char **out, char **cause)
{
	char *text;
	size_t len;
	*out = NULL;
	if (!path)
		return 0;
	struct stat st;
	if (stat(path, &st) == 0 && (st.st_mode & 077) != 0)
		return set_cause(cause, "--admin-key-file %s: group or others can read it; run: chmod 600 %s",
		                 path, path);
	if (util_read_file(path, &text, &len, cause) != 0)
		return -1;
	size_t n = strcspn(text, "\r\n");
	text[n] = 0;
	if (n < 16 || strlen(text) != n) {
		explicit_bzero(text, len);
		free(text);
		return set_cause(cause, "--admin-key-file %s: the first line must be a key of at least "
		                 "16 characters", path);
	}
	*out = text;
	return 0;
}

/* Wait for SIGINT or SIGTERM, or idle_s seconds without any connection
 * (0: no idle exit); returns what ended it, for the log. */
static const char *wait_for_end(const sigset_t *set, struct xd_server *srv, int idle_s)
{
	for (;;) {
		struct timespec ts = { 1, 0 };
		int sig = idle_s > 0 ? sigtimedwait(set, NULL, &ts) : sigwaitinfo(set, NULL);
		if (sig == SIGINT)
			return "SIGINT";
		if (sig == SIGTERM)
			return "SIGTERM";
		if (idle_s > 0 && xd_server_idle_us(srv) >= (int64_t)idle_s * 1000000)
			return "idle";
	}
}

/* The database could not be reached at start (*cause says why): answer
 * 503 STORE_UNAVAILABLE (the server has no market yet) and try again every
 * second, as gpuxd(8) says, until it opens — then the market is handed to
 * the server (*m set, NULL returned) — or a signal ends the wait (its name
 * returned, *m NULL), or the database answers with an error that waiting
 * will not cure (NULL returned, *m NULL, *cause set). */
static const char *wait_for_store(const sigset_t *set, const struct xd_market_config *mc,
                                  struct xd_server *srv, struct xd_market **m, char **cause)
{
	fprintf(stderr, "gpuxd: %s; answering 503 STORE_UNAVAILABLE and trying again every "
	        "second\n", *cause ? *cause : "the database cannot be reached");
	char *last = *cause;
	*cause = NULL;
	for (;;) {
		struct timespec ts = { 1, 0 };
		int sig = sigtimedwait(set, NULL, &ts);
		if (sig == SIGINT || sig == SIGTERM) {
			free(last);
			return sig == SIGINT ? "SIGINT" : "SIGTERM";
		}
		int rc = xd_market_open(mc, m, cause);
		if (rc == 0) {
			xd_server_set_market(srv, *m);
			fprintf(stderr, "gpuxd: the database answers again: serving\n");
			free(last);
			return NULL;
		}
		if (rc == -1) {
			free(last);
			return NULL;
		}
		/* still unreachable: say it again only when the reason changes */
		if (!last || strcmp(last, *cause) != 0)
			fprintf(stderr, "gpuxd: %s; trying again every second\n", *cause);
		free(last);
		last = *cause;
		*cause = NULL;
	}
}

int exchange_run(const struct exchange_config *c, char **cause)
{
	struct xd_tables *t = NULL;
	struct xd_market *m = NULL;
	struct xd_server *srv = NULL;
	char *admin = NULL;
	struct xd_trust *trust = NULL;
	int rc = -1;

	/* signals are taken by sigwait below; every thread inherits the mask */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (exchange_topup_check(c->topup_url, c->topup_text, cause) != 0 ||
	    read_admin_key(c->admin_key_file, &admin, cause) != 0 ||
	    xd_tables_load(c->data_dir, &t, cause) != 0)
		goto out;
	for (int i = 0; i < c->n_trusted_proxies; i++)
		if (xd_trust_add(&trust, c->trusted_proxies[i], cause) != 0)
			goto out;
	struct xd_server_config sc = {
		.listen = c->listen, .socket_path = c->socket_path, .port_file = c->port_file,
		.rate_per_key = c->rate_per_key, .rate_per_addr = c->rate_per_addr,
		.threads = c->threads, .quiet = c->quiet,
		.limits = {
			.max_conns = c->max_conns, .max_conns_per_addr = c->max_conns_per_addr,
			.max_streams = c->max_streams, .max_streams_per_addr = c->max_streams_per_addr,
			.header_timeout_s = c->header_timeout_s, .body_timeout_s = c->body_timeout_s,
			.trust = trust,
		},
		.signup_per_min = c->signup_limit,
	};
	fit_limits(&sc.limits, c->quiet);
	/* listening first: a client that connects while the market opens waits
	 * in the backlog and is answered as soon as it is open */
	if (xd_server_listen(&sc, &srv, cause) != 0)
		goto out;
	struct xd_market_config mc = {
		.tables = t, .db_path = c->db_path, .demo = c->demo, .admin_key = admin,
		.state = c->state >= 0 ? c->state : c->demo ? EXCHANGE_OPEN : EXCHANGE_PRE_OPEN,
		.state_given = c->state >= 0,
		.opens_at_ms = c->opens_at_ms, .topup_url = c->topup_url, .topup_text = c->topup_text,
		.quiet = c->quiet, .clock_speed = c->clock_speed, .seed = c->seed,
		.stream_backlog = (size_t)c->stream_backlog,
		.queue_wait_ms = c->queue_wait_ms, .commit_deadline_ms = c->commit_deadline_ms,
	};
	int opened = xd_market_open(&mc, &m, cause);
	if (opened == -1)
		goto out;
	if (xd_server_start(srv, m, cause) != 0)
		goto out;
	if (c->pid_file && write_pid_file(c->pid_file, cause) != 0)
		goto out;
	if (opened == -2) {
		const char *why = wait_for_store(&set, &mc, srv, &m, cause);
		if (!m) {
			if (why)   /* a signal while waiting: a clean end */
				fprintf(stderr, "gpuxd: %s, shutting down\n", why);
			rc = why ? 0 : -1;
			goto out;
		}
	}
	if (!c->quiet) {
		char *shown = xd_conninfo_redact(c->db_path);
		fprintf(stderr, "gpuxd %s: database %s, market %s%s\n", EXCHANGE_VERSION, shown,
		        xd_state_names[mc.state], c->demo ? ", demo" : "");
		free(shown);
	}
	const char *why = wait_for_end(&set, srv, c->idle_exit_s);
	/* the idle exit is said even with --quiet: it is why the process is gone */
	if (!c->quiet || c->idle_exit_s > 0)
		fprintf(stderr, "gpuxd: %s, shutting down\n", why);
	rc = 0;
out:
	if (srv)
		xd_server_quiesce(srv);
	xd_market_close(&m);
	xd_server_stop(&srv);
	xd_tables_free(&t);
	xd_trust_free(&trust);
	if (c->pid_file)
		remove_pid_file(c->pid_file);
	xfree_secret(admin);
	return rc;
}
