import { defineRule } from './engine.js';
import { who } from './util.js';

export const directNetwork = defineRule({
  meta: {
    id: 'direct-network',
    seedRow: 'Direct network exception',
    dialects: ['box'],
    docs: {
      summary: 'A tool or local MCP server bypasses gateway policy.',
      details:
        'A tool network table, or `contain_egress = false` on a local MCP server, is a direct network exception: that principal bypasses gateway policy (Linux shares the surrounding OS network namespace). Other sandbox restrictions remain. The agent itself refuses a network table (`agent-network-table`).',
      bad: { toml: '[mcp_servers.search]\ncontain_egress = false', expect: ['2:18 warning macos,linux,windows'] },
      good: { toml: '[mcp_servers.search]\ncontain_egress = true', expect: [] },
    },
  },
  messages: {
    bypass: {
      severity: 'warning',
      platforms: ['macos', 'linux', 'windows'],
      text: (d: { who: string; how: string }) =>
        `${d.who} has a direct network exception (${d.how}): it bypasses gateway policy, and on Linux shares the surrounding network namespace; other sandbox restrictions remain`,
      suggestion: 'Keep gateway mode when policy must decide network requests.',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      if (!p.directNetwork) continue;
      ctx.report('bypass', { span: p.directNetwork.span }, { who: who(p), how: p.directNetwork.how === 'network-table' ? 'a network table' : '`contain_egress = false`' });
    }
  },
});
