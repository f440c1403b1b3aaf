// strace's output read back (app/learn/strace.ts, trace.ts): paths are data
// whatever bytes they hold, the workload starts at the in-sandbox step's
// exec, children are followed by the pids strace's files are named by.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { straceArgv } from '../../app/learn/session.js';
import { decodeEscaped, parseLine, parseTrace, type Call } from '../../app/learn/strace.js';
import { workloadAccesses } from '../../app/learn/trace.js';
import { requireOrSkip } from '../helpers.js';
import { onPath } from '../linux/support.js';

/** A string as `strace -xx` prints it: every byte `\xHH`. */
const x = (s: string): string => `"${[...Buffer.from(s, 'utf8')].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}"`;
const xfd = (s: string): string => `<${x(s).slice(1, -1)}>`;

describe('strace lines', () => {
  it('decodes hostile paths as data: quotes, commas, brackets, newlines, `>`, unicode', () => {
    for (const p of ['/a "b", c)', '/x\ny = 1', '/tab\there', '/a>b<c', '/ünï/码/🙂', '/back\\slash', "/it's [1] {2}"]) {
      const call = parseLine(`openat(AT_FDCWD${xfd('/cwd, x>')}, ${x(p)}, O_RDONLY|O_CLOEXEC) = 3${xfd(p)}`);
      assert.ok(call, p);
      assert.deepEqual(call.args[0], { kind: 'fd', text: 'AT_FDCWD', path: '/cwd, x>' });
      assert.deepEqual(call.args[1], { kind: 'string', value: p, truncated: false });
      assert.deepEqual(call.result, { kind: 'ok', value: 3, path: p });
    }
  });

  it("reads errors, truncated strings, structures, comments and the pid in strace's namespace", () => {
    assert.deepEqual(
      parseLine(`newfstatat(AT_FDCWD${xfd('/w')}, ${x('/nope')}, 0x7ffd, 0) = -1 ENOENT (No such file or directory)`)?.result,
      { kind: 'error', errno: 'ENOENT' },
    );
    assert.deepEqual(parseLine(`execve(${x('/usr/bin/a')}..., [${x('a')}], 0x7ffe /* 39 vars */) = 0`)?.args[0], {
      kind: 'string',
      value: '/usr/bin/a',
      truncated: true,
    });
    const clone = parseLine(
      "clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 3 /* 7367 in strace's PID NS */",
    );
    assert.deepEqual(clone?.result, { kind: 'ok', value: 3, hostPid: 7367 });
    const stat = parseLine(`newfstatat(3${xfd('/d')}, "", {st_mode=S_IFREG|0644, st_size=37263, ...}, AT_EMPTY_PATH) = 0`);
    assert.equal(stat?.args.length, 4);
    assert.equal(parseLine('--- SIGCHLD {si_signo=SIGCHLD} ---'), undefined);
    assert.equal(parseLine('+++ exited with 0 +++'), undefined);
  });

  it('refuses a path that is not UTF-8 (no TOML string could name it) and counts the line unread', () => {
    assert.equal(decodeEscaped('\\xff\\xfe'), undefined);
    const { calls, unread } = parseTrace(
      `openat(AT_FDCWD${xfd('/w')}, "\\x2f\\xff", O_RDONLY) = 3\nopenat(AT_FDCWD${xfd('/w')}, ${x('/ok')}, O_RDONLY) = 4${xfd('/ok')}\n`,
    );
    assert.equal(calls.length, 1);
    assert.equal(unread, 1);
  });
});

describe("strace's (deleted) mark", () => {
  it('reads `<PATH>(deleted)` as a descriptor whose file was unlinked: no path, not an unread line', () => {
    const { calls, unread } = parseTrace(
      [
        `fchmod(3${xfd('/w/gone.txt')}(deleted), 0600) = 0`,
        `newfstatat(3${xfd('/w/gone.txt')}(deleted), "", {st_mode=S_IFREG|0600, st_size=0, ...}, AT_EMPTY_PATH) = 0`,
        `openat(AT_FDCWD${xfd('/w')}, ${x('/w')}, O_RDWR|O_EXCL|O_TMPFILE, 0600) = 4${xfd('/w/#1234')}(deleted)`,
        `openat(AT_FDCWD${xfd('/w')}, ${x('a (deleted)')}, O_RDONLY) = 5${xfd('/w/a (deleted)')}`,
      ].join('\n'),
    );
    assert.equal(unread, 0);
    assert.deepEqual(calls[0]!.args[0], { kind: 'fd', text: '3', deleted: true });
    assert.equal(calls[1]!.args.length, 4);
    assert.deepEqual(calls[2]!.result, { kind: 'ok', value: 4, deleted: true });
    // A name that itself ends in " (deleted)" is escaped inside the brackets: a path like any other.
    assert.deepEqual(calls[3]!.result, { kind: 'ok', value: 5, path: '/w/a (deleted)' });
  });

  it('leaves a relative name under a removed working directory unknown, never the old path', () => {
    const trace = workloadAccesses(
      new Map([
        [
          1,
          parseTrace(
            [
              `execve(${x('/.boxwright/exec')}, [], 0x1) = 0`,
              `execve(${x('/t')}, [], 0x1) = 0`,
              `openat(AT_FDCWD${xfd('/w/sub')}(deleted), ${x('rel')}, O_RDONLY) = -1 ENOENT (No such file or directory)`,
              `mkdir(${x('again')}, 0777) = -1 ENOENT (No such file or directory)`,
            ].join('\n'),
          ),
        ],
      ]),
      '/w/sub',
    );
    assert.deepEqual(
      trace.accesses.map((a) => a.path),
      ['/t'],
    );
  });

  const skip = requireOrSkip(!!onPath('strace'), 'strace (apt-get install strace)') ?? requireOrSkip(!!onPath('python3'), 'python3');
  it("parses real strace output of descriptors unlinked while open, with learn's own strace flags", { skip }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'strace-deleted-'));
    try {
      const script = [
        'import os, tempfile',
        `os.chdir(${JSON.stringify(dir)})`,
        'f = open("gone.txt", "w"); os.unlink("gone.txt"); os.fchmod(f.fileno(), 0o600); os.fstat(f.fileno()); f.close()',
        'with tempfile.TemporaryFile(dir=".") as t: t.write(b"x"); os.fchmod(t.fileno(), 0o600)',
        'open("a (deleted)", "w").close(); open("a (deleted)").read()',
      ].join('\n');
      const argv = straceArgv(onPath('strace')!, join(dir, 'trace'));
      const r = spawnSync(argv[0]!, [...argv.slice(1), onPath('python3')!, '-c', script], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const files = readdirSync(dir).filter((f) => f.startsWith('trace.'));
      const text = files.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
      assert.match(text, />\(deleted\)/, 'strace marked a descriptor (deleted)');
      const { calls, unread } = parseTrace(text);
      assert.equal(unread, 0, 'every call line is read');
      const fchmods = calls.filter((c) => c.name === 'fchmod');
      assert.ok(fchmods.length >= 2 && fchmods.every((c) => c.args[0]?.kind === 'fd' && c.args[0].deleted && !c.args[0].path));
      const literal = calls.find((c) => c.name === 'openat' && c.result.kind === 'ok' && c.result.path?.endsWith('/a (deleted)'));
      assert.ok(literal, 'a file named "a (deleted)" is a path like any other');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the workload in a trace', () => {
  const files = (entries: Record<number, string[]>): Map<number, { calls: Call[]; unread: number }> =>
    new Map(Object.entries(entries).map(([pid, lines]) => [Number(pid), parseTrace(lines.join('\n'))]));

  it("starts at the command the in-sandbox step executes, follows its children by strace's pids, and resolves relative names", () => {
    const trace = workloadAccesses(
      files({
        10: [
          `execve(${x('/usr/bin/bwrap')}, [${x('bwrap')}], 0x1 /* 2 vars */) = 0`,
          `openat(AT_FDCWD${xfd('/')}, ${x('/etc/bwrap-only')}, O_RDONLY) = 3${xfd('/etc/bwrap-only')}`,
          'clone(child_stack=NULL, flags=SIGCHLD) = 11',
        ],
        11: [
          `execve(${x('/.boxwright/exec')}, [${x('/.boxwright/exec')}], 0x1 /* 2 vars */) = 0`,
          `openat(AT_FDCWD${xfd('/w')}, ${x('/step-only')}, O_RDONLY) = 3${xfd('/step-only')}`,
          `execve(${x('/usr/bin/tool')}, [${x('tool')}], 0x1 /* 2 vars */) = 0`,
          `openat(AT_FDCWD${xfd('/w')}, ${x('in/w.txt')}, O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3${xfd('/w/in/w.txt')}`,
          `mkdir(${x('new')}, 0777) = 0`,
          `chdir(${x('/w/in')}) = 0`,
          `unlink(${x('gone')}) = 0`,
          `renameat2(AT_FDCWD${xfd('/w/in')}, ${x('a')}, 4${xfd('/w/other')}, ${x('b')}, 0) = 0`,
          "clone3({flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD}, 88) = 2 /* 12 in strace's PID NS */",
        ],
        12: [
          `getdents64(3${xfd('/w/in')}, 0x55 /* 2 entries */, 32768) = 48`,
          `connect(3<socket:[1]>, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr(${x('1.2.3.4')})}, 16) = -1 ENETUNREACH (Network is unreachable)`,
        ],
      }),
      '/w',
    );
    assert.equal(trace.started, true);
    const seen = trace.accesses.map((a) => `${a.op} ${a.path || a.address}${a.ok ? '' : ` ${a.errno}`}`);
    assert.deepEqual(seen, [
      'exec /usr/bin/tool',
      'create /w/in/w.txt',
      'create /w/new',
      'stat /w/in',
      'remove /w/in/gone',
      'remove /w/in/a',
      'create /w/other/b',
      'list /w/in',
      'connect 1.2.3.4:443 ENETUNREACH',
    ]);
    assert.equal(trace.accesses.find((a) => a.path === '/w/in/w.txt')?.mayExist, true);
    const tmp = workloadAccesses(
      files({
        1: [
          `execve(${x('/.boxwright/exec')}, [], 0x1) = 0`,
          `execve(${x('/t')}, [], 0x1) = 0`,
          `openat(AT_FDCWD${xfd('/w')}, ${x('/w/out')}, O_RDWR|O_EXCL|O_TMPFILE, 0600) = 3${xfd('/w/out/#12')}(deleted)`,
        ],
      }),
      '/w',
    ).accesses.at(-1);
    assert.deepEqual([tmp?.op, tmp?.path, tmp?.unnamed], ['create', '/w/out', true], 'O_TMPFILE names the directory the file is made in');
    assert.equal(trace.accesses.find((a) => a.op === 'list')?.program, '/usr/bin/tool', "the child runs its parent's program");
  });

  it('holds no workload when the in-sandbox step never executed the command', () => {
    const trace = workloadAccesses(
      files({
        10: [`execve(${x('/.boxwright/exec')}, [], 0x1) = 0`, `execve(${x('/nope')}, [], 0x1) = -1 ENOENT (No such file or directory)`],
      }),
      '/',
    );
    assert.equal(trace.started, false);
    assert.deepEqual(trace.accesses, []);
  });

  it('gives no path for a relative name under a descriptor strace could not name', () => {
    const trace = workloadAccesses(
      files({
        1: [
          `execve(${x('/.boxwright/exec')}, [], 0x1) = 0`,
          `execve(${x('/t')}, [], 0x1) = 0`,
          `openat(3<pipe:[9]>, ${x('rel')}, O_RDONLY) = 4`,
        ],
      }),
      '/w',
    );
    assert.deepEqual(
      trace.accesses.map((a) => a.path),
      ['/t'],
    );
  });
});
