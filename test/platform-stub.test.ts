// ARCHITECTURE.md's "How to add a platform", tried (issue 38: the platform
// is the unit). A copy of the sources gets a fourth platform, `stub`: its
// name beside the others (compiler/diagnostic.ts), then its folder
// (targets/stub/: what it decides, what it writes) and one entry in the
// registry (targets/units.ts). The repository's own tsc must name exactly
// the registry after the name alone, and accept the whole; nothing else in
// the copy may differ from the repository; and the copy, built, must show
// the stub's behaviour in lint, explain and diff: a read-only platform,
// which accepts what Linux refuses and reports no write where the others do.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { PLATFORMS } from '../compiler/diagnostic.js';
import { emitterOf } from '../targets/emit.js';
import { hostRuntime } from '../targets/run/load.js';
import { platformUnits } from '../targets/units.js';
import { repoRoot } from './helpers.js';

/** The product's sources (the tests are not part of a platform). */
const SOURCE_FOLDERS = ['compiler', 'model', 'rules', 'targets', 'app'];

/** Step 1 of the recipe: the name, beside the others (the front end keys diagnostics and verdicts by it). */
const NAME: Line = {
  file: 'compiler/diagnostic.ts',
  after: "const platformTable = { macos: 'macOS', linux: 'Linux', windows: 'Windows'",
  line: ", stub: 'Stub'",
  inline: true,
};

/** Step 3: its entry in the registry, and the import of its unit. */
const REGISTRY: readonly Line[] = [
  {
    file: 'targets/units.ts',
    after: "import { windowsUnit } from './windows/unit.js';",
    line: "import { stubUnit } from './stub/unit.js';",
  },
  { file: 'targets/units.ts', after: '  windows: windowsUnit,', line: '  stub: stubUnit,' },
];

/** Step 2: the platform's folder, real behaviour: a read-only platform. */
const STUB_FILES: Readonly<Record<string, string>> = {
  'targets/stub/model/index.ts': `import { absent, access, denied } from '../../../model/cell.js';
import type { PlatformModel } from '../../../model/platform.js';

/**
 * What the stub decides: a read-only platform. A grant gives its reads (a list its names), never a write or an
 * execution; a deny closes its path; nothing where no grant names the path (a view of the granted paths alone).
 */
export const stubModel: PlatformModel = {
  at: (cx, path) => {
    const s = cx.ix.summary(path, 'stub');
    if (s.deny || s.mechanismDenied) return denied;
    const read = !!(s.readTree ?? s.readFile);
    return read || s.listHere ? access({ read, names: !!s.listHere }) : absent;
  },
  mechanism: () => undefined,
  fileEntryGivesTree: () => false,
  pinsDeny: () => false,
  pinsTrusted: false,
  carvable: () => true,
  carvesMissingParents: false,
  deniesFuturePaths: false,
  privateTmpOwn: false,
  ownSandbox: true,
  elsewhere: () => ({ cell: absent, fact: { kind: 'ungranted', regime: 'mount-view' } }),
  closedSecrets: () => [],
  rewriteInPlace: 'file-bind',
  hostTrusted: { readOnly: 'read-only-bind', created: 'unchecked' },
};
`,
  'targets/stub/unit.ts': `import type { PlatformUnit } from '../unit.js';
import { stubModel } from './model/index.js';

/** The stub platform: what it decides; no system runs it (no run/ part). */
export const stubUnit: PlatformUnit = { model: stubModel };
`,
  'targets/stub/index.ts': `import { legend } from '../../model/cell.js';
import type { Artifact, CompileInput, Target } from '../target.js';

/** What the stub writes: one file a principal, each grant's path and its cell there. */
export const target: Target = {
  platform: 'stub',
  compile: (input: CompileInput): Artifact[] =>
    input.access.principals.map((pa) => ({
      name: \`\${pa.principal.id}.stub\`,
      content: pa.grants.map((ga) => \`\${legend(ga.effective.stub)} \${ga.grant.path ?? ga.grant.written}\\n\`).join(''),
    })),
};
`,
};

interface Line {
  readonly file: string;
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
function typeCheck(root: string, emit = false): { status: number | null; files: Set<string>; output: string } {
  const args = emit ? ['-p', root] : ['--noEmit', '-p', root];
  const r = spawnSync(join(repoRoot, 'node_modules', '.bin', 'tsc'), args, { cwd: root, encoding: 'utf8' });
  const output = `${r.stdout}${r.stderr}`;
  const files = new Set([...output.matchAll(/^([^\s(]+\.ts)\(\d+,\d+\): error/gm)].map((m) => m[1]!));
  return { status: r.status, files, output };
}

/** Every file under the source folders of a tree, repository-relative. */
function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const rel = `${dir}/${name}`;
      if (statSync(join(root, rel)).isDirectory()) walk(rel);
      else if (!name.endsWith('.js')) out.push(rel);
    }
  };
  for (const folder of SOURCE_FOLDERS) walk(folder);
  return out;
}

describe('adding a platform (ARCHITECTURE.md, "How to add a platform")', () => {
  const root = mkdtempSync(join(tmpdir(), 'boxwright-stub-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  for (const folder of [...SOURCE_FOLDERS, 'scripts'])
    cpSync(join(repoRoot, folder), join(root, folder), {
      recursive: true,
      filter: (p) => !p.endsWith('.js') || p.startsWith(join(repoRoot, 'scripts')),
    });
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  // Its "type": "module" makes the sources ES modules, as in the repository.
  cpSync(join(repoRoot, 'package.json'), join(root, 'package.json'));
  const tsconfig = JSON.parse(readFileSync(join(repoRoot, 'tsconfig.json'), 'utf8')) as { include: string[] };
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ ...tsconfig, include: SOURCE_FOLDERS.map((f) => `${f}/**/*.ts`) }));

  it('the name alone does not compile: tsc names the registry, and nothing else', () => {
    apply(root, NAME);
    const r = typeCheck(root);
    assert.notEqual(r.status, 0, 'a fourth platform with no unit type-checks: the registry falls through to a default platform');
    assert.deepEqual(
      [...r.files],
      ['targets/units.ts'],
      `tsc should name the registry alone (a new file here is a table keyed by Platform):\n${r.output}`,
    );
  });

  it('its folder and its registry entry complete it: tsc passes, and nothing else differs from the repository', () => {
    for (const [file, text] of Object.entries(STUB_FILES)) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    }
    for (const l of REGISTRY) apply(root, l);
    const r = typeCheck(root);
    assert.equal(r.status, 0, `the complete stub platform does not type-check:\n${r.output}`);
    const theirs = sourceFiles(root);
    assert.deepEqual(
      theirs.filter((f) => f.startsWith('targets/stub/')),
      Object.keys(STUB_FILES).sort(),
    );
    const changed = theirs.filter(
      (f) => !f.startsWith('targets/stub/') && readFileSync(join(root, f), 'utf8') !== readFileSync(join(repoRoot, f), 'utf8'),
    );
    assert.deepEqual(changed, ['compiler/diagnostic.ts', 'targets/units.ts']);
    assert.deepEqual(
      sourceFiles(repoRoot).filter((f) => !theirs.includes(f)),
      [],
    );
  });

  describe('built, the CLI reports the stub', () => {
    const work = join(root, 'work');
    mkdirSync(work);
    // A write_file without a read: Linux refuses it (write-only); the read-only stub gives nothing to write.
    writeFileSync(
      join(work, 'c.toml'),
      '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/out"]\nwrite_file = ["~/notes.txt"]\n',
    );
    writeFileSync(join(work, 'a.toml'), '[agent.filesystem]\nread = ["~/project"]\n');
    writeFileSync(join(work, 'b.toml'), '[agent.filesystem]\nread = ["~/project", "~/docs"]\nwrite = ["~/project/out"]\n');
    const cli = (...args: string[]): { status: number | null; stdout: string; stderr: string } => {
      const entry = pathToFileURL(join(root, 'dist', 'app', 'cli', 'entry.js')).href;
      const r = spawnSync(
        process.execPath,
        ['--input-type=module', '-e', `const { run } = await import(${JSON.stringify(entry)}); run(process.argv.slice(1));`, '--', ...args],
        { cwd: work, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
      );
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const machine = ['--fs', 'none', '--home', '/home/dev'];

    it('builds: tsc, then the generated validators and lookahead of the build', () => {
      const r = typeCheck(root, true);
      assert.equal(r.status, 0, r.output);
      for (const step of ['gen-validators.mjs', 'gen-lookahead.mjs']) {
        const g = spawnSync(process.execPath, [join(root, 'scripts', step)], { cwd: root, encoding: 'utf8' });
        assert.equal(g.status, 0, `${step}: ${g.stderr}`);
      }
    });

    it('lint: a verdict of its own, which accepts what Linux refuses', () => {
      const text = cli('lint', ...machine, 'c.toml');
      assert.equal(text.status, 1, text.stderr);
      assert.match(text.stdout, /^c\.toml \(box\): macos accepted · linux refused · windows accepted-with-warnings · stub accepted$/m);
      const json = cli('lint', '-f', 'json', ...machine, 'c.toml');
      const out = JSON.parse(json.stdout) as {
        platforms: string[];
        files: { verdicts: Record<string, string>; diagnostics: { ruleId: string; platforms: string[] }[] }[];
      };
      assert.deepEqual(out.platforms, ['macos', 'linux', 'windows', 'stub']);
      assert.equal(out.files[0]!.verdicts.stub, 'accepted');
      // Rules that judge every platform judge it too (a path the machine must have, on every platform).
      assert.ok(out.files[0]!.diagnostics.some((d) => d.ruleId === 'missing-path' && d.platforms.includes('stub')));
      assert.ok(!out.files[0]!.diagnostics.some((d) => d.ruleId === 'write-only' && d.platforms.includes('stub')));
    });

    it('explain: its column, with its cells', () => {
      const r = cli('explain', ...machine, 'c.toml');
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^verdicts: macOS accepted · Linux REFUSED · Windows accepted \(warnings\) · Stub accepted$/m);
      assert.match(r.stdout, /^ line grant +requested +macOS +Linux +Windows +Stub$/m);
      // The write tree is read-only on the stub (its read grant's reads, combined), writable everywhere else.
      assert.match(r.stdout, /^ +3 write ~\/project\/out +w +rw \[\d+\] +rw \[\d+\]\[\d+\] +rwx \[\d+\]\[\d+\] +r \[(\d+)\]$/m);
      assert.match(r.stdout, /^ +\[\d+\] Stub: combined with `read ~\/project` \(line 2\): the grants on this path add up$/m);
      assert.match(r.stdout, /^ +4 write_file ~\/notes\.txt +w +w \[\d+\] +refused \[\d+\] +rwx \[[\d\][]+\] +—$/m);
    });

    it('diff: what it now grants, and its artifact', () => {
      const r = cli('diff', ...machine, 'a.toml', 'b.toml');
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^ {2}\+ {2}macos, linux, stub: the agent can now read ~\/docs \(— → r\)$/m);
      // The write is no change on the stub: it writes nowhere.
      assert.match(r.stdout, /^ {2}\+ {2}macos, linux: the agent can now write ~\/project\/out \(r → rw\)$/m);
      assert.doesNotMatch(r.stdout, /stub: the agent can now write/);
      assert.match(r.stdout, /^stub agent\.stub\n={67}\n--- a\/agent\.stub\ta\.toml\n\+\+\+ b\/agent\.stub\tb\.toml\n/m);
      assert.match(r.stdout, /^@@ -1,1 \+1,3 @@\n r \/home\/dev\/project\n\+r \/home\/dev\/docs\n\+r \/home\/dev\/project\/out$/m);
    });
  });
});

describe('the registry (targets/units.ts)', () => {
  it('every platform has a unit, an emitter for it, and at most one runs on a system', async () => {
    for (const platform of PLATFORMS) {
      assert.ok(platformUnits[platform].model, `${platform} has no model part`);
      assert.equal((await emitterOf(platform)).platform, platform);
    }
    const systems = PLATFORMS.map((p) => platformUnits[p].system).filter((s) => s !== undefined);
    assert.equal(new Set(systems).size, systems.length, `two units run on one system: ${systems.join(', ')}`);
    for (const system of systems) {
      const host = hostRuntime(system);
      assert.equal(host && platformUnits[host.platform].system, system);
      assert.equal(typeof (await host!.runtime.runner()).prepare, 'function');
      assert.equal(typeof (await host!.runtime.doctor()), 'function');
    }
    assert.equal(hostRuntime('aix'), undefined);
  });
});
