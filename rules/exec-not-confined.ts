import { defineRule } from './engine.js';
import { authored, relatedGrants, who } from './util.js';

export const execNotConfined = defineRule({
  meta: {
    id: 'exec-not-confined',
    seedRow: 'Our Linux lowering: bubblewrap cannot mount read trees non-executable',
    dialects: ['box'],
    docs: {
      summary: "The agent's (and local MCP servers') read trees are executable on Linux.",
      details:
        "Box's platform table says ordinary agent read trees remain non-executable. boxwright's Linux lowering uses bubblewrap, which has no per-mount `noexec`: whatever the agent can read it can also execute. boxwright says so rather than pretend, until a lowering exists that can confine execution. Reported once per principal (the agent, each local MCP server; tools have `tool-exec-widening`), at its first read grant.",
      bad: { toml: '[agent.filesystem]\nread = ["~/project"]', expect: ['2:9 info linux'] },
      good: { toml: '# nothing to change in the config: this is a property of the lowering', expect: [] },
    },
  },
  messages: {
    executable: {
      severity: 'info',
      platforms: ['linux'],
      text: (d: { who: string; count: number }) =>
        `${d.who}'s read grants are executable on Linux: bubblewrap cannot mount read trees non-executable (${d.count} grant${d.count === 1 ? '' : 's'})`,
    },
  },
  explains: {
    'mounts-executable': () => 'bubblewrap cannot mount read trees non-executable',
    'exec-grant-readable': () => 'the executable is bound read-only: it can be read as well as run',
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      if (p.kind === 'tool') continue; // tool-exec-widening says it for tools
      const readable = authored(p).filter((g) => g.path && (g.access === 'read' || g.access === 'read-write'));
      const first = readable[0];
      if (!first) continue;
      ctx.report('executable', { span: first.span, related: relatedGrants(readable.slice(1), 'also executable on Linux') }, { who: who(p), count: readable.length });
    }
  },
});
