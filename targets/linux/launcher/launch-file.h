/* `<stem>.launch`: what a launcher runs (launch-file.c; the format in README.md and launch-file.ts). */
#ifndef BOXWRIGHT_LAUNCH_FILE_H
#define BOXWRIGHT_LAUNCH_FILE_H

#include <stddef.h>
#include <stdio.h>

/* The trust records list every write tree and the host-trusted paths in them: a config of 20,000 write grants holds more than 1 MiB. */
#define MAX_LAUNCH_BYTES (64 << 20)

/* The architectures a launch file may name a seccomp program for, in this order. */
extern const char *const launch_arches[2];

struct launch {
  const char *config;        /* absolute */
  const char *config_sha256; /* 64 lowercase hex digits, as every digest */
  const char *principal;
  const char *args;          /* a file name in the launch file's directory, as every FILE */
  const char *args_sha256;
  const char *seccomp[2];    /* by launch_arches index; NULL: none for that one */
  const char *seccomp_sha256[2];
  const char *landlock;      /* NULL: `landlock none` */
  const char *landlock_sha256;
  const char *bwrap;         /* absolute: the bubblewrap compile resolved */
  unsigned bwrap_uid;        /* its owner and mode then */
  unsigned bwrap_mode;       /* the permission bits (07777) */
  const char **env;          /* the allowlist: names, exactly */
  size_t nenv;
  const char **env_prefix;   /* and prefixes */
  size_t nprefix;
  const char **compile_option; /* the compile's options after CONFIG, for the "Recompile:" hint */
  size_t ncompile_option;
  /* The host-trusted names checked before and after the run (trust-walk.c). */
  const char **walk;         /* the write trees, absolute */
  size_t nwalk;
  const char **trusted_name; /* the project names: file names */
  size_t nname;
  const char **keep;         /* what the walk neither enters nor judges, absolute */
  size_t nkeep;
  const char **absent;       /* host-trusted paths absent at compile that no walk covers, absolute */
  size_t nabsent;
};

/* Parses buf[0..len) (buf[len] is NUL) in place; 0, or -1 with the reason in err. */
int launch_parse(char *buf, size_t len, struct launch *l, char *err, size_t errsize);
/* One record a line, bytes below 0x20 and '\' as \xHH: what --check-launch prints. */
void launch_print(const struct launch *l, FILE *f);

#endif
