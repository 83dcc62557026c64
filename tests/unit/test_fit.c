/*
 * Unit tests of fit/: the seed-table rule cell for cell, the calculator
 * against published reference numbers (each test names its source), time,
 * money, ids, and the size parser's good and bad inputs.
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

/* |got - want| <= tol, with a message naming the case. */
static void near(const char *what, double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("%s: got %.6g, want %.6g ± %.3g", what, got, want, tol);
}

/* got within rel (a fraction) of want */
static void near_rel(const char *what, double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("%s: got %.6g, want %.6g ± %.0f %%", what, got, want, rel * 100);
}

/* ---- models used by several tests ------------------------------------------ */

/* Llama 3 8B, config.json of meta-llama/Meta-Llama-3-8B: 32 layers, hidden
 * 4096, 32 heads, 8 KV heads, head_dim 128, FFN 14336, vocab 128256;
 * 8.03B parameters. */
static struct fit_model llama3_8b(void)
{
	return (struct fit_model){.params_b = 8.03, .layers = 32, .hidden = 4096, .heads = 32,
	                          .kv_heads = 8, .head_dim = 128, .vocab = 128256, .ffn = 14336};
}

/* LLaMA 65B (Touvron et al. 2023, Table 2: 80 layers, dim 8192, 64 heads;
 * FFN 22016, vocab 32000): 65.2B parameters. */
static struct fit_model llama1_65b(void)
{
	return (struct fit_model){.params_b = 65.2, .layers = 80, .hidden = 8192, .heads = 64,
	                          .kv_heads = 64, .head_dim = 128, .vocab = 32000, .ffn = 22016};
}

/* Llama 2 70B (config.json): 68.98B parameters. */
static struct fit_model llama2_70b(void)
{
	return (struct fit_model){.params_b = 68.98, .layers = 80, .hidden = 8192, .heads = 64,
	                          .kv_heads = 8, .head_dim = 128, .vocab = 32000, .ffn = 28672};
}

static struct fit_job job_for(struct fit_model m, enum fit_method method)
{
	struct fit_job j;
	fit_job_defaults(&j);
	j.model = m;
	j.method = method;
	return j;
}

/* ---- the seed-table rule ----------------------------------------------------- */

struct seed_row {
	const char *gpu;
	double memory_gb;
	long a, b; /* training: 1 GPU, 8 GPU; fine-tuning: QLoRA, LoRA */
};

/* Seed page "GPU para treinar grandes modelos de linguagem" (seeds/000_*.txt),
 * columns "Treino completo, 1 GPU" and "Treino completo, 8 GPU". */
static const struct seed_row training_rows[] = {
	{"B300", 288, 10, 110},    {"B200", 180, 9, 70},     {"MI325X", 256, 10, 100},
	{"MI300X", 192, 9, 75},    {"H200", 141, 7, 55},     {"H100 NVL", 94, 4, 35},
	{"H100 SXM", 80, 4, 30},   {"A100 SXM", 80, 4, 30},  {"A100 PCIe", 80, 4, 30},
};

/* Seed page "GPU para afinação de modelos abertos" (seeds/002_*.txt), columns
 * "QLoRA, modelo base" and "LoRA 16 bits, modelo base". */
static const struct seed_row finetune_rows[] = {
	{"RTX 4090", 24, 15, 7},       {"RTX 5090", 32, 25, 10},    {"RTX A6000", 48, 35, 15},
	{"L40S", 48, 35, 15},          {"RTX 6000 Ada", 48, 35, 15}, {"A100 SXM", 80, 60, 25},
	{"H100 SXM", 80, 60, 25},      {"RTX PRO 6000", 96, 75, 30}, {"H200", 141, 110, 45},
};

static void test_seed_training_cells(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof training_rows / sizeof training_rows[0]; i++) {
		const struct seed_row *r = &training_rows[i];
		long one = fit_capacity_prudent(r->memory_gb, FIT_BPP_FULL, 1);
		long eight = fit_capacity_prudent(r->memory_gb, FIT_BPP_FULL, 8);
		if (one != r->a || eight != r->b)
			fail_msg("training %s: got %ld/%ld, seed says %ld/%ld", r->gpu, one, eight, r->a,
			         r->b);
	}
}

static void test_seed_finetune_cells(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof finetune_rows / sizeof finetune_rows[0]; i++) {
		const struct seed_row *r = &finetune_rows[i];
		long q = fit_capacity_prudent(r->memory_gb, FIT_BPP_QLORA, 1);
		long l = fit_capacity_prudent(r->memory_gb, FIT_BPP_LORA, 1);
		if (q != r->a || l != r->b)
			fail_msg("finetune %s: got %ld/%ld, seed says %ld/%ld", r->gpu, q, l, r->a, r->b);
	}
}

/* BRIEF.md "The fit rules": 14.4 → 10, 115.2 → 110; boundaries of each band. */
static void test_prudent_boundaries(void **state)
{
	(void)state;
	assert_int_equal(fit_prudent(9.99), 9);
	assert_int_equal(fit_prudent(10.0), 10);
	assert_int_equal(fit_prudent(14.4), 10);
	assert_int_equal(fit_prudent(14.99), 10);
	assert_int_equal(fit_prudent(15.0), 15);
	assert_int_equal(fit_prudent(45.12), 45);
	assert_int_equal(fit_prudent(99.9), 95);
	assert_int_equal(fit_prudent(100.0), 100);
	assert_int_equal(fit_prudent(109.99), 100);
	assert_int_equal(fit_prudent(115.2), 110);
	assert_int_equal(fit_prudent(0.7), 0);
	assert_int_equal(fit_prudent(0.1 * 3 * 100 / 3), 10);   /* 10 with float noise */
	assert_int_equal(fit_prudent(100 - 1e-13), 100);         /* float noise below 100 */
	assert_int_equal(fit_prudent(-1), -1);
	assert_int_equal(fit_prudent(NAN), -1);
	assert_int_equal(fit_prudent(INFINITY), -1);
}

/* B300 288 GB (BRIEF.md): 14.4 on one GPU, 115.2 on eight; the raw figure. */
static void test_capacity_raw_and_unknown(void **state)
{
	(void)state;
	near("B300 raw 1 GPU", fit_capacity_b(288, 16, 1), 14.4, 1e-9);
	near("B300 raw 8 GPU", fit_capacity_b(288, 16, 8), 115.2, 1e-9);
	near("H200 LoRA raw", fit_capacity_b(141, 2.5, 1), 45.12, 1e-9);
	assert_int_equal(fit_capacity_prudent(NAN, 16, 1), -1); /* not published */
	assert_int_equal(fit_capacity_prudent(80, 16, 0), -1);
	assert_int_equal(fit_capacity_prudent(80, 0, 1), -1);
	assert_int_equal(fit_capacity_prudent(-80, 16, 1), -1);
	assert_true(isnan(fit_capacity_b(NAN, 16, 1)));
}

/* ---- model states: ZeRO -------------------------------------------------------- */

/* Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training Trillion
 * Parameter Models", Figure 1: Ψ = 7.5B, N_d = 64, K = 12 (mixed-precision
 * Adam): 120 GB baseline, 31.4 GB P_os, 16.6 GB P_os+g, 1.9 GB P_os+g+p per GPU. */
static void test_zero_paper_figure1(void **state)
{
	(void)state;
	static const struct {
		enum fit_sharding s;
		double want;
	} rows[] = {
		{FIT_SHARD_NONE, 120.0},
		{FIT_SHARD_ZERO1, 31.4},
		{FIT_SHARD_ZERO2, 16.6},
		{FIT_SHARD_ZERO3, 1.9},
	};
	struct fit_job j = job_for((struct fit_model){.params_b = 7.5}, FIT_FULL);
	j.optimizer = FIT_OPT_ADAM;
	j.accounting = FIT_ZACCT_PAPER;
	for (size_t i = 0; i < 4; i++) {
		j.sharding = rows[i].s;
		struct fit_breakdown b;
		fit_memory(&j, 64, &b);
		double states = b.weights + b.gradients + b.optimizer;
		/* the paper prints one decimal */
		near(fit_sharding_id(rows[i].s), round(states * 10) / 10, rows[i].want, 1e-9);
	}
}


/* The seeds' own numbers: "cerca de 16 bytes por parâmetro" for full training
 * (training page), and its FAQ: "Um modelo de 7 mil milhões de parâmetros
 * precisa de mais de 100 GB no total". */
static void test_seed_full_training_bytes(void **state)
{
	(void)state;
	struct fit_job j = job_for((struct fit_model){.params_b = 7}, FIT_FULL);
	double w, g, o;
	fit_model_states(&j, &w, &g, &o);
	near("16 bytes per parameter", (w + g + o) / 7.0, 16.0, 1e-9);
	struct fit_breakdown b;
	fit_memory(&j, 1, &b);
	assert_true(b.total > 100.0);
	/* 8-bit Adam and SGD need less optimizer state */
	j.optimizer = FIT_OPT_ADAM8;
	fit_model_states(&j, &w, &g, &o);
	near("8-bit Adam", o / 7.0, 6.0, 1e-9);
	j.optimizer = FIT_OPT_SGD;
	fit_model_states(&j, &w, &g, &o);
	near("SGD", o / 7.0, 8.0, 1e-9);
}

/* ---- KV cache ----------------------------------------------------------------- */

/* Kwon et al. 2023 (vLLM, PagedAttention), §3: OPT-13B's KV cache takes
 * 800 KB per token: 2 (key and value) × 5120 (hidden) × 40 (layers) × 2 bytes
 * = 819,200 bytes. */
static void test_kv_vllm_opt13b(void **state)
{
	(void)state;
	struct fit_job j = job_for((struct fit_model){.params_b = 13, .layers = 40, .hidden = 5120,
	                                              .heads = 40, .head_dim = 128, .vocab = 50272},
	                           FIT_INFER_FP16);
	near("OPT-13B KV bytes/token", fit_kv_bytes_per_token(&j), 819200, 0);
}

/* Llama 3 8B with grouped-query attention: 2 × 32 layers × 8 KV heads × 128
 * head_dim × 2 bytes = 131,072 bytes = 128 KiB per token at 16 bits; 64 KiB
 * with an 8-bit KV cache. */
static void test_kv_llama3_8b_gqa(void **state)
{
	(void)state;
	struct fit_job j = job_for(llama3_8b(), FIT_INFER_FP16);
	near("Llama 3 8B KV bytes/token", fit_kv_bytes_per_token(&j), 131072, 0);
	j.kv_bytes = 1;
	near("Llama 3 8B KV bytes/token, fp8", fit_kv_bytes_per_token(&j), 65536, 0);
	/* 8192 tokens × 4 sequences on one GPU: 4 GiB of cache */
	j.kv_bytes = 2;
	j.seq_len = 8192;
	j.batch = 4;
	struct fit_breakdown b;
	fit_memory(&j, 1, &b);
	near("KV 8192 × 4", b.kv_cache * 1e9, 131072.0 * 8192 * 4, 1);
	/* tensor parallelism over 2 GPUs halves it per GPU */
	fit_memory(&j, 2, &b);
	near("KV per GPU, TP 2", b.kv_cache * 1e9, 131072.0 * 8192 * 2, 1);
}

/* DeepSeek-V2 paper (DeepSeek-AI 2024), Table 1: multi-head latent attention
 * caches (d_c + d_h^R) · l elements per token; DeepSeek-V3's config.json:
 * kv_lora_rank 512 + qk_rope_head_dim 64 = 576, 61 layers → 70,272 bytes per
 * token at 16 bits. */
static void test_kv_deepseek_v3_mla(void **state)
{
	(void)state;
	struct fit_job j = job_for((struct fit_model){.params_b = 671, .active_params_b = 37,
	                                              .layers = 61, .hidden = 7168, .heads = 128,
	                                              .kv_heads = 128, .head_dim = 128,
	                                              .vocab = 129280, .ffn = 2048,
	                                              .kv_latent_dim = 576},
	                           FIT_INFER_FP8);
	near("DeepSeek-V3 MLA bytes/token", fit_kv_bytes_per_token(&j), 70272, 0);
	/* MoE: memory holds every expert (671 GB of FP8 weights over 8 GPUs) ... */
	struct fit_breakdown b;
	fit_memory(&j, 8, &b);
	near("DeepSeek-V3 FP8 weights per GPU", b.weights, 671.0 / 8, 1e-6);
	/* ... but a decoding step reads only the 37B active parameters, less
	 * the input embedding (one row of 129280 × 7168 is read), at the FP8
	 * format's efficiency, plus the per-layer cost and the all-reduces */
	j.seq_len = 1;
	double tps = fit_decode_tokens_s(&j, 4800, NAN, 8);
	double read = 37e9 - 129280.0 * 7168;
	double step = (read * 1.0 + 70272) / (8 * 4800e9 * j.bw_efficiency_8bit) +
	              61 * j.layer_us_8bit * 1e-6 + 2 * 61 * j.allreduce_hop_us * 1e-6 * (2 + 3);
	near_rel("DeepSeek-V3 decode reads active params", tps, 1 / step, 1e-9);
}

/* ---- activations ---------------------------------------------------------------- */

/* Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
 * Transformer Models", §4.1 eq. (1): activations per layer
 * s·b·h·(34 + 5·a·s/h) bytes; §5: full recomputation keeps 2·s·b·h per layer.
 * Their GPT-3 175B configuration (Table 3): a = 96, h = 12288, s = 2048; b = 1:
 * 5as/h = 80 (the attention scores outweigh the 34), so one layer holds
 * 2048 × 12288 × 114 = 2,868,903,936 bytes; 50,331,648 when checkpointed. */
static void test_korthikanti_gpt3(void **state)
{
	(void)state;
	near("GPT-3 layer, no recomputation",
	     fit_layer_activation_bytes(2048, 1, 12288, 96, false, false), 2868903936.0, 0.5);
	near("GPT-3 layer, full recomputation",
	     fit_layer_activation_bytes(2048, 1, 12288, 96, true, false), 50331648.0, 0.5);
	/* flash attention stores no scores: the 34·s·b·h term remains */
	near("GPT-3 layer, flash attention",
	     fit_layer_activation_bytes(2048, 1, 12288, 96, false, true), 34.0 * 2048 * 12288, 0.5);
	/* linear in the micro-batch */
	near("GPT-3 layer, b = 4", fit_layer_activation_bytes(2048, 4, 12288, 96, false, false),
	     4 * 2868903936.0, 2);
}

/* The whole-model activations follow from the per-layer formula: L layers
 * without recomputation; L × 2sbh + one layer being recomputed with it; plus
 * the fp32 logits 4·s·b·v (Korthikanti et al. §4.3). */
static void test_activations_total(void **state)
{
	(void)state;
	struct fit_job j = job_for(llama3_8b(), FIT_FULL);
	j.seq_len = 4096;
	j.batch = 2;
	double layer = fit_layer_activation_bytes(4096, 2, 4096, 32, false, false);
	double logits = 4.0 * 4096 * 2 * 128256;
	struct fit_breakdown b;
	j.checkpointing = false;
	fit_memory(&j, 1, &b);
	near_rel("no checkpointing", b.activations * 1e9, 32 * layer + logits, 1e-12);
	j.checkpointing = true;
	fit_memory(&j, 1, &b);
	near_rel("checkpointing", b.activations * 1e9, 32 * 2.0 * 4096 * 2 * 4096 + layer + logits,
	         1e-12);
	/* activations are per GPU: sharding does not divide them */
	struct fit_breakdown b8;
	fit_memory(&j, 8, &b8);
	near("activations on 8 GPUs", b8.activations, b.activations, 1e-12);
}

/* ---- LoRA / QLoRA ---------------------------------------------------------------- */

/* Hugging Face PEFT, print_trainable_parameters() for Llama 3 8B with
 * LoraConfig(r=16, target_modules = q,k,v,o,gate,up,down): "trainable params:
 * 41,943,040 || all params: 8,072,204,288 || trainable%: 0.5196". */
static void test_lora_params_peft_llama3_8b(void **state)
{
	(void)state;
	struct fit_job j = job_for(llama3_8b(), FIT_LORA);
	j.lora_rank = 16;
	near("adapter parameters", fit_lora_params_b(&j) * 1e9, 41943040, 0.5);
	j.method = FIT_FULL;
	near("no adapters for full training", fit_lora_params_b(&j), 0, 0);
}

/* Dettmers et al. 2023, "QLoRA: Efficient Finetuning of Quantized LLMs",
 * abstract: QLoRA "reduces memory usage enough to finetune a 65B parameter
 * model on a single 48GB GPU". The 4-bit NormalFloat base with double
 * quantisation costs 4.127 bits per parameter (§3). With our defaults (rank
 * 16 on all linear layers, gradient checkpointing) and a 512-token sequence
 * the 65B model fits a 48 GB GPU, margin included; a 16-bit LoRA base of 65B
 * does not (130 GB of weights), nor does QLoRA on a 24 GB card. */
static void test_qlora_65b_on_48gb(void **state)
{
	(void)state;
	struct fit_job j = job_for(llama1_65b(), FIT_QLORA);
	j.seq_len = 512;
	struct fit_breakdown b;
	fit_memory(&j, 1, &b);
	/* the embedding and output layer (2 × 32000 × 8192) stay at 16 bits;
	 * ZeRO-3 gathers the largest layer (the embedding) at 16 bits */
	double embed = 2.0 * 32000 * 8192 / 1e9;
	near("NF4 + double-quant base", b.weights - 2 * fit_lora_params_b(&j) - embed,
	     (65.2 - embed) * 4.127 / 8 + 2 * embed, 1e-9);
	struct fit_gpu gpu48 = {.memory_gb = 48, .bandwidth_gbs = 768, .bf16_tflops = 155,
	                        .fp8_tflops = NAN, .price_cents = 33};
	struct fit_result r;
	fit_evaluate(&j, &gpu48, &r);
	if (r.fits != 1)
		fail_msg("QLoRA 65B needs %.1f GB, should fit 48 GB", r.mem.total);
	assert_int_equal(r.gpus_needed, 1);

	struct fit_gpu gpu24 = gpu48;
	gpu24.memory_gb = 24;
	fit_evaluate(&j, &gpu24, &r);
	assert_int_equal(r.fits, 0);

	j.method = FIT_LORA;
	fit_evaluate(&j, &gpu48, &r);
	assert_int_equal(r.fits, 0);
	assert_true(r.mem_one.weights > 130);
}

/* The fine-tuning seed page's FAQ: "Com QLoRA, uma GPU de 24 GB como a RTX 4090
 * costuma chegar para um modelo de 7 ou 8 mil milhões de parâmetros com
 * comprimentos de sequência moderados. Com LoRA em 16 bits, uma GPU de 48 GB
 * deixa uma margem confortável." */
static void test_seed_finetune_faq(void **state)
{
	(void)state;
	struct fit_gpu rtx4090 = {.memory_gb = 24, .bandwidth_gbs = 1008, .bf16_tflops = 165.2,
	                          .fp8_tflops = 330.3, .price_cents = 33};
	struct fit_gpu a6000 = {.memory_gb = 48, .bandwidth_gbs = 768, .bf16_tflops = 154.8,
	                        .fp8_tflops = NAN, .price_cents = 33};
	struct fit_job j = job_for(llama3_8b(), FIT_QLORA);
	struct fit_result r;
	fit_evaluate(&j, &rtx4090, &r);
	if (r.fits != 1)
		fail_msg("QLoRA 8B needs %.1f GB on a 24 GB card", r.mem.total);
	j.method = FIT_LORA;
	fit_evaluate(&j, &a6000, &r);
	if (r.fits != 1 || r.mem.total > 0.8 * 48)
		fail_msg("LoRA 8B needs %.1f GB, want comfortably below 48", r.mem.total);
}

/* Issue 6's end-to-end expectation: typing 70 with QLoRA shows the H200
 * fitting on one GPU and the RTX 4090 not (size only: guessed architecture). */
static void test_typed_70_qlora(void **state)
{
	(void)state;
	struct fit_job j;
	fit_job_defaults(&j);
	assert_int_equal(fit_model_from_size(70, &j.model, NULL), 0);
	assert_true(j.model.guessed);
	j.method = FIT_QLORA;
	struct fit_gpu h200 = {.memory_gb = 141, .bandwidth_gbs = 4800, .bf16_tflops = 989,
	                       .fp8_tflops = 1979, .price_cents = 419};
	struct fit_gpu rtx4090 = {.memory_gb = 24, .bandwidth_gbs = 1008, .bf16_tflops = 165.2,
	                          .fp8_tflops = 330.3, .price_cents = 33};
	struct fit_result r;
	fit_evaluate(&j, &h200, &r);
	assert_int_equal(r.fits, 1);
	assert_int_equal(r.gpus_needed, 1);
	fit_evaluate(&j, &rtx4090, &r);
	assert_int_equal(r.fits, 0);
}

/* ---- GPUs needed --------------------------------------------------------------- */

static void test_gpus_needed(void **state)
{
	(void)state;
	/* Full training of Llama 3 8B on 80 GB GPUs: DeepSpeed's ZeRO-3 keeps
	 * 18 B/param / N + the gathered embedding: 2 GPUs need ~85 GB each,
	 * 3 would do but jobs run on 1, 2, 4, 8 or whole nodes: 4. */
	struct fit_job j = job_for(llama3_8b(), FIT_FULL);
	j.sharding = FIT_SHARD_ZERO3;
	int n = fit_gpus_needed(&j, 80);
	assert_int_equal(n, 4);
	struct fit_breakdown b;
	fit_memory(&j, n, &b);
	assert_true(b.total <= 80);
	fit_memory(&j, 2, &b);
	assert_true(b.total > 80);
	/* the groups: 1, 2, 4, 8, then whole nodes of 8 */
	static const int groups[] = {1, 2, 4, 8, 16, 24, 32};
	for (int i = 0; i < 7; i++)
		assert_int_equal(fit_gpu_group(i), groups[i]);
	/* a 405B model's full training on 80 GB GPUs: a multiple of 8 */
	j.model = (struct fit_model){.params_b = 405};
	n = fit_gpus_needed(&j, 80);
	assert_true(n > 8 && n % 8 == 0);
	fit_memory(&j, n - 8, &b);
	assert_true(b.total > 80);
	j.model = llama3_8b();
	/* unsharded: the per-GPU need does not drop, no count fits */
	j.sharding = FIT_SHARD_NONE;
	assert_int_equal(fit_gpus_needed(&j, 80), 0);
	/* ZeRO-1 leaves 4 B/param of weights + gradients on each GPU: 32 GB + the
	 * rest; 80 GB GPUs take it with enough of them, 24 GB never */
	j.sharding = FIT_SHARD_ZERO1;
	assert_true(fit_gpus_needed(&j, 80) >= 2);
	assert_int_equal(fit_gpus_needed(&j, 24), 0);
	/* memory not published */
	assert_int_equal(fit_gpus_needed(&j, NAN), -1);

	/* Inference: Llama 2 70B at FP16 (138 GB) needs two 80 GB GPUs, as
	 * gpt-fast ran it (tensor parallel 2, README). */
	j = job_for(llama2_70b(), FIT_INFER_FP16);
	assert_int_equal(fit_gpus_needed(&j, 80), 2);
	/* on 24 GB cards: the smallest count is rounded up to a divisor of its
	 * 64 attention heads (tensor parallelism splits heads evenly) */
	n = fit_gpus_needed(&j, 24);
	assert_int_equal(n, 8);
	fit_memory(&j, n, &b);
	assert_true(b.total <= 24);
	/* tensor parallelism divides the heads: Qwen2.5 7B's 28 heads take TP 4
	 * on 8 GPUs (with 2 pipeline stages), Llama's 64 take TP 8 */
	assert_int_equal(fit_tp_degree(28, 8), 4);
	assert_int_equal(fit_tp_degree(64, 8), 8);
	assert_int_equal(fit_tp_degree(64, 16), 8);
	assert_int_equal(fit_tp_degree(40, 3), 1);
	/* diffusion is replicated: more GPUs do not help */
	struct fit_job d = job_for((struct fit_model){.params_b = 12, .extra_params_b = 4.9,
	                                              .diffusion = true},
	                           FIT_DIFFUSION);
	assert_int_equal(fit_gpus_needed(&d, 24), 0);
	assert_int_equal(fit_gpus_needed(&d, 80), 1);
}

/* ---- inference speed ---------------------------------------------------------------- */


/* Batching: the weights are read once per step for every sequence, the KV
 * cache once per sequence, so total tokens/s grows with the batch while each
 * sequence slows down. */
static void test_decode_batch(void **state)
{
	(void)state;
	struct fit_job j = job_for(llama3_8b(), FIT_INFER_FP16);
	struct fit_gpu h100 = {.memory_gb = 80, .bandwidth_gbs = 3350, .bf16_tflops = 989,
	                       .fp8_tflops = 1979, .price_cents = 288};
	struct fit_result r1, r16;
	fit_evaluate(&j, &h100, &r1);
	j.batch = 16;
	fit_evaluate(&j, &h100, &r16);
	assert_true(r16.decode_tokens_s < r1.decode_tokens_s);
	assert_true(r16.decode_tokens_s_total > 5 * r1.decode_tokens_s_total);
	near("total = per sequence × batch", r16.decode_tokens_s_total, 16 * r16.decode_tokens_s,
	     1e-9);
}

/* ---- diffusion ------------------------------------------------------------------------- */

/* diffusion-fast (sayakpaul, Hugging Face): SDXL base 1.0 in bf16 with SDPA,
 * batch 1, 1024×1024, 30 steps: 8.817 GB of peak memory (results CSV, "memory
 * (gbs)"). SDXL: UNet 2.567B + text encoders 0.817B + VAE 0.084B parameters.
 * Our weights + activations (no margin) must be within 10 %. */
static void test_diffusion_sdxl(void **state)
{
	(void)state;
	struct fit_job j = job_for((struct fit_model){.params_b = 2.567, .extra_params_b = 0.901,
	                                              .diffusion = true},
	                           FIT_DIFFUSION);
	struct fit_breakdown b;
	fit_memory(&j, 1, &b);
	near("SDXL weights", b.weights, 2 * 3.468, 1e-9);
	near_rel("SDXL peak", b.weights + b.activations, 8.817, 0.10);
	/* four images at once: activations ×4, weights the same */
	j.batch = 4;
	struct fit_breakdown b4;
	fit_memory(&j, 1, &b4);
	near("SDXL ×4 activations", b4.activations, 4 * b.activations, 1e-9);
	near("SDXL ×4 weights", b4.weights, b.weights, 0);
	assert_int_equal(b.gradients == 0 && b.optimizer == 0 && b.kv_cache == 0, 1);
}

/* ---- margin ------------------------------------------------------------------------- */

static void test_margin_is_explicit(void **state)
{
	(void)state;
	struct fit_job j = job_for(llama3_8b(), FIT_INFER_FP16);
	struct fit_breakdown b;
	fit_memory(&j, 1, &b);
	double sub = b.weights + b.gradients + b.optimizer + b.activations + b.kv_cache;
	near("default margin 1 GB + 10 %", b.margin, 1.0 + 0.10 * sub, 1e-9);
	near("total is the sum", b.total, sub + b.margin, 1e-9);
	j.overhead_gb = 0;
	j.margin_fraction = 0;
	fit_memory(&j, 1, &b);
	near("no margin", b.margin, 0, 0);
	/* the comparison is against the full memory: a job of exactly 24 GB fits */
	j.model = (struct fit_model){.params_b = 12, .layers = 1, .hidden = 128, .heads = 1,
	                             .kv_heads = 1, .head_dim = 128};
	j.seq_len = 1;
	fit_memory(&j, 1, &b);
	struct fit_gpu g = {.memory_gb = b.total, .bandwidth_gbs = NAN, .bf16_tflops = NAN,
	                    .fp8_tflops = NAN, .price_cents = -1};
	struct fit_result r;
	fit_evaluate(&j, &g, &r);
	assert_int_equal(r.fits, 1);
	g.memory_gb = b.total * 0.999;
	fit_evaluate(&j, &g, &r);
	assert_int_equal(r.fits, 0);
}

/* ---- time and money ----------------------------------------------------------------- */

/* Llama 3.1 405B: pre-trained on 15.6T tokens (Dubey et al. 2024, "The Llama 3
 * Herd of Models", §3.1) at 38–43 % BF16 MFU on H100 (Table 4); the model card
 * reports 30.84M H100-80GB GPU-hours. 6 · 405B · 15.6T ÷ (989 TFLOPS × 0.38)
 * = 28.0M GPU-hours: within 15 % (the card counts restarts and failures). */
static void test_train_time_llama3_405b(void **state)
{
	(void)state;
	struct fit_job j = job_for((struct fit_model){.params_b = 405}, FIT_FULL);
	j.tokens_b = 15600;
	j.mfu = 0.38;
	double hours = fit_train_hours(&j, 989, 1);
	near_rel("Llama 3.1 405B GPU-hours", hours, 30.84e6, 0.15);
	/* N GPUs divide the time */
	near_rel("on 16384 GPUs", fit_train_hours(&j, 989, 16384), hours / 16384, 1e-12);
	/* not published BF16 (B200, B300 in the seeds): unknown */
	assert_true(isnan(fit_train_hours(&j, NAN, 8)));
	/* LoRA: 4 instead of 6 FLOPs per parameter and token; the attention
	 * term 12·L·h·s stays (126 × 16384 × 2048 of the guessed 405B) */
	double att = 12.0 * 126 * 16384 * 2048;
	j.method = FIT_LORA;
	near_rel("LoRA 4/6", fit_train_hours(&j, 989, 1),
	         hours * (4 * 405e9 + att) / (6 * 405e9 + att), 1e-12);
	/* MoE: compute follows the active parameters */
	j.method = FIT_FULL;
	j.model = (struct fit_model){.params_b = 671, .active_params_b = 37, .layers = 61,
	                             .hidden = 7168, .heads = 128, .head_dim = 128};
	double moe_att = 12.0 * 61 * 128 * 128 * 2048;
	near_rel("MoE active params", fit_train_hours(&j, 989, 1),
	         hours * (6 * 37e9 + moe_att) / (6 * 405e9 + att), 1e-12);
	j.method = FIT_INFER_FP16;
	assert_true(isnan(fit_train_hours(&j, 989, 1)));
}

/* Money is integer cents, billed per started hour as the exchange bills
 * rentals. Prices: the seed pages' "a partir de US$ 4,19" for the H200. */
static void test_money(void **state)
{
	(void)state;
	assert_int_equal(fit_hourly_cents(8, 419), 3352);
	assert_int_equal(fit_hourly_cents(8, -1), -1);
	assert_int_equal(fit_hourly_cents(0, 419), -1);
	assert_int_equal(fit_hourly_cents(2, INT64_MAX), -1);
	assert_int_equal(fit_run_cents(2.0, 8, 419), 2 * 3352);
	assert_int_equal(fit_run_cents(2.0000000001, 8, 419), 2 * 3352); /* float noise */
	assert_int_equal(fit_run_cents(2.1, 8, 419), 3 * 3352);
	assert_int_equal(fit_run_cents(0.01, 1, 33), 33);
	assert_int_equal(fit_run_cents(0, 1, 33), 0);
	assert_int_equal(fit_run_cents(NAN, 1, 33), -1);
	assert_int_equal(fit_run_cents(1e11, 1048576, INT64_MAX / 4), -1);
}

/* fit_evaluate puts it together: time and cost at the count the job runs on. */
static void test_evaluate(void **state)
{
	(void)state;
	struct fit_job j = job_for(llama3_8b(), FIT_FULL);
	j.tokens_b = 10;
	j.gpus = 1;
	struct fit_gpu h100 = {.memory_gb = 80, .bandwidth_gbs = 3350, .bf16_tflops = 989,
	                       .fp8_tflops = 1979, .price_cents = 288};
	struct fit_result r;
	fit_evaluate(&j, &h100, &r);
	assert_int_equal(r.fits, 0);
	assert_int_equal(r.gpus_needed, 4);
	assert_int_equal(r.gpus_run, 4);
	assert_int_equal(r.hourly_cents, 4 * 288);
	/* the memory shown is per GPU at those 4; the whole job on one GPU apart */
	assert_int_equal(r.mem_gpus, 4);
	assert_true(r.mem.total <= 80 && r.mem_one.total > 140);
	/* (6 × 8.03e9 + 12 × 32 × 4096 × 2048) × 10e9 / (4 × 989e12 × 0.40) s
	 * = 90.2 h → 91 hours billed */
	double per_token = 6 * 8.03e9 + 12.0 * 32 * 4096 * 2048;
	near("hours", r.train_hours, per_token * 10e9 / (4 * 989e12 * 0.40) / 3600, 1e-9);
	assert_int_equal(r.run_cents, 91 * 4 * 288);
	assert_true(isnan(r.decode_tokens_s));
	near("available", r.available_gb, 80, 0);

	/* the user's own count wins when it fits */
	j.gpus = 8;
	fit_evaluate(&j, &h100, &r);
	assert_int_equal(r.fits, 1);
	assert_int_equal(r.gpus_run, 8);
	assert_int_equal(r.hourly_cents, 8 * 288);

	/* B200: memory published, BF16 not (seeds: "Não publicado") */
	struct fit_gpu b200 = {.memory_gb = 180, .bandwidth_gbs = NAN, .bf16_tflops = NAN,
	                       .fp8_tflops = NAN, .price_cents = 799};
	fit_evaluate(&j, &b200, &r);
	assert_int_equal(r.fits, 1);
	assert_true(isnan(r.train_hours));
	assert_int_equal(r.run_cents, -1);
	assert_int_equal(r.hourly_cents, 8 * 799);

	/* memory unknown, no price */
	struct fit_gpu unknown = {.memory_gb = NAN, .bandwidth_gbs = NAN, .bf16_tflops = NAN,
	                          .fp8_tflops = NAN, .price_cents = -1};
	fit_evaluate(&j, &unknown, &r);
	assert_int_equal(r.fits, -1);
	assert_int_equal(r.gpus_needed, -1);
	assert_int_equal(r.hourly_cents, -1);

	/* unsharded and too big: nothing to run on */
	j.sharding = FIT_SHARD_NONE;
	fit_evaluate(&j, &h100, &r);
	assert_int_equal(r.fits, 0);
	assert_int_equal(r.gpus_needed, 0);
	assert_int_equal(r.gpus_run, 0);
	assert_int_equal(r.hourly_cents, -1);
	assert_true(isnan(r.train_hours));
}

/* ---- defaults, checks, guesses -------------------------------------------------------- */

static void test_defaults_and_check(void **state)
{
	(void)state;
	struct fit_job j;
	fit_job_defaults(&j);
	assert_int_equal(j.method, FIT_FULL);
	assert_int_equal(j.seq_len, 2048);
	assert_int_equal(j.batch, 1);
	assert_true(j.checkpointing);
	assert_int_equal(j.sharding, FIT_SHARD_ZERO3);
	assert_int_equal(j.optimizer, FIT_OPT_ADAM);
	near("MFU", j.mfu, 0.40, 0);
	near("bandwidth efficiency", j.bw_efficiency, 0.73, 0);
	near("decode cost per layer", j.layer_us, 31, 0);
	assert_int_equal(j.embed_bits, 16);
	assert_false(j.act_offload);
	assert_false(j.paged_optimizer);
	assert_int_equal(j.stack, FIT_STACK_NONE);
	char *cause = NULL;
	/* no model yet */
	assert_int_equal(fit_job_check(&j, &cause), -1);
	assert_non_null(cause);
	free(cause);
	cause = NULL;
	j.model = llama3_8b();
	assert_int_equal(fit_job_check(&j, &cause), 0);

	struct fit_job k = j;
	k.seq_len = 0;
	assert_int_equal(fit_job_check(&k, &cause), -1);
	assert_non_null(strstr(cause, "sequence length"));
	free(cause);
	cause = NULL;
	k = j;
	k.gpus = -3;
	assert_int_equal(fit_job_check(&k, &cause), -1);
	assert_non_null(strstr(cause, "GPUs"));
	free(cause);
	cause = NULL;
	k = j;
	k.mfu = NAN;
	assert_int_equal(fit_job_check(&k, &cause), -1);
	assert_non_null(strstr(cause, "MFU"));
	free(cause);
	cause = NULL;
	k = j;
	k.method = (enum fit_method)99;
	assert_int_equal(fit_job_check(&k, &cause), -1);
	free(cause);
	cause = NULL;
	k = j;
	k.model.active_params_b = 9;
	assert_int_equal(fit_job_check(&k, &cause), -1);
	free(cause);

	/* garbage in a job never produces NaN or a crash in fit_memory */
	k = j;
	k.seq_len = -5;
	k.batch = 0;
	k.overhead_gb = NAN;
	k.model.params_b = NAN;
	struct fit_breakdown b;
	fit_memory(&k, -1, &b);
	assert_true(isfinite(b.total) && b.total >= 0);
}

static void test_model_guess(void **state)
{
	(void)state;
	struct fit_model m;
	char *cause = NULL;
	/* 7B: Llama 2 7B's config (multi-head attention: 32 KV heads), the
	 * largest KV cache of the published 7B models within 10 % */
	assert_int_equal(fit_model_from_size(7, &m, NULL), 0);
	assert_int_equal(m.hidden, 4096);
	assert_int_equal(m.layers, 32);
	assert_int_equal(m.heads, 32);
	assert_int_equal(m.kv_heads, 32);
	assert_string_equal(m.guess_from, "Llama 2 7B");
	assert_true(m.guessed);
	/* 8B: Llama 3 8B (GQA, 8 KV heads) */
	assert_int_equal(fit_model_from_size(8, &m, NULL), 0);
	assert_string_equal(m.guess_from, "Llama 3 8B");
	assert_int_equal(m.kv_heads, 8);
	/* 65B: LLaMA 65B's 80 × 8192, not a formula's 59 × 9216 */
	assert_int_equal(fit_model_from_size(65, &m, NULL), 0);
	assert_int_equal(m.layers, 80);
	assert_int_equal(m.hidden, 8192);
	assert_int_equal(m.kv_heads, 64);
	/* 13B: Llama 2 13B, 40 × 5120, MHA */
	assert_int_equal(fit_model_from_size(13, &m, NULL), 0);
	assert_string_equal(m.guess_from, "Llama 2 13B");
	/* 405B: Llama 3.1 405B */
	assert_int_equal(fit_model_from_size(405, &m, NULL), 0);
	assert_int_equal(m.layers, 126);
	assert_int_equal(m.hidden, 16384);
	/* between rows: the nearest row's width, its depth scaled to the size */
	assert_int_equal(fit_model_from_size(1000, &m, NULL), 0);
	assert_int_equal(m.hidden, 16384);
	assert_int_equal(m.layers, 310);
	for (double s = 0.001; s <= 100000; s *= 3.7) {
		assert_int_equal(fit_model_from_size(s, &m, NULL), 0);
		assert_true(m.layers >= 1 && m.hidden >= 256 && m.heads >= 1 && m.ffn > 0);
		assert_true(m.heads % m.kv_heads == 0);
	}
	/* the table is sorted by size and each row holds its size roughly:
	 * blocks 2h·(q + kv) + 3h·ffn (2h·ffn for OPT and Falcon's 2-matrix MLP)
	 * plus embeddings */
	for (int i = 0; i < fit_n_archs; i++) {
		const struct fit_arch_row *r = &fit_archs[i];
		if (i > 0)
			assert_true(r->params_b >= fit_archs[i - 1].params_b);
		double h = r->hidden, q = (double)r->heads * r->head_dim;
		double kv = (double)r->kv_heads * r->head_dim;
		bool two = strncmp(r->name, "OPT", 3) == 0 || strncmp(r->name, "Falcon", 6) == 0;
		double block = h * (2 * q + 2 * kv) + (two ? 2 : 3) * h * r->ffn;
		double p = (r->layers * block + (r->tied ? 1 : 2) * (double)r->vocab * h) / 1e9;
		near_rel(r->name, p, r->params_b, 0.12);
		assert_non_null(r->source);
	}
	assert_int_equal(fit_model_from_size(0, &m, &cause), -1);
	free(cause);
	cause = NULL;
	assert_int_equal(fit_model_from_size(1e9, &m, &cause), -1);
	free(cause);
}

/* The precision and memory switches, each against its formula. */
static void test_switches(void **state)
{
	(void)state;
	struct fit_job j = job_for(llama3_8b(), FIT_INFER_INT4);
	/* int4 with a 16-bit scale and zero per group: 4 + 32/G bits */
	j.int4_group = 128;
	near("int4 G=128 bytes", fit_infer_weight_bytes(&j), 4.25 / 8, 1e-12);
	j.int4_group = 32;
	near("int4 G=32 bytes", fit_infer_weight_bytes(&j), 5.0 / 8, 1e-12);
	/* the KV cache splits over tensor parallelism by KV heads: Llama 3 8B's
	 * 8 KV heads split 8 ways on 8 GPUs */
	j.method = FIT_INFER_FP16;
	struct fit_breakdown b1, b8;
	fit_memory(&j, 1, &b1);
	fit_memory(&j, 8, &b8);
	near("KV per GPU on 8", b8.kv_cache, b1.kv_cache / 8, 1e-12);
	/* Qwen2.5 7B: 4 KV heads, TP 4 on 4 GPUs splits 4 ways; on 8 GPUs its
	 * 28 heads take TP 4 × 2 stages: 8 ways */
	struct fit_job q = job_for((struct fit_model){.params_b = 7.62, .layers = 28, .hidden = 3584,
	                                              .heads = 28, .kv_heads = 4, .head_dim = 128,
	                                              .vocab = 152064, .ffn = 18944},
	                           FIT_INFER_FP16);
	fit_memory(&q, 1, &b1);
	fit_memory(&q, 8, &b8);
	near("Qwen KV per GPU on 8", b8.kv_cache, b1.kv_cache / 8, 1e-12);
	/* a model with 2 KV heads on TP 8 (hypothetical 16 heads): replicated 4× */
	q.model.heads = 16;
	q.model.kv_heads = 2;
	q.model.head_dim = 224;
	fit_memory(&q, 1, &b1);
	fit_memory(&q, 8, &b8);
	near("KV replicated past the KV heads", b8.kv_cache, b1.kv_cache / 2, 1e-12);
	/* the link term: on 2 GPUs a slower link costs more time */
	j.seq_len = 205;
	double fast = fit_decode_tokens_s(&j, 2039, 600, 2), slow = fit_decode_tokens_s(&j, 2039, 64, 2);
	assert_true(slow < fast);
	j.allreduce_hop_us = 0;
	j.layer_us = 0;
	double one = fit_decode_tokens_s(&j, 2039, NAN, 1), two = fit_decode_tokens_s(&j, 2039, NAN, 2);
	near_rel("no latency, no link: TP 2 doubles", two, 2 * one, 1e-12);

	/* training: chunked loss keeps 1024 tokens of fp32 logits */
	struct fit_job t = job_for(llama3_8b(), FIT_FULL);
	t.seq_len = 8192;
	struct fit_breakdown a, c;
	fit_memory(&t, 1, &a);
	t.chunked_loss = true;
	fit_memory(&t, 1, &c);
	near("chunked loss", a.activations - c.activations, 4.0 * (8192 - 1024) * 128256 / 1e9, 1e-9);
	/* pure bf16 with Adam: 2 + 2 + 4 bytes per parameter (paper accounting,
	 * no sharding) */
	t.pure_bf16 = true;
	t.sharding = FIT_SHARD_NONE;
	t.accounting = FIT_ZACCT_PAPER;
	fit_memory(&t, 1, &c);
	near("pure bf16", c.weights + c.gradients + c.optimizer, 8 * 8.03, 1e-9);
	/* offload needs a ZeRO stage; the check says so */
	char *cause = NULL;
	t.offload = FIT_OFFLOAD_OPTIMIZER;
	assert_int_equal(fit_job_check(&t, &cause), -1);
	assert_non_null(strstr(cause, "ZeRO"));
	free(cause);
	/* ids */
	enum fit_offload o;
	enum fit_zero_accounting acc;
	assert_int_equal(fit_offload_parse("cpu", &o, NULL), 0);
	assert_int_equal(o, FIT_OFFLOAD_OPTIMIZER);
	assert_int_equal(fit_accounting_parse("PAPER", &acc, NULL), 0);
	assert_int_equal(acc, FIT_ZACCT_PAPER);
	assert_string_equal(fit_offload_id(FIT_OFFLOAD_ALL), "all");
	assert_string_equal(fit_accounting_id(FIT_ZACCT_DEEPSPEED), "deepspeed");
}

/* ---- ids ---------------------------------------------------------------------------- */

static void test_ids(void **state)
{
	(void)state;
	static const char *const want[] = {"full",      "lora",      "qlora",      "infer-fp16",
	                                   "infer-fp8", "infer-int8", "infer-int4", "diffusion"};
	for (int m = 0; m < FIT_METHOD_COUNT; m++) {
		assert_string_equal(fit_method_id((enum fit_method)m), want[m]);
		assert_non_null(fit_method_label((enum fit_method)m));
		enum fit_method back;
		assert_int_equal(fit_method_parse(want[m], &back, NULL), 0);
		assert_int_equal(back, m);
	}
	assert_null(fit_method_id(FIT_METHOD_COUNT));
	enum fit_method m;
	assert_int_equal(fit_method_parse("QLoRA", &m, NULL), 0);
	assert_int_equal(m, FIT_QLORA);
	char *cause = NULL;
	assert_int_equal(fit_method_parse("dpo", &m, &cause), -1);
	assert_non_null(strstr(cause, "qlora"));
	free(cause);
	cause = NULL;
	assert_int_equal(fit_method_parse(NULL, &m, NULL), -1);

	enum fit_sharding s;
	static const struct {
		const char *in;
		enum fit_sharding out;
	} sh[] = {{"none", FIT_SHARD_NONE}, {"0", FIT_SHARD_NONE},   {"zero1", FIT_SHARD_ZERO1},
	          {"2", FIT_SHARD_ZERO2},   {"ZeRO-3", FIT_SHARD_ZERO3}, {"fsdp", FIT_SHARD_ZERO3}};
	for (size_t i = 0; i < sizeof sh / sizeof sh[0]; i++) {
		assert_int_equal(fit_sharding_parse(sh[i].in, &s, NULL), 0);
		assert_int_equal(s, sh[i].out);
	}
	assert_int_equal(fit_sharding_parse("4", &s, &cause), -1);
	free(cause);
	cause = NULL;
	assert_string_equal(fit_sharding_id(FIT_SHARD_ZERO3), "zero3");

	enum fit_optimizer o;
	assert_int_equal(fit_optimizer_parse("adamw", &o, NULL), 0);
	assert_int_equal(o, FIT_OPT_ADAM);
	assert_int_equal(fit_optimizer_parse("adam-8bit", &o, NULL), 0);
	assert_int_equal(o, FIT_OPT_ADAM8);
	assert_int_equal(fit_optimizer_parse("sgd", &o, NULL), 0);
	assert_int_equal(o, FIT_OPT_SGD);
	assert_int_equal(fit_optimizer_parse("lion", &o, &cause), -1);
	free(cause);
	assert_string_equal(fit_optimizer_id(FIT_OPT_ADAM8), "adam8");
	assert_true(fit_method_is_training(FIT_QLORA));
	assert_false(fit_method_is_training(FIT_INFER_INT4));
	assert_true(fit_method_is_inference(FIT_INFER_INT4));
	assert_false(fit_method_is_inference(FIT_DIFFUSION));
}

/* ---- parsing sizes --------------------------------------------------------------------- */

static void test_parse_size_good(void **state)
{
	(void)state;
	static const struct {
		const char *in;
		char sep;
		double want;
	} ok[] = {
		{"70", '.', 70},        {"70B", '.', 70},      {"70b", '.', 70},
		{" 70 B ", '.', 70},    {"7.5", '.', 7.5},     {"7,5", ',', 7.5},
		{"7.5", ',', 7.5},      {"1.3T", '.', 1300},   {"1,3t", ',', 1300},
		{"350M", '.', 0.35},    {"350m", '.', 0.35},   {"0.5", '.', 0.5},
		{".5", '.', 0.5},       {"8.", '.', 8},        {"405", '.', 405},
		{"100T", '.', 100000},  {"1M", '.', 0.001},    {"007", '.', 7},
		{"671B", '.', 671},     {"+13", '.', 13},      {"3.999999999999", '.', 3.999999999},
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		double v = -1;
		char *cause = NULL;
		if (fit_parse_size(ok[i].in, ok[i].sep, &v, &cause) != 0)
			fail_msg("\"%s\" rejected: %s", ok[i].in, cause);
		near(ok[i].in, v, ok[i].want, 1e-9 * ok[i].want);
	}
}

static void test_parse_size_bad(void **state)
{
	(void)state;
	static const struct {
		const char *in;
		char sep;
		const char *cause_has;
	} bad[] = {
		{"", '.', "empty"},
		{"   ", '.', "empty"},
		{"abc", '.', "not a model size"},
		{"-5", '.', "negative"},
		{"0", '.', "greater than zero"},
		{"0.0B", '.', "greater than zero"},
		{"nan", '.', "not a model size"},
		{"inf", '.', "not a model size"},
		{"1e400", '.', "not a model size"},
		{"1e3", '.', "not a model size"},
		{"101T", '.', "too large"},
		{"999999999999999", '.', "too large"},
		{"100001", '.', "too large"},
		{"0.0001", '.', "too small"},
		{"7,5", '.', "decimal point"},
		{"1,000", '.', "decimal point"},
		{"1.000,5", ',', "decimal comma"},
		{"70BB", '.', "not a model size"},
		{"B", '.', "not a model size"},
		{".", '.', "not a model size"},
		{"0x10", '.', "not a model size"},
		{"70 GB", '.', "not a model size"},
		{"7 0", '.', "not a model size"},
		{"--5", '.', "negative"},
		{"++5", '.', "not a model size"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		double v = 42;
		char *cause = NULL;
		if (fit_parse_size(bad[i].in, bad[i].sep, &v, &cause) != -1)
			fail_msg("\"%s\" accepted as %g", bad[i].in, v);
		assert_non_null(cause);
		if (strstr(cause, bad[i].cause_has) == NULL)
			fail_msg("\"%s\": cause \"%s\" lacks \"%s\"", bad[i].in, cause, bad[i].cause_has);
		near("value untouched", v, 42, 0);
		free(cause);
	}
	/* NULL cause and NULL input are fine */
	double v;
	assert_int_equal(fit_parse_size(NULL, '.', &v, NULL), -1);
	assert_int_equal(fit_parse_size("x", '.', &v, NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_training_cells),
		cmocka_unit_test(test_seed_finetune_cells),
		cmocka_unit_test(test_prudent_boundaries),
		cmocka_unit_test(test_capacity_raw_and_unknown),
		cmocka_unit_test(test_zero_paper_figure1),
		cmocka_unit_test(test_seed_full_training_bytes),
		cmocka_unit_test(test_kv_vllm_opt13b),
		cmocka_unit_test(test_kv_llama3_8b_gqa),
		cmocka_unit_test(test_kv_deepseek_v3_mla),
		cmocka_unit_test(test_korthikanti_gpt3),
		cmocka_unit_test(test_activations_total),
		cmocka_unit_test(test_lora_params_peft_llama3_8b),
		cmocka_unit_test(test_qlora_65b_on_48gb),
		cmocka_unit_test(test_seed_finetune_faq),
		cmocka_unit_test(test_typed_70_qlora),
		cmocka_unit_test(test_gpus_needed),
		cmocka_unit_test(test_decode_batch),
		cmocka_unit_test(test_diffusion_sdxl),
		cmocka_unit_test(test_margin_is_explicit),
		cmocka_unit_test(test_train_time_llama3_405b),
		cmocka_unit_test(test_money),
		cmocka_unit_test(test_evaluate),
		cmocka_unit_test(test_defaults_and_check),
		cmocka_unit_test(test_model_guess),
		cmocka_unit_test(test_switches),
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_parse_size_good),
		cmocka_unit_test(test_parse_size_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
