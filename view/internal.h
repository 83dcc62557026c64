/*
 * view/internal.h — what the files of view/ share and nobody else sees: the
 * sort (view/sort.c) and the cache of ranks it keeps in the table, and the
 * per-column memo of display texts (view/memo.c).
 */
#ifndef GPUX_VIEW_INTERNAL_H
#define GPUX_VIEW_INTERNAL_H

#include "view/view.h"

/* Order t->rows by t's sort state (sort_cheapest, sort_col, sort_desc), as
 * view_sort describes: unknown values last either way, ties by GPU name
 * (case-insensitive, then exact), then id, then catalogue order. The order
 * of GPU names is computed once per table and kept; the order of a text
 * column's values is kept until view_sort_forget_columns. */
void view_sort_rows(struct view_table *t);

/* Compute the tie-break order of the table's GPUs (view_new: the order is a
 * property of the table, kept for every later sort). */
void view_sort_prepare(struct view_table *t);

/* The columns were rebuilt (their cells refilled): forget the text ranks. */
void view_sort_forget_columns(struct view_table *t);

/* Free everything the sort keeps (view_free). */
void view_sort_free(struct view_table *t);

/* The display texts of one column by value: each distinct value of the
 * column is formatted once; the cells showing it point to the same text.
 * The memo owns the texts. Keys are the value's bits (a double's, or an
 * integer's), one kind per column. */
struct view_memo {
	uint64_t *keys;
	char **texts;      /* NULL = empty slot */
	unsigned *widths;  /* of each text, in terminal columns */
	size_t cap, n;
	/* the last text of the column measured outside the memo (a fixed text
	 * such as "Not published" or a name) and its width */
	const char *last_text;
	unsigned last_width;
};

/* A text of the memo and its width. */
struct view_memo_text {
	const char *text;
	unsigned width;
};

/* The text of key: true and *out, or false when it is not there yet. */
bool view_memo_find(const struct view_memo *m, uint64_t key, struct view_memo_text *out);
/* Keep text (taken, malloc'ed) as the text of key; returns it, measured. */
struct view_memo_text view_memo_put(struct view_memo *m, uint64_t key, char *text);
/* Free every text: the cells that point to them must be refilled. */
void view_memo_clear(struct view_memo *m);
/* The key of a double (its bits). */
uint64_t view_memo_key(double v);

/* ---- the market columns (view/market.c) ---- */
enum { VIEW_N_MARKET = 5 };
/* Fill out[0 .. VIEW_N_MARKET-1], the market columns; returns how many. */
size_t view_market_columns(const struct view_table *t, struct view_column *out);
/* Fill cell c of market column kind for row r (cleared, aligned already);
 * m is the column's memo. */
void view_market_fill(const struct view_table *t, struct view_memo *m, struct view_cell *c,
		      enum view_col_kind kind, const struct view_row *r);
/* Whether kind is a market column. */
bool view_market_kind(enum view_col_kind kind);
/* The view's fill and sort steps market.c shares (view/view.c). */
void view_refill_cell(const struct view_table *t, struct view_row *r, size_t col);
void view_resort(struct view_table *t);
void view_rebuild_columns(struct view_table *t);

#endif
