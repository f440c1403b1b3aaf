import type { Rule } from './engine.js';
import { who } from './util.js';

export const workspaceNoContent: Rule = {
  meta: {
    id: 'workspace-no-content',
    seedRow: 'Unreachable paths and workspace',
    severity: { macos: 'info', linux: 'info', windows: 'info' },
    dialects: ['box'],
    docs: {
      summary: 'A workspace grants no content by itself.',
      details:
        'The workspace is the initial directory. Linux omits ungranted paths and can provide an empty initial directory; macOS refuses access through Seatbelt. Runtime errors need not match across platforms. Reported when no content grant covers the workspace.',
      bad: '[agent.filesystem]\nworkspace = "~/work"',
      good: '[agent.filesystem]\nworkspace = "~/work"\nread = ["~/work"]\nwrite = ["~/work"]',
    },
  },
  check(ctx) {
    for (const pa of ctx.access.principals) {
      const ws = pa.principal.workspace;
      if (!ws?.path) continue;
      const macos = pa.effectiveAt(ws.path, 'macos');
      if (macos.kind === 'access' && (macos.read || macos.write)) continue;
      ctx.report({
        severity: 'info',
        platforms: ['macos', 'linux', 'windows'],
        message: `workspace ${ws.path} of ${who(pa.principal)} grants no content: on Linux it is an empty initial directory, on macOS Seatbelt refuses access to it`,
        span: ws.span,
        suggestion: 'Declare the required content grants or use mediated access.',
      });
    }
  },
};
