/**
 * What `boxwright run` adds after a command's own output when its exit
 * status says the sandbox stopped it: 133 (SIGTRAP) is how V8 aborts when
 * the executable-memory filter refuses its JIT a writable-executable
 * mapping (exec-memory), which otherwise reads as a crash of the program.
 * The remedy is the command line to run instead, ready to copy: node with
 * `--jitless`, or, for a program that starts node itself (a
 * `node_modules/.bin` script, npm), NODE_OPTIONS set for the command with
 * `--pass-env NODE_OPTIONS=--jitless` (the environment allowlist withholds
 * it otherwise, and exported it would reach boxwright's own Node, which
 * reads it at start-up: Node has no way to ignore it).
 */
import runtimes from '../../../../rules/runtimes.json' with { type: 'json' };

const jit: Readonly<Record<string, string>> = runtimes.jitRuntimes;

const runtimeOf = (name: string): string | undefined =>
  Object.keys(jit).find((k) => name === k || new RegExp(`^${k.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}[0-9.]*$`).test(name));

/** A word as a POSIX shell reads it back: as is when it is plain, else single-quoted. */
export function shellWord(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/**
 * The boxwright command line `argv` (after the program name: `run CONFIG
 * [OPTIONS] -- CMD ARGS…`) changed to run the command without V8's JIT.
 */
export function jitlessCommand(argv: readonly string[]): string | undefined {
  const dashes = argv.indexOf('--');
  if (argv[0] !== 'run' || dashes < 0 || dashes === argv.length - 1) return undefined;
  const before = argv.slice(0, dashes);
  const command = argv.slice(dashes + 1);
  const name = command[0]!.slice(command[0]!.lastIndexOf('/') + 1);
  const line = (env: string, opts: readonly string[], cmd: readonly string[]): string =>
    `${env}boxwright ${[...opts, '--', ...cmd].map(shellWord).join(' ')}`;
  const node = runtimeOf(name);
  if (node === 'node' || node === 'nodejs') return line('', before, [command[0]!, '--jitless', ...command.slice(1)]);
  // A program that starts node itself: the flag through NODE_OPTIONS, set for the command alone
  // (--pass-env NAME=VALUE): exported, it would reach boxwright's own Node too, which reads it at start-up.
  const kept = before.filter(
    (a, i) =>
      !(a === '--pass-env' && /^NODE_OPTIONS(=|$)/.test(before[i + 1] ?? '')) &&
      !(i > 0 && before[i - 1] === '--pass-env' && /^NODE_OPTIONS(=|$)/.test(a)) &&
      !/^--pass-env=NODE_OPTIONS(=|$)/.test(a),
  );
  return line('', [...kept, '--pass-env', 'NODE_OPTIONS=--jitless'], command);
}

export function afterStatus(status: number, command: readonly string[], argv?: readonly string[]): string | undefined {
  if (status !== 133) return undefined;
  const name = (command[0] ?? '').slice((command[0] ?? '').lastIndexOf('/') + 1);
  const runtime = runtimeOf(name);
  const v8 = runtime === undefined || runtime === 'node' || runtime === 'nodejs';
  const instead = v8 && argv ? jitlessCommand(argv) : undefined;
  const remedy = instead
    ? `run it without the JIT (and without WebAssembly, which needs it): ${instead}`
    : runtime
      ? jit[runtime]!
      : 'a JIT runtime (node, deno, java, pypy) aborts this way; run it in its JIT-less mode (node --jitless, or ' +
        '--pass-env NODE_OPTIONS=--jitless for a program that starts node, without WebAssembly; java -Xint; pypy --jit ' +
        'off)';
  return (
    `${command[0]} died of SIGTRAP (exit 133): that is how V8 and other JITs abort when the ` +
    `sandbox's executable-memory filter refuses them writable-executable memory (exec-memory), not a bug of the program: ${remedy}`
  );
}
