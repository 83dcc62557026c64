/*
 * Language choice: tags and locale names to one of six languages, read from
 * the environment by hand (never setlocale: the locale may not be installed),
 * and the plural rule of each language.
 *
 * A tag is LL[-_]SUBTAG…[.CODESET][@MODIFIER]; only the language and, for
 * Portuguese, a "BR" subtag matter. Matching is case-insensitive.
 *
 * Precedence (i18n_lang_resolve): --lang, then the choice remembered in the
 * config file, then the environment, then English.
 */
#include "i18n/i18n.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const tags[I18N_NLANGS] = {
	[I18N_EN] = "en", [I18N_PT_PT] = "pt-PT", [I18N_PT_BR] = "pt-BR",
	[I18N_ES] = "es", [I18N_FR] = "fr",       [I18N_DE] = "de",
};

static const char *const names[I18N_NLANGS] = {
	[I18N_EN] = "English",
	[I18N_PT_PT] = "Português (Portugal)",
	[I18N_PT_BR] = "Português (Brasil)",
	[I18N_ES] = "Español",
	[I18N_FR] = "Français",
	[I18N_DE] = "Deutsch",
};

const char *i18n_lang_tag(enum i18n_lang lang)
{
	return (unsigned)lang < I18N_NLANGS ? tags[lang] : tags[I18N_EN];
}

const char *i18n_lang_name(enum i18n_lang lang)
{
	return (unsigned)lang < I18N_NLANGS ? names[lang] : names[I18N_EN];
}

const char *i18n_lang_list(void)
{
	return "en, pt-PT, pt-BR, es, fr, de";
}

/* Parse s[0..n) (not NUL-terminated). */
static int parse_span(const char *s, size_t n, enum i18n_lang *out)
{
	size_t i = 0;
	/* drop .codeset and @modifier */
	size_t end = 0;
	while (end < n && s[end] != '.' && s[end] != '@')
		end++;
	if (end < n) {
		/* what follows must be printable, without spaces */
		for (size_t k = end; k < n; k++)
			if (!isgraph((unsigned char)s[k]))
				return -1;
	}
	while (i < end && isalpha((unsigned char)s[i]))
		i++;
	if (i < 2 || i > 3)
		return -1;
	char ll[4] = {0};
	for (size_t k = 0; k < i; k++)
		ll[k] = (char)tolower((unsigned char)s[k]);
	bool brazil = false;
	while (i < end) {
		if (s[i] != '-' && s[i] != '_')
			return -1;
		size_t j = ++i;
		while (j < end && isalnum((unsigned char)s[j]))
			j++;
		if (j == i || j - i > 8)
			return -1;
		if (j - i == 2 && strncasecmp(s + i, "br", 2) == 0)
			brazil = true;
		i = j;
	}
	enum i18n_lang l;
	if (strcmp(ll, "en") == 0 || strcmp(ll, "eng") == 0)
		l = I18N_EN;
	else if (strcmp(ll, "pt") == 0 || strcmp(ll, "por") == 0)
		l = brazil ? I18N_PT_BR : I18N_PT_PT;
	else if (strcmp(ll, "es") == 0 || strcmp(ll, "spa") == 0)
		l = I18N_ES;
	else if (strcmp(ll, "fr") == 0 || strcmp(ll, "fra") == 0)
		l = I18N_FR;
	else if (strcmp(ll, "de") == 0 || strcmp(ll, "deu") == 0)
		l = I18N_DE;
	else
		return -1;
	*out = l;
	return 0;
}

int i18n_lang_parse(const char *tag, enum i18n_lang *out)
{
	if (tag == NULL)
		return -1;
	return parse_span(tag, strlen(tag), out);
}

static bool is_c_locale(const char *v)
{
	return strcmp(v, "C") == 0 || strcmp(v, "POSIX") == 0;
}

enum i18n_lang i18n_lang_from_env(void)
{
	/* the locale variable that decides LC_MESSAGES, as setlocale would */
	const char *loc = NULL;
	static const char *const vars[] = { "LC_ALL", "LC_MESSAGES", "LANG" };
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *v = getenv(vars[i]);
		if (v != NULL && *v != '\0') {
			loc = v;
			break;
		}
	}
	enum i18n_lang l;
	const char *language = getenv("LANGUAGE");
	if (language != NULL && (loc == NULL || !is_c_locale(loc))) {
		const char *p = language;
		while (*p != '\0') {
			size_t n = strcspn(p, ":");
			if (n > 0 && parse_span(p, n, &l) == 0)
				return l;
			p += n;
			if (*p == ':')
				p++;
		}
	}
	if (loc != NULL && i18n_lang_parse(loc, &l) == 0)
		return l;
	return I18N_EN;
}

int i18n_lang_resolve(const char *flag, const char *remembered, enum i18n_lang *out,
		      enum i18n_lang_source *src)
{
	enum i18n_lang l;
	enum i18n_lang_source from;

	if (flag != NULL) {
		if (i18n_lang_parse(flag, &l) != 0)
			return -1;
		from = I18N_FROM_FLAG;
	} else if (remembered != NULL && i18n_lang_parse(remembered, &l) == 0) {
		from = I18N_FROM_CONFIG;
	} else {
		l = i18n_lang_from_env();
		from = I18N_FROM_ENV;
	}
	*out = l;
	if (src != NULL)
		*src = from;
	return 0;
}

unsigned i18n_plural_index(enum i18n_lang lang, unsigned long n)
{
	switch (lang) {
	case I18N_PT_BR:
	case I18N_FR:
		return n > 1;
	case I18N_EN:
	case I18N_PT_PT:
	case I18N_ES:
	case I18N_DE:
	default:
		return n != 1;
	}
}
