/*
 * api/stream.c — the market stream (GET /v1/stream, Server-Sent Events) on
 * its own curl multi handle, pumped by the caller's poll loop: no thread,
 * and nothing here ever waits.
 *
 * The write callback feeds an incremental SSE parser: bytes are cut into
 * lines (LF or CRLF; a line longer than API_STREAM_LINE_MAX is a failure),
 * fields are `event`, `data`, `id` and `retry` (a comment starts with ':'),
 * any other line is garbage and a failure, and an empty line dispatches the
 * event, decoded strictly by api_stream_decode(). Each channel's seq is
 * kept: an increment whose prev is newer than what we hold means an event
 * was missed, and the stream reconnects without Last-Event-ID for fresh
 * snapshots. A failure of any kind (network, HTTP error, garbage, a
 * `closing` event, no byte for longer than the stall time — heartbeats
 * come at least every 10 s) ends the transfer and schedules a reconnect after
 * an exponential backoff with jitter, sending the id of the last event
 * received. An exchange that does not stream (404, 405, 501, or a reply
 * that is not text/event-stream) is polled instead: GET /v1/quotes through
 * the client every 2 s, the stream being tried again every minute.
 */
#include "api/internal.h"

#include "i18n/i18n.h"
#include "util/util.h"

#include "api/curl_int.h"
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define STALL_MS 25000
#define BACKOFF_MS 250
#define MAX_BACKOFF_MS 10000
#define POLL_MS 2000
#define STREAM_RETRY_MS 60000
#define ERRBODY_MAX 65536

struct ssock {
	curl_socket_t fd;
	short events;
};

struct chan {
	char *key;                 /* "quotes", "book:h200", "trades:h200" */
	int64_t seq;
};

struct api_stream {
	struct api_client *c;
	struct api_stream_cbs cb;
	char *channels;
	bool no_poll;
	long stall_ms, max_backoff_ms;
	CURLM *multi;
	struct ssock *socks;
	size_t n_socks;
	struct pollfd *scratch;
	int64_t timer_at;
	/* the transfer */
	CURL *easy;
	struct curl_slist *headers;
	char errbuf[CURL_ERROR_SIZE];
	bool started_body, is_sse, got_event;
	long status;
	long retry_after_s;        /* the reply's Retry-After (a 503 or 429), 0 = none */
	struct buf line, data, errbody;
	char event[32];
	char *pending_id, *last_id;
	char *fail;                /* why the parser gave up (malloc'ed) */
	enum api_err fail_kind;
	bool resync;
	int64_t last_rx;           /* when the last byte came (util_now_ms) */
	/* state */
	enum api_stream_state state;
	int64_t since;
	int64_t retry_at;          /* -1: no reconnect scheduled */
	long backoff;
	int reconnects;
	struct chan *chans;
	size_t n_chans;
	/* polling */
	bool polling;
	uint64_t poll_id;
	int64_t poll_at, stream_retry_at;
	char *etag;
};

const char *api_stream_state_name(enum api_stream_state s)
{
	static const char *const names[] = {"connecting", "live", "polling", "retrying"};
	return (unsigned)s < 4 ? names[s] : "?";
}

static int64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void set_state(struct api_stream *s, enum api_stream_state st, const struct api_error *why)
{
	if (s->state == st && why == NULL)
		return;
	if (s->state != st)
		s->since = wall_ms();
	s->state = st;
	if (s->cb.state != NULL)
		s->cb.state(s->cb.ud, st, why);
}

/* ---- curl plumbing ------------------------------------------------------------------------ */

static int on_socket(CURL *easy, curl_socket_t fd, int what, void *userp, void *socketp)
{
	struct api_stream *s = userp;
	size_t i;

	for (i = 0; i < s->n_socks && s->socks[i].fd != fd; i++)
		;
	if (what == CURL_POLL_REMOVE) {
		if (i < s->n_socks)
			s->socks[i] = s->socks[--s->n_socks];
		return 0;
	}
	if (i == s->n_socks) {
		s->socks = xreallocarray(s->socks, s->n_socks + 1, sizeof *s->socks);
		s->scratch = xreallocarray(s->scratch, s->n_socks + 1, sizeof *s->scratch);
		s->socks[s->n_socks++].fd = fd;
	}
	s->socks[i].events = (short)(((what & CURL_POLL_IN) ? POLLIN : 0) |
				     ((what & CURL_POLL_OUT) ? POLLOUT : 0));
	return 0;
}

static int on_timer(CURLM *multi, long timeout_ms, void *userp)
{
	struct api_stream *s = userp;

	s->timer_at = timeout_ms < 0 ? -1 : util_now_ms() + timeout_ms;
	return 0;
}

/* ---- the SSE parser ----------------------------------------------------------------------- */

static void chan_key(const struct api_stream_event *e, char *key, size_t size)
{
	if (e->channel == API_CH_QUOTES)
		snprintf(key, size, "quotes");
	else
		snprintf(key, size, "%s:%s", e->channel == API_CH_BOOK ? "book" : "trades", e->gpu);
}

static struct chan *chan_find(struct api_stream *s, const char *key, bool add)
{
	for (size_t i = 0; i < s->n_chans; i++)
		if (strcmp(s->chans[i].key, key) == 0)
			return &s->chans[i];
	if (!add)
		return NULL;
	s->chans = xreallocarray(s->chans, s->n_chans + 1, sizeof *s->chans);
	s->chans[s->n_chans].key = xstrdup(key);
	s->chans[s->n_chans].seq = -1;
	return &s->chans[s->n_chans++];
}

static int give_up(struct api_stream *s, enum api_err kind, char *why)
{
	if (s->fail == NULL) {
		s->fail = why;
		s->fail_kind = kind;
	} else {
		free(why);
	}
	return -1;
}

/* A `closing` event: the exchange says why it ends the stream. */
static int on_closing(struct api_stream *s)
{
	char *cause = NULL, *code = NULL, *msg = NULL;
	cJSON *o = api_json_parse(s->data.data ? s->data.data : "", s->data.len, &cause);

	if (o != NULL && api_json_str(o, "", "code", 64, false, &code, &cause) == 0 &&
	    api_json_str(o, "", "message", 1024, false, &msg, &cause) == 0)
		give_up(s, API_ERR_HTTP, xasprintf(_("the exchange closed the stream: %s: %s"), code, msg));
	else
		give_up(s, API_ERR_PROTOCOL, xasprintf(_("the stream sent a bad event: %s"), cause));
	free(cause);
	free(code);
	free(msg);
	cJSON_Delete(o);
	return -1;
}

/* Check an increment's sequence against its channel; false on a gap. */
static bool in_sequence(struct api_stream *s, const struct api_stream_event *e)
{
	char key[200];
	struct chan *ch;

	if (e->channel == API_CH_NONE)
		return true;
	chan_key(e, key, sizeof key);
	ch = chan_find(s, key, e->kind == API_EV_SNAPSHOT);
	if (e->kind != API_EV_SNAPSHOT && (ch == NULL || e->prev > ch->seq))
		return false;
	ch->seq = e->seq;
	return true;
}

static int dispatch(struct api_stream *s)
{
	struct api_stream_event *e = NULL;
	char *cause = NULL;
	const char *name = s->event[0] ? s->event : "message";
	int rc;

	if (s->data.len == 0 && s->event[0] == '\0')
		return 0;
	if (strcmp(name, "closing") == 0)
		return on_closing(s);
	rc = api_stream_decode(name, s->data.data ? s->data.data : "", s->data.len, &e, &cause);
	if (rc < 0)
		return give_up(s, API_ERR_PROTOCOL,
			       xasprintf(_("the stream sent a bad %s event: %s"), name, cause));
	free(cause);
	if (s->pending_id != NULL) {
		free(s->last_id);
		s->last_id = s->pending_id;
		s->pending_id = NULL;
	}
	if (rc == 0 && !in_sequence(s, e)) {
		api_stream_event_free(&e);
		s->resync = true;
		return give_up(s, API_ERR_PROTOCOL, xstrdup(_("the stream skipped an event; resyncing")));
	}
	if (!s->got_event) {
		s->got_event = true;
		s->backoff = 0;
		set_state(s, API_STREAM_LIVE, NULL);
	}
	if (rc == 0 && s->cb.event != NULL)
		s->cb.event(s->cb.ud, e);
	api_stream_event_free(&e);
	s->event[0] = '\0';
	buf_reset(&s->data);
	return 0;
}

static int field(struct api_stream *s, const char *line, size_t len)
{
	const char *colon = memchr(line, ':', len);
	size_t nl = colon ? (size_t)(colon - line) : len;
	const char *v = colon ? colon + 1 : line + len;
	size_t vl = (size_t)(line + len - v);

	if (vl > 0 && *v == ' ')
		v++, vl--;
	if (len == 0)
		return dispatch(s);
	if (nl == 0)
		return 0;                    /* a comment */
	if (nl == 4 && strncmp(line, "data", 4) == 0) {
		if (s->data.len > 0)
			buf_putc(&s->data, '\n');
		buf_append(&s->data, v, vl);
		if (s->data.len > API_STREAM_LINE_MAX)
			return give_up(s, API_ERR_PROTOCOL, xstrdup(_("the stream sent an event that is too large")));
		return 0;
	}
	if (nl == 5 && strncmp(line, "event", 5) == 0 && vl < sizeof s->event) {
		memcpy(s->event, v, vl);
		s->event[vl] = '\0';
		return 0;
	}
	if (nl == 2 && strncmp(line, "id", 2) == 0 && vl < 128 && memchr(v, '\0', vl) == NULL) {
		free(s->pending_id);
		s->pending_id = xstrndup(v, vl);
		return 0;
	}
	if (nl == 5 && strncmp(line, "retry", 5) == 0)
		return 0;
	return give_up(s, API_ERR_PROTOCOL, xstrdup(_("the stream sent something that is not an event")));
}

static int feed(struct api_stream *s, const char *p, size_t n)
{
	while (n > 0) {
		const char *nl = memchr(p, '\n', n);
		size_t k = nl ? (size_t)(nl - p) : n;
		if (s->line.len + k > API_STREAM_LINE_MAX)
			return give_up(s, API_ERR_PROTOCOL, xstrdup(_("the stream sent a line that is too long")));
		buf_append(&s->line, p, k);
		if (nl == NULL)
			return 0;
		size_t len = s->line.len;
		if (len > 0 && s->line.data[len - 1] == '\r')
			len--;
		if (field(s, s->line.data ? s->line.data : "", len) != 0)
			return -1;
		buf_reset(&s->line);
		p += k + 1;
		n -= k + 1;
	}
	return 0;
}

static size_t on_header(char *data, size_t size, size_t n, void *userp)
{
	struct api_stream *s = userp;
	char *v = api_header_value(data, size * n, "Retry-After");

	if (v != NULL) {
		s->retry_after_s = api_retry_after(v, time(NULL));
		free(v);
	}
	return size * n;
}

static size_t on_body(char *data, size_t size, size_t n, void *userp)
{
	struct api_stream *s = userp;
	size_t len = size * n;

	s->last_rx = util_now_ms();
	if (!s->started_body) {
		char *ct = NULL;
		s->started_body = true;
		api_easy_getinfo(s->easy, CURLINFO_RESPONSE_CODE, &s->status);
		api_easy_getinfo(s->easy, CURLINFO_CONTENT_TYPE, &ct);
		s->is_sse = s->status == 200 && ct != NULL &&
			    strncasecmp(ct, "text/event-stream", 17) == 0;
	}
	if (!s->is_sse) {
		if (s->errbody.len + len <= ERRBODY_MAX)
			buf_append(&s->errbody, data, len);
		return len;
	}
	return feed(s, data, len) == 0 ? len : 0;
}

/* ---- connections -------------------------------------------------------------------------- */

static void transfer_end(struct api_stream *s)
{
	if (s->easy != NULL) {
		api_curl.multi_remove_handle(s->multi, s->easy);
		api_curl.easy_cleanup(s->easy);
		s->easy = NULL;
	}
	api_curl.slist_free_all(s->headers);
	s->headers = NULL;
	buf_free(&s->line);
	buf_free(&s->data);
	buf_free(&s->errbody);
	free(s->pending_id);
	s->pending_id = NULL;
	free(s->fail);
	s->fail = NULL;
	s->event[0] = '\0';
}

static void connect_stream(struct api_stream *s)
{
	const char *base, *unix_path;
	bool insecure;
	long connect_ms;
	char *url, *esc;
	CURL *e = api_curl.easy_init();

	if (e == NULL)
		fatal("curl_easy_init failed");
	api_client_transport(s->c, &base, &unix_path, &insecure, &connect_ms);
	esc = api_curl.easy_escape(e, s->channels, 0);
	url = xasprintf("%s/v1/stream?channels=%s", base, esc);
	api_curl.free(esc);
	s->easy = e;
	s->retry_at = -1;
	s->started_body = s->is_sse = s->got_event = false;
	s->status = 0;
	s->retry_after_s = 0;
	s->errbuf[0] = '\0';
	s->last_rx = util_now_ms();
	api_easy_setopt(e, CURLOPT_URL, url);
	free(url);
	api_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	api_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	api_easy_setopt(e, CURLOPT_ERRORBUFFER, s->errbuf);
	api_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
	api_easy_setopt(e, CURLOPT_WRITEDATA, s);
	api_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
	api_easy_setopt(e, CURLOPT_HEADERDATA, s);
	api_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
	api_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
	api_easy_setopt(e, CURLOPT_USERAGENT, "gpux");
	if (unix_path != NULL)
		api_easy_setopt(e, CURLOPT_UNIX_SOCKET_PATH, unix_path);
	if (insecure) {
		api_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
		api_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
	}
	s->headers = api_curl.slist_append(s->headers, "Accept: text/event-stream");
	if (s->last_id != NULL && !s->resync) {
		char *h = xasprintf("Last-Event-ID: %s", s->last_id);
		s->headers = api_curl.slist_append(s->headers, h);
		free(h);
	}
	if (s->resync) {
		for (size_t i = 0; i < s->n_chans; i++)
			free(s->chans[i].key);
		s->n_chans = 0;
		s->resync = false;
	}
	api_easy_setopt(e, CURLOPT_HTTPHEADER, s->headers);
	if (api_curl.multi_add_handle(s->multi, e) != CURLM_OK)
		fatal("curl_multi_add_handle failed");
}

static void schedule(struct api_stream *s, bool at_once)
{
	long max = s->max_backoff_ms;
	uint64_t r = api_random64();

	s->backoff = s->backoff == 0 ? BACKOFF_MS : s->backoff * 2;
	if (s->backoff > max)
		s->backoff = max;
	/* jitter: between half and all of the backoff */
	s->retry_at = util_now_ms() + (at_once ? 0 : s->backoff / 2 + (long)(r % (uint64_t)(s->backoff / 2 + 1)));
	s->reconnects++;
}

static void start_polling(struct api_stream *s, struct api_error *why)
{
	s->polling = true;
	s->poll_at = util_now_ms();
	s->stream_retry_at = s->poll_at + STREAM_RETRY_MS;
	set_state(s, API_STREAM_POLLING, why);
}

/* The transfer ended with curl's code rc: why, and what next. */
static void transfer_done(struct api_stream *s, CURLcode rc)
{
	struct api_error *why = NULL;
	bool resync = s->resync, not_stream = false;

	if (s->fail != NULL) {
		why = api_error_new(s->fail_kind, "%s", s->fail);
	} else if (s->started_body && !s->is_sse) {
		not_stream = s->status == 404 || s->status == 405 || s->status == 501 ||
			     (s->status >= 200 && s->status < 300);
		why = s->status >= 400 ? api_error_from_reply(s->status, s->errbody.data ? s->errbody.data : "",
							     s->errbody.len, NULL)
				       : api_error_new(API_ERR_PROTOCOL, _("the exchange does not stream market data"));
	} else if (rc != CURLE_OK) {
		why = api_error_new(rc == CURLE_OPERATION_TIMEDOUT ? API_ERR_TIMEOUT : API_ERR_NETWORK,
				    _("the stream to the exchange failed: %s"),
				    s->errbuf[0] ? s->errbuf : api_curl.easy_strerror(rc));
	} else {
		why = api_error_new(API_ERR_NETWORK, _("the exchange ended the stream"));
	}
	transfer_end(s);
	if (not_stream && !s->no_poll) {
		start_polling(s, why);
	} else {
		schedule(s, resync);
		/* the server said when (at most an hour): not before then */
		if (s->retry_after_s > 0) {
			int64_t at = util_now_ms() + (s->retry_after_s < 3600 ? s->retry_after_s : 3600) * 1000;
			if (at > s->retry_at)
				s->retry_at = at;
		}
		set_state(s, API_STREAM_RETRYING, why);
	}
	api_error_free(&why);
}

/* ---- polling -------------------------------------------------------------------------------- */

static void on_poll(void *ud, struct api_quotes *q, const struct api_error *e)
{
	struct api_stream *s = ud;

	s->poll_id = 0;
	s->poll_at = util_now_ms() + POLL_MS;
	if (q == NULL)
		return;
	if (!q->unchanged && s->cb.event != NULL) {
		struct api_stream_event ev = {
			.kind = API_EV_SNAPSHOT, .channel = API_CH_QUOTES, .seq = q->seq, .prev = -1,
			.quotes = q->v, .n_quotes = q->n, .polled = true,
		};
		s->cb.event(s->cb.ud, &ev);
	}
	free(s->etag);
	s->etag = q->etag != NULL ? xstrdup(q->etag) : NULL;
	api_quotes_free(&q);
}

static void poll_step(struct api_stream *s, int64_t now)
{
	if (!s->polling)
		return;
	if (now >= s->stream_retry_at && s->poll_id == 0) {
		s->polling = false;
		connect_stream(s);
		return;
	}
	if (s->poll_id == 0 && now >= s->poll_at) {
		s->poll_at = now + POLL_MS;
		s->poll_id = api_quotes_start(s->c, s->etag, on_poll, s);
	}
}

/* ---- the interface -------------------------------------------------------------------------- */

struct api_stream *api_stream_open(struct api_client *c, const struct api_stream_opts *o,
				   const struct api_stream_cbs *cb)
{
	struct api_stream *s = xcalloc(1, sizeof *s);

	s->c = c;
	if (cb != NULL)
		s->cb = *cb;
	s->channels = xstrdup(o != NULL && o->channels != NULL ? o->channels : "quotes");
	s->no_poll = o != NULL && o->no_poll;
	s->stall_ms = o != NULL && o->stall_ms > 0 ? o->stall_ms : STALL_MS;
	s->max_backoff_ms = o != NULL && o->max_backoff_ms > 0 ? o->max_backoff_ms : MAX_BACKOFF_MS;
	s->timer_at = s->retry_at = -1;
	s->state = API_STREAM_CONNECTING;
	s->since = wall_ms();
	s->multi = api_curl.multi_init();
	if (s->multi == NULL)
		fatal("curl_multi_init failed");
	api_curl.multi_setopt(s->multi, CURLMOPT_SOCKETFUNCTION, on_socket);
	api_curl.multi_setopt(s->multi, CURLMOPT_SOCKETDATA, s);
	api_curl.multi_setopt(s->multi, CURLMOPT_TIMERFUNCTION, on_timer);
	api_curl.multi_setopt(s->multi, CURLMOPT_TIMERDATA, s);
	connect_stream(s);
	return s;
}

void api_stream_close(struct api_stream **ps)
{
	struct api_stream *s;

	if (ps == NULL || (s = *ps) == NULL)
		return;
	if (s->poll_id != 0)
		api_abandon(s->c, s->poll_id);
	transfer_end(s);
	api_curl.multi_cleanup(s->multi);
	for (size_t i = 0; i < s->n_chans; i++)
		free(s->chans[i].key);
	free(s->chans);
	free(s->socks);
	free(s->scratch);
	free(s->channels);
	free(s->last_id);
	free(s->etag);
	free(s);
	*ps = NULL;
}

int api_stream_fds(struct api_stream *s, struct pollfd *fds, int max, int *timeout_ms)
{
	int n = 0;
	int64_t now = util_now_ms(), next = -1;

	for (size_t i = 0; i < s->n_socks && n < max; i++, n++) {
		fds[n].fd = s->socks[i].fd;
		fds[n].events = s->socks[i].events;
		fds[n].revents = 0;
	}
	if ((size_t)n < s->n_socks)
		next = now + 5;
	if (s->timer_at >= 0 && (next < 0 || s->timer_at < next))
		next = s->timer_at;
	if (s->retry_at >= 0 && (next < 0 || s->retry_at < next))
		next = s->retry_at;
	if (s->easy != NULL && (next < 0 || s->last_rx + s->stall_ms < next))
		next = s->last_rx + s->stall_ms;
	if (s->polling && s->poll_id == 0 && (next < 0 || s->poll_at < next))
		next = s->poll_at;
	if (next >= 0) {
		int64_t wait = next > now ? next - now : 0;
		if (*timeout_ms < 0 || wait < *timeout_ms)
			*timeout_ms = (int)(wait > 1000000 ? 1000000 : wait);
	}
	return n;
}

void api_stream_perform(struct api_stream *s)
{
	int running, left;
	size_t n = s->n_socks;
	CURLMsg *m;
	int64_t now;

	for (size_t i = 0; i < n; i++) {
		s->scratch[i].fd = s->socks[i].fd;
		s->scratch[i].events = s->socks[i].events;
		s->scratch[i].revents = 0;
	}
	if (n > 0 && poll(s->scratch, (nfds_t)n, 0) > 0) {
		for (size_t i = 0; i < n; i++) {
			short r = s->scratch[i].revents;
			int mask = ((r & POLLIN) ? CURL_CSELECT_IN : 0) | ((r & POLLOUT) ? CURL_CSELECT_OUT : 0) |
				   ((r & (POLLERR | POLLHUP | POLLNVAL)) ? CURL_CSELECT_ERR : 0);
			if (mask != 0)
				api_curl.multi_socket_action(s->multi, s->scratch[i].fd, mask, &running);
		}
	}
	if (s->timer_at >= 0 && util_now_ms() >= s->timer_at) {
		s->timer_at = -1;
		api_curl.multi_socket_action(s->multi, CURL_SOCKET_TIMEOUT, 0, &running);
	}
	while ((m = api_curl.multi_info_read(s->multi, &left)) != NULL)
		if (m->msg == CURLMSG_DONE && m->easy_handle == s->easy)
			transfer_done(s, m->data.result);
	now = util_now_ms();
	if (s->easy != NULL && now - s->last_rx >= s->stall_ms) {
		give_up(s, API_ERR_TIMEOUT, xasprintf(_("the stream went silent for %ld s"),
						      (s->stall_ms + 999) / 1000));
		transfer_done(s, CURLE_OPERATION_TIMEDOUT);
	}
	if (s->easy == NULL && s->retry_at >= 0 && now >= s->retry_at)
		connect_stream(s);
	poll_step(s, now);
}

enum api_stream_state api_stream_state(const struct api_stream *s, int64_t *since_ms)
{
	if (since_ms != NULL)
		*since_ms = s->since;
	return s->state;
}

int api_stream_reconnects(const struct api_stream *s)
{
	return s->reconnects;
}
