/* progress.c — a squashfs-tools style bar: [=====-] done/total pct%, redrawn at most 10x/s. */
#include "config.h"
#include "unsquashfs/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

struct unsq_progress {
	unsigned long total, done;
	int columns;
	struct timespec last;
	unsigned spin;
};

struct unsq_progress *unsq_progress_new(unsigned long total, int disabled)
{
	if (disabled || !isatty(STDOUT_FILENO))
		return NULL;
	struct unsq_progress *p = calloc(1, sizeof(*p));
	if (p == NULL)
		return NULL;
	p->total = total;
	struct winsize ws;
	p->columns = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20 ? ws.ws_col : 80;
	return p;
}

static void draw(struct unsq_progress *p)
{
	char nums[64];
	unsigned long total = p->total ? p->total : 1;
	unsigned long done = p->done > total ? total : p->done;
	int n = snprintf(nums, sizeof(nums), " %lu/%lu %3lu%%", done, p->total, done * 100 / total);
	int width = p->columns - n - 3;
	if (width < 10)
		width = 10;
	int fill = (int)((double)done / (double)total * width);
	static const char spinner[] = "-\\|/";
	putchar('\r');
	putchar('[');
	for (int i = 0; i < width; i++)
		putchar(i < fill ? '=' : (i == fill ? spinner[p->spin++ & 3] : ' '));
	printf("]%s", nums);
	fflush(stdout);
}

void unsq_progress_step(struct unsq_progress *p, unsigned long n)
{
	if (p == NULL)
		return;
	p->done += n;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	long ms = (now.tv_sec - p->last.tv_sec) * 1000 + (now.tv_nsec - p->last.tv_nsec) / 1000000;
	if (ms >= 100) {
		p->last = now;
		draw(p);
	}
}

void unsq_progress_free(struct unsq_progress *p)
{
	if (p == NULL)
		return;
	p->done = p->total;
	draw(p);
	putchar('\n');
	free(p);
}
