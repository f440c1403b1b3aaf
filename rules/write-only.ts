import type { RelatedLocation } from '../compiler/diagnostic.js';
import type { Rule } from './engine.js';
import { relatedGrant, shown } from './util.js';

export const writeOnly: Rule = {
  meta: {
    id: 'write-only',
    seedRow: 'Write-only content; an execute grant does not satisfy read; read_file cannot cover a directory write',
    severity: { linux: 'error', windows: 'warning' },
    dialects: ['box'],
    docs: {
      summary: 'A write or write_file grant without read access covering its whole scope.',
      details:
        'macOS separates reads and writes, so a write grant with no read gives write-only access there. Linux writable mounts also expose reads, so Linux refuses a write or write_file entry unless a `read` tree (or, for one file, a `read_file` of the same file) covers the entire write scope; a read on one child of the write tree, a read_file on a directory named in `write`, or an `exec` grant does not. On Windows reads are open, so the written tree is readable anyway. Add read access only when the workload may read the entire writable path.',
      bad: '[agent.filesystem]\nwrite = ["~/project"]\nread = ["~/project/src"]',
      good: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]',
    },
  },
  check(ctx) {
    for (const pa of ctx.access.principals) {
      for (const ga of pa.grants) {
        const g = ga.grant;
        if (g.implicit || !g.path || (g.access !== 'write' && g.access !== 'read-write')) continue;
        const linux = ga.effective.linux;
        if (linux.kind === 'refused' && linux.ruleId === 'write-only') {
          const related: RelatedLocation[] = (ga.partialReads ?? []).map((r) =>
            relatedGrant(r, r.scope === 'file' && g.scope === 'tree' ? 'a read_file entry cannot provide read access throughout a directory named in `write`' : 'this read covers only part of the write scope'),
          );
          for (const other of pa.principal.grants) {
            if (other.access === 'exec' && other.path === g.path) related.push(relatedGrant(other, "an execute grant does not satisfy Linux's explicit read requirement"));
          }
          ctx.report({
            severity: 'error',
            platforms: ['linux'],
            message: `Linux cannot enforce write-only access for \`${g.list}\` at ${shown(g)}. Add an explicit \`read\` or \`read_file\` grant covering the entire write scope to request read-write access, or remove the write grant`,
            span: g.span,
            ...(related.length ? { related } : {}),
            suggestion:
              'Use explicit read-write grants only when read access is acceptable. Otherwise use macOS or a mediated operation (file requests through Strands Shell or Monty). Add read access only when the workload may read the entire writable path.',
          });
          ctx.report({
            severity: 'warning',
            platforms: ['windows'],
            message: `write-only access for \`${g.list}\` at ${shown(g)} does not hold on Windows: reads are open, so the writable path is readable too`,
            span: g.span,
          });
        }
      }
    }
  },
};
