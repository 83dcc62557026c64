/*
 * Lots in the TUI, through the screen harness (tui/frame/harness.h) against
 * a real gpuxd --demo on loopback (its clock slowed so the drift does not
 * move the books), at 80×24 and 120×35, in English and in pt-PT:
 *
 *   - a 405B FP8 inference job typed into the fit panel shows "1 node of 8
 *     (NVLink)" on H100 SXM, and the table's Job/h there is 8 × the quote of
 *     a node of 8 (read from the exchange, not from gpux's screen);
 *   - Enter opens the detail; n shows the ladder by node size and the
 *     machines the cheapest units come from;
 *   - b opens the order form with what runs the job: 8 GPUs in nodes of 8
 *     on NVLink, fill or kill; placed, the exchange's order requires units
 *     of 8 and its rental is one machine with all 8 GPUs — and the rentals
 *     page shows that machine and its region;
 *   - J (the job order) shows every GPU the exchange compared and places the
 *     cheapest runnable one, as the exchange's own preview of the same job
 *     (asked by the test) names it.
 * A server that cannot be started fails the tests.
 */
#include "tests/unit/screen_fixture.h"

#include <cjson/cJSON.h>

#include "api/api.h"
#include "data/catalog.h"
#include "fit/fit.h"
#include "i18n/i18n.h"
#include "tui/frame/harness.h"
#include "tui/tui_int.h"
#include "util/util.h"

static struct catalog *cat;
static pid_t gpuxd_pid = -1;
static char gpuxd_url[64];

/* A seller's 8 H100 SXM as 8 single-GPU machines at US$2.85 (above the best bid), below the
 * demo's nodes of 8 at US$2.88: the best single GPU is then cheaper than
 * the best node, and a job that needs a node of 8 must be priced from the
 * node, not from 8 of the singles. */
static int cheap_single_gpus(void)
{
	char *key = fx_first_account(gpuxd_url, "singles@example.pt", "seller", 0), *r;
	int rc;

	if (key == NULL)
		return -1;
	r = fx_post(gpuxd_url, "/v1/orders", key,
		    "{\"client_order_id\":\"singles\",\"gpu\":\"h100-sxm\",\"side\":\"sell\","
		    "\"type\":\"limit\",\"gpus\":8,\"hours\":720,\"price_cents\":285,\"node_gpus\":1}");
	rc = strstr(r, "\"status\":\"open\"") != NULL ? 0 : -1;
	if (rc != 0)
		print_error("the cheap single GPUs were not posted: %s\n", r);
	free(r);
	free(key);
	return rc;
}

static int setup_all(void **state)
{
	(void)state;
	if (fx_demo_start("lotscreens", &cat, &gpuxd_pid, gpuxd_url, sizeof gpuxd_url) != 0)
		return -1;
	return cheap_single_gpus();
}

static int teardown_all(void **state)
{
	(void)state;
	fx_demo_stop(&cat, &gpuxd_pid);
	return 0;
}

static struct tui_harness *open_as(const char *key, enum i18n_lang lang, int lines, int cols)
{
	struct tui_harness *h = fx_session(cat, gpuxd_url, key, lang, false, lines, cols);

	fx_expect_on_screen(h, "H200");
	fx_settle(h); /* the market and the account came */
	return h;
}

static void close_session(struct tui_harness **h)
{
	tui_harness_free(h);
	i18n_init(I18N_EN);
}

/* A buyer with a million euros: its key. */
static char *buyer(const char *email)
{
	char *key = fx_first_account(gpuxd_url, email, "buyer", 100000000);

	if (key == NULL)
		fail_msg("no account from gpuxd at %s", gpuxd_url);
	return key;
}

static void fail_screen(struct tui_harness *h, const char *what)
{
	char *s = tui_harness_screen(h);

	print_error("%s\n%s", what, s);
	free(s);
	fail();
}

/* The first row showing text (malloc'ed); fails with the screen if none. */
static char *row_with(struct tui_harness *h, const char *text)
{
	int y = tui_harness_find(h, text);

	if (y < 0)
		fail_screen(h, text);
	return tui_harness_row(h, y);
}

/* Some row shows every one of the words. */
static bool row_shows(struct tui_harness *h, const char *a, const char *b)
{
	char *s = tui_harness_screen(h), *line, *save = NULL;
	bool found = false;

	for (line = strtok_r(s, "\n", &save); line != NULL && !found; line = strtok_r(NULL, "\n", &save))
		found = strstr(line, a) != NULL && (b == NULL || strstr(line, b) != NULL);
	free(s);
	return found;
}

/* The fit panel: Llama 3.1 405B at FP8, then back to the table. */
static void fit_405b_fp8(struct tui_harness *h)
{
	struct tui *t = tui_harness_tui(h);

	tui_harness_key(h, 'f');
	tui_harness_type(h, "llama-3.1-405b");
	tui_harness_key(h, WKEY_TAB); /* takes the preset, goes to the method */
	for (int i = 0; i < FIT_METHOD_COUNT && !(t->job.have && t->job.job.method == FIT_INFER_FP8); i++)
		tui_harness_key(h, WKEY_RIGHT);
	assert_true(t->job.have);
	assert_int_equal(t->job.job.method, FIT_INFER_FP8);
	assert_true(t->job.job.model.params_b > 400);
	tui_harness_key(h, WKEY_ESC);
}

/* The table filtered to one GPU, its row under the cursor. */
static void only(struct tui_harness *h, const char *filter)
{
	tui_harness_key(h, '/');
	tui_harness_type(h, filter);
	tui_harness_key(h, WKEY_RETURN);
}

/* A GET of the exchange's, as JSON (freed by the caller). */
static cJSON *get_json(const char *path, const char *key)
{
	char *body = fx_get(gpuxd_url, path, key != NULL ? key : "none");
	cJSON *j = cJSON_Parse(body);

	free(body);
	assert_non_null(j);
	return j;
}

/* The exchange's best price of a whole node of 8 of gpu, -1 none. */
static int64_t node8_quote(const char *gpu)
{
	cJSON *j = get_json("/v1/quotes", NULL), *q;
	int64_t v = -1;

	cJSON_ArrayForEach(q, cJSON_GetObjectItem(j, "quotes"))
		if (strcmp(cJSON_GetObjectItem(q, "gpu")->valuestring, gpu) == 0 &&
		    cJSON_IsNumber(cJSON_GetObjectItem(q, "best_ask_n8_cents")))
			v = (int64_t)cJSON_GetObjectItem(q, "best_ask_n8_cents")->valuedouble;
	cJSON_Delete(j);
	return v;
}

/* ---- the fit → the table → the detail → b → the rental ----------------------------------- */

static void fit_to_rental(enum i18n_lang lang, int lines, int cols, const char *email)
{
	char *key = buyer(email);
	struct tui_harness *h = open_as(key, lang, lines, cols);
	int64_t n8;
	char *cost, *unit, *row, *shape;
	cJSON *r, *first, *nodes;

	fit_405b_fp8(h);
	only(h, "h100 sxm");
	/* the machines the job needs here, and their price: 8 × a node of 8 */
	shape = xasprintf(P_("%d node of %d (%s)", "%d nodes of %d (%s)", 1), 1, 8, _("NVLink"));
	fx_expect_on_screen(h, shape);
	n8 = node8_quote("h100-sxm");
	assert_true(n8 > 285); /* the singles at US$2.85 are cheaper than any node */
	/* the table's price is the node's (pinned at the right), the fit panel's
	 * cost 8 × it; never 8 × the single GPUs' US$2.85 */
	unit = i18n_fmt_money(lang, n8, "USD");
	row = row_with(h, "H100 SXM");
	if (strstr(row, unit) == NULL)
		fail_screen(h, unit);
	free(row);
	cost = i18n_fmt_money(lang, 8 * n8, "USD");
	fx_expect_on_screen(h, cost);
	{
		char *singles = i18n_fmt_money(lang, 8 * 285, "USD");
		fx_expect_not_on_screen(h, singles);
		free(singles);
	}
	free(unit);
	free(cost);
	/* the detail: n, the ladder by node size and (wide) its machines */
	tui_harness_key(h, WKEY_RETURN);
	assert_string_equal(tui_harness_top(h), "detail");
	tui_harness_key(h, 'n');
	{
		char *title = xasprintf(_("Book: nodes of %1$d GPUs (%2$s: next)"), 8, "n");
		char *head = xasprintf("%.*s", 12, title); /* its start: the column may cut it */
		fx_expect_on_screen(h, head);
		free(title);
		free(head);
	}
	if (cols >= 120) {
		char *m = xasprintf(_("Machines: the cheapest units of %d GPUs"), 8);
		fx_expect_on_screen(h, m);
		free(m);
		/* a lot: its machine, region and link on one line, when the preview came */
		for (int i = 0; i < 160 && !row_shows(h, "eu-", _("NVLink")); i++)
			tui_harness_pump(h, 50);
		if (!row_shows(h, "eu-", _("NVLink")) || !row_shows(h, " o", "eu-"))
			fail_screen(h, "a lot with its machine, region and link");
	}
	/* b: what runs the job, whole machines or nothing */
	tui_harness_key(h, 'b');
	assert_string_equal(tui_harness_top(h), "order-form");
	{
		char *eight = xasprintf(P_("%d GPU", "%d GPUs", 8), 8);
		if (!row_shows(h, _("In nodes of"), eight))
			fail_screen(h, eight);
		free(eight);
	}
	if (!row_shows(h, _("Interconnect"), _("NVLink")) || !row_shows(h, _("In force"), "FOK"))
		fail_screen(h, "NVLink, FOK");
	fx_settle(h);
	fx_expect_on_screen(h, _("Machines"));
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, _("Place this order?"));
	tui_harness_key(h, 'y');
	fx_expect_on_screen(h, _("Order placed"));
	/* the exchange: a buy in units of 8, one rental of one whole machine */
	r = get_json("/v1/rentals?status=active", key);
	first = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "rentals"), 0);
	assert_non_null(first);
	assert_int_equal((int)cJSON_GetObjectItem(first, "gpus")->valuedouble, 8);
	nodes = cJSON_GetObjectItem(first, "nodes");
	assert_int_equal(cJSON_GetArraySize(nodes), 1);
	assert_int_equal((int)cJSON_GetObjectItem(cJSON_GetArrayItem(nodes, 0), "gpus")->valuedouble, 8);
	{
		char *node = xstrdup(cJSON_GetObjectItem(cJSON_GetArrayItem(nodes, 0), "node")->valuestring);
		char *region = xstrdup(cJSON_GetObjectItem(first, "region")->valuestring);
		cJSON_Delete(r);
		/* R: the rentals page shows its machine and region */
		tui_harness_key(h, 'R');
		fx_expect_on_screen(h, node);
		if (!row_shows(h, node, region))
			fail_screen(h, "the rental's machine and region on one row");
		free(node);
		free(region);
	}
	free(shape);
	close_session(&h);
	free(key);
}

static void test_fit_to_rental_en_80x24(void **state)
{
	(void)state;
	fit_to_rental(I18N_EN, 24, 80, "lots-en-80@example.pt");
}

static void test_fit_to_rental_pt_120x35(void **state)
{
	(void)state;
	fit_to_rental(I18N_PT_PT, 35, 120, "lots-pt-120@example.pt");
}

/* ---- J: the job order -------------------------------------------------------------------------- */

/* The exchange's own answer to the job order of job (a preview, asked by
 * the test as a script would): the GPU it would choose. */
static char *exchange_choice(const char *key, const struct fit_job *job)
{
	struct api_config c = { .url = gpuxd_url, .key = key };
	struct api_client *cl = api_client_new(&c, NULL);
	struct api_job_req r = { .job = job, .hours = 1, .max_total_minor = 100000000000LL };
	struct api_job *j = NULL;
	struct api_error *e = NULL;
	char *gpu = NULL, *cheapest = NULL;
	int64_t best = -1;

	assert_non_null(cl);
	if (api_job_preview(cl, &r, &j, &e) != 0)
		fail_msg("the exchange's preview of the job: %s", e->message);
	for (size_t i = 0; i < j->n_alternatives; i++) {
		const struct api_job_alt *a = &j->alternatives[i];
		if (a->runnable && (best < 0 || a->total_minor < best)) {
			best = a->total_minor;
			cheapest = a->gpu;
		}
	}
	assert_non_null(j->gpu);
	assert_string_equal(j->gpu, cheapest); /* its choice is the cheapest runnable */
	gpu = xstrdup(j->gpu);
	api_job_free(&j);
	api_client_free(&cl);
	return gpu;
}

static void job_order(enum i18n_lang lang, int lines, int cols, const char *email)
{
	char *key = buyer(email);
	struct tui_harness *h = open_as(key, lang, lines, cols);
	struct tui *t = tui_harness_tui(h);
	struct fit_job job;
	char *want, *name, *arrow_row;
	cJSON *o, *first;

	fit_405b_fp8(h);
	job = t->job.job;
	tui_harness_key(h, 'J');
	fx_expect_on_screen(h, _("Job order: run this fit job at the lowest total across every GPU"));
	fx_settle(h);
	want = exchange_choice(key, &job);
	name = xstrdup(catalog_gpu(cat, want)->name);
	/* the chosen row, first, marked */
	arrow_row = row_with(h, t->ascii ? "->" : "\u2192 ");
	if (strstr(arrow_row, name) == NULL)
		fail_screen(h, name);
	free(arrow_row);
	tui_harness_key(h, WKEY_RETURN);
	fx_expect_on_screen(h, _("Place this job order?"));
	tui_harness_key(h, 'y');
	fx_expect_on_screen(h, _("Job order placed"));
	/* the exchange placed the cheapest runnable GPU's units, FOK, all filled */
	o = get_json("/v1/orders?status=all", key);
	first = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "orders"), 0);
	assert_non_null(first);
	assert_string_equal(cJSON_GetObjectItem(first, "gpu")->valuestring, want);
	assert_string_equal(cJSON_GetObjectItem(first, "time_in_force")->valuestring, "fok");
	assert_string_equal(cJSON_GetObjectItem(first, "status")->valuestring, "filled");
	cJSON_Delete(o);
	free(want);
	free(name);
	close_session(&h);
	free(key);
}

static void test_job_order_pt_80x24(void **state)
{
	(void)state;
	job_order(I18N_PT_PT, 24, 80, "job-pt-80@example.pt");
}

static void test_job_order_en_120x35(void **state)
{
	(void)state;
	job_order(I18N_EN, 35, 120, "job-en-120@example.pt");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_to_rental_en_80x24),
		cmocka_unit_test(test_fit_to_rental_pt_120x35),
		cmocka_unit_test(test_job_order_pt_80x24),
		cmocka_unit_test(test_job_order_en_120x35),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
