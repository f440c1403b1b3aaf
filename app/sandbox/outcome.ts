/**
 * What `boxwright run` adds after a command's own output when its exit
 * status says the sandbox stopped it: 133 (SIGTRAP) is how V8 aborts when
 * the executable-memory filter refuses its JIT a writable-executable
 * mapping (exec-memory), which otherwise reads as a crash of the program.
 */
import runtimes from '../../rules/runtimes.json' with { type: 'json' };

const jit: Readonly<Record<string, string>> = runtimes.jitRuntimes;

export function afterStatus(status: number, command: readonly string[]): string | undefined {
  if (status !== 133) return undefined;
  const name = (command[0] ?? '').slice((command[0] ?? '').lastIndexOf('/') + 1);
  const runtime = Object.keys(jit).find((k) => name === k || new RegExp(`^${k.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}[0-9.]*$`).test(name));
  const remedy = runtime ? jit[runtime]! : 'a JIT runtime (node, deno, java, pypy) aborts this way; run it in its JIT-less mode (node --jitless or NODE_OPTIONS=--jitless, without WebAssembly; java -Xint; pypy --jit off)';
  return `${command[0]} died of SIGTRAP (exit 133): that is how V8 and other JITs abort when the sandbox's executable-memory filter refuses them writable-executable memory (exec-memory), not a bug of the program: ${remedy}`;
}
