/*
 * The fit panel's inputs (see tui/fitform.h): field texts → one struct
 * fit_job, built the way `gpux fit` builds it (cli/cmd_fit.c build_job):
 * fit_job_defaults, the model (a preset through view_job_use_preset, a size
 * through fit_model_from_size), the method (diffusion marks the model as
 * diffusion), then each assumption, then fit_job_check. Nothing here draws.
 *
 * Every field is re-read on every change (sixteen short strings: cheaper
 * than tracking which one changed), so the job is always a function of what
 * is on screen. A field that does not parse keeps its text, gets a reason,
 * and leaves the previous job in place.
 */
#include "tui/fitform.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"
#include "view/view.h"

/* The panel's order of the fields. */
static const enum tui_ff_id order[FF_COUNT] = {
	FF_MODEL, FF_METHOD, FF_SEQ, FF_BATCH, FF_CKPT, FF_GPUS, FF_SHARD, FF_OPT,
	FF_RANK, FF_TOKENS, FF_MFU, FF_BWEFF, FF_RES, FF_FRAMES, FF_OVERHEAD, FF_MARGIN,
};

static const char *const help[FF_COUNT] = {
	[FF_MODEL] = N_("A size in billions (70, 7.5, 1.3T) or words of a preset's name (llama 70)"),
	[FF_METHOD] = N_("\u2190 \u2192 or Space: full training, LoRA, QLoRA, inference FP16/FP8/INT8/INT4, diffusion"),
	[FF_SEQ] = N_("Tokens per sequence; for inference the whole context (prompt and output)"),
	[FF_BATCH] = N_("Micro-batch per GPU; inference: sequences decoded together; diffusion: images"),
	[FF_CKPT] = N_("Gradient checkpointing: recompute activations in the backward pass"),
	[FF_GPUS] = N_("GPUs the job runs on"),
	[FF_SHARD] = N_("How the training states are split across the GPUs (ZeRO stages)"),
	[FF_OPT] = N_("Optimizer state per trained parameter: Adam 12 B, 8-bit Adam 6 B, SGD 8 B"),
	[FF_RANK] = N_("Rank of the LoRA adapters on every linear layer"),
	[FF_TOKENS] = N_("Tokens to train on, in billions (300, 300B, 1.3T)"),
	[FF_MFU] = N_("Model FLOPs utilisation: the share of the GPU's dense BF16 peak a run achieves"),
	[FF_BWEFF] = N_("The share of the peak memory bandwidth that decoding achieves"),
	[FF_RES] = N_("Output resolution in pixels, width \u00d7 height"),
	[FF_FRAMES] = N_("Frames per clip (1 for an image)"),
	[FF_OVERHEAD] = N_("Per GPU: CUDA context, framework and communication buffers"),
	[FF_MARGIN] = N_("Per GPU: allocator fragmentation and temporaries, a share of the rest"),
};

/* ---- small helpers ------------------------------------------------------------ */

static void set_error(struct tui_ff_field *f, const char *translated)
{
	free(f->error);
	f->error = translated != NULL ? xstrdup(translated) : NULL;
}

static char *trimmed(const char *s)
{
	const char *e;

	if (s == NULL)
		s = "";
	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return xstrndup(s, (size_t)(e - s));
}

/* A number as the fields show it: no grouping (a typed "2.048" would be
 * refused), the language's decimal separator, at most 3 decimals. */
static char *plain_number(enum i18n_lang lang, double v)
{
	char *s;
	int d = 0;

	while (d < 3 && fabs(v * pow(10, d) - round(v * pow(10, d))) > 1e-9)
		d++;
	s = xasprintf("%.*f", d, v);
	if (i18n_decimal_sep(lang) != '.') {
		char *p = strchr(s, '.');
		if (p != NULL)
			*p = i18n_decimal_sep(lang);
	}
	return s;
}

int tui_ff_parse_int(const char *s, long min, long max, const char *range_msgid, long *out,
		     char **cause)
{
	char *t = trimmed(s);
	long v = 0;
	const char *p = t;

	if (*p == '\0')
		goto bad;
	for (; *p != '\0'; p++) {
		if (*p < '0' || *p > '9')
			goto bad;
		v = v * 10 + (*p - '0');
		if (v > max)
			goto bad;
	}
	if (v < min)
		goto bad;
	free(t);
	*out = v;
	return 0;
bad:
	free(t);
	return set_cause(cause, "%s", _(range_msgid));
}

/* Strip a trailing unit (case-insensitive) and the spaces before it. */
static void strip_unit(char *t, const char *unit)
{
	size_t n = strlen(t), u = strlen(unit);

	if (n >= u && strcasecmp(t + n - u, unit) == 0) {
		n -= u;
		while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\t'))
			n--;
		t[n] = '\0';
	}
}

/* A decimal typed in the language (no grouping), v in [lo, hi], lo
 * excluded unless lo_incl. */
static int parse_decimal(enum i18n_lang lang, const char *s, const char *unit, double lo,
			 bool lo_incl, double hi, const char *range_msgid, double *out, char **cause)
{
	char *t = trimmed(s), *c = NULL;
	int64_t scaled;
	double v;

	if (unit != NULL)
		strip_unit(t, unit);
	if (i18n_parse_decimal(lang, t, 6, &scaled, &c) != 0) {
		free(c);
		free(t);
		return set_cause(cause, "%s", _(range_msgid));
	}
	free(t);
	v = (double)scaled / 1e6;
	if (v > hi || v < lo || (!lo_incl && v == lo))
		return set_cause(cause, "%s", _(range_msgid));
	*out = v;
	return 0;
}

int tui_ff_parse_percent(enum i18n_lang lang, const char *s, double lo, bool lo_incl, double hi,
			 const char *range_msgid, double *out, char **cause)
{
	double v;

	if (parse_decimal(lang, s, "%", lo, lo_incl, hi, range_msgid, &v, cause) != 0)
		return -1;
	*out = v / 100;
	return 0;
}

/* "1024x1024", "1024 × 1024", "1024*1024". */
static int parse_resolution(const char *s, int *w, int *h, char **cause)
{
	static const char *const msg = N_("resolution must be from 1 to 65536 pixels a side");
	char *t = trimmed(s);
	char *sep = NULL;
	long a, b;
	size_t skip = 1;

	for (char *p = t; *p != '\0' && sep == NULL; p++) {
		if (*p == 'x' || *p == 'X' || *p == '*') {
			sep = p;
		} else if (strncmp(p, "\u00d7", 2) == 0) {
			sep = p;
			skip = 2;
		}
	}
	if (sep == NULL) {
		free(t);
		return set_cause(cause, "%s", _(msg));
	}
	*sep = '\0';
	if (tui_ff_parse_int(t, 1, 65536, msg, &a, cause) != 0 ||
	    tui_ff_parse_int(sep + skip, 1, 65536, msg, &b, cause) != 0) {
		free(t);
		return -1;
	}
	free(t);
	*w = (int)a;
	*h = (int)b;
	return 0;
}

static char *res_text(const struct tui_ff *ff, int w, int h)
{
	return xasprintf("%d%s%d", w, ff->ascii ? "x" : "\u00d7", h);
}

/* ---- field metadata ------------------------------------------------------------- */

enum tui_ff_kind tui_ff_kind(enum tui_ff_id id)
{
	switch (id) {
	case FF_METHOD:
	case FF_SHARD:
	case FF_OPT:
		return FFK_CHOICE;
	case FF_CKPT:
		return FFK_TOGGLE;
	default:
		return FFK_TEXT;
	}
}

enum fit_method tui_ff_method(const struct tui_ff *ff)
{
	return (enum fit_method)ff->f[FF_METHOD].choice;
}

const char *tui_ff_label(const struct tui_ff *ff, enum tui_ff_id id)
{
	enum fit_method m = tui_ff_method(ff);

	switch (id) {
	case FF_MODEL: return N_("Model");
	case FF_METHOD: return N_("Method");
	case FF_SEQ: return fit_method_is_inference(m) ? N_("Context") : N_("Seq length");
	case FF_BATCH:
		if (fit_method_is_inference(m))
			return N_("Sequences");
		return m == FIT_DIFFUSION ? N_("Images") : N_("Micro-batch");
	case FF_CKPT: return N_("Checkpointing");
	case FF_GPUS: return N_("GPUs");
	case FF_SHARD: return N_("Sharding");
	case FF_OPT: return N_("Optimizer");
	case FF_RANK: return N_("LoRA rank");
	case FF_TOKENS: return N_("Tokens");
	case FF_MFU: return N_("MFU");
	case FF_BWEFF: return N_("BW efficiency");
	case FF_RES: return N_("Resolution");
	case FF_FRAMES: return N_("Frames");
	case FF_OVERHEAD: return N_("Overhead");
	case FF_MARGIN: return N_("Margin");
	case FF_COUNT: break;
	}
	return "";
}

const char *tui_ff_unit(enum tui_ff_id id)
{
	switch (id) {
	/* TRANSLATORS: the unit after the tokens field: billions (pt-PT "mil M") */
	case FF_TOKENS: return C_("unit", "B");
	case FF_MFU:
	case FF_BWEFF:
	case FF_MARGIN: return "%";
	case FF_OVERHEAD: return "GB";
	default: return NULL;
	}
}

const char *tui_ff_help(enum tui_ff_id id)
{
	return id < FF_COUNT ? help[id] : "";
}

char *tui_ff_default_text(const struct tui_ff *ff, enum tui_ff_id id)
{
	struct fit_job d;

	fit_job_defaults(&d);
	switch (id) {
	case FF_MODEL: return xstrdup("");
	case FF_METHOD: return xstrdup(_(fit_method_label(d.method)));
	case FF_SEQ: return xasprintf("%d", d.seq_len);
	case FF_BATCH: return xasprintf("%d", d.batch);
	case FF_CKPT: return xstrdup(d.checkpointing ? _("on") : _("off"));
	case FF_GPUS: return xasprintf("%d", d.gpus);
	case FF_SHARD: return xstrdup(_(fit_sharding_label(d.sharding)));
	case FF_OPT: return xstrdup(_(fit_optimizer_label(d.optimizer)));
	case FF_RANK: return xasprintf("%d", d.lora_rank);
	case FF_TOKENS: return plain_number(ff->lang, d.tokens_b);
	case FF_MFU: return plain_number(ff->lang, d.mfu * 100);
	case FF_BWEFF: return plain_number(ff->lang, d.bw_efficiency * 100);
	case FF_RES:
		if (ff->preset != NULL && ff->preset->kind == CATALOG_MODEL_DIFFUSION &&
		    ff->preset->width > 0 && ff->preset->height > 0)
			return res_text(ff, ff->preset->width, ff->preset->height);
		return res_text(ff, d.width, d.height);
	case FF_FRAMES:
		if (ff->preset != NULL && ff->preset->kind == CATALOG_MODEL_DIFFUSION &&
		    ff->preset->frames > 0)
			return xasprintf("%d", ff->preset->frames);
		return xasprintf("%d", d.frames);
	case FF_OVERHEAD: return plain_number(ff->lang, d.overhead_gb);
	case FF_MARGIN: return plain_number(ff->lang, d.margin_fraction * 100);
	case FF_COUNT: break;
	}
	return xstrdup("");
}

bool tui_ff_shown(const struct tui_ff *ff, enum tui_ff_id id)
{
	enum fit_method m = tui_ff_method(ff);
	bool train = fit_method_is_training(m);

	switch (id) {
	case FF_SEQ: return m != FIT_DIFFUSION;
	case FF_CKPT:
	case FF_SHARD:
	case FF_OPT:
	case FF_TOKENS:
	case FF_MFU: return train;
	case FF_RANK: return m == FIT_LORA || m == FIT_QLORA;
	case FF_BWEFF: return fit_method_is_inference(m);
	case FF_RES:
	case FF_FRAMES: return m == FIT_DIFFUSION;
	default: return id < FF_COUNT;
	}
}

size_t tui_ff_visible(const struct tui_ff *ff, enum tui_ff_id *out)
{
	size_t n = 0;

	for (size_t i = 0; i < FF_COUNT; i++)
		if (tui_ff_shown(ff, order[i]))
			out[n++] = order[i];
	return n;
}

const char *tui_ff_choice_text(const struct tui_ff *ff, enum tui_ff_id id)
{
	int c = ff->f[id].choice;

	switch (id) {
	case FF_METHOD: return _(fit_method_label((enum fit_method)c));
	case FF_SHARD: return _(fit_sharding_label((enum fit_sharding)c));
	case FF_OPT: return _(fit_optimizer_label((enum fit_optimizer)c));
	case FF_CKPT: return c ? _("on") : _("off");
	default: return ff->f[id].text;
	}
}

/* ---- the model: a size or a preset search ------------------------------------------ */

static bool preset_exact(const struct catalog_model *m, const char *q)
{
	return strcasecmp(m->name, q) == 0 || strcasecmp(m->id, q) == 0;
}

static void search(struct tui_ff *ff, const char *q)
{
	const struct catalog_model *keep =
		ff->n_matches > 0 ? ff->matches[ff->match_sel] : NULL;
	size_t n;

	free(ff->matches);
	ff->matches = xcalloc(ff->cat->n_models + 1, sizeof *ff->matches);
	n = catalog_search_models(ff->cat, q, ff->matches, ff->cat->n_models);
	ff->n_matches = n;
	ff->match_sel = 0;
	for (size_t i = 0; i < n; i++)
		if (ff->matches[i] == keep)
			ff->match_sel = i;
}

/* Digits, signs, separators and spaces, perhaps ending in a unit letter:
 * meant as a size. */
static bool numeric(const char *q)
{
	size_t n = strlen(q);

	if (n > 0 && strchr("bBmMtT", q[n - 1]) != NULL)
		n--;
	for (size_t i = 0; i < n; i++)
		if (strchr("0123456789.,+- \t", q[i]) == NULL)
			return false;
	return n > 0;
}

/* A size in billions typed in the language: where the decimal separator is
 * a comma, a dot before three digits ("1.000", "1.500") is the thousands
 * separator a reader of that language means, never a decimal point; such a
 * number is refused with a message (fit_parse_size would read 1.5). */
static int parse_size(const struct tui_ff *ff, const char *s, double *b, char **cause)
{
	char sep = i18n_decimal_sep(ff->lang);

	for (const char *p = s; sep != '.' && (p = strchr(p, '.')) != NULL; p++) {
		size_t d = strspn(p + 1, "0123456789");
		if (p > s && p[-1] >= '0' && p[-1] <= '9' && d == 3) {
			*cause = xstrdup(N_("a dot before three digits is a thousands separator here: "
					    "type 1000 or 1,5"));
			return -1;
		}
	}
	return fit_parse_size(s, sep, b, cause);
}

/* Read the model field: sets model_is_size/size_b or the matches and the
 * live preset, and the field's error. */
static void read_model(struct tui_ff *ff)
{
	struct tui_ff_field *f = &ff->f[FF_MODEL];
	char *q = trimmed(f->text), *cause = NULL;
	double b;

	ff->model_is_size = false;
	ff->preset = NULL;
	set_error(f, NULL);
	if (q[0] == '\0') {
		ff->n_matches = 0;
		if (ff->model_touched && parse_size(ff, q, &b, &cause) != 0)
			set_error(f, _(cause));
		free(cause);
		free(q);
		return;
	}
	if (parse_size(ff, q, &b, &cause) == 0) {
		ff->model_is_size = true;
		ff->size_b = b;
		ff->n_matches = 0;
		free(q);
		return;
	}
	if (numeric(q)) {
		/* "0", "-5", "1000T": a size, just not a good one (never a search
		 * for presets whose names hold a 0) */
		ff->n_matches = 0;
		set_error(f, _(cause));
		free(cause);
		free(q);
		return;
	}
	search(ff, q);
	if (ff->n_matches > 0) {
		ff->preset = ff->matches[ff->match_sel];
	} else if (isdigit((unsigned char)q[0]) || q[0] == '-' || q[0] == '+' || q[0] == '.' ||
		   q[0] == ',') {
		set_error(f, _(cause));  /* it was meant as a size */
	} else {
		set_error(f, _("no preset matches: type a size (70, 7.5B, 1.3T) or words of a name (llama 70)"));
	}
	free(cause);
	free(q);
}

bool tui_ff_searching(const struct tui_ff *ff)
{
	char *q;
	bool exact;

	if (ff->model_is_size || ff->n_matches == 0)
		return false;
	q = trimmed(ff->f[FF_MODEL].text);
	exact = ff->n_matches >= 1 && preset_exact(ff->matches[0], q);
	free(q);
	return !exact;
}

/* A diffusion preset brings its resolution and frames into their fields. */
static void preset_fields(struct tui_ff *ff, const struct catalog_model *m)
{
	if (m == NULL || m->kind != CATALOG_MODEL_DIFFUSION)
		return;
	if (m->width > 0 && m->height > 0) {
		free(ff->f[FF_RES].text);
		ff->f[FF_RES].text = res_text(ff, m->width, m->height);
		ff->f[FF_RES].text_changed = true;
	}
	if (m->frames > 0) {
		free(ff->f[FF_FRAMES].text);
		ff->f[FF_FRAMES].text = xasprintf("%d", m->frames);
		ff->f[FF_FRAMES].text_changed = true;
	}
}

/* The live model changed from `before` to ff->preset: a diffusion preset
 * selects the diffusion method, leaving one restores the method before. */
static void model_changed(struct tui_ff *ff, const struct catalog_model *before)
{
	bool was = before != NULL && before->kind == CATALOG_MODEL_DIFFUSION;
	bool is = ff->preset != NULL && ff->preset->kind == CATALOG_MODEL_DIFFUSION;
	int *m = &ff->f[FF_METHOD].choice;

	if (ff->preset == before)
		return;
	if (is && *m != FIT_DIFFUSION) {
		ff->llm_method = (enum fit_method)*m;
		*m = FIT_DIFFUSION;
	} else if (!is && was && *m == FIT_DIFFUSION && (ff->preset != NULL || ff->model_is_size)) {
		*m = ff->llm_method;
	}
	preset_fields(ff, ff->preset);
}

/* ---- reading the whole form ---------------------------------------------------------- */

static void read_int(struct tui_ff *ff, enum tui_ff_id id, long min, long max, const char *msg,
		     int *dst)
{
	char *cause = NULL;
	long v;

	if (tui_ff_parse_int(ff->f[id].text, min, max, msg, &v, &cause) == 0) {
		set_error(&ff->f[id], NULL);
		*dst = (int)v;
	} else {
		set_error(&ff->f[id], cause);
		free(cause);
	}
}

static void read_pct(struct tui_ff *ff, enum tui_ff_id id, double lo, bool lo_incl, const char *msg,
		     double *dst)
{
	char *cause = NULL;
	double v;

	if (tui_ff_parse_percent(ff->lang, ff->f[id].text, lo, lo_incl, 100, msg, &v, &cause) == 0) {
		set_error(&ff->f[id], NULL);
		*dst = v;
	} else {
		set_error(&ff->f[id], cause);
		free(cause);
	}
}

/* Re-read every field; returns true when the job changed. */
static bool reread(struct tui_ff *ff)
{
	struct fit_job job;
	char *cause = NULL;
	bool ok = true, model = false;
	double v;

	fit_job_defaults(&job);
	if (ff->preset != NULL) {
		view_job_use_preset(&job, ff->preset);
		model = true;
	} else if (ff->model_is_size) {
		if (fit_model_from_size(ff->size_b, &job.model, &cause) == 0) {
			model = true;
		} else {
			set_error(&ff->f[FF_MODEL], _(cause));
			free(cause);
			cause = NULL;
		}
	}
	job.method = tui_ff_method(ff);
	if (job.method == FIT_DIFFUSION)
		job.model.diffusion = true;

	read_int(ff, FF_GPUS, 1, FIT_MAX_GPUS, N_("GPUs must be a whole number from 1 to 1048576"),
		 &job.gpus);
	read_int(ff, FF_SEQ, 1, 1 << 24, N_("sequence length must be a whole number from 1 to 16777216"),
		 &job.seq_len);
	read_int(ff, FF_BATCH, 1, 1 << 20, N_("batch must be a whole number from 1 to 1048576"),
		 &job.batch);
	job.checkpointing = ff->f[FF_CKPT].choice != 0;
	job.sharding = (enum fit_sharding)ff->f[FF_SHARD].choice;
	job.optimizer = (enum fit_optimizer)ff->f[FF_OPT].choice;
	if (parse_size(ff, ff->f[FF_TOKENS].text, &v, &cause) == 0) {
		set_error(&ff->f[FF_TOKENS], NULL);
		job.tokens_b = v;
	} else {
		set_error(&ff->f[FF_TOKENS], _("tokens: billions above 0, e.g. 300, 300B or 1.3T"));
	}
	free(cause);
	cause = NULL;
	read_pct(ff, FF_MFU, 0, false, N_("MFU must be above 0 and at most 100 %"), &job.mfu);
	/* what gpux fit has no flag for */
	read_pct(ff, FF_BWEFF, 0, false, N_("bandwidth efficiency must be above 0 and at most 100 %"),
		 &job.bw_efficiency);
	read_int(ff, FF_RANK, 1, 65536, N_("LoRA rank must be a whole number from 1 to 65536"),
		 &job.lora_rank);
	if (parse_resolution(ff->f[FF_RES].text, &job.width, &job.height, &cause) == 0)
		set_error(&ff->f[FF_RES], NULL);
	else
		set_error(&ff->f[FF_RES], cause);
	free(cause);
	cause = NULL;
	read_int(ff, FF_FRAMES, 1, 1 << 20, N_("frames must be a whole number from 1 to 1048576"),
		 &job.frames);
	if (parse_decimal(ff->lang, ff->f[FF_OVERHEAD].text, "GB", 0, true, 1000,
			  N_("overhead must be from 0 to 1000 GB"), &v, &cause) == 0) {
		set_error(&ff->f[FF_OVERHEAD], NULL);
		job.overhead_gb = v;
	} else {
		set_error(&ff->f[FF_OVERHEAD], cause);
	}
	free(cause);
	cause = NULL;
	read_pct(ff, FF_MARGIN, 0, true, N_("margin must be from 0 to 100 %"), &job.margin_fraction);

	/* only the fields shown count: a hidden one keeps fit/'s default */
	for (size_t i = 0; i < FF_COUNT; i++)
		if (ff->f[i].error != NULL && tui_ff_shown(ff, (enum tui_ff_id)i))
			ok = false;
	if (!model)
		ok = false;
	for (size_t i = 0; ok && i < FF_COUNT; i++) {
		/* a hidden field with a bad text: the default instead */
		if (ff->f[i].error == NULL)
			continue;
		struct fit_job d;
		fit_job_defaults(&d);
		switch ((enum tui_ff_id)i) {
		case FF_SEQ: job.seq_len = d.seq_len; break;
		case FF_TOKENS: job.tokens_b = d.tokens_b; break;
		case FF_MFU: job.mfu = d.mfu; break;
		case FF_BWEFF: job.bw_efficiency = d.bw_efficiency; break;
		case FF_RANK: job.lora_rank = d.lora_rank; break;
		case FF_RES:
			if (ff->preset == NULL || ff->preset->kind != CATALOG_MODEL_DIFFUSION) {
				job.width = d.width;
				job.height = d.height;
			} else {
				job.width = ff->preset->width > 0 ? ff->preset->width : d.width;
				job.height = ff->preset->height > 0 ? ff->preset->height : d.height;
			}
			break;
		case FF_FRAMES:
			job.frames = ff->preset != NULL && ff->preset->frames > 0 ? ff->preset->frames
										     : d.frames;
			break;
		default: break;
		}
	}
	free(ff->job_error);
	ff->job_error = NULL;
	if (ok && fit_job_check(&job, &cause) != 0) {
		ff->job_error = xstrdup(_(cause));
		ok = false;
	}
	free(cause);
	ff->valid = ok;
	if (!ok)
		return false;
	if (ff->have_job && memcmp(&job, &ff->job, sizeof job) == 0 && ff->job_preset == ff->preset)
		return false;
	ff->job = job;
	ff->job_preset = ff->preset;
	ff->have_job = true;
	ff->gen++;
	return true;
}

/* ---- life cycle and edits ------------------------------------------------------------- */

void tui_ff_init(struct tui_ff *ff, const struct catalog *c, enum i18n_lang lang, bool ascii)
{
	struct fit_job d;

	memset(ff, 0, sizeof *ff);
	ff->cat = c;
	ff->lang = lang;
	ff->ascii = ascii;
	fit_job_defaults(&d);
	memset(&ff->job, 0, sizeof ff->job);
	for (size_t i = 0; i < FF_COUNT; i++) {
		enum tui_ff_id id = (enum tui_ff_id)i;
		ff->f[i].text = tui_ff_kind(id) == FFK_TEXT ? tui_ff_default_text(ff, id) : xstrdup("");
	}
	ff->f[FF_METHOD].choice = d.method;
	ff->f[FF_SHARD].choice = d.sharding;
	ff->f[FF_OPT].choice = d.optimizer;
	ff->f[FF_CKPT].choice = d.checkpointing;
	ff->llm_method = d.method;
	read_model(ff);
	reread(ff);
}

void tui_ff_free(struct tui_ff *ff)
{
	for (size_t i = 0; i < FF_COUNT; i++) {
		free(ff->f[i].text);
		free(ff->f[i].error);
	}
	free(ff->matches);
	free(ff->job_error);
	memset(ff, 0, sizeof *ff);
}

bool tui_ff_set_text(struct tui_ff *ff, enum tui_ff_id id, const char *text)
{
	if (id >= FF_COUNT || tui_ff_kind(id) != FFK_TEXT)
		return false;
	free(ff->f[id].text);
	ff->f[id].text = xstrdup(text != NULL ? text : "");
	if (id == FF_MODEL) {
		const struct catalog_model *before = ff->preset;
		ff->model_touched = true;
		read_model(ff);
		model_changed(ff, before);
	}
	return reread(ff);
}

/* The language changed (tui/lang.c): a number typed with the old decimal separator takes
 * the new one ("7,5" becomes "7.5" in English, where "7,5" is refused); the
 * model field only when it reads as a size (never "Llama 3.1 70B"),
 * elsewhere a separator between two digits. */
void tui_ff_set_lang(struct tui_ff *ff, enum i18n_lang lang)
{
	char from = i18n_decimal_sep(ff->lang), to = i18n_decimal_sep(lang);
	const struct catalog_model *before = ff->preset;

	for (size_t i = 0; i < FF_COUNT && from != to; i++) {
		char *s = ff->f[i].text;
		bool changed = false;
		if (tui_ff_kind((enum tui_ff_id)i) != FFK_TEXT || s == NULL)
			continue;
		if (i == FF_MODEL && !numeric(s))
			continue;
		for (char *p = s; *p != '\0'; p++) {
			if (*p == from && p > s && isdigit((unsigned char)p[-1]) &&
			    isdigit((unsigned char)p[1])) {
				*p = to;
				changed = true;
			}
		}
		if (changed)
			ff->f[i].text_changed = true;
	}
	ff->lang = lang;
	read_model(ff);
	model_changed(ff, before);
	reread(ff);
}

bool tui_ff_cycle(struct tui_ff *ff, enum tui_ff_id id, int dir)
{
	int n;
	int *c = &ff->f[id].choice;

	switch (id) {
	case FF_METHOD: n = FIT_METHOD_COUNT; break;
	case FF_SHARD: n = FIT_SHARD_COUNT; break;
	case FF_OPT: n = FIT_OPT_COUNT; break;
	case FF_CKPT: n = 2; break;
	default: return false;
	}
	*c = ((*c + (dir < 0 ? -1 : 1)) % n + n) % n;
	if (id == FF_METHOD && *c != FIT_DIFFUSION)
		ff->llm_method = (enum fit_method)*c;
	return reread(ff);
}

bool tui_ff_match_step(struct tui_ff *ff, int dir)
{
	const struct catalog_model *before = ff->preset;

	if (ff->n_matches == 0)
		return false;
	if (dir < 0)
		ff->match_sel = (ff->match_sel + ff->n_matches - 1) % ff->n_matches;
	else
		ff->match_sel = (ff->match_sel + 1) % ff->n_matches;
	ff->preset = ff->matches[ff->match_sel];
	model_changed(ff, before);
	return reread(ff);
}

bool tui_ff_pick(struct tui_ff *ff, size_t i)
{
	const struct catalog_model *m;

	if (i >= ff->n_matches)
		return false;
	m = ff->matches[i];
	ff->match_sel = i;
	return tui_ff_set_text(ff, FF_MODEL, m->name);
}

/* ---- the architecture line ------------------------------------------------------------- */

static void add_int(struct buf *b, enum i18n_lang l, int v, int which)
{
	char *n = i18n_fmt_number(l, v, 0);

	buf_puts(b, " \u00b7 ");
	switch (which) {
	case 0: buf_printf(b, _("%s layers"), n); break;
	case 1: buf_printf(b, _("hidden %s"), n); break;
	case 2: buf_printf(b, _("vocab %s"), n); break;
	default: buf_printf(b, _("%s frames"), n); break;
	}
	free(n);
}

/* Decimals that show a size as written: 70 → 0, 7.5 → 1, 0.35 → 2. */
static int decimals_of(double v)
{
	if (fabs(v - round(v)) < 1e-9)
		return 0;
	if (fabs(v * 10 - round(v * 10)) < 1e-9)
		return 1;
	return v < 0.01 ? 3 : 2;
}

static void transformer(struct buf *b, const struct tui_ff *ff, const struct fit_model *m)
{
	enum i18n_lang l = ff->lang;

	if (m->layers > 0)
		add_int(b, l, m->layers, 0);
	if (m->hidden > 0)
		add_int(b, l, m->hidden, 1);
	if (m->heads > 0) {
		buf_puts(b, " \u00b7 ");
		if (m->kv_latent_dim > 0)
			buf_printf(b, _("%d heads (latent KV %d)"), m->heads, m->kv_latent_dim);
		else
			buf_printf(b, _("%d heads (%d KV)"), m->heads, m->kv_heads > 0 ? m->kv_heads : m->heads);
	}
	if (m->vocab > 0)
		add_int(b, l, m->vocab, 2);
	if (isfinite(m->active_params_b) && m->active_params_b > 0 &&
	    m->active_params_b < m->params_b * (1 - 1e-9)) {
		char *a = i18n_fmt_number(l, m->active_params_b, decimals_of(m->active_params_b));
		char *t = i18n_fmt_number(l, m->params_b, decimals_of(m->params_b));
		buf_puts(b, " \u00b7 ");
		buf_printf(b, _("%s B active of %s B"), a, t);
		free(a);
		free(t);
	}
}

char *tui_ff_arch_text(const struct tui_ff *ff)
{
	struct buf b = {0};
	struct fit_model m;
	const struct catalog_model *p = ff->preset;

	if (p != NULL) {
		view_fit_model(p, &m);
		buf_puts(&b, p->name);
		if (p->kind == CATALOG_MODEL_DIFFUSION) {
			char *d = i18n_fmt_number(ff->lang, p->params_b, decimals_of(p->params_b));
			buf_puts(&b, " \u00b7 ");
			buf_printf(&b, _("denoiser %s B"), d);
			free(d);
			if (isfinite(p->text_encoder_params_b) && p->text_encoder_params_b > 0) {
				d = i18n_fmt_number(ff->lang, p->text_encoder_params_b,
						    decimals_of(p->text_encoder_params_b));
				buf_printf(&b, _(" + text encoders %s B"), d);
				free(d);
			}
			if (isfinite(p->vae_params_b) && p->vae_params_b > 0) {
				d = i18n_fmt_number(ff->lang, p->vae_params_b, decimals_of(p->vae_params_b));
				buf_printf(&b, _(" + VAE %s B"), d);
				free(d);
			}
			if (p->width > 0 && p->height > 0)
				buf_printf(&b, " \u00b7 %d%s%d", p->width, ff->ascii ? "x" : "\u00d7", p->height);
			if (p->frames > 1)
				add_int(&b, ff->lang, p->frames, 3);
		} else {
			transformer(&b, ff, &m);
		}
		return buf_take(&b);
	}
	if (ff->model_is_size && fit_model_from_size(ff->size_b, &m, NULL) == 0) {
		char *n = i18n_fmt_number(ff->lang, ff->size_b, decimals_of(ff->size_b));
		buf_printf(&b, _("%s B parameters"), n);
		free(n);
		buf_puts(&b, " \u00b7 ");
		buf_puts(&b, _("architecture guessed from the size"));
		transformer(&b, ff, &m);
		return buf_take(&b);
	}
	return NULL;
}
