/*
 * Internal to tui/: lines of cells (tui/frame/lines.c), what the pure
 * models of the fit panel, the fit answer and the order form make and the
 * screens copy into their panels. Pure: no curses, no exchange.
 */
#ifndef GPUX_TUI_LINES_H
#define GPUX_TUI_LINES_H

#include <stdbool.h>
#include <stddef.h>

#include "widgets/widgets.h"

/* A growable list of lines, each a struct wcells. */
struct tui_lines {
	struct wcells *l;
	size_t n, cap;
	bool ascii;
};
/* Append an empty line and return it (valid until the next add). */
struct wcells *tui_lines_add(struct tui_lines *ls);
/* Free every line and the list; ls is empty (and reusable) after. */
void tui_lines_free(struct tui_lines *ls);
/* Move src's lines [from, from + n) to the end of dst (src keeps empty ones). */
void tui_lines_take(struct tui_lines *dst, struct tui_lines *src, size_t from, size_t n);
/* Append text wrapped to w columns after `indent` spaces, at most max lines
 * (the last one cut with "…" when more would follow), in role. */
void tui_lines_wrap(struct tui_lines *ls, const char *text, int w, size_t max, enum wrole role,
		    int indent);

#endif
