/*
 * Randomness of the exchange client, from getrandom(): client order ids
 * (one per intent, so a retried order can never be placed twice) and the
 * jitter of retry backoffs.
 */
#include "api/internal.h"

#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

static void random_bytes(void *p, size_t n)
{
	unsigned char *b = p;

	while (n > 0) {
		ssize_t r = getrandom(b, n, 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			fatal("getrandom: %s", strerror(errno));
		}
		b += r;
		n -= (size_t)r;
	}
}

uint64_t api_random64(void)
{
	uint64_t v;

	random_bytes(&v, sizeof v);
	return v;
}

char *api_new_client_order_id(void)
{
	unsigned char raw[16];
	char *s = xmalloc(33);

	random_bytes(raw, sizeof raw);
	for (size_t i = 0; i < sizeof raw; i++) {
		s[2 * i] = "0123456789abcdef"[raw[i] >> 4];
		s[2 * i + 1] = "0123456789abcdef"[raw[i] & 15];
	}
	s[32] = '\0';
	return s;
}
