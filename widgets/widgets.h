/*
 * widgets — gpux's reusable ncurses widgets: a table with a frozen first
 * column and sideways scrolling, tabs, a status bar, an F-key bar (htop
 * style), a help overlay generated from key maps, a yes/no dialog, a
 * checklist dialog (choose and order columns) and a one-line text field.
 *
 * The shape (htop's Panel/Object/RichString/CRT, nnn's bindings[]):
 *
 *  - Cell buffers. Everything a widget shows is first rendered into a
 *    struct wcells: a growable array of cells, each one grapheme cluster
 *    (a base character and its combining marks) with its width in terminal
 *    columns (wcwidth, never bytes), a colour role and attributes. Cutting
 *    ("…", never mid-character) and padding happen on cells. Building cells
 *    is pure (no curses), so a row's look is unit-tested without a terminal;
 *    wcells_draw() then blits them into a window.
 *  - Colour roles and themes. Cells carry a role (WR_HEADER, WR_FLASH, …),
 *    never a colour; a theme is a table role → colours + attributes. There is
 *    a colour theme and a monochrome one (NO_COLOR, terminals without
 *    colour). Symbols (▲ ▼ ‹ › ✓ ✗ … and box lines) come from one table with
 *    an ASCII column (^ v < > + x ~ - | +), used when the locale or terminal
 *    is not UTF-8 or --ascii is given; other non-ASCII text is transliterated.
 *  - Widgets. A widget is a struct whose first member is a struct wwidget
 *    (the base: class, window, geometry, dirty flag); the class is a const
 *    struct wwidget_class of functions (draw, handle, destroy) written with
 *    designated initializers, plus the key bindings it handles (data, so the
 *    help overlay can list them). Each widget owns one curses WINDOW.
 *    Handlers change state and return a mask of W_* flags; they never draw.
 *    The application's main loop calls wwidget_render() on each widget
 *    (which redraws a dirty widget and wnoutrefresh()es it) and ends the
 *    frame with ONE doupdate(). Overlays (help, dialogs) are widgets whose
 *    windows lie on top: render them last, and wwidget_touch() what lay
 *    beneath when they close.
 *  - Texts. Titles, hints and labels are given by the caller, already
 *    translated. The only words of the widgets themselves are the help lines
 *    of their key bindings: English msgids marked N_(), translated with _()
 *    when the help overlay is built (as the application's bindings are).
 *
 * Ownership: *_new returns a widget the caller owns, freed with *_free
 * (which sets the pointer to NULL). Strings given to widgets are copied.
 */
#ifndef GPUX_WIDGETS_H
#define GPUX_WIDGETS_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

/* ---- colour roles and themes ------------------------------------------------ */

enum wrole {
	WR_NORMAL,
	WR_DIM,          /* secondary text, "not published", rows that cannot take a job */
	WR_HEADER,       /* table header */
	WR_HEADER_SORT,  /* the sorted column's header */
	WR_SELECTED,     /* the cursor row */
	WR_FLASH,        /* a value that just changed (price flash) */
	WR_FLASH_UP,     /* ... and went up */
	WR_FLASH_DOWN,   /* ... and went down */
	WR_GOOD,         /* fits ✓, filled */
	WR_BAD,          /* does not fit ✗, rejected */
	WR_MARKER,       /* ‹ › scroll markers */
	WR_TAB,
	WR_TAB_ACTIVE,
	WR_STATUS,
	WR_STATUS_WARN,  /* stale data, local demo exchange */
	WR_STATUS_ERROR,
	WR_FKEY_KEY,     /* "F1" */
	WR_FKEY_LABEL,   /* "Help" */
	WR_PROMPT,       /* "Filter:" */
	WR_DIALOG,
	WR_DIALOG_TITLE,
	WR_FIELD,
	WR_FIELD_FOCUS,
	WR_FIELD_ERROR,
	WR_COUNT
};

/* Extra attributes a cell adds to its role. */
enum {
	WAT_BOLD = 1 << 0,
	WAT_UNDERLINE = 1 << 1,
	WAT_REVERSE = 1 << 2,
	WAT_DIM = 1 << 3,
};

/* One role in a theme: curses colours (COLOR_*, -1 = the terminal's
 * default) and WAT_* attributes. */
struct wtheme_entry {
	short fg, bg;
	unsigned attrs;
};

struct wtheme {
	const char *name;
	bool color;                       /* false: fg/bg are ignored */
	struct wtheme_entry role[WR_COUNT];
};

extern const struct wtheme wtheme_color;
extern const struct wtheme wtheme_mono;

/* The UI context every widget draws with: the theme resolved to curses
 * attributes and colour pairs, and whether to draw ASCII only. */
struct wui {
	const struct wtheme *theme;
	bool ascii;
	attr_t attr[WR_COUNT];
	short pair[WR_COUNT];
};

/* True when colour should be used: NO_COLOR is unset or empty and the
 * terminal has colours. Call after initscr/newterm. */
bool wui_want_color(void);
/* Resolve theme into ui (after initscr/newterm): with a colour theme on a
 * colour terminal it calls start_color/use_default_colors/init_pair; else
 * the monochrome attributes are used. Without a terminal (tests), pass
 * curses=false: attributes only, no curses calls. */
void wui_init(struct wui *ui, const struct wtheme *theme, bool ascii, bool curses);

/* ---- symbols ---------------------------------------------------------------- */

enum wsym {
	WSYM_SORT_UP,     /* ▲ ^ */
	WSYM_SORT_DOWN,   /* ▼ v */
	WSYM_MORE_LEFT,   /* ‹ < */
	WSYM_MORE_RIGHT,  /* › > */
	WSYM_CHECK,       /* ✓ + */
	WSYM_CROSS,       /* ✗ x */
	WSYM_ELLIPSIS,    /* … ~ */
	WSYM_HLINE,       /* ─ - */
	WSYM_VLINE,       /* │ | */
	WSYM_TL, WSYM_TR, WSYM_BL, WSYM_BR, /* ┌ ┐ └ ┘ + */
	WSYM_SEP,         /* · | (between status segments) */
	WSYM_BLOCK_FULL,  /* █ # */
	WSYM_BLOCK_LIGHT, /* ░ . */
	WSYM_ARROW_UP,    /* ↑ ^ */
	WSYM_ARROW_DOWN,  /* ↓ v */
	WSYM_ARROW_LEFT,  /* ← < */
	WSYM_ARROW_RIGHT, /* → > */
	WSYM_CURSOR_ROW,  /* ▶ > (a row marker) */
	WSYM_COUNT
};

/* The UTF-8 text of a symbol, or its ASCII fallback (static). */
const char *wsym(enum wsym s, bool ascii);

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

/* ---- keys and events ----------------------------------------------------------- */

/* A key: a Unicode code point for characters (including control characters:
 * 27 Esc, '\t' Tab, '\r' Enter, 127 Backspace on most terminals), or
 * WKEY_FN + a curses KEY_* code for function keys. */
typedef int32_t wkey;
enum {
	WKEY_FN = 0x200000,
	WKEY_ESC = 27,
	WKEY_TAB = '\t',
	WKEY_RETURN = '\r',
	WKEY_UP = WKEY_FN + KEY_UP,
	WKEY_DOWN = WKEY_FN + KEY_DOWN,
	WKEY_LEFT = WKEY_FN + KEY_LEFT,
	WKEY_RIGHT = WKEY_FN + KEY_RIGHT,
	WKEY_PGUP = WKEY_FN + KEY_PPAGE,
	WKEY_PGDN = WKEY_FN + KEY_NPAGE,
	WKEY_HOME = WKEY_FN + KEY_HOME,
	WKEY_END = WKEY_FN + KEY_END,
	WKEY_BTAB = WKEY_FN + KEY_BTAB,
	WKEY_ENTER = WKEY_FN + KEY_ENTER,
	WKEY_BACKSPACE = WKEY_FN + KEY_BACKSPACE,
	WKEY_DELETE = WKEY_FN + KEY_DC,
	WKEY_INSERT = WKEY_FN + KEY_IC,
	WKEY_RESIZE = WKEY_FN + KEY_RESIZE,
	WKEY_MOUSE = WKEY_FN + KEY_MOUSE,
	WKEY_F1 = WKEY_FN + KEY_F0 + 1,
	WKEY_F2 = WKEY_FN + KEY_F0 + 2,
	WKEY_F3 = WKEY_FN + KEY_F0 + 3,
	WKEY_F4 = WKEY_FN + KEY_F0 + 4,
	WKEY_F5 = WKEY_FN + KEY_F0 + 5,
	WKEY_F6 = WKEY_FN + KEY_F0 + 6,
	WKEY_F7 = WKEY_FN + KEY_F0 + 7,
	WKEY_F8 = WKEY_FN + KEY_F0 + 8,
	WKEY_F9 = WKEY_FN + KEY_F0 + 9,
	WKEY_F10 = WKEY_FN + KEY_F0 + 10,
	WKEY_F11 = WKEY_FN + KEY_F0 + 11,
	WKEY_F12 = WKEY_FN + KEY_F0 + 12,
};

/* No key (an escape sequence that means nothing here). */
enum { WKEY_NONE = -1 };

/* The key of a wget_wch() result (rc OK or KEY_CODE_YES, ch). */
wkey wkey_from_curses(int rc, wint_t ch);
/* k[0..n) starts with an escape sequence curses did not decode (ESC, '[' or
 * 'O', parameters, a final byte): its length, with its key in *out
 * (WKEY_NONE when it is none of ours: swallow it whole). 0 when k does not
 * start with a whole sequence. Pure. */
size_t wkey_decode_escape(const wkey *k, size_t n, wkey *out);
/* A key's name for the help: "↑" ("Up" in ASCII), "PgDn", "Home", "F1",
 * "Tab", "Shift-Tab", "Esc", "Enter", "Space", "Ctrl-L", "q". malloc'ed. */
char *wkey_name(wkey k, bool ascii);
/* True for keys that insert text into a field (printable characters). */
bool wkey_printable(wkey k);

enum wmouse { WM_NONE, WM_CLICK, WM_DOUBLE, WM_WHEEL_UP, WM_WHEEL_DOWN };

enum wev_type { WEV_KEY, WEV_MOUSE };

/* An input event; mouse positions are screen coordinates. */
struct wevent {
	enum wev_type type;
	wkey key;                /* WEV_KEY */
	enum wmouse mouse;       /* WEV_MOUSE */
	int y, x;                /* WEV_MOUSE */
};

/* ---- key bindings (data) ---------------------------------------------------------- */

/* One key → one action. help: a one-line description as an English msgid
 * (marked N_(); the help overlay translates it), or NULL to leave the
 * binding out of the help. Bindings with the same action and help are
 * listed on one help line. */
struct wbinding {
	wkey key;
	int action;
	const char *help;
};

/* The binding of key in map (n entries), or NULL. */
const struct wbinding *wbinding_find(const struct wbinding *map, size_t n, wkey key);

/* ---- handler results ------------------------------------------------------------------- */

enum {
	W_IGNORED = 0,
	W_HANDLED = 1 << 0,  /* the event was used */
	W_REDRAW = 1 << 1,   /* the widget's look changed (it marked itself dirty) */
	W_LAYOUT = 1 << 2,   /* geometry must be recomputed */
	W_QUIT = 1 << 3,     /* leave the application */
	W_SELECT = 1 << 4,   /* the selection (cursor row, tab) changed */
	W_CHANGED = 1 << 5,  /* a value (field text, checklist) changed */
	W_ACTION = 1 << 6,   /* the widget asks its owner to act; see its fields */
	W_CLOSE = 1 << 7,    /* an overlay or field is done (see its result) */
};

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
/* True when the screen position (y, x) lies inside the widget. */
bool wwidget_contains(const struct wwidget *w, int y, int x);
void wwidget_set_focus(struct wwidget *w, bool focused);
/* Destroy the widget (class destroy, window, struct) and set *w to NULL. */
void wwidget_free(struct wwidget **w);

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

/* Lay out ncols columns of natural widths nat[] (nat[0] is the frozen
 * column) in `width` terminal columns, scrolled so that scrollable column
 * `scroll` (>= 1) comes first; scroll is clamped, and pulled left while the
 * columns before it would fit too (so widening the terminal reveals them).
 * When not every column fits: column 0 is cut to WTABLE_FROZEN_PCT % of the
 * width, but not below frozen_min (nor wider than leaves 8 columns or half
 * the width to the others), and the last `pinned` columns (if there is room
 * for them and one other column) stay at the right edge, after the › marker,
 * while columns 1 .. ncols-pinned-1 scroll. Fills col_x[i]/col_w[i] (arrays
 * of ncols) with each column's position and width, -1/0 for hidden columns.
 * Returns the effective scroll. Pure. */
size_t wtable_layout(const int *nat, size_t ncols, size_t scroll, int width, int frozen_min,
		     size_t pinned, struct wtable_layout *out, int *col_x, int *col_w);

struct wtable {
	struct wwidget base;
	struct wtable_source src;
	size_t sel;             /* cursor row (index among the rows shown) */
	size_t top;             /* first row on screen */
	size_t scroll;          /* first scrollable column shown (>= 1) */
	int sort_col;           /* header indicator: column, -1 none */
	bool sort_desc;
	char *empty_text;       /* shown when there are no rows */
	/* set when handle() returns W_ACTION */
	enum { WTABLE_EV_NONE, WTABLE_EV_HEADER_CLICK, WTABLE_EV_ACTIVATE } event;
	size_t event_col;       /* WTABLE_EV_HEADER_CLICK: the column clicked */
	/* private */
	int *nat;               /* natural widths, ncols */
	int *col_x, *col_w;
	size_t ncols, nat_cap;
	int frozen_min;         /* from the source at the last reload */
	size_t pinned;
	struct wtable_layout lay;
	struct wcells tmp, line;
};

/* Navigation actions of the table (its bindings; usable from an app map). */
enum wtable_action {
	WTABLE_UP = 1, WTABLE_DOWN, WTABLE_PGUP, WTABLE_PGDN, WTABLE_HOME, WTABLE_END,
	WTABLE_LEFT, WTABLE_RIGHT, WTABLE_ACTIVATE,
};

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
/* Render row `row` (or the header with row == SIZE_MAX) exactly as drawn,
 * `width` columns wide with the current layout state, into out. Pure except
 * for reading the table; used by draw and by tests. */
void wtable_render_line(struct wtable *t, size_t row, int width, struct wcells *out);

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
