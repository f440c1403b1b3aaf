/* Descriptors, files and quoting: what both roles need. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "sandbox.h"

#ifndef SYS_close_range
#define SYS_close_range 436 /* the same on x86_64 and aarch64 (the unified table) */
#endif
#ifndef SYS_memfd_create
#if defined(__x86_64__)
#define SYS_memfd_create 319
#else
#define SYS_memfd_create 279
#endif
#endif

char *read_all(int fd, size_t max, size_t *len) {
  struct stat st;
  size_t cap = 4096, n = 0;
  /* A regular file's size is a good first guess: one read, one allocation. */
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && (size_t)st.st_size < max) cap = (size_t)st.st_size + 1;
  char *buf = malloc(cap + 1);
  if (!buf) return NULL;
  for (;;) {
    if (n == cap) {
      if (cap >= max) {
        free(buf);
        errno = EFBIG;
        return NULL;
      }
      cap = cap * 2 > max ? max : cap * 2;
      char *grown = realloc(buf, cap + 1);
      if (!grown) {
        free(buf);
        return NULL;
      }
      buf = grown;
    }
    ssize_t r = read(fd, buf + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      int e = errno;
      free(buf);
      errno = e;
      return NULL;
    }
    if (r == 0) break;
    n += (size_t)r;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

int write_all(int fd, const void *buf, size_t len) {
  const char *p = buf;
  while (len > 0) {
    ssize_t w = write(fd, p, len);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return -1;
    p += w;
    len -= (size_t)w;
  }
  return 0;
}

int anonymous_file(const char *name) {
  int fd = (int)syscall(SYS_memfd_create, name, 0);
  if (fd >= 0) return fd;
  /* No memfd (a kernel before 3.17): an unnamed file in the temp directory, mode 0600. */
  const char *dir = getenv("TMPDIR");
  if (!dir || dir[0] != '/') dir = "/tmp";
  fd = open(dir, O_TMPFILE | O_RDWR, 0600);
  if (fd >= 0) return fd;
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/boxwright-XXXXXX", dir) >= sizeof path) return errno = ENAMETOOLONG, -1;
  fd = mkostemp(path, 0);
  if (fd >= 0) unlink(path);
  return fd;
}

int parse_fd_number(const char *s) {
  size_t len = strlen(s);
  if (len == 0 || len > 9 || strspn(s, "0123456789") != len) return -1;
  return atoi(s);
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int open_descriptors(int *out, int cap) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return -1;
  int self = dirfd(d), n = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    int fd = parse_fd_number(e->d_name);
    if (fd >= 3 && fd != self && n < cap) out[n++] = fd;
  }
  closedir(d);
  qsort(out, (size_t)n, sizeof *out, cmp_int);
  return n;
}

/* close_range(from, to): the kernel's, else one close per descriptor the table may hold. */
static int close_between(unsigned from, unsigned to) {
  if (from > to) return 0;
  if (syscall(SYS_close_range, from, to, 0) == 0) return 0;
  if (errno != ENOSYS && errno != EPERM) return -1; /* EPERM: a seccomp filter that refuses it */
  int fds[4096];
  int n = open_descriptors(fds, (int)COUNT(fds));
  if (n >= 0 && n < (int)COUNT(fds)) {
    for (int i = 0; i < n; i++)
      if ((unsigned)fds[i] >= from && (unsigned)fds[i] <= to) close(fds[i]);
    return 0;
  }
  /* No /proc, or a table too large to list: every number up to the limit. */
  struct rlimit rl;
  unsigned top = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < (1u << 30) ? (unsigned)rl.rlim_cur : (1u << 20);
  for (unsigned fd = from; fd <= to && fd < top; fd++) close((int)fd);
  return 0;
}

int close_descriptors_except(const int *keep, size_t n) {
  int sorted[n + 1];
  memcpy(sorted, keep, n * sizeof *keep);
  qsort(sorted, n, sizeof *sorted, cmp_int);
  unsigned from = 3;
  for (size_t i = 0; i < n; i++) {
    if (sorted[i] < 3 || (unsigned)sorted[i] < from) continue;
    if (close_between(from, (unsigned)sorted[i] - 1) < 0) return -1;
    from = (unsigned)sorted[i] + 1;
  }
  return close_between(from, ~0u);
}

void print_quoted(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
    if (*c == '"' || *c == '\\') fprintf(f, "\\%c", *c);
    else if (*c < 0x20 || *c == 0x7f) fprintf(f, "\\u%04x", *c);
    else fputc(*c, f);
  }
  fputc('"', f);
}

int write_quoted_line(int fd, const char *word, const char *a, const char *b) {
  char *line = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&line, &len);
  if (!f) return -1;
  fputs(word, f);
  if (a) fputc(' ', f), print_quoted(f, a);
  if (b) fputc(' ', f), print_quoted(f, b);
  fputc('\n', f);
  int r = fclose(f) == 0 ? write_all(fd, line, len) : -1;
  free(line);
  return r;
}
