/*
 * The artifact's argv (`<principal>.bwrap.args`) names bind sources by
 * path, so that a reviewer can read it and a user can run it by hand. A run
 * mounts from descriptors instead, each opened here and proved to be the
 * path that was checked: a principal able to write a parent of another's
 * grant could swap the grant for a symbolic link between the check and the
 * mount. The source is opened without following a final link
 * (O_PATH | O_NOFOLLOW); the opened object's own path (/proc/self/fd/K)
 * must be the canonical path (a link anywhere on the way, a rename or a
 * deletion changes it); it must be a directory, a regular file or a socket;
 * bubblewrap binds the descriptor and compares the mount with it.
 * test/linux/hostile/race.test.ts runs this file on swapped sources, and
 * test/linux/plan-argv.test.ts holds its rewrite to the Linux plan.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bwrap-argv.h"
#include "sandbox.h"

/* The same table as test/linux/bwrap-options.ts (launcher-build.test.ts holds them equal). */
const struct bwrap_option bwrap_options[] = {
    {"--unshare-all", 0}, {"--share-net", 0}, {"--die-with-parent", 0}, {"--new-session", 0}, {"--unshare-user", 0},
    {"--unshare-ipc", 0}, {"--unshare-pid", 0}, {"--unshare-net", 0}, {"--unshare-uts", 0}, {"--unshare-cgroup", 0},
    {"--unshare-cgroup-try", 0}, {"--unshare-user-try", 0}, {"--clearenv", 0}, {"--as-pid-1", 0},
    {"--cap-drop", 1}, {"--cap-add", 1}, {"--perms", 1}, {"--size", 1}, {"--hostname", 1}, {"--unsetenv", 1},
    {"--setenv", 2}, {"--remount-ro", 1}, {"--chmod", 2}, {"--info-fd", 1}, {"--json-status-fd", 1},
    {"--sync-fd", 1}, {"--block-fd", 1}, {"--lock-file", 1}, {"--uid", 1}, {"--gid", 1},
    {"--bind", 2}, {"--ro-bind", 2}, {"--dev-bind", 2}, {"--bind-try", 2}, {"--ro-bind-try", 2}, {"--bind-fd", 2},
    {"--ro-bind-fd", 2}, {"--ro-bind-data", 2}, {"--bind-data", 2}, {"--file", 2}, {"--tmpfs", 1}, {"--dir", 1},
    {"--symlink", 2}, {"--proc", 1}, {"--dev", 1}, {"--chdir", 1}, {"--seccomp", 1}, {"--add-seccomp-fd", 1},
    {"--args", 1},
};
const size_t bwrap_option_count = COUNT(bwrap_options);

/* Options that read a descriptor the compiled view does not supply: only the launcher adds those. */
static const char *const not_in_a_view[] = {"--args", "--json-status-fd", "--info-fd", "--sync-fd", "--block-fd",
                                            "--bind-fd", "--ro-bind-fd", "--bind-data", "--file", "--add-seccomp-fd"};

int strv_push(struct strv *a, char *s) {
  if (a->n == a->cap) {
    size_t cap = a->cap ? a->cap * 2 : 64;
    char **v = realloc(a->v, cap * sizeof *v);
    if (!v) return -1;
    a->v = v, a->cap = cap;
  }
  a->v[a->n++] = s;
  return 0;
}

static int PRINTF(3, 4) fail(struct rewrite *rw, int changed, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(rw->err, sizeof rw->err, fmt, ap);
  va_end(ap);
  rw->changed = changed;
  return -1;
}

/* A verified O_PATH descriptor for the bind source `path`, or -1 with rw->err (changed). */
static int open_for_bind(struct rewrite *rw, const char *path) {
  int fd = open(path, O_PATH | O_NOFOLLOW);
  if (fd < 0) return fail(rw, 1, "%s changed after it was checked (cannot open it: %s); nothing was mounted from it", path, strerror(errno));
  char self[32], real[PATH_MAX];
  snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(self, real, sizeof real - 1);
  if (n < 0) {
    int e = errno;
    close(fd);
    return fail(rw, 1, "cannot verify %s (readlink %s: %s); nothing was mounted from it", path, self, strerror(e));
  }
  real[n] = '\0';
  struct stat st = {0};
  if (strcmp(real, path) != 0) {
    close(fd);
    return fail(rw, 1, "%s changed after it was checked (it is now \"%s\"); nothing was mounted from it", path, real);
  }
  if (fstat(fd, &st) < 0 || !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode) || S_ISSOCK(st.st_mode))) {
    close(fd);
    return fail(rw, 1, "%s changed after it was checked (%s); nothing was mounted from it", path,
                S_ISLNK(st.st_mode) ? "it is now a symbolic link" : "it is not a directory, a file or a socket");
  }
  return fd;
}

static char *number(int n) {
  char *s;
  return asprintf(&s, "%d", n) < 0 ? NULL : s;
}

/* Pushes the option name, a descriptor number and the remaining operands. */
static int push_fd_option(struct strv *out, const char *name, int fd, char **rest, int nrest) {
  char *num = number(fd);
  if (!num || strv_push(out, (char *)name) < 0 || strv_push(out, num) < 0) return -1;
  for (int i = 0; i < nrest; i++)
    if (strv_push(out, rest[i]) < 0) return -1;
  return 0;
}

int rewrite_argv(char *buf, size_t len, struct rewrite *rw, struct strv *out) {
  if (len == 0 || buf[len - 1] != '\0') return fail(rw, 0, "it does not end with a NUL");
  for (size_t i = 0; i < len;) {
    char *opt = buf + i;
    char *ops[2] = {NULL, NULL};
    size_t k;
    for (k = 0; k < bwrap_option_count; k++)
      if (strcmp(opt, bwrap_options[k].name) == 0) break;
    if (k == bwrap_option_count) return fail(rw, 0, "\"%s\" is not an option a compiled view holds", opt);
    i += strlen(opt) + 1;
    for (int o = 0; o < bwrap_options[k].operands; o++) {
      if (i >= len) return fail(rw, 0, "%s needs %d operands", opt, bwrap_options[k].operands);
      ops[o] = buf + i;
      i += strlen(ops[o]) + 1;
    }
    for (size_t r = 0; r < COUNT(not_in_a_view); r++)
      if (strcmp(opt, not_in_a_view[r]) == 0) return fail(rw, 0, "a compiled view does not use %s", opt);
    int fd, status = 0;
    if (strcmp(opt, "--bind") == 0 || strcmp(opt, "--ro-bind") == 0) {
      if ((fd = open_for_bind(rw, ops[0])) < 0) return -1;
      status = push_fd_option(out, opt[2] == 'b' ? "--bind-fd" : "--ro-bind-fd", fd, ops + 1, 1);
      rw->opened++;
    } else if (strcmp(opt, "--ro-bind-data") == 0 && strcmp(ops[1], SANDBOX_EXEC_PATH) == 0) {
      /*
       * This program, mounted where the view runs it. Bound from its own
       * file (/proc/self/exe: the very inode running, which no one can
       * write while it runs: ETXTBSY) rather than copied in as data: the
       * copy of the whole program into the sandbox's tmpfs cost 0.8 ms of
       * a 7 ms start, the bind 0.2 ms. A bind takes no --perms, so the
       * compiled one before it goes.
       */
      if ((fd = open("/proc/self/exe", O_PATH)) < 0) return fail(rw, 0, "cannot open /proc/self/exe: %s", strerror(errno));
      if (out->n >= 2 && strcmp(out->v[out->n - 2], "--perms") == 0) out->n -= 2;
      rw->exec_mounted = 1;
      rw->opened++;
      status = push_fd_option(out, "--ro-bind-fd", fd, ops + 1, 1);
    } else if (strcmp(opt, "--ro-bind-data") == 0) {
      /* A denied file's cover: empty. bubblewrap reads each data descriptor to its end: one each. */
      if ((fd = open("/dev/null", O_RDONLY)) < 0) return fail(rw, 0, "cannot open /dev/null: %s", strerror(errno));
      rw->opened++;
      status = push_fd_option(out, opt, fd, ops + 1, 1);
    } else if (strcmp(opt, "--seccomp") == 0) {
      if (rw->bpf_fd < 0) return fail(rw, 0, "more than one --seccomp");
      status = push_fd_option(out, opt, rw->bpf_fd, NULL, 0);
      rw->bpf_fd = -1; /* bubblewrap reads and closes it: once */
    } else {
      if (strcmp(opt, "--setenv") == 0 && strcmp(ops[0], "PATH") == 0) rw->setenv_path = ops[1], rw->unsetenv_path = 0;
      if (strcmp(opt, "--unsetenv") == 0 && strcmp(ops[0], "PATH") == 0) rw->setenv_path = NULL, rw->unsetenv_path = 1;
      status = strv_push(out, opt);
      for (int o = 0; status == 0 && o < bwrap_options[k].operands; o++) status = strv_push(out, ops[o]);
    }
    if (status < 0) return fail(rw, 0, "out of memory");
  }
  return 0;
}
