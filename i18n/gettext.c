/*
 * Message lookup over the embedded catalogues (i18n/<ll_CC>.mo, compiled from
 * i18n/po/ by the Makefile). English is the msgids themselves and has no
 * catalogue. Opening a catalogue only checks its 28-byte header, so the
 * explicit-language functions open it on every call and keep no state; the
 * current language of _() is the one piece of global state, set by
 * i18n_init() (atomic, so that a worker thread translating while the TUI
 * switches language reads one language or the other, never a torn value).
 */
#include "i18n/i18n.h"
#include "util/util.h"

#include <stdatomic.h>
#include <stdlib.h>

static const char *const mo_paths[I18N_NLANGS] = {
	[I18N_EN] = NULL,
	[I18N_PT_PT] = "i18n/pt_PT.mo",
	[I18N_PT_BR] = "i18n/pt_BR.mo",
	[I18N_ES] = "i18n/es.mo",
	[I18N_FR] = "i18n/fr.mo",
	[I18N_DE] = "i18n/de.mo",
};

static _Atomic int current = I18N_EN;

void i18n_init(enum i18n_lang lang)
{
	atomic_store_explicit(&current, (unsigned)lang < I18N_NLANGS ? (int)lang : I18N_EN,
	                      memory_order_relaxed);
}

enum i18n_lang i18n_current(void)
{
	return (enum i18n_lang)atomic_load_explicit(&current, memory_order_relaxed);
}

static bool open_lang(enum i18n_lang lang, struct i18n_mo *mo)
{
	if ((unsigned)lang >= I18N_NLANGS || mo_paths[lang] == NULL)
		return false;
	size_t len;
	const unsigned char *data = assets_find(mo_paths[lang], &len);
	if (data == NULL)
		return false;
	return i18n_mo_open(mo, data, len, NULL) == 0;
}

const char *i18n_dgettext(enum i18n_lang lang, const char *ctx, const char *msgid)
{
	struct i18n_mo mo;
	if (msgid == NULL || *msgid == '\0' || !open_lang(lang, &mo))
		return msgid;
	const char *t = i18n_mo_lookup(&mo, ctx, msgid, 0, NULL);
	return t != NULL ? t : msgid;
}

const char *i18n_dngettext(enum i18n_lang lang, const char *ctx, const char *one,
                           const char *many, unsigned long n)
{
	const char *fallback = n == 1 ? one : many;
	struct i18n_mo mo;
	if (one == NULL || *one == '\0' || !open_lang(lang, &mo))
		return fallback;
	const char *t = i18n_mo_lookup(&mo, ctx, one, i18n_plural_index(lang, n), NULL);
	return t != NULL ? t : fallback;
}

const char *i18n_gettext(const char *msgid)
{
	return i18n_dgettext(i18n_current(), NULL, msgid);
}

const char *i18n_ngettext(const char *one, const char *many, unsigned long n)
{
	return i18n_dngettext(i18n_current(), NULL, one, many, n);
}

const char *i18n_pgettext(const char *ctx, const char *msgid)
{
	return i18n_dgettext(i18n_current(), ctx, msgid);
}
