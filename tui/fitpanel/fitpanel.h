/*
 * Internal to the fit panel: tui/fitpanel/fitpanel.c (layout, composing the lines,
 * the screen class) and tui/fitpanel/fitkeys.c (its key map and events).
 */
#ifndef GPUX_TUI_FITPANEL_H
#define GPUX_TUI_FITPANEL_H

#include "tui/tui_int.h"
#include "tui/fitpanel/fitform.h"

/* The panel's own keys (data: the help overlay lists them). */
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

enum { TUI_FIT_N_KEYS = 12 };
/* The panel's own keys (data: the help lists them, the handler dispatches on them). */
extern const struct wbinding tui_fit_keys[TUI_FIT_N_KEYS];

/* fitpanel.c, for the events: give or take the keyboard; move the focus
 * to a field, or to the next/previous shown one, or to one shown; copy
 * texts the form replaced into the editors; publish the job for the
 * tables. */
void tui_fit_set_focus(struct tui_fit *p, bool on);
void tui_fit_move_focus(struct tui_fit *p, enum tui_ff_id to);
void tui_fit_step_focus(struct tui_fit *p, int dir);
void tui_fit_keep_focus_shown(struct tui_fit *p);
void tui_fit_fields_pull(struct tui_fit *p);
void tui_fit_publish(struct tui_fit *p);
/* fitkeys.c: the screen's event handler. */
unsigned tui_fit_screen_event(struct tui_screen *s, const struct wevent *ev);
/* fitpanel.c: F4, show the panel or hide it. */
void tui_fit_toggle(struct tui *t);
/* The place (tui/screens.c): f shows the panel and gives it the keyboard;
 * with g->toggle, F4: shows or hides it. */
void tui_fit_open(struct tui *t, const struct tui_goto *g);

#endif
