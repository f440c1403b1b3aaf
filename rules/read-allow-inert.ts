import { defineRule } from './engine/engine.js';

export const readAllowInert = defineRule({
  meta: {
    id: 'read-allow-inert',
    seedRow: "TYBA's platforms page: sandbox.read_allow on Windows",
    dialects: ['tyba'],
    docs: {
      summary: '`read_allow` has no effect on Windows.',
      details:
        'On Windows `sandbox.read_allow` is accepted and validated, but discarded. Nothing is lost: reads ' +
        'are already open, so everything it could grant is already granted; and what it cannot grant (the ' +
        'listed secrets) it cannot grant on macOS either, where denials beat any permission.',
      bad: { toml: '[sandbox]\nread_allow = ["~/datasets"]', expect: ['2:15 info windows'] },
      good: { toml: '[sandbox]\nread_allow = ["~/datasets"]  # the same: info only, nothing to change', expect: ['2:15 info windows'] },
    },
  },
  messages: {
    inert: {
      severity: 'info',
      platforms: ['windows'],
      text: (d: { path: string }) => `read_allow ${d.path} is inert on Windows: accepted and discarded, since reads are already open there`,
    },
  },
  explains: {
    'read-allow-discarded': () => 'read_allow is inert on Windows: reads are already open',
  },
  authoredGrant(g, _ga, _pa, ctx) {
    if (g.list === 'read_allow') ctx.report('inert', { span: g.span }, { path: g.path ?? g.written });
  },
});
