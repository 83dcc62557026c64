/*
 * api/calls.c — the untyped halves of an endpoint function, for endpoint
 * files whose callbacks all take (userdata, reply, error): the delivery that
 * casts the stored callback back, the start of a request, and the blocking
 * run of one (a copy of the error for the caller, as api_error_free frees).
 */
#include "api/internal.h"

#include "util/util.h"

#include <stdlib.h>
#include <string.h>

typedef void (*any_cb)(void *ud, void *reply, const struct api_error *e);

void api_deliver_any(struct api_call *call, void *reply, const struct api_error *e)
{
	any_cb cb = (any_cb)api_call_cb(call);

	cb(api_call_ud(call), reply, e);
}

uint64_t api_start_req(struct api_client *c, const char *method, char *path, char *body,
		       enum api_retry retry, const struct api_ep *ep, void (*cb)(void), void *ud)
{
	struct api_req r = {
		.method = method, .path = path, .body = body, .retry = retry, .ep = ep,
		.cb = cb, .ud = ud,
	};

	return api_call_start(c, &r);
}

struct wait {
	bool done;
	void *reply;
	struct api_error *err;
};

static void wait_cb(void *ud, void *reply, const struct api_error *e)
{
	struct wait *w = ud;

	w->done = true;
	w->reply = reply;
	if (e != NULL)
		w->err = api_error_copy(e);
}

int api_run_req(struct api_client *c, const char *method, char *path, char *body,
		enum api_retry retry, const struct api_ep *ep, void **out, struct api_error **err)
{
	struct wait w = {0};
	uint64_t id = api_start_req(c, method, path, body, retry, ep, (void (*)(void))wait_cb, &w);

	api_run_until_done(c, id, &w.done);
	*out = w.reply;
	if (err != NULL)
		*err = w.err;
	else
		api_error_free(&w.err);
	return w.reply != NULL ? 0 : -1;
}
