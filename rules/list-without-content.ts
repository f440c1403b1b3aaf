import type { Rule } from './engine.js';
import { shown } from './util.js';

export const listWithoutContent: Rule = {
  meta: {
    id: 'list-without-content',
    seedRow: 'Directory names without content',
    severity: { linux: 'error' },
    dialects: ['box'],
    docs: {
      summary: '`list` (names without contents) cannot be lowered on Linux.',
      details:
        'macOS supports `list`: the directory\'s entry names are readable, their contents are not. Linux mounts cannot provide this separation, so Linux refuses the entry. The alternative, `read`, exposes file contents: apply it only if that read access is acceptable, or use mediated directory access.',
      bad: '[agent.filesystem]\nlist = ["~/inbox"]',
      good: '[agent.filesystem]\nread = ["~/inbox"]  # only if content access is acceptable',
    },
  },
  check(ctx) {
    for (const pa of ctx.access.principals) {
      for (const ga of pa.grants) {
        const cell = ga.effective.linux;
        if (cell.kind !== 'refused' || cell.ruleId !== 'list-without-content') continue;
        ctx.report({
          severity: 'error',
          platforms: ['linux'],
          message: `${shown(ga.grant)} cannot be listed without its contents on Linux: the namespace backend has no lowering for \`list\`; grant \`read\` instead`,
          span: ga.grant.span,
          suggestion:
            'Grant read only if content access is acceptable, or use mediated directory access. That suggested change exposes file contents. Apply it only if that read access is acceptable.',
        });
      }
    }
  },
};
