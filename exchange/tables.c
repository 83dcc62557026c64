/*
 * exchange/tables.c — what gpuxd reads from data/: the GPU ids in catalogue
 * order (each GPU is one book, its index the engine's book number), the demo
 * market's opening prices, which interconnect each GPU's nodes can have (from
 * its form factor and link), the regions asks are placed in, the VAT table and
 * the FX rates, and the raw catalogue files it serves verbatim on GET /v1/gpus
 * and /v1/workloads.
 *
 * The GPUs and their demo prices come from the catalogue library
 * (data/catalog.h: catalog_load validates every file strictly, from --data
 * DIR or the embedded copies). The VAT and FX tables and the raw files served
 * verbatim come from DIR when it has them, else from the embedded copies.
 */
#include "exchange/xd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/catalog.h"
#include "fit/fit.h"
#include "util/util.h"


/* Read DIR/name, else the embedded data/name; NULL if neither exists. */
static char *read_data(const char *dir, const char *name, char **where)
{
	if (dir) {
		char *path = xasprintf("%s/%s", dir, name);
		char *text;
		size_t len;
		if (util_read_file(path, &text, &len, NULL) == 0) {
			*where = path;
			return text;
		}
		free(path);
	}
	char *key = xasprintf("data/%s", name);
	size_t len;
	const unsigned char *p = assets_find(key, &len);
	if (!p) {
		free(key);
		return NULL;
	}
	*where = key;
	return xstrndup((const char *)p, len);
}

/* The fit model's view of a catalogue GPU, as gpux's (view_fit_gpu, which
 * tests/unit/test_jobs_gpu.c holds this to): the published figures, the
 * tensor-parallel link (NVLink / Infinity Fabric as published, else the PCIe
 * slot: x16 is 64 GB/s both ways at 4.0, 128 at 5.0, PCI-SIG) and the
 * machine's scale-up link; no price (a job order prices its units itself). */
static void fit_gpu_of(const struct catalog_gpu *g, struct fit_gpu *out)
{
	memset(out, 0, sizeof *out);
	out->memory_gb = g->memory_gb;
	out->bandwidth_gbs = g->bandwidth_gbs;
	out->bf16_tflops = g->bf16_tflops;
	out->fp8_tflops = catalog_supported(g->fp8_tflops) ? g->fp8_tflops : NAN;
	out->link_gbs = g->interconnect_gbs;
	out->pcie_gbs = NAN;
	if (g->interconnect != NULL)
		out->pcie_gbs = strncmp(g->interconnect, "PCIe 5", 6) == 0 ? 128.0
		              : strncmp(g->interconnect, "PCIe 4", 6) == 0 ? 64.0 : NAN;
	if (!catalog_known(out->link_gbs))
		out->link_gbs = out->pcie_gbs;
	out->price_cents = -1;
	if (g->scale_up == NULL || fit_interconnect_parse(g->scale_up, &out->scale_up, NULL) != 0)
		out->scale_up = FIT_LINK_PCIE;
	out->scale_up_gpus = g->scale_up_gpus > 0 ? g->scale_up_gpus : 1;
}

static int vat_cmp(const void *a, const void *b)
{
	return strcmp(((const struct xd_vat *)a)->country, ((const struct xd_vat *)b)->country);
}

static int load_gpus(struct xd_tables *t, const char *dir, char **cause)
{
	struct catalog *cat = NULL;
	if (catalog_load(dir, &cat, cause) != 0)
		return -1;
	t->n_gpus = cat->n_gpus;
	t->gpu_ids = xcalloc(t->n_gpus, sizeof *t->gpu_ids);
	t->demo_from_cents = xcalloc(t->n_gpus, sizeof *t->demo_from_cents);
	t->gpu_link = xcalloc(t->n_gpus, sizeof *t->gpu_link);
	t->gpu_bridge = xcalloc(t->n_gpus, sizeof *t->gpu_bridge);
	t->fit_gpus = xcalloc(t->n_gpus, sizeof *t->fit_gpus);
	for (size_t i = 0; i < t->n_gpus; i++) {
		const struct catalog_gpu *g = &cat->gpus[i];
		t->gpu_ids[i] = xstrdup(g->id);
		t->demo_from_cents[i] = g->demo_from_cents;
		/* SXM boards are linked by NVLink, OAM boards by Infinity Fabric; PCIe
		 * cards by PCIe, and those sold with an NVLink bridge also in pairs */
		const char *ff = g->form_factor ? g->form_factor : "";
		const char *link = g->interconnect ? g->interconnect : "";
		t->gpu_link[i] = strcmp(ff, "SXM") == 0 ? ENG_LINK_NVLINK
		               : strcmp(ff, "OAM") == 0 ? ENG_LINK_IF : ENG_LINK_PCIE;
		t->gpu_bridge[i] = t->gpu_link[i] == ENG_LINK_PCIE && strstr(link, "NVLink") != NULL;
		fit_gpu_of(g, &t->fit_gpus[i]);
	}
	catalog_free(&cat);
	/* served verbatim, but always as an object {"gpus":[…]} */
	char *where = NULL;
	char *text = read_data(dir, "gpus.json", &where);
	free(where);
	if (!text)
		return set_cause(cause, "data/gpus.json is missing");
	cJSON *j = cJSON_Parse(text);
	if (cJSON_IsArray(j)) {
		t->gpus_json = xasprintf("{\"gpus\":%s}", text);
		free(text);
	} else {
		t->gpus_json = text;
	}
	cJSON_Delete(j);
	return 0;
}

static int load_vat(struct xd_tables *t, const char *dir, char **cause)
{
	char *where = NULL;
	char *text = read_data(dir, "vat.json", &where);
	if (!text)
		return set_cause(cause, "data/vat.json is missing");
	cJSON *j = cJSON_Parse(text);
	free(text);
	const cJSON *rates = cJSON_GetObjectItemCaseSensitive(j, "rates_bp");
	const cJSON *date = cJSON_GetObjectItemCaseSensitive(j, "date");
	const cJSON *src = cJSON_GetObjectItemCaseSensitive(j, "source");
	int rc = 0;
	if (!cJSON_IsObject(rates) || !cJSON_IsString(date) || !cJSON_IsString(src)) {
		rc = set_cause(cause, "%s: needs \"rates_bp\" (object), \"date\" and \"source\"", where);
		goto out;
	}
	t->n_vat = (size_t)cJSON_GetArraySize(rates);
	t->vat = xcalloc(t->n_vat + 1, sizeof *t->vat);
	size_t i = 0;
	for (const cJSON *c = rates->child; c; c = c->next, i++) {
		const char *k = c->string;
		if (!k || strlen(k) != 2 || k[0] < 'A' || k[0] > 'Z' || k[1] < 'A' || k[1] > 'Z' ||
		    !cJSON_IsNumber(c) || c->valuedouble < 0 || c->valuedouble > 10000 ||
		    c->valuedouble != (double)(int32_t)c->valuedouble) {
			rc = set_cause(cause, "%s: rates_bp: \"%s\" must be an upper-case country code "
			               "with an integer rate in 0..10000", where, k ? k : "");
			goto out;
		}
		memcpy(t->vat[i].country, k, 3);
		t->vat[i].bp = (int32_t)c->valuedouble;
	}
	qsort(t->vat, t->n_vat, sizeof *t->vat, vat_cmp);
	t->vat_date = xstrdup(date->valuestring);
	t->vat_source = xstrdup(src->valuestring);
out:
	cJSON_Delete(j);
	free(where);
	return rc;
}

/* data/fx.json: the rates a new database starts with (the embedded ones are
 * fixed demo rates). Any number of currencies, USD among them at 10^6 (the
 * base), each an ISO 4217 code with the standard's minor unit unless the
 * file's "exponent" object says otherwise. */
static int load_fx(struct xd_tables *t, const char *dir, char **cause)
{
	char *where = NULL;
	char *text = read_data(dir, "fx.json", &where);
	if (!text)
		return set_cause(cause, "data/fx.json is missing");
	cJSON *j = cJSON_Parse(text);
	free(text);
	const cJSON *rates = cJSON_GetObjectItemCaseSensitive(j, "rate_micro");
	const cJSON *date = cJSON_GetObjectItemCaseSensitive(j, "date");
	const cJSON *exps = cJSON_GetObjectItemCaseSensitive(j, "exponent");
	int rc = 0;
	bool usd = false;
	if (!cJSON_IsObject(rates) || !cJSON_IsString(date) || (exps && !cJSON_IsObject(exps))) {
		rc = set_cause(cause, "%s: needs \"rate_micro\" (object) and \"date\"", where);
		goto out;
	}
	for (const cJSON *r = rates->child; r; r = r->next) {
		const char *code = r->string;
		if (util_ccy_exponent(code) < 0) {
			rc = set_cause(cause, "%s: rate_micro: \"%s\" is not an ISO 4217 code (three "
			               "capital letters)", where, code ? code : "");
			goto out;
		}
		if (!cJSON_IsNumber(r) || r->valuedouble < 1 || r->valuedouble > 1e15 ||
		    r->valuedouble != (double)(int64_t)r->valuedouble) {
			rc = set_cause(cause, "%s: rate_micro.%s must be an integer in 1..10^15", where, code);
			goto out;
		}
		if (t->n_fx == XD_CUR_MAX) {
			rc = set_cause(cause, "%s: more than %d currencies", where, XD_CUR_MAX);
			goto out;
		}
		struct xd_fx_seed *f = &t->fx[t->n_fx++];
		memcpy(f->code, code, 4);
		f->rate_micro = (int64_t)r->valuedouble;
		f->exponent = util_ccy_exponent(code);
		const cJSON *e = exps ? cJSON_GetObjectItemCaseSensitive(exps, code) : NULL;
		if (e) {
			if (!cJSON_IsNumber(e) || e->valuedouble < 0 || e->valuedouble > 4 ||
			    e->valuedouble != (double)(int)e->valuedouble) {
				rc = set_cause(cause, "%s: exponent.%s must be an integer in 0..4", where, code);
				goto out;
			}
			f->exponent = (int)e->valuedouble;
		}
		if (strcmp(code, "USD") == 0) {
			usd = true;
			if (f->rate_micro != 1000000) {
				rc = set_cause(cause, "%s: rate_micro.USD must be 1000000 (USD is the base)",
				               where);
				goto out;
			}
		}
	}
	if (!usd) {
		rc = set_cause(cause, "%s: rate_micro needs USD (the base, 1000000)", where);
		goto out;
	}
	char iso[40];
	snprintf(iso, sizeof iso, "%.10sT00:00:00Z", date->valuestring);
	if (exchange_parse_time(iso, &t->fx_date_ms) != 0) {
		rc = set_cause(cause, "%s: \"date\" must be a date such as 2025-01-02", where);
		goto out;
	}
	t->fx_date = xstrdup(date->valuestring);
	t->fx_note = xstrdup("fixed demo rates, not live market data");
out:
	cJSON_Delete(j);
	free(where);
	return rc;
}

static bool region_id_ok(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > XD_REGION_ID_MAX)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
			return false;
	return true;
}

static int load_regions(struct xd_tables *t, const char *dir, char **cause)
{
	char *where = NULL;
	char *text = read_data(dir, "regions.json", &where);
	if (!text)
		return set_cause(cause, "data/regions.json is missing");
	cJSON *j = cJSON_Parse(text);
	free(text);
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(j, "regions");
	int rc = 0, n = cJSON_GetArraySize(arr);
	if (!cJSON_IsArray(arr) || n < 1 || n > ENG_REGIONS_MAX) {
		rc = set_cause(cause, "%s: needs \"regions\", an array of 1..%d regions", where,
		               ENG_REGIONS_MAX);
		goto out;
	}
	t->regions = xcalloc((size_t)n, sizeof *t->regions);
	for (const cJSON *r = arr->child; r; r = r->next) {
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(r, "id");
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(r, "name");
		if (!cJSON_IsString(id) || !region_id_ok(id->valuestring) || !cJSON_IsString(name) ||
		    xd_tables_region(t, id->valuestring) >= 0) {
			rc = set_cause(cause, "%s: regions[%zu]: needs a unique \"id\" of 1..%d of a-z "
			               "0-9 - and a \"name\"", where, t->n_regions, XD_REGION_ID_MAX);
			goto out;
		}
		t->regions[t->n_regions].id = xstrdup(id->valuestring);
		t->regions[t->n_regions].name = xstrdup(name->valuestring);
		t->n_regions++;
	}
out:
	cJSON_Delete(j);
	free(where);
	return rc;
}

static char *load_workloads(const char *dir)
{
	char *where = NULL;
	char *text = read_data(dir, "workloads.json", &where);
	free(where);
	if (!text)
		return xstrdup("{\"workloads\":[]}");
	cJSON *j = cJSON_Parse(text);
	if (cJSON_IsArray(j)) {
		char *w = xasprintf("{\"workloads\":%s}", text);
		free(text);
		text = w;
	} else if (!cJSON_IsObject(j)) {
		free(text);
		text = xstrdup("{\"workloads\":[]}");
	}
	cJSON_Delete(j);
	return text;
}

int xd_tables_load(const char *dir, struct xd_tables **out, char **cause)
{
	struct xd_tables *t = xcalloc(1, sizeof *t);
	*out = NULL;
	if (load_gpus(t, dir, cause) || load_vat(t, dir, cause) ||
	    load_fx(t, dir, cause) || load_regions(t, dir, cause)) {
		xd_tables_free(&t);
		return -1;
	}
	t->workloads_json = load_workloads(dir);
	*out = t;
	return 0;
}

void xd_tables_free(struct xd_tables **tp)
{
	struct xd_tables *t = *tp;
	if (!t)
		return;
	for (size_t i = 0; t->gpu_ids && i < t->n_gpus; i++)
		free(t->gpu_ids[i]);
	free(t->gpu_ids);
	free(t->demo_from_cents);
	free(t->gpu_link);
	free(t->gpu_bridge);
	free(t->fit_gpus);
	for (size_t i = 0; i < t->n_regions; i++) {
		free(t->regions[i].id);
		free(t->regions[i].name);
	}
	free(t->regions);
	free(t->gpus_json);
	free(t->workloads_json);
	free(t->vat);
	free(t->vat_date);
	free(t->vat_source);
	free(t->fx_date);
	free(t->fx_note);
	free(t);
	*tp = NULL;
}

int xd_tables_gpu(const struct xd_tables *t, const char *id)
{
	for (size_t i = 0; id && i < t->n_gpus; i++)
		if (strcmp(t->gpu_ids[i], id) == 0)
			return (int)i;
	return -1;
}

int32_t xd_tables_vat(const struct xd_tables *t, const char *cc)
{
	if (!cc || strlen(cc) != 2)
		return -1;
	struct xd_vat key = { .country = { cc[0], cc[1], 0 } };
	const struct xd_vat *v = bsearch(&key, t->vat, t->n_vat, sizeof key, vat_cmp);
	return v ? v->bp : -1;
}

int xd_tables_region(const struct xd_tables *t, const char *id)
{
	for (size_t i = 0; id && i < t->n_regions; i++)
		if (strcmp(t->regions[i].id, id) == 0)
			return (int)i;
	return -1;
}

bool xd_tables_link_ok(const struct xd_tables *t, int gpu, int link, int32_t node_gpus)
{
	if (link == t->gpu_link[gpu])
		return true;
	return link == ENG_LINK_NVLINK && t->gpu_bridge[gpu] && node_gpus <= 2;
}
