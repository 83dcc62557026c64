/*
 * gpux's configuration file, $XDG_CONFIG_HOME/gpux/config (default
 * ~/.config/gpux/config): lines of `key = value`, `#` comments, blank lines.
 * The same small parser serves the exchange settings (api, key, timeout,
 * connect_timeout) and the TUI's own settings (lang, theme, …): unknown keys
 * are kept, and api_conf_save() rewrites the file keeping its comments and
 * order, so a setting changed from the TUI does not disturb the rest.
 *
 * A file holding `key` must not be readable by group or others: it is
 * refused with a message telling how to fix it (chmod 600). Errors never
 * quote a line of the file, because that line may be the key.
 *
 * Profiles: a line `[NAME]` starts a section, one per exchange, holding its
 * `api`, its `key` and its timeouts; the lines before the first section are
 * the top level (the TUI's settings, and a profile of its own for files
 * written before sections existed). A saved key belongs to the exchange of
 * its section: api_settings_resolve sends it only to that URL, so pointing
 * gpux at another exchange (--api, GPUX_API) never hands it this one's key.
 */
#include "api/api.h"

#include "i18n/i18n.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_CONF_BYTES (256 * 1024)

struct conf_line {
	char *text;     /* the line as read (for comments and blank lines), or NULL */
	char *key;      /* NULL for a comment, blank line or section header */
	char *value;
	char *section;  /* the section it is in (a header: the one it starts), or NULL */
	bool header;    /* a `[NAME]` line */
};

struct api_conf {
	struct conf_line *v;
	size_t n;
};

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static bool valid_key(const char *k)
{
	if (*k == '\0')
		return false;
	for (; *k != '\0'; k++)
		if (!islower((unsigned char)*k) && !isdigit((unsigned char)*k) && *k != '_' &&
		    *k != '-' && *k != '.')
			return false;
	return true;
}

struct api_conf *api_conf_new(void)
{
	return xcalloc(1, sizeof(struct api_conf));
}

void api_conf_free(struct api_conf **pc)
{
	struct api_conf *c;

	if (pc == NULL || (c = *pc) == NULL)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].text);
		free(c->v[i].key);
		free(c->v[i].section);
		xfree_secret(c->v[i].value);
	}
	free(c->v);
	free(c);
	*pc = NULL;
}

/* Insert a line at position at (c->n: at the end); section is copied. */
static void insert(struct api_conf *c, size_t at, char *text, char *key, char *value,
		   const char *section, bool header)
{
	c->v = xreallocarray(c->v, c->n + 1, sizeof *c->v);
	memmove(c->v + at + 1, c->v + at, (c->n - at) * sizeof *c->v);
	c->v[at] = (struct conf_line){.text = text, .key = key, .value = value,
				      .section = section != NULL ? xstrdup(section) : NULL,
				      .header = header};
	c->n++;
}

static void push(struct api_conf *c, char *text, char *key, char *value, const char *section)
{
	insert(c, c->n, text, key, value, section, false);
}

static bool same_section(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

int api_conf_parse(const char *path, const char *data, struct api_conf **out, char **cause)
{
	struct api_conf *c = api_conf_new();
	const char *p = data;
	int lineno = 0;

	char *section = NULL;

	while (*p != '\0') {
		const char *nl = strchr(p, '\n');
		size_t len = nl != NULL ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, len), *s, *eq, *k, *v;

		lineno++;
		p += len + (nl != NULL);
		s = trim(line);
		if (*s == '\0' || *s == '#') {
			push(c, line, NULL, NULL, section);
			continue;
		}
		if (*s == '[') {
			size_t n = strlen(s);
			char *name = n >= 3 && s[n - 1] == ']' ? xstrndup(s + 1, n - 2) : NULL;
			if (name == NULL || !valid_key(trim(name))) {
				free(name);
				free(line);
				free(section);
				api_conf_free(&c);
				return set_cause(cause, _("%s, line %d: a profile is a line [NAME], NAME of "
							  "lower-case letters, digits, '_', '-' and '.'"),
						 path, lineno);
			}
			free(section);
			section = xstrdup(trim(name));
			free(name);
			insert(c, c->n, line, NULL, NULL, section, true);
			continue;
		}
		eq = strchr(s, '=');
		if (eq == NULL) {
			explicit_bzero(line, len);
			free(line);
			free(section);
			api_conf_free(&c);
			return set_cause(cause, _("%s, line %d: expected \"name = value\""), path,
					 lineno);
		}
		*eq = '\0';
		k = trim(s);
		v = trim(eq + 1);
		if (!valid_key(k)) {
			explicit_bzero(line, len);
			free(line);
			free(section);
			api_conf_free(&c);
			return set_cause(cause, _("%s, line %d: a setting name is lower-case letters, "
						  "digits, '_', '-' and '.'"), path, lineno);
		}
		if (strlen(v) >= 2 && v[0] == '"' && v[strlen(v) - 1] == '"') {
			v[strlen(v) - 1] = '\0';
			v++;
		}
		push(c, NULL, xstrdup(k), xstrdup(v), section);
		explicit_bzero(line, len);
		free(line);
	}
	free(section);
	*out = c;
	return 0;
}

int api_conf_load(const char *path, struct api_conf **out, char **cause)
{
	int fd;
	struct stat st;
	struct buf b = {0};
	char chunk[4096];
	ssize_t r;
	int rc;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT) {
			*out = api_conf_new();
			return 0;
		}
		return set_cause(cause, _("cannot read %s: %s"), path, strerror(errno));
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return set_cause(cause, _("%s is not a regular file"), path);
	}
	while ((r = read(fd, chunk, sizeof chunk)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			rc = set_cause(cause, _("cannot read %s: %s"), path, strerror(errno));
			goto out;
		}
		buf_append(&b, chunk, (size_t)r);
		if (b.len > MAX_CONF_BYTES) {
			rc = set_cause(cause, _("%s is larger than %d KiB: not a gpux config file"),
				       path, MAX_CONF_BYTES / 1024);
			goto out;
		}
	}
	if (b.len > 0 && memchr(b.data, '\0', b.len) != NULL) {
		rc = set_cause(cause, _("%s contains a NUL byte: not a gpux config file"), path);
		goto out;
	}
	rc = api_conf_parse(path, b.data != NULL ? b.data : "", out, cause);
	if (rc == 0 && api_conf_has_key(*out) && (st.st_mode & 077) != 0) {
		api_conf_free(out);
		rc = set_cause(cause, _("%s holds an API key but can be read by other users; "
					"run: chmod 600 %s"), path, path);
	}
out:
	if (b.data != NULL)
		explicit_bzero(b.data, b.len);
	buf_free(&b);
	close(fd);
	return rc;
}

const char *api_conf_get_in(const struct api_conf *c, const char *section, const char *key)
{
	const char *v = NULL;

	/* the last assignment wins, as in a shell */
	for (size_t i = 0; c != NULL && i < c->n; i++)
		if (c->v[i].key != NULL && strcmp(c->v[i].key, key) == 0 &&
		    same_section(c->v[i].section, section))
			v = c->v[i].value;
	return v;
}

const char *api_conf_get(const struct api_conf *c, const char *key)
{
	return api_conf_get_in(c, NULL, key);
}

bool api_conf_has_key(const struct api_conf *c)
{
	for (size_t i = 0; c != NULL && i < c->n; i++)
		if (c->v[i].key != NULL && strcmp(c->v[i].key, "key") == 0)
			return true;
	return false;
}

size_t api_conf_sections(const struct api_conf *c, const char ***names)
{
	size_t n = 0;

	*names = NULL;
	for (size_t i = 0; c != NULL && i < c->n; i++) {
		bool seen = false;
		if (!c->v[i].header)
			continue;
		for (size_t j = 0; j < n; j++)
			seen = seen || strcmp((*names)[j], c->v[i].section) == 0;
		if (seen)
			continue;
		*names = xreallocarray(*names, n + 1, sizeof **names);
		(*names)[n++] = c->v[i].section;
	}
	return n;
}

bool api_conf_has_section(const struct api_conf *c, const char *section)
{
	for (size_t i = 0; c != NULL && i < c->n; i++)
		if (c->v[i].header && strcmp(c->v[i].section, section) == 0)
			return true;
	return false;
}

void api_conf_set(struct api_conf *c, const char *key, const char *value)
{
	api_conf_set_in(c, NULL, key, value);
}

void api_conf_set_in(struct api_conf *c, const char *section, const char *key, const char *value)
{
	bool done = false;

	for (size_t i = 0; i < c->n; i++) {
		struct conf_line *l = &c->v[i];
		if (l->key == NULL || strcmp(l->key, key) != 0 || !same_section(l->section, section))
			continue;
		if (value == NULL || done) {
			/* removed (or a duplicate): turn the line into nothing */
			free(l->key);
			free(l->value);
			l->key = l->value = NULL;
			l->text = NULL;
			continue;
		}
		free(l->value);
		l->value = xstrdup(value);
		done = true;
	}
	if (done || value == NULL)
		return;
	/* a new line: at the end of its section (the top level ends at the
	 * first header); a section that does not exist yet starts at the end */
	size_t at = c->n;
	bool found = section == NULL;
	for (size_t i = 0; i < c->n; i++) {
		if (section == NULL && c->v[i].header) {
			at = i;
			break;
		}
		if (section != NULL && same_section(c->v[i].section, section)) {
			found = true;
			at = i + 1;
		}
	}
	if (!found) {
		if (c->n > 0)
			push(c, xstrdup(""), NULL, NULL, NULL);
		insert(c, c->n, xasprintf("[%s]", section), NULL, NULL, section, true);
		at = c->n;
	}
	insert(c, at, NULL, xstrdup(key), xstrdup(value), section, false);
}

int api_conf_save(const struct api_conf *c, const char *path, char **cause)
{
	struct buf b = {0};
	char *tmp, *dir, *slash;
	int fd, rc = 0;
	size_t off = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct conf_line *l = &c->v[i];
		if (l->key != NULL)
			buf_printf(&b, "%s = %s\n", l->key, l->value);
		else if (l->text != NULL)
			buf_printf(&b, "%s\n", l->text);
	}
	dir = xstrdup(path);
	if ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
		*slash = '\0';
		/* create the parent directories, 0700 */
		for (char *q = dir + 1; *q != '\0'; q++) {
			if (*q == '/') {
				*q = '\0';
				mkdir(dir, 0700);
				*q = '/';
			}
		}
		mkdir(dir, 0700);
	}
	free(dir);
	tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = set_cause(cause, _("cannot write %s: %s"), tmp, strerror(errno));
		goto out;
	}
	while (off < b.len) {
		ssize_t w = write(fd, b.data + off, b.len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			rc = set_cause(cause, _("cannot write %s: %s"), tmp, strerror(errno));
			break;
		}
		off += (size_t)w;
	}
	if (rc == 0 && fsync(fd) != 0)
		rc = set_cause(cause, _("cannot write %s: %s"), tmp, strerror(errno));
	close(fd);
	if (rc == 0 && rename(tmp, path) != 0)
		rc = set_cause(cause, _("cannot replace %s: %s"), path, strerror(errno));
	if (rc != 0)
		unlink(tmp);
out:
	if (b.data != NULL)
		explicit_bzero(b.data, b.len);
	buf_free(&b);
	free(tmp);
	return rc;
}

/* $VAR if set to an absolute path, else $HOME/fallback; NULL without HOME. */
static char *xdg_dir(const char *var, const char *fallback)
{
	const char *v = getenv(var), *home;

	if (v != NULL && v[0] == '/')
		return xstrdup(v);
	home = getenv("HOME");
	if (home == NULL || home[0] != '/')
		return NULL;
	return xasprintf("%s/%s", home, fallback);
}

char *api_conf_path(void)
{
	char *d = xdg_dir("XDG_CONFIG_HOME", ".config"), *p;

	if (d == NULL)
		return NULL;
	p = xasprintf("%s/gpux/config", d);
	free(d);
	return p;
}

char *api_state_dir(void)
{
	char *d = xdg_dir("XDG_STATE_HOME", ".local/state"), *p;

	if (d == NULL)
		return NULL;
	p = xasprintf("%s/gpux", d);
	free(d);
	return p;
}

char *api_data_dir(void)
{
	char *d = xdg_dir("XDG_DATA_HOME", ".local/share"), *p;

	if (d == NULL)
		return NULL;
	p = xasprintf("%s/gpux", d);
	free(d);
	return p;
}

/* ---- the exchange settings ------------------------------------------------------------ */

static int parse_seconds(const char *what, const char *s, long *ms, char **cause)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *trim(end) != '\0' || !(v > 0) || v > 3600)
		return set_cause(cause, _("%s: \"%s\" is not a number of seconds; accepted: "
					  "0.1 to 3600"), what, s);
	*ms = (long)(v * 1000 + 0.5);
	return 0;
}

void api_settings_clear(struct api_settings *s)
{
	free(s->url);
	xfree_secret(s->key);
	free(s->config_path);
	free(s->profile);
	free(s->demo_country);
	free(s->demo_currency);
	memset(s, 0, sizeof *s);
}

/* A URL in the form two spellings of one exchange share: scheme and host in
 * lower case, the scheme's default port and a trailing '/' dropped. */
static char *url_canon(const char *url)
{
	const char *sep = strstr(url, "://");
	struct buf b = {0};
	size_t i, hs, he;
	bool https;

	if (sep == NULL) /* unix:/path and the like: as written */
		return xstrdup(url);
	for (i = 0; url + i < sep; i++)
		buf_putc(&b, (char)tolower((unsigned char)url[i]));
	https = b.len == 5 && strncmp(b.data, "https", 5) == 0;
	buf_puts(&b, "://");
	hs = (size_t)(sep - url) + 3;
	he = hs + strcspn(url + hs, "/?#");
	{
		char *host = xstrndup(url + hs, he - hs);
		size_t n = strlen(host);
		for (size_t k = 0; k < n; k++)
			host[k] = (char)tolower((unsigned char)host[k]);
		if ((https && n > 4 && strcmp(host + n - 4, ":443") == 0) ||
		    (!https && n > 3 && strcmp(host + n - 3, ":80") == 0))
			host[strrchr(host, ':') - host] = '\0';
		buf_puts(&b, host);
		free(host);
	}
	buf_puts(&b, url + he);
	while (b.len > 0 && b.data[b.len - 1] == '/' && b.len > (size_t)(sep - url) + 3) {
		b.data[--b.len] = '\0';
	}
	return buf_take(&b);
}

bool api_same_exchange(const char *a, const char *b)
{
	char *x, *y;
	bool same;

	if (a == NULL || b == NULL)
		return false;
	x = url_canon(a);
	y = url_canon(b);
	same = strcmp(x, y) == 0;
	free(x);
	free(y);
	return same;
}

/* The profile whose exchange is url: the named one if its api is url, else
 * the top level's, else the first section's; *found false if none is. Its
 * name ("" for the top level) is returned, borrowed. */
static const char *profile_for(const struct api_conf *conf, const char *named, const char *url,
			       bool *found)
{
	const char **names = NULL;
	size_t n;
	const char *hit = NULL;

	*found = false;
	if (url == NULL)
		return NULL;
	if (named != NULL && api_same_exchange(api_conf_get_in(conf, named, "api"), url)) {
		*found = true;
		return named;
	}
	if (api_same_exchange(api_conf_get(conf, "api"), url)) {
		*found = true;
		return "";
	}
	n = api_conf_sections(conf, &names);
	for (size_t i = 0; i < n && hit == NULL; i++)
		if (api_same_exchange(api_conf_get_in(conf, names[i], "api"), url))
			hit = names[i];
	free(names);
	*found = hit != NULL;
	return hit;
}

int api_settings_resolve(const char *url, const char *key, const char *profile,
			 struct api_settings *out, char **cause)
{
	struct api_conf *conf = NULL;
	const char *v, *sect = NULL;
	char *path;
	bool found;

	memset(out, 0, sizeof *out);
	path = api_conf_path();
	out->config_path = path;
	if (path != NULL && api_conf_load(path, &conf, cause) != 0) {
		api_settings_clear(out);
		return -1;
	}
	if (profile == NULL || *profile == '\0')
		profile = getenv("GPUX_PROFILE");
	if (profile == NULL || *profile == '\0')
		profile = api_conf_get(conf, "profile");
	if (profile != NULL && *profile == '\0')
		profile = NULL;
	if (profile != NULL && !api_conf_has_section(conf, profile)) {
		set_cause(cause, _("there is no profile [%s] in %s"), profile,
			  path != NULL ? path : "the config file");
		goto fail;
	}
	if (url == NULL || *url == '\0')
		url = getenv("GPUX_API");
	if (url == NULL || *url == '\0')
		url = profile != NULL ? api_conf_get_in(conf, profile, "api") : api_conf_get(conf, "api");
	out->url = url != NULL && *url != '\0' ? xstrdup(url) : NULL;
	/* the saved key of the exchange the URL names, and only that one: a key
	 * never goes to another exchange than the one it was saved for */
	sect = profile_for(conf, profile, out->url, &found);
	if (found && *sect != '\0')
		out->profile = xstrdup(sect);
	else if (!found && profile != NULL)
		out->profile = xstrdup(profile);
	if (key == NULL || *key == '\0')
		key = getenv("GPUX_API_KEY");
	if ((key == NULL || *key == '\0') && found)
		key = *sect != '\0' ? api_conf_get_in(conf, sect, "key") : api_conf_get(conf, "key");
	out->key = key != NULL && *key != '\0' ? xstrdup(key) : NULL;
	if (!found)
		sect = profile;
	else if (*sect == '\0')
		sect = NULL;
	if ((v = getenv("GPUX_TIMEOUT")) == NULL || *v == '\0')
		v = sect != NULL && api_conf_get_in(conf, sect, "timeout") != NULL
			    ? api_conf_get_in(conf, sect, "timeout") : api_conf_get(conf, "timeout");
	if (v != NULL && parse_seconds("timeout", v, &out->timeout_ms, cause) != 0)
		goto fail;
	v = sect != NULL && api_conf_get_in(conf, sect, "connect_timeout") != NULL
		    ? api_conf_get_in(conf, sect, "connect_timeout") : api_conf_get(conf, "connect_timeout");
	if (v != NULL && parse_seconds("connect_timeout", v, &out->connect_timeout_ms, cause) != 0)
		goto fail;
	if ((v = api_conf_get(conf, "country")) != NULL)
		out->demo_country = xstrdup(v);
	if ((v = api_conf_get(conf, "currency")) != NULL)
		out->demo_currency = xstrdup(v);
	api_conf_free(&conf);
	return 0;
fail:
	api_conf_free(&conf);
	api_settings_clear(out);
	return -1;
}

size_t api_conf_names(const struct api_conf *c, const char *prefix, const char ***names)
{
	size_t n = 0, len = strlen(prefix);

	*names = xcalloc(c != NULL && c->n > 0 ? c->n : 1, sizeof **names);
	for (size_t i = 0; c != NULL && i < c->n; i++) {
		const char *k = c->v[i].key;
		bool seen = false;
		if (k == NULL || c->v[i].section != NULL || strncmp(k, prefix, len) != 0)
			continue;
		for (size_t j = 0; j < n && !seen; j++)
			seen = strcmp((*names)[j], k) == 0;
		if (!seen)
			(*names)[n++] = k;
	}
	return n;
}
