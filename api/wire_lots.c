/*
 * api/wire_lots.c — the lot fields of the wire types (docs/API.md, the
 * market's rules): what an ask sells (machines of node_gpus GPUs, their
 * interconnect, region and host, whole nodes or not), what a bid requires,
 * the machines a rental or a fill was given, the regions an exchange
 * publishes, and the job orders' replies (the frame, the alternatives the
 * exchange compared, a refusal's alternatives).
 *
 * The same strictness as api/wire.c: a field that is there must be right
 * (a node size the contract does not have, a link it does not name, GPUs on
 * a machine beyond its size, machines whose GPUs do not add up to the
 * rental's, a unit that does not divide its fill) or the reply is refused
 * naming the field. An exchange from before lots sends none of them: an
 * order, a rental or a preview without node_gpus says so (has_lot false)
 * and decodes as before.
 */
#include "api/wire_int.h"

#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CORES 4096
#define MAX_RAM_GB 65536
#define MAX_DISK_GB 1000000
#define MAX_REGIONS 64

static const char *const link_names[] = {"nvlink", "infinity-fabric", "pcie"};

/* ---- freeing ------------------------------------------------------------------------- */

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; v != NULL && i < n; i++)
		free(v[i]);
	free(v);
}

void api_lot_clear(struct api_lot *l)
{
	free(l->interconnect);
	free(l->region);
	memset(l, 0, sizeof *l);
}

void api_needs_clear(struct api_needs *n)
{
	free(n->interconnect);
	free_strv(n->regions, n->n_regions);
	memset(n, 0, sizeof *n);
}

void api_nodes_free(struct api_node *v, size_t n)
{
	for (size_t i = 0; v != NULL && i < n; i++)
		free(v[i].node);
	free(v);
}

/* ---- pieces ---------------------------------------------------------------------------- */

static bool present(const cJSON *o, const char *name)
{
	return cJSON_GetObjectItemCaseSensitive(o, name) != NULL;
}

/* node_gpus: 1, 2, 4 or 8. */
static int dec_node_gpus(const cJSON *o, const char *p, const char *name, int64_t *out,
			 char **cause)
{
	int64_t v;

	if (api_json_int(o, p, name, 1, 8, &v, cause) != 0)
		return -1;
	if (v != 1 && v != 2 && v != 4 && v != 8) {
		char *fp = api_json_path(p, name);
		set_cause(cause, "%s: %lld is not a node size (1, 2, 4 or 8)", fp, (long long)v);
		free(fp);
		return -1;
	}
	*out = v;
	return 0;
}

/* An interconnect name; null gives NULL when nullable. */
static int dec_link(const cJSON *o, const char *p, bool nullable, char **out, char **cause)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "interconnect");
	int i;

	*out = NULL;
	if (nullable && cJSON_IsNull(v))
		return 0;
	if (api_json_enum(o, p, "interconnect", link_names, 3, &i, cause) != 0)
		return -1;
	*out = xstrdup(link_names[i]);
	return 0;
}

/* The host's three figures in h from object o (path p). */
static int dec_host_fields(const cJSON *o, const char *p, const char *const names[3],
			   struct api_host *h, char **cause)
{
	DEC_INT(o, p, names[0], 0, MAX_CORES, h->cpu_cores);
	DEC_INT(o, p, names[1], 0, MAX_RAM_GB, h->ram_gb);
	DEC_INT(o, p, names[2], 0, MAX_DISK_GB, h->disk_gb);
	return 0;
fail:
	return -1;
}

static const char *const host_names[3] = {"cpu_cores", "ram_gb", "disk_gb"};
static const char *const min_names[3] = {"min_cpu_cores", "min_ram_gb", "min_disk_gb"};

/* "host": {"cpu_cores", "ram_gb", "disk_gb"}. */
static int dec_host_object(const cJSON *o, const char *p, struct api_host *h, char **cause)
{
	const cJSON *ho = api_json_object(o, p, "host", cause);
	char *hp = api_json_path(p, "host");
	int rc = ho != NULL ? dec_host_fields(ho, hp, host_names, h, cause) : -1;

	free(hp);
	return rc;
}

/* An array of region ids (1..64 of them), or null (→ none) when nullable. */
static int dec_region_ids(const cJSON *o, const char *p, const char *name, bool nullable,
			  char ***v, size_t *n, char **cause)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, name), *it;

	*v = NULL;
	*n = 0;
	if (nullable && cJSON_IsNull(a))
		return 0;
	if ((a = api_json_array(o, p, name, cause)) == NULL)
		return -1;
	if (cJSON_GetArraySize(a) < 1 || cJSON_GetArraySize(a) > MAX_REGIONS) {
		char *fp = api_json_path(p, name);
		set_cause(cause, "%s: expected 1 to %d region ids", fp, MAX_REGIONS);
		free(fp);
		return -1;
	}
	*v = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof **v);
	cJSON_ArrayForEach(it, a) {
		if (!cJSON_IsString(it) || it->valuestring[0] == '\0' ||
		    strlen(it->valuestring) > SHORT) {
			char *fp = api_json_index(p, name, *n);
			set_cause(cause, "%s: expected a region id", fp);
			free(fp);
			return -1;
		}
		(*v)[(*n)++] = util_sanitize(it->valuestring, SHORT, true);
	}
	return 0;
}

struct nodes_rule {
	const char *gpus_key;      /* "gpus" or "free_gpus" */
	int64_t node_gpus;         /* each machine has at most this many */
};

static int node_item(const cJSON *it, const char *p, void *dst, size_t i, void *ctx, char **cause)
{
	const struct nodes_rule *r = ctx;
	struct api_node *x = dst;

	DEC_STR(it, p, "node", SHORT, x->node);
	DEC_INT(it, p, r->gpus_key, 0, r->node_gpus, x->gpus);
	return 0;
fail:
	return -1;
}

/* "nodes": machines and their GPUs (each at most node_gpus); null gives
 * none when nullable. *sum: their GPUs. */
static int dec_nodes(const cJSON *o, const char *p, const char *gpus_key, int64_t node_gpus,
		     bool nullable, struct api_node **v, size_t *n, int64_t *sum, char **cause)
{
	struct nodes_rule r = { gpus_key, node_gpus };

	*v = NULL;
	*n = 0;
	*sum = 0;
	if (nullable && cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(o, "nodes")))
		return 0;
	if (api_dec_list(o, p, "nodes", sizeof **v, node_item, &r, (void **)v, n, cause) != 0)
		return -1;
	for (size_t i = 0; i < *n; i++)
		*sum += (*v)[i].gpus;
	return 0;
}

static int mismatch(char **cause, const char *p, const char *name, const char *what)
{
	char *fp = api_json_path(p, name);

	set_cause(cause, "%s: %s", fp, what);
	free(fp);
	return -1;
}

/* A lot whose host is an object ("host": {...}): a rental's, a fill's. */
static int dec_lot_nested(const cJSON *o, const char *p, struct api_lot *l, char **cause)
{
	if (dec_node_gpus(o, p, "node_gpus", &l->node_gpus, cause) != 0 ||
	    dec_link(o, p, false, &l->interconnect, cause) != 0)
		return -1;
	DEC_STR(o, p, "region", SHORT, l->region);
	return dec_host_object(o, p, &l->host, cause);
fail:
	return -1;
}

/* A sell's lot as an order or a preview echoes it (the host's figures
 * beside the others). */
static int dec_lot_flat(const cJSON *o, const char *p, struct api_lot *l, char **cause)
{
	if (dec_node_gpus(o, p, "node_gpus", &l->node_gpus, cause) != 0 ||
	    dec_link(o, p, false, &l->interconnect, cause) != 0)
		return -1;
	DEC_STR(o, p, "region", SHORT, l->region);
	if (dec_host_fields(o, p, host_names, &l->host, cause) != 0)
		return -1;
	return api_json_bool(o, p, "whole_nodes", &l->whole_nodes, cause);
fail:
	return -1;
}

/* A buy's requirements. */
static int dec_needs(const cJSON *o, const char *p, struct api_needs *n, char **cause)
{
	if (dec_node_gpus(o, p, "node_gpus", &n->node_gpus, cause) != 0 ||
	    dec_link(o, p, true, &n->interconnect, cause) != 0 ||
	    dec_region_ids(o, p, "regions", true, &n->regions, &n->n_regions, cause) != 0)
		return -1;
	return dec_host_fields(o, p, min_names, &n->min, cause);
}

/* ---- the wire types' lot fields (called by api/wire.c) ----------------------------------- */

int api_dec_order_lot(const cJSON *o, const char *p, struct api_order *x, char **cause)
{
	int64_t sum = 0;

	if (!present(o, "node_gpus"))
		return 0;
	x->has_lot = true;
	if (x->side == API_BUY) {
		if (dec_needs(o, p, &x->needs, cause) != 0)
			return -1;
		if (x->gpus % x->needs.node_gpus != 0)
			return mismatch(cause, p, "gpus", "not whole units of node_gpus");
		return 0;
	}
	if (dec_lot_flat(o, p, &x->lot, cause) != 0)
		return -1;
	if (x->gpus % x->lot.node_gpus != 0)
		return mismatch(cause, p, "gpus", "not whole machines of node_gpus");
	if (!present(o, "nodes"))
		return 0;
	if (dec_nodes(o, p, "free_gpus", x->lot.node_gpus, true, &x->nodes, &x->n_nodes, &sum,
		      cause) != 0)
		return -1;
	if (x->nodes != NULL && sum > x->gpus)
		return mismatch(cause, p, "nodes", "more GPUs free than the order has");
	return 0;
}

int api_dec_rental_lot(const cJSON *o, const char *p, struct api_rental *x, char **cause)
{
	int64_t sum = 0;

	if (!present(o, "node_gpus"))
		return 0;
	x->has_lot = true;
	if (dec_lot_nested(o, p, &x->lot, cause) != 0 ||
	    dec_nodes(o, p, "gpus", x->lot.node_gpus, true, &x->nodes, &x->n_nodes, &sum,
		      cause) != 0)
		return -1;
	if (x->nodes != NULL && sum != x->gpus)
		return mismatch(cause, p, "nodes", "their GPUs are not the rental's");
	return 0;
}

int api_dec_fill_lot(const cJSON *o, const char *p, struct api_preview_fill *x, char **cause)
{
	int64_t sum = 0;

	if (!present(o, "node_gpus"))
		return 0;
	x->has_lot = true;
	if (dec_node_gpus(o, p, "unit_gpus", &x->unit_gpus, cause) != 0)
		return -1;
	if (x->gpus % x->unit_gpus != 0)
		return mismatch(cause, p, "gpus", "not whole units of unit_gpus");
	if (dec_lot_nested(o, p, &x->lot, cause) != 0 ||
	    api_json_bool(o, p, "whole_nodes", &x->lot.whole_nodes, cause) != 0 ||
	    dec_nodes(o, p, "gpus", x->lot.node_gpus, false, &x->nodes, &x->n_nodes, &sum,
		      cause) != 0)
		return -1;
	if (sum != x->gpus)
		return mismatch(cause, p, "nodes", "their GPUs are not the fill's");
	return 0;
}

int api_dec_preview_lot(const cJSON *o, struct api_preview *v, char **cause)
{
	if (!present(o, "node_gpus"))
		return 0;
	v->has_lot = true;
	if (v->side == API_BUY)
		return dec_needs(o, "", &v->needs, cause);
	return dec_lot_flat(o, "", &v->lot, cause);
}

static int region_item(const cJSON *it, const char *p, void *dst, size_t i, void *ctx,
		       char **cause)
{
	struct api_region *x = dst;

	DEC_STR(it, p, "id", SHORT, x->id);
	DEC_STR(it, p, "name", LONG, x->name);
	return 0;
fail:
	return -1;
}

int api_dec_market_regions(const cJSON *o, struct api_market *m, char **cause)
{
	if (!present(o, "regions"))
		return 0;
	return api_dec_list(o, "", "regions", sizeof *m->regions, region_item, NULL,
			    (void **)&m->regions, &m->n_regions, cause);
}

void api_regions_free(struct api_region *v, size_t n)
{
	for (size_t i = 0; v != NULL && i < n; i++) {
		free(v[i].id);
		free(v[i].name);
	}
	free(v);
}

int api_dec_book_query(const cJSON *o, struct api_book *b, char **cause)
{
	if (!present(o, "node_gpus"))
		return 0;
	if (dec_node_gpus(o, "", "node_gpus", &b->node_gpus, cause) != 0 ||
	    dec_link(o, "", true, &b->interconnect, cause) != 0)
		return -1;
	return dec_region_ids(o, "", "regions", true, &b->regions, &b->n_regions, cause);
}

void api_book_query_clear(struct api_book *b)
{
	free(b->interconnect);
	free_strv(b->regions, b->n_regions);
}

/* ---- job orders ----------------------------------------------------------------------------- */

void api_job_alts_free(struct api_job_alt *v, size_t n)
{
	for (size_t i = 0; v != NULL && i < n; i++) {
		free(v[i].gpu);
		free(v[i].reason);
		free(v[i].interconnect);
	}
	free(v);
}

void api_job_free(struct api_job **pp)
{
	struct api_job *j;

	if (pp == NULL || (j = *pp) == NULL)
		return;
	free(j->gpu);
	free(j->currency);
	api_order_free(&j->order);
	api_preview_free(&j->preview);
	free(j->reject_code);
	free(j->reject_message);
	api_job_alts_free(j->alternatives, j->n_alternatives);
	free(j);
	*pp = NULL;
}

static int alt_item(const cJSON *it, const char *p, void *dst, size_t i, void *ctx, char **cause)
{
	struct api_job_alt *x = dst;

	DEC_STR(it, p, "gpu", SHORT, x->gpu);
	if (api_json_bool(it, p, "runnable", &x->runnable, cause) != 0)
		goto fail;
	DEC_STR_OPT(it, p, "reason", LONG, x->reason);
	DEC_INT_OPT(it, p, "gpus", 1, MAX_COUNT, x->gpus);
	DEC_INT_OPT(it, p, "node_gpus", 1, 8, x->node_gpus);
	DEC_INT_OPT(it, p, "nodes", 1, MAX_COUNT, x->nodes);
	DEC_INT_OPT(it, p, "hours", 1, MAX_COUNT, x->hours);
	DEC_INT_OPT(it, p, "total_minor", 0, MAX_MONEY, x->total_minor);
	if (present(it, "interconnect") && dec_link(it, p, true, &x->interconnect, cause) != 0)
		goto fail;
	/* a runnable GPU has a total; one that is not has none */
	if (x->runnable != (x->total_minor >= 0))
		return set_cause(cause, "%s: runnable and total_minor disagree", p);
	if (x->gpus > 0 && x->node_gpus > 0 && x->nodes > 0 && x->gpus != x->node_gpus * x->nodes)
		return set_cause(cause, "%s: gpus is not node_gpus × nodes", p);
	return 0;
fail:
	return -1;
}

int api_dec_job_alts(const cJSON *o, const char *p, struct api_job_alt **v, size_t *n,
		     char **cause)
{
	return api_dec_list(o, p, "alternatives", sizeof **v, alt_item, NULL, (void **)v, n, cause);
}

/* The frame of a job order's reply, preview or placed. */
static int dec_job_frame(const cJSON *o, struct api_job *j, char **cause)
{
	DEC_INT(o, "", "fit_model_version", 1, MAX_COUNT, j->fit_model_version);
	DEC_STR_OPT(o, "", "gpu", SHORT, j->gpu);
	DEC_INT_OPT(o, "", "hours", 1, MAX_COUNT, j->hours);
	DEC_INT_OPT(o, "", "total_minor", 0, MAX_MONEY, j->total_minor);
	DEC_INT_OPT(o, "", "max_total_minor", 1, MAX_MONEY, j->max_total_minor);
	DEC_STR_OPT(o, "", "currency", SHORT, j->currency);
	if (api_dec_job_alts(o, "", &j->alternatives, &j->n_alternatives, cause) != 0)
		goto fail;
	if (j->gpu != NULL) {
		bool listed = false;
		for (size_t i = 0; i < j->n_alternatives; i++)
			listed |= strcmp(j->alternatives[i].gpu, j->gpu) == 0 &&
				  j->alternatives[i].runnable;
		if (!listed)
			return set_cause(cause, "gpu: \"%s\" is not a runnable alternative", j->gpu);
	}
	return 0;
fail:
	return -1;
}

int api_dec_job(const cJSON *o, long status, void **out, char **cause)
{
	struct api_job *j = xcalloc(1, sizeof *j);
	const cJSON *ord;
	void *x = NULL;

	if (dec_job_frame(o, j, cause) != 0)
		goto fail;
	if ((ord = api_json_object(o, "", "order", cause)) == NULL)
		goto fail;
	if (api_dec_order(ord, status, &x, cause) != 0) {
		char *c = *cause;
		*cause = xasprintf("order.%s", c != NULL ? c : "?");
		free(c);
		goto fail;
	}
	j->order = x;
	j->replayed = j->order->replayed;
	if (j->gpu == NULL || strcmp(j->order->gpu, j->gpu) != 0) {
		set_cause(cause, "order.gpu: not the GPU chosen");
		goto fail;
	}
	*out = j;
	return 0;
fail:
	api_job_free(&j);
	return -1;
}

int api_dec_job_preview(const cJSON *o, long status, void **out, char **cause)
{
	struct api_job *j = xcalloc(1, sizeof *j);
	const cJSON *ord = cJSON_GetObjectItemCaseSensitive(o, "order"), *rej;
	void *x = NULL;

	if (dec_job_frame(o, j, cause) != 0)
		goto fail;
	if (ord != NULL && !cJSON_IsNull(ord)) {
		if (!cJSON_IsObject(ord)) {
			set_cause(cause, "order: expected null or an object");
			goto fail;
		}
		if (api_dec_preview(ord, status, &x, cause) != 0) {
			char *c = *cause;
			*cause = xasprintf("order.%s", c != NULL ? c : "?");
			free(c);
			goto fail;
		}
		j->preview = x;
	}
	rej = cJSON_GetObjectItemCaseSensitive(o, "would_reject");
	if (rej != NULL && !cJSON_IsNull(rej)) {
		if (!cJSON_IsObject(rej)) {
			set_cause(cause, "would_reject: expected null or an object");
			goto fail;
		}
		DEC_STR(rej, "would_reject", "code", SHORT, j->reject_code);
		if (api_json_str(rej, "would_reject", "message", LONG, true, &j->reject_message,
				 cause) != 0)
			goto fail;
	}
	if (j->gpu != NULL && j->preview == NULL) {
		set_cause(cause, "order: null, but a GPU was chosen");
		goto fail;
	}
	*out = j;
	return 0;
fail:
	api_job_free(&j);
	return -1;
}

/* Reconciliation of a job order: GET /v1/orders?client_order_id=X found the
 * order (its frame is not kept by that listing). */
int api_dec_job_found(const cJSON *o, long status, void **out, char **cause)
{
	struct api_job *j;
	void *x = NULL;

	if (api_dec_order_found(o, status, &x, cause) != 0)
		return -1;
	j = xcalloc(1, sizeof *j);
	j->order = x;
	j->gpu = xstrdup(j->order->gpu);
	j->hours = j->order->hours;
	j->total_minor = j->max_total_minor = -1;
	j->reconciled = true;
	*out = j;
	return 0;
}

void api_free_job(void *r)
{
	struct api_job *j = r;

	api_job_free(&j);
}
