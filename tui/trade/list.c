/*
 * A list page (struct tui_list, trade.h): the machinery the orders,
 * rentals and account pages share by composition — each keeps its columns,
 * requests, rows and keys, and gives the list four callbacks (struct
 * tui_list_ops); the list does the rest:
 *
 *  - the widgets: the page tabs, a head panel (struct wpanel: lines of
 *    cells, redrawn only when they change) over a table (struct tui_grid
 *    under the table widget: the cursor follows its row's id, not its
 *    position, as rows come and go), and a line being typed under it;
 *  - when it is asked again: every every_ms while shown, at once when it
 *    is shown and when money moved (t->account.moved), never while its
 *    requests are on their way;
 *  - being built again (ops->build) whenever its data, the account or the
 *    market's state changed (generation counters, read in recalc), after a
 *    layout, and after an action;
 *  - the keys every list has: Enter (the row's GPU in detail), the pages'
 *    keys, then the table's own;
 *  - an action on a row: asked first (tui_list_confirm), its outcome noted
 *    (tui_list_acted).
 */
#include "tui/trade/trade.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

/* ---- the grid under the table widget ---------------------------------------------------------- */

void tui_grid_clear(struct tui_grid *g)
{
	for (size_t i = 0; i < g->n_rows * g->n_cols; i++)
		free(g->text[i]);
	g->n_rows = 0;
}

static void grid_free(struct tui_grid *g)
{
	tui_grid_clear(g);
	free(g->text);
	free(g->role);
	free(g->key);
	memset(g, 0, sizeof *g);
}

void tui_grid_row(struct tui_grid *g, int64_t key, enum wrole role)
{
	if (g->n_rows == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 32;
		g->text = xreallocarray(g->text, cap * g->n_cols, sizeof *g->text);
		g->role = xreallocarray(g->role, cap, sizeof *g->role);
		g->key = xreallocarray(g->key, cap, sizeof *g->key);
		g->cap = cap;
	}
	for (size_t c = 0; c < g->n_cols; c++)
		g->text[g->n_rows * g->n_cols + c] = NULL;
	g->role[g->n_rows] = (unsigned char)role;
	g->key[g->n_rows] = key;
	g->n_rows++;
}

void tui_grid_put(struct tui_grid *g, size_t col, char *text)
{
	char **slot = &g->text[(g->n_rows - 1) * g->n_cols + col];

	free(*slot);
	*slot = text;
}

void tui_grid_puts(struct tui_grid *g, size_t col, const char *text)
{
	tui_grid_put(g, col, xstrdup(text != NULL ? text : ""));
}

static size_t grid_rows(void *ctx)
{
	return ((struct tui_grid *)ctx)->n_rows;
}

static size_t grid_cols(void *ctx)
{
	return ((struct tui_grid *)ctx)->n_cols;
}

static void grid_header(void *ctx, size_t col, struct wcells *out)
{
	struct tui_grid *g = ctx;
	wcells_add(out, _(g->head[col]), WR_HEADER, 0);
}

static void grid_cell(void *ctx, size_t row, size_t col, struct wcells *out)
{
	struct tui_grid *g = ctx;
	const char *s = g->text[row * g->n_cols + col];
	wcells_add(out, s != NULL ? s : "", (enum wrole)g->role[row], 0);
}

static enum walign grid_align(void *ctx, size_t col)
{
	struct tui_grid *g = ctx;
	return g->align != NULL ? g->align[col] : WALIGN_LEFT;
}

/* The table again after the grid changed, the cursor on the row of key. */
/* The empty table's text in today's language, its keys as bound. */
static void set_empty(const struct tui *t, struct wtable *tb, const struct tui_grid *g)
{
	char *e = tui_key_textv(t, _(g->empty), g->empty_keys);

	wtable_set_empty_text(tb, e);
	free(e);
}

static void table_reload(const struct tui *t, struct wtable *tb, const struct tui_grid *g,
			 int64_t key)
{
	if (g->empty != NULL)
		set_empty(t, tb, g);
	wtable_reload(tb, true);
	for (size_t i = 0; key >= 0 && i < g->n_rows; i++) {
		if (g->key[i] == key) {
			if (i != tb->sel)
				wtable_select(tb, i);
			return;
		}
	}
}

/* ---- the list ------------------------------------------------------------------------------------ */

static const char *list_gpu(struct tui_page *p)
{
	struct tui_list *l = (struct tui_list *)p;

	return l->ops->gpu != NULL ? l->ops->gpu(l, tui_list_key(l)) : NULL;
}

static void list_init(struct tui_list *l, struct tui *t, const struct tui_list_def *def,
		      const struct tui_list_ops *ops)
{
	struct wtable_source src = {
		.ctx = &l->grid, .rows = grid_rows, .cols = grid_cols, .header = grid_header,
		.cell = grid_cell, .align = grid_align,
	};

	tui_page_init(&l->page, def->cls, t, def->place);
	l->page.gpu = list_gpu;
	l->def = def;
	l->ops = ops;
	l->head_lines = def->head_lines;
	l->grid = (struct tui_grid){ .n_cols = def->n_cols, .head = def->head, .align = def->align,
				     .empty = def->empty,
				     .empty_keys = { def->empty_keys[0], def->empty_keys[1] } };
	l->head = (struct wpanel *)tui_screen_add(&l->page.base, &wpanel_new(&t->ui)->base);
	l->table = (struct wtable *)tui_screen_add(&l->page.base, &wtable_new(&t->ui, &src)->base);
	{
		size_t nm;
		const struct wbinding *m = tui_keys_bound(t, wtable_bindings, WTABLE_N_BINDINGS, &nm);
		wtable_set_bindings(l->table, m, nm);
	}
	set_empty(t, l->table, &l->grid);
	wwidget_set_focus(&l->table->base, true);
	l->dirty = true;
}

void tui_list_open(struct tui *t, const struct tui_list_def *def, const struct tui_list_ops *ops)
{
	struct tui_list *l = (struct tui_list *)tui_find_kept(t, def->cls);

	if (l == NULL) {
		l = xcalloc(1, def->size);
		list_init(l, t, def, ops);
	}
	tui_page_show(&l->page);
}

void tui_list_free(struct tui_list *l, const uint64_t *reqs, size_t n)
{
	struct tui *t = l->page.base.t;

	for (size_t i = 0; t->api != NULL && i < n; i++)
		if (reqs[i] != 0)
			api_abandon(t->api, reqs[i]);
	grid_free(&l->grid);
	free(l->error);
	free(l->note);
	free(l->kept);
}

int64_t tui_list_key(const struct tui_list *l)
{
	const struct wtable *tb = l->table;

	if (l->grid.n_rows == 0 || tb->sel >= l->grid.n_rows)
		return -1;
	return l->grid.key[tb->sel];
}

void tui_list_dirty(struct tui_list *l)
{
	l->dirty = true;
	l->page.base.t->redraw = true;
}

void tui_list_soon(struct tui_list *l)
{
	l->next = 0;
}

void tui_list_note(struct tui_list *l, char *text, enum wrole role)
{
	free(l->note);
	l->note = text;
	l->note_role = role;
	tui_list_dirty(l);
}

bool tui_list_reply(struct tui_list *l, const struct api_error *e)
{
	free(l->error);
	l->error = e != NULL ? tui_error_words(l->page.base.t, e) : NULL;
	tui_list_dirty(l);
	return e == NULL;
}

/* The rows and the head from the page's data, the cursor kept on its row. */
static void build(struct tui_list *l)
{
	struct tui *t = l->page.base.t;
	int64_t key = tui_list_key(l);

	l->dirty = false;
	l->seen_account = t->account.gen;
	l->seen_state = t->m.state_gen;
	tui_grid_clear(&l->grid);
	l->ops->build(l);
	table_reload(l->page.base.t, l->table, &l->grid, key);
}

void tui_list_layout(struct tui_screen *s, struct tui_area *body)
{
	struct tui_list *l = (struct tui_list *)s;
	int y = body->y, h = body->h, w = s->t->cols;
	int hh = h < l->head_lines ? h : l->head_lines;
	int th = h - hh - (l->input != NULL ? 1 : 0);

	tui_page_layout(&l->page);
	wwidget_place(&l->head->base, y, 0, hh, w);
	wwidget_place(&l->table->base, y + hh, 0, th, w);
	if (l->input != NULL)
		wwidget_place(&l->input->base, y + h - 1, 0, 1, w);
	body->h = 0;
	build(l); /* the head's lines wrap to the width */
}

void tui_list_recalc(struct tui_screen *s, int64_t now)
{
	struct tui_list *l = (struct tui_list *)s;
	struct tui *t = s->t;

	(void)now;
	if (l->dirty || l->seen_account != t->account.gen || l->seen_state != t->m.state_gen)
		build(l);
}

void tui_list_tick(struct tui_screen *s, int64_t now, int64_t *next)
{
	struct tui_list *l = (struct tui_list *)s;
	struct tui *t = s->t;
	bool busy;

	if (t->api == NULL)
		return;
	tui_account_hurry(t); /* the balance line is on every list page */
	if (l->seen_moved != t->account.moved) {
		l->seen_moved = t->account.moved;
		l->next = 0;
	}
	busy = l->ops->busy(l);
	if (!busy && now >= l->next) {
		l->next = now + l->def->every_ms;
		l->ops->ask(l);
		busy = l->ops->busy(l);
	}
	if (!busy && (*next < 0 || l->next < *next))
		*next = l->next;
}

void tui_list_notify(struct tui_screen *s, unsigned what)
{
	struct tui_list *l = (struct tui_list *)s;

	tui_page_notify(&l->page, what);
	if (what & TN_ENTER) {
		l->next = 0;
		l->seen_moved = s->t->account.moved;
	}
	if (what & TN_LEAVE)
		tui_list_input_close(l);
	tui_list_dirty(l);
}

size_t tui_list_help(struct tui_screen *s, struct whelp_section *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < s->cls->n_keys && n < max; i++) {
		size_t nm;
		const struct wbinding *m = tui_keys_map(s->t, &s->cls->keys[i], &nm);
		out[n++] = (struct whelp_section){ _(s->cls->keys[i].title), m, nm };
	}
	if (n < max) {
		size_t nm;
		const struct wbinding *m = tui_keys_bound(s->t, wtable_bindings, WTABLE_N_BINDINGS, &nm);
		out[n++] = (struct whelp_section){ _("Moving around"), m, nm };
	}
	return n;
}

unsigned tui_list_event(struct tui_screen *s, const struct wevent *ev)
{
	struct tui_list *l = (struct tui_list *)s;
	const struct tui_keymap *own = &s->cls->keys[0];
	const struct wbinding *b;
	unsigned r;

	if (l->input != NULL && l->ops->typed != NULL)
		return l->ops->typed(l, ev);
	b = ev->type == WEV_KEY ? tui_keys_find(s->t, own, ev->key) : NULL;
	if (b != NULL && b->action != 0 && (r = l->ops->key(l, b->action)) != W_IGNORED)
		return r;
	if (ev->type == WEV_KEY && ev->key == WKEY_RETURN) {
		tui_page_detail(&l->page, list_gpu(&l->page));
		return W_HANDLED | W_REDRAW;
	}
	if ((r = tui_page_event(&l->page, ev)) != W_IGNORED)
		return r;
	r = wwidget_handle(&l->table->base, ev);
	/* keys of no map here (q, F10, Ctrl-L, L, ?, F1) are the frame's */
	return ev->type == WEV_MOUSE ? r | W_HANDLED : r;
}

bool tui_list_offers(const struct tui_screen *s, int action)
{
	const struct tui_list *l = (const struct tui_list *)s;

	if (action < TUI_PAGE_ACTIONS)
		return l->ops->offers == NULL || l->ops->offers(l, action);
	return tui_page_offers(&l->page, action);
}

/* ---- an action on a row -------------------------------------------------------------------------- */

static void confirmed(void *ud, int64_t id, bool yes, wkey key)
{
	struct tui_list *l = ud;

	(void)key;
	if (yes && l->act != NULL) {
		l->act(l, id);
	} else if (!yes) {
		tui_list_note(l, l->kept, WR_DIM);
		l->kept = NULL;
	}
	l->act = NULL;
	tui_list_dirty(l);
}

void tui_list_confirm(struct tui_list *l, int64_t id, const char *title, const char *text,
		      const char *hint, void (*act)(struct tui_list *l, int64_t id), char *kept)
{
	free(l->kept);
	l->kept = kept;
	l->act = act;
	tui_dialog_open(l->page.base.t, title, text, hint, false, confirmed, l, id);
}

void tui_list_acted(struct tui_list *l, const struct api_error *e, char *note)
{
	struct tui *t = l->page.base.t;

	if (e != NULL) {
		free(note);
		tui_list_note(l, tui_error_words(t, e), WR_BAD);
	} else {
		tui_list_note(l, note, WR_GOOD);
		tui_message(t, l->note);
	}
	tui_account_moved(t);
}

/* ---- the line typed under the table -------------------------------------------------------------- */

void tui_list_input_open(struct tui_list *l, const char *prompt, const char *hint,
			 const char *history_id)
{
	struct tui *t = l->page.base.t;
	struct wfield *f = wfield_new_readline(&t->ui, prompt, "", history_id);

	tui_list_input_close(l);
	wfield_set_after(f, hint);
	wfield_focus(f, true);
	l->input = (struct wfield *)tui_screen_add(&l->page.base, &f->base);
}

void tui_list_input_close(struct tui_list *l)
{
	if (l->input == NULL)
		return;
	tui_screen_remove(&l->page.base, &l->input->base);
	l->input = NULL;
}

/* ---- the head of an orders-like list ----------------------------------------------------------------- */

/* The head's line under the balance: text wrapped to the width, on two
 * lines when it needs them (the head grows by one, the table gives it). */
static void head_text(struct tui_list *l, const char *text, enum wrole role)
{
	struct tui *t = l->page.base.t;
	int w = l->head->base.w - 1;
	char **wl;
	size_t n = w >= 8 ? wtext_wrap(text, w, t->ascii, &wl) : 0;
	int want = n > 1 ? 3 : 2;

	if (n == 0) {
		struct wcells *c = wpanel_add(l->head);
		wcells_pad(c, 1, WR_NORMAL);
		wcells_add(c, text, role, 0);
	}
	for (size_t i = 0; i < n && i < 2; i++) {
		struct wcells *c = wpanel_add(l->head);
		wcells_pad(c, 1, WR_NORMAL);
		wcells_add(c, wl[i], role, 0);
		if (i == 1 && n > 2) {
			/* more than two lines: the second ends in "…" */
			wcells_pad(c, 1, role);
			wcells_add(c, wl[2], role, 0);
		}
	}
	if (n > 0)
		wtext_lines_free(wl, n);
	if (l->head_lines != want && l->head->base.w > 0) {
		l->head_lines = want;
		tui_relayout(t);
	}
}

void tui_list_head(struct tui_list *l, const char *const *extra, size_t n, bool have,
		   const char *asking, const char *hint)
{
	struct tui *t = l->page.base.t;
	struct wcells *c;

	wpanel_begin(l->head);
	c = wpanel_add(l->head);
	wcells_pad(c, 1, WR_NORMAL);
	tui_page_balance(t, c);
	for (size_t i = 0; i < n; i++)
		if (extra[i] != NULL)
			tui_add_whole(c, extra[i], l->head->base.w);
	if (l->note != NULL)
		head_text(l, l->note, l->note_role);
	else if (l->error != NULL)
		head_text(l, l->error, WR_BAD);
	else if (t->api == NULL)
		head_text(l, _("No exchange: orders need one (see the status bar)."), WR_BAD);
	else if (!have)
		head_text(l, asking, WR_DIM);
	else
		head_text(l, hint, WR_DIM);
	wpanel_commit(l->head);
}
