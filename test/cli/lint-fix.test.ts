// `lint --fix`, `--unsafe-fixes` and `--diff` (issue 40) through the CLI, in
// process: on a Box config, a TYBA session, sandbox-runtime settings and
// Claude Code settings, each with comments or its own layout. The goldens in
// snapshots/fix/ hold the whole run (exit status, both streams, the file
// after); a fixed file re-lints without the findings that were fixed; and
// the edges (standard input, a symbolic link, the mode, a second run) fail
// closed or change nothing.
import assert from 'node:assert/strict';
import { chmodSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cli, plainEnv, type CliRun } from '../cli-in-process.js';
import { repoRoot } from '../helpers.js';
import { matchSnapshot } from '../snapshot.js';

const configs: Record<string, { file: string; text: string }> = {
  box: {
    file: 'box.toml',
    text: `# The agent's sandbox.
[agent.filesystem]
read = ["~/project", "~/.aws"]  # project sources, and a secret by mistake
# git, to commit
exec = ["/usr/bin/git"]
`,
  },
  tyba: {
    file: 'tyba.toml',
    text: `[sandbox]
# what the session may read
read_allow = [
  "~/.ssh",      # never grantable
  "~/project",
]
`,
  },
  srt: {
    file: 'srt-settings.json',
    text: `{
  "filesystem": {
    "denyRead": ["~/.ssh"],
    "allowWrite": ["~/project"],
    "denyWrite": [],
    "denyRead": ["~/.ssh", "~/.aws"],
    "alowRead": ["~/project/docs"]
  },
  "network": {"allowedDomains": ["github.com"], "deniedDomains": []}
}
`,
  },
  claude: {
    file: '.claude/settings.json',
    text: `{
  "sandbox": {
    "enabled": true,
    "filesystem": {"denyRead": ["~/.ssh"], "denyRead": ["~/.ssh", "~/.aws"], "allowWrit": ["~/project/out"]}
  }
}
`,
  },
};

const root = mkdtempSync(join(tmpdir(), 'bw-lint-fix-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** A fresh directory holding the config. */
function place(name: string): { dir: string; path: string } {
  const dir = join(root, `${name}-${n++}`);
  const c = configs[name]!;
  mkdirSync(dirname(join(dir, c.file)), { recursive: true });
  writeFileSync(join(dir, c.file), c.text);
  return { dir, path: join(dir, c.file) };
}

const common = ['--fs', join(repoRoot, 'examples/machine.json'), '--worktree', '/home/dev/project'];
const lint = (dir: string, args: readonly string[], stdin?: string): Promise<CliRun> =>
  cli(['lint', ...common, ...args], { cwd: dir, env: plainEnv(), ...(stdin !== undefined ? { stdin } : {}) });

/** A run as a golden: the command, its exit status, both streams, and the file after it. */
function transcript(args: readonly string[], r: CliRun, file: string, text: string): string {
  return `$ boxwright lint ${args.join(' ')}\nexit ${r.status}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}--- ${file} after\n${text}`;
}

interface JsonDiagnostic {
  readonly ruleId: string;
  readonly message: string;
  readonly fix?: { readonly applicability: 'safe' | 'unsafe' };
}
const findings = async (dir: string, file: string): Promise<JsonDiagnostic[]> => {
  const r = await lint(dir, ['--format', 'json', file]);
  return (JSON.parse(r.stdout) as { files: { diagnostics: JsonDiagnostic[] }[] }).files[0]!.diagnostics;
};
const said = (d: JsonDiagnostic) => `${d.ruleId}: ${d.message}`;

for (const name of Object.keys(configs)) {
  const { file, text } = configs[name]!;
  describe(`lint --fix on ${name} (${file})`, () => {
    it('--diff prints what --fix would change and writes nothing; with --unsafe-fixes, the unsafe ones too', async () => {
      for (const [mode, args] of [
        ['diff', ['--diff', file]],
        ['unsafe-diff', ['--diff', '--unsafe-fixes', file]],
      ] as const) {
        const { dir, path } = place(name);
        const r = await lint(dir, args);
        assert.equal(readFileSync(path, 'utf8'), text, 'the file is as it was');
        assert.equal(r.status, r.stdout ? 1 : 0, 'exit 1 when a file would change');
        matchSnapshot(`fix/${name}.${mode}.txt`, transcript(args, r, file, readFileSync(path, 'utf8')));
      }
    });
    for (const [mode, flags] of [
      ['fix', ['--fix']],
      ['unsafe-fix', ['--fix', '--unsafe-fixes']],
    ] as const) {
      it(`${flags.join(' ')}: the file fixed in place (comments and layout kept), the rest reported, and it re-lints without what was fixed`, async () => {
        const { dir, path } = place(name);
        const before = await findings(dir, file);
        const diff = await lint(dir, ['--diff', ...flags.slice(1), file]);
        const args = [...flags, file];
        const r = await lint(dir, args);
        const fixed = readFileSync(path, 'utf8');
        matchSnapshot(`fix/${name}.${mode}.txt`, transcript(args, r, file, fixed));
        // --diff showed exactly this change: the diff's lines are the fixed file's.
        for (const line of diff.stdout.split('\n').filter((l) => /^\+[^+]/.test(l))) assert.ok(fixed.includes(line.slice(1)), line);
        // The findings whose fix was applied (safe ones; with --unsafe-fixes all) are gone; those without a fix stay.
        const afterFix = (await findings(dir, file)).map(said);
        const applied = before.filter((d) => d.fix && (mode === 'unsafe-fix' || d.fix.applicability === 'safe'));
        assert.ok(applied.length > 0 || mode === 'fix', `${name} has fixes to apply`);
        for (const d of applied) assert.ok(!afterFix.includes(said(d)), `still reported after the fix: ${said(d)}`);
        // What the output reported as remaining is what a lint of the fixed file reports.
        const relint = await lint(dir, [file]);
        assert.equal(r.stdout, relint.stdout);
        // A second run has nothing left to apply and changes nothing.
        const again = await lint(dir, args);
        assert.equal(readFileSync(path, 'utf8'), fixed);
        assert.match(again.stderr, /boxwright: no fix applied\n/);
      });
    }
  });
}

describe('lint --fix at its edges', () => {
  it("a finding the project file ignores is not fixed, not even with --unsafe-fixes (the ignore is the team's decision)", async () => {
    const { dir, path } = place('box');
    writeFileSync(
      join(dir, '.boxwright.toml'),
      '[[ignore]]\nrule = "exec-dependencies"\npath = "box.toml"\nreason = "git runs from the host in this setup"\n',
    );
    const r = await lint(dir, ['--fix', '--unsafe-fixes', 'box.toml']);
    const fixed = readFileSync(path, 'utf8');
    // The only unsafe fix here is the ignored one: --fix --unsafe-fixes does what --fix does without the project file.
    const control = place('box');
    await lint(control.dir, ['--fix', 'box.toml']);
    assert.equal(fixed, readFileSync(control.path, 'utf8'));
    assert.doesNotMatch(fixed, /x86_64-linux-gnu/, "the ignored finding's fix (execution dependencies) is not applied");
    assert.doesNotMatch(r.stdout, /exec-dependencies/);
    assert.match(r.stderr, /^boxwright: 1 fix applied to 1 file\n/);
  });
  it('standard input: --fix is refused (exit 2), --diff shows the fixes', async () => {
    const { dir } = place('tyba');
    const refused = await lint(dir, ['--fix', '-'], configs.tyba!.text);
    assert.deepEqual(
      [refused.status, refused.stdout, refused.stderr],
      [2, '', 'boxwright lint: --fix cannot write standard input: name the file, or use --diff to see the fixes\n'],
    );
    const diff = await lint(dir, ['--diff', '-'], configs.tyba!.text);
    assert.equal(diff.status, 1);
    assert.match(
      diff.stdout,
      /^--- a\/<stdin>\n\+\+\+ b\/<stdin>\n@@ -1,6 \+1,6 @@\n(?: .*\n){3}- {2}"~\/\.ssh", {6}# never grantable\n\+ {2}# never grantable\n/,
    );
  });
  it('usage errors: --unsafe-fixes alone, --diff with a machine format', async () => {
    const { dir } = place('box');
    const alone = await lint(dir, ['--unsafe-fixes', 'box.toml']);
    assert.deepEqual(
      [alone.status, alone.stderr],
      [2, 'boxwright lint: --unsafe-fixes says which fixes --fix or --diff applies: give one of them too\n'],
    );
    const json = await lint(dir, ['--diff', '--format', 'json', 'box.toml']);
    assert.deepEqual([json.status, json.stderr], [2, 'boxwright lint: --diff prints a unified diff, not --format json\n']);
  });
  it('a symbolic link or a file with other hard links is not written (exit 2); the mode is kept', async () => {
    const { dir, path } = place('tyba');
    symlinkSync(path, join(dir, 'link.toml'));
    const viaLink = await lint(dir, ['--fix', 'link.toml']);
    assert.equal(viaLink.status, 2);
    assert.match(
      viaLink.stderr,
      /^boxwright: cannot fix link\.toml: it is a symbolic link, which boxwright does not write through \(fix the file it points to\)\n/,
    );
    assert.equal(readFileSync(path, 'utf8'), configs.tyba!.text);
    linkSync(path, join(dir, 'hard.toml'));
    const hard = await lint(dir, ['--fix', 'hard.toml']);
    assert.equal(hard.status, 2);
    assert.match(hard.stderr, /^boxwright: cannot fix hard\.toml: it has 1 other hard link, which would keep the old text\n/);
    assert.equal(readFileSync(path, 'utf8'), configs.tyba!.text);
    rmSync(join(dir, 'hard.toml'));
    chmodSync(path, 0o640);
    const fixed = await lint(dir, ['--fix', 'tyba.toml']);
    assert.equal(fixed.status, 0, fixed.stderr);
    assert.equal(statSync(path).mode & 0o7777, 0o640);
    assert.notEqual(readFileSync(path, 'utf8'), configs.tyba!.text);
  });
  it("a TOML file's byte order mark is kept", async () => {
    const { dir, path } = place('tyba');
    writeFileSync(path, `\ufeff${configs.tyba!.text}`);
    const r = await lint(dir, ['--fix', 'tyba.toml']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(readFileSync(path, 'utf8'), `\ufeff${configs.tyba!.text.replace('"~/.ssh",      ', '')}`);
  });
  it('JSON after --fix carries the remaining fixes, judged', async () => {
    const { dir } = place('claude');
    const r = await lint(dir, ['--fix', '--format', 'json', configs.claude!.file]);
    const left = (JSON.parse(r.stdout) as { files: { diagnostics: JsonDiagnostic[] }[] }).files[0]!.diagnostics.filter((d) => d.fix);
    assert.deepEqual(
      left.map((d) => [d.ruleId, d.fix!.applicability]),
      [['unknown-setting', 'unsafe']],
    );
    assert.equal(
      r.stderr,
      'boxwright: 1 fix applied to 1 file\n' +
        'boxwright: 1 hidden fix can be enabled with --unsafe-fixes (it widens access or cannot be judged: see it with --diff --unsafe-fixes)\n',
    );
  });
});
