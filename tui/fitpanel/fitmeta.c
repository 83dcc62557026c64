/*
 * The fit panel's fields as data (see tui/fitpanel/fitform.h): kind, section, label,
 * unit, help, default, which fields apply to which method and which are
 * shown, the text of a choice, and the model's architecture in one line.
 * Nothing here reads or changes the form's job (tui/fitpanel/fitform.c does).
 *
 * Sections: the job's fields; the architecture (a fold, open while the model
 * is a size: its architecture is a guess to check); the advanced
 * assumptions (a fold, closed until asked for).
 */
#include "tui/fitpanel/fitform.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "view/view.h"

/* ---- texts of values ---------------------------------------------------------------- */

char *tui_ff_plain_number(enum i18n_lang lang, double v)
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

char *tui_ff_res_text(const struct tui_ff *ff, int w, int h)
{
	return xasprintf("%d%s%d", w, ff->ascii ? "x" : "\u00d7", h);
}

struct meta {
	enum tui_ff_kind kind;
	enum tui_ff_section sec;
	const char *label;       /* English msgid; FF_SEQ and FF_BATCH per method */
	const char *help;
};

static const struct meta fmeta[FF_COUNT] = {
	[FF_MODEL] = { FFK_TEXT, FFS_MAIN, N_("Model"),
		N_("A size in billions (70, 7.5, 1.3T) or words of a preset's name (llama 70)") },
	[FF_METHOD] = { FFK_CHOICE, FFS_MAIN, N_("Method"),
		N_("\u2190 \u2192 or Space: full training, LoRA, QLoRA, inference FP16/FP8/INT8/INT4, diffusion") },
	[FF_SEQ] = { FFK_TEXT, FFS_MAIN, N_("Seq length"),
		N_("Tokens per sequence; for inference the whole context (prompt and output)") },
	[FF_BATCH] = { FFK_TEXT, FFS_MAIN, N_("Micro-batch"),
		N_("Micro-batch per GPU; inference: sequences decoded together; diffusion: images") },
	[FF_CKPT] = { FFK_TOGGLE, FFS_MAIN, N_("Checkpointing"),
		N_("Gradient checkpointing: recompute activations in the backward pass") },
	[FF_GPUS] = { FFK_TEXT, FFS_MAIN, N_("GPUs"), N_("GPUs the job runs on") },
	[FF_SHARD] = { FFK_CHOICE, FFS_MAIN, N_("Sharding"),
		N_("How the training states are split across the GPUs (ZeRO stages)") },
	[FF_OPT] = { FFK_CHOICE, FFS_MAIN, N_("Optimizer"),
		N_("Optimizer state per trained parameter: Adam 12 B, 8-bit Adam 6 B, SGD 8 B") },
	[FF_TOKENS] = { FFK_TEXT, FFS_MAIN, N_("Tokens"),
		N_("Tokens to train on, in billions (300, 300B, 1.3T)") },
	[FF_MFU] = { FFK_TEXT, FFS_MAIN, N_("MFU"),
		N_("Model FLOPs utilisation: the share of the GPU's dense BF16 peak a run achieves") },
	[FF_BWEFF] = { FFK_TEXT, FFS_MAIN, N_("BW efficiency"),
		N_("The share of the peak memory bandwidth that decoding achieves with the method's weight format") },
	[FF_RANK] = { FFK_TEXT, FFS_MAIN, N_("LoRA rank"),
		N_("Rank of the LoRA adapters on every linear layer") },
	[FF_RES] = { FFK_TEXT, FFS_MAIN, N_("Resolution"),
		N_("Output resolution in pixels, width \u00d7 height") },
	[FF_FRAMES] = { FFK_TEXT, FFS_MAIN, N_("Frames"), N_("Frames per clip (1 for an image)") },
	[FF_OVERHEAD] = { FFK_TEXT, FFS_MORE, N_("Overhead"),
		N_("Per GPU: CUDA context, framework and communication buffers") },
	[FF_MARGIN] = { FFK_TEXT, FFS_MORE, N_("Margin"),
		N_("Per GPU: allocator fragmentation and temporaries, a share of the rest") },
	[FF_FLASH] = { FFK_TOGGLE, FFS_MAIN, N_("Flash attention"),
		N_("Attention scores are not stored (FlashAttention, SDPA): smaller activations") },
	[FF_OFFLOAD] = { FFK_CHOICE, FFS_MAIN, N_("CPU offload"),
		N_("ZeRO-Offload: the optimizer states (and with ZeRO-3 the weights) in CPU memory") },
	[FF_KVCACHE] = { FFK_CHOICE, FFS_MAIN, N_("KV cache"),
		N_("Precision of the KV cache: 16-bit (bf16, fp16) or FP8, one byte per element") },
	[FF_ENCODERS] = { FFK_CHOICE, FFS_MAIN, N_("Text encoders"),
		N_("The text encoders stay on the GPU or leave it once the prompt is encoded") },
	[FF_ARCH] = { FFK_FOLD, FFS_ARCH, N_("Architecture"),
		N_("Space shows or hides the architecture: a size borrows a published model's; type over any figure") },
	[FF_LAYERS] = { FFK_TEXT, FFS_ARCH, N_("Layers"), N_("Transformer layers") },
	[FF_HIDDEN] = { FFK_TEXT, FFS_ARCH, N_("Hidden"), N_("Hidden size (the model's width)") },
	[FF_HEADS] = { FFK_TEXT, FFS_ARCH, N_("Heads"), N_("Attention (query) heads") },
	[FF_KVHEADS] = { FFK_TEXT, FFS_ARCH, N_("KV heads"),
		N_("Key/value heads: the heads for multi-head attention, fewer for grouped-query attention") },
	[FF_HEADDIM] = { FFK_TEXT, FFS_ARCH, N_("Head dim"),
		N_("Dimensions per attention head (hidden / heads unless typed)") },
	[FF_VOCAB] = { FFK_TEXT, FFS_ARCH, N_("Vocab"), N_("Vocabulary size") },
	[FF_FFN] = { FFK_TEXT, FFS_ARCH, N_("FFN"),
		N_("FFN intermediate size, per expert for a mixture of experts (empty: derived from the size)") },
	[FF_ACTIVE] = { FFK_TEXT, FFS_ARCH, N_("Active"),
		N_("Mixture of experts: parameters used per token, in billions") },
	[FF_MORE] = { FFK_FOLD, FFS_MORE, N_("Advanced"),
		N_("Space shows or hides the rarer assumptions: ZeRO accounting, pure bf16, chunked loss, int4 groups, all-reduce, overhead, margin") },
	[FF_ACCT] = { FFK_CHOICE, FFS_MORE, N_("Accounting"),
		N_("Whose ZeRO memory accounting: DeepSpeed's estimators (what it allocates) or the ZeRO paper's") },
	[FF_PURE] = { FFK_TOGGLE, FFS_MORE, N_("Pure bf16"),
		N_("Training without fp32 master weights: weights, gradients and optimizer moments in bf16") },
	[FF_CHUNKED] = { FFK_TOGGLE, FFS_MORE, N_("Chunked loss"),
		N_("The output layer and loss computed 1024 tokens at a time, not all fp32 logits at once") },
	[FF_INT4G] = { FFK_TEXT, FFS_MORE, N_("Int4 group"),
		N_("INT4 weights per group sharing a 16-bit scale and zero point (AWQ and GPTQ use 128)") },
	[FF_ALLREDUCE] = { FFK_TEXT, FFS_MORE, N_("All-reduce"),
		N_("Tensor parallel: latency of one all-reduce step in microseconds") },
	[FF_ACTOFF] = { FFK_TOGGLE, FFS_MORE, N_("Offload checkpoints"),
		N_("Checkpointed activations wait in CPU memory (offloaded gradient checkpointing, as Unsloth does)") },
	[FF_EMBED32] = { FFK_TOGGLE, FFS_MORE, N_("fp32 embeddings"),
		N_("LoRA/QLoRA: the embeddings, output layer and norms cast to fp32 (PEFT's prepare_model_for_kbit_training)") },
	[FF_PAGED] = { FFK_TOGGLE, FFS_MORE, N_("Paged optimizer"),
		N_("Optimizer states in paged memory that moves to the CPU under pressure (bitsandbytes paged AdamW)") },
};

/* The panel's order of the fields. */
static const enum tui_ff_id order[FF_COUNT] = {
	FF_MODEL, FF_METHOD, FF_SEQ, FF_BATCH, FF_CKPT, FF_GPUS, FF_SHARD, FF_OFFLOAD, FF_OPT,
	FF_FLASH, FF_RANK, FF_TOKENS, FF_MFU, FF_BWEFF, FF_KVCACHE, FF_RES, FF_FRAMES, FF_ENCODERS,
	FF_ARCH, FF_LAYERS, FF_HIDDEN, FF_HEADS, FF_KVHEADS, FF_HEADDIM, FF_VOCAB, FF_FFN, FF_ACTIVE,
	FF_MORE, FF_ACCT, FF_PURE, FF_CHUNKED, FF_ACTOFF, FF_EMBED32, FF_PAGED, FF_INT4G,
	FF_ALLREDUCE, FF_OVERHEAD, FF_MARGIN,
};

enum tui_ff_kind tui_ff_kind(enum tui_ff_id id)
{
	return id < FF_COUNT ? fmeta[id].kind : FFK_TEXT;
}

enum tui_ff_section tui_ff_section(enum tui_ff_id id)
{
	return id < FF_COUNT ? fmeta[id].sec : FFS_MAIN;
}

enum fit_method tui_ff_method(const struct tui_ff *ff)
{
	return (enum fit_method)ff->f[FF_METHOD].choice;
}

const char *tui_ff_label(const struct tui_ff *ff, enum tui_ff_id id)
{
	enum fit_method m = tui_ff_method(ff);

	if (id == FF_SEQ && fit_method_is_inference(m))
		return N_("Context");
	if (id == FF_BATCH && fit_method_is_inference(m))
		return N_("Sequences");
	if (id == FF_BATCH && m == FIT_DIFFUSION)
		return N_("Images");
	return id < FF_COUNT ? fmeta[id].label : "";
}

const char *tui_ff_unit(enum tui_ff_id id)
{
	switch (id) {
	/* TRANSLATORS: the unit after the tokens field: billions (pt-PT "mil M") */
	case FF_TOKENS: return C_("unit", "B");
	case FF_ACTIVE: return C_("unit", "B");
	case FF_MFU:
	case FF_BWEFF:
	case FF_MARGIN: return "%";
	case FF_OVERHEAD: return "GB";
	case FF_ALLREDUCE: return "\u00b5s";
	default: return NULL;
	}
}

const char *tui_ff_help(enum tui_ff_id id)
{
	return id < FF_COUNT ? fmeta[id].help : "";
}

/* ---- defaults ----------------------------------------------------------------------------- */

char *tui_ff_arch_figure(const struct tui_ff *ff, const struct fit_model *m, enum tui_ff_id id)
{
	int heads = m->heads > 0 ? m->heads : 1;
	int v = 0;

	if (!ff->have_arch)
		return xstrdup("");
	switch (id) {
	case FF_LAYERS: v = m->layers; break;
	case FF_HIDDEN: v = m->hidden; break;
	case FF_HEADS: v = m->heads; break;
	case FF_KVHEADS: v = m->kv_heads > 0 ? m->kv_heads : m->heads; break;
	case FF_HEADDIM: v = m->head_dim > 0 ? m->head_dim : m->hidden / heads; break;
	case FF_VOCAB: v = m->vocab; break;
	case FF_FFN: v = m->ffn; break;
	case FF_ACTIVE:
		return tui_ff_plain_number(ff->lang, isfinite(m->active_params_b) &&
							     m->active_params_b > 0
							     ? m->active_params_b : m->params_b);
	default: return xstrdup("");
	}
	return v > 0 ? xasprintf("%d", v) : xstrdup("");
}

char *tui_ff_default_text(const struct tui_ff *ff, enum tui_ff_id id)
{
	const struct catalog_model *p = ff->preset;
	bool diff = p != NULL && p->kind == CATALOG_MODEL_DIFFUSION;
	struct fit_job d;

	fit_job_defaults(&d);
	if (id == FF_METHOD)
		return xstrdup(_(fit_method_label(d.method)));
	d.method = tui_ff_method(ff); /* the bandwidth efficiency of its format */
	if (tui_ff_section(id) == FFS_ARCH && id != FF_ARCH)
		return tui_ff_arch_figure(ff, &ff->base, id);
	switch (id) {
	case FF_SEQ: return xasprintf("%d", d.seq_len);
	case FF_BATCH: return xasprintf("%d", d.batch);
	case FF_GPUS: return xasprintf("%d", d.gpus);
	case FF_RANK: return xasprintf("%d", d.lora_rank);
	case FF_INT4G: return xasprintf("%d", d.int4_group);
	case FF_TOKENS: return tui_ff_plain_number(ff->lang, d.tokens_b);
	case FF_MFU: return tui_ff_plain_number(ff->lang, d.mfu * 100);
	case FF_BWEFF: return tui_ff_plain_number(ff->lang, fit_job_bw_efficiency(&d) * 100);
	case FF_ALLREDUCE: return tui_ff_plain_number(ff->lang, d.allreduce_hop_us);
	case FF_RES:
		if (diff && p->width > 0 && p->height > 0)
			return tui_ff_res_text(ff, p->width, p->height);
		return tui_ff_res_text(ff, d.width, d.height);
	case FF_FRAMES: return xasprintf("%d", diff && p->frames > 0 ? p->frames : d.frames);
	case FF_OVERHEAD: return tui_ff_plain_number(ff->lang, d.overhead_gb);
	case FF_MARGIN: return tui_ff_plain_number(ff->lang, d.margin_fraction * 100);
	default: break;
	}
	if (tui_ff_kind(id) == FFK_CHOICE || tui_ff_kind(id) == FFK_TOGGLE) {
		/* a form with fit/'s defaults says it */
		struct tui_ff dflt = { .lang = ff->lang };
		fit_job_defaults(&d);
		dflt.f[FF_METHOD].choice = d.method;
		dflt.f[FF_SHARD].choice = d.sharding;
		dflt.f[FF_OPT].choice = d.optimizer;
		dflt.f[FF_CKPT].choice = d.checkpointing;
		return xstrdup(tui_ff_choice_text(&dflt, id));
	}
	return xstrdup("");
}

/* ---- which fields ------------------------------------------------------------------------------ */

bool tui_ff_applies(const struct tui_ff *ff, enum tui_ff_id id)
{
	enum fit_method m = tui_ff_method(ff);
	bool train = fit_method_is_training(m), infer = fit_method_is_inference(m);
	bool sharded = train && ff->f[FF_SHARD].choice != FIT_SHARD_NONE;

	switch (id) {
	case FF_SEQ: return m != FIT_DIFFUSION;
	case FF_CKPT:
	case FF_SHARD:
	case FF_OPT:
	case FF_TOKENS:
	case FF_MFU:
	case FF_FLASH:
	case FF_PURE:
	case FF_CHUNKED:
	case FF_PAGED: return train;
	case FF_ACTOFF: return train && ff->f[FF_CKPT].choice != 0;
	case FF_EMBED32: return m == FIT_QLORA;
	case FF_OFFLOAD:
	case FF_ACCT: return sharded;
	case FF_RANK: return m == FIT_LORA || m == FIT_QLORA;
	case FF_BWEFF:
	case FF_KVCACHE:
	case FF_ALLREDUCE: return infer;
	case FF_INT4G: return m == FIT_INFER_INT4;
	case FF_RES:
	case FF_FRAMES:
	case FF_ENCODERS: return m == FIT_DIFFUSION;
	default:
		if (tui_ff_section(id) == FFS_ARCH)
			return m != FIT_DIFFUSION; /* a language model's architecture */
		return id < FF_COUNT;
	}
}

bool tui_ff_shown(const struct tui_ff *ff, enum tui_ff_id id)
{
	if (!tui_ff_applies(ff, id))
		return false;
	switch (tui_ff_section(id)) {
	case FFS_ARCH: return id == FF_ARCH || ff->f[FF_ARCH].choice != 0;
	case FFS_MORE: return id == FF_MORE || ff->f[FF_MORE].choice != 0;
	default: return true;
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

bool tui_ff_changed(const struct tui_ff *ff, enum tui_ff_id id)
{
	const struct tui_ff_field *f = &ff->f[id];
	bool changed;
	char *d;

	if (tui_ff_kind(id) == FFK_FOLD) {
		for (size_t i = 0; i < FF_COUNT; i++)
			if (tui_ff_section((enum tui_ff_id)i) == tui_ff_section(id) && i != id &&
			    tui_ff_applies(ff, (enum tui_ff_id)i) && tui_ff_changed(ff, (enum tui_ff_id)i))
				return true;
		return false;
	}
	if (tui_ff_section(id) == FFS_ARCH)
		return f->touched && f->text[strspn(f->text, " \t")] != '\0';
	if (id == FF_MODEL)
		return false;
	d = tui_ff_default_text(ff, id);
	changed = strcmp(d, tui_ff_kind(id) == FFK_TEXT ? f->text : tui_ff_choice_text(ff, id)) != 0;
	free(d);
	return changed;
}

const char *tui_ff_choice_text(const struct tui_ff *ff, enum tui_ff_id id)
{
	int c = ff->f[id].choice;

	switch (id) {
	case FF_METHOD: return _(fit_method_label((enum fit_method)c));
	case FF_SHARD: return _(fit_sharding_label((enum fit_sharding)c));
	case FF_OPT: return _(fit_optimizer_label((enum fit_optimizer)c));
	case FF_OFFLOAD:
		return c == FIT_OFFLOAD_ALL ? _("optimizer and weights")
		     : c == FIT_OFFLOAD_OPTIMIZER ? _("optimizer") : _("none");
	case FF_KVCACHE: return c ? _("FP8") : _("16-bit");
	case FF_ENCODERS: return c ? _("offloaded") : _("on the GPU");
	case FF_ACCT: return c == FIT_ZACCT_PAPER ? _("ZeRO paper") : _("DeepSpeed");
	case FF_ARCH:
	case FF_MORE:
		if (c)
			return _("hide");
		return tui_ff_changed(ff, id) ? _("show (changed)") : _("show");
	default: break;
	}
	if (tui_ff_kind(id) == FFK_TOGGLE)
		return c ? _("on") : _("off");
	return ff->f[id].text;
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

static void diffusion_text(struct buf *b, const struct tui_ff *ff, const struct catalog_model *p)
{
	char *d = i18n_fmt_number(ff->lang, p->params_b, decimals_of(p->params_b));

	buf_puts(b, " \u00b7 ");
	buf_printf(b, _("denoiser %s B"), d);
	free(d);
	if (isfinite(p->text_encoder_params_b) && p->text_encoder_params_b > 0) {
		d = i18n_fmt_number(ff->lang, p->text_encoder_params_b,
				    decimals_of(p->text_encoder_params_b));
		buf_printf(b, _(" + text encoders %s B"), d);
		free(d);
	}
	if (isfinite(p->vae_params_b) && p->vae_params_b > 0) {
		d = i18n_fmt_number(ff->lang, p->vae_params_b, decimals_of(p->vae_params_b));
		buf_printf(b, _(" + VAE %s B"), d);
		free(d);
	}
	if (p->width > 0 && p->height > 0)
		buf_printf(b, " \u00b7 %d%s%d", p->width, ff->ascii ? "x" : "\u00d7", p->height);
	if (p->frames > 1)
		add_int(b, ff->lang, p->frames, 3);
}

/* Any architecture field typed over the model's. */
static bool arch_edited(const struct tui_ff *ff)
{
	return tui_ff_applies(ff, FF_ARCH) && tui_ff_changed(ff, FF_ARCH);
}

char *tui_ff_arch_text(const struct tui_ff *ff)
{
	const struct catalog_model *p = ff->preset;
	const struct fit_model *m = &ff->arch;
	struct buf b = {0};

	if (p != NULL && p->kind == CATALOG_MODEL_DIFFUSION) {
		buf_puts(&b, p->name);
		diffusion_text(&b, ff, p);
		return buf_take(&b);
	}
	if (!ff->have_arch || (p == NULL && !ff->model_is_size))
		return NULL;
	if (p != NULL) {
		buf_puts(&b, p->name);
		if (arch_edited(ff))
			buf_printf(&b, " \u00b7 %s", _("architecture edited"));
	} else {
		char *n = i18n_fmt_number(ff->lang, ff->size_b, decimals_of(ff->size_b));
		buf_printf(&b, _("%s B parameters"), n);
		free(n);
		buf_puts(&b, " \u00b7 ");
		if (!m->guessed)
			buf_puts(&b, _("architecture given"));
		else if (m->guess_from != NULL)
			buf_printf(&b, "%s (%s)", _("architecture guessed from the size"), m->guess_from);
		else
			buf_puts(&b, _("architecture guessed from the size"));
	}
	transformer(&b, ff, m);
	return buf_take(&b);
}
