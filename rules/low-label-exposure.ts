import type { PrincipalAccess } from '../model/index.js';
import { defineRule, type PathGrant } from './engine/engine.js';
import { listPaths, relatedGrants, who } from './util.js';

export const lowLabelExposure = defineRule({
  meta: {
    id: 'low-label-exposure',
    seedRow: 'Our Windows lowering: Low-labelled write trees',
    docs: {
      summary: 'A Windows write tree gets a Low integrity label: any low-integrity process can write there.',
      details:
        'A Low-integrity token may not write Medium objects (no-write-up), so each write grant becomes an ' +
        'allow ACE for the session SID plus a Low mandatory label on the tree. Any other low-integrity process ' +
        'on the machine (a browser sandbox, another agent) can then write there too. Reported once per principal, ' +
        'at its first write grant.',
      bad: { toml: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project"]', expect: ['3:10 info windows'] },
      good: {
        toml: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]  # the smallest write tree',
        expect: ['3:10 info windows'],
      },
    },
  },
  messages: {
    labelled: {
      severity: 'info',
      platforms: ['windows'],
      text: (d: { paths: readonly string[]; who: string }) =>
        `${listPaths(d.paths)} ${d.paths.length === 1 ? 'gets' : 'get'} a Low integrity label so that ${d.who} ` +
        `can write ${d.paths.length === 1 ? 'it' : 'them'}: any low-integrity process can then write there`,
      suggestion: 'Use the smallest write subtree or exact file.',
    },
  },
  grant(g, ga, pa) {
    const cell = ga.effective.windows;
    // A path the plan leaves out (no-windows-path) gets no label: the model says it does not apply there.
    if ((g.access === 'write' || g.access === 'read-write') && ga.applies.windows && cell.kind === 'access' && cell.write) {
      const list = labelled.get(pa);
      if (list) list.push(g);
      else labelled.set(pa, [g]);
    }
  },
  principalExit(pa, ctx) {
    const grants = labelled.get(pa);
    labelled.delete(pa); // a model may be linted again
    const first = grants?.[0];
    if (!grants || !first) return;
    ctx.report(
      'labelled',
      { span: first.span, related: relatedGrants(grants.slice(1), 'also labelled Low') },
      { paths: grants.map((g) => g.path), who: who(pa.principal) },
    );
  },
});

/** Each principal's grants that Windows labels Low, gathered by the walk and said once at the principal's end. */
const labelled = new WeakMap<PrincipalAccess, PathGrant[]>();
