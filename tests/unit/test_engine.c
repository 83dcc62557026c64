/*
 * tests/unit/test_engine.c — the matching engine (exchange/engine.h).
 *
 * Hand-written cases for each rule of the market (price-time priority, trades
 * at the resting price, partial fills, the hours rule, GTC/IOC/FOK, dry runs,
 * self-trade prevention, cancel, restore, depth), then a randomized
 * differential test against a naive reference matcher written here: plain
 * arrays, an O(n^2) "find the best eligible resting order, trade, repeat" loop,
 * obviously correct. Every fill and the depth of both sides are compared after
 * each step, over fixed seeds.
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
		    a[i].orders != b[i].orders || a[i].gpu_hours != b[i].gpu_hours)
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
		engine_restore(e, 2, &r[i]);
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

/* ---- the reference matcher --------------------------------------------------- */

struct ref_order { struct eng_order o; long seq; };
struct ref_book { struct ref_order *v; size_t n, cap; };

static bool ref_eligible(const struct eng_order *t, const struct eng_order *m)
{
	if (m->side == t->side || m->account == t->account || m->gpus <= 0)
		return false;
	if (t->side == ENG_BUY)
		return m->price_cents <= t->price_cents && m->hours >= t->hours;
	return m->price_cents >= t->price_cents && m->hours <= t->hours;
}

/* better(a, b): a comes before b in price-time priority (same side). */
static bool ref_better(const struct ref_order *a, const struct ref_order *b)
{
	if (a->o.price_cents != b->o.price_cents)
		return a->o.side == ENG_SELL ? a->o.price_cents < b->o.price_cents
		                             : a->o.price_cents > b->o.price_cents;
	return a->seq < b->seq;
}

static int32_t ref_submit(struct ref_book *rb, struct eng_order *t, bool dry,
                          struct eng_fills *fills, long *seq)
{
	struct ref_book w = { .n = rb->n, .cap = rb->n };
	w.v = malloc((rb->n + 1) * sizeof *w.v);
	if (rb->n > 0)
		memcpy(w.v, rb->v, rb->n * sizeof *w.v);
	if (t->tif == ENG_FOK) {
		int64_t avail = 0;
		for (size_t i = 0; i < w.n; i++)
			if (ref_eligible(t, &w.v[i].o))
				avail += w.v[i].o.gpus;
		if (avail < t->gpus) {
			free(w.v);
			return 0;
		}
	}
	int32_t left = t->gpus;
	while (left > 0) {
		struct ref_order *best = NULL;
		for (size_t i = 0; i < w.n; i++)
			if (ref_eligible(t, &w.v[i].o) && (best == NULL || ref_better(&w.v[i], best)))
				best = &w.v[i];
		if (best == NULL)
			break;
		int32_t q = best->o.gpus < left ? best->o.gpus : left;
		size_t k = fills->n;
		if (fills->n == fills->cap) {
			fills->cap = fills->cap ? fills->cap * 2 : 16;
			fills->v = realloc(fills->v, fills->cap * sizeof *fills->v);
		}
		fills->v[k] = (struct eng_fill){
			.maker_id = best->o.id, .maker_account = best->o.account,
			.taker_id = t->id, .taker_account = t->account,
			.price_cents = best->o.price_cents, .gpus = q,
			.hours = t->side == ENG_BUY ? t->hours : best->o.hours, .taker_side = t->side,
		};
		fills->n++;
		best->o.gpus -= q;
		left -= q;
	}
	int32_t filled = t->gpus - left;
	t->gpus = left;
	if (!dry) {
		size_t j = 0;   /* drop the emptied orders */
		for (size_t i = 0; i < w.n; i++)
			if (w.v[i].o.gpus > 0)
				w.v[j++] = w.v[i];
		w.n = j;
		if (left > 0 && t->tif == ENG_GTC)
			w.v[w.n++] = (struct ref_order){ .o = *t, .seq = (*seq)++ };
		free(rb->v);
		*rb = w;
		rb->cap = rb->n + 1;
	} else {
		free(w.v);
	}
	return filled;
}

static size_t ref_depth(const struct ref_book *rb, enum eng_side side, struct eng_level *out,
                        size_t max)
{
	size_t n = 0;   /* out has room for every order */
	for (size_t i = 0; i < rb->n; i++) {
		const struct eng_order *o = &rb->v[i].o;
		if (o->side != side)
			continue;
		size_t k = 0;
		while (k < n && out[k].price_cents != o->price_cents)
			k++;
		if (k == n)
			out[n++] = (struct eng_level){ .price_cents = o->price_cents };
		out[k].gpus += o->gpus;
		out[k].orders++;
		out[k].gpu_hours += (int64_t)o->gpus * o->hours;
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

static void compare_books(struct engine *e, struct ref_book *rb, long step)
{
	for (size_t b = 0; b < NBOOKS; b++)
		for (int side = 0; side < 2; side++) {
			size_t cap = rb[b].n + 1;
			struct eng_level *x = calloc(cap, sizeof *x), *y = calloc(cap, sizeof *y);
			size_t nx = engine_depth(e, b, (enum eng_side)side, x, cap);
			size_t ny = ref_depth(&rb[b], (enum eng_side)side, y, cap);
			if (nx != ny || !levels_eq(x, y, nx))
				fail_msg("step %ld book %zu side %d: depth differs (%zu vs %zu levels)",
				         step, b, side, nx, ny);
			struct eng_level best;
			assert_int_equal(engine_best(e, b, (enum eng_side)side, &best), ny > 0);
			if (ny > 0)
				assert_true(levels_eq(&best, &y[0], 1));
			free(x);
			free(y);
		}
}

static void differential_run(uint64_t seed, long steps, int32_t price_span)
{
	static const int32_t hours[] = { 1, 2, 4, 8, 12, 24, 48, 168 };
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
				assert_memory_equal(&xe, &xr, sizeof xe);
			assert_null(engine_find(e, b, id));
		} else if (r < 13) {   /* restart: rebuild from the resting orders, in acceptance order */
			engine_free(&e);
			e = engine_new(NBOOKS);
			for (size_t k = 0; k < NBOOKS; k++) {
				if (rb[k].n > 1)
					qsort(rb[k].v, rb[k].n, sizeof *rb[k].v, cmp_seq);
				for (size_t i = 0; i < rb[k].n; i++)
					engine_restore(e, k, &rb[k].v[i].o);
			}
		} else {
			struct eng_order o = {
				.id = next_id++, .account = 1 + pick(&s, 4),
				.side = (enum eng_side)pick(&s, 2),
				.tif = (enum eng_tif)(r < 70 ? ENG_GTC : r < 85 ? ENG_IOC : ENG_FOK),
				.price_cents = 1000 + pick(&s, price_span),
				.gpus = 1 + pick(&s, 8),
				.hours = hours[pick(&s, (int32_t)(sizeof hours / sizeof *hours))],
			};
			bool dry = pick(&s, 10) == 0;
			struct eng_order oe = o, oref = o;
			eng_fills_reset(&fe);
			fr.n = 0;
			int32_t ge = engine_submit(e, b, &oe, dry, &fe);
			int32_t gr = ref_submit(&rb[b], &oref, dry, &fr, &seq);
			if (ge != gr || fe.n != fr.n)
				fail_msg("step %ld (seed %llu): filled %d/%d in %zu/%zu fills", step,
				         (unsigned long long)seed, ge, gr, fe.n, fr.n);
			for (size_t i = 0; i < fe.n; i++)
				if (!fill_eq(&fe.v[i], &fr.v[i]))
					fail_msg("step %ld (seed %llu): fill %zu differs: maker %lld/%lld "
					         "gpus %d/%d", step, (unsigned long long)seed, i,
					         (long long)fe.v[i].maker_id, (long long)fr.v[i].maker_id,
					         fe.v[i].gpus, fr.v[i].gpus);
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
			assert_int_equal(f->gpus, rb[k].v[i].o.gpus);
			assert_int_equal(f->hours, rb[k].v[i].o.hours);
			assert_int_equal(f->account, rb[k].v[i].o.account);
		}
		free(rb[k].v);
	}
	eng_fills_free(&fe);
	free(fr.v);
	engine_free(&e);
}

static void test_differential_narrow(void **state)
{
	/* 8 prices: deep levels, many skips for hours and accounts */
	for (uint64_t seed = 1; seed <= 6; seed++)
		differential_run(seed * 0x9E3779B97F4A7C15ull, 3000, 8);
}

static void test_differential_wide(void **state)
{
	/* 40 prices: many levels, inserts and removals in the middle of a side */
	for (uint64_t seed = 101; seed <= 104; seed++)
		differential_run(seed * 0xD1B54A32D192ED03ull, 4000, 40);
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
				engine_restore(e, 0, &o);
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
		cmocka_unit_test(test_self_trade_prevention),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_restore_keeps_time_priority),
		cmocka_unit_test(test_depth_aggregation),
		cmocka_unit_test(test_many_orders_churn),
		cmocka_unit_test(test_level_gpu_hours),
		cmocka_unit_test(test_differential_narrow),
		cmocka_unit_test(test_differential_wide),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
