/*
 * Internal to tui/: the detail screen of one GPU (tui/market/detail.c) and its
 * pure model (tui/market/detail_model.c: no curses, no exchange): what filling an
 * order from the ladder would cost, the chart's columns from candles, the
 * chart (close prices or OHLC candles per column), its time axis on round
 * times of the local clock, the sparkline drawn as text, and the 24 h change.
 */
#ifndef GPUX_TUI_DETAIL_H
#define GPUX_TUI_DETAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api.h"

/* Filling gpus × hours from the asks, best first, level by level. */
struct tui_fill {
	int64_t gpus;               /* GPUs the asks shown can give (≤ asked) */
	size_t levels;              /* price levels it takes */
	int64_t total_cents;        /* Σ GPUs × hours × price (before tax) */
	int64_t avg_cents;          /* per GPU-hour, total ÷ (gpus × hours), rounded */
	int64_t worst_cents;        /* the last level's price; -1 none */
	bool complete;              /* all the GPUs asked for */
};
void detail_fill(const struct api_level *asks, size_t n, int64_t gpus, int64_t hours,
		 struct tui_fill *out);

/* The chart's ranges. */
enum detail_range { DR_1H, DR_24H, DR_7D, DR_COUNT };
/* The candle interval of a range ("1m", "5m", "1h"), the range's length in
 * seconds and the most candles it can hold (61, 289, 169: the range asked
 * by time, from its start to now, can touch one interval more than it
 * spans). */
const char *detail_range_interval(enum detail_range r, int *limit, int64_t *seconds);

/* Close prices per column: column j covers [from + j·w, from + (j+1)·w)
 * with w = (to - from) / cols; it takes the close of the last candle that
 * starts in it, or carries the previous column's close when none does
 * (-1 before the first candle; candles before from give the price the
 * first columns carry). traded (may be NULL): whether a candle starts in
 * column j, i.e. a trade was made in it. Returns how many columns have a
 * price. */
size_t detail_series(const struct api_candle *v, size_t n, int64_t from, int64_t to, int cols,
		     int64_t *out, bool *traded);
/* Lowest and highest price of the series (-1 both when it has none). */
void detail_series_range(const int64_t *col, int cols, int64_t *lo, int64_t *hi);
/* lo … hi widened to take in the series' prices (-1 both: none yet): the
 * one scale of several series, each widened in turn. */
void detail_series_widen(const int64_t *col, int cols, int64_t *lo, int64_t *hi);

/* The glyph (static) of a column of price v in row r (0: the top) of a
 * chart of rows rows spanning lo … hi: a bar of eighth blocks ▁…█ (ASCII
 * '.', ':', '#'), or with line a ─ (ASCII '-') in the row of its level
 * alone: a price carried through an interval without a trade. " " for no
 * price, above it, and (a line) below it. */
const char *detail_cell(int64_t v, int64_t lo, int64_t hi, int rows, int r, bool line,
			bool ascii);
/* The series as rows × cols of bars (rows[0] the top row; each a malloc'ed
 * UTF-8 string of exactly cols columns): detail_cell's bars; a column
 * without a price stays blank. */
void detail_chart(const int64_t *col, int cols, int rows, bool ascii, char **out);
/* One row of the series (a sparkline) on its own scale, malloc'ed. */
char *detail_sparkline(const int64_t *col, int cols, bool ascii);
/* One row of the series on the scale lo … hi (a scale shared with other
 * series: the lowest price drawn ▁, the highest █, a price outside the
 * scale at its edge, a column without a price blank), malloc'ed. */
char *detail_sparkline_on(const int64_t *col, int cols, int64_t lo, int64_t hi, bool ascii);

/* The change from first to last price of a series in hundredths of a
 * percent (+123 = +1.23 %); false when the series has no two prices. */
bool detail_change_bp(const int64_t *col, int cols, int64_t *bp);

/* The change since from, from candles (oldest first), in hundredths of a
 * percent: from the close of the last candle that began before from (the
 * price then, to the candle's interval) or, when none did, the open of the
 * first one after it, to the last close. false when no candle begins at or
 * after from (nothing traded since). The one 24 h figure of the market
 * table (tui/feed/history.c). */
bool detail_change_since(const struct api_candle *v, size_t n, int64_t from, int64_t *bp);

/* A time axis of exactly cols columns (malloc'ed): labels[i] centred under
 * column at[i] (kept inside the row, moved right by a column or two for a
 * blank after the one before it), left out where that is not enough; the
 * last is always kept when it fits (it is "now"). */
char *detail_axis(int cols, const char *const *labels, const int *at, size_t n);

/* ---- the candle view ---- */

/* What one column of the chart holds: the candles that start in it
 * aggregated (open of the first, highest high, lowest low, close of the
 * last; GPUs, GPU-hours and trades summed), or none (traded false) with the
 * close carried from before (-1: no price yet). */
struct detail_ohlc {
	bool traded;
	int64_t open, high, low, close; /* cents; when traded */
	int64_t carried;            /* the last close before the column; -1 none */
	int64_t gpus, gpu_hours, trades;
};
/* The columns of [from, to) as detail_series cuts them (column j covers
 * [from + (to-from)·j/cols, from + (to-from)·(j+1)/cols)); candles before
 * from only set the price carried. out[cols]. Returns how many columns
 * have a price (traded or carried). */
size_t detail_ohlc_columns(const struct api_candle *v, size_t n, int64_t from, int64_t to,
			   int cols, struct detail_ohlc *out);
/* Lowest low and highest high of the columns (a carried price counts as
 * itself); -1 both when none has a price. */
void detail_ohlc_range(const struct detail_ohlc *o, int cols, int64_t *lo, int64_t *hi);
/* The half-row (0: the top half of the top row … 2·rows - 1) of price v
 * on a chart of rows rows spanning lo … hi (the top half of the middle row
 * when hi ≤ lo). */
int detail_price_half(int64_t v, int64_t lo, int64_t hi, int rows);
/* The glyph (static) of column o in row r, at half a row's resolution: the
 * body from open to close █, or ▀ / ▄ where it fills the row's upper or
 * lower half (ASCII '#'); the wick from high to low outside it │, or ╵ / ╷
 * for its upper or lower half (ASCII '|'); a column without trades: ─
 * (ASCII '-') in the row of the carried price; " " elsewhere. */
const char *detail_candle_cell(const struct detail_ohlc *o, int64_t lo, int64_t hi, int rows,
			       int r, bool ascii);
/* +1 a column that closed above its open, -1 below, 0 level or no trade. */
int detail_candle_dir(const struct detail_ohlc *o);

/* ---- the time axis ---- */

/* The round times in [from, to] every step seconds on the local clock (TZ):
 * step a divisor of a day (a multiple of 60) — times whose local clock
 * since midnight is a multiple of step —, or a whole number of days —
 * local midnights, every step/86400 days counted from the epoch's day.
 * At most max into out (oldest first); returns how many. */
size_t detail_round_ticks(int64_t from, int64_t to, int64_t step, int64_t *out, size_t max);
/* The step between the axis's round times for a range of secs seconds on
 * cols columns with labels of label_w columns: the smallest of the range's
 * steps (1 h: 5, 10, 15, 30 min, 1 h; 24 h: 1, 2, 3, 4, 6, 12 h; 7 d: 1, 2
 * days) whose ticks stand at least label_w + 2 columns apart. */
int64_t detail_tick_step(enum detail_range r, int cols, int label_w);

#endif
