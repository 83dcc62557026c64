/*
 * Internal to tui/: the session (struct tui: the terminal, the exchange
 * client, what the exchange said as data — tui/feed/feed.h —, the fit job
 * and the tables' cursor as data, the message line, the frame's bars and
 * the stack of screens, tui/frame/screen.h) and the frame's own functions
 * (tui/frame/: the loop, messages, settings, the language).
 *
 * The families, each a folder (one library, libtui.a; one public header,
 * tui/tui.h):
 *
 *   frame/     the loop (app.c), the stack of screens and its phases
 *              (stack.c), overlays and dialogs (dialogs.c), the status bar
 *              (status.c), settings, the language, the screen harness
 *   feed/      what the exchange says, as data every screen reads: the
 *              market (quotes, its state, history, the focus GPU's book
 *              and trades; polled or streamed) and the account
 *   market/    the browse tables (the bottom screen), detail, compare
 *   fitpanel/  the fit calculator
 *   trade/     the order form, orders, rentals, account pages, welcome
 *   screens.c  the table of places: which screen opens where
 *
 * The frame knows no screen but the bottom one; screens know the frame
 * and the feed, and open one another only by place (tui_open).
 */
#ifndef GPUX_TUI_INT_H
#define GPUX_TUI_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api.h"
#include "data/catalog.h"
#include "tui/feed/feed.h"
#include "tui/frame/screen.h"
#include "tui/tui.h"
#include "view/view.h"
#include "widgets/widgets.h"

enum {
	TUI_JOB_HOURS = 1,          /* a fit job without a run length (inference,
	                               diffusion) is ordered an hour at a time, as
	                               the order form's own default */
	TUI_MIN_COLS = 20,
	TUI_MIN_LINES = 6,
	TUI_MSG_MS = 4000,          /* a transient message in the status bar */
};

/* A rectangle of the screen (what a frame copied). */
struct tui_rect {
	int y, x, h, w;
};

/* What the browse tables publish for the screens above them (the fit
 * panel answers for the GPU under the cursor): the current tab's view and
 * the cursor's shown row, as plain data read in recalc and render. */
struct tui_selection {
	const struct view_table *view; /* NULL: none built */
	size_t row;                 /* shown row under the cursor (< view->n_shown) */
};

/* The fit job, published by the fit panel (none while it is hidden or
 * without a valid job) with a generation counter the tables compare. */
struct tui_job {
	struct fit_job job;
	bool have;
	uint64_t gen;
};

/* What a message of the history was (tui/frame/messages.c). */
enum tui_msg_kind {
	TUI_MSG_INFO,               /* what a key or command did, or why not */
	TUI_MSG_ERROR,              /* what went wrong: a reply, a file */
	TUI_MSG_ALERT,              /* an alert the exchange delivered */
};

/* One message of the history. */
struct tui_msg {
	int64_t at;                 /* when it was said: Unix time, ms */
	enum tui_msg_kind kind;
	unsigned repeats;           /* said again right after: 1 + how many times */
	char *text;
};

struct tui_bound;

struct tui {
	const struct tui_options *o;  /* = &opts */
	struct tui_options opts;    /* the caller's, copied: a language switch changes
	                               opts.lang (lang.c) */
	const struct catalog *cat;
	struct wui ui;
	bool ascii;
	int lines, cols;
	bool too_small;
	bool small_dirty;           /* the too-small notice must be drawn */
	bool need_layout;
	bool redraw;                /* a handler asked for a frame */
	WINDOW *inwin;              /* input only; never drawn */

	struct wstatus *status;     /* the status bar (row lines-2), the frame's */
	struct wfkeys *fkeys;       /* the F-key bar (row lines-1), the frame's */

	struct api_client *api;
	bool api_owned;             /* made by the TUI from o->api (else borrowed) */
	struct tui_opener *opener;  /* the exchange being opened off the loop, or NULL */
	char *api_error;            /* the client could not be made */
	char *api_url;              /* the exchange's URL as configured (saved with a new key) */
	char *api_profile;          /* the config file's profile of that URL (NULL: the top level
	                               or none): where a new key is saved */
	struct tui_market m;        /* the market as data (tui/feed/) */
	bool spark_shared;          /* the tables' sparklines on one scale (remembered:
	                               "spark = shared", tui/frame/state.c) */
	struct tui_account account; /* the account as data (tui/feed/account.c) */
	struct tui_events events;   /* its events as data (tui/feed/events.c) */
	bool bell;                  /* ring the terminal's bell after the next frame */
	struct tui_job job;         /* the fit job as data */
	struct tui_selection sel;   /* the tables' cursor as data */
	char *status_note;          /* a segment the focused tables add (filter), or NULL */

	char *msg;                  /* transient status message */
	int64_t msg_until;
	uint64_t msg_seq;           /* bumped by every message */

	char *conf_path;            /* NULL: settings are not remembered */

	int tty_fd;                 /* the terminal, for OSC 52 (-1: none, the harness) */
	char *clip;                 /* the last text copied (tui/frame/clipboard.c) */

	/* What is remembered of the session for this exchange (tui/frame/state.c). */
	struct api_conf *state;
	char *state_path;           /* NULL: remembered nowhere */
	char *state_exchange;
	bool state_dirty, state_failed;
	int64_t state_saved;        /* ms (monotonic) of the last write */

	/* The message history, oldest first: a ring of TUI_HISTORY_MAX. */
	struct tui_msg *msgs;
	size_t n_msgs, first_msg;

	/* The registry of actions (tui/frame/keys.c): the classes of the
	 * screens (tui/screens.c), the frame's map, every map as bound. */
	const struct tui_screen_class *const *classes;
	size_t n_classes;
	const struct wbinding *frame_keys;
	size_t n_frame_keys;
	struct tui_bound *bound;
	size_t n_bound;

	/* The screens, bottom (the browse tables) to top, and the pages kept
	 * aside (TS_PAGE screens off the stack). */
	struct tui_screen **stack;
	size_t n_stack, cap_stack;
	struct tui_screen **kept;
	size_t n_kept, cap_kept;
	const struct tui_place_def *places; /* TUI_PLACES of them (tui/screens.c) */
	struct tui_rect *copied;    /* what the frame being rendered copied so far */
	size_t n_copied, cap_copied;

	int exit_status;
	bool quit;
};

/* ---- the frame (tui/frame/stack.c) ---- */
/* A transient message in the status bar (copied; NULL clears it), kept in
 * the message history too (as TUI_MSG_INFO). */
void tui_message(struct tui *t, const char *msg);

/* ---- copy (tui/frame/clipboard.c) ---- */
/* text to the terminal's clipboard (OSC 52), said in the status bar as
 * "Copied WHAT"; where the terminal takes no OSC 52 the status bar says so
 * (and, unless secret, what the text is). A secret is never put in a
 * message. */
void tui_copy(struct tui *t, const char *text, const char *what, bool secret);
/* Whether the terminal takes OSC 52 (its TERM, tmux, its Ms capability). */
bool tui_copy_supported(const struct tui *t);
void tui_clip_free(struct tui *t);

/* ---- remembered state, per exchange (tui/frame/state.c) ---- */
/* Read the exchange's state file (a damaged one is said once and
 * ignored); before the screens are made. */
void tui_state_load(struct tui *t);
/* A name's value (borrowed; NULL: none), and a new one (copied; NULL or ""
 * forgets it), written to the file soon (tui_state_flush). */
const char *tui_state_get(const struct tui *t, const char *name);
void tui_state_set(struct tui *t, const char *name, const char *value);
/* GPU ids kept under name ("h200,b200"; ids the catalogue lacks are
 * dropped): a malloc'ed array of malloc'ed ids, how many. And kept. */
size_t tui_state_ids(const struct tui *t, const char *name, char ***ids);
void tui_state_set_ids(struct tui *t, const char *name, char *const *ids, size_t n);
/* Write what changed, at most once a second (force: now); the next time
 * a write is due (ms, monotonic), -1 none. */
void tui_state_flush(struct tui *t, int64_t now, bool force);
int64_t tui_state_next(const struct tui *t);
void tui_state_free(struct tui *t);

/* ---- the message history (tui/frame/messages.c) ---- */
enum { TUI_HISTORY_MAX = 200 };
/* Say text (copied) in the status bar, as tui_message does, and keep it in
 * the history as a message of this kind (the same text said again right
 * after is counted, not kept twice; past TUI_HISTORY_MAX the oldest goes).
 * For every part of the TUI that tells the user something: alerts too. */
void tui_messages_add(struct tui *t, enum tui_msg_kind kind, const char *text);
/* The i-th message kept, oldest first (i < t->n_msgs). */
const struct tui_msg *tui_messages_at(const struct tui *t, size_t i);
/* The history as an overlay, newest last (M, :messages). */
void tui_messages_open(struct tui *t);
void tui_messages_free(struct tui *t);
/* Recompute the layout before the next frame. */
void tui_relayout(struct tui *t);
/* Clear and repaint the whole terminal at the next frame (Ctrl-L). */
void tui_redraw_all(struct tui *t);

/* ---- the loop (tui/frame/app.c) ---- */
/* After wui_init: F-keys the terminal lacks are offered on the F-key bar
 * as the letters that do the same (struct wui key_alt). */
void tui_keys_resolve(struct tui *t);
/* An event through the whole chain: the F-key bar (a click stands for its
 * key), the stack (top, focused), then the frame's keys. */
unsigned tui_handle_event(struct tui *t, const struct wevent *ev);

/* A session without tui_run's terminal (the screen harness, tui/frame/harness.c):
 * init takes the options and makes the exchange client; start (once curses
 * is set up and t->ui resolved) makes the market feed, the bars and the
 * bottom screen; frame runs one tick and one frame and returns the poll
 * timeout (ms, -1 none); end frees everything. */
void tui_session_init(struct tui *t, const struct tui_options *o);
void tui_session_start(struct tui *t);
int tui_session_frame(struct tui *t);
void tui_session_end(struct tui *t);

/* ---- the exchange opened off the loop (tui/frame/opener.c) ---- */
struct tui_opener;
/* api_open(o) on a thread of its own (o's strings copied); NULL when no
 * thread could be made (open it in place then). Its fd turns readable when
 * it is done. */
struct tui_opener *tui_opener_start(const struct api_open_opts *o);
int tui_opener_fd(const struct tui_opener *op);
/* Once done: true, *c (NULL and *cause on failure) and *used (as api_open
 * gives them, taken), and *op is freed and cleared; false while it runs. */
bool tui_opener_take(struct tui_opener **op, struct api_client **c, struct api_settings *used,
		     char **cause);
/* The session ends first: the thread finishes by itself and frees what it
 * made; *op cleared. */
void tui_opener_abandon(struct tui_opener **op);

/* ---- the status bar (tui/frame/status.c) ---- */
/* Build the status bar from the market, the account and the message. */
void tui_status_update(struct tui *t, int64_t now);
/* Earliest time the status bar changes by itself (the prices' age, a
 * message ending), or -1. */
int64_t tui_status_next_change(struct tui *t, int64_t now);

/* ---- the places (tui/screens.c) and the bottom screen ---- */
extern const struct tui_place_def tui_places[TUI_PLACES];
extern const struct tui_screen_class *const tui_classes[];
extern const size_t tui_n_classes;
/* The browse tables (tui/market/browse_screen.c). */
struct tui_screen *tui_browse_new(struct tui *t);

/* ---- formatting in the TUI's language (tui/frame/format.c; malloc'ed) ---- */
char *tui_usd(const struct tui *t, int64_t cents);      /* "—" for -1 */
char *tui_money(const struct tui *t, int64_t minor, const char *ccy);
char *tui_int(const struct tui *t, int64_t v);
char *tui_date(const struct tui *t, int64_t unix_s);    /* "—" for -1 */
/* The catalogue's name of a GPU id, or the id (not malloc'ed). */
const char *tui_gpu_name(const struct tui *t, const char *id);

/* ---- the language (tui/frame/lang.c) ---- */
/* The language menu, an overlay: Enter switches (tui_lang_set) and
 * remembers the choice. */
void tui_lang_open(struct tui *t);
/* The one path of a switch: _() and every screen (TN_LANG) in lang. */
void tui_lang_set(struct tui *t, enum i18n_lang lang);
/* :lang TAG: switch to the language of tag ("auto": the environment's)
 * and remember it, as the menu does; 0, or -1 (said) for no language. */
int tui_lang_choose(struct tui *t, const char *tag);

/* ---- the frame's keys and the command line (tui/frame/commands.c) ---- */
enum { TUI_FRAME_N_KEYS = 9 };
/* The keys that are the same on every screen (help, :, messages, language,
 * theme, redraw, quit), as data: a map of the registry. */
extern const struct wbinding tui_frame_keys[TUI_FRAME_N_KEYS];
/* That map as bound. */
const struct wbinding *tui_frame_map(const struct tui *t, size_t *n);
/* A key of the frame's map: its action's flags, W_IGNORED for another key. */
unsigned tui_frame_key(struct tui *t, const struct wevent *ev);
/* A key nothing on the screens shown binds: the status bar says so. */
void tui_key_unknown(struct tui *t, wkey key);
/* The command line on the last row (`:`); with text written in, to edit
 * (e: "export csv gpux-training.csv"). */
void tui_command_open(struct tui *t);
void tui_command_open_with(struct tui *t, const char *text);
/* Run a line of the command line ("sort price", "h200"): the W_* flags of
 * what it did; what cannot be done is said in the status bar. */
unsigned tui_command_run(struct tui *t, const char *line);
/* The words line's last word may become (malloc'ed array of malloc'ed
 * strings, sorted), and where that word starts in line. */
size_t tui_command_complete(struct tui *t, const char *line, char ***out, size_t *start);
/* The catalogue GPU word names (its id or its name, any case, blanks,
 * dashes and underscores aside), or NULL. */
const struct catalog_gpu *tui_gpu_named(const struct tui *t, const char *word);

/* ---- settings (tui/frame/settings.c) ---- */
/* The theme of the config file's `theme = NAME` (NULL: none, or one gpux
 * does not have, which is said). */
const struct wtheme *tui_settings_theme(struct tui *t);
/* The colours at the start: the config file's theme, else fallback; mono
 * where colour is not wanted (NO_COLOR, a terminal without colour). Once
 * curses is set up, before tui_keys_resolve. */
void tui_theme_start(struct tui *t, const struct wtheme *fallback);
/* :theme NAME: the colours of that theme now, remembered; without a name
 * (or an unknown one) the status bar lists them. */
void tui_theme_choose(struct tui *t, const char *name);
/* The column ids remembered for workload id (malloc'ed array of malloc'ed
 * strings), or 0 when nothing is remembered. */
size_t tui_settings_columns(struct tui *t, const char *workload, char ***ids);
/* Remember them; a failure is reported as a status message. */
void tui_settings_save_columns(struct tui *t, const char *workload, char *const *ids, size_t n);
/* The remembered language tag (`lang = …`, malloc'ed), or NULL. */
char *tui_settings_lang(struct tui *t);
/* Remember tag (NULL: forget, the environment decides). 0, or -1 and *cause. */
int tui_settings_save_lang(struct tui *t, const char *tag, char **cause);

#endif
