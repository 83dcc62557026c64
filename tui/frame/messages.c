/*
 * The message history: everything the status bar said (what a key or a
 * command did or why it could not, what went wrong, the alerts the
 * exchange delivers), kept for the session in a ring of TUI_HISTORY_MAX,
 * oldest first (shown newest last by tui/frame/dialogs.c's overlay, M and
 * :messages, with the time each was said — tmux's show-messages). One
 * function says a
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

void tui_message(struct tui *t, const char *msg)
{
	if (msg != NULL && msg[0] != '\0') {
		tui_messages_add(t, TUI_MSG_INFO, msg);
		return;
	}
	free(t->msg);
	t->msg = NULL;
	t->msg_seq++;
	t->redraw = true;
}

void tui_messages_free(struct tui *t)
{
	for (size_t i = 0; i < t->n_msgs; i++)
		free(t->msgs[(t->first_msg + i) % TUI_HISTORY_MAX].text);
	free(t->msgs);
	t->msgs = NULL;
	t->n_msgs = t->first_msg = 0;
}
