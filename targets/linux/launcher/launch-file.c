/*
 * The launch file: NUL-terminated tokens, records in a fixed order (each
 * token a keyword or an operand; the input ends with a NUL):
 *
 *   launch 3                  the format's version
 *   config ABS_PATH           the config it was compiled from
 *   config-sha256 HEX         its SHA-256 then (64 lowercase hex digits, as every HEX)
 *   principal ID              for messages
 *   args FILE HEX             the principal's .bwrap.args and its SHA-256
 *   seccomp ARCH FILE HEX     one or more, each ARCH (x86_64, aarch64) once
 *   landlock FILE HEX | landlock none
 *   bwrap ABS_PATH UID MODE   the bubblewrap compile resolved, its owner and mode (octal)
 *   env NAME                  zero or more: the environment allowlist
 *   env-prefix PREFIX         zero or more
 *   compile-option ARG        zero or more: the compile's options, for the hint to recompile
 *   walk ABS_PATH             zero or more: the write trees checked before and after the run
 *   trusted-name NAME         zero or more: the host-trusted names looked for in them (a file name)
 *   keep ABS_PATH             zero or more: what those checks neither enter nor judge
 *   absent ABS_PATH           zero or more: host-trusted paths absent at compile that no walk covers
 *
 * FILE is a name in the launch file's own directory (no '/', not '.' or
 * '..'); NAME and PREFIX are non-empty without '='. Anything else — an
 * unknown or repeated record, one out of order, a missing operand — is
 * malformed: the launcher refuses it rather than guess.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "launch-file.h"
#include "sandbox.h"

const char *const launch_arches[2] = {"x86_64", "aarch64"};

struct cursor {
  char **tok;
  size_t n, at;
  char *err;
  size_t errsize;
};

static int PRINTF(2, 3) fail(struct cursor *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err, c->errsize, fmt, ap);
  va_end(ap);
  return -1;
}

/* Whether the next record is `kw` (with nops operands present). */
static int at(const struct cursor *c, const char *kw) {
  return c->at < c->n && strcmp(c->tok[c->at], kw) == 0;
}

/* The operands of the record `kw` that must come next; NULL (and err) otherwise. */
static char **take(struct cursor *c, const char *kw, size_t nops) {
  if (c->at >= c->n) return fail(c, "the launch file ends where `%s` was expected", kw), NULL;
  if (!at(c, kw)) return fail(c, "record %zu: `%s` where `%s` was expected", c->at + 1, c->tok[c->at], kw), NULL;
  if (c->at + nops >= c->n) return fail(c, "record %zu: `%s` needs %zu operand%s", c->at + 1, kw, nops, nops > 1 ? "s" : ""), NULL;
  char **ops = c->tok + c->at + 1;
  c->at += 1 + nops;
  return ops;
}

static int is_file_name(const char *s) {
  return s[0] && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

static int is_env_name(const char *s) { return s[0] && !strchr(s, '='); }

static int is_sha256_hex(const char *s) { return strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64; }

/* A decimal number without sign or leading zero (0 itself is "0"), at most max. */
static int decimal(const char *s, unsigned long max, unsigned *out) {
  size_t n = strlen(s);
  if (n == 0 || n > 10 || strspn(s, "0123456789") != n || (n > 1 && s[0] == '0')) return -1;
  unsigned long v = strtoul(s, NULL, 10);
  if (v > max) return -1;
  *out = (unsigned)v;
  return 0;
}

/* Exactly four octal digits (0755, 4755): the permission bits. */
static int octal_mode(const char *s, unsigned *out) {
  if (strlen(s) != 4 || strspn(s, "01234567") != 4) return -1;
  *out = (unsigned)strtoul(s, NULL, 8);
  return 0;
}

int launch_parse(char *buf, size_t len, struct launch *l, char *err, size_t errsize) {
  struct cursor c = {.err = err, .errsize = errsize};
  memset(l, 0, sizeof *l);
  if (len == 0) return fail(&c, "the launch file is empty");
  if (buf[len - 1] != '\0') return fail(&c, "the launch file does not end with a NUL");
  for (size_t i = 0; i < len; i++) c.n += buf[i] == '\0';
  c.tok = calloc(c.n, sizeof *c.tok);
  l->env = calloc(c.n, sizeof *l->env);
  l->env_prefix = calloc(c.n, sizeof *l->env_prefix);
  l->compile_option = calloc(c.n, sizeof *l->compile_option);
  l->walk = calloc(c.n, sizeof *l->walk);
  l->trusted_name = calloc(c.n, sizeof *l->trusted_name);
  l->keep = calloc(c.n, sizeof *l->keep);
  l->absent = calloc(c.n, sizeof *l->absent);
  if (!c.tok || !l->env || !l->env_prefix || !l->compile_option || !l->walk || !l->trusted_name || !l->keep || !l->absent) return fail(&c, "out of memory");
  for (size_t i = 0, t = 0; i < len; i += strlen(buf + i) + 1) c.tok[t++] = buf + i;

  char **op;
  if (!(op = take(&c, "launch", 1))) return -1;
  if (strcmp(op[0], LAUNCH_FORMAT) != 0) return fail(&c, "launch format `%s`; this launcher reads format %s", op[0], LAUNCH_FORMAT);
  if (!(op = take(&c, "config", 1))) return -1;
  if (op[0][0] != '/') return fail(&c, "config `%s`: not an absolute path", op[0]);
  l->config = op[0];
  if (!(op = take(&c, "config-sha256", 1))) return -1;
  if (!is_sha256_hex(op[0])) return fail(&c, "config-sha256 `%s`: not 64 lowercase hex digits", op[0]);
  l->config_sha256 = op[0];
  if (!(op = take(&c, "principal", 1))) return -1;
  if (!op[0][0]) return fail(&c, "principal: empty");
  l->principal = op[0];
  if (!(op = take(&c, "args", 2))) return -1;
  if (!is_file_name(op[0])) return fail(&c, "args `%s`: not a file name in the launch file's directory", op[0]);
  if (!is_sha256_hex(op[1])) return fail(&c, "args %s `%s`: not 64 lowercase hex digits", op[0], op[1]);
  l->args = op[0];
  l->args_sha256 = op[1];
  do {
    if (!(op = take(&c, "seccomp", 3))) return -1;
    size_t a;
    for (a = 0; a < COUNT(launch_arches); a++)
      if (strcmp(op[0], launch_arches[a]) == 0) break;
    if (a == COUNT(launch_arches)) return fail(&c, "seccomp `%s`: not an architecture (x86_64, aarch64)", op[0]);
    if (l->seccomp[a]) return fail(&c, "seccomp %s: repeated", op[0]);
    if (!is_file_name(op[1])) return fail(&c, "seccomp %s `%s`: not a file name in the launch file's directory", op[0], op[1]);
    if (!is_sha256_hex(op[2])) return fail(&c, "seccomp %s %s `%s`: not 64 lowercase hex digits", op[0], op[1], op[2]);
    l->seccomp[a] = op[1];
    l->seccomp_sha256[a] = op[2];
  } while (at(&c, "seccomp"));
  if (!(op = take(&c, "landlock", 1))) return -1;
  if (strcmp(op[0], "none") != 0) {
    if (!is_file_name(op[0])) return fail(&c, "landlock `%s`: neither `none` nor a file name in the launch file's directory", op[0]);
    /* `landlock FILE HEX`: the digest is the record's second operand. */
    if (c.at >= c.n) return fail(&c, "record %zu: `landlock %s` needs its SHA-256", c.at, op[0]);
    if (!is_sha256_hex(c.tok[c.at])) return fail(&c, "landlock %s `%s`: not 64 lowercase hex digits", op[0], c.tok[c.at]);
    l->landlock = op[0];
    l->landlock_sha256 = c.tok[c.at++];
  }
  if (!(op = take(&c, "bwrap", 3))) return -1;
  if (op[0][0] != '/') return fail(&c, "bwrap `%s`: not an absolute path", op[0]);
  if (decimal(op[1], 0xffffffffUL, &l->bwrap_uid) < 0) return fail(&c, "bwrap %s uid `%s`: not a decimal number", op[0], op[1]);
  if (octal_mode(op[2], &l->bwrap_mode) < 0) return fail(&c, "bwrap %s mode `%s`: not four octal digits", op[0], op[2]);
  l->bwrap = op[0];
  while (at(&c, "env")) {
    if (!(op = take(&c, "env", 1))) return -1;
    if (!is_env_name(op[0])) return fail(&c, "env `%s`: not a variable name", op[0]);
    l->env[l->nenv++] = op[0];
  }
  while (at(&c, "env-prefix")) {
    if (!(op = take(&c, "env-prefix", 1))) return -1;
    if (!is_env_name(op[0])) return fail(&c, "env-prefix `%s`: not a variable name prefix", op[0]);
    l->env_prefix[l->nprefix++] = op[0];
  }
  while (at(&c, "compile-option")) {
    if (!(op = take(&c, "compile-option", 1))) return -1;
    l->compile_option[l->ncompile_option++] = op[0];
  }
  struct {
    const char *kw;
    const char **out;
    size_t *n;
    int name; /* a file name, else an absolute path */
  } lists[] = {{"walk", l->walk, &l->nwalk, 0}, {"trusted-name", l->trusted_name, &l->nname, 1}, {"keep", l->keep, &l->nkeep, 0}, {"absent", l->absent, &l->nabsent, 0}};
  for (size_t k = 0; k < COUNT(lists); k++)
    while (at(&c, lists[k].kw)) {
      if (!(op = take(&c, lists[k].kw, 1))) return -1;
      if (lists[k].name ? !is_file_name(op[0]) : op[0][0] != '/')
        return fail(&c, "%s `%s`: not %s", lists[k].kw, op[0], lists[k].name ? "a file name" : "an absolute path");
      lists[k].out[(*lists[k].n)++] = op[0];
    }
  if (c.at < c.n) return fail(&c, "record %zu: `%s` is not a record this launcher knows here", c.at + 1, c.tok[c.at]);
  free(c.tok);
  return 0;
}

static void escaped(FILE *f, const char *s) {
  for (const unsigned char *c = (const unsigned char *)s; *c; c++)
    if (*c < 0x20 || *c == '\\') fprintf(f, "\\x%02x", *c);
    else fputc(*c, f);
}

static void line(FILE *f, const char *kw, const char *a, const char *b) {
  fputs(kw, f);
  fputc(' ', f);
  escaped(f, a);
  if (b) fputc(' ', f), escaped(f, b);
  fputc('\n', f);
}

void launch_print(const struct launch *l, FILE *f) {
  line(f, "launch", LAUNCH_FORMAT, NULL);
  line(f, "config", l->config, NULL);
  line(f, "config-sha256", l->config_sha256, NULL);
  line(f, "principal", l->principal, NULL);
  line(f, "args", l->args, l->args_sha256);
  for (size_t a = 0; a < COUNT(launch_arches); a++)
    if (l->seccomp[a]) {
      fprintf(f, "seccomp %s ", launch_arches[a]);
      escaped(f, l->seccomp[a]);
      fprintf(f, " %s\n", l->seccomp_sha256[a]);
    }
  if (l->landlock) line(f, "landlock", l->landlock, l->landlock_sha256);
  else line(f, "landlock", "none", NULL);
  fputs("bwrap ", f);
  escaped(f, l->bwrap);
  fprintf(f, " %u %04o\n", l->bwrap_uid, l->bwrap_mode);
  for (size_t i = 0; i < l->nenv; i++) line(f, "env", l->env[i], NULL);
  for (size_t i = 0; i < l->nprefix; i++) line(f, "env-prefix", l->env_prefix[i], NULL);
  for (size_t i = 0; i < l->ncompile_option; i++) line(f, "compile-option", l->compile_option[i], NULL);
  for (size_t i = 0; i < l->nwalk; i++) line(f, "walk", l->walk[i], NULL);
  for (size_t i = 0; i < l->nname; i++) line(f, "trusted-name", l->trusted_name[i], NULL);
  for (size_t i = 0; i < l->nkeep; i++) line(f, "keep", l->keep[i], NULL);
  for (size_t i = 0; i < l->nabsent; i++) line(f, "absent", l->absent[i], NULL);
}
