/*
 * The detail screen's machines (a part the detail screen owns, composed the
 * way tmux's modes share mode_tree): the ladder by node size and the lots
 * the cheapest units come from.
 *
 *   ladder   GET /v1/books/{gpu}?node_gpus=G[&interconnect=I], every
 *            DETAIL_LOTS_MS while shown: what can serve units of G GPUs
 *            inside one machine. G is the toggle's (n: the plain book, then
 *            nodes of 8, 4, 2, 1; the fit job's size first when it needs
 *            one) or, for the job's fill, the job's own.
 *   lots     POST /v1/orders/preview of a buy in those units (the job's
 *            units, or the first DETAIL_LOTS_UNITS on the ladder), limited to
 *            the price that completes them, IOC: the exchange's own matching
 *            names the lots it would take — their machines, region,
 *            interconnect and host. Nothing is placed; a preview needs an
 *            account (without one, the section says so).
 *
 * The replies are kept as data and a generation counter moves; the detail
 * screen reads them in its recalc and draws them (detail.c).
 */
#include "tui/market/detail_lots.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

enum { DETAIL_LOTS_MS = 2000, DETAIL_PREVIEW_MS = 5000, DETAIL_LOTS_UNITS = 4, LADDER_DEPTH = 40 };

static const int sizes[] = { 0, 8, 4, 2, 1 };

void detail_lots_init(struct detail_lots *l, struct tui *t, const char *gpu, int job_node_gpus,
		      const char *job_link, int job_gpus, int job_hours)
{
	memset(l, 0, sizeof *l);
	l->t = t;
	l->gpu = xstrdup(gpu);
	l->job_node_gpus = job_node_gpus > 1 ? job_node_gpus : 0;
	l->job_link = job_link;
	l->job_gpus = job_gpus;
	l->job_hours = job_hours > 0 ? job_hours : 1;
}

static void abandon(struct detail_lots *l, uint64_t *req)
{
	if (*req != 0 && l->t->api != NULL)
		api_abandon(l->t->api, *req);
	*req = 0;
}

void detail_lots_free(struct detail_lots *l)
{
	abandon(l, &l->ladder_req);
	abandon(l, &l->job_req);
	abandon(l, &l->preview_req);
	api_book_free(&l->ladder);
	api_book_free(&l->job_ladder);
	api_preview_free(&l->preview);
	free(l->error);
	free(l->gpu);
	memset(l, 0, sizeof *l);
}

/* The link asked with node size g: the job's, when the size is the job's. */
static const char *link_for(const struct detail_lots *l, int g)
{
	return g > 1 && g == l->job_node_gpus ? l->job_link : NULL;
}

void detail_lots_show(struct detail_lots *l, int node_gpus)
{
	l->node_gpus = node_gpus;
	abandon(l, &l->ladder_req);
	abandon(l, &l->preview_req);
	api_book_free(&l->ladder);
	api_preview_free(&l->preview);
	free(l->error);
	l->error = NULL;
	l->ladder_next = l->preview_next = 0;
	l->gen++;
}

void detail_lots_toggle(struct detail_lots *l)
{
	size_t i = 0, n = sizeof sizes / sizeof sizes[0];
	int next;

	if (l->node_gpus == 0 && l->job_node_gpus > 1) {
		next = l->job_node_gpus; /* the job's machines first */
	} else {
		while (i < n && sizes[i] != l->node_gpus)
			i++;
		next = sizes[(i + 1) % n];
		if (next == l->job_node_gpus && next != 0 && i + 1 < n)
			next = sizes[(i + 2) % n]; /* shown first already */
	}
	detail_lots_show(l, next);
}

static void on_ladder(void *ud, struct api_book *b, const struct api_error *e)
{
	struct detail_lots *l = ud;

	l->ladder_req = 0;
	free(l->error);
	l->error = e != NULL ? tui_error_words(l->t, e) : NULL;
	if (b != NULL) {
		api_book_free(&l->ladder);
		l->ladder = b;
	}
	l->gen++;
}

static void on_job_ladder(void *ud, struct api_book *b, const struct api_error *e)
{
	struct detail_lots *l = ud;

	l->job_req = 0;
	if (b != NULL) {
		api_book_free(&l->job_ladder);
		l->job_ladder = b;
	}
	l->gen++;
}

static void on_preview(void *ud, struct api_preview *p, const struct api_error *e)
{
	struct detail_lots *l = ud;

	l->preview_req = 0;
	l->preview_refused = e != NULL && e->http_status == 401;
	if (p != NULL) {
		api_preview_free(&l->preview);
		l->preview = p;
	}
	l->gen++;
}

static uint64_t ask_ladder(struct detail_lots *l, int g, api_book_cb cb)
{
	struct api_book_query q = { .depth = LADDER_DEPTH, .node_gpus = g,
				    .interconnect = link_for(l, g) };

	return api_book_query_start(l->t->api, l->gpu, &q, cb, l);
}

/* The units whose lots the section shows, and the price that fills them. */
static bool preview_size(const struct detail_lots *l, int *gpus, int64_t *price)
{
	const struct api_book *b = l->ladder;
	int64_t want, got = 0;

	if (b == NULL || b->n_asks == 0 || b->node_gpus <= 0)
		return false;
	want = l->node_gpus == l->job_node_gpus && l->job_gpus > 0 ? l->job_gpus
								  : DETAIL_LOTS_UNITS * b->node_gpus;
	*price = -1;
	for (size_t i = 0; i < b->n_asks && got < want; i++) {
		got += b->asks[i].gpus;
		*price = b->asks[i].price_cents;
	}
	if (got > want)
		got = want;
	*gpus = (int)(got > 512 ? 512 - 512 % b->node_gpus : got);
	return *gpus > 0 && *price > 0;
}

static void ask_preview(struct detail_lots *l)
{
	struct api_order_req r = {
		.gpu = l->gpu, .side = API_BUY, .type = API_LIMIT, .tif = API_IOC,
		.hours = l->job_hours, .node_gpus = l->node_gpus,
		.interconnect = link_for(l, l->node_gpus),
	};
	int64_t price;

	if (!preview_size(l, &r.gpus, &price))
		return;
	r.price_cents = price;
	l->preview_req = api_order_preview_start(l->t->api, &r, on_preview, l);
}

void detail_lots_tick(struct detail_lots *l, int64_t now, int64_t *next)
{
	if (l->t->api == NULL)
		return;
	/* the job's own ladder, for what filling it costs: always, when it needs machines */
	if (l->job_node_gpus > 1 && l->job_req == 0 && now >= l->job_next) {
		l->job_next = now + DETAIL_LOTS_MS;
		l->job_req = ask_ladder(l, l->job_node_gpus, on_job_ladder);
	}
	if (l->node_gpus > 0 && l->ladder_req == 0 && now >= l->ladder_next) {
		l->ladder_next = now + DETAIL_LOTS_MS;
		l->ladder_req = ask_ladder(l, l->node_gpus, on_ladder);
	}
	if (l->node_gpus > 0 && l->ladder != NULL && l->preview_req == 0 &&
	    now >= l->preview_next && api_client_has_key(l->t->api)) {
		l->preview_next = now + DETAIL_PREVIEW_MS;
		ask_preview(l);
	}
	for (int i = 0; i < 3; i++) {
		int64_t at = i == 0 ? l->job_next : i == 1 ? l->ladder_next : l->preview_next;
		bool on = i == 0 ? l->job_node_gpus > 1 : l->node_gpus > 0;
		if (on && at > now && (*next < 0 || at < *next))
			*next = at;
	}
}

void detail_lots_lines(const struct detail_lots *l, struct wpanel *p, int rows)
{
	const struct api_preview *v = l->preview;
	struct tui *t = l->t;
	int used = 0;
	char *x;

	if (l->node_gpus <= 0 || rows < 2)
		return;
	/* TRANSLATORS: the detail screen: the machines the cheapest units of N GPUs come from */
	x = xasprintf(_("Machines: the cheapest units of %d GPUs"), l->node_gpus);
	{
		struct wcells *c = wpanel_add(p);
		wcells_pad(c, 1, WR_NORMAL);
		wcells_add(c, x, WR_HEADER, WAT_BOLD);
	}
	free(x);
	if (l->t->api == NULL || !api_client_has_key(l->t->api) || l->preview_refused) {
		wpanel_text(p, _("An account is needed to see which machines (the exchange's preview)."),
			    WR_DIM, 1);
		return;
	}
	if (v == NULL) {
		wpanel_text(p, l->ladder != NULL && l->ladder->n_asks == 0
				       ? _("No machine on the book serves these units now.")
				       : _("Asking the exchange which machines…"),
			    WR_DIM, 1);
		return;
	}
	for (size_t i = 0; i < v->n_fills && used + 1 < rows; i++) {
		const struct api_preview_fill *f = &v->fills[i];
		char *nodes, *host, *pr;
		if (!f->has_lot)
			continue;
		nodes = view_fmt_nodes(t->o->lang, f->nodes, f->n_nodes, f->lot.node_gpus, 3);
		host = view_fmt_host(t->o->lang, &f->lot.host);
		pr = i18n_fmt_money(t->o->lang, f->price_cents, "USD");
		x = xasprintf("%s %s \u00b7 %s \u00b7 %s \u00b7 %s%s", pr, nodes, f->lot.region,
			      view_link_text(t->o->lang, f->lot.interconnect), host,
			      f->lot.whole_nodes ? _(" · whole nodes only") : "");
		wpanel_text(p, x, WR_NORMAL, 1);
		used += 1;
		free(x);
		free(nodes);
		free(host);
		free(pr);
	}
	if (v->n_fills == 0)
		wpanel_text(p, _("No machine on the book serves these units now."), WR_DIM, 1);
}
