/*
 * The frame's own actions (the keys that are the same on every screen:
 * help, the command line, messages, language, theme, redraw, quit) and
 * the `:` command line, vim's and k9s's: a line on the last row where any
 * action of the registry (tui/frame/keys.c) is run by its name, with what
 * it takes after it — `:sort price`, `:lang de`, `:columns`, `:h200` (a
 * GPU's id or name alone jumps to it) — and Tab completes the word under
 * the cursor: the names of the actions that work on the screens shown,
 * then what the action takes (a column of the table, a GPU, a language,
 * a theme, a format). Enter runs, Esc cancels, ↑/↓ recall earlier lines.
 *
 * A name is looked for where a key would be: the screens whose keys work
 * now, top down, then the frame's map; a prefix that only one of them
 * starts with is that one (`:q`). What does not work here, or is no
 * action at all, is said in words. A key no map binds says so too
 * (tui_key_unknown), so no key is silently lost.
 */
#include "tui/tui_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n/i18n.h"
#include "util/util.h"

enum { G_QUIT = 1, G_REDRAW, G_HELP, G_LANG, G_COMMAND, G_MESSAGES, G_THEME };

const struct wbinding tui_frame_keys[TUI_FRAME_N_KEYS] = {
	{ '?', G_HELP, N_("This help"), NULL, "help" },
	{ WKEY_F1, G_HELP, N_("This help"), N_("Help"), "help" },
	{ ':', G_COMMAND, N_("Command line: run any action by its name (Tab completes)"), NULL,
	  "command" },
	{ 'M', G_MESSAGES, N_("Messages: what the status bar said, newest last"), NULL, "messages" },
	{ 'L', G_LANG, N_("Language (remembered for the next start)"), NULL, "lang", "LANG" },
	{ WKEY_NONE, G_THEME, N_("Colours: a theme of the config file's theme = (default, mono, "
				 "light, contrast)"), NULL, "theme", "THEME" },
	{ 'L' - '@', G_REDRAW, N_("Redraw the screen"), NULL, "redraw" },
	{ 'q', G_QUIT, N_("Quit"), NULL, "quit" },
	{ WKEY_F10, G_QUIT, N_("Quit"), N_("Quit"), "quit" },
};

const struct wbinding *tui_frame_map(const struct tui *t, size_t *n)
{
	return tui_keys_bound(t, tui_frame_keys, TUI_FRAME_N_KEYS, n);
}

static unsigned frame_act(struct tui *t, int action, const char *arg)
{
	size_t n;
	const struct wbinding *map = tui_frame_map(t, &n);

	switch (action) {
	case G_QUIT:
		t->quit = true;
		return W_HANDLED | W_QUIT;
	case G_REDRAW:
		tui_redraw_all(t);
		break;
	case G_HELP:
		if (!t->too_small)
			tui_help_open(t, map, n);
		break;
	case G_LANG:
		if (arg != NULL)
			tui_lang_choose(t, arg);
		else if (!t->too_small)
			tui_lang_open(t);
		break;
	case G_COMMAND:
		if (!t->too_small)
			tui_command_open(t);
		break;
	case G_MESSAGES:
		if (!t->too_small)
			tui_messages_open(t);
		break;
	case G_THEME:
		tui_theme_choose(t, arg);
		break;
	}
	return W_HANDLED | W_REDRAW;
}

unsigned tui_frame_key(struct tui *t, const struct wevent *ev)
{
	size_t n;
	const struct wbinding *map = tui_frame_map(t, &n), *b;

	if (ev->type != WEV_KEY)
		return W_IGNORED;
	b = wbinding_find(map, n, ev->key);
	return b != NULL ? frame_act(t, b->action, NULL) : W_IGNORED;
}

void tui_key_unknown(struct tui *t, wkey key)
{
	char *name, *help, *command, *m;

	if (key == WKEY_NONE || key == WKEY_RESIZE || key == WKEY_MOUSE)
		return;
	name = wkey_name(key, t->ascii);
	help = tui_key_label(t, "help");
	command = tui_key_label(t, "command");
	/* TRANSLATORS: a key that does nothing on the screens shown; %1$s is its name ("x",
	   "F8", "Ctrl-B"), %2$s and %3$s the keys of the help (?) and the command line (:) */
	m = xasprintf(_("%1$s does nothing here: %2$s lists the keys, %3$s runs any action by its "
			"name"), name, help, command);
	tui_message(t, m);
	free(m);
	free(name);
	free(help);
	free(command);
}

/* ---- finding an action by its name ------------------------------------------------------------ */

/* Where an action was found: the screen (NULL: the frame) and the row. */
struct found {
	struct tui_screen *s;
	size_t map;
	const struct wbinding *b;
};

/* Visit every named row that works now, top down, then the frame's;
 * stop when fn returns true. */
static bool each_named(struct tui *t, bool (*fn)(void *ud, const struct found *f), void *ud)
{
	struct tui_screen *s[16];
	size_t n_s = tui_stack_keyed(t, s, 16), n;
	const struct wbinding *map;

	for (size_t i = 0; i < n_s; i++)
		for (size_t m = 0; m < s[i]->cls->n_keys; m++) {
			map = tui_keys_map(t, &s[i]->cls->keys[m], &n);
			for (size_t k = 0; k < n; k++)
				if (map[k].name != NULL &&
				    fn(ud, &(struct found){ s[i], m, &map[k] }))
					return true;
		}
	map = tui_frame_map(t, &n);
	for (size_t k = 0; k < n; k++)
		if (map[k].name != NULL && fn(ud, &(struct found){ NULL, 0, &map[k] }))
			return true;
	return false;
}

struct lookup {
	const char *word;
	size_t len;
	bool exact;
	struct found hit;
	size_t n_hits;              /* distinct names that match */
	const char *names[8];
};

static bool look(void *ud, const struct found *f)
{
	struct lookup *l = ud;

	if (l->exact) {
		if (strcmp(f->b->name, l->word) != 0)
			return false;
		l->hit = *f;
		l->n_hits = 1;
		return true;
	}
	if (strncmp(f->b->name, l->word, l->len) != 0)
		return false;
	for (size_t i = 0; i < l->n_hits && i < 8; i++)
		if (strcmp(l->names[i], f->b->name) == 0)
			return false;
	if (l->n_hits == 0)
		l->hit = *f;
	if (l->n_hits < 8)
		l->names[l->n_hits] = f->b->name;
	l->n_hits++;
	return false;
}

/* The action called word (or the one name word starts), working now. */
static size_t find_action(struct tui *t, const char *word, struct lookup *l)
{
	memset(l, 0, sizeof *l);
	l->word = word;
	l->len = strlen(word);
	l->exact = true;
	if (each_named(t, look, l))
		return 1;
	l->exact = false;
	each_named(t, look, l);
	return l->n_hits;
}

/* The GPU word names: its id or its name, any case, blanks, dashes and
 * underscores aside ("h200", "H100 SXM", "h100-sxm"). */
static bool same_loosely(const char *a, const char *b)
{
	for (;;) {
		while (*a == ' ' || *a == '-' || *a == '_')
			a++;
		while (*b == ' ' || *b == '-' || *b == '_')
			b++;
		if (*a == '\0' || *b == '\0')
			return *a == *b;
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
		a++;
		b++;
	}
}

const struct catalog_gpu *tui_gpu_named(const struct tui *t, const char *word)
{
	for (size_t i = 0; word != NULL && i < t->cat->n_gpus; i++)
		if (same_loosely(t->cat->gpus[i].id, word) || same_loosely(t->cat->gpus[i].name, word))
			return &t->cat->gpus[i];
	return NULL;
}

/* The titles of the maps that have an action called name, for "works on …". */
static char *where_named(const struct tui *t, const char *name)
{
	struct buf b = {0};

	for (size_t i = 0; i < t->n_classes; i++)
		for (size_t k = 0; k < t->classes[i]->n_keys; k++) {
			const struct tui_keymap *km = &t->classes[i]->keys[k];
			const char *title = _(km->title);
			if (wbinding_named(km->map, km->n, name) == NULL ||
			    (b.data != NULL && strstr(b.data, title) != NULL))
				continue;
			if (b.len > 0)
				buf_puts(&b, ", ");
			buf_puts(&b, title);
		}
	return b.data != NULL ? buf_take(&b) : NULL;
}

static unsigned run_found(struct tui *t, const struct found *f, const char *arg)
{
	unsigned r;

	if (arg != NULL && f->b->arg == NULL) {
		/* TRANSLATORS: :NAME was given words after it that it does not take */
		char *m = xasprintf(_(":%s takes nothing after it"), f->b->name);
		tui_message(t, m);
		free(m);
		return W_HANDLED;
	}
	if (f->s == NULL)
		return frame_act(t, f->b->action, arg);
	r = tui_stack_act(t, f->s, f->map, f->b, arg);
	if (r == W_IGNORED) {
		char *m = xasprintf(_(":%s cannot be done here now"), f->b->name);
		tui_message(t, m);
		free(m);
	}
	return r & ~(unsigned)W_CLOSE;
}

/* word is no action that works now: a GPU to jump to, or say why not. */
static unsigned not_an_action(struct tui *t, const char *word, const char *arg,
			      const struct lookup *l)
{
	const struct catalog_gpu *g = arg == NULL ? tui_gpu_named(t, word) : NULL;
	struct lookup j;
	char *m, *where;

	if (g != NULL) {
		if (find_action(t, "gpu", &j) == 1 && j.exact)
			return run_found(t, &j.hit, g->id);
		tui_open(t, TUI_DETAIL, &(struct tui_goto){ .gpu = g->id, .fits = -1 });
		return W_HANDLED | W_REDRAW;
	}
	if (l->n_hits > 1) {
		/* TRANSLATORS: the command line: a prefix several actions start with; %s lists them */
		struct buf b = {0};
		for (size_t i = 0; i < l->n_hits && i < 8; i++) {
			if (i > 0)
				buf_puts(&b, ", ");
			buf_puts(&b, l->names[i]);
		}
		m = xasprintf(_(":%s could be %s"), word, b.data);
		buf_free(&b);
	} else if ((where = where_named(t, word)) != NULL) {
		/* TRANSLATORS: an action of another screen; %s: the screens' key map titles */
		m = xasprintf(_(":%s works on another screen: %s"), word, where);
		free(where);
	} else {
		m = xasprintf(_("No action or GPU is called \u201c%s\u201d: Tab lists them"), word);
	}
	tui_message(t, m);
	free(m);
	return W_HANDLED | W_REDRAW;
}

unsigned tui_command_run(struct tui *t, const char *line)
{
	char *copy = xstrdup(line != NULL ? line : ""), *word = copy, *arg;
	struct lookup l;
	unsigned r;

	while (*word == ' ' || *word == ':')
		word++;
	arg = word + strcspn(word, " \t");
	if (*arg != '\0') {
		*arg++ = '\0';
		while (*arg == ' ' || *arg == '\t')
			arg++;
		for (char *e = arg + strlen(arg); e > arg && (e[-1] == ' ' || e[-1] == '\t');)
			*--e = '\0';
	}
	if (*word == '\0') {
		free(copy);
		return W_HANDLED;
	}
	if (find_action(t, word, &l) == 1)
		r = run_found(t, &l.hit, *arg != '\0' ? arg : NULL);
	else
		r = not_an_action(t, word, *arg != '\0' ? arg : NULL, &l);
	free(copy);
	return r;
}

/* ---- completion ---------------------------------------------------------------------------------- */

struct cands {
	char **v;
	size_t n, cap;
	const char *prefix;
};

static void cand(struct cands *c, const char *word)
{
	if (word == NULL || strncmp(word, c->prefix, strlen(c->prefix)) != 0)
		return;
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->v[i], word) == 0)
			return;
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->v = xreallocarray(c->v, c->cap, sizeof *c->v);
	}
	c->v[c->n++] = xstrdup(word);
}

static bool cand_name(void *ud, const struct found *f)
{
	cand(ud, f->b->name);
	return false;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* What arg (an action's placeholder) may be. */
static void arg_cands(struct tui *t, const char *arg, struct cands *c)
{
	if (strcmp(arg, "COLUMN") == 0 && t->sel.view != NULL) {
		for (size_t i = 0; i < t->sel.view->n_columns; i++)
			cand(c, t->sel.view->columns[i].id);
	} else if (strcmp(arg, "GPU") == 0) {
		for (size_t i = 0; i < t->cat->n_gpus; i++)
			cand(c, t->cat->gpus[i].id);
	} else if (strcmp(arg, "LANG") == 0) {
		for (int l = 0; l < I18N_NLANGS; l++)
			cand(c, i18n_lang_tag((enum i18n_lang)l));
		cand(c, "auto");
	} else if (strcmp(arg, "THEME") == 0) {
		for (size_t i = 0; i < wtheme_count(); i++)
			cand(c, wtheme_at(i)->name);
	} else if (strcmp(arg, "FORMAT") == 0) {
		cand(c, "csv");
		cand(c, "json");
	} else if (strcmp(arg, "TAB") == 0) {
		for (size_t i = 0; i < t->cat->n_workloads; i++)
			cand(c, t->cat->workloads[i].id);
	}
}

size_t tui_command_complete(struct tui *t, const char *line, char ***out, size_t *start)
{
	struct cands c = { .prefix = "" };
	const char *p = line, *sp;
	struct lookup l;

	while (*p == ' ' || *p == ':')
		p++;
	sp = strchr(p, ' ');
	if (sp == NULL) {
		/* the first word: the actions that work now, and the GPUs */
		*start = (size_t)(p - line);
		c.prefix = p;
		each_named(t, cand_name, &c);
		for (size_t i = 0; i < t->cat->n_gpus; i++)
			cand(&c, t->cat->gpus[i].id);
	} else {
		char *word = xstrndup(p, (size_t)(sp - p));
		const char *last = strrchr(line, ' ') + 1;
		*start = (size_t)(last - line);
		c.prefix = last;
		if (find_action(t, word, &l) == 1 && l.exact && l.hit.b->arg != NULL)
			arg_cands(t, l.hit.b->arg, &c);
		free(word);
	}
	qsort(c.v, c.n, sizeof *c.v, by_text);
	*out = c.v;
	return c.n;
}

/* ---- the command line: an overlay on the last row --------------------------------------------------- */

struct cmdline {
	struct tui_screen base;
	struct wfield *field;
};

static void cl_layout(struct tui_screen *s, struct tui_area *body)
{
	struct cmdline *c = (struct cmdline *)s;

	wwidget_place(&c->field->base, s->t->lines - 1, 0, 1, s->t->cols);
	body->fkeys = false;
}

/* After the text: what the first word names (its description), or the
 * words it could become, or how to use the line. */
static void cl_hint(struct cmdline *c)
{
	struct tui *t = c->base.t;
	const char *text = wfield_text(c->field);
	char **v;
	size_t start, n = tui_command_complete(t, text, &v, &start);
	struct lookup l;
	char *word = xstrndup(text, strcspn(text, " "));
	struct buf b = {0};

	if (word[0] != '\0' && find_action(t, word, &l) == 1 && l.exact) {
		if (l.hit.b->arg != NULL) {
			buf_puts(&b, l.hit.b->arg);
			buf_puts(&b, " \u00b7 ");
		}
		buf_puts(&b, l.hit.b->help != NULL ? _(l.hit.b->help) : "");
	} else if (word[0] != '\0' && tui_gpu_named(t, word) != NULL) {
		buf_puts(&b, tui_gpu_named(t, word)->name);
	} else if (word[0] != '\0' && n > 0) {
		for (size_t i = 0; i < n && i < 12; i++) {
			if (i > 0)
				buf_putc(&b, ' ');
			buf_puts(&b, v[i]);
		}
	} else {
		buf_puts(&b, _("Tab completes \u00b7 Enter runs \u00b7 Esc cancels"));
	}
	wfield_set_after(c->field, b.data != NULL ? b.data : "");
	buf_free(&b);
	free(word);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Tab: the word under the cursor completed as far as its candidates agree. */
static void cl_complete(struct cmdline *c)
{
	struct tui *t = c->base.t;
	const char *text = wfield_text(c->field);
	char **v;
	size_t start, n = tui_command_complete(t, text, &v, &start), common;

	if (n == 0) {
		wfield_set_after(c->field, _("nothing completes that"));
		free(v);
		return;
	}
	common = strlen(v[0]);
	for (size_t i = 1; i < n; i++) {
		size_t k = 0;
		while (k < common && v[i][k] == v[0][k])
			k++;
		common = k;
	}
	if (common >= strlen(text + start)) {
		char *line = xasprintf("%.*s%.*s%s", (int)start, text, (int)common, v[0],
				       n == 1 ? " " : "");
		wfield_set_text(c->field, line);
		free(line);
	}
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	cl_hint(c);
	if (n > 1) {
		/* the choices, not the one word's description */
		char **w;
		size_t s2, m = tui_command_complete(t, wfield_text(c->field), &w, &s2);
		struct buf b = {0};
		for (size_t i = 0; i < m && i < 12; i++) {
			if (i > 0)
				buf_putc(&b, ' ');
			buf_puts(&b, w[i]);
			free(w[i]);
		}
		for (size_t i = 12; i < m; i++)
			free(w[i]);
		free(w);
		wfield_set_after(c->field, b.data);
		buf_free(&b);
	}
}

static unsigned cl_event(struct tui_screen *s, const struct wevent *ev)
{
	struct cmdline *c = (struct cmdline *)s;
	struct tui *t = s->t;
	unsigned r;

	if (ev->type != WEV_KEY)
		return W_HANDLED;
	if (ev->key == WKEY_RESIZE || ev->key == 'L' - '@')
		return W_IGNORED;
	if (ev->key == WKEY_TAB) {
		cl_complete(c);
		return W_HANDLED | W_REDRAW;
	}
	r = wwidget_handle(&c->field->base, ev);
	if (r & W_CLOSE) {
		unsigned ran = 0;
		if (c->field->submitted) {
			char *line = xstrdup(wfield_text(c->field));
			ran = tui_command_run(t, line);
			free(line);
		}
		return (ran & ~(unsigned)W_CLOSE) | W_HANDLED | W_CLOSE | W_REDRAW;
	}
	if (r & W_CHANGED)
		cl_hint(c);
	return r | W_HANDLED;
}

static const struct tui_screen_class cmdline_class = {
	.name = "command", .flags = TS_MODAL, .layout = cl_layout, .event = cl_event,
};

void tui_command_open(struct tui *t)
{
	tui_command_open_with(t, "");
}

void tui_command_open_with(struct tui *t, const char *text)
{
	struct cmdline *c = xcalloc(1, sizeof *c);

	tui_screen_init(&c->base, &cmdline_class, t);
	c->field = (struct wfield *)tui_screen_add(
		&c->base, &wfield_new_readline(&t->ui, ":", text, "command")->base);
	wfield_focus(c->field, true);
	cl_hint(c);
	tui_push(t, &c->base);
}
