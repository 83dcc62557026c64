/*
 * Internal to fit/: the marker xgettext knows (make po: -kN_) for English
 * msgids that callers translate with _(). fit/ itself never translates:
 * it has no dependency on i18n/.
 */
#ifndef GPUX_FIT_INT_H
#define GPUX_FIT_INT_H

#ifndef N_
#define N_(s) (s)
#endif

#endif
