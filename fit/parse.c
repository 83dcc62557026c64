/*
 * Parsing a model size as people type it: "70", "70B", "7.5", "7,5" (where
 * the language writes decimals with a comma), "1.3T", "350M".
 *
 * A hand-written scanner rather than strtod: strtod follows LC_NUMERIC,
 * accepts hex, exponents, "nan" and "inf", none of which is a model size.
 * Digits go into integers (at most 12 significant integer digits, 9
 * fraction digits kept), so the value is exact up to the final division.
 * Each failure has its own short message, a fixed msgid the caller can
 * translate with _().
 */
#include "fit/fit.h"
#include "fit/fit_int.h"
#include "util/util.h"

#include <stdint.h>

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int fit_parse_size(const char *s, char decimal_sep, double *billions, char **cause)
{
	static const char *const not_a_number =
		N_("not a model size: type billions of parameters, e.g. 70, 7.5, 70B, 350M or 1.3T");
	if (s == NULL)
		s = "";
	const char *p = skip_space(s);
	if (*p == '\0')
		return set_cause(cause, "%s", N_("empty: type a model size, e.g. 70, 7.5 or 1.3T"));
	if (*p == '-')
		return set_cause(cause, "%s", N_("a model size cannot be negative"));
	if (*p == '+')
		p++;

	uint64_t ipart = 0, fpart = 0, fscale = 1;
	int idigits = 0, fdigits = 0;
	bool seen_sep = false;
	for (;; p++) {
		char c = *p;
		if (is_digit(c)) {
			if (!seen_sep) {
				if (ipart == 0 && c == '0')
					continue; /* a leading zero */
				if (++idigits > 12)
					return set_cause(cause, "%s",
					                 N_("too large: the largest model size is 100T parameters"));
				ipart = ipart * 10 + (uint64_t)(c - '0');
			} else {
				if (fdigits < 9) {
					fpart = fpart * 10 + (uint64_t)(c - '0');
					fscale *= 10;
				}
				fdigits++;
			}
			continue;
		}
		bool sep = c == decimal_sep || (decimal_sep == ',' && c == '.');
		if (sep && !seen_sep) {
			seen_sep = true;
			continue;
		}
		if (c == '.' || c == ',') {
			if (decimal_sep == ',')
				return set_cause(cause, "%s",
				                 N_("use one decimal comma and no thousands separators, e.g. 7,5"));
			return set_cause(cause, "%s",
			                 N_("use one decimal point and no thousands separators, e.g. 7.5"));
		}
		break;
	}
	/* at least one digit, before or after the separator */
	bool any_digit = false;
	for (const char *q = s; q < p; q++)
		any_digit = any_digit || is_digit(*q);
	if (!any_digit)
		return set_cause(cause, "%s", not_a_number);

	p = skip_space(p);
	double mult = 1.0;
	switch (*p) {
	case 'b': case 'B': mult = 1.0; p++; break;
	case 'm': case 'M': mult = 1e-3; p++; break;
	case 't': case 'T': mult = 1e3; p++; break;
	default: break;
	}
	p = skip_space(p);
	if (*p != '\0')
		return set_cause(cause, "%s", not_a_number);

	double v = ((double)ipart + (double)fpart / (double)fscale) * mult;
	if (v == 0)
		return set_cause(cause, "%s", N_("a model size must be greater than zero"));
	if (v < FIT_SIZE_MIN_B * (1 - 1e-12))
		return set_cause(cause, "%s", N_("too small: the smallest model size is 1M parameters"));
	if (v > FIT_SIZE_MAX_B * (1 + 1e-12))
		return set_cause(cause, "%s", N_("too large: the largest model size is 100T parameters"));
	*billions = v;
	return 0;
}
