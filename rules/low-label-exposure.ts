import { defineRule } from './engine.js';
import { listPaths, relatedGrants, who } from './util.js';

export const lowLabelExposure = defineRule({
  meta: {
    id: 'low-label-exposure',
    seedRow: 'Our Windows lowering: Low-labelled write trees',
    docs: {
      summary: 'A Windows write tree gets a Low integrity label: any low-integrity process can write there.',
      details:
        'A Low-integrity token may not write Medium objects (no-write-up), so each write grant becomes an allow ACE for the session SID plus a Low mandatory label on the tree. Any other low-integrity process on the machine (a browser sandbox, another agent) can then write there too. Reported once per principal, at its first write grant.',
      bad: { toml: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project"]', expect: ['3:10 info windows'] },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]  # the smallest write tree', expect: ['3:10 info windows'] },
    },
  },
  messages: {
    labelled: {
      severity: 'info',
      platforms: ['windows'],
      text: (d: { paths: readonly string[]; who: string }) =>
        `${listPaths(d.paths)} ${d.paths.length === 1 ? 'gets' : 'get'} a Low integrity label so that ${d.who} can write ${d.paths.length === 1 ? 'it' : 'them'}: any low-integrity process can then write there`,
      suggestion: 'Use the smallest write subtree or exact file.',
    },
  },
  check(ctx) {
    for (const pa of ctx.access.principals) {
      const labelled = pa.grants.filter((ga) => {
        const g = ga.grant;
        const cell = ga.effective.windows;
        // A path the plan leaves out (no-windows-path) gets no label: the model says it does not apply there.
        return !g.implicit && (g.access === 'write' || g.access === 'read-write') && ga.applies.windows && !!g.path && cell.kind === 'access' && cell.write;
      });
      const first = labelled[0];
      if (!first) continue;
      ctx.report(
        'labelled',
        { span: first.grant.span, related: relatedGrants(labelled.slice(1).map((ga) => ga.grant), 'also labelled Low') },
        { paths: labelled.map((ga) => ga.grant.path!), who: who(pa.principal) },
      );
    }
  },
});
