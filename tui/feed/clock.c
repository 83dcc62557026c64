/*
 * The exchange's clock, as the feed knows it (the chart's ranges and the
 * 24 h window are the exchange's, which can run faster than real time:
 * gpuxd --clock-speed): the last server_time read (GET /v1/market, a
 * candles reply), when it was read, and how fast the clock runs (the
 * market's clock_speed), moved on from there. Our own clock before any
 * reading. Calls nothing else of the feed, so the files that read it call
 * one another in no cycle.
 */
#include "tui/tui_int.h"

#include <time.h>

#include "util/util.h"

void tui_exchange_clock(struct tui *t, int64_t server_s)
{
	if (server_s <= 0)
		return;
	t->m.clock_s = server_s;
	t->m.clock_at_ms = util_now_ms();
}

int64_t tui_exchange_now(const struct tui *t)
{
	const struct tui_market *m = &t->m;
	double speed = m->clock_speed > 0 ? m->clock_speed : 1.0;

	if (m->clock_at_ms == 0)
		return (int64_t)time(NULL);
	return m->clock_s + (int64_t)((double)(util_now_ms() - m->clock_at_ms) * speed / 1000.0);
}
