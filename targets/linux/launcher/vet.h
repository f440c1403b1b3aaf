/* Who can change what a launch trusts (vet.c). */
#ifndef BOXWRIGHT_VET_H
#define BOXWRIGHT_VET_H

#include <stddef.h>
#include <sys/types.h>

/* Why someone other than root or `owner` could change what the absolute path names, in why[0..n); NULL when no one can. */
const char *path_untrusted(const char *path, uid_t owner, char *why, size_t n);

/* A mount of a compiled view: a host path (`src`) onto `dest`, or something of the sandbox's own (a tmpfs, a data file, /proc). */
struct mount_op {
  const char *dest;
  const char *src;
  int host;
  int writable;
};

struct mounts {
  struct mount_op *op;
  size_t n;
};

/* The mounts of a compiled view (NUL-terminated tokens, pointed into, not copied); 0, or -1 with the reason in err. */
int view_mounts(const char *buf, size_t len, struct mounts *m, char *err, size_t errsize);

/* The writable host mount through which a sandbox with these mounts can change what `path` names (for a tree, anything below it), or NULL. */
const struct mount_op *mounts_reach(const struct mounts *m, const char *path, int tree);

/* `boxwright-sandbox --vet …` (main.c): the checks above for the TypeScript side. */
int vet_main(int argc, char **argv);

#endif
