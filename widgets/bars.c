/*
 * The one-line bars: the status bar (segments of text with roles and
 * priorities, left ones joined by " · ", right ones right-aligned; when space
 * runs out the least important go first, and what must stay — stale data —
 * is cut rather than dropped) and the F-key bar (htop's FunctionBar: "F1" in the key role,
 * "Help" in the label role, each item padded to a common width).
 *
 * The status bar is rebuilt by its owner every tick (begin/add/commit), but
 * marked dirty only when its contents really changed, so a clock that ticks
 * while nothing changes sends nothing to the terminal.
 */
#include "widgets/widgets.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* ---- status bar ----------------------------------------------------------------- */

static void segs_free(struct wstatus_seg *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i].text);
}

/* Segments of one side (kept ones only) joined by " · ". */
static void join(const struct wstatus *s, const bool *keep, bool right, struct wcells *out)
{
	bool first = true;

	for (size_t i = 0; i < s->n; i++) {
		if (s->seg[i].right != right || !keep[i])
			continue;
		if (!first) {
			wcells_pad(out, 1, WR_STATUS);
			wcells_add_sym(out, WSYM_SEP, WR_STATUS, 0);
			wcells_pad(out, 1, WR_STATUS);
		}
		wcells_add(out, s->seg[i].text, s->seg[i].role, 0);
		first = false;
	}
}

/* Width of the line with the kept segments: " left  right ". */
static int line_width(const struct wstatus *s, const bool *keep, struct wcells *tmp)
{
	int w;

	wcells_reset(tmp);
	join(s, keep, false, tmp);
	w = 1 + tmp->width;
	wcells_reset(tmp);
	join(s, keep, true, tmp);
	if (tmp->width > 0)
		w += 2 + tmp->width + 1;
	return w;
}

void wstatus_render_line(const struct wstatus *s, int width, struct wcells *out)
{
	struct wcells right;
	bool *keep = xcalloc(s->n ? s->n : 1, sizeof *keep);

	for (size_t i = 0; i < s->n; i++)
		keep[i] = true;
	wcells_reset(out);
	out->ascii = s->base.ui->ascii;
	wcells_init(&right, out->ascii);
	/* drop the least important segments until the rest fits (the last one
	 * left is cut rather than dropped: the bar is never blank) */
	for (size_t kept = s->n; kept > 1 && line_width(s, keep, &right) > width; kept--) {
		size_t drop = SIZE_MAX;
		for (size_t i = 0; i < s->n; i++)
			if (keep[i] && s->seg[i].prio < WSTATUS_KEEP &&
			    (drop == SIZE_MAX || s->seg[i].prio <= s->seg[drop].prio))
				drop = i;
		if (drop == SIZE_MAX)
			break;
		keep[drop] = false;
	}
	wcells_pad(out, 1, WR_STATUS);
	join(s, keep, false, out);
	wcells_reset(&right);
	join(s, keep, true, &right);
	if (out->width == 1 && right.width > 0) {
		/* only a right segment is left: it takes the whole bar */
		wcells_cat(out, &right);
		wcells_reset(&right);
	}
	if (right.width > 0)
		wcells_pad(&right, 1, WR_STATUS);
	if (right.width > 0 && right.width + 2 + 2 <= width) {
		/* what must stay and is too long: the left side is cut */
		if (out->width + 2 + right.width > width)
			wcells_fit(out, width - 2 - right.width, WALIGN_LEFT, WR_STATUS);
		wcells_pad(out, width - out->width - right.width, WR_STATUS);
		wcells_cat(out, &right);
	}
	wcells_free(&right);
	free(keep);
	wcells_fit(out, width, WALIGN_LEFT, WR_STATUS);
}

static void status_draw(struct wwidget *w)
{
	struct wstatus *s = (struct wstatus *)w;
	struct wcells line;

	wcells_init(&line, w->ui->ascii);
	wstatus_render_line(s, w->w, &line);
	wcells_draw(&line, w->win, 0, 0, w->w, w->ui);
	wcells_free(&line);
}

static void status_destroy(struct wwidget *w)
{
	struct wstatus *s = (struct wstatus *)w;

	segs_free(s->seg, s->n);
	segs_free(s->next, s->n_next);
	free(s->seg);
	free(s->next);
}

static const struct wwidget_class status_class = {
	.name = "status",
	.draw = status_draw,
	.destroy = status_destroy,
};

struct wstatus *wstatus_new(const struct wui *ui)
{
	struct wstatus *s = xcalloc(1, sizeof *s);

	wwidget_init(&s->base, &status_class, ui);
	return s;
}

void wstatus_free(struct wstatus **s)
{
	struct wwidget *w = *s ? &(*s)->base : NULL;

	wwidget_free(&w);
	*s = NULL;
}

void wstatus_begin(struct wstatus *s)
{
	segs_free(s->next, s->n_next);
	s->n_next = 0;
}

void wstatus_add(struct wstatus *s, const char *text, enum wrole role, bool right)
{
	int prio = role == WR_STATUS_ERROR ? WSTATUS_KEEP
		 : role == WR_STATUS_WARN ? WSTATUS_HIGH : WSTATUS_NORMAL;

	wstatus_add_prio(s, text, role, right, prio);
}

void wstatus_add_prio(struct wstatus *s, const char *text, enum wrole role, bool right, int prio)
{
	if (text == NULL || text[0] == '\0')
		return;
	if (s->n_next == s->cap_next) {
		s->cap_next = s->cap_next ? s->cap_next * 2 : 8;
		s->next = xreallocarray(s->next, s->cap_next, sizeof *s->next);
	}
	s->next[s->n_next++] = (struct wstatus_seg){ xstrdup(text), role, right, prio };
}

void wstatus_commit(struct wstatus *s)
{
	bool same = s->n == s->n_next;

	for (size_t i = 0; same && i < s->n; i++)
		same = s->seg[i].role == s->next[i].role && s->seg[i].right == s->next[i].right &&
		       s->seg[i].prio == s->next[i].prio && strcmp(s->seg[i].text, s->next[i].text) == 0;
	if (same) {
		wstatus_begin(s);
		return;
	}
	/* swap: next becomes current, the old current is emptied */
	struct wstatus_seg *tseg = s->seg;
	size_t tn = s->n, tcap = s->cap;
	s->seg = s->next;
	s->n = s->n_next;
	s->cap = s->cap_next;
	s->next = tseg;
	s->cap_next = tcap;
	s->n_next = tn;
	wstatus_begin(s);
	s->base.dirty = true;
}

/* ---- F-key bar ------------------------------------------------------------------- */

/* The key an item offers: its own, or for an F-key the terminal lacks the
 * key the application says does the same (WKEY_NONE: the item is left out). */
static wkey item_key(const struct wfkeys *f, size_t i)
{
	const struct wui *ui = f->base.ui;
	wkey k = f->items[i].key;
	int n = k - WKEY_F1 + 1;

	if (n < 1 || n > 31 || (ui->fkeys & (UINT32_C(1) << n)))
		return k;
	return ui->key_alt != NULL ? ui->key_alt(ui->key_alt_ctx, k) : k;
}

/* Refresh the shown labels from the keys offered. */
static void fkeys_resolve(struct wfkeys *f)
{
	for (size_t i = 0; i < f->n; i++) {
		struct wfkeys_item *it = &f->items[i];
		wkey k = item_key(f, i);
		if (k == it->shown)
			continue;
		free(it->shown_label);
		it->shown_label = k != it->key && k != WKEY_NONE ? wkey_name(k, f->base.ui->ascii) : NULL;
		it->shown = k;
	}
}

static const char *item_label(const struct wfkeys_item *it)
{
	return it->shown_label != NULL ? it->shown_label : it->label;
}

/* Item i's layout: key label then text padded to 6 columns (htop). An item
 * that does not fit whole is left out (a lone "F3" or "Filt…" says nothing),
 * except the first, cut; so is an F-key the terminal cannot send, unless
 * another key does the same (shown instead). */
static void fkeys_layout(struct wfkeys *f, int width)
{
	int pos = 0;

	fkeys_resolve(f);
	for (size_t i = 0; i < f->n; i++) {
		if (f->items[i].shown == WKEY_NONE) {
			f->x[i] = pos;
			f->w[i] = 0;
			continue;
		}
		int kw = wtext_width(item_label(&f->items[i]), f->base.ui->ascii);
		int tw = wtext_width(f->items[i].text, f->base.ui->ascii);
		int w = kw + (tw + 1 < 6 ? 6 : tw + 1);
		f->x[i] = pos;
		if (pos + kw + tw <= width) {
			f->w[i] = pos + w <= width ? w : width - pos; /* whole, padding or not */
			pos += w;
		} else {
			f->w[i] = i == 0 && width > 0 ? width : 0;
			pos = width > pos ? width : pos; /* and none after it */
		}
	}
}

static void fkeys_draw(struct wwidget *w)
{
	struct wfkeys *f = (struct wfkeys *)w;
	struct wcells line, item;

	fkeys_layout(f, w->w);
	wcells_init(&line, w->ui->ascii);
	wcells_init(&item, w->ui->ascii);
	for (size_t i = 0; i < f->n; i++) {
		if (f->w[i] <= 0) {
			if (f->items[i].shown == WKEY_NONE)
				continue;   /* a key the terminal lacks */
			break;          /* no room for it, nor for those after it */
		}
		wcells_reset(&item);
		wcells_add(&item, item_label(&f->items[i]), WR_FKEY_KEY, 0);
		int kw = item.width;
		struct wcells txt;
		wcells_init(&txt, w->ui->ascii);
		wcells_add(&txt, f->items[i].text, WR_FKEY_LABEL, 0);
		wcells_fit(&txt, f->w[i] - kw, WALIGN_LEFT, WR_FKEY_LABEL);
		wcells_cat(&item, &txt);
		wcells_free(&txt);
		wcells_fit(&item, f->w[i], WALIGN_LEFT, WR_FKEY_LABEL);
		wcells_cat(&line, &item);
	}
	if (line.width < w->w)
		wcells_pad(&line, w->w - line.width, WR_FKEY_LABEL);
	wcells_draw(&line, w->win, 0, 0, w->w, w->ui);
	wcells_free(&line);
	wcells_free(&item);
}

static unsigned fkeys_handle(struct wwidget *w, const struct wevent *ev)
{
	struct wfkeys *f = (struct wfkeys *)w;

	if (ev->type != WEV_MOUSE || ev->mouse != WM_CLICK || !wwidget_contains(w, ev->y, ev->x))
		return W_IGNORED;
	fkeys_layout(f, w->w);
	for (size_t i = 0; i < f->n; i++) {
		int lx = ev->x - w->x;
		if (f->w[i] > 0 && lx >= f->x[i] && lx < f->x[i] + f->w[i]) {
			f->clicked = f->items[i].shown;
			return W_HANDLED | W_ACTION;
		}
	}
	return W_HANDLED;
}

static void fkeys_destroy(struct wwidget *w)
{
	struct wfkeys *f = (struct wfkeys *)w;

	wfkeys_clear(f);
	free(f->items);
	free(f->x);
	free(f->w);
}

static const struct wwidget_class fkeys_class = {
	.name = "fkeys",
	.draw = fkeys_draw,
	.handle = fkeys_handle,
	.destroy = fkeys_destroy,
};

struct wfkeys *wfkeys_new(const struct wui *ui)
{
	struct wfkeys *f = xcalloc(1, sizeof *f);

	wwidget_init(&f->base, &fkeys_class, ui);
	return f;
}

void wfkeys_free(struct wfkeys **f)
{
	struct wwidget *w = *f ? &(*f)->base : NULL;

	wwidget_free(&w);
	*f = NULL;
}

void wfkeys_add(struct wfkeys *f, wkey key, const char *label, const char *text)
{
	f->items = xreallocarray(f->items, f->n + 1, sizeof *f->items);
	f->x = xreallocarray(f->x, f->n + 1, sizeof *f->x);
	f->w = xreallocarray(f->w, f->n + 1, sizeof *f->w);
	f->items[f->n] = (struct wfkeys_item){ key, xstrdup(label), xstrdup(text), key, NULL };
	f->x[f->n] = f->w[f->n] = 0;
	f->n++;
	f->base.dirty = true;
}

static bool fkeys_same(const struct wfkeys *f, const wkey *keys, const char *const *texts,
		       size_t n)
{
	if (f->n != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (f->items[i].key != keys[i] || strcmp(f->items[i].text, texts[i]) != 0 ||
		    f->items[i].shown != item_key(f, i))
			return false;
	return true;
}

void wfkeys_set(struct wfkeys *f, const wkey *keys, const char *const *texts, size_t n)
{
	if (fkeys_same(f, keys, texts, n))
		return;
	wfkeys_clear(f);
	for (size_t i = 0; i < n; i++) {
		char *label = wkey_name(keys[i], f->base.ui->ascii);
		wfkeys_add(f, keys[i], label, texts[i]);
		free(label);
	}
}

void wfkeys_clear(struct wfkeys *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->items[i].label);
		free(f->items[i].text);
		free(f->items[i].shown_label);
	}
	f->n = 0;
	f->base.dirty = true;
}
