import { PLATFORMS } from '../compiler/diagnostic.js';
import { expandTilde, inspectPath, isUnder } from '../compiler/paths/index.js';
import { secretLocations } from '../compiler/paths/protected.js';
import { defineRule } from './engine/engine.js';
import { codexOf } from './codex-util.js';

export const codexWritableRoot = defineRule({
  meta: {
    id: 'codex-writable-root',
    seedRow: 'Codex 0.171.0, measured: writable roots, their protected names, an absent root skipped',
    dialects: ['codex'],
    docs: {
      summary: 'A Codex writable root that holds your home or a known secret, or that does not exist (Codex skips it).',
      details:
        'Codex keeps only `.git`, `.codex`, `.agents` and `.aws` read-only under a writable root (measured ' +
        'with `codex sandbox` 0.171.0; an absent one is an empty read-only tmpfs on Linux, its mount point ' +
        'made on the host for the run and removed after). A root at or above your home makes everything ' +
        'else there writable: shell start-up files, `~/.ssh`, other projects (the host-trusted paths are ' +
        'named by `host-trusted-path`). A warning at the root. A root that does not exist when the command ' +
        'starts is skipped on Linux (nothing there is writable, and the command cannot make it): a warning ' +
        'too, since the config says more than Codex does.',
      bad: {
        toml: 'sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nwritable_roots = ["~"]',
        expect: ['3:19 warning macos,linux,windows'],
      },
      good: { toml: 'sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nwritable_roots = ["/tmp"]', expect: [] },
    },
  },
  messages: {
    sensitive: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { root: string; what: string }) =>
        `the writable root ${d.root} holds ${d.what}: Codex keeps only .git, .codex, .agents and .aws read-only under it, so commands may write the rest`,
      suggestion: 'Name the directories the commands write, not one that holds your home or your credentials.',
    },
    absentRoot: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { root: string }) =>
        `the writable root ${d.root} does not exist: Codex skips it, so nothing there is writable (the command cannot create it)`,
    },
  },
  explains: {
    'codex-protected-placeholder': () =>
      'absent: an empty read-only directory Codex mounts for the run (its mount point made on the host, removed after)',
    'codex-absent-root': () => 'the root does not exist when the command starts: Codex skips it, nothing is writable there',
  },
  anyGrant(g, _ga, _pa, ctx) {
    const c = codexOf(ctx.ir);
    if (!c || c.fullAccess || g.implicit || g.access !== 'read-write' || !g.path) return;
    const path = g.path;
    // The secret list (TYBA's twelve) and the other known credential files, where they exist.
    const listed = secretLocations.map((written) => ({ written, path: expandTilde(written, ctx.ir.home) }));
    const secrets = [
      ...listed.filter((k) => isUnder(k.path, path) && inspectPath(ctx.view, k.path).existence === 'exists'),
      ...ctx.ir.knownCredentials.filter((k) => k.existence === 'exists' && isUnder(k.path, path)),
    ].map((k) => k.written);
    const what = isUnder(ctx.ir.home, path)
      ? 'your home'
      : secrets.length
        ? `known credentials (${secrets.slice(0, 3).join(', ')})`
        : undefined;
    if (what) ctx.report('sensitive', { span: g.span }, { root: g.written, what });
    else if (g.facts.existence === 'absent') ctx.report('absentRoot', { span: g.span }, { root: g.written });
  },
});
