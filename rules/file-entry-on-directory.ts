import type { Grant } from '../compiler/ir/types.js';
import type { RewriteInPlace } from '../model/index.js';
import { defineRule } from './engine/engine.js';
import { addToList, fixOf, removeFromList } from './engine/fix.js';
import { shown } from './util.js';

/** What macOS's literal gives of a directory, for a read_file and for a write_file. */
const entryGives = { read: 'its names, none of its contents', write: 'its own properties: nothing can be created in it' } as const;

/** The tree list that says what a one-file entry on a directory would give on Linux. */
const treeList = (g: Grant): 'read' | 'write' => (g.access === 'read' ? 'read' : 'write');

/**
 * What a `write_file` of a file is, by how the platform holds it (its
 * model part's `rewriteInPlace`): the file, not its directory, so a save
 * through a temporary file beside it fails everywhere. A bind-mounted file
 * (Linux) and the 0x12019f mask, no DELETE (Windows:
 * targets/windows/README.md), also keep it from being renamed or deleted;
 * `file-write*` on the literal (macOS) lets it be deleted and re-created.
 */
const rewriteInPlace: Readonly<Record<RewriteInPlace, string>> = {
  'literal-rule':
    '`file-write*` on this file alone: it can be rewritten, deleted and created again, but no file ' +
    'beside it, so tools that save through a temporary file and a rename (safe save, `sed -i`) fail: ' +
    'grant `write` on the directory for those',
  'file-bind':
    'a rewrite in place: the file is bind-mounted alone, so it can be rewritten, truncated and appended ' +
    'but not renamed, deleted or replaced (a mount point of its own); tools that save through a ' +
    'temporary file and a rename (safe save, `sed -i`) fail: grant `write` on the directory for those',
  'no-delete-mask':
    'a rewrite in place: read and write without DELETE (0x12019f), so the file can be rewritten, ' +
    'truncated and appended but not renamed, deleted or replaced; tools that save through a temporary ' +
    'file and a rename (safe save, `sed -i`) fail: grant `write` on the directory for those',
};

export const fileEntryOnDirectory = defineRule({
  meta: {
    id: 'file-entry-on-directory',
    seedRow:
      "Box's platform table, row: Read-only content (`read_file`: exact files), and its read_file/write_file " +
      'pairs ("It does not grant content access to sibling files")',
    dialects: ['box'],
    docs: {
      summary: 'A `read_file` or `write_file` entry names a directory.',
      details:
        '`read_file` and `write_file` grant one file, and no content of its siblings. A directory cannot ' +
        'be granted that way everywhere. Linux mounts a directory with everything below it, so a `read_file` ' +
        'of one would expose its whole tree and a `write_file` would make the whole tree writable (files ' +
        "could be created in it, a sandbox's own cache replaced): Linux refuses the entry. On Windows a " +
        "`write_file`'s access entry (0x12019f) on a directory includes adding files and folders to it: " +
        'Windows refuses it too (a `read_file` has no effect there: reads are open). macOS can give the ' +
        'directory alone (a `literal` rule): its names for `read_file`, nothing inside it for `write_file`, ' +
        "which is seldom what was meant; it warns. Use `read` or `write` for the directory's tree, or name the files.",
      bad: {
        toml: '[agent.filesystem]\nread = ["~/project"]\nwrite_file = ["~/project/output"]',
        expect: ['3:15 error linux', '3:15 error windows', '3:15 warning macos'],
      },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]', expect: [] },
    },
  },
  messages: {
    linux: {
      severity: 'error',
      platforms: ['linux'],
      text: (d: { list: string; path: string; tree: string }) =>
        `\`${d.list}\` names a directory, ${d.path}: Linux mounts a directory with everything below it, ` +
        `so it cannot give the directory alone; use \`${d.tree}\` for its tree, or name the files`,
      suggestion: 'Grant the directory as a tree only if its whole content may be exposed; otherwise name the exact files.',
    },
    windows: {
      severity: 'error',
      platforms: ['windows'],
      text: (d: { path: string }) =>
        `\`write_file\` names a directory, ${d.path}: on Windows the entry's access (0x12019f) on a directory ` +
        `lets the agent add files and folders to it, so it cannot give the directory alone; use \`write\` ` +
        `for its tree, or name the files`,
      suggestion: 'Grant the directory as a tree only if its whole content may be written; otherwise name the exact files.',
    },
    macos: {
      severity: 'warning',
      platforms: ['macos'],
      text: (d: { list: string; path: string; gives: string; tree: string }) =>
        `\`${d.list}\` names a directory, ${d.path}: macOS grants the directory entry alone (${d.gives}); use \`${d.tree}\` for its contents`,
      suggestion: 'Name the exact files, or grant the directory as a tree if its contents are meant.',
    },
  },
  explains: {
    'directory-as-one-file': () => 'a one-file entry names a directory, and the platform cannot give a directory alone',
    'rewrite-in-place': (f) => rewriteInPlace[f.how],
    'directory-entry-only': (f) =>
      `a one-file entry names a directory: macOS gives the directory entry alone (${entryGives[f.access]}), ` +
      `nothing below it; \`${f.access}\` grants its contents`,
  },
  authoredGrant(g, ga, pa, ctx) {
    if (g.scope !== 'file' || g.facts.kind !== 'dir' || (g.access !== 'read' && g.access !== 'write')) return;
    const tree = treeList(g);
    const fix = fixOf(addToList(pa.principal.written, pa.principal.grants, tree, [g.written]), removeFromList(ctx.text, g.span));
    const d = { list: g.list, path: shown(g), tree };
    const entry = ga.notes.macos;
    if (entry?.kind === 'directory-entry-only') ctx.report('macos', { span: g.span }, { ...d, gives: entryGives[entry.access] });
    const linux = ga.effective.linux;
    if (linux.kind === 'refused' && linux.because.kind === 'directory-as-one-file') ctx.report('linux', { span: g.span, fix }, d);
    const windows = ga.effective.windows;
    if (ga.applies.windows && windows.kind === 'refused' && windows.because.kind === 'directory-as-one-file')
      ctx.report('windows', { span: g.span, fix }, d);
  },
});
