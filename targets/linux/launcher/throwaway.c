/*
 * The throw-away root of `boxwright learn`: the host, every write of which
 * lands in a scratch layer that vanishes with the run.
 *
 *   boxwright-sandbox --throwaway-root BASE [--writable DIR]... [--trace-size BYTES]
 *                     [--writes-size BYTES] -- PROG [ARGS...]
 *
 * BASE is a directory of the caller's own (mode 0700) holding an empty
 * `scratch/` and a `keep/`. In a mount namespace of its own (and a user
 * namespace mapping only the caller's uid and gid, unless it is root) this
 * program mounts a tmpfs on BASE/scratch and builds there a copy of the
 * host's tree out of overlays: each host directory with no mount below it
 * becomes one overlay, the host's directory its lower layer and a directory
 * of the scratch tmpfs its upper; a directory with mounts below it becomes
 * a directory of the scratch tmpfs with its entries rebuilt one by one
 * (symbolic links copied, regular files bound read-only, a socket, FIFO or
 * device only a name: no read-only mount keeps a connect or a write from
 * reaching the host through one). A file system overlayfs cannot stack on
 * is an empty directory in the run. /proc, /dev and
 * /sys are the host's, bound (bubblewrap mounts its own /proc and /dev over
 * them). BASE itself is hidden under an empty tmpfs. /.boxwright/learn,
 * where strace writes its files, is a tmpfs of its own: no host directory
 * stays writable in the run. The scratch tmpfs holds at most --writes-size
 * bytes (default WRITES_SIZE), the trace tmpfs --trace-size (TRACE_SIZE):
 * the kernel refuses a write past either (ENOSPC), and the wait
 * (throwaway-wait.c) stops the run when one is full. Then the new
 * tree becomes the root (pivot_root), the old one is detached, and PROG
 * runs in the caller's directory. Nothing PROG or its children write can
 * reach the host: writes go to the upper layers, which live on the scratch
 * tmpfs of a namespace no other process shares.
 *
 * When PROG ends, the upper layers are what the run changed. They are
 * walked and written to `changes` on the trace tmpfs (its bound holds them
 * too), one record per entry: a kind letter and the
 * host path, each ended by a NUL (`f` file, `d` directory, `l` symbolic
 * link, `o` another kind, `w` a whiteout: the path was removed, `x` a
 * directory that replaced the host's: opaque). That file and strace's
 * (`trace.PID`), regular files only, are copied from the trace tmpfs to
 * BASE/keep through a descriptor of it opened before the namespace, and
 * BASE/keep/bound says `trace` or `writes` when the run was stopped at that
 * bound. The exit status is PROG's, 128+N for a signal N.
 *
 * A set-up that fails is a message and exit 125: PROG never runs.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sandbox.h"
#include "throwaway.h"

#define KEEP_INSIDE "/.boxwright/learn"
#define MAX_MOUNTS 4096
#define MAX_LAYERS 4096
/* The defaults of learn's --max-trace and --max-writes (app/learn/bounds.ts). */
#define TRACE_SIZE (256ULL << 20)
#define WRITES_SIZE (1ULL << 30)

static void __attribute__((noreturn)) PRINTF(1, 2) refuse(const char *fmt, ...) {
  va_list ap;
  fputs("boxwright-sandbox --throwaway-root: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs("; nothing was run\n", stderr);
  exit(EXIT_REFUSED);
}

static char *mounts[MAX_MOUNTS];
static size_t nmounts;
/* Layer i: the host directory it stands for. Its upper is scratch/layers/i/u. */
static char *layers[MAX_LAYERS];
static size_t nlayers;
static int unprivileged;

static int under_or_at(const char *path, const char *dir) {
  size_t n = strlen(dir);
  if (strcmp(dir, "/") == 0) return path[0] == '/';
  return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static int strictly_under(const char *path, const char *dir) { return strcmp(path, dir) != 0 && under_or_at(path, dir); }

static char *join(const char *a, const char *b) {
  char *s;
  if (asprintf(&s, "%s%s%s", a, strcmp(a, "/") == 0 || b[0] == '\0' ? "" : "/", b) < 0) refuse("out of memory");
  return s;
}

/* mountinfo's mount points, octal escapes (\040) undone. */
static void read_mounts(const char *skip) {
  FILE *f = fopen("/proc/self/mountinfo", "re");
  if (!f) refuse("cannot read /proc/self/mountinfo: %s", strerror(errno));
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, f) > 0) {
    char *p = line;
    for (int field = 0; field < 4 && p; field++) p = strchr(p, ' '), p = p ? p + 1 : NULL;
    if (!p) continue;
    char *end = strchr(p, ' ');
    if (end) *end = '\0';
    char *out = p;
    for (char *in = p; *in;) {
      if (in[0] == '\\' && in[1] >= '0' && in[1] <= '7' && in[2] >= '0' && in[2] <= '7' && in[3] >= '0' && in[3] <= '7') {
        *out++ = (char)(((in[1] - '0') << 6) | ((in[2] - '0') << 3) | (in[3] - '0'));
        in += 4;
      } else
        *out++ = *in++;
    }
    *out = '\0';
    if (under_or_at(p, skip)) continue;
    if (nmounts == MAX_MOUNTS) refuse("more than %d mounts", MAX_MOUNTS);
    mounts[nmounts++] = strdup(p);
  }
  free(line);
  fclose(f);
}

/*
 * Without root: an overlay root for a directory the run may write, at the
 * highest ancestor whose owner and group are the caller's all the way down
 * (the directory itself when it is not theirs: /tmp). Recorded as a mount
 * point, so that build() rebuilds the directories above it.
 */
static void writable_root(const char *dir) {
  /* Called inside the namespace: the caller's own files show as uid and gid 0 there. */
  struct stat st;
  if (dir[0] != '/' || lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || strcmp(dir, "/") == 0) return;
  char *at = strdup(dir);
  for (;;) {
    char *parent = strdup(at);
    char *slash = strrchr(parent, '/');
    if (slash == parent) slash[1] = '\0';
    else *slash = '\0';
    if (strcmp(parent, "/") == 0 || lstat(parent, &st) < 0 || st.st_uid != getuid() || st.st_gid != getgid()) {
      free(parent);
      break;
    }
    free(at);
    at = parent;
  }
  if (nmounts == MAX_MOUNTS) refuse("more than %d mounts", MAX_MOUNTS);
  mounts[nmounts++] = at;
}

static int has_mount_below(const char *path) {
  for (size_t i = 0; i < nmounts; i++)
    if (strictly_under(mounts[i], path)) return 1;
  return 0;
}

static void make_dir(const char *path, mode_t mode) {
  if (mkdir(path, mode) < 0 && errno != EEXIST) refuse("cannot make %s: %s", path, strerror(errno));
  chmod(path, mode);
}

static void bind_readonly(const char *src, const char *dst, int recursive) {
  struct statvfs sv;
  if (statvfs(src, &sv) < 0) refuse("cannot read the mount flags of %s: %s", src, strerror(errno));
  if (mount(src, dst, NULL, MS_BIND | (recursive ? MS_REC : 0), NULL) < 0) refuse("cannot bind %s: %s", src, strerror(errno));
  /* Read-only on top, the flags a user namespace may not clear kept as they are. */
  unsigned long kept = (sv.f_flag & ST_NOSUID ? MS_NOSUID : 0) | (sv.f_flag & ST_NODEV ? MS_NODEV : 0) | (sv.f_flag & ST_NOEXEC ? MS_NOEXEC : 0) |
                       (sv.f_flag & ST_NOATIME ? MS_NOATIME : 0) | (sv.f_flag & ST_NODIRATIME ? MS_NODIRATIME : 0) | (sv.f_flag & ST_RELATIME ? MS_RELATIME : 0);
  if (mount(NULL, dst, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | kept, NULL) < 0) refuse("cannot make %s read-only: %s", dst, strerror(errno));
}

/* One overlay: the host directory `host` as the lower layer of `target`. 0, or -1 (errno) when the kernel refuses. */
static int overlay(const char *scratch, const char *host, const char *target) {
  if (nlayers == MAX_LAYERS) refuse("more than %d layers", MAX_LAYERS);
  char *dir, *upper, *work;
  if (asprintf(&dir, "%s/layers/%zu", scratch, nlayers) < 0) refuse("out of memory");
  upper = join(dir, "u"), work = join(dir, "w");
  make_dir(dir, 0700);
  make_dir(upper, 0755);
  make_dir(work, 0700);
  struct stat st;
  if (lstat(host, &st) == 0) chmod(upper, st.st_mode & 07777);
  /* Paths through descriptors: no escaping of `,` `:` or `\` in a host path, whatever it holds. */
  int lower = open(host, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  int up = open(upper, O_PATH | O_DIRECTORY | O_CLOEXEC);
  int wk = open(work, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (lower < 0 || up < 0 || wk < 0) refuse("cannot open the layers of %s: %s", host, strerror(errno));
  char opts[256];
  snprintf(opts, sizeof opts, "lowerdir=/proc/self/fd/%d,upperdir=/proc/self/fd/%d,workdir=/proc/self/fd/%d%s", lower, up, wk,
           unprivileged ? ",userxattr" : "");
  int r = mount("overlay", target, "overlay", MS_NOSUID | MS_NODEV, opts);
  int e = errno;
  close(lower), close(up), close(wk);
  free(dir), free(upper), free(work);
  if (r < 0) {
    errno = e;
    return -1;
  }
  layers[nlayers++] = strdup(host);
  return 0;
}

/* The host tree at `host` rebuilt at `target`. */
static void build(const char *scratch, const char *host, const char *target) {
  struct stat st;
  if (lstat(host, &st) < 0 || !S_ISDIR(st.st_mode)) return;
  make_dir(target, st.st_mode & 07777);
  if (strcmp(host, "/proc") == 0 || strcmp(host, "/dev") == 0 || strcmp(host, "/sys") == 0) {
    if (mount(host, target, NULL, MS_BIND | MS_REC, NULL) < 0) refuse("cannot bind %s: %s", host, strerror(errno));
    return;
  }
  if (!has_mount_below(host)) {
    if (overlay(scratch, host, target) == 0) return;
    /*
     * A file system overlayfs cannot stack on: empty in the run. Bound
     * read-only it would show the host's sockets and FIFOs, which a
     * read-only mount does not close.
     */
    fprintf(stderr, "boxwright-sandbox --throwaway-root: %s cannot be a lower layer of an overlay (%s): it is empty in the run\n", host, strerror(errno));
    if (mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV | MS_RDONLY, "mode=0755") < 0) refuse("cannot cover %s: %s", host, strerror(errno));
    return;
  }
  DIR *d = opendir(host);
  if (!d) refuse("cannot list %s: %s", host, strerror(errno));
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char *h = join(host, e->d_name), *t = join(target, e->d_name);
    struct stat est;
    if (lstat(h, &est) == 0) {
      if (S_ISDIR(est.st_mode)) build(scratch, h, t);
      else if (S_ISLNK(est.st_mode)) {
        char link[PATH_MAX];
        ssize_t n = readlink(h, link, sizeof link - 1);
        if (n >= 0) {
          link[n] = '\0';
          if (symlink(link, t) < 0) refuse("cannot copy the link %s: %s", h, strerror(errno));
        }
      } else {
        int fd = open(t, O_CREAT | O_WRONLY | O_CLOEXEC, S_ISREG(est.st_mode) ? 0600 : 0);
        if (fd < 0) refuse("cannot make %s: %s", t, strerror(errno));
        close(fd);
        /*
         * A regular file is the host's, read-only. A socket, a FIFO or a
         * device is only a name here: a read-only mount stops none of them
         * (connect, a write to a FIFO, a device's own operations), and
         * each would reach the host.
         */
        if (S_ISREG(est.st_mode)) bind_readonly(h, t, 0);
      }
    }
    free(h), free(t);
  }
  closedir(d);
}

static void write_map(const char *file, const char *text) {
  int fd = open(file, O_WRONLY | O_CLOEXEC);
  if (fd < 0 || write_all(fd, text, strlen(text)) < 0) refuse("cannot write %s: %s", file, strerror(errno));
  close(fd);
}

/* A size in bytes: decimal, at least 1 MiB (the wait calls a tmpfs full 256 KiB before its end). */
static unsigned long long size_arg(const char *flag, const char *s) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (s[0] < '0' || s[0] > '9' || *end || errno || v < (1ULL << 20)) refuse("%s takes a number of bytes of at least 1 MiB, not %s", flag, s);
  return v;
}

static void check_private_dir(const char *path) {
  struct stat st;
  if (lstat(path, &st) < 0) refuse("%s: %s", path, strerror(errno));
  if (!S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077) != 0)
    refuse("%s must be a directory of uid %u with mode 0700", path, (unsigned)getuid());
}

int throwaway_main(int argc, char **argv) {
  const char *usage = "usage: boxwright-sandbox --throwaway-root BASE [--writable DIR]... [--trace-size BYTES] [--writes-size BYTES] -- PROG [ARGS...]";
  if (argc < 5 || strcmp(argv[1], "--throwaway-root") != 0) refuse("%s", usage);
  /* Nothing here outlives the caller: PROG in turn dies with this program (below). */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  const char *base = argv[2];
  int i = 3;
  const char *writable[64];
  size_t nwritable = 0;
  unsigned long long trace_size = TRACE_SIZE, writes_size = WRITES_SIZE;
  for (; i + 1 < argc && strcmp(argv[i], "--") != 0; i += 2) {
    if (strcmp(argv[i], "--trace-size") == 0) trace_size = size_arg(argv[i], argv[i + 1]);
    else if (strcmp(argv[i], "--writes-size") == 0) writes_size = size_arg(argv[i], argv[i + 1]);
    else if (strcmp(argv[i], "--writable") != 0) refuse("%s", usage);
    else if (nwritable == COUNT(writable)) refuse("more than %zu --writable directories", COUNT(writable));
    else writable[nwritable++] = argv[i + 1];
  }
  if (i + 1 >= argc || strcmp(argv[i], "--") != 0) refuse("%s", usage);
  char **prog = argv + i + 1;
  if (base[0] != '/' || prog[0][0] != '/') refuse("BASE and PROG must be absolute paths");
  char *scratch = join(base, "scratch"), *keep = join(base, "keep");
  check_private_dir(base);
  check_private_dir(scratch);
  check_private_dir(keep);
  /* The host's BASE/keep, held open: after the pivot it is reached through this descriptor only. */
  int keep_fd = open(keep, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (keep_fd < 0) refuse("cannot open %s: %s", keep, strerror(errno));
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd)) refuse("cannot read the current directory: %s", strerror(errno));

  uid_t uid = getuid();
  gid_t gid = getgid();
  unprivileged = uid != 0;
  if (unshare(CLONE_NEWNS | (unprivileged ? CLONE_NEWUSER : 0)) < 0)
    refuse("cannot make a private mount namespace%s: %s", unprivileged ? " in a user namespace" : "", strerror(errno));
  if (unprivileged) {
    char map[64];
    write_map("/proc/self/setgroups", "deny");
    /*
     * The caller's ids as 0 in the namespace, as `unshare -r` maps them:
     * mapped as themselves, overlayfs refused to make any file for uid and
     * gid 65534 (EOVERFLOW). PROG sees itself as uid 0 without a capability
     * on the host; learn's bubblewrap gives the command the caller's ids
     * back (--uid, --gid).
     */
    snprintf(map, sizeof map, "0 %u 1\n", (unsigned)uid);
    write_map("/proc/self/uid_map", map);
    snprintf(map, sizeof map, "0 %u 1\n", (unsigned)gid);
    write_map("/proc/self/gid_map", map);
  }
  /* Nothing mounted from here on propagates to the host. */
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) refuse("cannot make the mounts private: %s", strerror(errno));
  char opts[96];
  /*
   * One inode per KiB of the bound (empty files take inodes and kernel
   * memory, which size= does not count), besides the three directories of
   * each layer.
   */
  snprintf(opts, sizeof opts, "mode=0700,size=%llu,nr_inodes=%llu", writes_size, (writes_size >> 10) + 3 * MAX_LAYERS);
  if (mount("tmpfs", scratch, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0) refuse("cannot mount a tmpfs on %s: %s", scratch, strerror(errno));
  int scratch_fd = open(scratch, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (scratch_fd < 0) refuse("cannot open %s: %s", scratch, strerror(errno));
  char *root = join(scratch, "root"), *layer_dir = join(scratch, "layers");
  make_dir(root, 0755);
  make_dir(layer_dir, 0700);
  if (mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") < 0) refuse("cannot mount the root tmpfs: %s", strerror(errno));
  read_mounts(scratch);
  if (unprivileged)
    for (size_t k = 0; k < nwritable; k++)
      if (!under_or_at(writable[k], base)) writable_root(writable[k]);
  build(scratch, "/", root);
  if (nlayers == 0) refuse("no overlay could be made (overlayfs in a user namespace needs Linux 5.11)");

  /* boxwright's own: the in-sandbox step's mount point, and keep/ at KEEP_INSIDE. */
  char *own = join(root, ".boxwright"), *keep_at = join(root, KEEP_INSIDE + 1), *exec_at = join(own, "exec");
  make_dir(own, 0755);
  make_dir(keep_at, 0700);
  /*
   * /.boxwright/shm: a directory of the scratch tmpfs, for learn's sandbox
   * to bind at /dev/shm (bubblewrap's /dev is a tmpfs without size=, made
   * read-only there): what the command writes in shared memory counts
   * toward --writes-size with everything else it writes.
   */
  char *shm = join(scratch, "shm"), *shm_at = join(own, "shm");
  make_dir(shm, 01777);
  make_dir(shm_at, 0755);
  if (mount(shm, shm_at, NULL, MS_BIND, NULL) < 0) refuse("cannot bind %s: %s", shm, strerror(errno));
  int efd = open(exec_at, O_CREAT | O_WRONLY | O_CLOEXEC, 0555);
  if (efd < 0) refuse("cannot make %s: %s", exec_at, strerror(errno));
  close(efd);
  snprintf(opts, sizeof opts, "mode=0700,size=%llu", trace_size);
  if (mount("tmpfs", keep_at, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, opts) < 0) refuse("cannot mount the trace tmpfs: %s", strerror(errno));
  int trace_fd = open(keep_at, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (trace_fd < 0) refuse("cannot open the trace tmpfs: %s", strerror(errno));
  /* BASE, where the host sees the scratch and keep directories, hidden in the new tree. */
  char *base_at = join(root, base + 1);
  if (mount("tmpfs", base_at, "tmpfs", MS_NOSUID | MS_NODEV | MS_RDONLY, "mode=0700") < 0) refuse("cannot hide %s: %s", base, strerror(errno));
  /* The new root's own directory: read-only, as a sandbox's root is. */
  if (mount(NULL, root, NULL, MS_REMOUNT | MS_NOSUID | MS_NODEV | MS_RDONLY, NULL) < 0) refuse("cannot make the new root read-only: %s", strerror(errno));

  int layers_fd = open(layer_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (layers_fd < 0) refuse("cannot open %s: %s", layer_dir, strerror(errno));
  if (chdir(root) < 0 || syscall(SYS_pivot_root, ".", ".") < 0) refuse("cannot pivot into the new root: %s", strerror(errno));
  if (umount2(".", MNT_DETACH) < 0) refuse("cannot detach the old root: %s", strerror(errno));
  if (chdir("/") < 0 || chdir(cwd) < 0) refuse("cannot enter %s in the new root: %s", cwd, strerror(errno));

  const char *bound = NULL;
  int status = throwaway_wait(prog, trace_fd, scratch_fd, &bound);
  if (report_changes(layers_fd, trace_fd, layers, nlayers, unprivileged) < 0 && !bound) bound = "trace";
  copy_kept(trace_fd, keep_fd);
  if (bound) {
    int fd = keep_file(keep_fd, "bound");
    if (fd >= 0) write_all(fd, bound, strlen(bound)), close(fd);
  }
  return status;
}
