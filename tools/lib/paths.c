#include "paths.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/buf.h"

static int push(struct qb_paths *p, size_t *cap, const char *s)
{
	if (p->n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		char **v = realloc(p->v, c * sizeof(*v));

		if (!v)
			return QB_ENOMEM;
		p->v = v;
		*cap = c;
	}
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

struct slot {
	const char *s;
	size_t pos;
};

/* By string, then by position: the first occurrence sorts first. */
static int cmp_slot(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;
	int c = strcmp(x->s, y->s);

	if (c)
		return c;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
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
	size_t cap = 0, i, k;
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
	/* drop repeats, keeping the first occurrence (sort a copy: no n^2) */
	if (out->n > 1) {
		struct slot *idx = malloc(out->n * sizeof(*idx));

		if (!idx) {
			qb_paths_dispose(out);
			return QB_ENOMEM;
		}
		for (i = 0; i < out->n; i++) {
			idx[i].s = out->v[i];
			idx[i].pos = i;
		}
		qsort(idx, out->n, sizeof(*idx), cmp_slot);
		/* compare every neighbour before freeing anything */
		for (i = out->n - 1; i > 0; i--)
			if (strcmp(idx[i].s, idx[i - 1].s) == 0)
				idx[i].s = NULL;
		for (i = 1; i < out->n; i++) {
			if (!idx[i].s) {
				free(out->v[idx[i].pos]);
				out->v[idx[i].pos] = NULL;
			}
		}
		free(idx);
	}
	for (i = 0, k = 0; i < out->n; i++)
		if (out->v[i])
			out->v[k++] = out->v[i];
	out->n = k;
	return 0;
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
