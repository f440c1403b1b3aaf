import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { configReader } from '../../app/cli/options.js';
import type { CheckedPolicy } from '../../app/check.js';
import { accessDelta, gateFailures } from '../../app/views/delta.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { repoRoot } from '../helpers.js';
import { type CliRun, cli } from '../cli-in-process.js';

/**
 * The review gate (`diff --fail-on widen`) cannot fail open: a widened
 * request fails it whatever the machine's facts, and a change this machine
 * cannot judge (a side refused here, no facts) fails it too. Issue 22's
 * reproduction first: the default `--fs host` on a machine without the
 * paths said "no change in effective access", exit 0, for a change that
 * widened a write and added two direct network exceptions.
 */
const bin = join(repoRoot, 'bin', 'boxwright.cjs');
const manifest = join(repoRoot, 'examples/machine.json');
const absentHome = '/nonexistent-boxwright-test-home';

function scratch(t: { after: (f: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-gate-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** `boxwright diff` in process (test/cli-in-process.ts), in `cwd`. */
function diff(cwd: string, ...a: string[]): Promise<CliRun> {
  return cli(['diff', ...a], { cwd, env: { ...process.env, NO_COLOR: '1' } });
}

const base = '[agent.filesystem]\nread = ["~/project"]\nexec = ["/usr/bin/git"]\n';
const widened =
  '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project"]\nexec = ["/usr/bin/git"]\n\n[tools.fetch.network]\n\n[mcp_servers.web]\ncontain_egress = false\n';

describe('diff --fail-on widen: the issue 22 reproduction', () => {
  it('--git HEAD with --fs host on a machine without ~/project: the widening is reported and fails the gate', async (t) => {
    const dir = scratch(t);
    const git = (...a: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: dir });
    git('init', '-q');
    writeFileSync(join(dir, 'sandbox.toml'), base);
    git('add', 'sandbox.toml');
    git('commit', '-qm', 'base');
    writeFileSync(join(dir, 'sandbox.toml'), widened);
    // A home that does not exist (outside /tmp, which macOS spells /private/tmp): every path under it is absent, so both revisions are refused (missing-path).
    const r = await diff(dir, '--git', 'HEAD', '--fail-on', 'widen', '--no-artifacts', '--home', absentHome);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const lines = r.stdout.split('\n');
    const section = (title: string) => {
      const i = lines.indexOf(title);
      assert.ok(i >= 0, `no section ${title}:\n${r.stdout}`);
      const out: string[] = [];
      for (let j = i + 1; j < lines.length && lines[j]!.startsWith('  '); j++) out.push(lines[j]!);
      return out;
    };
    assert.deepEqual(section('requested (the same on every machine)'), [
      '  +  the agent now asks to write ~/project (r → rw)',
      '  +  MCP server `web` now asks for a direct network exception: it bypasses the gateway (gateway → direct)',
      '  +  tool `fetch` now asks for a direct network exception: it bypasses the gateway (gateway → direct)',
    ]);
    assert.ok(lines.includes('no change in effective file access on this machine'), r.stdout);
    assert.deepEqual(section('not settled by this machine'), [
      '  macos, linux, windows: both revisions are refused with these facts (missing-path): a refused revision grants nothing here, and what it would grant on a machine that accepts it is not known here',
      '  --fail-on widen fails on this change: compare with the facts of a machine that accepts both revisions (--fs MANIFEST.json, or --fs host there)',
    ]);
    assert.equal(
      r.stderr,
      'boxwright diff: --fail-on widen fails: sandbox.toml: what is asked for widens (on every machine); sandbox.toml: this machine cannot judge the change (both revisions refused on macos, linux, windows)\n',
    );
    // The same change with facts that accept both: the machine's own widening, per platform.
    const known = await diff(dir, '--git', 'HEAD', '--fail-on', 'widen', '--no-artifacts', '--fs', manifest, '--platform', 'linux');
    assert.equal(known.status, 1);
    assert.match(known.stdout, /^ {2}\+ {2}linux: the agent can now write ~\/project \(r → rw\)$/m);
    assert.doesNotMatch(known.stdout, /not settled/);
    assert.equal(
      known.stderr,
      'boxwright diff: --fail-on widen fails: sandbox.toml: what is asked for widens (on every machine); sandbox.toml: what this machine grants widens on linux\n',
    );
  });
});

describe('diff --fail-on widen: refused revisions on either side', () => {
  const refusedOnLinux = (extra: string) => `[agent.filesystem]\nread = ["~/project"]\n${extra}`;
  it('a head Linux refuses that widens the request fails, though Linux runs nothing of it (it said "now refused", exit 0)', async (t) => {
    const dir = scratch(t);
    writeFileSync(join(dir, 'a.toml'), refusedOnLinux(''));
    // write-only: Linux refuses a write with no read over all of it.
    writeFileSync(join(dir, 'b.toml'), refusedOnLinux('write = ["~/results"]\n'));
    const r = await diff(dir, '--fs', manifest, '--platform', 'linux', '--fail-on', 'widen', '--no-artifacts', 'a.toml', 'b.toml');
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stdout, /^ {2}\+ {2}the agent now asks to write ~\/results \(— → w\)$/m);
    assert.match(r.stdout, /^ {2}linux: the head revision is refused with these facts \(write-only\)/m);
    assert.equal(
      r.stderr,
      'boxwright diff: --fail-on widen fails: b.toml: what is asked for widens (on every machine); b.toml: this machine cannot judge the change (the head refused on linux)\n',
    );
  });
  it('a refused base: the head is compared with nothing here, and the gate fails even when the request narrows', async (t) => {
    const dir = scratch(t);
    writeFileSync(join(dir, 'a.toml'), refusedOnLinux('write = ["~/results"]\n'));
    writeFileSync(join(dir, 'b.toml'), refusedOnLinux(''));
    const r = await diff(dir, '--fs', manifest, '--platform', 'linux', '--fail-on', 'widen', '--no-artifacts', 'a.toml', 'b.toml');
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stdout, /^ {3}- the agent no longer asks to write ~\/results \(w → —\)$/m);
    assert.match(r.stdout, /^ {2}\+ {2}linux: the agent can now read ~\/project \(— → r\)$/m);
    assert.match(r.stdout, /^ {2}linux: the base revision is refused with these facts \(write-only\)/m);
  });
  it('a narrowing with both revisions refused here cannot be judged: the gate fails; a change that asks for the same passes', async (t) => {
    const dir = scratch(t);
    const home = absentHome;
    writeFileSync(join(dir, 'a.toml'), '[agent.filesystem]\nread = ["~/project", "~/docs"]\n');
    writeFileSync(join(dir, 'b.toml'), '[agent.filesystem]\nread = ["~/project"]\n');
    writeFileSync(join(dir, 'c.toml'), '# reviewed\n[agent.filesystem]\nread = [ "~/project" ]\n');
    const narrowed = await diff(dir, '--home', home, '--fail-on', 'widen', '--no-artifacts', 'a.toml', 'b.toml');
    assert.equal(narrowed.status, 1, narrowed.stdout);
    assert.match(narrowed.stdout, /^ {3}- the agent no longer asks to read ~\/docs \(r → —\)$/m);
    assert.equal(
      narrowed.stderr,
      'boxwright diff: --fail-on widen fails: b.toml: this machine cannot judge the change (both revisions refused on macos, linux, windows)\n',
    );
    const same = await diff(dir, '--home', home, '--fail-on', 'widen', '--no-artifacts', 'b.toml', 'c.toml');
    assert.equal(same.status, 0, same.stdout + same.stderr);
    assert.equal(same.stdout, 'b.toml → c.toml\nno change in effective access, verdicts, diagnostics or artifacts\n\n');
  });
  it('--fs none: a narrowing is not settled (a machine lacking a path refuses the base alone); the same request passes', async (t) => {
    const dir = scratch(t);
    writeFileSync(join(dir, 'a.toml'), '[agent.filesystem]\nread = ["~/project", "~/docs"]\n');
    writeFileSync(join(dir, 'b.toml'), '[agent.filesystem]\nread = ["~/project"]\n');
    writeFileSync(join(dir, 'c.toml'), '[agent.filesystem]\nread = ["~/project"] # the same\n');
    const r = await diff(dir, '--fs', 'none', '--fail-on', 'widen', '--no-artifacts', 'a.toml', 'b.toml');
    assert.equal(r.status, 1);
    assert.match(r.stdout, /^ {2}--fs none knows no machine's facts: what a machine grants was compared as if every path named exists/m);
    assert.equal(
      r.stderr,
      'boxwright diff: --fail-on widen fails: b.toml: this machine cannot judge the change (no machine facts on macos, linux, windows)\n',
    );
    assert.equal((await diff(dir, '--fs', 'none', '--fail-on', 'widen', '--no-artifacts', 'b.toml', 'c.toml')).status, 0);
    // With facts that accept both, the narrowing passes.
    assert.equal(
      (await diff(dir, '--fs', manifest, '--fail-on', 'widen', '--no-artifacts', 'a.toml', 'b.toml')).status,
      1,
      'examples/machine.json has no ~/docs: the base is refused there',
    );
    writeFileSync(join(dir, 'd.toml'), '[agent.filesystem]\nread = ["~/project", "~/project/src"]\n');
    assert.equal((await diff(dir, '--fs', manifest, '--fail-on', 'widen', '--no-artifacts', 'd.toml', 'b.toml')).status, 0);
  });
  it('a read_file become a read widens below the path; a deny removed widens at it', async (t) => {
    const dir = scratch(t);
    writeFileSync(
      join(dir, 'a.toml'),
      '[agent.filesystem]\nread = ["~/project"]\nread_file = ["~/project/src"]\ndeny = ["~/project/.env"]\n',
    );
    writeFileSync(join(dir, 'b.toml'), '[agent.filesystem]\nread = ["~/project", "~/project/src"]\n');
    const r = await diff(dir, '--fs', 'none', '--no-artifacts', 'a.toml', 'b.toml');
    assert.match(r.stdout, /^ {2}\+ {2}the agent now asks to read ~\/project\/\.env \(deny → r\)$/m);
    assert.doesNotMatch(r.stdout, /asks to read ~\/project\/src /);
    assert.doesNotMatch(
      r.stdout,
      /^ {2}\+ {2}the agent now asks to read below ~\/project\/src/m,
      'the read tree above already asked for it',
    );
  });
});

describe('diff Markdown: a change the same on several platforms is one line', () => {
  it('a widened write on all three platforms, and one that differs per platform', async (t) => {
    const dir = scratch(t);
    writeFileSync(join(dir, 'a.toml'), '[agent.filesystem]\nread = ["~/project"]\n');
    writeFileSync(join(dir, 'b.toml'), '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]\n\n[tools.fetch.network]\n');
    const md = (await diff(dir, '--fs', manifest, '--format', 'markdown', '--no-artifacts', 'a.toml', 'b.toml')).stdout;
    const access = md.slice(md.indexOf('**Effective access**'), md.indexOf('**Diagnostics**'));
    assert.deepEqual(access.trim().split('\n').slice(2), [
      '- 🔓 macos, linux: the agent can now write ~/project/output (`r` → `rw`)',
      '- 🔓 macos, linux, windows: tool `fetch` now has a direct network exception: it bypasses the gateway (`gateway` → `direct`)',
      '- 🔓 windows: the agent can now write ~/project/output (`rx` → `rwx`)',
    ]);
  });
});

describe('the request comparison bounds what a machine grants', () => {
  it('every pair of examples on the example machine: where no request widens and both revisions are accepted on a platform, nothing that platform grants widens', async () => {
    const reader = configReader({ fs: manifest, worktree: '/home/dev/project' });
    const checked = readdirSync(join(repoRoot, 'examples'))
      .filter((f) => f.endsWith('.toml'))
      .map((f) => reader.check(readFileSync(join(repoRoot, 'examples', f)), f))
      .filter((c): c is CheckedPolicy => !!c.ir && c.dialect === 'box');
    assert.ok(checked.length > 20);
    let bounded = 0;
    for (const b of checked)
      for (const a of checked) {
        const d = accessDelta(b, a, PLATFORMS);
        if (d.requested.some((c) => c.widens)) continue;
        for (const platform of PLATFORMS) {
          if (b.verdicts[platform] === 'refused' || a.verdicts[platform] === 'refused') continue;
          bounded++;
          const grown = d.changes.filter((c) => c.platform === platform && c.widens);
          assert.deepEqual(
            grown.map((c) => c.sentence),
            [],
            `${b.file} → ${a.file}`,
          );
        }
        if (b === a) assert.deepEqual(gateFailures(d), [], b.file);
      }
    assert.ok(bounded > 100, `${bounded} pairs compared`);
  });
});

describe('the GitHub Actions example gates as it says', () => {
  it("its `--fail-on widen` step, run in a pull request's checkout with the committed manifest: a widening fails, a comment passes", async (t) => {
    const workflow = readFileSync(join(repoRoot, 'examples/ci/github-actions.yml'), 'utf8');
    const step = workflow.split('\n').find((l) => /^\s*run: boxwright diff .*--fail-on widen/.test(l));
    assert.ok(step, 'the workflow has a gate step');
    const command = step.replace(/^\s*run:\s*/, '').replace(/\$\{\{ github\.base_ref \}\}/g, 'main');
    assert.match(command, /^boxwright diff --fs sandbox\/machine\.json --git "origin\/main" --fail-on widen --no-artifacts$/);
    const dir = scratch(t);
    const git = (...a: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: dir });
    git('init', '-q');
    execFileSync('mkdir', ['-p', join(dir, 'sandbox')]);
    writeFileSync(join(dir, 'sandbox', 'machine.json'), readFileSync(manifest));
    writeFileSync(join(dir, 'sandbox', 'agent.toml'), base);
    git('add', '-A');
    git('commit', '-qm', 'base');
    git('update-ref', 'refs/remotes/origin/main', 'HEAD');
    // Spawned on purpose: the workflow's line as CI's shell runs it (its quoting), and the real binary's exit status the job sees.
    const gate = () =>
      spawnSync('bash', ['-c', command.replace(/^boxwright /, `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} `)], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
    writeFileSync(join(dir, 'sandbox', 'agent.toml'), '# reviewed\n' + base);
    assert.equal(gate().status, 0, 'a comment asks for the same');
    writeFileSync(join(dir, 'sandbox', 'agent.toml'), widened);
    const r = gate();
    assert.equal(r.status, 1);
    assert.match(
      r.stderr,
      /^boxwright diff: --fail-on widen fails: sandbox\/agent\.toml: what is asked for widens \(on every machine\); sandbox\/agent\.toml: what this machine grants widens on macos, linux, windows\n$/,
    );
  });
});

/**
 * Issue 21, Done-when item 2: lifting a host-trusted carve-out (a write
 * grant naming `~/project/.git`, or a path inside it, in a write tree that
 * kept it read-only) is a widening in `diff`, whatever the machine: the
 * request is compared with each write tree's host-trusted paths carved
 * out, as every platform gives them (model/requested.ts). Before, the
 * request compared `write ~/project` with `write ~/project, ~/project/.git`
 * as the same, so a machine that refused both revisions (no ~/project)
 * passed the gate: "both revisions ask for the same".
 */
describe('diff --fail-on widen: lifting a host-trusted carve-out widens', () => {
  const tree = '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project"]\n';
  const lifted = '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project", "~/project/.git"]\n';
  it('a write grant naming ~/project/.git: a requested widening on a machine that refuses both revisions, with no facts, and with facts that accept both', async (t) => {
    const dir = scratch(t);
    writeFileSync(join(dir, 'a.toml'), tree);
    writeFileSync(join(dir, 'b.toml'), lifted);
    const line = /^ {2}\+ {2}the agent now asks to write ~\/project\/\.git \(r → rw\)$/m;
    const refused = await diff(dir, '--home', absentHome, '--fail-on', 'widen', '--no-artifacts', 'a.toml', 'b.toml');
    assert.equal(refused.status, 1, refused.stdout + refused.stderr);
    assert.match(refused.stdout, line);
    assert.doesNotMatch(refused.stdout, /ask for the same/);
    assert.equal(
      refused.stderr,
      'boxwright diff: --fail-on widen fails: b.toml: what is asked for widens (on every machine); b.toml: this machine cannot judge the change (both revisions refused on macos, linux, windows)\n',
    );
    const none = await diff(dir, '--fs', 'none', '--fail-on', 'widen', '--no-artifacts', 'a.toml', 'b.toml');
    assert.equal(none.status, 1);
    assert.match(none.stdout, line);
    // examples/machine.json has ~/project/.git: every platform's grant widens there too.
    const known = await diff(dir, '--fs', manifest, '--fail-on', 'widen', '--no-artifacts', 'a.toml', 'b.toml');
    assert.equal(known.status, 1);
    assert.match(known.stdout, line);
    assert.match(known.stdout, /^ {2}\+ {2}macos, linux: the agent can now write ~\/project\/\.git \(r → rw\)$/m);
    assert.equal(
      known.stderr,
      'boxwright diff: --fail-on widen fails: b.toml: what is asked for widens (on every machine); b.toml: what this machine grants widens on macos, linux, windows\n',
    );
    // The lift given up is a narrowing, which facts that accept both revisions settle: the gate passes.
    const back = await diff(dir, '--fs', manifest, '--fail-on', 'widen', '--no-artifacts', 'b.toml', 'a.toml');
    assert.equal(back.status, 0, back.stdout + back.stderr);
    assert.match(back.stdout, /^ {3}- the agent no longer asks to write ~\/project\/\.git \(rw → r\)$/m);
  });
  it('what lifts one: a write_file of a home start-up file, a hook inside a lifted .git, a tree inside .git; a read of one asks for the same', async (t) => {
    const dir = scratch(t);
    const cases: [string, string, RegExp][] = [
      [
        'read = ["~"]\nwrite = ["~"]\n',
        'read = ["~"]\nwrite = ["~"]\nwrite_file = ["~/.bashrc"]\n',
        /^ {2}\+ {2}the agent now asks to write ~\/\.bashrc \(r → rw\)$/m,
      ],
      [
        'read = ["~"]\nwrite = ["~"]\n',
        'read = ["~"]\nwrite = ["~", "~/.local/bin"]\n',
        /^ {2}\+ {2}the agent now asks to write ~\/\.local\/bin \(r → rw\)$/m,
      ],
      [
        'read = ["~/project"]\nwrite = ["~/project/.git"]\n',
        'read = ["~/project"]\nwrite = ["~/project/.git", "~/project/.git/hooks"]\n',
        /^ {2}\+ {2}the agent now asks to write ~\/project\/\.git\/hooks \(r → rw\)$/m,
      ],
      [
        'read = ["~/project"]\nwrite = ["~/project"]\n',
        'read = ["~/project"]\nwrite = ["~/project", "~/project/.git/objects"]\n',
        /^ {2}\+ {2}the agent now asks to write ~\/project\/\.git\/objects \(r → rw\)$/m,
      ],
      [
        'read = ["~/project"]\nwrite = ["~/project"]\n',
        'read = ["~/project"]\nwrite = ["~/project"]\nwrite_file = ["~/project/.vscode/tasks.json"]\n',
        /^ {2}\+ {2}the agent now asks to write ~\/project\/\.vscode\/tasks\.json \(r → rw\)$/m,
      ],
    ];
    for (const [before, after, line] of cases) {
      writeFileSync(join(dir, 'a.toml'), `[agent.filesystem]\n${before}`);
      writeFileSync(join(dir, 'b.toml'), `[agent.filesystem]\n${after}`);
      const r = await diff(dir, '--home', absentHome, '--fail-on', 'widen', '--no-artifacts', 'a.toml', 'b.toml');
      assert.equal(r.status, 1, after);
      assert.match(r.stdout, line, r.stdout);
      assert.match(r.stderr, /what is asked for widens \(on every machine\)/, after);
    }
    // A read grant of a carve-out asks for no write: the same request (and, with facts that accept both, the same grant).
    writeFileSync(join(dir, 'a.toml'), `[agent.filesystem]\n${tree.split('\n').slice(1).join('\n')}`);
    writeFileSync(join(dir, 'b.toml'), '[agent.filesystem]\nread = ["~/project", "~/project/.git"]\nwrite = ["~/project"]\n');
    const same = await diff(dir, '--fs', manifest, '--fail-on', 'widen', '--no-artifacts', 'a.toml', 'b.toml');
    assert.equal(same.status, 0, same.stdout + same.stderr);
    assert.doesNotMatch(same.stdout, /^requested/m);
  });
  it('the config in its own write tree (attack 3): a write_file of it, under diff --git, is a requested widening', async (t) => {
    const dir = scratch(t);
    const git = (...a: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: dir });
    git('init', '-q');
    const own = (extra: string) => `[agent.filesystem]\nread = [${JSON.stringify(dir)}]\nwrite = [${JSON.stringify(dir)}]\n${extra}`;
    writeFileSync(join(dir, 'sandbox.toml'), own(''));
    git('add', 'sandbox.toml');
    git('commit', '-qm', 'base');
    writeFileSync(join(dir, 'sandbox.toml'), own(`write_file = [${JSON.stringify(join(dir, 'sandbox.toml'))}]\n`));
    const r = await diff(dir, '--git', 'HEAD', '--fs', 'none', '--fail-on', 'widen', '--no-artifacts', '--platform', 'linux');
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.ok(r.stdout.split('\n').includes(`  +  the agent now asks to write ${join(dir, 'sandbox.toml')} (r → rw)`), r.stdout);
    assert.match(r.stderr, /what is asked for widens \(on every machine\)/);
  });
  it('on a machine with the paths, no effective widening goes without a requested one (lifts, start-up files, a worktree .git)', async (t) => {
    const dir = scratch(t);
    const machine = JSON.parse(readFileSync(manifest, 'utf8')) as { entries: Record<string, unknown> };
    Object.assign(machine.entries, {
      '/home/dev/.bashrc': 'file',
      '/home/dev/.local/bin': 'dir',
      '/home/dev/project/.vscode/tasks.json': 'file',
      '/home/dev/project/.envrc': 'file',
      '/home/dev/project/sub/.git/config': 'file',
      '/home/dev/project/sub/.git/hooks': 'dir',
    });
    const fs = join(dir, 'machine.json');
    writeFileSync(fs, JSON.stringify(machine));
    const reader = configReader({ fs });
    const bodies = [
      'read = ["~/project"]\nwrite = ["~/project"]\n',
      'read = ["~/project"]\nwrite = ["~/project", "~/project/.git"]\n',
      'read = ["~/project"]\nwrite = ["~/project", "~/project/.git/hooks"]\n',
      'read = ["~/project"]\nwrite = ["~/project", "~/project/.git/objects"]\n',
      'read = ["~/project"]\nwrite = ["~/project"]\nwrite_file = ["~/project/.git/config", "~/project/.envrc"]\n',
      'read = ["~/project"]\nwrite = ["~/project", "~/project/.vscode"]\n',
      'read = ["~/project"]\nwrite = ["~/project/sub"]\n',
      'read = ["~/project"]\nwrite = ["~/project/sub", "~/project/sub/.git"]\n',
      'read = ["~"]\nwrite = ["~"]\n',
      'read = ["~"]\nwrite = ["~", "~/.local/bin"]\nwrite_file = ["~/.bashrc"]\n',
    ];
    const checked = bodies
      .map((b, i) => reader.check(new TextEncoder().encode(`[agent.filesystem]\n${b}`), `c${i}.toml`))
      .filter((c): c is CheckedPolicy => !!c.ir);
    assert.equal(checked.length, bodies.length);
    let bounded = 0;
    let lifts = 0;
    for (const b of checked)
      for (const a of checked) {
        const d = accessDelta(b, a, PLATFORMS);
        if (d.requested.some((c) => c.widens)) {
          lifts++;
          continue;
        }
        for (const platform of PLATFORMS) {
          if (b.verdicts[platform] === 'refused' || a.verdicts[platform] === 'refused') continue;
          bounded++;
          assert.deepEqual(
            d.changes.filter((c) => c.platform === platform && c.widens).map((c) => c.sentence),
            [],
            `${b.file} → ${a.file}`,
          );
        }
      }
    assert.ok(bounded > 50 && lifts > 20, `${bounded} compared, ${lifts} widened requests`);
  });
});
