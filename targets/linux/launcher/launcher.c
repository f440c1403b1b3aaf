/*
 * The launcher: DIR/<stem>.run runs a command in the sandbox that
 * DIR/<stem>.launch describes, fail-closed — the command runs inside the
 * sandbox or not at all (exit 125, a message saying why).
 *
 *   DIR/<stem>.run [--pass-env NAME|NAME=VALUE]... [--pass-fd N]... [--die-with-parent PID] [-v] [--] CMD [ARGS...]
 *
 *   bwrap --args A --json-status-fd S -- /.boxwright/exec
 *         (--rules-fd R | --no-landlock) --ready-fd D [--keep-fd N]... -- CMD ARGS...
 *     fd A   the compiled argv, rewritten (bwrap-argv.c)   memfd
 *     fd S   bubblewrap's JSON status                        memfd
 *     fd D   the in-sandbox step's ready line (inside.c)     memfd
 *     fd R   <stem>.landlock, when the launch file names one
 *     fd K…  verified bind sources, /dev/null per denied file, this program
 *            for /.boxwright/exec, the seccomp program
 *
 * Exit: the command's status (a signal death 128 + signo, as bubblewrap
 * reports it); 125 it did not run (refused); 126 it is in the view but not
 * executable; 127 it is not in the view; 123 it ran and created a
 * host-trusted name, moved aside (trust-walk.c); 2 usage. See README.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bwrap-argv.h"
#include "launch-file.h"
#include "report.h"
#include "run.h"
#include "sandbox.h"
#include "trust-walk.h"
#include "vet.h"

extern char **environ;

#define MAX_ARGS_BYTES (256 << 20)
#define MAX_CONFIG_BYTES (256 << 20)

/*
 * The prefix of every message: `<stem>.run`, or what --name says (`boxwright
 * run` passes its own name, so that a run speaks with one voice); the
 * in-sandbox step is given the same.
 */
static const char *me = "launcher";

static void PRINTF(1, 2) say(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s: ", me);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

/* Refuse: `me: REASON; the command did not run[ ADVICE]`, exit 125. */
static void __attribute__((noreturn)) PRINTF(2, 3) refuse(const char *advice, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s: ", me);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "; the command did not run%s%s\n", advice ? ". " : "", advice ? advice : "");
  exit(EXIT_REFUSED);
}

static void __attribute__((noreturn)) usage(const char *why) {
  fprintf(stderr, "%s: %s\nusage: %s [--pass-env NAME|NAME=VALUE]... [--pass-fd N]... [--die-with-parent PID] [-v] [--] CMD [ARGS...]\n", me, why, me);
  exit(EXIT_USAGE);
}

struct options {
  const char **pass_env;
  size_t npass_env;
  int *pass_fd;
  size_t npass_fd;
  int verbose;
  pid_t parent; /* --die-with-parent PID, or 0 */
  char **command;
};

static void parse_options(int argc, char **argv, struct options *o) {
  o->pass_env = calloc((size_t)argc * 2 + 1, sizeof *o->pass_env);
  o->pass_fd = calloc((size_t)argc + 1, sizeof *o->pass_fd);
  if (!o->pass_env || !o->pass_fd) refuse(NULL, "out of memory");
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      i++;
      break;
    } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
      o->verbose = 1;
    } else if (strcmp(a, "--pass-env") == 0 && i + 1 < argc) {
      /* NAME, or NAME,NAME,... as `boxwright run` takes it; NAME=VALUE sets NAME for the command alone (one operand, commas and all). */
      char *operand = argv[++i];
      if (strchr(operand, '=')) {
        if (operand[0] == '=') usage("--pass-env takes NAME or NAME=VALUE");
        o->pass_env[o->npass_env++] = operand;
      } else
        for (char *name = strtok(operand, ","); name; name = strtok(NULL, ","))
          if (name[0]) o->pass_env[o->npass_env++] = name;
    } else if (strcmp(a, "--pass-fd") == 0 && i + 1 < argc) {
      int fd = parse_fd_number(argv[++i]);
      if (fd < 3 || fd > 1000000) usage("--pass-fd takes a descriptor number above 2 (stdin, stdout and stderr always pass)");
      o->pass_fd[o->npass_fd++] = fd;
    } else if (strcmp(a, "--die-with-parent") == 0 && i + 1 < argc) {
      int pid = parse_fd_number(argv[++i]);
      if (pid < 1) usage("--die-with-parent takes the process id of the launcher's parent");
      o->parent = (pid_t)pid;
    } else if (strcmp(a, "--name") == 0 && i + 1 < argc) {
      const char *name = argv[++i];
      size_t n = strlen(name);
      int printable = n > 0 && n <= 64;
      for (size_t k = 0; printable && k < n; k++) printable = (unsigned char)name[k] >= 0x20 && name[k] != 0x7f;
      if (!printable) usage("--name takes a message prefix of 1 to 64 printable characters");
      me = name;
    } else if (strcmp(a, "--pass-env") == 0 || strcmp(a, "--pass-fd") == 0 || strcmp(a, "--die-with-parent") == 0 || strcmp(a, "--name") == 0) {
      usage("--pass-env, --pass-fd, --die-with-parent and --name take an operand");
    } else {
      char why[256];
      snprintf(why, sizeof why, "unknown option '%.128s' (options come before the command; `--` ends them)", a);
      usage(why);
    }
  }
  if (i >= argc) usage("name the command to run");
  o->command = argv + i;
}

/*
 * Step 0, --die-with-parent PID: the launcher ends (SIGKILL, and bubblewrap
 * and the sandbox with it, by bubblewrap's own --die-with-parent) when its
 * parent does. `boxwright run` passes its pid: killed with SIGKILL, or
 * dead of a crash, it forwards nothing, and the command would otherwise
 * run on unsupervised, its status read by no one. The parent may have
 * ended before the death signal was set: then it is not PID any more.
 */
static void die_with_parent(const struct options *o) {
  if (!o->parent) return;
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) refuse(NULL, "cannot ask to end with its parent: %s", strerror(errno));
  if (getppid() != o->parent) refuse(NULL, "its parent (pid %d) has ended, or is not pid %d (--die-with-parent)", (int)getppid(), (int)o->parent);
}

/* Step 1: nothing the caller left open reaches bubblewrap but the --pass-fd descriptors. */
static void close_inherited(const struct options *o) {
  for (size_t i = 0; i < o->npass_fd; i++)
    if (fcntl(o->pass_fd[i], F_GETFD) < 0) refuse(NULL, "--pass-fd %d: the descriptor is not open", o->pass_fd[i]);
  int open_fds[1024];
  int n = o->verbose ? open_descriptors(open_fds, (int)COUNT(open_fds)) : -1;
  /* `boxwright run` executes the launcher from a descriptor of its file (/proc/self/fd/N): that one is not the caller's. */
  struct stat self, st;
  int have_self = n > 0 && stat("/proc/self/exe", &self) == 0;
  int own[1024];
  for (int i = 0; i < n; i++) own[i] = have_self && fstat(open_fds[i], &st) == 0 && st.st_dev == self.st_dev && st.st_ino == self.st_ino;
  if (close_descriptors_except(o->pass_fd, o->npass_fd) < 0) refuse(NULL, "cannot close the inherited descriptors: %s", strerror(errno));
  if (n <= 0) return;
  int shown = 0;
  for (int i = 0; i < n; i++) {
    int kept = own[i];
    for (size_t k = 0; k < o->npass_fd; k++) kept |= o->pass_fd[k] == open_fds[i];
    if (kept) continue;
    if (shown++) fprintf(stderr, ", %d", open_fds[i]);
    else fprintf(stderr, "%s: closed inherited descriptors %d", me, open_fds[i]);
  }
  if (shown) fputs(" (--pass-fd N lets one through)\n", stderr);
}

/* One shell word: bare when it is plain, else quoted ($'…' when it holds a control character, so the hint stays one line). */
static void shell_word(FILE *f, const char *s) {
  static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./:=@%+,";
  if (s[0] && strspn(s, plain) == strlen(s)) {
    fputs(s, f);
    return;
  }
  int control = 0;
  for (const unsigned char *c = (const unsigned char *)s; *c; c++) control |= *c < 0x20 || *c == 0x7f;
  fputs(control ? "$'" : "'", f);
  for (const unsigned char *c = (const unsigned char *)s; *c; c++)
    if (control && (*c < 0x20 || *c == 0x7f || *c == '\\' || *c == '\'')) fprintf(f, "\\x%02x", *c);
    else if (*c == '\'') fputs("'\\''", f);
    else fputc(*c, f);
  fputc('\'', f);
}

/* `Recompile: boxwright compile CONFIG --target linux --out DIR OPTIONS…`: the command that wrote DIR, with the options it used. */
static const char *recompile_hint(const struct launch *l, const char *dirpath) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (!f) return "Recompile: boxwright compile CONFIG --target linux --out DIR";
  fputs("Recompile: boxwright compile ", f);
  shell_word(f, l->config);
  fputs(" --target linux --out ", f);
  shell_word(f, dirpath);
  for (size_t i = 0; i < l->ncompile_option; i++) fputc(' ', f), shell_word(f, l->compile_option[i]);
  if (fclose(f) != 0 || !text) return "Recompile: boxwright compile CONFIG --target linux --out DIR";
  return text;
}

/* A file in DIR, read whole; refuses when it is missing or unreadable, or (`private`) when someone else may write it. */
static char *read_in_dir(int dir, const char *dirpath, const char *name, size_t max, size_t *len, int private) {
  int fd = openat(dir, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) refuse("Recompile: boxwright compile CONFIG --target linux --out DIR", "cannot open %s/%s: %s", dirpath, name, strerror(errno));
  struct stat st;
  if (private && fstat(fd, &st) == 0 && ((st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & 022)))
    refuse("Recompile into a directory only you can write", "%s/%s can be changed by others (owner uid %u, mode %04o): whoever writes it decides what this launcher runs", dirpath, name,
           (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
  char *buf = read_all(fd, max, len);
  if (!buf) refuse(NULL, "cannot read %s/%s: %s", dirpath, name, strerror(errno));
  close(fd);
  return buf;
}

static void hex_digest(const void *bytes, size_t len, char hex[65]) {
  uint8_t sum[32];
  sha256(bytes, len, sum);
  for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", sum[i]);
}

/*
 * A file the launch file names, read whole and held to its digest: what
 * bubblewrap then gets is this buffer (an anonymous copy, for a file it
 * reads from a descriptor), never the file again, so a change after the
 * check changes nothing.
 */
static char *read_verified(int dir, const char *dirpath, const char *name, const char *want, size_t max, size_t *len, const char *hint) {
  char *buf = read_in_dir(dir, dirpath, name, max, len, 0);
  char hex[65];
  hex_digest(buf, *len, hex);
  if (strcmp(hex, want) != 0) refuse(hint, "%s/%s is not the file compile wrote (sha256 %s; the launch file says %s)", dirpath, name, hex, want);
  return buf;
}

/* An anonymous file holding bytes[0..len), read from its start: what bubblewrap or the in-sandbox step reads. */
static int sealed_copy(const char *label, const char *bytes, size_t len) {
  int fd = anonymous_file(label);
  if (fd < 0 || write_all(fd, bytes, len) < 0 || lseek(fd, 0, SEEK_SET) < 0) refuse(NULL, "cannot copy %s for bubblewrap: %s", label, strerror(errno));
  return fd;
}

/* The config must be the one the sandbox was compiled from. */
static void check_config(const struct launch *l, const char *dirpath, const char *name) {
  int fd = open(l->config, O_RDONLY | O_CLOEXEC);
  if (fd < 0) refuse(NULL, "cannot read %s, the config %s/%s was compiled from (%s): recompile", l->config, dirpath, name, strerror(errno));
  size_t len;
  char *bytes = read_all(fd, MAX_CONFIG_BYTES, &len);
  if (!bytes) refuse(NULL, "cannot read %s: %s", l->config, strerror(errno));
  close(fd);
  char hex[65];
  hex_digest(bytes, len, hex);
  free(bytes);
  if (strcmp(hex, l->config_sha256) != 0)
    refuse(NULL, "%s changed since the sandbox in %s was compiled from it (sha256 %s, compiled from %s). %s", l->config, dirpath, hex, l->config_sha256, recompile_hint(l, dirpath));
}

static const char install[] =
    "Install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) and recompile (compile finds it, or takes --bwrap PATH); `boxwright doctor` checks the machine";

/*
 * bubblewrap: the one compile resolved and recorded (never a lookup on
 * PATH, where a principal that may write ~/.local/bin would plant its
 * own), still a regular file of root's with the mode it had, in
 * directories only root can change. What it runs is the whole sandbox.
 */
static void check_bwrap(const struct launch *l, const char *dirpath) {
  struct stat st;
  if (lstat(l->bwrap, &st) < 0) refuse(install, "bubblewrap (%s) cannot be started: %s", l->bwrap, strerror(errno));
  const char *hint = recompile_hint(l, dirpath);
  if (!S_ISREG(st.st_mode)) refuse(hint, "bubblewrap (%s) is not a regular file (%s)", l->bwrap, S_ISLNK(st.st_mode) ? "a symbolic link" : "another kind of file");
  if (st.st_uid != l->bwrap_uid || (st.st_mode & 07777) != l->bwrap_mode)
    refuse(hint, "bubblewrap (%s) changed since compile: owner uid %u, mode %04o, where compile recorded uid %u, mode %04o", l->bwrap, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777),
           l->bwrap_uid, l->bwrap_mode);
  char why[PATH_MAX + 256];
  if (path_untrusted(l->bwrap, 0, why, sizeof why))
    refuse("Install bubblewrap where only root can write (your distribution's package), and recompile", "bubblewrap (%s) is not root's alone: %s", l->bwrap, why);
  if (access(l->bwrap, X_OK) < 0) refuse(install, "bubblewrap (%s) cannot be started: %s", l->bwrap, strerror(errno));
}

/* Environment entries by name (the part before '='), as `boxwright run -v` sorts them. */
static int cmp_names(const void *a, const void *b) {
  const char *x = *(const char *const *)a, *y = *(const char *const *)b;
  size_t nx = strcspn(x, "="), ny = strcspn(y, "=");
  int c = memcmp(x, y, nx < ny ? nx : ny);
  return c ? c : (nx > ny) - (nx < ny);
}

/* The command's environment: the launch file's allowlist plus --pass-env, nothing else. */
static char **sandbox_env(const struct launch *l, const struct options *o) {
  size_t n = 0;
  for (char **e = environ; *e; e++) n++;
  char **env = calloc(n + o->npass_env + 1, sizeof *env), **withheld = calloc(n + 1, sizeof *withheld);
  if (!env || !withheld) refuse(NULL, "out of memory");
  size_t ne = 0, nw = 0;
  /* `--pass-env NAME=VALUE`: NAME as given, whatever this process has. */
  for (size_t i = 0; i < o->npass_env; i++)
    if (strchr(o->pass_env[i], '=')) env[ne++] = (char *)o->pass_env[i];
  for (char **e = environ; *e; e++) {
    size_t len = strcspn(*e, "=");
    int set = 0;
    for (size_t i = 0; !set && i < o->npass_env; i++) set = strchr(o->pass_env[i], '=') && strcspn(o->pass_env[i], "=") == len && strncmp(*e, o->pass_env[i], len) == 0;
    if (set) continue;
    int ok = 0;
    for (size_t i = 0; !ok && i < l->nenv; i++) ok = strlen(l->env[i]) == len && strncmp(*e, l->env[i], len) == 0;
    for (size_t i = 0; !ok && i < l->nprefix; i++) ok = strlen(l->env_prefix[i]) <= len && strncmp(*e, l->env_prefix[i], strlen(l->env_prefix[i])) == 0;
    for (size_t i = 0; !ok && i < o->npass_env; i++) ok = strlen(o->pass_env[i]) == len && strncmp(*e, o->pass_env[i], len) == 0;
    if (ok) env[ne++] = *e;
    else withheld[nw++] = *e;
  }
  if (o->verbose && nw) {
    qsort(withheld, nw, sizeof *withheld, cmp_names);
    fprintf(stderr, "%s: withholding %zu environment variable%s: ", me, nw, nw > 1 ? "s" : "");
    for (size_t i = 0; i < nw; i++) fprintf(stderr, "%s%.*s", i ? ", " : "", (int)strcspn(withheld[i], "="), withheld[i]);
    fputs(" (--pass-env NAME lets one through)\n", stderr);
  }
  free(withheld);
  return env;
}

static char *number(int n) {
  char *s;
  if (asprintf(&s, "%d", n) < 0) refuse(NULL, "out of memory");
  return s;
}

static void push(struct strv *a, char *s) {
  if (strv_push(a, s) < 0) refuse(NULL, "out of memory");
}

/* An anonymous file holding the argv for `--args`, each argument followed by a NUL, read from its start. */
static int args_file(const struct strv *view) {
  int fd = anonymous_file("boxwright-args");
  if (fd < 0) refuse(NULL, "cannot create a file for bubblewrap's arguments: %s", strerror(errno));
  size_t len = 0;
  for (size_t i = 0; i < view->n; i++) len += strlen(view->v[i]) + 1;
  char *bytes = malloc(len ? len : 1), *p = bytes;
  if (!bytes) refuse(NULL, "out of memory");
  for (size_t i = 0; i < view->n; i++) p = stpcpy(p, view->v[i]) + 1;
  /* One write: a view has hundreds of arguments. */
  if (write_all(fd, bytes, len) < 0) refuse(NULL, "cannot write bubblewrap's arguments: %s", strerror(errno));
  free(bytes);
  if (lseek(fd, 0, SEEK_SET) < 0) refuse(NULL, "cannot rewind bubblewrap's arguments: %s", strerror(errno));
  return fd;
}

static void print_argv(const char *label, char *const *v, size_t n) {
  fprintf(stderr, "%s: %s", me, label);
  for (size_t i = 0; i < n; i++) fputc(' ', stderr), print_quoted(stderr, v[i]);
  fputc('\n', stderr);
}

/* The PATH execvp searched inside the sandbox, for the not-found message. */
static const char *sandbox_path(const struct rewrite *rw, char **envp) {
  if (rw->setenv_path) return rw->setenv_path;
  if (!rw->unsetenv_path)
    for (char **e = envp; *e; e++)
      if (strncmp(*e, "PATH=", 5) == 0) return *e + 5;
  return NULL;
}

static const char recompile[] = "Recompile: boxwright compile CONFIG --target linux --out DIR";

/* What the run came to: the command's status, or why it did not run. */
static int outcome(const struct run_result *r, const char *bwrap, int ready_fd, const struct launch *l, const struct rewrite *rw, char **envp,
                   char **command, int verbose) {
  if (r->spawn_error) refuse("`boxwright doctor` checks the machine", "cannot start bubblewrap (%s): %s", bwrap, strerror(r->spawn_error));
  size_t n;
  /* The ready line, the exec watch's lines (at most 32, each two quoted paths), the exec failure. */
  char *ready = read_from_start(ready_fd, 1 << 20, &n);
  /*
   * A signal forwarded before the in-sandbox step reached the command (to
   * bubblewrap, or to the step itself) ended the run: the caller's signal,
   * not a refusal, so its status (128 + signo), as a shell reports it.
   */
  int started = ready && (strncmp(ready, "started\n", 8) == 0 || strncmp(ready, "applied ", 8) == 0);
  if (r->forwarded && !started) {
    say("ended by signal %d (%s) before the command started; it did not run", r->forwarded, strsignal(r->forwarded));
    return 128 + r->forwarded;
  }
  if (!r->has_exit_code) {
    if (r->signal) {
      say("bubblewrap was killed by signal %d (%s)", r->signal, strsignal(r->signal));
      return 128 + r->signal;
    }
    refuse("`boxwright doctor` checks user namespaces and seccomp on this machine",
           "bubblewrap could not set up the sandbox (it exited %d before running the command; its message is above)", r->status);
  }
  if (!ready || !ready[0])
    refuse(NULL, "the in-sandbox step (%s) reported nothing: bubblewrap ran something else, or it ended before a word", SANDBOX_EXEC_PATH);
  if (strncmp(ready, "refused ", 8) == 0)
    refuse(NULL, "the in-sandbox step refused (%.*s; its message is above)", (int)strcspn(ready + 8, "\n"), ready + 8);
  if (strncmp(ready, "started\n", 8) != 0 && strncmp(ready, "applied ", 8) != 0)
    refuse(NULL, "the in-sandbox step reported \"%.*s\", not that it started the command", (int)strcspn(ready, "\n"), ready);
  const char *failed = strstr(ready, "\nexec-failed ");
  if (!failed) {
    /* It ran. The programs it ran that Landlock refused: said when it failed (or with -v), counted when it did not. */
    int refused = watch_count(ready);
    if (refused && (r->exit_code != 0 || verbose)) say_watch(me, ready, l->principal, l->config);
    else if (refused) say("the command exited 0, but Landlock refused %d program%s it ran (-v names %s and the grants that would allow %s)", refused, refused == 1 ? "" : "s", refused == 1 ? "it" : "them", refused == 1 ? "it" : "them");
    return r->exit_code;
  }
  int err = atoi(failed + 13);
  char file[PATH_MAX + 8], interp[PATH_MAX + 8];
  if (err == ENOENT && missing_interpreter(ready, file, interp, sizeof file)) {
    /* The file is there; the kernel's ENOENT is for its interpreter: name that file, not the command's grant. */
    char where[sizeof file + 8] = "";
    if (!(strlen(file) == strlen(command[0]) + 2 && strncmp(file + 1, command[0], strlen(command[0])) == 0)) snprintf(where, sizeof where, " (%s)", file);
    say("%s%s is in %s's view, but its interpreter %s is not: the kernel cannot start it without it; it did not run", command[0], where, l->principal, interp);
    return EXIT_NOT_FOUND;
  }
  if (err == ENOENT) {
    const char *path = sandbox_path(rw, envp);
    if (strchr(command[0], '/'))
      say("%s is not in %s's view (no such file inside the sandbox). Grant it in %s or give a path inside a granted tree; it did not run", command[0], l->principal, l->config);
    else
      say("%s is not in %s's view: not found on the sandbox's PATH (%s%s). Grant its directory in %s (e.g. read = [\"/usr\"]) or give a path inside a granted tree; it did not run",
          command[0], l->principal, path ? "PATH=" : "PATH unset: execvp's default ", path ? path : "/bin:/usr/bin", l->config);
    return EXIT_NOT_FOUND;
  }
  /* The watch answered the command's own execve too: the last program it saw refused before the failure is the command. */
  struct watch_line w, last;
  int seen = 0;
  for (const char *p = ready; watch_next(&p, &w) && p <= failed + 1;)
    if (strncmp(w.kind, "refused", 7) == 0) last = w, seen = 1;
  if (err == EACCES && seen) {
    char table[300];
    principal_table(l->principal, table, sizeof table);
    /* `git` is "/usr/bin/git": said when the name is not the path itself. */
    char named[sizeof last.a + 8] = "";
    if (!(last.a[0] == '"' && strlen(last.a) == strlen(command[0]) + 2 && strncmp(last.a + 1, command[0], strlen(command[0])) == 0)) snprintf(named, sizeof named, " (%s)", last.a);
    say("%s%s is in %s's view, but Landlock refuses to execute it: exec = [%s] in [%s] of %s allows it; it did not run", command[0], named, l->principal, last.a, table, l->config);
    return EXIT_NOT_EXECUTABLE;
  }
  say("%s is in %s's view but cannot be executed (%s); it did not run", command[0], l->principal, strerror(err));
  return EXIT_NOT_EXECUTABLE;
}

int launcher_main(int argc, char **argv, const char *exe) {
  /*
   * stdin, stdout and stderr open, on /dev/null when the caller closed one:
   * else the first file opened below would take its number, and the command
   * would write into bubblewrap's status or read the launch file.
   */
  for (int fd = 0; fd < 3; fd++)
    if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd) return EXIT_REFUSED;
  const char *slash = strrchr(exe, '/');
  me = slash + 1;
  char *dirpath = strndup(exe, slash == exe ? 1 : (size_t)(slash - exe));
  char *stem = strndup(me, strlen(me) - 4);
  if (!dirpath || !stem) refuse(NULL, "out of memory");
  struct options o = {0};
  parse_options(argc, argv, &o);
  die_with_parent(&o);
  close_inherited(&o);

  /*
   * Whoever can write DIR (or a directory above it) decides what this
   * launcher runs: the launch file names the argv, the seccomp program and
   * the Landlock rules. DIR must be this user's or root's, and written by
   * no one else (checked before anything in it is read).
   */
  char why[PATH_MAX + 256];
  if (path_untrusted(dirpath, geteuid(), why, sizeof why))
    refuse("Recompile into a directory only you can write: boxwright compile CONFIG --target linux --out DIR", "%s is not a directory only you can write (%s): whoever writes it decides what this launcher runs", dirpath, why);
  struct stat self;
  if (stat("/proc/self/exe", &self) == 0 && ((self.st_uid != 0 && self.st_uid != geteuid()) || (self.st_mode & 022)))
    refuse(recompile, "%s can be changed by others (owner uid %u, mode %04o)", exe, (unsigned)self.st_uid, (unsigned)(self.st_mode & 07777));
  int dir = open(dirpath, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) refuse(NULL, "cannot open %s: %s", dirpath, strerror(errno));
  char *name;
  if (asprintf(&name, "%s.launch", stem) < 0) refuse(NULL, "out of memory");
  size_t len;
  char *text = read_in_dir(dir, dirpath, name, MAX_LAUNCH_BYTES, &len, 1);
  struct launch l;
  char err[512];
  if (launch_parse(text, len, &l, err, sizeof err) < 0) refuse(recompile, "%s/%s is not a launch file this launcher reads: %s", dirpath, name, err);
  size_t a;
  for (a = 0; a < COUNT(launch_arches); a++)
    if (strcmp(HOST_ARCH, launch_arches[a]) == 0) break;
  if (a == COUNT(launch_arches) || !l.seccomp[a])
    refuse(NULL, "%s/%s names no seccomp program for this machine's architecture (%s)", dirpath, name, HOST_ARCH);
  check_config(&l, dirpath, name);
  check_bwrap(&l, dirpath);

  /* Every file it hands on, held to the digest the launch file records, then passed as a copy. */
  const char *hint = recompile_hint(&l, dirpath);
  char *args = read_verified(dir, dirpath, l.args, l.args_sha256, MAX_ARGS_BYTES, &len, hint);
  size_t args_len = len;
  char *program = read_verified(dir, dirpath, l.seccomp[a], l.seccomp_sha256[a], MAX_ARGS_BYTES, &len, hint);
  int bpf = sealed_copy("boxwright-seccomp", program, len);
  free(program);
  int rules = -1;
  if (l.landlock) {
    char *ruleset = read_verified(dir, dirpath, l.landlock, l.landlock_sha256, MAX_ARGS_BYTES, &len, hint);
    rules = sealed_copy("boxwright-landlock", ruleset, len);
    free(ruleset);
  }

  /*
   * The sandbox must not reach what the host trusts after it: this
   * directory (the next run reads it), the config (the next compile reads
   * it) and bubblewrap (every run executes it).
   */
  struct mounts mounts;
  if (view_mounts(args, args_len, &mounts, err, sizeof err) < 0) refuse(hint, "%s/%s is not a view this launcher runs: %s", dirpath, l.args, err);
  const struct {
    const char *path, *what;
    int tree;
  } trusted[] = {{dirpath, "this launcher's directory (what the next run reads)", 1},
                 {l.config, "the config it was compiled from (what the next compile reads)", 0},
                 {l.bwrap, "bubblewrap (what every run executes)", 0}};
  for (size_t t = 0; t < COUNT(trusted); t++) {
    const struct mount_op *op = mounts_reach(&mounts, trusted[t].path, trusted[t].tree);
    if (op)
      refuse("A sandbox must not be able to change what later runs trust: narrow the write grant, and keep the config and the compiled directory outside every write grant",
             "%s's sandbox could change %s, %s: %s is mounted writable (%s/%s)", l.principal, trusted[t].path, trusted[t].what, op->dest, dirpath, l.args);
  }
  free(mounts.op);

  struct rewrite rw = {.bpf_fd = bpf};
  struct strv view = {0};
  if (rewrite_argv(args, args_len, &rw, &view) < 0) {
    if (rw.changed) refuse(NULL, "%s", rw.err);
    refuse(hint, "%s/%s is not a view this launcher runs: %s", dirpath, l.args, rw.err);
  }
  if (rw.bpf_fd >= 0) refuse(hint, "%s/%s applies no seccomp program (no --seccomp)", dirpath, l.args);
  if (!rw.exec_mounted) refuse(hint, "%s/%s does not mount the in-sandbox step at %s", dirpath, l.args, SANDBOX_EXEC_PATH);
  char **envp = sandbox_env(&l, &o);

  int args_fd = args_file(&view);
  int status_fd = anonymous_file("boxwright-status");
  int ready_fd = anonymous_file("boxwright-ready");
  if (status_fd < 0 || ready_fd < 0) refuse(NULL, "cannot create bubblewrap's status file: %s", strerror(errno));
  struct strv cmd = {0};
  push(&cmd, (char *)l.bwrap);
  push(&cmd, "--args"), push(&cmd, number(args_fd));
  push(&cmd, "--json-status-fd"), push(&cmd, number(status_fd));
  push(&cmd, "--"), push(&cmd, SANDBOX_EXEC_PATH);
  if (rules >= 0) push(&cmd, "--rules-fd"), push(&cmd, number(rules));
  else push(&cmd, "--no-landlock");
  push(&cmd, "--ready-fd"), push(&cmd, number(ready_fd));
  for (size_t i = 0; i < o.npass_fd; i++) push(&cmd, "--keep-fd"), push(&cmd, number(o.pass_fd[i]));
  push(&cmd, "--name"), push(&cmd, (char *)me);
  push(&cmd, "--");
  for (char **c = o.command; *c; c++) push(&cmd, *c);
  if (o.verbose) {
    print_argv("running", cmd.v, cmd.n);
    char label[64];
    snprintf(label, sizeof label, "--args %d holds", args_fd);
    print_argv(label, view.v, view.n);
  }
  push(&cmd, NULL);
  /*
   * A workload that nothing mediates (no Landlock: TYBA, --landlock off)
   * could reopen a regular file or directory on 0-2 through
   * /proc/self/fd/N with other rights (append to the prompt file the
   * caller opened read-only, read the log it writes): those reach it
   * through pipes (stdio.c). Under Landlock the reopen is checked against
   * the rules, so they pass as they are.
   */
  /*
   * A host-trusted name that does not exist cannot be made read-only by a
   * mount: the write trees are listed now (one the compile did not know of
   * is refused) and again after the run (one the command made is moved
   * aside, exit 123).
   */
  struct trust_state trust;
  char *why_not;
  if (trust_before(&l, &trust, &why_not) < 0) refuse(hint, "%s", why_not);
  struct stdio_plan plan;
  if (stdio_plan(&plan, !l.landlock, o.verbose ? me : NULL) < 0) refuse(NULL, "cannot make the pipes for the command's standard streams: %s", strerror(errno));
  struct run_result r = run_bwrap(l.bwrap, cmd.v, envp, status_fd, &plan);
  int moved = trust_after(&trust, me);
  int status = outcome(&r, l.bwrap, ready_fd, &l, &rw, envp, o.command, o.verbose);
  if (!moved) return status;
  say("the command ran (its status %d), and left in its write trees what the host runs or trusts after the run (said above): exit %d", status, EXIT_QUARANTINED);
  return EXIT_QUARANTINED;
}
