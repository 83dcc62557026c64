/*
 * Tabs: one line of labels (" 1 LLM training "), the active one highlighted.
 * A tab may have a short label too ("1 Training"). When the full labels do
 * not fit, the active tab keeps its full label and the others show their
 * short ones; then every tab its short one; then the active tab stays whole
 * and the others are cut alike (with "…", never below "2 Fi…"); then the
 * others show their numbers only; at last every tab its number alone. The
 * layout is pure (wtabs_layout) and kept for clicks; what a tab shows follows
 * from its width alone, so drawing and clicking always agree.
 */
#include "widgets/widgets.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

enum { TAB_MIN_CUT = 5 }; /* a cut label keeps at least "2 Fi…" */

static int text_width(const struct wtabs *t, const char *s)
{
	return wtext_width(s, t->base.ui->ascii);
}

static const char *short_of(const struct wtabs *t, size_t i)
{
	return t->shorts != NULL && t->shorts[i] != NULL ? t->shorts[i] : t->labels[i];
}

/* Width of the short label, or the full one when that is not longer. */
static int short_width(const struct wtabs *t, size_t i)
{
	int fw = text_width(t, t->labels[i]), sw = text_width(t, short_of(t, i));

	return sw < fw ? sw : fw;
}

/* Width of the label's first word (the tab's number). */
static int number_width(const struct wtabs *t, size_t i)
{
	const char *l = t->labels[i];
	size_t n = strcspn(l, " ");
	char *num = xstrndup(l, n > 0 ? n : strlen(l));
	int w = text_width(t, num);

	free(num);
	return w > 0 ? w : 1;
}

/* Place tabs of text widths tw[] (padded by a space each side, one space
 * between); false when they do not fit. */
static bool place(const struct wtabs *t, const int *tw, int width, int *x, int *w)
{
	int pos = 0;

	for (size_t i = 0; i < t->n; i++)
		pos += tw[i] + 2 + (i > 0 ? 1 : 0);
	if (pos > width)
		return false;
	pos = 0;
	for (size_t i = 0; i < t->n; i++) {
		x[i] = pos;
		w[i] = tw[i] + 2;
		pos += w[i] + 1;
	}
	return true;
}

void wtabs_layout(const struct wtabs *t, int width, int *x, int *w)
{
	int *tw = xcalloc(t->n ? t->n : 1, sizeof *tw);
	int max_short = 0, pos = 0;
	bool done = false;

	/* every full label; the active one full and the others short; all short */
	for (int mode = 0; mode < 3 && !done; mode++) {
		for (size_t i = 0; i < t->n; i++) {
			bool full = mode == 0 || (mode == 1 && i == t->active);
			tw[i] = full ? text_width(t, t->labels[i]) : short_width(t, i);
		}
		done = place(t, tw, width, x, w);
	}
	for (size_t i = 0; i < t->n; i++) {
		int sw = short_width(t, i);
		if (i != t->active && sw > max_short)
			max_short = sw;
	}
	/* the active one short and whole, the others cut alike */
	for (int L = max_short - 1; L >= TAB_MIN_CUT && !done; L--) {
		for (size_t i = 0; i < t->n; i++) {
			int sw = short_width(t, i);
			tw[i] = i == t->active || sw <= L ? sw : L;
		}
		done = place(t, tw, width, x, w);
	}
	/* the active one short, the others their numbers */
	if (!done) {
		for (size_t i = 0; i < t->n; i++)
			tw[i] = i == t->active ? short_width(t, i) : number_width(t, i);
		done = place(t, tw, width, x, w);
	}
	free(tw);
	if (done)
		return;
	/* numbers only: one column each, one space between */
	for (size_t i = 0; i < t->n; i++) {
		x[i] = pos;
		w[i] = pos + 1 <= width ? 1 : 0;
		pos += 2;
	}
}

/* What tab i shows in w columns (its padding excluded), into lab. */
static void tab_text(const struct wtabs *t, size_t i, int avail, enum wrole r, struct wcells *lab)
{
	const char *full = t->labels[i], *sh = short_of(t, i);

	if (text_width(t, sh) > text_width(t, full))
		sh = full;
	if (text_width(t, full) <= avail) {
		wcells_add(lab, full, r, 0);
	} else if (text_width(t, sh) <= avail || avail >= TAB_MIN_CUT) {
		wcells_add(lab, sh, r, 0);
	} else {
		size_t n = strcspn(full, " ");
		wcells_addn(lab, full, n > 0 ? n : strlen(full), r, 0);
	}
	wcells_fit(lab, avail, WALIGN_LEFT, r);
}

static void tabs_draw(struct wwidget *wd)
{
	struct wtabs *t = (struct wtabs *)wd;
	struct wcells line, lab;

	wtabs_layout(t, wd->w, t->x, t->w);
	wcells_init(&line, wd->ui->ascii);
	wcells_init(&lab, wd->ui->ascii);
	for (size_t i = 0; i < t->n; i++) {
		enum wrole r = i == t->active ? WR_TAB_ACTIVE : WR_TAB;
		if (t->w[i] <= 0)
			break;
		if (line.width < t->x[i])
			wcells_pad(&line, t->x[i] - line.width, WR_TAB);
		wcells_reset(&lab);
		if (t->w[i] == 1) {
			/* the label's first character (its number) */
			wcells_add(&lab, t->labels[i], r, 0);
			if (lab.len > 1) {
				lab.len = 1;
				lab.width = lab.cell[0].width;
			}
			wcells_fit(&lab, 1, WALIGN_LEFT, r);
		} else {
			wcells_pad(&lab, 1, r);
			struct wcells txt;
			wcells_init(&txt, wd->ui->ascii);
			tab_text(t, i, t->w[i] - 2, r, &txt);
			wcells_cat(&lab, &txt);
			wcells_free(&txt);
			wcells_pad(&lab, 1, r);
		}
		if (i == t->active)
			wcells_recolor(&lab, WR_TAB_ACTIVE, NULL, 0);
		wcells_cat(&line, &lab);
	}
	if (line.width < wd->w)
		wcells_pad(&line, wd->w - line.width, WR_TAB);
	wcells_draw(&line, wd->win, 0, 0, wd->w, wd->ui);
	wcells_free(&line);
	wcells_free(&lab);
}

static unsigned tabs_handle(struct wwidget *wd, const struct wevent *ev)
{
	struct wtabs *t = (struct wtabs *)wd;

	if (ev->type != WEV_MOUSE || ev->mouse != WM_CLICK || !wwidget_contains(wd, ev->y, ev->x))
		return W_IGNORED;
	wtabs_layout(t, wd->w, t->x, t->w);
	for (size_t i = 0; i < t->n; i++) {
		int lx = ev->x - wd->x;
		if (t->w[i] > 0 && lx >= t->x[i] && lx < t->x[i] + t->w[i]) {
			t->clicked = i;
			return W_HANDLED | W_ACTION;
		}
	}
	return W_HANDLED;
}

static void tabs_destroy(struct wwidget *wd)
{
	struct wtabs *t = (struct wtabs *)wd;

	for (size_t i = 0; i < t->n; i++) {
		free(t->labels[i]);
		free(t->shorts[i]);
	}
	free(t->labels);
	free(t->shorts);
	free(t->x);
	free(t->w);
}

static const struct wwidget_class tabs_class = {
	.name = "tabs",
	.draw = tabs_draw,
	.handle = tabs_handle,
	.destroy = tabs_destroy,
};

struct wtabs *wtabs_new(const struct wui *ui, const char *const *labels, size_t n)
{
	struct wtabs *t = xcalloc(1, sizeof *t);

	wwidget_init(&t->base, &tabs_class, ui);
	t->n = n;
	t->labels = xcalloc(n ? n : 1, sizeof *t->labels);
	t->shorts = xcalloc(n ? n : 1, sizeof *t->shorts);
	t->x = xcalloc(n ? n : 1, sizeof *t->x);
	t->w = xcalloc(n ? n : 1, sizeof *t->w);
	for (size_t i = 0; i < n; i++)
		t->labels[i] = xstrdup(labels[i]);
	return t;
}

void wtabs_free(struct wtabs **t)
{
	struct wwidget *w = *t ? &(*t)->base : NULL;

	wwidget_free(&w);
	*t = NULL;
}

void wtabs_set_active(struct wtabs *t, size_t i)
{
	if (i < t->n && i != t->active) {
		t->active = i;
		t->base.dirty = true;
	}
}

void wtabs_set_short(struct wtabs *t, size_t i, const char *label)
{
	if (i >= t->n)
		return;
	free(t->shorts[i]);
	t->shorts[i] = label != NULL ? xstrdup(label) : NULL;
	t->base.dirty = true;
}
