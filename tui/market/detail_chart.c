/*
 * The detail screen's chart (a part the detail screen owns, composed the
 * way its machines are, tui/market/detail_lots.c): prices over the last
 * hour, 24 h or 7 days, asked by time (GET /v1/candles from the range's start
 * on the exchange clock, and the last daily candle before it for the price
 * it starts from).
 *
 *   close    a column with trades is a bar of eighth blocks (ASCII . : #)
 *            up to its close
 *   candles  a column with trades is an OHLC candle of the candles that
 *            start in it, at half a row's resolution: a wick │ ╵ ╷ (ASCII |)
 *            from high to low, a body █ ▀ ▄ (ASCII #) from open to close, in
 *            the good role when it closed up and the bad one when down
 *
 * In both views a column without trades carries the last price as a line ─
 * at its level (ASCII -), dim, and the legend says so. Under the chart a time
 * axis of clock times on the local clock, on round times (5 min … 1 h over
 * the hour, 1 … 12 h over 24 h, midnights over the week), "now" at its
 * right end and the zone's name in the price labels' column. Over 1 h and
 * 7 d the range's change in the title.
 *
 * The inspect cursor (← → h l, Home End) highlights one column and the line
 * under the axis says what it holds: its time span, open/high/low/close or
 * the price carried, the GPUs, GPU-hours and trades. It stays on its column
 * through new candles, a change of range or of GPU (clamped to the columns).
 *
 * The candles are asked again after new trades, at most every few seconds,
 * and as the range moves on (every interval, at least every 30 s).
 */
#include "tui/market/detail_chart.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

enum { CANDLES_AGAIN_MS = 5000, CANDLES_SLIDE_MIN_MS = 30000, LABEL_W = 10 };

enum { CK_RANGE_NEXT = 1, CK_1H, CK_24H, CK_7D, CK_CANDLES, CK_LEFT, CK_RIGHT, CK_FIRST,
       CK_LAST };

const struct wbinding detail_chart_bindings[DETAIL_CHART_N_BINDINGS] = {
	{ 'i', CK_RANGE_NEXT, N_("Chart: the next range (1 h, 24 h, 7 d)"), N_("Range"),
	  "range-next" },
	{ '1', CK_1H, N_("Chart: the last hour"), NULL, "range-1h" },
	{ '2', CK_24H, N_("Chart: the last 24 hours"), NULL, "range-24h" },
	{ '3', CK_7D, N_("Chart: the last 7 days"), NULL, "range-7d" },
	{ 'c', CK_CANDLES, N_("Chart: candles (open, high, low, close) / close price"),
	  N_("Candles"), "candles" },
	{ WKEY_LEFT, CK_LEFT, N_("Chart: inspect the column to the left (Esc hides the cursor)"),
	  NULL, "chart-left" },
	{ 'h', CK_LEFT, N_("Chart: inspect the column to the left (Esc hides the cursor)"), NULL,
	  "chart-left" },
	{ WKEY_RIGHT, CK_RIGHT, N_("Chart: inspect the column to the right"), NULL, "chart-right" },
	{ 'l', CK_RIGHT, N_("Chart: inspect the column to the right"), NULL, "chart-right" },
	{ WKEY_HOME, CK_FIRST, N_("Chart: inspect the first column"), NULL, "chart-first" },
	{ WKEY_END, CK_LAST, N_("Chart: inspect the last column (now)"), NULL, "chart-last" },
};

/* ---- the state ------------------------------------------------------------------------------- */

void detail_chart_init(struct detail_chart *c, struct tui *t, const char *gpu)
{
	memset(c, 0, sizeof *c);
	c->t = t;
	c->gpu = xstrdup(gpu);
	c->range = DR_24H;
	c->view = DCV_CLOSE;
	c->cursor = -1;
	c->before_cents = -1;
}

static void abandon(struct detail_chart *c, uint64_t *req)
{
	if (*req != 0 && c->t->api != NULL)
		api_abandon(c->t->api, *req);
	*req = 0;
}

/* The candles gone: asked again at the next tick. */
static void drop_candles(struct detail_chart *c)
{
	abandon(c, &c->candles_req);
	abandon(c, &c->before_req);
	api_candles_free(&c->candles);
	free(c->error);
	c->error = NULL;
	c->have_before = false;
	c->before_cents = -1;
	c->gen++;
}

void detail_chart_free(struct detail_chart *c)
{
	drop_candles(c);
	free(c->gpu);
	memset(c, 0, sizeof *c);
}

void detail_chart_set_gpu(struct detail_chart *c, const char *gpu)
{
	char *g = xstrdup(gpu);

	drop_candles(c);
	free(c->gpu);
	c->gpu = g;
}

static void set_range(struct detail_chart *c, enum detail_range r)
{
	if (c->range == r && c->candles != NULL)
		return;
	c->range = r;
	drop_candles(c);
}

/* The cursor moved a column (or to an end); it appears on the last column
 * (now) when it was hidden. Before the chart was drawn its last column is
 * not known: far right, clamped when drawn. */
static void move_cursor(struct detail_chart *c, int action)
{
	int last = c->cols > 0 ? c->cols - 1 : 1 << 20;

	if (action == CK_FIRST)
		c->cursor = 0;
	else if (action == CK_LAST || c->cursor < 0)
		c->cursor = last;
	else if (action == CK_LEFT)
		c->cursor = c->cursor > 0 ? c->cursor - 1 : 0;
	else if (action == CK_RIGHT)
		c->cursor = c->cursor < last ? c->cursor + 1 : last;
	c->gen++;
}

unsigned detail_chart_act(struct detail_chart *c, int action)
{
	switch (action) {
	case CK_RANGE_NEXT: set_range(c, (enum detail_range)((c->range + 1) % DR_COUNT)); break;
	case CK_1H: set_range(c, DR_1H); break;
	case CK_24H: set_range(c, DR_24H); break;
	case CK_7D: set_range(c, DR_7D); break;
	case CK_CANDLES:
		c->view = c->view == DCV_CLOSE ? DCV_CANDLES : DCV_CLOSE;
		c->gen++;
		break;
	case CK_LEFT:
	case CK_RIGHT:
	case CK_FIRST:
	case CK_LAST: move_cursor(c, action); break;
	default: return W_IGNORED;
	}
	return W_HANDLED | W_REDRAW;
}

bool detail_chart_escape(struct detail_chart *c)
{
	if (c->cursor < 0)
		return false;
	c->cursor = -1;
	c->gen++;
	return true;
}

/* ---- the requests ---------------------------------------------------------------------------- */

/* The chart is asked again as its range moves on: every interval (the
 * last column fills), at least every CANDLES_SLIDE_MIN_MS. */
static int64_t slide_ms(enum detail_range r)
{
	int limit;
	int64_t secs, iv;
	const char *name = detail_range_interval(r, &limit, &secs);

	iv = name[strlen(name) - 1] == 'm' ? 60 * atoi(name) : 3600 * atoi(name);
	return iv * 1000 > CANDLES_SLIDE_MIN_MS ? iv * 1000 : CANDLES_SLIDE_MIN_MS;
}

static void on_candles(void *ud, struct api_candles *r, const struct api_error *e)
{
	struct detail_chart *c = ud;

	c->candles_req = 0;
	free(c->error);
	c->error = NULL;
	if (e != NULL) {
		c->error = view_api_error_words(c->t->o->lang, e, NULL);
	} else {
		tui_exchange_clock(c->t, r->server_time);
		api_candles_free(&c->candles);
		c->candles = r;
	}
	c->gen++;
}

/* The last daily candle before the range: the price its first columns carry. */
static void on_before(void *ud, struct api_candles *r, const struct api_error *e)
{
	struct detail_chart *c = ud;

	c->before_req = 0;
	c->have_before = true; /* a failure: the chart starts at the range's first trade */
	c->before_cents = e == NULL && r->n > 0 ? r->v[r->n - 1].close_cents : -1;
	api_candles_free(&r);
	c->gen++;
}

/* The range by time: its candles from its start on the exchange clock to
 * now, and the close before it. */
static void ask_candles(struct detail_chart *c, int64_t now)
{
	struct tui *t = c->t;
	struct api_candles_query q = { .to = -1 }, b = { .interval = "1d", .from = -1, .limit = 1 };
	int64_t secs;

	if (t->api == NULL || c->candles_req != 0 || c->before_req != 0)
		return;
	q.interval = detail_range_interval(c->range, &q.limit, &secs);
	c->from_s = tui_exchange_now(t) - secs;
	q.from = c->from_s;
	b.to = c->from_s;
	c->again_at = now + CANDLES_AGAIN_MS;
	c->slide_at = now + slide_ms(c->range);
	c->asked_trades = t->m.focus != NULL ? t->m.focus->trade_gen : 0;
	c->candles_req = api_candles_start(t->api, c->gpu, &q, on_candles, c);
	c->before_req = api_candles_start(t->api, c->gpu, &b, on_before, c);
}

void detail_chart_tick(struct detail_chart *c, int64_t now, int64_t *next)
{
	const struct tui_focus *f = c->t->m.focus;

	if (c->candles == NULL && c->error == NULL && c->candles_req == 0) {
		ask_candles(c, now);
	} else if (f != NULL && f->trade_gen != c->asked_trades) {
		/* new trades: the chart's last candle moved */
		if (now >= c->again_at)
			ask_candles(c, now);
		else if (*next < 0 || c->again_at < *next)
			*next = c->again_at;
	} else if (now >= c->slide_at) {
		ask_candles(c, now); /* the range moved on */
	}
	if (c->candles_req == 0 && (*next < 0 || c->slide_at < *next))
		*next = c->slide_at;
}

/* ---- drawing --------------------------------------------------------------------------------- */

static char *money(const struct tui *t, int64_t cents)
{
	if (cents < 0)
		return xstrdup("\u2014");
	return i18n_fmt_money(t->o->lang, cents, "USD");
}

/* A new line of p, one blank column first (the panels stand side by side). */
static struct wcells *line(struct wpanel *p)
{
	struct wcells *c = wpanel_add(p);

	wcells_pad(c, 1, WR_NORMAL);
	return c;
}

/* text right-aligned in w columns after a blank. */
static void add_right(struct wcells *c, const char *text, int w, enum wrole role)
{
	int tw = wtext_width(text, c->ascii);

	wcells_pad(c, 1 + (tw < w ? w - tw : 0), role);
	wcells_add(c, text, role, 0);
}

/* The candles the chart is drawn from: the close before the range (as a
 * candle before the window drawn, which starts at from) and the range's
 * own (malloc'ed; *n). */
static struct api_candle *chart_candles(const struct detail_chart *c, int64_t from, size_t *n)
{
	const struct api_candles *r = c->candles;
	struct api_candle *v = xcalloc(r->n + 2, sizeof *v);
	int64_t at = (c->from_s < from ? c->from_s : from) - 1;
	size_t k = 0;

	if (c->before_cents >= 0)
		v[k++] = (struct api_candle){ .start = at, .open_cents = c->before_cents,
					      .high_cents = c->before_cents,
					      .low_cents = c->before_cents,
					      .close_cents = c->before_cents };
	memcpy(v + k, r->v, r->n * sizeof *v);
	*n = k + r->n;
	return v;
}

/* An axis label of moment at: the clock, or over the week the day (malloc'ed). */
static char *tick_label(const struct detail_chart *c, int64_t at)
{
	if (c->range == DR_7D)
		return i18n_fmt_day(c->t->o->lang, at, 0);
	return i18n_fmt_clock(c->t->o->lang, at, 0);
}

/* The widest label the axis of [from, to] can show: a clock's, or over the
 * week the widest day's of the range's midnights. */
static int widest_label(const struct detail_chart *c, int64_t from, int64_t to)
{
	int64_t days[16];
	size_t n = c->range == DR_7D ? detail_round_ticks(from, to, 86400, days, 16) : 0;
	char *x = tick_label(c, from);
	int w = (int)view_text_width(x);

	free(x);
	for (size_t i = 0; i < n; i++) {
		x = tick_label(c, days[i]);
		if ((int)view_text_width(x) > w)
			w = (int)view_text_width(x);
		free(x);
	}
	return w;
}

/* The time axis under the chart's w columns spanning [from, to) on the
 * exchange clock: labels on round times of the local clock, as close as
 * their width lets them stand, and "now" at the right end. */
static char *chart_axis(const struct detail_chart *c, int w, int64_t from, int64_t to)
{
	int label_w = widest_label(c, from, to);
	int64_t step = detail_tick_step(c->range, w, label_w);
	int64_t ticks[64];
	size_t n = detail_round_ticks(from, to, step, ticks, 63), k = 0;
	char **labels = xcalloc(n + 1, sizeof *labels), *axis;
	int *at = xcalloc(n + 1, sizeof *at);

	for (size_t i = 0; i < n; i++) {
		labels[k] = tick_label(c, ticks[i]);
		at[k++] = (int)((ticks[i] - from) * w / (to - from));
	}
	/* TRANSLATORS: the chart's time axis: its right end, the present */
	labels[k] = xstrdup(_("now"));
	at[k++] = w - 1;
	axis = detail_axis(w, (const char *const *)labels, at, k);
	for (size_t i = 0; i < k; i++)
		free(labels[i]);
	free(labels);
	free(at);
	return axis;
}

/* The span of column j of w over [from, to): "14:35–14:40", over the week
 * with the day first (malloc'ed). */
static char *column_span(const struct detail_chart *c, int j, int w, int64_t from, int64_t to)
{
	enum i18n_lang lang = c->t->o->lang;
	int64_t a = from + (to - from) * j / w, b = from + (to - from) * (j + 1) / w;
	char *s = i18n_fmt_clock(lang, a, 0), *e = i18n_fmt_clock(lang, b, 0), *x;

	if (c->range == DR_7D) {
		char *d = i18n_fmt_day(lang, a, 0);
		x = xasprintf("%s %s\u2013%s", d, s, e);
		free(d);
	} else {
		x = xasprintf("%s\u2013%s", s, e);
	}
	free(s);
	free(e);
	return x;
}

/* segs (n) into p's lines of cols columns after a blank, joined by " · ",
 * each whole on its line (one wider than a line wrapped on lines of its
 * own). */
static void flow_segments(struct wpanel *p, char **segs, size_t n, int cols, bool ascii)
{
	const char *sep = " \u00b7 ";
	int sep_w = wtext_width(sep, ascii);
	struct wcells *l = NULL;

	for (size_t i = 0; i < n; i++) {
		int w = wtext_width(segs[i], ascii);
		if (l != NULL && l->width + sep_w + w > cols)
			l = NULL; /* the segment whole on the next line */
		if (w + 2 > cols) {
			/* wider than a line: wrapped on lines of its own */
			wpanel_text(p, segs[i], i == 0 ? WR_HEADER : WR_NORMAL, 2);
			l = NULL;
			continue;
		}
		if (l == NULL) {
			l = line(p);
			wcells_pad(l, 1, WR_NORMAL);
		} else {
			wcells_add(l, sep, WR_DIM, 0);
		}
		wcells_add(l, segs[i], i == 0 ? WR_HEADER : WR_NORMAL, 0);
	}
}

/* What the cursor's column holds, in words: its span, then its open, high,
 * low and close, its GPUs, GPU-hours and trades, or the price carried. */
static void inspect_lines(const struct detail_chart *c, struct wpanel *p, int cols,
			  const struct detail_ohlc *o, int j, int w, int64_t from, int64_t to)
{
	const struct tui *t = c->t;
	char *segs[8];
	size_t n = 0;

	segs[n++] = column_span(c, j, w, from, to);
	if (!o->traded) {
		char *x = money(t, o->carried);
		/* TRANSLATORS: the chart's inspect line: a column without trades */
		segs[n++] = xstrdup(_("no trade"));
		segs[n++] = o->carried >= 0
				    /* TRANSLATORS: the chart's inspect line: the price carried */
				    ? xasprintf(_("last price %s carried"), x)
				    : xstrdup(_("no price yet"));
		free(x);
	} else {
		char *op = money(t, o->open), *hi = money(t, o->high), *lo = money(t, o->low);
		char *cl = money(t, o->close);
		/* TRANSLATORS: the chart's inspect line: the column's first trade price */
		segs[n++] = xasprintf(_("open %s"), op);
		/* TRANSLATORS: the chart's inspect line: the column's highest trade price */
		segs[n++] = xasprintf(_("high %s"), hi);
		/* TRANSLATORS: the chart's inspect line: the column's lowest trade price */
		segs[n++] = xasprintf(_("low %s"), lo);
		/* TRANSLATORS: the chart's inspect line: the column's last trade price */
		segs[n++] = xasprintf(_("close %s"), cl);
		free(op);
		free(hi);
		free(lo);
		free(cl);
		segs[n++] = xasprintf(P_("%lld GPU", "%lld GPUs", (unsigned long)o->gpus),
				      (long long)o->gpus);
		/* TRANSLATORS: the chart's inspect line: GPU-hours traded in the column */
		segs[n++] = xasprintf(_("%lld GPU-h"), (long long)o->gpu_hours);
		segs[n++] = xasprintf(P_("%lld trade", "%lld trades", (unsigned long)o->trades),
				      (long long)o->trades);
	}
	flow_segments(p, segs, n, cols - 2, t->ascii);
	for (size_t k = 0; k < n; k++)
		free(segs[k]);
}

static const char *const close_names[DR_COUNT] = {
	N_("Price, last hour (1 min)"), N_("Price, last 24 h (5 min)"), N_("Price, last 7 days (1 h)"),
};
static const char *const candle_names[DR_COUNT] = {
	N_("Candles, last hour (1 min)"), N_("Candles, last 24 h (5 min)"),
	N_("Candles, last 7 days (1 h)"),
};

static const char *chart_title(const struct detail_chart *c)
{
	return _(c->view == DCV_CANDLES ? candle_names[c->range] : close_names[c->range]);
}

/* The title: the view and range, and over the hour and the week the
 * range's own change (over 24 h the title row has the one 24 h figure). */
static void title_line(const struct detail_chart *c, struct wpanel *p, const int64_t *close,
		       int w, size_t have)
{
	const struct tui *t = c->t;
	struct wcells *l = line(p);
	int64_t bp;

	wcells_add(l, chart_title(c), WR_HEADER, WAT_BOLD);
	if (have > 0 && c->range != DR_24H && detail_change_bp(close, w, &bp)) {
		char *x = view_change_text(t->o->lang, t->ascii, bp);
		wcells_add(l, "  ", WR_NORMAL, 0);
		wcells_add(l, x, bp > 0 ? WR_GOOD : bp < 0 ? WR_BAD : WR_NORMAL, 0);
		free(x);
	}
}

/* Row r of the bars: the price label, then each column's glyph (the
 * cursor's reversed). Whether a column there carries a price. */
static bool bars_line(const struct detail_chart *c, struct wpanel *p, const struct detail_ohlc *o,
		      const int64_t *close, int w, int rows, int r, int64_t lo, int64_t hi)
{
	const struct tui *t = c->t;
	struct wcells *l = line(p);
	char *lab = r == 0 ? money(t, hi) : r == rows - 1 ? money(t, lo) : xstrdup("");
	bool quiet = false;

	add_right(l, lab, LABEL_W, WR_DIM);
	free(lab);
	wcells_add(l, " ", WR_NORMAL, 0);
	for (int j = 0; j < w; j++) {
		unsigned at = j == c->cursor ? WAT_REVERSE : 0;
		const char *g;
		enum wrole role = WR_NORMAL;

		if (c->view == DCV_CANDLES) {
			int dir = detail_candle_dir(&o[j]);
			g = detail_candle_cell(&o[j], lo, hi, rows, r, t->ascii);
			role = !o[j].traded ? WR_DIM : dir > 0 ? WR_GOOD : dir < 0 ? WR_BAD : WR_NORMAL;
		} else {
			g = detail_cell(close[j], lo, hi, rows, r, !o[j].traded, t->ascii);
			role = o[j].traded ? WR_NORMAL : WR_DIM;
		}
		wcells_add(l, g, role, at);
		quiet |= !o[j].traded && close[j] >= 0;
	}
	return quiet;
}

/* The axis, the zone's name in the labels' column. */
static void axis_line(const struct detail_chart *c, struct wpanel *p, int w, int64_t from,
		      int64_t to)
{
	struct wcells *l = line(p);
	char *zone = i18n_zone_name(to), *axis = chart_axis(c, w, from, to);

	add_right(l, zone, LABEL_W, WR_DIM);
	wcells_add(l, " ", WR_NORMAL, 0);
	wcells_add(l, axis, WR_DIM, 0);
	free(zone);
	free(axis);
}

/* Under the axis: the cursor's column in words, or the legend. */
static void legend_lines(const struct detail_chart *c, struct wpanel *p, int cols,
			 const struct detail_ohlc *o, int w, int64_t from, int64_t to, bool quiet)
{
	const struct tui *t = c->t;
	char *x;

	if (c->cursor >= 0) {
		inspect_lines(c, p, cols, &o[c->cursor], c->cursor, w, from, to);
		return;
	}
	if (c->view == DCV_CANDLES) {
		/* TRANSLATORS: the candle chart's legend: its wick │ (ASCII |) and body █ (ASCII #) */
		x = xasprintf(_("%s high to low, %s open to close"), t->ascii ? "|" : "\u2502",
			      t->ascii ? "#" : "\u2588");
		wpanel_text(p, x, WR_DIM, 1);
		free(x);
	}
	if (quiet) {
		/* TRANSLATORS: the chart's legend; %s is its line, ─ (ASCII -) */
		x = xasprintf(_("%s no trade in that interval: the last price, carried"),
			      t->ascii ? "-" : "\u2500");
		wpanel_text(p, x, WR_DIM, 1);
		free(x);
	}
}

void detail_chart_lines(struct detail_chart *c, struct wpanel *p, int cols, int rows)
{
	int64_t secs, lo, hi, *close, from, to;
	int limit, w = cols - LABEL_W - 3;
	struct api_candle *v;
	struct detail_ohlc *o;
	size_t n, have;
	bool quiet = false;

	if (c->candles == NULL || !c->have_before) {
		wcells_add(line(p), chart_title(c), WR_HEADER, WAT_BOLD);
		wpanel_text(p, c->error ? c->error : _("Waiting for the price history…"), WR_DIM, 1);
		return;
	}
	if (w < 8)
		w = 8;
	c->cols = w;
	if (c->cursor >= w)
		c->cursor = w - 1;
	detail_range_interval(c->range, &limit, &secs);
	to = c->candles->server_time > c->from_s ? c->candles->server_time : c->from_s + secs;
	from = to - secs;
	v = chart_candles(c, from, &n);
	o = xcalloc((size_t)w, sizeof *o);
	close = xcalloc((size_t)w, sizeof *close);
	have = detail_series(v, n, from, to, w, close, NULL);
	detail_ohlc_columns(v, n, from, to, w, o);
	free(v);
	title_line(c, p, close, w, have);
	if (have == 0) {
		wpanel_text(p, _("No trades in this range."), WR_DIM, 1);
	} else {
		if (c->view == DCV_CANDLES)
			detail_ohlc_range(o, w, &lo, &hi);
		else
			detail_series_range(close, w, &lo, &hi);
		for (int r = 0; r < rows; r++)
			quiet |= bars_line(c, p, o, close, w, rows, r, lo, hi);
		axis_line(c, p, w, from, to);
		legend_lines(c, p, cols, o, w, from, to, quiet);
	}
	free(o);
	free(close);
}
