/*
 * tests/unit/test_fitpanel.c — the fit panel's form (tui/fitpanel/fitform.c) and its
 * answer lines (tui_fit_answer_lines in tui/fitpanel/fitpanel.c), without a terminal.
 *
 * 1. Typing a model as people do: "70", "70B", "7.5", "1.3T", "350M"; "7,5"
 *    in pt-PT (refused in English, where "," is not a decimal point).
 * 2. Presets by search as you type: "llama 70" → Llama 3.1 70B with its
 *    architecture from the catalogue (80 layers, hidden 8192, 64 heads, 8 KV:
 *    Meta's config.json, data/models.json); an id typed exactly; a
 *    diffusion preset selects the diffusion method and brings its
 *    resolution, leaving it restores the method.
 * 3. The job equals the one `gpux fit` builds from the same inputs
 *    (cli/cmd_fit.c build_job: fit_job_defaults, the model, the method, the
 *    options), byte for byte.
 *    And the same answer: the real `gpux fit` run with the new options
 *    (architecture, FP8 KV cache, flash attention, chunked loss, offload,
 *    ZeRO accounting, pure bf16, int4 group, bandwidth efficiency,
 *    all-reduce, overhead, margin, text encoders; English and pt-PT), every
 *    GPU's figures equal to the panel's row and answer.
 * 4. Bad input in every kind of field (letters, negative, zero, absurdly
 *    large, empty): the field gets fit/'s reason, the form is not valid and
 *    the last valid job stays (same generation).
 * 5. Choices and the toggle cycle; fields shown per method; the
 *    Architecture fold (a size's guess shown and typed over, derived head
 *    dimension, given once all four figures are typed, reset by a new
 *    model) and the Advanced fold.
 * 6. The answer the panel draws for a GPU equals fit/'s figures for it
 *    (memory breakdown, GPUs needed, cost per hour, run time and cost,
 *    decode tokens/s) as view/ formats them for `gpux fit`.
 */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "data/catalog.h"
#include "tests/unit/catalog_fixture.h"
#include "fit/fit.h"
#include "i18n/i18n.h"
#include "tui/fitpanel/fitform.h"
#include "util/util.h"
#include "view/view.h"
#include "widgets/widgets.h"

static struct catalog *cat;

static int setup(void **state)
{
	(void)state;
	if (fx_catalog_load(&cat) != 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	catalog_free(&cat);
	return 0;
}

/* ---- 1. sizes ------------------------------------------------------------------ */

static void test_sizes(void **state)
{
	static const struct { const char *text; double b; } ok[] = {
		{ "70", 70 }, { "70B", 70 }, { " 70 b ", 70 }, { "7.5", 7.5 }, { "1.3T", 1300 },
		{ "350M", 0.35 }, { "405", 405 },
	};
	struct tui_ff ff;

	(void)state;
	tui_ff_init(&ff, cat, I18N_EN, false);
	assert_false(ff.have_job);
	assert_null(ff.f[FF_MODEL].error); /* untouched and empty: no complaint yet */
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		tui_ff_set_text(&ff, FF_MODEL, ok[i].text);
		assert_true(ff.valid);
		assert_null(ff.f[FF_MODEL].error);
		assert_true(ff.model_is_size);
		assert_true(fabs(ff.job.model.params_b - ok[i].b) < 1e-9);
		assert_true(ff.job.model.guessed);
		assert_null(ff.preset);
	}
	/* English: a comma is not a decimal point */
	tui_ff_set_text(&ff, FF_MODEL, "7,5");
	assert_false(ff.valid);
	assert_non_null(ff.f[FF_MODEL].error);
	tui_ff_free(&ff);

	/* pt-PT, es, fr, de: "7,5" is 7.5 (and "7.5" too) */
	enum i18n_lang comma[] = { I18N_PT_PT, I18N_ES, I18N_FR, I18N_DE };
	for (size_t i = 0; i < sizeof comma / sizeof comma[0]; i++) {
		tui_ff_init(&ff, cat, comma[i], false);
		tui_ff_set_text(&ff, FF_MODEL, "7,5");
		assert_true(ff.valid);
		assert_true(fabs(ff.job.model.params_b - 7.5) < 1e-12);
		tui_ff_set_text(&ff, FF_MODEL, "12,5");
		assert_true(fabs(ff.job.model.params_b - 12.5) < 1e-12);
		/* percentages take the comma too */
		tui_ff_set_text(&ff, FF_MFU, "12,5");
		assert_true(fabs(ff.job.mfu - 0.125) < 1e-12);
		/* "1.000" and "1.500" are a thousand and fifteen hundred to a
		 * reader of these languages: refused, never 1 B or 1.5 B */
		tui_ff_set_text(&ff, FF_MODEL, "1.000");
		assert_false(ff.model_is_size);
		assert_non_null(ff.f[FF_MODEL].error);
		tui_ff_set_text(&ff, FF_MODEL, "1.500");
		assert_false(ff.model_is_size);
		tui_ff_set_text(&ff, FF_MODEL, "1000");
		assert_true(ff.model_is_size);
		assert_true(fabs(ff.size_b - 1000) < 1e-9);
		tui_ff_free(&ff);
	}
}

/* ---- 2. presets ----------------------------------------------------------------- */

static void test_presets(void **state)
{
	struct tui_ff ff;
	char *a;

	(void)state;
	tui_ff_init(&ff, cat, I18N_EN, false);
	/* search as you type, word by word */
	tui_ff_set_text(&ff, FF_MODEL, "l");
	assert_true(ff.n_matches > 1);
	tui_ff_set_text(&ff, FF_MODEL, "llama");
	assert_true(ff.n_matches >= 5);
	assert_true(tui_ff_searching(&ff));
	tui_ff_set_text(&ff, FF_MODEL, "llama 70");
	assert_int_equal(ff.n_matches, 2); /* Llama 3.1 70B, then Llama 2 70B */
	assert_string_equal(ff.matches[1]->id, "llama-2-70b");
	assert_non_null(ff.preset);
	assert_string_equal(ff.preset->id, "llama-3.1-70b");
	assert_string_equal(ff.preset->name, "Llama 3.1 70B");
	assert_true(ff.valid);
	/* the live job carries the catalogue's architecture (Meta's config.json) */
	assert_int_equal(ff.job.model.layers, 80);
	assert_int_equal(ff.job.model.hidden, 8192);
	assert_int_equal(ff.job.model.heads, 64);
	assert_int_equal(ff.job.model.kv_heads, 8);
	assert_false(ff.job.model.guessed);
	a = tui_ff_arch_text(&ff);
	assert_non_null(a);
	assert_non_null(strstr(a, "Llama 3.1 70B"));
	assert_non_null(strstr(a, "80 layers"));
	assert_non_null(strstr(a, "hidden 8,192"));
	assert_non_null(strstr(a, "64 heads (8 KV)"));
	free(a);
	/* picking it writes its name, which is no longer a search */
	tui_ff_pick(&ff, 0);
	assert_string_equal(ff.f[FF_MODEL].text, "Llama 3.1 70B");
	assert_false(tui_ff_searching(&ff));
	assert_string_equal(ff.preset->id, "llama-3.1-70b");
	/* an id typed exactly, any case */
	tui_ff_set_text(&ff, FF_MODEL, "QWEN2.5-72B");
	assert_string_equal(ff.preset->id, "qwen2.5-72b");
	assert_false(tui_ff_searching(&ff));
	/* ↑↓ among several matches */
	tui_ff_set_text(&ff, FF_MODEL, "mixtral");
	assert_int_equal(ff.n_matches, 2);
	assert_string_equal(ff.preset->id, "mixtral-8x7b");
	tui_ff_match_step(&ff, +1);
	assert_string_equal(ff.preset->id, "mixtral-8x22b");
	a = tui_ff_arch_text(&ff);
	assert_non_null(strstr(a, "active of 141 B")); /* MoE: active parameters shown */
	free(a);
	tui_ff_match_step(&ff, +1);
	assert_string_equal(ff.preset->id, "mixtral-8x7b");

	/* a diffusion preset selects the diffusion method and its resolution */
	tui_ff_cycle(&ff, FF_METHOD, +1); /* full → LoRA */
	assert_int_equal(tui_ff_method(&ff), FIT_LORA);
	tui_ff_set_text(&ff, FF_MODEL, "sdxl");
	assert_string_equal(ff.preset->id, "sdxl");
	assert_int_equal(tui_ff_method(&ff), FIT_DIFFUSION);
	assert_true(ff.job.model.diffusion);
	assert_true(ff.f[FF_RES].text_changed);
	assert_string_equal(ff.f[FF_RES].text, "1024\u00d71024");
	assert_int_equal(ff.job.width, 1024);
	assert_true(tui_ff_shown(&ff, FF_RES));
	assert_false(tui_ff_shown(&ff, FF_SEQ));
	/* back to a language model: the method chosen before */
	tui_ff_set_text(&ff, FF_MODEL, "70");
	assert_int_equal(tui_ff_method(&ff), FIT_LORA);
	assert_false(ff.job.model.diffusion);
	tui_ff_free(&ff);
}

/* A search never switches the method: "f" matches FLUX and Falcon, and the
 * language model is live in a training method; "flux" matches only image
 * models: none is live and the note says what Enter would do; Enter takes
 * it, the method becomes Diffusion and the note says so; whatever is typed
 * next — nothing, "70", "llama" — the method the user had is back. */
static void test_search_never_switches_the_method(void **state)
{
	struct tui_ff ff;

	(void)state;
	tui_ff_init(&ff, cat, I18N_EN, false);
	tui_ff_set_text(&ff, FF_MODEL, "f");
	assert_int_equal(tui_ff_method(&ff), FIT_FULL);
	assert_non_null(ff.preset);
	assert_int_not_equal(ff.preset->kind, CATALOG_MODEL_DIFFUSION);
	tui_ff_set_text(&ff, FF_MODEL, "");
	assert_int_equal(tui_ff_method(&ff), FIT_FULL);
	tui_ff_set_text(&ff, FF_MODEL, "flux");
	assert_int_equal(tui_ff_method(&ff), FIT_FULL);
	assert_null(ff.preset);
	assert_non_null(ff.model_note);
	assert_non_null(strstr(ff.model_note, "is an image model: Enter takes it"));
	/* ↑↓ onto it changes nothing either */
	tui_ff_match_step(&ff, +1);
	assert_int_equal(tui_ff_method(&ff), FIT_FULL);
	assert_null(ff.preset);
	/* Enter: taken, Diffusion, said */
	assert_true(tui_ff_pick(&ff, 0));
	assert_int_equal(tui_ff_method(&ff), FIT_DIFFUSION);
	assert_int_equal(ff.preset->kind, CATALOG_MODEL_DIFFUSION);
	assert_non_null(ff.model_note);
	assert_non_null(strstr(ff.model_note, "Method: Diffusion"));
	assert_non_null(strstr(ff.model_note, "it was Full training"));
	/* another model: the user's method again, in every way of leaving */
	tui_ff_set_text(&ff, FF_MODEL, "");
	assert_int_equal(tui_ff_method(&ff), FIT_FULL);
	assert_null(ff.model_note);
	tui_ff_pick(&ff, 0);
	tui_ff_set_text(&ff, FF_MODEL, "flux.1-dev");
	assert_int_equal(tui_ff_method(&ff), FIT_DIFFUSION);
	tui_ff_set_text(&ff, FF_MODEL, "70");
	assert_int_equal(tui_ff_method(&ff), FIT_FULL);
	assert_false(ff.job.model.diffusion);
	tui_ff_set_text(&ff, FF_MODEL, "flux.1-dev");
	tui_ff_set_text(&ff, FF_MODEL, "llama");
	assert_int_equal(tui_ff_method(&ff), FIT_FULL);
	assert_int_not_equal(ff.preset->kind, CATALOG_MODEL_DIFFUSION);
	/* a method chosen by hand stays the user's: Diffusion, then "70" */
	tui_ff_set_text(&ff, FF_MODEL, "70");
	while (tui_ff_method(&ff) != FIT_DIFFUSION)
		tui_ff_cycle(&ff, FF_METHOD, +1);
	tui_ff_set_text(&ff, FF_MODEL, "7");
	assert_int_equal(tui_ff_method(&ff), FIT_DIFFUSION);
	/* ... and a language preset taken in it brings a language method, said */
	tui_ff_set_text(&ff, FF_MODEL, "llama-3.1-8b");
	assert_int_not_equal(tui_ff_method(&ff), FIT_DIFFUSION);
	assert_non_null(ff.model_note);
	tui_ff_free(&ff);
}

/* A refusal names its bounds as the language writes numbers: 16,777,216
 * in English, grouped in pt-PT and German too; never 16777216. */
static void test_bounds_written_in_the_language(void **state)
{
	static const enum i18n_lang langs[] = { I18N_EN, I18N_PT_PT, I18N_DE };

	(void)state;
	for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++) {
		struct tui_ff ff;
		char *max = i18n_fmt_number(langs[l], 16777216, 0);

		i18n_init(langs[l]);
		tui_ff_init(&ff, cat, langs[l], false);
		tui_ff_set_text(&ff, FF_MODEL, "7");
		tui_ff_set_text(&ff, FF_SEQ, "0");
		assert_non_null(ff.f[FF_SEQ].error);
		if (strstr(ff.f[FF_SEQ].error, max) == NULL)
			print_error("[%s] has no [%s]\n", ff.f[FF_SEQ].error, max);
		assert_non_null(strstr(ff.f[FF_SEQ].error, max));
		assert_null(strstr(ff.f[FF_SEQ].error, "16777216"));
		free(max);
		tui_ff_free(&ff);
	}
	i18n_init(I18N_EN);
}

/* ---- 3. the same job and the same answer as gpux fit ------------------------------------ */

/* The job `gpux fit SIZE --method M --gpus G --zero Z` builds (cli/cmd_fit.c). */
static void cli_job(struct fit_job *job, double size_b, const char *preset, enum fit_method m,
		    int gpus, enum fit_sharding z)
{
	fit_job_defaults(job);
	if (preset != NULL) {
		view_job_use_preset(job, catalog_model(cat, preset));
		if (catalog_model(cat, preset)->kind == CATALOG_MODEL_DIFFUSION)
			job->method = FIT_DIFFUSION;
	} else {
		assert_int_equal(fit_model_from_size(size_b, &job->model, NULL), 0);
	}
	job->method = m;
	if (job->method == FIT_DIFFUSION)
		job->model.diffusion = true;
	job->gpus = gpus;
	job->sharding = z;
	assert_int_equal(fit_job_check(job, NULL), 0);
}

static void set_method(struct tui_ff *ff, enum fit_method m)
{
	for (int i = 0; i < FIT_METHOD_COUNT && tui_ff_method(ff) != m; i++)
		tui_ff_cycle(ff, FF_METHOD, +1);
	assert_int_equal(tui_ff_method(ff), m);
}

static void test_same_job_as_cli(void **state)
{
	struct tui_ff ff;
	struct fit_job want;

	(void)state;
	tui_ff_init(&ff, cat, I18N_EN, false);
	/* gpux fit 70 --method qlora */
	tui_ff_set_text(&ff, FF_MODEL, "70");
	set_method(&ff, FIT_QLORA);
	cli_job(&want, 70, NULL, FIT_QLORA, 1, FIT_SHARD_ZERO3);
	assert_true(ff.valid);
	assert_memory_equal(&ff.job, &want, sizeof want);
	/* gpux fit 70 --method full --gpus 8 --zero 3 */
	set_method(&ff, FIT_FULL);
	tui_ff_set_text(&ff, FF_GPUS, "8");
	cli_job(&want, 70, NULL, FIT_FULL, 8, FIT_SHARD_ZERO3);
	assert_memory_equal(&ff.job, &want, sizeof want);
	/* gpux fit 70 --method full --gpus 8 --zero 1 */
	tui_ff_cycle(&ff, FF_SHARD, +1); /* ZeRO-3 → none */
	tui_ff_cycle(&ff, FF_SHARD, +1); /* → ZeRO-1 */
	cli_job(&want, 70, NULL, FIT_FULL, 8, FIT_SHARD_ZERO1);
	assert_memory_equal(&ff.job, &want, sizeof want);
	/* gpux fit llama-3.1-70b --method infer-int4 --gpus 2: the sharding
	 * chosen for training does not apply to inference (fit/'s default, as
	 * gpux fit without --zero) */
	tui_ff_set_text(&ff, FF_MODEL, "llama 3.1 70");
	set_method(&ff, FIT_INFER_INT4);
	tui_ff_set_text(&ff, FF_GPUS, "2");
	cli_job(&want, 0, "llama-3.1-70b", FIT_INFER_INT4, 2, FIT_SHARD_ZERO3);
	assert_memory_equal(&ff.job, &want, sizeof want);
	/* gpux fit flux.1-dev (typed whole: a search would not switch the method) */
	tui_ff_set_text(&ff, FF_MODEL, "flux.1-dev");
	tui_ff_set_text(&ff, FF_GPUS, "1");
	cli_job(&want, 0, "flux.1-dev", FIT_DIFFUSION, 1, FIT_SHARD_ZERO3);
	assert_memory_equal(&ff.job, &want, sizeof want);
	tui_ff_free(&ff);
}

/* The panel's inputs by name, as a user sets them: a text typed, a choice
 * stepped to the value, a toggle turned on; a fold opened first. */
static const struct { const char *name; enum tui_ff_id id; } field_names[] = {
	{ "model", FF_MODEL }, { "method", FF_METHOD }, { "seq", FF_SEQ }, { "batch", FF_BATCH },
	{ "ckpt", FF_CKPT }, { "gpus", FF_GPUS }, { "zero", FF_SHARD }, { "opt", FF_OPT },
	{ "tokens", FF_TOKENS }, { "mfu", FF_MFU }, { "bweff", FF_BWEFF }, { "rank", FF_RANK },
	{ "res", FF_RES }, { "frames", FF_FRAMES }, { "overhead", FF_OVERHEAD },
	{ "margin", FF_MARGIN }, { "flash", FF_FLASH }, { "offload", FF_OFFLOAD },
	{ "kv", FF_KVCACHE }, { "enc", FF_ENCODERS }, { "layers", FF_LAYERS },
	{ "hidden", FF_HIDDEN }, { "heads", FF_HEADS }, { "kvheads", FF_KVHEADS },
	{ "headdim", FF_HEADDIM }, { "vocab", FF_VOCAB }, { "ffn", FF_FFN }, { "active", FF_ACTIVE },
	{ "acct", FF_ACCT }, { "pure", FF_PURE }, { "chunked", FF_CHUNKED }, { "int4g", FF_INT4G },
	{ "allreduce", FF_ALLREDUCE }, { "actoff", FF_ACTOFF }, { "embed32", FF_EMBED32 },
	{ "paged", FF_PAGED },
};

static int choice_value(enum tui_ff_id id, const char *v)
{
	enum fit_method m;
	enum fit_sharding z;
	enum fit_offload o;
	enum fit_zero_accounting a;

	switch (id) {
	case FF_METHOD: assert_int_equal(fit_method_parse(v, &m, NULL), 0); return (int)m;
	case FF_SHARD: assert_int_equal(fit_sharding_parse(v, &z, NULL), 0); return (int)z;
	case FF_OFFLOAD: assert_int_equal(fit_offload_parse(v, &o, NULL), 0); return (int)o;
	case FF_ACCT: assert_int_equal(fit_accounting_parse(v, &a, NULL), 0); return (int)a;
	case FF_OPT: {
		enum fit_optimizer op;
		assert_int_equal(fit_optimizer_parse(v, &op, NULL), 0);
		return (int)op;
	}
	default: return atoi(v);
	}
}

static void set_field(struct tui_ff *ff, const char *name, const char *v)
{
	size_t i;

	for (i = 0; i < sizeof field_names / sizeof field_names[0]; i++)
		if (strcmp(field_names[i].name, name) == 0)
			break;
	if (i == sizeof field_names / sizeof field_names[0])
		fail_msg("no field %s", name);
	enum tui_ff_id id = field_names[i].id;
	enum tui_ff_id fold = tui_ff_section(id) == FFS_ARCH ? FF_ARCH
			    : tui_ff_section(id) == FFS_MORE ? FF_MORE : FF_COUNT;
	if (fold != FF_COUNT && ff->f[fold].choice == 0)
		tui_ff_cycle(ff, fold, +1);
	if (tui_ff_kind(id) == FFK_TEXT) {
		tui_ff_set_text(ff, id, v);
	} else {
		int want = choice_value(id, v);
		for (int k = 0; k < 12 && ff->f[id].choice != want; k++)
			tui_ff_cycle(ff, id, +1);
		assert_int_equal(ff->f[id].choice, want);
	}
	if (!tui_ff_shown(ff, id))
		fail_msg("%s is not shown after setting it", name);
}

/* "name=value;name=value" */
static void set_fields(struct tui_ff *ff, const char *ops)
{
	char *copy = xstrdup(ops), *save = NULL;

	for (char *op = strtok_r(copy, ";", &save); op != NULL; op = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(op, '=');
		assert_non_null(eq);
		*eq = '\0';
		set_field(ff, op, eq + 1);
	}
	free(copy);
}

static char gpux_home[] = "/tmp/gpux-fitpanel-XXXXXX";

/* `gpux --lang L --format csv fit ARGS` run for real (the build's binary,
 * a home of its own: no config file, the local demo exchange). */
static char *gpux_csv(const char *lang, const char *args)
{
	const char *b = getenv("GPUX_BUILD");
	char *cmd = xasprintf("env -u GPUX_API -u GPUX_API_KEY HOME=%s XDG_CONFIG_HOME=%s/config "
			      "XDG_DATA_HOME=%s/data XDG_STATE_HOME=%s/state LANGUAGE= LC_ALL=C "
			      "'%s/gpux' --lang %s --format csv fit %s 2>&1",
			      gpux_home, gpux_home, gpux_home, gpux_home,
			      b != NULL && b[0] != '\0' ? b : "build", lang, args);
	FILE *f = popen(cmd, "r");
	struct buf out = {0};
	char line[4096];
	int rc;

	assert_non_null(f);
	while (fgets(line, sizeof line, f) != NULL)
		if (out.len > 0 || strncmp(line, "gpux: fit: \"", 12) != 0) /* a name's note */
			buf_puts(&out, line);
	rc = pclose(f);
	if (rc != 0)
		fail_msg("%s: exit %d: %s", cmd, rc, out.data != NULL ? out.data : "");
	free(cmd);
	return buf_take(&out);
}

/* Whether pid runs (a zombie its new parent has not reaped is gone). */
static bool running(pid_t pid)
{
	char path[64], stat[256];
	FILE *f;
	bool zombie = false;

	if (kill(pid, 0) != 0)
		return false;
	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	if (f != NULL && fgets(stat, sizeof stat, f) != NULL) {
		const char *p = strrchr(stat, ')');
		zombie = p != NULL && p[1] == ' ' && p[2] == 'Z';
	}
	if (f != NULL)
		fclose(f);
	return !zombie;
}

/* The local demo exchange the runs of gpux_csv started (its pid file in
 * gpux_home) stopped, and gone within 5 s, before its home is removed. */
static void stop_local_gpuxd(void)
{
	char *path = xasprintf("%s/data/gpux/gpuxd.pid", gpux_home);
	FILE *f = fopen(path, "r");
	long pid = 0;

	free(path);
	if (f == NULL)
		return; /* none was started */
	if (fscanf(f, "%ld", &pid) != 1)
		pid = 0;
	fclose(f);
	if (pid <= 1 || kill((pid_t)pid, SIGTERM) != 0)
		return;
	for (int i = 0; i < 100 && running((pid_t)pid); i++)
		usleep(50 * 1000);
	assert_false(running((pid_t)pid));
}

/* Split a CSV line (no quoting in gpux fit's ids, names and numbers). */
static size_t csv_split(char *line, char **cell, size_t max)
{
	size_t n = 0;

	cell[n++] = line;
	for (char *p = line; *p != '\0' && n < max; p++) {
		if (*p == ',') {
			*p = '\0';
			cell[n++] = p + 1;
		}
	}
	return n;
}

static void same_number(const char *what, const char *gpu, const char *csv, double panel)
{
	if (csv[0] == '\0') {
		if (isfinite(panel))
			fail_msg("%s %s: gpux fit none, the panel %.12g", gpu, what, panel);
		return;
	}
	double v = strtod(csv, NULL);
	if (!(fabs(v - panel) <= 1e-9 * fmax(1, fabs(v))))
		fail_msg("%s %s: gpux fit %s, the panel %.12g", gpu, what, csv, panel);
}

static void contains(const char *text, const char *want);
static char *answer_text(const struct tui_ff *ff, const struct view_row *r, int width, bool detailed);

/* Every GPU of the workload: what gpux fit prints equals what the panel's
 * job gives the table's row and what the panel's answer says. */
static void same_answer(const struct tui_ff *ff, const char *lang, const char *args,
			const char *workload, const char *arch)
{
	static const char *const cols[] = { "job_mem_gb", "job_mem_one_gpu_gb", "train_hours",
		"decode_tokens_s", "mem_weights_gb", "mem_gradients_gb", "mem_optimizer_gb",
		"mem_activations_gb", "mem_kv_cache_gb", "mem_margin_gb" };
	struct view_prices none = { NULL, 0, false };
	struct view_table *t;
	char *all = xasprintf("%s --workload %s", args, workload);
	char *csv = gpux_csv(lang, all), *save = NULL, *head[64], *cell[64];
	size_t nh, rows = 0;
	int col[sizeof cols / sizeof cols[0]], c_gpu = -1, c_fits = -1, c_need = -1, c_run = -1,
	    c_arch = -1;

	assert_true(ff->valid);
	t = view_new(cat, catalog_workload(cat, workload), &none, &ff->job, ff->lang, false);
	nh = csv_split(strtok_r(csv, "\n", &save), head, 64);
	for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++) {
		col[k] = -1;
		for (size_t i = 0; i < nh; i++)
			if (strcmp(head[i], cols[k]) == 0)
				col[k] = (int)i;
	}
	for (size_t i = 0; i < nh; i++) {
		c_gpu = strcmp(head[i], "gpu") == 0 ? (int)i : c_gpu;
		c_fits = strcmp(head[i], "job_fits") == 0 ? (int)i : c_fits;
		c_need = strcmp(head[i], "job_gpus") == 0 ? (int)i : c_need;
		c_run = strcmp(head[i], "gpus_run") == 0 ? (int)i : c_run;
		c_arch = strcmp(head[i], "architecture") == 0 ? (int)i : c_arch;
	}
	assert_true(c_gpu >= 0 && c_fits >= 0 && c_need >= 0 && c_run >= 0 && c_arch >= 0);
	for (char *l = strtok_r(NULL, "\n", &save); l != NULL; l = strtok_r(NULL, "\n", &save)) {
		size_t n = csv_split(l, cell, 64);
		assert_int_equal(n, nh);
		int at = view_find(t, cell[c_gpu]);
		assert_true(at >= 0);
		const struct view_row *r = view_shown_row(t, (size_t)at);
		const struct fit_result *j = &r->job;
		double panel[] = { j->mem.total, j->mem_one.total, j->train_hours, j->decode_tokens_s,
				   j->mem.weights, j->mem.gradients, j->mem.optimizer,
				   j->mem.activations, j->mem.kv_cache, j->mem.margin };
		for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
			if (col[k] >= 0)
				same_number(cols[k], cell[c_gpu], cell[col[k]], panel[k]);
		assert_string_equal(cell[c_fits], j->fits == 1 ? "true" : j->fits == 0 ? "false" : "");
		assert_int_equal(cell[c_need][0] != '\0' ? atoi(cell[c_need]) : 0,
				 j->gpus_needed > 0 ? j->gpus_needed : 0);
		assert_int_equal(atoi(cell[c_run]), j->gpus_run);
		assert_string_equal(cell[c_arch], arch);
		if (rows++ < 3) {
			/* what the panel shows for it: gpux fit's figures */
			char *det = answer_text(ff, r, 56, true);
			char *gb = view_fmt_gb(ff->lang, strtod(cell[col[0]], NULL));
			contains(det, gb);
			free(gb);
			if (cell[c_need][0] != '\0' && ff->lang == I18N_EN) {
				char *g = xasprintf("GPUs needed   %s", cell[c_need]);
				contains(det, g);
				free(g);
			}
			if (col[3] >= 0 && cell[col[3]][0] != '\0') {
				char *v = view_fmt_tokens_s(ff->lang, strtod(cell[col[3]], NULL), false);
				contains(det, v);
				free(v);
			}
			free(det);
		}
	}
	assert_true(rows > 3);
	view_free(&t);
	free(csv);
	free(all);
}

/* The panel's new inputs against gpux fit's options, each case a command
 * a user would type and the same fields in the panel. */
static void test_same_answer_as_cli(void **state)
{
	static const struct {
		enum i18n_lang lang;
		const char *lang_id, *args, *fields, *workload, *arch;
	} cases[] = {
		/* multi-head attention typed over a size's guess, an FP8 KV cache */
		{ I18N_EN, "en", "70 --method infer-fp16 --kv-heads 64 --kv-cache fp8 --gpus 2 --seq 32768",
		  "model=70;method=infer-fp16;kvheads=64;kv=1;gpus=2;seq=32768", "inference", "guessed" },
		/* the whole architecture given: no longer a guess */
		{ I18N_EN, "en", "8 --method qlora --lora-rank 64 --layers 40 --hidden 5120 --heads 40 --kv-heads 40 --vocab 32000 --seq 4096",
		  "model=8;method=qlora;rank=64;layers=40;hidden=5120;heads=40;kvheads=40;vocab=32000;seq=4096",
		  "finetune", "given" },
		/* a width and heads typed: the head dimension follows, the KV heads are capped */
		{ I18N_EN, "en", "13 --hidden 6144 --heads 24 --gpus 8 --zero 2 --offload optimizer --zero-accounting paper --flash-attention --chunked-loss",
		  "model=13;hidden=6144;heads=24;gpus=8;zero=2;offload=optimizer;acct=paper;flash=1;chunked=1",
		  "training", "guessed" },
		/* ZeRO-3 with everything offloaded, pure bf16, a margin and overhead */
		{ I18N_EN, "en", "llama-3.1-70b --method full --gpus 16 --zero 3 --offload all --pure-bf16 --overhead 2.5 --margin 5% --no-checkpointing --batch 2",
		  "model=llama-3.1-70b;method=full;gpus=16;offload=all;pure=1;overhead=2.5;margin=5;ckpt=0;batch=2",
		  "training", "published" },
		/* MoE: active parameters, int4 groups, bandwidth efficiency, all-reduce */
		{ I18N_EN, "en", "mixtral-8x7b --method infer-int4 --int4-group 32 --bw-efficiency 55% --allreduce-us 8 --gpus 4 --active 14 --batch 8",
		  "model=mixtral-8x7b;method=infer-int4;int4g=32;bweff=55;allreduce=8;gpus=4;active=14;batch=8",
		  "inference", "published" },
		/* pt-PT: decimal commas, as the language writes them */
		{ I18N_PT_PT, "pt-PT", "7,5 --method infer-int8 --active 3,5 --bw-efficiency 62,5% --allreduce-us 4,5 --overhead 1,5",
		  "model=7,5;method=infer-int8;active=3,5;bweff=62,5;allreduce=4,5;overhead=1,5",
		  "inference", "guessed" },
		/* diffusion: the text encoders offloaded, resolution and frames */
		{ I18N_EN, "en", "wan2.1-t2v-14b --encoders-offloaded --resolution 832x480 --frames 33",
		  "model=wan2.1-t2v-14b;enc=1;res=832x480;frames=33", "imagegen", "published" },
		/* a config.json as the model (the panel reads the path typed) */
		{ I18N_EN, "en", "--config tests/data/hf/Mixtral-8x7B-v0.1/config.json --method infer-fp8 --gpus 2 --batch 16",
		  "model=tests/data/hf/Mixtral-8x7B-v0.1/config.json;method=infer-fp8;gpus=2;batch=16",
		  "inference", "config" },
		/* a hub id finds its preset */
		{ I18N_EN, "en", "Qwen/Qwen2.5-72B-Instruct --method infer-int4 --gpus 2",
		  "model=Qwen/Qwen2.5-72B-Instruct;method=infer-int4;gpus=2", "inference", "published" },
		/* the fine-tuning stack's switches, one by one */
		{ I18N_EN, "en", "llama-3.1-8b --method qlora --zero 0 --optimizer adam8 --act-offload --paged-optimizer --embeddings fp32 --chunked-loss",
		  "model=llama-3.1-8b;method=qlora;zero=0;opt=adam8;actoff=1;paged=1;embed32=1;chunked=1",
		  "finetune", "published" },
	};

	(void)state;
	assert_non_null(mkdtemp(gpux_home));
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct tui_ff ff;
		tui_ff_init(&ff, cat, cases[i].lang, false);
		set_fields(&ff, cases[i].fields);
		if (!ff.valid)
			fail_msg("case %zu: the panel refuses %s: %s", i, cases[i].fields,
				 ff.job_error != NULL ? ff.job_error : "a field");
		same_answer(&ff, cases[i].lang_id, cases[i].args, cases[i].workload, cases[i].arch);
		tui_ff_free(&ff);
	}
	stop_local_gpuxd();
	char *rm = xasprintf("rm -rf '%s'", gpux_home);
	assert_int_equal(system(rm), 0);
	free(rm);
}

/* The model field takes a config.json's path (read once it ends in .json)
 * and hub ids; one no preset lists says to type its config's path. */
static void test_config_and_hub(void **state)
{
	(void)state;
	struct tui_ff ff;
	tui_ff_init(&ff, cat, I18N_EN, false);
	tui_ff_set_text(&ff, FF_MODEL, "tests/data/hf/DeepSeek-V3/config.json");
	assert_true(ff.valid);
	assert_int_equal(ff.job.model.experts, 256);
	assert_int_equal(ff.job.model.kv_latent_dim, 576);
	assert_true(fabs(ff.job.model.params_b - 671.0) < 0.5);
	tui_ff_set_text(&ff, FF_MODEL, "tests/data/hf/bad/no-layers.json");
	assert_false(ff.valid);
	assert_non_null(strstr(ff.f[FF_MODEL].error, "num_hidden_layers"));
	tui_ff_set_text(&ff, FF_MODEL, "tests/data/hf/none/config.json");
	assert_non_null(strstr(ff.f[FF_MODEL].error, "cannot use this config.json"));
	tui_ff_set_text(&ff, FF_MODEL, "meta-llama/Llama-3.1-70B");
	assert_true(ff.valid);
	assert_string_equal(ff.preset->id, "llama-3.1-70b");
	tui_ff_set_text(&ff, FF_MODEL, "someone/some-model");
	assert_false(ff.valid);
	assert_non_null(strstr(ff.f[FF_MODEL].error, "config.json"));
	tui_ff_free(&ff);
}

/* ---- 4. bad input ------------------------------------------------------------------- */

static void expect_bad(struct tui_ff *ff, enum tui_ff_id id, const char *text, const char *reason)
{
	unsigned gen = ff->gen;
	struct fit_job before = ff->job;

	if (tui_ff_set_text(ff, id, text))
		fail_msg("\"%s\" in field %d changed the job", text, (int)id);
	assert_false(ff->valid);
	assert_non_null(ff->f[id].error);
	if (reason != NULL && strstr(ff->f[id].error, reason) == NULL)
		fail_msg("\"%s\": reason \"%s\", want \"%s\"", text, ff->f[id].error, reason);
	/* the last valid answer stays */
	assert_true(ff->have_job);
	assert_int_equal(ff->gen, gen);
	assert_memory_equal(&ff->job, &before, sizeof before);
}

static void test_bad_input(void **state)
{
	static const char *const nonsense[] = { "abc", "-1", "0", "99999999999", "", " ", "1e9",
						"8.5", "\xff\xfe", "8 GPUs" };
	struct tui_ff ff;

	(void)state;
	tui_ff_init(&ff, cat, I18N_EN, false);
	tui_ff_set_text(&ff, FF_MODEL, "70");
	assert_true(ff.valid);
	for (size_t i = 0; i < sizeof nonsense / sizeof nonsense[0]; i++) {
		expect_bad(&ff, FF_GPUS, nonsense[i], "GPUs must be a whole number from 1 to 1,048,576");
		expect_bad(&ff, FF_SEQ, nonsense[i], "sequence length must be a whole number");
		expect_bad(&ff, FF_BATCH, nonsense[i], "batch must be a whole number");
		tui_ff_set_text(&ff, FF_GPUS, "1");
		tui_ff_set_text(&ff, FF_SEQ, "2048");
		tui_ff_set_text(&ff, FF_BATCH, "1");
		assert_true(ff.valid);
	}
	expect_bad(&ff, FF_MFU, "0", "MFU must be above 0 and at most 100 %");
	expect_bad(&ff, FF_MFU, "101", "MFU must be above 0");
	expect_bad(&ff, FF_MFU, "-5", "MFU must be above 0");
	expect_bad(&ff, FF_MFU, "forty", "MFU must be above 0");
	tui_ff_set_text(&ff, FF_MFU, "40%");
	assert_true(ff.valid);
	assert_true(fabs(ff.job.mfu - 0.40) < 1e-12);
	expect_bad(&ff, FF_TOKENS, "lots", "tokens");
	expect_bad(&ff, FF_TOKENS, "0", "tokens");
	tui_ff_set_text(&ff, FF_TOKENS, "15T");
	assert_true(ff.valid);
	assert_true(fabs(ff.job.tokens_b - 15000) < 1e-9);
	expect_bad(&ff, FF_OVERHEAD, "2000", "overhead must be from 0 to 1,000 GB");
	tui_ff_set_text(&ff, FF_OVERHEAD, "2 GB");
	assert_true(ff.valid);
	assert_true(fabs(ff.job.overhead_gb - 2) < 1e-12);
	expect_bad(&ff, FF_MARGIN, "150", "margin must be from 0 to 100 %");
	tui_ff_set_text(&ff, FF_MARGIN, "0");
	assert_true(ff.valid);

	/* the model itself */
	expect_bad(&ff, FF_MODEL, "-5", "cannot be negative");
	expect_bad(&ff, FF_MODEL, "0", "greater than zero");
	expect_bad(&ff, FF_MODEL, "1000T", "too large");
	expect_bad(&ff, FF_MODEL, "zzz", "no preset matches");
	expect_bad(&ff, FF_MODEL, "", "empty");
	tui_ff_set_text(&ff, FF_MODEL, "70");
	assert_true(ff.valid);

	/* a field the method does not show does not block the job */
	tui_ff_set_text(&ff, FF_BWEFF, "nope");
	assert_non_null(ff.f[FF_BWEFF].error);
	assert_true(ff.valid);
	set_method(&ff, FIT_INFER_FP16);
	assert_false(ff.valid);          /* now it is shown, and bad */
	set_method(&ff, FIT_FULL);
	assert_true(ff.valid);
	tui_ff_free(&ff);
}

/* ---- 5. choices, fields per method ---------------------------------------------------- */

static void test_choices(void **state)
{
	struct tui_ff ff;
	enum tui_ff_id vis[FF_COUNT];

	(void)state;
	tui_ff_init(&ff, cat, I18N_EN, false);
	tui_ff_set_text(&ff, FF_MODEL, "7");
	assert_string_equal(tui_ff_choice_text(&ff, FF_METHOD), "Full training");
	assert_string_equal(tui_ff_choice_text(&ff, FF_SHARD), "ZeRO-3 / FSDP (+ weights)");
	assert_string_equal(tui_ff_choice_text(&ff, FF_OPT), "Adam (mixed precision)");
	assert_string_equal(tui_ff_choice_text(&ff, FF_CKPT), "on");
	tui_ff_cycle(&ff, FF_CKPT, +1);
	assert_false(ff.job.checkpointing);
	tui_ff_cycle(&ff, FF_OPT, -1);
	assert_int_equal(ff.job.optimizer, FIT_OPT_SGD);
	tui_ff_cycle(&ff, FF_METHOD, -1);
	assert_int_equal(ff.job.method, FIT_DIFFUSION);
	/* training shows its assumptions; inference its own */
	set_method(&ff, FIT_FULL);
	size_t n = tui_ff_visible(&ff, vis);
	{
		/* a size: its architecture (a guess) shown, the advanced fold closed */
		static const enum tui_ff_id want[] = {
			FF_MODEL, FF_METHOD, FF_SEQ, FF_BATCH, FF_CKPT, FF_GPUS, FF_SHARD, FF_OFFLOAD,
			FF_OPT, FF_FLASH, FF_TOKENS, FF_MFU, FF_ARCH, FF_LAYERS, FF_HIDDEN, FF_HEADS,
			FF_KVHEADS, FF_HEADDIM, FF_VOCAB, FF_FFN, FF_ACTIVE, FF_MORE,
		};
		assert_int_equal(n, sizeof want / sizeof want[0]);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(vis[i], want[i]);
	}
	assert_true(tui_ff_shown(&ff, FF_MFU));
	assert_false(tui_ff_shown(&ff, FF_BWEFF));
	set_method(&ff, FIT_INFER_FP8);
	assert_false(tui_ff_shown(&ff, FF_MFU));
	assert_true(tui_ff_shown(&ff, FF_BWEFF));
	assert_string_equal(tui_ff_label(&ff, FF_SEQ), "Context");
	assert_string_equal(tui_ff_label(&ff, FF_BATCH), "Sequences");
	/* every default is visible as text */
	char *d = tui_ff_default_text(&ff, FF_SEQ);
	assert_string_equal(d, "2048");
	free(d);
	d = tui_ff_default_text(&ff, FF_MFU);
	assert_string_equal(d, "40");
	free(d);
	tui_ff_free(&ff);

	/* parsers on their own */
	long v;
	char *cause = NULL;
	assert_int_equal(tui_ff_parse_int(" 8 ", 1, 10, "range", &v, &cause), 0);
	assert_int_equal(v, 8);
	assert_int_equal(tui_ff_parse_int("11", 1, 10, "range", &v, &cause), -1);
	assert_string_equal(cause, "range");
	free(cause);
	double f;
	assert_int_equal(tui_ff_parse_percent(I18N_PT_PT, "12,5 %", 0, false, 100, "r", &f, NULL), 0);
	assert_true(fabs(f - 0.125) < 1e-12);
}

/* ---- 5b. the architecture and advanced fields ------------------------------------------ */

static void test_arch_fields(void **state)
{
	struct tui_ff ff;
	char *a;

	(void)state;
	tui_ff_init(&ff, cat, I18N_EN, false);
	/* a size: the architecture fold opens on the guess's figures */
	tui_ff_set_text(&ff, FF_MODEL, "7");
	assert_int_equal(ff.f[FF_ARCH].choice, 1);
	assert_true(tui_ff_shown(&ff, FF_KVHEADS));
	assert_string_equal(ff.f[FF_LAYERS].text, "32");   /* Llama 2 7B's config */
	assert_string_equal(ff.f[FF_KVHEADS].text, "32");
	assert_string_equal(ff.f[FF_HEADDIM].text, "128");
	assert_false(tui_ff_changed(&ff, FF_ARCH));
	a = tui_ff_arch_text(&ff);
	assert_non_null(strstr(a, "architecture guessed from the size (Llama 2 7B)"));
	free(a);
	/* grouped-query attention typed over it */
	tui_ff_set_text(&ff, FF_KVHEADS, "8");
	assert_true(ff.valid);
	assert_int_equal(ff.job.model.kv_heads, 8);
	assert_true(ff.job.model.guessed);
	assert_true(tui_ff_changed(&ff, FF_KVHEADS));
	assert_string_equal(tui_ff_choice_text(&ff, FF_ARCH), "hide");
	tui_ff_cycle(&ff, FF_ARCH, +1); /* closed: says something inside is changed */
	assert_false(tui_ff_shown(&ff, FF_KVHEADS));
	assert_string_equal(tui_ff_choice_text(&ff, FF_ARCH), "show (changed)");
	assert_int_equal(ff.job.model.kv_heads, 8); /* folded, still counted */
	tui_ff_cycle(&ff, FF_ARCH, +1);
	/* a new width: the head dimension (not typed) follows it */
	tui_ff_set_text(&ff, FF_HIDDEN, "5120");
	assert_int_equal(ff.job.model.head_dim, 160);
	assert_string_equal(ff.f[FF_HEADDIM].text, "160");
	assert_true(ff.f[FF_HEADDIM].text_changed);
	/* all four figures typed: given, no longer a guess */
	tui_ff_set_text(&ff, FF_LAYERS, "40");
	tui_ff_set_text(&ff, FF_HEADS, "40");
	tui_ff_set_text(&ff, FF_KVHEADS, "40");
	assert_false(ff.job.model.guessed);
	a = tui_ff_arch_text(&ff);
	assert_non_null(strstr(a, "architecture given"));
	assert_non_null(strstr(a, "40 layers"));
	free(a);
	/* emptied: the model's own figure again, 32 KV heads, which do not
	 * divide the 40 heads typed: the job says so */
	tui_ff_set_text(&ff, FF_KVHEADS, "");
	assert_false(ff.valid);
	assert_non_null(ff.job_error);
	assert_non_null(strstr(ff.job_error, "KV heads must divide the attention heads"));
	tui_ff_set_text(&ff, FF_KVHEADS, "8");
	assert_true(ff.valid);
	assert_null(ff.job_error);
	assert_int_equal(ff.job.model.kv_heads, 8);
	/* bad figures: a reason each, the last valid job kept */
	expect_bad(&ff, FF_LAYERS, "abc", "layers must be a whole number from 1 to 100,000");
	expect_bad(&ff, FF_HIDDEN, "0", "hidden size must be a whole number");
	expect_bad(&ff, FF_VOCAB, "-5", "vocabulary must be a whole number");
	expect_bad(&ff, FF_ACTIVE, "lots", "active parameters: billions above 0");
	/* a closed fold with a bad field inside says so */
	tui_ff_cycle(&ff, FF_ARCH, +1);
	assert_non_null(ff.f[FF_ARCH].error);
	assert_false(ff.valid);
	/* a new model: its own figures, nothing typed over */
	tui_ff_set_text(&ff, FF_MODEL, "llama 3.1 8b");
	assert_string_equal(ff.preset->id, "llama-3.1-8b");
	assert_int_equal(ff.f[FF_ARCH].choice, 0);  /* a preset: folded */
	assert_null(ff.f[FF_ARCH].error);
	assert_true(ff.valid);
	assert_string_equal(ff.f[FF_KVHEADS].text, "8");
	assert_false(tui_ff_changed(&ff, FF_ARCH));
	/* MoE: the active parameters typed */
	tui_ff_set_text(&ff, FF_MODEL, "mixtral-8x7b");
	assert_string_equal(ff.f[FF_ACTIVE].text, "12.9");
	tui_ff_set_text(&ff, FF_ACTIVE, "14B");
	assert_true(fabs(ff.job.model.active_params_b - 14) < 1e-12);
	a = tui_ff_arch_text(&ff);
	assert_non_null(strstr(a, "architecture edited"));
	assert_non_null(strstr(a, "14 B active of 46.7 B"));
	free(a);
	/* diffusion: no architecture fields */
	tui_ff_set_text(&ff, FF_MODEL, "sdxl");
	assert_false(tui_ff_shown(&ff, FF_ARCH));
	assert_false(tui_ff_applies(&ff, FF_LAYERS));
	assert_true(tui_ff_shown(&ff, FF_ENCODERS));
	tui_ff_free(&ff);
}

static void test_more_fields(void **state)
{
	struct tui_ff ff;

	(void)state;
	tui_ff_init(&ff, cat, I18N_EN, false);
	tui_ff_set_text(&ff, FF_MODEL, "llama-2-7b");
	/* the advanced fold: closed, opened on Space */
	assert_false(tui_ff_shown(&ff, FF_MARGIN));
	tui_ff_cycle(&ff, FF_MORE, +1);
	assert_true(tui_ff_shown(&ff, FF_MARGIN));
	assert_true(tui_ff_shown(&ff, FF_ACCT));
	assert_true(tui_ff_shown(&ff, FF_PURE));
	assert_false(tui_ff_shown(&ff, FF_INT4G));
	assert_string_equal(tui_ff_choice_text(&ff, FF_ACCT), "DeepSpeed");
	/* no sharding: no offload, no accounting (gpux fit refuses offload there) */
	tui_ff_cycle(&ff, FF_OFFLOAD, +1);
	assert_int_equal(ff.job.offload, FIT_OFFLOAD_OPTIMIZER);
	for (int i = 0; i < FIT_SHARD_COUNT && ff.f[FF_SHARD].choice != FIT_SHARD_NONE; i++)
		tui_ff_cycle(&ff, FF_SHARD, +1);
	assert_false(tui_ff_shown(&ff, FF_OFFLOAD));
	assert_false(tui_ff_shown(&ff, FF_ACCT));
	assert_true(ff.valid);
	assert_int_equal(ff.job.offload, FIT_OFFLOAD_NONE);
	/* toggles */
	tui_ff_cycle(&ff, FF_FLASH, +1);
	tui_ff_cycle(&ff, FF_PURE, +1);
	tui_ff_cycle(&ff, FF_CHUNKED, +1);
	assert_true(ff.job.flash_attention && ff.job.pure_bf16 && ff.job.chunked_loss);
	assert_string_equal(tui_ff_choice_text(&ff, FF_FLASH), "on");
	/* inference: the training switches do not apply; its own do */
	set_method(&ff, FIT_INFER_INT4);
	assert_false(ff.job.flash_attention || ff.job.pure_bf16 || ff.job.chunked_loss);
	assert_true(tui_ff_shown(&ff, FF_INT4G));
	assert_true(tui_ff_shown(&ff, FF_ALLREDUCE));
	assert_true(tui_ff_shown(&ff, FF_KVCACHE));
	tui_ff_cycle(&ff, FF_KVCACHE, +1);
	assert_string_equal(tui_ff_choice_text(&ff, FF_KVCACHE), "FP8");
	assert_true(ff.job.kv_bytes == 1);
	/* the bandwidth efficiency shows the method's format's default (fitted, fit_job_defaults) until typed */
	assert_string_equal(ff.f[FF_BWEFF].text, "55");
	set_method(&ff, FIT_INFER_INT8);
	assert_string_equal(ff.f[FF_BWEFF].text, "66");
	set_method(&ff, FIT_INFER_FP16);
	assert_string_equal(ff.f[FF_BWEFF].text, "73");
	tui_ff_set_text(&ff, FF_BWEFF, "65");
	assert_true(fabs(ff.job.bw_efficiency - 0.65) < 1e-12);
	set_method(&ff, FIT_INFER_INT4);
	assert_string_equal(ff.f[FF_BWEFF].text, "65"); /* typed: kept, for int4 now */
	assert_true(fabs(ff.job.bw_efficiency_4bit - 0.65) < 1e-12);
	assert_true(fabs(ff.job.bw_efficiency - 0.73) < 1e-12);
	/* bad values */
	expect_bad(&ff, FF_INT4G, "4", "int4 group size must be from 8 to 65,536");
	expect_bad(&ff, FF_INT4G, "lots", "int4 group size");
	tui_ff_set_text(&ff, FF_INT4G, "32");
	expect_bad(&ff, FF_ALLREDUCE, "-1", "all-reduce latency must be from 0 to 1,000,000");
	tui_ff_set_text(&ff, FF_ALLREDUCE, "7.5 \u00b5s");
	assert_true(ff.valid);
	assert_true(fabs(ff.job.allreduce_hop_us - 7.5) < 1e-12);
	tui_ff_free(&ff);
}

/* ---- 6. the answer equals fit/'s figures ------------------------------------------------ */

static const struct view_price prices[] = {
	{ "h200", 419, {0} }, { "h100-sxm", 288, {0} }, { "rtx-4090", 33, {0} }, { "a100-sxm", 179, {0} },
};

static char *answer_text(const struct tui_ff *ff, const struct view_row *r, int width, bool detailed)
{
	struct wcells *l;
	size_t n = tui_fit_answer_lines(ff, r, width, detailed, false, &l);
	struct buf b = {0};

	for (size_t i = 0; i < n; i++) {
		char *s = wcells_text(&l[i]);
		assert_true(l[i].width == width);  /* every line exactly the width */
		buf_puts(&b, s);
		buf_putc(&b, '\n');
		free(s);
		wcells_free(&l[i]);
	}
	free(l);
	return buf_take(&b);
}

static void contains(const char *text, const char *want)
{
	if (strstr(text, want) == NULL)
		fail_msg("\"%s\" not in:\n%s", want, text);
}

static const struct view_row *row_of(const struct view_table *t, const char *id)
{
	int i = view_find(t, id);
	assert_true(i >= 0);
	return view_shown_row(t, (size_t)i);
}

static void check_answer(const struct tui_ff *ff, const struct view_table *t, const char *gpu_id)
{
	const struct view_row *r = row_of(t, gpu_id);
	struct fit_gpu g;
	struct fit_result want;
	char *det = answer_text(ff, r, 56, true), *comp = answer_text(ff, r, 80, false), *s;
	view_fit_gpu(r->gpu, r->price_cents, &g);
	fit_evaluate(&ff->job, &g, &want);
	/* memory per GPU and each part, as gpux fit formats them */
	double m[] = { want.mem.total, want.mem.weights, want.mem.gradients, want.mem.optimizer,
		       want.mem.activations, want.mem.kv_cache, want.mem.margin };
	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
		s = view_fmt_gb(I18N_EN, m[i]);
		contains(det, s);
		if (i == 0 || m[i] > 0)
			contains(comp, s);
		free(s);
	}
	if (want.gpus_needed > 0) {
		s = xasprintf("GPUs needed   %d", want.gpus_needed);
		contains(det, s);
		free(s);
	}
	if (want.hourly_cents >= 0) {
		char *all = i18n_fmt_money(I18N_EN, want.hourly_cents, "USD");
		char *one = i18n_fmt_money(I18N_EN, r->price_cents, "USD");
		s = xasprintf("%s/h (%d \u00d7 %s)", all, want.gpus_run, one);
		contains(det, s);
		contains(comp, s);
		free(s);
		free(all);
		free(one);
	}
	if (fit_method_is_training(ff->job.method)) {
		s = view_fmt_run_time(I18N_EN, want.train_hours, false);
		contains(det, s);
		contains(comp, s);
		free(s);
		s = i18n_fmt_money(I18N_EN, want.run_cents, "USD");
		contains(det, s);
		contains(comp, s);
		free(s);
	}
	if (fit_method_is_inference(ff->job.method)) {
		s = view_fmt_tokens_s(I18N_EN, want.decode_tokens_s, false);
		char *tok = xasprintf("%s tok/s", s);
		contains(det, tok);
		contains(comp, tok);
		free(tok);
		free(s);
	}
	contains(det, want.fits == 1 ? "\u2713" : "\u2717");
	free(det);
	free(comp);
}

static void test_answer(void **state)
{
	struct view_prices p = { prices, sizeof prices / sizeof prices[0], false };
	const struct catalog_workload *w = catalog_workload(cat, "finetune");
	struct tui_ff ff;
	struct view_table *t;
	char *s;

	(void)state;
	tui_ff_init(&ff, cat, I18N_EN, false);
	/* no job yet: a hint, no figures */
	t = view_new(cat, w, &p, NULL, I18N_EN, false);
	s = answer_text(&ff, NULL, 60, true);
	contains(s, "Type a model");
	free(s);

	/* 70 B with QLoRA: fits one H200, not one RTX 4090 */
	tui_ff_set_text(&ff, FF_MODEL, "70");
	set_method(&ff, FIT_QLORA);
	view_set_job(t, &ff.job);
	assert_int_equal(row_of(t, "h200")->job.fits, 1);
	assert_int_equal(row_of(t, "rtx-4090")->job.fits, 0);
	check_answer(&ff, t, "h200");
	check_answer(&ff, t, "rtx-4090");
	s = answer_text(&ff, row_of(t, "h200"), 56, true);
	contains(s, "GPUs needed   1");
	contains(s, "$4.19/h (1 \u00d7 $4.19)");
	contains(s, "b: buy 1 \u00d7 H200");
	free(s);

	/* full training on 8 GPUs with ZeRO-3 */
	set_method(&ff, FIT_FULL);
	tui_ff_set_text(&ff, FF_GPUS, "8");
	view_set_job(t, &ff.job);
	check_answer(&ff, t, "h200");
	check_answer(&ff, t, "h100-sxm");
	check_answer(&ff, t, "rtx-4090");

	/* inference, batch 4 */
	set_method(&ff, FIT_INFER_INT4);
	tui_ff_set_text(&ff, FF_BATCH, "4");
	view_set_job(t, &ff.job);
	check_answer(&ff, t, "h200");
	check_answer(&ff, t, "a100-sxm");

	/* greyed while a field is bad: the same figures, dimmed, and a note */
	tui_ff_set_text(&ff, FF_GPUS, "x");
	assert_false(ff.valid);
	check_answer(&ff, t, "h200");
	s = answer_text(&ff, row_of(t, "h200"), 56, true);
	contains(s, "last valid answer");
	free(s);
	{
		struct wcells *l;
		size_t n = tui_fit_answer_lines(&ff, row_of(t, "h200"), 56, true, false, &l);
		for (size_t i = 1; i < n; i++)
			for (size_t k = 0; k < l[i].len; k++)
				if (l[i].cell[k].ch[0] != ' ' && l[i].cell[k].role != WR_DIM)
					fail_msg("line %zu is not greyed", i);
		for (size_t i = 0; i < n; i++)
			wcells_free(&l[i]);
		free(l);
	}
	/* no row under the cursor */
	s = answer_text(&ff, NULL, 56, true);
	contains(s, "No GPU under the cursor");
	free(s);
	/* ASCII: no byte above 127 */
	tui_ff_set_text(&ff, FF_GPUS, "1");
	{
		struct wcells *l;
		size_t n = tui_fit_answer_lines(&ff, row_of(t, "h200"), 56, true, true, &l);
		for (size_t i = 0; i < n; i++) {
			char *txt = wcells_text(&l[i]);
			for (const char *q = txt; *q; q++)
				if ((unsigned char)*q > 127)
					fail_msg("not ASCII: %s", txt);
			free(txt);
			wcells_free(&l[i]);
		}
		free(l);
	}
	view_free(&t);
	tui_ff_free(&ff);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_search_never_switches_the_method),
		cmocka_unit_test(test_bounds_written_in_the_language),
		cmocka_unit_test(test_presets),
		cmocka_unit_test(test_same_job_as_cli),
		cmocka_unit_test(test_same_answer_as_cli),
		cmocka_unit_test(test_config_and_hub),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_choices),
		cmocka_unit_test(test_arch_fields),
		cmocka_unit_test(test_more_fields),
		cmocka_unit_test(test_answer),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
