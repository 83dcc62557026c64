/*
 * The stack of screens (tui/frame/screen.h): the screens, the widgets each
 * owns, the phases of a frame over them, where events go, how one screen
 * opens another (by place), and the messages every screen may leave in the
 * status bar.
 *
 * The phases: tick and recalc bottom-up (the tables pull the market's and
 * the fit job's data before the panel above them reads the tables'
 * cursor), layout top-down (each screen takes its share of the body; an
 * opaque one covers the rest, whose widgets are hidden), then render
 * bottom-up, walking every shown screen's widgets in order (a widget that
 * lies over one copied earlier in the frame is copied again), and the
 * cursor from the focused screen; events top, then focused, then the rest
 * beneath down to the first opaque screen.
 *
 * Pages (TS_PAGE) are kept: off the stack they wait in t->kept, their
 * widgets hidden, their state and requests alive, until they are shown
 * again or the session ends.
 */
#include "tui/tui_int.h"

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

/* ---- a screen and its widgets -------------------------------------------------------------- */

void tui_screen_init(struct tui_screen *s, const struct tui_screen_class *cls, struct tui *t)
{
	memset(s, 0, sizeof *s);
	s->cls = cls;
	s->t = t;
	s->shown = true; /* until the next layout says otherwise */
}

struct wwidget *tui_screen_add(struct tui_screen *s, struct wwidget *w)
{
	if (s->n_w == s->cap_w) {
		s->cap_w = s->cap_w ? 2 * s->cap_w : 8;
		s->w = xreallocarray(s->w, s->cap_w, sizeof *s->w);
	}
	s->w[s->n_w++] = w;
	tui_relayout(s->t);
	return w;
}

void tui_screen_remove(struct tui_screen *s, struct wwidget *w)
{
	for (size_t i = 0; i < s->n_w; i++) {
		if (s->w[i] == w) {
			memmove(s->w + i, s->w + i + 1, (s->n_w - i - 1) * sizeof *s->w);
			s->n_w--;
			wwidget_free(&w);
			tui_stack_touch(s->t); /* what lay beneath it */
			tui_relayout(s->t);
			return;
		}
	}
}

void tui_screen_hide(struct tui_screen *s)
{
	for (size_t i = 0; i < s->n_w; i++)
		wwidget_hide(s->w[i]);
}

static void screen_free(struct tui_screen *s)
{
	if (s->cls->free != NULL)
		s->cls->free(s);
	for (size_t i = 0; i < s->n_w; i++)
		wwidget_free(&s->w[i]);
	free(s->w);
	free(s);
}

const struct wbinding *tui_screen_binding(const struct tui_screen *s, wkey key, size_t *map)
{
	for (size_t i = 0; i < s->cls->n_keys; i++) {
		const struct wbinding *b = tui_keys_find(s->t, &s->cls->keys[i], key);
		if (b != NULL) {
			if (map != NULL)
				*map = i;
			return b;
		}
	}
	return NULL;
}

unsigned tui_screen_dispatch(struct tui_screen *s, const struct wevent *ev)
{
	const struct wbinding *b;
	size_t map;

	if (ev->type != WEV_KEY || s->cls->act == NULL)
		return W_IGNORED;
	b = tui_screen_binding(s, ev->key, &map);
	return b != NULL ? s->cls->act(s, map, b->action, ev->key, NULL) : W_IGNORED;
}

bool tui_screen_cursor(struct tui_screen *s)
{
	for (size_t i = s->n_w; i-- > 0;)
		if (wwidget_place_cursor(s->w[i]))
			return true;
	return false;
}

/* ---- layout and redraw ---------------------------------------------------------------------- */

void tui_relayout(struct tui *t)
{
	t->need_layout = true;
	t->redraw = true;
}

void tui_redraw_all(struct tui *t)
{
	clearok(curscr, TRUE);
	tui_relayout(t);
}

/* ---- the stack ------------------------------------------------------------------------------ */

static size_t index_in(struct tui_screen *const *v, size_t n, const struct tui_screen *s)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == s)
			return i;
	return SIZE_MAX;
}

static void insert_at(struct tui *t, size_t at, struct tui_screen *s)
{
	if (t->n_stack == t->cap_stack) {
		t->cap_stack = t->cap_stack ? 2 * t->cap_stack : 8;
		t->stack = xreallocarray(t->stack, t->cap_stack, sizeof *t->stack);
	}
	memmove(t->stack + at + 1, t->stack + at, (t->n_stack - at) * sizeof *t->stack);
	t->stack[at] = s;
	t->n_stack++;
	tui_relayout(t);
}

/* Take s out of the stack's array (it must be there). */
static void take_out(struct tui *t, size_t i)
{
	memmove(t->stack + i, t->stack + i + 1, (t->n_stack - i - 1) * sizeof *t->stack);
	t->n_stack--;
}

/* A page off the stack: hidden, kept, told. */
static void keep_aside(struct tui *t, struct tui_screen *s)
{
	if (t->n_kept == t->cap_kept) {
		t->cap_kept = t->cap_kept ? 2 * t->cap_kept : 4;
		t->kept = xreallocarray(t->kept, t->cap_kept, sizeof *t->kept);
	}
	t->kept[t->n_kept++] = s;
	tui_screen_hide(s);
	s->shown = false;
	if (s->cls->notify != NULL)
		s->cls->notify(s, TN_LEAVE);
}

/* A kept page back out of t->kept (true if it was there). */
static bool unkeep(struct tui *t, struct tui_screen *s)
{
	size_t i = index_in(t->kept, t->n_kept, s);

	if (i == SIZE_MAX)
		return false;
	memmove(t->kept + i, t->kept + i + 1, (t->n_kept - i - 1) * sizeof *t->kept);
	t->n_kept--;
	return true;
}

/* Where a screen that is not an overlay goes: below the overlays. */
static size_t below_overlays(const struct tui *t)
{
	size_t at = t->n_stack;

	while (at > 0 && (t->stack[at - 1]->cls->flags & TS_MODAL))
		at--;
	return at;
}

void tui_push(struct tui *t, struct tui_screen *s)
{
	size_t at = s->cls->flags & TS_MODAL ? t->n_stack : below_overlays(t);

	if (s->cls->flags & TS_PAGE) {
		/* one page at a time: the topmost screen's place, if it is a page */
		for (size_t i = t->n_stack; i-- > 0;) {
			struct tui_screen *o = t->stack[i];
			if (o == s || !(o->cls->flags & TS_PAGE))
				continue;
			if (i < at)
				at--;
			take_out(t, i);
			keep_aside(t, o);
		}
		unkeep(t, s);
	}
	insert_at(t, at, s);
	tui_stack_touch(t);
	if ((s->cls->flags & TS_PAGE) && s->cls->notify != NULL)
		s->cls->notify(s, TN_ENTER);
}

void tui_push_under(struct tui *t, struct tui_screen *s)
{
	size_t at = 1;

	while (at < t->n_stack && !(t->stack[at]->cls->flags & (TS_OPAQUE | TS_MODAL)))
		at++;
	insert_at(t, at > t->n_stack ? t->n_stack : at, s);
}

void tui_remove(struct tui *t, struct tui_screen *s)
{
	size_t i = index_in(t->stack, t->n_stack, s);

	if (i == SIZE_MAX)
		return;
	take_out(t, i);
	if (s->cls->flags & TS_PAGE)
		keep_aside(t, s);
	else
		screen_free(s);
	tui_stack_touch(t); /* what lay beneath is copied to the screen again */
	tui_relayout(t);
}

void tui_raise(struct tui *t, struct tui_screen *s)
{
	size_t i = index_in(t->stack, t->n_stack, s);

	if (i != SIZE_MAX)
		take_out(t, i);
	else if (!unkeep(t, s))
		return;
	tui_push(t, s);
}

struct tui_screen *tui_find(const struct tui *t, const struct tui_screen_class *cls)
{
	for (size_t i = t->n_stack; i-- > 0;)
		if (t->stack[i]->cls == cls)
			return t->stack[i];
	return NULL;
}

struct tui_screen *tui_find_kept(const struct tui *t, const struct tui_screen_class *cls)
{
	struct tui_screen *s = tui_find(t, cls);

	for (size_t i = 0; s == NULL && i < t->n_kept; i++)
		if (t->kept[i]->cls == cls)
			s = t->kept[i];
	return s;
}

bool tui_on_stack(const struct tui *t, const struct tui_screen *s)
{
	return index_in(t->stack, t->n_stack, s) != SIZE_MAX;
}

struct tui_screen *tui_top(const struct tui *t)
{
	return t->n_stack > 0 ? t->stack[t->n_stack - 1] : NULL;
}

struct tui_screen *tui_focused(const struct tui *t)
{
	for (size_t i = t->n_stack; i-- > 0;) {
		struct tui_screen *s = t->stack[i];
		if (s->cls->wants_focus == NULL || s->cls->wants_focus(s))
			return s;
	}
	return NULL;
}

void tui_notify_all(struct tui *t, unsigned what)
{
	for (size_t i = 0; i < t->n_stack; i++)
		if (t->stack[i]->cls->notify != NULL)
			t->stack[i]->cls->notify(t->stack[i], what);
	for (size_t i = 0; i < t->n_kept; i++)
		if (t->kept[i]->cls->notify != NULL)
			t->kept[i]->cls->notify(t->kept[i], what);
	tui_relayout(t);
}

void tui_stack_free(struct tui *t)
{
	/* top first: a dialog goes before the page whose callback it holds */
	while (t->n_stack > 0)
		screen_free(t->stack[--t->n_stack]);
	while (t->n_kept > 0)
		screen_free(t->kept[--t->n_kept]);
	free(t->stack);
	free(t->kept);
	free(t->copied);
	t->stack = t->kept = NULL;
	t->copied = NULL;
	t->cap_stack = t->cap_kept = t->cap_copied = t->n_copied = 0;
}

/* ---- places ----------------------------------------------------------------------------------- */

void tui_open(struct tui *t, enum tui_place p, const struct tui_goto *g)
{
	static const struct tui_goto none = { .fits = -1 };

	if ((unsigned)p < TUI_PLACES && t->places != NULL && t->places[p].open != NULL)
		t->places[p].open(t, g != NULL ? g : &none);
}

struct tui_screen *tui_place_screen(const struct tui *t, enum tui_place p)
{
	if ((unsigned)p >= TUI_PLACES || t->places == NULL || t->places[p].cls == NULL)
		return NULL;
	return tui_find_kept(t, t->places[p].cls);
}

/* ---- the frame phases --------------------------------------------------------------------------- */

void tui_stack_tick(struct tui *t, int64_t now, int64_t *next)
{
	for (size_t i = 0; i < t->n_stack; i++)
		if (t->stack[i]->cls->tick != NULL)
			t->stack[i]->cls->tick(t->stack[i], now, next);
}

void tui_stack_recalc(struct tui *t, int64_t now)
{
	for (size_t i = 0; i < t->n_stack; i++)
		if (t->stack[i]->cls->recalc != NULL)
			t->stack[i]->cls->recalc(t->stack[i], now);
}

bool tui_stack_layout(struct tui *t)
{
	struct tui_area body = { 1, 0, t->lines - 3, t->cols, true };
	bool covered = t->too_small;

	for (size_t i = t->n_stack; i-- > 0;) {
		struct tui_screen *s = t->stack[i];
		s->shown = !covered;
		if (s->shown && s->cls->layout != NULL)
			s->cls->layout(s, &body);
		if (!s->shown)
			tui_screen_hide(s);
		if (s->cls->flags & TS_OPAQUE)
			covered = true;
	}
	return body.fkeys && !t->too_small;
}

static bool overlaps(const struct tui_rect *r, const struct wwidget *w)
{
	return w->y < r->y + r->h && r->y < w->y + w->h && w->x < r->x + r->w && r->x < w->x + w->w;
}

/* Copy w if it is dirty or touched, or lies over something copied before
 * it in this frame; true if it was copied. */
static bool copy(struct tui *t, struct wwidget *w)
{
	if (w->win == NULL)
		return false;
	for (size_t i = 0; i < t->n_copied && !w->touched; i++)
		if (overlaps(&t->copied[i], w))
			wwidget_touch(w);
	if (!wwidget_render(w))
		return false;
	if (t->n_copied == t->cap_copied) {
		t->cap_copied = t->cap_copied ? 2 * t->cap_copied : 16;
		t->copied = xreallocarray(t->copied, t->cap_copied, sizeof *t->copied);
	}
	t->copied[t->n_copied++] = (struct tui_rect){ w->y, w->x, w->h, w->w };
	return true;
}

bool tui_stack_render(struct tui *t, struct wwidget *const *frame, size_t n_frame)
{
	bool any = false;

	t->n_copied = 0;
	for (size_t i = 0; i < n_frame; i++)
		any |= copy(t, frame[i]);
	for (size_t i = 0; i < t->n_stack; i++) {
		struct tui_screen *s = t->stack[i];
		if (!s->shown)
			continue;
		if (s->cls->repaint != NULL)
			s->cls->repaint(s);
		for (size_t k = 0; k < s->n_w; k++)
			any |= copy(t, s->w[k]);
	}
	return any;
}

bool tui_stack_cursor(struct tui *t)
{
	struct tui_screen *s = tui_focused(t);

	if (s == NULL || !s->shown)
		return false;
	return s->cls->cursor != NULL ? s->cls->cursor(s) : tui_screen_cursor(s);
}

bool tui_stack_typing(const struct tui *t)
{
	const struct tui_screen *s = tui_focused(t);
	int y, x;

	for (size_t i = 0; s != NULL && s->shown && i < s->n_w; i++) {
		const struct wwidget *w = s->w[i];
		if (w->win != NULL && w->focused && w->cls->cursor != NULL && w->cls->cursor(w, &y, &x))
			return true;
	}
	return false;
}

void tui_stack_touch(struct tui *t)
{
	for (size_t i = 0; i < t->n_stack; i++)
		for (size_t k = 0; k < t->stack[i]->n_w; k++)
			wwidget_touch(t->stack[i]->w[k]);
	t->redraw = true;
}

/* Give ev to s; W_CLOSE takes s off the stack. */
static unsigned offer(struct tui *t, struct tui_screen *s, const struct wevent *ev)
{
	unsigned r = s->cls->event(s, ev);

	if (r & W_CLOSE)
		tui_remove(t, s);
	if (r & W_LAYOUT)
		tui_relayout(t);
	if (r & (W_REDRAW | W_LAYOUT | W_CLOSE | W_SELECT | W_CHANGED))
		t->redraw = true;
	return r;
}

unsigned tui_stack_event(struct tui *t, const struct wevent *ev)
{
	struct tui_screen *top = tui_top(t), *focus = tui_focused(t);
	bool modal;
	unsigned r;

	if (top == NULL)
		return W_IGNORED;
	modal = (top->cls->flags & TS_MODAL) != 0; /* before the handler: it may close top */
	r = offer(t, top, ev);
	if ((r & (W_HANDLED | W_CLOSE)) || modal)
		return r; /* keys an overlay does not use go to the frame's keys only */
	if (focus != NULL && focus != top && tui_on_stack(t, focus)) {
		r |= offer(t, focus, ev);
		if (r & (W_HANDLED | W_CLOSE))
			return r;
	}
	/* then the screens beneath the top one, down to the first opaque one
	 * (an F-key pressed in the fit panel is the tables') */
	for (size_t i = t->n_stack; i-- > 0;) {
		struct tui_screen *s = t->stack[i];
		bool opaque = (s->cls->flags & TS_OPAQUE) != 0;
		if (s != top && s != focus) {
			if (!s->shown)
				break;
			r |= offer(t, s, ev);
			if (r & (W_HANDLED | W_CLOSE))
				break;
		}
		if (opaque)
			break;
	}
	return r;
}

unsigned tui_stack_act(struct tui *t, struct tui_screen *s, size_t map, const struct wbinding *b,
		       const char *arg)
{
	struct wevent ev = { .type = WEV_KEY, .key = b->key };
	unsigned r;

	if (s->cls->act != NULL)
		r = s->cls->act(s, map, b->action, 0, arg);
	else if (b->key != WKEY_NONE)
		r = s->cls->event(s, &ev);
	else
		return W_IGNORED;
	if (r & W_CLOSE)
		tui_remove(t, s);
	if (r & W_LAYOUT)
		tui_relayout(t);
	t->redraw = true;
	return r;
}

/* ---- the key maps of the screens shown: the F-key bar ------------------------------------------- */

/* The screens whose keys work now, top down: those shown from the
 * topmost that is not an overlay down to the first opaque one (an opaque
 * overlay, the welcome screen, is one of them). Returns how many, in out. */
static size_t keyed(const struct tui *t, const struct tui_screen **out, size_t max)
{
	size_t n = 0;

	for (size_t i = t->n_stack; i-- > 0 && n < max;) {
		const struct tui_screen *s = t->stack[i];
		if (!s->shown || (s->cls->flags & (TS_MODAL | TS_OPAQUE)) == TS_MODAL)
			continue;
		out[n++] = s;
		if (s->cls->flags & TS_OPAQUE)
			break;
	}
	return n;
}

size_t tui_stack_keyed(const struct tui *t, struct tui_screen **out, size_t max)
{
	return keyed(t, (const struct tui_screen **)out, max);
}

static bool offered(const struct tui_screen *s, const struct wbinding *b)
{
	return s == NULL || s->cls->offers == NULL || s->cls->offers(s, b->action);
}

static bool listed(const wkey *keys, size_t n, wkey k)
{
	for (size_t i = 0; i < n; i++)
		if (keys[i] == k)
			return true;
	return false;
}

/* The bar's items of map (of s, NULL: the frame's), after the n there. */
static size_t bar_items(const struct tui_screen *s, const struct wbinding *map, size_t n_map,
			wkey *keys, const char **texts, size_t n, size_t max)
{
	for (size_t i = 0; i < n_map && n < max; i++) {
		if (map[i].bar == NULL || !offered(s, &map[i]) || listed(keys, n, map[i].key))
			continue;
		keys[n] = map[i].key;
		texts[n++] = map[i].bar;
	}
	return n;
}

static bool is_fkey(wkey k)
{
	return k >= WKEY_F1 && k <= WKEY_F12;
}

/* The bar's order: F1 (the help) first, whatever else is there; then
 * letters and named keys in the order found; then F2 … F12. */
static size_t fkeys_in_order(wkey *keys, const char **texts, size_t n)
{
	wkey k[64];
	const char *x[64];
	size_t m = 0;

	/* rank 0: F1; 1: not an F-key; 2 + i: F(2 + i) */
	for (int rank = 0; rank < 2 + (WKEY_F12 - WKEY_F2 + 1); rank++) {
		for (size_t i = 0; i < n && m < 64; i++) {
			int r = keys[i] == WKEY_F1 ? 0 : !is_fkey(keys[i]) ? 1 : 2 + (keys[i] - WKEY_F2);
			if (r == rank) {
				k[m] = keys[i];
				x[m++] = texts[i];
			}
		}
	}
	memcpy(keys, k, m * sizeof *keys);
	memcpy(texts, x, m * sizeof *texts);
	return m;
}

size_t tui_stack_fkeys(const struct tui *t, const struct wbinding *global, size_t n_global,
		       wkey *keys, const char **texts, size_t max)
{
	const struct tui_screen *s[16];
	size_t n_s = keyed(t, s, 16), n = 0;

	for (size_t i = 0; i < n_s; i++)
		for (size_t m = 0; m < s[i]->cls->n_keys; m++) {
			size_t nm;
			const struct wbinding *map = tui_keys_map(t, &s[i]->cls->keys[m], &nm);
			n = bar_items(s[i], map, nm, keys, texts, n, max);
		}
	n = bar_items(NULL, global, n_global, keys, texts, n, max);
	return fkeys_in_order(keys, texts, n);
}

/* In map: a key that is not an F-key with the action fkey has there;
 * WKEY_NONE when fkey is bound without one; 0 when the map lacks fkey. */
static wkey letter_for(const struct wbinding *map, size_t n, wkey fkey)
{
	const struct wbinding *b = wbinding_find(map, n, fkey);

	if (b == NULL)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (map[i].action == b->action && wkey_printable(map[i].key))
			return map[i].key;
	return WKEY_NONE;
}

wkey tui_stack_key_alt(const struct tui *t, const struct wbinding *global, size_t n_global,
		       wkey fkey)
{
	const struct tui_screen *s[16];
	size_t n_s = keyed(t, s, 16);
	wkey k = 0;

	for (size_t i = 0; i < n_s && k == 0; i++)
		for (size_t m = 0; m < s[i]->cls->n_keys && k == 0; m++) {
			size_t nm;
			const struct wbinding *map = tui_keys_map(t, &s[i]->cls->keys[m], &nm);
			k = letter_for(map, nm, fkey);
		}
	if (k == 0)
		k = letter_for(global, n_global, fkey);
	return k;
}
