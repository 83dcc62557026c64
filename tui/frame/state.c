/*
 * What the TUI remembers of a session between runs, per exchange (htop
 * remembers its sort; cointop its favourites): the chosen tab, each tab's
 * sort and filter, the marks, the watchlist, the fit job. One file per
 * exchange under $XDG_STATE_HOME/gpux/ (api_state_dir), named by a hash of
 * the exchange's URL ("local" for the local demo exchange) and saying that
 * URL in its first line:
 *
 *     exchange = https://gpux.example
 *     tab = inference
 *     sort.inference = price desc
 *     filter.training = mem>=80 hbm3e
 *     marks = h200,b200
 *     watch = h100-sxm
 *     spark = shared
 *     fit = open
 *     fit.model = llama 3.1 70b
 *
 * Screens read and write names in memory (tui_state_get / tui_state_set);
 * the file is written whole, atomically (api_conf_save: a temporary file
 * renamed over it, 0600), at most once a second while something changed
 * and once more at the end. A file that cannot be read (damaged, or not
 * this exchange's) is said once in the status bar and ignored: the session
 * starts from the defaults and writes a good file over it. A session whose
 * settings are remembered nowhere (config_path "") remembers no state
 * either.
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

enum { STATE_EVERY_MS = 1000 };

/* FNV-1a of the exchange's name: the file's. */
static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

/* The exchange a session talks to, as it was configured (not opened):
 * what its state file is for. malloc'ed. */
static char *exchange_name(const struct tui_options *o)
{
	struct api_settings s = {0};
	char *name = NULL, *cause = NULL;

	if (o->api != NULL && o->api->url != NULL)
		return xstrdup(o->api->url);
	if (o->client != NULL)
		return xstrdup(api_client_label(o->client));
	if (o->open == NULL)
		return xstrdup("none");
	if (api_settings_resolve(o->open->url, NULL, o->open->profile, &s, &cause) == 0 &&
	    s.url != NULL)
		name = xstrdup(s.url);
	free(cause);
	api_settings_clear(&s);
	return name != NULL ? name : xstrdup("local");
}

void tui_state_load(struct tui *t)
{
	char *dir, *cause = NULL;
	const char *said;

	tui_state_free(t);
	t->state = api_conf_new();
	if (t->conf_path == NULL || (dir = api_state_dir()) == NULL)
		return;
	t->state_exchange = exchange_name(t->o);
	t->state_path = xasprintf("%s/exchange-%016llx", dir,
				  (unsigned long long)name_hash(t->state_exchange));
	free(dir);
	struct api_conf *c = NULL;
	if (api_conf_load(t->state_path, &c, &cause) != 0) {
		/* TRANSLATORS: the file of what gpux remembers per exchange could not be read */
		char *m = xasprintf(_("Remembered state ignored (the defaults instead): %s"), cause);
		tui_messages_add(t, TUI_MSG_ERROR, m);
		free(m);
		free(cause);
		api_conf_set(t->state, "exchange", t->state_exchange);
		return;
	}
	said = api_conf_get(c, "exchange");
	if (said != NULL && strcmp(said, t->state_exchange) != 0) {
		/* another exchange's (the names' hashes met): not ours */
		api_conf_free(&c);
		api_conf_set(t->state, "exchange", t->state_exchange);
		return;
	}
	api_conf_free(&t->state);
	t->state = c;
	api_conf_set(t->state, "exchange", t->state_exchange);
}

const char *tui_state_get(const struct tui *t, const char *name)
{
	return t->state != NULL ? api_conf_get(t->state, name) : NULL;
}

void tui_state_set(struct tui *t, const char *name, const char *value)
{
	const char *now;

	if (t->state == NULL)
		return;
	if (value != NULL && value[0] == '\0')
		value = NULL;
	now = api_conf_get(t->state, name);
	if (now == NULL ? value == NULL : value != NULL && strcmp(now, value) == 0)
		return;
	api_conf_set(t->state, name, value);
	t->state_dirty = true;
}

void tui_state_flush(struct tui *t, int64_t now, bool force)
{
	char *cause = NULL;

	if (!t->state_dirty || t->state_path == NULL)
		return;
	if (!force && now - t->state_saved < STATE_EVERY_MS)
		return;
	t->state_dirty = false;
	t->state_saved = now;
	if (api_conf_save(t->state, t->state_path, &cause) != 0) {
		if (!t->state_failed) {
			char *m = xasprintf(_("State not remembered: %s"), cause);
			tui_messages_add(t, TUI_MSG_ERROR, m);
			free(m);
		}
		t->state_failed = true; /* said once */
		free(cause);
	}
}

int64_t tui_state_next(const struct tui *t)
{
	return t->state_dirty && t->state_path != NULL ? t->state_saved + STATE_EVERY_MS : -1;
}

void tui_state_free(struct tui *t)
{
	api_conf_free(&t->state);
	free(t->state_path);
	free(t->state_exchange);
	t->state_path = t->state_exchange = NULL;
	t->state_dirty = false;
}

/* ---- lists of ids in one value ------------------------------------------------------------------ */

size_t tui_state_ids(const struct tui *t, const char *name, char ***ids)
{
	const char *v = tui_state_get(t, name);
	char *copy, *save = NULL;
	size_t n = 0;

	*ids = NULL;
	if (v == NULL)
		return 0;
	copy = xstrdup(v);
	*ids = xcalloc(strlen(v) / 2 + 2, sizeof **ids);
	for (char *tok = strtok_r(copy, ", ", &save); tok != NULL; tok = strtok_r(NULL, ", ", &save))
		if (catalog_gpu(t->cat, tok) != NULL)
			(*ids)[n++] = xstrdup(tok);
	free(copy);
	return n;
}

void tui_state_set_ids(struct tui *t, const char *name, char *const *ids, size_t n)
{
	struct buf b = {0};

	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			buf_putc(&b, ',');
		buf_puts(&b, ids[i]);
	}
	tui_state_set(t, name, b.data);
	buf_free(&b);
}
