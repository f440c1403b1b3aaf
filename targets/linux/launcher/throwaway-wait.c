/*
 * The throw-away root's wait for PROG (throwaway.c): its standard streams
 * as `run` hands them over (stdio.c), and its bounds.
 *
 * Stdio: learn runs the command without Landlock (Landlock would refuse
 * the very executions learn is there to find), so nothing inside mediates
 * an open of /proc/self/fd/0: a regular file or a directory on 0-2 would
 * let the command reopen the caller's file for writing. stdio_plan() puts
 * a pipe in its place, fed or drained here; reopening a pipe reaches only
 * the pipe.
 *
 * Bounds: the scratch tmpfs (every upper layer: what the run writes) and
 * the trace tmpfs (strace's files) are mounted with size=, so the kernel
 * stops each at its bound (ENOSPC): nothing is written past it. This wait
 * only notices that a bound was reached (a tmpfs with less than
 * NEARLY_FULL bytes or no inode left, looked at every TICK_MS and once at
 * the end) to stop the run — every process below strace killed, strace
 * left to write its last lines — and to say which bound it was.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>
#include "run.h"
#include "sandbox.h"
#include "throwaway.h"

#define TICK_MS 50
#define NEARLY_FULL (256 * 1024)

static int full(int fd) {
  struct statvfs sv;
  if (fstatvfs(fd, &sv) < 0) return 0;
  return (unsigned long long)sv.f_bavail * sv.f_frsize < NEARLY_FULL || sv.f_favail == 0;
}

/* SIGKILL to every process below `top` (from /proc/PID/task/TID/children), every generation; how many were found. */
static size_t kill_below(pid_t top) {
  size_t cap = 64, n = 0, found = 0;
  pid_t *queue = malloc(cap * sizeof *queue);
  if (!queue) return 0;
  queue[n++] = top;
  for (size_t at = 0; at < n; at++) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)queue[at]);
    DIR *d = opendir(path);
    if (!d) continue;
    struct dirent *e;
    while ((e = readdir(d))) {
      if (e->d_name[0] == '.') continue;
      char children[320];
      snprintf(children, sizeof children, "/proc/%d/task/%s/children", (int)queue[at], e->d_name);
      FILE *f = fopen(children, "re");
      if (!f) continue;
      long pid;
      while (fscanf(f, "%ld", &pid) == 1) {
        if (n == cap) {
          pid_t *grown = realloc(queue, (cap *= 2) * sizeof *queue);
          if (!grown) break;
          queue = grown;
        }
        queue[n++] = (pid_t)pid;
        kill((pid_t)pid, SIGKILL);
        found++;
      }
      fclose(f);
    }
    closedir(d);
  }
  free(queue);
  return found;
}

int throwaway_wait(char **prog, int trace_fd, int scratch_fd, const char **bound) {
  struct stdio_plan plan;
  if (stdio_plan(&plan, 1, NULL) < 0) {
    fprintf(stderr, "boxwright-sandbox --throwaway-root: cannot make the pipes for the command's standard streams: %s; nothing was run\n", strerror(errno));
    return EXIT_REFUSED;
  }
  sigset_t waited, none;
  sigemptyset(&waited);
  sigaddset(&waited, SIGCHLD);
  sigemptyset(&none);
  sigprocmask(SIG_BLOCK, &waited, NULL);
  signal(SIGCHLD, SIG_DFL);
  /* A command that stops reading its stdin pipe ends the feeding, not this program. */
  signal(SIGPIPE, SIG_IGN);
  int sigfd = signalfd(-1, &waited, SFD_CLOEXEC | SFD_NONBLOCK);
  if (sigfd < 0) {
    fprintf(stderr, "boxwright-sandbox --throwaway-root: cannot wait for the run: %s; nothing was run\n", strerror(errno));
    return EXIT_REFUSED;
  }
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "boxwright-sandbox --throwaway-root: cannot fork: %s; nothing was run\n", strerror(errno));
    return EXIT_REFUSED;
  }
  if (pid == 0) {
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    for (int fd = 0; fd < 3; fd++)
      if (plan.child[fd] >= 0 && dup2(plan.child[fd], fd) < 0) _exit(EXIT_REFUSED);
    /* PROG does not outlive this program, which holds the layers. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    execv(prog[0], prog);
    fprintf(stderr, "boxwright-sandbox --throwaway-root: cannot execute %s: %s\n", prog[0], strerror(errno));
    _exit(EXIT_REFUSED);
  }
  stdio_spawned(&plan);

  struct stdio_feeder feeder = {.have = 0, .off = 0};
  int status = 0, exited = 0;
  while (!exited || plan.drain[0] >= 0 || plan.drain[1] >= 0) {
    struct pollfd fds[4];
    nfds_t n = 0;
    if (!exited) fds[n++] = (struct pollfd){.fd = sigfd, .events = POLLIN};
    if (plan.feed >= 0 && !exited) fds[n++] = (struct pollfd){.fd = plan.feed, .events = POLLOUT};
    for (int i = 0; i < 2; i++)
      if (plan.drain[i] >= 0) fds[n++] = (struct pollfd){.fd = plan.drain[i], .events = POLLIN};
    int ready = poll(fds, n, exited ? -1 : TICK_MS);
    if (!exited) {
      if (!*bound) *bound = full(trace_fd) ? "trace" : full(scratch_fd) ? "writes" : NULL;
      /* Again at every tick: a process forked while the others were being killed is killed at the next. */
      if (*bound) kill_below(pid);
    }
    if (ready <= 0) continue;
    for (nfds_t k = 0; k < n; k++) {
      if (!fds[k].revents) continue;
      if (fds[k].fd == sigfd) {
        struct signalfd_siginfo info;
        while (read(sigfd, &info, sizeof info) == (ssize_t)sizeof info) {
        }
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid && (WIFEXITED(status) || WIFSIGNALED(status))) exited = 1;
      } else if (fds[k].fd == plan.feed) {
        stdio_feed(&plan, &feeder);
      } else {
        for (int i = 0; i < 2; i++)
          if (fds[k].fd == plan.drain[i]) stdio_drain(&plan, i);
      }
    }
  }
  if (plan.feed >= 0) close(plan.feed), plan.feed = -1;
  close(sigfd);
  /* A command that wrote up to a bound and then ended by itself (ENOSPC) reached it too. */
  if (!*bound) *bound = full(trace_fd) ? "trace" : full(scratch_fd) ? "writes" : NULL;
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}
