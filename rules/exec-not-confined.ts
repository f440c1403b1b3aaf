import type { Rule } from './engine.js';
import { authored, relatedGrants, who } from './util.js';

export const execNotConfined: Rule = {
  meta: {
    id: 'exec-not-confined',
    seedRow: 'Our Linux lowering: bubblewrap cannot mount read trees non-executable',
    severity: { linux: 'info' },
    dialects: ['box'],
    docs: {
      summary: "The agent's (and local MCP servers') read trees are executable on Linux.",
      details:
        "Seed 000 says ordinary agent read trees remain non-executable. boxwright's Linux lowering uses bubblewrap, which has no per-mount `noexec`: whatever the agent can read it can also execute. boxwright says so rather than pretend, until a lowering exists that can confine execution. Reported once per principal (the agent, each local MCP server; tools have `tool-exec-widening`), at its first read grant.",
      bad: '[agent.filesystem]\nread = ["~/project"]',
      good: '# nothing to change in the config: this is a property of the lowering',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      if (p.kind === 'tool') continue; // tool-exec-widening says it for tools
      const readable = authored(p).filter((g) => g.path && (g.access === 'read' || g.access === 'read-write'));
      const first = readable[0];
      if (!first) continue;
      ctx.report({
        severity: 'info',
        platforms: ['linux'],
        message: `${who(p)}'s read grants are executable on Linux: bubblewrap cannot mount read trees non-executable (${readable.length} grant${readable.length === 1 ? '' : 's'})`,
        span: first.span,
        related: relatedGrants(readable.slice(1), 'also executable on Linux'),
      });
    }
  },
};
