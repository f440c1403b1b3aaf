import { PLATFORMS } from '../compiler/diagnostic.js';
import type { Cell } from '../model/index.js';
import { defineRule } from './engine/engine.js';
import { addToList, fixOf, removeFromList } from './engine/fix.js';
import { who } from './util.js';

export const metadataInTool = defineRule({
  meta: {
    id: 'metadata-in-tool',
    seedRow: "Box's platform table, row: Metadata-only tree (tools)",
    dialects: ['box'],
    docs: {
      summary: 'Tools and MCP servers refuse the `metadata` field.',
      details:
        "Only the agent's filesystem table takes `metadata`. A tool's (or local MCP server's) table with " +
        '`metadata` is refused on every platform before it starts.',
      bad: { toml: '[tools.indexer.filesystem]\nmetadata = ["~/archive"]', expect: ['2:13 error macos,linux,windows'] },
      good: { toml: '[tools.indexer.filesystem]\nread = ["~/archive"]', expect: [] },
    },
  },
  messages: {
    refused: {
      severity: 'error',
      platforms: PLATFORMS,
      text: (d: { who: string }) => `${d.who} refuses the \`metadata\` field: only the agent's filesystem table takes metadata-only trees`,
      suggestion: 'Use content reads only if acceptable (they expose file contents), or mediated metadata access.',
    },
  },
  explains: {
    'metadata-field-in-tool': () => 'tools refuse the metadata field',
  },
  anyGrant(g, ga, pa, ctx) {
    const { macos, linux, windows } = ga.effective;
    if (!refusedHere(macos) && !refusedHere(linux) && !refusedHere(windows)) return;
    const fix = fixOf(addToList(pa.principal.written, pa.principal.grants, 'read', [g.written]), removeFromList(ctx.text, g.span));
    ctx.report('refused', { span: g.span, fix }, { who: who(pa.principal) });
  },
});

function refusedHere(c: Cell): boolean {
  return c.kind === 'refused' && c.because.kind === 'metadata-field-in-tool';
}
