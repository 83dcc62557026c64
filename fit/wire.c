/*
 * The job's wire form: the fit job as named integers, booleans and strings,
 * for job orders (api/ writes them as JSON, exchange/ reads them back).
 *
 * One table, fit_job_fields[], names every field with its kind and range;
 * a private table in the same order says where the value lives in struct
 * fit_job and its scale (a double × scale, rounded, is the integer on the
 * wire: parameters × 1000 = millions, GB × 1000 = MB, fractions × 10000 =
 * basis points, µs × 1000 = ns). Reading checks every field by the API's
 * rules (unknown, duplicate, missing, wrong type, out of range, bad value)
 * and names it; then the cross-field rules, then fit_job_check.
 */
#include "fit/fit.h"
#include "fit/fit_int.h"
#include "util/util.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const method_values[] = {"full", "lora", "qlora", "infer-fp16", "infer-fp8",
                                            "infer-int8", "infer-int4", "diffusion", NULL};
static const char *const sharding_values[] = {"none", "zero1", "zero2", "zero3", NULL};
static const char *const optimizer_values[] = {"adam", "adam8", "sgd", NULL};
static const char *const accounting_values[] = {"deepspeed", "paper", NULL};
static const char *const offload_values[] = {"none", "optimizer", "all", NULL};
static const char *const stack_values[] = {"none", "unsloth", "peft", NULL};
static const char *const kv_values[] = {"16", "fp8", NULL};
static const char *const arch_values[] = {"published", "guessed", "given", NULL};

#define BIG 100000000 /* 10^8: parameters in millions up to 100T */

const struct fit_field_spec fit_job_fields[] = {
	{"model", FIT_FIELD_STRING, 1, 64, false, NULL, "label: a preset or hub id (informative)"},
	{"method", FIT_FIELD_ENUM, 0, 0, true, method_values, ""},
	{"architecture", FIT_FIELD_ENUM, 0, 0, false, arch_values, "how the figures were known"},
	{"params_millions", FIT_FIELD_INT, 1, BIG, true, NULL, "millions of parameters (all experts)"},
	{"active_params_millions", FIT_FIELD_INT, 0, BIG, false, NULL, "millions per token; 0 = all"},
	{"layers", FIT_FIELD_INT, 0, 100000, false, NULL, "required for language models"},
	{"hidden", FIT_FIELD_INT, 0, 1000000, false, NULL, "required for language models"},
	{"heads", FIT_FIELD_INT, 0, 100000, false, NULL, "required for language models"},
	{"kv_heads", FIT_FIELD_INT, 0, 100000, false, NULL, "required for language models"},
	{"head_dim", FIT_FIELD_INT, 0, 100000, false, NULL, "required for language models"},
	{"vocab", FIT_FIELD_INT, 0, 100000000, false, NULL, "required for language models"},
	{"ffn", FIT_FIELD_INT, 0, 10000000, false, NULL, "required for language models; per expert"},
	{"kv_latent_dim", FIT_FIELD_INT, 0, 1000000, false, NULL, "MLA: cached elements per layer"},
	{"experts", FIT_FIELD_INT, 0, 65536, false, NULL, "MoE: routed experts; 0 = dense"},
	{"experts_per_token", FIT_FIELD_INT, 0, 65536, false, NULL, "MoE"},
	{"tied_embeddings", FIT_FIELD_BOOL, 0, 1, false, NULL, ""},
	{"extra_params_millions", FIT_FIELD_INT, 0, BIG, false, NULL, "diffusion: encoders + VAE"},
	{"latent_px", FIT_FIELD_INT, 0, 1024, false, NULL, "diffusion; 0 = 16"},
	{"latent_frames", FIT_FIELD_INT, 0, 1024, false, NULL, "video; 0 = 4"},
	{"seq_len", FIT_FIELD_INT, 1, 1 << 24, false, NULL, "tokens"},
	{"batch", FIT_FIELD_INT, 1, 1 << 20, false, NULL, ""},
	{"gpus", FIT_FIELD_INT, 1, FIT_MAX_GPUS, false, NULL, ""},
	{"prompt_tokens", FIT_FIELD_INT, 0, 1 << 24, false, NULL, "0 = seq_len"},
	{"checkpointing", FIT_FIELD_BOOL, 0, 1, false, NULL, ""},
	{"flash_attention", FIT_FIELD_BOOL, 0, 1, false, NULL, ""},
	{"sharding", FIT_FIELD_ENUM, 0, 0, false, sharding_values, ""},
	{"optimizer", FIT_FIELD_ENUM, 0, 0, false, optimizer_values, ""},
	{"zero_accounting", FIT_FIELD_ENUM, 0, 0, false, accounting_values, ""},
	{"offload", FIT_FIELD_ENUM, 0, 0, false, offload_values, ""},
	{"pure_bf16", FIT_FIELD_BOOL, 0, 1, false, NULL, ""},
	{"chunked_loss", FIT_FIELD_BOOL, 0, 1, false, NULL, ""},
	{"stack", FIT_FIELD_ENUM, 0, 0, false, stack_values, "label of the defaults applied"},
	{"act_offload", FIT_FIELD_BOOL, 0, 1, false, NULL, ""},
	{"embed_bits", FIT_FIELD_INT, 16, 32, false, NULL, "16 or 32"},
	{"paged_optimizer", FIT_FIELD_BOOL, 0, 1, false, NULL, ""},
	{"lora_rank", FIT_FIELD_INT, 1, 65536, false, NULL, ""},
	{"quant4_millibits", FIT_FIELD_INT, 2000, 16000, false, NULL, "thousandths of a bit"},
	{"kv_cache", FIT_FIELD_ENUM, 0, 0, false, kv_values, ""},
	{"int4_group", FIT_FIELD_INT, 8, 65536, false, NULL, "weights"},
	{"overhead_mb", FIT_FIELD_INT, 0, 1000000, false, NULL, "MB (10^6 bytes)"},
	{"margin_bp", FIT_FIELD_INT, 0, 10000, false, NULL, "basis points"},
	{"tokens_millions", FIT_FIELD_INT, 1, 10000000000LL, false, NULL, "millions of tokens"},
	{"mfu_bp", FIT_FIELD_INT, 1, 10000, false, NULL, "basis points"},
	{"bw_efficiency_bp", FIT_FIELD_INT, 1, 10000, false, NULL, "basis points, 16-bit"},
	{"bw_efficiency_8bit_bp", FIT_FIELD_INT, 1, 10000, false, NULL, "basis points"},
	{"bw_efficiency_4bit_bp", FIT_FIELD_INT, 1, 10000, false, NULL, "basis points"},
	{"layer_ns", FIT_FIELD_INT, 0, 1000000000, false, NULL, "ns per layer and step, 16-bit"},
	{"layer_8bit_ns", FIT_FIELD_INT, 0, 1000000000, false, NULL, "ns"},
	{"layer_4bit_ns", FIT_FIELD_INT, 0, 1000000000, false, NULL, "ns"},
	{"allreduce_hop_ns", FIT_FIELD_INT, 0, 1000000000, false, NULL, "ns"},
	{"width", FIT_FIELD_INT, 1, 65536, false, NULL, "pixels"},
	{"height", FIT_FIELD_INT, 1, 65536, false, NULL, "pixels"},
	{"frames", FIT_FIELD_INT, 1, 1 << 20, false, NULL, ""},
	{"encoders_offloaded", FIT_FIELD_BOOL, 0, 1, false, NULL, ""},
	{"act_bytes_per_pixel", FIT_FIELD_INT, 0, 1000000, false, NULL, "bytes"},
	{"act_bytes_per_token", FIT_FIELD_INT, 0, 1000000, false, NULL, "bytes per unit of width"},
};

const int fit_job_field_count = (int)(sizeof fit_job_fields / sizeof fit_job_fields[0]);

_Static_assert(sizeof fit_job_fields / sizeof fit_job_fields[0] <= FIT_JOB_FIELDS_MAX,
               "FIT_JOB_FIELDS_MAX too small");

/* Where each field lives in struct fit_job. */
enum target {
	T_LABEL, T_INT, T_DOUBLE, T_BOOL, T_ENUM, T_KV, T_ARCH,
};

struct place {
	enum target t;
	size_t off;
	double scale; /* T_DOUBLE: wire = round(value × scale) */
};

#define J(f) offsetof(struct fit_job, f)
#define M(f) (offsetof(struct fit_job, model) + offsetof(struct fit_model, f))

static const struct place places[] = {
	{T_LABEL, 0, 0},
	{T_ENUM, J(method), 0},
	{T_ARCH, 0, 0},
	{T_DOUBLE, M(params_b), 1000},
	{T_DOUBLE, M(active_params_b), 1000},
	{T_INT, M(layers), 0},
	{T_INT, M(hidden), 0},
	{T_INT, M(heads), 0},
	{T_INT, M(kv_heads), 0},
	{T_INT, M(head_dim), 0},
	{T_INT, M(vocab), 0},
	{T_INT, M(ffn), 0},
	{T_INT, M(kv_latent_dim), 0},
	{T_INT, M(experts), 0},
	{T_INT, M(experts_per_token), 0},
	{T_BOOL, M(tied_embeddings), 0},
	{T_DOUBLE, M(extra_params_b), 1000},
	{T_INT, M(latent_px), 0},
	{T_INT, M(latent_frames), 0},
	{T_INT, J(seq_len), 0},
	{T_INT, J(batch), 0},
	{T_INT, J(gpus), 0},
	{T_INT, J(prompt_tokens), 0},
	{T_BOOL, J(checkpointing), 0},
	{T_BOOL, J(flash_attention), 0},
	{T_ENUM, J(sharding), 0},
	{T_ENUM, J(optimizer), 0},
	{T_ENUM, J(accounting), 0},
	{T_ENUM, J(offload), 0},
	{T_BOOL, J(pure_bf16), 0},
	{T_BOOL, J(chunked_loss), 0},
	{T_ENUM, J(stack), 0},
	{T_BOOL, J(act_offload), 0},
	{T_INT, J(embed_bits), 0},
	{T_BOOL, J(paged_optimizer), 0},
	{T_INT, J(lora_rank), 0},
	{T_DOUBLE, J(quant4_bits), 1000},
	{T_KV, 0, 0},
	{T_INT, J(int4_group), 0},
	{T_DOUBLE, J(overhead_gb), 1000},
	{T_DOUBLE, J(margin_fraction), 10000},
	{T_DOUBLE, J(tokens_b), 1000},
	{T_DOUBLE, J(mfu), 10000},
	{T_DOUBLE, J(bw_efficiency), 10000},
	{T_DOUBLE, J(bw_efficiency_8bit), 10000},
	{T_DOUBLE, J(bw_efficiency_4bit), 10000},
	{T_DOUBLE, J(layer_us), 1000},
	{T_DOUBLE, J(layer_us_8bit), 1000},
	{T_DOUBLE, J(layer_us_4bit), 1000},
	{T_DOUBLE, J(allreduce_hop_us), 1000},
	{T_INT, J(width), 0},
	{T_INT, J(height), 0},
	{T_INT, J(frames), 0},
	{T_BOOL, J(encoders_offloaded), 0},
	{T_DOUBLE, J(act_bytes_per_pixel), 1},
	{T_DOUBLE, J(act_bytes_per_token), 1},
};

_Static_assert(sizeof places / sizeof places[0] == sizeof fit_job_fields / sizeof fit_job_fields[0],
               "one place per field");

/* Enums of struct fit_job are stored as int-sized values. */
_Static_assert(sizeof(enum fit_method) == sizeof(int), "enum size");

static int *int_at(struct fit_job *job, size_t off)
{
	return (int *)(void *)((char *)job + off);
}

static double *double_at(struct fit_job *job, size_t off)
{
	return (double *)(void *)((char *)job + off);
}

static bool *bool_at(struct fit_job *job, size_t off)
{
	return (bool *)(void *)((char *)job + off);
}

static int enum_count(const char *const *values)
{
	int n = 0;
	while (values[n] != NULL)
		n++;
	return n;
}

/* The architecture the job answers with, as whole figures. */
static void resolved_model(const struct fit_job *job, struct fit_model *m)
{
	*m = job->model;
	if (m->diffusion || job->method == FIT_DIFFUSION)
		return;
	struct fit_arch a;
	fit_resolve(&job->model, &a);
	m->layers = (int)a.layers;
	m->hidden = (int)a.hidden;
	m->heads = (int)a.heads;
	m->kv_heads = (int)a.kv_heads;
	m->head_dim = (int)a.head_dim;
	m->vocab = (int)a.vocab;
	m->ffn = (int)lround(a.ffn);
}

int fit_job_to_fields(const struct fit_job *job, const char *label, struct fit_field *out,
                      int max)
{
	struct fit_job j = *job;
	int n = 0;

	resolved_model(job, &j.model);
	for (int i = 0; i < fit_job_field_count && n < max; i++) {
		const struct fit_field_spec *sp = &fit_job_fields[i];
		const struct place *pl = &places[i];
		struct fit_field f = {.name = sp->name, .kind = sp->kind};
		switch (pl->t) {
		case T_LABEL:
			if (label == NULL || label[0] == '\0')
				continue;
			f.s = label;
			break;
		case T_ARCH:
			f.s = j.model.guessed ? "guessed" : "published";
			break;
		case T_KV:
			f.s = j.kv_bytes < 2 ? "fp8" : "16";
			break;
		case T_ENUM: {
			int v = *int_at(&j, pl->off);
			f.s = v >= 0 && v < enum_count(sp->values) ? sp->values[v] : sp->values[0];
			break;
		}
		case T_INT:
			f.i = *int_at(&j, pl->off);
			break;
		case T_BOOL:
			f.i = *bool_at(&j, pl->off) ? 1 : 0;
			break;
		case T_DOUBLE: {
			double v = *double_at(&j, pl->off);
			f.i = isfinite(v) ? llround(v * pl->scale) : 0;
			if (f.i < sp->min)
				f.i = sp->min;
			if (f.i > sp->max)
				f.i = sp->max;
			break;
		}
		}
		if (pl->t == T_DOUBLE && pl->off == M(active_params_b) &&
		    !(isfinite(j.model.active_params_b) && j.model.active_params_b > 0))
			f.i = llround(j.model.params_b * pl->scale); /* dense: all of them */
		out[n++] = f;
	}
	return n;
}

static int find_field(const char *name)
{
	for (int i = 0; i < fit_job_field_count; i++)
		if (name != NULL && strcmp(fit_job_fields[i].name, name) == 0)
			return i;
	return -1;
}

static int problem(struct fit_field_problem *p, enum fit_field_error code, const char *field,
                   int64_t min, int64_t max)
{
	if (p != NULL) {
		p->code = code;
		p->field = field;
		p->min = min;
		p->max = max;
	}
	return -1;
}

static bool label_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr("._:/+-", c) != NULL;
}

/* Check one value against its spec; 0 or -1 with *p and *cause. */
static int check_value(const struct fit_field_spec *sp, const struct fit_field *f,
                       struct fit_field_problem *p, char **cause)
{
	bool string_in = f->kind == FIT_FIELD_STRING || f->kind == FIT_FIELD_ENUM;
	switch (sp->kind) {
	case FIT_FIELD_INT:
		if (f->kind != FIT_FIELD_INT)
			goto wrong_type;
		if (f->i < sp->min || f->i > sp->max) {
			set_cause(cause, "job field %s: must be an integer from %lld to %lld", sp->name,
			          (long long)sp->min, (long long)sp->max);
			return problem(p, FIT_FE_OUT_OF_RANGE, sp->name, sp->min, sp->max);
		}
		return 0;
	case FIT_FIELD_BOOL:
		if (f->kind != FIT_FIELD_BOOL)
			goto wrong_type;
		return 0;
	case FIT_FIELD_ENUM:
		if (!string_in || f->s == NULL)
			goto wrong_type;
		for (int v = 0; sp->values[v] != NULL; v++)
			if (strcmp(sp->values[v], f->s) == 0)
				return 0;
		set_cause(cause, "job field %s: unknown value", sp->name);
		return problem(p, FIT_FE_BAD_VALUE, sp->name, 0, 0);
	case FIT_FIELD_STRING: {
		if (!string_in || f->s == NULL)
			goto wrong_type;
		size_t len = strlen(f->s);
		if ((int64_t)len > sp->max) {
			set_cause(cause, "job field %s: longer than %lld bytes", sp->name, (long long)sp->max);
			return problem(p, FIT_FE_STRING_TOO_LONG, sp->name, 0, sp->max);
		}
		bool ok = (int64_t)len >= sp->min;
		for (size_t k = 0; ok && k < len; k++)
			ok = label_char(f->s[k]);
		if (!ok) {
			set_cause(cause, "job field %s: 1 to %lld of A-Za-z0-9._:/+-", sp->name,
			          (long long)sp->max);
			return problem(p, FIT_FE_BAD_VALUE, sp->name, 0, 0);
		}
		return 0;
	}
	}
wrong_type:
	set_cause(cause, "job field %s: must be %s", sp->name,
	          sp->kind == FIT_FIELD_INT    ? "an integer"
	          : sp->kind == FIT_FIELD_BOOL ? "true or false"
	                                       : "a string");
	return problem(p, FIT_FE_WRONG_TYPE, sp->name, 0, 0);
}

static int enum_index(const struct fit_field_spec *sp, const char *s)
{
	for (int v = 0; sp->values[v] != NULL; v++)
		if (strcmp(sp->values[v], s) == 0)
			return v;
	return 0;
}

static void apply_value(struct fit_job *job, int i, const struct fit_field *f, char *label,
                        size_t label_size)
{
	const struct fit_field_spec *sp = &fit_job_fields[i];
	const struct place *pl = &places[i];
	switch (pl->t) {
	case T_LABEL:
		if (label != NULL && label_size > 0)
			snprintf(label, label_size, "%s", f->s);
		break;
	case T_ARCH:
		job->model.guessed = strcmp(f->s, "guessed") == 0;
		job->model.guess_from = NULL;
		break;
	case T_KV:
		job->kv_bytes = strcmp(f->s, "fp8") == 0 ? 1.0 : 2.0;
		break;
	case T_ENUM:
		*int_at(job, pl->off) = enum_index(sp, f->s);
		break;
	case T_INT:
		*int_at(job, pl->off) = (int)f->i;
		break;
	case T_BOOL:
		*bool_at(job, pl->off) = f->i != 0;
		break;
	case T_DOUBLE:
		*double_at(job, pl->off) = (double)f->i / pl->scale;
		break;
	}
}

/* A required field of a language model, at least 1. */
static int need_arch(const struct fit_job *job, const bool *seen, struct fit_field_problem *p,
                     char **cause)
{
	static const char *const names[] = {"layers", "hidden", "heads", "kv_heads",
	                                    "head_dim", "vocab",  "ffn"};
	if (job->method == FIT_DIFFUSION)
		return 0;
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		int i = find_field(names[k]);
		if (!seen[i]) {
			set_cause(cause, "job field %s: required for a language model", names[k]);
			return problem(p, FIT_FE_MISSING_FIELD, fit_job_fields[i].name, 0, 0);
		}
		if (*int_at((struct fit_job *)job, places[i].off) < 1) {
			set_cause(cause, "job field %s: must be an integer from 1 to %lld", names[k],
			          (long long)fit_job_fields[i].max);
			return problem(p, FIT_FE_OUT_OF_RANGE, fit_job_fields[i].name, 1,
			               fit_job_fields[i].max);
		}
	}
	return 0;
}

static int combination(struct fit_field_problem *p, char **cause, const char *field,
                       const char *why)
{
	set_cause(cause, "job field %s: %s", field, why);
	return problem(p, FIT_FE_BAD_COMBINATION, field, 0, 0);
}

/* The rules between fields, each naming the field it refuses. */
static int cross_checks(const struct fit_job *job, struct fit_field_problem *p, char **cause)
{
	const struct fit_model *m = &job->model;
	if (m->active_params_b > m->params_b * (1 + 1e-12))
		return combination(p, cause, "active_params_millions", "exceeds params_millions");
	if (m->heads > 0 && m->kv_heads > 0 && (m->kv_heads > m->heads || m->heads % m->kv_heads))
		return combination(p, cause, "kv_heads", "must divide heads");
	if (m->experts_per_token > m->experts || (m->experts > 0 && m->experts_per_token < 1))
		return combination(p, cause, "experts_per_token", "must be from 1 to experts");
	if (job->prompt_tokens > job->seq_len)
		return combination(p, cause, "prompt_tokens", "exceeds seq_len");
	if (job->offload != FIT_OFFLOAD_NONE && job->sharding == FIT_SHARD_NONE)
		return combination(p, cause, "offload", "needs sharding zero1, zero2 or zero3");
	if (job->act_offload && !job->checkpointing && fit_method_is_training(job->method))
		return combination(p, cause, "act_offload", "needs checkpointing");
	if (job->embed_bits != 16 && job->embed_bits != 32)
		return combination(p, cause, "embed_bits", "must be 16 or 32");
	return 0;
}

int fit_job_from_fields(const struct fit_field *fields, int n, struct fit_job *job, char *label,
                        size_t label_size, struct fit_field_problem *p, char **cause)
{
	bool seen[FIT_JOB_FIELDS_MAX] = {false};
	char *why = NULL;

	fit_job_defaults(job);
	if (label != NULL && label_size > 0)
		label[0] = '\0';
	problem(p, FIT_FE_NONE, NULL, 0, 0);
	for (int k = 0; k < n; k++) {
		int i = find_field(fields[k].name);
		if (i < 0) {
			set_cause(cause, "job field %s: unknown", fields[k].name != NULL ? fields[k].name : "?");
			return problem(p, FIT_FE_UNKNOWN_FIELD, NULL, 0, 0);
		}
		if (seen[i]) {
			set_cause(cause, "job field %s: given twice", fit_job_fields[i].name);
			return problem(p, FIT_FE_DUPLICATE_FIELD, fit_job_fields[i].name, 0, 0);
		}
		seen[i] = true;
		if (check_value(&fit_job_fields[i], &fields[k], p, cause) != 0)
			return -1;
		apply_value(job, i, &fields[k], label, label_size);
	}
	for (int i = 0; i < fit_job_field_count; i++)
		if (fit_job_fields[i].required && !seen[i]) {
			set_cause(cause, "job field %s: required", fit_job_fields[i].name);
			return problem(p, FIT_FE_MISSING_FIELD, fit_job_fields[i].name, 0, 0);
		}
	if (!seen[find_field("active_params_millions")] || job->model.active_params_b <= 0)
		job->model.active_params_b = job->model.params_b;
	job->model.diffusion = job->method == FIT_DIFFUSION;
	if (need_arch(job, seen, p, cause) != 0 || cross_checks(job, p, cause) != 0)
		return -1;
	if (fit_job_check(job, &why) != 0) {
		set_cause(cause, "job: %s", why);
		free(why);
		return problem(p, FIT_FE_BAD_COMBINATION, NULL, 0, 0);
	}
	return 0;
}
