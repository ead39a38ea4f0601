/* getdents64 */
#define _GNU_SOURCE
#include "tempfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "error.h"

extern char **environ;

/* The registry is a list of chunks of slots. Chunks are only ever added,
 * never freed or moved, so a handle (a slot's address) stays valid and the
 * handler can walk the list without a lock. */
#define CHUNK_SLOTS 32

/* Folders nested deeper than this inside a registered folder are left
 * (each level holds a getdents buffer on the stack of whichever thread
 * runs the handler); qbank's own temporary folders are one or two deep. */
#define TREE_DEPTH 16

enum kind { KIND_FILE, KIND_DIR, KIND_CHILD };

struct qb_tempfile {
	atomic_int live;     /* 0 free, 2 claimed (being made), 1 registered */
	enum kind kind;
	pid_t owner;         /* the process that registered it */
	pid_t pid;           /* KIND_CHILD: the child, leader of its group */
	int reaped;          /* KIND_CHILD: scratch of remove_now */
	char *path;          /* KIND_FILE, KIND_DIR */
};

struct chunk {
	struct qb_tempfile slot[CHUNK_SLOTS];
	_Atomic(struct chunk *) next;
};

static struct chunk first;
/* Taken by threads that add or find a slot; never by the handler. */
static pthread_mutex_t slots_mu = PTHREAD_MUTEX_INITIALIZER;
/* Changes to the registry under way (see tempfile.h), and whether a
 * handler has started to end the process. */
static atomic_int busy;
static atomic_int dying;
/* Busy sections nest (a rename inside a hold): only the outermost blocks
 * the signals, counts and checks for a dying process. */
static _Thread_local int depth;
static _Thread_local sigset_t outer_mask;   /* the mask outside them */

static const int caught[] = { SIGHUP, SIGINT, SIGPIPE, SIGQUIT, SIGTERM };
#define NCAUGHT (sizeof(caught) / sizeof(caught[0]))

static void caught_set(sigset_t *s)
{
	size_t i;

	sigemptyset(s);
	for (i = 0; i < NCAUGHT; i++)
		sigaddset(s, caught[i]);
}

/* ---- the "busy" sections: every change to the registry ------------------ */

/* Blocks the caught signals in this thread (the handler then cannot run
 * here while the registry changes, and one running elsewhere waits for
 * busy to fall back to 0). When a handler is already ending the process,
 * this thread waits for the end: whatever it was about to create or rename
 * must not happen behind the handler's back. */
static void busy_enter(sigset_t *old)
{
	sigset_t s;

	if (depth++ > 0) {
		*old = outer_mask;
		return;
	}
	caught_set(&s);
	pthread_sigmask(SIG_BLOCK, &s, old);
	outer_mask = *old;
	atomic_fetch_add(&busy, 1);
	if (atomic_load(&dying)) {
		atomic_fetch_sub(&busy, 1);
		depth--;
		pthread_sigmask(SIG_SETMASK, old, NULL);
		for (;;)
			pause();
	}
}

static void busy_leave(const sigset_t *old)
{
	if (--depth > 0)
		return;
	atomic_fetch_sub(&busy, 1);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* Claims a free slot, in a new chunk when every one is taken; NULL when
 * out of memory. A claimed slot (live 2) is invisible to the handler, so
 * this needs no busy section (and may allocate): only publishing it and
 * making what it names do. */
static struct qb_tempfile *slot_take(enum kind kind)
{
	struct chunk *c = &first, *next;
	struct qb_tempfile *t = NULL;
	size_t i;

	pthread_mutex_lock(&slots_mu);
	for (;;) {
		for (i = 0; i < CHUNK_SLOTS && !t; i++)
			if (!atomic_load(&c->slot[i].live))
				t = &c->slot[i];
		if (t)
			break;
		next = atomic_load(&c->next);
		if (!next) {
			next = calloc(1, sizeof(*next));
			if (!next)
				break;
			atomic_store(&c->next, next);
		}
		c = next;
	}
	if (t) {
		free(t->path);   /* left by qb_tempfile_remove_all */
		t->kind = kind;
		t->owner = getpid();
		t->pid = 0;
		t->reaped = 0;
		t->path = NULL;
		atomic_store(&t->live, 2);
	}
	pthread_mutex_unlock(&slots_mu);
	return t;
}

/* Makes a claimed slot visible to the handler, its fields set. Called in a
 * busy section. */
static void slot_publish(struct qb_tempfile *t)
{
	atomic_store(&t->live, 1);
}

/* Gives a slot back; returns its path for the caller to free once out of
 * the busy section (no allocator lock is taken in one: the handler may
 * have stopped a thread that holds it). Called in a busy section when the
 * slot is published. */
static char *slot_release(struct qb_tempfile *t)
{
	char *path = t->path;

	t->path = NULL;
	atomic_store(&t->live, 0);
	return path;
}

/* ---- removing (async-signal-safe from here to remove_now) --------------- */

/* Removes NAME (relative to the folder DIRFD) and, when it is a folder,
 * everything in it, without following symbolic links and without
 * allocating: readdir may allocate, getdents64 is the system call itself. */
static void remove_tree(int dirfd, const char *name, int depth)
{
	char buf[2048] __attribute__((aligned(8)));
	int fd, pass;
	ssize_t n, off;

	if (unlinkat(dirfd, name, 0) == 0 || (errno != EISDIR && errno != EPERM))
		return;   /* removed, gone, or not ours to remove */
	if (depth >= TREE_DEPTH)
		return;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	/* entries removed while the folder is read may make the kernel skip
	 * others; read it again while rmdir finds it not empty */
	for (pass = 0; pass < 4; pass++) {
		while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
			for (off = 0; off < n;) {
				struct dirent64 *d = (struct dirent64 *)(void *)(buf + off);

				off += d->d_reclen;
				if (d->d_name[0] == '.' && (!d->d_name[1] ||
				    (d->d_name[1] == '.' && !d->d_name[2])))
					continue;
				remove_tree(fd, d->d_name, depth + 1);
			}
		}
		if (unlinkat(dirfd, name, AT_REMOVEDIR) == 0 || errno != ENOTEMPTY)
			break;
		if (lseek(fd, 0, SEEK_SET) < 0)
			break;
	}
	close(fd);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The slot I of chunk C, for every registered entry of this process. */
#define EACH_LIVE(c, i, t, me) \
	for ((c) = &first; (c); (c) = atomic_load(&(c)->next)) \
		for ((i) = 0; (i) < CHUNK_SLOTS; (i)++) \
			if (((t) = &(c)->slot[(i)]), \
			    atomic_load(&(t)->live) == 1 && (t)->owner == (me))

/* Sends SIG to every group of registered children not yet reaped; returns
 * how many are left. */
static int children_signal(pid_t me, int sig)
{
	struct chunk *c;
	struct qb_tempfile *t;
	size_t i;
	int left = 0;

	EACH_LIVE(c, i, t, me) {
		if (t->kind != KIND_CHILD || t->reaped)
			continue;
		(void)kill(-t->pid, sig);
		left++;
	}
	return left;
}

/* Reaps the children that have ended (all of them with BLOCK); returns how
 * many are left. */
static int children_reap(pid_t me, int block)
{
	struct chunk *c;
	struct qb_tempfile *t;
	size_t i;
	int left = 0;

	EACH_LIVE(c, i, t, me) {
		pid_t r;

		if (t->kind != KIND_CHILD || t->reaped)
			continue;
		do
			r = waitpid(t->pid, NULL, block ? 0 : WNOHANG);
		while (r < 0 && errno == EINTR);
		if (r == t->pid || (r < 0 && errno == ECHILD))
			t->reaped = 1;
		else
			left++;
	}
	return left;
}

/* Ends the children first, so that none is still writing into a folder
 * about to be removed, then removes the files and folders, and marks every
 * entry it handled as no longer live. Their paths are not freed here (the
 * handler must not): slot_take frees one when it reuses the slot. */
static void remove_now(int sig)
{
	pid_t me = getpid();
	struct chunk *c;
	struct qb_tempfile *t;
	long long deadline;
	size_t i;

	if (children_signal(me, sig)) {
		deadline = now_ms() + QB_TEMPFILE_CHILD_GRACE_MS;
		while (children_reap(me, 0) && now_ms() < deadline)
			(void)poll(NULL, 0, 10);
		if (children_signal(me, SIGKILL))
			(void)children_reap(me, 1);
	}
	EACH_LIVE(c, i, t, me) {
		if (t->kind == KIND_FILE)
			(void)unlink(t->path);
		else if (t->kind == KIND_DIR)
			remove_tree(AT_FDCWD, t->path, 0);
		atomic_store(&t->live, 0);
	}
}

static void on_signal(int sig)
{
	struct sigaction dfl;
	long long deadline;
	int saved = errno;

	/* another thread's handler is already ending the process */
	if (atomic_exchange(&dying, 1))
		return;
	/* a change under way finishes first (a rename completes, a new file
	 * is registered); bounded, so that a stuck thread cannot keep the
	 * process from ending */
	deadline = now_ms() + 5000;
	while (atomic_load(&busy) && now_ms() < deadline)
		(void)poll(NULL, 0, 1);
	remove_now(sig);
	/* end with the signal itself, so that the parent sees how the run
	 * ended (a shell shows 128 + the signal's number); it is blocked
	 * while this handler runs and arrives when it returns */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	(void)sigaction(sig, &dfl, NULL);
	(void)raise(sig);
	errno = saved;
}

/* ---- the public functions ------------------------------------------------ */

/* A claimed slot of KIND holding a copy of PATH, outside any busy section;
 * NULL with errno ENOMEM. */
static struct qb_tempfile *slot_new(enum kind kind, const char *path)
{
	struct qb_tempfile *t = slot_take(kind);
	char *copy = strdup(path);

	if (!t || !copy) {
		if (t)
			atomic_store(&t->live, 0);
		free(copy);
		errno = ENOMEM;
		return NULL;
	}
	t->path = copy;
	return t;
}

/* Gives back a slot that was claimed but never published. */
static void slot_unclaim(struct qb_tempfile *t)
{
	int e = errno;

	free(t->path);
	t->path = NULL;
	atomic_store(&t->live, 0);
	errno = e;
}

int qb_tempfile_create(struct qb_tempfile **out, int *fd, char *tmpl)
{
	struct qb_tempfile *t = slot_new(KIND_FILE, tmpl);
	sigset_t old;

	*out = NULL;
	*fd = -1;
	if (!t)
		return QB_ENOMEM;
	busy_enter(&old);
	*fd = mkstemp(t->path);
	if (*fd >= 0)
		slot_publish(t);
	busy_leave(&old);
	if (*fd < 0) {
		slot_unclaim(t);
		return QB_EIO;
	}
	memcpy(tmpl, t->path, strlen(tmpl));
	*out = t;
	return 0;
}

int qb_tempfile_mkdtemp(struct qb_tempfile **out, char *tmpl)
{
	struct qb_tempfile *t = slot_new(KIND_DIR, tmpl);
	sigset_t old;
	int ok;

	*out = NULL;
	if (!t)
		return QB_ENOMEM;
	busy_enter(&old);
	ok = mkdtemp(t->path) != NULL;
	if (ok)
		slot_publish(t);
	busy_leave(&old);
	if (!ok) {
		slot_unclaim(t);
		return QB_EIO;
	}
	memcpy(tmpl, t->path, strlen(tmpl));
	*out = t;
	return 0;
}

int qb_tempfile_spawn(struct qb_tempfile **out, pid_t *pid, const char *file,
		      char *const argv[], char *const envp[],
		      const posix_spawn_file_actions_t *actions)
{
	struct qb_tempfile *t;
	posix_spawnattr_t attr;
	sigset_t old;
	int e;

	*out = NULL;
	*pid = -1;
	if ((e = posix_spawnattr_init(&attr)) != 0) {
		errno = e;
		return QB_ENOMEM;
	}
	t = slot_take(KIND_CHILD);
	if (!t) {
		posix_spawnattr_destroy(&attr);
		errno = ENOMEM;
		return QB_ENOMEM;
	}
	busy_enter(&old);
	/* its own group; the caller's mask, not the one busy_enter set */
	e = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
	if (!e)
		e = posix_spawnattr_setpgroup(&attr, 0);
	if (!e)
		e = posix_spawnattr_setsigmask(&attr, &old);
	if (!e)
		e = posix_spawnp(&t->pid, file, actions, &attr, argv, envp ? envp : environ);
	if (!e)
		slot_publish(t);
	busy_leave(&old);
	posix_spawnattr_destroy(&attr);
	if (e) {
		slot_unclaim(t);
		errno = e;
		return e == ENOMEM ? QB_ENOMEM : QB_EIO;
	}
	*pid = t->pid;
	*out = t;
	return 0;
}

int qb_tempfile_rename(struct qb_tempfile *t, const char *to)
{
	char *path = NULL;
	sigset_t old;
	int e = 0;

	busy_enter(&old);
	if (rename(t->path, to) != 0)
		e = errno;
	else
		path = slot_release(t);
	busy_leave(&old);
	free(path);
	errno = e;
	return e ? QB_EIO : 0;
}

int qb_tempfile_wait(struct qb_tempfile *t, int *status)
{
	siginfo_t info;
	sigset_t old;
	pid_t pid = t->pid, r;

	/* wait without reaping: the zombie keeps the pid taken until the
	 * entry is gone */
	while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) != 0)
		if (errno != EINTR)
			return QB_EIO;
	busy_enter(&old);
	(void)slot_release(t);
	busy_leave(&old);
	do
		r = waitpid(pid, status, 0);
	while (r < 0 && errno == EINTR);
	return r == pid ? 0 : QB_EIO;
}

/* Ends a child that the caller gives up on: SIGTERM to its group, SIGKILL
 * after the grace period, then reaps it. */
static void end_child(struct qb_tempfile *t)
{
	long long deadline = now_ms() + QB_TEMPFILE_CHILD_GRACE_MS;
	siginfo_t info;
	int killed = 0;

	(void)kill(-t->pid, SIGTERM);
	for (;;) {
		memset(&info, 0, sizeof(info));
		if (waitid(P_PID, (id_t)t->pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
			if (errno == EINTR)
				continue;
			break;   /* ECHILD: reaped already */
		}
		if (info.si_pid == t->pid)
			break;
		if (!killed && now_ms() >= deadline) {
			(void)kill(-t->pid, SIGKILL);
			killed = 1;
		}
		(void)poll(NULL, 0, 10);
	}
	(void)qb_tempfile_wait(t, NULL);
}

void qb_tempfile_delete(struct qb_tempfile *t)
{
	char *path;
	sigset_t old;
	int saved = errno;

	if (!t)
		return;
	if (t->kind == KIND_CHILD) {
		end_child(t);
		errno = saved;
		return;
	}
	busy_enter(&old);
	if (t->kind == KIND_FILE)
		(void)unlink(t->path);
	else
		remove_tree(AT_FDCWD, t->path, 0);
	path = slot_release(t);
	busy_leave(&old);
	free(path);
	errno = saved;
}

void qb_tempfile_forget(struct qb_tempfile *t)
{
	char *path;
	sigset_t old;

	if (!t)
		return;
	busy_enter(&old);
	path = slot_release(t);
	busy_leave(&old);
	free(path);
}

void qb_tempfile_hold(sigset_t *held)
{
	busy_enter(held);
}

void qb_tempfile_release(const sigset_t *held)
{
	busy_leave(held);
}

void qb_tempfile_remove_all(void)
{
	sigset_t old;

	busy_enter(&old);
	remove_now(SIGTERM);
	busy_leave(&old);
}

static void at_exit(void)
{
	qb_tempfile_remove_all();
}

int qb_tempfile_catch_signals(void)
{
	struct sigaction sa, was;
	sigset_t pipe_set;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* one handler at a time per thread: the others are held while it runs */
	caught_set(&sa.sa_mask);
	for (i = 0; i < NCAUGHT; i++) {
		if (sigaction(caught[i], NULL, &was) != 0)
			return QB_EINVAL;
		if (caught[i] != SIGPIPE && was.sa_handler == SIG_IGN)
			continue;
		if (sigaction(caught[i], &sa, NULL) != 0)
			return QB_EINVAL;
	}
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_UNBLOCK, &pipe_set, NULL);
	if (atexit(at_exit) != 0)
		return QB_ENOMEM;
	return 0;
}

/* ---- spools ---------------------------------------------------------------- */

int qb_spool_open(struct qb_spool *s)
{
	FILE *f = tmpfile();

	if (!f) {
		s->f = NULL;
		s->buf = NULL;
		return QB_EIO;
	}
	return qb_spool_attach(s, f);
}

int qb_spool_attach(struct qb_spool *s, FILE *f)
{
	s->f = f;
	s->buf = malloc(QB_SPOOL_BUF);
	if (!s->buf || setvbuf(s->f, s->buf, _IOFBF, QB_SPOOL_BUF) != 0) {
		qb_spool_close(s);
		return QB_ENOMEM;
	}
	return 0;
}

void qb_spool_close(struct qb_spool *s)
{
	if (s->f)
		(void)fclose(s->f);   /* a temporary, discarded */
	free(s->buf);
	s->f = NULL;
	s->buf = NULL;
}
