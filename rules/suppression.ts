import type { Rule } from './engine.js';

export const suppression: Rule = {
  meta: {
    id: 'suppression',
    seedRow: 'Inline ignore comments',
    severity: { macos: 'warning', linux: 'warning', windows: 'warning' },
    docs: {
      summary: 'A `# boxwright-ignore` comment without a reason, naming an unknown rule, silencing nothing, or aimed at an error.',
      details:
        '`# boxwright-ignore RULE[, RULE…]: reason` on the line above an entry silences those rules\' warnings and infos for that entry. The reason is required. An error cannot be silenced, because the platform refuses the configuration whatever the comment says. A suppression that silences nothing is reported so that stale ones do not pile up.',
      bad: '[agent.filesystem]\n# boxwright-ignore deny-file-substitution\nread = ["~/project"]',
      good: '[agent.filesystem]\nread = ["~/project"]\n# boxwright-ignore deny-file-substitution: the tool treats an empty .env as unset\ndeny = ["~/project/.env"]',
    },
  },
};
