import type { Diagnostic, Platform, Verdict } from '../../compiler/diagnostic.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import type { PolicyIR, Principal } from '../../compiler/ir/types.js';
import { who } from '../../compiler/ir/names.js';
import { absent, legend, type Cell } from '../../model/cell.js';
import type { AccessModel, PrincipalAccess } from '../../model/model.js';

export interface AccessChange {
  readonly platform: Platform;
  readonly principal: string;
  /** The path as a reviewer reads it (`~/…` under the home). */
  readonly path: string;
  readonly before: string;
  readonly after: string;
  /** widen: a right appears; narrow: a right goes; both can hold at once (`r` → `w`). */
  readonly widens: boolean;
  readonly narrows: boolean;
  readonly sentence: string;
}

export interface AccessDelta {
  readonly changes: readonly AccessChange[];
  readonly verdicts: readonly { readonly platform: Platform; readonly before: Verdict; readonly after: Verdict }[];
  readonly diagnosticsAdded: readonly Diagnostic[];
  readonly diagnosticsRemoved: readonly Diagnostic[];
  /** Reminders that hold after the change (Windows credentials that stay readable). */
  readonly stillTrue: readonly { readonly platform: Platform; readonly sentence: string }[];
}

type Flags = { read: boolean; write: boolean; exec: boolean; names: boolean; meta: boolean };
const none: Flags = { read: false, write: false, exec: false, names: false, meta: false };
function flags(c: Cell): Flags {
  return c.kind === 'access' ? c : c.kind === 'empty' ? none : none;
}
const verbs: [keyof Flags, string][] = [
  ['read', 'read'],
  ['write', 'write'],
  ['exec', 'execute'],
  ['names', 'list'],
  ['meta', 'see the metadata of'],
];

/** The principal in a sentence, or its id when only the other revision has it. */
const principalIn = (p: Principal | undefined, id: string): string => (p ? who(p) : id);

function display(path: string, home: string): string {
  return path === home ? '~' : path.startsWith(home + '/') ? '~' + path.slice(home.length) : path;
}

function pathsOf(pa: PrincipalAccess | undefined, platform: Platform): string[] {
  if (!pa) return [];
  return pa.grants.filter((ga) => ga.applies[platform] && ga.grant.path).map((ga) => ga.grant.path!);
}

function cellAt(pa: PrincipalAccess | undefined, path: string, platform: Platform): Cell {
  return pa ? pa.effectiveAt(path, platform) : absent;
}

/** Reading content implies seeing names and properties: say only the strongest. */
function implied(keys: (keyof Flags)[]): (keyof Flags)[] {
  return keys.includes('read') ? keys.filter((k) => k !== 'names' && k !== 'meta') : keys.includes('names') ? keys.filter((k) => k !== 'meta') : keys;
}

function verb(k: keyof Flags): string {
  return verbs.find(([key]) => key === k)![1];
}

const shownCell = (c: Cell): string => (c.kind === 'empty' ? 'an empty placeholder' : c.kind === 'absent' ? 'absent' : c.kind === 'denied' ? 'denied' : legend(c));

/** One sentence a reviewer can act on: "linux: tool `fetcher` can now write ~/project". */
function sentence(platform: Platform, subject: string, path: string, before: Flags, after: Flags): string {
  const gained = implied(verbs.filter(([k]) => after[k] && !before[k]).map(([k]) => k)).map(verb);
  const lost = implied(verbs.filter(([k]) => before[k] && !after[k]).map(([k]) => k)).map(verb);
  const parts: string[] = [];
  if (gained.length) parts.push(`can now ${gained.join(', ')} ${path}`);
  if (lost.length) parts.push(`can no longer ${lost.join(', ')} ${path}`);
  return `${platform}: ${subject} ${parts.join('; ')}`;
}

function diagnosticKey(d: Diagnostic): string {
  return `${d.ruleId}\0${d.severity}\0${d.platforms.join(',')}\0${d.message}`;
}

/**
 * What changed in effective access between two revisions of a config, per
 * platform and principal, read off both access models: every path either
 * revision grants is compared, so a removed grant shows as lost access.
 */
export function accessDelta(
  before: { model: AccessModel; verdicts: Readonly<Record<Platform, Verdict>>; diagnostics: readonly Diagnostic[] },
  after: { model: AccessModel; verdicts: Readonly<Record<Platform, Verdict>>; diagnostics: readonly Diagnostic[] },
  platforms: readonly Platform[] = PLATFORMS,
): AccessDelta {
  const home = after.model.ir.home;
  const byId = (m: AccessModel) => new Map(m.principals.map((p) => [p.principal.id, p]));
  const b = byId(before.model);
  const a = byId(after.model);
  const ids = [...new Set([...b.keys(), ...a.keys()])].sort();
  const changes: AccessChange[] = [];
  for (const platform of platforms) {
    if (after.verdicts[platform] === 'refused' && before.verdicts[platform] !== 'refused') {
      changes.push({ platform, principal: '*', path: '*', before: before.verdicts[platform], after: 'refused', widens: false, narrows: true, sentence: `${platform}: the config is now refused: no principal starts` });
      continue;
    }
    if (after.verdicts[platform] === 'refused') continue;
    // A refused base ran nothing: compare the head against no access at all.
    const baseRan = before.verdicts[platform] !== 'refused';
    for (const id of ids) {
      const pb = baseRan ? b.get(id) : undefined;
      const pa = a.get(id);
      const subject = principalIn(pa?.principal ?? pb?.principal, id);
      const paths = [...new Set([...pathsOf(pb, platform), ...pathsOf(pa, platform)])].sort();
      for (const path of paths) {
        const cb = cellAt(pb, path, platform);
        const ca = cellAt(pa, path, platform);
        if (legend(cb) === legend(ca)) continue;
        const fb = flags(cb);
        const fa = flags(ca);
        const widens = verbs.some(([k]) => fa[k] && !fb[k]);
        const narrows = verbs.some(([k]) => fb[k] && !fa[k]);
        const shown = display(path, home);
        const text = widens || narrows ? sentence(platform, subject, shown, fb, fa) : `${platform}: ${subject}: ${shown} is now ${shownCell(ca)} (was ${shownCell(cb)})`;
        changes.push({ platform, principal: id, path: shown, before: legend(cb), after: legend(ca), widens, narrows, sentence: text });
      }
      const netBefore = !!pb?.principal.directNetwork;
      const netAfter = !!pa?.principal.directNetwork;
      if (netBefore !== netAfter) {
        changes.push({
          platform,
          principal: id,
          path: '(network)',
          before: netBefore ? 'direct' : 'gateway',
          after: netAfter ? 'direct' : 'gateway',
          widens: netAfter,
          narrows: netBefore,
          sentence: `${platform}: ${subject} ${netAfter ? 'now has a direct network exception: it bypasses the gateway' : 'no longer bypasses the gateway'}`,
        });
      }
    }
  }
  const verdicts = platforms.filter((p) => before.verdicts[p] !== after.verdicts[p]).map((p) => ({ platform: p, before: before.verdicts[p], after: after.verdicts[p] }));
  const keysBefore = new Set(before.diagnostics.map(diagnosticKey));
  const keysAfter = new Set(after.diagnostics.map(diagnosticKey));
  const inPlatforms = (d: Diagnostic) => d.platforms.some((p) => platforms.includes(p));
  const stillTrue = platforms.includes('windows') ? readableCredentials(after.model) : [];
  return {
    changes,
    verdicts,
    diagnosticsAdded: after.diagnostics.filter((d) => inPlatforms(d) && !keysBefore.has(diagnosticKey(d))),
    diagnosticsRemoved: before.diagnostics.filter((d) => inPlatforms(d) && !keysAfter.has(diagnosticKey(d))),
    stillTrue,
  };
}

/** The known credential locations that exist and that a principal can read on Windows, as the model says (sandbox-runtime's account reads none of them). */
function readableCredentials(model: AccessModel): { platform: Platform; sentence: string }[] {
  const readable = (path: string): boolean => model.principals.some((pa) => {
    const c = pa.effectiveAt(path, 'windows');
    return c.kind === 'access' && c.read;
  });
  return model.ir.knownCredentials.filter((c) => c.existence === 'exists' && readable(c.path)).map((c) => ({ platform: 'windows' as const, sentence: `windows: \`${c.written}\` is still readable` }));
}

export function isEmptyDelta(d: AccessDelta): boolean {
  return !d.changes.length && !d.verdicts.length && !d.diagnosticsAdded.length && !d.diagnosticsRemoved.length;
}
