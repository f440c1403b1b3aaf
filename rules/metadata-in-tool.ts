import type { Rule } from './engine.js';
import { who } from './util.js';

export const metadataInTool: Rule = {
  meta: {
    id: 'metadata-in-tool',
    seedRow: 'Metadata-only tree (tools)',
    severity: { macos: 'error', linux: 'error', windows: 'error' },
    dialects: ['box'],
    docs: {
      summary: 'Tools and MCP servers refuse the `metadata` field.',
      details: 'Only the agent\'s filesystem table takes `metadata`. A tool\'s (or local MCP server\'s) table with `metadata` is refused on every platform before it starts.',
      bad: '[tools.indexer.filesystem]\nmetadata = ["~/archive"]',
      good: '[tools.indexer.filesystem]\nread = ["~/archive"]',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      if (p.kind === 'agent') continue;
      for (const g of p.grants) {
        if (g.access !== 'metadata') continue;
        ctx.report({
          severity: 'error',
          platforms: ['macos', 'linux', 'windows'],
          message: `${who(p)} refuses the \`metadata\` field: only the agent's filesystem table takes metadata-only trees`,
          span: g.span,
          suggestion: 'Use content reads only if acceptable (they expose file contents), or mediated metadata access.',
        });
      }
    }
  },
};
