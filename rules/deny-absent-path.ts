import type { Rule } from './engine.js';
import { authored, shown } from './util.js';

export const denyAbsentPath: Rule = {
  meta: {
    id: 'deny-absent-path',
    seedRow: 'Deny an absent path',
    severity: { linux: 'error', windows: 'warning' },
    docs: {
      summary: 'A `deny` names a path that does not exist.',
      details:
        'macOS can express a future-path refusal: the Seatbelt rule also covers a path created later. Linux refuses the configuration, because it covers a denied path by mounting over it, which needs an existing target. Windows has nothing to label: a file created there later is readable by the agent. With `--fs none` the existence is unknown and the rule says so as info.',
      bad: '[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/project/.env.local"]  # does not exist',
      good: '[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/project/.env"]  # exists',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      for (const g of authored(p)) {
        if (g.access !== 'deny' || !g.path) continue;
        if (g.facts.existence === 'unknown') {
          ctx.report({
            severity: 'info',
            platforms: ['linux', 'windows'],
            message: `depends on the machine: Linux refuses a deny of ${shown(g)} if it does not exist, and Windows cannot label it (--fs ${ctx.view.description} knows no paths)`,
            span: g.span,
          });
          continue;
        }
        if (g.facts.existence !== 'absent') continue;
        const suggestion = 'Create the target first, or deny an existing ancestor that does not invalidate the whole grant.';
        ctx.report({ severity: 'error', platforms: ['linux'], message: `Linux cannot deny ${shown(g)}: it does not exist yet`, span: g.span, suggestion });
        ctx.report({
          severity: 'warning',
          platforms: ['windows'],
          message: `nothing to label at ${shown(g)} on Windows: it does not exist yet, and a file created there later is readable`,
          span: g.span,
          suggestion,
        });
      }
    }
  },
};
