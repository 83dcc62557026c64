/*
 * exchange/engine.h — in-memory order books for gpuxd. Pure: no I/O, no locks, no
 * globals; the single writer thread of gpuxd owns one engine.
 *
 * Design: one book per GPU. Each side of a book keeps its price levels in an
 * array sorted best-first-at-the-end (so the best level is the last element and
 * adding/removing it is O(1)); each level holds a FIFO of orders as an intrusive
 * doubly-linked list, so a cancel is O(1) once the order is found. A per-engine
 * open-addressing hash map takes an order id to its node; nodes come from a free
 * list. The hours rule means a level's FIFO may hold orders the incoming order
 * cannot trade with (too few hours, same account): matching skips them and they
 * keep their place. A dry run walks the same path without writing anything (the
 * fills it reports are exactly those a real submit would produce); FOK first
 * runs such a dry pass and executes only if it fills completely.
 *
 * Money is integer cents per GPU-hour; counts are int32.
 */
#ifndef GPUX_EXCHANGE_ENGINE_H
#define GPUX_EXCHANGE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum eng_side { ENG_BUY = 0, ENG_SELL = 1 };
enum eng_tif  { ENG_GTC = 0, ENG_IOC = 1, ENG_FOK = 2 };

struct eng_order {
	int64_t id;          /* unique, > 0, assigned by the caller (the DB row id) */
	int64_t account;     /* owner; an order never trades with its own account's orders
	                        (self-trade prevention: such resting orders are skipped) */
	enum eng_side side;
	enum eng_tif tif;     /* a market order is submitted as IOC with its price cap */
	int64_t price_cents;  /* limit price (or the cap of a market order), per GPU-hour */
	int32_t gpus;         /* remaining GPU count */
	int32_t hours;        /* buy: hours wanted; sell: most hours offered */
};

struct eng_fill {
	int64_t maker_id, maker_account;   /* the resting order */
	int64_t taker_id, taker_account;   /* the incoming order */
	int64_t price_cents;               /* always the resting order's price */
	int32_t gpus;
	int32_t hours;                     /* always the buy order's hours */
	enum eng_side taker_side;
};

struct eng_fills { struct eng_fill *v; size_t n, cap; };   /* caller-owned growable array */
/* Empty the array (n = 0), keeping its memory for reuse. */
void eng_fills_reset(struct eng_fills *f);
/* Free the array's memory and zero the struct (it may be used again afterwards). */
void eng_fills_free(struct eng_fills *f);

/* One price level: its resting orders' remaining GPUs, their number, and the
 * GPU-hours they hold (Σ remaining GPUs × hours). */
struct eng_level { int64_t price_cents; int64_t gpus; int32_t orders; int64_t gpu_hours; };

struct engine *engine_new(size_t nbooks);       /* one book per GPU, index 0..nbooks-1 */
void engine_free(struct engine **e);           /* frees and sets *e = NULL */

/* Match *o against book `book`, appending fills to *fills (not reset first).
 * Rules: a buy at P for H hours matches resting sells with price <= P and hours >= H;
 * a sell at P for H hours matches resting buys with price >= P and hours <= H.
 * Price-time priority (best price, then earliest accepted); resting orders that are not
 * eligible (hours, same account) are skipped and keep their place. Partial fills by GPU
 * count; a resting order whose gpus reach 0 leaves the book. After matching, o->gpus is
 * the unfilled remainder; GTC rests it (keeping o->id), IOC drops it, FOK either fills
 * completely or produces no fills at all and changes nothing.
 * dry_run: compute the same fills without changing the book (for previews).
 * Returns the number of GPUs filled.
 * Details: o->gpus is reduced by the GPUs filled in a dry run too (the book is what a
 * dry run leaves alone), and left as it was when a FOK fails; an order with gpus <= 0
 * does nothing and returns 0; fills may be NULL when only the count is wanted.
 * A GTC remainder must have an id > 0 not already resting (else fatal()). */
int32_t engine_submit(struct engine *e, size_t book, struct eng_order *o, bool dry_run,
                      struct eng_fills *fills);

/* Re-insert a resting order when rebuilding from the database at start-up; calls must be
 * made in the orders' original acceptance order, so time priority is kept. It does not
 * match anything (prices may cross where the hours rule or self-trade prevention kept
 * orders apart); gpus <= 0 is ignored. */
void engine_restore(struct engine *e, size_t book, const struct eng_order *o);

/* Remove resting order `id`; 0 and a copy in *out (may be NULL), or -1 if not resting. */
int engine_cancel(struct engine *e, size_t book, int64_t id, struct eng_order *out);

/* Remove every resting order of one book (before rebuilding it with engine_restore). */
void engine_clear(struct engine *e, size_t book);

/* Best level on one side (false if that side is empty), and up to max levels of depth
 * aggregated by price, best first; returns the number written. */
bool engine_best(const struct engine *e, size_t book, enum eng_side side, struct eng_level *out);
size_t engine_depth(const struct engine *e, size_t book, enum eng_side side,
                    struct eng_level *out, size_t max);

/* Look up a resting order (NULL if not resting, or resting in another book). The
 * pointer is the engine's and is valid until the next submit, restore or cancel. */
const struct eng_order *engine_find(const struct engine *e, size_t book, int64_t id);

#endif
