import { PLATFORMS } from '../compiler/diagnostic.js';
import { defineRule } from './engine/engine.js';
import { fixOf, removeHeaderLine } from './engine/fix.js';

export const agentNetworkTable = defineRule({
  meta: {
    id: 'agent-network-table',
    seedRow: "Box's platform table, row: Direct network exception (the agent refuses a network table)",
    dialects: ['box'],
    docs: {
      summary: 'The agent refuses a network table.',
      details:
        'The agent routes its network through the gateway, so an `[agent.network]` table is refused on every ' +
        'platform. Give a declared tool the network exception instead, if policy allows it.',
      bad: { toml: '[agent.filesystem]\nread = ["~/project"]\n[agent.network]', expect: ['3:8 error macos,linux,windows'] },
      good: { toml: '[tools.fetcher.network]  # a tool with a direct network exception', expect: [] },
    },
  },
  messages: {
    refused: {
      severity: 'error',
      platforms: PLATFORMS,
      text: () => "the agent refuses a network table: the agent's network goes through the gateway",
      suggestion:
        'Remove [agent.network]; declare a tool with a network table for direct access, and keep gateway mode when policy must decide network requests.',
    },
  },
  principal({ principal: p }, ctx) {
    if (p.networkTable) ctx.report('refused', { span: p.networkTable, fix: fixOf(removeHeaderLine(ctx.text, p.networkTableWritten)) });
  },
});
