/*
 * fit — how much GPU memory a job needs, whether it fits, how many GPUs it
 * takes, how long a training run lasts, how fast inference decodes, and what
 * it costs. Pure C: no I/O, no globals, no ncurses, no catalogue. The view
 * layer converts catalogue entries into the small input structs below.
 *
 * Two models live here:
 *
 * 1. The seed-table rule (fit_capacity_prudent): the marketplace pages'
 *    "largest model" columns. usable = 80 % of the memory; capacity in
 *    billions of parameters = usable GB / bytes-per-param × GPUs; shown as a
 *    "prudent" figure (fit_prudent). Computed in integers so that boundary
 *    cells (141 GB × 0.8 / 2.5 = 45.12 → 45) never suffer float error.
 *
 * 2. The calculator (fit_memory, fit_evaluate): weights, gradients, optimizer
 *    states (DeepSpeed's estimators or the ZeRO paper, per stage, with CPU
 *    offload), activations (Korthikanti et al. 2022), KV cache with
 *    grouped-query attention, a margin; fits against the GPU's FULL memory
 *    (the margin is the explicit headroom); GPUs needed in realistic groups;
 *    training time with the attention FLOPs, cost, decode tokens/s per
 *    weight format and tensor-parallel degree. docs/FIT.md has every
 *    formula with its source; tests/unit/test_fit_reference.c holds them
 *    against published figures.
 *    Every assumption is a field of struct fit_job, with the default from
 *    fit_job_defaults(), so the user interface can show and edit each one.
 *
 * Beside them: the machines a job needs (fit_node_shape: nodes of 1, 2, 4 or
 * 8 GPUs and the link they share) and the job's wire form for gpuxd's job
 * orders (fit_job_fields, fit_job_to_fields, fit_job_from_fields), so gpux,
 * the panel and gpuxd share one answer; FIT_MODEL_VERSION names it.
 *
 * Units: memory in GB = 10^9 bytes (as GPU spec sheets and the ZeRO paper
 * count), parameters and tokens in billions, bandwidth in GB/s, compute in
 * dense TFLOPS, money in integer cents (never a float in a final figure).
 * NAN in a GPU figure means "not published"; results then say "unknown".
 *
 * Error texts (*cause) are fixed English msgids without interpolation, so a
 * caller may translate them with _(cause); they are malloc'ed, caller frees.
 */
#ifndef GPUX_FIT_H
#define GPUX_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The fit model's version: bumped whenever an answer for the same job
 * changes (a formula, a default, a fitted constant). gpuxd puts it in its
 * job-order replies, so a client can tell which model priced its job.
 * 3: mixture-of-experts decode by experts touched, per-layer decode cost per
 *    weight format (gpt-fast fit), fine-tuning stacks, node shapes. */
#define FIT_MODEL_VERSION 3

/* ---- the seed-table rule ------------------------------------------------ */

#define FIT_USABLE_FRACTION 0.8  /* the seeds count 80 % of the memory */
#define FIT_BPP_FULL  16.0       /* full training, mixed precision + Adam */
#define FIT_BPP_LORA   2.5       /* LoRA on a 16-bit base, with margin */
#define FIT_BPP_QLORA  1.0       /* QLoRA on a 4-bit base, with margin */

/* The seeds' "prudent" display of a size in billions: below 10 floored to
 * a whole number, from 10 to below 100 floored to a multiple of 5, from 100
 * floored to a multiple of 10 (14.4 → 10, 45.12 → 45, 115.2 → 110). A value
 * within 1e-9 (relative) below a boundary counts as the boundary (float
 * noise). Returns -1 for NAN, negative or infinite input. */
long fit_prudent(double billions);

/* The seed-table cell: largest model, in billions of parameters, that
 * `gpus` GPUs of memory_gb each hold at bytes_per_param, shown prudently.
 * memory_gb and bytes_per_param are taken to 0.1 (tenths) and the rest is
 * integer arithmetic. Returns -1 when memory_gb is NAN (not published) or
 * any input is not positive. */
long fit_capacity_prudent(double memory_gb, double bytes_per_param, int gpus);

/* The same capacity before rounding (billions), NAN when unknown. */
double fit_capacity_b(double memory_gb, double bytes_per_param, int gpus);

/* ---- inputs --------------------------------------------------------------- */

enum fit_method {
	FIT_FULL,        /* "full": full training / full fine-tuning */
	FIT_LORA,        /* "lora": LoRA adapters on a frozen 16-bit base */
	FIT_QLORA,       /* "qlora": LoRA adapters on a frozen 4-bit (NF4) base */
	FIT_INFER_FP16,  /* "infer-fp16": inference, 16-bit weights (FP16/BF16) */
	FIT_INFER_FP8,   /* "infer-fp8" */
	FIT_INFER_INT8,  /* "infer-int8" */
	FIT_INFER_INT4,  /* "infer-int4": 4-bit weights + quantisation constants */
	FIT_DIFFUSION,   /* "diffusion": image/video generation at 16 bits */
	FIT_METHOD_COUNT
};

enum fit_sharding {
	FIT_SHARD_NONE,  /* "none" (also "0"): every GPU holds all states */
	FIT_SHARD_ZERO1, /* "zero1" ("1"): optimizer states sharded */
	FIT_SHARD_ZERO2, /* "zero2" ("2"): + gradients */
	FIT_SHARD_ZERO3, /* "zero3" ("3", "fsdp"): + weights */
	FIT_SHARD_COUNT
};

/* Whose accounting of the model states under ZeRO: DeepSpeed's own
 * estimators (estimate_zero2/3_model_states_mem_needs: 16-bit weights and
 * gradients in full plus fp32 master, moments AND fp32 gradient partitions;
 * ZeRO-3 adds the gathered largest layer) or the ZeRO paper's (Rajbhandari
 * et al. 2020, §5: (2 + 2 + K)·Ψ divided per stage). DeepSpeed's is the
 * default: it is what the framework allocates. */
enum fit_zero_accounting {
	FIT_ZACCT_DEEPSPEED, /* "deepspeed" */
	FIT_ZACCT_PAPER,     /* "paper" */
	FIT_ZACCT_COUNT
};

/* ZeRO-Offload: what leaves the GPU for CPU memory (ZeRO stages 1-3). */
enum fit_offload {
	FIT_OFFLOAD_NONE,      /* "none" */
	FIT_OFFLOAD_OPTIMIZER, /* "optimizer" ("cpu"): optimizer states and fp32 gradients */
	FIT_OFFLOAD_ALL,       /* "all" ("params"): + the 16-bit weights (ZeRO-3) */
	FIT_OFFLOAD_COUNT
};

enum fit_optimizer {
	FIT_OPT_ADAM,    /* "adam" ("adamw"): fp32 master + m + v = 12 B/param */
	FIT_OPT_ADAM8,   /* "adam8" ("adam-8bit"): fp32 master + 8-bit m, v = 6 B */
	FIT_OPT_SGD,     /* "sgd": fp32 master + momentum = 8 B/param */
	FIT_OPT_COUNT
};

/* The link that joins the GPUs of one machine for tensor parallelism
 * (the market's "interconnect" of a node). Zero is PCIe: what every
 * machine has. */
enum fit_interconnect {
	FIT_LINK_PCIE,            /* "pcie": the host's PCIe fabric only */
	FIT_LINK_NVLINK,          /* "nvlink": NVLink / NVSwitch (also a 2-GPU bridge) */
	FIT_LINK_INFINITY_FABRIC, /* "infinity-fabric": AMD's xGMI on an OAM baseboard */
	FIT_LINK_COUNT
};

/* A GPU as the fit model sees it. NAN = not published. */
struct fit_gpu {
	double memory_gb;      /* total memory per GPU */
	double bandwidth_gbs;  /* memory bandwidth */
	double bf16_tflops;    /* dense tensor BF16 (no sparsity) */
	double fp8_tflops;     /* dense tensor FP8 (not used by the model yet) */
	double link_gbs;       /* GPU-to-GPU bandwidth, both directions, for the
	                          tensor-parallel all-reduce; NAN = none known */
	int64_t price_cents;   /* best ask per GPU-hour in cents; -1 = no price */
	enum fit_interconnect scale_up; /* the link among one machine's GPUs */
	int scale_up_gpus;     /* GPUs one scale-up link joins: 8 on an HGX or
	                          OAM baseboard, 2 over an NVLink bridge (PCIe
	                          boards), 1 = none; 0 = not known (link_gbs is
	                          then taken for any tensor-parallel degree) */
	double pcie_gbs;       /* the GPU's PCIe slot, both directions: the
	                          all-reduce link past the scale-up group; NAN =
	                          not known */
};

/* A model. A size typed by the user has only params_b: call
 * fit_model_from_size() to fill a guessed architecture. Unknown integer
 * fields are 0 (or negative), unknown doubles NAN or 0. */
struct fit_model {
	double params_b;         /* total parameters (all experts), billions */
	double active_params_b;  /* per token (MoE); 0/NAN = params_b (dense) */
	int layers;
	int hidden;
	int heads;               /* query heads */
	int kv_heads;            /* key/value heads (GQA); 0 = heads */
	int head_dim;            /* 0 = hidden / heads */
	int vocab;               /* 0 = no logits term */
	int ffn;                 /* FFN intermediate size; 0 = derived */
	int kv_latent_dim;       /* MLA (DeepSeek-V3): cached elements per token
	                            per layer; 0 = ordinary attention */
	bool diffusion;          /* a diffusion model (see FIT_DIFFUSION) */
	double extra_params_b;   /* diffusion: text encoders + VAE, billions */
	int latent_px;           /* diffusion transformer: output pixels per token
	                            a side (VAE factor × patch); 0 = 16 (8 × 2) */
	int latent_frames;       /* video: frames per latent frame; 0 = 4 */
	bool guessed;            /* architecture guessed from the size */
	const char *guess_from;  /* guessed: the published model whose config was
	                            taken (static string), else NULL */
	bool tied_embeddings;    /* input embedding and output layer shared */
	int experts;             /* MoE: routed experts per MoE layer; 0 = dense */
	int experts_per_token;   /* MoE: routed experts each token uses */
};

/* Fine-tuning libraries whose defaults gpux knows (fit_stack_apply). The
 * stack is a label of the job: its effect is in the fields it sets. */
enum fit_stack {
	FIT_STACK_NONE,    /* "none": gpux's own defaults */
	FIT_STACK_UNSLOTH, /* "unsloth": QLoRA, offloaded checkpoints, 8-bit AdamW,
	                      chunked loss, flash attention, 16-bit embeddings */
	FIT_STACK_PEFT,    /* "peft": Hugging Face PEFT + bitsandbytes QLoRA:
	                      prepare_model_for_kbit_training's fp32 casts,
	                      checkpointing on the GPU, paged AdamW */
	FIT_STACK_COUNT
};

/* A job: the model, the method and every assumption. */
struct fit_job {
	struct fit_model model;
	enum fit_method method;

	/* shape of the work */
	int seq_len;             /* tokens per sequence: training sequence length,
	                            inference context (prompt + output) */
	int batch;               /* training micro-batch per GPU; inference:
	                            sequences decoded together; diffusion: images */
	bool checkpointing;      /* full activation recomputation */
	bool flash_attention;    /* attention scores not stored (drops 5as/h) */
	int gpus;                /* GPUs the job runs on */
	enum fit_sharding sharding;   /* training methods only */
	enum fit_optimizer optimizer; /* training methods only */
	enum fit_zero_accounting accounting; /* ZeRO stages 1-3 */
	enum fit_offload offload;     /* ZeRO stages 1-3 */
	bool pure_bf16;          /* no fp32 master weights: 16-bit weights, gradients
	                            and optimizer moments (Adam 4 B, else 2 B) */
	bool chunked_loss;       /* logits and loss computed FIT_LOSS_CHUNK tokens
	                            at a time instead of s·b fp32 logits at once */

	/* precisions and method details */
	int lora_rank;           /* adapters on every linear layer of each block */
	double quant4_bits;      /* bits per weight of a 4-bit base incl. constants */
	double kv_bytes;         /* bytes per KV-cache element (2 = 16-bit, 1 = FP8) */
	int int4_group;          /* int4 inference: weights per group sharing a
	                            16-bit scale and a 16-bit zero point */

	/* margin: overhead_gb + margin_fraction × (everything else), per GPU */
	double overhead_gb;      /* CUDA context, framework, communication buffers */
	double margin_fraction;  /* allocator fragmentation, temporaries */

	/* training run */
	double tokens_b;         /* tokens trained on, billions */
	double mfu;              /* model FLOPs utilisation, 0..1 */

	/* inference: achieved / peak memory bandwidth per weight format, 0..1 */
	double bw_efficiency;    /* 16-bit weights */
	double bw_efficiency_8bit; /* int8 and FP8 weights */
	double bw_efficiency_4bit; /* int4 weights */
	double allreduce_hop_us; /* tensor parallel: latency of one all-reduce on
	                            t GPUs = hop × (2 + log2 t) microseconds */

	/* diffusion */
	int width, height;       /* output resolution in pixels */
	int frames;              /* 1 for an image */
	double act_bytes_per_pixel; /* peak activation bytes per output pixel and
	                            image (denoiser with classifier-free guidance,
	                            VAE decode), see fit/model.c; models without
	                            a transformer width (U-Nets) */
	double act_bytes_per_token; /* transformer denoisers (DiT): peak activation
	                            bytes per latent token per unit of width */
	bool encoders_offloaded; /* diffusion: text encoders leave the GPU once
	                            the prompt is encoded (--t5_cpu, CPU offload) */

	/* fine-tuning stacks (LoRA, QLoRA; act_offload also full training) */
	enum fit_stack stack;    /* the library whose defaults were applied */
	bool act_offload;        /* checkpointed layer inputs kept in CPU memory
	                            (Unsloth's offloaded gradient checkpointing):
	                            the GPU holds one layer's */
	int embed_bits;          /* LoRA/QLoRA: bits of the embedding, output layer
	                            and norms of the frozen base: 16, or 32 where
	                            the library casts them to fp32 (PEFT) */
	bool paged_optimizer;    /* optimizer states in paged (unified) memory
	                            that moves to the CPU under pressure
	                            (bitsandbytes paged AdamW): not counted in
	                            the GPU's total, shown apart */

	/* decode: a fixed cost per layer and decoding step, per weight format
	 * (kernel launches, dequantisation set-up), microseconds */
	double layer_us;         /* 16-bit weights */
	double layer_us_8bit;    /* int8 and FP8 weights */
	double layer_us_4bit;    /* int4 weights */
	int prompt_tokens;       /* inference: prompt tokens prefilled per
	                            sequence; 0 = the whole context (seq_len) */
};

#define FIT_LOSS_CHUNK 1024 /* tokens per chunk of a chunked loss */

/* Fill *job with the defaults (documented in fit/model.c, shown by the UI):
 * method full, seq 2048, batch 1, checkpointing on, Korthikanti's formula
 * (flash_attention off), 1 GPU, ZeRO-3 with DeepSpeed's accounting and no
 * offload, Adam, LoRA rank 16, 4.127-bit 4-bit base, 16-bit KV cache, int4
 * groups of 128, 1 GB + 10 % margin, 1 B tokens, MFU 0.40, bandwidth
 * efficiency 0.73 (16-bit), 0.66 (8-bit), 0.55 (int4) and a per-layer
 * decode cost of 31, 42 and 40 µs (fitted to gpt-fast, docs/FIT.md),
 * all-reduce hop 3.6 µs, one 1024×1024 image at 2048 B/pixel or 100 B per
 * DiT token and unit of width; no stack, checkpoints on the GPU, 16-bit
 * embeddings, no paged optimizer, the whole context prefilled. The model
 * is zeroed (set it with fit_model_from_size or from a preset). */
void fit_job_defaults(struct fit_job *job);

/* Set the fields a fine-tuning library's defaults imply (docs/FIT.md gives
 * each with its source) and job->stack; the method becomes QLoRA for
 * "unsloth" and "peft" (their documented default) unless it is already
 * LoRA. FIT_STACK_NONE only clears the label. */
void fit_stack_apply(struct fit_job *job, enum fit_stack stack);

/* Guess a dense decoder's architecture from its size (billions): the
 * published config of fit_archs the size borrows (see struct fit_arch_row),
 * guessed = true and guess_from its name. Returns 0, or -1 and *cause for a
 * size outside FIT_SIZE_MIN_B..FIT_SIZE_MAX_B. */
int fit_model_from_size(double params_b, struct fit_model *out, char **cause);

/* Architecture figures typed over a preset or a size's guess (gpux fit's
 * --layers ... --active, the fit panel's architecture fields); 0 = not
 * given. */
struct fit_arch_given {
	int layers, hidden, heads, kv_heads, head_dim, vocab, ffn;
	double active_b;         /* MoE: parameters per token, billions */
};

/* Apply what is given to *m: each figure given replaces the model's; when
 * the hidden size or the heads are given, the head dimension not given
 * becomes hidden / heads, KV heads not given are capped at the heads, and a
 * guessed model's FFN not given is derived from the size again. A guessed
 * model stops being guessed once layers, hidden, heads and KV heads are all
 * given. */
void fit_model_apply_given(struct fit_model *m, const struct fit_arch_given *g);

/* Check every field of a job; 0, or -1 and *cause naming the bad field. */
int fit_job_check(const struct fit_job *job, char **cause);

/* ---- outputs ----------------------------------------------------------- */

/* The published dense architecture a size-only model borrows: the entry
 * of FIT_ARCHS nearest in size (log scale); among entries within 10 % of
 * the size, the one with the largest KV cache per token (a guess must not
 * say "fits" where the real model would not). Its layers are scaled to the
 * size when the nearest entry is more than 10 % away. */
struct fit_arch_row {
	const char *name;     /* "Llama 2 7B" */
	double params_b;
	int layers, hidden, heads, kv_heads, head_dim, ffn, vocab;
	bool tied;            /* tied input/output embeddings */
	const char *source;   /* config.json / paper */
};
extern const struct fit_arch_row fit_archs[];
extern const int fit_n_archs;

/* The count of tensor parallelism on `gpus` GPUs for a model of `heads`
 * attention heads: the largest of 1, 2, 4, 8 at most gpus that divides both
 * gpus and heads (heads <= 0: any); the rest of the GPUs is pipeline
 * parallelism. */
int fit_tp_degree(int heads, int gpus);

/* The realistic GPU counts in order: 1, 2, 4, 8, then multiples of 8 (whole
 * 8-GPU nodes): index 0 → 1, 3 → 8, 4 → 16, 5 → 24 ... */
int fit_gpu_group(int index);

/* Memory per GPU, GB. total = the sum of the others. */
struct fit_breakdown {
	double weights;
	double gradients;
	double optimizer;
	double activations;
	double kv_cache;
	double margin;
	double total;
	double paged;       /* optimizer states in paged memory (not in total) */
};

/* Memory each GPU needs when the job runs on `gpus` GPUs (independent of
 * which GPU). Training methods divide states per the sharding stage;
 * inference splits weights, KV cache and activations across the GPUs
 * (tensor parallelism); diffusion is replicated on every GPU. */
void fit_memory(const struct fit_job *job, int gpus, struct fit_breakdown *out);

/* Model states of a training method before sharding, GB: full training
 * with Adam = (2 + 2 + 12) bytes × params; LoRA/QLoRA = the frozen base at
 * 2 bytes (QLoRA: quant4_bits/8 for the blocks, 16 bits for the embedding
 * and output layer) per param + adapters at 2 + 2 + optimizer. */
void fit_model_states(const struct fit_job *job, double *weights_gb, double *grads_gb,
                      double *opt_gb);

/* Optimizer bytes per trained parameter, fp32 master copy included:
 * Adam 12, 8-bit Adam 6, SGD with momentum 8. */
double fit_optimizer_bytes(enum fit_optimizer o);

/* Adapter parameters (billions) of a LoRA/QLoRA job; 0 for other methods. */
double fit_lora_params_b(const struct fit_job *job);

/* KV-cache bytes per token per sequence (all layers) at job->kv_bytes. */
double fit_kv_bytes_per_token(const struct fit_job *job);

/* Activation bytes of one transformer layer (Korthikanti et al. 2022,
 * tensor parallel 1): s·b·h·(34 + 5·a·s/h), or s·b·h·34 with flash
 * attention; 2·s·b·h when checkpointed (the layer's input only). */
double fit_layer_activation_bytes(int seq, int batch, int hidden, int heads,
                                  bool checkpointed, bool flash_attention);

#define FIT_MAX_GPUS 1048576

/* Smallest realistic GPU count (fit_gpu_group: 1, 2, 4, 8, 16, 24 ...) that
 * fits the job on GPUs of memory_gb; 0 when no count does (unsharded states
 * that exceed one GPU, or more than FIT_MAX_GPUS); -1 when memory_gb is NAN. */
int fit_gpus_needed(const struct fit_job *job, double memory_gb);

/* The machines a job needs (the market sells nodes of 1, 2, 4 or 8 GPUs):
 * "1 GPU", "1 node of 8 (NVLink)", "3 nodes of 8 (NVLink)". */
struct fit_node_shape {
	int gpus;                 /* node_gpus × nodes */
	int node_gpus;            /* GPUs per machine: 1, 2, 4 or 8 */
	int nodes;                /* machines */
	int tp;                   /* tensor-parallel degree (inside one machine) */
	int pp;                   /* inference: pipeline stages, gpus / tp */
	int dp;                   /* training: data-parallel (ZeRO) ranks; else 1 */
	int ep;                   /* MoE: expert-parallel degree inside a machine
	                             (1 for a dense model) */
	int experts_per_gpu;      /* MoE: routed experts each GPU of an EP group
	                             holds; 0 for a dense model */
	bool link_needed;         /* node_gpus > 1: the GPUs must share a machine */
	enum fit_interconnect interconnect; /* the link they share: the GPU's
	                             scale-up link when its group holds the
	                             node, else PCIe (meaningless when no link
	                             is needed) */
};

/* The node shape of `job` on `gpus` GPUs of `gpu`: node_gpus the largest of
 * 8, 4, 2, 1 dividing gpus, nodes the rest; tp as fit_tp_degree for
 * inference (pipeline across the rest), 1 for training (ZeRO data
 * parallelism over every GPU) and diffusion; the interconnect as in the
 * struct. The same function serves gpux, the fit panel and gpuxd's job
 * orders. */
void fit_node_shape(const struct fit_job *job, const struct fit_gpu *gpu, int gpus,
                    struct fit_node_shape *out);

/* The GPU-to-GPU bandwidth (both directions, GB/s) an all-reduce over `tp`
 * GPUs of `gpu` runs at: link_gbs inside the scale-up group, pcie_gbs past
 * it (NAN when unknown). */
double fit_tp_link_gbs(const struct fit_gpu *gpu, int tp);

/* Expert parallelism of an MoE model inside a machine of node_gpus GPUs:
 * the largest of 8, 4, 2 at most node_gpus dividing the experts; 1 for a
 * dense model. */
int fit_expert_parallel(const struct fit_model *m, int node_gpus);

/* Everything the panel and `gpux fit` show for one GPU. */
struct fit_result {
	struct fit_breakdown mem;  /* per GPU at mem_gpus GPUs: what the job needs
	                              on the count it runs on */
	int mem_gpus;              /* gpus_run, or job->gpus when none runs */
	struct fit_breakdown mem_one; /* the whole job on one GPU */
	double available_gb;       /* the GPU's full memory (what mem.total is
	                              compared against); NAN = not published */
	int fits;                  /* 1 fits at job->gpus, 0 no, -1 unknown */
	int gpus_needed;           /* as fit_gpus_needed() */
	int gpus_run;              /* the count time and cost use: job->gpus if
	                              it fits, else gpus_needed; 0 if none */
	int64_t hourly_cents;      /* gpus_run × price; -1 unknown */
	double train_hours;        /* training methods; NAN otherwise/unknown */
	int64_t run_cents;         /* whole hours × gpus_run × price; -1 unknown */
	double decode_tokens_s;    /* inference, per sequence; NAN otherwise */
	double decode_tokens_s_total; /* × batch */
	double prefill_s;          /* inference: seconds to prefill the prompts
	                              of the batch; NAN otherwise/unknown */
	struct fit_node_shape shape; /* at mem_gpus */
};

void fit_evaluate(const struct fit_job *job, const struct fit_gpu *gpu, struct fit_result *out);

/* ---- time and money -------------------------------------------------------- */

/* Training hours on `gpus` GPUs: (k · active params + 12 · layers · heads ·
 * head_dim · seq) · tokens ÷ (gpus × dense BF16 FLOPS × MFU), k = 6 for full
 * training, 4 for LoRA/QLoRA (no weight gradients for the frozen base); the
 * second term is attention (Chowdhery et al. 2022, PaLM, App. B). NAN for
 * other methods or unknown FLOPS. */
double fit_train_hours(const struct fit_job *job, double bf16_tflops, int gpus);

/* Decode tokens/s per sequence on `gpus` GPUs (bandwidth-bound): one
 * decoding step reads the weights once (active params at the format's bytes,
 * fit_infer_weight_bytes) and the KV cache of every sequence (batch ×
 * seq_len tokens, the full context: a conservative bound) at the format's
 * bandwidth efficiency, split over the tensor-parallel degree t
 * (fit_tp_degree; pipeline stages run one after another), plus 2 all-reduces
 * per layer of batch × hidden 16-bit values over the link (link_gbs, both
 * directions; NAN = latency only): hop × (2 + log2 t) + 2(t-1)/t × bytes ÷
 * (link / 2). Each sequence gains one token per step (× batch for the total).
 * NAN for non-inference methods or unknown bandwidth. */
double fit_decode_tokens_s(const struct fit_job *job, double bandwidth_gbs, double link_gbs,
                           int gpus);

/* Seconds to prefill the prompts of the batch on `gpus` GPUs (compute
 * bound): (2 · active params + 2 · layers · heads · head_dim · P) · P ·
 * batch FLOPs (P = prompt_tokens or seq_len; the second term is causal
 * attention) ÷ (tensor-parallel degree × dense BF16 FLOPS × MFU). NAN for
 * non-inference methods or unknown FLOPS. */
double fit_prefill_seconds(const struct fit_job *job, double bf16_tflops, int gpus);

/* Decode tokens/s per sequence as fit_evaluate computes it on `gpu`:
 * fit_decode_tokens_s with the link fit_tp_link_gbs gives. */
double fit_decode_tokens_s_on(const struct fit_job *job, const struct fit_gpu *gpu, int gpus);

/* Bytes of weights one decoding step reads for `batch` sequences: the
 * active parameters less the input embedding (one row is read; a tied
 * matrix is read as the output layer) at the format's bytes; for an MoE
 * model the routed experts the batch touches, E · (1 − (1 − k/E)^batch)
 * per layer instead of k. */
double fit_decode_weight_bytes(const struct fit_job *job, int batch);

/* The bandwidth efficiency of the job's weight format. */
double fit_job_bw_efficiency(const struct fit_job *job);
/* The per-layer decode cost (µs) of the job's weight format, and its setter. */
double fit_job_layer_us(const struct fit_job *job);
void fit_job_set_layer_us(struct fit_job *job, double v);
/* Set the bandwidth efficiency of the job's weight format. */
void fit_job_set_bw_efficiency(struct fit_job *job, double v);

/* Cost of renting `gpus` GPUs for one hour; -1 if the price is unknown
 * (negative) or the product overflows. */
int64_t fit_hourly_cents(int gpus, int64_t price_cents);

/* Cost of a run of `hours` on `gpus` GPUs, billed per started hour (as the
 * exchange bills rentals): ceil(hours) × gpus × price. -1 when unknown
 * (NAN hours, negative price) or on overflow. */
int64_t fit_run_cents(double hours, int gpus, int64_t price_cents);

/* ---- ids for the CLI and the panel ---------------------------------------- */

/* Stable ids ("full", "lora", "qlora", "infer-fp16", "infer-fp8",
 * "infer-int8", "infer-int4", "diffusion"); NULL when out of range. */
const char *fit_method_id(enum fit_method m);
/* English label (an msgid: translate with _()), e.g. "Full training". */
const char *fit_method_label(enum fit_method m);
/* Parse an id (case-insensitive); 0, or -1 and *cause. */
int fit_method_parse(const char *s, enum fit_method *out, char **cause);
bool fit_method_is_training(enum fit_method m);  /* full, lora, qlora */
bool fit_method_is_inference(enum fit_method m); /* infer-* */
/* Bytes per weight of an inference method: 2, 1, 1, and int4 with a 16-bit
 * scale and zero per group: (4 + 32 / int4_group) / 8; QLoRA's NF4 base
 * quant4_bits / 8. */
double fit_infer_weight_bytes(const struct fit_job *job);

/* "none" "zero1" "zero2" "zero3"; parse also takes 0-3, "zero-3", "fsdp". */
const char *fit_sharding_id(enum fit_sharding s);
const char *fit_sharding_label(enum fit_sharding s);
int fit_sharding_parse(const char *s, enum fit_sharding *out, char **cause);

/* "adam" "adam8" "sgd"; parse also takes "adamw", "adam-8bit", "8bit". */
const char *fit_optimizer_id(enum fit_optimizer o);
const char *fit_optimizer_label(enum fit_optimizer o);
int fit_optimizer_parse(const char *s, enum fit_optimizer *out, char **cause);

/* "deepspeed" "paper" */
const char *fit_accounting_id(enum fit_zero_accounting a);
int fit_accounting_parse(const char *s, enum fit_zero_accounting *out, char **cause);
/* "none" "optimizer" "all"; parse also takes "cpu", "params" */
const char *fit_offload_id(enum fit_offload o);
const char *fit_offload_label(enum fit_offload o);
int fit_offload_parse(const char *s, enum fit_offload *out, char **cause);

/* "pcie" "nvlink" "infinity-fabric"; parse also takes "nvl", "if", "xgmi". */
const char *fit_interconnect_id(enum fit_interconnect i);
int fit_interconnect_parse(const char *s, enum fit_interconnect *out, char **cause);

/* "none" "unsloth" "peft" */
const char *fit_stack_id(enum fit_stack s);
const char *fit_stack_label(enum fit_stack s);
int fit_stack_parse(const char *s, enum fit_stack *out, char **cause);

/* ---- the job's wire form (fit/wire.c) --------------------------------------
 *
 * A job travels to gpuxd (job orders) as a flat list of named values by the
 * API's rules: integers, strings, booleans; fractions as basis points,
 * sizes in their smallest exact unit (parameters and tokens in millions,
 * memory in MB, times in nanoseconds), enums as their CLI names, and the
 * architecture itself. fit_job_fields[] is the table; api/ and exchange/
 * walk it to write and read JSON, so neither holds a second list. The
 * field list with units is docs/API.md, "Job body". */

enum fit_field_kind {
	FIT_FIELD_INT,    /* JSON integer, within [min, max] */
	FIT_FIELD_ENUM,   /* JSON string, one of values[] */
	FIT_FIELD_BOOL,   /* JSON true / false */
	FIT_FIELD_STRING, /* JSON string of min..max bytes of A-Za-z0-9._:/+- */
};

struct fit_field_spec {
	const char *name;        /* "seq_len" */
	enum fit_field_kind kind;
	int64_t min, max;        /* INT: the range; STRING: the length */
	bool required;           /* MISSING without it (the model's fields) */
	const char *const *values; /* ENUM: the accepted names, NULL-terminated */
	const char *unit;        /* for the docs: "basis points", "MB", ... */
};

extern const struct fit_field_spec fit_job_fields[];
extern const int fit_job_field_count;

/* One named value: what fit_job_to_fields writes and fit_job_from_fields
 * reads. kind is the JSON type it has on the wire (an ENUM value may be
 * given as FIT_FIELD_STRING). name and s are borrowed: to_fields points
 * them at static names and the caller's label; from_fields only reads. */
struct fit_field {
	const char *name;
	enum fit_field_kind kind;
	int64_t i;               /* INT; BOOL: 0 or 1 */
	const char *s;           /* ENUM, STRING */
};

#define FIT_JOB_FIELDS_MAX 64

/* The job's fields, every one written (so the answer does not depend on the
 * other side's defaults), in table order; label (a preset id, or NULL) as
 * "model". The model's architecture is written resolved (a size's guess
 * included). Values are rounded to their unit: a job read back answers as
 * the written one within that rounding, and exactly when its figures are
 * whole units (presets, typed options). Returns the count written. */
int fit_job_to_fields(const struct fit_job *job, const char *label, struct fit_field *out,
                      int max);

/* What went wrong reading fields: the API's error codes. */
enum fit_field_error {
	FIT_FE_NONE,
	FIT_FE_UNKNOWN_FIELD,
	FIT_FE_DUPLICATE_FIELD,
	FIT_FE_MISSING_FIELD,
	FIT_FE_WRONG_TYPE,
	FIT_FE_OUT_OF_RANGE,     /* min, max set */
	FIT_FE_BAD_VALUE,        /* an enum name or string's characters */
	FIT_FE_STRING_TOO_LONG,  /* max set */
	FIT_FE_BAD_COMBINATION,  /* fit_job_check's refusal, field named */
};

struct fit_field_problem {
	enum fit_field_error code;
	const char *field;       /* the field's static name, NULL for none */
	int64_t min, max;
};

/* Build *job from fit_job_defaults and the fields, then fit_job_check it.
 * The label ("model") is copied to label[label_size] when given (else "").
 * Returns 0, or -1 with *problem and *cause (English, naming the field:
 * "job field seq_len: must be an integer from 1 to 16777216"). */
int fit_job_from_fields(const struct fit_field *fields, int n, struct fit_job *job, char *label,
                        size_t label_size, struct fit_field_problem *problem, char **cause);

/* ---- parsing a size as people type it --------------------------------------- */

#define FIT_SIZE_MAX_B 100000.0 /* 100T parameters: anything above is a typo */
#define FIT_SIZE_MIN_B 0.001    /* 1M parameters */

/* Parse a model size in billions: "70", "70B", "70b", "7.5", "1.3T",
 * "350M", " 70 B ". The decimal separator is decimal_sep ('.' or ','); with
 * ',' a '.' is accepted too. No exponents, signs, thousands separators,
 * nan/inf. Returns 0 and *billions, or -1 and *cause (empty, not a number,
 * negative, zero, too small, too large). */
int fit_parse_size(const char *s, char decimal_sep, double *billions, char **cause);

#endif
