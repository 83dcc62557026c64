/*
 * What the exchange commands share about lots (docs/API.md, the market's
 * rules): the options of a lot (a sell: machines of --node-gpus GPUs, their
 * --interconnect, --region and host, --whole-nodes) and of what a bid
 * requires (units of --node-gpus inside one machine, --interconnect,
 * --region any of, host minimums), the columns and cells that show them in
 * `gpux order`, `gpux orders` and `gpux rentals`, the regions' list for a
 * refusal that names a region the exchange does not have, and the ladders
 * by node size `gpux fit` prices a job from.
 *
 * In csv and json a lot is scalars: node_gpus, interconnect, region (a
 * sell's), regions (a buy's, space-separated, empty = any), the host's
 * figures (a sell's cpu_cores, ram_gb, disk_gb; a buy's min_*), whole_nodes,
 * and nodes as "NAME:GPUS" words ("o43-1:8 o43-2:3"); null where the side
 * has no such field or an exchange from before lots sent none.
 */
#include "cli/cli_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/api.h"
#include "data/catalog.h"
#include "fit/fit.h"
#include "i18n/i18n.h"
#include "util/util.h"
#include "view/view.h"

#define MAX_REGIONS 64
#define MAX_CORES 4096
#define MAX_RAM_GB 65536
#define MAX_DISK_GB 1000000

/* ---- options -------------------------------------------------------------------------- */

void cli_regions_free(struct cli_regions *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i]);
	free(r->v);
	memset(r, 0, sizeof *r);
}

int cli_regions_parse(struct cli_ctx *ctx, const char *opt, const char *text, size_t max,
		      struct cli_regions *out)
{
	char *copy = xstrdup(text), *save = NULL, *w;

	memset(out, 0, sizeof *out);
	out->v = xcalloc(MAX_REGIONS + 1, sizeof *out->v);
	for (w = strtok_r(copy, ",", &save); w != NULL; w = strtok_r(NULL, ",", &save)) {
		size_t k;
		while (*w == ' ')
			w++;
		k = strlen(w);
		while (k > 0 && w[k - 1] == ' ')
			w[--k] = '\0';
		if (k == 0 || k > 64 || strspn(w, "abcdefghijklmnopqrstuvwxyz0123456789-_.") != k) {
			int rc = cli_usage(ctx, _("%s: \"%s\" is not a region id; accepted: ids such as "
						  "eu-west, comma-separated"),
					   opt, w);
			free(copy);
			cli_regions_free(out);
			return rc;
		}
		if (out->n >= max) {
			free(copy);
			cli_regions_free(out);
			return cli_usage(ctx, P_("%s: at most %zu region", "%s: at most %zu regions",
						 (unsigned long)max), opt, max);
		}
		out->v[out->n++] = xstrdup(w);
	}
	free(copy);
	if (out->n == 0) {
		cli_regions_free(out);
		return cli_usage(ctx, _("%s: no region given; accepted: ids such as eu-west, "
					"comma-separated"), opt);
	}
	return CLI_OK;
}

int cli_parse_node_gpus(struct cli_ctx *ctx, const char *opt, const char *v, int *out)
{
	long long n;
	int rc;

	if ((rc = cli_parse_int(ctx, opt, v, 1, 8, &n)) != CLI_OK)
		return rc;
	if (n != 1 && n != 2 && n != 4 && n != 8)
		return cli_usage(ctx, _("%s: %lld GPUs per machine is not a node size; accepted: 1, 2, "
					"4, 8"), opt, n);
	*out = (int)n;
	return CLI_OK;
}

int cli_parse_link(struct cli_ctx *ctx, const char *opt, const char *v, const char **out)
{
	enum fit_interconnect i;

	if (fit_interconnect_parse(v, &i, NULL) != 0)
		return cli_usage(ctx, _("%s: \"%s\" is not an interconnect; accepted: nvlink, "
					"infinity-fabric, pcie"), opt, v);
	*out = fit_interconnect_id(i);
	return CLI_OK;
}

/* An option of the other side given: say which side it belongs to. */
static int wrong_side(struct cli_ctx *ctx, const struct cli_args *a, const struct cli_opt *opts,
		      const char *const *names, bool sell)
{
	for (size_t i = 0; names[i] != NULL; i++)
		if (cli_arg(a, opts, names[i]) != NULL)
			return cli_usage(ctx, sell ? _("order: %s is a buy's requirement; a sell states "
						       "its machines with --cpu, --ram, --disk")
						   : _("order: %s describes a sell's machines; a buy asks "
						       "for minimums with --min-cpu, --min-ram, --min-disk"),
					 names[i]);
	return CLI_OK;
}

int cli_lot_parse(struct cli_ctx *ctx, const struct cli_args *a, const struct cli_opt *opts,
		  struct api_order_req *r, struct cli_regions *keep)
{
	static const char *const sell_only[] = {"--cpu", "--ram", "--disk", "--whole-nodes", NULL};
	static const char *const buy_only[] = {"--min-cpu", "--min-ram", "--min-disk", NULL};
	bool sell = r->side == API_SELL;
	const char *v;
	int rc;

	memset(keep, 0, sizeof *keep);
	if ((rc = wrong_side(ctx, a, opts, sell ? buy_only : sell_only, sell)) != CLI_OK)
		return rc;
	if ((v = cli_arg(a, opts, "--node-gpus")) != NULL &&
	    (rc = cli_parse_node_gpus(ctx, "--node-gpus", v, &r->node_gpus)) != CLI_OK)
		return rc;
	if (r->node_gpus > 1 && r->gpus % r->node_gpus != 0)
		return cli_usage(ctx, sell ? _("order: --gpus %d is not whole machines of --node-gpus "
					       "%d; accepted: a multiple of %d")
					   : _("order: --gpus %d is not whole units of --node-gpus %d; "
					       "accepted: a multiple of %d"),
				 r->gpus, r->node_gpus, r->node_gpus);
	if ((v = cli_arg(a, opts, "--interconnect")) != NULL &&
	    (rc = cli_parse_link(ctx, "--interconnect", v, &r->interconnect)) != CLI_OK)
		return rc;
	if ((v = cli_arg(a, opts, "--region")) != NULL) {
		if ((rc = cli_regions_parse(ctx, "--region", v, sell ? 1 : MAX_REGIONS, keep)) != CLI_OK)
			return rc;
		if (sell)
			r->region = keep->v[0];
		r->regions = sell ? NULL : (const char *const *)keep->v;
		r->n_regions = sell ? 0 : keep->n;
	}
	if (sell) {
		r->whole_nodes = cli_arg(a, opts, "--whole-nodes") != NULL;
		if ((rc = cli_arg_int(ctx, a, "--cpu", 0, MAX_CORES, &r->host.cpu_cores)) != CLI_OK ||
		    (rc = cli_arg_int(ctx, a, "--ram", 0, MAX_RAM_GB, &r->host.ram_gb)) != CLI_OK ||
		    (rc = cli_arg_int(ctx, a, "--disk", 0, MAX_DISK_GB, &r->host.disk_gb)) != CLI_OK)
			return rc;
	} else if ((rc = cli_arg_int(ctx, a, "--min-cpu", 0, MAX_CORES, &r->host.cpu_cores)) != CLI_OK ||
		   (rc = cli_arg_int(ctx, a, "--min-ram", 0, MAX_RAM_GB, &r->host.ram_gb)) != CLI_OK ||
		   (rc = cli_arg_int(ctx, a, "--min-disk", 0, MAX_DISK_GB, &r->host.disk_gb)) != CLI_OK) {
		return rc;
	}
	return CLI_OK;
}

int cli_fail_region(struct cli_ctx *ctx, struct api_client *c, const struct api_error *e)
{
	struct api_market *m = NULL;
	struct api_error *me = NULL;
	struct buf b = {0};
	char *t;
	int rc;

	if (e->code == NULL || strcmp(e->code, "UNKNOWN_REGION") != 0)
		return CLI_OK;
	if (api_market(c, &m, &me) == 0)
		for (size_t i = 0; i < m->n_regions; i++)
			buf_printf(&b, "%s%s (%s)", i > 0 ? ", " : "", m->regions[i].id,
				   m->regions[i].name);
	t = api_error_text(e);
	if (b.len > 0)
		rc = cli_fail(ctx, _("%s; this exchange's regions: %s"), t, b.data);
	else
		rc = cli_fail(ctx, "%s", t);
	free(t);
	buf_free(&b);
	api_market_free(&m);
	api_error_free(&me);
	return rc;
}

/* ---- columns and cells ---------------------------------------------------------------------- */

/* "o43-1:8 o43-2:3" */
static char *nodes_raw(const struct api_node *v, size_t n)
{
	struct buf b = {0};

	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s%s:%lld", i > 0 ? " " : "", v[i].node, (long long)v[i].gpus);
	return b.data != NULL ? buf_take(&b) : xstrdup("");
}

static char *words_raw(char *const *v, size_t n)
{
	struct buf b = {0};

	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s%s", i > 0 ? " " : "", v[i]);
	return b.data != NULL ? buf_take(&b) : xstrdup("");
}

void cli_lot_columns(struct cli_sheet *s, bool orders)
{
	cli_sheet_column_for(s, "machines", _("Machines"), CLI_LEFT, CLI_SHOW_TABLE);
	cli_sheet_column_for(s, "region_text", _("Region"), CLI_LEFT, CLI_SHOW_TABLE);
	cli_sheet_column_for(s, "host_text", _("Host"), CLI_LEFT, CLI_SHOW_TABLE);
	cli_sheet_column_for(s, "node_gpus", "node_gpus", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "interconnect", "interconnect", CLI_LEFT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "region", "region", CLI_LEFT, CLI_SHOW_DATA);
	if (orders)
		cli_sheet_column_for(s, "regions", "regions", CLI_LEFT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "cpu_cores", "cpu_cores", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "ram_gb", "ram_gb", CLI_RIGHT, CLI_SHOW_DATA);
	cli_sheet_column_for(s, "disk_gb", "disk_gb", CLI_RIGHT, CLI_SHOW_DATA);
	if (orders) {
		cli_sheet_column_for(s, "min_cpu_cores", "min_cpu_cores", CLI_RIGHT, CLI_SHOW_DATA);
		cli_sheet_column_for(s, "min_ram_gb", "min_ram_gb", CLI_RIGHT, CLI_SHOW_DATA);
		cli_sheet_column_for(s, "min_disk_gb", "min_disk_gb", CLI_RIGHT, CLI_SHOW_DATA);
		cli_sheet_column_for(s, "whole_nodes", "whole_nodes", CLI_LEFT, CLI_SHOW_DATA);
	}
	cli_sheet_column_for(s, "nodes", "nodes", CLI_LEFT, CLI_SHOW_DATA);
}

/* A machine's host figures (or a buy's minimums), null where have is false. */
static void host_cells(struct cli_sheet *s, bool have, const struct api_host *h)
{
	cli_sheet_int_or_null(s, have, h->cpu_cores);
	cli_sheet_int_or_null(s, have, h->ram_gb);
	cli_sheet_int_or_null(s, have, h->disk_gb);
}

/* The machines and their GPUs ("o43-1:8 o43-2:3"); null when the exchange
 * sent none (one from before lots). */
static void nodes_cell(struct cli_sheet *s, const struct api_node *v, size_t n)
{
	char *t = v != NULL ? nodes_raw(v, n) : NULL;

	cli_sheet_text_or_null(s, t);
	free(t);
}

/* The table's three cells: machines, region, host (text, never raw). */
static void table_cells(struct cli_sheet *s, char *machines, char *region, char *host)
{
	cli_sheet_text(s, machines, machines);
	cli_sheet_text(s, region, region);
	cli_sheet_text(s, host, host);
	free(machines);
	free(region);
	free(host);
}

static char *dash(const struct cli_ctx *ctx)
{
	return xstrdup(ctx->ascii ? "-" : "\u2014");
}

void cli_order_lot_cells(struct cli_sheet *s, const struct cli_ctx *ctx, const struct api_order *o)
{
	bool sell = o->side == API_SELL, lot = o->has_lot;
	char *t;

	table_cells(s, view_fmt_order_machines(ctx->lang, o, ctx->ascii),
		    view_fmt_order_region(ctx->lang, o, ctx->ascii),
		    view_fmt_order_host(ctx->lang, o, ctx->ascii));
	cli_sheet_int_or_null(s, lot, sell ? o->lot.node_gpus : o->needs.node_gpus);
	cli_sheet_text_or_null(s, !lot ? NULL : sell ? o->lot.interconnect : o->needs.interconnect);
	cli_sheet_text_or_null(s, lot && sell ? o->lot.region : NULL);
	t = lot && !sell && o->needs.n_regions > 0 ? words_raw(o->needs.regions, o->needs.n_regions)
						   : NULL;
	cli_sheet_text_or_null(s, t);
	free(t);
	host_cells(s, lot && sell, &o->lot.host);
	host_cells(s, lot && !sell, &o->needs.min);
	if (lot && sell)
		cli_sheet_bool(s, NULL, o->lot.whole_nodes);
	else
		cli_sheet_null(s, NULL);
	nodes_cell(s, o->nodes, o->n_nodes);
}

void cli_rental_lot_cells(struct cli_sheet *s, const struct cli_ctx *ctx, const struct api_rental *r)
{
	if (!r->has_lot) {
		table_cells(s, dash(ctx), dash(ctx), dash(ctx));
		for (int i = 0; i < 7; i++)
			cli_sheet_null(s, NULL);
		return;
	}
	table_cells(s, view_fmt_rental_machines(ctx->lang, r, ctx->ascii), xstrdup(r->lot.region),
		    view_fmt_host(ctx->lang, &r->lot.host));
	cli_sheet_int(s, NULL, r->lot.node_gpus);
	cli_sheet_text_or_null(s, r->lot.interconnect);
	cli_sheet_text_or_null(s, r->lot.region);
	host_cells(s, true, &r->lot.host);
	nodes_cell(s, r->nodes, r->n_nodes);
}

/* An integer field, or null when the side has none (have false). */
static void rec_int(struct cli_record *r, const char *id, bool have, int64_t v)
{
	if (have)
		cli_record_int(r, id, v);
	else
		cli_record_text(r, id, NULL);
}

/* A machine's host figures, or a buy's minimums (min: the min_* ids). */
static void host_record(struct cli_record *r, bool min, bool have, const struct api_host *h)
{
	rec_int(r, min ? "min_cpu_cores" : "cpu_cores", have, h->cpu_cores);
	rec_int(r, min ? "min_ram_gb" : "ram_gb", have, h->ram_gb);
	rec_int(r, min ? "min_disk_gb" : "disk_gb", have, h->disk_gb);
}

/* What an order and a preview both say of their lot (l, a sell's) or
 * requirements (n, a buy's), when they have one: node_gpus, interconnect,
 * region, regions, the host's figures, whole_nodes. An order's record has
 * both sides' host fields, as gpux orders has (null on the other side's);
 * a preview's only its own side's. */
static void lot_record(struct cli_record *r, enum api_side side, bool lot, const struct api_lot *l,
		       const struct api_needs *n, bool both_hosts)
{
	bool sell = side == API_SELL;
	char *t;

	rec_int(r, "node_gpus", lot, sell ? l->node_gpus : n->node_gpus);
	cli_record_text(r, "interconnect", !lot ? NULL : sell ? l->interconnect : n->interconnect);
	cli_record_text(r, "region", lot && sell ? l->region : NULL);
	t = lot && !sell && n->n_regions > 0 ? words_raw(n->regions, n->n_regions) : NULL;
	cli_record_text(r, "regions", t);
	free(t);
	if (both_hosts) {
		host_record(r, false, lot && sell, &l->host);
		host_record(r, true, lot && !sell, &n->min);
	} else {
		host_record(r, !sell, lot, sell ? &l->host : &n->min);
	}
	if (lot && sell)
		cli_record_bool(r, "whole_nodes", l->whole_nodes);
	else
		cli_record_text(r, "whole_nodes", NULL);
}

void cli_order_lot_record(struct cli_record *r, const struct api_order *o)
{
	char *t = o->nodes != NULL ? nodes_raw(o->nodes, o->n_nodes) : NULL;

	lot_record(r, o->side, o->has_lot, &o->lot, &o->needs, true);
	cli_record_text(r, "nodes", t);
	free(t);
}

void cli_preview_lot_record(struct cli_record *r, const struct api_preview *p)
{
	struct buf regions = {0};
	char *t;

	lot_record(r, p->side, p->has_lot, &p->lot, &p->needs, false);
	t = cli_fill_nodes_raw(p);
	cli_record_text(r, "fill_nodes", t);
	free(t);
	for (size_t i = 0; i < p->n_fills; i++)
		if (p->fills[i].has_lot && (regions.data == NULL ||
					    strstr(regions.data, p->fills[i].lot.region) == NULL))
			buf_printf(&regions, "%s%s", regions.len > 0 ? " " : "", p->fills[i].lot.region);
	cli_record_text(r, "fill_regions", regions.data != NULL ? regions.data : "");
	buf_free(&regions);
}

char *cli_fill_nodes_raw(const struct api_preview *p)
{
	struct buf b = {0};

	for (size_t i = 0; i < p->n_fills; i++) {
		char *n = nodes_raw(p->fills[i].nodes, p->fills[i].n_nodes);
		if (n[0] != '\0')
			buf_printf(&b, "%s%s", b.len > 0 ? " " : "", n);
		free(n);
	}
	return b.data != NULL ? buf_take(&b) : xstrdup("");
}

/* ---- a fit job's ladders (gpux fit) ---------------------------------------------------------- */

/* One GPU's ladder by node size for need n: into *v, from a book asked
 * with depth levels. 0, or -1 (nothing kept). */
static int fetch_ladder(struct api_client *c, const char *gpu, const struct view_job_need *n,
			struct view_unit_level **v, size_t *nv)
{
	struct api_book_query q = { .depth = 100, .node_gpus = n->node_gpus,
				    .interconnect = n->link ? fit_interconnect_id(n->interconnect)
							    : NULL };
	struct api_book *b = NULL;
	struct api_error *e = NULL;

	if (api_book_query(c, gpu, &q, &b, &e) != 0) {
		api_error_free(&e);
		return -1;
	}
	*nv = view_ladder_of_book(b, v);
	api_book_free(&b);
	return 0;
}

void cli_job_ladders(struct cli_ctx *ctx, const struct fit_job *job, struct view_prices *p)
{
	struct api_client *c = NULL;
	struct view_price *items = (struct view_price *)p->items;

	for (size_t i = 0; i < p->n; i++) {
		const struct catalog_gpu *g = catalog_gpu(ctx->catalog, items[i].gpu_id);
		struct view_job_need n;
		struct view_unit_level *v = NULL;
		size_t nv = 0;

		if (g == NULL)
			continue;
		view_job_need_for(g, job, &n);
		if (!view_need_ladder(&n, &items[i].supply))
			continue;
		if (c == NULL && (c = cli_open_client(ctx, 2, 5000, true, NULL)) == NULL)
			return;
		if (fetch_ladder(c, items[i].gpu_id, &n, &v, &nv) == 0)
			view_supply_set_ladder(&items[i].supply, &n, v, nv);
	}
	api_client_free(&c);
}
