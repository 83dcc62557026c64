/*
 * Lots: a fit job priced in the units it needs, and what an exchange with
 * lots says (machines, interconnects, regions, hosts, job orders) in words,
 * shared by the CLI and the TUI.
 *
 * Pricing. A job's node shape (fit_node_shape) says it runs on `nodes`
 * machines of `node_gpus` GPUs each, on a scale-up link when its tensor
 * parallelism needs one. The book sells lots of machines, and a bid for
 * units of G takes G free GPUs of one machine (docs/API.md, the market's
 * rules): so what runs the job is `nodes` such units, the cheapest first.
 * The supply of a GPU says what is known of them: the quote's best ask for
 * units of 1 (and the GPUs at it), the quote's best whole unit of 8 (and the
 * units at it), and a ladder by node size when a front end asked for one.
 * A ladder answers the need it was asked for; a quote answers units of 1
 * or 8 when its best price holds enough of them; anything else is UNKNOWN
 * until a ladder comes, never a guess from the single-GPU price. An
 * exchange whose quotes have no units of 8 sells no lots: its loose GPUs
 * are all there is, and a job is priced from its best ask as before.
 *
 * The link. A node of 8 exists only on its board's own link (SXM boards:
 * NVLink, OAM: Infinity Fabric) or, for a PCIe card, on PCIe (the exchange
 * refuses other lots), so the quote of units of 8 answers any link a job
 * needs of such a node; units of 2 or 4 (bridged pairs on NVLink or PCIe)
 * are priced from a ladder asked on the link.
 */
#include "view/view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define TR(msgid) i18n_dgettext(lang, NULL, (msgid))
#define NP_(one, many) one, many

/* ---- pricing a job in its units --------------------------------------------------- */

void view_job_need_of(const struct fit_result *r, struct view_job_need *out)
{
	memset(out, 0, sizeof *out);
	if (r->gpus_run <= 0 || r->shape.node_gpus <= 0 || r->shape.nodes <= 0)
		return;
	out->node_gpus = r->shape.node_gpus;
	out->nodes = r->shape.nodes;
	out->link = r->shape.link_needed && r->shape.interconnect != FIT_LINK_PCIE;
	out->interconnect = out->link ? r->shape.interconnect : FIT_LINK_PCIE;
}

void view_job_need_for(const struct catalog_gpu *g, const struct fit_job *job,
		       struct view_job_need *out)
{
	struct fit_gpu fg;
	struct fit_result r;

	view_fit_gpu(g, -1, &fg);
	fit_evaluate(job, &fg, &r);
	view_job_need_of(&r, out);
}

/* Whether the supply's ladder was asked for this need. */
static bool ladder_serves(const struct view_job_need *n, const struct view_supply *s)
{
	return s != NULL && s->ladder_node_gpus == n->node_gpus && s->ladder_link == n->link &&
	       (!n->link || s->ladder_interconnect == n->interconnect);
}

/* The quote's best level for the need's units (1 or 8), if it has one:
 * *price (-1 none on the book) and *units (-1 not known). */
static bool quote_level(const struct view_job_need *n, int64_t cents, const struct view_supply *s,
			int64_t *price, int64_t *units)
{
	if (n->node_gpus == 1) {
		*price = cents;
		*units = cents < 0 ? 0 : (s != NULL && s->gpus > 0 ? s->gpus : -1);
		return true;
	}
	if (n->node_gpus == 8 && s != NULL && s->n8_known) {
		*price = s->n8_cents;
		*units = s->n8_cents < 0 ? 0 : s->n8_units;
		return true;
	}
	return false;
}

void view_supply_of_quote(const struct api_quote *q, struct view_supply *out)
{
	memset(out, 0, sizeof *out);
	if (q == NULL)
		return;
	out->quoted = true;
	out->gpus = q->best_ask_cents >= 0 ? q->ask_gpus : 0;
	out->n8_known = q->has_n8;
	out->n8_cents = q->has_n8 ? q->best_ask_n8_cents : -1;
	out->n8_units = q->has_n8 ? q->ask_n8_units : 0;
}

void view_supply_set_ladder(struct view_supply *s, const struct view_job_need *n,
			    const struct view_unit_level *v, size_t nv)
{
	s->ladder_node_gpus = n->node_gpus;
	s->ladder_link = n->link;
	s->ladder_interconnect = n->interconnect;
	s->ladder = v;
	s->n_ladder = nv;
}

size_t view_ladder_of_book(const struct api_book *b, struct view_unit_level **out)
{
	size_t n = 0;

	*out = xreallocarray(NULL, b->n_asks + 1, sizeof **out);
	for (size_t i = 0; i < b->n_asks; i++) {
		int64_t units = b->asks[i].units >= 0 ? b->asks[i].units
				: b->node_gpus > 0 ? b->asks[i].gpus / b->node_gpus : b->asks[i].gpus;
		if (units > 0)
			(*out)[n++] = (struct view_unit_level){ b->asks[i].price_cents, units };
	}
	return n;
}

bool view_need_ladder(const struct view_job_need *n, const struct view_supply *s)
{
	if (n->node_gpus <= 0 || ladder_serves(n, s) || s == NULL || !s->n8_known)
		return false; /* an exchange without lots has no ladder by node size */
	if (n->node_gpus == 1)
		return s != NULL && s->gpus > 0 && s->gpus < n->nodes;
	if (n->node_gpus == 8 && s != NULL && s->n8_known)
		return s->n8_cents >= 0 && s->n8_units < n->nodes;
	return true;
}

static int64_t mul_or_neg(int64_t a, int64_t b)
{
	if (a < 0 || b < 0 || (b != 0 && a > INT64_MAX / b))
		return -1;
	return a * b;
}

/* Take the need's units from a ladder, best first. */
static void price_ladder(const struct view_job_need *n, const struct view_unit_level *v, size_t nv,
			 struct view_job_price *out)
{
	int64_t left = n->nodes, total = 0, have = 0;

	for (size_t i = 0; i < nv; i++)
		have += v[i].units > 0 ? v[i].units : 0;
	out->units_have = have;
	if (have == 0) {
		out->state = VIEW_CAP_EMPTY;
		return;
	}
	out->unit_cents = v[0].price_cents;
	if (have < n->nodes) {
		out->state = VIEW_CAP_SHORT;
		return;
	}
	for (size_t i = 0; i < nv && left > 0; i++) {
		int64_t take = v[i].units < left ? v[i].units : left;
		int64_t c = mul_or_neg(mul_or_neg(take, n->node_gpus), v[i].price_cents);
		if (take <= 0)
			continue;
		if (c < 0 || total > INT64_MAX - c) {
			out->state = VIEW_CAP_UNKNOWN;
			return;
		}
		total += c;
		left -= take;
		out->worst_cents = v[i].price_cents;
	}
	out->hourly_cents = total;
	out->state = VIEW_CAP_OK;
}

void view_job_price_of(const struct view_job_need *n, int64_t cents, const struct view_supply *s,
		       struct view_job_price *out)
{
	int64_t price, units;

	memset(out, 0, sizeof *out);
	out->need = *n;
	out->unit_cents = out->hourly_cents = out->worst_cents = -1;
	if (n->node_gpus <= 0) {
		out->state = VIEW_CAP_NONE;
		return;
	}
	if (ladder_serves(n, s)) {
		price_ladder(n, s->ladder, s->n_ladder, out);
		return;
	}
	if (s == NULL || !s->n8_known) {
		/* an exchange that sells loose GPUs only (no lots): they are all
		 * there is, at the best ask */
		out->state = cents >= 0 ? VIEW_CAP_OK : s != NULL && s->quoted ? VIEW_CAP_EMPTY
										 : VIEW_CAP_UNKNOWN;
		if (cents >= 0) {
			out->unit_cents = out->worst_cents = cents;
			out->units_have = -1;
			out->hourly_cents = mul_or_neg(mul_or_neg(n->nodes, n->node_gpus), cents);
			if (out->hourly_cents < 0)
				out->state = VIEW_CAP_UNKNOWN;
		}
		return;
	}
	out->state = VIEW_CAP_UNKNOWN;
	if (!quote_level(n, cents, s, &price, &units))
		return;
	if (price < 0) {
		/* a quote says the book has none; no quote says nothing */
		if (s != NULL && s->quoted)
			out->state = VIEW_CAP_EMPTY;
		return;
	}
	out->unit_cents = price;
	if (units < 0)
		units = 1; /* a best ask without its count: one unit at least */
	out->units_have = units;
	if (units < n->nodes) {
		/* more units may wait at worse prices: only a ladder can tell */
		out->state = VIEW_CAP_UNKNOWN;
		return;
	}
	out->hourly_cents = mul_or_neg(mul_or_neg(n->nodes, n->node_gpus), price);
	out->worst_cents = price;
	out->state = out->hourly_cents >= 0 ? VIEW_CAP_OK : VIEW_CAP_UNKNOWN;
}

/* ---- lots in words ------------------------------------------------------------------------- */

const char *view_link_text(enum i18n_lang lang, const char *wire)
{
	enum fit_interconnect i;

	if (wire == NULL)
		return TR(N_("any link"));
	if (fit_interconnect_parse(wire, &i, NULL) != 0)
		return wire;
	return view_link_name(lang, i);
}

char *view_fmt_host(enum i18n_lang lang, const struct api_host *h)
{
	struct buf b = {0};

	if (h->cpu_cores > 0)
		buf_printf(&b, i18n_dngettext(lang, NULL, NP_("%lld core", "%lld cores"),
					      (unsigned long)h->cpu_cores),
			   (long long)h->cpu_cores);
	if (h->ram_gb > 0) {
		char *g = i18n_fmt_number(lang, (double)h->ram_gb, 0);
		/* TRANSLATORS: a machine's memory: "2,048 GB RAM" */
		buf_printf(&b, "%s", b.len > 0 ? " \u00b7 " : "");
		buf_printf(&b, TR(N_("%s GB RAM")), g);
		free(g);
	}
	if (h->disk_gb > 0) {
		char *g = i18n_fmt_number(lang, (double)h->disk_gb, 0);
		/* TRANSLATORS: a machine's disk: "30,720 GB disk" */
		buf_printf(&b, "%s", b.len > 0 ? " \u00b7 " : "");
		buf_printf(&b, TR(N_("%s GB disk")), g);
		free(g);
	}
	if (b.len == 0)
		buf_puts(&b, TR(N_("host not stated")));
	return buf_take(&b);
}

char *view_fmt_nodes(enum i18n_lang lang, const struct api_node *v, size_t n, int64_t node_gpus,
		     size_t max)
{
	struct buf b = {0};
	size_t shown = n < max || max == 0 ? n : max;

	for (size_t i = 0; i < shown; i++) {
		buf_printf(&b, "%s%s", i > 0 ? ", " : "", v[i].node);
		if (node_gpus > 0 && v[i].gpus != node_gpus)
			buf_printf(&b, " (%lld/%lld)", (long long)v[i].gpus, (long long)node_gpus);
	}
	if (shown < n)
		/* TRANSLATORS: machines not listed after the first few: "+ 3 more" */
		buf_printf(&b, TR(N_(" + %zu more")), n - shown);
	if (n == 0)
		buf_puts(&b, TR(N_("machines not recorded")));
	return buf_take(&b);
}

char *view_fmt_lot_machines(enum i18n_lang lang, const struct api_lot *l, int64_t gpus)
{
	int64_t g = l->node_gpus > 0 ? l->node_gpus : 1;

	/* TRANSLATORS: machines × GPUs each (their link): "2 × 8 (NVLink)" */
	return xasprintf(TR(N_("%lld × %lld (%s)")), (long long)(gpus / g), (long long)g,
			 view_link_text(lang, l->interconnect));
}

char *view_fmt_lot(enum i18n_lang lang, const struct api_lot *l, int64_t gpus)
{
	struct buf b = {0};
	int64_t nodes = l->node_gpus > 0 ? gpus / l->node_gpus : 0;
	char *host = view_fmt_host(lang, &l->host);

	if (l->node_gpus <= 1)
		buf_printf(&b, i18n_dngettext(lang, NULL, NP_("%lld single-GPU machine",
							      "%lld single-GPU machines"),
					      (unsigned long)nodes),
			   (long long)nodes);
	else
		buf_printf(&b, i18n_dngettext(lang, NULL, NP_("%lld node of %lld (%s)",
							      "%lld nodes of %lld (%s)"),
					      (unsigned long)nodes),
			   (long long)nodes, (long long)l->node_gpus,
			   view_link_text(lang, l->interconnect));
	buf_printf(&b, " \u00b7 %s \u00b7 %s", l->region != NULL ? l->region : "?", host);
	if (l->whole_nodes)
		buf_printf(&b, " \u00b7 %s", TR(N_("whole nodes only")));
	free(host);
	return buf_take(&b);
}

/* "eu-west or eu-central" */
static void regions_words(struct buf *b, enum i18n_lang lang, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			buf_puts(b, i + 1 == n ? TR(N_(" or ")) : ", ");
		buf_puts(b, v[i]);
	}
}

char *view_fmt_needs(enum i18n_lang lang, const struct api_order_req *r,
		     const struct api_preview *p)
{
	struct buf b = {0};
	bool sell = r->side == API_SELL;
	bool echo = p != NULL && p->has_lot && p->side == r->side;
	char *host;

	if (sell) {
		struct api_lot l = {
			.node_gpus = r->node_gpus > 0 ? r->node_gpus : 1,
			.interconnect = (char *)r->interconnect, .region = (char *)r->region,
			.host = r->host, .whole_nodes = r->whole_nodes,
		};
		char *lot;
		if (r->node_gpus <= 1 && r->region == NULL && r->host.cpu_cores <= 0 &&
		    r->host.ram_gb <= 0 && r->host.disk_gb <= 0 && !r->whole_nodes)
			return xstrdup("");
		/* the defaults the exchange took, as its preview echoes them */
		if (echo && l.interconnect == NULL)
			l.interconnect = p->lot.interconnect;
		if (echo && l.region == NULL)
			l.region = p->lot.region;
		if (l.region == NULL)
			l.region = (char *)TR(N_("the exchange's first region"));
		lot = view_fmt_lot(lang, &l, r->gpus);
		/* TRANSLATORS: what a sell offers: "As 2 nodes of 8 (NVLink) · eu-west · …" */
		buf_printf(&b, TR(N_("As %s.")), lot);
		free(lot);
		return buf_take(&b);
	}
	if (r->node_gpus <= 1 && r->interconnect == NULL && r->n_regions == 0 &&
	    r->host.cpu_cores <= 0 && r->host.ram_gb <= 0 && r->host.disk_gb <= 0)
		return xstrdup("");
	if (r->node_gpus > 1)
		buf_printf(&b, TR(N_("In whole units of %d GPUs inside one machine")), r->node_gpus);
	else
		buf_puts(&b, TR(N_("From any machines")));
	if (r->interconnect != NULL)
		buf_printf(&b, TR(N_(", on %s")), view_link_text(lang, r->interconnect));
	if (r->n_regions > 0) {
		buf_puts(&b, TR(N_(", in ")));
		regions_words(&b, lang, r->regions, r->n_regions);
	}
	host = r->host.cpu_cores > 0 || r->host.ram_gb > 0 || r->host.disk_gb > 0
		       ? view_fmt_host(lang, &r->host) : NULL;
	if (host != NULL)
		/* TRANSLATORS: a bid's host minimums: ", on hosts with at least 512 GB RAM" */
		buf_printf(&b, TR(N_(", on hosts with at least %s")), host);
	free(host);
	buf_puts(&b, ".");
	return buf_take(&b);
}

char *view_fmt_order_lot(enum i18n_lang lang, const struct api_order *o)
{
	struct api_order_req r = { .side = o->side, .gpus = (int)o->gpus };
	char *s, *nodes, *t;

	if (!o->has_lot)
		return xstrdup("");
	if (o->side == API_BUY) {
		r.node_gpus = (int)o->needs.node_gpus;
		r.interconnect = o->needs.interconnect;
		r.regions = (const char *const *)o->needs.regions;
		r.n_regions = o->needs.n_regions;
		r.host = o->needs.min;
		return view_fmt_needs(lang, &r, NULL);
	}
	s = view_fmt_lot(lang, &o->lot, o->gpus);
	if (o->n_nodes == 0) {
		/* TRANSLATORS: a sell order's lot: "Lot: 2 nodes of 8 (NVLink) · us-east · …" */
		t = xasprintf(TR(N_("Lot: %s.")), s);
		free(s);
		return t;
	}
	nodes = view_fmt_nodes(lang, o->nodes, o->n_nodes, o->lot.node_gpus, 8);
	/* TRANSLATORS: a sell order's lot and its machines with the GPUs not sold yet */
	t = xasprintf(TR(N_("Lot: %s; machines %s.")), s, nodes);
	free(s);
	free(nodes);
	return t;
}

static char *dash_of(bool ascii)
{
	return xstrdup(ascii ? "-" : "\u2014");
}

char *view_fmt_order_machines(enum i18n_lang lang, const struct api_order *o, bool ascii)
{
	const struct api_needs *n = &o->needs;

	if (!o->has_lot)
		return dash_of(ascii);
	if (o->side == API_SELL)
		return view_fmt_lot_machines(lang, &o->lot, o->gpus);
	if (n->node_gpus <= 1 && n->interconnect == NULL)
		return xstrdup(TR(N_("any")));
	if (n->interconnect == NULL)
		/* TRANSLATORS: a bid's units: "units of 8" (GPUs inside one machine) */
		return xasprintf(TR(N_("units of %lld")), (long long)n->node_gpus);
	return xasprintf(TR(N_("units of %lld (%s)")), (long long)n->node_gpus,
			 view_link_text(lang, n->interconnect));
}

char *view_fmt_order_region(enum i18n_lang lang, const struct api_order *o, bool ascii)
{
	struct buf b = {0};

	if (!o->has_lot)
		return dash_of(ascii);
	if (o->side == API_SELL)
		return xstrdup(o->lot.region != NULL ? o->lot.region : "?");
	if (o->needs.n_regions == 0)
		return xstrdup(TR(N_("any")));
	for (size_t i = 0; i < o->needs.n_regions; i++)
		buf_printf(&b, "%s%s", i > 0 ? " " : "", o->needs.regions[i]);
	return buf_take(&b);
}

char *view_fmt_order_host(enum i18n_lang lang, const struct api_order *o, bool ascii)
{
	const struct api_host *h = &o->needs.min;
	char *s, *t;

	if (!o->has_lot)
		return dash_of(ascii);
	if (o->side == API_SELL)
		return view_fmt_host(lang, &o->lot.host);
	if (h->cpu_cores <= 0 && h->ram_gb <= 0 && h->disk_gb <= 0)
		return xstrdup(TR(N_("any")));
	s = view_fmt_host(lang, h);
	t = xasprintf("%s %s", ascii ? ">=" : "\u2265", s);
	free(s);
	return t;
}

char *view_fmt_rental_machines(enum i18n_lang lang, const struct api_rental *r, bool ascii)
{
	if (!r->has_lot)
		return dash_of(ascii);
	if (r->nodes != NULL)
		return view_fmt_nodes(lang, r->nodes, r->n_nodes, r->lot.node_gpus, 3);
	return view_fmt_lot_machines(lang, &r->lot, r->gpus);
}

char *view_fmt_fill_lots(enum i18n_lang lang, const struct api_preview *p)
{
	struct buf b = {0};

	for (size_t i = 0; i < p->n_fills; i++) {
		const struct api_preview_fill *f = &p->fills[i];
		char *nodes, *host, *pr;
		if (!f->has_lot)
			continue;
		nodes = view_fmt_nodes(lang, f->nodes, f->n_nodes, f->lot.node_gpus, 4);
		host = view_fmt_host(lang, &f->lot.host);
		pr = i18n_fmt_money(lang, f->price_cents, "USD");
		if (b.len > 0)
			buf_putc(&b, '\n');
		/* TRANSLATORS: one lot a fill comes from: "8 GPUs at US$2.88: o43-1 · eu-west · NVLink · 112 cores · …" */
		buf_printf(&b, i18n_dngettext(lang, NULL, NP_("%lld GPU at %s: %s \u00b7 %s \u00b7 %s \u00b7 %s",
							      "%lld GPUs at %s: %s \u00b7 %s \u00b7 %s \u00b7 %s"),
					      (unsigned long)f->gpus),
			   (long long)f->gpus, pr, nodes, f->lot.region != NULL ? f->lot.region : "?",
			   view_link_text(lang, f->lot.interconnect), host);
		free(nodes);
		free(host);
		free(pr);
	}
	return buf_take(&b);
}

/* ---- job orders ------------------------------------------------------------------------------ */

static const char *gpu_name_of(const struct catalog *cat, const char *id)
{
	const struct catalog_gpu *g = cat != NULL && id != NULL ? catalog_gpu(cat, id) : NULL;

	return g != NULL ? g->name : id != NULL ? id : "?";
}

char *view_fmt_job_alt_machines(enum i18n_lang lang, const struct api_job_alt *a)
{
	struct fit_node_shape s = {0};

	if (a->gpus <= 0)
		return xstrdup("\u2014");
	s.gpus = (int)a->gpus;
	s.node_gpus = a->node_gpus > 0 ? (int)a->node_gpus : 1;
	s.nodes = a->nodes > 0 ? (int)a->nodes : (int)a->gpus;
	s.link_needed = s.node_gpus > 1;
	s.interconnect = FIT_LINK_PCIE;
	if (a->interconnect != NULL)
		fit_interconnect_parse(a->interconnect, &s.interconnect, NULL);
	return view_fmt_node_shape(lang, &s);
}

char *view_job_summary(enum i18n_lang lang, const struct catalog *cat, const struct api_job *j)
{
	struct buf b = {0};
	const struct api_job_alt *chosen = NULL;
	size_t runnable = 0;

	for (size_t i = 0; i < j->n_alternatives; i++) {
		runnable += j->alternatives[i].runnable;
		if (j->gpu != NULL && strcmp(j->alternatives[i].gpu, j->gpu) == 0)
			chosen = &j->alternatives[i];
	}
	if (chosen == NULL) {
		buf_printf(&b, TR(N_("No GPU's book can run this job now (%zu compared).")),
			   j->n_alternatives);
	} else {
		char *m = view_fmt_job_alt_machines(lang, chosen);
		char *tot = i18n_fmt_money(lang, chosen->total_minor, j->currency);
		/* TRANSLATORS: the job order's choice: GPU, machines, hours, total with VAT,
		 * how many GPUs could run it and how many were compared */
		buf_printf(&b, i18n_dngettext(lang, NULL,
					      NP_("Cheapest that runs it: %s, %s for %lld h, %s with VAT "
						  "(%zu of %zu GPUs can run it now).",
						  "Cheapest that runs it: %s, %s for %lld h, %s with VAT "
						  "(%zu of %zu GPUs can run it now)."),
					      (unsigned long)j->n_alternatives),
			   gpu_name_of(cat, j->gpu), m, (long long)chosen->hours, tot, runnable,
			   j->n_alternatives);
		free(m);
		free(tot);
	}
	if (j->max_total_minor >= 0 && j->currency != NULL) {
		char *bud = i18n_fmt_money(lang, j->max_total_minor, j->currency);
		buf_putc(&b, ' ');
		buf_printf(&b, TR(N_("Budget: %s.")), bud);
		free(bud);
	}
	if (j->fit_model_version != FIT_MODEL_VERSION) {
		buf_putc(&b, '\n');
		/* TRANSLATORS: the exchange priced the job with another version of the fit model */
		buf_printf(&b, TR(N_("The exchange's fit model is version %lld, gpux's %d: their "
				     "answers may differ.")),
			   (long long)j->fit_model_version, FIT_MODEL_VERSION);
	}
	return buf_take(&b);
}
