/*
 * The memory model: what each GPU holds for a job on N GPUs, whether it
 * fits, and the smallest realistic GPU count that does. Every formula and
 * its source: docs/FIT.md.
 *
 * Memory per GPU (GB = 10^9 bytes), for a job on N GPUs:
 *
 *   training (full, LoRA, QLoRA) — model states per parameter: 2 bytes of
 *     16-bit weights, 2 of 16-bit gradients, K of optimizer state (Adam 12:
 *     fp32 master + momentum + variance; 8-bit Adam 6; SGD 8; pure bf16:
 *     Adam 4, others 2, no master). Sharded with DeepSpeed's accounting
 *     (estimate_zero2/3_model_states_mem_needs, the default): ZeRO-1/2 keep
 *     the 4 bytes in full and (K + 4)/N (the fp32 gradient partition
 *     included); ZeRO-3 (2 + K + 4)/N plus the largest layer gathered at
 *     16 bits with its gradient (2 + 2 bytes × its parameters); CPU offload
 *     leaves 2 bytes (ZeRO-1/2), 2/N + the layer (ZeRO-3, optimizer), or the
 *     layer alone (ZeRO-3, all). With the ZeRO paper's accounting
 *     (Rajbhandari et al. 2020): optimizer /N (stage 1), + gradients /N
 *     (stage 2), + weights /N (stage 3).
 *     LoRA: the frozen base at 2 bytes/param; QLoRA: quant4_bits (NF4 with
 *     double quantisation, 4.127 bits, Dettmers et al. 2023 §3) for the
 *     blocks and 16 bits for the embedding and output layer, plus adapters
 *     of rank r on the seven linear maps of each block, trained as above.
 *     Activations per GPU after Korthikanti et al. 2022 (§4.1):
 *     s·b·h·(34 + 5·a·s/h) bytes per layer, 34·s·b·h with flash attention;
 *     with full recomputation 2·s·b·h per layer plus one layer recomputed;
 *     plus the fp32 logits 4·s·b·v (4·1024·b·v with a chunked loss).
 *   inference — weights at the format's bytes (int4 with a 16-bit scale and
 *     zero per group), the KV cache 2 · layers · kv_heads · head_dim · s · b
 *     · kv_bytes (MLA: kv_latent_dim per layer) and one layer's prefill
 *     working set, split across N = tensor parallel t × pipeline N/t; the
 *     KV cache is replicated where t exceeds the KV heads.
 *   diffusion — denoiser + text encoders (unless offloaded) + VAE at 16
 *     bits, replicated on every GPU, and the peak activations: a transformer
 *     denoiser act_bytes_per_token × hidden per latent token (100 bytes from
 *     HunyuanVideo's two published peaks; checked against Wan2.1, FLUX.1 and
 *     LTX-Video), a U-Net act_bytes_per_pixel per output pixel (2048, SDXL).
 *   margin — overhead_gb + margin_fraction × everything above.
 *
 * A job fits when the total, margin included, is at most the GPU's full
 * memory. GPU counts come in the groups jobs run on: 1, 2, 4, 8, then whole
 * nodes of 8 (fit_gpu_group); tensor parallelism takes the largest of 1, 2,
 * 4, 8 that divides the heads (fit_tp_degree). The seed-table rule in
 * rule.c is separate (80 % of the memory).
 */
#include "fit/fit.h"
#include "fit/fit_int.h"
#include "util/util.h"

#include <math.h>
#include <stdint.h>
#include <string.h>


void fit_job_defaults(struct fit_job *job)
{
	memset(job, 0, sizeof *job);
	job->method = FIT_FULL;
	job->seq_len = 2048;        /* a common pre-training / fine-tuning length */
	job->batch = 1;             /* micro-batch per GPU; one sequence decoded */
	job->checkpointing = true;  /* what large training runs use */
	job->flash_attention = false; /* the paper's formula, the larger figure */
	job->gpus = 1;
	job->sharding = FIT_SHARD_ZERO3; /* the seeds' rule: states sharded */
	job->optimizer = FIT_OPT_ADAM;
	job->accounting = FIT_ZACCT_DEEPSPEED; /* what DeepSpeed allocates */
	job->offload = FIT_OFFLOAD_NONE;
	job->lora_rank = 16;
	job->quant4_bits = 4.127;   /* NF4 + double quantisation (QLoRA §3) */
	job->kv_bytes = 2.0;        /* 16-bit KV cache (vLLM's default) */
	job->int4_group = 128;      /* AWQ's and GPTQ's usual group size */
	job->overhead_gb = 1.0;
	job->margin_fraction = 0.10;
	job->tokens_b = 1.0;
	job->mfu = 0.40;
	/* decode: bandwidth efficiency and a cost per layer and step for each
	 * weight format, and the all-reduce hop, fitted together to gpt-fast's
	 * 29 A100 measurements (docs/FIT.md, "Decode speed") */
	job->bw_efficiency = 0.73;
	job->bw_efficiency_8bit = 0.66;
	job->bw_efficiency_4bit = 0.55;
	job->layer_us = 31.0;
	job->layer_us_8bit = 42.0;
	job->layer_us_4bit = 40.0;
	job->allreduce_hop_us = 3.6;
	job->width = 1024;
	job->height = 1024;
	job->frames = 1;
	job->act_bytes_per_pixel = 2048.0;
	job->act_bytes_per_token = 100.0; /* HunyuanVideo's two published peaks */
	job->encoders_offloaded = false;
	job->stack = FIT_STACK_NONE;
	job->act_offload = false;
	job->embed_bits = 16;
	job->paged_optimizer = false;
	job->prompt_tokens = 0;
}

void fit_stack_apply(struct fit_job *job, enum fit_stack stack)
{
	job->stack = (unsigned)stack < FIT_STACK_COUNT ? stack : FIT_STACK_NONE;
	if (job->stack == FIT_STACK_NONE)
		return;
	if (job->method != FIT_LORA)
		job->method = FIT_QLORA;
	job->checkpointing = true;
	/* both run on one GPU without DeepSpeed: no ZeRO partitions */
	job->sharding = FIT_SHARD_NONE;
	job->offload = FIT_OFFLOAD_NONE;
	if (job->stack == FIT_STACK_UNSLOTH) {
		/* Unsloth: use_gradient_checkpointing="unsloth" (offloaded),
		 * adamw_8bit in its notebooks, its fused chunked cross-entropy,
		 * its attention kernels, embeddings and head left at 16 bits */
		job->act_offload = true;
		job->optimizer = FIT_OPT_ADAM8;
		job->chunked_loss = true;
		job->flash_attention = true;
		job->embed_bits = 16;
		job->paged_optimizer = false;
	} else {
		/* PEFT + bitsandbytes as the QLoRA repository runs it:
		 * prepare_model_for_kbit_training casts every 16-bit parameter
		 * left (embeddings, head, norms) to fp32; paged_adamw_32bit;
		 * checkpoints on the GPU */
		job->act_offload = false;
		job->optimizer = FIT_OPT_ADAM;
		job->chunked_loss = false;
		job->embed_bits = 32;
		job->paged_optimizer = true;
	}
}

void fit_resolve(const struct fit_model *m, struct fit_arch *a)
{
	struct fit_model g = *m;
	double pb = isfinite(m->params_b) && m->params_b > 0 ? m->params_b : FIT_SIZE_MIN_B;
	if (pb > FIT_SIZE_MAX_B)
		pb = FIT_SIZE_MAX_B;
	if (m->layers <= 0 || m->hidden <= 0) {
		fit_model_from_size(pb, &g, NULL);
		g.active_params_b = m->active_params_b;
		g.diffusion = m->diffusion;
		g.extra_params_b = m->extra_params_b;
		if (m->diffusion && m->hidden > 0)
			g.hidden = m->hidden;
	}
	a->params = pb * GB;
	a->active = isfinite(g.active_params_b) && g.active_params_b > 0 && g.active_params_b <= pb
	                    ? g.active_params_b * GB
	                    : a->params;
	a->layers = g.layers;
	a->hidden = g.hidden;
	a->heads = g.heads > 0 ? g.heads : fmax(1.0, floor(g.hidden / 128.0));
	a->kv_heads = g.kv_heads > 0 ? g.kv_heads : a->heads;
	a->head_dim = g.head_dim > 0 ? g.head_dim : a->hidden / a->heads;
	a->vocab = g.vocab > 0 ? g.vocab : 0;
	a->kv_latent = g.kv_latent_dim > 0 ? g.kv_latent_dim : 0;
	a->q_dim = a->heads * a->head_dim;
	a->kv_dim = a->kv_heads * a->head_dim;
	if (g.ffn > 0) {
		a->ffn = g.ffn;
	} else {
		/* what the parameters per layer leave after attention, over the
		 * three FFN matrices; kept within [h, 8h] */
		double attn = 2 * a->hidden * a->q_dim + 2 * a->hidden * a->kv_dim;
		double f = (a->params / a->layers - attn) / (3 * a->hidden);
		a->ffn = fmin(fmax(f, a->hidden), 8 * a->hidden);
	}
	/* input embedding + output layer (one matrix when tied) */
	a->embed = a->vocab * a->hidden * (g.tied_embeddings ? 1 : 2);
	if (a->embed > 0.5 * a->params)
		a->embed = 0.5 * a->params;
	/* DeepSpeed's "largest layer": the module with the most parameters of
	 * its own, the embedding for most language models */
	a->largest = fmax(a->vocab * a->hidden, fmax(a->hidden * a->ffn, a->hidden * a->q_dim));
	if (a->largest > a->params)
		a->largest = a->params;
}

double fit_optimizer_bytes(enum fit_optimizer o)
{
	switch (o) {
	case FIT_OPT_ADAM8: return 6.0;
	case FIT_OPT_SGD: return 8.0;
	case FIT_OPT_ADAM:
	default: return 12.0;
	}
}

/* Optimizer bytes per trained parameter of this job: with pure bf16 there
 * is no fp32 master copy and the moments are 16-bit (Adam 2 + 2; 8-bit Adam
 * 1 + 1; SGD's momentum 2). */
static double job_optimizer_bytes(const struct fit_job *job)
{
	if (!job->pure_bf16)
		return fit_optimizer_bytes(job->optimizer);
	return job->optimizer == FIT_OPT_ADAM ? 4.0 : 2.0;
}

double fit_infer_weight_bytes(const struct fit_job *job)
{
	switch (job->method) {
	case FIT_INFER_FP8:
	case FIT_INFER_INT8: return 1.0;
	case FIT_INFER_INT4: {
		double g = job->int4_group > 0 ? job->int4_group : 128;
		return (4.0 + 32.0 / g) / 8.0;
	}
	case FIT_QLORA: return job->quant4_bits / 8.0;
	default: return 2.0;
	}
}

static double lora_params(const struct fit_job *job, const struct fit_arch *a)
{
	if (job->method != FIT_LORA && job->method != FIT_QLORA)
		return 0;
	double r = job->lora_rank > 0 ? job->lora_rank : 1;
	double h = a->hidden;
	double per_layer = r * ((h + a->q_dim) +      /* q */
	                        2 * (h + a->kv_dim) + /* k, v */
	                        (a->q_dim + h) +      /* o */
	                        3 * (h + a->ffn));    /* gate, up, down */
	return per_layer * a->layers;
}

double fit_lora_params_b(const struct fit_job *job)
{
	struct fit_arch a;
	fit_resolve(&job->model, &a);
	return lora_params(job, &a) / GB;
}

/* Bytes of the frozen base of a LoRA/QLoRA job: 16-bit, or under QLoRA
 * quant4_bits for the transformer blocks and 16 bits for the embedding and
 * the output layer, which QLoRA does not quantise (bitsandbytes replaces
 * only the blocks' linear layers). */
static double base_bytes(const struct fit_job *job, const struct fit_arch *a)
{
	if (job->method == FIT_LORA)
		return 2 * a->params;
	double eb = job->embed_bits == 32 ? 4.0 : 2.0;
	return job->quant4_bits / 8.0 * (a->params - a->embed) + eb * a->embed;
}

void fit_model_states(const struct fit_job *job, double *weights_gb, double *grads_gb,
                      double *opt_gb)
{
	struct fit_arch a;
	fit_resolve(&job->model, &a);
	double k = job_optimizer_bytes(job);
	double w = 0, g = 0, o = 0;
	switch (job->method) {
	case FIT_FULL:
		w = 2 * a.params;
		g = 2 * a.params;
		o = k * a.params;
		break;
	case FIT_LORA:
	case FIT_QLORA: {
		double ad = lora_params(job, &a);
		w = base_bytes(job, &a) + 2 * ad;
		g = 2 * ad;
		o = k * ad;
		break;
	}
	default:
		break;
	}
	*weights_gb = w / GB;
	*grads_gb = g / GB;
	*opt_gb = o / GB;
}

double fit_layer_activation_bytes(int seq, int batch, int hidden, int heads, bool checkpointed,
                                  bool flash_attention)
{
	double s = seq, b = batch, h = hidden, a = heads;
	if (checkpointed)
		return 2 * s * b * h;
	double per = 34.0;
	if (!flash_attention && h > 0)
		per += 5 * a * s / h;
	return s * b * h * per;
}

double fit_kv_bytes_per_token(const struct fit_job *job)
{
	struct fit_arch a;
	fit_resolve(&job->model, &a);
	double kvb = job->kv_bytes > 0 ? job->kv_bytes : 2.0;
	if (a.kv_latent > 0)
		return a.layers * a.kv_latent * kvb;
	return 2 * a.layers * a.kv_dim * kvb;
}

int fit_clamp_int(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Model states per GPU on n GPUs (GB): the sharding stage with the
 * accounting and offload of the job (fit/fit.h, docs/FIT.md). */
static void sharded_states(const struct fit_job *job, const struct fit_arch *a, double n,
                           struct fit_breakdown *out)
{
	double w, g, o;
	fit_model_states(job, &w, &g, &o);
	bool ds = job->accounting == FIT_ZACCT_DEEPSPEED;
	bool pure = job->pure_bf16;
	/* the trained parameters, whose fp32 gradient partition DeepSpeed keeps */
	double trained = (job->method == FIT_FULL ? a->params : lora_params(job, a)) / GB;
	double fp32_grads = ds && !pure ? 4 * trained : 0;
	double layer = 2 * a->largest / GB; /* 16-bit gathered layer (ZeRO-3) */
	switch (job->sharding) {
	case FIT_SHARD_ZERO3:
		o = (o + fp32_grads) / n;
		if (ds) {
			/* weights 2Ψ/N, fp32 states (K + 4)Ψ/N, and the largest
			 * layer gathered: 2 bytes of parameters + 2 of gradients */
			w = w / n + layer;
			g = job->method == FIT_FULL ? layer : g / n;
		} else {
			w /= n;
			g /= n;
		}
		if (job->offload != FIT_OFFLOAD_NONE)
			o = 0;
		if (job->offload == FIT_OFFLOAD_ALL)
			w = ds ? layer : 0;
		break;
	case FIT_SHARD_ZERO2:
	case FIT_SHARD_ZERO1:
		if (ds) {
			/* stage_1_and_2: 4Ψ of 16-bit weights and gradients in full
			 * + (K + 4)Ψ/N; the same estimator serves both stages */
			o = (o + fp32_grads) / n;
		} else {
			if (job->sharding == FIT_SHARD_ZERO2)
				g /= n;
			o /= n;
		}
		if (job->offload != FIT_OFFLOAD_NONE) {
			o = 0; /* ZeRO-Offload: optimizer step and fp32 states on the CPU */
			if (ds)
				g = 0; /* gradients stream to the CPU (estimator: 2Ψ) */
		}
		break;
	default:
		break;
	}
	out->weights = w;
	out->gradients = g;
	out->optimizer = o;
}

static void training_memory(const struct fit_job *job, const struct fit_arch *a, double n,
                            double s, double b, struct fit_breakdown *out)
{
	sharded_states(job, a, n, out);
	double full = fit_layer_activation_bytes((int)s, (int)b, (int)a->hidden, (int)a->heads,
	                                         false, job->flash_attention);
	double act;
	if (job->checkpointing && job->act_offload)
		act = 2 * s * b * a->hidden + full; /* the inputs wait in CPU memory */
	else if (job->checkpointing)
		act = a->layers * 2 * s * b * a->hidden + full;
	else
		act = a->layers * full;
	/* fp32 logits, whole or one chunk at a time */
	double ls = job->chunked_loss && s > FIT_LOSS_CHUNK ? FIT_LOSS_CHUNK : s;
	act += 4 * ls * b * a->vocab;
	out->activations = act / GB;
}

/* Inference on n GPUs: tensor parallel t × pipeline n/t. Weights and
 * activations split n ways; the KV cache splits by layers (pipeline) and by
 * KV heads (tensor parallel), replicated where t exceeds the KV heads. */
static void inference_memory(const struct fit_job *job, const struct fit_arch *a, int gpus,
                             double s, double b, struct fit_breakdown *out)
{
	double n = gpus;
	int t = fit_tp_degree((int)a->heads, gpus);
	double kv_split = a->kv_latent > 0 ? 1 : fmin((double)t, a->kv_heads);
	out->weights = a->params * fit_infer_weight_bytes(job) / GB / n;
	out->kv_cache = fit_kv_bytes_per_token(job) * s * b / GB / (n / t) / kv_split;
	double act = 2 * s * b * (4 * a->hidden + 2 * a->ffn) + 4 * b * a->vocab;
	out->activations = act / GB / n;
}

/* Diffusion, replicated on every GPU: denoiser + text encoders + VAE at 16
 * bits (the encoders left out when offloaded) and the peak activations: a
 * transformer denoiser (hidden known) holds act_bytes_per_token × hidden per
 * latent token, the latent being 8× smaller a side, patches of 2 × 2 and
 * video frames 4× fewer (+1): tokens = (1 + (F-1)/4) × W/16 × H/16 (the
 * model's latent_px and latent_frames where they differ); a U-Net
 * act_bytes_per_pixel per output pixel. */
static void diffusion_memory(const struct fit_job *job, const struct fit_arch *a, double b,
                             struct fit_breakdown *out)
{
	double extra = isfinite(job->model.extra_params_b) && job->model.extra_params_b > 0
	                       ? job->model.extra_params_b * GB
	                       : 0;
	if (job->encoders_offloaded)
		extra = 0;
	out->weights = 2 * (a->params + extra) / GB;
	double w = fit_clamp_int(job->width, 1, 1 << 16), h = fit_clamp_int(job->height, 1, 1 << 16);
	double f = fit_clamp_int(job->frames, 1, 1 << 20);
	if (job->model.hidden > 0) {
		double px = job->model.latent_px > 0 ? job->model.latent_px : 16;
		double fr = job->model.latent_frames > 0 ? job->model.latent_frames : 4;
		double tokens = (1 + floor((f - 1) / fr)) * ceil(w / px) * ceil(h / px);
		double bpt = isfinite(job->act_bytes_per_token) && job->act_bytes_per_token > 0
		                     ? job->act_bytes_per_token
		                     : 0;
		out->activations = b * tokens * job->model.hidden * bpt / GB;
	} else {
		double bpp = isfinite(job->act_bytes_per_pixel) && job->act_bytes_per_pixel > 0
		                     ? job->act_bytes_per_pixel
		                     : 0;
		out->activations = b * w * h * f * bpp / GB;
	}
}

void fit_memory(const struct fit_job *job, int gpus, struct fit_breakdown *out)
{
	struct fit_arch a;
	fit_resolve(&job->model, &a);
	memset(out, 0, sizeof *out);
	int n = fit_clamp_int(gpus, 1, FIT_MAX_GPUS);
	double s = fit_clamp_int(job->seq_len, 1, 1 << 24);
	double b = fit_clamp_int(job->batch, 1, 1 << 20);

	if (fit_method_is_training(job->method))
		training_memory(job, &a, n, s, b, out);
	else if (fit_method_is_inference(job->method))
		inference_memory(job, &a, n, s, b, out);
	else
		diffusion_memory(job, &a, b, out);
	if (fit_method_is_training(job->method) && job->paged_optimizer) {
		out->paged = out->optimizer; /* evictable: not in the total */
		out->optimizer = 0;
	}
	double sub = out->weights + out->gradients + out->optimizer + out->activations +
	             out->kv_cache;
	double oh = isfinite(job->overhead_gb) && job->overhead_gb > 0 ? job->overhead_gb : 0;
	double mf = isfinite(job->margin_fraction) && job->margin_fraction > 0 ? job->margin_fraction
	                                                                        : 0;
	out->margin = oh + mf * sub;
	out->total = sub + out->margin;
}

int fit_tp_degree(int heads, int gpus)
{
	static const int degrees[] = {8, 4, 2};
	for (int i = 0; i < 3; i++) {
		int d = degrees[i];
		if (d <= gpus && gpus % d == 0 && (heads <= 0 || heads % d == 0))
			return d;
	}
	return 1;
}

int fit_gpu_group(int index)
{
	if (index < 0)
		return 1;
	if (index < 4)
		return 1 << index;
	long n = 8L * (index - 2);
	return n > FIT_MAX_GPUS ? FIT_MAX_GPUS : (int)n;
}

/* Does the job fit on `gpus` GPUs of memory_gb each? */
static bool fits_at(const struct fit_job *job, int gpus, double memory_gb)
{
	struct fit_breakdown m;
	fit_memory(job, gpus, &m);
	return m.total <= memory_gb * (1 + 1e-12);
}

/* Does the per-GPU need drop as GPUs are added? */
static bool sharded(const struct fit_job *job)
{
	if (fit_method_is_inference(job->method))
		return true;
	if (fit_method_is_training(job->method))
		return job->sharding != FIT_SHARD_NONE;
	return false;
}

#define LAST_GROUP (FIT_MAX_GPUS / 8 + 2) /* fit_gpu_group(LAST_GROUP) = FIT_MAX_GPUS */

int fit_gpus_needed(const struct fit_job *job, double memory_gb)
{
	if (!isfinite(memory_gb) || memory_gb <= 0)
		return -1;
	if (fits_at(job, 1, memory_gb))
		return 1;
	if (!sharded(job) || !fits_at(job, FIT_MAX_GPUS, memory_gb))
		return 0;
	/* the per-GPU need falls with the count: bisect over the groups */
	int lo = 0, hi = LAST_GROUP; /* group lo does not fit, hi does */
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;
		if (fits_at(job, fit_gpu_group(mid), memory_gb))
			hi = mid;
		else
			lo = mid;
	}
	return fit_gpu_group(hi);
}
