/*
 * Copy to the clipboard of the terminal the user sits at, over SSH and
 * tmux too: OSC 52 (ESC ] 52 ; c ; BASE64 BEL), which xterm, tmux (with
 * set-clipboard), kitty, alacritty, foot, wezterm and iTerm2 take and pass
 * to the desktop's clipboard. A terminal that does not (the Linux console,
 * a VT100) is told by its name (TERM) and its description (tmux's Ms
 * capability); there the status bar says the copy cannot be made and how
 * to take the text instead. The sequence is written between frames,
 * straight to the terminal (curses' own output is flushed by then); the
 * screen harness has no terminal and keeps the last copy (t->clip) for the
 * tests. A secret (a new API key) is never written into a message or the
 * history: the message names what was copied, not the text.
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <unistd.h>

#include "i18n/i18n.h"
#include "util/util.h"

bool tui_copy_supported(const struct tui *t)
{
	static const char *const yes[] = {
		"xterm", "tmux", "rxvt", "alacritty", "kitty", "foot", "wezterm", "st-", "contour",
		"iterm", "mintty", "konsole", "gnome", "vte",
	};
	const char *term = getenv("TERM"), *ms;

	(void)t;
	if (getenv("TMUX") != NULL && getenv("TMUX")[0] != '\0')
		return true;
	ms = tigetstr("Ms");
	if (ms != NULL && ms != (char *)-1)
		return true;
	for (size_t i = 0; term != NULL && i < sizeof yes / sizeof yes[0]; i++)
		if (strncmp(term, yes[i], strlen(yes[i])) == 0)
			return true;
	return false;
}

/* ESC ] 52 ; c ; BASE64 BEL to the terminal (nothing without one). */
static void write_osc52(const struct tui *t, const char *text)
{
	char *b64, *seq;
	size_t len, off = 0;

	if (t->tty_fd < 0)
		return;
	b64 = util_base64(text, strlen(text));
	seq = xasprintf("\033]52;c;%s\a", b64);
	len = strlen(seq);
	while (off < len) {
		ssize_t w = write(t->tty_fd, seq + off, len - off);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	explicit_bzero(b64, strlen(b64));
	explicit_bzero(seq, len);
	free(b64);
	free(seq);
}

void tui_copy(struct tui *t, const char *text, const char *what, bool secret)
{
	const char *term = getenv("TERM");
	char *m;

	if (text == NULL || text[0] == '\0') {
		tui_message(t, _("Nothing to copy here"));
		return;
	}
	if (!tui_copy_supported(t)) {
		/* TRANSLATORS: the terminal cannot copy; %s its TERM, then what (and the text) */
		m = secret
			? xasprintf(_("TERM=%s takes no OSC 52 copy: select %s with the mouse"),
				    term != NULL ? term : "?", what)
			: xasprintf(_("TERM=%s takes no OSC 52 copy; %s: %s"), term != NULL ? term : "?",
				    what, text);
		tui_message(t, m);
		free(m);
		return;
	}
	xfree_secret(t->clip);
	t->clip = xstrdup(text);
	write_osc52(t, text);
	/* TRANSLATORS: %s says what was copied ("the API key", "order 42", "H200's price") */
	m = secret ? xasprintf(_("Copied %s to the clipboard"), what)
		   : xasprintf(_("Copied %s to the clipboard: %s"), what, text);
	tui_message(t, m);
	free(m);
}

void tui_clip_free(struct tui *t)
{
	xfree_secret(t->clip);
	t->clip = NULL;
}
