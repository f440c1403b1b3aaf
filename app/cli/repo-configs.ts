/**
 * The other sandbox configs of a repository, and which of their principals
 * could write a path this command trusts (issue 35, attack 6): a reviewer
 * config compiled into `~/project/.boxwright/reviewer` is only as safe as
 * the coder config that may write `~/project`, whose workload can replace
 * `reviewer/agent.run` for the next run. `compile` checks only its own
 * config's principals against its output; this asks every config the
 * repository holds, found as the pre-commit mode finds them (by content:
 * a sandbox config's keys), so that `compile --out` refuses such a
 * directory and `lint` of the repository names the config that could.
 *
 * A config boxwright cannot see (outside the repository, in a directory it
 * cannot list, another tool's policy) is not asked: the README says so.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Platform } from '../../compiler/diagnostic.js';
import type { TrustedFile } from '../../compiler/ir/types.js';
import type { CheckResult } from '../check.js';
import { canonical } from '../trusted-files.js';
import { readInput } from '../input/read-input.js';
import { workTreeRoot } from './work-tree.js';
import type { ConfigReader } from './options.js';
import { isSandboxConfig } from './select.js';
import { thousands } from '../../rules/util.js';

/** At most this many entries are listed in a repository; a larger one is refused, never searched in part. */
export const REPOSITORY_LIMIT = 200_000;

/**
 * Every `.toml` and `.json` sandbox config below the work tree that holds
 * `from`, not in `.git` or `node_modules`, nor through a link; outside a
 * work tree, those beside `from` in its own directory only (a config kept
 * in the home would otherwise have the whole home searched, and refused
 * past the limit: a repository is the unit the pre-commit mode knows). An
 * error when the listing cannot finish (too many entries), so that a
 * caller refuses rather than asks fewer configs.
 */
export function repositoryConfigs(
  from: string,
  except?: string,
): { readonly root: string; readonly configs: readonly string[] } | { readonly error: string } {
  const start = dirname(resolve(from));
  const tree = workTreeRoot(start);
  const root = tree ?? start;
  const configs: string[] = [];
  const queue = [root];
  let listed = 0;
  for (let next = 0; next < queue.length; next++) {
    const dir = queue[next]!;
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      continue;
    }
    listed += names.length;
    if (listed > REPOSITORY_LIMIT)
      return {
        error: `${root} holds more than ${thousands(REPOSITORY_LIMIT)} entries: its other sandbox configs cannot all be read`,
      };
    for (const name of names) {
      const path = join(dir, name);
      let st;
      try {
        st = lstatSync(path);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        if (tree !== undefined && name !== '.git' && name !== 'node_modules') queue.push(path);
      } else if (st.isFile() && (name.endsWith('.toml') || name.endsWith('.json')) && path !== except) {
        const input = readInput(path);
        if ('bytes' in input && isSandboxConfig(input.bytes, path)) configs.push(path);
      }
    }
  }
  return { root, configs };
}

/**
 * The other sandbox configs of the repository that holds `config`, each
 * checked for who of its principals could write `trusted` (this command's
 * own files): `trusted-file-writable`'s errors, one decision with the
 * rule's. Only the configs with such an error are returned.
 */
export function otherConfigsWriting(
  config: string,
  reader: ConfigReader,
  trusted: readonly TrustedFile[],
  platforms?: readonly Platform[],
): { readonly root: string; readonly writers: readonly CheckResult[] } | { readonly error: string } {
  const self = canonical(config);
  const found = repositoryConfigs(config, resolve(config));
  if ('error' in found) return found;
  const writers: CheckResult[] = [];
  for (const other of found.configs) {
    if (canonical(other) === self) continue;
    const input = readInput(other);
    if (!('bytes' in input)) continue;
    const result = reader.checkOther(input.bytes, other, trusted, platforms);
    const errors = result.diagnostics.filter((d) => d.ruleId === 'trusted-file-writable' && d.severity === 'error');
    if (errors.length) writers.push({ ...result, diagnostics: errors });
  }
  return { root: found.root, writers };
}
