/*
 * The market columns of a table (view/view.h): best bid, spread, last
 * trade, the change over 24 h and a 24 h sparkline, one GPU each, from
 * figures the caller has (the TUI's quotes and price history). They join a
 * table only when asked (view_add_market) and follow the workload's
 * columns. Each update refills only their cells and marks the ones whose
 * value moved, as view_set_prices does for the asks.
 */
#include "view/internal.h"
#include "view/view.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define T(t, msgid) i18n_dgettext((t)->lang, NULL, (msgid))

static const struct {
	const char *id;
	const char *label;
	enum view_col_kind kind;
} market_columns[VIEW_N_MARKET] = {
	{ "bid", N_("Bid/h"), VIEW_COL_BID },
	{ "spread", N_("Spread"), VIEW_COL_SPREAD },
	{ "last", N_("Last/h"), VIEW_COL_LAST },
	{ "change_24h", N_("24 h %"), VIEW_COL_CHANGE },
	/* TRANSLATORS: header of the 24-hour sparkline column (price over the last day) */
	{ "spark_24h", N_("24 h trend"), VIEW_COL_SPARK },
};

bool view_market_kind(enum view_col_kind kind)
{
	return kind >= VIEW_COL_BID && kind <= VIEW_COL_SPARK;
}

size_t view_market_columns(const struct view_table *t, struct view_column *out)
{
	for (size_t i = 0; i < VIEW_N_MARKET; i++) {
		struct view_column *vc = &out[i];
		memset(vc, 0, sizeof *vc);
		vc->id = xstrdup(market_columns[i].id);
		vc->label = xstrdup(T(t, market_columns[i].label));
		vc->kind = market_columns[i].kind;
		vc->numeric = true;
		vc->align = market_columns[i].kind == VIEW_COL_SPARK ? VIEW_LEFT : VIEW_RIGHT;
	}
	return VIEW_N_MARKET;
}

static void unknown(const struct view_table *t, struct view_cell *c)
{
	c->raw = VIEW_RAW_NONE;
	c->display = t->ascii ? "-" : "\u2014";
	c->flags |= VIEW_CELL_UNKNOWN;
}

static void money(const struct view_table *t, struct view_memo *m, struct view_cell *c,
		  int64_t cents)
{
	struct view_memo_text s;

	if (cents < 0) {
		unknown(t, c);
		return;
	}
	c->raw = VIEW_RAW_CENTS;
	c->cents = cents;
	if (!view_memo_find(m, (uint64_t)cents, &s))
		s = view_memo_put(m, (uint64_t)cents, i18n_fmt_money(t->lang, cents, "USD"));
	c->display = s.text;
	c->width = s.width;
}

char *view_change_text(enum i18n_lang lang, bool ascii, int64_t bp)
{
	char *n = i18n_fmt_percent(lang, (double)(bp < 0 ? -bp : bp) / 100.0, 2), *x;

	if (bp == 0)
		return n;
	if (ascii)
		x = xasprintf("%s%s", bp > 0 ? "+" : "-", n);
	else
		x = xasprintf("%s %s%s", bp > 0 ? "\u25b2" : "\u25bc", bp > 0 ? "+" : "\u2212", n);
	free(n);
	return x;
}

static char *change_text(const struct view_table *t, int64_t bp)
{
	return view_change_text(t->lang, t->ascii, bp);
}

void view_market_fill(const struct view_table *t, struct view_memo *m, struct view_cell *c,
		      enum view_col_kind kind, const struct view_row *r)
{
	struct view_memo_text s;

	switch (kind) {
	case VIEW_COL_BID:
		money(t, m, c, r->bid_cents);
		break;
	case VIEW_COL_SPREAD:
		money(t, m, c, r->price_cents >= 0 && r->bid_cents >= 0
			      ? r->price_cents - r->bid_cents : -1);
		break;
	case VIEW_COL_LAST:
		money(t, m, c, r->last_cents);
		break;
	case VIEW_COL_CHANGE:
		if (!r->has_change) {
			unknown(t, c);
			break;
		}
		c->raw = VIEW_RAW_NUMBER;
		c->number = (double)r->change_bp;
		if (!view_memo_find(m, (uint64_t)r->change_bp, &s))
			s = view_memo_put(m, (uint64_t)r->change_bp, change_text(t, r->change_bp));
		c->display = s.text;
		c->width = s.width;
		break;
	case VIEW_COL_SPARK:
		if (r->spark == NULL) {
			unknown(t, c);
			break;
		}
		/* sorted by the change it draws */
		c->raw = r->has_change ? VIEW_RAW_NUMBER : VIEW_RAW_NONE;
		c->number = (double)r->change_bp;
		c->display = r->spark;
		break;
	default:
		unknown(t, c);
		return;
	}
	if (t->stale)
		c->flags |= VIEW_CELL_STALE;
}

void view_add_market(struct view_table *t)
{
	if (t->market)
		return;
	t->market = true;
	view_rebuild_columns(t);
}

static const struct view_quote *quote_of(const struct view_market *m, const char *id)
{
	for (size_t i = 0; m != NULL && i < m->n; i++)
		if (m->items[i].gpu_id != NULL && strcmp(m->items[i].gpu_id, id) == 0)
			return &m->items[i];
	return NULL;
}

/* Whether a market cell shows the same value as before (old: its copy
 * from before the refill, old_spark the row's sparkline then). */
static bool same_value(const struct view_cell *old, const struct view_cell *c,
		       const char *old_spark, const char *spark, enum view_col_kind kind)
{
	if (kind == VIEW_COL_SPARK)
		return (old_spark == NULL) == (spark == NULL) &&
		       (spark == NULL || strcmp(old_spark, spark) == 0);
	if (old->raw != c->raw)
		return false;
	if (c->raw == VIEW_RAW_CENTS)
		return old->cents == c->cents;
	return c->raw != VIEW_RAW_NUMBER || old->number == c->number;
}

static size_t refill_row(struct view_table *t, struct view_row *r, const char *old_spark)
{
	size_t changed = 0;

	for (size_t k = 0; k < t->n_columns; k++) {
		struct view_column *vc = &t->columns[k];
		struct view_cell *c = &r->cells[k], old = *c;

		if (!view_market_kind(vc->kind))
			continue;
		view_refill_cell(t, r, k);
		c->flags &= ~(unsigned)(VIEW_CELL_CHANGED | VIEW_CELL_UP | VIEW_CELL_DOWN);
		if (!same_value(&old, c, old_spark, r->spark, vc->kind)) {
			changed++;
			c->flags |= VIEW_CELL_CHANGED;
			if (old.raw == c->raw && c->raw == VIEW_RAW_CENTS)
				c->flags |= c->cents > old.cents ? VIEW_CELL_UP : VIEW_CELL_DOWN;
		}
		if (c->width > vc->width)
			vc->width = c->width;
	}
	return changed;
}

/* The sparkline column's header: label, or its own. */
static void set_spark_label(struct view_table *t, const char *label)
{
	if (label == NULL)
		label = T(t, market_columns[VIEW_N_MARKET - 1].label);
	for (size_t k = 0; k < t->n_columns; k++) {
		struct view_column *vc = &t->columns[k];
		if (vc->kind != VIEW_COL_SPARK || strcmp(vc->label, label) == 0)
			continue;
		free(vc->label);
		vc->label = xstrdup(label);
	}
}

size_t view_set_market(struct view_table *t, const struct view_market *m)
{
	size_t changed = 0;

	if (!t->market)
		return 0;
	set_spark_label(t, m != NULL ? m->spark_label : NULL);
	/* the texts of values no longer shown go (the cells are refilled below) */
	for (size_t k = 0; k < t->n_columns; k++)
		if (view_market_kind(t->columns[k].kind) && t->memo[k].n > 2 * t->n_rows + 64)
			view_memo_clear(&t->memo[k]);
	for (size_t i = 0; i < t->n_rows; i++) {
		struct view_row *r = &t->rows[i];
		const struct view_quote *q = quote_of(m, r->gpu->id);
		char *old_spark = r->spark;

		r->bid_cents = q != NULL && q->bid_cents >= 0 ? q->bid_cents : -1;
		r->last_cents = q != NULL && q->last_cents >= 0 ? q->last_cents : -1;
		r->has_change = q != NULL && q->has_change;
		r->change_bp = r->has_change ? q->change_bp : 0;
		r->spark = q != NULL && q->spark != NULL ? xstrdup(q->spark) : NULL;
		changed += refill_row(t, r, old_spark);
		free(old_spark);
	}
	view_resort(t);
	return changed;
}
