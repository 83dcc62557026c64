/*
 * bench_tui — the TUI through a pseudo-terminal, beside htop measured the
 * same way on the same machine in the same run (bench_view has the table
 * model on 100,000 rows).
 *
 * Part 1, the local demo at 120×35, as a user starts it: no --api, so gpux
 * starts its own gpuxd on a Unix socket (under a fresh XDG_RUNTIME_DIR and
 * XDG_DATA_HOME). Eight rounds of:
 *
 *   cold start          the local gpuxd not running, its database there:
 *                       from fork to the first frame with live prices
 *                       ("prices updated"); round 1 is the very first start
 *                       (no database, no account yet) and is shown apart
 *   warm start          the same with the local gpuxd still running
 *   resident memory     VmRSS of the running TUI after it settled, and its
 *                       anonymous and file-backed parts (/proc/PID/status)
 *
 * and, in the same rounds and at the same size, htop's first frame and
 * resident memory, and the floor under gpux: BUILD/bench/ref/curl_alone, a
 * program that only initialises Debian's libcurl and asks the running local
 * gpuxd for /v1/market once (its time to the answer, its resident memory).
 *
 * Part 2, gpux in a forkpty() of 80×24 (TERM=xterm-256color, LANG=C.UTF-8)
 * against a gpuxd --demo this program starts over TCP (BUILD/gpuxd beside
 * this program's directory, or $GPUXD). Figures:
 *
 *   first frame         from fork to the first complete frame (the F-key bar,
 *                       which is drawn last, is out) — and for gpux also to
 *                       the first frame with live prices ("prices updated")
 *   row down            bytes written to the terminal for one ↓ (ESC O B),
 *                       after the screen settled; ten times, min and median
 *   column right        the same for → (gpux)
 *   price change        bytes of the frame that shows a new best ask, from a
 *                       second exchange whose demo prices drift (clock ×1),
 *                       and the bytes of that frame, escaped, so one can see
 *                       it rewrites the price cell (and the status clock)
 *
 * A "frame" is what the program writes until the terminal has been quiet for
 * 40 ms. htop runs with -d 100 (10 s between its own refreshes) so that its
 * periodic redraw does not land in the measurement. Nothing is asserted.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <math.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"

enum { ROWS = 24, COLS = 80, BIG_ROWS = 35, BIG_COLS = 120, QUIET_MS = 40, ROUNDS = 8 };

struct term {
	pid_t pid;
	int fd;
	struct buf out;
	int64_t t0_us;
};

static char *dir_of(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? xstrndup(path, (size_t)(s - path)) : xstrdup(".");
}

/* Run argv in a pseudo-terminal of rows × cols, with HOME and the XDG
 * directories under home. */
static int spawn_sized(struct term *t, char *const argv[], const char *home, int rows, int cols)
{
	struct winsize ws = { .ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols };

	memset(t, 0, sizeof *t);
	t->t0_us = util_now_us();
	t->pid = forkpty(&t->fd, NULL, NULL, &ws);
	if (t->pid < 0)
		return -1;
	if (t->pid == 0) {
		setenv("TERM", "xterm-256color", 1);
		setenv("LANG", "C.UTF-8", 1);
		unsetenv("LC_ALL");
		unsetenv("NO_COLOR");
		unsetenv("GPUX_API");
		setenv("HOME", home, 1);
		setenv("XDG_CONFIG_HOME", home, 1);
		setenv("XDG_DATA_HOME", home, 1);
		setenv("XDG_RUNTIME_DIR", home, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	fcntl(t->fd, F_SETFL, O_NONBLOCK);
	return 0;
}

static int spawn(struct term *t, char *const argv[], const char *home)
{
	return spawn_sized(t, argv, home, ROWS, COLS);
}

/* Read what is there within timeout_ms; returns bytes read, -1 at EOF. */
static long read_some(struct term *t, int timeout_ms)
{
	struct pollfd p = { .fd = t->fd, .events = POLLIN };
	char chunk[65536];
	long total = 0;

	if (poll(&p, 1, timeout_ms) <= 0)
		return 0;
	for (;;) {
		ssize_t n = read(t->fd, chunk, sizeof chunk);
		if (n > 0) {
			buf_append(&t->out, chunk, (size_t)n);
			total += n;
			continue;
		}
		if (n < 0 && errno == EAGAIN)
			return total;
		return total > 0 ? total : -1;
	}
}

static bool has(const struct term *t, size_t from, const char *needle)
{
	return t->out.len > from && memmem(t->out.data + from, t->out.len - from, needle,
					    strlen(needle)) != NULL;
}

/* Read until needle appears after offset `from`; the time in ms since the
 * spawn, or -1 after max_ms. */
static double read_until(struct term *t, size_t from, const char *needle, int max_ms)
{
	int64_t end = util_now_us() + (int64_t)max_ms * 1000;

	while (!has(t, from, needle)) {
		if (util_now_us() > end || read_some(t, 20) < 0)
			return -1;
	}
	return (double)(util_now_us() - t->t0_us) / 1000.0;
}

/* Read one frame: bytes until QUIET_MS of silence (at most max_ms). */
static size_t read_frame(struct term *t, int max_ms)
{
	size_t start = t->out.len;
	int64_t end = util_now_us() + (int64_t)max_ms * 1000;

	while (util_now_us() < end) {
		long n = read_some(t, QUIET_MS);
		if (n <= 0)
			break;
	}
	return t->out.len - start;
}

/* Wait up to max_ms for output to start, then read that frame. */
static size_t read_next_frame(struct term *t, int max_ms)
{
	size_t start = t->out.len;

	if (read_some(t, max_ms) <= 0)
		return 0;
	read_frame(t, 1000);
	return t->out.len - start;
}

static void settle(struct term *t)
{
	for (int i = 0; i < 100 && read_frame(t, 500) > 0; i++)
		;
}

static void stop(struct term *t)
{
	if (t->pid > 0) {
		kill(t->pid, SIGTERM);
		for (int i = 0; i < 50; i++) {
			read_some(t, 10);
			if (waitpid(t->pid, NULL, WNOHANG) == t->pid) {
				t->pid = 0;
				break;
			}
		}
		if (t->pid > 0) {
			kill(t->pid, SIGKILL);
			waitpid(t->pid, NULL, 0);
		}
	}
	close(t->fd);
	buf_free(&t->out);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* One row down four times, then up four times (a table has at least 9
 * rows), each a frame; min and median bytes. */
static void row_moves(struct term *t, size_t *min, size_t *med)
{
	size_t v[8];

	for (int i = 0; i < 8; i++) {
		if (write(t->fd, i < 4 ? "\033OB" : "\033OA", 3) != 3)
			break;
		v[i] = read_frame(t, 1000);
	}
	qsort(v, 8, sizeof v[0], cmp_size);
	*min = v[0];
	*med = v[4];
}

/* ---- gpuxd ------------------------------------------------------------------------ */

static pid_t start_gpuxd(const char *gpuxd, const char *dir, const char *tag, const char *speed,
			 char **url)
{
	char *portf = xasprintf("%s/%s.port", dir, tag), *db = xasprintf("%s/%s.db", dir, tag);
	char *logf = xasprintf("%s/%s.log", dir, tag);
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(logf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execl(gpuxd, gpuxd, "--listen", "127.0.0.1:0", "--port-file", portf, "--db", db,
		      "--demo", "--quiet", "--clock-speed", speed, (char *)NULL);
		_exit(127);
	}
	*url = NULL;
	for (int i = 0; i < 200 && pid > 0; i++) {
		char *s = NULL;
		size_t len;
		if (util_read_file(portf, &s, &len, NULL) == 0 && len > 0) {
			*url = xasprintf("http://127.0.0.1:%d", atoi(s));
			free(s);
			break;
		}
		free(s);
		usleep(20000);
	}
	free(portf);
	free(db);
	free(logf);
	return pid;
}

/* ---- the local demo at 120×35, beside htop ---------------------------------------- */

/* Where resident pages come from, by the mapping's file. */
enum { G_SELF, G_ANON, G_LIBC, G_TERM, G_LOCALE, G_TLS, G_OTHER, G_N };
static const char *const group_names[G_N] = {
	"the program itself (text, data, embedded files)",
	"heap, stacks, anonymous",
	"C library, loader, libm, cJSON",
	"ncursesw, tinfo, readline",
	"locale files",
	"TLS: OpenSSL, GnuTLS and theirs",
	"other libraries (gpux: libcurl, its protocols, codecs)",
};

struct rss {
	long vm, anon, file;            /* kB, /proc/PID/status */
	long pss, pdirty, pclean, sclean; /* kB, /proc/PID/smaps_rollup */
	long g_rss[G_N], g_dirty[G_N];  /* kB, /proc/PID/smaps by group */
};

struct start {
	double first, priced; /* ms from fork; -1 = not seen */
	struct rss rss;
};

static int group_of(const char *name, const char *exe)
{
	static const char *const libc[] = { "libc.so", "ld-linux", "libm.so", "libcjson", NULL };
	static const char *const term[] = { "libncurses", "libtinfo", "libreadline", NULL };
	static const char *const tls[] = { "libcrypto", "libssl", "libgnutls", "libnettle",
					   "libhogweed", "libgmp", "libtasn1", "libp11-kit",
					   "libffi", NULL };
	const char *base = strrchr(name, '/') != NULL ? strrchr(name, '/') + 1 : name;

	if (name[0] == '\0' || name[0] == '[')
		return G_ANON;
	if (strcmp(name, exe) == 0)
		return G_SELF;
	if (strstr(name, "/locale/") != NULL || strstr(name, "/gconv/") != NULL)
		return G_LOCALE;
	for (int i = 0; libc[i] != NULL; i++)
		if (strncmp(base, libc[i], strlen(libc[i])) == 0)
			return G_LIBC;
	for (int i = 0; term[i] != NULL; i++)
		if (strncmp(base, term[i], strlen(term[i])) == 0)
			return G_TERM;
	for (int i = 0; tls[i] != NULL; i++)
		if (strncmp(base, tls[i], strlen(tls[i])) == 0)
			return G_TLS;
	return G_OTHER;
}

/* Rss and Private_Dirty of every mapping in /proc/PID/smaps, by group. */
static void read_groups(pid_t pid, struct rss *r)
{
	char *path = xasprintf("/proc/%d/smaps", (int)pid), *exel = xasprintf("/proc/%d/exe", (int)pid);
	char line[512], exe[512] = "", name[512] = "";
	ssize_t n = readlink(exel, exe, sizeof exe - 1);
	FILE *f = fopen(path, "r");
	long v;

	if (n > 0)
		exe[n] = '\0';
	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		unsigned long lo, hi;
		int off = 0;
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %n", &lo, &hi, &off) == 2 && off > 0) {
			snprintf(name, sizeof name, "%s", line + off);
			name[strcspn(name, "\n")] = '\0';
		} else if (sscanf(line, "Rss: %ld", &v) == 1) {
			r->g_rss[group_of(name, exe)] += v;
		} else if (sscanf(line, "Private_Dirty: %ld", &v) == 1) {
			r->g_dirty[group_of(name, exe)] += v;
		}
	}
	if (f != NULL)
		fclose(f);
	free(path);
	free(exel);
}

static void read_rss(pid_t pid, struct rss *r)
{
	char *path = xasprintf("/proc/%d/status", (int)pid), line[256];
	char *roll = xasprintf("/proc/%d/smaps_rollup", (int)pid);
	FILE *f = fopen(path, "r");

	memset(r, 0, sizeof *r);
	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		sscanf(line, "VmRSS: %ld", &r->vm);
		sscanf(line, "RssAnon: %ld", &r->anon);
		sscanf(line, "RssFile: %ld", &r->file);
	}
	if (f != NULL)
		fclose(f);
	f = fopen(roll, "r");
	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		sscanf(line, "Pss: %ld", &r->pss);
		sscanf(line, "Private_Dirty: %ld", &r->pdirty);
		sscanf(line, "Private_Clean: %ld", &r->pclean);
		sscanf(line, "Shared_Clean: %ld", &r->sclean);
	}
	if (f != NULL)
		fclose(f);
	read_groups(pid, r);
	free(path);
	free(roll);
}

/* Stop the gpuxd that gpux started under home (its pid file, in the runtime
 * directory's d-HASH subdirectory), and wait until it is gone: it is not our
 * child. */
static void stop_local_gpuxd(const char *home)
{
	char *pat = xasprintf("%s/gpux/d-*/gpuxd.pid", home);
	glob_t g;

	if (glob(pat, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			char *s = NULL;
			size_t len;
			pid_t pid = 0;
			if (util_read_file(g.gl_pathv[i], &s, &len, NULL) == 0)
				pid = (pid_t)atoi(s);
			free(s);
			if (pid <= 1)
				continue;
			kill(pid, SIGTERM);
			for (int k = 0; k < 300 && kill(pid, 0) == 0; k++)
				usleep(10000);
			if (kill(pid, 0) == 0)
				kill(pid, SIGKILL);
		}
		globfree(&g);
	}
	free(pat);
}

/* One start of argv in a 120×35 terminal: the time to first_text, then to
 * priced_text (NULL: none), and the resident memory once it settled. */
/* The Unix socket of the gpuxd that gpux started under home, malloc'ed, or NULL. */
static char *local_socket(const char *home)
{
	char *pat = xasprintf("%s/gpux/d-*/gpuxd.sock", home), *sock = NULL;
	glob_t g;

	if (glob(pat, 0, NULL, &g) == 0) {
		sock = xstrdup(g.gl_pathv[0]);
		globfree(&g);
	}
	free(pat);
	return sock;
}

static void one_start(char *const argv[], const char *home, const char *first_text,
		      const char *priced_text, struct start *f)
{
	struct term t;

	memset(f, 0, sizeof *f);
	f->first = f->priced = -1;
	if (spawn_sized(&t, argv, home, BIG_ROWS, BIG_COLS) != 0)
		return;
	f->first = read_until(&t, 0, first_text, 10000);
	if (priced_text != NULL)
		f->priced = read_until(&t, 0, priced_text, 10000);
	settle(&t);
	read_rss(t.pid, &f->rss);
	stop(&t);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Sort v (n) and give its median. */
static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return v[n / 2];
}

static void print_starts(const char *what, const struct start *s, int from, int to, bool priced)
{
	double v[ROUNDS], mn;
	int n = 0;

	for (int i = from; i < to; i++)
		v[n++] = priced ? s[i].priced : s[i].first;
	mn = median(v, n);
	printf("   %-44s %8.1f ms min %8.1f ms median  (", what, v[0], mn);
	for (int i = from; i < to; i++)
		printf("%s%.1f", i > from ? " " : "", priced ? s[i].priced : s[i].first);
	printf(")\n");
}

static double mb(long kb)
{
	return (double)kb / 1024;
}

/* Medians over the rounds of VmRSS, PSS, private dirty and shared clean. */
static void print_rss(const char *who, const struct start *s, int from, int to)
{
	double vm[ROUNDS], pss[ROUNDS], pd[ROUNDS], sc[ROUNDS], pc[ROUNDS];
	int n = 0;

	for (int i = from; i < to; i++, n++) {
		vm[n] = mb(s[i].rss.vm);
		pss[n] = mb(s[i].rss.pss);
		pd[n] = mb(s[i].rss.pdirty);
		sc[n] = mb(s[i].rss.sclean);
		pc[n] = mb(s[i].rss.pclean);
	}
	printf("   %-5s %7.1f MB VmRSS %7.1f MB PSS %7.1f MB private dirty %7.1f MB private "
	       "clean %7.1f MB shared clean\n", who, median(vm, n), median(pss, n), median(pd, n),
	       median(pc, n), median(sc, n));
}

/* Where one round's resident pages are: gpux, htop (h, may be NULL) and
 * libcurl alone (c, may be NULL). */
static void print_groups(const struct rss *g, const struct rss *h, const struct rss *c)
{
	printf("   where the resident pages are (one round; MB resident / private dirty):\n");
	printf("     %-56s %15s %15s %15s\n", "", "gpux", h != NULL ? "htop" : "",
	       c != NULL ? "libcurl alone" : "");
	for (int i = 0; i < G_N; i++) {
		printf("     %-56s %6.2f / %5.2f", group_names[i], mb(g->g_rss[i]), mb(g->g_dirty[i]));
		if (h != NULL)
			printf("   %6.2f / %5.2f", mb(h->g_rss[i]), mb(h->g_dirty[i]));
		if (c != NULL)
			printf("   %6.2f / %5.2f", mb(c->g_rss[i]), mb(c->g_dirty[i]));
		printf("\n");
	}
	printf("     gpux less TLS and the other libraries (what a build without libcurl keeps): "
	       "%.1f MB\n", mb(g->vm - g->g_rss[G_TLS] - g->g_rss[G_OTHER]));
	if (c != NULL)
		printf("     gpux less libcurl alone (what gpux adds to the floor): %.1f MB\n",
		       mb(g->vm - c->vm));
}

/* The floor under gpux: libcurl alone, beside htop. */
static void print_floor(const struct start *alone, const struct start *htop, bool have_htop)
{
	double a[ROUNDS], h[ROUNDS];

	print_starts("libcurl alone (bench/ref/curl_alone) to its answer", alone, 0, ROUNDS, false);
	if (!have_htop)
		return;
	for (int r = 0; r < ROUNDS; r++) {
		a[r] = alone[r].first;
		h[r] = htop[r].first;
	}
	printf("   libcurl alone ÷ htop first frame (medians) %6.2f   (the floor of a client "
	       "linked with this libcurl)\n", median(a, ROUNDS) / median(h, ROUNDS));
}

static void print_ratios(const struct start *cold, const struct start *warm,
			 const struct start *htop)
{
	double w[ROUNDS], h[ROUNDS];

	for (int r = 0; r < ROUNDS; r++) {
		w[r] = warm[r].priced;
		h[r] = htop[r].first;
	}
	printf("   gpux warm start with prices ÷ htop first frame (medians) %6.2f   "
	       "(target <= 0.10)\n", median(w, ROUNDS) / median(h, ROUNDS));
	for (int r = 1; r < ROUNDS; r++)
		w[r - 1] = cold[r].priced;
	/* the same machine's load weighs on both: steadier than the ms */
	printf("   gpux cold start with prices ÷ htop first frame (medians) %6.2f   "
	       "(30 ms of htop's %.0f ms: %.2f)\n", median(w, ROUNDS - 1) / median(h, ROUNDS),
	       median(h, ROUNDS), 30 / median(h, ROUNDS));
}

/* Rounds of: gpux cold, gpux warm, libcurl alone against the gpuxd gpux
 * started, htop; then the local gpuxd is stopped for the next cold start. */
static void bench_local(const char *gpux, const char *curl_alone, const char *dir)
{
	char *home = xasprintf("%s/local", dir);
	char *argv[] = { (char *)gpux, NULL };
	char *hargv[] = { (char *)"/usr/bin/htop", (char *)"-d", (char *)"100", NULL };
	bool have_htop = access(hargv[0], X_OK) == 0, have_alone = access(curl_alone, X_OK) == 0;
	struct start cold[ROUNDS], warm[ROUNDS], htop[ROUNDS], alone[ROUNDS];

	mkdir(home, 0700);
	printf("   the local demo (no --api), %dx%d, %d rounds:\n", BIG_COLS, BIG_ROWS, ROUNDS);
	for (int r = 0; r < ROUNDS; r++) {
		one_start(argv, home, "Quit", "prices updated", &cold[r]);
		one_start(argv, home, "Quit", "prices updated", &warm[r]);
		char *sock = have_alone ? local_socket(home) : NULL;
		char *aargv[] = { (char *)curl_alone, sock, NULL };
		one_start(aargv, home, "answered", NULL, &alone[r]);
		free(sock);
		if (have_htop)
			one_start(hargv, home, "Quit", NULL, &htop[r]);
		stop_local_gpuxd(home);
	}
	printf("   gpux  very first start (no database yet), to prices %8.1f ms  (first frame %.1f)\n",
	       cold[0].priced, cold[0].first);
	print_starts("gpux  cold start to the first frame with prices", cold, 1, ROUNDS, true);
	print_starts("gpux  warm start to the first frame with prices", warm, 0, ROUNDS, true);
	print_starts("gpux  warm start to the first frame", warm, 0, ROUNDS, false);
	if (have_htop) {
		print_starts("htop  first frame", htop, 0, ROUNDS, false);
		print_ratios(cold, warm, htop);
	} else {
		printf("   htop  not installed (scripts/deps.sh bench installs it)\n");
	}
	if (have_alone)
		print_floor(alone, htop, have_htop);
	else
		printf("   %s not built (make bench builds it)\n", curl_alone);
	printf("   resident memory after the first frame settled, medians of %d rounds:\n", ROUNDS);
	print_rss("gpux", warm, 0, ROUNDS);
	if (have_htop)
		print_rss("htop", htop, 0, ROUNDS);
	if (have_alone)
		print_rss("curl", alone, 0, ROUNDS);
	print_groups(&warm[ROUNDS - 1].rss, have_htop ? &htop[ROUNDS - 1].rss : NULL,
		     have_alone ? &alone[ROUNDS - 1].rss : NULL);
	printf("   targets: cold start <= 30 ms, resident (VmRSS) <= 8 MB\n\n");
	free(home);
}

/* ---- the pieces ---------------------------------------------------------------------- */

static void print_escaped(const char *s, size_t n)
{
	printf("     ");
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == 27)
			printf("\\e");
		else if (c < 32 || c == 127)
			printf("^%c", c ^ 64);
		else
			putchar(c);
	}
	printf("\n");
}

static void bench_gpux(const char *gpux, const char *url_still, const char *url_moving,
		       const char *home)
{
	struct term t;
	char *argv[] = { (char *)gpux, "--api", (char *)url_still, NULL };
	double first, priced;
	size_t mn, md;

	if (spawn(&t, argv, home) != 0) {
		printf("   gpux: forkpty failed: %s\n", strerror(errno));
		return;
	}
	first = read_until(&t, 0, "Quit", 5000);
	priced = read_until(&t, 0, "prices updated", 5000);
	printf("   gpux  first frame                   %8.1f ms   (%zu bytes so far)\n", first,
	       t.out.len);
	printf("   gpux  first frame with live prices  %8.1f ms   (target < 50 ms)\n", priced);
	settle(&t);
	row_moves(&t, &mn, &md);
	printf("   gpux  one row down/up (↓ ↑)         %8zu bytes min, %zu median   (target < 200)\n",
	       mn, md);
	if (getenv("BENCH_TUI_SHOW") != NULL) {
		size_t from = t.out.len;
		if (write(t.fd, "\033OB", 3) == 3) {
			size_t n = read_frame(&t, 1000);
			print_escaped(t.out.data + from, n);
		}
	}
	if (write(t.fd, "g", 1) == 1)
		settle(&t);
	size_t from = t.out.len;
	if (write(t.fd, "\033OC", 3) == 3) {
		size_t n = read_frame(&t, 1000);
		printf("   gpux  one column right (→)          %8zu bytes\n", n);
		if (getenv("BENCH_TUI_SHOW") != NULL)
			print_escaped(t.out.data + from, n);
	}
	stop(&t);

	/* a price change, on an exchange whose demo prices drift */
	char *argv2[] = { (char *)gpux, "--api", (char *)url_moving, NULL };
	if (spawn(&t, argv2, home) != 0)
		return;
	read_until(&t, 0, "prices updated", 5000);
	/* scroll right until the price column is on screen (no sort: rows stay put) */
	if (write(t.fd, "llllll", 6) != 6)
		return;
	settle(&t);
	int64_t end = util_now_us() + 20 * 1000000;
	bool shown = false;
	while (util_now_us() < end && !shown) {
		from = t.out.len;
		size_t n = read_frame(&t, 3000);
		/* a flash: the background of a flash role (red, green or yellow) */
		if (n == 0 || !(has(&t, from, "41m") || has(&t, from, "42m") || has(&t, from, "43m")))
			continue;
		printf("   gpux  one live price change         %8zu bytes (the frame with the new price):\n", n);
		print_escaped(t.out.data + from, n);
		from = t.out.len;
		size_t m = read_next_frame(&t, 1500);
		printf("   gpux  the next frame (flash ends)   %8zu bytes:\n", m);
		print_escaped(t.out.data + from, m);
		shown = true;
	}
	if (!shown)
		printf("   gpux  one live price change: no change seen in 20 s\n");
	stop(&t);
}

static void bench_htop(const char *home)
{
	const char *htop = access("/usr/bin/htop", X_OK) == 0 ? "/usr/bin/htop" : NULL;
	struct term t;
	size_t mn, md;

	if (htop == NULL) {
		printf("   htop  not installed (scripts/deps.sh bench installs it)\n");
		return;
	}
	char *argv[] = { (char *)htop, "-d", "100", NULL };
	if (spawn(&t, argv, home) != 0)
		return;
	double first = read_until(&t, 0, "Quit", 5000);
	printf("   htop  first frame                   %8.1f ms   (%zu bytes so far)\n", first,
	       t.out.len);
	settle(&t);
	row_moves(&t, &mn, &md);
	printf("   htop  one row down/up (↓ ↑)         %8zu bytes min, %zu median\n", mn, md);
	stop(&t);
}

int main(int argc, char **argv)
{
	char *bindir = dir_of(argc > 0 ? argv[0] : ".");
	char *gpux = getenv("GPUX") ? xstrdup(getenv("GPUX")) : xasprintf("%s/../gpux", bindir);
	char *gpuxd = getenv("GPUXD") ? xstrdup(getenv("GPUXD")) : xasprintf("%s/../gpuxd", bindir);
	char tmpl[] = "/tmp/bench_tui.XXXXXX";
	char *dir = mkdtemp(tmpl), *url_still = NULL, *url_moving = NULL;
	pid_t still, moving;

	signal(SIGPIPE, SIG_IGN);
	if (dir == NULL)
		fatal("bench_tui: mkdtemp: %s", strerror(errno));
	printf("   TERM=xterm-256color, LANG=C.UTF-8; a frame ends after %d ms of quiet\n", QUIET_MS);
	char *curl_alone = xasprintf("%s/ref/curl_alone", bindir);
	bench_local(gpux, curl_alone, dir);
	free(curl_alone);
	printf("   over TCP, terminal %dx%d:\n", COLS, ROWS);
	still = start_gpuxd(gpuxd, dir, "still", "0.001", &url_still);
	moving = start_gpuxd(gpuxd, dir, "moving", "1", &url_moving);
	if (url_still == NULL || url_moving == NULL) {
		printf("   gpuxd did not start (%s); the TUI figures are skipped\n", gpuxd);
	} else {
		bench_gpux(gpux, url_still, url_moving, dir);
	}
	bench_htop(dir);
	if (still > 0) {
		kill(still, SIGTERM);
		waitpid(still, NULL, 0);
	}
	if (moving > 0) {
		kill(moving, SIGTERM);
		waitpid(moving, NULL, 0);
	}
	char *rm = xasprintf("rm -rf '%s'", dir);
	if (system(rm) != 0)
		printf("   (could not remove %s)\n", dir);
	free(rm);
	free(url_still);
	free(url_moving);
	free(gpux);
	free(gpuxd);
	free(bindir);
	return 0;
}
