/*
 * The catalogue as the unit tests read it (tests/unit/test_view.c, the
 * screen tests through screen_fixture.h and others): loaded from the build's
 * embedded data, with i18n in English. Header-only.
 */
#ifndef GPUX_TESTS_CATALOG_FIXTURE_H
#define GPUX_TESTS_CATALOG_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "data/catalog.h"
#include "i18n/i18n.h"

/* The catalogue into *cat, i18n in English: 0, or -1 with the cause said. */
static inline int fx_catalog_load(struct catalog **cat)
{
	char *cause = NULL;

	i18n_init(I18N_EN);
	if (catalog_load(NULL, cat, &cause) != 0) {
		print_error("catalog_load: %s\n", cause != NULL ? cause : "?");
		free(cause);
		return -1;
	}
	return 0;
}

#endif
