import { platformsReporting } from '../model/platforms-of.js';
import { defineRule } from './engine/engine.js';
import { addToList, fixOf, removeFromList } from './engine/fix.js';
import { shown } from './util.js';

export const metadataTree = defineRule({
  meta: {
    id: 'metadata-tree',
    seedRow: "Box's platform table, row: Metadata-only tree (agent)",
    dialects: ['box'],
    docs: {
      summary: "The agent's `metadata` tree is accepted on Linux but not supplied.",
      details:
        'macOS exposes file properties (existence, size, dates) without content. Linux omits this mount ' +
        'rather than expose content, so it accepts the entry but supplies no metadata-only tree: the path ' +
        'does not exist for the agent.',
      bad: { toml: '[agent.filesystem]\nmetadata = ["~/archive"]', expect: ['2:13 warning linux'] },
      good: { toml: '[agent.filesystem]\nread = ["~/archive"]  # only if content reads are acceptable', expect: [] },
    },
  },
  messages: {
    absent: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { path: string }) =>
        `Linux accepts \`metadata\` at ${d.path} but supplies no metadata-only tree: the path does not exist for the agent`,
      suggestion: 'Use content reads only if acceptable (they expose file contents), or mediated metadata access.',
    },
  },
  explains: {
    'no-metadata-tree': () => 'Linux supplies no metadata-only tree',
  },
  anyGrant(g, ga, pa, ctx) {
    const platforms = platformsReporting(ga.notes, 'no-metadata-tree');
    if (!platforms.length) return;
    const fix = fixOf(addToList(pa.principal.written, pa.principal.grants, 'read', [g.written]), removeFromList(ctx.text, g.span));
    ctx.report('absent', { span: g.span, platforms, fix }, { path: shown(g) });
  },
});
