/*
 * Internal to cli/: helpers shared by the commands that print a view table
 * (`gpux table`, `gpux fit`) and by the exchange commands (cli/cmd_*.c, the
 * helpers in cli/cmd_exchange.c). Not part of the public header.
 */
#ifndef GPUX_CLI_INT_H
#define GPUX_CLI_INT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "api/api.h"
#include "cli/cli.h"
#include "view/view.h"

/* Apply "--sort COLUMN[:asc|:desc]" to t. With allow_cheapest, COLUMN may be
 * "cheapest" (cheapest GPU-hours for the job). Unknown column or direction:
 * usage message naming the accepted ids, CLI_USAGE. NULL spec: CLI_OK. */
int cli_apply_sort(struct cli_ctx *ctx, const char *cmd, struct view_table *t, const char *spec,
		   bool allow_cheapest);

/* Ask ctx->get_prices (when set) for the best asks. *p is zeroed first and
 * stays empty when there is no price source; a failing source prints a
 * warning on ctx->err and leaves *p empty. Release with cli_prices_free. */
void cli_load_prices(struct cli_ctx *ctx, struct view_prices *p);
/* Under a table with the prices of cli_load_prices (table format only):
 * "Prices per GPU-hour, before tax." (with costs: "... and costs, ...")
 * and, from the local demo exchange, that its money is simulated. Nothing
 * when there were no prices. */
void cli_sheet_price_notes(const struct cli_ctx *ctx, struct cli_sheet *s, bool costs);

/* Under a table that --filter narrowed (filter given, not empty): how many
 * rows of how many are shown (view_count_text). */
void cli_sheet_filter_note(struct cli_sheet *s, const struct view_table *t, const char *filter);

/* Add the columns of t whose kind is in `kinds` (a mask of 1u << enum
 * view_col_kind; CLI_ALL_KINDS for all) to a sheet. The GPU column becomes
 * a table-only "name (architecture)" column and data-only gpu (the id),
 * name and arch columns. */
#define CLI_ALL_KINDS (~0u)
#define CLI_KIND(k) (1u << (k))
void cli_sheet_view_columns(struct cli_sheet *s, const struct view_table *t, unsigned kinds);
/* Add the cells of one row of t, matching cli_sheet_view_columns. */
void cli_sheet_view_cells(struct cli_sheet *s, const struct view_table *t,
			  const struct view_row *r, unsigned kinds);

/* The columns of t named in spec ("memory,price": ids, comma- or
 * space-separated; the GPU column first whether named or not) as indexes
 * into t->columns: CLI_OK and *cols (malloc'ed), *n; or a usage message of
 * cmd naming the table's columns (skip_unknown: ids t lacks are left out,
 * as the TUI's market columns). */
int cli_view_column_list(struct cli_ctx *ctx, const char *cmd, const struct view_table *t,
			 const char *spec, bool skip_unknown, size_t **cols, size_t *n);
/* Those columns to a sheet (r NULL), or the cells of row r. */
void cli_sheet_view_list(struct cli_sheet *s, const struct view_table *t, const size_t *cols,
			 size_t n, const struct view_row *r);
/* csv/json only, after every other column: the view columns whose names gave
 * no unit again under names that do (view_unit_id: price → price_cents,
 * memory → memory_gb, job_cost → job_cost_cents); the old names stay one
 * release. The _list form: of the columns cols[0..n) (r NULL: the columns,
 * else the cells of row r), as cli_sheet_view_list. */
void cli_sheet_view_unit_columns(struct cli_sheet *s, const struct view_table *t, unsigned kinds);
void cli_sheet_view_unit_cells(struct cli_sheet *s, const struct view_table *t,
			       const struct view_row *r, unsigned kinds);
void cli_sheet_view_unit_list(struct cli_sheet *s, const struct view_table *t, const size_t *cols,
			      size_t n, const struct view_row *r);

/* A workload of the catalogue by its id, case-insensitively, in *out; else a
 * usage message of cmd naming the accepted ids and CLI_USAGE. */
int cli_check_workload(struct cli_ctx *ctx, const char *cmd, const char *id,
		       const struct catalog_workload **out);
/* The comma-separated ids of a catalogue's workloads / model presets,
 * malloc'ed, for "accepted: ..." messages. */
char *cli_workload_ids(const struct catalog *c);
char *cli_model_ids(const struct catalog *c);

/* The global options (cli/commands.c): a table terminated by {NULL}, in this order. */
enum cli_global {
	CLI_G_LANG, CLI_G_FORMAT, CLI_G_API, CLI_G_KEY, CLI_G_KEY_FILE, CLI_G_PROFILE, CLI_G_TIMEOUT,
	CLI_G_DATA, CLI_G_ASCII, CLI_G_INSECURE, CLI_G_HELP, CLI_G_VERSION, CLI_G_COUNT
};
extern const struct cli_opt cli_global_opts[];

/* ---- the exchange commands' helpers (cli/cmd_exchange.c) ------------------------------ */

/* A line of human text on ctx->out; a note on ctx->err prefixed "gpux: ".
 * Both transliterated with --ascii. cli_say_lines: each line of a text
 * joined by "\n", through cli_say. */
void cli_say(struct cli_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_note(struct cli_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_say_lines(struct cli_ctx *ctx, const char *text);
/* An answer to "… [y/N]" that means yes: y, yes, the language's word for
 * yes or its first letter, in any case. */
bool cli_is_yes(const char *answer);
/* question (translated, ending in "[y/N]") on ctx->err, a line from stdin:
 * true when it says yes. */
bool cli_confirm(struct cli_ctx *ctx, const char *question);
/* The exchange's error in words on ctx->err; CLI_FAILED. cli_fail_api_free
 * then frees *e (NULL after). */
int cli_fail_api(struct cli_ctx *ctx, const struct api_error *e);
int cli_fail_api_free(struct cli_ctx *ctx, struct api_error **e);
/* Open the exchange named by the flags, environment or config file, else the
 * local demo one (named on stderr unless quiet). NULL after printing why,
 * or with the cause in *cause_out when that is not NULL. */
struct api_client *cli_open_client(struct cli_ctx *ctx, int max_attempts, long timeout_ms,
				   bool quiet, char **cause_out);
/* The same with the default tries and timeout, the settings it took in *used
 * (api_settings_clear them). */
struct api_client *cli_open_client_settings(struct cli_ctx *ctx, struct api_settings *used);
/* Money in the language's format; a price in US cents, "—" for none (-1).
 * Both malloc'ed. */
char *cli_fmt_money(const struct cli_ctx *ctx, int64_t minor, const char *ccy);
char *cli_fmt_usd(const struct cli_ctx *ctx, int64_t cents);
/* Cells: localized text for the table, raw values for csv/json. */
void cli_cell_usd(struct cli_sheet *s, const struct cli_ctx *ctx, int64_t cents);
void cli_cell_money(struct cli_sheet *s, const struct cli_ctx *ctx, int64_t minor,
		    const char *ccy);
void cli_cell_int(struct cli_sheet *s, const struct cli_ctx *ctx, int64_t v);
void cli_cell_id(struct cli_sheet *s, int64_t v);
void cli_cell_time(struct cli_sheet *s, const struct cli_ctx *ctx, int64_t t);
/* A record's field: a time as ISO 8601 UTC, null for none (< 0). */
void cli_record_time(struct cli_record *r, const char *id, int64_t t);
/* A time as ISO 8601 UTC ("2025-06-02T09:00:00Z"), malloc'ed; NULL for none (< 0). */
char *cli_iso_time(int64_t t);
/* The catalogue's name of a GPU id ("H200"), or the id itself. */
const char *cli_gpu_name(const struct cli_ctx *ctx, const char *id);
/* A GPU id of the catalogue, case-insensitively, in *out; else a usage
 * message naming the accepted ids and CLI_USAGE. */
int cli_check_gpu(struct cli_ctx *ctx, const char *cmd, const char *id, const char **out);
/* A price as people type it ("4.19", "4,19") in cents; an id >= 1. CLI_OK or
 * a usage message and CLI_USAGE. */
int cli_parse_price(struct cli_ctx *ctx, const char *opt, const char *s, int64_t *cents);
/* An amount of the account's currency as people type it ("900", "900,50")
 * in minor units, 1 .. 10^11 (docs/API.md's budgets); CLI_OK or a usage
 * message naming cmd and opt and CLI_USAGE. */
int cli_parse_amount(struct cli_ctx *ctx, const char *cmd, const char *opt, const char *s,
		     int64_t *minor);
int cli_parse_id(struct cli_ctx *ctx, const char *what, const char *s, int64_t *id);
/* "2025-06-02T09:00:00Z" or "2025-06-02" (UTC) → Unix seconds; CLI_OK or a
 * usage message naming opt and CLI_USAGE. */
int cli_parse_time(struct cli_ctx *ctx, const char *opt, const char *s, int64_t *out);
/* All of s read as a time in strptime's format fmt, into *tm (zeroed first);
 * false when fmt does not take all of it. */
bool cli_strptime(const char *s, const char *fmt, struct tm *tm);
/* The watch commands end at SIGINT or SIGTERM: cli_watch_signals() sets
 * cli_watch_stop to the signal's number (cli/cmd_market.c). Their loop
 * turns cli_watch_step: wait for c's and st's descriptors (200 ms at the
 * most, less when either has a timer due), then let both do their work. */
extern volatile sig_atomic_t cli_watch_stop;
void cli_watch_signals(void);
void cli_watch_step(struct api_client *c, struct api_stream *st);
/* Translated words of an order's side and status. */
const char *cli_side_text(enum api_side s);
const char *cli_status_text(const struct cli_ctx *ctx, enum api_order_status st);

/* One page of a listing: ask for q (its cursor set), add the rows to s,
 * *next the next page's cursor (malloc'ed) or NULL at the end. 0, or -1
 * with *e filled. */
typedef int cli_list_page_fn(struct cli_ctx *ctx, struct api_client *c,
			     const struct api_list_query *q, struct cli_sheet *s, char **next,
			     struct api_error **e);
/* A --status word of a listing and the status the exchange is asked for
 * (an alias is accepted but not named in "accepted: ..."). */
struct cli_list_status {
	const char *word, *asked;
	bool alias;
};
/* A listing command (gpux orders, gpux rentals) as data: its name and
 * options (--status, --gpu), its --status words ({NULL} ends them; without
 * --status, the last one), its columns and the rows of one page, what more
 * rows than were fetched say (a msgid), and what an empty listing says for
 * the status asked and the GPU's name or NULL (malloc'ed). */
struct cli_listing {
	const char *cmd;
	const struct cli_opt *opts;
	const struct cli_list_status *statuses;
	void (*columns)(struct cli_sheet *s);
	cli_list_page_fn *page;
	const char *more;
	char *(*none)(const char *asked, const char *gpu);
};
/* The command: every page into one sheet, printed; with no row, `none` on
 * stderr instead of a bare header in --format table, and the empty csv
 * header or json array on stdout. CLI_OK, CLI_USAGE or CLI_FAILED. */
int cli_list_command(struct cli_ctx *ctx, const struct cli_listing *l, int argc, char **argv);
/* gpux cancel ID, gpux stop ID: the one id (`which`: the msgid a missing one
 * says) and a client to ask (*c, the caller's to free). CLI_OK or the
 * command's return code, said already. */
int cli_id_command(struct cli_ctx *ctx, const char *cmd, const struct cli_opt *opts, int argc,
		   char **argv, const char *which, int64_t *id, struct api_client **c);
/* What a refused cancel of order id (rental: stop of rental id) says. */
int cli_fail_id(struct cli_ctx *ctx, const struct api_error *e, int64_t id, bool rental);

/* Warn on ctx->err about each setting of the config file that gpux does
 * not read ("FILE, line 3: unknown setting "kye" is ignored; did you mean
 * "key"?"); silent when there is no file (cli/conf_check.c). */
void cli_conf_warn_unknown(struct cli_ctx *ctx);

/* Prints one placed, cancelled or expired order: words in --format table,
 * one row in csv/json (cli/cmd_order.c). */
void cli_print_order_result(struct cli_ctx *ctx, const struct api_order *o);
/* The commands that preview an order and then place it (gpux order, gpux
 * job; cli/cmd_order.c). cli_place_opts: --dry-run (never placed) and
 * --yes (placed unasked) of a into *dry and *yes; with neither a yes is
 * asked on the terminal, so when stdin is none notty (translated) is said
 * and CLI_USAGE returned. cli_place_confirmed, after a preview the exchange
 * would take: true to place it (--yes, or a yes to question, translated,
 * ending "[y/N]"); else false with the command's status in *rc (--dry-run:
 * CLI_OK; a no: "not placed" said, CLI_FAILED). */
int cli_place_opts(struct cli_ctx *ctx, const struct cli_args *a, const char *notty, bool *dry,
		   bool *yes);
bool cli_place_confirmed(struct cli_ctx *ctx, bool dry, bool yes, const char *question, int *rc);

/* The fit job of `gpux fit` and `gpux job` from the model argument (a->pos[0])
 * or --config and the fit job's options in a (cli_fit_opts, cli_job_opts:
 * parsed with a table that holds them): fit_job_defaults, the model (a preset: *preset;
 * a config.json: read into *config, which *preset then points at), every
 * option, fit_job_check. CLI_OK, or a usage message and CLI_USAGE. */
struct catalog_model;
int cli_fit_job_build(struct cli_ctx *ctx, const struct cli_args *a, struct fit_job *job,
		      const struct catalog_model **preset, struct catalog_model *config);

/* ---- lots (cli/lots.c) ---- */
/* Region ids typed as "eu-west,eu-central": owned copies. */
struct cli_regions {
	char **v;
	size_t n;
};
void cli_regions_free(struct cli_regions *r);
/* Split text at commas into at most max region ids (of the characters ids
 * have); CLI_OK, or a usage message naming opt and CLI_USAGE. */
int cli_regions_parse(struct cli_ctx *ctx, const char *opt, const char *text, size_t max,
		      struct cli_regions *out);
/* --node-gpus: 1, 2, 4 or 8. --interconnect: nvlink, infinity-fabric, pcie
 * (and what fit_interconnect_parse takes), *out its wire name (static). */
int cli_parse_node_gpus(struct cli_ctx *ctx, const char *opt, const char *v, int *out);
int cli_parse_link(struct cli_ctx *ctx, const char *opt, const char *v, const char **out);
/* The lot (a sell) or the requirements (a buy) of `gpux order` from the
 * options of opts into r (r->side and r->gpus set before); the region ids
 * live in *keep (free it with cli_regions_free after r is sent). An option
 * of the other side is a usage error naming it, as is --gpus that is not
 * whole machines or units of --node-gpus. */
int cli_lot_parse(struct cli_ctx *ctx, const struct cli_args *a, const struct cli_opt *opts,
		  struct api_order_req *r, struct cli_regions *keep);
/* e is UNKNOWN_REGION: say it with the exchange's regions (asked of c) and
 * return CLI_FAILED; CLI_OK (nothing said) for any other error. */
int cli_fail_region(struct cli_ctx *ctx, struct api_client *c, const struct api_error *e);
/* The lot's columns: "Machines", "Region", "Host" in the table; node_gpus,
 * interconnect, region, (orders: regions), cpu_cores, ram_gb, disk_gb,
 * (orders: min_cpu_cores, min_ram_gb, min_disk_gb, whole_nodes), nodes in
 * csv/json. Then one row's cells, matching. */
void cli_lot_columns(struct cli_sheet *s, bool orders);
void cli_order_lot_cells(struct cli_sheet *s, const struct cli_ctx *ctx, const struct api_order *o);
void cli_rental_lot_cells(struct cli_sheet *s, const struct cli_ctx *ctx, const struct api_rental *r);
/* The same fields of one order, or of a preview (the request echoed, and
 * fill_nodes, fill_regions: the machines and regions its fills take), in a
 * one-row record (csv/json of gpux order). */
void cli_order_lot_record(struct cli_record *r, const struct api_order *o);
void cli_preview_lot_record(struct cli_record *r, const struct api_preview *p);
/* The machines of a preview's fills as "NAME:GPUS" words (malloc'ed, "" for none). */
char *cli_fill_nodes_raw(const struct api_preview *p);
/* For job (gpux fit): the ladders by node size the quotes in p cannot
 * answer (view_need_ladder), asked of the exchange and put into p's
 * supplies (freed by cli_prices_free). Quiet: a GPU whose ladder could not
 * be had keeps what its quote says (its cost then unknown). */
void cli_job_ladders(struct cli_ctx *ctx, const struct fit_job *job, struct view_prices *p);

/* ---- the account commands (cli/cmd_account.c, cli/cmd_signup.c) ---- */
/* s transliterated to ASCII with --ascii (s is taken; the result malloc'ed). */
char *cli_acct_ascii(const struct cli_ctx *ctx, char *s);
/* The configured exchange (or the local demo one, said on stderr); NULL
 * after saying why. *key_given (if not NULL): an API key was configured. */
struct api_client *cli_acct_open(struct cli_ctx *ctx, bool *key_given);
/* An account's fields of every record about it: id, email, country,
 * currency, role, vat_rate_bp. */
void cli_acct_record(struct cli_record *r, const struct api_account *a);
/* A VAT rate in basis points as a percentage, malloc'ed. */
char *cli_acct_vat(const struct cli_ctx *ctx, int64_t bp);
/* "The market is open." / "Trading opens on 1 September 2027 at 10:00."
 * (local time) / …, malloc'ed. */
char *cli_acct_opening(const struct cli_ctx *ctx, const struct api_topup *t);
/* How to top up on this exchange: a line or two on ctx->out. */
void cli_acct_topup(struct cli_ctx *ctx, const struct api_topup *t);

#endif
