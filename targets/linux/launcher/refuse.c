/*
 * The in-sandbox step's refusal (sandbox.h): says why, writes `refused KIND`
 * on the ready fd, exits 125. Its own file, below both callers: inside.c
 * (the step's argument checks) and ../landlock/landlock.c (the ruleset), so
 * that neither of them calls back into the other.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "sandbox.h"

static int ready_fd = -1;
/* The prefix of its messages: the launcher's own (--name), so that one run speaks with one voice. */
static const char *prefix = "boxwright-sandbox";

void sandbox_refuse_report_to(int fd) { ready_fd = fd; }

void sandbox_refuse_name(const char *name) { prefix = name; }

void sandbox_refuse(const char *kind, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s: ", prefix);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs("; nothing was run\n", stderr);
  if (ready_fd >= 0) dprintf(ready_fd, "refused %s\n", kind);
  exit(EXIT_REFUSED);
}
