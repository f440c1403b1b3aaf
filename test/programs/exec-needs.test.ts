// What executing a program needs (compiler/paths/exec-needs.ts): on this
// machine, the libraries agree with the dynamic loader's own answer
// (`ld.so --list`, which maps them without running the program; here only
// for the distribution's own programs); on manifests, each rule of the
// loader's search and of programs.json, one at a time.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { envOperand, execNeeds, type ExecNeeds } from '../../compiler/paths/exec-needs.js';
import { hostView } from '../../compiler/paths/host.js';
import { manifestView } from '../../compiler/paths/manifest.js';
import { requireOrSkip } from '../helpers.js';

const loader = ['/lib64/ld-linux-x86-64.so.2', '/lib/ld-linux-aarch64.so.1'].find((p) => existsSync(p));
const skip = requireOrSkip(!!loader && process.platform === 'linux', 'a glibc dynamic loader (ld.so --list)');

/** soname → the path the loader opened, as `ld.so --list` prints it. */
function byLoader(program: string): Map<string, string> {
  const out = new Map<string, string>();
  const r = spawnSync(loader!, ['--list', program], { encoding: 'utf8', env: {} });
  for (const line of r.stdout.split('\n')) {
    const m = /^\s+(\S+) => (\S+) \(0x[0-9a-f]+\)$/.exec(line);
    if (m) out.set(m[1]!, m[2]!);
  }
  return out;
}

describe("this machine's programs: the libraries the loader opens, as ld.so --list says", { skip }, () => {
  const programs = [
    '/usr/bin/git',
    '/usr/bin/make',
    '/usr/bin/python3.11',
    '/usr/bin/x86_64-linux-gnu-gcc-12',
    '/usr/lib/gcc/x86_64-linux-gnu/12/cc1',
    '/usr/bin/x86_64-linux-gnu-ld.bfd',
    process.execPath,
  ].filter((p) => existsSync(p));
  const view = hostView('/');
  for (const p of programs) {
    it(p, () => {
      const needs = execNeeds(view, p);
      assert.deepEqual(needs.problems, []);
      assert.ok(
        needs.needs.some((x) => x.kind === 'interpreter' && x.by === p),
        'the interpreter is a need',
      );
      // The program's libraries and theirs (the closure holds those of the programs it runs as well).
      const libs = needs.needs.filter((x) => x.kind === 'library');
      const own = new Map<string, string>();
      const from = (by: string): void => {
        for (const x of libs) {
          if (x.by !== by || own.has(x.name)) continue;
          own.set(x.name, x.candidates[0]!.walk.spelled);
          from(x.candidates[0]!.walk.spelled);
        }
      };
      from(p);
      const want = byLoader(p);
      assert.ok(want.size > 0, `ld.so --list lists nothing for ${p}`);
      assert.deepEqual(new Map([...own].sort()), new Map([...want].sort()));
    });
  }
});

/** A manifest machine: the given entries over a glibc system's loader and libc. */
function machine(entries: Record<string, unknown>, extra: Record<string, unknown> = {}): ReturnType<typeof manifestView> {
  return manifestView(
    JSON.stringify({
      home: '/home/u',
      entries: {
        '/lib64': { symlink: 'usr/lib64' },
        '/lib': { symlink: 'usr/lib' },
        '/usr/lib64/ld-linux-x86-64.so.2': { symlink: '/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2' },
        '/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2': { elf: {} },
        '/usr/lib/x86_64-linux-gnu/libc.so.6': { elf: { needed: ['ld-linux-x86-64.so.2'] } },
        ...entries,
      },
      ...extra,
    }),
    'test.json',
  );
}
const prog = (needed: string[], more: Record<string, unknown> = {}): unknown => ({
  elf: { interpreter: '/lib64/ld-linux-x86-64.so.2', needed, ...more },
});
const spelled = (n: ExecNeeds, soname: string): string[] =>
  n.needs.find((x) => x.kind === 'library' && x.name === soname)?.candidates.map((c) => `${c.via}:${c.walk.spelled}`) ?? [];

describe("the loader's search, one rule at a time (manifests)", () => {
  it('the interpreter with every link on its way; the system directories in order; the loader itself is no library', () => {
    const n = execNeeds(machine({ '/usr/bin/p': prog(['libc.so.6', 'ld-linux-x86-64.so.2']) }), '/usr/bin/p');
    const interp = n.needs[0]!;
    assert.equal(interp.kind, 'interpreter');
    assert.deepEqual(interp.candidates[0]!.walk, {
      spelled: '/lib64/ld-linux-x86-64.so.2',
      links: ['/lib64', '/usr/lib64/ld-linux-x86-64.so.2', '/lib'],
      target: '/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2',
    });
    assert.deepEqual(spelled(n, 'libc.so.6'), ['system:/lib/x86_64-linux-gnu/libc.so.6', 'system:/usr/lib/x86_64-linux-gnu/libc.so.6']);
    assert.equal(n.needs.filter((x) => x.kind === 'library').length, 1);
    assert.deepEqual(n.problems, []);
  });
  it('RUNPATH with $ORIGIN before the cache; RPATH ignored when RUNPATH is there', () => {
    const v = machine(
      {
        '/opt/a/bin/p': prog(['libx.so.1', 'libc.so.6'], { runpath: ['$ORIGIN/../lib'], rpath: ['/opt/r'] }),
        '/opt/a/lib/libx.so.1': prog([]),
        '/opt/r/libx.so.1': prog([]),
      },
      { ldCache: {} },
    );
    assert.deepEqual(spelled(execNeeds(v, '/opt/a/bin/p'), 'libx.so.1'), ['runpath:/opt/a/bin/../lib/libx.so.1']);
  });
  it('RPATH of the program for a library without RUNPATH; ${ORIGIN}', () => {
    const v = machine(
      {
        '/opt/a/p': prog(['liby.so'], { rpath: ['${ORIGIN}/lib'] }),
        '/opt/a/lib/liby.so': { elf: { needed: ['libz.so'] } },
        '/opt/a/lib/libz.so': { elf: {} },
      },
      { ldCache: {} },
    );
    const n = execNeeds(v, '/opt/a/p');
    assert.deepEqual(spelled(n, 'liby.so'), ['rpath:/opt/a/lib/liby.so']);
    // liby has no RUNPATH: the program's RPATH serves its needs too.
    assert.deepEqual(spelled(n, 'libz.so'), ['rpath:/opt/a/lib/libz.so']);
  });
  it('a library only the cache knows (outside the system directories): a cache candidate, which the sandbox must show', () => {
    const v = machine(
      { '/usr/bin/p': prog(['libcuda.so.1']), '/usr/local/cuda/lib/libcuda.so.1': { elf: {} } },
      { ldCache: { 'libcuda.so.1': '/usr/local/cuda/lib/libcuda.so.1' } },
    );
    assert.deepEqual(spelled(execNeeds(v, '/usr/bin/p'), 'libcuda.so.1'), ['cache:/usr/local/cuda/lib/libcuda.so.1']);
  });
  it('a library nowhere: a problem that says so; the cache unknown: unknown, not a guess', () => {
    const n = execNeeds(machine({ '/usr/bin/p': prog(['libnone.so.9']) }, { ldCache: {} }), '/usr/bin/p');
    assert.match(n.problems.join(), /libnone\.so\.9 is in none of the loader's places/);
    const u = execNeeds(machine({ '/usr/bin/p': prog(['libnone.so.9']) }), '/usr/bin/p');
    assert.deepEqual(u.problems, []);
    assert.match(u.unknown.join(), /where the loader finds libnone\.so\.9/);
  });
  it('a #! script: its interpreter, then what that needs; `env` runs its operand from PATH', () => {
    const v = machine(
      { '/usr/bin/env': prog(['libc.so.6']), '/usr/bin/node': prog(['libc.so.6']), '/p/tool': { script: '/usr/bin/env node' } },
      { path: ['/usr/local/bin', '/usr/bin'] },
    );
    const n = execNeeds(v, '/p/tool');
    assert.deepEqual(
      n.needs.map((x) => `${x.kind} ${x.name} <- ${x.by}`),
      [
        'script-interpreter /usr/bin/env <- /p/tool',
        'interpreter /lib64/ld-linux-x86-64.so.2 <- /usr/bin/env',
        'library libc.so.6 <- /usr/bin/env',
        'runs node <- /usr/bin/env',
        'interpreter /lib64/ld-linux-x86-64.so.2 <- /usr/bin/node',
        'library libc.so.6 <- /usr/bin/node',
      ],
    );
    assert.deepEqual(
      n.needs.find((x) => x.kind === 'runs')!.candidates.map((c) => c.walk.target),
      ['/usr/bin/node'],
    );
    // What env runs for a #! line is needed to start the script at all.
    assert.ok(n.needs.every((x) => !x.later));
    // Without PATH, unknown.
    assert.match(
      execNeeds(machine({ '/usr/bin/env': prog([]), '/p/tool': { script: '/usr/bin/env node' } }), '/p/tool').unknown.join(),
      /where node is on PATH/,
    );
  });
  it('programs.json: git shows-only, gcc by its name, CPython by its prefix', () => {
    const v = machine(
      {
        '/usr/bin/git': prog([]),
        '/usr/lib/git-core/git': prog([]),
        '/usr/bin/x86_64-linux-gnu-gcc-12': prog([]),
        '/usr/lib/gcc/x86_64-linux-gnu/12/cc1': prog([]),
        '/usr/lib/gcc/x86_64-linux-gnu/12/collect2': prog([]),
        '/usr/include/stdio.h': 'file',
        '/usr/bin/python3.11': prog([]),
        '/usr/lib/python3.11/os.py': 'file',
      },
      { path: ['/usr/bin'] },
    );
    const git = execNeeds(v, '/usr/bin/git').needs.filter((x) => x.kind === 'runs');
    assert.deepEqual(
      git.map((x) => [x.name, x.when]),
      [['/usr/lib/git-core/git', 'shown']],
    );
    const gcc = execNeeds(v, '/usr/bin/x86_64-linux-gnu-gcc-12');
    assert.deepEqual(
      gcc.needs.filter((x) => x.kind === 'runs').map((x) => x.name),
      ['/usr/lib/gcc/x86_64-linux-gnu/12/cc1', '/usr/lib/gcc/x86_64-linux-gnu/12/collect2'],
    );
    assert.deepEqual(
      gcc.needs.filter((x) => x.kind === 'reads').map((x) => x.name),
      ['/usr/lib/gcc/x86_64-linux-gnu/12', '/usr/include', '/usr/lib/x86_64-linux-gnu'],
    );
    assert.ok(gcc.temporaries);
    // gcc starts without cc1 and its trees; it needs them once it compiles. CPython needs its library to start.
    assert.ok(gcc.needs.filter((x) => x.kind === 'runs' || x.kind === 'reads').every((x) => x.later));
    assert.ok(gcc.needs.filter((x) => x.by === '/usr/bin/x86_64-linux-gnu-gcc-12' && x.kind === 'interpreter').every((x) => !x.later));
    assert.ok(gcc.needs.filter((x) => x.by === '/usr/lib/gcc/x86_64-linux-gnu/12/cc1').every((x) => x.later));
    assert.deepEqual(
      execNeeds(v, '/usr/bin/python3.11')
        .needs.filter((x) => x.kind === 'reads')
        .map((x) => [x.name, x.tree, x.later]),
      [['/usr/lib/python3.11', true, undefined]],
    );
  });
  it('a file the manifest records as a plain file: unknown; a link loop: a problem', () => {
    assert.match(execNeeds(machine({ '/usr/bin/p': 'file' }), '/usr/bin/p').unknown.join(), /what \/usr\/bin\/p needs to start/);
    const loop = execNeeds(
      machine({ '/usr/bin/p': { elf: { interpreter: '/l/a' } }, '/l/a': { symlink: '/l/b' }, '/l/b': { symlink: '/l/a' } }),
      '/usr/bin/p',
    );
    assert.match(loop.problems.join(), /too many symbolic links/);
  });
  it("env's operand", () => {
    assert.equal(envOperand('node'), 'node');
    assert.equal(envOperand('-S node --jitless'), 'node');
    assert.equal(envOperand('-i FOO=1 python3 -u'), 'python3');
    assert.equal(envOperand('-u HOME -- bash'), 'bash');
    assert.equal(envOperand('-Snode'), 'node');
    assert.equal(envOperand('-i'), undefined);
  });
});
