import { isUnder } from '../compiler/paths/index.js';
import type { Rule } from './engine.js';
import { authored } from './util.js';

export const noWindowsPath: Rule = {
  meta: {
    id: 'no-windows-path',
    seedRow: 'Our Windows lowering: paths outside the home',
    severity: { windows: 'warning' },
    docs: {
      summary: 'A POSIX path with no Windows meaning is left out of the Windows plan.',
      details:
        'The Windows plan maps `~` to `%USERPROFILE%`. An absolute POSIX path outside the home (`/usr/bin/git`, `/srv/data`) has no Windows meaning, so it is left out of the plan rather than guessed. A grant left out grants nothing beyond the open reads; a deny left out protects nothing.',
      bad: '[agent.filesystem]\nwrite = ["/srv/out"]',
      good: '[agent.filesystem]\nwrite = ["~/out"]',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      for (const g of authored(p)) {
        if (!g.path || isUnder(g.path, ctx.ir.home)) continue;
        // Reads and lists grant nothing on Windows that open reads do not already give.
        if (g.access === 'read' || g.access === 'list' || g.access === 'metadata' || g.access === 'exec') continue;
        ctx.report({
          severity: 'warning',
          platforms: ['windows'],
          message: `${g.path} has no Windows meaning (only paths under ~ map to %USERPROFILE%): this \`${g.list}\` entry is left out of the Windows plan`,
          span: g.span,
        });
      }
    }
  },
};
