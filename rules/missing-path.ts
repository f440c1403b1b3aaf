import { PLATFORMS } from '../compiler/diagnostic.js';
import { defineRule } from './engine/engine.js';
import { shown } from './util.js';

export const missingPath = defineRule({
  meta: {
    id: 'missing-path',
    seedRow: "Box's platform table, row: Content and execution grants must name existing paths",
    docs: {
      summary: 'A content or execution grant names a path that does not exist.',
      details:
        'Content and execution grants must name existing paths (a `deny` is judged by `deny-absent-path`). ' +
        "So must a TYBA session's own directories on Linux (`--worktree`, `--agent-dir`), which are bound " +
        'from the host. With `--fs none` existence is unknown: the rule reports one info that the result ' +
        'depends on the machine, and the verdict does not change. Use `--fs FILE.json` to lint for a machine ' +
        'described as data.',
      bad: { toml: '[agent.filesystem]\nread = ["~/projcet"]', expect: ['2:9 error macos,linux,windows'] },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]', expect: [] },
    },
  },
  messages: {
    missing: {
      severity: 'error',
      platforms: PLATFORMS,
      text: (d: { path: string }) => `${d.path} does not exist: content and execution grants must name existing paths`,
      suggestion: 'Create the path first, or name one that exists.',
    },
    session: {
      severity: 'error',
      platforms: ['linux'],
      text: (d: { path: string; what: string }) =>
        `${d.what} ${d.path} does not exist: Linux mounts it from the host, so the sandbox could not start`,
      suggestion: 'Create the directory first, or give the session one that exists.',
    },
    unknown: {
      severity: 'info',
      platforms: PLATFORMS,
      machineDependent: true,
      text: (d: { path: string; fs: string }) => `depends on the machine: ${d.path} must exist (--fs ${d.fs} knows no paths)`,
    },
  },
  // TYBA's session directories (--worktree, --agent-dir), which the command line chose: Linux binds them from the host.
  implicitGrant(g, _ga, _pa, ctx) {
    if (
      g.implicit.privateTmpfs ||
      g.access !== 'read-write' ||
      !g.path ||
      !g.implicit.platforms.includes('linux') ||
      g.facts.existence !== 'absent'
    )
      return;
    ctx.report(
      'session',
      { span: g.span },
      { path: g.path, what: g.path === ctx.ir.tyba?.worktree ? 'the session worktree' : "the agent's directory" },
    );
  },
  grant(g, _ga, _pa, ctx) {
    if (g.access === 'deny' || g.facts.symlink) return;
    if (g.facts.existence === 'unknown' && !g.expandProblem)
      ctx.report('unknown', { span: g.span }, { path: shown(g), fs: ctx.view.description });
    else if (g.facts.existence === 'absent') ctx.report('missing', { span: g.span }, { path: shown(g) });
  },
});
