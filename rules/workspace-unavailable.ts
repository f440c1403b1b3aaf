import { isStrictlyUnder } from '../compiler/paths/index.js';
import { defineRule } from './engine/engine.js';
import { who } from './util.js';

export const workspaceUnavailable = defineRule({
  meta: {
    id: 'workspace-unavailable',
    seedRow:
      'Box\'s platform table, rows: Unreachable paths and workspace ("can provide an empty initial directory"), ' +
      'and Namespace setup ("requires successful namespace creation and mount setup")',
    dialects: ['box'],
    docs: {
      summary: 'The workspace cannot be the starting directory on Linux: bubblewrap would fail to enter it.',
      details:
        'Linux starts the workload in its workspace. Where no mount holds the workspace, the sandbox makes ' +
        "it, an empty directory. Where a mount does hold it, the sandbox shows the host's directory there, " +
        'and cannot make one: a workspace that does not exist on the host inside a granted tree (read, write ' +
        'or exec), or one inside a denied directory (which an empty cover hides), cannot be entered, and ' +
        'bubblewrap fails before anything runs. Linux refuses such a config up front instead. Create the ' +
        'workspace first, or choose one outside the granted trees and the denied directories.',
      bad: { toml: '[agent.filesystem]\nread = ["~/project"]\nworkspace = "~/project/not-yet"', expect: ['3:13 error linux'] },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]\nworkspace = "~/project"', expect: [] },
    },
  },
  messages: {
    absent: {
      severity: 'error',
      platforms: ['linux'],
      text: (d: { path: string; who: string }) =>
        `workspace ${d.path} of ${d.who} does not exist, and a granted tree holds it: Linux shows the host's ` +
        `directory there and cannot make the workspace, so the sandbox could not start in it`,
      suggestion: 'Create the workspace first, or choose one outside the granted trees.',
    },
    covered: {
      severity: 'error',
      platforms: ['linux'],
      text: (d: { path: string; who: string; deny: string }) =>
        `workspace ${d.path} of ${d.who} lies inside the denied ${d.deny}, which an empty cover hides on Linux: the sandbox could not start in it`,
      suggestion: 'Choose a workspace outside the denied directory.',
    },
  },
  principal(pa, ctx) {
    const ws = pa.principal.workspace;
    if (!ws?.path) return;
    const cell = pa.effectiveAt(ws.path, 'linux');
    // Inside a denied directory's empty cover (a deny the Linux mounts cover: its cell is empty).
    const cover = pa.grants.find(
      (ga) =>
        ga.grant.access === 'deny' && ga.grant.path && isStrictlyUnder(ws.path!, ga.grant.path) && ga.effective.linux.kind === 'empty',
    );
    if (cover) {
      ctx.report('covered', { span: ws.span }, { path: ws.path, who: who(pa.principal), deny: cover.grant.path! });
      return;
    }
    // Held by a mount (the model gives access there) but absent on the host.
    if (cell.kind === 'access' && ws.facts.existence === 'absent')
      ctx.report('absent', { span: ws.span }, { path: ws.path, who: who(pa.principal) });
  },
});
