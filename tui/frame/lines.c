/*
 * Lines of cells (tui/frame/lines.h): a growable list of struct wcells, and
 * text wrapped into it.
 */
#include "tui/frame/lines.h"

#include <stdlib.h>

#include "util/util.h"

struct wcells *tui_lines_add(struct tui_lines *ls)
{
	if (ls->n == ls->cap) {
		ls->cap = ls->cap ? ls->cap * 2 : 16;
		ls->l = xreallocarray(ls->l, ls->cap, sizeof *ls->l);
	}
	wcells_init(&ls->l[ls->n], ls->ascii);
	return &ls->l[ls->n++];
}

void tui_lines_free(struct tui_lines *ls)
{
	for (size_t i = 0; i < ls->n; i++)
		wcells_free(&ls->l[i]);
	free(ls->l);
	ls->l = NULL;
	ls->n = ls->cap = 0;
}

/* Move src's lines [from, from + n) to the end of dst. */
void tui_lines_take(struct tui_lines *dst, struct tui_lines *src, size_t from, size_t n)
{
	for (size_t i = from; i < from + n && i < src->n; i++) {
		struct wcells *d = tui_lines_add(dst);
		wcells_free(d);
		*d = src->l[i];
		wcells_init(&src->l[i], src->ascii);
	}
}

/* Text wrapped into at most max lines of width w, each in role. */
void tui_lines_wrap(struct tui_lines *ls, const char *text, int w, size_t max, enum wrole role,
		    int indent)
{
	char **wl;
	size_t n;

	if (text == NULL || w - indent < 4 || max == 0)
		return;
	n = wtext_wrap(text, w - indent, ls->ascii, &wl);
	for (size_t i = 0; i < n && i < max; i++) {
		struct wcells *c = tui_lines_add(ls);
		wcells_pad(c, indent, WR_NORMAL);
		wcells_add(c, wl[i], role, 0);
		if (i + 1 == max && i + 1 < n) {
			/* more than fits: the last line ends with "…" */
			wcells_pad(c, 1, role);
			wcells_add(c, wl[i + 1], role, 0);
		}
		wcells_fit(c, w, WALIGN_LEFT, WR_NORMAL);
	}
	wtext_lines_free(wl, n);
}

