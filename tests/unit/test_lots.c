/*
 * Lots on the client side, pure: the strict decoders of what an exchange
 * with lots says (quotes of nodes of 8, ladders by node size, a sell's lot
 * and its machines, a buy's requirements, a rental's machines, a preview's
 * fills and their lots, job orders and their alternatives, the regions),
 * each held to the contract in docs/API.md and refused when a figure does
 * not add up; and the tables' prices with a fit job, which must equal what
 * a buyer would compute by hand from the per-node quotes: the job's node
 * shape (fit/) says units of G GPUs × N machines; a node of 8 is bought at
 * best_ask_n8_cents when ask_n8_units holds N of them, a single GPU at
 * best_ask_cents; otherwise the ladder by node size, level by level.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "data/catalog.h"
#include "tests/unit/catalog_fixture.h"
#include "fit/fit.h"
#include "i18n/i18n.h"
#include "util/util.h"
#include "view/view.h"

static struct catalog *cat;

static int setup_all(void **state)
{
	(void)state;
	if (fx_catalog_load(&cat) != 0)
		return -1;
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	catalog_free(&cat);
	return 0;
}

/* Decode text as reply name: 0 (and *out) or -1 (and the cause printed when
 * want_ok). */
static int decode(const char *name, long status, const char *text, void **out, char **cause)
{
	*cause = NULL;
	return api_decode(name, status, text, strlen(text), out, cause);
}

static void *ok(const char *name, const char *text)
{
	void *out = NULL;
	char *cause = NULL;

	if (decode(name, 200, text, &out, &cause) != 0)
		fail_msg("%s refused: %s\n%s", name, cause != NULL ? cause : "?", text);
	return out;
}

/* Refused, with a cause naming field. */
static void refused(const char *name, const char *text, const char *field)
{
	void *out = NULL;
	char *cause = NULL;

	if (decode(name, 200, text, &out, &cause) == 0) {
		api_reply_free(name, &out);
		fail_msg("%s taken, but should be refused (%s):\n%s", name, field, text);
	}
	if (cause == NULL || strstr(cause, field) == NULL)
		fail_msg("%s refused without naming %s: %s", name, field, cause != NULL ? cause : "?");
	free(cause);
}

/* ---- quotes and books ------------------------------------------------------------------ */

#define QUOTE(n8, units) \
	"{\"seq\":5,\"server_time\":\"2025-06-02T09:00:05Z\",\"quotes\":[{\"gpu\":\"h200\"," \
	"\"best_ask_cents\":419,\"ask_gpus\":24,\"best_bid_cents\":405,\"bid_gpus\":8," \
	"\"last_cents\":419,\"best_ask_n8_cents\":" n8 ",\"ask_n8_units\":" units "}]}"

static void test_quotes_of_nodes_of_8(void **state)
{
	struct api_quotes *q;

	(void)state;
	q = ok("quotes", QUOTE("430", "2"));
	assert_true(q->v[0].has_n8);
	assert_int_equal(q->v[0].best_ask_n8_cents, 430);
	assert_int_equal(q->v[0].ask_n8_units, 2);
	api_quotes_free(&q);
	q = ok("quotes", QUOTE("null", "0"));
	assert_true(q->v[0].has_n8);
	assert_int_equal(q->v[0].best_ask_n8_cents, -1);
	api_quotes_free(&q);
	/* an exchange before lots: none of it, and that is said */
	q = ok("quotes", "{\"seq\":5,\"server_time\":\"2025-06-02T09:00:05Z\",\"quotes\":[{\"gpu\":"
			 "\"h200\",\"best_ask_cents\":419,\"ask_gpus\":24,\"best_bid_cents\":null,"
			 "\"bid_gpus\":0,\"last_cents\":null}]}");
	assert_false(q->v[0].has_n8);
	api_quotes_free(&q);
	refused("quotes", QUOTE("null", "3"), "quotes[0]");
	refused("quotes", QUOTE("430", "0"), "quotes[0]");
	refused("quotes", QUOTE("4.3", "1"), "best_ask_n8_cents");
	refused("quotes", QUOTE("430", "-1"), "ask_n8_units");
}

#define BOOK(q, lv) \
	"{\"gpu\":\"h100-sxm\"," q "\"seq\":9,\"server_time\":\"2025-06-02T09:00:05Z\",\"asks\":[" lv \
	"],\"bids\":[]}"

static void test_book_by_node_size(void **state)
{
	struct api_book *b;

	(void)state;
	b = ok("book", BOOK("\"node_gpus\":8,\"interconnect\":null,\"regions\":[\"eu-west\",\"us-east\"],",
			    "{\"price_cents\":288,\"units\":2,\"gpus\":16,\"orders\":1,\"gpu_hours\":11520},"
			    "{\"price_cents\":290,\"units\":4,\"gpus\":32,\"orders\":1,\"gpu_hours\":23040}"));
	assert_int_equal(b->node_gpus, 8);
	assert_null(b->interconnect);
	assert_int_equal(b->n_regions, 2);
	assert_string_equal(b->regions[1], "us-east");
	assert_int_equal(b->asks[1].units, 4);
	api_book_free(&b);
	/* the plain book: no units, node_gpus 0 */
	b = ok("book", BOOK("", "{\"price_cents\":288,\"gpus\":24,\"orders\":2,\"gpu_hours\":17280}"));
	assert_int_equal(b->node_gpus, 0);
	assert_int_equal(b->asks[0].units, -1);
	api_book_free(&b);
	/* units × node size is the level's GPUs, or the reply is wrong */
	refused("book", BOOK("\"node_gpus\":8,\"interconnect\":\"nvlink\",\"regions\":null,",
			     "{\"price_cents\":288,\"units\":2,\"gpus\":12,\"orders\":1,\"gpu_hours\":1}"),
		"asks[0]");
	refused("book", BOOK("\"node_gpus\":3,\"interconnect\":null,\"regions\":null,", ""), "node_gpus");
	refused("book", BOOK("\"node_gpus\":8,\"interconnect\":\"ethernet\",\"regions\":null,", ""),
		"interconnect");
	refused("book", BOOK("\"node_gpus\":8,\"interconnect\":null,\"regions\":null,",
			     "{\"price_cents\":288,\"gpus\":16,\"orders\":1,\"gpu_hours\":1}"),
		"units");
}

/* ---- orders, rentals, previews -------------------------------------------------------- */

#define ORDER_HEAD(side, gpus, rem) \
	"{\"id\":107,\"client_order_id\":\"s1\",\"gpu\":\"h100-sxm\",\"side\":\"" side "\"," \
	"\"type\":\"limit\",\"time_in_force\":\"gtc\",\"gpus\":" gpus ",\"hours\":100," \
	"\"price_cents\":500,\"status\":\"open\",\"filled_gpus\":0,\"remaining_gpus\":" rem "," \
	"\"filled_value_cents\":0,\"currency\":\"EUR\",\"hold_minor\":0," \
	"\"created_at\":\"2025-06-02T09:00:05Z\",\"updated_at\":\"2025-06-02T09:00:05Z\","

static void test_sell_lot_and_its_machines(void **state)
{
	struct api_order *o;

	(void)state;
	o = ok("order", ORDER_HEAD("sell", "16", "16")
		"\"node_gpus\":8,\"interconnect\":\"nvlink\",\"region\":\"us-east\",\"cpu_cores\":64,"
		"\"ram_gb\":1024,\"disk_gb\":8000,\"whole_nodes\":true,\"nodes\":[{\"node\":\"o107-1\","
		"\"free_gpus\":8},{\"node\":\"o107-2\",\"free_gpus\":8}],\"fills\":[]}");
	assert_true(o->has_lot);
	assert_int_equal(o->lot.node_gpus, 8);
	assert_string_equal(o->lot.interconnect, "nvlink");
	assert_string_equal(o->lot.region, "us-east");
	assert_int_equal(o->lot.host.ram_gb, 1024);
	assert_true(o->lot.whole_nodes);
	assert_int_equal(o->n_nodes, 2);
	assert_string_equal(o->nodes[1].node, "o107-2");
	api_order_free(&o);
	/* 12 GPUs are not whole machines of 8; a machine has no 9 free of 8 */
	refused("order", ORDER_HEAD("sell", "12", "12")
		"\"node_gpus\":8,\"interconnect\":\"nvlink\",\"region\":\"us-east\",\"cpu_cores\":0,"
		"\"ram_gb\":0,\"disk_gb\":0,\"whole_nodes\":false,\"fills\":[]}", "gpus");
	refused("order", ORDER_HEAD("sell", "8", "8")
		"\"node_gpus\":8,\"interconnect\":\"nvlink\",\"region\":\"us-east\",\"cpu_cores\":0,"
		"\"ram_gb\":0,\"disk_gb\":0,\"whole_nodes\":false,\"nodes\":[{\"node\":\"o1-1\","
		"\"free_gpus\":9}],\"fills\":[]}", "free_gpus");
	refused("order", ORDER_HEAD("sell", "8", "8")
		"\"node_gpus\":8,\"interconnect\":\"nvlink\",\"region\":\"us-east\",\"cpu_cores\":0,"
		"\"ram_gb\":0,\"disk_gb\":-1,\"whole_nodes\":false,\"fills\":[]}", "disk_gb");
}

static void test_buy_requirements(void **state)
{
	struct api_order *o;

	(void)state;
	o = ok("order", ORDER_HEAD("buy", "16", "16")
		"\"node_gpus\":8,\"interconnect\":null,\"regions\":[\"eu-west\",\"us-east\"],"
		"\"min_cpu_cores\":0,\"min_ram_gb\":512,\"min_disk_gb\":0,\"fills\":[]}");
	assert_true(o->has_lot);
	assert_int_equal(o->needs.node_gpus, 8);
	assert_null(o->needs.interconnect);
	assert_int_equal(o->needs.n_regions, 2);
	assert_int_equal(o->needs.min.ram_gb, 512);
	api_order_free(&o);
	o = ok("order", ORDER_HEAD("buy", "3", "3")
		"\"node_gpus\":1,\"interconnect\":null,\"regions\":null,"
		"\"min_cpu_cores\":0,\"min_ram_gb\":0,\"min_disk_gb\":0,\"fills\":[]}");
	assert_int_equal(o->needs.n_regions, 0);
	api_order_free(&o);
	/* an order from an exchange before lots */
	o = ok("order", ORDER_HEAD("buy", "3", "3") "\"fills\":[]}");
	assert_false(o->has_lot);
	api_order_free(&o);
	refused("order", ORDER_HEAD("buy", "12", "12")
		"\"node_gpus\":8,\"interconnect\":null,\"regions\":null,"
		"\"min_cpu_cores\":0,\"min_ram_gb\":0,\"min_disk_gb\":0,\"fills\":[]}", "gpus");
	refused("order", ORDER_HEAD("buy", "8", "8")
		"\"node_gpus\":8,\"interconnect\":null,\"regions\":[],"
		"\"min_cpu_cores\":0,\"min_ram_gb\":0,\"min_disk_gb\":0,\"fills\":[]}", "regions");
}

#define RENTAL(gpus, nodes) \
	"{\"id\":5058,\"gpu\":\"h100-sxm\",\"role\":\"buyer\",\"order_id\":106,\"trade_id\":5058," \
	"\"gpus\":" gpus ",\"hours\":2,\"price_cents\":288,\"status\":\"active\",\"hours_billed\":1," \
	"\"started_at\":\"2025-06-02T09:00:05Z\",\"ends_at\":\"2025-06-02T11:00:05Z\"," \
	"\"stopped_at\":null,\"next_bill_at\":\"2025-06-02T10:00:05Z\",\"currency\":\"EUR\"," \
	"\"unit_minor\":326,\"hourly_minor\":2608,\"hourly_vat_minor\":488,\"billed_minor\":2608," \
	"\"refunded_minor\":0,\"held_minor\":2608,\"node_gpus\":8,\"interconnect\":\"nvlink\"," \
	"\"region\":\"eu-west\",\"host\":{\"cpu_cores\":112,\"ram_gb\":2048,\"disk_gb\":30720}," \
	"\"nodes\":" nodes "}"

static void test_rental_machines(void **state)
{
	struct api_rental *r;

	(void)state;
	r = ok("rental", RENTAL("16", "[{\"node\":\"o43-1\",\"gpus\":8},{\"node\":\"o43-2\",\"gpus\":8}]"));
	assert_true(r->has_lot);
	assert_string_equal(r->lot.region, "eu-west");
	assert_int_equal(r->lot.host.cpu_cores, 112);
	assert_int_equal(r->n_nodes, 2);
	assert_string_equal(r->nodes[0].node, "o43-1");
	api_rental_free(&r);
	r = ok("rental", RENTAL("8", "null")); /* from before lots: not recorded */
	assert_null(r->nodes);
	api_rental_free(&r);
	/* its machines hold the rental's GPUs, no more, no fewer */
	refused("rental", RENTAL("16", "[{\"node\":\"o43-1\",\"gpus\":8}]"), "nodes");
	refused("rental", RENTAL("16", "[{\"node\":\"o43-1\",\"gpus\":16}]"), "gpus");
}

#define PREVIEW_HEAD \
	"{\"gpu\":\"h100-sxm\",\"side\":\"buy\",\"type\":\"market\",\"time_in_force\":\"ioc\"," \
	"\"gpus\":16,\"hours\":2,\"price_cents\":320,\"node_gpus\":8,\"interconnect\":null," \
	"\"regions\":[\"eu-west\"],\"min_cpu_cores\":0,\"min_ram_gb\":512,\"min_disk_gb\":0," \
	"\"market_state\":\"open\",\"fills\":["
#define PREVIEW_TAIL \
	"],\"fill_gpus\":16,\"rest_gpus\":0,\"expire_gpus\":0,\"currency\":\"EUR\"," \
	"\"fx_rate_micro\":920000,\"vat_rate_bp\":2300,\"unit_minor\":363,\"hold_minor\":11616," \
	"\"cost\":{\"net_minor\":8480,\"vat_minor\":1952,\"total_minor\":10432}," \
	"\"balance_available_minor\":10000000,\"balance_after_minor\":9989568," \
	"\"would_status\":\"filled\",\"would_reject\":null}"
#define FILL(unit, nodes) \
	"{\"price_cents\":288,\"gpus\":16,\"unit_gpus\":" unit ",\"node_gpus\":8," \
	"\"interconnect\":\"nvlink\",\"region\":\"eu-west\",\"host\":{\"cpu_cores\":112," \
	"\"ram_gb\":2048,\"disk_gb\":30720},\"whole_nodes\":false,\"nodes\":" nodes "}"

static void test_preview_names_its_lots(void **state)
{
	struct api_preview *p;
	char *lots;

	(void)state;
	p = ok("preview", PREVIEW_HEAD FILL("8", "[{\"node\":\"o43-1\",\"gpus\":8},{\"node\":\"o43-2\","
						 "\"gpus\":8}]") PREVIEW_TAIL);
	assert_true(p->has_lot);
	assert_int_equal(p->needs.node_gpus, 8);
	assert_int_equal(p->needs.min.ram_gb, 512);
	assert_int_equal(p->fills[0].unit_gpus, 8);
	assert_int_equal(p->fills[0].n_nodes, 2);
	lots = view_fmt_fill_lots(I18N_EN, p);
	assert_non_null(strstr(lots, "o43-1, o43-2"));
	assert_non_null(strstr(lots, "eu-west"));
	assert_non_null(strstr(lots, "NVLink"));
	assert_non_null(strstr(lots, "112 cores"));
	assert_non_null(strstr(lots, "2,048 GB RAM"));
	free(lots);
	api_preview_free(&p);
	refused("preview", PREVIEW_HEAD FILL("3", "[{\"node\":\"o43-1\",\"gpus\":8},{\"node\":\"o43-2\","
						"\"gpus\":8}]") PREVIEW_TAIL, "unit_gpus");
	refused("preview", PREVIEW_HEAD FILL("8", "[{\"node\":\"o43-1\",\"gpus\":8}]") PREVIEW_TAIL,
		"nodes");
}

/* ---- job orders ------------------------------------------------------------------------- */

#define ALT_RUN(gpu, total) \
	"{\"gpu\":\"" gpu "\",\"runnable\":true,\"reason\":null,\"gpus\":8,\"node_gpus\":8," \
	"\"nodes\":1,\"interconnect\":\"nvlink\",\"hours\":24,\"total_minor\":" total "}"
#define ALT_NO(gpu) \
	"{\"gpu\":\"" gpu "\",\"runnable\":false,\"reason\":\"needs 2 nodes of 8 (NVLink); the book " \
	"has 1\",\"gpus\":16,\"node_gpus\":8,\"nodes\":2,\"interconnect\":\"nvlink\",\"hours\":24," \
	"\"total_minor\":null}"

static void test_job_preview_and_its_alternatives(void **state)
{
	struct api_job *j;
	char *s;

	(void)state;
	j = ok("job_preview", "{\"fit_model_version\":3,\"gpu\":\"h200\",\"hours\":24,"
		"\"total_minor\":74496,\"max_total_minor\":90000,\"currency\":\"EUR\",\"order\":"
		PREVIEW_HEAD FILL("8", "[{\"node\":\"o43-1\",\"gpus\":8},{\"node\":\"o43-2\",\"gpus\":8}]")
		PREVIEW_TAIL ",\"alternatives\":[" ALT_RUN("b300", "159744") "," ALT_RUN("h200", "74496")
		"," ALT_NO("h100-sxm") "],\"would_reject\":null}");
	assert_int_equal(j->fit_model_version, 3);
	assert_string_equal(j->gpu, "h200");
	assert_int_equal(j->n_alternatives, 3);
	assert_false(j->alternatives[2].runnable);
	assert_int_equal(j->alternatives[2].total_minor, -1);
	assert_non_null(j->preview);
	s = view_job_summary(I18N_EN, cat, j);
	assert_non_null(strstr(s, "H200, 1 node of 8 (NVLink) for 24 h"));
	assert_non_null(strstr(s, "2 of 3 GPUs can run it now"));
	free(s);
	api_job_free(&j);
	/* none can run it: no GPU, no order, the refusal said */
	j = ok("job_preview", "{\"fit_model_version\":4,\"gpu\":null,\"hours\":null,\"total_minor\":null,"
		"\"max_total_minor\":90000,\"currency\":\"EUR\",\"order\":null,\"alternatives\":["
		ALT_NO("h100-sxm") "],\"would_reject\":{\"code\":\"JOB_NOT_RUNNABLE\",\"message\":\"no\"}}");
	assert_null(j->gpu);
	assert_null(j->preview);
	assert_string_equal(j->reject_code, "JOB_NOT_RUNNABLE");
	s = view_job_summary(I18N_EN, cat, j);
	assert_non_null(strstr(s, "No GPU's book can run this job now"));
	assert_non_null(strstr(s, "version 4, gpux's 3")); /* another fit model said so */
	free(s);
	api_job_free(&j);
	/* the chosen GPU must be a runnable alternative; a runnable one has a total */
	refused("job_preview", "{\"fit_model_version\":3,\"gpu\":\"h100-sxm\",\"hours\":24,"
		"\"total_minor\":1,\"max_total_minor\":90000,\"currency\":\"EUR\",\"order\":null,"
		"\"alternatives\":[" ALT_NO("h100-sxm") "],\"would_reject\":null}", "gpu");
	refused("job_preview", "{\"fit_model_version\":3,\"gpu\":null,\"hours\":null,"
		"\"total_minor\":null,\"max_total_minor\":90000,\"currency\":\"EUR\",\"order\":null,"
		"\"alternatives\":[" ALT_RUN("h200", "null") "],\"would_reject\":null}", "alternatives[0]");
}

static void test_job_refusal_carries_alternatives(void **state)
{
	struct api_error *e = NULL;
	const char *body = "{\"error\":{\"code\":\"OVER_BUDGET\",\"message\":\"too dear\","
			   "\"request_id\":\"r1\",\"alternatives\":[" ALT_RUN("h200", "74496") "]}}";
	void *out = NULL;
	char *cause = NULL;

	(void)state;
	assert_int_equal(api_decode("error", 422, body, strlen(body), &out, &cause), 0);
	e = out;
	assert_string_equal(e->code, "OVER_BUDGET");
	assert_int_equal(e->n_alternatives, 1);
	assert_int_equal(e->alternatives[0].total_minor, 74496);
	api_error_free(&e);
}

static void test_market_regions(void **state)
{
	struct api_market *m;

	(void)state;
	m = ok("market", "{\"state\":\"open\",\"opens_at\":null,\"server_time\":\"2025-06-02T09:00:00Z\","
		"\"clock_speed\":1,\"demo\":true,\"simulated_payments\":true,\"currencies\":[\"EUR\"],"
		"\"regions\":[{\"id\":\"eu-west\",\"name\":\"Europe West (Lisbon)\"},{\"id\":\"us-east\","
		"\"name\":\"US East (Virginia)\"}],\"fx\":{\"base\":\"USD\",\"date\":\"2025-01-02\","
		"\"rate_micro\":{\"EUR\":920000}},\"vat\":{\"date\":\"2025-01-01\",\"rate_bp\":{\"PT\":2300}}}");
	assert_int_equal(m->n_regions, 2);
	assert_string_equal(m->regions[1].id, "us-east");
	assert_string_equal(m->regions[0].name, "Europe West (Lisbon)");
	api_market_free(&m);
}

/* ---- a fit job's price in the tables, against an independent computation --------------- */

/* The demo's quotes at start (the seeds' prices; boards in nodes of 8, two
 * units at the best price; PCIe cards single GPUs): the table's inputs. */
struct quote_in {
	const char *gpu;
	int64_t ask, ask_gpus, n8, n8_units;
};
static const struct quote_in quotes_in[] = {
	{ "b300", 899, 24, 899, 2 },     { "b200", 799, 24, 799, 2 },
	{ "mi325x", 482, 24, 482, 2 },   { "mi300x", 416, 24, 416, 2 },
	{ "h200", 419, 24, 419, 2 },     { "h100-nvl", 319, 24, -1, 0 },
	{ "h100-sxm", 288, 24, 288, 1 }, { "a100-sxm", 179, 24, 185, 3 },
	{ "a100-pcie", 180, 24, -1, 0 }, { "rtx-4090", 33, 24, -1, 0 },
};

/* The table of job, from those quotes. */
static struct view_table *table_of(const struct fit_job *job)
{
	struct view_price pr[16];
	struct view_prices p = { pr, 0, false };
	size_t n = sizeof quotes_in / sizeof quotes_in[0];

	memset(pr, 0, sizeof pr);
	for (size_t i = 0; i < n; i++) {
		struct api_quote q = {
			.gpu = (char *)quotes_in[i].gpu, .best_ask_cents = quotes_in[i].ask,
			.ask_gpus = quotes_in[i].ask_gpus, .best_bid_cents = -1, .last_cents = -1,
			.has_n8 = true, .best_ask_n8_cents = quotes_in[i].n8,
			.ask_n8_units = quotes_in[i].n8_units,
		};
		pr[i].gpu_id = quotes_in[i].gpu;
		pr[i].cents = quotes_in[i].ask;
		view_supply_of_quote(&q, &pr[i].supply);
	}
	p.n = n;
	return view_new(cat, NULL, &p, job, I18N_EN, false);
}

/* What a buyer computes for one GPU: the job's shape there (fit/), then
 * the quote of its units. cost -1 and words when the book cannot say. */
static void by_hand(const struct quote_in *q, const struct fit_job *job, int64_t *unit,
		    int64_t *cost, const char **words)
{
	const struct catalog_gpu *g = catalog_gpu(cat, q->gpu);
	struct fit_gpu fg;
	struct fit_result r;

	view_fit_gpu(g, q->ask, &fg);
	fit_evaluate(job, &fg, &r);
	*unit = *cost = -1;
	*words = NULL;
	if (r.gpus_run <= 0)
		return;
	if (r.shape.node_gpus == 1) {
		*unit = q->ask;
		*cost = q->ask >= 0 && q->ask_gpus >= r.shape.nodes ? r.shape.nodes * q->ask : -1;
	} else if (r.shape.node_gpus == 8) {
		if (q->n8 < 0) {
			*words = "no node of 8";
			return;
		}
		*unit = q->n8;
		if (q->n8_units >= r.shape.nodes)
			*cost = (int64_t)r.shape.nodes * 8 * q->n8;
		else
			*words = "\u2026"; /* more than the best price holds: the ladder says */
	} else {
		*words = "\u2026"; /* units of 2 or 4: only a ladder by node size says */
	}
}

static void compare_with_hand(const struct fit_job *job, const char *what)
{
	struct view_table *t = table_of(job);
	int price = view_column_index(t, "price"), cost = view_column_index(t, "job_cost");
	size_t n = sizeof quotes_in / sizeof quotes_in[0];

	assert_true(price >= 0 && cost >= 0);
	assert_string_equal(t->columns[price].label, "Price/h (job)");
	for (size_t i = 0; i < n; i++) {
		const struct view_row *r = view_shown_row(t, (size_t)view_find(t, quotes_in[i].gpu));
		const struct view_cell *pc = &r->cells[price], *cc = &r->cells[cost];
		int64_t unit, hour;
		const char *words;

		by_hand(&quotes_in[i], job, &unit, &hour, &words);
		if (hour >= 0) {
			if (cc->raw != VIEW_RAW_CENTS || cc->cents != hour)
				fail_msg("%s, %s: Job/h is [%s] (%lld), by hand %lld", what,
					 quotes_in[i].gpu, cc->display, (long long)cc->cents, (long long)hour);
			assert_int_equal(pc->cents, unit);
			assert_int_equal(r->job.hourly_cents, hour);
		} else if (words != NULL) {
			if (strstr(cc->display, words) == NULL)
				fail_msg("%s, %s: Job/h is [%s], by hand [%s]", what, quotes_in[i].gpu,
					 cc->display, words);
			assert_true(cc->raw == VIEW_RAW_NONE);
		}
	}
	view_free(&t);
}

/* Llama 3.1 405B at FP8 runs on 8 × H100 SXM as one node of 8 (NVLink): its
 * price is the node's, not 8 of the best single GPUs; on H100 NVL, which is
 * sold as single PCIe cards, no node of 8 can be bought. */
static void test_table_prices_405b_fp8(void **state)
{
	const struct catalog_model *m = catalog_model(cat, "llama-3.1-405b");
	struct fit_job job;
	struct view_table *t;
	const struct view_row *r;
	int cost;
	char *shape;

	(void)state;
	assert_non_null(m);
	fit_job_defaults(&job);
	view_job_use_preset(&job, m);
	job.method = FIT_INFER_FP8;
	compare_with_hand(&job, "405B FP8");
	t = table_of(&job);
	cost = view_column_index(t, "job_cost");
	r = view_shown_row(t, (size_t)view_find(t, "h100-sxm"));
	shape = view_fmt_node_shape(I18N_EN, &r->job.shape);
	assert_string_equal(shape, "1 node of 8 (NVLink)");
	free(shape);
	assert_int_equal(r->cells[cost].cents, 8 * 288);
	r = view_shown_row(t, (size_t)view_find(t, "h100-nvl"));
	assert_string_equal(r->cells[cost].display, "no node of 8");
	/* A100 SXM: the node of 8 is dearer than its best single GPU (185 > 179) */
	r = view_shown_row(t, (size_t)view_find(t, "a100-sxm"));
	assert_int_equal(r->cells[cost].cents, 8 * 185);
	view_free(&t);
}

/* Full training of a 70B model: many GPUs, so several nodes of 8 where the
 * best price may hold fewer than the job needs. */
static void test_table_prices_70b_training(void **state)
{
	const struct catalog_model *m = catalog_model(cat, "llama-3.1-70b");
	struct fit_job job;

	(void)state;
	assert_non_null(m);
	fit_job_defaults(&job);
	view_job_use_preset(&job, m);
	job.method = FIT_FULL;
	compare_with_hand(&job, "70B full");
	job.method = FIT_QLORA;
	compare_with_hand(&job, "70B QLoRA");
	job.method = FIT_INFER_FP16;
	compare_with_hand(&job, "70B FP16");
}

/* A ladder by node size prices what the quote cannot: 3 nodes of 8 where
 * the best price holds 1 take the next levels; too few units say so. */
static void test_ladder_walks_the_units(void **state)
{
	struct view_job_need n = { .node_gpus = 8, .nodes = 3, .link = true,
				   .interconnect = FIT_LINK_NVLINK };
	const struct view_unit_level lad[] = { { 288, 1 }, { 290, 1 }, { 295, 4 } };
	struct view_supply s = { .quoted = true, .n8_known = true, .n8_cents = 288, .n8_units = 1 };
	struct view_job_price p;

	(void)state;
	assert_true(view_need_ladder(&n, &s));
	view_job_price_of(&n, 288, &s, &p);
	assert_int_equal(p.state, VIEW_CAP_UNKNOWN); /* never the best price × 3 */
	view_supply_set_ladder(&s, &n, lad, 3);
	assert_false(view_need_ladder(&n, &s));
	view_job_price_of(&n, 288, &s, &p);
	assert_int_equal(p.state, VIEW_CAP_OK);
	assert_int_equal(p.hourly_cents, 8 * 288 + 8 * 290 + 8 * 295);
	assert_int_equal(p.unit_cents, 288);
	assert_int_equal(p.worst_cents, 295);
	n.nodes = 7;
	view_job_price_of(&n, 288, &s, &p);
	assert_int_equal(p.state, VIEW_CAP_SHORT);
	assert_int_equal(p.units_have, 6);
	/* a ladder asked on another link does not answer this need */
	n.nodes = 3;
	s.ladder_interconnect = FIT_LINK_PCIE;
	assert_true(view_need_ladder(&n, &s));
	/* an exchange without lots: the loose GPUs at the best ask */
	memset(&s, 0, sizeof s);
	s.quoted = true;
	view_job_price_of(&n, 288, &s, &p);
	assert_int_equal(p.state, VIEW_CAP_OK);
	assert_int_equal(p.hourly_cents, 24 * 288);
	assert_false(view_need_ladder(&n, &s));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quotes_of_nodes_of_8),
		cmocka_unit_test(test_book_by_node_size),
		cmocka_unit_test(test_sell_lot_and_its_machines),
		cmocka_unit_test(test_buy_requirements),
		cmocka_unit_test(test_rental_machines),
		cmocka_unit_test(test_preview_names_its_lots),
		cmocka_unit_test(test_job_preview_and_its_alternatives),
		cmocka_unit_test(test_job_refusal_carries_alternatives),
		cmocka_unit_test(test_market_regions),
		cmocka_unit_test(test_table_prices_405b_fp8),
		cmocka_unit_test(test_table_prices_70b_training),
		cmocka_unit_test(test_ladder_walks_the_units),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
