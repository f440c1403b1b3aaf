// Issue 34: learned configs are least privilege by construction (app/learn/
// policy.ts, exposure.ts, needs.ts) on the manifest machine and, as a
// property, on generated project trees: no read tree learn grants gives a
// secret the run did not read, a collapse goes around one, a directory the
// run made is written by its own name, a package tree gives its package.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { learnBoundaries } from '../../app/learn/boundaries.js';
import { hostTrustedFor } from '../../app/learn/host-trusted.js';
import { deriveNeeds } from '../../app/learn/needs.js';
import { decide } from '../../app/learn/policy.js';
import type { Op } from '../../app/learn/trace.js';
import { isStrictlyUnder, isUnder, manifestView } from '../../compiler/paths/index.js';
import { access, granted, HOME, learn, W } from './policy-fixture.js';
import { runs } from '../budget.js';

describe('least privilege by construction (issue 34)', () => {
  it('a collapse goes around a project secret the run did not read: into the subdirectories that hold none, or exact', () => {
    const d = learn([access('read', `${W}/sub/a.js`), access('read', `${W}/sub/lib/b.js`)]);
    assert.deepEqual(granted(d), [`read ${W}/sub/lib`, `read_file ${W}/sub/a.js`]);
    assert.match(d.grants[0]!.notes.join(' '), /narrowed to this directory: .*\.env\.local/);
  });

  it('a directory the run needed whole (listed, written) keeps the secrets it did not read out with a deny', () => {
    const d = learn([access('list', W), access('create', `${W}/hello`), access('read', `${W}/src/main.js`)]);
    assert.deepEqual(granted(d), [`read ${W}`, `write ${W}`, `deny ${W}/.env`, `deny ${W}/sub/.env.local`], JSON.stringify(d, null, 1));
    // What the run read itself it needed: no deny, a flagged grant.
    const r = learn([access('list', W), access('read', `${W}/.env`)]);
    assert.deepEqual(
      granted(r).filter((g) => g.startsWith('deny')),
      [`deny ${W}/sub/.env.local`],
    );
  });

  it("an unnamed file (O_TMPFILE) is made in the directory the call names, not in that directory's parent", () => {
    const d = learn([access('create', `${W}/out`, { unnamed: true })]);
    assert.deepEqual(granted(d), [`read ${W}/out`, `write ${W}/out`]);
  });

  it('a package tree gets the package, not every package beside it', () => {
    const d = learn([
      access('read', '/usr/lib/node_modules/npm/lib/cli.js'),
      access('read', '/usr/lib/node_modules/npm/package.json'),
      access('read', '/usr/lib/node_modules/@scope/pkg/index.js'),
      access('read', '/usr/lib/python3/dist-packages/yaml/__init__.py'),
      access('read', '/usr/lib/python3/dist-packages/six.py'),
    ]);
    assert.deepEqual(granted(d), [
      'read /usr/lib/node_modules/@scope/pkg',
      'read /usr/lib/node_modules/npm',
      'read /usr/lib/python3/dist-packages/yaml',
      'read_file /usr/lib/python3/dist-packages/six.py',
    ]);
  });

  it('a directory the run made and kept gets write on itself, not on the directory it was made in', () => {
    const made = `${W}/src/__pycache__`;
    const d = learn(
      [
        access('create', made, { syscall: 'mkdir' }),
        access('create', `${made}/main.cpython-311.pyc.123`, { mayExist: true }),
        access('remove', `${made}/main.cpython-311.pyc.123`, { renamedWith: `${made}/main.cpython-311.pyc` }),
        access('create', `${made}/main.cpython-311.pyc`, { renamedWith: `${made}/main.cpython-311.pyc.123` }),
      ],
      {
        changes: [
          { kind: 'd', path: W },
          { kind: 'd', path: `${W}/src` },
          { kind: 'd', path: made },
          { kind: 'f', path: `${made}/main.cpython-311.pyc` },
        ],
      },
    );
    assert.deepEqual(granted(d), [`read ${made}`, `write ${made}`]);
    assert.match(d.grants[1]!.notes.join(' '), /create it \(mkdir -p\) before running/);
    // A directory made and removed again (a temporary one): no name to grant, so the directory it was made in.
    const t = learn([access('create', `${W}/src/tmpdir1`, { syscall: 'mkdir' }), access('create', `${W}/src/tmpdir1/x`)]);
    assert.deepEqual(granted(t), [`read ${W}/src`, `write ${W}/src`]);
  });
});

describe('the collapse policy on generated trees', () => {
  // A project tree of generated names, secrets among them, and a run of generated accesses in it: no read tree
  // learn grants gives a secret, a protected path or (by a collapse) a host-trusted path the run did not read.
  const names = ['src', 'lib', 'pkg', 'a.js', 'b.py', 'data.json', '.env', '.env.prod', '.npmrc', 'id_rsa', 'key.pem', '.git', '.vscode'];
  const aPath = fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
  const ops: readonly Op[] = ['read', 'stat', 'list', 'create', 'write'];
  const count = runs(150);

  it('never gives, by any read tree, a secret the run did not read; never collapses over a host-trusted path it did not read', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(aPath, { minLength: 1, maxLength: 14 }),
        fc.array(fc.record({ op: fc.constantFrom(...ops), at: fc.nat() }), { maxLength: 12 }),
        fc.boolean(),
        (files, picks, fromSub) => {
          const entries: Record<string, string> = { [`${HOME}/.ssh/id_ed25519`]: 'file', '/usr/bin/true': 'file' };
          for (const f of files) {
            const p = `${W}/${f}`;
            // A path both a file and a directory's parent: the file loses (the tree stays a tree).
            if (!files.some((o) => o.startsWith(`${f}/`))) entries[p] = 'file';
          }
          const tree = manifestView(JSON.stringify({ home: HOME, entries }), 'tree.json');
          const all = Object.keys(entries).filter((p) => isUnder(p, W));
          const dirs = [
            ...new Set(
              all.flatMap((p) =>
                p
                  .slice(W.length + 1)
                  .split('/')
                  .slice(0, -1)
                  .map((_, i, a) => `${W}/${a.slice(0, i + 1).join('/')}`),
              ),
            ),
          ];
          const targets = [...all, ...dirs, W];
          const accesses = picks.map((k) => access(k.op, targets[k.at % targets.length]!, k.op === 'create' ? { mayExist: true } : {}));
          // The run happened in the workspace or in one of its subdirectories.
          const workspace = fromSub && dirs[0] ? dirs[0] : W;
          const set = deriveNeeds({ accesses, changes: [], view: tree, interpreterOf: () => undefined });
          const bounds = learnBoundaries({ home: HOME, hostTrusted: hostTrustedFor(HOME, workspace) });
          const d = decide(set, { dialect: 'box', home: HOME, workspace, boundaries: bounds, view: tree });
          const usedAt = (p: string): boolean => set.needs.some((n) => isUnder(n.path, p));
          const secrets = all.filter((p) => /(^|\/)(\.env(\.[^/]*)?|\.npmrc|id_rsa|[^/]*\.pem)(\/|$)/.test(p.slice(W.length)));
          const trusted = bounds.filter((b) => b.why === 'host-trusted' && tree.lookup(b.path).kind !== 'absent').map((b) => b.path);
          const denied = (p: string): boolean => d.grants.some((g) => g.list === 'deny' && isUnder(p, g.path));
          for (const g of d.grants) {
            if (g.list === 'deny') {
              assert.ok(!usedAt(g.path), `deny ${g.path}: the run used it`);
              continue;
            }
            if (g.list !== 'read' && g.list !== 'write' && g.list !== 'read_file' && g.list !== 'write_file') continue;
            for (const s of secrets)
              if (isUnder(s, g.path) && !usedAt(s))
                assert.ok(denied(s), `${g.list} ${g.path} gives the secret ${s}, which the run did not read`);
            assert.ok(!isUnder(`${HOME}/.ssh/id_ed25519`, g.path), `${g.list} ${g.path} gives ~/.ssh`);
            if (g.notes.some((n) => n.startsWith('collapsed')))
              for (const t of trusted)
                if (isStrictlyUnder(t, g.path)) assert.ok(usedAt(t), `the collapse read ${g.path} covers ${t}, which the run did not read`);
          }
        },
      ),
      { numRuns: count, seed: Number(process.env['BOXWRIGHT_FUZZ_SEED'] ?? 34) },
    );
  });
});
