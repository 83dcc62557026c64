/*
 * tests/unit/test_fit_wire.c — the parts of fit/ that gpuxd shares with
 * gpux: the job's wire form (fit_job_to_fields / fit_job_from_fields: a
 * round trip answers the same, every refusal names its field with the API's
 * error code) and the node shape a job needs (fit_node_shape: whole nodes,
 * the tensor-parallel group inside one machine, PCIe boards as they are).
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

static const struct fit_model llama31_70b = {.params_b = 70.6, .active_params_b = 70.6,
                                             .layers = 80, .hidden = 8192, .heads = 64,
                                             .kv_heads = 8, .head_dim = 128, .vocab = 128256,
                                             .ffn = 28672};
static const struct fit_model llama31_405b = {.params_b = 405.9, .active_params_b = 405.9,
                                              .layers = 126, .hidden = 16384, .heads = 128,
                                              .kv_heads = 8, .head_dim = 128, .vocab = 128256,
                                              .ffn = 53248};
static const struct fit_model mixtral = {.params_b = 46.7, .active_params_b = 12.9,
                                         .layers = 32, .hidden = 4096, .heads = 32,
                                         .kv_heads = 8, .head_dim = 128, .vocab = 32000,
                                         .ffn = 14336, .experts = 8, .experts_per_token = 2};

/* GPUs as view_fit_gpu makes them from data/gpus.json */
static const struct fit_gpu h100_sxm = {.memory_gb = 80, .bandwidth_gbs = 3350, .bf16_tflops = 989,
                                        .fp8_tflops = 1979, .link_gbs = 900, .price_cents = 250,
                                        .scale_up = FIT_LINK_NVLINK, .scale_up_gpus = 8,
                                        .pcie_gbs = NAN};
static const struct fit_gpu h100_nvl = {.memory_gb = 94, .bandwidth_gbs = 3900, .bf16_tflops = 835,
                                        .fp8_tflops = 1670, .link_gbs = 600, .price_cents = 320,
                                        .scale_up = FIT_LINK_NVLINK, .scale_up_gpus = 2,
                                        .pcie_gbs = NAN};
static const struct fit_gpu rtx4090 = {.memory_gb = 24, .bandwidth_gbs = 1008, .bf16_tflops = 165.2,
                                       .fp8_tflops = 330.3, .link_gbs = 64, .price_cents = 40,
                                       .scale_up = FIT_LINK_PCIE, .scale_up_gpus = 1,
                                       .pcie_gbs = 64};
static const struct fit_gpu mi300x = {.memory_gb = 192, .bandwidth_gbs = 5300, .bf16_tflops = 1307,
                                      .fp8_tflops = 2615, .link_gbs = 896, .price_cents = 300,
                                      .scale_up = FIT_LINK_INFINITY_FABRIC, .scale_up_gpus = 8,
                                      .pcie_gbs = NAN};

static struct fit_job job_of(const struct fit_model *m, enum fit_method method)
{
	struct fit_job j;
	fit_job_defaults(&j);
	j.model = *m;
	j.method = method;
	return j;
}

/* ---- node shape ------------------------------------------------------------------ */

/* The examples: Llama 3.1 405B at FP8 needs one 8-GPU NVLink node
 * of H100 SXM; Llama 3.1 70B full training needs 3 nodes of 8. */
static void shape_of_the_examples(void **state)
{
	(void)state;
	struct fit_result r;
	struct fit_job j = job_of(&llama31_405b, FIT_INFER_FP8);
	fit_evaluate(&j, &h100_sxm, &r);
	assert_int_equal(r.gpus_run, 8);
	assert_int_equal(r.shape.node_gpus, 8);
	assert_int_equal(r.shape.nodes, 1);
	assert_int_equal(r.shape.tp, 8);
	assert_true(r.shape.link_needed);
	assert_int_equal(r.shape.interconnect, FIT_LINK_NVLINK);
	assert_string_equal(fit_interconnect_id(r.shape.interconnect), "nvlink");

	j = job_of(&llama31_70b, FIT_FULL);
	fit_evaluate(&j, &h100_sxm, &r);
	assert_int_equal(r.gpus_run, 24);
	assert_int_equal(r.shape.node_gpus, 8);
	assert_int_equal(r.shape.nodes, 3);
	assert_int_equal(r.shape.dp, 24);
	assert_int_equal(r.shape.tp, 1);

	/* a job on one GPU needs no link */
	j = job_of(&llama31_70b, FIT_INFER_INT4);
	fit_evaluate(&j, &mi300x, &r);
	assert_int_equal(r.gpus_run, 1);
	assert_false(r.shape.link_needed);
	assert_int_equal(r.shape.node_gpus, 1);
	assert_int_equal(r.shape.nodes, 1);
}

/* PCIe boards are what they are: an H100 NVL pairs two GPUs over its
 * bridge (a node of 2 is NVLink, of 4 or 8 PCIe, and its all-reduce past the
 * pair no longer runs at the bridge's 600 GB/s); an RTX 4090 node is PCIe at
 * any size; an MI300X node is Infinity Fabric. */
static void shape_of_pcie_boards(void **state)
{
	(void)state;
	struct fit_node_shape s;
	struct fit_job j = job_of(&llama31_70b, FIT_INFER_FP16);

	fit_node_shape(&j, &h100_nvl, 2, &s);
	assert_int_equal(s.interconnect, FIT_LINK_NVLINK);
	fit_node_shape(&j, &h100_nvl, 4, &s);
	assert_int_equal(s.interconnect, FIT_LINK_PCIE);
	assert_int_equal(s.tp, 4);
	assert_true(fit_tp_link_gbs(&h100_nvl, 2) == 600);
	assert_true(isnan(fit_tp_link_gbs(&h100_nvl, 4))); /* slot not in gpus.json */
	fit_node_shape(&j, &rtx4090, 8, &s);
	assert_int_equal(s.interconnect, FIT_LINK_PCIE);
	assert_int_equal(s.node_gpus, 8);
	assert_true(fit_tp_link_gbs(&rtx4090, 8) == 64);
	fit_node_shape(&j, &mi300x, 8, &s);
	assert_int_equal(s.interconnect, FIT_LINK_INFINITY_FABRIC);
	/* counts that are not a power of two: the largest node size dividing */
	fit_node_shape(&j, &h100_sxm, 6, &s);
	assert_int_equal(s.node_gpus, 2);
	assert_int_equal(s.nodes, 3);
	fit_node_shape(&j, &h100_sxm, 40, &s);
	assert_int_equal(s.node_gpus, 8);
	assert_int_equal(s.nodes, 5);
	assert_int_equal(s.tp * s.pp, 40);
}

/* Mixtral: 8 experts over a node of 8 is one expert per GPU, over 4 two;
 * memory counts all 46.7B, a decoding step of one sequence reads the 12.9B
 * active, a batch of 16 touches nearly every expert. */
static void moe_experts(void **state)
{
	(void)state;
	struct fit_node_shape s;
	struct fit_job j = job_of(&mixtral, FIT_INFER_FP16);
	struct fit_breakdown b;

	fit_node_shape(&j, &h100_sxm, 8, &s);
	assert_int_equal(s.ep, 8);
	assert_int_equal(s.experts_per_gpu, 1);
	fit_node_shape(&j, &h100_sxm, 4, &s);
	assert_int_equal(s.ep, 4);
	assert_int_equal(s.experts_per_gpu, 2);
	fit_memory(&j, 1, &b);
	assert_true(fabs(b.weights - 2 * 46.7) < 1e-9);
	double one = fit_decode_weight_bytes(&j, 1), sixteen = fit_decode_weight_bytes(&j, 16);
	double embed = 32000.0 * 4096 * 2;
	assert_true(fabs(one - (12.9e9 * 2 - embed)) < 1e3);
	/* 16 sequences: 8 × (1 − (6/8)^16) = 7.92 experts of 8 per layer */
	double expert = (46.7e9 - 12.9e9) / 6, always = 12.9e9 - 2 * expert;
	double want = (always + 8 * (1 - pow(0.75, 16)) * expert) * 2 - embed;
	assert_true(fabs(sixteen - want) < 1e3);
	/* a dense model's step reads the same bytes at any batch */
	struct fit_job d = job_of(&llama31_70b, FIT_INFER_FP16);
	assert_true(fit_decode_weight_bytes(&d, 1) == fit_decode_weight_bytes(&d, 64));
}

/* ---- the wire form --------------------------------------------------------------------- */

static int fields_of(const struct fit_job *j, const char *label, struct fit_field *f)
{
	int n = fit_job_to_fields(j, label, f, FIT_JOB_FIELDS_MAX);
	assert_true(n > 0 && n <= FIT_JOB_FIELDS_MAX);
	return n;
}

static void same_answer(const struct fit_job *a, const struct fit_job *b, const struct fit_gpu *g)
{
	struct fit_result ra, rb;
	fit_evaluate(a, g, &ra);
	fit_evaluate(b, g, &rb);
	assert_int_equal(ra.fits, rb.fits);
	assert_int_equal(ra.gpus_needed, rb.gpus_needed);
	assert_int_equal(ra.gpus_run, rb.gpus_run);
	assert_true(ra.mem.total == rb.mem.total);
	assert_true(ra.mem_one.total == rb.mem_one.total);
	assert_true(isnan(ra.train_hours) ? isnan(rb.train_hours) : ra.train_hours == rb.train_hours);
	assert_true(isnan(ra.decode_tokens_s) ? isnan(rb.decode_tokens_s)
	                                      : ra.decode_tokens_s == rb.decode_tokens_s);
	assert_int_equal(ra.run_cents, rb.run_cents);
	assert_int_equal(ra.shape.node_gpus, rb.shape.node_gpus);
	assert_int_equal(ra.shape.nodes, rb.shape.nodes);
	assert_int_equal(ra.shape.interconnect, rb.shape.interconnect);
}

static void round_trip(const struct fit_job *j, const char *label)
{
	struct fit_field f[FIT_JOB_FIELDS_MAX], f2[FIT_JOB_FIELDS_MAX];
	struct fit_field_problem p;
	struct fit_job back;
	char got_label[65];
	char *cause = NULL;
	int n = fields_of(j, label, f);

	if (fit_job_from_fields(f, n, &back, got_label, sizeof got_label, &p, &cause) != 0)
		fail_msg("round trip refused: %s", cause);
	assert_string_equal(got_label, label != NULL ? label : "");
	same_answer(j, &back, &h100_sxm);
	same_answer(j, &back, &rtx4090);
	same_answer(j, &back, &h100_nvl);
	/* and the fields of the job read back are the same fields */
	int n2 = fields_of(&back, label, f2);
	assert_int_equal(n, n2);
	for (int i = 0; i < n; i++) {
		assert_string_equal(f[i].name, f2[i].name);
		assert_int_equal(f[i].kind, f2[i].kind);
		if (f[i].kind != FIT_FIELD_INT && f[i].kind != FIT_FIELD_BOOL) {
			assert_string_equal(f[i].s, f2[i].s);
		} else if (f[i].i != f2[i].i) {
			fail_msg("%s: %lld then %lld", f[i].name, (long long)f[i].i, (long long)f2[i].i);
		}
	}
}

/* Jobs whose figures are whole units travel exactly: a preset for
 * inference, QLoRA with the Unsloth stack, full training with ZeRO offload,
 * an MoE with FP8 KV cache, a diffusion model. */
static void wire_round_trips(void **state)
{
	(void)state;
	struct fit_job j = job_of(&llama31_405b, FIT_INFER_FP8);
	j.batch = 4;
	j.seq_len = 8192;
	j.prompt_tokens = 4096;
	round_trip(&j, "llama-3.1-405b");

	j = job_of(&llama31_70b, FIT_QLORA);
	fit_stack_apply(&j, FIT_STACK_UNSLOTH);
	j.margin_fraction = 0.2;
	round_trip(&j, "meta-llama/Llama-3.1-70B");

	j = job_of(&llama31_70b, FIT_FULL);
	j.gpus = 16;
	j.offload = FIT_OFFLOAD_OPTIMIZER;
	j.tokens_b = 300;
	j.mfu = 0.38;
	j.optimizer = FIT_OPT_ADAM8;
	j.accounting = FIT_ZACCT_PAPER;
	round_trip(&j, NULL);

	j = job_of(&mixtral, FIT_INFER_INT4);
	j.kv_bytes = 1;
	j.int4_group = 32;
	j.bw_efficiency_4bit = 0.6;
	j.layer_us_4bit = 12.5;
	round_trip(&j, "mixtral-8x7b");

	struct fit_model flux = {.params_b = 11.9, .hidden = 3072, .extra_params_b = 4.88,
	                         .diffusion = true};
	j = job_of(&flux, FIT_DIFFUSION);
	j.width = 1280;
	j.height = 720;
	j.frames = 1;
	j.encoders_offloaded = true;
	round_trip(&j, "flux.1-dev");

	/* a size's guess travels as its resolved architecture, still "guessed" */
	struct fit_model guess;
	assert_int_equal(fit_model_from_size(70, &guess, NULL), 0);
	j = job_of(&guess, FIT_LORA);
	struct fit_field f[FIT_JOB_FIELDS_MAX];
	int n = fields_of(&j, NULL, f);
	struct fit_job back;
	char *cause = NULL;
	assert_int_equal(fit_job_from_fields(f, n, &back, NULL, 0, NULL, &cause), 0);
	assert_true(back.model.guessed);
	assert_int_equal(back.model.layers, 80);
	struct fit_result ra, rb;
	fit_evaluate(&j, &h100_sxm, &ra);
	fit_evaluate(&back, &h100_sxm, &rb);
	assert_true(fabs(ra.mem.total / rb.mem.total - 1) < 1e-6); /* the FFN rounded to whole */
}

/* Every field is written, in the table's order, with the table's kind; the
 * units are the documented ones. */
static void wire_fields_and_units(void **state)
{
	(void)state;
	struct fit_job j = job_of(&llama31_70b, FIT_INFER_FP16);
	struct fit_field f[FIT_JOB_FIELDS_MAX];
	int n = fields_of(&j, "llama-3.1-70b", f);
	assert_int_equal(n, fit_job_field_count);
	for (int i = 0; i < n; i++) {
		assert_string_equal(f[i].name, fit_job_fields[i].name);
		assert_int_equal(f[i].kind, fit_job_fields[i].kind);
	}
	/* the enum names are the CLI's */
	for (int m = 0; m < FIT_METHOD_COUNT; m++)
		assert_string_equal(fit_job_fields[1].values[m], fit_method_id((enum fit_method)m));
	for (int i = 0; i < n; i++) {
		if (strcmp(f[i].name, "params_millions") == 0)
			assert_true(f[i].i == 70600);
		if (strcmp(f[i].name, "margin_bp") == 0)
			assert_true(f[i].i == 1000);
		if (strcmp(f[i].name, "mfu_bp") == 0)
			assert_true(f[i].i == 4000);
		if (strcmp(f[i].name, "overhead_mb") == 0)
			assert_true(f[i].i == 1000);
		if (strcmp(f[i].name, "allreduce_hop_ns") == 0)
			assert_true(f[i].i == 3600);
		if (strcmp(f[i].name, "kv_cache") == 0)
			assert_string_equal(f[i].s, "16");
		if (strcmp(f[i].name, "method") == 0)
			assert_string_equal(f[i].s, "infer-fp16");
	}
}

/* The minimal body: the method, the size and a language model's
 * architecture; the rest takes fit_job_defaults. */
static void wire_minimal_body(void **state)
{
	(void)state;
	const struct fit_field f[] = {
		{"method", FIT_FIELD_STRING, 0, "infer-fp8"}, {"params_millions", FIT_FIELD_INT, 405900, NULL},
		{"layers", FIT_FIELD_INT, 126, NULL},        {"hidden", FIT_FIELD_INT, 16384, NULL},
		{"heads", FIT_FIELD_INT, 128, NULL},         {"kv_heads", FIT_FIELD_INT, 8, NULL},
		{"head_dim", FIT_FIELD_INT, 128, NULL},      {"vocab", FIT_FIELD_INT, 128256, NULL},
		{"ffn", FIT_FIELD_INT, 53248, NULL},
	};
	struct fit_job back, want = job_of(&llama31_405b, FIT_INFER_FP8);
	char *cause = NULL;
	assert_int_equal(fit_job_from_fields(f, 9, &back, NULL, 0, NULL, &cause), 0);
	same_answer(&want, &back, &h100_sxm);
}

/* One bad field: the call fails, naming the field with the API's code. */
static void refused(const struct fit_field *f, int n, enum fit_field_error code,
                    const char *field)
{
	struct fit_field_problem p;
	struct fit_job j;
	char *cause = NULL;
	assert_int_equal(fit_job_from_fields(f, n, &j, NULL, 0, &p, &cause), -1);
	assert_non_null(cause);
	assert_int_equal(p.code, code);
	if (field != NULL) {
		assert_non_null(p.field);
		assert_string_equal(p.field, field);
		assert_non_null(strstr(cause, field));
	}
	free(cause);
}

#define BASE                                                                                     \
	{"method", FIT_FIELD_STRING, 0, "infer-fp16"}, {"params_millions", FIT_FIELD_INT, 70600, NULL}, \
	{"layers", FIT_FIELD_INT, 80, NULL}, {"hidden", FIT_FIELD_INT, 8192, NULL},              \
	{"heads", FIT_FIELD_INT, 64, NULL}, {"kv_heads", FIT_FIELD_INT, 8, NULL},                \
	{"head_dim", FIT_FIELD_INT, 128, NULL}, {"vocab", FIT_FIELD_INT, 128256, NULL},          \
	{"ffn", FIT_FIELD_INT, 28672, NULL}

static void wire_refusals(void **state)
{
	(void)state;
	{
		const struct fit_field f[] = {BASE, {"path", FIT_FIELD_STRING, 0, "/etc/passwd"}};
		refused(f, 10, FIT_FE_UNKNOWN_FIELD, NULL);
	}
	{
		const struct fit_field f[] = {BASE, {"layers", FIT_FIELD_INT, 80, NULL}};
		refused(f, 10, FIT_FE_DUPLICATE_FIELD, "layers");
	}
	{
		const struct fit_field f[] = {BASE};
		refused(f + 1, 8, FIT_FE_MISSING_FIELD, "method");
		refused(f, 8, FIT_FE_MISSING_FIELD, "ffn"); /* a language model's */
	}
	{
		const struct fit_field f[] = {BASE, {"seq_len", FIT_FIELD_STRING, 0, "2048"}};
		refused(f, 10, FIT_FE_WRONG_TYPE, "seq_len");
	}
	{
		const struct fit_field f[] = {BASE, {"checkpointing", FIT_FIELD_INT, 1, NULL}};
		refused(f, 10, FIT_FE_WRONG_TYPE, "checkpointing");
	}
	{
		const struct fit_field f[] = {BASE, {"margin_bp", FIT_FIELD_INT, 10001, NULL}};
		struct fit_field_problem p;
		struct fit_job j;
		char *cause = NULL;
		assert_int_equal(fit_job_from_fields(f, 10, &j, NULL, 0, &p, &cause), -1);
		assert_int_equal(p.code, FIT_FE_OUT_OF_RANGE);
		assert_true(p.min == 0 && p.max == 10000);
		free(cause);
	}
	{
		const struct fit_field f[] = {BASE, {"gpus", FIT_FIELD_INT, 0, NULL}};
		refused(f, 10, FIT_FE_OUT_OF_RANGE, "gpus");
	}
	{
		const struct fit_field f[] = {BASE, {"sharding", FIT_FIELD_STRING, 0, "zero4"}};
		refused(f, 10, FIT_FE_BAD_VALUE, "sharding");
	}
	{
		const struct fit_field f[] = {BASE, {"model", FIT_FIELD_STRING, 0, "bad label\n"}};
		refused(f, 10, FIT_FE_BAD_VALUE, "model");
	}
	{
		const struct fit_field f[] = {
			BASE, {"model", FIT_FIELD_STRING, 0,
			       "a-label-that-is-much-longer-than-sixty-four-bytes-of-preset-or-hub-id"}};
		refused(f, 10, FIT_FE_STRING_TOO_LONG, "model");
	}
	{
		const struct fit_field f[] = {BASE, {"active_params_millions", FIT_FIELD_INT, 90000, NULL}};
		refused(f, 10, FIT_FE_BAD_COMBINATION, "active_params_millions");
	}
	{
		const struct fit_field f[] = {BASE, {"kv_heads", FIT_FIELD_INT, 6, NULL}};
		/* kv_heads given twice is the first refusal; give the base without it */
		struct fit_field g[10];
		memcpy(g, f, sizeof g);
		g[5] = g[9];
		refused(g, 9, FIT_FE_BAD_COMBINATION, "kv_heads");
	}
	{
		const struct fit_field f[] = {BASE, {"experts", FIT_FIELD_INT, 8, NULL}};
		refused(f, 10, FIT_FE_BAD_COMBINATION, "experts_per_token");
	}
	{
		const struct fit_field f[] = {BASE, {"offload", FIT_FIELD_STRING, 0, "optimizer"},
		                              {"sharding", FIT_FIELD_STRING, 0, "none"}};
		refused(f, 11, FIT_FE_BAD_COMBINATION, "offload");
	}
	{
		const struct fit_field f[] = {BASE, {"seq_len", FIT_FIELD_INT, 1024, NULL},
		                              {"prompt_tokens", FIT_FIELD_INT, 2048, NULL}};
		refused(f, 11, FIT_FE_BAD_COMBINATION, "prompt_tokens");
	}
	{
		const struct fit_field f[] = {BASE, {"embed_bits", FIT_FIELD_INT, 24, NULL}};
		refused(f, 10, FIT_FE_BAD_COMBINATION, "embed_bits");
	}
	{
		/* a diffusion job needs no language-model architecture */
		const struct fit_field f[] = {{"method", FIT_FIELD_STRING, 0, "diffusion"},
		                              {"params_millions", FIT_FIELD_INT, 2567, NULL}};
		struct fit_job j;
		char *cause = NULL;
		assert_int_equal(fit_job_from_fields(f, 2, &j, NULL, 0, NULL, &cause), 0);
		assert_true(j.model.diffusion);
	}
}

/* Stacks: Unsloth moves checkpoints to the CPU and uses 8-bit AdamW; PEFT
 * casts the embeddings and head to fp32 and pages the optimizer out. */
static void stacks(void **state)
{
	(void)state;
	struct fit_job j = job_of(&llama31_70b, FIT_FULL), plain;
	struct fit_breakdown a, b;

	fit_stack_apply(&j, FIT_STACK_UNSLOTH);
	assert_int_equal(j.method, FIT_QLORA);
	assert_true(j.act_offload);
	assert_int_equal(j.optimizer, FIT_OPT_ADAM8);
	assert_int_equal(j.sharding, FIT_SHARD_NONE);
	plain = j;
	plain.act_offload = false;
	fit_memory(&j, 1, &a);
	fit_memory(&plain, 1, &b);
	/* 79 of 80 checkpointed inputs (2·s·h bytes each) leave the GPU */
	assert_true(fabs((b.activations - a.activations) - 79 * 2 * 2048.0 * 8192 / 1e9) < 1e-9);

	j = job_of(&llama31_70b, FIT_LORA);
	fit_stack_apply(&j, FIT_STACK_PEFT);
	assert_int_equal(j.method, FIT_LORA); /* LoRA stays LoRA */
	j.method = FIT_QLORA;
	assert_int_equal(j.embed_bits, 32);
	assert_true(j.paged_optimizer);
	fit_memory(&j, 1, &a);
	assert_true(a.optimizer == 0 && a.paged > 0);
	plain = j;
	plain.embed_bits = 16;
	fit_memory(&plain, 1, &b);
	/* fp32 doubles the 2 × vocab × hidden parameters of the embedding and head */
	assert_true(fabs((a.weights - b.weights) - 2.0 * 2 * 128256 * 8192 / 1e9) < 1e-9);

	char *cause = NULL;
	j = job_of(&llama31_70b, FIT_QLORA);
	j.act_offload = true;
	j.checkpointing = false;
	assert_int_equal(fit_job_check(&j, &cause), -1);
	free(cause);
}

/* Prefill: compute bound, (2·Ψ + 2·L·a·d·P)·P FLOPs over the tensor-parallel
 * GPUs at the MFU. */
static void prefill(void **state)
{
	(void)state;
	struct fit_job j = job_of(&llama31_70b, FIT_INFER_FP16);
	j.seq_len = 32768;
	j.prompt_tokens = 32000;
	double p = 32000;
	double want = (2 * 70.6e9 + 2 * 80 * 64 * 128 * p) * p / (8 * 989e12 * 0.40);
	assert_true(fabs(fit_prefill_seconds(&j, 989, 8) / want - 1) < 1e-12);
	j.method = FIT_FULL;
	assert_true(isnan(fit_prefill_seconds(&j, 989, 8)));
}

/* docs/API.md, "Job body", lists every field of the table. */
static void wire_fields_documented(void **state)
{
	(void)state;
	FILE *f = fopen("docs/API.md", "r");
	static char doc[1 << 20];
	size_t n;
	assert_non_null(f);
	n = fread(doc, 1, sizeof doc - 1, f);
	fclose(f);
	doc[n] = '\0';
	char *sec = strstr(doc, "\n## Job body\n");
	assert_non_null(sec);
	char *end = strstr(sec + 1, "\n## ");
	if (end != NULL)
		*end = '\0';
	for (int i = 0; i < fit_job_field_count; i++) {
		char row[96];
		snprintf(row, sizeof row, "| `%s` |", fit_job_fields[i].name);
		if (strstr(sec, row) == NULL)
			fail_msg("docs/API.md, Job body: no row for %s", fit_job_fields[i].name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shape_of_the_examples), cmocka_unit_test(shape_of_pcie_boards),
		cmocka_unit_test(moe_experts),           cmocka_unit_test(wire_round_trips),
		cmocka_unit_test(wire_fields_and_units), cmocka_unit_test(wire_minimal_body),
		cmocka_unit_test(wire_refusals),         cmocka_unit_test(stacks),
		cmocka_unit_test(prefill),               cmocka_unit_test(wire_fields_documented),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
