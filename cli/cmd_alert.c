/*
 * `gpux alert add|list|rm` — alerts the exchange keeps and fires by itself
 * (docs/API.md "Alerts"; a job alert's job is built as `gpux job` builds
 * it, cli_fit_job_build, from the same options) — and `gpux watch --alerts`, which follows the
 * account's events on the stream's account channel: each event once (the
 * stream drops an event number it delivered before, so reconnects and a
 * restart of the exchange show nothing twice), as a line in words, a csv row
 * or the event's JSON, and with --exec CMD run CMD with the event's JSON on
 * its standard input. It reconnects by itself (resuming after the last event
 * it had); it exits 1 when the stream cannot be had before it first goes
 * live, when the exchange refuses it (a revoked key: 401/403), or when it
 * stays lost for --give-up seconds.
 */
#include "cli/cli_int.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "util/util.h"
#include "view/view.h"

/* The price conditions' options, in enum api_when order. */
static const char *const price_opts[] = {
	"--ask-below", "--ask-above", "--bid-below", "--bid-above", "--last-below", "--last-above",
	"--spread-below", "--spread-above",
};
#define N_PRICE_OPTS (sizeof price_opts / sizeof price_opts[0])

/* ---- words and rows ---------------------------------------------------------------------- */

static char *alert_what(const struct cli_ctx *ctx, const struct api_alert *a)
{
	return view_alert_what(ctx->lang, a, a->gpu != NULL ? cli_gpu_name(ctx, a->gpu) : NULL);
}

static void alert_columns(struct cli_sheet *s)
{
	cli_sheet_column(s, "id", _("Alert"), CLI_RIGHT);
	cli_sheet_column_for(s, "what", _("Watches"), CLI_LEFT, CLI_SHOW_TABLE);
	cli_sheet_column_for(s, "when", "when", CLI_LEFT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "gpu", "gpu", CLI_LEFT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "price_cents", "price_cents", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "minutes", "minutes", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "rental_id", "rental_id", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "order_id", "order_id", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "rearm_cents", _("Re-arms after"), CLI_RIGHT, CLI_SHOW_ALL);
	cli_sheet_column_for(s, "model", "model", CLI_LEFT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "method", "method", CLI_LEFT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "hours", "hours", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "max_total_minor", "max_total_minor", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "rearm_minor", "rearm_minor", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "currency", "currency", CLI_LEFT, CLI_SHOW_DATA);
	cli_sheet_column(s, "state", _("State"), CLI_LEFT);
	cli_sheet_column(s, "fired_count", _("Fired"), CLI_RIGHT);
	cli_sheet_column(s, "last_fired_at", _("Last fired"), CLI_LEFT);
	cli_sheet_column(s, "expires_at", _("Expires"), CLI_LEFT);
	cli_sheet_column(s, "label", _("Label"), CLI_LEFT);
}

static void cell_opt_int(struct cli_sheet *s, int64_t v)
{
	if (v >= 0)
		cli_sheet_int(s, NULL, v);
	else
		cli_sheet_null(s, NULL);
}

static void text_or_null(struct cli_sheet *s, const char *v)
{
	if (v != NULL)
		cli_sheet_text(s, NULL, v);
	else
		cli_sheet_null(s, NULL);
}

/* An amount shown in the table only (its raw value has a column of its own). */
static void cell_money_shown(struct cli_sheet *s, const struct cli_ctx *ctx, int64_t minor,
			     const char *ccy)
{
	char *d = cli_fmt_money(ctx, minor, ccy);

	cli_sheet_null(s, d);
	free(d);
}

static void alert_row(struct cli_sheet *s, const struct cli_ctx *ctx, const struct api_alert *a)
{
	char *what = alert_what(ctx, a);

	cli_sheet_row(s);
	cli_cell_id(s, a->id);
	cli_sheet_text(s, what, what);
	cli_sheet_text(s, NULL, api_when_name(a->when));
	if (a->gpu != NULL)
		cli_sheet_text(s, NULL, a->gpu);
	else
		cli_sheet_null(s, NULL);
	cell_opt_int(s, a->price_cents);
	cell_opt_int(s, a->minutes);
	cell_opt_int(s, a->rental_id);
	cell_opt_int(s, a->order_id);
	if (a->rearm_cents > 0)
		cli_cell_usd(s, ctx, a->rearm_cents);
	else if (a->rearm_minor > 0 && a->currency != NULL)
		cell_money_shown(s, ctx, a->rearm_minor, a->currency);
	else
		cli_sheet_null(s, C_("alert rearm", "once"));
	text_or_null(s, a->job_model);
	text_or_null(s, a->job_method);
	cell_opt_int(s, a->hours);
	cell_opt_int(s, a->max_total_minor);
	cell_opt_int(s, a->rearm_minor);
	text_or_null(s, a->currency);
	cli_sheet_text(s, view_alert_state_text(ctx->lang, a->state), api_alert_state_name(a->state));
	cli_cell_int(s, ctx, a->fired_count);
	cli_cell_time(s, ctx, a->last_fired_at);
	cli_cell_time(s, ctx, a->expires_at);
	if (a->label != NULL)
		cli_sheet_text(s, a->label, a->label);
	else
		cli_sheet_null(s, NULL);
	free(what);
}

/* ---- gpux alert add -------------------------------------------------------------------------- */

/* What a job alert's request points at, kept until it is sent. */
struct job_keep {
	struct fit_job job;
	struct catalog_model config;
	struct cli_regions regions;
};

static void job_keep_free(struct job_keep *k)
{
	catalog_model_clear(&k->config);
	cli_regions_free(&k->regions);
}

/* The first option given that only a job alert takes (gpux job's job
 * options, --hours, --region), or NULL. */
static const char *job_option(const struct cli_args *a)
{
	for (const struct cli_opt *o = cli_job_opts; o->name != NULL; o++)
		if (cli_arg(a, cli_alert_opts, o->name) != NULL)
			return o->name;
	return NULL;
}

/* --job-total-below AMOUNT with its job (built as gpux job builds it from
 * the model, a->pos[1] or --config, and the same options), hours and
 * regions, into r. */
static int add_job(struct cli_ctx *ctx, const struct cli_args *a, struct api_alert_req *r,
		   struct job_keep *k)
{
	struct cli_args m = *a;
	const struct catalog_model *preset = NULL;
	const char *v;
	long long h;
	int rc;

	m.pos = a->pos + 1;   /* the model after "add", as gpux job takes it */
	m.n_pos = a->n_pos - 1;
	if ((m.n_pos == 0) == (cli_arg(a, cli_alert_opts, "--config") == NULL))
		return cli_usage(ctx, "%s", _("alert add: --job-total-below watches a job: give its model "
					      "once (a size, a preset or --config PATH), e.g. gpux alert "
					      "add llama-3.1-405b --method infer-fp8 --hours 24 "
					      "--job-total-below 900"));
	if ((rc = cli_fit_job_build(ctx, &m, &k->job, &preset, &k->config)) != CLI_OK)
		return rc;
	r->job = &k->job;
	r->job_label = preset != NULL && strcmp(preset->id, "config") != 0 ? preset->id : NULL;
	if ((rc = cli_parse_amount(ctx, "alert add", "--job-total-below",
				   cli_arg(a, cli_alert_opts, "--job-total-below"),
				   &r->max_total_minor)) != CLI_OK)
		return rc;
	if ((v = cli_arg(a, cli_alert_opts, "--hours")) != NULL) {
		if ((rc = cli_parse_int(ctx, "--hours", v, 1, 720, &h)) != CLI_OK)
			return rc;
		r->hours = (int)h;
	} else if (!fit_method_is_training(k->job.method)) {
		return cli_usage(ctx, "%s", _("alert add: --hours H is required for this method (how long "
					      "the job rents the machines, 1 to 720); training takes the "
					      "run's time"));
	}
	if ((v = cli_arg(a, cli_alert_opts, "--region")) != NULL) {
		if ((rc = cli_regions_parse(ctx, "--region", v, 64, &k->regions)) != CLI_OK)
			return rc;
		r->regions = (const char *const *)k->regions.v;
		r->n_regions = k->regions.n;
	}
	return CLI_OK;
}

/* The one condition given, into r; CLI_OK or a usage message. */
static int add_condition(struct cli_ctx *ctx, const struct cli_args *a, struct api_alert_req *r,
			 const char **gpu_arg, struct job_keep *k)
{
	const char *which = NULL, *v;
	int n = 0, rc = CLI_OK;
	long long m;

	for (size_t i = 0; i < N_PRICE_OPTS; i++) {
		if (cli_arg(a, cli_alert_opts, price_opts[i]) != NULL) {
			which = price_opts[i];
			r->when = (enum api_when)i;
			n++;
		}
	}
	if ((v = cli_arg(a, cli_alert_opts, "--rental-ending")) != NULL) {
		which = "--rental-ending";
		r->when = API_WHEN_RENTAL_ENDING;
		n++;
		if ((rc = cli_parse_int(ctx, "--rental-ending", v, 1, 10080, &m)) != CLI_OK)
			return rc;
		r->minutes = (int)m;
	}
	if (cli_arg(a, cli_alert_opts, "--order-filled") != NULL) {
		which = "--order-filled";
		r->when = API_WHEN_ORDER_FILLED;
		n++;
	}
	if (cli_arg(a, cli_alert_opts, "--job-total-below") != NULL) {
		which = "--job-total-below";
		r->when = API_WHEN_JOB_TOTAL_LTE;
		n++;
	}
	if (n != 1)
		return cli_usage(ctx, "%s", _("alert add: give one condition: --ask-below PRICE, "
					      "--ask-above, --bid-below, --bid-above, --last-below, "
					      "--last-above, --spread-below, --spread-above, "
					      "--rental-ending MINUTES, --order-filled or "
					      "--job-total-below AMOUNT"));
	if (r->when != API_WHEN_JOB_TOTAL_LTE && (v = job_option(a)) != NULL)
		return cli_usage(ctx, _("alert add: %s goes with --job-total-below (a job alert)"), v);
	if (r->when == API_WHEN_JOB_TOTAL_LTE) {
		*gpu_arg = NULL;
		return add_job(ctx, a, r, k);
	}
	if (api_when_is_price(r->when)) {
		if (*gpu_arg == NULL)
			return cli_usage(ctx, _("alert add: %s watches one GPU: e.g. gpux alert add h200 "
						"%s 4.10"), which, which);
		if ((rc = cli_check_gpu(ctx, "alert add", *gpu_arg, &r->gpu)) != CLI_OK)
			return rc;
		if (cli_parse_price(ctx, which, cli_arg(a, cli_alert_opts, which), &r->price_cents) !=
		    CLI_OK)
			return CLI_USAGE;
	} else if (*gpu_arg != NULL) {
		return cli_usage(ctx, _("alert add: %s is not about one GPU; give no GPU"), which);
	}
	return CLI_OK;
}

/* The options that go with the condition, into r. */
static int add_extras(struct cli_ctx *ctx, const struct cli_args *a, struct api_alert_req *r)
{
	const char *v;
	int rc = CLI_OK;

	if ((v = cli_arg(a, cli_alert_opts, "--rearm")) != NULL && r->when == API_WHEN_JOB_TOTAL_LTE) {
		if ((rc = cli_parse_amount(ctx, "alert add", "--rearm", v, &r->rearm_minor)) != CLI_OK)
			return rc;
	} else if (v != NULL) {
		if (!api_when_is_price(r->when))
			return cli_usage(ctx, "%s", _("alert add: --rearm goes with a price condition or "
						      "--job-total-below"));
		if (cli_parse_price(ctx, "--rearm", v, &r->rearm_cents) != CLI_OK)
			return CLI_USAGE;
	}
	if ((v = cli_arg(a, cli_alert_opts, "--rental")) != NULL) {
		if (r->when != API_WHEN_RENTAL_ENDING)
			return cli_usage(ctx, "%s", _("alert add: --rental goes with --rental-ending"));
		if ((rc = cli_parse_id(ctx, "--rental", v, &r->rental_id)) != CLI_OK)
			return rc;
	}
	if ((v = cli_arg(a, cli_alert_opts, "--order")) != NULL) {
		if (r->when != API_WHEN_ORDER_FILLED)
			return cli_usage(ctx, "%s", _("alert add: --order goes with --order-filled"));
		if ((rc = cli_parse_id(ctx, "--order", v, &r->order_id)) != CLI_OK)
			return rc;
	}
	if ((v = cli_arg(a, cli_alert_opts, "--expires")) != NULL &&
	    (rc = cli_parse_time(ctx, "--expires", v, &r->expires_at)) != CLI_OK)
		return rc;
	r->label = cli_arg(a, cli_alert_opts, "--label");
	return CLI_OK;
}

static int alert_fail(struct cli_ctx *ctx, const struct api_alert_req *r, const struct api_error *e)
{
	const char *code = e->code != NULL ? e->code : "";
	const char *field = e->field != NULL ? e->field : "";

	if (strcmp(code, "TOO_MANY_ALERTS") == 0)
		return cli_fail(ctx, "%s", _("alert add: your account has as many live alerts as it may "
					     "(100); remove one first (gpux alert list, gpux alert rm)"));
	if (strcmp(code, "TOO_MANY_JOB_ALERTS") == 0)
		return cli_fail(ctx, "%s", _("alert add: your account has as many live job alerts as it "
					     "may (10); remove one first (gpux alert list, gpux alert rm)"));
	if (strcmp(code, "JOB_NOT_RUNNABLE") == 0)
		return cli_fail(ctx, "%s", _("alert add: no GPU can run this job, whatever the books hold "
					     "(gpux fit shows what it needs), so the alert could never "
					     "fire"));
	if (r->when == API_WHEN_JOB_TOTAL_LTE && strcmp(code, "BAD_VALUE") == 0 &&
	    strcmp(field, "when") == 0)
		return cli_fail(ctx, "%s", _("alert add: this exchange does not keep job alerts"));
	return cli_fail_api(ctx, e);
}

static int alert_add(struct cli_ctx *ctx, struct api_client *c, const struct cli_args *a)
{
	struct api_alert_req r = {.expires_at = -1};
	const char *gpu_arg = a->n_pos > 1 ? a->pos[1] : NULL;
	struct api_alert *al = NULL;
	struct api_error *e = NULL;
	struct job_keep k = {0};
	int rc;

	if (a->n_pos > 2)
		return cli_usage(ctx, "%s", _("alert add: too many arguments; e.g. gpux alert add h200 "
					      "--ask-below 4.10"));
	if ((rc = add_condition(ctx, a, &r, &gpu_arg, &k)) != CLI_OK ||
	    (rc = add_extras(ctx, a, &r)) != CLI_OK || api_alert_create(c, &r, &al, &e) != 0) {
		if (rc == CLI_OK)
			rc = alert_fail(ctx, &r, e);
		api_error_free(&e);
		job_keep_free(&k);
		return rc;
	}
	job_keep_free(&k);
	if (ctx->format == CLI_FORMAT_TABLE) {
		char *what = alert_what(ctx, al);
		if (al->state == API_ALERT_ARMED)
			cli_say(ctx, _("Alert %lld: %s. The exchange watches it and tells you on gpux watch "
				       "--alerts."), (long long)al->id, what);
		else
			cli_say(ctx, _("Alert %lld: %s — it holds already: it fired now (gpux watch "
				       "--alerts, gpux alert list)."), (long long)al->id, what);
		free(what);
	} else {
		struct cli_sheet *s = cli_sheet_new();
		alert_columns(s);
		alert_row(s, ctx, al);
		cli_sheet_print(ctx, s);
		cli_sheet_free(&s);
	}
	api_alert_free(&al);
	return CLI_OK;
}

/* ---- gpux alert list, rm -------------------------------------------------------------------- */

static int alert_list(struct cli_ctx *ctx, struct api_client *c)
{
	struct cli_sheet *s = cli_sheet_new();
	char *cursor = NULL;
	int64_t live = 0, max = 0;
	bool jobs = false;
	int rc = CLI_OK;

	alert_columns(s);
	do {
		struct api_alerts *l = NULL;
		struct api_error *e = NULL;
		if (api_alerts_list(c, cursor, 200, &l, &e) != 0) {
			rc = cli_fail_api(ctx, e);
			api_error_free(&e);
			break;
		}
		for (size_t i = 0; i < l->n; i++) {
			alert_row(s, ctx, &l->v[i]);
			jobs = jobs || l->v[i].when == API_WHEN_JOB_TOTAL_LTE;
		}
		live = l->live;
		max = l->max;
		free(cursor);
		cursor = l->next_cursor != NULL ? xstrdup(l->next_cursor) : NULL;
		api_alerts_free(&l);
	} while (cursor != NULL);
	free(cursor);
	if (rc == CLI_OK && cli_sheet_rows(s) == 0 && ctx->format == CLI_FORMAT_TABLE) {
		cli_note(ctx, "%s", _("no alerts (gpux alert add h200 --ask-below 4.10)"));
	} else if (rc == CLI_OK) {
		char *note = xasprintf(_("%lld of at most %lld alerts are live; prices per GPU-hour, "
					 "before tax."), (long long)live, (long long)max);
		cli_sheet_note(s, note);
		free(note);
		if (jobs)
			cli_sheet_note(s, _("A job alert's total is what gpux job would pay for the whole job, "
					    "in your account's currency, VAT included."));
		rc = cli_sheet_print(ctx, s) == 0 ? CLI_OK : CLI_FAILED;
	}
	cli_sheet_free(&s);
	return rc;
}

static int alert_rm(struct cli_ctx *ctx, struct api_client *c, const struct cli_args *a)
{
	int rc = CLI_OK;

	if (a->n_pos < 2)
		return cli_usage(ctx, "%s", _("alert rm: which alert? e.g. gpux alert rm 12 (the ids are "
					      "in gpux alert list)"));
	for (size_t i = 1; i < a->n_pos; i++) {
		int64_t id;
		if (cli_parse_id(ctx, "alert rm", a->pos[i], &id) != CLI_OK)
			return CLI_USAGE;
	}
	for (size_t i = 1; i < a->n_pos; i++) {
		struct api_alert *al = NULL;
		struct api_error *e = NULL;
		int64_t id;
		cli_parse_id(ctx, "alert rm", a->pos[i], &id);
		if (api_alert_delete(c, id, &al, &e) != 0) {
			if (e->code != NULL && strcmp(e->code, "NOT_FOUND") == 0)
				rc = cli_fail(ctx, _("alert rm: your account has no alert %lld (see gpux "
						     "alert list)"), (long long)id);
			else
				rc = cli_fail_api(ctx, e);
			api_error_free(&e);
			continue;
		}
		if (ctx->format == CLI_FORMAT_TABLE)
			cli_say(ctx, _("Alert %lld removed."), (long long)id);
		else if (ctx->format == CLI_FORMAT_JSON)
			fprintf(ctx->out, "{\"id\":%lld,\"deleted\":true}\n", (long long)id);
		else
			fprintf(ctx->out, "%lld,deleted\n", (long long)id);
		api_alert_free(&al);
	}
	return rc;
}

int cli_cmd_alert(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	struct api_client *c = NULL;
	const char *sub;
	int rc;

	if ((rc = cli_args_parse(ctx, "alert", cli_alert_opts, argc, argv, 64, &a)) != CLI_OK)
		return rc;
	sub = a.n_pos > 0 ? a.pos[0] : "list";
	if (strcmp(sub, "add") != 0 && strcmp(sub, "list") != 0 && strcmp(sub, "rm") != 0) {
		rc = cli_usage(ctx, _("alert: \"%s\" is not something alert does; accepted: add, list, "
				      "rm ID"), sub);
	} else if (strcmp(sub, "list") == 0 && a.n_pos > 1) {
		rc = cli_usage(ctx, "%s", _("alert list: too many arguments"));
	} else if ((c = cli_acct_open(ctx, NULL)) == NULL) {
		rc = CLI_FAILED;
	} else if (strcmp(sub, "add") == 0) {
		rc = alert_add(ctx, c, &a);
	} else if (strcmp(sub, "list") == 0) {
		rc = alert_list(ctx, c);
	} else {
		rc = alert_rm(ctx, c, &a);
	}
	api_client_free(&c);
	cli_args_free(&a);
	return rc;
}

/* ---- gpux watch --alerts ------------------------------------------------------------------- */


struct awatch {
	struct cli_ctx *ctx;
	const char *exec;
	long long count, shown, give_up_s;
	bool ever_live, live, failed;
	int64_t lost_at;             /* when it stopped being live (util_now_ms), 0: live */
	char *why;                   /* the failure that ends it */
};

/* Run CMD with the event's JSON on its standard input; wait for it. */
static void run_exec(struct awatch *w, const struct api_account_event *e)
{
	int fds[2];
	pid_t pid;
	int status;

	fflush(w->ctx->out);
	if (pipe(fds) != 0) {
		cli_note(w->ctx, _("--exec: cannot make a pipe: %s"), strerror(errno));
		return;
	}
	if ((pid = fork()) < 0) {
		cli_note(w->ctx, _("--exec: cannot start %s: %s"), w->exec, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		char id[24];
		snprintf(id, sizeof id, "%lld", (long long)e->id);
		setenv("GPUX_EVENT_ID", id, 1);
		setenv("GPUX_EVENT_KIND", e->kind, 1);
		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		signal(SIGPIPE, SIG_DFL);
		execl("/bin/sh", "sh", "-c", w->exec, (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	{
		void (*old)(int) = signal(SIGPIPE, SIG_IGN);   /* CMD may not read it all */
		size_t n = strlen(e->json);
		if (write(fds[1], e->json, n) != (ssize_t)n || write(fds[1], "\n", 1) != 1)
			(void)0;
		signal(SIGPIPE, old);
	}
	close(fds[1]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		cli_note(w->ctx, _("--exec: %s exited with %d for event %lld"), w->exec,
			 WEXITSTATUS(status), (long long)e->id);
	else if (WIFSIGNALED(status))
		cli_note(w->ctx, _("--exec: %s was killed by signal %d for event %lld"), w->exec,
			 WTERMSIG(status), (long long)e->id);
}

static void print_event(struct awatch *w, const struct api_account_event *e)
{
	struct cli_ctx *ctx = w->ctx;

	if (ctx->format == CLI_FORMAT_JSON) {
		fprintf(ctx->out, "%s\n", e->json);
	} else if (ctx->format == CLI_FORMAT_CSV) {
		char *at = cli_iso_time(e->at), *j = view_csv_field(e->json);
		char *g = view_csv_field(e->gpu != NULL ? e->gpu : ""), *k = view_csv_field(e->kind);
		fprintf(ctx->out, "%lld,%s,%s,%s,%s\n", (long long)e->id, at != NULL ? at : "", k, g, j);
		free(at);
		free(j);
		free(g);
		free(k);
	} else {
		const char *gn = e->gpu != NULL ? cli_gpu_name(ctx, e->gpu) : NULL;
		char *d = i18n_fmt_date(ctx->lang, e->at, I18N_UTC);
		char *t = view_account_event_text(ctx->lang, e, gn);
		char *line = xasprintf("%s  %s", d, t);
		if (ctx->ascii) {
			char *x = i18n_ascii(line);
			free(line);
			line = x;
		}
		fprintf(ctx->out, "%s\n", line);
		free(line);
		free(t);
		free(d);
	}
	fflush(ctx->out);
}

static void on_event(void *ud, const struct api_stream_event *ev)
{
	struct awatch *w = ud;

	if (ev->kind != API_EV_ACCOUNT || (w->count > 0 && w->shown >= w->count))
		return;
	print_event(w, ev->account);
	if (w->exec != NULL)
		run_exec(w, ev->account);
	w->shown++;
}

static void on_state(void *ud, enum api_stream_state st, const struct api_error *why)
{
	struct awatch *w = ud;
	char *t = why != NULL ? api_error_text(why) : NULL;
	bool refused = why != NULL && (why->http_status == 401 || why->http_status == 403);

	w->live = st == API_STREAM_LIVE;
	if (w->live) {
		if (w->ever_live)
			cli_note(w->ctx, "%s", _("the stream is live again"));
		w->ever_live = true;
		w->lost_at = 0;
	} else if (st == API_STREAM_RETRYING || st == API_STREAM_POLLING) {
		if (!w->ever_live || refused) {
			w->failed = true;
			free(w->why);
			w->why = t;
			t = NULL;
		} else {
			if (w->lost_at == 0)
				w->lost_at = util_now_ms();
			cli_note(w->ctx, _("reconnecting: %s"), t != NULL ? t : "?");
			free(w->why);
			w->why = t;
			t = NULL;
		}
	}
	free(t);
}

/* Lost for longer than --give-up allows? */
static bool given_up(const struct awatch *w)
{
	return w->ever_live && !w->live && w->lost_at != 0 &&
	       util_now_ms() - w->lost_at >= w->give_up_s * 1000;
}

static void alerts_loop(struct awatch *w, struct api_client *c, struct api_stream *st)
{
	while (!cli_watch_stop && !w->failed && !given_up(w) && (w->count == 0 || w->shown < w->count))
		cli_watch_step(c, st);
}

int cli_watch_alerts(struct cli_ctx *ctx, const struct cli_args *a, long long count)
{
	struct awatch w = {.ctx = ctx, .count = count, .give_up_s = 300};
	struct api_stream_opts o = {.channels = "account", .no_poll = true, .account_after = -1};
	struct api_client *c;
	struct api_stream *st;
	const char *v;
	int rc = CLI_OK;

	w.exec = cli_arg(a, cli_watch_opts, "--exec");
	if ((v = cli_arg(a, cli_watch_opts, "--give-up")) != NULL)
		rc = cli_parse_int(ctx, "--give-up", v, 1, 86400 * 365, &w.give_up_s);
	if (rc == CLI_OK && (v = cli_arg(a, cli_watch_opts, "--since")) != NULL) {
		long long n;
		if ((rc = cli_parse_int(ctx, "--since", v, 0, 9007199254740991LL, &n)) == CLI_OK) {
			o.account_resume = true;
			o.account_after = n;
		}
	}
	if (rc == CLI_OK && a->n_pos > 0)
		rc = cli_usage(ctx, "%s", _("watch --alerts follows your account's events; give no GPU"));
	if (rc != CLI_OK)
		return rc;
	if ((c = cli_acct_open(ctx, NULL)) == NULL)
		return CLI_FAILED;
	if (ctx->format == CLI_FORMAT_CSV) {
		fprintf(ctx->out, "id,at,kind,gpu,json\n");
		fflush(ctx->out);
	}
	cli_watch_signals();
	st = api_stream_open(c, &o, &(struct api_stream_cbs){.event = on_event, .state = on_state,
							      .ud = &w});
	alerts_loop(&w, c, st);
	if (w.failed && !w.ever_live) {
		rc = cli_fail(ctx, _("your account's events cannot be had: %s"), w.why ? w.why : "?");
	} else if (w.failed || given_up(&w)) {
		long long last = api_stream_account_last(st) > 0 ? api_stream_account_last(st) : 0;
		rc = cli_fail(ctx, _("the stream of your account's events is lost: %s (gpux watch "
				     "--alerts --since %lld goes on after the last event shown)"),
			      w.why ? w.why : "?", last);
	}
	api_stream_close(&st);
	api_client_free(&c);
	free(w.why);
	return rc;
}
