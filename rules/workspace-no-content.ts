import { PLATFORMS } from '../compiler/diagnostic.js';
import { defineRule } from './engine/engine.js';
import { who } from './util.js';

export const workspaceNoContent = defineRule({
  meta: {
    id: 'workspace-no-content',
    seedRow: "Box's platform table, row: Unreachable paths and workspace",
    dialects: ['box'],
    docs: {
      summary: 'A workspace grants no content by itself.',
      details:
        'The workspace is the initial directory. Linux omits ungranted paths and can provide an empty initial ' +
        'directory; macOS refuses access through Seatbelt. Runtime errors need not match across platforms. ' +
        'Reported when no content grant covers the workspace.',
      bad: { toml: '[agent.filesystem]\nworkspace = "~/work"', expect: ['2:13 info macos,linux,windows'] },
      good: { toml: '[agent.filesystem]\nworkspace = "~/work"\nread = ["~/work"]\nwrite = ["~/work"]', expect: [] },
    },
  },
  messages: {
    empty: {
      severity: 'info',
      platforms: PLATFORMS,
      text: (d: { path: string; who: string }) =>
        `workspace ${d.path} of ${d.who} grants no content: on Linux it is an empty initial directory, on macOS Seatbelt refuses access to it`,
      suggestion: 'Declare the required content grants or use mediated access.',
    },
  },
  principal(pa, ctx) {
    const ws = pa.principal.workspace;
    if (!ws?.path) return;
    const macos = pa.effectiveAt(ws.path, 'macos');
    if (macos.kind === 'access' && (macos.read || macos.write)) return;
    ctx.report('empty', { span: ws.span }, { path: ws.path, who: who(pa.principal) });
  },
});
