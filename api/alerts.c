/*
 * api/alerts.c — alerts kept by the exchange (POST/GET/DELETE /v1/alerts),
 * the account's event log (GET /v1/events, and the events of the stream's
 * account channel: api_dec_account_event), and what an order says of its
 * trigger, one-cancels-other group and standing (api_dec_order_cond), as
 * blocking calls for the CLI and asynchronous ones for the TUI.
 *
 * Decoders are as strict as wire.c's where the contract is fixed (an
 * alert's fields, the head of an event: id, kind, at, seq) and lenient where
 * it grows: an account event of a kind this client does not know, or a field
 * it does not know, is kept (kind, and the whole event as compact JSON in
 * json), not refused, so scripts fed by `gpux watch --alerts` see every
 * event the exchange sends.
 */
#include "api/wire_int.h"

#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const when_names[] = {
	"ask_lte", "ask_gte", "bid_lte", "bid_gte", "last_lte", "last_gte", "spread_lte",
	"spread_gte", "rental_ending", "order_filled", "job_total_lte",
};
static const char *const alert_state_names[] = {"armed", "rearming", "fired", "expired"};
static const char *const standing_names[] = {"active", "stopped"};

#define N_WHEN ((int)(sizeof when_names / sizeof when_names[0]))

const char *api_when_name(enum api_when v)
{
	return (unsigned)v < (unsigned)N_WHEN ? when_names[v] : "?";
}

int api_when_parse(const char *s, enum api_when *out)
{
	for (int i = 0; s != NULL && i < N_WHEN; i++) {
		if (strcmp(s, when_names[i]) == 0) {
			*out = (enum api_when)i;
			return 0;
		}
	}
	return -1;
}

bool api_when_is_price(enum api_when v)
{
	return v <= API_WHEN_SPREAD_GTE;
}

const char *api_alert_state_name(enum api_alert_state v)
{
	return (unsigned)v < 4 ? alert_state_names[v] : "?";
}

/* ---- frees ---------------------------------------------------------------------------- */

static void alert_clear(struct api_alert *a)
{
	free(a->gpu);
	free(a->job_model);
	free(a->job_method);
	free(a->currency);
	free(a->regions);
	free(a->label);
	memset(a, 0, sizeof *a);
}

void api_alert_free(struct api_alert **p)
{
	if (p == NULL || *p == NULL)
		return;
	alert_clear(*p);
	free(*p);
	*p = NULL;
}

void api_alerts_free(struct api_alerts **p)
{
	if (p == NULL || *p == NULL)
		return;
	for (size_t i = 0; i < (*p)->n; i++)
		alert_clear(&(*p)->v[i]);
	free((*p)->v);
	free((*p)->next_cursor);
	free(*p);
	*p = NULL;
}

void api_account_event_clear(struct api_account_event *e)
{
	free(e->kind);
	free(e->json);
	free(e->gpu);
	free(e->label);
	free(e->event);
	free(e->reason);
	free(e->state);
	free(e->status);
	free(e->job_model);
	free(e->job_method);
	free(e->currency);
	free(e->interconnect);
	memset(e, 0, sizeof *e);
}

void api_account_event_free(struct api_account_event **p)
{
	if (p == NULL || *p == NULL)
		return;
	api_account_event_clear(*p);
	free(*p);
	*p = NULL;
}

void api_events_free(struct api_events **p)
{
	if (p == NULL || *p == NULL)
		return;
	for (size_t i = 0; i < (*p)->n; i++)
		api_account_event_clear(&(*p)->v[i]);
	free((*p)->v);
	free(*p);
	*p = NULL;
}

static void free_alert(void *r) { api_alert_free((struct api_alert **)&r); }
static void free_alerts(void *r) { api_alerts_free((struct api_alerts **)&r); }
static void free_events(void *r) { api_events_free((struct api_events **)&r); }
static void free_event(void *r) { api_account_event_free((struct api_account_event **)&r); }

/* ---- decoders ------------------------------------------------------------------------- */

/* o's "job" (an object, null or absent): its preset id, method and size. */
static int dec_job_summary(const cJSON *o, const char *p, char **model, char **method,
			   int64_t *params, char **cause)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, "job");
	char *jp;
	int rc = -1;

	*params = -1;
	if (j == NULL || cJSON_IsNull(j))
		return 0;
	jp = api_json_path(p, "job");
	if (!cJSON_IsObject(j)) {
		set_cause(cause, "%s: expected an object or null", jp);
		goto fail;
	}
	DEC_STR_OPT(j, jp, "model", SHORT, *model);
	DEC_STR_OPT(j, jp, "method", SHORT, *method);
	DEC_INT_OPT(j, jp, "params_millions", 1, MAX_COUNT, *params);
	rc = 0;
fail:
	free(jp);
	return rc;
}

/* o's "regions" (an array of region ids, null or absent), comma-separated. */
static int dec_regions_text(const cJSON *o, const char *p, char **out, char **cause)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "regions"), *it;
	struct buf b = {0};

	*out = NULL;
	if (a == NULL || cJSON_IsNull(a))
		return 0;
	if (!cJSON_IsArray(a))
		return set_cause(cause, "%s%sregions: expected an array or null", p, *p ? "." : "");
	cJSON_ArrayForEach(it, a) {
		char *s = NULL;
		if (!cJSON_IsString(it) || (s = util_sanitize(it->valuestring, SHORT, true)) == NULL) {
			buf_free(&b);
			return set_cause(cause, "%s%sregions: expected region ids", p, *p ? "." : "");
		}
		buf_printf(&b, "%s%s", b.len > 0 ? "," : "", s);
		free(s);
	}
	*out = b.len > 0 ? buf_take(&b) : NULL;
	buf_free(&b);
	return 0;
}

static int dec_alert_into(const cJSON *o, const char *p, struct api_alert *a, char **cause)
{
	char *when = NULL;

	if (!cJSON_IsObject(o))
		return set_cause(cause, "%s: expected an object", *p ? p : "the reply");
	DEC_INT(o, p, "id", 1, MAX_ID, a->id);
	DEC_STR(o, p, "when", SHORT, when);
	if (api_when_parse(when, &a->when) != 0) {
		set_cause(cause, "%s%swhen: \"%s\" is not a condition this client knows", p,
			  *p ? "." : "", when);
		goto fail;
	}
	DEC_STR_OPT(o, p, "gpu", SHORT, a->gpu);
	DEC_INT_NULL(o, p, "price_cents", 0, MAX_PRICE, a->price_cents);
	DEC_INT_NULL(o, p, "rearm_cents", 1, MAX_PRICE, a->rearm_cents);
	DEC_INT_NULL(o, p, "minutes", 1, MAX_COUNT, a->minutes);
	DEC_INT_NULL(o, p, "rental_id", 1, MAX_ID, a->rental_id);
	DEC_INT_NULL(o, p, "order_id", 1, MAX_ID, a->order_id);
	if (dec_job_summary(o, p, &a->job_model, &a->job_method, &a->job_params_millions, cause) != 0 ||
	    dec_regions_text(o, p, &a->regions, cause) != 0)
		goto fail;
	DEC_INT_OPT(o, p, "hours", 1, MAX_COUNT, a->hours);
	DEC_INT_OPT(o, p, "max_total_minor", 1, MAX_MONEY, a->max_total_minor);
	DEC_INT_OPT(o, p, "rearm_minor", 1, MAX_MONEY, a->rearm_minor);
	DEC_STR_OPT(o, p, "currency", SHORT, a->currency);
	DEC_STR_OPT(o, p, "label", 1024, a->label);
	DEC_ENUM(o, p, "state", alert_state_names, a->state);
	DEC_INT(o, p, "fired_count", 0, MAX_COUNT, a->fired_count);
	DEC_TIME_OPT(o, p, "last_fired_at", a->last_fired_at);
	DEC_TIME_OPT(o, p, "expires_at", a->expires_at);
	DEC_TIME(o, p, "created_at", a->created_at);
	if (api_when_is_price(a->when) && (a->gpu == NULL || a->price_cents < 0)) {
		set_cause(cause, "%s%sgpu: a price alert without its GPU or price", p, *p ? "." : "");
		goto fail;
	}
	if (a->when == API_WHEN_JOB_TOTAL_LTE && (a->max_total_minor < 0 || a->currency == NULL)) {
		set_cause(cause, "%s%smax_total_minor: a job alert without its budget", p, *p ? "." : "");
		goto fail;
	}
	free(when);
	return 0;
fail:
	free(when);
	return -1;
}

static int dec_alert(const cJSON *root, long status, void **out, char **cause)
{
	struct api_alert *a = xcalloc(1, sizeof *a);

	if (dec_alert_into(root, "", a, cause) != 0) {
		api_alert_free(&a);
		return -1;
	}
	*out = a;
	return 0;
}

static int alert_item(const cJSON *it, const char *p, void *dst, size_t i, void *ctx, char **cause)
{
	return dec_alert_into(it, p, dst, cause);
}

static int dec_alerts(const cJSON *root, long status, void **out, char **cause)
{
	struct api_alerts *l = xcalloc(1, sizeof *l);

	DEC_STR_OPT(root, "", "next_cursor", SHORT, l->next_cursor);
	DEC_INT(root, "", "live", 0, MAX_COUNT, l->live);
	DEC_INT(root, "", "max", 1, MAX_COUNT, l->max);
	if (api_dec_list(root, "", "alerts", sizeof *l->v, alert_item, NULL, (void **)&l->v, &l->n,
			 cause) != 0)
		goto fail;
	*out = l;
	return 0;
fail:
	api_alerts_free(&l);
	return -1;
}

/* The fields the kinds this client knows may carry; each optional. */
static int event_fields(const cJSON *o, const char *p, struct api_account_event *e, char **cause)
{
	char *when = NULL;

	DEC_INT_OPT(o, p, "alert_id", 1, MAX_ID, e->alert_id);
	DEC_INT_OPT(o, p, "order_id", 1, MAX_ID, e->order_id);
	DEC_INT_OPT(o, p, "rental_id", 1, MAX_ID, e->rental_id);
	DEC_STR_OPT(o, p, "when", SHORT, when);
	e->has_when = when != NULL && api_when_parse(when, &e->when) == 0;
	free(when);
	when = NULL;
	DEC_STR_OPT(o, p, "gpu", SHORT, e->gpu);
	DEC_STR_OPT(o, p, "label", 1024, e->label);
	DEC_STR_OPT(o, p, "event", SHORT, e->event);
	DEC_STR_OPT(o, p, "reason", LONG, e->reason);
	DEC_STR_OPT(o, p, "state", SHORT, e->state);
	DEC_STR_OPT(o, p, "status", SHORT, e->status);
	DEC_INT_OPT(o, p, "price_cents", 0, MAX_PRICE, e->price_cents);
	DEC_INT_OPT(o, p, "value_cents", -MAX_PRICE, MAX_PRICE, e->value_cents);
	DEC_INT_OPT(o, p, "fill_price_cents", 1, MAX_PRICE, e->fill_price_cents);
	DEC_INT_OPT(o, p, "fill_gpus", 1, MAX_COUNT, e->fill_gpus);
	DEC_INT_OPT(o, p, "gpus", 1, MAX_COUNT, e->gpus);
	DEC_INT_OPT(o, p, "hours", 1, MAX_COUNT, e->hours);
	DEC_INT_OPT(o, p, "minutes", 1, MAX_COUNT, e->minutes);
	DEC_TIME_OPT(o, p, "ends_at", e->ends_at);
	if (dec_job_summary(o, p, &e->job_model, &e->job_method, &e->job_params_millions, cause) != 0)
		goto fail;
	DEC_STR_OPT(o, p, "currency", SHORT, e->currency);
	DEC_STR_OPT(o, p, "interconnect", SHORT, e->interconnect);
	DEC_INT_OPT(o, p, "total_minor", 0, MAX_MONEY, e->total_minor);
	DEC_INT_OPT(o, p, "max_total_minor", 1, MAX_MONEY, e->max_total_minor);
	DEC_INT_OPT(o, p, "node_gpus", 1, MAX_COUNT, e->node_gpus);
	DEC_INT_OPT(o, p, "nodes", 1, MAX_COUNT, e->nodes);
	return 0;
fail:
	free(when);
	return -1;
}

int api_dec_account_event(const cJSON *o, const char *p, struct api_account_event *e,
			  char **cause)
{
	char *json;

	if (!cJSON_IsObject(o))
		return set_cause(cause, "%s: expected an object", *p ? p : "the event");
	DEC_INT(o, p, "id", 1, MAX_ID, e->id);
	DEC_STR(o, p, "kind", SHORT, e->kind);
	DEC_TIME(o, p, "at", e->at);
	DEC_INT(o, p, "seq", 0, MAX_ID, e->seq);
	if (event_fields(o, p, e, cause) != 0)
		goto fail;
	if ((json = cJSON_PrintUnformatted(o)) == NULL)
		fatal("out of memory");
	e->json = xstrdup(json);
	cJSON_free(json);
	return 0;
fail:
	return -1;
}

static int event_item(const cJSON *it, const char *p, void *dst, size_t i, void *ctx, char **cause)
{
	return api_dec_account_event(it, p, dst, cause);
}

static int dec_events(const cJSON *root, long status, void **out, char **cause)
{
	struct api_events *l = xcalloc(1, sizeof *l);

	DEC_INT(root, "", "last_id", 0, MAX_ID, l->last_id);
	DEC_INT(root, "", "head", 0, MAX_ID, l->head);
	if (api_dec_list(root, "", "events", sizeof *l->v, event_item, NULL, (void **)&l->v, &l->n,
			 cause) != 0)
		goto fail;
	*out = l;
	return 0;
fail:
	api_events_free(&l);
	return -1;
}

static int dec_event(const cJSON *root, long status, void **out, char **cause)
{
	struct api_account_event *e = xcalloc(1, sizeof *e);

	if (api_dec_account_event(root, "", e, cause) != 0) {
		api_account_event_free(&e);
		return -1;
	}
	*out = e;
	return 0;
}

int api_dec_order_cond(const cJSON *o, const char *p, struct api_order *x, char **cause)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "trigger");
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "standing");
	char *tp = NULL, *when = NULL;
	int st;

	DEC_STR_OPT(o, p, "oco_group", SHORT, x->oco_group);
	if (t != NULL && !cJSON_IsNull(t)) {
		tp = api_json_path(p, "trigger");
		if (!cJSON_IsObject(t)) {
			set_cause(cause, "%s: expected an object or null", tp);
			goto fail;
		}
		DEC_STR(t, tp, "when", SHORT, when);
		if (api_when_parse(when, &x->trigger_when) != 0 || !api_when_is_price(x->trigger_when)) {
			set_cause(cause, "%s.when: \"%s\" is not a trigger", tp, when);
			goto fail;
		}
		DEC_INT(t, tp, "price_cents", 1, MAX_PRICE, x->trigger_price_cents);
		x->has_trigger = true;
		free(tp);
		tp = NULL;
	}
	if (s != NULL && !cJSON_IsNull(s)) {
		tp = api_json_path(p, "standing");
		if (!cJSON_IsObject(s)) {
			set_cause(cause, "%s: expected an object or null", tp);
			goto fail;
		}
		DEC_ENUM(s, tp, "state", standing_names, st);
		x->standing = st == 0 ? API_STANDING_ACTIVE : API_STANDING_STOPPED;
		DEC_STR_OPT(s, tp, "reason", LONG, x->standing_reason);
	}
	free(tp);
	free(when);
	return 0;
fail:
	free(tp);
	free(when);
	return -1;
}

/* ---- requests ------------------------------------------------------------------------- */

static const struct api_ep ep_alert = {"alert", dec_alert, free_alert, api_deliver_any, NULL, NULL, false};
static const struct api_ep ep_alerts = {"alerts", dec_alerts, free_alerts, api_deliver_any, NULL, NULL, false};
static const struct api_ep ep_events = {"account events", dec_events, free_events, api_deliver_any, NULL, NULL, false};
static const struct api_ep ep_event = {"account event", dec_event, free_event, api_deliver_any, NULL, NULL, false};

static void add_int(cJSON *b, const char *k, int64_t v)
{
	char lit[24];

	snprintf(lit, sizeof lit, "%lld", (long long)v);
	cJSON_AddRawToObject(b, k, lit);
}

static char *alert_body(const struct api_alert_req *r)
{
	cJSON *b = cJSON_CreateObject();
	char *s, *body;

	cJSON_AddStringToObject(b, "when", api_when_name(r->when));
	if (api_when_is_price(r->when)) {
		cJSON_AddStringToObject(b, "gpu", r->gpu != NULL ? r->gpu : "");
		add_int(b, "price_cents", r->price_cents);
		if (r->rearm_cents > 0)
			add_int(b, "rearm_cents", r->rearm_cents);
	} else if (r->when == API_WHEN_RENTAL_ENDING) {
		add_int(b, "minutes", r->minutes);
		if (r->rental_id > 0)
			add_int(b, "rental_id", r->rental_id);
	} else if (r->when == API_WHEN_JOB_TOTAL_LTE) {
		api_job_fields_put(b, "job", r->job, r->job_label);
		add_int(b, "max_total_minor", r->max_total_minor);
		if (r->rearm_minor > 0)
			add_int(b, "rearm_minor", r->rearm_minor);
		if (r->hours > 0)
			add_int(b, "hours", r->hours);
		if (r->n_regions > 0) {
			cJSON *rg = cJSON_AddArrayToObject(b, "regions");
			for (size_t i = 0; i < r->n_regions; i++)
				cJSON_AddItemToArray(rg, cJSON_CreateString(r->regions[i]));
		}
	} else if (r->order_id > 0) {
		add_int(b, "order_id", r->order_id);
	}
	if (r->expires_at >= 0) {
		char t[32];
		time_t tt = (time_t)r->expires_at;
		struct tm tm;
		gmtime_r(&tt, &tm);
		strftime(t, sizeof t, "%Y-%m-%dT%H:%M:%SZ", &tm);
		cJSON_AddStringToObject(b, "expires_at", t);
	}
	if (r->label != NULL)
		cJSON_AddStringToObject(b, "label", r->label);
	if ((s = cJSON_PrintUnformatted(b)) == NULL)
		fatal("out of memory");
	body = xstrdup(s);
	cJSON_free(s);
	cJSON_Delete(b);
	return body;
}

static char *alerts_path(const char *cursor, int limit)
{
	struct buf b = {0};

	buf_puts(&b, "/v1/alerts");
	if (limit > 0)
		buf_printf(&b, "?limit=%d", limit);
	if (cursor != NULL && *cursor != '\0' && strspn(cursor, "0123456789") == strlen(cursor))
		buf_printf(&b, "%ccursor=%s", limit > 0 ? '&' : '?', cursor);
	return buf_take(&b);
}

static char *events_path(int64_t after, int limit)
{
	return limit > 0 ? xasprintf("/v1/events?after=%lld&limit=%d", (long long)after, limit)
			 : xasprintf("/v1/events?after=%lld", (long long)after);
}

uint64_t api_alert_create_start(struct api_client *c, const struct api_alert_req *r,
				api_alert_cb cb, void *ud)
{
	return api_start_req(c, "POST", xstrdup("/v1/alerts"), alert_body(r), API_RETRY_UNSAFE,
			     &ep_alert, (void (*)(void))cb, ud);
}

uint64_t api_alerts_list_start(struct api_client *c, const char *cursor, int limit,
			       api_alerts_cb cb, void *ud)
{
	return api_start_req(c, "GET", alerts_path(cursor, limit), NULL, API_RETRY_READ,
			     &ep_alerts, (void (*)(void))cb, ud);
}

uint64_t api_alert_delete_start(struct api_client *c, int64_t id, api_alert_cb cb, void *ud)
{
	return api_start_req(c, "DELETE", xasprintf("/v1/alerts/%lld", (long long)id), NULL,
			     API_RETRY_READ, &ep_alert, (void (*)(void))cb, ud);
}

uint64_t api_events_start(struct api_client *c, int64_t after, int limit, api_events_cb cb,
			  void *ud)
{
	return api_start_req(c, "GET", events_path(after, limit), NULL, API_RETRY_READ, &ep_events,
			     (void (*)(void))cb, ud);
}

int api_alert_create(struct api_client *c, const struct api_alert_req *r, struct api_alert **out,
		     struct api_error **err)
{
	return api_run_req(c, "POST", xstrdup("/v1/alerts"), alert_body(r), API_RETRY_UNSAFE,
			   &ep_alert, (void **)out, err);
}

int api_alerts_list(struct api_client *c, const char *cursor, int limit, struct api_alerts **out,
		    struct api_error **err)
{
	return api_run_req(c, "GET", alerts_path(cursor, limit), NULL, API_RETRY_READ, &ep_alerts,
			   (void **)out, err);
}

int api_alert_delete(struct api_client *c, int64_t id, struct api_alert **out,
		     struct api_error **err)
{
	/* deleting twice is harmless (the second is a 404): retried as a read */
	return api_run_req(c, "DELETE", xasprintf("/v1/alerts/%lld", (long long)id), NULL,
			   API_RETRY_READ, &ep_alert, (void **)out, err);
}

int api_events(struct api_client *c, int64_t after, int limit, struct api_events **out,
	       struct api_error **err)
{
	return api_run_req(c, "GET", events_path(after, limit), NULL, API_RETRY_READ, &ep_events,
			   (void **)out, err);
}

/* ---- decoding for tests --------------------------------------------------------------- */

static const struct api_ep *ep_named(const char *name)
{
	static const struct { const char *name; const struct api_ep *ep; } eps[] = {
		{"alert", &ep_alert}, {"alerts", &ep_alerts}, {"events", &ep_events},
		{"account_event", &ep_event},
	};
	for (size_t i = 0; i < sizeof eps / sizeof eps[0]; i++)
		if (strcmp(name, eps[i].name) == 0)
			return eps[i].ep;
	return NULL;
}

int api_alerts_decode(const char *name, long status, const char *data, size_t len, void **out,
		      char **cause)
{
	const struct api_ep *ep = ep_named(name);
	cJSON *root;
	int rc;

	*out = NULL;
	if (ep == NULL)
		return set_cause(cause, "no decoder named %s", name);
	if ((root = api_json_parse(data, len, cause)) == NULL)
		return -1;
	rc = cJSON_IsObject(root) ? ep->decode(root, status, out, cause)
				  : set_cause(cause, "expected a JSON object");
	cJSON_Delete(root);
	return rc;
}

void api_alerts_reply_free(const char *name, void **out)
{
	const struct api_ep *ep = ep_named(name);

	if (ep != NULL && out != NULL && *out != NULL)
		ep->free_reply(*out);
	if (out != NULL)
		*out = NULL;
}
