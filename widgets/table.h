/*
 * widgets/table.h — the table (widgets/table.c); included through widgets/widgets.h.
 */
#ifndef GPUX_WIDGETS_TABLE_H
#define GPUX_WIDGETS_TABLE_H

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

/* ---- the table ------------------------------------------------------------------------------- */

/* Where the table gets its data: the rows shown (already filtered and sorted
 * by the owner), the columns shown (column 0 is frozen) and a pure formatter
 * per header and cell. The formatter appends to `out` (which arrives empty)
 * and chooses roles (WR_DIM for "not published", WR_FLASH for a price that
 * just changed …); the table adds padding, cutting, gaps, the sort
 * indicator, the markers and the cursor row's colour. */
struct wtable_source {
	void *ctx;
	size_t (*rows)(void *ctx);
	size_t (*cols)(void *ctx);
	void (*header)(void *ctx, size_t col, struct wcells *out);
	void (*cell)(void *ctx, size_t row, size_t col, struct wcells *out);
	enum walign (*align)(void *ctx, size_t col);  /* NULL: left */
	/* Optional. The cell drawn at most `width` columns wide (it arrives
	 * empty), for a column that shortens better than by cutting its end: the
	 * GPU column cuts the architecture before the name. NULL: cell(), cut. */
	void (*cell_fit)(void *ctx, size_t row, size_t col, int width, struct wcells *out);
	/* Optional. The narrowest column 0 may be cut to (the GPU names' short
	 * form) when other columns are hidden; NULL or 0: no floor. */
	int (*frozen_min)(void *ctx);
	/* Optional. Whether column 0 gives way, down to that floor, to show
	 * more of the other columns while some are hidden (the market table
	 * with the fit job's figures); NULL: it keeps its share. */
	bool (*frozen_yields)(void *ctx);
	/* Optional. How many of the last columns stay pinned at the right edge
	 * while the others scroll (the price, as the GPU column stays on the
	 * left); NULL: none. */
	size_t (*pinned)(void *ctx);
};

enum {
	WTABLE_GAP = 2,         /* columns between two scrollable columns */
	WTABLE_FROZEN_GAP = 3,  /* between the frozen column and the rest: " ‹ " */
	WTABLE_MAX_COL = 40,    /* no column is wider than this */
	WTABLE_MIN_FROZEN = 6,  /* the frozen column is cut no narrower than this */
	WTABLE_FROZEN_PCT = 30, /* ... and no wider than this % of the width (or
	                           its floor) while other columns are hidden */
};

/* Which columns are shown for a width (pure; see wtable_layout()). */
struct wtable_layout {
	int width;              /* the width laid out */
	int frozen_w;           /* columns given to column 0 */
	size_t first, end;      /* scrollable columns shown: [first, end) */
	bool more_left;         /* columns 1..first-1 are hidden: ‹ at left_x */
	bool more_right;        /* columns end.. are hidden: › at right_x */
	int left_x, right_x;    /* marker positions, -1 when none */
	size_t pinned;          /* the last `pinned` columns are at pin_x, the
	                           right edge (0: none pinned) */
	int pin_x;              /* -1 when none */
	int used;               /* columns used by the shown columns */
};

/* The columns to lay out (widths in terminal columns, arrays of n; column 0
 * is the frozen one). */
struct wtable_cols {
	const int *nat;         /* natural: the header with room for the sort
	                           indicator, or the widest cell */
	const int *min;         /* the narrowest that cuts nothing (the header
	                           without that room); NULL: nat */
	const int *floor;       /* the narrowest a column shown alone may be cut
	                           to: 1 for text, the widest cell for a number
	                           (a number is never cut: it is dropped); NULL: 1 */
	size_t n;
	int frozen_min;         /* column 0 is cut no narrower (0: no floor) */
	bool frozen_yields;     /* ... and down to it to show more columns */
	size_t pinned;          /* the last columns kept at the right edge */
};

/* Lay out the columns in `width` terminal columns, scrolled so that
 * scrollable column `scroll` (>= 1) comes first; scroll is clamped, and
 * pulled left while the columns before it would fit too (so widening the
 * terminal reveals them). The columns take the width there is: every one is
 * shown when they fit at their narrowest (what is left is spread over them
 * up to their natural widths), column 0 cut for that down to frozen_min
 * (without a floor, to WTABLE_FROZEN_PCT % of the width). Otherwise column
 * 0 is cut to WTABLE_FROZEN_PCT % of the width, but not below frozen_min
 * (nor wider than leaves 8 columns or half the width to the others), and
 * with frozen_yields further, down to frozen_min, by what lets more
 * columns of the first page show (the same at every scroll position); the
 * last `pinned` columns (if there is room for them and one other column)
 * stay at the right edge, after the › marker, and columns 1 .. n-pinned-1
 * scroll, as many shown as fit at their narrowest. Fills col_x[i]/col_w[i]
 * with each column's position and width, -1/0 for hidden columns. Returns
 * the effective scroll. Pure. */
size_t wtable_layout(const struct wtable_cols *c, size_t scroll, int width,
		     struct wtable_layout *out, int *col_x, int *col_w);

struct wtable {
	struct wwidget base;
	struct wtable_source src;
	size_t sel;             /* cursor row (index among the rows shown) */
	size_t top;             /* first row on screen */
	size_t scroll;          /* first scrollable column shown (>= 1) */
	int sort_col;           /* header indicator: column, -1 none */
	bool sort_desc;
	char *empty_text;       /* shown when there are no rows */
	int max_col;            /* no column wider than this (0: WTABLE_MAX_COL); a
	                           table of sentences raises it (before a reload) */
	/* set when handle() returns W_ACTION */
	enum { WTABLE_EV_NONE, WTABLE_EV_HEADER_CLICK, WTABLE_EV_ACTIVATE } event;
	size_t event_col;       /* WTABLE_EV_HEADER_CLICK: the column clicked */
	/* private */
	int *nat;               /* natural widths, ncols */
	int *min, *floor;       /* narrowest, and cut floor (struct wtable_cols) */
	int *head_w, *cell_w;   /* the header's width, the widest cell's */
	int *col_x, *col_w;
	size_t ncols, nat_cap;
	int frozen_min;         /* from the source at the last reload */
	bool frozen_yields;
	size_t pinned;
	struct wtable_layout lay;
	struct wcells tmp, line;
	const struct wbinding *keys; /* NULL: wtable_bindings */
	size_t n_keys;
};

/* Navigation actions of the table (its bindings; usable from an app map). */
enum wtable_action {
	WTABLE_UP = 1, WTABLE_DOWN, WTABLE_PGUP, WTABLE_PGDN, WTABLE_HOME, WTABLE_END,
	WTABLE_LEFT, WTABLE_RIGHT, WTABLE_ACTIVATE,
};

/* The table's keys (its class's bindings, named "up", "down", "page-up",
 * "page-down", "first", "last", "left", "right"): WTABLE_N_BINDINGS rows. */
enum { WTABLE_N_BINDINGS = 14 };
extern const struct wbinding wtable_bindings[WTABLE_N_BINDINGS];

/* A table over src (copied); ui borrowed. Calls wtable_reload. */
struct wtable *wtable_new(const struct wui *ui, const struct wtable_source *src);
void wtable_free(struct wtable **t);
/* The data changed (rows, columns, values): re-measure the columns. With
 * keep_widths, columns never get narrower than before (no jitter when a
 * price changes); without it (other columns, other tab) they are measured
 * afresh. Keeps the cursor index (clamped); marks dirty. */
void wtable_reload(struct wtable *t, bool keep_widths);
/* Perform a navigation action; returns W_* flags (W_SELECT when the cursor
 * row moved). */
unsigned wtable_do(struct wtable *t, enum wtable_action a);
/* Put the cursor on row i (clamped) and keep it visible. */
void wtable_select(struct wtable *t, size_t row);
void wtable_set_sort(struct wtable *t, int col, bool desc);
/* Scroll so that scrollable column `col` is shown first. */
void wtable_set_scroll(struct wtable *t, size_t col);
/* Scroll as little as needed for column col to be shown (e.g. the column
 * just chosen for sorting). */
void wtable_show_column(struct wtable *t, size_t col);
void wtable_set_empty_text(struct wtable *t, const char *text);
/* The column under screen column x (from the last layout), or -1. */
int wtable_column_at(const struct wtable *t, int x);
/* Rows of the body on screen (height minus the header). */
int wtable_page(const struct wtable *t);
/* The keys the table handles from now on (borrowed; the map must outlive
 * the table; actions as wtable_bindings'): the owner's rebinding of them.
 * NULL: wtable_bindings. */
void wtable_set_bindings(struct wtable *t, const struct wbinding *map, size_t n);
/* Render row `row` (or the header with row == SIZE_MAX) exactly as drawn,
 * `width` columns wide with the current layout state, into out. Pure except
 * for reading the table; used by draw and by tests. */
void wtable_render_line(struct wtable *t, size_t row, int width, struct wcells *out);

#endif
