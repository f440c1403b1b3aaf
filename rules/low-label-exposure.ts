import type { Rule } from './engine.js';
import { who } from './util.js';

export const lowLabelExposure: Rule = {
  meta: {
    id: 'low-label-exposure',
    seedRow: 'Our Windows lowering: Low-labelled write trees',
    severity: { windows: 'info' },
    docs: {
      summary: 'A Windows write tree gets a Low integrity label: any low-integrity process can write there.',
      details:
        'A Low-integrity token may not write Medium objects (no-write-up), so each write grant becomes an allow ACE for the session SID plus a Low mandatory label on the tree. Any other low-integrity process on the machine (a browser sandbox, another agent) can then write there too.',
      bad: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project"]',
      good: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]  # the smallest write tree',
    },
  },
  check(ctx) {
    for (const pa of ctx.access.principals) {
      for (const ga of pa.grants) {
        const g = ga.grant;
        if (g.implicit || (g.access !== 'write' && g.access !== 'read-write') || !ga.applies.windows || !g.path) continue;
        const cell = ga.effective.windows;
        if (cell.kind !== 'access' || !cell.write) continue;
        ctx.report({
          severity: 'info',
          platforms: ['windows'],
          message: `${g.path} gets a Low integrity label so that ${who(pa.principal)} can write it: any low-integrity process can then write there`,
          span: g.span,
          suggestion: 'Use the smallest write subtree or exact file.',
        });
      }
    }
  },
};
