/*
 * The monotonic clock, in milliseconds and microseconds: timers, timeouts
 * and the ages of prices are measured on it, never on the wall clock.
 */
#include "util.h"

#include <time.h>

int64_t util_now_ms(void) { return util_now_us() / 1000; }

int64_t util_now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
