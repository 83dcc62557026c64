/*
 * exchange/run.c — exchange_run(): load the tables, open the market (which
 * rebuilds the books from the database and starts the writer), start the
 * HTTP server, wait for SIGINT/SIGTERM, then shut down in the order that
 * loses nothing: stop accepting connections, let the writer answer every
 * queued job and commit, stop the HTTP daemons, close the database.
 */
#include "exchange/xd.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "util/util.h"

void exchange_config_defaults(struct exchange_config *c)
{
	memset(c, 0, sizeof *c);
	c->listen = "127.0.0.1:8420";
	c->db_path = "gpuxd.db";
	c->state = -1;
	c->opens_at_ms = -1;
	c->clock_speed = 1.0;
	c->seed = 1;
	c->rate_per_key = 100;
	c->rate_per_addr = 1000;
	c->threads = 2;
}

int exchange_topup_check(const char *url, const char *text, char **cause)
{
	if (url) {
		size_t n = strlen(url);
		bool scheme = strncmp(url, "https://", 8) == 0 || strncmp(url, "http://", 7) == 0;
		bool chars = n > 0;
		for (const char *p = url; *p && chars; p++)
			chars = *p > ' ' && *p < 0x7f && !strchr("\"'<>\\^`{|}", *p);
		if (!scheme || !chars || n > XD_TOPUP_URL_MAX || n <= (size_t)(url[4] == 's' ? 8 : 7))
			return set_cause(cause, "--topup-url: expected an http:// or https:// URL of at "
			                 "most %d characters, without spaces or quotes", XD_TOPUP_URL_MAX);
	}
	if (text) {
		size_t n = strlen(text);
		bool ok = n > 0 && n <= XD_TOPUP_TEXT_MAX && xd_utf8_valid(text, n);
		for (const unsigned char *p = (const unsigned char *)text; *p && ok; p++)
			ok = *p >= ' ' && *p != 0x7f && !(p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f);
		if (!ok)
			return set_cause(cause, "--topup-text: expected 1 to %d bytes of UTF-8 text on "
			                 "one line, without control characters", XD_TOPUP_TEXT_MAX);
	}
	return 0;
}

static int read_admin_key(const char *path, char **out, char **cause)
{
	char *text;
	size_t len;
	*out = NULL;
	if (!path)
		return 0;
	if (util_read_file(path, &text, &len, cause) != 0)
		return -1;
	size_t n = strcspn(text, "\r\n");
	text[n] = 0;
	if (n < 16 || strlen(text) != n) {
		OPENSSL_cleanse(text, len);
		free(text);
		return set_cause(cause, "--admin-key-file %s: the first line must be a key of at least "
		                 "16 characters", path);
	}
	*out = text;
	return 0;
}

int exchange_run(const struct exchange_config *c, char **cause)
{
	struct xd_tables *t = NULL;
	struct xd_market *m = NULL;
	struct xd_server *srv = NULL;
	char *admin = NULL;
	int rc = -1;

	/* signals are taken by sigwait below; every thread inherits the mask */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (exchange_topup_check(c->topup_url, c->topup_text, cause) != 0 ||
	    read_admin_key(c->admin_key_file, &admin, cause) != 0 ||
	    xd_tables_load(c->data_dir, &t, cause) != 0)
		goto out;
	struct xd_market_config mc = {
		.tables = t, .db_path = c->db_path, .demo = c->demo,
		.state = c->state >= 0 ? c->state : c->demo ? EXCHANGE_OPEN : EXCHANGE_PRE_OPEN,
		.opens_at_ms = c->opens_at_ms, .clock_speed = c->clock_speed, .seed = c->seed,
	};
	if (xd_market_open(&mc, &m, cause) != 0)
		goto out;
	struct xd_server_config sc = {
		.listen = c->listen, .socket_path = c->socket_path, .port_file = c->port_file,
		.rate_per_key = c->rate_per_key, .rate_per_addr = c->rate_per_addr,
		.threads = c->threads, .quiet = c->quiet, .admin_key = admin,
		.topup_url = c->topup_url, .topup_text = c->topup_text,
	};
	if (xd_server_start(&sc, m, &srv, cause) != 0)
		goto out;
	if (!c->quiet)
		fprintf(stderr, "gpuxd %s: database %s, market %s%s\n", EXCHANGE_VERSION, c->db_path,
		        xd_state_names[mc.state], c->demo ? ", demo" : "");
	int sig = 0;
	sigwait(&set, &sig);
	if (!c->quiet)
		fprintf(stderr, "gpuxd: %s, shutting down\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
	rc = 0;
out:
	if (srv)
		xd_server_quiesce(srv);
	xd_market_close(&m);
	xd_server_stop(&srv);
	xd_tables_free(&t);
	if (admin) {
		OPENSSL_cleanse(admin, strlen(admin));
		free(admin);
	}
	return rc;
}
