/**
 * One model per command (issue 12 item 3): a command runs the front end
 * once per config, builds the effective-access model once per config, and
 * makes one filesystem view for the whole command — a two-file `diff`
 * used to run the front end 8 times and build the model 15 times, each
 * with a fresh view.
 *
 * How it counts: by wrapping, not by a hook in the code under test. A child
 * process registers count-hooks.ts, which loads the compiled modules that
 * define parseToml, buildIR, effectiveAccess and the three views with each
 * of those functions wrapped in a counter; the child then runs the CLI's
 * own `main` for each command line in turn (stdout and stderr captured) and
 * reports the counts. Every call counts, whoever makes it.
 */
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../helpers.js';
import { finished, WAIT_LIMIT_MS } from '../waits.js';

interface Counted {
  readonly argv: readonly string[];
  readonly status: number;
  readonly counts: Readonly<Record<string, number>>;
  readonly stderr: string;
}

const CHILD = 'BOXWRIGHT_ONE_MODEL_CASES';

if (process.env[CHILD]) {
  // The child: count while each command line runs through main, in process.
  register('./count-hooks.js', import.meta.url);
  const counts = new Map<string, number>();
  (globalThis as { __boxwrightCount?: (name: string) => void }).__boxwrightCount = (name) => counts.set(name, (counts.get(name) ?? 0) + 1);
  const { cli } = await import('../cli-in-process.js');
  const results: Counted[] = [];
  for (const argv of JSON.parse(process.env[CHILD]) as string[][]) {
    counts.clear();
    const { status, stderr } = await cli(argv, { cwd: process.cwd() });
    results.push({ argv, status, counts: Object.fromEntries([...counts].sort()), stderr });
  }
  process.stdout.write(JSON.stringify(results));
}

// In the child no test is declared (node:test would print its report on the child's stdout).
if (!process.env[CHILD])
  describe('one model per command: the front end and the model once per config, one filesystem view per command', () => {
    const dir = mkdtempSync(join(tmpdir(), 'boxwright-one-model-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const machine = join(repoRoot, 'examples/machine.json');
    const ex = (name: string): string => join(repoRoot, 'examples', name);
    const onMachine = ['--fs', machine, '--worktree', '/home/dev/project'];
    const runConfig = join(dir, 'run.toml');
    writeFileSync(runConfig, '[agent.filesystem]\nread = ["/usr"]\nexec = ["/usr/bin/true"]\n');
    // compile asks every other sandbox config of the config's repository (issue 35, attack 6): alone in its directory, it has none.
    const alone = join(dir, 'alone');
    mkdirSync(alone);
    copyFileSync(ex('coding-agent.toml'), join(alone, 'coding-agent.toml'));
    // Beside one other: that one is read for its dialect (by content, as the pre-commit mode finds configs), then checked.
    const repo = join(dir, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    copyFileSync(ex('coding-agent.toml'), join(repo, 'coding-agent.toml'));
    copyFileSync(ex('write-only.toml'), join(repo, 'write-only.toml'));

    const cases: Record<string, string[]> = {
      'lint, two files': ['lint', ...onMachine, ex('coding-agent.toml'), ex('write-only.toml')],
      explain: ['explain', ...onMachine, ex('coding-agent.toml')],
      compile: ['compile', ...onMachine, join(alone, 'coding-agent.toml'), '--target', 'linux', '--out', join(dir, 'out')],
      'compile, beside another config of its repository': [
        'compile',
        ...onMachine,
        join(repo, 'coding-agent.toml'),
        '--target',
        'linux',
        '--out',
        join(dir, 'out2'),
      ],
      'diff, two files, artifacts of all three platforms': ['diff', ...onMachine, ex('read-write-overlap.toml'), ex('write-only.toml')],
      'lint --fs host': ['lint', '--fs', 'host', '--home', dir, ex('coding-agent.toml'), ex('read-only-content.toml')],
      // Linux: up to the spawn of a bubblewrap that is not there (exit 125), the command looked up in the view on the way.
      ...(process.platform === 'linux'
        ? { 'run --fs host (the command lookup shares the view)': ['run', '--fs', 'host', '--home', dir, runConfig, '--', 'true'] }
        : {}),
    };
    const once = (configs: number, view: string): Record<string, number> => ({
      buildIR: configs,
      effectiveAccess: configs,
      parseToml: configs,
      [view]: 1,
    });
    const expected: Record<string, { status: number; counts: Record<string, number> }> = {
      'lint, two files': { status: 1, counts: once(2, 'manifestView') },
      explain: { status: 0, counts: once(1, 'manifestView') },
      compile: { status: 0, counts: once(1, 'manifestView') },
      'compile, beside another config of its repository': { status: 0, counts: { ...once(2, 'manifestView'), parseToml: 3 } },
      'diff, two files, artifacts of all three platforms': { status: 0, counts: once(2, 'manifestView') },
      'lint --fs host': { status: 1, counts: once(2, 'hostView') },
      'run --fs host (the command lookup shares the view)': { status: 125, counts: once(1, 'hostView') },
    };

    let child: SpawnSyncReturns<string>;
    let results: Counted[] = [];
    before(() => {
      child = finished(
        spawnSync(process.execPath, [fileURLToPath(import.meta.url)], {
          cwd: repoRoot,
          encoding: 'utf8',
          env: { ...process.env, [CHILD]: JSON.stringify(Object.values(cases)), BOXWRIGHT_BWRAP: join(dir, 'no', 'bwrap'), NO_COLOR: '1' },
          timeout: WAIT_LIMIT_MS,
        }),
        'the counting child running every command line',
      );
      if (child.status === 0) results = JSON.parse(child.stdout) as Counted[];
    });

    it('the counting child ran every command line', () => {
      assert.equal(child.status, 0, `${child.stderr}\n${child.stdout}`);
      assert.equal(results.length, Object.keys(cases).length);
    });
    Object.keys(cases).forEach((name, i) => {
      it(name, () => {
        const r = results[i];
        assert.ok(r, 'no result from the child');
        assert.equal(r.status, expected[name]!.status, r.stderr);
        assert.deepEqual(r.counts, expected[name]!.counts, `${r.argv.join(' ')}\n${r.stderr}`);
      });
    });
  });
