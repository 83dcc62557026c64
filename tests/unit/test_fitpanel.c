/*
 * tests/unit/test_fitpanel.c — the fit panel's form (tui/fitform.c) and its
 * answer lines (tui_fit_answer_lines in tui/fitpanel.c), without a terminal.
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
 * 4. Bad input in every kind of field (letters, negative, zero, absurdly
 *    large, empty): the field gets fit/'s reason, the form is not valid and
 *    the last valid job stays (same generation).
 * 5. Choices and the toggle cycle; fields shown per method.
 * 6. The answer the panel draws for a GPU equals fit/'s figures for it
 *    (memory breakdown, GPUs needed, cost per hour, run time and cost,
 *    decode tokens/s) as view/ formats them for `gpux fit`.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "data/catalog.h"
#include "fit/fit.h"
#include "i18n/i18n.h"
#include "tui/fitform.h"
#include "util/util.h"
#include "view/view.h"
#include "widgets/widgets.h"

static struct catalog *cat;

static int setup(void **state)
{
	char *cause = NULL;

	(void)state;
	i18n_init(I18N_EN);
	if (catalog_load(NULL, &cat, &cause) != 0) {
		print_error("catalog_load: %s\n", cause != NULL ? cause : "?");
		free(cause);
		return -1;
	}
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

/* ---- 3. the same job as gpux fit ---------------------------------------------------- */

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
	/* gpux fit llama-3.1-70b --method infer-int4 --gpus 2 */
	tui_ff_set_text(&ff, FF_MODEL, "llama 3.1 70");
	set_method(&ff, FIT_INFER_INT4);
	tui_ff_set_text(&ff, FF_GPUS, "2");
	cli_job(&want, 0, "llama-3.1-70b", FIT_INFER_INT4, 2, FIT_SHARD_ZERO1);
	assert_memory_equal(&ff.job, &want, sizeof want);
	/* gpux fit flux.1-dev */
	tui_ff_set_text(&ff, FF_MODEL, "flux");
	tui_ff_set_text(&ff, FF_GPUS, "1");
	cli_job(&want, 0, "flux.1-dev", FIT_DIFFUSION, 1, FIT_SHARD_ZERO1);
	assert_memory_equal(&ff.job, &want, sizeof want);
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
		expect_bad(&ff, FF_GPUS, nonsense[i], "GPUs must be a whole number from 1 to 1048576");
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
	expect_bad(&ff, FF_OVERHEAD, "2000", "overhead must be from 0 to 1000 GB");
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
	assert_int_equal(n, 12);
	assert_int_equal(vis[0], FF_MODEL);
	assert_int_equal(vis[1], FF_METHOD);
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

/* ---- 6. the answer equals fit/'s figures ------------------------------------------------ */

static const struct view_price prices[] = {
	{ "h200", 419 }, { "h100-sxm", 288 }, { "rtx-4090", 33 }, { "a100-sxm", 179 },
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
		cmocka_unit_test(test_presets),
		cmocka_unit_test(test_same_job_as_cli),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_choices),
		cmocka_unit_test(test_answer),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
