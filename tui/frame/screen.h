/*
 * Internal to tui/: a screen is a class (tmux's window modes, htop's
 * panels). The browse tables, the fit panel, the order pages, the help, the
 * column chooser, the language menu and every dialog implement it; the
 * application keeps them on one ordered stack (struct tui, tui_int.h) and
 * never calls a screen by name.
 *
 * The stack, bottom to top: the browse tables (always there), the fit panel
 * (when opened; it shares the tables' area), an order page (it covers what
 * lies beneath: TS_OPAQUE), then overlays (help, column chooser, language
 * menu, dialogs: TS_MODAL, they take every event). The top screen is the
 * overlay, if any.
 *
 * One frame (app.c, tui_stack_frame):
 *
 *   tick    every screen starts what is due and lowers the poll timeout
 *   recalc  every screen reads what changed (the market's and the fit job's
 *           generation counters, the account's) into its own widgets; a
 *           screen that needs other geometry asks for a layout here
 *   layout  (when asked) top-down: each screen takes its share of the body
 *           area (an opaque one takes it all, so those beneath hide)
 *   render  bottom-up, each screen copies its dirty widgets; `under` says
 *           something beneath was copied (an overlay copies itself again)
 *   cursor  from the focused screen (the topmost that wants the keyboard)
 *   then one doupdate()
 *
 * Events: the top screen first, then the focused one, then the global keys
 * of app.c (q, F10, Ctrl-L, F1 and ?, L). A handler returns W_* flags: with
 * W_HANDLED the event stops there; W_CLOSE removes the screen from the
 * stack (after its handler ran, whether or not the event was handled);
 * W_LAYOUT asks for a layout, W_REDRAW for a frame, W_QUIT leaves.
 */
#ifndef GPUX_TUI_SCREEN_H
#define GPUX_TUI_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "widgets/widgets.h"

struct tui;
struct tui_screen;

/* What notify() is told about (a mask). */
enum tui_notify {
	TN_LANG = 1 << 0,       /* the language changed: make every text again */
	TN_ACCOUNT = 1 << 1,    /* money moved: ask the account and lists again */
};

/* Class flags. */
enum {
	TS_OPAQUE = 1 << 0,     /* covers the screens beneath it (they hide) */
	TS_MODAL = 1 << 1,      /* an overlay: every event is its own */
};

/* The body of the screen: the rows between the tabs (row 0) and the status
 * bar (row lines-2); the F-key bar is row lines-1. */
struct tui_area {
	int y, x, h, w;
};

struct tui_screen_class {
	const char *name;
	unsigned flags;
	/* Place the widgets: shown false (covered by an opaque screen, or the
	 * terminal too small) hides every one. A screen that lies in the body
	 * takes its share out of *body (the rest goes to the screens beneath).
	 * NULL: nothing to place. */
	void (*layout)(struct tui_screen *s, struct tui_area *body, bool shown);
	/* Read what changed (generation counters) into the widgets. May be NULL. */
	void (*recalc)(struct tui_screen *s, int64_t now);
	/* Copy the dirty widgets (wnoutrefresh); under: something beneath was
	 * copied (copy what lies over it again). True if anything was copied. */
	bool (*render)(struct tui_screen *s, bool under);
	/* Move the terminal cursor into the focused field; false: none. May be NULL. */
	bool (*cursor)(struct tui_screen *s);
	/* A key or a click; W_* flags (W_IGNORED: not for this screen). */
	unsigned (*event)(struct tui_screen *s, const struct wevent *ev);
	/* Start what is due; lower *next (ms, monotonic; -1 none). May be NULL. */
	void (*tick)(struct tui_screen *s, int64_t now, int64_t *next);
	/* TN_* happened. May be NULL. */
	void (*notify)(struct tui_screen *s, unsigned what);
	/* Copy every widget to the screen again (what lay over it went away). */
	void (*touch)(struct tui_screen *s);
	/* Whether the screen has the keyboard (NULL: whenever it is on top). */
	bool (*wants_focus)(const struct tui_screen *s);
	/* The help's sections of this screen (at most max); NULL: one section
	 * of `bindings` titled `help_title`. */
	size_t (*help)(struct tui_screen *s, struct whelp_section *out, size_t max);
	/* Free what the screen owns and the screen itself. */
	void (*free)(struct tui_screen *s);
	const struct wbinding *bindings;  /* key → action: the handler dispatches on it */
	size_t n_bindings;
	const char *help_title;           /* msgid */
};

/* The base every screen struct starts with. */
struct tui_screen {
	const struct tui_screen_class *cls;
	struct tui *t;
	bool shown;                       /* from the last layout */
};

void tui_screen_init(struct tui_screen *s, const struct tui_screen_class *cls, struct tui *t);

/* ---- the stack (tui/frame/stack.c) ---- */

/* Push s (taken) on top; a layout follows. */
void tui_push(struct tui *t, struct tui_screen *s);
/* Push s (taken) right below the first opaque or modal screen above the
 * bottom one (the fit panel goes under an open order page). */
void tui_push_under(struct tui *t, struct tui_screen *s);
/* Take s off the stack and free it; what lay beneath is copied again. */
void tui_remove(struct tui *t, struct tui_screen *s);
/* The topmost screen of class cls, or NULL (a screen finds its own kind). */
struct tui_screen *tui_find(const struct tui *t, const struct tui_screen_class *cls);
/* Move s to the top (below any modal screen). */
void tui_raise(struct tui *t, struct tui_screen *s);
struct tui_screen *tui_top(const struct tui *t);
/* The screen that has the keyboard. */
struct tui_screen *tui_focused(const struct tui *t);
/* Every screen told TN_* what. */
void tui_notify_all(struct tui *t, unsigned what);
/* Free every screen (the end). */
void tui_stack_free(struct tui *t);

/* The frame phases, for app.c. */
void tui_stack_tick(struct tui *t, int64_t now, int64_t *next);
void tui_stack_recalc(struct tui *t, int64_t now);
void tui_stack_layout(struct tui *t);
bool tui_stack_render(struct tui *t, bool under);
bool tui_stack_cursor(struct tui *t);
void tui_stack_touch(struct tui *t);
/* Top, then focused: the flags of the first that handled it (W_IGNORED
 * when none did). W_CLOSE removes the screen that returned it. */
unsigned tui_stack_event(struct tui *t, const struct wevent *ev);
/* The help of the focused screen, then of the other screens shown, pushed
 * as an overlay; global: the application's own keys, last. */
void tui_help_open(struct tui *t, const struct wbinding *global, size_t n_global);
/* A help overlay of these sections (a page adds its field keys). */
void tui_help_show(struct tui *t, const struct whelp_section *s, size_t n);

/* ---- overlays (tui/frame/stack.c) ---- */

/* An overlay around a widget w (taken): placed centred by place(w, lines,
 * cols) on every layout; when w's handler returns W_CLOSE, closed(t, w, ud)
 * runs (before w is freed) and the overlay leaves the stack. Keys w does
 * not use (Ctrl-L, resize) reach the global keys. */
struct tui_screen *tui_overlay_new(struct tui *t, struct wwidget *w,
				   void (*place)(struct wwidget *w, int lines, int cols),
				   void (*closed)(struct tui *t, struct wwidget *w, void *ud), void *ud);
/* A confirmation dialog: done(t, arg, yes, key) when it closes, yes for y/Y
 * (and Enter unless y_only), key the key that closed it. */
void tui_dialog_open(struct tui *t, const char *title, const char *text, const char *hint,
		     bool y_only, void (*done)(struct tui *t, int64_t arg, bool yes, wkey key),
		     int64_t arg);

#endif
