import { PLATFORMS } from '../compiler/diagnostic.js';
import { defineRule } from './engine/engine.js';

/** Reported by rules/engine/apply-suppressions.ts, which reads the comments, not by a check. */
export const suppression = defineRule({
  meta: {
    id: 'suppression',
    seedRow: 'Inline ignore comments',
    docs: {
      summary: 'A `# boxwright-ignore` comment without a reason, naming an unknown rule, silencing nothing, or aimed at an error.',
      details:
        "`# boxwright-ignore RULE[, RULE…]: reason` on the line above an entry silences those rules' warnings " +
        'and infos for that entry. The reason is required. An error cannot be silenced, because the platform ' +
        'refuses the configuration whatever the comment says. A suppression that silences nothing is reported ' +
        'so that stale ones do not pile up.',
      bad: {
        toml: '[agent.filesystem]\n# boxwright-ignore deny-file-substitution\nread = ["~/project"]',
        expect: ['2:1 warning macos,linux,windows'],
      },
      good: {
        toml:
          '[agent.filesystem]\nread = ["~/project"]\n# boxwright-ignore deny-file-substitution: the tool treats an empty .env as unset\n' +
          'deny = ["~/project/.env"]',
        expect: [],
      },
    },
  },
  messages: {
    invalid: { severity: 'warning', platforms: PLATFORMS, text: (d: { message: string }) => d.message },
  },
});
