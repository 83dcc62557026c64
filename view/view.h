/*
 * view — the view model of a GPU table, shared by `gpux table`/`gpux fit`
 * and the TUI. Pure: no ncurses, no network, no global state (the language
 * is an argument; labels are translated with i18n_dgettext).
 *
 * A struct view_table is built from the catalogue, one workload (or every
 * GPU), the live prices and an optional fit job, and holds rows × cells:
 *
 *   columns  the workload's columns of data/workloads.json (same ids, labels
 *            translated), and with a job the "your model" columns inserted
 *            after the GPU column: job_mem_gb (memory needed per GPU),
 *            job_avail_gb (available), job_fits, job_gpus (GPUs needed),
 *            job_cost (cost per hour of the job at the best ask);
 *   cells    a raw value (number, cents, text or bool; or none = not
 *            published / no price / not computable, flag VIEW_CELL_UNKNOWN),
 *            the display text in the view's language (through the i18n
 *            formatter: "4.800 GB/s", "≈ 10 mil M", "US$ 4,19", "Não
 *            publicado"), the alignment and flags;
 *   rows     one per GPU, in the current sort order; each knows whether it
 *            passes the filter and, with a job, its fit result (the panel's
 *            figures: breakdown, GPUs needed, cost).
 *
 * Sorting is by any column, ascending or descending, with unknown values
 * LAST in both directions and ties broken by GPU name, id, then catalogue
 * order, so the order is a total, stable function of the data. The sort,
 * filter, job and prices are state of the table: changing one keeps the
 * others (re-sorting after a price update), and view_find() gives a GPU's
 * new position so a cursor can stay on it.
 *
 * Ownership: the table owns every string in it; it borrows the catalogue
 * (which must outlive it), and its cells point into both: into the
 * catalogue for names and texts, into a memo per column for formatted
 * figures (each distinct value is formatted once). Inputs (prices, job) are
 * copied.
 */
#ifndef GPUX_VIEW_H
#define GPUX_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api.h"   /* the wire types read by view/order.c (types only) */
#include "data/catalog.h"
#include "fit/fit.h"
#include "i18n/i18n.h"

struct view_sort_cache;
struct view_memo;

/* ---- text width ------------------------------------------------------------ */

/* Width of a code point in terminal columns (0, 1 or 2): wcwidth() when the
 * C library knows it, else the project's table of zero- and double-width
 * ranges; control characters and invalid bytes count 1 (they are printed as
 * a replacement character). */
int view_char_width(uint32_t cp);
/* Width of UTF-8 text in terminal columns, never bytes. NULL is 0. */
size_t view_text_width(const char *utf8);
/* A malloc'ed copy of utf8 at most `cols` columns wide; cut text ends with
 * "…" ("~" when ascii). */
char *view_text_cut(const char *utf8, size_t cols, bool ascii);

/* ---- GPU names (view/gpuname.c) ------------------------------------------------ */

/* The architecture to show after a GPU's name (malloc'ed), or NULL when there
 * is none or the name already says it ("RTX PRO 6000 Blackwell", "RTX 6000
 * Ada": no "Blackwell"/"Ada Lovelace" after them). The GPU column's detail. */
char *view_gpu_detail(const struct catalog_gpu *g);
/* The same, borrowed from the catalogue (g->arch) or NULL. */
const char *view_gpu_detail_ref(const struct catalog_gpu *g);
/* The narrowest a GPU's name may be cut to on screen, in terminal columns:
 * its short form, the name without trailing words that repeat its
 * architecture, plus one column for "…" ("RTX PRO 6000…": 13); a name
 * without such words cannot be cut (its full width). */
size_t view_gpu_short_width(const struct catalog_gpu *g);

/* ---- live prices ----------------------------------------------------------- */

/* A level of a ladder by node size: per price, the units of the ladder's
 * node_gpus GPUs inside one machine it holds (GET /v1/books/{gpu}?node_gpus=). */
struct view_unit_level {
	int64_t price_cents, units;
};

/* What one GPU's book offers beyond its best ask, for pricing a fit job in
 * the units it needs (the quotes of an exchange with lots, and the ladder
 * by node size a front end asked for the job's units). Zero: not known. */
struct view_supply {
	bool quoted;              /* the exchange quoted this GPU (its best ask is
	                             known, none included) */
	int64_t gpus;             /* GPUs at the best ask for units of 1; 0: not known */
	bool n8_known;            /* the quote has units of 8 (an exchange with lots): */
	int64_t n8_cents;         /* ... the best price of a whole unit of 8 in one
	                             machine, -1 none */
	int64_t n8_units;         /* ... and how many units at it */
	int ladder_node_gpus;     /* the ladder below serves units of this many; 0: none */
	bool ladder_link;         /* ... asked on this interconnect only */
	enum fit_interconnect ladder_interconnect;
	const struct view_unit_level *ladder; /* best first (copied by the view) */
	size_t n_ladder;
};

/* Best ask of one GPU: US cents per GPU-hour, or -1 when there is no ask. */
struct view_price {
	const char *gpu_id;       /* "h200" */
	int64_t cents;
	struct view_supply supply;
};

/* A snapshot of the exchange's best asks. GPUs not listed have no price.
 * stale: the snapshot is old (exchange unreachable); price cells then carry
 * VIEW_CELL_STALE. Borrowed by view_new/view_set_prices, which copy it. */
struct view_prices {
	const struct view_price *items;
	size_t n;
	bool stale;
};

/* ---- a fit job priced in the units it needs (view/lots.c) --------------------------
 * A job that needs a node of 8 on NVLink runs only on 8 GPUs inside one
 * machine: with a job, a table's price and cost come from the cheapest
 * capacity that can run it — whole units of the node shape's GPUs (the
 * supply: a quote's units of 1 and of 8, or a ladder by node size) — not
 * from the best single GPU. */

/* What a job needs of one GPU's book: nodes units of node_gpus GPUs inside
 * one machine, on interconnect when link (a scale-up link the job's tensor
 * parallelism needs; PCIe, which every machine has, is no requirement).
 * node_gpus 0: the job does not run on this GPU. */
struct view_job_need {
	int node_gpus, nodes;
	bool link;
	enum fit_interconnect interconnect;
};
/* The need of a fit answer (its shape at the GPUs it runs on). */
void view_job_need_of(const struct fit_result *r, struct view_job_need *out);
/* The need of job on catalogue GPU g (fit_evaluate, then view_job_need_of). */
void view_job_need_for(const struct catalog_gpu *g, const struct fit_job *job,
		       struct view_job_need *out);
/* Whether pricing need n from supply s takes a ladder by node size the
 * supply does not hold (the quotes do not answer it: units of 2 or 4, more
 * units than the best price offers, or no quote of units of 8). */
bool view_need_ladder(const struct view_job_need *n, const struct view_supply *s);

/* The supply a quote gives (NULL: none: not quoted). */
void view_supply_of_quote(const struct api_quote *q, struct view_supply *out);
/* Put the ladder v (borrowed) asked for need n into s. */
void view_supply_set_ladder(struct view_supply *s, const struct view_job_need *n,
			    const struct view_unit_level *v, size_t nv);
/* A ladder by node size from a book's asks (GET /v1/books/{gpu}?node_gpus=):
 * *out malloc'ed, the count returned. */
size_t view_ladder_of_book(const struct api_book *b, struct view_unit_level **out);

enum view_cap {
	VIEW_CAP_NONE,            /* no job, or the job does not run on this GPU */
	VIEW_CAP_OK,              /* the units are on the book: unit_cents, hourly_cents */
	VIEW_CAP_SHORT,           /* fewer units than needed: units_have of nodes */
	VIEW_CAP_EMPTY,           /* no unit of that size on the book */
	VIEW_CAP_UNKNOWN,         /* not known (no price, or a ladder still to ask) */
};
struct view_job_price {
	enum view_cap state;
	struct view_job_need need;
	int64_t unit_cents;       /* the cheapest unit's price per GPU-hour; -1 none */
	int64_t hourly_cents;     /* every unit the job takes, for an hour; -1 unless OK */
	int64_t units_have;       /* units on the book (SHORT: fewer than need.nodes) */
	int64_t worst_cents;      /* the dearest level the units take; -1 unless OK */
};
/* Price need n from the best ask (cents, -1 none) and supply s: walk the
 * ladder when it serves the need (node size and link), else the quote of
 * units of 1 or 8 when it answers; UNKNOWN otherwise. A supply without
 * units of 8 (NULL, or an exchange that sells no lots) prices the need's
 * GPUs at the best ask, as loose GPUs are all such an exchange has. */
void view_job_price_of(const struct view_job_need *n, int64_t cents, const struct view_supply *s,
		       struct view_job_price *out);

/* ---- columns, cells, rows ---------------------------------------------------- */

enum view_col_kind {
	VIEW_COL_GPU,       /* name (and architecture as detail), frozen */
	VIEW_COL_FIELD,     /* a figure of gpus.json */
	VIEW_COL_CAPACITY,  /* seed-table rule (fit_capacity_prudent) */
	VIEW_COL_DECODE,    /* decode tokens/s of a model preset (fit) */
	VIEW_COL_PRICE,     /* live best ask */
	VIEW_COL_BID,       /* market (view_add_market): best bid */
	VIEW_COL_SPREAD,    /* best ask − best bid */
	VIEW_COL_LAST,      /* last trade's price */
	VIEW_COL_CHANGE,    /* change over 24 h, ▲/▼ and a sign */
	VIEW_COL_SPARK,     /* 24 h sparkline (sorts by the change) */
	VIEW_COL_JOB_MEM,   /* your model: memory needed per GPU, GB */
	VIEW_COL_JOB_AVAIL, /* memory available per GPU, GB */
	VIEW_COL_JOB_FITS,  /* fits at the job's GPU count */
	VIEW_COL_JOB_GPUS,  /* GPUs needed */
	VIEW_COL_JOB_COST,  /* cost per hour of the job (GPUs it runs on × ask) */
};

enum view_align { VIEW_LEFT, VIEW_RIGHT, VIEW_CENTER };

struct view_column {
	char *id;                 /* stable: "memory", "fit_full_1", "job_fits" */
	char *label;              /* translated header */
	enum view_col_kind kind;
	bool numeric;             /* sorts and aligns as a number */
	enum view_align align;
	size_t width;             /* preferred width in terminal columns: the
	                             widest of the header and every cell */
	const struct catalog_column *source; /* the catalogue's column; NULL for job columns */
};

enum view_raw {
	VIEW_RAW_NONE,            /* not published / no price / not computable */
	VIEW_RAW_NUMBER,          /* .number (capacity: whole billions) */
	VIEW_RAW_CENTS,           /* .cents (US cents) */
	VIEW_RAW_TEXT,            /* .text */
	VIEW_RAW_BOOL,            /* .flag */
};

/* Cell flags. */
enum {
	VIEW_CELL_UNKNOWN = 1 << 0, /* no value: shown as "not published" or "—" */
	VIEW_CELL_FITS    = 1 << 1, /* the job fits (job columns of a fitting row) */
	VIEW_CELL_NOFIT   = 1 << 2, /* the job does not fit */
	VIEW_CELL_STALE   = 1 << 3, /* a price from a stale snapshot */
	VIEW_CELL_CHANGED = 1 << 4, /* changed by the last view_set_prices */
	VIEW_CELL_UP      = 1 << 5, /* ... and went up */
	VIEW_CELL_DOWN    = 1 << 6, /* ... and went down */
};

struct view_cell {
	enum view_raw raw;
	unsigned flags;
	double number;
	int64_t cents;
	const char *text;         /* VIEW_RAW_TEXT: points into the catalogue */
	const char *display;      /* localized text, never NULL; valid while the
	                             table lives and the cell is not refilled */
	const char *detail;       /* secondary text (GPU column: the architecture,
	                             unless the name says it) or NULL; as display */
	enum view_align align;
	unsigned width;           /* of display, in terminal columns */
	bool flag;
};

/* Row flags. */
enum {
	VIEW_ROW_DIMMED = 1 << 0, /* with a job: this GPU cannot take it */
	VIEW_ROW_HIDDEN = 1 << 1, /* filtered out */
};

struct view_row {
	const struct catalog_gpu *gpu;
	size_t seq;               /* position in the catalogue's (the seeds') order */
	struct view_cell *cells;  /* n_columns, same order as the columns */
	unsigned flags;
	int64_t price_cents;      /* best ask, -1 none */
	int64_t bid_cents, last_cents; /* market columns: -1 none */
	bool has_change;          /* change_bp is known */
	int64_t change_bp;        /* 24 h change, hundredths of a percent */
	char *spark;              /* 24 h sparkline, or NULL */
	bool has_job;
	struct fit_result job;    /* valid when has_job; its hourly_cents and run_cents
	                             are those of the capacity below */
	struct view_supply supply; /* its book beyond the best ask (ladder owned) */
	struct view_job_price cap; /* with a job: what runs it on this GPU costs */
};

struct view_table {
	const struct catalog *catalog;
	const struct catalog_workload *workload; /* NULL: every GPU of the catalogue */
	enum i18n_lang lang;
	bool ascii;

	struct view_column *columns;
	size_t n_columns;
	struct view_row *rows;    /* every GPU, in sort order */
	size_t n_rows;
	size_t *shown;            /* indexes into rows that pass the filter, in order */
	size_t n_shown;

	/* state; change it through the functions below */
	int sort_col;             /* column index; -1 = catalogue order */
	bool sort_desc;
	bool sort_cheapest;       /* "cheapest GPU-hours for this job" */
	char *filter;             /* NULL = none */
	struct view_filter_expr *filter_expr; /* filter compiled; private to view/ */
	bool *pinned;             /* per catalogue GPU (index into catalog->gpus), or NULL */
	bool has_job;
	struct fit_job job;
	bool stale;
	bool market;              /* has the market columns (view_add_market) */

	struct view_cell *cell_block;       /* private to view/: every row's cells */
	struct view_memo *memo;             /* private to view/: per column, its texts */
	struct view_sort_cache *sort_cache; /* private to view/: ranks kept between sorts */
};

/* ---- building and updating ---------------------------------------------------- */

/* Build the table of workload w (NULL: every GPU of the catalogue, columns
 * gpu, memory, bandwidth, bf16, price) in language lang. prices and job may be
 * NULL (no prices / no "your model" columns). The job should have passed
 * fit_job_check(). Never fails; free with view_free. Rows start in the
 * catalogue's order (the seeds' order). */
struct view_table *view_new(const struct catalog *c, const struct catalog_workload *w,
			    const struct view_prices *prices, const struct fit_job *job,
			    enum i18n_lang lang, bool ascii);
void view_free(struct view_table **t);

/* Replace the prices (NULL = none): price and job-cost cells are recomputed,
 * cells whose value changed get VIEW_CELL_CHANGED (and UP/DOWN), others lose
 * it; the current sort is re-applied. Returns the number of changed cells. */
size_t view_set_prices(struct view_table *t, const struct view_prices *prices);

/* ---- market figures beyond the best ask (view/market.c) --------------------------
 * The TUI's market columns: bid ("bid"), spread ("spread"), last trade
 * ("last"), 24 h change ("change_24h": "▲ +1.23 %", ASCII "+1.23 %") and a
 * 24 h sparkline ("spark_24h", text made by the caller, sorting by the
 * change). They are not in the table until view_add_market (`gpux table`
 * shows none), then follow the workload's columns. */
struct view_quote {
	const char *gpu_id;
	int64_t bid_cents;        /* -1: no bid */
	int64_t last_cents;       /* -1: no trade yet */
	bool has_change;
	int64_t change_bp;        /* hundredths of a percent: +123 = +1.23 % */
	const char *spark;        /* the sparkline (UTF-8, or ASCII), NULL: none */
};
struct view_market {
	const struct view_quote *items;  /* GPUs not listed have none of them */
	size_t n;
	const char *spark_label;  /* the sparkline column's header (copied; the
	                             scale its sparklines share), NULL: its own,
	                             "24 h trend" */
};
/* Add the market columns (once; sort, filter, prices and job are kept). */
void view_add_market(struct view_table *t);
/* Replace the market figures (copied; NULL: none; stale as the prices
 * are) and the sparkline column's header. Cells whose value
 * changed get VIEW_CELL_CHANGED (UP/DOWN), others lose it; the sort is
 * re-applied. Returns the number of changed cells (0 without the columns). */
size_t view_set_market(struct view_table *t, const struct view_market *m);

/* Set or clear (NULL) the fit job: the "your model" columns appear or
 * disappear (indexes of the columns after the GPU column shift), rows are
 * dimmed when the job does not fit; sort (by column id), filter and prices
 * are kept. A sort on a job column is dropped when the job is cleared. */
void view_set_job(struct view_table *t, const struct fit_job *job);

/* ---- sorting, filtering, finding ------------------------------------------------- */

/* Index of the column with this id, or -1. */
int view_column_index(const struct view_table *t, const char *id);

/* Sort the rows by column col (0..n_columns-1; -1 = catalogue order),
 * ascending or descending. Unknown values last either way; ties by GPU name
 * (case-insensitively, then exactly), then id, then catalogue order. Clears
 * sort_cheapest. */
void view_sort(struct view_table *t, int col, bool desc);

/* Sort by the job's hourly cost (GPUs it runs on × best ask) among the GPUs
 * where it fits (at the job's GPU count, or with more GPUs: gpus_run > 0);
 * GPUs with no price, then those that cannot take the job at all, come last.
 * Without a job: catalogue order. */
void view_sort_cheapest(struct view_table *t);

/* Keep only the rows that pass the filter expression text (view/filter.c):
 * terms separated by spaces, all of which must hold; a plain word matches a
 * GPU whose name, architecture, vendor or id, or a text column's value,
 * contains it (any case; !word: does not), COLUMN OP VALUE compares a column (= != < <= > >=; a text
 * column: = contains, != does not; prices in US$), a|b takes either: "h100",
 * "mem>=80 type=hbm3e", "price<3", "h100|a100". NULL or "" shows every row.
 * 0, or -1 and *cause (translated, malloc'ed; may be NULL) when text cannot
 * be read: the table keeps the filter it had. Updates t->shown. */
int view_filter_set(struct view_table *t, const char *text, char **cause);
/* The same, what cannot be read left as it was (the error unsaid). */
void view_filter(struct view_table *t, const char *text);

/* A filter expression, compiled (view/filter.c), for a table's columns. */
struct view_filter_expr;
/* 0 and *out (free with view_filter_expr_free), or -1 and *cause. */
int view_filter_parse(const struct view_table *t, const char *text, struct view_filter_expr **out,
		      char **cause);
bool view_filter_match(const struct view_filter_expr *e, const struct view_table *t,
		       const struct view_row *r);
void view_filter_expr_free(struct view_filter_expr **e);
/* One line on what a filter takes, in lang (static). */
const char *view_filter_hint(enum i18n_lang lang);

/* Pin the GPUs ids[0..n) (a watchlist; copied, ids the table lacks are
 * left out) on top: the shown rows that are pinned come first, in the
 * sort's order among themselves, then the others; NULL/0 pins none. The
 * filter still decides which are shown. */
void view_set_pinned(struct view_table *t, char *const *ids, size_t n);

/* Position of a GPU among the shown rows (index into t->shown), or -1 when it
 * is filtered out or unknown. */
int view_find(const struct view_table *t, const char *gpu_id);

/* The i-th shown row (i < t->n_shown). */
const struct view_row *view_shown_row(const struct view_table *t, size_t i);

/* "N of M shown", translated (malloc'ed). */
char *view_count_text(const struct view_table *t);

/* ---- the table as data (view/export.c) ------------------------------------------------ */

enum view_export_format { VIEW_EXPORT_CSV, VIEW_EXPORT_JSON };
/* The shown rows (in the table's sort and filter) of columns cols[0..n)
 * (indexes into t->columns, in that order) appended to out as `gpux table
 * --format csv|json` prints them: column ids, raw values (cents as
 * integers), the GPU column as gpu, name and arch, then the columns of
 * view_unit_id again. Pure. */
struct buf;
void view_export(const struct view_table *t, const size_t *cols, size_t n,
		 enum view_export_format fmt, struct buf *out);
/* A JSON string literal with quotes and escapes; a CSV field, quoted when
 * it must be; a double as decimal text with at most 15 significant digits
 * ("4800", "0.5"; "" for NAN or infinity). malloc'ed. */
char *view_json_string(const char *s);
char *view_csv_field(const char *s);
char *view_raw_number(double v);
/* The csv/json name with a unit of a column whose id gives none (price →
 * price_cents, memory → memory_gb, job_cost → job_cost_cents), written
 * after every other column while the old names stay (one release); NULL
 * for any other id. A string literal. */
const char *view_unit_id(const char *id);

/* ---- helpers shared with the calculator panel -------------------------------------- */

/* The fit model's view of a catalogue GPU at a price (-1 = none). */
void view_fit_gpu(const struct catalog_gpu *g, int64_t price_cents, struct fit_gpu *out);
/* A model preset as the fit model's input. */
void view_fit_model(const struct catalog_model *m, struct fit_model *out);
/* Put a preset into a job: the model, and for a diffusion preset its
 * resolution and frames; the method is left alone. */
void view_job_use_preset(struct fit_job *job, const struct catalog_model *m);
/* A job's answer formatted as the job columns show it: memory in GB
 * ("63,4 GB" in pt-PT). malloc'ed. */
char *view_fmt_gb(enum i18n_lang lang, double gb);
/* (view/fitfmt.c) A training run's duration from hours, as `gpux fit` and
 * the fit panel show it ("8 d 4 h"); "—" ("-" when ascii) when unknown. */
char *view_fmt_run_time(enum i18n_lang lang, double hours, bool ascii);
/* Decode tokens/s as `gpux fit` and the fit panel show it: a whole number
 * ("1.234" in pt-PT); "—" ("-") when unknown. malloc'ed, both. */
char *view_fmt_tokens_s(enum i18n_lang lang, double tokens_s, bool ascii);
/* The machines a job needs: "1 GPU", "1 node of 8 (NVLink)", "3 nodes of 8
 * (PCIe)". malloc'ed. */
char *view_fmt_node_shape(enum i18n_lang lang, const struct fit_node_shape *s);
/* A mixture of experts in words: "47 B total, 13 B active, 8 experts, 2
 * per token, expert parallel over 8 GPUs (1 expert each)" (the last part
 * when the shape s, if given, spreads experts); "" for a dense model.
 * malloc'ed. */
char *view_fmt_moe(enum i18n_lang lang, const struct fit_model *m, const struct fit_node_shape *s);

/* ---- orders in plain words (view/order.c) ---------------------------------------
 * Shared by `gpux order` and the TUI's order form. Pure; the api/ structs are
 * only read. Results are malloc'ed UTF-8, lines joined by "\n". */
/* What gpux knows around a refusal, for words with numbers in them; -1 / NULL
 * where unknown. */
struct view_order_ctx {
	const char *currency;       /* the account's (amounts below are in it) */
	int64_t required_minor;     /* the hold the order needs */
	int64_t available_minor;    /* the available balance */
	int64_t opens_at;           /* the market's announced opening (Unix s) */
};

/* "resting", "partly filled, resting", "filled", … (static, translated). */
const char *view_order_status_text(enum i18n_lang lang, enum api_order_status st);
/* A time in force in plain words ("IOC, immediate or cancel: …"); DEFAULT is
 * the exchange's default for a market (ioc) or limit (gtc) order. Static. */
const char *view_tif_text(enum i18n_lang lang, enum api_tif tif, bool market);
/* An account's role in plain words ("buyer", "seller", "buyer and seller";
 * static, translated). */
const char *view_role_text(enum i18n_lang lang, enum api_role role);
/* Average fill price in US cents (rounded), -1 when nothing filled. */
int64_t view_order_avg_price(const struct api_order *o);
/* The price an orders list shows for o: a limit order's limit, a market
 * order's average fill price (its cap is no price it paid; -1: nothing
 * filled). */
int64_t view_order_list_price(const struct api_order *o);
/* Fills at one price as one level (GPUs summed), in the order the prices
 * first come (best first, as the exchange lists them): into out (room for
 * n), how many levels. */
size_t view_fill_levels(const struct api_preview_fill *v, size_t n, struct api_preview_fill *out);
/* The confirmation: side, count, GPU, hours, type, price or cap, time in
 * force, and with the exchange's preview p (may be NULL) what fills now, the
 * total with VAT, the hold, the rate and the balance after. */
char *view_order_summary(enum i18n_lang lang, const char *gpu_name, const struct api_order_req *r,
			 const struct api_preview *p);
/* What an order placed did: filled at which price, partly filled and
 * resting, resting, expired; its fills and rentals; whether a retry found it
 * already placed. The same lines as `gpux order` prints. */
char *view_order_result(enum i18n_lang lang, const char *gpu_name, const struct api_order *o);
/* A refusal by the exchange's stable code (MARKET_NOT_OPEN, INSUFFICIENT_FUNDS,
 * …; a preview's would_reject) in words a buyer understands, with what to do
 * next; x may be NULL. */
char *view_refusal_text(enum i18n_lang lang, const char *code, const char *message,
			const struct view_order_ctx *x);
/* Any error of the exchange client in such words: refusals by code, an
 * unknown order outcome (with its client order id), timeouts, network. */
char *view_api_error_words(enum i18n_lang lang, const struct api_error *e,
			   const struct view_order_ctx *x);

/* ---- lots and job orders in words (view/lots.c) ----------------------------------
 * What an exchange with lots says, as the CLI and the TUI show it. */
/* A link's name ("NVLink", "Infinity Fabric", "PCIe") from its wire name
 * ("nvlink", …; NULL: "any link"; a name gpux does not know: itself). */
const char *view_link_text(enum i18n_lang lang, const char *wire);
/* The same from the fit model's id (view/fitfmt.c). Static. */
const char *view_link_name(enum i18n_lang lang, enum fit_interconnect i);
/* A machine's host: "112 cores · 2,048 GB RAM · 30,720 GB disk", the
 * figures not stated left out; "host not stated" without any. */
char *view_fmt_host(enum i18n_lang lang, const struct api_host *h);
/* Machines: "o43-1, o43-2", a part-used one with its GPUs there out of
 * node_gpus ("o43-1 (3/8)"), at most max of them (0: all) and "+ N more";
 * none: "machines not recorded". */
char *view_fmt_nodes(enum i18n_lang lang, const struct api_node *v, size_t n, int64_t node_gpus,
		     size_t max);
/* The machines of a lot of gpus GPUs, short: "2 × 8 (NVLink)". */
char *view_fmt_lot_machines(enum i18n_lang lang, const struct api_lot *l, int64_t gpus);
/* A lot of gpus GPUs: "2 nodes of 8 (NVLink) · eu-west · 112 cores · … ·
 * whole nodes only". */
char *view_fmt_lot(enum i18n_lang lang, const struct api_lot *l, int64_t gpus);
/* The lot a sell offers or what a buy requires, as a sentence ("In whole
 * units of 8 GPUs inside one machine, on NVLink, in eu-west or eu-central,
 * on hosts with at least 512 GB RAM."); "" when the order has neither. The
 * exchange's preview p (may be NULL) names the defaults it took (a sell's
 * interconnect and region). */
char *view_fmt_needs(enum i18n_lang lang, const struct api_order_req *r,
		     const struct api_preview *p);
/* What an order placed says of its lot or requirements, a sentence; "" for
 * an order without either (or from an exchange before lots). */
char *view_fmt_order_lot(enum i18n_lang lang, const struct api_order *o);
/* An order's machines, region and host as a list shows them: a sell's lot
 * ("2 × 8 (NVLink)", "us-east", "64 cores · …"), a buy's requirements
 * ("units of 8 (NVLink)", "eu-west us-east", "≥ 512 GB RAM"; "any" where it
 * has none); "—" for an order from an exchange before lots. malloc'ed. */
char *view_fmt_order_machines(enum i18n_lang lang, const struct api_order *o, bool ascii);
char *view_fmt_order_region(enum i18n_lang lang, const struct api_order *o, bool ascii);
char *view_fmt_order_host(enum i18n_lang lang, const struct api_order *o, bool ascii);
/* A rental's machines: its nodes ("o43-1, o43-2"), or its lot's shape when
 * they were not recorded; "—" before lots. */
char *view_fmt_rental_machines(enum i18n_lang lang, const struct api_rental *r, bool ascii);
/* The lots a preview's fills come from, a line each ("8 GPUs at US$2.88:
 * o43-1 · eu-west · NVLink · 112 cores · …"); "" when none is known. */
char *view_fmt_fill_lots(enum i18n_lang lang, const struct api_preview *p);
/* The machines of an alternative the exchange compared ("1 node of 8
 * (NVLink)"; "—" when it needs none known). */
char *view_fmt_job_alt_machines(enum i18n_lang lang, const struct api_job_alt *a);
/* A job order in words: the GPU chosen, its machines, hours and total with
 * VAT, how many GPUs can run it, the budget, and a fit model version that
 * differs from gpux's. */
char *view_job_summary(enum i18n_lang lang, const struct catalog *cat, const struct api_job *j);

/* ---- alerts, triggers and account events (view/alert.c) ---- */
/* What an alert or a trigger watches: "H200 ask at or below US$ 4.10",
 * "rental 9 ending within 30 minutes" (id 0: "any rental …"), "order 41
 * filled" (id 0: "any order filled"); malloc'ed. */
char *view_when_text(enum i18n_lang lang, enum api_when when, const char *gpu_name,
		     int64_t price_cents, int64_t minutes, int64_t id);
/* A job alert's condition: "cheapest total of llama-3.1-405b (Inference FP8)
 * for 24 h at or below €900.00"; model: the job's preset id, or NULL (then
 * its size, params_millions, or "a job"); method: its wire id; hours <= 0:
 * the run's; the budget in currency (VAT included). malloc'ed. */
char *view_job_alert_text(enum i18n_lang lang, const char *model, int64_t params_millions,
			  const char *method, int64_t hours, int64_t max_total_minor,
			  const char *currency);
/* What alert a watches, in words, whatever its kind (view_when_text,
 * view_job_alert_text); gpu_name: the catalogue's name of its GPU or NULL. */
char *view_alert_what(enum i18n_lang lang, const struct api_alert *a, const char *gpu_name);
/* A price condition without its GPU, short: "ask at most US$ 4.10". */
char *view_trigger_short(enum i18n_lang lang, enum api_when when, int64_t price_cents);
/* An alert's state in words (static, translated). */
const char *view_alert_state_text(enum i18n_lang lang, enum api_alert_state st);
/* One event of the account's log in one line ("Alert 12: H200 ask at or
 * below US$ 4.10 — now US$ 4.05"); gpu_name: the catalogue's name of the
 * event's GPU, or NULL for its id; malloc'ed. */
char *view_account_event_text(enum i18n_lang lang, const struct api_account_event *e,
			      const char *gpu_name);
/* What an order's trigger, standing and one-cancels-other group mean for
 * it, a line each (the confirmation's extra lines); NULL when it has none. */
char *view_trigger_text(enum i18n_lang lang, const struct api_order_req *r, const char *gpu_name);

/* ---- the fields of a new account (view/signup.c) ----
 * Each 0, or -1 with *why (malloc'ed, translated, the input sanitised). */
/* NULL if s is a usable e-mail address, else why not (static, translated). */
const char *view_email_problem(const char *s);
int view_signup_email(const char *s, char **why);
/* A two-letter code of m's VAT table (any case): the code and its rate. */
int view_signup_country(const struct api_market *m, const char *s, char cc[3], int64_t *vat_bp,
			char **why);
/* A change in hundredths of a percent as the market columns show it:
 * "▲ +1.23 %", "▼ −0.40 %", "0.00 %"; ASCII "+1.23 %", "-0.40 %" (up and
 * down in signs as well as in colour). malloc'ed. */
char *view_change_text(enum i18n_lang lang, bool ascii, int64_t bp);

/* A currency m offers (any case), as the exchange spells it. */
int view_signup_currency(const struct api_market *m, const char *s, char ccy[4], char **why);
/* buyer, seller, both (or their words in the language): enum api_role.
 * asked: the refusal lists the words of the language. */
int view_signup_role(const char *s, bool asked, int *role, char **why);
/* The codes of the VAT table / the currencies, comma-separated (malloc'ed). */
char *view_signup_countries(const struct api_market *m);
char *view_signup_currencies(const struct api_market *m);
/* The currency a country most likely wants (EUR in the euro area, GBP in
 * the United Kingdom, else USD), among those m offers. */
const char *view_signup_default_currency(const struct api_market *m, const char *cc);

#endif
