/*
 * The table model: columns from the catalogue (plus the "your model" columns
 * of a fit job), one row per GPU, each cell computed once from its inputs
 * (catalogue figure, seed-table rule, fit model, best ask) into a raw value
 * and a display text. Every change of input (prices, job) recomputes the
 * affected cells and re-applies the sort and the filter, which are kept as
 * state; nothing here draws.
 *
 * Sorting orders the whole row array with qsort_r on a key per cell (number,
 * text or unknown); the comparison is total (unknown last, then GPU name,
 * then GPU id), so equal inputs always give the same order. The filter keeps
 * an index of the rows that pass it, in sort order.
 */
#include "view/view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

#define T(t, msgid) i18n_dgettext((t)->lang, NULL, (msgid))

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
	{"job_fits", N_("Fits"), VIEW_COL_JOB_FITS, VIEW_CENTER},
	{"job_gpus", N_("GPUs needed"), VIEW_COL_JOB_GPUS, VIEW_RIGHT},
	{"job_cost", N_("Job/h"), VIEW_COL_JOB_COST, VIEW_RIGHT},
};
#define N_JOB_COLUMNS (sizeof job_columns / sizeof job_columns[0])

/* ---- small helpers ------------------------------------------------------------ */

static const char *dash(const struct view_table *t)
{
	return t->ascii ? "-" : "\u2014";
}

static void cell_clear(struct view_cell *c)
{
	free(c->display);
	free(c->detail);
	memset(c, 0, sizeof *c);
}

static void cell_unknown(const struct view_table *t, struct view_cell *c, const char *display)
{
	c->raw = VIEW_RAW_NONE;
	c->display = xstrdup(display != NULL ? display : dash(t));
	c->flags |= VIEW_CELL_UNKNOWN;
}

static void cell_number(struct view_cell *c, double v, char *display_take)
{
	c->raw = VIEW_RAW_NUMBER;
	c->number = v;
	c->display = display_take;
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
	if (!catalog_known(out->link_gbs) && g->interconnect != NULL)
		out->link_gbs = strncmp(g->interconnect, "PCIe 5", 6) == 0   ? 128.0
				: strncmp(g->interconnect, "PCIe 4", 6) == 0 ? 64.0
									     : NAN;
	out->price_cents = price_cents >= 0 ? price_cents : -1;
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
		break;
	}
}

static void build_columns(struct view_table *t)
{
	const struct catalog_column *src = t->workload != NULL ? t->workload->columns : all_gpu_columns;
	size_t n_src = t->workload != NULL ? t->workload->n_columns
					   : sizeof all_gpu_columns / sizeof all_gpu_columns[0];
	size_t n = n_src + (t->has_job ? N_JOB_COLUMNS : 0);
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
				vc->label = xstrdup(T(t, job_columns[j].label));
				vc->kind = job_columns[j].kind;
				vc->numeric = true;
				vc->align = job_columns[j].align;
			}
		}
	}
	t->n_columns = k;
}

static void free_columns(struct view_table *t)
{
	size_t i;

	for (i = 0; i < t->n_columns; i++) {
		free(t->columns[i].id);
		free(t->columns[i].label);
	}
	free(t->columns);
	t->columns = NULL;
	t->n_columns = 0;
}

/* ---- cells -------------------------------------------------------------------------- */

static void fill_field(const struct view_table *t, struct view_cell *c,
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
			cell_number(c, 0, xstrdup(T(t, N_("None"))));
		} else if (cc->unit != CATALOG_UNIT_NONE) {
			cell_number(c, v.number, i18n_fmt_unit(t->lang, v.number, cc->decimals,
							       catalog_unit_name(cc->unit)));
		} else {
			cell_number(c, v.number, i18n_fmt_number(t->lang, v.number, cc->decimals));
		}
		break;
	case CATALOG_VALUE_TEXT:
		if (v.text == NULL) {
			cell_unknown(t, c, T(t, N_("Not published")));
		} else {
			c->raw = VIEW_RAW_TEXT;
			c->text = v.text;
			c->display = xstrdup(v.text);
		}
		break;
	case CATALOG_VALUE_BOOL:
		c->raw = VIEW_RAW_BOOL;
		c->flag = v.flag;
		c->display = xstrdup(v.flag ? T(t, N_("Yes")) : T(t, N_("No")));
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
static void fill_decode(const struct view_table *t, struct view_cell *c,
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
	cell_number(c, tps, i18n_fmt_number(t->lang, tps, 0));
}

static void fill_money(const struct view_table *t, struct view_cell *c, int64_t cents)
{
	if (cents < 0) {
		cell_unknown(t, c, NULL);
	} else {
		c->raw = VIEW_RAW_CENTS;
		c->cents = cents;
		c->display = i18n_fmt_money(t->lang, cents, "USD");
	}
	if (t->stale)
		c->flags |= VIEW_CELL_STALE;
}

static void fill_job(const struct view_table *t, struct view_cell *c, enum view_col_kind kind,
		     const struct view_row *r)
{
	const struct fit_result *j = &r->job;

	switch (kind) {
	case VIEW_COL_JOB_MEM: /* per GPU at the count it runs on (N) */
		if (isfinite(j->mem.total))
			cell_number(c, j->mem.total, view_fmt_gb(t->lang, j->mem.total));
		else
			cell_unknown(t, c, NULL);
		break;
	case VIEW_COL_JOB_AVAIL:
		if (isfinite(j->available_gb))
			cell_number(c, j->available_gb, view_fmt_gb(t->lang, j->available_gb));
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
				c->display = xstrdup(c->flag ? T(t, N_("yes")) : T(t, N_("no")));
			else
				c->display = xstrdup(c->flag ? "\u2713" : "\u2717");
		}
		break;
	case VIEW_COL_JOB_GPUS:
		if (j->gpus_needed > 0)
			cell_number(c, j->gpus_needed, i18n_fmt_number(t->lang, j->gpus_needed, 0));
		else if (j->gpus_needed == 0)
			/* no count of this GPU holds it (unsharded states too big) */
			cell_unknown(t, c, T(t, N_("Too big")));
		else
			cell_unknown(t, c, NULL);
		break;
	case VIEW_COL_JOB_COST:
		fill_money(t, c, j->gpus_run > 0 ? j->hourly_cents : -1);
		break;
	default:
		break;
	}
	if (j->fits == 1)
		c->flags |= VIEW_CELL_FITS;
	else if (j->fits == 0)
		c->flags |= VIEW_CELL_NOFIT;
}

static void fill_cell(const struct view_table *t, struct view_row *r, size_t col)
{
	const struct view_column *vc = &t->columns[col];
	struct view_cell *c = &r->cells[col];
	unsigned keep = c->flags & (VIEW_CELL_CHANGED | VIEW_CELL_UP | VIEW_CELL_DOWN);

	cell_clear(c);
	c->align = vc->align;
	switch (vc->kind) {
	case VIEW_COL_GPU:
		c->raw = VIEW_RAW_TEXT;
		c->text = r->gpu->name;
		c->display = xstrdup(r->gpu->name);
		c->detail = view_gpu_detail(r->gpu);
		break;
	case VIEW_COL_FIELD:
		fill_field(t, c, vc->source, r->gpu);
		break;
	case VIEW_COL_CAPACITY: {
		long b = fit_capacity_prudent(r->gpu->memory_gb, vc->source->bytes_per_param,
					      vc->source->gpus);
		if (b < 0)
			cell_unknown(t, c, T(t, N_("Not published")));
		else
			cell_number(c, (double)b, i18n_fmt_billions(t->lang, b, t->ascii));
		break;
	}
	case VIEW_COL_DECODE:
		fill_decode(t, c, vc->source, r->gpu);
		break;
	case VIEW_COL_PRICE:
		fill_money(t, c, r->price_cents);
		break;
	default:
		if (r->has_job)
			fill_job(t, c, vc->kind, r);
		else
			cell_unknown(t, c, NULL);
		break;
	}
	c->flags |= keep;
}

static void evaluate_row(const struct view_table *t, struct view_row *r)
{
	struct fit_gpu fg;

	r->has_job = t->has_job;
	r->flags &= ~(unsigned)VIEW_ROW_DIMMED;
	if (!t->has_job)
		return;
	view_fit_gpu(r->gpu, r->price_cents, &fg);
	fit_evaluate(&t->job, &fg, &r->job);
	if (r->job.fits != 1)
		r->flags |= VIEW_ROW_DIMMED;
}

static void measure(struct view_table *t)
{
	size_t i, k;

	for (k = 0; k < t->n_columns; k++) {
		size_t w = view_text_width(t->columns[k].label);
		for (i = 0; i < t->n_rows; i++) {
			size_t cw = view_text_width(t->rows[i].cells[k].display);
			if (cw > w)
				w = cw;
		}
		t->columns[k].width = w;
	}
}

static void fill_all(struct view_table *t)
{
	size_t i, k;

	for (i = 0; i < t->n_rows; i++) {
		struct view_row *r = &t->rows[i];
		free(r->cells);
		r->cells = xcalloc(t->n_columns, sizeof *r->cells);
		evaluate_row(t, r);
		for (k = 0; k < t->n_columns; k++)
			fill_cell(t, r, k);
	}
	measure(t);
}

static void free_cells(struct view_table *t)
{
	size_t i, k;

	for (i = 0; i < t->n_rows; i++) {
		for (k = 0; k < t->n_columns && t->rows[i].cells != NULL; k++)
			cell_clear(&t->rows[i].cells[k]);
		free(t->rows[i].cells);
		t->rows[i].cells = NULL;
	}
}

static int64_t price_of(const struct view_prices *p, const char *gpu_id)
{
	size_t i;

	if (p == NULL)
		return -1;
	for (i = 0; i < p->n; i++)
		if (p->items[i].gpu_id != NULL && strcmp(p->items[i].gpu_id, gpu_id) == 0)
			return p->items[i].cents >= 0 ? p->items[i].cents : -1;
	return -1;
}

/* ---- sorting and filtering ------------------------------------------------------- */

struct sort_key {
	int known;          /* 0 = unknown (last either way) */
	double number;
	const char *text;
};

static struct sort_key key_of(const struct view_table *t, const struct view_row *r, int col)
{
	const struct view_cell *c = &r->cells[col];
	struct sort_key k = {0, 0, NULL};

	switch (c->raw) {
	case VIEW_RAW_NONE:
		return k;
	case VIEW_RAW_NUMBER:
		k.number = c->number;
		break;
	case VIEW_RAW_CENTS:
		k.number = (double)c->cents;
		break;
	case VIEW_RAW_BOOL:
		/* "fits" first when ascending: yes before no */
		k.number = c->flag ? 0 : 1;
		if (t->columns[col].kind == VIEW_COL_FIELD)
			k.number = c->flag ? 1 : 0;
		break;
	case VIEW_RAW_TEXT:
		k.text = c->text != NULL ? c->text : c->display;
		break;
	}
	k.known = 1;
	return k;
}

static int tie_break(const struct view_row *a, const struct view_row *b)
{
	int d = strcasecmp(a->gpu->name, b->gpu->name);

	if (d == 0)
		d = strcmp(a->gpu->name, b->gpu->name);
	if (d == 0)
		d = strcmp(a->gpu->id, b->gpu->id);
	return d;
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct view_table *t = arg;
	const struct view_row *a = pa, *b = pb;
	struct sort_key ka, kb;
	int d = 0;

	if (t->sort_cheapest && t->has_job) {
		/* tier 0: can run, priced; 1: can run, no price; 2: cannot take it */
		int ta = a->job.gpus_run > 0 ? (a->job.hourly_cents >= 0 ? 0 : 1) : 2;
		int tb = b->job.gpus_run > 0 ? (b->job.hourly_cents >= 0 ? 0 : 1) : 2;
		if (ta != tb)
			return ta < tb ? -1 : 1;
		if (ta == 0 && a->job.hourly_cents != b->job.hourly_cents)
			return a->job.hourly_cents < b->job.hourly_cents ? -1 : 1;
		return tie_break(a, b);
	}
	if (t->sort_col < 0 || (size_t)t->sort_col >= t->n_columns)
		return a->seq < b->seq ? -1 : a->seq > b->seq ? 1 : 0;
	ka = key_of(t, a, t->sort_col);
	kb = key_of(t, b, t->sort_col);
	if (ka.known != kb.known)
		return ka.known ? -1 : 1; /* unknown last, whatever the direction */
	if (ka.known) {
		if (ka.text != NULL && kb.text != NULL) {
			d = strcasecmp(ka.text, kb.text);
			if (d == 0)
				d = strcmp(ka.text, kb.text);
		} else if (ka.number != kb.number) {
			d = ka.number < kb.number ? -1 : 1;
		}
		if (t->sort_desc)
			d = -d;
	}
	if (d != 0)
		return d;
	return tie_break(a, b);
}

static bool contains_ci(const char *hay, const char *needle)
{
	return hay != NULL && strcasestr(hay, needle) != NULL;
}

static void apply_filter(struct view_table *t)
{
	size_t i;

	t->n_shown = 0;
	for (i = 0; i < t->n_rows; i++) {
		struct view_row *r = &t->rows[i];
		const char *f = t->filter;
		bool pass = f == NULL || f[0] == '\0' || contains_ci(r->gpu->name, f) ||
			    contains_ci(r->gpu->arch, f) || contains_ci(r->gpu->vendor, f) ||
			    contains_ci(r->gpu->id, f);
		if (pass) {
			r->flags &= ~(unsigned)VIEW_ROW_HIDDEN;
			t->shown[t->n_shown++] = i;
		} else {
			r->flags |= VIEW_ROW_HIDDEN;
		}
	}
}

static void apply_sort(struct view_table *t)
{
	if (t->n_rows > 1)
		qsort_r(t->rows, t->n_rows, sizeof *t->rows, cmp_rows, t);
	apply_filter(t);
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

void view_filter(struct view_table *t, const char *text)
{
	free(t->filter);
	t->filter = text != NULL && text[0] != '\0' ? xstrdup(text) : NULL;
	apply_filter(t);
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
	for (i = 0; i < t->n_rows; i++) {
		struct view_row *r = &t->rows[i];
		r->gpu = w != NULL ? w->gpus[i] : &c->gpus[i];
		r->seq = i;
		r->price_cents = price_of(prices, r->gpu->id);
	}
	build_columns(t);
	fill_all(t);
	apply_filter(t);
	return t;
}

void view_free(struct view_table **tp)
{
	struct view_table *t = tp != NULL ? *tp : NULL;

	if (t == NULL)
		return;
	free_cells(t);
	free_columns(t);
	free(t->rows);
	free(t->shown);
	free(t->filter);
	free(t);
	*tp = NULL;
}

size_t view_set_prices(struct view_table *t, const struct view_prices *prices)
{
	size_t i, k, changed = 0;

	t->stale = prices != NULL && prices->stale;
	for (i = 0; i < t->n_rows; i++) {
		struct view_row *r = &t->rows[i];
		int64_t old = r->price_cents, old_cost = r->has_job ? r->job.hourly_cents : -1;
		int64_t now = price_of(prices, r->gpu->id), now_cost;

		r->price_cents = now;
		evaluate_row(t, r);
		now_cost = r->has_job ? r->job.hourly_cents : -1;
		for (k = 0; k < t->n_columns; k++) {
			enum view_col_kind kind = t->columns[k].kind;
			int64_t a = kind == VIEW_COL_PRICE ? old : old_cost;
			int64_t b = kind == VIEW_COL_PRICE ? now : now_cost;
			struct view_cell *c = &r->cells[k];

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
		}
	}
	measure(t);
	apply_sort(t);
	return changed;
}

void view_set_job(struct view_table *t, const struct fit_job *job)
{
	char *sort_id = t->sort_col >= 0 ? xstrdup(t->columns[t->sort_col].id) : NULL;
	size_t i;

	free_cells(t);
	free_columns(t);
	t->has_job = job != NULL;
	if (job != NULL)
		t->job = *job;
	else
		memset(&t->job, 0, sizeof t->job);
	if (!t->has_job)
		t->sort_cheapest = false;
	for (i = 0; i < t->n_rows; i++)
		t->rows[i].flags &= ~(unsigned)VIEW_ROW_DIMMED;
	build_columns(t);
	fill_all(t);
	t->sort_col = view_column_index(t, sort_id);
	if (t->sort_col < 0)
		t->sort_desc = false;
	free(sort_id);
	apply_sort(t);
}
