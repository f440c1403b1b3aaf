import type { Rule } from './engine.js';
import { authored, shown } from './util.js';

export const missingPath: Rule = {
  meta: {
    id: 'missing-path',
    seedRow: 'Content and execution grants must name existing paths',
    severity: { macos: 'error', linux: 'error', windows: 'error' },
    docs: {
      summary: 'A content or execution grant names a path that does not exist.',
      details:
        'Content and execution grants must name existing paths (a `deny` is judged by `deny-absent-path`). With `--fs none` existence is unknown: the rule reports one info that the result depends on the machine, and the verdict does not change. Use `--fs FILE.json` to lint for a machine described as data.',
      bad: '[agent.filesystem]\nread = ["~/projcet"]',
      good: '[agent.filesystem]\nread = ["~/project"]',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      for (const g of authored(p)) {
        if (g.access === 'deny' || !g.path || g.facts.symlink) continue;
        if (g.facts.existence === 'unknown' && !g.expandProblem) {
          ctx.report({
            severity: 'info',
            platforms: ['macos', 'linux', 'windows'],
            message: `depends on the machine: ${shown(g)} must exist (--fs ${ctx.view.description} knows no paths)`,
            span: g.span,
          });
        } else if (g.facts.existence === 'absent') {
          ctx.report({
            severity: 'error',
            platforms: ['macos', 'linux', 'windows'],
            message: `${shown(g)} does not exist: content and execution grants must name existing paths`,
            span: g.span,
            suggestion: 'Create the path first, or name one that exists.',
          });
        }
      }
    }
  },
};
