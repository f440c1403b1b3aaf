import runtimes from './runtimes.json' with { type: 'json' };
import type { Rule } from './engine.js';
import { authored, shown } from './util.js';

export const loaderDirExec: Rule = {
  meta: {
    id: 'loader-dir-exec',
    seedRow: 'Loader directory reads',
    severity: { linux: 'info' },
    dialects: ['box'],
    docs: {
      summary: 'An agent read on a recognised loader directory makes its programs executable on Linux.',
      details:
        'Linux makes the listed ARM64 loader directories (`/lib/aarch64-linux-gnu`, `/usr/lib/aarch64-linux-gnu`, `/lib64`, `/usr/lib64`) executable when granted read access, because libraries require executable mappings. Programs in that directory can then also execute.',
      bad: '[agent.filesystem]\nread = ["/usr/lib64"]',
      good: '[agent.filesystem]\nexec = ["/usr/bin/git"]',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      if (p.kind !== 'agent') continue;
      for (const g of authored(p)) {
        if (g.access !== 'read' || !g.path || !runtimes.loaderDirectories.includes(g.path)) continue;
        ctx.report({
          severity: 'info',
          platforms: ['linux'],
          message: `Linux makes loader directory ${shown(g)} executable when granted read access: programs in that directory can also execute`,
          span: g.span,
          suggestion: 'Grant exact executable files with their discovered transitive dependencies, then validate later library loads.',
        });
      }
    }
  },
};
