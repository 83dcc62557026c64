/*
 * Shell completions for gpux (bash, zsh, fish), written from the same tables
 * that `gpux --help` prints: the command table (cli_commands), each command's
 * option table and the global options; the values come from the embedded
 * catalogue (GPU ids, workloads, model presets) and the language list. The
 * build runs `gpux --completions bash|zsh|fish` once, so a command or option
 * added to a table is completed without touching this file.
 *
 * What a value completes to is read off its metavar, generically: a word in
 * lower case is itself ("buy|sell" offers buy and sell), an upper-case
 * metavar is looked up in value_map below (GPU → the catalogue's GPU ids,
 * WORKLOAD → workload ids, L → languages, FILE → file names...), and a
 * metavar it does not know (N, PRICE, URL) is a free value: nothing offered.
 * A command's positional arguments are its synopsis ("buy|sell GPU") split
 * at spaces; a last one written "GPU..." (or "[GPU...]") repeats.
 *
 * bash and zsh share one set of POSIX-shell functions (_gpux_cands decides,
 * from the words of the line, what may come next); each shell has a thin
 * wrapper around it. fish gets its own `complete` lines, with one helper
 * (__gpux_is) that finds the command and the positional index.
 */
#include "cli/cli.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "data/catalog.h"
#include "i18n/i18n.h"
#include "util/util.h"

enum vkind { V_FREE, V_WORDS, V_FILES, V_DIRS };

enum vsource { S_GPUS, S_WORKLOADS, S_MODELS, S_LANGS, S_COLUMNS, S_TEXT, S_FILES, S_DIRS };

/* Upper-case metavars and what they complete to; cmd NULL = any command. */
static const struct {
	const char *cmd, *metavar;
	enum vsource src;
	const char *words; /* S_TEXT, or extra words after the source's */
} value_map[] = {
	{NULL, "GPU", S_GPUS, NULL},
	{NULL, "WORKLOAD", S_WORKLOADS, NULL},
	{NULL, "W", S_WORKLOADS, NULL},
	{NULL, "PRESET", S_MODELS, NULL},
	{NULL, "MODEL", S_MODELS, NULL},
	{NULL, "L", S_LANGS, NULL},
	{NULL, "LANG", S_LANGS, NULL},
	{NULL, "FORMAT", S_TEXT, "table csv json"},
	{NULL, "TIF", S_TEXT, "gtc ioc fok"},
	{NULL, "G", S_TEXT, "1 2 4 8"},
	{NULL, "LINK", S_TEXT, "nvlink infinity-fabric pcie"},
	{NULL, "METHOD", S_TEXT, "full lora qlora infer-fp16 infer-fp8 infer-int8 infer-int4 diffusion"},
	{NULL, "OPT", S_TEXT, "adam adam8bit sgd"},
	{NULL, "0-3", S_TEXT, "0 1 2 3"},
	{"fit", "COLUMN[:desc]", S_COLUMNS, "cheapest"},
	{NULL, "COLUMN[:desc]", S_COLUMNS, NULL},
	{NULL, "COLUMN", S_COLUMNS, NULL},
	{"orders", "STATUS", S_TEXT, "open done all"},
	{"rentals", "STATUS", S_TEXT, "active ended all"},
	{NULL, "FILE", S_FILES, NULL},
	{NULL, "PATH", S_FILES, NULL},
	{NULL, "DIR", S_DIRS, NULL},
};

/* Add word to b (space-separated) unless it is there already. */
static void add_word(struct buf *b, const char *w)
{
	size_t n = strlen(w);
	const char *p = b->data;

	while (p != NULL && (p = strstr(p, w)) != NULL) {
		if ((p == b->data || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return;
		p += n;
	}
	if (b->len > 0)
		buf_putc(b, ' ');
	buf_puts(b, w);
}

static void add_text(struct buf *b, const char *words)
{
	char *copy = xstrdup(words), *save = NULL, *w;

	for (w = strtok_r(copy, " ", &save); w != NULL; w = strtok_r(NULL, " ", &save))
		add_word(b, w);
	free(copy);
}

static enum vkind add_source(struct buf *b, const struct catalog *cat, enum vsource src)
{
	size_t i, j;

	switch (src) {
	case S_GPUS:
		for (i = 0; cat != NULL && i < cat->n_gpus; i++)
			add_word(b, cat->gpus[i].id);
		break;
	case S_WORKLOADS:
		for (i = 0; cat != NULL && i < cat->n_workloads; i++)
			add_word(b, cat->workloads[i].id);
		break;
	case S_MODELS:
		for (i = 0; cat != NULL && i < cat->n_models; i++)
			add_word(b, cat->models[i].id);
		break;
	case S_LANGS:
		for (i = 0; i < I18N_NLANGS; i++)
			add_word(b, i18n_lang_tag((enum i18n_lang)i));
		break;
	case S_COLUMNS:
		for (i = 0; cat != NULL && i < cat->n_workloads; i++)
			for (j = 0; j < cat->workloads[i].n_columns; j++)
				add_word(b, cat->workloads[i].columns[j].id);
		break;
	case S_TEXT:
		break;
	case S_FILES:
		return V_FILES;
	case S_DIRS:
		return V_DIRS;
	}
	return V_WORDS;
}

/* What one metavar alternative completes to, added to b. */
static enum vkind resolve_one(struct buf *b, const struct catalog *cat, const char *cmd,
			      const char *mv)
{
	size_t i;
	bool lower = false;

	for (i = 0; mv[i] != '\0'; i++)
		if (islower((unsigned char)mv[i]))
			lower = true;
	for (i = 0; i < sizeof value_map / sizeof value_map[0]; i++) {
		enum vkind k;

		if (strcmp(value_map[i].metavar, mv) != 0 ||
		    (value_map[i].cmd != NULL && (cmd == NULL || strcmp(value_map[i].cmd, cmd) != 0)))
			continue;
		k = add_source(b, cat, value_map[i].src);
		if (value_map[i].words != NULL)
			add_text(b, value_map[i].words);
		return k;
	}
	if (lower && strchr(mv, '[') == NULL) {
		add_word(b, mv);
		return V_WORDS;
	}
	return V_FREE;
}

/* A metavar or synopsis slot ("buy|sell", "SIZE|PRESET", "[GPU]"): its
 * words in b and what kind of value it is. */
static enum vkind resolve(struct buf *b, const struct catalog *cat, const char *cmd,
			  const char *metavar)
{
	char *copy, *save = NULL, *alt;
	enum vkind kind = V_FREE;
	size_t n;

	if (metavar == NULL)
		return V_FREE;
	copy = xstrdup(metavar[0] == '[' ? metavar + 1 : metavar);
	n = strlen(copy);
	if (n > 0 && copy[n - 1] == ']' && strchr(copy, '[') == NULL)
		copy[n - 1] = '\0';
	if (strchr(copy, '|') == NULL) {
		kind = resolve_one(b, cat, cmd, copy);
	} else {
		for (alt = strtok_r(copy, "|", &save); alt != NULL; alt = strtok_r(NULL, "|", &save)) {
			enum vkind k = resolve_one(b, cat, cmd, alt);
			if (k != V_FREE)
				kind = k;
		}
	}
	free(copy);
	return kind;
}

/* A synopsis slot that repeats ("GPU...", "[GPU...]"): true, and the dots
 * taken out of slot. */
static bool strip_repeat(char *slot)
{
	size_t n = strlen(slot), end = n > 0 && slot[n - 1] == ']' ? n - 1 : n;

	if (end < 3 || strncmp(slot + end - 3, "...", 3) != 0)
		return false;
	memmove(slot + end - 3, slot + end, n - end + 1);
	return true;
}

/* ---- bash and zsh ---------------------------------------------------------------------- */

/* "w WORDS", "f", "d" or "n" (a free value), as _gpux_cands prints it. */
static void sh_answer(FILE *out, enum vkind k, const struct buf *w)
{
	switch (k) {
	case V_WORDS: fprintf(out, "echo 'w %s'", w->data != NULL ? w->data : ""); break;
	case V_FILES: fputs("echo f", out); break;
	case V_DIRS: fputs("echo d", out); break;
	case V_FREE: fputs("echo n", out); break;
	}
}

static void sh_optval_cases(FILE *out, const struct catalog *cat, const char *cmd,
			    const struct cli_opt *opts)
{
	for (size_t k = 0; opts != NULL && opts[k].name != NULL; k++) {
		struct buf w = {0};
		enum vkind kind;

		if (opts[k].metavar == NULL)
			continue;
		kind = resolve(&w, cat, cmd, opts[k].metavar);
		fprintf(out, "    %s%s%s) ", cmd != NULL ? cmd : "*", ":", opts[k].name);
		sh_answer(out, kind, &w);
		fputs(" ;;\n", out);
		buf_free(&w);
	}
}

static void opt_names(struct buf *b, const struct cli_opt *opts)
{
	for (size_t k = 0; opts != NULL && opts[k].name != NULL; k++)
		add_word(b, opts[k].name);
}

/* The shell-neutral part: tables as case statements, and the walk over the
 * words of the line. */
static void sh_common(FILE *out, const struct cli_command *cmds, const struct cli_opt *global,
		      const struct catalog *cat)
{
	const struct cli_command *c;
	struct buf b = {0};

	fputs("# _gpux_optval CMD OPTION: what OPTION's value completes to (nothing: it takes none)\n"
	      "_gpux_optval() {\n  case \"$1:$2\" in\n", out);
	for (c = cmds; c->name != NULL; c++)
		sh_optval_cases(out, cat, c->name, c->opts);
	sh_optval_cases(out, cat, NULL, global);
	fputs("  esac\n}\n\n", out);

	fputs("# _gpux_opts CMD: the options after CMD (before any command: the global ones)\n"
	      "_gpux_opts() {\n  case $1 in\n", out);
	for (c = cmds; c->name != NULL; c++) {
		buf_reset(&b);
		opt_names(&b, c->opts);
		fprintf(out, "    %s) echo '%s' ;;\n", c->name, b.data != NULL ? b.data : "");
	}
	buf_reset(&b);
	opt_names(&b, global);
	fprintf(out, "  esac\n  echo '%s'\n}\n\n", b.data != NULL ? b.data : "");

	fputs("# _gpux_pos CMD N: what CMD's positional argument N (from 0) completes to\n"
	      "_gpux_pos() {\n  case \"$1:$2\" in\n", out);
	for (c = cmds; c->name != NULL; c++) {
		char *syn = xstrdup(c->args != NULL ? c->args : ""), *save = NULL, *slot;
		int n = 0;

		for (slot = strtok_r(syn, " ", &save); slot != NULL; slot = strtok_r(NULL, " ", &save)) {
			struct buf w = {0};
			bool rep = strip_repeat(slot);
			enum vkind kind = resolve(&w, cat, c->name, slot);

			if (rep)
				fprintf(out, "    %s:*) ", c->name);
			else
				fprintf(out, "    %s:%d) ", c->name, n++);
			sh_answer(out, kind, &w);
			fputs(" ;;\n", out);
			buf_free(&w);
		}
		free(syn);
	}
	fputs("    *) echo n ;;\n  esac\n}\n\n", out);

	buf_reset(&b);
	for (c = cmds; c->name != NULL; c++)
		add_word(&b, c->name);
	fprintf(out, "_gpux_commands='%s'\n\n", b.data != NULL ? b.data : "");
	buf_free(&b);

	fputs("# _gpux_cands WORD...: the words of the line up to the one being completed (the\n"
	      "# last); prints \"w WORDS\", \"f\" (a file), \"d\" (a directory) or \"n\" (nothing).\n"
	      "_gpux_cands() {\n"
	      "  local cmd='' npos=0 want='' w='' cur='' i=0 last=$#\n"
	      "  for w in \"$@\"; do\n"
	      "    i=$((i + 1))\n"
	      "    [ \"$i\" -eq 1 ] && continue\n"
	      "    if [ \"$i\" -eq \"$last\" ]; then cur=$w; break; fi\n"
	      "    if [ -n \"$want\" ]; then want=''; continue; fi\n"
	      "    case $w in\n"
	      "      --*=*) ;;\n"
	      "      --) ;;\n"
	      "      -?*) want=$(_gpux_optval \"$cmd\" \"$w\"); [ -n \"$want\" ] ||\n"
	      "           want=$(_gpux_optval '*' \"$w\") ;;\n"
	      "      *) if [ -z \"$cmd\" ]; then cmd=$w; else npos=$((npos + 1)); fi ;;\n"
	      "    esac\n"
	      "  done\n"
	      "  if [ -n \"$want\" ]; then echo \"$want\"; return; fi\n"
	      "  case $cur in\n"
	      "    -*) echo \"w $(_gpux_opts \"$cmd\")\"; return ;;\n"
	      "  esac\n"
	      "  if [ -z \"$cmd\" ]; then echo \"w $_gpux_commands\"; return; fi\n"
	      "  _gpux_pos \"$cmd\" \"$npos\"\n"
	      "}\n\n",
	      out);
}

static void emit_bash(FILE *out, const struct cli_command *cmds, const struct cli_opt *global,
		      const struct catalog *cat)
{
	fputs("# bash completion for gpux. Generated by `gpux --completions bash` from gpux's\n"
	      "# command and option tables; do not edit.\n\n", out);
	sh_common(out, cmds, global, cat);
	fputs("_gpux() {\n"
	      "  local cur=${COMP_WORDS[COMP_CWORD]} r\n"
	      "  r=$(_gpux_cands \"${COMP_WORDS[@]:0:COMP_CWORD+1}\")\n"
	      "  COMPREPLY=()\n"
	      "  case $r in\n"
	      "    w\\ *) mapfile -t COMPREPLY < <(compgen -W \"${r#w }\" -- \"$cur\") ;;\n"
	      "    f) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- \"$cur\") ;;\n"
	      "    d) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- \"$cur\") ;;\n"
	      "  esac\n"
	      "}\n"
	      "complete -F _gpux gpux\n", out);
}

static void emit_zsh(FILE *out, const struct cli_command *cmds, const struct cli_opt *global,
		     const struct catalog *cat)
{
	fputs("#compdef gpux\n"
	      "# zsh completion for gpux. Generated by `gpux --completions zsh` from gpux's\n"
	      "# command and option tables; do not edit.\n\n", out);
	sh_common(out, cmds, global, cat);
	fputs("_gpux() {\n"
	      "  local r\n"
	      "  r=$(_gpux_cands \"${(@)words[1,CURRENT]}\")\n"
	      "  case $r in\n"
	      "    w\\ *) compadd -- ${=${r#w }} ;;\n"
	      "    f) _files ;;\n"
	      "    d) _files -/ ;;\n"
	      "  esac\n"
	      "}\n\n"
	      "if [ \"${funcstack[1]}\" = _gpux ]; then\n"
	      "  _gpux \"$@\"\n"
	      "else\n"
	      "  compdef _gpux gpux\n"
	      "fi\n", out);
}

/* ---- fish ---------------------------------------------------------------------------------- */

/* A fish single-quoted string. */
static void fish_quote(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; *s != '\0'; s++) {
		if (*s == '\'' || *s == '\\')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputc('\'', out);
}

static void fish_opts(FILE *out, const struct catalog *cat, const char *cmd,
		      const struct cli_opt *opts)
{
	for (size_t k = 0; opts != NULL && opts[k].name != NULL; k++) {
		struct buf w = {0};
		enum vkind kind = V_FREE;

		if (strncmp(opts[k].name, "--", 2) != 0)
			continue;
		fputs("complete -c gpux", out);
		if (cmd != NULL)
			fprintf(out, " -n '__gpux_is %s'", cmd);
		fprintf(out, " -l %s", opts[k].name + 2);
		if (opts[k].metavar != NULL) {
			kind = resolve(&w, cat, cmd, opts[k].metavar);
			fputs(kind == V_FILES || kind == V_DIRS ? " -r -F" : " -x", out);
			if (kind == V_WORDS)
				fprintf(out, " -a '%s'", w.data != NULL ? w.data : "");
		}
		fputs(" -d ", out);
		fish_quote(out, opts[k].help);
		fputc('\n', out);
		buf_free(&w);
	}
}

static void emit_fish(FILE *out, const struct cli_command *cmds, const struct cli_opt *global,
		      const struct catalog *cat)
{
	const struct cli_command *c;
	struct buf valued = {0};

	for (c = cmds; c->name != NULL; c++)
		for (size_t k = 0; c->opts != NULL && c->opts[k].name != NULL; k++)
			if (c->opts[k].metavar != NULL)
				add_word(&valued, c->opts[k].name);
	for (size_t k = 0; global[k].name != NULL; k++)
		if (global[k].metavar != NULL)
			add_word(&valued, global[k].name);
	fputs("# fish completion for gpux. Generated by `gpux --completions fish` from gpux's\n"
	      "# command and option tables; do not edit.\n\n", out);
	fprintf(out, "set -g __gpux_valued %s\n\n", valued.data != NULL ? valued.data : "");
	buf_free(&valued);
	fputs("# __gpux_is CMD [N]: the line's command is CMD ('' = none yet) and, with N, the\n"
	      "# word being completed is its positional argument N (from 0; N+: N or later)\n"
	      "function __gpux_is\n"
	      "    set -l cmd ''\n"
	      "    set -l npos 0\n"
	      "    set -l skip 0\n"
	      "    for w in (commandline -opc)[2..-1]\n"
	      "        if test $skip = 1\n"
	      "            set skip 0\n"
	      "            continue\n"
	      "        end\n"
	      "        switch $w\n"
	      "            case '--*=*' '--'\n"
	      "            case '-?*'\n"
	      "                contains -- $w $__gpux_valued; and set skip 1\n"
	      "            case '*'\n"
	      "                if test -z \"$cmd\"\n"
	      "                    set cmd $w\n"
	      "                else\n"
	      "                    set npos (math $npos + 1)\n"
	      "                end\n"
	      "        end\n"
	      "    end\n"
	      "    test \"$cmd\" = \"$argv[1]\"; or return 1\n"
	      "    set -q argv[2]; or return 0\n"
	      "    test $skip = 0; or return 1\n"
	      "    if string match -q -- '*+' $argv[2]\n"
	      "        test $npos -ge (string trim -c + -- $argv[2])\n"
	      "    else\n"
	      "        test \"$npos\" = \"$argv[2]\"\n"
	      "    end\n"
	      "end\n\n"
	      "complete -c gpux -f\n", out);
	for (c = cmds; c->name != NULL; c++) {
		fprintf(out, "complete -c gpux -n \"__gpux_is '' 0\" -a %s -d ", c->name);
		fish_quote(out, c->help);
		fputc('\n', out);
	}
	fish_opts(out, cat, NULL, global);
	for (c = cmds; c->name != NULL; c++) {
		char *syn = xstrdup(c->args != NULL ? c->args : ""), *save = NULL, *slot;
		int n = 0;

		fish_opts(out, cat, c->name, c->opts);
		for (slot = strtok_r(syn, " ", &save); slot != NULL; slot = strtok_r(NULL, " ", &save)) {
			struct buf w = {0};
			const char *more = strip_repeat(slot) ? "+" : "";
			enum vkind kind = resolve(&w, cat, c->name, slot);

			if (kind == V_WORDS)
				fprintf(out, "complete -c gpux -n '__gpux_is %s %d%s' -a '%s'\n", c->name, n,
					more, w.data);
			else if (kind != V_FREE)
				fprintf(out, "complete -c gpux -n '__gpux_is %s %d%s' -F\n", c->name, n, more);
			n++;
			buf_free(&w);
		}
		free(syn);
	}
}

int cli_completions(FILE *out, const char *shell, const struct cli_command *cmds,
		    const struct cli_opt *global)
{
	struct catalog *cat = NULL;
	char *cause = NULL;
	int rc = CLI_OK;

	if (catalog_load(NULL, &cat, &cause) != 0) {
		fprintf(stderr, "gpux: %s\n", cause != NULL ? cause : "?");
		free(cause);
		return CLI_FAILED;
	}
	if (strcmp(shell, "bash") == 0)
		emit_bash(out, cmds, global, cat);
	else if (strcmp(shell, "zsh") == 0)
		emit_zsh(out, cmds, global, cat);
	else if (strcmp(shell, "fish") == 0)
		emit_fish(out, cmds, global, cat);
	else {
		fprintf(stderr, "gpux: %s\n", _("--completions: accepted: bash, zsh, fish"));
		rc = CLI_USAGE;
	}
	catalog_free(&cat);
	if (fflush(out) != 0)
		rc = CLI_FAILED;
	return rc;
}
