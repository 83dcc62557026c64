/*
 * tests/unit/test_catalog.c — the catalogue (data/catalog.h).
 *
 * 1. The embedded catalogue loads and holds the marketplace pages' figures,
 *    GPU by GPU, exactly as the seeds print them (../shared/seeds/
 *    000_7d2d0ce89a47add6.txt, the training table, and 002_f3322caf67fa1350.txt,
 *    the fine-tuning table): name, architecture, memory, memory type,
 *    bandwidth and dense BF16, with B300/B200 bandwidth and BF16 "Não
 *    publicado" (null). The seeds' columns and row order of both tables, the
 *    "a partir de" prices of the demo market, and the other workloads' rules.
 * 2. Model presets against published numbers (KV cache per token).
 * 3. Every translatable JSON text is in data/labels.c and the reverse.
 * 4. Damaged catalogues, written to a temporary directory as copies of the
 *    embedded files with one change each, fail with a message naming the
 *    file and the field; an intact copy loads from a directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "data/catalog.h"
#include "util/util.h"

static const char *const ALL_IDS[] = {
	"b300", "b200", "mi325x", "mi300x", "h200", "h100-nvl", "h100-sxm", "a100-sxm",
	"a100-pcie", "rtx-4090", "rtx-5090", "rtx-a6000", "l40s", "rtx-6000-ada", "rtx-pro-6000",
};
#define N_ALL (sizeof ALL_IDS / sizeof ALL_IDS[0])

static struct catalog *load_embedded(void)
{
	struct catalog *c = NULL;
	char *cause = NULL;
	int r = catalog_load(NULL, &c, &cause);

	if (r != 0)
		print_error("catalog_load: %s\n", cause != NULL ? cause : "(no cause)");
	assert_int_equal(r, 0);
	assert_non_null(c);
	assert_null(cause);
	return c;
}

/* ---- 1. the seeds' figures ---------------------------------------------------- */

struct seed_row {
	const char *id, *name, *arch;
	double memory_gb;
	const char *memory_type; /* NULL: the seed row does not show it (finetune table) */
	double bandwidth_gbs;    /* NAN: "Não publicado" */
	double bf16_tflops;      /* NAN: "Não publicado"; -1: not in the seed */
	int64_t from_cents;      /* "a partir de US$ x,yz" */
};

/* Seed 000 (training table), then the GPUs only in seed 002 (fine-tuning). */
static const struct seed_row SEEDS[] = {
	{"b300", "B300", "Blackwell Ultra", 288, "HBM3e", NAN, NAN, 899},
	{"b200", "B200", "Blackwell", 180, "HBM3e", NAN, NAN, 799},
	{"mi325x", "MI325X", "CDNA 3", 256, "HBM3e", 6000, 1307, 482},
	{"mi300x", "MI300X", "CDNA 3", 192, "HBM3", 5300, 1307, 416},
	{"h200", "H200", "Hopper", 141, "HBM3e", 4800, 989, 419},
	{"h100-nvl", "H100 NVL", "Hopper", 94, "HBM3", 3900, 835, 319},
	{"h100-sxm", "H100 SXM", "Hopper", 80, "HBM3", 3350, 989, 288},
	{"a100-sxm", "A100 SXM", "Ampere", 80, "HBM2e", 2039, 312, 179},
	{"a100-pcie", "A100 PCIe", "Ampere", 80, "HBM2e", 1935, 312, 179},
	{"rtx-4090", "RTX 4090", "Ada Lovelace", 24, NULL, 1008, -1, 33},
	{"rtx-5090", "RTX 5090", "Blackwell", 32, NULL, 1792, -1, 69},
	{"rtx-a6000", "RTX A6000", "Ampere", 48, NULL, 768, -1, 33},
	{"l40s", "L40S", "Ada Lovelace", 48, NULL, 864, -1, 79},
	{"rtx-6000-ada", "RTX 6000 Ada", "Ada Lovelace", 48, NULL, 960, -1, 74},
	{"rtx-pro-6000", "RTX PRO 6000 Blackwell", "Blackwell", 96, NULL, 1792, -1, 169},
};

static void test_all_gpus_in_order(void **state)
{
	struct catalog *c = load_embedded();

	assert_int_equal(c->n_gpus, N_ALL);
	for (size_t i = 0; i < N_ALL; i++) {
		assert_string_equal(c->gpus[i].id, ALL_IDS[i]);
		assert_ptr_equal(catalog_gpu(c, ALL_IDS[i]), &c->gpus[i]);
	}
	assert_null(catalog_gpu(c, "h300"));
	assert_null(catalog_gpu(c, NULL));
	catalog_free(&c);
	assert_null(c);
	catalog_free(&c); /* freeing twice is harmless */
}

static void test_seed_figures(void **state)
{
	struct catalog *c = load_embedded();

	for (size_t i = 0; i < sizeof SEEDS / sizeof SEEDS[0]; i++) {
		const struct seed_row *s = &SEEDS[i];
		const struct catalog_gpu *g = catalog_gpu(c, s->id);

		print_message("  %s\n", s->id);
		assert_non_null(g);
		assert_string_equal(g->name, s->name);
		assert_string_equal(g->arch, s->arch);
		assert_true(g->memory_gb == s->memory_gb);
		if (s->memory_type != NULL)
			assert_string_equal(g->memory_type, s->memory_type);
		if (isnan(s->bandwidth_gbs))
			assert_false(catalog_known(g->bandwidth_gbs));
		else
			assert_true(g->bandwidth_gbs == s->bandwidth_gbs);
		if (isnan(s->bf16_tflops))
			assert_false(catalog_known(g->bf16_tflops));
		else if (s->bf16_tflops >= 0)
			/* the page's own figure wins over the spec sheet's */
			assert_true(g->bf16_tflops == s->bf16_tflops);
		else
			assert_true(catalog_known(g->bf16_tflops)); /* from the manufacturer */
		assert_int_equal(g->demo_from_cents, s->from_cents);
		assert_true(strlen(g->source) > 10 && strstr(g->source, "http") != NULL);
	}
	catalog_free(&c);
}

/* What the table must show for GPUs without RT cores or video encoders, and
 * the vendor/form factor of each family. */
static void test_other_specs(void **state)
{
	struct catalog *c = load_embedded();
	static const char *const datacentre[] = {"b300", "b200", "mi325x", "mi300x", "h200",
	                                         "h100-nvl", "h100-sxm", "a100-sxm", "a100-pcie"};

	for (size_t i = 0; i < sizeof datacentre / sizeof datacentre[0]; i++) {
		const struct catalog_gpu *g = catalog_gpu(c, datacentre[i]);
		assert_int_equal(g->rt_cores, 0);
		assert_int_equal(g->video_encoders, 0);
		assert_true(g->ecc);
	}
	/* NVIDIA RTX 4090: 128 RT cores, 2 NVENC (Ada whitepaper, Appendix A) */
	assert_int_equal(catalog_gpu(c, "rtx-4090")->rt_cores, 128);
	assert_int_equal(catalog_gpu(c, "rtx-4090")->video_encoders, 2);
	assert_false(catalog_gpu(c, "rtx-4090")->ecc);
	/* NVIDIA L40S datasheet: 142 RT cores, 3 NVENC */
	assert_int_equal(catalog_gpu(c, "l40s")->rt_cores, 142);
	assert_int_equal(catalog_gpu(c, "l40s")->video_encoders, 3);
	/* NVIDIA H100 datasheet: SXM FP64 Tensor Core 67 TFLOPS, vector 34 */
	assert_true(catalog_gpu(c, "h100-sxm")->fp64_tflops == 67);
	assert_non_null(strstr(catalog_gpu(c, "h100-sxm")->fp64_note, "34"));
	/* AMD MI300X: 163.4 FP64 matrix, OAM */
	assert_true(catalog_gpu(c, "mi300x")->fp64_tflops == 163.4);
	assert_string_equal(catalog_gpu(c, "mi300x")->form_factor, "OAM");
	assert_string_equal(catalog_gpu(c, "mi300x")->vendor, "AMD");
	/* A100 has no FP8: "not supported", distinct from not published (B300's
	 * bandwidth) */
	assert_false(catalog_supported(catalog_gpu(c, "a100-sxm")->fp8_tflops));
	assert_false(catalog_supported(catalog_gpu(c, "rtx-a6000")->fp8_tflops));
	assert_true(catalog_supported(catalog_gpu(c, "h100-sxm")->fp8_tflops));
	assert_false(catalog_known(catalog_gpu(c, "b300")->bandwidth_gbs));
	for (size_t i = 0; i < c->n_gpus; i++) {
		const struct catalog_gpu *g = &c->gpus[i];
		const char *ff = g->form_factor;
		assert_true(strcmp(ff, "SXM") == 0 || strcmp(ff, "OAM") == 0 || strcmp(ff, "PCIe") == 0);
		assert_true(strcmp(g->vendor, "NVIDIA") == 0 || strcmp(g->vendor, "AMD") == 0);
		/* dense figures: BF16 never above FP8 where both are published */
		if (catalog_known(g->bf16_tflops) && catalog_known(g->fp8_tflops) &&
		    catalog_supported(g->fp8_tflops))
			assert_true(g->fp8_tflops >= g->bf16_tflops);
	}
	catalog_free(&c);
}

static void test_generic_values(void **state)
{
	struct catalog *c = load_embedded();
	const struct catalog_gpu *h200 = catalog_gpu(c, "h200");
	const struct catalog_gpu *b300 = catalog_gpu(c, "b300");
	enum catalog_field f;
	struct catalog_value v;

	assert_int_equal(catalog_field_from_name("memory_gb", &f), 0);
	assert_int_equal(f, CATALOG_F_MEMORY_GB);
	assert_string_equal(catalog_field_name(CATALOG_F_BANDWIDTH_GBS), "bandwidth_gbs");
	assert_int_equal(catalog_field_from_name("source", &f), -1); /* not a column field */
	assert_int_equal(catalog_field_from_name("nope", &f), -1);
	for (int i = 0; i < CATALOG_F_COUNT; i++) {
		enum catalog_field back;
		assert_non_null(catalog_field_name((enum catalog_field)i));
		assert_int_equal(catalog_field_from_name(catalog_field_name((enum catalog_field)i), &back), 0);
		assert_int_equal(back, i);
	}
	assert_null(catalog_field_name(CATALOG_F_COUNT));

	v = catalog_gpu_value(h200, CATALOG_F_MEMORY_GB);
	assert_int_equal(v.type, CATALOG_VALUE_NUMBER);
	assert_true(v.number == 141);
	v = catalog_gpu_value(b300, CATALOG_F_BANDWIDTH_GBS);
	assert_int_equal(v.type, CATALOG_VALUE_NUMBER);
	assert_false(catalog_known(v.number));
	v = catalog_gpu_value(h200, CATALOG_F_MEMORY_TYPE);
	assert_int_equal(v.type, CATALOG_VALUE_TEXT);
	assert_string_equal(v.text, "HBM3e");
	v = catalog_gpu_value(h200, CATALOG_F_RT_CORES);
	assert_true(v.number == 0);
	v = catalog_gpu_value(h200, CATALOG_F_ECC);
	assert_int_equal(v.type, CATALOG_VALUE_BOOL);
	assert_true(v.flag);
	catalog_free(&c);
}

/* ---- workloads ------------------------------------------------------------------- */

struct col_want {
	const char *id, *label;
	enum catalog_column_kind kind;
	const char *field;      /* FIELD */
	double bpp;             /* CAPACITY */
	int gpus;               /* CAPACITY */
};

static void check_columns(const struct catalog_workload *w, const struct col_want *want, size_t n)
{
	assert_int_equal(w->n_columns, n);
	for (size_t i = 0; i < n; i++) {
		const struct catalog_column *col = &w->columns[i];
		assert_string_equal(col->id, want[i].id);
		assert_string_equal(col->label, want[i].label);
		assert_int_equal(col->kind, want[i].kind);
		if (want[i].kind == CATALOG_COL_FIELD)
			assert_string_equal(catalog_field_name(col->field), want[i].field);
		if (want[i].kind == CATALOG_COL_CAPACITY) {
			assert_true(col->bytes_per_param == want[i].bpp);
			assert_int_equal(col->gpus, want[i].gpus);
		}
		assert_ptr_equal(catalog_column(w, want[i].id), col);
	}
}

static void check_rows(const struct catalog_workload *w, const char *const *ids, size_t n)
{
	assert_int_equal(w->n_gpus, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(w->gpus[i]->id, ids[i]);
}

/* Seed 000: "| GPU | Memória | Tipo de memória | Largura de banda | Tensor BF16 |
 * Treino completo, 1 GPU | Treino completo, 8 GPU | Preço/h |", rows B300 ..
 * A100 PCIe; 16 bytes per parameter. */
static void test_training_is_the_seed_table(void **state)
{
	struct catalog *c = load_embedded();
	const struct catalog_workload *w = catalog_workload(c, "training");
	static const struct col_want want[] = {
		{"gpu", "GPU", CATALOG_COL_GPU, NULL, 0, 0},
		{"memory", "Memory", CATALOG_COL_FIELD, "memory_gb", 0, 0},
		{"memory_type", "Memory type", CATALOG_COL_FIELD, "memory_type", 0, 0},
		{"bandwidth", "Bandwidth", CATALOG_COL_FIELD, "bandwidth_gbs", 0, 0},
		{"bf16", "Tensor BF16", CATALOG_COL_FIELD, "bf16_tflops", 0, 0},
		{"fit_full_1", "Full training, 1 GPU", CATALOG_COL_CAPACITY, NULL, 16, 1},
		{"fit_full_8", "Full training, 8 GPUs", CATALOG_COL_CAPACITY, NULL, 16, 8},
		{"price", "Price/h", CATALOG_COL_PRICE, NULL, 0, 0},
	};
	static const char *const rows[] = {"b300", "b200", "mi325x", "mi300x", "h200",
	                                   "h100-nvl", "h100-sxm", "a100-sxm", "a100-pcie"};

	assert_non_null(w);
	assert_string_equal(w->title, "LLM training");
	check_columns(w, want, sizeof want / sizeof want[0]);
	check_rows(w, rows, sizeof rows / sizeof rows[0]);
	assert_int_equal(w->columns[1].unit, CATALOG_UNIT_GB);
	assert_int_equal(w->columns[3].unit, CATALOG_UNIT_GBS);
	assert_int_equal(w->columns[4].unit, CATALOG_UNIT_TFLOPS);
	assert_int_equal(w->columns[2].unit, CATALOG_UNIT_NONE);
	catalog_free(&c);
}

/* Seed 002: "| GPU | Memória | Largura de banda | QLoRA, modelo base | LoRA 16
 * bits, modelo base | Preço/h |", rows RTX 4090 .. H200; 1.0 and 2.5 bytes per
 * parameter (the brief's fit rules). */
static void test_finetune_is_the_seed_table(void **state)
{
	struct catalog *c = load_embedded();
	const struct catalog_workload *w = catalog_workload(c, "finetune");
	static const struct col_want want[] = {
		{"gpu", "GPU", CATALOG_COL_GPU, NULL, 0, 0},
		{"memory", "Memory", CATALOG_COL_FIELD, "memory_gb", 0, 0},
		{"bandwidth", "Bandwidth", CATALOG_COL_FIELD, "bandwidth_gbs", 0, 0},
		{"fit_qlora_1", "QLoRA base model", CATALOG_COL_CAPACITY, NULL, 1.0, 1},
		{"fit_lora_1", "LoRA 16-bit base model", CATALOG_COL_CAPACITY, NULL, 2.5, 1},
		{"price", "Price/h", CATALOG_COL_PRICE, NULL, 0, 0},
	};
	static const char *const rows[] = {"rtx-4090", "rtx-5090", "rtx-a6000", "l40s",
	                                   "rtx-6000-ada", "a100-sxm", "h100-sxm", "rtx-pro-6000",
	                                   "h200"};

	assert_non_null(w);
	check_columns(w, want, sizeof want / sizeof want[0]);
	check_rows(w, rows, sizeof rows / sizeof rows[0]);
	catalog_free(&c);
}

static void test_six_workloads(void **state)
{
	struct catalog *c = load_embedded();
	static const char *const ids[] = {"training", "finetune", "inference", "imagegen",
	                                  "rendering", "hpc"};
	const struct catalog_workload *w;

	assert_int_equal(c->n_workloads, 6);
	for (size_t i = 0; i < 6; i++) {
		w = &c->workloads[i];
		assert_string_equal(w->id, ids[i]);
		assert_ptr_equal(catalog_workload(c, ids[i]), w);
		assert_int_equal(w->columns[0].kind, CATALOG_COL_GPU);
		assert_int_equal(w->columns[w->n_columns - 1].kind, CATALOG_COL_PRICE);
		assert_true(strlen(w->blurb) > 10);
	}
	assert_null(catalog_workload(c, "mining"));

	/* inference: FP16 (2 B/param) and INT4 (0.5) capacity on one GPU, decode
	 * estimates for Llama 3.1 8B at FP16 and 70B at INT4 */
	w = catalog_workload(c, "inference");
	assert_true(catalog_column(w, "fit_fp16_1")->bytes_per_param == 2.0);
	assert_true(catalog_column(w, "fit_int4_1")->bytes_per_param == 0.5);
	assert_ptr_equal(catalog_column(w, "decode_8b")->model, catalog_model(c, "llama-3.1-8b"));
	assert_int_equal(catalog_column(w, "decode_8b")->precision, CATALOG_PREC_FP16);
	assert_ptr_equal(catalog_column(w, "decode_70b")->model, catalog_model(c, "llama-3.1-70b"));
	assert_int_equal(catalog_column(w, "decode_70b")->precision, CATALOG_PREC_INT4);
	assert_int_equal(w->n_gpus, N_ALL);

	/* rendering: every GPU, RT cores shown (0 for data-centre GPUs) */
	w = catalog_workload(c, "rendering");
	assert_int_equal(w->n_gpus, N_ALL);
	assert_int_equal(catalog_column(w, "rt_cores")->field, CATALOG_F_RT_CORES);
	assert_int_equal(catalog_column(w, "fp32")->decimals, 1);

	/* hpc: FP64, bandwidth, memory, ECC, interconnect */
	w = catalog_workload(c, "hpc");
	assert_int_equal(catalog_column(w, "fp64")->field, CATALOG_F_FP64_TFLOPS);
	assert_int_equal(catalog_column(w, "ecc")->field, CATALOG_F_ECC);
	assert_int_equal(catalog_column(w, "interconnect")->field, CATALOG_F_INTERCONNECT);
	assert_int_equal(catalog_column(w, "interconnect_bw")->unit, CATALOG_UNIT_GBS);

	assert_string_equal(catalog_unit_name(CATALOG_UNIT_GBS), "GB/s");
	assert_string_equal(catalog_unit_name(CATALOG_UNIT_NONE), "");
	assert_string_equal(catalog_precision_name(CATALOG_PREC_INT4), "int4");
	assert_true(catalog_precision_bytes(CATALOG_PREC_INT4) == 0.5);
	assert_true(catalog_precision_bytes(CATALOG_PREC_FP16) == 2.0);
	catalog_free(&c);
}

/* ---- 2. models ------------------------------------------------------------------- */

static double kv_bytes_per_token(const struct catalog_model *m, double bytes)
{
	if (m->kv_latent_dim > 0)
		return (double)m->layers * m->kv_latent_dim * bytes;
	return 2.0 * m->layers * m->kv_heads * m->head_dim * bytes;
}

static void test_models(void **state)
{
	struct catalog *c = load_embedded();
	static const char *const ids[] = {
		"llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "llama-3.2-1b", "llama-3.2-3b",
		"qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b", "qwen2.5-72b", "mistral-7b",
		"mixtral-8x7b", "mixtral-8x22b", "gemma-2-9b", "gemma-2-27b", "deepseek-v3",
		"opt-13b", "sdxl", "flux.1-dev", "wan2.1-t2v-14b"};
	const struct catalog_model *m;

	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		m = catalog_model(c, ids[i]);
		print_message("  %s\n", ids[i]);
		assert_non_null(m);
		assert_true(strstr(m->source, "http") != NULL);
		if (m->kind != CATALOG_MODEL_DIFFUSION) {
			/* the architecture's parameter count within 3 % of the
			 * published total (embeddings untied except Llama 3.2/Gemma) */
			assert_true(m->layers > 0 && m->hidden > 0 && m->kv_heads > 0);
			assert_int_equal(m->heads % m->kv_heads, 0);
		} else {
			assert_true(m->width > 0 && m->height > 0 && m->frames >= 1);
			assert_int_equal(m->layers == -1 || m->layers > 0, 1);
		}
	}
	/* Meta/HF config of Llama 3 8B: 32 layers x 8 KV heads x 128 dims,
	 * 16-bit: 128 KiB of KV cache per token (issue 2's reference case). */
	assert_true(kv_bytes_per_token(catalog_model(c, "llama-3.1-8b"), 2) == 131072);
	/* vLLM paper (Kwon et al. 2023, §3): OPT-13B's KV cache is 800 KB per
	 * token = 2 x 5120 hidden x 40 layers x 2 bytes = 819,200 bytes. */
	assert_true(kv_bytes_per_token(catalog_model(c, "opt-13b"), 2) == 819200);
	/* DeepSeek-V3 report: 671B total, 37B active; MLA caches 512 + 64 per
	 * layer per token, 61 layers. */
	m = catalog_model(c, "deepseek-v3");
	assert_int_equal(m->kind, CATALOG_MODEL_MOE);
	assert_true(m->params_b == 671 && m->active_params_b == 37);
	assert_int_equal(m->kv_latent_dim, 576);
	assert_true(kv_bytes_per_token(m, 2) == 61.0 * 576 * 2);
	/* Mixtral paper: 46.7B total, 12.9B active, 8 experts, top 2 */
	m = catalog_model(c, "mixtral-8x7b");
	assert_true(m->params_b == 46.7 && m->active_params_b == 12.9);
	assert_int_equal(m->experts, 8);
	assert_int_equal(m->experts_per_token, 2);
	/* dense models: active = total, no experts */
	m = catalog_model(c, "llama-3.1-70b");
	assert_true(m->active_params_b == m->params_b);
	assert_int_equal(m->experts, -1);
	assert_false(catalog_known(m->text_encoder_params_b));
	/* FLUX.1-dev: 12B transformer, 1024x1024 by default */
	m = catalog_model(c, "flux.1-dev");
	assert_int_equal(m->kind, CATALOG_MODEL_DIFFUSION);
	assert_true(m->params_b == 12);
	assert_int_equal(m->width, 1024);
	assert_true(catalog_known(m->text_encoder_params_b));
	m = catalog_model(c, "wan2.1-t2v-14b");
	assert_true(m->frames > 1);
	assert_null(catalog_model(c, "gpt-5"));
	catalog_free(&c);
}

/* ---- 3. labels --------------------------------------------------------------------- */

static bool in_labels(const char *s)
{
	for (size_t i = 0; i < catalog_labels_count; i++)
		if (strcmp(catalog_labels[i], s) == 0)
			return true;
	return false;
}

static void test_labels_match_json(void **state)
{
	struct catalog *c = load_embedded();
	bool *used = calloc(catalog_labels_count, sizeof *used);

	assert_non_null(used);
	for (size_t i = 0; i < c->n_workloads; i++) {
		const struct catalog_workload *w = &c->workloads[i];
		const char *texts[3] = {w->title, w->blurb, w->short_title};

		for (size_t t = 0; t < 3; t++) {
			if (!in_labels(texts[t]))
				print_error("not in data/labels.c: \"%s\"\n", texts[t]);
			assert_true(in_labels(texts[t]));
		}
		for (size_t j = 0; j < w->n_columns; j++) {
			const char *l = w->columns[j].label;
			if (!in_labels(l))
				print_error("not in data/labels.c: \"%s\"\n", l);
			assert_true(in_labels(l));
			assert_true(strlen(l) <= 22); /* ASCII labels: bytes = columns */
		}
		for (size_t k = 0; k < catalog_labels_count; k++)
			for (size_t j = 0; j < w->n_columns; j++)
				if (strcmp(catalog_labels[k], w->columns[j].label) == 0 ||
				    strcmp(catalog_labels[k], w->title) == 0 ||
				    strcmp(catalog_labels[k], w->short_title) == 0 ||
				    strcmp(catalog_labels[k], w->blurb) == 0)
					used[k] = true;
	}
	for (size_t k = 0; k < catalog_labels_count; k++) {
		if (!used[k])
			print_error("data/labels.c has a text no JSON file uses: \"%s\"\n",
			            catalog_labels[k]);
		assert_true(used[k]);
		for (size_t j = 0; j < k; j++)
			assert_string_not_equal(catalog_labels[j], catalog_labels[k]);
	}
	free(used);
	catalog_free(&c);
}

/* Every GPU's notes are marked for translation in data/labels.c, and every
 * note marked there is some GPU's: the detail screen shows them translated. */
static void test_notes_match_json(void **state)
{
	struct catalog *c = load_embedded();

	(void)state;
	for (size_t i = 0; i < c->n_gpus; i++) {
		bool found = c->gpus[i].notes == NULL;
		for (size_t k = 0; k < catalog_gpu_notes_count && !found; k++)
			found = strcmp(catalog_gpu_notes[k], c->gpus[i].notes) == 0;
		if (!found)
			print_error("not in data/labels.c: \"%s\"\n", c->gpus[i].notes);
		assert_true(found);
	}
	for (size_t k = 0; k < catalog_gpu_notes_count; k++) {
		bool used = false;
		for (size_t i = 0; i < c->n_gpus && !used; i++)
			used = c->gpus[i].notes != NULL && strcmp(catalog_gpu_notes[k], c->gpus[i].notes) == 0;
		if (!used)
			print_error("data/labels.c has a note no GPU has: \"%s\"\n", catalog_gpu_notes[k]);
		assert_true(used);
	}
	catalog_free(&c);
}

/* ---- 4. damaged catalogues ------------------------------------------------------ */

static const char *const FILES[] = {"gpus.json", "models.json", "workloads.json",
                                    "demo_market.json"};

struct tmpdir {
	char path[256];
};

static void write_file(const char *dir, const char *base, const char *text, size_t len)
{
	char *p = xasprintf("%s/%s", dir, base);
	FILE *f = fopen(p, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	free(p);
}

/* A fresh directory holding copies of the embedded files, where `file` has
 * the first occurrence of `from` replaced by `to` (which must occur). */
static void make_variant(struct tmpdir *t, const char *file, const char *from, const char *to)
{
	snprintf(t->path, sizeof t->path, "%s/gpuxcat.XXXXXX",
	         getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(t->path));
	for (size_t i = 0; i < 4; i++) {
		char *name = xasprintf("data/%s", FILES[i]);
		size_t len;
		const char *text = (const char *)assets_find(name, &len);

		assert_non_null(text);
		if (file != NULL && strcmp(file, FILES[i]) == 0) {
			const char *at = strstr(text, from);
			struct buf b = {0};

			if (at == NULL)
				print_error("\"%s\" not found in %s\n", from, FILES[i]);
			assert_non_null(at);
			buf_append(&b, text, (size_t)(at - text));
			buf_puts(&b, to);
			buf_puts(&b, at + strlen(from));
			write_file(t->path, FILES[i], b.data, b.len);
			buf_free(&b);
		} else {
			write_file(t->path, FILES[i], text, len);
		}
		free(name);
	}
}

static void remove_dir(struct tmpdir *t)
{
	for (size_t i = 0; i < 4; i++) {
		char *p = xasprintf("%s/%s", t->path, FILES[i]);
		unlink(p);
		free(p);
	}
	assert_int_equal(rmdir(t->path), 0);
}

/* Load the variant; it must fail with a cause containing every one of the
 * NULL-terminated fragments (the first is the file name under the dir). */
static void expect_error(const char *file, const char *from, const char *to, ...)
{
	struct tmpdir t;
	struct catalog *c = (struct catalog *)1;
	char *cause = NULL;
	char *want_file;
	va_list ap;
	const char *frag;

	make_variant(&t, file, from, to);
	assert_int_equal(catalog_load(t.path, &c, &cause), -1);
	assert_null(c);
	assert_non_null(cause);
	print_message("  %s\n", cause);
	want_file = xasprintf("%s/%s: ", t.path, file);
	assert_true(strncmp(cause, want_file, strlen(want_file)) == 0);
	va_start(ap, to);
	while ((frag = va_arg(ap, const char *)) != NULL) {
		if (strstr(cause, frag) == NULL)
			print_error("missing \"%s\" in \"%s\"\n", frag, cause);
		assert_non_null(strstr(cause, frag));
	}
	va_end(ap);
	free(want_file);
	free(cause);
	remove_dir(&t);
}

static void test_intact_copy_loads_from_dir(void **state)
{
	struct tmpdir t;
	struct catalog *c = NULL, *e = load_embedded();
	char *cause = NULL;

	make_variant(&t, NULL, NULL, NULL);
	assert_int_equal(catalog_load(t.path, &c, &cause), 0);
	assert_null(cause);
	assert_int_equal(c->n_gpus, e->n_gpus);
	assert_int_equal(c->n_models, e->n_models);
	assert_int_equal(c->n_workloads, e->n_workloads);
	assert_int_equal(catalog_gpu(c, "h200")->demo_from_cents, 419);
	catalog_free(&c);

	/* demo_market.json is optional in a directory: no demo prices then */
	{
		char *p = xasprintf("%s/demo_market.json", t.path);
		assert_int_equal(unlink(p), 0);
		free(p);
	}
	assert_int_equal(catalog_load(t.path, &c, &cause), 0);
	assert_int_equal(catalog_gpu(c, "h200")->demo_from_cents, -1);
	catalog_free(&c);
	remove_dir(&t);
	catalog_free(&e);
}

static void test_missing_field(void **state)
{
	expect_error("gpus.json", "\"memory_gb\": 141,", "",
	             "gpus[4] (\"h200\"): missing field \"memory_gb\"", NULL);
	expect_error("gpus.json", "\"bandwidth_gbs\": null,", "",
	             "gpus[0] (\"b300\"): missing field \"bandwidth_gbs\"", NULL);
	expect_error("workloads.json", "\"title\": \"Fine-tuning\",", "",
	             "workloads[1] (\"finetune\"): missing field \"title\"", NULL);
	expect_error("models.json", "\"layers\": 32,", "",
	             "models[0] (\"llama-3.1-8b\"): missing field \"layers\"", NULL);
}

static void test_wrong_type(void **state)
{
	expect_error("gpus.json", "\"memory_gb\": 141,", "\"memory_gb\": \"141\",",
	             "gpus[4] (\"h200\"): \"memory_gb\" must be a positive number", NULL);
	expect_error("gpus.json", "\"memory_gb\": 141,", "\"memory_gb\": null,",
	             "gpus[4] (\"h200\"): \"memory_gb\" must be a positive number", NULL);
	expect_error("gpus.json", "\"memory_gb\": 141,", "\"memory_gb\": -141,",
	             "\"memory_gb\" must be a positive number", NULL);
	expect_error("gpus.json", "\"memory_gb\": 141,", "\"memory_gb\": 1e400,",
	             "\"memory_gb\" must be a positive number", NULL);
	expect_error("gpus.json", "\"rt_cores\": 128,", "\"rt_cores\": 12.5,",
	             "gpus[9] (\"rtx-4090\"): \"rt_cores\" must be a whole number", NULL);
	expect_error("gpus.json", "\"ecc\": false,", "\"ecc\": \"no\",",
	             "gpus[9] (\"rtx-4090\"): \"ecc\" must be true or false", NULL);
	expect_error("gpus.json", "\"name\": \"H200\",", "\"name\": \"\",",
	             "gpus[4] (\"h200\"): \"name\" must be a non-empty string", NULL);
	expect_error("gpus.json", "\"name\": \"H200\",", "\"name\": \"H200\\u001b[31m\",",
	             "\"name\" must be UTF-8 text without control characters", NULL);
	expect_error("gpus.json", "\"id\": \"h200\",", "\"id\": \"H 200\",",
	             "gpus[4] (\"H 200\"): \"id\" must be an id", NULL);
	expect_error("demo_market.json", "\"from_cents\": 419", "\"from_cents\": 4.19",
	             "prices[4]: \"from_cents\" must be a whole number", NULL);
	expect_error("workloads.json", "\"bytes_per_param\": 16,", "\"bytes_per_param\": \"16\",",
	             "workloads[0] (\"training\"): columns[5] (\"fit_full_1\"): \"bytes_per_param\"",
	             NULL);
}

static void test_bad_json(void **state)
{
	expect_error("gpus.json", "\"memory_gb\": 141,", "\"memory_gb\": 141,,",
	             "invalid JSON at line", NULL);
	expect_error("models.json", "{", "[", "invalid JSON", NULL);
	expect_error("workloads.json", "{", "", "invalid JSON at line 2", NULL);
	expect_error("demo_market.json", "{", "[1,2] //", "invalid JSON", NULL);
	expect_error("gpus.json", "{", "7 //", "invalid JSON", NULL);
}

static void test_unknown_references(void **state)
{
	expect_error("workloads.json", "\"b200\",", "\"b250\",",
	             "workloads[0] (\"training\"): \"gpus\"[1]: unknown GPU \"b250\"", NULL);
	expect_error("workloads.json", "\"field\": \"memory_type\"", "\"field\": \"memory_kind\"",
	             "columns[2] (\"memory_type\"): \"field\" \"memory_kind\" is not a field", NULL);
	expect_error("workloads.json", "\"model\": \"llama-3.1-8b\"", "\"model\": \"llama-9\"",
	             "columns[6] (\"decode_8b\"): \"model\" \"llama-9\" is not a language model",
	             NULL);
	expect_error("workloads.json", "\"model\": \"llama-3.1-8b\"", "\"model\": \"sdxl\"",
	             "\"model\" \"sdxl\" is not a language model", NULL);
	expect_error("demo_market.json", "\"gpu\": \"h200\"", "\"gpu\": \"h201\"",
	             "prices[4]: \"gpu\": unknown GPU \"h201\"", NULL);
}

static void test_structure_rules(void **state)
{
	/* a typo in a key is an unknown field, not a silently missing figure */
	expect_error("gpus.json", "\"tdp_w\": 700,", "\"tdp_watts\": 700, \"tdp_w\": 700,",
	             "gpus[4] (\"h200\"): unknown field \"tdp_watts\"", NULL);
	expect_error("gpus.json", "\"tdp_w\": 700,", "\"tdp_w\": 700, \"tdp_w\": 700,",
	             "field \"tdp_w\" appears twice", NULL);
	expect_error("gpus.json", "\"id\": \"b200\"", "\"id\": \"b300\"",
	             "gpus[1] (\"b300\"): duplicate id \"b300\" (also gpus[0])", NULL);
	expect_error("workloads.json", "{\n          \"id\": \"price\",\n          \"label\": \"Price/h\",\n          \"kind\": \"price\"\n        }\n      ]",
	             "{\"id\": \"price\", \"label\": \"Price/h\", \"kind\": \"price\"},"
	             "{\"id\": \"x\", \"label\": \"X\", \"kind\": \"field\", \"field\": \"tdp_w\"}]",
	             "workloads[0] (\"training\"): the last column must be the \"price\" column", NULL);
	expect_error("workloads.json", "\"label\": \"Full training, 1 GPU\"",
	             "\"label\": \"Full training on one single GPU\"",
	             "\"label\" must be at most 22 characters", NULL);
	expect_error("workloads.json", "\"kind\": \"capacity\"", "\"kind\": \"capacities\"",
	             "\"kind\" must be", NULL);
	expect_error("workloads.json", "\"unit\": \"GB\"", "\"unit\": \"GiB\"",
	             "\"unit\" must be \"GB\" for \"memory_gb\"", NULL);
	expect_error("models.json", "\"active_params_b\": 12.9", "\"active_params_b\": 50",
	             "models[10] (\"mixtral-8x7b\"): \"active_params_b\" must not exceed", NULL);
	expect_error("models.json", "\"kv_heads\": 8,", "\"kv_heads\": 7,",
	             "models[0] (\"llama-3.1-8b\"): \"heads\" must be a multiple of \"kv_heads\"", NULL);
	expect_error("demo_market.json", "\"currency\": \"USD\"", "\"currency\": \"EUR\"",
	             "\"currency\" must be \"USD\"", NULL);
}

static void test_missing_file(void **state)
{
	for (size_t i = 0; i < 3; i++) {
		struct tmpdir t;
		struct catalog *c = NULL;
		char *cause = NULL, *p, *want;

		make_variant(&t, NULL, NULL, NULL);
		p = xasprintf("%s/%s", t.path, FILES[i]);
		assert_int_equal(unlink(p), 0);
		assert_int_equal(catalog_load(t.path, &c, &cause), -1);
		assert_null(c);
		print_message("  %s\n", cause);
		want = xasprintf("%s: No such file or directory", p);
		assert_string_equal(cause, want);
		free(want);
		free(cause);
		free(p);
		remove_dir(&t);
	}
	/* a directory that does not exist */
	{
		struct catalog *c = NULL;
		char *cause = NULL;
		assert_int_equal(catalog_load("/nonexistent/gpux-data", &c, &cause), -1);
		assert_non_null(strstr(cause, "/nonexistent/gpux-data/gpus.json: "));
		free(cause);
	}
}

/* Damage of every kind (truncation anywhere, one byte replaced by a JSON
 * metacharacter, a control or an invalid UTF-8 byte) never crashes (run under
 * make asan) and always either loads or names the damaged file. */
static void test_mutations_never_crash(void **state)
{
	static const char repl[] = {'"', '}', ']', ',', ':', '1', '-', 'n', '\x01', '\xff', ' '};
	struct tmpdir t;
	size_t runs = 0, failures = 0;

	make_variant(&t, NULL, NULL, NULL);
	for (size_t fi = 0; fi < 4; fi++) {
		size_t len;
		char *name = xasprintf("data/%s", FILES[fi]);
		const char *orig = (const char *)assets_find(name, &len);
		char *copy = xmalloc(len + 1);
		char *want = xasprintf("%s/%s: ", t.path, FILES[fi]);

		for (size_t pos = 0; pos < len; pos += 1 + len / 60) {
			for (size_t k = 0; k <= sizeof repl; k++) {
				struct catalog *c = NULL;
				char *cause = NULL;
				size_t n = len;
				int r;

				memcpy(copy, orig, len);
				if (k == sizeof repl)
					n = pos; /* truncated */
				else
					copy[pos] = repl[k];
				write_file(t.path, FILES[fi], copy, n);
				r = catalog_load(t.path, &c, &cause);
				runs++;
				if (r == 0) {
					assert_non_null(c);
					assert_null(cause);
					catalog_free(&c);
				} else {
					failures++;
					assert_int_equal(r, -1);
					assert_null(c);
					assert_non_null(cause);
					if (strncmp(cause, want, strlen(want)) != 0)
						print_error("cause does not name %s: %s\n", want, cause);
					assert_true(strncmp(cause, want, strlen(want)) == 0);
					free(cause);
				}
			}
		}
		write_file(t.path, FILES[fi], orig, len); /* restore */
		free(want);
		free(copy);
		free(name);
	}
	print_message("  %zu damaged catalogues, %zu refused\n", runs, failures);
	assert_true(failures > runs / 2);
	remove_dir(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_gpus_in_order),
		cmocka_unit_test(test_seed_figures),
		cmocka_unit_test(test_other_specs),
		cmocka_unit_test(test_generic_values),
		cmocka_unit_test(test_training_is_the_seed_table),
		cmocka_unit_test(test_finetune_is_the_seed_table),
		cmocka_unit_test(test_six_workloads),
		cmocka_unit_test(test_models),
		cmocka_unit_test(test_labels_match_json),
		cmocka_unit_test(test_notes_match_json),
		cmocka_unit_test(test_intact_copy_loads_from_dir),
		cmocka_unit_test(test_missing_field),
		cmocka_unit_test(test_wrong_type),
		cmocka_unit_test(test_bad_json),
		cmocka_unit_test(test_unknown_references),
		cmocka_unit_test(test_structure_rules),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_mutations_never_crash),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
