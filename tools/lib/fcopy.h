/* Copying one stream's bytes onto the end of another: the spools of the
 * HTML and Markdown exporters into their pages, and a spooled output onto
 * standard output (atomic.h, which also copies into its own files with
 * qb_fcopy_kernel).
 *
 * Both copy N bytes of FROM from its current position (UINT64_MAX: up to
 * its end; an earlier end is not an error), flush FROM first and leave it
 * just after what was copied, so that reads and writes through it may go
 * on. Inside the kernel (copy_file_range), the bytes are copied without
 * being read into the process and written out again. */
#ifndef QB_FCOPY_H
#define QB_FCOPY_H

#include <stdint.h>
#include <stdio.h>

/* Onto the descriptor FD, at its offset, inside the kernel. Returns the
 * number of bytes copied, or -1 with errno: qb_fcopy_unsupported(errno)
 * when the kernel cannot copy between the two files (a pipe, another file
 * system, an older kernel, a file opened for appending), and then nothing
 * was copied and FROM is where it was; any other errno is a failed copy. */
int64_t qb_fcopy_kernel(int fd, FILE *from, uint64_t n);
int qb_fcopy_unsupported(int errnum);

/* Onto the stream TO, written at its end: inside the kernel when both are
 * files it can copy between, through a 64 KB buffer otherwise. Returns 0
 * or QB_EIO, with errno saying why. */
int qb_fcopy(FILE *to, FILE *from, uint64_t n);

#endif
