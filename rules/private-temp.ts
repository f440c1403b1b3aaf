import { defineRule } from './engine/engine.js';

export const privateTemp = defineRule({
  meta: {
    id: 'private-temp',
    seedRow: `TYBA's platforms page: the session's implicit grants ("the worktree, temp, the agent's own directories"), as the Linux lowering makes them`,
    dialects: ['tyba'],
    docs: {
      summary: "On Linux TYBA's temp directory is a private tmpfs, never the host's /tmp.",
      details:
        "A TYBA session may write its temp directory. On Linux that is a tmpfs of the sandbox's own at /tmp (TMPDIR=/tmp): empty when the command starts, discarded when it ends, shared with nothing. It is never the host's /tmp, where a tmux server's socket lets anything that can connect type into a host shell, and where ssh-agent and X11 sockets live too. So files a command leaves in /tmp are gone for the next command; keep what must last in the worktree. macOS grants a directory of the session's own, which `boxwright run` makes for the command (0700, empty at start) and removes after it, passed as `sandbox-exec -D TMPDIR=…` and TMPDIR, never the host's shared /private/tmp; Windows grants %TEMP%.",
      bad: { toml: '[sandbox]\nread_allow = []', expect: ['1:2 info linux'] },
      good: { toml: '# a Box config: its temp directory is whatever it grants\n[agent.filesystem]\nread = ["~/project"]', expect: [] },
    },
  },
  messages: {
    private: {
      severity: 'info',
      platforms: ['linux'],
      text: (d: { path: string }) =>
        `on Linux the session's temp directory is a private tmpfs at ${d.path} (TMPDIR): empty when a command starts and discarded when it ends, never the host's ${d.path}`,
    },
  },
  explains: {
    'private-tmpfs': () =>
      "a private tmpfs for this sandbox, empty at start and discarded at exit: never the host's /tmp, whose tmux, ssh-agent and X11 sockets would be reachable",
    // The temp directory's other spellings ($TMPDIR on macOS, %TEMP% on Windows), and sandbox-runtime's own additions off its platforms.
    'implicit-other-platform': () => 'an implicit grant of another platform (each platform has its own spelling)',
  },
  anyGrant(g, ga, _pa, ctx) {
    if (ga.notes.linux?.kind === 'private-tmpfs') ctx.report('private', { span: g.span }, { path: g.path! });
  },
});
