/**
 * `--fs host` and the equivalent manifest must give the same diagnostics
 * (issue 13 item 2 and Done-when 3): every rule learns about paths through
 * the same step-by-step walk (compiler/paths/inspect.ts), whichever view
 * answers the single lookups.
 *
 * Real trees with files, directories and symbolic links (absolute and
 * relative, to directories and files, dangling, in loops, on protected
 * locations such as `~/.docker`) are made in a temporary directory; the
 * manifest is read off the tree with lstat/readlink (not through boxwright),
 * and generated configs are linted through both views. Bounded and seeded;
 * every tree is removed afterwards.
 */
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { hostView, manifestView } from '../../compiler/paths/index.js';
import { lintText } from '../lint-helpers.js';
import { runs } from '../budget.js';

type Node = 'dir' | 'file' | { readonly symlink: string };

/** The manifest of the tree under `root`, read off the disk. */
function manifestOf(root: string): string {
  const entries: Record<string, Node> = {};
  const walk = (p: string): void => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) entries[p] = { symlink: readlinkSync(p) };
    else if (st.isDirectory()) {
      entries[p] = 'dir';
      for (const name of readdirSync(p)) walk(join(p, name));
    } else entries[p] = 'file';
  };
  walk(root);
  return JSON.stringify({ home: join(root, 'home'), entries });
}

/** Makes what it can of `plan` under `root` (a link may send later entries elsewhere, or nowhere). */
function makeTree(root: string, plan: readonly (readonly [string, Node])[]): void {
  mkdirSync(join(root, 'home'));
  for (const [rel, node] of plan) {
    const p = join(root, rel);
    try {
      mkdirSync(dirname(p), { recursive: true });
      if (node === 'dir') mkdirSync(p, { recursive: true });
      else if (node === 'file') writeFileSync(p, 'x');
      else symlinkSync(node.symlink.replace('$ROOT', root), p);
    } catch {
      // already there, or a parent is a file or a dangling link: the tree is what it is
    }
  }
}

function withTree<T>(plan: readonly (readonly [string, Node])[], f: (root: string) => T): T {
  const root = mkdtempSync(join(tmpdir(), 'boxwright-views-'));
  try {
    makeTree(root, plan);
    return f(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The diagnostics and verdicts of `config` through the host view and through the manifest of the same tree. */
function bothViews(root: string, config: string): { host: string; manifest: string } {
  const home = join(root, 'home');
  const text = config.replaceAll('$ROOT', root);
  const host = lintText(text, 'config.toml', hostView(home));
  const manifest = lintText(text, 'config.toml', manifestView(manifestOf(root), 'tree.json'));
  const shown = (r: typeof host): string => JSON.stringify({ diagnostics: r.diagnostics, verdicts: r.verdicts }, null, 1);
  return { host: shown(host), manifest: shown(manifest) };
}

describe('--fs host and the equivalent manifest', () => {
  test('~/.docker a link to a directory holding config.json: both name ~/.docker/config.json', () => {
    withTree(
      [
        ['store/docker/config.json', 'file'],
        ['home/.docker', { symlink: '../store/docker' }],
        ['home/.ssh/id_ed25519', 'file'],
      ],
      (root) => {
        const { host, manifest } = bothViews(root, '[agent.filesystem]\nread = ["~"]\n');
        assert.equal(manifest, host);
        const d = (JSON.parse(host) as { diagnostics: { ruleId: string; message: string }[] }).diagnostics.find(
          (x) => x.ruleId === 'protected-path',
        );
        assert.ok(d, host);
        assert.match(d.message, /exposes ~\/\.ssh, ~\/\.docker\/config\.json unless denied(;|$)/);
      },
    );
  });

  // ------------------------------------------------------------ generated trees and configs

  const places = [
    'home/.ssh',
    'home/.ssh/id_ed25519',
    'home/.aws',
    'home/.aws/credentials',
    'home/.docker',
    'home/.docker/config.json',
    'home/.config',
    'home/.config/gh',
    'home/.config/gcloud',
    'home/.config/boxwright',
    'home/.kube',
    'home/.gnupg',
    'home/.cargo',
    'home/.cargo/credentials',
    'home/.git-credentials',
    'home/.netrc',
    'home/.npmrc',
    'home/.pypirc',
    'home/.tyba',
    'home/.kaggle/kaggle.json',
    'home/project',
    'home/project/src',
    'home/project/src/main.py',
    'home/project/README.md',
    'home/project/.env',
    'home/data',
    'home/link',
    'home/loop',
    'store',
    'store/docker',
    'store/docker/config.json',
    'store/ssh',
    'store/ssh/id_rsa',
    'store/data',
  ];
  const targets = [
    '$ROOT/store',
    '$ROOT/store/docker',
    '$ROOT/store/docker/config.json',
    '$ROOT/store/ssh',
    '$ROOT/home/project',
    '$ROOT/nowhere',
    '$ROOT/home/loop',
    '../store/docker',
    '../../store/ssh',
    '../store',
    'project',
    '../home/.docker',
    '.',
    '..',
    'config.json',
    'nowhere',
  ];
  const node: fc.Arbitrary<Node> = fc.oneof(
    { weight: 3, arbitrary: fc.constant<Node>('dir') },
    { weight: 3, arbitrary: fc.constant<Node>('file') },
    { weight: 3, arbitrary: fc.constantFrom(...targets).map((symlink): Node => ({ symlink })) },
  );
  const planArb = fc.uniqueArray(fc.tuple(fc.constantFrom(...places), node), { minLength: 1, maxLength: 14, selector: ([p]) => p });

  const grantPaths = [
    '~',
    '~/.docker',
    '~/.docker/config.json',
    '~/.ssh',
    '~/.aws',
    '~/.config',
    '~/.config/boxwright',
    '~/.tyba',
    '~/.kaggle',
    '~/project',
    '~/project/src',
    '~/project/src/main.py',
    '~/project/.env',
    '~/data',
    '~/link',
    '~/link/config.json',
    '~/loop',
    '~/nowhere',
    '$ROOT/store',
    '$ROOT/store/docker',
    '$ROOT/store/docker/config.json',
    '$ROOT/home',
    '$ROOT/home/.netrc',
  ];
  const lists = ['read', 'write', 'read_file', 'write_file', 'list', 'deny', 'exec'] as const;
  const filesystemArb = fc
    .record({
      lists: fc.uniqueArray(
        fc.tuple(fc.constantFrom(...lists), fc.uniqueArray(fc.constantFrom(...grantPaths), { minLength: 1, maxLength: 3 })),
        { minLength: 1, maxLength: 4, selector: ([l]) => l },
      ),
      metadata: fc.option(fc.constantFrom(...grantPaths), { nil: undefined }),
      workspace: fc.option(fc.constantFrom('~/project', '~/link', '~/nowhere'), { nil: undefined }),
    })
    .map(({ lists: ls, metadata, workspace }) => {
      const lines = ls.map(([l, paths]) => `${l} = [${paths.map((p) => JSON.stringify(p)).join(', ')}]`);
      if (metadata !== undefined) lines.push(`metadata = ["${metadata}"]`);
      if (workspace !== undefined) lines.push(`workspace = "${workspace}"`);
      return lines.join('\n');
    });
  const configArb = fc
    .tuple(filesystemArb, fc.option(filesystemArb, { nil: undefined }))
    .map(
      ([agent, tool]) =>
        `[agent.filesystem]\n${agent}\n` +
        (tool === undefined ? '' : `\n[tools.fmt]\ncommand = "fmt"\n\n[tools.fmt.filesystem]\n${tool}\n`),
    );

  test('generated trees with symbolic links: identical diagnostics through both views', () => {
    let protectedSeen = 0;
    const rules = new Set<string>();
    fc.assert(
      fc.property(planArb, fc.array(configArb, { minLength: 1, maxLength: 3 }), (plan, configs) => {
        withTree(plan, (root) => {
          for (const config of configs) {
            const { host, manifest } = bothViews(root, config);
            assert.equal(manifest, host, `tree ${JSON.stringify(plan)}\nconfig:\n${config}`);
            if (host.includes('"protected-path"')) protectedSeen++;
            for (const m of host.matchAll(/"ruleId": "([a-z-]+)"/g)) rules.add(m[1]!);
          }
        });
      }),
      { numRuns: runs(120), seed: 1302 },
    );
    // the configs reach the rule that once differed
    assert.ok(protectedSeen > 20, `protected-path reported for only ${protectedSeen} configs`);
    // and the rules that depend on what exists and where links go
    for (const id of ['protected-path', 'symlink-entry', 'missing-path', 'deny-absent-path'])
      assert.ok(rules.has(id), `${id} never reported: ${[...rules].join(', ')}`);
  });
});
