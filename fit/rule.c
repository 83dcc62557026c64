/*
 * The seed-table rule: the marketplace pages' "largest model" columns.
 *
 *   capacity (billions) = memory GB × 0.8 ÷ bytes-per-param × GPUs
 *
 * shown as a "prudent" figure: floored to a whole number below 10, to a
 * multiple of 5 from 10 to below 100, to a multiple of 10 from 100.
 *
 * Boundary cells are exact: memory and bytes-per-param are taken in tenths
 * and the capacity is kept as the fraction num/den of integers, so 141 GB at
 * 2.5 B/param is 1410·8 / (10·25) = 45.12 → 45 with no rounding error, and
 * 80 GB at 16 B/param × 8 GPUs is exactly 32 → 30.
 */
#include "fit/fit.h"

#include <math.h>
#include <stdint.h>

/* Prudent floor of the non-negative fraction num/den. */
static long prudent_frac(int64_t num, int64_t den)
{
	if (num < 10 * den)
		return (long)(num / den);
	if (num < 100 * den)
		return (long)(num / (5 * den) * 5);
	return (long)(num / (10 * den) * 10);
}

long fit_prudent(double billions)
{
	if (!isfinite(billions) || billions < 0 || billions > 1e15)
		return -1;
	/* A value a hair below a boundary because of float error (9.9999999999
	 * for 10) counts as the boundary; 9.99 stays below it. */
	double v = floor(billions * (1.0 + 1e-9) + 1e-12);
	int64_t n = (int64_t)v;
	return prudent_frac(n, 1);
}

long fit_capacity_prudent(double memory_gb, double bytes_per_param, int gpus)
{
	if (!isfinite(memory_gb) || !isfinite(bytes_per_param) || memory_gb <= 0 ||
	    bytes_per_param <= 0 || gpus <= 0 || memory_gb > 1e7 || bytes_per_param > 1e4 ||
	    gpus > FIT_MAX_GPUS)
		return -1;
	int64_t mem10 = llround(memory_gb * 10.0);   /* tenths of a GB */
	int64_t bpp10 = llround(bytes_per_param * 10.0); /* tenths of a byte */
	if (mem10 <= 0 || bpp10 <= 0)
		return -1;
	/* (mem10/10) × (8/10) ÷ (bpp10/10) × gpus = mem10·8·gpus / (10·bpp10) */
	int64_t num = mem10 * 8 * (int64_t)gpus;
	int64_t den = 10 * bpp10;
	return prudent_frac(num, den);
}

double fit_capacity_b(double memory_gb, double bytes_per_param, int gpus)
{
	if (!isfinite(memory_gb) || !isfinite(bytes_per_param) || memory_gb <= 0 ||
	    bytes_per_param <= 0 || gpus <= 0)
		return NAN;
	return memory_gb * FIT_USABLE_FRACTION / bytes_per_param * gpus;
}
