// The Windows access check (access-check.ts) on hand-written plans: one
// test per point it implements (test/windows/README.md cites each), so
// that the differential test (model-vs-access-check.test.ts) rests on an
// evaluator whose own reading is checked. The DACL is Samba's to judge.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { requireOrSkip } from '../helpers.js';
import {
  accessCheck,
  FILE_EXECUTE,
  FILE_READ_DATA,
  FILE_WRITE_DATA,
  ProfileTree,
  sambaAvailable,
  sessionSid,
  type Step,
} from './access-check.js';

const skip = requireOrSkip(sambaAvailable(), 'python3-samba (Debian: apt-get install python3-samba)');

const objects = [
  { rel: 'p', dir: true },
  { rel: 'p\\f', dir: false },
  { rel: 'p\\d', dir: true },
  { rel: 'p\\d\\g', dir: false },
  { rel: 'q', dir: true },
  { rel: 'q\\h', dir: false },
];
let n = 0;
const step = (action: Step['action'], path: string, sddl: string, extra: Partial<Step> = {}): Step => ({
  id: `step-${++n}`,
  action,
  path,
  sddl,
  perFile: false,
  ...extra,
});
const writeTree = (path: string, sid = '*SESSION_SID_1*'): Step[] => [
  step('grant-write', path, `(A;OICI;0x1301bf;;;${sid})`),
  step('label-low', path, 'S:(ML;OICI;NW;;;LW)'),
];

type Rights = Record<string, string>;
interface Scenario {
  readonly steps: readonly Step[];
  readonly rels: readonly string[];
  readonly who: number;
  result?: Rights;
}
const scenarios: Scenario[] = [];
/** read, write, execute of each object for principal `who`, once the plan's steps are applied: answered in one batch (`before`). */
function rights(steps: readonly Step[], rels: readonly string[], who = 1): () => Rights {
  const s: Scenario = { steps, rels, who };
  scenarios.push(s);
  return () => s.result!;
}

/** Every scenario's answers, in one batch (Samba's Python bindings take half a second to load). */
function answerAll(): void {
  if (skip) return;
  const masks = [FILE_READ_DATA, FILE_WRITE_DATA, FILE_EXECUTE];
  const queries = scenarios.flatMap((s) => {
    const tree = new ProfileTree(objects);
    tree.apply({ steps: s.steps });
    const at = (rel: string) => tree.find(rel ? `%USERPROFILE%\\${rel}` : '%USERPROFILE%')!;
    return s.rels.flatMap((rel) => masks.map((mask) => ({ tree, node: at(rel), mask, restrictingSid: sessionSid(s.who) })));
  });
  const ok = accessCheck(queries);
  let k = 0;
  for (const s of scenarios)
    s.result = Object.fromEntries(s.rels.map((rel) => [rel, ['r', 'w', 'x'].map((l) => (ok[k++] ? l : '-')).join('')]));
}

const unlabelled = rights([], ['p', 'p\\f']);
const tree = rights(writeTree('%USERPROFILE%\\p'), ['p', 'p\\f', 'p\\d', 'p\\d\\g', 'q']);
const aceAlone = rights(writeTree('%USERPROFILE%\\p').slice(0, 1), ['p\\f']);
const labelAlone = rights(writeTree('%USERPROFILE%\\p').slice(1), ['p\\f']);
const otherPrincipal = rights(writeTree('%USERPROFILE%\\p'), ['p\\f'], 2);
const low = step('label-low', '%USERPROFILE%\\p', 'S:(ML;OICI;NW;;;LW)');
const oi = rights([step('grant-write', '%USERPROFILE%\\p', '(A;OI;0x1301bf;;;*SESSION_SID_1*)'), low], ['p', 'p\\f', 'p\\d', 'p\\d\\g']);
const ci = rights([step('grant-write', '%USERPROFILE%\\p', '(A;CI;0x1301bf;;;*SESSION_SID_1*)'), low], ['p\\f', 'p\\d', 'p\\d\\g']);
const np = rights([step('grant-write', '%USERPROFILE%\\p', '(A;OICINP;0x1301bf;;;*SESSION_SID_1*)'), low], ['p\\d', 'p\\d\\g']);
const io = rights([step('grant-write', '%USERPROFILE%\\p', '(A;OICIIO;0x1301bf;;;*SESSION_SID_1*)'), low], ['p', 'p\\f']);
const denyAce = rights(
  [step('grant-write', '%USERPROFILE%\\p', '(D;OICI;0x2;;;*SESSION_SID_1*)'), ...writeTree('%USERPROFILE%\\p')],
  ['p\\f'],
);
const denyLabel = (policy: string): Step =>
  step('deny-read', '%USERPROFILE%\\p', `S:(ML;OICI;${policy};;;ME)`, { fileSddl: `S:(ML;;${policy};;;ME)`, perFile: true });
const nrnw = rights([...writeTree('%USERPROFILE%\\p'), denyLabel('NRNW')], ['p', 'p\\f', 'p\\d\\g', 'q']);
const nrnwnx = rights([denyLabel('NRNWNX')], ['p\\f', 'p\\d']);
const inheritedLabel = rights(
  [...writeTree('%USERPROFILE%\\p'), step('deny-read', '%USERPROFILE%\\p\\d', 'S:(ML;OICI;NRNW;;;ME)')],
  ['p\\d\\g', 'p\\f'],
);

describe('Windows access check: the plan applied to a modelled profile', { skip }, () => {
  before(answerAll);

  it('an unlabelled profile: a Low token reads and runs, and cannot write (no-write-up), though the DACL lets the user write', () => {
    assert.deepEqual(unlabelled(), { p: 'r-x', 'p\\f': 'r-x' });
  });

  it('a write tree needs both the ACE for the session SID (the restricting check) and the Low label (integrity)', () => {
    assert.deepEqual(tree(), { p: 'rwx', 'p\\f': 'rwx', 'p\\d': 'rwx', 'p\\d\\g': 'rwx', q: 'r-x' });
    assert.deepEqual(aceAlone(), { 'p\\f': 'r-x' }, 'the ACE without the label: no-write-up');
    assert.deepEqual(labelAlone(), { 'p\\f': 'r-x' }, 'the label without the ACE: the restricting SID has no access');
    assert.deepEqual(otherPrincipal(), { 'p\\f': 'r-x' }, "another principal's session SID");
  });

  it('inheritance: OI reaches files, CI directories, NP one level, IO keeps the ACE off its own object', () => {
    assert.deepEqual(oi(), { p: 'rwx', 'p\\f': 'rwx', 'p\\d': 'r-x', 'p\\d\\g': 'rwx' });
    assert.deepEqual(ci(), { 'p\\f': 'r-x', 'p\\d': 'rwx', 'p\\d\\g': 'r-x' });
    assert.deepEqual(np(), { 'p\\d': 'rwx', 'p\\d\\g': 'r-x' });
    assert.deepEqual(io(), { p: 'r-x', 'p\\f': 'rwx' });
  });

  it('Samba judges the DACL: a deny ACE of the session SID refuses the write the allow ACE gave', () => {
    assert.deepEqual(denyAce(), { 'p\\f': 'r-x' });
  });

  it('a label on the object and, recursively, on each object below: no-read-up and no-write-up shut a Low token out; execution only with no-execute-up', () => {
    assert.deepEqual(nrnw(), { p: '--x', 'p\\f': '--x', 'p\\d\\g': '--x', q: 'r-x' });
    assert.deepEqual(nrnwnx(), { 'p\\f': '---', 'p\\d': '---' });
    // A label set on the directory alone is inherited by what lies below (OICI), unless an object has its own.
    assert.deepEqual(inheritedLabel(), { 'p\\d\\g': '--x', 'p\\f': 'rwx' });
  });

  it('the roots: %APPDATA% and %TEMP% are below %USERPROFILE%, and a step on an object the tree lacks changes nothing', () => {
    const t = new ProfileTree([]);
    assert.equal(t.find('%TEMP%')?.rel, 'AppData\\Local\\Temp');
    assert.equal(t.find('%APPDATA%\\gnupg'), undefined);
    t.apply({ steps: [step('deny-read', '%APPDATA%\\gnupg', 'S:(ML;OICI;NRNW;;;ME)', { perFile: true })] });
  });
});
