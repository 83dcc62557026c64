/*
 * Internal to tui/: what the detail screen shows of the user's own dealings
 * in its GPU (tui/market/detail_own.c), a part it owns: the account's open
 * orders there and its active rentals of it (bought or, for a seller,
 * sold). Requests start from the detail's tick; replies bump gen.
 */
#ifndef GPUX_TUI_DETAIL_OWN_H
#define GPUX_TUI_DETAIL_OWN_H

#include <stdbool.h>
#include <stdint.h>

#include "tui/tui_int.h"

struct detail_own {
	struct tui *t;
	char *gpu;
	struct api_orders *orders;   /* open ones on gpu; NULL before the first answer */
	struct api_rentals *rentals; /* active ones of gpu; NULL likewise */
	char *error;                /* a failure of the last round of asks, in words; NULL if none */
	uint64_t orders_req, rentals_req;
	int64_t next;               /* asked again by then (ms, monotonic) */
	uint64_t seen_moved;        /* t->account.moved they were asked at */
	uint64_t seen_trades;       /* the focus's trade_gen likewise */
	uint64_t gen;               /* bumped by every reply */
};

void detail_own_init(struct detail_own *o, struct tui *t, const char *gpu);
void detail_own_free(struct detail_own *o);
/* Start what is due; lower *next. Nothing without an account key. */
void detail_own_tick(struct detail_own *o, int64_t now, int64_t *next);
/* Whether the section has anything to say (an account key is set). */
bool detail_own_shown(const struct detail_own *o);
/* The section into p: a title and at most rows lines under it. */
void detail_own_lines(const struct detail_own *o, struct wpanel *p, int rows);

#endif
