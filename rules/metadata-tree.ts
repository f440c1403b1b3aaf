import type { Rule } from './engine.js';
import { shown } from './util.js';

export const metadataTree: Rule = {
  meta: {
    id: 'metadata-tree',
    seedRow: 'Metadata-only tree (agent)',
    severity: { linux: 'warning' },
    dialects: ['box'],
    docs: {
      summary: 'The agent\'s `metadata` tree is accepted on Linux but not supplied.',
      details:
        'macOS exposes file properties (existence, size, dates) without content. Linux omits this mount rather than expose content, so it accepts the entry but supplies no metadata-only tree: the path does not exist for the agent.',
      bad: '[agent.filesystem]\nmetadata = ["~/archive"]',
      good: '[agent.filesystem]\nread = ["~/archive"]  # only if content reads are acceptable',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      if (p.kind !== 'agent') continue;
      for (const g of p.grants) {
        if (g.access !== 'metadata') continue;
        ctx.report({
          severity: 'warning',
          platforms: ['linux'],
          message: `Linux accepts \`metadata\` at ${shown(g)} but supplies no metadata-only tree: the path does not exist for the agent`,
          span: g.span,
          suggestion: 'Use content reads only if acceptable (they expose file contents), or mediated metadata access.',
        });
      }
    }
  },
};
