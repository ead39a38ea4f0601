/* The package's zip, written with libarchive onto the atomic writer's
 * temporary file.
 *
 * Deterministic bytes: entries carry no timestamp of their own. libarchive
 * turns an entry's mtime into the DOS date with localtime(), so any fixed
 * mtime would still give different bytes in different time zones; with the
 * mtime left unset the DOS field is libarchive's fixed minimum, 1980-01-01
 * 00:00, and the extended-timestamp field holds no time. Mode 0644, owner
 * and group 0, names flagged UTF-8 whatever the locale, deflate at level 1,
 * and no padding after the central directory.
 *
 * Level 1: every item is a small entry compressed on its own, so a higher
 * level finds little more to share. At 10,000 questions level 1 takes a
 * third less of zlib's work than the default level 6 (the export a quarter
 * less CPU time) for a package 6% larger (18.1 MB instead of 17.1 MB);
 * storing without compression would save a little more but triple the
 * size.
 *
 * Write errors: the bytes reach the file through our own callback, which
 * records the first error (e.g. a full disk) and tells libarchive all is
 * well. libarchive 3.6 leaks its deflate stream and buffers when a write
 * fails inside an entry (the archive turns FATAL and archive_write_free
 * skips the cleanup), so it is never told; every call below checks the
 * recorded error instead.
 *
 * A thread of its own: deflate is about half of the export's work, so the
 * items are compressed on a third thread while the reader and the item
 * writer keep theirs, and the three share the two cores. qti_zip_add copies
 * the entry into a queue of RING entries (core/behind.h) and returns; the zip thread
 * writes them in the order they came, so the bytes are those one thread
 * would write. An error on the zip thread is kept and returned by the next
 * call. The XML entries written in two passes (test and manifest) and the
 * end of the archive first wait for the queue to empty, then run on the
 * caller's thread. Opened for one thread (QBANK_THREADS=1), the zip writes
 * every entry on the caller's thread as it comes: the same bytes. */
#include "qti_internal.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../core/behind.h"

/* Entries in flight: enough to ride over an item that takes long to
 * write, few enough to keep memory flat. The caller, once the queue is
 * full, waits until it is half empty; an entry that would take the queued
 * bytes past QUEUE_BYTES (images of up to 16 MB) waits until it is empty,
 * so at most QUEUE_BYTES plus one entry are held. */
#define RING 64
#define QUEUE_BYTES (4u << 20)

struct qti_zip {
	struct archive *a;
	FILE *f;
	char *name;            /* the output, for messages */
	int write_errno;       /* the first write error, 0 when none */
	struct qb_behind *behind;   /* the zip thread; NULL: the caller's */
	int rc;                /* without the thread: the first error, and */
	struct qb_error err;   /* its message */
};

static int zip_error(struct qti_zip *z, struct qb_error *err, const char *what)
{
	const char *msg = archive_error_string(z->a);

	if (z->write_errno)
		qb_error_set(err, QB_EIO, "%s: write failed: %s", z->name, strerror(z->write_errno));
	else
		qb_error_set(err, QB_EIO, "%s: zip: %s: %s", z->name, what, msg ? msg : "failed");
	return QB_EIO;
}

static la_ssize_t write_cb(struct archive *a, void *ctx, const void *buf, size_t len)
{
	struct qti_zip *z = ctx;

	(void)a;
	errno = 0;
	if (!z->write_errno && fwrite(buf, 1, len, z->f) != len)
		z->write_errno = errno ? errno : EIO;
	return (la_ssize_t)len;
}

static int header(struct qti_zip *z, const char *name, uint64_t size, struct qb_error *err)
{
	struct archive_entry *e = archive_entry_new();
	int rc = 0;

	if (!e)
		return QB_ENOMEM;
	archive_entry_set_pathname_utf8(e, name);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	archive_entry_set_size(e, (la_int64_t)size);
	if (archive_write_header(z->a, e) != ARCHIVE_OK || z->write_errno)
		rc = zip_error(z, err, name);
	archive_entry_free(e);
	return rc;
}

static int data(struct qti_zip *z, const char *name, const void *p, size_t len,
		struct qb_error *err)
{
	const char *c = p;

	while (len > 0) {
		la_ssize_t n = archive_write_data(z->a, c, len);

		if (n <= 0 || z->write_errno)
			return zip_error(z, err, name);
		c += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_entry(struct qti_zip *z, const char *name, const void *p, size_t len,
		       struct qb_error *err)
{
	int rc = header(z, name, len, err);

	return rc ? rc : data(z, name, p, len, err);
}

/* ---- the zip thread ------------------------------------------------------ */

/* An entry of the queue, on its thread: the data, then its name. */
static int zip_block(void *ctx, const void *block, size_t len, struct qb_error *err)
{
	return write_entry(ctx, (const char *)block + len, block, len, err);
}

/* The first error, the zip thread's or the caller's. */
static int thread_error(struct qti_zip *z, struct qb_error *err)
{
	if (z->behind)
		return qb_behind_error(z->behind, err);
	if (z->rc && err)
		*err = z->err;
	return z->rc;
}

/* Waits until the zip thread has written every queued entry; afterwards
 * the archive is the caller's until the next qti_zip_add. */
static int drain(struct qti_zip *z, struct qb_error *err)
{
	return z->behind ? qb_behind_drain(z->behind, err) : thread_error(z, err);
}

/* Ends the zip thread; entries still queued are dropped unwritten. */
static void stop_thread(struct qti_zip *z)
{
	qb_behind_close(z->behind);
	z->behind = NULL;
}

int qti_zip_open(struct qti_zip **out, FILE *f, const char *name, int one_thread,
		 struct qb_error *err)
{
	struct qti_zip *z = calloc(1, sizeof(*z));

	*out = NULL;
	if (!z)
		return QB_ENOMEM;
	z->f = f;
	z->name = strdup(name ? name : "-");
	z->a = archive_write_new();
	if (!z->a || !z->name) {
		if (z->a)
			archive_write_free(z->a);
		free(z->name);
		free(z);
		return QB_ENOMEM;
	}
	if (archive_write_set_format_zip(z->a) != ARCHIVE_OK ||
	    archive_write_set_options(z->a, "zip:hdrcharset=UTF-8,zip:compression=deflate,"
				      "zip:compression-level=1") != ARCHIVE_OK ||
	    archive_write_set_bytes_in_last_block(z->a, 1) != ARCHIVE_OK ||
	    archive_write_open(z->a, z, NULL, write_cb, NULL) != ARCHIVE_OK) {
		zip_error(z, err, "cannot start the archive");
		qti_zip_free(z);
		return QB_EIO;
	}
	if (!one_thread && qb_behind_open(&z->behind, zip_block, z, RING, QUEUE_BYTES) != 0) {
		qti_zip_free(z);
		return QB_ENOMEM;
	}
	*out = z;
	return 0;
}

/* qti_zip_add without the thread: the entry is written at once. */
static int add_here(struct qti_zip *z, const char *name, const void *p, size_t len,
		    struct qb_error *err)
{
	int rc = thread_error(z, err);

	if (rc)
		return rc;
	rc = write_entry(z, name, p, len, &z->err);
	if (rc) {
		z->rc = rc;
		*err = z->err;
	}
	return rc;
}

int qti_zip_add(struct qti_zip *z, const char *name, const void *p, size_t len,
		struct qb_error *err)
{
	size_t nlen = strlen(name) + 1;
	unsigned char *block;

	if (!z->behind)
		return add_here(z, name, p, len, err);
	block = malloc(len + nlen);
	if (!block)
		return QB_ENOMEM;
	if (len)
		memcpy(block, p, len);
	memcpy(block + len, name, nlen);
	return qb_behind_push(z->behind, block, len, err);
}

/* ---- XML entries written in two passes ---------------------------------- */

struct sink {
	struct qti_zip *z;     /* NULL: only count */
	uint64_t size;
	int failed;
};

static int sink_write(void *ctx, const char *buf, int len)
{
	struct sink *s = ctx;

	if (len < 0)
		return -1;
	s->size += (uint64_t)len;
	if (s->z) {
		size_t done = 0;

		while (done < (size_t)len) {
			la_ssize_t n = archive_write_data(s->z->a, buf + done, (size_t)len - done);

			if (n <= 0 || s->z->write_errno) {
				s->failed = 1;
				return -1;
			}
			done += (size_t)n;
		}
	}
	return len;
}

static int sink_close(void *ctx)
{
	(void)ctx;
	return 0;
}

static int run_pass(struct sink *s, int (*gen)(xmlTextWriterPtr w, void *ctx), void *ctx)
{
	xmlOutputBufferPtr out = xmlOutputBufferCreateIO(sink_write, sink_close, s, NULL);
	xmlTextWriterPtr w;
	int rc;

	if (!out)
		return QB_ENOMEM;
	w = xmlNewTextWriter(out);
	if (!w) {
		xmlOutputBufferClose(out);
		return QB_ENOMEM;
	}
	rc = gen(w, ctx);
	if (!rc && xmlTextWriterFlush(w) < 0)
		rc = QB_EIO;
	xmlFreeTextWriter(w);          /* closes OUT */
	if (!rc && s->failed)
		rc = QB_EIO;
	return rc;
}

int qti_zip_add_xml(struct qti_zip *z, const char *name,
		    int (*gen)(xmlTextWriterPtr w, void *ctx), void *ctx,
		    struct qb_error *err)
{
	struct sink count = { NULL, 0, 0 }, put = { z, 0, 0 };
	int rc = drain(z, err);

	if (!rc)
		rc = run_pass(&count, gen, ctx);
	if (!rc)
		rc = header(z, name, count.size, err);
	if (!rc)
		rc = run_pass(&put, gen, ctx);
	if (rc == QB_EIO && put.failed)
		return zip_error(z, err, name);
	if (!rc && put.size != count.size) {
		qb_error_set(err, QB_EIO, "zip: %s: the two passes wrote %llu and %llu bytes", name,
			     (unsigned long long)count.size, (unsigned long long)put.size);
		rc = QB_EIO;
	}
	if (rc && !err->msg[0])
		qb_error_set(err, rc, "zip: %s: %s", name, qb_error_str(rc));
	return rc;
}

int qti_zip_close(struct qti_zip *z, struct qb_error *err)
{
	int rc = drain(z, err);

	stop_thread(z);
	if (rc)
		return rc;
	if (archive_write_close(z->a) != ARCHIVE_OK || z->write_errno)
		return zip_error(z, err, "cannot finish the archive");
	return 0;
}

void qti_zip_free(struct qti_zip *z)
{
	if (!z)
		return;
	stop_thread(z);                /* before the archive it writes to goes */
	archive_write_free(z->a);
	free(z->name);
	free(z);
}
