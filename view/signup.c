/*
 * The fields of a new account, checked before anything is created: the
 * e-mail address, a country of the exchange's VAT table, a currency it
 * offers, a role. Pure (the market is the exchange's GET /v1/market); `gpux
 * signup` and the TUI's welcome screen ask the same questions with these.
 */
#include "view/view.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

#define MAX_EMAIL 254

static const char *const role_words[] = { "buyer", "seller", "both", NULL };

const char *view_email_problem(const char *s)
{
	const char *at = strchr(s, '@');

	if (strlen(s) > MAX_EMAIL)
		return _("it is longer than 254 characters");
	if (at == NULL || at == s || at[1] == '\0' || strchr(at + 1, '@') != NULL ||
	    strchr(at + 1, '.') == NULL)
		return _("it needs a name, an @ and a domain, as in ana@example.pt");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p <= ' ' || *p == 0x7f)
			return _("it must not contain spaces");
	return NULL;
}

int view_signup_email(const char *s, char **why)
{
	const char *p = view_email_problem(s);

	if (p == NULL)
		return 0;
	char *safe = util_sanitize(s, 80, false);
	*why = xasprintf(_("\"%s\" is not an e-mail address: %s"), safe, p);
	free(safe);
	return -1;
}

char *view_signup_countries(const struct api_market *m)
{
	struct buf b = {0};

	for (size_t i = 0; i < m->n_vat; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", m->vat[i].key);
	return buf_take(&b);
}

char *view_signup_currencies(const struct api_market *m)
{
	struct buf b = {0};

	for (size_t i = 0; i < m->n_currencies; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", m->currencies[i]);
	return buf_take(&b);
}

int view_signup_country(const struct api_market *m, const char *s, char cc_out[3],
			int64_t *vat_bp, char **why)
{
	char cc[3] = {0};

	if (strlen(s) == 2) {
		cc[0] = (char)toupper((unsigned char)s[0]);
		cc[1] = (char)toupper((unsigned char)s[1]);
		for (size_t i = 0; i < m->n_vat; i++) {
			if (strcmp(m->vat[i].key, cc) == 0) {
				memcpy(cc_out, cc, 3);
				*vat_bp = m->vat[i].value;
				return 0;
			}
		}
	}
	char *safe = util_sanitize(s, 16, false), *list = view_signup_countries(m);
	*why = xasprintf(_("\"%s\" is not a country of this exchange's VAT table; accepted: %s"),
			 safe, list);
	free(safe);
	free(list);
	return -1;
}

int view_signup_currency(const struct api_market *m, const char *s, char ccy[4], char **why)
{
	for (size_t i = 0; i < m->n_currencies; i++) {
		if (strcasecmp(m->currencies[i], s) == 0 && strlen(m->currencies[i]) < 4) {
			memcpy(ccy, m->currencies[i], strlen(m->currencies[i]) + 1);
			return 0;
		}
	}
	char *safe = util_sanitize(s, 16, false), *list = view_signup_currencies(m);
	*why = xasprintf(_("the exchange does not offer \"%s\"; accepted: %s"), safe, list);
	free(safe);
	free(list);
	return -1;
}

int view_signup_role(const char *s, bool asked, int *role, char **why)
{
	const char *words[3] = { _("buyer"), _("seller"), _("both") };

	for (int i = 0; role_words[i] != NULL; i++) {
		if (strcasecmp(role_words[i], s) == 0 || strcasecmp(words[i], s) == 0) {
			*role = i;
			return 0;
		}
	}
	char *safe = util_sanitize(s, 16, false);
	if (asked)
		*why = xasprintf(_("\"%s\" is not a role; accepted: %s, %s, %s"), safe, words[0],
				 words[1], words[2]);
	else
		*why = xasprintf(_("\"%s\" is not a role; accepted: buyer, seller, both"), safe);
	free(safe);
	return -1;
}

const char *view_signup_default_currency(const struct api_market *m, const char *cc)
{
	static const char euro[] = "AT BE CY DE EE ES FI FR GR HR IE IT LT LU LV MT NL PT SI SK";
	const char *want = strcmp(cc, "GB") == 0 ? "GBP"
			 : (cc[0] && strstr(euro, cc) != NULL) ? "EUR" : "USD";

	for (size_t i = 0; i < m->n_currencies; i++)
		if (strcmp(m->currencies[i], want) == 0)
			return want;
	return m->n_currencies > 0 ? m->currencies[0] : "USD";
}
