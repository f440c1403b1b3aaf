/*
 * The exec watch: which programs the command ran that Landlock refused.
 *
 * A program the command runs (git's `git maintenance`, gcc's cc1, the
 * program make built) and Landlock refuses fails with a bare "Permission
 * denied" from deep inside it. The in-sandbox step learns of each such
 * exec from the kernel itself, without deciding anything:
 *
 *   - after the Landlock step it forks; the child, which becomes the
 *     command, stacks a seccomp filter that sends execve and execveat to a
 *     user-notification listener (SECCOMP_FILTER_FLAG_NEW_LISTENER) and
 *     hands the listener to the parent over a socket pair, then execs;
 *   - the parent, the watcher, stays in the same Landlock domain, an
 *     ancestor of every process of the command (so Yama's ptrace scope 1
 *     lets it read their memory), and for each exec reads the path
 *     (/proc/PID/mem, then SECCOMP_IOCTL_NOTIF_ID_VALID: the same task),
 *     asks the kernel whether this domain may execute it
 *     (execveat(AT_EXECVE_CHECK), Linux 6.14: the permission checks of an
 *     execve, Landlock's included, without executing anything; and the
 *     program's ELF or #! interpreter, which an execve also needs), and
 *     answers SECCOMP_USER_NOTIF_FLAG_CONTINUE: the kernel then performs
 *     the exec as it would have, with every rule in force. The watch never
 *     allows what the kernel would refuse; it only writes down what the
 *     kernel refused, on the ready fd, for the launcher to say;
 *   - it forwards SIGINT, SIGTERM and SIGHUP to the command, and exits
 *     with its status (128 + N for a signal death, as a shell and
 *     bubblewrap say it).
 *
 * Why this mechanism (targets/linux/launcher/README.md has the whole
 * comparison): Landlock ABI 7's audit records need the audit subsystem and
 * CAP_AUDIT_READ to be read, which an unprivileged user does not have; a
 * ptrace tracer would have to sit outside the sandbox (ptrace is refused
 * inside) and stop every process. A notification costs one round trip per
 * exec and nothing per other system call.
 *
 * The filter checks the architecture first (another ABI's numbers mean
 * nothing: it allows them, and the main filter answers them ENOSYS) and,
 * on x86_64, the x32 bit; it never kills and never refuses: a stacked
 * filter's most restrictive answer wins, so it takes nothing from the main
 * one. Without AT_EXECVE_CHECK (before Linux 6.14, where the flag is
 * refused with EINVAL) there is no watch, and nothing else changes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sandbox.h"

#ifndef AT_EXECVE_CHECK
#define AT_EXECVE_CHECK 0x10000
#endif

#if defined(__x86_64__)
#define WATCH_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define WATCH_ARCH AUDIT_ARCH_AARCH64
#endif

/* Distinct programs the watch writes down; the rest are counted. */
#define MAX_RECORDS 32

static struct sock_filter watch_program[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, WATCH_ARCH, 1, 0),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
    BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
#endif
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execve, 2, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execveat, 1, 0),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
};

int watch_print_filter(void) {
  return fwrite(watch_program, sizeof watch_program, 1, stdout) == 1 && fflush(stdout) == 0 ? 0 : EXIT_REFUSED;
}

static int execve_check(int dirfd, const char *path, int flags) {
  char *argv[] = {(char *)path, NULL};
  char *envp[] = {NULL};
  return (int)syscall(SYS_execveat, dirfd, path, argv, envp, flags | AT_EXECVE_CHECK);
}

int watch_supported(void) {
  /* A directory: refused (EACCES) by a kernel that knows the flag, which checks and executes nothing; EINVAL from one that does not. */
  return execve_check(AT_FDCWD, "/", 0) < 0 && errno == EACCES;
}

static uint64_t u(const unsigned char *b, size_t at, size_t n, int little) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) v |= (uint64_t)b[at + (little ? i : n - 1 - i)] << (8 * i);
  return v;
}

/*
 * The interpreter an execve of the file needs: PT_INTERP of an ELF file
 * (the kernel's limits: 2 to PATH_MAX bytes, NUL-terminated) or the
 * program of a #! line. 1 and `out` when there is one; 0 when there is
 * none (a static program, another format); -1 when the file cannot be
 * read. Every read bounded; a malformed file has none.
 */
int program_interpreter(int dirfd, const char *path, int at_flags, char *out, size_t size) {
  int fd;
  if (path[0] == '\0') {
    /* execveat(fd, "", AT_EMPTY_PATH): the descriptor's own file, opened again for reading. */
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", dirfd);
    fd = open(self, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  } else fd = openat(dirfd, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (at_flags & AT_SYMLINK_NOFOLLOW ? O_NOFOLLOW : 0));
  if (fd < 0) return -1;
  struct stat st;
  unsigned char head[256];
  ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? pread(fd, head, sizeof head, 0) : -1;
  int found = 0;
  if (n >= 2 && head[0] == '#' && head[1] == '!') {
    size_t i = 2, j;
    while (i < (size_t)n && (head[i] == ' ' || head[i] == '\t')) i++;
    for (j = i; j < (size_t)n && head[j] != ' ' && head[j] != '\t' && head[j] != '\n' && head[j] != '\0'; j++) {}
    if (j > i && j - i < size) memcpy(out, head + i, j - i), out[j - i] = '\0', found = 1;
  } else if (n >= 64 && memcmp(head, "\177ELF", 4) == 0 && (head[4] == 1 || head[4] == 2) && (head[5] == 1 || head[5] == 2)) {
    int is64 = head[4] == 2, little = head[5] == 1;
    uint64_t phoff = is64 ? u(head, 32, 8, little) : u(head, 28, 4, little);
    size_t phent = is64 ? 56 : 32, phnum = (size_t)u(head, is64 ? 56 : 44, 2, little);
    unsigned char ph[4096];
    if (phnum && phnum * phent <= sizeof ph && pread(fd, ph, phnum * phent, (off_t)phoff) == (ssize_t)(phnum * phent)) {
      for (size_t k = 0; k < phnum && !found; k++) {
        const unsigned char *p = ph + k * phent;
        if (u(p, 0, 4, little) != 3) continue; /* PT_INTERP */
        uint64_t off = is64 ? u(p, 8, 8, little) : u(p, 4, 4, little);
        uint64_t len = is64 ? u(p, 32, 8, little) : u(p, 16, 4, little);
        if (len < 2 || len > size || len > PATH_MAX) break;
        if (pread(fd, out, (size_t)len, (off_t)off) == (ssize_t)len && out[len - 1] == '\0') found = 1;
        break;
      }
    }
  }
  close(fd);
  return n < 0 ? -1 : found;
}

struct record {
  char kind[24];
  char path[PATH_MAX];
};

static struct record records[MAX_RECORDS];
static size_t nrecords, dropped;
static int report_fd = -1;

/* One line on the ready fd: `watch KIND PATH [OTHER]`, each path JSON-quoted; once per kind and path. */
static void record(const char *kind, const char *path, const char *other, int writable) {
  for (size_t i = 0; i < nrecords; i++)
    if (strcmp(records[i].kind, kind) == 0 && strcmp(records[i].path, path) == 0) return;
  if (nrecords == MAX_RECORDS) {
    if (dropped++ == 0) dprintf(report_fd, "watch more\n");
    return;
  }
  snprintf(records[nrecords].kind, sizeof records[nrecords].kind, "%s", kind);
  snprintf(records[nrecords].path, sizeof records[nrecords].path, "%s", path);
  nrecords++;
  char word[48];
  snprintf(word, sizeof word, "watch %s%s", kind, writable ? "-writable" : "");
  write_quoted_line(report_fd, word, path, other);
}

/* The NUL-terminated string at `addr` in process `pid`, read page by page (a string may end before an unmapped page). */
static int read_string(pid_t pid, uint64_t addr, char *out, size_t size) {
  char mem[64];
  snprintf(mem, sizeof mem, "/proc/%d/mem", (int)pid);
  int fd = open(mem, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  size_t got = 0;
  while (got + 1 < size) {
    size_t page = 4096 - ((addr + got) & 4095), want = size - 1 - got < page ? size - 1 - got : page;
    ssize_t r = pread(fd, out + got, want, (off_t)(addr + got));
    if (r <= 0) break;
    char *nul = memchr(out + got, '\0', (size_t)r);
    if (nul) {
      close(fd);
      return 0;
    }
    got += (size_t)r;
  }
  close(fd);
  return -1;
}

/* The path as an absolute one, for the record: relative to the process's working directory (or to an execveat descriptor). */
static void absolute(pid_t pid, int dirfd_arg, int is_at, const char *path, char *out, size_t size) {
  if (path[0] == '/') {
    snprintf(out, size, "%s", path);
    return;
  }
  char link[64], base[PATH_MAX];
  if (is_at && dirfd_arg != AT_FDCWD) snprintf(link, sizeof link, "/proc/%d/fd/%d", (int)pid, dirfd_arg);
  else snprintf(link, sizeof link, "/proc/%d/cwd", (int)pid);
  ssize_t n = readlink(link, base, sizeof base - 1);
  if (n < 0) n = 0;
  base[n] = '\0';
  if (path[0] == '\0') snprintf(out, size, "%s", base);
  else snprintf(out, size, "%s/%s", strcmp(base, "/") == 0 ? "" : base, path);
}

/* What the kernel says of one exec the command asked for; written down if it refuses it. */
static void judge(const struct seccomp_notif *req) {
  int is_at = req->data.nr == __NR_execveat;
  int dirfd_arg = is_at ? (int)(uint32_t)req->data.args[0] : AT_FDCWD; /* an int: its low 32 bits */
  uint64_t addr = is_at ? req->data.args[1] : req->data.args[0];
  int flags = is_at ? (int)(uint32_t)req->data.args[4] & (AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) : 0;
  char path[PATH_MAX];
  if (read_string(req->pid, addr, path, sizeof path) < 0) return;
  char dirlink[64];
  if (is_at && dirfd_arg != AT_FDCWD) snprintf(dirlink, sizeof dirlink, "/proc/%d/fd/%d", (int)req->pid, dirfd_arg);
  else snprintf(dirlink, sizeof dirlink, "/proc/%d/cwd", (int)req->pid);
  int dirfd = open(dirlink, O_PATH | O_CLOEXEC);
  if (dirfd < 0) return;
  char abs[2 * PATH_MAX + 2];
  absolute(req->pid, dirfd_arg, is_at, path, abs, sizeof abs);
  char real[PATH_MAX];
  const char *named = realpath(abs, real) ? real : abs;
  struct stat st;
  int regular = fstatat(dirfd, path, &st, flags | (path[0] ? 0 : AT_EMPTY_PATH)) == 0 && S_ISREG(st.st_mode);
  struct statvfs vfs;
  int writable = statvfs(named, &vfs) == 0 && !(vfs.f_flag & ST_RDONLY);
  if (execve_check(dirfd, path, flags) < 0) {
    /* Refused with the mode bits allowing it and the mount not noexec: Landlock's execute right. */
    if (errno == EACCES && regular && faccessat(dirfd, path, X_OK, AT_EACCESS) == 0 && !(vfs.f_flag & ST_NOEXEC)) record("refused", named, path[0] ? path : abs, writable);
    else if (errno == ENOENT) {
      struct stat lst;
      char target[PATH_MAX];
      ssize_t n = fstatat(dirfd, path, &lst, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(lst.st_mode) ? readlinkat(dirfd, path, target, sizeof target - 1) : -1;
      /* A link the view shows whose target it does not: `cc` -> /etc/alternatives/cc. */
      if (n > 0) target[n] = '\0', record("dangling", abs, target, 0);
    }
  } else if (regular) {
    char interp[PATH_MAX];
    if (program_interpreter(dirfd, path, flags, interp, sizeof interp) == 1 && interp[0] == '/' && execve_check(AT_FDCWD, interp, 0) < 0) {
      if (errno == ENOENT) record("no-interpreter", named, interp, 0);
      else if (errno == EACCES) record("interpreter-refused", named, interp, 0);
    }
  }
  close(dirfd);
}

/* One byte and room for one descriptor: the message a listener travels in (SCM_RIGHTS). */
struct fd_message {
  char data;
  struct iovec iov;
  union {
    char buf[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
  } u;
  struct msghdr msg;
};

static void fd_message_init(struct fd_message *m) {
  memset(m, 0, sizeof *m);
  m->data = 'l';
  m->iov = (struct iovec){.iov_base = &m->data, .iov_len = 1};
  m->msg = (struct msghdr){.msg_iov = &m->iov, .msg_iovlen = 1, .msg_control = m->u.buf, .msg_controllen = sizeof m->u.buf};
}

static int send_fd(int sock, int fd) {
  struct fd_message m;
  fd_message_init(&m);
  struct cmsghdr *c = CMSG_FIRSTHDR(&m.msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(c), &fd, sizeof fd);
  return sendmsg(sock, &m.msg, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

static int recv_fd(int sock) {
  struct fd_message m;
  fd_message_init(&m);
  ssize_t r;
  do r = recvmsg(sock, &m.msg, MSG_CMSG_CLOEXEC);
  while (r < 0 && errno == EINTR);
  struct cmsghdr *c = r == 1 ? CMSG_FIRSTHDR(&m.msg) : NULL;
  if (!c || c->cmsg_type != SCM_RIGHTS) return -1;
  int fd;
  memcpy(&fd, CMSG_DATA(c), sizeof fd);
  return fd;
}

static int exit_status(int wstatus) {
  return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : WIFSIGNALED(wstatus) ? 128 + WTERMSIG(wstatus) : EXIT_REFUSED;
}

/* The watcher's loop: answers every notification, forwards the signals, ends with the command. */
static void __attribute__((noreturn)) watcher(pid_t child, int listener, int sigfd) {
  struct seccomp_notif_sizes sizes;
  if (listener >= 0 && syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0) sizes.seccomp_notif = sizeof(struct seccomp_notif), sizes.seccomp_notif_resp = sizeof(struct seccomp_notif_resp);
  size_t req_size = listener >= 0 && sizes.seccomp_notif > sizeof(struct seccomp_notif) ? sizes.seccomp_notif : sizeof(struct seccomp_notif);
  size_t resp_size = listener >= 0 && sizes.seccomp_notif_resp > sizeof(struct seccomp_notif_resp) ? sizes.seccomp_notif_resp : sizeof(struct seccomp_notif_resp);
  struct seccomp_notif *req = calloc(1, req_size);
  struct seccomp_notif_resp *resp = calloc(1, resp_size);
  for (;;) {
    struct pollfd p[2] = {{.fd = sigfd, .events = POLLIN}, {.fd = listener, .events = POLLIN}};
    int r = poll(p, listener >= 0 ? 2 : 1, -1);
    if (r < 0) continue;
    if (p[0].revents & POLLIN) {
      struct signalfd_siginfo si;
      while (read(sigfd, &si, sizeof si) == sizeof si) {
        if (si.ssi_signo != SIGCHLD) {
          kill(child, (int)si.ssi_signo);
          continue;
        }
        int wstatus;
        if (waitpid(child, &wstatus, WNOHANG) == child && (WIFEXITED(wstatus) || WIFSIGNALED(wstatus))) _exit(exit_status(wstatus));
      }
    }
    if (listener < 0 || !p[1].revents) continue;
    if (!(p[1].revents & POLLIN)) {
      /* No process left under the filter (POLLHUP): nothing to watch, only the command to wait for. */
      close(listener);
      listener = -1;
      continue;
    }
    memset(req, 0, req_size);
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req) < 0) continue; /* EINTR, or the task died (ENOENT) */
    /* The path is read from the task's memory: it must still be the task that asked (the id is valid) for the reading to count. */
    if (req->data.arch == WATCH_ARCH && ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) == 0) {
      judge(req);
    }
    memset(resp, 0, resp_size);
    resp->id = req->id;
    resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp); /* ENOENT: it died meanwhile */
  }
}

void watch_fork(int ready_fd, const int *keep, size_t nkeep) {
  sigset_t waited, old;
  sigemptyset(&waited);
  sigaddset(&waited, SIGCHLD);
  sigaddset(&waited, SIGINT);
  sigaddset(&waited, SIGTERM);
  sigaddset(&waited, SIGHUP);
  sigprocmask(SIG_BLOCK, &waited, &old);
  int sv[2] = {-1, -1};
  int sigfd = signalfd(-1, &waited, SFD_CLOEXEC | SFD_NONBLOCK);
  pid_t child = sigfd >= 0 && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0 ? fork() : -1;
  if (child < 0) {
    /* No watch: the command runs as before, in this process. */
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (sigfd >= 0) close(sigfd);
    if (sv[0] >= 0) close(sv[0]), close(sv[1]);
    return;
  }
  if (child == 0) {
    /* The command-to-be: the filter, its listener to the watcher, then back to the exec. */
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(sigfd);
    close(sv[0]);
    struct sock_fprog prog = {.len = (unsigned short)COUNT(watch_program), .filter = watch_program};
    int listener = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
    if (listener >= 0) {
      send_fd(sv[1], listener);
      close(listener);
    }
    close(sv[1]);
    return;
  }
  close(sv[1]);
  /* The command's filter failed (or it died first): no listener, and the watcher only waits and forwards. */
  int listener = recv_fd(sv[0]);
  close(sv[0]);
  report_fd = ready_fd;
  /* The watcher holds none of the command's descriptors: a pipe's reader sees its end when the command closes it. */
  for (size_t i = 0; i < nkeep; i++)
    if (keep[i] != ready_fd) close(keep[i]);
  int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  for (int fd = 0; fd < 3; fd++)
    if (null >= 0) dup2(null, fd);
  if (null > 2) close(null);
  watcher(child, listener, sigfd);
}
