/*
 * Starting bubblewrap and waiting for it, with signals forwarded.
 *
 * bwrap runs in its own process group (setpgid), so a terminal's ^C reaches
 * the launcher only; SIGINT, SIGTERM and SIGHUP are forwarded to the
 * command: the host pid of the first child of the sandbox's init
 * (bubblewrap's pid 1, `child-pid` in its JSON status, then
 * /proc/PID/task/PID/children); before that is known the command has not
 * started, and bwrap's process group (bwrap and the sandbox's init) is
 * killed.
 * The launcher waits with those signals and SIGCHLD blocked, taking them
 * from a signalfd in the same poll as the pipes of the command's standard
 * streams (stdio.c): no handler, no race between a signal and the wait.
 *
 * bubblewrap 0.8 writes `{"child-pid": N, …}` to --json-status-fd as soon
 * as it has cloned the sandbox (before the mounts: it proves nothing) and
 * `{"exit-code": N}` only when the command it executed ended.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include "run.h"
#include "sandbox.h"

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP};

/* The whole of an anonymous file, from its start, whatever its offset: NUL-terminated, or NULL. */
char *read_from_start(int fd, size_t max, size_t *len) {
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap + 1);
  while (buf) {
    if (n == cap) {
      if (cap >= max) break;
      char *grown = realloc(buf, (cap *= 2) + 1);
      if (!grown) return free(buf), NULL;
      buf = grown;
    }
    ssize_t r = pread(fd, buf + n, cap - n, (off_t)n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    n += (size_t)r;
  }
  if (buf) buf[n] = '\0', *len = n;
  return buf;
}

/* The number after `"key":` in bubblewrap's JSON status, or -1. */
long status_number(const char *status, const char *key) {
  char quoted[64];
  snprintf(quoted, sizeof quoted, "\"%s\"", key);
  const char *p = strstr(status, quoted);
  if (!p) return -1;
  p += strlen(quoted);
  p += strspn(p, " \t\r\n");
  if (*p++ != ':') return -1;
  p += strspn(p, " \t\r\n");
  if (*p < '0' || *p > '9') return -1;
  char *end;
  long v = strtol(p, &end, 10);
  return v < 0 || v > 0x7fffffff ? -1 : v;
}

/* The host pid of the command: the first child of the sandbox's init, or -1. */
static pid_t command_pid(int status_fd) {
  size_t len;
  char *status = read_from_start(status_fd, 1 << 16, &len);
  long init = status ? status_number(status, "child-pid") : -1;
  free(status);
  if (init <= 0) return -1;
  char path[64];
  snprintf(path, sizeof path, "/proc/%ld/task/%ld/children", init, init);
  FILE *f = fopen(path, "re");
  if (!f) return -1;
  long pid = -1;
  if (fscanf(f, "%ld", &pid) != 1) pid = -1;
  fclose(f);
  return pid > 0 ? (pid_t)pid : -1;
}

struct run_result run_bwrap(const char *bwrap, char *const argv[], char *const envp[], int status_fd, struct stdio_plan *plan) {
  struct run_result res = {0};
  sigset_t waited, all;
  sigemptyset(&waited);
  for (size_t i = 0; i < COUNT(forwarded); i++) sigaddset(&waited, forwarded[i]);
  sigaddset(&waited, SIGCHLD);
  sigfillset(&all);
  /* Blocked before bwrap exists, so that no signal is lost in between. */
  sigprocmask(SIG_BLOCK, &waited, NULL);
  /* An ignored SIGCHLD, inherited, would reap bwrap before its status could be read. */
  signal(SIGCHLD, SIG_DFL);
  /* A command that stops reading its stdin pipe ends the feeding, not the launcher (bwrap gets SIGPIPE's default back). */
  signal(SIGPIPE, SIG_IGN);
  int sigfd = signalfd(-1, &waited, SFD_CLOEXEC | SFD_NONBLOCK);
  if (sigfd < 0) {
    res.spawn_error = errno;
    return res;
  }

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  /*
   * bwrap starts with every disposition at its default, and the forwarded
   * signals blocked, which its child (the sandbox's init) inherits through
   * its exec of the in-sandbox step: the init of a pid namespace drops a
   * signal from outside that it neither handles nor blocks, so one forwarded
   * before the step has set up its own forwarding (watch.c) was lost, and the
   * run went on after the caller's SIGTERM (seen under load in e2e's
   * "SIGTERM at any moment"). Blocked, it waits for the step, which unblocks
   * it for the command.
   */
  sigset_t forwarded_set;
  sigemptyset(&forwarded_set);
  for (size_t i = 0; i < COUNT(forwarded); i++) sigaddset(&forwarded_set, forwarded[i]);
  posix_spawnattr_setsigmask(&attr, &forwarded_set);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  for (int fd = 0; fd < 3; fd++)
    if (plan->child[fd] >= 0) posix_spawn_file_actions_adddup2(&actions, plan->child[fd], fd);
  pid_t pid;
  int err = posix_spawn(&pid, bwrap, &actions, &attr, argv, envp);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  stdio_spawned(plan);
  if (err) {
    res.spawn_error = err;
    return res;
  }

  struct stdio_feeder feeder = {.have = 0, .off = 0};
  int wstatus = 0, exited = 0;
  while (!exited || plan->drain[0] >= 0 || plan->drain[1] >= 0) {
    struct pollfd fds[4];
    nfds_t n = 0;
    if (!exited) fds[n++] = (struct pollfd){.fd = sigfd, .events = POLLIN};
    if (plan->feed >= 0 && !exited) fds[n++] = (struct pollfd){.fd = plan->feed, .events = POLLOUT};
    for (int i = 0; i < 2; i++)
      if (plan->drain[i] >= 0) fds[n++] = (struct pollfd){.fd = plan->drain[i], .events = POLLIN};
    if (poll(fds, n, -1) < 0) continue; /* EINTR: a stop and continue */
    for (nfds_t k = 0; k < n; k++) {
      if (!fds[k].revents) continue;
      if (fds[k].fd == sigfd) {
        struct signalfd_siginfo info;
        while (read(sigfd, &info, sizeof info) == (ssize_t)sizeof info) {
          int sig = (int)info.ssi_signo;
          if (sig != SIGCHLD) {
            pid_t target = command_pid(status_fd);
            /*
             * Before the command is known it has not started: the sandbox is
             * ended whole. A signal to bwrap alone killed it between its
             * clone and the command, and left the sandbox's init (pid 1 of
             * its namespace, which ignores what it has no handler for)
             * waiting for it forever, holding the caller's descriptors. Its
             * init is still in bwrap's process group; its death ends every
             * process of the namespace.
             */
            if (target > 0) kill(target, sig);
            else kill(-pid, SIGKILL);
            res.forwarded = sig;
            continue;
          }
          pid_t w = waitpid(pid, &wstatus, WNOHANG);
          if (w == pid && (WIFEXITED(wstatus) || WIFSIGNALED(wstatus))) exited = 1;
        }
      } else if (fds[k].fd == plan->feed) {
        stdio_feed(plan, &feeder);
      } else {
        for (int i = 0; i < 2; i++)
          if (fds[k].fd == plan->drain[i]) stdio_drain(plan, i);
      }
    }
  }
  /* The sandbox is gone: what it did not read of stdin stays unread. */
  if (plan->feed >= 0) close(plan->feed), plan->feed = -1;
  close(sigfd);
  if (WIFSIGNALED(wstatus)) res.signal = WTERMSIG(wstatus);
  else res.status = WEXITSTATUS(wstatus);
  size_t len;
  char *status = read_from_start(status_fd, 1 << 16, &len);
  long code = status ? status_number(status, "exit-code") : -1;
  free(status);
  if (code >= 0) res.has_exit_code = 1, res.exit_code = (int)code;
  return res;
}
