/*
 * The fit answers' figures as text, shared by `gpux fit` (cli/cmd_fit.c) and
 * the TUI's fit panel (tui/fitpanel.c), so both print the same strings for
 * the same job: a training run's duration and the decode speed. Memory is
 * view_fmt_gb (view.c), money i18n_fmt_money. Pure.
 */
#include "view/view.h"

#include <math.h>
#include <stdint.h>

#include "util/util.h"

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
