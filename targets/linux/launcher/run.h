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

/* Spawns bwrap (a path) in its own process group, forwards SIGINT/SIGTERM/SIGHUP, waits. */
struct run_result run_bwrap(const char *bwrap, char *const argv[], char *const envp[], int status_fd);
/* The whole of an anonymous file from its start, NUL-terminated; NULL when unreadable. */
char *read_from_start(int fd, size_t max, size_t *len);
/* The number after `"key":` in bubblewrap's JSON status, or -1. */
long status_number(const char *status, const char *key);

#endif
