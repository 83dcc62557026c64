/*
 * Internal to tui/: the application state shared by the loop (app.c), the
 * key map (keys.c), the browse screen (browse.c), the exchange feed
 * (market.c) and the remembered settings (settings.c).
 */
#ifndef GPUX_TUI_INT_H
#define GPUX_TUI_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api.h"
#include "data/catalog.h"
#include "tui/tui.h"
#include "view/view.h"
#include "widgets/widgets.h"

enum {
	TUI_MIN_COLS = 20,
	TUI_MIN_LINES = 6,
	TUI_REFRESH_MS = 2000,      /* prices */
	TUI_MARKET_MS = 10000,      /* market state and account */
	TUI_FLASH_MS = 1000,        /* a changed price flashes this long */
	TUI_MSG_MS = 4000,          /* a transient message in the status bar */
	TUI_STALE_MS = 6000,        /* no answer for this long: stale */
};

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
	/* order.c: order entry, orders, rentals, account */
	A_BUY,
	A_SELL,
	A_ORDERS,
	A_RENTALS,
	A_ACCOUNT,
	/* fitpanel.c: the fit calculator */
	A_FIT,
	A_FIT_TOGGLE,
	A_FIT_CHEAPEST,
	/* lang.c: the language menu (issue 8) */
	A_LANG,
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

/* What the exchange last told us. */
struct tui_market {
	struct view_price *prices;  /* gpu ids owned */
	size_t n_prices;
	bool have_prices;
	bool stale;
	char *stale_reason;
	int64_t updated_ms;         /* monotonic time of the last good quotes */
	char *etag;
	uint64_t quotes_req;        /* in flight, 0 none */
	int64_t quotes_sent_ms;
	int64_t next_quotes_ms;
	bool have_market;
	enum api_market_state state;
	int64_t opens_at;
	uint64_t market_req;
	int64_t next_market_ms;
	char *balance;              /* formatted, or NULL */
	uint64_t account_req;
	int64_t *flash_until;       /* per catalogue GPU */
	int *flash_dir;             /* +1 up, -1 down, 0 new */
};

enum tui_overlay { OV_NONE, OV_HELP, OV_COLUMNS, OV_DIALOG, OV_LANG /* lang.c */ };

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
	WINDOW *inwin;              /* input only; never drawn */

	struct wtabs *tabs;
	struct wtable *table;
	struct wstatus *status;
	struct wfkeys *fkeys;
	struct wfield *filter;      /* while a filter is typed */
	struct wwidget *overlay;
	enum tui_overlay ov;

	struct tui_tab *tab;
	size_t n_tabs, cur;

	struct api_client *api;
	bool api_owned;             /* made by the TUI from o->api (else borrowed) */
	char *api_error;            /* the client could not be made */
	struct tui_market m;

	char *msg;                  /* transient status message */
	int64_t msg_until;

	char *conf_path;            /* NULL: settings are not remembered */

	struct tui_trade *trade;    /* order.c: the order, orders, rentals and account
	                               pages (made when first shown), or NULL */
	struct tui_fit *fit;        /* fitpanel.c: the fit calculator (made when first
	                               opened), or NULL */

	int exit_status;
	bool quit;
};

/* ---- app.c ---- */
/* A transient message in the status bar (copied). */
void tui_message(struct tui *t, const char *msg);
/* Recompute the layout before the next frame. */
void tui_relayout(struct tui *t);

/* F-key bar of the tables, in the current language (again after a switch). */
void tui_fkeys_fill(struct tui *t);

/* ---- keys.c ---- */
/* Handle one event in the browse screen; returns W_* flags. */
unsigned tui_handle_event(struct tui *t, const struct wevent *ev);
/* The help overlay generated from the key maps. */
struct whelp *tui_help_new(struct tui *t);

/* ---- browse.c ---- */
void tui_browse_init(struct tui *t);
void tui_browse_free(struct tui *t);
/* Switch to tab i (builds its view); keeps each tab's cursor and scroll. */
void tui_show_tab(struct tui *t, size_t i);
/* The current tab's view changed (prices, sort, filter, columns): reload the
 * table and put the cursor back on its GPU. keep_widths: columns do not
 * shrink (a price update). */
void tui_refresh_table(struct tui *t, bool keep_widths);
/* Remember the GPU under the cursor of the current tab. */
void tui_note_cursor(struct tui *t);
void tui_sort_step(struct tui *t, int dir);
void tui_sort_reverse(struct tui *t);
/* Sort by visible column vc (a header click): again on the same column reverses. */
void tui_sort_visible(struct tui *t, size_t vc);
void tui_set_filter(struct tui *t, const char *text);
/* Open the column chooser; apply its result. */
void tui_columns_open(struct tui *t);
void tui_columns_apply(struct tui *t, const struct wchecklist *c);
/* "N of M shown" for the current tab (malloc'ed). */
char *tui_count_text(struct tui *t);
/* Apply the market's prices to every built view (no flash bookkeeping). */
void tui_apply_prices(struct tui *t);

/* ---- market.c ---- */
void tui_market_init(struct tui *t);
void tui_market_free(struct tui *t);
/* Start what is due (quotes, market, account); returns the ms until the
 * next thing is due. */
int tui_market_tick(struct tui *t, int64_t now);
/* Build the status bar from the market state. */
void tui_status_update(struct tui *t, int64_t now);
/* Earliest time something on screen changes by itself (flash end, status
 * clock), or -1. */
int64_t tui_market_next_change(struct tui *t, int64_t now);
/* Whether GPU index g is flashing now: 0 no, else +1 up / -1 down / 2 new. */
int tui_flash(const struct tui *t, size_t g, int64_t now);

/* ---- order.c ---- (tui/order*.c, tui/rentals.c, tui/account.c: issue 7)
 * Pages that replace the tables: the order form, your orders, your rentals,
 * your account. Esc goes back to the tables. */
/* Open the order form for catalogue GPU gpu_id: buy, or sell (seller
 * accounts only: a buyer gets a message instead), gpus × hours prefilled
 * (<= 0: the form's defaults). Callable from any screen (the fit panel). */
void tui_order_open(struct tui *t, const char *gpu_id, bool sell, int gpus, int hours);
void tui_orders_open(struct tui *t);
void tui_rentals_open(struct tui *t);
void tui_account_open(struct tui *t);
/* True while one of those pages is shown (it gets every event). */
bool tui_trade_shown(const struct tui *t);
/* Hooks of the loop (app.c, keys.c): layout() ends with tui_trade_layout
 * (hides the browse widgets under a page, or the page's when it is not
 * shown); frame() renders the page after the browse widgets (true when
 * something was copied; under: something beneath changed) and asks it for
 * the terminal cursor (true: moved into the page's focused field); events
 * go to tui_trade_event while a page is shown; tui_trade_tick starts due
 * requests and lowers *timeout_ms (-1 infinite); tui_trade_touch after an
 * overlay closed; tui_trade_free at the end. */
void tui_trade_layout(struct tui *t);
bool tui_trade_render(struct tui *t, bool under);
bool tui_trade_cursor(struct tui *t);
unsigned tui_trade_event(struct tui *t, const struct wevent *ev);
void tui_trade_tick(struct tui *t, int64_t now, int *timeout_ms);
void tui_trade_touch(struct tui *t);
void tui_trade_free(struct tui *t);

/* ---- fitpanel.c ---- (tui/fit*.c: issue 6)
 * The live-fit calculator: a panel beside the table (120 columns and more)
 * or below it, whose job gives the current tab its "your model" columns. */
/* f: show the panel and give it the keyboard; F4: show or hide it. */
void tui_fit_open(struct tui *t);
void tui_fit_toggle(struct tui *t);
bool tui_fit_focused(const struct tui *t);
/* $: order the current tab by the job's cost per hour among the GPUs that
 * can take it (again: catalogue order); a message when there is no job. */
void tui_fit_sort_cheapest(struct tui *t);
/* For the order form: the GPUs the job runs on with gpu_id and, for a
 * training run, its hours (rounded up); 0 when there is no job. */
void tui_fit_order_size(struct tui *t, const char *gpu_id, int *gpus, int *hours);
/* Hooks of the loop: layout() gives the table's area (the panel takes its
 * share and re-places the table); frame() calls tui_fit_render before the
 * table (puts the job into the current view, draws the panel; true when
 * something was copied) and tui_fit_cursor for the terminal cursor (true:
 * moved into the focused field); tui_fit_event gets events after the filter
 * (W_IGNORED: not for the panel); tui_fit_touch after an overlay closed;
 * tui_fit_free at the end. */
void tui_fit_place(struct tui *t, int y, int x, int h, int w);
bool tui_fit_render(struct tui *t);
bool tui_fit_cursor(struct tui *t);
unsigned tui_fit_event(struct tui *t, const struct wevent *ev);
void tui_fit_touch(struct tui *t);
void tui_fit_free(struct tui *t);
/* The panel's keys, for the help overlay. */
const struct wbinding *tui_fit_bindings(size_t *n);
/* (browse.c) Tab i's view got or lost columns (the fit job): recompute
 * which are shown. */
void tui_tab_columns_changed(struct tui *t, size_t i);

/* ---- lang.c ---- (issue 8: the language of the screen)
 * L in the tables (and L on any help screen) opens the language menu, an
 * overlay (OV_LANG); when it closes, tui_lang_menu_closed() switches and
 * remembers the choice. tui_lang_set() is the one path of a switch: it
 * calls the *_lang_changed hooks below, each of which makes again the
 * texts its part keeps. */
void tui_lang_open(struct tui *t);
void tui_lang_place(struct tui *t);
void tui_lang_menu_closed(struct tui *t);
void tui_lang_set(struct tui *t, enum i18n_lang lang);
/* browse.c: tab titles, empty text, every built view (sort, filter, columns,
 * cursor kept). fitpanel.c: the form's numbers and messages. order_pages.c:
 * page tabs, F-keys, panels, the order form. */
void tui_browse_lang_changed(struct tui *t);
void tui_fit_lang_changed(struct tui *t);
void tui_trade_lang_changed(struct tui *t);

/* ---- settings.c ---- */
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
