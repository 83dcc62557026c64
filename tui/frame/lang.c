/*
 * The language of the screen: the language menu, the switch, and
 * the choice remembered in the config file.
 *
 * The menu (L in the tables, or L on any help screen) lists "Automatic"
 * (whatever LANGUAGE, LC_ALL, LC_MESSAGES, LANG say) and the six languages,
 * each named in itself ("Deutsch", "Português (Brasil)") so that someone who
 * cannot read the current language still finds theirs. Enter (or a click)
 * switches at once and remembers the choice as `lang = pt-BR` in the config
 * file (tui/frame/settings.c, the file and writer of the column choices);
 * "Automatic" removes that line. In the menu: ↑↓ (k j), Home End, Enter or
 * Space (or a click) choose, 1–7 choose an entry directly, Esc q L close
 * it; the language in use is marked. At the next start cli/main.c chooses by
 * i18n_lang_resolve: --lang, then the remembered choice, then the
 * environment, then English.
 *
 * One path for a switch, tui_lang_set(): i18n_init() for _(), the TUI's own
 * copy of its options gets the language (every formatter of tui/ reads
 * t->o->lang), then every screen on the stack is told (TN_LANG) and makes
 * again the text it keeps: the tables (tabs, F-keys, every built view with
 * its headers and cells; columns, sort, filter, cursor kept), the fit panel
 * (typed numbers take the new decimal separator, messages are made again),
 * the trade pages, those kept aside too (page tabs, panels, the form's
 * price). What is built on every frame (the status bar with its balance,
 * the F-key bar, the panels' lines) needs nothing.
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

enum { LANG_ITEMS = 1 + I18N_NLANGS }; /* "Automatic", then the languages */

struct langmenu {
	struct wwidget base;
	char *title, *hint;
	char *label[LANG_ITEMS];
	size_t sel;
	size_t current;         /* the entry marked as the language in use */
	bool accepted;          /* W_CLOSE: Enter or a click (true), Esc (false) */
};

enum { LM_UP = 1, LM_DOWN, LM_FIRST, LM_LAST, LM_ACCEPT, LM_CANCEL };

static const struct wbinding menu_bindings[] = {
	{ WKEY_UP, LM_UP, NULL, NULL },
	{ 'k', LM_UP, NULL, NULL },
	{ WKEY_DOWN, LM_DOWN, NULL, NULL },
	{ 'j', LM_DOWN, NULL, NULL },
	{ WKEY_HOME, LM_FIRST, NULL, NULL },
	{ WKEY_END, LM_LAST, NULL, NULL },
	{ WKEY_RETURN, LM_ACCEPT, NULL, NULL },
	{ WKEY_ENTER, LM_ACCEPT, NULL, NULL },
	{ '\n', LM_ACCEPT, NULL, NULL },
	{ ' ', LM_ACCEPT, NULL, NULL },
	{ WKEY_ESC, LM_CANCEL, NULL, NULL },
	{ 'q', LM_CANCEL, NULL, NULL },
	{ 'L', LM_CANCEL, NULL, NULL },
};

/* Entry i of the menu: 0 automatic, 1 + lang. */
static enum i18n_lang entry_lang(size_t i)
{
	return i == 0 ? i18n_lang_from_env() : (enum i18n_lang)(i - 1);
}

/* ---- the menu widget ------------------------------------------------------------------- */

static void box_line(struct wcells *c, int w, enum wsym left, enum wsym right, const char *text,
		     enum wrole text_role)
{
	wcells_add_sym(c, left, WR_DIALOG, 0);
	if (text != NULL && text[0] != '\0' && w > 4) {
		struct wcells t;
		wcells_init(&t, c->ascii);
		wcells_add_sym(c, WSYM_HLINE, WR_DIALOG, 0);
		wcells_pad(&t, 1, text_role);
		wcells_add(&t, text, text_role, 0);
		wcells_pad(&t, 1, text_role);
		if (t.width > w - 3)
			wcells_fit(&t, w - 3, WALIGN_LEFT, text_role);
		wcells_cat(c, &t);
		wcells_free(&t);
	}
	while (c->width < w - 1)
		wcells_add_sym(c, WSYM_HLINE, WR_DIALOG, 0);
	if (w > 1)
		wcells_add_sym(c, right, WR_DIALOG, 0);
}

static void menu_draw(struct wwidget *w)
{
	struct langmenu *m = (struct langmenu *)w;
	struct wcells c;
	int inner = w->h - 2;
	size_t top = 0;

	if (inner < 1)
		inner = 1;
	if (m->sel >= (size_t)inner)
		top = m->sel - (size_t)inner + 1;
	wcells_init(&c, w->ui->ascii);
	for (int y = 0; y < w->h; y++) {
		wcells_reset(&c);
		if (y == 0 || y == w->h - 1) {
			box_line(&c, w->w, y == 0 ? WSYM_TL : WSYM_BL, y == 0 ? WSYM_TR : WSYM_BR,
				 y == 0 ? m->title : m->hint, y == 0 ? WR_DIALOG_TITLE : WR_DIALOG);
		} else {
			size_t i = top + (size_t)(y - 1);
			enum wrole r = i == m->sel ? WR_SELECTED : WR_DIALOG;
			struct wcells t;
			wcells_add_sym(&c, WSYM_VLINE, WR_DIALOG, 0);
			wcells_init(&t, w->ui->ascii);
			if (i < LANG_ITEMS) {
				wcells_pad(&t, 1, r);
				if (i == m->current)
					wcells_add_sym(&t, WSYM_CHECK, r, WAT_BOLD);
				else
					wcells_pad(&t, 1, r);
				wcells_pad(&t, 1, r);
				wcells_add(&t, m->label[i], r, 0);
			}
			wcells_fit(&t, w->w - 2, WALIGN_LEFT, r);
			wcells_cat(&c, &t);
			wcells_free(&t);
			if (w->w > 1)
				wcells_add_sym(&c, WSYM_VLINE, WR_DIALOG, 0);
		}
		wcells_draw(&c, w->win, y, 0, w->w, w->ui);
	}
	wcells_free(&c);
}

static unsigned menu_do(struct langmenu *m, int action)
{
	switch (action) {
	case LM_UP: m->sel = m->sel > 0 ? m->sel - 1 : 0; break;
	case LM_DOWN: m->sel = m->sel + 1 < LANG_ITEMS ? m->sel + 1 : m->sel; break;
	case LM_FIRST: m->sel = 0; break;
	case LM_LAST: m->sel = LANG_ITEMS - 1; break;
	case LM_ACCEPT:
		m->accepted = true;
		return W_HANDLED | W_CLOSE;
	case LM_CANCEL:
		m->accepted = false;
		return W_HANDLED | W_CLOSE;
	default:
		return W_HANDLED;
	}
	m->base.dirty = true;
	return W_HANDLED | W_REDRAW;
}

static unsigned menu_handle(struct wwidget *w, const struct wevent *ev)
{
	struct langmenu *m = (struct langmenu *)w;
	const struct wbinding *b;

	if (ev->type == WEV_MOUSE) {
		int ly = ev->y - w->y - 1;
		if (ev->mouse == WM_WHEEL_UP)
			return menu_do(m, LM_UP);
		if (ev->mouse == WM_WHEEL_DOWN)
			return menu_do(m, LM_DOWN);
		if (!wwidget_contains(w, ev->y, ev->x))
			return menu_do(m, LM_CANCEL); /* a click beside the menu: as Esc */
		if (ly >= 0 && ly < w->h - 2) {
			/* the rows as menu_draw scrolled them */
			size_t inner = (size_t)(w->h - 2);
			size_t top = m->sel >= inner ? m->sel - inner + 1 : 0;
			if (top + (size_t)ly < LANG_ITEMS) {
				m->sel = top + (size_t)ly;
				return menu_do(m, LM_ACCEPT);
			}
		}
		return W_HANDLED;
	}
	if (ev->key >= '1' && ev->key < '1' + LANG_ITEMS) {
		/* the menu's digits: 1 automatic, 2 English … */
		m->sel = (size_t)(ev->key - '1');
		return menu_do(m, LM_ACCEPT);
	}
	b = wbinding_find(menu_bindings, sizeof menu_bindings / sizeof menu_bindings[0], ev->key);
	if (b == NULL)
		return ev->key == WKEY_RESIZE ? W_IGNORED : W_HANDLED;
	return menu_do(m, b->action);
}

static void menu_destroy(struct wwidget *w)
{
	struct langmenu *m = (struct langmenu *)w;

	free(m->title);
	free(m->hint);
	for (size_t i = 0; i < LANG_ITEMS; i++)
		free(m->label[i]);
}

static const struct wwidget_class menu_class = {
	.name = "langmenu",
	.draw = menu_draw,
	.handle = menu_handle,
	.destroy = menu_destroy,
	.bindings = NULL,
	.n_bindings = 0,
};

static void menu_place(struct wwidget *wd, int lines, int cols)
{
	struct langmenu *m = (struct langmenu *)wd;
	bool a = m->base.ui->ascii;
	int w = wtext_width(m->title, a) + 8, h = LANG_ITEMS + 2, hw = wtext_width(m->hint, a) + 6;

	if (hw > w)
		w = hw;
	for (size_t i = 0; i < LANG_ITEMS; i++) {
		int lw = wtext_width(m->label[i], a) + 6;
		if (lw > w)
			w = lw;
	}
	if (h > lines - 2)
		h = lines - 2;
	if (w > cols - 4)
		w = cols - 4;
	if (h < 3 || w < 10) {
		h = lines;
		w = cols;
	}
	wwidget_place(&m->base, (lines - h) / 2, (cols - w) / 2, h, w);
}

/* Switch to l (automatic: the environment's) and remember the choice. */
static void choose(struct tui *t, bool automatic, enum i18n_lang l)
{
	char *msg, *cause = NULL;
	int saved;

	saved = tui_settings_save_lang(t, automatic ? NULL : i18n_lang_tag(l), &cause);
	tui_lang_set(t, l);
	/* the message in the new language */
	if (saved != 0)
		msg = xasprintf(_("language not remembered: %s"), cause != NULL ? cause : "?");
	else if (automatic)
		msg = xasprintf(_("Language: %s, from the environment"), i18n_lang_name(l));
	else
		msg = xasprintf(_("Language: %s (remembered for the next start)"), i18n_lang_name(l));
	tui_message(t, msg);
	free(msg);
	free(cause);
}

/* The menu closed: switch now if a language was chosen, and remember it. */
static void menu_closed(struct tui *t, struct wwidget *w, void *ud)
{
	struct langmenu *m = (struct langmenu *)w;

	(void)ud;
	if (m->accepted)
		choose(t, m->sel == 0, entry_lang(m->sel));
}

int tui_lang_choose(struct tui *t, const char *tag)
{
	enum i18n_lang l;

	if (tag != NULL && strcmp(tag, "auto") == 0) {
		choose(t, true, i18n_lang_from_env());
		return 0;
	}
	if (tag == NULL || i18n_lang_parse(tag, &l) != 0) {
		char *m = xasprintf(_("No language \u201c%s\u201d: en, pt-PT, pt-BR, es, fr, de or auto"),
				    tag != NULL ? tag : "");
		tui_message(t, m);
		free(m);
		return -1;
	}
	choose(t, false, l);
	return 0;
}

void tui_lang_open(struct tui *t)
{
	struct langmenu *m = xcalloc(1, sizeof *m);
	char *remembered = tui_settings_lang(t);
	enum i18n_lang cur = i18n_current(), l;

	wwidget_init(&m->base, &menu_class, &t->ui);
	m->title = xstrdup(_("Language"));
	m->hint = xstrdup(_("Enter choose  Esc cancel"));
	m->label[0] = xasprintf(_("Automatic: %s, from the environment"),
				i18n_lang_name(i18n_lang_from_env()));
	for (size_t i = 1; i < LANG_ITEMS; i++)
		m->label[i] = xstrdup(i18n_lang_name((enum i18n_lang)(i - 1)));
	/* the mark: the remembered choice when it is the language in use, else
	 * Automatic when nothing is remembered and the environment gave it, else
	 * the language in use (a --lang of this run) */
	if (remembered != NULL && i18n_lang_parse(remembered, &l) == 0 && l == cur)
		m->current = 1 + (size_t)cur;
	else if (remembered == NULL && i18n_lang_from_env() == cur)
		m->current = 0;
	else
		m->current = 1 + (size_t)cur;
	free(remembered);
	m->sel = m->current;
	tui_push(t, tui_overlay_new(t, &m->base, menu_place, menu_closed, NULL));
}

/* ---- the switch ------------------------------------------------------------------------------ */

void tui_lang_set(struct tui *t, enum i18n_lang lang)
{
	if ((unsigned)lang >= I18N_NLANGS)
		return;
	i18n_init(lang);
	t->opts.lang = lang;
	tui_notify_all(t, TN_LANG);        /* every screen makes its texts again */
	tui_redraw_all(t);                 /* the bars are made in it at the next frame */
}
