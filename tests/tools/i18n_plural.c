/*
 * i18n_plural LANG N... — prints, for each N, the index of the plural form
 * that gpux's C rule (i18n_plural_index) picks in language LANG, one per
 * line. tests/i18n/test_catalogues.sh compares it with each catalogue's own
 * Plural-Forms header, evaluated by the shell. Exit 2 on a bad argument.
 */
#include <stdio.h>
#include <stdlib.h>

#include "i18n/i18n.h"

int main(int argc, char **argv)
{
	enum i18n_lang l;

	if (argc < 3 || i18n_lang_parse(argv[1], &l) != 0) {
		fprintf(stderr, "usage: i18n_plural LANG N...\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		char *end;
		unsigned long n = strtoul(argv[i], &end, 10);
		if (*argv[i] == '\0' || *end != '\0') {
			fprintf(stderr, "i18n_plural: not a count: %s\n", argv[i]);
			return 2;
		}
		printf("%u\n", i18n_plural_index(l, n));
	}
	return 0;
}
