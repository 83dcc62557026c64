/*
 * The fit answers' figures as text, shared by `gpux fit` (cli/cmd_fit.c) and
 * the TUI's fit panel (tui/fitpanel.c), so both print the same strings for
 * the same job: a training run's duration and the decode speed. Memory is
 * view_fmt_gb (view.c), money i18n_fmt_money. Pure.
 */
#include "view/view.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/util.h"

#define NP_(one, many) one, many
#define TR(msgid) i18n_dgettext(lang, NULL, (msgid))

static char *dash(bool ascii)
{
	return xstrdup(ascii ? "-" : "\u2014");
}

char *view_fmt_run_time(enum i18n_lang lang, double hours, bool ascii)
{
	double secs;

	if (!isfinite(hours) || hours < 0)
		return dash(ascii);
	secs = hours * 3600;
	return i18n_fmt_duration(lang, secs < 9e18 ? (int64_t)secs : INT64_MAX);
}

char *view_fmt_tokens_s(enum i18n_lang lang, double tokens_s, bool ascii)
{
	if (!isfinite(tokens_s) || tokens_s < 0)
		return dash(ascii);
	return i18n_fmt_number(lang, tokens_s, 0);
}

/* The link's name as buyers read it: "NVLink", "Infinity Fabric", "PCIe". */
const char *view_link_name(enum i18n_lang lang, enum fit_interconnect i)
{
	switch (i) {
	case FIT_LINK_NVLINK: return TR(N_("NVLink"));
	case FIT_LINK_INFINITY_FABRIC: return TR(N_("Infinity Fabric"));
	default: return TR(N_("PCIe"));
	}
}

char *view_fmt_node_shape(enum i18n_lang lang, const struct fit_node_shape *s)
{
	struct buf b = {0};

	if (!s->link_needed) {
		buf_printf(&b, i18n_dngettext(lang, NULL, NP_("%d GPU", "%d GPUs"), (unsigned long)s->gpus),
		           s->gpus);
		return buf_take(&b);
	}
	/* TRANSLATORS: machines a job needs: "3 nodes of 8 (NVLink)" */
	buf_printf(&b, i18n_dngettext(lang, NULL, NP_("%d node of %d (%s)", "%d nodes of %d (%s)"),
	                              (unsigned long)s->nodes),
	           s->nodes, s->node_gpus, view_link_name(lang, s->interconnect));
	return buf_take(&b);
}

char *view_fmt_moe(enum i18n_lang lang, const struct fit_model *m, const struct fit_node_shape *s)
{
	struct buf b = {0};
	char *total, *active;

	if (m->experts <= 0 || !(m->active_params_b > 0) || m->active_params_b >= m->params_b)
		return xstrdup("");
	total = i18n_fmt_number(lang, m->params_b, m->params_b < 10 ? 1 : 0);
	active = i18n_fmt_number(lang, m->active_params_b, m->active_params_b < 10 ? 1 : 0);
	/* TRANSLATORS: a mixture of experts: "47 B total, 13 B active" */
	buf_printf(&b, TR(N_("%s B total, %s B active")), total, active);
	buf_printf(&b, i18n_dngettext(lang, NULL, NP_(", %d experts, %d per token", ", %d experts, %d per token"),
	                              (unsigned long)m->experts_per_token),
	           m->experts, m->experts_per_token);
	if (s != NULL && s->ep > 1)
		/* TRANSLATORS: expert parallelism across a machine's GPUs */
		buf_printf(&b, i18n_dngettext(lang, NULL, NP_(", expert parallel over %d GPUs (%d expert each)",
		                                              ", expert parallel over %d GPUs (%d experts each)"),
		                              (unsigned long)s->experts_per_gpu),
		           s->ep, s->experts_per_gpu);
	free(total);
	free(active);
	return buf_take(&b);
}
