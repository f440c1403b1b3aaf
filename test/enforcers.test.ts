// Issue 38, "the peers' enforcers are a registry of the same shape": the
// model asks the enforcers' registry (model/enforcers.ts) which enforcer
// holds a config, by its dialect; and what TYBA's sandbox holds beyond its
// grants is facts of the IR (`holds`), which the model reads instead of
// testing the dialect.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PolicyIR } from '../compiler/ir/types.js';
import type { Dialect } from '../compiler/schema/validate.js';
import { enforcerOf, enforcers } from '../model/enforcers.js';
import { effectiveAccess, legend } from '../model/index.js';
import { platformModels } from '../targets/units.js';
import { lintText } from './lint-helpers.js';

const box = '[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/project/private"]\n';
const tyba = '[sandbox]\nread_allow = ["~/datasets"]\n';

function irOf(text: string): PolicyIR {
  const r = lintText(text);
  assert.ok(r.ir, `front end failed: ${r.diagnostics.map((d) => d.message).join('; ')}`);
  return r.ir;
}

describe('the enforcers are a registry', () => {
  it('each dialect the model is asked about has exactly its one enforcer', () => {
    const expected: Readonly<Record<string, keyof typeof enforcers>> = {
      box: 'boxwright',
      tyba: 'boxwright',
      srt: 'sandbox-runtime',
      claude: 'sandbox-runtime',
      codex: 'codex',
    };
    for (const [dialect, kind] of Object.entries(expected)) assert.equal(enforcerOf(dialect as Dialect), enforcers[kind], dialect);
  });

  it('a dialect no enforcer claims (linted only) is refused loudly, not given another enforcer', () => {
    for (const dialect of ['cursor', 'vscode'] as const) assert.throws(() => enforcerOf(dialect), /0 enforcers claim the dialect/);
  });
});

describe("TYBA's sandbox is facts of the IR, not a dialect the model tests", () => {
  it("a TYBA session's IR carries what its sandbox holds; a Box config's none", () => {
    assert.deepEqual(irOf(tyba).holds, { metadataEverywhere: true, secretsClosed: true, denialsBeatPermissions: true });
    assert.equal(irOf(box).holds, undefined);
  });

  it('the model follows the facts whatever the dialect: metadata everywhere, closed secrets', () => {
    const boxIR = irOf(box);
    const tybaIR = irOf(tyba);
    const asTyba = effectiveAccess({ ...boxIR, holds: tybaIR.holds! }, platformModels);
    const plain = effectiveAccess(boxIR, platformModels);
    assert.deepEqual(plain.principals[0]!.elsewhere.macos.fact, { kind: 'ungranted', regime: 'seatbelt' });
    assert.deepEqual(asTyba.principals[0]!.elsewhere.macos.fact, { kind: 'ungranted', regime: 'seatbelt-metadata' });
    assert.equal(plain.secrets.macos.length, 0);
    assert.ok(asTyba.secrets.macos.length > 0, 'the listed secrets are closed on macOS where the IR says so');
    // A deny closes the content only where every path's metadata is visible.
    const deny = (m: ReturnType<typeof effectiveAccess>) => m.principals[0]!.grants.find((g) => g.grant.access === 'deny')!.effective.macos;
    assert.equal(deny(plain).kind, 'denied');
    const contentOnly = deny(asTyba);
    assert.ok(contentOnly.kind === 'access' && contentOnly.meta && !contentOnly.read && !contentOnly.write, legend(contentOnly));
    // And the other way: a TYBA session whose IR said nothing would get Box's Seatbelt.
    const { holds: _none, ...bare } = tybaIR;
    const tybaBare = effectiveAccess(bare, platformModels);
    assert.deepEqual(tybaBare.principals[0]!.elsewhere.macos.fact, { kind: 'ungranted', regime: 'seatbelt' });
    assert.equal(tybaBare.secrets.macos.length, 0);
  });
});
