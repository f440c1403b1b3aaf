// The Linux plan (model/linux-plan.ts) decides the sandbox once, from the
// model's cells; these are the places the lowering used to decide again,
// each a case that failed before the plan: a cover exactly where the
// model's cell is empty, of the kind the model says, and no cover (nor
// skeleton directories) where the model says absent.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { CompileOutcome } from '../../app/cli/compile.js';
import { linuxPlan, type PrincipalAccess } from '../../model/index.js';
import { linuxPlanOptions } from '../../targets/linux/index.js';
import { compileBytes, compileExample, exampleNames } from '../compile-helpers.js';

type Ok = Extract<CompileOutcome, { ok: true }>;
const scratch: string[] = [];
after(() => scratch.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function compile(entries: Record<string, unknown>, text: string): Promise<{ o: Ok; agent: PrincipalAccess }> {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-plan-'));
  scratch.push(dir);
  const fs = join(dir, 'machine.json');
  writeFileSync(fs, JSON.stringify({ home: '/home/u', entries }));
  const o = await compileBytes(Buffer.from(text), 'linux', { fs }, 'c.toml');
  if (!o.ok) throw new Error(`refused: ${o.reason}\n${o.check.diagnostics.map((d) => `${d.ruleId}: ${d.message}`).join('\n')}`);
  return { o, agent: o.check.model.principals.find((p) => p.principal.id === 'agent')! };
}
const planOf = (o: Ok, pa: PrincipalAccess) => linuxPlan(pa, linuxPlanOptions(o.check.ir, undefined));

describe("linux plan: one decision, the model's", () => {
  it('a deny inside a deny no mount shows is absent, in the model and the plan: no cover, no directories made for one', async () => {
    // Before: the model said `empty` at ~/t/d0/d0 (the read of ~/t/d0 above it), though that read is inside the deny of ~/t and not mounted.
    const { o, agent } = await compile(
      { '/home/u/t/d0/d0': 'dir', '/home/u/t/f0': 'file', '/usr/bin/sh': 'file' },
      '[agent.filesystem]\nread = ["/usr", "~/t/d0", "~/t/f0"]\ndeny = ["~/t", "~/t/d0/d0"]\n',
    );
    assert.equal(agent.effectiveAt('/home/u/t/d0/d0', 'linux').kind, 'absent');
    const plan = planOf(o, agent);
    assert.ok(
      !plan.mounts.some((m) => m.path.startsWith('/home/u')),
      JSON.stringify(plan.mounts.filter((m) => m.path.startsWith('/home/u'))),
    );
    assert.deepEqual(
      plan.notes.filter((n) => n.path === '/home/u/t/d0/d0').map((n) => ('fact' in n ? n.fact.why.kind : 'refused')),
      ['not-in-view'],
    );
  });

  it('a deny inside a covered deny stays inside its cover: one cover, the inner deny noted', async () => {
    const { o, agent } = await compile(
      { '/home/u/p/t/d0': 'dir', '/usr/bin/sh': 'file' },
      '[agent.filesystem]\nread = ["/usr", "~/p"]\ndeny = ["~/p/t", "~/p/t/d0"]\n',
    );
    const plan = planOf(o, agent);
    assert.deepEqual(
      plan.mounts.filter((m) => m.kind === 'empty-dir').map((m) => m.path),
      ['/home/u/p/t'],
    );
    assert.deepEqual(
      plan.notes.filter((n) => n.path === '/home/u/p/t/d0').map((n) => ('fact' in n ? n.fact.why.kind : 'refused')),
      ['inside-denied-directory'],
    );
  });

  it('a deny inside a read of /proc is covered where the model says empty (before: no cover, and the file was readable)', async () => {
    const { o, agent } = await compile(
      { '/proc/version': 'file', '/usr/bin/sh': 'file' },
      '[agent.filesystem]\nread = ["/usr", "/proc"]\ndeny = ["/proc/version"]\n',
    );
    assert.equal(agent.effectiveAt('/proc/version', 'linux').kind, 'empty');
    assert.ok(planOf(o, agent).mounts.some((m) => m.kind === 'empty-file' && m.path === '/proc/version'));
  });

  it("every example: a cover exactly where the model's cell is empty, of the kind its empty-cover fact says", async () => {
    for (const name of exampleNames) {
      const o = await compileExample(name, 'linux');
      if (!o.ok) continue;
      for (const pa of o.check.model.principals) {
        const plan = planOf(o, pa);
        const covers = new Map(plan.mounts.filter((m) => m.kind === 'empty-file' || m.kind === 'empty-dir').map((m) => [m.path, m.kind]));
        const inside = (path: string): boolean => [...covers.keys()].some((c) => path.startsWith(c + '/'));
        for (const ga of pa.grants) {
          if (ga.grant.access !== 'deny' || !ga.grant.path || !ga.applies.linux) continue;
          const cell = ga.effective.linux;
          const note = ga.notes.linux;
          if (cell.kind === 'empty' && !inside(ga.grant.path)) {
            assert.ok(note?.kind === 'empty-cover', `${name} ${pa.principal.id} ${ga.grant.path}: the model says how`);
            assert.equal(
              covers.get(ga.grant.path),
              note.of === 'file' ? 'empty-file' : 'empty-dir',
              `${name} ${pa.principal.id} ${ga.grant.path}`,
            );
          } else
            assert.ok(!covers.has(ga.grant.path), `${name} ${pa.principal.id} ${ga.grant.path}: covered, but the model says ${cell.kind}`);
        }
      }
    }
  });
});
