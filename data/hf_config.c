/*
 * data/hf_config.c — a Hugging Face config.json read into a model preset's
 * shape (struct catalog_model), so `gpux fit --config PATH` and the fit
 * panel can size any model without the network.
 *
 * Read: num_hidden_layers, hidden_size, num_attention_heads (required: a
 * config without them is refused), num_key_value_heads (absent: the heads,
 * as transformers reads it), head_dim (absent: hidden / heads),
 * intermediate_size, vocab_size, tie_word_embeddings, max_position_embeddings;
 * mixture of experts: num_local_experts / num_experts / n_routed_experts,
 * num_experts_per_tok, moe_intermediate_size, shared experts
 * (n_shared_experts, shared_expert_intermediate_size), dense layers
 * (first_k_dense_replace, interleave_moe_layer_step, decoder_sparse_step,
 * intermediate_size_mlp); multi-head latent attention (kv_lora_rank,
 * q_lora_rank, qk_nope/rope_head_dim, v_head_dim); a multimodal config's
 * text_config; torch_dtype and quantization_config are noted.
 *
 * A config.json carries no parameter count: it is counted here from the
 * architecture (embedding, attention, gated MLP or experts, router; norms
 * and biases left out, under 0.1 %), the total for memory, the active (the
 * experts a token uses) for compute. A figure the file does not give and
 * transformers would not default either (vocabulary, FFN size, tied
 * embeddings, experts per token) is filled with a stated default and
 * flagged in m->guessed.
 */
#include "data/catalog.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

#define MAX_CONFIG_BYTES (4u << 20)

/* A whole number member among `names` (the first present); -1 when none is
 * given; -2 when one is given but is not a whole number in [lo, hi]. */
static long long int_member(const cJSON *o, const char *const *names, long long lo, long long hi,
                            const char **which)
{
	for (size_t i = 0; names[i] != NULL; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, names[i]);
		if (v == NULL || cJSON_IsNull(v))
			continue;
		*which = names[i];
		if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
		    v->valuedouble < (double)lo || v->valuedouble > (double)hi)
			return -2;
		return (long long)v->valuedouble;
	}
	return -1;
}

static int get_int(const cJSON *o, const char *const *names, long long lo, long long hi,
                   long long *out, char **cause)
{
	const char *which = names[0];
	long long v = int_member(o, names, lo, hi, &which);
	if (v == -2)
		return set_cause(cause, "config.json: \"%s\" must be a whole number from %lld to %lld",
		                 which, lo, hi);
	*out = v;
	return 0;
}

static const char *str_member(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Model types whose MLP has two matrices (up, down) rather than three. */
static bool ungated(const char *type)
{
	static const char *const two[] = {"gpt2", "opt", "falcon", "gpt_neox", "bloom",
	                                  "starcoder2", "phi", "gpt_bigcode", "gptj", NULL};
	for (size_t i = 0; type != NULL && two[i] != NULL; i++)
		if (strcmp(type, two[i]) == 0)
			return true;
	return false;
}

/* Model types whose transformers config ties the embeddings by default. */
static bool ties_by_default(const char *type, bool *known)
{
	static const char *const tied[] = {"gemma", "gemma2", "gemma3_text", "gemma3", "opt",
	                                   "gpt2", NULL};
	static const char *const untied[] = {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe",
	                                     "qwen3", "qwen3_moe", "phi3", "deepseek_v2",
	                                     "deepseek_v3", "gpt_oss", "llama4_text", "olmo2",
	                                     "falcon", NULL};
	*known = true;
	for (size_t i = 0; type != NULL && tied[i] != NULL; i++)
		if (strcmp(type, tied[i]) == 0)
			return true;
	for (size_t i = 0; type != NULL && untied[i] != NULL; i++)
		if (strcmp(type, untied[i]) == 0)
			return false;
	*known = false;
	return false;
}

struct arch {
	long long layers, hidden, heads, kv_heads, head_dim, vocab, ffn, max_seq;
	long long experts, topk, expert_ffn, shared_ffn, dense_layers, dense_ffn;
	long long kv_lora, q_lora, qk_nope, qk_rope, v_head;
	bool tied, gated;
};

#define N(...) ((const char *const[]){__VA_ARGS__, NULL})

static int read_shape(const cJSON *o, struct arch *a, unsigned *guessed, char **cause)
{
	if (get_int(o, N("num_hidden_layers", "n_layer", "num_layers"), 1, 100000, &a->layers, cause) ||
	    get_int(o, N("hidden_size", "n_embd", "d_model", "dim"), 1, 1000000, &a->hidden, cause) ||
	    get_int(o, N("num_attention_heads", "n_head", "n_heads"), 1, 100000, &a->heads, cause) ||
	    get_int(o, N("num_key_value_heads", "n_kv_heads", "num_kv_heads"), 1, 100000, &a->kv_heads, cause) ||
	    get_int(o, N("head_dim"), 1, 100000, &a->head_dim, cause) ||
	    get_int(o, N("vocab_size", "padded_vocab_size"), 1, 100000000, &a->vocab, cause) ||
	    get_int(o, N("intermediate_size", "n_inner", "ffn_dim"), 1, 10000000, &a->ffn, cause) ||
	    get_int(o, N("max_position_embeddings", "n_positions", "max_sequence_length"), 1,
	            100000000, &a->max_seq, cause))
		return -1;
	if (a->layers < 0 || a->hidden < 0 || a->heads < 0)
		return set_cause(cause, "config.json lacks %s: it does not describe a transformer gpux can size",
		                 a->layers < 0 ? "num_hidden_layers" : a->hidden < 0 ? "hidden_size"
		                                                                      : "num_attention_heads");
	if (a->kv_heads < 0)
		a->kv_heads = a->heads; /* transformers: multi-head attention */
	if (a->head_dim < 0)
		a->head_dim = a->hidden / a->heads;
	if (a->heads % a->kv_heads != 0)
		return set_cause(cause, "config.json: num_attention_heads (%lld) is not a multiple of num_key_value_heads (%lld)",
		                 a->heads, a->kv_heads);
	if (a->vocab < 0) {
		a->vocab = 32000;
		*guessed |= CATALOG_GUESSED_VOCAB;
	}
	if (a->ffn < 0) {
		a->ffn = 4 * a->hidden;
		*guessed |= CATALOG_GUESSED_FFN;
	}
	return 0;
}

static int read_experts(const cJSON *o, struct arch *a, unsigned *guessed, char **cause)
{
	long long shared_n = -1, shared_size = -1, first_dense = -1, step = -1, sparse_step = -1,
	          ffn_mlp = -1;
	if (get_int(o, N("num_local_experts", "num_experts", "n_routed_experts"), 0, 65536, &a->experts, cause) ||
	    get_int(o, N("num_experts_per_tok", "num_experts_per_token", "moe_topk"), 1, 65536, &a->topk, cause) ||
	    get_int(o, N("moe_intermediate_size"), 1, 10000000, &a->expert_ffn, cause) ||
	    get_int(o, N("n_shared_experts"), 0, 65536, &shared_n, cause) ||
	    get_int(o, N("shared_expert_intermediate_size"), 0, 10000000, &shared_size, cause) ||
	    get_int(o, N("first_k_dense_replace"), 0, 100000, &first_dense, cause) ||
	    get_int(o, N("interleave_moe_layer_step"), 1, 100000, &step, cause) ||
	    get_int(o, N("decoder_sparse_step"), 1, 100000, &sparse_step, cause) ||
	    get_int(o, N("intermediate_size_mlp"), 1, 10000000, &ffn_mlp, cause))
		return -1;
	if (a->experts <= 1) {
		a->experts = 0;
		a->topk = 0;
		return 0;
	}
	if (a->topk < 0) {
		a->topk = 2;
		*guessed |= CATALOG_GUESSED_TOPK;
	}
	if (a->topk > a->experts)
		return set_cause(cause, "config.json: num_experts_per_tok (%lld) exceeds the experts (%lld)",
		                 a->topk, a->experts);
	if (a->expert_ffn < 0)
		a->expert_ffn = a->ffn;
	a->shared_ffn = shared_size > 0 ? shared_size : shared_n > 0 ? shared_n * a->expert_ffn : 0;
	if (cJSON_GetObjectItemCaseSensitive(o, "shared_expert_intermediate_size") == NULL &&
	    shared_n < 0 && ffn_mlp > 0)
		a->shared_ffn = a->expert_ffn; /* Llama 4: one shared expert of the experts' size */
	a->dense_ffn = ffn_mlp > 0 ? ffn_mlp : a->ffn;
	if (first_dense > 0)
		a->dense_layers = first_dense < a->layers ? first_dense : a->layers;
	else if (step > 1 || sparse_step > 1) {
		long long s = step > 1 ? step : sparse_step;
		a->dense_layers = a->layers - a->layers / s;
	}
	return 0;
}

static int read_mla(const cJSON *o, struct arch *a, char **cause)
{
	if (get_int(o, N("kv_lora_rank"), 1, 1000000, &a->kv_lora, cause) ||
	    get_int(o, N("q_lora_rank"), 1, 1000000, &a->q_lora, cause) ||
	    get_int(o, N("qk_nope_head_dim"), 0, 100000, &a->qk_nope, cause) ||
	    get_int(o, N("qk_rope_head_dim"), 0, 100000, &a->qk_rope, cause) ||
	    get_int(o, N("v_head_dim"), 1, 100000, &a->v_head, cause))
		return -1;
	if (a->kv_lora > 0) {
		if (a->qk_nope < 0)
			a->qk_nope = a->head_dim;
		if (a->qk_rope < 0)
			a->qk_rope = 0;
		if (a->v_head < 0)
			a->v_head = a->head_dim;
	}
	return 0;
}

/* Parameters of one layer's attention. */
static double attention_params(const struct arch *a)
{
	double h = (double)a->hidden, n = (double)a->heads;
	if (a->kv_lora > 0) {
		double qk = (double)(a->qk_nope + a->qk_rope);
		double q = a->q_lora > 0 ? h * a->q_lora + (double)a->q_lora * n * qk : h * n * qk;
		double kv = h * (double)(a->kv_lora + a->qk_rope) +
		            (double)a->kv_lora * n * (double)(a->qk_nope + a->v_head);
		return q + kv + n * (double)a->v_head * h;
	}
	double d = (double)a->head_dim;
	return 2 * h * n * d + 2 * h * (double)a->kv_heads * d;
}

static void count(const struct arch *a, double *total, double *active)
{
	double h = (double)a->hidden, mats = a->gated ? 3 : 2;
	double emb = (double)a->vocab * h * (a->tied ? 1 : 2);
	double attn = (double)a->layers * attention_params(a);
	if (a->experts == 0) {
		*total = *active = emb + attn + (double)a->layers * mats * h * (double)a->ffn;
		return;
	}
	double moe_layers = (double)(a->layers - a->dense_layers);
	double expert = mats * h * (double)a->expert_ffn;
	double always = mats * h * (double)a->shared_ffn + h * (double)a->experts; /* + router */
	double dense = (double)a->dense_layers * mats * h * (double)a->dense_ffn;
	*total = emb + attn + dense + moe_layers * ((double)a->experts * expert + always);
	*active = emb + attn + dense + moe_layers * ((double)a->topk * expert + always);
}

static void note_dtype(const cJSON *o, struct catalog_model *m)
{
	const char *dt = str_member(o, "torch_dtype");
	if (dt == NULL)
		dt = str_member(o, "dtype");
	m->torch_dtype = dt != NULL ? util_sanitize(dt, 24, true) : NULL;
	const cJSON *q = cJSON_GetObjectItemCaseSensitive(o, "quantization_config");
	if (!cJSON_IsObject(q))
		return;
	const char *method = str_member(q, "quant_method");
	const cJSON *bits = cJSON_GetObjectItemCaseSensitive(q, "bits");
	const cJSON *group = cJSON_GetObjectItemCaseSensitive(q, "group_size");
	m->quant_method = method != NULL ? util_sanitize(method, 24, true) : xstrdup("unknown");
	m->quant_bits = cJSON_IsNumber(bits) && bits->valuedouble >= 1 && bits->valuedouble <= 16
	                        ? (int)bits->valuedouble
	                        : -1;
	if (m->quant_bits < 0 && method != NULL)
		m->quant_bits = strcasecmp(method, "fp8") == 0     ? 8
		                : strcasecmp(method, "mxfp4") == 0 ? 4
		                                                   : -1;
	if (m->quant_bits < 0 && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(q, "load_in_4bit")))
		m->quant_bits = 4;
	m->quant_group = cJSON_IsNumber(group) && group->valuedouble >= 8 &&
	                                 group->valuedouble <= 65536
	                         ? (int)group->valuedouble
	                         : -1;
}

static void fill(struct catalog_model *m, const struct arch *a, const char *name, unsigned guessed)
{
	double total, active;
	count(a, &total, &active);
	m->id = xstrdup("config");
	m->name = util_sanitize(name != NULL && name[0] != '\0' ? name : "config.json", 64, true);
	m->kind = a->experts > 0 ? CATALOG_MODEL_MOE : CATALOG_MODEL_LLM;
	m->params_b = total / 1e9;
	m->active_params_b = active / 1e9;
	m->layers = (int)a->layers;
	m->hidden = (int)a->hidden;
	m->heads = (int)a->heads;
	m->kv_heads = (int)a->kv_heads;
	m->head_dim = (int)(a->kv_lora > 0 ? a->v_head : a->head_dim);
	m->vocab = (int)a->vocab;
	m->ffn = (int)(a->experts > 0 ? a->expert_ffn : a->ffn);
	m->max_seq = a->max_seq > 0 ? (int)a->max_seq : -1;
	m->experts = a->experts > 0 ? (int)a->experts : -1;
	m->experts_per_token = a->experts > 0 ? (int)a->topk : -1;
	m->kv_latent_dim = a->kv_lora > 0 ? (int)(a->kv_lora + a->qk_rope) : -1;
	m->text_encoder_params_b = NAN;
	m->vae_params_b = NAN;
	m->width = m->height = m->frames = -1;
	m->tied_embeddings = a->tied;
	m->guessed = guessed;
	m->source = xasprintf("config.json (%s), parameters counted from its architecture",
	                      m->name);
}

int catalog_model_from_config(const char *text, size_t len, const char *name,
                              struct catalog_model *out, char **cause)
{
	struct arch a = {0};
	unsigned guessed = 0;
	cJSON *root;
	const cJSON *o;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (text == NULL || len == 0)
		return set_cause(cause, "config.json is empty");
	if (len > MAX_CONFIG_BYTES)
		return set_cause(cause, "config.json is over 4 MiB: not a model configuration");
	root = cJSON_ParseWithLength(text, len);
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		return set_cause(cause, "config.json is not a JSON object");
	}
	o = root;
	if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "text_config")))
		o = cJSON_GetObjectItemCaseSensitive(root, "text_config");
	const char *type = str_member(o, "model_type");
	if (type == NULL)
		type = str_member(root, "model_type");
	if (read_shape(o, &a, &guessed, cause) < 0 || read_experts(o, &a, &guessed, cause) < 0 ||
	    read_mla(o, &a, cause) < 0)
		goto out;
	a.gated = !ungated(type);
	const cJSON *tie = cJSON_GetObjectItemCaseSensitive(o, "tie_word_embeddings");
	if (!cJSON_IsBool(tie))
		tie = cJSON_GetObjectItemCaseSensitive(root, "tie_word_embeddings");
	if (cJSON_IsBool(tie)) {
		a.tied = cJSON_IsTrue(tie);
	} else {
		bool known;
		a.tied = ties_by_default(type, &known);
		if (!known)
			guessed |= CATALOG_GUESSED_TIED;
	}
	if (name == NULL || name[0] == '\0')
		name = str_member(root, "_name_or_path");
	fill(out, &a, name, guessed);
	note_dtype(root, out);
	rc = 0;
out:
	cJSON_Delete(root);
	return rc;
}

int catalog_model_from_config_file(const char *path, struct catalog_model *out, char **cause)
{
	char *text = NULL, *why = NULL, *name = NULL;
	size_t len = 0;
	int rc;

	memset(out, 0, sizeof *out);
	if (util_read_file(path, &text, &len, &why) < 0) {
		set_cause(cause, "cannot read %s: %s", path, why != NULL ? why : "?");
		free(why);
		return -1;
	}
	/* the model's name: the folder holding config.json, as hubs lay them out */
	{
		const char *end = strrchr(path, '/');
		if (end != NULL && end > path) {
			const char *start = end;
			while (start > path && start[-1] != '/')
				start--;
			name = xstrndup(start, (size_t)(end - start));
		}
	}
	rc = catalog_model_from_config(text, len, name, out, cause);
	free(name);
	free(text);
	return rc;
}

void catalog_model_clear(struct catalog_model *m)
{
	if (m == NULL)
		return;
	free(m->id);
	free(m->name);
	free(m->source);
	free(m->torch_dtype);
	free(m->quant_method);
	for (size_t i = 0; i < m->n_hub; i++)
		free(m->hub[i]);
	free(m->hub);
	memset(m, 0, sizeof *m);
}

char *catalog_guessed_text(unsigned mask)
{
	static const struct {
		unsigned bit;
		const char *what;
	} names[] = {
		{CATALOG_GUESSED_VOCAB, "vocab_size (32000)"},
		{CATALOG_GUESSED_FFN, "intermediate_size (4 x hidden)"},
		{CATALOG_GUESSED_TIED, "tie_word_embeddings (false)"},
		{CATALOG_GUESSED_TOPK, "num_experts_per_tok (2)"},
	};
	struct buf b = {0};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (mask & names[i].bit)
			buf_printf(&b, "%s%s", b.len > 0 ? ", " : "", names[i].what);
	return buf_take(&b);
}
