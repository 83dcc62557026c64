/*
 * widgets/theme.h — colour roles, themes and symbols (widgets/theme.c); included through widgets/widgets.h.
 */
#ifndef GPUX_WIDGETS_THEME_H
#define GPUX_WIDGETS_THEME_H

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

/* The themes: "default" (colour on a dark or any background), "mono"
 * (attributes only: NO_COLOR, terminals without colour), "light" (for a
 * light background) and "contrast" (bold, bright, no grey). */
extern const struct wtheme wtheme_color;
extern const struct wtheme wtheme_mono;
extern const struct wtheme wtheme_light;
extern const struct wtheme wtheme_contrast;
/* Every theme, in the order above: how many, the i-th (NULL past them),
 * the one called name ("color" and "colour" are "default"), or NULL. */
size_t wtheme_count(void);
const struct wtheme *wtheme_at(size_t i);
const struct wtheme *wtheme_named(const char *name);

/* The UI context every widget draws with: the theme resolved to curses
 * attributes and colour pairs, and whether to draw ASCII only. */
struct wui {
	const struct wtheme *theme;
	bool ascii;
	attr_t attr[WR_COUNT];
	short pair[WR_COUNT];
	/* bit n: the terminal has an Fn key (kf<n> in its description), for
	 * n = 1..31; every bit without a terminal */
	uint32_t fkeys;
	/* For an F-key the terminal lacks: another key that does the same where
	 * the F-key bar is shown (WKEY_NONE: none). NULL: the F-key stays. Set
	 * by the application after wui_init. */
	int32_t (*key_alt)(void *ctx, int32_t fkey); /* wkey */
	void *key_alt_ctx;
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

#endif
