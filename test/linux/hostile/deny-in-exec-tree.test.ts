// A deny inside an `exec` directory tree. The tree is bound read-only with
// everything in it, and the model gave the denied path no empty cover
// (only read and write trees counted as mounts above it), so the lowering
// added none: `exec = ["~/tools"]`, `deny = ["~/tools/secret"]`, and the
// workload read the secret (found by test/linux/model-vs-kernel.test.ts).
// The cover is there now; the control is the tree without it.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bare, compiled, makeLab, sandboxed, skip, type Lab } from './support.js';

describe('hostile workload: a deny inside an exec directory tree', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let config = '';
  let tools = '';
  const cat = (): string[] => ['/usr/bin/cat', join(tools, 'secret'), join(tools, 'sub', 'key')];
  before(() => {
    lab = makeLab('deny-exec');
    tools = join(lab.home, 'tools');
    mkdirSync(join(tools, 'sub'), { recursive: true });
    writeFileSync(join(tools, 'secret'), 'TOP SECRET\n');
    writeFileSync(join(tools, 'sub', 'key'), 'DEEP SECRET\n');
    writeFileSync(join(tools, 'run.sh'), '#!/bin/sh\necho tool\n', { mode: 0o755 });
    config = lab.config(
      'c.toml',
      `[agent.filesystem]\nread = ["/usr"]\nexec = [${JSON.stringify(lab.probe)}, "/usr", "~/tools"]\ndeny = ["~/tools/secret", "~/tools/sub"]\n`,
    );
  });
  after(() => lab.cleanup());

  it('the denied file reads empty and the denied directory is empty; the rest of the tree still runs', async () => {
    const r = await sandboxed(lab, config, cat());
    assert.doesNotMatch(r.stdout, /SECRET/, r.stdout + r.stderr);
    assert.match(r.stderr, /sub\/key: No such file or directory/);
    const tool = await sandboxed(lab, config, ['/usr/bin/sh', join(tools, 'run.sh')]);
    assert.equal(tool.stdout, 'tool\n', tool.stderr);
  });

  it('control: the same tree without its covers (what the lowering gave before: the config without the denies) shows both secrets', async () => {
    const open = lab.config('open.toml', `[agent.filesystem]\nread = ["/usr"]\nexec = [${JSON.stringify(lab.probe)}, "/usr", "~/tools"]\n`);
    const c = await compiled(lab, open);
    assert.ok(!c.argv.includes('--ro-bind-data') || !c.argv.includes(join(tools, 'secret')), 'no cover');
    const r = await bare(c, cat());
    assert.match(r.stdout, /TOP SECRET\nDEEP SECRET/, r.stderr);
  });
});
