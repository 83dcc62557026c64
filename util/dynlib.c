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

int util_dynlib_open(const char *const *sonames, const struct dynlib_fn *fns, size_t n,
                     char **cause)
{
	char *why = NULL;
	void **addrs = xcalloc(n > 0 ? n : 1, sizeof *addrs);
	for (const char *const *so = sonames; *so != NULL; so++) {
		void *lib = dlopen(*so, RTLD_NOW | RTLD_LOCAL);
		if (lib == NULL) {
			const char *e = dlerror();
			free(why);
			why = xstrdup(e != NULL ? e : *so);
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
