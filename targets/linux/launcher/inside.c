/*
 * The in-sandbox step: the command bubblewrap executes, after its mounts
 * and seccomp filter, at /.boxwright/exec:
 *
 *   boxwright-sandbox (--rules-fd N | --no-landlock) [--ready-fd M] [--keep-fd K]... -- CMD [ARGS...]
 *   boxwright-sandbox --check --rules-fd N     parse the rules, print them, apply nothing
 *
 * With --rules-fd it restricts itself with the Landlock ruleset read from N
 * (../landlock/landlock.c); with --no-landlock it takes no Landlock step at
 * all. Then, right before execvp, it closes every descriptor >= 3 except the
 * --keep-fd ones and M (made close-on-exec): nothing bubblewrap, the
 * launcher or anyone else left open reaches the command. On M it writes one
 * line before the exec, `applied abi=N scopes=LIST` or `started`, and
 * `exec-failed ERRNO` when execvp fails (exit 127 for ENOENT, 126 otherwise,
 * as a shell). A refusal is `refused KIND` on M, a message on stderr and
 * exit 125: the command never ran.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../landlock/landlock.h"
#include "sandbox.h"

static int ready_fd = -1;
/* The prefix of its messages: the launcher's own (--name), so that one run speaks with one voice. */
static const char *prefix = "boxwright-sandbox";

static void __attribute__((noreturn)) usage(void) {
  sandbox_refuse("usage",
                 "usage: boxwright-sandbox (--rules-fd N | --no-landlock) [--no-watch] [--ready-fd M] [--keep-fd K]... [--name PREFIX] -- CMD [ARGS...] "
                 "| --check --rules-fd N | --abi | --version");
}

/* The file execvp would have tried for `name`: the name itself with a `/`, else the first regular file of that name on PATH (execvp's default without one). */
static int command_file(const char *name, char *out, size_t size) {
  struct stat st;
  if (strchr(name, '/')) return snprintf(out, size, "%s", name) < (int)size && stat(name, &st) == 0 && S_ISREG(st.st_mode);
  const char *path = getenv("PATH");
  if (!path) path = "/bin:/usr/bin";
  for (const char *p = path; *p;) {
    size_t n = strcspn(p, ":");
    if (n > 0 && snprintf(out, size, "%.*s/%s", (int)n, p, name) < (int)size && stat(out, &st) == 0 && S_ISREG(st.st_mode)) return 1;
    p += n + (p[n] == ':');
  }
  return 0;
}

static int fd_operand(const char *s) {
  int fd = parse_fd_number(s);
  if (fd < 0) sandbox_refuse("usage", "not a file descriptor: '%s'", s);
  return fd;
}

int inside_main(int argc, char **argv) {
  int rules_fd = -1, no_landlock = 0, check_only = 0, no_watch = 0, i = 1;
  int keep[argc > 0 ? argc : 1];
  size_t nkeep = 0;
  /* The ready fd first, so that even a usage refusal is reported on it. */
  for (int j = 1; j + 1 < argc && strcmp(argv[j], "--") != 0; j++)
    if (strcmp(argv[j], "--ready-fd") == 0) {
      int fd = parse_fd_number(argv[j + 1]);
      if (fd >= 0 && fcntl(fd, F_GETFD) >= 0) sandbox_refuse_report_to(ready_fd = fd);
      break;
    }
  /* And the prefix: a refusal while parsing speaks as the launcher too. */
  for (int j = 1; j + 1 < argc && strcmp(argv[j], "--") != 0; j++)
    if (strcmp(argv[j], "--name") == 0 && argv[j + 1][0] && strlen(argv[j + 1]) <= 64) {
      sandbox_refuse_name(prefix = argv[j + 1]);
      break;
    }
  int ready_seen = 0;
  for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], "--rules-fd") == 0 && i + 1 < argc && rules_fd < 0) rules_fd = fd_operand(argv[++i]);
    else if (strcmp(argv[i], "--ready-fd") == 0 && i + 1 < argc && !ready_seen) ready_seen = 1, sandbox_refuse_report_to(ready_fd = fd_operand(argv[++i]));
    else if (strcmp(argv[i], "--keep-fd") == 0 && i + 1 < argc) keep[nkeep++] = fd_operand(argv[++i]);
    else if (strcmp(argv[i], "--no-landlock") == 0 && !no_landlock) no_landlock = 1;
    else if (strcmp(argv[i], "--check") == 0 && !check_only) check_only = 1;
    else if (strcmp(argv[i], "--no-watch") == 0 && !no_watch) no_watch = 1;
    else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc) i++;
    else usage();
  }
  /* Exactly one of --rules-fd and --no-landlock; the rules fd is none of the others. */
  if ((rules_fd < 0) == !no_landlock || (rules_fd >= 0 && rules_fd == ready_fd)) usage();
  if (check_only && (no_landlock || nkeep > 0 || no_watch)) usage();
  if (ready_fd >= 0 && fcntl(ready_fd, F_GETFD) < 0) {
    int fd = ready_fd;
    sandbox_refuse_report_to(ready_fd = -1);
    sandbox_refuse("usage", "the ready fd %d is not open", fd);
  }
  for (size_t k = 0; k < nkeep; k++) {
    if (keep[k] < 3 || keep[k] == rules_fd || keep[k] == ready_fd)
      sandbox_refuse("usage", "--keep-fd %d: not a descriptor above stderr other than the rules and ready fds", keep[k]);
    if (fcntl(keep[k], F_GETFD) < 0) sandbox_refuse("usage", "--keep-fd %d: the descriptor is not open", keep[k]);
  }
  if (check_only ? i != argc : i + 1 >= argc) usage(); /* --check runs nothing; otherwise a command */

  struct ruleset rs = {0};
  if (rules_fd >= 0) {
    size_t len;
    char *buf = read_all(rules_fd, MAX_RULES_BYTES, &len);
    if (!buf && errno == EFBIG) sandbox_refuse("rules", "the rules exceed %d bytes", MAX_RULES_BYTES);
    if (!buf) sandbox_refuse("rules", "cannot read the rules from fd %d: %s", rules_fd, strerror(errno));
    close(rules_fd);
    landlock_parse(buf, len, &rs);
    if (check_only) return landlock_check(&rs);
  }

  char line[160] = "started\n";
  if (!no_landlock) {
    uint64_t scoped;
    int abi = landlock_apply(&rs, &scoped);
    char list[128];
    landlock_scope_names(scoped, list, sizeof list);
    snprintf(line, sizeof line, "applied abi=%d scopes=%s\n", abi, list);
  }
  /* The command must not inherit the ready fd: its reader learns of the exec by its closing. */
  if (ready_fd >= 0 && fcntl(ready_fd, F_SETFD, FD_CLOEXEC) < 0) sandbox_refuse("usage", "ready fd %d: %s", ready_fd, strerror(errno));
  if (ready_fd >= 0) keep[nkeep++] = ready_fd;
  if (close_descriptors_except(keep, nkeep) < 0) sandbox_refuse("descriptors", "cannot close the inherited descriptors: %s", strerror(errno));
  /* Written last, after the restriction: a reader that sees it knows the command runs confined. */
  if (ready_fd >= 0 && write_all(ready_fd, line, strlen(line)) < 0)
    sandbox_refuse("usage", "cannot write to the ready fd %d: %s", ready_fd, strerror(errno));

  /* The exec watch (watch.c): under Landlock, the programs it refuses the command are written down on the ready fd. */
  if (!no_landlock && !no_watch && ready_fd >= 0 && watch_supported()) watch_fork(ready_fd, keep, nkeep);

  /* The launcher starts bwrap with these blocked (run.c), so that none is lost before here: the command gets them. */
  sigset_t forwarded;
  sigemptyset(&forwarded);
  sigaddset(&forwarded, SIGINT);
  sigaddset(&forwarded, SIGTERM);
  sigaddset(&forwarded, SIGHUP);
  sigprocmask(SIG_UNBLOCK, &forwarded, NULL);
  char **cmd = argv + i + 1;
  execvp(cmd[0], cmd);
  int err = errno;
  if (ready_fd >= 0) dprintf(ready_fd, "exec-failed %d\n", err);
  fprintf(stderr, "%s: cannot execute '%s': %s\n", prefix, cmd[0], strerror(err));
  /* There, but its interpreter is not: the kernel says ENOENT for the interpreter; the launcher names it. */
  char file[PATH_MAX], interp[PATH_MAX];
  if (err == ENOENT && ready_fd >= 0 && command_file(cmd[0], file, sizeof file) && program_interpreter(AT_FDCWD, file, 0, interp, sizeof interp) == 1 && access(interp, F_OK) != 0)
    write_quoted_line(ready_fd, "missing-interpreter", file, interp);
  return err == ENOENT ? EXIT_NOT_FOUND : EXIT_NOT_EXECUTABLE;
}
