/* The throw-away root of `boxwright learn` (throwaway.c) and its wait (throwaway-wait.c). */
#ifndef BOXWRIGHT_THROWAWAY_H
#define BOXWRIGHT_THROWAWAY_H

/*
 * Runs PROG with its standard streams as `run` hands them over, waits for
 * it while watching the trace tmpfs (trace_fd) and the scratch tmpfs
 * (scratch_fd), and stops the run when either is full: *bound is then
 * "trace" or "writes". PROG's status (128+N for a signal), or 125.
 */
int throwaway_wait(char **prog, int trace_fd, int scratch_fd, const char **bound);

#endif
