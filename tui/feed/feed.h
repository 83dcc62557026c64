/*
 * Internal to tui/: what the exchange says, as data (tui/feed/). One owner
 * for each thing, asked by no screen: every screen reads it in its recalc,
 * comparing a generation counter (pull).
 *
 *   the market   (market.c, feed.c) every GPU's best ask, bid and last
 *                trade, the market's state (open, pre-open, halted; its
 *                opening; demo; simulated payments), the 24 h history, and
 *                the book and trades of the GPU being looked at; streamed,
 *                or polled while the stream is not live
 *   the account  (account.c) who it is, its role and currency, the
 *                balances; and the open orders as the orders page last
 *                listed them
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
	TUI_STALE_MS = 6000,        /* no answer for this long: stale */
	TUI_TRADES_MAX = 100,       /* recent trades kept for the detail screen */
	TUI_BOOK_DEPTH = 100,       /* levels fetched when the book is not streamed */
	TUI_SPARK_COLS = 12,        /* a table's 24 h sparkline: 2 h a column */
};

/* What the exchange last told us of the market. */
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
	/* the market's state (GET /v1/market): the last good answer, NULL before */
	struct api_market *state;
	uint64_t state_gen;         /* bumped by every answer */
	uint64_t market_req;
	int64_t next_market_ms;
	int64_t *flash_until;       /* per catalogue GPU */
	int *flash_dir;             /* +1 up, -1 down, 0 new */
	/* the market stream (tui/feed/feed.c): while it is live, nothing is polled */
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

/* ---- market.c: the market as data ---- */
void tui_market_init(struct tui *t);
void tui_market_free(struct tui *t);
/* Start what is due (quotes, the market's state); returns the ms until
 * the next thing is due. */
int tui_market_tick(struct tui *t, int64_t now);
/* The market's state asked again now (a page that shows it opened). */
void tui_market_state_soon(struct tui *t);
/* The market's opening time (Unix s) as last known, -1 when unknown. */
int64_t tui_market_opens_at(const struct tui *t);
/* The one way prices change: take these quotes (n of them; gpu ids
 * copied), note which GPUs' asks moved (they flash), mark the prices fresh
 * and bump t->m.gen. Screens that show prices compare t->m.gen in recalc.
 * A market stream can feed the TUI through this too. */
void tui_market_apply_quotes(struct tui *t, const struct view_price *p, size_t n, int64_t now);
/* The prices could not be had: stale, with reason (copied); bumps t->m.gen
 * when the state or the reason changed. */
void tui_market_set_stale(struct tui *t, const char *reason);
/* Earliest time a price's flash ends, or -1. */
int64_t tui_market_next_change(struct tui *t, int64_t now);
/* Whether GPU index g is flashing now: 0 no, else +1 up / -1 down / 2 new. */
int tui_flash(const struct tui *t, size_t g, int64_t now);
/* The best ask of a GPU, -1 if none. */
int64_t tui_market_ask(const struct tui *t, const char *gpu);

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

/* ---- account.c: the account as data ---- */
struct tui_account {
	struct api_account *a;      /* the last good answer; NULL before one */
	char *error;                /* the last answer's failure, in words; NULL if good */
	bool refused;               /* the last answer was 401, 403 or 404: no account */
	uint64_t gen;               /* bumped by every answer and every change made here */
	uint64_t moved;             /* bumped when money moved: lists ask again */
	uint64_t req;
	int64_t next;
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
/* What the exchange said, in words a buyer understands (malloc'ed): its
 * numbers from the account and the market as known. */
char *tui_error_words(const struct tui *t, const struct api_error *e);

#endif
