import { defineRule } from './engine/engine.js';
import { addToList, fixOf } from './engine/fix.js';
import { listPaths, shown, who } from './util.js';

const alternative = (d: { sockets: readonly string[] }): string =>
  `Deny ${d.sockets.length === 1 ? 'the socket' : 'the sockets'} (\`deny = [${d.sockets.map((s) => JSON.stringify(s)).join(', ')}]\`: ` +
  `on Linux an empty file then covers ${d.sockets.length === 1 ? 'it' : 'each'}), or grant a narrower ` +
  `path that holds none.`;

export const socketInReadGrant = defineRule({
  meta: {
    id: 'socket-in-read-grant',
    seedRow: 'Our lowerings: connecting to a unix socket is not reading it',
    docs: {
      summary: 'A content grant holds unix sockets that the workload can connect to.',
      details:
        'Connecting to a unix socket is not reading it, yet any grant that shows the socket lets the workload ' +
        'talk to whatever listens there: `docker.sock` (root on the host), an ssh or gpg agent, a database, ' +
        "an editor's or a tool's control socket. On Linux a mount shows the socket whatever its mode: a " +
        "read-only bind stops writes to files, not `connect(2)` on a socket (the kernel's read-only check " +
        'covers regular files, directories and links only), so every principal whose grant holds a bound ' +
        'socket can connect to it. On macOS Seatbelt decides a unix-socket `connect` with `network-outbound` ' +
        "and its `remote unix-socket` filter, not with the file rules (Apple's operation table, as 0xbf00/simbple " +
        'extracts it; sandbox-runtime and Codex allow sockets that way, `(allow network-outbound (remote ' +
        "unix-socket (path-literal …)))`): under boxwright's `(deny network*)` a principal connects to none, " +
        'and a direct network exception opens IP peers only (`(remote ip "*:*")`), so macOS is not judged ' +
        'either. Windows is not judged: its AF_UNIX sockets need write access to the socket file, and the ' +
        "sockets found here are POSIX paths. The sockets come from the filesystem view: the kernel's table " +
        "of bound sockets for `--fs host` (/proc/net/unix, this network namespace's), the `socket` entries of a manifest.",
      bad: { toml: '[agent.filesystem]\nread = ["/run"]  # /run/docker.sock is bound', expect: ['2:9 warning linux'] },
      good: { toml: '[agent.filesystem]\nread = ["/run"]\ndeny = ["/run/docker.sock"]', expect: [] },
    },
  },
  messages: {
    linux: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { who: string; path: string; sockets: readonly string[] }) =>
        `${d.who} can connect to the unix socket${d.sockets.length === 1 ? '' : 's'} under ${d.path} on ` +
        `Linux: ${listPaths(d.sockets)} (a read-only mount shows a socket, and connecting is not reading)`,
      suggestion: alternative,
    },
    unknown: {
      severity: 'info',
      platforms: ['linux'],
      machineDependent: true,
      text: (d: { fs: string }) =>
        `depends on the machine: a content grant that holds a bound unix socket lets the workload connect to it (--fs ${d.fs} knows no sockets)`,
    },
  },
  explains: {
    'sockets-reachable': (f) => `the workload can connect to ${listPaths(f.sockets)} (connecting to a unix socket is not reading it)`,
  },
  grant(g, _ga, _pa, ctx) {
    // Without the machine's sockets: said once, at the first content tree.
    if (ctx.ir.sockets !== 'unknown' || unknownSaid.has(ctx) || g.access === 'deny' || g.scope !== 'tree') return;
    unknownSaid.add(ctx);
    ctx.report('unknown', { span: g.span }, { fs: ctx.view.description });
  },
  anyGrant(g, ga, pa, ctx) {
    const reachable = ga.sockets;
    if (!reachable || ctx.ir.sockets === 'unknown') return;
    const data = { who: who(pa.principal), path: shown(g) };
    if (reachable.linux)
      ctx.report(
        'linux',
        { span: g.span, fix: fixOf(addToList(pa.principal.written, pa.principal.grants, 'deny', reachable.linux)) },
        { ...data, sockets: reachable.linux },
      );
  },
});

/** The lints (a rule context each) that have said `unknown` already. */
const unknownSaid = new WeakSet<object>();
