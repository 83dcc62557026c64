/*
 * exchange/reads.c — the JSON views of docs/API.md, built from the database:
 * accounts, orders (with their fills), rentals (as buyer or seller), ledger
 * rows and trades (keys.c has the API keys). The same functions serve the HTTP
 * threads (on their read connections) and the writer (on its own connection,
 * inside its transaction, to answer an order with what it is about to commit).
 *
 * Lists are newest first with cursor pagination: the cursor is the last id of
 * a page, the next page is "id < cursor".
 */
#include "exchange/xd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static const char *col_text(struct xd_q *st, int i)
{
	return xd_col_text(st, i);
}

static int64_t col_i(struct xd_q *st, int i)
{
	return xd_col_int64(st, i);
}

static void next_cursor(cJSON *o, bool more, int64_t last)
{
	if (more) {
		char buf[32];
		snprintf(buf, sizeof buf, "%" PRId64, last);
		cJSON_AddStringToObject(o, "next_cursor", buf);
	} else {
		cJSON_AddNullToObject(o, "next_cursor");
	}
}

/* One page of a keyset-paginated listing. `st` yields rows newest first, its
 * first column the id, at most p->limit + 1 of them (the extra one only tells
 * that more exist). The first p->limit rows go, as row(st, ctx), into an array
 * `key` of root; then st is reset and root gets next_cursor (the last id shown,
 * or null when there is no more). */
static void page_rows(struct xd_q *st, const struct xd_page *p, cJSON *root, const char *key,
                      cJSON *(*row)(struct xd_q *st, const void *ctx), const void *ctx)
{
	cJSON *arr = cJSON_AddArrayToObject(root, key);
	int64_t n = 0, last = 0;
	bool more = false;

	while (xd_step(st) == XD_ROW) {
		if (n == p->limit) {
			more = true;
			break;
		}
		last = col_i(st, 0);
		cJSON_AddItemToArray(arr, row(st, ctx));
		n++;
	}
	xd_reset(st);
	next_cursor(root, more, last);
}

/* ---- orders -------------------------------------------------------------------- */

#define ORDER_COLS "o.id, o.client_order_id, o.gpu, o.side, o.type, o.tif, o.gpus, o.hours, " \
	"o.price, o.status, o.filled, o.remaining, o.filled_value, o.hold, o.created_ms, " \
	"o.updated_ms, a.currency, " XD_LOT_COLS ", o.nodes_free"

/* A resting sell's nodes: [{"node":"o41-1","free_gpus":8},…]; a lot stored
 * without its nodes (from before lots) is its remaining GPUs in whole nodes. */
static void nodes_free_json(cJSON *o, int64_t id, int32_t k, int32_t remaining, const char *text)
{
	struct eng_node *nd = NULL;
	size_t n = 0;
	if (remaining <= 0 || (text && xd_nodes_parse(text, k, &nd, &n) != 0))
		return;
	cJSON *a = cJSON_AddArrayToObject(o, "nodes");
	if (!text)
		n = (size_t)(remaining / k);
	for (size_t i = 0; i < n; i++) {
		cJSON *x = cJSON_CreateObject();
		char label[48];
		snprintf(label, sizeof label, "o%" PRId64 "-%zu", id, i + 1);
		cJSON_AddStringToObject(x, "node", label);
		xd_jint(x, "free_gpus", nd ? nd[i].free : k);
		cJSON_AddItemToArray(a, x);
	}
	free(nd);
}

static cJSON *order_json(struct xd_q *st, const struct xd_tables *t)
{
	cJSON *o = cJSON_CreateObject();
	xd_jint(o, "id", col_i(st, 0));
	xd_jstr(o, "client_order_id", col_text(st, 1));
	xd_jstr(o, "gpu", col_text(st, 2));
	xd_jstr(o, "side", col_text(st, 3));
	xd_jstr(o, "type", col_text(st, 4));
	xd_jstr(o, "time_in_force", col_text(st, 5));
	xd_jint(o, "gpus", col_i(st, 6));
	xd_jint(o, "hours", col_i(st, 7));
	xd_jint(o, "price_cents", col_i(st, 8));
	if (strcmp(col_text(st, 4), "market") == 0)
		xd_jint(o, strcmp(col_text(st, 3), "buy") == 0 ? "max_price_cents" : "min_price_cents",
		        col_i(st, 8));
	xd_jstr(o, "status", col_text(st, 9));
	xd_jint(o, "filled_gpus", col_i(st, 10));
	xd_jint(o, "remaining_gpus", col_i(st, 11));
	xd_jint(o, "filled_value_cents", col_i(st, 12));
	xd_jstr(o, "currency", col_text(st, 16));
	xd_jint(o, "hold_minor", col_i(st, 13));
	xd_jtime(o, "created_at", col_i(st, 14));
	xd_jtime(o, "updated_at", col_i(st, 15));
	struct xd_order_in lot = {
		.side = strcmp(col_text(st, 3), "sell") == 0 ? ENG_SELL : ENG_BUY,
	};
	int gpu = xd_tables_gpu(t, col_text(st, 2));
	xd_lot_from_row(t, st, 17, gpu, &lot);
	xd_request_json(o, t, &lot);
	if (lot.side == ENG_SELL)
		nodes_free_json(o, col_i(st, 0), lot.node_gpus, (int32_t)col_i(st, 11),
		                col_text(st, 25));
	return o;
}

static void add_fills(struct xd_store *s, cJSON *o, int64_t id, bool buy)
{
	struct xd_q *st = buy
		? xd_stmt(s, "SELECT id, price, gpus, hours, maker_order, at_ms FROM trades "
		             "WHERE buy_order = ?1 ORDER BY id")
		: xd_stmt(s, "SELECT id, price, gpus, hours, maker_order, at_ms FROM trades "
		             "WHERE sell_order = ?1 ORDER BY id");
	xd_bind_int64(st, 1, id);
	cJSON *arr = cJSON_AddArrayToObject(o, "fills");
	while (xd_step(st) == XD_ROW) {
		cJSON *f = cJSON_CreateObject();
		xd_jint(f, "trade_id", col_i(st, 0));
		xd_jint(f, "price_cents", col_i(st, 1));
		xd_jint(f, "gpus", col_i(st, 2));
		xd_jint(f, "hours", col_i(st, 3));
		xd_jint(f, "rental_id", col_i(st, 0));
		cJSON_AddStringToObject(f, "liquidity", col_i(st, 4) == id ? "maker" : "taker");
		xd_jtime(f, "at", col_i(st, 5));
		cJSON_AddItemToArray(arr, f);
	}
	xd_reset(st);
}

cJSON *xd_read_order(struct xd_store *s, const struct xd_tables *t, int64_t account, int64_t id,
                     bool fills)
{
	struct xd_q *st = xd_stmt(s, "SELECT " ORDER_COLS " FROM orders o JOIN accounts a "
	                              "ON a.id = o.account WHERE o.id = ?1 AND o.account = ?2");
	xd_bind_int64(st, 1, id);
	xd_bind_int64(st, 2, account);
	if (xd_step(st) != XD_ROW) {
		xd_reset(st);
		return NULL;
	}
	cJSON *o = order_json(st, t);
	bool buy = strcmp(col_text(st, 3), "buy") == 0;
	xd_reset(st);
	if (fills)
		add_fills(s, o, id, buy);
	return o;
}

static cJSON *order_row(struct xd_q *st, const void *ctx)
{
	return order_json(st, ctx);
}

cJSON *xd_read_orders(struct xd_store *s, const struct xd_tables *t, int64_t account, const char *status_filter,
                      const char *gpu, const char *side, const char *coid,
                      const struct xd_page *p)
{
	int mode = 0;   /* 0 all, 1 resting, 2 closed, 3 one status */
	if (status_filter && strcmp(status_filter, "open") == 0) mode = 1;
	else if (status_filter && strcmp(status_filter, "closed") == 0) mode = 2;
	else if (status_filter && strcmp(status_filter, "all") != 0) mode = 3;
	struct xd_q *st = xd_stmt(s,
		"SELECT " ORDER_COLS " FROM orders o JOIN accounts a ON a.id = o.account "
		"WHERE o.account = ?1 AND o.id < ?2 AND (CAST(?3 AS TEXT) IS NULL OR o.gpu = ?3) "
		"AND (CAST(?4 AS TEXT) IS NULL OR o.side = ?4) AND (CAST(?5 AS TEXT) IS NULL OR o.client_order_id = ?5) "
		"AND (?6 = 0 OR (?6 = 1 AND o.remaining > 0) OR (?6 = 2 AND o.remaining = 0) "
		"     OR (?6 = 3 AND o.status = ?7)) "
		"ORDER BY o.id DESC LIMIT ?8");
	xd_bind_int64(st, 1, account);
	xd_bind_int64(st, 2, p->before);
	if (gpu) xd_bind_text(st, 3, gpu);
	if (side) xd_bind_text(st, 4, side);
	if (coid) xd_bind_text(st, 5, coid);
	xd_bind_int(st, 6, mode);
	if (mode == 3) xd_bind_text(st, 7, status_filter);
	xd_bind_int64(st, 8, p->limit + 1);
	cJSON *root = cJSON_CreateObject();
	page_rows(st, p, root, "orders", order_row, t);
	return root;
}

/* ---- rentals ------------------------------------------------------------------- */

#define RENTAL_COLS "r.id, r.gpu, r.buyer, r.seller, r.buy_order, r.sell_order, r.gpus, " \
	"r.hours, r.price, r.net_unit, r.vat_unit, r.payout_unit, r.hours_billed, r.status, " \
	"r.started_ms, r.stopped_ms, r.billed, r.refunded, r.paid_out, b.currency, s.currency, " \
	"r.node_gpus, r.interconnect, r.region, NULL, r.cpu_cores, r.ram_gb, r.disk_gb, 0, r.nodes, r.fee_unit, r.fees"

struct rental_ctx { const struct xd_tables *t; int64_t account; };

static cJSON *rental_json(struct xd_q *st, const struct rental_ctx *c)
{
	int64_t account = c->account;
	bool buyer = col_i(st, 2) == account;
	int64_t gpus = col_i(st, 6), hours = col_i(st, 7), billed_h = col_i(st, 12);
	int64_t started = col_i(st, 14);
	bool active = strcmp(col_text(st, 13), "active") == 0;
	cJSON *o = cJSON_CreateObject();
	xd_jint(o, "id", col_i(st, 0));
	xd_jstr(o, "gpu", col_text(st, 1));
	cJSON_AddStringToObject(o, "role", buyer ? "buyer" : "seller");
	xd_jint(o, "order_id", col_i(st, buyer ? 4 : 5));
	xd_jint(o, "trade_id", col_i(st, 0));
	xd_jint(o, "gpus", gpus);
	xd_jint(o, "hours", hours);
	xd_jint(o, "price_cents", col_i(st, 8));
	xd_jstr(o, "status", col_text(st, 13));
	xd_jint(o, "hours_billed", billed_h);
	xd_jtime(o, "started_at", started);
	xd_jtime(o, "ends_at", started + hours * XD_HOUR_MS);
	xd_jtime(o, "stopped_at", xd_col_null(st, 15) ? -1 : col_i(st, 15));
	xd_jtime(o, "next_bill_at", active && billed_h < hours ? started + billed_h * XD_HOUR_MS : -1);
	if (buyer) {
		int64_t unit = col_i(st, 9) + col_i(st, 10);
		xd_jstr(o, "currency", col_text(st, 19));
		xd_jint(o, "unit_minor", unit);
		xd_jint(o, "hourly_minor", gpus * unit);
		xd_jint(o, "hourly_vat_minor", gpus * col_i(st, 10));
		xd_jint(o, "billed_minor", col_i(st, 16));
		xd_jint(o, "refunded_minor", col_i(st, 17));
		xd_jint(o, "held_minor", active ? (hours - billed_h) * gpus * unit : 0);
	} else {
		xd_jstr(o, "currency", col_text(st, 20));
		xd_jint(o, "unit_minor", col_i(st, 11));
		xd_jint(o, "hourly_minor", gpus * col_i(st, 11));
		xd_jint(o, "hourly_vat_minor", 0);
		xd_jint(o, "billed_minor", col_i(st, 18));
		xd_jint(o, "refunded_minor", 0);
		xd_jint(o, "held_minor", 0);
		/* the exchange's trade fee, deducted from each hour's payout */
		xd_jint(o, "hourly_fee_minor", gpus * col_i(st, 30));
		xd_jint(o, "fees_minor", col_i(st, 31));
	}
	struct xd_order_in lot = { .side = ENG_SELL };
	xd_lot_from_row(c->t, st, 21, xd_tables_gpu(c->t, col_text(st, 1)), &lot);
	xd_lot_json(o, c->t, &lot);
	xd_nodes_json(o, "nodes", col_i(st, 5), col_text(st, 29));
	return o;
}

cJSON *xd_read_rental(struct xd_store *s, const struct xd_tables *t, int64_t account, int64_t id)
{
	struct xd_q *st = xd_stmt(s, "SELECT " RENTAL_COLS " FROM rentals r "
	                              "JOIN accounts b ON b.id = r.buyer JOIN accounts s ON s.id = r.seller "
	                              "WHERE r.id = ?1 AND (r.buyer = ?2 OR r.seller = ?2)");
	xd_bind_int64(st, 1, id);
	xd_bind_int64(st, 2, account);
	struct rental_ctx c = { t, account };
	cJSON *o = xd_step(st) == XD_ROW ? rental_json(st, &c) : NULL;
	xd_reset(st);
	return o;
}

static cJSON *rental_row(struct xd_q *st, const void *ctx)
{
	return rental_json(st, ctx);
}

cJSON *xd_read_rentals(struct xd_store *s, const struct xd_tables *t, int64_t account, const char *status_filter,
                       const char *gpu, const struct xd_page *p)
{
	int mode = 0;
	if (status_filter && strcmp(status_filter, "active") == 0) mode = 1;
	else if (status_filter && strcmp(status_filter, "ended") == 0) mode = 2;
	struct xd_q *st = xd_stmt(s,
		"SELECT " RENTAL_COLS " FROM rentals r "
		"JOIN accounts b ON b.id = r.buyer JOIN accounts s ON s.id = r.seller "
		"WHERE r.id IN (SELECT id FROM rentals WHERE buyer = ?1 AND id < ?2 "
		"               UNION ALL SELECT id FROM rentals WHERE seller = ?1 AND id < ?2) "
		"AND (CAST(?3 AS TEXT) IS NULL OR r.gpu = ?3) "
		"AND (?4 = 0 OR (?4 = 1 AND r.status = 'active') OR (?4 = 2 AND r.status <> 'active')) "
		"ORDER BY r.id DESC LIMIT ?5");
	xd_bind_int64(st, 1, account);
	xd_bind_int64(st, 2, p->before);
	if (gpu) xd_bind_text(st, 3, gpu);
	xd_bind_int(st, 4, mode);
	xd_bind_int64(st, 5, p->limit + 1);
	cJSON *root = cJSON_CreateObject();
	struct rental_ctx c = { t, account };
	page_rows(st, p, root, "rentals", rental_row, &c);
	return root;
}

/* ---- ledger, trades ------------------------------------------------------------ */

static cJSON *ledger_row(struct xd_q *st, const void *ctx)
{
	cJSON *e = cJSON_CreateObject();
	xd_jint(e, "id", col_i(st, 0));
	xd_jint(e, "entry_id", col_i(st, 1));
	xd_jstr(e, "kind", col_text(st, 2));
	xd_jstr(e, "bucket", col_text(st, 3));
	xd_jint(e, "amount_minor", col_i(st, 4));
	xd_jstr(e, "currency", col_text(st, 5));
	xd_jint_or_null(e, "order_id", col_i(st, 6), !xd_col_null(st, 6));
	xd_jint_or_null(e, "rental_id", col_i(st, 7), !xd_col_null(st, 7));
	xd_jtime(e, "at", col_i(st, 8));
	return e;
}

cJSON *xd_read_ledger(struct xd_store *s, int64_t account, const struct xd_page *p)
{
	struct xd_q *st = xd_stmt(s,
		"SELECT id, entry, kind, bucket, amount, currency, order_id, rental_id, at_ms "
		"FROM ledger WHERE account = ?1 AND id < ?2 ORDER BY id DESC LIMIT ?3");
	xd_bind_int64(st, 1, account);
	xd_bind_int64(st, 2, p->before);
	xd_bind_int64(st, 3, p->limit + 1);
	cJSON *root = cJSON_CreateObject();
	page_rows(st, p, root, "entries", ledger_row, NULL);
	return root;
}

static cJSON *trade_row(struct xd_q *st, const void *ctx)
{
	cJSON *e = cJSON_CreateObject();
	xd_jint(e, "id", col_i(st, 0));
	xd_jint(e, "price_cents", col_i(st, 1));
	xd_jint(e, "gpus", col_i(st, 2));
	xd_jint(e, "hours", col_i(st, 3));
	xd_jstr(e, "taker_side", col_text(st, 4));
	xd_jtime(e, "at", col_i(st, 5));
	return e;
}

cJSON *xd_read_trades(struct xd_store *s, const char *gpu, const struct xd_page *p)
{
	struct xd_q *st = xd_stmt(s,
		"SELECT id, price, gpus, hours, taker_side, at_ms FROM trades "
		"WHERE gpu = ?1 AND id < ?2 ORDER BY id DESC LIMIT ?3");
	xd_bind_text(st, 1, gpu);
	xd_bind_int64(st, 2, p->before);
	xd_bind_int64(st, 3, p->limit + 1);
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "gpu", gpu);
	page_rows(st, p, root, "trades", trade_row, NULL);
	return root;
}

/* ---- accounts ------------------------------------------------------------------ */

cJSON *xd_read_account(struct xd_store *s, const struct xd_tables *t,
                       const struct xd_settings *set, int64_t now, int64_t id)
{
	struct xd_q *st = xd_stmt(s,
		"SELECT id, email, country, currency, role, available, held, created_ms, "
		" (SELECT count(*) FROM orders WHERE account = ?1 AND remaining > 0), "
		" (SELECT count(*) FROM rentals WHERE buyer = ?1 AND status = 'active') + "
		" (SELECT count(*) FROM rentals WHERE seller = ?1 AND status = 'active'), debt, "
		" (SELECT coalesce(sum(amount), 0) FROM withdrawals WHERE account = ?1 AND "
		"  status = 'pending') "
		"FROM accounts WHERE id = ?1 AND kind IN ('customer', 'demo')");
	xd_bind_int64(st, 1, id);
	if (xd_step(st) != XD_ROW) {
		xd_reset(st);
		return NULL;
	}
	cJSON *o = cJSON_CreateObject();
	xd_jint(o, "id", col_i(st, 0));
	xd_jstr(o, "email", col_text(st, 1));
	xd_jstr(o, "country", col_text(st, 2));
	xd_jstr(o, "currency", col_text(st, 3));
	xd_jstr(o, "role", col_text(st, 4));
	int32_t bp = xd_tables_vat(t, col_text(st, 2));
	xd_jint(o, "vat_rate_bp", bp < 0 ? 0 : bp);
	int cur = xd_settings_cur(set, col_text(st, 3));
	const struct xd_currency *c = cur < 0 ? NULL : &set->cur[cur];
	xd_jint(o, "fx_rate_micro", c ? c->rate_micro : 0);
	xd_jint(o, "currency_exponent", c ? c->exponent : 2);
	xd_jtime(o, "fx_rate_set_at", c ? c->rate_ms : -1);
	cJSON_AddBoolToObject(o, "fx_rate_stale", c && strcmp(c->code, "USD") != 0 &&
	                      set->fx_max_age_s > 0 && now - c->rate_ms > set->fx_max_age_s * 1000);
	xd_jtime(o, "created_at", col_i(st, 7));
	cJSON *b = cJSON_AddObjectToObject(o, "balance");
	xd_jint(b, "available_minor", col_i(st, 5));
	xd_jint(b, "held_minor", col_i(st, 6));
	xd_jint(b, "total_minor", col_i(st, 5) + col_i(st, 6));
	/* what the customer owes after a reversal beyond its balance (>= 0), and
	 * the part of held_minor that waits to be paid out */
	xd_jint(b, "debt_minor", -col_i(st, 10));
	xd_jint(b, "withdrawals_pending_minor", col_i(st, 11));
	xd_jint(o, "open_orders", col_i(st, 8));
	xd_jint(o, "active_rentals", col_i(st, 9));
	xd_reset(st);
	return o;
}
