import { PLATFORMS } from '../compiler/diagnostic.js';
import { inspectPath } from '../compiler/paths/index.js';
import { defineRule } from './engine/engine.js';
import { writtenPath } from './runtime-util.js';

export const absentPath = defineRule({
  meta: {
    id: 'absent-path',
    seedRow:
      'sandbox-runtime README, Filesystem Configuration (Linux): a denyRead for a path that does not exist when the command is wrapped hides nothing; linux-sandbox-utils.js: "Skipping non-existent write path"; Claude Code #32287',
    dialects: ['srt', 'claude'],
    docs: {
      summary:
        'A `denyRead` or `allowWrite` path that does not exist: Linux skips it (a deny hides nothing when the path appears), macOS applies it whenever the path appears.',
      details:
        'sandbox-runtime builds the Linux sandbox from what exists when the command is wrapped (linux-sandbox-utils.js, generateFilesystemArgs): a `denyRead` path that is not there gets no mount, so a file created there during the command, or by the next one, is readable (README, Filesystem Configuration: "a denyRead for a path that does not exist when the command is wrapped hides nothing in that command"); an `allowWrite` path that is not there is skipped ("Skipping non-existent write path"), so nothing becomes writable. Seatbelt\'s rules name the path and hold when it appears. In Claude Code settings a path starting with one `/` is relative to the settings file\'s directory, not absolute (`//` is): a `denyWrite` of `/Users/me/.ssh` names `.claude/Users/me/.ssh` and protects nothing (anthropics/claude-code#32287); boxwright says so when the absolute path exists.',
      bad: {
        toml: '{\n  "filesystem": {"denyRead": ["~/.config/gcloud"], "allowWrite": [], "denyWrite": []},\n  "network": {"allowedDomains": [], "deniedDomains": []}\n}',
        expect: ['2:31 warning linux'],
      },
      good: {
        toml: '{\n  "filesystem": {"denyRead": ["~/.aws"], "allowWrite": [], "denyWrite": []},\n  "network": {"allowedDomains": [], "deniedDomains": []}\n}',
        expect: [],
      },
    },
  },
  messages: {
    denyRead: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { path: string }) =>
        `${d.path} does not exist: on Linux sandbox-runtime mounts nothing for it, so a file created there is readable (macOS denies it whenever it appears)`,
      suggestion: 'Deny an existing directory above it, or create the path first.',
    },
    allowWrite: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { path: string }) =>
        `${d.path} does not exist: sandbox-runtime skips it on Linux, so nothing there becomes writable (macOS lets it be created and written)`,
      suggestion: 'Create the directory first, or allow its existing parent.',
    },
    relativeSlash: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { written: string; resolved: string; absolute: string }) =>
        `\`${d.written}\` is relative to the settings file's directory in Claude Code (it names ${d.resolved}, which does not exist), not the absolute ${d.absolute}: an absolute path starts with \`//\``,
      suggestion: 'Write the absolute path with two slashes: `//…` (anthropics/claude-code#32287).',
    },
    unknown: {
      severity: 'info',
      platforms: ['linux'],
      text: (d: { path: string; fs: string }) =>
        `depends on the machine: on Linux, sandbox-runtime skips ${d.path} if it does not exist (--fs ${d.fs} knows no paths)`,
    },
  },
  explains: {
    'srt-absent-skipped': () => 'the path does not exist, so sandbox-runtime mounts nothing for it',
  },
  grant(g, _ga, _pa, ctx) {
    const settingsDir = ctx.ir.runtime?.settingsDir;
    const raw = writtenPath(g.written);
    if (
      ctx.ir.dialect === 'claude' &&
      settingsDir &&
      raw.startsWith('/') &&
      !raw.startsWith('//') &&
      g.facts.existence === 'absent' &&
      inspectPath(ctx.view, raw).existence === 'exists'
    ) {
      ctx.report('relativeSlash', { span: g.span }, { written: raw, resolved: g.path, absolute: raw });
      return;
    }
    if (g.access !== 'deny-read' && g.access !== 'read-write') return;
    if (g.facts.existence === 'unknown') ctx.report('unknown', { span: g.span }, { path: g.path, fs: ctx.view.description });
    else if (g.facts.existence === 'absent')
      ctx.report(g.access === 'deny-read' ? 'denyRead' : 'allowWrite', { span: g.span }, { path: g.path });
  },
});
