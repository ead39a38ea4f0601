#include "paths.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/array.h"
#include "core/buf.h"
#include "core/map.h"
#include "text.h"

static int push(struct qb_paths *p, size_t *cap, const char *s)
{
	if (QB_ARRAY_RESERVE(p->v, *cap, p->n + 1))
		return QB_ENOMEM;
	p->v[p->n] = strdup(s);
	if (!p->v[p->n])
		return QB_ENOMEM;
	p->n++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The index of the paths kept so far (positions in the list, CTX). */
static uint64_t path_hash(void *ctx, size_t rec)
{
	const char *s = ((char *const *)ctx)[rec];

	return qb_hash(s, strlen(s));
}

static int path_same(void *ctx, size_t rec, const void *key)
{
	return strcmp(((char *const *)ctx)[rec], key) == 0;
}

static const struct qb_map_ops path_ops = { path_hash, path_same };

/* Drops repeats from P, keeping the first occurrence and the order. */
static int drop_repeats(struct qb_paths *p)
{
	struct qb_map seen = QB_MAP_INIT;
	size_t i, k = 0;
	int rc = 0;

	for (i = 0; i < p->n; i++) {
		char *s = p->v[i];
		uint64_t h = qb_hash(s, strlen(s));

		if (!rc && qb_map_find(&seen, h, &path_ops, p->v, s) == QB_MAP_NONE) {
			p->v[k] = s;
			rc = qb_map_insert(&seen, h, k++, &path_ops, p->v);
		} else {
			free(s);
		}
	}
	p->n = k;
	qb_map_dispose(&seen);
	return rc;
}

static int has_xml_ext(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && strcmp(name + n - 4, ".xml") == 0;
}

static int walk(struct qb_paths *p, size_t *cap, const char *dir, int depth,
		struct qb_error *err)
{
	DIR *d;
	struct dirent *e;
	int rc = 0;

	if (depth > 64)
		return 0;
	d = opendir(dir);
	if (!d) {
		qb_error_set(err, QB_EIO, "%s: cannot read directory: %s", dir, strerror(errno));
		return QB_EIO;
	}
	while (!rc && (e = readdir(d)) != NULL) {
		struct qb_buf path = QB_BUF_INIT;
		struct stat st;
		size_t dl = strlen(dir);

		if (e->d_name[0] == '.')
			continue;
		rc = qb_buf_printf(&path, "%.*s/%s", (int)(dl > 1 && dir[dl - 1] == '/' ? dl - 1 : dl),
				   dir, e->d_name);
		if (!rc && stat(path.ptr, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				rc = walk(p, cap, path.ptr, depth + 1, err);
			else if (S_ISREG(st.st_mode) && has_xml_ext(e->d_name))
				rc = push(p, cap, path.ptr);
		}
		qb_buf_dispose(&path);
	}
	closedir(d);
	return rc;
}

int qb_paths_expand(struct qb_paths *out, const char *const *args, size_t nargs,
		    struct qb_error *err)
{
	size_t cap = 0, i;
	int rc = 0;

	out->v = NULL;
	out->n = 0;
	for (i = 0; i < nargs && !rc; i++) {
		struct stat st;

		if (stat(args[i], &st) != 0) {
			qb_error_set(err, QB_EIO, "%s: %s; name a bank file or a folder of them",
				     args[i], strerror(errno));
			rc = QB_EIO;
		} else if (S_ISDIR(st.st_mode)) {
			size_t before = out->n;

			rc = walk(out, &cap, args[i], 0, err);
			if (!rc && out->n == before) {
				qb_error_set(err, QB_EIO, "%s: no bank files (*.xml) in this directory", args[i]);
				rc = QB_EIO;
			}
			if (!rc)
				qsort(out->v + before, out->n - before, sizeof(char *), cmp_str);
		} else {
			rc = push(out, &cap, args[i]);
		}
	}
	if (rc) {
		qb_paths_dispose(out);
		return rc;
	}
	rc = drop_repeats(out);
	if (rc)
		qb_paths_dispose(out);
	return rc;
}

void qb_paths_dispose(struct qb_paths *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	p->v = NULL;
	p->n = 0;
}
