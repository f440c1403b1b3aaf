/**
 * A small SDDL parser, written for the tests independently of the emitter:
 * every SDDL string a plan holds must parse here.
 *
 * Accepted forms: one bare ACE `(type;flags;rights;objguid;inhguid;sid)`, or
 * a section `D:` / `S:` with optional control flags (`P`, `AI`, `AR`, `NO_ACCESS_CONTROL`)
 * followed by zero or more ACEs. Types: `A` (allow), `D` (deny) in a DACL or
 * bare, `ML` (mandatory label) in a SACL. Flags: `OI`, `CI`, `NP`, `IO`, `ID`.
 * Rights: a hex mask or SDDL letter codes for A/D; a non-empty combination of
 * `NR`, `NW`, `NX` for ML. SIDs: `S-1-…`, a well-known alias, or the session
 * placeholder `*SESSION_SID_<n>*`; an ML ACE needs an integrity level
 * (`LW`, `ME`, `MP`, `HI`, `SI`, or `S-1-16-N`).
 */

export interface Ace {
  readonly type: 'A' | 'D' | 'ML';
  readonly flags: readonly string[];
  readonly rights: { readonly mask: number } | { readonly codes: readonly string[] };
  readonly objectGuid: string;
  readonly inheritGuid: string;
  readonly sid: string;
}

export interface Sddl {
  readonly section: 'D' | 'S' | null;
  readonly control: readonly string[];
  readonly aces: readonly Ace[];
}

const aceFlags = new Set(['OI', 'CI', 'NP', 'IO', 'ID']);
const labelPolicies = new Set(['NR', 'NW', 'NX']);
const rightCodes = new Set([
  'GA',
  'GR',
  'GW',
  'GX',
  'RC',
  'SD',
  'WD',
  'WO',
  'FA',
  'FR',
  'FW',
  'FX',
  'KA',
  'KR',
  'KW',
  'KX',
  'CC',
  'DC',
  'LC',
  'SW',
  'RP',
  'WP',
  'DT',
  'LO',
  'CR',
]);
const integrityAliases = new Set(['LW', 'ME', 'MP', 'HI', 'SI']);
const sidAliases = new Set([
  'WD',
  'SY',
  'BA',
  'BU',
  'AU',
  'CO',
  'OW',
  'AC',
  'IU',
  'NU',
  'SU',
  'LS',
  'NS',
  'RC',
  'WR',
  'PS',
  'AN',
  'CA',
  'DA',
  'DU',
  'ED',
]);
const guid = /^$|^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const sessionPlaceholder = /^\*SESSION_SID_[1-9][0-9]*\*$/;

export class SddlError extends Error {}

function pairs(text: string, what: string): string[] {
  if (text.length % 2) throw new SddlError(`${what}: odd-length code list \`${text}\``);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 2) out.push(text.slice(i, i + 2));
  if (new Set(out).size !== out.length) throw new SddlError(`${what}: repeated code in \`${text}\``);
  return out;
}

function parseSid(sid: string, label: boolean): string {
  if (label) {
    if (integrityAliases.has(sid) || /^S-1-16-[0-9]+$/.test(sid)) return sid;
    throw new SddlError(`a mandatory label needs an integrity level SID, not \`${sid}\``);
  }
  if (integrityAliases.has(sid) || /^S-1-16-/.test(sid)) throw new SddlError(`an integrity level \`${sid}\` in an access ACE`);
  if (/^S-1-[0-9]+(-[0-9]+)+$/.test(sid) || sidAliases.has(sid) || sessionPlaceholder.test(sid)) return sid;
  throw new SddlError(`not a SID: \`${sid}\``);
}

export function parseAce(text: string): Ace {
  const m = /^\(([^()]*)\)$/.exec(text);
  if (!m) throw new SddlError(`an ACE is parenthesised: \`${text}\``);
  const fields = m[1]!.split(';');
  if (fields.length !== 6) throw new SddlError(`an ACE has 6 fields, not ${fields.length}: \`${text}\``);
  const [type, flags, rights, objectGuid, inheritGuid, sid] = fields as [string, string, string, string, string, string];
  if (type !== 'A' && type !== 'D' && type !== 'ML') throw new SddlError(`unknown ACE type \`${type}\``);
  const flagList = pairs(flags, 'flags');
  for (const f of flagList) if (!aceFlags.has(f)) throw new SddlError(`unknown ACE flag \`${f}\``);
  let parsedRights: Ace['rights'];
  if (type === 'ML') {
    const codes = pairs(rights, 'label policy');
    if (!codes.length) throw new SddlError('a mandatory label needs a policy (NR, NW, NX)');
    for (const c of codes) if (!labelPolicies.has(c)) throw new SddlError(`unknown label policy \`${c}\``);
    parsedRights = { codes };
  } else if (/^0x[0-9a-fA-F]{1,8}$/.test(rights)) {
    const mask = parseInt(rights.slice(2), 16);
    if (mask === 0) throw new SddlError('an empty access mask');
    parsedRights = { mask };
  } else {
    const codes = pairs(rights, 'rights');
    if (!codes.length) throw new SddlError('no rights');
    for (const c of codes) if (!rightCodes.has(c)) throw new SddlError(`unknown right \`${c}\``);
    parsedRights = { codes };
  }
  if (!guid.test(objectGuid) || !guid.test(inheritGuid)) throw new SddlError(`bad GUID field in \`${text}\``);
  return { type, flags: flagList, rights: parsedRights, objectGuid, inheritGuid, sid: parseSid(sid, type === 'ML') };
}

/** Parses a bare ACE or a `D:`/`S:` section; throws SddlError on anything else. */
export function parseSddl(text: string): Sddl {
  if (text.startsWith('(')) {
    const ace = parseAce(text);
    if (ace.type === 'ML') throw new SddlError('a mandatory label belongs in an S: section');
    return { section: null, control: [], aces: [ace] };
  }
  const m = /^([DS]):((?:P|AI|AR|NO_ACCESS_CONTROL)*)((?:\([^()]*\))*)$/.exec(text);
  if (!m) throw new SddlError(`not an SDDL ACE or section: \`${text}\``);
  const section = m[1] as 'D' | 'S';
  const control = m[2]!.match(/NO_ACCESS_CONTROL|AI|AR|P/g) ?? [];
  const aces = (m[3]!.match(/\([^()]*\)/g) ?? []).map(parseAce);
  for (const a of aces) {
    if (section === 'S' && a.type !== 'ML') throw new SddlError(`a ${a.type} ACE in an S: section (only labels here)`);
    if (section === 'D' && a.type === 'ML') throw new SddlError('a mandatory label in a D: section');
  }
  return { section, control, aces };
}
