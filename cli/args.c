/*
 * Option parsing and error lines for the commands. One small parser for every
 * command, driven by the command's option table (struct cli_opt), so all
 * commands agree on "--opt VALUE" / "--opt=VALUE", duplicate and missing
 * values, and on the shape of the error line: "gpux: what; what is accepted".
 * Messages are English msgids through _() like every user-visible string.
 */
#include "cli/cli.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "util/util.h"

/* The line is sanitised: a value echoed back (an argument, a file name)
 * must not bring control characters or invalid UTF-8 to the terminal. */
static int vreport(struct cli_ctx *ctx, int status, const char *fmt, va_list ap)
{
	FILE *err = ctx != NULL && ctx->err != NULL ? ctx->err : stderr;
	char *msg = xvasprintf(fmt, ap);
	char *safe = util_sanitize(msg, SIZE_MAX, false);

	fprintf(err, "gpux: %s\n", safe);
	fflush(err);
	free(safe);
	free(msg);
	return status;
}

int cli_usage(struct cli_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vreport(ctx, CLI_USAGE, fmt, ap);
	va_end(ap);
	return rc;
}

int cli_fail(struct cli_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vreport(ctx, CLI_FAILED, fmt, ap);
	va_end(ap);
	return rc;
}

static size_t opts_count(const struct cli_opt *opts)
{
	size_t n = 0;

	while (opts != NULL && opts[n].name != NULL)
		n++;
	return n;
}

/* The list of a command's options, for "accepted: ..." ("--sort, --filter"). */
static char *opts_list(const struct cli_opt *opts)
{
	struct buf b = {0};
	size_t i, n = opts_count(opts);

	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_puts(&b, ", ");
		buf_puts(&b, opts[i].name);
	}
	if (n == 0)
		buf_puts(&b, _("none"));
	return buf_take(&b);
}

static bool looks_numeric(const char *s)
{
	return s[0] == '-' && (s[1] == '.' || (s[1] >= '0' && s[1] <= '9'));
}

int cli_args_parse(struct cli_ctx *ctx, const char *cmd, const struct cli_opt *opts,
		   int argc, char **argv, size_t max_pos, struct cli_args *a)
{
	size_t n_opts = opts_count(opts);
	bool only_pos = false;
	int i;

	a->opts = opts;
	a->values = xcalloc(n_opts + 1, sizeof *a->values);
	a->pos = xcalloc((size_t)(argc > 0 ? argc : 1), sizeof *a->pos);
	a->n_pos = 0;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *eq, *value = NULL;
		size_t name_len, k;

		if (only_pos || arg[0] != '-' || arg[1] == '\0' || looks_numeric(arg)) {
			if (a->n_pos >= max_pos) {
				cli_args_free(a);
				if (max_pos == 0)
					return cli_usage(ctx, _("%s: unexpected argument \"%s\"; it takes no arguments"),
							 cmd, arg);
				return cli_usage(ctx, _("%s: unexpected extra argument \"%s\"; see gpux %s --help"),
						 cmd, arg, cmd);
			}
			a->pos[a->n_pos++] = arg;
			continue;
		}
		if (strcmp(arg, "--") == 0) {
			only_pos = true;
			continue;
		}
		eq = strchr(arg, '=');
		name_len = eq != NULL ? (size_t)(eq - arg) : strlen(arg);
		for (k = 0; k < n_opts; k++)
			if (strlen(opts[k].name) == name_len && strncmp(opts[k].name, arg, name_len) == 0)
				break;
		if (k == n_opts) {
			char *list = opts_list(opts);
			int rc = cli_usage(ctx, _("%s: unknown option \"%.*s\"; accepted: %s"), cmd,
					   (int)name_len, arg, list);
			free(list);
			cli_args_free(a);
			return rc;
		}
		if (a->values[k] != NULL) {
			cli_args_free(a);
			return cli_usage(ctx, _("%s: %s given twice; give it once"), cmd, opts[k].name);
		}
		if (opts[k].metavar == NULL) {
			if (eq != NULL) {
				cli_args_free(a);
				return cli_usage(ctx, _("%s: %s takes no value; write just %s"), cmd,
						 opts[k].name, opts[k].name);
			}
			value = opts[k].name;
		} else if (eq != NULL) {
			value = eq + 1;
		} else if (i + 1 < argc) {
			value = argv[++i];
		}
		if (value == NULL || (opts[k].metavar != NULL && value[0] == '\0')) {
			cli_args_free(a);
			return cli_usage(ctx, _("%s: %s needs a value: %s %s"), cmd, opts[k].name,
					 opts[k].name, opts[k].metavar);
		}
		a->values[k] = value;
	}
	return CLI_OK;
}

const char *cli_arg(const struct cli_args *a, const struct cli_opt *opts, const char *name)
{
	size_t k;

	for (k = 0; opts != NULL && opts[k].name != NULL; k++)
		if (strcmp(opts[k].name, name) == 0)
			return a->values != NULL ? a->values[k] : NULL;
	return NULL;
}

void cli_args_free(struct cli_args *a)
{
	free(a->values);
	free(a->pos);
	a->values = NULL;
	a->pos = NULL;
	a->n_pos = 0;
}

int cli_parse_int(struct cli_ctx *ctx, const char *what, const char *s, long long min,
		  long long max, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	while (*end == ' ')
		end++;
	if (s[0] == '\0' || *end != '\0' || (s[0] == ' '))
		return cli_usage(ctx, _("%s: \"%s\" is not a whole number; accepted: %lld to %lld"),
				 what, s, min, max);
	if (errno == ERANGE || v < min || v > max)
		return cli_usage(ctx, _("%s: %s is out of range; accepted: %lld to %lld"), what, s,
				 min, max);
	*out = v;
	return CLI_OK;
}

int cli_arg_int(struct cli_ctx *ctx, const struct cli_args *a, const char *name, long long min,
		long long max, int64_t *out)
{
	const char *v = cli_arg(a, a->opts, name);
	long long n;
	int rc;

	if (v == NULL)
		return CLI_OK;
	if ((rc = cli_parse_int(ctx, name, v, min, max, &n)) != CLI_OK)
		return rc;
	*out = n;
	return CLI_OK;
}
