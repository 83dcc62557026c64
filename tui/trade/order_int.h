/*
 * Internal to the order pages of the TUI: tui/trade/order_pages.c (the screen
 * every page is shown in: page tabs, F-key bar, dialogs, the account and
 * market the pages read), tui/trade/order_form.c (the
 * order form with its live book and preview, confirmation and submit, a
 * screen over the pure model of tui/trade/order_model.h),
 * tui/trade/orders.c, tui/trade/rentals.c and tui/trade/account.c (lists on the table widget).
 *
 * Each page is a struct tp_page_ops: it places its widgets in the rows it is
 * given, renders them, takes the events the frame does not, and starts the
 * requests that are due (every request is asynchronous; its callback stores
 * the reply and rebuilds what shows it). Drawing is a function of state:
 * panels (struct wpanel) and tables (struct tp_grid under a wtable) are
 * rebuilt from the state after every change, and a panel is redrawn only
 * when its lines differ.
 */
#ifndef GPUX_TUI_ORDER_INT_H
#define GPUX_TUI_ORDER_INT_H

#include "tui/tui_int.h"

enum tp_page { TP_NONE, TP_FORM, TP_ORDERS, TP_RENTALS, TP_ACCOUNT, TP_COUNT };

enum {
	TP_LIST_MS = 2000,          /* orders, rentals, ledger: refreshed this often */
	TP_ACCOUNT_MS = 3000,       /* the account, while a page is shown */
	TP_MARKET_MS = 10000,       /* market state and opening time */
	TP_BOOK_MS = 2000,          /* the form's book */
	TP_DEBOUNCE_MS = 300,       /* a preview this long after the last change */
	TP_PREVIEW_MS = 5000,       /* and again this often (the market moves) */
	TP_FRESH_MS = 5000,         /* a preview older than this is asked again
	                               before the confirmation */
};

/* ---- a grid: rows of texts for the table widget --------------------------------------- */

struct tp_grid {
	size_t n_cols;
	const char *const *head;    /* msgids (translated when drawn) */
	const enum walign *align;
	size_t n_rows, cap;
	char **text;                /* n_rows × n_cols, owned */
	unsigned char *role;        /* enum wrole of each row */
	int64_t *key;               /* the id the cursor follows */
	const char *empty;          /* msgid of the empty table's text (translated
	                               again on each reload) */
};

void tp_grid_init(struct tp_grid *g, size_t n_cols, const char *const *head,
		  const enum walign *align);
void tp_grid_clear(struct tp_grid *g);
void tp_grid_free(struct tp_grid *g);
/* Start a row; then tp_grid_put (takes text) or tp_grid_puts (copies) each
 * column in order. */
void tp_grid_row(struct tp_grid *g, int64_t key, enum wrole role);
void tp_grid_put(struct tp_grid *g, size_t col, char *text);
void tp_grid_puts(struct tp_grid *g, size_t col, const char *text);
/* A table widget over g; empty: what it says without rows, an English
 * msgid (N_(), translated here and on each reload, so a language switch
 * reaches it). */
struct wtable *tp_table_new(struct tui *t, struct tp_grid *g, const char *empty);
/* The key under the cursor, or -1. */
int64_t tp_table_key(const struct wtable *tb, const struct tp_grid *g);
/* The grid changed: reload, the cursor back on the row of key (if any). */
void tp_table_reload(struct wtable *tb, const struct tp_grid *g, int64_t key);

/* ---- a list page: a head panel over a table ---------------------------------------------- */

/* What the orders, rentals and account pages share, embedded in each: the
 * head panel (head_lines rows) over the table, a line being typed under the
 * table (or none), when the list is asked again, the last reply's error and
 * the note of the last action. The page keeps its columns, requests, rows
 * and keys; these do the rest. */
struct tp_list {
	struct wpanel *head;
	struct wtable *table;
	struct tp_grid grid;
	int head_lines;
	struct wfield *input;       /* owned; NULL unless something is typed */
	int64_t next;               /* ms (monotonic) when the list is due */
	char *error;                /* the last reply's, in words; NULL if good */
	char *note;                 /* the last action's outcome, or NULL */
	enum wrole note_role;
};

/* Make the widgets (empty: as for tp_table_new). */
void tp_list_init(struct tui *t, struct tp_list *l, int head_lines, size_t n_cols,
		  const char *const *head, const enum walign *align, const char *empty);
/* Abandon the n requests in reqs that are running (ids 0 are not), free
 * everything l owns (not l). */
void tp_list_free(struct tui *t, struct tp_list *l, const uint64_t *reqs, size_t n);
/* The note replaced by text (taken; NULL for none). */
/* The head's line under the summary: text wrapped to the width, on two
 * lines when it needs them (the head grows by one, the table gives it). */
void tp_list_head_text(struct tui *t, struct tp_list *l, const char *text, enum wrole role);
void tp_list_note(struct tp_list *l, char *text, enum wrole role);
/* A reply came: l->error set from e (or cleared); true if it carries data. */
bool tp_list_reply(struct tui *t, struct tp_list *l, const struct api_error *e);
/* The page ops' layout, hide (l may be NULL), render and cursor. */
void tp_list_layout(struct tui *t, struct tp_list *l, int y, int h);
void tp_list_hide(struct tp_list *l);
bool tp_list_render(struct tp_list *l, bool touch);
bool tp_list_cursor(struct tp_list *l);
/* After the page's own keys: help (with the table's keys), the common keys,
 * then the table. */
unsigned tp_list_event(struct tui *t, struct tp_list *l, const struct wevent *ev);
/* Tick: true when the page should start its requests now (none running,
 * next reached; next moved every_ms on). Then tp_list_wake lowers *next to
 * l->next unless a request is running. */
bool tp_list_due(struct tp_list *l, bool busy, int64_t now, int every_ms);
void tp_list_wake(const struct tp_list *l, bool busy, int64_t *next);

/* ---- pages -------------------------------------------------------------------------------- */

struct tp_page_ops {
	/* A list page: its struct tp_list (NULL until first shown), through
	 * which the frame lays out, hides, renders and places the cursor; its
	 * layout, hide, render and cursor are NULL. NULL for other pages. */
	struct tp_list *(*list)(struct tui *t);
	/* Place the page's widgets in rows y .. y+h-1 (full width); hide them. */
	void (*layout)(struct tui *t, int y, int h);
	void (*hide)(struct tui *t);
	/* Render the page's widgets (dirty ones); true if any was copied.
	 * under: the frame around changed (re-copy what lies over it). */
	bool (*render)(struct tui *t, bool under);
	/* Move the terminal cursor into the focused field; false if none. */
	bool (*cursor)(struct tui *t);
	/* A key or click the frame did not take. */
	unsigned (*event)(struct tui *t, const struct wevent *ev);
	/* Start what is due; lower *next (ms, monotonic) to when it next is. */
	void (*tick)(struct tui *t, int64_t now, int64_t *next);
	/* Shown (true) or left (false). */
	void (*shown)(struct tui *t, bool on);
	/* Rebuild panels and tables from the state (after a reply, a layout). */
	void (*rebuild)(struct tui *t);
	/* The F-key bar and the help's first section. */
	void (*fkeys)(struct tui *t, struct wfkeys *f);
	const struct wbinding *bindings;
	size_t n_bindings;
	const char *help_title;     /* msgid */
	void (*free)(struct tui *t);
};

extern const struct tp_page_ops tp_form_ops, tp_orders_ops, tp_rentals_ops, tp_account_ops;

/* Dialogs of the pages (one at a time). */
enum tp_dialog { TD_NONE, TD_CONFIRM, TD_RESULT, TD_CANCEL, TD_STOP, TD_DEPOSIT, TD_INFO };

struct tp_form;
struct tp_orders;
struct tp_rentals;
struct tp_account;

struct tui_trade {
	enum tp_page page;
	struct wtabs *tabs;
	struct wfkeys *fkeys;
	int body_y, body_h;          /* rows the page has */

	enum i18n_lang lang;         /* the language the pages' texts are in */

	/* The account and the market, as every page needs them. */
	struct api_account *acct;    /* NULL until the first reply */
	uint64_t acct_req;
	int64_t acct_next;
	char *acct_error;            /* words; NULL when the last reply was good */
	struct api_market *market;
	uint64_t market_req;
	int64_t market_next;

	struct tp_form *form;
	struct tp_orders *orders;
	struct tp_rentals *rentals;
	struct tp_account *account;
};

/* ---- order_pages.c: shared by the pages ----------------------------------------------------- */

/* The pages' state, made on first use. */
struct tui_trade *tp_get(struct tui *t);
/* Show a page (from the tables or another page). */
void tp_show(struct tui *t, enum tp_page page);
/* Back to the tables. */
void tp_back(struct tui *t);
/* The F-key bar of the current page changed. */
void tp_fkeys_changed(struct tui *t);
/* Open a dialog (kind and id say what its answer is for, and which page's
 * callback gets it); y_only: Enter does not confirm, only y. */
void tp_dialog(struct tui *t, enum tp_dialog kind, int64_t id, const char *title,
	       const char *text, const char *hint, bool y_only);
/* Whether a page is shown (the pages' screen is on the stack). */
bool tp_shown(const struct tui *t);
/* The account (and the status bar's balance) asked again now. */
void tp_account_soon(struct tui *t);
/* Rebuild every page made so far (the account or market changed). */
void tp_rebuild_all(struct tui *t);
/* The pages' help: the page's keys, the pages' common keys, then extra. */
void tp_help(struct tui *t, const struct whelp_section *extra, size_t n_extra);
/* Enter on a list's row: the detail screen of gpu over the page (Esc comes
 * back to it); a message when no row is under the cursor. */
void tp_detail_open(struct tui *t, const char *gpu);
/* Keys every page shares (pages, back); W_IGNORED if not one. */
unsigned tp_common_key(struct tui *t, wkey k);
/* "Available €4,088.00 · held €912.00" from the account (or a hint while it
 * is not known), appended to c. */
void tp_balance_line(struct tui *t, struct wcells *c);
/* seg after what c holds when it fits whole in width columns; a segment that
 * does not fit is left out, never cut. */
void tp_add_whole(struct wcells *c, const char *seg, int width);
/* What the exchange said, in words a buyer understands (malloc'ed). */
char *tp_error_words(struct tui *t, const struct api_error *e);
/* Formatting in the TUI's language (malloc'ed). */
char *tp_usd(const struct tui *t, int64_t cents);      /* "—" for -1 */
char *tp_money(const struct tui *t, int64_t minor, const char *ccy);
char *tp_int(const struct tui *t, int64_t v);
char *tp_date(const struct tui *t, int64_t unix_s);    /* "—" for -1 */
/* The catalogue's name of a GPU id, or the id. */
const char *tp_gpu_name(const struct tui *t, const char *id);
/* The best ask of a GPU from the live quotes, -1 if none. */
int64_t tp_best_ask(const struct tui *t, const char *gpu);
/* The account's currency, or NULL before it is known. */
const char *tp_currency(const struct tui *t);

/* ---- the pages' own entry points ----------------------------------------------------------------- */

/* order_form.c: (re)fill the form for a GPU; the account arrived (role). */
void tp_form_setup(struct tui *t, const char *gpu, bool sell, int gpus, int hours);
void tp_form_account_changed(struct tui *t);
/* The language changed (label width, the price's separator). */
void tp_form_lang_changed(struct tui *t);
/* A dialog of the form closed (confirmed or not). */
void tp_form_dialog(struct tui *t, enum tp_dialog kind, bool yes, wkey key);
/* orders.c, rentals.c, account.c: a dialog of theirs closed; refresh now. */
void tp_orders_dialog(struct tui *t, enum tp_dialog kind, int64_t id, bool yes);
void tp_rentals_dialog(struct tui *t, enum tp_dialog kind, int64_t id, bool yes);
void tp_account_dialog(struct tui *t, enum tp_dialog kind, int64_t id, bool yes);
/* Money moved: every list asked again at once. */
void tp_lists_soon(struct tui *t);
void tp_rentals_soon(struct tui *t);
void tp_ledger_soon(struct tui *t);
/* The GPU of the row under the cursor of a list page (for b), or NULL. */
const char *tp_orders_gpu(struct tui *t);
/* The open orders as last listed (NULL: not listed yet); for the detail
 * screen's ladder, which marks the account's own levels. */
const struct api_orders *tp_orders_open_list(const struct tui *t);
const char *tp_rentals_gpu(struct tui *t);

#endif
