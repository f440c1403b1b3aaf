/*
 * The command's standard streams when nothing inside the sandbox mediates
 * its opens (no Landlock: TYBA sessions, --landlock off).
 *
 * A descriptor is a door to its file: through /proc/self/fd/N the command
 * can open the same file again, with rights of its own choosing, as long as
 * the mounts let it resolve the path (procfs follows the descriptor, not
 * the mounts). Stdin from a prompt file the caller opened read-only is then
 * appended to; stdout into a harness log is read back. So a regular file or
 * a directory on 0-2 is not handed over: a directory becomes /dev/null (no
 * read of a directory gives data), a regular file a pipe that this process
 * feeds from it (stdin) or drains into it (stdout, stderr; one pipe when
 * both are the same file, so that their order is kept). Reopening a pipe
 * reaches only the pipe. Terminals, pipes, sockets and devices pass as
 * they are: reopening one reaches nothing more. Under Landlock the rules
 * decide every open, that one too, so nothing changes there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "run.h"
#include "sandbox.h"

static const char *const names[3] = {"stdin", "stdout", "stderr"};

int stdio_plan(struct stdio_plan *p, int unmediated, const char *verbose_as) {
  p->child[0] = p->child[1] = p->child[2] = -1;
  p->feed = p->drain[0] = p->drain[1] = -1;
  if (!unmediated) return 0;
  struct stat st[3];
  for (int fd = 0; fd < 3; fd++)
    if (fstat(fd, &st[fd]) < 0) return -1;
  for (int fd = 0; fd < 3; fd++) {
    const char *how = NULL;
    if (S_ISDIR(st[fd].st_mode)) {
      int null = open("/dev/null", (fd == 0 ? O_RDONLY : O_WRONLY) | O_CLOEXEC);
      if (null < 0) return -1;
      p->child[fd] = null;
      how = "a directory: the command gets /dev/null";
    } else if (S_ISREG(st[fd].st_mode)) {
      if (fd == 2 && p->drain[0] >= 0 && st[1].st_dev == st[2].st_dev && st[1].st_ino == st[2].st_ino) {
        p->child[2] = p->child[1]; /* the same file as stdout: the same pipe */
        how = "the same file as stdout: it shares stdout's pipe";
      } else {
        int pipefd[2];
        if (pipe2(pipefd, O_CLOEXEC) < 0) return -1;
        if (fd == 0) {
          p->child[0] = pipefd[0];
          p->feed = pipefd[1];
          /* Fed without blocking: the loop waits for the command to read. */
          if (fcntl(p->feed, F_SETFL, O_NONBLOCK) < 0) return -1;
          how = "a regular file: the command reads it through a pipe";
        } else {
          p->child[fd] = pipefd[1];
          p->drain[fd - 1] = pipefd[0];
          how = "a regular file: the command writes it through a pipe";
        }
      }
    }
    if (how && verbose_as) fprintf(stderr, "%s: %s is %s (without Landlock it could reopen the file itself through /proc/self/fd/%d)\n", verbose_as, names[fd], how, fd);
  }
  return 0;
}

void stdio_spawned(struct stdio_plan *p) {
  for (int fd = 0; fd < 3; fd++) {
    if (p->child[fd] < 0) continue;
    if (fd != 2 || p->child[2] != p->child[1]) close(p->child[fd]);
  }
  p->child[0] = p->child[1] = p->child[2] = -1;
}

void stdio_feed(struct stdio_plan *p, struct stdio_feeder *f) {
  for (;;) {
    if (f->off == f->have) {
      ssize_t r = read(0, f->buf, sizeof f->buf);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      f->have = (size_t)r, f->off = 0;
    }
    ssize_t w = write(p->feed, f->buf + f->off, f->have - f->off);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno == EAGAIN) return;
    if (w < 0) break; /* EPIPE: the command no longer reads */
    f->off += (size_t)w;
  }
  close(p->feed);
  p->feed = -1;
}

void stdio_drain(struct stdio_plan *p, int i) {
  char buf[65536];
  ssize_t r;
  while ((r = read(p->drain[i], buf, sizeof buf)) < 0 && errno == EINTR) {
  }
  if (r > 0 && write_all(1 + i, buf, (size_t)r) == 0) return;
  close(p->drain[i]);
  p->drain[i] = -1;
}
