/*
 * exchange/trig.h — price triggers: a pure index of conditions "fire when
 * this price is at or below a threshold" and "… at or above a threshold",
 * for the alerts and the conditional orders of gpuxd (exchange/watch.c
 * holds one set of each per GPU book). No I/O, no locks, no globals.
 *
 * A set holds series, one per key — which price (best ask, best bid, last,
 * spread) and for which node size and region: the caller composes the key,
 * the set only compares it. Each series keeps two arrays, the "at or below"
 * conditions sorted by threshold ascending and the "at or above" ones sorted
 * by threshold descending, so the conditions a price v meets are always the
 * tail of each array (thresholds >= v, and thresholds <= v): taking them
 * costs a binary search and the k conditions taken, and a price that meets
 * none costs two comparisons. Adding or removing one condition moves the
 * array's tail (memmove), a few microseconds for the thousands of one book.
 *
 * A condition is taken out when it is met; whoever re-arms it adds it again.
 * Ids are the caller's (an alert's or an order's), unique within a set.
 */
#ifndef GPUX_EXCHANGE_TRIG_H
#define GPUX_EXCHANGE_TRIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum trig_dir { TRIG_LTE = 0, TRIG_GTE = 1 };   /* price <= threshold, price >= threshold */

struct trig_hit {
	uint32_t key;
	enum trig_dir dir;
	int64_t threshold;
	int64_t id;
};
/* A caller-owned growable array; trig_take appends to it. */
struct trig_hits { struct trig_hit *v; size_t n, cap; };
void trig_hits_reset(struct trig_hits *h);      /* n = 0, memory kept */
void trig_hits_free(struct trig_hits *h);       /* memory freed, struct zeroed */

struct trig_set;
struct trig_set *trig_set_new(void);
void trig_set_free(struct trig_set **s);        /* frees and sets *s = NULL */
void trig_set_clear(struct trig_set *s);        /* every condition gone */
size_t trig_set_size(const struct trig_set *s); /* conditions held */

/* Add "price of series key <= threshold" (TRIG_LTE) or ">= threshold". */
void trig_add(struct trig_set *s, uint32_t key, enum trig_dir d, int64_t threshold, int64_t id);
/* Remove the condition added with exactly these values: true if it was there. */
bool trig_remove(struct trig_set *s, uint32_t key, enum trig_dir d, int64_t threshold, int64_t id);
/* The keys of the series that hold conditions, ascending: their number, and
 * *keys (the set's own array, valid until the set next changes). */
size_t trig_keys(const struct trig_set *s, const uint32_t **keys);
/* Would price v of series key meet any condition? */
bool trig_met(const struct trig_set *s, uint32_t key, int64_t v);
/* Take out every condition of series key that price v meets, appending them
 * to out in ascending id order; returns how many. */
size_t trig_take(struct trig_set *s, uint32_t key, int64_t v, struct trig_hits *out);

#endif
