import { PLATFORMS } from '../compiler/diagnostic.js';
import { macosCanonical, normalise, spellingProblems } from '../compiler/paths/index.js';
import { defineRule } from './engine/engine.js';
import { replaceString } from './engine/fix.js';

export const noncanonicalPath = defineRule({
  meta: {
    id: 'noncanonical-path',
    seedRow: "Box's platform table, row: Symbolic-link entries (noncanonical grant spellings)",
    docs: {
      summary: 'A path is not in its canonical spelling.',
      details:
        'Box validates the actual path identity and refuses noncanonical spellings: a path must be absolute ' +
        '(or start with `~/`), with no `.` or `..` component, no `//` and no trailing slash. Canonical is ' +
        'judged per platform: on macOS `/tmp`, `/var` and `/etc` are links into `/private`, so those spellings ' +
        'are refused for macOS wherever boxwright runs (name `/private/tmp/…` for macOS).',
      bad: { toml: '[agent.filesystem]\nread = ["~/project/../project/"]', expect: ['2:9 error macos,linux,windows'] },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]', expect: [] },
    },
  },
  messages: {
    unexpandable: {
      severity: 'error',
      platforms: PLATFORMS,
      text: (d: { problem: string }) => d.problem,
    },
    spelling: {
      severity: 'error',
      platforms: PLATFORMS,
      text: (d: { written: string; problems: readonly string[]; fixed: string }) =>
        `\`${d.written}\` is not canonical: it has ${d.problems.join(' and ')}; write ${d.fixed}`,
      suggestion: (d: { fixed: string }) => `Name the path as ${d.fixed}.`,
    },
    macos: {
      severity: 'error',
      platforms: ['macos'],
      text: (d: { path: string; mac: string }) => {
        const top = secondComponent(d.path);
        return `${d.path} is not canonical on macOS: ${top ? '/' + top : d.path} is a link into /private; macOS names it ${d.mac}`;
      },
      suggestion: (d: { mac: string }) =>
        `Name the resolved target ${d.mac} in a config used only on macOS. A config shared with Linux cannot ` +
        `name this path for both (each platform refuses the other's spelling): grant a path under the home instead.`,
    },
  },
  entry(e, _pa, ctx) {
    if (e.expandProblem) {
      ctx.report('unexpandable', { span: e.span }, { problem: e.expandProblem });
      return;
    }
    if (!e.path) return;
    const problems = spellingProblems(e.path);
    if (problems.length) {
      const fixed = e.written.startsWith('~/') ? ('~' + normalise(e.written.slice(1))).replace(/^~\/$/, '~') : normalise(e.path);
      ctx.report('spelling', { span: e.span, fix: replaceString(e.span, fixed) }, { written: e.written, problems, fixed });
      return;
    }
    const mac = macosCanonical(e.path);
    if (mac) ctx.report('macos', { span: e.span }, { path: e.path, mac });
  },
});

/** What `path.split('/')[1]` is (undefined without a `/`), without the array: asked once per grant of a large config under /tmp. */
function secondComponent(path: string): string | undefined {
  const first = path.indexOf('/');
  if (first < 0) return undefined;
  const next = path.indexOf('/', first + 1);
  return path.slice(first + 1, next < 0 ? undefined : next);
}
