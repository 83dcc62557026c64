/*
 * Alerts, triggers and the account's events in plain words, shared by
 * `gpux alert`, `gpux watch --alerts`, `gpux order` and the TUI: what an
 * alert or a conditional order's trigger watches ("H200 ask at or below
 * US$ 4,10"), an alert's state, and one line per event of the account's log
 * (an alert fired, a conditional order entered the book, a standing order
 * bought, renewed or stopped).
 *
 * Pure, as view/order.c: the language is an argument, prices go through the
 * i18n formatter, api/ structs are only read. Reasons the exchange gives
 * (a standing order's "funds: …") are its own words, passed through as text
 * that came over the network is (the api/ decoders sanitised it).
 */
#include "view/view.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api.h"
#include "util/util.h"

#define TR(msgid) i18n_dgettext(lang, NULL, (msgid))
#define NP_(one, many) one, many

static char *usd(enum i18n_lang lang, int64_t cents)
{
	return cents < 0 ? xstrdup("—") : i18n_fmt_money(lang, cents, "USD");
}

char *view_when_text(enum i18n_lang lang, enum api_when when, const char *gpu_name,
		     int64_t price_cents, int64_t minutes, int64_t id)
{
	char *p = usd(lang, price_cents), *t;
	const char *g = gpu_name != NULL ? gpu_name : "?";

	switch (when) {
	case API_WHEN_ASK_LTE: t = xasprintf(TR(N_("%s ask at or below %s")), g, p); break;
	case API_WHEN_ASK_GTE: t = xasprintf(TR(N_("%s ask at or above %s")), g, p); break;
	case API_WHEN_BID_LTE: t = xasprintf(TR(N_("%s bid at or below %s")), g, p); break;
	case API_WHEN_BID_GTE: t = xasprintf(TR(N_("%s bid at or above %s")), g, p); break;
	case API_WHEN_LAST_LTE: t = xasprintf(TR(N_("%s last trade at or below %s")), g, p); break;
	case API_WHEN_LAST_GTE: t = xasprintf(TR(N_("%s last trade at or above %s")), g, p); break;
	case API_WHEN_SPREAD_LTE: t = xasprintf(TR(N_("%s spread at or below %s")), g, p); break;
	case API_WHEN_SPREAD_GTE: t = xasprintf(TR(N_("%s spread at or above %s")), g, p); break;
	case API_WHEN_RENTAL_ENDING:
		t = id > 0 ? xasprintf(i18n_dngettext(lang, NULL,
				NP_("rental %lld ending within %lld minute",
				    "rental %lld ending within %lld minutes"), (unsigned long)minutes),
				(long long)id, (long long)minutes)
			   : xasprintf(i18n_dngettext(lang, NULL,
				NP_("any rental ending within %lld minute",
				    "any rental ending within %lld minutes"), (unsigned long)minutes),
				(long long)minutes);
		break;
	case API_WHEN_ORDER_FILLED:
		t = id > 0 ? xasprintf(TR(N_("order %lld filled")), (long long)id)
			   : xstrdup(TR(N_("any order filled")));
		break;
	default:
		t = xstrdup("?");
		break;
	}
	free(p);
	return t;
}

/* The job of a job alert by name: its preset id, else its size ("a 70B
 * model"), else "a job". */
static char *job_name(enum i18n_lang lang, const char *model, int64_t params_millions)
{
	if (model != NULL)
		return xstrdup(model);
	if (params_millions > 0) {
		char *n = i18n_fmt_number(lang, (double)params_millions / 1000.0,
					  params_millions % 1000 == 0 ? 0 : 1);
		/* TRANSLATORS: a job alert's job given by its size: "a 70B model" */
		char *t = xasprintf(TR(N_("a %sB model")), n);
		free(n);
		return t;
	}
	return xstrdup(TR(N_("a job")));
}

char *view_job_alert_text(enum i18n_lang lang, const char *model, int64_t params_millions,
			  const char *method, int64_t hours, int64_t max_total_minor,
			  const char *currency)
{
	enum fit_method m;
	const char *ml = method != NULL && fit_method_parse(method, &m, NULL) == 0
				 ? TR(fit_method_label(m)) : method != NULL ? method : "?";
	char *name = job_name(lang, model, params_millions);
	char *budget = max_total_minor >= 0 && currency != NULL
			       ? i18n_fmt_money(lang, max_total_minor, currency) : xstrdup("?");
	char *t;

	if (hours > 0)
		/* TRANSLATORS: a job alert: the job, its method, the hours, the budget
		 * (VAT included) */
		t = xasprintf(TR(N_("cheapest total of %s (%s) for %lld h at or below %s")), name, ml,
			      (long long)hours, budget);
	else
		/* TRANSLATORS: a job alert on a training run, whose hours are the run's
		 * time on the GPUs that run it */
		t = xasprintf(TR(N_("cheapest total of %s (%s, the run's hours) at or below %s")),
			      name, ml, budget);
	free(name);
	free(budget);
	return t;
}

char *view_alert_what(enum i18n_lang lang, const struct api_alert *a, const char *gpu_name)
{
	int64_t id = a->when == API_WHEN_RENTAL_ENDING ? a->rental_id : a->order_id;

	if (a->when == API_WHEN_JOB_TOTAL_LTE)
		return view_job_alert_text(lang, a->job_model, a->job_params_millions, a->job_method,
					   a->hours, a->max_total_minor, a->currency);
	return view_when_text(lang, a->when, gpu_name, a->price_cents, a->minutes, id > 0 ? id : 0);
}

char *view_trigger_short(enum i18n_lang lang, enum api_when when, int64_t price_cents)
{
	char *p = usd(lang, price_cents), *t;

	switch (when) {
	case API_WHEN_ASK_LTE: t = xasprintf(TR(N_("ask at most %s")), p); break;
	case API_WHEN_ASK_GTE: t = xasprintf(TR(N_("ask at least %s")), p); break;
	case API_WHEN_BID_LTE: t = xasprintf(TR(N_("bid at most %s")), p); break;
	case API_WHEN_BID_GTE: t = xasprintf(TR(N_("bid at least %s")), p); break;
	case API_WHEN_LAST_LTE: t = xasprintf(TR(N_("last at most %s")), p); break;
	case API_WHEN_LAST_GTE: t = xasprintf(TR(N_("last at least %s")), p); break;
	case API_WHEN_SPREAD_LTE: t = xasprintf(TR(N_("spread at most %s")), p); break;
	case API_WHEN_SPREAD_GTE: t = xasprintf(TR(N_("spread at least %s")), p); break;
	default: t = xstrdup("?"); break;
	}
	free(p);
	return t;
}

const char *view_alert_state_text(enum i18n_lang lang, enum api_alert_state st)
{
	switch (st) {
	case API_ALERT_ARMED: return TR(N_("armed"));
	case API_ALERT_REARMING: return TR(N_("fired, re-arms when the price moves back"));
	case API_ALERT_FIRED: return TR(N_("fired"));
	case API_ALERT_EXPIRED: return TR(N_("expired"));
	}
	return "?";
}

/* ---- events -------------------------------------------------------------------------------- */

static const char *ev_gpu(const struct api_account_event *e, const char *gpu_name)
{
	return gpu_name != NULL ? gpu_name : e->gpu != NULL ? e->gpu : "?";
}

static char *hhmm(int64_t t)
{
	char s[40];
	time_t tt = (time_t)t;
	struct tm tm;

	if (t < 0 || gmtime_r(&tt, &tm) == NULL)
		return xstrdup("?");
	strftime(s, sizeof s, "%Y-%m-%d %H:%M UTC", &tm);
	return xstrdup(s);
}

/* A job alert's firing after its condition: " — now US$ 864.00 on H200, 1
 * node of 4 (NVLink)". */
static void job_fired_line(struct buf *b, enum i18n_lang lang, const struct api_account_event *e,
			   const char *gpu_name)
{
	struct api_job_alt m = {
		.gpus = e->gpus, .node_gpus = e->node_gpus, .nodes = e->nodes,
		.interconnect = e->interconnect,
	};
	char *tot = i18n_fmt_money(lang, e->total_minor, e->currency != NULL ? e->currency : "?");
	char *mach = view_fmt_job_alt_machines(lang, &m);

	/* TRANSLATORS: after a job alert's condition: what the job costs now, on
	 * which GPU, in which machines */
	buf_printf(b, TR(N_(" — now %s on %s, %s")), tot, ev_gpu(e, gpu_name), mach);
	free(tot);
	free(mach);
}

static void alert_line(struct buf *b, enum i18n_lang lang, const struct api_account_event *e,
		       const char *gpu_name)
{
	int64_t about = e->when == API_WHEN_RENTAL_ENDING ? e->rental_id : e->order_id;
	bool job = e->has_when && e->when == API_WHEN_JOB_TOTAL_LTE;
	char *what = job ? view_job_alert_text(lang, e->job_model, e->job_params_millions,
					       e->job_method, e->hours, e->max_total_minor,
					       e->currency)
		   : e->has_when ? view_when_text(lang, e->when, ev_gpu(e, gpu_name), e->price_cents,
						  e->minutes, about)
				 : xstrdup("?");

	buf_printf(b, TR(N_("Alert %lld: %s")), (long long)e->alert_id, what);
	free(what);
	if (job && e->total_minor >= 0) {
		job_fired_line(b, lang, e, gpu_name);
	} else if (e->has_when && e->when <= API_WHEN_SPREAD_GTE && e->value_cents != -1) {
		char *v = usd(lang, e->value_cents);
		buf_printf(b, TR(N_(" — now %s")), v);
		free(v);
	} else if (e->has_when && e->when == API_WHEN_RENTAL_ENDING) {
		char *t = hhmm(e->ends_at);
		buf_printf(b, TR(N_(" — it ends at %s")), t);
		free(t);
	} else if (e->has_when && e->when == API_WHEN_ORDER_FILLED && e->fill_gpus > 0) {
		char *p = usd(lang, e->fill_price_cents);
		buf_printf(b, i18n_dngettext(lang, NULL, NP_(" — %lld GPU at %s", " — %lld GPUs at %s"),
					     (unsigned long)e->fill_gpus),
			   (long long)e->fill_gpus, p);
		free(p);
	}
	if (e->label != NULL)
		buf_printf(b, " (%s)", e->label);
}

static void order_line(struct buf *b, enum i18n_lang lang, const struct api_account_event *e,
		       const char *gpu_name)
{
	if (e->event != NULL && strcmp(e->event, "entered") == 0) {
		char *v = usd(lang, e->value_cents);
		buf_printf(b, TR(N_("Order %lld (%s): its trigger held at %s; it entered the book")),
			   (long long)e->order_id, ev_gpu(e, gpu_name), v);
		free(v);
	} else if (e->event != NULL && strcmp(e->event, "cancelled") == 0) {
		buf_printf(b, TR(N_("Order %lld (%s) cancelled: another order of its group went first")),
			   (long long)e->order_id, ev_gpu(e, gpu_name));
	} else {
		buf_printf(b, TR(N_("Order %lld (%s): %s")), (long long)e->order_id,
			   ev_gpu(e, gpu_name), e->event != NULL ? e->event : "?");
	}
	if (e->status != NULL)
		buf_printf(b, " [%s]", e->status);
}

static void standing_line(struct buf *b, enum i18n_lang lang, const struct api_account_event *e,
			  const char *gpu_name)
{
	const char *ev = e->event != NULL ? e->event : "";
	const char *g = ev_gpu(e, gpu_name);
	long long id = (long long)e->order_id;

	if (strcmp(ev, "bought") == 0) {
		char *p = usd(lang, e->price_cents);
		buf_printf(b, i18n_dngettext(lang, NULL,
			NP_("Standing order %lld: bought %lld × %s GPU for %lld h at %s (rental %lld)",
			    "Standing order %lld: bought %lld × %s GPUs for %lld h at %s (rental %lld)"),
			(unsigned long)e->gpus), id, (long long)e->gpus, g, (long long)e->hours, p,
			(long long)e->rental_id);
		free(p);
	} else if (strcmp(ev, "renewed") == 0) {
		char *t = hhmm(e->ends_at);
		buf_printf(b, TR(N_("Standing order %lld: rental %lld (%s) extended to %s")), id,
			   (long long)e->rental_id, g, t);
		free(t);
	} else if (strcmp(ev, "not_extended") == 0) {
		buf_printf(b, TR(N_("Standing order %lld: rental %lld (%s) cannot be extended (%s); "
				    "it buys again when the rental ends")), id, (long long)e->rental_id, g,
			   e->reason != NULL ? e->reason : "?");
	} else if (strcmp(ev, "buying") == 0) {
		char *p = usd(lang, e->price_cents);
		buf_printf(b, i18n_dngettext(lang, NULL,
			NP_("Standing order %lld: buying %lld × %s GPU at %s or less",
			    "Standing order %lld: buying %lld × %s GPUs at %s or less"),
			(unsigned long)e->gpus), id, (long long)e->gpus, g, p);
		free(p);
	} else if (strcmp(ev, "stopped") == 0) {
		buf_printf(b, TR(N_("Standing order %lld (%s) stopped: %s")), id, g,
			   e->reason != NULL ? e->reason : "?");
	} else {
		buf_printf(b, TR(N_("Standing order %lld (%s): %s")), id, g, ev);
	}
}

static void rental_line(struct buf *b, enum i18n_lang lang, const struct api_account_event *e,
			const char *gpu_name)
{
	const char *ev = e->event != NULL ? e->event : "";

	if (strcmp(ev, "renewed") == 0) {
		char *t = hhmm(e->ends_at);
		buf_printf(b, TR(N_("Rental %lld (%s) extended to %s")), (long long)e->rental_id,
			   ev_gpu(e, gpu_name), t);
		free(t);
	} else {
		buf_printf(b, TR(N_("Rental %lld (%s) not extended: %s")), (long long)e->rental_id,
			   ev_gpu(e, gpu_name), e->reason != NULL ? e->reason : ev);
	}
}

char *view_account_event_text(enum i18n_lang lang, const struct api_account_event *e,
			      const char *gpu_name)
{
	struct buf b = {0};

	if (e->kind != NULL && strcmp(e->kind, "alert") == 0)
		alert_line(&b, lang, e, gpu_name);
	else if (e->kind != NULL && strcmp(e->kind, "order") == 0)
		order_line(&b, lang, e, gpu_name);
	else if (e->kind != NULL && strcmp(e->kind, "standing") == 0)
		standing_line(&b, lang, e, gpu_name);
	else if (e->kind != NULL && strcmp(e->kind, "rental") == 0)
		rental_line(&b, lang, e, gpu_name);
	else
		buf_printf(&b, TR(N_("Event %lld (%s)")), (long long)e->id,
			   e->kind != NULL ? e->kind : "?");
	return buf_take(&b);
}

char *view_trigger_text(enum i18n_lang lang, const struct api_order_req *r, const char *gpu_name)
{
	struct buf b = {0};

	if (r->has_trigger) {
		char *w = view_when_text(lang, r->trigger_when, gpu_name, r->trigger_price_cents, 0, 0);
		buf_printf(&b, TR(N_("It waits off the book, its hold taken now, for its trigger (%s) "
				     "while the market is open; then it enters the book as a new order.")), w);
		free(w);
	}
	if (r->standing) {
		if (b.len)
			buf_putc(&b, '\n');
		buf_printf(&b, i18n_dngettext(lang, NULL,
			NP_("Standing: it keeps %d GPU for periods of %d h: each rental is extended an "
			    "hour before it ends while the funds are there, else bought again at the "
			    "price or less; it stops, and says why, when the funds run short.",
			    "Standing: it keeps %d GPUs for periods of %d h: each rental is extended an "
			    "hour before it ends while the funds are there, else bought again at the "
			    "price or less; it stops, and says why, when the funds run short."),
			(unsigned long)r->gpus), r->gpus, r->hours);
	}
	if (r->oco_group != NULL) {
		if (b.len)
			buf_putc(&b, '\n');
		buf_printf(&b, TR(N_("One-cancels-other group \"%s\": when one of its orders enters the "
				     "book or fills, the others are cancelled.")), r->oco_group);
	}
	return b.len ? buf_take(&b) : NULL;
}
