/*
 * The published dense architectures a model typed as a size borrows
 * (fit_model_from_size): each row is a released model's config.json (or
 * its paper's table), so a guessed 7B is Llama 2 7B's 32 × 4096 with 32 KV
 * heads, a 65B LLaMA's 80 × 8192, not a formula's invention. Sorted by size.
 *
 * The pick: among rows within 10 % of the size, the one with the largest
 * KV cache per token (multi-head attention before grouped-query: a guess
 * must not say "fits" where the real model would not), ties to the nearer
 * size; with no row that close, the nearest row (log scale), its layers
 * scaled to the size.
 */
#include "fit/fit.h"
#include "fit/fit_int.h"
#include "util/util.h"

#include <math.h>
#include <string.h>

#define HF "https://huggingface.co/"

const struct fit_arch_row fit_archs[] = {
	{"OPT 125M", 0.125, 12, 768, 12, 12, 64, 3072, 50272, true,
	 HF "facebook/opt-125m/blob/main/config.json; Zhang et al. 2022, OPT, arXiv:2205.01068, Table 1"},
	{"Qwen2.5 0.5B", 0.49, 24, 896, 14, 2, 64, 4864, 151936, true,
	 HF "Qwen/Qwen2.5-0.5B/blob/main/config.json; Qwen2.5 report, arXiv:2412.15115, Table 1"},
	{"OPT 1.3B", 1.3, 24, 2048, 32, 32, 64, 8192, 50272, true,
	 HF "facebook/opt-1.3b/blob/main/config.json; OPT, arXiv:2205.01068, Table 1"},
	{"Qwen2.5 1.5B", 1.54, 28, 1536, 12, 2, 128, 8960, 151936, true,
	 HF "Qwen/Qwen2.5-1.5B/blob/main/config.json; arXiv:2412.15115, Table 1"},
	{"Gemma 2 2B", 2.61, 26, 2304, 8, 4, 256, 9216, 256000, true,
	 HF "google/gemma-2-2b/blob/main/config.json; Gemma 2 report, arXiv:2408.00118, Table 1"},
	{"OPT 2.7B", 2.7, 32, 2560, 32, 32, 80, 10240, 50272, true,
	 HF "facebook/opt-2.7b/blob/main/config.json; OPT, arXiv:2205.01068, Table 1"},
	{"Qwen2.5 3B", 3.09, 36, 2048, 16, 2, 128, 11008, 151936, true,
	 HF "Qwen/Qwen2.5-3B/blob/main/config.json; arXiv:2412.15115, Table 1"},
	{"Phi-3 mini", 3.82, 32, 3072, 32, 32, 96, 8192, 32064, false,
	 HF "microsoft/Phi-3-mini-4k-instruct/blob/main/config.json; Phi-3 report, arXiv:2404.14219"},
	{"Llama 2 7B", 6.74, 32, 4096, 32, 32, 128, 11008, 32000, false,
	 HF "meta-llama/Llama-2-7b-hf/blob/main/config.json; Touvron et al. 2023, Llama 2, arXiv:2307.09288, Table 1"},
	{"Mistral 7B", 7.24, 32, 4096, 32, 8, 128, 14336, 32000, false,
	 HF "mistralai/Mistral-7B-v0.1/blob/main/config.json; Jiang et al. 2023, arXiv:2310.06825, Table 1"},
	{"Qwen2.5 7B", 7.62, 28, 3584, 28, 4, 128, 18944, 152064, false,
	 HF "Qwen/Qwen2.5-7B/blob/main/config.json; arXiv:2412.15115, Table 1"},
	{"Llama 3 8B", 8.03, 32, 4096, 32, 8, 128, 14336, 128256, false,
	 HF "meta-llama/Meta-Llama-3-8B/blob/main/config.json"},
	{"Gemma 2 9B", 9.24, 42, 3584, 16, 8, 256, 14336, 256000, true,
	 HF "google/gemma-2-9b/blob/main/config.json; arXiv:2408.00118, Table 1"},
	{"Llama 2 13B", 13.0, 40, 5120, 40, 40, 128, 13824, 32000, false,
	 HF "meta-llama/Llama-2-13b-hf/blob/main/config.json; arXiv:2307.09288, Table 1"},
	{"Phi-3 medium", 14.0, 40, 5120, 40, 10, 128, 17920, 32064, false,
	 HF "microsoft/Phi-3-medium-4k-instruct/blob/main/config.json; arXiv:2404.14219"},
	{"Qwen2.5 14B", 14.7, 48, 5120, 40, 8, 128, 13824, 152064, false,
	 HF "Qwen/Qwen2.5-14B/blob/main/config.json; arXiv:2412.15115, Table 1"},
	{"Gemma 2 27B", 27.2, 46, 4608, 32, 16, 128, 36864, 256000, true,
	 HF "google/gemma-2-27b/blob/main/config.json; arXiv:2408.00118, Table 1"},
	{"OPT 30B", 30.0, 48, 7168, 56, 56, 128, 28672, 50272, true,
	 HF "facebook/opt-30b/blob/main/config.json; OPT, arXiv:2205.01068, Table 1"},
	{"LLaMA 33B", 32.5, 60, 6656, 52, 52, 128, 17920, 32000, false,
	 "Touvron et al. 2023, LLaMA, arXiv:2302.13971, Table 2"},
	{"Qwen2.5 32B", 32.5, 64, 5120, 40, 8, 128, 27648, 152064, false,
	 HF "Qwen/Qwen2.5-32B/blob/main/config.json; arXiv:2412.15115, Table 1"},
	{"Falcon 40B", 41.8, 60, 8192, 128, 8, 64, 32768, 65024, false,
	 HF "tiiuae/falcon-40b/blob/main/config.json; Almazrouei et al. 2023, arXiv:2311.16867"},
	{"LLaMA 65B", 65.2, 80, 8192, 64, 64, 128, 22016, 32000, false,
	 "Touvron et al. 2023, LLaMA, arXiv:2302.13971, Table 2"},
	{"OPT 66B", 66.0, 64, 9216, 72, 72, 128, 36864, 50272, true,
	 HF "facebook/opt-66b/blob/main/config.json; OPT, arXiv:2205.01068, Table 1"},
	{"Llama 2 70B", 68.98, 80, 8192, 64, 8, 128, 28672, 32000, false,
	 HF "meta-llama/Llama-2-70b-hf/blob/main/config.json; arXiv:2307.09288, Table 1"},
	{"Llama 3.1 70B", 70.6, 80, 8192, 64, 8, 128, 28672, 128256, false,
	 HF "meta-llama/Llama-3.1-70B/blob/main/config.json"},
	{"Qwen2.5 72B", 72.7, 80, 8192, 64, 8, 128, 29568, 152064, false,
	 HF "Qwen/Qwen2.5-72B/blob/main/config.json; arXiv:2412.15115, Table 1"},
	{"OPT 175B", 175.0, 96, 12288, 96, 96, 128, 49152, 50272, true,
	 "OPT, arXiv:2205.01068, Table 1"},
	{"Falcon 180B", 179.5, 80, 14848, 232, 8, 64, 59392, 65024, false,
	 HF "tiiuae/falcon-180B/blob/main/config.json; arXiv:2311.16867"},
	{"Llama 3.1 405B", 405.9, 126, 16384, 128, 8, 128, 53248, 128256, false,
	 HF "meta-llama/Llama-3.1-405B/blob/main/config.json; arXiv:2407.21783, Table 3"},
};

const int fit_n_archs = (int)(sizeof fit_archs / sizeof fit_archs[0]);

static double kv_per_token(const struct fit_arch_row *r)
{
	return (double)r->layers * r->kv_heads * r->head_dim;
}

/* The row a size borrows (see the file comment). */
static const struct fit_arch_row *pick(double params_b)
{
	const struct fit_arch_row *best = NULL, *near = NULL;
	double best_kv = -1, best_d = 0, near_d = INFINITY;

	for (int i = 0; i < fit_n_archs; i++) {
		const struct fit_arch_row *r = &fit_archs[i];
		double d = fabs(log(params_b / r->params_b));
		if (d < near_d) {
			near_d = d;
			near = r;
		}
		if (fabs(params_b / r->params_b - 1) > 0.10)
			continue;
		double kv = kv_per_token(r);
		if (kv > best_kv || (kv == best_kv && d < best_d)) {
			best = r;
			best_kv = kv;
			best_d = d;
		}
	}
	return best != NULL ? best : near;
}

int fit_model_from_size(double params_b, struct fit_model *out, char **cause)
{
	if (!isfinite(params_b) || params_b < FIT_SIZE_MIN_B * (1 - 1e-12) ||
	    params_b > FIT_SIZE_MAX_B * (1 + 1e-12))
		return set_cause(cause, "%s", N_("model size out of range: from 1M to 100T parameters"));
	const struct fit_arch_row *r = pick(params_b);
	memset(out, 0, sizeof *out);
	out->params_b = params_b;
	out->active_params_b = params_b;
	out->layers = r->layers;
	if (fabs(params_b / r->params_b - 1) > 0.10) {
		long l = lround(r->layers * params_b / r->params_b);
		out->layers = (int)(l < 1 ? 1 : l > 100000 ? 100000 : l);
	}
	out->hidden = r->hidden;
	out->heads = r->heads;
	out->kv_heads = r->kv_heads;
	out->head_dim = r->head_dim;
	out->vocab = r->vocab;
	out->ffn = r->ffn;
	out->tied_embeddings = r->tied;
	out->guessed = true;
	out->guess_from = r->name;
	return 0;
}

void fit_model_apply_given(struct fit_model *m, const struct fit_arch_given *g)
{
	if (g->layers > 0)
		m->layers = g->layers;
	if (g->hidden > 0)
		m->hidden = g->hidden;
	if (g->heads > 0)
		m->heads = g->heads;
	if (g->kv_heads > 0)
		m->kv_heads = g->kv_heads;
	if (g->head_dim > 0)
		m->head_dim = g->head_dim;
	if (g->vocab > 0)
		m->vocab = g->vocab;
	if (g->ffn > 0)
		m->ffn = g->ffn;
	if (g->hidden > 0 || g->heads > 0) {
		if (g->head_dim <= 0)
			m->head_dim = m->hidden / (m->heads > 0 ? m->heads : 1);
		if (g->kv_heads <= 0 && m->heads > 0 && m->kv_heads > m->heads)
			m->kv_heads = m->heads;
		if (g->ffn <= 0 && m->guessed)
			m->ffn = 0; /* derived from the size again */
	}
	if (m->guessed && g->layers > 0 && g->hidden > 0 && g->heads > 0 && g->kv_heads > 0) {
		m->guessed = false;
		m->guess_from = NULL;
	}
	if (g->active_b > 0)
		m->active_params_b = g->active_b;
}
