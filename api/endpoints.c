/*
 * The endpoints of docs/API.md as functions: each *_start builds the request
 * (path, query, JSON body, retry policy) and hands it to the engine in
 * client.c together with its endpoint description (decoder, free function,
 * typed delivery); each blocking function starts the same request with an
 * internal callback and runs the client until that request is delivered.
 *
 * Request bodies are built with cJSON (string escaping) and raw integer
 * literals (so an amount is never printed through a double). Path and query
 * parts are percent-encoded.
 *
 * The DELIVER/WAITER macros below only generate these static adapters; they
 * are not an interface.
 */
#include "api/internal.h"

#include "fit/fit.h"
#include "util/util.h"

#include "api/curl_int.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- typed delivery ------------------------------------------------------------------ */

#define DELIVER(type) \
	static void deliver_##type(struct api_call *call, void *reply, const struct api_error *e) \
	{ \
		api_##type##_cb cb = (api_##type##_cb)api_call_cb(call); \
		cb(api_call_ud(call), reply, e); \
	}
DELIVER(market)
DELIVER(gpus)
DELIVER(workloads)
DELIVER(quotes)
DELIVER(book)
DELIVER(trades)
DELIVER(candles)
DELIVER(account)
DELIVER(deposit)
DELIVER(ledger)
DELIVER(preview)
DELIVER(order)
DELIVER(orders)
DELIVER(rental)
DELIVER(rentals)
DELIVER(job)

static const struct api_ep ep_market = {"market", api_dec_market, api_free_market, deliver_market, NULL, NULL, false};
static const struct api_ep ep_gpus = {"gpus", api_dec_gpus, api_free_gpus, deliver_gpus, NULL, NULL, false};
static const struct api_ep ep_workloads = {"workloads", api_dec_workloads, api_free_workloads, deliver_workloads, NULL, NULL, false};
static const struct api_ep ep_quotes = {"quotes", api_dec_quotes, api_free_quotes, deliver_quotes,
					 api_quotes_not_modified, api_quotes_set_etag, false};
static const struct api_ep ep_book = {"book", api_dec_book, api_free_book, deliver_book, NULL, NULL, false};
static const struct api_ep ep_trades = {"trades", api_dec_trades, api_free_trades, deliver_trades, NULL, NULL, false};
static const struct api_ep ep_candles = {"candles", api_dec_candles, api_free_candles, deliver_candles, NULL, NULL, false};
static const struct api_ep ep_account = {"account", api_dec_account, api_free_account, deliver_account, NULL, NULL, false};
static const struct api_ep ep_deposit = {"deposit", api_dec_deposit, api_free_deposit, deliver_deposit, NULL, NULL, false};
static const struct api_ep ep_ledger = {"ledger", api_dec_ledger, api_free_ledger, deliver_ledger, NULL, NULL, false};
static const struct api_ep ep_preview = {"preview", api_dec_preview, api_free_preview, deliver_preview, NULL, NULL, false};
static const struct api_ep ep_order = {"order", api_dec_order, api_free_order, deliver_order, NULL, NULL, false};
static const struct api_ep ep_order_cancel = {"order", api_dec_order_cancel, api_free_order, deliver_order, NULL, NULL, false};
static const struct api_ep ep_order_found = {"order", api_dec_order_found, api_free_order, deliver_order, NULL, NULL, false};
static const struct api_ep ep_orders = {"orders", api_dec_orders, api_free_orders, deliver_orders, NULL, NULL, false};
static const struct api_ep ep_rental = {"rental", api_dec_rental, api_free_rental, deliver_rental, NULL, NULL, false};
static const struct api_ep ep_rentals = {"rentals", api_dec_rentals, api_free_rentals, deliver_rentals, NULL, NULL, false};
static const struct api_ep ep_job = {"job order", api_dec_job, api_free_job, deliver_job, NULL, NULL, false};
static const struct api_ep ep_job_preview = {"job order preview", api_dec_job_preview, api_free_job, deliver_job, NULL, NULL, false};
static const struct api_ep ep_job_found = {"job order", api_dec_job_found, api_free_job, deliver_job, NULL, NULL, false};

/* ---- building requests ------------------------------------------------------------------ */

static uint64_t start(struct api_client *c, const char *method, char *path, char *body,
		      enum api_retry retry, const struct api_ep *ep, void (*cb)(void), void *ud)
{
	struct api_req r = {
		.method = method, .path = path, .body = body, .retry = retry, .ep = ep,
		.cb = cb, .ud = ud,
	};
	return api_call_start(c, &r);
}

static char *escape(const char *s)
{
	char *e = api_curl.easy_escape(NULL, s != NULL ? s : "", 0);
	char *r;

	if (e == NULL)
		fatal("out of memory");
	r = xstrdup(e);
	api_curl.free(e);
	return r;
}

static void query_add(struct buf *b, const char *name, const char *value)
{
	char *e;

	if (value == NULL)
		return;
	e = escape(value);
	buf_printf(b, "%c%s=%s", strchr(b->data, '?') != NULL ? '&' : '?', name, e);
	free(e);
}

/* "/v1/orders?status=open&limit=20" from base and q (taken by the caller). */
static char *list_path(const char *base, const struct api_list_query *q, bool filters)
{
	struct buf b = {0};
	char lim[24];

	buf_puts(&b, base);
	if (q == NULL)
		return buf_take(&b);
	if (filters) {
		query_add(&b, "status", q->status);
		query_add(&b, "gpu", q->gpu);
		query_add(&b, "side", q->side);
		query_add(&b, "client_order_id", q->client_order_id);
	}
	query_add(&b, "cursor", q->cursor);
	if (q->limit > 0) {
		snprintf(lim, sizeof lim, "%d", q->limit);
		query_add(&b, "limit", lim);
	}
	return buf_take(&b);
}

static void add_int(cJSON *o, const char *name, int64_t v)
{
	char num[24];

	snprintf(num, sizeof num, "%lld", (long long)v);
	cJSON_AddItemToObject(o, name, cJSON_CreateRaw(num));
}

static char *print_body(cJSON *o)
{
	char *s = cJSON_PrintUnformatted(o), *r;

	if (s == NULL)
		fatal("out of memory");
	r = xstrdup(s);
	cJSON_free(s);
	cJSON_Delete(o);
	return r;
}

static void add_strings(cJSON *o, const char *name, const char *const *v, size_t n)
{
	cJSON *a = cJSON_AddArrayToObject(o, name);

	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(v[i] != NULL ? v[i] : ""));
}

/* The lot of a sell, the requirements of a buy: each field only when set
 * (the exchange's default otherwise, which a replay compares as the same). */
static void lot_fields(cJSON *b, const struct api_order_req *o)
{
	bool sell = o->side == API_SELL;

	if (o->node_gpus > 0)
		add_int(b, "node_gpus", o->node_gpus);
	if (o->interconnect != NULL)
		cJSON_AddStringToObject(b, "interconnect", o->interconnect);
	if (sell && o->region != NULL)
		cJSON_AddStringToObject(b, "region", o->region);
	if (!sell && o->n_regions > 0)
		add_strings(b, "regions", o->regions, o->n_regions);
	if (o->host.cpu_cores > 0)
		add_int(b, sell ? "cpu_cores" : "min_cpu_cores", o->host.cpu_cores);
	if (o->host.ram_gb > 0)
		add_int(b, sell ? "ram_gb" : "min_ram_gb", o->host.ram_gb);
	if (o->host.disk_gb > 0)
		add_int(b, sell ? "disk_gb" : "min_disk_gb", o->host.disk_gb);
	if (sell && o->whole_nodes)
		cJSON_AddBoolToObject(b, "whole_nodes", true);
}

static char *order_body(const struct api_order_req *o, const char *client_order_id)
{
	cJSON *b = cJSON_CreateObject();
	const char *cap;

	if (client_order_id != NULL)
		cJSON_AddStringToObject(b, "client_order_id", client_order_id);
	cJSON_AddStringToObject(b, "gpu", o->gpu != NULL ? o->gpu : "");
	cJSON_AddStringToObject(b, "side", api_side_name(o->side));
	cJSON_AddStringToObject(b, "type", api_order_type_name(o->type));
	add_int(b, "gpus", o->gpus);
	add_int(b, "hours", o->hours);
	if (o->type == API_LIMIT)
		cap = "price_cents";
	else
		cap = o->side == API_BUY ? "max_price_cents" : "min_price_cents";
	add_int(b, cap, o->price_cents);
	if (o->tif != API_TIF_DEFAULT)
		cJSON_AddStringToObject(b, "time_in_force", api_tif_name(o->tif));
	lot_fields(b, o);
	if (o->has_trigger) {
		cJSON *t = cJSON_AddObjectToObject(b, "trigger");
		cJSON_AddStringToObject(t, "when", api_when_name(o->trigger_when));
		add_int(t, "price_cents", o->trigger_price_cents);
	}
	if (o->oco_group != NULL)
		cJSON_AddStringToObject(b, "oco_group", o->oco_group);
	if (o->standing)
		cJSON_AddBoolToObject(b, "standing", true);
	return print_body(b);
}

/* A job order: the job in the fit library's wire form (every field written,
 * fit_job_to_fields), the budget, the hours when given, the regions. */
void api_job_fields_put(cJSON *o, const char *key, const struct fit_job *job, const char *label)
{
	struct fit_field f[FIT_JOB_FIELDS_MAX];
	int n = job != NULL ? fit_job_to_fields(job, label, f, FIT_JOB_FIELDS_MAX) : 0;
	cJSON *j = cJSON_AddObjectToObject(o, key);

	for (int i = 0; i < n; i++) {
		switch (f[i].kind) {
		case FIT_FIELD_INT:
			add_int(j, f[i].name, f[i].i);
			break;
		case FIT_FIELD_BOOL:
			cJSON_AddBoolToObject(j, f[i].name, f[i].i != 0);
			break;
		case FIT_FIELD_ENUM:
		case FIT_FIELD_STRING:
			cJSON_AddStringToObject(j, f[i].name, f[i].s != NULL ? f[i].s : "");
			break;
		}
	}
}

static char *job_body(const struct api_job_req *r, const char *client_order_id)
{
	cJSON *b = cJSON_CreateObject();

	if (client_order_id != NULL)
		cJSON_AddStringToObject(b, "client_order_id", client_order_id);
	cJSON_AddStringToObject(b, "side", "buy");
	api_job_fields_put(b, "job", r->job, r->label);
	add_int(b, "max_total_minor", r->max_total_minor);
	if (r->hours > 0)
		add_int(b, "hours", r->hours);
	if (r->n_regions > 0)
		add_strings(b, "regions", r->regions, r->n_regions);
	cJSON_AddStringToObject(b, "time_in_force", "fok");
	return print_body(b);
}

/* ---- asynchronous calls ----------------------------------------------------------------- */

#define CB(f) ((void (*)(void))(f))

uint64_t api_market_start(struct api_client *c, api_market_cb cb, void *ud)
{
	return start(c, "GET", xstrdup("/v1/market"), NULL, API_RETRY_READ, &ep_market, CB(cb), ud);
}

uint64_t api_gpus_start(struct api_client *c, api_gpus_cb cb, void *ud)
{
	return start(c, "GET", xstrdup("/v1/gpus"), NULL, API_RETRY_READ, &ep_gpus, CB(cb), ud);
}

uint64_t api_workloads_start(struct api_client *c, api_workloads_cb cb, void *ud)
{
	return start(c, "GET", xstrdup("/v1/workloads"), NULL, API_RETRY_READ, &ep_workloads,
		     CB(cb), ud);
}

uint64_t api_quotes_start(struct api_client *c, const char *etag, api_quotes_cb cb, void *ud)
{
	struct api_req r = {
		.method = "GET", .path = xstrdup("/v1/quotes"),
		.etag = etag != NULL && *etag != '\0' ? xstrdup(etag) : NULL,
		.retry = API_RETRY_READ, .ep = &ep_quotes, .cb = CB(cb), .ud = ud,
	};
	return api_call_start(c, &r);
}

uint64_t api_book_start(struct api_client *c, const char *gpu, int depth, api_book_cb cb,
			void *ud)
{
	char *g = escape(gpu), *path;

	if (depth > 0)
		path = xasprintf("/v1/books/%s?depth=%d", g, depth);
	else
		path = xasprintf("/v1/books/%s", g);
	free(g);
	return start(c, "GET", path, NULL, API_RETRY_READ, &ep_book, CB(cb), ud);
}

uint64_t api_book_query_start(struct api_client *c, const char *gpu,
			      const struct api_book_query *q, api_book_cb cb, void *ud)
{
	char *g = escape(gpu), num[24];
	struct buf b = {0};

	buf_printf(&b, "/v1/books/%s", g);
	free(g);
	if (q != NULL && q->depth > 0) {
		snprintf(num, sizeof num, "%d", q->depth);
		query_add(&b, "depth", num);
	}
	if (q != NULL && q->node_gpus > 0) {
		snprintf(num, sizeof num, "%d", q->node_gpus);
		query_add(&b, "node_gpus", num);
	}
	if (q != NULL) {
		query_add(&b, "interconnect", q->interconnect);
		query_add(&b, "region", q->regions);
	}
	if (q != NULL && q->node_gpus <= 0 && q->interconnect == NULL && q->regions == NULL)
		query_add(&b, "node_gpus", "1"); /* asked by size: never the plain book */
	return start(c, "GET", buf_take(&b), NULL, API_RETRY_READ, &ep_book, CB(cb), ud);
}

uint64_t api_trades_start(struct api_client *c, const char *gpu,
			  const struct api_list_query *q, api_trades_cb cb, void *ud)
{
	char *g = escape(gpu), *base = xasprintf("/v1/trades/%s", g);
	char *path = list_path(base, q, false);

	free(g);
	free(base);
	return start(c, "GET", path, NULL, API_RETRY_READ, &ep_trades, CB(cb), ud);
}

static void iso_param(struct buf *b, const char *name, int64_t t)
{
	char s[32];
	time_t tt = (time_t)t;
	struct tm tm;

	if (t < 0)
		return;
	gmtime_r(&tt, &tm);
	strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	buf_printf(b, "%c%s=%s", strchr(b->data, '?') ? '&' : '?', name, s);
}

uint64_t api_candles_start(struct api_client *c, const char *gpu,
			   const struct api_candles_query *q, api_candles_cb cb, void *ud)
{
	char *g = escape(gpu);
	struct buf b = {0};

	buf_printf(&b, "/v1/candles/%s", g);
	free(g);
	if (q != NULL && q->interval != NULL) {
		char *iv = escape(q->interval);
		buf_printf(&b, "?interval=%s", iv);
		free(iv);
	}
	if (q != NULL) {
		iso_param(&b, "from", q->from);
		iso_param(&b, "to", q->to);
		if (q->limit > 0)
			buf_printf(&b, "%climit=%d", strchr(b.data, '?') ? '&' : '?', q->limit);
	}
	return start(c, "GET", buf_take(&b), NULL, API_RETRY_READ, &ep_candles, CB(cb), ud);
}

uint64_t api_account_create_start(struct api_client *c, const char *email,
				  const char *country, const char *currency, enum api_role role,
				  api_account_cb cb, void *ud)
{
	cJSON *b = cJSON_CreateObject();

	cJSON_AddStringToObject(b, "email", email != NULL ? email : "");
	cJSON_AddStringToObject(b, "country", country != NULL ? country : "");
	cJSON_AddStringToObject(b, "currency", currency != NULL ? currency : "");
	cJSON_AddStringToObject(b, "role", api_role_name(role));
	return start(c, "POST", xstrdup("/v1/accounts"), print_body(b), API_RETRY_UNSAFE,
		     &ep_account, CB(cb), ud);
}

uint64_t api_account_start(struct api_client *c, api_account_cb cb, void *ud)
{
	return start(c, "GET", xstrdup("/v1/account"), NULL, API_RETRY_READ, &ep_account,
		     CB(cb), ud);
}

uint64_t api_deposit_start(struct api_client *c, int64_t amount_minor, api_deposit_cb cb,
			   void *ud)
{
	cJSON *b = cJSON_CreateObject();

	add_int(b, "amount_minor", amount_minor);
	return start(c, "POST", xstrdup("/v1/deposits"), print_body(b), API_RETRY_UNSAFE,
		     &ep_deposit, CB(cb), ud);
}

uint64_t api_ledger_start(struct api_client *c, const struct api_list_query *q,
			  api_ledger_cb cb, void *ud)
{
	return start(c, "GET", list_path("/v1/ledger", q, false), NULL, API_RETRY_READ,
		     &ep_ledger, CB(cb), ud);
}

uint64_t api_order_preview_start(struct api_client *c, const struct api_order_req *o,
				 api_preview_cb cb, void *ud)
{
	/* a preview changes nothing: it is retried like a read */
	return start(c, "POST", xstrdup("/v1/orders/preview"), order_body(o, NULL),
		     API_RETRY_READ, &ep_preview, CB(cb), ud);
}

uint64_t api_order_place_start(struct api_client *c, const struct api_order_req *o,
			       api_order_cb cb, void *ud)
{
	char *coid = o->client_order_id != NULL ? xstrdup(o->client_order_id)
						: api_new_client_order_id();
	char *e = escape(coid);
	struct api_req r = {
		.method = "POST", .path = xstrdup("/v1/orders"), .body = order_body(o, coid),
		.client_order_id = coid, .retry = API_RETRY_ORDER, .ep = &ep_order,
		.reconcile_path = xasprintf("/v1/orders?client_order_id=%s&status=all", e),
		.reconcile_ep = &ep_order_found, .cb = CB(cb), .ud = ud,
	};

	free(e);
	return api_call_start(c, &r);
}

uint64_t api_order_get_start(struct api_client *c, int64_t id, api_order_cb cb, void *ud)
{
	return start(c, "GET", xasprintf("/v1/orders/%lld", (long long)id), NULL, API_RETRY_READ,
		     &ep_order, CB(cb), ud);
}

uint64_t api_order_cancel_start(struct api_client *c, int64_t id, api_order_cb cb, void *ud)
{
	return start(c, "DELETE", xasprintf("/v1/orders/%lld", (long long)id), NULL,
		     API_RETRY_UNSAFE, &ep_order_cancel, CB(cb), ud);
}

uint64_t api_orders_start(struct api_client *c, const struct api_list_query *q,
			  api_orders_cb cb, void *ud)
{
	return start(c, "GET", list_path("/v1/orders", q, true), NULL, API_RETRY_READ,
		     &ep_orders, CB(cb), ud);
}

uint64_t api_rentals_start(struct api_client *c, const struct api_list_query *q,
			   api_rentals_cb cb, void *ud)
{
	struct api_list_query r = {0};

	if (q != NULL) {
		r = *q;
		r.side = r.client_order_id = NULL;   /* not filters of /v1/rentals */
	}
	return start(c, "GET", list_path("/v1/rentals", q != NULL ? &r : NULL, true), NULL,
		     API_RETRY_READ, &ep_rentals, CB(cb), ud);
}

uint64_t api_rental_stop_start(struct api_client *c, int64_t id, api_rental_cb cb, void *ud)
{
	return start(c, "POST", xasprintf("/v1/rentals/%lld/stop", (long long)id), NULL,
		     API_RETRY_UNSAFE, &ep_rental, CB(cb), ud);
}

uint64_t api_job_preview_start(struct api_client *c, const struct api_job_req *r, api_job_cb cb,
			       void *ud)
{
	return start(c, "POST", xstrdup("/v1/orders/preview"), job_body(r, NULL), API_RETRY_READ,
		     &ep_job_preview, CB(cb), ud);
}

uint64_t api_job_place_start(struct api_client *c, const struct api_job_req *r, api_job_cb cb,
			     void *ud)
{
	char *coid = r->client_order_id != NULL ? xstrdup(r->client_order_id)
						: api_new_client_order_id();
	char *e = escape(coid);
	struct api_req q = {
		.method = "POST", .path = xstrdup("/v1/orders"), .body = job_body(r, coid),
		.client_order_id = coid, .retry = API_RETRY_ORDER, .ep = &ep_job,
		.reconcile_path = xasprintf("/v1/orders?client_order_id=%s&status=all", e),
		.reconcile_ep = &ep_job_found, .cb = CB(cb), .ud = ud,
	};

	free(e);
	return api_call_start(c, &q);
}

char *api_client_order_id_new(void)
{
	return api_new_client_order_id();
}

/* ---- blocking calls ---------------------------------------------------------------------- */

struct wait {
	bool done;
	void *reply;
	struct api_error *err;
};

static void wait_store(void *ud, void *reply, const struct api_error *e)
{
	struct wait *w = ud;

	w->done = true;
	w->reply = reply;
	if (e != NULL)
		w->err = api_error_copy(e);
}

#define WAITER(type) \
	static void wait_##type(void *ud, struct api_##type *r, const struct api_error *e) \
	{ \
		wait_store(ud, r, e); \
	}
WAITER(market)
WAITER(gpus)
WAITER(workloads)
WAITER(quotes)
WAITER(book)
WAITER(trades)
WAITER(candles)
WAITER(account)
WAITER(deposit)
WAITER(ledger)
WAITER(preview)
WAITER(order)
WAITER(orders)
WAITER(rental)
WAITER(rentals)
WAITER(job)

static int wait_finish(struct api_client *c, uint64_t id, struct wait *w, void **out,
		       struct api_error **err)
{
	api_run_until_done(c, id, &w->done);
	*out = w->reply;
	if (err != NULL)
		*err = w->err;
	else
		api_error_free(&w->err);
	return w->reply != NULL ? 0 : -1;
}

int api_market(struct api_client *c, struct api_market **out, struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_market_start(c, wait_market, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_gpus(struct api_client *c, struct api_gpus **out, struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_gpus_start(c, wait_gpus, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_workloads(struct api_client *c, struct api_workloads **out, struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_workloads_start(c, wait_workloads, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_quotes(struct api_client *c, const char *etag, struct api_quotes **out,
	       struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_quotes_start(c, etag, wait_quotes, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_book(struct api_client *c, const char *gpu, int depth, struct api_book **out,
	     struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_book_start(c, gpu, depth, wait_book, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_trades(struct api_client *c, const char *gpu, const struct api_list_query *q,
	       struct api_trades **out, struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_trades_start(c, gpu, q, wait_trades, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_candles(struct api_client *c, const char *gpu, const struct api_candles_query *q,
		struct api_candles **out, struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_candles_start(c, gpu, q, wait_candles, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_account_create(struct api_client *c, const char *email, const char *country,
		       const char *currency, enum api_role role, struct api_account **out,
		       struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_account_create_start(c, email, country, currency, role,
					       wait_account, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_account(struct api_client *c, struct api_account **out, struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_account_start(c, wait_account, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_deposit(struct api_client *c, int64_t amount_minor, struct api_deposit **out,
		struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_deposit_start(c, amount_minor, wait_deposit, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_ledger(struct api_client *c, const struct api_list_query *q, struct api_ledger **out,
	       struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_ledger_start(c, q, wait_ledger, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_order_preview(struct api_client *c, const struct api_order_req *o,
		      struct api_preview **out, struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_order_preview_start(c, o, wait_preview, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_order_place(struct api_client *c, const struct api_order_req *o, struct api_order **out,
		    struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_order_place_start(c, o, wait_order, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_order_get(struct api_client *c, int64_t oid, struct api_order **out,
		  struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_order_get_start(c, oid, wait_order, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_order_cancel(struct api_client *c, int64_t oid, struct api_order **out,
		     struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_order_cancel_start(c, oid, wait_order, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_orders(struct api_client *c, const struct api_list_query *q, struct api_orders **out,
	       struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_orders_start(c, q, wait_orders, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_rentals(struct api_client *c, const struct api_list_query *q, struct api_rentals **out,
		struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_rentals_start(c, q, wait_rentals, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_rental_stop(struct api_client *c, int64_t rid, struct api_rental **out,
		    struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_rental_stop_start(c, rid, wait_rental, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_book_query(struct api_client *c, const char *gpu, const struct api_book_query *q,
		   struct api_book **out, struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_book_query_start(c, gpu, q, wait_book, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_job_preview(struct api_client *c, const struct api_job_req *r, struct api_job **out,
		    struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_job_preview_start(c, r, wait_job, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}

int api_job_place(struct api_client *c, const struct api_job_req *r, struct api_job **out,
		  struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_job_place_start(c, r, wait_job, &w);
	return wait_finish(c, id, &w, (void **)out, err);
}
