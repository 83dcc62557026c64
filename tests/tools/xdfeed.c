/*
 * xdfeed — one seeded stream of exchange requests fed to gpuxd, for the
 * differential test of the store backends (tests/exchange/test_differential.sh).
 *
 *   xdfeed --seed N --ops N --admin-key KEY URL [URL...]
 *
 * Opens accounts (all currencies, several VAT countries), deposits, then
 * sends N requests drawn from the seed: limit and market orders of every time
 * in force on three GPUs around one price each — asks as lots of nodes of 1, 2,
 * 4 or 8 GPUs (some whole-node only) in the three regions with hosts, bids in
 * units of 1..8 GPUs, some with regions or host minimums — cancels of orders
 * it placed, deposits, stops of rentals it bought, previews. Request i goes to URL
 * number i modulo the count, one at a time, so every backend sees the same
 * requests in the same order. Prints one line per request, "op status code",
 * without ids or times; what the store holds is compared by the test.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/util.h"

#define ACCOUNTS 8
#define MAX_IDS 4096

struct node { int port; int fd; };

static uint64_t rng;
static uint32_t rnd(uint32_t n)
{
	rng += 0x9E3779B97F4A7C15ULL;
	uint64_t x = rng;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return (uint32_t)((x ^ (x >> 31)) % n);
}

static int dial(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
		fatal("xdfeed: connect to 127.0.0.1:%d: %s", port, strerror(errno));
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return fd;
}

/* One request over the node's keep-alive connection; the reply's status and
 * parsed body (NULL if none). */
static int http(struct node *n, const char *method, const char *path, const char *key,
                const char *body, cJSON **out)
{
	if (n->fd < 0)
		n->fd = dial(n->port);
	struct buf req = { 0 }, in = { 0 };
	buf_printf(&req, "%s %s HTTP/1.1\r\nHost: feed\r\n", method, path);
	if (key)
		buf_printf(&req, "Authorization: Bearer %s\r\n", key);
	buf_printf(&req, "Content-Length: %zu\r\n\r\n%s", body ? strlen(body) : 0, body ? body : "");
	if (write(n->fd, req.data, req.len) != (ssize_t)req.len)
		fatal("xdfeed: write: %s", strerror(errno));
	buf_free(&req);
	size_t head = 0, cl = 0;
	for (;;) {
		char chunk[8192];
		ssize_t r = read(n->fd, chunk, sizeof chunk);
		if (r <= 0)
			fatal("xdfeed: %s %s: connection closed", method, path);
		buf_append(&in, chunk, (size_t)r);
		const char *end = head ? NULL : memmem(in.data, in.len, "\r\n\r\n", 4);
		if (end) {
			head = (size_t)(end - in.data) + 4;
			for (const char *p = in.data; p && p < end; p = memchr(p + 1, '\n', (size_t)(end - p - 1)))
				if (strncasecmp(p + (*p == '\n'), "Content-Length:", 15) == 0)
					cl = strtoul(p + (*p == '\n') + 15, NULL, 10);
		}
		if (head && in.len >= head + cl)
			break;
	}
	int status = atoi(in.data + 9);
	*out = cl ? cJSON_ParseWithLength(in.data + head, cl) : NULL;
	buf_free(&in);
	return status;
}

static const char *code_of(const cJSON *j)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "code");
	return cJSON_IsString(c) ? c->valuestring : "-";
}

static int64_t num(const cJSON *j, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, k);
	return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : 0;
}

struct acct { int64_t id; char key[80]; int64_t orders[MAX_IDS], rentals[MAX_IDS]; size_t n_o, n_r; };

static void order(struct node *n, struct acct *a, long i, char *op, size_t opsz)
{
	static const char *const gpus[] = { "h200", "h100-sxm", "l40s" };
	static const int mid[] = { 419, 288, 79 };
	static const char *const tifs[] = { "gtc", "gtc", "gtc", "ioc", "fok" };
	int g = (int)rnd(3);
	bool buy = rnd(2);
	bool market = rnd(10) == 0;
	/* a market order: IOC or FOK with its cap (buy) or floor (sell) */
	char tif[48], price[48];
	snprintf(tif, sizeof tif, "\"time_in_force\":\"%s\",",
	         market ? (rnd(2) ? "ioc" : "fok") : tifs[rnd(5)]);
	int p = mid[g] + (int)rnd(21) - 10 + (buy ? 2 : -2);
	snprintf(price, sizeof price, "\"%s\":%d",
	         !market ? "price_cents" : buy ? "max_price_cents" : "min_price_cents", p);
	static const unsigned ks[] = { 1, 1, 2, 4, 8, 8 };
	static const char *const regions[] = { "eu-west", "eu-central", "us-east" };
	unsigned k = ks[rnd(6)], units = 1 + rnd(3);
	char lot[200];
	if (!buy)
		snprintf(lot, sizeof lot, "\"node_gpus\":%u,\"whole_nodes\":%s,\"region\":\"%s\","
		         "\"ram_gb\":%u,\"cpu_cores\":%u,", k, k > 1 && rnd(4) == 0 ? "true" : "false",
		         regions[rnd(3)], 256u << rnd(4), 16u << rnd(3));
	else if (rnd(2))
		snprintf(lot, sizeof lot, "\"node_gpus\":%u,%s%s", k,
		         rnd(3) == 0 ? "\"regions\":[\"us-east\",\"eu-west\"]," : "",
		         rnd(4) == 0 ? "\"min_ram_gb\":1024," : "");
	else {   /* a plain bid, as before lots */
		lot[0] = '\0';
		k = 1;
		units = 1 + rnd(6);
	}
	char body[600];
	snprintf(body, sizeof body,
	         "{\"client_order_id\":\"f%ld\",\"gpu\":\"%s\",\"side\":\"%s\",\"type\":\"%s\","
	         "%s%s\"gpus\":%u,\"hours\":%u,%s}",
	         i, gpus[g], buy ? "buy" : "sell", market ? "market" : "limit", tif, lot, k * units,
	         1 + rnd(48), price);
	cJSON *r = NULL;
	int st = http(n, "POST", "/v1/orders", a->key, body, &r);
	snprintf(op, opsz, "order %s %d %s %s", gpus[g], st, code_of(r),
	         cJSON_GetObjectItemCaseSensitive(r, "status")
	             ? cJSON_GetObjectItemCaseSensitive(r, "status")->valuestring : "-");
	if (st == 201 && a->n_o < MAX_IDS)
		a->orders[a->n_o++] = num(r, "id");
	const cJSON *f;
	cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(r, "fills"))
		if (buy && a->n_r < MAX_IDS)
			a->rentals[a->n_r++] = num(f, "rental_id");
	cJSON_Delete(r);
}

static void step(struct node *n, struct acct *accts, const char *admin, long i)
{
	struct acct *a = &accts[rnd(ACCOUNTS)];
	uint32_t k = rnd(100);
	char op[200], path[64], body[160];
	cJSON *r = NULL;
	int st;
	if (k < 62) {
		order(n, a, i, op, sizeof op);
		puts(op);
		return;
	}
	if (k < 78 && a->n_o) {
		snprintf(path, sizeof path, "/v1/orders/%" PRId64, a->orders[rnd((uint32_t)a->n_o)]);
		st = http(n, "DELETE", path, a->key, NULL, &r);
		printf("cancel %d %s\n", st, code_of(r));
	} else if (k < 88) {
		snprintf(body, sizeof body, "{\"account_id\":%" PRId64 ",\"amount_minor\":%u,"
		         "\"reference\":\"feed-%ld\"}", a->id, 1000 + rnd(500000), i);
		st = http(n, "POST", "/v1/deposits", admin, body, &r);
		printf("deposit %d %s\n", st, code_of(r));
	} else if (k < 96 && a->n_r) {
		snprintf(path, sizeof path, "/v1/rentals/%" PRId64 "/stop", a->rentals[rnd((uint32_t)a->n_r)]);
		st = http(n, "POST", path, a->key, NULL, &r);
		printf("stop %d %s\n", st, code_of(r));
	} else {
		unsigned nk = 1u << rnd(4);
		snprintf(body, sizeof body, "{\"gpu\":\"h200\",\"side\":\"%s\",\"type\":\"limit\","
		         "\"node_gpus\":%u,\"gpus\":%u,\"hours\":%u,\"price_cents\":%u}",
		         rnd(2) ? "buy" : "sell", nk, nk * (1 + rnd(3)), 1 + rnd(48), 410 + rnd(20));
		st = http(n, "POST", "/v1/orders/preview", a->key, body, &r);
		printf("preview %d %s %" PRId64 "\n", st, code_of(r), num(r, "fill_gpus"));
	}
	cJSON_Delete(r);
}

int main(int argc, char **argv)
{
	long ops = 1000;
	const char *admin = NULL;
	struct node nodes[8];
	int n_nodes = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) rng = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--ops") == 0 && i + 1 < argc) ops = atol(argv[++i]);
		else if (strcmp(argv[i], "--admin-key") == 0 && i + 1 < argc) admin = argv[++i];
		else if (n_nodes < 8 && strncmp(argv[i], "http://127.0.0.1:", 17) == 0)
			nodes[n_nodes++] = (struct node){ .port = atoi(argv[i] + 17), .fd = -1 };
		else {
			fprintf(stderr, "usage: xdfeed --seed N --ops N --admin-key KEY URL [URL...]\n");
			return 2;
		}
	}
	if (!admin || n_nodes == 0) {
		fprintf(stderr, "xdfeed: --admin-key and at least one http://127.0.0.1:PORT are needed\n");
		return 2;
	}
	static const char *const cc[] = { "US", "DE", "GB", "FR", "PT", "US", "ES", "GB" };
	static const char *const cur[] = { "USD", "EUR", "GBP", "EUR", "EUR", "USD", "EUR", "GBP" };
	struct acct *accts = xcalloc(ACCOUNTS, sizeof *accts);
	for (int i = 0; i < ACCOUNTS; i++) {
		char body[200];
		snprintf(body, sizeof body, "{\"email\":\"feed%d@example.com\",\"country\":\"%s\","
		         "\"currency\":\"%s\",\"role\":\"both\"}", i, cc[i], cur[i]);
		cJSON *r = NULL;
		if (http(&nodes[i % n_nodes], "POST", "/v1/accounts", NULL, body, &r) != 201)
			fatal("xdfeed: cannot open an account");
		accts[i].id = num(r, "id");
		snprintf(accts[i].key, sizeof accts[i].key, "%s",
		         cJSON_GetObjectItemCaseSensitive(r, "api_key")->valuestring);
		cJSON_Delete(r);
		snprintf(body, sizeof body, "{\"account_id\":%" PRId64 ",\"amount_minor\":20000000,"
		         "\"reference\":\"feed-setup-%d\"}", accts[i].id, i);
		http(&nodes[i % n_nodes], "POST", "/v1/deposits", admin, body, &r);
		cJSON_Delete(r);
	}
	for (long i = 0; i < ops; i++)
		step(&nodes[i % n_nodes], accts, admin, i);
	for (int i = 0; i < n_nodes; i++)
		if (nodes[i].fd >= 0)
			close(nodes[i].fd);
	free(accts);
	return 0;
}
