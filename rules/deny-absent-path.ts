import { platformsRefusing, platformsReporting } from '../model/platforms-of.js';
import { defineRule } from './engine/engine.js';
import { shown } from './util.js';

const alternative = 'Create the target first, or deny an existing ancestor that does not invalidate the whole grant.';

export const denyAbsentPath = defineRule({
  meta: {
    id: 'deny-absent-path',
    seedRow: "Box's platform table, row: Deny an absent path",
    docs: {
      summary: 'A `deny` names a path that does not exist.',
      details:
        'macOS can express a future-path refusal: the Seatbelt rule also covers a path created later. Linux ' +
        'refuses the configuration, because it covers a denied path by mounting over it, which needs an ' +
        'existing target. Windows has nothing to label: a file created there later is readable by the agent. ' +
        'With `--fs none` the existence is unknown and the rule says so as info.',
      bad: {
        toml: '[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/project/.env.local"]  # does not exist',
        expect: ['3:9 error linux', '3:9 warning windows'],
      },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/project/.env"]  # exists', expect: [] },
    },
  },
  messages: {
    linux: {
      severity: 'error',
      platforms: ['linux'],
      // The platform document: "Linux refuses: does not exist yet."
      text: (d: { path: string }) => `Linux cannot deny ${d.path}: it does not exist yet`,
      suggestion: alternative,
    },
    windows: {
      severity: 'warning',
      platforms: ['windows'],
      text: (d: { path: string }) =>
        `nothing to label at ${d.path} on Windows: it does not exist yet, and a file created there later is readable`,
      suggestion: alternative,
    },
    unknown: {
      severity: 'info',
      platforms: ['linux', 'windows'],
      machineDependent: true,
      text: (d: { path: string; fs: string }) =>
        `depends on the machine: Linux refuses a deny of ${d.path} if it does not exist, and Windows cannot label it (--fs ${d.fs} knows no paths)`,
    },
  },
  explains: {
    'deny-target-absent': () => 'Linux needs an existing deny target',
    'nothing-to-label': () => 'nothing to label: a file created there later is readable',
    'future-path-refused': () => 'absent today: the path stays refused if it is created later',
  },
  grant(g, ga, _pa, ctx) {
    if (g.access !== 'deny') return;
    const data = { path: shown(g) };
    if (g.facts.existence === 'unknown') ctx.report('unknown', { span: g.span }, { ...data, fs: ctx.view.description });
    const refused = platformsRefusing(ga.effective, 'deny-target-absent');
    if (refused.length) ctx.report('linux', { span: g.span, platforms: refused }, data);
    const unlabelled = platformsReporting(ga.notes, 'nothing-to-label');
    if (unlabelled.length) ctx.report('windows', { span: g.span, platforms: unlabelled }, data);
  },
});
