import type { PolicyIR } from '../compiler/ir/types.js';
import { protectedHit, protectedPaths, type ProtectedPath } from '../compiler/paths/index.js';
import { defineRule } from './engine/engine.js';
import { fixOf, removeFromList } from './engine/fix.js';

export const secretNotGrantable = defineRule({
  meta: {
    id: 'secret-not-grantable',
    seedRow: "TYBA's platforms page: denials beat permissions (read_allow of a listed secret)",
    dialects: ['tyba'],
    docs: {
      summary: "A read_allow names a listed secret (or TYBA's data directory), or a tree that holds one.",
      details:
        'On macOS denials beat permissions: read_allow cannot re-open a listed secret, so the entry has ' +
        'no effect. On Linux read_allow works, so it exposes the secret. On Windows read_allow is inert ' +
        'and the secret keeps its deny-read label. The same entry therefore means three different things; ' +
        "a read_allow of an ancestor (such as `~`) exposes the secrets below it on Linux. The session's " +
        'own directories (`--worktree`, `--agent-dir`) are read-write: one that is or holds a listed secret ' +
        'location (`--agent-dir ~/.ssh`, `--worktree ~`) exposes it on Linux too, read-write, and is reported the same way.',
      bad: { toml: '[sandbox]\nread_allow = ["~/.aws"]', expect: ['2:15 warning macos', '2:15 warning linux', '2:15 info windows'] },
      good: { toml: '[sandbox]\nread_allow = ["~/datasets"]', expect: [] },
    },
  },
  messages: {
    macos: {
      severity: 'warning',
      platforms: ['macos'],
      text: (d: { path: string; secret: string }) =>
        `read_allow ${d.path} has no effect on macOS: ${d.secret} is a listed secret, and denials beat permissions`,
    },
    linux: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { path: string; secret: string }) =>
        `read_allow ${d.path} works on Linux: the listed secret ${d.secret} is exposed to the agent`,
      suggestion: 'Remove the entry: a secret the agent needs should reach it through a mediated request, not a read.',
    },
    windows: {
      severity: 'info',
      platforms: ['windows'],
      text: (d: { path: string; secret: string }) => `read_allow ${d.path} is inert on Windows: ${d.secret} keeps its deny-read label`,
    },
    session: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { path: string; what: string; names: readonly string[] }) =>
        `${d.what} ${d.path} ` +
        (d.names.length === 1 && d.names[0] === d.path
          ? 'is a listed secret location: on Linux the agent can read and write it'
          : `holds listed secret locations (${d.names.join(', ')}): on Linux the agent can read and write them`) +
        '; ' +
        `macOS and Windows keep ${d.names.length === 1 && d.names[0] === d.path ? 'it' : 'them'} denied`,
      suggestion: 'Give the session a directory that holds no secret (the command line chose it, not the config).',
    },
    exposesBelow: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { path: string; names: readonly string[] }) =>
        `read_allow ${d.path} exposes the listed secrets below it on Linux (${d.names.join(', ')}); macOS ` +
        `and Windows keep ${d.names.length === 1 && d.names[0] === d.path ? 'it' : 'them'} denied`,
      suggestion: 'Allow a narrower path that holds no secret.',
    },
  },
  explains: {
    'denials-beat-permissions': () => 'denials beat permissions: a listed secret stays denied (metadata stays visible)',
    'secret-label': () => 'a no-read-up label on a listed secret',
    'deny-covers-grant': () => 'no effect: a deny covers this path, and denials beat permissions',
  },
  // The session's own read-write grants (--worktree, --agent-dir): the command line chose them, and the path rules leave them alone.
  implicitGrant(g, _ga, _pa, ctx) {
    if (g.implicit.privateTmpfs || g.access !== 'read-write' || !g.path || !g.implicit.platforms.includes('linux')) return;
    const tyba = ctx.ir.tyba;
    const hit = protectedHit(g.path, secretsOf(ctx.ir));
    const names = hit.inside[0] ? [hit.inside[0].path] : hit.exposes.map((x) => x.written);
    if (names.length)
      ctx.report(
        'session',
        { span: g.span },
        { path: g.path, what: g.path === tyba?.worktree ? 'the session worktree' : "the agent's directory", names },
      );
  },
  grant(g, _ga, _pa, ctx) {
    if (g.list !== 'read_allow') return;
    const hit = protectedHit(g.path, secretsOf(ctx.ir));
    const inside = hit.inside[0];
    if (inside) {
      const data = { path: g.path, secret: inside.path };
      ctx.report('macos', { span: g.span }, data);
      ctx.report('linux', { span: g.span, fix: fixOf(removeFromList(ctx.text, g.span)) }, data);
      ctx.report('windows', { span: g.span }, data);
    } else if (hit.exposes.length) {
      ctx.report('exposesBelow', { span: g.span }, { path: g.path, names: hit.exposes.map((x) => x.written) });
    }
  },
});

/** The secrets and TYBA's data directory in this config's home, once a lint. */
function secretsOf(ir: PolicyIR): readonly ProtectedPath[] {
  let out = secrets.get(ir);
  if (!out)
    secrets.set(
      ir,
      (out = protectedPaths(ir.home, ir.tyba?.dataDir ?? '~/.tyba').filter((x) => x.why === 'secret' || x.why === 'tyba-data')),
    );
  return out;
}
const secrets = new WeakMap<PolicyIR, readonly ProtectedPath[]>();
