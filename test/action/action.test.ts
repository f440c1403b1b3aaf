import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../helpers.js';
import { type ActionRun, readYaml, runScripts } from './composite.js';
import { narrowed, pullRequest, step, why, widened } from './pull-request.js';

/**
 * The GitHub Action (action.yml, issue 40): its `run:` steps run for real,
 * as the runner runs them (test/action/composite.ts), against a scratch
 * pull request (test/action/pull-request.ts). The action's own path is
 * this checkout, already built. The two `uses:` steps (setup-node,
 * upload-sarif) cannot run here: the test checks whether they would and
 * what they would receive. The build from a bare checkout is
 * test/action/action-build.test.ts.
 */
const action = readYaml(readFileSync(join(repoRoot, 'action.yml'), 'utf8'));

const outcomes = (run: ActionRun) => Object.fromEntries(run.steps.map((s) => [s.name, s.outcome]));

interface Sarif {
  version: string;
  runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
}
function sarifOf(run: ActionRun): Sarif {
  const file = run.outputs['sarif-file'];
  assert.ok(file, `no sarif-file output\n${why(run)}`);
  const upload = step(run, 'Upload SARIF to code scanning');
  assert.equal(upload.outcome, 'not-run-here');
  assert.deepEqual(upload.with, { sarif_file: file, category: 'boxwright', token: 'a-token' });
  return JSON.parse(readFileSync(file, 'utf8')) as Sarif;
}
const uris = (s: Sarif) => [...new Set(s.runs[0]!.results.map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri))].sort();

describe('the Action on a pull request, its steps run against a scratch repository', () => {
  it('a widening: SARIF for the upload, the diff in the job summary, and the job fails', (t) => {
    const pr = pullRequest(t, action, { 'sandbox/agent.toml': widened });
    const run = pr.run({ fs: 'sandbox/machine.json' });
    assert.deepEqual(
      outcomes(run),
      {
        'Check the Node.js version': 'success',
        'Set up Node.js': 'skipped',
        'Build boxwright': 'success',
        'Lint the sandbox configs': 'success',
        'Upload SARIF to code scanning': 'not-run-here',
        'Diff effective access against the base': 'failure',
      },
      why(run),
    );
    assert.equal(step(run, 'Diff effective access against the base').status, 1);
    assert.ok(run.failed);
    assert.deepEqual(run.outputs, { 'sarif-file': run.outputs['sarif-file'], widened: 'true' });
    const sarif = sarifOf(run);
    assert.equal(sarif.version, '2.1.0');
    assert.deepEqual(uris(sarif), ['sandbox/agent.toml'], 'URIs relative to the work tree, as code scanning wants them');
    assert.ok(run.outputs['sarif-file']!.startsWith(join(pr.dir, 'runner-temp')), 'the SARIF log is written in RUNNER_TEMP');
    assert.match(run.summary, /^## boxwright diff$/m);
    assert.ok(run.summary.includes('- 🔓 macos, linux: the agent can now write ~/project (`r` → `rw`)'), run.summary);
    assert.match(
      step(run, 'Diff effective access against the base').stderr,
      /--fail-on widen fails: sandbox\/agent\.toml: what is asked for widens/,
    );
    // The shallow checkout fetched the base commit it compared with.
    execFileSync('git', ['cat-file', '-e', `${pr.baseSha}^{commit}`], { cwd: pr.workspace });
    // The text lint in the log, for a reader of the job.
    assert.match(step(run, 'Lint the sandbox configs').stdout, /^sandbox\/agent\.toml \(box\): macos accepted/m);
  });

  it('a narrowing passes, with the diff in the summary; fail-on never passes a widening and still says widened', (t) => {
    const narrow = pullRequest(t, action, { 'sandbox/agent.toml': narrowed }).run({ fs: 'sandbox/machine.json' });
    assert.equal(narrow.failed, false, why(narrow));
    assert.equal(narrow.outputs.widened, 'false');
    assert.ok(narrow.summary.includes('- 🔒 macos, linux: the agent can no longer write ~/project/output (`rw` → `r`)'), narrow.summary);
    const never = pullRequest(t, action, { 'sandbox/agent.toml': widened }).run({ fs: 'sandbox/machine.json', 'fail-on': 'never' });
    assert.equal(never.failed, false, why(never));
    assert.equal(never.outputs.widened, 'true');
    assert.match(never.summary, /🔓/);
  });

  it('without facts (fs none, the default) the gate cannot settle a narrowing and fails: it never passes what it cannot judge', (t) => {
    const run = pullRequest(t, action, { 'sandbox/agent.toml': narrowed }).run();
    assert.equal(step(run, 'Diff effective access against the base').status, 1, why(run));
    assert.equal(run.outputs.widened, 'true');
    assert.match(run.summary, /Not settled by this machine/);
  });

  it('a runner without Node.js: setup-node would set up Node.js 22; nothing after the build runs without it', (t) => {
    const bin = mkdtempSync(join(tmpdir(), 'boxwright-action-path-'));
    t.after(() => rmSync(bin, { recursive: true, force: true }));
    // A PATH with bash and nothing else: no node on it.
    symlinkSync(execFileSync('bash', ['-c', 'command -v bash'], { encoding: 'utf8' }).trim(), join(bin, 'bash'));
    const run = pullRequest(t, action, { 'sandbox/agent.toml': widened }, repoRoot, { PATH: bin }).run();
    assert.match(
      step(run, 'Check the Node.js version').stdout,
      /Node\.js not found is older than 20\.19: setting up Node\.js 22/,
      why(run),
    );
    assert.deepEqual(step(run, 'Set up Node.js').with, { 'node-version': '22' });
    assert.deepEqual(outcomes(run), {
      'Check the Node.js version': 'success',
      'Set up Node.js': 'not-run-here',
      'Build boxwright': 'failure',
      'Lint the sandbox configs': 'skipped',
      'Upload SARIF to code scanning': 'skipped',
      'Diff effective access against the base': 'skipped',
    });
  });

  it('a push: lint and the upload, no diff and no summary', (t) => {
    const run = pullRequest(t, action, { 'sandbox/agent.toml': widened }).run({}, 'push');
    assert.equal(run.failed, false, why(run));
    assert.equal(step(run, 'Diff effective access against the base').outcome, 'success');
    assert.match(step(run, 'Diff effective access against the base').stdout, /not a pull request and no base-ref: no diff/);
    assert.equal(run.summary, '');
    assert.equal(run.outputs.widened, '');
    assert.deepEqual(uris(sarifOf(run)), ['sandbox/agent.toml']);
  });

  it('a refused config fails the lint step, and the SARIF is still uploaded and the diff still runs', (t) => {
    const run = pullRequest(t, action, {
      'sandbox/agent.toml': narrowed,
      'sandbox/broken.toml': '[agent.filesystem]\nread = ["~/project"\n',
    }).run({
      fs: 'sandbox/machine.json',
      annotations: 'true',
    });
    assert.equal(step(run, 'Lint the sandbox configs').status, 1, why(run));
    assert.match(
      step(run, 'Lint the sandbox configs').stdout,
      /^::error file=sandbox\/broken\.toml,/m,
      'annotations: true prints workflow commands',
    );
    assert.ok(sarifOf(run).runs[0]!.results.some((r) => r.ruleId === 'toml-syntax'));
    assert.equal(step(run, 'Diff effective access against the base').outcome, 'failure', 'a new config with errors cannot be judged');
    assert.ok(run.failed);
  });

  it('paths and working-directory choose what is linted; a bad input is an error, never a pass', (t) => {
    const pr = pullRequest(t, action, { 'sandbox/agent.toml': narrowed, 'other/agent.toml': widened });
    const one = pr.run({ fs: 'sandbox/machine.json', paths: ' sandbox/agent.toml\n' });
    assert.deepEqual(uris(sarifOf(one)), ['sandbox/agent.toml'], why(one));
    const inside = pr.run({ fs: 'machine.json', 'working-directory': 'sandbox' });
    assert.deepEqual(uris(sarifOf(inside)), ['sandbox/agent.toml'], 'URIs stay relative to the top of the work tree');
    assert.equal(inside.outputs.widened, 'true', 'the diff covers the whole repository: other/agent.toml is new and widens');
    const none = pr.run({ paths: '  \n ' });
    assert.equal(step(none, 'Lint the sandbox configs').status, 2);
    assert.match(step(none, 'Lint the sandbox configs').stdout, /::error title=boxwright::paths names nothing to lint/);
    const failOn = pr.run({ fs: 'sandbox/machine.json', 'fail-on': 'sometimes' });
    assert.equal(step(failOn, 'Diff effective access against the base').status, 2);
    assert.equal(failOn.outputs.widened, '');
    const annotations = pr.run({ annotations: 'yes' });
    assert.equal(step(annotations, 'Lint the sandbox configs').status, 2);
    const upload = pr.run({ 'advanced-security': 'false' });
    assert.equal(step(upload, 'Upload SARIF to code scanning').outcome, 'skipped');
  });
});

describe('the Action and hostile names: a pull request chooses its file names and branch, the workflow its inputs', () => {
  it('file names with a command substitution, a line break and an HTML comment are data: nothing runs, the summary keeps its shape', (t) => {
    const names = ['sandbox/$(touch pwned).toml', 'sandbox/x\n### forged: no change.toml', 'sandbox/<!-- hide.toml', 'sandbox/`code`.toml'];
    // And a path inside a config that would end a list item and open an HTML comment.
    const paths = 'sandbox/paths.toml';
    const hostilePath = '[agent.filesystem]\nread = ["~/project", "~/project/a\\n- 🔒 nothing widens <!--"]\n';
    const pr = pullRequest(t, action, { ...Object.fromEntries(names.map((n) => [n, widened])), [paths]: hostilePath });
    const run = pr.run({ fs: 'sandbox/machine.json' });
    for (const where of [pr.workspace, join(pr.workspace, 'sandbox'), repoRoot, process.cwd()])
      assert.equal(existsSync(join(where, 'pwned')), false, `a name was executed in ${where}`);
    assert.deepEqual(uris(sarifOf(run)).map(decodeURIComponent), [...names, 'sandbox/agent.toml', paths].sort());
    assert.equal(step(run, 'Diff effective access against the base').status, 1, why(run));
    const lines = run.summary.split('\n');
    // A new file is compared with nothing at the base: `SHA:path (absent)`.
    const heading = (name: string) => {
      const code = (s: string) => (s.includes('`') ? `\`\`${s}\`\`` : `\`${s}\``);
      const shown = name.replace(/\n/g, '\\n');
      return `### ${code(`${pr.baseSha}:${shown} (absent)`)} → ${code(shown)}`;
    };
    assert.deepEqual(lines.filter((l) => l.startsWith('### ')).sort(), [...names, paths].map(heading).sort());
    assert.ok(run.summary.includes('~/project/a\\n- 🔒 nothing widens &lt;!--'), run.summary);
    assert.ok(!lines.some((l) => l.startsWith('- 🔒 nothing widens')));
    assert.ok(!lines.some((l) => l.includes('<!--') && !l.startsWith('### `')), 'no HTML comment outside a code span');
  });

  it('a base-ref that is a command substitution or an option is refused, never executed', (t) => {
    const pr = pullRequest(t, action, { 'sandbox/agent.toml': narrowed });
    const substitution = pr.run({ fs: 'sandbox/machine.json', 'base-ref': '$(touch pwned)' });
    assert.notEqual(step(substitution, 'Diff effective access against the base').status, 0);
    const option = pr.run({ fs: 'sandbox/machine.json', 'base-ref': '--upload-pack=touch pwned' });
    assert.equal(step(option, 'Diff effective access against the base').status, 2);
    assert.match(step(option, 'Diff effective access against the base').stdout, /base-ref is not a revision: it starts with -/);
    for (const where of [pr.workspace, repoRoot, process.cwd()]) assert.equal(existsSync(join(where, 'pwned')), false);
    // A base-ref that names a branch the checkout lacks is fetched, as the pull request's base SHA is.
    const branch = pr.run({ fs: 'sandbox/machine.json', 'base-ref': 'main' });
    assert.equal(branch.failed, false, why(branch));
    assert.equal(branch.outputs.widened, 'false');
  });

  it('no run: script holds an expression: every value reaches the scripts through env', () => {
    const scripts = runScripts(action);
    assert.ok(scripts.length >= 4);
    for (const s of scripts) assert.doesNotMatch(s.run, /\$\{\{/, s.name);
  });

  it('every action it uses is pinned by a full commit SHA, with the version in a comment', () => {
    const uses = readFileSync(join(repoRoot, 'action.yml'), 'utf8')
      .split('\n')
      .filter((l) => /^\s*(- )?uses:/.test(l));
    assert.equal(uses.length, 2);
    for (const l of uses) assert.match(l, /uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
  });
});
