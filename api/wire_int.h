/*
 * api/wire_int.h — shorthand shared by the decoders of api/wire*.c: the
 * ranges of the contract and the DEC_* macros ("read this field or jump to
 * fail"). Not an interface.
 */
#ifndef GPUX_API_WIRE_INT_H
#define GPUX_API_WIRE_INT_H

#include "api/internal.h"

#define MAX_ID API_SAFE_INT
#define MAX_PRICE ((int64_t)100000000)   /* 10^6 US$ per GPU-hour: far above the 10^4 limit */
#define MAX_COUNT ((int64_t)1000000000)
#define MAX_MONEY API_SAFE_INT
#define SHORT 128                        /* ids, codes, currencies, countries, cursors */
#define LONG 4096                        /* messages, notes, sources */

#define DEC_INT(o, p, n, lo, hi, dst) \
	do { int64_t v_; if (api_json_int((o), (p), (n), (lo), (hi), &v_, cause) != 0) goto fail; (dst) = v_; } while (0)
#define DEC_INT_OPT(o, p, n, lo, hi, dst) \
	do { int64_t v_; if (api_json_int_opt((o), (p), (n), (lo), (hi), -1, &v_, cause) != 0) goto fail; (dst) = v_; } while (0)
#define DEC_INT_NULL(o, p, n, lo, hi, dst) \
	do { int64_t v_; if (api_json_int_null((o), (p), (n), (lo), (hi), -1, &v_, cause) != 0) goto fail; (dst) = v_; } while (0)
#define DEC_STR(o, p, n, max, dst) \
	do { if (api_json_str((o), (p), (n), (max), false, &(dst), cause) != 0) goto fail; } while (0)
#define DEC_STR_OPT(o, p, n, max, dst) \
	do { if (api_json_str_opt((o), (p), (n), (max), &(dst), cause) != 0) goto fail; } while (0)
#define DEC_TIME(o, p, n, dst) \
	do { if (api_json_time((o), (p), (n), false, &(dst), cause) != 0) goto fail; } while (0)
#define DEC_TIME_OPT(o, p, n, dst) \
	do { if (api_json_time((o), (p), (n), true, &(dst), cause) != 0) goto fail; } while (0)
#define DEC_ENUM(o, p, n, names, dst) \
	do { int i_; if (api_json_enum((o), (p), (n), (names), (int)(sizeof(names) / sizeof(names)[0]), &i_, cause) != 0) goto fail; (dst) = i_; } while (0)

#endif
