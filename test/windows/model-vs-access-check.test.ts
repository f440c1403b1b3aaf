// The model against the compiled Windows ACL plan, on configs no one wrote
// (test/generated-configs.ts: a random tree under a home as an `--fs`
// manifest, Box and TYBA configs over it): for every config Windows
// accepts, the plan's steps are applied in order to a modelled profile
// holding the tree (access-check.ts), and at every path of the tree the
// access each principal's token gets (read, write, execute: Samba's check
// of the DACL, the restricting SIDs, mandatory integrity) is compared with
// the model's Windows cell there (`effectiveAt(path, 'windows')`), and
// every explain row's Windows cell with what the token gets at its path.
//
// No Windows machine runs in CI: this is the oracle of explain's Windows
// column, as test/linux/model-vs-kernel.test.ts is the kernel's of the Linux one.
//
// BOXWRIGHT_FUZZ_RUNS=N checks N configs (150 by default), from
// BOXWRIGHT_FUZZ_SEED (1 by default); config i has seed SEED+i, so a
// failure names the seed that reproduces it alone (RUNS=1 SEED=that).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileConfig } from '../../app/cli/compile.js';
import { explainMatrix } from '../../app/views/matrix.js';
import { legend, type Cell } from '../../model/cell.js';
import type { AclPlan } from '../../targets/windows/index.js';
import { generateConfig, HOME, reproduction, type GeneratedConfig } from '../generated-configs.js';
import { requireOrSkip } from '../helpers.js';
import { fuzzKnobs } from '../linux/model-vs-kernel-support.js';
import {
  accessCheck,
  FILE_EXECUTE,
  FILE_READ_DATA,
  FILE_WRITE_DATA,
  ProfileTree,
  sambaAvailable,
  sessionSid,
  type AccessQuery,
} from './access-check.js';

const skip = requireOrSkip(sambaAvailable(), 'python3-samba (Debian: apt-get install python3-samba)');
const { runs, firstSeed, entries } = fuzzKnobs({ runs: 150, entries: 6 });
/** Configs per Samba process: a bounded request, however many runs. */
const BATCH = 250;

/** The Windows spelling of a tree path: `%USERPROFILE%\…`, or the plan's own root (`%TEMP%`). */
const planPath = (posix: string): string =>
  posix === HOME
    ? '%USERPROFILE%'
    : posix.startsWith(`${HOME}/`)
      ? `%USERPROFILE%\\${posix.slice(HOME.length + 1).replace(/\//g, '\\')}`
      : posix;

interface Check {
  readonly seed: number;
  readonly principal: string;
  readonly where: string;
  /** What the model or explain says, as a legend. */
  readonly said: string;
  readonly cell?: Cell;
  readonly queries: readonly AccessQuery[];
}

interface Mismatch {
  readonly seed: number;
  readonly principal: string;
  readonly where: string;
  readonly why: string;
}

/** The checks of one config: every path of the tree and every explain row, for every principal. */
async function checksOf(c: GeneratedConfig): Promise<Check[] | undefined> {
  const { check } = c;
  if (!check.model || check.verdicts.windows === 'refused') return undefined;
  const outcome = await compileConfig(check, 'windows', {});
  assert.ok(outcome.ok, `seed ${c.seed}: Windows accepts it, but it does not compile`);
  const plan = JSON.parse(outcome.artifacts.find((a) => a.name === 'acl-plan.json')!.content as string) as AclPlan;
  const present = c.nodes.filter((n) => n.kind !== 'absent' && n.path !== HOME);
  const tree = new ProfileTree(present.map((n) => ({ rel: planPath(n.path).slice('%USERPROFILE%\\'.length), dir: n.kind === 'dir' })));
  tree.apply(plan);
  const matrix = explainMatrix(check.model, check.diagnostics, check.verdicts);
  const out: Check[] = [];
  check.model.principals.forEach((pa, i) => {
    const id = pa.principal.id;
    if (plan.principals[i]?.id !== id) throw new Error(`seed ${c.seed}: the plan's principal ${i + 1} is not ${id}`);
    const restrictingSid = sessionSid(i + 1);
    const ask = (path: string): AccessQuery[] | undefined => {
      const node = tree.find(path);
      return node && [FILE_READ_DATA, FILE_WRITE_DATA, FILE_EXECUTE].map((mask) => ({ tree, node, mask, restrictingSid }));
    };
    for (const n of [{ path: HOME }, ...present]) {
      const cell = pa.effectiveAt(n.path, 'windows');
      out.push({ seed: c.seed, principal: id, where: n.path, said: legend(cell), cell, queries: ask(planPath(n.path))! });
    }
    for (const row of matrix.principals.find((m) => m.id === id)!.rows) {
      const shown = row.cells.windows.legend;
      if (!row.path || shown === 'refused' || shown === 'n/a' || shown === 'direct') continue;
      const queries = ask(planPath(row.path));
      if (queries)
        out.push({
          seed: c.seed,
          principal: id,
          where: `explain line ${row.line ?? '(implicit)'} ${row.list} ${row.written}`,
          said: shown,
          queries,
        });
    }
  });
  return out;
}

/** What the token got, as a legend (`rwx`, `rx`, `—`). */
const seenLegend = (r: boolean, w: boolean, x: boolean): string => (r ? 'r' : '') + (w ? 'w' : '') + (x ? 'x' : '') || '—';

describe('the model against the Windows ACL plan: every path of generated trees, through an access check', {
  skip,
  timeout: 600_000,
}, () => {
  it(`${runs} configs from seed ${firstSeed}: each principal's token gets at each path what the model's Windows cell says, and each explain row says what it gets`, async () => {
    const mismatches: Mismatch[] = [];
    const failing = new Map<number, string>();
    let accepted = 0;
    let checked = 0;
    const dialects = { box: 0, tyba: 0 };
    for (let start = 0; start < runs; start += BATCH) {
      const checks: Check[] = [];
      const configs = new Map<number, GeneratedConfig>();
      for (let i = start; i < Math.min(runs, start + BATCH); i++) {
        const c = generateConfig(firstSeed + i, entries);
        const found = await checksOf(c);
        if (!found) continue;
        accepted++;
        dialects[c.dialect]++;
        configs.set(c.seed, c);
        checks.push(...found);
      }
      const answers = accessCheck(checks.flatMap((k) => k.queries));
      let a = 0;
      for (const k of checks) {
        const [r, w, x] = [answers[a++]!, answers[a++]!, answers[a++]!];
        checked++;
        const seen = seenLegend(r, w, x);
        // A path's cell: its three rights (names and metadata come with read on Windows); an explain row: its legend.
        const why = k.cell
          ? k.cell.kind === 'access'
            ? k.cell.read !== r || k.cell.write !== w || k.cell.exec !== x
              ? `the model says ${k.said}, the token gets ${seen}`
              : undefined
            : r || w || x
              ? `the model says ${k.said}, the token gets ${seen}`
              : undefined
          : seen !== k.said
            ? `explain says ${k.said}, the token gets ${seen}`
            : undefined;
        if (!why) continue;
        mismatches.push({ seed: k.seed, principal: k.principal, where: k.where, why });
        if (!failing.has(k.seed)) failing.set(k.seed, reproduction(configs.get(k.seed)!));
      }
    }
    const report = mismatches.slice(0, 200).map((m) => `seed ${m.seed} ${m.principal} ${m.where}: ${m.why}`);
    for (const [s, text] of [...failing].slice(0, 10))
      report.push(`--- seed ${s} (BOXWRIGHT_FUZZ_SEED=${s} BOXWRIGHT_FUZZ_RUNS=1):\n${text}`);
    process.stderr.write(
      `model-vs-access-check: ${runs} configs (${dialects.box} Box, ${dialects.tyba} TYBA accepted on Windows), ${checked} paths and explain rows checked\n`,
    );
    if (report.length) process.stderr.write(report.join('\n') + '\n');
    assert.equal(
      mismatches.length,
      0,
      `${mismatches.length} disagreements in ${failing.size} configs (seeds ${[...failing.keys()].join(' ')}), listed above`,
    );
    assert.ok(accepted >= runs / 2, `only ${accepted} of ${runs} configs were accepted on Windows`);
    if (runs >= 20) assert.ok(dialects.box > 0 && dialects.tyba > 0, `both dialects must be checked: ${JSON.stringify(dialects)}`);
  });
});
