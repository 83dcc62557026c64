/*
 * widgets/bars.h — tabs, status bar and F-key bar (widgets/tabs.c, widgets/bars.c); included through widgets/widgets.h.
 */
#ifndef GPUX_WIDGETS_BARS_H
#define GPUX_WIDGETS_BARS_H

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

/* ---- tabs --------------------------------------------------------------------------------- */

struct wtabs {
	struct wwidget base;
	char **labels;
	char **shorts;           /* short labels, NULL entries: none */
	size_t n;
	size_t active;
	size_t clicked;          /* W_ACTION: the tab clicked */
	int *x, *w;              /* last layout, for clicks */
};

/* Tabs with these labels (copied), e.g. "1 LLM training". */
struct wtabs *wtabs_new(const struct wui *ui, const char *const *labels, size_t n);
void wtabs_free(struct wtabs **t);
void wtabs_set_active(struct wtabs *t, size_t i);
/* Give tab i a short label (copied), e.g. "1 Training", used when the full
 * labels do not fit. NULL removes it. */
void wtabs_set_short(struct wtabs *t, size_t i, const char *label);
/* Lay the tabs out in `width` columns (pure): fills x[]/w[] (n entries).
 * The first that fits of: every full label; the active tab's full label and
 * the others' short ones; every short label; the active short label whole
 * and the others cut alike (no shorter than "2 Fi…"); the active short label
 * and the others' numbers; numbers only. A tab of width w shows its full
 * label if it fits in w - 2 columns, else its short one, cut if need be; a
 * tab of width 1 shows its label's first character (its number). */
void wtabs_layout(const struct wtabs *t, int width, int *x, int *w);

/* ---- status bar ------------------------------------------------------------------------------ */

struct wstatus_seg {
	char *text;
	enum wrole role;
	bool right;             /* right-aligned group */
	int prio;               /* higher stays longer; WSTATUS_KEEP: never dropped */
};

/* Priorities of status segments: when the bar is too narrow, the segment of
 * lowest priority goes first (the last added among equals); WSTATUS_KEEP
 * segments (stale data) are never dropped, the left ones are cut with "…". */
enum {
	WSTATUS_LOW = 10,
	WSTATUS_NORMAL = 50,
	WSTATUS_HIGH = 80,
	WSTATUS_KEEP = 100,
};

struct wstatus {
	struct wwidget base;
	struct wstatus_seg *seg;
	size_t n, cap;
	struct wstatus_seg *next; /* being built */
	size_t n_next, cap_next;
};

struct wstatus *wstatus_new(const struct wui *ui);
void wstatus_free(struct wstatus **s);
/* Build the next contents: begin, add segments, commit. Left segments are
 * joined by " · "; right ones are right-aligned, two columns at least after
 * the left ones. When space runs out segments are dropped by priority (see
 * WSTATUS_*). Commit marks the bar dirty only when the contents changed. */
void wstatus_begin(struct wstatus *s);
/* A segment of priority WSTATUS_KEEP for WR_STATUS_ERROR, WSTATUS_HIGH for
 * WR_STATUS_WARN, else WSTATUS_NORMAL. */
void wstatus_add(struct wstatus *s, const char *text, enum wrole role, bool right);
void wstatus_add_prio(struct wstatus *s, const char *text, enum wrole role, bool right, int prio);
void wstatus_commit(struct wstatus *s);
/* Render the bar's line into out (pure; for tests). */
void wstatus_render_line(const struct wstatus *s, int width, struct wcells *out);

/* ---- F-key bar ------------------------------------------------------------------------------- */

struct wfkeys_item {
	wkey key;               /* the key a click sends, e.g. WKEY_F1 */
	char *label;            /* "F1" */
	char *text;             /* "Help" */
	wkey shown;             /* the key offered: key, or the one that does the
	                           same when the terminal lacks it (struct wui
	                           key_alt), WKEY_NONE: left out */
	char *shown_label;      /* its name when it is not key, or NULL */
};

struct wfkeys {
	struct wwidget base;
	struct wfkeys_item *items;
	size_t n;
	wkey clicked;           /* W_ACTION: the key of the item clicked */
	int *x, *w;
};

struct wfkeys *wfkeys_new(const struct wui *ui);
void wfkeys_free(struct wfkeys **f);
/* Replace the items (strings copied). */
void wfkeys_add(struct wfkeys *f, wkey key, const char *label, const char *text);
void wfkeys_clear(struct wfkeys *f);
/* The bar of these n items, keys[i] labelled with its name (wkey_name,
 * "F1", "Esc", "x") and texts[i] (copied): the bar is marked for redrawing
 * only when an item, or the key offered for one (struct wui key_alt),
 * changed. */
void wfkeys_set(struct wfkeys *f, const wkey *keys, const char *const *texts, size_t n);

#endif
