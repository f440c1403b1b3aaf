import type { Principal } from './types.js';

/** A principal in a sentence: "the agent", "tool `formatter`", "MCP server `search`". */
export function who(p: Pick<Principal, 'kind' | 'name'>): string {
  return p.kind === 'agent' ? 'the agent' : p.kind === 'tool' ? `tool \`${p.name}\`` : `MCP server \`${p.name}\``;
}
