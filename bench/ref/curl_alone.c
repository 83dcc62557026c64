/*
 * curl_alone — the floor a libcurl client stands on: a C program that does
 * nothing but initialise Debian's libcurl, ask gpuxd for GET /v1/market once
 * over its Unix socket, and print "answered". bench_tui starts it the way it
 * starts gpux and htop, so its time to the answer and its resident memory sit
 * beside theirs in the same run.
 *
 *   curl_alone SOCKET_PATH
 *
 * It then waits for its standard input to close, so that its memory can be
 * read while it runs. Linked with libcurl only.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <unistd.h>

static size_t discard(char *data, size_t size, size_t n, void *user)
{
	(void)data;
	(void)user;
	return size * n;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: curl_alone SOCKET_PATH\n");
		return 2;
	}
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return 1;
	CURL *h = curl_easy_init();
	if (h == NULL)
		return 1;
	curl_easy_setopt(h, CURLOPT_UNIX_SOCKET_PATH, argv[1]);
	curl_easy_setopt(h, CURLOPT_URL, "http://localhost/v1/market");
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, discard);
	CURLcode rc = curl_easy_perform(h);
	printf("%s\n", rc == CURLE_OK ? "answered" : curl_easy_strerror(rc));
	fflush(stdout);
	char c;
	while (read(0, &c, 1) > 0)
		;
	curl_easy_cleanup(h);
	curl_global_cleanup();
	return 0;
}
