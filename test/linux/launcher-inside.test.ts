// boxwright-sandbox's in-sandbox step without Landlock (--no-landlock) and
// its closing of descriptors, under real bubblewrap as the launcher runs it:
// fd 3 is a file left open (the rules file of landlock-support's sandboxed(),
// unread with --no-landlock), fd 4 the ready fd.
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { requireOrSkip } from '../helpers.js';
import { arch, bwrapAvailable, helper, sandboxed, scratch } from './landlock-support.js';

const skip =
  requireOrSkip(bwrapAvailable, 'bubblewrap (Debian package bubblewrap)') ??
  requireOrSkip(
    helper !== undefined,
    `boxwright-sandbox dist/sandbox/boxwright-sandbox.${arch ?? '?'} (a C compiler: Debian gcc, libc6-dev)`,
  );

describe('boxwright-sandbox --no-landlock: the in-sandbox step without Landlock', { skip }, () => {
  const dir = skip ? '' : scratch();
  after(() => dir && rmSync(dir, { recursive: true, force: true }));
  const none = new Uint8Array();
  const run = (helperArgs: string[], cmd: string[]) => sandboxed(dir, undefined, cmd, { rawRules: none, helperArgs });

  it('runs the command and says `started` on the ready fd', async () => {
    const marker = join(dir, 'started');
    const r = await run(['--no-landlock', '--ready-fd', '4'], ['/usr/bin/touch', marker]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.ready, 'started\n');
    assert.ok(existsSync(marker));
  });

  it('closes every descriptor above stderr before the exec, the ready fd included', async () => {
    for (const fd of [3, 4]) {
      const r = await run(['--no-landlock', '--ready-fd', '4'], ['/usr/bin/readlink', `/proc/self/fd/${fd}`]);
      assert.equal(r.status, 1, `fd ${fd} reached the command: ${r.stdout}`);
      assert.equal(r.stdout, '');
    }
  });

  it('control: --keep-fd 3 lets the open file through, under its number', async () => {
    const r = await run(['--no-landlock', '--ready-fd', '4', '--keep-fd', '3'], ['/usr/bin/readlink', '/proc/self/fd/3']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /\/\.rules-\d+\n$/);
  });

  it('with rules the same closing (fd 3, the rules, read and closed; nothing else left)', async () => {
    const r = await sandboxed(dir, undefined, ['/usr/bin/readlink', '/proc/self/fd/3'], {
      rawRules: new TextEncoder().encode('fs\0execute,read_file,read_dir\0/\0'),
    });
    // On a kernel without Landlock the step refuses (125); either way fd 3 never reaches a command.
    assert.ok(r.status === 1 || r.status === 125, r.stderr);
    assert.equal(r.stdout, '');
  });

  it('a missing command: `started`, then exec-failed ENOENT, exit 127', async () => {
    const r = await run(['--no-landlock', '--ready-fd', '4'], ['/usr/bin/no-such-command']);
    assert.equal(r.status, 127);
    assert.equal(r.ready, 'started\nexec-failed 2\n');
    assert.match(r.stderr, /^boxwright-sandbox: cannot execute '\/usr\/bin\/no-such-command': No such file or directory\n$/);
  });

  it('bad command lines: 125, `refused usage`, nothing run', async () => {
    const marker = join(dir, 'must-not-exist');
    for (const args of [
      ['--no-landlock', '--rules-fd', '3', '--ready-fd', '4'],
      ['--no-landlock', '--no-landlock', '--ready-fd', '4'],
      ['--ready-fd', '4'],
      ['--no-landlock', '--ready-fd', '4', '--keep-fd', '4'],
      ['--no-landlock', '--ready-fd', '4', '--keep-fd', '2'],
      ['--no-landlock', '--ready-fd', '4', '--keep-fd', '77'],
      ['--no-landlock', '--ready-fd', '4', '--keep-fd', 'x'],
      ['--check', '--no-landlock', '--ready-fd', '4'],
    ]) {
      const r = await run(args, ['/usr/bin/touch', marker]);
      assert.equal(r.status, 125, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.ready, 'refused usage\n', args.join(' '));
      assert.match(r.stderr, /^boxwright-sandbox: .*; nothing was run\n$/);
      assert.ok(!existsSync(marker), args.join(' '));
    }
  });
});
