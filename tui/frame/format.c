/*
 * Formatting in the TUI's language (t->o->lang, which a switch changes):
 * the few shapes every screen writes, each malloc'ed.
 */
#include "tui/tui_int.h"

#include "i18n/i18n.h"
#include "util/util.h"

char *tui_usd(const struct tui *t, int64_t cents)
{
	return cents < 0 ? xstrdup("\u2014") : i18n_fmt_money(t->o->lang, cents, "USD");
}

char *tui_money(const struct tui *t, int64_t minor, const char *ccy)
{
	return i18n_fmt_money(t->o->lang, minor, ccy);
}

char *tui_int(const struct tui *t, int64_t v)
{
	return i18n_fmt_number(t->o->lang, (double)v, 0);
}

char *tui_date(const struct tui *t, int64_t unix_s)
{
	return unix_s < 0 ? xstrdup("\u2014") : i18n_fmt_date(t->o->lang, unix_s, I18N_UTC);
}

const char *tui_gpu_name(const struct tui *t, const char *id)
{
	const struct catalog_gpu *g = id != NULL ? catalog_gpu(t->cat, id) : NULL;

	return g != NULL ? g->name : (id != NULL ? id : "?");
}
