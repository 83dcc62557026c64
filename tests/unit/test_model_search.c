/*
 * tests/unit/test_model_search.c — the presets a typed model name means
 * (catalog_search_models, data/model_search.c), against the embedded
 * catalogue: the spellings people type for well-known models find the one
 * preset they mean; a query two presets share finds both; words that name
 * nothing find nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "data/catalog.h"

static int setup(void **state)
{
	struct catalog *c = NULL;
	char *cause = NULL;

	if (catalog_load(NULL, &c, &cause) != 0) {
		print_error("catalog_load: %s\n", cause != NULL ? cause : "?");
		free(cause);
		return -1;
	}
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct catalog *c = *state;

	catalog_free(&c);
	return 0;
}

/* The one preset q finds, or NULL when it finds none or more than one. */
static const char *only(const struct catalog *c, const char *q)
{
	const struct catalog_model *m[8];
	size_t n = catalog_search_models(c, q, m, 8);

	return n == 1 ? m[0]->id : NULL;
}

static void spellings_find_the_preset(void **state)
{
	const struct catalog *c = *state;

	assert_string_equal(only(c, "llama-3.1-70b"), "llama-3.1-70b");
	assert_string_equal(only(c, "LLAMA-3.1-70B"), "llama-3.1-70b");
	assert_string_equal(only(c, "Llama 3.1 70B"), "llama-3.1-70b");
	assert_string_equal(only(c, "llama-3-70b"), "llama-3.1-70b");
	assert_string_equal(only(c, "llama3 70b"), "llama-3.1-70b");
	assert_string_equal(only(c, "llama 3.1 8"), "llama-3.1-8b");
	assert_string_equal(only(c, "qwen3 30b a3b"), "qwen3-30b-a3b");
	assert_string_equal(only(c, "gpt-oss-120b"), "gpt-oss-120b");
	assert_string_equal(only(c, "llama 405"), "llama-3.1-405b");
	assert_string_equal(only(c, "qwen 72"), "qwen2.5-72b");
	assert_string_equal(only(c, "qwen2.5 0.5b"), "qwen2.5-0.5b");
	assert_string_equal(only(c, "mixtral 8x22b"), "mixtral-8x22b");
	assert_string_equal(only(c, "deepseek v2 lite"), "deepseek-v2-lite");
	assert_string_equal(only(c, "sdxl"), "sdxl");
}

static void exact_first_then_words(void **state)
{
	const struct catalog *c = *state;
	const struct catalog_model *m[8];
	size_t n;

	/* "llama-2-7b" is a preset's id; no other preset has a word beginning "7b" */
	n = catalog_search_models(c, "llama-2-7b", m, 8);
	assert_int_equal(n, 1);
	assert_string_equal(m[0]->id, "llama-2-7b");
	/* two Llama presets of 70 B */
	n = catalog_search_models(c, "llama 70", m, 8);
	assert_int_equal(n, 2);
	assert_true((strcmp(m[0]->id, "llama-3.1-70b") == 0 && strcmp(m[1]->id, "llama-2-70b") == 0) ||
		    (strcmp(m[1]->id, "llama-3.1-70b") == 0 && strcmp(m[0]->id, "llama-2-70b") == 0));
	/* an id is exact and comes first: "llama-3-8b", then Llama 3.1 8B whose
	 * words it begins */
	n = catalog_search_models(c, "llama-3-8b", m, 8);
	assert_int_equal(n, 2);
	assert_string_equal(m[0]->id, "llama-3-8b");
	assert_string_equal(m[1]->id, "llama-3.1-8b");
	/* "v3" begins "v3.1": DeepSeek-V3 and V3.1, the exact id first */
	n = catalog_search_models(c, "deepseek-v3", m, 8);
	assert_int_equal(n, 2);
	assert_string_equal(m[0]->id, "deepseek-v3");
	assert_string_equal(m[1]->id, "deepseek-v3.1");
	/* max bounds what is written, not what is counted */
	assert_int_equal(catalog_search_models(c, "llama", m, 1), 11);
}

/* A hub id ("Org/Name") finds the preset that lists it, an instruct or chat
 * fine-tune of it too (same architecture), in any case; a hub id no preset
 * lists finds nothing, not a preset of a similar name. */
static void hub_ids(void **state)
{
	const struct catalog *c = *state;
	const struct catalog_model *m[8];

	assert_string_equal(only(c, "meta-llama/Llama-3.1-70B"), "llama-3.1-70b");
	assert_string_equal(only(c, "Qwen/Qwen2.5-72B-Instruct"), "qwen2.5-72b");
	assert_string_equal(only(c, "qwen/qwen3-30b-a3b"), "qwen3-30b-a3b");
	assert_string_equal(only(c, "deepseek-ai/DeepSeek-V3"), "deepseek-v3");
	assert_string_equal(only(c, "google/gemma-3-27b-it"), "gemma-3-27b");
	assert_string_equal(only(c, "openai/gpt-oss-20b"), "gpt-oss-20b");
	assert_int_equal(catalog_search_models(c, "meta-llama/Llama-3.3-70B-Instruct", m, 8), 0);
	assert_int_equal(catalog_search_models(c, "someone/llama-3.1-70b-finetune", m, 8), 0);
	assert_int_equal(catalog_search_models(c, "/", m, 8), 0);
}

static void nothing_matches(void **state)
{
	const struct catalog *c = *state;
	const struct catalog_model *m[8];

	assert_int_equal(catalog_search_models(c, "gpt-5", m, 8), 0);
	assert_int_equal(catalog_search_models(c, "", m, 8), 0);
	assert_int_equal(catalog_search_models(c, "   ", m, 8), 0);
	assert_int_equal(catalog_search_models(c, "llama 71", m, 8), 0);
	/* numbers alone are a size, never a name ("0" begins qwen2.5-0.5b's "0.5b") */
	assert_int_equal(catalog_search_models(c, "0", m, 8), 0);
	assert_int_equal(catalog_search_models(c, "0.5b", m, 8), 0);
	assert_int_equal(catalog_search_models(c, "7 70", m, 8), 0);
	/* a word must begin a word: "ama" is inside "llama", not at its start */
	assert_int_equal(catalog_search_models(c, "ama", m, 8), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(spellings_find_the_preset),
		cmocka_unit_test(exact_first_then_words),
		cmocka_unit_test(nothing_matches),
		cmocka_unit_test(hub_ids),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
