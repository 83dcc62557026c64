/*
 * The memo of display texts: an open-addressing hash table from a value's
 * 64-bit key to its formatted text, grown at half full. A table of 100,000
 * GPUs shows a few hundred distinct memory sizes and prices; each is
 * formatted (and allocated) once.
 */
#include "view/internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static size_t slot_of(uint64_t key, size_t mask)
{
	key ^= key >> 33;   /* the murmur3 finaliser */
	key *= UINT64_C(0xff51afd7ed558ccd);
	key ^= key >> 33;
	key *= UINT64_C(0xc4ceb9fe1a85ec53);
	key ^= key >> 33;
	return (size_t)key & mask;
}

uint64_t view_memo_key(double v)
{
	uint64_t b;

	memcpy(&b, &v, sizeof b);
	return b;
}

bool view_memo_find(const struct view_memo *m, uint64_t key, struct view_memo_text *out)
{
	if (m->cap == 0)
		return false;
	for (size_t h = slot_of(key, m->cap - 1); m->texts[h] != NULL; h = (h + 1) & (m->cap - 1)) {
		if (m->keys[h] == key) {
			out->text = m->texts[h];
			out->width = m->widths[h];
			return true;
		}
	}
	return false;
}

static void insert(struct view_memo *m, uint64_t key, char *text, unsigned width)
{
	size_t h = slot_of(key, m->cap - 1);

	while (m->texts[h] != NULL)
		h = (h + 1) & (m->cap - 1);
	m->keys[h] = key;
	m->texts[h] = text;
	m->widths[h] = width;
	m->n++;
}

struct view_memo_text view_memo_put(struct view_memo *m, uint64_t key, char *text)
{
	struct view_memo_text r = { text, (unsigned)view_text_width(text) };

	if (2 * (m->n + 1) > m->cap) {
		struct view_memo old = *m;
		m->cap = m->cap != 0 ? 2 * m->cap : 16;
		m->n = 0;
		m->keys = xcalloc(m->cap, sizeof *m->keys);
		m->texts = xcalloc(m->cap, sizeof *m->texts);
		m->widths = xcalloc(m->cap, sizeof *m->widths);
		for (size_t i = 0; i < old.cap; i++)
			if (old.texts[i] != NULL)
				insert(m, old.keys[i], old.texts[i], old.widths[i]);
		free(old.keys);
		free(old.texts);
		free(old.widths);
	}
	insert(m, key, text, r.width);
	return r;
}

void view_memo_clear(struct view_memo *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->texts[i]);
	free(m->keys);
	free(m->texts);
	free(m->widths);
	memset(m, 0, sizeof *m);
}
