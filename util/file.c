/*
 * Reading a whole file into memory (the config file, the local demo's key
 * and pid files, a catalogue directory), with errors that name the path and
 * the reason.
 */
#include "util.h"

#include <errno.h>
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
