import loaders from '../compiler/paths/loaders.json' with { type: 'json' };
import { defineRule } from './engine/engine.js';
import { shown } from './util.js';

export const loaderDirExec = defineRule({
  meta: {
    id: 'loader-dir-exec',
    seedRow: "Box's platform table, row: Loader directory reads",
    dialects: ['box'],
    docs: {
      summary: 'An agent read on a recognised loader directory makes its programs executable on Linux.',
      details:
        'Linux makes the listed ARM64 loader directories (`/lib/aarch64-linux-gnu`, `/usr/lib/aarch64-linux-gnu`, ' +
        '`/lib64`, `/usr/lib64`) executable when granted read access, because libraries require executable ' +
        "mappings. Programs in that directory can then also execute. boxwright's Landlock ruleset grants " +
        'execute on such a read grant (and on the dynamic loaders themselves, which the kernel checks as ' +
        "a program's interpreter); every other agent read tree stays non-executable.",
      bad: { toml: '[agent.filesystem]\nread = ["/usr/lib64"]', expect: ['2:9 info linux'] },
      good: { toml: '[agent.filesystem]\nexec = ["/usr/bin/git"]', expect: [] },
    },
  },
  messages: {
    loader: {
      severity: 'info',
      platforms: ['linux'],
      text: (d: { path: string }) =>
        `Linux makes loader directory ${d.path} executable when granted read access: programs in that directory can also execute`,
      suggestion: 'Grant exact executable files with their discovered transitive dependencies, then validate later library loads.',
    },
  },
  explains: {
    'loader-directory': () => 'Linux makes a granted loader directory executable: libraries require executable mappings',
  },
  grant(g, _ga, pa, ctx) {
    if (pa.principal.kind === 'agent' && g.access === 'read' && loaders.loaderDirectories.includes(g.path))
      ctx.report('loader', { span: g.span }, { path: shown(g) });
  },
});
