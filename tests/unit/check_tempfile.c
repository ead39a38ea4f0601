/* tempfile.h: the registry of temporaries (and fcopy.h, the copies out of
 * spools: inside the kernel, and through a buffer where it cannot). Renaming, deleting and removing
 * everything in the test process itself; the signal handler, the exit path
 * and the child processes in a forked process ("the run") whose end the
 * test watches: how it ended, and what is left in a scratch folder. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../tools/lib/atomic.h"
#include "../../tools/lib/error.h"
#include "../../tools/lib/fcopy.h"
#include "../../tools/lib/tempfile.h"
#include "check_suites.h"

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/qbank-tempfile-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void at(char *p, size_t n, const char *rel)
{
	snprintf(p, n, "%s/%s", dir, rel);
}

static int exists(const char *rel)
{
	char p[160];
	struct stat st;

	at(p, sizeof(p), rel);
	return lstat(p, &st) == 0;
}

static void put(const char *path, const char *content)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	fputs(content, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* Names in the scratch folder, one line each, sorted, in OUT ("" when it
 * is empty). */
static void listing(char *out, size_t n)
{
	char cmd[160];
	FILE *p;
	size_t got;

	snprintf(cmd, sizeof(cmd), "cd '%s' && ls -A | sort", dir);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	got = fread(out, 1, n - 1, p);
	out[got] = '\0';
	ck_assert_int_eq(pclose(p), 0);
}

/* A folder with files, a subfolder two deep, and a symbolic link to a file
 * outside it (the link goes, the file it names stays). */
static struct qb_tempfile *filled_folder(char *tmpl, size_t n)
{
	struct qb_tempfile *t;
	char p[256];

	at(tmpl, n, ".media.tmp-XXXXXX");
	ck_assert_int_eq(qb_tempfile_mkdtemp(&t, tmpl), 0);
	ck_assert_ptr_null(strstr(tmpl, "XXXXXX"));
	snprintf(p, sizeof(p), "%s/a.png", tmpl);
	put(p, "png");
	snprintf(p, sizeof(p), "%s/sub", tmpl);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/sub/deeper", tmpl);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/sub/deeper/b.png", tmpl);
	put(p, "png");
	at(p, sizeof(p), "outside.txt");
	put(p, "keep me");
	{
		char link[256];

		snprintf(link, sizeof(link), "%s/sub/link", tmpl);
		ck_assert_int_eq(symlink(p, link), 0);
		snprintf(link, sizeof(link), "%s/sub/dirlink", tmpl);
		ck_assert_int_eq(symlink(dir, link), 0);
	}
	return t;
}

START_TEST(rename_keeps_the_file)
{
	struct qb_tempfile *t;
	char tmpl[160], to[160], names[256];
	int fd;

	at(tmpl, sizeof(tmpl), ".out.tmp-XXXXXX");
	ck_assert_int_eq(qb_tempfile_create(&t, &fd, tmpl), 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_ptr_null(strstr(tmpl, "XXXXXX"));
	ck_assert_int_eq(write(fd, "new", 3), 3);
	ck_assert_int_eq(close(fd), 0);
	at(to, sizeof(to), "out");
	ck_assert_int_eq(qb_tempfile_rename(t, to), 0);
	qb_tempfile_remove_all();   /* forgotten: the output stays */
	listing(names, sizeof(names));
	ck_assert_str_eq(names, "out\n");
}
END_TEST

START_TEST(failed_rename_stays_registered)
{
	struct qb_tempfile *t;
	char tmpl[160], to[160], names[256];
	int fd;

	at(tmpl, sizeof(tmpl), ".out.tmp-XXXXXX");
	ck_assert_int_eq(qb_tempfile_create(&t, &fd, tmpl), 0);
	close(fd);
	at(to, sizeof(to), "no-such-folder/out");
	ck_assert_int_eq(qb_tempfile_rename(t, to), QB_EIO);
	ck_assert_int_eq(errno, ENOENT);
	qb_tempfile_delete(t);
	listing(names, sizeof(names));
	ck_assert_str_eq(names, "");
}
END_TEST

START_TEST(create_in_a_missing_folder)
{
	struct qb_tempfile *t = (struct qb_tempfile *)&t;
	char tmpl[160];
	int fd = 0;

	at(tmpl, sizeof(tmpl), "missing/.out.tmp-XXXXXX");
	ck_assert_int_eq(qb_tempfile_create(&t, &fd, tmpl), QB_EIO);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_ptr_null(t);
	ck_assert_int_eq(fd, -1);
}
END_TEST

START_TEST(delete_removes_a_folder_and_what_is_in_it)
{
	char tmpl[160], names[256];
	struct qb_tempfile *t = filled_folder(tmpl, sizeof(tmpl));

	qb_tempfile_delete(t);
	qb_tempfile_delete(NULL);
	qb_tempfile_forget(NULL);
	listing(names, sizeof(names));
	ck_assert_str_eq(names, "outside.txt\n");
}
END_TEST

/* More entries at once than a chunk of the registry holds. */
/* An importer's media folder: made as a temporary folder, filled, then
 * renamed into place. */
START_TEST(rename_keeps_a_folder)
{
	char tmpl[160], to[160], names[256];
	struct qb_tempfile *t = filled_folder(tmpl, sizeof(tmpl));

	at(to, sizeof(to), "out-media");
	ck_assert_int_eq(qb_tempfile_rename(t, to), 0);
	qb_tempfile_remove_all();
	listing(names, sizeof(names));
	ck_assert_str_eq(names, "out-media\noutside.txt\n");
	ck_assert(exists("out-media/sub/deeper/b.png"));
}
END_TEST

START_TEST(remove_all_removes_every_entry)
{
	struct qb_tempfile *t[80], *kept;
	char tmpl[160], names[256];
	size_t i;
	int fd;

	for (i = 0; i < 80; i++) {
		at(tmpl, sizeof(tmpl), ".f.tmp-XXXXXX");
		ck_assert_int_eq(qb_tempfile_create(&t[i], &fd, tmpl), 0);
		close(fd);
	}
	for (i = 0; i < 80; i += 2)
		qb_tempfile_delete(t[i]);
	(void)filled_folder(tmpl, sizeof(tmpl));
	at(tmpl, sizeof(tmpl), "kept-XXXXXX");
	ck_assert_int_eq(qb_tempfile_mkdtemp(&kept, tmpl), 0);
	qb_tempfile_forget(kept);
	qb_tempfile_remove_all();
	listing(names, sizeof(names));
	ck_assert_int_eq(strncmp(names, "kept-", 5), 0);
	ck_assert_str_eq(names + 11, "\noutside.txt\n");
}
END_TEST

/* ---- in a forked run ------------------------------------------------------ */

/* What a run reports back through its pipe before it is ended. */
struct report {
	pid_t child;     /* a registered child, or 0 */
	char file[160];  /* a registered file, or "" */
	char folder[160];
};

/* Runs FN in a forked process, reads its report, then sends it SIG (0:
 * none; FN ends by itself) and returns its wait status. */
static int run_forked(void (*fn)(int wfd), struct report *r, int sig)
{
	int fds[2], status;
	pid_t pid;
	ssize_t got;

	memset(r, 0, sizeof(*r));
	ck_assert_int_eq(pipe(fds), 0);
	fflush(NULL);   /* the run may exit(): nothing buffered twice */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		static const int reset[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
		struct rlimit none = { 0, 0 };
		size_t k;

		/* A suite run under nohup, or as a shell's background job,
		 * inherits some of these ignored, and qb_tempfile_catch_signals
		 * rightly leaves an ignored signal ignored: these runs are about a
		 * process that receives them. */
		for (k = 0; k < sizeof(reset) / sizeof(reset[0]); k++)
			signal(reset[k], SIG_DFL);
		setrlimit(RLIMIT_CORE, &none);   /* SIGQUIT dumps no core here */
		close(fds[0]);
		fn(fds[1]);
		_exit(99);
	}
	close(fds[1]);
	got = read(fds[0], r, sizeof(*r));
	close(fds[0]);
	ck_assert_int_eq(got, (ssize_t)sizeof(*r));
	if (sig)
		ck_assert_int_eq(kill(pid, sig), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return status;
}

static void tell(int wfd, const struct report *r)
{
	if (write(wfd, r, sizeof(*r)) != (ssize_t)sizeof(*r))
		_exit(98);
	close(wfd);
}

/* A run with a file, a filled folder and a child that sleeps, waiting to
 * be signalled. */
static void run_with_everything(int wfd)
{
	struct report r;
	struct qb_tempfile *t;
	char *argv[] = { "sleep", "30", NULL };
	int fd;

	memset(&r, 0, sizeof(r));
	if (qb_tempfile_catch_signals())
		_exit(97);
	at(r.file, sizeof(r.file), ".out.tmp-XXXXXX");
	if (qb_tempfile_create(&t, &fd, r.file))
		_exit(96);
	(void)filled_folder(r.folder, sizeof(r.folder));
	if (qb_tempfile_spawn(&t, &r.child, "sleep", argv, NULL, NULL))
		_exit(95);
	tell(wfd, &r);
	for (;;)
		pause();
}

static int gone(pid_t pid)
{
	return kill(pid, 0) != 0 && errno == ESRCH;
}

/* Whether a process of group PGID still runs: zombies do not count (a
 * grandchild whose parent was killed waits for init to reap it). */
static int group_runs(pid_t pgid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int runs = 0;

	ck_assert_ptr_nonnull(d);
	while (!runs && (e = readdir(d))) {
		char p[300], buf[512], *close_paren, state;
		long pgrp;
		FILE *f;
		size_t n;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(p, sizeof(p), "/proc/%s/stat", e->d_name);
		if (!(f = fopen(p, "r")))
			continue;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		close_paren = strrchr(buf, ')');
		if (close_paren && sscanf(close_paren + 1, " %c %*d %ld", &state, &pgrp) == 2 &&
		    pgrp == (long)pgid && state != 'Z')
			runs = 1;
	}
	closedir(d);
	return runs;
}

static void check_everything_gone(const struct report *r)
{
	char names[256];

	listing(names, sizeof(names));
	ck_assert_str_eq(names, "outside.txt\n");
	ck_assert_msg(gone(r->child), "the child %d still runs", (int)r->child);
}

START_TEST(a_signal_removes_everything_and_ends_the_run)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	struct report r;
	int status;

	status = run_forked(run_with_everything, &r, sigs[_i]);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == sigs[_i],
		      "status %#x, expected the end by signal %d", status, sigs[_i]);
	check_everything_gone(&r);
}
END_TEST

/* A child that ignores the signal gets SIGKILL after the grace period:
 * the shell and the sleep it started (its group) both end. */
static void run_with_a_stubborn_child(int wfd)
{
	struct report r;
	struct qb_tempfile *t;
	char *argv[] = { "sh", "-c", "trap '' INT TERM; sleep 30; exit 0", NULL };

	memset(&r, 0, sizeof(r));
	if (qb_tempfile_catch_signals())
		_exit(97);
	(void)filled_folder(r.folder, sizeof(r.folder));
	if (qb_tempfile_spawn(&t, &r.child, "sh", argv, NULL, NULL))
		_exit(95);
	usleep(100000);   /* the trap is set */
	tell(wfd, &r);
	for (;;)
		pause();
}

START_TEST(a_stubborn_child_is_killed)
{
	struct report r;
	struct timespec a, b;
	int status;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &a);
	status = run_forked(run_with_a_stubborn_child, &r, SIGTERM);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ms = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	ck_assert_msg(ms >= QB_TEMPFILE_CHILD_GRACE_MS - 100, "ended after %ld ms", ms);
	check_everything_gone(&r);
	ck_assert_msg(!group_runs(r.child), "the child's group lives on");
}
END_TEST

/* Threads that make, rename and delete temporaries without pause while
 * the signal arrives on one of them (the main thread blocks it): nothing
 * is left but complete outputs. */
static void *churn(void *arg)
{
	sigset_t none;
	char tmpl[160], to[160];
	struct qb_tempfile *t;
	unsigned long i;
	int fd;

	sigemptyset(&none);
	pthread_sigmask(SIG_SETMASK, &none, NULL);
	for (i = 0;; i++) {
		at(tmpl, sizeof(tmpl), ".out.tmp-XXXXXX");
		if (qb_tempfile_create(&t, &fd, tmpl))
			_exit(94);
		if (write(fd, "complete", 8) != 8)
			_exit(93);
		close(fd);
		if (i % 3 == 0) {
			qb_tempfile_delete(t);
			continue;
		}
		snprintf(to, sizeof(to), "%s/out-%d-%lu", dir, *(int *)arg, i % 5);
		if (qb_tempfile_rename(t, to))
			_exit(92);
	}
	return NULL;
}

static void run_with_threads(int wfd)
{
	static int ids[] = { 1, 2 };
	struct report r;
	pthread_t th[2];
	sigset_t all;
	size_t i;

	memset(&r, 0, sizeof(r));
	if (qb_tempfile_catch_signals())
		_exit(97);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, churn, &ids[i]))
			_exit(91);
	usleep(50000);
	tell(wfd, &r);
	for (;;)
		pause();
}

START_TEST(a_signal_on_a_worker_thread)
{
	struct report r;
	char names[1024], *line;
	int status;

	status = run_forked(run_with_threads, &r, _i % 2 ? SIGINT : SIGTERM);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == (_i % 2 ? SIGINT : SIGTERM));
	listing(names, sizeof(names));
	for (line = strtok(names, "\n"); line; line = strtok(NULL, "\n")) {
		char p[200], buf[16] = "";
		FILE *f;

		ck_assert_msg(strncmp(line, "out-", 4) == 0, "left behind: %s", line);
		snprintf(p, sizeof(p), "%s/%s", dir, line);
		f = fopen(p, "rb");
		ck_assert_ptr_nonnull(f);
		ck_assert_uint_eq(fread(buf, 1, sizeof(buf) - 1, f), 8);
		fclose(f);
		ck_assert_str_eq(buf, "complete");
	}
}
END_TEST

/* A signal that arrives during a hold (on another thread, which runs the
 * handler) waits for the renames: all three outputs are in place. */
static void *idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void run_with_a_hold(int wfd)
{
	struct report r;
	struct qb_tempfile *t[3];
	char tmpl[3][160], to[160];
	sigset_t held;
	pthread_t th;
	int i, fd;

	memset(&r, 0, sizeof(r));
	if (qb_tempfile_catch_signals() || pthread_create(&th, NULL, idle, NULL))
		_exit(97);
	for (i = 0; i < 3; i++) {
		at(tmpl[i], sizeof(tmpl[i]), ".form.tmp-XXXXXX");
		if (qb_tempfile_create(&t[i], &fd, tmpl[i]) || write(fd, "new", 3) != 3)
			_exit(96);
		close(fd);
	}
	qb_tempfile_hold(&held);
	tell(wfd, &r);    /* the signal comes now, and waits */
	usleep(200000);
	for (i = 0; i < 3; i++) {
		snprintf(to, sizeof(to), "%s/form-%c", dir, 'A' + i);
		if (qb_tempfile_rename(t[i], to))
			_exit(95);
	}
	qb_tempfile_release(&held);
	for (;;)
		pause();
}

START_TEST(a_hold_lets_the_renames_complete)
{
	struct report r;
	char names[256];
	int status;

	status = run_forked(run_with_a_hold, &r, SIGTERM);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "status %#x", status);
	listing(names, sizeof(names));
	ck_assert_str_eq(names, "form-A\nform-B\nform-C\n");
}
END_TEST

/* An inherited SIG_IGN is kept (nohup, a shell's background job): the run
 * goes on and removes its file when it exits. */
static void run_ignoring_sigint(int wfd)
{
	struct report r;
	struct qb_tempfile *t;
	int fd;

	memset(&r, 0, sizeof(r));
	signal(SIGINT, SIG_IGN);
	if (qb_tempfile_catch_signals())
		_exit(97);
	at(r.file, sizeof(r.file), ".out.tmp-XXXXXX");
	if (qb_tempfile_create(&t, &fd, r.file))
		_exit(96);
	raise(SIGINT);
	if (access(r.file, F_OK) != 0)
		_exit(90);
	tell(wfd, &r);
	exit(7);   /* atexit removes the file */
}

START_TEST(an_ignored_signal_stays_ignored_and_exit_cleans_up)
{
	struct report r;
	char names[256];
	int status;

	status = run_forked(run_ignoring_sigint, &r, 0);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 7, "status %#x", status);
	listing(names, sizeof(names));
	ck_assert_str_eq(names, "");
}
END_TEST

/* SIGPIPE is caught even when it was ignored: a write to a closed pipe
 * ends the run quietly, by SIGPIPE, its temporaries removed. */
static void run_writing_to_a_closed_pipe(int wfd)
{
	struct report r;
	struct qb_tempfile *t;
	int fds[2], fd;

	memset(&r, 0, sizeof(r));
	signal(SIGPIPE, SIG_IGN);
	if (qb_tempfile_catch_signals())
		_exit(97);
	at(r.file, sizeof(r.file), ".out.tmp-XXXXXX");
	if (qb_tempfile_create(&t, &fd, r.file) || pipe(fds))
		_exit(96);
	tell(wfd, &r);
	close(fds[0]);
	(void)!write(fds[1], "x", 1);
	_exit(89);
}

START_TEST(a_closed_pipe_ends_the_run_by_sigpipe)
{
	struct report r;
	char names[256];
	int status;

	status = run_forked(run_writing_to_a_closed_pipe, &r, 0);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE, "status %#x", status);
	listing(names, sizeof(names));
	ck_assert_str_eq(names, "");
}
END_TEST

/* A forked copy of a process never removes its parent's entries. */
START_TEST(a_forked_copy_leaves_the_parents_entries)
{
	struct qb_tempfile *t;
	char tmpl[160], names[256];
	int fd, status;
	pid_t pid;

	at(tmpl, sizeof(tmpl), ".out.tmp-XXXXXX");
	ck_assert_int_eq(qb_tempfile_create(&t, &fd, tmpl), 0);
	close(fd);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		qb_tempfile_remove_all();
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(exists(tmpl + strlen(dir) + 1));
	qb_tempfile_delete(t);
	listing(names, sizeof(names));
	ck_assert_str_eq(names, "");
}
END_TEST

START_TEST(wait_reaps_the_child_and_forgets_it)
{
	struct qb_tempfile *t;
	char *argv[] = { "sh", "-c", "exit 3", NULL };
	pid_t pid;
	int status = 0;

	ck_assert_int_eq(qb_tempfile_spawn(&t, &pid, "sh", argv, NULL, NULL), 0);
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(qb_tempfile_wait(t, &status), 0);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 3);
	ck_assert(gone(pid));
}
END_TEST

START_TEST(spawn_of_a_missing_program)
{
	struct qb_tempfile *t;
	char *argv[] = { "qbank-no-such-program", NULL };
	pid_t pid;
	int status = 0;

	/* posix_spawnp reports a missing program either itself or as the
	 * child's exit status 127 */
	if (qb_tempfile_spawn(&t, &pid, "qbank-no-such-program", argv, NULL, NULL) == 0) {
		ck_assert_int_eq(qb_tempfile_wait(t, &status), 0);
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 127);
	} else {
		ck_assert_ptr_null(t);
		ck_assert_int_eq(pid, -1);
	}
}
END_TEST

/* qb_tempfile_delete ends a child that ignores SIGTERM with SIGKILL. */
START_TEST(delete_ends_a_stubborn_child)
{
	struct qb_tempfile *t;
	char *argv[] = { "sh", "-c", "trap '' TERM; sleep 30", NULL };
	pid_t pid;

	ck_assert_int_eq(qb_tempfile_spawn(&t, &pid, "sh", argv, NULL, NULL), 0);
	usleep(100000);
	qb_tempfile_delete(t);
	ck_assert(gone(pid));
	ck_assert(!group_runs(pid));
}
END_TEST

/* ---- fcopy.h ------------------------------------------------------------- */

/* A spool of N bytes (a pattern no copy could fake), at position 0. */
static FILE *spool_of(size_t n)
{
	FILE *f = tmpfile();
	size_t i;

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < n; i++)
		ck_assert_int_ne(fputc((int)(i * 7 % 251), f), EOF);
	ck_assert_int_eq(fseek(f, 0, SEEK_SET), 0);
	return f;
}

/* The N bytes of S at OFF are the spool's bytes FROM..FROM+N. */
static void same_as_spool(const unsigned char *s, size_t off, size_t from, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		ck_assert_uint_eq(s[off + i], (i + from) * 7 % 251);
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	static unsigned char buf[1 << 20];

	ck_assert_ptr_nonnull(f);
	*len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return buf;
}

/* Stretches of a spool between writes through the stream, into a file:
 * the bytes in order, and both streams where they should be after. */
START_TEST(fcopy_into_a_file_keeps_the_order)
{
	char p[128];
	FILE *from = spool_of(300000), *to;
	unsigned char *s;
	size_t len;

	at(p, sizeof(p), "out");
	to = fopen(p, "wb");
	ck_assert_ptr_nonnull(to);
	ck_assert_int_ge(fputs("head", to), 0);
	ck_assert_int_eq(qb_fcopy(to, from, 1000), 0);
	ck_assert_int_eq(ftello(from), 1000);
	ck_assert_int_ge(fputs("mid", to), 0);
	ck_assert_int_eq(qb_fcopy(to, from, UINT64_MAX), 0);
	ck_assert_int_eq(ftello(from), 300000);
	ck_assert_int_eq(qb_fcopy(to, from, 10), 0);   /* at the end: nothing */
	ck_assert_int_ge(fputs("tail", to), 0);
	ck_assert_int_eq(ftello(to), 4 + 1000 + 3 + 299000 + 4);
	ck_assert_int_eq(fclose(to), 0);
	fclose(from);
	s = slurp(p, &len);
	ck_assert_uint_eq(len, 4 + 1000 + 3 + 299000 + 4);
	ck_assert(memcmp(s, "head", 4) == 0);
	same_as_spool(s, 4, 0, 1000);
	ck_assert(memcmp(s + 1004, "mid", 3) == 0);
	same_as_spool(s, 1007, 1000, 299000);
	ck_assert(memcmp(s + len - 4, "tail", 4) == 0);
}
END_TEST

/* Into a pipe the kernel does not copy: the buffer does, the same bytes.
 * 30,000 bytes fit in a pipe's buffer, so no second process is needed. */
START_TEST(fcopy_into_a_pipe_falls_back)
{
	static unsigned char got[40001];
	int fds[2];
	FILE *from = spool_of(40000), *to;
	size_t n = 0;
	ssize_t k;

	ck_assert_int_eq(pipe(fds), 0);
	to = fdopen(fds[1], "wb");
	ck_assert_ptr_nonnull(to);
	ck_assert_int_eq(qb_fcopy(to, from, 30000), 0);
	ck_assert_int_eq(ftello(from), 30000);
	ck_assert_int_eq(fclose(to), 0);
	while ((k = read(fds[0], got + n, sizeof(got) - n)) > 0)
		n += (size_t)k;
	close(fds[0]);
	ck_assert_uint_eq(n, 30000);
	same_as_spool(got, 0, 0, 30000);
	fclose(from);
}
END_TEST

/* The kernel path refuses a descriptor it cannot write (open for reading
 * only: EBADF, as for one open for appending, so that qb_fcopy falls back
 * to the stream) and leaves the spool where it was. */
START_TEST(fcopy_kernel_reports_what_it_cannot_do)
{
	char p[128];
	FILE *from = spool_of(1000);
	int fd;

	at(p, sizeof(p), "ro");
	fd = open(p, O_CREAT | O_RDONLY, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(qb_fcopy_kernel(fd, from, 1000), -1);
	ck_assert(qb_fcopy_unsupported(errno));
	ck_assert_int_eq(ftello(from), 0);
	close(fd);
	fclose(from);
}
END_TEST

/* The atomic writer copies into its temporary file and renames it. */
START_TEST(atomic_copy_lands_in_the_output)
{
	char p[128];
	struct qb_atomic *a;
	struct qb_error err = { 0, "" };
	FILE *from = spool_of(200000);
	unsigned char *s;
	size_t len;

	at(p, sizeof(p), "page");
	ck_assert_int_eq(qb_atomic_open(&a, p, &err), 0);
	ck_assert_int_ge(fputs("<p>", qb_atomic_file(a)), 0);
	ck_assert_int_eq(qb_atomic_copy(a, from, 150000), 0);
	ck_assert_int_ge(fputs("</p>", qb_atomic_file(a)), 0);
	ck_assert_int_eq(qb_atomic_copy(a, from, UINT64_MAX), 0);
	ck_assert_int_eq(qb_atomic_commit(a, &err), 0);
	fclose(from);
	s = slurp(p, &len);
	ck_assert_uint_eq(len, 3 + 150000 + 4 + 50000);
	ck_assert(memcmp(s, "<p>", 3) == 0);
	same_as_spool(s, 3, 0, 150000);
	ck_assert(memcmp(s + 150003, "</p>", 4) == 0);
	same_as_spool(s, 150007, 150000, 50000);
}
END_TEST

Suite *suite_tempfile(void)
{
	Suite *s = suite_create("tempfile");
	TCase *t = tcase_create("tempfile");

	tcase_add_checked_fixture(t, setup, teardown);
	/* forks, children and a grace period of a second; slow under valgrind */
	tcase_set_timeout(t, 60);
	tcase_add_test(t, rename_keeps_the_file);
	tcase_add_test(t, failed_rename_stays_registered);
	tcase_add_test(t, create_in_a_missing_folder);
	tcase_add_test(t, delete_removes_a_folder_and_what_is_in_it);
	tcase_add_test(t, rename_keeps_a_folder);
	tcase_add_test(t, remove_all_removes_every_entry);
	tcase_add_loop_test(t, a_signal_removes_everything_and_ends_the_run, 0, 5);
	tcase_add_test(t, a_stubborn_child_is_killed);
	tcase_add_loop_test(t, a_signal_on_a_worker_thread, 0, 4);
	tcase_add_test(t, a_hold_lets_the_renames_complete);
	tcase_add_test(t, an_ignored_signal_stays_ignored_and_exit_cleans_up);
	tcase_add_test(t, a_closed_pipe_ends_the_run_by_sigpipe);
	tcase_add_test(t, a_forked_copy_leaves_the_parents_entries);
	tcase_add_test(t, wait_reaps_the_child_and_forgets_it);
	tcase_add_test(t, spawn_of_a_missing_program);
	tcase_add_test(t, delete_ends_a_stubborn_child);
	tcase_add_test(t, fcopy_into_a_file_keeps_the_order);
	tcase_add_test(t, fcopy_into_a_pipe_falls_back);
	tcase_add_test(t, fcopy_kernel_reports_what_it_cannot_do);
	tcase_add_test(t, atomic_copy_lands_in_the_output);
	suite_add_tcase(s, t);
	return s;
}
