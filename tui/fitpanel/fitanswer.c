/*
 * The fit panel's answer for one GPU (tui/fitpanel/fitform.h: tui_fit_answer_lines),
 * rendered as lines of cells — pure, so what the panel shows is tested
 * without a terminal.
 *
 * Two shapes: detailed (beside the table: the GPU, memory per GPU against
 * its memory with ✓/✗, the memory bar, one line per part of the breakdown,
 * GPUs needed, cost per hour at the best ask, the run's time and cost or
 * the decode speed, what b orders) and compact (below the table: the GPU,
 * the need and the bar on one line, then the parts and the figures flowing
 * over at most three lines). Every figure is formatted by view/ or i18n/
 * exactly as `gpux fit` prints it (view_fmt_gb, view_fmt_run_time,
 * view_fmt_tokens_s, i18n_fmt_money), from the view row's fit_result: the
 * same fit_evaluate call that fills the table's "your model" columns.
 * While the form has a bad field the answer is the last valid one, greyed.
 */
#include "tui/fitpanel/fitform.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

/* Items laid out left to right, wrapped between items. */
struct flow {
	struct tui_lines *ls;
	int width, gap;
	struct wcells *cur;
	size_t max, made;
};

static void flow_item(struct flow *f, const struct wcells *item)
{
	if (item->width == 0)
		return;
	if (f->cur == NULL || f->cur->width + f->gap + item->width > f->width) {
		if (f->made == f->max)
			return;
		if (f->cur != NULL)
			wcells_fit(f->cur, f->width, WALIGN_LEFT, WR_NORMAL);
		f->cur = tui_lines_add(f->ls);
		f->made++;
	} else {
		wcells_pad(f->cur, f->gap, WR_NORMAL);
	}
	wcells_cat(f->cur, item);
}

static void flow_end(struct flow *f)
{
	if (f->cur != NULL)
		wcells_fit(f->cur, f->width, WALIGN_LEFT, WR_NORMAL);
}

/* ---- the answer for one GPU (pure) ------------------------------------------------ */

/* Glyphs of the memory bar and its legend; ASCII: letters. */
static const char *const glyph_utf8[6] = { "\u2588", "\u2593", "\u2592", "\u2591", "\u259a", "\u2596" };
static const char *const glyph_ascii[6] = { "W", "G", "O", "A", "K", "M" };
static const char *const part_label[6] = {
	N_("Weights"), N_("Gradients"), N_("Optimizer"), N_("Activations"), N_("KV cache"),
	N_("Margin"),
};

static double part(const struct fit_breakdown *m, int k)
{
	switch (k) {
	case 0: return m->weights;
	case 1: return m->gradients;
	case 2: return m->optimizer;
	case 3: return m->activations;
	case 4: return m->kv_cache;
	default: return m->margin;
	}
}

static enum wrole r_(bool grey, enum wrole r)
{
	return grey ? WR_DIM : r;
}

/* "[████▓▓▒▒▒░·   ]": the parts of the memory per GPU to scale against the
 * GPU's memory; what lies beyond the memory in the bad role, "│" where the
 * memory ends when the job does not fit. */
static void memory_bar(struct wcells *c, const struct fit_result *j, int width, bool grey)
{
	int inner = width - 2, availpos;
	double total = j->mem.total, avail = j->available_gb, scale;
	double cum = 0;
	int k = 0, prev = 0;
	int *owner;

	if (inner < 4 || !isfinite(total))
		return;
	scale = isfinite(avail) && avail > total ? avail : total;
	if (!(scale > 0))
		scale = 1;
	availpos = isfinite(avail) ? (int)lround(inner * avail / scale) : -1;
	owner = xcalloc((size_t)inner, sizeof *owner);
	for (int i = 0; i < inner; i++)
		owner[i] = -1;
	for (k = 0; k < 6; k++) {
		double v = part(&j->mem, k);
		int pos;
		cum += isfinite(v) && v > 0 ? v : 0;
		pos = (int)lround(inner * cum / scale);
		if (pos > inner)
			pos = inner;
		for (int i = prev; i < pos; i++)
			owner[i] = k;
		if (pos > prev)
			prev = pos;
	}
	wcells_add(c, "[", WR_DIM, 0);
	for (int i = 0; i < inner; i++) {
		if (owner[i] < 0) {
			wcells_pad(c, 1, WR_NORMAL);
			continue;
		}
		bool over = availpos >= 0 && i >= availpos;
		enum wrole role = over ? WR_BAD : j->fits == 1 ? WR_GOOD : WR_NORMAL;
		if (over && i == availpos && j->fits == 0) {
			wcells_add_sym(c, WSYM_VLINE, r_(grey, WR_BAD), WAT_BOLD);
			continue;
		}
		wcells_add(c, c->ascii ? glyph_ascii[owner[i]] : glyph_utf8[owner[i]], r_(grey, role), 0);
	}
	wcells_add(c, "]", WR_DIM, 0);
	free(owner);
}

static void add_fits_mark(struct wcells *c, const struct fit_result *j, bool grey)
{
	if (j->fits == 1)
		wcells_add_sym(c, WSYM_CHECK, r_(grey, WR_GOOD), 0);
	else if (j->fits == 0)
		wcells_add_sym(c, WSYM_CROSS, r_(grey, WR_BAD), 0);
	else
		wcells_add(c, "?", WR_DIM, 0);
}

/* Whether the job runs on more GPUs than asked, where it fits. */
static bool runs_on_more(const struct fit_result *j, int asked)
{
	return j->fits == 0 && j->mem_gpus > 0 && j->mem_gpus != asked;
}

/* What the job needs, with a mark for each count it names, after *c (a
 * line of ls, width columns): "Needs 161 GB per GPU, has 80 GB ✗"; when it
 * does not fit on the count asked but runs on more, one mark for each: "✗ on
 * 1 GPU; ✓ on 2: 85.6 GB of 141 GB each" (never a ✗ beside a need below
 * what the GPU has), the ✓ part on a line of its own (*c then) where the
 * two do not fit one: a figure is never cut. */
static void add_needs(struct tui_lines *ls, struct wcells **c, enum i18n_lang l,
		      const struct fit_result *j, int asked, bool grey, enum wrole base, int width)
{
	char *need = view_fmt_gb(l, j->mem.total);
	char *has = isfinite(j->available_gb) ? view_fmt_gb(l, j->available_gb)
					      : xstrdup(i18n_dgettext(l, NULL, N_("Not published")));
	char *s;

	if (runs_on_more(j, asked)) {
		struct wcells on, more;
		wcells_init(&on, ls->ascii);
		wcells_init(&more, ls->ascii);
		add_fits_mark(&on, j, grey);
		/* TRANSLATORS: after ✗: the job does not fit on the GPUs asked */
		s = xasprintf(P_(" on %d GPU; ", " on %d GPUs; ", (unsigned long)asked), asked);
		wcells_add(&on, s, base, 0);
		free(s);
		wcells_add_sym(&more, WSYM_CHECK, grey ? WR_DIM : WR_GOOD, 0);
		/* TRANSLATORS: after ✓: on 4 GPUs the job needs 18.2 GB of each
		 * one's 24 GB: " on 4: 18.2 GB of 24 GB each" */
		s = xasprintf(_(" on %d: %s of %s each"), j->mem_gpus, need, has);
		wcells_add(&more, s, base, 0);
		free(s);
		wcells_cat(*c, &on);
		if ((*c)->width + more.width > width) {
			*c = tui_lines_add(ls);
			wcells_pad(*c, 2, WR_NORMAL);
		}
		wcells_cat(*c, &more);
		wcells_free(&on);
		wcells_free(&more);
	} else {
		s = xasprintf(_("Needs %s per GPU, has %s"), need, has);
		wcells_add(*c, s, base, 0);
		wcells_pad(*c, 1, WR_NORMAL);
		add_fits_mark(*c, j, grey);
		free(s);
	}
	free(need);
	free(has);
}

/* detailed: the figure for the "GPUs needed" line; else a phrase. */
static char *gpus_text(const struct fit_result *j, bool detailed)
{
	if (detailed && j->gpus_needed > 0 && j->gpus_run > 0 && j->gpus_run != j->gpus_needed)
		return xasprintf(_("%d (runs on %d)"), j->gpus_needed, j->gpus_run);
	if (detailed && j->gpus_needed > 0)
		return xasprintf("%d", j->gpus_needed);
	if (j->gpus_needed > 0 && j->gpus_run > 0 && j->gpus_run != j->gpus_needed)
		return xasprintf(P_("%d GPU needed, runs on %d", "%d GPUs needed, runs on %d",
				    (unsigned long)j->gpus_needed), j->gpus_needed, j->gpus_run);
	if (j->gpus_needed > 0)
		return xasprintf(P_("%d GPU needed", "%d GPUs needed", (unsigned long)j->gpus_needed),
				 j->gpus_needed);
	if (j->gpus_needed == 0)
		return xstrdup(_("too big: no number of these GPUs holds it (shard the states)"));
	return xstrdup(_("GPUs needed unknown: memory not published"));
}

/* "$23.04/h (8 × $2.88)": every unit the job takes (its machines, not
 * loose GPUs) for an hour; or why nothing on the book runs it. */
static char *cost_text(enum i18n_lang l, const struct view_row *r)
{
	const struct fit_result *j = &r->job;
	const struct view_job_price *p = &r->cap;
	char *all, *one, *m, *s;

	if (j->gpus_run <= 0)
		return xstrdup(_("no cost: it does not run on these GPUs"));
	m = view_fmt_node_shape(l, &j->shape);
	switch (p->state) {
	case VIEW_CAP_EMPTY:
		/* TRANSLATORS: the book has none of the machines the job needs: "no 1 node of 8 (NVLink) on the book" */
		s = p->need.node_gpus > 1 ? xasprintf(_("nothing on the book runs it: no %s"), m)
					  : xstrdup(_("no price: nobody sells this GPU now"));
		free(m);
		return s;
	case VIEW_CAP_SHORT:
		/* TRANSLATORS: the book holds fewer machines than the job needs */
		s = xasprintf(_("the book has only %lld of the %s it needs"),
			      (long long)p->units_have, m);
		free(m);
		return s;
	case VIEW_CAP_UNKNOWN:
		free(m);
		return xstrdup(p->unit_cents >= 0 ? _("asking the book for the machines it needs\u2026")
						  : _("no price: nobody sells this GPU now"));
	default:
		break;
	}
	free(m);
	all = i18n_fmt_money(l, j->hourly_cents, "USD");
	one = i18n_fmt_money(l, p->unit_cents, "USD");
	if (p->worst_cents == p->unit_cents)
		/* TRANSLATORS: the job's cost per hour: all its GPUs, then GPUs × the price of its machines */
		s = xasprintf(_("%s/h (%d \u00d7 %s)"), all, j->gpus_run, one);
	else
		/* TRANSLATORS: the job's cost per hour when its machines come at several prices */
		s = xasprintf(_("%s/h (%d GPUs from %s)"), all, j->gpus_run, one);
	free(all);
	free(one);
	return s;
}

static const char *key_or(const char *bound, const char *key)
{
	return bound != NULL ? bound : key;
}

static char *order_text(const struct tui_ff *ff, const struct view_row *r)
{
	int n = r->job.gpus_run > 0 ? r->job.gpus_run : 1;
	const char *b = key_or(ff->key_buy, "b");
	char *m, *s;

	if (r->job.gpus_run <= 0 || !r->job.shape.link_needed)
		/* TRANSLATORS: what the buy key (%1$s, b unless rebound) does from the fit
		   panel: "b: buy 4 × H100 SXM" */
		return xasprintf(_("%1$s: buy %2$d \u00d7 %3$s"), b, n, r->gpu->name);
	m = view_fmt_node_shape(i18n_current(), &r->job.shape);
	/* TRANSLATORS: what the buy key (%1$s, b unless rebound) does from the fit panel:
	   "b: buy H100 SXM, 1 node of 8 (NVLink)" */
	s = xasprintf(_("%1$s: buy %2$s, %3$s"), b, r->gpu->name, m);
	free(m);
	return s;
}

/* What the job order's key does: the job order across every GPU. */
static char *job_order_text(const struct tui_ff *ff)
{
	/* TRANSLATORS: %s is the job order's key (J unless rebound) */
	return xasprintf(_("%s: the cheapest GPU that runs it (a job order)"),
			 key_or(ff->key_job, "J"));
}

/* A label padded to lw and a value: one line of the detailed answer. */
static void label_value(struct tui_lines *ls, int w, int lw, const char *glyph, const char *label,
			const char *value, enum wrole role)
{
	struct wcells *c = tui_lines_add(ls);
	struct wcells lab;

	wcells_init(&lab, ls->ascii);
	if (glyph != NULL) {
		wcells_add(&lab, glyph, role, 0);
		wcells_pad(&lab, 1, WR_NORMAL);
	}
	wcells_add(&lab, label, role == WR_DIM ? WR_DIM : WR_NORMAL, 0);
	wcells_fit(&lab, lw, WALIGN_LEFT, WR_NORMAL);
	wcells_cat(c, &lab);
	wcells_pad(c, 1, WR_NORMAL);
	wcells_add(c, value, role, 0);
	wcells_fit(c, w, WALIGN_LEFT, WR_NORMAL);
	wcells_free(&lab);
}

static const char *glyph(bool ascii, int k)
{
	return ascii ? glyph_ascii[k] : glyph_utf8[k];
}

/* The detailed answer (beside the table): the GPU, its need with ✓/✗, the
 * bar, one line per part, GPUs needed, cost per hour, the run or the
 * decode speed, what b orders. */
static void detailed_lines(struct tui_lines *ls, const struct tui_ff *ff, const struct view_row *r,
			   int width, bool grey)
{
	static const char *const labels[] = { N_("GPUs needed"), N_("Machines"), N_("Cost per hour"),
					      N_("Run time"), N_("Run cost"), N_("Decode") };
	const struct fit_result *j = &r->job;
	enum wrole base = grey ? WR_DIM : WR_NORMAL;
	enum i18n_lang l = ff->lang;
	bool ascii = ls->ascii;
	struct wcells *c;
	int lw = 0;
	char *s;

	for (int k = 0; k < 6; k++)
		if (wtext_width(_(part_label[k]), ascii) + 2 > lw)
			lw = wtext_width(_(part_label[k]), ascii) + 2;
	for (size_t k = 0; k < sizeof labels / sizeof labels[0]; k++)
		if (wtext_width(_(labels[k]), ascii) > lw)
			lw = wtext_width(_(labels[k]), ascii);
	if (lw > width / 2)
		lw = width / 2;

	c = tui_lines_add(ls);
	wcells_add(c, r->gpu->name, base, grey ? 0 : WAT_BOLD);
	if (r->gpu->arch != NULL) {
		wcells_pad(c, 1, WR_NORMAL);
		wcells_add(c, r->gpu->arch, WR_DIM, 0);
	}
	wcells_fit(c, width, WALIGN_LEFT, WR_NORMAL);

	c = tui_lines_add(ls);
	add_needs(ls, &c, l, j, ff->job.gpus, grey, base, width);
	wcells_fit(c, width, WALIGN_LEFT, WR_NORMAL);

	c = tui_lines_add(ls);
	memory_bar(c, j, width, grey);
	wcells_fit(c, width, WALIGN_LEFT, WR_NORMAL);

	for (int k = 0; k < 6; k++) {
		char *v = view_fmt_gb(l, part(&j->mem, k));
		label_value(ls, width, lw, glyph(ascii, k), _(part_label[k]), v, base);
		free(v);
	}
	s = gpus_text(j, true);
	label_value(ls, width, lw, NULL, _("GPUs needed"), s, base);
	free(s);
	if (j->gpus_run > 0) {
		s = view_fmt_node_shape(l, &j->shape);
		label_value(ls, width, lw, NULL, _("Machines"), s, base);
		free(s);
	}
	s = cost_text(l, r);
	label_value(ls, width, lw, NULL, _("Cost per hour"), s, base);
	free(s);
	if (fit_method_is_training(ff->job.method)) {
		s = view_fmt_run_time(l, j->train_hours, ascii);
		label_value(ls, width, lw, NULL, _("Run time"), s, base);
		free(s);
		s = j->run_cents >= 0 ? i18n_fmt_money(l, j->run_cents, "USD")
				      : xstrdup(ascii ? "-" : "\u2014");
		label_value(ls, width, lw, NULL, _("Run cost"), s, base);
		free(s);
	}
	if (fit_method_is_inference(ff->job.method)) {
		char *v = view_fmt_tokens_s(l, j->decode_tokens_s, ascii);
		if (ff->job.batch > 1 && isfinite(j->decode_tokens_s_total)) {
			char *all = view_fmt_tokens_s(l, j->decode_tokens_s_total, ascii);
			s = xasprintf(_("%s tok/s per sequence, %s in all"), v, all);
			free(all);
		} else {
			s = xasprintf(_("%s tok/s per sequence"), v);
		}
		free(v);
		label_value(ls, width, lw, NULL, _("Decode"), s, base);
		free(s);
	}
	s = order_text(ff, r);
	tui_lines_wrap(ls, s, width, 1, WR_DIM, 0);
	free(s);
	s = job_order_text(ff);
	tui_lines_wrap(ls, s, width, 1, WR_DIM, 0);
	free(s);
}

/* The compact answer's figures a buyer decides on first: GPUs needed, cost
 * per hour, run time and cost or decode speed (malloc'ed each); how many. */
static size_t key_figures(const struct tui_ff *ff, const struct view_row *r, bool ascii,
			  char *figs[3])
{
	const struct fit_result *j = &r->job;
	enum i18n_lang l = ff->lang;
	size_t nf = 0;

	figs[nf] = gpus_text(j, false);
	if (j->gpus_run > 0 && j->shape.link_needed) {
		/* the machines they must be: "8 GPUs needed: 1 node of 8 (NVLink)" */
		char *m = view_fmt_node_shape(l, &j->shape), *x = xasprintf("%s: %s", figs[nf], m);
		free(figs[nf]);
		free(m);
		figs[nf] = x;
	}
	nf++;
	figs[nf++] = cost_text(l, r);
	if (fit_method_is_training(ff->job.method) && isfinite(j->train_hours)) {
		char *t = view_fmt_run_time(l, j->train_hours, ascii);
		char *m = j->run_cents >= 0 ? i18n_fmt_money(l, j->run_cents, "USD")
					    : xstrdup(ascii ? "-" : "\u2014");
		figs[nf++] = xasprintf(_("run %s, %s"), t, m);
		free(t);
		free(m);
	} else if (fit_method_is_inference(ff->job.method)) {
		char *v = view_fmt_tokens_s(l, j->decode_tokens_s, ascii);
		figs[nf++] = xasprintf(_("%s tok/s per sequence"), v);
		free(v);
	}
	return nf;
}

/* The compact answer (below the table): the GPU, its need and the bar on
 * one line; then one flow of at most three lines: the key figures, the
 * memory parts, the order hint, so what a short panel gives up is the
 * detail, never the answer. */
static void compact_lines(struct tui_lines *ls, const struct tui_ff *ff, const struct view_row *r,
			  int width, bool grey)
{
	const struct fit_result *j = &r->job;
	enum wrole base = grey ? WR_DIM : WR_NORMAL;
	bool ascii = ls->ascii;
	struct flow f = { .ls = ls, .width = width, .gap = 2, .max = 3 };
	struct wcells *c = tui_lines_add(ls), item;
	char *figs[3] = { NULL }, *s;
	size_t nf;

	wcells_add(c, r->gpu->name, base, grey ? 0 : WAT_BOLD);
	wcells_add(c, ": ", base, 0);
	add_needs(ls, &c, ff->lang, j, ff->job.gpus, grey, base, width);
	if (width - c->width - 2 >= 12) {
		int bw = width - c->width - 2;
		wcells_pad(c, 2, WR_NORMAL);
		memory_bar(c, j, bw > 40 ? 40 : bw, grey);
	}
	wcells_fit(c, width, WALIGN_LEFT, WR_NORMAL);

	wcells_init(&item, ascii);
	nf = key_figures(ff, r, ascii, figs);
	for (size_t i = 0; i < nf; i++) {
		wcells_reset(&item);
		wcells_add(&item, figs[i], base, i == 0 && !grey ? WAT_BOLD : 0);
		flow_item(&f, &item);
		free(figs[i]);
	}
	for (int k = 0; k < 6; k++) {
		double v = part(&j->mem, k);
		char *gb;
		if (!(v > 0) && k != 0 && k != 5)
			continue;
		wcells_reset(&item);
		wcells_add(&item, glyph(ascii, k), base, 0);
		wcells_pad(&item, 1, WR_NORMAL);
		wcells_add(&item, _(part_label[k]), grey ? WR_DIM : WR_NORMAL, 0);
		wcells_pad(&item, 1, WR_NORMAL);
		gb = view_fmt_gb(ff->lang, v);
		wcells_add(&item, gb, base, 0);
		free(gb);
		flow_item(&f, &item);
	}
	s = order_text(ff, r);
	wcells_reset(&item);
	wcells_add(&item, s, WR_DIM, 0);
	flow_item(&f, &item);
	free(s);
	flow_end(&f);
	wcells_free(&item);
}

size_t tui_fit_answer_lines(const struct tui_ff *ff, const struct view_row *r, int width,
			    bool detailed, bool ascii, struct wcells **out)
{
	struct tui_lines ls = { .ascii = ascii };
	bool grey = !ff->valid;

	*out = NULL;
	if (width < 8)
		return 0;
	if (!ff->have_job) {
		tui_lines_wrap(&ls, _("Type a model: a size in billions (70, 7.5, 1.3T) or words of a preset's name (llama 70). The table gains its columns as you type."),
			    width, detailed ? 4 : 2, WR_DIM, 0);
	} else {
		if (grey)
			tui_lines_wrap(&ls, _("The last valid answer, greyed: fix the marked field."),
				    width, 1, WR_FIELD_ERROR, 0);
		if (r == NULL || !r->has_job) {
			/* TRANSLATORS: %s is the key that clears the filter (Esc unless rebound) */
			char *x = xasprintf(_("No GPU under the cursor: clear the filter (%s) and choose "
					      "a row."), key_or(ff->key_clear, "Esc"));
			tui_lines_wrap(&ls, x, width, 2, WR_DIM, 0);
			free(x);
		}
		else if (detailed)
			detailed_lines(&ls, ff, r, width, grey);
		else
			compact_lines(&ls, ff, r, width, grey);
	}
	*out = ls.l;
	return ls.n;
}
