/*
 * Tabs: one line of labels (" 1 Training "), the active one highlighted.
 * When the labels do not fit, every label is cut to the same largest width
 * that fits (with "…"), and below that only the tabs' first characters (their
 * numbers) are shown. The layout is pure (wtabs_layout) and kept for clicks.
 */
#include "widgets/widgets.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static int label_width(const struct wtabs *t, size_t i)
{
	return wtext_width(t->labels[i], t->base.ui->ascii);
}

/* Total width with labels cut to at most L columns, padded by one space on
 * each side, one space between tabs. */
static int total_for(const struct wtabs *t, int L)
{
	int sum = 0;

	for (size_t i = 0; i < t->n; i++) {
		int lw = label_width(t, i);
		sum += (lw < L ? lw : L) + 2 + (i > 0 ? 1 : 0);
	}
	return sum;
}

void wtabs_layout(const struct wtabs *t, int width, int *x, int *w)
{
	int maxl = 0, L, pos = 0;

	for (size_t i = 0; i < t->n; i++) {
		int lw = label_width(t, i);
		if (lw > maxl)
			maxl = lw;
	}
	for (L = maxl; L > 2 && total_for(t, L) > width; L--)
		;
	if (total_for(t, L) <= width) {
		for (size_t i = 0; i < t->n; i++) {
			int lw = label_width(t, i);
			x[i] = pos;
			w[i] = (lw < L ? lw : L) + 2;
			pos += w[i] + 1;
		}
		return;
	}
	/* numbers only: one column each, one space between */
	for (size_t i = 0; i < t->n; i++) {
		x[i] = pos;
		w[i] = pos + 1 <= width ? 1 : 0;
		pos += 2;
	}
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
			wcells_add(&txt, t->labels[i], r, 0);
			wcells_fit(&txt, t->w[i] - 2, WALIGN_LEFT, r);
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

	for (size_t i = 0; i < t->n; i++)
		free(t->labels[i]);
	free(t->labels);
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
