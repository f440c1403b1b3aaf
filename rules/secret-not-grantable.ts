import { protectedHit, protectedPaths } from '../compiler/paths/index.js';
import type { Rule } from './engine.js';

export const secretNotGrantable: Rule = {
  meta: {
    id: 'secret-not-grantable',
    seedRow: 'Seed 001: denials beat permissions (read_allow of a listed secret)',
    severity: { macos: 'warning', linux: 'warning', windows: 'info' },
    dialects: ['tyba'],
    docs: {
      summary: 'A read_allow names a listed secret (or TYBA\'s data directory), or a tree that holds one.',
      details:
        'On macOS denials beat permissions: read_allow cannot re-open a listed secret, so the entry has no effect. On Linux read_allow works, so it exposes the secret. On Windows read_allow is inert and the secret keeps its deny-read label. The same entry therefore means three different things; a read_allow of an ancestor (such as `~`) exposes the secrets below it on Linux.',
      bad: '[sandbox]\nread_allow = ["~/.aws"]',
      good: '[sandbox]\nread_allow = ["~/datasets"]',
    },
  },
  check(ctx) {
    const tyba = ctx.ir.tyba;
    const list = protectedPaths(ctx.ir.home, tyba?.dataDir ?? '~/.tyba').filter((x) => x.why === 'secret' || x.why === 'tyba-data');
    for (const p of ctx.ir.principals) {
      for (const g of p.grants) {
        if (g.list !== 'read_allow' || !g.path) continue;
        const hit = protectedHit(g.path, list);
        if (hit.inside.length) {
          const what = hit.inside[0]!.path;
          ctx.report({ severity: 'warning', platforms: ['macos'], message: `read_allow ${g.path} has no effect on macOS: ${what} is a listed secret, and denials beat permissions`, span: g.span });
          ctx.report({ severity: 'warning', platforms: ['linux'], message: `read_allow ${g.path} works on Linux: the listed secret ${what} is exposed to the agent`, span: g.span, suggestion: 'Remove the entry: a secret the agent needs should reach it through a mediated request, not a read.' });
          ctx.report({ severity: 'info', platforms: ['windows'], message: `read_allow ${g.path} is inert on Windows: ${what} keeps its deny-read label`, span: g.span });
        } else if (hit.exposes.length) {
          const names = hit.exposes.map((x) => x.written).join(', ');
          ctx.report({
            severity: 'warning',
            platforms: ['linux'],
            message: `read_allow ${g.path} exposes the listed secrets below it on Linux (${names}); macOS and Windows keep them denied`,
            span: g.span,
            suggestion: 'Allow a narrower path that holds no secret.',
          });
        }
      }
    }
  },
};
