/*
 * The ladders by node size the fit job needs (part of the market feed).
 *
 * With a fit job, the tables price the cheapest capacity that can run it:
 * whole units of its node shape's GPUs inside one machine (view/lots.c).
 * The quotes price units of 1 and of 8 at their best level; a job that needs
 * units of 2 or 4, more units than the best price holds, or a link only
 * some of a GPU's machines have, takes that GPU's ladder by node size
 * (GET /v1/books/{gpu}?node_gpus=G&interconnect=I). For each catalogue GPU
 * this file keeps what the job needs there (view_job_need_for, recomputed
 * when the job's generation moves), asks for the ladder when the quotes
 * cannot answer it, and asks again when that GPU's quote changes (at most
 * every TUI_REFRESH_MS: a book that moves without a quote change moves no
 * price the tables show). A ladder that comes joins the asks the views
 * read (tui_units_asks, read through tui_market_prices) and bumps t->m.gen; a failed one leaves the
 * price unknown ("…"), never the single-GPU price. Nothing here draws.
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

enum { UNITS_DEPTH = 100 };

static bool same_need(const struct view_job_need *a, const struct view_job_need *b)
{
	return a->node_gpus == b->node_gpus && a->nodes == b->nodes && a->link == b->link &&
	       (!a->link || a->interconnect == b->interconnect);
}

/* The ladder asked for need's units answers n too (the same units, any count). */
static bool ladder_for(const struct view_job_need *asked, const struct view_job_need *n)
{
	return asked->node_gpus == n->node_gpus && asked->link == n->link &&
	       (!n->link || asked->interconnect == n->interconnect);
}

static void drop_ladder(struct tui_units *u)
{
	free(u->v);
	u->v = NULL;
	u->n = 0;
	u->have = false;
}

/* The supply a ladder adds to GPU g's quote. */
static void ladder_supply(const struct tui *t, size_t g, struct view_supply *s)
{
	const struct tui_units *u = &t->m.gpu[g].units;

	if (u->have && u->need.node_gpus > 0 && ladder_for(&u->asked, &u->need))
		view_supply_set_ladder(s, &u->asked, u->v, u->n);
}

void tui_units_asks(struct tui *t)
{
	struct tui_market *m = &t->m;

	m->n_asks = 0;
	for (size_t g = 0; g < m->n_gpus; g++) {
		struct view_price *p;
		if (!m->gpu[g].quoted)
			continue;
		p = &m->asks[m->n_asks++];
		p->gpu_id = m->gpu[g].q.gpu;
		p->cents = m->gpu[g].q.best_ask_cents;
		view_supply_of_quote(&m->gpu[g].q, &p->supply);
		ladder_supply(t, g, &p->supply);
	}
}

/* The asks were made again: the screens read them at the next gen. */
static void asks_changed(struct tui *t)
{
	tui_units_asks(t);
	t->m.gen++;
}

static void on_ladder(void *ud, struct api_book *b, const struct api_error *e)
{
	struct tui_units *u = ud;
	struct tui *t = u->t;

	u->req = 0;
	if (e != NULL) {
		/* the price stays unknown; asked again with the next quote */
		return;
	}
	drop_ladder(u);
	u->n = view_ladder_of_book(b, &u->v);
	u->have = true;
	api_book_free(&b);
	asks_changed(t);
}

static void ask(struct tui *t, size_t g, int64_t now)
{
	struct tui_units *u = &t->m.gpu[g].units;
	struct api_book_query q = {
		.depth = UNITS_DEPTH, .node_gpus = u->need.node_gpus,
		.interconnect = u->need.link ? fit_interconnect_id(u->need.interconnect) : NULL,
	};

	u->t = t;
	u->asked = u->need;
	u->asked_qgen = t->m.gpu[g].qgen;
	u->next_ms = now + TUI_REFRESH_MS;
	u->req = api_book_query_start(t->api, t->cat->gpus[g].id, &q, on_ladder, u);
}

/* The job moved: what it needs of each GPU. */
static void take_job(struct tui *t)
{
	for (size_t g = 0; g < t->m.n_gpus; g++) {
		struct tui_units *u = &t->m.gpu[g].units;
		struct view_job_need n = {0};

		if (t->job.have)
			view_job_need_for(&t->cat->gpus[g], &t->job.job, &n);
		if (same_need(&n, &u->need))
			continue;
		u->need = n;
		if (u->have && !ladder_for(&u->asked, &n))
			drop_ladder(u);
		u->next_ms = 0;
	}
	t->m.units_job_gen = t->job.gen;
	asks_changed(t);
}

void tui_units_tick(struct tui *t, int64_t now, int64_t *next)
{
	if (t->api == NULL)
		return;
	if (t->m.units_job_gen != t->job.gen)
		take_job(t);
	for (size_t g = 0; g < t->m.n_gpus; g++) {
		struct tui_market_gpu *row = &t->m.gpu[g];
		struct tui_units *u = &row->units;
		struct view_supply s;
		bool moved;

		if (u->need.node_gpus <= 0 || u->req != 0 || !row->quoted)
			continue;
		view_supply_of_quote(&row->q, &s);
		if (!view_need_ladder(&u->need, &s))
			continue;
		moved = !u->have || !ladder_for(&u->asked, &u->need) || u->asked_qgen != row->qgen;
		if (!moved)
			continue;
		if (now >= u->next_ms)
			ask(t, g, now);
		else if (*next < 0 || u->next_ms < *next)
			*next = u->next_ms;
	}
}

void tui_units_free(struct tui *t)
{
	for (size_t g = 0; g < t->m.n_gpus; g++) {
		struct tui_units *u = &t->m.gpu[g].units;
		if (u->req != 0 && t->api != NULL)
			api_abandon(t->api, u->req);
		drop_ladder(u);
	}
}
