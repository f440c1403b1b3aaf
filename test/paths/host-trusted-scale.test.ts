// Issue 37 (large configs): the host-trusted search lists each directory of
// the write trees once and probes no candidate name, and the model decides
// a write tree's absent names once per tree. A 20,000-tree lint made 220,815
// statx calls (200,021 for names that do not exist), a path object, an index
// node and a decision on three platforms per name: quadratic-looking seconds
// no timing test would have caught on a fast machine. These counts are of
// the filesystem view's own calls, on a real tree, and hold the cost to
// "about one listing per directory and one lookup per granted path" with no
// threshold on time.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { checkConfig } from '../../app/check.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { hostView, manifestView, projectNames, type FsView } from '../../compiler/paths/index.js';
import type { TrustedAccess } from '../../model/index.js';
import { PathIndex } from '../../model/path-index.js';

const base = mkdtempSync(join(tmpdir(), 'boxwright-trust-scale-'));
after(() => rmSync(base, { recursive: true, force: true }));

/**
 * `n` trees in ten groups, each group a write tree holding its trees' write
 * trees (nested: walked with the group), under a read tree; every tenth
 * tree holds a `.git` directory and an `.envrc`. Returns the config's path
 * and how many directories the walk of the write trees must list.
 */
function generated(n: number): { file: string; dirs: number; grants: number } {
  const root = join(base, `n${n}`);
  const writes: string[] = [];
  let dirs = 0;
  for (let k = 0; k < 10; k++) {
    mkdirSync(join(root, `g${k}`), { recursive: true });
    writes.push(join(root, `g${k}`));
    dirs++;
  }
  for (let i = 0; i < n; i++) {
    const out = join(root, `g${i % 10}`, `d${i}`, 'out');
    mkdirSync(out, { recursive: true });
    writes.push(out);
    dirs += 2;
    if (i % 10 === 0) {
      // Found, not descended into: a host-trusted directory is one whole.
      mkdirSync(join(out, '.git', 'hooks'), { recursive: true });
      writeFileSync(join(out, '.envrc'), 'use nix\n');
    }
  }
  const file = join(base, `scale-${n}.toml`);
  const list = (paths: readonly string[]): string => paths.map((p) => JSON.stringify(p)).join(', ');
  writeFileSync(file, `[agent.filesystem]\nread = [${JSON.stringify(root)}]\nwrite = [${list(writes)}]\n`);
  return { file, dirs, grants: writes.length + 1 };
}

interface Counted {
  readonly view: FsView;
  readonly listed: string[];
  lookups: number;
}

/** The host view, each listing and lookup counted (the real disk answers). */
function counted(home: string): Counted {
  const host = hostView(home);
  const c: Counted = {
    listed: [],
    lookups: 0,
    view: {
      ...host,
      lookup: (path) => {
        c.lookups++;
        return host.lookup(path);
      },
      children: (dir) => {
        c.listed.push(dir);
        return host.children(dir);
      },
    },
  };
  return c;
}

function lint(n: number) {
  const { file, dirs, grants } = generated(n);
  const c = counted(join(base, 'home'));
  const r = checkConfig(readFileSync(file), { file, view: c.view, worktree: base });
  assert.ok(r.ir && r.model, 'checked through the model');
  return { r, c, dirs, grants, n };
}

describe('host-trusted search and model at scale: counts, not time (issue 37)', () => {
  const small = lint(100);
  const large = lint(400);

  it('lists every directory of the write trees once, nested trees with the tree that holds them', () => {
    for (const { c, dirs } of [small, large]) {
      assert.equal(new Set(c.listed).size, c.listed.length, 'no directory listed twice');
      assert.equal(c.listed.length, dirs, 'one listing a directory: the .git directories found are not descended into');
    }
  });

  it('probes no candidate name: lookups grow with the granted paths, not with the names each tree may hold', () => {
    // Each granted path is inspected (its components, once each, shared with its siblings); the names a tree's root
    // lacks are decided from its listing. Per name and tree, this would grow by projectNames.length per tree.
    const perTree = (large.c.lookups - small.c.lookups) / (large.n - small.n);
    assert.ok(perTree <= 4, `${perTree} lookups per added tree (${projectNames.length} names each may hold)`);
  });

  it('a tree’s absent names are one record and one decision per tree; the names found are decided one by one', () => {
    for (const { r, n } of [small, large]) {
      const search = r.ir!.hostTrusted;
      assert.equal(search.rootNames.length, n + 10, 'one record per write tree');
      // The singles: home paths near no write grant are not asked; what is found (.git, .envrc, what git runs from .git) is.
      assert.ok(search.singles.length < n, `${search.singles.length} paths found one by one`);
      const pa = r.model!.principals[0]!;
      assert.equal(pa.trustedNames.length, n + 10);
      assert.ok(pa.trustedSingles.length < n);
    }
  });

  it('each name of a tree is decided as its tree’s one decision says (every name decided on its own, as explain asks)', () => {
    const pa = small.r.model!.principals[0]!;
    const byPath = new Map(pa.hostTrusted.map((ta) => [ta.trusted.path, ta]));
    let names = 0;
    for (const t of pa.trustedNames) {
      assert.ok(t.decided, `${t.names.root}: its absent names are kept`);
      for (const name of t.shared) {
        const own = byPath.get(t.names.pathOf(name));
        assert.ok(own, `${t.names.pathOf(name)} is in hostTrusted`);
        // The same decision but for the path itself (a note may name it: no Windows spelling outside the home).
        const decided: TrustedAccess = t.decided;
        const { trusted: _first, ...shared } = decided;
        const { trusted: _own, ...alone } = own;
        const sameBut = JSON.stringify(shared).split(`"${decided.trusted.path}"`).join(`"${own.trusted.path}"`);
        assert.equal(JSON.stringify(alone), sameBut);
        names++;
      }
    }
    assert.equal(
      pa.hostTrusted.length,
      pa.trustedSingles.length + names,
      'hostTrusted lists the singles and every shared name, nothing else',
    );
  });
});

describe('PathIndex.carveNames: a set of names carved as one answers as a carveOut per name', () => {
  // Grants at, inside and around the carved names (a deny at one, a write lifting one, a read inside one), on the
  // paths a manifest knows; every question of the index asked of both indexes, on every platform.
  const home = '/home/u';
  const entries = { '/home/u/p/src/a': 'file', '/home/u/p/.git/config': 'file', '/home/u/q/x': 'dir' };
  const view = manifestView(JSON.stringify({ home, landlockAbi: 7, entries }), 'carve test');
  const toml = [
    '[agent.filesystem]',
    'read = ["~/p", "~/q", "~/p/.vscode/settings"]',
    'write = ["~/p", "~/q/x", "~/p/.envrc"]',
    'deny = ["~/p/.idea", "~/q/x/.zed/y"]',
    '',
  ].join('\n');
  const r = checkConfig(Buffer.from(toml), { file: '/home/u/c.toml', view, worktree: home });
  const grants = r.ir!.principals[0]!.grants;
  const names = new Set(['.git', '.envrc', '.vscode', '.idea', '.zed', '.claude']);
  const roots = ['/home/u/p', '/home/u/q/x'];
  const asked = roots.flatMap((root) => [
    root,
    ...[...names].flatMap((n) => [`${root}/${n}`, `${root}/${n}/deep`, `${root}/${n}/deep/er`, `${root}/${n}/settings`, `${root}/${n}/y`]),
    `${root}/other`,
  ]);

  for (const platforms of [['macos'], ['macos', 'windows'], ['linux', 'windows']] as const) {
    it(`carved on ${platforms.join(' and ')}`, () => {
      const one = new PathIndex(grants);
      const each = new PathIndex(grants);
      for (const platform of platforms)
        for (const root of roots) {
          one.carveNames(root, names, platform);
          for (const n of names) each.carveOut(`${root}/${n}`, platform);
        }
      for (const path of asked)
        for (const platform of PLATFORMS) {
          assert.deepEqual(one.summary(path, platform), each.summary(path, platform), `summary ${path} ${platform}`);
          assert.deepEqual(one.below(path, platform), each.below(path, platform), `below ${path} ${platform}`);
        }
    });
  }
});
