/*
 * tests/unit/test_alerts.c — the pure parts of alerts and conditional
 * orders: the price-trigger index (exchange/trig.h) at its exact
 * boundaries; gpuxd's validation of POST /v1/alerts and of an order's
 * trigger, oco_group and standing; the client's decoders of alerts, the
 * account's events (lenient about kinds it does not know, strict about
 * their head), an order's new fields and the stream's account channel; the
 * words of view/alert.c; a job alert's body (its job read as a job order's,
 * its row's text read back), decoding and words.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/api.h"
#include "exchange/trig.h"
#include "exchange/xd.h"
#include "i18n/i18n.h"
#include "view/view.h"

/* ---- the index ----------------------------------------------------------------------- */

static size_t take_ids(struct trig_set *s, uint32_t key, int64_t v, int64_t *ids)
{
	struct trig_hits h = { 0 };
	size_t n = trig_take(s, key, v, &h);
	for (size_t i = 0; i < n; i++)
		ids[i] = h.v[i].id;
	trig_hits_free(&h);
	return n;
}

static void test_trig_exact_boundaries(void **state)
{
	(void)state;
	struct trig_set *s = trig_set_new();
	int64_t ids[8];
	trig_add(s, 0, TRIG_LTE, 450, 1);   /* ask <= 450 */
	trig_add(s, 0, TRIG_GTE, 520, 2);   /* ask >= 520 */
	assert_false(trig_met(s, 0, 451));
	assert_int_equal(take_ids(s, 0, 451, ids), 0);
	assert_int_equal(take_ids(s, 0, 519, ids), 0);
	assert_true(trig_met(s, 0, 450));
	assert_int_equal(take_ids(s, 0, 450, ids), 1);   /* equal: met */
	assert_int_equal(ids[0], 1);
	assert_int_equal(take_ids(s, 0, 400, ids), 0);   /* taken out: once */
	assert_int_equal(take_ids(s, 0, 520, ids), 1);
	assert_int_equal(ids[0], 2);
	assert_int_equal(trig_set_size(s), 0);
	trig_set_free(&s);
	assert_null(s);
}

static void test_trig_series_order_remove(void **state)
{
	(void)state;
	struct trig_set *s = trig_set_new();
	int64_t ids[8];
	trig_add(s, 1, TRIG_LTE, 300, 30);   /* bid series */
	trig_add(s, 0, TRIG_LTE, 300, 20);   /* ask series */
	trig_add(s, 0, TRIG_LTE, 310, 10);
	trig_add(s, 0, TRIG_LTE, 290, 40);
	trig_add(s, 0, TRIG_LTE, 300, 5);
	const uint32_t *keys;
	assert_int_equal(trig_keys(s, &keys), 2);
	assert_int_equal(keys[0], 0);
	assert_int_equal(keys[1], 1);
	assert_true(trig_remove(s, 0, TRIG_LTE, 300, 20));
	assert_false(trig_remove(s, 0, TRIG_LTE, 300, 20));
	assert_false(trig_remove(s, 0, TRIG_GTE, 300, 5));   /* another direction */
	/* 300 meets 310 and 300 (not 290), in id order; the bid series is untouched */
	assert_int_equal(take_ids(s, 0, 300, ids), 2);
	assert_int_equal(ids[0], 5);
	assert_int_equal(ids[1], 10);
	assert_int_equal(trig_set_size(s), 2);
	assert_int_equal(take_ids(s, 1, 301, ids), 0);
	trig_set_clear(s);
	assert_int_equal(trig_set_size(s), 0);
	trig_set_free(&s);
}

static void test_trig_many(void **state)
{
	(void)state;
	struct trig_set *s = trig_set_new();
	int64_t *ids = calloc(2000, sizeof *ids);
	for (int i = 0; i < 1000; i++)
		trig_add(s, 0, TRIG_GTE, i, i + 1);   /* ask >= i */
	assert_int_equal(take_ids(s, 0, 499, ids), 500);   /* thresholds 0..499 */
	for (int i = 1; i < 500; i++)
		assert_true(ids[i] > ids[i - 1]);
	assert_int_equal(take_ids(s, 0, 499, ids), 0);
	assert_int_equal(take_ids(s, 0, 1000, ids), 500);
	free(ids);
	trig_set_free(&s);
}

/* ---- gpuxd's validation ------------------------------------------------------------- */

static struct xd_tables *tables;

static int setup_tables(void **state)
{
	char *cause = NULL;
	(void)state;
	return xd_tables_load(NULL, &tables, &cause);
}

static int teardown_tables(void **state)
{
	(void)state;
	xd_tables_free(&tables);
	return 0;
}

/* The error code and field of a refused body, "CODE field". */
static char *refusal(struct xd_reply *r)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(r->body, "error");
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "code");
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(e, "field");
	char buf[160];
	snprintf(buf, sizeof buf, "%s %s", cJSON_IsString(c) ? c->valuestring : "?",
	         cJSON_IsString(f) ? f->valuestring : "-");
	xd_reply_clear(r);
	return strdup(buf);
}

static void expect_alert_refused(const char *body, const char *want)
{
	struct xd_alert_in a;
	struct xd_order_in job;
	struct xd_reply r = { 0 };
	assert_int_equal(xd_parse_alert(tables, body, strlen(body), &a, &job, &r), -1);
	char *got = refusal(&r);
	assert_string_equal(got, want);
	free(got);
}

static void test_parse_alert(void **state)
{
	(void)state;
	struct xd_alert_in a;
	struct xd_order_in job;
	struct xd_reply r = { 0 };
	const char *ok = "{\"when\":\"spread_lte\",\"gpu\":\"h200\",\"price_cents\":0,"
	                 "\"rearm_cents\":5,\"label\":\"tight\"}";
	assert_int_equal(xd_parse_alert(tables, ok, strlen(ok), &a, &job, &r), 0);
	assert_int_equal(a.when, XD_WHEN_SPREAD_LTE);
	assert_int_equal(a.price, 0);   /* a spread of 0 is a price */
	assert_int_equal(a.rearm, 5);
	assert_string_equal(a.label, "tight");
	assert_int_equal(a.expires_ms, -1);
	ok = "{\"when\":\"rental_ending\",\"minutes\":30,\"rental_id\":9,"
	     "\"expires_at\":\"2030-01-01T00:00:00Z\"}";
	assert_int_equal(xd_parse_alert(tables, ok, strlen(ok), &a, &job, &r), 0);
	assert_int_equal(a.minutes, 30);
	assert_int_equal(a.rental_id, 9);
	assert_int_equal(a.expires_ms, 1893456000000LL);
	expect_alert_refused("{\"when\":\"ask_lte\",\"gpu\":\"h200\",\"price_cents\":0}",
	                     "OUT_OF_RANGE price_cents");
	expect_alert_refused("{\"when\":\"ask_lte\",\"gpu\":\"h200\",\"price_cents\":1e400}",
	                     "NOT_INTEGER price_cents");
	expect_alert_refused("{\"when\":\"order_filled\",\"minutes\":3}", "BAD_COMBINATION minutes");
	expect_alert_refused("{\"when\":\"rental_ending\"}", "MISSING_FIELD minutes");
	expect_alert_refused("{\"when\":\"rental_ending\",\"minutes\":10081}", "OUT_OF_RANGE minutes");
	expect_alert_refused("{\"when\":\"ask_lte\",\"gpu\":\"h200\",\"price_cents\":4,\"when\":\"x\"}",
	                     "DUPLICATE_FIELD when");
	expect_alert_refused("{\"when\":\"\"}", "BAD_VALUE when");
	expect_alert_refused("{\"when\":\"order_filled\",\"expires_at\":\"soon\"}", "BAD_VALUE expires_at");
	expect_alert_refused("{\"when\":\"order_filled\",\"label\":\"\"}", "BAD_VALUE label");
}

static void expect_order_refused(const char *body, const char *want)
{
	struct xd_order_in o;
	struct xd_reply r = { 0 };
	assert_int_equal(xd_parse_order(tables, body, strlen(body), false, &o, &r), -1);
	char *got = refusal(&r);
	assert_string_equal(got, want);
	free(got);
}

#define BUY "\"gpu\":\"h200\",\"side\":\"buy\",\"type\":\"limit\",\"gpus\":8,\"hours\":2," \
	"\"price_cents\":450"

static void test_parse_order_conditions(void **state)
{
	(void)state;
	struct xd_order_in o;
	struct xd_reply r = { 0 };
	const char *ok = "{" BUY ",\"trigger\":{\"when\":\"bid_gte\",\"price_cents\":440},"
	                 "\"oco_group\":\"pair-1\"}";
	assert_int_equal(xd_parse_order(tables, ok, strlen(ok), false, &o, &r), 0);
	assert_int_equal(o.cond.trigger.when, XD_WHEN_BID_GTE);
	assert_int_equal(o.cond.trigger.price, 440);
	assert_string_equal(o.cond.oco, "pair-1");
	assert_false(o.cond.standing);
	assert_true(xd_cond_waits(&o));
	ok = "{" BUY ",\"standing\":true}";
	assert_int_equal(xd_parse_order(tables, ok, strlen(ok), false, &o, &r), 0);
	assert_true(o.cond.standing);
	assert_false(xd_cond_waits(&o));
	ok = "{" BUY ",\"standing\":false}";
	assert_int_equal(xd_parse_order(tables, ok, strlen(ok), false, &o, &r), 0);
	assert_false(xd_cond_any(&o.cond));
	expect_order_refused("{" BUY ",\"trigger\":{\"when\":\"spread_lte\",\"price_cents\":4}}",
	                     "BAD_VALUE trigger.when");
	expect_order_refused("{" BUY ",\"trigger\":{\"price_cents\":4}}", "MISSING_FIELD trigger.when");
	expect_order_refused("{" BUY ",\"trigger\":{\"when\":\"ask_lte\",\"price_cents\":4,"
	                     "\"price_cents\":5}}", "DUPLICATE_FIELD trigger.price_cents");
	expect_order_refused("{" BUY ",\"trigger\":[]}", "WRONG_TYPE trigger");
	expect_order_refused("{" BUY ",\"oco_group\":\"\"}", "BAD_VALUE oco_group");
	expect_order_refused("{" BUY ",\"standing\":1}", "WRONG_TYPE standing");
	expect_order_refused("{" BUY ",\"standing\":true,\"time_in_force\":\"ioc\"}",
	                     "BAD_COMBINATION standing");
	expect_order_refused("{" BUY ",\"standing\":true,\"oco_group\":\"g\"}",
	                     "BAD_COMBINATION oco_group");
}

/* ---- the client's decoders --------------------------------------------------------------- */

static void test_decode_alerts(void **state)
{
	(void)state;
	char *cause = NULL;
	void *out = NULL;
	const char *one = "{\"id\":3,\"when\":\"ask_lte\",\"gpu\":\"h200\",\"price_cents\":410,"
	                  "\"rearm_cents\":null,\"minutes\":null,\"rental_id\":null,\"order_id\":null,"
	                  "\"label\":\"c\\u001b[2Jheap\",\"state\":\"rearming\",\"fired_count\":2,"
	                  "\"last_fired_at\":\"2025-06-02T09:00:00Z\",\"expires_at\":null,"
	                  "\"created_at\":\"2025-06-01T09:00:00Z\",\"future\":1}";
	assert_int_equal(api_alerts_decode("alert", 201, one, strlen(one), &out, &cause), 0);
	struct api_alert *a = out;
	assert_int_equal(a->when, API_WHEN_ASK_LTE);
	assert_int_equal(a->price_cents, 410);
	assert_int_equal(a->rearm_cents, -1);
	assert_int_equal(a->state, API_ALERT_REARMING);
	assert_int_equal(a->last_fired_at, 1748854800);
	assert_null(strchr(a->label, '\x1b'));   /* sanitised */
	api_alerts_reply_free("alert", &out);
	const char *bad = "{\"id\":3,\"when\":\"ask_lte\",\"gpu\":null,\"price_cents\":null,"
	                  "\"rearm_cents\":null,\"minutes\":null,\"rental_id\":null,\"order_id\":null,"
	                  "\"label\":null,\"state\":\"armed\",\"fired_count\":0,\"last_fired_at\":null,"
	                  "\"expires_at\":null,\"created_at\":\"2025-06-01T09:00:00Z\"}";
	assert_int_equal(api_alerts_decode("alert", 201, bad, strlen(bad), &out, &cause), -1);
	assert_non_null(strstr(cause, "gpu"));
	free(cause);
	cause = NULL;
	const char *list = "{\"alerts\":[],\"next_cursor\":null,\"live\":0,\"max\":100}";
	assert_int_equal(api_alerts_decode("alerts", 200, list, strlen(list), &out, &cause), 0);
	assert_int_equal(((struct api_alerts *)out)->max, 100);
	api_alerts_reply_free("alerts", &out);
}

static void test_decode_events(void **state)
{
	(void)state;
	char *cause = NULL;
	void *out = NULL;
	const char *body = "{\"events\":[{\"id\":7,\"kind\":\"alert\",\"at\":\"2025-06-02T09:00:00Z\","
	                   "\"seq\":40,\"alert_id\":3,\"when\":\"bid_gte\",\"gpu\":\"b200\","
	                   "\"price_cents\":700,\"value_cents\":705,\"state\":\"fired\"},"
	                   "{\"id\":8,\"kind\":\"newsletter\",\"at\":\"2025-06-02T09:00:01Z\","
	                   "\"seq\":40,\"colour\":\"red\"}],\"last_id\":8,\"head\":9}";
	assert_int_equal(api_alerts_decode("events", 200, body, strlen(body), &out, &cause), 0);
	struct api_events *l = out;
	assert_int_equal(l->n, 2);
	assert_int_equal(l->head, 9);
	assert_true(l->v[0].has_when);
	assert_int_equal(l->v[0].when, API_WHEN_BID_GTE);
	assert_int_equal(l->v[0].value_cents, 705);
	assert_int_equal(l->v[0].order_id, -1);
	/* a kind this client does not know is kept, whole */
	assert_string_equal(l->v[1].kind, "newsletter");
	assert_string_equal(l->v[1].json, "{\"id\":8,\"kind\":\"newsletter\",\"at\":"
	                    "\"2025-06-02T09:00:01Z\",\"seq\":40,\"colour\":\"red\"}");
	api_alerts_reply_free("events", &out);
	const char *headless = "{\"kind\":\"alert\",\"at\":\"2025-06-02T09:00:00Z\",\"seq\":1}";
	assert_int_equal(api_alerts_decode("account_event", 200, headless, strlen(headless), &out,
	                                   &cause), -1);
	assert_non_null(strstr(cause, "id"));
	free(cause);
}

static void test_decode_order_conditions(void **state)
{
	(void)state;
	char *cause = NULL;
	void *out = NULL;
	const char *o = "{\"id\":41,\"client_order_id\":\"c\",\"gpu\":\"h200\",\"side\":\"buy\","
	                "\"type\":\"limit\",\"time_in_force\":\"gtc\",\"gpus\":2,\"hours\":5,"
	                "\"price_cents\":520,\"status\":\"waiting\",\"filled_gpus\":0,"
	                "\"remaining_gpus\":0,\"filled_value_cents\":0,\"currency\":\"USD\","
	                "\"hold_minor\":5200,\"created_at\":\"2025-06-02T09:00:00Z\","
	                "\"updated_at\":\"2025-06-02T09:00:00Z\",\"trigger\":{\"when\":\"ask_lte\","
	                "\"price_cents\":480},\"oco_group\":\"g\",\"standing\":{\"state\":\"stopped\","
	                "\"reason\":\"funds\"},\"fills\":[]}";
	assert_int_equal(api_decode("order", 201, o, strlen(o), &out, &cause), 0);
	struct api_order *x = out;
	assert_int_equal(x->status, API_ORDER_WAITING);
	assert_true(x->has_trigger);
	assert_int_equal(x->trigger_when, API_WHEN_ASK_LTE);
	assert_int_equal(x->trigger_price_cents, 480);
	assert_string_equal(x->oco_group, "g");
	assert_int_equal(x->standing, API_STANDING_STOPPED);
	assert_string_equal(x->standing_reason, "funds");
	api_reply_free("order", &out);
}

static void test_stream_account(void **state)
{
	(void)state;
	struct api_stream_event *e = NULL;
	char *cause = NULL;
	const char *snap = "{\"channel\":\"account\",\"seq\":12,\"last_id\":41}";
	assert_int_equal(api_stream_decode("snapshot", snap, strlen(snap), &e, &cause), 0);
	assert_int_equal(e->channel, API_CH_ACCOUNT);
	assert_int_equal(e->account_last, 41);
	api_stream_event_free(&e);
	const char *ev = "{\"id\":42,\"kind\":\"standing\",\"at\":\"2025-06-02T09:00:00Z\",\"seq\":13,"
	                 "\"order_id\":5,\"gpu\":\"h200\",\"event\":\"stopped\",\"reason\":\"funds: "
	                 "the next period needs 4800 USD minor units; 800 are available\"}";
	assert_int_equal(api_stream_decode("account", ev, strlen(ev), &e, &cause), 0);
	assert_int_equal(e->kind, API_EV_ACCOUNT);
	assert_int_equal(e->account->id, 42);
	assert_string_equal(e->account->event, "stopped");
	char *t = view_account_event_text(I18N_EN, e->account, "H200");
	assert_string_equal(t, "Standing order 5 (H200) stopped: funds: the next period needs 4800 "
	                    "USD minor units; 800 are available");
	free(t);
	api_stream_event_free(&e);
}

static void test_words(void **state)
{
	(void)state;
	char *t = view_when_text(I18N_EN, API_WHEN_ASK_LTE, "H100 SXM", 280, 0, 0);
	assert_string_equal(t, "H100 SXM ask at or below $2.80");
	free(t);
	t = view_when_text(I18N_EN, API_WHEN_RENTAL_ENDING, NULL, -1, 1, 9);
	assert_string_equal(t, "rental 9 ending within 1 minute");
	free(t);
	t = view_when_text(I18N_EN, API_WHEN_ORDER_FILLED, NULL, -1, -1, 0);
	assert_string_equal(t, "any order filled");
	free(t);
	struct api_account_event e = {
		.id = 3, .kind = "alert", .alert_id = 12, .has_when = true, .when = API_WHEN_ASK_LTE,
		.price_cents = 410, .value_cents = 405, .label = "cheap", .order_id = -1,
		.rental_id = -1,
	};
	t = view_account_event_text(I18N_EN, &e, "H200");
	assert_string_equal(t, "Alert 12: H200 ask at or below $4.10 — now $4.05 (cheap)");
	free(t);
	struct api_order_req r = { .gpus = 8, .hours = 24, .has_trigger = true,
	                           .trigger_when = API_WHEN_LAST_GTE, .trigger_price_cents = 500 };
	t = view_trigger_text(I18N_EN, &r, "H200");
	assert_non_null(strstr(t, "(H200 last trade at or above $5.00)"));
	free(t);
	r.has_trigger = false;
	assert_null(view_trigger_text(I18N_EN, &r, "H200"));
	/* the same words in pt-PT (the catalogue's) */
	t = view_when_text(I18N_PT_PT, API_WHEN_ASK_LTE, "H100 SXM", 280, 0, 0);
	assert_string_equal(t, "melhor venda de H100 SXM a US$ 2,80 ou abaixo");
	free(t);
	t = view_when_text(I18N_PT_PT, API_WHEN_RENTAL_ENDING, NULL, -1, 2, 9);
	assert_string_equal(t, "aluguer 9 a terminar dentro de 2 minutos");
	free(t);
	t = view_account_event_text(I18N_PT_PT, &e, "H200");
	assert_string_equal(t, "Alerta 12: melhor venda de H200 a US$ 4,10 ou abaixo — agora US$ 4,05 (cheap)");
	free(t);
}

/* ---- job alerts ------------------------------------------------------------------------ */

#define JOB405 "{\"model\":\"llama-3.1-405b\",\"method\":\"infer-fp8\",\"params_millions\":405900," \
	"\"layers\":126,\"hidden\":16384,\"heads\":128,\"kv_heads\":8,\"head_dim\":128," \
	"\"vocab\":128256,\"ffn\":53248,\"seq_len\":8192}"

static void test_parse_job_alert(void **state)
{
	(void)state;
	struct xd_alert_in a;
	struct xd_order_in job;
	struct xd_reply r = { 0 };
	const char *ok = "{\"when\":\"job_total_lte\",\"job\":" JOB405 ",\"hours\":24,"
	                 "\"max_total_minor\":86400,\"rearm_minor\":4800,\"regions\":[\"us-east\"]}";
	assert_int_equal(xd_parse_alert(tables, ok, strlen(ok), &a, &job, &r), 0);
	assert_int_equal(a.when, XD_WHEN_JOB_TOTAL_LTE);
	assert_int_equal(a.gpu, -1);
	assert_int_equal(a.price, 86400);   /* the budget, kept where a price alert keeps its price */
	assert_int_equal(a.rearm, 4800);
	assert_true(job.is_job);
	assert_int_equal(job.job_hours, 24);
	assert_int_equal(job.fit.method, FIT_INFER_FP8);
	assert_int_equal(job.fit.seq_len, 8192);
	assert_string_equal(job.fit_label, "llama-3.1-405b");
	assert_int_equal(job.regions, UINT64_C(1) << xd_tables_region(tables, "us-east"));
	/* the row's text read back is the same job, and writes the same text */
	char *text = xd_job_text(&job);
	struct xd_order_in again = { 0 };
	assert_true(xd_job_from_text(text, &again));
	char *text2 = xd_job_text(&again);
	assert_string_equal(text, text2);
	assert_int_equal(again.job_hours, 24);
	free(text);
	free(text2);
	assert_false(xd_job_from_text("seq_len=8192;hours=24", &again));   /* no model */
	assert_false(xd_job_from_text("colour=red;hours=24", &again));
	/* the refusals: the job's as a job order's, the fields of other conditions */
	expect_alert_refused("{\"when\":\"job_total_lte\",\"max_total_minor\":5,\"hours\":1,"
	                     "\"job\":{\"model\":\"x\",\"method\":\"infer-fp8\"}}",
	                     "MISSING_FIELD job.params_millions");
	expect_alert_refused("{\"when\":\"job_total_lte\",\"max_total_minor\":5,\"job\":" JOB405 "}",
	                     "MISSING_FIELD hours");
	expect_alert_refused("{\"when\":\"job_total_lte\",\"hours\":1,\"job\":" JOB405 "}",
	                     "MISSING_FIELD max_total_minor");
	expect_alert_refused("{\"when\":\"job_total_lte\",\"hours\":1,\"max_total_minor\":5,"
	                     "\"price_cents\":5,\"job\":" JOB405 "}", "BAD_COMBINATION price_cents");
	expect_alert_refused("{\"when\":\"ask_lte\",\"gpu\":\"h200\",\"price_cents\":5,"
	                     "\"max_total_minor\":5}", "BAD_COMBINATION max_total_minor");
	expect_alert_refused("{\"when\":\"order_filled\",\"regions\":[\"us-east\"]}",
	                     "BAD_COMBINATION regions");
}

static void test_job_alert_words(void **state)
{
	(void)state;
	char *cause = NULL;
	void *out = NULL;
	const char *al = "{\"id\":7,\"when\":\"job_total_lte\",\"gpu\":null,\"price_cents\":null,"
	                 "\"rearm_cents\":null,\"minutes\":null,\"rental_id\":null,\"order_id\":null,"
	                 "\"job\":" JOB405 ",\"hours\":24,\"regions\":[\"us-east\",\"eu-west\"],"
	                 "\"max_total_minor\":86400,\"rearm_minor\":4800,\"currency\":\"USD\","
	                 "\"label\":\"big\",\"state\":\"armed\",\"fired_count\":0,"
	                 "\"last_fired_at\":null,\"expires_at\":null,"
	                 "\"created_at\":\"2025-06-02T09:00:00Z\"}";
	assert_int_equal(api_alerts_decode("alert", 201, al, strlen(al), &out, &cause), 0);
	struct api_alert *a = out;
	assert_int_equal(a->when, API_WHEN_JOB_TOTAL_LTE);
	assert_string_equal(a->job_model, "llama-3.1-405b");
	assert_string_equal(a->job_method, "infer-fp8");
	assert_int_equal(a->job_params_millions, 405900);
	assert_int_equal(a->hours, 24);
	assert_int_equal(a->max_total_minor, 86400);
	assert_int_equal(a->rearm_minor, 4800);
	assert_string_equal(a->regions, "us-east,eu-west");
	char *t = view_alert_what(I18N_EN, a, NULL);
	assert_string_equal(t, "cheapest total of llama-3.1-405b (Inference FP8) for 24 h at or below "
	                    "$864.00");
	free(t);
	t = view_alert_what(I18N_PT_PT, a, NULL);
	assert_string_equal(t, "total mais barato de llama-3.1-405b (Inferência FP8) por 24 h a "
	                    "US$ 864,00 ou abaixo");
	free(t);
	api_alerts_reply_free("alert", &out);
	const char *budgetless = "{\"id\":7,\"when\":\"job_total_lte\",\"gpu\":null,"
	                         "\"price_cents\":null,\"rearm_cents\":null,\"minutes\":null,"
	                         "\"rental_id\":null,\"order_id\":null,\"label\":null,"
	                         "\"state\":\"armed\",\"fired_count\":0,\"last_fired_at\":null,"
	                         "\"expires_at\":null,\"created_at\":\"2025-06-02T09:00:00Z\"}";
	assert_int_equal(api_alerts_decode("alert", 201, budgetless, strlen(budgetless), &out, &cause),
	                 -1);
	assert_non_null(strstr(cause, "max_total_minor"));
	free(cause);
	cause = NULL;
	/* a training run without hours, and a job given by its size */
	t = view_job_alert_text(I18N_EN, NULL, 70600, "full", -1, 123456, "EUR");
	assert_string_equal(t, "cheapest total of a 70.6B model (Full training, the run's hours) at or "
	                    "below €1,234.56");
	free(t);
	t = view_job_alert_text(I18N_EN, NULL, -1, NULL, 2, 500, "USD");
	assert_string_equal(t, "cheapest total of a job (?) for 2 h at or below $5.00");
	free(t);
	/* its firing, as the stream sends it */
	const char *ev = "{\"id\":9,\"kind\":\"alert\",\"at\":\"2025-06-02T09:00:07Z\",\"seq\":1044,"
	                 "\"alert_id\":7,\"when\":\"job_total_lte\",\"max_total_minor\":86400,"
	                 "\"rearm_minor\":4800,\"label\":\"big\",\"state\":\"rearming\","
	                 "\"fired_count\":1,\"job\":" JOB405 ",\"gpu\":\"h200\","
	                 "\"total_minor\":84000,\"currency\":\"USD\",\"hours\":24,\"gpus\":4,"
	                 "\"node_gpus\":4,\"nodes\":1,\"interconnect\":\"nvlink\"}";
	assert_int_equal(api_alerts_decode("account_event", 200, ev, strlen(ev), &out, &cause), 0);
	struct api_account_event *e = out;
	assert_int_equal(e->total_minor, 84000);
	assert_int_equal(e->node_gpus, 4);
	t = view_account_event_text(I18N_EN, e, "H200");
	assert_string_equal(t, "Alert 7: cheapest total of llama-3.1-405b (Inference FP8) for 24 h at or "
	                    "below $864.00 — now $840.00 on H200, 1 node of 4 (NVLink) (big)");
	free(t);
	t = view_account_event_text(I18N_PT_PT, e, "H200");
	assert_string_equal(t, "Alerta 7: total mais barato de llama-3.1-405b (Inferência FP8) por 24 h "
	                    "a US$ 864,00 ou abaixo — agora US$ 840,00 em H200, 1 nó de 4 (NVLink) (big)");
	free(t);
	api_alerts_reply_free("account_event", &out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trig_exact_boundaries),
		cmocka_unit_test(test_trig_series_order_remove),
		cmocka_unit_test(test_trig_many),
		cmocka_unit_test_setup_teardown(test_parse_alert, setup_tables, teardown_tables),
		cmocka_unit_test_setup_teardown(test_parse_order_conditions, setup_tables, teardown_tables),
		cmocka_unit_test(test_decode_alerts),
		cmocka_unit_test(test_decode_events),
		cmocka_unit_test(test_decode_order_conditions),
		cmocka_unit_test(test_stream_account),
		cmocka_unit_test(test_words),
		cmocka_unit_test_setup_teardown(test_parse_job_alert, setup_tables, teardown_tables),
		cmocka_unit_test(test_job_alert_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
