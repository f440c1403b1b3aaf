/*
 * Host-trusted names that do not exist yet (README.md, "Names that do not
 * exist yet"). Linux cannot refuse their creation: a read-only mount needs
 * an existing target, and Landlock only allows. So the launcher lists every
 * write tree of the launch file (`walk`) at every depth before and after
 * the run, looking for the project names (`trusted-name`: .git, .envrc,
 * .pre-commit-config.yaml, …), and looks at each host-trusted path that was
 * absent at compile (`absent`: ~/.bashrc under write = ["~"]):
 *
 *   before  a name in a tree that exists and the launch file does not
 *           know of (`keep`) is refused: the sandbox was compiled without
 *           it, so the command could write it (a `git init` after
 *           `compile --out`); which absent paths exist is recorded (the
 *           run cache boxwright makes after the compile is one);
 *   after   one that appeared during the run is moved aside in its own
 *           directory, NAME.boxwright-quarantine-HEX (renameat2
 *           RENAME_NOREPLACE, relative to the directory's descriptor), and
 *           said. The command made it, or another process that writes the
 *           same tree (a write grant of the host's /tmp shares it with
 *           every program there): the launcher cannot tell them apart, and
 *           fails closed for both.
 *
 * Never through a link: every directory is opened O_NOFOLLOW from its
 * parent's descriptor, and a name is renamed, never what it points to.
 * Not into a found name, a `keep` path (bound read-only, lifted by the
 * config, or a mount the sandbox cannot write) or another tree (walked on
 * its own). Bounded: TRUST_MAX_DIRS directories in all, TRUST_MAX_DEPTH
 * levels, one open directory per level.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "sandbox.h"
#include "trust-walk.h"

/* Where the look at an absent path stopped. */
enum { STOP_MISSING, STOP_LINK, STOP_OTHER, STOP_UNREADABLE, STOP_EXISTS };

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static int listed(const char **v, size_t n, const char *s) { return n && bsearch(&s, v, n, sizeof *v, cmp_str) != NULL; }

static const char **sorted_copy(const char **v, size_t n) {
  const char **c = calloc(n + 1, sizeof *c);
  if (!c) return NULL;
  if (n) memcpy(c, v, n * sizeof *v);
  qsort(c, n, sizeof *c, cmp_str);
  return c;
}

/* A path being built: a tree's, then a name at each level below it. */
struct path {
  char *s;
  size_t len, cap;
};

static int path_reserve(struct path *p, size_t need) {
  if (need > p->cap) {
    char *s = realloc(p->s, need * 2);
    if (!s) return -1;
    p->s = s, p->cap = need * 2;
  }
  return 0;
}

/* The path cut back to its first len bytes, then `/name`; -1 out of memory. */
static int path_at(struct path *p, size_t len, const char *name) {
  size_t need = len + strlen(name) + 2;
  if (path_reserve(p, need) < 0) return -1;
  p->len = len;
  if (!(len == 1 && p->s[0] == '/')) p->s[p->len++] = '/';
  strcpy(p->s + p->len, name);
  p->len += strlen(name);
  return 0;
}

struct walk {
  const struct trust_state *s;
  int after; /* 0 before the run: what exists is counted; 1 after: it is moved aside */
  const char *me;
  size_t dirs;
  int lines;        /* after: the lines written */
  char *first;      /* before: the first unknown name, and how many */
  size_t unknown;
  char *unlisted;   /* the first directory that could not be listed, why (0: too deep), and how many */
  int unlisted_errno;
  size_t nunlisted;
  char *limit;      /* where TRUST_MAX_DIRS stopped the walk */
  struct moved moved; /* what was moved aside: skipped when its new name comes up again in a listing */
};

static void unlisted(struct walk *w, const char *path, int err) {
  if (!w->nunlisted++) w->unlisted = strdup(path), w->unlisted_errno = err;
}

static int moved_here(const struct walk *w, int dir, const char *name) {
  struct stat st;
  if (!strstr(name, QUARANTINE) || fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0) return 0;
  for (size_t i = 0; i < w->moved.n; i++)
    if (w->moved.dev[i] == st.st_dev && w->moved.ino[i] == st.st_ino) return 1;
  return 0;
}

static void found(struct walk *w, int dir, const char *name, const char *path) {
  if (w->after) w->lines += quarantine(dir, name, path, w->me, &w->moved);
  else if (!w->unknown++) w->first = strdup(path);
}

/* Lists one tree at every depth (depth first, one open directory per level); -1 when TRUST_MAX_DIRS stopped it. */
/*
 * A directory of another user that this user can neither list nor write
 * (a system service's private directory in /tmp): the command, running as
 * this user, cannot put a name in it or make it listable, so it is passed
 * over rather than refused. One this user owns, or may write, is not.
 */
static int others_closed(int dir, const char *name) {
  struct stat st;
  if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode)) return 0;
  return st.st_uid != geteuid() && faccessat(dir, name, W_OK, AT_EACCESS) != 0;
}

/*
 * One directory being listed: its descriptor and what getdents64 last gave.
 * The listing is the kernel's own (linux_dirent64 records, d_type for the
 * kind), not readdir's: fdopendir costs an fstat and two fcntl a directory,
 * a third of the walk's system calls, and a buffer malloc'd and freed each
 * time; here each depth keeps one buffer for the whole walk.
 */
struct frame {
  int fd;
  size_t len;  /* of the path when this directory is on top */
  int restore; /* the mode to put back (own_rights), or -1 */
  char *buf;   /* the depth's buffer (WALK_BUF bytes), reused */
  size_t at, got;
};

struct kernel_dirent64 {
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

/* Large enough for hundreds of names a call; one per depth, allocated the first time the walk gets that deep. */
#define WALK_BUF 32768

/* The next entry of f, NULL at the end; on an error NULL with errno set (0 at the end). */
static struct kernel_dirent64 *next_entry(struct frame *f) {
  if (f->at >= f->got) {
    long n = syscall(SYS_getdents64, f->fd, f->buf, WALK_BUF);
    if (n <= 0) {
      errno = n < 0 ? errno : 0;
      return NULL;
    }
    f->at = 0, f->got = (size_t)n;
  }
  struct kernel_dirent64 *e = (struct kernel_dirent64 *)(f->buf + f->at);
  f->at += e->d_reclen;
  return e;
}

static void frame_close(struct frame *f) {
  if (f->restore >= 0) fchmod(f->fd, (mode_t)f->restore);
  close(f->fd);
}

static int walk_tree(struct walk *w, const char *root, struct path *p, char **bufs) {
  const struct trust_state *s = w->s;
  int fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno != ENOENT) unlisted(w, root, errno);
    return 0;
  }
  struct frame *stack = calloc(TRUST_MAX_DEPTH + 1, sizeof *stack);
  size_t rootlen = strlen(root);
  if (!stack || (!bufs[0] && !(bufs[0] = malloc(WALK_BUF))) || path_reserve(p, rootlen + 1) < 0) {
    close(fd);
    free(stack);
    unlisted(w, root, ENOMEM);
    return 0;
  }
  memcpy(p->s, root, rootlen + 1);
  stack[0] = (struct frame){fd, rootlen, -1, bufs[0], 0, 0};
  size_t depth = 1;
  int stopped = 0;
  w->dirs++;
  while (depth) {
    struct frame *f = &stack[depth - 1];
    struct kernel_dirent64 *e = next_entry(f);
    if (!e) {
      if (errno) {
        p->s[f->len] = '\0';
        unlisted(w, p->s, errno);
      }
      frame_close(f);
      depth--;
      continue;
    }
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (path_at(p, f->len, e->d_name) < 0) {
      unlisted(w, root, ENOMEM);
      break;
    }
    int dir = f->fd;
    if (listed(s->names, s->nnames, e->d_name)) {
      if (!listed(s->keep, s->nkeep, p->s)) found(w, dir, e->d_name, p->s);
      continue;
    }
    int isdir = e->d_type == DT_DIR;
    struct stat st;
    if (e->d_type == DT_UNKNOWN) isdir = fstatat(dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
    if (!isdir || listed(s->keep, s->nkeep, p->s) || listed(s->walk, s->nwalk, p->s)) continue;
    if (w->after && moved_here(w, dir, e->d_name)) continue;
    if (depth > TRUST_MAX_DEPTH) {
      unlisted(w, p->s, 0);
      continue;
    }
    if (w->dirs >= TRUST_MAX_DIRS) {
      w->limit = strdup(p->s);
      stopped = 1;
      break;
    }
    if (!bufs[depth] && !(bufs[depth] = malloc(WALK_BUF))) {
      unlisted(w, p->s, ENOMEM);
      continue;
    }
    int c = openat(dir, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), restore = -1;
    if (c < 0 && errno == EACCES && w->after) {
      /* A directory the command made unreadable: opened without reading it, given back u+rwx, read, its mode put back after. */
      int pfd = openat(dir, e->d_name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (pfd >= 0 && (restore = own_rights(pfd)) >= 0) {
        c = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (c < 0) chmod_fd(pfd, (mode_t)restore), restore = -1;
      }
      if (pfd >= 0) close(pfd);
      if (c < 0) errno = EACCES;
    }
    if (c < 0 && errno == EACCES && others_closed(dir, e->d_name)) continue;
    if (c < 0) {
      /* Gone, or not a directory (any more): nothing below it. */
      if (errno != ENOENT && errno != ENOTDIR && errno != ELOOP) unlisted(w, p->s, errno);
      continue;
    }
    w->dirs++;
    stack[depth] = (struct frame){c, p->len, restore, bufs[depth], 0, 0};
    depth++;
  }
  while (depth) frame_close(&stack[--depth]);
  free(stack);
  return stopped ? -1 : 0;
}

static void walk_all(struct walk *w) {
  struct path p = {0};
  char **bufs = calloc(TRUST_MAX_DEPTH + 1, sizeof *bufs);
  if (!bufs) {
    if (w->s->nwalk) unlisted(w, w->s->walk[0], ENOMEM);
    return;
  }
  for (size_t t = 0; t < w->s->nwalk; t++)
    if (walk_tree(w, w->s->walk[t], &p, bufs) < 0) break;
  for (size_t d = 0; d <= TRUST_MAX_DEPTH; d++) free(bufs[d]);
  free(bufs);
  free(p.s);
}

/*
 * Follows `path` from / one component at a time, never through a link.
 * Returns where it stopped (the component's index) with *kind; for
 * STOP_EXISTS and STOP_LINK, *dir is the directory holding that component
 * (else -1) and *name it (in *copy, which the caller frees).
 */
static int look(const char *path, int *kind, int *dir, char **name, char **copy) {
  *dir = -1, *name = NULL, *copy = strdup(path), *kind = STOP_MISSING;
  int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (!*copy || fd < 0) {
    if (fd >= 0) close(fd);
    *kind = STOP_UNREADABLE;
    return 0;
  }
  int i = 0;
  for (char *c = *copy + 1, *next; *c; c = next, i++) {
    next = strchr(c, '/');
    int last = !next || !next[1];
    if (next) *next++ = '\0';
    else next = c + strlen(c);
    struct stat st;
    if (fstatat(fd, c, &st, AT_SYMLINK_NOFOLLOW) < 0) {
      *kind = errno == ENOENT ? STOP_MISSING : errno == ENOTDIR ? STOP_OTHER : STOP_UNREADABLE;
      break;
    }
    if (last || S_ISLNK(st.st_mode)) {
      *kind = last ? STOP_EXISTS : STOP_LINK, *dir = fd, *name = c;
      return i;
    }
    int sub = S_ISDIR(st.st_mode) ? openat(fd, c, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
    if (sub < 0) {
      *kind = S_ISDIR(st.st_mode) ? STOP_UNREADABLE : STOP_OTHER;
      break;
    }
    close(fd);
    fd = sub;
  }
  close(fd);
  return i;
}

/* The first n components of path: "/a/b/c", 2 -> "/a/b". */
static char *prefix(const char *path, int n) {
  const char *e = path;
  for (int i = 0; i <= n && e; i++) e = strchr(e + 1, '/');
  return e ? strndup(path, (size_t)(e - path)) : strdup(path);
}

/* A reason, allocated (a path in it can be longer than any fixed buffer); -1. */
static int PRINTF(2, 3) message(char **why, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (vasprintf(why, fmt, ap) < 0) *why = (char *)"out of memory";
  va_end(ap);
  return -1;
}

int trust_before(const struct launch *l, struct trust_state *s, char **why) {
  memset(s, 0, sizeof *s);
  s->walk = sorted_copy(l->walk, l->nwalk), s->nwalk = l->nwalk;
  s->names = sorted_copy(l->trusted_name, l->nname), s->nnames = l->nname;
  s->keep = sorted_copy(l->keep, l->nkeep), s->nkeep = l->nkeep;
  s->absent = l->absent, s->nabsent = l->nabsent;
  s->absent_at = calloc(l->nabsent + 1, sizeof *s->absent_at);
  s->absent_kind = calloc(l->nabsent + 1, sizeof *s->absent_kind);
  if (!s->walk || !s->names || !s->keep || !s->absent_at || !s->absent_kind) return *why = (char *)"out of memory", -1;
  for (size_t i = 0; i < s->nabsent; i++) {
    int dir;
    char *name, *copy;
    s->absent_at[i] = look(s->absent[i], &s->absent_kind[i], &dir, &name, &copy);
    if (dir >= 0) close(dir);
    free(copy);
  }
  struct walk w = {.s = s};
  walk_all(&w);
  if (w.limit)
    return message(why, "the write trees hold more than %d directories (listing stopped at %s): what the command creates in them could not be checked after the run. Name a narrower write tree",
                    TRUST_MAX_DIRS, w.limit);
  if (w.unknown)
    return message(why, "%s exists, a host-trusted name (the host runs or trusts it after the run) that this sandbox was compiled without%s: the command could write it",
                    w.first ? w.first : "?", w.unknown > 1 ? " (and others)" : "");
  if (w.nunlisted)
    return message(why, "cannot list %s (%s)%s, in a write tree: a host-trusted name the command made there could not be checked after the run",
                    w.unlisted ? w.unlisted : "?", !w.unlisted_errno ? "deeper than the check goes" : strerror(w.unlisted_errno),
                    w.nunlisted > 1 ? " and other directories" : "");
  return 0;
}

int trust_after(const struct trust_state *s, const char *me) {
  struct walk w = {.s = s, .after = 1, .me = me};
  for (size_t i = 0; i < s->nabsent; i++) {
    int kind, dir;
    char *name, *copy;
    int at = look(s->absent[i], &kind, &dir, &name, &copy);
    /* There before the run (boxwright's own run cache, made after the compile): not the command's doing. */
    if (s->absent_kind[i] == STOP_EXISTS) kind = STOP_MISSING;
    if (kind == STOP_EXISTS) w.lines += quarantine(dir, name, s->absent[i], me, &w.moved);
    else if (kind == STOP_LINK && !(s->absent_kind[i] == STOP_LINK && s->absent_at[i] == at)) {
      /* A link the command made on the way to a host-trusted path: the host would read the path through it. */
      char *link = prefix(s->absent[i], at);
      if (link) w.lines += quarantine(dir, name, link, me, &w.moved);
      free(link);
    }
    if (dir >= 0) close(dir);
    free(copy);
  }
  /* Renaming during a listing may show an entry twice or move another; a pass that moved something is followed by another. */
  for (int pass = 0; pass < 4; pass++) {
    size_t moved = w.moved.n;
    walk_all(&w);
    if (w.limit || w.moved.n == moved) break;
  }
  if (w.limit) {
    fprintf(stderr, "%s: the write trees hold more than %d directories after the run (listing stopped at %s): a host-trusted name the command created beyond it was not looked for. Look before the host runs anything there\n",
            me, TRUST_MAX_DIRS, w.limit);
    w.lines++;
  }
  if (w.nunlisted) {
    fprintf(stderr, "%s: after the run, %s could not be listed (%s)%s: a host-trusted name the command created there was not looked for. Look before the host runs anything there\n", me,
            w.unlisted ? w.unlisted : "a directory", !w.unlisted_errno ? "deeper than the check goes" : strerror(w.unlisted_errno),
            w.nunlisted > 1 ? ", nor other directories" : "");
    w.lines++;
  }
  free(w.moved.dev), free(w.moved.ino), free(w.first), free(w.unlisted), free(w.limit);
  return w.lines;
}
