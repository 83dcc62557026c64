/*
 * The places of tui/frame/screen.h: which screen stands where. One screen
 * opens another only through tui_open and this table (given to the session
 * by tui/frame/app.c), never by calling into its file, so the screens'
 * files call one another in no cycle and a new screen is a line here.
 */
#include "tui/fitpanel/fitpanel.h"
#include "tui/market/browse.h"
#include "tui/market/detail.h"
#include "tui/trade/trade.h"

const struct tui_place_def tui_places[TUI_PLACES] = {
	[TUI_ORDER_FORM] = { &tui_order_form_class, tui_order_form_open },
	[TUI_ORDERS] = { &tui_orders_class, tui_orders_open },
	[TUI_RENTALS] = { &tui_rentals_class, tui_rentals_open },
	[TUI_ACCOUNT] = { &tui_account_page_class, tui_account_page_open },
	[TUI_ALERTS] = { &tui_alerts_class, tui_alerts_open },
	[TUI_DETAIL] = { NULL, tui_detail_open },
	[TUI_COMPARE] = { NULL, tui_compare_open },
	[TUI_FIT] = { NULL, tui_fit_open },
	[TUI_WELCOME] = { NULL, tui_welcome_open },
	[TUI_FIRST_RUN] = { NULL, tui_first_run_open },
	[TUI_JOB_ORDER] = { NULL, tui_job_order_open },
	[TUI_TABLE_STEP] = { NULL, tui_browse_step_open },
};

/* Every screen with a key map: the registry of actions (tui/frame/keys.c)
 * is their maps, with the frame's. */
const struct tui_screen_class *const tui_classes[] = {
	&tui_browse_class, &tui_fit_class, &tui_detail_class, &tui_compare_class,
	&tui_order_form_class, &tui_orders_class, &tui_rentals_class, &tui_account_page_class,
	&tui_welcome_class,
};
const size_t tui_n_classes = sizeof tui_classes / sizeof tui_classes[0];
