import type { Rule } from './engine.js';

export const privateTemp: Rule = {
  meta: {
    id: 'private-temp',
    seedRow: 'Seed 001: the session\'s implicit grants ("the worktree, temp, the agent\'s own directories"), as the Linux lowering makes them',
    severity: { linux: 'info' },
    dialects: ['tyba'],
    docs: {
      summary: "On Linux TYBA's temp directory is a private tmpfs, never the host's /tmp.",
      details:
        "A TYBA session may write its temp directory. On Linux that is a tmpfs of the sandbox's own at /tmp (TMPDIR=/tmp): empty when the command starts, discarded when it ends, shared with nothing. It is never the host's /tmp, where a tmux server's socket lets anything that can connect type into a host shell, and where ssh-agent and X11 sockets live too. So files a command leaves in /tmp are gone for the next command; keep what must last in the worktree. macOS grants /private/tmp and $TMPDIR (Seatbelt denies unix-socket connections there); Windows grants %TEMP%.",
      bad: '[sandbox]\nread_allow = []',
      good: '[sandbox]\nread_allow = []  # the same: info only',
    },
  },
  check(ctx) {
    const agent = ctx.ir.principals[0];
    const temp = agent?.grants.find((g) => g.implicit?.privateTmpfs);
    if (!agent || !temp) return;
    ctx.report({
      severity: 'info',
      platforms: ['linux'],
      message: `on Linux the session's temp directory is a private tmpfs at ${temp.path} (TMPDIR): empty when a command starts and discarded when it ends, never the host's ${temp.path}`,
      span: temp.span,
    });
  },
};
