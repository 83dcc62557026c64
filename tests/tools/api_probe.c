/*
 * api_probe — drives the exchange client library (api/) for the shell tests.
 *
 *   api_probe [--url URL] [--key KEY] [--timeout-ms N] [--attempts N]
 *             [--backoff-ms N] COMMAND [ARGS]
 *
 *   suite               every endpoint against a real gpuxd --demo, printing
 *                       "ok - …" / "not ok - …" lines (creates its own account)
 *   quotes              one GET /v1/quotes: "quotes n=15 h200=419 etag=…"
 *   place GPU SIDE TYPE GPUS HOURS PRICE COID
 *                       one order: "order id=… coid=… status=… replayed=… reconciled=…"
 *   orders-by COID      "orders n=N" for that client_order_id
 *   pump                the asynchronous interface: many requests at once
 *                       through api_fds/poll/api_perform; reports the longest
 *                       api_perform call ("pump ok=N err=N max_perform_ms=M")
 *
 * A failed request prints "error kind=K status=S code=C attempts=N: TEXT" and
 * exits 1.
 */
#include "api/api.h"

#include "util/util.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void tap(bool ok, const char *what, const char *why)
{
	if (ok) {
		printf("ok - %s\n", what);
	} else {
		printf("not ok - %s%s%s\n", what, why != NULL ? ": " : "", why != NULL ? why : "");
		failures++;
	}
	fflush(stdout);
}

static void print_error(const struct api_error *e)
{
	char *t = api_error_text(e);

	printf("error kind=%s status=%d code=%s attempts=%d coid=%s: %s\n", api_err_name(e->kind),
	       e->http_status, e->code != NULL ? e->code : "-", e->attempts,
	       e->client_order_id != NULL ? e->client_order_id : "-", t);
	free(t);
}

static char *etext(const struct api_error *e)
{
	return e != NULL ? api_error_text(e) : xstrdup("no error");
}

/* ---- the suite ------------------------------------------------------------------ */

static void suite(const struct api_config *base)
{
	struct api_config cfg = *base;
	struct api_client *pub = api_client_new(&cfg, NULL), *me = NULL, *bad = NULL;
	struct api_error *e = NULL;
	struct api_market *m = NULL;
	struct api_gpus *g = NULL;
	struct api_workloads *w = NULL;
	struct api_quotes *q = NULL, *q2 = NULL;
	struct api_book *b = NULL;
	struct api_account *acc = NULL, *a2 = NULL;
	struct api_deposit *d = NULL;
	struct api_preview *pv = NULL;
	struct api_order *o = NULL, *o2 = NULL, *o3 = NULL, *lim = NULL, *cx = NULL;
	struct api_orders *ol = NULL;
	struct api_rentals *rl = NULL;
	struct api_rental *st = NULL;
	struct api_ledger *lg = NULL;
	struct api_trades *tr = NULL;
	char *t, *coid, *key = NULL;
	bool found;
	int64_t ask = -1, rental = -1;

	/* public market data */
	if (api_market(pub, &m, &e) == 0) {
		bool usd = false, pt = false;
		for (size_t i = 0; i < m->n_fx; i++)
			usd |= strcmp(m->fx[i].key, "USD") == 0 && m->fx[i].value == 1000000;
		for (size_t i = 0; i < m->n_vat; i++)
			pt |= strcmp(m->vat[i].key, "PT") == 0 && m->vat[i].value == 2300;
		tap(m->state == API_MARKET_OPEN && m->demo, "market: open demo market", NULL);
		tap(usd && pt, "market: FX USD = 1000000 micro, VAT PT = 2300 bp", NULL);
		tap(m->server_time > 1700000000, "market: server_time decoded", NULL);
	} else {
		tap(false, "market", t = etext(e));
		free(t);
	}
	api_error_free(&e);
	if (api_gpus(pub, &g, &e) == 0) {
		found = false;
		for (size_t i = 0; i < g->n; i++)
			found |= strcmp(g->v[i].id, "h200") == 0 && g->v[i].memory_gb == 141;
		tap(g->n == 15 && found, "gpus: 15 GPUs, h200 with 141 GB", NULL);
	} else {
		tap(false, "gpus", t = etext(e));
		free(t);
	}
	api_error_free(&e);
	if (api_workloads(pub, &w, &e) == 0)
		tap(w->n == 6 && strcmp(w->v[0].id, "training") == 0 && w->v[0].n_gpus == 9,
		    "workloads: 6, training first with 9 GPUs", NULL);
	else {
		tap(false, "workloads", t = etext(e));
		free(t);
	}
	api_error_free(&e);
	if (api_quotes(pub, NULL, &q, &e) == 0) {
		const struct api_quote *h = api_quotes_find(q, "h200");
		ask = h != NULL ? h->best_ask_cents : -1;
		/* docs/API.md, demo market: H200's best ask at start is the seed page's
		 * "a partir de US$ 4,19"; the drift moves it a cent or two at most */
		tap(q->n == 15 && ask >= 410 && ask <= 430, "quotes: 15 GPUs, H200 ask near 419",
		    NULL);
		tap(q->etag != NULL && q->etag[0] != '\0', "quotes: ETag kept", NULL);
		/* the same ETag gives 304 → unchanged (unless the drift moved a price) */
		found = false;
		for (int i = 0; i < 5 && !found; i++) {
			char *tag = xstrdup(q->etag);
			if (api_quotes(pub, tag, &q2, &e) == 0) {
				found = q2->unchanged && q2->n == 0;
				if (!found) {
					api_quotes_free(&q);
					q = q2;
					q2 = NULL;
				}
			}
			api_quotes_free(&q2);
			api_error_free(&e);
			free(tag);
		}
		tap(found, "quotes: If-None-Match → unchanged", NULL);
	} else {
		tap(false, "quotes", t = etext(e));
		free(t);
	}
	api_error_free(&e);
	if (api_book(pub, "h200", 3, &b, &e) == 0)
		tap(b->n_asks == 3 && b->asks[0].price_cents < b->asks[1].price_cents &&
		    b->n_bids >= 1 && b->bids[0].price_cents < b->asks[0].price_cents,
		    "book h200 depth 3: 3 rising asks above the bids", NULL);
	else {
		tap(false, "book", t = etext(e));
		free(t);
	}
	api_error_free(&e);
	api_book_free(&b);
	if (api_book(pub, "h999", 3, &b, &e) != 0)
		tap(e->kind == API_ERR_HTTP && e->http_status == 404 && e->code != NULL &&
		    strcmp(e->code, "UNKNOWN_GPU") == 0, "book of an unknown GPU: 404 UNKNOWN_GPU", NULL);
	else
		tap(false, "book of an unknown GPU is an error", NULL);
	api_error_free(&e);

	/* an account of our own */
	if (api_account_create(pub, "probe@example.pt", "PT", "EUR", API_ROLE_BOTH, &acc, &e) == 0) {
		tap(acc->api_key != NULL && strncmp(acc->api_key, "gpux_", 5) == 0 &&
		    acc->vat_rate_bp == 2300, "accounts: created, key shown once, VAT 23 %", NULL);
		key = xstrdup(acc->api_key);
	} else {
		tap(false, "accounts: create", t = etext(e));
		free(t);
		goto out;
	}
	api_error_free(&e);
	cfg.key = key;
	me = api_client_new(&cfg, NULL);
	if (api_account(me, &a2, &e) == 0)
		tap(a2->has_balance && a2->balance.total_minor == 0 && a2->id == acc->id,
		    "account: own account, balance 0", NULL);
	else {
		tap(false, "account", t = etext(e));
		free(t);
	}
	api_error_free(&e);
	api_account_free(&a2);
	if (api_deposit(me, 500000, &d, &e) == 0)
		tap(d->balance.available_minor == 500000 && strcmp(d->currency, "EUR") == 0,
		    "deposits: 5000.00 EUR available", NULL);
	else {
		tap(false, "deposits", t = etext(e));
		free(t);
	}
	api_error_free(&e);

	/* a market buy: preview, place, replay */
	struct api_order_req req = {.gpu = "h200", .side = API_BUY, .type = API_MARKET, .gpus = 8,
				    .hours = 24, .price_cents = 500, .tif = API_TIF_DEFAULT};
	if (api_order_preview(me, &req, &pv, &e) == 0)
		tap(pv->would_status == API_ORDER_FILLED && pv->fill_gpus == 8 &&
		    pv->total_minor > 0 && pv->reject_code == NULL,
		    "orders/preview: would fill 8 GPUs", NULL);
	else {
		tap(false, "orders/preview", t = etext(e));
		free(t);
	}
	api_error_free(&e);
	coid = api_client_order_id_new();
	req.client_order_id = coid;
	if (api_order_place(me, &req, &o, &e) == 0) {
		tap(o->status == API_ORDER_FILLED && o->filled_gpus == 8 && o->has_fills &&
		    o->n_fills >= 1 && !o->replayed && strcmp(o->client_order_id, coid) == 0,
		    "orders: market buy filled, with fills, not a replay", NULL);
		rental = o->n_fills > 0 ? o->fills[0].rental_id : -1;
	} else {
		tap(false, "orders: place", t = etext(e));
		free(t);
	}
	api_error_free(&e);
	if (o != NULL && api_order_place(me, &req, &o2, &e) == 0)
		tap(o2->replayed && o2->id == o->id, "orders: same client_order_id → the same order (200)",
		    NULL);
	else {
		tap(false, "orders: replay", t = etext(e));
		free(t);
	}
	api_error_free(&e);
	if (o != NULL && pv != NULL && api_account(me, &a2, &e) == 0)
		tap(a2->balance.available_minor == pv->balance_after_minor,
		    "account: available balance is the preview's balance_after", NULL);
	api_error_free(&e);
	api_account_free(&a2);
	if (o != NULL && api_order_get(me, o->id, &o3, &e) == 0)
		tap(o3->id == o->id && o3->has_fills && o3->n_fills == o->n_fills,
		    "orders/{id}: the order with its fills", NULL);
	else {
		tap(false, "orders/{id}", t = etext(e));
		free(t);
	}
	api_error_free(&e);
	if (api_orders(me, &(struct api_list_query){.status = "all"}, &ol, &e) == 0) {
		found = false;
		for (size_t i = 0; o != NULL && i < ol->n; i++)
			found |= ol->v[i].id == o->id && !ol->v[i].has_fills;
		tap(found, "orders: listed, without fills", NULL);
	} else {
		tap(false, "orders: list", t = etext(e));
		free(t);
	}
	api_error_free(&e);
	api_orders_free(&ol);
	if (api_orders(me, &(struct api_list_query){.client_order_id = coid}, &ol, &e) == 0)
		tap(ol->n == 1, "orders?client_order_id=: exactly one", NULL);
	api_error_free(&e);
	api_orders_free(&ol);
	if (api_rentals(me, &(struct api_list_query){.status = "active"}, &rl, &e) == 0) {
		found = false;
		for (size_t i = 0; i < rl->n; i++)
			found |= rl->v[i].id == rental && !rl->v[i].seller &&
				 rl->v[i].status == API_RENTAL_ACTIVE && rl->v[i].hours == 24;
		tap(found, "rentals: the fill's rental is active", NULL);
	} else {
		tap(false, "rentals", t = etext(e));
		free(t);
	}
	api_error_free(&e);
	if (api_ledger(me, &(struct api_list_query){.limit = 200}, &lg, &e) == 0) {
		found = false;
		for (size_t i = 0; i < lg->n; i++)
			found |= lg->v[i].kind == API_LEDGER_DEPOSIT && lg->v[i].amount_minor == 500000;
		tap(found && lg->n >= 3, "ledger: the deposit and the order's entries", NULL);
	} else {
		tap(false, "ledger", t = etext(e));
		free(t);
	}
	api_error_free(&e);
	if (api_trades(pub, "h200", NULL, &tr, &e) == 0)
		tap(tr->n >= 1 && strcmp(tr->gpu, "h200") == 0, "trades h200: ours is there", NULL);
	else {
		tap(false, "trades", t = etext(e));
		free(t);
	}
	api_error_free(&e);

	/* a resting limit order, cancelled; cancelled again → 409 */
	struct api_order_req lreq = {.gpu = "h200", .side = API_BUY, .type = API_LIMIT, .gpus = 1,
				     .hours = 2, .price_cents = 100, .tif = API_GTC};
	if (api_order_place(me, &lreq, &lim, &e) == 0 && lim->status == API_ORDER_OPEN) {
		tap(lim->remaining_gpus == 1 && lim->hold_minor > 0, "orders: limit buy rests, held",
		    NULL);
		if (api_order_cancel(me, lim->id, &cx, &e) == 0)
			tap(cx->status == API_ORDER_CANCELLED && cx->hold_minor == 0,
			    "DELETE orders/{id}: cancelled, hold released", NULL);
		else {
			tap(false, "cancel", t = etext(e));
			free(t);
		}
		api_error_free(&e);
		api_order_free(&cx);
		if (api_order_cancel(me, lim->id, &cx, &e) != 0)
			tap(e->http_status == 409 && strcmp(e->code, "ORDER_NOT_OPEN") == 0,
			    "cancel again: 409 ORDER_NOT_OPEN", NULL);
		else
			tap(false, "cancel again is an error", NULL);
	} else {
		tap(false, "orders: limit buy", t = etext(e));
		free(t);
	}
	api_error_free(&e);
	if (rental > 0 && api_rental_stop(me, rental, &st, &e) == 0)
		tap(st->status == API_RENTAL_STOPPED && st->refunded_minor > 0 && st->held_minor == 0,
		    "rentals/{id}/stop: stopped, unused hours refunded", NULL);
	else {
		tap(false, "rentals stop", t = etext(e));
		free(t);
	}
	api_error_free(&e);
	api_order_free(&o3);
	if (api_order_get(me, 987654321, &o3, &e) != 0)
		tap(e->http_status == 404 && strcmp(e->code, "NOT_FOUND") == 0,
		    "orders/{unknown}: 404 NOT_FOUND", NULL);
	else
		tap(false, "orders/{unknown} is an error", NULL);
	api_error_free(&e);

	/* a wrong key: 401, and the key appears nowhere in the message */
	cfg.key = "gpux_0000000000000000000000000000000000000000000000000000000000000bad";
	bad = api_client_new(&cfg, NULL);
	if (api_account(bad, &a2, &e) != 0) {
		t = api_error_text(e);
		tap(e->http_status == 401 && strcmp(e->code, "UNAUTHORIZED") == 0,
		    "account with an unknown key: 401 UNAUTHORIZED", NULL);
		tap(strstr(t, "0000bad") == NULL && strstr(e->message, "0000bad") == NULL,
		    "the key is not in the error", t);
		free(t);
	} else {
		tap(false, "an unknown key is refused", NULL);
	}
	api_error_free(&e);
	free(coid);
out:
	api_error_free(&e);
	api_market_free(&m);
	api_gpus_free(&g);
	api_workloads_free(&w);
	api_quotes_free(&q);
	api_book_free(&b);
	api_account_free(&acc);
	api_account_free(&a2);
	api_deposit_free(&d);
	api_preview_free(&pv);
	api_order_free(&o);
	api_order_free(&o2);
	api_order_free(&o3);
	api_order_free(&lim);
	api_order_free(&cx);
	api_orders_free(&ol);
	api_rentals_free(&rl);
	api_rental_free(&st);
	api_ledger_free(&lg);
	api_trades_free(&tr);
	api_client_free(&pub);
	api_client_free(&me);
	api_client_free(&bad);
	free(key);
}

/* ---- the asynchronous interface ------------------------------------------------- */

struct tally {
	int ok, err, pending;
};

static void on_quotes(void *ud, struct api_quotes *r, const struct api_error *e)
{
	struct tally *t = ud;

	t->pending--;
	if (r != NULL)
		t->ok++;
	else
		t->err++;
	api_quotes_free(&r);
}

static void on_market(void *ud, struct api_market *r, const struct api_error *e)
{
	struct tally *t = ud;

	t->pending--;
	if (r != NULL)
		t->ok++;
	else
		t->err++;
	api_market_free(&r);
}

static int pump(struct api_client *c, int n)
{
	struct tally t = {0};
	struct pollfd fds[64];
	int64_t worst = 0, deadline = util_now_ms() + 60000;

	for (int i = 0; i < n; i++) {
		t.pending += 2;
		api_quotes_start(c, NULL, on_quotes, &t);
		api_market_start(c, on_market, &t);
	}
	/* nothing is delivered before the pump runs */
	if (t.ok + t.err != 0) {
		printf("pump delivered from inside *_start\n");
		return 1;
	}
	while (t.pending > 0 && util_now_ms() < deadline) {
		int timeout = 1000;
		int k = api_fds(c, fds, 64, &timeout);
		int64_t t0;
		poll(fds, (nfds_t)k, timeout);
		t0 = util_now_ms();
		api_perform(c);
		if (util_now_ms() - t0 > worst)
			worst = util_now_ms() - t0;
	}
	printf("pump ok=%d err=%d pending=%d max_perform_ms=%lld\n", t.ok, t.err, api_pending(c),
	       (long long)worst);
	return t.pending == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct api_config cfg = {.url = getenv("GPUX_API"), .key = getenv("GPUX_API_KEY")};
	struct api_client *c;
	struct api_error *e = NULL;
	char *cause = NULL;
	int i = 1;

	for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
		if (strcmp(argv[i], "--url") == 0)
			cfg.url = argv[i + 1];
		else if (strcmp(argv[i], "--key") == 0)
			cfg.key = argv[i + 1];
		else if (strcmp(argv[i], "--timeout-ms") == 0)
			cfg.timeout_ms = atol(argv[i + 1]);
		else if (strcmp(argv[i], "--attempts") == 0)
			cfg.max_attempts = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--backoff-ms") == 0)
			cfg.backoff_ms = atol(argv[i + 1]);
		else
			break;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: api_probe [--url URL] [--key KEY] [--timeout-ms N] "
				"[--attempts N] [--backoff-ms N] suite|quotes|place|orders-by|pump\n");
		return 2;
	}
	if (strcmp(argv[i], "suite") == 0) {
		suite(&cfg);
		return failures != 0;
	}
	if ((c = api_client_new(&cfg, &cause)) == NULL) {
		printf("error kind=config: %s\n", cause);
		free(cause);
		return 1;
	}
	if (strcmp(argv[i], "quotes") == 0) {
		struct api_quotes *q = NULL;
		if (api_quotes(c, NULL, &q, &e) != 0) {
			print_error(e);
			api_error_free(&e);
			api_client_free(&c);
			return 1;
		}
		const struct api_quote *h = api_quotes_find(q, "h200");
		printf("quotes n=%zu h200=%lld etag=%s\n", q->n,
		       (long long)(h != NULL ? h->best_ask_cents : -1), q->etag != NULL ? q->etag : "-");
		api_quotes_free(&q);
	} else if (strcmp(argv[i], "place") == 0 && argc - i == 8) {
		struct api_order_req r = {
			.gpu = argv[i + 1],
			.side = strcmp(argv[i + 2], "sell") == 0 ? API_SELL : API_BUY,
			.type = strcmp(argv[i + 3], "market") == 0 ? API_MARKET : API_LIMIT,
			.gpus = atoi(argv[i + 4]), .hours = atoi(argv[i + 5]),
			.price_cents = atoll(argv[i + 6]), .client_order_id = argv[i + 7],
			.tif = API_TIF_DEFAULT,
		};
		struct api_order *o = NULL;
		if (api_order_place(c, &r, &o, &e) != 0) {
			print_error(e);
			api_error_free(&e);
			api_client_free(&c);
			return 1;
		}
		printf("order id=%lld coid=%s status=%s replayed=%d reconciled=%d\n", (long long)o->id,
		       o->client_order_id, api_order_status_name(o->status), o->replayed,
		       o->reconciled);
		api_order_free(&o);
	} else if (strcmp(argv[i], "orders-by") == 0 && argc - i == 2) {
		struct api_orders *l = NULL;
		if (api_orders(c, &(struct api_list_query){.client_order_id = argv[i + 1]}, &l, &e) != 0) {
			print_error(e);
			api_error_free(&e);
			api_client_free(&c);
			return 1;
		}
		printf("orders n=%zu\n", l->n);
		api_orders_free(&l);
	} else if (strcmp(argv[i], "pump") == 0) {
		int rc = pump(c, argc - i > 1 ? atoi(argv[i + 1]) : 10);
		api_client_free(&c);
		return rc;
	} else {
		fprintf(stderr, "api_probe: unknown command %s\n", argv[i]);
		api_client_free(&c);
		return 2;
	}
	api_client_free(&c);
	return 0;
}
