/*
 * The fit panel's inputs (see tui/fitpanel/fitform.h): field texts → one struct
 * fit_job, built the way `gpux fit` builds it (cli/cmd_fit.c build_job):
 * fit_job_defaults, the model (a preset through view_job_use_preset, a size
 * through fit_model_from_size), the method (diffusion marks the model as
 * diffusion), then each assumption, then fit_job_check. Nothing here draws.
 *
 * Every field is re-read on every change (a few dozen short strings:
 * cheaper than tracking which one changed), so the job is always a function
 * of what is on screen. A field that does not parse keeps its text, gets a
 * reason, and leaves the previous job in place. A field that does not apply
 * to the method (tui_ff_applies) keeps fit/'s default, as an option not
 * given to gpux fit; a folded field still applies. The architecture fields
 * go through fit_model_apply_given, as gpux fit's --layers ... --active.
 */
#include "tui/fitpanel/fitform.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"
#include "view/view.h"

/* ---- small helpers ------------------------------------------------------------ */

static void set_error(struct tui_ff_field *f, const char *translated)
{
	free(f->error);
	f->error = translated != NULL ? xstrdup(translated) : NULL;
}

static char *trimmed(const char *s)
{
	const char *e;

	if (s == NULL)
		s = "";
	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return xstrndup(s, (size_t)(e - s));
}

/* A number as the fields show it: no grouping (a typed "2.048" would be
 * refused), the language's decimal separator, at most 3 decimals. */
int tui_ff_parse_int(const char *s, long min, long max, const char *refusal, long *out,
		     char **cause)
{
	char *t = trimmed(s);
	long v = 0;
	const char *p = t;

	if (*p == '\0')
		goto bad;
	for (; *p != '\0'; p++) {
		if (*p < '0' || *p > '9')
			goto bad;
		v = v * 10 + (*p - '0');
		if (v > max)
			goto bad;
	}
	if (v < min)
		goto bad;
	free(t);
	*out = v;
	return 0;
bad:
	free(t);
	return set_cause(cause, "%s", refusal);
}

/* Strip a trailing unit (case-insensitive) and the spaces before it. */
static void strip_unit(char *t, const char *unit)
{
	size_t n = strlen(t), u = strlen(unit);

	if (n >= u && strcasecmp(t + n - u, unit) == 0) {
		n -= u;
		while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\t'))
			n--;
		t[n] = '\0';
	}
}

/* A decimal typed in the language (no grouping), v in [lo, hi], lo
 * excluded unless lo_incl. */
static int parse_decimal(enum i18n_lang lang, const char *s, const char *unit, double lo,
			 bool lo_incl, double hi, const char *refusal, double *out, char **cause)
{
	char *t = trimmed(s), *c = NULL;
	int64_t scaled;
	double v;

	if (unit != NULL)
		strip_unit(t, unit);
	if (i18n_parse_decimal(lang, t, 6, &scaled, &c) != 0) {
		free(c);
		free(t);
		return set_cause(cause, "%s", refusal);
	}
	free(t);
	v = (double)scaled / 1e6;
	if (v > hi || v < lo || (!lo_incl && v == lo))
		return set_cause(cause, "%s", refusal);
	*out = v;
	return 0;
}

int tui_ff_parse_percent(enum i18n_lang lang, const char *s, double lo, bool lo_incl, double hi,
			 const char *refusal, double *out, char **cause)
{
	double v;

	if (parse_decimal(lang, s, "%", lo, lo_incl, hi, refusal, &v, cause) != 0)
		return -1;
	*out = v / 100;
	return 0;
}

/* "1024x1024", "1024 × 1024", "1024*1024". */
static int parse_resolution(const char *s, int *w, int *h, char **cause)
{
	static const char *const msg = N_("resolution must be from 1 to 65536 pixels a side");
	char *t = trimmed(s);
	char *sep = NULL;
	long a, b;
	size_t skip = 1;

	for (char *p = t; *p != '\0' && sep == NULL; p++) {
		if (*p == 'x' || *p == 'X' || *p == '*') {
			sep = p;
		} else if (strncmp(p, "\u00d7", 2) == 0) {
			sep = p;
			skip = 2;
		}
	}
	if (sep == NULL) {
		free(t);
		return set_cause(cause, "%s", _(msg));
	}
	*sep = '\0';
	if (tui_ff_parse_int(t, 1, 65536, msg, &a, cause) != 0 ||
	    tui_ff_parse_int(sep + skip, 1, 65536, msg, &b, cause) != 0) {
		free(t);
		return -1;
	}
	free(t);
	*w = (int)a;
	*h = (int)b;
	return 0;
}

/* ---- the model: a size or a preset search ------------------------------------------ */

static bool preset_exact(const struct catalog_model *m, const char *q)
{
	return strcasecmp(m->name, q) == 0 || strcasecmp(m->id, q) == 0;
}

static void search(struct tui_ff *ff, const char *q)
{
	const struct catalog_model *keep =
		ff->n_matches > 0 ? ff->matches[ff->match_sel] : NULL;
	size_t n;

	free(ff->matches);
	ff->matches = xcalloc(ff->cat->n_models + 1, sizeof *ff->matches);
	n = catalog_search_models(ff->cat, q, ff->matches, ff->cat->n_models);
	ff->n_matches = n;
	ff->match_sel = 0;
	for (size_t i = 0; i < n; i++)
		if (ff->matches[i] == keep)
			ff->match_sel = i;
}

/* Digits, signs, separators and spaces, perhaps ending in a unit letter:
 * meant as a size. */
static bool numeric(const char *q)
{
	size_t n = strlen(q);

	if (n > 0 && strchr("bBmMtT", q[n - 1]) != NULL)
		n--;
	for (size_t i = 0; i < n; i++)
		if (strchr("0123456789.,+- \t", q[i]) == NULL)
			return false;
	return n > 0;
}

/* A size in billions typed in the language: where the decimal separator is
 * a comma, a dot before three digits ("1.000", "1.500") is the thousands
 * separator a reader of that language means, never a decimal point; such a
 * number is refused with a message (fit_parse_size would read 1.5). */
static int parse_size(const struct tui_ff *ff, const char *s, double *b, char **cause)
{
	char sep = i18n_decimal_sep(ff->lang);

	for (const char *p = s; sep != '.' && (p = strchr(p, '.')) != NULL; p++) {
		size_t d = strspn(p + 1, "0123456789");
		if (p > s && p[-1] >= '0' && p[-1] <= '9' && d == 3) {
			*cause = xstrdup(N_("a dot before three digits is a thousands separator here: "
					    "type 1000 or 1,5"));
			return -1;
		}
	}
	return fit_parse_size(s, sep, b, cause);
}

static bool ends_json(const char *q)
{
	size_t n = strlen(q);
	return n > 5 && strcasecmp(q + n - 5, ".json") == 0;
}

/* A path to a config.json as the model: read once per path (the text ends
 * in .json only once it is typed whole); the model is then ff->config. */
static void read_config(struct tui_ff *ff, const char *path)
{
	char *cause = NULL;

	ff->n_matches = 0;
	if (ff->config_path == NULL || strcmp(ff->config_path, path) != 0) {
		catalog_model_clear(&ff->config);
		free(ff->config_path);
		ff->config_path = NULL;
		if (catalog_model_from_config_file(path, &ff->config, &cause) != 0) {
			char *msg = xasprintf(_("cannot use this config.json: %s"), cause != NULL ? cause : "?");
			set_error(&ff->f[FF_MODEL], msg);
			free(msg);
			free(cause);
			return;
		}
		ff->config_path = xstrdup(path);
	}
	ff->preset = &ff->config;
}

/* Whether preset m is of the kind the selected method answers for: an
 * image model for diffusion, a language model for every other method. */
static bool kind_fits(const struct tui_ff *ff, const struct catalog_model *m)
{
	return (m->kind == CATALOG_MODEL_DIFFUSION) == (tui_ff_method(ff) == FIT_DIFFUSION);
}

/* Whether the model text q still names the preset whose kind switched the
 * method (model_changed). */
static bool names_auto_preset(const struct tui_ff *ff, const char *q)
{
	return ff->auto_preset != NULL && q[0] != '\0' && preset_exact(ff->auto_preset, q);
}

static void set_note(struct tui_ff *ff, char *note)
{
	free(ff->model_note);
	ff->model_note = note;
}

/* The live preset among the matches. Typed whole (exact), the first one,
 * whatever its kind: it brings its method (model_changed). While the text
 * is a search, the one chosen if the selected method answers for its kind,
 * else the first that does; a match of the other kind is never live then —
 * the method is not switched by a search — and the note says what Enter
 * would do with it. */
static void live_chosen(struct tui_ff *ff);

static void live_match(struct tui_ff *ff, bool exact)
{
	if (exact) {
		ff->match_sel = 0;
		ff->preset = ff->matches[0];
		return;
	}
	if (!kind_fits(ff, ff->matches[ff->match_sel]))
		for (size_t i = 0; i < ff->n_matches; i++)
			if (kind_fits(ff, ff->matches[i])) {
				ff->match_sel = i;
				break;
			}
	live_chosen(ff);
}

/* The match chosen is live if the method answers for its kind; else none
 * is, and the note says what Enter would do. */
static void live_chosen(struct tui_ff *ff)
{
	const struct catalog_model *m = ff->matches[ff->match_sel];

	ff->preset = NULL;
	set_note(ff, NULL);
	if (kind_fits(ff, m)) {
		ff->preset = m;
		return;
	}
	set_note(ff, m->kind == CATALOG_MODEL_DIFFUSION
		? xasprintf(_("%s is an image model: Enter takes it, and the method becomes "
			      "Diffusion"), m->name)
		: xasprintf(_("%s is a language model: Enter takes it, and the method becomes "
			      "%s"), m->name, _(fit_method_label(ff->llm_method))));
}

/* Read the model field: sets model_is_size/size_b or the matches and the
 * live preset, and the field's error. A method the form switched for a
 * preset taken (model_changed) goes back to the user's once the text no
 * longer names that preset. */
static void read_model(struct tui_ff *ff)
{
	struct tui_ff_field *f = &ff->f[FF_MODEL];
	char *q = trimmed(f->text), *cause = NULL;
	double b;

	ff->model_is_size = false;
	ff->preset = NULL;
	set_error(f, NULL);
	set_note(ff, NULL);
	if (ff->method_auto != FIT_METHOD_COUNT && !names_auto_preset(ff, q)) {
		ff->f[FF_METHOD].choice = ff->method_auto;
		ff->method_auto = FIT_METHOD_COUNT;
		ff->auto_preset = NULL;
	}
	if (q[0] == '\0') {
		ff->n_matches = 0;
		if (ff->model_touched && parse_size(ff, q, &b, &cause) != 0)
			set_error(f, _(cause));
		free(cause);
		free(q);
		return;
	}
	if (parse_size(ff, q, &b, &cause) == 0) {
		ff->model_is_size = true;
		ff->size_b = b;
		ff->n_matches = 0;
		free(q);
		return;
	}
	if (numeric(q)) {
		/* "0", "-5", "1000T": a size, just not a good one (never a search
		 * for presets whose names hold a 0) */
		ff->n_matches = 0;
		set_error(f, _(cause));
		free(cause);
		free(q);
		return;
	}
	if (ends_json(q)) {
		read_config(ff, q);
		free(cause);
		free(q);
		return;
	}
	search(ff, q);
	if (ff->n_matches > 0) {
		live_match(ff, preset_exact(ff->matches[0], q));
	} else if (strchr(q, '/') != NULL) {
		set_error(f, _("not a preset gpux knows: type the path of its config.json"));
	} else if (isdigit((unsigned char)q[0]) || q[0] == '-' || q[0] == '+' || q[0] == '.' ||
		   q[0] == ',') {
		set_error(f, _(cause));  /* it was meant as a size */
	} else {
		set_error(f, _("no preset matches: type a size (70, 7.5B, 1.3T) or words of a name (llama 70)"));
	}
	free(cause);
	free(q);
}

bool tui_ff_searching(const struct tui_ff *ff)
{
	char *q;
	bool exact;

	if (ff->model_is_size || ff->n_matches == 0)
		return false;
	q = trimmed(ff->f[FF_MODEL].text);
	exact = ff->n_matches >= 1 && preset_exact(ff->matches[0], q);
	free(q);
	return !exact;
}

/* A diffusion preset brings its resolution and frames into their fields. */
static void preset_fields(struct tui_ff *ff, const struct catalog_model *m)
{
	if (m == NULL || m->kind != CATALOG_MODEL_DIFFUSION)
		return;
	if (m->width > 0 && m->height > 0) {
		free(ff->f[FF_RES].text);
		ff->f[FF_RES].text = tui_ff_res_text(ff, m->width, m->height);
		ff->f[FF_RES].text_changed = true;
	}
	if (m->frames > 0) {
		free(ff->f[FF_FRAMES].text);
		ff->f[FF_FRAMES].text = xasprintf("%d", m->frames);
		ff->f[FF_FRAMES].text_changed = true;
	}
}

/* The live model changed from `before` to ff->preset. A preset taken
 * whole (typed, or Enter on a match) of the other kind than the method
 * brings its kind's method, as `gpux fit` gives an image model diffusion:
 * an image model Diffusion, a language model the last language method;
 * the note says so under the field, and the method the user had comes back
 * once the model changes again (read_model). Only what is typed into the
 * field (taken) switches: a method the user chose afterwards, or a new
 * language, never. A search never gets here with the other kind
 * (live_match). */
static void model_changed(struct tui_ff *ff, const struct catalog_model *before, bool taken)
{
	int *m = &ff->f[FF_METHOD].choice;
	const struct catalog_model *p = ff->preset;

	if (taken && p != NULL && p != before && !kind_fits(ff, p)) {
		enum fit_method to = p->kind == CATALOG_MODEL_DIFFUSION ? FIT_DIFFUSION : ff->llm_method;
		if (ff->method_auto == FIT_METHOD_COUNT)
			ff->method_auto = (enum fit_method)*m;
		if (*m != FIT_DIFFUSION)
			ff->llm_method = (enum fit_method)*m;
		*m = to;
		ff->auto_preset = p;
	}
	if (ff->method_auto != FIT_METHOD_COUNT && p != NULL && p == ff->auto_preset)
		/* TRANSLATORS: under the fit panel's model field: the method the
		 * preset taken brought, "Method: Diffusion, for FLUX.1 [dev]" */
		set_note(ff, xasprintf(_("Method: %s, for %s (it was %s)"),
				       _(fit_method_label((enum fit_method)*m)), p->name,
				       _(fit_method_label(ff->method_auto))));
	if (ff->preset != before)
		preset_fields(ff, ff->preset);
}


/* ---- reading the whole form ---------------------------------------------------------- */

/* How a text field reads: its parser, range and message. */
enum ptype { P_NONE, P_INT, P_PCT, P_DEC, P_SIZE, P_RES };

struct rule {
	enum ptype t;
	double lo, hi;
	bool lo_incl;
	const char *unit;   /* P_DEC: stripped when typed */
	const char *msg;    /* English msgid */
};

/* The messages of whole numbers and decimals name their bounds with two
 * %s, formatted as the language writes numbers ("16,777,216", "16 777 216",
 * "16.777.216"): never a bare 16777216. */
static const struct rule rules[FF_COUNT] = {
	[FF_SEQ] = { P_INT, 1, 1 << 24, true, NULL,
		N_("sequence length must be a whole number from %s to %s") },
	[FF_BATCH] = { P_INT, 1, 1 << 20, true, NULL, N_("batch must be a whole number from %s to %s") },
	[FF_GPUS] = { P_INT, 1, FIT_MAX_GPUS, true, NULL,
		N_("GPUs must be a whole number from %s to %s") },
	[FF_TOKENS] = { P_SIZE, 0, 0, false, NULL, N_("tokens: billions above 0, e.g. 300, 300B or 1.3T") },
	[FF_MFU] = { P_PCT, 0, 100, false, NULL, N_("MFU must be above 0 and at most 100 %") },
	[FF_BWEFF] = { P_PCT, 0, 100, false, NULL,
		N_("bandwidth efficiency must be above 0 and at most 100 %") },
	[FF_RANK] = { P_INT, 1, 65536, true, NULL, N_("LoRA rank must be a whole number from %s to %s") },
	[FF_RES] = { P_RES, 0, 0, false, NULL, NULL },
	[FF_FRAMES] = { P_INT, 1, 1 << 20, true, NULL, N_("frames must be a whole number from %s to %s") },
	[FF_OVERHEAD] = { P_DEC, 0, 1000, true, "GB", N_("overhead must be from %s to %s GB") },
	[FF_MARGIN] = { P_PCT, 0, 100, true, NULL, N_("margin must be from 0 to 100 %") },
	[FF_LAYERS] = { P_INT, 1, 100000, true, NULL, N_("layers must be a whole number from %s to %s") },
	[FF_HIDDEN] = { P_INT, 1, 1000000, true, NULL,
		N_("hidden size must be a whole number from %s to %s") },
	[FF_HEADS] = { P_INT, 1, 100000, true, NULL, N_("heads must be a whole number from %s to %s") },
	[FF_KVHEADS] = { P_INT, 1, 100000, true, NULL,
		N_("KV heads must be a whole number from %s to %s") },
	[FF_HEADDIM] = { P_INT, 1, 100000, true, NULL,
		N_("head dimension must be a whole number from %s to %s") },
	[FF_VOCAB] = { P_INT, 1, 100000000, true, NULL,
		N_("vocabulary must be a whole number from %s to %s") },
	[FF_FFN] = { P_INT, 1, 10000000, true, NULL,
		N_("FFN size must be a whole number from %s to %s") },
	[FF_ACTIVE] = { P_SIZE, 0, 0, false, NULL,
		N_("active parameters: billions above 0, e.g. 13 or 13B") },
	[FF_INT4G] = { P_INT, 8, 65536, true, NULL, N_("int4 group size must be from %s to %s") },
	[FF_ALLREDUCE] = { P_DEC, 0, 1e6, true, "\u00b5s",
		N_("all-reduce latency must be from %s to %s \u00b5s") },
};

struct val {
	long i;
	double d;
	int w, h;
};

/* A rule's message in the language, its bounds written as it writes
 * numbers (malloc'ed). */
static char *rule_message(const struct tui_ff *ff, const struct rule *r)
{
	if (r->msg == NULL)
		return xstrdup("");
	if (strstr(r->msg, "%s") == NULL)
		return xstrdup(_(r->msg));
	/* the two %s filled in order, by hand: the message is data, not a format */
	char *bound[2] = { i18n_fmt_number(ff->lang, r->lo, 0), i18n_fmt_number(ff->lang, r->hi, 0) };
	const char *p = _(r->msg), *q;
	struct buf b = {0};
	for (int k = 0; (q = strstr(p, "%s")) != NULL; k++) {
		buf_append(&b, p, (size_t)(q - p));
		buf_puts(&b, k < 2 ? bound[k] : "");
		p = q + 2;
	}
	buf_puts(&b, p);
	free(bound[0]);
	free(bound[1]);
	return buf_take(&b);
}

/* Parse one text field by its rule: 0, or -1 and *cause (translated). */
static int parse_field(const struct tui_ff *ff, enum tui_ff_id id, struct val *v, char **cause)
{
	const struct rule *r = &rules[id];
	const char *text = ff->f[id].text;
	char *c = NULL;
	int rc = -1;

	/* the refusal's words are made only for a refusal (every keystroke reads
	 * every field) */
	switch (r->t) {
	case P_INT: rc = tui_ff_parse_int(text, (long)r->lo, (long)r->hi, "", &v->i, &c); break;
	case P_PCT:
		rc = tui_ff_parse_percent(ff->lang, text, r->lo, r->lo_incl, r->hi, "", &v->d, &c);
		break;
	case P_DEC:
		rc = parse_decimal(ff->lang, text, r->unit, r->lo, r->lo_incl, r->hi, "", &v->d, &c);
		break;
	case P_SIZE: rc = parse_size(ff, text, &v->d, &c); break;
	case P_RES: return parse_resolution(text, &v->w, &v->h, cause);
	default: return -1;
	}
	free(c);
	if (rc != 0 && cause != NULL)
		*cause = rule_message(ff, r);
	return rc;
}

/* A field's value into the job, or into the architecture given. */
static void store(struct fit_job *j, struct fit_arch_given *g, enum tui_ff_id id, const struct val *v)
{
	int n = (int)v->i;

	switch (id) {
	case FF_SEQ: j->seq_len = n; break;
	case FF_BATCH: j->batch = n; break;
	case FF_GPUS: j->gpus = n; break;
	case FF_TOKENS: j->tokens_b = v->d; break;
	case FF_MFU: j->mfu = v->d; break;
	case FF_BWEFF: fit_job_set_bw_efficiency(j, v->d); break; /* the method's format */
	case FF_RANK: j->lora_rank = n; break;
	case FF_RES: j->width = v->w; j->height = v->h; break;
	case FF_FRAMES: j->frames = n; break;
	case FF_OVERHEAD: j->overhead_gb = v->d; break;
	case FF_MARGIN: j->margin_fraction = v->d; break;
	case FF_INT4G: j->int4_group = n; break;
	case FF_ALLREDUCE: j->allreduce_hop_us = v->d; break;
	case FF_LAYERS: g->layers = n; break;
	case FF_HIDDEN: g->hidden = n; break;
	case FF_HEADS: g->heads = n; break;
	case FF_KVHEADS: g->kv_heads = n; break;
	case FF_HEADDIM: g->head_dim = n; break;
	case FF_VOCAB: g->vocab = n; break;
	case FF_FFN: g->ffn = n; break;
	case FF_ACTIVE: g->active_b = v->d; break;
	default: break;
	}
}

/* Read every text field (its error or none); those that apply go into the
 * job, the architecture typed into *g. An architecture field not typed
 * over is the model's own figure. */
static void read_texts(struct tui_ff *ff, struct fit_job *job, struct fit_arch_given *g)
{
	for (size_t i = 0; i < FF_COUNT; i++) {
		enum tui_ff_id id = (enum tui_ff_id)i;
		struct val v = { 0 };
		char *cause = NULL;

		if (rules[id].t == P_NONE)
			continue;
		if (tui_ff_section(id) == FFS_ARCH && !tui_ff_changed(ff, id)) {
			set_error(&ff->f[id], NULL);
			continue;
		}
		if (parse_field(ff, id, &v, &cause) != 0) {
			set_error(&ff->f[id], cause != NULL ? cause : "?");
			free(cause);
			continue;
		}
		set_error(&ff->f[id], NULL);
		if (tui_ff_applies(ff, id))
			store(job, g, id, &v);
	}
}

/* The choices and toggles that apply, as gpux fit's options set them. */
static void read_choices(const struct tui_ff *ff, struct fit_job *j)
{
	const struct tui_ff_field *f = ff->f;

	if (tui_ff_applies(ff, FF_CKPT))
		j->checkpointing = f[FF_CKPT].choice != 0;
	if (tui_ff_applies(ff, FF_SHARD))
		j->sharding = (enum fit_sharding)f[FF_SHARD].choice;
	if (tui_ff_applies(ff, FF_OPT))
		j->optimizer = (enum fit_optimizer)f[FF_OPT].choice;
	if (tui_ff_applies(ff, FF_FLASH))
		j->flash_attention = f[FF_FLASH].choice != 0;
	if (tui_ff_applies(ff, FF_PURE))
		j->pure_bf16 = f[FF_PURE].choice != 0;
	if (tui_ff_applies(ff, FF_CHUNKED))
		j->chunked_loss = f[FF_CHUNKED].choice != 0;
	if (tui_ff_applies(ff, FF_ACTOFF))
		j->act_offload = f[FF_ACTOFF].choice != 0;
	if (tui_ff_applies(ff, FF_EMBED32))
		j->embed_bits = f[FF_EMBED32].choice != 0 ? 32 : 16;
	if (tui_ff_applies(ff, FF_PAGED))
		j->paged_optimizer = f[FF_PAGED].choice != 0;
	if (tui_ff_applies(ff, FF_OFFLOAD))
		j->offload = (enum fit_offload)f[FF_OFFLOAD].choice;
	if (tui_ff_applies(ff, FF_ACCT))
		j->accounting = (enum fit_zero_accounting)f[FF_ACCT].choice;
	if (tui_ff_applies(ff, FF_KVCACHE) && f[FF_KVCACHE].choice != 0)
		j->kv_bytes = 1; /* gpux fit --kv-cache fp8 */
	if (tui_ff_applies(ff, FF_ENCODERS))
		j->encoders_offloaded = f[FF_ENCODERS].choice != 0;
}

/* fit_job_defaults, the model and the method: false when there is no model. */
static bool read_model_job(struct tui_ff *ff, struct fit_job *job)
{
	char *cause = NULL;
	bool model = false;

	fit_job_defaults(job);
	if (ff->preset != NULL) {
		view_job_use_preset(job, ff->preset);
		model = true;
	} else if (ff->model_is_size) {
		if (fit_model_from_size(ff->size_b, &job->model, &cause) == 0) {
			model = true;
		} else {
			set_error(&ff->f[FF_MODEL], _(cause));
			free(cause);
		}
	}
	job->method = tui_ff_method(ff);
	if (job->method == FIT_DIFFUSION)
		job->model.diffusion = true;
	ff->base = job->model;
	ff->have_arch = model;
	return model;
}

static void replace_text(struct tui_ff_field *f, char *text)
{
	if (strcmp(f->text, text) == 0) {
		free(text);
		return;
	}
	free(f->text);
	f->text = text;
	f->text_changed = true;
}

/* Architecture fields the user has not typed in show what the job uses
 * (after those typed: a head dimension derived from a new width). */
static void show_untouched(struct tui_ff *ff)
{
	if (!ff->have_arch)
		return;
	for (size_t i = 0; i < FF_COUNT; i++) {
		enum tui_ff_id id = (enum tui_ff_id)i;
		if (tui_ff_section(id) == FFS_ARCH && tui_ff_kind(id) == FFK_TEXT &&
		    !ff->f[id].touched)
			replace_text(&ff->f[id], tui_ff_arch_figure(ff, &ff->arch, id));
	}
}

/* A closed fold with a bad field inside says so; true when no field
 * that applies has an error. */
static bool errors_ok(struct tui_ff *ff)
{
	static const enum tui_ff_id folds[] = { FF_ARCH, FF_MORE };
	bool ok = true;

	for (size_t k = 0; k < sizeof folds / sizeof folds[0]; k++) {
		enum tui_ff_id fold = folds[k];
		bool bad = false;
		for (size_t i = 0; i < FF_COUNT && ff->f[fold].choice == 0; i++)
			if (i != fold && tui_ff_section((enum tui_ff_id)i) == tui_ff_section(fold) &&
			    ff->f[i].error != NULL && tui_ff_applies(ff, (enum tui_ff_id)i))
				bad = true;
		set_error(&ff->f[fold], bad ? _("a field inside is not valid: Space shows it") : NULL);
	}
	for (size_t i = 0; i < FF_COUNT; i++)
		if (ff->f[i].error != NULL && tui_ff_applies(ff, (enum tui_ff_id)i))
			ok = false;
	return ok;
}

/* Re-read every field, as gpux fit builds its job from its options;
 * returns true when the job changed. */
static bool reread(struct tui_ff *ff)
{
	struct fit_job job;
	struct fit_arch_given given = { 0 };
	char *cause = NULL;
	bool ok, model;

	model = read_model_job(ff, &job);
	/* untouched, the bandwidth efficiency is the method's format's default */
	if (!ff->f[FF_BWEFF].touched)
		replace_text(&ff->f[FF_BWEFF], tui_ff_default_text(ff, FF_BWEFF));
	read_texts(ff, &job, &given);
	read_choices(ff, &job);
	if (model && tui_ff_applies(ff, FF_ARCH))
		fit_model_apply_given(&job.model, &given);
	ff->arch = job.model;
	show_untouched(ff);
	ok = errors_ok(ff) && model;
	free(ff->job_error);
	ff->job_error = NULL;
	if (ok && fit_job_check(&job, &cause) != 0) {
		ff->job_error = xstrdup(_(cause));
		ok = false;
	}
	free(cause);
	ff->valid = ok;
	if (!ok)
		return false;
	if (ff->have_job && memcmp(&job, &ff->job, sizeof job) == 0 && ff->job_preset == ff->preset)
		return false;
	ff->job = job;
	ff->job_preset = ff->preset;
	ff->have_job = true;
	ff->gen++;
	return true;
}

/* ---- life cycle and edits ------------------------------------------------------------- */

void tui_ff_init(struct tui_ff *ff, const struct catalog *c, enum i18n_lang lang, bool ascii)
{
	struct fit_job d;

	memset(ff, 0, sizeof *ff);
	ff->cat = c;
	ff->lang = lang;
	ff->ascii = ascii;
	fit_job_defaults(&d);
	for (size_t i = 0; i < FF_COUNT; i++) {
		enum tui_ff_id id = (enum tui_ff_id)i;
		ff->f[i].text = tui_ff_kind(id) == FFK_TEXT ? tui_ff_default_text(ff, id) : xstrdup("");
	}
	ff->f[FF_METHOD].choice = d.method;
	ff->f[FF_SHARD].choice = d.sharding;
	ff->f[FF_OPT].choice = d.optimizer;
	ff->f[FF_CKPT].choice = d.checkpointing;
	ff->f[FF_FLASH].choice = d.flash_attention;
	ff->f[FF_PURE].choice = d.pure_bf16;
	ff->f[FF_CHUNKED].choice = d.chunked_loss;
	ff->f[FF_ACTOFF].choice = d.act_offload;
	ff->f[FF_EMBED32].choice = d.embed_bits == 32;
	ff->f[FF_PAGED].choice = d.paged_optimizer;
	ff->f[FF_OFFLOAD].choice = d.offload;
	ff->f[FF_ACCT].choice = d.accounting;
	ff->f[FF_KVCACHE].choice = d.kv_bytes < 2;
	ff->f[FF_ENCODERS].choice = d.encoders_offloaded;
	ff->llm_method = d.method;
	ff->method_auto = FIT_METHOD_COUNT;
	read_model(ff);
	reread(ff);
}

void tui_ff_free(struct tui_ff *ff)
{
	free(ff->key_buy);
	free(ff->key_job);
	free(ff->key_clear);
	ff->key_buy = ff->key_job = ff->key_clear = NULL;
	for (size_t i = 0; i < FF_COUNT; i++) {
		free(ff->f[i].text);
		free(ff->f[i].error);
	}
	free(ff->matches);
	free(ff->job_error);
	free(ff->model_note);
	catalog_model_clear(&ff->config);
	free(ff->config_path);
	memset(ff, 0, sizeof *ff);
}

/* What identifies the model typed: a new one gives the architecture
 * fields its figures (none typed over) and opens them for a size. */
struct model_id {
	const struct catalog_model *preset;
	bool is_size;
	double size_b;
};

static struct model_id model_id(const struct tui_ff *ff)
{
	return (struct model_id){ ff->preset, ff->model_is_size, ff->model_is_size ? ff->size_b : 0 };
}

static void arch_follow(struct tui_ff *ff, struct model_id before)
{
	struct model_id now = model_id(ff);

	if (now.preset == before.preset && now.is_size == before.is_size && now.size_b == before.size_b)
		return;
	for (size_t i = 0; i < FF_COUNT; i++)
		if (tui_ff_section((enum tui_ff_id)i) == FFS_ARCH)
			ff->f[i].touched = false;
	ff->f[FF_ARCH].choice = ff->model_is_size;
}

bool tui_ff_set_text(struct tui_ff *ff, enum tui_ff_id id, const char *text)
{
	if (id >= FF_COUNT || tui_ff_kind(id) != FFK_TEXT)
		return false;
	free(ff->f[id].text);
	ff->f[id].text = xstrdup(text != NULL ? text : "");
	if (id == FF_MODEL) {
		const struct catalog_model *before = ff->preset;
		struct model_id was = model_id(ff);
		ff->model_touched = true;
		read_model(ff);
		model_changed(ff, before, true);
		arch_follow(ff, was);
	} else {
		ff->f[id].touched = true;
	}
	return reread(ff);
}

/* The language changed (tui/frame/lang.c): a number typed with the old decimal separator takes
 * the new one ("7,5" becomes "7.5" in English, where "7,5" is refused); the
 * model field only when it reads as a size (never "Llama 3.1 70B"),
 * elsewhere a separator between two digits. */
void tui_ff_set_lang(struct tui_ff *ff, enum i18n_lang lang)
{
	char from = i18n_decimal_sep(ff->lang), to = i18n_decimal_sep(lang);
	const struct catalog_model *before = ff->preset;
	struct model_id was = model_id(ff);

	for (size_t i = 0; i < FF_COUNT && from != to; i++) {
		char *s = ff->f[i].text;
		bool changed = false;
		if (tui_ff_kind((enum tui_ff_id)i) != FFK_TEXT || s == NULL)
			continue;
		if (i == FF_MODEL && !numeric(s))
			continue;
		for (char *p = s; *p != '\0'; p++) {
			if (*p == from && p > s && isdigit((unsigned char)p[-1]) &&
			    isdigit((unsigned char)p[1])) {
				*p = to;
				changed = true;
			}
		}
		if (changed)
			ff->f[i].text_changed = true;
	}
	ff->lang = lang;
	read_model(ff);
	model_changed(ff, before, false);
	arch_follow(ff, was);
	reread(ff);
}

bool tui_ff_cycle(struct tui_ff *ff, enum tui_ff_id id, int dir)
{
	int n;
	int *c = &ff->f[id].choice;

	switch (id) {
	case FF_METHOD: n = FIT_METHOD_COUNT; break;
	case FF_SHARD: n = FIT_SHARD_COUNT; break;
	case FF_OPT: n = FIT_OPT_COUNT; break;
	case FF_OFFLOAD: n = FIT_OFFLOAD_COUNT; break;
	case FF_ACCT: n = FIT_ZACCT_COUNT; break;
	default:
		if (tui_ff_kind(id) == FFK_TEXT)
			return false;
		n = 2; /* toggles, folds, two-way choices */
		break;
	}
	*c = ((*c + (dir < 0 ? -1 : 1)) % n + n) % n;
	if (id == FF_METHOD && *c != FIT_DIFFUSION)
		ff->llm_method = (enum fit_method)*c;
	if (id == FF_METHOD) {
		/* the user's choice now: nothing to give back; a search reads
		 * again for the new method's kind */
		const struct catalog_model *before = ff->preset;
		ff->method_auto = FIT_METHOD_COUNT;
		ff->auto_preset = NULL;
		read_model(ff);
		model_changed(ff, before, false);
	}
	return reread(ff);
}

bool tui_ff_match_step(struct tui_ff *ff, int dir)
{
	const struct catalog_model *before = ff->preset;
	struct model_id was = model_id(ff);

	if (ff->n_matches == 0)
		return false;
	if (dir < 0)
		ff->match_sel = (ff->match_sel + ff->n_matches - 1) % ff->n_matches;
	else
		ff->match_sel = (ff->match_sel + 1) % ff->n_matches;
	live_chosen(ff);
	model_changed(ff, before, false);
	arch_follow(ff, was);
	return reread(ff);
}

bool tui_ff_pick(struct tui_ff *ff, size_t i)
{
	const struct catalog_model *m;

	if (i >= ff->n_matches)
		return false;
	m = ff->matches[i];
	ff->match_sel = i;
	return tui_ff_set_text(ff, FF_MODEL, m->name);
}
