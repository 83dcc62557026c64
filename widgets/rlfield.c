/*
 * rlfield.c — a text-field engine (struct wfield_engine) on GNU readline's
 * callback interface, as ulfalizer/readline-and-ncurses (rlncurses.c) does:
 * readline edits, curses draws. Readline never touches the terminal:
 *
 *  - rl_catch_signals/rl_catch_sigwinch = 0 (curses owns signals), the
 *    prep/deprep terminal hooks are NULL (curses owns the tty modes),
 *    rl_change_environment = 0 (no LINES/COLUMNS in the environment).
 *  - rl_redisplay_function is a no-op, set before readline initialises:
 *    with a custom redisplay readline skips tgetent(), so it never loads a
 *    terminfo entry behind ncurses' back; the widget draws rl_line_buffer.
 *  - rl_instream/rl_outstream are /dev/null (opened once), so whatever
 *    readline prints (a bell, a listing) goes nowhere; bell-style is none.
 *  - rl_getc_function hands readline the bytes of the key being fed and
 *    rl_input_available_hook tells whether more bytes of that key follow;
 *    each byte is passed with rl_callback_read_char().
 *
 * Keys arrive as wkey (code points, or WKEY_FN + a curses KEY_* code) and
 * are translated into the bytes a terminal would send: a character is
 * UTF-8-encoded; ← → ↑ ↓ Home End Delete become ESC [ D, ESC [ C, ESC [ A,
 * ESC [ B, ESC [ H, ESC [ F, ESC [ 3 ~ (each is bound at start-up if the
 * user's inputrc left it unbound, so the user's own bindings of them win);
 * Backspace is DEL; WFIELD_KEY_ALT | x is ESC x. Esc alone never reaches
 * readline (it would wait for the rest of a meta sequence): it cancels. Enter
 * is fed as CR and readline's line handler records the submission. Keys the
 * field does not use (Tab, PgUp, F-keys, control keys readline leaves
 * unbound) come back W_IGNORED for the owner.
 *
 * Readline has ONE line buffer and ONE history. Each engine keeps its own
 * text and cursor; the engine loaded into readline is `g.active`. Loading
 * (focus(on), or the first key fed) puts the text into rl_line_buffer and the
 * engine's history list into the history library with
 * history_set_history_state(); unloading (focus(off), or loading another
 * engine) saves both back and resets readline's per-line state (pending key
 * sequence, undo list, history position), so nothing of one field leaks into
 * another except the kill ring, which is shared on purpose (kill in one field,
 * yank in another). History lists are named: fields with the same history_id
 * share one list, kept until wfield_readline_shutdown(), so a form opened
 * again recalls what was typed last time; a NULL id gives a private list.
 *
 * Text is UTF-8 whatever the process locale: readline runs under a C.UTF-8
 * thread locale (uselocale) so its multibyte code agrees with the bytes fed.
 * Readline commands that need a terminal or a prompt of their own (searches,
 * completion, quoted insert, clear screen, re-reading inputrc, vi mode) are
 * unbound. Not thread-safe: the UI thread only.
 *
 * feed() returns, as the built-in line editor does: W_HANDLED for every key
 * it used, plus W_CHANGED | W_REDRAW when the text changed, W_REDRAW when
 * only the cursor moved, W_CLOSE with *submitted on Enter (true) / Esc
 * (false); W_IGNORED for keys it leaves to the owner.
 */
#include "widgets/widgets.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <readline/readline.h>
#include <readline/history.h>

#include "util/util.h"

enum {
	RLF_DEFAULT_MAX = 1024,   /* max_bytes when 0 is given (as the line editor) */
	RLF_HISTORY_MAX = 100,    /* entries kept per history list */
	RLF_SEQ_MAX = 16,         /* bytes of one translated key */
};

/* Readline's prompt, never shown. Not empty: with an empty prompt (no saved
 * copy) a numeric argument's "(arg: N)" messages save one another and leak. */
static const char RLF_PROMPT[] = ">";

/* A history list, private to one engine or shared by name. */
struct rlf_hist {
	char *id;                 /* NULL: private */
	HISTORY_STATE st;         /* entries owned while not loaded */
	struct rlf_hist *next;    /* named lists */
};

struct rlfield {
	char *text;               /* the field's text, synced after every operation */
	size_t len, cap;          /* bytes in text, allocated */
	size_t point;             /* cursor, a byte offset into text */
	size_t max;               /* most bytes of text */
	struct rlf_hist *hist;
	bool got_line;            /* the line handler ran during this feed */
};

/* The readline side, shared by every engine. */
static struct {
	bool ready;
	FILE *in, *out;           /* /dev/null */
	locale_t utf8;            /* (locale_t)0 if C.UTF-8 is unavailable */
	struct rlfield *active;   /* the engine loaded into readline */
	size_t engines;           /* engines alive */
	struct rlf_hist *named;   /* named history lists */
	/* the key being fed */
	unsigned char seq[RLF_SEQ_MAX];
	size_t seq_len, seq_pos;
} g;

/* ---- small helpers ------------------------------------------------------------ */

/* The largest n <= max such that s[0..n) ends on a UTF-8 character boundary. */
static size_t utf8_cut(const char *s, size_t len, size_t max)
{
	if (len <= max)
		return len;
	size_t n = max;
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	return n;
}

/* True when s[0..len) is well-formed UTF-8. */
static bool utf8_valid(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	while (i < len) {
		unsigned c = u[i];
		size_t n = c < 0x80 ? 1 : (c >= 0xC2 && c <= 0xDF) ? 2 : (c >= 0xE0 && c <= 0xEF) ? 3
			 : (c >= 0xF0 && c <= 0xF4) ? 4 : 0;
		if (n == 0 || i + n > len)
			return false;
		for (size_t j = 1; j < n; j++)
			if ((u[i + j] & 0xC0) != 0x80)
				return false;
		i += n;
	}
	return true;
}

static size_t utf8_encode(uint32_t cp, unsigned char *out)
{
	if (cp < 0x80) {
		out[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (unsigned char)(0xC0 | (cp >> 6));
		out[1] = (unsigned char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (unsigned char)(0xE0 | (cp >> 12));
		out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (unsigned char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (unsigned char)(0xF0 | (cp >> 18));
	out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (unsigned char)(0x80 | (cp & 0x3F));
	return 4;
}

/* Set ed's text to the first len bytes of s (cut to ed->max). */
static void ed_store(struct rlfield *ed, const char *s, size_t len)
{
	len = utf8_cut(s, len, ed->max);
	if (len + 1 > ed->cap) {
		/* s may point into ed->text: copy before freeing */
		size_t cap = len + 1 > 64 ? len + 1 : 64;
		char *t = xmalloc(cap);
		memcpy(t, s, len);
		free(ed->text);
		ed->text = t;
		ed->cap = cap;
	} else {
		memmove(ed->text, s, len);
	}
	ed->text[len] = '\0';
	ed->len = len;
	if (ed->point > len)
		ed->point = len;
}

/* ---- readline hooks --------------------------------------------------------------- */

static int rlf_getc(FILE *f)
{
	(void)f;
	if (g.seq_pos < g.seq_len)
		return g.seq[g.seq_pos++];
	/* readline asked for more than the key had; a NUL (set-mark) is harmless,
	 * EOF would end the line */
	return 0;
}

static int rlf_input_available(void)
{
	return g.seq_pos < g.seq_len;
}

static void rlf_redisplay(void)
{
	/* the widget draws rl_line_buffer itself */
}

static char *rlf_no_completion(const char *text, int state)
{
	(void)text;
	(void)state;
	return NULL;
}

static char **rlf_no_completions(const char *text, int start, int end)
{
	(void)text;
	(void)start;
	(void)end;
	rl_attempted_completion_over = 1;
	return NULL;
}

/* Readline's line handler: Enter was pressed in the loaded field. */
static void rlf_line(char *line)
{
	struct rlfield *ed = g.active;

	if (line && ed) {
		ed->got_line = true;
		ed_store(ed, line, strlen(line));
		ed->point = ed->len;
		if (*line) {
			/* not history_get(): history_base is global, not per list */
			HIST_ENTRY **list = history_list();
			HIST_ENTRY *last = list && history_length > 0 ? list[history_length - 1] : NULL;
			if (!last || strcmp(last->line, line) != 0)
				add_history(line);
		}
	}
	free(line); /* ours (NULL after an EOF, which feed() prevents) */
}

/* ---- the readline session --------------------------------------------------------- */

struct rlf_locale {
	locale_t old;
};

static struct rlf_locale rlf_enter(void)
{
	struct rlf_locale l = { (locale_t)0 };
	if (g.utf8)
		l.old = uselocale(g.utf8);
	return l;
}

static void rlf_leave(struct rlf_locale l)
{
	if (l.old)
		uselocale(l.old);
}

/* Readline re-reads the locale at each new line and, when it changed,
 * resets its eight-bit settings from it; the bytes fed are UTF-8 always. */
static void rlf_eight_bit(void)
{
	rl_variable_bind("input-meta", "on");     /* UTF-8 bytes are text, */
	rl_variable_bind("convert-meta", "off");  /* not Meta keys */
	rl_variable_bind("output-meta", "on");
}

/* Drop whatever readline is in the middle of (a prefix key, a numeric
 * argument and its "(arg: N)" message, a search). */
static void rlf_abandon(void)
{
	bool arg = RL_ISSTATE(RL_STATE_NUMERICARG);
	rl_callback_sigcleanup();
	/* as readline ends an argument itself (_rl_arg_overflow): the argument
	 * saved the prompt, its message replaced it */
	if (arg)
		rl_restore_prompt();
	rl_clear_message();
}

/* Start a fresh line: readline forgets the pending key sequence, the saved
 * line of a history walk and the history position. */
static void rlf_restart(void)
{
	rlf_abandon();
	rl_callback_handler_remove();
	rl_callback_handler_install(RLF_PROMPT, rlf_line);
	rlf_eight_bit();
}

static void rlf_setup(void)
{
	if (g.ready)
		return;
	static const char *const utf8_names[] = { "C.UTF-8", "C.utf8", "en_US.UTF-8", "en_US.utf8" };
	for (size_t i = 0; i < sizeof utf8_names / sizeof utf8_names[0] && !g.utf8; i++)
		g.utf8 = newlocale(LC_CTYPE_MASK, utf8_names[i], (locale_t)0);

	g.in = fopen("/dev/null", "r");
	g.out = fopen("/dev/null", "w");
	if (!g.in || !g.out)
		fatal("cannot open /dev/null for readline");

	/* everything that must hold before readline's first initialisation */
	rl_readline_name = "gpux";
	rl_instream = g.in;
	rl_outstream = g.out;
	rl_catch_signals = 0;
	rl_catch_sigwinch = 0;
	rl_prep_term_function = NULL;
	rl_deprep_term_function = NULL;
	rl_change_environment = 0;
	rl_redisplay_function = rlf_redisplay;  /* also keeps readline from tgetent() */
	rl_getc_function = rlf_getc;
	rl_input_available_hook = rlf_input_available;
	rl_completion_entry_function = rlf_no_completion;
	rl_attempted_completion_function = rlf_no_completions;
	rl_inhibit_completion = 1;

	struct rlf_locale l = rlf_enter();
	rl_callback_handler_install(RLF_PROMPT, rlf_line);  /* initialises readline, reads inputrc */

	/* after the user's inputrc: what this engine depends on */
	rl_variable_bind("editing-mode", "emacs");   /* Esc is ours */
	rl_variable_bind("bell-style", "none");
	rlf_eight_bit();
	rl_variable_bind("enable-bracketed-paste", "off");
	rl_variable_bind("enable-meta-key", "off");
	rl_variable_bind("disable-completion", "on");

	/* the keys translate_key() sends */
	Keymap km = emacs_standard_keymap;
	rl_bind_keyseq_if_unbound_in_map("\033[A", rl_get_previous_history, km);
	rl_bind_keyseq_if_unbound_in_map("\033[B", rl_get_next_history, km);
	rl_bind_keyseq_if_unbound_in_map("\033[C", rl_forward_char, km);
	rl_bind_keyseq_if_unbound_in_map("\033[D", rl_backward_char, km);
	rl_bind_keyseq_if_unbound_in_map("\033[H", rl_beg_of_line, km);
	rl_bind_keyseq_if_unbound_in_map("\033[F", rl_end_of_line, km);
	rl_bind_keyseq_if_unbound_in_map("\033[3~", rl_delete, km);
	rl_bind_keyseq_if_unbound_in_map("\033[1;3C", rl_forward_word, km);
	rl_bind_keyseq_if_unbound_in_map("\033[1;3D", rl_backward_word, km);

	/* commands that want a terminal, a prompt of their own or a file system */
	static rl_command_func_t *const unbind[] = {
		rl_reverse_search_history, rl_forward_search_history,
		rl_noninc_forward_search, rl_noninc_reverse_search,
		rl_noninc_forward_search_again, rl_noninc_reverse_search_again,
		rl_complete, rl_possible_completions, rl_insert_completions,
		rl_menu_complete, rl_old_menu_complete, rl_backward_menu_complete,
		rl_quoted_insert, rl_tab_insert, rl_clear_screen, rl_clear_display,
		rl_char_search, rl_backward_char_search, rl_insert_comment,
		rl_operate_and_get_next, rl_re_read_init_file, rl_vi_editing_mode,
		rl_tilde_expand, rl_bracketed_paste_begin,
	};
	for (size_t i = 0; i < sizeof unbind / sizeof unbind[0]; i++)
		rl_unbind_function_in_map(unbind[i], km);

	static HISTORY_STATE empty;
	history_set_history_state(&empty);
	rlf_leave(l);
	g.ready = true;
}

/* Free the undo lists readline hung on history entries during a walk. */
static void rlf_drop_history_undo(void)
{
	HIST_ENTRY **list = history_list();
	for (int i = 0; list && i < history_length; i++) {
		if (list[i] && list[i]->data) {
			rl_undo_list = (UNDO_LIST *)list[i]->data;
			list[i]->data = NULL;
			rl_free_undo_list();
		}
	}
}

/* Copy readline's line into ed. */
static void rlf_sync(struct rlfield *ed)
{
	ed_store(ed, rl_line_buffer, (size_t)rl_end);
	size_t pt = rl_point < 0 ? 0 : (size_t)rl_point;
	ed->point = pt > ed->len ? ed->len : pt;
}

/* Put ed's text and cursor into readline's line. */
static void rlf_load_line(struct rlfield *ed)
{
	rl_replace_line(ed->text, 1);
	rl_point = (int)ed->point;
	rl_mark = 0;
}

/* Save the loaded engine and empty readline. In the readline locale. */
static void rlf_unload(void)
{
	struct rlfield *ed = g.active;
	if (!ed)
		return;
	rlf_sync(ed);
	rlf_abandon();
	rl_free_undo_list();
	rlf_drop_history_undo();
	HISTORY_STATE *st = history_get_history_state();
	ed->hist->st = *st;
	free(st);
	static HISTORY_STATE empty;
	history_set_history_state(&empty);
	rlf_restart();
	g.active = NULL;
}

/* Make ed the engine loaded into readline. In the readline locale. */
static void rlf_load(struct rlfield *ed)
{
	if (g.active == ed)
		return;
	rlf_unload();
	history_set_history_state(&ed->hist->st);
	stifle_history(RLF_HISTORY_MAX);
	using_history();
	rlf_load_line(ed);
	g.active = ed;
}

/* True while readline is in the middle of a command (after a prefix key,
 * during a numeric argument or a search): the next key belongs to it. */
static bool rlf_busy(void)
{
	return RL_ISSTATE(RL_STATE_MULTIKEY | RL_STATE_NUMERICARG | RL_STATE_ISEARCH |
			  RL_STATE_NSEARCH | RL_STATE_CHARSEARCH | RL_STATE_VIMOTION) != 0;
}

/* ---- key translation ------------------------------------------------------------------- */

enum rlf_kind {
	RLF_IGNORE,   /* not for the field */
	RLF_CANCEL,   /* Esc */
	RLF_SUBMIT,   /* Enter */
	RLF_TEXT,     /* a character: its UTF-8 bytes */
	RLF_CTRL,     /* a control character, passed if readline binds it */
	RLF_SEQ,      /* a complete key sequence (function key, Alt-x, Backspace) */
};

static bool is_char(wkey k)
{
	return k >= 0 && k <= 0x10FFFF && !(k >= 0xD800 && k <= 0xDFFF) && wkey_printable(k);
}

/* Translate k into the bytes readline reads (seq, *n). */
static enum rlf_kind translate_key(wkey k, unsigned char *seq, size_t *n)
{
	static const struct {
		wkey key;
		const char *bytes;
	} fn[] = {
		{ WKEY_LEFT, "\033[D" },  { WKEY_RIGHT, "\033[C" },
		{ WKEY_UP, "\033[A" },    { WKEY_DOWN, "\033[B" },
		{ WKEY_HOME, "\033[H" },  { WKEY_END, "\033[F" },
		{ WKEY_DELETE, "\033[3~" }, { WKEY_BACKSPACE, "\177" },
		{ 127, "\177" },          { 8, "\010" },
		{ WFIELD_KEY_ALT | WKEY_LEFT, "\033[1;3D" },
		{ WFIELD_KEY_ALT | WKEY_RIGHT, "\033[1;3C" },
		{ WFIELD_KEY_ALT | WKEY_BACKSPACE, "\033\177" },
		{ WFIELD_KEY_ALT | 127, "\033\177" },
		{ WFIELD_KEY_ALT | 8, "\033\010" },
	};

	*n = 0;
	switch (k) {
	case WKEY_ESC:
		return RLF_CANCEL;
	case WKEY_RETURN:
	case '\n':
	case WKEY_ENTER:
		seq[0] = '\r';
		*n = 1;
		return RLF_SUBMIT;
	case WKEY_TAB:
	case WKEY_BTAB:
		return RLF_IGNORE;
	default:
		break;
	}
	for (size_t i = 0; i < sizeof fn / sizeof fn[0]; i++) {
		if (fn[i].key == k) {
			*n = strlen(fn[i].bytes);
			memcpy(seq, fn[i].bytes, *n);
			return RLF_SEQ;
		}
	}
	if (k > 0 && k < 0x20) {
		seq[0] = (unsigned char)k;
		*n = 1;
		return RLF_CTRL;
	}
	if (is_char(k)) {
		*n = utf8_encode((uint32_t)k, seq);
		return RLF_TEXT;
	}
	if ((k & WFIELD_KEY_ALT) && !(k & WKEY_FN)) {
		wkey base = k & ~(wkey)WFIELD_KEY_ALT;
		/* ESC [ and ESC O start terminal sequences: readline would wait */
		if (base >= 0x21 && base < 0x7F && base != '[' && base != 'O') {
			seq[0] = 033;
			seq[1] = (unsigned char)base;
			*n = 2;
			return RLF_SEQ;
		}
	}
	return RLF_IGNORE;
}

/* Is the single byte c bound to anything in readline's current keymap? */
static bool rlf_bound(unsigned char c)
{
	int type = 0;
	char s[2] = { (char)c, 0 };
	rl_command_func_t *f = rl_function_of_keyseq_len(s, 1, NULL, &type);
	return f != NULL || type == ISKMAP || type == ISMACR;
}

/* Pass the bytes of one key to readline. */
static void rlf_push(const unsigned char *seq, size_t n)
{
	memcpy(g.seq, seq, n);
	g.seq_len = n;
	g.seq_pos = 0;
	while (g.seq_pos < g.seq_len) {
		size_t before = g.seq_pos;
		rl_callback_read_char();
		if (g.seq_pos == before)  /* readline took nothing: do not spin */
			g.seq_pos++;
	}
	g.seq_len = g.seq_pos = 0;
}

/* ---- the engine --------------------------------------------------------------------------- */

static unsigned rlf_feed(void *p, wkey k, bool *submitted)
{
	struct rlfield *ed = p;
	unsigned char seq[RLF_SEQ_MAX];
	size_t n;
	enum rlf_kind kind = translate_key(k, seq, &n);

	if (kind == RLF_IGNORE)
		return W_IGNORED;

	struct rlf_locale l = rlf_enter();
	rlf_load(ed);

	if (kind == RLF_CANCEL) {
		rlf_abandon();
		rlf_leave(l);
		if (submitted)
			*submitted = false;
		return W_HANDLED | W_CLOSE;
	}
	if (kind == RLF_CTRL && !rlf_busy()) {
		if (!rlf_bound(seq[0])) {
			rlf_leave(l);
			return W_IGNORED;
		}
		/* Ctrl-D on an empty line is readline's end of file: nothing here */
		if (seq[0] == 4 && rl_end == 0) {
			rlf_leave(l);
			return W_HANDLED;
		}
	}
	/* Enter always submits; a character of several bytes is fed byte by
	 * byte, so a pending numeric argument would apply to its first byte
	 * only: drop whatever readline was in the middle of */
	if ((kind == RLF_SUBMIT || (kind == RLF_TEXT && n > 1)) && rlf_busy())
		rlf_abandon();
	rlf_eight_bit();

	/* ed->text/point hold the state before the key */
	ed->got_line = false;
	rlf_push(seq, n);
	if (kind == RLF_SEQ && RL_ISSTATE(RL_STATE_MULTIKEY))
		rlf_abandon();  /* a whole key left readline waiting: drop it */

	unsigned r = W_HANDLED;
	if (ed->got_line) {
		/* readline started a new, empty line: the field keeps the text
		 * (rlf_line stored it, cursor at the end) */
		rlf_load_line(ed);
		if (submitted)
			*submitted = true;
		r |= W_CLOSE;
	} else if ((size_t)rl_end > ed->max || !utf8_valid(rl_line_buffer, (size_t)rl_end)) {
		/* too long (or, should a command split a character, not UTF-8):
		 * the key is refused, and the undo list with it */
		rlf_load_line(ed);
	}
	if ((size_t)rl_end != ed->len || memcmp(rl_line_buffer, ed->text, ed->len) != 0)
		r |= W_CHANGED | W_REDRAW;
	else if ((size_t)rl_point != ed->point)
		r |= W_REDRAW;  /* the cursor moved: the field redraws */
	rlf_sync(ed);
	rlf_leave(l);
	return r;
}

static const char *rlf_text(void *p)
{
	struct rlfield *ed = p;
	return ed->text;
}

static size_t rlf_cursor(void *p)
{
	struct rlfield *ed = p;
	return ed->point;
}

static void rlf_set_text(void *p, const char *utf8)
{
	struct rlfield *ed = p;
	if (!utf8)
		utf8 = "";
	ed_store(ed, utf8, strlen(utf8));
	ed->point = ed->len;
	if (g.active == ed) {
		struct rlf_locale l = rlf_enter();
		rlf_abandon();
		rlf_load_line(ed);
		using_history();
		rlf_leave(l);
	}
}

static void rlf_focus(void *p, bool on)
{
	struct rlfield *ed = p;
	struct rlf_locale l = rlf_enter();
	if (on)
		rlf_load(ed);
	else if (g.active == ed)
		rlf_unload();
	rlf_leave(l);
}

static void hist_free_entries(HISTORY_STATE *st)
{
	for (int i = 0; i < st->length; i++)
		if (st->entries[i])
			free_history_entry(st->entries[i]);  /* data was dropped at unload */
	free(st->entries);
	memset(st, 0, sizeof *st);
}

static void rlf_destroy(void *p)
{
	struct rlfield *ed = p;
	if (!ed)
		return;
	if (g.active == ed) {
		struct rlf_locale l = rlf_enter();
		rlf_unload();
		rlf_leave(l);
	}
	if (!ed->hist->id) {
		hist_free_entries(&ed->hist->st);
		free(ed->hist);
	}
	free(ed->text);
	free(ed);
	g.engines--;
}

const struct wfield_engine wfield_readline = {
	.destroy = rlf_destroy,
	.feed = rlf_feed,
	.text = rlf_text,
	.cursor = rlf_cursor,
	.set_text = rlf_set_text,
	.focus = rlf_focus,
};

static struct rlf_hist *hist_named(const char *id)
{
	for (struct rlf_hist *h = g.named; h; h = h->next)
		if (strcmp(h->id, id) == 0)
			return h;
	struct rlf_hist *h = xcalloc(1, sizeof *h);
	h->id = xstrdup(id);
	h->next = g.named;
	g.named = h;
	return h;
}

void *wfield_readline_new(const char *initial, size_t max_bytes, const char *history_id)
{
	rlf_setup();
	struct rlfield *ed = xcalloc(1, sizeof *ed);
	ed->max = max_bytes ? max_bytes : RLF_DEFAULT_MAX;
	ed->hist = history_id ? hist_named(history_id) : xcalloc(1, sizeof *ed->hist);
	ed_store(ed, initial ? initial : "", initial ? strlen(initial) : 0);
	ed->point = ed->len;
	g.engines++;
	return ed;
}

struct wfield *wfield_new_readline(const struct wui *ui, const char *prompt, const char *initial,
				   const char *history_id)
{
	return wfield_new_engine(ui, prompt, &wfield_readline,
				 wfield_readline_new(initial, 0, history_id));
}

void wfield_readline_shutdown(void)
{
	if (!g.ready || g.engines > 0)
		return;
	struct rlf_locale l = rlf_enter();
	rlf_unload();
	rl_callback_handler_remove();
	rlf_leave(l);
	rl_instream = rl_outstream = NULL;
	fclose(g.in);
	fclose(g.out);
	g.in = g.out = NULL;
	if (g.utf8)
		freelocale(g.utf8);
	g.utf8 = (locale_t)0;
	g.ready = false;
	while (g.named) {
		struct rlf_hist *h = g.named;
		g.named = h->next;
		hist_free_entries(&h->st);
		free(h->id);
		free(h);
	}
}
