#include "imgpath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "limits.h"

/* The lexical checks: everything that can be judged from SRC alone. */
static const char *lexical(const char *src)
{
	const char *p, *seg;

	if (!src || !*src)
		return "is empty";
	if (src[0] == '/')
		return "is an absolute path";
	for (p = src; *p; p++) {
		if (*p == ':')
			return "is a URL or names a drive (it contains ':')";
		if (*p == '\\')
			return "contains a backslash (write / between folders)";
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return "contains a control character";
	}
	for (seg = src; *seg; seg = p + (*p == '/')) {
		p = strchr(seg, '/');
		if (!p)
			p = seg + strlen(seg);
		if (p - seg == 2 && seg[0] == '.' && seg[1] == '.')
			return "leaves the bank's folder ('..')";
	}
	if (src[strlen(src) - 1] == '/')
		return "names a folder";
	return NULL;
}

/* SRC joined to the folder of BANK_FILE, and that folder alone. */
static int join(char **path, char **dir, const char *bank_file, const char *src)
{
	const char *slash = strrchr(bank_file, '/');
	struct qb_buf p = QB_BUF_INIT, d = QB_BUF_INIT;
	int rc;

	if (slash) {
		rc = qb_buf_add(&d, bank_file, (size_t)(slash - bank_file) + (slash == bank_file));
	} else {
		rc = qb_buf_adds(&d, ".");
	}
	if (!rc)
		rc = qb_buf_printf(&p, "%s/%s", d.ptr, src);
	if (rc) {
		qb_buf_dispose(&p);
		qb_buf_dispose(&d);
		return QB_ENOMEM;
	}
	*path = qb_buf_detach(&p);
	*dir = qb_buf_detach(&d);
	return 0;
}

/* 1 when the real path of PATH lies below the real path of DIR (symbolic
 * links resolved): a link inside the folder may point anywhere. */
static int inside(const char *path, const char *dir)
{
	char *rp = realpath(path, NULL), *rd = realpath(dir, NULL);
	size_t n;
	int ok = 0;

	if (rp && rd) {
		n = strlen(rd);
		ok = strncmp(rp, rd, n) == 0 && (rp[n] == '/' || (n == 1 && rd[0] == '/'));
	}
	free(rp);
	free(rd);
	return ok;
}

int qb_img_path_check(const char *bank_file, const char *src, char **resolved,
		      const char **why)
{
	const char *w = lexical(src);
	char *path = NULL, *dir = NULL;
	struct stat st;
	int verdict = QB_IMG_OK;

	if (resolved)
		*resolved = NULL;
	if (w) {
		if (why)
			*why = w;
		return QB_IMG_UNSAFE;
	}
	if (join(&path, &dir, bank_file, src))
		return QB_ENOMEM;
	if (stat(path, &st) != 0) {
		w = errno == ENOENT || errno == ENOTDIR ? "does not exist" : "cannot be read";
		verdict = QB_IMG_MISSING;
	} else if (!S_ISREG(st.st_mode)) {
		w = "is not a regular file";
		verdict = QB_IMG_MISSING;
	} else if (!inside(path, dir)) {
		w = "is a link to a file outside the bank's folder";
		verdict = QB_IMG_UNSAFE;
	} else if (st.st_size > QB_LIMIT_IMAGE_BYTES) {
		w = "is larger than 16 MiB";
		verdict = QB_IMG_TOO_BIG;
	} else {
		w = "is fine";
	}
	free(dir);
	if (verdict == QB_IMG_OK && resolved)
		*resolved = path;
	else
		free(path);
	if (why)
		*why = w;
	return verdict;
}

int qb_img_read(struct qb_buf *out, const char *bank_file, const char *src,
		struct qb_error *err)
{
	const char *why = NULL;
	char *path = NULL;
	struct stat st;
	size_t total;
	int fd, rc, v;

	v = qb_img_path_check(bank_file, src, &path, &why);
	if (v < 0)
		return v;
	if (v != QB_IMG_OK) {
		qb_error_set(err, QB_EREFUSED, "%s: img src '%.200s' %s", bank_file, src, why);
		return QB_EREFUSED;
	}
	/* O_NONBLOCK: a file swapped for a FIFO since the check must not hang */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		qb_error_set(err, QB_EIO, "%s: cannot read: %s", path, strerror(errno));
		free(path);
		return QB_EIO;
	}
	rc = 0;
	total = 0;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > QB_LIMIT_IMAGE_BYTES) {
		qb_error_set(err, QB_EREFUSED, "%s: img src '%.200s' is no longer a regular file "
			     "of at most 16 MiB", bank_file, src);
		rc = QB_EREFUSED;
	}
	while (!rc) {
		char buf[65536];
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			qb_error_set(err, QB_EIO, "%s: read error: %s", path, strerror(errno));
			rc = QB_EIO;
		} else if ((total += (size_t)n) > (size_t)QB_LIMIT_IMAGE_BYTES) {
			/* it grew since fstat */
			qb_error_set(err, QB_EREFUSED, "%s: img src '%.200s' is larger than 16 MiB",
				     bank_file, src);
			rc = QB_EREFUSED;
		} else {
			rc = qb_buf_add(out, buf, (size_t)n);
		}
	}
	close(fd);
	free(path);
	return rc;
}
