/*
 * The registry of actions: every key map of the session — the screens'
 * (their classes, given by tui/screens.c), the frame's own (tui/frame/
 * commands.c) and the tables' moves (widgets' wtable_bindings) — read by
 * the `:` command line, the help, the F-key bar and the key handlers.
 * A row of a map (struct wbinding) is one key of one action: its name,
 * its description, its bar word, what the command line takes after it;
 * the rows of an action are its default keys, and the map a screen owns
 * says which screens it applies to; the screen's act() (or, without one,
 * its event() given the action's key) is its handler.
 *
 * Rebinding: the config file's `bind.NAME = KEYS` lines (keys as the help
 * names them, space-separated; `none`: no key, the command line only)
 * replace the default keys of the action NAME in every map that has it.
 * A map with an action rebound is copied once, at the start: the action's
 * rows become one row per key given (the bar word on the first F-key of
 * them, else the first key), and a key given takes itself away from the
 * other actions of that map. Maps without a rebound action are used as
 * they are. What the lines get wrong (an action no map has, a key gpux
 * does not know, one key given to two actions) is said once, in the
 * status bar and the message history, and that line alone is left out.
 *
 * Texts that name a key (hints, legends, status and empty-state texts)
 * take its name from here (tui_key_label), so they say the key as bound:
 * the key itself, or the command line's form where it has none.
 */
#include "tui/tui_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

struct tui_bound {
	const struct wbinding *orig;
	size_t n_orig;
	struct wbinding *map;       /* NULL: the original as it is */
	size_t n;
};

/* One bind.NAME line, parsed. */
struct rebind {
	const char *name;           /* borrowed from the registry */
	wkey keys[8];
	size_t n;
};

/* ---- the maps of the registry ------------------------------------------------------------ */

static bool have_map(const struct tui *t, const struct wbinding *map)
{
	for (size_t i = 0; i < t->n_bound; i++)
		if (t->bound[i].orig == map)
			return true;
	return false;
}

static void add_map(struct tui *t, const struct wbinding *map, size_t n)
{
	if (map == NULL || have_map(t, map))
		return;
	t->bound = xreallocarray(t->bound, t->n_bound + 1, sizeof *t->bound);
	t->bound[t->n_bound++] = (struct tui_bound){ map, n, NULL, n };
}

/* The first row called name in any map of the registry, or NULL. */
static const struct wbinding *registry_named(const struct tui *t, const char *name)
{
	for (size_t i = 0; i < t->n_bound; i++) {
		const struct wbinding *b = wbinding_named(t->bound[i].orig, t->bound[i].n_orig, name);
		if (b != NULL)
			return b;
	}
	return NULL;
}

/* ---- reading the bind.NAME lines ---------------------------------------------------------- */

static void complain(struct tui *t, char *text)
{
	tui_message(t, text);
	free(text);
}

/* The keys of one line; false (said) when a key is unknown. */
static bool parse_keys(struct tui *t, const char *name, const char *value, struct rebind *r)
{
	char *v = xstrdup(value), *save = NULL;
	bool ok = true;

	r->n = 0;
	for (char *tok = strtok_r(v, " \t", &save); tok != NULL && ok;
	     tok = strtok_r(NULL, " \t", &save)) {
		wkey k;
		if (strcmp(tok, "none") == 0)
			continue;
		if (wkey_parse(tok, &k) != 0) {
			/* TRANSLATORS: the config file's bind.NAME = KEYS line names a key gpux does not know */
			complain(t, xasprintf(_("config: bind.%s: \u201c%s\u201d is not a key gpux knows "
						"(see gpux(1), KEYS)"), name, tok));
			ok = false;
		} else if (r->n < sizeof r->keys / sizeof r->keys[0]) {
			r->keys[r->n++] = k;
		}
	}
	free(v);
	return ok;
}

/* The lines of the config file, each checked; how many are usable. */
static size_t read_binds(struct tui *t, struct rebind **out)
{
	struct api_conf *c = NULL;
	char *cause = NULL;
	const char **names = NULL;
	size_t n_names, n = 0;

	*out = NULL;
	if (t->conf_path == NULL || api_conf_load(t->conf_path, &c, &cause) != 0) {
		free(cause); /* the settings' own reading says why */
		return 0;
	}
	n_names = api_conf_names(c, "bind.", &names);
	*out = xcalloc(n_names + 1, sizeof **out);
	for (size_t i = 0; i < n_names; i++) {
		const char *name = names[i] + 5;
		const struct wbinding *b = registry_named(t, name);
		if (b == NULL) {
			/* TRANSLATORS: the config file rebinds an action that does not exist */
			complain(t, xasprintf(_("config: bind.%s: gpux has no action called \u201c%s\u201d "
						"(: and Tab list them)"), name, name));
			continue;
		}
		(*out)[n].name = b->name;
		if (parse_keys(t, name, api_conf_get(c, names[i]), &(*out)[n]))
			n++;
	}
	free(names);
	api_conf_free(&c);
	return n;
}

/* ---- one map as bound ---------------------------------------------------------------------- */

static const struct rebind *rebound(const struct rebind *r, size_t n, const char *name)
{
	for (size_t i = 0; name != NULL && i < n; i++)
		if (strcmp(r[i].name, name) == 0)
			return &r[i];
	return NULL;
}

/* The rebound action of map that was given key, or NULL. */
static const struct rebind *key_owner(const struct rebind *r, size_t n, const struct wbinding *map,
				      size_t n_map, wkey key)
{
	for (size_t i = 0; i < n; i++) {
		if (wbinding_named(map, n_map, r[i].name) == NULL)
			continue;
		for (size_t k = 0; k < r[i].n; k++)
			if (r[i].keys[k] == key)
				return &r[i];
	}
	return NULL;
}

static bool is_fkey(wkey k)
{
	return k >= WKEY_F1 && k <= WKEY_F12;
}

/* The rows of action b (its first row) as rebound by r, appended to out. */
static void emit_rebound(struct tui *t, const struct wbinding *map, size_t n_map,
			 const struct wbinding *b, const struct rebind *r, const struct rebind *all,
			 size_t n_all, struct wbinding *out, size_t *n)
{
	const char *bar = NULL;
	size_t bar_at = 0, first = *n;

	for (size_t i = 0; i < n_map; i++)
		if (map[i].action == b->action && map[i].bar != NULL && bar == NULL)
			bar = map[i].bar;
	for (size_t k = 0; k < r->n; k++) {
		const struct rebind *o = key_owner(all, n_all, map, n_map, r->keys[k]);
		if (o != r) {
			char *kn = wkey_name(r->keys[k], true);
			/* TRANSLATORS: two bind.NAME lines of the config file give one key */
			complain(t, xasprintf(_("config: bind.%s: %s is bind.%s's already"), r->name, kn,
					      o->name));
			free(kn);
			continue;
		}
		out[*n] = *b;
		out[*n].key = r->keys[k];
		out[*n].bar = NULL;
		if (bar != NULL && bar_at == 0 && is_fkey(r->keys[k]))
			bar_at = *n + 1;
		(*n)++;
	}
	if (*n == first) {
		/* no key: the command line still runs it */
		out[*n] = *b;
		out[*n].key = WKEY_NONE;
		out[(*n)++].bar = NULL;
	} else if (bar != NULL) {
		out[bar_at > 0 ? bar_at - 1 : first].bar = bar;
	}
}

static void bind_map(struct tui *t, struct tui_bound *m, const struct rebind *r, size_t n_r)
{
	const struct wbinding *map = m->orig;
	size_t n_map = m->n_orig, cap = n_map, n = 0;
	bool any = false;

	for (size_t i = 0; i < n_r; i++)
		if (wbinding_named(map, n_map, r[i].name) != NULL) {
			any = true;
			cap += r[i].n + 1;
		}
	if (!any)
		return;
	m->map = xcalloc(cap, sizeof *m->map);
	for (size_t i = 0; i < n_map; i++) {
		const struct rebind *x = rebound(r, n_r, map[i].name);
		if (x != NULL) {
			/* at the action's first row: its keys as given */
			if (wbinding_named(map, n_map, map[i].name) == &map[i])
				emit_rebound(t, map, n_map, &map[i], x, r, n_r, m->map, &n);
			continue;
		}
		if (key_owner(r, n_r, map, n_map, map[i].key) != NULL)
			continue; /* the key went to a rebound action */
		m->map[n++] = map[i];
	}
	m->n = n;
}

/* ---- the registry's life ----------------------------------------------------------------------- */

void tui_keys_init(struct tui *t, const struct wbinding *frame, size_t n_frame)
{
	struct rebind *r;
	size_t n_r;

	tui_keys_free(t);
	t->frame_keys = frame;
	t->n_frame_keys = n_frame;
	add_map(t, frame, n_frame);
	add_map(t, wtable_bindings, WTABLE_N_BINDINGS);
	for (size_t i = 0; i < t->n_classes; i++)
		for (size_t k = 0; k < t->classes[i]->n_keys; k++)
			add_map(t, t->classes[i]->keys[k].map, t->classes[i]->keys[k].n);
	n_r = read_binds(t, &r);
	for (size_t i = 0; i < t->n_bound && n_r > 0; i++)
		bind_map(t, &t->bound[i], r, n_r);
	free(r);
}

void tui_keys_free(struct tui *t)
{
	for (size_t i = 0; i < t->n_bound; i++)
		free(t->bound[i].map);
	free(t->bound);
	t->bound = NULL;
	t->n_bound = 0;
}

const struct wbinding *tui_keys_bound(const struct tui *t, const struct wbinding *map, size_t n,
				      size_t *n_out)
{
	for (size_t i = 0; i < t->n_bound; i++)
		if (t->bound[i].orig == map && t->bound[i].map != NULL) {
			*n_out = t->bound[i].n;
			return t->bound[i].map;
		}
	*n_out = n;
	return map;
}

const struct wbinding *tui_keys_map(const struct tui *t, const struct tui_keymap *km, size_t *n)
{
	return tui_keys_bound(t, km->map, km->n, n);
}

const struct wbinding *tui_keys_find(const struct tui *t, const struct tui_keymap *km, wkey key)
{
	size_t n;
	const struct wbinding *map = tui_keys_map(t, km, &n);

	return wbinding_find(map, n, key);
}

size_t tui_keys_maps(const struct tui *t, const struct wbinding ***maps, size_t **ns)
{
	*maps = xcalloc(t->n_bound + 1, sizeof **maps);
	*ns = xcalloc(t->n_bound + 1, sizeof **ns);
	for (size_t i = 0; i < t->n_bound; i++)
		(*maps)[i] = tui_keys_bound(t, t->bound[i].orig, t->bound[i].n_orig, &(*ns)[i]);
	return t->n_bound;
}

char *tui_key_label(const struct tui *t, const char *name)
{
	wkey fkey = WKEY_NONE;

	for (size_t i = 0; i < t->n_bound; i++) {
		size_t n;
		const struct wbinding *map = tui_keys_bound(t, t->bound[i].orig, t->bound[i].n_orig,
							    &n);
		for (size_t k = 0; k < n; k++) {
			if (map[k].name == NULL || strcmp(map[k].name, name) != 0)
				continue;
			if (map[k].key == WKEY_NONE)
				continue;
			if (!is_fkey(map[k].key))
				return wkey_name(map[k].key, t->ascii);
			if (fkey == WKEY_NONE)
				fkey = map[k].key;
		}
	}
	if (fkey != WKEY_NONE)
		return wkey_name(fkey, t->ascii);
	return xasprintf(":%s", name);
}

char *tui_key_textv(const struct tui *t, const char *text, const char *const *names)
{
	size_t n = 0, next = 0;
	struct buf b = {0};
	char *out;

	while (names != NULL && names[n] != NULL)
		n++;
	for (const char *p = text; *p != '\0'; p++) {
		size_t at = next;
		const char *q = p + 1;
		if (*p != '%') {
			buf_putc(&b, *p);
			continue;
		}
		if (*q == '%') {
			buf_putc(&b, '%');
			p = q;
			continue;
		}
		if (*q >= '1' && *q <= '9' && q[1] == '$') {
			at = (size_t)(*q - '1');
			q += 2;
		} else {
			next++;
		}
		if (*q != 's') {
			buf_putc(&b, *p);
			continue;
		}
		if (at < n) {
			char *label = tui_key_label(t, names[at]);
			buf_puts(&b, label);
			free(label);
		}
		p = q;
	}
	out = buf_take(&b);
	return out != NULL ? out : xstrdup("");
}

/* tui_key_textv of the names of ap (NULL-terminated, at most 4). */
static char *key_vtext(const struct tui *t, const char *text, va_list ap)
{
	const char *names[5] = { NULL };
	const char *name;

	for (size_t n = 0; n < 4 && (name = va_arg(ap, const char *)) != NULL; n++)
		names[n] = name;
	return tui_key_textv(t, text, names);
}

char *tui_key_text(const struct tui *t, const char *text, ...)
{
	va_list ap;
	char *s;

	va_start(ap, text);
	s = key_vtext(t, text, ap);
	va_end(ap);
	return s;
}

void tui_key_message(struct tui *t, const char *text, ...)
{
	va_list ap;
	char *s;

	va_start(ap, text);
	s = key_vtext(t, text, ap);
	va_end(ap);
	tui_message(t, s);
	free(s);
}

void tui_key_no_selection(struct tui *t)
{
	/* TRANSLATORS: %s is the key that clears the filter (Esc, unless the config file rebinds it) */
	tui_key_message(t, _("No GPU selected: clear the filter (%s) and choose a row"),
			"clear-filter", (const char *)NULL);
}
