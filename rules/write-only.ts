import { coverScope } from '../model/scope.js';
import type { RelatedLocation } from '../compiler/diagnostic.js';
import type { Grant } from '../compiler/ir/types.js';
import { defineRule } from './engine/engine.js';
import { addToList, fixOf } from './engine/fix.js';
import { relatedGrant, shown } from './util.js';

const alternative =
  'Use explicit read-write grants only when read access is acceptable. Otherwise use macOS or a mediated ' +
  'operation (file requests through Strands Shell or Monty). Add read access only when the workload ' +
  'may read the entire writable path.';

export const writeOnly = defineRule({
  meta: {
    id: 'write-only',
    seedRow:
      "Box's platform table, row: Write-only content; an execute grant does not satisfy read; read_file cannot cover a directory write",
    dialects: ['box'],
    docs: {
      summary: 'A write or write_file grant without read access covering its whole scope.',
      details:
        'macOS separates reads and writes, so a write grant with no read gives write-only access there. ' +
        'Linux writable mounts also expose reads, so Linux refuses a write or write_file entry unless a ' +
        '`read` tree (or, for one file, a `read_file` of the same file) covers the entire write scope; a ' +
        'read on one child of the write tree, a read_file on a directory named in `write`, or an `exec` ' +
        'grant does not. On Windows reads are open, so the written tree is readable anyway. Add read access ' +
        'only when the workload may read the entire writable path.',
      bad: {
        toml: '[agent.filesystem]\nwrite = ["~/project"]\nread = ["~/project/src"]',
        expect: ['2:10 error linux', '2:10 warning windows'],
      },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]', expect: [] },
    },
  },
  messages: {
    linux: {
      severity: 'error',
      platforms: ['linux'],
      // The platform document's text, byte for byte.
      text: (d: { list: string; path: string }) =>
        `Linux cannot enforce write-only access for \`${d.list}\` at ${d.path}. Add an explicit \`read\` ` +
        `or \`read_file\` grant covering the entire write scope to request read-write access, or remove ` +
        `the write grant`,
      suggestion: alternative,
    },
    windows: {
      severity: 'warning',
      platforms: ['windows'],
      text: (d: { list: string; path: string }) =>
        `write-only access for \`${d.list}\` at ${d.path} does not hold on Windows: reads are open, so the writable path is readable too`,
    },
  },
  explains: {
    'write-without-read-cover': () => 'Linux refuses write-only access: a writable mount also exposes reads',
  },
  anyGrant(g, ga, pa, ctx) {
    const linux = ga.effective.linux;
    if (linux.kind !== 'refused' || linux.because.kind !== 'write-without-read-cover') return;
    const related: RelatedLocation[] = linux.because.partialReads.map((r) =>
      relatedGrant(
        r,
        r.scope === 'file' && g.scope === 'tree'
          ? 'a read_file entry cannot provide read access throughout a directory named in `write`'
          : 'this read covers only part of the write scope',
      ),
    );
    const grants = pa.principal.grants;
    let execs = execsOf.get(grants);
    if (!execs) execsOf.set(grants, (execs = execGrantsByPath(grants)));
    for (const other of execs.get(g.path) ?? [])
      related.push(relatedGrant(other, "an execute grant does not satisfy Linux's explicit read requirement"));
    const data = { list: g.list, path: shown(g) };
    // The suggestion as written: read access over the whole write scope (a file: read_file of it).
    const fix = fixOf(addToList(pa.principal.written, pa.principal.grants, coverScope(g) === 'file' ? 'read_file' : 'read', [g.written]));
    ctx.report('linux', { span: g.span, related, fix }, data);
    ctx.report('windows', { span: g.span }, data);
  },
});

/** Per principal, once, on its first refused write: a config may hold tens of thousands of grants. */
const execsOf = new WeakMap<readonly Grant[], Map<string | undefined, Grant[]>>();

/** A principal's exec grants by path, in their order: looked up for each refused write instead of a scan of every grant. */
function execGrantsByPath(grants: readonly Grant[]): Map<string | undefined, Grant[]> {
  // Keyed as `===` compares paths: the grants without one share the undefined key.
  const out = new Map<string | undefined, Grant[]>();
  for (const g of grants) {
    if (g.access !== 'exec') continue;
    const at = out.get(g.path);
    if (at) at.push(g);
    else out.set(g.path, [g]);
  }
  return out;
}
