/*
 * The detail screen's pure model (tui/market/detail.h): the ladder walked for an
 * order, candles put into chart columns (each column knowing whether a trade
 * was made in it or it carries the price before), the columns drawn as bars
 * of eighth blocks (or ASCII) or, where no trade was made, as a line at the
 * carried price, or as OHLC candles (a wick and a body per column), the time
 * axis under them on round times of the local clock, and the 24 h change.
 * Nothing here knows curses or the exchange.
 */
#include "tui/market/detail.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/util.h"
#include "view/view.h"

void detail_fill(const struct api_level *asks, size_t n, int64_t gpus, int64_t hours,
		 struct tui_fill *out)
{
	int64_t left = gpus;

	memset(out, 0, sizeof *out);
	out->worst_cents = -1;
	for (size_t i = 0; i < n && left > 0 && hours > 0; i++) {
		int64_t take = asks[i].gpus < left ? asks[i].gpus : left;
		if (take <= 0)
			continue;
		out->gpus += take;
		out->total_cents += take * hours * asks[i].price_cents;
		out->worst_cents = asks[i].price_cents;
		out->levels++;
		left -= take;
	}
	out->complete = gpus > 0 && hours > 0 && left == 0;
	if (out->gpus > 0 && hours > 0) {
		int64_t d = out->gpus * hours;
		out->avg_cents = (out->total_cents + d / 2) / d;
	}
}

const char *detail_range_interval(enum detail_range r, int *limit, int64_t *seconds)
{
	switch (r) {
	case DR_1H: *limit = 61; *seconds = 3600; return "1m";
	case DR_24H: *limit = 289; *seconds = 86400; return "5m";
	case DR_7D:
	case DR_COUNT:
		break;
	}
	*limit = 169;
	*seconds = 7 * 86400;
	return "1h";
}

/* The first candle at or after from; *last the close of the one before it
 * (-1 none): candles before the range set the price the chart starts from. */
static size_t skip_before(const struct api_candle *v, size_t n, int64_t from, int64_t *last)
{
	size_t k = 0;

	*last = -1;
	while (k < n && v[k].start < from)
		*last = v[k++].close_cents;
	return k;
}

/* The end of column j of cols over [from, to) (exclusive). */
static int64_t column_end(int64_t from, int64_t to, int j, int cols)
{
	return from + (int64_t)((double)(to - from) * (j + 1) / cols);
}

size_t detail_series(const struct api_candle *v, size_t n, int64_t from, int64_t to, int cols,
		     int64_t *out, bool *traded)
{
	int64_t last;
	size_t k = skip_before(v, n, from, &last), have = 0;

	for (int j = 0; j < cols; j++) {
		int64_t end = column_end(from, to, j, cols);
		bool any = false;
		while (k < n && v[k].start < end) {
			last = v[k++].close_cents;
			any = true;
		}
		out[j] = last;
		if (traded != NULL)
			traded[j] = any;
		have += last >= 0;
	}
	return have;
}

void detail_series_range(const int64_t *col, int cols, int64_t *lo, int64_t *hi)
{
	*lo = *hi = -1;
	detail_series_widen(col, cols, lo, hi);
}

void detail_series_widen(const int64_t *col, int cols, int64_t *lo, int64_t *hi)
{
	for (int j = 0; j < cols; j++) {
		if (col[j] < 0)
			continue;
		if (*lo < 0 || col[j] < *lo)
			*lo = col[j];
		if (*hi < 0 || col[j] > *hi)
			*hi = col[j];
	}
}

/* A column's height in eighths of a row (1 … rows·8); 0: no price. */
static int eighths(int64_t v, int64_t lo, int64_t hi, int rows)
{
	int max = rows * 8;

	if (v < 0)
		return 0;
	if (hi <= lo)
		return max / 2;
	return 1 + (int)((double)(v - lo) * (max - 1) / (double)(hi - lo) + 0.5);
}

static const char *const blocks[9] = {
	" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
};
static const char *const ascii_blocks[9] = { " ", ".", ".", ".", ":", ":", ":", "#", "#" };

const char *detail_cell(int64_t v, int64_t lo, int64_t hi, int rows, int r, bool line,
			bool ascii)
{
	int e = eighths(v, lo, hi, rows) - (rows - 1 - r) * 8; /* eighths above this row's floor */

	if (e <= 0)
		return " ";
	if (line && e > 8)
		return " "; /* below the level of a carried price: nothing */
	if (e > 8)
		e = 8;
	if (line)
		return ascii ? "-" : "\u2500";
	return ascii ? ascii_blocks[e] : blocks[e];
}

void detail_chart(const int64_t *col, int cols, int rows, bool ascii, char **out)
{
	int64_t lo, hi;

	detail_series_range(col, cols, &lo, &hi);
	for (int r = 0; r < rows; r++) {
		struct buf s = {0};
		for (int j = 0; j < cols; j++)
			buf_puts(&s, detail_cell(col[j], lo, hi, rows, r, false, ascii));
		out[r] = buf_take(&s);
		if (out[r] == NULL)
			out[r] = xstrdup("");
	}
}

char *detail_sparkline(const int64_t *col, int cols, bool ascii)
{
	int64_t lo, hi;

	detail_series_range(col, cols, &lo, &hi);
	return detail_sparkline_on(col, cols, lo, hi, ascii);
}

char *detail_sparkline_on(const int64_t *col, int cols, int64_t lo, int64_t hi, bool ascii)
{
	struct buf s = {0};
	char *row;

	for (int j = 0; j < cols; j++) {
		int64_t v = col[j];
		if (v >= 0 && v < lo)
			v = lo;
		if (v > hi && hi >= 0)
			v = hi;
		buf_puts(&s, detail_cell(v, lo, hi, 1, 0, false, ascii));
	}
	row = buf_take(&s);
	return row != NULL ? row : xstrdup("");
}

bool detail_change_bp(const int64_t *col, int cols, int64_t *bp)
{
	int64_t first = -1, last = -1;

	for (int j = 0; j < cols; j++) {
		if (col[j] < 0)
			continue;
		if (first < 0)
			first = col[j];
		last = col[j];
	}
	if (first <= 0 || last < 0)
		return false;
	int64_t d = (last - first) * 10000;
	*bp = d >= 0 ? (d + first / 2) / first : -((-d + first / 2) / first);
	return true;
}

bool detail_change_since(const struct api_candle *v, size_t n, int64_t from, int64_t *bp)
{
	int64_t base = -1, last;
	size_t k = 0;

	while (k < n && v[k].start < from)
		base = v[k++].close_cents;
	if (k == n)
		return false; /* no trade in the window: no change to tell */
	if (base < 0)
		base = v[k].open_cents; /* the first trade made in the window */
	last = v[n - 1].close_cents;
	if (base <= 0 || last < 0)
		return false;
	int64_t d = (last - base) * 10000;
	*bp = d >= 0 ? (d + base / 2) / base : -((-d + base / 2) / base);
	return true;
}

enum { AXIS_NUDGE = 2 };

char *detail_axis(int cols, const char *const *labels, const int *at, size_t n)
{
	char *line;
	struct buf s = {0};
	int *x = xcalloc(n + 1, sizeof *x), *w = xcalloc(n + 1, sizeof *w);
	bool *keep = xcalloc(n + 1, sizeof *keep);
	int end = -2; /* one past the last column taken so far */

	/* each label centred on its tick, kept inside the row, left out where
	 * it would touch the one before (the last, "now", is placed first from
	 * the right so it always shows) */
	for (size_t i = 0; i < n; i++) {
		w[i] = (int)view_text_width(labels[i]);
		x[i] = at[i] - w[i] / 2;
		if (x[i] + w[i] > cols)
			x[i] = cols - w[i];
		if (x[i] < 0)
			x[i] = 0;
	}
	int right = n > 0 && w[n - 1] <= cols ? x[n - 1] : cols + 1;
	for (size_t i = 0; i < n; i++) {
		bool last = i + 1 == n;
		/* a blank before it: moved right by up to AXIS_NUDGE columns for one */
		if (!last && x[i] <= end && end + 1 - x[i] <= AXIS_NUDGE)
			x[i] = end + 1;
		keep[i] = w[i] <= cols && x[i] > end && (last || x[i] + w[i] < right);
		if (keep[i])
			end = x[i] + w[i];
	}
	/* the row: blanks, then each label kept at its column */
	int pos = 0;
	for (size_t i = 0; i < n; i++) {
		if (!keep[i])
			continue;
		for (; pos < x[i]; pos++)
			buf_puts(&s, " ");
		buf_puts(&s, labels[i]);
		pos += w[i];
	}
	for (; pos < cols; pos++)
		buf_puts(&s, " ");
	free(x);
	free(w);
	free(keep);
	line = buf_take(&s);
	return line != NULL ? line : xstrdup("");
}

/* ---- the candle view ------------------------------------------------------------------------ */

size_t detail_ohlc_columns(const struct api_candle *v, size_t n, int64_t from, int64_t to,
			   int cols, struct detail_ohlc *out)
{
	int64_t last;
	size_t k = skip_before(v, n, from, &last), have = 0;

	for (int j = 0; j < cols; j++) {
		int64_t end = column_end(from, to, j, cols);
		struct detail_ohlc *o = &out[j];

		memset(o, 0, sizeof *o);
		o->carried = last;
		for (; k < n && v[k].start < end; k++) {
			const struct api_candle *c = &v[k];
			if (!o->traded) {
				o->traded = true;
				o->open = c->open_cents;
				o->high = c->high_cents;
				o->low = c->low_cents;
			}
			if (c->high_cents > o->high)
				o->high = c->high_cents;
			if (c->low_cents < o->low)
				o->low = c->low_cents;
			o->close = last = c->close_cents;
			o->gpus += c->gpus;
			o->gpu_hours += c->gpu_hours;
			o->trades += c->trades;
		}
		have += o->traded || o->carried >= 0;
	}
	return have;
}

void detail_ohlc_range(const struct detail_ohlc *o, int cols, int64_t *lo, int64_t *hi)
{
	*lo = *hi = -1;
	for (int j = 0; j < cols; j++) {
		int64_t l = o[j].traded ? o[j].low : o[j].carried;
		int64_t h = o[j].traded ? o[j].high : o[j].carried;
		if (l < 0)
			continue;
		if (*lo < 0 || l < *lo)
			*lo = l;
		if (*hi < 0 || h > *hi)
			*hi = h;
	}
}

int detail_price_half(int64_t v, int64_t lo, int64_t hi, int rows)
{
	int halves = 2 * rows;

	if (hi <= lo || rows <= 1)
		return rows > 1 ? 2 * (rows / 2) : 0;
	int h = (int)((double)(hi - v) * (halves - 1) / (double)(hi - lo) + 0.5);
	return h < 0 ? 0 : h >= halves ? halves - 1 : h;
}

/* Which halves of row r (bit 1 the upper, bit 0 the lower) the half-rows
 * top … bottom cover. */
static int halves_of(int r, int top, int bottom)
{
	return (top <= 2 * r && 2 * r <= bottom ? 2 : 0) |
	       (top <= 2 * r + 1 && 2 * r + 1 <= bottom ? 1 : 0);
}

const char *detail_candle_cell(const struct detail_ohlc *o, int64_t lo, int64_t hi, int rows,
			       int r, bool ascii)
{
	static const char *const body[4] = { " ", "\u2584", "\u2580", "\u2588" };
	static const char *const wick[4] = { " ", "\u2577", "\u2575", "\u2502" };

	if (!o->traded) {
		if (o->carried < 0 || detail_price_half(o->carried, lo, hi, rows) / 2 != r)
			return " ";
		return ascii ? "-" : "\u2500";
	}
	int64_t b_hi = o->open > o->close ? o->open : o->close;
	int64_t b_lo = o->open > o->close ? o->close : o->open;
	int b = halves_of(r, detail_price_half(b_hi, lo, hi, rows),
			  detail_price_half(b_lo, lo, hi, rows));
	int w = halves_of(r, detail_price_half(o->high, lo, hi, rows),
			  detail_price_half(o->low, lo, hi, rows));

	if (b != 0)
		return ascii ? "#" : body[b];
	if (w != 0)
		return ascii ? "|" : wick[w];
	return " ";
}

int detail_candle_dir(const struct detail_ohlc *o)
{
	if (!o->traded || o->close == o->open)
		return 0;
	return o->close > o->open ? 1 : -1;
}

/* ---- the time axis --------------------------------------------------------------------------- */

/* The local clock's offset from UTC at t (seconds east; 0 when unknown). */
static int64_t local_offset(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	return localtime_r(&tt, &tm) != NULL ? (int64_t)tm.tm_gmtoff : 0;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

size_t detail_round_ticks(int64_t from, int64_t to, int64_t step, int64_t *out, size_t max)
{
	size_t n = 0;

	if (step <= 0 || to < from)
		return 0;
	/* walk the local clock: each round wall time, back to the moment it
	 * names with the offset then (a change of offset in the range moves
	 * the ticks after it with the clock) */
	int64_t wall = floor_div(from + local_offset(from), step) * step;
	for (int guard = 0; n < max && guard < 100000; guard++, wall += step) {
		int64_t t = wall - local_offset(wall - local_offset(from));
		if (t > to)
			break;
		if (t >= from && (n == 0 || t > out[n - 1]))
			out[n++] = t;
	}
	return n;
}

int64_t detail_tick_step(enum detail_range r, int cols, int label_w)
{
	static const int64_t hour[] = { 300, 600, 900, 1800, 3600 };
	static const int64_t day[] = { 3600, 7200, 10800, 14400, 21600, 43200 };
	static const int64_t week[] = { 86400, 2 * 86400, 7 * 86400 };
	const int64_t *v = r == DR_1H ? hour : r == DR_24H ? day : week;
	size_t n = r == DR_1H ? 5 : r == DR_24H ? 6 : 3;
	int limit;
	int64_t secs;

	detail_range_interval(r, &limit, &secs);
	for (size_t i = 0; i < n; i++)
		if (cols > 0 && (double)v[i] * cols / (double)secs >= label_w + 2)
			return v[i];
	return v[n - 1];
}
