/*
 * gpux's main: global flags, language, catalogue, then one command from the
 * command table (data: name, function, options, help), or the interactive
 * screen when there is no command.
 *
 * Global flags may stand before or after the command (`gpux --lang pt-PT
 * table training` and `gpux table training --lang pt-PT` are the same): main
 * takes them out of argv, using the command's option table to step over the
 * values of the command's own options, and hands the rest to the command.
 * The language is settled first so that every later message is in it:
 * --lang, else the language chosen in the interactive screen (L), which is
 * remembered in the config file as `lang = pt-BR`, else LANGUAGE, LC_ALL,
 * LC_MESSAGES, LANG, else English (i18n_lang_resolve). Exit status: 0 ok,
 * 1 failed, 2 bad usage.
 */
#include "cli/cli.h"
#include "cli/cli_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "tui/tui.h"
#include "util/util.h"
#include "view/view.h"

#define GPUX_VERSION "0.1.0"



static int find_opt(const struct cli_opt *opts, const char *arg, size_t len)
{
	int k;

	for (k = 0; opts != NULL && opts[k].name != NULL; k++)
		if (strlen(opts[k].name) == len && strncmp(opts[k].name, arg, len) == 0)
			return k;
	return -1;
}

static const struct cli_command *find_command(const char *name)
{
	const struct cli_command *c;

	for (c = cli_commands; c->name != NULL; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static char *command_names(void)
{
	struct buf b = {0};
	const struct cli_command *c;

	for (c = cli_commands; c->name != NULL; c++)
		buf_printf(&b, "%s%s", c == cli_commands ? "" : ", ", c->name);
	return buf_take(&b);
}

/* ---- help --------------------------------------------------------------------- */

static void print_opts(FILE *out, const struct cli_opt *opts)
{
	size_t k, w = 0;

	for (k = 0; opts != NULL && opts[k].name != NULL; k++) {
		size_t n = strlen(opts[k].name) + (opts[k].metavar ? 1 + strlen(opts[k].metavar) : 0);
		if (n > w)
			w = n;
	}
	for (k = 0; opts != NULL && opts[k].name != NULL; k++) {
		char *left = opts[k].metavar ? xasprintf("%s %s", opts[k].name, opts[k].metavar)
					     : xstrdup(opts[k].name);
		fprintf(out, "  %-*s  %s\n", (int)w, left, _(opts[k].help));
		free(left);
	}
}

static void help_main(FILE *out)
{
	const struct cli_command *c;
	size_t w = 0;

	fprintf(out, "%s\n\n", _("usage: gpux [OPTIONS] [COMMAND [ARGS...]]"));
	fprintf(out, "%s\n\n", _("A terminal client for a spot exchange of GPU hours. Without a command, gpux opens the interactive screen."));
	fprintf(out, "%s\n", _("Commands:"));
	for (c = cli_commands; c->name != NULL; c++) {
		size_t n = strlen(c->name) + 1 + strlen(c->args);
		if (n > w)
			w = n;
	}
	for (c = cli_commands; c->name != NULL; c++) {
		char *left = xasprintf("%s %s", c->name, c->args);
		fprintf(out, "  %-*s  %s\n", (int)w, left, _(c->help));
		free(left);
	}
	fprintf(out, "\n%s\n", _("Options (before or after the command):"));
	print_opts(out, cli_global_opts);
	fprintf(out, "\n%s\n", _("Environment: GPUX_API, GPUX_API_KEY, GPUX_PROFILE, GPUX_ADMIN_KEY (gpux admin), GPUX_TIMEOUT (seconds a request may take, retries included), GPUX_GPUXD (the gpuxd to start), NO_COLOR; LANGUAGE, LC_ALL, LC_MESSAGES, LANG choose the language."));
	fprintf(out, "%s\n", _("Language: --lang, else the one chosen with L in the interactive screen (lang in the config file), else the environment, else English."));
	fprintf(out, "%s\n", _("Config file: $XDG_CONFIG_HOME/gpux/config (api, key, timeout, connect_timeout, country, currency, lang); chmod 600 when it holds a key."));
	fprintf(out, "%s\n", _("Interactive screen: ? or F1 lists the keys of each screen; q or F10 quits."));
	fprintf(out, "%s\n", _("Exit status: 0 done, 1 failed (catalogue, exchange, output), 2 bad usage."));
	fprintf(out, "%s\n", _("See gpux COMMAND --help and man gpux."));
}

static void help_command(FILE *out, const struct cli_command *c)
{
	char *usage = c->args[0] != '\0' ? xasprintf("gpux %s %s [OPTIONS]", c->name, c->args)
					  : xasprintf("gpux %s [OPTIONS]", c->name);

	fprintf(out, _("usage: %s"), usage);
	fprintf(out, "\n%s\n", _(c->help));
	if (c->opts != NULL && c->opts[0].name != NULL) {
		fprintf(out, "\n%s\n", _("Options:"));
		print_opts(out, c->opts);
	}
	if (c->more != NULL)
		fprintf(out, "\n%s\n", _(c->more));
	fprintf(out, "\n%s\n", _("Global options (gpux --help): --lang, --format, --api, --key, --key-file, --profile, --timeout, --data, --ascii, --insecure."));
	free(usage);
}

/* ---- the interactive screen ----------------------------------------------------- */

/* `gpux` alone: the interactive screen (tui/), on the exchange of --api /
 * GPUX_API / the config file, else the local demo exchange. */
static int run_tui(struct cli_ctx *ctx)
{
	struct api_open_opts open = {
		.url = ctx->api_url, .key = ctx->api_key, .profile = ctx->profile,
		.insecure = ctx->insecure,
	};
	struct tui_options o = {
		.lang = ctx->lang, .ascii = ctx->ascii, .open = &open,
	};
	char *cause = NULL;

	if (catalog_load(ctx->data_dir, &ctx->catalog, &cause) != 0) {
		int rc = cli_fail(ctx, "%s", cause != NULL ? cause : _("the catalogue could not be loaded"));
		free(cause);
		return rc;
	}
	o.catalog = ctx->catalog;
	return tui_run(&o);
}

/* ---- main -------------------------------------------------------------------------- */

/* The language the interactive screen remembered (`lang = pt-BR`
 * in the config file), malloc'ed, or NULL. A file that cannot be read is
 * left to the commands that need it to say so. */
static char *remembered_lang(void)
{
	char *path = api_conf_path(), *cause = NULL, *v = NULL;
	struct api_conf *c = NULL;

	if (path != NULL && api_conf_load(path, &c, &cause) == 0) {
		const char *s = api_conf_get(c, "lang");
		if (s != NULL && s[0] != '\0')
			v = xstrdup(s);
	}
	api_conf_free(&c);
	free(cause);
	free(path);
	return v;
}

/* The language for messages, settled before anything is parsed: --lang if
 * given and valid (a bad one is reported later, in that fallback language),
 * else the remembered one, else the environment. */
static enum i18n_lang early_lang(int argc, char **argv, const char *remembered)
{
	enum i18n_lang lang;
	int i;

	i18n_lang_resolve(NULL, remembered, &lang, NULL);

	for (i = 1; i < argc; i++) {
		const char *v = NULL;

		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--lang") == 0 && i + 1 < argc)
			v = argv[i + 1];
		else if (strncmp(argv[i], "--lang=", 7) == 0)
			v = argv[i] + 7;
		if (v != NULL) {
			enum i18n_lang l;
			if (i18n_lang_parse(v, &l) == 0)
				lang = l;
			break;
		}
	}
	return lang;
}

static int parse_format(struct cli_ctx *ctx, const char *v)
{
	if (strcasecmp(v, "table") == 0)
		ctx->format = CLI_FORMAT_TABLE;
	else if (strcasecmp(v, "csv") == 0)
		ctx->format = CLI_FORMAT_CSV;
	else if (strcasecmp(v, "json") == 0)
		ctx->format = CLI_FORMAT_JSON;
	else
		return cli_usage(ctx, _("unknown format \"%s\"; accepted: table, csv, json"), v);
	return CLI_OK;
}

/* One line of key from fd (standard input) or a file, trimmed; malloc'ed. */
static char *read_key_line(FILE *f)
{
	char line[512];
	size_t n;

	if (fgets(line, sizeof line, f) == NULL)
		return NULL;
	n = strcspn(line, "\r\n");
	line[n] = '\0';
	while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t'))
		line[--n] = '\0';
	char *k = n > 0 ? xstrdup(line) : NULL;
	explicit_bzero(line, sizeof line);
	return k;
}

/* --key / --key - / --key-file / $GPUX_API_KEY, and --timeout, which is
 * handed to the exchange client as GPUX_TIMEOUT (the flag beats the
 * environment, which beats the config file). *key_out owns a key read here. */
static int key_and_timeout(struct cli_ctx *ctx, const char *key, const char *key_file,
			   const char *timeout, char **key_out)
{
	if (key != NULL && key_file != NULL)
		return cli_usage(ctx, _("give --key or --key-file, not both"));
	if (key_file != NULL) {
		struct stat st;
		FILE *f;

		if (stat(key_file, &st) == 0 && (st.st_mode & 077) != 0)
			return cli_fail(ctx, _("%s: group or others can read it; run: chmod 600 %s"),
					key_file, key_file);
		if ((f = fopen(key_file, "r")) == NULL)
			return cli_fail(ctx, _("cannot read %s: %s"), key_file, strerror(errno));
		*key_out = read_key_line(f);
		fclose(f);
		if (*key_out == NULL)
			return cli_fail(ctx, _("%s: the first line must be the API key"), key_file);
		ctx->api_key = *key_out;
	} else if (key != NULL && strcmp(key, "-") == 0) {
		*key_out = read_key_line(stdin);
		if (*key_out == NULL)
			return cli_usage(ctx, _("--key -: no key on standard input"));
		ctx->api_key = *key_out;
	} else if (key != NULL) {
		/* a copy, and the command line's text wiped: ps shows "--key" and
		 * nothing after it from now on (before this, it did show it) */
		*key_out = xstrdup(key);
		explicit_bzero((char *)key, strlen(key));
		ctx->api_key = *key_out;
	} else {
		ctx->api_key = getenv("GPUX_API_KEY");
		if (ctx->api_key != NULL && ctx->api_key[0] == '\0')
			ctx->api_key = NULL;
	}
	if (timeout != NULL) {
		char *end;
		double v;

		errno = 0;
		v = strtod(timeout, &end);
		if (errno != 0 || end == timeout || *end != '\0' || !(v >= 0.1) || v > 3600)
			return cli_usage(ctx, _("--timeout %s: expected a number of seconds from 0.1 to 3600"),
					 timeout);
		setenv("GPUX_TIMEOUT", timeout, 1);
	}
	return CLI_OK;
}

/* Take the global flags out of argv into gv (before or after the command),
 * find the command, and pass the rest on in cargv; CLI_OK or a usage error. */
static int take_args(struct cli_ctx *ctx, int argc, char **argv, const char **gv,
		     const struct cli_command **cmdp, char **cargv, int *cargc)
{
	const struct cli_command *cmd = NULL;
	bool only_pos = false;
	int rc = CLI_OK, i;

	for (i = 1; i < argc && rc == CLI_OK; i++) {
		const char *arg = argv[i];
		const char *eq = strchr(arg, '=');
		size_t len = eq != NULL && arg[0] == '-' ? (size_t)(eq - arg) : strlen(arg);
		int g;

		if (only_pos || arg[0] != '-' || arg[1] == '\0') {
			if (cmd == NULL) {
				cmd = find_command(arg);
				if (cmd == NULL) {
					char *names = command_names();
					rc = cli_usage(ctx, _("unknown command \"%s\"; accepted: %s (see gpux --help)"),
						       arg, names);
					free(names);
					break;
				}
			}
			cargv[(*cargc)++] = argv[i];
			continue;
		}
		if (strcmp(arg, "--") == 0) {
			if (cmd == NULL) {
				only_pos = true;
				continue;
			}
			only_pos = true;
			cargv[(*cargc)++] = argv[i];
			continue;
		}
		if (strcmp(arg, "-h") == 0) {
			arg = "--help";
			len = strlen(arg);
		}
		g = find_opt(cli_global_opts, arg, len);
		if (g < 0) {
			int k = cmd != NULL ? find_opt(cmd->opts, arg, len) : -1;

			if (cmd == NULL) {
				rc = cli_usage(ctx, _("unknown option \"%.*s\"; accepted before the command: --lang, --format, --api, --key, --key-file, --profile, --timeout, --data, --ascii, --insecure, --help, --version"),
					       (int)len, arg);
				break;
			}
			/* the command's own option: pass it on, with its value */
			cargv[(*cargc)++] = argv[i];
			if (k >= 0 && cmd->opts[k].metavar != NULL && eq == NULL && i + 1 < argc)
				cargv[(*cargc)++] = argv[++i];
			continue;
		}
		if (gv[g] != NULL) {
			rc = cli_usage(ctx, _("%s given twice; give it once"), cli_global_opts[g].name);
			break;
		}
		if (cli_global_opts[g].metavar == NULL) {
			if (eq != NULL) {
				rc = cli_usage(ctx, _("%s takes no value; write just %s"), cli_global_opts[g].name,
					       cli_global_opts[g].name);
				break;
			}
			gv[g] = cli_global_opts[g].name;
			continue;
		}
		if (eq != NULL)
			gv[g] = eq + 1;
		else if (i + 1 < argc)
			gv[g] = argv[++i];
		if (gv[g] == NULL || gv[g][0] == '\0') {
			rc = cli_usage(ctx, _("%s needs a value: %s %s"), cli_global_opts[g].name,
				       cli_global_opts[g].name, cli_global_opts[g].metavar);
			break;
		}
	}
	*cmdp = cmd;
	return rc;
}

int main(int argc, char **argv)
{
	struct cli_ctx ctx = {0};
	const char *gv[CLI_G_COUNT] = {0};
	const struct cli_command *cmd = NULL;
	char **cargv = xcalloc((size_t)argc + 1, sizeof *cargv);
	int cargc = 0, rc = CLI_OK;
	char *cause = NULL, *remembered = NULL, *key = NULL;

	ctx.out = stdout;
	ctx.err = stderr;
	ctx.format = CLI_FORMAT_TABLE;
	remembered = remembered_lang();
	ctx.lang = early_lang(argc, argv, remembered);
	i18n_init(ctx.lang);
	/* hidden: the build writes the shell completions from the tables above */
	if (argc == 3 && strcmp(argv[1], "--completions") == 0) {
		free(cargv);
		free(remembered);
		return cli_completions(stdout, argv[2], cli_commands, cli_global_opts);
	}

	rc = take_args(&ctx, argc, argv, gv, &cmd, cargv, &cargc);
	if (rc != CLI_OK)
		goto out;

	if (i18n_lang_resolve(gv[CLI_G_LANG], remembered, &ctx.lang, NULL) != 0) {
		rc = cli_usage(&ctx, _("unknown language \"%s\"; accepted: %s"), gv[CLI_G_LANG], i18n_lang_list());
		goto out;
	}
	i18n_init(ctx.lang);
	if (gv[CLI_G_LANG] == NULL && remembered != NULL) {
		enum i18n_lang l;
		if (i18n_lang_parse(remembered, &l) != 0)
			cli_usage(&ctx, _("the config file's lang \"%s\" is unknown (accepted: %s); the environment's language is used"),
				  remembered, i18n_lang_list());
	}
	if (gv[CLI_G_HELP] != NULL) {
		if (cmd != NULL)
			help_command(stdout, cmd);
		else
			help_main(stdout);
		goto out;
	}
	if (gv[CLI_G_VERSION] != NULL) {
		printf("gpux %s\n", GPUX_VERSION);
		goto out;
	}
	if (gv[CLI_G_FORMAT] != NULL && (rc = parse_format(&ctx, gv[CLI_G_FORMAT])) != CLI_OK)
		goto out;
	ctx.api_url = gv[CLI_G_API] != NULL ? gv[CLI_G_API] : getenv("GPUX_API");
	ctx.profile = gv[CLI_G_PROFILE];
	if (ctx.api_url != NULL && ctx.api_url[0] == '\0')
		ctx.api_url = NULL;
	if ((rc = key_and_timeout(&ctx, gv[CLI_G_KEY], gv[CLI_G_KEY_FILE], gv[CLI_G_TIMEOUT], &key)) != CLI_OK)
		goto out;
	/* a command or the interactive screen: libcurl loads beside what follows */
	api_curl_start();
	ctx.data_dir = gv[CLI_G_DATA];
	ctx.ascii = gv[CLI_G_ASCII] != NULL;
	ctx.insecure = gv[CLI_G_INSECURE] != NULL;
	ctx.get_prices = cli_exchange_prices;   /* live best asks (cli/cmd_exchange.c) */

	if (cmd == NULL) {
		rc = run_tui(&ctx);
		goto out;
	}
	if (cmd->needs_catalog || ctx.data_dir != NULL) {
		if (catalog_load(ctx.data_dir, &ctx.catalog, &cause) != 0) {
			rc = cli_fail(&ctx, "%s", cause != NULL ? cause : _("the catalogue could not be loaded"));
			free(cause);
			goto out;
		}
	}
	cargv[cargc] = NULL;
	rc = cmd->fn(&ctx, cargc, cargv);
out:
	api_curl_settle();
	catalog_free(&ctx.catalog);
	xfree_secret(key);
	free(cargv);
	free(remembered);
	if (fflush(stdout) != 0 && rc == CLI_OK)
		rc = CLI_FAILED;
	return rc;
}
