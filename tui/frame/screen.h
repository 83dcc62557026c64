/*
 * Internal to tui/: a screen is a class (tmux's window modes, htop's
 * panels). The browse tables, the fit panel, the detail and compare
 * screens, the order form, the orders, rentals and account pages, the
 * welcome screen, the help, the column chooser, the language menu and
 * every dialog implement it; the frame (tui/frame/) keeps them on one
 * ordered stack (struct tui, tui/tui_int.h) and names none of them: the
 * loop (tui/frame/app.c) makes the bottom one (the browse tables) and
 * opens the rest by place through the table of tui/screens.c.
 *
 * The stack, bottom to top: the browse tables (always there), the fit panel
 * (when opened; it shares the tables' area), the screens that cover the
 * tables (detail, compare, one trade page: TS_OPAQUE), then overlays (help,
 * column chooser, language menu, dialogs: TS_MODAL, they take every event).
 * A trade page (TS_PAGE) is kept when it leaves the stack: its state, and
 * the requests it started, live on until it is shown again or the session
 * ends; one page is on the stack at a time.
 *
 * A screen owns a list of widgets (tui_screen_add), bottom to top: the
 * stack places none of them (layout is the screen's), but hides, copies,
 * touches and frees them, walking the lists (neomutt's window_recalc /
 * window_repaint), and puts the terminal cursor in the focused field.
 *
 * One frame (app.c, then the phases below):
 *
 *   tick     every screen starts what is due and lowers the poll timeout
 *   recalc   every screen reads what changed (the market's, the account's
 *            and the fit job's generation counters) into its own widgets; a
 *            screen that needs other geometry asks for a layout here
 *   layout   (when asked) top-down: each screen takes its share of the body
 *            area (an opaque one takes it all, so those beneath hide); the
 *            widgets of a screen that does not show are hidden
 *   repaint  the shown screens that build their widgets at the last moment
 *   render   bottom-up, every shown screen's widgets in order: dirty ones
 *            are drawn, and one that lies over something copied this frame
 *            is copied again
 *   cursor   the focused screen's focused field (the topmost screen that
 *            wants the keyboard)
 *   then one doupdate()
 *
 * Events: the top screen first, then the focused one, then the screens
 * beneath down to the first opaque one, then the keys the frame has, which
 * live only in app.c: q, F10, Ctrl-L, F1 and ?, L (F1 and ? show the help of
 * whatever screens are shown). A text field takes q, ? and L as text, and an
 * overlay may give one a meaning of its own while it is open (q and L close
 * the language menu; L on the help opens the language menu in its place).
 * A handler returns W_* flags: with W_HANDLED the event stops there;
 * W_CLOSE takes the screen off the stack (after its handler ran, whether
 * or not the event was handled); W_LAYOUT asks for a layout, W_REDRAW for a
 * frame, W_QUIT leaves.
 *
 * Key maps are data, and together they are the registry of actions
 * (tui/frame/keys.c): each row of a map (struct wbinding) is one key of an
 * action, with its name, description, bar word and what the command line
 * takes after it; the map a screen's class owns says where the action
 * applies, the class's act() is its handler. A screen's maps, as the config
 * file's `bind.NAME = KEYS` lines rebind them (tui_keys_map), are what its
 * handler dispatches on, what the help lists, what the `:` command line
 * runs and completes, and what the F-key bar (the frame's, on the last row)
 * shows: the bindings that name a bar word, of the screens shown from the
 * focused one down to the first opaque one: F1 (the help) first, then the
 * letters and named keys in their maps' order, then the other F-keys by
 * number; F1 and F10 are the frame's own.
 */
#ifndef GPUX_TUI_SCREEN_H
#define GPUX_TUI_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "widgets/widgets.h"

struct tui;
struct tui_screen;

/* What notify() is told about (a mask). */
enum tui_notify {
	TN_LANG = 1 << 0,       /* the language changed: make every text again */
	TN_ENTER = 1 << 1,      /* a kept screen (TS_PAGE) came on the stack */
	TN_LEAVE = 1 << 2,      /* ... and left it (it is kept aside) */
};

/* Class flags. */
enum {
	TS_OPAQUE = 1 << 0,     /* covers the screens beneath it (they hide) */
	TS_MODAL = 1 << 1,      /* an overlay: every event is its own */
	TS_PAGE = 1 << 2,       /* a trade page: kept when it leaves the stack; one at a time */
};

/* The body of the screen: the rows between the tabs (row 0) and the status
 * bar (row lines-2). fkeys: the frame's F-key bar shows on the last row (a
 * screen that puts a field there says false). */
struct tui_area {
	int y, x, h, w;
	bool fkeys;
};

/* A key map with its help title (msgid). */
struct tui_keymap {
	const char *title;
	const struct wbinding *map;
	size_t n;
};

struct tui_screen_class {
	const char *name;
	unsigned flags;
	/* Place the widgets, when s->shown (else nothing: the stack hides them
	 * all); a screen that finds no room sets s->shown false. A screen that
	 * lies in the body takes its share out of *body (the rest goes to the
	 * screens beneath). NULL: nothing to place. */
	void (*layout)(struct tui_screen *s, struct tui_area *body);
	/* Read what changed (generation counters) into the widgets. May be NULL. */
	void (*recalc)(struct tui_screen *s, int64_t now);
	/* Make the widgets' contents just before they are copied (after any
	 * layout), for a screen whose lines depend on its final geometry. May be
	 * NULL. */
	void (*repaint)(struct tui_screen *s);
	/* Move the terminal cursor; false: none. NULL: into the focused field
	 * among its widgets (wwidget_place_cursor). */
	bool (*cursor)(struct tui_screen *s);
	/* A key or a click; W_* flags (W_IGNORED: not for this screen). */
	unsigned (*event)(struct tui_screen *s, const struct wevent *ev);
	/* Start what is due; lower *next (ms, monotonic; -1 none). May be NULL. */
	void (*tick)(struct tui_screen *s, int64_t now, int64_t *next);
	/* TN_* happened. May be NULL. */
	void (*notify)(struct tui_screen *s, unsigned what);
	/* Whether the screen has the keyboard (NULL: whenever it is on top). */
	bool (*wants_focus)(const struct tui_screen *s);
	/* The help's sections of this screen (its maps and, say, a table's or a
	 * field's keys), at most max; NULL: one section per map. */
	size_t (*help)(struct tui_screen *s, struct whelp_section *out, size_t max);
	/* Whether action (of its maps) can be done now: the F-key bar shows only
	 * those. NULL: every one. */
	bool (*offers)(const struct tui_screen *s, int action);
	/* Do action of its map keys[map]: key is the key pressed (0 from the
	 * command line), arg what the command line gave after the action's name
	 * (NULL: nothing). W_* flags. NULL: the command line gives event() the
	 * action's first key. */
	unsigned (*act)(struct tui_screen *s, size_t map, int action, wkey key, const char *arg);
	/* Free what the screen owns but its widgets, which the stack frees after. */
	void (*free)(struct tui_screen *s);
	const struct tui_keymap *keys; /* what the handler dispatches on, first map first */
	size_t n_keys;
};

/* The base every screen struct starts with (the struct is malloc'ed: the
 * stack frees it). */
struct tui_screen {
	const struct tui_screen_class *cls;
	struct tui *t;
	bool shown;                       /* from the last layout */
	struct wwidget **w;               /* its widgets, bottom to top; owned */
	size_t n_w, cap_w;
};

void tui_screen_init(struct tui_screen *s, const struct tui_screen_class *cls, struct tui *t);
/* w (taken) joins the screen's widgets, above those before it; returns w. */
struct wwidget *tui_screen_add(struct tui_screen *s, struct wwidget *w);
/* Take every widget of s off the screen (a layout that places only some). */
void tui_screen_hide(struct tui_screen *s);
/* Free w, one of s's widgets, now (the caller forgets its pointer). */
void tui_screen_remove(struct tui_screen *s, struct wwidget *w);
/* The binding of key in the screen's maps as bound (the first), or NULL;
 * *map (may be NULL) the index of the map it is in. */
const struct wbinding *tui_screen_binding(const struct tui_screen *s, wkey key, size_t *map);
/* A key through the screen's maps as bound to its act(): W_IGNORED when
 * no map binds it. */
unsigned tui_screen_dispatch(struct tui_screen *s, const struct wevent *ev);
/* The focused field among s's widgets gets the terminal cursor; false: none. */
bool tui_screen_cursor(struct tui_screen *s);

/* ---- the stack (tui/frame/stack.c) ---- */

/* Push s (taken) on top (below any overlay); a layout follows. A page
 * (TS_PAGE) takes the place of the page on the stack when that one is the
 * topmost screen under the overlays; any other page there is kept aside. */
void tui_push(struct tui *t, struct tui_screen *s);
/* Push s (taken) right below the first opaque or modal screen above the
 * bottom one (the fit panel goes under an open order page). */
void tui_push_under(struct tui *t, struct tui_screen *s);
/* Take s off the stack: a page is kept aside, any other screen is freed;
 * what lay beneath is copied again. */
void tui_remove(struct tui *t, struct tui_screen *s);
/* The topmost screen of class cls on the stack, or NULL (a screen finds
 * its own kind). */
struct tui_screen *tui_find(const struct tui *t, const struct tui_screen_class *cls);
/* The same, on the stack or kept aside. */
struct tui_screen *tui_find_kept(const struct tui *t, const struct tui_screen_class *cls);
/* Whether s is on the stack (not kept aside). */
bool tui_on_stack(const struct tui *t, const struct tui_screen *s);
/* Move s to the top (below any modal screen); a screen kept aside comes back. */
void tui_raise(struct tui *t, struct tui_screen *s);
struct tui_screen *tui_top(const struct tui *t);
/* The screen that has the keyboard. */
struct tui_screen *tui_focused(const struct tui *t);
/* Every screen, those kept aside too, told TN_* what. */
void tui_notify_all(struct tui *t, unsigned what);
/* Free every screen (the end). */
void tui_stack_free(struct tui *t);

/* The frame phases, for app.c. */
void tui_stack_tick(struct tui *t, int64_t now, int64_t *next);
void tui_stack_recalc(struct tui *t, int64_t now);
/* The body's area for the screens; returns whether the F-key bar shows. */
bool tui_stack_layout(struct tui *t);
/* The frame's widgets (its bars), then every shown screen's: copy what is
 * dirty or lies over what was copied before it. True if anything was. */
bool tui_stack_render(struct tui *t, struct wwidget *const *frame, size_t n_frame);
bool tui_stack_cursor(struct tui *t);
/* Whether a field of the focused screen has the keyboard (letters are typed
 * there); pure. */
bool tui_stack_typing(const struct tui *t);
void tui_stack_touch(struct tui *t);
/* Top, then focused: the flags of the first that handled it (W_IGNORED
 * when none did). W_CLOSE removes the screen that returned it. */
unsigned tui_stack_event(struct tui *t, const struct wevent *ev);
/* Action b (a row of s's map keys[map], as bound) done by s, as the
 * command line runs it with arg (NULL: none): its act(), or its event()
 * given the action's key. The flags as tui_stack_event's. */
unsigned tui_stack_act(struct tui *t, struct tui_screen *s, size_t map, const struct wbinding *b,
		       const char *arg);
/* The screens whose keys work now, top down (those shown from the topmost
 * that is not an overlay down to the first opaque one): how many, in out. */
size_t tui_stack_keyed(const struct tui *t, struct tui_screen **out, size_t max);
/* The F-key bar's items (at most max): the keys and their words (msgids),
 * from the screens shown, then global's (the frame's keys). */
size_t tui_stack_fkeys(const struct tui *t, const struct wbinding *global, size_t n_global,
		       wkey *keys, const char **texts, size_t max);
/* For an F-key the terminal lacks: the key of the same action that is not
 * an F-key, in the maps of the screens shown, then global; 0 when none
 * binds fkey, WKEY_NONE when fkey has no such twin. */
wkey tui_stack_key_alt(const struct tui *t, const struct wbinding *global, size_t n_global,
		       wkey fkey);

/* ---- the registry of actions (tui/frame/keys.c) ---- */

/* Every key map of the session — the frame's (frame, n_frame), the
 * tables' moves, and those of t->classes — rebound by the config file's
 * bind.NAME lines (what they get wrong is said once). Again: made anew. */
void tui_keys_init(struct tui *t, const struct wbinding *frame, size_t n_frame);
void tui_keys_free(struct tui *t);
/* map (n rows) as bound, and its rows in *n_out; a map not in the registry
 * as it is. */
const struct wbinding *tui_keys_bound(const struct tui *t, const struct wbinding *map, size_t n,
				      size_t *n_out);
const struct wbinding *tui_keys_map(const struct tui *t, const struct tui_keymap *km, size_t *n);
/* The binding of key in km as bound, or NULL. */
const struct wbinding *tui_keys_find(const struct tui *t, const struct tui_keymap *km, wkey key);
/* Every map of the registry as bound: arrays (free both) of maps and their
 * sizes; how many. */
size_t tui_keys_maps(const struct tui *t, const struct wbinding ***maps, size_t **ns);
/* The help's name of the key now bound to the action called name
 * (malloc'ed): its first key that is not an F-key, else its first F-key;
 * ":name" (the command line's form) when it has no key (the config file
 * bound it to none). What hints and status texts say
 * for a key, so a rebind changes them too. */
char *tui_key_label(const struct tui *t, const char *name);
/* A text that names keys, as bound: text (translated) with each %s (or
 * %N$s) the tui_key_label of the next (the N-th) action name after it, the
 * names NULL-terminated (at most 4): tui_key_text(t, _("%s buys it"),
 * "buy", NULL) gives "b buys it", or "B buys it" after bind.buy = B.
 * malloc'ed. tui_key_message says it in the status bar. */
char *tui_key_text(const struct tui *t, const char *text, ...);
/* The same with the names in an array, NULL-terminated (names NULL: none). */
char *tui_key_textv(const struct tui *t, const char *text, const char *const *names);
void tui_key_message(struct tui *t, const char *text, ...);
/* "No GPU selected: clear the filter (Esc) and choose a row", as bound. */
void tui_key_no_selection(struct tui *t);

/* ---- places: how one screen opens another (tui/screens.c) ---- */

/* The screens that are opened by name. A screen opens another with
 * tui_open, never by calling into its file: the table of tui/screens.c
 * (given to the session by app.c) knows each place's screen. */
enum tui_place {
	TUI_ORDER_FORM,         /* gpu, sell, gpus, hours, node_gpus, interconnect; no gpu:
	                           the kept form, if any */
	TUI_ORDERS,
	TUI_RENTALS,
	TUI_ACCOUNT,
	TUI_ALERTS,             /* gpu: a new alert for it, typed */
	TUI_DETAIL,             /* gpu, gpus × hours the fit job needs there, fits,
	                           node_gpus, interconnect */
	TUI_COMPARE,            /* ids, n_ids */
	TUI_FIT,                /* the fit panel, with the keyboard; toggle: shown or hidden */
	TUI_WELCOME,            /* at once: create an account or enter a key */
	TUI_FIRST_RUN,          /* the welcome of a run without a key, once the
	                           exchange says it is no demo */
	TUI_JOB_ORDER,          /* the fit job's order across every GPU (t->job) */
	TUI_TABLE_STEP,         /* the tables' cursor step rows on from gpu (where the
	                           table shows it), and the detail of the row it comes to */
	TUI_PLACES
};

/* What a place is opened with (fields a place does not use are left 0). */
struct tui_goto {
	const char *gpu;        /* a catalogue GPU id (copied by the screen) */
	bool sell;
	int gpus, hours;        /* <= 0: the screen's default */
	int fits;               /* as fit_result.fits; -1 unknown */
	int node_gpus;          /* the fit job's machines there: units of this many
	                           GPUs inside one machine (0, 1: none) */
	const char *interconnect; /* ... on this link (a wire name; NULL: any) */
	char *const *ids;
	size_t n_ids;
	bool toggle;
	int step;               /* TUI_TABLE_STEP: +1 the next row, -1 the previous */
	bool restore;           /* as the last session left it (TUI_FIT: open, no keyboard) */
};

struct tui_place_def {
	const struct tui_screen_class *cls; /* the screen that stands at the place */
	void (*open)(struct tui *t, const struct tui_goto *g);
};

/* Open place p with g (NULL: all 0, fits -1). */
void tui_open(struct tui *t, enum tui_place p, const struct tui_goto *g);
/* The screen of place p, on the stack or kept aside, or NULL. */
struct tui_screen *tui_place_screen(const struct tui *t, enum tui_place p);

/* ---- overlays and dialogs (tui/frame/dialogs.c) ---- */

/* The help of the focused screen, then of the other screens shown, pushed
 * as an overlay; global: the frame's own keys, last. */
void tui_help_open(struct tui *t, const struct wbinding *global, size_t n_global);
/* An overlay around a widget w (taken): placed centred by place(w, lines,
 * cols) on every layout; when w's handler returns W_CLOSE, closed(t, w, ud)
 * runs (before w is freed) and the overlay leaves the stack. Keys w does
 * not use (Ctrl-L, resize) reach the frame's keys. */
struct tui_screen *tui_overlay_new(struct tui *t, struct wwidget *w,
				   void (*place)(struct wwidget *w, int lines, int cols),
				   void (*closed)(struct tui *t, struct wwidget *w, void *ud), void *ud);
/* A confirmation dialog: done(ud, arg, yes, key) when it closes, yes for
 * y/Y (and Enter unless y_only), key the key that closed it; done may open
 * another dialog. Returns the dialog's screen (freed once it closes: its
 * owner forgets it in done). */
struct tui_screen *tui_dialog_open(struct tui *t, const char *title, const char *text,
				   const char *hint, bool y_only,
				   void (*done)(void *ud, int64_t arg, bool yes, wkey key), void *ud,
				   int64_t arg);
/* The open dialog s says text now (a confirmation that follows what it
 * confirms); nothing when s is not an open dialog. */
void tui_dialog_set_text(struct tui *t, struct tui_screen *s, const char *text);

#endif
