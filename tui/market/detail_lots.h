/*
 * Internal to tui/: the detail screen's machines (tui/market/detail_lots.c),
 * a part it owns: the ladder by node size of its toggle (n), the fit job's
 * own ladder (what filling its units costs), and the lots the cheapest units
 * come from (machines, region, interconnect, host), from the exchange's
 * preview. Requests start from the detail's tick; replies bump gen.
 */
#ifndef GPUX_TUI_DETAIL_LOTS_H
#define GPUX_TUI_DETAIL_LOTS_H

#include <stdbool.h>
#include <stdint.h>

#include "tui/tui_int.h"

struct detail_lots {
	struct tui *t;
	char *gpu;
	int node_gpus;              /* the toggle: 0 the plain book, else units of this many */
	int job_node_gpus;          /* the fit job's machines here (0: none needed) */
	const char *job_link;       /* ... on this link (static wire name, NULL any) */
	int job_gpus, job_hours;
	struct api_book *ladder;    /* the toggle's ladder, or NULL */
	struct api_book *job_ladder; /* the job's ladder, or NULL */
	struct api_preview *preview; /* the lots the cheapest units come from */
	bool preview_refused;       /* the exchange wants an account for it */
	char *error;                /* the ladder's last failure, in words */
	uint64_t ladder_req, job_req, preview_req;
	int64_t ladder_next, job_next, preview_next;
	uint64_t gen;               /* bumped by every reply and toggle */
};

/* For gpu, with what the fit job needs there (node_gpus 0 / 1: no machines;
 * link a wire name or NULL; gpus × hours). */
void detail_lots_init(struct detail_lots *l, struct tui *t, const char *gpu, int job_node_gpus,
		      const char *job_link, int job_gpus, int job_hours);
void detail_lots_free(struct detail_lots *l);
/* n: the plain book → the job's node size (if any) → 8 → 4 → 2 → 1 → the plain book. */
void detail_lots_toggle(struct detail_lots *l);
/* The ladder of units of node_gpus GPUs (0: the plain book), asked afresh. */
void detail_lots_show(struct detail_lots *l, int node_gpus);
/* Start what is due; lower *next. */
void detail_lots_tick(struct detail_lots *l, int64_t now, int64_t *next);
/* The lots section into p (at most rows lines; nothing with the plain book). */
void detail_lots_lines(const struct detail_lots *l, struct wpanel *p, int rows);

#endif
