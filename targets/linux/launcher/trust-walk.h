/* Host-trusted names checked before and after a run (trust-walk.c; README.md, "Names that do not exist yet"). */
#ifndef BOXWRIGHT_TRUST_WALK_H
#define BOXWRIGHT_TRUST_WALK_H

#include <stddef.h>
#include <sys/types.h>
#include "launch-file.h"

/* At most this many directories listed in one check of all the trees, and this deep: beyond, the check does not finish. */
#define TRUST_MAX_DIRS 1000000
#define TRUST_MAX_DEPTH 512

struct trust_state {
  const char **walk, **names, **keep; /* sorted copies of the launch file's lists (strcmp order) */
  size_t nwalk, nnames, nkeep;
  const char *const *absent;
  size_t nabsent;
  int *absent_at;   /* per absent path: the component where the look before the run stopped */
  int *absent_kind; /* and what it found there (trust-walk.c: STOP_*) */
};

/*
 * Before the run: each absent path looked at (what exists already is not
 * the command's doing after it), each tree listed. 0, or -1 with *why
 * saying what exists in a tree that the launch file does not know of (a
 * stale compile: the command could write it), or why the trees could not
 * be listed; the command must not run.
 */
int trust_before(const struct launch *l, struct trust_state *s, char **why);

/*
 * After the run: each host-trusted name the command created, moved aside
 * in its own directory to NAME.boxwright-quarantine-HEX, one line each on
 * stderr (`me: ` first). Returns how many lines it wrote: names moved
 * aside, and what could not be checked or moved (each said); 0 when the
 * trees hold nothing new.
 */
int trust_after(const struct trust_state *s, const char *me);

/* trust-quarantine.c: what was moved aside (by device and inode), and the moving. */
#define QUARANTINE ".boxwright-quarantine-"
struct moved {
  dev_t *dev;
  ino_t *ino;
  size_t n;
};
/* Moves `name` (in dir; `path` in all) aside and says so on stderr (`me: ` first); the lines written (0: it is gone). */
int quarantine(int dir, const char *name, const char *path, const char *me, struct moved *m);
/* fchmod, or through /proc for an O_PATH descriptor. */
int chmod_fd(int fd, mode_t mode);
/* Gives this user u+rwx on its own directory fd (one the command took them from); the previous mode, or -1. */
int own_rights(int fd);

#endif
