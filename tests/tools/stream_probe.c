/*
 * stream_probe — drives api_stream_open() for the client's stream tests.
 *
 *   stream_probe [--until TEXT] URL CHANNELS STALL_MS SECONDS [MAX_BACKOFF_MS]
 *
 * Pumps a client and its market stream for SECONDS and prints one line per
 * state change ("state retrying: <why>") and per event ("event snapshot
 * quotes seq=7 prev=-1 quotes=1 trades=0 asks=0 bids=0 polled=0"), then
 * "reconnects N". Exit status 0. With --until, it stops sooner: as soon as it
 * has printed a line holding TEXT (what the test waits for), SECONDS being
 * then the most it waits.
 */
#include "api/api.h"
#include "util/util.h"

#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *until;   /* --until TEXT */
static bool seen;           /* a line holding it was printed */

/* One line of output, noting whether it holds the --until text. */
static void say(const char *line)
{
	fputs(line, stdout);
	fflush(stdout);
	if (until != NULL && strstr(line, until) != NULL)
		seen = true;
}

static const char *kind_name(enum api_ev_kind k)
{
	static const char *const n[] = {"snapshot", "quote", "trade", "book", "heartbeat"};
	return (unsigned)k < 5 ? n[k] : "?";
}

static const char *chan_name(enum api_channel c)
{
	static const char *const n[] = {"quotes", "trades", "book", "-"};
	return (unsigned)c < 4 ? n[c] : "?";
}

static void on_event(void *ud, const struct api_stream_event *e)
{
	char *line = xasprintf("event %s %s%s%s seq=%lld prev=%lld quotes=%zu trades=%zu asks=%zu "
			       "bids=%zu polled=%d\n",
			       kind_name(e->kind), chan_name(e->channel), e->gpu ? ":" : "",
			       e->gpu ? e->gpu : "", (long long)e->seq, (long long)e->prev, e->n_quotes,
			       e->n_trades, e->n_asks, e->n_bids, e->polled);
	say(line);
	free(line);
}

static void on_state(void *ud, enum api_stream_state st, const struct api_error *why)
{
	char *t = why ? api_error_text(why) : NULL;
	char *line = xasprintf("state %s%s%s\n", api_stream_state_name(st), t ? ": " : "", t ? t : "");
	say(line);
	free(line);
	free(t);
}

int main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[1], "--until") == 0) {
		until = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc < 5) {
		fprintf(stderr, "usage: stream_probe [--until TEXT] URL CHANNELS STALL_MS SECONDS "
			"[MAX_BACKOFF_MS]\n");
		return 2;
	}
	struct api_config cfg = {.url = argv[1], .connect_timeout_ms = 2000, .backoff_ms = 20};
	char *cause = NULL;
	struct api_client *c = api_client_new(&cfg, &cause);
	if (c == NULL) {
		fprintf(stderr, "stream_probe: %s\n", cause);
		return 1;
	}
	struct api_stream_opts o = {.channels = argv[2], .stall_ms = atol(argv[3]),
				    .max_backoff_ms = argc > 5 ? atol(argv[5]) : 200};
	struct api_stream_cbs cb = {.event = on_event, .state = on_state};
	struct api_stream *s = api_stream_open(c, &o, &cb);
	int64_t end = util_now_ms() + atol(argv[4]) * 1000;
	while (!seen && util_now_ms() < end) {
		struct pollfd fds[32];
		int timeout = 100, n = api_fds(c, fds, 16, &timeout);
		n += api_stream_fds(s, fds + n, 16, &timeout);
		poll(fds, (nfds_t)n, timeout);
		api_perform(c);
		api_stream_perform(s);
	}
	printf("reconnects %d\n", api_stream_reconnects(s));
	api_stream_close(&s);
	api_client_free(&c);
	return 0;
}
