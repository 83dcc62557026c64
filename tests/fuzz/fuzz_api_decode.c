/*
 * libFuzzer target over the exchange client's reply decoders (api/wire.c,
 * api/wire_market.c, api/json.c, api/alerts.c), the stream's event decoder
 * (market and account channels), the error-body reader and the config file
 * parser.
 *
 * Input: the first byte picks the decoder (and, through its top bit, the HTTP
 * status 200 or 201), the rest is the reply body. Every input must give
 * either a decoded reply or an error message — never a crash, a leak or a
 * read out of bounds (the fuzzer build has ASan and UBSan).
 *
 *   make build/fuzz/fuzz_api_decode && build/fuzz/fuzz_api_decode \
 *       -max_total_time=300 tests/fuzz/corpus/fuzz_api_decode
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"

static const char *const names[] = {
	"market", "gpus", "workloads", "quotes", "book", "trades", "account", "deposit",
	"ledger", "preview", "order", "orders", "rental", "rentals", "error", "conf",
	"candles", "ev:snapshot", "ev:quote", "ev:trade", "ev:book", "ev:heartbeat",
	"al:alert", "al:alerts", "al:events", "al:account_event", "ev:account",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *name;
	long status;
	char *body, *cause = NULL;
	void *out = NULL;

	if (size < 1)
		return 0;
	name = names[(data[0] & 0x7f) % (sizeof names / sizeof names[0])];
	status = (data[0] & 0x80) ? 201 : 200;
	body = malloc(size);
	if (body == NULL)
		return 0;
	memcpy(body, data + 1, size - 1);
	body[size - 1] = '\0';
	if (strncmp(name, "ev:", 3) == 0) {
		struct api_stream_event *e = NULL;
		int rc = api_stream_decode(name + 3, body, size - 1, &e, &cause);
		if (rc < 0 && (cause == NULL || cause[0] == '\0'))
			abort();
		api_stream_event_free(&e);
	} else if (strncmp(name, "al:", 3) == 0) {
		if (api_alerts_decode(name + 3, status, body, size - 1, &out, &cause) == 0)
			api_alerts_reply_free(name + 3, &out);
		else if (cause == NULL || cause[0] == '\0')
			abort();   /* a refusal must say why */
	} else if (strcmp(name, "conf") == 0) {
		struct api_conf *c = NULL;
		if (api_conf_parse("fuzz", body, &c, &cause) == 0) {
			(void)api_conf_get(c, "key");
			api_conf_set(c, "lang", "de");
			api_conf_free(&c);
		}
	} else if (api_decode(name, status, body, size - 1, &out, &cause) == 0) {
		if (strcmp(name, "error") == 0) {
			char *t = api_error_text(out);
			free(t);
		}
		api_reply_free(name, &out);
	} else if (cause == NULL || cause[0] == '\0') {
		abort();   /* a refusal must say why */
	}
	free(cause);
	free(body);
	return 0;
}
