/*
 * The calculator: memory per GPU of a job, whether it fits, how many GPUs it
 * needs, and the time, cost and speed estimates built on that.
 *
 * Memory per GPU (GB = 10^9 bytes), for a job on N GPUs:
 *
 *   training (full, LoRA, QLoRA) — model states after Rajbhandari et al.
 *     2020 (ZeRO): full training with Adam in mixed precision keeps 2 bytes
 *     of 16-bit weights, 2 of 16-bit gradients and K = 12 of optimizer state
 *     (fp32 master weights, momentum, variance) per parameter; 8-bit Adam
 *     K = 6 (fp32 master + two 1-byte moments), SGD with momentum K = 8.
 *     ZeRO-1 divides the optimizer states by N, ZeRO-2 the gradients too,
 *     ZeRO-3/FSDP the weights too; "none" divides nothing (data parallel).
 *     LoRA: the frozen base at 2 bytes/param (QLoRA: quant4_bits/8, NF4 with
 *     double quantisation = 4.127 bits, Dettmers et al. 2023 §3) plus
 *     adapters of rank r on all seven linear maps of each block (q k v o
 *     gate up down), trained like full training (2 + 2 + K bytes each).
 *     Activations per GPU (a micro-batch per GPU; not divided by N), after
 *     Korthikanti et al. 2022 (§4.1, tensor parallel 1): s·b·h·(34 + 5·a·s/h)
 *     bytes per layer, 34·s·b·h with flash attention (no attention scores
 *     kept); with full recomputation 2·s·b·h per layer (the layer inputs)
 *     plus one layer's full activations being recomputed; plus the fp32
 *     logits of the output layer, 4·s·b·v (§4.3).
 *   inference — weights at the precision (2, 1, 1, quant4_bits/8 bytes),
 *     KV cache 2 · layers · kv_heads · head_dim · seq · batch · kv_bytes
 *     (grouped-query attention; MLA caches kv_latent_dim per layer), and a
 *     prefill working set of one layer, 2 bytes × s·b·(4h + 2·ffn), plus the
 *     last position's fp32 logits; all split across N GPUs (tensor
 *     parallelism), so N is rounded up to a divisor of the attention heads.
 *   diffusion — denoiser + text encoders + VAE at 16 bits, replicated on
 *     every GPU, and act_bytes_per_pixel × pixels × frames × batch of peak
 *     activations. 2048 B/pixel reproduces SDXL at 1024² in bf16 (batch 1,
 *     CFG, SDPA): 6.9 GB of weights + 2.1 GB ≈ the 8.8 GB peak measured by
 *     diffusion-fast (see tests/unit/test_fit.c).
 *   margin — overhead_gb (CUDA context, framework, communication buffers;
 *     default 1 GB) + margin_fraction (allocator fragmentation, temporaries;
 *     default 10 %) of everything above.
 *
 * A job fits when the total, margin included, is at most the GPU's full
 * memory: the margin is the headroom, stated and editable. (The seed-table
 * rule in rule.c instead counts 80 % of the memory; the two are separate.)
 *
 * Time: k · active params · tokens ÷ (N × dense BF16 FLOPS × MFU), k = 6
 * (forward 2 + backward 4, Kaplan et al. 2020), 4 for LoRA/QLoRA (no weight
 * gradients for the frozen base). Decode: bandwidth-bound, N × bandwidth ×
 * efficiency ÷ (weights of the active params + the KV cache of every
 * sequence at full context) per step. Default efficiency 0.70: gpt-fast
 * reached 1397 GB/s of the A100-80GB's 2039 (0.685) decoding Llama-2-7B.
 */
#include "fit/fit.h"
#include "fit/fit_int.h"
#include "util/util.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define GB 1e9

/* The architecture the formulas use: every field known and positive. */
struct arch {
	double params;        /* total parameters */
	double active;        /* per token */
	double layers, hidden, heads, kv_heads, head_dim, vocab, ffn, kv_latent;
	double q_dim;         /* heads × head_dim */
	double kv_dim;        /* kv_heads × head_dim */
};

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
	job->lora_rank = 16;
	job->quant4_bits = 4.127;   /* NF4 + double quantisation (QLoRA §3) */
	job->kv_bytes = 2.0;        /* 16-bit KV cache (vLLM's default) */
	job->overhead_gb = 1.0;
	job->margin_fraction = 0.10;
	job->tokens_b = 1.0;
	job->mfu = 0.40;
	job->bw_efficiency = 0.70;
	job->width = 1024;
	job->height = 1024;
	job->frames = 1;
	job->act_bytes_per_pixel = 2048.0;
}

static int round_up(double v, int to)
{
	long n = lround(ceil(v / to));
	return (int)(n < 1 ? to : n * to);
}

int fit_model_from_size(double params_b, struct fit_model *out, char **cause)
{
	if (!isfinite(params_b) || params_b < FIT_SIZE_MIN_B * (1 - 1e-12) ||
	    params_b > FIT_SIZE_MAX_B * (1 + 1e-12))
		return set_cause(cause, "%s", N_("model size out of range: from 1M to 100T parameters"));
	memset(out, 0, sizeof *out);
	out->params_b = params_b;
	out->active_params_b = params_b;
	/* A Llama-like block (grouped-query attention, SwiGLU FFN of 3.5·h)
	 * holds about 13·h² parameters, and hidden / layers ≈ 128 (Llama 2 7B:
	 * 4096/32, Llama 3 405B: 16384/126), so params ≈ 13·h³/128. hidden is
	 * rounded to a multiple of 1024 (256 below 3584) so that the head count
	 * has the small divisors tensor parallelism needs; layers then follow
	 * from the size: 7B → 4096 × 32 layers, 13B → 5120 × 38, 70B →
	 * 9216 × 63, 405B → 15360 × 132. */
	double h = cbrt(params_b * 1e9 * 128.0 / 13.0);
	int step = h >= 3584 ? 1024 : 256;
	int hidden = (int)lround(h / step) * step;
	if (hidden < 256)
		hidden = 256;
	out->hidden = hidden;
	out->layers = (int)lround(fmax(1.0, params_b * 1e9 / (13.0 * hidden * (double)hidden)));
	out->head_dim = 128;
	out->heads = hidden / 128;
	out->kv_heads = out->heads < 8 ? out->heads : 8;
	out->vocab = 128256;
	out->ffn = round_up(3.5 * hidden, 256);
	out->guessed = true;
	return 0;
}

static void resolve(const struct fit_model *m, struct arch *a)
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

double fit_infer_weight_bytes(const struct fit_job *job)
{
	switch (job->method) {
	case FIT_INFER_FP8:
	case FIT_INFER_INT8: return 1.0;
	case FIT_INFER_INT4:
	case FIT_QLORA: return job->quant4_bits / 8.0;
	default: return 2.0;
	}
}

static double lora_params(const struct fit_job *job, const struct arch *a)
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
	struct arch a;
	resolve(&job->model, &a);
	return lora_params(job, &a) / GB;
}

void fit_model_states(const struct fit_job *job, double *weights_gb, double *grads_gb,
                      double *opt_gb)
{
	struct arch a;
	resolve(&job->model, &a);
	double k = fit_optimizer_bytes(job->optimizer);
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
		double base = job->method == FIT_LORA ? 2.0 : job->quant4_bits / 8.0;
		w = base * a.params + 2 * ad;
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
	struct arch a;
	resolve(&job->model, &a);
	double kvb = job->kv_bytes > 0 ? job->kv_bytes : 2.0;
	if (a.kv_latent > 0)
		return a.layers * a.kv_latent * kvb;
	return 2 * a.layers * a.kv_dim * kvb;
}

static int clamp_int(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void fit_memory(const struct fit_job *job, int gpus, struct fit_breakdown *out)
{
	struct arch a;
	resolve(&job->model, &a);
	memset(out, 0, sizeof *out);
	double n = clamp_int(gpus, 1, FIT_MAX_GPUS);
	double s = clamp_int(job->seq_len, 1, 1 << 24);
	double b = clamp_int(job->batch, 1, 1 << 20);

	if (fit_method_is_training(job->method)) {
		double w, g, o;
		fit_model_states(job, &w, &g, &o);
		switch (job->sharding) {
		case FIT_SHARD_ZERO3: w /= n; /* fall through */
		case FIT_SHARD_ZERO2: g /= n; /* fall through */
		case FIT_SHARD_ZERO1: o /= n; break;
		default: break;
		}
		out->weights = w;
		out->gradients = g;
		out->optimizer = o;
		double full = fit_layer_activation_bytes((int)s, (int)b, (int)a.hidden, (int)a.heads,
		                                         false, job->flash_attention);
		double act;
		if (job->checkpointing)
			act = a.layers * 2 * s * b * a.hidden + full;
		else
			act = a.layers * full;
		act += 4 * s * b * a.vocab; /* fp32 logits */
		out->activations = act / GB;
	} else if (fit_method_is_inference(job->method)) {
		out->weights = a.params * fit_infer_weight_bytes(job) / GB / n;
		out->kv_cache = fit_kv_bytes_per_token(job) * s * b / GB / n;
		double act = 2 * s * b * (4 * a.hidden + 2 * a.ffn) + 4 * b * a.vocab;
		out->activations = act / GB / n;
	} else { /* diffusion: replicated */
		double extra = isfinite(job->model.extra_params_b) && job->model.extra_params_b > 0
		                       ? job->model.extra_params_b * GB
		                       : 0;
		out->weights = 2 * (a.params + extra) / GB;
		double px = (double)clamp_int(job->width, 1, 1 << 16) *
		            clamp_int(job->height, 1, 1 << 16) * clamp_int(job->frames, 1, 1 << 20);
		double bpp = isfinite(job->act_bytes_per_pixel) && job->act_bytes_per_pixel > 0
		                     ? job->act_bytes_per_pixel
		                     : 0;
		out->activations = b * px * bpp / GB;
	}
	double sub = out->weights + out->gradients + out->optimizer + out->activations +
	             out->kv_cache;
	double oh = isfinite(job->overhead_gb) && job->overhead_gb > 0 ? job->overhead_gb : 0;
	double mf = isfinite(job->margin_fraction) && job->margin_fraction > 0 ? job->margin_fraction
	                                                                        : 0;
	out->margin = oh + mf * sub;
	out->total = sub + out->margin;
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

int fit_gpus_needed(const struct fit_job *job, double memory_gb)
{
	if (!isfinite(memory_gb) || memory_gb <= 0)
		return -1;
	if (fits_at(job, 1, memory_gb))
		return 1;
	if (!sharded(job) || !fits_at(job, FIT_MAX_GPUS, memory_gb))
		return 0;
	int lo = 1, hi = FIT_MAX_GPUS; /* lo does not fit, hi does */
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;
		if (fits_at(job, mid, memory_gb))
			hi = mid;
		else
			lo = mid;
	}
	if (fit_method_is_inference(job->method)) {
		struct arch a;
		resolve(&job->model, &a);
		int heads = (int)a.heads;
		if (heads > 0 && hi <= heads) {
			while (heads % hi != 0)
				hi++;
		}
	}
	return hi;
}

double fit_train_hours(const struct fit_job *job, double bf16_tflops, int gpus)
{
	if (!fit_method_is_training(job->method) || !isfinite(bf16_tflops) || bf16_tflops <= 0 ||
	    gpus <= 0 || !isfinite(job->mfu) || job->mfu <= 0 || !isfinite(job->tokens_b) ||
	    job->tokens_b < 0)
		return NAN;
	struct arch a;
	resolve(&job->model, &a);
	double k = job->method == FIT_FULL ? 6.0 : 4.0;
	double flops = k * a.active * job->tokens_b * GB;
	double rate = (double)gpus * bf16_tflops * 1e12 * job->mfu;
	return flops / rate / 3600.0;
}

double fit_decode_tokens_s(const struct fit_job *job, double bandwidth_gbs, int gpus)
{
	if (!fit_method_is_inference(job->method) || !isfinite(bandwidth_gbs) ||
	    bandwidth_gbs <= 0 || gpus <= 0 || !isfinite(job->bw_efficiency) ||
	    job->bw_efficiency <= 0)
		return NAN;
	struct arch a;
	resolve(&job->model, &a);
	double s = clamp_int(job->seq_len, 1, 1 << 24);
	double b = clamp_int(job->batch, 1, 1 << 20);
	double bytes = a.active * fit_infer_weight_bytes(job) + fit_kv_bytes_per_token(job) * s * b;
	return (double)gpus * bandwidth_gbs * GB * job->bw_efficiency / bytes;
}

int64_t fit_hourly_cents(int gpus, int64_t price_cents)
{
	if (gpus <= 0 || price_cents < 0 || price_cents > INT64_MAX / gpus)
		return -1;
	return price_cents * gpus;
}

int64_t fit_run_cents(double hours, int gpus, int64_t price_cents)
{
	if (!isfinite(hours) || hours < 0 || hours > 1e12)
		return -1;
	int64_t h = (int64_t)ceil(hours - 1e-9);
	if (h < 0)
		h = 0;
	int64_t per_hour = fit_hourly_cents(gpus, price_cents);
	if (per_hour < 0)
		return -1;
	if (h != 0 && per_hour > INT64_MAX / h)
		return -1;
	return per_hour * h;
}

void fit_evaluate(const struct fit_job *job, const struct fit_gpu *gpu, struct fit_result *out)
{
	memset(out, 0, sizeof *out);
	int gpus = clamp_int(job->gpus, 1, FIT_MAX_GPUS);
	fit_memory(job, gpus, &out->mem);
	out->available_gb = gpu->memory_gb;
	if (!isfinite(gpu->memory_gb) || gpu->memory_gb <= 0) {
		out->available_gb = NAN;
		out->fits = -1;
		out->gpus_needed = -1;
		out->gpus_run = gpus;
	} else {
		out->fits = out->mem.total <= gpu->memory_gb * (1 + 1e-12);
		out->gpus_needed = fit_gpus_needed(job, gpu->memory_gb);
		if (out->fits)
			out->gpus_run = gpus;
		else if (out->gpus_needed > gpus)
			out->gpus_run = out->gpus_needed;
		else
			out->gpus_run = 0;
	}
	out->hourly_cents = fit_hourly_cents(out->gpus_run, gpu->price_cents);
	out->train_hours = out->gpus_run > 0 ? fit_train_hours(job, gpu->bf16_tflops, out->gpus_run)
	                                     : NAN;
	out->run_cents = fit_run_cents(out->train_hours, out->gpus_run, gpu->price_cents);
	out->decode_tokens_s = out->gpus_run > 0
	                               ? fit_decode_tokens_s(job, gpu->bandwidth_gbs, out->gpus_run)
	                               : NAN;
	out->decode_tokens_s_total = out->decode_tokens_s * clamp_int(job->batch, 1, 1 << 20);
}

int fit_job_check(const struct fit_job *job, char **cause)
{
	const struct fit_model *m = &job->model;
	if (!isfinite(m->params_b) || m->params_b < FIT_SIZE_MIN_B * (1 - 1e-12) ||
	    m->params_b > FIT_SIZE_MAX_B * (1 + 1e-12))
		return set_cause(cause, "%s", N_("model size out of range: from 1M to 100T parameters"));
	if (isfinite(m->active_params_b) && m->active_params_b > m->params_b * (1 + 1e-12))
		return set_cause(cause, "%s", N_("active parameters cannot exceed the model's parameters"));
	if ((unsigned)job->method >= FIT_METHOD_COUNT)
		return set_cause(cause, "%s", N_("unknown method"));
	if ((unsigned)job->sharding >= FIT_SHARD_COUNT)
		return set_cause(cause, "%s", N_("unknown sharding"));
	if ((unsigned)job->optimizer >= FIT_OPT_COUNT)
		return set_cause(cause, "%s", N_("unknown optimizer"));
	if (job->seq_len < 1 || job->seq_len > (1 << 24))
		return set_cause(cause, "%s",
		                 N_("sequence length must be a whole number from 1 to 16777216"));
	if (job->batch < 1 || job->batch > (1 << 20))
		return set_cause(cause, "%s", N_("batch must be a whole number from 1 to 1048576"));
	if (job->gpus < 1 || job->gpus > FIT_MAX_GPUS)
		return set_cause(cause, "%s", N_("GPUs must be a whole number from 1 to 1048576"));
	if (job->lora_rank < 1 || job->lora_rank > 65536)
		return set_cause(cause, "%s", N_("LoRA rank must be a whole number from 1 to 65536"));
	if (!isfinite(job->quant4_bits) || job->quant4_bits < 2 || job->quant4_bits > 16)
		return set_cause(cause, "%s", N_("bits per 4-bit weight must be from 2 to 16"));
	if (!isfinite(job->kv_bytes) || job->kv_bytes <= 0 || job->kv_bytes > 4)
		return set_cause(cause, "%s", N_("KV-cache bytes per element must be above 0 and at most 4"));
	if (!isfinite(job->overhead_gb) || job->overhead_gb < 0 || job->overhead_gb > 1000)
		return set_cause(cause, "%s", N_("overhead must be from 0 to 1000 GB"));
	if (!isfinite(job->margin_fraction) || job->margin_fraction < 0 || job->margin_fraction > 1)
		return set_cause(cause, "%s", N_("margin must be from 0 to 100 %"));
	if (!isfinite(job->tokens_b) || job->tokens_b <= 0 || job->tokens_b > 1e7)
		return set_cause(cause, "%s", N_("training tokens must be above 0 and at most 10 quadrillion"));
	if (!isfinite(job->mfu) || job->mfu <= 0 || job->mfu > 1)
		return set_cause(cause, "%s", N_("MFU must be above 0 and at most 100 %"));
	if (!isfinite(job->bw_efficiency) || job->bw_efficiency <= 0 || job->bw_efficiency > 1)
		return set_cause(cause, "%s",
		                 N_("bandwidth efficiency must be above 0 and at most 100 %"));
	if (job->width < 1 || job->width > 65536 || job->height < 1 || job->height > 65536)
		return set_cause(cause, "%s", N_("resolution must be from 1 to 65536 pixels a side"));
	if (job->frames < 1 || job->frames > (1 << 20))
		return set_cause(cause, "%s", N_("frames must be a whole number from 1 to 1048576"));
	if (!isfinite(job->act_bytes_per_pixel) || job->act_bytes_per_pixel < 0 ||
	    job->act_bytes_per_pixel > 1e6)
		return set_cause(cause, "%s", N_("activation bytes per pixel must be from 0 to 1000000"));
	return 0;
}
