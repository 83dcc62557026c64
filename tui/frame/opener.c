/*
 * The interactive screen's exchange, opened on a thread of its own
 * (api_open: the config file and, with no exchange configured, the local
 * demo exchange — started or reused, its socket waited for, its account
 * checked or opened over the network). The loop keeps drawing and reading
 * keys meanwhile: a frozen local exchange must not make q wait for the
 * client's timeouts. The thread writes one byte to a pipe when it is done;
 * the loop polls the pipe and takes the client.
 *
 * Ownership: the opener is shared by the loop and the thread, and freed by
 * whichever lets go of it last. A session that ends first abandons it: the
 * thread finishes by itself and frees the client it made (the process is
 * usually gone by then).
 */
#include "tui/tui_int.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

struct tui_opener {
	pthread_mutex_t lock;
	int refs;                   /* the loop and the thread */
	int pipe[2];                /* [0] readable once done */
	bool done;
	/* what api_open is given (copies) and what it gives */
	struct api_open_opts o;
	char *url, *key, *profile;
	struct api_client *c;
	struct api_settings used;
	char *cause;
};

static void opener_free(struct tui_opener *op)
{
	api_client_free(&op->c);
	api_settings_clear(&op->used);
	free(op->cause);
	free(op->url);
	free(op->profile);
	xfree_secret(op->key);
	close(op->pipe[0]);
	close(op->pipe[1]);
	pthread_mutex_destroy(&op->lock);
	free(op);
}

/* Let go of op: the last one frees it. */
static void opener_unref(struct tui_opener *op)
{
	bool last;

	pthread_mutex_lock(&op->lock);
	last = --op->refs == 0;
	pthread_mutex_unlock(&op->lock);
	if (last)
		opener_free(op);
}

static void *opener_run(void *ud)
{
	struct tui_opener *op = ud;
	struct api_settings used = {0};
	char *cause = NULL;
	struct api_client *c = api_open(&op->o, &used, &cause);
	char byte = 1;

	pthread_mutex_lock(&op->lock);
	op->c = c;
	op->used = used;
	op->cause = cause;
	op->done = true;
	pthread_mutex_unlock(&op->lock);
	if (write(op->pipe[1], &byte, 1) < 0) {
		/* the loop also looks at done when it takes the client */
	}
	opener_unref(op);
	return NULL;
}

struct tui_opener *tui_opener_start(const struct api_open_opts *o)
{
	struct tui_opener *op = xcalloc(1, sizeof *op);
	pthread_t th;
	pthread_attr_t attr;

	if (pipe2(op->pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
		free(op);
		return NULL;
	}
	pthread_mutex_init(&op->lock, NULL);
	op->o = *o;
	op->url = o->url != NULL ? xstrdup(o->url) : NULL;
	op->key = o->key != NULL ? xstrdup(o->key) : NULL;
	op->profile = o->profile != NULL ? xstrdup(o->profile) : NULL;
	op->o.url = op->url;
	op->o.key = op->key;
	op->o.profile = op->profile;
	op->refs = 2;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&th, &attr, opener_run, op) != 0) {
		pthread_attr_destroy(&attr);
		op->refs = 1;
		opener_free(op);
		return NULL;
	}
	pthread_attr_destroy(&attr);
	return op;
}

int tui_opener_fd(const struct tui_opener *op)
{
	return op->pipe[0];
}

bool tui_opener_take(struct tui_opener **opp, struct api_client **c, struct api_settings *used,
		     char **cause)
{
	struct tui_opener *op = *opp;
	char byte;
	bool done;

	pthread_mutex_lock(&op->lock);
	done = op->done;
	if (done) {
		*c = op->c;
		*used = op->used;
		*cause = op->cause;
		op->c = NULL;
		memset(&op->used, 0, sizeof op->used);
		op->cause = NULL;
	}
	pthread_mutex_unlock(&op->lock);
	if (!done)
		return false;
	while (read(op->pipe[0], &byte, 1) > 0)
		;
	*opp = NULL;
	opener_unref(op);
	return true;
}

void tui_opener_abandon(struct tui_opener **opp)
{
	if (*opp == NULL)
		return;
	opener_unref(*opp);
	*opp = NULL;
}
