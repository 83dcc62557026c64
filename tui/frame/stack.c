/*
 * The stack of screens (tui/frame/screen.h) and the two kinds of screen every
 * part of the TUI uses for overlays: a widget overlay (help, column
 * chooser, language menu) that calls its owner back when it closes, and a
 * confirmation dialog that carries its own callback.
 *
 * The stack runs the phases of a frame over its screens: tick and recalc
 * bottom-up (the tables pull the market's and the fit job's data before
 * the panel above them reads the tables' cursor), layout top-down (each
 * screen takes its share of the body; an opaque one covers the rest),
 * render bottom-up, the cursor from the focused screen; events top, then
 * focused, then the rest beneath down to the first opaque screen.
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

void tui_screen_init(struct tui_screen *s, const struct tui_screen_class *cls, struct tui *t)
{
	memset(s, 0, sizeof *s);
	s->cls = cls;
	s->t = t;
	s->shown = true; /* until the next layout says otherwise */
}

/* ---- the stack ---------------------------------------------------------------------------- */

static void insert_at(struct tui *t, size_t at, struct tui_screen *s)
{
	if (t->n_stack == t->cap_stack) {
		t->cap_stack = t->cap_stack ? 2 * t->cap_stack : 8;
		t->stack = xrealloc(t->stack, t->cap_stack * sizeof *t->stack);
	}
	memmove(t->stack + at + 1, t->stack + at, (t->n_stack - at) * sizeof *t->stack);
	t->stack[at] = s;
	t->n_stack++;
	tui_relayout(t);
	t->redraw = true;
}

void tui_push(struct tui *t, struct tui_screen *s)
{
	size_t at = t->n_stack;

	/* a screen that is not an overlay goes below the overlays */
	if (!(s->cls->flags & TS_MODAL))
		while (at > 0 && (t->stack[at - 1]->cls->flags & TS_MODAL))
			at--;
	insert_at(t, at, s);
}

void tui_push_under(struct tui *t, struct tui_screen *s)
{
	size_t at = 1;

	while (at < t->n_stack && !(t->stack[at]->cls->flags & (TS_OPAQUE | TS_MODAL)))
		at++;
	insert_at(t, at > t->n_stack ? t->n_stack : at, s);
}

static size_t index_of(const struct tui *t, const struct tui_screen *s)
{
	for (size_t i = 0; i < t->n_stack; i++)
		if (t->stack[i] == s)
			return i;
	return SIZE_MAX;
}

void tui_remove(struct tui *t, struct tui_screen *s)
{
	size_t i = index_of(t, s);

	if (i == SIZE_MAX)
		return;
	memmove(t->stack + i, t->stack + i + 1, (t->n_stack - i - 1) * sizeof *t->stack);
	t->n_stack--;
	s->cls->free(s);
	tui_stack_touch(t); /* what lay beneath is copied to the screen again */
	tui_relayout(t);
	t->redraw = true;
}

void tui_raise(struct tui *t, struct tui_screen *s)
{
	size_t i = index_of(t, s);

	if (i == SIZE_MAX)
		return;
	memmove(t->stack + i, t->stack + i + 1, (t->n_stack - i - 1) * sizeof *t->stack);
	t->n_stack--;
	tui_push(t, s);
}

struct tui_screen *tui_find(const struct tui *t, const struct tui_screen_class *cls)
{
	for (size_t i = t->n_stack; i-- > 0;)
		if (t->stack[i]->cls == cls)
			return t->stack[i];
	return NULL;
}

struct tui_screen *tui_top(const struct tui *t)
{
	return t->n_stack > 0 ? t->stack[t->n_stack - 1] : NULL;
}

struct tui_screen *tui_focused(const struct tui *t)
{
	for (size_t i = t->n_stack; i-- > 0;) {
		struct tui_screen *s = t->stack[i];
		if (s->cls->wants_focus == NULL || s->cls->wants_focus(s))
			return s;
	}
	return NULL;
}

void tui_notify_all(struct tui *t, unsigned what)
{
	for (size_t i = 0; i < t->n_stack; i++)
		if (t->stack[i]->cls->notify != NULL)
			t->stack[i]->cls->notify(t->stack[i], what);
	tui_relayout(t);
	t->redraw = true;
}

void tui_stack_free(struct tui *t)
{
	while (t->n_stack > 0) {
		struct tui_screen *s = t->stack[--t->n_stack];
		s->cls->free(s);
	}
	free(t->stack);
	t->stack = NULL;
	t->cap_stack = 0;
}

/* ---- the frame phases ------------------------------------------------------------------------ */

void tui_stack_tick(struct tui *t, int64_t now, int64_t *next)
{
	for (size_t i = 0; i < t->n_stack; i++)
		if (t->stack[i]->cls->tick != NULL)
			t->stack[i]->cls->tick(t->stack[i], now, next);
}

void tui_stack_recalc(struct tui *t, int64_t now)
{
	for (size_t i = 0; i < t->n_stack; i++)
		if (t->stack[i]->cls->recalc != NULL)
			t->stack[i]->cls->recalc(t->stack[i], now);
}

void tui_stack_layout(struct tui *t)
{
	struct tui_area body = { 1, 0, t->lines - 3, t->cols };
	bool covered = t->too_small;

	for (size_t i = t->n_stack; i-- > 0;) {
		struct tui_screen *s = t->stack[i];
		s->shown = !covered;
		if (s->cls->layout != NULL)
			s->cls->layout(s, &body, s->shown);
		if (s->cls->flags & TS_OPAQUE)
			covered = true;
	}
}

bool tui_stack_render(struct tui *t, bool under)
{
	bool any = under;

	for (size_t i = 0; i < t->n_stack; i++) {
		struct tui_screen *s = t->stack[i];
		if (s->shown)
			any |= s->cls->render(s, any);
	}
	return any;
}

bool tui_stack_cursor(struct tui *t)
{
	struct tui_screen *s = tui_focused(t);

	return s != NULL && s->shown && s->cls->cursor != NULL && s->cls->cursor(s);
}

void tui_stack_touch(struct tui *t)
{
	for (size_t i = 0; i < t->n_stack; i++)
		if (t->stack[i]->cls->touch != NULL)
			t->stack[i]->cls->touch(t->stack[i]);
}

/* Give ev to s; W_CLOSE takes s off the stack. */
static unsigned offer(struct tui *t, struct tui_screen *s, const struct wevent *ev)
{
	unsigned r = s->cls->event(s, ev);

	if (r & W_CLOSE)
		tui_remove(t, s);
	if (r & W_LAYOUT)
		tui_relayout(t);
	if (r & (W_REDRAW | W_LAYOUT | W_CLOSE | W_SELECT | W_CHANGED))
		t->redraw = true;
	return r;
}

unsigned tui_stack_event(struct tui *t, const struct wevent *ev)
{
	struct tui_screen *top = tui_top(t), *focus = tui_focused(t);
	bool modal;
	unsigned r;

	if (top == NULL)
		return W_IGNORED;
	modal = (top->cls->flags & TS_MODAL) != 0; /* before the handler: it may close top */
	r = offer(t, top, ev);
	if ((r & (W_HANDLED | W_CLOSE)) || modal)
		return r; /* keys an overlay does not use go to the global keys only */
	if (focus != NULL && focus != top && index_of(t, focus) != SIZE_MAX) {
		r |= offer(t, focus, ev);
		if (r & (W_HANDLED | W_CLOSE))
			return r;
	}
	/* then the screens beneath the top one, down to the first opaque one
	 * (an F-key pressed in the fit panel is the tables') */
	for (size_t i = t->n_stack; i-- > 0;) {
		struct tui_screen *s = t->stack[i];
		bool opaque = (s->cls->flags & TS_OPAQUE) != 0;
		if (s != top && s != focus) {
			if (!s->shown)
				break;
			r |= offer(t, s, ev);
			if (r & (W_HANDLED | W_CLOSE))
				break;
		}
		if (opaque)
			break;
	}
	return r;
}

/* ---- the help ------------------------------------------------------------------------------------ */

enum { HELP_MAX_SECTIONS = 12 };

static void help_place(struct wwidget *w, int lines, int cols);

static size_t sections_of(struct tui_screen *s, struct whelp_section *out, size_t max)
{
	if (s->cls->help != NULL)
		return s->cls->help(s, out, max);
	if (s->cls->n_bindings == 0 || max == 0)
		return 0;
	out[0] = (struct whelp_section){ _(s->cls->help_title), s->cls->bindings, s->cls->n_bindings };
	return 1;
}

static void help_place(struct wwidget *w, int lines, int cols)
{
	whelp_place((struct whelp *)w, lines, cols);
}

void tui_help_open(struct tui *t, const struct wbinding *global, size_t n_global)
{
	struct whelp_section s[HELP_MAX_SECTIONS];
	struct tui_screen *focus = tui_focused(t);
	size_t n = 0;

	if (focus != NULL)
		n += sections_of(focus, s + n, HELP_MAX_SECTIONS - 1 - n);
	for (size_t i = t->n_stack; i-- > 0;) {
		struct tui_screen *o = t->stack[i];
		if (o == focus || !o->shown || (o->cls->flags & TS_MODAL))
			continue;
		n += sections_of(o, s + n, HELP_MAX_SECTIONS - 1 - n);
		if (o->cls->flags & TS_OPAQUE)
			break;
	}
	if (n_global > 0)
		s[n++] = (struct whelp_section){ _("Everywhere"), global, n_global };
	tui_help_show(t, s, n);
}

void tui_help_show(struct tui *t, const struct whelp_section *s, size_t n)
{
	struct whelp *h = whelp_new(&t->ui, _("gpux keys"),
		_("\u2191\u2193 PgUp PgDn scroll \u00b7 any other key closes \u00b7 "
		  "mouse: click a header to sort, a tab or row to select"),
		s, n);

	tui_push(t, tui_overlay_new(t, &h->base, help_place, NULL, NULL));
}

/* ---- a widget overlay ----------------------------------------------------------------------------- */

struct overlay {
	struct tui_screen base;
	struct wwidget *w;
	void (*place)(struct wwidget *w, int lines, int cols);
	void (*closed)(struct tui *t, struct wwidget *w, void *ud);
	void *ud;
};

static void ov_layout(struct tui_screen *s, struct tui_area *body, bool shown)
{
	struct overlay *o = (struct overlay *)s;

	(void)body;
	if (!shown)
		wwidget_hide(o->w);
	else
		o->place(o->w, s->t->lines, s->t->cols);
}

static bool ov_render(struct tui_screen *s, bool under)
{
	struct overlay *o = (struct overlay *)s;

	if (under)
		wwidget_touch(o->w);
	return wwidget_render(o->w);
}

static void ov_touch(struct tui_screen *s)
{
	wwidget_touch(((struct overlay *)s)->w);
}

/* Keys an overlay leaves to the global keys: a redraw, a resize. */
static bool passes(const struct wevent *ev)
{
	return ev->type == WEV_KEY && (ev->key == 'L' - '@' || ev->key == WKEY_RESIZE);
}

static unsigned ov_event(struct tui_screen *s, const struct wevent *ev)
{
	struct overlay *o = (struct overlay *)s;
	unsigned r;

	if (passes(ev))
		return W_IGNORED;
	r = wwidget_handle(o->w, ev);
	if (!(r & W_CLOSE))
		return r | W_HANDLED;
	if (o->closed != NULL)
		o->closed(s->t, o->w, o->ud);
	/* L on the help closes it and opens the language menu in its place */
	if (o->place == help_place && ev->type == WEV_KEY && ev->key == 'L')
		r &= ~(unsigned)W_HANDLED;
	return r | W_REDRAW;
}

static void ov_free(struct tui_screen *s)
{
	struct overlay *o = (struct overlay *)s;

	wwidget_free(&o->w);
	free(o);
}

static const struct tui_screen_class overlay_class = {
	.name = "overlay",
	.flags = TS_MODAL,
	.layout = ov_layout,
	.render = ov_render,
	.event = ov_event,
	.touch = ov_touch,
	.free = ov_free,
};

struct tui_screen *tui_overlay_new(struct tui *t, struct wwidget *w,
				   void (*place)(struct wwidget *w, int lines, int cols),
				   void (*closed)(struct tui *t, struct wwidget *w, void *ud), void *ud)
{
	struct overlay *o = xcalloc(1, sizeof *o);

	tui_screen_init(&o->base, &overlay_class, t);
	o->w = w;
	o->place = place;
	o->closed = closed;
	o->ud = ud;
	return &o->base;
}

/* ---- a confirmation dialog ------------------------------------------------------------------------- */

struct dialog {
	struct tui_screen base;
	struct wdialog *d;
	bool y_only;
	void (*done)(struct tui *t, int64_t arg, bool yes, wkey key);
	int64_t arg;
};

static void dlg_layout(struct tui_screen *s, struct tui_area *body, bool shown)
{
	struct dialog *d = (struct dialog *)s;

	(void)body;
	if (!shown)
		wwidget_hide(&d->d->base);
	else
		wdialog_place(d->d, s->t->lines, s->t->cols);
}

static bool dlg_render(struct tui_screen *s, bool under)
{
	struct dialog *d = (struct dialog *)s;

	if (under)
		wwidget_touch(&d->d->base);
	return wwidget_render(&d->d->base);
}

static void dlg_touch(struct tui_screen *s)
{
	wwidget_touch(&((struct dialog *)s)->d->base);
}

static unsigned dlg_event(struct tui_screen *s, const struct wevent *ev)
{
	struct dialog *d = (struct dialog *)s;
	unsigned r;
	wkey key;
	bool yes;

	if (passes(ev) || ev->type == WEV_MOUSE)
		return ev->type == WEV_MOUSE ? W_HANDLED : W_IGNORED;
	r = wwidget_handle(&d->d->base, ev);
	if (!(r & W_CLOSE))
		return W_HANDLED;
	key = ev->key;
	yes = d->d->confirmed && (!d->y_only || key == 'y' || key == 'Y');
	/* the stack frees the dialog after this handler: call back first, and
	 * let the callback open another dialog above this one */
	if (d->done != NULL)
		d->done(s->t, d->arg, yes, key);
	return W_HANDLED | W_CLOSE | W_REDRAW;
}

static void dlg_free(struct tui_screen *s)
{
	struct dialog *d = (struct dialog *)s;

	wdialog_free(&d->d);
	free(d);
}

static const struct tui_screen_class dialog_class = {
	.name = "dialog",
	.flags = TS_MODAL,
	.layout = dlg_layout,
	.render = dlg_render,
	.event = dlg_event,
	.touch = dlg_touch,
	.free = dlg_free,
};

void tui_dialog_open(struct tui *t, const char *title, const char *text, const char *hint,
		     bool y_only, void (*done)(struct tui *t, int64_t arg, bool yes, wkey key),
		     int64_t arg)
{
	struct dialog *d = xcalloc(1, sizeof *d);

	tui_screen_init(&d->base, &dialog_class, t);
	d->d = wdialog_new(&t->ui, title, text, hint);
	d->y_only = y_only;
	d->done = done;
	d->arg = arg;
	tui_push(t, &d->base);
}
