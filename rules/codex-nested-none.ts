import { isUnder } from '../compiler/paths/index.js';
import { defineRule } from './engine/engine.js';
import { codexOf } from './codex-util.js';

export const codexNestedNone = defineRule({
  meta: {
    id: 'codex-nested-none',
    seedRow: 'Codex 0.171.0, found by test/linux/codex-differential.test.ts: a none inside a none stops the sandbox',
    dialects: ['codex'],
    docs: {
      summary: "A `none` entry inside another `none`: Codex's Linux sandbox does not start.",
      details:
        'Codex closes a `none` path with a mount that cannot be entered, then makes the mount point of each ' +
        "deeper entry inside it; for a deeper `none` bubblewrap cannot (`bwrap: Can't mkdir …: Read-only " +
        'file system`), and no command runs (found by the differential test against `codex sandbox` 0.171.0). ' +
        'The outer `none` already closes the inner path: an error at the inner entry on Linux.',
      bad: {
        toml: 'default_permissions = "dev"\n[permissions.dev.filesystem]\n":root" = "read"\n"~/project" = "none"\n"~/project/.git" = "none"',
        expect: ['5:20 error linux'],
      },
      good: { toml: 'default_permissions = "dev"\n[permissions.dev.filesystem]\n":root" = "read"\n"~/project" = "none"', expect: [] },
    },
  },
  messages: {
    nested: {
      severity: 'error',
      platforms: ['linux'],
      text: (d: { inner: string; outer: string }) =>
        `\`${d.inner}\` = "none" is inside \`${d.outer}\` = "none": bubblewrap cannot make its mount point ` +
        `in the closed directory, so Codex's sandbox does not start; the outer entry closes it already`,
      suggestion: 'Remove the inner entry.',
    },
  },
  principal(pa, ctx) {
    if (!codexOf(ctx.ir)) return;
    const nones = pa.grants.map((ga) => ga.grant).filter((g) => g.access === 'deny-read' && g.path && g.facts.existence !== 'absent');
    for (const inner of nones) {
      const outer = nones.find((o) => o !== inner && o.path !== inner.path && isUnder(inner.path!, o.path!));
      if (outer) ctx.report('nested', { span: inner.span, platforms: ['linux'] }, { inner: inner.written, outer: outer.written });
    }
  },
});
