import type { Rule } from './engine.js';
import { who } from './util.js';

export const ipv6Socket: Rule = {
  meta: {
    id: 'ipv6-socket',
    seedRow: 'IPv6 and socket families',
    severity: { linux: 'warning' },
    dialects: ['box'],
    docs: {
      summary: 'IPv6 sockets fail at runtime on Linux, also with a network exception.',
      details:
        'Linux permits UNIX and IPv4 sockets and rejects other socket families, including IPv6 (`EAFNOSUPPORT`). The direct network exception keeps this filter, and no field enables Linux IPv6. Startup succeeds; an IPv6 socket request fails during execution.',
      bad: '[tools.fetcher.network]  # the fetcher talks to an IPv6-only host',
      good: '# use an IPv4 destination, or the gateway route',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      if (!p.directNetwork) continue;
      ctx.report({
        severity: 'warning',
        platforms: ['linux'],
        message: `IPv6 sockets of ${who(p)} fail at runtime on Linux: the socket filter permits only UNIX and IPv4 sockets, and the network exception keeps it`,
        span: p.directNetwork.span,
        suggestion: 'Use a validated IPv4 destination or gateway route.',
      });
    }
  },
};
