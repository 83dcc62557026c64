/*
 * The live-fit calculator panel, a screen (tui/frame/screen.h) above the tables:
 * a form of the job's inputs and,
 * for the GPU under the table's cursor, the answer — memory per GPU broken
 * down and drawn as a bar, GPUs needed, cost per hour at the live best ask,
 * a training run's time and cost or inference's decode speed.
 *
 * Where: beside the table on terminals of FIT_WIDE_COLS columns or more (a
 * column of FIT_SIDE_* width, full height), below it otherwise (fields in a
 * grid of cells of at least 34 columns; the table keeps what is left, at
 * least FIT_TABLE_MIN lines, or 2 — header and cursor row — while the panel
 * is being edited on a short terminal). What does not fit is given up in a
 * fixed order (blank line, detailed answer → compact, architecture, hints,
 * then the fields scroll around the focused one; lines left over go back to
 * the answer), so 80×24 stays usable and 200×50 shows everything. The
 * architecture's figures pack several to a line (two beside the table);
 * the Architecture and Advanced folds show or hide their fields.
 *
 * Keys (the panel's map below, listed by the help overlay): `f` shows and
 * focuses it (again: focuses it), F4 shows/hides it, Esc goes back to the
 * table (the panel stays, answering for the row under the cursor), `$`
 * sorts the tab by the job's cost per hour, `b` (F5) opens the order form
 * with the GPUs the job runs on (the tables read them from the job's
 * columns). Tab/↓ and Shift-Tab/↑ move between fields; ←/→ or Space change a choice; text fields are GNU
 * readline (emacs keys, Ctrl-P/Ctrl-N recall that field's history; what a
 * field held when it was left is added to it). In the model field, while
 * the text is a search, ↑/↓ choose among the matching presets and Enter
 * takes one. F-keys and PgUp/PgDn still reach the application and table.
 *
 * Live: every change of a field re-reads the form (tui/fitpanel/fitform.c) into a
 * job, which the panel publishes (t->job, with a generation counter); the
 * tables pull it in their recalc (view_set_job: the "your model" columns,
 * dimmed rows; the cursor stays on its GPU) and publish the row under their
 * cursor (t->sel), for which the panel composes its lines as cells at
 * render (pure; the answer's lines come from tui/fitpanel/fitanswer.c), redrawing
 * its window only when a line differs. The text fields are
 * wfield widgets with the readline engine, placed over the panel's value
 * areas. Bad input leaves the last valid job in place: the answer is
 * greyed and the field says why.
 */
#include "tui/fitpanel/fitpanel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

/* ---- fields ------------------------------------------------------------------------------------- */

static const char *const history_id[FF_COUNT] = {
	[FF_MODEL] = "fit.model", [FF_SEQ] = "fit.seq", [FF_BATCH] = "fit.batch",
	[FF_GPUS] = "fit.gpus", [FF_TOKENS] = "fit.tokens", [FF_MFU] = "fit.mfu",
	[FF_BWEFF] = "fit.bweff", [FF_RANK] = "fit.rank", [FF_RES] = "fit.resolution",
	[FF_FRAMES] = "fit.frames", [FF_OVERHEAD] = "fit.overhead", [FF_MARGIN] = "fit.margin",
	[FF_LAYERS] = "fit.layers", [FF_HIDDEN] = "fit.hidden", [FF_HEADS] = "fit.heads",
	[FF_KVHEADS] = "fit.kv_heads", [FF_HEADDIM] = "fit.head_dim", [FF_VOCAB] = "fit.vocab",
	[FF_FFN] = "fit.ffn", [FF_ACTIVE] = "fit.active", [FF_INT4G] = "fit.int4_group",
	[FF_ALLREDUCE] = "fit.allreduce",
};

/* The names of the choices and toggles in the remembered state (the text
 * fields are remembered by their history's name). */
static const char *const choice_id[FF_COUNT] = {
	[FF_METHOD] = "fit.method", [FF_CKPT] = "fit.checkpointing", [FF_SHARD] = "fit.sharding",
	[FF_OPT] = "fit.optimizer", [FF_FLASH] = "fit.flash", [FF_OFFLOAD] = "fit.offload",
	[FF_KVCACHE] = "fit.kv_cache", [FF_ENCODERS] = "fit.encoders", [FF_ACCT] = "fit.accounting",
	[FF_PURE] = "fit.pure_bf16", [FF_CHUNKED] = "fit.chunked_loss",
	[FF_ACTOFF] = "fit.act_offload", [FF_EMBED32] = "fit.embed_fp32", [FF_PAGED] = "fit.paged",
};

/* What the session remembers of the panel (tui/frame/state.c): whether it
 * is open, and every field that is not its default. */
static void panel_remember(struct tui_fit *p)
{
	struct tui *t = p->t;

	tui_state_set(t, "fit", p->visible ? "open" : NULL);
	for (size_t i = 0; i < FF_COUNT; i++) {
		enum tui_ff_id id = (enum tui_ff_id)i;
		bool changed = tui_ff_changed(&p->ff, id) || (id == FF_MODEL && p->ff.f[i].text[0] != '\0');
		if (history_id[i] != NULL && tui_ff_kind(id) == FFK_TEXT) {
			tui_state_set(t, history_id[i], changed ? p->ff.f[i].text : NULL);
		} else if (choice_id[i] != NULL) {
			char n[16];
			snprintf(n, sizeof n, "%d", p->ff.f[i].choice);
			tui_state_set(t, choice_id[i], changed ? n : NULL);
		}
	}
}

static void restore_field(struct tui_fit *p, enum tui_ff_id id)
{
	const char *v;

	if (history_id[id] != NULL && tui_ff_kind(id) == FFK_TEXT &&
	    (v = tui_state_get(p->t, history_id[id])) != NULL) {
		tui_ff_set_text(&p->ff, id, v);
		if (id == FF_MODEL)
			p->ff.model_touched = true;
	} else if (choice_id[id] != NULL && (v = tui_state_get(p->t, choice_id[id])) != NULL) {
		int want = atoi(v), start = p->ff.f[id].choice;
		/* step round the choices to the one remembered */
		for (int k = 0; k < 64 && p->ff.f[id].choice != want; k++) {
			tui_ff_cycle(&p->ff, id, +1);
			if (p->ff.f[id].choice == start)
				break;
		}
	}
}

/* The fields remembered, into the form: the method first (it decides
 * which fields apply), then the model, then the rest. */
static void panel_restore(struct tui_fit *p)
{
	restore_field(p, FF_METHOD);
	restore_field(p, FF_MODEL);
	for (size_t i = 0; i < FF_COUNT; i++)
		if (i != FF_METHOD && i != FF_MODEL)
			restore_field(p, (enum tui_ff_id)i);
	for (size_t i = 0; i < FF_COUNT; i++) {
		p->ff.f[i].text_changed = false;
		if (p->field[i] != NULL)
			wfield_set_text(p->field[i], p->ff.f[i].text);
	}
}

static void field_hide(struct tui_fit *p, enum tui_ff_id id)
{
	if (p->field[id] != NULL)
		wwidget_hide(&p->field[id]->base);
	p->placed[id] = (struct tui_fit_slot){ 0 };
}

/* Put the text fields' windows where compose() left their slots. */
static void fields_place(struct tui_fit *p)
{
	for (size_t i = 0; i < FF_COUNT; i++) {
		struct wfield *f = p->field[i];
		struct tui_fit_slot s = p->slot[i], *was = &p->placed[i];
		if (f == NULL)
			continue;
		if (!s.on || p->panel->base.win == NULL) {
			field_hide(p, (enum tui_ff_id)i);
			continue;
		}
		if (was->on && was->y == s.y && was->x == s.x && was->w == s.w && f->base.win != NULL)
			continue;
		wwidget_place(&f->base, p->panel->base.y + s.y, p->panel->base.x + s.x, 1, s.w);
		*was = s;
	}
}

/* Copy texts the form replaced (a preset's resolution) into the editors. */
static void panel_fields_pull(struct tui_fit *p)
{
	for (size_t i = 0; i < FF_COUNT; i++) {
		if (!p->ff.f[i].text_changed)
			continue;
		p->ff.f[i].text_changed = false;
		if (p->field[i] != NULL)
			wfield_set_text(p->field[i], p->ff.f[i].text);
	}
}

static void focus_field(struct tui_fit *p, enum tui_ff_id id, bool on)
{
	if (p->field[id] != NULL)
		wfield_focus(p->field[id], on);
}

/* Leaving a text field: what it holds goes into its history (as Enter
 * would, through readline's own line handler). */
static void commit_field(struct tui_fit *p, enum tui_ff_id id)
{
	struct wfield *f = p->field[id];
	struct wevent ev = { .type = WEV_KEY, .key = WKEY_RETURN };

	if (f == NULL || !f->base.focused || wfield_text(f)[0] == '\0')
		return;
	wwidget_handle(&f->base, &ev);
}

static void panel_move_focus(struct tui_fit *p, enum tui_ff_id to)
{
	if (to == p->cur)
		return;
	commit_field(p, p->cur);
	focus_field(p, p->cur, false);
	p->cur = to;
	if (p->focused)
		focus_field(p, to, true);
}

static void panel_step_focus(struct tui_fit *p, int dir)
{
	enum tui_ff_id vis[FF_COUNT];
	size_t n = tui_ff_visible(&p->ff, vis), i;

	for (i = 0; i < n && vis[i] != p->cur; i++)
		;
	if (i == n)
		i = 0;
	else
		i = dir > 0 ? (i + 1) % n : (i + n - 1) % n;
	panel_move_focus(p, vis[i]);
}

/* The focused field must be one that is shown (a method change hides some). */
static void panel_keep_focus_shown(struct tui_fit *p)
{
	if (!tui_ff_shown(&p->ff, p->cur))
		panel_move_focus(p, FF_METHOD);
}

/* ---- the job, published ------------------------------------------------------------------------ */

/* The job the tables pull (none while the panel is hidden or has none). */
static void panel_publish(struct tui_fit *p)
{
	struct tui_job *j = &p->t->job;
	bool have = p->visible && p->ff.have_job;

	if (have == j->have && (!have || memcmp(&j->job, &p->ff.job, sizeof j->job) == 0))
		return;
	j->have = have;
	if (have)
		j->job = p->ff.job;
	j->gen++;
}

static void panel_set_focus(struct tui_fit *p, bool on);
static void panel_toggle(struct tui *t);

/* ---- keys and clicks (the map is data: the help lists it, the handler
 * dispatches on it; while the panel has the keyboard its keys are its
 * own; F-keys, PgUp/PgDn, Ctrl-L and resizes go on to the tables and the
 * frame) ---- */

static const struct wbinding panel_keys[] = {
	{ WKEY_TAB, FA_NEXT, N_("Next field (\u2193 too; in the model field \u2193 \u2191 choose a preset)"), NULL, "next-field" },
	{ WKEY_DOWN, FA_NEXT, N_("Next field (\u2193 too; in the model field \u2193 \u2191 choose a preset)"), NULL, "next-field" },
	{ WKEY_BTAB, FA_PREV, N_("Previous field"), NULL, "prev-field" },
	{ WKEY_UP, FA_PREV, N_("Previous field"), NULL, "prev-field" },
	{ WKEY_RIGHT, FA_CHOICE_NEXT, N_("Change a choice (in a text field: move the cursor)"), NULL, "choice-next" },
	{ WKEY_LEFT, FA_CHOICE_PREV, N_("Change a choice (in a text field: move the cursor)"), NULL, "choice-prev" },
	{ ' ', FA_CHOICE_NEXT, N_("Change a choice (in a text field: move the cursor)"), NULL, "choice-next" },
	{ WKEY_RETURN, FA_DONE, N_("Take the field (or the preset chosen) and go to the next; on a closed fold: open it"), NULL, "take" },
	{ WKEY_ESC, FA_BACK, N_("Back to the table (the panel keeps answering)"), NULL, "back" },
	{ WKEY_F4, FA_HIDE, N_("Hide the fit calculator"), NULL, "fit-hide" },
	{ 'P' - '@', FA_READLINE, N_("Text fields: earlier entries of the field (Ctrl-N: later)"), NULL },
	{ 'A' - '@', FA_READLINE, N_("Text fields: readline's emacs keys (Ctrl-A, Ctrl-E, Ctrl-K, Ctrl-Y, Alt-B …)"), NULL },
};

/* The form changed: the fields that the method shows may differ. */
static unsigned fit_form_changed(struct tui_fit *p)
{
	panel_fields_pull(p);
	panel_keep_focus_shown(p);
	wwidget_dirty(&p->panel->base);
	panel_remember(p);
	return W_HANDLED | W_REDRAW | W_CHANGED;
}

static unsigned mouse(struct tui_fit *p, const struct wevent *ev)
{
	int y = ev->y - p->panel->base.y, x = ev->x - p->panel->base.x;

	if (!wwidget_contains(&p->panel->base, ev->y, ev->x))
		return W_IGNORED;
	if (ev->mouse != WM_CLICK && ev->mouse != WM_DOUBLE)
		return W_HANDLED;
	if (p->sug_y >= 0 && y >= p->sug_y && y < p->sug_y + (int)p->sug_n) {
		tui_ff_pick(&p->ff, p->sug_first + (size_t)(y - p->sug_y));
		if (p->field[FF_MODEL] != NULL)
			wfield_set_text(p->field[FF_MODEL], p->ff.f[FF_MODEL].text);
		return fit_form_changed(p);
	}
	for (size_t i = 0; i < FF_COUNT; i++) {
		struct tui_fit_slot s = p->slot[i];
		if (!s.on || y != s.y || x < s.x - 1 || x >= s.x + s.w)
			continue;
		if (!p->focused)
			panel_set_focus(p, true);
		if (p->cur == (enum tui_ff_id)i && tui_ff_kind((enum tui_ff_id)i) != FFK_TEXT) {
			tui_ff_cycle(&p->ff, (enum tui_ff_id)i, +1);
			return fit_form_changed(p);
		}
		panel_move_focus(p, (enum tui_ff_id)i);
		wwidget_dirty(&p->panel->base);
		return W_HANDLED | W_REDRAW;
	}
	return W_HANDLED;
}

/* Keys that go on to the application or the table while the panel has
 * the keyboard: F-keys (help, buy, quit …), PgUp/PgDn (move the table's
 * cursor), resize. */
static bool passes_through(wkey k)
{
	return (k >= WKEY_F1 && k <= WKEY_F12 && k != WKEY_F4) || k == WKEY_PGUP || k == WKEY_PGDN ||
	       k == WKEY_RESIZE || k == 'L' - '@';
}

static unsigned fit_event(struct tui_fit *p, const struct wevent *ev)
{
	const struct wbinding *b;
	enum tui_ff_id id;
	unsigned r;

	/* keys typed right after f arrive before the panel has a window: they
	 * are the panel's all the same */
	if (!p->visible)
		return W_IGNORED;
	if (ev->type == WEV_MOUSE)
		return p->panel->base.win != NULL ? mouse(p, ev) : W_IGNORED;
	if (!p->focused || ev->type != WEV_KEY)
		return W_IGNORED;
	if (passes_through(ev->key))
		return W_IGNORED;
	id = p->cur;
	size_t n_keys;
	const struct wbinding *keys = tui_keys_bound(p->t, panel_keys,
						     sizeof panel_keys / sizeof panel_keys[0], &n_keys);
	b = wbinding_find(keys, n_keys, ev->key);
	if (ev->key == WKEY_ENTER || ev->key == '\n')
		b = wbinding_find(keys, n_keys, WKEY_RETURN);
	bool text = tui_ff_kind(id) == FFK_TEXT;
	bool searching = id == FF_MODEL && tui_ff_searching(&p->ff);
	bool choosing = searching && p->ff.n_matches > 1; /* ↑↓ choose among presets */

	switch (b != NULL ? b->action : 0) {
	case FA_NEXT:
	case FA_PREV:
		if (choosing && ev->key != WKEY_TAB && ev->key != WKEY_BTAB) {
			tui_ff_match_step(&p->ff, b->action == FA_NEXT ? +1 : -1);
			return fit_form_changed(p);
		}
		if (searching && ev->key != WKEY_BTAB && ev->key != WKEY_UP) {
			/* Tab takes the preset chosen, as Enter does */
			tui_ff_pick(&p->ff, p->ff.match_sel);
			wfield_set_text(p->field[FF_MODEL], p->ff.f[FF_MODEL].text);
		}
		panel_step_focus(p, b->action == FA_NEXT ? +1 : -1);
		return fit_form_changed(p);
	case FA_DONE:
		if (tui_ff_kind(id) == FFK_FOLD && p->ff.f[id].choice == 0)
			tui_ff_cycle(&p->ff, id, +1); /* Enter opens a fold and goes into it */
		if (searching) {
			tui_ff_pick(&p->ff, p->ff.match_sel);
			wfield_set_text(p->field[FF_MODEL], p->ff.f[FF_MODEL].text);
		}
		panel_step_focus(p, +1);
		return fit_form_changed(p);
	case FA_BACK:
		panel_set_focus(p, false);
		return W_HANDLED | W_REDRAW;
	case FA_HIDE:
		panel_toggle(p->t);
		return W_HANDLED | W_REDRAW;
	case FA_CHOICE_NEXT:
	case FA_CHOICE_PREV:
		if (!text) {
			tui_ff_cycle(&p->ff, id, b->action == FA_CHOICE_NEXT ? +1 : -1);
			return fit_form_changed(p);
		}
		break;
	default:
		break;
	}
	if (!text)
		return W_HANDLED; /* typing on a choice does nothing (and is not a command) */
	r = wwidget_handle(&p->field[id]->base, ev);
	if (r & W_CHANGED) {
		tui_ff_set_text(&p->ff, id, wfield_text(p->field[id]));
		return fit_form_changed(p);
	}
	if (r == W_IGNORED)
		return W_HANDLED; /* keys readline does not use are not commands here */
	return r | W_HANDLED;
}

static unsigned panel_event(struct tui_screen *s, const struct wevent *ev)
{
	struct tui_fit *p = (struct tui_fit *)s;
	unsigned r = fit_event(p, ev);

	panel_publish(p); /* the tables pull the job in their recalc */
	return r;
}

/* ---- layout ------------------------------------------------------------------------------------------ */

static void hide_all(struct tui_fit *p)
{
	p->mode = FM_HIDDEN;
	p->scr.shown = false; /* the stack hides the panel and the fields */
}

/* The panel's height below the table in an area of h lines (< 2: none). */
static int below_height(struct tui_fit *p, int w, int h)
{
	int natural = tui_fit_compose(p, w, -1, false);
	/* being edited, the panel leaves the table a third of the lines (the
	 * header and the cursor row at least; the fields scroll), else
	 * FIT_TABLE_MIN */
	int tmin = p->focused ? (h / 3 < 2 ? 2 : h / 3 > FIT_TABLE_MIN + 1 ? FIT_TABLE_MIN + 1 : h / 3)
			      : FIT_TABLE_MIN;
	int ph = natural;

	if (ph > h - tmin)
		ph = h - tmin;
	if (ph < 2 && p->focused)
		ph = h; /* nothing else fits: the panel alone */
	return ph;
}

/* Take the panel's share of the tables' area: a column on the right from
 * FIT_WIDE_COLS columns, else lines at the bottom. */
static void scr_layout(struct tui_screen *s, struct tui_area *a)
{
	struct tui_fit *p = (struct tui_fit *)s;

	p->ay = a->y;
	p->ax = a->x;
	p->ah = a->h;
	p->aw = a->w;
	if (!p->visible || a->h <= 0 || a->w <= 0) {
		hide_all(p);
		return;
	}
	if (a->w >= FIT_WIDE_COLS) {
		int pw = a->w >= 160 ? FIT_SIDE_W_WIDE : FIT_SIDE_W;
		p->mode = FM_SIDE;
		wwidget_place(&p->panel->base, a->y, a->x + a->w - pw, a->h, pw);
		a->w -= pw;
	} else {
		int ph = below_height(p, a->w, a->h);
		if (ph < 2) {
			hide_all(p);
			return;
		}
		p->mode = FM_BELOW;
		p->placed_h = ph;
		wwidget_place(&p->panel->base, a->y + a->h - ph, a->x, ph, a->w);
		a->h -= ph;
	}
	for (size_t i = 0; i < FF_COUNT; i++)
		p->placed[i].on = false;
}

/* ---- recalc and rendering -------------------------------------------------------------------------------- */

static void scr_recalc(struct tui_screen *s, int64_t now)
{
	struct tui_fit *p = (struct tui_fit *)s;

	(void)now;
	if (!p->visible)
		return;
	panel_fields_pull(p);
	panel_keep_focus_shown(p);
	panel_publish(p);
	if (!s->shown && p->mode != FM_HIDDEN)
		return; /* covered by a page */
	if (p->mode == FM_HIDDEN && p->ah > 0) {
		tui_relayout(p->t);
	} else if (p->mode == FM_BELOW && p->panel->base.win != NULL) {
		/* the content grew or shrank (a method with more fields): share again */
		int want = below_height(p, p->aw, p->ah);
		if (want >= 2 && want != p->placed_h)
			tui_relayout(p->t);
	}
}

/* The lines for the panel's final size, and the fields where they lie. */
static void scr_repaint(struct tui_screen *s)
{
	struct tui_fit *p = (struct tui_fit *)s;

	if (p->panel->base.win == NULL)
		return;
	tui_lines_free(&p->shown_lines);
	p->shown_lines = (struct tui_lines){ .ascii = p->t->ascii };
	tui_fit_compose(p, p->panel->base.w, p->panel->base.h, p->mode == FM_SIDE);
	/* the panel redraws its window only when a line differs (and the
	 * fields over it are copied again then: they come after it) */
	wpanel_begin(p->panel);
	for (size_t i = 0; i < p->shown_lines.n; i++)
		wcells_cat(wpanel_add(p->panel), &p->shown_lines.l[i]);
	wpanel_commit(p->panel);
	fields_place(p);
}

static bool scr_wants_focus(const struct tui_screen *s)
{
	const struct tui_fit *p = (const struct tui_fit *)s;

	return p->visible && p->focused;
}

/* ---- opening, closing -------------------------------------------------------------------------------------- */

static void panel_set_focus(struct tui_fit *p, bool on)
{
	if (p->focused == on)
		return;
	if (!on)
		commit_field(p, p->cur);
	p->focused = on;
	focus_field(p, p->cur, on);
	wwidget_dirty(&p->panel->base);
	tui_relayout(p->t);
}

static void scr_notify(struct tui_screen *s, unsigned what)
{
	struct tui_fit *p = (struct tui_fit *)s;

	if (!(what & TN_LANG))
		return;
	/* the form's numbers and messages follow (the lines are composed on
	 * every frame) */
	tui_ff_set_lang(&p->ff, p->t->o->lang);
	wwidget_dirty(&p->panel->base);
	panel_publish(p);
}

static void scr_free(struct tui_screen *s)
{
	struct tui_fit *p = (struct tui_fit *)s;
	struct tui *t = p->t;

	tui_ff_free(&p->ff);
	tui_lines_free(&p->shown_lines);
	if (t->job.have) {
		t->job.have = false;
		t->job.gen++;
	}
}


static const struct tui_keymap keys[] = {
	{ N_("Fit calculator (while it has the keyboard)"), panel_keys, sizeof panel_keys / sizeof panel_keys[0] },
};

const struct tui_screen_class tui_fit_class = {
	.name = "fit", .layout = scr_layout, .recalc = scr_recalc, .repaint = scr_repaint,
	.event = panel_event, .notify = scr_notify, .wants_focus = scr_wants_focus,
	.free = scr_free, .keys = keys, .n_keys = 1,
};

static struct tui_fit *fit_new(struct tui *t)
{
	struct tui_fit *p = xcalloc(1, sizeof *p);

	tui_screen_init(&p->scr, &tui_fit_class, t);
	p->panel = (struct wpanel *)tui_screen_add(&p->scr, &wpanel_new(&t->ui)->base);
	p->t = t;
	p->shown_lines.ascii = t->ascii;
	p->sug_y = -1;
	tui_ff_init(&p->ff, t->cat, t->o->lang, t->ascii);
	p->ff.key_buy = tui_key_label(t, "buy");
	p->ff.key_job = tui_key_label(t, "job-order");
	p->ff.key_clear = tui_key_label(t, "clear-filter");
	for (size_t i = 0; i < FF_COUNT; i++) {
		if (tui_ff_kind((enum tui_ff_id)i) != FFK_TEXT)
			continue;
		p->field[i] = (struct wfield *)tui_screen_add(
			&p->scr, &wfield_new_readline(&t->ui, "", p->ff.f[i].text, history_id[i])->base);
	}
	p->cur = FF_MODEL;
	panel_restore(p);
	return p;
}

static struct tui_fit *find(struct tui *t)
{
	return (struct tui_fit *)tui_find(t, &tui_fit_class);
}

/* f: show the panel, with the keyboard. */
static void fit_show(struct tui *t)
{
	struct tui_fit *p = find(t);

	if (p == NULL) {
		p = fit_new(t);
		tui_push_under(t, &p->scr);
	}
	if (!p->visible) {
		p->visible = true;
		tui_relayout(t);
	}
	panel_set_focus(p, true);
	panel_publish(p);
}

static void panel_toggle(struct tui *t)
{
	struct tui_fit *p = find(t);

	if (p != NULL && p->visible) {
		panel_set_focus(p, false);
		p->visible = false;
		panel_publish(p);
		panel_remember(p);
		tui_relayout(t);
	} else {
		fit_show(t);
	}
}

void tui_fit_open(struct tui *t, const struct tui_goto *g)
{
	if (g->restore) {
		/* as the last session left it, the keyboard the tables' */
		fit_show(t);
		panel_set_focus(find(t), false);
	} else if (g->toggle) {
		panel_toggle(t);
	} else {
		fit_show(t);
	}
	panel_remember(find(t));
}

