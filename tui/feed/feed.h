/*
 * Internal to tui/: what the exchange says, as data (tui/feed/). One owner
 * for each thing, asked by no screen: every screen reads it in its recalc,
 * comparing a generation counter (pull).
 *
 *   the market   (market.c) one table, a row per catalogue GPU: its best
 *                ask, bid and last trade (streamed, or polled while the
 *                stream is not live: both through tui_market_take) and its
 *                24 h history (history.c); the market's state (open,
 *                pre-open, halted; its opening; demo; simulated payments);
 *                the book and trades of the GPU being looked at (focus.c)
 *                and the exchange's clock (clock.c)
 *   the account  (account.c) who it is, its role and currency, the
 *                balances; and the open orders as the orders page last
 *                listed them
 *   its events   (events.c) the account's event log — alerts fired,
 *                conditional and standing orders' doings — streamed on the
 *                account channel once the account is known: the latest
 *                kept as the message history, each new one said on the
 *                status bar (an alert with the terminal's bell)
 *
 * Nothing here draws or waits: requests start from the loop's tick and
 * their callbacks store plain data and bump the counters.
 */
#ifndef GPUX_TUI_FEED_H
#define GPUX_TUI_FEED_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api.h"
#include "view/view.h"

struct tui;

enum {
	TUI_REFRESH_MS = 2000,      /* prices */
	TUI_MARKET_MS = 10000,      /* market state and account */
	TUI_ACCOUNT_FAST_MS = 3000, /* the account, while a trade page shows it */
	TUI_RETRY_MS = 5000,        /* a market state that did not come is asked again */
	TUI_FLASH_MS = 1000,        /* a changed price flashes this long */
	TUI_STALE_MS = 6000,        /* a poll unanswered this long is abandoned */
	TUI_HEARTBEAT_MS = 10000,   /* the stream's promise (docs/API.md): no 10 s
	                               pass without an event or a heartbeat */
	TUI_LATE_MS = 1000,         /* what a promise is given beyond its cadence
	                               before the prices are called stale */
	TUI_TRADES_MAX = 100,       /* recent trades kept for the detail screen */
	TUI_BOOK_DEPTH = 100,       /* levels fetched when the book is not streamed */
	TUI_SPARK_COLS = 12,        /* a table's 24 h sparkline: 2 h a column */
};

/* The last 24 h of a GPU's price (the market columns, the compare screen):
 * its 1 h candles fetched once, then moved by each quote whose last trade
 * changed; never polled. */
struct tui_hist_gpu {
	struct api_candle *v;       /* oldest first */
	size_t n;
	bool have, failed;
	uint64_t req;
	struct tui *t;              /* for the reply */
	size_t g;                   /* ... and its row */
};

/* The ladder by node size the fit job needs of one GPU (units.c). */
struct tui_units {
	struct tui *t;              /* for the reply */
	struct view_job_need need;  /* what the job needs here (node_gpus 0: nothing) */
	struct view_job_need asked; /* what the ladder below was asked for */
	struct view_unit_level *v;  /* the ladder, best first */
	size_t n;
	bool have;
	uint64_t req;
	uint64_t asked_qgen;        /* the row's quote generation it was asked at */
	int64_t next_ms;            /* not asked again before */
};

/* One catalogue GPU in the market table. */
struct tui_market_gpu {
	struct api_quote q;         /* ask, bid, last (-1: none); q.gpu is the catalogue's id */
	bool quoted;                /* the exchange has quoted it */
	int64_t flash_until;        /* its ask changed: it flashes until then (ms) */
	int flash_dir;              /* +1 up, -1 down, 2 new */
	struct tui_hist_gpu hist;
	/* the 24 h change, computed once from the history whenever it moves
	 * (history.c) and read by every screen that shows it */
	bool has_change;
	int64_t change_bp;          /* hundredths of a percent */
	uint64_t qgen;              /* bumped when its quote changes */
	struct tui_units units;
};

struct tui_history {
	bool wanted;                /* a screen shows it: fetch what is missing */
	uint64_t gen;               /* bumped by every change, and as the window slides */
	int64_t next_slide_ms;
};

/* The market: one table, a row per catalogue GPU, and what is known of the
 * exchange's market. */
struct tui_market {
	struct tui_market_gpu *gpu; /* per catalogue GPU (t->cat->gpus order) */
	size_t n_gpus;
	struct view_price *asks;    /* the rows' asks for the views (ids borrowed) */
	size_t n_asks;
	bool have_prices;           /* a first quote came */
	uint64_t gen;               /* bumped when a quote or the prices' staleness changes */
	bool stale;
	char *stale_reason;
	int64_t no_answer_since;    /* stale because nothing answered since then (ms); 0: not that */
	int64_t updated_ms;         /* monotonic time of the last good quotes or heartbeat */
	/* the exchange's clock as last read (GET /v1/market, candles): its
	 * time then (Unix s), when we read it (monotonic ms; 0: never), how fast
	 * it runs */
	int64_t clock_s, clock_at_ms;
	double clock_speed;
	/* polled (GET /v1/quotes with the last ETag) while the stream is not live */
	char *etag;
	uint64_t quotes_req;        /* in flight, 0 none */
	int64_t quotes_sent_ms;
	int64_t next_quotes_ms;
	int poll_failures;          /* quotes requests failed in a row (backoff) */
	/* streamed (the quotes channel): while it is live, nothing is polled */
	struct api_stream *stream;
	enum api_stream_state stream_state;
	int64_t stream_since;       /* wall clock (Unix ms) of the state */
	/* the market's state (GET /v1/market): the last good answer, NULL before */
	struct api_market *state;
	int64_t clock_skew;         /* the exchange clock less ours (s), from its server_time */
	uint64_t state_gen;         /* bumped by every answer */
	uint64_t market_req;
	int64_t next_market_ms;
	struct tui_history hist;    /* the rows' 24 h history (history.c) */
	uint64_t units_job_gen;     /* the fit job the rows' needs are for (units.c) */
	struct tui_focus *focus;    /* the GPU being looked at, or NULL (focus.c) */
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

/* ---- market.c: the market table ---- */
void tui_market_init(struct tui *t);
/* The quotes stream, once the client exists (closed by tui_market_free). */
void tui_market_open(struct tui *t);
void tui_market_free(struct tui *t);
/* Start what is due (quotes while not streamed, the market's state);
 * returns the ms until the next thing is due. */
int tui_market_tick(struct tui *t, int64_t now);
/* The one way quotes change, from the poller and the stream alike: take
 * these n (whole: they are every GPU's, the others have none), note which
 * asks moved (they flash) and which last trades (the history follows), mark
 * the prices fresh and bump t->m.gen. Quotes of GPUs not in the catalogue
 * are left out. */
void tui_market_take(struct tui *t, const struct api_quote *v, size_t n, bool whole, int64_t now);
/* The prices could not be had: stale, with reason (copied); bumps t->m.gen
 * when the state or the reason changed. */
void tui_market_set_stale(struct tui *t, const char *reason);
/* The market's state asked again now (a page that shows it opened). */
void tui_market_state_soon(struct tui *t);
/* The market's opening time (Unix s) as last known, -1 when unknown. */
int64_t tui_market_opens_at(const struct tui *t);
/* The 24 h change of gpu (a catalogue id): the one figure the tables, the
 * detail and compare screens show; false while its history is not known. */
bool tui_market_change(const struct tui *t, const char *gpu, int64_t *bp);
/* The quote of gpu (a catalogue id), NULL when it has none. */
const struct api_quote *tui_market_quote(const struct tui *t, const char *gpu);
/* The best ask of gpu, -1 if none. */
int64_t tui_market_ask(const struct tui *t, const char *gpu);
/* The asks for view_new / view_set_prices (borrowed until the next change). */
struct view_prices tui_market_prices(const struct tui *t);
/* Every catalogue GPU's market figures for view_set_market: bid and last,
 * the 24 h change and a sparkline of spark_cols columns from the history,
 * each on its own scale or, with t->spark_shared, all on the one scale of
 * tui_market_spark_scale, named in out->spark_label ("24 h $0.80–$4.40").
 * out's items and label are malloc'ed: free with tui_market_figures_free. */
void tui_market_figures(const struct tui *t, int spark_cols, struct view_market *out);
void tui_market_figures_free(struct view_market *m);
/* The one scale of every GPU's sparkline of spark_cols columns: the lowest
 * and highest price in all their series; false (-1 both) when no GPU has
 * a price in the last 24 h. */
bool tui_market_spark_scale(const struct tui *t, int spark_cols, int64_t *lo, int64_t *hi);
/* Earliest time a price's flash ends, or -1. */
int64_t tui_market_next_change(struct tui *t, int64_t now);
/* Whether GPU index g is flashing now: 0 no, else +1 up / -1 down / 2 new. */
int tui_flash(const struct tui *t, size_t g, int64_t now);
/* The streams' sockets for poll() (the quotes', the focus'), after the
 * client's; then perform. */
int tui_market_fds(struct tui *t, struct pollfd *fds, int max, int *timeout_ms);
void tui_market_perform(struct tui *t);

/* ---- clock.c: the exchange's clock ---- */
/* The exchange clock now (Unix s): its last reading moved on by the time
 * since, at its speed; our own clock before any reading. */
int64_t tui_exchange_now(const struct tui *t);
/* The exchange said its clock reads server_s (a reply's server_time). */
void tui_exchange_clock(struct tui *t, int64_t server_s);

/* ---- units.c: the ladders by node size the fit job needs ---- */
/* Take the fit job's needs (when t->job moved) and ask for the ladders the
 * quotes cannot price; lower *next. */
void tui_units_tick(struct tui *t, int64_t now, int64_t *next);
/* The asks the views read: the quoted rows', with the ladders the fit job
 * needs (m->asks, m->n_asks). */
void tui_units_asks(struct tui *t);
void tui_units_free(struct tui *t);

/* ---- history.c: the 24 h history of the rows ---- */
/* A screen shows the 24 h history: fetch it (once per GPU). */
void tui_history_want(struct tui *t);
/* Fetch what is missing, slide the window; lower *next. */
void tui_history_tick(struct tui *t, int64_t now, int64_t *next);
/* Catalogue GPU g traded at price: the close of its hour moves. */
void tui_history_trade(struct tui *t, size_t g, int64_t price);
/* Catalogue GPU g's close prices over the last 24 h in cols columns
 * (detail_series; -1 where none); false while it has none. The 24 h change
 * (the row's change_bp) is kept current with it. */
bool tui_history_series(const struct tui *t, size_t g, int cols, int64_t *col);
void tui_history_free(struct tui *t);

/* ---- focus.c: the GPU being looked at ---- */
/* Look at gpu (book and trades streamed or fetched); NULL: at none. */
void tui_focus_set(struct tui *t, const char *gpu);
/* Fetch what the focus stream does not deliver yet (book, trades). */
void tui_focus_tick(struct tui *t, int64_t now, int64_t *next);
int tui_focus_fds(struct tui *t, struct pollfd *fds, int max, int *timeout_ms);
void tui_focus_perform(struct tui *t);

/* ---- account.c: the account as data ---- */
struct tui_account {
	struct api_account *a;      /* the last good answer; NULL before one */
	char *error;                /* the last answer's failure, in words; NULL if good */
	bool refused;               /* the last answer was 401, 403 or 404: no account */
	uint64_t gen;               /* bumped by every answer and every change made here */
	uint64_t moved;             /* bumped when money moved: lists ask again */
	uint64_t req;
	int64_t next;
	int64_t not_before;         /* the exchange said to wait until then (Retry-After) */
	bool hurry;                 /* a page shows it: asked every TUI_ACCOUNT_FAST_MS */
	struct api_orders *open;    /* the open orders as the orders page last listed them */
};

/* Start what is due; lower *next. Asked every TUI_MARKET_MS, or every
 * TUI_ACCOUNT_FAST_MS while tui_account_hurry was called since the last tick. */
void tui_account_tick(struct tui *t, int64_t now, int64_t *next);
void tui_account_hurry(struct tui *t);
/* Asked again now. */
void tui_account_soon(struct tui *t);
/* Money moved (an order, a cancel, a stop, a deposit, another key): the
 * account asked again now, and the lists that compare t->account.moved. */
void tui_account_moved(struct tui *t);
/* minor of ccy went from held to available (a cancel's released hold, a
 * stop's refund), shown at once; the next answer confirms it. */
void tui_account_release(struct tui *t, const char *ccy, int64_t minor);
/* The balances a deposit's answer gives (ccy's). */
void tui_account_set_balance(struct tui *t, const char *ccy, const struct api_balance *b);
/* The orders page's latest list of open orders (taken; NULL keeps none). */
void tui_account_set_open(struct tui *t, struct api_orders *open);
/* The account's currency, or NULL before it is known. */
const char *tui_account_currency(const struct tui *t);
/* Its role (enum api_role), -1 before it is known. */
int tui_account_role(const struct tui *t);
void tui_account_free(struct tui *t);

/* The account's events (events.c). */
enum { TUI_EVENTS_MAX = 200, TUI_EVENTS_BACK = 50 };
struct tui_events {
	struct api_stream *stream;  /* the account channel; NULL before the account is known */
	struct api_account_event **v; /* the latest, oldest first (owned) */
	size_t n;
	uint64_t gen;               /* bumped by every event kept */
	uint64_t fired;             /* alert firings heard since the start (the bell) */
	uint64_t back_req;          /* GET /v1/events: the history before the stream began */
	bool back_done;
};
/* Open the account channel (once the account is known; no-op after). */
void tui_events_open(struct tui *t);
int tui_events_fds(struct tui *t, struct pollfd *fds, int max, int *timeout_ms);
void tui_events_perform(struct tui *t);
void tui_events_free(struct tui *t);
/* What the exchange said, in words a buyer understands (malloc'ed): its
 * numbers from the account and the market as known. */
char *tui_error_words(const struct tui *t, const struct api_error *e);

#endif
