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
