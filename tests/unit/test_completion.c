/*
 * The completion writer (cli_completions) reads any command and option
 * table: a command, option or metavar it has never seen is completed from
 * the table alone. Here a made-up command table stands in for the ones
 * other parts of gpux add (a repeating GPU argument, a FILE option, literal
 * choices, a free value), and the bash/zsh decision functions and the fish
 * lines are checked for what they offer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli/cli.h"
#include "util/util.h"

static int no_cmd(struct cli_ctx *ctx, int argc, char **argv)
{
	return CLI_OK;
}

static const struct cli_opt watch_opts[] = {
	{"--interval", "1m|5m|1h", "candle width"},
	{"--key-file", "FILE", "read the key from FILE"},
	{"--depth", "N", "levels"},
	{"--once", NULL, "one frame"},
	{NULL, NULL, NULL},
};
static const struct cli_opt global_opts[] = {
	{"--timeout", "SECONDS", "seconds per request"},
	{"--lang", "L", "language"},
	{NULL, NULL, NULL},
};
static const struct cli_command cmds[] = {
	{"watch", no_cmd, "[GPU...]", "watch the market", watch_opts, true, NULL},
	{"keys", no_cmd, "list|create|revoke", "API keys", NULL, false, NULL},
	{NULL, NULL, NULL, NULL, NULL, false, NULL},
};

/* The script for shell, malloc'ed. */
static char *script(const char *shell)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_int_equal(cli_completions(f, shell, cmds, global_opts), CLI_OK);
	fclose(f);
	return text;
}

static void has(const char *text, const char *want)
{
	if (strstr(text, want) == NULL)
		fail_msg("missing: %s", want);
}

static void test_sh_from_any_table(void **state)
{
	for (int i = 0; i < 2; i++) {
		char *s = script(i == 0 ? "bash" : "zsh");

		has(s, "_gpux_commands='watch keys'");
		has(s, "watch:--interval) echo 'w 1m 5m 1h' ;;");
		has(s, "watch:--key-file) echo f ;;");
		has(s, "watch:--depth) echo n ;;");
		has(s, "*:--timeout) echo n ;;");
		has(s, "*:--lang) echo 'w en pt-PT pt-BR es fr de' ;;");
		has(s, "watch) echo '--interval --key-file --depth --once' ;;");
		has(s, "echo '--timeout --lang'");
		has(s, "watch:*) echo 'w b300 b200 ");   /* a repeating GPU argument */
		has(s, "keys:0) echo 'w list create revoke' ;;");
		if (strstr(s, "--once)") != NULL)
			fail_msg("a flag without a value takes none");
		free(s);
	}
}

static void test_fish_from_any_table(void **state)
{
	char *s = script("fish");

	has(s, "set -g __gpux_valued --interval --key-file --depth --timeout --lang");
	has(s, "complete -c gpux -n \"__gpux_is '' 0\" -a watch -d 'watch the market'");
	has(s, "complete -c gpux -n '__gpux_is watch' -l interval -x -a '1m 5m 1h'");
	has(s, "complete -c gpux -n '__gpux_is watch' -l key-file -r -F");
	has(s, "complete -c gpux -n '__gpux_is watch' -l once -d 'one frame'");
	has(s, "complete -c gpux -l timeout -x -d 'seconds per request'");
	has(s, "complete -c gpux -n '__gpux_is watch 0+' -a 'b300 b200 ");
	has(s, "complete -c gpux -n '__gpux_is keys 0' -a 'list create revoke'");
	free(s);
}

static void test_unknown_shell(void **state)
{
	FILE *f = fopen("/dev/null", "w");

	assert_non_null(f);
	assert_int_equal(cli_completions(f, "tcsh", cmds, global_opts), CLI_USAGE);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sh_from_any_table),
		cmocka_unit_test(test_fish_from_any_table),
		cmocka_unit_test(test_unknown_shell),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
