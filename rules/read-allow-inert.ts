import type { Rule } from './engine.js';

export const readAllowInert: Rule = {
  meta: {
    id: 'read-allow-inert',
    seedRow: 'Seed 001: sandbox.read_allow on Windows',
    severity: { windows: 'info' },
    dialects: ['tyba'],
    docs: {
      summary: '`read_allow` has no effect on Windows.',
      details:
        'On Windows `sandbox.read_allow` is accepted and validated, but discarded. Nothing is lost: reads are already open, so everything it could grant is already granted; and what it cannot grant (the listed secrets) it cannot grant on macOS either, where denials beat any permission.',
      bad: '[sandbox]\nread_allow = ["~/datasets"]',
      good: '[sandbox]\nread_allow = ["~/datasets"]  # the same: info only, nothing to change',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      for (const g of p.grants) {
        if (g.list !== 'read_allow') continue;
        ctx.report({
          severity: 'info',
          platforms: ['windows'],
          message: `read_allow ${g.path ?? g.written} is inert on Windows: accepted and discarded, since reads are already open there`,
          span: g.span,
        });
      }
    }
  },
};
