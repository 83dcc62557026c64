/*
 * tests/unit/test_rlfield.c — the GNU readline field engine (widgets/rlfield.c).
 *
 * No terminal: readline is fed wkeys exactly as the field widget feeds them
 * and the tests read back what the field would draw (its text and cursor).
 * The user's inputrc is kept out (INPUTRC=/dev/null) so the keys mean what
 * readline's defaults say; the locale is C.UTF-8 except in the test that
 * checks UTF-8 still works under the C locale. Every history id is unique
 * to its test, because named histories outlive the engines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <locale.h>

#include <cmocka.h>

#include "widgets/widgets.h"

static const struct wfield_engine *const E = &wfield_readline;

enum { CTRL_A = 1, CTRL_B = 2, CTRL_C = 3, CTRL_D = 4, CTRL_E = 5, CTRL_F = 6, CTRL_G = 7,
       CTRL_K = 11, CTRL_L = 12, CTRL_R = 18, CTRL_T = 20, CTRL_U = 21, CTRL_W = 23,
       CTRL_Y = 25, CTRL_UNDERSCORE = 31 };

/* ---- helpers ------------------------------------------------------------------ */

static unsigned key(void *ed, wkey k)
{
	bool submitted = false;
	return E->feed(ed, k, &submitted);
}

/* Decode one UTF-8 character (the test strings are valid). */
static size_t decode(const char *s, wkey *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	if (u[0] < 0x80) { *cp = u[0]; return 1; }
	if (u[0] < 0xE0) { *cp = ((u[0] & 0x1F) << 6) | (u[1] & 0x3F); return 2; }
	if (u[0] < 0xF0) { *cp = ((u[0] & 0x0F) << 12) | ((u[1] & 0x3F) << 6) | (u[2] & 0x3F); return 3; }
	*cp = ((u[0] & 0x07) << 18) | ((u[1] & 0x3F) << 12) | ((u[2] & 0x3F) << 6) | (u[3] & 0x3F);
	return 4;
}

/* Type UTF-8 text one character at a time; returns the OR of the flags. */
static unsigned type(void *ed, const char *utf8)
{
	unsigned r = 0;
	while (*utf8) {
		wkey k;
		utf8 += decode(utf8, &k);
		r |= key(ed, k);
	}
	return r;
}

static void keys(void *ed, wkey k, int times)
{
	for (int i = 0; i < times; i++)
		key(ed, k);
}

/* A macro so that a failure names the test's line. */
#define assert_field(ed_, text_, cur_) do { \
	assert_string_equal(E->text(ed_), (text_)); \
	assert_int_equal(E->cursor(ed_), (cur_)); \
} while (0)

static bool valid_utf8(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	while (*u) {
		size_t n = *u < 0x80 ? 1 : (*u >= 0xC2 && *u <= 0xDF) ? 2 : (*u >= 0xE0 && *u <= 0xEF) ? 3
			 : (*u >= 0xF0 && *u <= 0xF4) ? 4 : 0;
		if (n == 0)
			return false;
		for (size_t i = 1; i < n; i++)
			if ((u[i] & 0xC0) != 0x80)
				return false;
		u += n;
	}
	return true;
}

/* ---- typing and moving ---------------------------------------------------------- */

static void typing_gives_the_text(void **state)
{
	(void)state;
	void *ed = wfield_readline_new(NULL, 0, NULL);
	assert_field(ed, "", 0);
	unsigned r = type(ed, "70b");
	assert_true(r & W_HANDLED);
	assert_true(r & W_CHANGED);
	assert_false(r & W_CLOSE);
	assert_field(ed, "70b", 3);
	E->destroy(ed);
}

static void utf8_round_trips(void **state)
{
	(void)state;
	void *ed = wfield_readline_new(NULL, 0, NULL);
	type(ed, "7,5 € ção");
	assert_field(ed, "7,5 € ção", strlen("7,5 € ção"));
	/* a character outside the BMP and a double-width one */
	type(ed, " 🚀 日本");
	assert_field(ed, "7,5 € ção 🚀 日本", strlen("7,5 € ção 🚀 日本"));
	E->destroy(ed);
}

static void left_arrow_then_insert_in_the_middle(void **state)
{
	(void)state;
	void *ed = wfield_readline_new(NULL, 0, NULL);
	type(ed, "7b");
	unsigned r = key(ed, WKEY_LEFT);
	assert_true(r & W_HANDLED);
	assert_true(r & W_REDRAW);     /* the cursor moved: the widget must redraw */
	assert_false(r & W_CHANGED);
	assert_field(ed, "7b", 1);
	type(ed, "0");
	assert_field(ed, "70b", 2);
	/* over a multibyte character: ← moves one character, not one byte */
	E->set_text(ed, "7,5 €");
	key(ed, WKEY_LEFT);
	assert_field(ed, "7,5 €", strlen("7,5 "));
	type(ed, "0");
	assert_field(ed, "7,5 0€", strlen("7,5 0"));
	key(ed, WKEY_RIGHT);
	assert_field(ed, "7,5 0€", strlen("7,5 0€"));
	key(ed, WKEY_HOME);
	assert_field(ed, "7,5 0€", 0);
	key(ed, WKEY_END);
	assert_field(ed, "7,5 0€", strlen("7,5 0€"));
	E->destroy(ed);
}

static void ctrl_a_then_typing_inserts_at_start(void **state)
{
	(void)state;
	void *ed = wfield_readline_new("5B", 0, NULL);
	assert_field(ed, "5B", 2);
	key(ed, CTRL_A);
	assert_field(ed, "5B", 0);
	type(ed, "7.");
	assert_field(ed, "7.5B", 2);
	key(ed, CTRL_E);
	assert_field(ed, "7.5B", 4);
	key(ed, CTRL_B);
	key(ed, CTRL_B);
	key(ed, CTRL_F);
	assert_field(ed, "7.5B", 3);
	E->destroy(ed);
}

static void kill_and_yank(void **state)
{
	(void)state;
	void *ed = wfield_readline_new(NULL, 0, NULL);
	type(ed, "hello world");
	key(ed, CTRL_A);
	keys(ed, WKEY_RIGHT, 5);
	unsigned r = key(ed, CTRL_K);
	assert_true(r & W_CHANGED);
	assert_field(ed, "hello", 5);
	type(ed, " there");
	keys(ed, WKEY_LEFT, 3);
	key(ed, CTRL_U);
	assert_field(ed, "ere", 0);
	key(ed, CTRL_E);
	key(ed, CTRL_Y);   /* yanks what Ctrl-U killed */
	assert_field(ed, "erehello th", strlen("erehello th"));
	key(ed, CTRL_W);   /* kills the word before the cursor */
	assert_field(ed, "erehello ", strlen("erehello "));
	key(ed, CTRL_UNDERSCORE);  /* undo */
	assert_field(ed, "erehello th", strlen("erehello th"));
	E->destroy(ed);
}

static void backspace_and_delete_remove_whole_characters(void **state)
{
	(void)state;
	void *ed = wfield_readline_new(NULL, 0, NULL);
	type(ed, "ação€");
	key(ed, 127);
	assert_field(ed, "ação", strlen("ação"));
	key(ed, WKEY_BACKSPACE);
	key(ed, WKEY_BACKSPACE);
	assert_field(ed, "aç", strlen("aç"));
	key(ed, WKEY_HOME);
	key(ed, WKEY_RIGHT);
	unsigned r = key(ed, WKEY_DELETE);
	assert_true(r & W_CHANGED);
	assert_field(ed, "a", 1);
	key(ed, 8);        /* Ctrl-H, Backspace on some terminals */
	assert_field(ed, "", 0);
	/* Backspace on an empty field: nothing, no crash */
	r = key(ed, 127);
	assert_true(r & W_HANDLED);
	assert_false(r & W_CHANGED);
	assert_field(ed, "", 0);
	E->destroy(ed);
}

static void alt_keys_move_and_kill_words(void **state)
{
	(void)state;
	void *ed = wfield_readline_new("model llama three", 0, NULL);
	key(ed, WFIELD_KEY_ALT | 'b');
	assert_field(ed, "model llama three", strlen("model llama "));
	key(ed, WFIELD_KEY_ALT | 'b');
	assert_field(ed, "model llama three", strlen("model "));
	key(ed, WFIELD_KEY_ALT | 'f');
	assert_field(ed, "model llama three", strlen("model llama"));
	key(ed, WFIELD_KEY_ALT | 'd');
	assert_field(ed, "model llama", strlen("model llama"));
	key(ed, WFIELD_KEY_ALT | WKEY_BACKSPACE);
	assert_field(ed, "model ", strlen("model "));
	key(ed, WFIELD_KEY_ALT | WKEY_LEFT);
	assert_field(ed, "model ", 0);
	/* Alt-[ would start a terminal sequence: refused, and nothing is left pending */
	assert_int_equal(key(ed, WFIELD_KEY_ALT | '['), W_IGNORED);
	type(ed, "x");
	assert_field(ed, "xmodel ", 1);
	E->destroy(ed);
}

/* ---- Enter, Esc, keys for the owner ------------------------------------------------ */

static void enter_submits_and_keeps_the_text(void **state)
{
	(void)state;
	void *ed = wfield_readline_new(NULL, 0, NULL);
	type(ed, "70b");
	bool submitted = false;
	unsigned r = E->feed(ed, WKEY_RETURN, &submitted);
	assert_true(r & W_CLOSE);
	assert_true(r & W_HANDLED);
	assert_true(submitted);
	assert_field(ed, "70b", 3);
	/* editing goes on after a submission; the keypad Enter submits too */
	type(ed, "!");
	assert_field(ed, "70b!", 4);
	submitted = false;
	r = E->feed(ed, WKEY_ENTER, &submitted);
	assert_true((r & W_CLOSE) && submitted);
	assert_field(ed, "70b!", 4);
	/* Enter after a prefix key (Ctrl-X) still submits */
	key(ed, 'X' - '@');
	submitted = false;
	r = E->feed(ed, '\n', &submitted);
	assert_true((r & W_CLOSE) && submitted);
	assert_field(ed, "70b!", 4);
	E->destroy(ed);
}

static void esc_cancels(void **state)
{
	(void)state;
	void *ed = wfield_readline_new("8", 0, NULL);
	type(ed, "0");
	bool submitted = true;
	unsigned r = E->feed(ed, WKEY_ESC, &submitted);
	assert_true(r & W_CLOSE);
	assert_false(submitted);
	assert_field(ed, "80", 2);   /* the owner decides what a cancel does */
	/* Esc is not a meta prefix: the next key is an ordinary key */
	type(ed, "b");
	assert_field(ed, "80b", 3);
	E->destroy(ed);
}

static void keys_for_the_owner_are_ignored(void **state)
{
	(void)state;
	void *ed = wfield_readline_new("x", 0, NULL);
	assert_int_equal(key(ed, WKEY_TAB), W_IGNORED);
	assert_int_equal(key(ed, WKEY_BTAB), W_IGNORED);
	assert_int_equal(key(ed, WKEY_F1), W_IGNORED);
	assert_int_equal(key(ed, WKEY_PGDN), W_IGNORED);
	assert_int_equal(key(ed, WKEY_RESIZE), W_IGNORED);
	assert_int_equal(key(ed, CTRL_C), W_IGNORED);   /* unbound in readline */
	assert_int_equal(key(ed, CTRL_L), W_IGNORED);   /* clear-screen is not ours */
	assert_int_equal(key(ed, CTRL_R), W_IGNORED);   /* no search prompt to show */
	assert_int_equal(key(ed, 0x85), W_IGNORED);     /* a C1 control */
	assert_int_equal(key(ed, 0xD800), W_IGNORED);   /* a surrogate */
	assert_field(ed, "x", 1);
	E->destroy(ed);
}

static void ctrl_d_on_an_empty_field_is_nothing(void **state)
{
	(void)state;
	void *ed = wfield_readline_new(NULL, 0, NULL);
	bool submitted = false;
	unsigned r = E->feed(ed, CTRL_D, &submitted);
	assert_int_equal(r, W_HANDLED);   /* not readline's end of file */
	assert_false(submitted);
	type(ed, "ab");
	key(ed, CTRL_A);
	key(ed, CTRL_D);                  /* delete-char */
	assert_field(ed, "b", 0);
	E->destroy(ed);
}

/* ---- several fields ------------------------------------------------------------------- */

static void two_fields_keep_their_texts(void **state)
{
	(void)state;
	void *a = wfield_readline_new(NULL, 0, NULL);
	void *b = wfield_readline_new("H200", 0, NULL);
	E->focus(a, true);
	type(a, "12");
	key(a, WKEY_LEFT);
	E->focus(a, false);
	E->focus(b, true);
	type(b, "x");
	assert_field(b, "H200x", 5);
	E->focus(b, false);
	E->focus(a, true);
	assert_field(a, "12", 1);
	type(a, "3");                    /* at a's cursor, not b's */
	assert_field(a, "132", 2);
	assert_field(b, "H200x", 5);
	/* no focus calls at all: feeding a field loads it */
	type(b, "y");
	type(a, "z");
	type(b, "w");
	assert_field(a, "13z2", 3);
	assert_field(b, "H200xyw", 7);
	/* a kill in one field can be yanked in another (one kill ring) */
	key(a, CTRL_U);
	key(b, CTRL_Y);
	assert_field(b, "H200xyw13z", 10);
	assert_field(a, "2", 0);
	E->destroy(a);
	E->destroy(b);
}

static void history_is_per_field(void **state)
{
	(void)state;
	void *a = wfield_readline_new(NULL, 0, "test-hist-a");
	void *b = wfield_readline_new(NULL, 0, "test-hist-b");
	bool s;
	type(a, "70");
	E->feed(a, WKEY_RETURN, &s);
	E->set_text(a, "");
	type(a, "13");
	E->feed(a, WKEY_RETURN, &s);
	type(b, "8");
	E->feed(b, WKEY_RETURN, &s);

	E->focus(a, true);
	key(a, CTRL_U);
	type(a, "draft");
	key(a, WKEY_UP);
	assert_field(a, "13", 2);        /* a's last submission, not b's "8" */
	key(a, WKEY_UP);
	assert_field(a, "70", 2);
	key(a, WKEY_UP);                 /* the oldest stays */
	assert_field(a, "70", 2);
	key(a, WKEY_DOWN);
	assert_field(a, "13", 2);
	key(a, WKEY_DOWN);               /* back to what was being typed */
	assert_field(a, "draft", 5);
	E->focus(a, false);

	E->focus(b, true);
	key(b, CTRL_U);
	key(b, WKEY_UP);
	assert_field(b, "8", 1);
	key(b, WKEY_UP);
	assert_field(b, "8", 1);
	E->focus(b, false);

	/* switching fields in the middle of a history walk */
	key(a, WKEY_UP);
	assert_field(a, "13", 2);
	key(b, CTRL_U);
	key(b, WKEY_UP);
	assert_field(b, "8", 1);
	key(a, WKEY_UP);                 /* a starts its walk afresh from its end */
	assert_field(a, "13", 2);

	/* a repeated submission is stored once */
	E->feed(a, WKEY_RETURN, &s);
	key(a, CTRL_U);
	key(a, WKEY_UP);
	key(a, WKEY_UP);
	assert_field(a, "70", 2);
	E->destroy(a);
	E->destroy(b);

	/* the list outlives its fields: a form opened again recalls it */
	void *again = wfield_readline_new(NULL, 0, "test-hist-a");
	key(again, WKEY_UP);
	assert_field(again, "13", 2);
	E->destroy(again);

	/* a private list starts empty */
	void *priv = wfield_readline_new(NULL, 0, NULL);
	key(priv, WKEY_UP);
	assert_field(priv, "", 0);
	E->destroy(priv);
}

static void history_keeps_the_last_hundred(void **state)
{
	(void)state;
	void *ed = wfield_readline_new(NULL, 0, "test-hist-long");
	bool s;
	char buf[16];
	for (int i = 0; i < 120; i++) {
		snprintf(buf, sizeof buf, "%d", i);
		E->set_text(ed, buf);
		E->feed(ed, WKEY_RETURN, &s);
	}
	E->set_text(ed, "");
	keys(ed, WKEY_UP, 150);
	assert_field(ed, "20", 2);       /* 0..19 were dropped */
	keys(ed, WKEY_DOWN, 99);
	assert_field(ed, "119", 3);
	E->destroy(ed);
}

/* ---- set_text and max_bytes --------------------------------------------------------------- */

static void set_text_replaces_the_text(void **state)
{
	(void)state;
	void *a = wfield_readline_new("old", 0, "test-set-a");
	void *b = wfield_readline_new(NULL, 0, NULL);
	E->set_text(a, "H200");          /* not loaded */
	assert_field(a, "H200", 4);
	type(a, "!");
	assert_field(a, "H200!", 5);
	E->set_text(a, "8");             /* loaded */
	assert_field(a, "8", 1);
	type(a, "0");
	assert_field(a, "80", 2);
	E->set_text(a, NULL);
	assert_field(a, "", 0);
	E->set_text(a, E->text(a));      /* its own text */
	assert_field(a, "", 0);
	E->set_text(a, "a long prefilled text that needs a bigger buffer than before");
	E->set_text(a, E->text(a));
	assert_string_equal(E->text(a), "a long prefilled text that needs a bigger buffer than before");
	type(b, "q");
	assert_field(b, "q", 1);
	E->destroy(a);
	E->destroy(b);
}

static void max_bytes_is_enforced(void **state)
{
	(void)state;
	void *ed = wfield_readline_new(NULL, 5, NULL);
	type(ed, "123456");
	assert_field(ed, "12345", 5);
	unsigned r = key(ed, '7');
	assert_true(r & W_HANDLED);
	assert_false(r & W_CHANGED);
	key(ed, WKEY_BACKSPACE);
	key(ed, WKEY_BACKSPACE);
	type(ed, "€");                   /* 3 bytes: 6 > 5, refused whole */
	assert_field(ed, "123", 3);
	type(ed, "é");                   /* 2 bytes: exactly 5 */
	assert_field(ed, "123é", 5);
	/* a yank that does not fit is refused; the cursor stays */
	key(ed, CTRL_A);
	key(ed, CTRL_K);
	type(ed, "12");
	unsigned y = key(ed, CTRL_Y);    /* "123é" (5 bytes) after "12": 7 > 5 */
	assert_false(y & W_CHANGED);
	assert_field(ed, "12", 2);
	keys(ed, WKEY_BACKSPACE, 2);     /* not a kill */
	key(ed, CTRL_Y);                 /* fits exactly */
	assert_field(ed, "123é", 5);
	E->destroy(ed);

	/* initial text and set_text are cut at a character boundary */
	ed = wfield_readline_new("ééé", 5, NULL);
	assert_field(ed, "éé", 4);
	E->set_text(ed, "ab€€");
	assert_field(ed, "ab€", 5);
	E->destroy(ed);
}

/* ---- through the widget ------------------------------------------------------------------- */

static void the_widget_uses_the_engine(void **state)
{
	(void)state;
	struct wui ui;
	wui_init(&ui, &wtheme_mono, false, false);
	struct wfield *f = wfield_new_readline(&ui, "GPUs: ", "8", "test-widget");
	struct wevent ev = { .type = WEV_KEY, .key = '0' };
	unsigned r = wwidget_handle(&f->base, &ev);
	/* a hidden widget (no window) may ignore keys; feed through the engine then */
	if (r == W_IGNORED)
		r = f->eng->feed(f->ed, '0', &f->submitted);
	assert_true(r & W_CHANGED);
	assert_string_equal(wfield_text(f), "80");
	wfield_set_text(f, "16");
	assert_string_equal(wfield_text(f), "16");
	assert_ptr_equal(f->eng, &wfield_readline);
	wfield_free(&f);
	assert_null(f);
}

/* ---- nothing reaches the terminal ------------------------------------------------------------ */

static void nothing_is_written_to_stdout_or_stderr(void **state)
{
	(void)state;
	fflush(stdout);
	fflush(stderr);
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	int out = dup(1), err = dup(2);
	dup2(fileno(tmp), 1);
	dup2(fileno(tmp), 2);

	void *ed = wfield_readline_new(NULL, 0, "test-quiet");
	/* bells (Backspace at the start, Ctrl-G), listings (Alt-?, Alt-=),
	 * completion (Alt-*), version/ dump commands, submissions */
	static const wkey ks[] = { 127, CTRL_G, 'a', WFIELD_KEY_ALT | '?', WFIELD_KEY_ALT | '=',
		WFIELD_KEY_ALT | '*', 'X' - '@', 'V' - '@', 'X' - '@', CTRL_R, WKEY_RETURN,
		WKEY_UP, WKEY_UP, WKEY_DOWN, WKEY_DOWN, WKEY_DOWN, CTRL_T, WFIELD_KEY_ALT | '#',
		WFIELD_KEY_ALT | '~', WFIELD_KEY_ALT | '&', WKEY_ESC, WKEY_DELETE, WKEY_RETURN };
	for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
		key(ed, ks[i]);
	E->destroy(ed);

	fflush(stdout);
	fflush(stderr);
	dup2(out, 1);
	dup2(err, 2);
	close(out);
	close(err);
	fseek(tmp, 0, SEEK_END);
	long written = ftell(tmp);
	fclose(tmp);
	assert_int_equal(written, 0);
}

static void shutdown_then_start_again(void **state)
{
	(void)state;
	void *ed = wfield_readline_new(NULL, 0, "test-shutdown");
	bool s;
	type(ed, "70");
	E->feed(ed, WKEY_RETURN, &s);
	wfield_readline_shutdown();      /* refused: an engine is alive */
	key(ed, CTRL_U);
	key(ed, WKEY_UP);
	assert_field(ed, "70", 2);
	E->destroy(ed);
	wfield_readline_shutdown();      /* now done: the named list is gone */
	ed = wfield_readline_new(NULL, 0, "test-shutdown");
	key(ed, WKEY_UP);
	assert_field(ed, "", 0);
	type(ed, "ação");
	key(ed, WKEY_BACKSPACE);
	assert_field(ed, "açã", strlen("açã"));
	E->destroy(ed);
}

/* ---- random keys ------------------------------------------------------------------------------ */

static wkey random_key(unsigned *seed)
{
	static const wkey special[] = { WKEY_LEFT, WKEY_RIGHT, WKEY_UP, WKEY_DOWN, WKEY_HOME,
		WKEY_END, WKEY_DELETE, WKEY_BACKSPACE, 127, 8, WKEY_RETURN, WKEY_ENTER, WKEY_ESC,
		WKEY_TAB, WKEY_BTAB, WKEY_PGUP, WKEY_F1, WKEY_INSERT, WKEY_RESIZE,
		WFIELD_KEY_ALT | 'b', WFIELD_KEY_ALT | 'f', WFIELD_KEY_ALT | 'd', WFIELD_KEY_ALT | 'u',
		WFIELD_KEY_ALT | 'l', WFIELD_KEY_ALT | 'c', WFIELD_KEY_ALT | 't', WFIELD_KEY_ALT | 'y',
		WFIELD_KEY_ALT | '.', WFIELD_KEY_ALT | '<', WFIELD_KEY_ALT | '>', WFIELD_KEY_ALT | 'r',
		WFIELD_KEY_ALT | '3', WFIELD_KEY_ALT | '-', WFIELD_KEY_ALT | '[', WFIELD_KEY_ALT | 'O',
		WFIELD_KEY_ALT | WKEY_BACKSPACE, WFIELD_KEY_ALT | WKEY_LEFT, WFIELD_KEY_ALT | 0x20AC,
		0x20AC, 0xE7, 0xE3, 0x65E5, 0x1F680, 0x301, 0xD800, 0x110000, -1, 0 };
	unsigned r = (unsigned)rand_r(seed) % 100;
	if (r < 35)
		return 0x20 + rand_r(seed) % 0x5F;               /* ASCII */
	if (r < 55)
		return rand_r(seed) % 0x20;                      /* any control key */
	if (r < 95)
		return special[(unsigned)rand_r(seed) % (sizeof special / sizeof special[0])];
	return rand_r(seed) % 0x30000;                         /* anything */
}

static void ten_thousand_random_keys(void **state)
{
	(void)state;
	enum { N = 3 };
	void *ed[N] = {
		wfield_readline_new(NULL, 0, "test-random"),
		wfield_readline_new("prefilled", 12, NULL),
		wfield_readline_new(NULL, 40, "test-random"),
	};
	unsigned seed = getenv("RLFIELD_SEED") ? (unsigned)atoi(getenv("RLFIELD_SEED")) : 20240601;
	for (int i = 0; i < 10000; i++) {
		int which = rand_r(&seed) % N;
		int act = rand_r(&seed) % 200;
		if (act == 0)
			E->focus(ed[which], rand_r(&seed) % 2);
		else if (act == 1)
			E->set_text(ed[which], rand_r(&seed) % 2 ? "ação 70B" : "");
		else
		{
			wkey k = random_key(&seed);
			if (getenv("RLFIELD_TRACE"))
				fprintf(stderr, "%d: field %d key %#x before \"%s\" %zu\n", i, which, (unsigned)k, E->text(ed[which]), E->cursor(ed[which]));
			key(ed[which], k);
		}
		for (int j = 0; j < N; j++) {
			const char *t = E->text(ed[j]);
			size_t len = strlen(t), cur = E->cursor(ed[j]);
			if (!valid_utf8(t) || cur > len || (t[cur] & 0xC0) == 0x80 ||
			    (j == 1 && len > 12) || (j == 2 && len > 40) || len > 1024)
				fail_msg("after key %d field %d: \"%s\" cursor %zu", i, j, t, cur);
		}
	}
	for (int j = 0; j < N; j++)
		E->destroy(ed[j]);
}

/* ---- the C locale ------------------------------------------------------------------------------ */

static void utf8_works_under_the_c_locale(void **state)
{
	(void)state;
	setenv("LC_ALL", "C", 1);
	setlocale(LC_ALL, "C");
	void *ed = wfield_readline_new(NULL, 0, NULL);
	type(ed, "7,5 € ção");
	assert_field(ed, "7,5 € ção", strlen("7,5 € ção"));
	key(ed, WKEY_BACKSPACE);
	assert_field(ed, "7,5 € çã", strlen("7,5 € çã"));
	key(ed, WKEY_LEFT);
	key(ed, WKEY_LEFT);
	type(ed, "x");
	assert_field(ed, "7,5 € xçã", strlen("7,5 € x"));
	E->destroy(ed);
	setenv("LC_ALL", "C.UTF-8", 1);
	setlocale(LC_ALL, "");
}

static int setup(void **state)
{
	(void)state;
	setenv("INPUTRC", "/dev/null", 1);
	setenv("LC_ALL", "C.UTF-8", 1);
	setlocale(LC_ALL, "");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	wfield_readline_shutdown();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(typing_gives_the_text),
		cmocka_unit_test(utf8_round_trips),
		cmocka_unit_test(left_arrow_then_insert_in_the_middle),
		cmocka_unit_test(ctrl_a_then_typing_inserts_at_start),
		cmocka_unit_test(kill_and_yank),
		cmocka_unit_test(backspace_and_delete_remove_whole_characters),
		cmocka_unit_test(alt_keys_move_and_kill_words),
		cmocka_unit_test(enter_submits_and_keeps_the_text),
		cmocka_unit_test(esc_cancels),
		cmocka_unit_test(keys_for_the_owner_are_ignored),
		cmocka_unit_test(ctrl_d_on_an_empty_field_is_nothing),
		cmocka_unit_test(two_fields_keep_their_texts),
		cmocka_unit_test(history_is_per_field),
		cmocka_unit_test(history_keeps_the_last_hundred),
		cmocka_unit_test(set_text_replaces_the_text),
		cmocka_unit_test(max_bytes_is_enforced),
		cmocka_unit_test(the_widget_uses_the_engine),
		cmocka_unit_test(nothing_is_written_to_stdout_or_stderr),
		cmocka_unit_test(ten_thousand_random_keys),
		cmocka_unit_test(shutdown_then_start_again),
		cmocka_unit_test(utf8_works_under_the_c_locale),
	};
	return cmocka_run_group_tests_name("rlfield", tests, setup, teardown);
}
