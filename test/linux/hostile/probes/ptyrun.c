/*
 * ptyrun CMD ARGS...: runs CMD with a fresh pseudo-terminal on stdin,
 * stdout and stderr that is NO session's controlling terminal (the slave is
 * opened with O_NOCTTY and the child stays in our session), and relays what
 * CMD prints to our stdout. That is the terminal a harness hands an agent,
 * and the one TIOCSCTTY + TIOCSTI can take over from inside a sandbox.
 * Exits with CMD's status. Test-only; compiled at test time.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 2) return fprintf(stderr, "usage: ptyrun CMD [ARGS...]\n"), 2;
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) || unlockpt(master)) return perror("ptyrun: pty"), 2;
  const char *name = ptsname(master);
  pid_t pid = fork();
  if (pid == 0) {
    int slave = open(name, O_RDWR | O_NOCTTY);
    if (slave < 0) return perror("ptyrun: open slave"), 2;
    dup2(slave, 0), dup2(slave, 1), dup2(slave, 2);
    if (slave > 2) close(slave);
    close(master);
    execvp(argv[1], argv + 1);
    perror("ptyrun: exec");
    _exit(127);
  }
  char buf[4096];
  for (;;) {
    ssize_t n = read(master, buf, sizeof buf);
    if (n <= 0) break; /* EIO once every slave descriptor is closed */
    fwrite(buf, 1, n, stdout);
  }
  int st;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
