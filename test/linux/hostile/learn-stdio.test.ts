// Issue 34, attack 1: stdin is a way out of `boxwright learn`. learn runs
// the command without Landlock (Landlock would refuse the executions learn
// exists to find), so a regular file handed over as stdin or stdout could
// be reopened through /proc/self/fd/N with rights of the command's own
// choosing: `learn -- CMD < ~/task.txt` appended to task.txt, and a
// harness log on stdout could be truncated. The throw-away root's helper
// now hands regular files over as `run` does (targets/linux/launcher/
// stdio.c): through pipes it feeds and drains. The control runs the same
// commands under bubblewrap with learn's namespaces and the files handed
// over as they are, as learn did: the files change.
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { skipLearn } from '../../learn/support.js';
import { bin, testCache } from '../support.js';
import { spawnOutcome } from './support.js';

const APPEND = 'echo injected >> /proc/self/fd/0; echo "append $?" >&2; cat';
const TRUNCATE = ': > /proc/self/fd/1; echo "truncate $?" >&2';

/** `sh -c SCRIPT` with stdin and stdout the named files (opened as a shell's `<` and `>>` open them). */
function withFiles(
  run: (stdio: (number | 'pipe')[]) => Promise<{ status: number | null; stdout: string; stderr: string }>,
  stdin: string,
  stdout: string | undefined,
) {
  const fd0 = openSync(stdin, 'r');
  const fd1 = stdout ? openSync(stdout, 'a') : undefined;
  return run([fd0, fd1 ?? 'pipe', 'pipe']).finally(() => {
    closeSync(fd0);
    if (fd1 !== undefined) closeSync(fd1);
  });
}

describe('learn hands regular-file stdio to the command through pipes (issue 34, attack 1)', { skip: skipLearn }, () => {
  let lab = '';
  let task = '';
  let log = '';
  before(() => {
    lab = mkdtempSync(join(tmpdir(), 'boxwright-learn-stdio-'));
    task = join(lab, 'task.txt');
    log = join(lab, 'harness.log');
  });
  after(() => rmSync(lab, { recursive: true, force: true }));
  const plant = (): void => {
    writeFileSync(task, 'the task\n');
    writeFileSync(log, 'earlier lines of the harness\n');
  };
  const bwrapLikeLearn = (script: string) => (stdio: (number | 'pipe')[]) =>
    spawnOutcome(
      'bwrap',
      [
        '--unshare-all',
        '--cap-drop',
        'ALL',
        '--die-with-parent',
        '--new-session',
        '--bind',
        '/',
        '/',
        '--proc',
        '/proc',
        '--dev',
        '/dev',
      ].concat(['--', '/bin/sh', '-c', script]),
      { cwd: lab, stdio },
    );
  const learn = (script: string) => (stdio: (number | 'pipe')[]) =>
    spawnOutcome(process.execPath, [bin, 'learn', '--', '/bin/sh', '-c', script], { cwd: lab, stdio, env: { XDG_CACHE_HOME: testCache } });

  it('control: with the files handed over as they are, the command appends to stdin and truncates stdout', async () => {
    plant();
    const a = await withFiles(bwrapLikeLearn(APPEND), task, undefined);
    assert.match(a.stderr, /^append 0$/m);
    assert.equal(readFileSync(task, 'utf8'), 'the task\ninjected\n');
    const t = await withFiles(bwrapLikeLearn(TRUNCATE), task, log);
    assert.match(t.stderr, /^truncate 0$/m);
    assert.equal(readFileSync(log, 'utf8'), '');
  });

  it('learn: stdin still reaches the command, and task.txt is as it was', async () => {
    plant();
    const r = await withFiles(learn(APPEND), task, undefined);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(readFileSync(task, 'utf8'), 'the task\n');
    // What the command read is the task: the pipe's content, of which the injected line is only the pipe's own echo.
    assert.match(r.stdout, /^the task$/m);
  });

  it('learn: a harness log on stdout is appended to, never truncated', async () => {
    plant();
    const r = await withFiles(learn(TRUNCATE), task, log);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(readFileSync(task, 'utf8'), 'the task\n');
    const after = readFileSync(log, 'utf8');
    assert.ok(after.startsWith('earlier lines of the harness\n'), after.slice(0, 200));
    // learn's own output (the config, with no --out) still reached the log, through the same pipe's end: after the earlier lines.
    assert.match(after, /Learned by `boxwright learn`/);
  });
});
