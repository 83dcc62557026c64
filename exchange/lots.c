/*
 * exchange/lots.c — what an order says about its lot (a sell) or its
 * requirements (a buy), wherever it goes: the request's defaults, the engine's
 * order, the order row's columns and back (idempotent replays compare every
 * field of the request through the row), a GPU's resting orders loaded into an
 * engine (start-up, a shared store's reload, a peer's view of another node's
 * book), and the JSON of a lot and of a rental's nodes.
 *
 * In the store (exchange/schema.c, migration 4) a sell's nodes are one text,
 * each node's unsold GPUs: "8,8,3,0", runs written "8*12" ("1*512" for a lot
 * of 512 single-GPU nodes). A buy's regions are their ids in the exchange's
 * order, "eu-west,us-east"; NULL is any region. A rental's nodes are
 * "index:gpus,…", the sell order's node indices from 0; on the wire a node is
 * named "o<sell order id>-<index + 1>", the same name for the same machine in
 * every rental cut from that lot.
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

const char *const xd_link_names[5] = { "any", "nvlink", "infinity-fabric", "pcie", NULL };

void xd_order_norm(const struct xd_tables *t, struct xd_order_in *in)
{
	if (in->node_gpus < 1)
		in->node_gpus = 1;
	if (in->side == ENG_SELL) {
		if (in->link == ENG_LINK_ANY)
			in->link = t->gpu_link[in->gpu];
		in->regions = 0;
	} else {
		in->region = 0;
		in->whole_nodes = false;
	}
}

void xd_order_engine(const struct xd_order_in *in, int64_t id, int64_t account,
                     struct eng_order *e)
{
	*e = (struct eng_order){
		.id = id, .account = account, .side = in->side, .tif = in->tif,
		.price_cents = in->price, .gpus = in->gpus, .hours = in->hours,
		.node_gpus = in->node_gpus, .whole_nodes = in->whole_nodes, .link = (uint8_t)in->link,
		.region = (uint8_t)in->region, .regions = in->regions, .host = in->host,
	};
}

bool xd_lot_same(const struct xd_order_in *a, const struct xd_order_in *b)
{
	return a->node_gpus == b->node_gpus && a->link == b->link && a->region == b->region &&
	       a->regions == b->regions && a->host.cpu_cores == b->host.cpu_cores &&
	       a->host.ram_gb == b->host.ram_gb && a->host.disk_gb == b->host.disk_gb &&
	       a->whole_nodes == b->whole_nodes;
}

/* ---- regions ---------------------------------------------------------------- */

char *xd_regions_text(const struct xd_tables *t, uint64_t mask)
{
	if (mask == 0)
		return NULL;
	struct buf b = { 0 };
	for (size_t i = 0; i < t->n_regions; i++)
		if (mask & (UINT64_C(1) << i))
			buf_printf(&b, "%s%s", b.len ? "," : "", t->regions[i].id);
	return buf_take(&b);
}

int xd_regions_parse(const struct xd_tables *t, const char *text, uint64_t *mask)
{
	*mask = 0;
	if (text == NULL)
		return 0;
	int rc = 0;
	char *copy = xstrdup(text), *save = NULL;
	for (char *id = strtok_r(copy, ",", &save); id; id = strtok_r(NULL, ",", &save)) {
		int r = xd_tables_region(t, id);
		if (r < 0)
			rc = -1;
		else
			*mask |= UINT64_C(1) << r;
	}
	free(copy);
	return rc == 0 && *mask != 0 ? 0 : -1;
}

void xd_regions_json(cJSON *o, const char *key, const char *text)
{
	if (text == NULL) {
		cJSON_AddNullToObject(o, key);
		return;
	}
	cJSON *a = cJSON_AddArrayToObject(o, key);
	char *copy = xstrdup(text), *save = NULL;
	for (char *id = strtok_r(copy, ",", &save); id; id = strtok_r(NULL, ",", &save))
		cJSON_AddItemToArray(a, cJSON_CreateString(id));
	free(copy);
}

/* ---- nodes ------------------------------------------------------------------ */

char *xd_nodes_text(const struct eng_node *nd, size_t n)
{
	struct buf b = { 0 };
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && nd[j].free == nd[i].free)
			j++;
		if (j - i > 1)
			buf_printf(&b, "%s%d*%zu", b.len ? "," : "", nd[i].free, j - i);
		else
			buf_printf(&b, "%s%d", b.len ? "," : "", nd[i].free);
		i = j;
	}
	return buf_take(&b);
}

/* A decimal of at most 9 digits at *p, which moves past it; -1 if none. */
static long small_num(const char **p)
{
	long v = 0;
	int n = 0;
	while (**p >= '0' && **p <= '9' && n < 9) {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	return n ? v : -1;
}

int xd_nodes_parse(const char *text, int32_t k, struct eng_node **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	size_t cap = 0;
	for (const char *p = text; *p;) {
		long free_gpus = small_num(&p), run = 1;
		if (*p == '*') {
			p++;
			run = small_num(&p);
		}
		if (free_gpus < 0 || free_gpus > k || run < 1 || run > 1000000 || (*p && *p != ',') ||
		    *n + (size_t)run > 1000000) {
			free(*out);
			*out = NULL;
			*n = 0;
			return -1;
		}
		if (*p == ',')
			p++;
		if (*n + (size_t)run > cap) {
			cap = *n + (size_t)run > 2 * cap ? *n + (size_t)run : 2 * cap;
			*out = xreallocarray(*out, cap, sizeof **out);
		}
		for (long i = 0; i < run; i++)
			(*out)[(*n)++].free = (int32_t)free_gpus;
	}
	return *n > 0 ? 0 : -1;
}

char *xd_takes_text(const struct eng_take *tk, int32_t n)
{
	struct buf b = { 0 };
	for (int32_t i = 0; i < n; i++)
		buf_printf(&b, "%s%d:%d", i ? "," : "", tk[i].node, tk[i].gpus);
	return buf_take(&b);
}

void xd_nodes_json(cJSON *o, const char *key, int64_t sell_order, const char *takes)
{
	if (takes == NULL) {
		cJSON_AddNullToObject(o, key);
		return;
	}
	cJSON *a = cJSON_AddArrayToObject(o, key);
	for (const char *p = takes; *p;) {
		long node = small_num(&p), gpus = -1;
		if (*p == ':') {
			p++;
			gpus = small_num(&p);
		}
		if (node < 0 || gpus < 0)
			break;   /* not written by this exchange: what was read so far */
		cJSON *x = cJSON_CreateObject();
		char label[48];
		snprintf(label, sizeof label, "o%" PRId64 "-%ld", sell_order, node + 1);
		cJSON_AddStringToObject(x, "node", label);
		xd_jint(x, "gpus", gpus);
		cJSON_AddItemToArray(a, x);
		if (*p == ',')
			p++;
	}
}

/* ---- order rows --------------------------------------------------------------- */

void xd_lot_bind(struct xd_q *st, int first, const struct xd_tables *t,
                 const struct xd_order_in *in, char **regions_text)
{
	bool sell = in->side == ENG_SELL;
	xd_bind_int(st, first, in->node_gpus);
	if (in->link != ENG_LINK_ANY)
		xd_bind_text(st, first + 1, xd_link_names[in->link]);
	if (sell)
		xd_bind_text(st, first + 2, t->regions[in->region].id);
	*regions_text = sell ? NULL : xd_regions_text(t, in->regions);
	if (*regions_text)
		xd_bind_text(st, first + 3, *regions_text);
	xd_bind_int(st, first + 4, in->host.cpu_cores);
	xd_bind_int(st, first + 5, in->host.ram_gb);
	xd_bind_int(st, first + 6, in->host.disk_gb);
	xd_bind_int(st, first + 7, in->whole_nodes);
}

void xd_lot_from_row(const struct xd_tables *t, struct xd_q *st, int first, int gpu,
                     struct xd_order_in *in)
{
	bool sell = in->side == ENG_SELL;
	in->node_gpus = xd_col_int(st, first);
	const char *link = xd_col_text(st, first + 1);
	int l = link ? xd_lookup(xd_link_names, link) : -1;
	in->link = l > 0 ? l : sell && gpu >= 0 ? t->gpu_link[gpu] : ENG_LINK_ANY;
	int r = sell ? xd_tables_region(t, xd_col_text(st, first + 2)) : -1;
	in->region = r > 0 ? r : 0;
	in->regions = 0;
	if (!sell)
		xd_regions_parse(t, xd_col_text(st, first + 3), &in->regions);
	in->host = (struct eng_host){ xd_col_int(st, first + 4), xd_col_int(st, first + 5),
	                              xd_col_int(st, first + 6) };
	in->whole_nodes = sell && xd_col_int(st, first + 7) != 0;
	if (in->node_gpus < 1)
		in->node_gpus = 1;
}

void xd_lot_json(cJSON *o, const struct xd_tables *t, const struct xd_order_in *lot)
{
	xd_jint(o, "node_gpus", lot->node_gpus);
	cJSON_AddStringToObject(o, "interconnect", xd_link_names[lot->link]);
	cJSON_AddStringToObject(o, "region", t->regions[lot->region].id);
	cJSON *h = cJSON_AddObjectToObject(o, "host");
	xd_jint(h, "cpu_cores", lot->host.cpu_cores);
	xd_jint(h, "ram_gb", lot->host.ram_gb);
	xd_jint(h, "disk_gb", lot->host.disk_gb);
}

/* ---- a GPU's book from the store ------------------------------------------------- */

int xd_book_load(struct xd_store *st, const struct xd_tables *t, struct engine *e, int gpu,
                 size_t book, char **cause)
{
	struct xd_q *q = gpu < 0
		? xd_stmt(st, "SELECT id, account, gpu, side, price, remaining, hours, " XD_LOT_COLS
		              ", nodes_free FROM orders WHERE remaining > 0 ORDER BY id")
		: xd_stmt(st, "SELECT id, account, gpu, side, price, remaining, hours, " XD_LOT_COLS
		              ", nodes_free FROM orders WHERE gpu = ?1 AND remaining > 0 ORDER BY id");
	if (gpu >= 0)
		xd_bind_text(q, 1, t->gpu_ids[gpu]);
	int rc = 0;
	while (rc == 0 && xd_step(q) == XD_ROW) {
		int64_t id = xd_col_int64(q, 0);
		int g = gpu >= 0 ? gpu : xd_tables_gpu(t, xd_col_text(q, 2));
		struct xd_order_in in = {
			.gpu = g, .side = (enum eng_side)xd_lookup(xd_side_names, xd_col_text(q, 3)),
			.tif = ENG_GTC, .price = xd_col_int64(q, 4), .gpus = xd_col_int(q, 5),
			.hours = xd_col_int(q, 6),
		};
		if (g < 0) {
			rc = set_cause(cause, "resting order %" PRId64 " is for GPU \"%s\", which the "
			               "catalogue does not have", id, xd_col_text(q, 2));
			break;
		}
		xd_lot_from_row(t, q, 7, g, &in);
		if (in.side == ENG_BUY && xd_col_text(q, 10) && in.regions == 0) {
			rc = set_cause(cause, "resting order %" PRId64 " asks for regions \"%s\", which "
			               "data/regions.json does not have", id, xd_col_text(q, 10));
			break;
		}
		if (in.side == ENG_SELL && xd_col_text(q, 9) &&
		    xd_tables_region(t, xd_col_text(q, 9)) < 0) {
			rc = set_cause(cause, "resting order %" PRId64 " is in region \"%s\", which "
			               "data/regions.json does not have", id, xd_col_text(q, 9));
			break;
		}
		struct eng_order o;
		xd_order_engine(&in, id, xd_col_int64(q, 1), &o);
		struct eng_node *nodes = NULL;
		size_t n = 0;
		const char *text = xd_col_text(q, 15);
		if (in.side == ENG_SELL && text && xd_nodes_parse(text, in.node_gpus, &nodes, &n) != 0) {
			rc = set_cause(cause, "resting order %" PRId64 " has nodes \"%s\" that cannot be "
			               "read", id, text);
			break;
		}
		int64_t sum = 0;
		for (size_t i = 0; i < n; i++)
			sum += nodes[i].free;
		if (nodes && sum != o.gpus) {
			free(nodes);
			rc = set_cause(cause, "resting order %" PRId64 ": its nodes hold %" PRId64 " GPUs, "
			               "not the %d it has left", id, sum, o.gpus);
			break;
		}
		if (!nodes && o.gpus % (in.node_gpus > 0 ? in.node_gpus : 1) != 0) {
			rc = set_cause(cause, "resting order %" PRId64 ": %d GPUs are not whole nodes of "
			               "%d", id, o.gpus, in.node_gpus);
			break;
		}
		engine_restore(e, gpu < 0 ? (size_t)g : book, &o, nodes, n);
		free(nodes);
	}
	xd_reset(q);
	return rc;
}

void xd_request_json(cJSON *o, const struct xd_tables *t, const struct xd_order_in *in)
{
	xd_jint(o, "node_gpus", in->node_gpus);
	if (in->side == ENG_SELL) {
		cJSON_AddStringToObject(o, "interconnect", xd_link_names[in->link]);
		cJSON_AddStringToObject(o, "region", t->regions[in->region].id);
		xd_jint(o, "cpu_cores", in->host.cpu_cores);
		xd_jint(o, "ram_gb", in->host.ram_gb);
		xd_jint(o, "disk_gb", in->host.disk_gb);
		cJSON_AddBoolToObject(o, "whole_nodes", in->whole_nodes);
		return;
	}
	xd_jstr(o, "interconnect", in->link == ENG_LINK_ANY ? NULL : xd_link_names[in->link]);
	char *regions = xd_regions_text(t, in->regions);
	xd_regions_json(o, "regions", regions);
	free(regions);
	xd_jint(o, "min_cpu_cores", in->host.cpu_cores);
	xd_jint(o, "min_ram_gb", in->host.ram_gb);
	xd_jint(o, "min_disk_gb", in->host.disk_gb);
}

void xd_unit_quotes_of(const struct engine *e, size_t book, struct xd_unit_quotes *q)
{
	static const struct eng_filter one = { .unit = 1 }, eight = { .unit = 8 };
	*q = (struct xd_unit_quotes){ 0 };
	q->has1 = engine_best_for(e, book, ENG_SELL, &one, &q->l1);
	q->has8 = engine_best_for(e, book, ENG_SELL, &eight, &q->l8);
}

cJSON *xd_quote_json(const char *gpu, const struct xd_unit_quotes *u, const struct eng_level *bid,
                     int64_t last)
{
	cJSON *q = cJSON_CreateObject();
	cJSON_AddStringToObject(q, "gpu", gpu);
	xd_jint_or_null(q, "best_ask_cents", u->l1.price_cents, u->has1);
	xd_jint(q, "ask_gpus", u->has1 ? u->l1.gpus : 0);
	xd_jint_or_null(q, "best_bid_cents", bid ? bid->price_cents : 0, bid != NULL);
	xd_jint(q, "bid_gpus", bid ? bid->gpus : 0);
	xd_jint_or_null(q, "last_cents", last, last >= 0);
	xd_jint_or_null(q, "best_ask_n8_cents", u->l8.price_cents, u->has8);
	xd_jint(q, "ask_n8_units", u->has8 ? u->l8.units : 0);
	return q;
}

bool xd_unit_quotes_differ(const struct xd_unit_quotes *a, const struct xd_unit_quotes *b)
{
	return a->has1 != b->has1 || a->has8 != b->has8 ||
	       (a->has1 && (a->l1.price_cents != b->l1.price_cents || a->l1.gpus != b->l1.gpus)) ||
	       (a->has8 && (a->l8.price_cents != b->l8.price_cents || a->l8.units != b->l8.units));
}
