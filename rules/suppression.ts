import { PLATFORMS } from '../compiler/diagnostic.js';
import { defineRule } from './engine/engine.js';

/**
 * Reported by rules/engine/apply-suppressions.ts, which reads the comments,
 * and by the project file's reader (app/project-file.ts) about its
 * `[[ignore]]` entries: not by a check.
 */
export const suppression = defineRule({
  meta: {
    id: 'suppression',
    seedRow: 'Inline ignore comments',
    docs: {
      summary:
        'A `# boxwright-ignore` comment or a `.boxwright.toml` ignore without a reason, naming an unknown ' +
        'rule, silencing nothing, expired, or aimed at an error.',
      details:
        "`# boxwright-ignore RULE[, RULE…]: reason` on the line above an entry silences those rules' " +
        'warnings and infos for that entry. The reason is required. An error cannot be silenced, because the ' +
        'platform refuses the configuration whatever the comment says. A suppression that silences nothing ' +
        'is reported so that stale ones do not pile up. The project file, `.boxwright.toml` (found upward ' +
        "from the config, no further than the repository's root), does the same in every dialect, JSON ones " +
        'included, by rule id and path glob: `[[ignore]]` with `rule`, `path`, a required `reason` and an ' +
        'optional `expires` TOML date. These warnings are then reported in the project file: an ignore ' +
        'naming an unknown rule, one whose `expires` day (UTC) has come (it silences nothing from that day), ' +
        'one aimed at an error (which stays), and one that silenced nothing in a config it names.',
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
