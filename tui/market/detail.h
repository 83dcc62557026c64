/*
 * Internal to tui/: the detail screen of one GPU (tui/market/detail.c) and its
 * pure model (tui/market/detail_model.c: no curses, no exchange): what filling an
 * order from the ladder would cost, the chart's columns from candles, the
 * chart, its time axis and the sparkline drawn as text, and the 24 h change.
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

#endif
