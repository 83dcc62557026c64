/*
 * util/currency.c — the minor units of ISO 4217 currencies, shared by the
 * exchange (an operator's currency must carry its standard exponent) and the
 * client's formatter and parser (JPY has no decimals, KWD three).
 *
 * The table lists the active codes of ISO 4217 list one (2024 edition)
 * whose minor unit is not 2; every other code has 2. Funds codes that have
 * no minor unit ("N.A.") are left out: gpuxd takes no such currency.
 */
#include "util/util.h"

#include <string.h>

static const struct { char code[4]; int exponent; } units[] = {
	{ "BHD", 3 }, { "BIF", 0 }, { "CLF", 4 }, { "CLP", 0 }, { "DJF", 0 }, { "GNF", 0 },
	{ "IQD", 3 }, { "ISK", 0 }, { "JOD", 3 }, { "JPY", 0 }, { "KMF", 0 }, { "KRW", 0 },
	{ "KWD", 3 }, { "LYD", 3 }, { "OMR", 3 }, { "PYG", 0 }, { "RWF", 0 }, { "TND", 3 },
	{ "UGX", 0 }, { "UYI", 0 }, { "UYW", 4 }, { "VND", 0 }, { "VUV", 0 }, { "XAF", 0 },
	{ "XOF", 0 }, { "XPF", 0 },
};

int util_ccy_exponent(const char *code)
{
	if (code == NULL || strlen(code) != 3)
		return -1;
	for (int i = 0; i < 3; i++)
		if (code[i] < 'A' || code[i] > 'Z')
			return -1;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(units[i].code, code) == 0)
			return units[i].exponent;
	return 2;
}
