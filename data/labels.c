/*
 * Every translatable text of the catalogue's JSON files (workload titles,
 * short titles and blurbs, column labels; the GPUs' notes), wrapped in N_() so that xgettext
 * (make po) extracts them: the JSON labels are English msgids and the view
 * translates them with _() at run time. Short workload titles are marked
 * C_("tab", …): the browse screen looks them up with that context. A unit
 * test (tests/unit/test_catalog.c) checks that this list and the texts of
 * data/workloads.json are the same set, so they cannot drift: when you add
 * or change a title, short title, blurb or column label there, change it
 * here too.
 *
 * N_ and C_ are defined locally (they only mark strings) so that libdata,
 * which gpuxd links as well, does not depend on the i18n library.
 */
#include "data/catalog.h"

#include <stddef.h>

#ifndef N_
#define N_(s) (s)
#endif
/* a text with a context (xgettext -kC_:1c,2); the context is the caller's */
#ifndef C_
#define C_(ctx, s) (s)
#endif

const char *const catalog_labels[] = {
	/* ---- workload titles (tabs) and one-line blurbs ---- */
	/* TRANSLATORS: workload tab title; short */
	N_("LLM training"),
	N_("Pre-training and full fine-tuning on data-centre GPUs with HBM memory."),
	/* TRANSLATORS: workload tab title; short */
	N_("Fine-tuning"),
	N_("LoRA and QLoRA adapters on a single GPU, from 24 GB."),
	/* TRANSLATORS: workload tab title; short */
	N_("LLM inference"),
	N_("Serve open models: what fits in memory and how fast the tokens come."),
	/* TRANSLATORS: workload tab title; short */
	N_("Image & video generation"),
	N_("Diffusion models for image and video, from 24 GB cards to 80 GB GPUs."),
	/* TRANSLATORS: workload tab title; short */
	N_("3D rendering & VFX"),
	N_("Ray-traced rendering, visual effects and real-time engines."),
	/* TRANSLATORS: workload tab title; short */
	N_("Scientific computing & HPC"),
	N_("Simulation and HPC codes on data-centre GPUs with HBM memory."),

	/* ---- short workload titles (tabs of a narrow terminal), with the
	 * context "tab" ---- */
	/* TRANSLATORS: tab titles used when the workloads' full titles do not
	 * fit on one line: the six together, with "1 " … "6 ", in at most 63
	 * columns (80-column terminal), so about 8 characters each. */
	C_("tab", "Training"),
	C_("tab", "Fine-tune"),
	C_("tab", "Inference"),
	C_("tab", "Image/video"),
	C_("tab", "Rendering"),
	C_("tab", "HPC"),

	/* ---- column headers: at most 22 columns wide ---- */
	/* TRANSLATORS: column header (max 22 columns) */
	N_("GPU"),
	/* TRANSLATORS: column header (max 22 columns); pt-PT seed: "Memória" */
	N_("Memory"),
	/* TRANSLATORS: column header (max 22 columns); pt-PT seed: "Tipo de memória" */
	N_("Memory type"),
	/* TRANSLATORS: column header, memory bandwidth (max 22 columns); pt-PT seed: "Largura de banda" */
	N_("Bandwidth"),
	/* TRANSLATORS: column header, dense BF16 tensor throughput (max 22 columns); pt-PT seed: "Tensor BF16" */
	N_("Tensor BF16"),
	/* TRANSLATORS: column header, largest model for full training on one GPU (max 22 columns); pt-PT seed: "Treino completo, 1 GPU" */
	N_("Full training, 1 GPU"),
	/* TRANSLATORS: column header (max 22 columns); pt-PT seed: "Treino completo, 8 GPU" */
	N_("Full training, 8 GPUs"),
	/* TRANSLATORS: column header, price per GPU-hour (max 22 columns); pt-PT seed: "Preço/h" */
	N_("Price/h"),
	/* TRANSLATORS: column header, largest base model for QLoRA (max 22 columns); pt-PT seed: "QLoRA, modelo base" */
	N_("QLoRA base model"),
	/* TRANSLATORS: column header, largest base model for LoRA on 16 bits (max 22 columns); pt-PT seed: "LoRA 16 bits, modelo base" */
	N_("LoRA 16-bit base model"),
	/* TRANSLATORS: column header, dense FP8 tensor throughput (max 22 columns) */
	N_("Tensor FP8"),
	/* TRANSLATORS: column header, largest model that fits one GPU at 16 bits (max 22 columns) */
	N_("Largest model, FP16"),
	/* TRANSLATORS: column header, largest model that fits one GPU at 4 bits (max 22 columns) */
	N_("Largest model, INT4"),
	/* TRANSLATORS: column header, estimated decode tokens per second (max 22 columns) */
	N_("Llama 8B FP16, tok/s"),
	/* TRANSLATORS: column header, estimated decode tokens per second (max 22 columns) */
	N_("Llama 70B INT4, tok/s"),
	/* TRANSLATORS: column header, largest diffusion model at 16 bits on one GPU (max 22 columns) */
	N_("Largest model, BF16"),
	/* TRANSLATORS: column header, number of hardware video encoders (max 22 columns) */
	N_("Video encoders"),
	/* TRANSLATORS: column header, ray-tracing cores (max 22 columns) */
	N_("RT cores"),
	/* TRANSLATORS: column header, single-precision throughput (max 22 columns) */
	N_("FP32"),
	/* TRANSLATORS: column header, board power in watts (max 22 columns) */
	N_("Power"),
	/* TRANSLATORS: column header, double-precision throughput (max 22 columns) */
	N_("FP64"),
	/* TRANSLATORS: column header, error-correcting memory (max 22 columns) */
	N_("ECC"),
	/* TRANSLATORS: column header, kind of GPU-to-GPU link, e.g. NVLink (max 22 columns) */
	N_("GPU-GPU link"),
	/* TRANSLATORS: column header, GPU-to-GPU bandwidth (max 22 columns) */
	N_("Link bandwidth"),
};

const size_t catalog_labels_count = sizeof catalog_labels / sizeof catalog_labels[0];

/* The GPUs' notes (gpus.json "notes"), shown under a GPU's figures on the
 * detail screen in the user's language; the same test holds them to the
 * file. */
const char *const catalog_gpu_notes[] = {
	/* TRANSLATORS: a note on a GPU's published figures (detail screen) */
	N_("Per GPU = the HGX B300 8-GPU platform figure / 8; tensor figures published with "
	   "sparsity, halved for dense. Bandwidth and BF16 left unpublished as on the marketplace "
	   "page (and FP16 with them: NVIDIA publishes FP16/BF16 as one figure). INT8 and per-GPU "
	   "power: conflicting or no per-GPU figure."),
	N_("Per GPU = the HGX B200 8-GPU platform figure / 8; tensor figures published with "
	   "sparsity, halved for dense. Bandwidth and BF16 left unpublished as on the marketplace "
	   "page (and FP16 with them: NVIDIA publishes FP16/BF16 as one figure)."),
	N_("Dense figures (AMD lists sparsity separately). Infinity Fabric: 7 links x 128 GB/s. "
	   "Video: decoders only, no encoder."),
	N_("Dense figures (AMD lists sparsity separately). Infinity Fabric: 7 links x 128 GB/s. "
	   "Video: 4 decoders, no encoder."),
	N_("Tensor figures published with sparsity, halved for dense. No NVENC (NVDEC and NVJPG "
	   "only)."),
	N_("Tensor figures published with sparsity, halved for dense. Power configurable 350-400 W "
	   "(maximum shown). No NVENC."),
	N_("No FP8 (Ampere). Tensor figures: the datasheet's dense figures. No NVENC (NVDEC and "
	   "NVJPG only). FP8: not supported (Ampere tensor cores: TF32, BF16, FP16, INT8, INT4; no "
	   "FP8 in the datasheet)."),
	N_("No FP8 (Ampere). NVLink bridge joins two cards (600 GB/s); otherwise PCIe Gen4 (64 "
	   "GB/s). No NVENC. FP8: not supported (Ampere tensor cores: TF32, BF16, FP16, INT8, INT4; "
	   "no FP8 in the datasheet)."),
	N_("Dense tensor figures with FP32 accumulate (GeForce runs FP16/FP8 with FP32 accumulate "
	   "at half the FP16-accumulate rate). No NVLink. FP64 not published."),
	N_("Dense tensor figures with FP32 accumulate. No NVLink. FP64 not published."),
	N_("No FP8 (Ampere). Dense tensor figures with FP32 accumulate. NVLink bridge joins two "
	   "cards (112.5 GB/s). FP64 not published. FP8: not supported (Ampere tensor cores: TF32, "
	   "BF16, FP16, INT8, INT4; no FP8 in the datasheet)."),
	N_("Tensor figures published with sparsity, halved for dense. No NVLink. FP64 not published."),
	N_("Dense tensor figures with FP32 accumulate (datasheet: 1,457 TFLOPS FP8 with sparsity). "
	   "No NVLink. FP64 not published."),
	N_("Workstation Edition (1,792 GB/s, as the marketplace page; the Server Edition lists "
	   "1,597 GB/s). Dense tensor figures with FP32 accumulate. No NVLink. FP64 not published."),
};

const size_t catalog_gpu_notes_count = sizeof catalog_gpu_notes / sizeof catalog_gpu_notes[0];
