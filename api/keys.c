/*
 * api/keys.c — the API-key endpoints (GET /v1/keys, POST /v1/keys, DELETE
 * /v1/keys/{id}) and the first-run fields of GET /v1/market (opening time,
 * simulated payments, the operator's top-up link and words), as blocking
 * calls for the CLI and asynchronous ones for the TUI, on the request engine
 * of client.c.
 *
 * Decoders are as strict as wire.c's: every field checked, every string
 * sanitised; a created key is checked for its shape and never quoted in a
 * message. An exchange without top-up instructions (or older than them)
 * gives NULL url and text, not an error.
 */
#include "api/internal.h"

#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ID API_SAFE_INT

static const char *const scope_names[] = {"trade", "read"};
static const char *const state_names[] = {"pre_open", "open", "halted"};

const char *api_key_scope_name(enum api_key_scope v)
{
	return (unsigned)v < 2 ? scope_names[v] : "?";
}

/* ---- frees ------------------------------------------------------------------------ */

static void key_clear(struct api_key *k)
{
	free(k->name);
	xfree_secret(k->api_key);
	memset(k, 0, sizeof *k);
}

void api_key_free(struct api_key **p)
{
	if (p == NULL || *p == NULL)
		return;
	key_clear(*p);
	free(*p);
	*p = NULL;
}

void api_keys_free(struct api_keys **p)
{
	if (p == NULL || *p == NULL)
		return;
	for (size_t i = 0; i < (*p)->n; i++)
		key_clear(&(*p)->v[i]);
	free((*p)->v);
	free(*p);
	*p = NULL;
}

void api_topup_free(struct api_topup **p)
{
	if (p == NULL || *p == NULL)
		return;
	free((*p)->url);
	free((*p)->text);
	free(*p);
	*p = NULL;
}

static void free_key(void *r) { api_key_free((struct api_key **)&r); }
static void free_keys(void *r) { api_keys_free((struct api_keys **)&r); }
static void free_topup(void *r) { api_topup_free((struct api_topup **)&r); }

/* ---- decoders ---------------------------------------------------------------------- */

/* One key object at path into *k; with_secret: "api_key" is required. */
static int dec_key_into(const cJSON *o, const char *path, bool with_secret, struct api_key *k,
			char **cause)
{
	int64_t v;
	int i;
	bool b;

	if (api_json_int(o, path, "id", 1, MAX_ID, &v, cause) != 0)
		return -1;
	k->id = v;
	if (api_json_str(o, path, "name", 256, false, &k->name, cause) != 0 ||
	    api_json_enum(o, path, "scope", scope_names, 2, &i, cause) != 0)
		return -1;
	k->scope = (enum api_key_scope)i;
	if (api_json_time(o, path, "created_at", false, &k->created_at, cause) != 0 ||
	    api_json_time(o, path, "last_used_at", true, &k->last_used_at, cause) != 0 ||
	    api_json_time(o, path, "revoked_at", true, &k->revoked_at, cause) != 0 ||
	    api_json_bool(o, path, "current", &b, cause) != 0)
		return -1;
	k->current = b;
	if (with_secret) {
		const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "api_key");
		/* the key is secret: never quote it in a message */
		if (!cJSON_IsString(s) || strlen(s->valuestring) < 8 || strlen(s->valuestring) > 256 ||
		    strspn(s->valuestring, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					   "0123456789_-.") != strlen(s->valuestring)) {
			set_cause(cause, "api_key: expected a key of 8 to 256 letters, digits, "
					 "'_', '-' or '.'");
			return -1;
		}
		k->api_key = xstrdup(s->valuestring);
	}
	return 0;
}

static int dec_key(const cJSON *root, long status, void **out, char **cause)
{
	struct api_key *k = xcalloc(1, sizeof *k);

	if (dec_key_into(root, "", status == 201, k, cause) != 0) {
		api_key_free(&k);
		return -1;
	}
	*out = k;
	return 0;
}

static int dec_keys(const cJSON *root, long status, void **out, char **cause)
{
	struct api_keys *r = xcalloc(1, sizeof *r);
	const cJSON *arr = api_json_array(root, "", "keys", cause), *it;
	size_t i = 0;

	(void)status;
	if (arr == NULL || api_json_int(root, "", "max", 1, 100000, &r->max, cause) != 0)
		goto fail;
	r->v = xcalloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof *r->v);
	cJSON_ArrayForEach(it, arr) {
		char *path = api_json_index("", "keys", i);
		int rc = cJSON_IsObject(it) ? dec_key_into(it, path, false, &r->v[i], cause)
					    : set_cause(cause, "%s: expected an object", path);
		free(path);
		r->n = ++i;
		if (rc != 0)
			goto fail;
	}
	*out = r;
	return 0;
fail:
	api_keys_free(&r);
	return -1;
}

static int dec_topup(const cJSON *root, long status, void **out, char **cause)
{
	struct api_topup *t = xcalloc(1, sizeof *t);
	const cJSON *tu = cJSON_GetObjectItemCaseSensitive(root, "topup");
	int i;
	bool b;

	(void)status;
	if (api_json_enum(root, "", "state", state_names, 3, &i, cause) != 0)
		goto fail;
	t->state = (enum api_market_state)i;
	if (api_json_time(root, "", "opens_at", true, &t->opens_at, cause) != 0 ||
	    api_json_time(root, "", "server_time", true, &t->server_time, cause) != 0 ||
	    api_json_bool(root, "", "simulated_payments", &b, cause) != 0)
		goto fail;
	t->simulated_payments = b;
	if (tu != NULL && !cJSON_IsNull(tu)) {
		if (!cJSON_IsObject(tu)) {
			set_cause(cause, "topup: expected an object or null");
			goto fail;
		}
		if (api_json_str_opt(tu, "topup", "url", 2048, &t->url, cause) != 0 ||
		    api_json_str_opt(tu, "topup", "text", 4096, &t->text, cause) != 0)
			goto fail;
	}
	*out = t;
	return 0;
fail:
	api_topup_free(&t);
	return -1;
}

/* ---- requests ------------------------------------------------------------------------ */

static const struct api_ep ep_key = {"API key", dec_key, free_key, api_deliver_any, NULL, NULL, false};
static const struct api_ep ep_keys = {"API keys", dec_keys, free_keys, api_deliver_any, NULL, NULL, false};
static const struct api_ep ep_topup = {"market", dec_topup, free_topup, api_deliver_any, NULL, NULL, false};

static char *key_body(const char *name, enum api_key_scope scope)
{
	cJSON *b = cJSON_CreateObject();
	char *s, *body;

	if (name != NULL)
		cJSON_AddStringToObject(b, "name", name);
	cJSON_AddStringToObject(b, "scope", api_key_scope_name(scope));
	if ((s = cJSON_PrintUnformatted(b)) == NULL)
		fatal("out of memory");
	body = xstrdup(s);
	cJSON_free(s);
	cJSON_Delete(b);
	return body;
}

uint64_t api_keys_list_start(struct api_client *c, api_keys_cb cb, void *ud)
{
	return api_start_req(c, "GET", xstrdup("/v1/keys"), NULL, API_RETRY_READ, &ep_keys,
			     (void (*)(void))cb, ud);
}

uint64_t api_key_create_start(struct api_client *c, const char *name, enum api_key_scope scope,
			      api_key_cb cb, void *ud)
{
	return api_start_req(c, "POST", xstrdup("/v1/keys"), key_body(name, scope),
			     API_RETRY_UNSAFE, &ep_key, (void (*)(void))cb, ud);
}

uint64_t api_key_revoke_start(struct api_client *c, int64_t id, api_key_cb cb, void *ud)
{
	return api_start_req(c, "DELETE", xasprintf("/v1/keys/%lld", (long long)id), NULL,
			     API_RETRY_UNSAFE, &ep_key, (void (*)(void))cb, ud);
}

uint64_t api_topup_start(struct api_client *c, api_topup_cb cb, void *ud)
{
	return api_start_req(c, "GET", xstrdup("/v1/market"), NULL, API_RETRY_READ, &ep_topup,
			     (void (*)(void))cb, ud);
}

int api_keys_list(struct api_client *c, struct api_keys **out, struct api_error **err)
{
	return api_run_req(c, "GET", xstrdup("/v1/keys"), NULL, API_RETRY_READ, &ep_keys,
			   (void **)out, err);
}

int api_key_create(struct api_client *c, const char *name, enum api_key_scope scope,
		   struct api_key **out, struct api_error **err)
{
	return api_run_req(c, "POST", xstrdup("/v1/keys"), key_body(name, scope),
			   API_RETRY_UNSAFE, &ep_key, (void **)out, err);
}

int api_key_revoke(struct api_client *c, int64_t id, struct api_key **out,
		   struct api_error **err)
{
	return api_run_req(c, "DELETE", xasprintf("/v1/keys/%lld", (long long)id), NULL,
			   API_RETRY_UNSAFE, &ep_key, (void **)out, err);
}

int api_topup(struct api_client *c, struct api_topup **out, struct api_error **err)
{
	return api_run_req(c, "GET", xstrdup("/v1/market"), NULL, API_RETRY_READ, &ep_topup,
			   (void **)out, err);
}

/* ---- decoding for tests -------------------------------------------------------------- */

static const struct api_ep *ep_named(const char *name)
{
	if (strcmp(name, "keys") == 0)
		return &ep_keys;
	if (strcmp(name, "key") == 0)
		return &ep_key;
	if (strcmp(name, "topup") == 0)
		return &ep_topup;
	return NULL;
}

int api_keys_decode(const char *name, long status, const char *data, size_t len, void **out,
		    char **cause)
{
	const struct api_ep *ep = ep_named(name);
	cJSON *root;
	int rc;

	*out = NULL;
	if (ep == NULL)
		return set_cause(cause, "no decoder named %s", name);
	if ((root = api_json_parse(data, len, cause)) == NULL)
		return -1;
	if (!cJSON_IsObject(root))
		rc = set_cause(cause, "expected a JSON object");
	else
		rc = ep->decode(root, status, out, cause);
	cJSON_Delete(root);
	return rc;
}

void api_keys_reply_free(const char *name, void **out)
{
	const struct api_ep *ep = ep_named(name);

	if (ep != NULL && out != NULL && *out != NULL)
		ep->free_reply(*out);
	if (out != NULL)
		*out = NULL;
}
