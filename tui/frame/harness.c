/*
 * A harness for screens, for tests: a whole TUI session (the same struct
 * tui, stack and frames as tui_run) on a curses screen whose output goes to
 * /dev/null, so a test needs no terminal and no tmux. Events are fed as
 * tui_handle_event does for the keyboard; the exchange's replies arrive by
 * pumping the client (poll + api_perform) between frames; what the screen
 * shows is read back from curses' own copy of the terminal (curscr), cell
 * by cell, after each doupdate().
 */
#include "tui/frame/harness.h"
#include "tui/tui_int.h"

#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "util/util.h"

enum {
	HARNESS_MAX_FDS = 32,
	HARNESS_QUIET_MS = 500, /* settled: no timer due sooner (longer than any debounce) */
};

struct tui_harness {
	struct tui t;
	SCREEN *scr;
	FILE *out, *in;
};

struct tui_harness *tui_harness_new(const struct tui_options *o, int lines, int cols)
{
	return tui_harness_new_term(o, lines, cols, "xterm-256color");
}

struct tui_harness *tui_harness_new_term(const struct tui_options *o, int lines, int cols,
					 const char *term)
{
	struct tui_harness *h = xcalloc(1, sizeof *h);
	char n[16];

	setlocale(LC_CTYPE, "C.UTF-8");
	snprintf(n, sizeof n, "%d", lines);
	setenv("LINES", n, 1);
	snprintf(n, sizeof n, "%d", cols);
	setenv("COLUMNS", n, 1);
	h->out = fopen("/dev/null", "w");
	h->in = fopen("/dev/null", "r");
	if (h->out == NULL || h->in == NULL)
		fatal("harness: /dev/null");
	h->scr = newterm(term, h->out, h->in);
	if (h->scr == NULL)
		fatal("harness: newterm(%s) failed", term);
	set_term(h->scr);
	tui_session_init(&h->t, o);
	tui_theme_start(&h->t, &wtheme_mono);
	tui_keys_resolve(&h->t);
	tui_session_start(&h->t);
	tui_session_frame(&h->t);
	return h;
}

void tui_harness_free(struct tui_harness **hp)
{
	struct tui_harness *h = *hp;

	if (h == NULL)
		return;
	set_term(h->scr);
	tui_session_end(&h->t);
	endwin();
	delscreen(h->scr);
	fclose(h->out);
	fclose(h->in);
	free(h);
	*hp = NULL;
}

struct tui *tui_harness_tui(struct tui_harness *h)
{
	return &h->t;
}

void tui_harness_frame(struct tui_harness *h)
{
	set_term(h->scr);
	tui_session_frame(&h->t);
}

unsigned tui_harness_key(struct tui_harness *h, wkey k)
{
	struct wevent ev = { .type = WEV_KEY, .key = k };
	unsigned r;

	set_term(h->scr);
	r = tui_handle_event(&h->t, &ev);
	tui_session_frame(&h->t);
	return r;
}

void tui_harness_type(struct tui_harness *h, const char *utf8)
{
	mbstate_t st;
	wchar_t wc;
	size_t n, len = strlen(utf8);

	memset(&st, 0, sizeof st);
	while (len > 0 && (n = mbrtowc(&wc, utf8, len, &st)) != 0 && n <= len) {
		tui_harness_key(h, (wkey)wc);
		utf8 += n;
		len -= n;
	}
}

unsigned tui_harness_click(struct tui_harness *h, int y, int x)
{
	struct wevent ev = { .type = WEV_MOUSE, .mouse = WM_CLICK, .y = y, .x = x };
	unsigned r;

	set_term(h->scr);
	r = tui_handle_event(&h->t, &ev);
	tui_session_frame(&h->t);
	return r;
}

void tui_harness_resize(struct tui_harness *h, int lines, int cols)
{
	set_term(h->scr);
	resize_term(lines, cols);
	tui_relayout(&h->t);
	tui_session_frame(&h->t);
}

void tui_harness_pump(struct tui_harness *h, int ms)
{
	int64_t end = util_now_ms() + ms;

	set_term(h->scr);
	for (;;) {
		struct pollfd fds[HARNESS_MAX_FDS];
		int64_t now = util_now_ms();
		int timeout = tui_session_frame(&h->t), n = 0;

		if (now >= end)
			break;
		if (timeout < 0 || timeout > end - now)
			timeout = (int)(end - now);
		if (h->t.api != NULL)
			n = api_fds(h->t.api, fds, HARNESS_MAX_FDS, &timeout);
		if (h->t.api != NULL)
			n += tui_market_fds(&h->t, fds + n, HARNESS_MAX_FDS - n, &timeout);
		poll(fds, (nfds_t)n, timeout);
		if (h->t.api != NULL)
			api_perform(h->t.api);
		if (h->t.api != NULL)
			tui_market_perform(&h->t);
	}
}

char *tui_harness_row(struct tui_harness *h, int y)
{
	struct buf b = {0};
	int lines, cols;

	set_term(h->scr);
	getmaxyx(curscr, lines, cols);
	if (y < 0 || y >= lines)
		return xstrdup("");
	for (int x = 0; x < cols; x++) {
		cchar_t cc;
		wchar_t wch[CCHARW_MAX + 1];
		attr_t a;
		short pair;
		char mb[MB_LEN_MAX * (CCHARW_MAX + 1) + 1];

		if (mvwin_wch(curscr, y, x, &cc) == ERR)
			break;
		if (getcchar(&cc, wch, &a, &pair, NULL) == ERR)
			continue;
		size_t m = wcstombs(mb, wch, sizeof mb);
		if (m != (size_t)-1 && m > 0)
			buf_puts(&b, mb);
		if (wch[0] != L'\0' && wcwidth(wch[0]) == 2)
			x++; /* the second cell of a double-width character */
	}
	/* trailing blanks are no text */
	char *s = buf_take(&b);
	size_t len = s != NULL ? strlen(s) : 0;
	while (len > 0 && s[len - 1] == ' ')
		s[--len] = '\0';
	return s != NULL ? s : xstrdup("");
}

char *tui_harness_screen(struct tui_harness *h)
{
	struct buf b = {0};
	int lines, cols;

	set_term(h->scr);
	getmaxyx(curscr, lines, cols);
	(void)cols;
	for (int y = 0; y < lines; y++) {
		char *r = tui_harness_row(h, y);
		buf_puts(&b, r);
		buf_puts(&b, "\n");
		free(r);
	}
	return buf_take(&b);
}

int tui_harness_find(struct tui_harness *h, const char *text)
{
	int lines, cols;

	set_term(h->scr);
	getmaxyx(curscr, lines, cols);
	(void)cols;
	for (int y = 0; y < lines; y++) {
		char *r = tui_harness_row(h, y);
		bool found = strstr(r, text) != NULL;
		free(r);
		if (found)
			return y;
	}
	return -1;
}

bool tui_harness_wait(struct tui_harness *h, const char *text, int ms)
{
	int64_t end = util_now_ms() + ms;

	while (tui_harness_find(h, text) < 0) {
		if (util_now_ms() >= end)
			return false;
		tui_harness_pump(h, 50);
	}
	return true;
}

bool tui_harness_settle(struct tui_harness *h, int ms)
{
	int64_t end = util_now_ms() + ms;

	set_term(h->scr);
	for (;;) {
		int next = tui_session_frame(&h->t); /* starts what is due */
		bool idle = h->t.api == NULL || api_pending(h->t.api) == 0;

		if (idle && (next < 0 || next >= HARNESS_QUIET_MS))
			return true;
		if (util_now_ms() >= end)
			return false;
		tui_harness_pump(h, 20);
	}
}

const char *tui_harness_top(struct tui_harness *h)
{
	struct tui_screen *s = tui_top(&h->t);

	return s != NULL ? s->cls->name : "";
}
