#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Before this many seconds nothing is drawn; then at most one redraw per
 * REDRAW seconds, so that the terminal is not flooded. */
#define PROGRESS_DELAY 1.0
#define PROGRESS_REDRAW 0.1

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

void cli_progress_init(struct cli_progress *p, int quiet)
{
	const char *ci = getenv("CI");

	p->enabled = !quiet && !(ci && *ci) && isatty(STDERR_FILENO);
	p->shown = 0;
	p->width = 0;
	p->last = 0;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
}

/* Byte counts in the unit that suits TOTAL: kB, MB, or GB with a decimal. */
static void amount(char *buf, size_t size, unsigned long long n, unsigned long long total)
{
	if (total >= 1000000000ULL)
		snprintf(buf, size, "%.1f GB", (double)n / 1e9);
	else if (total >= 1000000ULL)
		snprintf(buf, size, "%llu MB", n / 1000000ULL);
	else
		snprintf(buf, size, "%llu kB", n / 1000ULL);
}

void cli_progress_update(void *ctx, unsigned long long done, unsigned long long total)
{
	struct cli_progress *p = ctx;
	char a[32], b[32];
	double t;
	int w;

	if (!p || !p->enabled)
		return;
	t = since(&p->start);
	if (t < PROGRESS_DELAY || (p->shown && t - p->last < PROGRESS_REDRAW))
		return;
	p->last = t;
	if (done > total)
		done = total;
	amount(a, sizeof(a), done, total);
	amount(b, sizeof(b), total, total);
	w = fprintf(stderr, "\rreading %s of %s (%llu%%)", a, b,
		    total ? done * 100ULL / total : 100ULL);
	if (w > 0 && w - 1 < p->width)
		fprintf(stderr, "%*s", p->width - (w - 1), "");
	if (w > 0 && w - 1 > p->width)
		p->width = w - 1;
	(void)fflush(stderr);  /* progress is best effort: a lost frame is harmless */
	p->shown = 1;
}

void cli_progress_done(struct cli_progress *p)
{
	if (!p || !p->shown)
		return;
	fprintf(stderr, "\r%*s\r", p->width, "");
	(void)fflush(stderr);
	p->shown = 0;
}
