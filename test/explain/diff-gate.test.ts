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

function diff(cwd: string, ...a: string[]) {
  return spawnSync(process.execPath, [bin, 'diff', ...a], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
}

const base = '[agent.filesystem]\nread = ["~/project"]\nexec = ["/usr/bin/git"]\n';
const widened = '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project"]\nexec = ["/usr/bin/git"]\n\n[tools.fetch.network]\n\n[mcp_servers.web]\ncontain_egress = false\n';

describe('diff --fail-on widen: the issue 22 reproduction', () => {
  it('--git HEAD with --fs host on a machine without ~/project: the widening is reported and fails the gate', (t) => {
    const dir = scratch(t);
    const git = (...a: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: dir });
    git('init', '-q');
    writeFileSync(join(dir, 'sandbox.toml'), base);
    git('add', 'sandbox.toml');
    git('commit', '-qm', 'base');
    writeFileSync(join(dir, 'sandbox.toml'), widened);
    // A home that does not exist (outside /tmp, which macOS spells /private/tmp): every path under it is absent, so both revisions are refused (missing-path).
    const r = diff(dir, '--git', 'HEAD', '--fail-on', 'widen', '--no-artifacts', '--home', absentHome);
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
    assert.ok(lines.includes('no change in effective access on this machine'), r.stdout);
    assert.deepEqual(section('not settled by this machine'), [
      '  macos, linux, windows: both revisions are refused with these facts (missing-path): a refused revision grants nothing here, and what it would grant on a machine that accepts it is not known here',
      '  --fail-on widen fails on this change: compare with the facts of a machine that accepts both revisions (--fs MANIFEST.json, or --fs host there)',
    ]);
    assert.equal(
      r.stderr,
      'boxwright diff: --fail-on widen fails: sandbox.toml: what is asked for widens (on every machine); sandbox.toml: this machine cannot judge the change (both revisions refused on macos, linux, windows)\n',
    );
    // The same change with facts that accept both: the machine's own widening, per platform.
    const known = diff(dir, '--git', 'HEAD', '--fail-on', 'widen', '--no-artifacts', '--fs', manifest, '--platform', 'linux');
    assert.equal(known.status, 1);
    assert.match(known.stdout, /^ {2}\+ {2}linux: the agent can now write ~\/project \(r → rw\)$/m);
    assert.doesNotMatch(known.stdout, /not settled/);
    assert.equal(known.stderr, 'boxwright diff: --fail-on widen fails: sandbox.toml: what is asked for widens (on every machine); sandbox.toml: what this machine grants widens on linux\n');
  });
});

describe('diff --fail-on widen: refused revisions on either side', () => {
  const refusedOnLinux = (extra: string) => `[agent.filesystem]\nread = ["~/project"]\n${extra}`;
  it('a head Linux refuses that widens the request fails, though Linux runs nothing of it (it said "now refused", exit 0)', (t) => {
    const dir = scratch(t);
    writeFileSync(join(dir, 'a.toml'), refusedOnLinux(''));
    // write-only: Linux refuses a write with no read over all of it.
    writeFileSync(join(dir, 'b.toml'), refusedOnLinux('write = ["~/results"]\n'));
    const r = diff(dir, '--fs', manifest, '--platform', 'linux', '--fail-on', 'widen', '--no-artifacts', 'a.toml', 'b.toml');
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stdout, /^ {2}\+ {2}the agent now asks to write ~\/results \(— → w\)$/m);
    assert.match(r.stdout, /^ {2}linux: the head revision is refused with these facts \(write-only\)/m);
    assert.equal(r.stderr, 'boxwright diff: --fail-on widen fails: b.toml: what is asked for widens (on every machine); b.toml: this machine cannot judge the change (the head refused on linux)\n');
  });
  it('a refused base: the head is compared with nothing here, and the gate fails even when the request narrows', (t) => {
    const dir = scratch(t);
    writeFileSync(join(dir, 'a.toml'), refusedOnLinux('write = ["~/results"]\n'));
    writeFileSync(join(dir, 'b.toml'), refusedOnLinux(''));
    const r = diff(dir, '--fs', manifest, '--platform', 'linux', '--fail-on', 'widen', '--no-artifacts', 'a.toml', 'b.toml');
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stdout, /^ {3}- the agent no longer asks to write ~\/results \(w → —\)$/m);
    assert.match(r.stdout, /^ {2}\+ {2}linux: the agent can now read ~\/project \(— → r\)$/m);
    assert.match(r.stdout, /^ {2}linux: the base revision is refused with these facts \(write-only\)/m);
  });
  it('a narrowing with both revisions refused here cannot be judged: the gate fails; a change that asks for the same passes', (t) => {
    const dir = scratch(t);
    const home = absentHome;
    writeFileSync(join(dir, 'a.toml'), '[agent.filesystem]\nread = ["~/project", "~/docs"]\n');
    writeFileSync(join(dir, 'b.toml'), '[agent.filesystem]\nread = ["~/project"]\n');
    writeFileSync(join(dir, 'c.toml'), '# reviewed\n[agent.filesystem]\nread = [ "~/project" ]\n');
    const narrowed = diff(dir, '--home', home, '--fail-on', 'widen', '--no-artifacts', 'a.toml', 'b.toml');
    assert.equal(narrowed.status, 1, narrowed.stdout);
    assert.match(narrowed.stdout, /^ {3}- the agent no longer asks to read ~\/docs \(r → —\)$/m);
    assert.equal(narrowed.stderr, 'boxwright diff: --fail-on widen fails: b.toml: this machine cannot judge the change (both revisions refused on macos, linux, windows)\n');
    const same = diff(dir, '--home', home, '--fail-on', 'widen', '--no-artifacts', 'b.toml', 'c.toml');
    assert.equal(same.status, 0, same.stdout + same.stderr);
    assert.equal(same.stdout, 'b.toml → c.toml\nno change in effective access, verdicts, diagnostics or artifacts\n\n');
  });
  it('--fs none: a narrowing is not settled (a machine lacking a path refuses the base alone); the same request passes', (t) => {
    const dir = scratch(t);
    writeFileSync(join(dir, 'a.toml'), '[agent.filesystem]\nread = ["~/project", "~/docs"]\n');
    writeFileSync(join(dir, 'b.toml'), '[agent.filesystem]\nread = ["~/project"]\n');
    writeFileSync(join(dir, 'c.toml'), '[agent.filesystem]\nread = ["~/project"] # the same\n');
    const r = diff(dir, '--fs', 'none', '--fail-on', 'widen', '--no-artifacts', 'a.toml', 'b.toml');
    assert.equal(r.status, 1);
    assert.match(r.stdout, /^ {2}--fs none knows no machine's facts: what a machine grants was compared as if every path named exists/m);
    assert.equal(r.stderr, 'boxwright diff: --fail-on widen fails: b.toml: this machine cannot judge the change (no machine facts on macos, linux, windows)\n');
    assert.equal(diff(dir, '--fs', 'none', '--fail-on', 'widen', '--no-artifacts', 'b.toml', 'c.toml').status, 0);
    // With facts that accept both, the narrowing passes.
    assert.equal(diff(dir, '--fs', manifest, '--fail-on', 'widen', '--no-artifacts', 'a.toml', 'b.toml').status, 1, 'examples/machine.json has no ~/docs: the base is refused there');
    writeFileSync(join(dir, 'd.toml'), '[agent.filesystem]\nread = ["~/project", "~/project/src"]\n');
    assert.equal(diff(dir, '--fs', manifest, '--fail-on', 'widen', '--no-artifacts', 'd.toml', 'b.toml').status, 0);
  });
  it('a read_file become a read widens below the path; a deny removed widens at it', (t) => {
    const dir = scratch(t);
    writeFileSync(join(dir, 'a.toml'), '[agent.filesystem]\nread = ["~/project"]\nread_file = ["~/project/src"]\ndeny = ["~/project/.env"]\n');
    writeFileSync(join(dir, 'b.toml'), '[agent.filesystem]\nread = ["~/project", "~/project/src"]\n');
    const r = diff(dir, '--fs', 'none', '--no-artifacts', 'a.toml', 'b.toml');
    assert.match(r.stdout, /^ {2}\+ {2}the agent now asks to read ~\/project\/\.env \(deny → r\)$/m);
    assert.doesNotMatch(r.stdout, /asks to read ~\/project\/src /);
    assert.doesNotMatch(r.stdout, /^ {2}\+ {2}the agent now asks to read below ~\/project\/src/m, 'the read tree above already asked for it');
  });
});

describe('diff Markdown: a change the same on several platforms is one line', () => {
  it('a widened write on all three platforms, and one that differs per platform', (t) => {
    const dir = scratch(t);
    writeFileSync(join(dir, 'a.toml'), '[agent.filesystem]\nread = ["~/project"]\n');
    writeFileSync(join(dir, 'b.toml'), '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]\n\n[tools.fetch.network]\n');
    const md = diff(dir, '--fs', manifest, '--format', 'markdown', '--no-artifacts', 'a.toml', 'b.toml').stdout;
    const access = md.slice(md.indexOf('**Effective access**'), md.indexOf('**Diagnostics**'));
    assert.deepEqual(access.trim().split('\n').slice(2), [
      '- 🔓 macos, linux: the agent can now write ~/project/output (`r` → `rw`)',
      '- 🔓 macos, linux, windows: tool `fetch` now has a direct network exception: it bypasses the gateway (`gateway` → `direct`)',
      '- 🔓 windows: the agent can now write ~/project/output (`rx` → `rwx`)',
    ]);
  });
});

describe('the request comparison bounds what a machine grants', () => {
  it('every pair of examples on the example machine: where no request widens and both revisions are accepted on a platform, nothing that platform grants widens', () => {
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
          assert.deepEqual(grown.map((c) => c.sentence), [], `${b.file} → ${a.file}`);
        }
        if (b === a) assert.deepEqual(gateFailures(d), [], b.file);
      }
    assert.ok(bounded > 100, `${bounded} pairs compared`);
  });
});

describe('the GitHub Actions example gates as it says', () => {
  it("its `--fail-on widen` step, run in a pull request's checkout with the committed manifest: a widening fails, a comment passes", (t) => {
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
    const gate = () => spawnSync('bash', ['-c', command.replace(/^boxwright /, `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} `)], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    writeFileSync(join(dir, 'sandbox', 'agent.toml'), '# reviewed\n' + base);
    assert.equal(gate().status, 0, 'a comment asks for the same');
    writeFileSync(join(dir, 'sandbox', 'agent.toml'), widened);
    const r = gate();
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^boxwright diff: --fail-on widen fails: sandbox\/agent\.toml: what is asked for widens \(on every machine\); sandbox\/agent\.toml: what this machine grants widens on macos, linux, windows\n$/);
  });
});
