/*
 * Internal to the market screens: the browse tables (tui/market/browse.c:
 * the model of the tabs and views; tui/market/browse_screen.c: the screen
 * class, its key map and events), the bottom screen of the stack; and the
 * places of the detail and compare screens (tui/screens.c).
 */
#ifndef GPUX_TUI_BROWSE_H
#define GPUX_TUI_BROWSE_H

#include "tui/tui_int.h"

/* Actions of the application's key map (the table's own navigation keys are
 * the table widget's bindings). */
enum tui_action {
	A_NONE,
	A_QUIT,
	A_HELP,
	A_TAB,          /* the tab of the digit pressed */
	A_TAB_NEXT,
	A_TAB_PREV,
	A_SORT_NEXT,
	A_SORT_PREV,
	A_SORT_REVERSE,
	A_FILTER,
	A_COLUMNS,
	A_ESCAPE,
	A_REDRAW,
	/* the order pages */
	A_BUY,
	A_SELL,
	A_ORDERS,
	A_RENTALS,
	A_ACCOUNT,
	A_ALERT,        /* A: a new alert on the row's GPU (the alerts page) */
	A_SPARK_SCALE,  /* S: the sparklines on one scale, or each on its own */
	/* the fit calculator */
	A_FIT,
	A_FIT_TOGGLE,
	A_FIT_CHEAPEST,
	A_JOB_ORDER,
	A_LANG,
	A_DETAIL,       /* Enter: the detail screen of the row's GPU */
	A_MARK,         /* Space: mark or unmark the row's GPU */
	A_COMPARE,      /* =: the marked GPUs side by side */
	A_SORT,         /* :sort COLUMN [desc] */
	A_SEARCH,       /* \ Ctrl-F: jump to a row, hiding none */
	A_WATCH,        /* *: the watchlist */
	A_EXPORT,       /* e, :export csv|json [FILE] */
	A_COPY,         /* y, :copy [COLUMN] */
	A_SEARCH_NEXT,  /* n */
	A_SEARCH_PREV,  /* N */
	A_GOTO,         /* :gpu GPU, :h200: the cursor on that GPU */
};

/* One workload's tab. */
struct tui_tab {
	const struct catalog_workload *w;
	struct view_table *view;    /* built when first shown */
	char **col_ids;             /* the chosen columns after GPU, in order */
	size_t n_col_ids;
	size_t *vis;                /* visible columns: indexes into view->columns */
	size_t n_vis;
	char *cursor_gpu;           /* the GPU under the cursor (id), or NULL */
	size_t scroll;              /* sideways scroll of the table */
	char *filter;               /* NULL: none */
};

struct tui_browse {
	struct tui_screen base;     /* its widgets: the tabs, the table, the filter */
	struct wtabs *tabs;
	struct wtable *table;
	struct wfield *filter;      /* while a filter is typed */
	struct wpanel *hint;        /* ... and what it takes, on the status bar's row */
	struct wfield *search;      /* while a search is typed (on the same row) */
	char *search_text;          /* the last search (n, N), or NULL */
	char *search_start;         /* the GPU the cursor was on when it was typed */
	struct tui_tab *tab;
	size_t n_tabs, cur;
	uint64_t market_seen;       /* t->m.gen last applied */
	uint64_t hist_seen;         /* t->m.hist.gen last applied */
	char **marks;               /* marked GPU ids, in the order marked (every tab) */
	size_t n_marks;
	char **watch;               /* the watchlist: GPU ids pinned on top of every tab */
	size_t n_watch;
	uint64_t flash_sig;         /* which GPUs flashed at the last recalc */
};

/* ---- browse.c ---- */
void browse_init(struct tui_browse *b);
void browse_free(struct tui_browse *b);
/* Make every text again in the current language. */
void browse_lang_changed(struct tui_browse *b);
/* Switch to tab i (builds its view); keeps each tab's cursor and scroll. */
void browse_show_tab(struct tui_browse *b, size_t i);
/* The current tab's view changed (prices, sort, filter, columns): reload the
 * table and put the cursor back on its GPU. keep_widths: columns do not
 * shrink (a price update). */
void browse_refresh_table(struct tui_browse *b, bool keep_widths);
/* Remember the GPU under the cursor of the current tab. */
void browse_note_cursor(struct tui_browse *b);
void browse_sort_step(struct tui_browse *b, int dir);
void browse_sort_reverse(struct tui_browse *b);
/* Sort by visible column vc (a header click): again on the same column reverses. */
void browse_sort_visible(struct tui_browse *b, size_t vc);
/* :sort ID: by the view's column id, ascending or not; -1 when the table
 * has no such column. */
int browse_sort_named(struct tui_browse *b, const char *id, bool desc);
/* The cursor on gpu_id (a filter that hides it is cleared, and said). */
void browse_goto(struct tui_browse *b, const char *gpu_id);
/* $: by the job's cost per hour (again: catalogue order). */
void browse_sort_cheapest(struct tui_browse *b);
/* The current tab's filter expression (view_filter_set; NULL: none): 0, or
 * -1 and *cause (may be NULL) when it cannot be read (the tab keeps the
 * filter it had). */
int browse_set_filter(struct tui_browse *b, const char *text, char **cause);
/* Open the column chooser (its result is applied when it closes). */
void browse_columns_open(struct tui_browse *b);
/* Move the cursor to the next shown row (dir > 0; < 0 the previous)
 * that text matches (a filter expression, view_filter_set's), wrapping
 * round; here: the cursor's own row counts first. 1 moved (*wrapped: past
 * the end), 0 no row matches, -1 and *cause when text cannot be read. */
int browse_search(struct tui_browse *b, const char *text, int dir, bool here, bool *wrapped,
		  char **cause);
/* The current tab as it is shown (its columns in order, its sort, its
 * filter, the watchlist on top) into path, atomically, as `gpux table
 * --format csv|json` writes it: 0 and *rows, or -1 and *cause. */
int browse_export(struct tui_browse *b, enum view_export_format fmt, const char *path,
		  size_t *rows, char **cause);
/* The text of the cursor row's cell in column col_id (NULL: the sorted
 * column; the GPU's name without one), and what it is in words (*what);
 * both malloc'ed; NULL without a row. */
char *browse_cell(struct tui_browse *b, const char *col_id, char **what);
/* "N of M shown" for the current tab (malloc'ed). */
char *browse_count_text(struct tui_browse *b);
/* Pull what changed: the market's prices (t->m.gen), the fit job
 * (t->job), the flashes; publish the cursor (t->sel). */
void browse_recalc(struct tui_browse *b, int64_t now);
/* Space: mark the GPU under the cursor, or unmark it; the cursor moves down. */
void browse_toggle_mark(struct tui_browse *b);
bool browse_is_marked(const struct tui_browse *b, const char *gpu_id);
/* *: the GPU under the cursor onto the watchlist (pinned on top of every
 * tab), or off it. */
void browse_toggle_watch(struct tui_browse *b);
/* S: every sparkline of the tables (and of compare) on the one scale of all
 * the GPUs' last 24 h, its lowest and highest price in the column's
 * header, or back to each GPU's own scale; remembered per exchange. */
void browse_toggle_spark_scale(struct tui_browse *b);
bool browse_is_watched(const struct tui_browse *b, const char *gpu_id);
/* What the session remembers of the tables (tui_state_set): the tab, its
 * sort and filter, the marks, the watchlist. After every action. */
void browse_remember(struct tui_browse *b);
/* =: compare the marked GPUs (2 to 4), or say why not. */
void browse_compare(struct tui_browse *b);
/* What the fit job orders on gpu_id, for the order form (b) and the
 * detail screen alike, into g: the GPUs it runs on and its hours — a
 * training run's, rounded up, else TUI_JOB_HOURS —, whether it fits, and
 * the machines it needs (units of node_gpus GPUs inside one machine on
 * interconnect: what `b` buys); gpus and hours 0, node_gpus 0 and
 * interconnect NULL when there is no job or it runs on no count of that
 * GPU (fits -1 when there is no job). */
void browse_order_size(struct tui_browse *b, const char *gpu_id, struct tui_goto *g);

/* ---- the places of the other market screens (tui/screens.c) ---- */
extern const struct tui_screen_class tui_browse_class, tui_compare_class, tui_detail_class;
/* detail.c: one GPU's spec sheet, book, chart and trades (Esc back): g->gpu;
 * g->gpus × g->hours what the fit job needs there (0: no job; hours 0: 24),
 * g->fits as fit_result.fits. */
void tui_detail_open(struct tui *t, const struct tui_goto *g);
/* browse_screen.c: the tables' cursor moves g->step rows (+1, -1) from the
 * row of g->gpu (from the cursor where the current tab does not show it)
 * and the detail of the row it comes to opens (tui_detail_open: the same
 * detail screen, its range and view kept); at either end of the table it
 * stays, and says so. */
void tui_browse_step_open(struct tui *t, const struct tui_goto *g);
/* compare.c: the marked GPUs side by side (Esc back): g->ids, 2 to 4
 * catalogue GPU ids (more are left out), in the order shown. */
void tui_compare_open(struct tui *t, const struct tui_goto *g);

#endif
