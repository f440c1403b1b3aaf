import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import kleur from 'kleur';
import { checkConfig, type CheckOptions, type CheckResult } from '../app/check.js';
import { PLATFORMS } from '../compiler/diagnostic.js';
import { manifestView } from '../compiler/paths/index.js';
import type { FsView } from '../compiler/paths/view.js';
import type { DocExample } from '../rules/engine/engine.js';
import { repoRoot } from './helpers.js';

kleur.enabled = false;

export const machine: FsView = manifestView(readFileSync(join(repoRoot, 'examples/machine.json'), 'utf8'), 'examples/machine.json');

/** Lints TOML text the way the examples are linted: against examples/machine.json. */
export function lintText(
  text: string,
  file = 'config.toml',
  view: FsView = machine,
  options: Pick<CheckOptions, 'landlock' | 'trustedFiles'> = {},
): CheckResult {
  return checkConfig(Buffer.from(text, 'utf8'), { file, view, worktree: '/home/dev/project', ...options });
}

/** Lints a rule's doc example against examples/machine.json, with the machine fact it names (its `landlockAbi`). */
export function lintDocExample(example: DocExample): CheckResult {
  const abi = example.landlockAbi;
  const trustedFiles = example.readFrom ? [{ path: example.readFrom, role: 'config' as const, tree: false, platforms: PLATFORMS }] : [];
  return lintText(
    example.toml + '\n',
    example.readFrom ?? 'config.toml',
    abi === undefined ? machine : { ...machine, landlockAbi: () => abi },
    { trustedFiles },
  );
}

export function lintExample(name: string): CheckResult {
  const file = `examples/${name}`;
  return checkConfig(readFileSync(join(repoRoot, file)), { file, view: machine, worktree: '/home/dev/project' });
}

export function ruleIds(r: CheckResult): string[] {
  return [...new Set(r.diagnostics.map((d) => d.ruleId))].sort();
}
