import { protectedHit, protectedPaths } from '../compiler/paths/index.js';
import { defineRule } from './engine.js';
import { fixOf, removeFromList } from './fix.js';

export const secretNotGrantable = defineRule({
  meta: {
    id: 'secret-not-grantable',
    seedRow: "TYBA's platforms page: denials beat permissions (read_allow of a listed secret)",
    dialects: ['tyba'],
    docs: {
      summary: "A read_allow names a listed secret (or TYBA's data directory), or a tree that holds one.",
      details:
        'On macOS denials beat permissions: read_allow cannot re-open a listed secret, so the entry has no effect. On Linux read_allow works, so it exposes the secret. On Windows read_allow is inert and the secret keeps its deny-read label. The same entry therefore means three different things; a read_allow of an ancestor (such as `~`) exposes the secrets below it on Linux.',
      bad: { toml: '[sandbox]\nread_allow = ["~/.aws"]', expect: ['2:15 warning macos', '2:15 warning linux', '2:15 info windows'] },
      good: { toml: '[sandbox]\nread_allow = ["~/datasets"]', expect: [] },
    },
  },
  messages: {
    macos: {
      severity: 'warning',
      platforms: ['macos'],
      text: (d: { path: string; secret: string }) => `read_allow ${d.path} has no effect on macOS: ${d.secret} is a listed secret, and denials beat permissions`,
    },
    linux: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { path: string; secret: string }) => `read_allow ${d.path} works on Linux: the listed secret ${d.secret} is exposed to the agent`,
      suggestion: 'Remove the entry: a secret the agent needs should reach it through a mediated request, not a read.',
    },
    windows: {
      severity: 'info',
      platforms: ['windows'],
      text: (d: { path: string; secret: string }) => `read_allow ${d.path} is inert on Windows: ${d.secret} keeps its deny-read label`,
    },
    exposesBelow: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { path: string; names: readonly string[] }) => `read_allow ${d.path} exposes the listed secrets below it on Linux (${d.names.join(', ')}); macOS and Windows keep them denied`,
      suggestion: 'Allow a narrower path that holds no secret.',
    },
  },
  explains: {
    'denials-beat-permissions': () => 'denials beat permissions: a listed secret stays denied (metadata stays visible)',
    'secret-label': () => 'a no-read-up label on a listed secret',
  },
  check(ctx) {
    const tyba = ctx.ir.tyba;
    const list = protectedPaths(ctx.ir.home, tyba?.dataDir ?? '~/.tyba').filter((x) => x.why === 'secret' || x.why === 'tyba-data');
    for (const p of ctx.ir.principals) {
      for (const g of p.grants) {
        if (g.list !== 'read_allow' || !g.path) continue;
        const hit = protectedHit(g.path, list);
        const inside = hit.inside[0];
        if (inside) {
          const data = { path: g.path, secret: inside.path };
          ctx.report('macos', { span: g.span }, data);
          ctx.report('linux', { span: g.span, fix: fixOf(removeFromList(ctx.text, g.span)) }, data);
          ctx.report('windows', { span: g.span }, data);
        } else if (hit.exposes.length) {
          ctx.report('exposesBelow', { span: g.span }, { path: g.path, names: hit.exposes.map((x) => x.written) });
        }
      }
    }
  },
});
