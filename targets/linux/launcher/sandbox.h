/*
 * boxwright-sandbox: one static program, two roles (see README.md beside
 * this file).
 *
 *   outside, as DIR/<principal>.run   the launcher (launcher.c, run.c):
 *                                     reads DIR/<principal>.launch and runs
 *                                     a command under bubblewrap, fail-closed
 *   inside the sandbox, as /.boxwright/exec
 *                                     the in-sandbox step (inside.c): Landlock
 *                                     (../landlock/landlock.c) or none, closes
 *                                     every descriptor it was not told to
 *                                     keep, reports on its ready fd, execs
 *
 * Only libc and the kernel's uapi headers; built static, so that it runs in
 * a view that holds none of its libraries.
 */
#ifndef BOXWRIGHT_SANDBOX_H
#define BOXWRIGHT_SANDBOX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifndef BOXWRIGHT_VERSION
#define BOXWRIGHT_VERSION "0.0.0-dev"
#endif

#if defined(__x86_64__)
#define HOST_ARCH "x86_64"
#elif defined(__aarch64__)
#define HOST_ARCH "aarch64"
#else
#define HOST_ARCH "unsupported"
#endif

/* Exit statuses besides the command's own (docker's and env's convention). */
#define EXIT_USAGE 2
/* The command ran, and created what the host runs (a host-trusted name): moved aside (trust-walk.c). */
#define EXIT_QUARANTINED 123
#define EXIT_REFUSED 125
#define EXIT_NOT_EXECUTABLE 126
#define EXIT_NOT_FOUND 127

/* Where the compiled view mounts this program (--perms 0555 --ro-bind-data FD PATH). */
#define SANDBOX_EXEC_PATH "/.boxwright/exec"
/* The version of the .launch format this program reads (launch-file.c). */
#define LAUNCH_FORMAT "3"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define PRINTF(f, a) __attribute__((format(printf, f, a)))

/* inside.c: the in-sandbox step. */
int inside_main(int argc, char **argv);
/* refuse.c: the step's refusals (inside.c's and landlock.c's) say why, write `refused KIND` on the ready fd, exit 125. */
void __attribute__((noreturn)) PRINTF(2, 3) sandbox_refuse(const char *kind, const char *fmt, ...);
void sandbox_refuse_report_to(int ready_fd);
void sandbox_refuse_name(const char *name);

/* watch.c: the exec watch (the programs Landlock refused the command), and what an execve of a file needs. */
int watch_supported(void);
/* Forks: returns in the child, which becomes the command; the parent watches until it ends and exits with its status. No watch, no fork, when it cannot set one up. */
void watch_fork(int ready_fd, const int *keep, size_t nkeep);
int watch_print_filter(void);
/* The ELF (PT_INTERP) or #! interpreter of a file: 1 and `out`, 0 none, -1 unreadable. */
int program_interpreter(int dirfd, const char *path, int at_flags, char *out, size_t size);

/* launcher.c: the launcher, when this program's file is named `<stem>.run`. */
int launcher_main(int argc, char **argv, const char *exe);

/* throwaway.c: `--throwaway-root BASE -- PROG...`, the throw-away host tree of `boxwright learn`. */
int throwaway_main(int argc, char **argv);

/* util.c */
/* Reads fd to its end (at most max bytes) into a NUL-terminated heap buffer; NULL and errno on failure (EFBIG: too big). */
char *read_all(int fd, size_t max, size_t *len);
/* Writes all of buf; -1 and errno on failure. */
int write_all(int fd, const void *buf, size_t len);
/* An anonymous file (memfd, else an unlinked O_TMPFILE/mkstemp file), read-write, not close-on-exec. */
int anonymous_file(const char *name);
/* A decimal number 0..999999999, nothing else (no sign, no space); -1 otherwise. */
int parse_fd_number(const char *s);
/* Closes every descriptor >= 3 not in keep[0..n); returns 0, or -1 if one could not be closed. */
int close_descriptors_except(const int *keep, size_t n);
/* The open descriptors >= 3 (from /proc/self/fd), ascending, at most cap; the count, -1 if unreadable. */
int open_descriptors(int *out, int cap);
/* s as a JSON string (quotes and escapes), for -v. */
void print_quoted(FILE *f, const char *s);
/* One line on fd, in one write: WORD, then a and b (either may be NULL) as JSON strings. */
int write_quoted_line(int fd, const char *word, const char *a, const char *b);

/* sha256.c */
void sha256(const void *data, size_t len, uint8_t out[32]);

#endif
