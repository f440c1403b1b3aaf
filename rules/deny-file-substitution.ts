import type { Grant } from '../compiler/ir/types.js';
import type { LinuxNoMount } from '../model/index.js';
import { defineRule } from './engine/engine.js';
import { relatedGrant, shown } from './util.js';

export const denyFileSubstitution = defineRule({
  meta: {
    id: 'deny-file-substitution',
    seedRow: "Box's platform table, row: Deny an existing file",
    docs: {
      summary: 'A denied file inside a granted tree reads as empty on Linux.',
      details:
        'Linux places an empty read-only file over the denied target: reads can return empty output while ' +
        'writes fail, so a successful read does not mean the original content is accessible. macOS applies ' +
        'a refusal rule instead, so the same program sees an error there. Denied directories get an empty ' +
        'read-only tmpfs.',
      bad: { toml: '[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/project/.env"]', expect: ['3:9 warning linux'] },
      good: { toml: '[agent.filesystem]\nread = ["~/project/src"]  # no broader grant over .env', expect: [] },
    },
  },
  messages: {
    empty: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { path: string }) =>
        `Linux places an empty file over ${d.path}: reads can return empty output while writes fail; a successful ` +
        `read does not mean the original content is accessible`,
      suggestion:
        'Omit the broader content grant when empty-file substitution breaks the workload, and grant the ' +
        'narrower paths the workload needs instead; a write grant that the broader read covered then needs ' +
        'a read of its own on Linux (write-only).',
    },
  },
  explains: {
    'empty-cover': (f) =>
      f.of === 'file' ? 'an empty read-only file covers it: reads succeed empty, writes fail' : 'an empty read-only tmpfs covers it',
    'linux-no-mount': (f) =>
      f.why.kind === 'no-lowering' ? `no Linux lowering for \`${f.why.list}\`: no mount` : linuxNoMountText[f.why.kind],
  },
  grant(g, ga, pa, ctx) {
    const cover = ga.notes.linux;
    if (cover?.kind !== 'empty-cover' || cover.of !== 'file') return;
    const grants = pa.principal.grants;
    let trees = treesOf.get(grants);
    if (!trees) treesOf.set(grants, (trees = firstTreeAt(grants)));
    const broader = firstTreeAbove(grants, trees, g.path);
    if (!broader) return;
    ctx.report(
      'empty',
      { span: g.span, related: [relatedGrant(broader, 'the broader grant the denied file sits in')] },
      { path: shown(g) },
    );
  },
});

/** Per principal, once, on its first denied file: a config may hold tens of thousands of grants. */
const treesOf = new WeakMap<readonly Grant[], Map<string, number>>();

/** Where each path's first non-deny tree grant is in the principal's grants. */
function firstTreeAt(grants: readonly Grant[]): Map<string, number> {
  const out = new Map<string, number>();
  grants.forEach((o, i) => {
    if (o.access !== 'deny' && o.scope === 'tree' && o.path && !out.has(o.path)) out.set(o.path, i);
  });
  return out;
}

/**
 * The first non-deny tree grant strictly above `path` by spelling (what
 * isStrictlyUnder says: `/`, or a prefix of `path` that a `/` follows), in
 * the principal's order: looked up for each prefix instead of a scan of
 * every grant for each denied file.
 */
function firstTreeAbove(grants: readonly Grant[], trees: ReadonlyMap<string, number>, path: string): Grant | undefined {
  let first = path !== '/' && path.charCodeAt(0) === 47 ? trees.get('/') : undefined;
  for (let i = path.indexOf('/', 1); i > 0; i = path.indexOf('/', i + 1)) {
    const at = trees.get(path.slice(0, i));
    if (at !== undefined && (first === undefined || at < first)) first = at;
  }
  return first === undefined ? undefined : grants[first];
}

/** The words of the Linux plan's notes (bwrap.json `notes`): a grant that became no mount, and why. */
const linuxNoMountText: Record<Exclude<LinuxNoMount['kind'], 'no-lowering'>, string> = {
  'not-in-view': 'not in the view',
  'no-metadata-tree': 'Linux supplies no metadata-only tree: no mount',
  'under-deny-covered': 'under a deny: covered, not mounted',
  'under-deny-absent': 'under a deny: not in the view, not mounted',
  'no-content': 'no content access on Linux: no mount',
  'own-proc': "served by the sandbox's own /proc (--proc /proc), never the host's",
  'inside-denied-directory': 'inside a denied directory: already hidden',
  'cover-kind-unknown': 'kind unknown (no filesystem facts): covered as a directory; bubblewrap fails if it is a file',
};
