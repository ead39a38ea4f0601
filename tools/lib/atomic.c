/* fopencookie and sync_file_range */
#define _GNU_SOURCE
#include "atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/behind.h"
#include "core/buf.h"
#include "fcopy.h"
#include "tempfile.h"

/* A temporary file is written to its descriptor through a stream of our
 * own with a STREAM_BUFFER buffer, and every WRITEBACK bytes the kernel is
 * asked to start writing what came before to disk. The fsync at commit
 * then waits for the last stretch only, not for the whole output: a 317 MB
 * Moodle export spent 0.9 s in a final fsync that did all of the writing.
 *
 * Written behind (core/behind.h): each full buffer is copied into a block
 * that a thread of its own writes, at most BEHIND_BLOCKS blocks and
 * BEHIND_BYTES at once, so that the exporter goes on while the kernel
 * copies the last megabyte into the page cache (on the benchmark machine
 * about 2 ms a megabyte, a sixth of the Moodle export's time). A write
 * error there comes back from the stream's next write, or from the commit.
 * With QBANK_THREADS=1 the stream writes on the caller's thread. */
#define STREAM_BUFFER (256 << 10)
#define BEHIND_BLOCKS 8
#define BEHIND_BYTES (2u << 20)
#define WRITEBACK (8 << 20)

struct qb_atomic {
	FILE *f;
	int fd;          /* the temporary file's descriptor, -1 for a spool */
	off_t written;   /* bytes handed to the kernel, and of those the ones */
	off_t started;   /* whose writeback was started */
	int werr;        /* errno of the first failed write, 0 when none; on
			  * the writing thread until the queue reports it */
	struct qb_behind *behind;   /* the writing thread, NULL: the caller's */
	int discard;     /* aborted: the stream's last bytes are dropped */
	char *buf;       /* the stream's buffer */
	char *path;      /* target, NULL for standard output */
	struct qb_tempfile *tmp;   /* the temporary file (its entry in the registry,
				    * tempfile.h), NULL for standard output */
	char *device;    /* target that is not a regular file (/dev/null, a FIFO): spooled */
	int own_fd;      /* the descriptor a target such as /dev/stdout names, or -1 */
};

/* N more bytes are in the temporary file. */
static void wrote(struct qb_atomic *a, off_t n)
{
	a->written += n;
	if (a->written - a->started >= WRITEBACK) {
		/* only a head start: an error here shows again at the fsync */
		(void)sync_file_range(a->fd, a->started, a->written - a->started,
				      SYNC_FILE_RANGE_WRITE);
		a->started = a->written;
	}
}

/* Writes N bytes of BUF to the temporary file, all of them or none. */
static int write_all(struct qb_atomic *a, const char *buf, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(a->fd, buf + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w == 0)
			errno = EIO;
		if (w <= 0) {
			if (!a->werr)
				a->werr = errno;
			return -1;
		}
		done += (size_t)w;
	}
	wrote(a, (off_t)n);
	return 0;
}

/* A block of the queue, on its thread. */
static int write_block(void *ctx, const void *block, size_t len, struct qb_error *err)
{
	struct qb_atomic *a = ctx;

	if (write_all(a, block, len) == 0)
		return 0;
	qb_error_set(err, QB_EIO, "%s", strerror(a->werr));
	return QB_EIO;
}

/* After the queue reported an error: its errno for stdio and the caller. */
static ssize_t failed(struct qb_atomic *a)
{
	errno = a->werr ? a->werr : EIO;
	return -1;
}

static ssize_t stream_write(void *cookie, const char *buf, size_t n)
{
	struct qb_atomic *a = cookie;
	char *copy;

	if (a->discard)
		return (ssize_t)n;
	if (!a->behind)
		return write_all(a, buf, n) == 0 ? (ssize_t)n : -1;
	copy = malloc(n ? n : 1);
	if (!copy)
		return -1;
	memcpy(copy, buf, n);
	if (qb_behind_push(a->behind, copy, n, NULL) != 0)
		return failed(a);
	return (ssize_t)n;
}

/* Waits for the writing thread; 0, or -1 with errno after a failed write. */
static int settle(struct qb_atomic *a)
{
	if (a->behind && qb_behind_drain(a->behind, NULL) != 0) {
		failed(a);
		return -1;
	}
	return 0;
}

static int stream_close(void *cookie)
{
	struct qb_atomic *a = cookie;
	int rc = close(a->fd);

	a->fd = -1;
	return rc;
}

static const cookie_io_functions_t stream_io = { NULL, stream_write, NULL, stream_close };

/* The descriptor that PATH names when it is one of the process's own
 * (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), or -1. */
static int own_descriptor(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	size_t i;

	if (strcmp(path, "/dev/stdout") == 0)
		return 1;
	if (strcmp(path, "/dev/stderr") == 0)
		return 2;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t n = strlen(dirs[i]);
		const char *p = path + n;
		long v = 0;

		if (strncmp(path, dirs[i], n) != 0 || !*p)
			continue;
		for (; *p >= '0' && *p <= '9' && v < 1000000; p++)
			v = v * 10 + (*p - '0');
		if (!*p)
			return (int)v;
	}
	return -1;
}

/* Output to standard output or a device is spooled first (qb_spool_open;
 * its buffer is a's, freed after the stream is closed). */
static int spool(struct qb_atomic *a)
{
	struct qb_spool s;
	int rc = qb_spool_open(&s);

	a->f = s.f;
	a->buf = s.buf;
	return rc;
}

int qb_atomic_open(struct qb_atomic **out, const char *path, struct qb_error *err)
{
	struct qb_atomic *a;
	struct qb_buf t = QB_BUF_INIT;
	const char *slash;
	int fd, rc;

	*out = NULL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return QB_ENOMEM;
	a->fd = -1;
	a->own_fd = -1;
	if (!path || strcmp(path, "-") == 0) {
		if (spool(a)) {
			qb_error_set(err, QB_EIO, "cannot create a temporary file to spool the output (%s); "
				     "check TMPDIR or write to a file with -o", strerror(errno));
			free(a);
			return QB_EIO;
		}
		*out = a;
		return 0;
	}
	{
		struct stat st;

		/* -o /dev/null or a FIFO: never rename a temporary file over a
		 * device (as root that would replace the device node); spool and
		 * copy on commit, like standard output. -o /dev/stdout and the
		 * like name one of the process's descriptors, whatever it is
		 * open on (a file, as with "> out" or ">> out", a pipe, a
		 * terminal): spooled and written to that descriptor, so that the
		 * link is never replaced and ">>" appends */
		a->own_fd = own_descriptor(path);
		if (a->own_fd >= 0 ||
		    (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))) {
			a->device = strdup(path);
			if (!a->device || spool(a)) {
				qb_error_set(err, QB_EIO, "cannot create a temporary file to spool the output (%s); "
					     "check TMPDIR", strerror(errno));
				free(a->device);
				free(a);
				return QB_EIO;
			}
			*out = a;
			return 0;
		}
	}
	slash = strrchr(path, '/');
	if (slash)
		qb_buf_printf(&t, "%.*s/.%s.tmp-XXXXXX", (int)(slash - path), path, slash + 1);
	else
		qb_buf_printf(&t, ".%s.tmp-XXXXXX", path);
	a->path = strdup(path);
	if (!t.ptr || !a->path) {
		qb_buf_dispose(&t);
		free(a->path);
		free(a);
		return QB_ENOMEM;
	}
	/* registered, so that an interrupted run removes it */
	rc = qb_tempfile_create(&a->tmp, &fd, t.ptr);
	qb_buf_dispose(&t);
	if (rc) {
		if (rc == QB_EIO)
			qb_error_set(err, QB_EIO, "%s: cannot create a file in its folder (%s); "
				     "check that the folder exists and is writable", path, strerror(errno));
		free(a->path);
		free(a);
		return rc;
	}
	a->fd = fd;
	if (!qb_threads_one())   /* without the thread the stream writes itself */
		(void)qb_behind_open(&a->behind, write_block, a, BEHIND_BLOCKS, BEHIND_BYTES);
	a->f = fopencookie(a, "wb", stream_io);
	/* without the big buffer the stream still works, in 4 KB writes */
	a->buf = a->f ? malloc(STREAM_BUFFER) : NULL;
	if (a->buf && setvbuf(a->f, a->buf, _IOFBF, STREAM_BUFFER) != 0) {
		free(a->buf);
		a->buf = NULL;
	}
	if (!a->f) {
		qb_behind_close(a->behind);
		close(fd);
		qb_tempfile_delete(a->tmp);
		free(a->path);
		free(a);
		return QB_EIO;
	}
	*out = a;
	return 0;
}

FILE *qb_atomic_file(struct qb_atomic *a)
{
	return a->f;
}

int qb_atomic_write_error(const struct qb_atomic *a)
{
	if (!a)
		return 0;
	/* the thread's errno is the caller's once the queue has reported it */
	if (a->behind && !qb_behind_error(a->behind, NULL))
		return 0;
	return a->werr;
}

int qb_atomic_copy(struct qb_atomic *a, FILE *from, uint64_t n)
{
	if (a->fd >= 0 && !a->werr) {
		int64_t k;

		if (fflush(a->f) != 0 || settle(a) != 0)
			return QB_EIO;
		k = qb_fcopy_kernel(a->fd, from, n);
		if (k >= 0) {
			wrote(a, (off_t)k);
			return 0;
		}
		if (!qb_fcopy_unsupported(errno)) {
			a->werr = errno;
			return QB_EIO;
		}
	}
	return qb_fcopy(a->f, from, n);
}

const char *qb_atomic_path(const struct qb_atomic *a)
{
	return a->path ? a->path : a->device ? a->device : "-";
}

static void dispose(struct qb_atomic *a)
{
	qb_behind_close(a->behind);
	free(a->buf);        /* after fclose: the stream's buffer */
	free(a->device);
	free(a->path);
	free(a);
}

/* Copies the spooled bytes of F to OUT (named NAME in messages). */
static int copy_out(FILE *f, FILE *out, const char *name, struct qb_error *err)
{
	if (ferror(f) || fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0) {
		qb_error_set(err, QB_EIO, "cannot read back the spooled output: %s", strerror(errno));
		return QB_EIO;
	}
	if (qb_fcopy(out, f, UINT64_MAX) != 0) {
		qb_error_set(err, QB_EIO, "%s: %s", name, strerror(errno));
		return QB_EIO;
	}
	return 0;
}

/* A stream onto OWN_FD (a copy of the descriptor, so that closing the
 * stream leaves it open), or onto PATH opened for writing when OWN_FD is -1. */
static FILE *device_stream(const char *path, int own_fd)
{
	FILE *out;
	int fd;

	if (own_fd < 0)
		return fopen(path, "wb");
	fd = dup(own_fd);
	out = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!out && fd >= 0)
		close(fd);
	return out;
}

static int copy_to_device(FILE *f, const char *path, int own_fd, struct qb_error *err)
{
	FILE *out;
	int rc;

	/* standard output and error through their streams, after what they hold */
	if (own_fd == 1 || own_fd == 2)
		return copy_out(f, own_fd == 1 ? stdout : stderr, path, err);
	out = device_stream(path, own_fd);
	if (!out) {
		qb_error_set(err, QB_EIO, "%s: cannot open for writing: %s", path, strerror(errno));
		return QB_EIO;
	}
	rc = copy_out(f, out, path, err);
	if (fclose(out) != 0 && !rc) {
		qb_error_set(err, QB_EIO, "%s: write failed: %s", path, strerror(errno));
		rc = QB_EIO;
	}
	return rc;
}

/* Flushes, syncs and closes the temporary file, every result checked, so
 * that only the rename is left; once (a->f is then NULL). */
static int finish(struct qb_atomic *a, struct qb_error *err)
{
	mode_t mask;
	int rc = 0;

	if (!a->path || !a->f)
		return 0;
	/* the temporary file is 0600; give the output the usual permissions */
	mask = umask(0);
	umask(mask);
	if (ferror(a->f) || fflush(a->f) != 0 || settle(a) != 0 ||
	    fchmod(a->fd, 0666 & ~mask) != 0 || fsync(a->fd) != 0) {
		qb_error_set(err, QB_EIO, "%s: write failed: %s", a->path, strerror(errno));
		rc = QB_EIO;
	}
	if (fclose(a->f) != 0 && !rc) {
		qb_error_set(err, QB_EIO, "%s: write failed: %s", a->path, strerror(errno));
		rc = QB_EIO;
	}
	a->f = NULL;
	return rc;
}

int qb_atomic_commit(struct qb_atomic *a, struct qb_error *err)
{
	int rc;

	if (!a->path) {
		rc = a->device ? copy_to_device(a->f, a->device, a->own_fd, err)
			       : copy_out(a->f, stdout, "standard output", err);
		(void)fclose(a->f);   /* a read-back spool: nothing to lose */
		dispose(a);
		return rc;
	}
	rc = finish(a, err);
	/* the rename replaces a symbolic link at the target rather than the
	 * file it points to (qbank.1 "OUTPUT FILES") */
	if (!rc && qb_tempfile_rename(a->tmp, a->path) != 0) {
		qb_error_set(err, QB_EIO, "%s: cannot replace the file: %s", a->path, strerror(errno));
		rc = QB_EIO;
	}
	if (rc)
		qb_tempfile_delete(a->tmp);
	dispose(a);
	return rc;
}

int qb_atomic_commit_all(struct qb_atomic **v, size_t n, struct qb_error *err)
{
	sigset_t held;
	size_t i;
	int rc = 0;

	for (i = 0; i < n && !rc; i++)
		if (v[i])
			rc = finish(v[i], err);
	/* the renames only, with the signal handler held off (an fsync can
	 * take long, a rename does not) */
	qb_tempfile_hold(&held);
	for (i = 0; i < n; i++) {
		if (!v[i] || !v[i]->path)
			continue;
		if (!rc)
			rc = qb_atomic_commit(v[i], err);
		else
			qb_atomic_abort(v[i]);
		v[i] = NULL;
	}
	qb_tempfile_release(&held);
	/* spooled outputs are copied out afterwards: a slow reader of a pipe
	 * must not hold off an interrupt */
	for (i = 0; i < n; i++) {
		if (!v[i])
			continue;
		if (!rc)
			rc = qb_atomic_commit(v[i], err);
		else
			qb_atomic_abort(v[i]);
		v[i] = NULL;
	}
	return rc;
}

void qb_atomic_abort(struct qb_atomic *a)
{
	if (!a)
		return;
	/* the thread first: fclose closes the descriptor it writes to */
	qb_behind_close(a->behind);
	a->behind = NULL;
	a->discard = 1;
	if (a->f)
		(void)fclose(a->f);   /* discarded anyway */
	qb_tempfile_delete(a->tmp);   /* NULL for standard output */
	dispose(a);
}
