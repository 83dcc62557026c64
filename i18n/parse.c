/*
 * Parsing what people type into number fields: a decimal in the language's
 * notation to an integer scaled by 10^scale, in integer arithmetic only (a
 * price of 4,19 must become exactly 419 cents).
 *
 * The rules are strict on purpose, because these numbers spend money: a
 * string is accepted only when it can mean one thing. "." is a decimal point
 * in every language (it is what a numeric keypad types); "," is one only in
 * the languages that write it so; thousands separators are never accepted,
 * since "1.500" is 1500 to a Portuguese reader and 1.5 to an English one.
 * Error messages are in the language asked for and quote the input, cleaned
 * of control characters.
 */
#include "i18n/i18n.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* Marks a plural pair for xgettext (keyword NP_:1,2) where the lookup is
 * i18n_dngettext with an explicit language. */
#define NP_(one, many) one, many

/* Store in *cause the translation of fmt — always a literal message with
 * exactly one %s, marked N_() at the call — formatted with a cleaned copy of
 * the input (control characters replaced, at most 64 bytes). */
static int fail(enum i18n_lang lang, char **cause, const char *fmt, const char *input)
{
	if (cause != NULL) {
		char *clean = util_sanitize(input, 64, false);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		*cause = xasprintf(i18n_dgettext(lang, NULL, fmt), clean);
#pragma GCC diagnostic pop
		free(clean);
	}
	return -1;
}

int i18n_parse_decimal(enum i18n_lang lang, const char *s, int scale, int64_t *out, char **cause)
{
	if (scale < 0 || scale > 18)
		return set_cause(cause, "i18n_parse_decimal: scale %d out of range", scale);
	if ((unsigned)lang >= I18N_NLANGS)
		lang = I18N_EN;
	if (s == NULL)
		s = "";
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
	                 s[n - 1] == '\r'))
		n--;
	char *t = xstrndup(s, n);
	int rc = -1;
	if (n == 0) {
		if (cause != NULL)
			*cause = xstrdup(i18n_dgettext(lang, NULL, N_("enter a number")));
		goto out;
	}
	if (t[0] == '-' || t[0] == '+') {
		fail(lang, cause, N_("\"%s\": enter the number without a sign"), t);
		goto out;
	}
	size_t dots = 0, commas = 0;
	for (size_t i = 0; i < n; i++) {
		if (t[i] == '.')
			dots++;
		else if (t[i] == ',')
			commas++;
		else if (t[i] < '0' || t[i] > '9') {
			fail(lang, cause, N_("\"%s\" is not a number"), t);
			goto out;
		}
	}
	bool comma_ok = i18n_decimal_sep(lang) == ',';
	if (commas > 0 && !comma_ok) {
		fail(lang, cause, N_("\"%s\": use \".\" for decimals, without thousands separators"), t);
		goto out;
	}
	if (dots + commas > 1) {
		fail(lang, cause, N_("\"%s\": write the number without thousands separators"), t);
		goto out;
	}
	size_t sep = strcspn(t, ".,");
	size_t nint = sep, nfrac = sep < n ? n - sep - 1 : 0;
	if (sep < n && nfrac == 0) {
		fail(lang, cause, N_("\"%s\": digits are missing after the decimal separator"), t);
		goto out;
	}
	if (nfrac > (size_t)scale) {
		if (cause != NULL) {
			char *clean = util_sanitize(t, 64, false);
			if (scale == 0)
				*cause = xasprintf(i18n_dgettext(lang, NULL,
				                                 N_("\"%s\": enter a whole number")), clean);
			else
				*cause = xasprintf(i18n_dngettext(lang, NULL,
				                                  NP_("\"%s\": at most %d decimal place",
				                                      "\"%s\": at most %d decimal places"),
				                                  (unsigned long)scale),
				                   clean, scale);
			free(clean);
		}
		goto out;
	}
	uint64_t v = 0;
	const uint64_t max = (uint64_t)INT64_MAX;
	for (int k = 0; k < 2; k++) {
		const char *d = k == 0 ? t : t + sep + 1;
		size_t nd = k == 0 ? nint : nfrac;
		for (size_t i = 0; i < nd; i++) {
			unsigned dig = (unsigned)(d[i] - '0');
			if (v > (max - dig) / 10)
				goto overflow;
			v = v * 10 + dig;
		}
	}
	for (size_t i = nfrac; i < (size_t)scale; i++) {
		if (v > max / 10)
			goto overflow;
		v *= 10;
	}
	*out = (int64_t)v;
	rc = 0;
	goto out;
overflow:
	fail(lang, cause, N_("\"%s\" is too large"), t);
out:
	free(t);
	return rc;
}
