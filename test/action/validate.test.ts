import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../helpers.js';

/**
 * action.yml and the workflows the project shows, checked by
 * @action-validator/cli (the schemas of SchemaStore, compiled to WebAssembly:
 * it ships in the package and fetches nothing). The CLI decides by the
 * file's name: `action.yml` is checked as an action, anything else as a
 * workflow.
 */
const validator = join(repoRoot, 'node_modules', '@action-validator', 'cli', 'cli.mjs');

function validate(file: string) {
  const r = spawnSync(process.execPath, [validator, file], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, output: r.stdout + r.stderr };
}

function scratch(t: { after: (f: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-validate-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The YAML block of a README section. */
function readmeYaml(section: string): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n### ${section}\n`);
  assert.ok(start >= 0, `README has no section ${section}`);
  const block = /^```yaml\n([\s\S]*?)^```$/m.exec(readme.slice(start));
  assert.ok(block, `the ${section} section has no yaml block`);
  return block[1]!;
}

describe('@action-validator/cli', () => {
  it('action.yml validates as an action', () => {
    const r = validate(join(repoRoot, 'action.yml'));
    assert.equal(r.status, 0, r.output);
  });

  it('it fails an action.yml with a run step that has no shell (what composite actions require): the check can fail', (t) => {
    const broken = readFileSync(join(repoRoot, 'action.yml'), 'utf8').replace('      shell: bash\n', '');
    assert.notEqual(broken, readFileSync(join(repoRoot, 'action.yml'), 'utf8'));
    const file = join(scratch(t), 'action.yml');
    writeFileSync(file, broken);
    const r = validate(file);
    assert.equal(r.status, 1, r.output);
    assert.match(r.output, /"path": "\/runs\/steps\/0\/shell"/);
  });

  it("the README's workflow that uses the Action, and the example CI workflow, validate as workflows", (t) => {
    const file = join(scratch(t), 'readme-workflow.yml');
    const workflow = readmeYaml('GitHub Action');
    assert.match(workflow, /uses: boxwright\/boxwright@[0-9a-f]{40} /);
    writeFileSync(file, workflow);
    const readme = validate(file);
    assert.equal(readme.status, 0, readme.output);
    const example = validate(join(repoRoot, 'examples/ci/github-actions.yml'));
    assert.equal(example.status, 0, example.output);
  });
});
