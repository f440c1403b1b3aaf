/**
 * Finding the project file, `.boxwright.toml` (issue 40), and the hook a
 * linting command takes it through. Finding is a few lstat calls per
 * directory; the reader (app/project-file.ts: the TOML, its validator, the
 * ignores) is imported only when a project file was found, so that a lint
 * with none loads nothing more (the start-up budget,
 * test/cli/startup-budget.test.ts).
 *
 * Where it is looked for: from each linted config's directory upward, the
 * nearest one, stopping at the repository's root (a directory holding a
 * `.git` entry, a directory or a worktree's file) or at the filesystem's
 * root. On the disk the command runs on, relative to its directory, as lint
 * reads configs (not through the FsView, which describes the machine the
 * sandbox runs on: a `--fs` manifest may be another's). The defaults are the
 * project file's found from the command's directory. Standard input has no
 * path: no ignore names it, but the command directory's defaults apply.
 */
import { lstatSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PROJECT_FILE_NAME } from '../compiler/schema/project-name.js';
import type { ProjectFiles, ProjectFinder } from './project-file.js';

/** Whether any directory entry is at `path` (a file, a directory, a link, anything). */
function entryAt(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The project file that applies in `dir` (absolute): the nearest one upward, stopping at the repository's root or the filesystem's. */
export function findProjectFile(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    const candidate = join(d, PROJECT_FILE_NAME);
    if (entryAt(candidate)) return candidate;
    if (entryAt(join(d, '.git')) || dirname(d) === d) return undefined;
  }
}

/** findProjectFile, each directory asked once per command. */
export function projectFinder(): ProjectFinder {
  const byDir = new Map<string, string | undefined>();
  return (dir) => {
    if (!byDir.has(dir)) byDir.set(dir, findProjectFile(dir));
    return byDir.get(dir);
  };
}

/** Today, `YYYY-MM-DD` in UTC, from the command's clock: the day an `expires` is compared with. */
export const utcDay = (now: Date): string => now.toISOString().slice(0, 10);

const none: ProjectFiles = {
  defaults: () => ({}),
  deciding: () => [],
  apply: (_path, diagnostics) => [...diagnostics],
  reports: () => [],
};

/**
 * The project files of a lint: of the configs at `configs` (as given,
 * from `cwd`; `-` is standard input), of the command's directory, and
 * those named as inputs (`named`: reported whether or not a config uses
 * them). Nothing is imported when there is none.
 */
export async function projectFilesFor(cwd: string, now: Date, configs: readonly string[], named: readonly string[]): Promise<ProjectFiles> {
  const find = projectFinder();
  const found = named.length > 0 || find(cwd) !== undefined || configs.some((c) => c !== '-' && find(dirname(resolve(cwd, c))));
  if (!found) return none;
  const { projectFiles } = await import('./project-file.js');
  return projectFiles({ cwd, today: utcDay(now), find, named });
}
