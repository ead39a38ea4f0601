#include "gitrev.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "core/array.h"
#include "core/buf.h"

struct gfile {
	size_t name;        /* offsets into qb_gitrev.names */
	size_t rel;
	size_t path;        /* the path from the top of the tree */
	const char *key;    /* the same, once every name is in (for sorting) */
	git_oid oid;
};

struct qb_gitrev {
	git_repository *repo;
	git_tree *tree;     /* the revision's whole tree */
	git_blob *blob;     /* the last one loaded */
	struct qb_buf names;
	struct gfile *v;
	size_t n, cap;
	int inited;
};

static void git_message(struct qb_error *err, const char *spec, const char *what)
{
	const git_error *e = git_error_last();

	qb_error_set(err, QB_EIO, "%s: %s%s%s", spec, what, e && e->message ? ": " : "",
		     e && e->message ? e->message : "");
}

/* Appends to OUT the path P (relative to folder PREFIX, which ends in '/'
 * or is "") with "." and ".." segments resolved; 1 when ".." would leave
 * the top of the tree. */
static int join_path(struct qb_buf *out, const char *prefix, const char *p)
{
	struct qb_buf all = QB_BUF_INIT;
	char *seg, *save = NULL;
	int rc = qb_buf_adds(&all, prefix) || qb_buf_adds(&all, p) ? QB_ENOMEM : 0;

	for (seg = rc ? NULL : strtok_r(all.ptr, "/", &save); seg && !rc;
	     seg = strtok_r(NULL, "/", &save)) {
		if (strcmp(seg, ".") == 0)
			continue;
		if (strcmp(seg, "..") == 0) {
			char *slash;

			if (out->len == 0) {
				rc = 1;
				break;
			}
			slash = strrchr(out->ptr, '/');
			out->len = slash ? (size_t)(slash - out->ptr) : 0;
			out->ptr[out->len] = '\0';
			continue;
		}
		if ((out->len && qb_buf_addc(out, '/')) || qb_buf_adds(out, seg))
			rc = QB_ENOMEM;
	}
	qb_buf_dispose(&all);
	return rc;
}

/* The current directory below the repository's work tree, as "sub/dir/"
 * ("" at the top or in a bare repository). */
static int cwd_prefix(struct qb_buf *out, git_repository *repo)
{
	const char *wd = git_repository_workdir(repo);
	char *rwd, *cwd;
	size_t n;
	int rc = 0;

	if (!wd)
		return 0;
	rwd = realpath(wd, NULL);
	cwd = getcwd(NULL, 0);
	if (rwd && cwd) {
		char *rcwd = realpath(cwd, NULL);

		n = strlen(rwd);
		if (rcwd && strncmp(rcwd, rwd, n) == 0 && rcwd[n] == '/')
			rc = qb_buf_adds(out, rcwd + n + 1) || qb_buf_addc(out, '/') ? QB_ENOMEM : 0;
		free(rcwd);
	}
	free(rwd);
	free(cwd);
	return rc;
}

struct walk {
	struct qb_gitrev *g;
	const char *rev;
	const char *top;    /* the folder's path from the top of the tree, with its '/', or "" */
	int rc;
};

static int add_file(struct qb_gitrev *g, const char *rev, const char *path, size_t rel,
		    const git_oid *oid)
{
	struct gfile f;

	memset(&f, 0, sizeof(f));
	f.oid = *oid;
	f.name = g->names.len;
	f.path = f.name + strlen(rev) + 1;
	f.rel = f.path + rel;
	if (qb_buf_printf(&g->names, "%s:%s", rev, path) || qb_buf_addc(&g->names, '\0'))
		return QB_ENOMEM;
	return QB_ARRAY_PUSH(g->v, g->n, g->cap, f);
}

static int has_xml_ext(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && strcmp(name + n - 4, ".xml") == 0;
}

/* ROOT is the entry's folder below the walked one ("" or "sub/"). */
static int walk_entry(const char *root, const git_tree_entry *e, void *payload)
{
	struct walk *w = payload;
	const char *name = git_tree_entry_name(e);
	git_filemode_t mode = git_tree_entry_filemode(e);
	struct qb_buf path = QB_BUF_INIT;

	if (name[0] == '.')
		return 1;   /* hidden: skip it (and, for a folder, what is below) */
	if ((mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE) ||
	    !has_xml_ext(name))
		return 0;
	if (qb_buf_printf(&path, "%s%s%s", w->top, root, name) == 0)
		w->rc = add_file(w->g, w->rev, path.ptr, strlen(w->top), git_tree_entry_id(e));
	else
		w->rc = QB_ENOMEM;
	qb_buf_dispose(&path);
	return w->rc ? -1 : 0;
}

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct gfile *)a)->key, ((const struct gfile *)b)->key);
}

/* The files of FOLDER (TOP: its path from the top of the tree, "" for the
 * whole tree), sorted by path. */
static int list_folder(struct qb_gitrev *g, const char *spec, const char *rev,
		       const git_tree *folder, const char *top, struct qb_error *err)
{
	struct qb_buf prefix = QB_BUF_INIT;
	struct walk w = { g, rev, "", 0 };
	size_t i;
	int rc;

	if (*top && (qb_buf_adds(&prefix, top) || qb_buf_addc(&prefix, '/')))
		return QB_ENOMEM;
	if (prefix.ptr)
		w.top = prefix.ptr;
	rc = git_tree_walk(folder, GIT_TREEWALK_PRE, walk_entry, &w);
	qb_buf_dispose(&prefix);
	if (w.rc)
		return w.rc;
	if (rc) {
		git_message(err, spec, "cannot list the folder");
		return QB_EIO;
	}
	if (g->n == 0) {
		qb_error_set(err, QB_EIO, "%s: no bank files (*.xml) in this folder", spec);
		return QB_EIO;
	}
	/* the names are all in: their addresses hold from here on */
	for (i = 0; i < g->n; i++)
		g->v[i].key = g->names.ptr + g->v[i].path;
	qsort(g->v, g->n, sizeof(*g->v), cmp_file);
	return 0;
}

int qb_gitrev_open(struct qb_gitrev **out, const char *spec, struct qb_error *err)
{
	struct qb_gitrev *g;
	const char *colon = strchr(spec, ':');
	char *rev = NULL;
	struct qb_buf path = QB_BUF_INIT, prefix = QB_BUF_INIT;
	git_object *obj = NULL, *treeobj = NULL;
	git_tree_entry *entry = NULL;
	git_tree *sub = NULL;
	int rc;

	*out = NULL;
	if (!colon || colon == spec) {
		qb_error_set(err, QB_EINVAL, "%s: not REV:PATH", spec);
		return QB_EINVAL;
	}
	g = calloc(1, sizeof(*g));
	rev = strndup(spec, (size_t)(colon - spec));
	if (!g || !rev) {
		free(g);
		free(rev);
		return QB_ENOMEM;
	}
	git_libgit2_init();
	g->inited = 1;
	if (git_repository_open_ext(&g->repo, ".", 0, NULL) != 0) {
		git_message(err, spec, "not inside a git repository");
		rc = QB_EIO;
		goto done;
	}
	if (git_revparse_single(&obj, g->repo, rev) != 0) {
		git_message(err, spec, "unknown revision");
		rc = QB_EIO;
		goto done;
	}
	if (git_object_peel(&treeobj, obj, GIT_OBJECT_TREE) != 0) {
		git_message(err, spec, "the revision has no tree");
		rc = QB_EIO;
		goto done;
	}
	g->tree = (git_tree *)treeobj;
	treeobj = NULL;
	if (strncmp(colon + 1, "./", 2) == 0 || strncmp(colon + 1, "../", 3) == 0 ||
	    strcmp(colon + 1, ".") == 0 || strcmp(colon + 1, "..") == 0) {
		rc = cwd_prefix(&prefix, g->repo);
		if (rc)
			goto done;
	}
	rc = join_path(&path, prefix.ptr ? prefix.ptr : "", colon + 1);
	if (rc == 1) {
		qb_error_set(err, QB_EIO, "%s: the path leaves the repository", spec);
		rc = QB_EIO;
	}
	if (rc)
		goto done;
	if (path.len == 0) {
		rc = list_folder(g, spec, rev, g->tree, "", err);
		goto done;
	}
	if (git_tree_entry_bypath(&entry, g->tree, path.ptr) != 0) {
		qb_error_set(err, QB_EIO, "%s: no such file or folder in %s", spec, rev);
		rc = QB_EIO;
		goto done;
	}
	switch (git_tree_entry_filemode(entry)) {
	case GIT_FILEMODE_TREE:
		if (git_tree_lookup(&sub, g->repo, git_tree_entry_id(entry)) != 0) {
			git_message(err, spec, "cannot read the folder");
			rc = QB_EIO;
			break;
		}
		rc = list_folder(g, spec, rev, sub, path.ptr, err);
		break;
	case GIT_FILEMODE_BLOB:
	case GIT_FILEMODE_BLOB_EXECUTABLE:
		rc = add_file(g, rev, path.ptr, path.len, git_tree_entry_id(entry));
		break;
	default:
		qb_error_set(err, QB_EIO, "%s: not a file or a folder (a link or a submodule)", spec);
		rc = QB_EIO;
	}
done:
	git_tree_free(sub);
	git_tree_entry_free(entry);
	git_object_free(treeobj);
	git_object_free(obj);
	qb_buf_dispose(&path);
	qb_buf_dispose(&prefix);
	free(rev);
	if (rc) {
		qb_gitrev_free(g);
		return rc;
	}
	*out = g;
	return 0;
}

void qb_gitrev_free(struct qb_gitrev *g)
{
	if (!g)
		return;
	git_blob_free(g->blob);
	git_tree_free(g->tree);
	git_repository_free(g->repo);
	qb_buf_dispose(&g->names);
	free(g->v);
	if (g->inited)
		git_libgit2_shutdown();
	free(g);
}

size_t qb_gitrev_count(const struct qb_gitrev *g)
{
	return g->n;
}

const char *qb_gitrev_name(const struct qb_gitrev *g, size_t i)
{
	return g->names.ptr + g->v[i].name;
}

const char *qb_gitrev_relative(const struct qb_gitrev *g, size_t i)
{
	return g->names.ptr + g->v[i].rel;
}

int qb_gitrev_load(struct qb_gitrev *g, size_t i, const char **data, size_t *len,
		   struct qb_error *err)
{
	git_blob_free(g->blob);
	g->blob = NULL;
	if (git_blob_lookup(&g->blob, g->repo, &g->v[i].oid) != 0) {
		git_message(err, qb_gitrev_name(g, i), "cannot read");
		return QB_EIO;
	}
	*data = git_blob_rawcontent(g->blob);
	*len = (size_t)git_blob_rawsize(g->blob);
	return 0;
}

int qb_gitrev_image(struct qb_gitrev *g, size_t i, const char *src, char hex[QB_GIT_HEX])
{
	const char *file = g->names.ptr + g->v[i].path, *slash = strrchr(file, '/');
	struct qb_buf folder = QB_BUF_INIT, path = QB_BUF_INIT;
	git_tree_entry *e = NULL;
	int rc;

	rc = slash && qb_buf_add(&folder, file, (size_t)(slash - file) + 1) ? QB_ENOMEM : 0;
	if (!rc && src[0] == '/')
		rc = 1;
	if (!rc)
		rc = join_path(&path, folder.ptr ? folder.ptr : "", src);
	if (!rc && (path.len == 0 || git_tree_entry_bypath(&e, g->tree, path.ptr) != 0))
		rc = 1;
	if (!rc && git_tree_entry_filemode(e) != GIT_FILEMODE_BLOB &&
	    git_tree_entry_filemode(e) != GIT_FILEMODE_BLOB_EXECUTABLE)
		rc = 1;
	if (!rc)
		git_oid_tostr(hex, QB_GIT_HEX, git_tree_entry_id(e));
	git_tree_entry_free(e);
	qb_buf_dispose(&folder);
	qb_buf_dispose(&path);
	return rc;
}

int qb_git_hash_file(const char *path, char hex[QB_GIT_HEX])
{
	git_oid oid;
	int rc;

	git_libgit2_init();
	rc = git_odb_hashfile(&oid, path, GIT_OBJECT_BLOB);
	if (rc == 0)
		git_oid_tostr(hex, QB_GIT_HEX, &oid);
	git_libgit2_shutdown();
	return rc ? QB_EIO : 0;
}
