/*
 * The project's formatter: numbers, units, percentages, money, "billions of
 * parameters", durations and dates per language. Pure: the language is an
 * argument, nothing global is read (not even the C library's LC_NUMERIC:
 * digits are produced from integers, or taken out of printf's output without
 * trusting its decimal point), every result is a malloc'ed UTF-8 string.
 *
 * All numbers go through put_digits(), which takes the sign, the integer
 * digits and the fraction digits and applies the language's separators and
 * grouping rule. Rounding is half away from zero.
 *
 * French typography (CLDR fr): the space inside "1 307", before "%" and
 * before a currency or "Md" is a no-break one (U+202F, U+00A0), so a
 * wrapped line never leaves "€" or "%" alone at the start of the next; the
 * other languages use the plain space of the seed pages ("US$ 4,19").
 */
#include "i18n/i18n.h"
#include "util/util.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The language's number conventions. */
struct numfmt {
	const char *group;   /* thousands separator */
	char decimal;        /* decimal separator */
	int min_group;       /* group only numbers with at least this many integer digits */
};

static const struct numfmt numfmts[I18N_NLANGS] = {
	[I18N_EN] = { ",", '.', 4 },
	[I18N_PT_PT] = { ".", ',', 4 },       /* seeds: "1.307 TFLOPS", "4.800 GB/s" */
	[I18N_PT_BR] = { ".", ',', 4 },
	[I18N_ES] = { ".", ',', 5 },          /* RAE/CLDR: "4800", "14.400" */
	[I18N_FR] = { "\u202f", ',', 4 },     /* CLDR: narrow no-break space */
	[I18N_DE] = { ".", ',', 4 },
};

static const struct numfmt *nf(enum i18n_lang lang)
{
	return &numfmts[(unsigned)lang < I18N_NLANGS ? lang : I18N_EN];
}

char i18n_decimal_sep(enum i18n_lang lang)
{
	return nf(lang)->decimal;
}

const char *i18n_group_sep(enum i18n_lang lang)
{
	return nf(lang)->group;
}

/* Append [-]integer[,fraction] with the language's separators. */
static void put_digits(struct buf *b, enum i18n_lang lang, bool neg, const char *ip, size_t ni,
                       const char *fp, size_t nfr)
{
	const struct numfmt *f = nf(lang);
	if (neg)
		buf_putc(b, '-');
	if (ni == 0) {
		buf_putc(b, '0');
	} else {
		bool group = (int)ni >= f->min_group;
		for (size_t i = 0; i < ni; i++) {
			if (group && i > 0 && (ni - i) % 3 == 0)
				buf_puts(b, f->group);
			buf_putc(b, ip[i]);
		}
	}
	if (nfr > 0) {
		buf_putc(b, f->decimal);
		buf_append(b, fp, nfr);
	}
}

/* Append the unsigned value mag / 10^decimals. */
static void put_scaled(struct buf *b, enum i18n_lang lang, bool neg, uint64_t mag, int decimals)
{
	char d[24];
	int n = snprintf(d, sizeof d, "%0*" PRIu64, decimals + 1, mag);
	put_digits(b, lang, neg && mag != 0, d, (size_t)(n - decimals), d + n - decimals,
	           (size_t)decimals);
}

static void put_number(struct buf *b, enum i18n_lang lang, double v, int decimals)
{
	if (decimals < 0)
		decimals = 0;
	if (decimals > 9)
		decimals = 9;
	if (!isfinite(v)) {
		buf_puts(b, "—");
		return;
	}
	static const double pow10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
	double a = fabs(v) * pow10[decimals];
	if (a < 9e18) {
		put_scaled(b, lang, v < 0, (uint64_t)llround(a), decimals);
		return;
	}
	/* Huge: printf's digits, whatever its locale's decimal point looks like. */
	char *s = xasprintf("%.*f", decimals, fabs(v));
	size_t ni = strspn(s, "0123456789");
	size_t nfr = 0;
	const char *fp = s + strlen(s);
	if (decimals > 0) {
		nfr = (size_t)decimals;
		fp -= nfr;
	}
	put_digits(b, lang, v < 0, s, ni, fp, nfr);
	free(s);
}

char *i18n_fmt_number(enum i18n_lang lang, double v, int decimals)
{
	struct buf b = {0};
	put_number(&b, lang, v, decimals);
	return buf_take(&b);
}

char *i18n_fmt_unit(enum i18n_lang lang, double v, int decimals, const char *unit)
{
	struct buf b = {0};
	put_number(&b, lang, v, decimals);
	if (unit != NULL && *unit != '\0') {
		buf_putc(&b, ' ');
		buf_puts(&b, unit);
	}
	return buf_take(&b);
}

char *i18n_fmt_percent(enum i18n_lang lang, double v, int decimals)
{
	struct buf b = {0};
	put_number(&b, lang, v, decimals);
	/* French: a narrow no-break space (CLDR), so "80 %" never breaks */
	buf_puts(&b, lang == I18N_EN ? "%" : lang == I18N_FR ? "\u202f%" : " %");
	return buf_take(&b);
}

/* ---- money ---------------------------------------------------------------- */
struct ccyfmt {
	const char *code;
	const char *pre[I18N_NLANGS];   /* before the number (with its space) */
	const char *post[I18N_NLANGS];  /* after the number (with its space) */
};

static const struct ccyfmt ccyfmts[] = {
	{ "USD",
	  { [I18N_EN] = "$", [I18N_PT_PT] = "US$ ", [I18N_PT_BR] = "US$ " },
	  { [I18N_ES] = " US$", [I18N_FR] = "\u00a0$US", [I18N_DE] = " $" } },
	{ "EUR",
	  { [I18N_EN] = "€", [I18N_PT_BR] = "€ " },
	  { [I18N_PT_PT] = " €", [I18N_ES] = " €", [I18N_FR] = "\u00a0€", [I18N_DE] = " €" } },
	{ "GBP",
	  { [I18N_EN] = "£", [I18N_PT_BR] = "£ " },
	  { [I18N_PT_PT] = " £", [I18N_ES] = " GBP", [I18N_FR] = "\u00a0£GB", [I18N_DE] = " £" } },
};

/* Minor units of a currency: 0 for the few without cents, else 2. */
/* The ISO 4217 minor unit of code (util/currency.c): JPY 0, KWD 3, CLF 4. */
static int ccy_digits(const char *code)
{
	int e = util_ccy_exponent(code);
	return e < 0 ? 2 : e;
}

char *i18n_fmt_money(enum i18n_lang lang, int64_t minor, const char *ccy)
{
	if ((unsigned)lang >= I18N_NLANGS)
		lang = I18N_EN;
	char code[4] = "???";
	bool have = ccy != NULL && *ccy != '\0';
	if (have && strlen(ccy) == 3 && isalpha((unsigned char)ccy[0]) &&
	    isalpha((unsigned char)ccy[1]) && isalpha((unsigned char)ccy[2]))
		for (int i = 0; i < 3; i++)
			code[i] = (char)toupper((unsigned char)ccy[i]);
	bool neg = minor < 0;
	uint64_t mag = neg ? (uint64_t)0 - (uint64_t)minor : (uint64_t)minor;
	int digits = have ? ccy_digits(code) : 2;

	const char *pre = "", *post = "";
	char *own = NULL;
	if (have) {
		const struct ccyfmt *c = NULL;
		for (size_t i = 0; i < sizeof ccyfmts / sizeof ccyfmts[0]; i++)
			if (strcmp(ccyfmts[i].code, code) == 0)
				c = &ccyfmts[i];
		if (c != NULL) {
			pre = c->pre[lang] != NULL ? c->pre[lang] : "";
			post = c->post[lang] != NULL ? c->post[lang] : "";
		} else if (lang == I18N_EN || lang == I18N_PT_BR) {
			pre = own = xasprintf("%s ", code);    /* "CHF 4.19" */
		} else {
			/* "4,19 CHF" (French: a no-break space, as its symbols) */
			post = own = xasprintf(lang == I18N_FR ? "\u00a0%s" : " %s", code);
		}
	}
	struct buf b = {0};
	if (neg && mag != 0)
		buf_putc(&b, '-');
	buf_puts(&b, pre);
	put_scaled(&b, lang, false, mag, digits);
	buf_puts(&b, post);
	free(own);
	return buf_take(&b);
}

char *i18n_fmt_price_from(enum i18n_lang lang, int64_t minor, const char *ccy)
{
	char *m = i18n_fmt_money(lang, minor, ccy);
	/* TRANSLATORS: a best price, "from $8.99"; pt-PT seed: "a partir de US$ 8,99" */
	char *s = xasprintf(i18n_dgettext(lang, NULL, N_("from %s")), m);
	free(m);
	return s;
}

/* ---- billions of parameters ------------------------------------------------- */
char *i18n_fmt_billions(enum i18n_lang lang, long bn, bool ascii)
{
	static const char *const suffix[I18N_NLANGS] = {
		[I18N_EN] = "B",          [I18N_PT_PT] = " mil M", [I18N_PT_BR] = " bi",
		[I18N_ES] = " mil M",     [I18N_FR] = "\u00a0Md", [I18N_DE] = " Mrd.",
	};
	if ((unsigned)lang >= I18N_NLANGS)
		lang = I18N_EN;
	struct buf b = {0};
	buf_puts(&b, ascii ? "~ " : "≈ ");
	bool neg = bn < 0;
	put_scaled(&b, lang, neg, neg ? (uint64_t)0 - (uint64_t)bn : (uint64_t)bn, 0);
	/* ASCII: the plain space instead of French's no-break one */
	buf_puts(&b, ascii && lang == I18N_FR ? " Md" : suffix[lang]);
	return buf_take(&b);
}

/* ---- durations and dates ------------------------------------------------------ */
char *i18n_fmt_duration(enum i18n_lang lang, int64_t seconds)
{
	struct buf b = {0};
	uint64_t s = seconds < 0 ? (uint64_t)0 - (uint64_t)seconds : (uint64_t)seconds;
	if (seconds < 0)
		buf_putc(&b, '-');
	const char *day = lang == I18N_FR ? "j" : "d";
	uint64_t big, small;
	const char *ubig, *usmall;
	if (s >= 86400) {
		big = s / 86400, small = s % 86400 / 3600, ubig = day, usmall = "h";
	} else if (s >= 3600) {
		big = s / 3600, small = s % 3600 / 60, ubig = "h", usmall = "min";
	} else if (s >= 60) {
		big = s / 60, small = s % 60, ubig = "min", usmall = "s";
	} else {
		big = s, small = 0, ubig = "s", usmall = "";
	}
	buf_printf(&b, "%" PRIu64 " %s", big, ubig);
	if (small > 0)
		buf_printf(&b, " %" PRIu64 " %s", small, usmall);
	return buf_take(&b);
}

char *i18n_fmt_date(enum i18n_lang lang, int64_t unix_seconds, unsigned flags)
{
	time_t t = (time_t)unix_seconds;
	struct tm tm;
	bool ok = (flags & I18N_UTC) ? gmtime_r(&t, &tm) != NULL : localtime_r(&t, &tm) != NULL;
	if (!ok || (int64_t)t != unix_seconds)
		return xstrdup("?");
	long y = (long)tm.tm_year + 1900;
	int m = tm.tm_mon + 1, d = tm.tm_mday;
	struct buf b = {0};
	switch (lang) {
	case I18N_DE:
		buf_printf(&b, "%02d.%02d.%04ld", d, m, y);
		break;
	case I18N_PT_PT:
	case I18N_PT_BR:
	case I18N_ES:
	case I18N_FR:
		buf_printf(&b, "%02d/%02d/%04ld", d, m, y);
		break;
	case I18N_EN:
	default:
		buf_printf(&b, "%04ld-%02d-%02d", y, m, d);
		break;
	}
	if (!(flags & I18N_DATE_ONLY))
		buf_printf(&b, " %02d:%02d", tm.tm_hour, tm.tm_min);
	if (flags & I18N_UTC)
		buf_puts(&b, " UTC");
	return buf_take(&b);
}
