/*
 * The TUI as the tools its users live in work (htop, k9s, VisiData), on
 * the screen harness (tui/frame/harness.h): the registry of actions that
 * the `:` command line (with completion), the help, the F-key bar and the
 * config file's key rebinding read; unknown keys said in the status bar;
 * the message history; themes. Most sessions need no exchange (the
 * catalogue without prices); those that do get a real gpuxd --demo on
 * loopback, which must start or the tests fail.
 */
#include "tests/unit/screen_fixture.h"

#include <sys/stat.h>

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "tui/frame/harness.h"
#include "tui/market/browse.h"
#include "tui/tui_int.h"
#include "util/util.h"

static struct catalog *cat;
static char conf[512];
static pid_t gpuxd_pid = -1;
static char gpuxd_url[64];
static char *buyer_key;

static int setup_all(void **state)
{
	(void)state;
	if (fx_catalog_load(&cat) != 0)
		return -1;
	if (fx_mkdtemp("tools") != 0)
		return -1;
	setenv("HOME", fx_tmpdir, 1);
	setenv("XDG_CONFIG_HOME", fx_tmpdir, 1);
	{
		char st[300];
		snprintf(st, sizeof st, "%s/state", fx_tmpdir);
		setenv("XDG_STATE_HOME", st, 1);
	}
	unsetenv("NO_COLOR");
	unsetenv("TMUX");
	setenv("TERM", "xterm-256color", 1);
	snprintf(conf, sizeof conf, "%s/gpux/config", fx_tmpdir);
	{
		char db[512];
		char *gx[] = { (char *)"--demo", (char *)"--quiet", (char *)"--clock-speed",
			       (char *)"0.001", (char *)"--db", db, NULL };
		snprintf(db, sizeof db, "%s/gpuxd.db", fx_tmpdir);
		gpuxd_pid = fx_start_server("gpuxd", "gpuxd", gx, gpuxd_url, sizeof gpuxd_url);
		if (gpuxd_pid < 0 || api_curl_ready(NULL) != 0)
			return -1;
		buyer_key = fx_first_account(gpuxd_url, "tools@example.pt", "buyer", 500000);
		if (buyer_key == NULL)
			return -1;
	}
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	fx_stop_server(&gpuxd_pid);
	fx_rmtemp();
	free(buyer_key);
	catalog_free(&cat);
	return 0;
}

/* No session remembered anything yet. */
static void forget_state(void)
{
	char cmd[300];

	snprintf(cmd, sizeof cmd, "rm -rf '%s/state' && mkdir -p '%s/gpux'", fx_tmpdir, fx_tmpdir);
	assert_int_equal(system(cmd), 0);
}

/* The config file holds exactly text. */
static void write_conf(const char *text)
{
	FILE *f;

	forget_state();
	f = fopen(conf, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(conf, 0600);
}

static char *read_conf(void)
{
	char *data = NULL;
	size_t n;

	assert_int_equal(util_read_file(conf, &data, &n, NULL), 0);
	return data;
}

/* A session without an exchange (the catalogue, no prices), remembering
 * its settings in conf (config NULL: nowhere). */
static struct tui_harness *open_plain(const char *config, int lines, int cols)
{
	struct tui_options o = { .catalog = cat, .lang = I18N_EN, .config_path = config ? config : "" };
	struct tui_harness *h = tui_harness_new(&o, lines, cols);

	assert_non_null(h);
	return h;
}

static struct tui_browse *browse_of(struct tui_harness *h)
{
	struct tui *t = tui_harness_tui(h);

	return (struct tui_browse *)t->stack[0];
}

static const struct view_table *cur_view(struct tui_harness *h)
{
	struct tui_browse *b = browse_of(h);

	return b->tab[b->cur].view;
}

static const char *cursor_gpu(struct tui_harness *h)
{
	struct tui *t = tui_harness_tui(h);

	assert_non_null(t->sel.view);
	return view_shown_row(t->sel.view, t->sel.row)->gpu->id;
}

/* ':' then text, as typed. */
static void command(struct tui_harness *h, const char *text)
{
	tui_harness_key(h, ':');
	assert_string_equal(tui_harness_top(h), "command");
	tui_harness_type(h, text);
}

/* The last row (where the command line is). */
static char *last_row(struct tui_harness *h, int lines)
{
	return tui_harness_row(h, lines - 1);
}

/* text shows in the help (opened), paging down until it does. */
static void expect_in_help(struct tui_harness *h, const char *text)
{
	tui_harness_key(h, WKEY_HOME);
	for (int i = 0; i < 20 && tui_harness_find(h, text) < 0; i++)
		tui_harness_key(h, WKEY_PGDN);
	fx_expect_on_screen(h, text);
}

/* ---- the command line --------------------------------------------------------------------------- */

/* :sort price sorts by the price column; :h200 puts the cursor on H200;
 * the line closes after Enter. */
static void test_command_runs_actions(void **state)
{
	struct tui_harness *h = open_plain(NULL, 30, 120);

	(void)state;
	command(h, "sort memory desc");
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(tui_harness_top(h), "browse");
	assert_int_equal(cur_view(h)->sort_col, view_column_index(cur_view(h), "memory"));
	assert_true(cur_view(h)->sort_desc);
	/* the largest memory first: B300 (288 GB) */
	assert_string_equal(view_shown_row(cur_view(h), 0)->gpu->id, "b300");
	command(h, "h200");
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(cursor_gpu(h), "h200");
	/* a prefix only one action starts with is that action */
	command(h, "sort-r");
	tui_harness_key(h, WKEY_RETURN);
	assert_false(cur_view(h)->sort_desc);
	/* a tab by its workload's id */
	command(h, "tab inference");
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(browse_of(h)->tab[browse_of(h)->cur].w->id, "inference");
	tui_harness_free(&h);
}

/* Tab completes the action's name, then what it takes (a column id);
 * the line shows the choices and, once a name is whole, what it does. */
static void test_command_completes(void **state)
{
	struct tui_harness *h = open_plain(NULL, 30, 120);
	char *row;

	(void)state;
	command(h, "so");
	tui_harness_key(h, WKEY_TAB);
	row = last_row(h, 30);
	/* four actions start with "sort": completed that far, listed */
	assert_non_null(strstr(row, ":sort"));
	assert_non_null(strstr(row, "sort-next"));
	assert_non_null(strstr(row, "sort-reverse"));
	free(row);
	tui_harness_type(h, " mem");
	tui_harness_key(h, WKEY_TAB);
	row = last_row(h, 30);
	assert_non_null(strstr(row, ":sort memory"));
	free(row);
	tui_harness_key(h, WKEY_ESC);
	assert_string_equal(tui_harness_top(h), "browse");
	assert_int_equal(cur_view(h)->sort_col, -1); /* Esc ran nothing */
	/* a whole name: its description after the line */
	command(h, "columns");
	row = last_row(h, 30);
	assert_non_null(strstr(row, "Choose and order the columns"));
	free(row);
	tui_harness_key(h, WKEY_ESC);
	tui_harness_free(&h);
}

/* What the line cannot do is said in words. */
static void test_command_errors_in_words(void **state)
{
	struct tui_harness *h = open_plain(NULL, 30, 120);

	(void)state;
	command(h, "frobnicate");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "No action or GPU is called \u201cfrobnicate\u201d");
	command(h, "sort nosuchcolumn");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "No column \u201cnosuchcolumn\u201d in this table");
	command(h, "mark now");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, ":mark takes nothing after it");
	/* an action of another screen (the orders page's) */
	command(h, "cancel");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, ":cancel works on another screen: Your orders");
	tui_harness_free(&h);
}

/* ---- filter expressions and search ------------------------------------------------------------- */

static size_t gpus_with_memory(const struct view_table *v, double gb)
{
	size_t n = 0;

	for (size_t i = 0; i < v->n_rows; i++)
		n += v->rows[i].gpu->memory_gb >= gb;
	return n;
}

/* / takes an expression on any column; the hint line says what it takes;
 * what cannot be read is said in the field while the rows stay. */
static void test_filter_expressions(void **state)
{
	struct tui_harness *h = open_plain(NULL, 30, 120);
	const struct view_table *v = cur_view(h);
	size_t want = gpus_with_memory(v, 141);
	char count[64], *row;

	(void)state;
	assert_true(want > 0 && want < v->n_rows);
	tui_harness_key(h, '/');
	row = tui_harness_row(h, 28);
	assert_non_null(strstr(row, "Words match a GPU's name"));
	free(row);
	tui_harness_type(h, "mem>=141");
	snprintf(count, sizeof count, "%zu of %zu shown", want, v->n_rows);
	fx_expect_on_screen(h, count);
	assert_int_equal(cur_view(h)->n_shown, want);
	tui_harness_type(h, "x");
	fx_expect_on_screen(h, "\u201c141x\u201d is not a number");
	assert_int_equal(cur_view(h)->n_shown, want); /* the rows stay */
	tui_harness_key(h, WKEY_BACKSPACE);
	tui_harness_type(h, " hbm3e|hbm3");
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(browse_of(h)->tab[0].filter, "mem>=141 hbm3e|hbm3");
	fx_expect_on_screen(h, "filter \"mem>=141 hbm3e");
	tui_harness_free(&h);
}

/* \ and Ctrl-F jump to the next row that matches, hiding none; n and N
 * go on; Esc puts the cursor back. */
static void test_search_jumps(void **state)
{
	struct tui_harness *h = open_plain(NULL, 30, 120);
	const struct view_table *v = cur_view(h);
	size_t n = v->n_rows;

	(void)state;
	assert_string_equal(cursor_gpu(h), view_shown_row(v, 0)->gpu->id);
	tui_harness_key(h, '\\');
	tui_harness_type(h, "a100");
	assert_int_equal(cur_view(h)->n_shown, n); /* nothing hidden */
	assert_string_equal(cursor_gpu(h), "a100-sxm");
	tui_harness_key(h, WKEY_RETURN);
	tui_harness_key(h, 'n');
	assert_string_equal(cursor_gpu(h), "a100-pcie");
	tui_harness_key(h, 'n'); /* round again */
	assert_string_equal(cursor_gpu(h), "a100-sxm");
	fx_expect_on_screen(h, "Search went on from the top");
	tui_harness_key(h, 'N');
	assert_string_equal(cursor_gpu(h), "a100-pcie");
	/* an expression, by Ctrl-F; Esc: back where it started */
	tui_harness_key(h, 'F' - '@');
	tui_harness_type(h, "vendor=amd");
	assert_string_equal(catalog_gpu(cat, cursor_gpu(h))->vendor, "AMD");
	tui_harness_type(h, "zzz");
	fx_expect_on_screen(h, "no row matches");
	tui_harness_key(h, WKEY_ESC);
	assert_string_equal(cursor_gpu(h), "a100-pcie");
	tui_harness_free(&h);
}

/* ---- remembered state and the watchlist ---------------------------------------------------------- */

/* The one state file of the sessions so far (its path, malloc'ed), or NULL. */
static char *state_file(void)
{
	char cmd[600], line[600];
	FILE *f;
	char *path = NULL;

	snprintf(cmd, sizeof cmd, "ls %s/state/gpux/exchange-* 2>/dev/null", fx_tmpdir);
	f = popen(cmd, "r");
	assert_non_null(f);
	if (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		path = xstrdup(line);
	}
	pclose(f);
	return path;
}

static bool history_has(struct tui *t, const char *text)
{
	for (size_t i = 0; i < t->n_msgs; i++)
		if (strstr(tui_messages_at(t, i)->text, text) != NULL)
			return true;
	return false;
}

/* Tab, sort, filter, marks, watchlist and the fit job outlive the session;
 * a damaged file is said once and ignored. */
static void test_state_remembered(void **state)
{
	struct tui_harness *h;
	struct browse_tab_check { const char *tab; } want = { "inference" };
	char *path, *data;
	size_t n;

	(void)state;
	write_conf("");
	h = open_plain(conf, 30, 120);
	tui_harness_key(h, '3');
	command(h, "sort memory desc");
	tui_harness_key(h, WKEY_RETURN);
	tui_harness_key(h, '/');
	tui_harness_type(h, "mem>=80");
	tui_harness_key(h, WKEY_RETURN);
	tui_harness_key(h, ' ');          /* marks the first row, the cursor goes down */
	tui_harness_key(h, '*');          /* the second row onto the watchlist */
	char *watched = xstrdup(cursor_gpu(h));
	tui_harness_key(h, 'f');
	tui_harness_type(h, "70");
	tui_harness_key(h, WKEY_ESC);
	assert_true(tui_harness_tui(h)->job.have);
	tui_harness_free(&h);

	path = state_file();
	assert_non_null(path);
	assert_int_equal(util_read_file(path, &data, &n, NULL), 0);
	assert_non_null(strstr(data, "tab = inference"));
	assert_non_null(strstr(data, "sort.inference = memory desc"));
	assert_non_null(strstr(data, "filter.inference = mem>=80"));
	assert_non_null(strstr(data, "fit = open"));
	free(data);

	h = open_plain(conf, 30, 120);
	assert_string_equal(browse_of(h)->tab[browse_of(h)->cur].w->id, want.tab);
	assert_int_equal(cur_view(h)->sort_col, view_column_index(cur_view(h), "memory"));
	assert_true(cur_view(h)->sort_desc);
	assert_string_equal(cur_view(h)->filter, "mem>=80");
	assert_int_equal(browse_of(h)->n_marks, 1);
	assert_int_equal(browse_of(h)->n_watch, 1);
	assert_string_equal(browse_of(h)->watch[0], watched);
	assert_string_equal(view_shown_row(cur_view(h), 0)->gpu->id, watched); /* pinned on top */
	tui_harness_frame(h);
	assert_true(tui_harness_tui(h)->job.have);  /* the panel came back with its job */
	assert_true(cur_view(h)->has_job);
	fx_expect_on_screen(h, "70");
	tui_harness_free(&h);

	/* damaged: said once, the defaults, a good file written over it */
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("tab = inference\n\x01\x02 this is not a line\n", f);
	fclose(f);
	h = open_plain(conf, 30, 120);
	assert_true(history_has(tui_harness_tui(h), "Remembered state ignored"));
	assert_int_equal(browse_of(h)->cur, 0);
	tui_harness_key(h, '2');
	tui_harness_free(&h);
	assert_int_equal(util_read_file(path, &data, &n, NULL), 0);
	assert_non_null(strstr(data, "tab = finetune"));
	free(data);
	h = open_plain(conf, 30, 120);
	assert_false(history_has(tui_harness_tui(h), "Remembered state ignored"));
	tui_harness_free(&h);

	/* another exchange has its own */
	{
		static struct api_config cfg = { .url = "http://127.0.0.1:9", .max_attempts = 1 };
		struct tui_options o = { .catalog = cat, .lang = I18N_EN, .config_path = conf, .api = &cfg };
		h = tui_harness_new(&o, 30, 120);
		assert_int_equal(browse_of(h)->cur, 0);
		assert_int_equal(browse_of(h)->n_watch, 0);
		tui_harness_free(&h);
	}
	free(watched);
	free(path);
	unlink(conf);
}

/* * pins the GPU on top of every tab, whatever the sort; again unpins. */
static void test_watchlist(void **state)
{
	struct tui_harness *h = open_plain(NULL, 30, 120);
	const char *last;

	(void)state;
	tui_harness_key(h, WKEY_END);
	last = cursor_gpu(h);
	char *id = xstrdup(last);
	tui_harness_key(h, '*');
	assert_string_equal(view_shown_row(cur_view(h), 0)->gpu->id, id);
	assert_string_equal(cursor_gpu(h), id);   /* the cursor went with it */
	fx_expect_on_screen(h, "\u2605");
	fx_expect_on_screen(h, "is on the watchlist");
	command(h, "sort memory");
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(view_shown_row(cur_view(h), 0)->gpu->id, id);
	for (wkey k = '2'; k <= '6'; k++) {
		tui_harness_key(h, k);
		if (view_find(cur_view(h), id) >= 0)
			assert_string_equal(view_shown_row(cur_view(h), 0)->gpu->id, id);
	}
	tui_harness_key(h, '1');
	tui_harness_key(h, WKEY_HOME);
	tui_harness_key(h, '*');
	fx_expect_on_screen(h, "is off the watchlist");
	assert_int_equal(browse_of(h)->n_watch, 0);
	fx_expect_not_on_screen(h, "\u2605");
	free(id);
	tui_harness_free(&h);
}

/* ---- export and copy --------------------------------------------------------------------------- */

/* The file a command wrote (malloc'ed). */
static char *slurp(const char *path)
{
	char *data = NULL;
	size_t n;

	if (util_read_file(path, &data, &n, NULL) != 0)
		return NULL;
	return data;
}

/* What `gpux table ARGS` prints on stdout (malloc'ed). */
static char *gpux_out(const char *args)
{
	char cmd[1024];
	FILE *f;
	struct buf b = {0};
	char chunk[512];
	size_t n;

	snprintf(cmd, sizeof cmd, "HOME='%s' XDG_CONFIG_HOME='%s' %s/gpux %s 2>/dev/null", fx_tmpdir,
		 fx_tmpdir, fx_build_dir(), args);
	f = popen(cmd, "r");
	assert_non_null(f);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_append(&b, chunk, n);
	pclose(f);
	return b.data != NULL ? buf_take(&b) : xstrdup("");
}

/* :export writes the tab as shown — its columns (the saved ones), sort and
 * filter — exactly as gpux table --saved-columns prints it; errors in words. */
static void test_export(void **state)
{
	struct tui_harness *h;
	char line[700], file[600], *tui, *cli, *row;

	(void)state;
	write_conf("columns.training = memory,bandwidth,spark_24h,price\n");
	h = open_plain(conf, 30, 120);
	command(h, "sort memory desc");
	tui_harness_key(h, WKEY_RETURN);
	command(h, "filter mem>=141");
	tui_harness_key(h, WKEY_RETURN);
	/* e: the command line, the export written in */
	tui_harness_key(h, 'e');
	assert_string_equal(tui_harness_top(h), "command");
	row = last_row(h, 30);
	assert_non_null(strstr(row, ":export csv gpux-training.csv"));
	free(row);
	tui_harness_key(h, WKEY_ESC);
	snprintf(file, sizeof file, "%s/training.csv", fx_tmpdir);
	snprintf(line, sizeof line, "export csv %s", file);
	command(h, line);
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Exported ");
	tui = slurp(file);
	assert_non_null(tui);
	/* the TUI's market column (the sparkline) is not gpux table's: its
	 * export has one column more; the rest is the same, line by line, down
	 * to the columns given again under names with their unit */
	cli = gpux_out("table training --saved-columns --sort memory:desc --filter 'mem>=141' "
		       "--format csv --api http://127.0.0.1:9");
	assert_non_null(strstr(tui, "gpu,name,arch,memory,bandwidth,spark_24h,price,memory_gb,"
				    "price_cents\n"));
	assert_non_null(strstr(cli, "gpu,name,arch,memory,bandwidth,price,memory_gb,price_cents\n"));
	{
		char *a = tui, *c = cli;
		size_t lines = 0;
		while (*a != '\0' && *c != '\0') {
			char *ae = strchr(a, '\n'), *ce = strchr(c, '\n');
			assert_non_null(ae);
			assert_non_null(ce);
			/* drop the sparkline's field (the 6th) from the TUI's line */
			char *tl = xstrndup(a, (size_t)(ae - a)), *cl = xstrndup(c, (size_t)(ce - c));
			char *f = tl;
			for (int k = 0; k < 5; k++)
				f = strchr(f, ',') + 1;
			memmove(f, strchr(f, ',') + 1, strlen(strchr(f, ',') + 1) + 1);
			assert_string_equal(tl, cl);
			free(tl);
			free(cl);
			a = ae + 1;
			c = ce + 1;
			lines++;
		}
		assert_true(*a == '\0' && *c == '\0');
		assert_int_equal(lines, 1 + cur_view(h)->n_shown);
		assert_true(cur_view(h)->n_shown > 1);
	}
	free(tui);
	free(cli);
	/* JSON */
	snprintf(file, sizeof file, "%s/training.json", fx_tmpdir);
	snprintf(line, sizeof line, "export json %s", file);
	command(h, line);
	tui_harness_key(h, WKEY_RETURN);
	tui = slurp(file);
	assert_non_null(tui);
	assert_non_null(strstr(tui, "[\n  {\"gpu\": \"b300\", \"name\": \"B300\""));
	free(tui);
	/* what cannot be done */
	command(h, "export xml");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Export as csv or json");
	command(h, "export csv /nonexistent/dir/t.csv");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Not exported: /nonexistent/dir/t.csv: No such file or directory");
	tui_harness_free(&h);
	unlink(conf);
}

/* gpux table --columns: those, in that order, the GPU first (then those
 * of them whose names say no unit again under ones that do); a wrong id
 * is a usage error naming the columns. */
static void test_table_columns(void **state)
{
	char *out;

	(void)state;
	out = gpux_out("table hpc --columns fp64,memory --format csv --api http://127.0.0.1:9");
	assert_true(strncmp(out, "gpu,name,arch,fp64,memory,memory_gb\n", 36) == 0);
	free(out);
	out = gpux_out("table hpc --columns fp46 --api http://127.0.0.1:9 2>&1; echo rc=$?");
	assert_non_null(strstr(out, "rc=2"));
	free(out);
}

/* y copies a cell (t->clip: what went out as OSC 52); where the terminal
 * takes no OSC 52 the status bar says so. */
static void test_copy_cell(void **state)
{
	struct tui_harness *h = open_plain(NULL, 30, 120);
	struct tui *t = tui_harness_tui(h);
	struct tui_options o = { .catalog = cat, .lang = I18N_EN, .config_path = "" };

	(void)state;
	tui_harness_key(h, 'y');
	assert_string_equal(t->clip, view_shown_row(cur_view(h), 0)->gpu->name);
	fx_expect_on_screen(h, "Copied the GPU's name to the clipboard");
	command(h, "copy memory");
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(t->clip, view_shown_row(cur_view(h), 0)->cells[view_column_index(cur_view(h), "memory")].display);
	tui_harness_free(&h);
	setenv("TERM", "linux", 1);
	h = tui_harness_new_term(&o, 30, 120, "linux");
	tui_harness_key(h, 'y');
	fx_expect_on_screen(h, "TERM=linux takes no OSC 52 copy; the GPU's name: B300");
	assert_null(tui_harness_tui(h)->clip);
	tui_harness_free(&h);
	setenv("TERM", "xterm-256color", 1);
}

static struct tui_harness *open_exchange(int lines, int cols)
{
	static struct api_config cfg;
	struct tui_options o = { .catalog = cat, .lang = I18N_EN, .config_path = "" };
	struct tui_harness *h;

	memset(&cfg, 0, sizeof cfg);
	cfg.url = gpuxd_url;
	cfg.key = buyer_key;
	cfg.max_attempts = 1;
	o.api = &cfg;
	h = tui_harness_new(&o, lines, cols);
	assert_non_null(h);
	return h;
}

/* y on the orders page copies the order's id; on the account page the API
 * key just made — never written into a message. */
static void test_copy_order_and_key(void **state)
{
	struct tui_harness *h;
	struct tui *t;
	char *r = fx_post(gpuxd_url, "/v1/orders", buyer_key,
			  "{\"client_order_id\":\"tools-1\",\"side\":\"buy\",\"type\":\"limit\","
			  "\"gpu\":\"h200\",\"gpus\":1,\"hours\":1,\"price_cents\":100,"
			  "\"time_in_force\":\"gtc\"}");
	long long id = fx_json_int(r, "id");
	char want[32];

	(void)state;
	free(r);
	assert_true(id > 0);
	snprintf(want, sizeof want, "%lld", id);
	h = open_exchange(30, 120);
	t = tui_harness_tui(h);
	fx_expect_on_screen(h, "prices updated");
	tui_harness_key(h, 'o');
	fx_settle(h);
	fx_expect_on_screen(h, "H200");
	tui_harness_key(h, 'y');
	assert_non_null(t->clip);
	assert_string_equal(t->clip, want);
	fx_expect_on_screen(h, "Copied the id of order");
	/* a new read-only key */
	tui_harness_key(h, 'a');
	fx_settle(h);
	tui_harness_key(h, 'n');
	tui_harness_type(h, "copied");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "y copies it");
	tui_harness_key(h, 'y');
	fx_expect_on_screen(h, "Copied the new API key to the clipboard");
	assert_non_null(t->clip);
	assert_true(strlen(t->clip) > 16);
	assert_non_null(strstr(tui_harness_screen(h), t->clip) ? "on screen" : NULL);
	for (size_t i = 0; i < t->n_msgs; i++)
		assert_null(strstr(tui_messages_at(t, i)->text, t->clip));
	tui_harness_free(&h);
}

/* ---- compare ----------------------------------------------------------------------------------- */

/* With a training job, compare says each GPU's run time and run cost and
 * selects the cheapest run; b orders exactly what the job needs there. */
static void test_compare_runs(void **state)
{
	struct tui_harness *h = open_exchange(40, 140);
	struct tui *t = tui_harness_tui(h);
	char *row;

	(void)state;
	fx_expect_on_screen(h, "prices updated");
	command(h, "h200");
	tui_harness_key(h, WKEY_RETURN);
	tui_harness_key(h, ' ');
	command(h, "a100-sxm");
	tui_harness_key(h, WKEY_RETURN);
	tui_harness_key(h, ' ');
	tui_harness_key(h, 'f');
	tui_harness_type(h, "7");
	tui_harness_key(h, WKEY_ESC);
	fx_settle(h);
	assert_true(t->job.have);
	/* the cheaper run of the two, by the tables' own figures */
	const struct view_table *v = cur_view(h);
	const struct fit_result *a = &view_shown_row(v, (size_t)view_find(v, "h200"))->job;
	const struct fit_result *b = &view_shown_row(v, (size_t)view_find(v, "a100-sxm"))->job;
	assert_true(a->run_cents > 0 && b->run_cents > 0);
	const char *cheaper = a->run_cents <= b->run_cents ? "H200" : "A100 SXM";
	int gpus = a->run_cents <= b->run_cents ? a->gpus_run : b->gpus_run;
	tui_harness_key(h, '=');
	assert_string_equal(tui_harness_top(h), "compare");
	fx_expect_on_screen(h, "Run time");
	fx_expect_on_screen(h, "Run cost");
	char *money = i18n_fmt_money(I18N_EN, a->run_cents < b->run_cents ? a->run_cents : b->run_cents,
				     "USD");
	char *want = xasprintf("%s <", money);
	fx_expect_on_screen(h, want);
	free(want);
	free(money);
	tui_harness_key(h, 'b');
	assert_string_equal(tui_harness_top(h), "order-form");
	fx_expect_on_screen(h, cheaper);
	row = xasprintf("%d", gpus);
	fx_expect_on_screen(h, row);
	free(row);
	tui_harness_key(h, WKEY_ESC);
	assert_string_equal(tui_harness_top(h), "compare");
	tui_harness_key(h, WKEY_RIGHT);
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(tui_harness_top(h), "detail");
	tui_harness_free(&h);
}

/* ---- unknown keys, the help, the history -------------------------------------------------------- */

static void test_unknown_key_says_so(void **state)
{
	struct tui_harness *h = open_plain(NULL, 30, 120);

	(void)state;
	fx_expect_not_on_screen(h, "does nothing here");
	tui_harness_key(h, 'Z');
	fx_expect_on_screen(h, "Z does nothing here: ? lists the keys");
	tui_harness_key(h, WKEY_F9);
	fx_expect_on_screen(h, "F9 does nothing here");
	tui_harness_free(&h);
}

/* The help lists the command line and the actions of the line only
 * (":sort COLUMN"); the message history keeps what the status bar said. */
static void test_help_and_history(void **state)
{
	struct tui_harness *h = open_plain(NULL, 40, 120);
	struct tui *t = tui_harness_tui(h);

	(void)state;
	tui_harness_key(h, '?');
	expect_in_help(h, "Command line: run any action by its name");
	expect_in_help(h, ":sort COLUMN");
	tui_harness_key(h, 'x'); /* closes the help */
	tui_harness_key(h, 'Z');
	command(h, "frobnicate");
	tui_harness_key(h, WKEY_RETURN);
	tui_harness_key(h, 'Z');
	assert_int_equal(t->n_msgs, 3);
	tui_harness_key(h, 'Z'); /* the same again right after: counted */
	assert_int_equal(t->n_msgs, 3);
	assert_int_equal(tui_messages_at(t, 2)->repeats, 2);
	tui_harness_key(h, 'M');
	fx_expect_on_screen(h, "Messages");
	fx_expect_on_screen(h, "\u201cfrobnicate\u201d");
	fx_expect_on_screen(h, "(\u00d72)");
	tui_harness_key(h, 'q');
	assert_string_equal(tui_harness_top(h), "browse");
	tui_harness_free(&h);
}

/* Alerts (and any part of the TUI) keep their messages through one
 * function; the ring keeps the newest TUI_HISTORY_MAX. */
static void test_history_ring(void **state)
{
	struct tui_harness *h = open_plain(NULL, 30, 100);
	struct tui *t = tui_harness_tui(h);
	char m[64];

	(void)state;
	for (int i = 0; i < TUI_HISTORY_MAX + 5; i++) {
		snprintf(m, sizeof m, "alert %d", i);
		tui_messages_add(t, TUI_MSG_ALERT, m);
	}
	assert_int_equal(t->n_msgs, TUI_HISTORY_MAX);
	assert_string_equal(tui_messages_at(t, 0)->text, "alert 5");
	assert_int_equal(tui_messages_at(t, TUI_HISTORY_MAX - 1)->kind, TUI_MSG_ALERT);
	tui_harness_frame(h);
	fx_expect_on_screen(h, "alert 204");
	tui_harness_free(&h);
}

/* ---- rebinding and themes from the config file -------------------------------------------------- */

static void test_rebinding(void **state)
{
	struct tui_harness *h;
	struct tui *t;
	bool said = false;

	(void)state;
	write_conf("# mine\n"
		   "bind.sort-next = x F9\n"
		   "bind.mark = m\n"
		   "bind.columns = none\n"
		   "bind.nosuch = q\n"
		   "bind.detail = Ctrl-\u00c4\n");
	h = open_plain(conf, 40, 120);
	t = tui_harness_tui(h);
	/* what the file gets wrong is said, once each */
	for (size_t i = 0; i < t->n_msgs; i++)
		said |= strstr(tui_messages_at(t, i)->text, "bind.nosuch: gpux has no action") != NULL;
	assert_true(said);
	said = false;
	for (size_t i = 0; i < t->n_msgs; i++)
		said |= strstr(tui_messages_at(t, i)->text, "bind.detail: \u201cCtrl-\u00c4\u201d is not a key") != NULL;
	assert_true(said);
	tui_harness_key(h, 'x');
	assert_true(cur_view(h)->sort_col >= 0);
	/* the old keys are gone: > says so; m marks */
	tui_harness_key(h, '>');
	fx_expect_on_screen(h, "> does nothing here");
	tui_harness_key(h, 'm');
	assert_int_equal(browse_of(h)->n_marks, 1);
	/* c no longer opens the chooser; :columns still does */
	tui_harness_key(h, 'c');
	assert_string_equal(tui_harness_top(h), "browse");
	command(h, "columns");
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(tui_harness_top(h), "overlay");
	tui_harness_key(h, WKEY_ESC);
	/* the F-key bar has the sort's word on its new F-key, F6 is free */
	fx_expect_on_screen(h, "F9");
	{
		char *bar = tui_harness_row(h, 39);
		assert_non_null(strstr(bar, "Sort"));
		assert_null(strstr(bar, "F6"));
		free(bar);
	}
	/* the help lists the keys as bound */
	tui_harness_key(h, '?');
	expect_in_help(h, "x F9");
	expect_in_help(h, ":columns");
	tui_harness_free(&h);
	unlink(conf);
}

/* Hints name the keys as bound: with bind.buy = B, bind.watch = w and
 * bind.fit = none, the texts that name those keys say B, w and the command
 * line's :fit, never b, * or f. */
static void test_hints_name_bound_keys(void **state)
{
	struct tui_harness *h;

	(void)state;
	write_conf("bind.buy = B\n"
		   "bind.watch = w\n"
		   "bind.fit = none\n");
	h = open_plain(conf, 40, 120);
	/* the registry's labels */
	{
		struct tui *t = tui_harness_tui(h);
		char *b = tui_key_label(t, "buy"), *f = tui_key_label(t, "fit");
		char *c = tui_key_label(t, "columns");
		assert_string_equal(b, "B");
		assert_string_equal(f, ":fit");
		assert_string_equal(c, "c");  /* not rebound: its default */
		free(b);
		free(f);
		free(c);
	}
	/* the watchlist's status text: w unpins */
	tui_harness_key(h, 'w');
	fx_expect_on_screen(h, "on top of every tab (w unpins)");
	fx_expect_not_on_screen(h, "(* unpins)");
	tui_harness_key(h, 'w');
	/* $ without a job: the fit calculator has no key, the command line's form */
	tui_harness_key(h, '$');
	fx_expect_on_screen(h, "needs a job: press :fit and type a model");
	fx_expect_not_on_screen(h, "press f and");
	/* the fit panel, opened by its name: what B orders */
	command(h, "fit");
	tui_harness_key(h, WKEY_RETURN);
	tui_harness_type(h, "70");
	tui_harness_key(h, WKEY_ESC);
	assert_true(tui_harness_tui(h)->job.have);
	fx_expect_on_screen(h, "B: buy");
	fx_expect_not_on_screen(h, "b: buy");
	fx_expect_on_screen(h, "J: the cheapest GPU");
	/* the panel's legend (the panel unfocused): the keys as bound */
	fx_expect_on_screen(h, "Fit calculator \u00b7 :fit edit, F4 hide");
	tui_harness_free(&h);
	unlink(conf);
}

static void test_themes(void **state)
{
	struct tui_options o = { .catalog = cat, .lang = I18N_EN, .config_path = conf };
	struct tui_harness *h;
	struct tui *t;
	char *c;

	(void)state;
	write_conf("theme = light\n");
	h = tui_harness_new_term(&o, 30, 100, "xterm-256color");
	t = tui_harness_tui(h);
	assert_ptr_equal(t->ui.theme, &wtheme_light);
	command(h, "theme contrast");
	tui_harness_key(h, WKEY_RETURN);
	assert_ptr_equal(t->ui.theme, &wtheme_contrast);
	fx_expect_on_screen(h, "Theme: contrast (remembered for the next start)");
	c = read_conf();
	assert_non_null(strstr(c, "theme = contrast"));
	free(c);
	command(h, "theme mono");
	tui_harness_key(h, WKEY_RETURN);
	assert_ptr_equal(t->ui.theme, &wtheme_mono);
	command(h, "theme sepia");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "No theme \u201csepia\u201d");
	assert_ptr_equal(t->ui.theme, &wtheme_mono);
	tui_harness_free(&h);
	/* NO_COLOR: a colour theme stays remembered, mono is used */
	write_conf("theme = light\n");
	setenv("NO_COLOR", "1", 1);
	h = tui_harness_new_term(&o, 30, 100, "xterm-256color");
	assert_ptr_equal(tui_harness_tui(h)->ui.theme, &wtheme_mono);
	tui_harness_free(&h);
	unsetenv("NO_COLOR");
	unlink(conf);
}

/* Every screen's keys are actions of the registry, with names: the detail's
 * (n: the ladder by node size), the job order's, the order form's. A
 * bind.NAME line moves them there too, and the command line runs them. */
static void test_every_screen_rebinds(void **state)
{
	struct tui_harness *h;

	(void)state;
	write_conf("bind.nodes = m\n"
		   "bind.job-order = F12\n"
		   "bind.next-field = Ctrl-N\n");
	h = open_plain(conf, 40, 120);
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(tui_harness_top(h), "detail");
	/* n no longer toggles the ladder by node size: m does */
	tui_harness_key(h, 'n');
	fx_expect_on_screen(h, "n does nothing here");
	tui_harness_key(h, 'm');
	fx_expect_on_screen(h, "Book: nodes of 8 GPUs");
	/* the command line runs the detail's actions by name */
	command(h, "nodes");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Book: nodes of 4 GPUs");
	command(h, "back");
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(tui_harness_top(h), "browse");
	/* the job order: J is free now, F12 and :job-order ask for it (here
	 * without a fit job: the status bar says to set one) */
	tui_harness_key(h, 'J');
	fx_expect_on_screen(h, "J does nothing here");
	tui_harness_key(h, WKEY_F12);
	fx_expect_on_screen(h, "Set a fit job first");
	tui_harness_key(h, 'J');
	fx_expect_on_screen(h, "J does nothing here");
	command(h, "job-order");
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, "Set a fit job first");
	/* the order form: Ctrl-N goes to the next field, Tab no longer does */
	tui_harness_key(h, 'b');
	assert_string_equal(tui_harness_top(h), "order-form");
	fx_expect_on_screen(h, "How many GPUs, 1 to 512.");
	/* the bar's word follows the action to its new key */
	fx_expect_on_screen(h, "Ctrl-NNext field");
	tui_harness_key(h, WKEY_TAB);
	fx_expect_on_screen(h, "How many GPUs, 1 to 512.");
	tui_harness_key(h, 'N' - '@');
	fx_expect_on_screen(h, "Rented for exactly these hours");
	tui_harness_free(&h);
	unlink(conf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command_runs_actions),
		cmocka_unit_test(test_command_completes),
		cmocka_unit_test(test_command_errors_in_words),
		cmocka_unit_test(test_filter_expressions),
		cmocka_unit_test(test_search_jumps),
		cmocka_unit_test(test_state_remembered),
		cmocka_unit_test(test_watchlist),
		cmocka_unit_test(test_export),
		cmocka_unit_test(test_table_columns),
		cmocka_unit_test(test_copy_cell),
		cmocka_unit_test(test_copy_order_and_key),
		cmocka_unit_test(test_compare_runs),
		cmocka_unit_test(test_unknown_key_says_so),
		cmocka_unit_test(test_help_and_history),
		cmocka_unit_test(test_history_ring),
		cmocka_unit_test(test_rebinding),
		cmocka_unit_test(test_every_screen_rebinds),
		cmocka_unit_test(test_themes),
		cmocka_unit_test(test_hints_name_bound_keys),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
