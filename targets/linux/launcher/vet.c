/*
 * What the host trusts after a run, vetted before one: who can change the
 * files a launch reads or executes (its own directory, the config,
 * bubblewrap).
 *
 * Two questions, each answered here once; the launcher asks them at every
 * run, and `boxwright compile` and `boxwright run` ask them through
 * `boxwright-sandbox --vet` (main.c) before they write a launch:
 *
 * - path_untrusted: can anyone but root (or OWNER) change what PATH names?
 *   Every component from / down, not following links: owned by root or
 *   OWNER, and not writable by group or others — a directory that is (the
 *   host's /tmp) only with the sticky bit, where an entry can be renamed or
 *   removed only by its owner or the directory's, who must be root or OWNER
 *   (the next component's own check).
 * - mounts_reach: can a sandbox with these mounts change what PATH names
 *   on the host? A compiled view mounts each host path onto itself, so a
 *   sandbox path is a host path. The mount that governs PATH (the last one
 *   at PATH or above it: a later mount hides what an earlier one put
 *   below) writable: yes. Else, walking up: a writable mount over PATH's
 *   directory lets the workload rename the entry on the way to PATH (and
 *   put another in its place) unless that entry is a mount point (rename
 *   fails with EBUSY), and the walk goes on above a mount point, since
 *   renaming a directory carries the mounts below it along. For a tree
 *   (a directory the host reads files from) a writable mount anywhere
 *   below it reaches it too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bwrap-argv.h"
#include "sandbox.h"
#include "vet.h"

static const char *PRINTF(3, 4) say_why(char *why, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, n, fmt, ap);
  va_end(ap);
  return why;
}

/* Why the one component `prefix` fails the check, or NULL. */
static const char *component_untrusted(const char *prefix, int last, uid_t owner, char *why, size_t n) {
  struct stat st;
  if (lstat(prefix, &st) < 0) return say_why(why, n, "cannot read %s: %s", prefix, strerror(errno));
  if (S_ISLNK(st.st_mode)) return say_why(why, n, "%s is a symbolic link", prefix);
  if (st.st_uid != 0 && st.st_uid != owner)
    return owner == 0 ? say_why(why, n, "%s belongs to uid %u, not to root", prefix, (unsigned)st.st_uid)
                      : say_why(why, n, "%s belongs to uid %u, neither root nor you (uid %u)", prefix, (unsigned)st.st_uid, (unsigned)owner);
  if (!last && !S_ISDIR(st.st_mode)) return say_why(why, n, "%s is not a directory", prefix);
  if ((st.st_mode & 022) && (last || !(st.st_mode & S_ISVTX)))
    return say_why(why, n, "%s can be written by others (mode %04o)", prefix, (unsigned)(st.st_mode & 07777));
  return NULL;
}

const char *path_untrusted(const char *path, uid_t owner, char *why, size_t n) {
  if (path[0] != '/') return say_why(why, n, "%s is not an absolute path", path);
  if (strcmp(path, "/") == 0) return component_untrusted("/", 1, owner, why, n);
  const char *result = component_untrusted("/", 0, owner, why, n);
  size_t len = strlen(path);
  char *prefix = malloc(len + 1);
  if (!prefix) return say_why(why, n, "out of memory");
  /* Each prefix that ends before a '/' or at the end: /home, /home/u, /home/u/out. */
  for (size_t end = 1; !result && end <= len; end++) {
    if (end < len && path[end] != '/') continue;
    memcpy(prefix, path, end);
    prefix[end] = '\0';
    result = component_untrusted(prefix, end == len, owner, why, n);
  }
  free(prefix);
  return result;
}

static int is_under(const char *p, const char *root) {
  size_t n = strlen(root);
  if (strcmp(root, "/") == 0) return p[0] == '/';
  return strncmp(p, root, n) == 0 && (p[n] == '\0' || p[n] == '/');
}

static int strictly_under(const char *p, const char *root) { return is_under(p, root) && strcmp(p, root) != 0; }

/* The options that mount something, and what: a host path onto the sandbox (writable or not) or something of the sandbox's own. */
static const struct {
  const char *name;
  int host, writable, dest; /* dest: the operand that is the mount's path */
} mounting[] = {
    {"--bind", 1, 1, 1},        {"--bind-try", 1, 1, 1},      {"--dev-bind", 1, 1, 1},   {"--ro-bind", 1, 0, 1},
    {"--ro-bind-try", 1, 0, 1}, {"--bind-fd", 1, 1, 1},       {"--ro-bind-fd", 1, 0, 1}, {"--tmpfs", 0, 0, 0},
    {"--proc", 0, 0, 0},        {"--dev", 0, 0, 0},           {"--ro-bind-data", 0, 0, 1}, {"--bind-data", 0, 0, 1},
    {"--file", 0, 0, 1},
};

int view_mounts(const char *buf, size_t len, struct mounts *m, char *err, size_t errsize) {
  memset(m, 0, sizeof *m);
  if (len == 0 || buf[len - 1] != '\0') return snprintf(err, errsize, "it does not end with a NUL"), -1;
  size_t cap = 0;
  for (size_t i = 0; i < len; i += strlen(buf + i) + 1) cap++;
  m->op = calloc(cap ? cap : 1, sizeof *m->op);
  if (!m->op) return snprintf(err, errsize, "out of memory"), -1;
  for (size_t i = 0; i < len;) {
    const char *opt = buf + i;
    size_t k;
    for (k = 0; k < bwrap_option_count; k++)
      if (strcmp(opt, bwrap_options[k].name) == 0) break;
    if (k == bwrap_option_count) return snprintf(err, errsize, "\"%s\" is not an option a compiled view holds", opt), -1;
    i += strlen(opt) + 1;
    const char *ops[2] = {NULL, NULL};
    for (int o = 0; o < bwrap_options[k].operands; o++) {
      if (i >= len) return snprintf(err, errsize, "%s needs %d operands", opt, bwrap_options[k].operands), -1;
      ops[o] = buf + i;
      i += strlen(ops[o]) + 1;
    }
    if (strcmp(opt, "--remount-ro") == 0) {
      /* Read-only from now on: the latest mount at exactly that path (bubblewrap remounts that one). */
      for (size_t j = m->n; j-- > 0;)
        if (strcmp(m->op[j].dest, ops[0]) == 0) {
          m->op[j].writable = 0;
          break;
        }
      continue;
    }
    for (size_t t = 0; t < COUNT(mounting); t++) {
      if (strcmp(opt, mounting[t].name) != 0) continue;
      struct mount_op *op = &m->op[m->n++];
      op->dest = ops[mounting[t].dest];
      /* A descriptor's source is unknown here: taken as its destination, as a compiled view's binds are. */
      op->src = mounting[t].host && strncmp(opt + strlen(opt) - 3, "-fd", 3) != 0 ? ops[0] : op->dest;
      op->host = mounting[t].host;
      op->writable = mounting[t].writable;
      break;
    }
  }
  return 0;
}

/* The mount that governs sandbox path p: the last one at p or above it. */
static const struct mount_op *governing(const struct mounts *m, const char *p) {
  const struct mount_op *g = NULL;
  for (size_t i = 0; i < m->n; i++)
    if (is_under(p, m->op[i].dest)) g = &m->op[i];
  return g;
}

static int writable_host(const struct mount_op *op) { return op && op->host && op->writable; }

const struct mount_op *mounts_reach(const struct mounts *m, const char *path, int tree) {
  for (size_t i = 0; i < m->n; i++) {
    const struct mount_op *op = &m->op[i];
    if (!writable_host(op)) continue;
    if (tree && strictly_under(op->src, path)) return op;
    /* A host path mounted elsewhere in the sandbox: the walk below is in the sandbox's paths, so any such bind over it counts. */
    if (strcmp(op->src, op->dest) != 0 && (is_under(path, op->src) || (tree && is_under(op->src, path)))) return op;
  }
  const struct mount_op *g = governing(m, path);
  if (writable_host(g)) return g;
  char *child = strdup(path);
  if (!child) return NULL;
  const struct mount_op *found = NULL;
  while (strcmp(child, "/") != 0) {
    char *slash = strrchr(child, '/');
    char *parent = slash == child ? strdup("/") : strndup(child, (size_t)(slash - child));
    if (!parent) break;
    const struct mount_op *above = governing(m, parent);
    if (!writable_host(above)) {
      free(parent);
      break;
    }
    const struct mount_op *own = governing(m, child);
    if (!own || strcmp(own->dest, child) != 0) {
      /* `child` is an entry of a writable directory, not a mount point: it can be renamed away and replaced. */
      found = above;
      free(parent);
      break;
    }
    free(child);
    child = parent;
  }
  free(child);
  return found;
}

/*
 * boxwright-sandbox --vet [--args NAME FILE | --views-on-stdin]... [--file PATH]... [--tree PATH]...
 *                         [--root-owned PATH]... [--private PATH]...
 *
 * The checks above for the TypeScript side (`boxwright compile`, `run`,
 * `doctor`: targets/linux/run/sandbox/vet.ts), so that each is written once. NAME is a
 * principal and FILE its .bwrap.args (--views-on-stdin: standard input
 * holds them, each as NAME NUL, its length in bytes NUL, the argv's
 * bytes); each PATH of --file (a file) or
 * --tree (a directory and what is below it) is asked against every
 * principal's mounts; --root-owned PATH must be root's alone, --private
 * PATH root's or this user's. One record per finding on stdout, each field
 * NUL-terminated:
 *
 *   reach PATH NAME DEST      NAME's sandbox can change PATH: DEST is mounted writable
 *   untrusted PATH REASON     someone else could change PATH
 *
 * Exit 0 (findings or none); 2 on a bad command line; 125 when an argv
 * cannot be read.
 */
/* The views' bytes on stdin at most: far above any real config's (5,000 principals' argv are a few MiB); a runaway writer is refused. */
#define MAX_VIEWS_BYTES (256 << 20)

struct view {
  const char *name;
  struct mounts m;
};

/* One more view in *views (grown as needed: a config has as many principals as it names); NULL when out of memory. */
static struct view *next_view(struct view **views, size_t *n, size_t *cap) {
  if (*n == *cap) {
    size_t grown = *cap ? *cap * 2 : 16;
    struct view *v = grown > SIZE_MAX / sizeof *v ? NULL : realloc(*views, grown * sizeof *v);
    if (!v) return NULL;
    *views = v;
    *cap = grown;
  }
  return &(*views)[*n];
}

int vet_main(int argc, char **argv) {
  struct view *views = NULL;
  size_t nviews = 0, cap = 0;
  int status = 0;
  char err[512], why[PATH_MAX + 256];
  for (int i = 2; i < argc; i++) {
    const char *opt = argv[i];
    if (strcmp(opt, "--views-on-stdin") == 0) {
      size_t len, at = 0;
      char *in = read_all(0, MAX_VIEWS_BYTES, &len);
      if (!in && errno == EFBIG) {
        fprintf(stderr, "boxwright-sandbox --vet: the views on stdin exceed %d MiB\n", MAX_VIEWS_BYTES >> 20);
        return EXIT_REFUSED;
      }
      if (!in) {
        fprintf(stderr, "boxwright-sandbox --vet: cannot read the views on stdin: %s\n", strerror(errno));
        return EXIT_REFUSED;
      }
      while (at < len) {
        const char *name = in + at;
        at += strlen(name) + 1;
        const char *size = in + (at < len ? at : len);
        at += strlen(size) + 1;
        char *end;
        unsigned long n = strtoul(size, &end, 10);
        if (at > len || !*size || *end || size[0] == '-' || n > len - at) {
          fprintf(stderr, "boxwright-sandbox --vet: the views on stdin: view %zu: not NAME, LENGTH, BYTES\n", nviews + 1);
          return EXIT_REFUSED;
        }
        struct view *v = next_view(&views, &nviews, &cap);
        if (!v) {
          fprintf(stderr, "boxwright-sandbox --vet: the views on stdin: view %zu: out of memory\n", nviews + 1);
          return EXIT_REFUSED;
        }
        if (view_mounts(in + at, n, &v->m, err, sizeof err) < 0) {
          fprintf(stderr, "boxwright-sandbox --vet: the views on stdin: view %zu (%s): %s\n", nviews + 1, name, err);
          return EXIT_REFUSED;
        }
        v->name = name;
        nviews++;
        at += n;
      }
    } else if (strcmp(opt, "--args") == 0 && i + 2 < argc) {
      struct view *v = next_view(&views, &nviews, &cap);
      int fd = v ? open(argv[i + 2], O_RDONLY | O_CLOEXEC) : -1;
      size_t len;
      char *buf = fd < 0 ? NULL : read_all(fd, MAX_VIEWS_BYTES, &len);
      if (!buf || view_mounts(buf, len, &v->m, err, sizeof err) < 0) {
        fprintf(stderr, "boxwright-sandbox --vet: %s: %s\n", argv[i + 2], buf ? err : !v ? "out of memory" : strerror(errno));
        return EXIT_REFUSED;
      }
      if (fd >= 0) close(fd);
      v->name = argv[i + 1];
      nviews++;
      i += 2;
    } else if ((strcmp(opt, "--file") == 0 || strcmp(opt, "--tree") == 0) && i + 1 < argc) {
      const char *path = argv[++i];
      for (size_t v = 0; v < nviews; v++) {
        const struct mount_op *op = mounts_reach(&views[v].m, path, opt[2] == 't');
        if (op) printf("reach%c%s%c%s%c%s%c", 0, path, 0, views[v].name, 0, op->dest, 0);
      }
    } else if ((strcmp(opt, "--root-owned") == 0 || strcmp(opt, "--private") == 0) && i + 1 < argc) {
      const char *path = argv[++i];
      if (path_untrusted(path, opt[2] == 'r' ? 0 : geteuid(), why, sizeof why)) printf("untrusted%c%s%c%s%c", 0, path, 0, why, 0);
    } else {
      fprintf(stderr, "boxwright-sandbox --vet: unexpected '%s' (usage: --vet [--args NAME FILE]... [--file PATH]... [--tree PATH]... [--root-owned PATH]... [--private PATH]...)\n", opt);
      status = EXIT_USAGE;
      break;
    }
  }
  if (fflush(stdout) != 0) return EXIT_REFUSED;
  return status;
}
