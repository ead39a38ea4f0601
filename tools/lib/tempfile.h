/* Temporary files, folders and child processes that must not outlive the
 * run that made them, as git's tempfile.c does for its lock files. Each is
 * made through this registry (so that no signal can fall between making it
 * and registering it), forgotten when it is renamed into place, removed or
 * reaped, and whatever is still registered goes when the process ends:
 *
 * - at exit (qb_tempfile_remove_all, registered with atexit by
 *   qb_tempfile_catch_signals, also callable directly);
 * - on SIGHUP, SIGINT, SIGPIPE, SIGQUIT and SIGTERM, once the command line
 *   has called qb_tempfile_catch_signals: the handler ends every
 *   registered child with the same signal, removes every registered file
 *   and folder, then lets the signal end the process with its usual status
 *   (130 for SIGINT and 143 for SIGTERM as the shell shows them; 141 for
 *   SIGPIPE).
 *
 * The library itself never installs a handler: a program that embeds it
 * (the unit tests, the fuzzers) keeps its own signal dispositions, and
 * files it registers are still removed on its error paths.
 *
 * Threads: the handler may run on any thread, whichever the kernel picks,
 * so no thread has to block these signals and the pipeline's threads are
 * not touched (blocking them in each worker instead would have to be
 * repeated wherever a thread is created, and one thread created without
 * it would quietly break the cleanup). Only async-signal-safe calls are
 * made in it (kill, waitpid, poll, unlink, openat, getdents64, unlinkat,
 * close; no malloc, no lock): what it needs, the paths and the pids, is
 * copied into the registry when an entry is made. Every change to the
 * registry is made with those signals blocked in the thread making it and
 * counted in a "busy" counter; the handler first marks the process as
 * dying (a thread that then tries to change the registry waits for the end
 * instead), waits until no change is under way, and only then removes what
 * is registered. A temporary is therefore either renamed
 * into place or removed, never left half-registered.
 *
 * A program run on temporary files (pandoc making a PDF) needs three
 * entries: a folder for its intermediates, made with qb_tempfile_mkdtemp
 * and given to it as TMPDIR (pandoc and TeX write their own temporaries
 * there), the child itself from qb_tempfile_spawn, ended with
 * qb_tempfile_wait, and the output through atomic.h; then
 * qb_tempfile_delete on the folder. An interrupt in between ends the child
 * and its group first, then removes the folder and the partial output.
 *
 * Paths are kept as given (relative to the current folder, which qbank never
 * changes). An entry made by another process (a forked child that has not
 * yet called exec) is never touched by it.
 *
 * Functions return 0 or a negative error (error.h) with errno saying why;
 * the caller words the message.
 * Ownership: the registry owns its entries and their copies of the paths; a
 * handle stays valid until qb_tempfile_rename, _delete, _forget or _wait
 * ends it. */
#ifndef QB_TEMPFILE_H
#define QB_TEMPFILE_H

#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/types.h>

struct qb_tempfile;

/* How long a child is given to end after its signal before it gets
 * SIGKILL (pandoc and TeX end at once on SIGTERM). */
#define QB_TEMPFILE_CHILD_GRACE_MS 1000

/* Creates and opens a file (mkstemp: TMPL ends in XXXXXX, replaced in
 * place; mode 0600) and registers it. *FD is open for reading and writing. */
int qb_tempfile_create(struct qb_tempfile **out, int *fd, char *tmpl);

/* Creates a folder (mkdtemp on TMPL) and registers it: it is removed with
 * everything inside (without following symbolic links), so whatever is
 * written into it, e.g. an importer's media files or the files pandoc and
 * TeX make when TMPDIR points there, needs no registration of its own. */
int qb_tempfile_mkdtemp(struct qb_tempfile **out, char *tmpl);

/* Starts FILE (looked up in PATH, as posix_spawnp) with ARGV and ENVP (NULL
 * for the current environment) and the file actions ACTIONS (or NULL), in a
 * process group of its own, and registers it: on a signal the whole group
 * (the child and whatever it runs, e.g. pandoc's TeX engine) gets the same
 * signal, then SIGKILL after QB_TEMPFILE_CHILD_GRACE_MS, and is reaped
 * before the temporary folders it may be writing into are removed. The
 * group is also why a terminal's Ctrl-C reaches the child only through
 * qbank: the child is not left running when only qbank is signalled (a CI
 * job's SIGTERM). The child starts with the caller's signal mask; signals
 * the caller ignores stay ignored. End it with qb_tempfile_wait, or
 * qb_tempfile_delete to stop it early. */
int qb_tempfile_spawn(struct qb_tempfile **out, pid_t *pid, const char *file,
		      char *const argv[], char *const envp[],
		      const posix_spawn_file_actions_t *actions);

/* Renames a registered file or folder onto TO and forgets it. On failure
 * it stays registered (errno from rename). */
int qb_tempfile_rename(struct qb_tempfile *t, const char *to);

/* Waits for a registered child to end and reaps it (*STATUS as waitpid
 * sets it; STATUS may be NULL). The entry is forgotten while the child is
 * still a zombie, so its pid cannot be reused by another process that a
 * signal would then reach. */
int qb_tempfile_wait(struct qb_tempfile *t, int *status);

/* Removes a file or folder (recursively), or ends a child (SIGTERM to its
 * group, SIGKILL after the grace period) and reaps it; then forgets it.
 * Accepts NULL. */
void qb_tempfile_delete(struct qb_tempfile *t);

/* Forgets an entry without touching what it names (kept on purpose, or
 * already gone). Accepts NULL. */
void qb_tempfile_forget(struct qb_tempfile *t);

/* Holds the signal handler off (it waits, on whichever thread it runs)
 * until qb_tempfile_release, so that a group of renames completes as one:
 * an interrupt then finds either every output old or every one new. Keep
 * what is held short (renames, not writes); the handler waits 5 s at most.
 * HELD keeps the thread's signal mask. Holds may nest. */
void qb_tempfile_hold(sigset_t *held);
void qb_tempfile_release(const sigset_t *held);

/* A spool: an unlinked temporary file (tmpfile(): nothing on disk to clean
 * up, whatever ends the process) with a stdio buffer of QB_SPOOL_BUF bytes
 * instead of stdio's 4 KB, for what an exporter writes in runs of many KB
 * and reads back once: a system call per 64 KB instead of one per 4 KB. */
#define QB_SPOOL_BUF (64 * 1024)

struct qb_spool {
	FILE *f;
	char *buf;
};

/* Opens S; 0, QB_EIO (no temporary file: errno says why) or QB_ENOMEM. */
int qb_spool_open(struct qb_spool *s);
/* The same for a temporary file F the caller made (a registered one, say):
 * S owns F from here on, also when the buffer cannot be had (QB_ENOMEM:
 * F is closed). */
int qb_spool_attach(struct qb_spool *s, FILE *f);
/* Closes and frees S (its data is discarded); a zeroed or closed spool is
 * left alone. */
void qb_spool_close(struct qb_spool *s);

/* Ends every registered child and removes every registered file and folder
 * of this process, as the signal handler does. */
void qb_tempfile_remove_all(void);

/* Installs the handler for SIGHUP, SIGINT, SIGQUIT and SIGTERM (each
 * unless it was inherited as ignored: `nohup` and a shell's background
 * jobs ask for that, and it is kept, as coreutils' sort and GNU make do)
 * and for SIGPIPE always (a closed standard output then ends the run
 * quietly, as git does, even under a parent that ignores SIGPIPE), unblocks
 * SIGPIPE, and registers qb_tempfile_remove_all with atexit. Call once,
 * from main, before any thread starts. */
int qb_tempfile_catch_signals(void);

#endif
