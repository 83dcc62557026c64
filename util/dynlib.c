/*
 * Libraries opened at run time, their functions resolved into a table the
 * caller declares with the functions' own types. All or nothing: a table is
 * filled only when the library and every function in it were found.
 */
#include "util.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* Resolves every function of fns[0..n) in the opened library into addrs[];
 * the name of the first one missing, or NULL. */
static const char *resolve_all(void *lib, const struct dynlib_fn *fns, size_t n, void **addrs)
{
	for (size_t i = 0; i < n; i++) {
		dlerror();
		addrs[i] = dlsym(lib, fns[i].name);
		if (addrs[i] == NULL)
			return fns[i].name;
	}
	return NULL;
}

/* dlerror()'s words for a library that did not load, without the name it
 * starts with ("libpq.so.5: cannot open shared object file: …"): the
 * caller's message names the library once. */
static char *load_error(const char *soname)
{
	const char *e = dlerror();
	size_t n = strlen(soname);
	if (e == NULL)
		return xstrdup("it cannot be opened");
	if (strncmp(e, soname, n) == 0 && e[n] == ':' && e[n + 1] == ' ')
		e += n + 2;
	return xstrdup(e);
}

int util_dynlib_open(const char *const *sonames, const struct dynlib_fn *fns, size_t n,
                     char **cause)
{
	char *why = NULL;
	void **addrs = xcalloc(n > 0 ? n : 1, sizeof *addrs);
	for (const char *const *so = sonames; *so != NULL; so++) {
		void *lib = dlopen(*so, RTLD_NOW | RTLD_LOCAL);
		if (lib == NULL) {
			free(why);
			why = load_error(*so);
			continue;
		}
		const char *missing = resolve_all(lib, fns, n, addrs);
		if (missing == NULL) {
			for (size_t i = 0; i < n; i++)
				memcpy(fns[i].slot, &addrs[i], sizeof addrs[i]);
			free(addrs);
			free(why);
			return 0;
		}
		free(why);
		why = xasprintf("%s has no function %s", *so, missing);
		dlclose(lib);
	}
	free(addrs);
	int rc = set_cause(cause, "cannot load %s: %s", sonames[0] != NULL ? sonames[0] : "(none)",
	                   why != NULL ? why : "no library named");
	free(why);
	return rc;
}
