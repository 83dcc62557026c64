/*
 * A panel: lines of cells its owner builds from its state (begin, add
 * lines, commit); the window is redrawn only when a line differs from what
 * it shows. The order pages' heads and the fit panel are panels.
 */
#include "widgets/widgets.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "util/util.h"

static void panel_draw(struct wwidget *w)
{
	struct wpanel *p = (struct wpanel *)w;

	for (size_t i = 0; i < p->n && (int)i < w->h; i++)
		wcells_draw(&p->line[i], w->win, (int)i, 0, w->w, w->ui);
}

static void panel_destroy(struct wwidget *w)
{
	struct wpanel *p = (struct wpanel *)w;

	for (size_t i = 0; i < p->cap; i++)
		wcells_free(&p->line[i]);
	for (size_t i = 0; i < p->cap_next; i++)
		wcells_free(&p->next[i]);
	free(p->line);
	free(p->next);
}

static const struct wwidget_class panel_class = {
	.name = "panel",
	.draw = panel_draw,
	.destroy = panel_destroy,
};

void wpanel_init(struct wpanel *p, const struct wui *ui)
{
	memset(p, 0, sizeof *p);
	wwidget_init(&p->base, &panel_class, ui);
}

struct wpanel *wpanel_new(const struct wui *ui)
{
	struct wpanel *p = xcalloc(1, sizeof *p);

	wpanel_init(p, ui);
	return p;
}

void wpanel_free(struct wpanel **p)
{
	struct wwidget *w = *p ? &(*p)->base : NULL;

	wwidget_free(&w);
	*p = NULL;
}

void wpanel_begin(struct wpanel *p)
{
	p->n_next = 0;
}

struct wcells *wpanel_add(struct wpanel *p)
{
	if (p->n_next == p->cap_next) {
		size_t cap = p->cap_next ? p->cap_next * 2 : 16;
		p->next = xreallocarray(p->next, cap, sizeof *p->next);
		for (size_t i = p->cap_next; i < cap; i++)
			wcells_init(&p->next[i], p->base.ui->ascii);
		p->cap_next = cap;
	}
	wcells_reset(&p->next[p->n_next]);
	return &p->next[p->n_next++];
}

void wpanel_text(struct wpanel *p, const char *text, enum wrole role, int indent)
{
	char **lines;
	int width = p->base.w - indent;
	size_t n;

	if (text == NULL || text[0] == '\0')
		return;
	if (width < 8)
		width = 8;
	n = wtext_wrap(text, width, p->base.ui->ascii, &lines);
	for (size_t i = 0; i < n; i++) {
		struct wcells *c = wpanel_add(p);
		wcells_pad(c, indent, WR_NORMAL);
		wcells_add(c, lines[i], role, 0);
	}
	if (n > 0)
		wtext_lines_free(lines, n);
}

bool wcells_equal(const struct wcells *a, const struct wcells *b)
{
	if (a->len != b->len)
		return false;
	for (size_t i = 0; i < a->len; i++) {
		const struct wcell *x = &a->cell[i], *y = &b->cell[i];
		if (x->width != y->width || x->role != y->role || x->attrs != y->attrs ||
		    wcscmp(x->ch, y->ch) != 0)
			return false;
	}
	return true;
}

void wpanel_commit(struct wpanel *p)
{
	bool same = p->n == p->n_next;
	struct wcells *tl;
	size_t tc;

	for (size_t i = 0; i < p->n_next; i++)
		if (p->base.w > 0)
			wcells_fit(&p->next[i], p->base.w, WALIGN_LEFT, WR_NORMAL);
	for (size_t i = 0; same && i < p->n; i++)
		same = wcells_equal(&p->line[i], &p->next[i]);
	if (same)
		return;
	tl = p->line;
	tc = p->cap;
	p->line = p->next;
	p->cap = p->cap_next;
	p->n = p->n_next;
	p->next = tl;
	p->cap_next = tc;
	p->n_next = 0;
	p->base.dirty = true;
}

void wpanel_kv(struct wcells *c, int label_w, const char *label, const char *value,
	   enum wrole vrole, unsigned vattrs)
{
	int w0 = c->width;

	wcells_add(c, label, WR_DIM, 0);
	wcells_pad(c, label_w - (c->width - w0) > 1 ? label_w - (c->width - w0) : 1, WR_NORMAL);
	wcells_add(c, value, vrole, vattrs);
}

