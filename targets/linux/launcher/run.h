/* Running bubblewrap (run.c). */
#ifndef BOXWRIGHT_RUN_H
#define BOXWRIGHT_RUN_H

#include <stddef.h>

struct run_result {
  int spawn_error;   /* errno of the spawn (bwrap not started); 0 when it started */
  int signal;        /* bwrap died of this signal; 0 when it exited */
  int status;        /* bwrap's exit status, when it exited */
  int has_exit_code; /* its JSON status holds `exit-code`: the command it executed ran and ended */
  int exit_code;
  int forwarded;     /* the last signal forwarded (to the command, or to bwrap before the command was known); 0 when none */
};

/* What bwrap gets on 0-2 where it is not the launcher's own, and the pipes the launcher feeds and drains (stdio.c). */
struct stdio_plan {
  int child[3]; /* bwrap's descriptor 0, 1, 2; -1: the launcher's own */
  int feed;     /* the write end of stdin's pipe, fed from the launcher's 0; -1: none */
  int drain[2]; /* the read ends of stdout's and stderr's pipes, drained into the launcher's 1 and 2; -1: none */
};

/* The stdin pipe's feeder: what was read from this process's stdin and not yet written. */
struct stdio_feeder {
  char buf[65536];
  size_t have, off;
};

/* The plan for this launch (`unmediated`: no Landlock in the sandbox); -v notes under `verbose_as`. 0, or -1 with errno. */
int stdio_plan(struct stdio_plan *p, int unmediated, const char *verbose_as);
/* After the spawn: the launcher closes its copies of bwrap's ends (the pipes end when the sandbox's do). */
void stdio_spawned(struct stdio_plan *p);
/* Feeds the stdin pipe as far as it takes now (it is non-blocking); closes it at the end of stdin, or when the command closed its end. */
void stdio_feed(struct stdio_plan *p, struct stdio_feeder *f);
/* Copies what came on stdout's (i 0) or stderr's (i 1) pipe into this process's 1 or 2; closes the pipe at its end. */
void stdio_drain(struct stdio_plan *p, int i);

/* Spawns bwrap (a path) in its own process group, forwards SIGINT/SIGTERM/SIGHUP, feeds and drains the plan's pipes, waits. */
struct run_result run_bwrap(const char *bwrap, char *const argv[], char *const envp[], int status_fd, struct stdio_plan *plan);
/* The whole of an anonymous file from its start, NUL-terminated; NULL when unreadable. */
char *read_from_start(int fd, size_t max, size_t *len);
/* The number after `"key":` in bubblewrap's JSON status, or -1. */
long status_number(const char *status, const char *key);

#endif
