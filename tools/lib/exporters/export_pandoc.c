/* PDF and DOCX: the Markdown exporter's output, turned by pandoc into the
 * printed exam in one step (`qbank export --to pdf|docx`).
 *
 * The Markdown exporter writes its files (the exam, or one per form and
 * the key) into a temporary folder made beside the output (registered in
 * tempfile.h, so that an interrupt or a failure removes it with everything
 * pandoc and TeX wrote there: TMPDIR points into it). On commit pandoc
 * runs once per file, as many at a time as the machine has processors,
 * with the temporary folder and every bank file's folder as its resource
 * path (image paths resolve whatever the working folder), and the results
 * are renamed into place together, with the signal handler held off, so
 * that the outputs are all old or all new.
 *
 * Nothing is left out silently: pandoc runs with --fail-if-warnings, and a
 * warning (an image it cannot fetch, a character no font has) or a failure
 * is an error that quotes pandoc and names the fix.
 *
 * Ownership: the state owns the Markdown exporter's state, the folder and
 * every path; the options belong to the caller. */
#include "exporters.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/buf.h"
#include "../tempfile.h"

#define MAX_FILES 27                 /* 26 forms and the key */
#define LOG_MAX 65536                /* of pandoc's messages read back */

extern char **environ;

/* The DOCX reference document (generated at build time from pandoc's own,
 * tools/docx-reference.sh), written into the temporary folder per run. */
extern const unsigned char qb_reference_docx[];
extern const size_t qb_reference_docx_len;

struct pandoc_target {
	const char *name;        /* the exporter's name and the output's extension */
	const char *engine;      /* --pdf-engine, or NULL */
	int reference;           /* 1: --reference-doc */
};

static const struct pandoc_target targets[] = {
	{ "docx", NULL, 1 },
	{ "pdf", "xelatex", 0 },
};

struct pandoc_state {
	const struct pandoc_target *t;
	void *md;                    /* the Markdown exporter's state */
	struct qb_tempfile *dir;
	struct qb_buf dirpath;       /* the temporary folder */
	struct qb_buf outdir;        /* the output's folder, "" for the working one */
	struct qb_buf stem;          /* the output's name without its extension */
	struct qb_buf output;        /* -o as given: the one output without forms */
	struct qb_buf dirreal;       /* the same, as an absolute path */
	struct qb_buf resource;      /* --resource-path */
	int forms, one_thread;
	char pandoc[PATH_MAX], engine[PATH_MAX];
};

/* ---- helpers ------------------------------------------------------------ */

/* Looks NAME up in PATH, as posix_spawnp would (a NAME with a '/' is taken
 * as it is); 0 and its path in OUT. */
static int which(char *out, size_t n, const char *name)
{
	const char *path = getenv("PATH"), *p, *e;

	if (strchr(name, '/'))
		return (size_t)snprintf(out, n, "%s", name) < n && access(out, X_OK) == 0 ? 0 : -1;

	if (!path || !path[0])
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; ; p = e + 1) {
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		if (e > p && (size_t)snprintf(out, n, "%.*s/%s", (int)(e - p), p, name) < n &&
		    access(out, X_OK) == 0)
			return 0;
		if (!*e)
			break;
	}
	return -1;
}

static int add_resource(struct pandoc_state *st, const char *file)
{
	const char *slash = strrchr(file, '/');
	char *dir, *real;
	int rc = 0;

	dir = !slash ? strdup(".") : slash == file ? strdup("/") : strndup(file, (size_t)(slash - file));
	if (!dir)
		return QB_ENOMEM;
	real = realpath(dir, NULL);
	free(dir);
	if (!real)
		return 0;     /* the reader reports an unreadable bank */
	/* once each; a folder with ':' in its name cannot be a resource path entry */
	if (!strchr(real, ':')) {
		size_t n = strlen(real);
		const char *r = st->resource.ptr;

		for (; r && *r; r = strchr(r, ':') ? strchr(r, ':') + 1 : r + strlen(r))
			if (strncmp(r, real, n) == 0 && (r[n] == ':' || r[n] == '\0'))
				break;
		if (!r || !*r)
			rc = qb_buf_printf(&st->resource, ":%s", real);
	}
	free(real);
	return rc;
}

static int write_reference(const struct pandoc_state *st, struct qb_error *err)
{
	struct qb_buf path = QB_BUF_INIT;
	FILE *f;
	int rc;

	rc = qb_buf_printf(&path, "%s/reference.docx", st->dirpath.ptr);
	if (rc)
		return rc;
	f = fopen(path.ptr, "wb");
	if (!f || fwrite(qb_reference_docx, 1, qb_reference_docx_len, f) != qb_reference_docx_len)
		rc = QB_EIO;
	if (f && fclose(f) != 0)
		rc = QB_EIO;
	if (rc)
		qb_error_set(err, rc, "%s: cannot write: %s", path.ptr, strerror(errno));
	qb_buf_dispose(&path);
	return rc;
}

static void state_free(struct pandoc_state *st)
{
	if (!st)
		return;
	qb_md_abort(st->md);
	qb_tempfile_delete(st->dir);
	qb_buf_dispose(&st->dirpath);
	qb_buf_dispose(&st->outdir);
	qb_buf_dispose(&st->stem);
	qb_buf_dispose(&st->output);
	qb_buf_dispose(&st->resource);
	qb_buf_dispose(&st->dirreal);
	free(st);
}

/* ---- exporter entry points ---------------------------------------------- */

static int pandoc_open(void **state, const struct qb_export_opts *o, const char *name,
		       struct qb_error *err)
{
	const struct pandoc_target *t = NULL;
	struct qb_export_opts mo = *o;
	struct pandoc_state *st;
	struct qb_buf md = QB_BUF_INIT;
	const char *out = o->output, *slash, *base, *dot, *pandoc;
	size_t k;
	int rc;

	*state = NULL;
	for (k = 0; k < sizeof(targets) / sizeof(targets[0]); k++)
		if (strcmp(targets[k].name, name) == 0)
			t = &targets[k];
	if (!t)
		return QB_EINVAL;
	st = calloc(1, sizeof(*st));
	if (!st)
		return QB_ENOMEM;
	st->t = t;
	st->forms = o->forms;
	st->one_thread = o->one_thread;
	/* the pandoc the QTI exporters run for math, too (man page ENVIRONMENT) */
	pandoc = getenv("QBANK_PANDOC");
	if (pandoc && pandoc[0] && which(st->pandoc, sizeof(st->pandoc), pandoc) != 0) {
		qb_error_set(err, QB_ENOTFOUND, "--to %s runs the pandoc that QBANK_PANDOC names (%s), "
			     "which cannot be run: correct it, or unset it to use pandoc from PATH",
			     name, pandoc);
		rc = QB_ENOTFOUND;
		goto fail;
	}
	if ((!pandoc || !pandoc[0]) && which(st->pandoc, sizeof(st->pandoc), "pandoc") != 0) {
		qb_error_set(err, QB_ENOTFOUND, "--to %s runs pandoc, which is not installed: install it "
			     "(Debian: apt-get install pandoc; or tools/setup.sh print)", name);
		rc = QB_ENOTFOUND;
		goto fail;
	}
	if (t->engine && which(st->engine, sizeof(st->engine), t->engine) != 0) {
		qb_error_set(err, QB_ENOTFOUND, "--to %s needs the TeX engine %s, which is not installed: "
			     "install it (Debian: apt-get install texlive-xetex texlive-latex-recommended "
			     "lmodern fonts-dejavu-core fonts-dejavu-extra; or tools/setup.sh print)",
			     name, t->engine);
		rc = QB_ENOTFOUND;
		goto fail;
	}
	slash = strrchr(out, '/');
	base = slash ? slash + 1 : out;
	dot = strrchr(base, '.');
	if (!base[0]) {
		qb_error_set(err, QB_EINVAL, "%s: -o names a folder; name the %s file", out, name);
		rc = QB_EINVAL;
		goto fail;
	}
	rc = slash ? qb_buf_add(&st->outdir, out, (size_t)(slash - out + 1)) : qb_buf_adds(&st->outdir, "");
	if (!rc)
		rc = qb_buf_add(&st->stem, base, dot && dot > base && strcmp(dot + 1, name) == 0
					   ? (size_t)(dot - base) : strlen(base));
	if (!rc)
		rc = qb_buf_adds(&st->output, out);
	if (!rc)
		rc = qb_buf_printf(&st->dirpath, "%s.qbank-%s-XXXXXX", st->outdir.ptr, name);
	if (rc)
		goto fail;
	if (qb_tempfile_mkdtemp(&st->dir, st->dirpath.ptr) != 0) {
		qb_error_set(err, QB_EIO, "%s: cannot make a temporary folder there: %s",
			     st->outdir.len ? st->outdir.ptr : ".", strerror(errno));
		rc = QB_EIO;
		goto fail;
	}
	{
		char *real = realpath(st->dirpath.ptr, NULL);

		rc = real ? qb_buf_adds(&st->resource, real) : QB_EIO;
		if (!rc)
			rc = qb_buf_adds(&st->dirreal, real);
		free(real);
		if (rc)
			goto fail;
	}
	if (t->reference && (rc = write_reference(st, err)) != 0)
		goto fail;
	rc = qb_buf_printf(&md, "%s/%s.md", st->dirpath.ptr, st->stem.ptr);
	if (rc)
		goto fail;
	mo.output = md.ptr;
	rc = qb_md_open(&st->md, &mo, err);
	qb_buf_dispose(&md);
	if (rc)
		goto fail;
	*state = st;
	return 0;
fail:
	if (rc == QB_ENOMEM && !err->msg[0])
		qb_error_set(err, rc, "out of memory");
	qb_buf_dispose(&md);
	state_free(st);
	return rc;
}

int qb_pdf_open(void **state, const struct qb_export_opts *o, struct qb_error *err)
{
	return pandoc_open(state, o, "pdf", err);
}

int qb_docx_open(void **state, const struct qb_export_opts *o, struct qb_error *err)
{
	return pandoc_open(state, o, "docx", err);
}

int qb_pandoc_bank(void *state, const struct qb_bank_info *b, struct qb_error *err)
{
	struct pandoc_state *st = state;
	int rc = add_resource(st, b->file);

	if (rc) {
		qb_error_set(err, rc, "out of memory");
		return rc;
	}
	return qb_md_bank(st->md, b, err);
}

int qb_pandoc_question(void *state, const struct qb_question *q, struct qb_error *err)
{
	struct pandoc_state *st = state;

	return qb_md_question(st->md, q, err);
}

/* ---- running pandoc ----------------------------------------------------- */

struct job {
	char name[64];               /* the file's stem suffix: "", "-A", ..., "-key" */
	struct qb_tempfile *child;
	pid_t pid;
	int status, started;
};

/* What a line of pandoc's messages means, and what to do about it. The
 * first row that a line contains wins. */
static const struct {
	const char *needle, *fix;
	int code;
} causes[] = {
	{ "Could not fetch resource", "an image of the bank is missing or unreadable: fix its src "
	  "(relative to the bank file) or add the file", QB_EREFUSED },
	{ "Missing character", "no installed font has that character: install the fonts "
	  "(tools/setup.sh print installs fonts-dejavu, fonts-symbola, fonts-wqy-microhei)", QB_EREFUSED },
	{ ".sty' not found", "a LaTeX package is missing: install it (tools/setup.sh print: "
	  "texlive-latex-recommended, texlive-xetex)", QB_ENOTFOUND },
	{ "not found. Please select a different", "the TeX engine is missing: install texlive-xetex "
	  "(tools/setup.sh print)", QB_ENOTFOUND },
	{ "! ", "TeX stopped on the exam's text (often the TeX of a math element): fix the "
	  "question that the quoted lines show", QB_EREFUSED },
	{ "[WARNING]", "pandoc warned, so part of the exam would be missing or wrong: fix what it "
	  "names", QB_EREFUSED },
};

/* Reads the log of job J and turns it into the error: the lines pandoc
 * wrote (the first few), the cause and the fix. */
static int job_error(const struct pandoc_state *st, const struct job *j, struct qb_error *err)
{
	struct qb_buf path = QB_BUF_INIT, quote = QB_BUF_INIT, target = QB_BUF_INIT;
	char *log = NULL, *line, *save = NULL;
	const char *fix = NULL;
	int code = QB_EIO, nlines = 0;
	size_t k, n = 0;
	FILE *f;

	if (qb_buf_printf(&path, "%s/%s%s.log", st->dirpath.ptr, st->stem.ptr, j->name) == 0 &&
	    (f = fopen(path.ptr, "rb")) != NULL) {
		log = malloc(LOG_MAX + 1);
		if (log)
			n = fread(log, 1, LOG_MAX, f);
		(void)fclose(f);   /* read only */
	}
	if (log) {
		log[n] = '\0';
		for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			for (k = 0; k < sizeof(causes) / sizeof(causes[0]); k++)
				if (strstr(line, causes[k].needle))
					break;
			if (k < sizeof(causes) / sizeof(causes[0]) && !fix) {
				fix = causes[k].fix;
				code = causes[k].code;
			}
			if (nlines < 4 && line[0] && (!quote.ptr || !strstr(quote.ptr, line))) {
				(void)qb_buf_printf(&quote, "\n  pandoc: %.300s", line);
				nlines++;
			}
		}
	}
	if (!st->forms)
		(void)qb_buf_adds(&target, st->output.ptr);
	else
		(void)qb_buf_printf(&target, "%s%s%s.%s", st->outdir.ptr, st->stem.ptr, j->name,
				    st->t->name);
	if (WIFEXITED(j->status) && WEXITSTATUS(j->status) == 0 && !fix)
		fix = "pandoc printed messages: fix what they name";
	if (WIFSIGNALED(j->status))
		qb_error_set(err, QB_EIO, "%s: pandoc ended by signal %d", target.ptr ? target.ptr : "", WTERMSIG(j->status));
	else
		qb_error_set(err, code, "%s: not written: %s%s", target.ptr ? target.ptr : "", fix ? fix : "pandoc failed",
			     quote.len ? quote.ptr : "");
	free(log);
	qb_buf_dispose(&path);
	qb_buf_dispose(&quote);
	qb_buf_dispose(&target);
	return code;
}

static int job_start(struct pandoc_state *st, struct job *j, char **envp, struct qb_error *err)
{
	struct qb_buf in = QB_BUF_INIT, out = QB_BUF_INIT, log = QB_BUF_INIT, res = QB_BUF_INIT,
		      ref = QB_BUF_INIT, eng = QB_BUF_INIT;
	posix_spawn_file_actions_t fa;
	char *argv[16];
	int n = 0, rc;

	rc = qb_buf_printf(&in, "%s/%s%s.md", st->dirpath.ptr, st->stem.ptr, j->name);
	if (!rc)
		rc = qb_buf_printf(&out, "%s/%s%s.%s", st->dirpath.ptr, st->stem.ptr, j->name, st->t->name);
	if (!rc)
		rc = qb_buf_printf(&log, "%s/%s%s.log", st->dirpath.ptr, st->stem.ptr, j->name);
	if (!rc)
		rc = qb_buf_printf(&res, "--resource-path=%s", st->resource.ptr);
	if (!rc && st->t->reference)
		rc = qb_buf_printf(&ref, "--reference-doc=%s/reference.docx", st->dirpath.ptr);
	if (!rc && st->t->engine)
		rc = qb_buf_printf(&eng, "--pdf-engine=%s", st->engine);
	if (rc)
		goto done;
	argv[n++] = "pandoc";
	argv[n++] = "--fail-if-warnings";
	argv[n++] = "-f";
	argv[n++] = "markdown";
	argv[n++] = res.ptr;
	if (ref.len)
		argv[n++] = ref.ptr;
	if (eng.len)
		argv[n++] = eng.ptr;
	argv[n++] = "-o";
	argv[n++] = out.ptr;
	argv[n++] = in.ptr;
	argv[n] = NULL;
	if (posix_spawn_file_actions_init(&fa) != 0) {
		rc = QB_ENOMEM;
		goto done;
	}
	/* pandoc's and TeX's messages go to the log; nothing reads a terminal */
	if (posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0) != 0 ||
	    posix_spawn_file_actions_addopen(&fa, 2, log.ptr, O_WRONLY | O_CREAT | O_TRUNC, 0600) != 0 ||
	    posix_spawn_file_actions_adddup2(&fa, 2, 1) != 0)
		rc = QB_ENOMEM;
	if (!rc && qb_tempfile_spawn(&j->child, &j->pid, st->pandoc, argv, envp, &fa) != 0) {
		qb_error_set(err, QB_EIO, "cannot run %s: %s", st->pandoc, strerror(errno));
		rc = QB_EIO;
	}
	posix_spawn_file_actions_destroy(&fa);
	if (!rc)
		j->started = 1;
done:
	if (rc == QB_ENOMEM && !err->msg[0])
		qb_error_set(err, rc, "out of memory");
	qb_buf_dispose(&in);
	qb_buf_dispose(&out);
	qb_buf_dispose(&log);
	qb_buf_dispose(&res);
	qb_buf_dispose(&ref);
	qb_buf_dispose(&eng);
	return rc;
}

/* The environment of pandoc: the caller's, with TMPDIR in the temporary
 * folder (pandoc and TeX write their intermediates there) and, unless the
 * caller set them, the fixed dates that make the same exam the same bytes. */
static char **child_env(const struct pandoc_state *st, struct qb_buf *tmpdir)
{
	size_t n = 0, k = 0, i;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 4, sizeof(*env));
	if (!env || qb_buf_printf(tmpdir, "TMPDIR=%s", st->dirreal.ptr) != 0) {
		free(env);
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "TMPDIR=", 7) != 0)
			env[k++] = environ[i];
	env[k++] = tmpdir->ptr;
	if (!getenv("SOURCE_DATE_EPOCH")) {
		env[k++] = "SOURCE_DATE_EPOCH=0";
		if (!getenv("FORCE_SOURCE_DATE"))
			env[k++] = "FORCE_SOURCE_DATE=1";
	}
	env[k] = NULL;
	return env;
}

/* Runs pandoc on every Markdown file, NPAR at a time; the first failure
 * (in file order) is the error, and the others still running are ended. */
static int run_all(struct pandoc_state *st, struct job *jobs, size_t njobs, struct qb_error *err)
{
	struct qb_buf tmpdir = QB_BUF_INIT;
	char **env = child_env(st, &tmpdir);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t npar = st->one_thread || ncpu < 1 ? 1 : (size_t)ncpu, next = 0, k;
	int rc = 0;

	if (!env) {
		qb_buf_dispose(&tmpdir);
		qb_error_set(err, QB_ENOMEM, "out of memory");
		return QB_ENOMEM;
	}
	while (next < njobs && next < npar && !rc)
		rc = job_start(st, &jobs[next++], env, err);
	for (k = 0; k < njobs && !rc; k++) {
		if (qb_tempfile_wait(jobs[k].child, &jobs[k].status) != 0) {
			qb_error_set(err, QB_EIO, "cannot wait for pandoc: %s", strerror(errno));
			rc = QB_EIO;
			break;
		}
		jobs[k].child = NULL;
		jobs[k].started = 0;
		if (!WIFEXITED(jobs[k].status) || WEXITSTATUS(jobs[k].status) != 0) {
			rc = job_error(st, &jobs[k], err);
			break;
		}
		if (next < njobs)
			rc = job_start(st, &jobs[next++], env, err);
	}
	for (k = 0; k < njobs; k++)
		if (jobs[k].started)
			qb_tempfile_delete(jobs[k].child);
	free(env);
	qb_buf_dispose(&tmpdir);
	return rc;
}

/* Moves every output into place as one (tempfile.h's hold): an interrupt
 * finds them all old or all new. */
static int move_all(struct pandoc_state *st, const struct job *jobs, size_t njobs,
		    struct qb_error *err)
{
	struct qb_buf from = QB_BUF_INIT, to = QB_BUF_INIT;
	sigset_t held;
	size_t k;
	int rc = 0;

	qb_tempfile_hold(&held);
	for (k = 0; k < njobs && !rc; k++) {
		qb_buf_clear(&from);
		qb_buf_clear(&to);
		rc = qb_buf_printf(&from, "%s/%s%s.%s", st->dirpath.ptr, st->stem.ptr, jobs[k].name,
				   st->t->name);
		/* without forms, -o exactly as given; forms are named as the
		 * Markdown exporter names them */
		if (!rc && !st->forms)
			rc = qb_buf_adds(&to, st->output.ptr);
		else if (!rc)
			rc = qb_buf_printf(&to, "%s%s%s.%s", st->outdir.ptr, st->stem.ptr, jobs[k].name,
					   st->t->name);
		if (!rc && rename(from.ptr, to.ptr) != 0) {
			qb_error_set(err, QB_EIO, "%s: cannot write: %s", to.ptr, strerror(errno));
			rc = QB_EIO;
		}
	}
	qb_tempfile_release(&held);
	if (rc == QB_ENOMEM)
		qb_error_set(err, rc, "out of memory");
	qb_buf_dispose(&from);
	qb_buf_dispose(&to);
	return rc;
}

int qb_pandoc_commit(void *state, struct qb_error *err)
{
	struct pandoc_state *st = state;
	struct job jobs[MAX_FILES];
	size_t njobs = 0, k;
	int rc;

	memset(jobs, 0, sizeof(jobs));
	rc = qb_md_commit(st->md, err);
	st->md = NULL;
	if (rc)
		goto done;
	if (!st->forms) {
		njobs = 1;
	} else {
		for (k = 0; k < (size_t)st->forms && k < MAX_FILES - 1; k++)
			snprintf(jobs[njobs++].name, sizeof(jobs[0].name), "-%c", (char)('A' + k));
		snprintf(jobs[njobs++].name, sizeof(jobs[0].name), "-key");
	}
	rc = run_all(st, jobs, njobs, err);
	if (!rc)
		rc = move_all(st, jobs, njobs, err);
done:
	state_free(st);
	return rc;
}

void qb_pandoc_abort(void *state)
{
	state_free(state);
}
