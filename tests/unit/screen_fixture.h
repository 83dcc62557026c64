/*
 * What the screen tests share (tests/unit/test_screens.c, test_welcome.c,
 * test_order_pages.c): a temporary directory, servers of the build (gpuxd,
 * tests/faultd) started on a free loopback port and stopped, a plain POST
 * and GET as a script would send them, an integer read from a reply, new accounts, and expectations on what a
 * session of tui/frame/harness.h shows. Header-only: each test program includes
 * it once (static inline, so a test that needs less does not warn).
 */
#ifndef GPUX_TESTS_SCREEN_FIXTURE_H
#define GPUX_TESTS_SCREEN_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <curl/curl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api/api.h"
#include "data/catalog.h"
#include "tests/unit/catalog_fixture.h"
#include "i18n/i18n.h"
#include "tui/frame/harness.h"
#include "tui/tui.h"
#include "tui/tui_int.h"
#include "util/util.h"

/* The test's own directory (fx_mkdtemp), its servers' ports and logs in it. */
static char fx_tmpdir[128];

static inline int fx_mkdtemp(const char *name)
{
	snprintf(fx_tmpdir, sizeof fx_tmpdir, "/tmp/gpux-%s-XXXXXX", name);
	return mkdtemp(fx_tmpdir) != NULL ? 0 : -1;
}

static inline void fx_rmtemp(void)
{
	char cmd[300];

	if (fx_tmpdir[0] == '\0')
		return;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx_tmpdir);
	if (system(cmd) != 0)
		print_error("could not remove %s\n", fx_tmpdir);
}

static inline const char *fx_build_dir(void)
{
	const char *b = getenv("GPUX_BUILD");
	return b != NULL && b[0] != '\0' ? b : "build";
}

/* Start prog of the build with args (NULL-terminated); its TCP port from
 * its --port-file into url ("http://127.0.0.1:PORT"). -1 when it did not
 * start (its log named). */
static inline pid_t fx_start_server(const char *prog, const char *name, char *const extra[],
				    char *url, size_t url_size)
{
	char path[512], portf[512], log[512];
	char *argv[24];
	int n = 0;
	pid_t pid;

	snprintf(path, sizeof path, "%s/%s", fx_build_dir(), prog);
	snprintf(portf, sizeof portf, "%s/%s.port", fx_tmpdir, name);
	snprintf(log, sizeof log, "%s/%s.log", fx_tmpdir, name);
	argv[n++] = path;
	argv[n++] = (char *)"--listen";
	argv[n++] = (char *)"127.0.0.1:0";
	argv[n++] = (char *)"--port-file";
	argv[n++] = portf;
	for (size_t i = 0; extra[i] != NULL && n < 22; i++)
		argv[n++] = extra[i];
	argv[n] = NULL;
	pid = fork();
	if (pid == 0) {
		FILE *f = freopen(log, "w", stdout);
		(void)f;
		dup2(STDOUT_FILENO, STDERR_FILENO);
		execv(path, argv);
		_exit(127);
	}
	for (int i = 0; i < 200; i++) {
		FILE *f = fopen(portf, "r");
		int port = 0;
		if (f != NULL) {
			if (fscanf(f, "%d", &port) != 1)
				port = 0;
			fclose(f);
		}
		if (port > 0) {
			snprintf(url, url_size, "http://127.0.0.1:%d", port);
			return pid;
		}
		usleep(50 * 1000);
	}
	print_error("%s did not start (see %s)\n", path, log);
	return -1;
}

static inline void fx_stop_server(pid_t *pid)
{
	if (*pid > 0) {
		kill(*pid, SIGTERM);
		waitpid(*pid, NULL, 0);
	}
	*pid = -1;
}

static inline size_t fx_collect(char *p, size_t sz, size_t n, void *ud)
{
	buf_append(ud, p, sz * n);
	return sz * n;
}

/* POST body to base+path (key: Bearer, or NULL), the reply's body (malloc'ed). */
static inline char *fx_post(const char *base, const char *path, const char *key,
			    const char *body)
{
	CURL *c = curl_easy_init();
	struct curl_slist *h = NULL;
	struct buf b = {0};
	char url[256], auth[256];

	snprintf(url, sizeof url, "%s%s", base, path);
	h = curl_slist_append(h, "Content-Type: application/json");
	if (key != NULL) {
		snprintf(auth, sizeof auth, "Authorization: Bearer %s", key);
		h = curl_slist_append(h, auth);
	}
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, fx_collect);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
	curl_easy_perform(c);
	curl_slist_free_all(h);
	curl_easy_cleanup(c);
	return b.data != NULL ? buf_take(&b) : xstrdup("");
}

/* GET base+path (key: Bearer), the reply's body (malloc'ed, "" for none). */
static inline char *fx_get(const char *base, const char *path, const char *key)
{
	CURL *c = curl_easy_init();
	struct curl_slist *hd = NULL;
	struct buf b = {0};
	char url[256], auth[256];

	snprintf(url, sizeof url, "%s%s", base, path);
	snprintf(auth, sizeof auth, "Authorization: Bearer %s", key);
	hd = curl_slist_append(hd, auth);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hd);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, fx_collect);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
	curl_easy_perform(c);
	curl_slist_free_all(hd);
	curl_easy_cleanup(c);
	return b.data != NULL ? buf_take(&b) : xstrdup("");
}

/* The integer after the first "name": in a JSON reply, or -1. */
static inline long long fx_json_int(const char *reply, const char *name)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof pat, "\"%s\":", name);
	p = strstr(reply, pat);
	if (p == NULL)
		return -1;
	p += strlen(pat);
	while (*p == ' ')
		p++;
	return atoll(p);
}

/* POST /v1/orders on base with key: the fields of fmt and a client order
 * id of its own ("fx-N"); the reply, malloc'ed. */
static inline char *fx_order(const char *base, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline char *fx_order(const char *base, const char *key, const char *fmt, ...)
{
	static int seq;
	char body[512], fields[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fields, sizeof fields, fmt, ap);
	va_end(ap);
	snprintf(body, sizeof body, "{\"client_order_id\":\"fx-%d\",%s}", ++seq, fields);
	return fx_post(base, "/v1/orders", key, body);
}

/* One GPU-hour of gpu traded on base at cents: seller asks it, buyer
 * takes it. 0, or -1 (said on stderr) when it did not fill. */
static inline int fx_trade(const char *base, const char *seller, const char *buyer,
			   const char *gpu, int cents)
{
	char *r;
	int filled;

	free(fx_order(base, seller, "\"gpu\":\"%s\",\"side\":\"sell\",\"type\":\"limit\","
		      "\"gpus\":1,\"hours\":1,\"price_cents\":%d", gpu, cents));
	r = fx_order(base, buyer, "\"gpu\":\"%s\",\"side\":\"buy\",\"type\":\"market\","
		     "\"gpus\":1,\"hours\":1,\"max_price_cents\":%d", gpu, cents);
	filled = r != NULL && strstr(r, "\"filled\"") != NULL;
	if (!filled)
		fprintf(stderr, "the trade of %s at %d did not fill: %s\n", gpu, cents, r ? r : "?");
	free(r);
	return filled ? 0 : -1;
}

/* A new account on base (an EUR account in PT with this role), topped up
 * with deposit_minor when > 0: its key, or NULL. */
static inline char *fx_new_account(const char *base, const char *email, const char *role,
				   int64_t deposit_minor)
{
	char body[256];
	char *r, *k, *key = NULL;

	snprintf(body, sizeof body, "{\"email\":\"%s\",\"country\":\"PT\",\"currency\":\"EUR\","
		 "\"role\":\"%s\"}", email, role);
	r = fx_post(base, "/v1/accounts", NULL, body);
	k = strstr(r, "\"api_key\"");
	if (k != NULL && (k = strchr(k + 9, '"')) != NULL) {
		char *e = strchr(k + 1, '"');
		if (e != NULL)
			key = xstrndup(k + 1, (size_t)(e - k - 1));
	}
	free(r);
	if (key != NULL && deposit_minor > 0) {
		snprintf(body, sizeof body, "{\"amount_minor\":%lld}", (long long)deposit_minor);
		free(fx_post(base, "/v1/deposits", key, body));
	}
	return key;
}

/* The first account of a gpuxd that may still be starting: fx_new_account
 * tried for up to 5 s. NULL, said on stderr, when none came. */
static inline char *fx_first_account(const char *base, const char *email, const char *role,
				     int64_t deposit_minor)
{
	char *key = NULL;

	for (int i = 0; i < 50 && key == NULL; i++) {
		key = fx_new_account(base, email, role, deposit_minor);
		if (key == NULL)
			usleep(100 * 1000);
	}
	if (key == NULL)
		fprintf(stderr, "no account from gpuxd at %s\n", base);
	return key;
}

/* The admin key gpuxd --admin-key-file reads, written to path (only its
 * owner may read it, as gpuxd asks). 0, or -1 when it could not be. */
static inline int fx_write_admin_key(const char *path, const char *key)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return -1;
	fprintf(f, "%s\n", key);
	fclose(f);
	return chmod(path, 0600);
}

/* A new account on base (an EUR account in PT with this role), topped up by
 * the admin (admin_key) with deposit_minor when > 0, under the payment
 * reference a real exchange asks for: its key, or NULL. */
static inline char *fx_admin_account(const char *base, const char *admin_key, const char *email,
				     const char *role, int64_t deposit_minor)
{
	char body[256], *r, *key = NULL;
	const char *k;
	long long id;

	snprintf(body, sizeof body, "{\"email\":\"%s\",\"country\":\"PT\",\"currency\":\"EUR\","
		 "\"role\":\"%s\"}", email, role);
	r = fx_post(base, "/v1/accounts", NULL, body);
	id = fx_json_int(r, "id");
	k = strstr(r, "\"api_key\"");
	if (k != NULL && (k = strchr(k + 9, '"')) != NULL) {
		const char *e = strchr(k + 1, '"');
		if (e != NULL)
			key = xstrndup(k + 1, (size_t)(e - k - 1));
	}
	free(r);
	if (key != NULL && deposit_minor > 0) {
		snprintf(body, sizeof body, "{\"account_id\":%lld,\"amount_minor\":%lld,"
			 "\"reference\":\"fx-deposit-%lld\"}", id, (long long)deposit_minor, id);
		r = fx_post(base, "/v1/deposits", admin_key, body);
		if (r == NULL || strstr(r, "\"deposit_id\"") == NULL)
			print_error("the deposit to %s was refused: %s\n", email, r != NULL ? r : "?");
		free(r);
	}
	return key;
}

/* The exchange clock of base moved on by seconds (POST /v1/admin/clock). */
static inline void fx_advance_clock(const char *base, const char *admin_key, long seconds)
{
	char body[64];

	snprintf(body, sizeof body, "{\"advance_seconds\":%ld}", seconds);
	free(fx_post(base, "/v1/admin/clock", admin_key, body));
}

/* The bytes of s's first n characters (UTF-8). */
static inline size_t fx_prefix_bytes(const char *s, size_t n)
{
	size_t i = 0;

	for (size_t k = 0; s[i] != '\0' && k < n; k++)
		do
			i++;
		while (((unsigned char)s[i] & 0xc0) == 0x80);
	return i;
}

/* text shows within 8 s, else the test fails with the screen printed. */
static inline void fx_expect_on_screen(struct tui_harness *h, const char *text)
{
	if (!tui_harness_wait(h, text, 8000)) {
		char *s = tui_harness_screen(h);
		/* stderr: cmocka's own messages are cut at about a kilobyte */
		fprintf(stderr, "not on screen: [%s]\n%s\n", text, s);
		free(s);
		fail();
	}
}

/* The session settles within 8 s (tui_harness_settle: every request it
 * started answered, no timer due soon), else the test fails with the screen
 * printed. What a test waits for before it acts on what the exchange said,
 * or says what is not on screen. */
static inline void fx_settle(struct tui_harness *h)
{
	if (!tui_harness_settle(h, 8000)) {
		char *s = tui_harness_screen(h);
		print_error("the session did not settle in 8 s\n%s", s);
		free(s);
		fail();
	}
}

/* text goes from the screen within ms, else the test fails with the screen printed. */
static inline void fx_expect_gone(struct tui_harness *h, const char *text, int ms)
{
	int64_t end = util_now_ms() + ms;

	while (tui_harness_find(h, text) >= 0) {
		if (util_now_ms() >= end) {
			char *s = tui_harness_screen(h);
			print_error("still on screen after %d ms: [%s]\n%s", ms, text, s);
			free(s);
			fail();
		}
		tui_harness_pump(h, 50);
	}
}

static inline void fx_expect_not_on_screen(struct tui_harness *h, const char *text)
{
	char *s = tui_harness_screen(h);

	if (strstr(s, text) != NULL) {
		print_error("on screen, but should not be: [%s]\n%s", text, s);
		free(s);
		fail();
	}
	free(s);
}

/* How many times text shows on the screen. */
static inline int fx_count_on_screen(struct tui_harness *h, const char *text)
{
	char *s = tui_harness_screen(h);
	int n = 0;

	for (const char *p = s; (p = strstr(p, text)) != NULL; p += strlen(text))
		n++;
	free(s);
	return n;
}

/* ---- the demo exchange and sessions on it ----------------------------------------------- */

/* What the exchanges below start with: i18n in English, the catalogue
 * into *cat, the test's own directory (fx_mkdtemp(name)) with HOME and the
 * XDG directories in it, colours on. -1, said, when one fails. */
static inline int fx_test_dir(const char *name, struct catalog **cat)
{
	if (fx_catalog_load(cat) != 0 || fx_mkdtemp(name) != 0)
		return -1;
	setenv("HOME", fx_tmpdir, 1);
	setenv("XDG_CONFIG_HOME", fx_tmpdir, 1);
	unsetenv("NO_COLOR");
	return 0;
}

/* gpuxd of the build on loopback with args (NULL-terminated, at most 12;
 * its SQLite file in the test's directory is added) at url, its pid in
 * *pid. -1, said, when it does not start: the test fails. */
static inline int fx_gpuxd(const char *const *args, pid_t *pid, char *url, size_t url_size)
{
	char db[512], *gx[16];
	size_t n = 0;

	snprintf(db, sizeof db, "%s/gpuxd.db", fx_tmpdir);
	for (; args[n] != NULL && n < 12; n++)
		gx[n] = (char *)args[n];
	gx[n++] = (char *)"--db";
	gx[n++] = db;
	gx[n] = NULL;
	*pid = fx_start_server("gpuxd", "gpuxd", gx, url, url_size);
	if (*pid < 0)
		return -1;
	return api_curl_ready(NULL) != 0 ? -1 : 0;
}

/* The screen tests' usual start (fx_test_dir): a gpuxd --demo, its
 * exchange clock 1000 times slower than real time. */
static inline int fx_demo_start(const char *name, struct catalog **cat, pid_t *pid, char *url,
				size_t url_size)
{
	static const char *const args[] = { "--demo", "--quiet", "--clock-speed", "0.001", NULL };

	return fx_test_dir(name, cat) != 0 ? -1 : fx_gpuxd(args, pid, url, url_size);
}

/* An exchange without market makers, where the test makes every trade
 * (fx_test_dir): gpuxd --market open, its clock 1000 times slower than real
 * time and moved by fx_advance_clock, admin_key its admin key (in a file of
 * the test's directory); *seller a seller's key and *buyer a buyer's with
 * EUR 100,000.00 on it, both made by the admin. */
static inline int fx_market_start(const char *name, const char *admin_key, struct catalog **cat,
				  pid_t *pid, char *url, size_t url_size, char **seller,
				  char **buyer)
{
	char keyf[512];
	const char *const args[] = { "--market", "open", "--clock-speed", "0.001",
				     "--admin-key-file", keyf, NULL };

	if (fx_test_dir(name, cat) != 0)
		return -1;
	snprintf(keyf, sizeof keyf, "%s/admin.key", fx_tmpdir);
	if (fx_write_admin_key(keyf, admin_key) != 0 || fx_gpuxd(args, pid, url, url_size) != 0)
		return -1;
	*seller = NULL;
	for (int i = 0; i < 50 && *seller == NULL; i++) {
		*seller = fx_admin_account(url, admin_key, "seller@example.pt", "seller", 0);
		if (*seller == NULL)
			usleep(100 * 1000);
	}
	*buyer = fx_admin_account(url, admin_key, "buyer@example.pt", "buyer", 10000000);
	return *seller != NULL && *buyer != NULL ? 0 : -1;
}

/* The end of what fx_demo_start or fx_market_start began. */
static inline int fx_demo_stop(struct catalog **cat, pid_t *pid)
{
	fx_stop_server(pid);
	fx_rmtemp();
	catalog_free(cat);
	return 0;
}

/* A session of the harness, lines × cols, in lang (i18n switched to it),
 * on url with key (NULL: none, url NULL: no exchange), one attempt per
 * request, its column choices remembered in conf ("": nowhere). The
 * session borrows its configuration, kept here until the program ends (8
 * sessions at once at the most). */
static inline struct tui_harness *fx_session_conf(const struct catalog *cat, const char *url,
						  const char *key, enum i18n_lang lang,
						  bool ascii, const char *conf, int lines,
						  int cols)
{
	static struct api_config cfgs[8];
	static size_t next;
	struct api_config *cfg = &cfgs[next++ % 8];
	struct tui_options o = { .catalog = cat, .lang = lang, .config_path = conf,
				 .ascii = ascii };
	struct tui_harness *h;

	memset(cfg, 0, sizeof *cfg);
	cfg->url = url;
	cfg->key = key;
	cfg->max_attempts = 1;
	o.api = url != NULL ? cfg : NULL;
	i18n_init(lang);
	h = tui_harness_new(&o, lines, cols);
	assert_non_null(h);
	return h;
}

/* fx_session_conf remembering nothing. */
static inline struct tui_harness *fx_session(const struct catalog *cat, const char *url,
					     const char *key, enum i18n_lang lang, bool ascii,
					     int lines, int cols)
{
	return fx_session_conf(cat, url, key, lang, ascii, "", lines, cols);
}

/* The session waits for its first prices (4 s at the most; the test fails
 * without them). */
static inline void fx_wait_prices(struct tui_harness *h)
{
	for (int i = 0; i < 200 && !tui_harness_tui(h)->m.have_prices; i++)
		tui_harness_pump(h, 20);
	assert_true(tui_harness_tui(h)->m.have_prices);
}

#endif
