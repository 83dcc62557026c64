/*
 * gpuxd — the reference exchange of gpux. Parses the flags into a
 * struct exchange_config and runs exchange_run() (exchange/exchange.h).
 * Exit status: 0 after a clean shutdown, 1 if it could not start, 2 for a
 * bad command line.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "exchange/exchange.h"
#include "util/util.h"

static const char usage[] =
	"usage: gpuxd [options]\n"
	"\n"
	"The reference exchange of gpux: an HTTP+JSON API (docs/API.md) with order\n"
	"books, accounts, a ledger and hourly billing in SQLite, or in PostgreSQL\n"
	"shared by any number of gpuxd nodes (docs/DEPLOY.md).\n"
	"\n"
	"  --listen HOST:PORT     listen on TCP (default 127.0.0.1:8420; port 0: any free port)\n"
	"  --port-file PATH       write the TCP port there once listening\n"
	"  --socket PATH          listen on a Unix socket, mode 0600 (alone: only there;\n"
	"                         with --listen: on both)\n"
	"  --db PATH              the database (default gpuxd.db; created if missing)\n"
	"  --db postgresql://...  a PostgreSQL database (any libpq connection string,\n"
	"                         multi-host with target_session_attrs=read-write)\n"
	"  --demo                 demo market: makers at the seed prices with a drift,\n"
	"                         simulated payments, admin routes without a key\n"
	"  --market STATE         open, pre_open or halted (default: open with --demo,\n"
	"                         else pre_open); like --opens-at, --topup-url and\n"
	"                         --topup-text it only seeds a new database: the\n"
	"                         settings live in the database (gpux admin)\n"
	"  --opens-at TIME        the announced opening, ISO 8601 (2025-09-01T09:00:00Z),\n"
	"                         a time to come; the market opens by itself then\n"
	"  --clock-speed N        the exchange clock runs N times real time (default 1)\n"
	"  --admin-key-file PATH  the bootstrap admin key (first line, >= 16 characters):\n"
	"                         the admin key \"bootstrap\" of a database that has none\n"
	"  --data DIR             catalogue directory (default: the embedded catalogue)\n"
	"  --seed N               seed of the demo drift (default 1)\n"
	"  --rate-limit N         requests/s per API key, bursts of 2N (default 100; 0: off)\n"
	"  --ip-rate-limit N      requests/s per client address (default 1000; 0: off)\n"
	"  --threads N            HTTP threads per listening socket (default 2)\n"
	"  --stream-backlog N     market-stream events kept for replay (default 4096)\n"
	"  --quiet                no log line per request\n"
	"\n"
	"Limits, per listening socket (docs/API.md, Limits; over a cap a new\n"
	"connection is closed at once):\n"
	"  --max-connections N    request connections at once (default 1024)\n"
	"  --max-connections-per-addr N\n"
	"                         ... from one client address (default 128; 0: no cap)\n"
	"  --max-streams N        streaming connections at once, counted apart from\n"
	"                         requests (default 2048)\n"
	"  --max-streams-per-addr N\n"
	"                         ... from one client address (default 512; 0: no cap)\n"
	"  --header-timeout S     a whole request header within S seconds of the\n"
	"                         connection or of the previous reply (default 5)\n"
	"  --body-timeout S       the whole body within S seconds of its header (default 5)\n"
	"  (the caps are lowered to fit the open-file limit, which is raised to its maximum)\n"
	"\n"
	"Behind a load balancer, and under load (docs/API.md, Limits; docs/DEPLOY.md):\n"
	"  --trusted-proxy CIDR[,CIDR...]\n"
	"                         peers whose PROXY protocol header (v1 or v2) or\n"
	"                         X-Forwarded-For names the client (repeatable; e.g.\n"
	"                         10.0.0.0/8); their own connections skip the per-address cap\n"
	"  --signup-limit N       new accounts per client address (IPv6: per /64) a minute,\n"
	"                         bursts of N (default 20; 0: off)\n"
	"  --queue-wait MS        answer a write 503 UNAVAILABLE at once when it would not\n"
	"                         be answered within MS of its arrival: the writer's\n"
	"                         recent pace says so, or an earlier write has waited\n"
	"                         longer (default 50; cancels are always queued)\n"
	"  --commit-deadline MS   a commit not done by then is answered 500\n"
	"                         STORE_OUTCOME_UNKNOWN and GET /v1/ready fails (default 5000)\n"
	"\n"
	"Lifecycle:\n"
	"  --idle-exit S          exit after S seconds without any connection (default 0:\n"
	"                         never); the local demo exchange of gpux runs with 300\n"
	"  --pid-file PATH        write the process id there; removed at exit\n"
	"  --topup-url URL        where customers top up (gpux shows it on a real exchange);\n"
	"                         seeds a new database\n"
	"  --topup-text TEXT      how to top up, in words (e.g. bank transfer details);\n"
	"                         seeds a new database\n"
	"  --help, --version\n";

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "gpuxd: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n(gpuxd --help lists the options)\n");
	va_end(ap);
	return 2;
}

static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!*s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

enum { O_LISTEN = 256, O_PORT_FILE, O_SOCKET, O_DB, O_DEMO, O_MARKET, O_OPENS_AT, O_SPEED,
       O_ADMIN, O_DATA, O_SEED, O_RATE, O_IPRATE, O_THREADS, O_QUIET, O_HELP, O_VERSION,
       O_MAXC, O_MAXCA, O_MAXS, O_MAXSA, O_HTO, O_BTO, O_IDLE, O_PIDF, O_BACKLOG,
       O_TOPUP_URL, O_TOPUP_TEXT, O_TRUSTED, O_SIGNUP, O_QWAIT, O_DEADLINE };

static const struct option opts[] = {
	{ "listen", required_argument, NULL, O_LISTEN },
	{ "port-file", required_argument, NULL, O_PORT_FILE },
	{ "socket", required_argument, NULL, O_SOCKET },
	{ "db", required_argument, NULL, O_DB },
	{ "demo", no_argument, NULL, O_DEMO },
	{ "market", required_argument, NULL, O_MARKET },
	{ "opens-at", required_argument, NULL, O_OPENS_AT },
	{ "clock-speed", required_argument, NULL, O_SPEED },
	{ "admin-key-file", required_argument, NULL, O_ADMIN },
	{ "data", required_argument, NULL, O_DATA },
	{ "seed", required_argument, NULL, O_SEED },
	{ "rate-limit", required_argument, NULL, O_RATE },
	{ "ip-rate-limit", required_argument, NULL, O_IPRATE },
	{ "threads", required_argument, NULL, O_THREADS },
	{ "quiet", no_argument, NULL, O_QUIET },
	{ "stream-backlog", required_argument, NULL, O_BACKLOG },
	{ "topup-url", required_argument, NULL, O_TOPUP_URL },
	{ "topup-text", required_argument, NULL, O_TOPUP_TEXT },
	{ "max-connections", required_argument, NULL, O_MAXC },
	{ "max-connections-per-addr", required_argument, NULL, O_MAXCA },
	{ "max-streams", required_argument, NULL, O_MAXS },
	{ "max-streams-per-addr", required_argument, NULL, O_MAXSA },
	{ "header-timeout", required_argument, NULL, O_HTO },
	{ "body-timeout", required_argument, NULL, O_BTO },
	{ "idle-exit", required_argument, NULL, O_IDLE },
	{ "pid-file", required_argument, NULL, O_PIDF },
	{ "trusted-proxy", required_argument, NULL, O_TRUSTED },
	{ "signup-limit", required_argument, NULL, O_SIGNUP },
	{ "queue-wait", required_argument, NULL, O_QWAIT },
	{ "commit-deadline", required_argument, NULL, O_DEADLINE },
	{ "help", no_argument, NULL, O_HELP },
	{ "version", no_argument, NULL, O_VERSION },
	{ "topup-url", required_argument, NULL, O_TOPUP_URL },
	{ "topup-text", required_argument, NULL, O_TOPUP_TEXT },
	{ NULL, 0, NULL, 0 },
};

/* --trusted-proxy A,B: each range kept (checked when gpuxd starts). */
static int trusted_opt(struct exchange_config *c, char *arg)
{
	for (char *save = NULL, *tok = strtok_r(arg, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		if (c->n_trusted_proxies == EXCHANGE_TRUSTED_MAX)
			return bad("--trusted-proxy: at most %d ranges", EXCHANGE_TRUSTED_MAX);
		c->trusted_proxies[c->n_trusted_proxies++] = tok;
	}
	return 0;
}

/* The front door's numbers: each with its range. */
static int door_opt(struct exchange_config *c, int o, const char *arg)
{
	static const struct { const char *name; long min, max; } spec[] = {
		{ "--signup-limit", 0, 1000000 }, { "--queue-wait", 1, 600000 },
		{ "--commit-deadline", 100, 600000 },
	};
	int *field[] = { &c->signup_limit, &c->queue_wait_ms, &c->commit_deadline_ms };
	int i = o - O_SIGNUP;
	long v;
	if (parse_long(arg, spec[i].min, spec[i].max, &v) != 0)
		return bad("%s %s: expected an integer %ld..%ld", spec[i].name, arg, spec[i].min,
		           spec[i].max);
	*field[i] = (int)v;
	return 0;
}

/* The numeric limits: each with its range. */
static int limit_opt(struct exchange_config *c, int o, const char *arg)
{
	static const struct { const char *name; long min, max; } spec[] = {
		{ "--max-connections", 1, 1000000 }, { "--max-connections-per-addr", 0, 1000000 },
		{ "--max-streams", 1, 1000000 }, { "--max-streams-per-addr", 0, 1000000 },
		{ "--header-timeout", 1, 3600 }, { "--body-timeout", 1, 3600 },
		{ "--idle-exit", 0, 31536000 },
	};
	int *field[] = { &c->max_conns, &c->max_conns_per_addr, &c->max_streams,
	                 &c->max_streams_per_addr, &c->header_timeout_s, &c->body_timeout_s,
	                 &c->idle_exit_s };
	int i = o - O_MAXC;
	long v;
	if (parse_long(arg, spec[i].min, spec[i].max, &v) != 0)
		return bad("%s %s: expected an integer %ld..%ld", spec[i].name, arg, spec[i].min,
		           spec[i].max);
	*field[i] = (int)v;
	return 0;
}

int main(int argc, char **argv)
{
	/* the database, its WAL, the pid and port files hold customers' data or
	 * say where gpuxd is: none is for other users */
	umask(077);
	struct exchange_config c;
	exchange_config_defaults(&c);
	bool listen_given = false;
	int o;
	long v;
	opterr = 0;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case O_LISTEN:
			c.listen = strcmp(optarg, "none") == 0 ? NULL : optarg;
			listen_given = true;
			break;
		case O_PORT_FILE: c.port_file = optarg; break;
		case O_SOCKET: c.socket_path = optarg; break;
		case O_DB: c.db_path = optarg; break;
		case O_DEMO: c.demo = true; break;
		case O_MARKET:
			if (strcmp(optarg, "open") == 0) c.state = EXCHANGE_OPEN;
			else if (strcmp(optarg, "pre_open") == 0 || strcmp(optarg, "pre-open") == 0)
				c.state = EXCHANGE_PRE_OPEN;
			else if (strcmp(optarg, "halted") == 0) c.state = EXCHANGE_HALTED;
			else return bad("--market %s: expected open, pre_open or halted", optarg);
			break;
		case O_OPENS_AT:
			if (exchange_parse_time(optarg, &c.opens_at_ms) != 0 || c.opens_at_ms < 0)
				return bad("--opens-at %s: expected an ISO 8601 time such as 2025-09-01T09:00:00Z",
				           optarg);
			if (c.opens_at_ms <= (int64_t)time(NULL) * 1000)
				return bad("--opens-at %s: that time has passed; announce a time to come", optarg);
			break;
		case O_SPEED: {
			char *end;
			double d = strtod(optarg, &end);
			if (!*optarg || *end || !(d >= 0.001 && d <= 1000000))
				return bad("--clock-speed %s: expected a number from 0.001 to 1000000", optarg);
			c.clock_speed = d;
			break;
		}
		case O_ADMIN: c.admin_key_file = optarg; break;
		case O_DATA: c.data_dir = optarg; break;
		case O_SEED: {
			char *end;
			unsigned long long s = strtoull(optarg, &end, 10);
			if (!*optarg || *end || optarg[0] == '-')
				return bad("--seed %s: expected a non-negative integer", optarg);
			c.seed = s;
			break;
		}
		case O_RATE:
			if (parse_long(optarg, 0, 1000000, &v))
				return bad("--rate-limit %s: expected an integer 0..1000000", optarg);
			c.rate_per_key = (int)v;
			break;
		case O_IPRATE:
			if (parse_long(optarg, 0, 1000000, &v))
				return bad("--ip-rate-limit %s: expected an integer 0..1000000", optarg);
			c.rate_per_addr = (int)v;
			break;
		case O_THREADS:
			if (parse_long(optarg, 1, 64, &v))
				return bad("--threads %s: expected an integer 1..64", optarg);
			c.threads = (int)v;
			break;
		case O_QUIET: c.quiet = true; break;
		case O_BACKLOG:
			if (parse_long(optarg, 16, 1000000, &v))
				return bad("--stream-backlog %s: expected an integer 16..1000000", optarg);
			c.stream_backlog = (int)v;
			break;
		case O_MAXC: case O_MAXCA: case O_MAXS: case O_MAXSA: case O_HTO: case O_BTO: case O_IDLE:
			if (limit_opt(&c, o, optarg) != 0)
				return 2;
			break;
		case O_TRUSTED:
			if (trusted_opt(&c, optarg) != 0)
				return 2;
			break;
		case O_SIGNUP: case O_QWAIT: case O_DEADLINE:
			if (door_opt(&c, o, optarg) != 0)
				return 2;
			break;
		case O_PIDF: c.pid_file = optarg; break;
		case O_TOPUP_URL: c.topup_url = optarg; break;
		case O_TOPUP_TEXT: c.topup_text = optarg; break;
		case O_HELP: fputs(usage, stdout); return 0;
		case O_VERSION: printf("gpuxd %s\n", EXCHANGE_VERSION); return 0;
		default:
			return bad("unknown or incomplete option %s", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad("unexpected argument %s", argv[optind]);
	if (c.socket_path && !listen_given)
		c.listen = NULL;   /* --socket alone: only the socket */
	char *cause = NULL;
	if (exchange_topup_check(c.topup_url, c.topup_text, &cause) != 0)
		return bad("%s", cause);
	if (exchange_run(&c, &cause) != 0) {
		fprintf(stderr, "gpuxd: %s\n", cause ? cause : "failed");
		free(cause);
		return 1;
	}
	return 0;
}
