/*
 * exchange/trig.c — the price-trigger index (trig.h). A set is an array of
 * series sorted by key; each series has two arrays of conditions whose
 * tails are what a price meets (see trig.h).
 */
#include "exchange/trig.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

struct cond { int64_t threshold, id; };

struct side {
	struct cond *v;
	size_t n, cap;
};

struct series {
	uint32_t key;
	struct side s[2];            /* [TRIG_LTE] ascending, [TRIG_GTE] descending */
};

struct trig_set {
	struct series *v;
	uint32_t *keys;              /* the series' keys, for trig_keys */
	size_t n, cap;
};

void trig_hits_reset(struct trig_hits *h)
{
	h->n = 0;
}

void trig_hits_free(struct trig_hits *h)
{
	free(h->v);
	memset(h, 0, sizeof *h);
}

struct trig_set *trig_set_new(void)
{
	return xcalloc(1, sizeof(struct trig_set));
}

void trig_set_clear(struct trig_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		for (int d = 0; d < 2; d++)
			free(s->v[i].s[d].v);
	s->n = 0;
}

void trig_set_free(struct trig_set **sp)
{
	struct trig_set *s = *sp;
	if (!s)
		return;
	trig_set_clear(s);
	free(s->v);
	free(s->keys);
	free(s);
	*sp = NULL;
}

size_t trig_set_size(const struct trig_set *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++)
		n += s->v[i].s[0].n + s->v[i].s[1].n;
	return n;
}

size_t trig_keys(const struct trig_set *s, const uint32_t **keys)
{
	*keys = s->keys;
	return s->n;
}

/* The index of key's series, or where it would go (*found false). */
static size_t series_at(const struct trig_set *s, uint32_t key, bool *found)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->v[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < s->n && s->v[lo].key == key;
	return lo;
}

static struct series *series_get(struct trig_set *s, uint32_t key, bool add)
{
	bool found;
	size_t i = series_at(s, key, &found);
	if (found)
		return &s->v[i];
	if (!add)
		return NULL;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = xreallocarray(s->v, s->cap, sizeof *s->v);
		s->keys = xreallocarray(s->keys, s->cap, sizeof *s->keys);
	}
	memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof *s->v);
	memmove(&s->keys[i + 1], &s->keys[i], (s->n - i) * sizeof *s->keys);
	memset(&s->v[i], 0, sizeof s->v[i]);
	s->v[i].key = key;
	s->keys[i] = key;
	s->n++;
	return &s->v[i];
}

/* Does threshold t come before u in side d's order? */
static bool before(enum trig_dir d, int64_t t, int64_t u)
{
	return d == TRIG_LTE ? t < u : t > u;
}

/* The first position whose threshold does not come before t. */
static size_t lower(const struct side *sd, enum trig_dir d, int64_t t)
{
	size_t lo = 0, hi = sd->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (before(d, sd->v[mid].threshold, t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void trig_add(struct trig_set *s, uint32_t key, enum trig_dir d, int64_t threshold, int64_t id)
{
	struct side *sd = &series_get(s, key, true)->s[d];
	if (sd->n == sd->cap) {
		sd->cap = sd->cap ? 2 * sd->cap : 8;
		sd->v = xreallocarray(sd->v, sd->cap, sizeof *sd->v);
	}
	size_t i = lower(sd, d, threshold);
	memmove(&sd->v[i + 1], &sd->v[i], (sd->n - i) * sizeof *sd->v);
	sd->v[i] = (struct cond){ threshold, id };
	sd->n++;
}

bool trig_remove(struct trig_set *s, uint32_t key, enum trig_dir d, int64_t threshold, int64_t id)
{
	struct series *se = series_get(s, key, false);
	if (!se)
		return false;
	struct side *sd = &se->s[d];
	for (size_t i = lower(sd, d, threshold); i < sd->n && sd->v[i].threshold == threshold; i++) {
		if (sd->v[i].id == id) {
			memmove(&sd->v[i], &sd->v[i + 1], (sd->n - i - 1) * sizeof *sd->v);
			sd->n--;
			return true;
		}
	}
	return false;
}

/* Where the tail of conditions that price v meets begins in side d. */
static size_t tail_of(const struct side *sd, enum trig_dir d, int64_t v)
{
	/* LTE, ascending: met when threshold >= v; GTE, descending: threshold <= v */
	return lower(sd, d, v);
}

bool trig_met(const struct trig_set *s, uint32_t key, int64_t v)
{
	bool found;
	size_t i = series_at(s, key, &found);
	if (!found)
		return false;
	const struct series *se = &s->v[i];
	const struct side *lte = &se->s[TRIG_LTE], *gte = &se->s[TRIG_GTE];
	return (lte->n && lte->v[lte->n - 1].threshold >= v) ||
	       (gte->n && gte->v[gte->n - 1].threshold <= v);
}

static int cmp_hit(const void *a, const void *b)
{
	const struct trig_hit *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

size_t trig_take(struct trig_set *s, uint32_t key, int64_t v, struct trig_hits *out)
{
	if (!trig_met(s, key, v))
		return 0;
	struct series *se = series_get(s, key, false);
	size_t first = out->n;
	for (int d = 0; d < 2; d++) {
		struct side *sd = &se->s[d];
		size_t from = tail_of(sd, (enum trig_dir)d, v);
		for (size_t i = from; i < sd->n; i++) {
			if (out->n == out->cap) {
				out->cap = out->cap ? 2 * out->cap : 16;
				out->v = xreallocarray(out->v, out->cap, sizeof *out->v);
			}
			out->v[out->n++] = (struct trig_hit){
				.key = key, .dir = (enum trig_dir)d, .threshold = sd->v[i].threshold,
				.id = sd->v[i].id,
			};
		}
		sd->n = from;
	}
	qsort(out->v + first, out->n - first, sizeof *out->v, cmp_hit);
	return out->n - first;
}
