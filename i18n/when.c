/*
 * i18n/when.c — a moment people read in a sentence, "1 September 2027 at
 * 10:00", with the month's name in the language and the time in the local
 * time zone (TZ): what gpux says about when the market opens. Pure like
 * format.c: the language is an argument, the words are tables here (they are
 * grammar, not messages: the sentence around them is translated). The clock
 * and the weekday of a time axis too.
 */
#include "i18n/i18n.h"
#include "util/util.h"

#include <time.h>

static const char *const months[I18N_NLANGS][12] = {
	[I18N_EN] = {"January", "February", "March", "April", "May", "June", "July", "August",
		     "September", "October", "November", "December"},
	[I18N_PT_PT] = {"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho",
			"agosto", "setembro", "outubro", "novembro", "dezembro"},
	[I18N_PT_BR] = {"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho",
			"agosto", "setembro", "outubro", "novembro", "dezembro"},
	[I18N_ES] = {"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
		     "septiembre", "octubre", "noviembre", "diciembre"},
	[I18N_FR] = {"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
		     "septembre", "octobre", "novembre", "décembre"},
	[I18N_DE] = {"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August",
		     "September", "Oktober", "November", "Dezember"},
};

char *i18n_fmt_when(enum i18n_lang lang, int64_t unix_seconds, unsigned flags)
{
	time_t t = (time_t)unix_seconds;
	struct tm tm;
	bool ok = (flags & I18N_UTC) ? gmtime_r(&t, &tm) != NULL : localtime_r(&t, &tm) != NULL;

	if (!ok || (int64_t)t != unix_seconds || (unsigned)lang >= I18N_NLANGS)
		return xstrdup("?");
	const char *m = months[lang][tm.tm_mon];
	long y = (long)tm.tm_year + 1900;
	int d = tm.tm_mday, h = tm.tm_hour, mi = tm.tm_min;
	const char *utc = (flags & I18N_UTC) ? " UTC" : "";

	switch (lang) {
	case I18N_PT_PT:
	case I18N_PT_BR:
		return xasprintf("%d de %s de %ld às %02d:%02d%s", d, m, y, h, mi, utc);
	case I18N_ES:
		return xasprintf("%d de %s de %ld a las %02d:%02d%s", d, m, y, h, mi, utc);
	case I18N_FR:
		return xasprintf("%d%s %s %ld à %02d:%02d%s", d, d == 1 ? "er" : "", m, y, h, mi, utc);
	case I18N_DE:
		return xasprintf("%d. %s %ld um %02d:%02d%s", d, m, y, h, mi, utc);
	case I18N_EN:
	default:
		return xasprintf("%d %s %ld at %02d:%02d%s", d, m, y, h, mi, utc);
	}
}

/* ---- a time axis ---------------------------------------------------------------------------- */

static const char *const weekdays[I18N_NLANGS][7] = {
	[I18N_EN] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"},
	[I18N_PT_PT] = {"dom", "seg", "ter", "qua", "qui", "sex", "s\u00e1b"},
	[I18N_PT_BR] = {"dom", "seg", "ter", "qua", "qui", "sex", "s\u00e1b"},
	[I18N_ES] = {"dom", "lun", "mar", "mi\u00e9", "jue", "vie", "s\u00e1b"},
	[I18N_FR] = {"dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."},
	[I18N_DE] = {"So.", "Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa."},
};

static bool moment(int64_t unix_seconds, unsigned flags, struct tm *tm)
{
	time_t t = (time_t)unix_seconds;
	bool ok = (flags & I18N_UTC) ? gmtime_r(&t, tm) != NULL : localtime_r(&t, tm) != NULL;

	return ok && (int64_t)t == unix_seconds;
}

char *i18n_fmt_clock(enum i18n_lang lang, int64_t unix_seconds, unsigned flags)
{
	struct tm tm;

	(void)lang; /* every language of gpux writes 24 h clocks as 14:35 */
	if (!moment(unix_seconds, flags, &tm))
		return xstrdup("?");
	return xasprintf("%02d:%02d", tm.tm_hour, tm.tm_min);
}

char *i18n_fmt_day(enum i18n_lang lang, int64_t unix_seconds, unsigned flags)
{
	struct tm tm;

	if (!moment(unix_seconds, flags, &tm) || (unsigned)lang >= I18N_NLANGS)
		return xstrdup("?");
	const char *w = weekdays[lang][tm.tm_wday];
	return xasprintf(lang == I18N_DE ? "%s %d." : "%s %d", w, tm.tm_mday);
}

char *i18n_zone_name(int64_t unix_seconds)
{
	time_t t = (time_t)unix_seconds;
	struct tm tm;
	char z[64];

	if (localtime_r(&t, &tm) == NULL || strftime(z, sizeof z, "%Z", &tm) == 0 || z[0] == '\0')
		return xstrdup("?");
	return xstrdup(z);
}
