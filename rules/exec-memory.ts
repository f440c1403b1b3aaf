import runtimes from './runtimes.json' with { type: 'json' };
import type { PolicyIR } from '../compiler/ir/types.js';
import { expandTilde, inspectPath, isUnder } from '../compiler/paths/index.js';
import { defineRule } from './engine/engine.js';
import { listPaths, shown, who } from './util.js';

const jit: Readonly<Record<string, string>> = runtimes.jitRuntimes;
const escapeRegExp = (k: string): string => k.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
/** A runtime's file name: exactly, or with a version (`python3.11`, `node20`). */
const runtimeOf = (base: string): string | undefined =>
  Object.keys(jit).find((k) => base === k || new RegExp(`^${escapeRegExp(k)}[0-9.]*$`).test(base));

export const execMemory = defineRule({
  meta: {
    id: 'exec-memory',
    seedRow: "Box's platform table, row: Executable memory",
    dialects: ['box'],
    docs: {
      summary: "A JIT runtime is granted, or reachable through a read tree; it can fail at runtime under Linux's executable-memory filter.",
      details:
        'Linux refuses writable-executable mappings and mprotect requests whose permissions include executable ' +
        'access, including retained access, and every pkey_mprotect request. Tool file execution does not ' +
        'remove these filters and no field disables them. Startup can succeed; a runtime fails when it asks ' +
        'for executable memory: `node -e 1` aborts in V8 (exit 133), and `boxwright run` says so after the ' +
        "command's own output. Reported for an agent `exec` grant, or any grant of a tool or server, naming " +
        'a JIT runtime binary; and for JIT runtimes found in the well-known bin directories (`/usr/bin`, ' +
        "`/usr/local/bin`, …) under a tree grant, where the principal can execute them on Linux: a tool's " +
        "or server's content trees, an agent's exec trees, and any read tree with `--landlock off` (the " +
        'mounts alone leave read trees executable).',
      bad: { toml: '[agent.filesystem]\nexec = ["/usr/bin/node"]', expect: ['2:9 warning linux'] },
      good: { toml: '[agent.filesystem]\nexec = ["/usr/bin/git"]', expect: [] },
    },
  },
  messages: {
    jit: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { path: string; why: string }) =>
        `${d.path} is a JIT runtime: Linux refuses writable-executable mappings, executable mprotect requests ` +
        `and every pkey_mprotect, so it can fail at runtime (${d.why})`,
      suggestion: 'Use an independently validated runtime mode that does not require those operations.',
    },
    reachable: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { path: string; who: string; runtimes: readonly string[]; because: string }) =>
        `${d.path} holds JIT runtimes that ${d.who} can run on Linux (${d.because}): ${listPaths(d.runtimes)}; ` +
        `under the executable-memory filter they fail at runtime (V8 aborts with exit 133)`,
      suggestion:
        'Run them in a JIT-less mode (node --jitless, or `boxwright run --pass-env NODE_OPTIONS=--jitless` ' +
        'for a program that starts node, without WebAssembly; java -Xint; pypy --jit off), or grant a narrower ' +
        'tree that holds none.',
    },
  },
  grant(g, _ga, pa, ctx) {
    if (g.access === 'deny') return;
    const p = pa.principal;
    // Named outright: an agent exec grant, or any content grant of a tool or server.
    if (p.kind !== 'agent' || g.access === 'exec') {
      const name = runtimeOf(g.path.slice(g.path.lastIndexOf('/') + 1));
      if (name) {
        ctx.report('jit', { span: g.span }, { path: shown(g), why: jit[name]! });
        return;
      }
    }
    // Reachable: in a bin directory under a content tree, where the model's Linux cell says the principal may execute.
    const tree = g.scope === 'tree' && g.access !== 'list' && g.access !== 'metadata';
    if (!tree || ctx.view.knowsFacts === false) return;
    const found: string[] = [];
    for (const dir of binsOf(ctx.ir)) {
      if (!isUnder(dir, g.path)) continue;
      for (const name of Object.keys(jit)) {
        const candidate = `${dir}/${name}`;
        const cell = pa.effectiveAt(candidate, 'linux');
        if (cell.kind === 'access' && cell.exec && inspectPath(ctx.view, candidate).existence === 'exists') found.push(candidate);
      }
    }
    const because =
      pa.linuxExec === 'mounts'
        ? 'read trees are executable there'
        : p.kind === 'tool'
          ? 'a tool runs what its content grants hold'
          : 'an exec grant makes them executable';
    if (found.length) ctx.report('reachable', { span: g.span }, { path: shown(g), who: who(p), runtimes: found.sort(), because });
  },
});

/** The runtimes' bin directories in this config's home, once a lint. */
function binsOf(ir: PolicyIR): readonly string[] {
  let out = bins.get(ir);
  if (!out) bins.set(ir, (out = runtimes.binDirectories.map((d) => expandTilde(d, ir.home))));
  return out;
}
const bins = new WeakMap<PolicyIR, readonly string[]>();
