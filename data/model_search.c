/*
 * data/model_search.c — the model presets a typed name means.
 *
 * People type a model the way they have seen it written: "llama-3-70b",
 * "Llama 3 70B", "llama3 70b", "qwen 72". A query and a preset are both cut
 * into words (at spaces, '-', '_', '/' and where letters turn to digits, so
 * "llama3" is "llama 3"); a preset matches when each word of the query
 * begins one of its words, in its id or its name. "3" begins "3.1", so
 * "llama-3-70b" finds llama-3.1-70b; "70" begins "70b". A query of numbers
 * alone ("0", "70", "0.5b") is a size, never a name: it finds nothing.
 */
#include "data/catalog.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#define MAX_WORDS 16
#define MAX_WORD 48

struct words {
	size_t n;
	char w[MAX_WORDS][MAX_WORD];
};

static bool is_cut(char c)
{
	return c == ' ' || c == '\t' || c == '-' || c == '_' || c == '/';
}

/* Cut s into lower-case words; words past MAX_WORDS are dropped, longer
 * words cut at MAX_WORD - 1 bytes. */
static void split_words(const char *s, struct words *out)
{
	size_t len = 0;

	out->n = 0;
	for (const char *p = s != NULL ? s : "";; p++) {
		bool letter_to_digit = len > 0 && isdigit((unsigned char)*p) &&
				       isalpha((unsigned char)p[-1]);
		if (*p == '\0' || is_cut(*p) || letter_to_digit) {
			if (len > 0 && out->n < MAX_WORDS)
				out->w[out->n++][len] = '\0';
			len = 0;
			if (*p == '\0')
				return;
			if (is_cut(*p))
				continue;
		}
		if (out->n < MAX_WORDS && len + 1 < MAX_WORD)
			out->w[out->n][len++] = (char)tolower((unsigned char)*p);
	}
}

static bool begins_a_word(const char *q, const struct words *w)
{
	size_t n = strlen(q);

	for (size_t i = 0; i < w->n; i++)
		if (strncmp(w->w[i], q, n) == 0)
			return true;
	return false;
}

static bool words_match(const struct words *q, const struct catalog_model *m)
{
	struct words id, name;

	split_words(m->id, &id);
	split_words(m->name, &name);
	for (size_t i = 0; i < q->n; i++)
		if (!begins_a_word(q->w[i], &id) && !begins_a_word(q->w[i], &name))
			return false;
	return q->n > 0;
}

/* A word with a letter beyond a trailing unit ("llama", "8x7b", "v3"; not
 * "70", "0.5b" or "1,3t"): what makes a query a name rather than a size. */
static bool has_name_word(const struct words *q)
{
	for (size_t i = 0; i < q->n; i++) {
		size_t n = strlen(q->w[i]);
		if (n > 0 && strchr("bmt", q->w[i][n - 1]) != NULL)
			n--;
		for (size_t k = 0; k < n; k++)
			if (isalpha((unsigned char)q->w[i][k]))
				return true;
	}
	return false;
}

static bool exact(const struct catalog_model *m, const char *query)
{
	return strcasecmp(m->id, query) == 0 || strcasecmp(m->name, query) == 0;
}

/* The length of a hub id without the suffix of a fine-tuned variant that
 * keeps the architecture ("-Instruct", "-it", ...), compared in any case. */
static size_t hub_stem(const char *s)
{
	static const char *const suffixes[] = {"-instruct", "-it", "-chat", "-hf", "-base", NULL};
	size_t n = strlen(s);
	for (bool cut = true; cut;) {
		cut = false;
		for (size_t i = 0; suffixes[i] != NULL; i++) {
			size_t k = strlen(suffixes[i]);
			if (n > k && strncasecmp(s + n - k, suffixes[i], k) == 0) {
				n -= k;
				cut = true;
			}
		}
	}
	return n;
}

static bool hub_match(const struct catalog_model *m, const char *query)
{
	size_t qn = hub_stem(query);
	for (size_t i = 0; i < m->n_hub; i++) {
		size_t hn = hub_stem(m->hub[i]);
		if (hn == qn && strncasecmp(m->hub[i], query, qn) == 0)
			return true;
	}
	return false;
}

size_t catalog_search_models(const struct catalog *c, const char *query,
			     const struct catalog_model **out, size_t max)
{
	struct words q;
	size_t n = 0;

	if (c == NULL || query == NULL)
		return 0;
	if (strchr(query, '/') != NULL) {
		for (size_t i = 0; i < c->n_models; i++)
			if (hub_match(&c->models[i], query)) {
				if (n < max)
					out[n] = &c->models[i];
				n++;
			}
		return n;
	}
	for (size_t i = 0; i < c->n_models; i++)
		if (exact(&c->models[i], query)) {
			if (n < max)
				out[n] = &c->models[i];
			n++;
		}
	split_words(query, &q);
	for (size_t i = 0; i < c->n_models; i++)
		if (has_name_word(&q) && !exact(&c->models[i], query) &&
		    words_match(&q, &c->models[i])) {
			if (n < max)
				out[n] = &c->models[i];
			n++;
		}
	return n;
}
