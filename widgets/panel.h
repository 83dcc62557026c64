/*
 * widgets/panel.h — a panel of lines (widgets/panel.c); included through widgets/widgets.h.
 */
#ifndef GPUX_WIDGETS_PANEL_H
#define GPUX_WIDGETS_PANEL_H

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

/* ---- panel (widgets/panel.c) ------------------------------------------------------------------ */

/* Lines of cells made by the panel's owner from its state. */
struct wpanel {
	struct wwidget base;
	struct wcells *line;        /* shown */
	size_t n, cap;
	struct wcells *next;        /* being built */
	size_t n_next, cap_next;
};

struct wpanel *wpanel_new(const struct wui *ui);
/* A panel embedded in its owner's struct (freed by wwidget_free of its base's
 * class destroy, not by wpanel_free). */
void wpanel_init(struct wpanel *p, const struct wui *ui);
void wpanel_free(struct wpanel **p);
/* Build the next contents: begin, add lines, commit (which fits each line to
 * the panel's width and marks it dirty only when something changed). */
void wpanel_begin(struct wpanel *p);
/* A new empty line to fill; valid until the next wpanel_add. */
struct wcells *wpanel_add(struct wpanel *p);
/* Text wrapped to the panel's width (minus indent), one line per row. */
void wpanel_text(struct wpanel *p, const char *text, enum wrole role, int indent);
void wpanel_commit(struct wpanel *p);
/* "label   value": the label padded to label_w columns. */
void wpanel_kv(struct wcells *c, int label_w, const char *label, const char *value,
	       enum wrole vrole, unsigned vattrs);
/* Whether two rows of cells look the same (characters, widths, roles,
 * attributes). */
bool wcells_equal(const struct wcells *a, const struct wcells *b);

#endif
