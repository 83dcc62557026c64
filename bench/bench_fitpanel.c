/*
 * bench/bench_fitpanel.c — how long a keystroke in the fit panel takes to
 * become the updated frame, with all 15 GPUs recomputed. Two measurements:
 *
 *   build/bench/bench_fitpanel [KEYS]       (default 2,000 in-process, 200 through the pty)
 *
 * 1. In process, the work a keystroke causes, timed per keystroke: the form
 *    re-read (tui_ff_set_text: parse, preset search, job check), the view
 *    rebuilt with the job (view_set_job on the 15-GPU inference table:
 *    fit_evaluate and GPUs-needed search per GPU, every cell formatted, the
 *    sort), then everything drawn into cells as the screen would show it at
 *    200×50: the table's header and 15 rows (wtable_reload +
 *    wtable_render_line, 144 columns beside the panel) and the panel's
 *    answer, detailed and compact (tui_fit_answer_lines). No terminal.
 *    Keystrokes alternate the model between 7 and 70 (typing "0", then
 *    Backspace), so every one changes the job.
 *
 * 2. Through a pseudo-terminal, the real gpux (build/gpux next to
 *    build/bench), 200×50, TERM=xterm-256color, the inference tab, the panel
 *    opened with f and "7" typed, then the same keystrokes written to the
 *    pty master: the time from write() to the last byte of the frame that
 *    answers it (the output is read until it has been quiet for 5 ms; the
 *    quiet time is not counted), and the bytes of that frame. gpux is given
 *    an exchange that refuses connections (--api http://127.0.0.1:9), so no
 *    price arrives during the run.
 *
 * Prints p50/p90/p99/max in microseconds; the target is well under one frame
 * at 60 Hz (16 ms). Figures are printed, never asserted.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "data/catalog.h"
#include "fit/fit.h"
#include "i18n/i18n.h"
#include "tui/fitpanel/fitform.h"
#include "util/util.h"
#include "view/view.h"
#include "widgets/widgets.h"

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static void report(const char *what, int64_t *ns, size_t n)
{
	if (n == 0) {
		printf("  %-44s no samples\n", what);
		return;
	}
	qsort(ns, n, sizeof *ns, cmp_i64);
	printf("  %-44s p50 %7.1f us  p90 %7.1f us  p99 %7.1f us  max %7.1f us  (%zu keys)\n", what,
	       ns[n / 2] / 1e3, ns[n * 9 / 10] / 1e3, ns[n * 99 / 100] / 1e3, ns[n - 1] / 1e3, n);
}

/* ---- 1. in process ------------------------------------------------------------- */

struct src {
	struct view_table *v;
};

static size_t s_rows(void *ctx) { return ((struct src *)ctx)->v->n_shown; }
static size_t s_cols(void *ctx) { return ((struct src *)ctx)->v->n_columns; }

static void s_header(void *ctx, size_t col, struct wcells *out)
{
	wcells_add(out, ((struct src *)ctx)->v->columns[col].label, WR_HEADER, 0);
}

/* As tui/market/browse.c's formatter: a dimmed row, ✓ good, ✗ bad. */
static void s_cell(void *ctx, size_t row, size_t col, struct wcells *out)
{
	struct view_table *v = ((struct src *)ctx)->v;
	const struct view_row *r = view_shown_row(v, row);
	const struct view_cell *c = &r->cells[col];
	enum wrole role = WR_NORMAL;

	if (c->flags & VIEW_CELL_UNKNOWN)
		role = WR_DIM;
	else if (v->columns[col].kind == VIEW_COL_JOB_FITS)
		role = c->flag ? WR_GOOD : WR_BAD;
	if (r->flags & VIEW_ROW_DIMMED)
		role = WR_DIM;
	wcells_add(out, c->display, role, 0);
}

static enum walign s_align(void *ctx, size_t col)
{
	enum view_align a = ((struct src *)ctx)->v->columns[col].align;
	return a == VIEW_RIGHT ? WALIGN_RIGHT : a == VIEW_CENTER ? WALIGN_CENTER : WALIGN_LEFT;
}

static void in_process(const struct catalog *cat, size_t keys)
{
	const struct catalog_workload *w = catalog_workload(cat, "inference");
	struct view_price prices[32];
	size_t np = 0;
	struct view_prices p;
	struct tui_ff ff;
	struct wui ui;
	struct src s;
	struct wtable *tbl;
	struct wcells line;
	int64_t *ns = xcalloc(keys, sizeof *ns), *ns_form = xcalloc(keys, sizeof *ns),
		*ns_view = xcalloc(keys, sizeof *ns), *ns_draw = xcalloc(keys, sizeof *ns);
	size_t cells = 0;

	for (size_t i = 0; i < cat->n_gpus && np < 32; i++)
		prices[np++] = (struct view_price){ .gpu_id = cat->gpus[i].id, .cents = 100 + 37 * (int64_t)i };
	p = (struct view_prices){ prices, np, false };
	i18n_init(I18N_EN);
	wui_init(&ui, &wtheme_mono, false, false);
	tui_ff_init(&ff, cat, I18N_EN, false);
	tui_ff_set_text(&ff, FF_MODEL, "7");
	s.v = view_new(cat, w, &p, &ff.job, I18N_EN, false);
	struct wtable_source src = { .ctx = &s, .rows = s_rows, .cols = s_cols, .header = s_header,
				     .cell = s_cell, .align = s_align };
	tbl = wtable_new(&ui, &src);
	wcells_init(&line, false);
	printf("in process: a keystroke → form → view of %zu GPUs → table and panel as cells (200x50)\n",
	       s.v->n_rows);
	for (size_t k = 0; k < keys; k++) {
		int64_t t0 = now_ns(), t1, t2;
		bool changed = tui_ff_set_text(&ff, FF_MODEL, k % 2 == 0 ? "70" : "7");
		t1 = now_ns();
		if (!changed || !ff.valid)
			fatal("bench: the job did not change");
		view_set_job(s.v, &ff.job);
		wtable_reload(tbl, true);
		t2 = now_ns();
		wtable_render_line(tbl, SIZE_MAX, 144, &line);
		cells += line.len;
		for (size_t r = 0; r < s.v->n_shown; r++) {
			wtable_render_line(tbl, r, 144, &line);
			cells += line.len;
		}
		for (int d = 0; d < 2; d++) {
			struct wcells *l;
			size_t n = tui_fit_answer_lines(&ff, view_shown_row(s.v, 0), d ? 54 : 200, d,
							false, &l);
			for (size_t i = 0; i < n; i++) {
				cells += l[i].len;
				wcells_free(&l[i]);
			}
			free(l);
		}
		ns[k] = now_ns() - t0;
		ns_form[k] = t1 - t0;
		ns_view[k] = t2 - t1;
		ns_draw[k] = ns[k] - (t2 - t0);
	}
	report("form (parse, search, job check)", ns_form, keys);
	report("view_set_job + table reload (15 GPUs)", ns_view, keys);
	report("table rows + panel answer into cells", ns_draw, keys);
	report("keystroke -> frame in cells, total", ns, keys);
	printf("  (%zu cells drawn per keystroke)\n", cells / keys);
	wcells_free(&line);
	wtable_free(&tbl);
	view_free(&s.v);
	tui_ff_free(&ff);
	free(ns);
	free(ns_form);
	free(ns_view);
	free(ns_draw);
}

/* ---- 2. through a pseudo-terminal ------------------------------------------------------ */

/* Read what the terminal shows until it has been quiet for quiet_ms (or
 * limit_ms passed); returns the bytes read, *last_ns the time of the last. */
static size_t drain(int fd, int quiet_ms, int limit_ms, int64_t *last_ns)
{
	char buf[65536];
	size_t total = 0;
	int64_t start = now_ns();

	*last_ns = 0;
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int left = limit_ms - (int)((now_ns() - start) / 1000000);
		if (left <= 0)
			break;
		int rc = poll(&pfd, 1, quiet_ms < left ? quiet_ms : left);
		if (rc <= 0)
			break;
		ssize_t n = read(fd, buf, sizeof buf);
		if (n <= 0)
			break;
		*last_ns = now_ns();
		total += (size_t)n;
	}
	return total;
}

static void send_keys(int fd, const char *s)
{
	size_t n = strlen(s);
	if (write(fd, s, n) != (ssize_t)n)
		fatal("bench: write to the pty: %s", strerror(errno));
}

static void through_pty(const char *gpux, size_t keys)
{
	struct winsize ws = { .ws_row = 50, .ws_col = 200 };
	int master;
	pid_t pid;
	int64_t last, t0, first_frame;
	int64_t *ns = xcalloc(keys, sizeof *ns);
	size_t *bytes = xcalloc(keys, sizeof *bytes), nb = 0, total_bytes = 0;
	char tmp[] = "/tmp/gpux-bench.XXXXXX";

	if (access(gpux, X_OK) != 0) {
		printf("through a pty: %s not found (make build/gpux): skipped\n", gpux);
		free(ns);
		free(bytes);
		return;
	}
	if (mkdtemp(tmp) == NULL)
		fatal("bench: mkdtemp: %s", strerror(errno));
	t0 = now_ns();
	pid = forkpty(&master, NULL, NULL, &ws);
	if (pid < 0)
		fatal("bench: forkpty: %s", strerror(errno));
	if (pid == 0) {
		/* a private config home: no remembered columns, no key */
		setenv("HOME", tmp, 1);
		setenv("XDG_CONFIG_HOME", tmp, 1);
		setenv("XDG_RUNTIME_DIR", tmp, 1);
		setenv("TERM", "xterm-256color", 1);
		setenv("LANG", "C.UTF-8", 1);
		unsetenv("LC_ALL");
		unsetenv("NO_COLOR");
		execl(gpux, "gpux", "--api", "http://127.0.0.1:9", (char *)NULL);
		_exit(127);
	}
	size_t n0 = drain(master, 100, 5000, &last);
	first_frame = last - t0;
	printf("through a pty: gpux 200x50, TERM=xterm-256color (first frame %.1f ms, %zu bytes)\n",
	       first_frame / 1e6, n0);
	/* the inference tab (15 GPUs), the panel, a model */
	send_keys(master, "3");
	drain(master, 50, 2000, &last);
	send_keys(master, "f");
	drain(master, 50, 2000, &last);
	send_keys(master, "7");
	drain(master, 50, 2000, &last);
	for (size_t k = 0; k < keys; k++) {
		int64_t start = now_ns();
		send_keys(master, k % 2 == 0 ? "0" : "\177");
		size_t n = drain(master, 5, 1000, &last);
		if (n == 0 || last == 0)
			continue;
		ns[nb] = last - start;
		bytes[nb++] = n;
		total_bytes += n;
	}
	report("keystroke -> last byte of the frame", ns, nb);
	if (nb > 0)
		printf("  %-44s %zu bytes per keystroke on average\n", "frame size", total_bytes / nb);
	send_keys(master, "\033");
	drain(master, 20, 500, &last);
	send_keys(master, "q");
	drain(master, 50, 2000, &last);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	close(master);
	{
		/* remove the private directory (gpux may have written its config) */
		char *cmd = xasprintf("rm -rf '%s'", tmp);
		if (system(cmd) != 0) {
			/* nothing to do */
		}
		free(cmd);
	}
	free(ns);
	free(bytes);
}

int main(int argc, char **argv)
{
	struct catalog *cat;
	char *cause = NULL;
	size_t keys = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000;
	char *dir, *gpux, *slash;

	if (keys < 10)
		keys = 10;
	if (catalog_load(NULL, &cat, &cause) != 0)
		fatal("bench: catalogue: %s", cause);
	in_process(cat, keys);
	catalog_free(&cat);

	/* build/bench/bench_fitpanel → build/gpux */
	dir = xstrdup(argv[0]);
	slash = strrchr(dir, '/');
	if (slash != NULL)
		*slash = '\0';
	else
		strcpy(dir, ".");
	gpux = xasprintf("%s/../gpux", dir);
	through_pty(gpux, keys / 10 > 20 ? keys / 10 : 20);
	free(gpux);
	free(dir);
	return 0;
}
