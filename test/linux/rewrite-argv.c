/*
 * The launcher's argv rewrite (targets/linux/launcher/bwrap-argv.c, the
 * code every `boxwright run` executes) on its own, for tests: reads a
 * compiled `.bwrap.args` from argv[1], rewrites it as the launcher does,
 * and writes the rewritten argv to stdout, each token followed by a NUL,
 * with every descriptor operand replaced by `fd:` and what the descriptor
 * is (readlink of /proc/self/fd/N). On a refusal: the launcher's message
 * on stderr, exit 3 when a bind source changed, 4 otherwise.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bwrap-argv.h"

static const char *const fd_options[] = {"--bind-fd", "--ro-bind-fd", "--ro-bind-data", "--seccomp"};

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  int in = open(argv[1], O_RDONLY);
  struct stat st;
  if (in < 0 || fstat(in, &st) < 0) return 2;
  char *buf = malloc((size_t)st.st_size + 1);
  if (!buf || read(in, buf, (size_t)st.st_size) != st.st_size) return 2;
  struct rewrite rw = {.bpf_fd = open("/dev/null", O_RDONLY)};
  struct strv out = {0};
  if (rewrite_argv(buf, (size_t)st.st_size, &rw, &out) < 0) {
    fprintf(stderr, "%s\n", rw.err);
    return rw.changed ? 3 : 4;
  }
  for (size_t i = 0; i < out.n; i++) {
    int fd_operand = 0;
    for (size_t k = 0; i > 0 && k < sizeof fd_options / sizeof *fd_options; k++) fd_operand |= strcmp(out.v[i - 1], fd_options[k]) == 0;
    if (fd_operand) {
      char self[32], real[PATH_MAX];
      snprintf(self, sizeof self, "/proc/self/fd/%s", out.v[i]);
      ssize_t n = readlink(self, real, sizeof real - 1);
      if (n < 0) return 5;
      real[n] = '\0';
      printf("fd:%s%c", real, 0);
    } else {
      printf("%s%c", out.v[i], 0);
    }
  }
  return 0;
}
