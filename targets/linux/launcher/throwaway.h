/* The throw-away root of `boxwright learn` (throwaway.c), its wait (throwaway-wait.c) and what it leaves (throwaway-report.c). */
#ifndef BOXWRIGHT_THROWAWAY_H
#define BOXWRIGHT_THROWAWAY_H

#include <stddef.h>

/*
 * Runs PROG with its standard streams as `run` hands them over, waits for
 * it while watching the trace tmpfs (trace_fd) and the scratch tmpfs
 * (scratch_fd), and stops the run when either is full: *bound is then
 * "trace" or "writes". PROG's status (128+N for a signal), or 125.
 */
int throwaway_wait(char **prog, int trace_fd, int scratch_fd, const char **bound);

/* throwaway-report.c */
/* A new file in the host's BASE/keep (O_EXCL, O_NOFOLLOW): its descriptor, or -1 and a message. */
int keep_file(int keep_fd, const char *name);
/* The upper layers' entries written to `changes` on the trace tmpfs; -1 when the list was cut short. */
int report_changes(int layers_fd, int trace_fd, char *const *layers, size_t nlayers, int unprivileged);
/* trace.PID and changes, regular files only, from the trace tmpfs to BASE/keep. */
void copy_kept(int trace_fd, int keep_fd);

#endif
