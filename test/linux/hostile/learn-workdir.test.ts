// Issue 34, attack 2: learn's working files lived in the shared temp
// directory ($TMPDIR/boxwright-learn-*). A workload that may write $TMPDIR
// (another sandbox's) dropped files named like trace files into keep/
// (grants injected into the learned config), a FIFO there (learn hung
// reading it), or kept writing there (clean-up crashed with ENOTEMPTY).
// learn now works in a private directory below the cache root (else
// $XDG_RUNTIME_DIR), which no sandbox is granted (a protected path), reads
// only the files its helper names, by descriptor, regular files only, and
// never throws in its clean-up. The control plants the same files in a
// working directory made the old way and shows learn's reader taking them
// for the trace.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readTraces } from '../../../app/learn/session.js';
import { removeWorkDir } from '../../../app/learn/workdir.js';
import { skipLearn } from '../../learn/support.js';
import { bin } from '../support.js';
import { spawnOutcome } from './support.js';

/** A line of strace that, read as the trace, is a write into ~/Documents. */
const injected = (home: string): string =>
  `openat(AT_FDCWD, "${home}/Documents/plans.txt", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 3<${home}/Documents/plans.txt>\n`;

/**
 * The workload of another sandbox: it may write $TMPDIR and nothing of the
 * cache (not granted: a tmpfs over it), and plants a trace file and a FIFO
 * in every keep/ it finds below $TMPDIR or the cache root, until stopped.
 */
function planter(shared: string, cache: string, home: string, once: boolean) {
  const script = `
n=0
while :; do
  for d in "${shared}"/*/keep "${cache}"/boxwright/learn/*/keep; do
    [ -d "$d" ] || continue
    printf '%s' '${injected(home)}' > "$d/trace.99999" 2>/dev/null && n=$((n+1))
    mkfifo "$d/trace.99998" 2>/dev/null
  done
  ${once ? 'break' : '[ -e "$STOP" ] && break'}
done
echo "planted $n"`;
  return spawn(
    'bwrap',
    [
      '--unshare-all',
      '--die-with-parent',
      '--ro-bind',
      '/',
      '/',
      '--tmpfs',
      cache,
      '--bind',
      shared,
      shared,
      '--dev',
      '/dev',
      '--',
      '/bin/sh',
      '-c',
      script,
    ],
    { env: { ...process.env, STOP: join(shared, 'stop') }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
}

function outputOf(child: ReturnType<typeof spawn>): Promise<string> {
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('close', () => resolve(out)));
}

describe("learn's working files are private (issue 34, attack 2)", { skip: skipLearn }, () => {
  let lab = '';
  let shared = '';
  let cache = '';
  let home = '';
  before(() => {
    lab = mkdtempSync(join(tmpdir(), 'boxwright-learn-workdir-'));
    chmodSync(lab, 0o755);
    shared = join(lab, 'shared-tmp');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    cache = join(lab, 'cache');
    mkdirSync(cache, { mode: 0o700 });
    home = join(lab, 'home');
    mkdirSync(join(home, 'project'), { recursive: true });
    writeFileSync(join(home, 'project', 'notes.txt'), 'notes\n');
  });
  after(() => rmSync(lab, { recursive: true, force: true }));

  it('control: a working directory made in $TMPDIR the old way is reached, and the planted file is read as the trace', async () => {
    const old = mkdtempSync(join(shared, 'boxwright-learn-'));
    mkdirSync(join(old, 'keep'), { mode: 0o700 });
    const out = await outputOf(planter(shared, cache, home, true));
    assert.match(out, /^planted 1$/m);
    const notes: string[] = [];
    const read = readTraces(join(old, 'keep'), 1000, notes);
    const call = read.processes.get(99999)?.calls[0];
    assert.equal(call?.name, 'openat');
    assert.equal(call?.result.kind === 'ok' ? call.result.path : undefined, `${home}/Documents/plans.txt`);
    rmSync(old, { recursive: true, force: true });
  });

  it('learn: a concurrent planter finds no working directory; the config is what cat read; nothing in $TMPDIR', async () => {
    const child = planter(shared, cache, home, false);
    const planted = outputOf(child);
    try {
      const r = await spawnOutcome(process.execPath, [bin, 'learn', '--home', home, '--', '/bin/cat', 'notes.txt'], {
        cwd: join(home, 'project'),
        env: { XDG_CACHE_HOME: cache, TMPDIR: shared, XDG_RUNTIME_DIR: undefined },
      });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /notes\.txt/);
      assert.doesNotMatch(r.stdout, /Documents/);
      assert.deepEqual(readdirSync(shared), []);
      // Its working directory was below the cache root, and is gone.
      assert.deepEqual(readdirSync(join(cache, 'boxwright', 'learn')), []);
    } finally {
      writeFileSync(join(shared, 'stop'), '');
    }
    assert.match(await planted, /^planted 0$/m);
    rmSync(join(shared, 'stop'));
  });

  it('no private directory to be had (the cache root writable by others, no XDG_RUNTIME_DIR): learn refuses (125) with the remedy, nothing runs', async () => {
    const open = join(lab, 'open-cache');
    mkdirSync(join(open, 'boxwright'), { recursive: true });
    chmodSync(join(open, 'boxwright'), 0o777);
    const marker = join(lab, 'ran');
    const r = await spawnOutcome(process.execPath, [bin, 'learn', '--', '/bin/sh', '-c', `echo > ${marker}`], {
      cwd: lab,
      env: { XDG_CACHE_HOME: open, TMPDIR: shared, XDG_RUNTIME_DIR: undefined },
    });
    assert.equal(r.status, 125, r.stderr);
    assert.match(r.stderr, /no private directory for learn's working files .*can be written by others.*chmod 700/);
    assert.equal(existsSync(marker), false);
    assert.deepEqual(readdirSync(shared), []);
  });

  it('the reader takes only regular files: a FIFO, a link and a directory named like trace files are passed over with a note, without a hang', () => {
    const keep = mkdtempSync(join(lab, 'keep-'));
    writeFileSync(join(keep, 'trace.1'), 'openat(AT_FDCWD, "/etc/hostname", O_RDONLY) = 3</etc/hostname>\n');
    spawnSyncOk('mkfifo', [join(keep, 'trace.2')]);
    symlinkSync(join(keep, 'trace.1'), join(keep, 'trace.3'));
    mkdirSync(join(keep, 'trace.4'));
    const notes: string[] = [];
    const read = readTraces(keep, 1000, notes);
    assert.deepEqual([...read.processes.keys()], [1]);
    assert.equal(notes.length, 3, notes.join('\n'));
    assert.match(notes.join('\n'), /trace\.2 was not read: it is not a regular file/);
    assert.match(notes.join('\n'), /trace\.3 was not read: a symbolic link/);
  });

  it('the clean-up never throws, with a writer adding files as it removes them', async () => {
    const dir = mkdtempSync(join(lab, 'busy-'));
    mkdirSync(join(dir, 'keep'));
    const writer = spawn('/bin/sh', [
      '-c',
      `i=0; while [ $i -lt 20000 ]; do : > "${dir}/keep/f$i" 2>/dev/null || exit 0; i=$((i+1)); done`,
    ]);
    await new Promise((r) => setTimeout(r, 50));
    const left = removeWorkDir(dir);
    writer.kill('SIGKILL');
    assert.ok(left === undefined || left === dir, String(left));
    rmSync(dir, { recursive: true, force: true });
  });
});

function spawnSyncOk(cmd: string, args: string[]): void {
  assert.equal(spawnSync(cmd, args).status, 0, `${cmd} ${args.join(' ')}`);
}
