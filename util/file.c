/*
 * Reading a whole file into memory (the config file, the local demo's key
 * and pid files, a catalogue directory), with errors that name the path and
 * the reason.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>

int util_read_file(const char *path, char **out, size_t *len, char **cause)
{
	FILE *f = fopen(path, "rb");
	struct buf b = {0};
	char chunk[8192];
	size_t n;

	if (f == NULL)
		return set_cause(cause, "%s: %s", path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_append(&b, chunk, n);
	if (ferror(f)) {
		int e = errno;
		fclose(f);
		buf_free(&b);
		return set_cause(cause, "%s: %s", path, strerror(e));
	}
	fclose(f);
	if (len != NULL)
		*len = b.len;
	*out = buf_take(&b);
	return 0;
}

int util_write_file(const char *path, const void *data, size_t len, int mode, char **cause)
{
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	size_t off = 0;
	int rc = 0;

	if (fd < 0) {
		rc = set_cause(cause, "%s: %s", path, strerror(errno));
		free(tmp);
		return rc;
	}
	while (off < len && rc == 0) {
		ssize_t w = write(fd, (const char *)data + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			rc = set_cause(cause, "%s: %s", path, strerror(errno));
		else
			off += (size_t)w;
	}
	if (rc == 0 && fsync(fd) != 0)
		rc = set_cause(cause, "%s: %s", path, strerror(errno));
	close(fd);
	if (rc == 0 && rename(tmp, path) != 0)
		rc = set_cause(cause, "%s: %s", path, strerror(errno));
	if (rc != 0)
		unlink(tmp);
	free(tmp);
	return rc;
}

char *util_base64(const void *data, size_t len)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = data;
	char *out = xmalloc((len + 2) / 3 * 4 + 1), *o = out;

	for (size_t i = 0; i < len; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < len ? (unsigned)p[i + 1] << 8 : 0) |
			     (i + 2 < len ? p[i + 2] : 0);
		*o++ = abc[(v >> 18) & 63];
		*o++ = abc[(v >> 12) & 63];
		*o++ = i + 1 < len ? abc[(v >> 6) & 63] : '=';
		*o++ = i + 2 < len ? abc[v & 63] : '=';
	}
	*o = '\0';
	return out;
}
