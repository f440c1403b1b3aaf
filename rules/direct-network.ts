import { defineRule } from './engine.js';
import { who } from './util.js';

export const directNetwork = defineRule({
  meta: {
    id: 'direct-network',
    seedRow: "Box's platform table, row: Direct network exception",
    dialects: ['box'],
    docs: {
      summary: 'A tool or local MCP server bypasses gateway policy.',
      details:
        "A tool network table, or `contain_egress = false` on a local MCP server, is a direct network exception: that principal bypasses gateway policy. On Linux it shares the surrounding OS network namespace, so it reaches whatever listens on the host's loopback (127.0.0.1: a developer's database, a dev server, a local admin interface) and the host's abstract unix sockets, which no file permission guards (the class of CVE-2020-15257, containerd's API reachable from a host-network container). Other sandbox restrictions remain. The agent itself refuses a network table (`agent-network-table`).",
      bad: { toml: '[mcp_servers.search]\ncontain_egress = false', expect: ['2:18 warning linux', '2:18 warning macos,windows'] },
      good: { toml: '[mcp_servers.search]\ncontain_egress = true', expect: [] },
    },
  },
  messages: {
    bypass: {
      severity: 'warning',
      platforms: ['macos', 'windows'],
      text: (d: { who: string; how: string }) => `${d.who} has a direct network exception (${d.how}): it bypasses gateway policy; other sandbox restrictions remain`,
      suggestion: 'Keep gateway mode when policy must decide network requests.',
    },
    linux: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { who: string; how: string }) =>
        `${d.who} has a direct network exception (${d.how}): it bypasses gateway policy and shares the host's network namespace, so it reaches the host's loopback services (a server on 127.0.0.1, such as a developer's database or dev server) and the host's abstract unix sockets (the class of CVE-2020-15257); other sandbox restrictions remain`,
      suggestion: 'Keep gateway mode when policy must decide network requests; on Linux, bind loopback services you must keep from the tool to another network namespace or require authentication.',
    },
  },
  explains: {
    'host-network-namespace': () =>
      "the host's network namespace (--share-net): the host's loopback services (127.0.0.1) and its abstract unix sockets are reachable",
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      if (!p.directNetwork) continue;
      const data = { who: who(p), how: p.directNetwork.how === 'network-table' ? 'a network table' : '`contain_egress = false`' };
      ctx.report('bypass', { span: p.directNetwork.span }, data);
      ctx.report('linux', { span: p.directNetwork.span }, data);
    }
  },
});
