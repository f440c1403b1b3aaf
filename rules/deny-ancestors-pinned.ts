import { platformsWhere } from '../model/platforms-of.js';
import { defineRule } from './engine/engine.js';
import { listPaths, shown } from './util.js';

const plural = (n: number, one: string, many: string): string => (n === 1 ? one : many);

export const denyAncestorsPinned = defineRule({
  meta: {
    id: 'deny-ancestors-pinned',
    seedRow: 'Our lowerings: a deny inside a write tree, and the rename of its ancestors',
    docs: {
      summary: 'A deny inside a write tree pins its ancestors: the workload cannot rename or remove them.',
      details:
        'A deny names a path. Inside a write tree the workload could rename an ancestor of it (`mv ~/project/a ' +
        '~/project/b`) and read the denied path under its new name, on macOS in the same run and on Linux ' +
        'in the next one. So the lowerings pin every ancestor whose parent is writable: on Linux each becomes ' +
        'a mount point of its own (a mount point cannot be renamed or removed: EBUSY; moving a file between ' +
        'it and the rest of the tree is a cross-device rename, which `mv` handles by copying), on macOS ' +
        'the profile denies `file-write-unlink` on it, as sandbox-runtime does. Windows needs nothing: its ' +
        'deny is a no-read-up label on each file, which a rename carries along. Reported once per deny whose ' +
        'ancestors are pinned.',
      bad: {
        toml: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project"]\ndeny = ["~/project/src/main.py"]',
        expect: ['4:9 info macos,linux'],
      },
      good: {
        toml: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]\ndeny = ["~/project/src/main.py"]  # src is not writable',
        expect: [],
      },
    },
  },
  messages: {
    pinned: {
      severity: 'info',
      platforms: ['macos', 'linux'],
      text: (d: { ancestors: readonly string[]; deny: string }) =>
        `the workload cannot rename or remove ${listPaths(d.ancestors)}: ${plural(d.ancestors.length, 'it is an ancestor', 'they are ancestors')} ` +
        `of the denied ${d.deny}, and renaming ${plural(d.ancestors.length, 'it', 'one')} would carry the ` +
        `denied path out from under its deny`,
    },
  },
  explains: {
    'ancestors-pinned': (f) =>
      f.of === 'host-trusted'
        ? `${listPaths(f.ancestors)} cannot be renamed or removed: ${f.ancestors.length === 1 ? 'an ancestor' : 'ancestors'} ` +
          `of this host-trusted path, pinned so that it cannot be moved away and replaced (host-trusted-path)`
        : `${listPaths(f.ancestors)} cannot be renamed or removed: ${f.ancestors.length === 1 ? 'an ancestor' : 'ancestors'} ` +
          `of this deny, pinned so that the denied path cannot be moved out from under it`,
  },
  authoredGrant(g, ga, _pa, ctx) {
    const pinned = ga.pinnedAncestors;
    if (!pinned) return;
    const platforms = platformsWhere(pinned, (ancestors) => ancestors.length > 0);
    const ancestors = [...new Set(platforms.flatMap((p) => pinned[p]!))].sort();
    if (platforms.length) ctx.report('pinned', { span: g.span, platforms }, { ancestors, deny: shown(g) });
  },
});
