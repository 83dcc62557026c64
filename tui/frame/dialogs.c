/*
 * The two kinds of screen every part of the TUI uses for overlays: a
 * widget overlay (the help, the column chooser, the language menu) that
 * calls its owner back when it closes, and a confirmation dialog that
 * carries its own callback; the help, made from the key maps of the
 * screens shown (so it can never list a key that does not work); and the
 * message history.
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n/i18n.h"
#include "util/util.h"

/* ---- a widget overlay ------------------------------------------------------------------------ */

struct overlay {
	struct tui_screen base;
	struct wwidget *w;          /* the one widget of the screen's list */
	void (*place)(struct wwidget *w, int lines, int cols);
	void (*closed)(struct tui *t, struct wwidget *w, void *ud);
	void *ud;
	bool is_help;
};

static void ov_layout(struct tui_screen *s, struct tui_area *body)
{
	struct overlay *o = (struct overlay *)s;

	(void)body;
	o->place(o->w, s->t->lines, s->t->cols);
}

/* Keys an overlay leaves to the frame's keys: a redraw, a resize. */
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
	if (o->is_help && ev->type == WEV_KEY && ev->key == 'L')
		r &= ~(unsigned)W_HANDLED;
	return r | W_REDRAW;
}

static const struct tui_screen_class overlay_class = {
	.name = "overlay", .flags = TS_MODAL, .layout = ov_layout, .event = ov_event,
};

struct tui_screen *tui_overlay_new(struct tui *t, struct wwidget *w,
				   void (*place)(struct wwidget *w, int lines, int cols),
				   void (*closed)(struct tui *t, struct wwidget *w, void *ud), void *ud)
{
	struct overlay *o = xcalloc(1, sizeof *o);

	tui_screen_init(&o->base, &overlay_class, t);
	o->w = tui_screen_add(&o->base, w);
	o->place = place;
	o->closed = closed;
	o->ud = ud;
	return &o->base;
}

/* ---- a confirmation dialog --------------------------------------------------------------------- */

struct dialog {
	struct tui_screen base;
	struct wdialog *d;          /* the one widget of the screen's list */
	bool y_only;
	void (*done)(void *ud, int64_t arg, bool yes, wkey key);
	void *ud;
	int64_t arg;
};

static void dlg_layout(struct tui_screen *s, struct tui_area *body)
{
	(void)body;
	wdialog_place(((struct dialog *)s)->d, s->t->lines, s->t->cols);
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
		d->done(d->ud, d->arg, yes, key);
	return W_HANDLED | W_CLOSE | W_REDRAW;
}

static const struct tui_screen_class dialog_class = {
	.name = "dialog", .flags = TS_MODAL, .layout = dlg_layout, .event = dlg_event,
};

struct tui_screen *tui_dialog_open(struct tui *t, const char *title, const char *text,
				   const char *hint, bool y_only,
				   void (*done)(void *ud, int64_t arg, bool yes, wkey key), void *ud,
				   int64_t arg)
{
	struct dialog *d = xcalloc(1, sizeof *d);

	tui_screen_init(&d->base, &dialog_class, t);
	d->d = wdialog_new(&t->ui, title, text, hint);
	tui_screen_add(&d->base, &d->d->base);
	d->y_only = y_only;
	d->done = done;
	d->ud = ud;
	d->arg = arg;
	tui_push(t, &d->base);
	return &d->base;
}

void tui_dialog_set_text(struct tui *t, struct tui_screen *s, const char *text)
{
	struct dialog *d = (struct dialog *)s;

	if (s == NULL || s->cls != &dialog_class || !tui_on_stack(t, s) ||
	    strcmp(d->d->text, text) == 0)
		return;
	free(d->d->text);
	d->d->text = xstrdup(text);
	d->d->base.dirty = true;
	tui_relayout(t); /* its box may grow or shrink */
}

/* ---- the help ------------------------------------------------------------------------------------ */

enum { HELP_MAX_SECTIONS = 12 };

/* s's sections: its own help's, or one per map. */
static size_t sections_of(struct tui_screen *s, struct whelp_section *out, size_t max)
{
	size_t n = 0;

	if (s->cls->help != NULL)
		return s->cls->help(s, out, max);
	for (size_t i = 0; i < s->cls->n_keys && n < max; i++) {
		size_t nm;
		const struct wbinding *m = tui_keys_map(s->t, &s->cls->keys[i], &nm);
		out[n++] = (struct whelp_section){ _(s->cls->keys[i].title), m, nm };
	}
	return n;
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
	struct whelp *h;
	struct overlay *o;

	if (focus != NULL)
		n += sections_of(focus, s + n, HELP_MAX_SECTIONS - 1 - n);
	for (size_t i = t->n_stack; i-- > 0 && focus != NULL && !(focus->cls->flags & TS_OPAQUE);) {
		struct tui_screen *b = t->stack[i];
		if (b == focus || !b->shown || (b->cls->flags & TS_MODAL))
			continue;
		n += sections_of(b, s + n, HELP_MAX_SECTIONS - 1 - n);
		if (b->cls->flags & TS_OPAQUE)
			break;
	}
	if (n_global > 0)
		s[n++] = (struct whelp_section){ _("Everywhere"), global, n_global };
	h = whelp_new(&t->ui, _("gpux keys"),
		      _("\u2191\u2193 PgUp PgDn scroll \u00b7 any other key closes \u00b7 "
			"mouse: click a header to sort, a tab or row to select"),
		      s, n);
	o = (struct overlay *)tui_overlay_new(t, &h->base, help_place, NULL, NULL);
	o->is_help = true;
	tui_push(t, &o->base);
}

/* ---- the message history (tui/frame/messages.c keeps it) ------------------------------------ */


/* "10:21:05" in the local time zone; with the day before it when the
 * message is from another day than now. malloc'ed. */
static char *when(int64_t at_ms, int64_t now_ms)
{
	time_t a = (time_t)(at_ms / 1000), n = (time_t)(now_ms / 1000);
	struct tm ta, tn;
	char buf[32] = "?";

	if (localtime_r(&a, &ta) == NULL || localtime_r(&n, &tn) == NULL)
		return xstrdup(buf);
	if (ta.tm_yday != tn.tm_yday || ta.tm_year != tn.tm_year)
		strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &ta);
	else
		strftime(buf, sizeof buf, "%H:%M:%S", &ta);
	return xstrdup(buf);
}

static void history_place(struct wwidget *w, int lines, int cols)
{
	whelp_place((struct whelp *)w, lines, cols);
	whelp_scroll_end((struct whelp *)w);
}

void tui_messages_open(struct tui *t)
{
	size_t n = t->n_msgs;
	struct whelp_item *items = xcalloc(n + 1, sizeof *items);
	char **left = xcalloc(n + 1, sizeof *left), **text = xcalloc(n + 1, sizeof *text);
	struct timespec ts;
	int64_t now;

	clock_gettime(CLOCK_REALTIME, &ts);
	now = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	struct whelp *h;

	for (size_t i = 0; i < n; i++) {
		const struct tui_msg *m = tui_messages_at(t, i);
		left[i] = when(m->at, now);
		text[i] = m->repeats > 1 ? xasprintf("%s (\u00d7%u)", m->text, m->repeats)
					 : xstrdup(m->text);
		items[i] = (struct whelp_item){ left[i],
			m->kind == TUI_MSG_ERROR ? WR_BAD : m->kind == TUI_MSG_ALERT ? WR_GOOD : WR_DIALOG,
			text[i] };
	}
	if (n == 0)
		items[n++] = (struct whelp_item){ "", WR_DIALOG, _("No messages yet.") };
	h = whelp_new_list(&t->ui, _("Messages"),
			   _("\u2191\u2193 PgUp PgDn scroll \u00b7 any other key closes"), items, n);
	for (size_t i = 0; i < t->n_msgs; i++) {
		free(left[i]);
		free(text[i]);
	}
	free(left);
	free(text);
	free(items);
	tui_push(t, tui_overlay_new(t, &h->base, history_place, NULL, NULL));
}
