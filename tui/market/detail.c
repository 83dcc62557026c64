/*
 * The detail screen of one GPU (Enter on a row of the tables; Esc back): a
 * page that covers the tables, made of text panels.
 *
 *   row 0    the GPU, its ask, bid, last trade and its 24 h change (the
 *            market table's one figure, as the tables and compare show it)
 *   specs    the catalogue's figures ("Not published" and "Not supported"
 *            kept apart) and the document they come from
 *   book     the depth ladder at the panel's full height: price, GPUs,
 *            GPU-hours its orders hold, orders (when the panel is wide
 *            enough) and cumulative GPUs per level, asks above the spread,
 *            bids below; the account's own resting orders marked (*)
 *            (from "yours" below, or as the orders page last listed them)
 *   chart    prices over the last hour, 24 h or 7 days, as bars of the
 *            close or as OHLC candles, a time axis of clock times and an
 *            inspect cursor (a part of its own: tui/market/detail_chart.c)
 *   fill     with a fit job: what it needs on this GPU and what filling
 *            that from the asks would cost now; b opens the order form
 *            for exactly that
 *   yours    with an account key: its open orders on this GPU and its
 *            active rentals of it (tui/market/detail_own.c)
 *   trades   the most recent trades
 *
 * ↓ j and ↑ k show the next and previous GPU of the tables (their sort and
 * filter; the tables' cursor follows, so Esc comes back to the row last
 * shown): the tables step their cursor and open the detail of the row they
 * come to, and tui_detail_open gives that GPU to the detail on top, which
 * keeps its chart's range, view and cursor and its book's node size.
 *
 * At 120 columns and more the specs, the book and the rest stand side by
 * side; narrower, the book stands left and the specs follow the trades.
 * The book and trades come from the feed's focus (tui/feed/focus.c:
 * streamed, or fetched while the stream is not live); the chart asks for
 * its own candles.
 */
#include "tui/market/detail.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "tui/market/browse.h"
#include "tui/market/detail_chart.h"
#include "tui/market/detail_lots.h"
#include "tui/market/detail_own.h"
#include "util/util.h"

enum { WIDE_COLS = 120, CHART_MIN_ROWS = 3 };

enum { DK_BACK = 1, DK_BUY, DK_SELL, DK_NODES, DK_ALERT, DK_NEXT_GPU, DK_PREV_GPU };

static const struct wbinding bindings[] = {
	{ WKEY_ESC, DK_BACK, N_("Back to the tables"), N_("Back"), "back" },
	{ 'b', DK_BUY, N_("Buy: the order form (for the fit job: exactly what it needs)"), NULL,
	  "buy" },
	{ WKEY_F5, DK_BUY, N_("Buy: the order form (for the fit job: exactly what it needs)"),
	  N_("Buy"), "buy" },
	{ 's', DK_SELL, N_("Sell this GPU (seller accounts)"), NULL, "sell" },
	{ 'n', DK_NODES, N_("Book by node size: the plain book, then what serves units of 8, 4, 2, 1 GPUs inside one machine, and the machines they come from"), N_("Nodes"), "nodes" },
	{ 'A', DK_ALERT, N_("An alert on this GPU, kept by the exchange (at its best ask)"),
	  N_("Alert"), "alert" },
	{ WKEY_DOWN, DK_NEXT_GPU, N_("The next GPU of the table, in the same range and view"), NULL,
	  "next-gpu" },
	{ 'j', DK_NEXT_GPU, N_("The next GPU of the table, in the same range and view"), NULL,
	  "next-gpu" },
	{ WKEY_UP, DK_PREV_GPU, N_("The previous GPU of the table, in the same range and view"), NULL,
	  "prev-gpu" },
	{ 'k', DK_PREV_GPU, N_("The previous GPU of the table, in the same range and view"), NULL,
	  "prev-gpu" },
};

struct detail {
	struct tui_screen base;
	char *gpu;
	const struct catalog_gpu *g;
	int job_gpus, job_hours;    /* what the fit job needs here; 0: no job */
	int job_fits;               /* as fit_result.fits */
	struct wpanel *head, *specs, *book, *side; /* its widgets */
	struct detail_chart chart;  /* its range, candles, view and cursor */
	uint64_t seen_chart;
	uint64_t seen_focus, seen_market;
	bool wide, dirty;
	bool book_orders;           /* the ladder has room for the orders column */
	bool book_cum, book_gh;     /* ... for the cumulative GPUs, the GPU-hours */
	int book_rows, chart_cols, chart_rows;
	int spec_w;                 /* the spec sheet's labels' column */
	struct detail_lots lots;    /* the ladder by node size and its machines */
	uint64_t seen_lots;
	struct detail_own own;      /* the user's open orders and active rentals here */
	uint64_t seen_own;
	int job_node_gpus;          /* the fit job's machines here (0: none needed) */
	const char *job_link;
};

static struct detail *of(struct tui_screen *s)
{
	return (struct detail *)s;
}

static char *money(const struct tui *t, int64_t cents)
{
	if (cents < 0)
		return xstrdup("\u2014");
	return i18n_fmt_money(t->o->lang, cents, "USD");
}

/* A new line of panel p, one blank column first (the panels stand side by side). */
static struct wcells *row(struct wpanel *p)
{
	struct wcells *c = wpanel_add(p);

	wcells_pad(c, 1, WR_NORMAL);
	return c;
}

static void add(struct wcells *c, const char *text, enum wrole role)
{
	wcells_add(c, text, role, 0);
}

/* text padded (right-aligned when right) to w columns. */
static void add_col(struct wcells *c, const char *text, int w, bool right, enum wrole role)
{
	struct wcells x;

	wcells_init(&x, c->ascii);
	wcells_add(&x, text, role, 0);
	if (right)
		wcells_pad(c, 1, role); /* a blank between columns, always */
	if (x.width < w && right)
		wcells_pad(c, w - x.width, role);
	wcells_cat(c, &x);
	if (x.width < w && !right)
		wcells_pad(c, w - x.width, role);
	if (!right)
		wcells_pad(c, 1, role);
	wcells_free(&x);
}

static void title(struct wpanel *p, const char *text)
{
	wcells_add(row(p), text, WR_HEADER, WAT_BOLD);
}

/* ---- the header ---------------------------------------------------------------------------- */

/* The 24 h change as the tables show it, coloured: the market table's one
 * figure (tui_market_change), never this screen's own. */
static void change_text(const struct detail *d, struct wcells *c)
{
	const struct tui *t = d->base.t;
	int64_t bp;
	char *pct, *x;

	if (!tui_market_change(t, d->gpu, &bp))
		return;
	pct = view_change_text(t->o->lang, t->ascii, bp);
	/* TRANSLATORS: the detail screen's title: the 24 h change, "▲ +1.23 % (24 h)" */
	x = xasprintf(_("%s (24 h)"), pct);
	add(c, "  ", WR_NORMAL);
	add(c, x, bp > 0 ? WR_GOOD : bp < 0 ? WR_BAD : WR_NORMAL);
	free(x);
	free(pct);
}

/* text's parts between " · " after c, each whole or not at all once the
 * first is there (the first may be cut at the width). */
static void add_segments(struct wcells *c, const char *text, int w, enum wrole role)
{
	const char *sep = " \u00b7 ", *p = text;
	size_t sl = strlen(sep);

	for (bool first = true; p != NULL; first = false) {
		const char *e = strstr(p, sep);
		char *seg = e != NULL ? xstrndup(p, (size_t)(e - p)) : xstrdup(p);
		int sw = wtext_width(seg, c->ascii) + (first ? 0 : wtext_width(sep, c->ascii));

		if (!first && c->width + sw > w) {
			free(seg);
			break;
		}
		if (!first)
			add(c, sep, role);
		add(c, seg, role);
		free(seg);
		p = e != NULL ? e + sl : NULL;
	}
}

static void build_head(struct detail *d)
{
	struct tui *t = d->base.t;
	const struct api_quote *q = tui_market_quote(t, d->gpu);
	struct wcells *c;
	char *a, *b, *l, *x;

	struct wcells chg;
	char *maker;
	int w = d->head->base.w;

	wpanel_begin(d->head);
	c = row(d->head);
	wcells_add(c, d->g->name, WR_HEADER, WAT_BOLD);
	maker = xasprintf(" %s %s  ", d->g->vendor, d->g->arch);
	a = money(t, q ? q->best_ask_cents : -1);
	b = money(t, q ? q->best_bid_cents : -1);
	l = money(t, q ? q->last_cents : -1);
	/* TRANSLATORS: the detail screen's first row: best ask, best bid, last trade */
	x = xasprintf(_("ask %s · bid %s · last %s"), a, b, l);
	wcells_init(&chg, t->ascii);
	change_text(d, &chg);
	/* what the width cannot take goes whole, the maker first, then the
	 * change: a price is never cut */
	if (c->width + wtext_width(maker, t->ascii) + wtext_width(x, t->ascii) + chg.width <= w)
		add(c, maker, WR_DIM);
	else
		add(c, "  ", WR_NORMAL);
	add_segments(c, x, w, t->m.stale ? WR_DIM : WR_NORMAL);
	if (c->width + chg.width <= w)
		wcells_cat(c, &chg);
	wcells_free(&chg);
	free(maker);
	free(x);
	free(a);
	free(b);
	free(l);
	wpanel_commit(d->head);
}

/* ---- the spec sheet ------------------------------------------------------------------------- */

/* The labels of the spec sheet (msgids; the precisions are not translated). */
static const char *const spec_labels[] = {
	N_("Memory"), N_("Memory type"), N_("Bandwidth"), N_("Interconnect"), N_("Link speed"),
	N_("Form factor"), N_("Board power"),
};

/* The labels' column: as wide as the widest in the language, so every
 * figure starts in one column. */
static int spec_label_w(const struct detail *d)
{
	int w = 4; /* "BF16", "INT8", "ECC" */

	for (size_t i = 0; i < sizeof spec_labels / sizeof spec_labels[0]; i++) {
		int lw = wtext_width(_(spec_labels[i]), d->base.t->ascii);
		if (lw > w)
			w = lw;
	}
	return w;
}

static void spec_line(struct detail *d, struct wpanel *p, const char *label, double v,
		      int decimals, const char *unit)
{
	struct tui *t = d->base.t;
	struct wcells *c = row(p);
	char *x;

	add_col(c, label, d->spec_w, false, WR_DIM);
	if (isnan(v)) {
		add(c, _("Not published"), WR_DIM);
		return;
	}
	if (!catalog_supported(v)) {
		add(c, _("Not supported"), WR_DIM);
		return;
	}
	x = i18n_fmt_unit(t->o->lang, v, decimals, unit);
	add(c, x, WR_NORMAL);
	free(x);
}

static void spec_text(struct detail *d, struct wpanel *p, const char *label, const char *v)
{
	struct wcells *c = row(p);

	add_col(c, label, d->spec_w, false, WR_DIM);
	add(c, v != NULL ? v : _("Not published"), v != NULL ? WR_NORMAL : WR_DIM);
}

static void build_specs(struct detail *d, struct wpanel *p)
{
	const struct catalog_gpu *g = d->g;
	char *x;

	d->spec_w = spec_label_w(d);
	title(p, _("Specifications"));
	spec_line(d, p, _("Memory"), g->memory_gb, 0, "GB");
	spec_text(d, p, _("Memory type"), g->memory_type);
	spec_line(d, p, _("Bandwidth"), g->bandwidth_gbs, 0, "GB/s");
	spec_line(d, p, "BF16", g->bf16_tflops, 0, "TFLOPS");
	spec_line(d, p, "FP8", g->fp8_tflops, 0, "TFLOPS");
	spec_line(d, p, "FP16", g->fp16_tflops, 0, "TFLOPS");
	spec_line(d, p, "FP32", g->fp32_tflops, 1, "TFLOPS");
	spec_line(d, p, "FP64", g->fp64_tflops, 1, "TFLOPS");
	spec_line(d, p, "INT8", g->int8_tops, 0, "TOPS");
	spec_text(d, p, _("Interconnect"), g->interconnect);
	spec_line(d, p, _("Link speed"), g->interconnect_gbs, 0, "GB/s");
	spec_text(d, p, _("Form factor"), g->form_factor);
	spec_line(d, p, _("Board power"), g->tdp_w, 0, "W");
	spec_text(d, p, "ECC", g->ecc ? _("Yes") : _("No"));
	/* TRANSLATORS: where the figures above come from: %s is a document and its URL */
	x = xasprintf(_("Figures: %s"), g->source != NULL ? g->source : _("Not published"));
	wpanel_text(p, x, WR_DIM, 1);
	free(x);
	if (g->notes != NULL)
		wpanel_text(p, _(g->notes), WR_DIM, 1); /* marked in data/labels.c */
	wpanel_text(p, _("Prices: the exchange's book and trades; the fit answer: gpux's estimate."),
		    WR_DIM, 1);
}

/* ---- the book -------------------------------------------------------------------------------- */

static bool rests_at(const struct api_orders *o, const char *gpu, enum api_side side,
		     int64_t price)
{
	for (size_t i = 0; o != NULL && i < o->n; i++)
		if (o->v[i].side == side && o->v[i].price_cents == price &&
		    strcmp(o->v[i].gpu, gpu) == 0 && o->v[i].remaining_gpus > 0 &&
		    o->v[i].status != API_ORDER_WAITING)
			return true;
	return false;
}

/* Whether one of the user's orders rests at that level: as this screen's
 * "yours here" or the orders page last listed them. */
static bool own_level(const struct detail *d, enum api_side side, int64_t price)
{
	return rests_at(d->own.orders, d->gpu, side, price) ||
	       rests_at(d->base.t->account.open, d->gpu, side, price);
}

/* The ladder's columns for a book of w columns: the price and the GPUs
 * always; the cumulative GPUs, then the GPU-hours, then the orders only
 * where they fit whole (a figure is never cut). */
static void book_columns(struct detail *d, int w, bool orders_room)
{
	int need = 1 + 11 + 7;

	d->book_cum = w >= need + 10;
	need += d->book_cum ? 10 : 0;
	d->book_gh = d->book_cum && w >= need + 9;
	need += d->book_gh ? 9 : 0;
	d->book_orders = orders_room && d->book_gh && w >= need + 8;
}

/* The width the spread's line is right-aligned to: the ladder's. */
static int spread_w(const struct detail *d)
{
	return 18 + (d->book_cum ? 10 : 0) + (d->book_gh ? 9 : 0) + (d->book_orders ? 8 : 0);
}

/* One level of the ladder; whether one of the user's orders rests there. */
static bool level_line(struct detail *d, struct wpanel *p, const struct api_level *l,
		       int64_t cum, enum api_side side)
{
	struct tui *t = d->base.t;
	struct wcells *c = row(p);
	char *price = money(t, l->price_cents);
	char *g = i18n_fmt_number(t->o->lang, (double)l->gpus, 0);
	char *o = i18n_fmt_number(t->o->lang, (double)l->orders, 0);
	char *cu = i18n_fmt_number(t->o->lang, (double)cum, 0);
	char *gh = l->gpu_hours >= 0 ? i18n_fmt_number(t->o->lang, (double)l->gpu_hours, 0)
				     : xstrdup(t->ascii ? "..." : "…");
	bool own = own_level(d, side, l->price_cents);

	add(c, own ? "*" : " ", WR_GOOD);
	add_col(c, price, 10, true, side == API_SELL ? WR_BAD : WR_GOOD);
	add_col(c, g, 6, true, WR_NORMAL);
	if (d->book_gh)
		add_col(c, gh, 8, true, l->gpu_hours >= 0 ? WR_NORMAL : WR_DIM);
	if (d->book_orders)
		add_col(c, o, 7, true, WR_DIM);
	if (d->book_cum)
		add_col(c, cu, 9, true, WR_NORMAL);
	free(price);
	free(g);
	free(o);
	free(cu);
	free(gh);
	return own;
}

/* The ladder the book panel shows: the focus's plain book, or the one by
 * node size of the toggle. */
struct ladder {
	const struct api_level *asks, *bids;
	size_t n_asks, n_bids;
	bool have;
};

static struct ladder shown_ladder(const struct detail *d)
{
	const struct tui_focus *f = d->base.t->m.focus;
	const struct api_book *b = d->lots.ladder;

	if (d->lots.node_gpus > 0)
		return b != NULL ? (struct ladder){ b->asks, b->bids, b->n_asks, b->n_bids, true }
				 : (struct ladder){ 0 };
	if (f == NULL || !f->have_book)
		return (struct ladder){ 0 };
	return (struct ladder){ f->asks, f->bids, f->n_asks, f->n_bids, true };
}

static void build_book(struct detail *d, struct wpanel *p, int rows)
{
	struct tui *t = d->base.t;
	const struct ladder lad = shown_ladder(d), *f = &lad;
	struct wcells *c;
	int levels = rows - 3, n_a, n_b;
	bool any_own = false;

	if (d->lots.node_gpus > 0) {
		/* TRANSLATORS: the detail's book by node size: what serves units of N GPUs inside one machine */
		char *k = tui_key_label(t, "nodes");
		/* TRANSLATORS: %1$d GPUs a node; %2$s the key to the next node size (n unless rebound) */
		char *x = xasprintf(_("Book: nodes of %1$d GPUs (%2$s: next)"), d->lots.node_gpus, k);
		free(k);
		title(p, x);
		free(x);
		rows -= 1;
		levels -= 1;
	} else {
		title(p, _("Book"));
	}
	c = row(p);
	add(c, " ", WR_HEADER);
	add_col(c, _("Price/h"), 10, true, WR_HEADER);
	add_col(c, _("GPUs"), 6, true, WR_HEADER);
	/* TRANSLATORS: ladder header: GPU-hours the level's orders hold (≤ 8 columns) */
	if (d->book_gh)
		add_col(c, _("GPU-h"), 8, true, WR_HEADER);
	if (d->book_orders)
		add_col(c, _("Orders"), 7, true, WR_HEADER);
	if (d->book_cum)
		add_col(c, _("Cum. GPUs"), 9, true, WR_HEADER);
	if (!f->have) {
		wpanel_text(p, d->lots.node_gpus > 0 && d->lots.error != NULL ? d->lots.error
						      : _("Waiting for the book…"),
			    WR_DIM, 1);
		return;
	}
	if (levels < 2)
		levels = 2;
	n_a = (int)f->n_asks < (levels + 1) / 2 ? (int)f->n_asks : (levels + 1) / 2;
	n_b = (int)f->n_bids < levels - n_a ? (int)f->n_bids : levels - n_a;
	if (n_a < (levels + 1) / 2 && (int)f->n_asks > n_a)
		n_a = (int)f->n_asks < levels - n_b ? (int)f->n_asks : levels - n_b;
	else if (n_a + n_b < levels)
		n_a = (int)f->n_asks < levels - n_b ? (int)f->n_asks : levels - n_b;
	/* asks: the worst shown at the top, the best just above the spread */
	int64_t cum = 0, cums[512];
	for (int i = 0; i < n_a && i < 512; i++)
		cums[i] = cum += f->asks[i].gpus;
	for (int i = n_a - 1; i >= 0; i--)
		any_own |= level_line(d, p, &f->asks[i], cums[i], API_SELL);
	c = row(p);
	if (f->n_asks > 0 && f->n_bids > 0) {
		char *s = money(t, f->asks[0].price_cents - f->bids[0].price_cents);
		char *x = xasprintf(_("spread %s"), s);
		add_col(c, x, spread_w(d), true, WR_DIM);
		free(x);
		free(s);
	} else {
		add_col(c, f->n_asks == 0 ? _("no asks") : _("no bids"), spread_w(d), true, WR_DIM);
	}
	cum = 0;
	for (int i = 0; i < n_b; i++) {
		cum += f->bids[i].gpus;
		any_own |= level_line(d, p, &f->bids[i], cum, API_BUY);
	}
	/* the legend of "*" only when a level shown carries it */
	if (any_own)
		wpanel_text(p, _("* your resting order"), WR_DIM, 1);
	if (d->lots.node_gpus > 0 && f->n_asks == 0)
		wpanel_text(p, _("No machine on the book serves these units now."), WR_DIM, 1);
}

/* ---- the fit job's order, and the trades --------------------------------------------------------- */

static void build_fill(struct detail *d, struct wpanel *p)
{
	struct tui *t = d->base.t;
	const struct tui_focus *f = t->m.focus;
	struct tui_fill fill;
	char *x, *avg, *tot;

	const struct api_book *jl = d->lots.job_ladder;

	if (d->job_gpus <= 0)
		return;
	title(p, _("Your job here"));
	/* TRANSLATORS: what the fit job needs on this GPU: GPUs × hours */
	x = xasprintf(_("needs %d GPUs × %d h (%s)"), d->job_gpus, d->job_hours,
		      d->job_fits > 0 ? _("fits") : d->job_fits == 0 ? _("does not fit as set")
							      : _("fit unknown"));
	wpanel_text(p, x, WR_NORMAL, 1);
	free(x);
	if (d->job_node_gpus > 1) {
		/* its machines: filled from what serves them, not from loose GPUs */
		x = xasprintf(P_("as %d node of %d GPUs inside one machine (%s)",
				 "as %d nodes of %d GPUs inside one machine each (%s)",
				 (unsigned long)(d->job_gpus / d->job_node_gpus)),
			      d->job_gpus / d->job_node_gpus, d->job_node_gpus,
			      view_link_text(t->o->lang, d->job_link));
		wpanel_text(p, x, WR_NORMAL, 1);
		free(x);
		if (jl == NULL)
			return;
		detail_fill(jl->asks, jl->n_asks, d->job_gpus, d->job_hours, &fill);
	} else {
		if (f == NULL || !f->have_book)
			return;
		detail_fill(f->asks, f->n_asks, d->job_gpus, d->job_hours, &fill);
	}
	avg = money(t, fill.avg_cents);
	tot = money(t, fill.total_cents);
	if (fill.complete)
		/* TRANSLATORS: filling the order from the asks: levels, average price, total */
		x = xasprintf(P_("from the asks now: %zu level, average %s per GPU-hour, total %s "
				 "before tax; b orders it",
				 "from the asks now: %zu levels, average %s per GPU-hour, total %s "
				 "before tax; b orders it", (unsigned long)fill.levels),
			      fill.levels, avg, tot);
	else if (d->job_node_gpus > 1)
		x = xasprintf(_("the book serves only %lld of %d GPUs in such machines (total %s "
				"before tax)"), (long long)fill.gpus, d->job_gpus, tot);
	else
		x = xasprintf(_("the asks offer only %lld of %d GPUs (total %s before tax)"),
			      (long long)fill.gpus, d->job_gpus, tot);
	wpanel_text(p, x, fill.complete ? WR_NORMAL : WR_BAD, 1);
	free(x);
	free(avg);
	free(tot);
}

static void build_trades(struct detail *d, struct wpanel *p, int rows)
{
	struct tui *t = d->base.t;
	const struct tui_focus *f = t->m.focus;

	/* TRANSLATORS: the detail screen's list of trades; its times are the
	 * exchange clock's, in UTC */
	title(p, _("Recent trades (UTC)"));
	if (f == NULL || !f->have_trades) {
		wpanel_text(p, _("Waiting for trades…"), WR_DIM, 1);
		return;
	}
	if (f->n_trades == 0)
		wpanel_text(p, _("No trades yet."), WR_DIM, 1);
	for (int i = 0; i < rows && (size_t)i < f->n_trades; i++) {
		const struct api_trade *tr = &f->trades[i];
		struct wcells *c = row(p);
		char *when = i18n_fmt_date(t->o->lang, tr->at, I18N_UTC | I18N_SHORT);
		char *price = money(t, tr->price_cents), *x;

		add_col(c, when, 15, false, WR_DIM);
		free(when);
		add_col(c, price, 10, true, tr->taker_side == API_BUY ? WR_GOOD : WR_BAD);
		x = xasprintf(" %lld \u00d7 %lld h %s", (long long)tr->gpus, (long long)tr->hours,
			      tr->taker_side == API_BUY ? wsym(WSYM_ARROW_UP, t->ascii)
							: wsym(WSYM_ARROW_DOWN, t->ascii));
		add(c, x, WR_NORMAL);
		free(x);
		free(price);
	}
}

/* ---- building it all ------------------------------------------------------------------------------- */

static void rebuild(struct detail *d)
{
	struct tui *t = d->base.t;
	struct wpanel *side = d->side;
	int h = side->base.h;

	d->dirty = false;
	build_head(d);
	if (d->wide) {
		wpanel_begin(d->specs);
		build_specs(d, d->specs);
		wpanel_commit(d->specs);
	}
	wpanel_begin(d->book);
	build_book(d, d->book, d->book_rows);
	wpanel_commit(d->book);
	wpanel_begin(side);
	detail_chart_lines(&d->chart, side, side->base.w, d->chart_rows);
	row(side);
	build_fill(d, side);
	if (d->job_gpus > 0)
		row(side);
	if (detail_own_shown(&d->own)) {
		detail_own_lines(&d->own, side, d->wide ? 4 : 2);
		row(side);
	}
	if (d->lots.node_gpus > 0) {
		detail_lots_lines(&d->lots, side, h - (int)side->n_next - 4);
		row(side);
	}
	int used = (int)side->n_next;
	build_trades(d, side, h - used - 1 > 3 ? (d->wide ? h - used - 1 : 5) : 3);
	if (!d->wide) {
		row(side);
		build_specs(d, side);
	}
	wpanel_commit(side);
	(void)t;
}

/* ---- the screen --------------------------------------------------------------------------------------- */

static void scr_tick(struct tui_screen *s, int64_t now, int64_t *next)
{
	struct detail *d = of(s);

	detail_lots_tick(&d->lots, now, next);
	detail_own_tick(&d->own, now, next);
	detail_chart_tick(&d->chart, now, next);
}

static void scr_recalc(struct tui_screen *s, int64_t now)
{
	struct detail *d = of(s);
	const struct tui_focus *f = s->t->m.focus;
	uint64_t fg = f != NULL ? f->gen : 0;

	(void)now;
	if (fg != d->seen_focus || s->t->m.gen != d->seen_market || d->lots.gen != d->seen_lots ||
	    d->own.gen != d->seen_own || d->chart.gen != d->seen_chart)
		d->dirty = true;
	d->seen_lots = d->lots.gen;
	d->seen_chart = d->chart.gen;
	d->seen_own = d->own.gen;
	d->seen_focus = fg;
	d->seen_market = s->t->m.gen;
	if (d->dirty && s->shown)
		rebuild(d);
}

static void scr_layout(struct tui_screen *s, struct tui_area *body)
{
	struct detail *d = of(s);
	struct tui *t = s->t;
	int y = body->y, h = body->h, w = t->cols, specs_w = 0, book_w = 48, side_x;

	if (h < 1) {
		s->shown = false;
		return;
	}
	d->wide = w >= WIDE_COLS;
	if (d->wide)
		specs_w = w * 3 / 10;
	/* the orders column where the chart keeps its room: 96 columns and
	 * more without the specs beside, 160 with them */
	d->book_orders = d->wide ? w >= 160 : w >= 96;
	if (!d->book_orders)
		book_w = 40;
	if (book_w > w / 2)
		book_w = w / 2;
	if (w < 40)
		book_w = w; /* the ladder alone: half of it would show no figure whole */
	book_columns(d, book_w, d->book_orders);
	wwidget_place(&d->head->base, 0, 0, 1, w);
	if (d->wide)
		wwidget_place(&d->specs->base, y, 0, h, specs_w);
	else
		wwidget_hide(&d->specs->base);
	wwidget_place(&d->book->base, y, specs_w, h, book_w);
	side_x = specs_w + book_w;
	wwidget_place(&d->side->base, y, side_x, h, w - side_x);
	d->book_rows = h;
	d->chart_rows = h / 3 > CHART_MIN_ROWS ? h / 3 : CHART_MIN_ROWS;
	d->dirty = true;
	rebuild(d);
	body->h = 0;
}

static unsigned scr_act(struct tui_screen *s, size_t map, int action, wkey key, const char *arg)
{
	struct detail *d = of(s);
	struct tui *t = s->t;

	(void)key;
	(void)arg;
	if (map == 1)
		return detail_chart_act(&d->chart, action);
	switch (action) {
	case DK_BACK:
		/* Esc hides the chart's cursor first */
		if (detail_chart_escape(&d->chart))
			break;
		return W_HANDLED | W_CLOSE | W_REDRAW;
	/* the order form goes over this screen: Esc comes back here */
	case DK_BUY:
		tui_open(t, TUI_ORDER_FORM, &(struct tui_goto){ .gpu = d->gpu, .gpus = d->job_gpus,
								 .hours = d->job_hours,
								 .node_gpus = d->job_node_gpus,
								 .interconnect = d->job_link });
		break;
	case DK_NODES: detail_lots_toggle(&d->lots); break;
	case DK_SELL: tui_open(t, TUI_ORDER_FORM, &(struct tui_goto){ .gpu = d->gpu, .sell = true }); break;
	case DK_ALERT: tui_open(t, TUI_ALERTS, &(struct tui_goto){ .gpu = d->gpu }); break;
	/* the tables move their cursor and open the detail of the row they
	 * come to, which is this screen again (tui_detail_open) */
	case DK_NEXT_GPU: tui_open(t, TUI_TABLE_STEP, &(struct tui_goto){ .gpu = d->gpu, .step = 1 }); break;
	case DK_PREV_GPU: tui_open(t, TUI_TABLE_STEP, &(struct tui_goto){ .gpu = d->gpu, .step = -1 }); break;
	default: return W_IGNORED;
	}
	return W_HANDLED | W_REDRAW;
}

static unsigned scr_event(struct tui_screen *s, const struct wevent *ev)
{
	return tui_screen_dispatch(s, ev);
}

static void scr_notify(struct tui_screen *s, unsigned what)
{
	if (what & TN_LANG)
		of(s)->dirty = true;
}

static void scr_free(struct tui_screen *s)
{
	struct detail *d = of(s);
	struct tui *t = s->t;

	tui_focus_set(t, NULL);
	detail_lots_free(&d->lots);
	detail_own_free(&d->own);
	detail_chart_free(&d->chart);
	free(d->gpu);
}

static const struct tui_keymap keys[] = {
	{ N_("GPU detail"), bindings, sizeof bindings / sizeof bindings[0] },
	{ N_("GPU detail: the chart"), detail_chart_bindings, DETAIL_CHART_N_BINDINGS },
};

const struct tui_screen_class tui_detail_class = {
	.name = "detail", .flags = TS_OPAQUE, .layout = scr_layout, .recalc = scr_recalc,
	.event = scr_event, .tick = scr_tick, .notify = scr_notify, .act = scr_act,
	.free = scr_free, .keys = keys, .n_keys = 2,
};

static struct wpanel *panel(struct detail *d)
{
	return (struct wpanel *)tui_screen_add(&d->base, &wpanel_new(&d->base.t->ui)->base);
}

/* The GPU d shows and what the fit job needs there (go), its parts asked
 * afresh; the chart's range and the book's node size are kept. */
static void show_gpu(struct detail *d, const struct catalog_gpu *g, const struct tui_goto *go)
{
	struct tui *t = d->base.t;
	int node_toggle = d->lots.t != NULL ? d->lots.node_gpus : 0;

	if (d->lots.t != NULL)
		detail_lots_free(&d->lots);
	if (d->own.t != NULL)
		detail_own_free(&d->own);
	char *id = xstrdup(go->gpu); /* go->gpu may be d->gpu */
	free(d->gpu);
	d->gpu = id;
	d->g = g;
	d->job_gpus = go->gpus;
	/* what b on the tables would order for the same job (browse_order_size) */
	d->job_hours = go->gpus > 0 && go->hours <= 0 ? TUI_JOB_HOURS : go->hours;
	d->job_fits = go->fits;
	d->job_node_gpus = go->gpus > 0 && go->node_gpus > 1 ? go->node_gpus : 0;
	d->job_link = d->job_node_gpus > 0 ? go->interconnect : NULL;
	detail_lots_init(&d->lots, t, d->gpu, d->job_node_gpus, d->job_link, d->job_gpus,
			 d->job_hours);
	if (node_toggle != 0)
		detail_lots_show(&d->lots, node_toggle); /* the same node size as before */
	detail_own_init(&d->own, t, d->gpu);
	if (d->chart.t != NULL)
		detail_chart_set_gpu(&d->chart, d->gpu); /* the same range, view and cursor */
	else
		detail_chart_init(&d->chart, t, d->gpu);
	d->seen_market = t->m.gen - 1;
	d->dirty = true;
	tui_focus_set(t, d->gpu);
}

void tui_detail_open(struct tui *t, const struct tui_goto *go)
{
	const struct catalog_gpu *g = go->gpu != NULL ? catalog_gpu(t->cat, go->gpu) : NULL;
	struct tui_screen *old = tui_find(t, &tui_detail_class);
	struct detail *d;

	if (g == NULL)
		return;
	if (old != NULL && old == tui_top(t)) {
		/* the next or previous GPU, or another one named: the same screen */
		show_gpu(of(old), g, go);
		tui_relayout(t);
		return;
	}
	d = xcalloc(1, sizeof *d);
	tui_screen_init(&d->base, &tui_detail_class, t);
	struct tui_goto mine = *go;
	mine.gpu = d->gpu = xstrdup(go->gpu); /* go->gpu may be the old one's */
	if (old != NULL)
		tui_remove(t, old);
	show_gpu(d, g, &mine);
	d->head = panel(d);
	d->specs = panel(d);
	d->book = panel(d);
	d->side = panel(d);
	tui_push(t, &d->base);
	tui_relayout(t);
}
