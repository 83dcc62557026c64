/*
 * gpux demo status|stop|reset — the local demo exchange that gpux starts in
 * the background when no exchange is configured (api/local.c): whether it
 * runs and where its files are, stopping it now (it also stops by itself
 * after GPUX_DEMO_IDLE seconds, default 300, without a connection), and
 * resetting it to a fresh demo market (asked first on a terminal, --yes
 * elsewhere).
 */
#include "cli/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "api/api.h"
#include "cli/cli_int.h"
#include "i18n/i18n.h"
#include "util/util.h"


/* "1.4 MB", "none" */
static char *size_text(int64_t bytes)
{
	if (bytes < 0)
		return xstrdup("—");
	if (bytes < 1000000)
		return xasprintf(_("%lld kB"), (long long)((bytes + 999) / 1000));
	return xasprintf(_("%.1f MB"), (double)bytes / 1e6);
}

static int status(struct cli_ctx *ctx)
{
	struct api_local_status st;
	char *cause = NULL, *db, *wal;
	int rc;

	if (api_local_status(&st, &cause) != 0) {
		rc = cli_fail(ctx, "%s", cause != NULL ? cause : "?");
		free(cause);
		return rc;
	}
	if (ctx->format != CLI_FORMAT_TABLE) {
		struct cli_sheet *s = cli_sheet_new();
		cli_sheet_column(s, "running", _("Running"), CLI_LEFT);
		cli_sheet_column(s, "pid", _("Process"), CLI_RIGHT);
		cli_sheet_column(s, "stale_binary", _("Older gpuxd"), CLI_LEFT);
		cli_sheet_column(s, "socket", _("Socket"), CLI_LEFT);
		cli_sheet_column(s, "data_dir", _("Data"), CLI_LEFT);
		cli_sheet_column(s, "db_bytes", _("Database"), CLI_RIGHT);
		cli_sheet_column(s, "wal_bytes", _("WAL"), CLI_RIGHT);
		cli_sheet_column(s, "log", _("Log"), CLI_LEFT);
		cli_sheet_row(s);
		cli_sheet_bool(s, NULL, st.running);
		if (st.pid > 0)
			cli_sheet_int(s, NULL, st.pid);
		else
			cli_sheet_null(s, NULL);
		cli_sheet_bool(s, NULL, st.stale_binary);
		cli_sheet_text(s, NULL, st.socket_path);
		cli_sheet_text(s, NULL, st.data_dir);
		cli_sheet_int(s, NULL, st.db_bytes);
		cli_sheet_int(s, NULL, st.wal_bytes);
		cli_sheet_text(s, NULL, st.log_path);
		rc = cli_sheet_print_free(ctx, &s);
		api_local_status_clear(&st);
		return rc;
	}
	if (st.running && st.pid > 0)
		cli_say(ctx, _("The local demo exchange is running (process %d)."), st.pid);
	else if (st.running)
		cli_say(ctx, _("Something answers on the local demo exchange's socket, but not a gpuxd gpux started."));
	else
		cli_say(ctx, _("The local demo exchange is not running; gpux starts it when it needs it."));
	if (st.stale_binary)
		cli_say(ctx, "%s", _("It runs another gpuxd than the one gpux would start (a rebuild or an upgrade): gpux replaces it the next time it uses it."));
	db = size_text(st.db_bytes);
	wal = size_text(st.wal_bytes);
	cli_say(ctx, _("Socket:   %s"), st.socket_path);
	cli_say(ctx, _("Data:     %s (database %s, WAL %s)"), st.data_dir, db, wal);
	cli_say(ctx, _("Log:      %s"), st.log_path);
	cli_say(ctx, "%s", _("It stops by itself 5 minutes after its last connection (GPUX_DEMO_IDLE seconds); gpux demo stop stops it now, gpux demo reset starts the demo market afresh."));
	free(db);
	free(wal);
	api_local_status_clear(&st);
	return CLI_OK;
}

int cli_cmd_demo(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_args a;
	const char *what;
	char *cause = NULL;
	int rc, r;

	if ((rc = cli_args_parse(ctx, "demo", cli_demo_opts, argc, argv, 1, &a)) != CLI_OK)
		return rc;
	what = a.n_pos > 0 ? a.pos[0] : NULL;
	if (what == NULL || (strcmp(what, "status") != 0 && strcmp(what, "stop") != 0 &&
			     strcmp(what, "reset") != 0)) {
		rc = cli_usage(ctx, _("demo: what? accepted: status, stop, reset (e.g. gpux demo status)"));
	} else if (strcmp(what, "status") == 0) {
		rc = status(ctx);
	} else if (strcmp(what, "stop") == 0) {
		r = api_local_stop(&cause);
		if (r < 0)
			rc = cli_fail(ctx, "%s", cause != NULL ? cause : "?");
		else
			cli_say(ctx, "%s", r == 1 ? _("Stopped the local demo exchange.")
					       : _("The local demo exchange was not running."));
	} else if (cli_arg(&a, cli_demo_opts, "--yes") == NULL && !isatty(STDIN_FILENO)) {
		rc = cli_usage(ctx, "%s", _("demo reset: not on a terminal, so nobody can confirm: pass --yes"));
	} else if (cli_arg(&a, cli_demo_opts, "--yes") == NULL &&
		   !cli_confirm(ctx, _("Reset the local demo exchange: its orders, rentals, balances "
				       "and demo account are deleted. Go on? [y/N]"))) {
		fprintf(ctx->err, "gpux: %s\n", _("Not reset."));
		rc = CLI_FAILED;
	} else if (api_local_reset(&cause) != 0) {
		rc = cli_fail(ctx, "%s", cause != NULL ? cause : "?");
	} else {
		cli_say(ctx, "%s", _("Reset: the next gpux command starts a fresh demo market with a new demo account."));
	}
	free(cause);
	cli_args_free(&a);
	return rc;
}
