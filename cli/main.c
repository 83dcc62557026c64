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

const struct cli_command cli_commands[] = {
	{"table", cli_cmd_table, "WORKLOAD", N_("print a workload's GPU table"), cli_table_opts, true,
	 N_("WORKLOAD: training, finetune, inference, imagegen, rendering, hpc.\n"
	    "COLUMN: a column id as in the csv header, e.g. memory, bandwidth, fit_full_8, price.\n"
	    "csv and json give raw numbers (price in US cents per GPU-hour); empty or null = not published.")},
	{"fit", cli_cmd_fit, "SIZE|PRESET", N_("which GPUs a model fits on, how many it needs, and the cost"),
	 cli_fit_opts, true,
	 N_("SIZE: billions of parameters (70, 70B, 7.5, 1.3T, 350M); PRESET: a model id such as\n"
	    "llama-3.1-70b, qwen2.5-7b, mixtral-8x7b, deepseek-v3, sdxl, flux.1-dev.\n"
	    "Memory is per GPU in GB (10^9 bytes); csv and json add the breakdown (mem_*_gb),\n"
	    "price and cost in US cents, train_hours, decode_tokens_s.")},
	/* ---- exchange commands (cli/cmd_exchange.c) ---------------------------- */
	{"quotes", cli_cmd_quotes, "", N_("best bid and ask of every GPU on the exchange"),
	 cli_quotes_opts, true,
	 N_("csv and json give prices in US cents per GPU-hour; null = no order on that side.")},
	{"book", cli_cmd_book, "GPU", N_("the order book of one GPU"), cli_book_opts, true,
	 N_("GPU: a catalogue id such as h200, b200, mi300x, rtx-4090 (see gpux quotes).\n"
	    "csv and json: side (ask, bid), price_cents (US cents per GPU-hour), gpus, orders.")},
	{"order", cli_cmd_order, "buy|sell GPU", N_("preview and place an order"), cli_order_opts, true,
	 N_("PRICE: US$ per GPU-hour before tax, as you write it: 4.19 (or 4,19 in languages\n"
	    "with a decimal comma). The exchange's preview is shown first; on a terminal gpux\n"
	    "asks before placing, elsewhere it needs --yes. Exit status 1 when it is refused,\n"
	    "not confirmed, or expires with nothing filled. csv and json: one row, prices in\n"
	    "US cents (*_cents), money in minor units of the account's currency (*_minor).\n"
	    "Example:\n"
	    "  gpux order buy h200 --gpus 8 --hours 24 --market --max-price 5 --yes")},
	{"orders", cli_cmd_orders, "", N_("your orders"), cli_orders_opts, true,
	 N_("csv and json add client_order_id, hold_minor and currency: price_cents in US cents\n"
	    "per GPU-hour, the hold in minor units of that currency, created_at in ISO 8601 UTC.")},
	{"cancel", cli_cmd_cancel, "ORDER", N_("cancel the resting part of an order"), cli_cancel_opts,
	 false,
	 N_("ORDER: an order id (see gpux orders). Fills already made stay; the hold for the\n"
	    "rest is released. Exit status 1 when the order no longer rests or is not yours.")},
	{"rentals", cli_cmd_rentals, "", N_("your rentals (GPU-hours bought or sold)"), cli_rentals_opts,
	 true,
	 N_("csv and json add currency and order_id: price_cents in US cents per GPU-hour,\n"
	    "*_minor in minor units of that currency (VAT included), times in ISO 8601 UTC.")},
	{"stop", cli_cmd_stop, "RENTAL", N_("stop a rental now; unused hours are refunded"),
	 cli_stop_opts, false,
	 N_("RENTAL: a rental id (see gpux rentals). Hours already begun stay billed, the rest\n"
	    "are refunded at once. Exit status 1 when it has ended or is not yours.")},
	{"account", cli_cmd_account, "", N_("your account and balances"), cli_account_opts, false,
	 N_("csv and json: balances in minor units of the currency (available_minor, held_minor,\n"
	    "total_minor), vat_rate_bp in basis points (2300 is 23 percent), local_demo.")},
	{"deposit", cli_cmd_deposit, "AMOUNT", N_("top up your balance (demo exchanges)"),
	 cli_deposit_opts, false,
	 N_("AMOUNT: in your account's currency, as you write it: 500 or 500.00 (500,00 in\n"
	    "languages with a decimal comma). Only demo exchanges take deposits from gpux.\n"
	    "csv and json: amount_minor and the balances, in minor units of the currency.")},
	/* ---- market data (cli/cmd_market.c) ------------------------------------------ */
	{"trades", cli_cmd_trades, "GPU", N_("the latest trades of one GPU"), cli_trades_opts, true,
	 N_("csv and json: id, at (ISO 8601 UTC), price_cents (US cents per GPU-hour), gpus,\n"
	    "hours, taker_side (buy: a buyer took an ask; sell: a seller hit a bid).")},
	{"candles", cli_cmd_candles, "GPU", N_("price history of one GPU: open, high, low, close per interval"),
	 cli_candles_opts, true,
	 N_("Computed by the exchange from its trades; an interval without trades is left out.\n"
	    "csv and json: start (ISO 8601 UTC), open_cents, high_cents, low_cents, close_cents\n"
	    "(US cents per GPU-hour), gpus, gpu_hours, trades.")},
	{"watch", cli_cmd_watch, "[GPU...]", N_("print trades and price changes as they happen"),
	 cli_watch_opts, true,
	 N_("Follows the exchange's market stream until interrupted (Ctrl-C): one line per trade\n"
	    "or change of a GPU's best bid, best ask or last price; all GPUs when none is given.\n"
	    "csv: a header, then one row per change; json: one object per line. Columns: at, gpu,\n"
	    "kind (trade, quote), trade_id, price_cents, gpus, hours, taker_side, best_bid_cents,\n"
	    "best_ask_cents, last_cents. Exit status 1 when the stream cannot be had.\n"
	    "--alerts: your account's events instead (alerts fired, conditional orders entering the\n"
	    "book, standing orders buying, renewing or stopping), each shown once across reconnects\n"
	    "and restarts of the exchange; json: each event's own object, one per line; csv: id, at,\n"
	    "kind, gpu, json. --exec CMD runs CMD for each event with its JSON on standard input\n"
	    "(GPUX_EVENT_ID and GPUX_EVENT_KIND set). Exit status 1 when the stream cannot be had,\n"
	    "is refused, or stays lost for --give-up seconds.")},
	{"alert", cli_cmd_alert, "add [GPU]|list|rm ID...", N_("alerts the exchange keeps for you: add, list, remove"),
	 cli_alert_opts, true,
	 N_("add GPU --ask-below PRICE (or --ask-above, --bid-below, --bid-above, --last-below,\n"
	    "--last-above, --spread-below, --spread-above), add --rental-ending MINUTES [--rental ID],\n"
	    "add --order-filled [--order ID]. An alert fires once, or with --rearm PRICE again each\n"
	    "time the price has moved back by PRICE and crosses once more; the exchange keeps it and\n"
	    "tells you on gpux watch --alerts (and the TUI) even when gpux is not running. A read-only\n"
	    "key may manage alerts; an account has at most 100 live ones.\n"
	    "csv and json: id, when, gpu, price_cents, minutes, rental_id, order_id, rearm_cents,\n"
	    "state (armed, rearming, fired, expired), fired_count, last_fired_at, expires_at, label.\n"
	    "Example:\n"
	    "  gpux alert add h100-sxm --ask-below 2.80 --label 'cheap H100'")},
	{"demo", cli_cmd_demo, "status|stop|reset", N_("the local demo exchange in the background: see, stop or reset it"),
	 cli_demo_opts, false,
	 N_("With no exchange configured gpux starts a demo exchange of its own in the background\n"
	    "(gpuxd --demo on a Unix socket, data in $XDG_DATA_HOME/gpux); it stops by itself\n"
	    "after 5 minutes without a connection (GPUX_DEMO_IDLE seconds).\n"
	    "status: whether it runs, its process, socket and files (csv and json: running, pid,\n"
	    "stale_binary, socket, data_dir, db_bytes, wal_bytes, log). stop: stop it now.\n"
	    "reset: stop it and delete its market and demo account (asks first; --yes)."),
	},
	/* ---- account commands (cli/cmd_signup.c, cli/cmd_account.c) -------------- */
	{"signup", cli_cmd_signup, "", N_("open an account on the exchange; its key is saved for you"),
	 cli_signup_opts, false,
	 N_("Needs a real exchange: --api URL, GPUX_API or api = URL in the config file.\n"
	    "On a terminal it asks for what the flags do not give; elsewhere it needs all four\n"
	    "fields and --yes. The key is written to the config file (mode 0600), which then\n"
	    "also names the exchange; it is printed only with --show-key.\n"
	    "Example:\n"
	    "  gpux signup --api https://exchange.example --email ana@example.pt --country PT \\\n"
	    "    --currency EUR --role buyer --yes")},
	{"keys", cli_cmd_keys, "[list|create|revoke ID]", N_("your API keys: list, create, revoke"),
	 cli_keys_opts, false,
	 N_("A trade key may do everything the account may; a read-only key (--read-only) may\n"
	    "not order, cancel, stop rentals, deposit or manage keys. A new key is shown once.\n"
	    "A revoked key stops working at once; the last trade key cannot be revoked.\n"
	    "csv and json: id, name, scope (trade, read), created_at, last_used_at, current;\n"
	    "create adds api_key, revoke gives revoked_at.")},
	/* ---- end of exchange commands --------------------------------------------- */
	{NULL, NULL, NULL, NULL, NULL, false, NULL},
};

static const struct cli_opt global_opts[] = {
	{"--lang", "L", N_("language: en, pt-PT, pt-BR, es, fr, de (default: see Language below)")},
	{"--format", "FORMAT", N_("table (default, localized), csv or json (raw numbers, stable ids)")},
	{"--api", "URL", N_("the exchange's URL (default: $GPUX_API, else api in the config file, else a local demo exchange)")},
	{"--key", "KEY", N_("API key (default: $GPUX_API_KEY); never printed; - reads it from standard input (on the command line others can see it in ps)")},
	{"--key-file", "PATH", N_("read the API key from the first line of PATH (chmod 600)")},
	{"--timeout", "SECONDS", N_("the whole time one request may take, retries included (default: $GPUX_TIMEOUT, else the config file, else 15)")},
	{"--data", "DIR", N_("read the catalogue's JSON files from DIR instead of the embedded copy")},
	{"--ascii", NULL, N_("ASCII only: no UTF-8 symbols, borders or accents")},
	{"--insecure", NULL, N_("do not verify the exchange's TLS certificate")},
	{"--help", NULL, N_("show this help (after a command: the command's help)")},
	{"--version", NULL, N_("show the version")},
	{NULL, NULL, NULL},
};

enum { G_LANG, G_FORMAT, G_API, G_KEY, G_KEY_FILE, G_TIMEOUT, G_DATA, G_ASCII, G_INSECURE, G_HELP,
       G_VERSION, G_COUNT };

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
	print_opts(out, global_opts);
	fprintf(out, "\n%s\n", _("Environment: GPUX_API, GPUX_API_KEY, GPUX_TIMEOUT (seconds a request may take, retries included), GPUX_GPUXD (the gpuxd to start), NO_COLOR; LANGUAGE, LC_ALL, LC_MESSAGES, LANG choose the language."));
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
	fprintf(out, "\n%s\n", _("Global options (gpux --help): --lang, --format, --api, --key, --key-file, --timeout, --data, --ascii, --insecure."));
	free(usage);
}

/* ---- the interactive screen ----------------------------------------------------- */

/* `gpux` alone: the interactive screen (tui/), on the exchange of --api /
 * GPUX_API / the config file, else the local demo exchange. */
static int run_tui(struct cli_ctx *ctx)
{
	struct api_open_opts open = {
		.url = ctx->api_url, .key = ctx->api_key, .insecure = ctx->insecure,
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
		g = find_opt(global_opts, arg, len);
		if (g < 0) {
			int k = cmd != NULL ? find_opt(cmd->opts, arg, len) : -1;

			if (cmd == NULL) {
				rc = cli_usage(ctx, _("unknown option \"%.*s\"; accepted before the command: --lang, --format, --api, --key, --key-file, --timeout, --data, --ascii, --insecure, --help, --version"),
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
			rc = cli_usage(ctx, _("%s given twice; give it once"), global_opts[g].name);
			break;
		}
		if (global_opts[g].metavar == NULL) {
			if (eq != NULL) {
				rc = cli_usage(ctx, _("%s takes no value; write just %s"), global_opts[g].name,
					       global_opts[g].name);
				break;
			}
			gv[g] = global_opts[g].name;
			continue;
		}
		if (eq != NULL)
			gv[g] = eq + 1;
		else if (i + 1 < argc)
			gv[g] = argv[++i];
		if (gv[g] == NULL || gv[g][0] == '\0') {
			rc = cli_usage(ctx, _("%s needs a value: %s %s"), global_opts[g].name,
				       global_opts[g].name, global_opts[g].metavar);
			break;
		}
	}
	*cmdp = cmd;
	return rc;
}

int main(int argc, char **argv)
{
	struct cli_ctx ctx = {0};
	const char *gv[G_COUNT] = {0};
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
		return cli_completions(stdout, argv[2], cli_commands, global_opts);
	}

	rc = take_args(&ctx, argc, argv, gv, &cmd, cargv, &cargc);
	if (rc != CLI_OK)
		goto out;

	if (i18n_lang_resolve(gv[G_LANG], remembered, &ctx.lang, NULL) != 0) {
		rc = cli_usage(&ctx, _("unknown language \"%s\"; accepted: %s"), gv[G_LANG], i18n_lang_list());
		goto out;
	}
	i18n_init(ctx.lang);
	if (gv[G_LANG] == NULL && remembered != NULL) {
		enum i18n_lang l;
		if (i18n_lang_parse(remembered, &l) != 0)
			cli_usage(&ctx, _("the config file's lang \"%s\" is unknown (accepted: %s); the environment's language is used"),
				  remembered, i18n_lang_list());
	}
	if (gv[G_HELP] != NULL) {
		if (cmd != NULL)
			help_command(stdout, cmd);
		else
			help_main(stdout);
		goto out;
	}
	if (gv[G_VERSION] != NULL) {
		printf("gpux %s\n", GPUX_VERSION);
		goto out;
	}
	if (gv[G_FORMAT] != NULL && (rc = parse_format(&ctx, gv[G_FORMAT])) != CLI_OK)
		goto out;
	ctx.api_url = gv[G_API] != NULL ? gv[G_API] : getenv("GPUX_API");
	if (ctx.api_url != NULL && ctx.api_url[0] == '\0')
		ctx.api_url = NULL;
	if ((rc = key_and_timeout(&ctx, gv[G_KEY], gv[G_KEY_FILE], gv[G_TIMEOUT], &key)) != CLI_OK)
		goto out;
	/* a command or the interactive screen: libcurl loads beside what follows */
	api_curl_start();
	ctx.data_dir = gv[G_DATA];
	ctx.ascii = gv[G_ASCII] != NULL;
	ctx.insecure = gv[G_INSECURE] != NULL;
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
	if (key != NULL) {
		explicit_bzero(key, strlen(key));
		free(key);
	}
	free(cargv);
	free(remembered);
	if (fflush(stdout) != 0 && rc == CLI_OK)
		rc = CLI_FAILED;
	return rc;
}
