/*
 * Internal to the fit panel: tui/fitpanel/fitpanel.c (the screen: its key
 * map and events, layout, focus, the job it publishes) over
 * tui/fitpanel/fitlines.c (composing its lines), tui/fitpanel/fitanswer.c
 * (the answer's lines) and the form (tui/fitpanel/fitform.h).
 */
#ifndef GPUX_TUI_FITPANEL_H
#define GPUX_TUI_FITPANEL_H

#include "tui/tui_int.h"
#include "tui/fitpanel/fitform.h"

/* The panel's own keys' actions. */
enum tui_fit_action {
	FA_NEXT = 1, FA_PREV, FA_CHOICE_NEXT, FA_CHOICE_PREV, FA_DONE, FA_BACK, FA_HIDE,
	FA_READLINE,
};


enum tui_fit_mode { FM_HIDDEN, FM_SIDE, FM_BELOW };

struct tui_fit_slot {
	int y, x, w;            /* in the panel's window */
	bool on;
};

struct tui_fit {
	struct tui_screen scr;  /* the screen (tui/frame/screen.h); its widgets: the
	                           panel, then the text fields over it */
	struct wpanel *panel;   /* the panel's window: everything but the text fields */
	struct tui *t;
	struct tui_ff ff;
	struct wfield *field[FF_COUNT]; /* text fields (NULL for choices and toggles) */
	bool visible, focused;  /* wanted on screen (f, F4); has the keyboard */
	enum tui_ff_id cur;     /* the field with the focus */
	enum tui_fit_mode mode;
	int ay, ax, ah, aw;     /* the table's area, given by the layout */
	int placed_h;           /* panel height at the last placement (below) */
	int top;                /* first line of the fields block on screen */
	struct tui_lines shown_lines; /* what the window shows (composed) */
	struct tui_fit_slot slot[FF_COUNT];
	struct tui_fit_slot placed[FF_COUNT];
	int sug_y;              /* the first suggestion line (side mode), -1 */
	size_t sug_first, sug_n;
};

enum {
	FIT_WIDE_COLS = 120,    /* from here the panel stands beside the table */
	FIT_SIDE_W = 46,        /* its width there (56 from 160 columns) */
	FIT_SIDE_W_WIDE = 56,
	FIT_CELL_W = 34,        /* a field's cell in the grid below the table */
	FIT_FIGURE_W = 22,      /* an architecture figure's cell (beside the table too) */
	FIT_FIGURES_MAX = 4,    /* architecture figures a line */
	FIT_TABLE_MIN = 5,      /* table lines kept below which the panel gives up lines */
	FIT_VALUE_MAX = 15,     /* widest text field ("Llama 3.1 405B" and the cursor) */
	FIT_VALUE_SIDE = 15,    /* ... beside the table */
	FIT_SUGGEST_MAX = 6,    /* presets listed beside the model field */
};

/* fitlines.c: compose the panel's lines for w × h (h < 0: as many as it
 * takes; side: beside the table) into p->shown_lines and the fields' slots;
 * the natural height. */
int tui_fit_compose(struct tui_fit *p, int w, int h, bool side);
/* The place (tui/screens.c): f shows the panel and gives it the keyboard;
 * with g->toggle, F4: shows or hides it. */
extern const struct tui_screen_class tui_fit_class;
void tui_fit_open(struct tui *t, const struct tui_goto *g);

#endif
