/*
 * The wire types of docs/API.md: strict decoders from cJSON trees into the
 * typed structs of api.h, their _free functions, the names of the enums, and
 * the lenient reader of error bodies.
 *
 * Each decoder builds its struct field by field through the strict readers of
 * json.c and gives up at the first field that is wrong, freeing what it built;
 * the message names the field by its path ("quotes[3].best_ask_cents: …").
 * Ranges come from the contract: ids are positive and below 2^53, prices are
 * whole cents ≥ 1 (a price of 0 is never taken), counts are ≥ 0, balances are
 * ≥ 0 (no customer bucket goes below zero), ledger amounts are signed.
 * Unknown fields are ignored (v1 changes are additive).
 *
 * The DEC_* macros below are local shorthand for "read this field or jump to
 * fail"; they are not part of any interface.
 */
#include "api/wire_int.h"

#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* ---- enum names ------------------------------------------------------------------ */

static const char *const side_names[] = {"buy", "sell"};
static const char *const type_names[] = {"limit", "market"};
static const char *const tif_names[] = {"gtc", "ioc", "fok"};
static const char *const status_names[] = {"open", "partially_filled", "filled",
					   "cancelled", "expired", "rejected", "waiting"};
static const char *const role_names[] = {"buyer", "seller", "both"};
static const char *const state_names[] = {"pre_open", "open", "halted"};
static const char *const rental_names[] = {"active", "completed", "stopped"};
static const char *const ledger_names[] = {"deposit", "hold", "release", "charge", "vat",
					   "payout", "fee", "deposit_reversal", "withdrawal_hold",
					   "withdrawal", "withdrawal_release"};
static const char *const bucket_names[] = {"available", "held", "debt"};
static const char *const liquidity_names[] = {"taker", "maker"};
static const char *const rental_role_names[] = {"buyer", "seller"};

#define NAME_OF(tab, v) ((unsigned)(v) < sizeof(tab) / sizeof(tab)[0] ? (tab)[v] : "?")
const char *api_side_name(enum api_side v) { return NAME_OF(side_names, v); }
const char *api_order_type_name(enum api_order_type v) { return NAME_OF(type_names, v); }
const char *api_tif_name(enum api_tif v) { return v == API_TIF_DEFAULT ? "" : NAME_OF(tif_names, v); }
const char *api_order_status_name(enum api_order_status v) { return NAME_OF(status_names, v); }
const char *api_role_name(enum api_role v) { return NAME_OF(role_names, v); }
const char *api_market_state_name(enum api_market_state v) { return NAME_OF(state_names, v); }
const char *api_rental_status_name(enum api_rental_status v) { return NAME_OF(rental_names, v); }
const char *api_ledger_kind_name(enum api_ledger_kind v) { return NAME_OF(ledger_names, v); }

int api_tif_parse(const char *s, enum api_tif *out)
{
	for (int i = 0; i < 3; i++) {
		if (s != NULL && strcmp(s, tif_names[i]) == 0) {
			*out = (enum api_tif)i;
			return 0;
		}
	}
	return -1;
}

/* ---- small pieces ------------------------------------------------------------------- */

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static size_t array_len(const cJSON *a)
{
	return (size_t)cJSON_GetArraySize(a);
}

int api_dec_list(const cJSON *o, const char *path, const char *name, size_t size,
		 api_item_fn item, void *ctx, void **v, size_t *n, char **cause)
{
	const cJSON *a = api_json_array(o, path, name, cause), *it;

	*v = NULL;
	*n = 0;
	if (a == NULL)
		return -1;
	*v = xcalloc(array_len(a) + 1, size);
	cJSON_ArrayForEach(it, a) {
		char *p = api_json_index(path, name, *n);
		void *dst = (char *)*v + *n * size;
		int rc;
		(*n)++;
		if (!cJSON_IsObject(it))
			rc = set_cause(cause, "%s: expected an object", p);
		else
			rc = item(it, p, dst, *n - 1, ctx, cause);
		free(p);
		if (rc != 0)
			return -1;
	}
	return 0;
}

static int dec_balance(const cJSON *o, const char *path, struct api_balance *b, char **cause)
{
	char *p = api_json_path(path, "balance");
	const cJSON *bal = api_json_object(o, path, "balance", cause);

	if (bal == NULL)
		goto fail;
	DEC_INT(bal, p, "available_minor", 0, MAX_MONEY, b->available_minor);
	DEC_INT(bal, p, "held_minor", 0, MAX_MONEY, b->held_minor);
	DEC_INT(bal, p, "total_minor", 0, MAX_MONEY, b->total_minor);
	DEC_INT_OPT(bal, p, "debt_minor", 0, MAX_MONEY, b->debt_minor);
	if (b->debt_minor < 0)
		b->debt_minor = 0;
	DEC_INT_OPT(bal, p, "withdrawals_pending_minor", 0, MAX_MONEY, b->withdrawals_pending_minor);
	if (b->withdrawals_pending_minor < 0)
		b->withdrawals_pending_minor = 0;
	free(p);
	return 0;
fail:
	free(p);
	return -1;
}

/* A map {"KEY": integer, ...} into rates. */
static int dec_rates(const cJSON *o, const char *path, const char *name, int64_t max,
		     struct api_rate **out, size_t *n, char **cause)
{
	const cJSON *m = api_json_object(o, path, name, cause), *it;
	char *p;
	size_t i = 0;

	if (m == NULL)
		return -1;
	p = api_json_path(path, name);
	*n = array_len(m);
	*out = xcalloc(*n + 1, sizeof **out);
	cJSON_ArrayForEach(it, m) {
		(*out)[i].key = util_sanitize(it->string != NULL ? it->string : "", SHORT, true);
		if (api_json_int(m, p, it->string != NULL ? it->string : "", 0, MAX_MONEY,
				 &(*out)[i].value, cause) != 0) {
			free(p);
			return -1;
		}
		i++;
	}
	free(p);
	return 0;
}

static void free_rates(struct api_rate *r, size_t n)
{
	for (size_t i = 0; r != NULL && i < n; i++)
		free(r[i].key);
	free(r);
}

/* ---- market ----------------------------------------------------------------------- */

void api_market_free(struct api_market **pp)
{
	struct api_market *m;

	if (pp == NULL || (m = *pp) == NULL)
		return;
	free_strv(m->currencies, m->n_currencies);
	free(m->fx_date);
	free(m->fx_note);
	free_rates(m->fx, m->n_fx);
	free(m->vat_date);
	free(m->vat_source);
	free_rates(m->vat, m->n_vat);
	api_regions_free(m->regions, m->n_regions);
	free(m);
	*pp = NULL;
}

int api_dec_market(const cJSON *o, long status, void **out, char **cause)
{
	struct api_market *m = xcalloc(1, sizeof *m);
	const cJSON *a, *it, *fx, *vat, *lim;
	size_t i = 0;

	DEC_ENUM(o, "", "state", state_names, m->state);
	DEC_TIME_OPT(o, "", "opens_at", m->opens_at);
	DEC_TIME(o, "", "server_time", m->server_time);
	if (api_json_double(o, "", "clock_speed", 0, 1e9, &m->clock_speed, cause) != 0)
		goto fail;
	if (api_json_bool(o, "", "demo", &m->demo, cause) != 0 ||
	    api_json_bool(o, "", "simulated_payments", &m->simulated_payments, cause) != 0)
		goto fail;
	if ((a = api_json_array(o, "", "currencies", cause)) == NULL)
		goto fail;
	m->currencies = xcalloc(array_len(a) + 1, sizeof *m->currencies);
	cJSON_ArrayForEach(it, a) {
		if (!cJSON_IsString(it) || it->valuestring[0] == '\0') {
			set_cause(cause, "currencies[%zu]: expected a currency code", i);
			goto fail;
		}
		m->currencies[m->n_currencies++] = util_sanitize(it->valuestring, SHORT, true);
		i++;
	}
	if ((fx = api_json_object(o, "", "fx", cause)) == NULL)
		goto fail;
	DEC_STR(fx, "fx", "date", SHORT, m->fx_date);
	DEC_STR_OPT(fx, "fx", "note", LONG, m->fx_note);
	if (dec_rates(fx, "fx", "rate_micro", MAX_MONEY, &m->fx, &m->n_fx, cause) != 0)
		goto fail;
	if ((vat = api_json_object(o, "", "vat", cause)) == NULL)
		goto fail;
	DEC_STR(vat, "vat", "date", SHORT, m->vat_date);
	DEC_STR_OPT(vat, "vat", "source", LONG, m->vat_source);
	if (dec_rates(vat, "vat", "rate_bp", 10000, &m->vat, &m->n_vat, cause) != 0)
		goto fail;
	m->gpus_max = m->hours_max = m->price_cents_max = -1;
	lim = cJSON_GetObjectItemCaseSensitive(o, "limits");
	if (cJSON_IsObject(lim)) {
		DEC_INT_OPT(lim, "limits", "gpus_max", 1, MAX_COUNT, m->gpus_max);
		DEC_INT_OPT(lim, "limits", "hours_max", 1, MAX_COUNT, m->hours_max);
		DEC_INT_OPT(lim, "limits", "price_cents_max", 1, MAX_PRICE, m->price_cents_max);
	}
	if (api_dec_market_regions(o, m, cause) != 0)
		goto fail;
	*out = m;
	return 0;
fail:
	api_market_free(&m);
	return -1;
}

/* ---- gpus, workloads --------------------------------------------------------------- */

void api_gpus_free(struct api_gpus **pp)
{
	struct api_gpus *g;

	if (pp == NULL || (g = *pp) == NULL)
		return;
	for (size_t i = 0; i < g->n; i++) {
		free(g->v[i].id);
		free(g->v[i].name);
		free(g->v[i].arch);
		free(g->v[i].vendor);
	}
	free(g->v);
	free(g);
	*pp = NULL;
}

int api_dec_gpus(const cJSON *o, long status, void **out, char **cause)
{
	struct api_gpus *g = xcalloc(1, sizeof *g);
	const cJSON *a = api_json_array(o, "", "gpus", cause), *it;
	char *p = NULL;

	if (a == NULL)
		goto fail;
	g->v = xcalloc(array_len(a) + 1, sizeof *g->v);
	cJSON_ArrayForEach(it, a) {
		struct api_gpu *x = &g->v[g->n];
		p = api_json_index("", "gpus", g->n);
		g->n++;
		if (!cJSON_IsObject(it)) {
			set_cause(cause, "%s: expected an object", p);
			goto fail;
		}
		DEC_STR(it, p, "id", SHORT, x->id);
		DEC_STR(it, p, "name", SHORT, x->name);
		DEC_STR_OPT(it, p, "arch", SHORT, x->arch);
		DEC_STR_OPT(it, p, "vendor", SHORT, x->vendor);
		if (api_json_double(it, p, "memory_gb", 0, 1e7, &x->memory_gb, cause) != 0)
			goto fail;
		free(p);
		p = NULL;
	}
	*out = g;
	return 0;
fail:
	free(p);
	api_gpus_free(&g);
	return -1;
}

void api_workloads_free(struct api_workloads **pp)
{
	struct api_workloads *w;

	if (pp == NULL || (w = *pp) == NULL)
		return;
	for (size_t i = 0; i < w->n; i++) {
		free(w->v[i].id);
		free(w->v[i].title);
		free_strv(w->v[i].gpus, w->v[i].n_gpus);
	}
	free(w->v);
	free(w);
	*pp = NULL;
}

int api_dec_workloads(const cJSON *o, long status, void **out, char **cause)
{
	struct api_workloads *w = xcalloc(1, sizeof *w);
	const cJSON *a = api_json_array(o, "", "workloads", cause), *it, *g, *gi;
	char *p = NULL;

	if (a == NULL)
		goto fail;
	w->v = xcalloc(array_len(a) + 1, sizeof *w->v);
	cJSON_ArrayForEach(it, a) {
		struct api_workload *x = &w->v[w->n];
		p = api_json_index("", "workloads", w->n);
		w->n++;
		if (!cJSON_IsObject(it)) {
			set_cause(cause, "%s: expected an object", p);
			goto fail;
		}
		DEC_STR(it, p, "id", SHORT, x->id);
		DEC_STR(it, p, "title", LONG, x->title);
		if ((g = api_json_array(it, p, "gpus", cause)) == NULL)
			goto fail;
		x->gpus = xcalloc(array_len(g) + 1, sizeof *x->gpus);
		cJSON_ArrayForEach(gi, g) {
			if (!cJSON_IsString(gi) || gi->valuestring[0] == '\0') {
				set_cause(cause, "%s.gpus[%zu]: expected a GPU id", p, x->n_gpus);
				goto fail;
			}
			x->gpus[x->n_gpus++] = util_sanitize(gi->valuestring, SHORT, true);
		}
		free(p);
		p = NULL;
	}
	*out = w;
	return 0;
fail:
	free(p);
	api_workloads_free(&w);
	return -1;
}

/* ---- accounts ------------------------------------------------------------------------ */

void api_account_free(struct api_account **pp)
{
	struct api_account *a;

	if (pp == NULL || (a = *pp) == NULL)
		return;
	xfree_secret(a->api_key);
	free(a->email);
	free(a->country);
	free(a->currency);
	free(a);
	*pp = NULL;
}

int api_dec_account(const cJSON *o, long status, void **out, char **cause)
{
	struct api_account *a = xcalloc(1, sizeof *a);
	const cJSON *key = cJSON_GetObjectItemCaseSensitive(o, "api_key");

	DEC_INT(o, "", "id", 1, MAX_ID, a->id);
	if (key != NULL) {
		/* the key is secret: never quote it in a message */
		if (!cJSON_IsString(key) || strlen(key->valuestring) < 8 ||
		    strlen(key->valuestring) > 256 ||
		    strspn(key->valuestring, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					     "0123456789_-.") != strlen(key->valuestring)) {
			set_cause(cause, "api_key: expected a key of 8 to 256 letters, digits, "
					 "'_', '-' or '.'");
			goto fail;
		}
		a->api_key = xstrdup(key->valuestring);
	}
	DEC_STR(o, "", "email", 512, a->email);
	DEC_STR(o, "", "country", SHORT, a->country);
	DEC_STR(o, "", "currency", SHORT, a->currency);
	DEC_ENUM(o, "", "role", role_names, a->role);
	DEC_INT(o, "", "vat_rate_bp", 0, 10000, a->vat_rate_bp);
	DEC_INT_OPT(o, "", "fx_rate_micro", 1, MAX_MONEY, a->fx_rate_micro);
	DEC_INT_OPT(o, "", "currency_exponent", 0, 4, a->currency_exponent);
	if (a->currency_exponent < 0)
		a->currency_exponent = 2;
	if (api_json_time(o, "", "fx_rate_set_at", true, &a->fx_rate_set_at, cause) != 0)
		goto fail;
	{
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(o, "fx_rate_stale");
		a->fx_rate_stale = cJSON_IsTrue(st);
	}
	DEC_TIME(o, "", "created_at", a->created_at);
	a->open_orders = a->active_rentals = -1;
	if (cJSON_GetObjectItemCaseSensitive(o, "balance") != NULL || key == NULL) {
		if (dec_balance(o, "", &a->balance, cause) != 0)
			goto fail;
		a->has_balance = true;
		if (a->balance.total_minor != a->balance.available_minor + a->balance.held_minor) {
			set_cause(cause, "balance.total_minor is not available_minor + held_minor");
			goto fail;
		}
		DEC_INT(o, "", "open_orders", 0, MAX_COUNT, a->open_orders);
		DEC_INT(o, "", "active_rentals", 0, MAX_COUNT, a->active_rentals);
	}
	*out = a;
	return 0;
fail:
	api_account_free(&a);
	return -1;
}

void api_deposit_free(struct api_deposit **pp)
{
	struct api_deposit *d;

	if (pp == NULL || (d = *pp) == NULL)
		return;
	free(d->currency);
	free(d->reference);
	free(d->note);
	free(d);
	*pp = NULL;
}

int api_dec_deposit(const cJSON *o, long status, void **out, char **cause)
{
	struct api_deposit *d = xcalloc(1, sizeof *d);

	DEC_INT(o, "", "id", 1, MAX_ID, d->id);
	DEC_INT(o, "", "account_id", 1, MAX_ID, d->account_id);
	DEC_INT(o, "", "amount_minor", 1, MAX_MONEY, d->amount_minor);
	DEC_STR(o, "", "currency", SHORT, d->currency);
	DEC_TIME(o, "", "at", d->at);
	if (dec_balance(o, "", &d->balance, cause) != 0)
		goto fail;
	DEC_INT_OPT(o, "", "deposit_id", 1, MAX_ID, d->deposit_id);
	DEC_STR_OPT(o, "", "reference", SHORT, d->reference);
	DEC_STR_OPT(o, "", "note", LONG, d->note);
	DEC_INT_OPT(o, "", "debt_paid_minor", 0, MAX_MONEY, d->debt_paid_minor);
	if (d->debt_paid_minor < 0)
		d->debt_paid_minor = 0;
	DEC_INT_OPT(o, "", "reversal_debt_minor", 0, MAX_MONEY, d->reversal_debt_minor);
	if (d->reversal_debt_minor < 0)
		d->reversal_debt_minor = 0;
	if (api_json_time(o, "", "reversed_at", true, &d->reversed_at, cause) != 0)
		goto fail;
	d->replayed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "replayed"));
	*out = d;
	return 0;
fail:
	api_deposit_free(&d);
	return -1;
}

void api_ledger_free(struct api_ledger **pp)
{
	struct api_ledger *l;

	if (pp == NULL || (l = *pp) == NULL)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].currency);
	free(l->v);
	free(l->next_cursor);
	free(l);
	*pp = NULL;
}

int api_dec_ledger(const cJSON *o, long status, void **out, char **cause)
{
	struct api_ledger *l = xcalloc(1, sizeof *l);
	const cJSON *a, *it;
	char *p = NULL;
	int bucket;

	DEC_STR_OPT(o, "", "next_cursor", SHORT, l->next_cursor);
	if ((a = api_json_array(o, "", "entries", cause)) == NULL)
		goto fail;
	l->v = xcalloc(array_len(a) + 1, sizeof *l->v);
	cJSON_ArrayForEach(it, a) {
		struct api_ledger_row *x = &l->v[l->n];
		p = api_json_index("", "entries", l->n);
		l->n++;
		if (!cJSON_IsObject(it)) {
			set_cause(cause, "%s: expected an object", p);
			goto fail;
		}
		DEC_INT(it, p, "id", 1, MAX_ID, x->id);
		DEC_INT(it, p, "entry_id", 1, MAX_ID, x->entry_id);
		DEC_ENUM(it, p, "kind", ledger_names, x->kind);
		DEC_ENUM(it, p, "bucket", bucket_names, bucket);
		x->held = bucket == 1;
		x->debt = bucket == 2;
		DEC_INT(it, p, "amount_minor", -MAX_MONEY, MAX_MONEY, x->amount_minor);
		DEC_STR(it, p, "currency", SHORT, x->currency);
		DEC_INT_OPT(it, p, "order_id", 1, MAX_ID, x->order_id);
		DEC_INT_OPT(it, p, "rental_id", 1, MAX_ID, x->rental_id);
		DEC_TIME(it, p, "at", x->at);
		free(p);
		p = NULL;
	}
	*out = l;
	return 0;
fail:
	free(p);
	api_ledger_free(&l);
	return -1;
}

/* ---- orders ------------------------------------------------------------------------- */

void api_preview_free(struct api_preview **pp)
{
	struct api_preview *v;

	if (pp == NULL || (v = *pp) == NULL)
		return;
	free(v->gpu);
	for (size_t i = 0; v->fills != NULL && i < v->n_fills; i++) {
		api_lot_clear(&v->fills[i].lot);
		api_nodes_free(v->fills[i].nodes, v->fills[i].n_nodes);
	}
	free(v->fills);
	free(v->currency);
	free(v->reject_code);
	free(v->reject_message);
	api_lot_clear(&v->lot);
	api_needs_clear(&v->needs);
	free(v);
	*pp = NULL;
}

int api_dec_preview(const cJSON *o, long status, void **out, char **cause)
{
	struct api_preview *v = xcalloc(1, sizeof *v);
	const cJSON *a, *it, *cost, *rej, *th;
	char *p = NULL;
	int64_t waiting;

	DEC_STR(o, "", "gpu", SHORT, v->gpu);
	DEC_ENUM(o, "", "side", side_names, v->side);
	DEC_ENUM(o, "", "type", type_names, v->type);
	DEC_ENUM(o, "", "time_in_force", tif_names, v->tif);
	DEC_INT(o, "", "gpus", 1, MAX_COUNT, v->gpus);
	DEC_INT(o, "", "hours", 1, MAX_COUNT, v->hours);
	DEC_INT(o, "", "price_cents", 1, MAX_PRICE, v->price_cents);
	DEC_ENUM(o, "", "market_state", state_names, v->market_state);
	if ((a = api_json_array(o, "", "fills", cause)) == NULL)
		goto fail;
	v->fills = xcalloc(array_len(a) + 1, sizeof *v->fills);
	cJSON_ArrayForEach(it, a) {
		struct api_preview_fill *x = &v->fills[v->n_fills];
		p = api_json_index("", "fills", v->n_fills);
		v->n_fills++;
		if (!cJSON_IsObject(it)) {
			set_cause(cause, "%s: expected an object", p);
			goto fail;
		}
		DEC_INT(it, p, "price_cents", 1, MAX_PRICE, x->price_cents);
		DEC_INT(it, p, "gpus", 1, MAX_COUNT, x->gpus);
		if (api_dec_fill_lot(it, p, x, cause) != 0)
			goto fail;
		free(p);
		p = NULL;
	}
	DEC_INT(o, "", "fill_gpus", 0, MAX_COUNT, v->fill_gpus);
	DEC_INT(o, "", "rest_gpus", 0, MAX_COUNT, v->rest_gpus);
	DEC_INT(o, "", "expire_gpus", 0, MAX_COUNT, v->expire_gpus);
	DEC_INT_OPT(o, "", "waiting_gpus", 0, MAX_COUNT, waiting);
	if (v->fill_gpus + v->rest_gpus + v->expire_gpus + (waiting > 0 ? waiting : 0) != v->gpus) {
		set_cause(cause, "fill_gpus + rest_gpus + expire_gpus + waiting_gpus is not gpus");
		goto fail;
	}
	v->trigger_holds = -1;
	if ((th = cJSON_GetObjectItemCaseSensitive(o, "trigger_holds")) != NULL) {
		if (!cJSON_IsBool(th)) {
			set_cause(cause, "trigger_holds: expected true or false");
			goto fail;
		}
		v->trigger_holds = cJSON_IsTrue(th) ? 1 : 0;
	}
	DEC_STR(o, "", "currency", SHORT, v->currency);
	DEC_INT(o, "", "fx_rate_micro", 1, MAX_MONEY, v->fx_rate_micro);
	DEC_INT(o, "", "vat_rate_bp", 0, 10000, v->vat_rate_bp);
	DEC_INT(o, "", "unit_minor", 0, MAX_MONEY, v->unit_minor);
	DEC_INT(o, "", "hold_minor", 0, MAX_MONEY, v->hold_minor);
	if ((cost = api_json_object(o, "", "cost", cause)) == NULL)
		goto fail;
	DEC_INT(cost, "cost", "net_minor", 0, MAX_MONEY, v->net_minor);
	DEC_INT(cost, "cost", "vat_minor", 0, MAX_MONEY, v->vat_minor);
	DEC_INT(cost, "cost", "total_minor", 0, MAX_MONEY, v->total_minor);
	if (v->net_minor + v->vat_minor != v->total_minor) {
		set_cause(cause, "cost.total_minor is not net_minor + vat_minor");
		goto fail;
	}
	DEC_INT(o, "", "balance_available_minor", 0, MAX_MONEY, v->balance_available_minor);
	DEC_INT(o, "", "balance_after_minor", -MAX_MONEY, MAX_MONEY, v->balance_after_minor);
	DEC_ENUM(o, "", "would_status", status_names, v->would_status);
	rej = cJSON_GetObjectItemCaseSensitive(o, "would_reject");
	if (rej != NULL && !cJSON_IsNull(rej)) {
		if (!cJSON_IsObject(rej)) {
			set_cause(cause, "would_reject: expected null or an object");
			goto fail;
		}
		DEC_STR(rej, "would_reject", "code", SHORT, v->reject_code);
		if (api_json_str(rej, "would_reject", "message", LONG, true, &v->reject_message,
				 cause) != 0)
			goto fail;
	}
	if (api_dec_preview_lot(o, v, cause) != 0)
		goto fail;
	*out = v;
	return 0;
fail:
	free(p);
	api_preview_free(&v);
	return -1;
}

static void order_clear(struct api_order *x)
{
	free(x->client_order_id);
	free(x->gpu);
	free(x->currency);
	free(x->oco_group);
	free(x->standing_reason);
	free(x->fills);
	api_lot_clear(&x->lot);
	api_needs_clear(&x->needs);
	api_nodes_free(x->nodes, x->n_nodes);
}

void api_order_free(struct api_order **pp)
{
	if (pp == NULL || *pp == NULL)
		return;
	order_clear(*pp);
	free(*pp);
	*pp = NULL;
}

/* One order object at path p; fills required when want_fills. */
static int dec_order_obj(const cJSON *o, const char *p, bool want_fills, struct api_order *x,
			 char **cause)
{
	const cJSON *a, *it;
	char *fp = NULL;
	int liq;

	if (!cJSON_IsObject(o))
		return set_cause(cause, "%s: expected an object", *p ? p : "the reply");
	DEC_INT(o, p, "id", 1, MAX_ID, x->id);
	DEC_STR(o, p, "client_order_id", SHORT, x->client_order_id);
	DEC_STR(o, p, "gpu", SHORT, x->gpu);
	DEC_ENUM(o, p, "side", side_names, x->side);
	DEC_ENUM(o, p, "type", type_names, x->type);
	DEC_ENUM(o, p, "time_in_force", tif_names, x->tif);
	DEC_INT(o, p, "gpus", 1, MAX_COUNT, x->gpus);
	DEC_INT(o, p, "hours", 1, MAX_COUNT, x->hours);
	DEC_INT(o, p, "price_cents", 1, MAX_PRICE, x->price_cents);
	DEC_ENUM(o, p, "status", status_names, x->status);
	DEC_INT(o, p, "filled_gpus", 0, MAX_COUNT, x->filled_gpus);
	DEC_INT(o, p, "remaining_gpus", 0, MAX_COUNT, x->remaining_gpus);
	DEC_INT(o, p, "filled_value_cents", 0, MAX_MONEY, x->filled_value_cents);
	if (x->filled_gpus + x->remaining_gpus > x->gpus) {
		fp = api_json_path(p, "filled_gpus");
		set_cause(cause, "%s: filled + remaining GPUs exceed the order's GPUs", fp);
		goto fail;
	}
	DEC_STR(o, p, "currency", SHORT, x->currency);
	DEC_INT(o, p, "hold_minor", 0, MAX_MONEY, x->hold_minor);
	DEC_TIME(o, p, "created_at", x->created_at);
	DEC_TIME(o, p, "updated_at", x->updated_at);
	if (api_dec_order_lot(o, p, x, cause) != 0 || api_dec_order_cond(o, p, x, cause) != 0)
		goto fail;
	a = cJSON_GetObjectItemCaseSensitive(o, "fills");
	if (a == NULL && !want_fills)
		return 0;
	if ((a = api_json_array(o, p, "fills", cause)) == NULL)
		goto fail;
	x->has_fills = true;
	x->fills = xcalloc(array_len(a) + 1, sizeof *x->fills);
	cJSON_ArrayForEach(it, a) {
		struct api_fill *f = &x->fills[x->n_fills];
		fp = api_json_index(p, "fills", x->n_fills);
		x->n_fills++;
		if (!cJSON_IsObject(it)) {
			set_cause(cause, "%s: expected an object", fp);
			goto fail;
		}
		DEC_INT(it, fp, "trade_id", 1, MAX_ID, f->trade_id);
		DEC_INT(it, fp, "price_cents", 1, MAX_PRICE, f->price_cents);
		DEC_INT(it, fp, "gpus", 1, MAX_COUNT, f->gpus);
		DEC_INT(it, fp, "hours", 1, MAX_COUNT, f->hours);
		DEC_INT(it, fp, "rental_id", 1, MAX_ID, f->rental_id);
		DEC_ENUM(it, fp, "liquidity", liquidity_names, liq);
		f->maker = liq == 1;
		DEC_TIME(it, fp, "at", f->at);
		free(fp);
		fp = NULL;
	}
	return 0;
fail:
	free(fp);
	return -1;
}

int api_dec_order(const cJSON *o, long status, void **out, char **cause)
{
	struct api_order *x = xcalloc(1, sizeof *x);

	if (dec_order_obj(o, "", true, x, cause) != 0) {
		api_order_free(&x);
		return -1;
	}
	x->replayed = status == 200;   /* POST /v1/orders: 201 new, 200 a replay */
	*out = x;
	return 0;
}

/* DELETE /v1/orders/{id}: the order (fills optional). */
int api_dec_order_cancel(const cJSON *o, long status, void **out, char **cause)
{
	struct api_order *x = xcalloc(1, sizeof *x);

	if (dec_order_obj(o, "", false, x, cause) != 0) {
		api_order_free(&x);
		return -1;
	}
	*out = x;
	return 0;
}

void api_orders_free(struct api_orders **pp)
{
	struct api_orders *l;

	if (pp == NULL || (l = *pp) == NULL)
		return;
	for (size_t i = 0; i < l->n; i++)
		order_clear(&l->v[i]);
	free(l->v);
	free(l->next_cursor);
	free(l);
	*pp = NULL;
}

static int order_item(const cJSON *it, const char *p, void *dst, size_t i, void *ctx, char **cause)
{
	return dec_order_obj(it, p, false, dst, cause);
}

int api_dec_orders(const cJSON *o, long status, void **out, char **cause)
{
	struct api_orders *l = xcalloc(1, sizeof *l);

	DEC_STR_OPT(o, "", "next_cursor", SHORT, l->next_cursor);
	if (api_dec_list(o, "", "orders", sizeof *l->v, order_item, NULL, (void **)&l->v, &l->n,
			 cause) != 0)
		goto fail;
	*out = l;
	return 0;
fail:
	api_orders_free(&l);
	return -1;
}

/* Reconciliation: GET /v1/orders?client_order_id=X → that order, or "not listed". */
int api_dec_order_found(const cJSON *o, long status, void **out, char **cause)
{
	struct api_orders *l = NULL;
	struct api_order *x;

	if (api_dec_orders(o, status, (void **)&l, cause) != 0)
		return -1;
	if (l->n == 0) {
		api_orders_free(&l);
		return set_cause(cause, "no order with this client order id");
	}
	x = xmalloc(sizeof *x);
	*x = l->v[0];
	memset(&l->v[0], 0, sizeof l->v[0]);
	api_orders_free(&l);
	x->reconciled = true;
	*out = x;
	return 0;
}

/* ---- rentals ---------------------------------------------------------------------------- */

static void rental_clear(struct api_rental *r)
{
	free(r->gpu);
	free(r->currency);
	api_lot_clear(&r->lot);
	api_nodes_free(r->nodes, r->n_nodes);
}

void api_rental_free(struct api_rental **pp)
{
	if (pp == NULL || *pp == NULL)
		return;
	rental_clear(*pp);
	free(*pp);
	*pp = NULL;
}

static int dec_rental_obj(const cJSON *o, const char *p, struct api_rental *x, char **cause)
{
	int role;

	if (!cJSON_IsObject(o))
		return set_cause(cause, "%s: expected an object", *p ? p : "the reply");
	DEC_INT(o, p, "id", 1, MAX_ID, x->id);
	DEC_STR(o, p, "gpu", SHORT, x->gpu);
	DEC_ENUM(o, p, "role", rental_role_names, role);
	x->seller = role == 1;
	DEC_INT(o, p, "order_id", 1, MAX_ID, x->order_id);
	DEC_INT(o, p, "trade_id", 1, MAX_ID, x->trade_id);
	DEC_INT(o, p, "gpus", 1, MAX_COUNT, x->gpus);
	DEC_INT(o, p, "hours", 1, MAX_COUNT, x->hours);
	DEC_INT(o, p, "price_cents", 1, MAX_PRICE, x->price_cents);
	DEC_ENUM(o, p, "status", rental_names, x->status);
	DEC_INT(o, p, "hours_billed", 0, MAX_COUNT, x->hours_billed);
	DEC_TIME(o, p, "started_at", x->started_at);
	DEC_TIME(o, p, "ends_at", x->ends_at);
	DEC_TIME_OPT(o, p, "stopped_at", x->stopped_at);
	DEC_TIME_OPT(o, p, "next_bill_at", x->next_bill_at);
	DEC_STR(o, p, "currency", SHORT, x->currency);
	DEC_INT(o, p, "unit_minor", 0, MAX_MONEY, x->unit_minor);
	DEC_INT(o, p, "hourly_minor", 0, MAX_MONEY, x->hourly_minor);
	DEC_INT(o, p, "hourly_vat_minor", 0, MAX_MONEY, x->hourly_vat_minor);
	DEC_INT(o, p, "billed_minor", 0, MAX_MONEY, x->billed_minor);
	DEC_INT(o, p, "refunded_minor", 0, MAX_MONEY, x->refunded_minor);
	DEC_INT(o, p, "held_minor", 0, MAX_MONEY, x->held_minor);
	if (x->hours_billed > x->hours) {
		char *fp = api_json_path(p, "hours_billed");
		set_cause(cause, "%s: more hours billed than rented", fp);
		free(fp);
		goto fail;
	}
	return api_dec_rental_lot(o, p, x, cause);
fail:
	return -1;
}

int api_dec_rental(const cJSON *o, long status, void **out, char **cause)
{
	struct api_rental *x = xcalloc(1, sizeof *x);

	if (dec_rental_obj(o, "", x, cause) != 0) {
		api_rental_free(&x);
		return -1;
	}
	*out = x;
	return 0;
}

void api_rentals_free(struct api_rentals **pp)
{
	struct api_rentals *l;

	if (pp == NULL || (l = *pp) == NULL)
		return;
	for (size_t i = 0; i < l->n; i++)
		rental_clear(&l->v[i]);
	free(l->v);
	free(l->next_cursor);
	free(l);
	*pp = NULL;
}

static int rental_item(const cJSON *it, const char *p, void *dst, size_t i, void *ctx, char **cause)
{
	return dec_rental_obj(it, p, dst, cause);
}

int api_dec_rentals(const cJSON *o, long status, void **out, char **cause)
{
	struct api_rentals *l = xcalloc(1, sizeof *l);

	DEC_STR_OPT(o, "", "next_cursor", SHORT, l->next_cursor);
	if (api_dec_list(o, "", "rentals", sizeof *l->v, rental_item, NULL, (void **)&l->v, &l->n,
			 cause) != 0)
		goto fail;
	*out = l;
	return 0;
fail:
	api_rentals_free(&l);
	return -1;
}

/* ---- errors ----------------------------------------------------------------------------- */

#define MAX_SNIPPET 160   /* bytes of a non-JSON error body quoted to the user */

struct api_error *api_error_from_reply(long status, const char *data, size_t len,
				       const char *request_id_header)
{
	struct api_error *e = api_error_new(API_ERR_HTTP, "HTTP %ld", status);
	char *cause = NULL, *snippet, *s = NULL;
	cJSON *root = NULL;
	const cJSON *err;
	int64_t ra;

	e->http_status = (int)status;
	if (request_id_header != NULL)
		e->request_id = xstrdup(request_id_header);
	if (data != NULL && len > 0)
		root = api_json_parse(data, len, &cause);
	free(cause);
	cause = NULL;
	err = root != NULL ? cJSON_GetObjectItemCaseSensitive(root, "error") : NULL;
	if (cJSON_IsObject(err)) {
		if (api_json_str(err, "error", "code", 64, false, &s, &cause) == 0)
			e->code = s;
		free(cause);
		cause = NULL;
		if (api_json_str(err, "error", "message", LONG, false, &s, &cause) == 0) {
			free(e->message);
			e->message = s;
		}
		free(cause);
		cause = NULL;
		if (api_json_str_opt(err, "error", "request_id", SHORT, &s, &cause) == 0 &&
		    s != NULL) {
			free(e->request_id);
			e->request_id = s;
		}
		free(cause);
		cause = NULL;
		if (api_json_int(err, "error", "retry_after", 1, 86400, &ra, &cause) == 0)
			e->retry_after_s = (int)ra;
		free(cause);
		cause = NULL;
		/* the extras some codes add; each only when well-formed */
		if (api_json_str(err, "error", "field", SHORT, false, &s, &cause) == 0)
			e->field = s;
		free(cause);
		cause = NULL;
		if (api_json_int(err, "error", "required_minor", 0, MAX_MONEY, &ra, &cause) == 0)
			e->required_minor = ra;
		free(cause);
		cause = NULL;
		if (api_json_int(err, "error", "available_minor", 0, MAX_MONEY, &ra, &cause) == 0)
			e->available_minor = ra;
		free(cause);
		cause = NULL;
		if (api_json_str(err, "error", "currency", SHORT, false, &s, &cause) == 0)
			e->currency = s;
		free(cause);
		cause = NULL;
		if (api_json_time(err, "error", "opens_at", false, &ra, &cause) == 0)
			e->opens_at = ra;
		free(cause);
		cause = NULL;
		/* a job order's refusal: the GPUs compared (kept only when well-formed) */
		if (cJSON_GetObjectItemCaseSensitive(err, "alternatives") != NULL &&
		    api_dec_job_alts(err, "error", &e->alternatives, &e->n_alternatives,
				     &cause) != 0) {
			api_job_alts_free(e->alternatives, e->n_alternatives);
			e->alternatives = NULL;
			e->n_alternatives = 0;
		}
		free(cause);
	} else if (data != NULL && len > 0) {
		snippet = util_sanitize(data, MAX_SNIPPET, false);
		free(e->message);
		e->message = xasprintf("HTTP %ld without an error object: \"%s%s\"", status,
				       snippet, len > MAX_SNIPPET ? "…" : "");
		free(snippet);
	} else {
		free(e->message);
		e->message = xasprintf("HTTP %ld with an empty body", status);
	}
	cJSON_Delete(root);
	return e;
}

/* ---- endpoint descriptions (the deliver functions live in endpoints.c) -------------------- */

#define FREE_FN(type) \
	void api_free_##type(void *r) { struct api_##type *p = r; api_##type##_free(&p); }
FREE_FN(market)
FREE_FN(gpus)
FREE_FN(workloads)
FREE_FN(quotes)
FREE_FN(book)
FREE_FN(trades)
FREE_FN(account)
FREE_FN(deposit)
FREE_FN(ledger)
FREE_FN(preview)
FREE_FN(order)
FREE_FN(orders)
FREE_FN(rental)
FREE_FN(rentals)

struct decoder {
	const char *name;
	int (*decode)(const cJSON *root, long status, void **out, char **cause);
	void (*free_reply)(void *reply);
};

static const struct decoder decoders[] = {
	{"market", api_dec_market, api_free_market},
	{"gpus", api_dec_gpus, api_free_gpus},
	{"workloads", api_dec_workloads, api_free_workloads},
	{"quotes", api_dec_quotes, api_free_quotes},
	{"book", api_dec_book, api_free_book},
	{"trades", api_dec_trades, api_free_trades},
	{"candles", api_dec_candles, api_free_candles},
	{"account", api_dec_account, api_free_account},
	{"deposit", api_dec_deposit, api_free_deposit},
	{"ledger", api_dec_ledger, api_free_ledger},
	{"preview", api_dec_preview, api_free_preview},
	{"order", api_dec_order, api_free_order},
	{"order_cancel", api_dec_order_cancel, api_free_order},
	{"order_found", api_dec_order_found, api_free_order},
	{"orders", api_dec_orders, api_free_orders},
	{"rental", api_dec_rental, api_free_rental},
	{"rentals", api_dec_rentals, api_free_rentals},
	{"job", api_dec_job, api_free_job},
	{"job_preview", api_dec_job_preview, api_free_job},
};

static const struct decoder *find_decoder(const char *name)
{
	for (size_t i = 0; i < sizeof decoders / sizeof decoders[0]; i++)
		if (strcmp(decoders[i].name, name) == 0)
			return &decoders[i];
	return NULL;
}

static void free_error(void *r)
{
	struct api_error *e = r;
	api_error_free(&e);
}

int api_decode(const char *name, long status, const char *data, size_t len, void **out,
	       char **cause)
{
	const struct decoder *d;
	cJSON *root;
	int rc;

	*out = NULL;
	if (strcmp(name, "error") == 0) {
		*out = api_error_from_reply(status, data, len, NULL);
		return 0;
	}
	if ((d = find_decoder(name)) == NULL)
		return set_cause(cause, "no decoder named \"%s\"", name);
	if ((root = api_json_parse(data, len, cause)) == NULL)
		return -1;
	rc = d->decode(root, status, out, cause);
	cJSON_Delete(root);
	return rc;
}

void api_reply_free(const char *name, void **out)
{
	const struct decoder *d;

	if (out == NULL || *out == NULL)
		return;
	if (strcmp(name, "error") == 0)
		free_error(*out);
	else if ((d = find_decoder(name)) != NULL)
		d->free_reply(*out);
	*out = NULL;
}
