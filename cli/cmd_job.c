/*
 * `gpux job SIZE|PRESET [fit options] --max-total AMOUNT [--hours H]
 * [--region R,…] [--dry-run] [--yes]`: a job order (docs/API.md, "Job
 * orders"). The job is built exactly as `gpux fit` builds it
 * (cli_fit_job_build) and sent in the fit library's wire form; the exchange
 * prices it on every GPU with the same library, in the units its node shape
 * needs, and answers with the GPUs it compared. gpux shows them (runnable or
 * not, the machines, hours, total with VAT, why), then places the cheapest
 * as one FOK order only with --yes or after a "y" on a terminal, with one
 * client order id for this intent (re-sent, never renewed, until the
 * exchange answers). csv/json: one row per GPU compared, the chosen one
 * marked, with the order's id and status on its row once placed.
 */
#include "cli/cli_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "api/api.h"
#include "data/catalog.h"
#include "fit/fit.h"
#include "i18n/i18n.h"
#include "util/util.h"
#include "view/view.h"

#define MAX_HOURS 720

#define OPT(a, name) cli_arg((a), cli_job_opts, (name))

/* The request from the command line; regions kept in *keep. */
static int build_request(struct cli_ctx *ctx, const struct cli_args *a, struct api_job_req *r,
			 struct cli_regions *keep)
{
	const char *v;
	long long h;
	int rc;

	if ((v = OPT(a, "--max-total")) == NULL)
		return cli_usage(ctx, "%s", _("job: --max-total AMOUNT is required: the most the whole "
					      "job may cost, VAT included (e.g. --max-total 900)"));
	if ((rc = cli_parse_amount(ctx, "job", "--max-total", v, &r->max_total_minor)) != CLI_OK)
		return rc;
	if ((v = OPT(a, "--hours")) != NULL) {
		if ((rc = cli_parse_int(ctx, "--hours", v, 1, MAX_HOURS, &h)) != CLI_OK)
			return rc;
		r->hours = (int)h;
	} else if (!fit_method_is_training(r->job->method)) {
		return cli_usage(ctx, "%s", _("job: --hours H is required for this method (how long to "
					      "rent the machines, 1 to 720); training takes the run's time"));
	}
	if ((v = OPT(a, "--region")) != NULL) {
		if ((rc = cli_regions_parse(ctx, "--region", v, 64, keep)) != CLI_OK)
			return rc;
		r->regions = (const char *const *)keep->v;
		r->n_regions = keep->n;
	}
	return CLI_OK;
}

/* ---- what the exchange compared ----------------------------------------------------------- */

static void alt_columns(struct cli_sheet *s)
{
	cli_sheet_column(s, "gpu", _("GPU"), CLI_LEFT);
	cli_sheet_column_for(s, "chosen", _("Chosen"), CLI_LEFT, CLI_SHOW_ALL);
	cli_sheet_column(s, "runnable", _("Runs now"), CLI_LEFT);
	cli_sheet_column_for(s, "machines", _("Machines"), CLI_LEFT, CLI_SHOW_TABLE);
	cli_sheet_column_for(s, "gpus", "gpus", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "node_gpus", "node_gpus", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "nodes", "nodes", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "interconnect", "interconnect", CLI_LEFT, CLI_SHOW_DATA);
	cli_sheet_column(s, "hours", _("Hours"), CLI_RIGHT);
	cli_sheet_column(s, "total_minor", _("Total"), CLI_RIGHT);
	cli_sheet_column_for(s, "currency", "currency", CLI_LEFT, CLI_SHOW_DATA);
	cli_sheet_column(s, "reason", _("Why"), CLI_LEFT);
	cli_sheet_column_for(s, "fit_model_version", "fit_model_version", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "order_id", "order_id", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "status", "status", CLI_LEFT, CLI_SHOW_DATA);
}

static void int_cell(struct cli_sheet *s, const struct cli_ctx *ctx, int64_t v)
{
	if (v >= 0)
		cli_cell_int(s, ctx, v);
	else
		cli_sheet_null(s, ctx->ascii ? "-" : "\u2014");
}

static void alt_row(struct cli_sheet *s, const struct cli_ctx *ctx, const struct api_job_alt *x,
		    const struct api_job *j, const char *ccy, const struct api_order *placed)
{
	bool chosen = j != NULL && j->gpu != NULL && strcmp(j->gpu, x->gpu) == 0;
	char *m = view_fmt_job_alt_machines(ctx->lang, x);
	const char *why = x->reason != NULL ? x->reason : chosen ? _("the cheapest") : "";

	cli_sheet_row(s);
	cli_sheet_text(s, cli_gpu_name(ctx, x->gpu), x->gpu);
	cli_sheet_bool(s, chosen ? "\u2192" : "", chosen);
	cli_sheet_bool(s, x->runnable ? _("yes") : _("no"), x->runnable);
	cli_sheet_text(s, m, m);
	free(m);
	int_cell(s, ctx, x->gpus);
	int_cell(s, ctx, x->node_gpus);
	int_cell(s, ctx, x->nodes);
	x->interconnect != NULL ? cli_sheet_text(s, NULL, x->interconnect) : cli_sheet_null(s, NULL);
	int_cell(s, ctx, x->hours);
	if (x->total_minor >= 0 && ccy != NULL)
		cli_cell_money(s, ctx, x->total_minor, ccy);
	else
		cli_sheet_null(s, ctx->ascii ? "-" : "\u2014");
	ccy != NULL ? cli_sheet_text(s, NULL, ccy) : cli_sheet_null(s, NULL);
	cli_sheet_text(s, why, why);
	if (j != NULL)
		cli_sheet_int(s, NULL, j->fit_model_version);
	else
		cli_sheet_null(s, NULL);
	if (chosen && placed != NULL) {
		cli_sheet_int(s, NULL, placed->id);
		cli_sheet_text(s, NULL, api_order_status_name(placed->status));
	} else {
		cli_sheet_null(s, NULL);
		cli_sheet_null(s, NULL);
	}
}

/* The GPUs compared (alts), with j's frame when there is one. */
static int print_alts(struct cli_ctx *ctx, const struct api_job *j, const struct api_job_alt *alts,
		      size_t n, const char *ccy, const struct api_order *placed)
{
	struct cli_sheet *s = cli_sheet_new();
	int rc;

	alt_columns(s);
	for (size_t i = 0; i < n; i++)
		alt_row(s, ctx, &alts[i], j, ccy, placed);
	cli_sheet_note(s, _("Totals: every GPU-hour of the job with VAT, in your account's currency, "
			    "from the cheapest machines that can run it now."));
	rc = cli_sheet_print(ctx, s) == 0 ? CLI_OK : CLI_FAILED;
	cli_sheet_free(&s);
	return rc;
}

/* ---- preview, confirm, place ---------------------------------------------------------------- */

/* A refusal (the preview's would_reject, or the place's error) in words. */
static int refused(struct cli_ctx *ctx, const char *code, const char *message)
{
	char *w = view_refusal_text(ctx->lang, code, message, NULL);
	int rc = cli_fail(ctx, "%s [%s]", w, code);

	free(w);
	return rc;
}

/* The preview in words (table format): the summary, what it would take. */
static void say_preview(struct cli_ctx *ctx, const struct api_job *j)
{
	char *t = view_job_summary(ctx->lang, ctx->catalog, j);

	cli_say_lines(ctx, t);
	free(t);
	if (j->preview != NULL && j->preview->n_fills > 0) {
		char *lots = view_fmt_fill_lots(ctx->lang, j->preview);
		if (lots[0] != '\0') {
			cli_say(ctx, "%s", _("From these machines:"));
			cli_say_lines(ctx, lots);
		}
		free(lots);
	}
}

static int place(struct cli_ctx *ctx, struct api_client *c, struct api_job_req *r,
		 const struct api_job *pv)
{
	struct api_job *j = NULL;
	struct api_error *e = NULL;
	char *coid = api_client_order_id_new();
	int rc;

	r->client_order_id = coid;
	if (api_job_place(c, r, &j, &e) != 0) {
		if (e->n_alternatives > 0 && ctx->format == CLI_FORMAT_TABLE)
			print_alts(ctx, NULL, e->alternatives, e->n_alternatives, pv->currency, NULL);
		if (e->code != NULL && e->kind == API_ERR_HTTP)
			rc = refused(ctx, e->code, e->message);
		else
			rc = cli_fail_api(ctx, e);
		if (e->kind == API_ERR_UNKNOWN_OUTCOME)
			cli_note(ctx, _("to check: gpux orders --format csv | grep %s"), coid);
	} else if (ctx->format != CLI_FORMAT_TABLE) {
		rc = print_alts(ctx, j->n_alternatives > 0 ? j : pv,
				j->n_alternatives > 0 ? j->alternatives : pv->alternatives,
				j->n_alternatives > 0 ? j->n_alternatives : pv->n_alternatives,
				j->currency != NULL ? j->currency : pv->currency, j->order);
	} else {
		char *t = view_order_result(ctx->lang, cli_gpu_name(ctx, j->order->gpu), j->order);
		cli_say(ctx, "%s", "");
		cli_say_lines(ctx, t);
		free(t);
		rc = j->order->filled_gpus > 0 ? CLI_OK : CLI_FAILED;
	}
	r->client_order_id = NULL;
	free(coid);
	api_job_free(&j);
	api_error_free(&e);
	return rc;
}

int cli_cmd_job(struct cli_ctx *ctx, int argc, char **argv)
{
	const struct catalog_model *preset = NULL;
	struct catalog_model config = {0};
	struct cli_regions regions = {0};
	struct api_client *c = NULL;
	struct api_job *pv = NULL;
	struct api_error *e = NULL;
	struct api_job_req r = {0};
	struct fit_job job;
	struct cli_args a;
	bool dry, yes;
	int rc;

	if ((rc = cli_args_parse(ctx, "job", cli_job_opts, argc, argv, 1, &a)) != CLI_OK)
		return rc;
	if ((a.n_pos == 0) == (OPT(&a, "--config") == NULL)) {
		rc = cli_usage(ctx, "%s", _("job: which model? a size, a preset or --config PATH (once), "
					    "e.g. gpux job llama-3.1-405b --method infer-fp8 --hours 24 "
					    "--max-total 900"));
		goto out;
	}
	if ((rc = cli_fit_job_build(ctx, &a, &job, &preset, &config)) != CLI_OK)
		goto out;
	r.job = &job;
	r.label = preset != NULL && strcmp(preset->id, "config") != 0 ? preset->id : NULL;
	if ((rc = build_request(ctx, &a, &r, &regions)) != CLI_OK)
		goto out;
	dry = OPT(&a, "--dry-run") != NULL;
	yes = OPT(&a, "--yes") != NULL;
	if (!dry && !yes && !isatty(STDIN_FILENO)) {
		rc = cli_usage(ctx, "%s", _("job: not on a terminal, so nobody can confirm: pass --yes "
					    "to place it, or --dry-run to see what it would take"));
		goto out;
	}
	if ((c = cli_open_client(ctx, 0, 0, false, NULL)) == NULL) {
		rc = CLI_FAILED;
		goto out;
	}
	if (api_job_preview(c, &r, &pv, &e) != 0) {
		if (e->code != NULL && strcmp(e->code, "UNKNOWN_FIELD") == 0 && e->field != NULL &&
		    strcmp(e->field, "job") == 0)
			rc = cli_fail(ctx, "%s", _("job: this exchange does not take job orders; gpux fit "
						   "shows what the job needs and gpux order buy GPU "
						   "--node-gpus G buys it"));
		else if ((rc = cli_fail_region(ctx, c, e)) == CLI_OK)
			rc = cli_fail_api(ctx, e);
		goto out;
	}
	if (ctx->format == CLI_FORMAT_TABLE || dry || !yes) {
		print_alts(ctx, pv, pv->alternatives, pv->n_alternatives, pv->currency, NULL);
		if (ctx->format == CLI_FORMAT_TABLE)
			say_preview(ctx, pv);
	}
	if (pv->reject_code != NULL)
		rc = refused(ctx, pv->reject_code, pv->reject_message);
	else if (dry)
		rc = CLI_OK;
	else if (!yes && !cli_confirm(ctx, _("Place this job order? [y/N]"))) {
		cli_note(ctx, "%s", _("not placed"));
		rc = CLI_FAILED;
	} else {
		rc = place(ctx, c, &r, pv);
	}
out:
	api_job_free(&pv);
	api_error_free(&e);
	api_client_free(&c);
	cli_regions_free(&regions);
	catalog_model_clear(&config);
	cli_args_free(&a);
	return rc;
}
