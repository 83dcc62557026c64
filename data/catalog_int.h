/*
 * Internal to data/: the catalogue's validating JSON reader (data/catalog_read.c),
 * shared by the loaders of data/catalog.c. A struct ctx names the file and
 * the object being read, so that every error says where it is.
 */
#ifndef GPUX_CATALOG_INT_H
#define GPUX_CATALOG_INT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "data/catalog.h"

#define MAX_FILE_BYTES (16u << 20)
#define MAX_TEXT_BYTES 2000
#define MAX_NAME_CHARS 40
#define MAX_SHORT_TITLE_CHARS 14 /* a narrow tab: "Image/video" */
#define MAX_LABEL_CHARS 22
#define MAX_NUMBER 1e7

struct ctx {
	const char *file;  /* display name: "data/gpus.json" or "DIR/gpus.json" */
	char *where;       /* path of the current object, or NULL at top level */
	char **cause;
};

struct file {
	char *name;       /* display name */
	char *text;       /* owned copy, NUL-terminated */
	size_t len;
	bool absent;      /* optional file not there */
};

int cat_bad(const struct ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void cat_set_where(struct ctx *x, char *where);

/* "gpus[4] (\"h200\")" or "gpus[4]" when the id is not readable yet. */
char *cat_where_item(const char *array, size_t i, const cJSON *obj);

/* Every key of obj must be in allowed[] (NULL-terminated), and none twice. */
int cat_check_keys(const struct ctx *x, const cJSON *obj, const char *const *allowed);

/* The member `key`; *out NULL when absent or JSON null. -1 when it is absent
 * but required (must_exist). */
int cat_member(const struct ctx *x, const cJSON *obj, const char *key, bool must_exist,
		 const cJSON **out);

/* A string of at most max_chars characters (0 = MAX_TEXT_BYTES bytes).
 * nullable: null (or absence, when !must_exist) gives *out = NULL. */
int cat_get_text(const struct ctx *x, const cJSON *obj, const char *key, bool must_exist,
		   bool nullable, long max_chars, char **out);

int cat_get_id(const struct ctx *x, const cJSON *obj, const char *key, char **out);

/* A number in (0, MAX_NUMBER]; NAN for null when nullable. */
int cat_get_positive(const struct ctx *x, const cJSON *obj, const char *key, bool must_exist,
		       bool nullable, double *out);

/* A whole number in [min, max]; -1 for null when nullable. */
int cat_get_int(const struct ctx *x, const cJSON *obj, const char *key, bool must_exist,
		  bool nullable, long min, long max, int *out);

int cat_get_bool(const struct ctx *x, const cJSON *obj, const char *key, bool *out);

/* The top-level array `key` of a file's root object. */
int cat_get_array(const struct ctx *x, const cJSON *root, const char *key, const cJSON **out);

void cat_file_free(struct file *f);

int cat_file_read(const char *dir, const char *base, bool optional, struct file *f,
		    char **cause);

/* Parse a file into its root object; errors give the line and column. */
int cat_file_parse(const struct file *f, cJSON **out, char **cause);

#endif
