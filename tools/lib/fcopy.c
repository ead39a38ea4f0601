#define _GNU_SOURCE   /* copy_file_range */
#include "fcopy.h"

#include <errno.h>
#include <sys/types.h>
#include <unistd.h>

#include "error.h"

/* The most one copy_file_range call is asked for (it may do less). */
#define CHUNK ((size_t)1 << 30)

int qb_fcopy_unsupported(int errnum)
{
	return errnum == EXDEV || errnum == EINVAL || errnum == ENOSYS || errnum == EOPNOTSUPP ||
	       errnum == EBADF;
}

int64_t qb_fcopy_kernel(int fd, FILE *from, uint64_t n)
{
	int in = fileno(from);
	off_t pos, start;

	if (fflush(from) != 0)
		return -1;
	start = pos = ftello(from);
	if (in < 0 || pos < 0) {
		errno = EBADF;
		return -1;
	}
	while (n > 0) {
		ssize_t k = copy_file_range(in, &pos, fd, NULL, n < CHUNK ? (size_t)n : CHUNK, 0);

		if (k > 0)
			n -= (uint64_t)k;
		else if (k == 0)
			break;   /* the end of FROM */
		else if (errno != EINTR) {
			if (pos != start && qb_fcopy_unsupported(errno))
				errno = EIO;   /* a part was copied: no falling back */
			return -1;
		}
	}
	/* the stream's own idea of its position follows the descriptor's */
	if (fseeko(from, pos, SEEK_SET) != 0)
		return -1;
	return (int64_t)(pos - start);
}

/* Through a buffer: N bytes of FROM (at its position) onto TO. */
static int copy_buffered(FILE *to, FILE *from, uint64_t n)
{
	char buf[65536];

	while (n > 0) {
		size_t want = n < sizeof(buf) ? (size_t)n : sizeof(buf);
		size_t got = fread(buf, 1, want, from);

		if (got == 0)
			break;
		if (fwrite(buf, 1, got, to) != got)
			return QB_EIO;
		n -= got;
	}
	return ferror(from) || fflush(to) != 0 ? QB_EIO : 0;
}

int qb_fcopy(FILE *to, FILE *from, uint64_t n)
{
	int out = fileno(to);

	if (fflush(to) != 0)
		return QB_EIO;
	if (out >= 0) {
		int64_t k = qb_fcopy_kernel(out, from, n);

		if (k >= 0) {
			/* TO's own idea of its position follows its descriptor's */
			off_t at = lseek(out, 0, SEEK_CUR);

			return at < 0 || fseeko(to, at, SEEK_SET) != 0 ? QB_EIO : 0;
		}
		if (!qb_fcopy_unsupported(errno))
			return QB_EIO;
	}
	return copy_buffered(to, from, n);
}
