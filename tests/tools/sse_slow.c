/*
 * sse_slow — a market-stream client that does not read: for the slow-client
 * test of tests/exchange/test_stream.sh.
 *
 *   sse_slow PORT PATH GO_FILE OUT_FILE
 *
 * Connects to 127.0.0.1:PORT with a tiny receive buffer, sends GET PATH,
 * reads nothing until GO_FILE exists (at most 60 s), then copies everything
 * the server sends to OUT_FILE until the server ends the response or 20 s
 * pass without a byte. Exit status 0 when the server closed the connection,
 * 1 on a local error, 3 when it was still open at the end.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: sse_slow PORT PATH GO_FILE OUT_FILE\n");
		return 1;
	}
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	int small = 2048;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1])) };
	inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		perror("sse_slow: connect");
		return 1;
	}
	char req[1024];
	int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n",
	                 argv[2]);
	if (write(fd, req, (size_t)n) != n) {
		perror("sse_slow: write");
		return 1;
	}
	struct stat st;
	for (int i = 0; i < 600 && stat(argv[3], &st) != 0; i++)
		usleep(100000);
	FILE *out = fopen(argv[4], "w");
	if (!out) {
		perror("sse_slow: open");
		return 1;
	}
	char buf[4096];
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 20000) <= 0) {
			fclose(out);
			return 3;
		}
		ssize_t k = read(fd, buf, sizeof buf);
		if (k <= 0)
			break;
		fwrite(buf, 1, (size_t)k, out);
	}
	fclose(out);
	close(fd);
	return 0;
}
