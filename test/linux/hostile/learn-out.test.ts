// Issue 34, attack 3: `learn --out` followed a symbolic link. A workload
// that may write ~/project plants ~/project/.boxwright.toml ->
// ~/agents/agent.toml (its own config); the user's next `learn --out
// ~/project/.boxwright.toml` merged the learned grants into the agent's
// config. learn now opens --out with O_NOFOLLOW, refuses anything but a
// regular file (exit 2), and writes atomically beside it (a fresh file,
// renamed over). The control plants the link from inside a sandbox that
// may write ~/project and writes through it as learn did (writeFileSync):
// the agent's config changes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { skipLearn } from '../../learn/support.js';
import { bin, testCache } from '../support.js';
import { spawnOutcome } from './support.js';

const AGENT = '[agent.filesystem]\nread = ["/usr"]\n';

describe('learn --out is never followed through a link (issue 34, attack 3)', { skip: skipLearn }, () => {
  let home = '';
  let agent = '';
  let planted = '';
  before(() => {
    home = mkdtempSync(join(tmpdir(), 'boxwright-learn-out-'));
    chmodSync(home, 0o755);
    mkdirSync(join(home, 'project'));
    mkdirSync(join(home, 'agents'));
    agent = join(home, 'agents', 'agent.toml');
    planted = join(home, 'project', '.boxwright.toml');
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  /** The workload: may write ~/project only, and plants the link there. */
  const plant = (): void => {
    rmSync(planted, { force: true, recursive: true });
    writeFileSync(agent, AGENT);
    const p = join(home, 'project');
    const r = spawnSync('bwrap', ['--unshare-all', '--ro-bind', '/', '/', '--bind', p, p, '--', '/bin/ln', '-s', agent, planted]);
    assert.equal(r.status, 0, String(r.stderr));
  };
  const learn = (out: string) =>
    spawnOutcome(process.execPath, [bin, 'learn', '--home', home, '--out', out, '--', '/bin/true'], {
      cwd: join(home, 'project'),
      env: { XDG_CACHE_HOME: testCache },
    });

  it('control: written the way learn wrote --out (writeFileSync), the planted link carries the grants into the agent config', () => {
    plant();
    writeFileSync(planted, `${AGENT}write = ["~/Documents"]\n`);
    assert.match(readFileSync(agent, 'utf8'), /~\/Documents/);
  });

  it('learn refuses the planted link (exit 2) and the agent config is unchanged, byte for byte and inode for inode', async () => {
    plant();
    const before = statSync(agent);
    const r = await learn(planted);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /\.boxwright\.toml is a symbolic link: learn writes only a regular file, never through a link/);
    assert.equal(readFileSync(agent, 'utf8'), AGENT);
    const now = statSync(agent);
    assert.equal(now.ino, before.ino);
    assert.equal(now.mtimeMs, before.mtimeMs);
    assert.equal(readlinkSync(planted), agent);
  });

  it('a FIFO, a directory: refused (exit 2), without a hang', async () => {
    rmSync(planted, { force: true, recursive: true });
    assert.equal(spawnSync('mkfifo', [planted]).status, 0);
    const fifo = await learn(planted);
    assert.equal(fifo.status, 2, fifo.stderr);
    assert.match(fifo.stderr, /is a FIFO: learn writes only a regular file/);
    rmSync(planted);
    mkdirSync(planted);
    const dir = await learn(planted);
    assert.equal(dir.status, 2, dir.stderr);
    assert.match(dir.stderr, /is a directory/);
    rmSync(planted, { recursive: true });
  });

  it('a regular file is replaced whole (a new inode, renamed over it), its mode kept, no file left beside it', async () => {
    rmSync(planted, { force: true, recursive: true });
    writeFileSync(planted, '');
    chmodSync(planted, 0o600);
    const before = lstatSync(planted);
    const r = await learn(planted);
    assert.equal(r.status, 0, r.stderr);
    const now = lstatSync(planted);
    assert.ok(now.isFile());
    assert.notEqual(now.ino, before.ino);
    assert.equal(now.mode & 0o777, 0o600);
    assert.match(readFileSync(planted, 'utf8'), /Learned by `boxwright learn`/);
    assert.deepEqual(
      spawnSync('ls', ['-A', join(home, 'project')], { encoding: 'utf8' })
        .stdout.trim()
        .split('\n'),
      ['.boxwright.toml'],
    );
  });
});
