/*
 * The job order (J or F8 with a fit job; tui_open(TUI_JOB_ORDER)): "run
 * this job at the lowest total across every GPU". It covers the tables:
 *
 *   head     the job in words (the model, the method, the GPUs it runs on)
 *   fields   Hours (empty: a training run's own time) and Regions (empty:
 *            any), GNU readline fields
 *   table    every GPU the exchange compared, the cheapest first: whether
 *            its book runs the job now, the machines, hours, the total with
 *            VAT, and why not ("needs 2 nodes of 8 (NVLink); the book has 1")
 *   summary  the choice in words (view_job_summary), the machines it would
 *            take, the fit model's version when the exchange's differs
 *
 * The exchange previews the job (POST /v1/orders/preview with the job, the
 * budget at its ceiling so every GPU is priced) 300 ms after a change, when
 * the fit job changes, and every few seconds. Enter asks for confirmation
 * of the previewed choice and places it as one job order whose budget is
 * that total: if the book moved meanwhile the exchange refuses it
 * (OVER_BUDGET) rather than charge more than was confirmed. One client
 * order id per intent, re-sent by api/ until answered; the outcome is a
 * dialog (o: orders, R: rentals).
 */
#include "tui/trade/trade.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit/fit.h"
#include "i18n/i18n.h"
#include "util/util.h"

enum {
	JOB_DEBOUNCE_MS = 300,
	JOB_PREVIEW_MS = 5000,
	JOB_FIELDS = 2,              /* hours, regions */
	JOB_MAX_REGIONS = 64,
	JOB_HEAD = 4,                /* title, job, fields, blank */
};
#define JOB_BUDGET_CEILING 100000000000LL /* docs/API.md: max_total_minor's maximum */

struct job_order {
	struct tui_screen base;
	struct wpanel *panel;
	struct wfield *field[JOB_FIELDS];
	int focus;                   /* the field with the keyboard */
	struct fit_job job;          /* the job previewed (t->job's, when taken) */
	uint64_t job_gen;            /* t->job.gen taken */
	char *label;                 /* the preset's id, or NULL */
	char **regions;
	size_t n_regions;
	int hours;                   /* 0: the run's own (training) */
	char *bad;                   /* why the fields do not make a request, or NULL */
	struct api_job *pv;          /* the last preview */
	char *pv_error;
	uint64_t pv_req, inputs_gen, pv_gen;
	int64_t pv_due;
	uint64_t place_req;
	char *coid;
	char *note;
	enum wrole note_role;
	bool dirty;
};

static struct job_order *of(struct tui_screen *s)
{
	return (struct job_order *)s;
}

static void set_note(struct job_order *j, const char *text, enum wrole role)
{
	free(j->note);
	j->note = text != NULL ? xstrdup(text) : NULL;
	j->note_role = role;
	j->dirty = true;
}

/* ---- the inputs ------------------------------------------------------------------------------ */

static void free_regions(struct job_order *j)
{
	for (size_t i = 0; i < j->n_regions; i++)
		free(j->regions[i]);
	free(j->regions);
	j->regions = NULL;
	j->n_regions = 0;
}

/* The fields read: hours and regions, or why not (j->bad). */
static void read_fields(struct job_order *j)
{
	const char *h = wfield_text(j->field[0]), *r = wfield_text(j->field[1]);
	char *copy = xstrdup(r), *save = NULL, *w, *end;
	long v;

	free(j->bad);
	j->bad = NULL;
	free_regions(j);
	j->hours = 0;
	while (*h == ' ')
		h++;
	if (*h == '\0') {
		if (!fit_method_is_training(j->job.method))
			j->bad = xstrdup(_("Hours: how long to rent the machines, 1 to 720 (a training "
					   "run takes its own time when empty)."));
	} else {
		v = strtol(h, &end, 10);
		while (*end == ' ')
			end++;
		if (*end != '\0' || v < 1 || v > 720)
			j->bad = xstrdup(_("Hours: a whole number from 1 to 720."));
		else
			j->hours = (int)v;
	}
	j->regions = xcalloc(JOB_MAX_REGIONS + 1, sizeof *j->regions);
	for (w = strtok_r(copy, ", ", &save); w != NULL && j->n_regions < JOB_MAX_REGIONS;
	     w = strtok_r(NULL, ", ", &save))
		j->regions[j->n_regions++] = xstrdup(w);
	free(copy);
	j->inputs_gen++;
	j->pv_due = util_now_ms() + JOB_DEBOUNCE_MS;
	j->dirty = true;
}

/* The fit job as the panel publishes it. */
static void take_job(struct job_order *j)
{
	struct tui *t = j->base.t;

	j->job_gen = t->job.gen;
	if (t->job.have)
		j->job = t->job.job;
	free(j->label);
	j->label = NULL;
	read_fields(j);
}

/* The preview's choice in words. Its budget is the ceiling the preview is
 * asked with (so every GPU is priced), not one the user chose: not said. */
static char *preview_summary(const struct job_order *j)
{
	struct api_job shown = *j->pv;
	struct tui *t = j->base.t;

	if (shown.max_total_minor == JOB_BUDGET_CEILING)
		shown.max_total_minor = -1;
	return view_job_summary(t->o->lang, t->cat, &shown);
}

static void fill_req(const struct job_order *j, struct api_job_req *r, int64_t budget)
{
	*r = (struct api_job_req){
		.job = &j->job, .label = j->label, .hours = j->hours, .max_total_minor = budget,
		.regions = (const char *const *)j->regions, .n_regions = j->n_regions,
	};
}

/* ---- requests ------------------------------------------------------------------------------- */

static void on_preview(void *ud, struct api_job *r, const struct api_error *e)
{
	struct job_order *j = ud;

	j->pv_req = 0;
	j->dirty = true;
	free(j->pv_error);
	j->pv_error = NULL;
	if (e != NULL) {
		if (e->code != NULL && strcmp(e->code, "UNKNOWN_FIELD") == 0 && e->field != NULL &&
		    strcmp(e->field, "job") == 0)
			/* TRANSLATORS: %s is the key that buys (b unless rebound) */
			j->pv_error = tui_key_text(j->base.t, _("This exchange does not take job "
								"orders: %s on a row buys what the "
								"job needs on that GPU."), "buy", NULL);
		else
			j->pv_error = tui_error_words(j->base.t, e);
		j->pv_due = util_now_ms() + JOB_PREVIEW_MS;
		return;
	}
	api_job_free(&j->pv);
	j->pv = r;
	j->pv_due = util_now_ms() + JOB_PREVIEW_MS;
}

static void start_preview(struct job_order *j)
{
	struct api_job_req r;

	fill_req(j, &r, JOB_BUDGET_CEILING);
	j->pv_gen = j->inputs_gen;
	j->pv_req = api_job_preview_start(j->base.t->api, &r, on_preview, j);
}

static void result_done(void *ud, int64_t arg, bool yes, wkey key)
{
	struct job_order *j = ud;

	(void)arg;
	(void)yes;
	if (key == 'o')
		tui_open(j->base.t, TUI_ORDERS, NULL);
	else if (key == 'R')
		tui_open(j->base.t, TUI_RENTALS, NULL);
}

static void on_place(void *ud, struct api_job *r, const struct api_error *e)
{
	struct job_order *j = ud;
	struct tui *t = j->base.t;
	char *text;
	const char *title;

	j->place_req = 0;
	if (e != NULL) {
		text = view_api_error_words(t->o->lang, e, NULL);
		title = e->kind == API_ERR_UNKNOWN_OUTCOME ? _("Outcome unknown") : _("Not placed");
		set_note(j, text, WR_BAD);
	} else {
		text = view_order_result(t->o->lang, tui_gpu_name(t, r->order->gpu), r->order);
		title = r->order->filled_gpus > 0 ? _("Job order placed") : _("Order placed: nothing filled");
		set_note(j, text, r->order->filled_gpus > 0 ? WR_GOOD : WR_BAD);
		api_job_free(&r);
	}
	tui_dialog_open(t, title, text, _("o: your orders · R: your rentals · any other key: close"),
			false, result_done, j, 0);
	free(text);
	tui_account_moved(t);
	j->pv_due = 0;
}

static void place(struct job_order *j)
{
	struct api_job_req r;

	if (j->place_req != 0 || j->pv == NULL || j->pv->gpu == NULL)
		return;
	free(j->coid);
	j->coid = api_client_order_id_new(); /* one id for this intent */
	fill_req(j, &r, j->pv->total_minor);
	r.client_order_id = j->coid;
	j->place_req = api_job_place_start(j->base.t->api, &r, on_place, j);
	set_note(j, _("Sending the job order to the exchange…"), WR_DIM);
}

static void confirm_done(void *ud, int64_t arg, bool yes, wkey key)
{
	struct job_order *j = ud;

	(void)arg;
	(void)key;
	if (yes)
		place(j);
	else
		set_note(j, _("Not placed: nothing was sent."), WR_DIM);
}

/* Enter: the confirmation of the previewed choice, or why there is none. */
static void review(struct job_order *j)
{
	struct tui *t = j->base.t;
	char *sum, *tot, *text;

	if (j->place_req != 0) {
		set_note(j, _("The job order is on its way to the exchange: it is placed once."), WR_DIM);
		return;
	}
	if (j->bad != NULL) {
		set_note(j, j->bad, WR_BAD);
		return;
	}
	if (j->pv == NULL || j->pv_gen != j->inputs_gen || j->pv_req != 0) {
		set_note(j, _("Asking the exchange for the price…"), WR_DIM);
		j->pv_due = 0;
		return;
	}
	if (j->pv->reject_code != NULL || j->pv->gpu == NULL) {
		char *w = j->pv->reject_code != NULL
				  ? view_refusal_text(t->o->lang, j->pv->reject_code, j->pv->reject_message, NULL)
				  : xstrdup(_("No GPU's book can run this job now."));
		set_note(j, w, WR_BAD);
		free(w);
		return;
	}
	sum = preview_summary(j);
	tot = i18n_fmt_money(t->o->lang, j->pv->total_minor, j->pv->currency);
	text = xasprintf(_("%s\nIt is placed as one order that fills whole or not at all, for at "
			   "most %s: if the book moved, the exchange refuses it rather than charge "
			   "more."), sum, tot);
	tui_dialog_open(t, _("Place this job order?"), text,
			_("y or Enter: place it · any other key: do not"), false, confirm_done, j, 0);
	free(sum);
	free(tot);
	free(text);
}

/* ---- drawing ---------------------------------------------------------------------------------- */

/* The alternatives, the chosen first, then the runnable by total, then the rest. */
static int alt_rank(const struct api_job *pv, const struct api_job_alt *a)
{
	if (pv->gpu != NULL && strcmp(pv->gpu, a->gpu) == 0)
		return 0;
	return a->runnable ? 1 : 2;
}

static int cmp_alt(const struct api_job *pv, const struct api_job_alt *a, const struct api_job_alt *b)
{
	int ra = alt_rank(pv, a), rb = alt_rank(pv, b);

	if (ra != rb)
		return ra - rb;
	if (ra == 1 && a->total_minor != b->total_minor)
		return a->total_minor < b->total_minor ? -1 : 1;
	return 0;
}

static void col(struct wcells *c, const char *s, int w, bool right, enum wrole role, unsigned at)
{
	struct wcells x;

	wcells_init(&x, c->ascii);
	wcells_add(&x, s, role, at);
	wcells_fit(&x, w, right ? WALIGN_RIGHT : WALIGN_LEFT, WR_NORMAL);
	wcells_cat(c, &x);
	wcells_free(&x);
	wcells_pad(c, 1, WR_NORMAL);
}

/* Column widths for the panel's width: GPU, runs, machines, hours, total; the reason takes the rest. */
struct widths { int gpu, runs, mach, hours, total; };

static struct widths widths_for(int w)
{
	struct widths x = { 16, 4, 22, 5, 13 };

	if (w < 100) {
		x.mach = 20;
		x.gpu = 14;
	}
	return x;
}

static void alt_line(struct job_order *j, const struct api_job_alt *a, const struct widths *cw)
{
	struct tui *t = j->base.t;
	struct wcells *c = wpanel_add(j->panel);
	bool chosen = j->pv->gpu != NULL && strcmp(j->pv->gpu, a->gpu) == 0;
	enum wrole role = chosen ? WR_GOOD : a->runnable ? WR_NORMAL : WR_DIM;
	char *m = view_fmt_job_alt_machines(t->o->lang, a);
	char *h = a->hours > 0 ? xasprintf("%lld", (long long)a->hours) : xstrdup("\u2014");
	char *tot = a->total_minor >= 0 && j->pv->currency != NULL
			    ? i18n_fmt_money(t->o->lang, a->total_minor, j->pv->currency)
			    : xstrdup(t->ascii ? "-" : "\u2014");
	const char *why = a->reason != NULL ? a->reason : chosen ? _("the cheapest") : "";

	wcells_add(c, chosen ? wsym(WSYM_ARROW_RIGHT, t->ascii) : " ", WR_GOOD, WAT_BOLD);
	wcells_pad(c, 1, WR_NORMAL);
	col(c, tui_gpu_name(t, a->gpu), cw->gpu, false, role, chosen ? WAT_BOLD : 0);
	col(c, a->runnable ? _("yes") : _("no"), cw->runs, false, role, 0);
	col(c, m, cw->mach, false, role, 0);
	col(c, h, cw->hours, true, role, 0);
	col(c, tot, cw->total, true, role, chosen ? WAT_BOLD : 0);
	wcells_add(c, why, a->runnable ? WR_DIM : WR_BAD, 0);
	free(m);
	free(h);
	free(tot);
}

static void head_lines(struct job_order *j)
{
	struct tui *t = j->base.t;
	struct wcells *c = wpanel_add(j->panel);
	double b = j->job.model.params_b;
	char *n = i18n_fmt_number(t->o->lang, b, b < 10 ? 1 : 0), *x;

	wcells_add(c, _("Job order: run this fit job at the lowest total across every GPU"),
		   WR_HEADER, WAT_BOLD);
	/* TRANSLATORS: the job order's job: "405.9 B parameters · Inference FP8 · fit model 3" */
	x = xasprintf(_("%s B parameters \u00b7 %s \u00b7 fit model %d \u00b7 Esc: back"), n,
		      _(fit_method_label(j->job.method)), FIT_MODEL_VERSION);
	wcells_add(wpanel_add(j->panel), x, WR_DIM, 0);
	free(x);
	free(n);
	wpanel_add(j->panel); /* the fields lie over this row */
	wpanel_add(j->panel);
}

static void table_lines(struct job_order *j, int rows)
{
	const struct widths cw = widths_for(j->panel->base.w);
	struct wcells *c;
	size_t n = j->pv->n_alternatives, shown = 0;
	size_t *order = xcalloc(n + 1, sizeof *order);

	c = wpanel_add(j->panel);
	wcells_pad(c, 2, WR_NORMAL);
	col(c, _("GPU"), cw.gpu, false, WR_HEADER, 0);
	col(c, _("Runs"), cw.runs, false, WR_HEADER, 0);
	col(c, _("Machines"), cw.mach, false, WR_HEADER, 0);
	col(c, _("Hours"), cw.hours, true, WR_HEADER, 0);
	col(c, _("Total"), cw.total, true, WR_HEADER, 0);
	wcells_add(c, _("Why"), WR_HEADER, 0);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = 1; i < n; i++) /* a stable insertion sort: 15 GPUs */
		for (size_t k = i; k > 0 && cmp_alt(j->pv, &j->pv->alternatives[order[k]],
						    &j->pv->alternatives[order[k - 1]]) < 0; k--) {
			size_t tmp = order[k];
			order[k] = order[k - 1];
			order[k - 1] = tmp;
		}
	for (size_t i = 0; i < n && (int)shown + 1 < rows; i++, shown++)
		alt_line(j, &j->pv->alternatives[order[i]], &cw);
	if (shown < n) {
		char *x = xasprintf(P_("  + %zu more GPU (a taller terminal shows it)",
				       "  + %zu more GPUs (a taller terminal shows them)",
				       (unsigned long)(n - shown)), n - shown);
		wcells_add(wpanel_add(j->panel), x, WR_DIM, 0);
		free(x);
	}
	free(order);
}

static void build(struct job_order *j)
{
	struct tui *t = j->base.t;
	int h = j->panel->base.h;
	char *x;

	j->dirty = false;
	wpanel_begin(j->panel);
	head_lines(j);
	if (!t->job.have && j->pv == NULL) {
		/* TRANSLATORS: %s is the key that opens the fit calculator (f unless rebound) */
		x = tui_key_text(t, _("Set a fit job first: %s opens the fit calculator."), "fit", NULL);
		wpanel_text(j->panel, x, WR_DIM, 1);
		free(x);
	} else if (j->bad != NULL) {
		wpanel_text(j->panel, j->bad, WR_BAD, 1);
	} else if (j->pv_error != NULL && (j->pv == NULL || j->pv_gen != j->inputs_gen)) {
		wpanel_text(j->panel, j->pv_error, WR_BAD, 1);
	} else if (j->pv == NULL) {
		wpanel_text(j->panel, _("Asking the exchange to price the job on every GPU…"), WR_DIM, 1);
	} else {
		int rows = h - JOB_HEAD - 5 - (j->note != NULL ? 2 : 0);
		table_lines(j, rows < 3 ? 3 : rows);
		wpanel_add(j->panel);
		x = preview_summary(j);
		wpanel_text(j->panel, x, j->pv->gpu != NULL ? WR_NORMAL : WR_BAD, 1);
		free(x);
		if (j->pv->preview != NULL) {
			x = view_fmt_fill_lots(t->o->lang, j->pv->preview);
			if (x[0] != '\0')
				wpanel_text(j->panel, x, WR_DIM, 1);
			free(x);
		}
		if (j->pv->reject_code != NULL) {
			char *r = view_refusal_text(t->o->lang, j->pv->reject_code, j->pv->reject_message, NULL);
			wpanel_text(j->panel, r, WR_BAD, 1);
			free(r);
		} else if (j->pv->gpu != NULL && j->note == NULL) {
			wpanel_text(j->panel, _("Enter: place it (asks first) · Tab: the next field"),
				    WR_DIM, 1);
		}
	}
	if (j->note != NULL)
		wpanel_text(j->panel, j->note, j->note_role, 1);
	wpanel_commit(j->panel);
}

/* ---- the screen ------------------------------------------------------------------------------- */

static void scr_layout(struct tui_screen *s, struct tui_area *body)
{
	struct job_order *j = of(s);
	int w = body->w, half = w / 2;

	if (body->h < JOB_HEAD + 2) {
		s->shown = false;
		return;
	}
	wwidget_place(&j->panel->base, body->y, body->x, body->h, w);
	wwidget_place(&j->field[0]->base, body->y + 2, body->x + 1, 1, half - 2 > 8 ? half - 2 : 8);
	wwidget_place(&j->field[1]->base, body->y + 2, body->x + half, 1, w - half - 1);
	body->h = 0;
	j->dirty = true;
	build(j);
}

static void scr_recalc(struct tui_screen *s, int64_t now)
{
	struct job_order *j = of(s);

	(void)now;
	if (j->job_gen != s->t->job.gen && s->t->job.have)
		take_job(j);
	if (j->dirty && s->shown)
		build(j);
}

static void scr_tick(struct tui_screen *s, int64_t now, int64_t *next)
{
	struct job_order *j = of(s);
	int64_t due;

	if (s->t->api == NULL || j->bad != NULL || j->pv_req != 0 || j->place_req != 0 ||
	    !(s->t->job.have || j->job.model.params_b > 0))
		return;
	due = j->pv_due;
	if (now >= due)
		start_preview(j);
	else if (*next < 0 || due < *next)
		*next = due;
}

enum { JK_PLACE = 1, JK_NEXT, JK_BACK, JK_AGAIN };

static const struct wbinding bindings[] = {
	{ WKEY_RETURN, JK_PLACE, N_("Place the cheapest (asks first)"), N_("Place"), "place" },
	{ WKEY_ENTER, JK_PLACE, NULL, NULL, "place" },
	{ WKEY_TAB, JK_NEXT, N_("The next field (hours, regions)"), NULL, "next-field" },
	{ WKEY_BTAB, JK_NEXT, N_("The next field (hours, regions)"), NULL, "next-field" },
	{ WKEY_F5, JK_AGAIN, N_("Ask the exchange again now"), N_("Again"), "again" },
	{ WKEY_ESC, JK_BACK, N_("Back to the tables"), N_("Back"), "back" },
};

static const struct tui_keymap keys[] = {
	{ N_("Job order"), bindings, sizeof bindings / sizeof bindings[0] },
};

static void set_focus(struct job_order *j, int i)
{
	wfield_focus(j->field[j->focus], false);
	j->focus = i;
	wfield_focus(j->field[i], true);
	j->dirty = true;
}

static unsigned scr_event(struct tui_screen *s, const struct wevent *ev)
{
	struct job_order *j = of(s);
	const struct wbinding *b;
	unsigned r;

	if (ev->type != WEV_KEY)
		return W_HANDLED;
	b = tui_screen_binding(s, ev->key, NULL);
	switch (b != NULL ? b->action : 0) {
	case JK_BACK:
		return W_HANDLED | W_CLOSE | W_REDRAW;
	case JK_NEXT:
		set_focus(j, (j->focus + 1) % JOB_FIELDS);
		return W_HANDLED | W_REDRAW;
	case JK_AGAIN:
		j->pv_due = 0;
		return W_HANDLED | W_REDRAW;
	case JK_PLACE:
		wwidget_handle(&j->field[j->focus]->base, ev); /* kept in its history */
		review(j);
		return W_HANDLED | W_REDRAW;
	default:
		break;
	}
	if (j->place_req != 0 && wkey_printable(ev->key)) {
		set_note(j, _("The job order is on its way to the exchange: it is placed once."), WR_DIM);
		return W_HANDLED | W_REDRAW;
	}
	r = wwidget_handle(&j->field[j->focus]->base, ev);
	if (r & W_CHANGED) {
		read_fields(j);
		set_note(j, NULL, WR_NORMAL);
	}
	if (r == W_IGNORED && !wkey_printable(ev->key))
		return W_IGNORED; /* F10, Ctrl-L: the frame's */
	return W_HANDLED | (r & W_REDRAW) | W_REDRAW;
}

static void scr_notify(struct tui_screen *s, unsigned what)
{
	if (what & TN_LANG)
		of(s)->dirty = true;
}

static void scr_free(struct tui_screen *s)
{
	struct job_order *j = of(s);
	struct tui *t = s->t;

	if (t->api != NULL && j->pv_req != 0)
		api_abandon(t->api, j->pv_req);
	if (t->api != NULL && j->place_req != 0)
		api_abandon(t->api, j->place_req); /* quitting: it may still be placed */
	api_job_free(&j->pv);
	free_regions(j);
	free(j->pv_error);
	free(j->bad);
	free(j->label);
	free(j->coid);
	free(j->note);
}

const struct tui_screen_class tui_job_order_class = {
	.name = "job-order", .flags = TS_OPAQUE, .layout = scr_layout, .recalc = scr_recalc,
	.event = scr_event, .tick = scr_tick, .notify = scr_notify, .free = scr_free,
	.keys = keys, .n_keys = 1,
};

void tui_job_order_open(struct tui *t, const struct tui_goto *g)
{
	struct job_order *j;
	struct tui_screen *old = tui_find(t, &tui_job_order_class);

	(void)g;
	if (!t->job.have) {
		tui_key_message(t, _("Set a fit job first: %s opens the fit calculator"), "fit", NULL);
		return;
	}
	if (old != NULL) {
		tui_raise(t, old);
		return;
	}
	if (t->api == NULL) {
		tui_message(t, _("There is no exchange to send orders to (see the status bar)."));
		return;
	}
	j = xcalloc(1, sizeof *j);
	tui_screen_init(&j->base, &tui_job_order_class, t);
	j->panel = (struct wpanel *)tui_screen_add(&j->base, &wpanel_new(&t->ui)->base);
	j->field[0] = (struct wfield *)tui_screen_add(
		&j->base, &wfield_new_readline(&t->ui, _("Hours: "),
					       fit_method_is_training(t->job.job.method) ? "" : "1",
					       "job.hours")->base);
	j->field[1] = (struct wfield *)tui_screen_add(
		&j->base, &wfield_new_readline(&t->ui, _("Regions (empty: any): "), "", "job.regions")->base);
	take_job(j);
	j->pv_due = 0;
	tui_push(t, &j->base);
	set_focus(j, 0);
	tui_relayout(t);
}
