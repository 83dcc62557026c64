/*
 * A reader of GNU .mo files held in memory, read in place.
 *
 * Layout (GNU gettext manual, "The Format of GNU MO Files"): a 28-byte header
 * of 32-bit words in the writer's byte order — magic 0x950412de, revision,
 * N strings, offset of the original-strings table, offset of the
 * translations table, hash size and offset — then two tables of N
 * (length, offset) pairs pointing at NUL-terminated strings. msgfmt sorts the
 * original strings, so lookup is a binary search; the hash table is ignored.
 * A context is stored as "ctx\004msgid"; a plural entry as "one\0many" with
 * translations "form0\0form1…".
 *
 * Nothing in the file is trusted: every table entry is checked against the
 * buffer's length when it is read, and a string must be NUL-terminated inside
 * the buffer. A damaged file therefore yields "not found" (and an unsorted one
 * may miss entries), never an out-of-bounds read.
 */
#include "i18n/i18n.h"
#include "util/util.h"

#include <string.h>

#define MO_MAGIC 0x950412deu
#define MO_MAGIC_SWAPPED 0xde120495u

static uint32_t rd32(const unsigned char *p, bool swap)
{
	uint32_t v;
	memcpy(&v, p, 4);
	if (swap)
		v = (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
	return v;
}

int i18n_mo_open(struct i18n_mo *mo, const unsigned char *data, size_t len, char **cause)
{
	memset(mo, 0, sizeof *mo);
	if (data == NULL || len < 28)
		return set_cause(cause, "message catalogue too short (%zu bytes)", len);
	uint32_t magic;
	memcpy(&magic, data, 4);
	bool swap;
	if (magic == MO_MAGIC)
		swap = false;
	else if (magic == MO_MAGIC_SWAPPED)
		swap = true;
	else
		return set_cause(cause, "not a GNU .mo message catalogue (bad magic number)");
	uint32_t rev = rd32(data + 4, swap);
	if ((rev >> 16) > 1)
		return set_cause(cause, "unsupported .mo revision %u", (unsigned)(rev >> 16));
	uint32_t n = rd32(data + 8, swap);
	uint32_t orig = rd32(data + 12, swap);
	uint32_t trans = rd32(data + 16, swap);
	uint64_t tsize = (uint64_t)n * 8;
	if ((uint64_t)orig + tsize > len || (uint64_t)trans + tsize > len)
		return set_cause(cause, "damaged .mo catalogue: string tables beyond the end");
	mo->data = data;
	mo->len = len;
	mo->swap = swap;
	mo->n = n;
	mo->orig = orig;
	mo->trans = trans;
	return 0;
}

/* String i of the table at `table`: pointer and length, or NULL if the entry
 * points outside the buffer or the string is not NUL-terminated. */
static const char *entry(const struct i18n_mo *mo, uint32_t table, uint32_t i, uint32_t *slen)
{
	uint64_t at = (uint64_t)table + (uint64_t)i * 8;
	if (at + 8 > mo->len)
		return NULL;
	uint32_t l = rd32(mo->data + at, mo->swap);
	uint32_t off = rd32(mo->data + at + 4, mo->swap);
	if ((uint64_t)off + l >= mo->len || mo->data[(size_t)off + l] != '\0')
		return NULL;
	*slen = l;
	return (const char *)mo->data + off;
}

/* strcmp of the key (ctx "\004" msgid, or msgid) against the stored original
 * string up to its first NUL (which always exists, see entry()). */
static int cmp_key(const char *ctx, const char *msgid, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	if (ctx != NULL) {
		for (const unsigned char *c = (const unsigned char *)ctx; *c != '\0'; c++, p++)
			if (*c != *p)
				return *c < *p ? -1 : 1;
		if (*p != 4)
			return 4 < *p ? -1 : 1;
		p++;
	}
	for (const unsigned char *m = (const unsigned char *)msgid;; m++, p++) {
		if (*m != *p)
			return *m < *p ? -1 : 1;
		if (*m == '\0')
			return 0;
	}
}

const char *i18n_mo_lookup(const struct i18n_mo *mo, const char *ctx, const char *msgid,
                           unsigned form, size_t *len)
{
	if (mo == NULL || mo->data == NULL || msgid == NULL)
		return NULL;
	uint32_t lo = 0, hi = mo->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		uint32_t olen;
		const char *o = entry(mo, mo->orig, mid, &olen);
		if (o == NULL)
			return NULL;
		int c = cmp_key(ctx, msgid, o);
		if (c < 0) {
			hi = mid;
		} else if (c > 0) {
			lo = mid + 1;
		} else {
			uint32_t tlen;
			const char *t = entry(mo, mo->trans, mid, &tlen);
			if (t == NULL)
				return NULL;
			/* walk to plural form `form` among the NUL-separated forms */
			const char *end = t + tlen;
			for (unsigned f = 0; f < form; f++) {
				const char *z = memchr(t, '\0', (size_t)(end - t));
				if (z == NULL || z == end)
					return NULL;
				t = z + 1;
			}
			size_t l = strnlen(t, (size_t)(end - t));
			if (l == 0)
				return NULL;
			if (len != NULL)
				*len = l;
			return t;
		}
	}
	return NULL;
}
