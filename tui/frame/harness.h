/*
 * Internal to tui/ and its tests: a screen harness (tui/frame/harness.c). A test
 * builds a whole session against a real or fault-injecting exchange, feeds
 * it keys and clicks, and reads what the screen shows cell by cell, with no
 * terminal and no tmux. Every call runs the frames it causes.
 */
#ifndef GPUX_TUI_HARNESS_H
#define GPUX_TUI_HARNESS_H

#include <stdbool.h>

#include "tui/tui.h"
#include "widgets/widgets.h"

struct tui;
struct tui_harness;

/* A session of lines × cols on a memory-backed curses screen (output to
 * /dev/null), its first frame drawn. Options as for tui_run. */
struct tui_harness *tui_harness_new(const struct tui_options *o, int lines, int cols);
/* The same on a terminal of type term (its description: keys, F-keys). */
struct tui_harness *tui_harness_new_term(const struct tui_options *o, int lines, int cols,
					 const char *term);
void tui_harness_free(struct tui_harness **h);
/* The session itself, to read its model (struct tui, tui_int.h). */
struct tui *tui_harness_tui(struct tui_harness *h);
/* One event, then one frame; the W_* flags the event got. */
unsigned tui_harness_key(struct tui_harness *h, wkey k);
unsigned tui_harness_click(struct tui_harness *h, int y, int x);
/* Each character of utf8 as a key. */
void tui_harness_type(struct tui_harness *h, const char *utf8);
/* The terminal resized (as after SIGWINCH), then one frame. */
void tui_harness_resize(struct tui_harness *h, int lines, int cols);
/* One frame; the exchange's replies pumped for ms milliseconds (frames
 * between them as the loop would draw them). */
void tui_harness_frame(struct tui_harness *h);
void tui_harness_pump(struct tui_harness *h, int ms);
/* What row y shows (UTF-8, trailing blanks dropped; malloc'ed); the whole
 * screen, one line per row (malloc'ed); the first row showing text, or -1;
 * pump until text shows, at most ms (false: it never did). */
char *tui_harness_row(struct tui_harness *h, int y);
char *tui_harness_screen(struct tui_harness *h);
int tui_harness_find(struct tui_harness *h, const char *text);
bool tui_harness_wait(struct tui_harness *h, const char *text, int ms);
/* Pump until the session has settled: every request it started answered and
 * its reply applied, and none of its timers due within half a second (a
 * typed field's debounce is shorter), at most ms (false: it never settled).
 * The positive marker a test waits for before it says what is not on screen. */
bool tui_harness_settle(struct tui_harness *h, int ms);
/* The class name of the top screen ("browse", "fit", "detail", "order-form",
 * "orders", "rentals", "account", "welcome", "dialog", "overlay"). */
const char *tui_harness_top(struct tui_harness *h);

#endif
