import type { Rule } from './engine.js';
import { authoredEntries } from './paths.js';

export const symlinkEntry: Rule = {
  meta: {
    id: 'symlink-entry',
    seedRow: 'Symbolic-link entries',
    severity: { macos: 'error', linux: 'error', windows: 'error' },
    docs: {
      summary: 'A path goes through a symbolic link.',
      details:
        'Box validates the actual path identity on both platforms and refuses an entry with a symbolic-link component, wherever in the path the link sits. Name the resolved target instead; the diagnostic names it.',
      bad: '[agent.filesystem]\nread = ["~/current"]  # ~/current -> ~/releases/v2',
      good: '[agent.filesystem]\nread = ["~/releases/v2"]',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      for (const e of authoredEntries(p)) {
        const link = e.facts.symlink;
        if (!link) continue;
        ctx.report({
          severity: 'error',
          platforms: ['macos', 'linux', 'windows'],
          message: `\`${e.written}\` goes through the symbolic link ${link.link}; name the resolved target ${link.resolved}`,
          span: e.span,
          suggestion: `Name the resolved target ${link.resolved}.`,
        });
      }
    }
  },
};
