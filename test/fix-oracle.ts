/**
 * What a fix gains, seen from outside the engine's own comparison (which
 * decides applicability: app/fix-applicability.ts, by accessDelta and
 * gateFailures). Two oracles of their own, so that they can disagree with it:
 * - `gains`: each principal's effective access (the model's cells, what
 *   explain shows) at every path of a generated tree and every path either
 *   revision grants, on every platform, its direct network exception, and
 *   principals added;
 * - `explainGains`: explain's matrix itself, row by row (the rows both
 *   revisions show for the same list and path, and "everything else").
 */
import { explainCheck } from '../app/cli/explain.js';
import type { CheckResult } from '../app/check.js';
import { PLATFORMS } from '../compiler/diagnostic.js';
import type { Cell } from '../model/cell.js';
import type { PrincipalAccess } from '../model/index.js';

/** What a cell lets a principal do, as the flags explain shows. */
export function can(c: Cell): string[] {
  if (c.kind !== 'access') return [];
  return (['read', 'write', 'exec', 'names', 'meta'] as const).filter((k) => c[k]);
}

/** The gains of `after` over `before`, read off the model's cells at every one of `treePaths` and every granted path. */
export function gains(before: CheckResult, after: CheckResult, treePaths: readonly string[]): string[] {
  const out: string[] = [];
  const grantPaths = (r: CheckResult) => r.model!.principals.flatMap((p) => p.grants.map((g) => g.grant.path ?? ''));
  const paths = [...new Set([...treePaths, ...grantPaths(before), ...grantPaths(after)])].filter(Boolean).sort();
  for (const pa of after.model!.principals) {
    const pb: PrincipalAccess | undefined = before.model!.principals.find((p) => p.principal.id === pa.principal.id);
    if (!pb) {
      out.push(`principal ${pa.principal.id} added`);
      continue;
    }
    for (const platform of PLATFORMS)
      for (const path of paths) {
        const was = new Set(can(pb.effectiveAt(path, platform)));
        const gained = can(pa.effectiveAt(path, platform)).filter((k) => !was.has(k));
        if (gained.length) out.push(`${pa.principal.id} gains ${gained.join(',')} at ${path} on ${platform}`);
      }
    if (pa.principal.directNetwork && !pb.principal.directNetwork) out.push(`${pa.principal.id} gains a direct network exception`);
  }
  return out;
}

/**
 * What a legend of explain's matrix grants: `r`, `w`, `x` each, reading
 * also lists names and shows metadata; `names`, `meta`, `empty` (a visible
 * empty directory) and `scratch` (an empty writable tmpfs) what they say.
 * `refused` and `n/a` are not compared: the config is refused there, or the
 * row does not apply to the platform.
 */
function granted(legend: string): Set<string> | undefined {
  if (legend === 'refused' || legend === 'n/a') return undefined;
  if (legend === '—') return new Set();
  if (legend === 'names') return new Set(['names', 'meta']);
  if (legend === 'meta' || legend === 'empty') return new Set(['meta']);
  if (legend === 'scratch') return new Set(['scratch']);
  if (legend === 'direct') return new Set(['direct network']);
  if (!/^r?w?x?$/.test(legend)) throw new Error(`explain legend ${JSON.stringify(legend)} is not one the oracle knows`);
  const out = new Set<string>();
  for (const c of legend) out.add(c);
  if (legend.includes('r')) ['names', 'meta'].forEach((k) => out.add(k));
  return out;
}

/** The gains of `after` over `before` in explain's matrices: rows of the same list and path, and "everything else". */
export function explainGains(before: CheckResult, after: CheckResult): string[] {
  const mb = explainCheck(before).matrix;
  const ma = explainCheck(after).matrix;
  if (!mb || !ma) throw new Error('both revisions must have an explain matrix');
  const out: string[] = [];
  for (const pa of ma.principals) {
    const pb = mb.principals.find((p) => p.id === pa.id);
    if (!pb) {
      out.push(`principal ${pa.id} added`);
      continue;
    }
    if (pa.directNetwork && !pb.directNetwork) out.push(`${pa.id} gains a direct network exception`);
    const pairs: [string, Record<string, { legend: string }>, Record<string, { legend: string }>][] = [
      ['everything else', pb.elsewhere, pa.elsewhere],
    ];
    for (const row of pa.rows) {
      const was = pb.rows.find((r) => r.list === row.list && r.path === row.path && r.written === row.written);
      if (was) pairs.push([`${row.list} ${row.written}`, was.cells, row.cells]);
    }
    for (const [name, cb, ca] of pairs)
      for (const platform of PLATFORMS) {
        const b = granted(cb[platform]!.legend);
        const a = granted(ca[platform]!.legend);
        if (!a || !b) continue;
        const gained = [...a].filter((k) => !b.has(k));
        if (gained.length) out.push(`${pa.id} gains ${gained.join(',')} in the row ${name} on ${platform}`);
      }
  }
  return out;
}
