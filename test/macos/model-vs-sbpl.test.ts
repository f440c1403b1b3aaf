// The model against the compiled Seatbelt profiles, on configs no one wrote
// (test/generated-configs.ts: a random tree under a home as an `--fs`
// manifest, Box and TYBA configs over it): for every config macOS accepts,
// each principal's profile is read by the tests' SBPL evaluator
// (sbpl-eval.ts, written from Seatbelt's published semantics), and at
// every path of the tree, granted or not, what the profile allows (read,
// write, execute, names, metadata: sbpl-cells.ts) is compared with the
// model's macOS cell there (`effectiveAt(path, 'macos')`), and every
// explain row's macOS cell with what the profile gives at its path.
//
// No Mac runs in CI: this is the oracle of explain's macOS column, as
// test/linux/model-vs-kernel.test.ts is the kernel's of the Linux one.
//
// BOXWRIGHT_FUZZ_RUNS=N checks N configs (150 by default), from
// BOXWRIGHT_FUZZ_SEED (1 by default); config i has seed SEED+i, so a
// failure names the seed that reproduces it alone (RUNS=1 SEED=that).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileConfig } from '../../app/cli/compile.js';
import { explainMatrix } from '../../app/views/matrix.js';
import { isUnder } from '../../compiler/paths/index.js';
import { profileName } from '../../targets/macos/profile.js';
import { generateConfig, reproduction, type TreeNode } from '../generated-configs.js';
import { fuzzKnobs } from '../linux/model-vs-kernel-support.js';
import { cellDisagreement, observe, observedLegend, type ObjectKind } from './sbpl-cells.js';
import { SbplProfile } from './sbpl-eval.js';

const { runs, firstSeed, entries } = fuzzKnobs({ runs: 150, entries: 6 });
/** The run's own temp directory (TYBA's session, a Box private_tmp), as `boxwright run` passes it (sandbox-exec -D TMPDIR=…). */
const TMPDIR = '/Users/dev/.cache/boxwright/macos-runs/run-1/tmp';

interface Mismatch {
  readonly seed: number;
  readonly principal: string;
  readonly where: string;
  readonly why: string;
}

describe('the model against the Seatbelt profiles: every path of generated trees, read by the SBPL evaluator', () => {
  it(`${runs} configs from seed ${firstSeed}: each profile gives each path what the model's macOS cell says, and each explain row says what its profile gives`, async () => {
    const mismatches: Mismatch[] = [];
    const configs = new Map<number, string>();
    let accepted = 0;
    let paths = 0;
    let rows = 0;
    const dialects = { box: 0, tyba: 0 };
    for (let i = 0; i < runs; i++) {
      const seed = firstSeed + i;
      const c = generateConfig(seed, entries);
      const { check } = c;
      if (!check.model || check.verdicts.macos === 'refused') continue;
      const outcome = await compileConfig(check, 'macos', {});
      assert.ok(outcome.ok, `seed ${seed}: macOS accepts it, but it does not compile`);
      accepted++;
      dialects[c.dialect]++;
      const kindOf = new Map<string, ObjectKind>(c.nodes.map((n: TreeNode) => [n.path, n.kind]));
      // TYBA's session and a Box principal's private_tmp name it; a profile that does not ignores it.
      const params = { TMPDIR };
      const matrix = explainMatrix(check.model, check.diagnostics, check.verdicts);
      const before = mismatches.length;
      for (const pa of check.model.principals) {
        const id = pa.principal.id;
        const text = outcome.artifacts.find((a) => a.name === profileName(id))!.content as string;
        const profile = new SbplProfile(text, params);
        // The directories path resolution gives the metadata of: those leading to a granted path or the workspace.
        const named = pa.grants
          .filter(
            (ga) =>
              ga.applies.macos && ga.grant.access !== 'deny' && ga.effective.macos.kind !== 'refused' && ga.grant.path?.startsWith('/'),
          )
          .map((ga) => ga.grant.path!);
        const workspace = pa.principal.workspace?.path;
        if (workspace) named.push(workspace);
        const resolves = (p: string): boolean => p === workspace || named.some((n) => n !== p && isUnder(n, p));
        for (const node of c.nodes) {
          paths++;
          const why = cellDisagreement(
            pa.effectiveAt(node.path, 'macos'),
            observe(profile, node.path, node.kind),
            node.kind === 'dir' && resolves(node.path),
          );
          if (why) mismatches.push({ seed, principal: id, where: node.path, why });
        }
        for (const row of matrix.principals.find((m) => m.id === id)!.rows) {
          const shown = row.cells.macos.legend;
          if (!row.path || shown === 'refused' || shown === 'n/a' || shown === 'direct') continue;
          const at = row.path.startsWith('/') ? row.path : row.path === '$TMPDIR' ? TMPDIR : undefined;
          if (!at) continue;
          rows++;
          const kind = kindOf.get(at) ?? (at === TMPDIR ? 'dir' : 'absent');
          const o = observe(profile, at, kind);
          const seen = observedLegend(o);
          if (seen !== shown && !(shown === '—' && seen === 'meta' && kind === 'dir' && resolves(at)))
            mismatches.push({
              seed,
              principal: id,
              where: `explain line ${row.line ?? '(implicit)'} ${row.list} ${row.written}`,
              why: `explain says ${shown}, the profile gives ${seen}`,
            });
        }
      }
      if (mismatches.length > before) configs.set(seed, reproduction(c));
    }
    const report = mismatches.slice(0, 200).map((m) => `seed ${m.seed} ${m.principal} ${m.where}: ${m.why}`);
    for (const [s, text] of [...configs].slice(0, 10))
      report.push(`--- seed ${s} (BOXWRIGHT_FUZZ_SEED=${s} BOXWRIGHT_FUZZ_RUNS=1):\n${text}`);
    process.stderr.write(
      `model-vs-sbpl: ${runs} configs (${dialects.box} Box, ${dialects.tyba} TYBA accepted on macOS), ${paths} paths and ${rows} explain rows checked\n`,
    );
    if (report.length) process.stderr.write(report.join('\n') + '\n');
    assert.equal(
      mismatches.length,
      0,
      `${mismatches.length} disagreements in ${configs.size} configs (seeds ${[...configs.keys()].join(' ')}), listed above`,
    );
    // The generator must keep producing configs macOS accepts, of both dialects, or the test checks little.
    assert.ok(accepted >= runs / 2, `only ${accepted} of ${runs} configs were accepted on macOS`);
    if (runs >= 20) assert.ok(dialects.box > 0 && dialects.tyba > 0, `both dialects must be checked: ${JSON.stringify(dialects)}`);
  });
});
