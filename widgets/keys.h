/*
 * widgets/keys.h — keys, events, key maps and handler results (widgets/keys.c); included through widgets/widgets.h.
 */
#ifndef GPUX_WIDGETS_KEYS_H
#define GPUX_WIDGETS_KEYS_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

/* ---- keys and events ----------------------------------------------------------- */

/* A key: a Unicode code point for characters (including control characters:
 * 27 Esc, '\t' Tab, '\r' Enter, 127 Backspace on most terminals), or
 * WKEY_FN + a curses KEY_* code for function keys. */
typedef int32_t wkey;
enum {
	WKEY_FN = 0x200000,
	WKEY_ESC = 27,
	WKEY_TAB = '\t',
	WKEY_RETURN = '\r',
	WKEY_UP = WKEY_FN + KEY_UP,
	WKEY_DOWN = WKEY_FN + KEY_DOWN,
	WKEY_LEFT = WKEY_FN + KEY_LEFT,
	WKEY_RIGHT = WKEY_FN + KEY_RIGHT,
	WKEY_PGUP = WKEY_FN + KEY_PPAGE,
	WKEY_PGDN = WKEY_FN + KEY_NPAGE,
	WKEY_HOME = WKEY_FN + KEY_HOME,
	WKEY_END = WKEY_FN + KEY_END,
	WKEY_BTAB = WKEY_FN + KEY_BTAB,
	WKEY_ENTER = WKEY_FN + KEY_ENTER,
	WKEY_BACKSPACE = WKEY_FN + KEY_BACKSPACE,
	WKEY_DELETE = WKEY_FN + KEY_DC,
	WKEY_INSERT = WKEY_FN + KEY_IC,
	WKEY_RESIZE = WKEY_FN + KEY_RESIZE,
	WKEY_MOUSE = WKEY_FN + KEY_MOUSE,
	WKEY_F1 = WKEY_FN + KEY_F0 + 1,
	WKEY_F2 = WKEY_FN + KEY_F0 + 2,
	WKEY_F3 = WKEY_FN + KEY_F0 + 3,
	WKEY_F4 = WKEY_FN + KEY_F0 + 4,
	WKEY_F5 = WKEY_FN + KEY_F0 + 5,
	WKEY_F6 = WKEY_FN + KEY_F0 + 6,
	WKEY_F7 = WKEY_FN + KEY_F0 + 7,
	WKEY_F8 = WKEY_FN + KEY_F0 + 8,
	WKEY_F9 = WKEY_FN + KEY_F0 + 9,
	WKEY_F10 = WKEY_FN + KEY_F0 + 10,
	WKEY_F11 = WKEY_FN + KEY_F0 + 11,
	WKEY_F12 = WKEY_FN + KEY_F0 + 12,
};

/* No key (an escape sequence that means nothing here). */
enum { WKEY_NONE = -1 };

/* The key of a wget_wch() result (rc OK or KEY_CODE_YES, ch). */
wkey wkey_from_curses(int rc, wint_t ch);
/* k[0..n) starts with an escape sequence curses did not decode (ESC, '[' or
 * 'O', parameters, a final byte): its length, with its key in *out
 * (WKEY_NONE when it is none of ours: swallow it whole). 0 when k does not
 * start with a whole sequence. Pure. */
size_t wkey_decode_escape(const wkey *k, size_t n, wkey *out);
/* A key's name for the help: "↑" ("Up" in ASCII), "PgDn", "Home", "F1",
 * "Tab", "Shift-Tab", "Esc", "Enter", "Space", "Ctrl-L", "q". malloc'ed. */
char *wkey_name(wkey k, bool ascii);
/* True for keys that insert text into a field (printable characters). */
bool wkey_printable(wkey k);

enum wmouse { WM_NONE, WM_CLICK, WM_DOUBLE, WM_WHEEL_UP, WM_WHEEL_DOWN };

enum wev_type { WEV_KEY, WEV_MOUSE };

/* An input event; mouse positions are screen coordinates. */
struct wevent {
	enum wev_type type;
	wkey key;                /* WEV_KEY */
	enum wmouse mouse;       /* WEV_MOUSE */
	int y, x;                /* WEV_MOUSE */
};

/* ---- key bindings (data) ---------------------------------------------------------- */

/* One key → one action: a row of a key map, and the key maps are the
 * registry of actions (tui/frame/screen.h). help: a one-line description
 * as an English msgid (marked N_(); the help overlay translates it), or
 * NULL to leave the binding out of the help. Bindings with the same action
 * and help are listed on one help line. bar: the word of the F-key bar for
 * this key (an English msgid marked N_(), "Help"), or NULL: the key is not
 * on the bar. name: the action's name, the same on each of its rows — what
 * the `:` command line runs and the config file's `bind.NAME = KEYS`
 * rebinds ("sort-next", "filter"); NULL: neither. arg: what the command
 * takes after its name, a placeholder the command line completes ("COLUMN",
 * "GPU", "LANG", "THEME", "FORMAT", "TEXT", "N"), NULL: nothing. key
 * WKEY_NONE: an action of the command line only (no key by default). */
struct wbinding {
	wkey key;
	int action;
	const char *help;
	const char *bar;
	const char *name;
	const char *arg;
};

/* The binding of key in map (n entries), or NULL. */
const struct wbinding *wbinding_find(const struct wbinding *map, size_t n, wkey key);
/* The first binding of the action called name in map, or NULL. */
const struct wbinding *wbinding_named(const struct wbinding *map, size_t n, const char *name);
/* A key from its name as the help and the config file write it: one
 * character ("q", "/", "é"), "Space", "Tab", "Shift-Tab", "Esc", "Enter",
 * "Backspace", "Delete", "Insert", "Up" "Down" "Left" "Right" (or the
 * arrows), "PgUp", "PgDn", "Home", "End", "F1"…"F12", "Ctrl-X" (also "C-x",
 * "^X"); names case-insensitive. 0 and *out, or -1 when it names no key. */
int wkey_parse(const char *name, wkey *out);

/* ---- handler results ------------------------------------------------------------------- */

enum {
	W_IGNORED = 0,
	W_HANDLED = 1 << 0,  /* the event was used */
	W_REDRAW = 1 << 1,   /* the widget's look changed (it marked itself dirty) */
	W_LAYOUT = 1 << 2,   /* geometry must be recomputed */
	W_QUIT = 1 << 3,     /* leave the application */
	W_SELECT = 1 << 4,   /* the selection (cursor row, tab) changed */
	W_CHANGED = 1 << 5,  /* a value (field text, checklist) changed */
	W_ACTION = 1 << 6,   /* the widget asks its owner to act; see its fields */
	W_CLOSE = 1 << 7,    /* an overlay or field is done (see its result) */
};

#endif
