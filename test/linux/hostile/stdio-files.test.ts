// Attack 7 of issue 21: the caller's stdio. Descriptors 0-2 reach the
// command, and when they are host files (a prompt file on stdin, a harness
// log on stdout) a workload that nothing mediates (a TYBA session, or
// --landlock off) reopens /proc/self/fd/0 for writing and /proc/self/fd/1
// for reading: it appends to a file the caller opened read-only and reads
// the log. Now the launcher hands a regular file on 0-2 to such a workload
// through a pipe it feeds or drains (a directory becomes /dev/null), so a
// reopen reaches the pipe and nothing else; under Landlock (a Box config)
// the rules refuse the reopen and the files pass as they are. The control
// is bare bubblewrap with the same descriptors.
import assert from 'node:assert/strict';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bare, compiled, makeLab, results, sandboxed, skip, type Lab, type RunOptions } from './support.js';

describe("hostile workload: the caller's stdio files (issue 21, attack 7)", { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let prompt = '';
  let log = '';
  let tyba = '';
  let box = '';
  let worktree = '';
  const PROMPT = 'the prompt: summarise the repository\n';
  const HOST_LOG = 'HOST LOG: earlier session, token=abc123\n';
  before(() => {
    lab = makeLab('stdio');
    worktree = join(lab.home, 'worktree');
    mkdirSync(worktree);
    prompt = join(lab.home, 'prompt.txt');
    log = join(lab.home, 'harness.log');
    tyba = lab.config('user.toml', `[sandbox]\nread_allow = ["/usr", ${JSON.stringify(lab.probe)}]\n`);
    box = lab.config('box.toml', `[agent.filesystem]\n${lab.base}`);
  });
  after(() => lab.cleanup());

  /** Runs the probe's stdio attack with stdin the prompt (read-only) and stdout the log (append); its report comes on stderr. */
  async function attack(
    runner: (o: RunOptions) => Promise<{ status: number | null; stderr: string }>,
    cmd: 'stdio' | 'copy' = 'stdio',
  ): Promise<Record<string, string>> {
    writeFileSync(prompt, PROMPT);
    writeFileSync(log, HOST_LOG);
    const stdin = openSync(prompt, 'r');
    const stdout = openSync(log, 'a');
    try {
      const r = await runner({ stdio: [stdin, stdout] });
      assert.equal(r.status, 0, r.stderr);
      return cmd === 'stdio' ? results(r.stderr) : {};
    } finally {
      closeSync(stdin);
      closeSync(stdout);
    }
  }

  for (const [what, config, extra] of [
    ['a TYBA session', (): string => tyba, (): string[] => ['--worktree', worktree]],
    ['a Box config with --landlock off', (): string => box, (): string[] => ['--landlock', 'off']],
  ] as const) {
    it(`${what}: the prompt file is never written, the log never read; the command reads one and writes the other through pipes`, async () => {
      const got = await attack((o) => sandboxed(lab, config(), [lab.probe, 'stdio'], extra(), o));
      assert.equal(got['fd0'], 'fifo');
      assert.equal(got['fd1'], 'fifo');
      assert.notEqual(got['read1'], `[${HOST_LOG.replace(/\n/g, '|')}]`, 'the log was read');
      assert.doesNotMatch(got['read1'] ?? '', /HOST LOG/);
      assert.equal(readFileSync(prompt, 'utf8'), PROMPT, 'the prompt file was written');
      // The streams still work: cat copies stdin to stdout, appended to the log after what it held.
      await attack((o) => sandboxed(lab, config(), ['sh', '-c', 'cat; echo to-stderr >&2'], extra(), o), 'copy');
      assert.equal(readFileSync(log, 'utf8'), HOST_LOG + PROMPT);
    });
  }

  it('stdout and stderr the same file (2>&1): one pipe, the order kept', async () => {
    writeFileSync(log, '');
    const out = openSync(log, 'a');
    try {
      const r = await sandboxed(lab, tyba, ['sh', '-c', 'echo one; echo two >&2; echo three; echo four >&2'], ['--worktree', worktree], {
        stdio: ['ignore', out, out],
      });
      assert.equal(r.status, 0);
    } finally {
      closeSync(out);
    }
    assert.equal(readFileSync(log, 'utf8'), 'one\ntwo\nthree\nfour\n');
  });

  it('a directory on stdin: the command gets /dev/null, not a way into the directory', async () => {
    writeFileSync(join(lab.home, 'secret.txt'), 'TOP SECRET\n');
    const dir = openSync(lab.home, 'r');
    try {
      const r = await sandboxed(lab, tyba, [lab.probe, 'fdread', '0', 'secret.txt'], ['--worktree', worktree], { stdio: [dir] });
      assert.doesNotMatch(r.stdout, /TOP SECRET/, r.stderr);
      assert.equal(results(r.stdout)['openat'], 'ENOTDIR');
    } finally {
      closeSync(dir);
    }
  });

  it('a Box config under Landlock: the files pass as they are, and Landlock refuses both reopens', async () => {
    const got = await attack((o) => sandboxed(lab, box, [lab.probe, 'stdio'], [], o));
    assert.equal(got['fd0'], 'reg');
    assert.equal(got['fd1'], 'reg');
    assert.equal(got['reopen0-write'], 'EACCES');
    assert.equal(got['reopen1-read'], 'EACCES');
    assert.equal(readFileSync(prompt, 'utf8'), PROMPT);
  });

  it('control: bare bubblewrap hands the files over, and the workload appends to the prompt and reads the log', async () => {
    const c = await compiled(lab, tyba, 'agent', ['--worktree', worktree]);
    const got = await attack((o) => bare(c, [lab.probe, 'stdio'], o));
    assert.equal(got['fd0'], 'reg');
    assert.equal(got['write0'], 'ok');
    assert.equal(readFileSync(prompt, 'utf8'), `${PROMPT}pwned\n`, 'the prompt file opened read-only was appended to');
    assert.equal(got['read1'], `[${HOST_LOG.replace(/\n/g, '|')}]`, 'the log was read');
  });
});
