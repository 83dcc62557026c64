/*
 * The account's events as data: its own stream (GET /v1/stream, channel
 * account, with the client's key; api/stream.c delivers each event once
 * across reconnects), opened once the account is known (tui/feed/account.c).
 * The latest TUI_EVENTS_MAX are kept, oldest first, as the message history
 * the alerts page lists; the few before the stream began come once from GET
 * /v1/events. Each event that arrives while the TUI runs is said on the
 * status bar in words (view/alert.c), and an alert's firing also rings the
 * terminal's bell (t->bell, rung by the frame after its doupdate).
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Keep e (taken) in order of its number, unless it is there already. */
static bool keep(struct tui_events *x, struct api_account_event *e)
{
	size_t at = x->n;

	while (at > 0 && x->v[at - 1]->id >= e->id) {
		if (x->v[at - 1]->id == e->id) {
			api_account_event_free(&e);
			return false;
		}
		at--;
	}
	if (x->n == TUI_EVENTS_MAX) {
		if (at == 0) {
			api_account_event_free(&e);
			return false;   /* older than all we keep */
		}
		api_account_event_free(&x->v[0]);
		memmove(x->v, x->v + 1, (x->n - 1) * sizeof *x->v);
		x->n--;
		at--;
	}
	if (x->v == NULL)
		x->v = xcalloc(TUI_EVENTS_MAX, sizeof *x->v);
	memmove(x->v + at + 1, x->v + at, (x->n - at) * sizeof *x->v);
	x->v[at] = e;
	x->n++;
	x->gen++;
	return true;
}

/* An owned copy of a delivered event (the stream's is borrowed). */
static struct api_account_event *copy(const struct api_account_event *e)
{
	void *out = NULL;
	char *cause = NULL;

	if (api_alerts_decode("account_event", 200, e->json, strlen(e->json), &out, &cause) != 0) {
		free(cause);
		return NULL;
	}
	return out;
}

static void on_back(void *ud, struct api_events *r, const struct api_error *e)
{
	struct tui *t = ud;
	struct tui_events *x = &t->events;

	x->back_req = 0;
	x->back_done = true;
	for (size_t i = 0; r != NULL && i < r->n; i++) {
		struct api_account_event *c = copy(&r->v[i]);
		if (c != NULL)
			keep(x, c);
	}
	api_events_free(&r);
	(void)e; /* without its history the page lists what comes from now on */
}

static void on_event(void *ud, const struct api_stream_event *ev)
{
	struct tui *t = ud;
	struct tui_events *x = &t->events;
	struct api_account_event *c;
	char *text;

	if (ev->kind == API_EV_SNAPSHOT && ev->channel == API_CH_ACCOUNT && !x->back_done &&
	    x->back_req == 0 && ev->account_last > 0) {
		int64_t after = ev->account_last - TUI_EVENTS_BACK;
		x->back_req = api_events_start(t->api, after > 0 ? after : 0, TUI_EVENTS_BACK,
					       on_back, t);
		return;
	}
	if (ev->kind != API_EV_ACCOUNT || (c = copy(ev->account)) == NULL)
		return;
	bool alert = c->kind != NULL && strcmp(c->kind, "alert") == 0;
	text = view_account_event_text(t->o->lang, c, c->gpu != NULL ? tui_gpu_name(t, c->gpu) : NULL);
	if (keep(x, c)) {
		tui_message(t, text);
		if (alert) {
			x->fired++;
			t->bell = true;
		}
	}
	free(text);
}

void tui_events_open(struct tui *t)
{
	struct api_stream_opts o = { .channels = "account", .no_poll = true, .account_after = -1 };
	struct api_stream_cbs cb = { .event = on_event, .ud = t };

	if (t->api == NULL || t->events.stream != NULL || !api_client_has_key(t->api))
		return;
	t->events.stream = api_stream_open(t->api, &o, &cb);
}

int tui_events_fds(struct tui *t, struct pollfd *fds, int max, int *timeout_ms)
{
	return t->events.stream != NULL ? api_stream_fds(t->events.stream, fds, max, timeout_ms) : 0;
}

void tui_events_perform(struct tui *t)
{
	if (t->events.stream != NULL)
		api_stream_perform(t->events.stream);
}

void tui_events_free(struct tui *t)
{
	struct tui_events *x = &t->events;

	if (x->back_req != 0 && t->api != NULL)
		api_abandon(t->api, x->back_req);
	api_stream_close(&x->stream);
	for (size_t i = 0; i < x->n; i++)
		api_account_event_free(&x->v[i]);
	free(x->v);
	memset(x, 0, sizeof *x);
}
