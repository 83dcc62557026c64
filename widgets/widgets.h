/*
 * widgets — gpux's reusable ncurses widgets: a table with a frozen first
 * column and sideways scrolling, tabs, a status bar, an F-key bar (htop
 * style), a help overlay generated from key maps, a yes/no dialog, a
 * checklist dialog (choose and order columns) and a one-line text field.
 *
 * The shape (htop's Panel/Object/RichString/CRT, nnn's bindings[]):
 *
 *  - Cell buffers. Everything a widget shows is first rendered into a
 *    struct wcells: a growable array of cells, each one grapheme cluster
 *    (a base character and its combining marks) with its width in terminal
 *    columns (wcwidth, never bytes), a colour role and attributes. Cutting
 *    ("…", never mid-character) and padding happen on cells. Building cells
 *    is pure (no curses), so a row's look is unit-tested without a terminal;
 *    wcells_draw() then blits them into a window.
 *  - Colour roles and themes. Cells carry a role (WR_HEADER, WR_FLASH, …),
 *    never a colour; a theme is a table role → colours + attributes. There is
 *    a colour theme and a monochrome one (NO_COLOR, terminals without
 *    colour). Symbols (▲ ▼ ‹ › ✓ ✗ … and box lines) come from one table with
 *    an ASCII column (^ v < > + x ~ - | +), used when the locale or terminal
 *    is not UTF-8 or --ascii is given; other non-ASCII text is transliterated.
 *  - Widgets. A widget is a struct whose first member is a struct wwidget
 *    (the base: class, window, geometry, dirty flag); the class is a const
 *    struct wwidget_class of functions (draw, handle, destroy) written with
 *    designated initializers, plus the key bindings it handles (data, so the
 *    help overlay can list them). Each widget owns one curses WINDOW.
 *    Handlers change state and return a mask of W_* flags; they never draw.
 *    The application's main loop calls wwidget_render() on each widget
 *    (which redraws a dirty widget and wnoutrefresh()es it) and ends the
 *    frame with ONE doupdate(). Overlays (help, dialogs) are widgets whose
 *    windows lie on top: render them last, and wwidget_touch() what lay
 *    beneath when they close.
 *  - Texts. Titles, hints and labels are given by the caller, already
 *    translated. The only words of the widgets themselves are the help lines
 *    of their key bindings: English msgids marked N_(), translated with _()
 *    when the help overlay is built (as the application's bindings are).
 *
 * The header is an umbrella (neomutt's gui/lib.h) over one header per
 * widget: theme.h, cells.h, keys.h, widget.h, panel.h, table.h, bars.h,
 * overlay.h, field.h. Code outside widgets/ includes only this one.
 *
 * Ownership: *_new returns a widget the caller owns, freed with *_free
 * (which sets the pointer to NULL). Strings given to widgets are copied.
 */
#ifndef GPUX_WIDGETS_H
#define GPUX_WIDGETS_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "widgets/theme.h"
#include "widgets/cells.h"
#include "widgets/keys.h"
#include "widgets/widget.h"
#include "widgets/panel.h"
#include "widgets/table.h"
#include "widgets/bars.h"
#include "widgets/overlay.h"
#include "widgets/field.h"

#endif
