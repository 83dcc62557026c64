/*
 * A warning for the settings of the config file that nothing reads: a typo
 * such as `kye = ...` would otherwise be ignored silently, and the user
 * would learn it later as an UNAUTHORIZED from the exchange.
 *
 * The file is read with api/'s own parser (api_conf_load), so only lines it
 * takes as settings are looked at; each name is checked against the names
 * gpux reads (conf_known below: the exchange settings of api/config.c and
 * what the interactive screen keeps, tui/frame/settings.c) and, when unknown, the
 * warning names the line and the nearest known name.
 */
#include "cli/cli_int.h"

#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "i18n/i18n.h"
#include "util/util.h"

/* Every name gpux reads from the config file; "columns." is a prefix. */
static const char *const conf_known[] = {
	"api", "key", "timeout", "connect_timeout", "country", "currency", "lang", "columns.",
	"theme", "bind.", "profile",
};
/* ... and in a profile ([NAME]): the exchange's own settings */
static const char *const profile_known[] = { "api", "key", "timeout", "connect_timeout" };
#define N_KNOWN (sizeof conf_known / sizeof conf_known[0])

static bool known_in_profile(const char *name)
{
	for (size_t i = 0; i < sizeof profile_known / sizeof profile_known[0]; i++)
		if (strcmp(name, profile_known[i]) == 0)
			return true;
	return false;
}

static bool known(const char *name)
{
	for (size_t i = 0; i < N_KNOWN; i++) {
		size_t n = strlen(conf_known[i]);
		if (conf_known[i][n - 1] == '.' ? strncmp(name, conf_known[i], n) == 0 && name[n] != '\0'
						: strcmp(name, conf_known[i]) == 0)
			return true;
	}
	return false;
}

/* Edit distance of two short names (insert, delete, change, swap). */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t *d;
	size_t r;

	if (la > 64 || lb > 64)
		return 99;
	d = xcalloc((la + 1) * (lb + 1), sizeof *d);
#define D(x, y) d[(x) * (lb + 1) + (y)]
	for (i = 0; i <= la; i++)
		D(i, 0) = i;
	for (j = 0; j <= lb; j++)
		D(0, j) = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			size_t best = D(i - 1, j - 1) + (a[i - 1] != b[j - 1]);
			if (D(i - 1, j) + 1 < best)
				best = D(i - 1, j) + 1;
			if (D(i, j - 1) + 1 < best)
				best = D(i, j - 1) + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    D(i - 2, j - 2) + 1 < best)
				best = D(i - 2, j - 2) + 1;
			D(i, j) = best;
		}
	}
	r = D(la, lb);
#undef D
	free(d);
	return r;
}

/* The known name nearest to name (at most 2 edits away), or NULL. */
static const char *nearest(const char *name)
{
	const char *best = NULL;
	size_t bd = 3;

	for (size_t i = 0; i < N_KNOWN; i++) {
		size_t dd = distance(name, conf_known[i]);
		if (dd < bd && conf_known[i][strlen(conf_known[i]) - 1] != '.') {
			bd = dd;
			best = conf_known[i];
		}
	}
	return best;
}

/* The name of a `name = value` line, trimmed, malloc'ed; NULL for others. */
static char *line_name(const char *line, size_t len)
{
	const char *eq = memchr(line, '=', len), *s = line, *e;

	while (s < line + len && (*s == ' ' || *s == '\t'))
		s++;
	if (eq == NULL || *s == '#')
		return NULL;
	e = eq;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return e > s ? xstrndup(s, (size_t)(e - s)) : NULL;
}

void cli_conf_warn_unknown(struct cli_ctx *ctx)
{
	char *path = api_conf_path(), *text = NULL, *cause = NULL;
	struct api_conf *c = NULL;
	const char *p;
	char *section = NULL;
	size_t len;
	int lineno = 0;

	/* a file api/ refuses is reported by the command that reads it */
	if (path == NULL || api_conf_load(path, &c, &cause) != 0 ||
	    util_read_file(path, &text, &len, &cause) != 0)
		goto out;
	for (p = text; *p != '\0';) {
		const char *nl = strchr(p, '\n');
		size_t n = nl != NULL ? (size_t)(nl - p) : strlen(p);
		char *name = line_name(p, n);
		const char *s = p;

		lineno++;
		while (s < p + n && (*s == ' ' || *s == '\t'))
			s++;
		if (s < p + n && *s == '[') {
			/* a profile: its name as api/config.c reads it */
			const char *e = memchr(s, ']', (size_t)(p + n - s));
			free(section);
			section = e != NULL ? xstrndup(s + 1, (size_t)(e - s - 1)) : NULL;
			if (section != NULL) {
				char *t = section, *end;
				while (*t == ' ' || *t == '\t')
					t++;
				memmove(section, t, strlen(t) + 1);
				end = section + strlen(section);
				while (end > section && (end[-1] == ' ' || end[-1] == '\t'))
					*--end = '\0';
			}
		} else if (section != NULL && name != NULL &&
			   api_conf_get_in(c, section, name) != NULL && !known_in_profile(name)) {
			cli_note(ctx, _("%s, line %d: unknown setting \"%s\" in profile [%s] is ignored; "
					"known there: api, key, timeout, connect_timeout"), path, lineno,
				 name, section);
		} else if (section == NULL && name != NULL && api_conf_get(c, name) != NULL &&
			   !known(name)) {
			const char *near = nearest(name);
			if (near != NULL)
				cli_note(ctx, _("%s, line %d: unknown setting \"%s\" is ignored; did you "
						"mean \"%s\"?"), path, lineno, name, near);
			else
				cli_note(ctx, _("%s, line %d: unknown setting \"%s\" is ignored; known: "
						"api, key, timeout, connect_timeout, country, currency, "
						"lang, profile, columns.WORKLOAD"), path, lineno, name);
		}
		free(name);
		p += n + (nl != NULL);
	}
out:
	free(section);
	xfree_secret(text);
	free(cause);
	api_conf_free(&c);
	free(path);
}
