/*
 * What the TUI remembers between runs, kept in the shared config file
 * (api/'s parser and atomic writer, so the CLI's settings and comments stay
 * as they are): one line per workload whose columns were chosen,
 *
 *     columns.training = gpu,memory,bandwidth,price
 *
 * (ids of data/workloads.json, in display order; ids the catalogue no
 * longer has are skipped when read), and the language chosen in the
 * language menu (`lang = pt-BR`). The file is read when asked and
 * rewritten whole on each change; a failure to write is reported in the
 * status bar and changes nothing on screen.
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

size_t tui_settings_columns(struct tui *t, const char *workload, char ***ids)
{
	struct api_conf *c = NULL;
	char *cause = NULL, *key, *val, *save = NULL;
	const char *v;
	size_t n = 0, cap = 0;

	*ids = NULL;
	if (t->conf_path == NULL)
		return 0;
	if (api_conf_load(t->conf_path, &c, &cause) != 0) {
		/* a damaged or unsafe file: the defaults, and say why once */
		tui_message(t, cause);
		free(cause);
		return 0;
	}
	key = xasprintf("columns.%s", workload);
	v = api_conf_get(c, key);
	free(key);
	if (v == NULL || v[0] == '\0') {
		api_conf_free(&c);
		return 0;
	}
	val = xstrdup(v);
	for (char *tok = strtok_r(val, ", ", &save); tok != NULL; tok = strtok_r(NULL, ", ", &save)) {
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			*ids = xreallocarray(*ids, cap, sizeof **ids);
		}
		(*ids)[n++] = xstrdup(tok);
	}
	free(val);
	api_conf_free(&c);
	return n;
}

void tui_settings_save_columns(struct tui *t, const char *workload, char *const *ids, size_t n)
{
	struct api_conf *c = NULL;
	char *cause = NULL, *key;
	struct buf b = {0};

	if (t->conf_path == NULL)
		return;
	if (api_conf_load(t->conf_path, &c, &cause) != 0) {
		char *m = xasprintf(_("columns not saved: %s"), cause);
		tui_message(t, m);
		free(m);
		free(cause);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			buf_putc(&b, ',');
		buf_puts(&b, ids[i]);
	}
	key = xasprintf("columns.%s", workload);
	/* "gpu" alone keeps the choice "no other column" distinct from "default" */
	api_conf_set(c, key, n > 0 ? b.data : "gpu");
	free(key);
	buf_free(&b);
	if (api_conf_save(c, t->conf_path, &cause) != 0) {
		char *m = xasprintf(_("columns not saved: %s"), cause);
		tui_message(t, m);
		free(m);
		free(cause);
	}
	api_conf_free(&c);
}

/* ---- the language (tui/frame/lang.c) ----------------------------------------------------------
 * `lang = pt-BR`: the language menu's choice, read again by cli/main.c at
 * the next start (after --lang, before the environment). */

char *tui_settings_lang(struct tui *t)
{
	struct api_conf *c = NULL;
	char *cause = NULL, *v = NULL;
	const char *s;

	if (t->conf_path == NULL)
		return NULL;
	if (api_conf_load(t->conf_path, &c, &cause) != 0) {
		free(cause);
		return NULL;
	}
	s = api_conf_get(c, "lang");
	if (s != NULL && s[0] != '\0')
		v = xstrdup(s);
	api_conf_free(&c);
	return v;
}

int tui_settings_save_lang(struct tui *t, const char *tag, char **cause)
{
	struct api_conf *c = NULL;
	int rc;

	if (t->conf_path == NULL)
		return set_cause(cause, "XDG_CONFIG_HOME, HOME: unset");
	if (api_conf_load(t->conf_path, &c, cause) != 0)
		return -1;
	api_conf_set(c, "lang", tag);
	rc = api_conf_save(c, t->conf_path, cause);
	api_conf_free(&c);
	return rc;
}

/* ---- the colour theme (`theme = NAME`) ----------------------------------------------------------- */

const struct wtheme *tui_settings_theme(struct tui *t)
{
	struct api_conf *c = NULL;
	char *cause = NULL;
	const char *s;
	const struct wtheme *th = NULL;

	if (t->conf_path == NULL || api_conf_load(t->conf_path, &c, &cause) != 0) {
		free(cause);
		return NULL;
	}
	s = api_conf_get(c, "theme");
	if (s != NULL && s[0] != '\0' && (th = wtheme_named(s)) == NULL) {
		char *m = xasprintf(_("config: theme = %s: no such theme (default, mono, light, "
				      "contrast)"), s);
		tui_message(t, m);
		free(m);
	}
	api_conf_free(&c);
	return th;
}

void tui_theme_start(struct tui *t, const struct wtheme *fallback)
{
	const struct wtheme *th = tui_settings_theme(t);

	if (th == NULL)
		th = fallback;
	if (th->color && !wui_want_color())
		th = &wtheme_mono;
	wui_init(&t->ui, th, t->ascii, true);
}

/* The theme named, in t->ui: a colour theme falls back to mono where
 * colour is not wanted (NO_COLOR, a terminal without colour). */
static void apply_theme(struct tui *t, const struct wtheme *th)
{
	int32_t (*key_alt)(void *, int32_t) = t->ui.key_alt;
	void *key_alt_ctx = t->ui.key_alt_ctx;

	if (th->color && !wui_want_color())
		th = &wtheme_mono;
	wui_init(&t->ui, th, t->ascii, true);
	t->ui.key_alt = key_alt; /* wui_init clears what the loop set */
	t->ui.key_alt_ctx = key_alt_ctx;
	tui_redraw_all(t);
}

void tui_theme_choose(struct tui *t, const char *name)
{
	const struct wtheme *th = name != NULL ? wtheme_named(name) : NULL;
	struct api_conf *c = NULL;
	char *cause = NULL, *m;

	if (th == NULL) {
		m = name == NULL
			? xasprintf(_("Theme: %s (others: default, mono, light, contrast)"),
				    t->ui.theme->name)
			: xasprintf(_("No theme \u201c%s\u201d: default, mono, light or contrast"), name);
		tui_message(t, m);
		free(m);
		return;
	}
	apply_theme(t, th);
	if (t->conf_path == NULL)
		cause = xstrdup("XDG_CONFIG_HOME, HOME: unset");
	else if (api_conf_load(t->conf_path, &c, &cause) == 0) {
		api_conf_set(c, "theme", th->name);
		if (api_conf_save(c, t->conf_path, &cause) != 0)
			api_conf_free(&c);
	}
	if (c == NULL) {
		m = xasprintf(_("theme not remembered: %s"), cause != NULL ? cause : "?");
		tui_message(t, m);
		free(m);
	} else if (t->ui.theme != th) {
		m = xasprintf(_("Theme: %s remembered; mono meanwhile: NO_COLOR is set or the terminal "
				"has no colour"), th->name);
		tui_message(t, m);
		free(m);
	} else {
		m = xasprintf(_("Theme: %s (remembered for the next start)"), th->name);
		tui_message(t, m);
		free(m);
	}
	free(cause);
	api_conf_free(&c);
}
