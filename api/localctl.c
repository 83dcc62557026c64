/*
 * The local demo exchange seen from outside (`gpux demo status|stop|reset`):
 * whether it runs, which process and binary, how big its files are; stopping
 * it; resetting it to a fresh demo market.
 *
 * A process is only ever signalled when the pid file names it AND its
 * command line is a gpuxd --demo on our own database, so a pid file left over
 * from a crash whose number the kernel gave to someone else is never acted
 * on. Stopping is SIGTERM, after which gpuxd finishes what is queued, folds
 * its WAL into the database and removes its socket and pid file.
 */
#include "api/internal.h"

#include "i18n/i18n.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define STOP_WAIT_MS 10000

/* Does /proc/pid/cmdline hold the argument `arg`? */
static bool cmdline_has(int pid, const char *arg)
{
	char path[64], *data = NULL, *cause = NULL;
	size_t len = 0;
	bool found = false;

	snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
	if (util_read_file(path, &data, &len, &cause) != 0) {
		free(cause);
		return false;
	}
	for (size_t i = 0; i < len; i += strlen(data + i) + 1)
		if (strcmp(data + i, arg) == 0)
			found = true;
	free(data);
	return found;
}

int api_local_pid(const struct local_paths *p)
{
	char *data = NULL, *cause = NULL;
	size_t len;
	int pid = 0;

	if (util_read_file(p->pidfile, &data, &len, &cause) == 0)
		pid = atoi(data);
	free(data);
	free(cause);
	if (pid <= 0 || kill(pid, 0) != 0 || !cmdline_has(pid, "--demo") ||
	    !cmdline_has(pid, p->db))
		return 0;
	return pid;
}

char *api_local_socket_of(int pid)
{
	char path[64], *data = NULL, *cause = NULL, *sock = NULL;
	size_t len = 0;

	snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
	if (util_read_file(path, &data, &len, &cause) != 0) {
		free(cause);
		return NULL;
	}
	for (size_t i = 0; i < len; i += strlen(data + i) + 1)
		if (strcmp(data + i, "--socket") == 0 && i + strlen(data + i) + 1 < len) {
			sock = xstrdup(data + i + strlen(data + i) + 1);
			break;
		}
	free(data);
	return sock;
}

bool api_local_same_binary(int pid, const char *path)
{
	char exe[64];
	struct stat a, b;

	snprintf(exe, sizeof exe, "/proc/%d/exe", pid);
	if (stat(exe, &a) != 0 || stat(path, &b) != 0)
		return true;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int api_local_stop_pid(const struct local_paths *p, int pid, char **cause)
{
	int64_t deadline = util_now_ms() + STOP_WAIT_MS;

	if (kill(pid, SIGTERM) != 0 && errno != ESRCH)
		return set_cause(cause, _("cannot stop the local demo exchange (pid %d): %s"), pid,
				 strerror(errno));
	while (kill(pid, 0) == 0 && api_local_socket_alive(p->sock)) {
		struct timespec ts = {0, 20 * 1000 * 1000};
		if (util_now_ms() > deadline)
			return set_cause(cause, _("the local demo exchange (pid %d) did not stop within "
						  "%d s"), pid, STOP_WAIT_MS / 1000);
		nanosleep(&ts, NULL);
	}
	/* the socket is gone: wait a little more for the process itself, so that
	 * a reset never removes a database it still has open */
	while (kill(pid, 0) == 0 && cmdline_has(pid, p->db) && util_now_ms() < deadline) {
		struct timespec ts = {0, 20 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	return 0;
}

static int64_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (int64_t)st.st_size : -1;
}

int api_local_status(struct api_local_status *st, char **cause)
{
	struct local_paths p;
	char *gpuxd, *wal;

	memset(st, 0, sizeof *st);
	if (api_local_paths(&p, cause) != 0)
		return -1;
	st->data_dir = xstrdup(p.data_dir);
	st->socket_path = xstrdup(p.sock);
	st->log_path = xstrdup(p.log);
	st->db_path = xstrdup(p.db);
	st->running = api_local_socket_alive(p.sock);
	st->pid = api_local_pid(&p);
	gpuxd = api_local_find_gpuxd();
	st->stale_binary = st->pid > 0 && gpuxd != NULL && !api_local_same_binary(st->pid, gpuxd);
	free(gpuxd);
	st->db_bytes = file_size(p.db);
	wal = xasprintf("%s-wal", p.db);
	st->wal_bytes = file_size(wal);
	free(wal);
	st->has_account = access(p.keyfile, F_OK) == 0;
	api_local_paths_clear(&p);
	return 0;
}

void api_local_status_clear(struct api_local_status *st)
{
	free(st->data_dir);
	free(st->socket_path);
	free(st->log_path);
	free(st->db_path);
	memset(st, 0, sizeof *st);
}

/* Stop under the startup lock (so no gpux starts it meanwhile); with reset,
 * remove its files too, still under the lock. */
static int stop_locked(bool reset, char **cause)
{
	struct local_paths p;
	int lfd, rc = 0, pid;

	if (api_local_paths(&p, cause) != 0)
		return -1;
	lfd = open(p.lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lfd < 0 || flock(lfd, LOCK_EX) != 0) {
		rc = set_cause(cause, _("cannot lock %s: %s"), p.lock, strerror(errno));
		goto out;
	}
	pid = api_local_pid(&p);
	if (pid > 0)
		rc = api_local_stop_pid(&p, pid, cause) == 0 ? 1 : -1;
	else if (api_local_socket_alive(p.sock))
		rc = set_cause(cause, _("something answers on %s but its pid file does not name a "
					"gpuxd --demo; stop it yourself"), p.sock);
	if (rc >= 0) {
		unlink(p.pidfile);
		unlink(p.sock);
	}
	if (rc >= 0 && reset) {
		const char *suffix[] = {"", "-wal", "-shm", ".lock"};
		for (size_t i = 0; i < 4; i++) {
			char *f = xasprintf("%s%s", p.db, suffix[i]);
			if (unlink(f) != 0 && errno != ENOENT && rc >= 0)
				rc = set_cause(cause, _("cannot remove %s: %s"), f, strerror(errno));
			free(f);
		}
		if (unlink(p.keyfile) != 0 && errno != ENOENT && rc >= 0)
			rc = set_cause(cause, _("cannot remove %s: %s"), p.keyfile, strerror(errno));
	}
out:
	if (lfd >= 0)
		close(lfd);
	api_local_paths_clear(&p);
	return rc;
}

int api_local_stop(char **cause)
{
	return stop_locked(false, cause);
}

int api_local_reset(char **cause)
{
	return stop_locked(true, cause) < 0 ? -1 : 0;
}
