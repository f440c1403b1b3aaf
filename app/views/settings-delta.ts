/**
 * What changed in what a sandbox-runtime or Claude Code settings file
 * reaches beyond its filesystem lists, read off both revisions' IR (the
 * `reach` compiler/ir/reach.ts computed once): a setting that adds reach is
 * a widening on every machine, one that takes it away a narrowing, and a
 * changed setting boxwright does not model is one it cannot judge (the gate
 * fails on it). Sets are compared as sets, so a reordering is no change;
 * `allowedDomains` by the hosts each entry covers, as sandbox-runtime's
 * matchesDomainPattern reads them.
 */
import type { PolicyIR } from '../../compiler/ir/types.js';
import type { ReachClass, ReachItem, SettingsReach } from '../../compiler/ir/reach.js';

/** A change in one setting's reach: a request change of the file's one principal, on no machine in particular. */
export interface SettingChange {
  readonly principal: string;
  /** The setting's dotted key. */
  readonly path: string;
  readonly before: string;
  readonly after: string;
  readonly widens: boolean;
  readonly narrows: boolean;
  readonly sentence: string;
  /** The same key as `path`: marks the change as a setting's. */
  readonly setting: string;
  /** A setting boxwright does not model changed: it cannot say whether this widens, so the gate fails. */
  readonly cannotJudge?: true;
}

const classNames: Record<ReachClass, string> = {
  network: 'network',
  strength: "the sandbox's strength",
  unsandboxed: 'outside the sandbox',
  'host-program': 'programs run on the host',
  permission: 'permissions',
};

/** How an item reads in a sentence: what the setting does with its value. */
function reads(i: ReachItem): string {
  const v = `\`${i.value}\``;
  switch (i.cls) {
    case 'network':
      return i.effect === 'grants' ? (/Port$/.test(i.key) ? `hands the network to the proxy at port ${v}` : `allows ${v}`) : `denies ${v}`;
    case 'unsandboxed':
      return i.effect === 'grants' ? `runs ${v} outside the sandbox, with all your access` : `holds back ${v}`;
    case 'host-program':
      return `runs ${v} on the host`;
    case 'permission':
      return i.effect === 'grants' ? `allows ${v}` : `restricts ${v}`;
    case 'strength':
      return `is ${v}`;
  }
}

const identity = (i: ReachItem): string => `${i.cls}\0${i.key}\0${i.value}\0${i.effect}\0${i.qualifier ?? ''}`;

/** Whether an allowedDomains entry admits every host (and port) another admits (matchesDomainPatternWithPort). */
export function domainCovers(wide: string, narrow: string): boolean {
  const split = (p: string): [string, string | undefined] => {
    const m = /^(.*):([1-9]\d{0,4})$/.exec(p);
    return m && !m[1]!.includes(':') ? [m[1]!.toLowerCase(), m[2]] : [p.toLowerCase(), undefined];
  };
  const [wh, wp] = split(wide);
  const [nh, np] = split(narrow);
  if (wp !== undefined && wp !== np) return false;
  if (wh === '*') return true;
  if (nh === '*') return false;
  if (wh.startsWith('*.')) return nh.endsWith(wh.slice(1));
  return wh === nh;
}

const clip = (s: string): string => (s.length > 60 ? `${s.slice(0, 57)}…` : s);

export function settingsDelta(before: PolicyIR, after: PolicyIR): SettingChange[] {
  const b = before.runtime?.reach;
  const a = after.runtime?.reach;
  if (!b && !a) return [];
  if (!b || !a)
    return [
      {
        principal: 'agent',
        path: '(dialect)',
        setting: '(dialect)',
        before: before.dialect,
        after: after.dialect,
        widens: true,
        narrows: false,
        cannotJudge: true,
        sentence:
          `cannot judge: the dialect changed (${before.dialect} → ${after.dialect}), and what the settings ` +
          `reach beyond files has no counterpart in the other`,
      },
    ];
  return [...itemChanges(b, a), ...domainChanges(b, a), ...unmodelledChanges(b, a)];
}

function itemChanges(b: SettingsReach, a: SettingsReach): SettingChange[] {
  const out: SettingChange[] = [];
  const inB = new Set(b.items.map(identity));
  const inA = new Set(a.items.map(identity));
  const seen = new Set<string>();
  for (const [items, other, added] of [
    [a.items, inB, true],
    [b.items, inA, false],
  ] as const) {
    for (const i of items) {
      const id = identity(i);
      if (other.has(id) || seen.has(id)) continue;
      seen.add(id);
      const widens = added === (i.effect === 'grants');
      const shown = i.value === 'true' || i.value === 'false' ? i.value : clip(i.value);
      out.push({
        principal: 'agent',
        path: i.key,
        setting: i.key,
        before: added ? '—' : shown,
        after: added ? shown : '—',
        widens,
        narrows: !widens,
        sentence:
          i.value === 'true' || i.value === 'false'
            ? `${classNames[i.cls]}: \`${i.key}\` is ${added ? 'now' : 'no longer'} ${i.value}${i.byDefault ? ' (its default)' : ''}`
            : `${classNames[i.cls]}: \`${i.key}\` ${added ? 'now' : 'no longer'} ${reads(i)}${i.qualifier ? ` (${i.qualifier})` : ''}`,
      });
    }
  }
  return out;
}

function domainChanges(b: SettingsReach, a: SettingsReach): SettingChange[] {
  const out: SettingChange[] = [];
  const key = a.allowedDomains.key;
  for (const d of [...new Set(a.allowedDomains.entries)].sort())
    if (!b.allowedDomains.entries.some((w) => domainCovers(w, d)))
      out.push({
        principal: 'agent',
        path: key,
        setting: key,
        before: '—',
        after: d,
        widens: true,
        narrows: false,
        sentence: `network: \`${key}\` now allows \`${d}\`${d === '*' ? ' (every host)' : d.startsWith('*.') ? ` (every host under ${d.slice(2)})` : ''}`,
      });
  for (const d of [...new Set(b.allowedDomains.entries)].sort())
    if (!a.allowedDomains.entries.some((w) => domainCovers(w, d)))
      out.push({
        principal: 'agent',
        path: key,
        setting: key,
        before: d,
        after: '—',
        widens: false,
        narrows: true,
        sentence: `network: \`${key}\` no longer allows \`${d}\``,
      });
  return out;
}

function unmodelledChanges(b: SettingsReach, a: SettingsReach): SettingChange[] {
  const out: SettingChange[] = [];
  for (const key of [...new Set([...b.unmodelled.keys(), ...a.unmodelled.keys()])].sort()) {
    const vb = b.unmodelled.get(key);
    const va = a.unmodelled.get(key);
    if (vb === va) continue;
    out.push({
      principal: 'agent',
      path: key,
      setting: key,
      before: vb === undefined ? '—' : clip(vb),
      after: va === undefined ? '—' : clip(va),
      widens: true,
      narrows: false,
      cannotJudge: true,
      sentence: `cannot judge: \`${key}\` changed (boxwright does not model this setting, so it may widen)`,
    });
  }
  return out;
}
