/*
 * The reference suite: fit/'s answers held against figures published by
 * others — the ZeRO paper, DeepSpeed's memory estimators as its
 * documentation prints them, the Hugging Face DeepSpeed guide, gpt-fast's
 * measured decode speeds (A100 and MI250X), the vLLM paper, Meta's
 * GPU-hours, Unsloth's fine-tuning requirements, the peak VRAM that
 * diffusion/video projects publish, and the headline parameter counts of
 * mixture-of-experts and dense models counted from their config.json.
 *
 * Every figure is one cmocka test of its own, named by the figure, which
 * fails by itself when gpux strays past its tolerance: ±10 % unless the
 * source prints a rounded figure (then its rounding). A figure gpux does
 * not reproduce within 10 % carries the reason in `outside` (docs/FIT.md
 * lists them) and is held to the bound beside it, so a change that makes it
 * worse fails; one marked outside that comes back within 10 % fails too,
 * so the list stays true. The last test checks the suite's size.
 *
 * The run prints the table (case, published, gpux, error):
 * build/tests/test_fit_reference.
 *
 * Units: DeepSpeed prints GiB (and MiB in its t5-large example); diffusers
 * prints GB as bytes / 1024³. gpux counts GB = 10^9 bytes; each case
 * converts.
 */
#include "fit/fit.h"
#include "data/catalog.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define GIB (1073741824.0 / 1e9) /* GB per GiB */
#define MIB (1048576.0 / 1e9)    /* GB per MiB */

#ifndef GPUX_TEST_DATA
#define GPUX_TEST_DATA "tests/data"
#endif

struct ref;
typedef double (*ref_fn)(const struct ref *r);

struct ref {
	const char *what;      /* the test's name and the table's row */
	const char *source;    /* where the figure is printed */
	double published;
	double tol;            /* allowed relative error */
	const char *outside;   /* why gpux is outside ±10 %, or NULL */
	ref_fn got;            /* gpux's figure */
	/* inputs, as each ref_fn reads them */
	const struct fit_model *model;
	enum fit_method method;
	int gpus;
	int a, b;              /* per function: sharding/offload, w/h, ... */
	double x;              /* per function: bandwidth, divisor, ... */
	const char *file;      /* a config.json under tests/data/hf */
};

/* ---- models ------------------------------------------------------------------ */

/* Llama 2 7B and 70B, config.json: 6.74B / 68.98B parameters. */
static const struct fit_model llama2_7b = {.params_b = 6.74, .layers = 32, .hidden = 4096,
                                           .heads = 32, .kv_heads = 32, .head_dim = 128,
                                           .vocab = 32000, .ffn = 11008};
static const struct fit_model llama2_70b = {.params_b = 68.98, .layers = 80, .hidden = 8192,
                                            .heads = 64, .kv_heads = 8, .head_dim = 128,
                                            .vocab = 32000, .ffn = 28672};
/* Llama 3.1 8B / 70B / 405B: meta-llama config.json (preset llama-3.1-*). */
static const struct fit_model llama31_8b = {.params_b = 8.03, .layers = 32, .hidden = 4096,
                                            .heads = 32, .kv_heads = 8, .head_dim = 128,
                                            .vocab = 128256, .ffn = 14336};
static const struct fit_model llama31_70b = {.params_b = 70.6, .layers = 80, .hidden = 8192,
                                             .heads = 64, .kv_heads = 8, .head_dim = 128,
                                             .vocab = 128256, .ffn = 28672};
static const struct fit_model llama31_405b = {.params_b = 405.9, .layers = 126, .hidden = 16384,
                                              .heads = 128, .kv_heads = 8, .head_dim = 128,
                                              .vocab = 128256, .ffn = 53248};
/* Mixtral 8x7B, config.json and Jiang et al. 2024: 46.7B total, 12.9B active,
 * 8 experts, 2 per token. */
static const struct fit_model mixtral = {.params_b = 46.7, .active_params_b = 12.9,
                                         .layers = 32, .hidden = 4096, .heads = 32,
                                         .kv_heads = 8, .head_dim = 128, .vocab = 32000,
                                         .ffn = 14336, .experts = 8, .experts_per_token = 2};

static struct fit_job job(const struct fit_model *m, enum fit_method method)
{
	struct fit_job j;
	fit_job_defaults(&j);
	j.model = *m;
	j.method = method;
	return j;
}

/* weights + gradients + optimizer states per GPU, GB */
static double states(const struct fit_job *j, int gpus)
{
	struct fit_breakdown b;
	fit_memory(j, gpus, &b);
	return b.weights + b.gradients + b.optimizer;
}

/* ---- ZeRO ----------------------------------------------------------------------- */

static const struct fit_model zero_7b5 = {.params_b = 7.5};

/* a = sharding, b = 1 for the paper's accounting; gpus; x = divisor */
static double zero_states(const struct ref *r)
{
	struct fit_job j = job(r->model, FIT_FULL);
	j.sharding = (enum fit_sharding)r->a;
	j.accounting = r->b ? FIT_ZACCT_PAPER : FIT_ZACCT_DEEPSPEED;
	j.offload = (enum fit_offload)(r->method == FIT_FULL ? FIT_OFFLOAD_NONE : r->method);
	return states(&j, r->gpus) / r->x;
}

/* A model of `params` parameters whose largest layer (the embedding, vocab ×
 * hidden) has the parameters DeepSpeed's estimators take. */
#define DS_MODEL(p, h, v)                                                                        \
	{.params_b = (p) / 1e9, .layers = 24, .hidden = (h), .heads = 16, .kv_heads = 16,       \
	 .head_dim = (h) / 16, .vocab = (v), .ffn = (h), .tied_embeddings = true}
static const struct fit_model t5_3b = DS_MODEL(2851e6, 1000, 32000);      /* largest 32M */
static const struct fit_model t5_large = DS_MODEL(737.67e6, 1024, 32128); /* 32.90M */
static const struct fit_model t0_3b = DS_MODEL(2783e6, 2048, 32128);      /* 65.8M */

/* offload as the method field: FIT_FULL = none, else the fit_offload value */
#define OFF_OPT ((enum fit_method)FIT_OFFLOAD_OPTIMIZER)
#define OFF_ALL ((enum fit_method)FIT_OFFLOAD_ALL)

/* ---- decode ---------------------------------------------------------------------- */

/* tokens/s on r->gpus GPUs of x GB/s (A100-80GB SXM: 2039, NVLink 3: 600
 * GB/s), batch 1, 5-token prompt + 200 new tokens, int4 G=32 */
static double decode_tps(const struct ref *r)
{
	struct fit_job j = job(r->model, r->method);
	j.seq_len = 205;
	j.int4_group = 32;
	return fit_decode_tokens_s(&j, r->x, 600, r->gpus);
}

/* ---- KV cache, training time, fine-tuning --------------------------------------- */

static double kv_kib(const struct ref *r)
{
	struct fit_job j = job(r->model, FIT_INFER_FP16);
	return fit_kv_bytes_per_token(&j) / 1024;
}

static double llama3_gpu_hours_m(const struct ref *r)
{
	struct fit_job j = job(r->model, FIT_FULL);
	j.tokens_b = 15600;
	j.seq_len = 8192;
	j.mfu = 0.38;
	return fit_train_hours(&j, 989, 1) / 1e6;
}

/* Unsloth's stack at its documented settings (max_seq_length 2048, r 16,
 * adamw_8bit, batch 1): the memory of the job itself, without gpux's
 * overhead and margin (the published figure is the minimum VRAM). */
static double unsloth_gb(const struct ref *r)
{
	struct fit_job j = job(r->model, r->method);
	fit_stack_apply(&j, FIT_STACK_UNSLOTH);
	j.seq_len = 2048;
	j.batch = 1;
	j.lora_rank = 16;
	j.overhead_gb = 0;
	j.margin_fraction = 0;
	struct fit_breakdown b;
	fit_memory(&j, 1, &b);
	return b.total;
}

/* ---- diffusion ------------------------------------------------------------------- */

static const struct fit_model sdxl = {.params_b = 2.567, .extra_params_b = 0.901, .diffusion = true};
static const struct fit_model flux = {.params_b = 11.9, .hidden = 3072, .diffusion = true};
static const struct fit_model ltx = {.params_b = 13.04, .hidden = 4096, .latent_px = 32,
                                     .latent_frames = 8, .diffusion = true};
static const struct fit_model wan13 = {.params_b = 1.3, .extra_params_b = 0.127, .hidden = 1536,
                                       .diffusion = true};
static const struct fit_model hunyuan = {.params_b = 12.8, .extra_params_b = 0.25, .hidden = 3072,
                                         .diffusion = true};

/* a × b pixels, gpus = frames, method != FIT_FULL: encoders offloaded; x = divisor */
static double diffusion_peak(const struct ref *r)
{
	struct fit_job j = job(r->model, FIT_DIFFUSION);
	j.width = r->a;
	j.height = r->b;
	j.frames = r->gpus;
	j.encoders_offloaded = r->method != FIT_FULL;
	struct fit_breakdown bd;
	fit_memory(&j, 1, &bd);
	return (bd.weights + bd.activations) / r->x; /* the measured peak: no margin */
}

/* ---- parameters counted from a config.json ----------------------------------------- */

/* a = 0 total, 1 active, 2 total less the embedding and output layer */
static double config_params_b(const struct ref *r)
{
	char *path = NULL, *cause = NULL;
	struct catalog_model m;
	double v = NAN;

	if (asprintf(&path, "%s/hf/%s/config.json", GPUX_TEST_DATA, r->file) < 0)
		fail();
	if (catalog_model_from_config_file(path, &m, &cause) != 0) {
		print_error("%s: %s\n", path, cause);
		free(cause);
		free(path);
		fail();
	}
	free(path);
	v = r->a == 1 ? m.active_params_b : m.params_b;
	if (r->a == 2)
		v -= (double)m.vocab * m.hidden * (m.tied_embeddings ? 1 : 2) / 1e9;
	catalog_model_clear(&m);
	return v;
}

/* ---- the figures --------------------------------------------------------------------- */

#define GPTFAST "gpt-fast README (pytorch-labs/gpt-fast @ 32971d31), Benchmarks"
#define GPTFAST_TP "gpt-fast README, Tensor Parallelism"
#define GPTFAST_TPQ "gpt-fast README, Tensor Parallelism + Quantization"
#define GPTFAST_MIX "gpt-fast mixtral-moe/README.md, Benchmarks"
#define A100 2039.0
#define MI250X_GCD 1638.4 /* one GCD: half of the MI250X's 3276.8 GB/s */
#define DSDOC "DeepSpeed docs, Memory Requirements (memory.rst)"
#define HFDS "HF Transformers DeepSpeed guide, Memory requirements"

#define ZP(what, s, gb) {what, "Rajbhandari et al. 2020, Figure 1", gb, 0.05 / (gb), NULL, zero_states, \
	 &zero_7b5, FIT_FULL, 64, s, 1, 1}
#define DS(what, m, s, off, n, pub, div, tol) {what, DSDOC, pub, tol, NULL, zero_states, &m, off, n, s, 0, div}
#define TPS(what, src, m, meth, n, pub) {what, src, pub, 0.10, NULL, decode_tps, &m, meth, n, 0, 0, A100}
#define TPS_OUT(what, src, m, meth, n, pub, tol, why) {what, src, pub, tol, why, decode_tps, &m, meth, n, 0, 0, A100}
#define PARAMS(what, file, which, pub, src) {what, src, pub, 0.10, NULL, config_params_b, NULL, FIT_FULL, 0, which, 0, 0, file}

/* The rows are positional (what, source, published, tolerance, outside,
 * function, then the inputs it reads); inputs a row does not use are left
 * out and are zero. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct ref refs[] = {
	/* Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training
	 * Trillion Parameter Models", Figure 1: Ψ = 7.5B, N_d = 64, K = 12:
	 * model states per GPU 120 / 31.4 / 16.6 / 1.9 GB. One decimal printed:
	 * tolerance 0.05 GB. */
	ZP("ZeRO paper Fig. 1: 7.5B, 64 GPUs, baseline", FIT_SHARD_NONE, 120.0),
	ZP("ZeRO paper Fig. 1: P_os", FIT_SHARD_ZERO1, 31.4),
	ZP("ZeRO paper Fig. 1: P_os+g", FIT_SHARD_ZERO2, 16.6),
	ZP("ZeRO paper Fig. 1: P_os+g+p", FIT_SHARD_ZERO3, 1.9),

	/* DeepSpeed documentation, "Memory Requirements" (docs/code-docs/source/
	 * memory.rst): estimate_zero2_model_states_mem_needs_all_cold(2851e6,
	 * 8 GPUs): 15.93GB, cpu_offload 5.31GB; estimate_zero3_..._all_cold(
	 * 2851e6, largest layer 32e6, 8 GPUs): 6.09GB none, 0.78GB optimizer,
	 * 0.12GB params + optimizer (GiB). Its t5-large example (737.67M, largest
	 * layer 32.90M, 4 GPUs): 3291, 125, 477 MB (MiB). Printed to 2 decimals
	 * (MiB: whole): tolerance 1 % (0.12: 5 %). */
	DS("DeepSpeed ZeRO-2 est.: 2851M, 8 GPUs (GiB)", t5_3b, FIT_SHARD_ZERO2, FIT_FULL, 8, 15.93, GIB, 0.01),
	DS("DeepSpeed ZeRO-2 est.: cpu_offload (GiB)", t5_3b, FIT_SHARD_ZERO2, OFF_OPT, 8, 5.31, GIB, 0.01),
	DS("DeepSpeed ZeRO-3 est.: 2851M, 32M layer, 8 GPUs (GiB)", t5_3b, FIT_SHARD_ZERO3, FIT_FULL, 8, 6.09, GIB, 0.01),
	DS("DeepSpeed ZeRO-3 est.: optimizer offloaded (GiB)", t5_3b, FIT_SHARD_ZERO3, OFF_OPT, 8, 0.78, GIB, 0.01),
	DS("DeepSpeed ZeRO-3 est.: params + optimizer offloaded", t5_3b, FIT_SHARD_ZERO3, OFF_ALL, 8, 0.12, GIB, 0.05),
	DS("DeepSpeed t5-large ZeRO-3 case1, 4 GPUs (MiB)", t5_large, FIT_SHARD_ZERO3, FIT_FULL, 4, 3291, MIB, 0.01),
	DS("DeepSpeed t5-large ZeRO-3 case2 (MiB)", t5_large, FIT_SHARD_ZERO3, OFF_ALL, 4, 125, MIB, 0.01),
	DS("DeepSpeed t5-large ZeRO-3 case3 (MiB)", t5_large, FIT_SHARD_ZERO3, OFF_OPT, 4, 477, MIB, 0.01),

	/* Hugging Face Transformers, "DeepSpeed" guide, "Memory requirements":
	 * bigscience/T0_3B (2783M params, 65M largest layer) under ZeRO-3:
	 * 46.91GB on 1 GPU, 23.58GB on 2; offload_optimizer=cpu on 1: 5.43GB
	 * (GiB). T0_3B is T5 v1.1-LM-adapted XL: d_model 2048, vocab 32128. */
	{"HF guide T0_3B ZeRO-3, 1 GPU (GiB)", HFDS, 46.91, 0.01, NULL, zero_states, &t0_3b, FIT_FULL, 1, FIT_SHARD_ZERO3, 0, GIB},
	{"HF guide T0_3B ZeRO-3, 2 GPUs (GiB)", HFDS, 23.58, 0.01, NULL, zero_states, &t0_3b, FIT_FULL, 2, FIT_SHARD_ZERO3, 0, GIB},
	{"HF guide T0_3B ZeRO-3, optimizer on CPU (GiB)", HFDS, 5.43, 0.01, NULL, zero_states, &t0_3b, OFF_OPT, 1, FIT_SHARD_ZERO3, 0, GIB},

	/* gpt-fast README (pytorch-labs/gpt-fast @ 32971d3129541c5bfb4f715abc33d1c5f408d204,
	 * "Benchmarks"): 8×A100-80GB power limited to 330 W, batch 1, 5-token
	 * prompt; int4 is G=32. The per-layer costs and efficiencies of
	 * fit_job_defaults were fitted to these A100 rows (docs/FIT.md). */
	TPS("gpt-fast Llama-2-7B bf16, 1 A100", GPTFAST, llama2_7b, FIT_INFER_FP16, 1, 104.9),
	TPS("gpt-fast Llama-2-7B int8, 1 A100", GPTFAST, llama2_7b, FIT_INFER_INT8, 1, 155.58),
	TPS("gpt-fast Llama-2-7B int4 G=32, 1 A100", GPTFAST, llama2_7b, FIT_INFER_INT4, 1, 196.80),
	TPS("gpt-fast Llama-2-70B int8, 1 A100", GPTFAST, llama2_70b, FIT_INFER_INT8, 1, 19.13),
	TPS("gpt-fast Llama-2-70B int4 G=32, 1 A100", GPTFAST, llama2_70b, FIT_INFER_INT4, 1, 25.25),
	TPS("gpt-fast Llama-3.1-8B bf16, 1 A100", GPTFAST, llama31_8b, FIT_INFER_FP16, 1, 93.89),
	TPS("gpt-fast Llama-3.1-8B int8, 1 A100", GPTFAST, llama31_8b, FIT_INFER_INT8, 1, 137.64),
	TPS("gpt-fast Llama-3.1-70B int8, 1 A100", GPTFAST, llama31_70b, FIT_INFER_INT8, 1, 18.04),
	TPS("gpt-fast Llama-2-7B bf16, TP 2", GPTFAST_TP, llama2_7b, FIT_INFER_FP16, 2, 168.84),
	TPS("gpt-fast Llama-2-7B bf16, TP 4", GPTFAST_TP, llama2_7b, FIT_INFER_FP16, 4, 254.02),
	TPS("gpt-fast Llama-2-7B bf16, TP 8", GPTFAST_TP, llama2_7b, FIT_INFER_FP16, 8, 328.43),
	TPS("gpt-fast Llama-2-70B bf16, TP 2", GPTFAST_TP, llama2_70b, FIT_INFER_FP16, 2, 21.32),
	TPS("gpt-fast Llama-2-70B bf16, TP 4", GPTFAST_TP, llama2_70b, FIT_INFER_FP16, 4, 38.01),
	TPS("gpt-fast Llama-2-70B bf16, TP 8", GPTFAST_TP, llama2_70b, FIT_INFER_FP16, 8, 62.50),
	TPS("gpt-fast Llama-3.1-8B bf16, TP 2", GPTFAST_TP, llama31_8b, FIT_INFER_FP16, 2, 149.10),
	TPS("gpt-fast Llama-3.1-8B bf16, TP 4", GPTFAST_TP, llama31_8b, FIT_INFER_FP16, 4, 217.21),
	TPS("gpt-fast Llama-3.1-8B bf16, TP 8", GPTFAST_TP, llama31_8b, FIT_INFER_FP16, 8, 276.01),
	TPS_OUT("gpt-fast Llama-3.1-70B bf16, TP 2", GPTFAST_TP, llama31_70b, FIT_INFER_FP16, 2, 16.03, 0.30,
	        "141 GB of weights on 2 × 80 GB: gpt-fast's own bandwidth column reads 1131 GB/s here against "
	        "1361 on 4 GPUs and 1482 for Llama-2-70B on 2; a run at the memory's edge, not the link"),
	TPS("gpt-fast Llama-3.1-70B bf16, TP 4", GPTFAST_TP, llama31_70b, FIT_INFER_FP16, 4, 37.45),
	TPS("gpt-fast Llama-3.1-70B bf16, TP 8", GPTFAST_TP, llama31_70b, FIT_INFER_FP16, 8, 58.78),
	TPS("gpt-fast Llama-2-70B int8, TP 8", GPTFAST_TPQ, llama2_70b, FIT_INFER_INT8, 8, 80.44),
	TPS("gpt-fast Llama-2-70B int4 G=32, TP 8", GPTFAST_TPQ, llama2_70b, FIT_INFER_INT4, 8, 90.77),
	TPS("gpt-fast Llama-3.1-70B int8, TP 8", GPTFAST_TPQ, llama31_70b, FIT_INFER_INT8, 8, 75.58),
	TPS_OUT("gpt-fast Llama-3.1-405B int8, TP 8", GPTFAST_TPQ, llama31_405b, FIT_INFER_INT8, 8, 15.60, 0.40,
	        "one int8 efficiency cannot give both 70B (80.4 tok/s) and 405B on 8 GPUs: the 405B reads "
	        "51 GB per GPU per token at 42 % of the peak, the 70B 8.6 GB at the fitted 66 %"),
	/* Mixtral 8x7B: mixtral-moe/README.md of the same repository, average
	 * tokens/s on 1/2/4/8 GPUs (bf16 does not fit one GPU). */
	TPS("gpt-fast Mixtral 8x7B int8, 1 A100", GPTFAST_MIX, mixtral, FIT_INFER_INT8, 1, 97.92),
	TPS("gpt-fast Mixtral 8x7B bf16, 2 GPUs", GPTFAST_MIX, mixtral, FIT_INFER_FP16, 2, 96.67),
	TPS("gpt-fast Mixtral 8x7B bf16, 4 GPUs", GPTFAST_MIX, mixtral, FIT_INFER_FP16, 4, 155.35),
	TPS("gpt-fast Mixtral 8x7B bf16, 8 GPUs", GPTFAST_MIX, mixtral, FIT_INFER_FP16, 8, 227.82),
	TPS("gpt-fast Mixtral 8x7B int8, 2 GPUs", GPTFAST_MIX, mixtral, FIT_INFER_INT8, 2, 155.03),
	TPS("gpt-fast Mixtral 8x7B int8, 4 GPUs", GPTFAST_MIX, mixtral, FIT_INFER_INT8, 4, 216.87),
	TPS("gpt-fast Mixtral 8x7B int8, 8 GPUs", GPTFAST_MIX, mixtral, FIT_INFER_INT8, 8, 279.35),
	/* gpt-fast README, "AMD": one GCD of an MI250X (half its 3276.8 GB/s). */
	{"gpt-fast Llama-2-7B bf16, one MI250X GCD", "gpt-fast README, AMD", 76.33, 0.10, NULL,
	 decode_tps, &llama2_7b, FIT_INFER_FP16, 1, 0, 0, MI250X_GCD},
	{"gpt-fast Llama-2-7B int8, one MI250X GCD", "gpt-fast README, AMD", 101.86, 0.40,
	 "the int8 constants are the A100's: gpt-fast's int8 kernel reaches 700 of 1638 GB/s (43 %) "
	 "on the MI250X against 1069 of 2039 (52 %) on the A100; gpux has one set per format, not per GPU",
	 decode_tps, &llama2_7b, FIT_INFER_INT8, 1, 0, 0, MI250X_GCD},

	/* Kwon et al. 2023 (vLLM), §3: OPT-13B's KV cache is 800 KB per token
	 * (2 × 5120 × 40 × 2 bytes; KB = 1024 bytes). */
	{"vLLM paper: OPT-13B KV cache per token (KiB)", "Kwon et al. 2023, §3", 800, 0.01, NULL, kv_kib,
	 &(const struct fit_model){.params_b = 12.9, .layers = 40, .hidden = 5120, .heads = 40,
	                           .kv_heads = 40, .head_dim = 128, .vocab = 50272, .ffn = 20480}},

	/* Llama 3.1 model card (meta-llama/llama-models, models/llama3_1/MODEL_CARD.md):
	 * 30.84M H100-80GB GPU-hours for the 405B; The Llama 3 Herd of Models
	 * (arXiv:2407.21783): 15.6T tokens, sequence 8192, 38-43 % BF16 MFU (38 %
	 * taken, Table 4). The card's hours include restarts. */
	{"Llama 3.1 405B pre-training, H100 GPU-hours (M)", "Llama 3.1 model card; arXiv:2407.21783",
	 30.84, 0.10, NULL, llama3_gpu_hours_m, &llama31_405b},

	/* Unsloth documentation, "Unsloth Requirements" (unsloth.ai/docs/get-started/
	 * fine-tuning-for-beginners/unsloth-requirements): the minimum VRAM of QLoRA
	 * (4-bit): 8B 6 GB, 70B 41 GB; its notebooks' settings (max_seq_length
	 * 2048, r = 16, adamw_8bit, batch 1, use_gradient_checkpointing="unsloth"). */
	{"Unsloth QLoRA Llama 3.1 8B, minimum VRAM (GB)", "Unsloth Requirements", 6, 0.20,
	 "the 4-bit blocks and the 16-bit embedding and head alone are 5.8 GB, leaving 0.2 GB of the "
	 "published 6 for the adapters, their 8-bit AdamW states and one layer's activations, which "
	 "need 1.2 GB at its settings; the table calls its figures an absolute minimum",
	 unsloth_gb, &llama31_8b, FIT_QLORA},
	{"Unsloth QLoRA Llama 3.1 70B, minimum VRAM (GB)", "Unsloth Requirements", 41, 0.10, NULL,
	 unsloth_gb, &llama31_70b, FIT_QLORA},

	/* SDXL base 1.0, bf16, SDPA, batch 1, 1024², 30 steps: 8.817 GB peak —
	 * diffusion-fast results CSV. FLUX.1-dev transformer alone, 1024²: 22.61
	 * GB — diffusers benchmarks (mem_plain_GB). LTX-Video 0.9.7 transformer,
	 * 512×704×161: 25.21 GB — same dataset. Wan2.1 T2V-1.3B with
	 * --offload_model True --t5_cpu, 832×480×81: 8.19 GB — Wan2.1 README.
	 * HunyuanVideo 720×1280×129: 60 GB, 544×960×129: 45 GB — its README. */
	{"SDXL pipeline 1024², bf16 (GB)", "diffusion-fast results", 8.817, 0.10, NULL, diffusion_peak,
	 &sdxl, FIT_FULL, 1, 1024, 1024, 1},
	{"FLUX.1-dev transformer 1024² (GiB)", "diffusers benchmarks", 22.61, 0.10, NULL, diffusion_peak,
	 &flux, FIT_DIFFUSION, 1, 1024, 1024, GIB},
	{"LTX-Video transformer 512x704x161 (GiB)", "diffusers benchmarks", 25.21, 0.10, NULL,
	 diffusion_peak, &ltx, FIT_DIFFUSION, 161, 704, 512, GIB},
	{"Wan2.1 T2V-1.3B 832x480x81, T5 on CPU (GB)", "Wan2.1 README", 8.19, 0.10, NULL,
	 diffusion_peak, &wan13, FIT_DIFFUSION, 81, 832, 480, 1},
	{"HunyuanVideo 1280x720x129 (GB)", "HunyuanVideo README", 60, 0.10, NULL, diffusion_peak,
	 &hunyuan, FIT_DIFFUSION, 129, 1280, 720, 1},
	{"HunyuanVideo 960x544x129 (GB)", "HunyuanVideo README", 45, 0.10, NULL, diffusion_peak,
	 &hunyuan, FIT_DIFFUSION, 129, 960, 544, 1},

	/* Headline parameter counts against gpux's count from the config.json
	 * (tests/data/hf, README there for each file's source). The sources
	 * print billions rounded to the unit: ±10 %. Mixtral: arXiv:2401.04088
	 * abstract ("47B parameters, but only uses 13B active"). DeepSeek-V3 and
	 * V2: deepseek-ai/DeepSeek-V3 @ 9b4e9788 README (671B total / 37B
	 * activated; 236B / 21B). Llama 4: meta-llama/llama-models @ a9c89c47,
	 * models/llama4/MODEL_CARD.md (Scout 17B activated / 109B total, Maverick
	 * 17B / 400B; the totals include the vision encoder, gpux counts the
	 * language model). Qwen2.5-32B: its model card (as copied in
	 * ZHUI/paddlenlp_model_readme, Qwen/Qwen2.5-32B/index.md): 32.5B, 31.0B
	 * non-embedding. */
	PARAMS("Mixtral 8x7B total parameters (B)", "Mixtral-8x7B-v0.1", 0, 47, "arXiv:2401.04088"),
	PARAMS("Mixtral 8x7B active parameters (B)", "Mixtral-8x7B-v0.1", 1, 13, "arXiv:2401.04088"),
	PARAMS("DeepSeek-V3 total parameters (B)", "DeepSeek-V3", 0, 671, "DeepSeek-V3 README"),
	PARAMS("DeepSeek-V3 activated parameters (B)", "DeepSeek-V3", 1, 37, "DeepSeek-V3 README"),
	PARAMS("DeepSeek-V2 total parameters (B)", "DeepSeek-V2", 0, 236, "DeepSeek-V3 README"),
	PARAMS("DeepSeek-V2 activated parameters (B)", "DeepSeek-V2", 1, 21, "DeepSeek-V3 README"),
	PARAMS("Llama 4 Scout total parameters (B)", "Llama-4-Scout-17B-16E", 0, 109, "Llama 4 model card"),
	PARAMS("Llama 4 Scout activated parameters (B)", "Llama-4-Scout-17B-16E", 1, 17, "Llama 4 model card"),
	PARAMS("Llama 4 Maverick total parameters (B)", "Llama-4-Maverick-17B-128E", 0, 400, "Llama 4 model card"),
	PARAMS("Llama 4 Maverick activated parameters (B)", "Llama-4-Maverick-17B-128E", 1, 17, "Llama 4 model card"),
	PARAMS("Qwen2.5-32B parameters (B)", "Qwen2.5-32B", 0, 32.5, "Qwen2.5-32B model card"),
	PARAMS("Qwen2.5-32B non-embedding parameters (B)", "Qwen2.5-32B", 2, 31.0, "Qwen2.5-32B model card"),
};
#pragma GCC diagnostic pop

#define N_REFS (sizeof refs / sizeof refs[0])

/* One figure: print its row, then fail when it is past its tolerance, when
 * it is outside 10 % without a reason, or listed outside and back within. */
static void run_ref(void **state)
{
	const struct ref *r = *state;
	double got = r->got(r);
	double err = (got - r->published) / r->published;
	bool outside = !(fabs(err) <= 0.10 + 1e-12);

	printf("%-58s %10.4g %10.4g %+7.1f %% %s\n", r->what, r->published, got, err * 100,
	       outside ? "outside 10 %" : "");
	if (!(fabs(err) <= r->tol + 1e-12))
		fail_msg("%s: published %.6g (%s), gpux %.6g, error %+.1f %% > %.0f %%", r->what,
		         r->published, r->source, got, err * 100, r->tol * 100);
	if (outside && r->outside == NULL)
		fail_msg("%s: %+.1f %% is outside 10 %% without a reason", r->what, err * 100);
	if (!outside && r->outside != NULL)
		fail_msg("%s: listed outside 10 %% but now %+.1f %%: take it off the list (and docs/FIT.md)",
		         r->what, err * 100);
}

/* The suite holds at least 60 published figures, each with its source. */
static void suite_size(void **state)
{
	(void)state;
	size_t outside = 0;
	assert_true(N_REFS >= 60);
	for (size_t i = 0; i < N_REFS; i++) {
		assert_non_null(refs[i].source);
		assert_true(refs[i].source[0] != '\0');
		outside += refs[i].outside != NULL;
	}
	printf("%zu published figures, %zu listed outside 10 %%\n", N_REFS, outside);
}

int main(void)
{
	struct CMUnitTest *tests = calloc(N_REFS + 1, sizeof *tests);
	int rc;

	if (tests == NULL)
		return 1;
	printf("%-58s %10s %10s %9s\n", "case", "published", "gpux", "error");
	for (size_t i = 0; i < N_REFS; i++) {
		tests[i].name = refs[i].what;
		tests[i].test_func = run_ref;
		tests[i].initial_state = (void *)&refs[i];
	}
	tests[N_REFS].name = "suite_size";
	tests[N_REFS].test_func = suite_size;
	rc = _cmocka_run_group_tests("fit_reference", tests, N_REFS + 1, NULL, NULL);
	free(tests);
	return rc;
}
