/*
 * Internal to cli/: what the account commands (cli/cmd_account.c: keys,
 * account, deposit; cli/cmd_signup.c: signup) share. Not part of cli.h.
 */
#ifndef GPUX_CLI_ACCOUNT_INT_H
#define GPUX_CLI_ACCOUNT_INT_H

#include "api/api.h"
#include "cli/cli.h"

/* s transliterated to ASCII with --ascii (s is taken; the result malloc'ed). */
char *cli_acct_ascii(const struct cli_ctx *ctx, char *s);
/* A line on ctx->out; a note "gpux: ..." on ctx->err. */
void cli_acct_say(struct cli_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_acct_note(struct cli_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print the error as one line; CLI_FAILED. */
int cli_acct_fail_api(struct cli_ctx *ctx, const struct api_error *e);
/* The configured exchange (or the local demo one, said on stderr); NULL
 * after saying why. *key_given (if not NULL): an API key was configured. */
struct api_client *cli_acct_open(struct cli_ctx *ctx, bool *key_given);
/* A VAT rate in basis points as a percentage, and a time as ISO 8601 UTC
 * (NULL for -1); malloc'ed. */
char *cli_acct_vat(const struct cli_ctx *ctx, int64_t bp);
char *cli_acct_iso_time(int64_t t);
/* "The market is open." / "Trading opens on 1 September 2027 at 10:00."
 * (local time) / …, malloc'ed. */
char *cli_acct_opening(const struct cli_ctx *ctx, const struct api_topup *t);
/* How to top up on this exchange: a line or two on ctx->out. */
void cli_acct_topup(struct cli_ctx *ctx, const struct api_topup *t);

#endif
