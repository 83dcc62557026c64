/*
 * tests/unit/test_fit_config.c — a Hugging Face config.json read into the
 * fit model's input (catalog_model_from_config, data/hf_config.c): the test
 * data of tests/data/hf (six families, sources in its README) give the
 * architecture the file states and the parameters counted from it; a
 * malformed file is refused naming what is wrong; a partial one is
 * completed with defaults flagged as guessed.
 */
#include "data/catalog.h"
#include "fit/fit.h"
#include "view/view.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static void load(const char *rel, struct catalog_model *m)
{
	char path[256], *cause = NULL;
	snprintf(path, sizeof path, "tests/data/hf/%s", rel);
	if (catalog_model_from_config_file(path, m, &cause) != 0)
		fail_msg("%s: %s", path, cause);
}

static void refuse(const char *rel, const char *says)
{
	char path[256], *cause = NULL;
	struct catalog_model m;
	snprintf(path, sizeof path, "tests/data/hf/%s", rel);
	assert_int_equal(catalog_model_from_config_file(path, &m, &cause), -1);
	assert_non_null(cause);
	if (strstr(cause, says) == NULL)
		fail_msg("%s: \"%s\" does not say \"%s\"", rel, cause, says);
	free(cause);
}

/* Llama 3.1 8B: dense, grouped-query attention, untied: 8.03 B. */
static void llama(void **state)
{
	(void)state;
	struct catalog_model m;
	load("Llama-3.1-8B/config.json", &m);
	assert_string_equal(m.name, "Llama-3.1-8B"); /* the folder's name */
	assert_int_equal(m.kind, CATALOG_MODEL_LLM);
	assert_int_equal(m.layers, 32);
	assert_int_equal(m.kv_heads, 8);
	assert_int_equal(m.head_dim, 128); /* hidden / heads */
	assert_false(m.tied_embeddings);
	assert_int_equal(m.guessed, 0);
	assert_true(fabs(m.params_b - 8.03) < 0.01);
	assert_string_equal(m.torch_dtype, "bfloat16");
	catalog_model_clear(&m);
}

/* Mixtral: num_local_experts; memory holds all 46.7 B, a token uses 12.9 B. */
static void mixtral(void **state)
{
	(void)state;
	struct catalog_model m;
	struct fit_model fm;
	load("Mixtral-8x7B-v0.1/config.json", &m);
	assert_int_equal(m.kind, CATALOG_MODEL_MOE);
	assert_int_equal(m.experts, 8);
	assert_int_equal(m.experts_per_token, 2);
	assert_true(fabs(m.params_b - 46.70) < 0.01);
	assert_true(fabs(m.active_params_b - 12.88) < 0.01);
	view_fit_model(&m, &fm);
	assert_int_equal(fm.experts, 8);
	struct fit_job j;
	fit_job_defaults(&j);
	j.model = fm;
	j.method = FIT_INFER_FP16;
	struct fit_breakdown b;
	fit_memory(&j, 1, &b);
	assert_true(fabs(b.weights - 2 * m.params_b) < 1e-9); /* every expert in memory */
	catalog_model_clear(&m);
}

/* Qwen3 MoE: num_experts, moe_intermediate_size, an explicit head_dim that
 * is not hidden / heads. */
static void qwen3_moe(void **state)
{
	(void)state;
	struct catalog_model m;
	load("Qwen3-30B-A3B/config.json", &m);
	assert_int_equal(m.head_dim, 128);
	assert_int_equal(m.ffn, 768); /* one expert's */
	assert_int_equal(m.experts, 128);
	assert_true(fabs(m.params_b - 30.5) < 0.1);
	assert_true(fabs(m.active_params_b - 3.35) < 0.05);
	catalog_model_clear(&m);
	load("Qwen2.5-32B/config.json", &m);
	assert_int_equal(m.kind, CATALOG_MODEL_LLM);
	assert_true(fabs(m.params_b - 32.76) < 0.01);
	catalog_model_clear(&m);
}

/* DeepSeek-V3: multi-head latent attention (576 cached per layer), three
 * dense layers, a shared expert, FP8 weights noted. */
static void deepseek(void **state)
{
	(void)state;
	struct catalog_model m;
	load("DeepSeek-V3/config.json", &m);
	assert_int_equal(m.kv_latent_dim, 576);
	assert_int_equal(m.experts, 256);
	assert_int_equal(m.experts_per_token, 8);
	assert_true(fabs(m.params_b - 671.0) < 0.5);
	assert_true(fabs(m.active_params_b - 37.5) < 0.1);
	assert_string_equal(m.quant_method, "fp8");
	assert_int_equal(m.quant_bits, 8);
	catalog_model_clear(&m);
}

/* Multimodal configs: the language model's text_config (Llama 4 with its
 * shared expert and alternating MoE layers; Gemma 3, tied by default). */
static void multimodal(void **state)
{
	(void)state;
	struct catalog_model m;
	load("Llama-4-Maverick-17B-128E/config.json", &m);
	assert_int_equal(m.experts, 128);
	assert_true(fabs(m.params_b - 400.7) < 0.1);
	assert_true(fabs(m.active_params_b - 17.2) < 0.1);
	catalog_model_clear(&m);
	load("gemma-3-27b-it/config.json", &m);
	assert_true(m.tied_embeddings);
	assert_int_equal(m.guessed, 0);
	assert_int_equal(m.head_dim, 128);
	assert_true(fabs(m.params_b - 27.0) < 0.1);
	catalog_model_clear(&m);
}

static void malformed(void **state)
{
	(void)state;
	refuse("bad/not-json.json", "not a JSON object");
	refuse("bad/array.json", "not a JSON object");
	refuse("bad/no-layers.json", "num_hidden_layers");
	refuse("bad/kv-heads.json", "num_key_value_heads");
	refuse("bad/fraction.json", "whole number");
	refuse("bad/missing.json", "cannot read");
	char *cause = NULL;
	struct catalog_model m;
	assert_int_equal(catalog_model_from_config("", 0, NULL, &m, &cause), -1);
	free(cause);
}

/* A partial config is completed and says so: no vocabulary, no FFN size, a
 * model type whose tying transformers does not fix. */
static void partial(void **state)
{
	(void)state;
	struct catalog_model m;
	load("bad/partial.json", &m);
	assert_true(m.guessed & CATALOG_GUESSED_VOCAB);
	assert_true(m.guessed & CATALOG_GUESSED_FFN);
	assert_true(m.guessed & CATALOG_GUESSED_TIED);
	assert_int_equal(m.vocab, 32000);
	assert_int_equal(m.ffn, 4 * 4096);
	char *g = catalog_guessed_text(m.guessed);
	assert_non_null(strstr(g, "vocab_size"));
	assert_non_null(strstr(g, "intermediate_size"));
	free(g);
	catalog_model_clear(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(llama),      cmocka_unit_test(mixtral),   cmocka_unit_test(qwen3_moe),
		cmocka_unit_test(deepseek),   cmocka_unit_test(multimodal), cmocka_unit_test(malformed),
		cmocka_unit_test(partial),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
