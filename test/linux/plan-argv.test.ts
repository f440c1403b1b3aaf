// The argv is the plan spelled, and nothing else: every example's
// compiled `.bwrap.args`, read back (view-from-argv.ts, the tests' reader
// of bubblewrap options), shows exactly the plan's mounts, working
// directory and empty-file descriptors (targets/linux/model/plan.ts). And the C
// launcher's own checks (targets/linux/launcher/bwrap-argv.c: it runs
// without Node, so it keeps them) are held to the plan: on a real disk,
// its rewrite of a compiled argv mounts every bind of the plan from a
// descriptor that is the planned path, every cover from /dev/null, itself
// at the in-sandbox path, and nothing the plan does not hold.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compileConfig, type CompileOutcome } from '../../app/cli/compile.js';
import { configReader } from '../../app/cli/options.js';
import { linuxPlan } from '../../targets/linux/model/plan.js';
import { linuxPlanOptions, parseArgsFile, SANDBOX_EXEC_PATH } from '../../targets/linux/index.js';
import { runView, type RunView, type ViewMount } from '../../targets/linux/view.js';
import { compileExample, exampleNames } from '../compile-helpers.js';
import { requireOrSkip } from '../helpers.js';
import { splitOptions } from './bwrap-options.js';
import { cc, rewriteDriver, type RewriteDriver } from './rewrite-argv.js';
import { viewFromArgv, type ReadMount } from './view-from-argv.js';

type Compiled = Extract<CompileOutcome, { ok: true }>;

const argvOf = (outcome: Compiled, id: string): string[] => {
  const a = outcome.artifacts.find((x) => x.name === `${id}.bwrap.args`)!.content;
  return parseArgsFile(typeof a === 'string' ? Buffer.from(a) : a);
};
const planOf = (outcome: Compiled, id: string) =>
  linuxPlan(outcome.check.model.principals.find((p) => p.principal.id === id)!, linuxPlanOptions(outcome.check.ir, undefined));
/** A mount read back, as the run view holds it (no descriptor number); the in-sandbox step is the launcher's, not the view's. */
const asView = (ops: readonly ReadMount[]): ViewMount[] =>
  ops.filter((o) => o.path !== SANDBOX_EXEC_PATH).map((o) => (o.kind === 'empty-file' ? { kind: o.kind, path: o.path } : o));
const readBack = (argv: readonly string[]): RunView => {
  const v = viewFromArgv(argv);
  return { mounts: asView(v.ops), ...(v.chdir !== undefined ? { chdir: v.chdir } : {}) };
};

describe('linux plan: the argv of every example is its plan spelled', () => {
  for (const name of exampleNames) {
    it(name, async () => {
      const outcome = await compileExample(name, 'linux');
      if (!outcome.ok) return; // Linux refuses it: no argv (goldens.test.ts holds that)
      for (const pa of outcome.check.model.principals) {
        const id = pa.principal.id;
        const argv = argvOf(outcome, id);
        const plan = planOf(outcome, id);
        assert.deepEqual(readBack(argv), runView(plan), `${id}: what bubblewrap mounts is what the plan says`);
        const read = viewFromArgv(argv);
        const covers = plan.mounts.filter((m) => m.kind === 'empty-file').map((m) => m.path);
        assert.deepEqual(
          read.ops.filter((o) => o.kind === 'empty-file').map((o) => o.path),
          covers,
          `${id}: one empty-file descriptor per planned cover`,
        );
        assert.equal(read.dataFds.length, covers.length);
      }
    });
  }
});

describe("linux plan: the C launcher's argv rewrite holds to the plan", {
  skip: requireOrSkip(!!cc, "a C compiler (gcc: the launcher's bwrap-argv.c)"),
}, () => {
  let home = '';
  let driver: RewriteDriver;
  let outcome: Compiled;
  before(async () => {
    driver = rewriteDriver();
    home = realpathSync(mkdtempSync(join(tmpdir(), 'boxwright-plan-argv-')));
    for (const d of ['p/hidden', 'p/out/deep', 'p/out/.git', 'work']) mkdirSync(join(home, d), { recursive: true });
    writeFileSync(join(home, 'p', 'secret.txt'), 'secret');
    writeFileSync(join(home, 'p', 'out', 'deep', 'key'), 'key');
    writeFileSync(join(home, 'q.txt'), 'q');
    const text = [
      '[agent.filesystem]',
      'read = ["/usr", "~/p"]',
      'write = ["~/p/out"]',
      'deny = ["~/p/secret.txt", "~/p/hidden", "~/p/out/deep/key"]',
      'read_file = ["~/q.txt"]',
      'exec = ["/usr/bin/true"]',
      '[tools.fmt.filesystem]',
      'read = ["~/p"]',
      'workspace = "~/work"',
      '',
    ].join('\n');
    const o = await compileConfig(configReader({ fs: 'host', home }).check(Buffer.from(text), join(home, 'c.toml')), 'linux', {});
    assert.ok(o.ok, 'the lab config compiles');
    outcome = o;
  });
  after(() => {
    driver?.cleanup();
    rmSync(home, { recursive: true, force: true });
  });

  it('every planned mount, and only those, in the rewritten argv; each bind from a descriptor that is the planned path', () => {
    for (const pa of outcome.check.model.principals) {
      const id = pa.principal.id;
      const plan = planOf(outcome, id);
      const r = driver.rewrite(argvOf(outcome, id));
      assert.ok(r.ok, `${id}: the launcher accepts its own compiled argv: ${r.ok ? '' : r.message}`);
      const split = splitOptions(r.argv);
      for (const { option, operands } of split) {
        assert.ok(option !== '--bind' && option !== '--ro-bind', `${id}: ${option} ${operands[0]}: binds by path left in the run's argv`);
        if (option === '--bind-fd' || option === '--ro-bind-fd') {
          if (operands[1] === SANDBOX_EXEC_PATH)
            assert.match(operands[0]!, /^fd:.*rewrite-argv$/, "the in-sandbox step: the launcher's own file");
          else assert.equal(operands[0], `fd:${operands[1]}`, `${id}: the descriptor bound at ${operands[1]} is that very path`);
        }
        if (option === '--ro-bind-data') assert.equal(operands[0], 'fd:/dev/null', `${id}: the cover of ${operands[1]} is empty`);
        if (option === '--seccomp') assert.equal(operands[0], 'fd:/dev/null', 'the seccomp program the launcher was given');
      }
      assert.equal(split.filter((s) => s.option === '--seccomp').length, 1);
      const exec = split.findIndex((s) => s.operands[1] === SANDBOX_EXEC_PATH);
      assert.ok(
        exec > 0 && split[exec - 1]!.option !== '--perms',
        'a bind takes no --perms: the compiled one before the in-sandbox step goes',
      );
      assert.deepEqual(readBack(r.argv), runView(plan), `${id}: the launcher mounts what the plan says`);
      assert.ok(plan.mounts.some((m) => m.kind === 'bind' && m.write) || id !== 'agent', 'the lab has a writable bind');
    }
    const agent = planOf(outcome, 'agent');
    for (const kind of ['bind', 'empty-file', 'empty-dir', 'symlink'] as const)
      assert.ok(
        agent.mounts.some((m) => m.kind === kind),
        `the lab plans a ${kind}`,
      );
    assert.ok(
      planOf(outcome, 'tool.fmt').mounts.some((m) => m.kind === 'dir'),
      'the lab plans a created workspace',
    );
  });

  it('its own checks refuse what no plan spells: an option that reads a descriptor, an unknown option, a truncated one', () => {
    const base = argvOf(outcome, 'agent');
    const refused = (argv: readonly string[], why: RegExp): void => {
      const r = driver.rewrite(argv);
      assert.ok(!r.ok && !r.changed, JSON.stringify(argv.slice(0, 3)));
      assert.match(r.message, why);
    };
    refused(['--bind-fd', '9', '/x', ...base], /a compiled view does not use --bind-fd/);
    refused(['--overlay-src', '/x', ...base], /is not an option a compiled view holds/);
    refused([...base, '--bind', '/usr'], /--bind needs 2 operands/);
    refused([...base, '--seccomp', '4'], /more than one --seccomp/);
  });
});
