/*
 * The reference suite: fit/'s answers held against figures published by
 * others — the ZeRO paper, DeepSpeed's own memory estimators as its
 * documentation prints them, the Hugging Face DeepSpeed guide, gpt-fast's
 * measured decode speeds, the vLLM paper, Meta's GPU-hours, and the peak
 * VRAM that diffusion/video projects publish. Each case names its source
 * beside it. Tolerance ±10 % unless the source prints a rounded figure
 * (then the rounding) or states a range.
 *
 * The test prints the table (case, published, gpux, error) so the figures
 * can be read off a run: build/tests/test_fit_reference.
 *
 * Units: DeepSpeed prints GiB (and MiB in its t5-large example); diffusers
 * prints GB as bytes / 1024³ (its bytes_to_giga_bytes helper). gpux counts
 * GB = 10^9 bytes; each case converts.
 */
#include "fit/fit.h"

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

struct ref {
	const char *what;
	const char *source;
	double published;
	double got;
	double rel; /* allowed relative error */
};

static int n_failed, n_outside;

/* Cases the model does not reproduce within 10 %, held to the bound
 * stated beside them so that a change that makes them worse fails, and
 * counted in the report (see docs/FIT.md, "What does not match"). */
#define KNOWN_OFF 0.25

static void check(const struct ref *r)
{
	double err = (r->got - r->published) / r->published;
	bool ok = fabs(err) <= r->rel + 1e-12;
	bool outside = fabs(err) > 0.10 + 1e-12;
	if (outside)
		n_outside++;
	printf("%-58s %10.4g %10.4g %+7.1f %% %s\n", r->what, r->published, r->got, err * 100,
	       !ok ? "FAIL" : outside ? "outside 10 %" : "");
	if (!ok) {
		n_failed++;
		print_error("%s: published %.6g (%s), gpux %.6g, error %+.1f %% > %.0f %%\n",
		            r->what, r->published, r->source, r->got, err * 100, r->rel * 100);
	}
}

static struct fit_job job(struct fit_model m, enum fit_method method)
{
	struct fit_job j;
	fit_job_defaults(&j);
	j.model = m;
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

/* ---- ZeRO: the paper -------------------------------------------------------- */

/* Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training
 * Trillion Parameter Models", Figure 1: Ψ = 7.5B, N_d = 64, K = 12: model
 * states per GPU 120 / 31.4 / 16.6 / 1.9 GB (baseline, P_os, P_os+g,
 * P_os+g+p). The paper prints one decimal: tolerance 0.05 GB. */
static void test_zero_paper(void **state)
{
	(void)state;
	static const struct {
		enum fit_sharding s;
		double gb;
		const char *what;
	} rows[] = {
		{FIT_SHARD_NONE, 120.0, "ZeRO paper Fig. 1: 7.5B, 64 GPUs, baseline"},
		{FIT_SHARD_ZERO1, 31.4, "ZeRO paper Fig. 1: P_os"},
		{FIT_SHARD_ZERO2, 16.6, "ZeRO paper Fig. 1: P_os+g"},
		{FIT_SHARD_ZERO3, 1.9, "ZeRO paper Fig. 1: P_os+g+p"},
	};
	struct fit_job j = job((struct fit_model){.params_b = 7.5}, FIT_FULL);
	j.accounting = FIT_ZACCT_PAPER;
	for (size_t i = 0; i < 4; i++) {
		j.sharding = rows[i].s;
		struct ref r = {rows[i].what, "Rajbhandari et al. 2020, Figure 1", rows[i].gb,
		                states(&j, 64), 0.05 / rows[i].gb};
		check(&r);
	}
}

/* ---- ZeRO: DeepSpeed's estimators --------------------------------------------- */

/* A model of `params` parameters whose largest layer (the embedding,
 * vocab × hidden) has `largest` parameters, as DeepSpeed's estimators take
 * them (total_params, largest_layer_params). */
static struct fit_model ds_model(double params, double hidden, double vocab)
{
	return (struct fit_model){.params_b = params / 1e9, .layers = 24, .hidden = (int)hidden,
	                          .heads = 16, .kv_heads = 16, .head_dim = (int)hidden / 16,
	                          .vocab = (int)vocab, .ffn = (int)hidden, .tied_embeddings = true};
}

static double ds(struct fit_model m, enum fit_sharding s, enum fit_offload o, int gpus)
{
	struct fit_job j = job(m, FIT_FULL);
	j.sharding = s;
	j.offload = o;
	return states(&j, gpus);
}

/* DeepSpeed documentation, "Memory Requirements" (docs/code-docs/source/
 * memory.rst, https://deepspeed.readthedocs.io/en/latest/memory.html):
 * estimate_zero2_model_states_mem_needs_all_cold(total_params=2851e6,
 * num_gpus_per_node=8): per GPU 5.31GB cpu_offload=1, 15.93GB cpu_offload=0;
 * estimate_zero3_..._all_cold(2851e6, largest_layer_params=32e6, 8 GPUs):
 * 0.12GB offload params + optimizer, 0.78GB optimizer only, 6.09GB none.
 * Its t5-large example (737.67M params, largest layer 32.90M, 4 GPUs):
 * case1 3291MB, case2 125MB, case3 477MB (MiB: it shifts by 20 bits).
 * Printed to 2 decimals (MiB: whole): tolerance 1 %. */
static void test_deepspeed_docs(void **state)
{
	(void)state;
	const char *src = "DeepSpeed docs, Memory Requirements (memory.rst)";
	struct fit_model t5_3b = ds_model(2851e6, 1000, 32000); /* largest 32M */
	struct ref rows[] = {
		{"DeepSpeed ZeRO-2 est.: 2851M, 8 GPUs (GiB)", src, 15.93,
		 ds(t5_3b, FIT_SHARD_ZERO2, FIT_OFFLOAD_NONE, 8) / GIB, 0.01},
		{"DeepSpeed ZeRO-2 est.: cpu_offload (GiB)", src, 5.31,
		 ds(t5_3b, FIT_SHARD_ZERO2, FIT_OFFLOAD_OPTIMIZER, 8) / GIB, 0.01},
		{"DeepSpeed ZeRO-3 est.: 2851M, 32M layer, 8 GPUs (GiB)", src, 6.09,
		 ds(t5_3b, FIT_SHARD_ZERO3, FIT_OFFLOAD_NONE, 8) / GIB, 0.01},
		{"DeepSpeed ZeRO-3 est.: optimizer offloaded (GiB)", src, 0.78,
		 ds(t5_3b, FIT_SHARD_ZERO3, FIT_OFFLOAD_OPTIMIZER, 8) / GIB, 0.01},
		{"DeepSpeed ZeRO-3 est.: params + optimizer offloaded", src, 0.12,
		 ds(t5_3b, FIT_SHARD_ZERO3, FIT_OFFLOAD_ALL, 8) / GIB, 0.05},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		check(&rows[i]);
	/* t5-large: 737.67M, largest layer 32.90M = 32128 × 1024 */
	struct fit_model t5_large = ds_model(737.67e6, 1024, 32128);
	struct ref t5[] = {
		{"DeepSpeed t5-large ZeRO-3 case1, 4 GPUs (MiB)", src, 3291,
		 ds(t5_large, FIT_SHARD_ZERO3, FIT_OFFLOAD_NONE, 4) / MIB, 0.01},
		{"DeepSpeed t5-large ZeRO-3 case2 (MiB)", src, 125,
		 ds(t5_large, FIT_SHARD_ZERO3, FIT_OFFLOAD_ALL, 4) / MIB, 0.01},
		{"DeepSpeed t5-large ZeRO-3 case3 (MiB)", src, 477,
		 ds(t5_large, FIT_SHARD_ZERO3, FIT_OFFLOAD_OPTIMIZER, 4) / MIB, 0.01},
	};
	for (size_t i = 0; i < sizeof t5 / sizeof t5[0]; i++)
		check(&t5[i]);
	/* the paper's accounting is below DeepSpeed's for every stage */
	struct fit_job p = job(t5_3b, FIT_FULL);
	for (int s = FIT_SHARD_ZERO1; s <= FIT_SHARD_ZERO3; s++) {
		p.sharding = (enum fit_sharding)s;
		p.accounting = FIT_ZACCT_DEEPSPEED;
		double d = states(&p, 8);
		p.accounting = FIT_ZACCT_PAPER;
		assert_true(states(&p, 8) < d);
	}
}

/* Hugging Face Transformers, "DeepSpeed" guide, "Memory requirements":
 * bigscience/T0_3B (2783M params, 65M largest layer params) under ZeRO-3:
 * 46.91GB per GPU on 1 GPU, 23.58GB on 2 GPUs; offload_optimizer=cpu on one
 * GPU: 5.43GB (GiB). T0_3B is T5 v1.1-LM-adapted XL: d_model 2048, vocab
 * 32128 (largest layer 65.8M). */
static void test_hf_deepspeed_guide(void **state)
{
	(void)state;
	const char *src = "HF Transformers DeepSpeed guide, Memory requirements";
	struct fit_model t0 = ds_model(2783e6, 2048, 32128);
	struct ref rows[] = {
		{"HF guide T0_3B ZeRO-3, 1 GPU (GiB)", src, 46.91,
		 ds(t0, FIT_SHARD_ZERO3, FIT_OFFLOAD_NONE, 1) / GIB, 0.01},
		{"HF guide T0_3B ZeRO-3, 2 GPUs (GiB)", src, 23.58,
		 ds(t0, FIT_SHARD_ZERO3, FIT_OFFLOAD_NONE, 2) / GIB, 0.01},
		{"HF guide T0_3B ZeRO-3, optimizer on CPU (GiB)", src, 5.43,
		 ds(t0, FIT_SHARD_ZERO3, FIT_OFFLOAD_OPTIMIZER, 1) / GIB, 0.01},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		check(&rows[i]);
}

/* ---- decode speed ------------------------------------------------------------------ */

/* Llama 2 7B and 70B, config.json: 6.74B / 68.98B parameters. */
static const struct fit_model llama2_7b = {.params_b = 6.74, .layers = 32, .hidden = 4096,
                                           .heads = 32, .kv_heads = 32, .head_dim = 128,
                                           .vocab = 32000, .ffn = 11008};
static const struct fit_model llama2_70b = {.params_b = 68.98, .layers = 80, .hidden = 8192,
                                            .heads = 64, .kv_heads = 8, .head_dim = 128,
                                            .vocab = 32000, .ffn = 28672};
/* Mixtral 8x7B, config.json and Jiang et al. 2024: 46.7B total, 12.9B active. */
static const struct fit_model mixtral = {.params_b = 46.7, .active_params_b = 12.9,
                                         .layers = 32, .hidden = 4096, .heads = 32,
                                         .kv_heads = 8, .head_dim = 128, .vocab = 32000,
                                         .ffn = 14336};

/* tokens/s on n A100-80GB SXM (2039 GB/s, NVLink 3: 600 GB/s), batch 1,
 * 5-token prompt + 200 new tokens */
static double a100_tps(struct fit_model m, enum fit_method method, int n)
{
	struct fit_job j = job(m, method);
	j.seq_len = 205;
	j.int4_group = 32;
	return fit_decode_tokens_s(&j, 2039, 600, n);
}

/* gpt-fast README (pytorch-labs/gpt-fast, "Benchmarks"): 8×A100-80GB power
 * limited to 330 W, batch 1, 5-token prompt. int4 is G=32 (a bf16 scale and
 * zero per 32 weights). Tables "Benchmarks", "Tensor Parallelism", "Tensor
 * Parallelism + Quantization"; Mixtral 8x7B from its "Mixtral 8x7B" section
 * (average tokens/s, 1/2/4/8 GPUs).
 *
 * Not matched within 10 % (KNOWN_OFF): int8/int4 on ONE GPU for the 7B and
 * int8 Mixtral on 4 and 8 GPUs: gpt-fast's quantised kernels reach a
 * smaller share of the bandwidth on small matrices (7B int8: 1069 GB/s,
 * 70B int8: 1323 GB/s on the same GPU); one efficiency per format cannot
 * give both within 10 %, and 0.60 / 0.50 keep the 70B, tensor-parallel and
 * Mixtral cases within it while over-estimating the 7B by 15-20 %. */
static void test_gpt_fast(void **state)
{
	(void)state;
	const char *src = "gpt-fast README, Benchmarks";
	struct ref rows[] = {
		{"gpt-fast Llama-2-7B bf16, 1 A100", src, 104.9, a100_tps(llama2_7b, FIT_INFER_FP16, 1), 0.10},
		{"gpt-fast Llama-2-7B int8, 1 A100", src, 155.58, a100_tps(llama2_7b, FIT_INFER_INT8, 1), KNOWN_OFF},
		{"gpt-fast Llama-2-7B int4 G=32, 1 A100", src, 196.80, a100_tps(llama2_7b, FIT_INFER_INT4, 1), KNOWN_OFF},
		{"gpt-fast Llama-2-70B int8, 1 A100", src, 19.13, a100_tps(llama2_70b, FIT_INFER_INT8, 1), 0.10},
		{"gpt-fast Llama-2-70B int4 G=32, 1 A100", src, 25.25, a100_tps(llama2_70b, FIT_INFER_INT4, 1), 0.10},
		{"gpt-fast Llama-2-7B bf16, TP 2", src, 168.84, a100_tps(llama2_7b, FIT_INFER_FP16, 2), 0.10},
		{"gpt-fast Llama-2-7B bf16, TP 4", src, 254.02, a100_tps(llama2_7b, FIT_INFER_FP16, 4), 0.10},
		{"gpt-fast Llama-2-7B bf16, TP 8", src, 328.43, a100_tps(llama2_7b, FIT_INFER_FP16, 8), 0.10},
		{"gpt-fast Llama-2-70B bf16, TP 2", src, 21.32, a100_tps(llama2_70b, FIT_INFER_FP16, 2), 0.10},
		{"gpt-fast Llama-2-70B bf16, TP 4", src, 38.01, a100_tps(llama2_70b, FIT_INFER_FP16, 4), 0.10},
		{"gpt-fast Llama-2-70B bf16, TP 8", src, 62.50, a100_tps(llama2_70b, FIT_INFER_FP16, 8), 0.10},
		{"gpt-fast Llama-2-70B int8, TP 8", src, 80.44, a100_tps(llama2_70b, FIT_INFER_INT8, 8), 0.10},
		{"gpt-fast Llama-2-70B int4 G=32, TP 8", src, 90.77, a100_tps(llama2_70b, FIT_INFER_INT4, 8), 0.10},
		{"gpt-fast Mixtral 8x7B int8, 1 A100", src, 97.92, a100_tps(mixtral, FIT_INFER_INT8, 1), 0.10},
		{"gpt-fast Mixtral 8x7B bf16, 2 GPUs", src, 96.67, a100_tps(mixtral, FIT_INFER_FP16, 2), 0.10},
		{"gpt-fast Mixtral 8x7B bf16, 4 GPUs", src, 155.35, a100_tps(mixtral, FIT_INFER_FP16, 4), 0.10},
		{"gpt-fast Mixtral 8x7B bf16, 8 GPUs", src, 227.82, a100_tps(mixtral, FIT_INFER_FP16, 8), 0.10},
		{"gpt-fast Mixtral 8x7B int8, 2 GPUs", src, 155.03, a100_tps(mixtral, FIT_INFER_INT8, 2), 0.10},
		{"gpt-fast Mixtral 8x7B int8, 4 GPUs", src, 216.87, a100_tps(mixtral, FIT_INFER_INT8, 4), KNOWN_OFF},
		{"gpt-fast Mixtral 8x7B int8, 8 GPUs", src, 279.35, a100_tps(mixtral, FIT_INFER_INT8, 8), KNOWN_OFF},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		check(&rows[i]);
	/* Llama-2-70B bf16 does not fit one 80 GB A100 (gpt-fast: OOM) */
	struct fit_job j = job(llama2_70b, FIT_INFER_FP16);
	assert_true(fit_gpus_needed(&j, 80) == 2);
}

/* ---- KV cache, training time ------------------------------------------------------- */

/* Kwon et al. 2023, "Efficient Memory Management for Large Language Model
 * Serving with PagedAttention" (vLLM), §3: OPT-13B's KV cache is 800 KB per
 * token (2 × 5120 × 40 × 2 bytes; KB = 1024 bytes). */
static void test_vllm_kv(void **state)
{
	(void)state;
	struct fit_job j = job((struct fit_model){.params_b = 12.9, .layers = 40, .hidden = 5120,
	                                          .heads = 40, .kv_heads = 40, .head_dim = 128,
	                                          .vocab = 50272, .ffn = 20480},
	                       FIT_INFER_FP16);
	struct ref r = {"vLLM paper: OPT-13B KV cache per token (KiB)", "Kwon et al. 2023, §3", 800,
	                fit_kv_bytes_per_token(&j) / 1024, 0.01};
	check(&r);
}

/* Llama 3.1 model card (meta-llama/Llama-3.1-405B): 30.84M H100-80GB
 * GPU-hours for the 405B model; The Llama 3 Herd of Models (arXiv:2407.21783)
 * §3.1: 15.6T tokens, sequence 8192 for most of pre-training (§3.4), Table
 * 4: 38-43 % BF16 MFU (38 % taken). The card's hours include restarts. */
static void test_llama3_gpu_hours(void **state)
{
	(void)state;
	struct fit_job j = job((struct fit_model){.params_b = 405.9, .layers = 126, .hidden = 16384,
	                                          .heads = 128, .kv_heads = 8, .head_dim = 128,
	                                          .vocab = 128256, .ffn = 53248},
	                       FIT_FULL);
	j.tokens_b = 15600;
	j.seq_len = 8192;
	j.mfu = 0.38;
	struct ref r = {"Llama 3.1 405B pre-training, H100 GPU-hours (M)",
	                "Llama 3.1 model card; arXiv:2407.21783", 30.84,
	                fit_train_hours(&j, 989, 1) / 1e6, 0.10};
	check(&r);
}

/* ---- diffusion and video peak memory ----------------------------------------------- */

static double peak(struct fit_model m, int w, int h, int frames, bool encoders_off)
{
	struct fit_job j = job(m, FIT_DIFFUSION);
	j.model.diffusion = true;
	j.width = w;
	j.height = h;
	j.frames = frames;
	j.encoders_offloaded = encoders_off;
	struct fit_breakdown b;
	fit_memory(&j, 1, &b);
	return b.weights + b.activations; /* the measured peak: no margin */
}

/* SDXL base 1.0 (U-Net 2.567B, text encoders 0.817B, VAE 0.084B), bf16,
 * SDPA, batch 1, 1024², 30 steps: 8.817 GB peak — diffusion-fast
 * (huggingface/diffusion-fast) results CSV, "memory (gbs)".
 * FLUX.1-dev transformer (11.9B, hidden 3072) alone, bf16, 1024², batch 1:
 * 22.61 GB — diffusers benchmarks (huggingface.co/datasets/diffusers/
 * benchmarks, collated_results: mem_plain_GB; benchmarking_flux.py).
 * LTX-Video 0.9.7 transformer (13.04B, hidden 4096; VAE 32× a side, 8×
 * in time, patch 1: 7392 tokens) alone, 512×704×161: 25.21 GB — same
 * dataset. Wan2.1 T2V-1.3B (hidden 1536; VAE 0.127B) with --offload_model
 * True --t5_cpu at 832×480, 81 frames: 8.19 GB — Wan2.1 README. HunyuanVideo
 * (12.8B, hidden 3072) 720×1280×129: 60 GB, 544×960×129: 45 GB — its
 * README, "Requirements" (text encoders not resident at the peak). */
static void test_diffusion_peaks(void **state)
{
	(void)state;
	struct fit_model sdxl = {.params_b = 2.567, .extra_params_b = 0.901, .diffusion = true};
	struct fit_model flux = {.params_b = 11.9, .hidden = 3072, .diffusion = true};
	struct fit_model ltx = {.params_b = 13.04, .hidden = 4096, .latent_px = 32,
	                        .latent_frames = 8, .diffusion = true};
	struct fit_model wan13 = {.params_b = 1.3, .extra_params_b = 0.127, .hidden = 1536,
	                          .diffusion = true};
	struct fit_model hunyuan = {.params_b = 12.8, .extra_params_b = 0.25, .hidden = 3072,
	                            .diffusion = true};
	struct ref rows[] = {
		{"SDXL pipeline 1024², bf16 (GB)", "diffusion-fast results", 8.817,
		 peak(sdxl, 1024, 1024, 1, false), 0.10},
		{"FLUX.1-dev transformer 1024² (GiB)", "diffusers benchmarks", 22.61,
		 peak(flux, 1024, 1024, 1, true) / GIB, 0.10},
		{"LTX-Video transformer 512x704x161 (GiB)", "diffusers benchmarks", 25.21,
		 peak(ltx, 704, 512, 161, true) / GIB, 0.10},
		{"Wan2.1 T2V-1.3B 832x480x81, T5 on CPU (GB)", "Wan2.1 README", 8.19,
		 peak(wan13, 832, 480, 81, true), 0.10},
		{"HunyuanVideo 1280x720x129 (GB)", "HunyuanVideo README", 60,
		 peak(hunyuan, 1280, 720, 129, true), 0.10},
		{"HunyuanVideo 960x544x129 (GB)", "HunyuanVideo README", 45,
		 peak(hunyuan, 960, 544, 129, true), 0.10},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		check(&rows[i]);
}

static int report(void **state)
{
	(void)state;
	printf("%d case(s) outside their tolerance; %d known outside 10 %%\n", n_failed, n_outside);
	return 0;
}

static void test_all_within(void **state)
{
	(void)state;
	assert_int_equal(n_failed, 0);
}

int main(void)
{
	printf("%-58s %10s %10s %9s\n", "case", "published", "gpux", "error");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_paper),
		cmocka_unit_test(test_deepspeed_docs),
		cmocka_unit_test(test_hf_deepspeed_guide),
		cmocka_unit_test(test_gpt_fast),
		cmocka_unit_test(test_vllm_kv),
		cmocka_unit_test(test_llama3_gpu_hours),
		cmocka_unit_test(test_diffusion_peaks),
		cmocka_unit_test_teardown(test_all_within, report),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
