/*
 * `gpux fit SIZE|PRESET [--method M] [options]`: the calculator panel as a
 * command. The job is built from the arguments (each assumption a flag with
 * fit/'s default), checked by fit_job_check, and answered per GPU by view/
 * (the same "your model" columns the TUI adds to a table, so the numbers are
 * the panel's): memory needed per GPU, available, fits, GPUs needed, cost per
 * hour at the best ask; for training the run's time and cost, for inference
 * decode tokens/s. csv/json add the memory breakdown. Rows: every GPU of the
 * catalogue, or a workload's with --workload.
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

const struct cli_opt cli_fit_opts[] = {
	{"--method", "METHOD", N_("full, lora, qlora, infer-fp16, infer-fp8, infer-int8, infer-int4 or diffusion (default full; diffusion for an image model)")},
	{"--gpus", "N", N_("GPUs the job runs on (default 1)")},
	{"--seq", "N", N_("sequence length in tokens (default 2048)")},
	{"--batch", "N", N_("micro-batch per GPU; inference: sequences decoded together; diffusion: images (default 1)")},
	{"--checkpointing", NULL, N_("gradient checkpointing: recompute activations (the default)")},
	{"--no-checkpointing", NULL, N_("keep every activation instead")},
	{"--zero", "0-3", N_("sharding of the training states: 0 none, 1 ZeRO-1, 2 ZeRO-2, 3 ZeRO-3/FSDP (default 3)")},
	{"--optimizer", "OPT", N_("adam, adam8bit or sgd (default adam)")},
	{"--tokens", "N", N_("tokens to train on, in billions: 300, 300B, 1.3T (default 1)")},
	{"--mfu", "F", N_("model FLOPs utilisation, above 0 and at most 1, or a percentage such as 40% (default 0.4)")},
	{"--workload", "W", N_("only the GPUs of one workload's table")},
	{"--sort", "COLUMN[:desc]", N_("sort by a column id, or cheapest: the job's cost per hour among the GPUs that can take it")},
	{"--filter", "TEXT", N_("only GPUs whose id, name, architecture or vendor contains TEXT (any case)")},
	{NULL, NULL, NULL},
};

#define OPT(a, name) cli_arg((a), cli_fit_opts, (name))

static const struct catalog_model *find_model(const struct catalog *c, const char *id)
{
	size_t i;

	for (i = 0; i < c->n_models; i++)
		if (strcasecmp(c->models[i].id, id) == 0)
			return &c->models[i];
	return NULL;
}

static const struct catalog_workload *find_workload(const struct catalog *c, const char *id)
{
	size_t i;

	for (i = 0; i < c->n_workloads; i++)
		if (strcasecmp(c->workloads[i].id, id) == 0)
			return &c->workloads[i];
	return NULL;
}

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

/* --mfu: "0.4", "0,4" where the language writes a decimal comma, or "40%". */
static int parse_mfu(struct cli_ctx *ctx, const char *v, double *out)
{
	size_t len = strlen(v);
	bool percent = len > 0 && v[len - 1] == '%';
	char *num = xstrndup(v, percent ? len - 1 : len);
	char *cause = NULL;
	int64_t scaled;
	double f;

	if (i18n_parse_decimal(ctx->lang, num, 6, &scaled, &cause) != 0) {
		int rc = cli_usage(ctx, _("fit: --mfu \"%s\": %s; accepted: a fraction above 0 and at most 1 (0.4) or a percentage (40%%)"),
				   v, cause != NULL ? cause : "?");
		free(cause);
		free(num);
		return rc;
	}
	free(num);
	f = (double)scaled / 1e6;
	if (percent)
		f /= 100;
	if (!(f > 0 && f <= 1))
		return cli_usage(ctx, _("fit: --mfu %s is out of range; accepted: a fraction above 0 and at most 1 (0.4) or a percentage (40%%)"),
				 v);
	*out = f;
	return CLI_OK;
}

/* The model: a preset id, else a size as people type it. */
static int parse_model(struct cli_ctx *ctx, const char *arg, struct fit_job *job,
		       const struct catalog_model **preset)
{
	char *cause = NULL;
	double b;

	*preset = find_model(ctx->catalog, arg);
	if (*preset != NULL) {
		view_job_use_preset(job, *preset);
		return CLI_OK;
	}
	if (fit_parse_size(arg, i18n_decimal_sep(ctx->lang), &b, &cause) != 0 ||
	    fit_model_from_size(b, &job->model, &cause) != 0) {
		char *ids = cli_model_ids(ctx->catalog);
		int rc = cli_usage(ctx, _("fit: \"%s\": %s; or a preset: %s"), arg,
				   cause != NULL ? _(cause) : "?", ids);
		free(ids);
		free(cause);
		return rc;
	}
	return CLI_OK;
}

static int build_job(struct cli_ctx *ctx, const struct cli_args *a, struct fit_job *job,
		     const struct catalog_model **preset)
{
	const char *v;
	char *cause = NULL;
	int rc;

	fit_job_defaults(job);
	if ((rc = parse_model(ctx, a->pos[0], job, preset)) != CLI_OK)
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
	if ((v = OPT(a, "--mfu")) != NULL && (rc = parse_mfu(ctx, v, &job->mfu)) != CLI_OK)
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

/* One line of the job's assumptions under the table: every input shown. */
static char *assumptions(const struct cli_ctx *ctx, const struct fit_job *job,
			 const struct catalog_model *preset)
{
	enum i18n_lang l = ctx->lang;
	struct buf b = {0};
	char *n;

	if (preset != NULL) {
		buf_puts(&b, preset->name);
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
		n = i18n_fmt_number(l, job->tokens_b, decimals_of(job->tokens_b));
		buf_printf(&b, " \u00b7 %s %s", n, _("B tokens"));
		free(n);
		n = i18n_fmt_percent(l, job->mfu * 100, 0);
		buf_printf(&b, " \u00b7 MFU %s", n);
		free(n);
	}
	if (fit_method_is_inference(job->method)) {
		n = i18n_fmt_percent(l, job->bw_efficiency * 100, 0);
		buf_printf(&b, " \u00b7 %s %s", _("bandwidth efficiency"), n);
		free(n);
	}
	n = i18n_fmt_percent(l, job->margin_fraction * 100, 0);
	{
		char *oh = i18n_fmt_unit(l, job->overhead_gb, job->overhead_gb < 10 ? 1 : 0, "GB");
		buf_printf(&b, " \u00b7 %s %s + %s", _("margin"), oh, n);
		free(oh);
	}
	free(n);
	if (job->model.guessed)
		buf_printf(&b, " \u00b7 %s", _("architecture guessed from the size"));
	return buf_take(&b);
}

static void gb_cell(struct cli_sheet *s, const struct cli_ctx *ctx, double gb)
{
	char *d = view_fmt_gb(ctx->lang, gb);
	cli_sheet_number(s, d, gb);
	free(d);
}

int cli_cmd_fit(struct cli_ctx *ctx, int argc, char **argv)
{
	const unsigned kinds = CLI_KIND(VIEW_COL_GPU) | CLI_KIND(VIEW_COL_JOB_MEM) |
			       CLI_KIND(VIEW_COL_JOB_AVAIL) | CLI_KIND(VIEW_COL_JOB_FITS) |
			       CLI_KIND(VIEW_COL_JOB_GPUS) | CLI_KIND(VIEW_COL_JOB_COST) |
			       CLI_KIND(VIEW_COL_PRICE);
	const struct catalog_model *preset = NULL;
	const struct catalog_workload *w = NULL;
	struct view_prices prices;
	struct view_table *t = NULL;
	struct cli_sheet *s = NULL;
	struct cli_args a;
	struct fit_job job;
	const char *v, *filter;
	bool training, inference;
	int rc;
	size_t i;

	rc = cli_args_parse(ctx, "fit", cli_fit_opts, argc, argv, 1, &a);
	if (rc != CLI_OK)
		return rc;
	if (a.n_pos == 0) {
		char *ids = cli_model_ids(ctx->catalog);
		rc = cli_usage(ctx, _("fit: which model? accepted: a size in billions of parameters (70, 70B, 7.5, 1.3T) or a preset: %s"),
			       ids);
		free(ids);
		goto out;
	}
	if ((v = OPT(&a, "--workload")) != NULL && (w = find_workload(ctx->catalog, v)) == NULL) {
		char *ids = cli_workload_ids(ctx->catalog);
		rc = cli_usage(ctx, _("fit: unknown workload \"%s\"; accepted: %s"), v, ids);
		free(ids);
		goto out;
	}
	if ((rc = build_job(ctx, &a, &job, &preset)) != CLI_OK)
		goto out;

	cli_load_prices(ctx, &prices);
	t = view_new(ctx->catalog, w, &prices, &job, ctx->lang, ctx->ascii);
	cli_prices_free(&prices);
	if ((rc = cli_apply_sort(ctx, "fit", t, OPT(&a, "--sort"), true)) != CLI_OK)
		goto out;
	filter = OPT(&a, "--filter");
	view_filter(t, filter);

	training = fit_method_is_training(job.method);
	inference = fit_method_is_inference(job.method);
	s = cli_sheet_new();
	cli_sheet_view_columns(s, t, kinds);
	cli_sheet_column_for(s, "gpus_run", _("GPUs run"), CLI_RIGHT, CLI_SHOW_DATA);
	if (training) {
		cli_sheet_column(s, "train_hours", _("Run time"), CLI_RIGHT);
		cli_sheet_column(s, "run_cost", _("Run cost"), CLI_RIGHT);
	}
	if (inference) {
		cli_sheet_column(s, "decode_tokens_s", _("tok/s per sequence"), CLI_RIGHT);
		cli_sheet_column_for(s, "decode_tokens_s_total", "decode_tokens_s_total", CLI_RIGHT,
				     CLI_SHOW_DATA);
	}
	cli_sheet_column_for(s, "mem_weights_gb", "mem_weights_gb", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "mem_gradients_gb", "mem_gradients_gb", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "mem_optimizer_gb", "mem_optimizer_gb", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "mem_activations_gb", "mem_activations_gb", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "mem_kv_cache_gb", "mem_kv_cache_gb", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "mem_margin_gb", "mem_margin_gb", CLI_RIGHT, CLI_SHOW_DATA);

	for (i = 0; i < t->n_shown; i++) {
		const struct view_row *r = view_shown_row(t, i);
		const struct fit_result *j = &r->job;

		cli_sheet_row(s);
		cli_sheet_view_cells(s, t, r, kinds);
		cli_sheet_int(s, NULL, j->gpus_run);
		if (training) {
			if (isfinite(j->train_hours)) {
				/* the fit panel's figure too (view/fitfmt.c) */
				char *d = view_fmt_run_time(ctx->lang, j->train_hours, ctx->ascii);
				cli_sheet_number(s, d, j->train_hours);
				free(d);
			} else {
				cli_sheet_null(s, ctx->ascii ? "-" : "\u2014");
			}
			if (j->run_cents >= 0) {
				char *d = i18n_fmt_money(ctx->lang, j->run_cents, "USD");
				cli_sheet_int(s, d, j->run_cents);
				free(d);
			} else {
				cli_sheet_null(s, ctx->ascii ? "-" : "\u2014");
			}
		}
		if (inference) {
			if (isfinite(j->decode_tokens_s)) {
				char *d = view_fmt_tokens_s(ctx->lang, j->decode_tokens_s, ctx->ascii);
				cli_sheet_number(s, d, j->decode_tokens_s);
				free(d);
			} else {
				cli_sheet_null(s, ctx->ascii ? "-" : "\u2014");
			}
			cli_sheet_number(s, NULL, j->decode_tokens_s_total);
		}
		gb_cell(s, ctx, j->mem.weights);
		gb_cell(s, ctx, j->mem.gradients);
		gb_cell(s, ctx, j->mem.optimizer);
		gb_cell(s, ctx, j->mem.activations);
		gb_cell(s, ctx, j->mem.kv_cache);
		gb_cell(s, ctx, j->mem.margin);
	}
	cli_sheet_price_notes(ctx, s, true);
	{
		char *note = assumptions(ctx, &job, preset);
		cli_sheet_note(s, note);
		free(note);
	}
	if (filter != NULL && filter[0] != '\0') {
		char *n = view_count_text(t);
		cli_sheet_note(s, n);
		free(n);
	}
	if (cli_sheet_print(ctx, s) != 0)
		rc = cli_fail(ctx, _("could not write the output"));
out:
	cli_sheet_free(&s);
	view_free(&t);
	cli_args_free(&a);
	return rc;
}
