/*
 * Colour roles, themes and symbols — all tables (htop's CRT.c colour
 * schemes; key names and key maps are widgets/keys.c). A theme maps each role to colours and
 * attributes; the monochrome theme uses attributes only, so NO_COLOR and
 * terminals without colour (vt100) still show the header (bold, underlined),
 * the cursor row (reverse video) and a flash. wui_init() resolves a theme
 * once into curses attributes and colour pairs (pair i+1 for role i).
 */
#include "widgets/widgets.h"

#include <term.h>

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "util/util.h"

#define D (-1) /* the terminal's default colour */

const struct wtheme wtheme_color = {
	.name = "default",
	.color = true,
	.role = {
		[WR_NORMAL] = { D, D, 0 },
		[WR_DIM] = { COLOR_BLACK, D, WAT_BOLD },  /* "bright black": grey */
		[WR_HEADER] = { COLOR_BLACK, COLOR_GREEN, 0 },
		[WR_HEADER_SORT] = { COLOR_BLACK, COLOR_CYAN, WAT_BOLD },
		[WR_SELECTED] = { COLOR_BLACK, COLOR_CYAN, 0 },
		[WR_FLASH] = { COLOR_BLACK, COLOR_YELLOW, WAT_BOLD },
		[WR_FLASH_UP] = { COLOR_WHITE, COLOR_RED, WAT_BOLD },
		[WR_FLASH_DOWN] = { COLOR_BLACK, COLOR_GREEN, WAT_BOLD },
		[WR_GOOD] = { COLOR_GREEN, D, WAT_BOLD },
		[WR_BAD] = { COLOR_RED, D, 0 },
		[WR_MARKER] = { COLOR_YELLOW, COLOR_GREEN, WAT_BOLD },
		[WR_TAB] = { D, D, 0 },
		[WR_TAB_ACTIVE] = { COLOR_BLACK, COLOR_CYAN, WAT_BOLD },
		[WR_STATUS] = { COLOR_WHITE, COLOR_BLUE, 0 },
		[WR_STATUS_WARN] = { COLOR_BLACK, COLOR_YELLOW, 0 },
		[WR_STATUS_ERROR] = { COLOR_WHITE, COLOR_RED, WAT_BOLD },
		[WR_FKEY_KEY] = { D, D, 0 },
		[WR_FKEY_LABEL] = { COLOR_BLACK, COLOR_CYAN, 0 },
		[WR_PROMPT] = { COLOR_BLACK, COLOR_CYAN, 0 },
		[WR_DIALOG] = { COLOR_BLACK, COLOR_WHITE, 0 },
		[WR_DIALOG_TITLE] = { COLOR_WHITE, COLOR_BLUE, WAT_BOLD },
		[WR_FIELD] = { D, D, WAT_UNDERLINE },
		[WR_FIELD_FOCUS] = { COLOR_BLACK, COLOR_WHITE, 0 },
		[WR_FIELD_ERROR] = { COLOR_RED, D, WAT_BOLD },
	},
};

const struct wtheme wtheme_mono = {
	.name = "mono",
	.color = false,
	.role = {
		[WR_NORMAL] = { D, D, 0 },
		[WR_DIM] = { D, D, WAT_DIM },
		/* never reverse: the cursor row is, and on the first data row the
		 * two would merge; the sorted column is told by its ▲ ▼ */
		[WR_HEADER] = { D, D, WAT_BOLD | WAT_UNDERLINE },
		[WR_HEADER_SORT] = { D, D, WAT_BOLD | WAT_UNDERLINE },
		[WR_SELECTED] = { D, D, WAT_REVERSE },
		[WR_FLASH] = { D, D, WAT_BOLD | WAT_UNDERLINE },
		[WR_FLASH_UP] = { D, D, WAT_BOLD | WAT_UNDERLINE },
		[WR_FLASH_DOWN] = { D, D, WAT_BOLD | WAT_UNDERLINE },
		[WR_GOOD] = { D, D, WAT_BOLD },
		[WR_BAD] = { D, D, 0 },
		[WR_MARKER] = { D, D, WAT_REVERSE | WAT_BOLD },
		[WR_TAB] = { D, D, 0 },
		[WR_TAB_ACTIVE] = { D, D, WAT_REVERSE | WAT_BOLD },
		[WR_STATUS] = { D, D, WAT_REVERSE },
		[WR_STATUS_WARN] = { D, D, WAT_REVERSE | WAT_BOLD },
		[WR_STATUS_ERROR] = { D, D, WAT_REVERSE | WAT_BOLD | WAT_UNDERLINE },
		[WR_FKEY_KEY] = { D, D, WAT_BOLD },
		[WR_FKEY_LABEL] = { D, D, WAT_REVERSE },
		[WR_PROMPT] = { D, D, WAT_REVERSE },
		[WR_DIALOG] = { D, D, 0 },
		[WR_DIALOG_TITLE] = { D, D, WAT_REVERSE | WAT_BOLD },
		[WR_FIELD] = { D, D, WAT_UNDERLINE },
		[WR_FIELD_FOCUS] = { D, D, WAT_REVERSE },
		[WR_FIELD_ERROR] = { D, D, WAT_BOLD },
	},
};

/* For terminals with a light background: dark text on pale fills, no
 * white on white. */
const struct wtheme wtheme_light = {
	.name = "light",
	.color = true,
	.role = {
		[WR_NORMAL] = { D, D, 0 },
		[WR_DIM] = { COLOR_BLUE, D, 0 },
		[WR_HEADER] = { COLOR_WHITE, COLOR_BLUE, WAT_BOLD },
		[WR_HEADER_SORT] = { COLOR_WHITE, COLOR_MAGENTA, WAT_BOLD },
		[WR_SELECTED] = { COLOR_BLACK, COLOR_YELLOW, 0 },
		[WR_FLASH] = { COLOR_BLACK, COLOR_YELLOW, WAT_BOLD | WAT_UNDERLINE },
		[WR_FLASH_UP] = { COLOR_WHITE, COLOR_RED, WAT_BOLD },
		[WR_FLASH_DOWN] = { COLOR_WHITE, COLOR_GREEN, WAT_BOLD },
		[WR_GOOD] = { COLOR_GREEN, D, WAT_BOLD },
		[WR_BAD] = { COLOR_RED, D, WAT_BOLD },
		[WR_MARKER] = { COLOR_WHITE, COLOR_BLUE, WAT_BOLD },
		[WR_TAB] = { D, D, 0 },
		[WR_TAB_ACTIVE] = { COLOR_WHITE, COLOR_BLUE, WAT_BOLD },
		[WR_STATUS] = { COLOR_BLACK, COLOR_CYAN, 0 },
		[WR_STATUS_WARN] = { COLOR_BLACK, COLOR_YELLOW, 0 },
		[WR_STATUS_ERROR] = { COLOR_WHITE, COLOR_RED, WAT_BOLD },
		[WR_FKEY_KEY] = { D, D, WAT_BOLD },
		[WR_FKEY_LABEL] = { COLOR_WHITE, COLOR_BLUE, 0 },
		[WR_PROMPT] = { COLOR_WHITE, COLOR_BLUE, 0 },
		[WR_DIALOG] = { COLOR_BLACK, COLOR_CYAN, 0 },
		[WR_DIALOG_TITLE] = { COLOR_WHITE, COLOR_BLUE, WAT_BOLD },
		[WR_FIELD] = { D, D, WAT_UNDERLINE },
		[WR_FIELD_FOCUS] = { COLOR_BLACK, COLOR_YELLOW, 0 },
		[WR_FIELD_ERROR] = { COLOR_RED, D, WAT_BOLD },
	},
};

/* High contrast: white and yellow on black, bold, no grey. */
const struct wtheme wtheme_contrast = {
	.name = "contrast",
	.color = true,
	.role = {
		[WR_NORMAL] = { COLOR_WHITE, COLOR_BLACK, WAT_BOLD },
		[WR_DIM] = { COLOR_CYAN, COLOR_BLACK, 0 },
		[WR_HEADER] = { COLOR_BLACK, COLOR_YELLOW, WAT_BOLD },
		[WR_HEADER_SORT] = { COLOR_BLACK, COLOR_WHITE, WAT_BOLD | WAT_UNDERLINE },
		[WR_SELECTED] = { COLOR_BLACK, COLOR_WHITE, WAT_BOLD },
		[WR_FLASH] = { COLOR_BLACK, COLOR_YELLOW, WAT_BOLD },
		[WR_FLASH_UP] = { COLOR_WHITE, COLOR_RED, WAT_BOLD },
		[WR_FLASH_DOWN] = { COLOR_BLACK, COLOR_GREEN, WAT_BOLD },
		[WR_GOOD] = { COLOR_GREEN, COLOR_BLACK, WAT_BOLD },
		[WR_BAD] = { COLOR_RED, COLOR_BLACK, WAT_BOLD },
		[WR_MARKER] = { COLOR_BLACK, COLOR_YELLOW, WAT_BOLD },
		[WR_TAB] = { COLOR_WHITE, COLOR_BLACK, WAT_BOLD },
		[WR_TAB_ACTIVE] = { COLOR_BLACK, COLOR_YELLOW, WAT_BOLD },
		[WR_STATUS] = { COLOR_BLACK, COLOR_WHITE, WAT_BOLD },
		[WR_STATUS_WARN] = { COLOR_BLACK, COLOR_YELLOW, WAT_BOLD },
		[WR_STATUS_ERROR] = { COLOR_WHITE, COLOR_RED, WAT_BOLD },
		[WR_FKEY_KEY] = { COLOR_YELLOW, COLOR_BLACK, WAT_BOLD },
		[WR_FKEY_LABEL] = { COLOR_BLACK, COLOR_WHITE, WAT_BOLD },
		[WR_PROMPT] = { COLOR_BLACK, COLOR_YELLOW, WAT_BOLD },
		[WR_DIALOG] = { COLOR_WHITE, COLOR_BLUE, WAT_BOLD },
		[WR_DIALOG_TITLE] = { COLOR_BLACK, COLOR_YELLOW, WAT_BOLD },
		[WR_FIELD] = { COLOR_WHITE, COLOR_BLACK, WAT_UNDERLINE | WAT_BOLD },
		[WR_FIELD_FOCUS] = { COLOR_BLACK, COLOR_WHITE, WAT_BOLD },
		[WR_FIELD_ERROR] = { COLOR_RED, COLOR_BLACK, WAT_BOLD | WAT_UNDERLINE },
	},
};

#undef D

static const struct wtheme *const themes[] = {
	&wtheme_color, &wtheme_mono, &wtheme_light, &wtheme_contrast,
};

size_t wtheme_count(void)
{
	return sizeof themes / sizeof themes[0];
}

const struct wtheme *wtheme_at(size_t i)
{
	return i < wtheme_count() ? themes[i] : NULL;
}

const struct wtheme *wtheme_named(const char *name)
{
	for (size_t i = 0; name != NULL && i < wtheme_count(); i++)
		if (strcmp(themes[i]->name, name) == 0)
			return themes[i];
	if (name != NULL && (strcmp(name, "color") == 0 || strcmp(name, "colour") == 0))
		return &wtheme_color;
	return NULL;
}

static attr_t wa_to_attr(unsigned wa)
{
	attr_t a = A_NORMAL;

	if (wa & WAT_BOLD)
		a |= A_BOLD;
	if (wa & WAT_UNDERLINE)
		a |= A_UNDERLINE;
	if (wa & WAT_REVERSE)
		a |= A_REVERSE;
	if (wa & WAT_DIM)
		a |= A_DIM;
	return a;
}

bool wui_want_color(void)
{
	const char *nc = getenv("NO_COLOR");

	if (nc != NULL && nc[0] != '\0')
		return false;
	return has_colors();
}

void wui_init(struct wui *ui, const struct wtheme *theme, bool ascii, bool curses)
{
	bool color = theme->color;

	memset(ui, 0, sizeof *ui);
	ui->ascii = ascii;
	ui->fkeys = UINT32_MAX;
	if (curses) {
		ui->fkeys = 0;
		for (int n = 1; n < 32; n++) {
			char cap[8];
			snprintf(cap, sizeof cap, "kf%d", n);
			const char *seq = tigetstr(cap);
			if (seq != NULL && seq != (char *)-1 && seq[0] != '\0')
				ui->fkeys |= UINT32_C(1) << n;
		}
	}
	if (color && curses) {
		if (start_color() == ERR || COLOR_PAIRS < WR_COUNT + 1)
			color = false;
		else
			use_default_colors();
	} else {
		color = false;
	}
	if (!color && theme->color)
		theme = &wtheme_mono;
	ui->theme = theme;
	const char *dim = color ? tigetstr("dim") : NULL;
	bool has_dim = dim != NULL && dim != (char *)-1;

	for (int r = 0; r < WR_COUNT; r++) {
		const struct wtheme_entry *e = &theme->role[r];
		ui->attr[r] = wa_to_attr(e->attrs);
		ui->pair[r] = 0;
		if (color && (e->fg != -1 || e->bg != -1)) {
			short fg = e->fg, bg = e->bg;
			/* grey: the terminal's faint attribute where it has one (no colour
			 * pair to switch, the fewest bytes per row), else bright black
			 * (colour 8) with 16 colours, else bold black */
			if (r == WR_DIM) {
				if (has_dim) {
					ui->attr[r] = A_DIM;
					continue;
				}
				if (COLORS >= 16) {
					fg = 8;
					ui->attr[r] = A_NORMAL;
				}
			}
			init_pair((short)(r + 1), fg, bg);
			ui->pair[r] = (short)(r + 1);
		}
	}
}

/* ---- symbols ------------------------------------------------------------------ */

static const char *const symbols[WSYM_COUNT][2] = {
	[WSYM_SORT_UP] = { "\u25B2", "^" },
	[WSYM_SORT_DOWN] = { "\u25BC", "v" },
	[WSYM_MORE_LEFT] = { "\u2039", "<" },
	[WSYM_MORE_RIGHT] = { "\u203A", ">" },
	[WSYM_CHECK] = { "\u2713", "+" },
	[WSYM_CROSS] = { "\u2717", "x" },
	[WSYM_ELLIPSIS] = { "\u2026", "~" },
	[WSYM_HLINE] = { "\u2500", "-" },
	[WSYM_VLINE] = { "\u2502", "|" },
	[WSYM_TL] = { "\u250C", "+" },
	[WSYM_TR] = { "\u2510", "+" },
	[WSYM_BL] = { "\u2514", "+" },
	[WSYM_BR] = { "\u2518", "+" },
	[WSYM_SEP] = { "\u00B7", "|" },
	[WSYM_BLOCK_FULL] = { "\u2588", "#" },
	[WSYM_BLOCK_LIGHT] = { "\u2591", "." },
	[WSYM_ARROW_UP] = { "\u2191", "Up" },
	[WSYM_ARROW_DOWN] = { "\u2193", "Down" },
	[WSYM_ARROW_LEFT] = { "\u2190", "Left" },
	[WSYM_ARROW_RIGHT] = { "\u2192", "Right" },
	[WSYM_CURSOR_ROW] = { "\u25B6", ">" },
};

const char *wsym(enum wsym s, bool ascii)
{
	if ((int)s < 0 || s >= WSYM_COUNT)
		return "?";
	return symbols[s][ascii ? 1 : 0];
}
