/**
 * The bubblewrap options boxwright's views use or read back, with the
 * number of operands each takes. One table, so that reading an argv back
 * (view-from-argv.ts, the tests' cross-check) and rewriting it for a run (targets/linux/launcher/bwrap-argv.c,
 * its C twin, held equal to this table by launcher-build.test.ts) split it the same
 * way; an option missing here is an error in both, never a guess.
 */
export const BWRAP_OPERANDS: Readonly<Record<string, number>> = {
  '--unshare-all': 0,
  '--share-net': 0,
  '--die-with-parent': 0,
  '--new-session': 0,
  '--unshare-user': 0,
  '--unshare-ipc': 0,
  '--unshare-pid': 0,
  '--unshare-net': 0,
  '--unshare-uts': 0,
  '--unshare-cgroup': 0,
  '--unshare-cgroup-try': 0,
  '--unshare-user-try': 0,
  '--clearenv': 0,
  '--as-pid-1': 0,
  '--cap-drop': 1,
  '--cap-add': 1,
  '--perms': 1,
  '--size': 1,
  '--hostname': 1,
  '--unsetenv': 1,
  '--setenv': 2,
  '--remount-ro': 1,
  '--chmod': 2,
  '--info-fd': 1,
  '--json-status-fd': 1,
  '--sync-fd': 1,
  '--block-fd': 1,
  '--lock-file': 1,
  '--uid': 1,
  '--gid': 1,
  '--bind': 2,
  '--ro-bind': 2,
  '--dev-bind': 2,
  '--bind-try': 2,
  '--ro-bind-try': 2,
  '--bind-fd': 2,
  '--ro-bind-fd': 2,
  '--ro-bind-data': 2,
  '--bind-data': 2,
  '--file': 2,
  '--tmpfs': 1,
  '--dir': 1,
  '--symlink': 2,
  '--proc': 1,
  '--dev': 1,
  '--chdir': 1,
  '--seccomp': 1,
  '--add-seccomp-fd': 1,
  '--args': 1,
};

/** Splits an argv into options with their operands; throws on an option the table does not know. */
export function splitOptions(argv: readonly string[]): { readonly option: string; readonly operands: readonly string[] }[] {
  const out: { option: string; operands: string[] }[] = [];
  for (let i = 0; i < argv.length; ) {
    const option = argv[i]!;
    const n = BWRAP_OPERANDS[option];
    if (n === undefined) throw new Error(`unknown bubblewrap option in a view: ${JSON.stringify(option)}`);
    const operands = argv.slice(i + 1, i + 1 + n);
    if (operands.length < n) throw new Error(`${option} needs ${n} operand${n > 1 ? 's' : ''}`);
    out.push({ option, operands });
    i += 1 + n;
  }
  return out;
}
