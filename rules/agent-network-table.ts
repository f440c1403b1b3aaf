import type { Rule } from './engine.js';

export const agentNetworkTable: Rule = {
  meta: {
    id: 'agent-network-table',
    seedRow: 'Direct network exception (the agent refuses a network table)',
    severity: { macos: 'error', linux: 'error', windows: 'error' },
    dialects: ['box'],
    docs: {
      summary: 'The agent refuses a network table.',
      details: 'The agent routes its network through the gateway, so an `[agent.network]` table is refused on every platform. Give a declared tool the network exception instead, if policy allows it.',
      bad: '[agent.network]',
      good: '[tools.fetcher.network]  # a tool with a direct network exception',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      if (!p.networkTable) continue;
      ctx.report({
        severity: 'error',
        platforms: ['macos', 'linux', 'windows'],
        message: "the agent refuses a network table: the agent's network goes through the gateway",
        span: p.networkTable,
        suggestion: 'Remove [agent.network]; declare a tool with a network table for direct access, and keep gateway mode when policy must decide network requests.',
      });
    }
  },
};
