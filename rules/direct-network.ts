import type { Rule } from './engine.js';
import { who } from './util.js';

export const directNetwork: Rule = {
  meta: {
    id: 'direct-network',
    seedRow: 'Direct network exception',
    severity: { macos: 'warning', linux: 'warning', windows: 'warning' },
    dialects: ['box'],
    docs: {
      summary: 'A tool or local MCP server bypasses gateway policy.',
      details:
        'A tool network table, or `contain_egress = false` on a local MCP server, is a direct network exception: that principal bypasses gateway policy (Linux shares the surrounding OS network namespace). Other sandbox restrictions remain. The agent itself refuses a network table (`agent-network-table`).',
      bad: '[mcp_servers.search]\ncontain_egress = false',
      good: '[mcp_servers.search]\ncontain_egress = true',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      if (!p.directNetwork) continue;
      const how = p.directNetwork.how === 'network-table' ? 'a network table' : '`contain_egress = false`';
      ctx.report({
        severity: 'warning',
        platforms: ['macos', 'linux', 'windows'],
        message: `${who(p)} has a direct network exception (${how}): it bypasses gateway policy, and on Linux shares the surrounding network namespace; other sandbox restrictions remain`,
        span: p.directNetwork.span,
        suggestion: 'Keep gateway mode when policy must decide network requests.',
      });
    }
  },
};
