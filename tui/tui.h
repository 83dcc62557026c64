/*
 * tui — gpux's interactive screen: per-workload GPU tables with live prices,
 * the fit panel, the order form and the orders, rentals and account pages,
 * each a screen on one stack (tui/frame/screen.h).
 *
 * One thread, one poll(): the keyboard (stdin), a self-pipe written by the
 * signal handlers (SIGWINCH, SIGTERM, SIGINT, SIGHUP), the exchange client's
 * sockets (api_fds/api_perform) and a timeout from the nearest timer (price
 * refresh every 2 s, a flash ending, the status clock). Key handlers change
 * state and return W_* flags; one frame then lets every screen pull what
 * changed, renders the widgets that are dirty (wnoutrefresh each) and ends
 * with one doupdate(). The
 * terminal is restored on every way out: normal return, SIGTERM/SIGINT/
 * SIGHUP, fatal() (util_set_fatal_hook) and crashing signals.
 */
#ifndef GPUX_TUI_H
#define GPUX_TUI_H

#include <stdbool.h>

#include "i18n/i18n.h"

struct catalog;
struct api_client;
struct api_config;
struct api_open_opts;
struct view_table;
struct wcells;

struct tui_options {
	const struct catalog *catalog; /* borrowed; must outlive tui_run */
	enum i18n_lang lang;           /* for the views' formatting (i18n_init is the caller's) */
	bool ascii;                    /* --ascii: ASCII symbols and text even on UTF-8 */
	/* The exchange, the first of these that is set: a client already open
	 * (borrowed; the TUI pumps it in its poll loop); a configuration to make
	 * one from; the options of api_open() (flag, environment, config file,
	 * else the local demo exchange, started before the screen opens). None:
	 * the catalogue without prices, and the status bar says so. A client
	 * that cannot be made leaves the reason in the status bar. */
	struct api_client *client;
	const struct api_config *api;
	const struct api_open_opts *open;
	/* Where the column choices are remembered (`columns.WORKLOAD = id,id,…`
	 * lines of the shared config file). NULL: api_conf_path(). "" : nowhere. */
	const char *config_path;
};

/* Run the interactive screen until the user quits. Returns the exit status:
 * 0 after q/F10, 1 when there is no usable terminal (stdin or stdout not a
 * terminal, TERM unset, "dumb" or unknown: a message on stderr points to the
 * scriptable commands), 128 + N after signal N (SIGTERM, SIGINT, SIGHUP). */
int tui_run(const struct tui_options *opts);

/* The browse table's row formatter, pure (no terminal): appends the cell
 * of view column `column` of shown row `shown_row` to out, with its colour
 * roles: "not published", "no price" and stale prices WR_DIM, fits ✓ WR_GOOD
 * and ✗ WR_BAD, every cell of a row that cannot take the job WR_DIM, a price
 * that just changed WR_FLASH_UP / WR_FLASH_DOWN / WR_FLASH (flash +1, -1,
 * 2; 0 none), the GPU's architecture WR_DIM after its name. */
void tui_format_cell(const struct view_table *v, size_t shown_row, size_t column, int flash,
		     struct wcells *out);
/* The same, for a column `width` terminal columns wide (-1: no limit): the
 * GPU column shortens its architecture first ("B300 Blackwell U…") and
 * leaves it out when less than "Hop…" of it would show; other cells are as
 * tui_format_cell makes them (the table cuts what is still too wide). */
void tui_format_cell_fit(const struct view_table *v, size_t shown_row, size_t column, int flash,
			 int width, struct wcells *out);

#endif
