/*
 * widgets/field.h — the text field and its engines (widgets/field.c, widgets/rlfield.c); included through widgets/widgets.h.
 */
#ifndef GPUX_WIDGETS_FIELD_H
#define GPUX_WIDGETS_FIELD_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "widgets/widget.h"

/* ---- text field ---------------------------------------------------------------------------- */

/* The editing engine behind a field. The built-in one is a small line editor
 * (emacs keys); a GNU readline engine (callback interface) can plug in
 * behind the same operations. text() is UTF-8 and lives until the next
 * call; cursor() is a byte offset into it. feed() returns W_* flags:
 * W_CHANGED when the text changed, W_CLOSE with *submitted set on Enter
 * (true) or Esc (false), W_HANDLED otherwise. */
struct wfield_engine {
	void (*destroy)(void *ed);
	unsigned (*feed)(void *ed, wkey k, bool *submitted);
	const char *(*text)(void *ed);
	size_t (*cursor)(void *ed);
	void (*set_text)(void *ed, const char *utf8);
	/* focus gained/lost (a readline engine swaps its line buffer); may be NULL */
	void (*focus)(void *ed, bool on);
};

/* The built-in line editor: ←/→ Ctrl-B/F, Home/End Ctrl-A/E, Backspace,
 * Delete Ctrl-D, Ctrl-U/Ctrl-K kill to start/end, Ctrl-W kill word back,
 * Enter submits, Esc cancels. At most max_bytes bytes of text (0: 1024). */
extern const struct wfield_engine wfield_line_editor;
void *wfield_line_editor_new(const char *initial, size_t max_bytes);

struct wfield {
	struct wwidget base;
	char *prompt;           /* drawn before the text, e.g. "Filter: " */
	char *after;            /* drawn after the text, e.g. "3 of 15 shown" */
	char *error;            /* shown instead of `after`, in WR_FIELD_ERROR */
	const struct wfield_engine *eng;
	void *ed;
	bool submitted;         /* W_CLOSE: Enter (true) or Esc (false) */
	int hscroll;            /* first text column shown */
	int cur_y, cur_x;       /* screen position of the cursor after draw */
};

/* A field with the built-in line editor. */
struct wfield *wfield_new(const struct wui *ui, const char *prompt, const char *initial);
/* A field with another engine (takes ed; the engine's destroy frees it). */
struct wfield *wfield_new_engine(const struct wui *ui, const char *prompt,
				 const struct wfield_engine *eng, void *ed);
void wfield_free(struct wfield **f);
const char *wfield_text(const struct wfield *f);
void wfield_set_text(struct wfield *f, const char *utf8);
void wfield_set_after(struct wfield *f, const char *utf8);
/* NULL clears the error. */
void wfield_set_error(struct wfield *f, const char *utf8);
/* Give or take the keyboard focus (the engine is told: a readline engine
 * swaps its line buffer in and out). */
void wfield_focus(struct wfield *f, bool on);
/* Where the terminal cursor belongs (screen coordinates); false if hidden. */
bool wfield_cursor(const struct wfield *f, int *y, int *x);

/* ---- text field: the GNU readline engine (widgets/rlfield.c) ------------------------------- */

/* A field engine on GNU readline's callback interface: readline's emacs keys,
 * kill ring (shared by all fields) and the user's inputrc (editing-mode stays
 * emacs: Esc cancels), and a history list per history_id, recalled with ↑/↓:
 * fields with the same id share one list, which outlives them (a form opened
 * again recalls what was typed last time); NULL gives a private list.
 * Readline has one line buffer: each engine keeps its own text and is loaded
 * into readline on focus(on) or its first key, saved on focus(off) or when
 * another engine loads. Keys readline does not use (Tab, PgUp, F-keys, Ctrl
 * keys it leaves unbound) return W_IGNORED. Text is UTF-8 whatever the
 * locale. Nothing reaches the terminal. UI thread only. */
/* A key reader that tells Alt-x from Esc then x may deliver WFIELD_KEY_ALT | x
 * (ESC x to readline: Alt-B/F/D, Alt-Backspace, Alt-←/→); a lone Esc cancels. */
enum { WFIELD_KEY_ALT = 0x400000 };
extern const struct wfield_engine wfield_readline;
/* An engine state for wfield_new_engine(&wfield_readline, ...): initial text
 * (NULL: empty), at most max_bytes bytes (0: 1024; longer input is refused),
 * history_id copied (NULL: private). Freed by wfield_readline.destroy. */
void *wfield_readline_new(const char *initial, size_t max_bytes, const char *history_id);
/* A field with the readline engine (1024 bytes at most). */
struct wfield *wfield_new_readline(const struct wui *ui, const char *prompt, const char *initial,
				   const char *history_id);
/* At exit, once every readline engine is destroyed: free the named history
 * lists and readline's hooks (for leak checkers). A later engine starts over. */
void wfield_readline_shutdown(void);

#endif
