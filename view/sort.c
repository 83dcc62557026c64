/*
 * The sort of the table: no comparison of rows at all. Each sort turns every
 * row into one 64-bit key whose unsigned order is the column's order (a
 * number's bits mapped so that integer order is numeric order, negated for
 * descending; a text's rank among the column's texts), places the rows at
 * their tie-break position (the rank of their GPU name), moves the rows
 * without a value to the end, and orders the rest with a stable LSD radix
 * sort on the key, so ties keep the tie-break order. The rows are then
 * permuted in place.
 *
 * The tie-break order (GPU name case-insensitively, then exactly, then id,
 * then catalogue order) is computed once per table with a multikey
 * quicksort (Bentley & Sedgewick) on the case-folded bytes and kept; a text
 * column's ranks likewise, until its cells are refilled. Case folding is
 * ASCII's, which is what strcasecmp does in the C and UTF-8 locales: bytes
 * of multibyte characters compare as they are.
 */
#include "view/internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* A string to rank: its bytes, the GPU id that breaks ties of equal names
 * (NULL for a column's texts), and the row's catalogue position. */
struct sitem {
	uint64_t chunk;          /* the folded bytes d..d+7 of s, big-endian */
	uint64_t next;           /* bytes d+8..d+15, when d is a multiple of 16 */
	const unsigned char *s;
	const char *id;
	uint32_t seq;
};

/* A row on its way through the sort: its key and its index in t->rows. */
struct rec {
	uint64_t key;
	uint32_t idx;
	uint32_t unknown;
};

struct view_sort_cache {
	size_t n;
	uint32_t *name_rank;   /* by seq: position in the tie-break order (unique) */
	uint32_t *name_dense;  /* by seq: rank of the name (equal names, equal rank) */
	size_t n_cols;
	uint32_t **text_rank;  /* per column, by seq: rank of the cell's text */
	struct rec *a, *b;     /* scratch, n each */
};

/* ---- ranking strings -------------------------------------------------------------- */

static inline unsigned fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + 32u : c;
}

/* Folded comparison of two strings from byte d on. */
static int cmp_folded(const unsigned char *x, const unsigned char *y, size_t d)
{
	for (x += d, y += d;; x++, y++) {
		unsigned a = fold(*x), b = fold(*y);
		if (a != b)
			return a < b ? -1 : 1;
		if (a == 0)
			return 0;
	}
}

/* Order of strings equal when folded: exactly, then id, then catalogue. */
static int cmp_tie(const void *pa, const void *pb)
{
	const struct sitem *a = pa, *b = pb;
	int d = strcmp((const char *)a->s, (const char *)b->s);

	if (d == 0 && a->id != NULL && b->id != NULL)
		d = strcmp(a->id, b->id);
	if (d == 0)
		d = a->seq < b->seq ? -1 : a->seq > b->seq;
	return d;
}

static void swap_items(struct sitem *a, struct sitem *b)
{
	struct sitem t = *a;
	*a = *b;
	*b = t;
}

/* A run of items equal when folded, at `a` (eqf marks the same positions):
 * order it by cmp_tie and mark all but its first as equal to the one before. */
static void tie_run(struct sitem *a, size_t n, unsigned char *eqf)
{
	if (n < 2)
		return;
	qsort(a, n, sizeof *a, cmp_tie);
	memset(eqf + 1, 1, n - 1);
}

/* Folded comparison from byte d: the chunks first, the strings after them. */
static int cmp_items(const struct sitem *x, const struct sitem *y, size_t d)
{
	if (x->chunk != y->chunk)
		return x->chunk < y->chunk ? -1 : 1;
	if ((x->chunk & 0xFF) == 0)
		return 0;               /* both ended within these 8 bytes */
	if (d % 16 != 0)
		return cmp_folded(x->s, y->s, d + 8);
	if (x->next != y->next)
		return x->next < y->next ? -1 : 1;
	if ((x->next & 0xFF) == 0)
		return 0;
	return cmp_folded(x->s, y->s, d + 16);
}

/* Small ranges: insertion sort on the folded bytes from d, then the runs of
 * folded-equal items in tie order. */
static void small_sort(struct sitem *a, size_t n, size_t d, unsigned char *eqf)
{
	size_t i, j, start;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && cmp_items(&a[j - 1], &a[j], d) > 0; j--)
			swap_items(&a[j - 1], &a[j]);
	for (start = 0, i = 1; i <= n; i++) {
		if (i < n && cmp_items(&a[i - 1], &a[i], d) == 0)
			continue;
		tie_run(a + start, i - start, eqf + start);
		start = i;
	}
}

/* Bytes p[0..7] folded, big-endian, zeros after the end of the string. */
static uint64_t chunk_at(const unsigned char *p)
{
	uint64_t c = 0;
	unsigned k = 0;

	for (; k < 8 && p[k] != '\0'; k++)
		c = c << 8 | fold(p[k]);
	return k == 0 ? 0 : c << (8 * (8 - k));
}

/* Every item's chunks at byte d, a multiple of 16 (the strings have not
 * ended before d): sixteen bytes per visit to a string, which is the
 * expensive part (the strings are scattered in memory). */
static void load_chunks(struct sitem *a, size_t n, size_t d)
{
	for (size_t i = 0; i < n; i++) {
		a[i].chunk = chunk_at(a[i].s + d);
		a[i].next = (a[i].chunk & 0xFF) != 0 ? chunk_at(a[i].s + d + 8) : 0;
	}
}

/* Go from byte d to d+8 (the items' chunks all equal and not ended). */
static void next_chunks(struct sitem *a, size_t n, size_t d)
{
	if (d % 16 != 0) {
		load_chunks(a, n, d + 8);
		return;
	}
	for (size_t i = 0; i < n; i++)
		a[i].chunk = a[i].next;
}

static uint64_t median3(const struct sitem *a, size_t n)
{
	uint64_t x = a[0].chunk, y = a[n / 2].chunk, z = a[n - 1].chunk;

	if (x > y) { uint64_t t = x; x = y; y = t; }
	if (y > z) y = z;
	return x > y ? x : y;
}

/* Multikey quicksort of a[0..n) on the folded bytes from d, eight at a
 * time (each item's chunk holds its bytes d..d+7, so partitioning reads no
 * string; with d a multiple of 16, next holds the following eight); eqf[i] is set when item i is equal, folded, to item i-1. All
 * items share their bytes before d. */
static void mkqsort(struct sitem *a, size_t n, size_t d, unsigned char *eqf)
{
	while (n > 1) {
		size_t lt = 0, i = 0, gt = n;
		uint64_t p;

		if (n < 12) {
			small_sort(a, n, d, eqf);
			return;
		}
		p = median3(a, n);
		while (i < gt) {
			uint64_t c = a[i].chunk;
			if (c < p)
				swap_items(&a[lt++], &a[i++]);
			else if (c > p)
				swap_items(&a[i], &a[--gt]);
			else
				i++;
		}
		mkqsort(a, lt, d, eqf);
		if ((p & 0xFF) != 0) {   /* the strings go on after these 8 bytes */
			next_chunks(a + lt, gt - lt, d);
			mkqsort(a + lt, gt - lt, d + 8, eqf + lt);
		} else {
			tie_run(a + lt, gt - lt, eqf + lt);
		}
		a += gt;
		eqf += gt;
		n -= gt;
	}
}

/* Sort items (n) and give each its dense rank (by seq) and, when unique is
 * not NULL, its position (by seq). */
static void rank_items(struct sitem *items, size_t n, uint32_t *dense, uint32_t *unique)
{
	unsigned char *eqf = xcalloc(n + 1, 1);
	uint32_t r = 0;

	load_chunks(items, n, 0);
	mkqsort(items, n, 0, eqf);
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && !(eqf[i] && strcmp((const char *)items[i].s,
						 (const char *)items[i - 1].s) == 0))
			r++;
		dense[items[i].seq] = r;
		if (unique != NULL)
			unique[items[i].seq] = (uint32_t)i;
	}
	free(eqf);
}

/* ---- the cache --------------------------------------------------------------------- */

static struct view_sort_cache *cache_of(struct view_table *t)
{
	struct view_sort_cache *c = t->sort_cache;
	struct sitem *items;

	if (c != NULL && c->n == t->n_rows)
		return c;
	view_sort_free(t);
	c = xcalloc(1, sizeof *c);
	c->n = t->n_rows;
	/* every element is written before it is read: no zeroing */
	c->name_rank = xreallocarray(NULL, c->n + 1, sizeof *c->name_rank);
	c->name_dense = xreallocarray(NULL, c->n + 1, sizeof *c->name_dense);
	c->a = xreallocarray(NULL, c->n + 1, sizeof *c->a);
	c->b = xreallocarray(NULL, c->n + 1, sizeof *c->b);
	items = xreallocarray(NULL, c->n + 1, sizeof *items);
	for (size_t i = 0; i < c->n; i++) {
		const struct view_row *r = &t->rows[i];
		items[i] = (struct sitem){ 0, 0, (const unsigned char *)r->gpu->name, r->gpu->id,
					   (uint32_t)r->seq };
	}
	rank_items(items, c->n, c->name_dense, c->name_rank);
	free(items);
	t->sort_cache = c;
	return c;
}

void view_sort_prepare(struct view_table *t)
{
	if (t->n_rows >= 2)
		(void)cache_of(t);
}

static const char *cell_text(const struct view_cell *c)
{
	return c->text != NULL ? c->text : c->display;
}

/* The rank of each row's text in column col (by seq); rows without a text
 * get 0, which no known key reads. */
static const uint32_t *text_ranks(struct view_table *t, struct view_sort_cache *c, int col)
{
	struct sitem *items;
	size_t n = 0;

	if (t->columns[col].kind == VIEW_COL_GPU)
		return c->name_dense; /* the cell's text is the GPU's name */
	if (c->n_cols < t->n_columns) {
		c->text_rank = xreallocarray(c->text_rank, t->n_columns, sizeof *c->text_rank);
		memset(c->text_rank + c->n_cols, 0,
		       (t->n_columns - c->n_cols) * sizeof *c->text_rank);
		c->n_cols = t->n_columns;
	}
	if (c->text_rank[col] != NULL)
		return c->text_rank[col];
	c->text_rank[col] = xcalloc(c->n + 1, sizeof **c->text_rank);
	items = xcalloc(c->n + 1, sizeof *items);
	for (size_t i = 0; i < c->n; i++) {
		const struct view_cell *cell = &t->rows[i].cells[col];
		if (cell->raw == VIEW_RAW_TEXT)
			items[n++] = (struct sitem){ 0, 0, (const unsigned char *)cell_text(cell),
						     NULL, (uint32_t)t->rows[i].seq };
	}
	rank_items(items, n, c->text_rank[col], NULL);
	free(items);
	return c->text_rank[col];
}

void view_sort_forget_columns(struct view_table *t)
{
	struct view_sort_cache *c = t->sort_cache;

	if (c == NULL)
		return;
	for (size_t k = 0; k < c->n_cols; k++)
		free(c->text_rank[k]);
	free(c->text_rank);
	c->text_rank = NULL;
	c->n_cols = 0;
}

void view_sort_free(struct view_table *t)
{
	struct view_sort_cache *c = t->sort_cache;

	if (c == NULL)
		return;
	view_sort_forget_columns(t);
	free(c->name_rank);
	free(c->name_dense);
	free(c->a);
	free(c->b);
	free(c);
	t->sort_cache = NULL;
}

/* ---- keys ---------------------------------------------------------------------------- */

/* A double's bits, mapped so that unsigned order is numeric order (-0 is 0). */
static uint64_t number_key(double v)
{
	uint64_t b;

	v += 0.0;
	memcpy(&b, &v, sizeof b);
	return b >> 63 ? ~b : b | (UINT64_C(1) << 63);
}

/* The key of row r in column col; false when the cell has no value. */
static bool column_key(const struct view_table *t, const struct view_row *r, int col,
		       const uint32_t *ranks, uint64_t *key)
{
	const struct view_cell *c = &r->cells[col];
	double v = 0;

	switch (c->raw) {
	case VIEW_RAW_NONE:
		return false;
	case VIEW_RAW_NUMBER:
		v = c->number;
		break;
	case VIEW_RAW_CENTS:
		v = (double)c->cents;
		break;
	case VIEW_RAW_BOOL:
		/* "fits" first when ascending: yes before no; a catalogue flag: no first */
		if (t->columns[col].kind == VIEW_COL_FIELD)
			v = c->flag ? 1 : 0;
		else
			v = c->flag ? 0 : 1;
		break;
	case VIEW_RAW_TEXT:
		*key = ranks != NULL ? ranks[r->seq] : 0; /* text columns are not numeric */
		return true;
	}
	*key = number_key(v);
	return true;
}

/* Cheapest for the job: can run and priced (by cost), can run without a
 * price, cannot take it. */
static uint64_t cheapest_key(const struct view_row *r)
{
	if (r->job.gpus_run <= 0)
		return UINT64_C(2) << 62;
	if (r->job.hourly_cents < 0)
		return UINT64_C(1) << 62;
	return (uint64_t)r->job.hourly_cents & ((UINT64_C(1) << 62) - 1);
}

/* Every row's record at its tie-break position in c->a; returns how many
 * have no value. */
static size_t fill_records(struct view_table *t, struct view_sort_cache *c)
{
	int col = t->sort_col >= 0 && (size_t)t->sort_col < t->n_columns ? t->sort_col : -1;
	bool cheapest = t->sort_cheapest && t->has_job;
	const uint32_t *ranks = NULL;
	size_t unknown = 0;

	if (!cheapest && col >= 0 && !t->columns[col].numeric)
		ranks = text_ranks(t, c, col);
	for (size_t i = 0; i < t->n_rows; i++) {
		const struct view_row *r = &t->rows[i];
		struct rec *e = &c->a[c->name_rank[r->seq]];

		e->idx = (uint32_t)i;
		e->unknown = 0;
		if (cheapest) {
			e->key = cheapest_key(r);
		} else if (col < 0) {
			e->key = r->seq;
		} else if (column_key(t, r, col, ranks, &e->key)) {
			if (t->sort_desc)
				e->key = ~e->key;
		} else {
			e->unknown = 1;
			unknown++;
		}
	}
	return unknown;
}

/* Rows without a value go last, each part keeping its order (into c->b,
 * then back into c->a). */
static void unknown_last(struct view_sort_cache *c, size_t n, size_t unknown)
{
	size_t k = 0, u = n - unknown;

	for (size_t i = 0; i < n; i++) {
		if (c->a[i].unknown)
			c->b[u++] = c->a[i];
		else
			c->b[k++] = c->a[i];
	}
	memcpy(c->a, c->b, n * sizeof *c->a);
}

/* Stable LSD radix sort of a[0..n) by key, a byte at a time; bytes that
 * every key shares are skipped. tmp holds n records. */
static void radix_sort(struct rec *a, struct rec *tmp, size_t n)
{
	size_t count[8][256] = {{0}};
	struct rec *src = a, *dst = tmp;

	for (size_t i = 0; i < n; i++)
		for (unsigned b = 0; b < 8; b++)
			count[b][(a[i].key >> (8 * b)) & 0xFF]++;
	for (unsigned b = 0; b < 8; b++) {
		size_t sum = 0, *cnt = count[b];
		bool trivial = false;

		for (unsigned v = 0; v < 256 && !trivial; v++)
			trivial = cnt[v] == n;
		if (trivial)
			continue;
		for (unsigned v = 0; v < 256; v++) {
			size_t x = cnt[v];
			cnt[v] = sum;
			sum += x;
		}
		for (size_t i = 0; i < n; i++)
			dst[cnt[(src[i].key >> (8 * b)) & 0xFF]++] = src[i];
		struct rec *s = src;
		src = dst;
		dst = s;
	}
	if (src != a)
		memcpy(a, src, n * sizeof *a);
}

/* Put rows[order[p].idx] at p for every p, in place, following cycles. */
static void permute_rows(struct view_row *rows, struct rec *order, size_t n)
{
	for (size_t p = 0; p < n; p++) {
		struct view_row tmp;
		size_t q = p;

		if (order[p].idx == p)
			continue;
		tmp = rows[p];
		for (;;) {
			size_t src = order[q].idx;
			order[q].idx = (uint32_t)q;
			if (src == p) {
				rows[q] = tmp;
				break;
			}
			rows[q] = rows[src];
			q = src;
		}
	}
}

void view_sort_rows(struct view_table *t)
{
	struct view_sort_cache *c;
	size_t unknown;

	if (t->n_rows < 2)
		return;
	c = cache_of(t);
	unknown = fill_records(t, c);
	if (unknown > 0)
		unknown_last(c, t->n_rows, unknown);
	radix_sort(c->a, c->b, t->n_rows - unknown);
	permute_rows(t->rows, c->a, t->n_rows);
}
