import { defineRule } from './engine/engine.js';
import { setting } from './runtime-util.js';

/**
 * sandbox-runtime 0.0.83's `shouldIgnoreViolation` (sandbox-violation-store.js):
 * a violation is not reported when its line contains one of the patterns of
 * `*`, or of a command pattern the command's text contains. Both are
 * substring matches, so a pattern hides every path that holds it.
 */
const hidesAll = (pattern: string): boolean => pattern.length <= 1 || pattern === '~' || /^\/[^/]*\/?$/.test(pattern);

export const violationsIgnored = defineRule({
  meta: {
    id: 'violations-ignored',
    seedRow: 'sandbox-runtime 0.0.83 IgnoreViolationsConfigSchema, shouldIgnoreViolation (substring matches); issue 36',
    dialects: ['srt', 'claude'],
    docs: {
      summary: '`ignoreViolations` keeps the sandbox from reporting what it blocked, by substring: a short pattern hides whole trees.',
      details:
        'sandbox-runtime still blocks what `ignoreViolations` names, but does not report it: neither its ' +
        "violation log nor Claude Code's notice tells you that a command tried. It matches by substring " +
        '(`shouldIgnoreViolation`): a pattern hides every violation whose line contains it, so `/Users` ' +
        'or `/home` hides every blocked read and write under every home, and `/` hides them all; the command ' +
        'key `*` applies it to every command, another key to every command whose text contains it. A pattern ' +
        'that hides a whole tree (`/`, a top-level directory, `~`, a single character) is a warning; any ' +
        'other entry an info that says what it hides. Nothing of it is allowed by it: the cells are unchanged.',
      bad: {
        toml:
          '{\n  "network": {"allowedDomains": [], "deniedDomains": []},\n  "filesystem": {"denyRead": [], "allowWrite": ["."], "denyWrite": []},\n' +
          '  "ignoreViolations": {"*": ["/home"]}\n}',
        expect: ['4:3 warning macos,linux'],
      },
      good: {
        toml: '{\n  "network": {"allowedDomains": [], "deniedDomains": []},\n  "filesystem": {"denyRead": [], "allowWrite": ["."], "denyWrite": []}\n}',
        expect: [],
      },
    },
  },
  messages: {
    everything: {
      severity: 'warning',
      platforms: ['macos', 'linux'],
      text: (d: { commands: string; pattern: string }) =>
        `\`ignoreViolations\` hides every violation of ${d.commands} whose report contains \`${d.pattern}\` ` +
        `(a substring: every path below it): the sandbox still blocks them, and nobody is told a command tried`,
      suggestion: 'Name the exact path whose violations are noise, for the one command that makes them.',
    },
    some: {
      severity: 'info',
      platforms: ['macos', 'linux'],
      text: (d: { commands: string; pattern: string }) =>
        `\`ignoreViolations\` hides the violations of ${d.commands} whose report contains \`${d.pattern}\` ` +
        `(a substring, not a path: every path that holds it): the sandbox still blocks them, unreported`,
    },
  },
  check(ctx) {
    const s = setting(ctx.ir, 'ignoreViolations');
    if (!s || typeof s.value !== 'object' || s.value === null || Array.isArray(s.value)) return;
    for (const [command, patterns] of Object.entries(s.value as Record<string, unknown>)) {
      if (!Array.isArray(patterns)) continue;
      const commands = command === '*' ? 'every command' : `every command whose text contains \`${command}\``;
      for (const pattern of patterns)
        if (typeof pattern === 'string') ctx.report(hidesAll(pattern) ? 'everything' : 'some', { span: s.keySpan }, { commands, pattern });
    }
  },
});
