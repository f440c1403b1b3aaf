import type { Rule } from './engine.js';
import { relatedGrant, shown } from './util.js';

export const denyFileSubstitution: Rule = {
  meta: {
    id: 'deny-file-substitution',
    seedRow: 'Deny an existing file',
    severity: { linux: 'warning' },
    docs: {
      summary: 'A denied file inside a granted tree reads as empty on Linux.',
      details:
        'Linux places an empty read-only file over the denied target: reads can return empty output while writes fail, so a successful read does not mean the original content is accessible. macOS applies a refusal rule instead, so the same program sees an error there. Denied directories get an empty read-only tmpfs.',
      bad: '[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/project/.env"]',
      good: '[agent.filesystem]\nread = ["~/project/src"]  # no broader grant over .env',
    },
  },
  check(ctx) {
    for (const pa of ctx.access.principals) {
      for (const ga of pa.grants) {
        const g = ga.grant;
        if (g.implicit || g.access !== 'deny' || g.facts.kind !== 'file' || !g.path || ga.effective.linux.kind !== 'empty') continue;
        const broader = pa.principal.grants.find((o) => o !== g && o.access !== 'deny' && o.scope === 'tree' && o.path && g.path!.startsWith(o.path === '/' ? '/' : o.path + '/'));
        if (!broader) continue;
        ctx.report({
          severity: 'warning',
          platforms: ['linux'],
          message: `Linux places an empty file over ${shown(g)}: reads can return empty output while writes fail; a successful read does not mean the original content is accessible`,
          span: g.span,
          related: [relatedGrant(broader, 'the broader grant the denied file sits in')],
          suggestion: 'Omit the broader content grant when empty-file substitution breaks the workload.',
        });
      }
    }
  },
};
