/*
 * boxwright-sandbox: which role this run plays.
 *
 * A file named `<stem>.run` (its own file, /proc/self/exe, not argv[0],
 * which a caller chooses) is a launcher: launcher.c. Anything else (the
 * built boxwright-sandbox.<arch>, /.boxwright/exec inside the sandbox) is
 * the in-sandbox step: inside.c. Both answer --version; --abi prints the
 * kernel's Landlock ABI; --check-launch parses a launch file on stdin and
 * prints it (launch-file.c), for the test that holds it to launch-file.ts;
 * --vet answers vet.c's questions for the TypeScript side.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "../landlock/landlock.h"
#include "launch-file.h"
#include "sandbox.h"
#include "vet.h"

static int version(void) {
  printf("boxwright-sandbox %s (%s, launch format %s)\n", BOXWRIGHT_VERSION, HOST_ARCH, LAUNCH_FORMAT);
  return fflush(stdout) == 0 ? 0 : EXIT_REFUSED;
}

static int check_launch(void) {
  size_t len;
  char *buf = read_all(0, MAX_LAUNCH_BYTES, &len);
  struct launch l;
  char err[512];
  if (!buf && errno == EFBIG) snprintf(err, sizeof err, "the launch file on stdin exceeds %d bytes", MAX_LAUNCH_BYTES);
  else if (!buf) snprintf(err, sizeof err, "cannot read stdin: %s", strerror(errno));
  if (!buf || launch_parse(buf, len, &l, err, sizeof err) < 0) {
    fprintf(stderr, "boxwright-sandbox: %s\n", err);
    return EXIT_REFUSED;
  }
  launch_print(&l, stdout);
  return fflush(stdout) == 0 ? 0 : EXIT_REFUSED;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--version") == 0) return version();
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    const char *base = strrchr(exe, '/');
    base = base ? base + 1 : exe;
    if (ends_with(base, ".run") && strlen(base) > 4) {
      /*
       * Its process name is its file's (`agent.run`), as when it was executed
       * by path: `boxwright run` executes it from a descriptor
       * (/proc/self/fd/N), which would name it `N` in ps and /proc/PID/comm.
       */
      prctl(PR_SET_NAME, base);
      return launcher_main(argc, argv, exe);
    }
    if (ends_with(base, " (deleted)") && argc > 0 && ends_with(argv[0], ".run")) {
      fprintf(stderr, "%s: its own file (%s) was replaced or removed as it started; the command did not run\n", argv[0], exe);
      return EXIT_REFUSED;
    }
  } else if (argc > 0 && ends_with(argv[0], ".run")) {
    /* Called as a launcher, but its own file is unknown: it cannot find its launch file. */
    fprintf(stderr, "%s: cannot read /proc/self/exe to find the launch file beside it; the command did not run\n", argv[0]);
    return EXIT_REFUSED;
  }
  if (argc == 2 && strcmp(argv[1], "--check-launch") == 0) return check_launch();
  if (argc >= 2 && strcmp(argv[1], "--vet") == 0) return vet_main(argc, argv);
  if (argc >= 2 && strcmp(argv[1], "--throwaway-root") == 0) return throwaway_main(argc, argv);
  if (argc == 2 && strcmp(argv[1], "--print-watch-filter") == 0) return watch_print_filter();
  if (argc == 2 && strcmp(argv[1], "--abi") == 0) {
    printf("%d\n", landlock_abi());
    return fflush(stdout) == 0 ? 0 : EXIT_REFUSED;
  }
  return inside_main(argc, argv);
}
