/*
 * The application loop (tmux's server loop and htop's ScreenManager, cut to
 * what gpux needs):
 *
 *   loop: tick (the screens, then the feed: start due exchange requests;
 *         the poll timeout) → frame → poll(keyboard, signal pipe, the
 *         client's and the streams' sockets) → signals → keys →
 *         api_perform(), the streams' perform (replies store plain data:
 *         the market table, the account)
 *
 *   frame: recalc (each screen pulls what changed: the market's, the
 *          account's and the fit job's generation counters) → layout when
 *          asked → the status and F-key bars → render (the bars, then every
 *          shown screen's widgets bottom-up) → cursor from the focused
 *          screen → one doupdate()
 *
 * The screens are a stack (tui/frame/screen.h, tui/frame/stack.c); this file
 * makes the bottom one (the browse tables) and gives the session the table
 * of places (tui/screens.c) through which the others are opened (the first
 * run's welcome too, by its place); of the screens it names only the
 * frame's own overlays, the help and the language menu, which its keys
 * open. Its own widgets are the status bar and the F-key bar (made from the
 * key maps of the screens shown). Events go to the F-key bar (a
 * click), the top screen, then the focused one, then the keys that are the
 * same everywhere (q, F10, Ctrl-L, F1 and ?, L), which live only here. A
 * frame renders only the widgets that are dirty or touched (each
 * wnoutrefresh()) and ends with one doupdate(); a frame with nothing to
 * show writes nothing. There is no periodic clear(): ncurses sends only the
 * cells that differ, and a redraw of the whole screen happens only on
 * Ctrl-L and after a resize.
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

/* For the F-key bar (struct wui key_alt), an F-key the terminal lacks: the
 * letter that does the same, from the maps of the screens shown, then the
 * global keys; none while a field has the keyboard (a letter would be
 * typed there). */
static wkey key_alt(void *ctx, wkey fkey)
{
	struct tui *t = ctx;
	wkey k;

	if (tui_stack_typing(t))
		return WKEY_NONE;
	size_t n;
	const struct wbinding *global = tui_frame_map(t, &n);

	k = tui_stack_key_alt(t, global, n, fkey);
	return k == 0 ? WKEY_NONE : k;
}

void tui_keys_resolve(struct tui *t)
{
	t->ui.key_alt = key_alt;
	t->ui.key_alt_ctx = t;
}

/* A click on the F-key bar stands for its key. */
static bool fkeys_click(struct tui *t, const struct wevent *ev, unsigned *r)
{
	struct wevent k = { .type = WEV_KEY };

	if (ev->type != WEV_MOUSE || t->too_small || !wwidget_contains(&t->fkeys->base, ev->y, ev->x))
		return false;
	*r = W_HANDLED;
	if (wwidget_handle(&t->fkeys->base, ev) & W_ACTION) {
		k.key = t->fkeys->clicked;
		*r |= tui_handle_event(t, &k);
	}
	return true;
}

unsigned tui_handle_event(struct tui *t, const struct wevent *ev)
{
	unsigned r = W_IGNORED;

	if (fkeys_click(t, ev, &r))
		return r;
	/* below the smallest size only the global keys work */
	if (!t->too_small)
		r = tui_stack_event(t, ev);
	if (!(r & W_HANDLED))
		r |= tui_frame_key(t, ev);
	if (!(r & W_HANDLED) && ev->type == WEV_KEY && !t->too_small)
		tui_key_unknown(t, ev->key);
	if (r & W_QUIT)
		t->quit = true;
	if (r & W_LAYOUT)
		tui_relayout(t);
	if (r & (W_HANDLED | W_REDRAW))
		t->redraw = true;
	return r;
}

/* ---- layout and frames --------------------------------------------------------------- */

static void layout(struct tui *t)
{
	t->need_layout = false;
	getmaxyx(stdscr, t->lines, t->cols);
	t->too_small = t->cols < TUI_MIN_COLS || t->lines < TUI_MIN_LINES;
	t->small_dirty = t->too_small;
	if (t->too_small) {
		wwidget_hide(&t->status->base);
		wwidget_hide(&t->fkeys->base);
		tui_stack_layout(t); /* every screen hides */
		return;
	}
	wwidget_place(&t->status->base, t->lines - 2, 0, 1, t->cols);
	if (tui_stack_layout(t))
		wwidget_place(&t->fkeys->base, t->lines - 1, 0, 1, t->cols);
	else
		wwidget_hide(&t->fkeys->base);
	/* every window was made afresh: copy all of them */
	tui_stack_touch(t);
	wwidget_touch(&t->status->base);
	wwidget_touch(&t->fkeys->base);
}

/* The notice for a terminal below the minimum, wrapped to width: the whole
 * sentence, else a short one when the sentence takes more rows than there
 * are (so "q" is still said). Its lines and their count. */
static size_t too_small_lines(const struct tui *t, int width, char ***lines)
{
	char *msg = xasprintf(_("Terminal too small (%d\u00d7%d): gpux needs at least %d\u00d7%d. "
				"Enlarge it, or press q to quit."),
			      t->cols, t->lines, TUI_MIN_COLS, TUI_MIN_LINES);
	size_t n = wtext_wrap(msg, width, t->ascii, lines);

	free(msg);
	if (n <= (size_t)t->lines)
		return n;
	wtext_lines_free(*lines, n);
	/* TRANSLATORS: the same notice for a terminal of very few rows; keep it short */
	{
		char *q = tui_key_label(t, "quit");
		/* TRANSLATORS: %5$s is the key that quits (q unless rebound) */
		msg = xasprintf(_("Too small (%1$d\u00d7%2$d < %3$d\u00d7%4$d). %5$s: quit"),
				t->cols, t->lines, TUI_MIN_COLS, TUI_MIN_LINES, q);
		free(q);
	}
	n = wtext_wrap(msg, width, t->ascii, lines);
	free(msg);
	return n;
}

static void draw_too_small(struct tui *t)
{
	char **lines;
	/* never the bottom-right cell (a terminal may scroll when it is written) */
	int width = t->cols > 1 ? t->cols - 1 : 0;
	size_t n = width > 0 ? too_small_lines(t, width, &lines) : 0;
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
	wnoutrefresh(stdscr);
	doupdate();
}

/* GPUX_FRAME_LOG=FILE: "frame N COLSxLINES" appended to FILE after each frame
 * that wrote the terminal, for the tests in a real terminal (tests/lib.sh),
 * which wait for the frame they need instead of sleeping. */
static void frame_log(const struct tui *t)
{
	static int fd = -2;
	static unsigned long n;
	char line[64];
	int len;

	if (fd == -2) {
		const char *path = getenv("GPUX_FRAME_LOG");
		fd = path == NULL || path[0] == '\0' ? -1 :
		     open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	}
	if (fd < 0)
		return;
	len = snprintf(line, sizeof line, "frame %lu %dx%d\n", ++n, t->cols, t->lines);
	if (len > 0 && write(fd, line, (size_t)len) < 0)
		fd = -1;
}

/* The F-key bar of the screens shown, in the language of now. */
static void fkeys_update(struct tui *t)
{
	wkey keys[32];
	const char *texts[32];
	size_t n_global;
	const struct wbinding *global = tui_frame_map(t, &n_global);
	size_t n = tui_stack_fkeys(t, global, n_global, keys, texts, 32);

	for (size_t i = 0; i < n; i++)
		texts[i] = _(texts[i]);
	wfkeys_set(t->fkeys, keys, texts, n);
}

/* One frame: recalc → (layout) → render bottom-up → cursor → doupdate. */
static void frame(struct tui *t, int64_t now)
{
	struct wwidget *bars[2] = { &t->status->base, &t->fkeys->base };
	bool any;

	if (t->need_layout)
		layout(t);
	if (t->too_small) {
		if (t->small_dirty) {
			draw_too_small(t);
			frame_log(t);
		}
		t->small_dirty = false;
		curs_set(0);
		return;
	}
	if (t->msg != NULL && now >= t->msg_until) {
		free(t->msg);
		t->msg = NULL;
	}
	tui_stack_recalc(t, now);
	if (t->need_layout)
		layout(t); /* a screen asked for other geometry in recalc */
	tui_status_update(t, now);
	fkeys_update(t);
	any = tui_stack_render(t, bars, 2);
	if (tui_stack_cursor(t)) {
		curs_set(1);
		any = true;
	} else {
		curs_set(0);
	}
	if (any) {
		doupdate();
		frame_log(t);
	}
	if (t->bell) {   /* an alert fired: said on the status bar, and heard */
		beep();
		t->bell = false;
	}
	t->redraw = false;
}

/* ---- input ------------------------------------------------------------------------------ */

static void resize_from_tty(struct tui *t)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
		resize_term(ws.ws_row, ws.ws_col);
	tui_redraw_all(t);
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

/* One mouse report, as getmouse() gave it. */
static void mouse_event(struct tui *t, const MEVENT *me)
{
	struct wevent ev = { .type = WEV_MOUSE };

	ev.y = me->y;
	ev.x = me->x;
	if (me->bstate & BUTTON4_PRESSED)
		ev.mouse = WM_WHEEL_UP;
#ifdef BUTTON5_PRESSED
	else if (me->bstate & BUTTON5_PRESSED)
		ev.mouse = WM_WHEEL_DOWN;
#endif
	else if (me->bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
		ev.mouse = WM_CLICK;
	else if (me->bstate & BUTTON1_DOUBLE_CLICKED)
		ev.mouse = WM_DOUBLE;
	else
		return;
	tui_handle_event(t, &ev);
}

enum { KEY_BATCH = 256 };

enum { MOUSE_QUEUE = 16 };

/* The mouse reports of one batch of keys, oldest first. */
struct mouse_batch {
	MEVENT ev[KEY_BATCH];
	size_t n;
};

/* The reports queued behind the KEY_MOUSE just read, oldest first: curses
 * reads ahead the reports that came in one write (a press, its release and
 * a wheel turn) and answers getmouse() newest first, so each is taken
 * until none is left (or the click behind a wheel turn is lost). */
static size_t mouse_take(struct mouse_batch *mb)
{
	MEVENT q[MOUSE_QUEUE];
	size_t n = 0, from = mb->n;

	while (n < MOUSE_QUEUE && getmouse(&q[n]) == OK)
		n++;
	while (n > 0 && mb->n < KEY_BATCH)
		mb->ev[mb->n++] = q[--n];
	return mb->n - from;
}

/* Keys as read, then decoded: an escape sequence curses left undecoded
 * (its terminal description does not name it) is decoded here or
 * swallowed whole (widgets/keys.c), never replayed as keys. Mouse reports
 * are taken as their KEY_MOUSE is read, and handled in the keys' order. */
static void read_keys(struct tui *t)
{
	wint_t ch[KEY_BATCH];
	int rc[KEY_BATCH];
	wkey k[KEY_BATCH];
	size_t n = 0, first[KEY_BATCH], reports[KEY_BATCH]; /* a KEY_MOUSE's reports in mb */
	struct mouse_batch mb = { .n = 0 };

	while (n < KEY_BATCH && (rc[n] = wget_wch(t->inwin, &ch[n])) != ERR) {
		bool mouse = rc[n] == KEY_CODE_YES && ch[n] == KEY_MOUSE;
		k[n] = mouse || (rc[n] == KEY_CODE_YES && ch[n] == KEY_RESIZE)
			? WKEY_NONE : wkey_from_curses(rc[n], ch[n]);
		first[n] = mb.n;
		reports[n] = mouse ? mouse_take(&mb) : 0;
		n++;
	}
	for (size_t i = 0; i < n && !t->quit; i++) {
		wkey key;
		size_t used;

		if (rc[i] == KEY_CODE_YES && ch[i] == KEY_MOUSE) {
			for (size_t r = 0; r < reports[i] && !t->quit; r++)
				mouse_event(t, &mb.ev[first[i] + r]);
			continue;
		}
		if (rc[i] == KEY_CODE_YES && ch[i] == KEY_RESIZE) {
			tui_relayout(t);
			continue;
		}
		used = k[i] == WKEY_ESC ? wkey_decode_escape(k + i, n - i, &key) : 0;
		if (used > 0) {
			i += used - 1;
			if (key == WKEY_NONE)
				continue;
		} else {
			key = k[i];
		}
		struct wevent ev = { .type = WEV_KEY, .key = key };
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
	/* every button event, releases too: ncurses' nodelay read of a report
	 * outside the mask waits for the next byte (a resize would then wait for
	 * a key); mouse_event ignores the ones gpux does not use */
	mousemask(ALL_MOUSE_EVENTS, NULL);
	mouseinterval(0);
	/* a real VT100 has neither colour nor UTF-8 */
	if (term != NULL && strncmp(term, "vt1", 3) == 0)
		t->ascii = true;
	tui_theme_start(t, &wtheme_color);
	tui_keys_resolve(t);
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

static void free_all(struct tui *t)
{
	tui_opener_abandon(&t->opener); /* not waited for: it frees what it makes */
	tui_stack_free(t);
	wstatus_free(&t->status);
	wfkeys_free(&t->fkeys);
	tui_events_free(t);
	tui_account_free(t);
	tui_market_free(t);
	tui_keys_free(t);
	tui_state_flush(t, util_now_ms(), true);
	tui_state_free(t);
	tui_messages_free(t);
	tui_clip_free(t);
	wfield_readline_shutdown(); /* every readline field is gone */
	if (t->api_owned)
		api_client_free(&t->api);
	free(t->api_error);
	free(t->api_url);
	free(t->api_profile);
	free(t->msg);
	free(t->status_note);
	free(t->conf_path);
}

/* The poll timeout: the nearest of what the screens, the market feed and
 * the screen's own clocks (flash ends, the status bar's seconds) need. */
static int tick(struct tui *t, int64_t now)
{
	int64_t next = -1, change;
	int timeout = -1;

	/* the screens first: a page that shows the account hurries it */
	tui_stack_tick(t, now, &next);
	if (t->api != NULL)
		timeout = tui_market_tick(t, now);
	tui_account_tick(t, now, &next);
	tui_history_tick(t, now, &next);
	tui_focus_tick(t, now, &next);
	tui_units_tick(t, now, &next);
	change = tui_market_next_change(t, now);
	if (change >= 0 && (next < 0 || change < next))
		next = change;
	change = tui_status_next_change(t, now);
	if (change >= 0 && (next < 0 || change < next))
		next = change;
	tui_state_flush(t, now, false);
	change = tui_state_next(t);
	if (change >= 0 && (next < 0 || change < next))
		next = change;
	if (next >= 0) {
		int64_t ms = next <= now ? 0 : next - now;
		if (timeout < 0 || ms < timeout)
			timeout = (int)ms;
	}
	return timeout;
}

static bool opened(struct tui *t, const struct tui_options *o, char **cause);

static void run_loop(struct tui *t, char **cause)
{
	struct pollfd fds[3 + MAX_API_FDS];

	while (!t->quit) {
		int64_t now = util_now_ms();
		int timeout = tick(t, now), n = 3;

		frame(t, now);
		fds[0] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
		fds[1] = (struct pollfd){ .fd = sig_pipe[0], .events = POLLIN };
		/* the exchange being opened: readable once it is */
		fds[2] = (struct pollfd){ .fd = t->opener != NULL ? tui_opener_fd(t->opener) : -1,
					  .events = POLLIN };
		if (t->api != NULL)
			n += api_fds(t->api, fds + 3, MAX_API_FDS, &timeout);
		if (t->api != NULL)
			n += tui_market_fds(t, fds + n, 3 + MAX_API_FDS - n, &timeout);
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
		if (!t->quit && (fds[2].revents & POLLIN) && !opened(t, t->o, cause)) {
			t->quit = true;
			t->exit_status = 1;
		}
		if (t->api != NULL && !t->quit)
			api_perform(t->api);
		if (t->api != NULL && !t->quit)
			tui_market_perform(t);
	}
}

/* What every session needs before it has a terminal: the options and the
 * settings file. */
static void session_base(struct tui *t, const struct tui_options *o)
{
	memset(t, 0, sizeof *t);
	t->opts = *o;
	t->o = &t->opts; /* lang.c changes t->opts.lang */
	t->cat = o->catalog;
	t->places = tui_places;
	t->tty_fd = -1;
	t->classes = tui_classes;
	t->n_classes = tui_n_classes;
	if (o->config_path != NULL)
		t->conf_path = o->config_path[0] != '\0' ? xstrdup(o->config_path) : NULL;
	else
		t->conf_path = api_conf_path();
}

/* The client made (c, NULL and cause on failure; used as api_open gives
 * them) becomes the session's. */
static void session_take(struct tui *t, const struct tui_options *o, struct api_client *c,
			 struct api_settings *used, char *cause)
{
	t->api = c;
	t->api_owned = t->api != NULL;
	t->api_url = o->api != NULL ? xstrdup(o->api->url)
		   : used->url != NULL ? xstrdup(used->url) : NULL;
	t->api_profile = used->profile != NULL ? xstrdup(used->profile) : NULL;
	api_settings_clear(used);
	if (t->api == NULL)
		t->api_error = xasprintf(_("no exchange: %s"), cause ? cause : "?");
	free(cause);
}

/* The exchange: the caller's client, or one opened (which waits for libcurl
 * and may start the local demo exchange). */
static void session_open(struct tui *t, const struct tui_options *o)
{
	char *cause = NULL;
	struct api_settings used = {0};

	if (o->client != NULL) {
		t->api = o->client;
	} else if (o->api != NULL || o->open != NULL) {
		struct api_client *c = o->api != NULL ? api_client_new(o->api, &cause)
						      : api_open(o->open, &used, &cause);
		session_take(t, o, c, &used, cause);
	}
}

/* The exchange is there (or could not be had): the market's stream, and
 * the first run's welcome. false when libcurl cannot be loaded (*cause
 * says so): there is nothing to show then. */
static bool session_ready(struct tui *t, char **cause)
{
	if (t->api == NULL && api_curl_ready(cause) != 0)
		return false;
	if (t->api != NULL) {
		tui_market_open(t);
		tui_open(t, TUI_FIRST_RUN, NULL);
	}
	t->need_layout = true;
	return true;
}

/* The opener's pipe is readable: its client becomes the session's. */
static bool opened(struct tui *t, const struct tui_options *o, char **cause)
{
	struct api_client *c = NULL;
	struct api_settings used = {0};
	char *why = NULL;

	if (t->opener == NULL || !tui_opener_take(&t->opener, &c, &used, &why))
		return true;
	session_take(t, o, c, &used, why);
	return session_ready(t, cause);
}

/* The interactive screen's exchange, opened once its first frame (the
 * catalogue without prices) is on screen: libcurl loads and the local demo
 * exchange starts meanwhile, on a thread of its own when it is api_open's
 * (the local demo exchange may be slow or frozen: no key waits for it).
 * false when libcurl cannot be loaded (*cause says so). */
static bool open_after_first_frame(struct tui *t, const struct tui_options *o, char **cause)
{
	if (o->client == NULL && o->api == NULL && o->open != NULL &&
	    (t->opener = tui_opener_start(o->open)) != NULL)
		return true;
	session_open(t, o);
	return session_ready(t, cause);
}

void tui_session_init(struct tui *t, const struct tui_options *o)
{
	session_base(t, o);
	session_open(t, o);
	t->ascii = o->ascii;
}

void tui_session_start(struct tui *t)
{
	tui_keys_init(t, tui_frame_keys, TUI_FRAME_N_KEYS);
	tui_state_load(t);
	tui_market_init(t);
	t->status = wstatus_new(&t->ui);
	t->fkeys = wfkeys_new(&t->ui);
	tui_push(t, tui_browse_new(t));
	if (tui_state_get(t, "fit") != NULL)
		tui_open(t, TUI_FIT, &(struct tui_goto){ .restore = true, .fits = -1 });
	tui_open(t, TUI_FIRST_RUN, NULL);
	t->need_layout = true;
}

int tui_session_frame(struct tui *t)
{
	int64_t now = util_now_ms();
	int timeout = tick(t, now);

	frame(t, now);
	return timeout;
}

void tui_session_end(struct tui *t)
{
	free_all(t);
}

int tui_run(const struct tui_options *o)
{
	struct tui tui, *t = &tui;
	const char *term = getenv("TERM");
	char *cause = NULL;
	bool utf8;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return refuse(_("the interactive screen needs a terminal, and input or output is "
				"not one"));
	if (term == NULL || term[0] == '\0' || strcmp(term, "dumb") == 0)
		return refuse(_("the interactive screen needs a terminal that can move the cursor "
				"(TERM is unset or \"dumb\")"));
	session_base(t, o);
	utf8 = pick_ctype();
	t->ascii = o->ascii || !utf8;
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
	t->tty_fd = STDOUT_FILENO;
	tui_session_start(t);
	tui_session_frame(t);
	if (open_after_first_frame(t, o, &cause))
		run_loop(t, &cause);
	else
		t->exit_status = 1;
	teardown_terminal(t);
	free_all(t);
	uninstall_signals();
	close(sig_pipe[0]);
	close(sig_pipe[1]);
	sig_pipe[0] = sig_pipe[1] = -1;
	if (cause != NULL) {
		/* without libcurl: one sentence, on the terminal as it was */
		fprintf(stderr, "gpux: %s\n", cause);
		free(cause);
	}
	return t->exit_status;
}
