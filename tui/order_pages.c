/*
 * The pages of issue 7 (order form, orders, rentals, account): stubs until
 * the pages land, so the key map and the fit panel can call them.
 */
#include "tui/tui_int.h"

#include "i18n/i18n.h"

void tui_order_open(struct tui *t, const char *gpu_id, bool sell, int gpus, int hours)
{
	(void)gpu_id; (void)sell; (void)gpus; (void)hours;
	tui_message(t, _("The order form is not ready yet"));
}

void tui_orders_open(struct tui *t) { tui_order_open(t, NULL, false, 0, 0); }
void tui_rentals_open(struct tui *t) { tui_order_open(t, NULL, false, 0, 0); }
void tui_account_open(struct tui *t) { tui_order_open(t, NULL, false, 0, 0); }
bool tui_trade_shown(const struct tui *t) { (void)t; return false; }
void tui_trade_layout(struct tui *t) { (void)t; }
bool tui_trade_render(struct tui *t, bool under) { (void)t; (void)under; return false; }
bool tui_trade_cursor(struct tui *t) { (void)t; return false; }
unsigned tui_trade_event(struct tui *t, const struct wevent *ev) { (void)t; (void)ev; return W_IGNORED; }
void tui_trade_tick(struct tui *t, int64_t now, int *timeout_ms) { (void)t; (void)now; (void)timeout_ms; }
void tui_trade_touch(struct tui *t) { (void)t; }
void tui_trade_free(struct tui *t) { (void)t; }
