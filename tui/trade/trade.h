/*
 * Internal to the trade screens (tui/trade/): the order form
 * (order_form.c, over the pure model of order_model.h), your orders
 * (orders.c), your rentals (rentals.c), your account and its API keys
 * (account_page.c) — each a screen of its own class with its state in its
 * own struct, private to its file —, your alerts and messages (alerts.c)
 * and the welcome screen (welcome.c).
 *
 * What the pages share is composed, not inherited through a second
 * interface (tmux's mode_tree_start serves window-buffer, -tree and
 * -client the same way):
 *
 *  - struct tui_page (pages.c): the screen of a page — it covers the
 *    tables under a row of page tabs; its keys move between pages (o R a A,
 *    Tab, b s, Esc); it is kept when it leaves the stack (TS_PAGE), so
 *    what was typed and what was asked outlive it;
 *  - struct tui_list (list.c): a page that is a list — a head panel over a
 *    table of rows (struct tui_grid: texts, a role per row and the id the
 *    cursor follows), a line being typed under it, when it is asked again,
 *    the last reply's error, the note of the last action, and the
 *    confirmation of an action on a row; the page gives its requests, rows
 *    and keys (struct tui_list_ops).
 *
 * The account and the market come from their one owner (tui/feed/): pages
 * read them in recalc (t->account.gen, t->m.state_gen). Nothing waits:
 * every request is started from a tick (or a key) and its callback stores
 * the reply and marks the page to be built again; drawing is a function of
 * state.
 *
 * To grow a page: its data and requests in its struct and file; a column
 * is a name in its head[]/align[] and a tui_grid_put in its row function;
 * a key is a line in its map (with a bar word if it belongs on the F-key
 * bar) and a case in its handler; a field of the order form is a row of
 * the model (order_model.h).
 */
#ifndef GPUX_TUI_TRADE_H
#define GPUX_TUI_TRADE_H

#include "tui/tui_int.h"

enum {
	TUI_LIST_MS = 2000,         /* orders, rentals: refreshed this often */
	TUI_LEDGER_MS = 3000,       /* the ledger and the keys, while shown */
};

/* ---- a page (pages.c) --------------------------------------------------------------------------- */

struct tui_page {
	struct tui_screen base;
	enum tui_place place;       /* which page it is (its tab) */
	struct wtabs *tabs;         /* the page tabs on row 0 (one of base's widgets) */
	/* The GPU of what the page's cursor is on (b, s), or NULL. May be NULL. */
	const char *(*gpu)(struct tui_page *p);
};

/* The keys every page shares (its map titled "Pages"): o R a, Tab,
 * Shift-Tab, b s, Esc. Their actions are TUI_PAGE_ACTIONS and above: a
 * page's own actions are below. */
enum { TUI_PAGE_N_KEYS = 11, TUI_PAGE_ACTIONS = 0x100 };
extern const struct wbinding tui_page_bindings[TUI_PAGE_N_KEYS];

void tui_page_init(struct tui_page *p, const struct tui_screen_class *cls, struct tui *t,
		   enum tui_place place);
/* Show p on the stack (made, kept aside, or beneath another screen). */
void tui_page_show(struct tui_page *p);
/* The page tabs on row 0; the page's rows are body (the rest of it). */
void tui_page_layout(struct tui_page *p);
/* A click on the tabs, or one of tui_page_bindings: W_IGNORED if neither. */
unsigned tui_page_event(struct tui_page *p, const struct wevent *ev);
/* TN_LANG: the tabs in the new language; TN_ENTER: the account and the
 * market's state asked again. */
void tui_page_notify(struct tui_page *p, unsigned what);
/* tui_page_bindings' actions the F-key bar offers (not the page's own tab);
 * a page's own actions, every one. */
bool tui_page_offers(const struct tui_page *p, int action);
/* Enter on a row: the detail screen of gpu over the page (Esc comes back
 * to it); a message when no row is under the cursor. */
void tui_page_detail(struct tui_page *p, const char *gpu);

/* "Available €4,088.00 · held €912.00" from the account (or a hint while it
 * is not known), appended to c. */
void tui_page_balance(struct tui *t, struct wcells *c);
/* seg after what c holds when it fits whole in width columns; a segment that
 * does not fit is left out, never cut. */
void tui_add_whole(struct wcells *c, const char *seg, int width);

/* ---- a grid: rows of texts for the table widget (list.c) ---------------------------------------- */

struct tui_grid {
	size_t n_cols;
	const char *const *head;    /* msgids (translated when drawn) */
	const enum walign *align;
	size_t n_rows, cap;
	char **text;                /* n_rows × n_cols, owned */
	unsigned char *role;        /* enum wrole of each row */
	int64_t *key;               /* the id the cursor follows */
	const char *empty;          /* msgid of the empty table's text (translated
	                               again on each reload) */
	const char *empty_keys[3];  /* the actions whose keys its %s name, as bound
	                               (NULL-terminated) */
};

void tui_grid_clear(struct tui_grid *g);
/* Start a row; then tui_grid_put (takes text) or tui_grid_puts (copies)
 * each column in order. */
void tui_grid_row(struct tui_grid *g, int64_t key, enum wrole role);
void tui_grid_put(struct tui_grid *g, size_t col, char *text);
void tui_grid_puts(struct tui_grid *g, size_t col, const char *text);

/* ---- a list page (list.c) ---------------------------------------------------------------------------- */

struct tui_list;

/* What a list page gives the list. */
struct tui_list_ops {
	/* An action of the page's own map (its first): W_* flags, W_IGNORED
	 * for none of them. */
	unsigned (*key)(struct tui_list *l, int action);
	/* A key while a line is typed under the table (l->input). May be NULL. */
	unsigned (*typed)(struct tui_list *l, const struct wevent *ev);
	/* Whether the F-key bar offers one of its own actions now. NULL: always. */
	bool (*offers)(const struct tui_list *l, int action);
	/* The list is due: start the page's requests (t->api is there). */
	void (*ask)(struct tui_list *l);
	/* Whether the page's requests are on their way (the list is not due then). */
	bool (*busy)(const struct tui_list *l);
	/* The rows (tui_grid_row …) and the head panel from the page's data;
	 * the cursor is put back on its row after. */
	void (*build)(struct tui_list *l);
	/* The GPU of the row with this key (Enter, b, s), or NULL. */
	const char *(*gpu)(struct tui_list *l, int64_t key);
};

/* What a list page is, as data: its class and place, the size of its
 * struct (which starts with its struct tui_list), how often it is asked
 * again while shown, its head's lines, its columns (msgids, alignments)
 * and what its table says without rows (a msgid). */
struct tui_list_def {
	const struct tui_screen_class *cls;
	enum tui_place place;
	size_t size;
	int every_ms, head_lines;
	size_t n_cols;
	const char *const *head;
	const enum walign *align;
	const char *empty;
	const char *empty_keys[3];  /* the actions whose keys empty's %s name */
};

struct tui_list {
	struct tui_page page;       /* the screen */
	const struct tui_list_def *def;
	const struct tui_list_ops *ops;
	struct wpanel *head;        /* head_lines rows over the table */
	struct wtable *table;
	struct tui_grid grid;
	int head_lines;
	struct wfield *input;       /* a line being typed under the table, or NULL */
	int64_t next;               /* ms (monotonic) when the list is due */
	char *error;                /* the last reply's, in words; NULL if good */
	char *note;                 /* the last action's outcome, or NULL */
	enum wrole note_role;
	bool dirty;                 /* build again at the next recalc */
	uint64_t seen_account, seen_state, seen_moved;
	/* the action a confirmation is open for (tui_list_confirm) */
	void (*act)(struct tui_list *l, int64_t id);
	char *kept;                 /* the note when it is not confirmed */
};

/* Show the list page of def: the one kept, else a new one (def->size
 * bytes, zeroed) made of def and ops. */
void tui_list_open(struct tui *t, const struct tui_list_def *def, const struct tui_list_ops *ops);
/* Abandon the n requests in reqs that are running (ids 0 are not); free
 * what l owns but its widgets (the stack's). */
void tui_list_free(struct tui_list *l, const uint64_t *reqs, size_t n);

/* The class functions of a list page. */
void tui_list_layout(struct tui_screen *s, struct tui_area *body);
void tui_list_recalc(struct tui_screen *s, int64_t now);
void tui_list_tick(struct tui_screen *s, int64_t now, int64_t *next);
void tui_list_notify(struct tui_screen *s, unsigned what);
/* The page's maps, then the table's keys. */
size_t tui_list_help(struct tui_screen *s, struct whelp_section *out, size_t max);
/* A line being typed takes every key (ops->typed); else the page's own
 * keys (ops->key), Enter (the row's GPU in detail), the pages' keys, then
 * the table. */
unsigned tui_list_event(struct tui_screen *s, const struct wevent *ev);
/* ops->offers for the page's own actions, tui_page_offers for the others. */
bool tui_list_offers(const struct tui_screen *s, int action);

/* The key of the row under the cursor, or -1. */
int64_t tui_list_key(const struct tui_list *l);
/* Built again at the next frame; asked again now. */
void tui_list_dirty(struct tui_list *l);
void tui_list_soon(struct tui_list *l);
/* The note replaced by text (taken; NULL for none). */
void tui_list_note(struct tui_list *l, char *text, enum wrole role);
/* A reply came: l->error set from e (or cleared); true if it carries data. */
bool tui_list_reply(struct tui_list *l, const struct api_error *e);
/* Ask before act(l, id) runs: a dialog (title, text, hint; y or Enter
 * confirm); not confirmed, the note is kept (taken). */
void tui_list_confirm(struct tui_list *l, int64_t id, const char *title, const char *text,
		      const char *hint, void (*act)(struct tui_list *l, int64_t id), char *kept);
/* An action's answer: its error in words, or note (taken) also as a
 * message; money moved either way (the account and every list again). */
void tui_list_acted(struct tui_list *l, const struct api_error *e, char *note);

/* The line typed under the table (GNU readline): prompt, the hint after
 * it, its history (NULL: a private one); closed, it goes. */
void tui_list_input_open(struct tui_list *l, const char *prompt, const char *hint,
			 const char *history_id);
void tui_list_input_close(struct tui_list *l);

/* The head of an orders-like list: the balance line and the n segments
 * of extra after it (each whole or not at all), then one line, wrapped to
 * two if it must: the note, the error, "no exchange", asking until have,
 * else hint. */
void tui_list_head(struct tui_list *l, const char *const *extra, size_t n, bool have,
		   const char *asking, const char *hint);

/* ---- the places of the trade screens (tui/screens.c) --------------------------------------------------- */

extern const struct tui_screen_class tui_welcome_class;
extern const struct tui_screen_class tui_order_form_class, tui_orders_class, tui_rentals_class,
	tui_account_page_class, tui_job_order_class,
	tui_alerts_class;
void tui_alerts_open(struct tui *t, const struct tui_goto *g);
void tui_order_form_open(struct tui *t, const struct tui_goto *g);
void tui_orders_open(struct tui *t, const struct tui_goto *g);
void tui_rentals_open(struct tui *t, const struct tui_goto *g);
void tui_account_page_open(struct tui *t, const struct tui_goto *g);
void tui_welcome_open(struct tui *t, const struct tui_goto *g);
void tui_first_run_open(struct tui *t, const struct tui_goto *g);
/* The fit job's order across every GPU (job_order.c); a message without a job. */
void tui_job_order_open(struct tui *t, const struct tui_goto *g);

#endif
