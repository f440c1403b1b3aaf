import runtimes from './runtimes.json' with { type: 'json' };
import { defineRule } from './engine.js';
import { authored, shown } from './util.js';

const jit: Record<string, string> = runtimes.jitRuntimes;

export const execMemory = defineRule({
  meta: {
    id: 'exec-memory',
    seedRow: 'Executable memory',
    dialects: ['box'],
    docs: {
      summary: "A JIT runtime is granted; it can fail at runtime under Linux's executable-memory filter.",
      details:
        'Linux refuses writable-executable mappings and mprotect requests whose permissions include executable access, including retained access, and every pkey_mprotect request. Tool file execution does not remove these filters and no field disables them. Startup can succeed; a runtime fails when it asks for executable memory: `node -e 1` aborts in V8 (exit 133). Reported for an agent `exec` grant, or any grant of a tool or server, naming a JIT runtime binary.',
      bad: { toml: '[agent.filesystem]\nexec = ["/usr/bin/node"]', expect: ['2:9 warning linux'] },
      good: { toml: '[agent.filesystem]\nexec = ["/usr/bin/git"]', expect: [] },
    },
  },
  messages: {
    jit: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { path: string; why: string }) =>
        `${d.path} is a JIT runtime: Linux refuses writable-executable mappings, executable mprotect requests and every pkey_mprotect, so it can fail at runtime (${d.why})`,
      suggestion: 'Use an independently validated runtime mode that does not require those operations.',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      for (const g of authored(p)) {
        if (!g.path || (p.kind === 'agent' && g.access !== 'exec') || g.access === 'deny') continue;
        const base = g.path.slice(g.path.lastIndexOf('/') + 1);
        const name = Object.keys(jit).find((k) => base === k || new RegExp(`^${k.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}[0-9.]*$`).test(base));
        if (name) ctx.report('jit', { span: g.span }, { path: shown(g), why: jit[name]! });
      }
    }
  },
});
