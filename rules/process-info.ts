import { isUnder } from '../compiler/paths/index.js';
import { defineRule } from './engine/engine.js';
import { fixOf, removeFromList } from './engine/fix.js';

export const processInfo = defineRule({
  meta: {
    id: 'process-info',
    seedRow: "Box's platform table, row: Process information",
    dialects: ['box'],
    docs: {
      summary: "A grant under /proc shows the workload's own processes on Linux, never the host's.",
      details:
        "Linux provides /proc within the workload's process namespace (a fresh /proc). No field grants surrounding-OS " +
        "process visibility: a grant under /proc names the sandbox's own view. This differs from macOS process " +
        'restrictions. Observe the workload from the supervisor instead.',
      bad: { toml: '[agent.filesystem]\nread = ["/proc"]', expect: ['2:9 warning linux'] },
      good: { toml: '# observe the workload from the supervisor', expect: [] },
    },
  },
  messages: {
    own: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { path: string }) => `${d.path} on Linux is the workload's own /proc (its process namespace), never the host's`,
      suggestion: 'Observe the workload from the supervisor.',
    },
  },
  explains: {
    'own-proc': () => "the sandbox's own /proc (its process namespace, mounted noexec), never the host's",
  },
  grant(g, _ga, _pa, ctx) {
    if (isUnder(g.path, '/proc')) ctx.report('own', { span: g.span, fix: fixOf(removeFromList(ctx.text, g.span)) }, { path: g.path });
  },
});
