/*
 * Overlays: boxed windows drawn on top of the screen — the help (generated
 * from key maps: the keys of one action on one line), a yes/no confirmation
 * and a checklist for choosing and ordering columns. Each is an ordinary
 * widget whose handle() returns W_CLOSE when it is done; the owner reads the
 * result field, frees it and touches what lay beneath. Boxes shrink with
 * the terminal and fall back to the whole screen when it is tiny.
 */
#include "widgets/widgets.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

/* ---- box ------------------------------------------------------------------------- */

/* The hint of a box `width` wide: in its bottom line when it fits there,
 * else wrapped over the last rows inside it. The rows it takes inside (0:
 * it fits in the line), its lines into *l when l is given. */
static size_t hint_rows(const char *hint, int width, bool ascii, char ***l)
{
	size_t n;
	char **lines;

	if (hint == NULL || hint[0] == '\0' || width <= 4 ||
	    wtext_width(hint, ascii) + 2 <= width - 5)
		return 0;
	n = wtext_wrap(hint, width - 4, ascii, &lines);
	if (l != NULL)
		*l = lines;
	else
		wtext_lines_free(lines, n);
	return n;
}

/* The rows the hint takes inside w, whose text has `need` rows: none when
 * the hint fits its bottom line, or when wrapped it would leave fewer than
 * min(need, 3) rows to the text (a tiny box: it is cut in the line then,
 * the text matters more). */
static size_t box_hint_rows(const struct wwidget *w, const char *hint, size_t need)
{
	int n = (int)hint_rows(hint, w->w, w->ui->ascii, NULL);
	int want = need < 3 ? (int)need : 3;

	return w->h - 2 - n < want ? 0 : (size_t)n;
}

/* The rows inside w left for its text (`need` rows), below the title and
 * above the hint. */
static int box_inner(const struct wwidget *w, const char *hint, size_t need)
{
	int inner = w->h - 2 - (int)box_hint_rows(w, hint, need);

	return inner < 0 ? 0 : inner;
}

/* A title or a hint in a border line: " text " after a line, cut to fit
 * short of the scroll marker's place. */
static void border_text(struct wcells *c, const struct wwidget *w, const char *txt, enum wrole r,
			enum wrole fill)
{
	struct wcells t;

	if (txt == NULL || txt[0] == '\0' || w->w <= 4)
		return;
	wcells_add_sym(c, WSYM_HLINE, fill, 0);
	wcells_init(&t, w->ui->ascii);
	wcells_pad(&t, 1, r);
	wcells_add(&t, txt, r, 0);
	wcells_pad(&t, 1, r);
	/* two columns stay free before the corner: the help's ↑/↓ marker goes there */
	if (t.width > w->w - 5)
		wcells_fit(&t, w->w - 5, WALIGN_LEFT, fill);
	wcells_cat(c, &t);
	wcells_free(&t);
}

/* Frame w's window: border, title in the top line, hint in the bottom line
 * (or wrapped above it, hint_rows), interior filled with `fill`. */
static void draw_box(struct wwidget *w, const char *title, const char *hint, size_t need,
		     enum wrole fill)
{
	struct wcells c;
	bool a = w->ui->ascii;
	char **hl = NULL;
	size_t nh = box_hint_rows(w, hint, need) > 0 ? hint_rows(hint, w->w, a, &hl) : 0;
	int inner = box_inner(w, hint, need);

	wcells_init(&c, a);
	for (int y = 0; y < w->h; y++) {
		wcells_reset(&c);
		if (y == 0 || y == w->h - 1) {
			wcells_add_sym(&c, y == 0 ? WSYM_TL : WSYM_BL, fill, 0);
			if (y == 0)
				border_text(&c, w, title, WR_DIALOG_TITLE, fill);
			else if (nh == 0)
				border_text(&c, w, hint, fill, fill);
			while (c.width < w->w - 1)
				wcells_add_sym(&c, WSYM_HLINE, fill, 0);
			if (w->w > 1)
				wcells_add_sym(&c, y == 0 ? WSYM_TR : WSYM_BR, fill, 0);
		} else {
			int k = y - inner - 1;   /* the hint's line on this row */
			wcells_add_sym(&c, WSYM_VLINE, fill, 0);
			wcells_pad(&c, 1, fill);
			if (k >= 0 && (size_t)k < nh)
				wcells_add(&c, hl[k], fill, WAT_DIM);
			wcells_fit(&c, w->w - 1, WALIGN_LEFT, fill);
			if (w->w > 1)
				wcells_add_sym(&c, WSYM_VLINE, fill, 0);
		}
		wcells_draw(&c, w->win, y, 0, w->w, w->ui);
	}
	wcells_free(&c);
	if (nh > 0)
		wtext_lines_free(hl, nh);
}

/* Centre a box of (want_h, want_w) on the screen, shrunk to fit with a
 * margin; the whole screen when it is tiny. */
static void place_centered(struct wwidget *w, int lines, int cols, int want_h, int want_w)
{
	int h = want_h, wd = want_w;

	if (h > lines - 2)
		h = lines - 2;
	if (wd > cols - 4)
		wd = cols - 4;
	if (h < 3 || wd < 10) {
		h = lines;
		wd = cols;
	}
	wwidget_place(w, (lines - h) / 2, (cols - wd) / 2, h, wd);
}

/* ---- help ---------------------------------------------------------------------------- */

/* One entry of the help before it is laid out: a blank line between
 * sections, a section title, or a binding's keys and description. */
enum { HE_BLANK, HE_TITLE, HE_KEYS };

struct whelp_entry {
	int kind;
	struct wcells keys;     /* HE_KEYS: the key names, exactly keyw columns */
	char *text;             /* the title or the (translated) description */
};

/* Below this many columns for the description, a key line's description
 * goes under its keys instead of beside them. */
enum { HELP_MIN_DESC = 12, HELP_NARROW_INDENT = 3 };

static void help_draw(struct wwidget *w)
{
	struct whelp *h = (struct whelp *)w;
	int inner = box_inner(w, h->hint, h->n_lines);
	struct wcells c;

	draw_box(w, h->title, h->hint, h->n_lines, WR_DIALOG);
	if (inner <= 0)
		return;
	if (h->n_lines > (size_t)inner && h->top > h->n_lines - (size_t)inner)
		h->top = h->n_lines - (size_t)inner;
	if (h->n_lines <= (size_t)inner)
		h->top = 0;
	wcells_init(&c, w->ui->ascii);
	for (int y = 0; y < inner && h->top + (size_t)y < h->n_lines; y++) {
		wcells_reset(&c);
		wcells_cat(&c, &h->lines[h->top + (size_t)y]);
		wcells_fit(&c, w->w - 4, WALIGN_LEFT, WR_DIALOG);
		wcells_draw(&c, w->win, y + 1, 2, w->w - 4, w->ui);
	}
	/* more below / above */
	if (h->top + (size_t)inner < h->n_lines) {
		wcells_reset(&c);
		wcells_add_sym(&c, WSYM_ARROW_DOWN, WR_DIALOG_TITLE, 0);
		wcells_draw(&c, w->win, w->h - 1, w->w - 2 - c.width, c.width, w->ui);
	}
	if (h->top > 0) {
		wcells_reset(&c);
		wcells_add_sym(&c, WSYM_ARROW_UP, WR_DIALOG_TITLE, 0);
		wcells_draw(&c, w->win, 0, w->w - 2 - c.width, c.width, w->ui);
	}
	wcells_free(&c);
}

static unsigned help_scroll(struct whelp *h, long d)
{
	long top = (long)h->top + d;
	long max = (long)h->n_lines - box_inner(&h->base, h->hint, h->n_lines);

	if (max < 0)
		max = 0;
	if (top > max)
		top = max;
	if (top < 0)
		top = 0;
	if ((size_t)top != h->top) {
		h->top = (size_t)top;
		h->base.dirty = true;
		return W_HANDLED | W_REDRAW;
	}
	return W_HANDLED;
}

static unsigned help_handle(struct wwidget *w, const struct wevent *ev)
{
	struct whelp *h = (struct whelp *)w;
	long page = box_inner(w, h->hint, h->n_lines) > 1 ? box_inner(w, h->hint, h->n_lines) : 1;

	if (ev->type == WEV_MOUSE) {
		if (ev->mouse == WM_WHEEL_UP)
			return help_scroll(h, -3);
		if (ev->mouse == WM_WHEEL_DOWN)
			return help_scroll(h, 3);
		return W_HANDLED | W_CLOSE;
	}
	switch (ev->key) {
	case WKEY_UP: case 'k': return help_scroll(h, -1);
	case WKEY_DOWN: case 'j': return help_scroll(h, 1);
	case WKEY_PGUP: return help_scroll(h, -page);
	case WKEY_PGDN: case ' ': return help_scroll(h, page);
	case WKEY_HOME: case 'g': return help_scroll(h, -(long)h->n_lines);
	case WKEY_END: case 'G': return help_scroll(h, (long)h->n_lines);
	case WKEY_RESIZE: return W_IGNORED;
	default: return W_HANDLED | W_CLOSE;
	}
}

static void help_destroy(struct wwidget *w)
{
	struct whelp *h = (struct whelp *)w;

	for (size_t i = 0; i < h->n_lines; i++)
		wcells_free(&h->lines[i]);
	free(h->lines);
	for (size_t i = 0; i < h->n_ent; i++) {
		wcells_free(&h->ent[i].keys);
		free(h->ent[i].text);
	}
	free(h->ent);
	free(h->title);
	free(h->hint);
}

static const struct wbinding help_bindings[] = {
	{ WKEY_UP, 0, N_("Scroll the help"), NULL },
	{ WKEY_DOWN, 0, N_("Scroll the help"), NULL },
};

static const struct wwidget_class help_class = {
	.name = "help",
	.draw = help_draw,
	.handle = help_handle,
	.destroy = help_destroy,
	.bindings = help_bindings,
	.n_bindings = sizeof help_bindings / sizeof help_bindings[0],
};

static struct whelp_entry *help_entry(struct whelp *h, int kind, const char *text)
{
	struct whelp_entry *e;

	h->ent = xreallocarray(h->ent, h->n_ent + 1, sizeof *h->ent);
	e = &h->ent[h->n_ent++];
	e->kind = kind;
	wcells_init(&e->keys, h->base.ui->ascii);
	e->text = xstrdup(text != NULL ? text : "");
	return e;
}

static struct wcells *help_line(struct whelp *h)
{
	if (h->n_lines == h->cap_lines) {
		h->cap_lines = h->cap_lines ? h->cap_lines * 2 : 32;
		h->lines = xreallocarray(h->lines, h->cap_lines, sizeof *h->lines);
	}
	struct wcells *c = &h->lines[h->n_lines++];
	wcells_init(c, h->base.ui->ascii);
	return c;
}

/* The columns an entry takes unwrapped. */
static int entry_width(const struct whelp *h, const struct whelp_entry *e)
{
	bool a = h->base.ui->ascii;

	switch (e->kind) {
	case HE_TITLE: return wtext_width(e->text, a);
	case HE_KEYS: return 1 + h->keyw + 2 + wtext_width(e->text, a);
	}
	return 0;
}

/* Append text wrapped in `width` columns (<= 0: one line), each line after
 * `indent` spaces (the first line after first_indent); the first line goes
 * on the end of `first` when given (a line of h->lines, written before any
 * line is added, as adding one may move them). */
static void help_wrapped(struct whelp *h, const char *text, int width, int first_indent,
			 int indent, unsigned attrs, struct wcells *first)
{
	bool a = h->base.ui->ascii;
	char **l;
	size_t n;

	if (width <= 0 || wtext_width(text, a) <= width) {
		if (first == NULL)
			first = help_line(h);
		wcells_pad(first, first_indent, WR_DIALOG);
		wcells_add(first, text, WR_DIALOG, attrs);
		return;
	}
	n = wtext_wrap(text, width, a, &l);
	for (size_t i = 0; i < n; i++) {
		struct wcells *c = i == 0 && first != NULL ? first : help_line(h);
		wcells_pad(c, i == 0 ? first_indent : indent, WR_DIALOG);
		wcells_add(c, l[i], WR_DIALOG, attrs);
	}
	wtext_lines_free(l, n);
}

void whelp_layout(struct whelp *h, int width)
{
	for (size_t i = 0; i < h->n_lines; i++)
		wcells_free(&h->lines[i]);
	h->n_lines = 0;
	for (size_t i = 0; i < h->n_ent; i++) {
		const struct whelp_entry *e = &h->ent[i];
		int desc = 1 + h->keyw + 2;   /* the description column */
		struct wcells *c;

		switch (e->kind) {
		case HE_BLANK:
			help_line(h);
			break;
		case HE_TITLE:
			help_wrapped(h, e->text, width, 0, 0, WAT_BOLD | WAT_UNDERLINE, NULL);
			break;
		case HE_KEYS:
			c = help_line(h);
			wcells_pad(c, 1, WR_DIALOG);
			wcells_cat(c, &e->keys);
			if (width <= 0 || width - desc >= HELP_MIN_DESC ||
			    entry_width(h, e) <= width) {
				help_wrapped(h, e->text, width > 0 ? width - desc : 0, 2, desc, 0, c);
			} else {
				/* too narrow beside the keys: under them */
				int w = width - HELP_NARROW_INDENT;
				help_wrapped(h, e->text, w > 0 ? w : 1, HELP_NARROW_INDENT,
					     HELP_NARROW_INDENT, 0, NULL);
			}
			break;
		}
	}
	if (h->top > 0 && h->top >= h->n_lines)
		h->top = h->n_lines > 0 ? h->n_lines - 1 : 0;
}

/* True when the space-separated list has the word tok. */
static bool has_token(const char *list, const char *tok)
{
	size_t n = strlen(tok);

	for (const char *p = list; p != NULL && *p != '\0';) {
		const char *e = strchr(p, ' ');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && memcmp(p, tok, n) == 0)
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

/* Keys of the bindings with the same action and help as map[i], joined. */
static char *keys_of(const struct wbinding *map, size_t n, size_t i, bool ascii)
{
	struct buf b = {0};

	for (size_t j = 0; j < n; j++) {
		if (map[j].action != map[i].action || map[j].help == NULL ||
		    strcmp(map[j].help, map[i].help) != 0)
			continue;
		/* an action of the command line only: its command */
		char *name = map[j].key != WKEY_NONE ? wkey_name(map[j].key, ascii)
			: map[j].name == NULL ? xstrdup("")
			: map[j].arg != NULL ? xasprintf(":%s %s", map[j].name, map[j].arg)
			: xasprintf(":%s", map[j].name);
		if (name[0] != '\0' && !has_token(b.data, name)) {
			if (b.len > 0)
				buf_putc(&b, ' ');
			buf_puts(&b, name);
		}
		free(name);
	}
	return buf_take(&b);
}

/* True when an earlier binding already produced this help line. */
static bool listed_before(const struct wbinding *map, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (map[j].action == map[i].action && map[j].help != NULL &&
		    strcmp(map[j].help, map[i].help) == 0)
			return true;
	return false;
}

struct whelp *whelp_new(const struct wui *ui, const char *title, const char *hint,
			const struct whelp_section *s, size_t n)
{
	struct whelp *h = xcalloc(1, sizeof *h);
	int keyw = 0;

	wwidget_init(&h->base, &help_class, ui);
	h->title = xstrdup(title ? title : "");
	h->hint = xstrdup(hint ? hint : "");
	/* the width of the key column */
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < s[k].n; i++) {
			if (s[k].bindings[i].help == NULL || listed_before(s[k].bindings, i))
				continue;
			char *keys = keys_of(s[k].bindings, s[k].n, i, ui->ascii);
			int w = wtext_width(keys, ui->ascii);
			if (w > keyw)
				keyw = w;
			free(keys);
		}
	if (keyw > 24)
		keyw = 24;
	h->keyw = keyw;
	for (size_t k = 0; k < n; k++) {
		if (k > 0)
			help_entry(h, HE_BLANK, NULL);
		if (s[k].title != NULL)
			help_entry(h, HE_TITLE, s[k].title);
		for (size_t i = 0; i < s[k].n; i++) {
			const struct wbinding *b = &s[k].bindings[i];
			if (b->help == NULL || listed_before(s[k].bindings, i))
				continue;
			char *keys = keys_of(s[k].bindings, s[k].n, i, ui->ascii);
			struct whelp_entry *e = help_entry(h, HE_KEYS, _(b->help));
			wcells_add(&e->keys, keys, WR_DIALOG, WAT_BOLD);
			wcells_fit(&e->keys, keyw, WALIGN_LEFT, WR_DIALOG);
			free(keys);
		}
	}
	whelp_layout(h, 0);
	return h;
}

struct whelp *whelp_new_list(const struct wui *ui, const char *title, const char *hint,
			     const struct whelp_item *items, size_t n)
{
	struct whelp *h = xcalloc(1, sizeof *h);
	int keyw = 0;

	wwidget_init(&h->base, &help_class, ui);
	h->title = xstrdup(title ? title : "");
	h->hint = xstrdup(hint ? hint : "");
	for (size_t i = 0; i < n; i++) {
		int w = wtext_width(items[i].left, ui->ascii);
		if (w > keyw)
			keyw = w;
	}
	h->keyw = keyw > 24 ? 24 : keyw;
	for (size_t i = 0; i < n; i++) {
		struct whelp_entry *e = help_entry(h, HE_KEYS, items[i].text);
		wcells_add(&e->keys, items[i].left, items[i].role, WAT_BOLD);
		wcells_fit(&e->keys, h->keyw, WALIGN_LEFT, WR_DIALOG);
	}
	whelp_layout(h, 0);
	return h;
}

void whelp_scroll_end(struct whelp *h)
{
	h->top = h->n_lines;
	h->base.dirty = true;
}

void whelp_free(struct whelp **h)
{
	struct wwidget *w = *h ? &(*h)->base : NULL;

	wwidget_free(&w);
	*h = NULL;
}

void whelp_place(struct whelp *h, int lines, int cols)
{
	bool a = h->base.ui->ascii;
	int w = wtext_width(h->title, a) + 8;
	int hw = wtext_width(h->hint, a) + 8;

	if (hw > w)
		w = hw;
	for (size_t i = 0; i < h->n_ent; i++)
		if (entry_width(h, &h->ent[i]) + 4 > w)
			w = entry_width(h, &h->ent[i]) + 4;
	/* the width place_centered will give, then the height of the text
	 * wrapped to it */
	if (w > cols - 4)
		w = cols - 4;
	if (w < 10)
		w = cols;
	whelp_layout(h, w - 4);
	place_centered(&h->base, lines, cols,
		       (int)h->n_lines + 2 + (int)hint_rows(h->hint, w, a, NULL), w);
	if (h->base.w > 0 && h->base.w != w)
		whelp_layout(h, h->base.w - 4);   /* the whole screen after all */
}

/* ---- confirmation dialog ---------------------------------------------------------------- */

static void dialog_draw(struct wwidget *w)
{
	struct wdialog *d = (struct wdialog *)w;
	char **lines;
	size_t n = wtext_wrap(d->text, w->w - 4, w->ui->ascii, &lines);
	struct wcells c;

	draw_box(w, d->title, d->hint, n, WR_DIALOG);
	wcells_init(&c, w->ui->ascii);
	for (size_t i = 0; i < n && (int)i < box_inner(w, d->hint, n); i++) {
		wcells_reset(&c);
		wcells_add(&c, lines[i], WR_DIALOG, 0);
		wcells_fit(&c, w->w - 4, WALIGN_LEFT, WR_DIALOG);
		wcells_draw(&c, w->win, (int)i + 1, 2, w->w - 4, w->ui);
	}
	wcells_free(&c);
	wtext_lines_free(lines, n);
}

static unsigned dialog_handle(struct wwidget *w, const struct wevent *ev)
{
	struct wdialog *d = (struct wdialog *)w;

	if (ev->type == WEV_MOUSE) {
		if (ev->mouse == WM_WHEEL_UP || ev->mouse == WM_WHEEL_DOWN)
			return W_HANDLED;
		if (wwidget_contains(w, ev->y, ev->x))
			return W_HANDLED;
		d->confirmed = false;
		return W_HANDLED | W_CLOSE;
	}
	if (ev->key == WKEY_RESIZE)
		return W_IGNORED;
	d->confirmed = ev->key == 'y' || ev->key == 'Y' || ev->key == WKEY_RETURN ||
		       ev->key == WKEY_ENTER;
	return W_HANDLED | W_CLOSE;
}

static void dialog_destroy(struct wwidget *w)
{
	struct wdialog *d = (struct wdialog *)w;

	free(d->title);
	free(d->text);
	free(d->hint);
}

static const struct wbinding dialog_bindings[] = {
	{ 'y', 1, N_("Confirm"), NULL },
	{ WKEY_RETURN, 1, N_("Confirm"), NULL },
	{ WKEY_ESC, 0, N_("Cancel (any other key too)"), NULL },
};

static const struct wwidget_class dialog_class = {
	.name = "dialog",
	.draw = dialog_draw,
	.handle = dialog_handle,
	.destroy = dialog_destroy,
	.bindings = dialog_bindings,
	.n_bindings = sizeof dialog_bindings / sizeof dialog_bindings[0],
};

struct wdialog *wdialog_new(const struct wui *ui, const char *title, const char *text,
			    const char *hint)
{
	struct wdialog *d = xcalloc(1, sizeof *d);

	wwidget_init(&d->base, &dialog_class, ui);
	d->title = xstrdup(title ? title : "");
	d->text = xstrdup(text ? text : "");
	d->hint = xstrdup(hint ? hint : "");
	return d;
}

void wdialog_free(struct wdialog **d)
{
	struct wwidget *w = *d ? &(*d)->base : NULL;

	wwidget_free(&w);
	*d = NULL;
}

void wdialog_place(struct wdialog *d, int lines, int cols)
{
	int w = 56, tw, hw;
	char **l;
	size_t n;

	tw = wtext_width(d->title, d->base.ui->ascii) + 8;
	hw = wtext_width(d->hint, d->base.ui->ascii) + 6;
	if (tw > w)
		w = tw;
	if (hw > w)
		w = hw;
	if (w > cols - 4)
		w = cols - 4;
	if (w < 10)
		w = cols;
	n = wtext_wrap(d->text, w - 4, d->base.ui->ascii, &l);
	wtext_lines_free(l, n);
	n += hint_rows(d->hint, w, d->base.ui->ascii, NULL);
	place_centered(&d->base, lines, cols, (int)n + 2, w);
}

/* ---- checklist ------------------------------------------------------------------------------ */

static void check_keep_visible(struct wchecklist *c)
{
	size_t inner = (size_t)box_inner(&c->base, c->hint, c->n);

	if (inner < 1)
		inner = 1;

	if (c->sel < c->top)
		c->top = c->sel;
	if (c->sel >= c->top + inner)
		c->top = c->sel - inner + 1;
}

static void check_draw(struct wwidget *w)
{
	struct wchecklist *c = (struct wchecklist *)w;
	struct wcells line;
	int inner = box_inner(w, c->hint, c->n);

	draw_box(w, c->title, c->hint, c->n, WR_DIALOG);
	check_keep_visible(c);
	wcells_init(&line, w->ui->ascii);
	for (int y = 0; y < inner && c->top + (size_t)y < c->n; y++) {
		size_t i = c->top + (size_t)y;
		const struct wcheck_item *it = &c->items[i];
		enum wrole r = i == c->sel ? WR_SELECTED : WR_DIALOG;
		wcells_reset(&line);
		wcells_add(&line, "[", r, 0);
		if (it->on)
			wcells_add_sym(&line, WSYM_CHECK, r, WAT_BOLD);
		else
			wcells_pad(&line, 1, r);
		wcells_add(&line, "] ", r, 0);
		wcells_add(&line, it->label, r, it->fixed ? WAT_DIM : 0);
		wcells_fit(&line, w->w - 4, WALIGN_LEFT, r);
		wcells_draw(&line, w->win, y + 1, 2, w->w - 4, w->ui);
	}
	wcells_free(&line);
}

static unsigned check_do(struct wchecklist *c, enum wcheck_action a)
{
	struct wcheck_item tmp;

	switch (a) {
	case WCHECK_UP:
		if (c->sel > 0)
			c->sel--;
		break;
	case WCHECK_DOWN:
		if (c->sel + 1 < c->n)
			c->sel++;
		break;
	case WCHECK_FIRST:
		c->sel = 0;
		break;
	case WCHECK_LAST:
		if (c->n > 0)
			c->sel = c->n - 1;
		break;
	case WCHECK_TOGGLE:
		if (c->n == 0 || c->items[c->sel].fixed)
			return W_HANDLED;
		c->items[c->sel].on = !c->items[c->sel].on;
		c->base.dirty = true;
		return W_HANDLED | W_REDRAW | W_CHANGED;
	case WCHECK_MOVE_UP:
		if (c->sel == 0 || c->items[c->sel].fixed || c->items[c->sel - 1].fixed)
			return W_HANDLED;
		tmp = c->items[c->sel];
		c->items[c->sel] = c->items[c->sel - 1];
		c->items[c->sel - 1] = tmp;
		c->sel--;
		c->base.dirty = true;
		return W_HANDLED | W_REDRAW | W_CHANGED;
	case WCHECK_MOVE_DOWN:
		if (c->sel + 1 >= c->n || c->items[c->sel].fixed || c->items[c->sel + 1].fixed)
			return W_HANDLED;
		tmp = c->items[c->sel];
		c->items[c->sel] = c->items[c->sel + 1];
		c->items[c->sel + 1] = tmp;
		c->sel++;
		c->base.dirty = true;
		return W_HANDLED | W_REDRAW | W_CHANGED;
	case WCHECK_ACCEPT:
		c->accepted = true;
		return W_HANDLED | W_CLOSE;
	case WCHECK_CANCEL:
		c->accepted = false;
		return W_HANDLED | W_CLOSE;
	}
	c->base.dirty = true;
	return W_HANDLED | W_REDRAW;
}

static const struct wbinding check_bindings[] = {
	{ WKEY_UP, WCHECK_UP, N_("Previous column"), NULL },
	{ 'k', WCHECK_UP, N_("Previous column"), NULL },
	{ WKEY_DOWN, WCHECK_DOWN, N_("Next column"), NULL },
	{ 'j', WCHECK_DOWN, N_("Next column"), NULL },
	{ WKEY_HOME, WCHECK_FIRST, N_("First / last column"), NULL },
	{ 'g', WCHECK_FIRST, N_("First / last column"), NULL },
	{ WKEY_END, WCHECK_LAST, N_("First / last column"), NULL },
	{ 'G', WCHECK_LAST, N_("First / last column"), NULL },
	{ ' ', WCHECK_TOGGLE, N_("Show or hide the column"), NULL },
	{ 'x', WCHECK_TOGGLE, N_("Show or hide the column"), NULL },
	{ '[', WCHECK_MOVE_UP, N_("Move the column left (up the list)"), NULL },
	{ 'K', WCHECK_MOVE_UP, N_("Move the column left (up the list)"), NULL },
	{ '-', WCHECK_MOVE_UP, N_("Move the column left (up the list)"), NULL },
	{ ']', WCHECK_MOVE_DOWN, N_("Move the column right (down the list)"), NULL },
	{ 'J', WCHECK_MOVE_DOWN, N_("Move the column right (down the list)"), NULL },
	{ '+', WCHECK_MOVE_DOWN, N_("Move the column right (down the list)"), NULL },
	{ WKEY_RETURN, WCHECK_ACCEPT, N_("Save the columns"), NULL },
	{ WKEY_ENTER, WCHECK_ACCEPT, N_("Save the columns"), NULL },
	{ WKEY_F10, WCHECK_ACCEPT, N_("Save the columns"), NULL },
	{ WKEY_ESC, WCHECK_CANCEL, N_("Cancel"), NULL },
	{ 'q', WCHECK_CANCEL, N_("Cancel"), NULL },
};

static unsigned check_handle(struct wwidget *w, const struct wevent *ev)
{
	struct wchecklist *c = (struct wchecklist *)w;

	if (ev->type == WEV_MOUSE) {
		if (ev->mouse == WM_WHEEL_UP)
			return check_do(c, WCHECK_UP);
		if (ev->mouse == WM_WHEEL_DOWN)
			return check_do(c, WCHECK_DOWN);
		if (!wwidget_contains(w, ev->y, ev->x))
			return W_HANDLED;
		int ly = ev->y - w->y - 1;
		if (ly >= 0 && ly < box_inner(w, c->hint, c->n) && c->top + (size_t)ly < c->n) {
			size_t i = c->top + (size_t)ly;
			if (i == c->sel)
				return check_do(c, WCHECK_TOGGLE);
			c->sel = i;
			c->base.dirty = true;
			return W_HANDLED | W_REDRAW;
		}
		return W_HANDLED;
	}
	const struct wbinding *b = wbinding_find(check_bindings,
		sizeof check_bindings / sizeof check_bindings[0], ev->key);
	if (b == NULL)
		return ev->key == WKEY_RESIZE ? W_IGNORED : W_HANDLED;
	return check_do(c, (enum wcheck_action)b->action);
}

static void check_destroy(struct wwidget *w)
{
	struct wchecklist *c = (struct wchecklist *)w;

	for (size_t i = 0; i < c->n; i++) {
		free(c->items[i].id);
		free(c->items[i].label);
	}
	free(c->items);
	free(c->title);
	free(c->hint);
}

static const struct wwidget_class check_class = {
	.name = "checklist",
	.draw = check_draw,
	.handle = check_handle,
	.destroy = check_destroy,
	.bindings = check_bindings,
	.n_bindings = sizeof check_bindings / sizeof check_bindings[0],
};

struct wchecklist *wchecklist_new(const struct wui *ui, const char *title, const char *hint,
				  const struct wcheck_item *items, size_t n)
{
	struct wchecklist *c = xcalloc(1, sizeof *c);

	wwidget_init(&c->base, &check_class, ui);
	c->title = xstrdup(title ? title : "");
	c->hint = xstrdup(hint ? hint : "");
	c->items = xcalloc(n ? n : 1, sizeof *c->items);
	c->n = n;
	for (size_t i = 0; i < n; i++) {
		c->items[i] = items[i];
		c->items[i].id = xstrdup(items[i].id ? items[i].id : "");
		c->items[i].label = xstrdup(items[i].label ? items[i].label : "");
		if (c->items[i].fixed)
			c->items[i].on = true;
	}
	return c;
}

void wchecklist_free(struct wchecklist **c)
{
	struct wwidget *w = *c ? &(*c)->base : NULL;

	wwidget_free(&w);
	*c = NULL;
}

void wchecklist_place(struct wchecklist *c, int lines, int cols)
{
	int w = wtext_width(c->title, c->base.ui->ascii) + 8;
	int hw = wtext_width(c->hint, c->base.ui->ascii) + 6;

	if (hw > w)
		w = hw;
	for (size_t i = 0; i < c->n; i++) {
		int lw = wtext_width(c->items[i].label, c->base.ui->ascii) + 8;
		if (lw > w)
			w = lw;
	}
	if (w > cols - 4)
		w = cols - 4;
	place_centered(&c->base, lines, cols,
		       (int)c->n + 2 + (int)hint_rows(c->hint, w, c->base.ui->ascii, NULL), w);
}
