/*
 * data — the catalogue: the GPUs of the marketplace, the six workloads and the
 * columns of their tables, the model presets of the calculator, and the demo
 * market's opening prices. All of it lives in JSON files (data/gpus.json,
 * data/workloads.json, data/models.json, data/demo_market.json) that are
 * embedded into the binaries; operators and tests can point at a directory
 * holding their own copies instead (--data DIR).
 *
 * catalog_load() parses and validates everything once and hands back one
 * immutable struct catalog; every pointer inside it lives as long as the
 * catalogue. Validation is strict: a missing field, a wrong type, a value out
 * of range, a duplicate id, or a workload naming an unknown GPU, field or
 * model is an error naming the file and the field, e.g.
 *   data/gpus.json: gpus[4] ("h200"): "memory_gb" must be a positive number
 *
 * "Not published" is JSON null in the files; in the structs it is NAN for a
 * double (test with catalog_known()), -1 for an int and NULL for a string.
 * A table shows it as "not published" and sorts it last in either direction.
 */
#ifndef GPUX_CATALOG_H
#define GPUX_CATALOG_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True when a double figure is published (not NAN). */
static inline bool catalog_known(double v) { return !isnan(v); }

/* A figure the GPU does not have at all ("not supported" in gpus.json, e.g.
 * FP8 on the A100), as distinct from one not published (NAN). */
#define CATALOG_NOT_SUPPORTED (-1.0)
static inline bool catalog_supported(double v) { return v != CATALOG_NOT_SUPPORTED; }

/* ---- GPUs (data/gpus.json) ------------------------------------------------ */

/* Every field of gpus.json a column can show, in file order. */
enum catalog_field {
	CATALOG_F_NAME,             /* text   "H100 SXM" */
	CATALOG_F_ARCH,             /* text   "Hopper" */
	CATALOG_F_VENDOR,           /* text   "NVIDIA" / "AMD" */
	CATALOG_F_MEMORY_GB,        /* number GB */
	CATALOG_F_MEMORY_TYPE,      /* text   "HBM3e" */
	CATALOG_F_BANDWIDTH_GBS,    /* number GB/s, memory bandwidth */
	CATALOG_F_BF16_TFLOPS,      /* number dense tensor TFLOPS (no sparsity) */
	CATALOG_F_FP8_TFLOPS,       /* number dense tensor TFLOPS */
	CATALOG_F_FP16_TFLOPS,      /* number dense tensor TFLOPS */
	CATALOG_F_FP32_TFLOPS,      /* number non-tensor (vector/shader) TFLOPS */
	CATALOG_F_FP64_TFLOPS,      /* number TFLOPS, see fp64_note */
	CATALOG_F_INT8_TOPS,        /* number dense tensor TOPS */
	CATALOG_F_RT_CORES,         /* number (integer) 0 = none */
	CATALOG_F_VIDEO_ENCODERS,   /* number (integer) NVENC/VCN encoders, 0 = none */
	CATALOG_F_INTERCONNECT,     /* text   "NVLink 4", "Infinity Fabric", "PCIe 4.0" */
	CATALOG_F_INTERCONNECT_GBS, /* number GB/s GPU-to-GPU; not published = none */
	CATALOG_F_FORM_FACTOR,      /* text   "SXM", "OAM", "PCIe" */
	CATALOG_F_TDP_W,            /* number W */
	CATALOG_F_ECC,              /* bool */
	CATALOG_F_COUNT
};

enum catalog_value_type {
	CATALOG_VALUE_NUMBER, /* .number, NAN when not published */
	CATALOG_VALUE_TEXT,   /* .text, NULL when not published */
	CATALOG_VALUE_BOOL,   /* .flag */
};

/* One cell's raw value; .text points into the catalogue (not owned). */
struct catalog_value {
	enum catalog_value_type type;
	double number;
	const char *text;
	bool flag;
};

struct catalog_gpu {
	char *id;              /* "h100-sxm" */
	char *name;            /* "H100 SXM", as the seeds print it */
	char *arch;            /* "Hopper" */
	char *vendor;          /* "NVIDIA" / "AMD" */
	double memory_gb;      /* always published */
	char *memory_type;     /* "HBM3e", "GDDR7" */
	double bandwidth_gbs;  /* NAN = not published (B300, B200: as the seeds) */
	double bf16_tflops;    /* dense; NAN = not published */
	double fp8_tflops;     /* dense; NAN = not published, CATALOG_NOT_SUPPORTED = none */
	double fp16_tflops;    /* dense tensor */
	double fp32_tflops;    /* non-tensor FP32 */
	double fp64_tflops;    /* the figure an HPC buyer compares, see fp64_note */
	char *fp64_note;       /* which FP64 figure that is ("tensor", "vector"), or NULL */
	double int8_tops;      /* dense */
	int rt_cores;          /* 0 = none; -1 = not published */
	int video_encoders;    /* 0 = none; -1 = not published */
	char *interconnect;    /* GPU-to-GPU link: "NVLink 5", "Infinity Fabric", "PCIe 5.0" */
	double interconnect_gbs; /* GPU-to-GPU GB/s; NAN = none / not published */
	char *form_factor;     /* "SXM", "OAM", "PCIe" */
	double tdp_w;          /* board power, W */
	bool ecc;              /* ECC on the GPU memory */
	char *source;          /* manufacturer document name + URL */
	char *notes;           /* how the figures were read (sparsity halved, ...), or NULL */
	int64_t demo_from_cents; /* demo market's opening best ask in US cents; -1 if none */
	/* The link one machine's GPUs share, derived at load from form_factor
	 * and interconnect: SXM and OAM boards sit 8 to a baseboard on NVLink /
	 * Infinity Fabric; a PCIe card with an NVLink bridge pairs 2; any other
	 * PCIe card has PCIe alone (1). */
	const char *scale_up;  /* "nvlink", "infinity-fabric" or "pcie" (static) */
	int scale_up_gpus;     /* 8, 2 or 1 */
};

/* The JSON name of a field ("memory_gb"), or NULL for an out-of-range value. */
const char *catalog_field_name(enum catalog_field f);
/* Look a field up by its JSON name; 0 on success, -1 if there is none. */
int catalog_field_from_name(const char *name, enum catalog_field *out);
/* The value of field f of gpu g (ints become numbers, -1 becomes NAN). */
struct catalog_value catalog_gpu_value(const struct catalog_gpu *g, enum catalog_field f);

/* ---- models (data/models.json) -------------------------------------------- */

enum catalog_model_kind {
	CATALOG_MODEL_LLM,       /* dense transformer */
	CATALOG_MODEL_MOE,       /* mixture of experts: active_params_b < params_b */
	CATALOG_MODEL_DIFFUSION, /* image/video diffusion model */
};

struct catalog_model {
	char *id;                /* "llama-3.1-70b" */
	char *name;              /* "Llama 3.1 70B" */
	enum catalog_model_kind kind;
	double params_b;         /* total parameters, billions */
	double active_params_b;  /* per token (MoE); = params_b for dense models */
	/* transformer architecture; -1 where it does not apply (diffusion) */
	int layers;
	int hidden;
	int heads;               /* attention (query) heads */
	int kv_heads;            /* key/value heads (GQA); = heads for MHA */
	int head_dim;
	int vocab;
	int ffn;                 /* FFN intermediate size (per expert for MoE) */
	int max_seq;             /* maximum context length */
	int experts;             /* MoE: routed experts per layer; -1 for dense */
	int experts_per_token;   /* MoE: routed experts used per token; -1 for dense */
	/* Multi-head latent attention (DeepSeek-V3): elements cached per token per
	 * layer (kv_lora_rank + rope head dim = 576); -1 for ordinary attention,
	 * whose KV cache is 2 * kv_heads * head_dim per token per layer. */
	int kv_latent_dim;
	/* diffusion: the denoiser is params_b; these are the rest of the pipeline */
	double text_encoder_params_b; /* NAN where it does not apply */
	double vae_params_b;          /* NAN where it does not apply */
	int width, height;            /* default resolution in pixels; -1 for LLMs */
	int frames;                   /* video: frames per clip; 1 for images; -1 for LLMs */
	char *source;                 /* config.json / paper, with URL */
	bool tied_embeddings;         /* input embedding and output layer shared */
	char **hub;                   /* hub repository ids with this architecture
	                                 ("meta-llama/Llama-3.1-70B"); n_hub of them */
	size_t n_hub;
	/* read from a config.json (catalog_model_from_config), else 0 / NULL */
	unsigned guessed;             /* CATALOG_GUESSED_* the file did not give */
	char *torch_dtype;            /* "bfloat16" ..., or NULL */
	char *quant_method;           /* quantization_config's quant_method, or NULL */
	int quant_bits;               /* its bits (fp8: 8, mxfp4: 4); -1 unknown */
	int quant_group;              /* its group_size; -1 unknown */
};

/* What a config.json left out and gpux filled (catalog_model.guessed). */
#define CATALOG_GUESSED_VOCAB (1u << 0) /* vocab_size: 32000 */
#define CATALOG_GUESSED_FFN   (1u << 1) /* intermediate_size: 4 × hidden */
#define CATALOG_GUESSED_TIED  (1u << 2) /* tie_word_embeddings: false */
#define CATALOG_GUESSED_TOPK  (1u << 3) /* num_experts_per_tok: 2 */

/* Read a Hugging Face config.json (text of len bytes) into *out, the
 * parameters counted from the architecture (data/hf_config.c says what is
 * read and how it counts). name: the model's name, or NULL for the file's
 * _name_or_path. A file that is not a JSON object, lacks the layers, hidden
 * size or heads, or holds an impossible figure is refused: -1 and *cause
 * naming the field. *out owns its strings: catalog_model_clear. */
int catalog_model_from_config(const char *text, size_t len, const char *name,
                              struct catalog_model *out, char **cause);
/* The same for a file; the model's name is the folder holding it. */
int catalog_model_from_config_file(const char *path, struct catalog_model *out, char **cause);
/* Free what a config-read model owns and zero it. */
void catalog_model_clear(struct catalog_model *m);
/* The guessed fields as text ("vocab_size (32000), ..."; "" for none). */
char *catalog_guessed_text(unsigned mask);

/* ---- workloads and their columns (data/workloads.json) --------------------- */

enum catalog_column_kind {
	CATALOG_COL_GPU,      /* name + architecture; first and frozen */
	CATALOG_COL_FIELD,    /* a field of gpus.json: .field, .unit, .decimals */
	CATALOG_COL_CAPACITY, /* seed-table rule: .bytes_per_param, .gpus */
	CATALOG_COL_DECODE,   /* decode tokens/s: .model, .precision */
	CATALOG_COL_PRICE,    /* live best ask; always the last column */
};

enum catalog_unit {
	CATALOG_UNIT_NONE,
	CATALOG_UNIT_GB,
	CATALOG_UNIT_GBS,    /* "GB/s" */
	CATALOG_UNIT_TFLOPS,
	CATALOG_UNIT_TOPS,
	CATALOG_UNIT_W,
};

/* Weight precision of a decode column. */
enum catalog_precision {
	CATALOG_PREC_FP16, /* 2 bytes per weight (also BF16) */
	CATALOG_PREC_FP8,  /* 1 byte */
	CATALOG_PREC_INT8, /* 1 byte */
	CATALOG_PREC_INT4, /* 0.5 byte */
};

struct catalog_column {
	char *id;                   /* stable id: "memory", "fit_full_1" (CSV/JSON keys) */
	char *label;                /* English msgid, translate with _() */
	enum catalog_column_kind kind;
	/* CATALOG_COL_FIELD */
	enum catalog_field field;
	enum catalog_unit unit;
	int decimals;               /* digits after the decimal point */
	/* CATALOG_COL_CAPACITY */
	double bytes_per_param;     /* 16 full training, 2.5 LoRA, 1.0 QLoRA, 2 FP16 ... */
	int gpus;                   /* number of GPUs the states are sharded across */
	/* CATALOG_COL_DECODE */
	const struct catalog_model *model;
	enum catalog_precision precision;
};

struct catalog_workload {
	char *id;                   /* "training" */
	char *title;                /* English msgid: "LLM training" */
	char *short_title;          /* English msgid, for narrow tabs: "Training" */
	char *blurb;                /* English msgid, one line */
	const struct catalog_gpu **gpus; /* the rows, in the seed order */
	size_t n_gpus;
	struct catalog_column *columns;
	size_t n_columns;
};

/* ---- the catalogue ----------------------------------------------------------- */

struct catalog {
	struct catalog_gpu *gpus;          /* in file order */
	size_t n_gpus;
	struct catalog_workload *workloads; /* training finetune inference imagegen rendering hpc */
	size_t n_workloads;
	struct catalog_model *models;
	size_t n_models;
};

/* Load the catalogue: from the embedded copies when dir is NULL, else from
 * DIR/gpus.json, DIR/workloads.json, DIR/models.json and (optional there)
 * DIR/demo_market.json. On success *out owns a new catalogue (free it with
 * catalog_free) and 0 is returned; on failure -1, *out is NULL and *cause
 * holds a malloc'ed message naming the file and the field. */
int catalog_load(const char *dir_or_null, struct catalog **out, char **cause);
/* Free a catalogue and set *c to NULL; NULL and *c == NULL are fine. */
void catalog_free(struct catalog **c);

/* Lookups by id; NULL when there is none. The pointer lives as long as c. */
const struct catalog_gpu *catalog_gpu(const struct catalog *c, const char *id);
const struct catalog_workload *catalog_workload(const struct catalog *c, const char *id);
const struct catalog_model *catalog_model(const struct catalog *c, const char *id);
/* The model presets a typed name means (data/model_search.c): a hub id
 * ("Org/Name", with a '/') finds the presets listing it in "hub" (any case;
 * "-Instruct", "-it", "-Chat" and "-hf" ignored at the end) and nothing
 * else; otherwise the presets whose id or name is the query (any case)
 * first, then those each word of
 * the query begins a word of ("llama-3-70b", "Llama 3 70B" and "llama3 70"
 * find llama-3.1-70b; words cut at spaces, '-', '_', '/' and where letters
 * turn to digits); a query of numbers alone ("0", "0.5b") finds none. At
 * most max are written to out; returns how many match. */
size_t catalog_search_models(const struct catalog *c, const char *query,
			     const struct catalog_model **out, size_t max);
/* A workload's column by id; NULL when there is none. */
const struct catalog_column *catalog_column(const struct catalog_workload *w, const char *id);

/* Text of units and precisions, untranslated ("GB/s", "fp16"); "" for none. */
const char *catalog_unit_name(enum catalog_unit u);
const char *catalog_precision_name(enum catalog_precision p);
/* Bytes per weight of a precision: 2, 1, 1, 0.5. */
double catalog_precision_bytes(enum catalog_precision p);

/* Every translatable text of the JSON files (workload titles and blurbs,
 * column labels), wrapped in N_() in data/labels.c so xgettext sees them. */
extern const char *const catalog_labels[];
extern const size_t catalog_labels_count;
/* The GPUs' notes (gpus.json), marked the same way: a GPU's notes are
 * translated where they are shown. */
extern const char *const catalog_gpu_notes[];
extern const size_t catalog_gpu_notes_count;

#endif
