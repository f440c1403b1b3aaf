import { isUnder } from '../compiler/paths/index.js';
import type { Rule } from './engine.js';
import { authored } from './util.js';

export const processInfo: Rule = {
  meta: {
    id: 'process-info',
    seedRow: 'Process information',
    severity: { linux: 'warning' },
    dialects: ['box'],
    docs: {
      summary: 'A grant under /proc shows the workload\'s own processes on Linux, never the host\'s.',
      details:
        'Linux provides /proc within the workload\'s process namespace (a fresh /proc). No field grants surrounding-OS process visibility: a grant under /proc names the sandbox\'s own view. This differs from macOS process restrictions. Observe the workload from the supervisor instead.',
      bad: '[agent.filesystem]\nread = ["/proc"]',
      good: '# observe the workload from the supervisor',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      for (const g of authored(p)) {
        if (!g.path || !isUnder(g.path, '/proc')) continue;
        ctx.report({
          severity: 'warning',
          platforms: ['linux'],
          message: `${g.path} on Linux is the workload's own /proc (its process namespace), never the host's`,
          span: g.span,
          suggestion: 'Observe the workload from the supervisor.',
        });
      }
    }
  },
};
