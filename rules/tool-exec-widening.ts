import { defineRule } from './engine/engine.js';
import { authored, listPaths, relatedGrants, who } from './util.js';

export const toolExecWidening = defineRule({
  meta: {
    id: 'tool-exec-widening',
    seedRow: "Box's platform table, row: Helper execution",
    dialects: ['box'],
    docs: {
      summary: "Linux makes a tool's read and write mounts executable.",
      details:
        'Tools can run helpers and load built code, so Linux makes their read/write mounts executable: anything ' +
        "under a tool's content grant can run. The agent keeps explicit execution grants. boxwright's Landlock " +
        'ruleset (`<tool>.landlock.json`) grants a tool execute on each content grant, as the table says, ' +
        "where the agent's read trees get none. Reported once per tool, at its first content grant.",
      bad: { toml: '[tools.builder.filesystem]\nread = ["~"]', expect: ['2:9 info linux'] },
      good: { toml: '[tools.builder.filesystem]\nread = ["~/project/src"]\nwrite = ["~/project/build"]', expect: ['2:9 info linux'] },
    },
  },
  messages: {
    executable: {
      severity: 'info',
      platforms: ['linux'],
      text: (d: { who: string; paths: readonly string[] }) =>
        `Linux makes ${d.who}'s read and write mounts executable: programs under ${listPaths(d.paths)} can run`,
      suggestion: 'Grant the tool only the files and directories its task requires.',
    },
  },
  explains: {
    'tool-mounts-executable': () => "Linux makes a tool's content mounts executable",
    'tool-helper-exec': () => 'tools run helpers from their content grants',
  },
  principal({ principal: p }, ctx) {
    if (p.kind !== 'tool') return;
    const content = authored(p).filter((g) => g.path && (g.access === 'read' || g.access === 'write' || g.access === 'read-write'));
    const first = content[0];
    if (first)
      ctx.report(
        'executable',
        { span: first.span, related: relatedGrants(content.slice(1), 'also executable') },
        { who: who(p), paths: content.map((g) => g.path!) },
      );
  },
});
