/*
 * The application loop (tmux's server loop and htop's ScreenManager, cut to
 * what gpux needs):
 *
 *   loop: start due exchange requests → draw one frame → poll(keyboard,
 *         signal pipe, exchange sockets; timeout = nearest timer) →
 *         signals → keys → api_perform() → flash ends
 *
 * A frame renders only the widgets that are dirty or touched (each
 * wnoutrefresh()) and ends with one doupdate(); a frame with nothing to show
 * writes nothing. There is no periodic clear(): ncurses sends only the cells
 * that differ, and a redraw of the whole screen happens only on Ctrl-L and
 * after a resize.
 *
 * Signals: handlers only write the signal number into a self-pipe that poll()
 * watches, so a resize or a SIGTERM is handled between frames. They are
 * installed before newterm() so ncurses keeps out of SIGINT/SIGTERM/SIGWINCH
 * (it still handles SIGTSTP). The terminal is restored by the normal exit,
 * by the fatal() hook, by atexit() and by the crash handlers.
 *
 * The terminal: stdin and stdout must be terminals and TERM known and not
 * "dumb"; otherwise a message points to the scriptable commands. UTF-8 is
 * used when LC_CTYPE is UTF-8 (C.UTF-8 is tried when the user's UTF-8 locale
 * is not installed), else the ASCII fallback; NO_COLOR or a terminal without
 * colours gives the monochrome theme. Below 20×6 a centred notice replaces
 * the screen.
 */
#include "tui/tui_int.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "i18n/i18n.h"
#include "util/util.h"

enum { MAX_API_FDS = 32 };

static int sig_pipe[2] = { -1, -1 };
static volatile sig_atomic_t term_active;
static SCREEN *screen;

static const int loop_signals[] = { SIGWINCH, SIGTERM, SIGINT, SIGHUP };
static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
static struct sigaction old_loop[4], old_crash[5], old_pipe;

static void restore_terminal(void)
{
	if (term_active) {
		term_active = 0;
		if (!isendwin())
			endwin();
	}
}

static void on_signal(int sig)
{
	int e = errno;
	unsigned char c = (unsigned char)sig;

	if (sig_pipe[1] >= 0 && write(sig_pipe[1], &c, 1) < 0) {
		/* the pipe is full: a signal is already pending */
	}
	errno = e;
}

static void on_crash(int sig)
{
	restore_terminal();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	for (size_t i = 0; i < sizeof loop_signals / sizeof loop_signals[0]; i++)
		sigaction(loop_signals[i], &sa, &old_loop[i]);
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
		sigaction(crash_signals[i], &sa, &old_crash[i]);
	sa.sa_handler = SIG_IGN;
	sa.sa_flags = 0;
	sigaction(SIGPIPE, &sa, &old_pipe);
}

static void uninstall_signals(void)
{
	for (size_t i = 0; i < sizeof loop_signals / sizeof loop_signals[0]; i++)
		sigaction(loop_signals[i], &old_loop[i], NULL);
	for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
		sigaction(crash_signals[i], &old_crash[i], NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
}

/* ---- locale -------------------------------------------------------------------- */

static bool env_says_utf8(void)
{
	const char *vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };

	for (size_t i = 0; i < 3; i++) {
		const char *v = getenv(vars[i]);
		if (v != NULL && v[0] != '\0')
			return strcasestr(v, "utf-8") != NULL || strcasestr(v, "utf8") != NULL;
	}
	return false;
}

/* Set LC_CTYPE for ncursesw and wcwidth; true when it is UTF-8. */
static bool pick_ctype(void)
{
	if (setlocale(LC_CTYPE, "") == NULL && env_says_utf8())
		setlocale(LC_CTYPE, "C.UTF-8");
	return strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

/* ---- messages ------------------------------------------------------------------- */

void tui_message(struct tui *t, const char *msg)
{
	free(t->msg);
	t->msg = msg ? xstrdup(msg) : NULL;
	t->msg_until = util_now_ms() + TUI_MSG_MS;
}

void tui_relayout(struct tui *t)
{
	t->need_layout = true;
}

/* ---- layout and frames --------------------------------------------------------------- */

static void place_overlay(struct tui *t)
{
	if (t->overlay == NULL)
		return;
	switch (t->ov) {
	case OV_HELP: whelp_place((struct whelp *)t->overlay, t->lines, t->cols); break;
	case OV_COLUMNS: wchecklist_place((struct wchecklist *)t->overlay, t->lines, t->cols); break;
	case OV_DIALOG: wdialog_place((struct wdialog *)t->overlay, t->lines, t->cols); break;
	case OV_LANG: tui_lang_place(t); break; /* lang.c */
	case OV_NONE: break;
	}
}

static void layout(struct tui *t)
{
	t->need_layout = false;
	getmaxyx(stdscr, t->lines, t->cols);
	t->too_small = t->cols < TUI_MIN_COLS || t->lines < TUI_MIN_LINES;
	t->small_dirty = t->too_small;
	if (t->too_small) {
		wwidget_hide(&t->tabs->base);
		wwidget_hide(&t->table->base);
		wwidget_hide(&t->status->base);
		wwidget_hide(&t->fkeys->base);
		if (t->filter != NULL)
			wwidget_hide(&t->filter->base);
		if (t->overlay != NULL)
			wwidget_hide(t->overlay);
		tui_trade_layout(t); /* order.c */
		tui_fit_place(t, 0, 0, 0, 0); /* fitpanel.c: hidden */
		return;
	}
	wwidget_place(&t->tabs->base, 0, 0, 1, t->cols);
	wwidget_place(&t->table->base, 1, 0, t->lines - 3, t->cols);
	tui_fit_place(t, 1, 0, t->lines - 3, t->cols); /* fitpanel.c: beside or below the table */
	wwidget_place(&t->status->base, t->lines - 2, 0, 1, t->cols);
	if (t->filter != NULL) {
		wwidget_hide(&t->fkeys->base);
		wwidget_place(&t->filter->base, t->lines - 1, 0, 1, t->cols);
		leaveok(t->filter->base.win, FALSE);
	} else {
		wwidget_place(&t->fkeys->base, t->lines - 1, 0, 1, t->cols);
	}
	place_overlay(t);
	/* windows were made afresh: let the table keep its cursor in view */
	wtable_select(t->table, t->table->sel);
	tui_trade_layout(t); /* order.c: a page over the tables */
}

static void draw_too_small(struct tui *t)
{
	char *msg = xasprintf(_("Terminal too small (%d\u00d7%d): gpux needs at least %d\u00d7%d. "
				"Enlarge it, or press q to quit."),
			      t->cols, t->lines, TUI_MIN_COLS, TUI_MIN_LINES);
	char **lines;
	/* never the bottom-right cell (a terminal may scroll when it is written) */
	int width = t->cols > 1 ? t->cols - 1 : 0;
	size_t n = width > 0 ? wtext_wrap(msg, width, t->ascii, &lines) : 0;
	struct wcells c;
	int y0 = (int)(t->lines - (int)n) / 2;

	if (y0 < 0)
		y0 = 0;
	werase(stdscr);
	wcells_init(&c, t->ascii);
	for (size_t i = 0; i < n && y0 + (int)i < t->lines; i++) {
		wcells_reset(&c);
		wcells_add(&c, lines[i], WR_NORMAL, 0);
		wcells_fit(&c, width, WALIGN_CENTER, WR_NORMAL);
		wcells_draw(&c, stdscr, y0 + (int)i, 0, width, &t->ui);
	}
	wcells_free(&c);
	if (n > 0)
		wtext_lines_free(lines, n);
	free(msg);
	wnoutrefresh(stdscr);
	doupdate();
}

static void frame(struct tui *t)
{
	bool any = false;
	int64_t now = util_now_ms();

	if (t->need_layout)
		layout(t);
	if (t->too_small) {
		if (t->small_dirty)
			draw_too_small(t);
		t->small_dirty = false;
		curs_set(0);
		return;
	}
	tui_status_update(t, now);
	any |= wwidget_render(&t->tabs->base);
	any |= tui_fit_render(t); /* fitpanel.c: before the table (puts the job into its view) */
	any |= wwidget_render(&t->table->base);
	any |= wwidget_render(&t->status->base);
	if (t->filter != NULL)
		any |= wwidget_render(&t->filter->base);
	else
		any |= wwidget_render(&t->fkeys->base);
	any |= tui_trade_render(t, any); /* order.c */
	if (t->overlay != NULL) {
		if (any)
			wwidget_touch(t->overlay);
		any |= wwidget_render(t->overlay);
	}
	if (t->filter != NULL && t->overlay == NULL) {
		int y, x;
		if (wfield_cursor(t->filter, &y, &x)) {
			wmove(t->filter->base.win, 0, x - t->filter->base.x);
			wnoutrefresh(t->filter->base.win);
			curs_set(1);
			any = true;
		}
	} else if (t->overlay == NULL && tui_trade_cursor(t)) { /* order.c */
		curs_set(1);
		any = true;
	} else if (t->overlay == NULL && tui_fit_cursor(t)) { /* fitpanel.c */
		curs_set(1);
		any = true;
	} else {
		curs_set(0);
	}
	if (any)
		doupdate();
}

/* Flash starts and ends, and the clock: mark what must be drawn again. */
static void check_time(struct tui *t, uint64_t *last_flash_sig)
{
	int64_t now = util_now_ms();
	uint64_t sig = 1469598103934665603u; /* FNV-1a over which GPUs flash */

	for (size_t g = 0; g < t->cat->n_gpus; g++)
		sig = (sig ^ (uint64_t)(tui_flash(t, g, now) != 0)) * 1099511628211u;
	if (sig != *last_flash_sig) {
		*last_flash_sig = sig;
		wwidget_dirty(&t->table->base);
	}
	if (t->msg != NULL && now >= t->msg_until) {
		free(t->msg);
		t->msg = NULL;
	}
}

/* ---- input ------------------------------------------------------------------------------ */

static void resize_from_tty(struct tui *t)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
		resize_term(ws.ws_row, ws.ws_col);
	clearok(curscr, TRUE);
	tui_relayout(t);
}

static void read_signals(struct tui *t)
{
	unsigned char buf[64];
	ssize_t n;

	while ((n = read(sig_pipe[0], buf, sizeof buf)) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == SIGWINCH) {
				resize_from_tty(t);
			} else {
				t->quit = true;
				t->exit_status = 128 + buf[i];
			}
		}
	}
}

static void mouse_event(struct tui *t)
{
	MEVENT me;
	struct wevent ev = { .type = WEV_MOUSE };

	if (getmouse(&me) != OK)
		return;
	ev.y = me.y;
	ev.x = me.x;
	if (me.bstate & BUTTON4_PRESSED)
		ev.mouse = WM_WHEEL_UP;
#ifdef BUTTON5_PRESSED
	else if (me.bstate & BUTTON5_PRESSED)
		ev.mouse = WM_WHEEL_DOWN;
#endif
	else if (me.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
		ev.mouse = WM_CLICK;
	else if (me.bstate & BUTTON1_DOUBLE_CLICKED)
		ev.mouse = WM_DOUBLE;
	else
		return;
	tui_handle_event(t, &ev);
}

static void read_keys(struct tui *t)
{
	for (int i = 0; i < 256 && !t->quit; i++) {
		wint_t ch;
		int rc = wget_wch(t->inwin, &ch);
		if (rc == ERR)
			break;
		if (rc == KEY_CODE_YES && ch == KEY_MOUSE) {
			mouse_event(t);
			continue;
		}
		if (rc == KEY_CODE_YES && ch == KEY_RESIZE) {
			tui_relayout(t);
			continue;
		}
		struct wevent ev = { .type = WEV_KEY, .key = wkey_from_curses(rc, ch) };
		tui_handle_event(t, &ev);
	}
}

/* ---- set-up and tear-down ----------------------------------------------------------------- */

static int refuse(const char *why)
{
	fprintf(stderr, "gpux: %s\n", why);
	fprintf(stderr, "gpux: %s\n",
		_("the same data without the interactive screen: gpux table training "
		  "(or finetune, inference, imagegen, rendering, hpc), gpux fit, gpux quotes; "
		  "see gpux --help"));
	return 1;
}

static bool setup_terminal(struct tui *t)
{
	const char *term = getenv("TERM");

	screen = newterm(NULL, stdout, stdin);
	if (screen == NULL)
		return false;
	set_term(screen);
	term_active = 1;
	util_set_fatal_hook(restore_terminal);
	atexit(restore_terminal);
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	set_escdelay(25);
	curs_set(0);
	t->inwin = newwin(1, 1, 0, 0);
	keypad(t->inwin, TRUE);
	nodelay(t->inwin, TRUE);
	untouchwin(t->inwin);
	leaveok(stdscr, TRUE);
	mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
		  | BUTTON5_PRESSED
#endif
		  , NULL);
	mouseinterval(0);
	/* a real VT100 has neither colour nor UTF-8 */
	if (term != NULL && strncmp(term, "vt1", 3) == 0)
		t->ascii = true;
	wui_init(&t->ui, wui_want_color() ? &wtheme_color : &wtheme_mono, t->ascii, true);
	return true;
}

static void teardown_terminal(struct tui *t)
{
	if (t->inwin != NULL)
		delwin(t->inwin);
	t->inwin = NULL;
	restore_terminal();
	if (screen != NULL)
		delscreen(screen);
	screen = NULL;
	util_set_fatal_hook(NULL);
}

/* lang.c calls this again after a language switch */
void tui_fkeys_fill(struct tui *t)
{
	wfkeys_clear(t->fkeys);
	wfkeys_add(t->fkeys, WKEY_F1, "F1", _("Help"));
	wfkeys_add(t->fkeys, WKEY_F2, "F2", _("Columns"));
	wfkeys_add(t->fkeys, WKEY_F3, "F3", _("Filter"));
	wfkeys_add(t->fkeys, WKEY_F4, "F4", _("Fit")); /* fitpanel.c */
	wfkeys_add(t->fkeys, WKEY_F5, "F5", _("Buy")); /* order.c */
	wfkeys_add(t->fkeys, WKEY_F6, "F6", _("Sort"));
	wfkeys_add(t->fkeys, WKEY_F10, "F10", _("Quit"));
}

static void make_widgets(struct tui *t)
{
	t->status = wstatus_new(&t->ui);
	t->fkeys = wfkeys_new(&t->ui);
	tui_fkeys_fill(t);
	tui_browse_init(t);
}

static void free_all(struct tui *t)
{
	tui_trade_free(t); /* order.c */
	tui_fit_free(t); /* fitpanel.c */
	wwidget_free(&t->overlay);
	wfield_free(&t->filter);
	tui_browse_free(t);
	wstatus_free(&t->status);
	wfkeys_free(&t->fkeys);
	tui_market_free(t);
	if (t->api_owned)
		api_client_free(&t->api);
	free(t->api_error);
	free(t->msg);
	free(t->conf_path);
}

static void run_loop(struct tui *t)
{
	struct pollfd fds[2 + MAX_API_FDS];
	uint64_t last_flash = 0;

	while (!t->quit) {
		int64_t now = util_now_ms();
		int timeout = -1, n = 2;

		if (t->api != NULL)
			timeout = tui_market_tick(t, now);
		tui_trade_tick(t, now, &timeout); /* order.c */
		int64_t next = tui_market_next_change(t, now);
		if (next >= 0 && (timeout < 0 || next - now < timeout))
			timeout = next <= now ? 0 : (int)(next - now);
		check_time(t, &last_flash);
		frame(t);
		fds[0] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
		fds[1] = (struct pollfd){ .fd = sig_pipe[0], .events = POLLIN };
		if (t->api != NULL)
			n += api_fds(t->api, fds + 2, MAX_API_FDS, &timeout);
		if (poll(fds, (nfds_t)n, timeout) < 0 && errno != EINTR)
			break;
		if (fds[1].revents & POLLIN)
			read_signals(t);
		if (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL)) {
			/* the terminal went away */
			t->quit = true;
			t->exit_status = 128 + SIGHUP;
		}
		if (!t->quit && (fds[0].revents & POLLIN))
			read_keys(t);
		if (t->api != NULL && !t->quit)
			api_perform(t->api);
	}
}

int tui_run(const struct tui_options *o)
{
	struct tui tui, *t = &tui;
	const char *term = getenv("TERM");
	bool utf8;
	char *cause = NULL;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return refuse(_("the interactive screen needs a terminal, and input or output is "
				"not one"));
	if (term == NULL || term[0] == '\0' || strcmp(term, "dumb") == 0)
		return refuse(_("the interactive screen needs a terminal that can move the cursor "
				"(TERM is unset or \"dumb\")"));
	memset(t, 0, sizeof *t);
	t->opts = *o;
	t->o = &t->opts; /* lang.c changes t->opts.lang */
	t->cat = o->catalog;
	utf8 = pick_ctype();
	t->ascii = o->ascii || !utf8;
	if (o->config_path != NULL)
		t->conf_path = o->config_path[0] != '\0' ? xstrdup(o->config_path) : NULL;
	else
		t->conf_path = api_conf_path();

	/* the exchange first: the local demo exchange may take a while to start */
	if (o->client != NULL) {
		t->api = o->client;
	} else if (o->api != NULL || o->open != NULL) {
		t->api = o->api != NULL ? api_client_new(o->api, &cause) : api_open(o->open, NULL, &cause);
		t->api_owned = t->api != NULL;
		if (t->api == NULL) {
			t->api_error = xasprintf(_("no exchange: %s"), cause ? cause : "?");
			free(cause);
		}
	}
	if (pipe2(sig_pipe, O_NONBLOCK | O_CLOEXEC) != 0) {
		int rc = refuse(strerror(errno));
		free_all(t);
		return rc;
	}
	install_signals();
	if (!setup_terminal(t)) {
		uninstall_signals();
		close(sig_pipe[0]);
		close(sig_pipe[1]);
		sig_pipe[0] = sig_pipe[1] = -1;
		char *m = xasprintf(_("the terminal type \"%s\" is unknown here"), term);
		int rc = refuse(m);
		free(m);
		free_all(t);
		return rc;
	}
	tui_market_init(t);
	make_widgets(t);
	t->need_layout = true;
	run_loop(t);
	teardown_terminal(t);
	free_all(t);
	uninstall_signals();
	close(sig_pipe[0]);
	close(sig_pipe[1]);
	sig_pipe[0] = sig_pipe[1] = -1;
	return t->exit_status;
}
