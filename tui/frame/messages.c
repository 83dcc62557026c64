/*
 * The message history: everything the status bar said (what a key or a
 * command did or why it could not, what went wrong, the alerts the
 * exchange delivers), kept for the session in a ring of TUI_HISTORY_MAX,
 * oldest first, and shown newest last in an overlay (M, :messages) with
 * the time each was said — tmux's show-messages. One function says a
 * message and keeps it, tui_messages_add; tui_message is it for the
 * ordinary kind. The same text said again right after is counted ("×3"),
 * not kept twice, so a reply that fails every two seconds fills nothing.
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n/i18n.h"
#include "util/util.h"

static int64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const struct tui_msg *tui_messages_at(const struct tui *t, size_t i)
{
	return &t->msgs[(t->first_msg + i) % TUI_HISTORY_MAX];
}

static void keep(struct tui *t, enum tui_msg_kind kind, const char *text)
{
	struct tui_msg *m;

	if (t->n_msgs > 0) {
		m = &t->msgs[(t->first_msg + t->n_msgs - 1) % TUI_HISTORY_MAX];
		if (m->kind == kind && strcmp(m->text, text) == 0) {
			m->repeats++;
			m->at = wall_ms();
			return;
		}
	}
	if (t->msgs == NULL)
		t->msgs = xcalloc(TUI_HISTORY_MAX, sizeof *t->msgs);
	if (t->n_msgs == TUI_HISTORY_MAX) {
		m = &t->msgs[t->first_msg];
		free(m->text);
		t->first_msg = (t->first_msg + 1) % TUI_HISTORY_MAX;
		t->n_msgs--;
	}
	m = &t->msgs[(t->first_msg + t->n_msgs++) % TUI_HISTORY_MAX];
	*m = (struct tui_msg){ wall_ms(), kind, 1, xstrdup(text) };
}

void tui_messages_add(struct tui *t, enum tui_msg_kind kind, const char *text)
{
	if (text == NULL || text[0] == '\0')
		return;
	free(t->msg);
	t->msg = xstrdup(text);
	t->msg_until = util_now_ms() + TUI_MSG_MS;
	t->msg_seq++;
	t->redraw = true;
	keep(t, kind, text);
}

void tui_messages_free(struct tui *t)
{
	for (size_t i = 0; i < t->n_msgs; i++)
		free(t->msgs[(t->first_msg + i) % TUI_HISTORY_MAX].text);
	free(t->msgs);
	t->msgs = NULL;
	t->n_msgs = t->first_msg = 0;
}

/* "10:21:05" in the local time zone; with the day before it when the
 * message is from another day than now. malloc'ed. */
static char *when(int64_t at_ms, int64_t now_ms)
{
	time_t a = (time_t)(at_ms / 1000), n = (time_t)(now_ms / 1000);
	struct tm ta, tn;
	char buf[32] = "?";

	if (localtime_r(&a, &ta) == NULL || localtime_r(&n, &tn) == NULL)
		return xstrdup(buf);
	if (ta.tm_yday != tn.tm_yday || ta.tm_year != tn.tm_year)
		strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &ta);
	else
		strftime(buf, sizeof buf, "%H:%M:%S", &ta);
	return xstrdup(buf);
}

static void history_place(struct wwidget *w, int lines, int cols)
{
	whelp_place((struct whelp *)w, lines, cols);
	whelp_scroll_end((struct whelp *)w);
}

void tui_messages_open(struct tui *t)
{
	size_t n = t->n_msgs;
	struct whelp_item *items = xcalloc(n + 1, sizeof *items);
	char **left = xcalloc(n + 1, sizeof *left), **text = xcalloc(n + 1, sizeof *text);
	int64_t now = wall_ms();
	struct whelp *h;

	for (size_t i = 0; i < n; i++) {
		const struct tui_msg *m = tui_messages_at(t, i);
		left[i] = when(m->at, now);
		text[i] = m->repeats > 1 ? xasprintf("%s (\u00d7%u)", m->text, m->repeats)
					 : xstrdup(m->text);
		items[i] = (struct whelp_item){ left[i],
			m->kind == TUI_MSG_ERROR ? WR_BAD : m->kind == TUI_MSG_ALERT ? WR_GOOD : WR_DIALOG,
			text[i] };
	}
	if (n == 0)
		items[n++] = (struct whelp_item){ "", WR_DIALOG, _("No messages yet.") };
	h = whelp_new_list(&t->ui, _("Messages"),
			   _("\u2191\u2193 PgUp PgDn scroll \u00b7 any other key closes"), items, n);
	for (size_t i = 0; i < t->n_msgs; i++) {
		free(left[i]);
		free(text[i]);
	}
	free(left);
	free(text);
	free(items);
	tui_push(t, tui_overlay_new(t, &h->base, history_place, NULL, NULL));
}
