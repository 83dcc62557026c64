/*
 * `gpux fit SIZE|PRESET|ORG/NAME [--method M] [options]` and `gpux fit
 * --config PATH/config.json`: the calculator panel as a command. The job is built from the arguments (each assumption a flag with
 * fit/'s default), checked by fit_job_check, and answered per GPU by view/
 * (the same "your model" columns the TUI adds to a table, so the numbers are
 * the panel's): memory needed per GPU, available, fits, GPUs needed, cost per
 * hour at the best ask; for training the run's time and cost, for inference
 * decode tokens/s and the prefill; the machines it needs (node shape). csv/json
 * add the memory breakdown and the shape as numbers. Rows: every GPU of the
 * catalogue, or a workload's with --workload. A config.json is read by
 * data/ (catalog_model_from_config_file), never by fit/.
 */
#include "cli/cli_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/catalog.h"
#include "fit/fit.h"
#include "i18n/i18n.h"
#include "util/util.h"


#define OPT(a, name) cli_arg((a), (a)->opts, (name))

static int int_opt(struct cli_ctx *ctx, const struct cli_args *a, const char *name, long long min,
		   long long max, int *out)
{
	const char *v = OPT(a, name);
	char *what;
	long long n;
	int rc;

	if (v == NULL)
		return CLI_OK;
	what = xasprintf("fit: %s", name);
	rc = cli_parse_int(ctx, what, v, min, max, &n);
	free(what);
	if (rc == CLI_OK)
		*out = (int)n;
	return rc;
}

/* --mfu, --bw-efficiency, --margin: "0.4", "0,4" where the language writes a
 * decimal comma, or "40%"; zero_ok: 0 is accepted (the margin). */
static int parse_share(struct cli_ctx *ctx, const char *name, const char *v, bool zero_ok,
		       double *out)
{
	size_t len = strlen(v);
	bool percent = len > 0 && v[len - 1] == '%';
	char *num = xstrndup(v, percent ? len - 1 : len);
	char *cause = NULL;
	int64_t scaled;
	double f;

	if (i18n_parse_decimal(ctx->lang, num, 6, &scaled, &cause) != 0) {
		int rc = cli_usage(ctx, _("fit: %s \"%s\": %s; accepted: a fraction from 0 to 1 (0.4) or a percentage (40%%)"),
				   name, v, cause != NULL ? cause : "?");
		free(cause);
		free(num);
		return rc;
	}
	free(num);
	f = (double)scaled / 1e6;
	if (percent)
		f /= 100;
	if (!((f > 0 || (zero_ok && f == 0)) && f <= 1))
		return cli_usage(ctx, _("fit: %s %s is out of range; accepted: a fraction from 0 to 1 (0.4) or a percentage (40%%)"),
				 name, v);
	*out = f;
	return CLI_OK;
}

/* A preset the words of arg name ("llama-3-70b", "Llama 3 70B"): CLI_OK with
 * *preset set (said on stderr when arg was not its id), CLI_OK with *preset
 * NULL when none matches, a usage message naming the candidates when more
 * than one does and none is exact. */
static int search_preset(struct cli_ctx *ctx, const char *arg, const struct catalog_model **preset)
{
	const struct catalog_model *m[8];
	size_t n = catalog_search_models(ctx->catalog, arg, m, 8);
	struct buf b = {0};
	int rc;

	*preset = NULL;
	if (n == 0)
		return CLI_OK;
	if (n == 1 || strcasecmp(m[0]->id, arg) == 0 || strcasecmp(m[0]->name, arg) == 0) {
		*preset = m[0];
		if (strcasecmp(m[0]->id, arg) != 0 && strcasecmp(m[0]->name, arg) != 0)
			cli_note(ctx, _("fit: \"%s\" taken as the preset %s (%s)"), arg, m[0]->id,
				 m[0]->name);
		return CLI_OK;
	}
	for (size_t i = 0; i < n && i < 8; i++)
		buf_printf(&b, "%s%s", i > 0 ? ", " : "", m[i]->id);
	rc = cli_usage(ctx, _("fit: \"%s\" names more than one preset: %s; type one of them"), arg,
		       b.data);
	buf_free(&b);
	return rc;
}

/* The model: a preset (its id or words of its name), else a size as people
 * type it. */
static int parse_model(struct cli_ctx *ctx, const char *arg, struct fit_job *job,
		       const struct catalog_model **preset)
{
	char *cause = NULL, *ids;
	double b;
	int rc;

	*preset = NULL;
	if (fit_parse_size(arg, i18n_decimal_sep(ctx->lang), &b, &cause) == 0) {
		if (fit_model_from_size(b, &job->model, &cause) == 0)
			return CLI_OK;
	} else if ((rc = search_preset(ctx, arg, preset)) != CLI_OK || *preset != NULL) {
		if (*preset != NULL)
			view_job_use_preset(job, *preset);
		free(cause);
		return rc;
	}
	if (strchr(arg, '/') != NULL) {
		free(cause);
		return cli_usage(ctx, _("fit: \"%s\" is not a preset gpux knows; pass its config.json: gpux fit --config PATH/config.json"),
				 arg);
	}
	ids = cli_model_ids(ctx->catalog);
	rc = cli_usage(ctx, _("fit: \"%s\": %s; or a preset: %s"), arg,
		       cause != NULL ? _(cause) : "?", ids);
	free(ids);
	free(cause);
	return rc;
}

/* A decimal option (--overhead, --allreduce-us): "1.5", "1,5" in a
 * decimal-comma language; from 0 to max. */
static int decimal_opt(struct cli_ctx *ctx, const struct cli_args *a, const char *name, double max,
		       double *out)
{
	const char *v = OPT(a, name);
	char *cause = NULL;
	int64_t scaled;

	if (v == NULL)
		return CLI_OK;
	if (i18n_parse_decimal(ctx->lang, v, 6, &scaled, &cause) != 0 || scaled < 0 ||
	    (double)scaled / 1e6 > max) {
		char *m = i18n_fmt_number(ctx->lang, max, 0);
		int rc = cli_usage(ctx, _("fit: %s \"%s\" is not a number from 0 to %s"), name, v, m);
		free(m);
		free(cause);
		return rc;
	}
	*out = (double)scaled / 1e6;
	return CLI_OK;
}

/* The architecture options over a preset or a size's guess
 * (fit_model_apply_given: the fit panel applies its fields the same way). */
static int arch_opts(struct cli_ctx *ctx, const struct cli_args *a, struct fit_job *job)
{
	struct fit_arch_given g = {0};
	char *cause = NULL;
	const char *v;
	int rc;

	if ((rc = int_opt(ctx, a, "--layers", 1, 100000, &g.layers)) != CLI_OK ||
	    (rc = int_opt(ctx, a, "--hidden", 1, 1000000, &g.hidden)) != CLI_OK ||
	    (rc = int_opt(ctx, a, "--heads", 1, 100000, &g.heads)) != CLI_OK ||
	    (rc = int_opt(ctx, a, "--kv-heads", 1, 100000, &g.kv_heads)) != CLI_OK ||
	    (rc = int_opt(ctx, a, "--head-dim", 1, 100000, &g.head_dim)) != CLI_OK ||
	    (rc = int_opt(ctx, a, "--vocab", 1, 100000000, &g.vocab)) != CLI_OK ||
	    (rc = int_opt(ctx, a, "--ffn", 1, 10000000, &g.ffn)) != CLI_OK)
		return rc;
	if ((v = OPT(a, "--active")) != NULL &&
	    fit_parse_size(v, i18n_decimal_sep(ctx->lang), &g.active_b, &cause) != 0) {
		rc = cli_usage(ctx, _("fit: --active \"%s\": %s"), v, _(cause));
		free(cause);
		return rc;
	}
	fit_model_apply_given(&job->model, &g);
	return CLI_OK;
}

/* --offload, --zero-accounting, --kv-cache and the memory switches. */
static int memory_opts(struct cli_ctx *ctx, const struct cli_args *a, struct fit_job *job)
{
	char *cause = NULL;
	const char *v;
	int rc;

	job->flash_attention = job->flash_attention || OPT(a, "--flash-attention") != NULL;
	job->chunked_loss = job->chunked_loss || OPT(a, "--chunked-loss") != NULL;
	job->pure_bf16 = job->pure_bf16 || OPT(a, "--pure-bf16") != NULL;
	job->encoders_offloaded = job->encoders_offloaded || OPT(a, "--encoders-offloaded") != NULL;
	job->act_offload = job->act_offload || OPT(a, "--act-offload") != NULL;
	job->paged_optimizer = job->paged_optimizer || OPT(a, "--paged-optimizer") != NULL;
	if ((v = OPT(a, "--embeddings")) != NULL) {
		if (strcmp(v, "16") == 0 || strcasecmp(v, "bf16") == 0 || strcasecmp(v, "fp16") == 0)
			job->embed_bits = 16;
		else if (strcmp(v, "32") == 0 || strcasecmp(v, "fp32") == 0)
			job->embed_bits = 32;
		else
			return cli_usage(ctx, _("fit: unknown --embeddings \"%s\"; accepted: 16, fp32"), v);
	}
	if ((v = OPT(a, "--offload")) != NULL && fit_offload_parse(v, &job->offload, &cause) != 0) {
		free(cause);
		return cli_usage(ctx, _("fit: unknown --offload \"%s\"; accepted: none, optimizer, all"), v);
	}
	if ((v = OPT(a, "--zero-accounting")) != NULL &&
	    fit_accounting_parse(v, &job->accounting, &cause) != 0) {
		free(cause);
		return cli_usage(ctx, _("fit: unknown --zero-accounting \"%s\"; accepted: deepspeed, paper"), v);
	}
	if ((v = OPT(a, "--kv-cache")) != NULL) {
		if (strcasecmp(v, "fp8") == 0 || strcasecmp(v, "8") == 0)
			job->kv_bytes = 1;
		else if (strcmp(v, "16") == 0 || strcasecmp(v, "bf16") == 0 || strcasecmp(v, "fp16") == 0)
			job->kv_bytes = 2;
		else
			return cli_usage(ctx, _("fit: unknown --kv-cache \"%s\"; accepted: 16, fp8"), v);
	}
	if ((rc = int_opt(ctx, a, "--lora-rank", 1, 65536, &job->lora_rank)) != CLI_OK ||
	    (rc = decimal_opt(ctx, a, "--overhead", 1000, &job->overhead_gb)) != CLI_OK)
		return rc;
	if ((v = OPT(a, "--margin")) != NULL &&
	    (rc = parse_share(ctx, "--margin", v, true, &job->margin_fraction)) != CLI_OK)
		return rc;
	return CLI_OK;
}

/* --resolution WxH */
static int parse_resolution(struct cli_ctx *ctx, const char *v, struct fit_job *job)
{
	int w = 0, h = 0, n = 0;

	if (sscanf(v, "%6d%*[xX\u00d7]%6d%n", &w, &h, &n) != 2 || v[n] != '\0' || w < 1 ||
	    w > 65536 || h < 1 || h > 65536)
		return cli_usage(ctx, _("fit: --resolution \"%s\"; accepted: width x height in pixels from 1 to 65536, e.g. 1280x720"), v);
	job->width = w;
	job->height = h;
	return CLI_OK;
}

/* --int4-group, --bw-efficiency, --allreduce-us, --resolution, --frames. */
static int speed_opts(struct cli_ctx *ctx, const struct cli_args *a, struct fit_job *job)
{
	const char *v;
	double f;
	int rc;

	if ((v = OPT(a, "--layer-us")) != NULL) {
		double us = 0;
		if ((rc = decimal_opt(ctx, a, "--layer-us", 1000000, &us)) != CLI_OK)
			return rc;
		fit_job_set_layer_us(job, us);
	}
	if ((rc = int_opt(ctx, a, "--int4-group", 8, 65536, &job->int4_group)) != CLI_OK ||
	    (rc = int_opt(ctx, a, "--prompt", 1, 1 << 24, &job->prompt_tokens)) != CLI_OK ||
	    (rc = decimal_opt(ctx, a, "--allreduce-us", 1000000, &job->allreduce_hop_us)) != CLI_OK ||
	    (rc = int_opt(ctx, a, "--frames", 1, 1 << 20, &job->frames)) != CLI_OK)
		return rc;
	if ((v = OPT(a, "--bw-efficiency")) != NULL) {
		if ((rc = parse_share(ctx, "--bw-efficiency", v, false, &f)) != CLI_OK)
			return rc;
		fit_job_set_bw_efficiency(job, f);
	}
	if ((v = OPT(a, "--resolution")) != NULL && (rc = parse_resolution(ctx, v, job)) != CLI_OK)
		return rc;
	return CLI_OK;
}

/* --config PATH: the model from a Hugging Face config.json, read by data/
 * into *config (which *preset then points at). */
static int config_model(struct cli_ctx *ctx, const char *path, struct fit_job *job,
			struct catalog_model *config, const struct catalog_model **preset)
{
	char *cause = NULL;
	int rc;

	if (catalog_model_from_config_file(path, config, &cause) != 0) {
		rc = cli_usage(ctx, _("fit: --config: %s"), cause != NULL ? cause : "?");
		free(cause);
		return rc;
	}
	view_job_use_preset(job, config);
	*preset = config;
	return CLI_OK;
}

/* --stack: a fine-tuning library's defaults, before the options that
 * override them. */
static int stack_opt(struct cli_ctx *ctx, const struct cli_args *a, struct fit_job *job)
{
	const char *v = OPT(a, "--stack");
	enum fit_stack st;
	char *cause = NULL;

	if (v == NULL)
		return CLI_OK;
	if (fit_stack_parse(v, &st, &cause) != 0) {
		free(cause);
		return cli_usage(ctx, _("fit: unknown --stack \"%s\"; accepted: unsloth, peft, none"), v);
	}
	fit_stack_apply(job, st);
	return CLI_OK;
}

int cli_fit_job_build(struct cli_ctx *ctx, const struct cli_args *a, struct fit_job *job,
		      const struct catalog_model **preset, struct catalog_model *config)
{
	const char *v;
	char *cause = NULL;
	int rc;

	fit_job_defaults(job);
	if ((v = OPT(a, "--config")) != NULL)
		rc = config_model(ctx, v, job, config, preset);
	else
		rc = parse_model(ctx, a->pos[0], job, preset);
	if (rc != CLI_OK)
		return rc;
	if (*preset != NULL && (*preset)->kind == CATALOG_MODEL_DIFFUSION)
		job->method = FIT_DIFFUSION;
	if ((v = OPT(a, "--method")) != NULL) {
		if (fit_method_parse(v, &job->method, &cause) != 0) {
			free(cause);
			return cli_usage(ctx, _("fit: unknown method \"%s\"; accepted: full, lora, qlora, infer-fp16, infer-fp8, infer-int8, infer-int4, diffusion"),
					 v);
		}
	}
	if (job->method == FIT_DIFFUSION)
		job->model.diffusion = true;
	if ((rc = stack_opt(ctx, a, job)) != CLI_OK)
		return rc;
	if ((rc = int_opt(ctx, a, "--gpus", 1, FIT_MAX_GPUS, &job->gpus)) != CLI_OK ||
	    (rc = int_opt(ctx, a, "--seq", 1, 1 << 24, &job->seq_len)) != CLI_OK ||
	    (rc = int_opt(ctx, a, "--batch", 1, 1 << 20, &job->batch)) != CLI_OK)
		return rc;
	if (OPT(a, "--checkpointing") != NULL && OPT(a, "--no-checkpointing") != NULL)
		return cli_usage(ctx, _("fit: --checkpointing and --no-checkpointing contradict each other; give one"));
	if (OPT(a, "--checkpointing") != NULL)
		job->checkpointing = true;
	if (OPT(a, "--no-checkpointing") != NULL)
		job->checkpointing = false;
	if ((v = OPT(a, "--zero")) != NULL && fit_sharding_parse(v, &job->sharding, &cause) != 0) {
		free(cause);
		return cli_usage(ctx, _("fit: unknown --zero \"%s\"; accepted: 0 (none), 1, 2, 3 (ZeRO-3/FSDP)"), v);
	}
	if ((v = OPT(a, "--optimizer")) != NULL && fit_optimizer_parse(v, &job->optimizer, &cause) != 0) {
		free(cause);
		return cli_usage(ctx, _("fit: unknown optimizer \"%s\"; accepted: adam, adam8bit, sgd"), v);
	}
	if ((v = OPT(a, "--tokens")) != NULL &&
	    fit_parse_size(v, i18n_decimal_sep(ctx->lang), &job->tokens_b, &cause) != 0) {
		/* the size parser's messages speak of model sizes; say it for tokens */
		free(cause);
		return cli_usage(ctx, _("fit: --tokens \"%s\" is not a token count; accepted: billions of tokens above 0, e.g. 300, 300B, 1.3T"),
				 v);
	}
	if ((v = OPT(a, "--mfu")) != NULL && (rc = parse_share(ctx, "--mfu", v, false, &job->mfu)) != CLI_OK)
		return rc;
	if ((rc = arch_opts(ctx, a, job)) != CLI_OK || (rc = memory_opts(ctx, a, job)) != CLI_OK ||
	    (rc = speed_opts(ctx, a, job)) != CLI_OK)
		return rc;
	if (fit_job_check(job, &cause) != 0) {
		rc = cli_usage(ctx, _("fit: %s"), _(cause));
		free(cause);
		return rc;
	}
	return CLI_OK;
}

/* Decimals that show a typed figure as typed: 70 → 0, 7.5 → 1, 0.35 → 2. */
static int decimals_of(double v)
{
	if (fabs(v - round(v)) < 1e-9)
		return 0;
	if (fabs(v * 10 - round(v * 10)) < 1e-9)
		return 1;
	return v < 0.01 ? 3 : 2;
}

/* The training switches that differ from the defaults, and the accounting. */
static void training_assumptions(struct buf *b, const struct fit_job *job)
{
	if (job->sharding != FIT_SHARD_NONE)
		buf_printf(b, " \u00b7 %s %s", _("accounting:"),
			   job->accounting == FIT_ZACCT_PAPER ? _("the ZeRO paper")
							      : _("DeepSpeed's estimators"));
	if (job->offload != FIT_OFFLOAD_NONE)
		buf_printf(b, " \u00b7 %s", _(fit_offload_label(job->offload)));
	if (job->flash_attention)
		buf_printf(b, " \u00b7 %s", _("flash attention"));
	if (job->chunked_loss)
		buf_printf(b, " \u00b7 %s", _("chunked loss"));
	if (job->pure_bf16)
		buf_printf(b, " \u00b7 %s", _("pure bf16"));
	if (job->method != FIT_FULL)
		buf_printf(b, " \u00b7 %s %d", _("LoRA rank"), job->lora_rank);
	if (job->stack != FIT_STACK_NONE)
		buf_printf(b, " \u00b7 %s %s", _("stack:"), _(fit_stack_label(job->stack)));
	if (job->act_offload && job->checkpointing)
		buf_printf(b, " \u00b7 %s", _("checkpoints in CPU memory"));
	if (job->embed_bits == 32 && job->method == FIT_QLORA)
		buf_printf(b, " \u00b7 %s", _("fp32 embeddings and head"));
	if (job->paged_optimizer)
		buf_printf(b, " \u00b7 %s", _("paged optimizer (not in GPU memory)"));
}

/* Where the model came from, when it was a config.json: its guessed fields
 * and the weights' stored format. */
static void config_notes(struct buf *b, const struct catalog_model *m)
{
	if (m->guessed != 0) {
		char *g = catalog_guessed_text(m->guessed);
		buf_printf(b, " \u00b7 %s %s", _("not in the config, taken as:"), g);
		free(g);
	}
	if (m->quant_method != NULL) {
		char *q = util_sanitize(m->quant_method, 24, true);
		if (m->quant_bits > 0)
			buf_printf(b, " \u00b7 %s %s (%d bits)", _("weights stored as"), q, m->quant_bits);
		else
			buf_printf(b, " \u00b7 %s %s", _("weights stored as"), q);
		free(q);
	}
}

/* One line of the job's assumptions under the table: every input shown. */
static char *assumptions(const struct cli_ctx *ctx, const struct fit_job *job,
			 const struct catalog_model *preset, const struct fit_node_shape *shape)
{
	enum i18n_lang l = ctx->lang;
	struct buf b = {0};
	char *n;

	if (preset != NULL) {
		char *name = util_sanitize(preset->name, 64, true);
		buf_puts(&b, name);
		free(name);
		n = view_fmt_moe(l, &job->model, shape);
		if (n[0] != '\0')
			buf_printf(&b, " (%s)", n);
		free(n);
	} else {
		n = i18n_fmt_number(l, job->model.params_b, decimals_of(job->model.params_b));
		buf_printf(&b, _("%s B parameters"), n);
		free(n);
	}
	buf_printf(&b, " \u00b7 %s", _(fit_method_label(job->method)));
	buf_puts(&b, " \u00b7 ");
	buf_printf(&b, P_("%d GPU", "%d GPUs", (unsigned long)job->gpus), job->gpus);
	if (job->method != FIT_DIFFUSION) {
		buf_printf(&b, " \u00b7 %s %d", _("sequence"), job->seq_len);
	}
	buf_printf(&b, " \u00b7 %s %d", _("batch"), job->batch);
	if (fit_method_is_training(job->method)) {
		buf_printf(&b, " \u00b7 %s", job->checkpointing ? _("checkpointing") : _("no checkpointing"));
		buf_printf(&b, " \u00b7 %s \u00b7 %s", _(fit_sharding_label(job->sharding)),
			   _(fit_optimizer_label(job->optimizer)));
		training_assumptions(&b, job);
		n = i18n_fmt_number(l, job->tokens_b, decimals_of(job->tokens_b));
		buf_printf(&b, " \u00b7 %s %s", n, _("B tokens"));
		free(n);
		n = i18n_fmt_percent(l, job->mfu * 100, 0);
		buf_printf(&b, " \u00b7 MFU %s", n);
		free(n);
	}
	if (fit_method_is_inference(job->method)) {
		n = i18n_fmt_percent(l, fit_job_bw_efficiency(job) * 100, 0);
		buf_printf(&b, " \u00b7 %s %s", _("bandwidth efficiency"), n);
		free(n);
		if (job->kv_bytes < 2)
			buf_printf(&b, " \u00b7 %s", _("FP8 KV cache"));
		if (job->method == FIT_INFER_INT4)
			buf_printf(&b, " \u00b7 %s %d", _("int4 group"), job->int4_group);
		n = i18n_fmt_number(l, fit_job_layer_us(job), 0);
		buf_printf(&b, " \u00b7 %s %s \u00b5s", _("per layer"), n);
		free(n);
		n = i18n_fmt_number(l, job->allreduce_hop_us, 1);
		buf_printf(&b, " \u00b7 %s %s \u00b5s", _("all-reduce step"), n);
		free(n);
		if (job->prompt_tokens > 0)
			buf_printf(&b, " \u00b7 %s %d", _("prompt"), job->prompt_tokens);
	}
	if (job->method == FIT_DIFFUSION && job->encoders_offloaded)
		buf_printf(&b, " \u00b7 %s", _("text encoders offloaded"));
	n = i18n_fmt_percent(l, job->margin_fraction * 100, 0);
	{
		char *oh = i18n_fmt_unit(l, job->overhead_gb, job->overhead_gb < 10 ? 1 : 0, "GB");
		buf_printf(&b, " \u00b7 %s %s + %s", _("margin"), oh, n);
		free(oh);
	}
	free(n);
	if (preset != NULL && strcmp(preset->id, "config") == 0)
		config_notes(&b, preset);
	if (job->model.guessed && job->model.guess_from != NULL)
		buf_printf(&b, " \u00b7 %s (%s)", _("architecture guessed from the size"),
			   job->model.guess_from);
	else if (job->model.guessed)
		buf_printf(&b, " \u00b7 %s", _("architecture guessed from the size"));
	return buf_take(&b);
}

/* The architecture column: "guessed" (from the size), "published" (a
 * preset's config) or "given" (typed). */
static const char *arch_state(const struct fit_job *job, const struct catalog_model *preset)
{
	if (job->model.guessed || (preset != NULL && preset->guessed != 0))
		return "guessed";
	if (preset != NULL && strcmp(preset->id, "config") == 0)
		return "config";
	return preset != NULL ? "published" : "given";
}

/* The machines the row's GPU count needs: the text in the table, numbers in
 * csv/json (interconnect null when the job needs no link). */
static void shape_cells(const struct cli_ctx *ctx, struct cli_sheet *s, const struct fit_node_shape *sh)
{
	char *d = view_fmt_node_shape(ctx->lang, sh), *raw = view_fmt_node_shape(I18N_EN, sh);
	cli_sheet_text(s, d, raw); /* csv/json: one language for scripts */
	free(d);
	free(raw);
	cli_sheet_int(s, NULL, sh->node_gpus);
	cli_sheet_int(s, NULL, sh->nodes);
	cli_sheet_int(s, NULL, sh->tp);
	if (sh->link_needed)
		cli_sheet_text(s, NULL, fit_interconnect_id(sh->interconnect));
	else
		cli_sheet_null(s, NULL);
	cli_sheet_int(s, NULL, sh->ep);
}

static void gb_cell(struct cli_sheet *s, const struct cli_ctx *ctx, double gb)
{
	char *d = view_fmt_gb(ctx->lang, gb);
	cli_sheet_number(s, d, gb);
	free(d);
}

/* What a cell shows for a figure there is none of. */
static const char *dash(const struct cli_ctx *ctx)
{
	return ctx->ascii ? "-" : "\u2014";
}

/* A figure's cell, shown as fmt writes it; a dash when v is not finite. */
static void figure_cell(struct cli_sheet *s, const struct cli_ctx *ctx, double v,
			char *(*fmt)(enum i18n_lang lang, double v, bool ascii))
{
	char *d;

	if (!isfinite(v)) {
		cli_sheet_null(s, dash(ctx));
		return;
	}
	d = fmt(ctx->lang, v, ctx->ascii);
	cli_sheet_number(s, d, v);
	free(d);
}

/* The memory breakdown of csv/json: its parts' column ids, in the order of
 * fit_row's cells. */
static const char *const mem_ids[] = {
	"mem_weights_gb", "mem_gradients_gb", "mem_optimizer_gb", "mem_activations_gb",
	"mem_kv_cache_gb", "mem_margin_gb", "mem_paged_gb",
};

/* The columns of fit_row: the view's, then the fit figures (training's or
 * inference's), the memory breakdown, the view's again under names with
 * units. */
static void fit_columns(struct cli_sheet *s, const struct view_table *t, unsigned kinds,
			const struct fit_job *job)
{
	bool training = fit_method_is_training(job->method);
	bool inference = fit_method_is_inference(job->method);

	cli_sheet_view_columns(s, t, kinds);
	cli_sheet_column_for(s, "gpus_run", _("GPUs run"), CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "job_mem_one_gpu_gb", _("One GPU"), CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "architecture", _("Architecture"), CLI_LEFT, CLI_SHOW_DATA);
	cli_sheet_column(s, "machines", _("Machines"), CLI_LEFT);
	cli_sheet_column_for(s, "node_gpus", "node_gpus", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "nodes", "nodes", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "tp", "tp", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "interconnect", "interconnect", CLI_LEFT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "ep", "ep", CLI_RIGHT, CLI_SHOW_DATA);
	if (training) {
		cli_sheet_column(s, "train_hours", _("Run time"), CLI_RIGHT);
		cli_sheet_column(s, "run_cost", _("Run cost"), CLI_RIGHT);
	}
	if (inference) {
		cli_sheet_column(s, "decode_tokens_s", _("tok/s per sequence"), CLI_RIGHT);
		cli_sheet_column_for(s, "decode_tokens_s_total", "decode_tokens_s_total", CLI_RIGHT,
				     CLI_SHOW_DATA);
		cli_sheet_column(s, "prefill_s", _("Prefill s"), CLI_RIGHT);
	}
	for (size_t i = 0; i < sizeof mem_ids / sizeof mem_ids[0]; i++)
		cli_sheet_column_for(s, mem_ids[i], mem_ids[i], CLI_RIGHT, CLI_SHOW_DATA);
	/* the same figures under names that say their unit (the old names stay one release) */
	cli_sheet_view_unit_columns(s, t, kinds);
	if (training)
		cli_sheet_column_for(s, "run_cost_cents", "run_cost_cents", CLI_RIGHT, CLI_SHOW_DATA);
}

/* One GPU's row: the view's columns, then the fit figures. */
static void fit_row(const struct cli_ctx *ctx, struct cli_sheet *s, const struct view_table *t,
		    const struct view_row *r, unsigned kinds, const struct fit_job *job,
		    const struct catalog_model *preset)
{
	const struct fit_result *j = &r->job;
	bool training = fit_method_is_training(job->method);
	bool inference = fit_method_is_inference(job->method);

	cli_sheet_row(s);
	cli_sheet_view_cells(s, t, r, kinds);
	cli_sheet_int(s, NULL, j->gpus_run);
	gb_cell(s, ctx, j->mem_one.total);
	cli_sheet_text(s, NULL, arch_state(job, preset));
	shape_cells(ctx, s, &j->shape);
	if (training) {
		/* the fit panel's figures too (view/fitfmt.c) */
		figure_cell(s, ctx, j->train_hours, view_fmt_run_time);
		if (j->run_cents >= 0) {
			char *d = i18n_fmt_money(ctx->lang, j->run_cents, "USD");
			cli_sheet_int(s, d, j->run_cents);
			free(d);
		} else {
			cli_sheet_null(s, dash(ctx));
		}
	}
	if (inference) {
		figure_cell(s, ctx, j->decode_tokens_s, view_fmt_tokens_s);
		cli_sheet_number(s, NULL, j->decode_tokens_s_total);
		if (isfinite(j->prefill_s)) {
			char *d = i18n_fmt_number(ctx->lang, j->prefill_s, j->prefill_s < 10 ? 2 : 0);
			cli_sheet_number(s, d, j->prefill_s);
			free(d);
		} else {
			cli_sheet_null(s, ctx->ascii ? "-" : "\u2014");
		}
	}
	gb_cell(s, ctx, j->mem.weights);
	gb_cell(s, ctx, j->mem.gradients);
	gb_cell(s, ctx, j->mem.optimizer);
	gb_cell(s, ctx, j->mem.activations);
	gb_cell(s, ctx, j->mem.kv_cache);
	gb_cell(s, ctx, j->mem.margin);
	gb_cell(s, ctx, j->mem.paged);
	cli_sheet_view_unit_cells(s, t, r, kinds);
	if (training) {
		if (j->run_cents >= 0)
			cli_sheet_int(s, NULL, j->run_cents);
		else
			cli_sheet_null(s, NULL);
	}
}

int cli_cmd_fit(struct cli_ctx *ctx, int argc, char **argv)
{
	const unsigned kinds = CLI_KIND(VIEW_COL_GPU) | CLI_KIND(VIEW_COL_JOB_MEM) |
			       CLI_KIND(VIEW_COL_JOB_AVAIL) | CLI_KIND(VIEW_COL_JOB_FITS) |
			       CLI_KIND(VIEW_COL_JOB_GPUS) | CLI_KIND(VIEW_COL_JOB_COST) |
			       CLI_KIND(VIEW_COL_PRICE);
	const struct catalog_model *preset = NULL;
	struct catalog_model config = {0};
	const struct catalog_workload *w = NULL;
	struct view_prices prices;
	struct view_table *t = NULL;
	struct cli_sheet *s = NULL;
	struct cli_args a;
	struct fit_job job;
	const char *v, *filter;
	int rc;
	size_t i;

	rc = cli_args_parse(ctx, "fit", cli_fit_opts, argc, argv, 1, &a);
	if (rc != CLI_OK)
		return rc;
	if (a.n_pos > 0 && OPT(&a, "--config") != NULL) {
		rc = cli_usage(ctx, _("fit: give the model once: a size, a preset or --config PATH, not two"));
		goto out;
	}
	if (a.n_pos == 0 && OPT(&a, "--config") == NULL) {
		char *ids = cli_model_ids(ctx->catalog);
		rc = cli_usage(ctx, _("fit: which model? accepted: a size in billions of parameters (70, 70B, 7.5, 1.3T) or a preset: %s"),
			       ids);
		free(ids);
		goto out;
	}
	if ((v = OPT(&a, "--workload")) != NULL && (rc = cli_check_workload(ctx, "fit", v, &w)) != CLI_OK)
		goto out;
	if ((rc = cli_fit_job_build(ctx, &a, &job, &preset, &config)) != CLI_OK)
		goto out;

	cli_load_prices(ctx, &prices);
	if (ctx->prices_live)
		cli_job_ladders(ctx, &job, &prices); /* what the quotes cannot price */
	t = view_new(ctx->catalog, w, &prices, &job, ctx->lang, ctx->ascii);
	cli_prices_free(&prices);
	if ((rc = cli_apply_sort(ctx, "fit", t, OPT(&a, "--sort"), true)) != CLI_OK)
		goto out;
	filter = OPT(&a, "--filter");
	view_filter(t, filter);

	s = cli_sheet_new();
	fit_columns(s, t, kinds, &job);
	for (i = 0; i < t->n_shown; i++)
		fit_row(ctx, s, t, view_shown_row(t, i), kinds, &job, preset);
	cli_sheet_price_notes(ctx, s, true);
	if (ctx->prices_live)
		cli_sheet_note(s, _("Price/h (job): the cheapest GPU-hour of what can run the job, in "
				    "whole units of its Machines (a node of 8 is 8 GPUs inside one "
				    "machine, not 8 loose GPUs); Job/h: every unit it needs, for an hour."));
	{
		const struct fit_node_shape *shape = t->n_shown > 0 ? &view_shown_row(t, 0)->job.shape : NULL;
		char *note = assumptions(ctx, &job, preset, shape);
		cli_sheet_note(s, note);
		free(note);
	}
	cli_sheet_filter_note(s, t, filter);
	if (cli_sheet_print(ctx, s) != 0)
		rc = cli_fail(ctx, _("could not write the output"));
out:
	cli_sheet_free(&s);
	view_free(&t);
	cli_args_free(&a);
	catalog_model_clear(&config);
	return rc;
}
