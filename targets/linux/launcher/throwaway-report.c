/*
 * What the throw-away root leaves for learn when PROG has ended
 * (throwaway.c): the changes (the upper layers walked), strace's files and
 * the bound reached, copied from the trace tmpfs to the host's BASE/keep.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "sandbox.h"
#include "throwaway.h"

static char *join(const char *a, const char *b) {
  char *s;
  if (asprintf(&s, "%s%s%s", a, strcmp(a, "/") == 0 || b[0] == '\0' ? "" : "/", b) < 0) return NULL;
  return s;
}

/* An entry the walk could not record (out of memory): the list is then cut short. */
static int lost;

static int opaque(int dirfd, const char *name, int unprivileged) {
  char path[64], v[4];
  int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return 0;
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  ssize_t n = getxattr(path, unprivileged ? "user.overlay.opaque" : "trusted.overlay.opaque", v, sizeof v);
  close(fd);
  return n == 1 && v[0] == 'y';
}

/* The entries of an upper layer below `rel`, as records `KIND\0HOSTPATH\0`. */
static void walk(FILE *out, int dirfd, const char *host, int unprivileged) {
  DIR *d = fdopendir(dirfd);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    struct stat st;
    if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) continue;
    char *path = join(host, e->d_name);
    if (!path) {
      lost = 1;
      break;
    }
    char kind = S_ISREG(st.st_mode) ? 'f' : S_ISDIR(st.st_mode) ? 'd' : S_ISLNK(st.st_mode) ? 'l' : 'o';
    if (S_ISCHR(st.st_mode) && major(st.st_rdev) == 0 && minor(st.st_rdev) == 0) kind = 'w';
    if (kind == 'd' && opaque(dirfd, e->d_name, unprivileged)) kind = 'x';
    fputc(kind, out), fputc('\0', out), fputs(path, out), fputc('\0', out);
    if (S_ISDIR(st.st_mode)) {
      int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub >= 0) walk(out, sub, path, unprivileged);
    }
    free(path);
  }
  closedir(d);
}

/* A new file in the host's BASE/keep, never one already there, never through a link. */
int keep_file(int keep_fd, const char *name) {
  int fd = openat(keep_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) fprintf(stderr, "boxwright-sandbox --throwaway-root: cannot write BASE/keep/%s: %s\n", name, strerror(errno));
  return fd;
}

/*
 * The changes, written to the trace tmpfs (the trace's bound holds them
 * too: a run that made millions of entries with long names cannot fill the
 * host's disk with their list). 0, or -1 when the list was cut short there.
 */
int report_changes(int layers_fd, int trace_fd, char *const *layers, size_t nlayers, int unprivileged) {
  int fd = openat(trace_fd, "changes", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  FILE *out = fd < 0 ? NULL : fdopen(fd, "w");
  if (!out) {
    fprintf(stderr, "boxwright-sandbox --throwaway-root: cannot write the changes: %s\n", strerror(errno));
    if (fd >= 0) close(fd);
    return -1;
  }
  for (size_t i = 0; i < nlayers; i++) {
    char rel[32];
    snprintf(rel, sizeof rel, "%zu/u", i);
    int fd = openat(layers_fd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) walk(out, fd, layers[i], unprivileged);
  }
  int failed = ferror(out) || lost;
  if (fclose(out) != 0 || failed) return -1;
  return 0;
}

/* strace's files and the changes, from the trace tmpfs to the host's BASE/keep: regular files named trace.PID or changes, nothing else. */
void copy_kept(int trace_fd, int keep_fd) {
  int dfd = openat(trace_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d = dfd < 0 ? NULL : fdopendir(dfd);
  if (!d) {
    fprintf(stderr, "boxwright-sandbox --throwaway-root: cannot list the trace: %s\n", strerror(errno));
    return;
  }
  struct dirent *e;
  while ((e = readdir(d))) {
    int trace = strncmp(e->d_name, "trace.", 6) == 0 && e->d_name[6] != '\0' && strspn(e->d_name + 6, "0123456789") == strlen(e->d_name + 6);
    if (!trace && strcmp(e->d_name, "changes") != 0) continue;
    int in = openat(dfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (in < 0 || fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
      if (in >= 0) close(in);
      continue;
    }
    int out = keep_file(keep_fd, e->d_name);
    char buf[65536];
    ssize_t r;
    while (out >= 0 && (r = read(in, buf, sizeof buf)) > 0)
      if (write_all(out, buf, (size_t)r) < 0) {
        fprintf(stderr, "boxwright-sandbox --throwaway-root: cannot write BASE/keep/%s: %s\n", e->d_name, strerror(errno));
        break;
      }
    close(in);
    if (out >= 0) close(out);
  }
  closedir(d);
}

