import type { AbstractSockets } from '../model/index.js';
import { defineRule } from './engine/engine.js';
import { fixOf, removeHeaderLine, replaceText } from './engine/fix.js';
import { who } from './util.js';

/** What the Linux message says of the host's abstract unix sockets (Landlock's scope, ABI 6). */
const abstractClause: Record<AbstractSockets, string> = {
  reachable: " and the host's abstract unix sockets (the class of CVE-2020-15257)",
  scoped: "; Landlock's scope keeps it from the host's abstract unix sockets",
  'scoped-from-abi-6':
    " and, on a kernel older than Landlock ABI 6 (Linux 6.12), the host's abstract unix sockets (the " +
    'class of CVE-2020-15257), which Landlock scopes away from ABI 6 on',
};

const explainText: Record<AbstractSockets, string> = {
  reachable: "the host's loopback services (127.0.0.1) and its abstract unix sockets are reachable",
  scoped: "the host's loopback services (127.0.0.1) are reachable; its abstract unix sockets are not (Landlock's scope)",
  'scoped-from-abi-6':
    "the host's loopback services (127.0.0.1) are reachable; its abstract unix sockets are not where " +
    "the kernel has Landlock ABI 6 (Linux 6.12; Landlock's scope), and are below it",
};

export const directNetwork = defineRule({
  meta: {
    id: 'direct-network',
    seedRow: "Box's platform table, row: Direct network exception",
    dialects: ['box'],
    docs: {
      summary: 'A tool or local MCP server bypasses gateway policy.',
      details:
        'A tool network table, or `contain_egress = false` on a local MCP server, is a direct network exception: ' +
        'that principal bypasses gateway policy. On Linux it shares the surrounding OS network namespace, ' +
        "so it reaches whatever listens on the host's loopback (127.0.0.1: a developer's database, a dev " +
        "server, a local admin interface). The host's abstract unix sockets, which no file permission guards " +
        "(the class of CVE-2020-15257, containerd's API reachable from a host-network container), are kept " +
        "out by Landlock's abstract-unix-socket scope where the kernel has it (ABI 6, Linux 6.12) and boxwright's " +
        'Landlock step is on; the message says which holds for the machine it knows (`--fs`). On macOS the ' +
        'exception is `(allow network-outbound (remote ip "*:*"))` and IP socket creation: Seatbelt decides ' +
        'a unix-socket connect with network-outbound too (sbpl_v1.scm: a unix socket is matched by its path), ' +
        "so an unfiltered rule would reach every unix socket of the machine, ssh-agent's and docker.sock " +
        'included, which no file rule guards; with the IP filter they stay closed. Other sandbox restrictions ' +
        'remain. The agent itself refuses a network table (`agent-network-table`).',
      bad: { toml: '[mcp_servers.search]\ncontain_egress = false', expect: ['2:18 warning linux', '2:18 warning macos,windows'] },
      good: { toml: '[mcp_servers.search]\ncontain_egress = true', expect: [] },
    },
  },
  messages: {
    bypass: {
      severity: 'warning',
      platforms: ['macos', 'windows'],
      text: (d: { who: string; how: string }) =>
        `${d.who} has a direct network exception (${d.how}): it bypasses gateway policy; other sandbox restrictions remain`,
      suggestion: 'Keep gateway mode when policy must decide network requests.',
    },
    linux: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { who: string; how: string; abstract: AbstractSockets }) =>
        `${d.who} has a direct network exception (${d.how}): it bypasses gateway policy and shares the host's ` +
        `network namespace, so it reaches the host's loopback services (a server on 127.0.0.1, such as a ` +
        `developer's database or dev server)${abstractClause[d.abstract]}; other sandbox restrictions remain`,
      suggestion:
        'Keep gateway mode when policy must decide network requests; on Linux, bind loopback services you ' +
        'must keep from the tool to another network namespace or require authentication.',
    },
  },
  explains: {
    'host-network-namespace': (f) => `the host's network namespace (--share-net): ${explainText[f.abstractSockets]}`,
    'ip-peers-only': () =>
      'IP peers only, (remote ip "*:*"): the machine\'s unix sockets (ssh-agent, docker.sock, gpg-agent) ' +
      'stay closed, as without the exception; loopback services (127.0.0.1) are reachable',
  },
  principal(pa, ctx) {
    const p = pa.principal;
    if (!p.directNetwork) return;
    const network = pa.network.linux;
    const abstract = network?.kind === 'host-network-namespace' ? network.abstractSockets : 'reachable';
    const data = { who: who(p), how: p.directNetwork.how === 'network-table' ? 'a network table' : '`contain_egress = false`', abstract };
    // Gateway mode: `contain_egress = true`, or no network table.
    const fix =
      p.directNetwork.how === 'contain_egress'
        ? replaceText(p.directNetwork.span, 'true')
        : fixOf(removeHeaderLine(ctx.text, p.directNetwork.table));
    ctx.report('bypass', { span: p.directNetwork.span, fix }, data);
    ctx.report('linux', { span: p.directNetwork.span, fix }, data);
  },
});
