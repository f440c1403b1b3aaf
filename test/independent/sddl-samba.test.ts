// The Windows plan's SDDL against independent readers. Allow ACEs: parsed by
// Samba's SDDL parser (python3-samba), field by field against the tests'
// own reader, and round-tripped through Samba's writer and parser. Mandatory
// label ACEs, which Samba 4.17 does not parse: the tests' own reader, field
// by field, against the documented encoding (SYSTEM_MANDATORY_LABEL_ACE:
// NW 0x1, NR 0x2, NX 0x4; LW S-1-16-4096, ME S-1-16-8192).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AclPlan } from '../../targets/windows/index.js';
import { compileExample, exampleNames } from '../compile-helpers.js';
import { requireOrSkip } from '../helpers.js';
import { parseAce, parseSddl, type Ace } from '../windows/sddl.js';
import { hasPythonModule, python } from './tools.js';

const samba = hasPythonModule('samba.dcerpc.security');

/** What Samba reads in `D:` + ACE: its own rendering and the ACE's fields. */
interface SambaAce {
  readonly sddl: string;
  readonly ok: boolean;
  readonly error?: string;
  readonly canonical?: string;
  readonly reparsed?: string;
  readonly type?: number;
  readonly flags?: number;
  readonly mask?: number;
  readonly sid?: string;
}

const sambaReader = String.raw`
import json, sys
from samba.dcerpc import security
domain = security.dom_sid('S-1-5-21-1000-2000-3000')
out = []
for ace in json.load(sys.stdin):
    try:
        sd = security.descriptor.from_sddl('D:' + ace, domain)
        if sd.dacl is None or sd.dacl.num_aces != 1:
            raise ValueError('not one ACE')
        a = sd.dacl.aces[0]
        canonical = sd.as_sddl(domain)
        again = security.descriptor.from_sddl(canonical, domain).as_sddl(domain)
        out.append(dict(sddl=ace, ok=True, canonical=canonical, reparsed=again, type=int(a.type), flags=int(a.flags), mask=int(a.access_mask), sid=str(a.trustee)))
    except Exception as e:
        out.append(dict(sddl=ace, ok=False, error=type(e).__name__ + ': ' + str(e)))
print(json.dumps(out))
`;

function readWithSamba(aces: readonly string[]): SambaAce[] {
  const r = python(sambaReader, JSON.stringify(aces));
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as SambaAce[];
}

/** Samba's ACE type and flag numbers (librpc/idl/security.idl), for the codes the plan uses. */
const SEC_ACE_TYPE_ACCESS_ALLOWED = 0;
const flagBits: Record<string, number> = { OI: 0x1, CI: 0x2, NP: 0x4, IO: 0x8, ID: 0x10 };

/** Problems between Samba's reading of an ACE and ours; empty when they agree. */
function disagreements(s: SambaAce, ours: Ace): string[] {
  if (!s.ok) return [`Samba refuses ${s.sddl}: ${s.error}`];
  const out: string[] = [];
  if (ours.type !== 'A' || s.type !== SEC_ACE_TYPE_ACCESS_ALLOWED) out.push(`type: ours ${ours.type}, Samba ${s.type}`);
  const flags = ours.flags.reduce((m, f) => m | flagBits[f]!, 0);
  if (flags !== s.flags) out.push(`flags: ours 0x${flags.toString(16)}, Samba 0x${s.flags!.toString(16)}`);
  const mask = 'mask' in ours.rights ? ours.rights.mask : NaN;
  if (mask !== s.mask) out.push(`mask: ours 0x${mask.toString(16)}, Samba 0x${s.mask!.toString(16)}`);
  if (ours.sid !== s.sid) out.push(`sid: ours ${ours.sid}, Samba ${s.sid}`);
  if (s.canonical !== s.reparsed) out.push(`Samba's own round trip differs: ${s.canonical} / ${s.reparsed}`);
  // Samba's rendering read back by our reader gives the same ACE.
  try {
    const back = parseSddl(s.canonical!).aces[0];
    if (!back || JSON.stringify(back) !== JSON.stringify(ours)) out.push(`Samba's rendering ${s.canonical} reads back as another ACE`);
  } catch (e) {
    out.push(`Samba's rendering ${s.canonical} does not read back: ${(e as Error).message}`);
  }
  return out;
}

/** A real-looking SID per principal, in place of the plan's placeholders. */
const withSids = (sddl: string): string =>
  sddl.replace(/\*SESSION_SID_([0-9]+)\*/g, (_, n: string) => `S-1-5-21-1000-2000-3000-${1000 + Number(n)}`);

async function plans(): Promise<{ name: string; plan: AclPlan }[]> {
  const out: { name: string; plan: AclPlan }[] = [];
  for (const name of exampleNames) {
    const o = await compileExample(name, 'windows');
    if (!o.ok) continue;
    const json = o.artifacts.find((a) => a.name === 'acl-plan.json')!.content as string;
    out.push({ name, plan: JSON.parse(json) as AclPlan });
  }
  return out;
}

describe('independent: SDDL allow ACEs through Samba (python3-samba)', () => {
  it('every allow ACE of every example plan: Samba reads the same type, flags, mask and SID, and round-trips it', async (t) => {
    const skip = requireOrSkip(samba, 'python3-samba (Debian: apt-get install python3-samba)');
    if (skip) return t.skip(skip);
    const aces: { where: string; sddl: string }[] = [];
    for (const { name, plan } of await plans())
      for (const s of plan.steps) if (s.action === 'grant-write') aces.push({ where: `${name} ${s.id}`, sddl: withSids(s.sddl) });
    assert.ok(aces.length >= 10, `${aces.length} allow ACEs`);
    const read = readWithSamba(aces.map((a) => a.sddl));
    for (const [i, a] of aces.entries()) assert.deepEqual(disagreements(read[i]!, parseAce(a.sddl)), [], a.where);
  });

  it('a broken ACE is refused or read differently (the check can fail)', (t) => {
    const skip = requireOrSkip(samba, 'python3-samba');
    if (skip) return t.skip(skip);
    const good = '(A;OICI;0x1301bf;;;S-1-5-21-1000-2000-3000-1001)';
    const broken = [
      '(A;OICI;0x1301bf;;;S-1-5-21-x)',
      '(A;OIXX;0x1301bf;;;S-1-5-21-1-2-3-4)',
      '(A;OICI;0x1301bf;;S-1-5-21-1-2-3-4)',
      '(A;OICI;0x1301bf;;;*SESSION_SID_1*)',
    ];
    const read = readWithSamba([good, ...broken]);
    assert.deepEqual(disagreements(read[0]!, parseAce(good)), []);
    for (const r of read.slice(1)) assert.equal(r.ok, false, `Samba accepted ${r.sddl}`);
    // A mask Samba reads as 0, and an ACE whose fields we would read otherwise.
    const [zz, other] = readWithSamba(['(A;OICI;0xZZ;;;S-1-5-21-1-2-3-4)', '(A;CI;0x1301bf;;;S-1-5-21-1-2-3-4)']);
    assert.ok(disagreements(zz!, parseAce('(A;OICI;0x1301bf;;;S-1-5-21-1-2-3-4)')).some((d) => d.startsWith('mask')));
    assert.ok(disagreements(other!, parseAce('(A;OICI;0x1301bf;;;S-1-5-21-1-2-3-4)')).some((d) => d.startsWith('flags')));
  });
});

/** The documented encoding of a mandatory label ACE's policy and level. */
const policyBits: Record<string, number> = { NW: 0x1, NR: 0x2, NX: 0x4 };
const levelSids: Record<string, string> = { LW: 'S-1-16-4096', ME: 'S-1-16-8192', HI: 'S-1-16-12288', SI: 'S-1-16-16384' };

/** A label SDDL as numbers: inheritance flag bits, policy mask, level SID. */
function labelFields(sddl: string): { flags: number; policy: number; level: string } {
  const s = parseSddl(sddl);
  assert.equal(s.section, 'S', sddl);
  assert.deepEqual(s.control, [], `${sddl}: no control flags`);
  assert.equal(s.aces.length, 1, `${sddl}: one label ACE`);
  const a = s.aces[0]!;
  assert.equal(a.type, 'ML');
  assert.equal(a.objectGuid, '');
  assert.equal(a.inheritGuid, '');
  assert.ok('codes' in a.rights);
  const policy = (a.rights as { codes: readonly string[] }).codes.reduce((m, c) => m | policyBits[c]!, 0);
  return { flags: a.flags.reduce((m, f) => m | flagBits[f]!, 0), policy, level: levelSids[a.sid] ?? a.sid };
}

describe('independent: mandatory labels against the documented encoding', () => {
  it('label-low is no-write-up at Low; label-read-only no-write-up at Medium; deny-read is no-read-up, no-write-up and no-execute-up at Medium; inheritance only on containers', async () => {
    let labels = 0;
    let readOnly = 0;
    for (const { name, plan } of await plans()) {
      for (const s of plan.steps) {
        if (s.action === 'grant-write') continue;
        const tree = s.action === 'deny-read' || s.sddl.includes(';OICI;');
        const main = labelFields(s.sddl);
        labels++;
        if (s.action === 'label-low') {
          assert.deepEqual({ policy: main.policy, level: main.level }, { policy: 0x1, level: 'S-1-16-4096' }, `${name} ${s.id}`);
          assert.equal(main.flags, tree ? 0x3 : 0, `${name} ${s.id}: OICI for a tree, none for a file`);
          // Inside a host-trusted path, set file by file over its read-only labels.
          if (s.fileSddl)
            assert.deepEqual(labelFields(s.fileSddl), { flags: 0, policy: 0x1, level: 'S-1-16-4096' }, `${name} ${s.id} (files)`);
        } else if (s.action === 'label-read-only') {
          readOnly++;
          assert.deepEqual(main, { flags: 0x3, policy: 0x1, level: 'S-1-16-8192' }, `${name} ${s.id}: no-write-up at Medium, reads open`);
          assert.deepEqual(labelFields(s.fileSddl!), { flags: 0, policy: 0x1, level: 'S-1-16-8192' }, `${name} ${s.id} (files)`);
        } else {
          assert.deepEqual(main, { flags: 0x3, policy: 0x7, level: 'S-1-16-8192' }, `${name} ${s.id}`);
          assert.deepEqual(labelFields(s.fileSddl!), { flags: 0, policy: 0x7, level: 'S-1-16-8192' }, `${name} ${s.id} (files)`);
        }
      }
    }
    assert.ok(labels >= 20, `${labels} labels`);
    assert.ok(readOnly >= 1, 'a host-trusted path is labelled read-only in some example');
  });

  it('a wrong label is read as wrong (the check can fail)', () => {
    assert.deepEqual(labelFields('S:(ML;OICI;NR;;;LW)'), { flags: 0x3, policy: 0x2, level: 'S-1-16-4096' });
    assert.throws(() => labelFields('S:(ML;OICI;NZ;;;ME)'));
    assert.throws(() => labelFields('S:(ML;OICI;NW;;;S-1-5-21-1)'));
    assert.throws(() => labelFields('S:(ML;OICI;NW;;;LW)(ML;;NR;;;ME)'));
  });
});
