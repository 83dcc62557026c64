/*
 * widgets/widget.h — the widget base (widgets/widget.c); included through widgets/widgets.h.
 */
#ifndef GPUX_WIDGETS_WIDGET_H
#define GPUX_WIDGETS_WIDGET_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "widgets/theme.h"
#include "widgets/keys.h"

/* ---- the widget base ---------------------------------------------------------------------- */

struct wwidget;

struct wwidget_class {
	const char *name;
	/* Paint the whole widget into w->win (which is not NULL and was erased);
	 * never refresh. */
	void (*draw)(struct wwidget *w);
	/* Handle an event; return W_* flags. May be NULL (ignores everything). */
	unsigned (*handle)(struct wwidget *w, const struct wevent *ev);
	/* Free what the derived struct owns (not the struct, not the window). */
	void (*destroy)(struct wwidget *w);
	/* The keys handle() understands, for the help overlay. */
	const struct wbinding *bindings;
	size_t n_bindings;
	/* Where the terminal cursor belongs while the widget has the focus
	 * (screen coordinates); false: nowhere. May be NULL (never). */
	bool (*cursor)(const struct wwidget *w, int *y, int *x);
};

struct wwidget {
	const struct wwidget_class *cls;
	const struct wui *ui;
	WINDOW *win;            /* owned; NULL while not placed */
	int y, x, h, w;         /* screen geometry */
	bool dirty;             /* contents must be redrawn */
	bool touched;           /* must be copied to the screen again */
	bool focused;
};

/* Initialise the base of a freshly allocated widget. */
void wwidget_init(struct wwidget *w, const struct wwidget_class *cls, const struct wui *ui);
/* Give the widget its place on the screen: (re)creates its window. h or w
 * <= 0 hides it (no window). Marks it dirty. Returns 0, or -1 if curses
 * refused the window (then it stays hidden). */
int wwidget_place(struct wwidget *w, int y, int x, int h, int wd);
/* Take the widget off the screen (deletes its window). */
void wwidget_hide(struct wwidget *w);
/* Mark for redraw. */
void wwidget_dirty(struct wwidget *w);
/* Mark for copying to the screen again (its window lay under an overlay). */
void wwidget_touch(struct wwidget *w);
/* If dirty: erase and draw; then, if anything changed, wnoutrefresh. Returns
 * true when the widget was copied to the virtual screen. Never doupdate(). */
bool wwidget_render(struct wwidget *w);
/* Dispatch an event to the class's handler (W_IGNORED if none or hidden). */
unsigned wwidget_handle(struct wwidget *w, const struct wevent *ev);
/* Put the terminal cursor where the focused widget w wants it (its class's
 * cursor) and copy its window: false when it wants none, or is not focused
 * or not placed. */
bool wwidget_place_cursor(struct wwidget *w);
/* True when the screen position (y, x) lies inside the widget. */
bool wwidget_contains(const struct wwidget *w, int y, int x);
void wwidget_set_focus(struct wwidget *w, bool focused);
/* Destroy the widget (class destroy, window, struct) and set *w to NULL. */
void wwidget_free(struct wwidget **w);

#endif
