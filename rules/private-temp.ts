import type { Fact } from '../model/facts.js';
import { platformsReporting } from '../model/platforms-of.js';
import { defineRule } from './engine/engine.js';

/** Where the private tmpfs goes on Linux (compiler/ir/implicit.ts). */
const TMP = '/tmp';

/** How each platform with a run's own temp directory makes it, in the footnote's words. */
const runTempWords: Readonly<Record<Extract<Fact, { kind: 'run-temp-dir' }>['platform'], string>> = {
  macos:
    "a directory of the run's own: boxwright run makes it (0700, empty, under the cache root), passes " +
    "it as sandbox-exec -D TMPDIR=… and TMPDIR, and removes it after the command; never the host's shared /private/tmp",
  windows:
    "a directory of the run's own: apply.ps1 makes it empty (a Low label, an ACE for the session SID) " +
    "and the plan sets TMP and TEMP to it; undo.ps1 removes it; never the user's shared %TEMP%",
};

export const privateTemp = defineRule({
  meta: {
    id: 'private-temp',
    seedRow:
      `TYBA's platforms page: the session's implicit grants ("the worktree, temp, the agent's own directories"), ` +
      `as the Linux lowering makes them; a Box principal's \`private_tmp = true\``,
    dialects: ['tyba', 'box'],
    docs: {
      summary: "On Linux TYBA's temp directory, and a Box principal's with private_tmp = true, is a private tmpfs, never the host's /tmp.",
      details:
        "A TYBA session may write its temp directory. On Linux that is a tmpfs of the sandbox's own at /tmp " +
        '(TMPDIR=/tmp): empty when the command starts, discarded when it ends, shared with nothing. It is ' +
        "never the host's /tmp, where a tmux server's socket lets anything that can connect type into a " +
        'host shell, and where ssh-agent and X11 sockets live too. So files a command leaves in /tmp are ' +
        'gone for the next command; keep what must last in the worktree. macOS grants a directory of the ' +
        "session's own, which `boxwright run` makes for the command (0700, empty at start) and removes after " +
        "it, passed as `sandbox-exec -D TMPDIR=…` and TMPDIR, never the host's shared /private/tmp; Windows " +
        'grants %TEMP%. A Box principal asks for the same with `private_tmp = true` in its filesystem table ' +
        "(off by default: Box's Linux omits ungranted paths, /tmp included): Linux the private tmpfs at " +
        "/tmp, macOS the run's own directory, Windows a directory of the principal's own that apply.ps1 " +
        'makes empty and undo.ps1 removes, with TMP and TEMP naming it. A grant of /tmp itself beside it ' +
        "is refused on Linux: the tmpfs and the host's /tmp would be one mount point, one hiding the other; " +
        "a grant below /tmp is the host's directory bound inside the private tmpfs.",
      bad: { toml: '[sandbox]\nread_allow = []', expect: ['1:2 info linux'] },
      good: {
        toml:
          '# a Box config asks for its own temp directory (nothing to report: explain shows it)\n[agent.filesystem]\n' +
          'read = ["~/project"]\nprivate_tmp = true',
        expect: [],
      },
    },
  },
  messages: {
    private: {
      severity: 'info',
      platforms: ['linux'],
      text: (d: { path: string }) =>
        `on Linux the session's temp directory is a private tmpfs at ${d.path} (TMPDIR): empty when a command ` +
        `starts and discarded when it ends, never the host's ${d.path}`,
    },
    hidden: {
      severity: 'error',
      platforms: ['linux'],
      text: (d: { path: string }) =>
        `private_tmp = true puts a private tmpfs at ${d.path} on Linux, and this grant names the host's ` +
        `${d.path}: one mount point cannot be both, one would hide the other`,
      suggestion:
        "Remove this grant (the private /tmp is writable already), or remove private_tmp to share the host's /tmp (shared-temp-write).",
    },
  },
  explains: {
    'private-tmpfs': () =>
      "a private tmpfs for this sandbox, empty at start and discarded at exit: never the host's /tmp, whose tmux, ssh-agent and X11 sockets would be reachable",
    // The temp directory's other spellings ($TMPDIR on macOS, %TEMP% on Windows), and sandbox-runtime's own additions off its platforms.
    'run-temp-dir': (f) => runTempWords[f.platform],
    'implicit-other-platform': () => 'an implicit grant of another platform (each platform has its own spelling)',
  },
  anyGrant(g, ga, pa, ctx) {
    // TYBA's is the session's, said once; a Box principal asked for its own (explain shows it).
    const tmpfs = platformsReporting(ga.notes, 'private-tmpfs');
    if (tmpfs.length && !g.implicit?.privateTmp) ctx.report('private', { span: g.span, platforms: tmpfs }, { path: g.path! });
    const own = pa.principal.privateTmp;
    if (own && !g.implicit && g.path !== undefined && g.path === TMP && ga.applies.linux)
      ctx.report('hidden', { span: g.span, related: [{ span: own.span, message: 'private_tmp = true' }] }, { path: g.path });
  },
});
