// The macOS notes the Seatbelt profile writes beside a grant's rule
// (`;; config line N: list = "…"; macOS: …`) are the model's facts, and
// explain's macOS cell for that grant says each of them too: one fact, worded
// by its rule, read by both. Before, the profile wrote notes of its own ("a
// deny below covers it", "absent today") that explain never said.
//
// Every example, and BOXWRIGHT_FUZZ_RUNS generated configs (40 by default).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileConfig } from '../../app/cli/compile.js';
import type { CheckResult } from '../../app/check.js';
import { explainMatrix } from '../../app/views/matrix.js';
import { profileName } from '../../targets/macos/profile.js';
import { commentText } from '../../targets/macos/sbpl.js';
import { compileExample, exampleNames } from '../compile-helpers.js';
import { generateConfig } from '../generated-configs.js';
import { fuzzKnobs } from '../linux/model-vs-kernel-support.js';

const { runs, firstSeed, entries } = fuzzKnobs({ runs: 40, entries: 6 });

/** A grant rule's comment with a macOS note: its line, list, written value and the note. */
const noted = /^;; config line (\d+): ([a-z_]+) = ("(?:[^"\\]|\\.)*"); macOS: (.*)$/;

interface Note {
  readonly line: number;
  readonly list: string;
  readonly written: string;
  readonly text: string;
}

function profileNotes(profile: string): Note[] {
  const out: Note[] = [];
  for (const l of profile.split('\n')) {
    const m = noted.exec(l);
    if (m) out.push({ line: Number(m[1]), list: m[2]!, written: JSON.parse(m[3]!) as string, text: m[4]! });
  }
  return out;
}

/** Where a profile's note is not among explain's words for the grant's macOS cell; and how many notes were checked. */
function unexplained(
  check: CheckResult,
  artifacts: readonly { name: string; content: unknown }[],
  what: string,
): { missing: string[]; notes: number } {
  const matrix = explainMatrix(check.model!, check.diagnostics, check.verdicts);
  const missing: string[] = [];
  let notes = 0;
  for (const pm of matrix.principals) {
    const profile = artifacts.find((a) => a.name === profileName(pm.id))?.content as string;
    for (const n of profileNotes(profile)) {
      notes++;
      const row = pm.rows.find((r) => r.line === n.line && r.list === n.list && r.written === n.written);
      const cell = row?.cells.macos;
      const said = [cell?.note, ...(cell?.disclosures ?? [])].filter((x) => !!x).map((x) => commentText(x!.text));
      if (!said.includes(n.text))
        missing.push(
          `${what} ${pm.id} line ${n.line} ${n.list} ${JSON.stringify(n.written)}: the profile says "${n.text}", explain ${said.length ? `says ${said.map((s) => `"${s}"`).join(', ')}` : 'says nothing'}`,
        );
    }
  }
  return { missing, notes };
}

describe('macOS: the profile notes a grant with the model facts explain shows', () => {
  it('every example: each "macOS: …" note of a profile is in explain’s macOS cell of that grant', async () => {
    const missing: string[] = [];
    let notes = 0;
    for (const name of exampleNames) {
      const o = await compileExample(name, 'macos');
      if (!o.ok) continue;
      const r = unexplained(o.check, o.artifacts, name);
      missing.push(...r.missing);
      notes += r.notes;
    }
    assert.deepEqual(missing, []);
    assert.ok(notes >= 3, `only ${notes} notes in the examples' profiles: the check checks little`);
  });

  it(`${runs} generated configs from seed ${firstSeed}: the same`, async () => {
    const missing: string[] = [];
    for (let i = 0; i < runs; i++) {
      const seed = firstSeed + i;
      const { check } = generateConfig(seed, entries);
      if (!check.model || check.verdicts.macos === 'refused') continue;
      const o = await compileConfig(check, 'macos', {});
      assert.ok(o.ok, `seed ${seed}: macOS accepts it, but it does not compile`);
      missing.push(...unexplained(check, o.artifacts, `seed ${seed}`).missing);
    }
    assert.deepEqual(missing, []);
  });
});
