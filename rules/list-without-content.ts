import { defineRule } from './engine.js';
import { addToList, fixOf, removeFromList } from './fix.js';
import { shown } from './util.js';

export const listWithoutContent = defineRule({
  meta: {
    id: 'list-without-content',
    seedRow: "Box's platform table, row: Directory names without content",
    dialects: ['box'],
    docs: {
      summary: '`list` (names without contents) cannot be lowered on Linux.',
      details:
        "macOS supports `list`: the directory's entry names are readable, their contents are not. Linux mounts cannot provide this separation, so Linux refuses the entry. The alternative, `read`, exposes file contents: apply it only if that read access is acceptable, or use mediated directory access.",
      bad: { toml: '[agent.filesystem]\nlist = ["~/inbox"]', expect: ['2:9 error linux'] },
      good: { toml: '[agent.filesystem]\nread = ["~/inbox"]  # only if content access is acceptable', expect: [] },
    },
  },
  messages: {
    refused: {
      severity: 'error',
      platforms: ['linux'],
      // The platform document's text, byte for byte.
      text: (d: { path: string }) => `${d.path} cannot be listed without its contents on Linux: the namespace backend has no lowering for \`list\`; grant \`read\` instead`,
      suggestion: 'Grant read only if content access is acceptable, or use mediated directory access. That suggested change exposes file contents. Apply it only if that read access is acceptable.',
    },
  },
  explains: {
    'names-without-content': () => 'Linux mounts cannot show names without contents',
  },
  check(ctx) {
    for (const pa of ctx.access.principals) {
      for (const ga of pa.grants) {
        const cell = ga.effective.linux;
        if (cell.kind !== 'refused' || cell.because.kind !== 'names-without-content') continue;
        const g = ga.grant;
        const fix = fixOf(addToList(pa.principal.written, pa.principal.grants, 'read', [g.written]), removeFromList(ctx.text, g.span));
        ctx.report('refused', { span: g.span, fix }, { path: shown(g) });
      }
    }
  },
});
