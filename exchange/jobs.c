/*
 * exchange/jobs.c — job orders (docs/API.md, "Job orders"): POST /v1/orders
 * and /v1/orders/preview with a fit job instead of a GPU and a count.
 *
 * The request: the job in the fit library's wire form (fit_job_from_fields:
 * the same fields, ranges and rules gpux writes them by), a budget in the
 * account's currency and optionally the hours and the regions. The writer
 * evaluates the job with fit_evaluate on every GPU of the catalogue, as gpux
 * does: the GPUs it needs there and their node shape (units of node_gpus
 * GPUs inside one machine, on the link the tensor parallelism needs), and
 * for training the run's hours. For each GPU it then asks the engine, in a
 * dry run of the very FOK order it would place, for the cheapest units that
 * can run the job in those regions for those hours; the cheapest runnable
 * GPU wins (catalogue order breaks a tie), and — after the budget and the
 * funds are checked — is placed as one FOK limit order at the dearest price
 * of those fills, whose requirements are those units: the same walk, so the
 * same fills. A job order is always FOK: it runs whole or leaves nothing.
 *
 * The request is kept with the order (the job's fields as canonical text,
 * the budget, the regions) for its replays, and so is the frame of the reply
 * (the fit model's version, the alternatives compared), so a replay answers
 * what the order was placed with, the order as it is now.
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit/fit.h"
#include "util/util.h"

/* ---- the request ---------------------------------------------------------------- */

static const char *const problem_codes[] = {
	[FIT_FE_NONE] = "BAD_VALUE",
	[FIT_FE_UNKNOWN_FIELD] = "UNKNOWN_FIELD",
	[FIT_FE_DUPLICATE_FIELD] = "DUPLICATE_FIELD",
	[FIT_FE_MISSING_FIELD] = "MISSING_FIELD",
	[FIT_FE_WRONG_TYPE] = "WRONG_TYPE",
	[FIT_FE_OUT_OF_RANGE] = "OUT_OF_RANGE",
	[FIT_FE_BAD_VALUE] = "BAD_VALUE",
	[FIT_FE_STRING_TOO_LONG] = "STRING_TOO_LONG",
	[FIT_FE_BAD_COMBINATION] = "BAD_COMBINATION",
};

/* A 400 naming "job.<name>" (or "job"). */
static cJSON *job_error(struct xd_reply *r, const char *code, const char *name, const char *msg)
{
	char field[96];
	snprintf(field, sizeof field, name ? "job.%s" : "job", name);
	cJSON *e = xd_reply_error(r, 400, code, "%s", msg);
	cJSON_AddStringToObject(e, "field", field);
	return e;
}

/* The members of the "job" object as the fit library's fields. Numbers must
 * be integers as written (the body parser marks any other literal NAN). */
static int job_fields(const cJSON *job, struct fit_field **out, int *n, struct xd_reply *r)
{
	*out = NULL;
	*n = 0;
	if (!cJSON_IsObject(job)) {
		job_error(r, "WRONG_TYPE", NULL, "\"job\" must be an object: the fit job's fields "
		          "(docs/API.md, \"Job body\")");
		return -1;
	}
	int count = cJSON_GetArraySize(job);
	struct fit_field *f = xcalloc(count > 0 ? (size_t)count : 1, sizeof *f);
	for (const cJSON *x = job->child; x; x = x->next) {
		/* an unknown or repeated member is named here, as the body's own are */
		bool known = false, twice = false;
		for (int i = 0; i < fit_job_field_count && !known; i++)
			known = strcmp(fit_job_fields[i].name, x->string) == 0;
		for (int i = 0; i < *n && !twice; i++)
			twice = strcmp(f[i].name, x->string) == 0;
		if (!known || twice) {
			char *safe = util_sanitize(x->string, 64, true);
			char *msg = xasprintf(twice ? "job field %s appears twice"
			                            : "job field %s is not a field of the job (docs/API.md, "
			                              "\"Job body\")", safe);
			job_error(r, twice ? "DUPLICATE_FIELD" : "UNKNOWN_FIELD", safe, msg);
			free(msg);
			free(safe);
			free(f);
			return -1;
		}
		struct fit_field *g = &f[(*n)++];
		g->name = x->string;
		if (cJSON_IsNumber(x)) {
			double d = x->valuedouble;
			if (!isfinite(d) || d != floor(d) || fabs(d) > 9007199254740992.0) {
				char *msg = xasprintf("job field %s must be a whole number", x->string);
				job_error(r, "NOT_INTEGER", x->string, msg);
				free(msg);
				free(f);
				return -1;
			}
			g->kind = FIT_FIELD_INT;
			g->i = (int64_t)d;
		} else if (cJSON_IsString(x)) {
			g->kind = FIT_FIELD_STRING;
			g->s = x->valuestring;
		} else if (cJSON_IsBool(x)) {
			g->kind = FIT_FIELD_BOOL;
			g->i = cJSON_IsTrue(x);
		} else {
			char *msg = xasprintf("job field %s must be an integer, a string or a boolean",
			                      x->string);
			job_error(r, "WRONG_TYPE", x->string, msg);
			free(msg);
			free(f);
			return -1;
		}
	}
	*out = f;
	return 0;
}

/* A 400 for the fit library's refusal p (cause: its English words). */
static void problem_reply(struct xd_reply *r, const struct fit_field_problem *p, const char *cause)
{
	cJSON *e = job_error(r, problem_codes[p->code], p->field, cause ? cause : "bad job");
	if (p->code == FIT_FE_OUT_OF_RANGE) {
		xd_jint(e, "min", p->min);
		xd_jint(e, "max", p->max);
	} else if (p->code == FIT_FE_STRING_TOO_LONG) {
		xd_jint(e, "max", p->max);
	}
}

static bool training(const struct fit_job *job)
{
	return job->method == FIT_FULL || job->method == FIT_LORA || job->method == FIT_QLORA;
}

int xd_parse_job_fields(const cJSON *b, const char *what, struct xd_order_in *o,
                        struct xd_reply *r)
{
	int64_t hours = 0;
	if (xd_body_int(b, "hours", false, 1, XD_HOURS_MAX, &hours, r) < 0)
		return -1;
	struct fit_field *f;
	int n;
	if (job_fields(cJSON_GetObjectItemCaseSensitive(b, "job"), &f, &n, r) != 0)
		return -1;
	struct fit_field_problem p = { 0 };
	char *cause = NULL;
	int rc = fit_job_from_fields(f, n, &o->fit, o->fit_label, sizeof o->fit_label, &p, &cause);
	free(f);
	if (rc != 0) {
		problem_reply(r, &p, cause);
		free(cause);
		return -1;
	}
	if (!training(&o->fit) && hours == 0) {
		xd_reply_field(r, "MISSING_FIELD", "hours", "%s for %s needs \"hours\" (only a "
		               "training run's are the fit's run time)", what,
		               fit_method_id(o->fit.method));
		return -1;
	}
	o->job_hours = (int32_t)hours;
	return 0;
}

int xd_parse_job(const struct xd_tables *t, const cJSON *b, struct xd_order_in *o,
                 struct xd_reply *r)
{
	static const char *const fields[] = { "client_order_id", "job", "side", "time_in_force",
	                                      "hours", "max_total_minor", "regions", NULL };
	int side, tif = ENG_FOK;
	int64_t max_total;
	if (xd_body_fields(b, fields, r) ||
	    xd_body_enum(b, "side", true, xd_side_names, &side, r) < 0 ||
	    xd_body_enum(b, "time_in_force", false, xd_tif_names, &tif, r) < 0 ||
	    /* hours is read with the job (xd_parse_job_fields), checked here in its turn */
	    xd_body_int(b, "hours", false, 1, XD_HOURS_MAX, &(int64_t){ 0 }, r) < 0 ||
	    xd_body_int(b, "max_total_minor", true, 1, XD_DEPOSIT_MAX, &max_total, r) < 0 ||
	    xd_parse_regions(t, b, &o->regions, r) < 0)
		return -1;
	if (side != ENG_BUY) {
		xd_reply_field(r, "BAD_COMBINATION", "side", "a job order buys: \"side\" is \"buy\"");
		return -1;
	}
	if (tif != ENG_FOK) {
		xd_reply_field(r, "BAD_COMBINATION", "time_in_force", "a job order is \"fok\": it "
		               "runs whole or leaves nothing");
		return -1;
	}
	if (xd_parse_job_fields(b, "a job order", o, r) != 0)
		return -1;
	o->is_job = true;
	o->side = ENG_BUY;
	o->type = XD_LIMIT;
	o->tif = ENG_FOK;
	o->gpu = -1;
	o->max_total = max_total;
	return 0;
}

char *xd_job_text(const struct xd_order_in *o)
{
	struct fit_field f[FIT_JOB_FIELDS_MAX];
	int n = fit_job_to_fields(&o->fit, o->fit_label[0] ? o->fit_label : NULL, f,
	                          FIT_JOB_FIELDS_MAX);
	struct buf b = { 0 };
	for (int i = 0; i < n; i++) {
		if (f[i].kind == FIT_FIELD_INT || f[i].kind == FIT_FIELD_BOOL)
			buf_printf(&b, "%s=%" PRId64 ";", f[i].name, f[i].i);
		else
			buf_printf(&b, "%s=%s;", f[i].name, f[i].s ? f[i].s : "");
	}
	if (o->job_hours > 0)
		buf_printf(&b, "hours=%d", o->job_hours);
	else
		buf_printf(&b, "hours=-");
	return buf_take(&b);
}

bool xd_job_from_text(const char *text, struct xd_order_in *o)
{
	struct fit_field f[FIT_JOB_FIELDS_MAX];
	char *copy = xstrdup(text), *save = NULL;
	int n = 0;
	int64_t hours = -1;
	bool ok = true;
	for (char *part = strtok_r(copy, ";", &save); part && ok; part = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(part, '=');
		ok = eq != NULL;
		if (!ok)
			break;
		*eq = 0;
		const char *v = eq + 1;
		if (strcmp(part, "hours") == 0) {
			hours = strcmp(v, "-") == 0 ? 0 : atoll(v);
			continue;
		}
		const struct fit_field_spec *spec = NULL;
		for (int i = 0; i < fit_job_field_count && !spec; i++)
			if (strcmp(fit_job_fields[i].name, part) == 0)
				spec = &fit_job_fields[i];
		ok = spec && n < FIT_JOB_FIELDS_MAX;
		if (!ok)
			break;
		f[n] = (struct fit_field){ .name = spec->name };
		if (spec->kind == FIT_FIELD_INT || spec->kind == FIT_FIELD_BOOL) {
			f[n].kind = spec->kind;
			f[n].i = atoll(v);
		} else {
			f[n].kind = FIT_FIELD_STRING;
			f[n].s = v;
		}
		n++;
	}
	struct fit_field_problem p = { 0 };
	char *cause = NULL;
	ok = ok && hours >= 0 &&
	     fit_job_from_fields(f, n, &o->fit, o->fit_label, sizeof o->fit_label, &p, &cause) == 0;
	free(cause);
	free(copy);
	if (ok)
		o->job_hours = (int32_t)hours;
	return ok;
}

cJSON *xd_job_json(const struct xd_order_in *o)
{
	struct fit_field f[FIT_JOB_FIELDS_MAX];
	int n = fit_job_to_fields(&o->fit, o->fit_label[0] ? o->fit_label : NULL, f,
	                          FIT_JOB_FIELDS_MAX);
	cJSON *j = cJSON_CreateObject();
	for (int i = 0; i < n; i++) {
		if (f[i].kind == FIT_FIELD_INT)
			xd_jint(j, f[i].name, f[i].i);
		else if (f[i].kind == FIT_FIELD_BOOL)
			cJSON_AddBoolToObject(j, f[i].name, f[i].i != 0);
		else
			cJSON_AddStringToObject(j, f[i].name, f[i].s ? f[i].s : "");
	}
	return j;
}

/* ---- the alternatives ------------------------------------------------------------- */

static const char *link_words(int link)
{
	return link == ENG_LINK_NVLINK ? "NVLink" : link == ENG_LINK_IF ? "Infinity Fabric"
	     : link == ENG_LINK_PCIE ? "PCIe" : NULL;
}

/* "3 nodes of 8 (NVLink)", "1 node of 4", "4 GPUs", "1 GPU". */
static char *units_words(int32_t units, int32_t g, int link)
{
	if (g <= 1)
		return xasprintf("%d GPU%s", units, units == 1 ? "" : "s");
	const char *l = link_words(link);
	return xasprintf("%d node%s of %d%s%s%s", units, units == 1 ? "" : "s", g, l ? " (" : "",
	                 l ? l : "", l ? ")" : "");
}

static int link_of(enum fit_interconnect i)
{
	return i == FIT_LINK_NVLINK ? ENG_LINK_NVLINK : i == FIT_LINK_INFINITY_FABRIC ? ENG_LINK_IF
	                                                                           : ENG_LINK_ANY;
}

/* The engine's order for alternative a on the book of a GPU. */
static void alt_order(const struct xd_job_alt *a, int64_t account, uint64_t regions,
                      enum eng_tif tif, struct eng_order *e)
{
	*e = (struct eng_order){
		.id = INT64_MAX, .account = account, .side = ENG_BUY, .tif = tif,
		.price_cents = XD_PRICE_MAX, .gpus = a->gpus, .hours = a->hours,
		.node_gpus = a->node_gpus, .link = (uint8_t)a->link, .regions = regions,
	};
}

void xd_job_alt_clear(struct xd_job_alt *a)
{
	free(a->reason);
	*a = (struct xd_job_alt){ 0 };
}

void xd_jobs_fit(const struct xd_tables *t, const struct xd_order_in *in, int g,
                 struct xd_job_alt *a)
{
	struct fit_result res;
	xd_job_alt_clear(a);
	fit_evaluate(&in->fit, &t->fit_gpus[g], &res);
	if (res.gpus_run <= 0) {
		a->reason = xstrdup(res.gpus_needed < 0 ? "its memory is not published"
		                                        : "the job does not fit on it");
		return;
	}
	a->shaped = true;
	a->node_gpus = res.shape.node_gpus > 0 ? res.shape.node_gpus : 1;
	a->nodes = res.shape.nodes > 0 ? res.shape.nodes : res.gpus_run / a->node_gpus;
	a->gpus = a->node_gpus * a->nodes;
	a->link = res.shape.link_needed ? link_of(res.shape.interconnect) : ENG_LINK_ANY;
	if (in->job_hours > 0) {
		a->hours = in->job_hours;
	} else if (training(&in->fit) && isfinite(res.train_hours) && res.train_hours >= 0) {
		double h = ceil(res.train_hours - 1e-9);
		a->hours = h < 1 ? 1 : h > XD_HOURS_MAX + 1 ? XD_HOURS_MAX + 1 : (int32_t)h;
	} else {
		a->reason = xstrdup("its run time is not known (no published BF16 throughput): "
		                    "give \"hours\"");
		return;
	}
	if (a->gpus > XD_GPUS_MAX) {
		a->reason = xasprintf("needs %d GPUs; an order takes at most %d", a->gpus, XD_GPUS_MAX);
		return;
	}
	if (a->hours > XD_HOURS_MAX) {
		a->reason = xasprintf("the run takes more than %d hours, the most an order takes",
		                      XD_HOURS_MAX);
		return;
	}
	a->fits = true;
}

void xd_jobs_price(struct xd_writer *w, const struct xd_order_in *in, int cur, int32_t vat_bp,
                   int64_t account, int g, struct xd_job_alt *a)
{
	free(a->reason);
	a->reason = NULL;
	a->runnable = false;
	a->total = a->price = 0;
	struct eng_order e;
	alt_order(a, account, in->regions, ENG_FOK, &e);
	eng_fills_reset(&w->fills);
	if (engine_submit(w->eng, (size_t)g, &e, true, &w->fills) < a->gpus) {
		alt_order(a, account, in->regions, ENG_IOC, &e);
		int32_t have = engine_submit(w->eng, (size_t)g, &e, true, NULL) / a->node_gpus;
		char *need = units_words(a->nodes, a->node_gpus, a->link);
		a->reason = xasprintf("needs %s; the book has %d", need, have);
		free(need);
		return;
	}
	for (size_t i = 0; i < w->fills.n; i++) {
		const struct eng_fill *f = &w->fills.v[i];
		int64_t nu = xd_fx_net_unit(w, cur, f->price_cents);
		a->total += (int64_t)f->gpus * f->hours * (nu + exchange_vat_unit(nu, vat_bp));
		if (f->price_cents > a->price)
			a->price = f->price_cents;
	}
	a->runnable = true;
}

/* Evaluate the job on GPU g and price it from the book (w's copy of it). */
static void evaluate(struct xd_writer *w, const struct xd_order_in *in, const struct xd_acct *acc,
                     int64_t account, int g, struct xd_job_alt *a)
{
	xd_jobs_fit(w->t, in, g, a);
	if (!a->fits)
		return;
	w->nodes->peek_book(w, g);
	xd_jobs_price(w, in, acc->cur, acc->vat_bp, account, g, a);
}

/* Evaluate every GPU; the cheapest runnable one, or -1. */
static int evaluate_all(struct xd_writer *w, const struct xd_order_in *in,
                        const struct xd_acct *acc, int64_t account, struct xd_job_alt *alts)
{
	int best = -1;
	for (size_t g = 0; g < w->t->n_gpus; g++) {
		evaluate(w, in, acc, account, (int)g, &alts[g]);
		if (alts[g].runnable && (best < 0 || alts[g].total < alts[best].total))
			best = (int)g;
	}
	for (size_t g = 0; best >= 0 && g < w->t->n_gpus; g++)
		if (alts[g].runnable && (int)g != best)
			alts[g].reason = xstrdup("costs more");
	return best;
}

cJSON *xd_jobs_alts_json(const struct xd_tables *t, const struct xd_job_alt *alts)
{
	cJSON *arr = cJSON_CreateArray();
	for (size_t g = 0; g < t->n_gpus; g++) {
		const struct xd_job_alt *a = &alts[g];
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "gpu", t->gpu_ids[g]);
		cJSON_AddBoolToObject(x, "runnable", a->runnable);
		xd_jstr(x, "reason", a->reason);
		xd_jint_or_null(x, "gpus", a->gpus, a->shaped);
		xd_jint_or_null(x, "node_gpus", a->node_gpus, a->shaped);
		xd_jint_or_null(x, "nodes", a->nodes, a->shaped);
		xd_jstr(x, "interconnect", a->shaped && a->link != ENG_LINK_ANY ? xd_link_names[a->link]
		                                                             : NULL);
		xd_jint_or_null(x, "hours", a->hours, a->hours > 0);
		xd_jint_or_null(x, "total_minor", a->total, a->runnable);
		cJSON_AddItemToArray(arr, x);
	}
	return arr;
}

/* The order alternative `best` places (or previews). */
static void chosen_order(const struct xd_order_in *in, const struct xd_job_alt *a, int gpu,
                         struct xd_order_in *o)
{
	*o = (struct xd_order_in){
		.gpu = gpu, .side = ENG_BUY, .type = XD_LIMIT, .tif = ENG_FOK, .gpus = a->gpus,
		.hours = a->hours, .price = a->price, .node_gpus = a->node_gpus, .link = a->link,
		.regions = in->regions,
	};
	memcpy(o->coid, in->coid, sizeof o->coid);
}

/* The reply's frame: what the order was chosen from. */
static cJSON *frame_json(struct xd_writer *w, const struct xd_order_in *in,
                         const struct xd_acct *acc, const struct xd_job_alt *alts, int best)
{
	cJSON *o = cJSON_CreateObject();
	xd_jint(o, "fit_model_version", FIT_MODEL_VERSION);
	xd_jstr(o, "gpu", best >= 0 ? w->t->gpu_ids[best] : NULL);
	xd_jint_or_null(o, "hours", best >= 0 ? alts[best].hours : 0, best >= 0);
	xd_jint_or_null(o, "total_minor", best >= 0 ? alts[best].total : 0, best >= 0);
	xd_jint(o, "max_total_minor", in->max_total);
	cJSON_AddStringToObject(o, "currency", xd_cur_code(w, acc->cur));
	cJSON_AddItemToObject(o, "alternatives", xd_jobs_alts_json(w->t, alts));
	return o;
}

/* Why the job cannot be placed as it stands (NULL: it can), and the message. */
static const char *job_refusal(struct xd_writer *w, const struct xd_order_in *in,
                               const struct xd_acct *acc, const struct xd_job_alt *alts, int best,
                               char **msg)
{
	if (best < 0) {
		*msg = xstrdup("no GPU of the catalogue can run this job with what the books hold now "
		               "(\"alternatives\" says why, GPU by GPU)");
		return "JOB_NOT_RUNNABLE";
	}
	const struct xd_job_alt *a = &alts[best];
	if (a->total > in->max_total) {
		*msg = xasprintf("the cheapest GPU that can run the job, %s, costs %" PRId64 " %s minor "
		                 "units; max_total_minor is %" PRId64, w->t->gpu_ids[best], a->total,
		                 xd_cur_code(w, acc->cur), in->max_total);
		return "OVER_BUDGET";
	}
	return NULL;
}

void xd_jobs_choose(struct xd_writer *w, const struct xd_order_in *in, const struct xd_acct *acc,
                    int64_t account, struct xd_job_choice *c)
{
	struct xd_job_alt *alts = xcalloc(w->t->n_gpus, sizeof *alts);
	*c = (struct xd_job_choice){ 0 };
	c->best = evaluate_all(w, in, acc, account, alts);
	c->frame = frame_json(w, in, acc, alts, c->best);
	c->code = job_refusal(w, in, acc, alts, c->best, &c->msg);
	if (c->best >= 0) {
		chosen_order(in, &alts[c->best], c->best, &c->order);
		c->total = alts[c->best].total;
	}
	for (size_t g = 0; g < w->t->n_gpus; g++)
		xd_job_alt_clear(&alts[g]);
	free(alts);
}

void xd_jobs_choice_free(struct xd_job_choice *c)
{
	cJSON_Delete(c->frame);
	free(c->msg);
	*c = (struct xd_job_choice){ 0 };
}

void xd_jobs_preview(struct xd_writer *w, struct xd_job *j, const struct xd_acct *acc)
{
	struct xd_job_choice c;
	xd_jobs_choose(w, &j->order, acc, j->account, &c);
	cJSON *o = c.frame;
	c.frame = NULL;
	const char *code = c.code;
	char *msg = c.msg ? xstrdup(c.msg) : NULL;
	if (c.best >= 0) {
		cJSON *p = xd_ops_preview(w, j->account, &c.order);
		cJSON_AddItemToObject(o, "order", p);
		const cJSON *wr = cJSON_GetObjectItemCaseSensitive(p, "would_reject");
		if (!code && cJSON_IsObject(wr)) {   /* the role, the market's state, the funds */
			const cJSON *c2 = cJSON_GetObjectItemCaseSensitive(wr, "code");
			const cJSON *m2 = cJSON_GetObjectItemCaseSensitive(wr, "message");
			code = cJSON_IsString(c2) ? c2->valuestring : "FORBIDDEN";
			msg = xstrdup(cJSON_IsString(m2) ? m2->valuestring : "");
		}
	} else {
		cJSON_AddNullToObject(o, "order");
	}
	if (code) {
		cJSON *r = cJSON_AddObjectToObject(o, "would_reject");
		cJSON_AddStringToObject(r, "code", code);
		cJSON_AddStringToObject(r, "message", msg ? msg : "");
	} else {
		cJSON_AddNullToObject(o, "would_reject");
	}
	free(msg);
	xd_jobs_choice_free(&c);
	xd_reply_json(&j->reply, 200, o);
}

/* ---- placing it ---------------------------------------------------------------------- */

/* A job order's client_order_id seen before: true when answered — 200 with
 * the frame it was placed with and the order as it is now, or 409 for
 * another body (or a plain order under that id). */
static bool job_replay(struct xd_writer *w, struct xd_job *j, const char *text,
                       const char *regions)
{
	const struct xd_order_in *in = &j->order;
	struct xd_q *st = xd_stmt(w->st, "SELECT id, job, max_total, regions, alternatives FROM "
	                                 "orders WHERE account = ?1 AND client_order_id = ?2");
	xd_bind_int64(st, 1, j->account);
	xd_bind_text(st, 2, in->coid);
	if (xd_step(st) != XD_ROW) {
		xd_reset(st);
		return false;
	}
	int64_t id = xd_col_int64(st, 0);
	const char *job = xd_col_text(st, 1), *rg = xd_col_text(st, 3);
	bool same = job && strcmp(job, text) == 0 && xd_col_int64(st, 2) == in->max_total &&
	            ((!rg && !regions) || (rg && regions && strcmp(rg, regions) == 0));
	cJSON *frame = same && xd_col_text(st, 4) ? cJSON_Parse(xd_col_text(st, 4)) : NULL;
	xd_reset(st);
	if (!same) {
		xd_ops_conflict(&j->reply, in->coid, id);
		return true;
	}
	if (!cJSON_IsObject(frame)) {
		cJSON_Delete(frame);
		frame = cJSON_CreateObject();
	}
	cJSON_AddItemToObject(frame, "order", xd_read_order(w->st, w->t, j->account, id, true));
	xd_reply_json(&j->reply, 200, frame);
	return true;
}

/* A 422 refusal carrying the alternatives (moved out of the choice's frame). */
static void refuse_with(struct xd_reply *r, const char *code, const char *msg,
                        struct xd_job_choice *c)
{
	cJSON *e = xd_reply_error(r, 422, code, "%s", msg);
	cJSON *alts = cJSON_DetachItemFromObjectCaseSensitive(c->frame, "alternatives");
	if (e && alts)
		cJSON_AddItemToObject(e, "alternatives", alts);
	else
		cJSON_Delete(alts);
}

void xd_jobs_order(struct xd_writer *w, struct xd_job *j, struct xd_acct *a)
{
	const struct xd_order_in *in = &j->order;
	char *text = xd_job_text(in), *regions = xd_regions_text(w->t, in->regions);
	struct xd_job_choice c = { .best = -1 };
	if (job_replay(w, j, text, regions))
		goto out;
	char *msg = NULL;
	const char *code = xd_ops_refusal(w, a, ENG_BUY, &msg);
	if (code) {
		xd_ops_refusal_reply(w, &j->reply, code, msg);
		goto out;
	}
	xd_jobs_choose(w, in, a, j->account, &c);
	/* the chosen book, locked for the transaction; if another node changed it
	 * (it was read again), choose again on what the books are now */
	while (c.best >= 0 && w->nodes->lock_book(w, c.best)) {
		xd_jobs_choice_free(&c);
		xd_jobs_choose(w, in, a, j->account, &c);
	}
	if (c.code) {
		refuse_with(&j->reply, c.code, c.msg, &c);
		goto out;
	}
	int64_t hold = (int64_t)c.order.gpus * c.order.hours *
	               xd_fx_unit(w, a->cur, a->vat_bp, c.order.price);
	if (hold > a->avail) {
		char *m = xasprintf("the job order needs a hold of %" PRId64 " %s minor units; %" PRId64
		                    " are available", hold, xd_cur_code(w, a->cur), a->avail);
		refuse_with(&j->reply, "INSUFFICIENT_FUNDS", m, &c);
		free(m);
		cJSON *e = cJSON_GetObjectItemCaseSensitive(j->reply.body, "error");
		xd_jint(e, "required_minor", hold);
		xd_jint(e, "available_minor", a->avail);
		cJSON_AddStringToObject(e, "currency", xd_cur_code(w, a->cur));
		goto out;
	}
	char *frame = cJSON_PrintUnformatted(c.frame);
	c.order.job_text = text;
	c.order.max_total = in->max_total;
	c.order.alternatives = frame;
	int64_t id = xd_ops_place(w, j->account, &c.order);
	cJSON_free(frame);
	if (id < 0) {   /* stored meanwhile through another node: a replay */
		job_replay(w, j, text, regions);
		goto out;
	}
	cJSON *o = c.frame;
	c.frame = NULL;
	cJSON_AddItemToObject(o, "order", xd_read_order(w->st, w->t, j->account, id, true));
	xd_reply_json(&j->reply, 201, o);
out:
	xd_jobs_choice_free(&c);
	free(text);
	free(regions);
}
