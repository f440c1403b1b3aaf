import type { Rule } from './engine.js';

export const metadataEverywhere: Rule = {
  meta: {
    id: 'metadata-everywhere',
    seedRow: 'Seed 001: "content, not metadata"',
    severity: { linux: 'info' },
    dialects: ['tyba'],
    docs: {
      summary: 'TYBA promises metadata of every file; on Linux ungranted paths are absent instead.',
      details:
        'Seed 001: the agent can check whether a file exists, its size and its date; only the content is denied by default. The macOS lowering allows `file-read-metadata` everywhere. The Linux mount view cannot: ungranted paths do not exist, so a program that stats a path outside its grants sees ENOENT, not metadata.',
      bad: '[sandbox]\nread_allow = []',
      good: '[sandbox]\nread_allow = []  # the same: info only',
    },
  },
  check(ctx) {
    const agent = ctx.ir.principals[0];
    if (!agent) return;
    ctx.report({
      severity: 'info',
      platforms: ['linux'],
      message: 'on Linux ungranted paths are absent, not metadata-visible: the agent cannot see the existence, size or date of files outside its grants there, as it can on macOS',
      span: agent.span,
    });
  },
};
