/*
 * The embedded default: with no exchange configured, gpux talks to a local
 * demo gpuxd of its own, on a Unix socket.
 *
 *   runtime dir  $XDG_RUNTIME_DIR/gpux, else /tmp/gpux-UID (0700, ours, checked),
 *                and in it one directory per data directory, d-HASH (a hash of
 *                the data directory's path), so two data directories (two
 *                HOMEs of one user) never share an exchange: gpuxd.sock
 *   data dir     $XDG_DATA_HOME/gpux, else ~/.local/share/gpux (0700)
 *                demo.db (and demo.db.lock, held by the gpuxd that has it
 *                open), gpuxd.lock (the startup lock), gpuxd.pid, gpuxd.log,
 *                demo.key (0600: the demo account's key, kept apart from the
 *                user's own config)
 *
 * The locks and the pid file live beside the database, not in the runtime
 * directory: one data directory has one demo exchange whatever the runtime
 * directory (su, cron and another tmux may each have their own). A gpux whose
 * runtime directory is not the one the running exchange was started from
 * finds it through the pid file (its command line names its socket) and
 * talks to it there; and gpuxd itself refuses a database another gpuxd holds.
 *
 * The exchange ends by itself: it is started with --idle-exit (GPUX_DEMO_IDLE
 * seconds, default 300) and exits that long after its last connection,
 * folding its WAL into the database and removing its socket and pid file.
 * A running exchange whose binary is not the gpuxd we would start (a
 * rebuild, an upgrade) is stopped and replaced.
 *
 * Under an exclusive flock on gpuxd.lock (so two gpux started at once agree):
 * if something accepts connections on the socket it is reused; otherwise
 * gpuxd is found next to our own binary (/proc/self/exe), else on PATH, and
 * started daemonised (double fork, setsid, stdio to gpuxd.log, pid in
 * gpuxd.pid); then we wait until it answers. The first time (or when the
 * stored key is no longer known, e.g. the database was removed) a demo
 * account is opened and given a demo balance, and its key is stored.
 *
 * When the exchange dies while a client runs (api_local_respawn, called by
 * the client when a request cannot connect to the socket) it is started
 * again without waiting: the lock is taken without blocking (held: another
 * gpux is starting it already), and a detached starter process, which
 * inherits the locked descriptor, spawns gpuxd as above and keeps the lock
 * until the socket accepts, so that nobody starts a second one meanwhile.
 * Same database, so the demo account's key stays valid.
 */
#include "api/internal.h"

#include "i18n/i18n.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DEMO_DEPOSIT_MINOR 1000000   /* 10 000.00 in the account's currency */
#define START_WAIT_MS 15000

/* mkdir -p with mode 0700 for the directories created. */
static int mkdirs(const char *path, char **cause)
{
	char *p = xstrdup(path);

	for (char *q = p + 1; *q != '\0'; q++) {
		if (*q != '/')
			continue;
		*q = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST) {
			set_cause(cause, _("cannot create %s: %s"), p, strerror(errno));
			free(p);
			return -1;
		}
		*q = '/';
	}
	if (mkdir(p, 0700) != 0 && errno != EEXIST) {
		set_cause(cause, _("cannot create %s: %s"), p, strerror(errno));
		free(p);
		return -1;
	}
	free(p);
	return 0;
}

/* The runtime directory: $XDG_RUNTIME_DIR/gpux, or /tmp/gpux-UID, which must
 * be a directory of ours that nobody else can enter. */
static char *runtime_dir(char **cause)
{
	const char *x = getenv("XDG_RUNTIME_DIR");
	struct stat st;
	char *d;

	if (x != NULL && x[0] == '/') {
		d = xasprintf("%s/gpux", x);
		if (mkdirs(d, cause) != 0) {
			free(d);
			return NULL;
		}
		return d;
	}
	d = xasprintf("%s/gpux-%u", "/tmp", (unsigned)getuid());
	if (mkdir(d, 0700) != 0 && errno != EEXIST) {
		set_cause(cause, _("cannot create %s: %s"), d, strerror(errno));
		free(d);
		return NULL;
	}
	if (lstat(d, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
	    (st.st_mode & 077) != 0) {
		set_cause(cause, _("%s is not a private directory of yours (owner and mode 0700 "
				   "expected); remove it or set XDG_RUNTIME_DIR"), d);
		free(d);
		return NULL;
	}
	return d;
}

void api_local_paths_clear(struct local_paths *p)
{
	free(p->data_dir);
	free(p->run_dir);
	free(p->sock);
	free(p->lock);
	free(p->pidfile);
	free(p->db);
	free(p->log);
	free(p->keyfile);
	memset(p, 0, sizeof *p);
}

/* Compute (and create) the runtime and data directories' paths; 0, or -1
 * and *cause. */
int api_local_paths(struct local_paths *p, char **cause)
{
	struct sockaddr_un sa;
	char *rdir, *sub;
	uint64_t h = 1469598103934665603ULL;

	memset(p, 0, sizeof *p);
	if ((rdir = runtime_dir(cause)) == NULL)
		return -1;
	if ((p->data_dir = api_data_dir()) == NULL) {
		free(rdir);
		return set_cause(cause, _("neither XDG_DATA_HOME nor HOME is set: no place for the "
					  "local demo exchange's data; set one, or give --api URL"));
	}
	if (mkdirs(p->data_dir, cause) != 0) {
		free(rdir);
		api_local_paths_clear(p);
		return -1;
	}
	{
		/* the data directory as the kernel resolves it, so two spellings
		 * of one directory share its exchange */
		char *real = realpath(p->data_dir, NULL);
		for (const char *c = real != NULL ? real : p->data_dir; *c != '\0'; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ULL;
		free(real);
	}
	sub = xasprintf("%s/d-%016llx", rdir, (unsigned long long)h);
	free(rdir);
	if (mkdir(sub, 0700) != 0 && errno != EEXIST) {
		set_cause(cause, _("cannot create %s: %s"), sub, strerror(errno));
		free(sub);
		api_local_paths_clear(p);
		return -1;
	}
	p->run_dir = sub;
	p->sock = xasprintf("%s/gpuxd.sock", sub);
	p->lock = xasprintf("%s/gpuxd.lock", p->data_dir);
	p->pidfile = xasprintf("%s/gpuxd.pid", p->data_dir);
	p->db = xasprintf("%s/demo.db", p->data_dir);
	p->log = xasprintf("%s/gpuxd.log", p->data_dir);
	p->keyfile = xasprintf("%s/demo.key", p->data_dir);
	if (strlen(p->sock) >= sizeof sa.sun_path) {
		set_cause(cause, _("the socket path %s is too long for a Unix socket; set "
				   "XDG_RUNTIME_DIR to a shorter directory"), p->sock);
		api_local_paths_clear(p);
		return -1;
	}
	{
		/* the data directory's exchange runs already, maybe started from
		 * another runtime directory: its socket is the one to use */
		int pid = api_local_pid(p);
		char *other = pid > 0 ? api_local_socket_of(pid) : NULL;
		if (other != NULL && strlen(other) < sizeof sa.sun_path) {
			free(p->sock);
			p->sock = other;
		} else {
			free(other);
		}
	}
	return 0;
}

/* gpuxd next to our own binary, else on PATH; NULL if none. */
char *api_local_find_gpuxd(void)
{
	char self[PATH_MAX + 1];
	ssize_t n = readlink("/proc/self/exe", self, PATH_MAX);
	const char *env = getenv("GPUX_GPUXD"), *path;

	if (env != NULL && env[0] == '/' && access(env, X_OK) == 0)
		return xstrdup(env);
	if (n > 0) {
		char *slash, *cand;
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash != NULL) {
			*slash = '\0';
			cand = xasprintf("%s/gpuxd", self);
			if (access(cand, X_OK) == 0)
				return cand;
			free(cand);
		}
	}
	path = getenv("PATH");
	if (path == NULL)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path != '\0') {
		const char *colon = strchr(path, ':');
		size_t len = colon != NULL ? (size_t)(colon - path) : strlen(path);
		if (len > 0) {
			char *cand = xasprintf("%.*s/gpuxd", (int)len, path);
			if (cand[0] == '/' && access(cand, X_OK) == 0)
				return cand;
			free(cand);
		}
		path += len + (colon != NULL);
	}
	return NULL;
}

/* Is anything accepting connections on the socket? */
bool api_local_socket_alive(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool ok;

	if (fd < 0)
		return false;
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
	ok = connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
	close(fd);
	return ok;
}

/* Does the exchange on the socket answer GET /v1/market? */
static bool exchange_answers(const char *url, long timeout_ms)
{
	struct api_config cfg = {.url = url, .timeout_ms = timeout_ms,
				 .connect_timeout_ms = timeout_ms, .max_attempts = 1};
	struct api_client *c = api_client_new(&cfg, NULL);
	struct api_market *m = NULL;
	struct api_error *e = NULL;
	bool ok;

	if (c == NULL)
		return false;
	ok = api_market(c, &m, &e) == 0;
	api_market_free(&m);
	api_error_free(&e);
	api_client_free(&c);
	return ok;
}

/* The last non-empty line of a log file, for an error message (sanitised). */
static char *log_tail(const char *path)
{
	char *data = NULL, *cause = NULL, *end, *start, *r;
	size_t len = 0;

	if (util_read_file(path, &data, &len, &cause) != 0) {
		free(cause);
		return xstrdup("");
	}
	end = data + len;
	while (end > data && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	*end = '\0';
	start = strrchr(data, '\n');
	start = start != NULL ? start + 1 : data;
	r = util_sanitize(start, 300, false);
	free(data);
	return r;
}

static void write_all(int fd, const void *p, size_t n)
{
	const char *b = p;

	while (n > 0) {
		ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		b += w;
		n -= (size_t)w;
	}
}

/* Close every descriptor from `from` on except `keep`: one close_range()
 * each side of it (a loop over the first 1024 where the kernel lacks it). */
static void close_from(int from, int keep)
{
	if ((keep <= from || close_range((unsigned)from, (unsigned)keep - 1, 0) == 0) &&
	    close_range((unsigned)(keep >= from ? keep + 1 : from), ~0U, 0) == 0)
		return;
	for (int fd = from; fd < 1024; fd++)
		if (fd != keep)
			close(fd);
}

static const char *no_gpuxd_text(void)
{
	return _("no exchange is configured and gpuxd (the local demo exchange) is neither "
		 "next to gpux nor on PATH; install it, or give an exchange with --api URL");
}

/* n in decimal and a newline into buf (at least 24 bytes); its length.
 * Async-signal-safe, for the child of a fork. */
static size_t pid_line(char *buf, long n)
{
	char tmp[24];
	size_t len = 0, i = 0;

	do
		tmp[i++] = (char)('0' + n % 10);
	while ((n /= 10) > 0 && i < sizeof tmp);
	while (i > 0)
		buf[len++] = tmp[--i];
	buf[len++] = '\n';
	return len;
}

/* Start gpuxd as a daemon; 0 and *pid, or -1 and *cause. Between fork and
 * exec the children call only async-signal-safe functions: another thread
 * may be inside the dynamic loader (libcurl loading, api/curl.c) while we
 * fork, and its locks and half-made lists are copied as they are. */
static int spawn(const char *gpuxd, const char *sock, const char *db, const char *log,
		 const char *pidfile, pid_t *pid, char **cause)
{
	int pfd[2];
	pid_t child;
	int status, err = 0;
	ssize_t r;
	struct {
		int err;
		pid_t pid;
	} msg;
	const char *idle = getenv("GPUX_DEMO_IDLE");
	const char *argv[] = {gpuxd, "--demo", "--socket", sock, "--db", db,
			      "--pid-file", pidfile, "--idle-exit",
			      idle != NULL && idle[0] != '\0' ? idle : "300", NULL};
	struct sigaction dfl = {.sa_handler = SIG_DFL}, ign = {.sa_handler = SIG_IGN};

	if (pipe2(pfd, O_CLOEXEC) != 0)
		return set_cause(cause, "pipe: %s", strerror(errno));
	child = fork();
	if (child < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return set_cause(cause, "fork: %s", strerror(errno));
	}
	if (child == 0) {
		/* the intermediate child: new session, fork the daemon, leave */
		pid_t d;
		close(pfd[0]);
		setsid();
		d = fork();
		if (d != 0) {
			if (d < 0) {
				msg.err = errno;
				msg.pid = 0;
				write_all(pfd[1], &msg, sizeof msg);
			}
			_exit(0);
		}
		{
			int null = open("/dev/null", O_RDONLY);
			int lfd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
			int pidfd;
			char num[24];

			if (null >= 0)
				dup2(null, 0);
			if (lfd >= 0) {
				dup2(lfd, 1);
				dup2(lfd, 2);
			}
			umask(077);
			if (chdir("/") != 0)
				_exit(127);
			sigaction(SIGPIPE, &dfl, NULL);
			sigaction(SIGHUP, &ign, NULL);
			pidfd = open(pidfile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
			if (pidfd >= 0) {
				write_all(pidfd, num, pid_line(num, (long)getpid()));
				close(pidfd);
			}
			close_from(3, pfd[1]);
			execv(gpuxd, (char *const *)argv);
			msg.err = errno;
			msg.pid = getpid();
			write_all(pfd[1], &msg, sizeof msg);
			_exit(127);
		}
	}
	close(pfd[1]);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	/* EOF once the daemon has exec'ed (the pipe is close-on-exec) */
	do
		r = read(pfd[0], &msg, sizeof msg);
	while (r < 0 && errno == EINTR);
	close(pfd[0]);
	if (r == (ssize_t)sizeof msg) {
		err = msg.err;
		return set_cause(cause, _("cannot start %s: %s"), gpuxd, strerror(err));
	}
	*pid = 0;
	{
		char *data = NULL, *c2 = NULL;
		size_t len;
		if (util_read_file(pidfile, &data, &len, &c2) == 0)
			*pid = (pid_t)atoi(data);
		free(data);
		free(c2);
	}
	return 0;
}

static int read_key(const char *path, char **key)
{
	char *data = NULL, *cause = NULL;
	size_t len = 0;

	*key = NULL;
	if (util_read_file(path, &data, &len, &cause) != 0) {
		free(cause);
		return -1;
	}
	while (len > 0 && (data[len - 1] == '\n' || data[len - 1] == '\r' || data[len - 1] == ' '))
		data[--len] = '\0';
	if (len == 0) {
		free(data);
		return -1;
	}
	*key = data;
	return 0;
}

static int write_key(const char *path, const char *key, char **cause)
{
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int rc = 0;

	if (fd < 0) {
		rc = set_cause(cause, _("cannot write %s: %s"), tmp, strerror(errno));
		free(tmp);
		return rc;
	}
	write_all(fd, key, strlen(key));
	write_all(fd, "\n", 1);
	if (fsync(fd) != 0 || close(fd) != 0 || rename(tmp, path) != 0) {
		rc = set_cause(cause, _("cannot write %s: %s"), path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return rc;
}

/* Make sure the stored demo key works; open an account when it does not. */
static int ensure_account(struct api_local *l, const char *keyfile, const char *country,
			  const char *currency, char **cause)
{
	struct api_config cfg = {.url = l->url, .local_demo = true};
	struct api_client *c;
	struct api_account *a = NULL;
	struct api_deposit *d = NULL;
	struct api_error *e = NULL;
	char *key = NULL, *t;
	int rc = -1;

	if (read_key(keyfile, &key) == 0) {
		cfg.key = key;
		c = api_client_new(&cfg, cause);
		if (c == NULL)
			goto out;
		if (api_account(c, &a, &e) == 0) {
			l->key = key;
			key = NULL;
			api_account_free(&a);
			api_client_free(&c);
			rc = 0;
			goto out;
		}
		api_client_free(&c);
		if (e->kind != API_ERR_HTTP || e->http_status != 401) {
			t = api_error_text(e);
			set_cause(cause, "%s", t);
			free(t);
			goto out;
		}
		api_error_free(&e);   /* an old key (a new database): open a new account */
	}
	cfg.key = NULL;
	if ((c = api_client_new(&cfg, cause)) == NULL)
		goto out;
	if (api_account_create(c, "you@demo.gpux", country, currency, API_ROLE_BOTH, &a, &e) != 0 ||
	    a->api_key == NULL) {
		t = e != NULL ? api_error_text(e) : xstrdup("no key in the reply");
		set_cause(cause, _("cannot open the local demo account: %s"), t);
		free(t);
		api_client_free(&c);
		goto out;
	}
	api_client_free(&c);
	cfg.key = a->api_key;
	if ((c = api_client_new(&cfg, cause)) == NULL)
		goto out;
	if (api_deposit(c, DEMO_DEPOSIT_MINOR, &d, &e) != 0) {
		t = api_error_text(e);
		set_cause(cause, _("cannot fund the local demo account: %s"), t);
		free(t);
		api_client_free(&c);
		goto out;
	}
	api_client_free(&c);
	if (write_key(keyfile, a->api_key, cause) != 0)
		goto out;
	l->key = xstrdup(a->api_key);
	l->account_created = true;
	rc = 0;
out:
	xfree_secret(key);
	api_account_free(&a);
	api_deposit_free(&d);
	api_error_free(&e);
	return rc;
}

void api_local_clear(struct api_local *l)
{
	free(l->url);
	free(l->socket_path);
	free(l->data_dir);
	free(l->log_path);
	xfree_secret(l->key);
	memset(l, 0, sizeof *l);
}

/* Wait up to max_ms for a file to appear in the directory ifd watches (an
 * inotify descriptor; -1: a millisecond's sleep instead). */
static void wait_created(int ifd, int max_ms)
{
	struct pollfd pf = {.fd = ifd, .events = POLLIN};
	char ev[4096];

	if (ifd < 0) {
		struct timespec ts = {0, 1000 * 1000};
		nanosleep(&ts, NULL);
		return;
	}
	if (poll(&pf, 1, max_ms) > 0)
		while (read(ifd, ev, sizeof ev) > 0)
			;
}

int api_local_start(struct api_local *l, const char *country, const char *currency,
		    char **cause)
{
	struct local_paths p;
	char *gpuxd = NULL, *t;
	int lfd = -1, ifd = -1, rc = -1;

	memset(l, 0, sizeof *l);
	if (api_local_paths(&p, cause) != 0)
		return -1;
	l->data_dir = xstrdup(p.data_dir);
	l->socket_path = xstrdup(p.sock);
	l->url = xasprintf("unix:%s", p.sock);
	l->log_path = xstrdup(p.log);

	lfd = open(p.lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lfd < 0 || flock(lfd, LOCK_EX) != 0) {
		set_cause(cause, _("cannot lock %s: %s"), p.lock, strerror(errno));
		goto out;
	}
	/* someone accepts on our private socket: that is our gpuxd (a hung one
	 * shows as a timeout on the first real request, with a clear message) */
	if (api_local_socket_alive(l->socket_path)) {
		l->pid = api_local_pid(&p);
		/* started from another gpuxd binary (a rebuild, an upgrade): replaced */
		if ((gpuxd = api_local_find_gpuxd()) != NULL && l->pid > 0 &&
		    !api_local_same_binary(l->pid, gpuxd) &&
		    api_local_stop_pid(&p, l->pid, cause) != 0)
			goto out;
	}
	if (!api_local_socket_alive(l->socket_path)) {
		int64_t deadline;
		if (gpuxd == NULL && (gpuxd = api_local_find_gpuxd()) == NULL) {
			set_cause(cause, "%s", no_gpuxd_text());
			goto out;
		}
		unlink(l->socket_path);   /* stale: nobody answers on it (we hold the lock) */
		unlink(p.pidfile);
		/* told when the socket appears, rather than looking every few ms */
		ifd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
		if (ifd >= 0 && inotify_add_watch(ifd, p.run_dir, IN_CREATE | IN_MOVED_TO) < 0) {
			close(ifd);
			ifd = -1;
		}
		if (spawn(gpuxd, l->socket_path, p.db, l->log_path, p.pidfile, &l->pid, cause) != 0)
			goto out;
		l->started = true;
		/* libcurl may still be loading (api_curl_start): gpuxd starts meanwhile */
		if (api_curl_ready(cause) != 0)
			goto out;
		deadline = util_now_ms() + START_WAIT_MS;
		/* gpuxd listens first thing, then opens its market: once the
		 * socket is there, the first request waits in its backlog and is
		 * answered as soon as the market is open */
		while (!(api_local_socket_alive(l->socket_path) && exchange_answers(l->url, 2000))) {
			if (util_now_ms() > deadline ||
			    (l->pid > 0 && kill(l->pid, 0) != 0 && errno == ESRCH)) {
				t = log_tail(l->log_path);
				set_cause(cause, _("the local demo exchange did not start (see %s): %s"),
					  l->log_path, t);
				free(t);
				goto out;
			}
			wait_created(ifd, 2);   /* a refused probe retries soon */
		}
	}
	if (ensure_account(l, p.keyfile, country != NULL ? country : "US",
			   currency != NULL ? currency : "USD", cause) != 0)
		goto out;
	rc = 0;
out:
	if (ifd >= 0)
		close(ifd);
	if (lfd >= 0)
		close(lfd);     /* releases the lock */
	api_local_paths_clear(&p);
	free(gpuxd);
	if (rc != 0)
		api_local_clear(l);
	return rc;
}

/* ---- started again while a client runs -------------------------------------------------- */

/* The starter: a detached process that holds the startup lock (lfd, inherited)
 * while gpuxd starts, and leaves once the socket accepts (or gpuxd died, or
 * START_WAIT_MS passed). Never returns. */
static void __attribute__((noreturn)) starter(const struct local_paths *p, const char *gpuxd,
					      int lfd)
{
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	sigset_t none;
	pid_t pid = 0;
	char *cause = NULL;
	int null;
	int64_t deadline;

	setsid();
	/* the client's handlers (a TUI's signal pipe) are not ours */
	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
	}
	/* not the terminal, not the client's sockets: only the lock */
	close_from(3, lfd);
	if (spawn(gpuxd, p->sock, p->db, p->log, p->pidfile, &pid, &cause) != 0)
		_exit(1);
	deadline = util_now_ms() + START_WAIT_MS;
	while (!api_local_socket_alive(p->sock) && util_now_ms() < deadline &&
	       !(pid > 0 && kill(pid, 0) != 0 && errno == ESRCH)) {
		struct timespec ts = {0, 20 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	_exit(0);
}

int api_local_respawn(const char *socket_path, char **cause)
{
	struct local_paths p;
	char *gpuxd = NULL;
	int lfd = -1, rc = -1, status;
	pid_t child;

	if (api_local_paths(&p, cause) != 0)
		return -1;
	if (socket_path != NULL && strcmp(socket_path, p.sock) != 0) {
		/* the exchange this client talks to was started from another
		 * runtime directory: it comes back where the client looks for it
		 * (its database's lock keeps it from running twice) */
		free(p.sock);
		p.sock = xstrdup(socket_path);
	}
	lfd = open(p.lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lfd < 0) {
		set_cause(cause, _("cannot lock %s: %s"), p.lock, strerror(errno));
		goto out;
	}
	if (flock(lfd, LOCK_EX | LOCK_NB) != 0) {
		if (errno == EWOULDBLOCK || errno == EINTR)
			rc = 0;     /* another gpux is starting it right now */
		else
			set_cause(cause, _("cannot lock %s: %s"), p.lock, strerror(errno));
		goto out;
	}
	if (api_local_socket_alive(p.sock)) {
		rc = 0;         /* back already (another gpux started it) */
		goto out;
	}
	if ((gpuxd = api_local_find_gpuxd()) == NULL) {
		set_cause(cause, "%s", no_gpuxd_text());
		goto out;
	}
	unlink(p.sock);   /* stale: nobody answers on it (we hold the lock) */
	child = fork();
	if (child < 0) {
		set_cause(cause, "fork: %s", strerror(errno));
		goto out;
	}
	if (child == 0) {
		/* leave at once: the starter is then nobody's child to wait for */
		if (fork() == 0)
			starter(&p, gpuxd, lfd);
		_exit(0);
	}
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	rc = 1;
out:
	if (lfd >= 0)
		close(lfd);     /* the starter keeps its copy, and so the lock */
	api_local_paths_clear(&p);
	free(gpuxd);
	return rc;
}

/* ---- one call for the CLI and the TUI ------------------------------------------------ */

struct api_client *api_open(const struct api_open_opts *o, struct api_settings *used,
			    char **cause)
{
	struct api_settings s;
	struct api_local l;
	struct api_config cfg = {0};
	struct api_client *c;

	if (api_settings_resolve(o->url, o->key, o->profile, &s, cause) != 0)
		return NULL;
	/* the configured timeout, capped by the caller's */
	cfg.timeout_ms = s.timeout_ms;
	if (o->timeout_ms > 0 && (cfg.timeout_ms <= 0 || o->timeout_ms < cfg.timeout_ms))
		cfg.timeout_ms = o->timeout_ms;
	cfg.connect_timeout_ms = s.connect_timeout_ms;
	cfg.insecure = o->insecure;
	cfg.max_attempts = o->max_attempts;
	if (s.url != NULL) {
		cfg.url = s.url;
		cfg.key = s.key;
		c = api_client_new(&cfg, cause);
	} else {
		if (api_local_start(&l, s.demo_country, s.demo_currency, cause) != 0) {
			api_settings_clear(&s);
			return NULL;
		}
		cfg.url = l.url;
		cfg.key = l.key;
		cfg.local_demo = true;
		c = api_client_new(&cfg, cause);
		if (c != NULL)
			api_client_set_respawn(c, api_local_respawn);
		api_local_clear(&l);
	}
	if (used != NULL)
		*used = s;
	else
		api_settings_clear(&s);
	return c;
}
