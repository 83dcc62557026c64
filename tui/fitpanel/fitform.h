/*
 * Internal to tui/ (the fit panel): the calculator's inputs as a pure model,
 * no curses. Each input is a field with the text the user typed (or a
 * choice); tui_ff_set_text() / tui_ff_cycle() re-read every field into a
 * struct fit_job exactly as `gpux fit` builds one from its flags (the same
 * fit/ and view/ calls, in the same order), so the panel and the command
 * answer the same numbers for the same inputs.
 *
 * A field that does not parse (letters, negative, zero, absurdly large,
 * empty) gets a short translated reason and the LAST VALID job is kept
 * (`valid` false): the panel shows it greyed until the field is fixed.
 *
 * The model field takes a size as people type it ("70", "70B", "7,5" where
 * the language writes a decimal comma, "1.3T") or a part of a preset's name:
 * every word typed must occur in the preset's name or id ("llama 70" →
 * Llama 3.1 70B). The first match of the kind the method answers for (or
 * the one picked) is the live model: a search never switches the method
 * ("f" matching FLUX in a training tab is not live; a note says Enter would
 * take it with Diffusion). A preset taken whole of the other kind brings its
 * kind's method, as `gpux fit` does, says so under the field, and the
 * user's method comes back once the text names another model.
 *
 * Strings: labels and hints are English msgids (translate with _()); error
 * texts are translated already; the form owns every string in it.
 */
#ifndef GPUX_TUI_FITFORM_H
#define GPUX_TUI_FITFORM_H

#include <stdbool.h>
#include <stddef.h>

#include "data/catalog.h"
#include "fit/fit.h"
#include "i18n/i18n.h"
#include "view/view.h"
#include "tui/frame/lines.h"
#include "widgets/widgets.h"

enum tui_ff_id {
	FF_MODEL,
	FF_METHOD,
	FF_SEQ,
	FF_BATCH,
	FF_CKPT,
	FF_GPUS,
	FF_SHARD,
	FF_OPT,
	FF_TOKENS,
	FF_MFU,
	FF_BWEFF,
	FF_RANK,
	FF_RES,
	FF_FRAMES,
	FF_OVERHEAD,
	FF_MARGIN,
	FF_FLASH,      /* toggle: flash attention */
	FF_OFFLOAD,    /* choice: ZeRO-Offload none / optimizer / all */
	FF_KVCACHE,    /* choice: 16-bit / FP8 KV cache */
	FF_ENCODERS,   /* choice: text encoders on the GPU / offloaded */
	FF_ARCH,       /* fold: the architecture fields below */
	FF_LAYERS,
	FF_HIDDEN,
	FF_HEADS,
	FF_KVHEADS,
	FF_HEADDIM,
	FF_VOCAB,
	FF_FFN,
	FF_ACTIVE,     /* MoE: parameters per token, billions */
	FF_MORE,       /* fold: the rarer assumptions below */
	FF_ACCT,       /* choice: DeepSpeed's / the ZeRO paper's accounting */
	FF_PURE,       /* toggle: pure bf16 training */
	FF_CHUNKED,    /* toggle: chunked loss */
	FF_INT4G,      /* int4 group size */
	FF_ALLREDUCE,  /* all-reduce step, microseconds */
	FF_ACTOFF,     /* toggle: checkpointed activations in CPU memory */
	FF_EMBED32,    /* toggle: LoRA/QLoRA embeddings, head and norms in fp32 */
	FF_PAGED,      /* toggle: paged optimizer states */
	FF_COUNT
};

/* FFK_FOLD: a row that shows or hides the fields of its section (choice 1:
 * open). Folded fields still count: the fold only hides them. */
enum tui_ff_kind { FFK_TEXT, FFK_CHOICE, FFK_TOGGLE, FFK_FOLD };

/* Where a field sits: the job's fields, the architecture fold (FF_ARCH and
 * the fields after it), the advanced fold (FF_MORE and after). */
enum tui_ff_section { FFS_MAIN, FFS_ARCH, FFS_MORE };

struct tui_ff_field {
	char *text;             /* FFK_TEXT: what is typed (never NULL) */
	int choice;             /* FFK_CHOICE: the option; FFK_TOGGLE: 0 off, 1 on;
	                           FFK_FOLD: 0 closed, 1 open */
	char *error;            /* translated reason, NULL when the field is valid */
	bool text_changed;      /* the form replaced the text (a preset's resolution,
	                           an architecture figure): the panel copies it into
	                           its editor, then clears this */
	bool touched;           /* typed by the user since the model was set; an
	                           architecture field counts (as gpux fit's option
	                           would) only when touched and not empty */
};

struct tui_ff {
	const struct catalog *cat;
	enum i18n_lang lang;
	bool ascii;
	/* the keys the answer names, as bound (malloc'ed; NULL: the defaults
	 * b, J, Esc): buy, the job order, clearing the filter */
	char *key_buy, *key_job, *key_clear;
	struct tui_ff_field f[FF_COUNT];
	bool model_touched;     /* the model was typed in (an untouched empty model is no error) */

	/* the model field read as a size or a preset search */
	bool model_is_size;
	double size_b;
	const struct catalog_model **matches; /* presets matching the search, best first */
	size_t n_matches;
	size_t match_sel;       /* the live one among them */
	const struct catalog_model *preset;   /* the live preset, NULL for a size */
	struct catalog_model config;          /* a config.json typed as the model (its
	                                         path ends in .json), read by data/ */
	char *config_path;                    /* the path config was read from, or NULL */
	enum fit_method llm_method;           /* the last language method: an LLM preset
	                                         taken in Diffusion brings it */
	/* a preset taken whole switched the method to its kind's: the method
	 * the user had (FIT_METHOD_COUNT: none switched), given back once the
	 * text no longer names auto_preset */
	enum fit_method method_auto;
	const struct catalog_model *auto_preset;
	char *model_note;       /* translated, under the model field, or NULL: the
	                           method a preset taken brought, or what Enter
	                           would do with a match of the other kind */

	/* the model as the fields make it now (valid even while another field
	 * is bad): before and after the architecture fields */
	struct fit_model base, arch;
	bool have_arch;

	/* the answer */
	struct fit_job job;     /* the last valid job */
	const struct catalog_model *job_preset; /* its preset, NULL for a size */
	bool have_job;          /* a valid job exists */
	bool valid;             /* the fields as they are now make `job` */
	char *job_error;        /* fit_job_check refused the whole job (translated) */
	unsigned gen;           /* bumped whenever `job` changes */
};

/* Fill the form with fit/'s defaults (fit_job_defaults), the model empty.
 * lang: for the decimal separator and messages; ascii for "×". */
void tui_ff_init(struct tui_ff *ff, const struct catalog *c, enum i18n_lang lang, bool ascii);
void tui_ff_free(struct tui_ff *ff);

enum tui_ff_kind tui_ff_kind(enum tui_ff_id id);
/* The field's label (English msgid) for the current method: the batch is
 * "Micro-batch" for training, "Sequences" for inference, "Images" for
 * diffusion; the sequence length "Context" for inference. */
const char *tui_ff_label(const struct tui_ff *ff, enum tui_ff_id id);
/* A unit shown after the value ("B" translated, "%", "GB") or NULL (static). */
const char *tui_ff_unit(enum tui_ff_id id);
/* One line of help for the focused field (English msgid). */
const char *tui_ff_help(enum tui_ff_id id);
/* The default as text, as the field would show it (malloc'ed). */
char *tui_ff_default_text(const struct tui_ff *ff, enum tui_ff_id id);
/* True when the field matters for the current method (and model): it is
 * read into the job; a field that does not apply keeps fit/'s default. */
bool tui_ff_applies(const struct tui_ff *ff, enum tui_ff_id id);
/* True when the field is shown in the panel: it applies and its fold (if
 * any) is open. */
bool tui_ff_shown(const struct tui_ff *ff, enum tui_ff_id id);
enum tui_ff_section tui_ff_section(enum tui_ff_id id);
/* True when the field's value is not its default (an architecture field:
 * typed over the model's); a fold: a field inside it is changed. */
bool tui_ff_changed(const struct tui_ff *ff, enum tui_ff_id id);
/* The shown fields in panel order; returns how many (<= FF_COUNT). */
size_t tui_ff_visible(const struct tui_ff *ff, enum tui_ff_id *out);
/* The text of a choice or toggle field as shown, translated (static or
 * catalogue-owned). */
const char *tui_ff_choice_text(const struct tui_ff *ff, enum tui_ff_id id);
/* The method the form has selected. */
enum fit_method tui_ff_method(const struct tui_ff *ff);

/* Set a text field and re-read the form. Returns true when the job changed. */
bool tui_ff_set_text(struct tui_ff *ff, enum tui_ff_id id, const char *text);
/* Step a choice (dir ±1), flip a toggle or open/close a fold; re-read the
 * form. Returns true when the job changed. A new method gives an untouched
 * bandwidth-efficiency field its format's default. */
bool tui_ff_cycle(struct tui_ff *ff, enum tui_ff_id id, int dir);
/* The language changed. Numbers typed with the old decimal
 * separator take the new one (text_changed set), then the form is read
 * again (its messages in the new language). */
void tui_ff_set_lang(struct tui_ff *ff, enum i18n_lang lang);
/* Make match i the live model (a preset picked from the list); the model
 * text becomes the preset's name. Returns true when the job changed. */
bool tui_ff_pick(struct tui_ff *ff, size_t i);
/* Move the live match by dir among the matches (no text change). */
bool tui_ff_match_step(struct tui_ff *ff, int dir);
/* True while the model text is a search with matches to choose from (not a
 * size, not exactly one preset's name or id). */
bool tui_ff_searching(const struct tui_ff *ff);

/* The model's architecture in one line, translated: "Llama 3.1 70B · 80
 * layers · hidden 8192 · 64 heads (8 KV) · vocab 128256", "guessed from the
 * size: …", for MoE "… · 37 B active of 671 B", for diffusion the pipeline
 * and resolution. NULL when there is no model. malloc'ed. */
char *tui_ff_arch_text(const struct tui_ff *ff);

/* An architecture field's figure in model m as text (ff->base: the
 * model's own, the field's default; ff->arch: what the job uses); "" when
 * the model has none (an FFN derived from the size). malloc'ed. */
char *tui_ff_arch_figure(const struct tui_ff *ff, const struct fit_model *m, enum tui_ff_id id);
/* A number as the fields show it (no grouping, the language's decimal
 * separator, at most 3 decimals), "W×H"; malloc'ed (tui/fitpanel/fitmeta.c). */
char *tui_ff_plain_number(enum i18n_lang lang, double v);
char *tui_ff_res_text(const struct tui_ff *ff, int w, int h);

/* Parsers of the panel's fields (exposed for tests). 0, or -1 and *cause,
 * a copy of refusal (the translated message, malloc'ed). */
int tui_ff_parse_int(const char *s, long min, long max, const char *refusal, long *out,
		     char **cause);
/* A percentage "40", "40%", "12,5 %" → 0.40, 0.125 (lo < v <= hi percent,
 * lo_incl: v may equal lo). */
int tui_ff_parse_percent(enum i18n_lang lang, const char *s, double lo, bool lo_incl, double hi,
			 const char *refusal, double *out, char **cause);

/* ---- the answer (tui/fitpanel/fitanswer.c) ---- */
/* The panel's answer for one GPU row of a view carrying ff's job, as drawn:
 * lines of `width` columns (malloc'ed array of n cells, caller frees each
 * with wcells_free and the array). detailed: one figure a line (breakdown,
 * GPUs needed, cost per hour, run time and cost or decode speed, what b
 * orders); else compact (three or four lines). r NULL: no row selected.
 * Greyed (WR_DIM) while the form is not valid. Pure. */
size_t tui_fit_answer_lines(const struct tui_ff *ff, const struct view_row *r, int width,
			    bool detailed, bool ascii, struct wcells **out);

#endif
