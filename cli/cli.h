/*
 * cli — gpux's scriptable commands: `gpux table`, `gpux fit`, and the
 * exchange commands (cli/cmd_exchange.c). cli/main.c parses the global flags,
 * loads the catalogue and picks the language, then calls one command through
 * the command table (data: name, function, options, one-line help).
 *
 * A command is `int cli_cmd_NAME(struct cli_ctx *ctx, int argc, char **argv)`:
 * argv[0] is the command's name, the global flags have already been taken out
 * (they may appear before or after the command), and it returns the exit
 * status: CLI_OK (0), CLI_FAILED (1: the request was fine but could not be
 * done: network, server, damaged catalogue) or CLI_USAGE (2: bad input).
 *
 * Output contract: results go to ctx->out only; every error goes to ctx->err
 * as one line "gpux: <what was wrong>; <what is accepted>". Results are built
 * as a struct cli_sheet (columns with stable ids, rows of cells that carry a
 * localized display text AND a raw, locale-independent value) and printed by
 * cli_sheet_print() in ctx->format: an aligned table measured in terminal
 * columns, CSV (RFC 4180, raw values, empty = not published), or JSON (an
 * array of objects keyed by column id, null = not published).
 */
#ifndef GPUX_CLI_H
#define GPUX_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "i18n/i18n.h"

struct catalog;
struct view_prices;
struct cli_ctx;

/* The exchange's best asks for `gpux table` and `gpux fit`. Until the
 * exchange client wires it (cli/main.c, ctx.get_prices), it is NULL and the
 * price columns stay empty. On success it returns 0 and fills *out with a
 * malloc'ed items array whose gpu_id strings are malloc'ed too (release with
 * cli_prices_free); on failure -1 and *cause (the table is then printed
 * without prices and the cause as a warning on stderr). */
typedef int (*cli_prices_fn)(struct cli_ctx *ctx, struct view_prices *out, char **cause);
void cli_prices_free(struct view_prices *p);

enum cli_status {
	CLI_OK = 0,
	CLI_FAILED = 1,
	CLI_USAGE = 2,
};

enum cli_format {
	CLI_FORMAT_TABLE,  /* localized, aligned (the default) */
	CLI_FORMAT_CSV,    /* raw numbers, column ids as the header */
	CLI_FORMAT_JSON,   /* raw numbers, array of objects */
};

struct cli_ctx {
	enum i18n_lang lang;      /* --lang, else the environment; also set in i18n_init */
	enum cli_format format;
	const char *api_url;      /* --api, else $GPUX_API, else NULL (local demo) */
	const char *api_key;      /* --key, else $GPUX_API_KEY, else NULL; never print it */
	const char *profile;      /* --profile, else NULL ($GPUX_PROFILE, profile = : api/) */
	const char *data_dir;     /* --data DIR, NULL = embedded catalogue */
	bool ascii;               /* --ascii: table output transliterated to ASCII */
	bool insecure;            /* --insecure: do not verify TLS certificates */
	struct catalog *catalog;  /* loaded before any command runs; owned by main */
	FILE *out;                /* results */
	FILE *err;                /* errors */
	cli_prices_fn get_prices; /* NULL until the exchange client provides it */
	bool prices_live;         /* get_prices gave prices (cli_load_prices) */
	bool prices_demo;         /* ... from the local demo exchange */
};

/* ---- the command table --------------------------------------------------- */

/* One option of a command: "--sort" takes a value (metavar "COLUMN[:desc]"),
 * "--checkpointing" does not (metavar NULL). */
struct cli_opt {
	const char *name;         /* with the dashes: "--sort" */
	const char *metavar;      /* NULL for a flag without a value */
	const char *help;         /* English msgid, one line */
};

typedef int (*cli_cmd_fn)(struct cli_ctx *ctx, int argc, char **argv);

struct cli_command {
	const char *name;         /* "table" */
	cli_cmd_fn fn;
	const char *args;         /* synopsis after the name: "WORKLOAD" */
	const char *help;         /* English msgid, one line */
	const struct cli_opt *opts; /* terminated by {NULL}; NULL = no options */
	bool needs_catalog;       /* main loads the catalogue before calling it */
	const char *more;         /* English msgid: more lines for --help, or NULL */
};

/* The table itself, terminated by {NULL}; defined in cli/commands.c. */
extern const struct cli_command cli_commands[];

/* Commands of cli/cmd_table.c and cli/cmd_fit.c. */
int cli_cmd_table(struct cli_ctx *ctx, int argc, char **argv);
int cli_cmd_fit(struct cli_ctx *ctx, int argc, char **argv);
extern const struct cli_opt cli_table_opts[];
extern const struct cli_opt cli_fit_opts[];

/* Commands of cli/cmd_exchange.c (the API engineer's). */
int cli_cmd_quotes(struct cli_ctx *ctx, int argc, char **argv);
int cli_cmd_book(struct cli_ctx *ctx, int argc, char **argv);
int cli_cmd_order(struct cli_ctx *ctx, int argc, char **argv);
int cli_cmd_orders(struct cli_ctx *ctx, int argc, char **argv);
int cli_cmd_cancel(struct cli_ctx *ctx, int argc, char **argv);
int cli_cmd_rentals(struct cli_ctx *ctx, int argc, char **argv);
int cli_cmd_stop(struct cli_ctx *ctx, int argc, char **argv);
/* gpux job (cli/cmd_job.c): a job order. */
int cli_cmd_job(struct cli_ctx *ctx, int argc, char **argv);
extern const struct cli_opt cli_job_opts[];
int cli_cmd_account(struct cli_ctx *ctx, int argc, char **argv);
int cli_cmd_deposit(struct cli_ctx *ctx, int argc, char **argv);
extern const struct cli_opt cli_quotes_opts[], cli_book_opts[], cli_order_opts[],
	cli_orders_opts[], cli_cancel_opts[], cli_rentals_opts[], cli_stop_opts[],
	cli_account_opts[], cli_deposit_opts[];
/* Commands of cli/cmd_market.c: market data (trades, candles, the stream). */
int cli_cmd_trades(struct cli_ctx *ctx, int argc, char **argv);
int cli_cmd_candles(struct cli_ctx *ctx, int argc, char **argv);
int cli_cmd_watch(struct cli_ctx *ctx, int argc, char **argv);
extern const struct cli_opt cli_trades_opts[], cli_candles_opts[], cli_watch_opts[];
/* gpux admin … and gpux withdraw (cli/cmd_admin.c) */
int cli_cmd_admin(struct cli_ctx *ctx, int argc, char **argv);
int cli_cmd_withdraw(struct cli_ctx *ctx, int argc, char **argv);
extern const struct cli_opt cli_admin_opts[], cli_withdraw_opts[];
/* gpux alert add|list|rm, and gpux watch --alerts (cli/cmd_alert.c): the
 * latter with watch's parsed options and its --count (0: no limit). */
int cli_cmd_alert(struct cli_ctx *ctx, int argc, char **argv);
extern const struct cli_opt cli_alert_opts[];
struct cli_args;
int cli_watch_alerts(struct cli_ctx *ctx, const struct cli_args *a, long long count);
/* gpux demo status|stop|reset (cli/cmd_demo.c) */
int cli_cmd_demo(struct cli_ctx *ctx, int argc, char **argv);
extern const struct cli_opt cli_demo_opts[];
/* Commands of cli/cmd_account.c and cli/cmd_signup.c. */
int cli_cmd_signup(struct cli_ctx *ctx, int argc, char **argv);
int cli_cmd_keys(struct cli_ctx *ctx, int argc, char **argv);
extern const struct cli_opt cli_signup_opts[], cli_keys_opts[];
/* The live best asks for `gpux table`/`gpux fit` (a cli_prices_fn): from the
 * configured exchange, else the local demo exchange. */
int cli_exchange_prices(struct cli_ctx *ctx, struct view_prices *out, char **cause);

/* `gpux --completions bash|zsh|fish` (hidden; the build writes the files):
 * the completion script for that shell, from the command table cmds, each
 * command's option table, the global options and the embedded catalogue,
 * on out. CLI_OK, CLI_USAGE (another shell) or CLI_FAILED. */
int cli_completions(FILE *out, const char *shell, const struct cli_command *cmds,
		    const struct cli_opt *global);

/* ---- errors ---------------------------------------------------------------- */

/* Print "gpux: <message>" and a newline on ctx->err; return CLI_USAGE or
 * CLI_FAILED, so error paths read `return cli_usage(ctx, "...", ...);`.
 * The message should say what was wrong and what is accepted. */
int cli_usage(struct cli_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_fail(struct cli_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- option parsing ----------------------------------------------------------- */

/* The parsed options of one command: for each spec entry (same index), the
 * value given (the flag's own name for a flag without value), or NULL when
 * absent; and the positional arguments in order. Pointers point into argv. */
struct cli_args {
	const struct cli_opt *opts; /* the spec it was parsed with */
	const char **values;      /* one per spec entry */
	const char **pos;
	size_t n_pos;
};

/* Parse argv[1..argc-1] against opts (terminated by {NULL}): "--opt VALUE",
 * "--opt=VALUE", flags, "--" ending the options. An argument that starts with
 * '-' followed by a digit or '.' is a positional (so "-5" reaches the command
 * and is rejected there with a reason). Unknown option, missing value, a
 * value given to a flag, an option given twice, or more than max_pos
 * positionals: message on ctx->err and CLI_USAGE (with *a emptied). On success
 * CLI_OK and *a is filled (free with cli_args_free). */
int cli_args_parse(struct cli_ctx *ctx, const char *cmd, const struct cli_opt *opts,
		   int argc, char **argv, size_t max_pos, struct cli_args *a);
/* The value of option `name` (e.g. "--sort"), or NULL if absent. */
const char *cli_arg(const struct cli_args *a, const struct cli_opt *opts, const char *name);
void cli_args_free(struct cli_args *a);

/* Parse a whole number in [min, max] for option `what`; CLI_OK or a usage
 * message and CLI_USAGE ("--gpus: "abc" is not a whole number; accepted: 1 to 4096"). */
int cli_parse_int(struct cli_ctx *ctx, const char *what, const char *s, long long min,
		  long long max, long long *out);
/* Option `name` of a (parsed with a->opts), when given, as a whole number in
 * [min, max] (cli_parse_int) in *out; absent, *out stays as it was. CLI_OK,
 * or a usage message and CLI_USAGE. */
int cli_arg_int(struct cli_ctx *ctx, const struct cli_args *a, const char *name, long long min,
		long long max, int64_t *out);

/* ---- output: sheets of cells ---------------------------------------------------- */

enum cli_align { CLI_LEFT, CLI_RIGHT };

/* Which formats print a column: all, --format table only (e.g. a GPU's name
 * with its architecture), or csv/json only (e.g. ids, memory breakdowns). */
enum cli_show { CLI_SHOW_ALL, CLI_SHOW_TABLE, CLI_SHOW_DATA };

struct cli_sheet;

/* A new, empty sheet; free with cli_sheet_free. */
struct cli_sheet *cli_sheet_new(void);
void cli_sheet_free(struct cli_sheet **s);
/* Add a column: stable id (CSV header, JSON key), translated label (table
 * header), alignment. Strings are copied. All columns before the first row. */
void cli_sheet_column(struct cli_sheet *s, const char *id, const char *label, enum cli_align align);
void cli_sheet_column_for(struct cli_sheet *s, const char *id, const char *label,
			  enum cli_align align, enum cli_show show);
/* A sheet's columns as data: a table of them ended by {NULL}, added in order
 * by cli_sheet_columns. label is a msgid (N_("Order")), translated as it is
 * added; NULL for a column headed by its id (csv/json only, or the
 * operator's sheets). */
struct cli_column {
	const char *id;
	const char *label;
	enum cli_align align;
	enum cli_show show;
};
void cli_sheet_columns(struct cli_sheet *s, const struct cli_column *cols);
/* Start a new row; then one cell per column, in column order. */
void cli_sheet_row(struct cli_sheet *s);
/* Cells: `display` is what --format table prints (copied; NULL = ""), the
 * other argument the raw value of csv/json. Not published: cli_sheet_null. */
void cli_sheet_text(struct cli_sheet *s, const char *display, const char *raw);
void cli_sheet_number(struct cli_sheet *s, const char *display, double raw); /* NAN = null */
void cli_sheet_int(struct cli_sheet *s, const char *display, int64_t raw);
void cli_sheet_bool(struct cli_sheet *s, const char *display, bool raw);
void cli_sheet_null(struct cli_sheet *s, const char *display);
/* A data cell (no display text): v when have / when not NULL, else null. */
void cli_sheet_int_or_null(struct cli_sheet *s, bool have, int64_t v);
void cli_sheet_text_or_null(struct cli_sheet *s, const char *v);
/* A list of integers: a JSON array in json, space-separated in csv. */
void cli_sheet_ints(struct cli_sheet *s, const char *display, const int64_t *v, size_t n);
/* A line printed under the table in --format table only (e.g. "3 of 15
 * shown"); csv and json never carry it. Copied. */
void cli_sheet_note(struct cli_sheet *s, const char *note);
/* The number of rows added so far. */
size_t cli_sheet_rows(const struct cli_sheet *s);
/* Print in ctx->format to ctx->out; 0, or -1 when writing failed.
 * cli_sheet_print_free then frees *s (NULL after) and says it as a
 * command's status: CLI_OK, or CLI_FAILED when writing failed. */
int cli_sheet_print(const struct cli_ctx *ctx, const struct cli_sheet *s);
int cli_sheet_print_free(const struct cli_ctx *ctx, struct cli_sheet **s);

/* A record: the one row --format csv and json print for one object (an order
 * placed, a deposit, a key made), built field by field, each field a column
 * named id and its raw value (copied; text NULL = null). cli_record_print
 * prints it as a sheet and frees it (0, or -1 when writing failed). */
struct cli_record;
struct cli_record *cli_record_new(void);
void cli_record_int(struct cli_record *r, const char *id, int64_t v);
void cli_record_text(struct cli_record *r, const char *id, const char *v);
void cli_record_ints(struct cli_record *r, const char *id, const int64_t *v, size_t n);
void cli_record_bool(struct cli_record *r, const char *id, bool v);
int cli_record_print(const struct cli_ctx *ctx, struct cli_record **r);

/* The helpers of writers of other output (a JSON string, a CSV field, a
 * raw number) are view/'s: view_json_string, view_csv_field, view_raw_number. */

#endif
