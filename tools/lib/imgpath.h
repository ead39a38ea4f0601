/* Which image files a bank may make qbank read. An img src comes from a
 * bank file that may have arrived in a pull request from anyone, so it is
 * read only when it names a regular file inside the bank file's folder:
 * relative, '/' between folders, no '..' segment, no ':' (URLs, drive
 * letters), no backslash, no control character, no symbolic link out of
 * the folder, at most QB_LIMIT_IMAGE_BYTES. The lint rules img-unsafe-path,
 * img-missing and limit-exceeded report the same verdicts; exporters call
 * qb_img_read (or qb_img_path_check) before reading any image.
 * Ownership: *resolved and the buffer's bytes belong to the caller. */
#ifndef QB_IMGPATH_H
#define QB_IMGPATH_H

#include "core/buf.h"
#include "error.h"

enum qb_img_verdict {
	QB_IMG_OK = 0,
	QB_IMG_UNSAFE = 1,     /* img-unsafe-path: absolute, URL, '..', link out, ... */
	QB_IMG_MISSING = 2,    /* img-missing: no such file, or not a regular file */
	QB_IMG_TOO_BIG = 3     /* limit-exceeded: over QB_LIMIT_IMAGE_BYTES */
};

/* Judges SRC (the img's src attribute, as written) of an img in BANK_FILE
 * (the bank's path as given to qbank). Returns a verdict (>= 0) or
 * QB_ENOMEM. On QB_IMG_OK, *RESOLVED (when RESOLVED is not NULL) is the
 * path to open, the bank file's folder joined with SRC: free() it. WHY
 * (may be NULL) receives a short static phrase for messages, e.g. "is a
 * URL", "leaves the bank's folder", "does not exist". */
int qb_img_path_check(const char *bank_file, const char *src, char **resolved,
		      const char **why);

/* qb_img_path_check, then reads the whole file into OUT (appended), with
 * the file opened without following a last symbolic link and checked
 * again to be a regular file of at most QB_LIMIT_IMAGE_BYTES (it may have
 * changed since the lint). Returns 0, QB_EREFUSED when the verdict is not
 * QB_IMG_OK, QB_EIO on a read error, QB_ENOMEM; ERR gets
 * "BANK_FILE: img src 'SRC' WHY". */
int qb_img_read(struct qb_buf *out, const char *bank_file, const char *src,
		struct qb_error *err);

#endif
