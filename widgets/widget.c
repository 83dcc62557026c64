/*
 * The widget base: one curses window per widget, a dirty flag (contents must
 * be redrawn from state) and a touched flag (contents are fine but must be
 * copied to the virtual screen again, e.g. after an overlay closed). Drawing
 * happens only in wwidget_render(), which the main loop calls once per frame
 * per widget before its single doupdate(); a widget that is neither dirty nor
 * touched costs nothing and sends nothing to the terminal.
 */
#include "widgets/widgets.h"

#include <stdlib.h>

#include "util/util.h"

void wwidget_init(struct wwidget *w, const struct wwidget_class *cls, const struct wui *ui)
{
	w->cls = cls;
	w->ui = ui;
	w->win = NULL;
	w->y = w->x = w->h = w->w = 0;
	w->dirty = true;
	w->touched = false;
	w->focused = false;
}

void wwidget_hide(struct wwidget *w)
{
	if (w->win != NULL)
		delwin(w->win);
	w->win = NULL;
	w->h = w->w = 0;
}

int wwidget_place(struct wwidget *w, int y, int x, int h, int wd)
{
	if (h <= 0 || wd <= 0 || y < 0 || x < 0) {
		wwidget_hide(w);
		return 0;
	}
	if (w->win != NULL && w->y == y && w->x == x && w->h == h && w->w == wd) {
		w->dirty = true;
		return 0;
	}
	wwidget_hide(w);
	w->win = newwin(h, wd, y, x);
	if (w->win == NULL)
		return -1;
	/* the terminal cursor stays where the frame's focused field puts it */
	leaveok(w->win, TRUE);
	w->y = y;
	w->x = x;
	w->h = h;
	w->w = wd;
	w->dirty = true;
	return 0;
}

void wwidget_dirty(struct wwidget *w)
{
	w->dirty = true;
}

void wwidget_touch(struct wwidget *w)
{
	w->touched = true;
}

bool wwidget_render(struct wwidget *w)
{
	if (w->win == NULL)
		return false;
	if (w->dirty) {
		werase(w->win);
		if (w->cls->draw != NULL)
			w->cls->draw(w);
		w->dirty = false;
		w->touched = true;
	}
	if (!w->touched)
		return false;
	touchwin(w->win);
	wnoutrefresh(w->win);
	w->touched = false;
	return true;
}

unsigned wwidget_handle(struct wwidget *w, const struct wevent *ev)
{
	if (w == NULL || w->cls->handle == NULL)
		return W_IGNORED;
	return w->cls->handle(w, ev);
}

bool wwidget_place_cursor(struct wwidget *w)
{
	int y, x;

	if (w->win == NULL || !w->focused || w->cls->cursor == NULL || !w->cls->cursor(w, &y, &x))
		return false;
	wmove(w->win, y - w->y, x - w->x);
	wnoutrefresh(w->win);
	return true;
}

bool wwidget_contains(const struct wwidget *w, int y, int x)
{
	return w->win != NULL && y >= w->y && y < w->y + w->h && x >= w->x && x < w->x + w->w;
}

void wwidget_set_focus(struct wwidget *w, bool focused)
{
	if (w->focused != focused) {
		w->focused = focused;
		w->dirty = true;
	}
}

void wwidget_free(struct wwidget **pw)
{
	struct wwidget *w = *pw;

	if (w == NULL)
		return;
	if (w->cls->destroy != NULL)
		w->cls->destroy(w);
	wwidget_hide(w);
	free(w);
	*pw = NULL;
}
