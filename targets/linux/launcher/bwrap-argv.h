/* The compiled argv, rewritten for one run (bwrap-argv.c). */
#ifndef BOXWRIGHT_BWRAP_ARGV_H
#define BOXWRIGHT_BWRAP_ARGV_H

#include <stddef.h>

struct strv {
  char **v;
  size_t n, cap;
};

/* Appends s (not copied); -1 when out of memory. */
int strv_push(struct strv *a, char *s);

struct rewrite {
  /* In: the seccomp program's descriptor, given to `--seccomp`. */
  int bpf_fd;
  /* Out: the sandbox's PATH when the argv sets it (`--setenv PATH X`), or unsets it. */
  const char *setenv_path;
  int unsetenv_path;
  /* Out: whether the argv mounts this program at SANDBOX_EXEC_PATH. */
  int exec_mounted;
  /* Out: the descriptors opened for bubblewrap (binds, data), for -v. */
  int opened;
  /* Out, on failure: why; `changed` when a bind source is not what was checked. */
  int changed;
  char err[4200];
};

/*
 * Rewrites the compiled argv (buf[0..len), NUL-terminated tokens) into out:
 * `--bind P P` / `--ro-bind P P` → `--bind-fd K P` / `--ro-bind-fd K P`
 * from a verified descriptor; `--ro-bind-data X D` → a fresh /dev/null
 * descriptor each, except `[--perms M] --ro-bind-data X SANDBOX_EXEC_PATH`
 * → `--ro-bind-fd K SANDBOX_EXEC_PATH`, this program's own file;
 * `--seccomp X` → rw->bpf_fd; every other known option as compiled.
 * The descriptors are not close-on-exec: bubblewrap inherits them.
 * 0, or -1 with rw->err.
 */
int rewrite_argv(char *buf, size_t len, struct rewrite *rw, struct strv *out);

/* The bubblewrap options a compiled view may hold, and their operand counts. */
struct bwrap_option {
  const char *name;
  int operands;
};
extern const struct bwrap_option bwrap_options[];
extern const size_t bwrap_option_count;

#endif
