/* qbank-rusage: runs a command and reports its wall time and peak resident
 * memory, for the benchmark (make bench). Not installed.
 *
 * Usage: qbank-rusage -o RESULT [-i STDIN] [-O STDOUT] -- COMMAND [ARG...]
 * Writes "SECONDS MAXRSS_KB EXIT_STATUS" (one line) to RESULT. The child's
 * standard input and output are redirected to the named files (default
 * /dev/null); its standard error is kept. The exit status is the child's
 * (128 + signal when it was killed).
 *
 * wait4() gives the child's own ru_maxrss, so the measurement covers exactly
 * the command, without a shell or the time(1) package in between. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int redirect(const char *path, int fd, int flags)
{
	int f = open(path, flags, 0644);

	if (f < 0)
		return -1;
	if (f != fd) {
		if (dup2(f, fd) < 0)
			return -1;
		close(f);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *result = NULL, *in = "/dev/null", *out = "/dev/null";
	struct rusage ru;
	double t0, t1;
	pid_t pid;
	int c, status, code;
	FILE *f;

	while ((c = getopt(argc, argv, "+o:i:O:")) != -1) {
		if (c == 'o')
			result = optarg;
		else if (c == 'i')
			in = optarg;
		else if (c == 'O')
			out = optarg;
		else
			goto usage;
	}
	if (!result || optind >= argc)
		goto usage;

	t0 = now();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "qbank-rusage: fork: %s\n", strerror(errno));
		return 2;
	}
	if (pid == 0) {
		if (redirect(in, 0, O_RDONLY) || redirect(out, 1, O_WRONLY | O_CREAT | O_TRUNC)) {
			fprintf(stderr, "qbank-rusage: redirect: %s\n", strerror(errno));
			_exit(127);
		}
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "qbank-rusage: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "qbank-rusage: wait4: %s\n", strerror(errno));
			return 2;
		}
	}
	t1 = now();
	code = WIFEXITED(status) ? WEXITSTATUS(status)
	       : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 255;
	f = fopen(result, "w");
	if (!f || fprintf(f, "%.3f %ld %d\n", t1 - t0, ru.ru_maxrss, code) < 0 || fclose(f) != 0) {
		fprintf(stderr, "qbank-rusage: %s: %s\n", result, strerror(errno));
		return 2;
	}
	return 0;
usage:
	fputs("usage: qbank-rusage -o RESULT [-i STDIN] [-O STDOUT] -- COMMAND [ARG...]\n", stderr);
	return 2;
}
