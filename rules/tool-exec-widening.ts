import type { Rule } from './engine.js';
import { authored, listPaths, relatedGrants, who } from './util.js';

export const toolExecWidening: Rule = {
  meta: {
    id: 'tool-exec-widening',
    seedRow: 'Helper execution',
    severity: { linux: 'info' },
    dialects: ['box'],
    docs: {
      summary: "Linux makes a tool's read and write mounts executable.",
      details:
        'Tools can run helpers and load built code, so Linux makes their read/write mounts executable: anything under a tool\'s content grant can run. The agent keeps explicit execution grants. Reported once per tool, at its first content grant.',
      bad: '[tools.builder.filesystem]\nread = ["~"]',
      good: '[tools.builder.filesystem]\nread = ["~/project/src"]\nwrite = ["~/project/build"]',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      if (p.kind !== 'tool') continue;
      const content = authored(p).filter((g) => g.path && ['read', 'write', 'read-write'].includes(g.access));
      const first = content[0];
      if (!first) continue;
      ctx.report({
        severity: 'info',
        platforms: ['linux'],
        message: `Linux makes ${who(p)}'s read and write mounts executable: programs under ${listPaths(content.map((g) => g.path!))} can run`,
        span: first.span,
        related: relatedGrants(content.slice(1), 'also executable'),
        suggestion: 'Grant the tool only the files and directories its task requires.',
      });
    }
  },
};
