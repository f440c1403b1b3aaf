/*
 * Moving aside a host-trusted name the command made (trust-walk.c): renamed
 * in its own directory, relative to that directory's descriptor, never
 * through a link (a link is renamed as the link), to
 * NAME.boxwright-quarantine-<16 hex digits>, with RENAME_NOREPLACE (another
 * random suffix on EEXIST). The content stays as the command left it: the
 * user can look at it, and rename it back if it is theirs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include "trust-walk.h"

static const char *kind_of(mode_t m) {
  return S_ISDIR(m) ? "a directory" : S_ISLNK(m) ? "a symbolic link" : S_ISREG(m) ? "a file" : "a special file";
}

/* fchmod, or through /proc for an O_PATH descriptor (which fchmod refuses). */
int chmod_fd(int fd, mode_t mode) {
  if (fchmod(fd, mode) == 0) return 0;
  if (errno != EBADF) return -1;
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
  return chmod(proc, mode);
}

/*
 * The command may take this user's own rights away from a directory it made:
 * `chmod 555` keeps a `.git` in it from being renamed, `chmod 000` hides one
 * from the walk. The directory is this user's, so after the run the
 * launcher gives itself u+rwx on it for the check and puts the mode back
 * after. The previous mode, or -1 when fd is not this user's directory.
 */
int own_rights(int fd) {
  struct stat st;
  if (fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 0700) == 0700) return -1;
  return chmod_fd(fd, (st.st_mode & 07777) | 0700) == 0 ? (int)(st.st_mode & 07777) : -1;
}

/* Moves `name` (in dir, `path` in all) aside, never following it, and says so. */
int quarantine(int dir, const char *name, const char *path, const char *me, struct moved *m) {
  struct stat st;
  if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
    if (errno == ENOENT) return 0;
    fprintf(stderr, "%s: the command left %s, a host-trusted name (the host runs or trusts it after the run), which cannot be examined (%s): look at it before the host runs anything there\n",
            me, path, strerror(errno));
    return 1;
  }
  char aside[256];
  int err = 0, restore = -1;
  for (int tries = 0; tries < 8; tries++) {
    uint64_t r;
    if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r) {
      err = errno;
      break;
    }
    snprintf(aside, sizeof aside, "%.200s" QUARANTINE "%016llx", name, (unsigned long long)r);
    if (renameat2(dir, name, dir, aside, RENAME_NOREPLACE) == 0) {
      dev_t *d = realloc(m->dev, (m->n + 1) * sizeof *d);
      ino_t *i = d ? realloc(m->ino, (m->n + 1) * sizeof *i) : NULL;
      if (d) m->dev = d;
      if (i) m->ino = i, m->dev[m->n] = st.st_dev, m->ino[m->n++] = st.st_ino;
      size_t cut = strlen(path) - strlen(name);
      fprintf(stderr, "%s: the run's write trees gained %s (%s) while it ran (the command made it, or another process writing there), a host-trusted name: the host runs or trusts what it holds after the run, with your rights. Moved aside to %.*s%s\n",
              me, path, kind_of(st.st_mode), (int)cut, path, aside);
      err = 0;
      break;
    }
    err = errno;
    if ((err == EACCES || err == EPERM) && restore < 0 && (restore = own_rights(dir)) >= 0) continue;
    if (err != EEXIST) break;
  }
  if (restore >= 0) chmod_fd(dir, (mode_t)restore);
  if (!err) return 1;
  fprintf(stderr, "%s: the run's write trees gained %s (%s) while it ran (the command made it, or another process writing there), a host-trusted name (the host runs or trusts it after the run), and it could not be moved aside: %s. Remove it before the host runs anything there\n",
          me, path, kind_of(st.st_mode), strerror(err));
  return 1;
}
