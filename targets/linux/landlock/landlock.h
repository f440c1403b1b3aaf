/* The Landlock step of boxwright-sandbox (landlock.c); the format in README.md. */
#ifndef BOXWRIGHT_LANDLOCK_H
#define BOXWRIGHT_LANDLOCK_H

#include <stddef.h>
#include <stdint.h>

#define MAX_RULES_BYTES (16 << 20) /* far above any real policy; a runaway writer is refused */

struct fs_rule {
  uint64_t rights;
  const char *path; /* points into the rules buffer */
};

struct ruleset {
  int require_abi;
  uint64_t scopes;
  struct fs_rule *fs;
  size_t nfs;
};

/* The kernel's Landlock ABI: 0 without Landlock (ENOSYS) or with it disabled (EOPNOTSUPP). */
int landlock_abi(void);
/* Parses the rules in buf[0..len) (buf[len] is NUL) in place; refuses a malformed record. */
void landlock_parse(char *buf, size_t len, struct ruleset *rs);
/* --check: the parsed rules, one record a line; 0, or 125 if stdout failed. */
int landlock_check(const struct ruleset *rs);
/* Applies the ruleset to this process; returns the ABI, *scoped the scopes in force. Refuses on any failure. */
int landlock_apply(const struct ruleset *rs, uint64_t *scoped);
/* The scopes in `scoped`, comma-separated in bit order; "" for none. */
void landlock_scope_names(uint64_t scoped, char *out, size_t size);

#endif
