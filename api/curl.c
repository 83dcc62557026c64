/*
 * libcurl, opened at run time. gpux does not link it: Debian's libcurl brings
 * some thirty libraries (OpenSSL, GnuTLS, Kerberos, LDAP, RTMP, ssh2, ...)
 * whose loading (relocations, symbol look-ups, mmaps) and curl_global_init
 * cost more than all of gpux's own start. A thread started first thing in
 * main opens libcurl.so.4 into api_curl, the table of the functions api/
 * calls, and initialises it, while the main thread reads its configuration
 * and catalogue, sets up the terminal and starts the local demo exchange.
 * api_curl_ready() joins that thread, once.
 */
#include "api/internal.h"
#include "api/curl_int.h"

#include "i18n/i18n.h"
#include "util/util.h"

#include <pthread.h>
#include <stdlib.h>

struct api_curl_fns api_curl;

#define FN(name) {"curl_" #name, &api_curl.name}
static const struct dynlib_fn curl_fns[] = {
	FN(global_init), FN(easy_init), FN(easy_setopt), FN(easy_getinfo), FN(easy_cleanup),
	FN(easy_escape), FN(easy_strerror), FN(free), FN(getdate), FN(slist_append),
	FN(slist_free_all), FN(multi_init), FN(multi_setopt), FN(multi_add_handle),
	FN(multi_remove_handle), FN(multi_socket_action), FN(multi_info_read),
	FN(multi_cleanup), FN(url), FN(url_set), FN(url_get), FN(url_cleanup),
};
#undef FN

static const char *const curl_sonames[] = {"libcurl.so.4", NULL};

static pthread_t loader;
static bool loader_started;
static pthread_once_t settled = PTHREAD_ONCE_INIT;
static int load_rc = -1;
static char *load_cause;   /* why loading failed, kept for every caller */

int api_curl_open(const char *const *sonames, char **cause)
{
	char *why = NULL;

	if (util_dynlib_open(sonames, curl_fns, sizeof curl_fns / sizeof curl_fns[0], &why) != 0) {
		/* TRANSLATORS: %s says which library could not be loaded and why */
		set_cause(cause, _("%s, and without it no exchange can be reached; install the "
				   "package libcurl4"), why != NULL ? why : "libcurl");
		free(why);
		return -1;
	}
	/* libcurl 7.88 initialises its TLS library whatever the flags say
	 * (CURL_GLOBAL_SSL is ignored since 7.57) */
	if (api_curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return set_cause(cause, _("%s was loaded but could not initialise itself "
					  "(curl_global_init failed)"), sonames[0]);
	return 0;
}

static void *load(void *arg)
{
	(void)arg;
	load_rc = api_curl_open(curl_sonames, &load_cause);
	return NULL;
}

void api_curl_start(void)
{
	if (!loader_started && pthread_create(&loader, NULL, load, NULL) == 0)
		loader_started = true;
}

/* Once: the loader's result (joined), or loaded here when there is no loader. */
static void settle(void)
{
	if (loader_started)
		pthread_join(loader, NULL);
	else
		load(NULL);
}

int api_curl_ready(char **cause)
{
	pthread_once(&settled, settle);
	if (load_rc != 0)
		return set_cause(cause, "%s", load_cause != NULL ? load_cause : "libcurl");
	return 0;
}

void api_curl_settle(void)
{
	if (loader_started)
		pthread_once(&settled, settle);
}
