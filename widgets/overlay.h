/*
 * widgets/overlay.h — help overlay, confirmation and checklist dialogs (widgets/overlay.c); included through widgets/widgets.h.
 */
#ifndef GPUX_WIDGETS_OVERLAY_H
#define GPUX_WIDGETS_OVERLAY_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "widgets/cells.h"
#include "widgets/widget.h"

/* ---- help overlay -------------------------------------------------------------------------- */

struct whelp_section {
	const char *title;              /* translated */
	const struct wbinding *bindings;
	size_t n;
};

struct whelp_entry;          /* private to widgets/overlay.c */

struct whelp {
	struct wwidget base;
	char *title, *hint;
	struct wcells *lines;   /* the text laid out (whelp_layout), one entry per line */
	size_t n_lines;
	size_t top;
	/* private */
	struct whelp_entry *ent; /* the text before wrapping: titles and key lines */
	size_t n_ent;
	int keyw;               /* the key column's width */
	size_t cap_lines;
};

/* A help overlay listing each section's bindings, keys with the same action
 * on one line ("↓ j     Move down"), generated from the maps themselves.
 * title and hint ("↑↓ scroll · any other key closes") are translated text.
 * Until placed, each entry is one line (not wrapped). */
struct whelp *whelp_new(const struct wui *ui, const char *title, const char *hint,
			const struct whelp_section *s, size_t n);
/* The same box over a list: each item's left text (a time, a name) in
 * the key column, in its role, and its text wrapped beside it. Items
 * copied. */
struct whelp_item {
	const char *left;
	enum wrole role;
	const char *text;
};
struct whelp *whelp_new_list(const struct wui *ui, const char *title, const char *hint,
			     const struct whelp_item *items, size_t n);
/* Scrolled to its last lines (the newest of a history). */
void whelp_scroll_end(struct whelp *h);
void whelp_free(struct whelp **h);
/* Lay the text out in lines of at most `width` terminal columns (<= 0: no
 * wrapping) into h->lines: a description too long for its line wraps at
 * spaces (inside a word only when the word is longer than a line; never
 * inside a character), its continuation lines indented under the
 * description column; a section title wraps too. Pure (no curses); keeps
 * h->top within the new lines. whelp_place calls it with the box's inner
 * width. */
void whelp_layout(struct whelp *h, int width);
/* Place centred on a screen of lines × cols, the text wrapped to the box. */
void whelp_place(struct whelp *h, int lines, int cols);

/* ---- dialog (confirmation) ----------------------------------------------------------------- */

struct wdialog {
	struct wwidget base;
	char *title, *text, *hint;
	bool confirmed;         /* W_CLOSE: y/Enter (true) or anything else (false) */
};

/* A confirmation: text wrapped in a centred box; y, Y or Enter confirm, any
 * other key cancels (and returns W_CLOSE). */
struct wdialog *wdialog_new(const struct wui *ui, const char *title, const char *text,
			    const char *hint);
void wdialog_free(struct wdialog **d);
void wdialog_place(struct wdialog *d, int lines, int cols);

/* ---- checklist dialog (choose and order) -------------------------------------------------------- */

struct wcheck_item {
	char *id;
	char *label;
	bool on;
	bool fixed;             /* always on and first (the GPU column) */
};

struct wchecklist {
	struct wwidget base;
	char *title, *hint;
	struct wcheck_item *items;
	size_t n;
	size_t sel, top;
	bool accepted;          /* W_CLOSE: Enter (true) or Esc/q (false) */
};

enum wcheck_action {
	WCHECK_UP = 1, WCHECK_DOWN, WCHECK_TOGGLE, WCHECK_MOVE_UP, WCHECK_MOVE_DOWN,
	WCHECK_ACCEPT, WCHECK_CANCEL, WCHECK_FIRST, WCHECK_LAST,
};

/* A list of items with check boxes: ↑↓ move, Home/End (g/G) jump to the
 * first/last, Space toggles, [ and ] (or K/J) move the item up/down, Enter
 * accepts, Esc cancels. Items copied. */
struct wchecklist *wchecklist_new(const struct wui *ui, const char *title, const char *hint,
				  const struct wcheck_item *items, size_t n);
void wchecklist_free(struct wchecklist **c);
void wchecklist_place(struct wchecklist *c, int lines, int cols);

#endif
