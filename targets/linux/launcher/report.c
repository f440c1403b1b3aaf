/*
 * What the in-sandbox step wrote down besides its ready line, said for
 * people: the programs the command ran that Landlock refused (the exec
 * watch, watch.c), and a command whose interpreter is not in the view.
 *
 *   watch refused[-writable] PATH AS        Landlock refused an execve of PATH (the command named it AS);
 *                                            -writable: PATH is on a writable mount (a write grant)
 *   watch dangling AS TARGET                AS is a link whose target the view does not hold
 *   watch no-interpreter PATH INTERP        PATH's ELF or #! interpreter is not in the view
 *   watch interpreter-refused PATH INTERP   Landlock refused to execute PATH's interpreter
 *   watch more                              more than the watch writes down
 *   missing-interpreter FILE INTERP         the command itself: FILE is there, INTERP is not
 *
 * Paths are JSON strings as the step wrote them (util.c print_quoted): a
 * control character stays escaped on the terminal, and a JSON string is a
 * TOML basic string, so `exec = ["…"]` can be pasted as printed.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "sandbox.h"

/* The quoted token at *p (advancing past it and one space), copied into out; 0 when there is none. */
static int quoted(const char **p, char *out, size_t size) {
  const char *s = *p;
  if (*s != '"') return 0;
  size_t i = 1;
  while (s[i] && s[i] != '"' && s[i] != '\n') i += s[i] == '\\' && s[i + 1] ? 2 : 1;
  if (s[i] != '"' || i + 2 > size) return 0;
  memcpy(out, s, i + 1);
  out[i + 1] = '\0';
  *p = s + i + 1 + (s[i + 1] == ' ');
  return 1;
}

/* `"/a/b/c"` → `"/a/b"` (a quoted path's directory: `/` is never escaped). */
static void quoted_dirname(const char *q, char *out, size_t size) {
  const char *slash = strrchr(q, '/');
  size_t n = slash ? (size_t)(slash - q) : 0;
  if (n <= 1) snprintf(out, size, "\"/\"");
  else snprintf(out, size, "%.*s\"", (int)n, q);
}

void principal_table(const char *principal, char *out, size_t size) {
  if (strncmp(principal, "tool.", 5) == 0) snprintf(out, size, "tools.%s.filesystem", principal + 5);
  else if (strncmp(principal, "mcp.", 4) == 0) snprintf(out, size, "mcp_servers.%s.filesystem", principal + 4);
  else snprintf(out, size, "agent.filesystem");
}

/* The next `watch …` line of the ready text from *p; 0 at the end. */
int watch_next(const char **p, struct watch_line *w) {
  for (const char *s = *p; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
    if (strncmp(s, "watch ", 6) != 0) continue;
    const char *k = s + 6;
    size_t n = strcspn(k, " \n");
    snprintf(w->kind, sizeof w->kind, "%.*s", (int)(n < sizeof w->kind ? n : sizeof w->kind - 1), k);
    const char *q = k + n + (k[n] == ' ');
    w->a[0] = w->b[0] = '\0';
    if (quoted(&q, w->a, sizeof w->a)) quoted(&q, w->b, sizeof w->b);
    *p = strchr(s, '\n') ? strchr(s, '\n') + 1 : s + strlen(s);
    return 1;
  }
  return 0;
}

int watch_count(const char *ready) {
  struct watch_line w;
  int n = 0;
  for (const char *p = ready; watch_next(&p, &w);) n += strcmp(w.kind, "more") != 0;
  return n;
}

void say_watch(const char *me, const char *ready, const char *principal, const char *config) {
  char table[300];
  principal_table(principal, table, sizeof table);
  struct watch_line w;
  for (const char *p = ready; watch_next(&p, &w);) {
    /* The name the program used, when it is not the path itself (`./output/hello`, `git` on PATH). */
    char as[sizeof w.b + 8] = "";
    if (w.b[0] && strcmp(w.a, w.b) != 0) snprintf(as, sizeof as, " (as %s)", w.b);
    if (strcmp(w.kind, "refused") == 0)
      fprintf(stderr, "%s: Landlock refused to execute %s, which the command ran%s: exec = [%s] in [%s] of %s allows it\n", me, w.a, as, w.a, table, config);
    else if (strcmp(w.kind, "refused-writable") == 0) {
      char dir[sizeof w.a];
      quoted_dirname(w.a, dir, sizeof dir);
      fprintf(stderr, "%s: Landlock refused to execute %s, which the command ran%s; it is in a write grant, where a build replaces a file rather than rewriting it: exec = [%s] in [%s] of %s allows it, and whatever else the workload writes there (write-exec-overlap)\n", me, w.a, as, dir, table, config);
    } else if (strcmp(w.kind, "dangling") == 0)
      fprintf(stderr, "%s: the command ran %s, a link to %s, which is not in the view: a read grant of the directory that holds what it resolves to brings it in\n", me, w.a, w.b);
    else if (strcmp(w.kind, "no-interpreter") == 0)
      fprintf(stderr, "%s: %s, which the command ran, cannot start: its interpreter %s is not in the view\n", me, w.a, w.b);
    else if (strcmp(w.kind, "interpreter-refused") == 0)
      fprintf(stderr, "%s: Landlock refused to execute %s, the interpreter of %s, which the command ran: exec = [%s] in [%s] of %s allows it\n", me, w.b, w.a, w.b, table, config);
    else if (strcmp(w.kind, "more") == 0)
      fprintf(stderr, "%s: … and more (the in-sandbox step writes down %d)\n", me, 32);
  }
}

int missing_interpreter(const char *ready, char *file, char *interp, size_t size) {
  const char *s = strstr(ready, "\nmissing-interpreter ");
  if (!s) return 0;
  const char *q = s + 21;
  return quoted(&q, file, size) && quoted(&q, interp, size);
}
