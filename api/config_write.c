/*
 * api/config_write.c — saving a new account's API key in the config file.
 *
 * `gpux signup` first asks api_conf_key_check whether the key could be
 * saved (so an account is never created whose key would be lost), then
 * creates the account, then calls api_conf_store_key. The file is read and
 * rewritten by config.c (api_conf_load keeps comments and order,
 * api_conf_save writes a temporary file in the same directory with mode
 * 0600, fsyncs it and renames it over the file); this file adds the rules
 * around it: the key goes to the profile of its exchange (a new profile
 * named after the exchange's host when the file already names another
 * exchange), never over an existing key unless forced, never through a
 * symbolic link (the key would land wherever it points), the directory
 * synced after the rename so the new name survives a crash, and a key never
 * quoted in a message.
 */
#include "api/api.h"

#include "i18n/i18n.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directory part of path, malloc'ed ("." when there is none). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* Create dir and its parents (0700) as needed; 0 if it is a writable directory. */
static int ensure_dir(const char *dir, char **cause)
{
	char *d = xstrdup(dir);
	struct stat st;

	for (char *q = d + 1; *q != '\0'; q++) {
		if (*q == '/') {
			*q = '\0';
			mkdir(d, 0700);
			*q = '/';
		}
	}
	mkdir(d, 0700);
	free(d);
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0)
		return set_cause(cause, _("cannot write the config file's directory %s: %s"), dir,
				 strerror(errno != 0 ? errno : EACCES));
	return 0;
}

/* The profile a key for url goes to: `profile` when given; else the one
 * that holds url's exchange already (the top level included: NULL); else the
 * top level when it names no exchange and holds no key (a first signup);
 * else a new profile named after url's host ("exchange.example",
 * "exchange.example-2" if that is taken). Malloc'ed, or NULL for the top
 * level. */
static char *target_profile(const struct api_conf *c, const char *profile, const char *url)
{
	const char **names = NULL;
	size_t n = api_conf_sections(c, &names);
	char *pick = NULL;

	if (profile != NULL) {
		free(names);
		return xstrdup(profile);
	}
	if (url != NULL && api_same_exchange(api_conf_get(c, "api"), url)) {
		free(names);
		return NULL;
	}
	for (size_t i = 0; i < n && pick == NULL; i++)
		if (url != NULL && api_same_exchange(api_conf_get_in(c, names[i], "api"), url))
			pick = xstrdup(names[i]);
	free(names);
	if (pick != NULL)
		return pick;
	if (api_conf_get(c, "api") == NULL && api_conf_get(c, "key") == NULL)
		return NULL;
	{
		const char *h = url != NULL ? strstr(url, "://") : NULL;
		struct buf b = {0};
		h = h != NULL ? h + 3 : url != NULL ? url : "exchange";
		for (; *h != '\0' && *h != '/' && *h != '?' && *h != '#'; h++) {
			char ch = (char)tolower((unsigned char)*h);
			buf_putc(&b, (isalnum((unsigned char)ch) || ch == '.' || ch == '-') ? ch : '-');
		}
		if (b.len == 0)
			buf_puts(&b, "exchange");
		pick = buf_take(&b);
	}
	{
		char *base = pick;
		pick = xstrdup(base);
		for (int k = 2; api_conf_has_section(c, pick); k++) {
			free(pick);
			pick = xasprintf("%s-%d", base, k);
		}
		free(base);
	}
	return pick;
}

/* The config file as it is (a missing file is an empty one), refusing a
 * symbolic link and a file whose profile for url already holds a key
 * (unless force); *section: where the key goes (see target_profile). */
static int load_checked(const char *path, const char *profile, const char *url, bool force,
			struct api_conf **out, char **section, char **cause)
{
	struct stat st;

	*out = NULL;
	*section = NULL;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return set_cause(cause, _("%s is a symbolic link: gpux does not write a key through "
					  "it; give the real file with XDG_CONFIG_HOME, or replace the link"),
				 path);
	if (api_conf_load(path, out, cause) != 0)
		return -1;
	*section = target_profile(*out, profile, url);
	if (!force && api_conf_get_in(*out, *section, "key") != NULL) {
		api_conf_free(out);
		if (*section != NULL)
			set_cause(cause, _("%s already holds an API key in profile [%s]; gpux keeps it "
					   "(add --force to replace it, after saving it elsewhere if you "
					   "still need it)"), path, *section);
		else
			set_cause(cause, _("%s already holds an API key; gpux keeps it (add --force to "
					   "replace it, after saving it elsewhere if you still need it)"),
				  path);
		free(*section);
		*section = NULL;
		return -1;
	}
	return 0;
}

int api_conf_key_check(const char *path, const char *profile, const char *url, bool force,
		       char **cause)
{
	struct api_conf *c = NULL;
	char *dir, *section = NULL;
	int rc;

	if (path == NULL)
		return set_cause(cause, "%s", _("no config file: set HOME or XDG_CONFIG_HOME"));
	if (load_checked(path, profile, url, force, &c, &section, cause) != 0)
		return -1;
	api_conf_free(&c);
	free(section);
	dir = dir_of(path);
	rc = ensure_dir(dir, cause);
	free(dir);
	return rc;
}

int api_conf_store_key(const char *path, const char *profile, const char *url, const char *key,
		       bool force, char **saved_in, char **cause)
{
	struct api_conf *c = NULL;
	char *dir, *section = NULL;
	int rc, fd;

	if (saved_in != NULL)
		*saved_in = NULL;
	if (path == NULL || key == NULL)
		return set_cause(cause, "%s", _("no config file: set HOME or XDG_CONFIG_HOME"));
	if (load_checked(path, profile, url, force, &c, &section, cause) != 0)
		return -1;
	if (url != NULL)
		api_conf_set_in(c, section, "api", url);
	api_conf_set_in(c, section, "key", key);
	rc = api_conf_save(c, path, cause);
	api_conf_free(&c);
	if (rc != 0) {
		free(section);
		return -1;
	}
	/* the rename is durable only once the directory is */
	dir = dir_of(path);
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
	if (saved_in != NULL)
		*saved_in = section;
	else
		free(section);
	return 0;
}
