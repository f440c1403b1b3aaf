import { isUnder } from '../compiler/paths/index.js';
import { notesOfKind } from '../model/platforms-of.js';
import { defineRule } from './engine/engine.js';

export const noWindowsPath = defineRule({
  meta: {
    id: 'no-windows-path',
    seedRow: 'Our Windows lowering: paths outside the home',
    docs: {
      summary: 'A POSIX path with no Windows meaning is left out of the Windows plan.',
      details:
        'The Windows plan maps `~` to `%USERPROFILE%`. An absolute POSIX path outside the home (`/usr/bin/git`, ' +
        '`/srv/data`) has no Windows meaning, so it is left out of the plan rather than guessed. A grant ' +
        'left out grants nothing beyond the open reads; a deny left out protects nothing. A path under the ' +
        'home whose name Windows cannot hold (`< > : " | ? *`, a trailing dot or space, a device name such ' +
        'as `NUL`) is left out too, and so is a TYBA worktree outside the home.',
      bad: { toml: '[agent.filesystem]\nwrite = ["/srv/out"]', expect: ['2:10 warning windows'] },
      good: { toml: '[agent.filesystem]\nwrite = ["~/out"]', expect: [] },
    },
  },
  messages: {
    worktree: {
      severity: 'warning',
      platforms: ['windows'],
      text: (d: { worktree: string }) =>
        `the session worktree ${d.worktree} is outside the home: it has no Windows meaning and gets no write grant in the Windows plan`,
      suggestion: 'Pass --worktree with the worktree the session uses, under --home.',
    },
    outside: {
      severity: 'warning',
      platforms: ['windows'],
      text: (d: { path: string; list: string }) =>
        `${d.path} has no Windows meaning (only paths under ~ map to %USERPROFILE%): this \`${d.list}\` entry is left out of the Windows plan`,
    },
    name: {
      severity: 'warning',
      platforms: ['windows'],
      text: (d: { path: string; list: string; problem: string }) =>
        `${d.path} has no faithful Windows spelling (${d.problem}): this \`${d.list}\` entry is left out of the Windows plan`,
    },
  },
  explains: {
    'no-windows-spelling': (f) =>
      `${f.path} ` +
      (f.why.kind === 'outside-home'
        ? 'has no Windows meaning (only paths under ~ map to %USERPROFILE%)'
        : `has no faithful Windows spelling (${f.why.problem})`) +
      ': the Windows plan leaves this entry out',
  },
  check(ctx) {
    const worktree = ctx.ir.tyba?.worktree;
    const agent = ctx.ir.principals[0];
    if (worktree && agent && !isUnder(worktree, ctx.ir.home)) ctx.report('worktree', { span: agent.span }, { worktree });
  },
  grant(g, ga, _pa, ctx) {
    // Reads and lists grant nothing on Windows that open reads do not already give.
    if (g.access === 'read' || g.access === 'list' || g.access === 'metadata' || g.access === 'exec') return;
    // The model's note, made from the plan's own mapping (compiler/paths/windows.ts): what this says is left out is what the plan leaves out.
    for (const [platform, { why }] of notesOfKind(ga.notes, 'no-windows-spelling')) {
      if (why.kind === 'outside-home') ctx.report('outside', { span: g.span, platforms: [platform] }, { path: g.path, list: g.list });
      else ctx.report('name', { span: g.span, platforms: [platform] }, { path: g.path, list: g.list, problem: why.problem });
    }
  },
});
