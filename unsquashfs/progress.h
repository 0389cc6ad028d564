/* progress.h — the extraction progress bar (stdout, only on a terminal and without -n). */
#ifndef SQ_UNSQUASHFS_PROGRESS_H
#define SQ_UNSQUASHFS_PROGRESS_H

struct unsq_progress;

/* NULL (no bar; every call accepts NULL) when disabled, stdout is not a tty, or out of memory. */
struct unsq_progress *unsq_progress_new(unsigned long total, int disabled);
void unsq_progress_step(struct unsq_progress *p, unsigned long n);
/* Draw the final state and end the line. */
void unsq_progress_free(struct unsq_progress *p);

#endif
