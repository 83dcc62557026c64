/*
 * i18n — languages, message catalogues and the project's own formatter.
 *
 * Three parts, independent of the C library's locales (the user's locale is
 * often not installed on the server gpux runs on, and glibc then ignores
 * LANGUAGE):
 *
 *  1. Language choice: six languages, parsed from tags such as "pt-PT",
 *     "pt_BR.UTF-8", "fr_CA", and read from LANGUAGE, LC_ALL, LC_MESSAGES,
 *     LANG by this module itself (no setlocale).
 *  2. Message lookup: the GNU .mo catalogues built from i18n/po/<ll_CC>.po are
 *     embedded in the binary (assets_find("i18n/pt_PT.mo")) and read in place
 *     by a bounds-checked reader; no allocation per lookup, the returned
 *     strings live as long as the program. i18n_init() picks the language of
 *     _(); i18n_dgettext() looks up in any language without global state.
 *     Untranslated messages come back as the English msgid.
 *  3. The formatter: numbers, values with units, money, "billions of
 *     parameters", durations, dates, and parsing of typed decimals. Pure: the
 *     language is an argument, results are malloc'ed strings the caller frees.
 *     Output is UTF-8 ("≈", "€", the French narrow no-break space U+202F as
 *     thousands separator); i18n_ascii() transliterates any of it (and any
 *     translated message) for terminals that are not UTF-8.
 *
 * Locale-independent output (CSV, JSON) must not go through this formatter.
 */
#ifndef GPUX_I18N_H
#define GPUX_I18N_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- languages ------------------------------------------------------------ */
enum i18n_lang { I18N_EN, I18N_PT_PT, I18N_PT_BR, I18N_ES, I18N_FR, I18N_DE, I18N_NLANGS };

/* Parse a language tag or locale name, case-insensitively: "en", "en_US.UTF-8",
 * "pt-PT", "pt_PT", "pt_PT.utf8@euro", "pt" (→ pt-PT), "pt-BR", "pt_BR.UTF-8",
 * "es", "es_MX" (→ es), "fr_CA" (→ fr), "de_AT" (→ de)… Any region other than
 * BR maps Portuguese to pt-PT. Returns 0 and sets *out, or -1 for an unknown or
 * malformed tag (including "C" and "POSIX"); *out is untouched then. */
int i18n_lang_parse(const char *tag, enum i18n_lang *out);
/* The canonical tag: "en", "pt-PT", "pt-BR", "es", "fr", "de" (static). */
const char *i18n_lang_tag(enum i18n_lang lang);
/* The language's name in itself, for a language menu: "English",
 * "Português (Portugal)", "Português (Brasil)", "Español", "Français",
 * "Deutsch" (static, UTF-8). */
const char *i18n_lang_name(enum i18n_lang lang);
/* "en, pt-PT, pt-BR, es, fr, de" for error messages (static). */
const char *i18n_lang_list(void);
/* The language the environment asks for: the first known entry of LANGUAGE
 * (a colon-separated list), else the first non-empty of LC_ALL, LC_MESSAGES,
 * LANG if known; English otherwise. As with GNU gettext, LANGUAGE is ignored
 * when that locale variable is exactly "C" or "POSIX" (`LC_ALL=C gpux …`
 * gives English); unlike glibc ≥ 2.39 it is honoured under "C.UTF-8" and
 * whether or not the locale is installed. Reads the variables only. */
enum i18n_lang i18n_lang_from_env(void);
/* Where the language in use came from. */
enum i18n_lang_source { I18N_FROM_FLAG, I18N_FROM_CONFIG, I18N_FROM_ENV };
/* gpux's choice of language, in this order: flag (--lang) when not NULL;
 * else `remembered` (the config file's `lang = pt-BR` line, which the
 * interactive screen's language menu writes) when not NULL and known; else
 * the environment (i18n_lang_from_env, English when it names nothing known).
 * An explicit choice made inside gpux beats a generic LANG=C.UTF-8 of the
 * session, an explicit --lang beats both. Returns 0 with *out (and *src when
 * not NULL), or -1 when flag is given and unknown (*out untouched; the
 * caller says so, listing i18n_lang_list()). An unknown remembered value is
 * skipped (the caller may warn: i18n_lang_parse fails on it). */
int i18n_lang_resolve(const char *flag, const char *remembered, enum i18n_lang *out,
		      enum i18n_lang_source *src);

/* ---- messages ------------------------------------------------------------- */
/* Select the language of _(), P_() and C_() for the whole program; may be
 * called again (a language switch in the TUI). Default: English. Strings
 * already returned stay valid: they are never freed. */
void i18n_init(enum i18n_lang lang);
enum i18n_lang i18n_current(void);

/* Translation of msgid in the current language, or msgid itself. Never NULL
 * for a non-NULL msgid; the result is static (embedded) or msgid. */
const char *i18n_gettext(const char *msgid) __attribute__((format_arg(1)));
/* Plural: the form for n in the current language; untranslated → one if
 * n == 1 else many (English rule). */
const char *i18n_ngettext(const char *one, const char *many, unsigned long n)
	__attribute__((format_arg(1), format_arg(2)));
/* With a context (msgctxt), for the same English word meaning two things,
 * e.g. C_("order side", "Buy") vs C_("button", "Buy"). */
const char *i18n_pgettext(const char *ctx, const char *msgid) __attribute__((format_arg(2)));
/* The same in an explicit language, without global state (ctx may be NULL). */
const char *i18n_dgettext(enum i18n_lang lang, const char *ctx, const char *msgid)
	__attribute__((format_arg(3)));
const char *i18n_dngettext(enum i18n_lang lang, const char *ctx, const char *one,
                           const char *many, unsigned long n)
	__attribute__((format_arg(3), format_arg(4)));

/* Keywords known to `make po` (xgettext): _ N_ P_:1,2 C_:1c,2. The
 * format_arg attributes above let printf(_("from %s"), x) be checked against
 * the English format under -Wformat=2. */
#define _(s) i18n_gettext(s)
#define N_(s) (s)
#define P_(one, many, n) i18n_ngettext((one), (many), (n))
#define C_(ctx, s) i18n_pgettext((ctx), (s))

/* Index of the plural form for n: en, de, es, pt-PT: n != 1; pt-BR, fr: n > 1
 * (the Plural-Forms headers of the catalogues say the same; a test checks). */
unsigned i18n_plural_index(enum i18n_lang lang, unsigned long n);

/* ---- the .mo reader (exposed for tests and fuzzers) ------------------------ */
/* A view of a GNU .mo file held in memory (either byte order). Opening checks
 * the header and table bounds; every string is bounds-checked when read, so a
 * damaged file yields "not found", never a crash. The view borrows `data`,
 * which must outlive it. */
struct i18n_mo {
	const unsigned char *data;
	size_t len;
	bool swap;        /* file in the other byte order */
	uint32_t n;       /* number of strings */
	uint32_t orig;    /* offset of the original-strings table */
	uint32_t trans;   /* offset of the translations table */
};
/* 0 on success; -1 and *cause (malloc'ed) when the data is not a usable .mo. */
int i18n_mo_open(struct i18n_mo *mo, const unsigned char *data, size_t len, char **cause);
/* Look up msgid (with context ctx, or NULL) and return plural form `form` of
 * its translation (0 for a singular message) with its length in *len (may be
 * NULL). NULL if absent, empty or damaged. The string is inside mo->data. */
const char *i18n_mo_lookup(const struct i18n_mo *mo, const char *ctx, const char *msgid,
                           unsigned form, size_t *len);

/* ---- formatting (pure; results malloc'ed, caller frees) --------------------- */
/* Decimal separator: '.' for en, ',' for the others. */
char i18n_decimal_sep(enum i18n_lang lang);
/* Thousands separator as a UTF-8 string: "," en; "." pt-PT, pt-BR, es, de;
 * U+202F (narrow no-break space) fr. Static. */
const char *i18n_group_sep(enum i18n_lang lang);

/* v rounded to `decimals` (0..9) places, with the language's separators:
 * en "1,307.5", pt-PT "1.307,5". pt-PT, pt-BR, fr, de and en group numbers of
 * four digits ("4.800", the seeds' house style); es groups from five digits
 * ("4800", "14.400", as the RAE and CLDR do). Negative: "-1.307".
 * NaN or infinite: "—" (the caller should show "not published" instead). */
char *i18n_fmt_number(enum i18n_lang lang, double v, int decimals);
/* Number, a space, unit: "4.800 GB/s", "989 TFLOPS", "141 GB". The unit is
 * copied as given (units are international). */
char *i18n_fmt_unit(enum i18n_lang lang, double v, int decimals, const char *unit);
/* A percentage (v in percent): en "80%", others "80 %" (fr with U+202F). */
char *i18n_fmt_percent(enum i18n_lang lang, double v, int decimals);

/* Money from integer minor units (cents) and an ISO 4217 code ("USD", "EUR",
 * "GBP"; other codes are shown as the code), with the code's ISO 4217 minor
 * unit: JPY ¥ has none ("JPY 1,500"), KWD three ("KWD 1.250"), the rest two.
 *   USD: en "$4.19"   pt-PT "US$ 4,19" (seeds)  pt-BR "US$ 4,19"  es "4,19 US$"
 *        fr "4,19 $US" (U+00A0 before the symbol in every French amount)
 *        de "4,19 $"
 *   EUR: en "€4.19"   pt-PT "4,19 €"  pt-BR "€ 4,19"  es, fr, de "4,19 €"
 *   GBP: en "£4.19"   pt-PT "4,19 £"  pt-BR "£ 4,19"  es "4,19 GBP"
 *        fr "4,19 £GB"  de "4,19 £"
 * Negative: a leading "-" ("-$4.19", "-US$ 4,19", "-4,19 €"). Grouping as
 * i18n_fmt_number ("US$ 1.234,56"). ccy NULL or "": the number alone. */
char *i18n_fmt_money(enum i18n_lang lang, int64_t minor, const char *ccy);

/* A best price as the seed tables print it: "from " + i18n_fmt_money, through
 * the catalogue's "from %s": pt-PT "a partir de US$ 8,99", en "from $8.99". */
char *i18n_fmt_price_from(enum i18n_lang lang, int64_t minor, const char *ccy);

/* "Billions of parameters" as the fit tables show them, b whole billions:
 *   en "≈ 7B"  pt-PT "≈ 7 mil M" (seeds)  pt-BR "≈ 7 bi"  es "≈ 7 mil M"
 *   fr "≈ 7 Md" (U+00A0)  de "≈ 7 Mrd."
 * ascii: "~" instead of "≈" ("~ 7B"). Grouping as i18n_fmt_number. */
char *i18n_fmt_billions(enum i18n_lang lang, long b, bool ascii);

/* A duration in seconds, two largest units, rounded down: "45 s", "20 min",
 * "5 min 30 s", "3 h 20 min", "2 d 4 h" (fr "2 j 4 h"; "d" is the SI symbol
 * that de, es and pt also use); zero parts are left
 * out ("3 h", "2 d"); negative: leading "-". */
char *i18n_fmt_duration(enum i18n_lang lang, int64_t seconds);

/* A point in time (Unix seconds): en "2025-03-14 09:30" (ISO 8601),
 * pt-PT, pt-BR, es, fr "14/03/2025 09:30", de "14.03.2025 09:30".
 * Flags: I18N_DATE_ONLY leaves the time out; I18N_UTC uses UTC and appends
 * " UTC" (otherwise local time, per TZ); I18N_SHORT, for a list whose
 * heading names the year and the zone: no year, the seconds, no " UTC"
 * (en "03-14 09:30:05", pt-PT … fr "14/03 09:30:05", de "14.03. 09:30:05"). */
enum { I18N_DATE_ONLY = 1, I18N_UTC = 2, I18N_SHORT = 4 };
char *i18n_fmt_date(enum i18n_lang lang, int64_t unix_seconds, unsigned flags);

/* A moment for a sentence (i18n/when.c), local time unless I18N_UTC:
 *   en "1 September 2027 at 10:00"     pt-PT, pt-BR "1 de setembro de 2027 às 10:00"
 *   es "1 de septiembre de 2027 a las 10:00"   fr "1er septembre 2027 à 10:00"
 *   de "1. September 2027 um 10:00"
 * (" UTC" appended with I18N_UTC; "?" for a time the C library cannot show). */
char *i18n_fmt_when(enum i18n_lang lang, int64_t unix_seconds, unsigned flags);

/* The clock of a moment, local time unless I18N_UTC (i18n/when.c):
 * "14:35" in every language (24 h, as i18n_fmt_date writes it; "?" for a
 * time the C library cannot show). */
char *i18n_fmt_clock(enum i18n_lang lang, int64_t unix_seconds, unsigned flags);
/* A day for a time axis: the weekday abbreviated and the day of the month,
 * local time unless I18N_UTC: en "Mon 30", pt-PT, pt-BR "seg 30", es
 * "lun 30", fr "lun. 30", de "Mo. 30." ("?" as above). */
char *i18n_fmt_day(enum i18n_lang lang, int64_t unix_seconds, unsigned flags);
/* The local time zone's abbreviation at a moment, as the C library names it
 * ("WET", "CEST", "UTC"; "?" when it has none), malloc'ed. */
char *i18n_zone_name(int64_t unix_seconds);

/* Parse a typed decimal into an integer scaled by 10^scale (0..18), without
 * floating point: "4.19" or (pt-PT, pt-BR, es, fr, de) "4,19" → 419 for
 * scale 2; "4" → 400; ".5" → 50. The "." is accepted in every language; ","
 * only where it is the decimal separator. Surrounding spaces are ignored.
 * Rejected, with a message in the language in *cause: empty input, signs,
 * thousands separators (in en "1,307" is an error, never 1307 or 1.307),
 * both separators, more decimals than scale (so "1.500" is never 1.5 at
 * scale 2), a trailing separator, any other character, overflow of int64. */
int i18n_parse_decimal(enum i18n_lang lang, const char *s, int scale, int64_t *out,
                       char **cause);

/* A malloc'ed copy of UTF-8 text for a terminal that is not UTF-8: "≈" → "~",
 * "€" → "EUR", "£" → "GBP" (with a space towards an adjacent digit), no-break
 * spaces → " ", Latin letters with diacritics → the base letter ("Não" →
 * "Nao", "ß" → "ss"), typographic quotes and dashes → ASCII, "▲▼" → "^v",
 * anything else non-ASCII → "?". */
char *i18n_ascii(const char *utf8);

#endif
