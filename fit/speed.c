/*
 * Time, speed and money built on the memory model (fit/model.c): training
 * hours, decode tokens/s per weight format and GPU count, the cost of a run,
 * fit_evaluate (everything a row shows) and fit_job_check.
 *
 * Training FLOPs per token (Chowdhery et al. 2022, PaLM, Appendix B):
 * 6·N for the weights (forward 2 + backward 4; 4 with a frozen LoRA base)
 * + 12·L·H·Q·T for attention (L layers, H heads of Q dims, T tokens of
 * context), which grows with the sequence length; hours = FLOPs ÷ (GPUs ×
 * dense BF16 FLOPS × MFU). MFU is an assumption (default 40 %).
 *
 * Decode is bound by memory bandwidth: each step reads the active weights
 * (less the input embedding; for a mixture of experts the experts the batch
 * touches) at the format's bytes and every sequence's KV cache, at the
 * format's bandwidth efficiency, split across the tensor-parallel degree t;
 * each layer adds a fixed cost per format (kernel launches, dequantisation
 * set-up) and 2 all-reduces of the batch's hidden states costing hop × (2 +
 * log2 t) µs of latency plus their bytes over the link (a ring moves
 * 2(t-1)/t of them each way). The efficiencies, per-layer costs and hop are
 * fitted together to gpt-fast's 29 A100 measurements (docs/FIT.md); a large
 * batch is floored by compute. Prefill is compute-bound at the MFU.
 */
#include "fit/fit.h"
#include "fit/fit_int.h"
#include "util/util.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

double fit_train_hours(const struct fit_job *job, double bf16_tflops, int gpus)
{
	if (!fit_method_is_training(job->method) || !isfinite(bf16_tflops) || bf16_tflops <= 0 ||
	    gpus <= 0 || !isfinite(job->mfu) || job->mfu <= 0 || !isfinite(job->tokens_b) ||
	    job->tokens_b < 0)
		return NAN;
	struct fit_arch a;
	fit_resolve(&job->model, &a);
	double k = job->method == FIT_FULL ? 6.0 : 4.0;
	double s = fit_clamp_int(job->seq_len, 1, 1 << 24);
	double per_token = k * a.active + 12.0 * a.layers * a.q_dim * s;
	double flops = per_token * job->tokens_b * GB;
	double rate = (double)gpus * bf16_tflops * 1e12 * job->mfu;
	return flops / rate / 3600.0;
}

/* The job's weight format among the three the decode constants are kept
 * for: 0 16-bit, 1 8-bit (int8, FP8), 2 int4. */
static int weight_format(const struct fit_job *job)
{
	switch (job->method) {
	case FIT_INFER_FP8:
	case FIT_INFER_INT8: return 1;
	case FIT_INFER_INT4: return 2;
	default: return 0;
	}
}

double fit_job_bw_efficiency(const struct fit_job *job)
{
	const double v[3] = {job->bw_efficiency, job->bw_efficiency_8bit, job->bw_efficiency_4bit};
	return v[weight_format(job)];
}

void fit_job_set_bw_efficiency(struct fit_job *job, double v)
{
	double *p[3] = {&job->bw_efficiency, &job->bw_efficiency_8bit, &job->bw_efficiency_4bit};
	*p[weight_format(job)] = v;
}

double fit_job_layer_us(const struct fit_job *job)
{
	const double v[3] = {job->layer_us, job->layer_us_8bit, job->layer_us_4bit};
	return v[weight_format(job)];
}

void fit_job_set_layer_us(struct fit_job *job, double v)
{
	double *p[3] = {&job->layer_us, &job->layer_us_8bit, &job->layer_us_4bit};
	*p[weight_format(job)] = v;
}

/* Seconds of all-reduce per decoding step on t GPUs. */
static double allreduce_s(const struct fit_job *job, const struct fit_arch *a, int t, double b,
                          double link_gbs)
{
	if (t <= 1)
		return 0;
	double hop = isfinite(job->allreduce_hop_us) && job->allreduce_hop_us > 0
	                     ? job->allreduce_hop_us * 1e-6
	                     : 0;
	double one = hop * (2 + log2((double)t));
	if (isfinite(link_gbs) && link_gbs > 0)
		one += 2.0 * (t - 1) / t * (b * a->hidden * 2) / (link_gbs / 2 * GB);
	return 2 * a->layers * one;
}

/* Weight bytes a step reads, from the resolved architecture (see
 * fit_decode_weight_bytes). */
static double step_weight_bytes(const struct fit_job *job, const struct fit_arch *a, double b)
{
	const struct fit_model *m = &job->model;
	double read = a->active;
	double e = m->experts, k = m->experts_per_token;
	if (e > 0 && k > 0 && k < e && a->params > a->active) {
		double expert = (a->params - a->active) / (e - k); /* one expert, all layers */
		double always = a->active - k * expert;           /* attention, dense, shared */
		double touched = e * (1 - pow(1 - k / e, b));
		read = fmin(always + touched * expert, a->params);
	}
	if (!m->tied_embeddings)
		read -= fmin(a->vocab * a->hidden, 0.5 * read); /* one embedding row */
	return read * fit_infer_weight_bytes(job);
}

double fit_decode_weight_bytes(const struct fit_job *job, int batch)
{
	struct fit_arch a;
	fit_resolve(&job->model, &a);
	return step_weight_bytes(job, &a, fit_clamp_int(batch, 1, 1 << 20));
}

/* Seconds of one decoding step for the whole batch on `gpus` GPUs. */
static double step_seconds(const struct fit_job *job, const struct fit_arch *a, double bandwidth_gbs,
                           double link_gbs, int gpus)
{
	double s = fit_clamp_int(job->seq_len, 1, 1 << 24);
	double b = fit_clamp_int(job->batch, 1, 1 << 20);
	int t = fit_tp_degree((int)a->heads, fit_clamp_int(gpus, 1, FIT_MAX_GPUS));
	double bytes = step_weight_bytes(job, a, b) + fit_kv_bytes_per_token(job) * s * b;
	double layer = fit_job_layer_us(job);
	double fixed = isfinite(layer) && layer > 0 ? a->layers * layer * 1e-6 : 0;
	return bytes / (t * bandwidth_gbs * GB * fit_job_bw_efficiency(job)) + fixed +
	       allreduce_s(job, a, t, b, link_gbs);
}

static bool decode_ok(const struct fit_job *job, double bandwidth_gbs, int gpus)
{
	double eff = fit_job_bw_efficiency(job);
	return fit_method_is_inference(job->method) && isfinite(bandwidth_gbs) && bandwidth_gbs > 0 &&
	       gpus > 0 && isfinite(eff) && eff > 0;
}

double fit_decode_tokens_s(const struct fit_job *job, double bandwidth_gbs, double link_gbs,
                           int gpus)
{
	if (!decode_ok(job, bandwidth_gbs, gpus))
		return NAN;
	struct fit_arch a;
	fit_resolve(&job->model, &a);
	return 1.0 / step_seconds(job, &a, bandwidth_gbs, link_gbs, gpus);
}

double fit_decode_tokens_s_on(const struct fit_job *job, const struct fit_gpu *gpu, int gpus)
{
	if (!decode_ok(job, gpu->bandwidth_gbs, gpus))
		return NAN;
	struct fit_arch a;
	fit_resolve(&job->model, &a);
	int n = fit_clamp_int(gpus, 1, FIT_MAX_GPUS);
	int t = fit_tp_degree((int)a.heads, n);
	double step = step_seconds(job, &a, gpu->bandwidth_gbs, fit_tp_link_gbs(gpu, t), n);
	/* a large batch is bound by compute: 2 FLOPs per active parameter and
	 * sequence, at the MFU */
	if (isfinite(gpu->bf16_tflops) && gpu->bf16_tflops > 0 && job->mfu > 0) {
		double b = fit_clamp_int(job->batch, 1, 1 << 20);
		double compute = 2 * a.active * b / (t * gpu->bf16_tflops * 1e12 * job->mfu);
		step = fmax(step, compute);
	}
	return 1.0 / step;
}

double fit_prefill_seconds(const struct fit_job *job, double bf16_tflops, int gpus)
{
	if (!fit_method_is_inference(job->method) || !isfinite(bf16_tflops) || bf16_tflops <= 0 ||
	    gpus <= 0 || !isfinite(job->mfu) || job->mfu <= 0)
		return NAN;
	struct fit_arch a;
	fit_resolve(&job->model, &a);
	double s = fit_clamp_int(job->seq_len, 1, 1 << 24);
	double p = job->prompt_tokens > 0 ? fmin(job->prompt_tokens, s) : s;
	double b = fit_clamp_int(job->batch, 1, 1 << 20);
	int t = fit_tp_degree((int)a.heads, fit_clamp_int(gpus, 1, FIT_MAX_GPUS));
	double flops = (2 * a.active + 2 * a.layers * a.q_dim * p) * p * b;
	return flops / (t * bf16_tflops * 1e12 * job->mfu);
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
	int gpus = fit_clamp_int(job->gpus, 1, FIT_MAX_GPUS);
	struct fit_breakdown at_job;
	fit_memory(job, gpus, &at_job);
	fit_memory(job, 1, &out->mem_one);
	out->available_gb = gpu->memory_gb;
	if (!isfinite(gpu->memory_gb) || gpu->memory_gb <= 0) {
		out->available_gb = NAN;
		out->fits = -1;
		out->gpus_needed = -1;
		out->gpus_run = gpus;
	} else {
		out->fits = at_job.total <= gpu->memory_gb * (1 + 1e-12);
		out->gpus_needed = fit_gpus_needed(job, gpu->memory_gb);
		if (out->fits)
			out->gpus_run = gpus;
		else if (out->gpus_needed > gpus)
			out->gpus_run = out->gpus_needed;
		else
			out->gpus_run = 0;
	}
	out->mem_gpus = out->gpus_run > 0 ? out->gpus_run : gpus;
	if (out->mem_gpus == gpus)
		out->mem = at_job;
	else
		fit_memory(job, out->mem_gpus, &out->mem);
	out->hourly_cents = fit_hourly_cents(out->gpus_run, gpu->price_cents);
	out->train_hours = out->gpus_run > 0 ? fit_train_hours(job, gpu->bf16_tflops, out->gpus_run)
	                                     : NAN;
	out->run_cents = fit_run_cents(out->train_hours, out->gpus_run, gpu->price_cents);
	out->decode_tokens_s = out->gpus_run > 0 ? fit_decode_tokens_s_on(job, gpu, out->gpus_run)
	                                         : NAN;
	out->decode_tokens_s_total = out->decode_tokens_s * fit_clamp_int(job->batch, 1, 1 << 20);
	out->prefill_s = out->gpus_run > 0 ? fit_prefill_seconds(job, gpu->bf16_tflops, out->gpus_run)
	                                   : NAN;
	fit_node_shape(job, gpu, out->mem_gpus, &out->shape);
}

static bool fraction_ok(double v)
{
	return isfinite(v) && v > 0 && v <= 1;
}

static bool layer_us_ok(double v)
{
	return isfinite(v) && v >= 0 && v <= 1e6;
}

/* The fine-tuning stack, the decode costs, the experts and the prompt. */
static int check_stack(const struct fit_job *job, char **cause)
{
	const struct fit_model *m = &job->model;
	if ((unsigned)job->stack >= FIT_STACK_COUNT)
		return set_cause(cause, "%s", N_("unknown fine-tuning stack"));
	if (job->embed_bits != 16 && job->embed_bits != 32)
		return set_cause(cause, "%s", N_("embedding bits must be 16 or 32"));
	if (job->act_offload && !job->checkpointing && fit_method_is_training(job->method))
		return set_cause(cause, "%s", N_("offloaded activations need checkpointing"));
	if (!layer_us_ok(job->layer_us) || !layer_us_ok(job->layer_us_8bit) ||
	    !layer_us_ok(job->layer_us_4bit))
		return set_cause(cause, "%s", N_("decode cost per layer must be from 0 to 1000000 µs"));
	if (m->experts < 0 || m->experts > 65536 || m->experts_per_token < 0 ||
	    m->experts_per_token > (m->experts > 0 ? m->experts : 0))
		return set_cause(cause, "%s", N_("experts per token must be from 1 to the experts"));
	if (m->experts > 0 && m->experts_per_token < 1)
		return set_cause(cause, "%s", N_("experts per token must be from 1 to the experts"));
	if (job->prompt_tokens < 0 || job->prompt_tokens > job->seq_len)
		return set_cause(cause, "%s", N_("prompt tokens must be from 0 to the context length"));
	return 0;
}

/* The fields added for architecture, precision and parallelism. */
static int check_more(const struct fit_job *job, char **cause)
{
	const struct fit_model *m = &job->model;
	if (m->layers < 0 || m->layers > 100000 || m->hidden < 0 || m->hidden > 1000000 ||
	    m->heads < 0 || m->heads > 100000 || m->kv_heads < 0 || m->kv_heads > 100000 ||
	    m->head_dim < 0 || m->head_dim > 100000 || m->vocab < 0 || m->vocab > 100000000)
		return set_cause(cause, "%s", N_("architecture figures must be whole numbers from 1 to their limit"));
	if (m->heads > 0 && m->kv_heads > 0 && (m->kv_heads > m->heads || m->heads % m->kv_heads != 0))
		return set_cause(cause, "%s", N_("KV heads must divide the attention heads"));
	if ((unsigned)job->accounting >= FIT_ZACCT_COUNT)
		return set_cause(cause, "%s", N_("unknown ZeRO accounting"));
	if ((unsigned)job->offload >= FIT_OFFLOAD_COUNT)
		return set_cause(cause, "%s", N_("unknown offload"));
	if (job->offload != FIT_OFFLOAD_NONE && job->sharding == FIT_SHARD_NONE)
		return set_cause(cause, "%s", N_("CPU offload needs ZeRO stage 1, 2 or 3"));
	if (job->int4_group < 8 || job->int4_group > 65536)
		return set_cause(cause, "%s", N_("int4 group size must be from 8 to 65536"));
	if (!fraction_ok(job->bw_efficiency) || !fraction_ok(job->bw_efficiency_8bit) ||
	    !fraction_ok(job->bw_efficiency_4bit))
		return set_cause(cause, "%s",
		                 N_("bandwidth efficiency must be above 0 and at most 100 %"));
	if (!isfinite(job->allreduce_hop_us) || job->allreduce_hop_us < 0 ||
	    job->allreduce_hop_us > 1e6)
		return set_cause(cause, "%s", N_("all-reduce latency must be from 0 to 1000000 µs"));
	if (!isfinite(job->act_bytes_per_token) || job->act_bytes_per_token < 0 ||
	    job->act_bytes_per_token > 1e6)
		return set_cause(cause, "%s", N_("activation bytes per token must be from 0 to 1000000"));
	return check_stack(job, cause);
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
	return check_more(job, cause);
}
