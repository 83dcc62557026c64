/*
 * The table model: columns from the catalogue (plus the "your model" columns
 * of a fit job), one row per GPU, each cell computed once from its inputs
 * (catalogue figure, seed-table rule, fit model, best ask) into a raw value
 * and a display text. Every change of input (prices, job) recomputes the
 * affected cells and re-applies the sort and the filter, which are kept as
 * state; nothing here draws.
 *
 * Sorting (view/sort.c) orders the whole row array by a key per cell
 * (number, text rank or unknown); the order is total (unknown last, then GPU
 * name, then GPU id, then catalogue order), so equal inputs always give the
 * same order. The filter keeps an index of the rows that pass it, in sort
 * order.
 */
#include "view/view.h"
#include "view/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

#define T(t, msgid) i18n_dgettext((t)->lang, NULL, (msgid))
#define NP_(one, many) one, many

/* The columns of the every-GPU table (no workload): what `gpux fit` shows
 * beside its job columns. */
static const struct catalog_column all_gpu_columns[] = {
	{.id = "gpu", .label = N_("GPU"), .kind = CATALOG_COL_GPU},
	{.id = "memory", .label = N_("Memory"), .kind = CATALOG_COL_FIELD,
	 .field = CATALOG_F_MEMORY_GB, .unit = CATALOG_UNIT_GB},
	{.id = "bandwidth", .label = N_("Bandwidth"), .kind = CATALOG_COL_FIELD,
	 .field = CATALOG_F_BANDWIDTH_GBS, .unit = CATALOG_UNIT_GBS},
	{.id = "bf16", .label = N_("Tensor BF16"), .kind = CATALOG_COL_FIELD,
	 .field = CATALOG_F_BF16_TFLOPS, .unit = CATALOG_UNIT_TFLOPS},
	{.id = "price", .label = N_("Price/h"), .kind = CATALOG_COL_PRICE},
};

static const struct {
	const char *id;
	const char *label;
	enum view_col_kind kind;
	enum view_align align;
} job_columns[] = {
	{"job_mem_gb", N_("Per GPU at N"), VIEW_COL_JOB_MEM, VIEW_RIGHT},
	{"job_avail_gb", N_("Has/GPU"), VIEW_COL_JOB_AVAIL, VIEW_RIGHT},
	{"job_fits", N_("Fits"), VIEW_COL_JOB_FITS, VIEW_CENTER}, /* "Fits on N", N the job's GPUs */
	{"job_gpus", N_("GPUs needed"), VIEW_COL_JOB_GPUS, VIEW_RIGHT},
	{"job_cost", N_("Job/h"), VIEW_COL_JOB_COST, VIEW_RIGHT},
};
#define N_JOB_COLUMNS (sizeof job_columns / sizeof job_columns[0])

/* ---- small helpers ------------------------------------------------------------ */

static const char *dash(const struct view_table *t)
{
	return t->ascii ? "-" : "\u2014";
}

/* A cell owns no memory: its texts are borrowed from the catalogue, the
 * message catalogue or its column's memo. */
static void cell_clear(struct view_cell *c)
{
	memset(c, 0, sizeof *c);
}

static void cell_unknown(const struct view_table *t, struct view_cell *c, const char *display)
{
	c->raw = VIEW_RAW_NONE;
	c->display = display != NULL ? display : dash(t);
	c->flags |= VIEW_CELL_UNKNOWN;
}

static void cell_number(struct view_cell *c, double v, struct view_memo_text display)
{
	c->raw = VIEW_RAW_NUMBER;
	c->number = v;
	c->display = display.text;
	c->width = display.width;
}

static struct view_memo_text plain(const char *text)
{
	return (struct view_memo_text){ text, 0 }; /* measured by fill_cell */
}

/* The display of a figure of the catalogue in its column's unit. */
static struct view_memo_text field_text(const struct view_table *t, struct view_memo *m,
					const struct catalog_column *cc, double v)
{
	struct view_memo_text s;

	if (view_memo_find(m, view_memo_key(v), &s))
		return s;
	if (cc->unit != CATALOG_UNIT_NONE)
		return view_memo_put(m, view_memo_key(v),
				     i18n_fmt_unit(t->lang, v, cc->decimals,
						   catalog_unit_name(cc->unit)));
	return view_memo_put(m, view_memo_key(v), i18n_fmt_number(t->lang, v, cc->decimals));
}

/* A capacity ("≈ 10B"), a whole number ("1,234"), GB as the job columns
 * show it. */
static struct view_memo_text billions_text(const struct view_table *t, struct view_memo *m,
					   long b)
{
	struct view_memo_text s;

	if (view_memo_find(m, (uint64_t)b, &s))
		return s;
	return view_memo_put(m, (uint64_t)b, i18n_fmt_billions(t->lang, b, t->ascii));
}

static struct view_memo_text count_text(const struct view_table *t, struct view_memo *m,
					double v)
{
	struct view_memo_text s;

	if (view_memo_find(m, view_memo_key(v), &s))
		return s;
	return view_memo_put(m, view_memo_key(v), i18n_fmt_number(t->lang, v, 0));
}

static struct view_memo_text gb_text(const struct view_table *t, struct view_memo *m, double v)
{
	struct view_memo_text s;

	if (view_memo_find(m, view_memo_key(v), &s))
		return s;
	return view_memo_put(m, view_memo_key(v), view_fmt_gb(t->lang, v));
}

char *view_fmt_gb(enum i18n_lang lang, double gb)
{
	int decimals;

	if (!isfinite(gb))
		return xstrdup("\u2014");
	if (fabs(gb - round(gb)) < 1e-9 || gb >= 100)
		decimals = 0;
	else
		decimals = 1;
	return i18n_fmt_unit(lang, gb, decimals, "GB");
}

void view_fit_gpu(const struct catalog_gpu *g, int64_t price_cents, struct fit_gpu *out)
{
	memset(out, 0, sizeof *out);
	out->memory_gb = g->memory_gb;
	out->bandwidth_gbs = g->bandwidth_gbs;
	out->bf16_tflops = g->bf16_tflops;
	out->fp8_tflops = catalog_supported(g->fp8_tflops) ? g->fp8_tflops : NAN;
	/* GPU-to-GPU link for tensor parallelism: NVLink/Infinity Fabric as
	 * published, else the PCIe slot (x16: 64 GB/s both ways at 4.0, 128 at
	 * 5.0, PCI-SIG) */
	out->link_gbs = g->interconnect_gbs;
	out->pcie_gbs = NAN;
	if (g->interconnect != NULL)
		out->pcie_gbs = strncmp(g->interconnect, "PCIe 5", 6) == 0   ? 128.0
				: strncmp(g->interconnect, "PCIe 4", 6) == 0 ? 64.0
									     : NAN;
	if (!catalog_known(out->link_gbs))
		out->link_gbs = out->pcie_gbs;
	out->price_cents = price_cents >= 0 ? price_cents : -1;
	/* the machine's link (the catalogue derives it from the form factor) */
	if (g->scale_up == NULL || fit_interconnect_parse(g->scale_up, &out->scale_up, NULL) != 0)
		out->scale_up = FIT_LINK_PCIE;
	out->scale_up_gpus = g->scale_up_gpus > 0 ? g->scale_up_gpus : 1;
}

static int pos_or_zero(int v)
{
	return v > 0 ? v : 0;
}

void view_fit_model(const struct catalog_model *m, struct fit_model *out)
{
	double extra = 0;

	memset(out, 0, sizeof *out);
	out->params_b = m->params_b;
	out->active_params_b = isfinite(m->active_params_b) ? m->active_params_b : m->params_b;
	out->layers = pos_or_zero(m->layers);
	out->hidden = pos_or_zero(m->hidden);
	out->heads = pos_or_zero(m->heads);
	out->kv_heads = pos_or_zero(m->kv_heads);
	out->head_dim = pos_or_zero(m->head_dim);
	out->vocab = pos_or_zero(m->vocab);
	out->ffn = pos_or_zero(m->ffn);
	out->kv_latent_dim = pos_or_zero(m->kv_latent_dim);
	out->diffusion = m->kind == CATALOG_MODEL_DIFFUSION;
	if (isfinite(m->text_encoder_params_b))
		extra += m->text_encoder_params_b;
	if (isfinite(m->vae_params_b))
		extra += m->vae_params_b;
	out->extra_params_b = extra;
	out->guessed = false;
	out->tied_embeddings = m->tied_embeddings;
	out->experts = m->experts > 1 ? m->experts : 0;
	out->experts_per_token = m->experts > 1 ? pos_or_zero(m->experts_per_token) : 0;
}

void view_job_use_preset(struct fit_job *job, const struct catalog_model *m)
{
	view_fit_model(m, &job->model);
	if (m->kind == CATALOG_MODEL_DIFFUSION) {
		if (m->width > 0)
			job->width = m->width;
		if (m->height > 0)
			job->height = m->height;
		if (m->frames > 0)
			job->frames = m->frames;
	}
}

/* ---- columns ---------------------------------------------------------------------- */

static bool field_is_number(enum catalog_field f)
{
	switch (f) {
	case CATALOG_F_NAME:
	case CATALOG_F_ARCH:
	case CATALOG_F_VENDOR:
	case CATALOG_F_MEMORY_TYPE:
	case CATALOG_F_INTERCONNECT:
	case CATALOG_F_FORM_FACTOR:
	case CATALOG_F_ECC:
		return false;
	default:
		return true;
	}
}

static void column_from_catalog(const struct view_table *t, struct view_column *vc,
				const struct catalog_column *cc)
{
	memset(vc, 0, sizeof *vc);
	vc->id = xstrdup(cc->id);
	vc->label = xstrdup(T(t, cc->label));
	vc->source = cc;
	switch (cc->kind) {
	case CATALOG_COL_GPU:
		vc->kind = VIEW_COL_GPU;
		vc->align = VIEW_LEFT;
		break;
	case CATALOG_COL_FIELD:
		vc->kind = VIEW_COL_FIELD;
		vc->numeric = field_is_number(cc->field);
		vc->align = vc->numeric ? VIEW_RIGHT : VIEW_LEFT;
		break;
	case CATALOG_COL_CAPACITY:
		vc->kind = VIEW_COL_CAPACITY;
		vc->numeric = true;
		vc->align = VIEW_RIGHT;
		break;
	case CATALOG_COL_DECODE:
		vc->kind = VIEW_COL_DECODE;
		vc->numeric = true;
		vc->align = VIEW_RIGHT;
		break;
	case CATALOG_COL_PRICE:
		vc->kind = VIEW_COL_PRICE;
		vc->numeric = true;
		vc->align = VIEW_RIGHT;
		if (t->has_job) {
			/* TRANSLATORS: the price column with a fit job: the cheapest
			 * GPU-hour of the machines that can run it (whole units of its
			 * nodes), not of one loose GPU */
			free(vc->label);
			vc->label = xstrdup(T(t, N_("Price/h (job)")));
		}
		break;
	}
}

static void build_columns(struct view_table *t)
{
	const struct catalog_column *src = t->workload != NULL ? t->workload->columns : all_gpu_columns;
	size_t n_src = t->workload != NULL ? t->workload->n_columns
					   : sizeof all_gpu_columns / sizeof all_gpu_columns[0];
	size_t n = n_src + (t->has_job ? N_JOB_COLUMNS : 0) + (t->market ? VIEW_N_MARKET : 0);
	size_t i, k = 0;

	t->columns = xcalloc(n, sizeof *t->columns);
	for (i = 0; i < n_src; i++) {
		column_from_catalog(t, &t->columns[k++], &src[i]);
		/* the job columns go right after the GPU column: visible with it */
		if (i == 0 && t->has_job) {
			size_t j;
			for (j = 0; j < N_JOB_COLUMNS; j++) {
				struct view_column *vc = &t->columns[k++];
				vc->id = xstrdup(job_columns[j].id);
				/* whether it fits is asked of the GPUs the job is set
				 * to (Per GPU at N is at the count it runs on): the
				 * header says which, so ✗ beside a need below Has/GPU
				 * reads as what it is */
				vc->label = job_columns[j].kind == VIEW_COL_JOB_FITS
					? xasprintf(i18n_dngettext(t->lang, NULL, NP_("Fits on %d", "Fits on %d"),
								   (unsigned long)t->job.gpus), t->job.gpus)
					: xstrdup(T(t, job_columns[j].label));
				vc->kind = job_columns[j].kind;
				vc->numeric = true;
				vc->align = job_columns[j].align;
			}
		}
	}
	if (t->market)
		k += view_market_columns(t, &t->columns[k]);
	t->n_columns = k;
	t->memo = xcalloc(k + 1, sizeof *t->memo);
}

static void free_columns(struct view_table *t)
{
	size_t i;

	view_sort_forget_columns(t);
	for (i = 0; i < t->n_columns; i++) {
		free(t->columns[i].id);
		free(t->columns[i].label);
		if (t->memo != NULL)
			view_memo_clear(&t->memo[i]);
	}
	free(t->memo);
	t->memo = NULL;
	free(t->columns);
	t->columns = NULL;
	t->n_columns = 0;
}

/* ---- cells -------------------------------------------------------------------------- */

static void fill_field(const struct view_table *t, struct view_memo *m, struct view_cell *c,
		       const struct catalog_column *cc, const struct catalog_gpu *g)
{
	struct catalog_value v = catalog_gpu_value(g, cc->field);

	switch (v.type) {
	case CATALOG_VALUE_NUMBER:
		if (!catalog_known(v.number)) {
			cell_unknown(t, c, T(t, N_("Not published")));
		} else if (!catalog_supported(v.number)) {
			cell_unknown(t, c, T(t, N_("Not supported")));
		} else if (v.number == 0 && (cc->field == CATALOG_F_RT_CORES ||
					      cc->field == CATALOG_F_VIDEO_ENCODERS)) {
			/* a data-centre GPU without RT cores or encoders says so */
			cell_number(c, 0, plain(T(t, N_("None"))));
		} else {
			cell_number(c, v.number, field_text(t, m, cc, v.number));
		}
		break;
	case CATALOG_VALUE_TEXT:
		if (v.text == NULL) {
			cell_unknown(t, c, T(t, N_("Not published")));
		} else {
			c->raw = VIEW_RAW_TEXT;
			c->text = v.text;
			c->display = v.text;
		}
		break;
	case CATALOG_VALUE_BOOL:
		c->raw = VIEW_RAW_BOOL;
		c->flag = v.flag;
		c->display = v.flag ? T(t, N_("Yes")) : T(t, N_("No"));
		break;
	}
}

static enum fit_method precision_method(enum catalog_precision p)
{
	switch (p) {
	case CATALOG_PREC_FP16: return FIT_INFER_FP16;
	case CATALOG_PREC_FP8: return FIT_INFER_FP8;
	case CATALOG_PREC_INT8: return FIT_INFER_INT8;
	case CATALOG_PREC_INT4: return FIT_INFER_INT4;
	}
	return FIT_INFER_FP16;
}

/* Decode tokens/s of the column's preset at its precision on ONE GPU, with
 * the calculator's default context and batch; "does not fit" when the model
 * and its KV cache exceed the GPU. */
static void fill_decode(const struct view_table *t, struct view_memo *m, struct view_cell *c,
			const struct catalog_column *cc, const struct catalog_gpu *g)
{
	struct fit_job job;
	struct fit_breakdown mem;
	double tps;

	if (cc->model == NULL || !catalog_known(g->memory_gb)) {
		cell_unknown(t, c, NULL);
		return;
	}
	fit_job_defaults(&job);
	view_job_use_preset(&job, cc->model);
	job.method = precision_method(cc->precision);
	job.gpus = 1;
	fit_memory(&job, 1, &mem);
	if (!(mem.total <= g->memory_gb)) {
		cell_unknown(t, c, T(t, N_("Does not fit")));
		c->flags |= VIEW_CELL_NOFIT;
		return;
	}
	tps = fit_decode_tokens_s(&job, g->bandwidth_gbs, NAN, 1);
	if (!isfinite(tps)) {
		cell_unknown(t, c, T(t, N_("Not published")));
		return;
	}
	cell_number(c, tps, count_text(t, m, tps));
}

static void fill_money(const struct view_table *t, struct view_memo *m, struct view_cell *c,
		       int64_t cents)
{
	if (cents < 0) {
		cell_unknown(t, c, NULL);
	} else {
		c->raw = VIEW_RAW_CENTS;
		c->cents = cents;
		struct view_memo_text s;
		if (!view_memo_find(m, (uint64_t)cents, &s))
			s = view_memo_put(m, (uint64_t)cents, i18n_fmt_money(t->lang, cents, "USD"));
		c->display = s.text;
		c->width = s.width;
	}
	if (t->stale)
		c->flags |= VIEW_CELL_STALE;
}

/* Words in a money column (a cell of no price): a static message, or a
 * count of units kept in the column's memo under a key no price has. */
static void cell_words(const struct view_table *t, struct view_cell *c, const char *words)
{
	cell_unknown(t, c, words);
	if (t->stale)
		c->flags |= VIEW_CELL_STALE;
}

static const char *units_words(const struct view_table *t, struct view_memo *m, int64_t have,
			       const struct view_job_need *n)
{
	uint64_t key = (UINT64_C(1) << 63) | ((uint64_t)(have & 0xffffff) << 24) |
		       ((uint64_t)n->nodes & 0xfffff) << 4 | (uint64_t)(n->node_gpus & 0xf);
	struct view_memo_text s;

	if (view_memo_find(m, key, &s))
		return s.text;
	if (n->node_gpus <= 1)
		/* TRANSLATORS: a job needs more GPUs than the book offers: "only 3 of 4 GPUs" */
		return view_memo_put(m, key, xasprintf(T(t, N_("only %lld of %d GPUs")),
						       (long long)have, n->nodes)).text;
	/* TRANSLATORS: a job needs more machines than the book offers: "only 1 of 3 nodes" */
	return view_memo_put(m, key, xasprintf(T(t, N_("only %lld of %d nodes")), (long long)have,
					       n->nodes)).text;
}

/* "no node of 8", "no GPU offered": a book without the job's units. */
static const char *empty_words(const struct view_table *t, struct view_memo *m,
			       const struct view_job_need *n)
{
	uint64_t key = (UINT64_C(1) << 62) | (uint64_t)(n->node_gpus & 0xf) | (n->link ? 16u : 0u) |
		       ((uint64_t)n->interconnect << 8);
	struct view_memo_text s;

	if (n->node_gpus <= 1)
		return T(t, N_("no GPU offered"));
	if (view_memo_find(m, key, &s))
		return s.text;
	if (n->link)
		/* TRANSLATORS: the book has no machine the job's units need: "no node of 8 (NVLink)" */
		return view_memo_put(m, key, xasprintf(T(t, N_("no node of %d (%s)")), n->node_gpus,
						       view_link_name(t->lang, n->interconnect))).text;
	/* TRANSLATORS: the book has no machine of the size the job needs: "no node of 4" */
	return view_memo_put(m, key, xasprintf(T(t, N_("no node of %d")), n->node_gpus)).text;
}

/* A price the book holds but not yet known here: "…" while an exchange
 * with lots is asked for the ladder that says it; "—" with no quote at all. */
static const char *asking(const struct view_table *t, const struct view_row *r)
{
	if (!r->supply.n8_known && r->cap.unit_cents < 0)
		return NULL;
	return t->ascii ? "..." : "\u2026";
}

/* The price column with a job: the cheapest unit that runs it. */
static void fill_job_price(const struct view_table *t, struct view_memo *m, struct view_cell *c,
			   const struct view_row *r)
{
	const struct view_job_price *p = &r->cap;

	switch (p->state) {
	case VIEW_CAP_OK:
	case VIEW_CAP_SHORT:
		fill_money(t, m, c, p->unit_cents);
		break;
	case VIEW_CAP_EMPTY:
		cell_words(t, c, empty_words(t, m, &p->need));
		break;
	case VIEW_CAP_UNKNOWN:
		if (p->unit_cents >= 0)
			fill_money(t, m, c, p->unit_cents);
		else
			cell_words(t, c, asking(t, r));
		break;
	case VIEW_CAP_NONE:
		cell_words(t, c, NULL);
		break;
	}
}

/* The job's cost per hour: every unit it takes, or why there is none. */
static void fill_job_cost(const struct view_table *t, struct view_memo *m, struct view_cell *c,
			  const struct view_row *r)
{
	const struct view_job_price *p = &r->cap;

	switch (p->state) {
	case VIEW_CAP_OK:
		fill_money(t, m, c, p->hourly_cents);
		break;
	case VIEW_CAP_SHORT:
		cell_words(t, c, units_words(t, m, p->units_have, &p->need));
		break;
	case VIEW_CAP_EMPTY:
		cell_words(t, c, empty_words(t, m, &p->need));
		break;
	case VIEW_CAP_UNKNOWN:
		cell_words(t, c, asking(t, r));
		break;
	case VIEW_CAP_NONE:
		cell_words(t, c, NULL);
		break;
	}
}

static void fill_job(const struct view_table *t, struct view_memo *m, struct view_cell *c,
		     enum view_col_kind kind, const struct view_row *r)
{
	const struct fit_result *j = &r->job;

	switch (kind) {
	case VIEW_COL_JOB_MEM: /* per GPU at the count it runs on (N) */
		if (isfinite(j->mem.total))
			cell_number(c, j->mem.total, gb_text(t, m, j->mem.total));
		else
			cell_unknown(t, c, NULL);
		break;
	case VIEW_COL_JOB_AVAIL:
		if (isfinite(j->available_gb))
			cell_number(c, j->available_gb, gb_text(t, m, j->available_gb));
		else
			cell_unknown(t, c, T(t, N_("Not published")));
		break;
	case VIEW_COL_JOB_FITS:
		if (j->fits < 0) {
			cell_unknown(t, c, NULL);
		} else {
			c->raw = VIEW_RAW_BOOL;
			c->flag = j->fits == 1;
			if (t->ascii)
				c->display = c->flag ? T(t, N_("yes")) : T(t, N_("no"));
			else
				c->display = c->flag ? "\u2713" : "\u2717";
		}
		break;
	case VIEW_COL_JOB_GPUS:
		if (j->gpus_needed > 0)
			cell_number(c, j->gpus_needed, count_text(t, m, j->gpus_needed));
		else if (j->gpus_needed == 0)
			/* no count of this GPU holds it (unsharded states too big) */
			cell_unknown(t, c, T(t, N_("Too big")));
		else
			cell_unknown(t, c, NULL);
		break;
	case VIEW_COL_JOB_COST:
		fill_job_cost(t, m, c, r);
		break;
	default:
		break;
	}
	if (j->fits == 1)
		c->flags |= VIEW_CELL_FITS;
	else if (j->fits == 0)
		c->flags |= VIEW_CELL_NOFIT;
}

/* Fill a cell from nothing (what it held is not read). */
static void fill_fresh_cell(const struct view_table *t, struct view_row *r, size_t col)
{
	const struct view_column *vc = &t->columns[col];
	struct view_memo *m = &t->memo[col];
	struct view_cell *c = &r->cells[col];

	cell_clear(c);
	c->align = vc->align;
	switch (vc->kind) {
	case VIEW_COL_GPU:
		c->raw = VIEW_RAW_TEXT;
		c->text = r->gpu->name;
		c->display = r->gpu->name;
		c->detail = view_gpu_detail_ref(r->gpu);
		break;
	case VIEW_COL_FIELD:
		fill_field(t, m, c, vc->source, r->gpu);
		break;
	case VIEW_COL_CAPACITY: {
		long b = fit_capacity_prudent(r->gpu->memory_gb, vc->source->bytes_per_param,
					      vc->source->gpus);
		if (b < 0)
			cell_unknown(t, c, T(t, N_("Not published")));
		else
			cell_number(c, (double)b, billions_text(t, m, b));
		break;
	}
	case VIEW_COL_DECODE:
		fill_decode(t, m, c, vc->source, r->gpu);
		break;
	case VIEW_COL_PRICE:
		if (r->has_job) {
			fill_job_price(t, m, c, r);
			if (r->job.fits == 1)
				c->flags |= VIEW_CELL_FITS;
		} else {
			fill_money(t, m, c, r->price_cents);
		}
		break;
	default:
		if (view_market_kind(vc->kind))
			view_market_fill(t, m, c, vc->kind, r);
		else if (r->has_job)
			fill_job(t, m, c, vc->kind, r);
		else
			cell_unknown(t, c, NULL);
		break;
	}
	if (c->width != 0)
		return;          /* a text of the memo, measured once */
	if (c->display != m->last_text) {
		m->last_text = c->display;
		m->last_width = (unsigned)view_text_width(c->display);
	}
	c->width = m->last_width;
}

static void fill_cell(const struct view_table *t, struct view_row *r, size_t col)
{
	struct view_cell *c = &r->cells[col];
	unsigned keep = c->flags & (VIEW_CELL_CHANGED | VIEW_CELL_UP | VIEW_CELL_DOWN);

	fill_fresh_cell(t, r, col);
	c->flags |= keep;
}

void view_refill_cell(const struct view_table *t, struct view_row *r, size_t col)
{
	fill_cell(t, r, col);
}

static void evaluate_row(const struct view_table *t, struct view_row *r)
{
	struct view_job_need need;
	struct fit_gpu fg;

	r->has_job = t->has_job;
	r->flags &= ~(unsigned)VIEW_ROW_DIMMED;
	memset(&r->cap, 0, sizeof r->cap);
	r->cap.unit_cents = r->cap.hourly_cents = r->cap.worst_cents = -1;
	if (!t->has_job)
		return;
	view_fit_gpu(r->gpu, r->price_cents, &fg);
	fit_evaluate(&t->job, &fg, &r->job);
	if (r->job.fits != 1)
		r->flags |= VIEW_ROW_DIMMED;
	/* the cost of what runs it: its units, not single GPUs at the best ask */
	view_job_need_of(&r->job, &need);
	view_job_price_of(&need, r->price_cents, &r->supply, &r->cap);
	r->job.hourly_cents = r->cap.state == VIEW_CAP_OK ? r->cap.hourly_cents : -1;
	r->job.run_cents = -1;
	if (r->job.hourly_cents >= 0 && isfinite(r->job.train_hours) && r->job.train_hours >= 0 &&
	    r->job.train_hours <= 1e12) {
		int64_t h = (int64_t)ceil(r->job.train_hours - 1e-9);
		if (h >= 0 && (h == 0 || r->job.hourly_cents <= INT64_MAX / h))
			r->job.run_cents = r->job.hourly_cents * h;
	}
}

/* Each column's width: the widest of its header and its cells. */
static void widths_reset(struct view_table *t, bool only_priced)
{
	for (size_t k = 0; k < t->n_columns; k++) {
		struct view_column *vc = &t->columns[k];
		if (!only_priced || vc->kind == VIEW_COL_PRICE || vc->kind == VIEW_COL_JOB_COST)
			vc->width = view_text_width(vc->label);
	}
}

static void width_add(struct view_table *t, size_t k, const struct view_cell *c)
{
	if (c->width > t->columns[k].width)
		t->columns[k].width = c->width;
}

/* Every row's cells, in one block the rows point into. */
static void fill_all(struct view_table *t)
{
	size_t i, k;

	free(t->cell_block);
	/* each cell is cleared as it is filled, in cache: no zeroing pass */
	t->cell_block = xreallocarray(NULL, t->n_rows * t->n_columns + 1, sizeof *t->cell_block);
	widths_reset(t, false);
	for (i = 0; i < t->n_rows; i++) {
		struct view_row *r = &t->rows[i];
		r->cells = t->cell_block + i * t->n_columns;
		evaluate_row(t, r);
		for (k = 0; k < t->n_columns; k++) {
			fill_fresh_cell(t, r, k);
			width_add(t, k, &r->cells[k]);
		}
	}
}

static void free_cells(struct view_table *t)
{
	for (size_t i = 0; i < t->n_rows; i++)
		t->rows[i].cells = NULL;
	free(t->cell_block);
	t->cell_block = NULL;
}

/* The prices of a snapshot by GPU id: an open-addressing table of the first
 * item of each id (a snapshot lists a GPU once; if twice, the first wins). */
struct price_index {
	const struct view_prices *p;
	size_t *slot;   /* item index + 1; 0 = empty */
	size_t mask;
};

static size_t id_hash(const char *s)
{
	size_t h = 1469598103934665603u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

static void price_index_build(struct price_index *x, const struct view_prices *p)
{
	size_t cap = 16;

	memset(x, 0, sizeof *x);
	if (p == NULL || p->n == 0)
		return;
	while (cap < 2 * p->n)
		cap *= 2;
	x->p = p;
	x->mask = cap - 1;
	x->slot = xcalloc(cap, sizeof *x->slot);
	for (size_t i = 0; i < p->n; i++) {
		const char *id = p->items[i].gpu_id;
		size_t h;
		if (id == NULL)
			continue;
		for (h = id_hash(id) & x->mask; x->slot[h] != 0; h = (h + 1) & x->mask)
			if (strcmp(p->items[x->slot[h] - 1].gpu_id, id) == 0)
				break;
		if (x->slot[h] == 0)
			x->slot[h] = i + 1;
	}
}

static const struct view_price *price_item(const struct price_index *x, const char *gpu_id)
{
	if (x->slot == NULL)
		return NULL;
	for (size_t h = id_hash(gpu_id) & x->mask; x->slot[h] != 0; h = (h + 1) & x->mask) {
		const struct view_price *it = &x->p->items[x->slot[h] - 1];
		if (strcmp(it->gpu_id, gpu_id) == 0)
			return it;
	}
	return NULL;
}

/* The row's best ask and supply from the snapshot (its ladder copied);
 * a GPU the snapshot does not list has none. */
static void take_price(struct view_row *r, const struct price_index *x)
{
	const struct view_price *it = price_item(x, r->gpu->id);
	struct view_unit_level *lad = NULL;

	free((void *)r->supply.ladder);
	memset(&r->supply, 0, sizeof r->supply);
	r->price_cents = it != NULL && it->cents >= 0 ? it->cents : -1;
	if (it == NULL)
		return;
	r->supply = it->supply;
	r->supply.ladder = NULL;
	r->supply.n_ladder = 0;
	if (it->supply.ladder_node_gpus > 0 && it->supply.n_ladder > 0) {
		lad = xreallocarray(NULL, it->supply.n_ladder, sizeof *lad);
		memcpy(lad, it->supply.ladder, it->supply.n_ladder * sizeof *lad);
		r->supply.ladder = lad;
		r->supply.n_ladder = it->supply.n_ladder;
	}
}

/* ---- sorting and filtering ------------------------------------------------------- */

static void apply_filter(struct view_table *t)
{
	size_t i;

	if ((t->filter == NULL || t->filter[0] == '\0') && t->pinned == NULL && t->n_shown == t->n_rows) {
		/* nothing was hidden and nothing is: every row, in order */
		for (i = 0; i < t->n_rows; i++)
			t->shown[i] = i;
		return;
	}
	t->n_shown = 0;
	for (i = 0; i < t->n_rows; i++) {
		struct view_row *r = &t->rows[i];
		if (view_filter_match(t->filter_expr, t, r))
			r->flags &= ~(unsigned)VIEW_ROW_HIDDEN;
		else
			r->flags |= VIEW_ROW_HIDDEN;
	}
	/* the pinned first (a pass over them), then the rest */
	for (int pass = t->pinned != NULL ? 0 : 1; pass < 2; pass++)
		for (i = 0; i < t->n_rows; i++) {
			const struct view_row *r = &t->rows[i];
			bool pin = t->pinned != NULL && t->pinned[r->gpu - t->catalog->gpus];
			if (!(r->flags & VIEW_ROW_HIDDEN) && (pass == 0) == pin)
				t->shown[t->n_shown++] = i;
		}
}

void view_set_pinned(struct view_table *t, char *const *ids, size_t n)
{
	free(t->pinned);
	t->pinned = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct catalog_gpu *g = catalog_gpu(t->catalog, ids[i]);
		if (g == NULL)
			continue;
		if (t->pinned == NULL)
			t->pinned = xcalloc(t->catalog->n_gpus, sizeof *t->pinned);
		t->pinned[g - t->catalog->gpus] = true;
	}
	t->n_shown = 0; /* the order is made again whole */
	apply_filter(t);
}

static void apply_sort(struct view_table *t)
{
	view_sort_rows(t);
	apply_filter(t);
}

void view_resort(struct view_table *t)
{
	apply_sort(t);
}

void view_sort(struct view_table *t, int col, bool desc)
{
	t->sort_cheapest = false;
	t->sort_col = col >= 0 && (size_t)col < t->n_columns ? col : -1;
	t->sort_desc = t->sort_col >= 0 && desc;
	apply_sort(t);
}

void view_sort_cheapest(struct view_table *t)
{
	t->sort_col = -1;
	t->sort_desc = false;
	t->sort_cheapest = t->has_job;
	apply_sort(t);
}

int view_filter_set(struct view_table *t, const char *text, char **cause)
{
	struct view_filter_expr *e = NULL;

	if (text != NULL && text[0] != '\0' && view_filter_parse(t, text, &e, cause) != 0)
		return -1;
	view_filter_expr_free(&t->filter_expr);
	t->filter_expr = e;
	free(t->filter);
	t->filter = e != NULL ? xstrdup(text) : NULL;
	apply_filter(t);
	return 0;
}

void view_filter(struct view_table *t, const char *text)
{
	char *cause = NULL;

	if (view_filter_set(t, text, &cause) != 0)
		free(cause);
}

int view_column_index(const struct view_table *t, const char *id)
{
	size_t k;

	for (k = 0; id != NULL && k < t->n_columns; k++)
		if (strcmp(t->columns[k].id, id) == 0)
			return (int)k;
	return -1;
}

int view_find(const struct view_table *t, const char *gpu_id)
{
	size_t i;

	for (i = 0; gpu_id != NULL && i < t->n_shown; i++)
		if (strcmp(t->rows[t->shown[i]].gpu->id, gpu_id) == 0)
			return (int)i;
	return -1;
}

const struct view_row *view_shown_row(const struct view_table *t, size_t i)
{
	return i < t->n_shown ? &t->rows[t->shown[i]] : NULL;
}

char *view_count_text(const struct view_table *t)
{
	/* TRANSLATORS: rows of the GPU table left by the filter, e.g. "3 of 15 shown" */
	return xasprintf(T(t, N_("%zu of %zu shown")), t->n_shown, t->n_rows);
}

/* ---- life cycle ---------------------------------------------------------------------- */

struct view_table *view_new(const struct catalog *c, const struct catalog_workload *w,
			    const struct view_prices *prices, const struct fit_job *job,
			    enum i18n_lang lang, bool ascii)
{
	struct view_table *t = xcalloc(1, sizeof *t);
	struct price_index px;
	size_t i;

	t->catalog = c;
	t->workload = w;
	t->lang = lang;
	t->ascii = ascii;
	t->sort_col = -1;
	t->has_job = job != NULL;
	if (job != NULL)
		t->job = *job;
	t->stale = prices != NULL && prices->stale;
	t->n_rows = w != NULL ? w->n_gpus : c->n_gpus;
	t->rows = xcalloc(t->n_rows, sizeof *t->rows);
	t->shown = xcalloc(t->n_rows, sizeof *t->shown);
	price_index_build(&px, prices);
	for (i = 0; i < t->n_rows; i++) {
		struct view_row *r = &t->rows[i];
		r->gpu = w != NULL ? w->gpus[i] : &c->gpus[i];
		r->seq = i;
		take_price(r, &px);
		r->bid_cents = r->last_cents = -1;
	}
	free(px.slot);
	build_columns(t);
	fill_all(t);
	t->n_shown = t->n_rows; /* no row is hidden yet */
	apply_filter(t);
	view_sort_prepare(t);
	return t;
}

void view_free(struct view_table **tp)
{
	struct view_table *t = tp != NULL ? *tp : NULL;

	if (t == NULL)
		return;
	free_cells(t);
	free_columns(t);
	view_sort_free(t);
	view_filter_expr_free(&t->filter_expr);
	free(t->pinned);
	for (size_t i = 0; i < t->n_rows; i++) {
		free(t->rows[i].spark);
		free((void *)t->rows[i].supply.ladder);
	}
	free(t->rows);
	free(t->shown);
	free(t->filter);
	free(t);
	*tp = NULL;
}

/* What the price column shows of a row: the best ask, or with a job the
 * cheapest unit that runs it (-1 none). */
static int64_t shown_price(const struct view_row *r)
{
	if (!r->has_job)
		return r->price_cents;
	return r->cap.state == VIEW_CAP_OK || r->cap.state == VIEW_CAP_SHORT ||
			       r->cap.state == VIEW_CAP_UNKNOWN
		       ? r->cap.unit_cents
		       : -1;
}

size_t view_set_prices(struct view_table *t, const struct view_prices *prices)
{
	struct price_index px;
	size_t i, k, changed = 0;

	t->stale = prices != NULL && prices->stale;
	price_index_build(&px, prices);
	widths_reset(t, true);
	/* every price and cost cell is refilled below: a memo that grew with
	 * prices seen long ago starts again */
	for (k = 0; k < t->n_columns; k++)
		if ((t->columns[k].kind == VIEW_COL_PRICE || t->columns[k].kind == VIEW_COL_JOB_COST) &&
		    t->memo[k].n > 2 * t->n_rows + 64)
			view_memo_clear(&t->memo[k]);
	for (i = 0; i < t->n_rows; i++) {
		struct view_row *r = &t->rows[i];
		int64_t old = shown_price(r), old_cost = r->has_job ? r->job.hourly_cents : -1;
		unsigned old_cost_state = r->cap.state, old_have = (unsigned)r->cap.units_have;
		int64_t now, now_cost;

		take_price(r, &px);
		evaluate_row(t, r);
		now = shown_price(r);
		now_cost = r->has_job ? r->job.hourly_cents : -1;
		if (r->has_job && (r->cap.state != old_cost_state ||
				   (unsigned)r->cap.units_have != old_have) && old_cost == now_cost)
			old_cost = -2; /* the words changed: refilled and flashed */
		for (k = 0; k < t->n_columns; k++) {
			enum view_col_kind kind = t->columns[k].kind;
			int64_t a = kind == VIEW_COL_PRICE ? old : old_cost;
			int64_t b = kind == VIEW_COL_PRICE ? now : now_cost;
			struct view_cell *c = &r->cells[k];

			if (kind == VIEW_COL_SPREAD) {
				int64_t was = c->raw == VIEW_RAW_CENTS ? c->cents : -1;
				fill_cell(t, r, k);
				c->flags &= ~(unsigned)(VIEW_CELL_CHANGED | VIEW_CELL_UP | VIEW_CELL_DOWN);
				if ((c->raw == VIEW_RAW_CENTS ? c->cents : -1) != was) {
					changed++;
					c->flags |= VIEW_CELL_CHANGED;
				}
				width_add(t, k, c);
				continue;
			}
			if (kind != VIEW_COL_PRICE && kind != VIEW_COL_JOB_COST)
				continue; /* nothing else depends on the price */
			c->flags &= ~(unsigned)(VIEW_CELL_CHANGED | VIEW_CELL_UP | VIEW_CELL_DOWN);
			if (a != b) {
				changed++;
				c->flags |= VIEW_CELL_CHANGED;
				if (a >= 0 && b >= 0)
					c->flags |= b > a ? VIEW_CELL_UP : VIEW_CELL_DOWN;
			}
			fill_cell(t, r, k);
			width_add(t, k, c);
		}
	}
	free(px.slot);
	apply_sort(t);
	return changed;
}

void view_set_job(struct view_table *t, const struct fit_job *job)
{
	t->has_job = job != NULL;
	if (job != NULL)
		t->job = *job;
	else
		memset(&t->job, 0, sizeof t->job);
	if (!t->has_job)
		t->sort_cheapest = false;
	for (size_t i = 0; i < t->n_rows; i++)
		t->rows[i].flags &= ~(unsigned)VIEW_ROW_DIMMED;
	view_rebuild_columns(t);
}

void view_rebuild_columns(struct view_table *t)
{
	char *sort_id = t->sort_col >= 0 ? xstrdup(t->columns[t->sort_col].id) : NULL;

	free_cells(t);
	free_columns(t);
	build_columns(t);
	fill_all(t);
	t->sort_col = view_column_index(t, sort_id);
	if (t->sort_col < 0)
		t->sort_desc = false;
	free(sort_id);
	apply_sort(t);
}
