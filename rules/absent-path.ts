import { PLATFORMS } from '../compiler/diagnostic.js';
import { inspectPath } from '../compiler/paths/index.js';
import { defineRule } from './engine/engine.js';
import { writtenPath } from './runtime-util.js';

export const absentPath = defineRule({
  meta: {
    id: 'absent-path',
    seedRow:
      'sandbox-runtime README, Filesystem Configuration (Linux): a denyRead for a path that does not exist ' +
      'when the command is wrapped hides nothing; linux-sandbox-utils.js: "Skipping non-existent write ' +
      'path"; Claude Code #32287',
    dialects: ['srt', 'claude'],
    docs: {
      summary:
        'A `denyRead` or `allowWrite` path that does not exist: Linux skips it (a deny hides nothing when ' +
        'the path appears), macOS applies it whenever the path appears.',
      details:
        'sandbox-runtime builds the Linux sandbox from what exists when the command is wrapped (linux-sandbox-utils.js, ' +
        'generateFilesystemArgs): a `denyRead` path that is not there gets no mount, so a file created there ' +
        'during the command, or by the next one, is readable (README, Filesystem Configuration: "a denyRead ' +
        'for a path that does not exist when the command is wrapped hides nothing in that command"); an ' +
        '`allowWrite` path that is not there is skipped ("Skipping non-existent write path"), so nothing ' +
        "becomes writable. Seatbelt's rules name the path and hold when it appears. In Claude Code settings " +
        "a path starting with one `/` is relative to the settings file's directory, not absolute (`//` " +
        'is): a `denyWrite` of `/Users/me/.ssh` names `.claude/Users/me/.ssh` and protects nothing (anthropics/claude-code#32287); ' +
        'boxwright says so when the absolute path exists, for the path and for its tree alike (`Edit(/tmp/**)` ' +
        'names the tree of `.claude/tmp`, not `/tmp`: write `//tmp/**`). The Linux and macOS words are views ' +
        "of explain's cells: an absent path a read deny above already hides, or a write root above already " +
        'makes writable, is not reported, and macOS is named only where its cell agrees. A one-slash write ' +
        'path whose absolute reading does not exist either (and that no write root covers) is named as absent, ' +
        "with both spellings that mean something else (`./src/**` for the project's, `//src/**` for the " +
        'absolute one). Under `--fs none` each path is an info that depends on the machine, collapsed in ' +
        'the text format.',
      bad: {
        toml:
          '{\n  "filesystem": {"denyRead": ["~/.config/gcloud"], "allowWrite": [], "denyWrite": []},\n  "network": ' +
          '{"allowedDomains": [], "deniedDomains": []}\n}',
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
      text: (d: { path: string; macos: boolean }) =>
        `${d.path} does not exist: on Linux sandbox-runtime mounts nothing for it, so a file created there ` +
        `is readable${d.macos ? ' (macOS denies it whenever it appears)' : ''}`,
      suggestion: 'Deny an existing directory above it, or create the path first.',
    },
    allowWrite: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { path: string; macos: boolean; oneSlash?: string }) =>
        `${d.path} does not exist: sandbox-runtime skips it on Linux, so nothing there becomes writable` +
        `${d.macos ? ' (macOS lets it be created and written)' : ''}`,
      // A Claude Code path with one slash names a place below the settings file's directory, which is seldom what was meant.
      suggestion: (d: { path: string; macos: boolean; oneSlash?: string }) =>
        d.oneSlash
          ? `\`${d.oneSlash}\` is relative to the settings file's directory in Claude Code: create ${d.path} ` +
            `first, or write \`.${d.oneSlash}\` for the project's, \`/${d.oneSlash}\` for the absolute path.`
          : 'Create the directory first, or allow its existing parent.',
    },
    relativeSlash: {
      severity: 'warning',
      platforms: PLATFORMS,
      // Both forms: `/tmp` names `.claude/tmp`, `/tmp/**` the tree of `.claude/tmp`; neither is /tmp.
      text: (d: { written: string; resolved: string; absolute: string }) =>
        `\`${d.written}\` is relative to the settings file's directory in Claude Code (it names ${d.resolved}, ` +
        `which does not exist), not the absolute ${d.absolute}: an absolute path starts with \`//\``,
      suggestion: (d: { written: string }) => `Write the absolute path with two slashes: \`/${d.written}\` (anthropics/claude-code#32287).`,
    },
    unknown: {
      severity: 'info',
      platforms: ['linux'],
      machineDependent: true,
      text: (d: { path: string; fs: string }) =>
        `depends on the machine: on Linux, sandbox-runtime skips ${d.path} if it does not exist (--fs ${d.fs} knows no paths)`,
    },
  },
  explains: {
    'srt-absent-skipped': () => 'the path does not exist, so sandbox-runtime mounts nothing for it',
  },
  grant(g, ga, _pa, ctx) {
    const settingsDir = ctx.ir.runtime?.settingsDir;
    const raw = writtenPath(g.written);
    // `/tmp/**` is the tree of `/tmp` as written: the directory it stands for is what exists or not (issue 36).
    const tree = raw.endsWith('/**');
    const literal = tree ? raw.slice(0, -3) || '/' : raw;
    if (
      ctx.ir.dialect === 'claude' &&
      settingsDir &&
      raw.startsWith('/') &&
      !raw.startsWith('//') &&
      g.facts.existence === 'absent' &&
      inspectPath(ctx.view, literal).existence === 'exists'
    ) {
      const resolved = tree ? `the tree of ${g.path}` : g.path;
      ctx.report('relativeSlash', { span: g.span }, { written: raw, resolved, absolute: raw });
      return;
    }
    if (g.access !== 'deny-read' && g.access !== 'read-write') return;
    if (g.facts.existence === 'unknown') ctx.report('unknown', { span: g.span }, { path: g.path, fs: ctx.view.description });
    if (g.facts.existence !== 'absent') return;
    // A view of explain's Linux cell (issue 36): a read deny above hides the absent path anyway, a write root above makes it writable.
    const linux = ga.effective.linux;
    const mac = ga.effective.macos;
    if (g.access === 'deny-read') {
      // macOS's words only where its cell says so (an allowRead at the path re-opens it there).
      if (linux.kind === 'access' && linux.read)
        ctx.report('denyRead', { span: g.span }, { path: g.path, macos: !(mac.kind === 'access' && mac.read) });
    } else if (!(linux.kind === 'access' && linux.write)) {
      const oneSlash = ctx.ir.dialect === 'claude' && raw.startsWith('/') && !raw.startsWith('//');
      const macos = mac.kind === 'access' && mac.write;
      ctx.report('allowWrite', { span: g.span }, { path: g.path, macos, ...(oneSlash ? { oneSlash: raw } : {}) });
    }
  },
});
