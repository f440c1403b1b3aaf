import { defineRule } from './engine/engine.js';
import { who } from './util.js';

export const ipv6Socket = defineRule({
  meta: {
    id: 'ipv6-socket',
    seedRow: "Box's platform table, row: IPv6 and socket families",
    dialects: ['box'],
    docs: {
      summary: 'IPv6 sockets fail at runtime on Linux, also with a network exception.',
      details:
        'Linux permits UNIX and IPv4 sockets and rejects other socket families, including IPv6 (`EAFNOSUPPORT`). ' +
        'The direct network exception keeps this filter, and no field enables Linux IPv6. Startup succeeds; ' +
        'an IPv6 socket request fails during execution.',
      bad: { toml: '[tools.fetcher.network]  # the fetcher talks to an IPv6-only host', expect: ['1:16 warning linux'] },
      good: { toml: '# use an IPv4 destination, or the gateway route', expect: [] },
    },
  },
  messages: {
    ipv6: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { who: string }) =>
        `IPv6 sockets of ${d.who} fail at runtime on Linux: the socket filter permits only UNIX and IPv4 sockets, and the network exception keeps it`,
      suggestion: 'Use a validated IPv4 destination or gateway route.',
    },
  },
  principal({ principal: p }, ctx) {
    if (p.directNetwork) ctx.report('ipv6', { span: p.directNetwork.span }, { who: who(p) });
  },
});
