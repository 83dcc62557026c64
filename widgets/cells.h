/*
 * widgets/cells.h — cell buffers, pure (widgets/cells.c); included through widgets/widgets.h.
 */
#ifndef GPUX_WIDGETS_CELLS_H
#define GPUX_WIDGETS_CELLS_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "widgets/theme.h"

/* ---- cell buffers (pure: no curses) ------------------------------------------- */

enum { WCELL_CHARS = 5 }; /* base character + up to 4 combining marks (CCHARW_MAX) */

struct wcell {
	wchar_t ch[WCELL_CHARS];  /* NUL-terminated when shorter */
	uint8_t width;            /* 1 or 2 columns */
	uint8_t role;             /* enum wrole */
	uint8_t attrs;            /* WAT_* */
};

/* A growable row of cells. `width` is the sum of the cells' widths. */
struct wcells {
	struct wcell *cell;
	size_t len, cap;
	int width;
	bool ascii;               /* transliterate everything to ASCII */
};

enum walign { WALIGN_LEFT, WALIGN_RIGHT, WALIGN_CENTER };

void wcells_init(struct wcells *c, bool ascii);
/* Empty it, keeping its memory. */
void wcells_reset(struct wcells *c);
void wcells_free(struct wcells *c);
/* Append UTF-8 text (NULL = nothing). Control characters and invalid bytes
 * become U+FFFD ("?" in ASCII), tabs and newlines a space; zero-width
 * characters join the previous cell (a grapheme cluster); in ASCII mode the
 * text is transliterated first ("≈" → "~", "ã" → "a"). */
void wcells_add(struct wcells *c, const char *utf8, enum wrole role, unsigned attrs);
/* Append the first `bytes` bytes of utf8. */
void wcells_addn(struct wcells *c, const char *utf8, size_t bytes, enum wrole role, unsigned attrs);
/* Append a symbol (UTF-8 or its ASCII fallback per c->ascii). */
void wcells_add_sym(struct wcells *c, enum wsym s, enum wrole role, unsigned attrs);
/* Append n spaces. */
void wcells_pad(struct wcells *c, int n, enum wrole role);
/* Append src's cells. */
void wcells_cat(struct wcells *dst, const struct wcells *src);
/* Make c exactly `width` columns wide: text wider than that is cut at a
 * character boundary and ends with "…" ("~"); a double-width character that
 * would straddle the edge becomes a space; narrower text is padded with
 * spaces of role pad_role on the side given by align. width <= 0 empties c. */
void wcells_fit(struct wcells *c, int width, enum walign align, enum wrole pad_role);
/* Give every cell of c the role `role`, except cells whose role is listed in
 * keep (n_keep entries). Used to paint the cursor row. */
void wcells_recolor(struct wcells *c, enum wrole role, const enum wrole *keep, size_t n_keep);
/* The cells as a malloc'ed UTF-8 string (for tests and debugging). */
char *wcells_text(const struct wcells *c);
/* Width of UTF-8 text in terminal columns as a wcells would measure it. */
int wtext_width(const char *utf8, bool ascii);
/* Split UTF-8 text into lines of at most `width` columns, breaking at spaces
 * where possible (and inside words that are longer than a line); explicit
 * newlines are kept. Returns the number of lines; *lines is a malloc'ed array
 * of malloc'ed strings (free with wtext_lines_free). */
size_t wtext_wrap(const char *utf8, int width, bool ascii, char ***lines);
void wtext_lines_free(char **lines, size_t n);

/* Draw cells at (y, x) of win, at most maxw columns (a double-width
 * character that does not fit is not drawn). */
void wcells_draw(const struct wcells *c, WINDOW *win, int y, int x, int maxw, const struct wui *ui);
/* Fill `n` columns at (y, x) with spaces of role `role`. */
void wui_fill(const struct wui *ui, WINDOW *win, int y, int x, int n, enum wrole role);

#endif
