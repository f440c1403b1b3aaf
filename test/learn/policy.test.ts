// The collapse policy (app/learn/policy.ts, needs.ts) on a machine described
// by a manifest: what each kind of access becomes, that no grant reaches a
// boundary, and, on generated runs, the policy's invariants.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkConfig } from '../../app/check.js';
import { learnBoundaries, type Boundary } from '../../app/learn/boundaries.js';
import { configText } from '../../app/learn/config-text.js';
import { hostTrustedFor } from '../../app/learn/host-trusted.js';
import { deriveNeeds } from '../../app/learn/needs.js';
import { decide } from '../../app/learn/policy.js';
import type { Op } from '../../app/learn/trace.js';
import { isUnder } from '../../compiler/paths/index.js';
import policy from '../../app/learn/policy.json' with { type: 'json' };
import { access, granted, HOME, learn, loaders, machine, view, W } from './policy-fixture.js';
import { runs } from '../budget.js';

describe('the collapse policy', () => {
  it('collapses system-tree reads per package directory, keeps files at that level and /etc exact', () => {
    const d = learn([
      access('read', '/usr/lib/python3.11/json/__init__.py'),
      access('read', '/usr/lib/x86_64-linux-gnu/libc.so.6'),
      access('read', '/usr/include/stdio.h'),
      access('read', '/etc/passwd'),
      access('read', '/opt/tool/share/data.txt'),
    ]);
    assert.deepEqual(granted(d), [
      'read /usr/lib/python3.11',
      'read /usr/lib/x86_64-linux-gnu',
      'read_file /etc/passwd',
      'read_file /opt/tool/share/data.txt',
      'read_file /usr/include/stdio.h',
    ]);
  });

  it('collapses workspace reads into its subdirectories, never into the workspace, whose own files stay exact', () => {
    const d = learn([
      access('read', `${W}/src/lib/util.js`),
      access('read', `${W}/src/main.js`),
      access('read', `${W}/package.json`),
      access('stat', `${W}/.git`),
    ]);
    assert.deepEqual(granted(d), [`read ${W}/src`, `read_file ${W}/package.json`]);
    assert.ok(!granted(d).some((g) => g.endsWith(' ' + W)), 'the workspace itself (with its .env) is not granted');
  });

  it('grants a program exactly with its loader, and a script its interpreter, through their links', () => {
    const d = learn([access('exec', `${W}/src/main.js`)]);
    assert.deepEqual(granted(d), [
      'read /usr/bin',
      'read /usr/lib/x86_64-linux-gnu',
      'read /usr/lib64',
      'exec /home/dev/proj/src/main.js',
      'exec /usr/bin/dash',
    ]);
    const bin = d.grants.find((g) => g.path === '/usr/bin')!;
    assert.deepEqual(
      bin.needs.map((n) => `${n.kind} ${n.path}`),
      ['link /usr/bin/sh'],
      '/usr/bin is granted for the link sh -> dash',
    );
  });

  it("grants a link's directory only where no boundary is in it: /etc/alternatives yes, /etc never", () => {
    const d = learn([access('exec', '/usr/bin/cc'), access('read', '/etc/localtime')]);
    assert.ok(granted(d).includes('read /etc/alternatives'), granted(d).join('\n'));
    assert.ok(granted(d).includes('exec /usr/bin/gcc-12'));
    assert.ok(granted(d).includes('read /usr/share/zoneinfo'), "the link's target is read");
    assert.ok(!granted(d).some((g) => g.endsWith(' /etc')), granted(d).join('\n'));
    assert.match(d.unmet.find((u) => u.path === '/etc/localtime')!.what, /holds \/etc\/shadow/);
  });

  it('pairs every write with the read Linux needs, exactly, never collapsed', () => {
    const d = learn([
      access('write', `${W}/src/main.js`),
      access('create', `${W}/out/new/deep.txt`, { mayExist: true }),
      access('remove', '/tmp/scratch/x'),
    ]);
    assert.deepEqual(granted(d), [
      `read ${W}/out`,
      'read /tmp/scratch',
      `read_file ${W}/src/main.js`,
      `write ${W}/out`,
      'write /tmp/scratch',
      `write_file ${W}/src/main.js`,
    ]);
  });

  it('puts both ends of a rename between directories in one write grant', () => {
    const d = learn([
      access('remove', `${W}/src/a`, { renamedWith: `${W}/out/a` }),
      access('create', `${W}/out/a`, { renamedWith: `${W}/src/a` }),
    ]);
    assert.ok(granted(d).includes(`write ${W}`), granted(d).join('\n'));
  });

  it("never grants a secret, nor a write that would expose one, nor the sandbox's own /proc", () => {
    const d = learn([
      access('read', `${HOME}/.ssh/id_ed25519`),
      access('create', `${HOME}/new.txt`),
      access('read', '/etc/shadow'),
      access('read', '/etc/ssl/private/key.pem'),
      access('read', '/proc/self/status'),
      access('list', HOME),
    ]);
    assert.deepEqual(granted(d), [`list ${HOME}`]);
    assert.deepEqual(d.unmet.map((u) => u.path).sort(), ['/etc/shadow', '/etc/ssl/private/key.pem', HOME, `${HOME}/.ssh/id_ed25519`]);
  });

  it('grants a listed directory `read` where it may (Linux has no names-only grant), `list` where a read would reach a boundary', () => {
    const d = learn([access('list', '/etc/ssl/certs'), access('list', '/etc/ssl')]);
    assert.deepEqual(granted(d), ['read /etc/ssl/certs', 'list /etc/ssl']);
  });

  it('writes a host-trusted path only when the run wrote it, named exactly and flagged; reads it freely', () => {
    const hostTrusted = hostTrustedFor(HOME, W);
    const d = learn([access('read', `${W}/.git/HEAD`), access('create', `${W}/.git/index.lock`)], { hostTrusted });
    assert.deepEqual(granted(d), [`read ${W}/.git`, `write ${W}/.git`]);
    assert.match(d.grants.find((g) => g.list === 'write')!.notes.join(' '), /host-trusted \(version-control metadata/);
    const r = learn([access('read', `${W}/.git/HEAD`), access('read', `${W}/.git/config`)], { hostTrusted });
    assert.deepEqual(granted(r), [`read ${W}/.git`]);
  });

  it("learn's host-trusted paths: the home's, and a project's in the workspace and each ancestor up to the home", () => {
    const paths = hostTrustedFor(HOME, `${W}/src`).map((t) => t.path);
    for (const p of [
      `${HOME}/.bashrc`,
      `${HOME}/.gitconfig`,
      `${HOME}/.local/bin`,
      `${W}/src/.git`,
      `${W}/.git`,
      `${HOME}/.git`,
      `${W}/.vscode`,
    ])
      assert.ok(paths.includes(p), p);
    assert.ok(!paths.some((p) => p === '/home/.git' || p === '/.git'), 'nothing above the home');
    assert.ok(
      hostTrustedFor(HOME, '/srv/app').some((t) => t.path === '/srv/app/.git'),
      'a workspace outside the home has its own',
    );
  });

  it('finds a write no traced call explains in the throw-away layer', () => {
    const d = learn([], {
      changes: [
        { kind: 'f', path: `${W}/package.json` },
        { kind: 'd', path: W },
        { kind: 'w', path: `${W}/src/lib/util.js` },
      ],
    });
    assert.deepEqual(granted(d), [
      `read ${W}/src/lib`,
      `read_file ${W}/package.json`,
      `write ${W}/src/lib`,
      `write_file ${W}/package.json`,
    ]);
  });

  it('TYBA: reads outside the session become read_allow, the worktree is implicit, writes outside it are not granted', () => {
    const d = learn(
      [
        access('read', `${W}/src/main.js`),
        access('read', '/usr/lib/python3.11/os.py'),
        access('exec', '/usr/bin/git'),
        access('write', `${HOME}/notes.txt`),
        access('create', '/tmp/scratch/f'),
      ],
      { dialect: 'tyba' },
    );
    assert.deepEqual(granted(d), [
      'read_allow /usr/bin/git',
      'read_allow /usr/lib/python3.11',
      'read_allow /usr/lib/x86_64-linux-gnu',
      'read_allow /usr/lib64',
    ]);
    assert.match(d.unmet.find((u) => u.path === `${HOME}/notes.txt`)!.what, /TYBA grants writes only/);
  });
});

describe('the collapse policy on generated runs', () => {
  const paths = Object.keys(machine.entries).concat([
    `${W}/new.txt`,
    `${W}/out/made/x`,
    `${W}/.git/hooks/pre-commit`,
    `${W}/.vscode/tasks.json`,
    `${HOME}/.bashrc`,
    `${HOME}/.local/bin/git`,
    '/tmp/scratch/t',
    HOME,
    W,
    '/etc',
    '/usr/lib',
    '/usr/bin',
  ]);
  const ops: readonly Op[] = ['read', 'stat', 'list', 'exec', 'write', 'create', 'remove', 'modify'];
  const anAccess = fc
    .record({ op: fc.constantFrom(...ops), path: fc.constantFrom(...paths), mayExist: fc.boolean() })
    .map((a) => access(a.op, a.path, a.mayExist && a.op === 'create' ? { mayExist: true } : {}));
  const count = runs(200);
  const secretLike = (b: Boundary): boolean => b.why !== 'host-trusted';
  const boundaries = learnBoundaries({ home: HOME, hostTrusted: hostTrustedFor(HOME, W) });

  it('never reaches a boundary, writes only what was written, collapses no higher than its levels, and answers or reports every need', () => {
    fc.assert(
      fc.property(fc.array(anAccess, { maxLength: 25 }), (accesses) => {
        const set = deriveNeeds({ accesses, changes: [], view, interpreterOf: (p) => loaders[p] });
        const d = decide(set, { dialect: 'box', home: HOME, workspace: W, boundaries, view });
        for (const g of d.grants) {
          // No grant at or inside a secret-like boundary; none but `list` holding one.
          for (const b of boundaries.filter(secretLike)) {
            if (b.why === 'root') assert.notEqual(g.path, '/');
            else assert.ok(!isUnder(g.path, b.path), `${g.list} ${g.path} is inside ${b.path}`);
            if (g.list !== 'list' && b.why !== 'root') assert.ok(!isUnder(b.path, g.path), `${g.list} ${g.path} holds ${b.path}`);
          }
          // A write at or inside a host-trusted path is flagged in its comment.
          if (g.list === 'write' || g.list === 'write_file')
            for (const b of boundaries.filter((x) => x.why === 'host-trusted' && isUnder(g.path, x.path)))
              assert.match(g.notes.join(' '), /host-trusted/, `${g.list} ${g.path} inside ${b.path}, unflagged`);
          // Writes: exactly a path the run wrote (a file written, a directory it made or removed entries in).
          if (g.list === 'write' || g.list === 'write_file')
            assert.ok(
              set.needs.some((n) => (n.kind === 'write-dir' || n.kind === 'write-file') && n.path === g.path),
              `${g.list} ${g.path} was not written`,
            );
          // Trees: a system-tree package level, a workspace subdirectory, or a directory the run needed itself.
          if (g.list === 'read') {
            // At a system tree's level, or below it (a package of a package tree, a collapse narrowed around a secret).
            const level = Object.entries(policy.systemTrees).some(
              ([root, t]) =>
                isUnder(g.path, root) &&
                g.path.split('/').length - root.split('/').length >= t.depth &&
                set.needs.some((n) => isUnder(n.path, g.path)),
            );
            const sub = g.path.startsWith(`${W}/`) && set.needs.some((n) => isUnder(n.path, g.path));
            const own = set.needs.some(
              (n) => (n.path === g.path && n.is === 'dir') || (n.kind === 'link' && n.path.slice(0, n.path.lastIndexOf('/')) === g.path),
            );
            assert.ok(level || sub || own, `read ${g.path} is above what the policy allows`);
          }
          // Linux never refuses it as write-only.
          if (g.list === 'write') assert.ok(d.grants.some((r) => r.list === 'read' && isUnder(g.path, r.path)));
          if (g.list === 'write_file')
            assert.ok(
              d.grants.some((r) => (r.list === 'read_file' && r.path === g.path) || (r.list === 'read' && isUnder(g.path, r.path))),
            );
        }
        // Every need is answered by a grant or said to be unmet (stat of a directory needs neither).
        for (const n of set.needs) {
          if (n.kind === 'stat' && n.is === 'dir') continue;
          const answered = d.grants.some((g) => g.needs.includes(n)) || d.unmet.some((u) => u.path === n.path);
          assert.ok(answered, `${n.kind} ${n.path} is neither granted nor reported`);
        }
        // And the effective-access model of the config written says so: each answered need's access is given at its path.
        const text = configText({
          dialect: 'box',
          principal: 'agent',
          home: HOME,
          command: ['x'],
          ending: '',
          incomplete: [],
          workspace: W,
          grants: d.grants,
          unmet: [],
          network: [],
        });
        const checked = checkConfig(Buffer.from(text, 'utf8'), { file: 'learned.toml', view, worktree: W });
        assert.ok(checked.model, text);
        const agent = checked.model.principals[0]!;
        for (const g of d.grants) {
          for (const n of g.needs) {
            const platform = g.list === 'list' ? 'macos' : 'linux';
            const cell = agent.effectiveAt(n.path, platform);
            const want =
              n.kind === 'exec'
                ? 'exec'
                : n.kind === 'write-dir' || n.kind === 'write-file'
                  ? 'write'
                  : g.list === 'list'
                    ? 'names'
                    : 'read';
            assert.ok(
              cell.kind === 'access' && cell[want],
              `${n.kind} ${n.path} (by ${g.list} ${g.path}): the model gives ${JSON.stringify(cell)} on ${platform}\n${text}`,
            );
          }
        }
      }),
      { numRuns: count, seed: Number(process.env['BOXWRIGHT_FUZZ_SEED'] ?? 27) },
    );
  });
});
