/*
 * hostile — a bounded attacker for gpuxd's tests, loopback only.
 *
 *   hostile hold --port P [--from ADDR] [--addrs K] [--to ADDR] --idle N --slow M
 *                [--slow-body B] --seconds S [--min-seconds L]
 *       opens N connections that send nothing, M that send a request header
 *       one byte a second ("slowloris") and B that send a whole header
 *       declaring a 1000-byte body, then the body one byte a second, all from ADDR (default
 *       127.0.0.2; with --addrs K, from K addresses counting up from it, one
 *       connection each in turn) to ADDR (default 127.0.0.1), prints
 *         ready opened O
 *       on standard error once all are open, keeps them for S seconds, then prints one line:
 *         opened O refused R cut C open K cut_after_ms A
 *       O connected, R closed by the server within 500 ms of connecting
 *       (refused at accept), C closed later, K still open at the end, A the
 *       longest time a cut connection was held (ms). N + M <= 10000, S <= 120.
 *       SIGUSR1 ends the hold early, once L seconds (default S) have passed:
 *       a test ends the attack when its client is done, not at a guess.
 *   hostile raw --port P [--from ADDR] [--to ADDR] [--timeout-ms T]
 *       sends standard input on one connection (from ADDR if given) and prints everything the
 *       server sends until it closes (or T ms pass; default 5000), then
 *       "[closed]" or "[timeout]".
 *
 * Every address must be in 127.0.0.0/8: this tool never talks to anything
 * but this machine.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNS 10000
#define MAX_SECONDS 120

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int loopback(const char *s, struct in_addr *out)
{
	if (inet_pton(AF_INET, s, out) != 1 || (ntohl(out->s_addr) >> 24) != 127) {
		fprintf(stderr, "hostile: %s is not a loopback address (127.0.0.0/8)\n", s);
		return -1;
	}
	return 0;
}

static int dial(struct in_addr from, bool bind_from, struct in_addr to, int port, bool nonblock)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | (nonblock ? SOCK_NONBLOCK : 0), 0);
	if (fd < 0)
		return -1;
	if (bind_from) {
		struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr = from };
		if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
			close(fd);
			return -1;
		}
	}
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr = to };
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0 && errno != EINPROGRESS) {
		close(fd);
		return -1;
	}
	return fd;
}

struct hconn {
	int fd;
	bool slow;
	const char *text;         /* what a slow connection sends, one byte a second */
	int64_t opened, closed;
	size_t sent;
};

static const char slow_header[] = "GET /v1/market HTTP/1.1\r\nHost: x\r\nX-Slow: "
                                  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

static const char slow_body[] = "POST /v1/orders HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n";

static volatile sig_atomic_t hold_stop;

static void on_usr1(int sig)
{
	(void)sig;
	hold_stop = 1;
}

static int hold(struct in_addr from, int addrs, struct in_addr to, int port, int idle, int slow,
                int body, int seconds, int min_seconds)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigaction(SIGUSR1, &sa, NULL);
	int n = idle + slow + body;
	struct hconn *c = calloc((size_t)n, sizeof *c);
	struct pollfd *pf = calloc((size_t)n, sizeof *pf);
	if (!c || !pf)
		return 1;
	int64_t t0 = now_ms(), end = t0 + (int64_t)seconds * 1000, next_drip = t0 + 1000;
	int opened = 0;
	for (int i = 0; i < n; i++) {
		c[i].slow = i >= idle;
		c[i].text = i >= idle + slow ? slow_body : slow_header;
		struct in_addr src = { htonl(ntohl(from.s_addr) + (uint32_t)(i % addrs)) };
		c[i].fd = dial(src, true, to, port, false);
		c[i].opened = now_ms();
		if (c[i].fd >= 0) {
			opened++;
			fcntl(c[i].fd, F_SETFL, fcntl(c[i].fd, F_GETFL) | O_NONBLOCK);
		}
		if (c[i].slow && c[i].fd >= 0) {
			/* a slow body: its whole header at once; a slow header: one byte */
			size_t first = c[i].text == slow_body ? strlen(slow_body) : 1;
			ssize_t w = send(c[i].fd, c[i].text, first, MSG_NOSIGNAL);
			c[i].sent = w > 0 ? (size_t)w : 0;
		}
	}
	fprintf(stderr, "ready opened %d\n", opened);
	int64_t min_end = t0 + (int64_t)min_seconds * 1000;
	while (now_ms() < end && !(hold_stop && now_ms() >= min_end)) {
		for (int i = 0; i < n; i++) {
			pf[i].fd = c[i].closed ? -1 : c[i].fd;
			pf[i].events = POLLIN;
			pf[i].revents = 0;
		}
		int64_t now = now_ms();
		int64_t until = next_drip < end ? next_drip : end;
		if (hold_stop && min_end > now && min_end < until)
			until = min_end;
		int wait = (int)(until - now);
		poll(pf, (nfds_t)n, wait > 0 ? wait : 0);
		now = now_ms();
		for (int i = 0; i < n; i++) {
			if (!pf[i].revents)
				continue;
			char b[4096];
			ssize_t r = recv(c[i].fd, b, sizeof b, 0);
			if (r <= 0 && !(r < 0 && (errno == EAGAIN || errno == EINTR)))
				c[i].closed = now;
		}
		if (now >= next_drip) {
			next_drip += 1000;
			for (int i = 0; i < n; i++) {
				if (!c[i].slow || c[i].closed || c[i].fd < 0)
					continue;
				if (c[i].text == slow_body) {
					if (send(c[i].fd, "{", 1, MSG_NOSIGNAL) == 1)
						c[i].sent++;
				} else if (c[i].sent + 1 < sizeof slow_header &&
				           send(c[i].fd, slow_header + c[i].sent, 1, MSG_NOSIGNAL) == 1) {
					c[i].sent++;
				}
			}
		}
	}
	int refused = 0, cut = 0, still = 0;
	int64_t longest = 0;
	for (int i = 0; i < n; i++) {
		if (c[i].fd < 0)
			continue;
		if (!c[i].closed)
			still++;
		else if (c[i].closed - c[i].opened < 500)
			refused++;
		else {
			cut++;
			if (c[i].closed - c[i].opened > longest)
				longest = c[i].closed - c[i].opened;
		}
		close(c[i].fd);
	}
	printf("opened %d refused %d cut %d open %d cut_after_ms %lld\n", opened, refused, cut, still,
	       (long long)longest);
	free(c);
	free(pf);
	return 0;
}

static int raw(struct in_addr from, bool bind_from, struct in_addr to, int port, int timeout_ms)
{
	int fd = dial(from, bind_from, to, port, false);
	if (fd < 0) {
		perror("hostile: connect");
		return 1;
	}
	char b[65536];
	ssize_t r;
	while ((r = read(0, b, sizeof b)) > 0) {
		if (send(fd, b, (size_t)r, MSG_NOSIGNAL) != r)
			break;
	}
	int64_t end = now_ms() + timeout_ms;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int left = (int)(end - now_ms());
		if (left <= 0 || poll(&p, 1, left) <= 0) {
			printf("[timeout]\n");
			break;
		}
		r = recv(fd, b, sizeof b, 0);
		if (r <= 0) {
			printf("[closed]\n");
			break;
		}
		fwrite(b, 1, (size_t)r, stdout);
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	const char *from_s = "127.0.0.2", *to_s = "127.0.0.1";
	long port = 0, idle = 0, slow = 0, body = 0, seconds = 10, min_seconds = -1, timeout_ms = 5000, addrs = 1;
	bool from_given = false;
	if (argc < 2) {
		fprintf(stderr, "usage: hostile hold|raw --port P ...\n");
		return 2;
	}
	for (int i = 2; i + 1 < argc; i += 2) {
		const char *a = argv[i], *v = argv[i + 1];
		if (strcmp(a, "--port") == 0) port = atol(v);
		else if (strcmp(a, "--from") == 0) from_s = v, from_given = true;
		else if (strcmp(a, "--addrs") == 0) addrs = atol(v);
		else if (strcmp(a, "--to") == 0) to_s = v;
		else if (strcmp(a, "--idle") == 0) idle = atol(v);
		else if (strcmp(a, "--slow") == 0) slow = atol(v);
		else if (strcmp(a, "--slow-body") == 0) body = atol(v);
		else if (strcmp(a, "--seconds") == 0) seconds = atol(v);
		else if (strcmp(a, "--min-seconds") == 0) min_seconds = atol(v);
		else if (strcmp(a, "--timeout-ms") == 0) timeout_ms = atol(v);
		else {
			fprintf(stderr, "hostile: unknown option %s\n", a);
			return 2;
		}
	}
	struct in_addr from, to;
	if (loopback(from_s, &from) != 0 || loopback(to_s, &to) != 0)
		return 2;
	if (port < 1 || port > 65535 || idle < 0 || slow < 0 || body < 0 || idle + slow + body > MAX_CONNS ||
	    seconds < 1 || seconds > MAX_SECONDS || timeout_ms < 1 || timeout_ms > MAX_SECONDS * 1000 ||
	    addrs < 1 || addrs > 65536 || (ntohl(from.s_addr) >> 24) != ((ntohl(from.s_addr) + (uint32_t)addrs - 1) >> 24)) {
		fprintf(stderr, "hostile: --port 1..65535, --idle + --slow <= %d, --seconds 1..%d, "
		        "--addrs 1..65536 within 127.0.0.0/8\n", MAX_CONNS, MAX_SECONDS);
		return 2;
	}
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (strcmp(argv[1], "hold") == 0)
		return hold(from, (int)addrs, to, (int)port, (int)idle, (int)slow, (int)body, (int)seconds,
		            (int)(min_seconds < 0 || min_seconds > seconds ? seconds : min_seconds));
	if (strcmp(argv[1], "raw") == 0)
		return raw(from, from_given, to, (int)port, (int)timeout_ms);
	fprintf(stderr, "hostile: unknown command %s\n", argv[1]);
	return 2;
}
