/*
 * Internal to tui/: the detail screen's chart (tui/market/detail_chart.c), a
 * part it owns with its own state: the range (1 h, 24 h, 7 d), the candles
 * of it and the close before it, their requests and timers, the view (close
 * prices or OHLC candles) and the inspect cursor. Requests start from the
 * detail's tick; replies and keys bump gen, which the detail reads in its
 * recalc to rebuild.
 */
#ifndef GPUX_TUI_DETAIL_CHART_H
#define GPUX_TUI_DETAIL_CHART_H

#include <stdbool.h>
#include <stdint.h>

#include "tui/market/detail.h"
#include "tui/tui_int.h"

enum detail_chart_view { DCV_CLOSE, DCV_CANDLES };

struct detail_chart {
	struct tui *t;
	char *gpu;
	enum detail_range range;
	enum detail_chart_view view;
	int cursor;                 /* the inspected column; -1 none */
	struct api_candles *candles; /* the range's, from its start (from_s) on */
	int64_t from_s;             /* the range's start asked (exchange clock, Unix s) */
	int64_t before_cents;       /* the last close before from_s; -1 none */
	bool have_before;           /* its answer came (or failed: no price before) */
	char *error;
	uint64_t candles_req, before_req;
	int64_t again_at;           /* asked again no sooner (new trades) */
	int64_t slide_at;           /* asked again by then (the range moved on) */
	uint64_t asked_trades;      /* the focus's trade_gen they were asked at */
	int cols;                   /* the chart's columns when last drawn; 0 never */
	uint64_t gen;               /* bumped by every reply and every change of view */
};

/* The chart's key map (its actions are detail_chart_act's), for the
 * detail's class to list after its own. */
enum { DETAIL_CHART_N_BINDINGS = 11 };
extern const struct wbinding detail_chart_bindings[DETAIL_CHART_N_BINDINGS];

/* The 24 h chart of gpu in the close view, no cursor, nothing asked yet. */
void detail_chart_init(struct detail_chart *c, struct tui *t, const char *gpu);
void detail_chart_free(struct detail_chart *c);
/* The same chart for another GPU: its range, view and cursor column kept,
 * its candles dropped and asked again. */
void detail_chart_set_gpu(struct detail_chart *c, const char *gpu);
/* Start what is due; lower *next. */
void detail_chart_tick(struct detail_chart *c, int64_t now, int64_t *next);
/* The chart into p, cols wide, with rows rows of bars: its title, the bars
 * or candles, the time axis (clock times on the local clock, the zone
 * named), and a line under it: with the cursor, what its column holds;
 * else the legend. The cursor is clamped to the columns drawn. */
void detail_chart_lines(struct detail_chart *c, struct wpanel *p, int cols, int rows);
/* Do action (of detail_chart_bindings); W_* flags. */
unsigned detail_chart_act(struct detail_chart *c, int action);
/* Hide the inspect cursor: false when none was shown (Esc goes back then). */
bool detail_chart_escape(struct detail_chart *c);

#endif
