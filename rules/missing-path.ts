import { defineRule } from './engine.js';
import { authored, shown } from './util.js';

export const missingPath = defineRule({
  meta: {
    id: 'missing-path',
    seedRow: "Box's platform table, row: Content and execution grants must name existing paths",
    docs: {
      summary: 'A content or execution grant names a path that does not exist.',
      details:
        'Content and execution grants must name existing paths (a `deny` is judged by `deny-absent-path`). With `--fs none` existence is unknown: the rule reports one info that the result depends on the machine, and the verdict does not change. Use `--fs FILE.json` to lint for a machine described as data.',
      bad: { toml: '[agent.filesystem]\nread = ["~/projcet"]', expect: ['2:9 error macos,linux,windows'] },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]', expect: [] },
    },
  },
  messages: {
    missing: {
      severity: 'error',
      platforms: ['macos', 'linux', 'windows'],
      text: (d: { path: string }) => `${d.path} does not exist: content and execution grants must name existing paths`,
      suggestion: 'Create the path first, or name one that exists.',
    },
    unknown: {
      severity: 'info',
      platforms: ['macos', 'linux', 'windows'],
      text: (d: { path: string; fs: string }) => `depends on the machine: ${d.path} must exist (--fs ${d.fs} knows no paths)`,
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      for (const g of authored(p)) {
        if (g.access === 'deny' || !g.path || g.facts.symlink) continue;
        if (g.facts.existence === 'unknown' && !g.expandProblem) ctx.report('unknown', { span: g.span }, { path: shown(g), fs: ctx.view.description });
        else if (g.facts.existence === 'absent') ctx.report('missing', { span: g.span }, { path: shown(g) });
      }
    }
  },
});
