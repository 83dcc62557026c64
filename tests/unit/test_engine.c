/*
 * tests/unit/test_engine.c — the matching engine (exchange/engine.h).
 *
 * Hand-written cases for each rule of the market (price-time priority, trades
 * at the resting price, partial fills, the hours rule, GTC/IOC/FOK, dry runs,
 * self-trade prevention, cancel, restore, depth; lots of nodes, units taken from
 * one node, fragmentation by plain bids, whole-node lots, the bids'
 * requirements, ladders per unit), then a randomized differential test against
 * a naive reference matcher written here: plain arrays, an O(n^2) "find the
 * best eligible resting order, trade, repeat" loop, units taken from a sorted
 * copy of a lot's nodes, FOK by trying on a copy — obviously correct. Every fill
 * (with the nodes it took), the depth of both sides, the ladders per unit and
 * every lot's nodes are compared after each step, over fixed seeds, and the
 * rules that must never break are checked on the engine's own output: no unit
 * split across nodes, whole-node lots never fragmented, no self-trade.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "exchange/engine.h"

/* ---- helpers --------------------------------------------------------------- */

static struct eng_order ord(int64_t id, int64_t acct, enum eng_side side, enum eng_tif tif,
                            int64_t price, int32_t gpus, int32_t hours)
{
	return (struct eng_order){ .id = id, .account = acct, .side = side, .tif = tif,
	                           .price_cents = price, .gpus = gpus, .hours = hours };
}

/* Submit a GTC order that must not trade (it rests whole). */
static void place(struct engine *e, int64_t id, int64_t acct, enum eng_side side,
                  int64_t price, int32_t gpus, int32_t hours)
{
	struct eng_order o = ord(id, acct, side, ENG_GTC, price, gpus, hours);
	struct eng_fills f = { 0 };
	assert_int_equal(engine_submit(e, 0, &o, false, &f), 0);
	assert_int_equal(f.n, 0);
	assert_non_null(engine_find(e, 0, id));
	eng_fills_free(&f);
}

static void assert_fill(const struct eng_fill *f, int64_t maker, int64_t taker,
                        int64_t price, int32_t gpus, int32_t hours)
{
	assert_int_equal(f->maker_id, maker);
	assert_int_equal(f->taker_id, taker);
	assert_int_equal(f->price_cents, price);
	assert_int_equal(f->gpus, gpus);
	assert_int_equal(f->hours, hours);
}

/* Field by field: the structs have padding, so no memcmp. */
static bool fill_eq(const struct eng_fill *a, const struct eng_fill *b)
{
	return a->maker_id == b->maker_id && a->maker_account == b->maker_account &&
	       a->taker_id == b->taker_id && a->taker_account == b->taker_account &&
	       a->price_cents == b->price_cents && a->gpus == b->gpus && a->hours == b->hours &&
	       a->taker_side == b->taker_side;
}

static bool levels_eq(const struct eng_level *a, const struct eng_level *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].price_cents != b[i].price_cents || a[i].gpus != b[i].gpus ||
		    a[i].orders != b[i].orders || a[i].gpu_hours != b[i].gpu_hours ||
		    a[i].units != b[i].units)
			return false;
	return true;
}

/* ---- rules, one at a time ------------------------------------------------------ */

/* A level's GPU-hours are Σ remaining GPUs × hours of its orders, through a
 * partial fill, a whole fill and a cancel. */
static void test_level_gpu_hours(void **state)
{
	struct engine *e = engine_new(1);
	struct eng_level l;
	place(e, 1, 10, ENG_SELL, 300, 4, 100);
	place(e, 2, 11, ENG_SELL, 300, 2, 720);
	assert_true(engine_best(e, 0, ENG_SELL, &l));
	assert_int_equal(l.gpu_hours, 4 * 100 + 2 * 720);

	struct eng_order b = ord(3, 20, ENG_BUY, ENG_IOC, 300, 3, 10);
	struct eng_fills f = { 0 };
	assert_int_equal(engine_submit(e, 0, &b, false, &f), 3);
	assert_int_equal(f.n, 1);
	assert_true(engine_best(e, 0, ENG_SELL, &l));
	assert_int_equal(l.gpus, 3);
	assert_int_equal(l.gpu_hours, 1 * 100 + 2 * 720);   /* the maker's hours, not the taker's */

	assert_int_equal(engine_cancel(e, 0, 2, NULL), 0);
	assert_true(engine_best(e, 0, ENG_SELL, &l));
	assert_int_equal(l.gpu_hours, 100);

	struct eng_order b2 = ord(4, 20, ENG_BUY, ENG_IOC, 300, 1, 50);
	eng_fills_reset(&f);
	assert_int_equal(engine_submit(e, 0, &b2, false, &f), 1);
	assert_false(engine_best(e, 0, ENG_SELL, &l));
	eng_fills_free(&f);
	engine_free(&e);
}

static void test_price_time_priority(void **state)
{
	struct engine *e = engine_new(1);
	place(e, 1, 10, ENG_SELL, 420, 2, 24);   /* worse price, earliest */
	place(e, 2, 11, ENG_SELL, 419, 2, 24);   /* best price, first at it */
	place(e, 3, 12, ENG_SELL, 419, 2, 24);   /* best price, second */
	struct eng_order b = ord(4, 20, ENG_BUY, ENG_IOC, 500, 5, 24);
	struct eng_fills f = { 0 };
	assert_int_equal(engine_submit(e, 0, &b, false, &f), 5);
	assert_int_equal(f.n, 3);
	assert_fill(&f.v[0], 2, 4, 419, 2, 24);
	assert_fill(&f.v[1], 3, 4, 419, 2, 24);
	assert_fill(&f.v[2], 1, 4, 420, 1, 24);
	assert_int_equal(f.v[0].maker_account, 11);
	assert_int_equal(f.v[0].taker_account, 20);
	assert_int_equal(f.v[0].taker_side, ENG_BUY);
	assert_int_equal(b.gpus, 0);
	assert_null(engine_find(e, 0, 2));
	assert_null(engine_find(e, 0, 3));
	assert_int_equal(engine_find(e, 0, 1)->gpus, 1);
	eng_fills_free(&f);
	engine_free(&e);
	assert_null(e);
}

static void test_trades_at_resting_price(void **state)
{
	struct engine *e = engine_new(1);
	place(e, 1, 10, ENG_BUY, 450, 3, 12);
	struct eng_order s = ord(2, 11, ENG_SELL, ENG_GTC, 400, 1, 12);
	struct eng_fills f = { 0 };
	assert_int_equal(engine_submit(e, 0, &s, false, &f), 1);
	assert_fill(&f.v[0], 1, 2, 450, 1, 12);   /* the bid's 450, not the seller's 400 */
	assert_int_equal(f.v[0].taker_side, ENG_SELL);
	eng_fills_reset(&f);
	place(e, 3, 12, ENG_SELL, 460, 1, 12);
	struct eng_order b = ord(4, 13, ENG_BUY, ENG_GTC, 999, 1, 12);
	assert_int_equal(engine_submit(e, 0, &b, false, &f), 1);
	assert_fill(&f.v[0], 3, 4, 460, 1, 12);   /* the ask's 460, not the cap of 999 */
	eng_fills_free(&f);
	engine_free(&e);
}

static void test_partial_fills(void **state)
{
	struct engine *e = engine_new(1);
	place(e, 1, 10, ENG_SELL, 100, 8, 24);
	struct eng_order b = ord(2, 11, ENG_BUY, ENG_GTC, 100, 3, 24);
	struct eng_fills f = { 0 };
	assert_int_equal(engine_submit(e, 0, &b, false, &f), 3);
	assert_int_equal(b.gpus, 0);
	assert_null(engine_find(e, 0, 2));            /* fully filled: does not rest */
	assert_int_equal(engine_find(e, 0, 1)->gpus, 5);
	struct eng_level l;
	assert_true(engine_best(e, 0, ENG_SELL, &l));
	assert_int_equal(l.gpus, 5);
	/* a bigger buy takes the rest and rests its own remainder */
	b = ord(3, 11, ENG_BUY, ENG_GTC, 100, 7, 24);
	eng_fills_reset(&f);
	assert_int_equal(engine_submit(e, 0, &b, false, &f), 5);
	assert_int_equal(b.gpus, 2);
	assert_null(engine_find(e, 0, 1));
	assert_false(engine_best(e, 0, ENG_SELL, &l));
	assert_true(engine_best(e, 0, ENG_BUY, &l));
	assert_int_equal(l.price_cents, 100);
	assert_int_equal(l.gpus, 2);
	assert_int_equal(engine_find(e, 0, 3)->gpus, 2);
	eng_fills_free(&f);
	engine_free(&e);
}

static void test_hours_rule(void **state)
{
	struct engine *e = engine_new(1);
	struct eng_fills f = { 0 };
	/* a buy for 24 h does not match an ask offering only 12 h */
	place(e, 1, 10, ENG_SELL, 100, 4, 12);
	struct eng_order b = ord(2, 11, ENG_BUY, ENG_IOC, 200, 4, 24);
	assert_int_equal(engine_submit(e, 0, &b, false, &f), 0);
	assert_int_equal(f.n, 0);
	assert_int_equal(engine_find(e, 0, 1)->gpus, 4);
	/* ... but a buy for 12 h or less does, for the buyer's hours */
	b = ord(3, 11, ENG_BUY, ENG_IOC, 200, 1, 6);
	assert_int_equal(engine_submit(e, 0, &b, false, &f), 1);
	assert_fill(&f.v[0], 1, 3, 100, 1, 6);
	engine_free(&e);

	/* a sell offering 48 h matches a resting 24 h bid; the fill is for 24 h */
	e = engine_new(1);
	eng_fills_reset(&f);
	place(e, 10, 10, ENG_BUY, 300, 2, 24);
	struct eng_order s = ord(11, 12, ENG_SELL, ENG_GTC, 250, 2, 48);
	assert_int_equal(engine_submit(e, 0, &s, false, &f), 2);
	assert_fill(&f.v[0], 10, 11, 300, 2, 24);
	/* a sell offering 12 h does not match a 24 h bid: the ineligible bid is skipped
	 * and a later, eligible bid at the same price trades; the skipped one keeps its place */
	place(e, 20, 10, ENG_BUY, 300, 2, 24);
	place(e, 21, 13, ENG_BUY, 300, 2, 8);
	s = ord(22, 12, ENG_SELL, ENG_IOC, 300, 4, 12);
	eng_fills_reset(&f);
	assert_int_equal(engine_submit(e, 0, &s, false, &f), 2);
	assert_int_equal(f.n, 1);
	assert_fill(&f.v[0], 21, 22, 300, 2, 8);
	assert_int_equal(s.gpus, 2);                 /* IOC: the rest is dropped */
	assert_null(engine_find(e, 0, 22));
	assert_int_equal(engine_find(e, 0, 20)->gpus, 2);
	eng_fills_free(&f);
	engine_free(&e);
}

static void test_time_in_force(void **state)
{
	struct engine *e = engine_new(1);
	struct eng_fills f = { 0 };
	struct eng_level before[4], after[4];
	place(e, 1, 10, ENG_SELL, 100, 2, 24);
	place(e, 2, 10, ENG_SELL, 101, 2, 24);
	/* GTC: the remainder rests under the order's id */
	struct eng_order o = ord(3, 11, ENG_BUY, ENG_GTC, 100, 5, 24);
	assert_int_equal(engine_submit(e, 0, &o, false, &f), 2);
	assert_int_equal(o.gpus, 3);
	assert_int_equal(engine_find(e, 0, 3)->gpus, 3);
	assert_int_equal(engine_find(e, 0, 3)->price_cents, 100);
	/* IOC: fills what it can, drops the rest */
	o = ord(4, 12, ENG_SELL, ENG_IOC, 100, 5, 24);
	eng_fills_reset(&f);
	assert_int_equal(engine_submit(e, 0, &o, false, &f), 3);
	assert_int_equal(o.gpus, 2);
	assert_null(engine_find(e, 0, 4));
	assert_null(engine_find(e, 0, 3));
	/* FOK that cannot fill: no fills, nothing changes */
	size_t nb = engine_depth(e, 0, ENG_SELL, before, 4);
	o = ord(5, 13, ENG_BUY, ENG_FOK, 101, 3, 24);
	eng_fills_reset(&f);
	assert_int_equal(engine_submit(e, 0, &o, false, &f), 0);
	assert_int_equal(f.n, 0);
	assert_int_equal(o.gpus, 3);
	assert_null(engine_find(e, 0, 5));
	assert_int_equal(engine_depth(e, 0, ENG_SELL, after, 4), nb);
	assert_true(levels_eq(before, after, nb));
	/* FOK that can fill: fills completely */
	o = ord(6, 13, ENG_BUY, ENG_FOK, 101, 2, 24);
	assert_int_equal(engine_submit(e, 0, &o, false, &f), 2);
	assert_int_equal(f.n, 1);
	assert_fill(&f.v[0], 2, 6, 101, 2, 24);
	assert_int_equal(o.gpus, 0);
	assert_int_equal(engine_depth(e, 0, ENG_SELL, after, 4), 0);
	eng_fills_free(&f);
	engine_free(&e);
}

/* engine_changes counts what changes a book, and nothing else: the same
 * count means the same book (what a job alert's cached prices rely on). */
static void test_change_count(void **state)
{
	struct engine *e = engine_new(2);
	struct eng_fills f = { 0 };
	uint64_t c = engine_changes(e, 0);
	place(e, 1, 10, ENG_SELL, 100, 4, 24);
	assert_int_equal(engine_changes(e, 0), c + 1);                /* rested */
	assert_int_equal(engine_changes(e, 1), 0);                    /* the other book's own */
	struct eng_order o = ord(2, 20, ENG_BUY, ENG_FOK, 100, 4, 24);
	assert_int_equal(engine_submit(e, 0, &o, true, &f), 4);
	assert_int_equal(engine_changes(e, 0), c + 1);                /* a dry run: unchanged */
	o = ord(3, 20, ENG_BUY, ENG_FOK, 100, 8, 24);
	assert_int_equal(engine_submit(e, 0, &o, false, &f), 0);
	assert_int_equal(engine_changes(e, 0), c + 1);                /* a FOK that fails */
	o = ord(4, 20, ENG_BUY, ENG_IOC, 99, 1, 24);
	assert_int_equal(engine_submit(e, 0, &o, false, &f), 0);
	assert_int_equal(engine_changes(e, 0), c + 1);                /* an IOC that meets nothing */
	o = ord(5, 20, ENG_BUY, ENG_IOC, 100, 1, 24);
	assert_int_equal(engine_submit(e, 0, &o, false, &f), 1);
	assert_int_equal(engine_changes(e, 0), c + 2);                /* a fill */
	assert_int_equal(engine_cancel(e, 0, 99, NULL), -1);
	assert_int_equal(engine_changes(e, 0), c + 2);                /* no such order */
	assert_int_equal(engine_cancel(e, 0, 1, NULL), 0);
	assert_int_equal(engine_changes(e, 0), c + 3);                /* a cancel */
	struct eng_order r = ord(6, 10, ENG_SELL, ENG_GTC, 100, 2, 24);
	engine_restore(e, 0, &r, NULL, 0);
	assert_int_equal(engine_changes(e, 0), c + 4);                /* a restore */
	engine_clear(e, 0);
	assert_true(engine_changes(e, 0) > c + 4);                   /* a clear, never back */
	eng_fills_free(&f);
	engine_free(&e);
	(void)state;
}

static void test_dry_run_changes_nothing(void **state)
{
	struct engine *e = engine_new(1);
	struct eng_fills f = { 0 }, g = { 0 };
	struct eng_level b0[8], b1[8], a0[8], a1[8];
	place(e, 1, 10, ENG_SELL, 100, 2, 24);
	place(e, 2, 11, ENG_SELL, 100, 3, 24);
	place(e, 3, 12, ENG_SELL, 102, 4, 24);
	place(e, 4, 13, ENG_BUY, 90, 4, 24);
	size_t na = engine_depth(e, 0, ENG_SELL, a0, 8), nb = engine_depth(e, 0, ENG_BUY, b0, 8);
	struct eng_order o = ord(5, 20, ENG_BUY, ENG_GTC, 102, 6, 24);
	assert_int_equal(engine_submit(e, 0, &o, true, &f), 6);
	assert_int_equal(f.n, 3);
	assert_int_equal(o.gpus, 0);
	assert_int_equal(engine_depth(e, 0, ENG_SELL, a1, 8), na);
	assert_int_equal(engine_depth(e, 0, ENG_BUY, b1, 8), nb);
	assert_true(levels_eq(a0, a1, na));
	assert_true(levels_eq(b0, b1, nb));
	assert_int_equal(engine_find(e, 0, 1)->gpus, 2);
	assert_null(engine_find(e, 0, 5));
	/* the real submit produces exactly the previewed fills */
	o = ord(5, 20, ENG_BUY, ENG_GTC, 102, 6, 24);
	assert_int_equal(engine_submit(e, 0, &o, false, &g), 6);
	assert_int_equal(g.n, f.n);
	for (size_t i = 0; i < f.n; i++)
		assert_true(fill_eq(&f.v[i], &g.v[i]));
	/* a dry GTC remainder does not rest; a dry FOK that fails reports nothing */
	eng_fills_reset(&f);
	o = ord(6, 20, ENG_BUY, ENG_GTC, 102, 9, 24);
	assert_int_equal(engine_submit(e, 0, &o, true, &f), 3);
	assert_int_equal(o.gpus, 6);
	assert_null(engine_find(e, 0, 6));
	o = ord(7, 20, ENG_BUY, ENG_FOK, 102, 9, 24);
	eng_fills_reset(&f);
	assert_int_equal(engine_submit(e, 0, &o, true, &f), 0);
	assert_int_equal(f.n, 0);
	assert_int_equal(engine_find(e, 0, 3)->gpus, 3);
	eng_fills_free(&f);
	eng_fills_free(&g);
	engine_free(&e);
}

static void test_self_trade_prevention(void **state)
{
	struct engine *e = engine_new(1);
	struct eng_fills f = { 0 };
	place(e, 1, 10, ENG_SELL, 100, 2, 24);   /* account 10's own ask, best */
	place(e, 2, 11, ENG_SELL, 101, 2, 24);
	struct eng_order o = ord(3, 10, ENG_BUY, ENG_GTC, 101, 3, 24);
	assert_int_equal(engine_submit(e, 0, &o, false, &f), 2);
	assert_int_equal(f.n, 1);
	assert_fill(&f.v[0], 2, 3, 101, 2, 24);
	/* both of account 10's orders rest, crossing each other in price */
	assert_int_equal(engine_find(e, 0, 1)->gpus, 2);
	assert_int_equal(engine_find(e, 0, 3)->gpus, 1);
	struct eng_level bid, ask;
	assert_true(engine_best(e, 0, ENG_BUY, &bid));
	assert_true(engine_best(e, 0, ENG_SELL, &ask));
	assert_int_equal(bid.price_cents, 101);
	assert_int_equal(ask.price_cents, 100);
	eng_fills_free(&f);
	engine_free(&e);
}

static void test_cancel(void **state)
{
	struct engine *e = engine_new(2);
	struct eng_fills f = { 0 };
	struct eng_order out;
	place(e, 1, 10, ENG_BUY, 100, 2, 24);
	place(e, 2, 10, ENG_BUY, 100, 3, 24);
	assert_int_equal(engine_cancel(e, 0, 1, &out), 0);
	assert_int_equal(out.id, 1);
	assert_int_equal(out.gpus, 2);
	assert_int_equal(out.price_cents, 100);
	assert_null(engine_find(e, 0, 1));
	assert_int_equal(engine_cancel(e, 0, 1, NULL), -1);    /* not resting any more */
	assert_int_equal(engine_cancel(e, 0, 99, NULL), -1);   /* never was */
	assert_int_equal(engine_cancel(e, 1, 2, NULL), -1);    /* other book */
	assert_null(engine_find(e, 1, 2));
	struct eng_level l;
	assert_true(engine_best(e, 0, ENG_BUY, &l));
	assert_int_equal(l.gpus, 3);
	assert_int_equal(l.orders, 1);
	/* after a complete fill the order is gone */
	struct eng_order s = ord(3, 11, ENG_SELL, ENG_IOC, 100, 3, 24);
	assert_int_equal(engine_submit(e, 0, &s, false, &f), 3);
	assert_int_equal(engine_cancel(e, 0, 2, NULL), -1);
	assert_false(engine_best(e, 0, ENG_BUY, &l));
	/* after a partial fill the remainder is cancelled */
	place(e, 4, 10, ENG_BUY, 100, 5, 24);
	s = ord(5, 11, ENG_SELL, ENG_IOC, 100, 2, 24);
	assert_int_equal(engine_submit(e, 0, &s, false, &f), 2);
	assert_int_equal(engine_cancel(e, 0, 4, &out), 0);
	assert_int_equal(out.gpus, 3);
	assert_false(engine_best(e, 0, ENG_BUY, &l));
	eng_fills_free(&f);
	engine_free(&e);
}

static void test_restore_keeps_time_priority(void **state)
{
	struct engine *e = engine_new(3);
	/* restored in acceptance order: 7 before 5 at the same price */
	struct eng_order r[] = {
		ord(7, 10, ENG_SELL, ENG_GTC, 200, 1, 24),
		ord(5, 11, ENG_SELL, ENG_GTC, 200, 1, 24),
		ord(9, 12, ENG_SELL, ENG_GTC, 199, 1, 24),
		ord(8, 13, ENG_BUY, ENG_GTC, 250, 1, 12),   /* crosses in price, not in hours */
	};
	for (size_t i = 0; i < sizeof r / sizeof *r; i++)
		engine_restore(e, 2, &r[i], NULL, 0);
	assert_non_null(engine_find(e, 2, 8));       /* restore does not match */
	struct eng_fills f = { 0 };
	struct eng_order b = ord(10, 20, ENG_BUY, ENG_IOC, 200, 3, 24);
	assert_int_equal(engine_submit(e, 2, &b, false, &f), 3);
	assert_int_equal(f.n, 3);
	assert_int_equal(f.v[0].maker_id, 9);
	assert_int_equal(f.v[1].maker_id, 7);
	assert_int_equal(f.v[2].maker_id, 5);
	eng_fills_free(&f);
	engine_free(&e);
}

static void test_depth_aggregation(void **state)
{
	struct engine *e = engine_new(1);
	place(e, 1, 10, ENG_SELL, 105, 1, 24);
	place(e, 2, 11, ENG_SELL, 103, 2, 24);
	place(e, 3, 12, ENG_SELL, 105, 4, 48);
	place(e, 4, 13, ENG_SELL, 104, 8, 24);
	place(e, 5, 14, ENG_BUY, 99, 3, 24);
	place(e, 6, 15, ENG_BUY, 101, 5, 24);
	place(e, 7, 16, ENG_BUY, 99, 6, 1);
	struct eng_level l[8];
	assert_int_equal(engine_depth(e, 0, ENG_SELL, l, 8), 3);
	assert_int_equal(l[0].price_cents, 103);
	assert_int_equal(l[0].gpus, 2);
	assert_int_equal(l[0].orders, 1);
	assert_int_equal(l[1].price_cents, 104);
	assert_int_equal(l[1].gpus, 8);
	assert_int_equal(l[2].price_cents, 105);
	assert_int_equal(l[2].gpus, 5);
	assert_int_equal(l[2].orders, 2);
	assert_int_equal(engine_depth(e, 0, ENG_SELL, l, 2), 2);   /* max is respected */
	assert_int_equal(engine_depth(e, 0, ENG_BUY, l, 8), 2);
	assert_int_equal(l[0].price_cents, 101);
	assert_int_equal(l[0].gpus, 5);
	assert_int_equal(l[1].price_cents, 99);
	assert_int_equal(l[1].gpus, 9);
	assert_int_equal(l[1].orders, 2);
	assert_int_equal(engine_depth(e, 0, ENG_BUY, l, 0), 0);
	engine_free(&e);
}

static bool takes_eq(const struct eng_fills *a, const struct eng_fill *x,
                     const struct eng_fills *b, const struct eng_fill *y)
{
	if (x->ntakes != y->ntakes)
		return false;
	for (int32_t t = 0; t < x->ntakes; t++) {
		const struct eng_take *p = &a->takes[x->take + (size_t)t];
		const struct eng_take *q = &b->takes[y->take + (size_t)t];
		if (p->node != q->node || p->gpus != q->gpus)
			return false;
	}
	return true;
}

/* ---- lots of nodes and the bids' requirements --------------------------------- */

/* A resting ask: `nodes` nodes of k GPUs, in region 0 on NVLink, that must not trade. */
static struct eng_order lot(int64_t id, int64_t acct, int64_t price, int32_t k, int32_t nodes,
                            int32_t hours)
{
	struct eng_order o = ord(id, acct, ENG_SELL, ENG_GTC, price, k * nodes, hours);
	o.node_gpus = k;
	o.link = ENG_LINK_NVLINK;
	return o;
}

static void rest_lot(struct engine *e, struct eng_order o)
{
	struct eng_fills f = { 0 };
	assert_int_equal(engine_submit(e, 0, &o, false, &f), 0);
	assert_non_null(engine_find(e, 0, o.id));
	eng_fills_free(&f);
}

/* A buy in units of g. */
static struct eng_order unit_bid(int64_t id, int64_t acct, enum eng_tif tif, int64_t price,
                                 int32_t g, int32_t units, int32_t hours)
{
	struct eng_order o = ord(id, acct, ENG_BUY, tif, price, g * units, hours);
	o.node_gpus = g;
	return o;
}

/* The free GPUs of each node of resting sell id, as "8,5,0". */
static void nodes_text(struct engine *e, int64_t id, char *out, size_t size)
{
	const struct eng_node *nd;
	size_t n = engine_nodes(e, 0, id, &nd), len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(out + len, size - len, "%s%d", i ? "," : "", nd[i].free);
}

static void assert_nodes(struct engine *e, int64_t id, const char *want)
{
	char got[256];
	nodes_text(e, id, got, sizeof got);
	assert_string_equal(got, want);
}

static void assert_take(const struct eng_fills *f, size_t fill, int32_t t, int32_t node,
                        int32_t gpus)
{
	assert_true(t < f->v[fill].ntakes);
	const struct eng_take *x = &f->takes[f->v[fill].take + (size_t)t];
	assert_int_equal(x->node, node);
	assert_int_equal(x->gpus, gpus);
}

/* A unit of 8 comes from one node with 8 free: a cheaper lot of 4-GPU nodes
 * cannot serve it and keeps its place for the next buyer. */
static void test_unit_from_one_node(void **state)
{
	struct engine *e = engine_new(1);
	struct eng_fills f = { 0 };
	rest_lot(e, lot(1, 10, 280, 4, 4, 24));    /* 16 GPUs, cheaper, in nodes of 4 */
	rest_lot(e, lot(2, 11, 288, 8, 2, 24));    /* 16 GPUs in nodes of 8 */
	struct eng_order b = unit_bid(3, 20, ENG_IOC, 300, 8, 1, 24);
	assert_int_equal(engine_submit(e, 0, &b, false, &f), 8);
	assert_int_equal(f.n, 1);
	assert_fill(&f.v[0], 2, 3, 288, 8, 24);
	assert_int_equal(f.v[0].unit, 8);
	assert_int_equal(f.v[0].ntakes, 1);
	assert_take(&f, 0, 0, 0, 8);
	assert_nodes(e, 2, "0,8");
	assert_nodes(e, 1, "4,4,4,4");            /* untouched, still first in price */
	struct eng_level l;
	assert_true(engine_best(e, 0, ENG_SELL, &l));
	assert_int_equal(l.price_cents, 280);
	/* two more units of 8: the book has one; IOC takes it, FOK takes nothing */
	b = unit_bid(4, 20, ENG_FOK, 300, 8, 2, 24);
	eng_fills_reset(&f);
	assert_int_equal(engine_submit(e, 0, &b, false, &f), 0);
	assert_int_equal(f.n, 0);
	assert_nodes(e, 2, "0,8");
	b = unit_bid(5, 20, ENG_IOC, 300, 8, 2, 24);
	assert_int_equal(engine_submit(e, 0, &b, false, &f), 8);
	assert_int_equal(b.gpus, 8);              /* the unfilled unit expires */
	assert_null(engine_find(e, 0, 2));        /* sold out: the lot leaves the book */
	/* a unit of 4 fits the cheaper lot */
	b = unit_bid(6, 20, ENG_IOC, 300, 4, 3, 24);
	eng_fills_reset(&f);
	assert_int_equal(engine_submit(e, 0, &b, false, &f), 12);
	assert_int_equal(f.v[0].ntakes, 3);
	assert_nodes(e, 1, "0,0,0,4");
	eng_fills_free(&f);
	engine_free(&e);
}

/* A plain bid takes single GPUs from any node, the most used node first, so
 * whole nodes stay whole; what is left for units of 8 shrinks as it goes. */
static void test_fragmentation_by_plain_bids(void **state)
{
	struct engine *e = engine_new(1);
	struct eng_fills f = { 0 };
	rest_lot(e, lot(1, 10, 288, 8, 3, 24));
	struct eng_filter n8 = { .unit = 8 };
	struct eng_level l;
	assert_true(engine_best_for(e, 0, ENG_SELL, &n8, &l));
	assert_int_equal(l.units, 3);
	assert_int_equal(l.gpus, 24);
	struct eng_order b = ord(2, 20, ENG_BUY, ENG_IOC, 300, 3, 24);
	assert_int_equal(engine_submit(e, 0, &b, false, &f), 3);
	assert_take(&f, 0, 0, 0, 3);
	assert_nodes(e, 1, "5,8,8");
	b = ord(3, 21, ENG_BUY, ENG_IOC, 300, 6, 24);   /* 5 from node 0, then 1 from node 1 */
	eng_fills_reset(&f);
	assert_int_equal(engine_submit(e, 0, &b, false, &f), 6);
	assert_int_equal(f.v[0].ntakes, 2);
	assert_take(&f, 0, 0, 0, 5);
	assert_take(&f, 0, 1, 1, 1);
	assert_nodes(e, 1, "0,7,8");
	/* the book for units of 8 reflects it: one unit left of the 15 GPUs */
	assert_true(engine_best_for(e, 0, ENG_SELL, &n8, &l));
	assert_int_equal(l.units, 1);
	assert_int_equal(l.gpus, 8);
	assert_int_equal(l.gpu_hours, 8 * 24);
	assert_true(engine_best(e, 0, ENG_SELL, &l));
	assert_int_equal(l.gpus, 15);
	struct eng_filter n4 = { .unit = 4 };
	assert_true(engine_best_for(e, 0, ENG_SELL, &n4, &l));
	assert_int_equal(l.units, 3);              /* 7 → 1, 8 → 2 */
	eng_fills_free(&f);
	engine_free(&e);
}

/* A whole-node lot sells whole machines only: a plain bid and a bid for units of
 * 4 pass over it to dearer asks; a bid for units of 8 takes a node. */
static void test_whole_nodes(void **state)
{
	struct engine *e = engine_new(1);
	struct eng_fills f = { 0 };
	struct eng_order w = lot(1, 10, 280, 8, 2, 24);
	w.whole_nodes = true;
	rest_lot(e, w);
	rest_lot(e, lot(2, 11, 290, 4, 2, 24));
	struct eng_order b = ord(3, 20, ENG_BUY, ENG_IOC, 300, 2, 24);
	assert_int_equal(engine_submit(e, 0, &b, false, &f), 2);
	assert_int_equal(f.v[0].maker_id, 2);
	b = unit_bid(4, 20, ENG_IOC, 300, 4, 1, 24);
	eng_fills_reset(&f);
	assert_int_equal(engine_submit(e, 0, &b, false, &f), 4);
	assert_int_equal(f.v[0].maker_id, 2);
	assert_nodes(e, 1, "8,8");
	b = unit_bid(5, 20, ENG_IOC, 300, 8, 1, 24);
	eng_fills_reset(&f);
	assert_int_equal(engine_submit(e, 0, &b, false, &f), 8);
	assert_int_equal(f.v[0].maker_id, 1);
	assert_nodes(e, 1, "0,8");
	/* ladders: units of 1 leave it out, units of 8 show it */
	struct eng_filter n1 = { .unit = 1 }, n8 = { .unit = 8 };
	struct eng_level l;
	assert_true(engine_best_for(e, 0, ENG_SELL, &n1, &l));
	assert_int_equal(l.price_cents, 290);
	assert_true(engine_best_for(e, 0, ENG_SELL, &n8, &l));
	assert_int_equal(l.price_cents, 280);
	assert_int_equal(l.units, 1);
	/* an incoming whole-node sell serves a bid for units of 8, never a plain one */
	engine_free(&e);
	e = engine_new(1);
	struct eng_order pb = ord(7, 21, ENG_BUY, ENG_GTC, 270, 2, 24);
	assert_int_equal(engine_submit(e, 0, &pb, false, &f), 0);
	struct eng_order ub = unit_bid(8, 22, ENG_GTC, 260, 8, 1, 24);
	assert_int_equal(engine_submit(e, 0, &ub, false, &f), 0);
	struct eng_order s = lot(10, 13, 250, 8, 1, 24);
	s.whole_nodes = true;
	s.tif = ENG_IOC;
	eng_fills_reset(&f);
	assert_int_equal(engine_submit(e, 0, &s, false, &f), 8);
	assert_int_equal(f.n, 1);
	assert_int_equal(f.v[0].maker_id, 8);      /* the better-priced plain bid 7 is passed over */
	assert_int_equal(engine_find(e, 0, 7)->gpus, 2);
	eng_fills_free(&f);
	engine_free(&e);
}

/* Links, regions and host minimums: an ask that does not satisfy them is skipped
 * and keeps its place; one with a host figure not stated (0) fails a minimum. */
static void test_requirements(void **state)
{
	struct engine *e = engine_new(1);
	struct eng_fills f = { 0 };
	struct eng_order a = lot(1, 10, 100, 8, 1, 24);   /* region 0, NVLink, no host stated */
	struct eng_order b = lot(2, 11, 101, 8, 1, 24);
	b.region = 2;
	b.host = (struct eng_host){ 112, 2048, 30000 };
	struct eng_order c = lot(3, 12, 102, 8, 1, 24);
	c.link = ENG_LINK_PCIE;
	c.region = 1;
	c.host = (struct eng_host){ 64, 512, 8000 };
	rest_lot(e, a);
	rest_lot(e, b);
	rest_lot(e, c);
	struct eng_order o = unit_bid(4, 20, ENG_IOC, 200, 8, 1, 24);
	o.regions = 1u << 1 | 1u << 2;             /* not region 0 */
	assert_int_equal(engine_submit(e, 0, &o, true, &f), 8);
	assert_int_equal(f.v[0].maker_id, 2);
	o = unit_bid(5, 20, ENG_IOC, 200, 8, 1, 24);
	o.link = ENG_LINK_PCIE;
	eng_fills_reset(&f);
	assert_int_equal(engine_submit(e, 0, &o, true, &f), 8);
	assert_int_equal(f.v[0].maker_id, 3);
	o = unit_bid(6, 20, ENG_IOC, 200, 8, 1, 24);
	o.host.ram_gb = 1024;                      /* only b has that much */
	eng_fills_reset(&f);
	assert_int_equal(engine_submit(e, 0, &o, true, &f), 8);
	assert_int_equal(f.v[0].maker_id, 2);
	o.host.ram_gb = 4096;                      /* nobody */
	eng_fills_reset(&f);
	assert_int_equal(engine_submit(e, 0, &o, true, &f), 0);
	/* a plain bid with one requirement is still plain in size */
	o = ord(7, 20, ENG_BUY, ENG_IOC, 200, 3, 24);
	o.regions = 1u << 1;
	eng_fills_reset(&f);
	assert_int_equal(engine_submit(e, 0, &o, false, &f), 3);
	assert_int_equal(f.v[0].maker_id, 3);
	assert_nodes(e, 3, "5");
	assert_nodes(e, 1, "8");
	/* ladders by region and link */
	struct eng_filter fr = { .unit = 8, .regions = 1u << 2 }, fl = { .unit = 1, .link = ENG_LINK_PCIE };
	struct eng_level l[4];
	assert_int_equal(engine_depth_for(e, 0, ENG_SELL, &fr, l, 4), 1);
	assert_int_equal(l[0].price_cents, 101);
	assert_int_equal(engine_depth_for(e, 0, ENG_SELL, &fl, l, 4), 1);
	assert_int_equal(l[0].gpus, 5);
	eng_fills_free(&f);
	engine_free(&e);
}

/* An incoming sell meets resting bids with units: each bid is served from one
 * node of the sell's lot, and what is left rests with its nodes as they are. */
static void test_sell_meets_unit_bids(void **state)
{
	struct engine *e = engine_new(1);
	struct eng_fills f = { 0 }, g = { 0 };
	struct eng_order b8 = unit_bid(1, 20, ENG_GTC, 300, 8, 1, 24);
	struct eng_order b2 = ord(2, 21, ENG_BUY, ENG_GTC, 300, 2, 24);
	struct eng_order b4 = unit_bid(3, 22, ENG_GTC, 299, 4, 2, 12);
	assert_int_equal(engine_submit(e, 0, &b8, false, &f), 0);
	assert_int_equal(engine_submit(e, 0, &b2, false, &f), 0);
	assert_int_equal(engine_submit(e, 0, &b4, false, &f), 0);
	/* two nodes of 4: the unit-8 bid cannot be served and keeps its place */
	struct eng_order s = lot(4, 10, 290, 4, 2, 48);
	struct eng_order dry = s;
	assert_int_equal(engine_submit(e, 0, &dry, true, &g), 6);
	assert_int_equal(engine_submit(e, 0, &s, false, &f), 6);
	assert_int_equal(f.n, 2);
	assert_int_equal(g.n, f.n);
	for (size_t i = 0; i < f.n; i++) {
		assert_true(fill_eq(&f.v[i], &g.v[i]));
		assert_true(takes_eq(&f, &f.v[i], &g, &g.v[i]));
	}
	assert_int_equal(f.v[0].maker_id, 2);      /* 2 GPUs from node 0 */
	assert_take(&f, 0, 0, 0, 2);
	assert_int_equal(f.v[1].maker_id, 3);      /* one unit of 4: node 1 (node 0 has 2) */
	assert_take(&f, 1, 0, 1, 4);
	assert_int_equal(f.v[1].hours, 12);
	assert_nodes(e, 4, "2,0");                 /* rests with 2 GPUs on node 0 */
	assert_int_equal(engine_find(e, 0, 3)->gpus, 4);
	assert_int_equal(engine_find(e, 0, 1)->gpus, 8);
	/* a restart restores the lot as it was left */
	struct eng_node nd[2] = { { 2 }, { 0 } };
	struct eng_order rs = *engine_find(e, 0, 4);
	engine_free(&e);
	e = engine_new(1);
	engine_restore(e, 0, &rs, nd, 2);
	assert_nodes(e, 4, "2,0");
	struct eng_order t = unit_bid(5, 23, ENG_IOC, 300, 2, 2, 24);
	eng_fills_reset(&f);
	assert_int_equal(engine_submit(e, 0, &t, false, &f), 2);   /* one unit of 2 is all */
	assert_null(engine_find(e, 0, 4));
	eng_fills_free(&f);
	eng_fills_free(&g);
	engine_free(&e);
}

/* FOK and IOC of an incoming sell are by the bids' units too: a lot of two
 * nodes of 8 meets a bid for a node of 8 and one for a unit of 4; FOK (16 GPUs)
 * fails with 4 left over and changes nothing, IOC sells 12 and drops the rest. */
static void test_sell_fok_by_units(void **state)
{
	struct engine *e = engine_new(1);
	struct eng_fills f = { 0 };
	struct eng_order b8 = unit_bid(1, 20, ENG_GTC, 300, 8, 1, 24);
	struct eng_order b4 = unit_bid(2, 21, ENG_GTC, 300, 4, 1, 24);
	assert_int_equal(engine_submit(e, 0, &b8, false, &f), 0);
	assert_int_equal(engine_submit(e, 0, &b4, false, &f), 0);
	struct eng_order s = lot(3, 10, 290, 8, 2, 24);
	s.tif = ENG_FOK;
	assert_int_equal(engine_submit(e, 0, &s, false, &f), 0);
	assert_int_equal(f.n, 0);
	assert_int_equal(engine_find(e, 0, 1)->gpus, 8);
	assert_int_equal(engine_find(e, 0, 2)->gpus, 4);
	s = lot(4, 10, 290, 8, 2, 24);
	s.tif = ENG_IOC;
	assert_int_equal(engine_submit(e, 0, &s, false, &f), 12);
	assert_int_equal(f.n, 2);
	assert_take(&f, 0, 0, 0, 8);
	assert_take(&f, 1, 0, 1, 4);
	assert_null(engine_find(e, 0, 4));         /* IOC: its last 4 GPUs do not rest */
	assert_null(engine_find(e, 0, 1));
	assert_null(engine_find(e, 0, 2));
	eng_fills_free(&f);
	engine_free(&e);
}

/* ---- the reference matcher --------------------------------------------------- */

#define REF_NODES 64

struct ref_order {
	struct eng_order o;
	long seq;
	int32_t n_nodes;            /* a sell's lot: free GPUs per node */
	int32_t free[REF_NODES];
};
struct ref_book { struct ref_order *v; size_t n, cap; };

static int32_t ref_k(const struct eng_order *o) { return o->node_gpus < 1 ? 1 : o->node_gpus; }

/* Units of g the lot holds: every node's free GPUs divided by g, added up. */
static int32_t ref_units(const int32_t *free, int32_t n, int32_t g)
{
	int32_t u = 0;
	for (int32_t i = 0; i < n; i++)
		u += free[i] / g;
	return u;
}

/* Does sell s, as it is, satisfy buy b (prices and hours aside)? */
static bool ref_lot_ok(const struct eng_order *b, const struct eng_order *s)
{
	int32_t g = ref_k(b), k = ref_k(s);
	if (s->whole_nodes ? k != g : k < g)
		return false;
	if (b->link != ENG_LINK_ANY && b->link != s->link)
		return false;
	if (b->regions != 0 && (b->regions & (UINT64_C(1) << s->region)) == 0)
		return false;
	return s->host.cpu_cores >= b->host.cpu_cores && s->host.ram_gb >= b->host.ram_gb &&
	       s->host.disk_gb >= b->host.disk_gb;
}

/* Can taker t (with its lot tfree/tn if it sells) trade with resting m now? */
static bool ref_eligible(const struct eng_order *t, const int32_t *tfree, int32_t tn,
                         const struct ref_order *m)
{
	const struct eng_order *mo = &m->o;
	if (mo->side == t->side || mo->account == t->account || mo->gpus <= 0)
		return false;
	if (t->side == ENG_BUY)
		return mo->price_cents <= t->price_cents && mo->hours >= t->hours &&
		       ref_lot_ok(t, mo) && ref_units(m->free, m->n_nodes, ref_k(t)) > 0;
	return mo->price_cents >= t->price_cents && mo->hours <= t->hours && ref_lot_ok(mo, t) &&
	       ref_units(tfree, tn, ref_k(mo)) > 0;
}

/* better(a, b): a comes before b in price-time priority (same side). */
static bool ref_better(const struct ref_order *a, const struct ref_order *b)
{
	if (a->o.price_cents != b->o.price_cents)
		return a->o.side == ENG_SELL ? a->o.price_cents < b->o.price_cents
		                             : a->o.price_cents > b->o.price_cents;
	return a->seq < b->seq;
}

struct ref_cand { int32_t free, node; };

static int cmp_cand(const void *a, const void *b)
{
	const struct ref_cand *x = a, *y = b;
	if (x->free != y->free)
		return x->free < y->free ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/* Take u units of g from the lot: the nodes with the fewest free GPUs first
 * (then the lowest index), as many units from each as it holds. */
static void ref_take(int32_t *free, int32_t n, int32_t g, int32_t u, struct eng_fills *fills)
{
	struct ref_cand c[REF_NODES];
	int32_t nc = 0;
	for (int32_t i = 0; i < n; i++)
		if (free[i] >= g)
			c[nc++] = (struct ref_cand){ free[i], i };
	qsort(c, (size_t)nc, sizeof *c, cmp_cand);
	for (int32_t i = 0; i < nc && u > 0; i++) {
		int32_t q = c[i].free / g < u ? c[i].free / g : u;
		u -= q;
		free[c[i].node] -= q * g;
		if (fills->ntakes == fills->captakes) {
			fills->captakes = fills->captakes ? fills->captakes * 2 : 16;
			fills->takes = realloc(fills->takes, fills->captakes * sizeof *fills->takes);
		}
		fills->takes[fills->ntakes++] = (struct eng_take){ c[i].node, q * g };
	}
	assert_int_equal(u, 0);
}

static int32_t ref_submit(struct ref_book *rb, struct eng_order *t, bool dry,
                          struct eng_fills *fills, long *seq)
{
	struct ref_book w = { .n = rb->n, .cap = rb->n };
	w.v = malloc((rb->n + 1) * sizeof *w.v);
	if (rb->n > 0)
		memcpy(w.v, rb->v, rb->n * sizeof *w.v);
	size_t n0 = fills->n, t0 = fills->ntakes;
	struct ref_order me = { .o = *t };   /* a sell's own lot: whole nodes */
	if (t->side == ENG_SELL) {
		me.n_nodes = t->gpus / ref_k(t);
		for (int32_t i = 0; i < me.n_nodes; i++)
			me.free[i] = ref_k(t);
	}
	int32_t left = t->gpus;
	while (left > 0) {
		struct ref_order *best = NULL;
		for (size_t i = 0; i < w.n; i++)
			if (ref_eligible(t, me.free, me.n_nodes, &w.v[i]) &&
			    (best == NULL || ref_better(&w.v[i], best)))
				best = &w.v[i];
		if (best == NULL)
			break;
		bool buy = t->side == ENG_BUY;
		int32_t g = ref_k(buy ? t : &best->o);
		struct ref_order *lot = buy ? best : &me;
		int32_t have = ref_units(lot->free, lot->n_nodes, g);
		int32_t want = (buy ? left : best->o.gpus) / g;
		int32_t u = have < want ? have : want;
		size_t take = fills->ntakes;
		ref_take(lot->free, lot->n_nodes, g, u, fills);
		if (fills->n == fills->cap) {
			fills->cap = fills->cap ? fills->cap * 2 : 16;
			fills->v = realloc(fills->v, fills->cap * sizeof *fills->v);
		}
		fills->v[fills->n++] = (struct eng_fill){
			.maker_id = best->o.id, .maker_account = best->o.account,
			.taker_id = t->id, .taker_account = t->account,
			.price_cents = best->o.price_cents, .gpus = u * g,
			.hours = buy ? t->hours : best->o.hours, .taker_side = t->side,
			.unit = g, .take = take, .ntakes = (int32_t)(fills->ntakes - take),
		};
		best->o.gpus -= u * g;
		left -= u * g;
	}
	if (t->tif == ENG_FOK && left > 0) {   /* as if it had never come */
		fills->n = n0;
		fills->ntakes = t0;
		free(w.v);
		return 0;
	}
	int32_t filled = t->gpus - left;
	t->gpus = left;
	if (!dry) {
		size_t j = 0;   /* drop the emptied orders */
		for (size_t i = 0; i < w.n; i++)
			if (w.v[i].o.gpus > 0)
				w.v[j++] = w.v[i];
		w.n = j;
		if (left > 0 && t->tif == ENG_GTC) {
			me.o = *t;
			me.o.node_gpus = ref_k(t);
			me.o.tif = ENG_GTC;
			me.seq = (*seq)++;
			w.v[w.n++] = me;
		}
		free(rb->v);
		*rb = w;
		rb->cap = rb->n + 1;
	} else {
		free(w.v);
	}
	return filled;
}

/* Units of f->unit one order offers (asks) or asks for (bids) under f. */
static int64_t ref_units_for(const struct ref_order *r, const struct eng_filter *f)
{
	const struct eng_order *o = &r->o;
	int32_t g = f->unit < 1 ? 1 : f->unit;
	if (o->side == ENG_BUY) {
		bool link = o->link == ENG_LINK_ANY || f->link == ENG_LINK_ANY || o->link == f->link;
		bool region = o->regions == 0 || f->regions == 0 || (o->regions & f->regions) != 0;
		return ref_k(o) == g && link && region ? o->gpus / g : 0;
	}
	struct eng_order probe = { .side = ENG_BUY, .node_gpus = g, .link = f->link,
	                           .regions = f->regions, .host = f->min };
	return ref_lot_ok(&probe, o) ? ref_units(r->free, r->n_nodes, g) : 0;
}

/* The ladder of one side, best first: all GPUs (f NULL) or units under f. */
static size_t ref_depth(const struct ref_book *rb, enum eng_side side, const struct eng_filter *f,
                        struct eng_level *out, size_t max)
{
	size_t n = 0;   /* out has room for every order */
	for (size_t i = 0; i < rb->n; i++) {
		const struct eng_order *o = &rb->v[i].o;
		if (o->side != side)
			continue;
		int64_t g = f ? (f->unit < 1 ? 1 : f->unit) : 1;
		int64_t u = f ? ref_units_for(&rb->v[i], f) : o->gpus;
		if (u == 0)
			continue;
		size_t k = 0;
		while (k < n && out[k].price_cents != o->price_cents)
			k++;
		if (k == n)
			out[n++] = (struct eng_level){ .price_cents = o->price_cents };
		out[k].units += u;
		out[k].gpus += u * g;
		out[k].orders++;
		out[k].gpu_hours += u * g * o->hours;
	}
	for (size_t i = 1; i < n; i++)   /* insertion sort, best first */
		for (size_t j = i; j > 0; j--) {
			bool swap = side == ENG_SELL ? out[j].price_cents < out[j - 1].price_cents
			                             : out[j].price_cents > out[j - 1].price_cents;
			if (!swap)
				break;
			struct eng_level x = out[j];
			out[j] = out[j - 1];
			out[j - 1] = x;
		}
	return n < max ? n : max;
}

static int ref_cancel(struct ref_book *rb, int64_t id, struct eng_order *out)
{
	for (size_t i = 0; i < rb->n; i++)
		if (rb->v[i].o.id == id) {
			*out = rb->v[i].o;
			memmove(&rb->v[i], &rb->v[i + 1], (rb->n - i - 1) * sizeof *rb->v);
			rb->n--;
			return 0;
		}
	return -1;
}

static int cmp_seq(const void *a, const void *b)
{
	const struct ref_order *x = a, *y = b;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* xorshift64*: fixed seeds, the same sequence on every machine */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}
static int32_t pick(uint64_t *s, int32_t n) { return (int32_t)(rnd(s) % (uint64_t)n); }

#define NBOOKS 3

/* The ladders compared after each step, beside the plain one. */
static const struct eng_filter ref_filters[] = {
	{ .unit = 1 }, { .unit = 2 }, { .unit = 8 },
	{ .unit = 4, .regions = 0x2 },
	{ .unit = 8, .link = ENG_LINK_NVLINK, .regions = 0x5 },
	{ .unit = 1, .min = { .ram_gb = 512 } },
};

static void compare_ladder(struct engine *e, struct ref_book *rb, size_t b, int side,
                           const struct eng_filter *f, long step)
{
	size_t cap = rb[b].n + 1;
	struct eng_level *x = calloc(cap, sizeof *x), *y = calloc(cap, sizeof *y);
	size_t nx = f ? engine_depth_for(e, b, (enum eng_side)side, f, x, cap)
	              : engine_depth(e, b, (enum eng_side)side, x, cap);
	size_t ny = ref_depth(&rb[b], (enum eng_side)side, f, y, cap);
	if (nx != ny || !levels_eq(x, y, nx))
		fail_msg("step %ld book %zu side %d unit %d: depth differs (%zu vs %zu levels)",
		         step, b, side, f ? f->unit : 0, nx, ny);
	struct eng_level best;
	bool any = f ? engine_best_for(e, b, (enum eng_side)side, f, &best)
	             : engine_best(e, b, (enum eng_side)side, &best);
	assert_int_equal(any, ny > 0);
	if (ny > 0)
		assert_true(levels_eq(&best, &y[0], 1));
	free(x);
	free(y);
}

static void compare_books(struct engine *e, struct ref_book *rb, long step)
{
	for (size_t b = 0; b < NBOOKS; b++) {
		for (int side = 0; side < 2; side++) {
			compare_ladder(e, rb, b, side, NULL, step);
			for (size_t k = 0; k < sizeof ref_filters / sizeof *ref_filters; k++)
				compare_ladder(e, rb, b, side, &ref_filters[k], step);
		}
		/* every lot's nodes, and whole-node lots never fragmented */
		for (size_t i = 0; i < rb[b].n; i++) {
			const struct ref_order *r = &rb[b].v[i];
			const struct eng_node *nd;
			size_t n = engine_nodes(e, b, r->o.id, &nd);
			if (r->o.side == ENG_BUY) {
				assert_int_equal(n, 0);
				continue;
			}
			assert_int_equal(n, r->n_nodes);
			for (size_t k = 0; k < n; k++) {
				if (nd[k].free != r->free[k])
					fail_msg("step %ld: order %lld node %zu has %d free, not %d", step,
					         (long long)r->o.id, k, nd[k].free, r->free[k]);
				if (r->o.whole_nodes)
					assert_true(nd[k].free == 0 || nd[k].free == r->o.node_gpus);
			}
		}
	}
}

/* The rules that hold for any output of the engine, whatever the reference says:
 * every fill is whole units, each unit from one node of the sell's lot; a
 * whole-node lot only ever sells whole nodes; no account trades with itself. */
static void check_fills(const struct eng_fills *f, const struct eng_order *taker,
                        const struct ref_book *rb)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct eng_fill *x = &f->v[i];
		assert_true(x->maker_account != x->taker_account);
		assert_true(x->unit >= 1 && x->gpus % x->unit == 0);
		const struct eng_order *sell = taker->side == ENG_SELL ? taker : NULL;
		for (size_t k = 0; sell == NULL && k < rb->n; k++)
			if (rb->v[k].o.id == x->maker_id)
				sell = &rb->v[k].o;
		assert_non_null(sell);
		int32_t sum = 0;
		for (int32_t t = 0; t < x->ntakes; t++) {
			const struct eng_take *tk = &f->takes[x->take + (size_t)t];
			assert_true(tk->gpus > 0 && tk->gpus % x->unit == 0);
			assert_true(tk->gpus <= ref_k(sell));
			if (sell->whole_nodes)
				assert_int_equal(tk->gpus, ref_k(sell));
			for (int32_t u = 0; u < t; u++)   /* one take per node per fill */
				assert_int_not_equal(f->takes[x->take + (size_t)u].node, tk->node);
			sum += tk->gpus;
		}
		assert_int_equal(sum, x->gpus);
	}
}


static bool order_eq(const struct eng_order *a, const struct eng_order *b)
{
	return a->id == b->id && a->account == b->account && a->side == b->side &&
	       a->price_cents == b->price_cents && a->gpus == b->gpus && a->hours == b->hours &&
	       ref_k(a) == ref_k(b) && a->whole_nodes == b->whole_nodes && a->link == b->link &&
	       a->region == b->region && a->regions == b->regions &&
	       a->host.cpu_cores == b->host.cpu_cores && a->host.ram_gb == b->host.ram_gb &&
	       a->host.disk_gb == b->host.disk_gb;
}

/* A random order; with lots, asks are lots of nodes and bids have requirements. */
static struct eng_order random_order(uint64_t *s, int64_t id, int r, int32_t price_span, bool lots)
{
	static const int32_t hours[] = { 1, 2, 4, 8, 12, 24, 48, 168 };
	static const int32_t ks[] = { 1, 1, 2, 4, 8, 8 };
	struct eng_order o = {
		.id = id, .account = 1 + pick(s, 4),
		.side = (enum eng_side)pick(s, 2),
		.tif = (enum eng_tif)(r < 70 ? ENG_GTC : r < 85 ? ENG_IOC : ENG_FOK),
		.price_cents = 1000 + pick(s, price_span),
		.gpus = 1 + pick(s, 8),
		.hours = hours[pick(s, (int32_t)(sizeof hours / sizeof *hours))],
	};
	if (!lots)
		return o;
	int32_t k = ks[pick(s, 6)];
	if (o.side == ENG_SELL) {
		o.node_gpus = k;
		o.gpus = k * (1 + pick(s, 4));
		o.whole_nodes = k > 1 && pick(s, 4) == 0;
		o.link = k >= 4 ? ENG_LINK_NVLINK : (uint8_t)(ENG_LINK_PCIE - pick(s, 2) * 2);
		o.region = (uint8_t)pick(s, 3);
		o.host = (struct eng_host){ 16 * pick(s, 5), 256 * pick(s, 5), 1000 * pick(s, 3) };
	} else {
		o.node_gpus = pick(s, 2) ? 1 : k;
		o.gpus = o.node_gpus * (1 + pick(s, o.node_gpus > 1 ? 3 : 12));
		o.link = pick(s, 3) ? ENG_LINK_ANY : (uint8_t)(1 + pick(s, 3));
		o.regions = pick(s, 2) ? 0 : (uint64_t)(1 + pick(s, 7));
		if (pick(s, 4) == 0)
			o.host = (struct eng_host){ 16 * pick(s, 4), 256 * pick(s, 4), 1000 * pick(s, 2) };
	}
	return o;
}

static void differential_run(uint64_t seed, long steps, int32_t price_span, bool lots)
{
	struct engine *e = engine_new(NBOOKS);
	struct ref_book rb[NBOOKS] = { 0 };
	struct eng_fills fe = { 0 }, fr = { 0 };
	int64_t next_id = 1;
	long seq = 0;
	uint64_t s = seed;
	for (long step = 0; step < steps; step++) {
		size_t b = (size_t)pick(&s, NBOOKS);
		int r = pick(&s, 100);
		if (r < 12) {   /* cancel: mostly ids that exist, some that never did */
			int64_t id;
			if (rb[b].n > 0 && pick(&s, 4) != 0)
				id = rb[b].v[pick(&s, (int32_t)rb[b].n)].o.id;
			else
				id = 1 + pick(&s, (int32_t)next_id + 5);
			struct eng_order xe, xr;
			int ce = engine_cancel(e, b, id, &xe);
			int cr = ref_cancel(&rb[b], id, &xr);
			assert_int_equal(ce, cr);
			if (ce == 0)
				assert_true(order_eq(&xe, &xr));
			assert_null(engine_find(e, b, id));
		} else if (r < 13) {   /* restart: rebuild from the resting orders, in acceptance order */
			engine_free(&e);
			e = engine_new(NBOOKS);
			for (size_t k = 0; k < NBOOKS; k++) {
				if (rb[k].n > 1)
					qsort(rb[k].v, rb[k].n, sizeof *rb[k].v, cmp_seq);
				for (size_t i = 0; i < rb[k].n; i++) {
					const struct ref_order *x = &rb[k].v[i];
					struct eng_node nd[REF_NODES];
					for (int32_t j = 0; j < x->n_nodes; j++)
						nd[j].free = x->free[j];
					engine_restore(e, k, &x->o, x->o.side == ENG_SELL ? nd : NULL,
					               (size_t)x->n_nodes);
				}
			}
		} else {
			struct eng_order o = random_order(&s, next_id++, r, price_span, lots);
			bool dry = pick(&s, 10) == 0;
			struct eng_order oe = o, oref = o;
			eng_fills_reset(&fe);
			eng_fills_reset(&fr);
			int32_t ge = engine_submit(e, b, &oe, dry, &fe);
			check_fills(&fe, &o, &rb[b]);
			int32_t gr = ref_submit(&rb[b], &oref, dry, &fr, &seq);
			if (ge != gr || fe.n != fr.n)
				fail_msg("step %ld (seed %llu): filled %d/%d in %zu/%zu fills", step,
				         (unsigned long long)seed, ge, gr, fe.n, fr.n);
			for (size_t i = 0; i < fe.n; i++)
				if (!fill_eq(&fe.v[i], &fr.v[i]) || fe.v[i].unit != fr.v[i].unit ||
				    !takes_eq(&fe, &fe.v[i], &fr, &fr.v[i]))
					fail_msg("step %ld (seed %llu): fill %zu differs: maker %lld/%lld "
					         "gpus %d/%d takes %d/%d", step, (unsigned long long)seed, i,
					         (long long)fe.v[i].maker_id, (long long)fr.v[i].maker_id,
					         fe.v[i].gpus, fr.v[i].gpus, fe.v[i].ntakes, fr.v[i].ntakes);
			assert_int_equal(oe.gpus, oref.gpus);
			const struct eng_order *f = engine_find(e, b, o.id);
			bool rests = !dry && o.tif == ENG_GTC && oref.gpus > 0;
			assert_int_equal(f != NULL, rests);
			if (rests)
				assert_int_equal(f->gpus, oref.gpus);
		}
		compare_books(e, rb, step);
	}
	/* every order the reference holds is findable with the same remaining count */
	for (size_t k = 0; k < NBOOKS; k++) {
		for (size_t i = 0; i < rb[k].n; i++) {
			const struct eng_order *f = engine_find(e, k, rb[k].v[i].o.id);
			assert_non_null(f);
			assert_true(order_eq(f, &rb[k].v[i].o));
		}
		free(rb[k].v);
	}
	eng_fills_free(&fe);
	eng_fills_free(&fr);
	engine_free(&e);
}

static void test_differential_narrow(void **state)
{
	/* 8 prices: deep levels, many skips for hours and accounts */
	for (uint64_t seed = 1; seed <= 6; seed++)
		differential_run(seed * 0x9E3779B97F4A7C15ull, 3000, 8, false);
}

static void test_differential_wide(void **state)
{
	/* 40 prices: many levels, inserts and removals in the middle of a side */
	for (uint64_t seed = 101; seed <= 104; seed++)
		differential_run(seed * 0xD1B54A32D192ED03ull, 4000, 40, false);
}

/* Lots of 1, 2, 4 and 8 GPUs per node (some whole-node only) in three regions with
 * hosts; bids in units of 1..8 with links, regions and host minimums. */
static void test_differential_lots(void **state)
{
	for (uint64_t seed = 201; seed <= 206; seed++)
		differential_run(seed * 0x9E3779B97F4A7C15ull, 3000, 8, true);
	for (uint64_t seed = 301; seed <= 303; seed++)
		differential_run(seed * 0xD1B54A32D192ED03ull, 3000, 40, true);
}

/* Many resting orders with scattered ids, churned by cancels: the id map (its growth,
 * its deletions across the end of the table) and levels inserted and removed in the
 * middle of a side. Nothing crosses: bids are below 1000, asks above 2000. */
static void churn(int N, int ROUNDS)
{
	struct engine *e = engine_new(1);
	int64_t *ids = calloc(N, sizeof *ids);    /* 0: slot free */
	int32_t *gpus = calloc(N, sizeof *gpus);
	uint64_t s = 0x1234567890ABCDEFull;
	int64_t total[2] = { 0, 0 };
	for (int round = 0; round < ROUNDS; round++) {
		for (int i = 0; i < N; i++) {
			bool sell = (i & 1) != 0;
			if (ids[i] == 0 && pick(&s, 3) != 0) {
				ids[i] = (int64_t)(rnd(&s) >> 20) * 2 + 2 + (sell ? 1 : 0);
				while (engine_find(e, 0, ids[i]) != NULL)   /* keep ids unique */
					ids[i] += 2;
				gpus[i] = 1 + pick(&s, 5);
				struct eng_order o = ord(ids[i], i, sell ? ENG_SELL : ENG_BUY, ENG_GTC,
				                         sell ? 2000 + pick(&s, 997) : 1 + pick(&s, 997),
				                         gpus[i], 1);
				engine_restore(e, 0, &o, NULL, 0);
				total[sell] += gpus[i];
			} else if (ids[i] != 0 && pick(&s, 2) == 0) {
				struct eng_order out;
				assert_int_equal(engine_cancel(e, 0, ids[i], &out), 0);
				assert_int_equal(out.gpus, gpus[i]);
				assert_int_equal(engine_cancel(e, 0, ids[i], &out), -1);
				total[sell] -= gpus[i];
				ids[i] = 0;
			}
		}
		for (int i = 0; i < N; i++)
			if (ids[i] != 0) {
				const struct eng_order *f = engine_find(e, 0, ids[i]);
				assert_non_null(f);
				assert_int_equal(f->account, i);
				assert_int_equal(f->gpus, gpus[i]);
			}
		for (int side = 0; side < 2; side++) {
			struct eng_level *l = calloc(N, sizeof *l);
			size_t n = engine_depth(e, 0, (enum eng_side)side, l, N);
			int64_t sum = 0;
			for (size_t k = 0; k < n; k++) {
				sum += l[k].gpus;
				if (k > 0)
					assert_true(side == ENG_BUY ? l[k].price_cents < l[k - 1].price_cents
					                            : l[k].price_cents > l[k - 1].price_cents);
			}
			assert_int_equal(sum, total[side]);
			free(l);
		}
	}
	free(ids);
	free(gpus);
	engine_free(&e);
}

static void test_many_orders_churn(void **state)
{
	churn(6000, 40);
	churn(50, 4000);   /* a small, busy id map: probe runs often wrap around its end */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_price_time_priority),
		cmocka_unit_test(test_trades_at_resting_price),
		cmocka_unit_test(test_partial_fills),
		cmocka_unit_test(test_hours_rule),
		cmocka_unit_test(test_time_in_force),
		cmocka_unit_test(test_dry_run_changes_nothing),
		cmocka_unit_test(test_change_count),
		cmocka_unit_test(test_self_trade_prevention),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_restore_keeps_time_priority),
		cmocka_unit_test(test_depth_aggregation),
		cmocka_unit_test(test_many_orders_churn),
		cmocka_unit_test(test_level_gpu_hours),
		cmocka_unit_test(test_unit_from_one_node),
		cmocka_unit_test(test_fragmentation_by_plain_bids),
		cmocka_unit_test(test_whole_nodes),
		cmocka_unit_test(test_requirements),
		cmocka_unit_test(test_sell_meets_unit_bids),
		cmocka_unit_test(test_sell_fok_by_units),
		cmocka_unit_test(test_differential_narrow),
		cmocka_unit_test(test_differential_wide),
		cmocka_unit_test(test_differential_lots),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
