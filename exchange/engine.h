/*
 * exchange/engine.h — in-memory order books for gpuxd. Pure: no I/O, no locks, no
 * globals; the single writer thread of gpuxd owns one engine.
 *
 * Design: one book per GPU. Each side of a book keeps its price levels in an
 * array sorted best-first-at-the-end (so the best level is the last element and
 * adding/removing it is O(1)); each level holds a FIFO of orders as an intrusive
 * doubly-linked list, so a cancel is O(1) once the order is found. A per-engine
 * open-addressing hash map takes an order id to its entry; entries come from a
 * free list. The hours rule and the bids' requirements mean a level's FIFO may
 * hold orders the incoming order cannot trade with (too few hours, same account,
 * another region, no node with enough free GPUs): matching skips them and they
 * keep their place. A dry run walks the same path without writing anything (the
 * fills it reports are exactly those a real submit would produce); FOK first
 * runs such a dry pass and executes only if it fills completely.
 *
 * An ask (sell) is a lot of nodes — machines of node_gpus GPUs each — and the
 * engine keeps, per node, the GPUs not sold yet (struct eng_node). A bid (buy)
 * may require a unit of G GPUs (node_gpus), an interconnect, regions and host
 * minimums: it fills only in whole units, each unit taken from ONE node that has
 * at least G free GPUs. A bid with G = 1 takes single GPUs from any node
 * (fragmenting it), but never part of a whole_nodes lot, which serves only bids
 * whose G equals its node_gpus. Within an ask, units are taken from the nodes
 * with the fewest free GPUs first (then the lowest node index), so whole
 * machines are kept whole as long as possible.
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
/* A node's GPU-to-GPU link. An ask's ENG_LINK_ANY means "not stated": it serves
 * only bids that require no link. A bid's ENG_LINK_ANY means "any". */
enum eng_link { ENG_LINK_ANY = 0, ENG_LINK_NVLINK = 1, ENG_LINK_IF = 2, ENG_LINK_PCIE = 3 };
#define ENG_REGIONS_MAX 64       /* region indices 0..63 (a bid's regions are a bitmask) */
#define ENG_NODE_GPUS_MAX 8      /* node_gpus and units: 1..8 */

/* Per node: an ask's host (0 = not stated), or a bid's minimums (0 = none). */
struct eng_host { int32_t cpu_cores, ram_gb, disk_gb; };

struct eng_order {
	int64_t id;          /* unique, > 0, assigned by the caller (the DB row id) */
	int64_t account;     /* owner; an order never trades with its own account's orders
	                        (self-trade prevention: such resting orders are skipped) */
	enum eng_side side;
	enum eng_tif tif;     /* a market order is submitted as IOC with its price cap */
	int64_t price_cents;  /* limit price (or the cap of a market order), per GPU-hour */
	int32_t gpus;         /* remaining GPU count (a bid's: a multiple of node_gpus) */
	int32_t hours;        /* buy: hours wanted; sell: most hours offered */
	/* sell: GPUs per node of the lot (gpus / node_gpus nodes when it is placed);
	 * buy: the unit G it fills in. 0 is read as 1. */
	int32_t node_gpus;
	bool whole_nodes;     /* sell: sold only as whole nodes */
	uint8_t link;         /* enum eng_link: sell: its nodes'; buy: required */
	uint8_t region;       /* sell: its region index, < ENG_REGIONS_MAX */
	uint64_t regions;     /* buy: bit r set = region r is acceptable; 0 = any region */
	struct eng_host host; /* sell: each node's; buy: minimums per node */
};

/* One node (machine) of a resting ask: the GPUs of it not sold yet. */
struct eng_node { int32_t free; };

/* GPUs a fill takes from one node of its sell order (the maker or the taker,
 * whichever sells); node is the index in that order's lot, from 0. */
struct eng_take { int32_t node, gpus; };

struct eng_fill {
	int64_t maker_id, maker_account;   /* the resting order */
	int64_t taker_id, taker_account;   /* the incoming order */
	int64_t price_cents;               /* always the resting order's price */
	int32_t gpus;                      /* a multiple of unit */
	int32_t hours;                     /* always the buy order's hours */
	enum eng_side taker_side;
	int32_t unit;                      /* the buy order's G */
	size_t take;                       /* its takes: fills->takes[take .. take + ntakes) */
	int32_t ntakes;
};

/* Caller-owned growable arrays: the fills and the node takes they refer to. */
struct eng_fills {
	struct eng_fill *v;
	size_t n, cap;
	struct eng_take *takes;
	size_t ntakes, captakes;
};
/* Empty the arrays (n = ntakes = 0), keeping their memory for reuse. */
void eng_fills_reset(struct eng_fills *f);
/* Free the array's memory and zero the struct (it may be used again afterwards). */
void eng_fills_free(struct eng_fills *f);

/* One price level: its resting orders' remaining GPUs, their number, and the
 * GPU-hours they hold (Σ remaining GPUs × hours). In a ladder for a unit of G
 * (engine_depth_for), units is how many such units the level can serve, gpus is
 * units × G, orders the orders that hold them and gpu_hours Σ their GPUs × hours;
 * in engine_depth, units = gpus. */
struct eng_level {
	int64_t price_cents;
	int64_t gpus;
	int32_t orders;
	int64_t gpu_hours;
	int64_t units;
};

/* What a ladder for a unit of G shows (engine_depth_for): asks — the capacity a
 * bid of this unit, link, regions and host minimums could take (the matching
 * rules without price, hours or account); bids — resting bids whose unit is
 * exactly `unit`, that accept a node of `link` (ANY: any link) in one of
 * `regions` (0: any region). */
struct eng_filter {
	int32_t unit;
	uint8_t link;
	uint64_t regions;
	struct eng_host min;
};

struct engine *engine_new(size_t nbooks);       /* one book per GPU, index 0..nbooks-1 */
void engine_free(struct engine **e);           /* frees and sets *e = NULL */

/* Match *o against book `book`, appending fills to *fills (not reset first).
 * Rules: a buy at P for H hours matches resting sells with price <= P and hours >= H;
 * a sell at P for H hours matches resting buys with price >= P and hours <= H; and the
 * sell's lot must satisfy the buy's requirements: its link (when one is required), a
 * region among the buy's (when it names any), every host figure >= the buy's minimum,
 * node_gpus >= the buy's unit G (== G for a whole_nodes lot), and a node with >= G free
 * GPUs. Price-time priority (best price, then earliest accepted); resting orders that
 * are not eligible are skipped and keep their place. Partial fills by whole units of
 * the buy's G, each from one node; a resting order whose gpus reach 0 leaves the book.
 * After matching, o->gpus is the unfilled remainder; GTC rests it (keeping o->id, and a
 * sell its nodes as they are left), IOC drops it, FOK either fills completely or
 * produces no fills at all and changes nothing. A buy's gpus must be a multiple of its
 * G and a sell's of its node_gpus (else fatal()).
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
 * match anything (prices may cross where the hours rule, the requirements or self-trade
 * prevention kept orders apart); gpus <= 0 is ignored. A sell's lot is nodes[0..n_nodes)
 * as it was left (its free GPUs must add up to gpus), or, with nodes NULL, gpus /
 * node_gpus whole nodes. */
void engine_restore(struct engine *e, size_t book, const struct eng_order *o,
                    const struct eng_node *nodes, size_t n_nodes);

/* Remove resting order `id`; 0 and a copy in *out (may be NULL), or -1 if not resting. */
int engine_cancel(struct engine *e, size_t book, int64_t id, struct eng_order *out);

/* Remove every resting order of one book (before rebuilding it with engine_restore). */
void engine_clear(struct engine *e, size_t book);

/* Best level on one side (false if that side is empty), and up to max levels of depth
 * aggregated by price, best first; returns the number written. */
bool engine_best(const struct engine *e, size_t book, enum eng_side side, struct eng_level *out);
size_t engine_depth(const struct engine *e, size_t book, enum eng_side side,
                    struct eng_level *out, size_t max);
/* The same for units of f->unit (struct eng_filter): levels with no such unit are left
 * out. O(orders × nodes) of the levels walked. */
bool engine_best_for(const struct engine *e, size_t book, enum eng_side side,
                     const struct eng_filter *f, struct eng_level *out);
size_t engine_depth_for(const struct engine *e, size_t book, enum eng_side side,
                        const struct eng_filter *f, struct eng_level *out, size_t max);

/* How many times book `book` has changed: a submit that filled or rested, a
 * restore, a cancel (so a clear too). It only grows, so two equal counts mean
 * the book is as it was, and a dry run against it gives the same fills. */
uint64_t engine_changes(const struct engine *e, size_t book);

/* Look up a resting order (NULL if not resting, or resting in another book). The
 * pointer is the engine's and is valid until the next submit, restore or cancel. */
const struct eng_order *engine_find(const struct engine *e, size_t book, int64_t id);
/* The nodes of resting sell `id` (0 and *out NULL if it is not a resting sell), valid
 * as engine_find's pointer is. Nodes sold out stay in the lot (free 0), so an index
 * names the same machine for the order's whole life. */
size_t engine_nodes(const struct engine *e, size_t book, int64_t id, const struct eng_node **out);

#endif
