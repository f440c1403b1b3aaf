/* report.c: what the in-sandbox step wrote down besides its ready line, said for people. */
#ifndef BOXWRIGHT_REPORT_H
#define BOXWRIGHT_REPORT_H

#include <limits.h>
#include <stddef.h>

/* One `watch KIND A [B]` line: A and B as the step quoted them (JSON strings). */
struct watch_line {
  char kind[32];
  char a[2 * PATH_MAX + 8];
  char b[2 * PATH_MAX + 8];
};

/* The Box table of a principal's grants: `agent.filesystem`, `tools.NAME.filesystem`, `mcp_servers.NAME.filesystem`. */
void principal_table(const char *principal, char *out, size_t size);
/* How many programs the watch wrote down. */
int watch_count(const char *ready);
/* The next `watch` line from *p (advanced past it); 0 at the end. */
int watch_next(const char **p, struct watch_line *w);
/* Each line the watch wrote, as a message with the grant that would allow it. */
void say_watch(const char *me, const char *ready, const char *principal, const char *config);
/* The command's own missing interpreter: FILE and INTERP (quoted). */
int missing_interpreter(const char *ready, char *file, char *interp, size_t size);

#endif
