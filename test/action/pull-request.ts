import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from '../helpers.js';
import { type ActionRun, runAction, type StepRecord, type Yaml } from './composite.js';

/**
 * A scratch repository laid out as actions/checkout leaves a pull request: a
 * shallow clone of the pull request's commit, without its base, from an
 * `origin` that serves the base commit by SHA (as GitHub does). The base
 * commit holds sandbox/agent.toml (`base`) and the agent machine's manifest
 * (sandbox/machine.json); the pull request writes `head`.
 */
const machine = readFileSync(join(repoRoot, 'examples/machine.json'));

export const base = '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]\n';
export const widened = '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project"]\n';
export const narrowed = '[agent.filesystem]\nread = ["~/project"]\n';

export interface Scratch {
  readonly dir: string;
  readonly workspace: string;
  readonly baseSha: string;
  run(inputs?: Record<string, string>, event?: 'pull_request' | 'push'): ActionRun;
}

/** The action at `actionPath` (this checkout by default) is run with `env` added to what the runner sets. */
export function pullRequest(
  t: { after: (f: () => void) => void },
  action: Yaml,
  head: Record<string, string>,
  actionPath = repoRoot,
  env: Record<string, string> = {},
): Scratch {
  // The build step runs `npm ci` where boxwright is not built yet: never in this checkout, whose node_modules it would replace.
  if (actionPath === repoRoot && spawnSync(process.execPath, [join(repoRoot, 'bin', 'boxwright.cjs'), '--version']).status !== 0)
    throw new Error('this checkout is not built (npm run build): the Action would install and build in it');
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-action-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const origin = join(dir, 'origin');
  const workspace = join(dir, 'workspace');
  const git = (cwd: string, ...a: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...a], {
      cwd,
      encoding: 'utf8',
    }).trim();
  mkdirSync(join(origin, 'sandbox'), { recursive: true });
  git(origin, 'init', '-q');
  // GitHub serves any reachable commit by SHA; a local origin does with this set.
  git(origin, 'config', 'uploadpack.allowAnySHA1InWant', 'true');
  writeFileSync(join(origin, 'sandbox', 'machine.json'), machine);
  writeFileSync(join(origin, 'sandbox', 'agent.toml'), base);
  git(origin, 'add', '-A');
  git(origin, 'commit', '-qm', 'base');
  const baseSha = git(origin, 'rev-parse', 'HEAD');
  git(origin, 'checkout', '-qb', 'pr');
  for (const [path, body] of Object.entries(head)) {
    mkdirSync(dirname(join(origin, path)), { recursive: true });
    writeFileSync(join(origin, path), body);
  }
  git(origin, 'add', '-A');
  git(origin, 'commit', '-qm', 'pull request');
  git(dir, 'clone', '-q', '--depth=1', '--branch', 'pr', `file://${origin}`, workspace);
  assert.throws(() => git(workspace, 'cat-file', '-e', `${baseSha}^{commit}`), 'the shallow checkout lacks the base');
  const runnerTemp = join(dir, 'runner-temp');
  mkdirSync(runnerTemp);
  return {
    dir,
    workspace,
    baseSha,
    run: (inputs = {}, event = 'pull_request') =>
      runAction({
        action,
        inputs,
        cwd: workspace,
        github: {
          action_path: actionPath,
          workspace,
          event_name: event,
          token: 'a-token',
          event: event === 'pull_request' ? { pull_request: { base: { sha: baseSha } } } : {},
        },
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? dir,
          CI: 'true',
          GITHUB_ACTIONS: 'true',
          GITHUB_ACTION_PATH: actionPath,
          GITHUB_WORKSPACE: workspace,
          GITHUB_EVENT_NAME: event,
          ...(event === 'pull_request' ? { GITHUB_BASE_REF: 'main', GITHUB_HEAD_REF: 'pr' } : {}),
          RUNNER_TEMP: runnerTemp,
          ...env,
        },
      }),
  };
}

export function step(run: ActionRun, name: string): StepRecord {
  const s = run.steps.find((x) => x.name === name);
  assert.ok(s, `no step ${name}`);
  return s;
}

/** Every step's outcome and output, for an assertion's message. */
export const why = (run: ActionRun) => run.steps.map((s) => `--- ${s.name} (${s.outcome})\n${s.stdout}${s.stderr}`).join('\n');
