/*
 * Errors of the exchange client: one struct for every failure (network,
 * timeout, TLS, the server's own error, a reply that cannot be read, an order
 * whose outcome is unknown), and one function that turns it into a line a
 * user can read. Messages are built from sanitised parts only and never from
 * request headers, so the API key cannot leak into them.
 */
#include "api/api.h"
#include "api/internal.h"

#include "i18n/i18n.h"
#include "util/util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct api_error *api_error_new(enum api_err kind, const char *fmt, ...)
{
	struct api_error *e = xcalloc(1, sizeof *e);
	va_list ap;

	e->kind = kind;
	e->required_minor = e->available_minor = e->opens_at = -1;
	va_start(ap, fmt);
	e->message = xvasprintf(fmt, ap);
	va_end(ap);
	return e;
}

void api_error_free(struct api_error **pe)
{
	struct api_error *e;

	if (pe == NULL || *pe == NULL)
		return;
	e = *pe;
	free(e->code);
	free(e->message);
	free(e->request_id);
	free(e->client_order_id);
	free(e->field);
	free(e->currency);
	api_job_alts_free(e->alternatives, e->n_alternatives);
	free(e);
	*pe = NULL;
}

struct api_error *api_error_copy(const struct api_error *e)
{
	struct api_error *c = xcalloc(1, sizeof *c);

	*c = *e;
	c->code = e->code != NULL ? xstrdup(e->code) : NULL;
	c->message = xstrdup(e->message != NULL ? e->message : "");
	c->request_id = e->request_id != NULL ? xstrdup(e->request_id) : NULL;
	c->client_order_id = e->client_order_id != NULL ? xstrdup(e->client_order_id) : NULL;
	c->field = e->field != NULL ? xstrdup(e->field) : NULL;
	c->currency = e->currency != NULL ? xstrdup(e->currency) : NULL;
	c->alternatives = NULL;
	c->n_alternatives = 0;
	if (e->n_alternatives > 0) {
		c->alternatives = xcalloc(e->n_alternatives, sizeof *c->alternatives);
		for (size_t i = 0; i < e->n_alternatives; i++) {
			const struct api_job_alt *a = &e->alternatives[i];
			struct api_job_alt *b = &c->alternatives[i];
			*b = *a;
			b->gpu = a->gpu != NULL ? xstrdup(a->gpu) : NULL;
			b->reason = a->reason != NULL ? xstrdup(a->reason) : NULL;
			b->interconnect = a->interconnect != NULL ? xstrdup(a->interconnect) : NULL;
		}
		c->n_alternatives = e->n_alternatives;
	}
	return c;
}

const char *api_err_name(enum api_err kind)
{
	switch (kind) {
	case API_ERR_NETWORK: return "network";
	case API_ERR_TIMEOUT: return "timeout";
	case API_ERR_TLS: return "tls";
	case API_ERR_HTTP: return "http";
	case API_ERR_PROTOCOL: return "protocol";
	case API_ERR_UNKNOWN_OUTCOME: return "unknown_outcome";
	case API_ERR_CONFIG: return "config";
	}
	return "error";
}

char *api_error_text(const struct api_error *e)
{
	struct buf b = {0};
	const char *msg;

	if (e == NULL)
		return xstrdup("");
	msg = e->message != NULL ? e->message : "";
	/* the exchange's own words are English: a refusal gpux can explain is said
	 * in the user's language */
	if (e->code != NULL && strcmp(e->code, "KEY_SCOPE") == 0)
		msg = _("this API key is read-only: orders, cancels, stops, deposits and key "
			"changes need a trade key");
	switch (e->kind) {
	case API_ERR_HTTP:
		if (e->code != NULL)
			buf_printf(&b, _("the exchange refused: %s: %s"), e->code, msg);
		else
			buf_printf(&b, _("the exchange answered HTTP %d: %s"), e->http_status, msg);
		break;
	case API_ERR_PROTOCOL:
		buf_printf(&b, _("the exchange sent a reply gpux cannot use: %s"), msg);
		break;
	case API_ERR_UNKNOWN_OUTCOME:
		buf_printf(&b, _("the outcome of order %s is unknown: %s"),
			   e->client_order_id != NULL ? e->client_order_id : "?", msg);
		break;
	case API_ERR_NETWORK:
	case API_ERR_TIMEOUT:
	case API_ERR_TLS:
	case API_ERR_CONFIG:
		buf_puts(&b, msg);
		break;
	}
	if (e->retry_after_s > 0)
		buf_printf(&b, _(" (try again in %d s)"), e->retry_after_s);
	if (e->request_id != NULL)
		buf_printf(&b, _(" (request %s)"), e->request_id);
	return buf_take(&b);
}
