/*
 * probe: the hostile workload of test/linux/hostile, as one static binary.
 * Each subcommand tries one attack and prints `name=RESULT` lines, RESULT
 * being `ok` or the errno's name, so a test can assert exactly which step
 * the sandbox stopped. Compiled at test time with the system compiler
 * (gcc -static), never shipped.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static void report(const char *name, long rc) {
  if (rc < 0) printf("%s=%s\n", name, strerrorname_np(errno));
  else printf("%s=ok\n", name);
  fflush(stdout);
}

/* fds: every open descriptor but the one listing them, one line. */
static int fds(void) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return report("opendir", -1), 1;
  int self = dirfd(d);
  int seen[4096], n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 4096) {
    if (e->d_name[0] == '.') continue;
    int fd = atoi(e->d_name);
    if (fd != self) seen[n++] = fd;
  }
  closedir(d);
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && seen[j - 1] > seen[j]; j--) { int t = seen[j]; seen[j] = seen[j - 1]; seen[j - 1] = t; }
  printf("fds=");
  for (int i = 0; i < n; i++) printf("%s%d", i ? "," : "", seen[i]);
  printf("\n");
  return 0;
}

/* fdread FD PATH: read a file relative to an inherited directory descriptor. */
static int fdread(int fd, const char *path) {
  int f = openat(fd, path, O_RDONLY);
  report("openat", f);
  if (f < 0) return 1;
  char buf[256];
  ssize_t r = read(f, buf, sizeof buf - 1);
  if (r < 0) r = 0;
  buf[r] = 0;
  printf("content=%s\n", buf);
  return 0;
}

/* fdwrite FD PATH: create a file relative to an inherited directory descriptor. */
static int fdwrite(int fd, const char *path) {
  int f = openat(fd, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  report("create", f);
  if (f >= 0) report("write", write(f, "planted\n", 8));
  return 0;
}

/* writable PATH: can PATH be opened for writing? (nothing is written) */
static int writable(const char *path) {
  int f = open(path, O_WRONLY | O_APPEND);
  report(path, f);
  return 0;
}

static void modeline(const char *name, const char *path) {
  struct stat st;
  if (stat(path, &st) == 0) printf("%s.mode=%04o\n", name, (unsigned)(st.st_mode & 07777));
}

/*
 * setuid DIR: every way a workload can give a file a setuid or setgid bit:
 * chmod-family calls on a copy, and creation modes. Each prints its errno
 * and the mode the file ended up with.
 */
static int setuid_attack(const char *dir) {
  char p[4096];
  long rc;
  snprintf(p, sizeof p, "%s/chmod", dir);
  close(open(p, O_WRONLY | O_CREAT, 0755));
  report("chmod", chmod(p, 04755)); modeline("chmod", p);
  snprintf(p, sizeof p, "%s/chmod-highword", dir);
  close(open(p, O_WRONLY | O_CREAT, 0755));
#ifdef SYS_chmod
  rc = syscall(SYS_chmod, p, 0x100000000UL | 04755);
#else
  rc = syscall(SYS_fchmodat, AT_FDCWD, p, 0x100000000UL | 04755);
#endif
  report("chmod-highword", rc); modeline("chmod-highword", p);
  snprintf(p, sizeof p, "%s/fchmod", dir);
  int f = open(p, O_WRONLY | O_CREAT, 0755);
  report("fchmod", fchmod(f, 02755)); modeline("fchmod", p);
  close(f);
  snprintf(p, sizeof p, "%s/fchmodat", dir);
  close(open(p, O_WRONLY | O_CREAT, 0755));
  report("fchmodat", fchmodat(AT_FDCWD, p, 06755, 0)); modeline("fchmodat", p);
  snprintf(p, sizeof p, "%s/fchmodat2", dir);
  close(open(p, O_WRONLY | O_CREAT, 0755));
  report("fchmodat2", syscall(452, AT_FDCWD, p, 04755, 0)); modeline("fchmodat2", p);
  snprintf(p, sizeof p, "%s/open", dir);
  f = open(p, O_WRONLY | O_CREAT | O_EXCL, 04755);
  report("open", f); modeline("open", p);
  if (f >= 0) close(f);
  snprintf(p, sizeof p, "%s/openat", dir);
  f = openat(AT_FDCWD, p, O_WRONLY | O_CREAT | O_EXCL, 02755);
  report("openat", f); modeline("openat", p);
  if (f >= 0) close(f);
  snprintf(p, sizeof p, "%s/creat", dir);
  f = creat(p, 04755);
  report("creat", f); modeline("creat", p);
  if (f >= 0) close(f);
  snprintf(p, sizeof p, "%s/mknod", dir);
  report("mknod", mknod(p, S_IFREG | 04755, 0)); modeline("mknod", p);
  return 0;
}

/*
 * tiocsti: the terminal injection that --new-session alone does not stop:
 * a child in a session of its own takes the terminal on stdin as its
 * controlling tty (possible when it is no other session's), then pushes a
 * character into its input queue and reads it back.
 */
static int tiocsti(void) {
  pid_t pid = fork();
  if (pid == 0) {
    report("setsid", setsid());
    report("tiocsctty", ioctl(0, TIOCSCTTY, 0));
    /* No echo, no line editing: an injected byte is readable at once and
       does not land in the middle of the report lines. */
    struct termios t;
    tcgetattr(0, &t);
    t.c_lflag &= ~(ICANON | ECHO);
    tcsetattr(0, TCSANOW, &t);
    char c = 'Z';
    long rc = ioctl(0, TIOCSTI, &c);
    report("tiocsti", rc);
    report("tiocsti-highword", syscall(SYS_ioctl, 0, 0x100000000UL | TIOCSTI, &c));
    char sub = 0; /* TIOCLINUX subcode 0: a no-op query; EINVAL/ENOTTY off a VT */
    report("tioclinux", ioctl(0, TIOCLINUX, &sub));
    if (rc == 0) {
      char got = 0;
      ssize_t r = read(0, &got, 1);
      printf("injected=%c\n", r == 1 ? got : '-');
    }
    fflush(stdout);
    _exit(0);
  }
  int st;
  waitpid(pid, &st, 0);
  return 0;
}

/* connect PATH: connect to a unix socket ('@NAME' is abstract). */
static int connect_unix(const char *path) {
  int s = socket(AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr_un a = { .sun_family = AF_UNIX };
  socklen_t len;
  if (path[0] == '@') {
    strncpy(a.sun_path + 1, path + 1, sizeof a.sun_path - 2);
    len = offsetof(struct sockaddr_un, sun_path) + 1 + strlen(path + 1);
  } else {
    strncpy(a.sun_path, path, sizeof a.sun_path - 1);
    len = sizeof a;
  }
  report("connect", connect(s, (struct sockaddr *)&a, len));
  return 0;
}

static const char *kind(int fd) {
  struct stat st;
  if (fstat(fd, &st) < 0) return strerrorname_np(errno);
  return S_ISREG(st.st_mode) ? "reg" : S_ISDIR(st.st_mode) ? "dir" : S_ISFIFO(st.st_mode) ? "fifo" : S_ISCHR(st.st_mode) ? "chr" : S_ISSOCK(st.st_mode) ? "sock" : "other";
}

/*
 * stdio: what the standard streams are, and whether reopening them through
 * /proc/self/fd gives rights the caller did not: stdin for appending,
 * stdout for reading (at most 255 bytes, without waiting). Reports on
 * stderr, `name=RESULT` lines, so that stdout stays the stream under test.
 */
static int stdio_attack(void) {
  fprintf(stderr, "fd0=%s\nfd1=%s\nfd2=%s\n", kind(0), kind(1), kind(2));
  int w = open("/proc/self/fd/0", O_WRONLY | O_APPEND | O_NONBLOCK);
  fprintf(stderr, "reopen0-write=%s\n", w < 0 ? strerrorname_np(errno) : "ok");
  if (w >= 0) fprintf(stderr, "write0=%s\n", write(w, "pwned\n", 6) == 6 ? "ok" : strerrorname_np(errno));
  int r = open("/proc/self/fd/1", O_RDONLY | O_NONBLOCK);
  fprintf(stderr, "reopen1-read=%s\n", r < 0 ? strerrorname_np(errno) : "ok");
  if (r >= 0) {
    char buf[256];
    ssize_t n = read(r, buf, sizeof buf - 1);
    if (n < 0) fprintf(stderr, "read1=%s\n", strerrorname_np(errno));
    else {
      for (ssize_t i = 0; i < n; i++)
        if (buf[i] == '\n') buf[i] = '|';
      buf[n] = 0;
      fprintf(stderr, "read1=[%s]\n", buf);
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) return fprintf(stderr, "usage: probe fds|fdread FD PATH|fdwrite FD PATH|writable PATH...|setuid DIR|tiocsti|connect PATH|stdio\n"), 2;
  const char *cmd = argv[1];
  if (!strcmp(cmd, "fds")) return fds();
  if (!strcmp(cmd, "fdread") && argc == 4) return fdread(atoi(argv[2]), argv[3]);
  if (!strcmp(cmd, "fdwrite") && argc == 4) return fdwrite(atoi(argv[2]), argv[3]);
  if (!strcmp(cmd, "writable")) {
    for (int i = 2; i < argc; i++) writable(argv[i]);
    return 0;
  }
  if (!strcmp(cmd, "setuid") && argc == 3) return setuid_attack(argv[2]);
  if (!strcmp(cmd, "tiocsti")) return tiocsti();
  if (!strcmp(cmd, "connect") && argc == 3) return connect_unix(argv[2]);
  if (!strcmp(cmd, "stdio")) return stdio_attack();
  fprintf(stderr, "probe: unknown or malformed command %s\n", cmd);
  return 2;
}
