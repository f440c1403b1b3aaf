/**
 * The project file, `.boxwright.toml` (issue 40), through the CLI in
 * process: an ignore silences its rule's warnings in every dialect (matched
 * by rule id and path glob), never an error; its reason is required; an
 * expired or unused ignore warns; it is found upward from each config and
 * not past the repository's root; it is linted as a config is (exact
 * spans, did-you-mean); its defaults give way to flags; a principal that
 * may write it is reported. Each case is a scratch repository (a `.git`
 * directory) linted against examples/machine.json, with a fixed clock.
 */
import assert from 'node:assert/strict';
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cli, plainEnv, type CliRun } from '../cli-in-process.js';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { globProblem } from '../../compiler/schema/project.js';

const machine = join(repoRoot, 'examples', 'machine.json');
/** The command's clock: 2027-01-15 (UTC). */
const now = new Date('2027-01-15T12:00:00Z');
const scratch = mkdtempSync(join(tmpdir(), 'boxwright-project-file-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

let repos = 0;
/** A new repository (a `.git` directory at its top) holding `files`. */
function repo(files: Readonly<Record<string, string>>, at = join(scratch, `repo${++repos}`)): string {
  mkdirSync(join(at, '.git'), { recursive: true });
  write(at, files);
  return at;
}
function write(root: string, files: Readonly<Record<string, string>>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
}

const lint = (cwd: string, ...argv: string[]): Promise<CliRun> =>
  cli(['lint', '--fs', machine, '--format', 'json', ...argv], { cwd, env: plainEnv(), now });

interface JsonDiagnostic {
  readonly ruleId: string;
  readonly severity: string;
  readonly message: string;
  readonly range: { readonly start: { readonly line: number; readonly column: number } };
}
interface JsonFile {
  readonly path: string;
  readonly error?: string;
  readonly verdicts?: Record<string, string>;
  readonly diagnostics?: JsonDiagnostic[];
}
const filesOf = (run: CliRun): JsonFile[] => (JSON.parse(run.stdout) as { files: JsonFile[] }).files;
/** Every diagnostic of a JSON run as one line: `file:line:col severity rule message`. */
const lines = (run: CliRun): string[] =>
  filesOf(run).flatMap((f) =>
    (f.diagnostics ?? []).map((d) => `${f.path}:${d.range.start.line}:${d.range.start.column} ${d.severity} ${d.ruleId} ${d.message}`),
  );

const boxAgent = '[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/project/.env"]\n';
const substitution =
  'sandbox/agent.toml:3:9 warning deny-file-substitution Linux places an empty file over /home/dev/project/.env: reads can return empty output while writes fail; a successful read does not mean the original content is accessible';
const ignoreOf = (rule: string, path: string, extra = ''): string =>
  `[[ignore]]\nrule = "${rule}"\npath = "${path}"\nreason = "accepted by the team"\n${extra}`;

/** One config of each dialect, a warning it gets, and the flags it is linted with. */
const dialects: readonly { name: string; path: string; text: string; rule: string; argv?: string[] }[] = [
  { name: 'Box', path: 'sandbox/agent.toml', text: boxAgent, rule: 'deny-file-substitution' },
  {
    name: 'TYBA',
    path: 'sandbox/tyba.toml',
    text: '[sandbox]\nread_allow = ["~/project"]\n',
    rule: 'windows-open-reads',
    argv: ['--worktree', '/home/dev/project'],
  },
  {
    name: 'sandbox-runtime',
    path: 'srt.json',
    text: '{"filesystem":{"denyRead":[],"allowRead":[],"allowWrite":[],"denyWrite":[]},"network":{"allowedDomains":[],"deniedDomains":[],"allowUnixSockets":["/var/run/docker.sock"]}}\n',
    rule: 'socket-escape',
  },
  {
    name: 'Claude Code',
    path: '.claude/settings.json',
    text: '{"sandbox":{"enabled":true,"allowUnsandboxedCommands":true}}\n',
    rule: 'sandbox-bypass',
  },
  { name: 'Codex', path: '.codex/config.toml', text: 'sandbox_mode = "danger-full-access"\n', rule: 'codex-full-access' },
  { name: 'Cursor', path: '.cursor/sandbox.json', text: '{"type":"insecure_none","disableTmpWrite":true}\n', rule: 'cursor-sandbox' },
  {
    name: 'VS Code',
    path: '.vscode/settings.json',
    text: '{"chat.agent.sandbox.enabled": "on", "chat.agent.sandbox.allowedNetworkDomains": ["*"]}\n',
    rule: 'vscode-sandbox',
  },
];

describe('.boxwright.toml ignores', () => {
  for (const d of dialects)
    it(`silence a rule's warnings in the configs a glob names: ${d.name}`, async () => {
      const root = repo({ [d.path]: d.text });
      const before = await lint(root, ...(d.argv ?? []), d.path);
      const warned = lines(before).filter((l) => l.includes(` warning ${d.rule} `));
      assert.ok(warned.length > 0, `${d.name}: no ${d.rule} warning to ignore:\n${lines(before).join('\n')}`);
      write(root, { '.boxwright.toml': ignoreOf(d.rule, d.path.replace(/[^/]+$/, '*')) });
      const ignored = await lint(root, ...(d.argv ?? []), d.path);
      // Exactly the rule's findings go; the project file says nothing of itself; the verdicts follow what is left.
      assert.deepEqual(
        lines(ignored),
        lines(before).filter((l) => !l.includes(` ${d.rule} `)),
      );
      assert.deepEqual(
        filesOf(ignored).map((f) => f.path),
        [d.path, '.boxwright.toml'],
      );
      assert.equal(ignored.status, 0, ignored.stderr);
    });

  it('need a reason: an ignore without one is an error, and silences nothing', async () => {
    const root = repo({
      'sandbox/agent.toml': boxAgent,
      '.boxwright.toml': '[[ignore]]\nrule = "deny-file-substitution"\npath = "sandbox/*.toml"\n',
    });
    const run = await lint(root, 'sandbox/agent.toml');
    assert.deepEqual(
      lines(run).filter((l) => !l.includes('windows-open-reads') && !l.includes('exec-not-confined')),
      [substitution, '.boxwright.toml:1:1 error schema [ignore[0]] needs the key `reason`'],
    );
    assert.equal(run.status, 1);
    write(root, { '.boxwright.toml': '[[ignore]]\nrule = "deny-file-substitution"\npath = "sandbox/*.toml"\nreason = " "\n' });
    assert.deepEqual(lines(await lint(root, 'sandbox/agent.toml')).slice(-1), [
      '.boxwright.toml:4:10 error schema `ignore[0].reason` is blank: say why this finding is acceptable, for whoever reads the file next',
    ]);
  });

  it('expire: from the `expires` day (UTC) one warns and silences nothing; the day before, it holds', async () => {
    const root = repo({
      'sandbox/agent.toml': boxAgent,
      '.boxwright.toml': ignoreOf('deny-file-substitution', 'sandbox/*.toml', 'expires = 2027-01-15\n'),
    });
    const run = await lint(root, 'sandbox/agent.toml');
    assert.deepEqual(
      lines(run).filter((l) => l.includes('deny-file-substitution')),
      [
        substitution,
        '.boxwright.toml:5:11 warning suppression the ignore of `deny-file-substitution` in `sandbox/*.toml` expired on 2027-01-15 ("accepted by the team"): it silences nothing now; look at the finding again, then remove the ignore or give it a later date',
      ],
    );
    write(root, { '.boxwright.toml': ignoreOf('deny-file-substitution', 'sandbox/*.toml', 'expires = 2027-01-16\n') });
    assert.deepEqual(
      lines(await lint(root, 'sandbox/agent.toml')).filter((l) => l.includes('deny-file-substitution')),
      [],
    );
  });

  it('that silence nothing in a config they name warn; one naming no linted config, or judged on fewer platforms, does not', async () => {
    const root = repo({
      'sandbox/agent.toml': boxAgent,
      '.boxwright.toml': `${ignoreOf('socket-escape', 'sandbox/*.toml')}\n${ignoreOf('socket-escape', 'elsewhere/*.toml')}`,
    });
    assert.deepEqual(lines(await lint(root, 'sandbox/agent.toml')).slice(-1), [
      '.boxwright.toml:1:1 warning suppression the ignore of `socket-escape` in `sandbox/*.toml` silences nothing in the configs it names; remove it',
    ]);
    const linuxOnly = await lint(root, '--platform', 'linux', 'sandbox/agent.toml');
    assert.deepEqual(
      lines(linuxOnly).filter((l) => l.includes('suppression')),
      [],
    );
  });

  it('never silence an error: it stays, and the ignore says why it cannot', async () => {
    const root = repo({
      'sandbox/agent.toml': '[agent.network]\n',
      '.boxwright.toml': ignoreOf('agent-network-table', '**'),
    });
    const run = await lint(root, 'sandbox/agent.toml');
    const errors = lines(run).filter((l) => l.includes(' error agent-network-table '));
    assert.equal(errors.length, 1, lines(run).join('\n'));
    assert.deepEqual(
      lines(run).filter((l) => l.startsWith('.boxwright.toml')),
      [
        '.boxwright.toml:2:8 warning suppression `agent-network-table` is an error in sandbox/agent.toml, and an error cannot be ignored: the platform refuses that configuration whatever this file says',
      ],
    );
    assert.equal(run.status, 1);
  });

  it('are found upward from each config, and not past the root of its repository', async () => {
    const outer = repo({ '.boxwright.toml': ignoreOf('deny-file-substitution', '**/agent.toml'), 'sub/deep/agent.toml': boxAgent });
    repo({ 'sandbox/agent.toml': boxAgent }, join(outer, 'inner'));
    const run = await lint(outer, 'sub/deep/agent.toml', 'inner/sandbox/agent.toml');
    assert.deepEqual(
      lines(run).filter((l) => l.includes('deny-file-substitution')),
      [substitution.replace('sandbox/agent.toml', 'inner/sandbox/agent.toml')],
    );
    // From inside the inner repository, the outer project file is not found at all.
    const inside = await lint(join(outer, 'inner'), 'sandbox/agent.toml');
    assert.deepEqual(
      filesOf(inside).map((f) => f.path),
      ['sandbox/agent.toml'],
    );
  });
});

describe('.boxwright.toml is linted as a config is', () => {
  it('misspelt keys with did-you-mean at their spans, a quoted date, a glob that names nothing, an unknown rule', async () => {
    const root = repo({
      'sandbox/agent.toml': boxAgent,
      '.boxwright.toml': [
        'max-warning = 3',
        'platforms = ["linux", "macOS"]',
        '[[ignore]]',
        'rule = "deny-file-substitution"',
        'pth = "sandbox/*.toml"',
        'reason = "r"',
        '[[ignore]]',
        'rule = "deny-file-substitution"',
        'path = "../sandbox/*.toml"',
        'reason = "r"',
        'expires = "2027-03-31"',
        '',
      ].join('\n'),
    });
    const run = await lint(root, 'sandbox/agent.toml');
    assert.deepEqual(
      lines(run).filter((l) => l.startsWith('.boxwright.toml')),
      [
        '.boxwright.toml:1:1 error schema unknown key `max-warning` in the top level; did you mean `max-warnings`?',
        '.boxwright.toml:2:23 error schema unknown platform `macOS` in `platforms[1]`; did you mean `macos`?',
        '.boxwright.toml:3:1 error schema [ignore[0]] needs the key `path`',
        '.boxwright.toml:5:1 error schema unknown key `pth` in [ignore[0]]; did you mean `path`?',
        '.boxwright.toml:9:8 error schema `ignore[1].path` reaches outside the directory of .boxwright.toml (`..`): it ignores only what is below it',
        '.boxwright.toml:11:11 error schema `ignore[1].expires` is a TOML date, written without quotes: `expires = 2027-03-31`',
      ],
    );
    // A broken project file silences nothing.
    assert.ok(lines(run).includes(substitution));
    write(root, {
      '.boxwright.toml': `${ignoreOf('deny-file-substitutoin', 'sandbox/*.toml')}[[ignore]]\nrule = "x"\npath = "a/[b"\nreason = "r"\n`,
    });
    assert.deepEqual(
      lines(await lint(root, 'sandbox/agent.toml')).filter((l) => l.startsWith('.boxwright.toml')),
      ['.boxwright.toml:7:8 error schema `ignore[1].path` opens a character class with `[` (column 3 of the glob) that no `]` closes'],
    );
    write(root, { '.boxwright.toml': ignoreOf('deny-file-substitutoin', 'sandbox/*.toml') });
    assert.deepEqual(
      lines(await lint(root, 'sandbox/agent.toml')).filter((l) => l.startsWith('.boxwright.toml')),
      [
        '.boxwright.toml:2:8 warning suppression an ignore names an unknown rule `deny-file-substitutoin`; did you mean `deny-file-substitution`? (`boxwright rules` lists them): it silences nothing',
      ],
    );
  });

  it('is never read as a config: named, found in a directory, passed by the hook, or given to explain', async () => {
    const root = repo({ 'sandbox/agent.toml': boxAgent, '.boxwright.toml': 'max-warnings = 10\n' });
    for (const argv of [['.boxwright.toml'], ['.'], ['--only-configs', '.boxwright.toml', 'sandbox/agent.toml']]) {
      const run = await lint(root, ...argv);
      assert.equal(run.status, 0, `${argv.join(' ')}: ${run.stderr}`);
      assert.deepEqual(
        lines(run).filter((l) => l.startsWith('.boxwright.toml')),
        [],
        argv.join(' '),
      );
      assert.ok(
        filesOf(run).some((f) => f.path === '.boxwright.toml'),
        argv.join(' '),
      );
    }
    const explain = await cli(['explain', '--fs', machine, '.boxwright.toml'], { cwd: root, env: plainEnv() });
    assert.equal(explain.status, 1);
    assert.match(
      explain.stdout + explain.stderr,
      /boxwright's project file \(\.boxwright\.toml: ignores and lint defaults\), not a sandbox config/,
    );
  });
});

describe('.boxwright.toml defaults', () => {
  it('give the platforms and --max-warnings, and a flag on the command line wins', async () => {
    const root = repo({ 'sandbox/agent.toml': boxAgent, '.boxwright.toml': 'platforms = ["linux"]\nmax-warnings = 0\n' });
    const run = await lint(root, 'sandbox/agent.toml');
    assert.deepEqual(JSON.parse(run.stdout).platforms, ['linux']);
    assert.deepEqual(lines(run), [
      "sandbox/agent.toml:2:9 info exec-not-confined the agent's read grants are not executable on Linux (Landlock), but a program in them can still be run through the dynamic loader, which Landlock does not check (1 grant)",
      substitution,
    ]);
    assert.equal(run.stderr, 'boxwright: 1 warning exceeds --max-warnings 0\n');
    assert.equal(run.status, 1);
    const flags = await lint(root, '--platform', 'macos,linux', '--max-warnings', '1', 'sandbox/agent.toml');
    assert.deepEqual(JSON.parse(flags.stdout).platforms, ['macos', 'linux']);
    assert.equal(flags.status, 0, flags.stderr);
  });

  it('come from the command directory; standard input takes them, and no ignore names it', async () => {
    const root = repo({ '.boxwright.toml': `platforms = ["linux"]\n${ignoreOf('deny-file-substitution', '**')}` });
    const run = await cli(['lint', '--fs', machine, '--format', 'json', '-'], { cwd: root, env: plainEnv(), now, stdin: boxAgent });
    assert.deepEqual(JSON.parse(run.stdout).platforms, ['linux']);
    assert.ok(lines(run).includes(substitution.replace('sandbox/agent.toml', '<stdin>')), lines(run).join('\n'));
  });
});

describe('.boxwright.toml is trusted', () => {
  it('a write tree keeps it read-only (a host-trusted name); a grant that names it, lifting that, is reported (trusted-file-writable)', async () => {
    const root = repo({ '.boxwright.toml': 'max-warnings = 100\n' });
    const lintOf = async (writes: string): Promise<string[]> => {
      write(root, { 'agent.toml': `[agent.filesystem]\nread = ["${root}"]\nwrite = [${writes}]\n` });
      const run = await cli(['lint', '--fs', 'host', '--format', 'json', '--platform', 'linux', 'agent.toml'], {
        cwd: root,
        env: plainEnv(),
        now,
      });
      return lines(run).filter((l) => l.includes('trusted-file-writable') && l.includes('.boxwright.toml'));
    };
    assert.deepEqual(await lintOf(`"${root}"`), [], 'the tree: read-only inside it, nothing to report');
    assert.deepEqual(await lintOf(`"${root}", "${root}/.boxwright.toml"`), [
      `agent.toml:3:${14 + root.length} error trusted-file-writable the agent can write ${join(root, '.boxwright.toml')}, the repository's ` +
        'project file, .boxwright.toml, that lint takes its ignores and defaults from: one run could silence the warnings about its own grants (errors stay)',
    ]);
  });
});

describe('.boxwright.toml that cannot be taken fails the lint (exit 2), never passed over', () => {
  it('one that cannot be read: a directory by that name', async () => {
    const root = repo({ 'sandbox/agent.toml': boxAgent });
    mkdirSync(join(root, '.boxwright.toml'));
    const run = await lint(root, 'sandbox/agent.toml');
    assert.equal(run.status, 2);
    assert.equal(run.stderr, 'boxwright: cannot read .boxwright.toml: is a directory\n');
    assert.ok(lines(run).includes(substitution));
  });

  it("another user's (neither this user nor root)", async (t) => {
    const skip = requireOrSkip(process.getuid?.() === 0, 'root (to give a file to another user)', 'run the tests as root');
    if (skip) return t.skip(skip);
    const root = repo({ 'sandbox/agent.toml': boxAgent, '.boxwright.toml': ignoreOf('deny-file-substitution', '**') });
    chownSync(join(root, '.boxwright.toml'), 65534, 65534);
    const run = await lint(root, 'sandbox/agent.toml');
    assert.equal(run.status, 2);
    assert.equal(
      run.stderr,
      "boxwright: cannot read .boxwright.toml: is owned by user 65534, neither you (0) nor root: boxwright takes no ignores or defaults from another user's file\n",
    );
    assert.ok(lines(run).includes(substitution));
  });
});

describe('a path glob that can name no config below the project file is refused, with why', () => {
  it('each way to write one', () => {
    assert.deepEqual(
      ['', 'a\\b.toml', '/etc/x.toml', 'C:/x.toml', 'sandbox/', '../x.toml', 'a/./b.toml', 'a//b.toml', 'a/[b.toml'].map((g) => [
        g,
        globProblem(g),
      ]),
      [
        ['', 'is empty: a glob names config files, as `sandbox/*.toml` or `**/*.json`'],
        ['a\\b.toml', 'holds `\\`: names are separated by `/` on every platform, and a glob has no escapes'],
        ['/etc/x.toml', 'is absolute: a glob is relative to the directory of .boxwright.toml, as `etc/x.toml`'],
        ['C:/x.toml', 'is absolute: a glob is relative to the directory of .boxwright.toml, as `x.toml`'],
        ['sandbox/', 'ends with `/`: a glob names config files, not a directory; write `sandbox/**`'],
        ['../x.toml', 'reaches outside the directory of .boxwright.toml (`..`): it ignores only what is below it'],
        ['a/./b.toml', 'has an empty or `.` component: write each name once, separated by one `/`'],
        ['a//b.toml', 'has an empty or `.` component: write each name once, separated by one `/`'],
        ['a/[b.toml', 'opens a character class with `[` (column 3 of the glob) that no `]` closes'],
      ],
    );
    for (const good of ['**', './sandbox/*.toml', '.claude/settings.json', 'a/[bc].toml', 'sandbox/**/*.json'])
      assert.equal(globProblem(good), undefined, good);
  });
});

describe('the published schema', () => {
  it('docs/schema/boxwright-project.schema.json is what `boxwright schema --dialect project` prints', async () => {
    const printed = await cli(['schema', '--dialect', 'project']);
    assert.equal(readFileSync(join(repoRoot, 'docs', 'schema', 'boxwright-project.schema.json'), 'utf8'), printed.stdout);
  });
});
