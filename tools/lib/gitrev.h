/* Reading bank files at a git revision through libgit2 (never by running
 * git): REV:PATH names a file or a folder of REV's tree, as git show does,
 * with PATH relative to the repository's top ("./" and "../" relative to
 * the current directory), the repository found from the current directory
 * upward. Also the blob ids that name image contents, on both sides of a
 * diff. Ownership: a qb_gitrev owns its repository, tree and file list;
 * the bytes qb_gitrev_load hands out stay valid until the next load or
 * qb_gitrev_free. */
#ifndef QB_GITREV_H
#define QB_GITREV_H

#include <stddef.h>

#include "error.h"

/* A blob id in hexadecimal (SHA-1: 40 digits), NUL-terminated. */
#define QB_GIT_HEX 41

struct qb_gitrev;

/* Opens SPEC ("REV:PATH"). A folder contributes every *.xml blob below
 * it, sorted by path, hidden entries skipped (as qb_paths_expand does on
 * disk); a file is taken whatever its name. A missing repository,
 * revision or path, or a folder without bank files, is QB_EIO with a
 * message. */
int qb_gitrev_open(struct qb_gitrev **out, const char *spec, struct qb_error *err);
void qb_gitrev_free(struct qb_gitrev *g);

size_t qb_gitrev_count(const struct qb_gitrev *g);
/* File I's name for messages: "REV:path/from/the/top.xml". */
const char *qb_gitrev_name(const struct qb_gitrev *g, size_t i);
/* File I's path below SPEC's PATH ("" when SPEC names a file). */
const char *qb_gitrev_relative(const struct qb_gitrev *g, size_t i);

/* Loads file I's bytes into *DATA, *LEN. */
int qb_gitrev_load(struct qb_gitrev *g, size_t i, const char **data, size_t *len,
		   struct qb_error *err);

/* The blob id of image SRC of file I (relative to that file's folder in
 * the tree) into HEX: 0, 1 when there is no such regular file in the tree
 * (a symbolic link or a submodule does not count), or QB_ENOMEM. */
int qb_gitrev_image(struct qb_gitrev *g, size_t i, const char *src, char hex[QB_GIT_HEX]);

/* The blob id git gives the content of file PATH on disk: 0 or QB_EIO. */
int qb_git_hash_file(const char *path, char hex[QB_GIT_HEX]);

#endif
