/*
 * Landlock, for boxwright-sandbox's in-sandbox step (../launcher/inside.c):
 * parse a ruleset, apply it to this process, or print it (--check).
 *
 * The rules, read from the rules fd to its end, are NUL-terminated tokens
 * (like bwrap's --args); a record is a keyword and its operands:
 *
 *   require-abi K        refuse unless the kernel's Landlock ABI is >= K
 *   fs RIGHTS PATH       allow RIGHTS (comma-separated names, see `rights`)
 *                        on PATH and, for a directory, everything beneath it
 *   scope NAME           abstract-unix-socket | signal; applied where the
 *                        kernel has scopes (ABI 6), skipped below
 *
 * Everything is fail-closed: a malformed record, a path that cannot be
 * opened, a kernel without Landlock, any failing syscall: sandbox_refuse(),
 * which says why, writes `refused KIND` on the ready fd and exits 125.
 *
 * glibc has no Landlock wrappers, so the syscalls go through syscall(2),
 * and every constant newer than the oldest uapi header is defined here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/landlock.h>
#include "../launcher/sandbox.h"
#include "landlock.h"

/* Syscall numbers: the same on x86_64 and aarch64 (the unified table). */
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_landlock_add_rule
#define SYS_landlock_add_rule 445
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif

/* Newer than the oldest <linux/landlock.h> (ABI 1). */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13) /* ABI 2 */
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14) /* ABI 3 */
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */
#endif
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#endif
#ifndef LANDLOCK_SCOPE_SIGNAL
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1) /* ABI 6 */
#endif

/*
 * struct landlock_ruleset_attr as of ABI 6. Older headers lack fields, so it
 * is spelled here; the size passed to the kernel is the one the running ABI
 * knows (ruleset_attr_size), so an older kernel never sees the new fields.
 */
struct ruleset_attr {
  uint64_t handled_access_fs;  /* ABI 1 */
  uint64_t handled_access_net; /* ABI 4; boxwright leaves the network to bwrap */
  uint64_t scoped;             /* ABI 6 */
};

/* struct open_how (openat2), spelled here for the same reason. */
struct open_how_v0 {
  uint64_t flags;
  uint64_t mode;
  uint64_t resolve;
};
#define RESOLVE_NO_MAGICLINKS_ 0x02
#define RESOLVE_NO_SYMLINKS_ 0x04


/* A name in the rules, its bit, the ABI that introduced it. */
struct name_bit {
  const char *name;
  uint64_t bit;
  int abi;
};

/* The filesystem rights, in the kernel's bit order (which --check prints). */
static const struct name_bit rights[] = {
    {"execute", LANDLOCK_ACCESS_FS_EXECUTE, 1},
    {"write_file", LANDLOCK_ACCESS_FS_WRITE_FILE, 1},
    {"read_file", LANDLOCK_ACCESS_FS_READ_FILE, 1},
    {"read_dir", LANDLOCK_ACCESS_FS_READ_DIR, 1},
    {"remove_dir", LANDLOCK_ACCESS_FS_REMOVE_DIR, 1},
    {"remove_file", LANDLOCK_ACCESS_FS_REMOVE_FILE, 1},
    {"make_char", LANDLOCK_ACCESS_FS_MAKE_CHAR, 1},
    {"make_dir", LANDLOCK_ACCESS_FS_MAKE_DIR, 1},
    {"make_reg", LANDLOCK_ACCESS_FS_MAKE_REG, 1},
    {"make_sock", LANDLOCK_ACCESS_FS_MAKE_SOCK, 1},
    {"make_fifo", LANDLOCK_ACCESS_FS_MAKE_FIFO, 1},
    {"make_block", LANDLOCK_ACCESS_FS_MAKE_BLOCK, 1},
    {"make_sym", LANDLOCK_ACCESS_FS_MAKE_SYM, 1},
    {"refer", LANDLOCK_ACCESS_FS_REFER, 2},
    {"truncate", LANDLOCK_ACCESS_FS_TRUNCATE, 3},
    {"ioctl_dev", LANDLOCK_ACCESS_FS_IOCTL_DEV, 5},
};

/* The rights the kernel accepts on a rule for a file that is not a directory. */
static const uint64_t file_rights = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |
                                    LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |
                                    LANDLOCK_ACCESS_FS_IOCTL_DEV;

static const struct name_bit scopes[] = {
    {"abstract-unix-socket", LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET, 6},
    {"signal", LANDLOCK_SCOPE_SIGNAL, 6},
};


/* The kernel's Landlock ABI: 0 without Landlock (ENOSYS) or with it disabled (EOPNOTSUPP). */
int landlock_abi(void) {
  long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return abi < 0 ? 0 : (int)abi;
}

/* RIGHTS: comma-separated names from `rights`, at least one, no repeats. */
static uint64_t parse_rights(const char *s) {
  uint64_t mask = 0;
  const char *p = s;
  for (;;) {
    size_t len = strcspn(p, ",");
    size_t i;
    for (i = 0; i < COUNT(rights); i++)
      if (strlen(rights[i].name) == len && memcmp(rights[i].name, p, len) == 0) break;
    if (i == COUNT(rights)) sandbox_refuse("rules", "unknown right '%.*s' in '%s'", (int)len, p, s);
    if (mask & rights[i].bit) sandbox_refuse("rules", "right '%s' repeated in '%s'", rights[i].name, s);
    mask |= rights[i].bit;
    if (p[len] == '\0') return mask;
    p += len + 1;
  }
}

/*
 * The lowering emits canonical absolute paths; anything else (a relative
 * path, an empty, `.` or `..` component, a trailing slash) means the rules
 * were not written by it, and is refused rather than interpreted.
 */
static void check_canonical(const char *path) {
  if (path[0] != '/') sandbox_refuse("rules", "not an absolute path: '%s'", path);
  if (path[1] == '\0') return; /* "/" */
  for (const char *c = path + 1;;) {
    size_t len = strcspn(c, "/");
    if (len == 0 || (len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.'))
      sandbox_refuse("rules", "not a canonical path: '%s'", path);
    if (c[len] == '\0') return;
    c += len + 1;
  }
}

/* A decimal ABI number, 0..999. */
static int parse_abi(const char *s) {
  size_t len = strlen(s);
  if (len == 0 || len > 3 || strspn(s, "0123456789") != len) sandbox_refuse("rules", "not an ABI number: '%s'", s);
  return atoi(s);
}

void landlock_parse(char *buf, size_t len, struct ruleset *rs) {
  if (len > 0 && buf[len - 1] != '\0') sandbox_refuse("rules", "the rules do not end with a NUL");
  /* The tokens, in place. */
  size_t ntok = 0;
  for (size_t i = 0; i < len; i++) ntok += buf[i] == '\0';
  char **tok = calloc(ntok + 1, sizeof *tok);
  rs->fs = calloc(ntok + 1, sizeof *rs->fs);
  if (!tok || !rs->fs) sandbox_refuse("rules", "out of memory");
  for (size_t i = 0, t = 0; i < len; i += strlen(buf + i) + 1) tok[t++] = buf + i;

  for (size_t t = 0; t < ntok;) {
    const char *kw = tok[t];
    if (strcmp(kw, "require-abi") == 0 && t + 1 < ntok) {
      int k = parse_abi(tok[t + 1]);
      if (k > rs->require_abi) rs->require_abi = k;
      t += 2;
    } else if (strcmp(kw, "fs") == 0 && t + 2 < ntok) {
      check_canonical(tok[t + 2]);
      rs->fs[rs->nfs].rights = parse_rights(tok[t + 1]);
      rs->fs[rs->nfs].path = tok[t + 2];
      rs->nfs++;
      t += 3;
    } else if (strcmp(kw, "scope") == 0 && t + 1 < ntok) {
      size_t i;
      for (i = 0; i < COUNT(scopes); i++)
        if (strcmp(tok[t + 1], scopes[i].name) == 0) break;
      if (i == COUNT(scopes)) sandbox_refuse("rules", "unknown scope '%s'", tok[t + 1]);
      rs->scopes |= scopes[i].bit;
      t += 2;
    } else {
      sandbox_refuse("rules", "malformed record at token %zu ('%s')", t + 1, kw);
    }
  }
  free(tok);
}

/* The fs rights and scopes the running ABI knows. */
static uint64_t known_mask(const struct name_bit *table, size_t n, int abi) {
  uint64_t mask = 0;
  for (size_t i = 0; i < n; i++)
    if (table[i].abi <= abi) mask |= table[i].bit;
  return mask;
}

/* Comma-separated names of the bits in mask, in table order; "" for none. */
static void names(const struct name_bit *table, size_t n, uint64_t mask, char *out, size_t size) {
  out[0] = '\0';
  for (size_t i = 0; i < n; i++) {
    if (!(mask & table[i].bit)) continue;
    if (out[0]) strncat(out, ",", size - strlen(out) - 1);
    strncat(out, table[i].name, size - strlen(out) - 1);
  }
}

/* --check: the parsed rules, one record a line; bytes below 0x20 and \ escaped. */
int landlock_check(const struct ruleset *rs) {
  char list[512];
  printf("abi %d\n", landlock_abi());
  if (rs->require_abi) printf("require-abi %d\n", rs->require_abi);
  for (size_t i = 0; i < rs->nfs; i++) {
    names(rights, COUNT(rights), rs->fs[i].rights, list, sizeof list);
    printf("fs %s ", list);
    for (const unsigned char *c = (const unsigned char *)rs->fs[i].path; *c; c++)
      if (*c < 0x20 || *c == '\\') printf("\\x%02x", *c);
      else putchar(*c);
    putchar('\n');
  }
  for (size_t i = 0; i < COUNT(scopes); i++)
    if (rs->scopes & scopes[i].bit) printf("scope %s\n", scopes[i].name);
  return fflush(stdout) == 0 ? 0 : EXIT_REFUSED;
}

/* The prefix of struct ruleset_attr that the running ABI knows. */
static size_t ruleset_attr_size(int abi) {
  if (abi >= 6) return sizeof(struct ruleset_attr);
  if (abi >= 4) return offsetof(struct ruleset_attr, scoped);
  return offsetof(struct ruleset_attr, handled_access_net);
}

/*
 * Opens a canonical path as O_PATH without following a symbolic link
 * anywhere in it: openat2(RESOLVE_NO_SYMLINKS), or, where openat2 is
 * missing (a kernel before 5.6, or boxwright's own seccomp filter, which
 * answers ENOSYS because it cannot read openat2's creation mode), one
 * component at a time with O_NOFOLLOW, refusing any component that is a
 * link (ELOOP, as openat2 would say).
 */
static int open_no_symlinks(const char *path) {
  struct open_how_v0 how = {.flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS_ | RESOLVE_NO_MAGICLINKS_};
  int fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
  if (fd >= 0 || errno != ENOSYS) return fd;
  fd = open("/", O_PATH | O_CLOEXEC | O_DIRECTORY);
  char part[PATH_MAX];
  for (const char *p = path + 1; fd >= 0 && *p;) {
    size_t n = strcspn(p, "/");
    if (n >= sizeof part) return close(fd), errno = ENAMETOOLONG, -1;
    memcpy(part, p, n), part[n] = 0;
    int next = openat(fd, part, O_PATH | O_CLOEXEC | O_NOFOLLOW);
    close(fd);
    struct stat st;
    if (next >= 0 && fstat(next, &st) == 0 && S_ISLNK(st.st_mode)) return close(next), errno = ELOOP, -1;
    fd = next;
    p += n + (p[n] == '/');
  }
  return fd;
}

/* Applies the ruleset to this process; returns the ABI, *scoped the scopes in force. Refuses on any failure. */
int landlock_apply(const struct ruleset *rs, uint64_t *scoped) {
  int abi = landlock_abi();
  if (abi < 1) sandbox_refuse("landlock", "the kernel offers no Landlock (ABI 0: not built in, or not enabled in lsm=)");
  if (abi < rs->require_abi) sandbox_refuse("abi", "the rules need Landlock ABI %d, the kernel offers %d", rs->require_abi, abi);

  /*
   * Best-effort compatibility, as the kernel documentation describes: the
   * ruleset handles every right the kernel knows (so whatever no rule grants
   * is denied), and rights newer than the kernel are dropped from it and from
   * the rules. `execute`, the reason for this helper, is ABI 1: never dropped.
   */
  struct ruleset_attr attr = {0};
  attr.handled_access_fs = known_mask(rights, COUNT(rights), abi);
  attr.scoped = rs->scopes & known_mask(scopes, COUNT(scopes), abi);
  int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, ruleset_attr_size(abi), 0);
  if (ruleset < 0) sandbox_refuse("landlock", "landlock_create_ruleset: %s", strerror(errno));

  for (size_t i = 0; i < rs->nfs; i++) {
    /*
     * Canonical paths only: openat2 with RESOLVE_NO_SYMLINKS refuses a path
     * with a symbolic link anywhere in it. A rule is applied to whatever the
     * path names when the sandbox starts; following a link there would let a
     * link planted in a writable tree (by an earlier run) move a grant onto
     * its target. The lowering resolves links at compile time, so a link
     * found here means the disk changed since: refuse.
     */
    int fd = open_no_symlinks(rs->fs[i].path);
    if (fd < 0)
      sandbox_refuse("path", "cannot open '%s'%s: %s", rs->fs[i].path, errno == ELOOP ? " (a symbolic link in the path)" : "",
             strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0) sandbox_refuse("path", "cannot stat '%s': %s", rs->fs[i].path, strerror(errno));

    struct landlock_path_beneath_attr beneath = {.allowed_access = rs->fs[i].rights & attr.handled_access_fs,
                                                 .parent_fd = fd};
    /* The kernel takes only file rights on a rule for a file that is not a directory. */
    if (!S_ISDIR(st.st_mode)) beneath.allowed_access &= file_rights;
    /* Nothing left to grant (directory rights on a file, or rights the ABI lacks): no rule, which denies. */
    if (beneath.allowed_access != 0 &&
        syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0) < 0)
      sandbox_refuse("landlock", "landlock_add_rule '%s': %s", rs->fs[i].path, strerror(errno));
    close(fd);
  }

  /* Required by landlock_restrict_self without CAP_SYS_ADMIN; bwrap may have set it already. */
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) sandbox_refuse("landlock", "PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
  if (syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
    sandbox_refuse("landlock", "landlock_restrict_self: %s", strerror(errno));
  close(ruleset);
  *scoped = attr.scoped;
  return abi;
}

void landlock_scope_names(uint64_t scoped, char *out, size_t size) { names(scopes, COUNT(scopes), scoped, out, size); }
