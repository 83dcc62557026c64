/*
 * The exchange client's classifier: what one ended try means — success, a
 * final error, or a retry — and whether the request may have reached the
 * exchange and been acted on (which decides whether an order is asked for by
 * its client_order_id before its outcome is called unknown). Pure: only the
 * facts of the try (curl's code, the HTTP status, what the client saw), no
 * handle, no clock; tests/unit/test_api_classify.c holds it to its rules.
 * And the readers of header values: Retry-After (seconds or an HTTP date)
 * and any header line's value.
 */
#include "api/internal.h"

#include "api/curl_int.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

#define MAX_RETRY_AFTER_S 30   /* a longer Retry-After is reported, not waited for */

/* The classifier: what an ended attempt means, from its facts alone. */
struct api_verdict api_classify(const struct api_attempt *a)
{
	struct api_verdict v = {.reason = API_R_OTHER, .kind = API_ERR_NETWORK};
	bool sent = true;          /* the request may have reached the server */

	if (a->curl_code == CURLE_OK && ((a->status >= 200 && a->status < 300) || a->status == 304)) {
		if (a->status != 304 || a->conditional) {
			v.reason = API_R_OK;
			v.kind = 0;
			return v;
		}
		v.reason = API_R_UNEXPECTED;
		v.kind = API_ERR_PROTOCOL;
	} else if (a->curl_code == CURLE_OK) {
		v.reason = API_R_HTTP;
		v.kind = API_ERR_HTTP;
		if (a->status == 429) {
			v.retry = true;
			sent = false;     /* rate limited: not processed */
		} else if (a->status == 500 || a->status == 502 || a->status == 503 || a->status == 504) {
			v.retry = true;
		} else if (a->status < 400) {
			v.reason = API_R_UNEXPECTED;
			v.kind = API_ERR_PROTOCOL;
		}
	} else if (a->header_too_big || a->curl_code == CURLE_OUT_OF_MEMORY) {
		/* curl's "out of memory" is its refusal of a header line over 100 KB */
		v.reason = API_R_HEADER_TOO_BIG;
		v.kind = API_ERR_PROTOCOL;
	} else if (a->body_too_big || a->curl_code == CURLE_FILESIZE_EXCEEDED) {
		v.reason = API_R_TOO_BIG;
		v.kind = API_ERR_PROTOCOL;
	} else {
		switch (a->curl_code) {
		case CURLE_COULDNT_CONNECT:
		case CURLE_COULDNT_RESOLVE_HOST:
			v.reason = API_R_CONNECT;
			v.retry = true;
			sent = false;
			break;
		case CURLE_OPERATION_TIMEDOUT:
			v.reason = API_R_TIMEOUT;
			v.kind = API_ERR_TIMEOUT;
			v.retry = true;
			sent = a->request_sent;
			break;
		case CURLE_SEND_ERROR:
		case CURLE_RECV_ERROR:
		case CURLE_GOT_NOTHING:
		case CURLE_PARTIAL_FILE:
		case CURLE_HTTP2:
		case CURLE_HTTP2_STREAM:
			v.reason = a->curl_code == CURLE_PARTIAL_FILE ? API_R_BROKE_PARTIAL : API_R_BROKE;
			v.retry = true;
			break;
		case CURLE_PEER_FAILED_VERIFICATION:
		case CURLE_SSL_CONNECT_ERROR:
		case CURLE_SSL_CERTPROBLEM:
		case CURLE_SSL_CACERT_BADFILE:
		case CURLE_SSL_ISSUER_ERROR:
		case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
			v.reason = API_R_TLS;
			v.kind = API_ERR_TLS;
			sent = false;
			break;
		case CURLE_BAD_CONTENT_ENCODING:
		case CURLE_WEIRD_SERVER_REPLY:
		case CURLE_UNSUPPORTED_PROTOCOL:
			v.reason = API_R_PROTOCOL;
			v.kind = API_ERR_PROTOCOL;
			break;
		default:
			break;
		}
	}
	v.maybe_sent = sent && (a->curl_code != CURLE_OK || a->status >= 500);
	if (a->policy == API_RETRY_UNSAFE && sent)
		v.retry = false;
	if (a->retry_after_s > MAX_RETRY_AFTER_S)
		v.retry = false;
	return v;
}

long api_retry_after(const char *v, time_t now)
{
	char *end;
	long s;
	time_t t;

	if (v == NULL)
		return 0;
	while (*v == ' ' || *v == '\t')
		v++;
	if (*v >= '0' && *v <= '9') {
		errno = 0;
		s = strtol(v, &end, 10);
		while (*end == ' ' || *end == '\t')
			end++;
		if (errno != 0 || *end != '\0' || s < 0 || s > 86400)
			return 0;
		return s;
	}
	if (api_curl_ready(NULL) != 0)   /* an HTTP date: libcurl reads it */
		return 0;
	t = api_curl.getdate(v, NULL);
	if (t == (time_t)-1)
		return 0;
	if (t <= now)
		return 0;
	return t - now > 86400 ? 86400 : (long)(t - now);
}

/* The value of header line `line` if its name is `name`, trimmed, malloc'ed. */
char *api_header_value(const char *line, size_t len, const char *name)
{
	size_t nl = strlen(name);
	const char *v, *end;

	if (len <= nl || strncasecmp(line, name, nl) != 0 || line[nl] != ':')
		return NULL;
	v = line + nl + 1;
	end = line + len;
	while (v < end && (*v == ' ' || *v == '\t'))
		v++;
	while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' '))
		end--;
	return util_sanitize(v, (size_t)(end - v), true);
}

int64_t api_poll_delay_ms(const struct api_error *e, int failures, int64_t min_ms)
{
	int64_t d = 1000;

	if (e != NULL && e->retry_after_s > 0) {
		d = (int64_t)(e->retry_after_s < 3600 ? e->retry_after_s : 3600) * 1000;
	} else {
		for (int i = 1; i < failures && d < 60000; i++)
			d *= 2;
		if (d > 60000)
			d = 60000;
		d = d / 2 + (int64_t)(api_random64() % (uint64_t)(d / 2 + 1));
	}
	return d > min_ms ? d : min_ms;
}
