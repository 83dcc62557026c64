/*
 * The catalogue loader: four JSON files parsed with cJSON into one immutable
 * struct catalog, validated strictly on the way in.
 *
 * Design: each file is read (embedded copy or DIR/file), parsed, and walked
 * by a small validating reader. A struct ctx carries the file's display name
 * and the path of the object being read ("gpus[4] (\"h200\")"), so that every
 * error can say where it is: "data/gpus.json: gpus[4] (\"h200\"): \"memory_gb\"
 * must be a positive number". Every object is checked for unknown and
 * duplicate keys, so a typo never passes as a missing figure.
 *
 * The GPU fields are described once, in gpu_fields[] (JSON name, type, offset
 * in struct catalog_gpu, unit): the same table drives parsing, the column
 * field lookup (catalog_field_from_name) and generic cell values
 * (catalog_gpu_value), so a new field is one line here plus one in the enum.
 *
 * Rules of the files (also in their "about" texts):
 *  - gpus.json: every field present; null = not published (not for id,
 *    name, arch, vendor, memory_gb, memory_type, interconnect, form_factor,
 *    ecc, source); "notes" optional.
 *  - models.json: fields that do not apply may be absent or null; which are
 *    required depends on the kind (llm, moe, diffusion).
 *  - workloads.json: the first column is the gpu column, the last the price
 *    column; gpus, fields and models named must exist.
 *  - demo_market.json: optional when loading from a directory.
 * Loading happens once at start-up; lookups are linear (a few dozen items).
 */
#include "data/catalog.h"
#include "data/catalog_int.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"


/* ---- GPU fields ------------------------------------------------------------- */

enum ftype { FT_TEXT, FT_NUMBER, FT_INT, FT_BOOL };

struct gpu_field {
	const char *name;
	enum ftype type;
	bool nullable;
	size_t off;
	enum catalog_field field;  /* CATALOG_F_COUNT: not a column field */
	enum catalog_unit unit;
	long max_chars;            /* text: 0 = MAX_TEXT_BYTES bytes */
};

#define G(m) offsetof(struct catalog_gpu, m)
static const struct gpu_field gpu_fields[] = {
	{"id", FT_TEXT, false, G(id), CATALOG_F_COUNT, CATALOG_UNIT_NONE, 0},
	{"name", FT_TEXT, false, G(name), CATALOG_F_NAME, CATALOG_UNIT_NONE, MAX_NAME_CHARS},
	{"arch", FT_TEXT, false, G(arch), CATALOG_F_ARCH, CATALOG_UNIT_NONE, MAX_NAME_CHARS},
	{"vendor", FT_TEXT, false, G(vendor), CATALOG_F_VENDOR, CATALOG_UNIT_NONE, MAX_NAME_CHARS},
	{"memory_gb", FT_NUMBER, false, G(memory_gb), CATALOG_F_MEMORY_GB, CATALOG_UNIT_GB, 0},
	{"memory_type", FT_TEXT, false, G(memory_type), CATALOG_F_MEMORY_TYPE, CATALOG_UNIT_NONE,
	 MAX_NAME_CHARS},
	{"bandwidth_gbs", FT_NUMBER, true, G(bandwidth_gbs), CATALOG_F_BANDWIDTH_GBS,
	 CATALOG_UNIT_GBS, 0},
	{"bf16_tflops", FT_NUMBER, true, G(bf16_tflops), CATALOG_F_BF16_TFLOPS, CATALOG_UNIT_TFLOPS,
	 0},
	{"fp8_tflops", FT_NUMBER, true, G(fp8_tflops), CATALOG_F_FP8_TFLOPS, CATALOG_UNIT_TFLOPS, 0},
	{"fp16_tflops", FT_NUMBER, true, G(fp16_tflops), CATALOG_F_FP16_TFLOPS, CATALOG_UNIT_TFLOPS,
	 0},
	{"fp32_tflops", FT_NUMBER, true, G(fp32_tflops), CATALOG_F_FP32_TFLOPS, CATALOG_UNIT_TFLOPS,
	 0},
	{"fp64_tflops", FT_NUMBER, true, G(fp64_tflops), CATALOG_F_FP64_TFLOPS, CATALOG_UNIT_TFLOPS,
	 0},
	{"fp64_note", FT_TEXT, true, G(fp64_note), CATALOG_F_COUNT, CATALOG_UNIT_NONE, 0},
	{"int8_tops", FT_NUMBER, true, G(int8_tops), CATALOG_F_INT8_TOPS, CATALOG_UNIT_TOPS, 0},
	{"rt_cores", FT_INT, true, G(rt_cores), CATALOG_F_RT_CORES, CATALOG_UNIT_NONE, 0},
	{"video_encoders", FT_INT, true, G(video_encoders), CATALOG_F_VIDEO_ENCODERS,
	 CATALOG_UNIT_NONE, 0},
	{"interconnect", FT_TEXT, false, G(interconnect), CATALOG_F_INTERCONNECT, CATALOG_UNIT_NONE,
	 MAX_NAME_CHARS},
	{"interconnect_gbs", FT_NUMBER, true, G(interconnect_gbs), CATALOG_F_INTERCONNECT_GBS,
	 CATALOG_UNIT_GBS, 0},
	{"form_factor", FT_TEXT, false, G(form_factor), CATALOG_F_FORM_FACTOR, CATALOG_UNIT_NONE,
	 MAX_NAME_CHARS},
	{"tdp_w", FT_NUMBER, true, G(tdp_w), CATALOG_F_TDP_W, CATALOG_UNIT_W, 0},
	{"ecc", FT_BOOL, false, G(ecc), CATALOG_F_ECC, CATALOG_UNIT_NONE, 0},
	{"source", FT_TEXT, false, G(source), CATALOG_F_COUNT, CATALOG_UNIT_NONE, 0},
	{"notes", FT_TEXT, true, G(notes), CATALOG_F_COUNT, CATALOG_UNIT_NONE, 0},
};
#undef G
#define N_GPU_FIELDS (sizeof gpu_fields / sizeof gpu_fields[0])

static const struct gpu_field *gpu_field_of(enum catalog_field f)
{
	for (size_t i = 0; i < N_GPU_FIELDS; i++)
		if (gpu_fields[i].field == f && f != CATALOG_F_COUNT)
			return &gpu_fields[i];
	return NULL;
}

const char *catalog_field_name(enum catalog_field f)
{
	const struct gpu_field *gf = gpu_field_of(f);
	return gf != NULL ? gf->name : NULL;
}

int catalog_field_from_name(const char *name, enum catalog_field *out)
{
	if (name == NULL)
		return -1;
	for (size_t i = 0; i < N_GPU_FIELDS; i++)
		if (gpu_fields[i].field != CATALOG_F_COUNT && strcmp(gpu_fields[i].name, name) == 0) {
			*out = gpu_fields[i].field;
			return 0;
		}
	return -1;
}

struct catalog_value catalog_gpu_value(const struct catalog_gpu *g, enum catalog_field f)
{
	struct catalog_value v = {CATALOG_VALUE_NUMBER, NAN, NULL, false};
	const struct gpu_field *gf = gpu_field_of(f);
	const char *base = (const char *)g;

	if (gf == NULL || g == NULL)
		return v;
	switch (gf->type) {
	case FT_TEXT:
		v.type = CATALOG_VALUE_TEXT;
		v.text = *(char *const *)(const void *)(base + gf->off);
		break;
	case FT_NUMBER:
		v.number = *(const double *)(const void *)(base + gf->off);
		break;
	case FT_INT: {
		int n = *(const int *)(const void *)(base + gf->off);
		v.number = n < 0 ? NAN : (double)n;
		break;
	}
	case FT_BOOL:
		v.type = CATALOG_VALUE_BOOL;
		v.flag = *(const bool *)(const void *)(base + gf->off);
		break;
	}
	return v;
}

/* The link one machine's GPUs share (catalog.h, struct catalog_gpu). */
static void derive_scale_up(struct catalog_gpu *g)
{
	bool board = g->form_factor != NULL && (strcmp(g->form_factor, "SXM") == 0 ||
	                                        strcmp(g->form_factor, "OAM") == 0);
	const char *ic = g->interconnect != NULL ? g->interconnect : "";
	bool nvlink = strncmp(ic, "NVLink", 6) == 0, fabric = strncmp(ic, "Infinity Fabric", 15) == 0;

	g->scale_up = "pcie";
	g->scale_up_gpus = 1;
	if (nvlink || fabric) {
		g->scale_up = nvlink ? "nvlink" : "infinity-fabric";
		g->scale_up_gpus = board ? 8 : 2; /* a PCIe card's bridge pairs two */
	}
}

static int parse_gpu(struct ctx *x, const cJSON *obj, struct catalog_gpu *g)
{
	static const char *keys[N_GPU_FIELDS + 1];
	char *base = (char *)g;

	for (size_t i = 0; i < N_GPU_FIELDS; i++)
		keys[i] = gpu_fields[i].name;
	keys[N_GPU_FIELDS] = NULL;
	if (!cJSON_IsObject(obj))
		return cat_bad(x, "must be an object");
	if (cat_check_keys(x, obj, keys) < 0)
		return -1;
	for (size_t i = 0; i < N_GPU_FIELDS; i++) {
		const struct gpu_field *f = &gpu_fields[i];
		void *dst = base + f->off;
		bool must_exist = strcmp(f->name, "notes") != 0;
		int r = 0;

		switch (f->type) {
		case FT_TEXT:
			if (strcmp(f->name, "id") == 0)
				r = cat_get_id(x, obj, f->name, (char **)dst);
			else
				r = cat_get_text(x, obj, f->name, must_exist, f->nullable, f->max_chars,
				             (char **)dst);
			break;
		case FT_NUMBER:
			r = cat_get_positive(x, obj, f->name, must_exist, f->nullable, (double *)dst);
			break;
		case FT_INT:
			r = cat_get_int(x, obj, f->name, must_exist, f->nullable, 0, 100000, (int *)dst);
			break;
		case FT_BOOL:
			r = cat_get_bool(x, obj, f->name, (bool *)dst);
			break;
		}
		if (r < 0)
			return -1;
	}
	if (g->memory_gb > 100000)
		return cat_bad(x, "\"memory_gb\" must be at most 100000");
	g->demo_from_cents = -1;
	derive_scale_up(g);
	return 0;
}

static int load_gpus(struct catalog *c, const cJSON *root, struct ctx *x)
{
	static const char *const top[] = {"about", "gpus", NULL};
	const cJSON *arr;
	size_t n, i = 0;
	const cJSON *item;

	if (cat_check_keys(x, root, top) < 0 || cat_get_array(x, root, "gpus", &arr) < 0)
		return -1;
	n = (size_t)cJSON_GetArraySize(arr);
	if (n == 0)
		return cat_bad(x, "\"gpus\" must not be empty");
	if (n > 10000)
		return cat_bad(x, "\"gpus\" has more than 10000 entries");
	c->gpus = xcalloc(n, sizeof *c->gpus);
	cJSON_ArrayForEach(item, arr) {
		struct catalog_gpu *g = &c->gpus[i];

		cat_set_where(x, cat_where_item("gpus", i, item));
		c->n_gpus = i + 1; /* so catalog_free frees a partial entry */
		if (parse_gpu(x, item, g) < 0)
			return -1;
		for (size_t j = 0; j < i; j++)
			if (strcmp(c->gpus[j].id, g->id) == 0)
				return cat_bad(x, "duplicate id \"%s\" (also gpus[%zu])", g->id, j);
		i++;
	}
	cat_set_where(x, NULL);
	return 0;
}

/* ---- models ---------------------------------------------------------------- */

static const char *const model_kinds[] = {"llm", "moe", "diffusion"};

/* "hub": hub repository ids ("Org/Name") with the preset's architecture. */
static int parse_hub(struct ctx *x, const cJSON *obj, struct catalog_model *m)
{
	const cJSON *hub = cJSON_GetObjectItemCaseSensitive(obj, "hub"), *it;
	size_t n = 0;

	if (hub == NULL || cJSON_IsNull(hub))
		return 0;
	if (!cJSON_IsArray(hub) || cJSON_GetArraySize(hub) > 16)
		return cat_bad(x, "\"hub\" must be an array of at most 16 repository ids");
	m->hub = xcalloc((size_t)cJSON_GetArraySize(hub) + 1, sizeof *m->hub);
	cJSON_ArrayForEach(it, hub) {
		const char *s = cJSON_IsString(it) ? it->valuestring : NULL;
		const char *slash = s != NULL ? strchr(s, '/') : NULL;
		if (s == NULL || slash == NULL || slash == s || slash[1] == '\0' ||
		    strchr(slash + 1, '/') != NULL || strlen(s) > 96)
			return cat_bad(x, "\"hub\"[%zu] must be a repository id \"Org/Name\"", n);
		m->hub[n] = xstrdup(s);
		m->n_hub = ++n;
	}
	return 0;
}

static int parse_model(struct ctx *x, const cJSON *obj, struct catalog_model *m)
{
	static const char *const keys[] = {
		"id", "name", "kind", "params_b", "active_params_b", "layers", "hidden", "heads",
		"kv_heads", "head_dim", "vocab", "ffn", "max_seq", "experts", "experts_per_token",
		"kv_latent_dim", "text_encoder_params_b", "vae_params_b", "width", "height", "frames",
		"tied_embeddings", "hub", "source", NULL};
	const cJSON *kind;
	bool lm, dif;
	int r = 0;

	if (!cJSON_IsObject(obj))
		return cat_bad(x, "must be an object");
	if (cat_check_keys(x, obj, keys) < 0 || cat_get_id(x, obj, "id", &m->id) < 0 ||
	    cat_get_text(x, obj, "name", true, false, MAX_NAME_CHARS, &m->name) < 0)
		return -1;
	if (cat_member(x, obj, "kind", true, &kind) < 0)
		return -1;
	{
		bool found = false;
		for (size_t i = 0; i < 3; i++)
			if (cJSON_IsString(kind) && strcmp(kind->valuestring, model_kinds[i]) == 0) {
				m->kind = (enum catalog_model_kind)i;
				found = true;
			}
		if (!found)
			return cat_bad(x, "\"kind\" must be \"llm\", \"moe\" or \"diffusion\"");
	}
	lm = m->kind != CATALOG_MODEL_DIFFUSION;
	dif = !lm;
	if (cat_get_positive(x, obj, "params_b", true, false, &m->params_b) < 0 ||
	    cat_get_positive(x, obj, "active_params_b", m->kind == CATALOG_MODEL_MOE, true,
	                 &m->active_params_b) < 0)
		return -1;
	if (!catalog_known(m->active_params_b))
		m->active_params_b = m->params_b;
	if (m->active_params_b > m->params_b)
		return cat_bad(x, "\"active_params_b\" must not exceed \"params_b\"");
	if (m->kind == CATALOG_MODEL_MOE && !(m->active_params_b < m->params_b))
		return cat_bad(x, "\"active_params_b\" must be below \"params_b\" for a mixture of experts");
	if (m->kind != CATALOG_MODEL_MOE && m->active_params_b != m->params_b)
		return cat_bad(x, "\"active_params_b\" must equal \"params_b\" (or be null) unless \"kind\" is \"moe\"");

	/* transformer architecture: required for language models, optional for
	 * diffusion transformers */
	r |= cat_get_int(x, obj, "layers", lm, dif, 1, 100000, &m->layers);
	if (r == 0)
		r |= cat_get_int(x, obj, "hidden", lm, dif, 1, 1000000, &m->hidden);
	if (r == 0)
		r |= cat_get_int(x, obj, "heads", lm, dif, 1, 100000, &m->heads);
	if (r == 0)
		r |= cat_get_int(x, obj, "kv_heads", lm, dif, 1, 100000, &m->kv_heads);
	if (r == 0)
		r |= cat_get_int(x, obj, "head_dim", lm, dif, 1, 100000, &m->head_dim);
	if (r == 0)
		r |= cat_get_int(x, obj, "vocab", lm, dif, 1, 100000000, &m->vocab);
	if (r == 0)
		r |= cat_get_int(x, obj, "ffn", lm, dif, 1, 10000000, &m->ffn);
	if (r == 0)
		r |= cat_get_int(x, obj, "max_seq", lm, true, 1, 100000000, &m->max_seq);
	if (r == 0)
		r |= cat_get_int(x, obj, "experts", m->kind == CATALOG_MODEL_MOE,
		             m->kind != CATALOG_MODEL_MOE, 2, 100000, &m->experts);
	if (r == 0)
		r |= cat_get_int(x, obj, "experts_per_token", m->kind == CATALOG_MODEL_MOE,
		             m->kind != CATALOG_MODEL_MOE, 1, 100000, &m->experts_per_token);
	if (r == 0)
		r |= cat_get_int(x, obj, "kv_latent_dim", false, true, 1, 1000000, &m->kv_latent_dim);
	if (r != 0)
		return -1;
	if (m->kind != CATALOG_MODEL_MOE && (m->experts != -1 || m->experts_per_token != -1))
		return cat_bad(x, "\"experts\" and \"experts_per_token\" apply only when \"kind\" is \"moe\"");
	if (m->kind == CATALOG_MODEL_MOE && m->experts_per_token > m->experts)
		return cat_bad(x, "\"experts_per_token\" must not exceed \"experts\"");
	if (lm && m->heads % m->kv_heads != 0)
		return cat_bad(x, "\"heads\" must be a multiple of \"kv_heads\"");

	/* the rest of a diffusion pipeline */
	if (cat_get_positive(x, obj, "text_encoder_params_b", false, true, &m->text_encoder_params_b) < 0 ||
	    cat_get_positive(x, obj, "vae_params_b", false, true, &m->vae_params_b) < 0 ||
	    cat_get_int(x, obj, "width", dif, lm, 16, 100000, &m->width) < 0 ||
	    cat_get_int(x, obj, "height", dif, lm, 16, 100000, &m->height) < 0 ||
	    cat_get_int(x, obj, "frames", dif, lm, 1, 100000, &m->frames) < 0)
		return -1;
	if (lm && (catalog_known(m->text_encoder_params_b) || catalog_known(m->vae_params_b) ||
	           m->width != -1 || m->height != -1 || m->frames != -1))
		return cat_bad(x, "\"text_encoder_params_b\", \"vae_params_b\", \"width\", \"height\" and \"frames\" apply only to diffusion models");
	m->quant_bits = m->quant_group = -1;
	if (cJSON_GetObjectItemCaseSensitive(obj, "tied_embeddings") != NULL &&
	    cat_get_bool(x, obj, "tied_embeddings", &m->tied_embeddings) < 0)
		return -1;
	if (parse_hub(x, obj, m) < 0)
		return -1;
	return cat_get_text(x, obj, "source", true, false, 0, &m->source);
}

static int load_models(struct catalog *c, const cJSON *root, struct ctx *x)
{
	static const char *const top[] = {"about", "models", NULL};
	const cJSON *arr, *item;
	size_t n, i = 0;

	if (cat_check_keys(x, root, top) < 0 || cat_get_array(x, root, "models", &arr) < 0)
		return -1;
	n = (size_t)cJSON_GetArraySize(arr);
	if (n > 10000)
		return cat_bad(x, "\"models\" has more than 10000 entries");
	c->models = xcalloc(n ? n : 1, sizeof *c->models);
	cJSON_ArrayForEach(item, arr) {
		struct catalog_model *m = &c->models[i];

		cat_set_where(x, cat_where_item("models", i, item));
		c->n_models = i + 1;
		if (parse_model(x, item, m) < 0)
			return -1;
		for (size_t j = 0; j < i; j++)
			if (strcmp(c->models[j].id, m->id) == 0)
				return cat_bad(x, "duplicate id \"%s\" (also models[%zu])", m->id, j);
		i++;
	}
	cat_set_where(x, NULL);
	return 0;
}

/* ---- workloads ------------------------------------------------------------- */

static const char *const column_kinds[] = {"gpu", "field", "capacity", "decode", "price"};
static const char *const unit_names[] = {"", "GB", "GB/s", "TFLOPS", "TOPS", "W"};
static const char *const precision_names[] = {"fp16", "fp8", "int8", "int4"};

/* A "field" column: a field of gpus.json, its unit and decimals. */
static int parse_field_column(struct ctx *x, const cJSON *obj, struct catalog_column *col)
{
	char *name = NULL, *unit = NULL;
	const struct gpu_field *gf;

	if (cat_get_text(x, obj, "field", true, false, 64, &name) < 0)
		return -1;
	if (catalog_field_from_name(name, &col->field) < 0) {
		char *safe = util_sanitize(name, 64, true);
		cat_bad(x, "\"field\" \"%s\" is not a field of gpus.json", safe);
		free(safe);
		free(name);
		return -1;
	}
	free(name);
	gf = gpu_field_of(col->field);
	col->unit = gf->unit;
	if (cat_get_text(x, obj, "unit", false, true, 16, &unit) < 0)
		return -1;
	if (unit != NULL) {
		bool ok = strcmp(unit, unit_names[gf->unit]) == 0 ||
		          (gf->unit == CATALOG_UNIT_NONE && strcmp(unit, "none") == 0);
		free(unit);
		if (!ok) {
			if (gf->unit == CATALOG_UNIT_NONE)
				return cat_bad(x, "\"unit\" must be \"none\" (or absent) for \"%s\"",
				               gf->name);
			return cat_bad(x, "\"unit\" must be \"%s\" for \"%s\"", unit_names[gf->unit],
			               gf->name);
		}
	}
	if (cat_get_int(x, obj, "decimals", false, true, 0, 3, &col->decimals) < 0)
		return -1;
	if (col->decimals < 0)
		col->decimals = 0;
	if ((gf->type == FT_TEXT || gf->type == FT_BOOL) && col->decimals != 0)
		return cat_bad(x, "\"decimals\" does not apply to the text field \"%s\"", gf->name);
	return 0;
}

/* A "capacity" column: bytes per parameter and GPUs. */
static int parse_capacity_column(struct ctx *x, const cJSON *obj, struct catalog_column *col)
{
	const cJSON *v;

	if (cat_member(x, obj, "bytes_per_param", true, &v) < 0)
		return -1;
	if (v == NULL || !cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
	    v->valuedouble < 0.1 || v->valuedouble > 64)
		return cat_bad(x, "\"bytes_per_param\" must be a number from 0.1 to 64");
	col->bytes_per_param = v->valuedouble;
	return cat_get_int(x, obj, "gpus", true, false, 1, 4096, &col->gpus) < 0 ? -1 : 0;
}

/* A "decode" column: a language model of models.json and a precision. */
static int parse_decode_column(const struct catalog *c, struct ctx *x, const cJSON *obj,
                               struct catalog_column *col)
{
	char *model = NULL, *prec = NULL;
	bool ok = false;

	if (cat_get_text(x, obj, "model", true, false, 64, &model) < 0)
		return -1;
	col->model = catalog_model(c, model);
	if (col->model == NULL || col->model->kind == CATALOG_MODEL_DIFFUSION) {
		char *safe = util_sanitize(model, 64, true);
		cat_bad(x, "\"model\" \"%s\" is not a language model of models.json", safe);
		free(safe);
		free(model);
		return -1;
	}
	free(model);
	if (cat_get_text(x, obj, "precision", true, false, 16, &prec) < 0)
		return -1;
	for (size_t i = 0; i < 4; i++)
		if (strcmp(prec, precision_names[i]) == 0) {
			col->precision = (enum catalog_precision)i;
			ok = true;
		}
	free(prec);
	if (!ok)
		return cat_bad(x, "\"precision\" must be \"fp16\", \"fp8\", \"int8\" or \"int4\"");
	return 0;
}

static int parse_column(const struct catalog *c, struct ctx *x, const cJSON *obj,
                        struct catalog_column *col)
{
	static const char *const k_plain[] = {"id", "label", "kind", NULL};
	static const char *const k_field[] = {"id", "label", "kind", "field", "unit", "decimals",
	                                      NULL};
	static const char *const k_cap[] = {"id", "label", "kind", "bytes_per_param", "gpus", NULL};
	static const char *const k_dec[] = {"id", "label", "kind", "model", "precision", NULL};
	static const char *const *const keys_of[] = {k_plain, k_field, k_cap, k_dec, k_plain};
	const cJSON *kind;
	bool found = false;

	if (!cJSON_IsObject(obj))
		return cat_bad(x, "must be an object");
	if (cat_get_id(x, obj, "id", &col->id) < 0 ||
	    cat_get_text(x, obj, "label", true, false, MAX_LABEL_CHARS, &col->label) < 0 ||
	    cat_member(x, obj, "kind", true, &kind) < 0)
		return -1;
	for (size_t i = 0; i < 5; i++)
		if (cJSON_IsString(kind) && strcmp(kind->valuestring, column_kinds[i]) == 0) {
			col->kind = (enum catalog_column_kind)i;
			found = true;
		}
	if (!found)
		return cat_bad(x, "\"kind\" must be \"gpu\", \"field\", \"capacity\", \"decode\" or \"price\"");
	if (cat_check_keys(x, obj, keys_of[col->kind]) < 0)
		return -1;
	col->field = CATALOG_F_COUNT;
	col->unit = CATALOG_UNIT_NONE;
	col->bytes_per_param = NAN;
	col->gpus = -1;

	switch (col->kind) {
	case CATALOG_COL_FIELD: return parse_field_column(x, obj, col);
	case CATALOG_COL_CAPACITY: return parse_capacity_column(x, obj, col);
	case CATALOG_COL_DECODE: return parse_decode_column(c, x, obj, col);
	case CATALOG_COL_GPU:
	case CATALOG_COL_PRICE:
		break;
	}
	return 0;
}

static int parse_workload(const struct catalog *c, struct ctx *x, const cJSON *obj,
                          struct catalog_workload *w)
{
	static const char *const keys[] = {"id", "title", "short_title", "blurb", "gpus", "columns",
					   NULL};
	const cJSON *gpus, *cols, *item;
	char *where = x->where != NULL ? xstrdup(x->where) : xstrdup("");
	size_t i = 0;
	int r = -1;

	if (!cJSON_IsObject(obj)) {
		cat_bad(x, "must be an object");
		goto out;
	}
	if (cat_check_keys(x, obj, keys) < 0 || cat_get_id(x, obj, "id", &w->id) < 0 ||
	    cat_get_text(x, obj, "title", true, false, MAX_NAME_CHARS, &w->title) < 0 ||
	    cat_get_text(x, obj, "short_title", true, false, MAX_SHORT_TITLE_CHARS, &w->short_title) < 0 ||
	    cat_get_text(x, obj, "blurb", true, false, 120, &w->blurb) < 0 ||
	    cat_member(x, obj, "gpus", true, &gpus) < 0 || cat_member(x, obj, "columns", true, &cols) < 0)
		goto out;

	if (!cJSON_IsArray(gpus) || cJSON_GetArraySize(gpus) == 0) {
		cat_bad(x, "\"gpus\" must be a non-empty array of GPU ids");
		goto out;
	}
	w->gpus = xcalloc((size_t)cJSON_GetArraySize(gpus), sizeof *w->gpus);
	cJSON_ArrayForEach(item, gpus) {
		const struct catalog_gpu *g = NULL;

		if (cJSON_IsString(item))
			g = catalog_gpu(c, item->valuestring);
		if (g == NULL) {
			char *safe = util_sanitize(cJSON_IsString(item) ? item->valuestring : "?", 64, true);
			cat_bad(x, "\"gpus\"[%zu]: unknown GPU \"%s\" (not in gpus.json)", i, safe);
			free(safe);
			goto out;
		}
		for (size_t j = 0; j < i; j++)
			if (w->gpus[j] == g) {
				cat_bad(x, "\"gpus\"[%zu]: \"%s\" is listed twice", i, g->id);
				goto out;
			}
		w->gpus[i++] = g;
		w->n_gpus = i;
	}

	if (!cJSON_IsArray(cols) || cJSON_GetArraySize(cols) < 2) {
		cat_bad(x, "\"columns\" must be an array of at least 2 columns (gpu ... price)");
		goto out;
	}
	w->columns = xcalloc((size_t)cJSON_GetArraySize(cols), sizeof *w->columns);
	i = 0;
	cJSON_ArrayForEach(item, cols) {
		struct catalog_column *col = &w->columns[i];
		char *cw = cat_where_item("columns", i, item);

		cat_set_where(x, xasprintf("%s: %s", where, cw));
		free(cw);
		w->n_columns = i + 1;
		if (parse_column(c, x, item, col) < 0)
			goto out;
		for (size_t j = 0; j < i; j++)
			if (strcmp(w->columns[j].id, col->id) == 0) {
				cat_bad(x, "duplicate column id \"%s\" (also columns[%zu])", col->id, j);
				goto out;
			}
		if ((col->kind == CATALOG_COL_GPU) != (i == 0)) {
			cat_bad(x, "the \"gpu\" column must be the first column, and only the first");
			goto out;
		}
		i++;
	}
	cat_set_where(x, xstrdup(where));
	if (w->columns[w->n_columns - 1].kind != CATALOG_COL_PRICE) {
		cat_bad(x, "the last column must be the \"price\" column");
		goto out;
	}
	for (size_t j = 0; j + 1 < w->n_columns; j++)
		if (w->columns[j].kind == CATALOG_COL_PRICE) {
			cat_bad(x, "columns[%zu]: the \"price\" column must be the last column, and only the last",
			    j);
			goto out;
		}
	r = 0;
out:
	free(where);
	return r;
}

static int load_workloads(struct catalog *c, const cJSON *root, struct ctx *x)
{
	static const char *const top[] = {"about", "workloads", NULL};
	const cJSON *arr, *item;
	size_t n, i = 0;

	if (cat_check_keys(x, root, top) < 0 || cat_get_array(x, root, "workloads", &arr) < 0)
		return -1;
	n = (size_t)cJSON_GetArraySize(arr);
	if (n == 0 || n > 9)
		return cat_bad(x, "\"workloads\" must have 1 to 9 entries (keys 1-9 choose them)");
	c->workloads = xcalloc(n, sizeof *c->workloads);
	cJSON_ArrayForEach(item, arr) {
		struct catalog_workload *w = &c->workloads[i];

		cat_set_where(x, cat_where_item("workloads", i, item));
		c->n_workloads = i + 1;
		if (parse_workload(c, x, item, w) < 0)
			return -1;
		for (size_t j = 0; j < i; j++)
			if (strcmp(c->workloads[j].id, w->id) == 0)
				return cat_bad(x, "duplicate id \"%s\" (also workloads[%zu])", w->id, j);
		i++;
	}
	cat_set_where(x, NULL);
	return 0;
}

/* ---- demo market ---------------------------------------------------------- */

static int load_demo(struct catalog *c, const cJSON *root, struct ctx *x)
{
	static const char *const top[] = {"about", "currency", "prices", NULL};
	static const char *const keys[] = {"gpu", "from_cents", NULL};
	const cJSON *arr, *item, *cur;
	size_t i = 0;

	if (cat_check_keys(x, root, top) < 0 || cat_member(x, root, "currency", true, &cur) < 0)
		return -1;
	if (!cJSON_IsString(cur) || strcmp(cur->valuestring, "USD") != 0)
		return cat_bad(x, "\"currency\" must be \"USD\" (prices are per GPU-hour in US cents)");
	if (cat_get_array(x, root, "prices", &arr) < 0)
		return -1;
	cJSON_ArrayForEach(item, arr) {
		const cJSON *gv;
		struct catalog_gpu *g = NULL;
		int cents;

		cat_set_where(x, xasprintf("prices[%zu]", i));
		if (!cJSON_IsObject(item))
			return cat_bad(x, "must be an object");
		if (cat_check_keys(x, item, keys) < 0 || cat_member(x, item, "gpu", true, &gv) < 0)
			return -1;
		if (cJSON_IsString(gv))
			for (size_t j = 0; j < c->n_gpus; j++)
				if (strcmp(c->gpus[j].id, gv->valuestring) == 0)
					g = &c->gpus[j];
		if (g == NULL) {
			char *safe = util_sanitize(cJSON_IsString(gv) ? gv->valuestring : "?", 64, true);
			cat_bad(x, "\"gpu\": unknown GPU \"%s\" (not in gpus.json)", safe);
			free(safe);
			return -1;
		}
		if (g->demo_from_cents >= 0)
			return cat_bad(x, "\"gpu\": \"%s\" has a price already", g->id);
		if (cat_get_int(x, item, "from_cents", true, false, 1, 100000000, &cents) < 0)
			return -1;
		g->demo_from_cents = cents;
		i++;
	}
	cat_set_where(x, NULL);
	return 0;
}

/* ---- loading ------------------------------------------------------------------ */

typedef int (*load_fn)(struct catalog *, const cJSON *, struct ctx *);

static int load_one(struct catalog *c, const char *dir, const char *base, bool optional,
                    load_fn fn, char **cause)
{
	struct file f;
	cJSON *root = NULL;
	struct ctx x = {0};
	int r;

	if (cat_file_read(dir, base, optional, &f, cause) < 0) {
		cat_file_free(&f);
		return -1;
	}
	if (f.absent) {
		cat_file_free(&f);
		return 0;
	}
	if (cat_file_parse(&f, &root, cause) < 0) {
		cat_file_free(&f);
		return -1;
	}
	x.file = f.name;
	x.cause = cause;
	r = fn(c, root, &x);
	free(x.where);
	cJSON_Delete(root);
	cat_file_free(&f);
	return r;
}

int catalog_load(const char *dir_or_null, struct catalog **out, char **cause)
{
	struct catalog *c = xcalloc(1, sizeof *c);
	bool in_dir = dir_or_null != NULL;

	*out = NULL;
	if (load_one(c, dir_or_null, "gpus.json", false, load_gpus, cause) < 0 ||
	    load_one(c, dir_or_null, "models.json", false, load_models, cause) < 0 ||
	    load_one(c, dir_or_null, "workloads.json", false, load_workloads, cause) < 0 ||
	    load_one(c, dir_or_null, "demo_market.json", in_dir, load_demo, cause) < 0) {
		catalog_free(&c);
		return -1;
	}
	*out = c;
	return 0;
}

void catalog_free(struct catalog **cp)
{
	struct catalog *c;

	if (cp == NULL || *cp == NULL)
		return;
	c = *cp;
	for (size_t i = 0; i < c->n_gpus; i++) {
		struct catalog_gpu *g = &c->gpus[i];
		for (size_t k = 0; k < N_GPU_FIELDS; k++)
			if (gpu_fields[k].type == FT_TEXT)
				free(*(char **)(void *)((char *)g + gpu_fields[k].off));
	}
	free(c->gpus);
	for (size_t i = 0; i < c->n_models; i++) {
		free(c->models[i].id);
		free(c->models[i].name);
		free(c->models[i].source);
		for (size_t k = 0; k < c->models[i].n_hub; k++)
			free(c->models[i].hub[k]);
		free(c->models[i].hub);
	}
	free(c->models);
	for (size_t i = 0; i < c->n_workloads; i++) {
		struct catalog_workload *w = &c->workloads[i];
		free(w->id);
		free(w->title);
		free(w->short_title);
		free(w->blurb);
		free(w->gpus);
		for (size_t j = 0; j < w->n_columns; j++) {
			free(w->columns[j].id);
			free(w->columns[j].label);
		}
		free(w->columns);
	}
	free(c->workloads);
	free(c);
	*cp = NULL;
}

/* ---- lookups ----------------------------------------------------------------- */

const struct catalog_gpu *catalog_gpu(const struct catalog *c, const char *id)
{
	if (c == NULL || id == NULL)
		return NULL;
	for (size_t i = 0; i < c->n_gpus; i++)
		if (c->gpus[i].id != NULL && strcmp(c->gpus[i].id, id) == 0)
			return &c->gpus[i];
	return NULL;
}

const struct catalog_workload *catalog_workload(const struct catalog *c, const char *id)
{
	if (c == NULL || id == NULL)
		return NULL;
	for (size_t i = 0; i < c->n_workloads; i++)
		if (c->workloads[i].id != NULL && strcmp(c->workloads[i].id, id) == 0)
			return &c->workloads[i];
	return NULL;
}

const struct catalog_model *catalog_model(const struct catalog *c, const char *id)
{
	if (c == NULL || id == NULL)
		return NULL;
	for (size_t i = 0; i < c->n_models; i++)
		if (c->models[i].id != NULL && strcmp(c->models[i].id, id) == 0)
			return &c->models[i];
	return NULL;
}

const struct catalog_column *catalog_column(const struct catalog_workload *w, const char *id)
{
	if (w == NULL || id == NULL)
		return NULL;
	for (size_t i = 0; i < w->n_columns; i++)
		if (w->columns[i].id != NULL && strcmp(w->columns[i].id, id) == 0)
			return &w->columns[i];
	return NULL;
}

const char *catalog_unit_name(enum catalog_unit u)
{
	if ((size_t)u >= sizeof unit_names / sizeof unit_names[0])
		return "";
	return unit_names[u];
}

const char *catalog_precision_name(enum catalog_precision p)
{
	if ((size_t)p >= sizeof precision_names / sizeof precision_names[0])
		return "";
	return precision_names[p];
}

double catalog_precision_bytes(enum catalog_precision p)
{
	switch (p) {
	case CATALOG_PREC_FP16:
		return 2.0;
	case CATALOG_PREC_FP8:
	case CATALOG_PREC_INT8:
		return 1.0;
	case CATALOG_PREC_INT4:
		return 0.5;
	}
	return NAN;
}
