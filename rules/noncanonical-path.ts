import { macosCanonical, normalise, spellingProblems } from '../compiler/paths/index.js';
import type { Rule } from './engine.js';
import { authoredEntries } from './paths.js';

export const noncanonicalPath: Rule = {
  meta: {
    id: 'noncanonical-path',
    seedRow: 'Symbolic-link entries (noncanonical grant spellings)',
    severity: { macos: 'error', linux: 'error', windows: 'error' },
    docs: {
      summary: 'A path is not in its canonical spelling.',
      details:
        'Box validates the actual path identity and refuses noncanonical spellings: a path must be absolute (or start with `~/`), with no `.` or `..` component, no `//` and no trailing slash. Canonical is judged per platform: on macOS `/tmp`, `/var` and `/etc` are links into `/private`, so those spellings are refused for macOS wherever boxwright runs (name `/private/tmp/…` for macOS).',
      bad: '[agent.filesystem]\nread = ["~/project/../project/"]',
      good: '[agent.filesystem]\nread = ["~/project"]',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      for (const e of authoredEntries(p)) {
        if (e.expandProblem) {
          ctx.report({ severity: 'error', platforms: ['macos', 'linux', 'windows'], message: `${e.expandProblem}`, span: e.span });
          continue;
        }
        if (!e.path) continue;
        const problems = spellingProblems(e.path);
        if (problems.length) {
          const fixed = e.written.startsWith('~/') ? ('~' + normalise(e.written.slice(1))).replace(/^~\/$/, '~') : normalise(e.path);
          ctx.report({
            severity: 'error',
            platforms: ['macos', 'linux', 'windows'],
            message: `\`${e.written}\` is not canonical: it has ${problems.join(' and ')}; write ${fixed}`,
            span: e.span,
            suggestion: `Name the path as ${fixed}.`,
          });
          continue;
        }
        const mac = macosCanonical(e.path);
        if (mac) {
          ctx.report({
            severity: 'error',
            platforms: ['macos'],
            message: `${e.path} is not canonical on macOS: ${e.path.split('/')[1] ? '/' + e.path.split('/')[1] : e.path} is a link into /private; macOS names it ${mac}`,
            span: e.span,
            suggestion: `Name the resolved target ${mac} in a macOS config.`,
          });
        }
      }
    }
  },
};
