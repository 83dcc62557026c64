/*
 * How a GPU is named on screen: its name, then its architecture as a detail
 * ("H200 Hopper", the seeds' "B300Blackwell Ultra") — unless the name says
 * the architecture already ("RTX PRO 6000 Blackwell", "RTX 6000 Ada": the
 * architecture's first word is a word of the name), where repeating it would
 * only read "RTX PRO 6000 Blackwell Blackwell".
 *
 * The short form is what a narrow column may cut a name down to and no
 * further: the name without the trailing words that only repeat its
 * architecture ("RTX PRO 6000" of "RTX PRO 6000 Blackwell"), followed by
 * "…" so that it never passes for another GPU; a name without such words is
 * its own short form. Words are compared without regard to case; widths are
 * terminal columns. Pure.
 */
#include "view/view.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* Whether the n bytes at w are a whole word of text (case-insensitive). */
static bool has_word(const char *text, const char *w, size_t n)
{
	const char *p = text;

	if (n == 0)
		return false;
	while (*p != '\0') {
		while (is_space(*p))
			p++;
		const char *start = p;
		while (*p != '\0' && !is_space(*p))
			p++;
		if ((size_t)(p - start) == n && strncasecmp(start, w, n) == 0)
			return true;
	}
	return false;
}

const char *view_gpu_detail_ref(const struct catalog_gpu *g)
{
	const char *a = g->arch;
	size_t n = 0;

	if (a == NULL || a[0] == '\0')
		return NULL;
	while (a[n] != '\0' && !is_space(a[n]))
		n++;
	if (g->name != NULL && has_word(g->name, a, n))
		return NULL;
	return a;
}

char *view_gpu_detail(const struct catalog_gpu *g)
{
	const char *a = view_gpu_detail_ref(g);
	return a != NULL ? xstrdup(a) : NULL;
}

size_t view_gpu_short_width(const struct catalog_gpu *g)
{
	const char *name = g->name != NULL ? g->name : "";
	size_t end = strlen(name), full = view_text_width(name);

	/* drop trailing words that are words of the architecture */
	while (g->arch != NULL && end > 0) {
		size_t e = end, s;
		while (e > 0 && is_space(name[e - 1]))
			e--;
		s = e;
		while (s > 0 && !is_space(name[s - 1]))
			s--;
		if (s == 0 || !has_word(g->arch, name + s, e - s))
			break;
		end = s;
	}
	while (end > 0 && is_space(name[end - 1]))
		end--;
	if (end == strlen(name) || end == 0)
		return full;
	char *head = xstrndup(name, end);
	size_t w = view_text_width(head) + 1; /* and "…" */
	free(head);
	return w < full ? w : full;
}
