// `boxwright learn` runs a command that may be hostile on the whole host,
// readable: the throw-away root must keep every write of it off the host
// (writes, deletions, renames, links, modes, times, sizes, a write through
// /proc/self/root), and keep it from the host's unix sockets (through an
// overlay a socket cannot be connected to). The control runs the same
// attack under bubblewrap with the host bound writable, as learn's sandbox
// would be without the overlays: it changes the host and reaches the socket.
// Without root the throw-away root is made in a user namespace (its own
// code path): the attack runs there too, as uid 65534.
import assert from 'node:assert/strict';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hostArch } from '../../../targets/linux/index.js';
import { launcherPath } from '../../../targets/linux/launcher/index.js';
import { requireOrSkip } from '../../helpers.js';
import { changes, skipLearn, snapshot } from '../../learn/support.js';
import { boxwright } from '../support.js';
import { isRoot, NOBODY, spawnOutcome } from './support.js';

const skip = skipLearn ?? requireOrSkip(existsSync('/usr/bin/python3'), '/usr/bin/python3');

/** Every way a shell and coreutils have to change a tree, each reported; then a connect to the socket. */
const attack = (lab: string): string => `
cd ${lab}/tree
echo changed > existing.txt; echo "write $?"
rm -f doomed.txt; echo "rm $?"
echo new > made.txt; echo "create $?"
mkdir newdir; echo "mkdir $?"
mv dir moved; echo "rename $?"
chmod 777 mode.txt; echo "chmod $?"
truncate -s 0 big.txt; echo "truncate $?"
ln existing.txt hard; echo "link $?"
ln -s /etc/passwd soft; echo "symlink $?"
touch -d 2001-01-01 times.txt; echo "utime $?"
mkfifo fifo; echo "mkfifo $?"
echo via-proc > /proc/self/root${lab}/tree/proc.txt; echo "proc-root $?"
rm -rf sub; echo "rmtree $?"
/usr/bin/python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect("${lab}/host.sock"); s.send(b"attack"); print("connected")' 2>/dev/null || echo "connect refused"
`;

function plant(lab: string): void {
  const t = join(lab, 'tree');
  mkdirSync(join(t, 'dir'), { recursive: true });
  mkdirSync(join(t, 'sub', 'deeper'), { recursive: true });
  for (const f of ['existing.txt', 'doomed.txt', 'mode.txt', 'times.txt', 'sub/deeper/x', 'dir/inside'])
    writeFileSync(join(t, f), `${f}\n`);
  writeFileSync(join(t, 'big.txt'), 'x'.repeat(4096));
}

function listen(path: string): Promise<{ server: Server; got: string[] }> {
  const got: string[] = [];
  const server = createServer((c) => c.on('data', (d) => got.push(d.toString())));
  return new Promise((resolve) => server.listen(path, () => resolve({ server, got })));
}

describe('learn keeps a hostile command off the host', { skip }, () => {
  let lab = '';
  before(() => {
    lab = mkdtempSync(join(tmpdir(), 'boxwright-learn-hostile-'));
    chmodSync(lab, 0o755);
  });
  after(() => rmSync(lab, { recursive: true, force: true }));

  const sentinel = `/usr/local/share/boxwright-learn-sentinel-${process.pid}`;

  it('control: under bubblewrap with the host bound writable, the attack changes the tree and reaches the socket', async () => {
    plant(lab);
    const { server, got } = await listen(join(lab, 'host.sock'));
    try {
      const before = snapshot(join(lab, 'tree'));
      const r = await spawnOutcome(
        'bwrap',
        ['--unshare-all', '--bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--', '/bin/sh', '-c', attack(lab)],
        { cwd: lab },
      );
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^connected$/m);
      assert.ok(changes(before, snapshot(join(lab, 'tree'))).length >= 10, r.stdout);
      await new Promise((res) => setTimeout(res, 50));
      assert.deepEqual(got, ['attack']);
    } finally {
      server.close();
      rmSync(join(lab, 'tree'), { recursive: true, force: true });
    }
  });

  it('learn: every write lands in the throw-away layer (the host tree is the same, inode for inode), the socket is out of reach', async () => {
    plant(lab);
    const { server, got } = await listen(join(lab, 'host.sock'));
    try {
      const before = snapshot(join(lab, 'tree'));
      const r = await boxwright(['learn', '--', '/bin/sh', '-c', `${attack(lab)}\necho root > ${sentinel}; echo "system $?"`], {
        cwd: lab,
      });
      assert.equal(r.status, 0, r.stderr);
      // The attack ran: each step succeeded inside, against the throw-away layers.
      for (const step of [
        'write',
        'rm',
        'create',
        'mkdir',
        'rename',
        'chmod',
        'truncate',
        'link',
        'symlink',
        'utime',
        'mkfifo',
        'proc-root',
        'rmtree',
      ])
        assert.match(r.stderr + r.stdout, new RegExp(`^${step} 0$`, 'm'), step);
      assert.match(r.stdout, /^connect refused$/m);
      assert.deepEqual(changes(before, snapshot(join(lab, 'tree'))), []);
      assert.equal(existsSync(sentinel), false, 'a system directory stayed as it was');
      assert.deepEqual(got, []);
      // What it did is what learn learned: the writes, as grants of what it wrote.
      assert.match(r.stdout, new RegExp(`"${lab}/tree",\\s+# .*created or removed`));
      assert.match(r.stderr, /the unix socket .*host\.sock \(refused: ECONNREFUSED/);
    } finally {
      server.close();
      rmSync(join(lab, 'tree'), { recursive: true, force: true });
    }
  });

  it('without root (a user namespace; from root, as uid 65534): the same attack leaves the host tree as it was', async () => {
    const helper = launcherPath(hostArch()!);
    assert.ok(helper, 'boxwright-sandbox is built');
    const base = join(lab, 'base');
    mkdirSync(join(base, 'scratch'), { recursive: true, mode: 0o700 });
    mkdirSync(join(base, 'keep'), { mode: 0o700 });
    chmodSync(base, 0o700);
    const prog = join(lab, 'boxwright-sandbox');
    copyFileSync(helper, prog);
    chmodSync(prog, 0o755);
    plant(lab);
    const { server, got } = await listen(join(lab, 'host.sock'));
    // Root hands the tree to uid 65534 and runs the attack as it; anyone else already is unprivileged.
    const give = (p: string): void => {
      if (!isRoot) return;
      chownSync(p, NOBODY, NOBODY);
      if (statSync(p).isDirectory()) for (const e of readdirSync(p)) give(join(p, e));
    };
    try {
      give(base);
      give(join(lab, 'tree'));
      chmodSync(join(lab, 'host.sock'), 0o777);
      const before = snapshot(join(lab, 'tree'));
      const r = await spawnOutcome(prog, ['--throwaway-root', base, '--writable', join(lab, 'tree'), '--', '/bin/sh', '-c', attack(lab)], {
        cwd: join(lab, 'tree'),
        nobody: isRoot,
      });
      assert.equal(r.status, 0, r.stderr);
      for (const step of ['write', 'rm', 'create', 'mkdir', 'rename', 'chmod', 'truncate', 'link', 'symlink', 'utime', 'mkfifo', 'rmtree'])
        assert.match(r.stdout, new RegExp(`^${step} 0$`, 'm'), `${step}: ${r.stderr}`);
      assert.match(r.stdout, /^connect refused$/m);
      assert.deepEqual(changes(before, snapshot(join(lab, 'tree'))), []);
      assert.deepEqual(got, []);
      // And what it wrote is in the changes it reports.
      const reported = readFileSync(join(base, 'keep', 'changes'), 'utf8').split('\0');
      for (const p of ['made.txt', 'newdir', 'existing.txt', 'doomed.txt'])
        assert.ok(reported.includes(join(lab, 'tree', p)), `${p} in ${reported.join(' ')}`);
    } finally {
      server.close();
    }
  });
});
