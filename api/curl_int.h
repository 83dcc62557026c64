/*
 * api/curl_int.h — libcurl as the files of api/ call it: a table of its
 * functions, filled at run time by api/curl.c (gpux does not link libcurl;
 * it opens libcurl.so.4 in a thread that main starts first thing). Every
 * pointer has the function's own type (__typeof__ of curl.h's declaration),
 * so each call is checked against curl.h's prototype. The members drop the
 * "curl_" prefix so that curl.h's function-like macros do not expand on them.
 *
 * A file reaches the table only after api_curl_ready() returned 0: a client
 * (api_client_new) and a stream are made after it, and every call goes
 * through one of them.
 */
#ifndef GPUX_API_CURL_INT_H
#define GPUX_API_CURL_INT_H

#include <curl/curl.h>

struct api_curl_fns {
	__typeof__(curl_global_init) *global_init;
	__typeof__(curl_easy_init) *easy_init;
	__typeof__(curl_easy_setopt) *easy_setopt;
	__typeof__(curl_easy_getinfo) *easy_getinfo;
	__typeof__(curl_easy_cleanup) *easy_cleanup;
	__typeof__(curl_easy_escape) *easy_escape;
	__typeof__(curl_easy_strerror) *easy_strerror;
	__typeof__(curl_free) *free;
	__typeof__(curl_getdate) *getdate;
	__typeof__(curl_slist_append) *slist_append;
	__typeof__(curl_slist_free_all) *slist_free_all;
	__typeof__(curl_multi_init) *multi_init;
	__typeof__(curl_multi_setopt) *multi_setopt;
	__typeof__(curl_multi_add_handle) *multi_add_handle;
	__typeof__(curl_multi_remove_handle) *multi_remove_handle;
	__typeof__(curl_multi_socket_action) *multi_socket_action;
	__typeof__(curl_multi_info_read) *multi_info_read;
	__typeof__(curl_multi_cleanup) *multi_cleanup;
	__typeof__(curl_url) *url;
	__typeof__(curl_url_set) *url_set;
	__typeof__(curl_url_get) *url_get;
	__typeof__(curl_url_cleanup) *url_cleanup;
};
extern struct api_curl_fns api_curl;

/*
 * curl_easy_setopt and curl_easy_getinfo take their last argument through
 * "...", and curl.h checks its type against the option at compile time, in a
 * macro (typecheck-gcc.h) that ends in a call of the function by its name.
 * These run that same macro with the name bound, for the one call, to the
 * table's pointer: the option/argument checks stay, and no call reaches a
 * symbol gpux does not link. (curl_multi_setopt has no such check in curl.h:
 * it is called as api_curl.multi_setopt.)
 */
#define API_CURL_CHECKED(fn, member, ...)                                        \
	__extension__({                                                          \
		_Pragma("GCC diagnostic push")                                   \
		_Pragma("GCC diagnostic ignored \"-Wshadow\"")                   \
		__typeof__(fn) *const fn = api_curl.member;                      \
		_Pragma("GCC diagnostic pop")                                    \
		fn(__VA_ARGS__);                                                 \
	})
#define api_easy_setopt(h, opt, val) API_CURL_CHECKED(curl_easy_setopt, easy_setopt, h, opt, val)
#define api_easy_getinfo(h, info, arg) API_CURL_CHECKED(curl_easy_getinfo, easy_getinfo, h, info, arg)

#endif
