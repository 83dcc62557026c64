/*
 * The text field: a prompt, the text being edited and an optional note
 * after it ("3 of 15 shown") or an error, on one line, scrolled sideways to
 * keep the cursor visible. The editing itself is an engine behind struct
 * wfield_engine so GNU readline (callback interface: one byte at a time, the
 * line buffer drawn here, the cursor column measured in terminal columns,
 * never rl_point bytes) can replace the built-in line editor without the
 * field's owners noticing. The built-in editor works on code points of
 * UTF-8 text and knows the usual emacs keys.
 */
#include "widgets/widgets.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

/* ---- the built-in line editor ------------------------------------------------- */

struct line_ed {
	struct buf text;
	size_t cur;            /* byte offset, on a code point boundary */
	size_t max;
};

static bool cont_byte(char c)
{
	return ((unsigned char)c & 0xC0) == 0x80;
}

static size_t prev_cp(const struct line_ed *e, size_t at)
{
	if (at == 0)
		return 0;
	at--;
	while (at > 0 && cont_byte(e->text.data[at]))
		at--;
	return at;
}

static size_t next_cp(const struct line_ed *e, size_t at)
{
	if (at >= e->text.len)
		return e->text.len;
	at++;
	while (at < e->text.len && cont_byte(e->text.data[at]))
		at++;
	return at;
}

static void ed_delete(struct line_ed *e, size_t from, size_t to)
{
	if (to <= from)
		return;
	memmove(e->text.data + from, e->text.data + to, e->text.len - to + 1);
	e->text.len -= to - from;
	if (e->cur > to)
		e->cur -= to - from;
	else if (e->cur > from)
		e->cur = from;
}

static void ed_insert(struct line_ed *e, const char *s, size_t n)
{
	if (e->text.len + n > e->max)
		return;
	buf_append(&e->text, s, n); /* grow; then move into place */
	memmove(e->text.data + e->cur + n, e->text.data + e->cur, e->text.len - n - e->cur);
	memcpy(e->text.data + e->cur, s, n);
	e->text.data[e->text.len] = '\0';
	e->cur += n;
}

static size_t encode(uint32_t cp, char *s)
{
	if (cp < 0x80) { s[0] = (char)cp; return 1; }
	if (cp < 0x800) {
		s[0] = (char)(0xC0 | (cp >> 6));
		s[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		s[0] = (char)(0xE0 | (cp >> 12));
		s[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		s[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	s[0] = (char)(0xF0 | (cp >> 18));
	s[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	s[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	s[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

static unsigned line_feed(void *ed, wkey k, bool *submitted)
{
	struct line_ed *e = ed;
	size_t before = e->text.len, cur0 = e->cur;
	char s[4];

	switch (k) {
	case WKEY_RETURN: case WKEY_ENTER: case '\n':
		*submitted = true;
		return W_HANDLED | W_CLOSE;
	case WKEY_ESC:
		*submitted = false;
		return W_HANDLED | W_CLOSE;
	case WKEY_LEFT: case 'B' - '@':
		e->cur = prev_cp(e, e->cur);
		break;
	case WKEY_RIGHT: case 'F' - '@':
		e->cur = next_cp(e, e->cur);
		break;
	case WKEY_HOME: case 'A' - '@':
		e->cur = 0;
		break;
	case WKEY_END: case 'E' - '@':
		e->cur = e->text.len;
		break;
	case WKEY_BACKSPACE: case 127: case 'H' - '@':
		ed_delete(e, prev_cp(e, e->cur), e->cur);
		break;
	case WKEY_DELETE: case 'D' - '@':
		ed_delete(e, e->cur, next_cp(e, e->cur));
		break;
	case 'U' - '@':
		ed_delete(e, 0, e->cur);
		break;
	case 'K' - '@':
		ed_delete(e, e->cur, e->text.len);
		break;
	case 'W' - '@': {
		size_t p = e->cur;
		while (p > 0 && e->text.data[p - 1] == ' ')
			p--;
		while (p > 0 && e->text.data[p - 1] != ' ')
			p--;
		ed_delete(e, p, e->cur);
		break;
	}
	default:
		if (!wkey_printable(k))
			return W_IGNORED;
		ed_insert(e, s, encode((uint32_t)k, s));
		break;
	}
	if (e->text.len != before)
		return W_HANDLED | W_CHANGED | W_REDRAW;
	return e->cur != cur0 ? W_HANDLED | W_REDRAW : W_HANDLED;
}

static const char *line_text(void *ed)
{
	struct line_ed *e = ed;
	return e->text.data ? e->text.data : "";
}

static size_t line_cursor(void *ed)
{
	return ((struct line_ed *)ed)->cur;
}

static void line_set_text(void *ed, const char *utf8)
{
	struct line_ed *e = ed;

	buf_reset(&e->text);
	e->cur = 0;
	if (utf8 != NULL) {
		size_t n = strlen(utf8);
		if (n > e->max)
			n = e->max;
		while (n > 0 && n < strlen(utf8) && cont_byte(utf8[n]))
			n--;
		buf_append(&e->text, utf8, n);
	}
	e->cur = e->text.len;
}

static void line_destroy(void *ed)
{
	struct line_ed *e = ed;

	buf_free(&e->text);
	free(e);
}

const struct wfield_engine wfield_line_editor = {
	.destroy = line_destroy,
	.feed = line_feed,
	.text = line_text,
	.cursor = line_cursor,
	.set_text = line_set_text,
	.focus = NULL,
};

void *wfield_line_editor_new(const char *initial, size_t max_bytes)
{
	struct line_ed *e = xcalloc(1, sizeof *e);

	e->max = max_bytes ? max_bytes : 1024;
	line_set_text(e, initial);
	return e;
}

/* ---- the widget ------------------------------------------------------------------ */

static void field_draw(struct wwidget *w)
{
	struct wfield *f = (struct wfield *)w;
	struct wcells pr, tx, af, line;
	const char *text = f->eng->text(f->ed);
	size_t cur = f->eng->cursor(f->ed);
	enum wrole tr = w->focused ? WR_FIELD_FOCUS : WR_FIELD;
	int avail, curcol;

	wcells_init(&pr, w->ui->ascii);
	wcells_init(&tx, w->ui->ascii);
	wcells_init(&af, w->ui->ascii);
	wcells_init(&line, w->ui->ascii);
	wcells_add(&pr, f->prompt, WR_PROMPT, 0);
	if (pr.width > w->w / 2)
		wcells_fit(&pr, w->w / 2, WALIGN_LEFT, WR_PROMPT);
	if (f->error != NULL)
		wcells_add(&af, f->error, WR_FIELD_ERROR, 0);
	else if (f->after != NULL)
		wcells_add(&af, f->after, WR_NORMAL, 0);
	avail = w->w - pr.width - 1;
	if (af.width > 0) {
		/* the note gets what the text area (at least 8) leaves */
		int room = avail - 8 - 1;
		if (room < 4)
			wcells_reset(&af);
		else if (af.width > room)
			wcells_fit(&af, room, WALIGN_LEFT, WR_NORMAL);
		if (af.width > 0)
			avail -= af.width + 1;
	}
	if (avail < 1)
		avail = 1;
	/* the cursor column within the text, in terminal columns */
	wcells_addn(&tx, text, cur, tr, 0);
	curcol = tx.width;
	wcells_reset(&tx);
	wcells_add(&tx, text, tr, 0);
	/* the cursor after the text's end may stand in the blank after the
	 * text area: a text as wide as the area shows whole; a field without
	 * the keyboard shows its text from the start */
	int room = avail + (curcol == tx.width ? 1 : 0);
	if (!w->focused)
		f->hscroll = 0;
	else if (curcol < f->hscroll)
		f->hscroll = curcol;
	else if (curcol >= f->hscroll + room)
		f->hscroll = curcol - room + 1;
	/* a text that got shorter scrolls back: never blank room at the right
	 * while text is hidden at the left (the cursor cell after the end counts) */
	if (f->hscroll > 0 && tx.width - f->hscroll < avail)
		f->hscroll = tx.width > avail ? tx.width - avail : 0;
	/* drop the cells scrolled off to the left */
	{
		int skip = 0;
		size_t i = 0;
		while (i < tx.len && skip < f->hscroll)
			skip += tx.cell[i++].width;
		if (i > 0) /* (an empty text has no cell array: no memmove(NULL)) */
			memmove(tx.cell, tx.cell + i, (tx.len - i) * sizeof *tx.cell);
		tx.len -= i;
		tx.width -= skip;
		if (skip > f->hscroll)
			f->hscroll = skip; /* a wide character straddled the edge */
	}
	if (tx.width > avail && !w->focused) {
		/* without the keyboard, a text longer than the area says so */
		wcells_fit(&tx, avail, WALIGN_LEFT, tr);
	} else if (tx.width > avail) {
		/* cut without an ellipsis: the text goes on, the cursor may be at the edge */
		int used = 0;
		size_t i = 0;
		while (i < tx.len && used + tx.cell[i].width <= avail)
			used += tx.cell[i++].width;
		tx.len = i;
		tx.width = used;
	}
	wcells_pad(&tx, avail - tx.width, tr);
	wcells_cat(&line, &pr);
	wcells_cat(&line, &tx);
	wcells_pad(&line, 1, WR_NORMAL);
	wcells_cat(&line, &af);
	wcells_fit(&line, w->w, WALIGN_LEFT, WR_NORMAL);
	wcells_draw(&line, w->win, 0, 0, w->w, w->ui);
	f->cur_y = w->y;
	f->cur_x = w->x + pr.width + (curcol - f->hscroll);
	if (f->cur_x >= w->x + w->w)
		f->cur_x = w->x + w->w - 1;
	wcells_free(&pr);
	wcells_free(&tx);
	wcells_free(&af);
	wcells_free(&line);
}

static unsigned field_handle(struct wwidget *w, const struct wevent *ev)
{
	struct wfield *f = (struct wfield *)w;
	unsigned r;

	if (ev->type != WEV_KEY || ev->key == WKEY_RESIZE)
		return W_IGNORED;
	r = f->eng->feed(f->ed, ev->key, &f->submitted);
	if (r & (W_REDRAW | W_CHANGED))
		w->dirty = true;
	if (r & W_CHANGED) {
		free(f->error);
		f->error = NULL;
	}
	return r;
}

static void field_destroy(struct wwidget *w)
{
	struct wfield *f = (struct wfield *)w;

	f->eng->destroy(f->ed);
	free(f->prompt);
	free(f->after);
	free(f->error);
}

static const struct wbinding field_bindings[] = {
	{ WKEY_LEFT, 1, N_("Move the cursor"), NULL },
	{ WKEY_RIGHT, 1, N_("Move the cursor"), NULL },
	{ WKEY_HOME, 2, N_("Start / end of the text"), NULL },
	{ WKEY_END, 2, N_("Start / end of the text"), NULL },
	{ 'U' - '@', 3, N_("Delete to the start of the text"), NULL },
	{ 'W' - '@', 4, N_("Delete the word before the cursor"), NULL },
	{ WKEY_RETURN, 5, N_("Done"), NULL },
	{ WKEY_ESC, 6, N_("Cancel"), NULL },
};

static bool field_cursor(const struct wwidget *w, int *y, int *x)
{
	return wfield_cursor((const struct wfield *)w, y, x);
}

static const struct wwidget_class field_class = {
	.name = "field",
	.draw = field_draw,
	.handle = field_handle,
	.destroy = field_destroy,
	.bindings = field_bindings,
	.n_bindings = sizeof field_bindings / sizeof field_bindings[0],
	.cursor = field_cursor,
};

void wfield_focus(struct wfield *f, bool on)
{
	if (f->base.focused == on)
		return;
	wwidget_set_focus(&f->base, on);
	if (f->eng->focus != NULL)
		f->eng->focus(f->ed, on);
}

struct wfield *wfield_new_engine(const struct wui *ui, const char *prompt,
				 const struct wfield_engine *eng, void *ed)
{
	struct wfield *f = xcalloc(1, sizeof *f);

	wwidget_init(&f->base, &field_class, ui);
	f->prompt = xstrdup(prompt ? prompt : "");
	f->eng = eng;
	f->ed = ed;
	return f;
}

struct wfield *wfield_new(const struct wui *ui, const char *prompt, const char *initial)
{
	return wfield_new_engine(ui, prompt, &wfield_line_editor,
				 wfield_line_editor_new(initial, 0));
}

void wfield_free(struct wfield **f)
{
	struct wwidget *w = *f ? &(*f)->base : NULL;

	wwidget_free(&w);
	*f = NULL;
}

const char *wfield_text(const struct wfield *f)
{
	return f->eng->text(f->ed);
}

void wfield_set_text(struct wfield *f, const char *utf8)
{
	f->eng->set_text(f->ed, utf8);
	f->hscroll = 0;
	f->base.dirty = true;
}

void wfield_set_after(struct wfield *f, const char *utf8)
{
	if ((f->after == NULL) != (utf8 == NULL) ||
	    (utf8 != NULL && strcmp(f->after, utf8) != 0)) {
		free(f->after);
		f->after = utf8 ? xstrdup(utf8) : NULL;
		f->base.dirty = true;
	}
}

void wfield_set_error(struct wfield *f, const char *utf8)
{
	free(f->error);
	f->error = utf8 ? xstrdup(utf8) : NULL;
	f->base.dirty = true;
}

bool wfield_cursor(const struct wfield *f, int *y, int *x)
{
	if (f->base.win == NULL || !f->base.focused)
		return false;
	*y = f->cur_y;
	*x = f->cur_x;
	return true;
}
