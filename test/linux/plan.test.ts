// The Linux plan (targets/linux/model/plan.ts) decides the sandbox once, from the
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
import type { PrincipalAccess } from '../../model/index.js';
import { linuxPlan } from '../../targets/linux/model/plan.js';
import { linuxPlanOptions, lowerPrincipal } from '../../targets/linux/index.js';
import { lowerLandlock } from '../../targets/linux/landlock/lower.js';
import { compileBytes, compileExample, compileText, exampleNames } from '../compile-helpers.js';

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

  it("what a path holds, a file or a tree, is the plan's: one answer for its bind and its execute rule (before: a tool's read of a socket was a file to the bind and a tree to the exec rule)", async () => {
    // A tool's content grants are executable. The old exec rule gave the socket read_dir in
    // <id>.landlock.json, which the helper never applies (landlock.c keeps a file's rights on a
    // non-directory: the kernel refuses more, EINVAL): the artifact said more than the sandbox did.
    const { o } = await compile(
      { '/home/u/run/s': 'socket', '/home/u/bin/tool': 'file', '/home/u/lib': 'dir', '/usr/bin/sh': 'file', '/usr/bin/black': 'file' },
      '[agent.filesystem]\nread = ["/usr"]\n[tools.fmt]\ncommand = "black ."\n[tools.fmt.filesystem]\nread = ["/usr", "~/run/s", "~/bin/tool", "~/lib"]\n',
    );
    const tool = o.check.model.principals.find((p) => p.principal.id === 'tool.fmt')!;
    const plan = planOf(o, tool);
    const shapes = (rows: readonly { path: string; shape: string }[]) =>
      Object.fromEntries(rows.filter((r) => r.path.startsWith('/home/u')).map((r) => [r.path, r.shape]));
    const want = { '/home/u/run/s': 'file', '/home/u/bin/tool': 'file', '/home/u/lib': 'tree' };
    assert.deepEqual(shapes(plan.exec), want);
    assert.deepEqual(shapes(plan.mounts.flatMap((m) => (m.kind === 'bind' ? [m] : []))), want);
    const { ruleset } = lowerLandlock(tool, lowerPrincipal(tool, linuxPlanOptions(o.check.ir, undefined)), o.check.ir.linux.loaders);
    const rights = (path: string) => [...new Set(ruleset.fs.filter((r) => r.path === path).flatMap((r) => r.rights))].sort();
    assert.deepEqual(rights('/home/u/run/s'), ['execute', 'read_file']);
    assert.deepEqual(rights('/home/u/bin/tool'), ['execute', 'read_file']);
    assert.deepEqual(rights('/home/u/lib'), ['execute', 'read_dir', 'read_file']);
  });

  it("private_tmp: the model gives the principal /tmp of its own and none of the host's files there, the plan a tmpfs and TMPDIR; others nothing", async () => {
    const { o, agent } = await compile(
      { '/home/u/p': 'dir', '/tmp/shared/f': 'file', '/tmp/other-run': 'file', '/usr/bin/sh': 'file' },
      '[agent.filesystem]\nread = ["/usr", "~/p", "/tmp/shared"]\nprivate_tmp = true\n\n[tools.t.filesystem]\nread = ["/usr"]\n',
    );
    const legendAt = (pa: PrincipalAccess, path: string): string => {
      const c = pa.effectiveAt(path, 'linux');
      return c.kind === 'access' ? `${c.read ? 'r' : ''}${c.write ? 'w' : ''}` : c.kind;
    };
    assert.equal(legendAt(agent, '/tmp'), 'rw');
    // The cells are the host's paths: another run's file in the host's /tmp is not there (what the run makes is its tmpfs's).
    assert.equal(legendAt(agent, '/tmp/other-run'), 'absent', "the host's file in /tmp is not in the view");
    assert.equal(legendAt(agent, '/tmp/shared/f'), 'r', 'a grant below /tmp: the host directory bound inside the tmpfs, read-only');
    const tool = o.check.model.principals.find((p) => p.principal.id === 'tool.t')!;
    assert.equal(legendAt(tool, '/tmp'), 'absent', 'the default: Linux omits ungranted paths');
    const plan = planOf(o, agent);
    assert.deepEqual(
      plan.mounts.filter((m) => m.path === '/tmp' || m.path.startsWith('/tmp/')).map((m) => `${m.kind} ${m.path}`),
      ['tmpfs /tmp', 'bind /tmp/shared'],
    );
    assert.equal(plan.tmpdir?.path, '/tmp');
    const argv = lowerPrincipal(agent, linuxPlanOptions(o.check.ir, undefined)).argv.map((a) => a.arg);
    assert.ok(argv.join(' ').includes('--setenv TMPDIR /tmp') && argv.join(' ').includes('--tmpfs /tmp'));
    assert.ok(!planOf(o, tool).mounts.some((m) => m.path === '/tmp'));
    // A grant of /tmp itself beside it: refused on Linux, pointed at the key.
    const both = await compileText('[agent.filesystem]\nread = ["/usr", "/tmp"]\nprivate_tmp = true\n', 'linux');
    assert.equal(both.check.verdicts.linux, 'refused');
    const d = both.check.diagnostics.find((x) => x.ruleId === 'private-temp' && x.severity === 'error')!;
    assert.equal(d.span.start.line, 2);
    assert.equal(d.related?.[0]?.span.start.line, 3);
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
