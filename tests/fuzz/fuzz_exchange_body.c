/*
 * libFuzzer target over gpuxd's request-body validation (exchange/body.c and
 * the pure xd_parse_* functions of exchange/routes.c and exchange/keys.c): every write endpoint's
 * body, and the ISO 8601 time parser behind "opens_at" and --opens-at.
 *
 * Input: the first byte picks the endpoint ('0'..':', any other byte modulo
 * 11), the rest is the request body, handed over in a buffer of exactly its
 * length (no NUL after it, as the HTTP layer may hand it) so ASan sees any
 * read past the end. No SQLite, no threads: the catalogue tables come from
 * the embedded data/ files.
 *
 *   '0' POST /v1/accounts          '5' POST /v1/rentals/{id}/stop
 *   '1' POST /v1/deposits (key)    '6' POST /v1/admin/clock
 *   '2' POST /v1/deposits (admin)  '7' POST /v1/admin/market
 *   '3' POST /v1/orders/preview    '8' exchange_parse_time (the rest, as a string)
 *   '4' POST /v1/orders            '9' POST /v1/keys
 *   ':' POST /v1/alerts
 *
 * Besides crashes, leaks and UB, it checks what docs/API.md promises and
 * abort()s on a violation: a refusal is a 400 with a documented code, a
 * printable message and the "field" it names; an accepted body holds no NUL
 * and only known, unique members, every number in it is an integer as
 * written (checked on the text, not on strtod's double), and its typed
 * result is within the
 * documented ranges (gpus 1..512, hours 1..720, price 1..1 000 000, a
 * catalogue GPU, a valid side/type/time in force, a market order never GTC,
 * a client order id of allowed characters, a known VAT country; a lot of
 * 1, 2, 4 or 8 GPUs per node that divides gpus, an interconnect the GPU's
 * nodes can have, a known region, host figures in range, nothing of the
 * other side, …) and
 * equal to the values in the JSON; an accepted time survives a round trip
 * through the reply formatter.
 *
 *   make build/fuzz/fuzz_exchange_body && build/fuzz/fuzz_exchange_body \
 *       -max_len=16384 -max_total_time=300 tests/fuzz/corpus/fuzz_exchange_body
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exchange/xd.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct xd_tables *tables;
/* the currencies a new database starts with (data/fx.json), as signup sees them */
static struct xd_settings *settings;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *cause = NULL;
	(void)argc;
	(void)argv;
	if (xd_tables_load(NULL, &tables, &cause) != 0) {
		fprintf(stderr, "fuzz_exchange_body: cannot load the catalogue: %s\n", cause);
		abort();
	}
	settings = calloc(1, sizeof *settings);
	for (size_t i = 0; i < tables->n_fx && i < XD_CUR_MAX; i++) {
		memcpy(settings->cur[i].code, tables->fx[i].code, 4);
		settings->cur[i].exponent = tables->fx[i].exponent;
		settings->cur[i].rate_micro = tables->fx[i].rate_micro;
		settings->n_cur++;
	}
	return 0;
}

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "invariant failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	abort(); } } while (0)

static const char *const codes[] = {
	"BAD_JSON", "UNKNOWN_FIELD", "DUPLICATE_FIELD", "MISSING_FIELD", "WRONG_TYPE", "NOT_INTEGER",
	"OUT_OF_RANGE", "BAD_VALUE", "STRING_TOO_LONG", "BAD_COMBINATION", "UNKNOWN_GPU",
	"UNKNOWN_COUNTRY", "UNKNOWN_REGION", NULL,
};

static const char *const f_signup[] = { "email", "country", "currency", "role", NULL };
static const char *const f_deposit[] = { "amount_minor", "account_id", "reference", NULL };
static const char *const f_order[] = {
	"client_order_id", "gpu", "side", "type", "gpus", "hours", "price_cents",
	"max_price_cents", "min_price_cents", "time_in_force",
	"node_gpus", "interconnect", "region", "cpu_cores", "ram_gb", "disk_gb", "whole_nodes",
	"regions", "min_cpu_cores", "min_ram_gb", "min_disk_gb", "job", "max_total_minor",
	"trigger", "oco_group", "standing", "trigger.when", "trigger.price_cents", NULL,
};
static const char *const f_alert[] = {
	"when", "gpu", "price_cents", "rearm_cents", "minutes", "rental_id", "order_id",
	"job", "hours", "regions", "max_total_minor", "rearm_minor", "expires_at", "label", NULL,
};
static const char *const f_none[] = { NULL };
static const char *const f_key[] = { "name", "scope", NULL };
static const char *const f_clock[] = { "advance_seconds", NULL };
static const char *const f_state[] = { "state", "opens_at", NULL };

/* An integer member of an error object (written raw by xd_jint). */
static bool int_member(const cJSON *e, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, k);
	if (cJSON_IsNumber(v))
		return true;
	if (!cJSON_IsRaw(v) || !v->valuestring[0])
		return false;
	for (const char *p = v->valuestring + (v->valuestring[0] == '-'); *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

static bool printable(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			return false;
	return true;
}

/* A refusal: status 400, {"error":{"code","message","field"…}} as documented. */
static void check_refusal(const struct xd_reply *r, const char *const *fields)
{
	CHECK(r->status == 400);
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(r->body, "error");
	const cJSON *code = cJSON_GetObjectItemCaseSensitive(e, "code");
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(e, "message");
	const cJSON *field = cJSON_GetObjectItemCaseSensitive(e, "field");
	CHECK(cJSON_IsString(code) && xd_lookup(codes, code->valuestring) >= 0);
	CHECK(cJSON_IsString(msg) && msg->valuestring[0] && printable(msg->valuestring));
	if (strcmp(code->valuestring, "BAD_JSON") == 0) {
		CHECK(field == NULL);
	} else {
		/* an unknown field is named (sanitized); any other code names one of
		 * the endpoint's own fields */
		CHECK(cJSON_IsString(field) && printable(field->valuestring));
		const char *fn = field->valuestring;
		if (strcmp(code->valuestring, "UNKNOWN_FIELD") == 0) {
			/* any name, sanitized */
		} else if (strncmp(fn, "job.", 4) == 0) {   /* a field of a job order's job */
			CHECK(xd_lookup(fields, "job") >= 0);
			bool known = false;
			for (int i = 0; i < fit_job_field_count; i++)
				known = known || strcmp(fit_job_fields[i].name, fn + 4) == 0;
			CHECK(known);
		} else {
			CHECK(xd_lookup(fields, fn) >= 0);
		}
	}
	if (strcmp(code->valuestring, "OUT_OF_RANGE") == 0)
		CHECK(int_member(e, "min") && int_member(e, "max"));
	if (strcmp(code->valuestring, "STRING_TOO_LONG") == 0)
		CHECK(int_member(e, "max"));
	char *text = cJSON_PrintUnformatted(r->body);   /* what http.c sends */
	CHECK(text != NULL && xd_utf8_valid(text, strlen(text)));
	free(text);
}

/* Is the number literal s[0..len) an integer of magnitude at most 2^53 as
 * written? Decided on the text alone, by moving the decimal point (a
 * different method from exchange/body.c's digit arithmetic): the digits
 * after the point must all be zero, the digits before it at most
 * 9007199254740992. */
static bool literal_integral(const char *s, size_t len)
{
	size_t i = s[0] == '-', e = i;
	while (e < len && s[e] != 'e' && s[e] != 'E')
		e++;
	long exp10 = 0;
	if (e < len) {
		char tmp[32];
		size_t n = len - e - 1 < sizeof tmp - 1 ? len - e - 1 : sizeof tmp - 1;
		memcpy(tmp, s + e + 1, n);
		tmp[n] = 0;
		exp10 = strtol(tmp, NULL, 10);
		if (exp10 > 100000 || exp10 < -100000)
			exp10 = exp10 > 0 ? 100000 : -100000;
	}
	char m[64];   /* the digits, and where the point goes */
	size_t nm = 0;
	long point = -1;
	for (size_t k = i; k < e; k++) {
		if (s[k] == '.') {
			point = (long)nm;
			continue;
		}
		if (nm == 0 && point < 0 && s[k] == '0')
			continue;   /* leading zeros before the point say nothing */
		if (nm == sizeof m)
			return false;
		m[nm++] = s[k];
	}
	if (point < 0)
		point = (long)nm;
	point += exp10;
	bool zero = true;
	for (size_t k = 0; k < nm; k++)
		zero = zero && m[k] == '0';
	if (zero)
		return true;
	for (long k = point < 0 ? 0 : point; k < (long)nm; k++)
		if (m[k] != '0')
			return false;   /* a non-zero digit after the point */
	if (point < 0)
		return false;
	char whole[32];     /* the digits before the point, without leading zeros */
	size_t nw = 0;
	for (long k = 0; k < point; k++) {
		char d = k < (long)nm ? m[k] : '0';
		if (nw == 0 && d == '0')
			continue;
		if (nw == sizeof whole - 1)
			return false;
		whole[nw++] = d;
	}
	whole[nw] = 0;
	return nw < 16 || (nw == 16 && strcmp(whole, "9007199254740992") <= 0);
}

/* Every number literal of an accepted body is an integer as written. */
static void check_literals(const char *body, size_t len)
{
	bool in_str = false;
	for (size_t i = 0; i < len; i++) {
		if (in_str) {
			if (body[i] == '\\')
				i++;
			else if (body[i] == '"')
				in_str = false;
			continue;
		}
		if (body[i] == '"') {
			in_str = true;
		} else if (body[i] == '-' || (body[i] >= '0' && body[i] <= '9')) {
			size_t j = i;
			while (j < len && body[j] && strchr("+-.0123456789eE", body[j]))
				j++;
			CHECK(literal_integral(body + i, j - i));
			i = j - 1;
		}
	}
}

/* An accepted body: no NUL byte and no \u0000 escape (nothing was cut off
 * silently), one JSON object of known, unique members. Returns the tree
 * (owned by the caller) so the typed result can be compared with it. */
static cJSON *check_accepted(const char *body, size_t len, const char *const *fields)
{
	CHECK(memchr(body, 0, len) == NULL);
	for (size_t i = 0; i + 1 < len; i++) {
		if (body[i] != '\\')
			continue;
		CHECK(!(i + 5 < len && memcmp(body + i + 1, "u0000", 5) == 0));
		i++;   /* skip the escaped character (a backslash escapes one) */
	}
	check_literals(body, len);
	cJSON *b = cJSON_ParseWithLength(body, len);
	if (b == NULL) {
		/* only an empty body (rental stop) is accepted without a tree */
		for (size_t i = 0; i < len; i++)
			CHECK(strchr(" \t\r\n", body[i]) != NULL && body[i] != 0);
		return cJSON_CreateObject();
	}
	CHECK(cJSON_IsObject(b));
	for (const cJSON *c = b->child; c; c = c->next) {
		CHECK(c->string && xd_lookup(fields, c->string) >= 0);
		for (const cJSON *d = c->next; d; d = d->next)
			CHECK(strcmp(c->string, d->string) != 0);
	}
	return b;
}

static const char *member_str(const cJSON *b, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(b, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static bool streq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

/* The member k is a number whose value is exactly want. */
static bool member_is(const cJSON *b, const char *k, int64_t want)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(b, k);
	return cJSON_IsNumber(v) && v->valuedouble == (double)want;
}

/* The member k is v, or absent and v is 0. */
static bool member_or_zero(const cJSON *b, const char *k, int64_t v)
{
	return cJSON_HasObjectItem(b, k) ? member_is(b, k, v) : v == 0;
}

/* A bid's regions: the bits of the ids listed, nothing else. */
static uint64_t listed_regions(const cJSON *b)
{
	uint64_t mask = 0;
	const cJSON *x;
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(b, "regions")) {
		int r = cJSON_IsString(x) ? xd_tables_region(tables, x->valuestring) : -1;
		CHECK(r >= 0);
		mask |= UINT64_C(1) << r;
	}
	return mask;
}

/* A sell's lot or a buy's requirements, as docs/API.md says them. */
static void check_lot(const cJSON *b, const struct xd_order_in *o)
{
	CHECK(o->node_gpus == 1 || o->node_gpus == 2 || o->node_gpus == 4 || o->node_gpus == 8);
	CHECK(o->gpus % o->node_gpus == 0);
	CHECK(cJSON_HasObjectItem(b, "node_gpus") ? member_is(b, "node_gpus", o->node_gpus)
	                                          : o->node_gpus == 1);
	CHECK(o->link >= ENG_LINK_ANY && o->link <= ENG_LINK_PCIE);
	const char *link = member_str(b, "interconnect");
	CHECK(link ? streq(link, xd_link_names[o->link]) && o->link != ENG_LINK_ANY : true);
	if (o->link != ENG_LINK_ANY)
		CHECK(xd_tables_link_ok(tables, o->gpu, o->link, o->node_gpus));
	const char *const *mine, *const *theirs;
	static const char *const sell_f[] = { "region", "cpu_cores", "ram_gb", "disk_gb",
	                                      "whole_nodes", NULL };
	static const char *const buy_f[] = { "regions", "min_cpu_cores", "min_ram_gb",
	                                     "min_disk_gb", NULL };
	bool sell = o->side == ENG_SELL;
	mine = sell ? sell_f : buy_f;
	theirs = sell ? buy_f : sell_f;
	for (; *theirs; theirs++)
		CHECK(!cJSON_HasObjectItem(b, *theirs));
	CHECK(member_or_zero(b, mine[1], o->host.cpu_cores) && o->host.cpu_cores >= 0 &&
	      o->host.cpu_cores <= XD_CPU_CORES_MAX);
	CHECK(member_or_zero(b, mine[2], o->host.ram_gb) && o->host.ram_gb >= 0 &&
	      o->host.ram_gb <= XD_RAM_GB_MAX);
	CHECK(member_or_zero(b, mine[3], o->host.disk_gb) && o->host.disk_gb >= 0 &&
	      o->host.disk_gb <= XD_DISK_GB_MAX);
	if (sell) {
		CHECK(link || o->link == tables->gpu_link[o->gpu]);
		CHECK(o->region >= 0 && (size_t)o->region < tables->n_regions && o->regions == 0);
		const char *rg = member_str(b, "region");
		CHECK(rg ? streq(rg, tables->regions[o->region].id) : o->region == 0);
		const cJSON *wn = cJSON_GetObjectItemCaseSensitive(b, "whole_nodes");
		CHECK(wn ? cJSON_IsBool(wn) && o->whole_nodes == cJSON_IsTrue(wn) : !o->whole_nodes);
	} else {
		CHECK(link || o->link == ENG_LINK_ANY);
		CHECK(o->region == 0 && !o->whole_nodes);
		CHECK(o->regions == listed_regions(b));
		CHECK(cJSON_HasObjectItem(b, "regions") == (o->regions != 0));
	}
}

static bool coid_chars(const char *s)
{
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:", *s))
			return false;
	return true;
}

/* A job order: a buy, FOK, its budget and hours as written, a job the fit
 * library accepts, which written out and read back is the same job. */
static void check_job(const cJSON *b, const struct xd_order_in *o, bool need_coid)
{
	CHECK(o->side == ENG_BUY && o->tif == ENG_FOK && o->gpu == -1);
	CHECK(streq(member_str(b, "side"), "buy"));
	const char *tif = member_str(b, "time_in_force");
	CHECK(!tif || streq(tif, "fok"));
	CHECK(o->max_total >= 1 && o->max_total <= XD_DEPOSIT_MAX &&
	      member_is(b, "max_total_minor", o->max_total));
	CHECK(member_or_zero(b, "hours", o->job_hours) && o->job_hours >= 0 &&
	      o->job_hours <= XD_HOURS_MAX);
	CHECK(o->job_hours > 0 || fit_method_is_training(o->fit.method));
	CHECK(o->regions == listed_regions(b));
	CHECK(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(b, "job")));
	char *cause = NULL;
	CHECK(fit_job_check(&o->fit, &cause) == 0);
	const char *coid = member_str(b, "client_order_id");
	CHECK(coid ? streq(coid, o->coid) && coid_chars(o->coid) : o->coid[0] == 0);
	if (need_coid)
		CHECK(o->coid[0] != 0);
	/* the job's fields written out and read back: the same text */
	char *text = xd_job_text(o);
	struct fit_field f[FIT_JOB_FIELDS_MAX];
	int n = fit_job_to_fields(&o->fit, o->fit_label[0] ? o->fit_label : NULL, f,
	                          FIT_JOB_FIELDS_MAX);
	struct xd_order_in again = *o;
	struct fit_field_problem p;
	CHECK(fit_job_from_fields(f, n, &again.fit, again.fit_label, sizeof again.fit_label, &p,
	                          &cause) == 0);
	char *text2 = xd_job_text(&again);
	CHECK(streq(text, text2));
	free(text);
	free(text2);
}

/* An accepted job alert: its budget, re-arming, hours, regions and job as
 * the body has them, and the job's text as its row keeps it read back into
 * the same job. */
static void check_job_alert(const cJSON *b, const struct xd_alert_in *a,
                            const struct xd_order_in *job)
{
	CHECK(job->is_job && a->gpu == -1 && !cJSON_HasObjectItem(b, "gpu") &&
	      !cJSON_HasObjectItem(b, "price_cents"));
	CHECK(a->price >= 1 && a->price <= XD_DEPOSIT_MAX && member_is(b, "max_total_minor", a->price));
	CHECK(a->rearm == 0 ? !cJSON_HasObjectItem(b, "rearm_minor")
	                    : a->rearm >= 1 && a->rearm <= XD_DEPOSIT_MAX &&
	                      member_is(b, "rearm_minor", a->rearm));
	CHECK(member_or_zero(b, "hours", job->job_hours) && job->job_hours >= 0 &&
	      job->job_hours <= XD_HOURS_MAX);
	CHECK(job->job_hours > 0 || fit_method_is_training(job->fit.method));
	CHECK(job->regions == listed_regions(b));
	char *cause = NULL;
	CHECK(fit_job_check(&job->fit, &cause) == 0);
	char *text = xd_job_text(job);
	struct xd_order_in again = { 0 };
	CHECK(xd_job_from_text(text, &again));
	char *text2 = xd_job_text(&again);
	CHECK(streq(text, text2));
	free(text);
	free(text2);
}

static void check_order(const cJSON *b, const struct xd_order_in *o, bool need_coid)
{
	if (o->is_job) {
		check_job(b, o, need_coid);
		return;
	}
	CHECK(o->gpu >= 0 && (size_t)o->gpu < tables->n_gpus);
	const char *gpu = member_str(b, "gpu");
	CHECK(streq(gpu, tables->gpu_ids[o->gpu]));
	CHECK(o->side == ENG_BUY || o->side == ENG_SELL);
	CHECK(o->type == XD_LIMIT || o->type == XD_MARKET);
	CHECK(o->tif == ENG_GTC || o->tif == ENG_IOC || o->tif == ENG_FOK);
	CHECK(o->gpus >= 1 && o->gpus <= XD_GPUS_MAX && member_is(b, "gpus", o->gpus));
	CHECK(o->hours >= 1 && o->hours <= XD_HOURS_MAX && member_is(b, "hours", o->hours));
	CHECK(o->price >= 1 && o->price <= XD_PRICE_MAX);
	CHECK(streq(member_str(b, "side"), xd_side_names[o->side]));
	CHECK(streq(member_str(b, "type"), xd_type_names[o->type]));
	const char *tif = member_str(b, "time_in_force");
	CHECK(tif ? streq(tif, xd_tif_names[o->tif])
	          : o->tif == (o->type == XD_LIMIT ? ENG_GTC : ENG_IOC));
	bool has_p = cJSON_HasObjectItem(b, "price_cents"), has_max = cJSON_HasObjectItem(b, "max_price_cents"),
	     has_min = cJSON_HasObjectItem(b, "min_price_cents");
	if (o->type == XD_LIMIT) {
		CHECK(has_p && !has_max && !has_min && member_is(b, "price_cents", o->price));
	} else {
		CHECK(o->tif != ENG_GTC && !has_p);
		if (o->side == ENG_BUY)
			CHECK(has_max && !has_min && member_is(b, "max_price_cents", o->price));
		else
			CHECK(has_min && !has_max && member_is(b, "min_price_cents", o->price));
	}
	const char *coid = member_str(b, "client_order_id");
	CHECK(strlen(o->coid) <= XD_COID_MAX && coid_chars(o->coid));
	CHECK(coid ? streq(coid, o->coid) && o->coid[0] : o->coid[0] == 0);
	if (need_coid)
		CHECK(o->coid[0] != 0);
	check_lot(b, o);
	/* conditional, one-cancels-other, standing */
	const struct xd_cond_in *c = &o->cond;
	const cJSON *trig = cJSON_GetObjectItemCaseSensitive(b, "trigger");
	if (trig) {
		CHECK(c->trigger.when >= XD_WHEN_ASK_LTE && c->trigger.when <= XD_WHEN_LAST_GTE);
		CHECK(streq(member_str(trig, "when"), xd_when_names[c->trigger.when]));
		CHECK(c->trigger.price >= 1 && c->trigger.price <= XD_PRICE_MAX &&
		      member_is(trig, "price_cents", c->trigger.price));
	} else {
		CHECK(c->trigger.when == XD_WHEN_NONE);
	}
	const char *oco = member_str(b, "oco_group");
	CHECK(streq(c->oco, oco ? oco : ""));
	for (const char *q = c->oco; *q; q++)
		CHECK(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:", *q));
	if (c->standing)
		CHECK(o->side == ENG_BUY && o->type == XD_LIMIT && o->tif == ENG_GTC &&
		      c->trigger.when == XD_WHEN_NONE && !c->oco[0]);
	CHECK(c->standing == cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "standing")));
}

static void check_signup(const cJSON *b, const struct xd_job *j)
{
	size_t n = strlen(j->email);
	CHECK(n >= 3 && n <= XD_EMAIL_MAX && streq(member_str(b, "email"), j->email));
	CHECK(xd_utf8_valid(j->email, n));
	const char *at = strchr(j->email, '@');
	CHECK(at && at != j->email && at[1] && !strchr(at + 1, '@'));
	for (const unsigned char *p = (const unsigned char *)j->email; *p; p++)
		CHECK(*p > ' ' && *p != 0x7f);
	CHECK(strlen(j->country) == 2 && xd_tables_vat(tables, j->country) >= 0);
	CHECK(streq(member_str(b, "country"), j->country));
	CHECK(j->cur >= 0 && (size_t)j->cur < settings->n_cur &&
	      streq(member_str(b, "currency"), settings->cur[j->cur].code));
	CHECK(j->role >= 0 && j->role <= XD_ROLE_BOTH &&
	      streq(member_str(b, "role"), xd_role_names[j->role]));
}

/* An accepted time t: formatting it as a reply does and parsing that back
 * gives the same second (xd_time_fmt goes through gmtime, the parser through
 * days-from-civil: two independent calendars). */
static void check_time(int64_t ms)
{
	if (ms < 0)
		return;   /* before 1970: refused by every caller */
	char buf[64];
	int64_t back;
	xd_time_fmt(ms, buf, sizeof buf);
	CHECK(exchange_parse_time(buf, &back) == 0);
	CHECK(back == ms - ms % 1000);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned which = (uint8_t)(data[0] - '0') % 11;
	size_t len = size - 1;
	char *body = malloc(len ? len : 1);
	if (len)
		memcpy(body, data + 1, len);
	struct xd_reply r = { 0 };
	struct xd_job *j = calloc(1, sizeof *j);
	int rc = 0;
	cJSON *b;

	switch (which) {
	case 0:
		rc = xd_parse_signup(tables, settings, body, len, j, &r);
		if (rc == 0) {
			b = check_accepted(body, len, f_signup);
			check_signup(b, j);
			cJSON_Delete(b);
		} else {
			check_refusal(&r, f_signup);
		}
		break;
	case 1:
	case 2: {
		bool admin = which == 2;
		rc = xd_parse_deposit(body, len, admin, j, &r);
		int64_t amount = j->amount, target = j->target;
		if (rc == 0) {
			b = check_accepted(body, len, f_deposit);
			const char *ref = member_str(b, "reference");
			CHECK(ref ? streq(ref, j->str[0]) && strlen(ref) <= XD_REF_MAX : j->str[0][0] == 0);
			for (const char *p = j->str[0]; *p; p++)
				CHECK(*p >= 0x20 && *p <= 0x7e);
			CHECK(amount >= 1 && amount <= XD_DEPOSIT_MAX && member_is(b, "amount_minor", amount));
			if (admin || target)
				CHECK(target >= 1 && target < (INT64_C(1) << 53) && member_is(b, "account_id", target));
			else
				CHECK(target == 0 && !cJSON_HasObjectItem(b, "account_id"));
			cJSON_Delete(b);
		} else {
			check_refusal(&r, f_deposit);
		}
		break;
	}
	case 3:
	case 4: {
		bool need_coid = which == 4;
		rc = xd_parse_order(tables, body, len, need_coid, &j->order, &r);
		if (rc == 0) {
			b = check_accepted(body, len, f_order);
			check_order(b, &j->order, need_coid);
			/* what cJSON prints of the body is the same order again */
			char *again = cJSON_PrintUnformatted(b);
			struct xd_order_in o2;
			struct xd_reply r2 = { 0 };
			CHECK(xd_parse_order(tables, again, strlen(again), need_coid, &o2, &r2) == 0);
			CHECK(memcmp(&o2, &j->order, sizeof o2) == 0);
			xd_reply_clear(&r2);
			free(again);
			cJSON_Delete(b);
		} else {
			check_refusal(&r, f_order);
		}
		break;
	}
	case 5:
		rc = xd_parse_stop(body, len, &r);
		if (rc == 0)
			cJSON_Delete(check_accepted(body, len, f_none));
		else
			check_refusal(&r, f_none);
		break;
	case 6: {
		int64_t ms = -1;
		rc = xd_parse_clock(body, len, &ms, &r);
		if (rc == 0) {
			b = check_accepted(body, len, f_clock);
			CHECK(ms >= 1000 && ms <= XD_ADVANCE_MAX * 1000 && ms % 1000 == 0);
			CHECK(member_is(b, "advance_seconds", ms / 1000));
			cJSON_Delete(b);
		} else {
			check_refusal(&r, f_clock);
		}
		break;
	}
	case 7:
		rc = xd_parse_state(body, len, j, &r);
		if (rc == 0) {
			b = check_accepted(body, len, f_state);
			const char *st = member_str(b, "state");
			CHECK(st ? j->n[0] >= EXCHANGE_PRE_OPEN && j->n[0] <= EXCHANGE_HALTED &&
			           streq(st, xd_state_names[j->n[0]]) : j->n[0] == -1);
			const cJSON *oa = cJSON_GetObjectItemCaseSensitive(b, "opens_at");
			CHECK(st || oa);
			CHECK(j->flag[0] == (oa != NULL));
			if (cJSON_IsNull(oa))
				CHECK(j->n[1] == -1);
			else if (oa) {
				CHECK(j->n[1] >= 0);
				CHECK(j->n[0] != EXCHANGE_OPEN);
				check_time(j->n[1]);
			}
			cJSON_Delete(b);
		} else {
			check_refusal(&r, f_state);
		}
		break;
	case 8: {
		char *s = malloc(len + 1);
		memcpy(s, data + 1, len);
		s[len] = 0;
		int64_t ms;
		if (exchange_parse_time(s, &ms) == 0) {
			/* 0000-01-01T00:00:00Z <= the instant < 10000-01-01T00:00:00Z */
			CHECK(ms >= INT64_C(-62167219200000) && ms < INT64_C(253402300800000));
			check_time(ms);
		}
		free(s);
		break;
	}
	case 9:
		rc = xd_parse_key_create(body, len, j, &r);
		if (rc == 0) {
			b = check_accepted(body, len, f_key);
			const char *name = member_str(b, "name"), *scope = member_str(b, "scope");
			CHECK(streq(j->key_name, name ? name : ""));
			CHECK(strlen(j->key_name) <= XD_KEY_NAME_MAX);
			for (const unsigned char *p = (const unsigned char *)j->key_name; *p; p++)
				CHECK(*p >= 0x20 && *p != 0x7f && !(p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f));
			CHECK(streq(xd_scope_names[j->key_scope], scope ? scope : "trade"));
			cJSON_Delete(b);
		} else {
			check_refusal(&r, f_key);
		}
		break;
	case 10: {
		struct xd_alert_in a;
		struct xd_order_in job;
		rc = xd_parse_alert(tables, body, len, &a, &job, &r);
		if (rc == 0) {
			b = check_accepted(body, len, f_alert);
			CHECK(a.when > XD_WHEN_NONE && a.when < XD_WHEN_N);
			CHECK(streq(member_str(b, "when"), xd_when_names[a.when]));
			if (a.when <= XD_WHEN_SPREAD_GTE) {
				CHECK(a.gpu >= 0 && (size_t)a.gpu < tables->n_gpus);
				CHECK(streq(member_str(b, "gpu"), tables->gpu_ids[a.gpu]));
				CHECK(a.price >= (a.when >= XD_WHEN_SPREAD_LTE ? 0 : 1) && a.price <= XD_PRICE_MAX &&
				      member_is(b, "price_cents", a.price));
				CHECK(a.rearm == 0 ? !cJSON_HasObjectItem(b, "rearm_cents")
				                   : a.rearm >= 1 && a.rearm <= XD_PRICE_MAX &&
				                     member_is(b, "rearm_cents", a.rearm));
			} else if (a.when == XD_WHEN_JOB_TOTAL_LTE) {
				check_job_alert(b, &a, &job);
			} else {
				CHECK(a.gpu == -1 && !cJSON_HasObjectItem(b, "gpu") &&
				      !cJSON_HasObjectItem(b, "price_cents"));
			}
			if (a.when == XD_WHEN_RENTAL_ENDING)
				CHECK(a.minutes >= 1 && a.minutes <= 10080 && member_is(b, "minutes", a.minutes));
			CHECK(a.rental_id == 0 || member_is(b, "rental_id", a.rental_id));
			CHECK(a.order_id == 0 || member_is(b, "order_id", a.order_id));
			CHECK(a.rental_id >= 0 && a.rental_id < (INT64_C(1) << 53));
			CHECK(a.order_id >= 0 && a.order_id < (INT64_C(1) << 53));
			if (a.expires_ms != -1)
				check_time(a.expires_ms);
			const char *label = member_str(b, "label");
			CHECK(streq(a.label, label ? label : ""));
			CHECK(strlen(a.label) <= XD_LABEL_MAX);
			for (const unsigned char *p = (const unsigned char *)a.label; *p; p++)
				CHECK(*p >= 0x20 && *p != 0x7f);
			cJSON_Delete(b);
		} else {
			check_refusal(&r, f_alert);
		}
		break;
	}
	}
	xd_reply_clear(&r);
	free(j);
	free(body);
	return 0;
}
