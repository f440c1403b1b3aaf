/**
 * What the launcher checks in a principal's write trees before and after a
 * run (LaunchTrust; trust-walk.c does the checking). Linux cannot refuse
 * the creation of a host-trusted name that does not exist yet (a mount needs
 * an existing target, and Landlock only allows), so the launcher lists every
 * write tree at every depth after the run and moves aside a host-trusted
 * name the workload made; before the run, a host-trusted name this compile
 * did not know of (a `git init` after `compile --out`) is refused.
 *
 * Everything here is read off the model and the plan the argv spells: the
 * trees are the plan's writable binds of authored or implicit write grants
 * (never a temporary directory: the search does not look there either), the
 * names are the data file's project names, and what the walk leaves alone
 * is what the model already decided (a host-trusted path bound read-only,
 * one a grant lifts, a link the model says it cannot pin) and what the
 * sandbox cannot write at all (a read-only mount or a cover inside a tree).
 */
import { projectNames } from '../../../compiler/paths/index.js';
import type { LinuxPlan } from '../model/plan.js';
import type { PrincipalAccess } from '../../../model/model.js';
import type { LaunchTrust } from './launch-file.js';

const names: ReadonlySet<string> = new Set(projectNames);
const sorted = (xs: Iterable<string>): string[] => [...new Set(xs)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const inProjectName = (path: string): boolean => path.split('/').some((c) => names.has(c));
const basename = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
const parent = (path: string): string => path.slice(0, Math.max(1, path.lastIndexOf('/')));

/** The launch file's trust records for one principal, from its model and its Linux plan. Deterministic: each list sorted. */
export function launchTrust(pa: PrincipalAccess, plan: LinuxPlan): LaunchTrust {
  const walk = sorted(
    plan.mounts.flatMap((m) =>
      m.kind === 'bind' &&
      m.write &&
      m.shape === 'tree' &&
      m.source.kind === 'grant' &&
      !m.source.grant.implicit?.temp &&
      !inProjectName(m.path)
        ? [m.path]
        : [],
    ),
  );
  if (!walk.length) return { walk: [], names: [], keep: [], absent: [] };
  // Whether a tree is at `path` or above it (strictly: above only), asked of the path's ancestors: a path has a
  // handful, and a config may have 20,000 trees (each host-trusted name against every tree made compile quadratic).
  const roots: ReadonlySet<string> = new Set(walk);
  const treeAbove = (path: string, orAt: boolean): boolean => {
    if (orAt && roots.has(path)) return true;
    for (let p = path; p !== '/'; ) {
      p = parent(p);
      if (roots.has(p)) return true;
    }
    return false;
  };
  const insideTree = (p: string): boolean => treeAbove(p, false);
  const keep: string[] = [];
  const absent: string[] = [];
  for (const ta of pa.hostTrusted) {
    const path = ta.trusted.path;
    const state = ta.state.linux;
    const existence = ta.trusted.facts.existence;
    // Read-only by its bind, or writable because the config says so (lifted), or a link the model already calls writable.
    if (state === 'read-only' || state === 'lifted' || (state === 'creatable' && existence === 'exists')) keep.push(path);
    // Not there yet: the walk finds a project name in a tree; anything else is checked by its path.
    else if (state === 'creatable' && existence === 'absent' && !(names.has(basename(path)) && treeAbove(parent(path), true)))
      absent.push(path);
  }
  // What the sandbox cannot write inside a tree: the host's content there is no workload's doing.
  for (const m of plan.mounts)
    if ((m.kind === 'bind' && !m.write) || m.kind === 'empty-dir' || m.kind === 'empty-file' || m.kind === 'tmpfs' || m.kind === 'symlink')
      keep.push(m.path);
  return { walk, names: sorted(names), keep: sorted(keep.filter(insideTree)), absent: sorted(absent) };
}
