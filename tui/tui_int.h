/*
 * Internal to tui/: the application state (struct tui: the terminal, the
 * exchange client, the market and the fit job as data, the message line
 * and the stack of screens, tui/screen.h), and the entry points of tui/'s
 * parts: the loop (app.c), the market feed (market.c), the screens'
 * constructors and the remembered settings (settings.c).
 */
#ifndef GPUX_TUI_INT_H
#define GPUX_TUI_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api.h"
#include "data/catalog.h"
#include "tui/screen.h"
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
	TUI_TRADES_MAX = 100,       /* recent trades kept for the detail screen */
	TUI_BOOK_DEPTH = 100,       /* levels fetched when the book is not streamed */
	TUI_SPARK_COLS = 12,        /* a table's 24 h sparkline: 2 h a column */
};

/* What the exchange last told us. */
struct tui_market {
	struct view_price *prices;  /* gpu ids owned */
	size_t n_prices;
	bool have_prices;
	uint64_t gen;               /* bumped when prices or their staleness change */
	bool stale;
	char *stale_reason;
	int64_t no_answer_since;    /* stale because nothing answered since then (ms); 0: not that */
	int64_t updated_ms;         /* monotonic time of the last good quotes */
	char *etag;
	uint64_t quotes_req;        /* in flight, 0 none */
	int64_t quotes_sent_ms;
	int64_t next_quotes_ms;
	bool have_market;
	enum api_market_state state;
	int64_t opens_at;
	int64_t clock_skew;         /* the exchange clock less ours (s), from its server_time */
	bool fx_stale;              /* the account's FX rate is older than the exchange's limit */
	uint64_t market_req;
	int64_t next_market_ms;
	char *balance;              /* formatted, or NULL */
	uint64_t account_req;
	int64_t *flash_until;       /* per catalogue GPU */
	int *flash_dir;             /* +1 up, -1 down, 0 new */
	/* the market stream (tui/feed.c): while it is live, nothing is polled */
	struct api_stream *stream;  /* quotes */
	enum api_stream_state stream_state;
	int64_t stream_since;       /* wall clock (Unix ms) of the state */
	struct api_quote *quotes;   /* every GPU's quote as last known (bid, last); gpu owned */
	size_t n_quotes;
	struct tui_focus *focus;    /* the GPU being looked at, or NULL */
	struct tui_history *hist;   /* every GPU's last 24 h (feed.c) */
};

/* The last 24 h of every GPU's price (the market columns, the compare
 * screen): its 1 h candles fetched once, then moved by each quote whose
 * last trade changed; never polled. */
struct tui_hist_gpu {
	struct api_candle *v;       /* oldest first */
	size_t n;
	bool have, failed;
	uint64_t req;
	struct tui *t;              /* for the reply */
};
struct tui_history {
	struct tui_hist_gpu *g;     /* per catalogue GPU */
	bool wanted;                /* a screen shows it: fetch what is missing */
	int64_t offset_s;           /* the exchange's clock minus ours */
	uint64_t gen;               /* bumped by every change, and as the window slides */
	int64_t next_slide_ms;
};

/* The book and trades of the GPU being looked at (the detail screen),
 * streamed (trades:GPU, book:GPU), fetched while the stream is not live. */
struct tui_focus {
	char *gpu;
	struct api_stream *stream;
	enum api_stream_state state;
	struct api_level *asks, *bids; /* best first */
	size_t n_asks, n_bids;
	struct api_trade *trades;   /* newest first, at most TUI_TRADES_MAX */
	size_t n_trades;
	bool have_book, have_trades;
	uint64_t gen;               /* bumped by every change */
	uint64_t trade_gen;         /* bumped by every new trade */
	uint64_t book_req, trades_req;
	int64_t next_fetch_ms;
	bool hours_due;             /* streamed levels without GPU-hours: ask the book */
	int64_t next_hours_ms;
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

struct tui_screen;

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

	struct wstatus *status;     /* the status bar (row lines-2), the app's */

	struct api_client *api;
	bool api_owned;             /* made by the TUI from o->api (else borrowed) */
	char *api_error;            /* the client could not be made */
	char *api_url;              /* the exchange's URL as configured (saved with a new key) */
	struct tui_market m;        /* the market as data (market.c) */
	struct tui_job job;         /* the fit job as data */
	struct tui_selection sel;   /* the tables' cursor as data */
	char *status_note;          /* a segment the focused tables add (filter), or NULL */

	char *msg;                  /* transient status message */
	int64_t msg_until;
	uint64_t msg_seq;           /* bumped by every message */

	char *conf_path;            /* NULL: settings are not remembered */

	/* The screens, bottom (the browse tables) to top. */
	struct tui_screen **stack;
	size_t n_stack, cap_stack;

	struct tui_trade *trade;    /* the order pages' shared data (account, market,
	                               each page's state), made when first used */

	int exit_status;
	bool quit;
};

/* ---- app.c ---- */
/* A transient message in the status bar (copied; NULL clears it). */
void tui_message(struct tui *t, const char *msg);
/* Recompute the layout before the next frame. */
void tui_relayout(struct tui *t);
/* Clear and repaint the whole terminal at the next frame (Ctrl-L). */
void tui_redraw_all(struct tui *t);
/* After wui_init: F-keys the terminal lacks are offered on the F-key bars
 * as the letters that do the same (struct wui key_alt). */
void tui_keys_resolve(struct tui *t);
/* An event through the whole chain: the stack (top, focused), then the
 * global keys. For a click on an F-key bar, which stands for its key. */
unsigned tui_feed_event(struct tui *t, const struct wevent *ev);

/* A session without tui_run's terminal (the screen harness, tui/harness.c):
 * init takes the options and makes the exchange client; start (once curses
 * is set up and t->ui resolved) makes the market feed, the status bar and
 * the bottom screen; frame runs one tick and one frame and returns the poll
 * timeout (ms, -1 none); end frees everything. */
void tui_session_init(struct tui *t, const struct tui_options *o);
void tui_session_start(struct tui *t);
int tui_session_frame(struct tui *t);
void tui_session_end(struct tui *t);

/* ---- browse.c, keys.c: the browse tables, the bottom screen ---- */
struct tui_screen *tui_browse_new(struct tui *t);

/* ---- welcome.c: the first run without a key ---- */
/* Without an API key on an exchange other than the local demo: the welcome
 * screen (create an account, enter a key, or browse), once the exchange
 * has said it is not a demo. */
void tui_welcome_maybe(struct tui *t);
/* The welcome screen at once (the account page's w, without a key). */
void tui_welcome_open(struct tui *t);

/* ---- market.c: the market as data ---- */
void tui_market_init(struct tui *t);
void tui_market_free(struct tui *t);
/* Start what is due (quotes, market, account); returns the ms until the
 * next thing is due. */
int tui_market_tick(struct tui *t, int64_t now);
/* The one way prices change: take these quotes (n of them; gpu ids
 * copied), note which GPUs' asks moved (they flash), mark the prices fresh
 * and bump t->m.gen. Screens that show prices compare t->m.gen in recalc.
 * A market stream can feed the TUI through this too. */
void tui_market_apply_quotes(struct tui *t, const struct view_price *p, size_t n, int64_t now);
/* The prices could not be had: stale, with reason (copied); bumps t->m.gen
 * when the state or the reason changed. */
void tui_market_set_stale(struct tui *t, const char *reason);
/* Build the status bar from the market state. */
void tui_status_update(struct tui *t, int64_t now);
/* Earliest time something on screen changes by itself (flash end, status
 * clock), or -1. */
int64_t tui_market_next_change(struct tui *t, int64_t now);
/* Whether GPU index g is flashing now: 0 no, else +1 up / -1 down / 2 new. */
int tui_flash(const struct tui *t, size_t g, int64_t now);

/* ---- feed.c: the market stream ---- */
/* Open the quotes stream (once the client exists); closed by tui_market_free. */
void tui_feed_open(struct tui *t);
void tui_feed_close(struct tui *t);
/* The streams' sockets for poll(), after the client's; then perform. */
int tui_feed_fds(struct tui *t, struct pollfd *fds, int max, int *timeout_ms);
void tui_feed_perform(struct tui *t);
/* Fetch what the focus stream does not deliver yet (book, trades). */
void tui_feed_tick(struct tui *t, int64_t now, int64_t *next);
/* Look at gpu (book and trades streamed or fetched); NULL: at none. */
void tui_feed_focus(struct tui *t, const char *gpu);
/* Take quotes (whole: every GPU, else the changed ones) as the market's:
 * asks through tui_market_apply_quotes, bids and last trades kept. */
void tui_feed_store_quotes(struct tui *t, const struct api_quote *v, size_t n, bool whole,
			   int64_t now);
/* The last known quote of gpu, or NULL. */
const struct api_quote *tui_quote(const struct tui *t, const char *gpu);
/* A screen shows the 24 h history: fetch it (once per GPU). */
void tui_history_want(struct tui *t);
/* Catalogue GPU g's close prices over the last 24 h in cols columns
 * (detail_series; -1 where none); false while it has none. */
bool tui_history_series(const struct tui *t, size_t g, int cols, int64_t *col);
/* Every catalogue GPU's market figures for view_set_market: bid and last
 * from the quotes, the 24 h change and a sparkline of spark_cols columns
 * from the history (*out malloc'ed, n_gpus items; free with
 * tui_view_market_free). */
size_t tui_view_market(const struct tui *t, int spark_cols, struct view_quote **out);
void tui_view_market_free(struct view_quote *v, size_t n);

/* ---- order_pages.c and the pages: the order form, orders, rentals, account
 * (screens that cover the tables; Esc goes back to them) ---- */
/* Open the order form for catalogue GPU gpu_id: buy, or sell (seller
 * accounts only: a buyer gets a message instead), gpus × hours prefilled
 * (<= 0: the form's defaults). */
void tui_order_open(struct tui *t, const char *gpu_id, bool sell, int gpus, int hours);
void tui_orders_open(struct tui *t);
void tui_rentals_open(struct tui *t);
void tui_account_open(struct tui *t);
/* The pages' shared requests (the account's role decides whether s may
 * sell, from the start), started from the app's tick; freed at the end. */
void tui_trade_tick(struct tui *t, int64_t now, int64_t *next);
void tui_trade_free(struct tui *t);

/* ---- detail.c: one GPU's spec sheet, book, chart and trades (Esc back) ---- */
/* job_gpus × job_hours: what the fit job needs there (0: no job; hours 0:
 * 24), job_fits as fit_result.fits. */
void tui_detail_open(struct tui *t, const char *gpu_id, int job_gpus, int job_hours, int job_fits);

/* ---- compare.c: the marked GPUs side by side (Esc back) ---- */
/* ids: 2 to 4 catalogue GPU ids (more are left out), in the order shown. */
void tui_compare_open(struct tui *t, char *const *ids, size_t n);

/* ---- fitpanel.c: the fit calculator, a screen beside or below the tables ---- */
/* f: show the panel and give it the keyboard; F4: show or hide it. */
void tui_fit_open(struct tui *t);
void tui_fit_toggle(struct tui *t);

/* ---- lang.c: the language menu and the switch ---- */
/* The language menu, an overlay: Enter switches (tui_lang_set) and
 * remembers the choice. */
void tui_lang_open(struct tui *t);
/* The one path of a switch: _() and every screen (TN_LANG) in lang. */
void tui_lang_set(struct tui *t, enum i18n_lang lang);

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
