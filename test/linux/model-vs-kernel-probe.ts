/**
 * The probe model-vs-kernel.test.ts runs inside a sandbox: a static C
 * program (the view holds only granted paths: no shell, no libc unless
 * granted) that probes every path it is given in one run, one line each:
 *
 *   lexists=0|1 link=0|1 exists=0|1 dir=0|1 read=N write=0|1 exec=0|1|-1
 *
 * `lexists`/`link` are the path itself (lstat); the rest follow a link, as
 * a workload opening the path would. read: bytes of a file, entries of a
 * directory, -1 when it cannot be read; write: a file opens for append (it
 * is not changed), or a file can be created in a directory (and is removed);
 * exec: a file's execve is not refused with EACCES (the errno comes back
 * through a pipe: ENOEXEC or a missing interpreter mean the kernel allowed
 * the exec itself), -1 for a directory or when nothing is there.
 */
/**
 * spawn_probe runs p with one argument in a child: the child's execve errno
 * (0 when it ran), and, when it ran, its wait status and the start of what
 * it wrote on stderr (NULL: not kept). can_exec: whether the kernel lets
 * this process execute p. EACCES: not executable (Landlock's execute right,
 * a noexec mount, the mode). Anything else (it ran; ENOEXEC: the kernel
 * checked and found no format; ENOENT: its interpreter is not in the view)
 * means the kernel allowed the exec itself. Shared by the probes of
 * explain-truth.test.ts and model-vs-kernel.test.ts (they need errno.h,
 * fcntl.h, unistd.h and sys/wait.h).
 */
export const CAN_EXEC_C = String.raw`static int spawn_probe(const char *p, const char *arg, int *status, char *err_out, size_t err_size) {
  int pfd[2], efd[2] = {-1, -1};
  if (pipe2(pfd, O_CLOEXEC) != 0 || (err_out && pipe(efd) != 0)) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    close(pfd[0]);
    int dn = open("/dev/null", O_RDWR);
    if (dn >= 0) { dup2(dn, 0); dup2(dn, 1); dup2(dn, 2); }
    if (err_out) { close(efd[0]); dup2(efd[1], 2); }
    alarm(5);
    char *a[] = {(char *)p, (char *)arg, NULL};
    char *e[] = {NULL};
    execve(p, a, e);
    int err = errno;
    if (write(pfd[1], &err, sizeof err) < 0) _exit(126);
    _exit(127);
  }
  close(pfd[1]);
  int err = 0;
  ssize_t n = read(pfd[0], &err, sizeof err);
  close(pfd[0]);
  if (err_out) {
    /* Read to the end (the child must not block on a full pipe), keep the start. */
    close(efd[1]);
    size_t total = 0; ssize_t m; char sink[4096];
    while ((m = read(efd[0], total + 1 < err_size ? err_out + total : sink, total + 1 < err_size ? err_size - 1 - total : sizeof sink)) > 0) if (total + 1 < err_size) total += (size_t)m;
    err_out[total] = 0;
    close(efd[0]);
  }
  int st;
  waitpid(pid, &st, 0);
  if (status) *status = st;
  return n > 0 ? err : 0;
}
static int can_exec(const char *p) {
  int err = spawn_probe(p, "--boxwright-probe", NULL, NULL, 0);
  return err < 0 ? -1 : err != EACCES;
}
`;

/**
 * read_amount: bytes of a file, entries of a directory, -1 when it cannot be
 * read. can_write: a file opens for append (it is not changed), or a file
 * can be created in a directory (and is removed). Shared by both probes (they
 * need dirent.h, fcntl.h, stdio.h, string.h and unistd.h).
 */
export const READ_WRITE_C = String.raw`static long read_amount(const char *p, int isdir) {
  long amount = -1;
  if (isdir) {
    DIR *d = opendir(p);
    if (d) { amount = 0; struct dirent *e; while ((e = readdir(d))) if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) amount++; closedir(d); }
  } else {
    int fd = open(p, O_RDONLY);
    if (fd >= 0) { char buf[4096]; ssize_t n; amount = 0; while ((n = read(fd, buf, sizeof buf)) > 0) amount += n; if (n < 0) amount = -1; close(fd); }
  }
  return amount;
}
static int can_write(const char *p, int isdir) {
  if (isdir) {
    char tmp[4096]; snprintf(tmp, sizeof tmp, "%s/.boxwright-probe-%d", p, (int)getpid());
    int fd = open(tmp, O_CREAT | O_EXCL | O_WRONLY, 0600);
    if (fd >= 0) { close(fd); unlink(tmp); return 1; }
    return 0;
  }
  int fd = open(p, O_WRONLY | O_APPEND);
  if (fd >= 0) { close(fd); return 1; }
  return 0;
}
`;

export const probeSource = String.raw`
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
${CAN_EXEC_C}
${READ_WRITE_C}
static void probe(const char *p) {
  struct stat lst, st;
  int lexists = lstat(p, &lst) == 0;
  int link = lexists && S_ISLNK(lst.st_mode);
  int exists = stat(p, &st) == 0;
  if (!exists) { printf("lexists=%d link=%d exists=0 dir=0 read=-1 write=0 exec=-1\n", lexists, link); return; }
  int isdir = S_ISDIR(st.st_mode);
  long amount = read_amount(p, isdir);
  int writable = can_write(p, isdir);
  int exec = isdir ? -1 : can_exec(p);
  printf("lexists=%d link=%d exists=1 dir=%d read=%ld write=%d exec=%d\n", lexists, link, isdir, amount, writable, exec);
}
int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) { probe(argv[i]); fflush(stdout); }
  return 0;
}
`;
