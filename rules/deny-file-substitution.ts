import { isStrictlyUnder } from '../compiler/paths/index.js';
import { defineRule } from './engine.js';
import { relatedGrant, shown } from './util.js';

export const denyFileSubstitution = defineRule({
  meta: {
    id: 'deny-file-substitution',
    seedRow: "Box's platform table, row: Deny an existing file",
    docs: {
      summary: 'A denied file inside a granted tree reads as empty on Linux.',
      details:
        'Linux places an empty read-only file over the denied target: reads can return empty output while writes fail, so a successful read does not mean the original content is accessible. macOS applies a refusal rule instead, so the same program sees an error there. Denied directories get an empty read-only tmpfs.',
      bad: { toml: '[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/project/.env"]', expect: ['3:9 warning linux'] },
      good: { toml: '[agent.filesystem]\nread = ["~/project/src"]  # no broader grant over .env', expect: [] },
    },
  },
  messages: {
    empty: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { path: string }) =>
        `Linux places an empty file over ${d.path}: reads can return empty output while writes fail; a successful read does not mean the original content is accessible`,
      suggestion:
        'Omit the broader content grant when empty-file substitution breaks the workload, and grant the narrower paths the workload needs instead; a write grant that the broader read covered then needs a read of its own on Linux (write-only).',
    },
  },
  explains: {
    'empty-cover': (f) => (f.of === 'file' ? 'an empty read-only file covers it: reads succeed empty, writes fail' : 'an empty read-only tmpfs covers it'),
  },
  check(ctx) {
    for (const pa of ctx.access.principals) {
      for (const ga of pa.grants) {
        const g = ga.grant;
        const cover = ga.notes.linux;
        if (g.implicit || !g.path || cover?.kind !== 'empty-cover' || cover.of !== 'file') continue;
        const broader = pa.principal.grants.find((o) => o !== g && o.access !== 'deny' && o.scope === 'tree' && o.path && isStrictlyUnder(g.path!, o.path));
        if (!broader) continue;
        ctx.report('empty', { span: g.span, related: [relatedGrant(broader, 'the broader grant the denied file sits in')] }, { path: shown(g) });
      }
    }
  },
});
