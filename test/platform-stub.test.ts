// ARCHITECTURE.md's "How to add a platform", tried: a copy of the
// sources gets a fourth platform `stub` in Platform / PLATFORMS, and the
// repository's own tsc must refuse it, naming every table keyed by
// Platform that lacks it; then the stub's folder and its registry lines
// go in, exactly as the recipe says, and tsc must accept it. A table that
// falls through to a default platform, or a platform list of its own,
// would let the first step pass silently: that is what this holds.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { repoRoot } from './helpers.js';

/** The product's sources (the tests are not part of a platform). */
const SOURCE_FOLDERS = ['compiler', 'model', 'rules', 'targets', 'app'];

/** Step 1 of the recipe: the name, beside the others. */
const NAME: readonly Line[] = [
  {
    file: 'compiler/diagnostic.ts',
    why: 'the Platform union',
    after: "export type Platform = 'macos' | 'linux' | 'windows'",
    line: " | 'stub'",
    inline: true,
  },
  {
    file: 'compiler/diagnostic.ts',
    why: 'PLATFORMS, the one list of them',
    after: "export const PLATFORMS: readonly Platform[] = ['macos', 'linux', 'windows'",
    line: ", 'stub'",
    inline: true,
  },
];

/**
 * Steps 2–4: one line in each table keyed by Platform, each the place the
 * type checker names (`why`: what the table decides).
 */
const REGISTRY_LINES: readonly Line[] = [
  {
    file: 'compiler/diagnostic.ts',
    why: "the platform's name for people",
    after: "export const platformNames: Readonly<Record<Platform, string>> = { macos: 'macOS', linux: 'Linux', windows: 'Windows'",
    line: ", stub: 'Stub'",
    inline: true,
  },
  {
    file: 'model/model.ts',
    why: 'what the platform gives each principal (its PlatformModel)',
    after: 'const platformModels: Readonly<Record<Platform, PlatformModel>> = {',
    line: '  stub: stubModel,',
  },
  {
    file: 'model/model.ts',
    why: "the import of the platform's model",
    after: "import { runtimePrincipalAccess } from './srt.js';",
    line: "import { stubModel } from './stub.js';",
  },
  {
    file: 'model/srt.ts',
    why: 'what sandbox-runtime does there',
    after: 'const platforms: Readonly<Record<Platform, { readonly at: (path: string) => Cell; readonly elsewhere: Elsewhere }>> = {',
    line: '    stub: { at: () => absent, elsewhere: { cell: absent, fact: ungranted.unavailable } },',
  },
  {
    file: 'targets/registry.ts',
    why: "the platform's emitter",
    after: 'export const targetLoaders: Readonly<Record<Platform, () => Promise<Target>>> = {',
    line: "  stub: async () => (await import('./stub/index.js')).stubTarget,",
  },
  {
    file: 'app/platforms/index.ts',
    why: 'its runner and doctor checks (undefined: boxwright runs no command there)',
    after: 'export const platformRuntimes: Readonly<Record<Platform, PlatformRuntime | undefined>> = {',
    line: '  stub: undefined,',
  },
  {
    file: 'rules/file-entry-on-directory.ts',
    why: 'what a write_file gives there, in words (a rewrite in place)',
    after: 'const rewriteInPlace: Readonly<Record<Platform, string>> = {',
    line: "  stub: 'a rewrite in place',",
  },
  {
    file: 'rules/host-trusted-path.ts',
    why: 'how the platform keeps a host-trusted path read-only, in words',
    after: '  switch (f.platform) {',
    line: "    case 'stub':\n      return 'host-trusted: read-only on the stub';",
  },
];

/** The platform's own files: its model and its target folder. */
const STUB_FILES: Readonly<Record<string, string>> = {
  'model/stub.ts': `import { absent, type Cell } from './cell.js';
import type { PlatformModel } from './model.js';

/** A platform that gives nothing anywhere: the smallest complete PlatformModel. */
export const stubModel: PlatformModel = {
  at: (): Cell => absent,
  mechanism: () => undefined,
  fileEntryGivesTree: () => false,
  pinsDeny: () => false,
  pinsTrusted: false,
  carvable: () => false,
  ownSandbox: true,
  // Not in its view; a platform with a regime of its own adds it to the Ungranted fact and its text to the rule that explains it (tsc asks for both).
  elsewhere: () => ({ cell: absent, fact: { kind: 'ungranted', regime: 'mount-view' } }),
  closedSecrets: () => [],
};
`,
  'targets/stub/index.ts': `import type { Target } from '../target.js';

/** The stub's emitter: no artifact. */
export const stubTarget: Target = { platform: 'stub', compile: () => [] };
`,
};

interface Line {
  readonly file: string;
  readonly why: string;
  readonly after: string;
  readonly line: string;
  /** Inserted on the anchor's line, right after it, not on a line of its own. */
  readonly inline?: true;
}

/** The line put right after the one occurrence of its anchor (a test that cannot find it fails, naming it). */
function apply(root: string, l: Line): void {
  const path = join(root, l.file);
  const text = readFileSync(path, 'utf8');
  const at = text.indexOf(l.after);
  assert.ok(
    at >= 0 && text.indexOf(l.after, at + 1) < 0,
    `${l.file}: the recipe's anchor ${JSON.stringify(l.after)} is not there exactly once (update the recipe and this test)`,
  );
  const end = at + l.after.length;
  writeFileSync(path, text.slice(0, end) + (l.inline ? l.line : `\n${l.line}`) + text.slice(end));
}

/** The repository's own tsc over the copy: the files it names, and its output. */
function typeCheck(root: string): { status: number | null; files: Set<string>; output: string } {
  const r = spawnSync(join(repoRoot, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', root], { cwd: root, encoding: 'utf8' });
  const output = `${r.stdout}${r.stderr}`;
  const files = new Set([...output.matchAll(/^([^\s(]+\.ts)\(\d+,\d+\): error/gm)].map((m) => m[1]!));
  return { status: r.status, files, output };
}

describe('adding a platform (ARCHITECTURE.md, "How to add a platform")', () => {
  const root = mkdtempSync(join(tmpdir(), 'boxwright-stub-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  for (const folder of SOURCE_FOLDERS)
    cpSync(join(repoRoot, folder), join(root, folder), { recursive: true, filter: (p) => !p.endsWith('.js') });
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  // Its "type": "module" makes the sources ES modules, as in the repository.
  cpSync(join(repoRoot, 'package.json'), join(root, 'package.json'));
  const tsconfig = JSON.parse(readFileSync(join(repoRoot, 'tsconfig.json'), 'utf8')) as { include: string[] };
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ ...tsconfig, include: SOURCE_FOLDERS.map((f) => `${f}/**/*.ts`) }));

  it('the name alone does not compile: tsc names every table keyed by Platform', () => {
    for (const l of NAME) apply(root, l);
    const r = typeCheck(root);
    assert.notEqual(r.status, 0, 'a fourth platform with no entries type-checks: some table falls through to a default platform');
    const expected = new Set(REGISTRY_LINES.filter((l) => !l.line.startsWith('import')).map((l) => l.file));
    assert.deepEqual(
      [...r.files].sort(),
      [...expected].sort(),
      `tsc should name exactly the registry tables (a new file here is a new table: add its line to the recipe):\n${r.output}`,
    );
    for (const l of REGISTRY_LINES) assert.ok(l.line.startsWith('import') || r.output.includes(l.file), `${l.file} (${l.why}) not named`);
  });

  it('its folder and its registry lines complete it: tsc passes', () => {
    for (const [file, text] of Object.entries(STUB_FILES)) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    }
    for (const l of REGISTRY_LINES) apply(root, l);
    const r = typeCheck(root);
    assert.equal(r.status, 0, `the complete stub platform does not type-check:\n${r.output}`);
  });
});
