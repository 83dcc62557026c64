/*
 * gpux's command line as data: the command table (name, function, synopsis,
 * help, options, whether it needs the catalogue, more help), each command's
 * options, and the global options. main.c parses argv with them, --help and
 * the shell completions (completion.c) print them, tests/cli/test_docs.sh
 * holds the manual page to them; the commands themselves live in cmd_*.c.
 */
#include "cli/cli.h"
#include "cli/cli_int.h"

#include <stddef.h>

#include "i18n/i18n.h"

const struct cli_command cli_commands[] = {
	{"table", cli_cmd_table, "WORKLOAD", N_("print a workload's GPU table"), cli_table_opts, true,
	 N_("WORKLOAD: training, finetune, inference, imagegen, rendering, hpc.\n"
	    "COLUMN: a column id as in the csv header, e.g. memory, bandwidth, fit_full_8, price.\n"
	    "csv and json give raw numbers (price in US cents per GPU-hour); empty or null = not published.")},
	{"fit", cli_cmd_fit, "SIZE|PRESET", N_("which GPUs a model fits on, how many it needs, and the cost"),
	 cli_fit_opts, true,
	 N_("SIZE: billions of parameters (70, 70B, 7.5, 1.3T, 350M); PRESET: a model id such as\n"
	    "llama-3.1-70b, qwen2.5-7b, mixtral-8x7b, deepseek-v3, sdxl, flux.1-dev.\n"
	    "Memory is per GPU in GB (10^9 bytes); csv and json add the breakdown (mem_*_gb),\n"
	    "price and cost in US cents, train_hours, decode_tokens_s.")},
	/* ---- exchange commands (cli/cmd_exchange.c) ---------------------------- */
	{"quotes", cli_cmd_quotes, "", N_("best bid and ask of every GPU on the exchange"),
	 cli_quotes_opts, true,
	 N_("csv and json give prices in US cents per GPU-hour; null = no order on that side.")},
	{"book", cli_cmd_book, "GPU", N_("the order book of one GPU"), cli_book_opts, true,
	 N_("GPU: a catalogue id such as h200, b200, mi300x, rtx-4090 (see gpux quotes).\n"
	    "csv and json: side (ask, bid), price_cents (US cents per GPU-hour), gpus, orders.")},
	{"order", cli_cmd_order, "buy|sell GPU", N_("preview and place an order"), cli_order_opts, true,
	 N_("PRICE: US$ per GPU-hour before tax, as you write it: 4.19 (or 4,19 in languages\n"
	    "with a decimal comma). The exchange's preview is shown first; on a terminal gpux\n"
	    "asks before placing, elsewhere it needs --yes. Exit status 1 when it is refused,\n"
	    "not confirmed, or expires with nothing filled. csv and json: one row, prices in\n"
	    "US cents (*_cents), money in minor units of the account's currency (*_minor).\n"
	    "Example:\n"
	    "  gpux order buy h200 --gpus 8 --hours 24 --market --max-price 5 --yes")},
	{"job", cli_cmd_job, "SIZE|PRESET", N_("run a fit job at the lowest total across every GPU (a job order)"),
	 cli_job_opts, true,
	 N_("The job is built as gpux fit builds it (the same options); the exchange prices it\n"
	    "on every GPU in the machines it needs and places the cheapest as one order that\n"
	    "fills whole or not at all. AMOUNT: in your account's currency, VAT included.\n"
	    "csv and json: one row per GPU compared (chosen, runnable, gpus, node_gpus, nodes,\n"
	    "interconnect, hours, total_minor, reason), order_id and status once placed.\n"
	    "Example:\n"
	    "  gpux job llama-3.1-405b --method infer-fp8 --hours 24 --max-total 900 --yes")},
	{"orders", cli_cmd_orders, "", N_("your orders"), cli_orders_opts, true,
	 N_("csv and json add client_order_id, hold_minor and currency: price_cents in US cents\n"
	    "per GPU-hour, the hold in minor units of that currency, created_at in ISO 8601 UTC.")},
	{"cancel", cli_cmd_cancel, "ORDER", N_("cancel the resting part of an order"), cli_cancel_opts,
	 false,
	 N_("ORDER: an order id (see gpux orders). Fills already made stay; the hold for the\n"
	    "rest is released. Exit status 1 when the order no longer rests or is not yours.")},
	{"rentals", cli_cmd_rentals, "", N_("your rentals (GPU-hours bought or sold)"), cli_rentals_opts,
	 true,
	 N_("csv and json add currency and order_id: price_cents in US cents per GPU-hour,\n"
	    "*_minor in minor units of that currency (VAT included), times in ISO 8601 UTC.")},
	{"stop", cli_cmd_stop, "RENTAL", N_("stop a rental now; unused hours are refunded"),
	 cli_stop_opts, false,
	 N_("RENTAL: a rental id (see gpux rentals). Hours already begun stay billed, the rest\n"
	    "are refunded at once. Exit status 1 when it has ended or is not yours.")},
	{"account", cli_cmd_account, "", N_("your account and balances"), cli_account_opts, false,
	 N_("csv and json: balances in minor units of the currency (available_minor, held_minor,\n"
	    "total_minor), vat_rate_bp in basis points (2300 is 23 percent), local_demo.")},
	{"deposit", cli_cmd_deposit, "AMOUNT", N_("top up your balance (demo exchanges)"),
	 cli_deposit_opts, false,
	 N_("AMOUNT: in your account's currency, as you write it: 500 or 500.00 (500,00 in\n"
	    "languages with a decimal comma). Only demo exchanges take deposits from gpux.\n"
	    "csv and json: amount_minor and the balances, in minor units of the currency.")},
	/* ---- market data (cli/cmd_market.c) ------------------------------------------ */
	{"trades", cli_cmd_trades, "GPU", N_("the latest trades of one GPU"), cli_trades_opts, true,
	 N_("csv and json: id, at (ISO 8601 UTC), price_cents (US cents per GPU-hour), gpus,\n"
	    "hours, taker_side (buy: a buyer took an ask; sell: a seller hit a bid).")},
	{"candles", cli_cmd_candles, "GPU", N_("price history of one GPU: open, high, low, close per interval"),
	 cli_candles_opts, true,
	 N_("Computed by the exchange from its trades; an interval without trades is left out.\n"
	    "csv and json: start (ISO 8601 UTC), open_cents, high_cents, low_cents, close_cents\n"
	    "(US cents per GPU-hour), gpus, gpu_hours, trades.")},
	{"watch", cli_cmd_watch, "[GPU...]", N_("print trades and price changes as they happen"),
	 cli_watch_opts, true,
	 N_("Follows the exchange's market stream until interrupted (Ctrl-C): one line per trade\n"
	    "or change of a GPU's best bid, best ask or last price; all GPUs when none is given.\n"
	    "csv: a header, then one row per change; json: one object per line. Columns: at, gpu,\n"
	    "kind (trade, quote), trade_id, price_cents, gpus, hours, taker_side, best_bid_cents,\n"
	    "best_ask_cents, last_cents. Exit status 1 when the stream cannot be had.\n"
	    "--alerts: your account's events instead (alerts fired, conditional orders entering the\n"
	    "book, standing orders buying, renewing or stopping), each shown once across reconnects\n"
	    "and restarts of the exchange; json: each event's own object, one per line; csv: id, at,\n"
	    "kind, gpu, json. --exec CMD runs CMD for each event with its JSON on standard input\n"
	    "(GPUX_EVENT_ID and GPUX_EVENT_KIND set). Exit status 1 when the stream cannot be had,\n"
	    "is refused, or stays lost for --give-up seconds.")},
	{"alert", cli_cmd_alert, "add [GPU|MODEL]|list|rm ID...", N_("alerts the exchange keeps for you: add, list, remove"),
	 cli_alert_opts, true,
	 N_("add GPU --ask-below PRICE (or --ask-above, --bid-below, --bid-above, --last-below,\n"
	    "--last-above, --spread-below, --spread-above), add --rental-ending MINUTES [--rental ID],\n"
	    "add --order-filled [--order ID], add SIZE|PRESET --job-total-below AMOUNT [--hours H]\n"
	    "[--region R] with gpux job's options: when the cheapest total of that job (what gpux\n"
	    "job would pay, VAT included, in your account's currency) is at or below AMOUNT.\n"
	    "An alert fires once, or with --rearm PRICE (a job alert: an AMOUNT) again each\n"
	    "time the price has moved back by that much and crosses once more; the exchange keeps it and\n"
	    "tells you on gpux watch --alerts (and the TUI) even when gpux is not running. A read-only\n"
	    "key may manage alerts; an account has at most 100 live ones, 10 of them job alerts.\n"
	    "csv and json: id, when, gpu, price_cents, minutes, rental_id, order_id, rearm_cents,\n"
	    "model, method, hours, max_total_minor, rearm_minor, currency, state (armed, rearming,\n"
	    "fired, expired), fired_count, last_fired_at, expires_at, label.\n"
	    "Examples:\n"
	    "  gpux alert add h100-sxm --ask-below 2.80 --label 'cheap H100'\n"
	    "  gpux alert add llama-3.1-405b --method infer-fp8 --hours 24 --job-total-below 900")},
	{"demo", cli_cmd_demo, "status|stop|reset", N_("the local demo exchange in the background: see, stop or reset it"),
	 cli_demo_opts, false,
	 N_("With no exchange configured gpux starts a demo exchange of its own in the background\n"
	    "(gpuxd --demo on a Unix socket, data in $XDG_DATA_HOME/gpux); it stops by itself\n"
	    "after 5 minutes without a connection (GPUX_DEMO_IDLE seconds).\n"
	    "status: whether it runs, its process, socket and files (csv and json: running, pid,\n"
	    "stale_binary, socket, data_dir, db_bytes, wal_bytes, log). stop: stop it now.\n"
	    "reset: stop it and delete its market and demo account (asks first; --yes)."),
	},
	/* ---- account commands (cli/cmd_signup.c, cli/cmd_account.c) -------------- */
	{"signup", cli_cmd_signup, "", N_("open an account on the exchange; its key is saved for you"),
	 cli_signup_opts, false,
	 N_("Needs a real exchange: --api URL, GPUX_API or api = URL in the config file.\n"
	    "On a terminal it asks for what the flags do not give; elsewhere it needs all four\n"
	    "fields and --yes. The key is written to the config file (mode 0600), which then\n"
	    "also names the exchange; it is printed only with --show-key.\n"
	    "Example:\n"
	    "  gpux signup --api https://exchange.example --email ana@example.pt --country PT \\\n"
	    "    --currency EUR --role buyer --yes")},
	{"keys", cli_cmd_keys, "[list|create|revoke ID]", N_("your API keys: list, create, revoke"),
	 cli_keys_opts, false,
	 N_("A trade key may do everything the account may; a read-only key (--read-only) may\n"
	    "not order, cancel, stop rentals, deposit or manage keys. A new key is shown once.\n"
	    "A revoked key stops working at once; the last trade key cannot be revoked.\n"
	    "csv and json: id, name, scope (trade, read), created_at, last_used_at, current;\n"
	    "create adds api_key, revoke gives revoked_at.")},
	{"withdraw", cli_cmd_withdraw, "AMOUNT", N_("ask the exchange to pay out part of your balance"),
	 cli_withdraw_opts, false,
	 N_("AMOUNT: in your account's currency, as you write it (500, 500.00). The amount is held\n"
	    "at once and paid out when the exchange's operator sends it (or released if the\n"
	    "operator rejects it). csv and json: id, amount_minor, currency, status, reference.")},
	{"admin", cli_cmd_admin, "ACTION",
	 N_("run the exchange: market state, money in and out, FX, fees, admin keys"), cli_admin_opts,
	 false,
	 N_("Needs an admin key: --key-file FILE (the package's bootstrap key is\n"
	    "/etc/gpuxd/admin.key) or GPUX_ADMIN_KEY; never the account key of the config file.\n"
	    "  open, halt                        the market's state, for every node at once\n"
	    "  schedule TIME|none                the opening (ISO 8601 UTC): it opens by itself then\n"
	    "  deposit ACCOUNT AMOUNT --reference REF\n"
	    "                                    credit a payment; the same REF never credits twice\n"
	    "  reverse-deposit REF [--debt] [--reason TEXT]   a chargeback\n"
	    "  withdrawals [--status S]          what customers asked to be paid\n"
	    "  withdrawal approve ID --reference REF | reject ID [--reason TEXT]\n"
	    "  accounts [TEXT]                   customers by e-mail or id\n"
	    "  ledger ACCOUNT                    an account's ledger rows\n"
	    "  fx show | set CURRENCY RATE [--exponent D] | limit --max-age HOURS [--halt]\n"
	    "  fees show | set [--trade BP] [--forward-cancel BP] [--resale BP]\n"
	    "  topup [--url URL] [--text TEXT]   how customers top up\n"
	    "  keys [list | create NAME | revoke ID]   admin keys (a new one is printed once)\n"
	    "RATE: units of the currency per US$ (0.92, 150.25). BP: basis points, 100 = 1 %.")},
	/* ---- end of exchange commands --------------------------------------------- */
	{NULL, NULL, NULL, NULL, NULL, false, NULL},
};

/* ---- each command's options ------------------------------------------------------------- */

const struct cli_opt cli_table_opts[] = {
	{"--sort", "COLUMN[:desc]", N_("sort by a column (its id), :desc to reverse; unpublished values last")},
	{"--filter", "EXPR", N_("only the GPUs EXPR matches, as the interactive screen's / takes it: words (id, name, vendor, architecture, a text column), COLUMN OP VALUE (mem>=80 type=hbm3e price<3), a|b; all terms must hold")},
	{"--columns", "IDS", N_("these columns (ids, comma-separated), in this order; the GPU column is always first")},
	{"--saved-columns", NULL, N_("the columns the interactive screen saved for this workload (c there), else its defaults")},
	{NULL, NULL, NULL},
};
/* The fit job's options: `gpux fit` and `gpux job` build the job from the same
 * ones (cli_fit_job_build), so they are one list in both tables. */
#define FIT_JOB_OPTIONS \
	{"--config", "PATH", N_("a Hugging Face config.json to read the model from (instead of SIZE or PRESET)")}, \
	{"--method", "METHOD", N_("full, lora, qlora, infer-fp16, infer-fp8, infer-int8, infer-int4 or diffusion (default full; diffusion for an image model)")}, \
	{"--gpus", "N", N_("GPUs the job runs on (default 1)")}, \
	{"--seq", "N", N_("sequence length in tokens (default 2048)")}, \
	{"--batch", "N", N_("micro-batch per GPU; inference: sequences decoded together; diffusion: images (default 1)")}, \
	{"--checkpointing", NULL, N_("gradient checkpointing: recompute activations (the default)")}, \
	{"--no-checkpointing", NULL, N_("keep every activation instead")}, \
	{"--zero", "0-3", N_("sharding of the training states: 0 none, 1 ZeRO-1, 2 ZeRO-2, 3 ZeRO-3/FSDP (default 3)")}, \
	{"--optimizer", "OPT", N_("adam, adam8bit or sgd (default adam)")}, \
	{"--tokens", "N", N_("tokens to train on, in billions: 300, 300B, 1.3T (default 1)")}, \
	{"--mfu", "F", N_("model FLOPs utilisation, above 0 and at most 1, or a percentage such as 40% (default 0.4)")}, \
	{"--layers", "N", N_("transformer layers (a typed size: the published architecture of that size)")}, \
	{"--hidden", "N", N_("hidden size (model width)")}, \
	{"--heads", "N", N_("attention (query) heads")}, \
	{"--kv-heads", "N", N_("key/value heads: the heads for multi-head attention, fewer for grouped-query attention")}, \
	{"--head-dim", "N", N_("dimensions per attention head (default hidden / heads)")}, \
	{"--vocab", "N", N_("vocabulary size")}, \
	{"--ffn", "N", N_("FFN intermediate size (per expert for a mixture of experts)")}, \
	{"--active", "B", N_("mixture of experts: parameters used per token, in billions")}, \
	{"--lora-rank", "N", N_("rank of the LoRA adapters on every linear layer (default 16)")}, \
	{"--flash-attention", NULL, N_("attention scores are not stored (FlashAttention, SDPA)")}, \
	{"--chunked-loss", NULL, N_("the output layer and loss computed 1024 tokens at a time")}, \
	{"--pure-bf16", NULL, N_("training without fp32 master weights: weights, gradients and optimizer moments in bf16")}, \
	{"--stack", "STACK", N_("a fine-tuning library's defaults: unsloth (QLoRA, offloaded checkpoints, 8-bit AdamW, chunked loss) or peft (QLoRA, fp32 embeddings, paged AdamW); none")}, \
	{"--act-offload", NULL, N_("checkpointed activations kept in CPU memory (offloaded gradient checkpointing)")}, \
	{"--embeddings", "BITS", N_("LoRA/QLoRA: precision of the embeddings, output layer and norms: 16 (the default) or fp32")}, \
	{"--paged-optimizer", NULL, N_("optimizer states in paged memory that moves to the CPU under pressure (not counted in GPU memory)")}, \
	{"--offload", "WHAT", N_("ZeRO-Offload to CPU memory: none, optimizer or all (optimizer and weights, ZeRO-3) (default none)")}, \
	{"--zero-accounting", "WHOSE", N_("deepspeed (its memory estimators, the default) or paper (the ZeRO paper's 2 + 2 + 12 bytes)")}, \
	{"--kv-cache", "PRECISION", N_("KV-cache precision: 16 (bf16/fp16, the default) or fp8")}, \
	{"--int4-group", "N", N_("int4 weights per group sharing a 16-bit scale and zero point (default 128)")}, \
	{"--bw-efficiency", "F", N_("share of the peak memory bandwidth decoding achieves with the method's weight format, e.g. 0.7 or 70% (defaults: 16-bit 0.7, 8-bit 0.6, 4-bit 0.5)")}, \
	{"--layer-us", "US", N_("decode: fixed cost per layer and step of the method's weight format, microseconds (defaults: 16-bit 31, 8-bit 42, 4-bit 40)")}, \
	{"--prompt", "N", N_("inference: prompt tokens prefilled per sequence (default: the whole --seq)")}, \
	{"--allreduce-us", "US", N_("tensor parallel: latency of one all-reduce step in microseconds (default 5.9)")}, \
	{"--overhead", "GB", N_("per GPU: CUDA context, framework and buffers, in GB (default 1)")}, \
	{"--margin", "F", N_("per GPU: allocator fragmentation and temporaries, a share of the rest, e.g. 0.1 or 10% (default 10%)")}, \
	{"--resolution", "WxH", N_("diffusion: output resolution in pixels, e.g. 1024x1024")}, \
	{"--frames", "N", N_("diffusion: frames per clip (1 for an image)")}, \
	{"--encoders-offloaded", NULL, N_("diffusion: the text encoders leave the GPU once the prompt is encoded")}

const struct cli_opt cli_fit_opts[] = {
	FIT_JOB_OPTIONS,
	{"--workload", "W", N_("only the GPUs of one workload's table")},
	{"--sort", "COLUMN[:desc]", N_("sort by a column id, or cheapest: the job's cost per hour among the GPUs that can take it")},
	{"--filter", "TEXT", N_("only GPUs whose id, name, architecture or vendor contains TEXT (any case)")},
	{NULL, NULL, NULL},
};
const struct cli_opt cli_job_opts[] = {
	FIT_JOB_OPTIONS,
	{"--max-total", "AMOUNT", N_("required: the most the whole job may cost, in your account's currency, VAT included (e.g. 900)")},
	{"--hours", "H", N_("hours to rent the machines, 1 to 720; training: the run's time when not given; inference: required")},
	{"--region", "REGION[,REGION]", N_("only machines in one of these regions (default any)")},
	{"--dry-run", NULL, N_("show what the exchange compared and would place; place nothing")},
	{"--yes", NULL, N_("place without asking (needed when not on a terminal)")},
	{NULL, NULL, NULL},
};
const struct cli_opt cli_quotes_opts[] = {{NULL, NULL, NULL}};
const struct cli_opt cli_book_opts[] = {
	{"--depth", "N", N_("price levels per side, 1 to 100 (default 10)")},
	{"--node-gpus", "G", N_("the ladder of what can serve units of G GPUs inside one machine (1, 2, 4, 8): units and GPUs per price")},
	{"--region", "REGION[,REGION]", N_("with the ladder by node size: only machines in these regions")},
	{"--interconnect", "LINK", N_("with the ladder by node size: only machines on this link (nvlink, infinity-fabric, pcie)")},
	{NULL, NULL, NULL},
};
const struct cli_opt cli_order_opts[] = {
	{"--gpus", "N", N_("number of GPUs, 1 to 512")},
	{"--hours", "H", N_("hours: a buy rents exactly H hours, a sell offers up to H (1 to 720)")},
	{"--limit", "PRICE", N_("limit order at PRICE US$ per GPU-hour (e.g. 4.19)")},
	{"--market", NULL, N_("market order (needs --max-price to buy, --min-price to sell)")},
	{"--max-price", "PRICE", N_("market buy: the most to pay per GPU-hour (sizes the hold)")},
	{"--min-price", "PRICE", N_("market sell: the least to accept per GPU-hour")},
	{"--tif", "TIF", N_("time in force: gtc (limit default), ioc (market default), fok")},
	{"--node-gpus", "G", N_("GPUs per machine (1, 2, 4, 8): a buy fills only in whole units of G GPUs inside one machine; a sell is a lot of machines of G (default 1)")},
	{"--interconnect", "LINK", N_("nvlink, infinity-fabric or pcie: a buy takes only machines on this link; a sell states its machines' (default: the GPU's own)")},
	{"--region", "REGION[,REGION]", N_("a buy: only machines in one of these regions (default any); a sell: where its machines are (default the exchange's first)")},
	{"--min-cpu", "N", N_("a buy: only machines with at least N CPU cores")},
	{"--min-ram", "GB", N_("a buy: only machines with at least GB of RAM")},
	{"--min-disk", "GB", N_("a buy: only machines with at least GB of disk")},
	{"--cpu", "N", N_("a sell: CPU cores of each machine")},
	{"--ram", "GB", N_("a sell: RAM of each machine, in GB")},
	{"--disk", "GB", N_("a sell: disk of each machine, in GB")},
	{"--whole-nodes", NULL, N_("a sell: only whole machines are sold (to bids in units of --node-gpus)")},
	{"--if-ask-below", "PRICE", N_("conditional: wait off the book until the best ask is at or below PRICE")},
	{"--if-ask-above", "PRICE", N_("conditional: ... until the best ask is at or above PRICE")},
	{"--if-bid-below", "PRICE", N_("conditional: ... until the best bid is at or below PRICE")},
	{"--if-bid-above", "PRICE", N_("conditional: ... until the best bid is at or above PRICE")},
	{"--if-last-below", "PRICE", N_("conditional: ... until the last trade is at or below PRICE")},
	{"--if-last-above", "PRICE", N_("conditional: ... until the last trade is at or above PRICE")},
	{"--oco", "GROUP", N_("one-cancels-other: when one order of GROUP enters the book or fills, the others are cancelled")},
	{"--standing", NULL, N_("standing limit buy: keep --gpus for periods of --hours at --limit or less, renewing")},
	{"--dry-run", NULL, N_("show the exchange's preview and place nothing")},
	{"--yes", NULL, N_("place without asking (needed when not on a terminal)")},
	{NULL, NULL, NULL},
};
const struct cli_opt cli_orders_opts[] = {
	{"--status", "STATUS", N_("open (resting), done (filled, cancelled, expired) or all (default)")},
	{"--gpu", "GPU", N_("only this GPU")},
	{NULL, NULL, NULL},
};
const struct cli_opt cli_cancel_opts[] = {{NULL, NULL, NULL}};
const struct cli_opt cli_rentals_opts[] = {
	{"--status", "STATUS", N_("active, ended or all (default)")},
	{"--gpu", "GPU", N_("only this GPU")},
	{NULL, NULL, NULL},
};
const struct cli_opt cli_stop_opts[] = {{NULL, NULL, NULL}};
const struct cli_opt cli_account_opts[] = {{NULL, NULL, NULL}};
const struct cli_opt cli_deposit_opts[] = {{NULL, NULL, NULL}};
const struct cli_opt cli_trades_opts[] = {
	{"--limit", "N", N_("how many of the latest trades, 1 to 200 (default 50)")},
	{NULL, NULL, NULL},
};
const struct cli_opt cli_candles_opts[] = {
	{"--interval", "I", N_("1m, 5m, 1h (default) or 1d")},
	{"--from", "TIME", N_("from this time on (ISO 8601 UTC: 2025-06-02T09:00:00Z or 2025-06-02)")},
	{"--to", "TIME", N_("up to this time, not included (default: now)")},
	{"--limit", "N", N_("at most the N latest intervals, 1 to 1000 (default 100)")},
	{NULL, NULL, NULL},
};
const struct cli_opt cli_watch_opts[] = {
	{"--count", "N", N_("stop after N changes (default: until interrupted)")},
	{"--alerts", NULL, N_("your account's events instead: alerts fired, conditional and standing orders")},
	{"--exec", "CMD", N_("with --alerts: run CMD (sh -c) for each event, its JSON on standard input")},
	{"--since", "ID", N_("with --alerts: begin after event ID (the last one an earlier run showed)")},
	{"--give-up", "SECONDS", N_("with --alerts: exit 1 when the stream stays lost this long (default 300)")},
	{NULL, NULL, NULL},
};
const struct cli_opt cli_alert_opts[] = {
	{"--ask-below", "PRICE", N_("add: fire when GPU's best ask is at or below PRICE")},
	{"--ask-above", "PRICE", N_("add: fire when GPU's best ask is at or above PRICE")},
	{"--bid-below", "PRICE", N_("add: fire when GPU's best bid is at or below PRICE")},
	{"--bid-above", "PRICE", N_("add: fire when GPU's best bid is at or above PRICE")},
	{"--last-below", "PRICE", N_("add: fire when GPU's last trade is at or below PRICE")},
	{"--last-above", "PRICE", N_("add: fire when GPU's last trade is at or above PRICE")},
	{"--spread-below", "PRICE", N_("add: fire when GPU's spread (ask - bid) is at or below PRICE")},
	{"--spread-above", "PRICE", N_("add: fire when GPU's spread (ask - bid) is at or above PRICE")},
	{"--rental-ending", "MINUTES", N_("add: fire when a rental you buy ends within MINUTES")},
	{"--rental", "ID", N_("add: with --rental-ending, only that rental")},
	{"--order-filled", NULL, N_("add: fire when an order of yours fills")},
	{"--order", "ID", N_("add: with --order-filled, only that order")},
	{"--job-total-below", "AMOUNT", N_("add: fire when the cheapest total of the job (SIZE or PRESET and gpux job's options) is at or below AMOUNT, in your account's currency, VAT included")},
	{"--hours", "H", N_("add: with --job-total-below, the hours the job rents, 1 to 720; training: the run's time when not given; inference: required")},
	{"--region", "REGION[,REGION]", N_("add: with --job-total-below, only machines in one of these regions (default any)")},
	{"--rearm", "PRICE", N_("add: fire again once the price has moved back by PRICE (a job alert: the total by an AMOUNT) (default: once)")},
	{"--expires", "TIME", N_("add: stop watching at TIME (2025-06-02T09:00:00Z or 2025-06-02, UTC)")},
	{"--label", "TEXT", N_("add: your words for the alert, shown when it fires")},
	FIT_JOB_OPTIONS,
	{NULL, NULL, NULL},
};
const struct cli_opt cli_demo_opts[] = {
	{"--yes", NULL, N_("reset without asking")},
	{NULL, NULL, NULL},
};
const struct cli_opt cli_signup_opts[] = {
	{"--email", "ADDRESS", N_("your e-mail address")},
	{"--country", "CC", N_("your country, two letters (e.g. PT): it sets the VAT you pay")},
	{"--currency", "CUR", N_("your account's currency, one the exchange offers (EUR, USD, GBP)")},
	{"--role", "ROLE", N_("buyer, seller or both")},
	{"--yes", NULL, N_("create without asking (needed when not on a terminal)")},
	{"--force", NULL, N_("replace an API key that is already in the config file")},
	{"--show-key", NULL, N_("also print the new API key (it is saved in the config file anyway)")},
	{NULL, NULL, NULL},
};
const struct cli_opt cli_keys_opts[] = {
	{"--read-only", NULL, N_("create: a read key (no orders, cancels, stops or deposits)")},
	{"--name", "NAME", N_("create: the key's name (default: key-ID)")},
	{"--save", "FILE", N_("create: write the key to FILE, a new file of mode 0600, not the screen")},
	{NULL, NULL, NULL},
};

const struct cli_opt cli_admin_opts[] = {
	{"--reference", "REF", N_("deposit: the payment's reference (the bank transfer's); approve: the payout's")},
	{"--debt", NULL, N_("reverse-deposit: take the account below zero into a stated debt if need be")},
	{"--reason", "TEXT", N_("reverse-deposit, reject: why, for the record")},
	{"--status", "STATUS", N_("withdrawals: pending (default), sent, rejected or all")},
	{"--exponent", "DIGITS", N_("fx set: the currency's ISO 4217 minor-unit digits (checked)")},
	{"--as-of", "TIME", N_("fx set: when the rate was quoted (ISO 8601 UTC; default: now)")},
	{"--max-age", "HOURS", N_("fx limit: how old a rate may be before gpux warns (0: no limit)")},
	{"--halt", NULL, N_("fx limit: refuse orders in a currency whose rate is older than that")},
	{"--no-halt", NULL, N_("fx limit: warn only")},
	{"--trade", "BP", N_("fees set: the trade fee, basis points of the seller's payout")},
	{"--forward-cancel", "BP", N_("fees set: the fee on cancelling a scheduled rental, basis points")},
	{"--resale", "BP", N_("fees set: the fee on a resale's proceeds, basis points")},
	{"--url", "URL", N_("topup: where customers top up (\"\" clears it)")},
	{"--text", "TEXT", N_("topup: how to top up, in words (\"\" clears it)")},
	{NULL, NULL, NULL},
};
const struct cli_opt cli_withdraw_opts[] = {{NULL, NULL, NULL}};

/* ---- the global options, in the order of enum cli_global (cli_int.h) ---------------------- */

const struct cli_opt cli_global_opts[] = {
	{"--lang", "L", N_("language: en, pt-PT, pt-BR, es, fr, de (default: see Language below)")},
	{"--format", "FORMAT", N_("table (default, localized), csv or json (raw numbers, stable ids)")},
	{"--api", "URL", N_("the exchange's URL (default: $GPUX_API, else api in the config file, else a local demo exchange)")},
	{"--key", "KEY", N_("API key (default: $GPUX_API_KEY); never printed; - reads it from standard input (on the command line others can see it in ps)")},
	{"--key-file", "PATH", N_("read the API key from the first line of PATH (chmod 600)")},
	{"--profile", "NAME", N_("the exchange of profile [NAME] of the config file, with its saved key (default: $GPUX_PROFILE, else profile = NAME, else the top level)")},
	{"--timeout", "SECONDS", N_("the whole time one request may take, retries included (default: $GPUX_TIMEOUT, else the config file, else 15)")},
	{"--data", "DIR", N_("read the catalogue's JSON files from DIR instead of the embedded copy")},
	{"--ascii", NULL, N_("ASCII only: no UTF-8 symbols, borders or accents")},
	{"--insecure", NULL, N_("do not verify the exchange's TLS certificate")},
	{"--help", NULL, N_("show this help (after a command: the command's help)")},
	{"--version", NULL, N_("show the version")},
	{NULL, NULL, NULL},
};

