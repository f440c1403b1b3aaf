import { isUnder, windowsNameProblem } from '../compiler/paths/index.js';
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
        'The Windows plan maps `~` to `%USERPROFILE%`. An absolute POSIX path outside the home (`/usr/bin/git`, `/srv/data`) has no Windows meaning, so it is left out of the plan rather than guessed. A grant left out grants nothing beyond the open reads; a deny left out protects nothing. A path under the home whose name Windows cannot hold (`< > : " | ? *`, a trailing dot or space, a device name such as `NUL`) is left out too, and so is a TYBA worktree outside the home.',
      bad: '[agent.filesystem]\nwrite = ["/srv/out"]',
      good: '[agent.filesystem]\nwrite = ["~/out"]',
    },
  },
  check(ctx) {
    const worktree = ctx.ir.tyba?.worktree;
    const agent = ctx.ir.principals[0];
    if (worktree && agent && !isUnder(worktree, ctx.ir.home)) {
      ctx.report({
        severity: 'warning',
        platforms: ['windows'],
        message: `the session worktree ${worktree} is outside the home: it has no Windows meaning and gets no write grant in the Windows plan`,
        span: agent.span,
        suggestion: 'Pass --worktree with the worktree the session uses, under --home.',
      });
    }
    for (const p of ctx.ir.principals) {
      for (const g of authored(p)) {
        if (!g.path) continue;
        // Reads and lists grant nothing on Windows that open reads do not already give.
        if (g.access === 'read' || g.access === 'list' || g.access === 'metadata' || g.access === 'exec') continue;
        if (isUnder(g.path, ctx.ir.home)) {
          const problem = g.path.slice(ctx.ir.home.length).split('/').filter(Boolean).map(windowsNameProblem).find(Boolean);
          if (problem)
            ctx.report({
              severity: 'warning',
              platforms: ['windows'],
              message: `${g.path} has no faithful Windows spelling (${problem}): this \`${g.list}\` entry is left out of the Windows plan`,
              span: g.span,
            });
          continue;
        }
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
