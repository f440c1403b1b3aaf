import { PLATFORMS } from '../compiler/diagnostic.js';
import { defineRule } from './engine/engine.js';
import { writtenPath } from './runtime-util.js';

/** The first component holds a wildcard: sandbox-runtime's Linux expansion needs a literal directory to start from. */
const wildFirst = (pattern: string): boolean => /[*?[\]]/.test(pattern.split('/')[1] ?? '');

export const globPattern = defineRule({
  meta: {
    id: 'glob-pattern',
    seedRow: 'sandbox-runtime README, Path Syntax (Linux): bubblewrap binds concrete paths; #154; #432',
    dialects: ['srt', 'claude'],
    docs: {
      summary:
        'A glob pattern in a filesystem list: macOS matches it, Linux skips it or expands it once, and a `**/` deny is anchored to the working directory.',
      details:
        'macOS turns a pattern into a Seatbelt regex (macos-sandbox-utils.js), which matches files created ' +
        'later. Linux cannot: bubblewrap binds concrete paths. `allowWrite` and `denyWrite` take no patterns ' +
        'there (a trailing `/**` is dropped, any other pattern is skipped: README, Path Syntax (Linux); ' +
        '#154), so a `denyWrite` pattern denies nothing. A `denyRead` or `allowRead` pattern is expanded ' +
        'to the entries that exist when the command is wrapped, so a file that appears later is readable; ' +
        'one with a wildcard in its first component (`/**/*.pem`) is skipped. On every platform a relative ' +
        '`**/name` is resolved against the working directory, so it holds only below it (sandbox-runtime ' +
        '#432). Windows expands patterns at `initialize()`. Name the paths, or use `{ "path": …, "literal": ' +
        'true }` for a name that holds `*`.',
      bad: {
        toml:
          '{\n  "filesystem": {"denyRead": [], "allowWrite": ["~/project"], "denyWrite": ["~/project/*.env"]},\n' +
          '  "network": {"allowedDomains": [], "deniedDomains": []}\n}',
        expect: ['2:77 warning linux', '2:77 info windows'],
      },
      good: {
        toml:
          '{\n  "filesystem": {"denyRead": [], "allowWrite": ["~/project"], "denyWrite": ["~/project/.env"]},\n' +
          '  "network": {"allowedDomains": [], "deniedDomains": []}\n}',
        expect: [],
      },
    },
  },
  messages: {
    writeSkipped: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { list: string; pattern: string; effect: string }) =>
        `\`${d.list}\` pattern ${d.pattern} is skipped on Linux (bubblewrap binds concrete paths; only a trailing \`/**\` is understood): ${d.effect}`,
      suggestion:
        'List the paths themselves (a directory covers its tree), or mark a name that holds `*` with { "path": …, "literal": true }.',
    },
    readSkipped: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { list: string; pattern: string }) =>
        `\`${d.list}\` pattern ${d.pattern} has a wildcard in its first component: sandbox-runtime skips ` +
        `it on Linux (its expansion needs a literal directory to start from), so it ${d.list === 'denyRead' ? 'hides nothing' : 'opens nothing'}`,
      suggestion: 'Start the pattern at a literal directory (`~/projects/**/*.pem`).',
    },
    readExpanded: {
      severity: 'info',
      platforms: ['linux'],
      text: (d: { list: string; pattern: string }) =>
        `\`${d.list}\` pattern ${d.pattern} is expanded on Linux to the entries that exist when the command ` +
        `starts: a matching file created later is ${d.list === 'denyRead' ? 'readable' : 'not opened'}`,
    },
    anchored: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { list: string; written: string; cwd: string }) =>
        `\`${d.list}\` ${d.written} is resolved against the working directory (${d.cwd}): it holds only ` +
        `below it, not wherever the name occurs (sandbox-runtime #432)`,
      suggestion: 'Anchor the pattern where it must hold (`~/**/.env`), or name the paths.',
    },
    windowsExpanded: {
      severity: 'info',
      platforms: ['windows'],
      text: (d: { list: string; pattern: string }) =>
        `\`${d.list}\` pattern ${d.pattern} is expanded on Windows when the sandbox is initialised: a matching path created later is not covered`,
    },
  },
  explains: {
    'srt-pattern': () => 'a glob pattern: it names no one path, and each platform reads it its own way',
  },
  authoredGrant(g, _ga, _pa, ctx) {
    if (!g.pattern) return;
    const cwd = ctx.ir.runtime?.cwd ?? '';
    const list =
      g.list === 'permissions.allow'
        ? 'allowWrite'
        : g.list === 'permissions.deny'
          ? g.access === 'deny-read'
            ? 'denyRead'
            : 'denyWrite'
          : g.list;
    const written = writtenPath(g.written);
    if (!written.startsWith('/') && !written.startsWith('~') && written.startsWith('**/'))
      ctx.report('anchored', { span: g.span }, { list, written, cwd });
    if (g.access === 'read-write' || g.access === 'deny-write') {
      ctx.report(
        'writeSkipped',
        { span: g.span },
        {
          list,
          pattern: g.pattern,
          effect: g.access === 'deny-write' ? 'nothing is write-denied by it' : 'nothing becomes writable by it',
        },
      );
    } else if (wildFirst(g.pattern)) ctx.report('readSkipped', { span: g.span }, { list, pattern: g.pattern });
    else ctx.report('readExpanded', { span: g.span }, { list, pattern: g.pattern });
    if (ctx.ir.dialect === 'srt') ctx.report('windowsExpanded', { span: g.span }, { list, pattern: g.pattern });
  },
});
