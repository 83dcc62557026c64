/*
 * Internal to fit/: the marker xgettext knows (make po: -kN_) for English
 * msgids that callers translate with _(). fit/ itself never translates:
 * it has no dependency on i18n/. And the resolved architecture the memory
 * and speed formulas share.
 */
#ifndef GPUX_FIT_INT_H
#define GPUX_FIT_INT_H

#ifndef N_
#define N_(s) (s)
#endif

#include "fit/fit.h"

#define GB 1e9

/* The architecture the formulas use: every field known and positive
 * (a model without one gets the guessed architecture of its size). */
struct fit_arch {
	double params;        /* total parameters */
	double active;        /* per token */
	double layers, hidden, heads, kv_heads, head_dim, vocab, ffn, kv_latent;
	double q_dim;         /* heads × head_dim */
	double kv_dim;        /* kv_heads × head_dim */
	double embed;         /* embedding + output layer parameters */
	double largest;       /* parameters of the largest single layer */
};

void fit_resolve(const struct fit_model *m, struct fit_arch *a);
int fit_clamp_int(int v, int lo, int hi);

#endif
