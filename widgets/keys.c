/*
 * Keys: the key of a curses read, key names for the help, key maps
 * (nnn's bindings[]), and the decoder of escape sequences the terminal's
 * description does not know (TERM=vt100 in an xterm sends F5 as ESC [ 1 5 ~;
 * tmux sends End as ESC [ 4 ~ whatever TERM says): a sequence curses leaves
 * undecoded arrives as ESC, '[' or 'O', parameters and a final byte, and is
 * decoded here, or swallowed whole when it means nothing to us, never
 * replayed as keys (so its digits never switch tabs).
 */
#include "widgets/widgets.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

wkey wkey_from_curses(int rc, wint_t ch)
{
	if (rc == KEY_CODE_YES) {
		/* some terminals send KEY_ENTER for Return */
		return WKEY_FN + (wkey)ch;
	}
	if (ch == '\n')
		return WKEY_RETURN;
	return (wkey)ch;
}

bool wkey_printable(wkey k)
{
	return k >= 0x20 && k != 0x7F && k < WKEY_FN && !(k >= 0x80 && k < 0xA0);
}

static const struct {
	wkey key;
	const char *utf8, *ascii;
} key_names[] = {
	{ WKEY_UP, "\u2191", "Up" },
	{ WKEY_DOWN, "\u2193", "Down" },
	{ WKEY_LEFT, "\u2190", "Left" },
	{ WKEY_RIGHT, "\u2192", "Right" },
	{ WKEY_PGUP, "PgUp", "PgUp" },
	{ WKEY_PGDN, "PgDn", "PgDn" },
	{ WKEY_HOME, "Home", "Home" },
	{ WKEY_END, "End", "End" },
	{ WKEY_BTAB, "Shift-Tab", "Shift-Tab" },
	{ WKEY_ENTER, "Enter", "Enter" },
	{ WKEY_RETURN, "Enter", "Enter" },
	{ WKEY_TAB, "Tab", "Tab" },
	{ WKEY_ESC, "Esc", "Esc" },
	{ ' ', "Space", "Space" },
	{ WKEY_BACKSPACE, "Backspace", "Backspace" },
	{ 127, "Backspace", "Backspace" },
	{ WKEY_DELETE, "Delete", "Delete" },
	{ WKEY_INSERT, "Insert", "Insert" },
};

char *wkey_name(wkey k, bool ascii)
{
	for (size_t i = 0; i < sizeof key_names / sizeof key_names[0]; i++)
		if (key_names[i].key == k)
			return xstrdup(ascii ? key_names[i].ascii : key_names[i].utf8);
	if (k >= WKEY_F1 && k <= WKEY_FN + KEY_F0 + 63)
		return xasprintf("F%d", k - (WKEY_FN + KEY_F0));
	if (k > 0 && k < 0x20)
		return xasprintf("Ctrl-%c", (char)('@' + k));
	if (wkey_printable(k)) {
		struct wcells c;
		char s[5] = {0};
		uint32_t cp = (uint32_t)k;
		if (cp < 0x80) {
			s[0] = (char)cp;
		} else if (cp < 0x800) {
			s[0] = (char)(0xC0 | (cp >> 6));
			s[1] = (char)(0x80 | (cp & 0x3F));
		} else if (cp < 0x10000) {
			s[0] = (char)(0xE0 | (cp >> 12));
			s[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
			s[2] = (char)(0x80 | (cp & 0x3F));
		} else {
			s[0] = (char)(0xF0 | (cp >> 18));
			s[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
			s[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
			s[3] = (char)(0x80 | (cp & 0x3F));
		}
		wcells_init(&c, ascii);
		wcells_add(&c, s, WR_NORMAL, 0);
		char *r = wcells_text(&c);
		wcells_free(&c);
		return r;
	}
	if (k >= WKEY_FN) {
		const char *n = keyname(k - WKEY_FN);
		return xstrdup(n ? n : "?");
	}
	return xstrdup("?");
}

const struct wbinding *wbinding_find(const struct wbinding *map, size_t n, wkey key)
{
	for (size_t i = 0; i < n; i++)
		if (map[i].key == key)
			return &map[i];
	return NULL;
}

const struct wbinding *wbinding_named(const struct wbinding *map, size_t n, const char *name)
{
	for (size_t i = 0; name != NULL && i < n; i++)
		if (map[i].name != NULL && strcmp(map[i].name, name) == 0)
			return &map[i];
	return NULL;
}

/* The key of one UTF-8 character that is all of s, or -1. */
static wkey one_char(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;
	size_t len;

	if (p[0] < 0x80) {
		cp = p[0];
		len = 1;
	} else if ((p[0] & 0xE0) == 0xC0) {
		cp = p[0] & 0x1F;
		len = 2;
	} else if ((p[0] & 0xF0) == 0xE0) {
		cp = p[0] & 0x0F;
		len = 3;
	} else if ((p[0] & 0xF8) == 0xF0) {
		cp = p[0] & 0x07;
		len = 4;
	} else {
		return -1;
	}
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return -1;
		cp = (cp << 6) | (p[i] & 0x3F);
	}
	if (p[len] != '\0' || !wkey_printable((wkey)cp))
		return -1;
	return (wkey)cp;
}

static const struct {
	const char *name;
	wkey key;
} named_keys[] = {
	{ "space", ' ' }, { "tab", WKEY_TAB }, { "shift-tab", WKEY_BTAB }, { "btab", WKEY_BTAB },
	{ "esc", WKEY_ESC }, { "escape", WKEY_ESC }, { "enter", WKEY_RETURN },
	{ "return", WKEY_RETURN }, { "backspace", 127 }, { "delete", WKEY_DELETE },
	{ "del", WKEY_DELETE }, { "insert", WKEY_INSERT }, { "up", WKEY_UP }, { "down", WKEY_DOWN },
	{ "left", WKEY_LEFT }, { "right", WKEY_RIGHT }, { "pgup", WKEY_PGUP },
	{ "pageup", WKEY_PGUP }, { "pgdn", WKEY_PGDN }, { "pagedown", WKEY_PGDN },
	{ "home", WKEY_HOME }, { "end", WKEY_END },
	{ "\u2191", WKEY_UP }, { "\u2193", WKEY_DOWN }, { "\u2190", WKEY_LEFT },
	{ "\u2192", WKEY_RIGHT },
};

int wkey_parse(const char *name, wkey *out)
{
	const char *c = NULL;
	wkey k;

	if (name == NULL || name[0] == '\0')
		return -1;
	if ((k = one_char(name)) >= 0) {
		*out = k;
		return 0;
	}
	for (size_t i = 0; i < sizeof named_keys / sizeof named_keys[0]; i++)
		if (strcasecmp(name, named_keys[i].name) == 0) {
			*out = named_keys[i].key;
			return 0;
		}
	if ((name[0] == 'F' || name[0] == 'f') && name[1] >= '1' && name[1] <= '9') {
		char *end;
		long n = strtol(name + 1, &end, 10);
		if (*end == '\0' && n >= 1 && n <= 12) {
			*out = WKEY_FN + KEY_F0 + (wkey)n;
			return 0;
		}
		return -1;
	}
	if (strncasecmp(name, "ctrl-", 5) == 0)
		c = name + 5;
	else if (strncasecmp(name, "c-", 2) == 0)
		c = name + 2;
	else if (name[0] == '^' && name[1] != '\0')
		c = name + 1;
	if (c != NULL && c[1] == '\0' && ((c[0] >= 'a' && c[0] <= 'z') ||
					   (c[0] >= '@' && c[0] <= '_'))) {
		*out = (wkey)((c[0] >= 'a' ? c[0] - 'a' + 'A' : c[0]) - '@');
		return 0;
	}
	return -1;
}

/* CSI n ~ of the VT220 and xterm function keys. */
static wkey tilde_key(int n)
{
	switch (n) {
	case 1: case 7: return WKEY_HOME;
	case 2: return WKEY_INSERT;
	case 3: return WKEY_DELETE;
	case 4: case 8: return WKEY_END;
	case 5: return WKEY_PGUP;
	case 6: return WKEY_PGDN;
	case 11: return WKEY_F1;
	case 12: return WKEY_F2;
	case 13: return WKEY_F3;
	case 14: return WKEY_F4;
	case 15: return WKEY_F5;
	case 17: return WKEY_F6;
	case 18: return WKEY_F7;
	case 19: return WKEY_F8;
	case 20: return WKEY_F9;
	case 21: return WKEY_F10;
	case 23: return WKEY_F11;
	case 24: return WKEY_F12;
	default: return WKEY_NONE;
	}
}

/* The final byte of CSI or SS3 without parameters (or with modifiers only). */
static wkey final_key(wkey f, bool ss3)
{
	switch (f) {
	case 'A': return WKEY_UP;
	case 'B': return WKEY_DOWN;
	case 'C': return WKEY_RIGHT;
	case 'D': return WKEY_LEFT;
	case 'H': return WKEY_HOME;
	case 'F': return WKEY_END;
	case 'Z': return ss3 ? WKEY_NONE : WKEY_BTAB;
	case 'M': return ss3 ? WKEY_RETURN : WKEY_NONE;
	case 'P': return WKEY_F1;
	case 'Q': return WKEY_F2;
	case 'R': return WKEY_F3;
	case 'S': return WKEY_F4;
	default: return WKEY_NONE;
	}
}

size_t wkey_decode_escape(const wkey *k, size_t n, wkey *out)
{
	size_t i = 2;
	int param = -1;
	bool ss3;

	*out = WKEY_NONE;
	if (n < 2 || k[0] != WKEY_ESC || (k[1] != '[' && k[1] != 'O'))
		return 0;
	ss3 = k[1] == 'O';
	/* parameters and intermediates: 0x20–0x3F; the final byte: 0x40–0x7E */
	for (; i < n && k[i] >= 0x20 && k[i] <= 0x3F; i++) {
		if (k[i] >= '0' && k[i] <= '9' && param < 1000)
			param = (param < 0 ? 0 : param * 10) + (int)(k[i] - '0');
		else if (k[i] == ';')
			break; /* a modifier follows: the first parameter decides */
	}
	for (; i < n && k[i] >= 0x20 && k[i] <= 0x3F; i++)
		;
	if (i >= n || k[i] < 0x40 || k[i] > 0x7E)
		return 0; /* not a whole sequence: ESC and what follows are keys */
	if (k[i] == '~')
		*out = tilde_key(param);
	else
		*out = final_key(k[i], ss3);
	return i + 1;
}
