// Hole 8: a denied path inside a write grant moved out from under its
// cover. `mv sub sub2 && mkdir sub && : > sub/secret.txt` in one run, and
// the next run reads sub2/secret.txt. The ancestors of a covered deny whose
// parent is writable are mount points of their own now: a mount point
// cannot be renamed or removed (EBUSY). Proven across two runs.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { bare, compiled, isRoot, makeLab, sandboxed, skip, withoutOptions, type Lab } from './support.js';

describe('hostile workload: renaming the ancestors of a deny', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let config = '';
  let proj = '';
  beforeEach(() => {
    lab?.cleanup();
    lab = makeLab('rename');
    proj = join(lab.home, 'proj');
    mkdirSync(join(proj, 'sub'), { recursive: true });
    mkdirSync(join(proj, 'a', 'b'), { recursive: true });
    writeFileSync(join(proj, 'sub', 'secret.txt'), 'TOP SECRET');
    writeFileSync(join(proj, 'a', 'b', 'key'), 'DEEP SECRET');
    config = lab.config(
      'c.toml',
      `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "~/proj"]')}write = ["~/proj"]\ndeny = ["~/proj/sub/secret.txt", "~/proj/a/b/key"]\nworkspace = "~/proj"\n`,
    );
    if (isRoot) lab.giveToNobody();
    // Writable for root without capabilities and for nobody alike.
    for (const d of ['', 'sub', 'a', 'a/b']) chmodSync(join(proj, d), 0o777);
  });
  after(() => lab.cleanup());

  const MOVE =
    'mv sub sub2; echo "mv=$?"; mkdir -p sub && touch sub/secret.txt; mv a z; echo "mva=$?"; mv a/b a/c; echo "mvb=$?"; rm -rf sub; echo "rm=$?"';
  const READ = 'cat sub2/secret.txt z/b/key a/c/key sub/secret.txt 2>/dev/null; echo "[end]"';

  for (const nobody of isRoot ? [false, true] : [false]) {
    const who = nobody ? 'as an unprivileged user' : isRoot ? 'as root' : 'as this user';
    it(`${who}: the ancestors cannot be renamed or removed, so the next run reads nothing`, async () => {
      const first = await sandboxed(lab, config, ['sh', '-c', MOVE], [], { nobody });
      assert.match(first.stdout, /mv=1\n/, first.stdout + first.stderr);
      assert.match(first.stdout, /mva=1\nmvb=1\n/);
      assert.match(first.stderr, /Device or resource busy/);
      assert.equal(readFileSync(join(proj, 'sub', 'secret.txt'), 'utf8'), 'TOP SECRET', 'the host tree is unchanged');
      assert.ok(!existsSync(join(proj, 'sub2')) && !existsSync(join(proj, 'z')));
      const second = await sandboxed(lab, config, ['sh', '-c', READ], [], { nobody });
      assert.equal(second.stdout, '[end]\n', 'neither secret is readable under another name');
    });
  }

  it('the workload still writes everywhere else in the tree, next to the pinned directories too', async () => {
    const r = await sandboxed(lab, config, ['sh', '-c', 'echo hi > sub/note && mkdir a/new && mv a/new a/newer && ls a']);
    assert.equal(r.stdout, 'b\nnewer\n', r.stderr);
  });

  it('control: without the pinned ancestors the rename works, and the next run reads the secrets', async () => {
    const c = await compiled(lab, config);
    const pinned = (o: string, ops: readonly string[]): boolean =>
      o === '--bind' && (ops[0] === join(proj, 'sub') || ops[0] === join(proj, 'a') || ops[0] === join(proj, 'a', 'b'));
    const argv = withoutOptions(c.argv, pinned);
    assert.equal(c.argv.length - argv.length, 9, 'the artifact pins sub, a and a/b');
    const first = await bare({ ...c, argv }, ['sh', '-c', MOVE]);
    assert.match(first.stdout, /mv=0\n/, first.stdout + first.stderr);
    const second = await bare({ ...c, argv }, ['sh', '-c', READ]);
    assert.match(second.stdout, /TOP SECRET/);
    assert.match(second.stdout, /DEEP SECRET/);
    rmSync(proj, { recursive: true, force: true });
  });
});
