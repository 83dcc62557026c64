/*
 * The fit panel's keys and clicks (its map is data: tui_fit_keys, which
 * the help lists and the handler dispatches on). While the panel has the
 * keyboard its keys are its own; F-keys, PgUp/PgDn, Ctrl-L and resizes go
 * on to the tables and the application.
 */
#include "tui/fitpanel/fitpanel.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

const struct wbinding tui_fit_keys[TUI_FIT_N_KEYS] = {
	{ WKEY_TAB, FA_NEXT, N_("Next field (\u2193 too; in the model field \u2193 \u2191 choose a preset)"), NULL },
	{ WKEY_DOWN, FA_NEXT, N_("Next field (\u2193 too; in the model field \u2193 \u2191 choose a preset)"), NULL },
	{ WKEY_BTAB, FA_PREV, N_("Previous field"), NULL },
	{ WKEY_UP, FA_PREV, N_("Previous field"), NULL },
	{ WKEY_RIGHT, FA_CHOICE_NEXT, N_("Change a choice (in a text field: move the cursor)"), NULL },
	{ WKEY_LEFT, FA_CHOICE_PREV, N_("Change a choice (in a text field: move the cursor)"), NULL },
	{ ' ', FA_CHOICE_NEXT, N_("Change a choice (in a text field: move the cursor)"), NULL },
	{ WKEY_RETURN, FA_DONE, N_("Take the field (or the preset chosen) and go to the next; on a closed fold: open it"), NULL },
	{ WKEY_ESC, FA_BACK, N_("Back to the table (the panel keeps answering)"), NULL },
	{ WKEY_F4, FA_HIDE, N_("Hide the fit calculator"), NULL },
	{ 'P' - '@', FA_READLINE, N_("Text fields: earlier entries of the field (Ctrl-N: later)"), NULL },
	{ 'A' - '@', FA_READLINE, N_("Text fields: readline's emacs keys (Ctrl-A, Ctrl-E, Ctrl-K, Ctrl-Y, Alt-B …)"), NULL },
};

/* The form changed: the fields that the method shows may differ. */
static unsigned fit_form_changed(struct tui_fit *p)
{
	tui_fit_fields_pull(p);
	tui_fit_keep_focus_shown(p);
	wwidget_dirty(&p->panel->base);
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
			tui_fit_set_focus(p, true);
		if (p->cur == (enum tui_ff_id)i && tui_ff_kind((enum tui_ff_id)i) != FFK_TEXT) {
			tui_ff_cycle(&p->ff, (enum tui_ff_id)i, +1);
			return fit_form_changed(p);
		}
		tui_fit_move_focus(p, (enum tui_ff_id)i);
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
	b = wbinding_find(tui_fit_keys, TUI_FIT_N_KEYS, ev->key);
	if (ev->key == WKEY_ENTER || ev->key == '\n')
		b = wbinding_find(tui_fit_keys, TUI_FIT_N_KEYS, WKEY_RETURN);
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
		tui_fit_step_focus(p, b->action == FA_NEXT ? +1 : -1);
		return fit_form_changed(p);
	case FA_DONE:
		if (tui_ff_kind(id) == FFK_FOLD && p->ff.f[id].choice == 0)
			tui_ff_cycle(&p->ff, id, +1); /* Enter opens a fold and goes into it */
		if (searching) {
			tui_ff_pick(&p->ff, p->ff.match_sel);
			wfield_set_text(p->field[FF_MODEL], p->ff.f[FF_MODEL].text);
		}
		tui_fit_step_focus(p, +1);
		return fit_form_changed(p);
	case FA_BACK:
		tui_fit_set_focus(p, false);
		return W_HANDLED | W_REDRAW;
	case FA_HIDE:
		tui_fit_toggle(p->t);
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

unsigned tui_fit_screen_event(struct tui_screen *s, const struct wevent *ev)
{
	struct tui_fit *p = (struct tui_fit *)s;
	unsigned r = fit_event(p, ev);

	tui_fit_publish(p); /* the tables pull the job in their recalc */
	return r;
}
