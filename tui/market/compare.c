/*
 * The compare screen (= on the tables with 2 to 4 GPUs marked; Esc back):
 * the marked GPUs side by side, one column each, in the order they were
 * marked; a page that covers the tables.
 *
 *   prices   ask, bid, spread, last trade, the 24 h change (▲/▼ and a
 *            sign) and the 24 h sparkline
 *   job      with a fit job set: memory per GPU, whether it fits, GPUs
 *            needed, what the job costs per hour at the ask, and for a
 *            training run its time and its cost (for inference the decode
 *            speed)
 *   specs    memory, bandwidth, tensor and vector throughput, the link,
 *            power, ECC ("Not published" and "Not supported" kept apart)
 *
 * What decides first comes first; the GPUs' names stay on top while the
 * rest scrolls (↑/↓, PgUp/PgDn) when the terminal is short. One GPU is
 * selected (its name in the cursor's colours; ←/→ choose; at first the
 * cheapest for the job, else the lowest ask): b buys it — for the job,
 * exactly what the job needs there —, s sells it, Enter shows its detail.
 *
 * Every figure is a cell of a view/ table of just these GPUs (its columns
 * made here, the market and job columns view/'s own), formatted exactly as
 * the tables format it; the table is made again when the prices, the
 * history or the job change. The lowest ask and the lowest job cost are
 * marked (WR_GOOD and "<" after them, for monochrome terminals).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "tui/market/browse.h"
#include "util/util.h"

enum { LABEL_W = 18, COL_MAX = 26, COMPARE_MAX = 4 };

enum { CK_BACK = 1, CK_UP, CK_DOWN, CK_PGUP, CK_PGDN, CK_LEFT, CK_RIGHT, CK_BUY, CK_SELL,
       CK_DETAIL };

static const struct wbinding bindings[] = {
	{ WKEY_ESC, CK_BACK, N_("Back to the tables"), N_("Back"), "back" },
	{ WKEY_UP, CK_UP, N_("Scroll up"), NULL, "up" },
	{ 'k', CK_UP, N_("Scroll up"), NULL, "up" },
	{ WKEY_DOWN, CK_DOWN, N_("Scroll down"), NULL, "down" },
	{ 'j', CK_DOWN, N_("Scroll down"), NULL, "down" },
	{ WKEY_PGUP, CK_PGUP, N_("Page up"), NULL, "page-up" },
	{ WKEY_PGDN, CK_PGDN, N_("Page down"), NULL, "page-down" },
	{ WKEY_LEFT, CK_LEFT, N_("Select the GPU to the left"), NULL, "left" },
	{ 'h', CK_LEFT, N_("Select the GPU to the left"), NULL, "left" },
	{ WKEY_RIGHT, CK_RIGHT, N_("Select the GPU to the right"), NULL, "right" },
	{ 'l', CK_RIGHT, N_("Select the GPU to the right"), NULL, "right" },
	{ 'b', CK_BUY, N_("Buy the selected GPU: the order form (for the fit job: what it needs there)"),
	  NULL, "buy" },
	{ WKEY_F5, CK_BUY, N_("Buy the selected GPU: the order form (for the fit job: what it needs there)"),
	  N_("Buy"), "buy" },
	{ 's', CK_SELL, N_("Sell the selected GPU (seller accounts)"), NULL, "sell" },
	{ WKEY_RETURN, CK_DETAIL, N_("The selected GPU in detail"), NULL, "detail" },
};

/* The figures compared (the tables' own columns and labels). */
static const struct catalog_column spec_columns[] = {
	{ .id = "gpu", .label = N_("GPU"), .kind = CATALOG_COL_GPU },
	{ .id = "memory", .label = N_("Memory"), .kind = CATALOG_COL_FIELD,
	  .field = CATALOG_F_MEMORY_GB, .unit = CATALOG_UNIT_GB },
	{ .id = "memory_type", .label = N_("Memory type"), .kind = CATALOG_COL_FIELD,
	  .field = CATALOG_F_MEMORY_TYPE },
	{ .id = "bandwidth", .label = N_("Bandwidth"), .kind = CATALOG_COL_FIELD,
	  .field = CATALOG_F_BANDWIDTH_GBS, .unit = CATALOG_UNIT_GBS },
	{ .id = "bf16", .label = N_("Tensor BF16"), .kind = CATALOG_COL_FIELD,
	  .field = CATALOG_F_BF16_TFLOPS, .unit = CATALOG_UNIT_TFLOPS },
	{ .id = "fp8", .label = N_("Tensor FP8"), .kind = CATALOG_COL_FIELD,
	  .field = CATALOG_F_FP8_TFLOPS, .unit = CATALOG_UNIT_TFLOPS },
	{ .id = "fp32", .label = N_("FP32"), .kind = CATALOG_COL_FIELD,
	  .field = CATALOG_F_FP32_TFLOPS, .unit = CATALOG_UNIT_TFLOPS, .decimals = 1 },
	{ .id = "fp64", .label = N_("FP64"), .kind = CATALOG_COL_FIELD,
	  .field = CATALOG_F_FP64_TFLOPS, .unit = CATALOG_UNIT_TFLOPS, .decimals = 1 },
	{ .id = "interconnect", .label = N_("GPU-GPU link"), .kind = CATALOG_COL_FIELD,
	  .field = CATALOG_F_INTERCONNECT },
	{ .id = "interconnect_bw", .label = N_("Link bandwidth"), .kind = CATALOG_COL_FIELD,
	  .field = CATALOG_F_INTERCONNECT_GBS, .unit = CATALOG_UNIT_GBS },
	{ .id = "power", .label = N_("Power"), .kind = CATALOG_COL_FIELD,
	  .field = CATALOG_F_TDP_W, .unit = CATALOG_UNIT_W },
	{ .id = "ecc", .label = N_("ECC"), .kind = CATALOG_COL_FIELD, .field = CATALOG_F_ECC },
	{ .id = "price", .label = N_("Price/h"), .kind = CATALOG_COL_PRICE },
};

struct compare {
	struct tui_screen base;
	const struct catalog_gpu *gpus[COMPARE_MAX];
	size_t n;
	struct catalog_workload w;  /* these GPUs, the columns above */
	struct view_table *view;
	struct wpanel *head, *body; /* its widgets */
	uint64_t seen_market, seen_hist, seen_job;
	bool dirty;
	int top;                    /* lines scrolled off, below the names */
	size_t sel;                 /* the selected GPU (index among the shown rows) */
	bool sel_set;               /* chosen (by a key, or the first time) */
	int line_no, n_lines;       /* while building: lines made so far */
	struct wcells scratch;      /* a line scrolled off, made and dropped */
};

static struct compare *of(struct tui_screen *s)
{
	return (struct compare *)s;
}

/* ---- the model: a view of these GPUs --------------------------------------------------------- */

static void make_view(struct compare *c)
{
	struct tui *t = c->base.t;
	struct view_prices p = tui_market_prices(t);
	struct view_market m;

	view_free(&c->view);
	c->view = view_new(t->cat, &c->w, t->m.have_prices ? &p : NULL,
			   t->job.have ? &t->job.job : NULL, t->o->lang, t->ascii);
	view_add_market(c->view);
	tui_market_figures(t, TUI_SPARK_COLS, &m);
	view_set_market(c->view, &m);
	tui_market_figures_free(&m);
}

/* The lowest known cents of column k among the rows; -1 none. */
static int64_t lowest(const struct view_table *v, size_t k)
{
	int64_t lo = -1;

	for (size_t i = 0; i < v->n_shown; i++) {
		const struct view_cell *x = &view_shown_row(v, i)->cells[k];
		if (x->raw == VIEW_RAW_CENTS && (lo < 0 || x->cents < lo))
			lo = x->cents;
	}
	return lo;
}

/* ---- drawing ----------------------------------------------------------------------------------- */

static int col_width(const struct compare *c)
{
	int w = (c->body->base.w - LABEL_W - 1) / (int)(c->n ? c->n : 1);

	return w > COL_MAX ? COL_MAX : w < 6 ? 6 : w;
}

/* The next line of the body: the first (the names) always, the others
 * once past the lines scrolled off. */
static struct wcells *next_line(struct compare *c)
{
	if (c->line_no++ == 0 || c->line_no - 1 > c->top)
		return wpanel_add(c->body);
	wcells_reset(&c->scratch);
	return &c->scratch;
}

static struct wcells *label_row(struct compare *c, const char *label, enum wrole role)
{
	struct wcells *r = next_line(c), x;

	wcells_pad(r, 1, WR_NORMAL);
	wcells_init(&x, r->ascii);
	wcells_add(&x, label, role, role == WR_HEADER ? WAT_BOLD : 0);
	wcells_fit(&x, LABEL_W, WALIGN_LEFT, WR_NORMAL);
	wcells_cat(r, &x);
	wcells_free(&x);
	return r;
}

/* A note under the labels' column, wrapped to the width (two lines at most). */
static void hint_lines(struct compare *c, const char *text)
{
	int w = c->body->base.w - LABEL_W - 1;
	char **wl;
	size_t n;

	if (w < 8) {
		wcells_add(label_row(c, "", WR_NORMAL), text, WR_DIM, 0);
		return;
	}
	n = wtext_wrap(text, w, c->body->base.ui->ascii, &wl);
	for (size_t i = 0; i < n && i < 2; i++)
		wcells_add(label_row(c, "", WR_NORMAL), wl[i], WR_DIM, 0);
	if (n > 0)
		wtext_lines_free(wl, n);
}

/* The row of view column k: its label, then each GPU's cell. */
static void figure_row(struct compare *c, size_t k)
{
	const struct view_table *v = c->view;
	const struct view_column *vc = &v->columns[k];
	struct wcells *r = label_row(c, vc->label, WR_DIM), x;
	int cw = col_width(c);
	bool cheap = vc->kind == VIEW_COL_PRICE || vc->kind == VIEW_COL_JOB_COST;
	int64_t lo = cheap && c->n > 1 ? lowest(v, k) : -1;

	for (size_t i = 0; i < v->n_shown; i++) {
		const struct view_cell *cell = &view_shown_row(v, i)->cells[k];
		bool best = lo >= 0 && cell->raw == VIEW_RAW_CENTS && cell->cents == lo;
		wcells_init(&x, r->ascii);
		tui_format_cell_fit(v, i, k, 0, cw - 3, &x);
		if (best) {
			/* the marker only where it fits: the figure is never cut for it */
			wcells_recolor(&x, WR_GOOD, NULL, 0);
			if (x.width + 2 <= cw - 1)
				wcells_add(&x, " <", WR_GOOD, WAT_BOLD);
		}
		wcells_fit(&x, cw - 1, WALIGN_LEFT, WR_NORMAL);
		wcells_pad(r, 1, WR_NORMAL);
		wcells_cat(r, &x);
		wcells_free(&x);
	}
}

/* The run of a training job on each GPU: its time, its cost (whole
 * hours × GPUs × ask); for inference the decode speed. */
static void run_rows(struct compare *c)
{
	const struct view_table *v = c->view;
	struct tui *t = c->base.t;
	bool training = fit_method_is_training(v->job.method);
	int64_t lo = -1;
	int cw = col_width(c);
	struct wcells *r, x;

	for (size_t i = 0; training && i < v->n_shown; i++) {
		int64_t rc = view_shown_row(v, i)->job.run_cents;
		if (rc >= 0 && (lo < 0 || rc < lo))
			lo = rc;
	}
	for (int line = 0; line < (training ? 2 : 1); line++) {
		r = label_row(c, training ? (line == 0 ? _("Run time") : _("Run cost"))
				   : _("Decode speed"), WR_DIM);
		for (size_t i = 0; i < v->n_shown; i++) {
			const struct fit_result *j = &view_shown_row(v, i)->job;
			char *s;
			bool best = false;
			if (!training)
				s = view_fmt_tokens_s(t->o->lang, j->decode_tokens_s, t->ascii);
			else if (line == 0)
				s = view_fmt_run_time(t->o->lang, j->train_hours, t->ascii);
			else {
				s = j->run_cents >= 0 ? i18n_fmt_money(t->o->lang, j->run_cents, "USD")
						      : xstrdup(t->ascii ? "-" : "\u2014");
				best = c->n > 1 && j->run_cents >= 0 && j->run_cents == lo;
			}
			wcells_init(&x, r->ascii);
			wcells_add(&x, s, best ? WR_GOOD : WR_NORMAL, 0);
			if (best && x.width + 2 <= cw - 1)
				wcells_add(&x, " <", WR_GOOD, WAT_BOLD);
			wcells_fit(&x, cw - 1, WALIGN_LEFT, WR_NORMAL);
			wcells_pad(r, 1, WR_NORMAL);
			wcells_cat(r, &x);
			wcells_free(&x);
			free(s);
		}
	}
}

/* The first time: the cheapest for the job (its run, else its hour), else
 * the lowest ask. */
static void first_selection(struct compare *c)
{
	const struct view_table *v = c->view;
	int64_t best = -1;

	if (c->sel_set)
		return;
	c->sel_set = true;
	c->sel = 0;
	for (size_t i = 0; i < v->n_shown; i++) {
		const struct view_row *r = view_shown_row(v, i);
		int64_t k = !v->has_job ? r->price_cents
			  : r->job.run_cents >= 0 ? r->job.run_cents : r->job.hourly_cents;
		if (k >= 0 && (best < 0 || k < best)) {
			best = k;
			c->sel = i;
		}
	}
}

static bool kind_in(enum view_col_kind k, int section)
{
	switch (section) {
	case 0: return k == VIEW_COL_PRICE || (k >= VIEW_COL_BID && k <= VIEW_COL_SPARK);
	case 1: return k >= VIEW_COL_JOB_MEM;
	default: return k == VIEW_COL_FIELD;
	}
}

static void rebuild(struct compare *c)
{
	struct tui *t = c->base.t;
	static const char *const titles[3] = {
		N_("Prices"), N_("Your job here"), N_("Specifications"),
	};
	struct wcells *r, x;
	char *s;

	c->dirty = false;
	make_view(c);
	wpanel_begin(c->head);
	r = wpanel_add(c->head);
	/* TRANSLATORS: the compare screen's first row; %1$zu is 2 to 4, %2$s the key back (Esc) */
	char *back = tui_key_label(t, "back");
	s = xasprintf(_("Comparing %1$zu GPUs (%2$s back)"), c->n, back);
	free(back);
	wcells_pad(r, 1, WR_NORMAL);
	wcells_add(r, s, WR_HEADER, WAT_BOLD);
	free(s);
	wpanel_commit(c->head);
	wpanel_begin(c->body);
	c->line_no = 0;
	first_selection(c);
	r = label_row(c, "", WR_NORMAL);
	for (size_t i = 0; i < c->view->n_shown; i++) {
		wcells_init(&x, r->ascii);
		wcells_add(&x, view_shown_row(c->view, i)->gpu->name,
			   i == c->sel ? WR_SELECTED : WR_HEADER, WAT_BOLD);
		wcells_fit(&x, col_width(c) - 1, WALIGN_LEFT, WR_NORMAL);
		wcells_pad(r, 1, WR_NORMAL);
		wcells_cat(r, &x);
		wcells_free(&x);
	}
	for (int sec = 0; sec < 3; sec++) {
		next_line(c);
		/* a section's title has its row to itself: never cut to the labels' width */
		r = next_line(c);
		wcells_pad(r, 1, WR_NORMAL);
		wcells_add(r, _(titles[sec]), WR_HEADER, WAT_BOLD);
		if (sec == 1 && !c->view->has_job)
		{
			/* TRANSLATORS: %s is the key that opens the fit calculator (f unless rebound) */
			char *h = tui_key_text(t, _("Set a fit job (%s) to compare what it needs on each "
						   "GPU."), "fit", NULL);
			hint_lines(c, h);
			free(h);
		}
		for (size_t k = 0; k < c->view->n_columns; k++)
			if (kind_in(c->view->columns[k].kind, sec))
				figure_row(c, k);
		if (sec == 1 && c->view->has_job)
			run_rows(c);
	}
	c->n_lines = c->line_no;
	wpanel_commit(c->body);
	(void)t;
}

/* ---- the screen -------------------------------------------------------------------------------- */

static void scr_tick(struct tui_screen *s, int64_t now, int64_t *next)
{
	(void)now;
	(void)next;
	tui_history_want(s->t);
}

static void scr_recalc(struct tui_screen *s, int64_t now)
{
	struct compare *c = of(s);
	struct tui *t = s->t;
	uint64_t hg = t->m.hist.gen, jg = t->job.gen;

	(void)now;
	if (t->m.gen != c->seen_market || hg != c->seen_hist || jg != c->seen_job)
		c->dirty = true;
	c->seen_market = t->m.gen;
	c->seen_hist = hg;
	c->seen_job = jg;
	if (c->dirty && s->shown)
		rebuild(c);
}

static void scr_layout(struct tui_screen *s, struct tui_area *body)
{
	struct compare *c = of(s);
	struct tui *t = s->t;

	if (body->h < 3) {
		s->shown = false;
		return;
	}
	wwidget_place(&c->head->base, 0, 0, 1, t->cols);
	wwidget_place(&c->body->base, body->y, 0, body->h, t->cols);
	rebuild(c);
	body->h = 0;
}

/* b, s, Enter on the selected GPU; b with a job: the GPUs it runs on there
 * and, for a training run, its hours. */
static void act_on_selected(struct compare *c, int action)
{
	struct tui *t = c->base.t;
	const struct view_row *r;
	struct tui_goto g = { .fits = -1 };
	char *id;

	if (c->view == NULL || c->sel >= c->view->n_shown)
		return;
	r = view_shown_row(c->view, c->sel);
	id = xstrdup(r->gpu->id);
	g.gpu = id;
	if (c->view->has_job) {
		g.fits = r->job.fits;
		if (action != CK_SELL && r->job.gpus_run > 0)
			g.gpus = r->job.gpus_run;
		if (action != CK_SELL && fit_method_is_training(c->view->job.method) &&
		    isfinite(r->job.train_hours) && r->job.train_hours > 0 && r->job.train_hours < 1e6)
			g.hours = (int)ceil(r->job.train_hours - 1e-9);
	}
	g.sell = action == CK_SELL;
	tui_open(t, action == CK_DETAIL ? TUI_DETAIL : TUI_ORDER_FORM, &g);
	free(id);
}

static unsigned scr_event(struct tui_screen *s, const struct wevent *ev)
{
	struct compare *c = of(s);
	const struct wbinding *b;

	if (ev->type != WEV_KEY)
		return W_IGNORED;
	b = tui_screen_binding(s, ev->key, NULL);
	if (b == NULL)
		return W_IGNORED;
	int page = c->body->base.h > 2 ? c->body->base.h - 2 : 1;
	int max = c->n_lines - c->body->base.h;
	switch (b->action) {
	case CK_BACK: return W_HANDLED | W_CLOSE | W_REDRAW;
	case CK_LEFT:
	case CK_RIGHT:
		if (c->view->n_shown > 0)
			c->sel = (c->sel + (b->action == CK_RIGHT ? 1 : c->view->n_shown - 1)) %
				 c->view->n_shown;
		break;
	case CK_BUY:
	case CK_SELL:
	case CK_DETAIL:
		act_on_selected(c, b->action);
		return W_HANDLED | W_REDRAW;
	case CK_UP: c->top--; break;
	case CK_DOWN: c->top++; break;
	case CK_PGUP: c->top -= page; break;
	case CK_PGDN: c->top += page; break;
	}
	c->top = c->top > max ? max : c->top;
	c->top = c->top < 0 ? 0 : c->top;
	rebuild(c);
	return W_HANDLED | W_REDRAW;
}

static void scr_notify(struct tui_screen *s, unsigned what)
{
	if (what & TN_LANG)
		of(s)->dirty = true;
}

static void scr_free(struct tui_screen *s)
{
	struct compare *c = of(s);

	view_free(&c->view);
	wcells_free(&c->scratch);
}

static const struct tui_keymap keys[] = {
	{ N_("Compare"), bindings, sizeof bindings / sizeof bindings[0] },
};

const struct tui_screen_class tui_compare_class = {
	.name = "compare", .flags = TS_OPAQUE, .layout = scr_layout, .recalc = scr_recalc,
	.event = scr_event, .tick = scr_tick, .notify = scr_notify, .free = scr_free,
	.keys = keys, .n_keys = 1,
};

void tui_compare_open(struct tui *t, const struct tui_goto *g)
{
	struct tui_screen *old = tui_find(t, &tui_compare_class);
	struct compare *c = xcalloc(1, sizeof *c);

	tui_screen_init(&c->base, &tui_compare_class, t);
	for (size_t i = 0; i < g->n_ids && c->n < COMPARE_MAX; i++) {
		const struct catalog_gpu *gpu = catalog_gpu(t->cat, g->ids[i]);
		if (gpu != NULL)
			c->gpus[c->n++] = gpu;
	}
	if (old != NULL)
		tui_remove(t, old);
	c->w.id = (char *)"compare";
	c->w.title = (char *)"";
	c->w.short_title = (char *)"";
	c->w.gpus = c->gpus;
	c->w.n_gpus = c->n;
	c->w.columns = (struct catalog_column *)spec_columns;
	c->w.n_columns = sizeof spec_columns / sizeof spec_columns[0];
	c->head = (struct wpanel *)tui_screen_add(&c->base, &wpanel_new(&t->ui)->base);
	c->body = (struct wpanel *)tui_screen_add(&c->base, &wpanel_new(&t->ui)->base);
	wcells_init(&c->scratch, t->ascii);
	c->seen_market = t->m.gen;
	c->dirty = true;
	tui_history_want(t);
	tui_push(t, &c->base);
}
