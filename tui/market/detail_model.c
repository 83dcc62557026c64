/*
 * The detail screen's pure model (tui/market/detail.h): the ladder walked for an
 * order, candles put into chart columns (each column knowing whether a trade
 * was made in it or it carries the price before), the columns drawn as bars
 * of eighth blocks (or ASCII) or, where no trade was made, as a line at the
 * carried price, the time axis under them, and the 24 h change. Nothing here
 * knows curses or the exchange.
 */
#include "tui/market/detail.h"

#include <stdlib.h>
#include <string.h>

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

size_t detail_series(const struct api_candle *v, size_t n, int64_t from, int64_t to, int cols,
		     int64_t *out, bool *traded)
{
	int64_t last = -1;
	size_t k = 0, have = 0;

	/* candles before the range set the price the chart starts from */
	while (k < n && v[k].start < from)
		last = v[k++].close_cents;
	for (int j = 0; j < cols; j++) {
		int64_t end = from + (int64_t)((double)(to - from) * (j + 1) / cols);
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
