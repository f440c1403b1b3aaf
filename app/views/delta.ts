import { diffWords } from './delta-words.js';
import { readableCredentials } from '../../model/platforms-of.js';
import type { Diagnostic, Platform, Verdict } from '../../compiler/diagnostic.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { absent, legend, type Cell } from '../../model/cell.js';
import type { AccessModel, PrincipalAccess } from '../../model/model.js';
import { explanation } from '../../rules/index.js';
import {
  display,
  flags,
  implied,
  networkChange,
  principalIn,
  verb,
  verbs,
  type AccessChange,
  type Flags,
  type RequestChange,
} from './delta-words.js';
import { requestDelta } from './request-delta.js';

export type { AccessChange, RequestChange } from './delta-words.js';

/**
 * Why this machine's comparison of one platform settles nothing: a side is
 * refused here (it grants nothing here, and what it grants on a machine
 * that accepts it is not known here), or the view knows no facts.
 */
export interface Unsettled {
  /** The platforms it holds for (every selected one when the view knows no facts). */
  readonly platforms: readonly Platform[];
  readonly why: 'base-refused' | 'head-refused' | 'both-refused' | 'facts-unknown';
  readonly sentence: string;
}

export interface AccessDelta {
  /** What the revisions ask for, compared: the same on every machine. */
  readonly requested: readonly RequestChange[];
  /** What this machine grants, compared per platform. */
  readonly changes: readonly AccessChange[];
  /** Where this machine's comparison settles nothing, said so that a reader never takes silence for "no change". */
  readonly unsettled: readonly Unsettled[];
  /** The revisions ask for something different (a narrowing included): what a machine that refuses neither would tell apart. */
  readonly requestsDiffer: boolean;
  readonly verdicts: readonly { readonly platform: Platform; readonly before: Verdict; readonly after: Verdict }[];
  readonly diagnosticsAdded: readonly Diagnostic[];
  readonly diagnosticsRemoved: readonly Diagnostic[];
  /** Reminders that hold after the change (Windows credentials that stay readable). */
  readonly stillTrue: readonly { readonly platform: Platform; readonly sentence: string }[];
}

function pathsOf(pa: PrincipalAccess | undefined, platform: Platform): string[] {
  if (!pa) return [];
  return pa.grants.filter((ga) => ga.applies[platform] && ga.grant.path).map((ga) => ga.grant.path!);
}

function cellAt(pa: PrincipalAccess | undefined, path: string, platform: Platform): Cell {
  return pa ? pa.effectiveAt(path, platform) : absent;
}

const shownCell = (c: Cell): string =>
  c.kind === 'empty' ? 'an empty placeholder' : c.kind === 'absent' ? 'absent' : c.kind === 'denied' ? 'denied' : legend(c);

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
      changes.push({
        platform,
        principal: '*',
        path: '*',
        before: before.verdicts[platform],
        after: 'refused',
        widens: false,
        narrows: true,
        sentence: `${platform}: the config is now refused: no principal starts`,
      });
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
        const text =
          widens || narrows
            ? sentence(platform, subject, shown, fb, fa)
            : `${platform}: ${subject}: ${shown} is now ${shownCell(ca)} (was ${shownCell(cb)})`;
        changes.push({ platform, principal: id, path: shown, before: legend(cb), after: legend(ca), widens, narrows, sentence: text });
      }
      const netBefore = !!pb?.principal.directNetwork;
      const netAfter = !!pa?.principal.directNetwork;
      if (netBefore !== netAfter)
        changes.push({
          platform,
          ...networkChange(id, netAfter, `${platform}: ${diffWords.directNetwork(subject, netAfter)}`),
        });
    }
  }
  const requested = requestDelta(before.model, after.model, ids, home);
  const requestsDiffer =
    requested.length > 0 ||
    before.model.ir.dialect !== after.model.ir.dialect ||
    before.model.ir.features.nativeFilesystemPolicy?.value !== after.model.ir.features.nativeFilesystemPolicy?.value;
  const unsettled: Unsettled[] = [];
  if (!before.model.ir.fs.knowsFacts || !after.model.ir.fs.knowsFacts)
    unsettled.push({
      platforms,
      why: 'facts-unknown',
      sentence:
        `--fs ${before.model.ir.fs.knowsFacts ? after.model.ir.fs.description : before.model.ir.fs.description} ` +
        `knows no machine's facts: what a machine grants was compared as if every path named exists, and ` +
        `a machine that lacks one refuses the revision naming it`,
    });
  const refusedBy = (diagnostics: readonly Diagnostic[], platform: Platform) => [
    ...new Set(diagnostics.filter((d) => d.severity === 'error' && d.platforms.includes(platform)).map((d) => d.ruleId)),
  ];
  const byWhy = new Map<string, { platforms: Platform[]; why: Unsettled['why']; rules: string }>();
  for (const platform of platforms) {
    const b = before.verdicts[platform] === 'refused';
    const a = after.verdicts[platform] === 'refused';
    if (!b && !a) continue;
    const why = b && a ? 'both-refused' : b ? 'base-refused' : 'head-refused';
    const rules = [
      ...new Set([...(b ? refusedBy(before.diagnostics, platform) : []), ...(a ? refusedBy(after.diagnostics, platform) : [])]),
    ]
      .sort()
      .join(', ');
    const key = `${why}\0${rules}`;
    const g = byWhy.get(key);
    if (g) g.platforms.push(platform);
    else byWhy.set(key, { platforms: [platform], why, rules });
  }
  for (const { platforms: on, why, rules } of byWhy.values()) {
    unsettled.push({ platforms: on, why, sentence: `${on.join(', ')}: ${diffWords.refused(why, rules)}` });
  }
  const verdicts = platforms
    .filter((p) => before.verdicts[p] !== after.verdicts[p])
    .map((p) => ({ platform: p, before: before.verdicts[p], after: after.verdicts[p] }));
  const keysBefore = new Set(before.diagnostics.map(diagnosticKey));
  const keysAfter = new Set(after.diagnostics.map(diagnosticKey));
  const inPlatforms = (d: Diagnostic) => d.platforms.some((p) => platforms.includes(p));
  const stillTrue = readableCredentialsOn(after.model, platforms);
  return {
    requested,
    changes,
    unsettled,
    requestsDiffer,
    verdicts,
    diagnosticsAdded: after.diagnostics.filter((d) => inPlatforms(d) && !keysBefore.has(diagnosticKey(d))),
    diagnosticsRemoved: before.diagnostics.filter((d) => inPlatforms(d) && !keysAfter.has(diagnosticKey(d))),
    stillTrue,
  };
}

/**
 * Whether `--fail-on widen` fails: a widened request (a widening on every
 * machine), a widening of what this machine grants, or a change the
 * machine's comparison cannot settle (a side refused here, or no facts):
 * the gate fails rather than pass what it could not judge. Revisions that
 * ask for the same are the same on every machine.
 */
export function gateFailures(d: AccessDelta): string[] {
  const out: string[] = [];
  if (d.requested.some((c) => c.widens && !c.setting)) out.push('what is asked for widens (on every machine)');
  const settings = [...new Set(d.requested.filter((c) => c.widens && !c.cannotJudge && c.setting).map((c) => c.setting!))];
  if (settings.length) out.push(`the settings widen: ${settings.map((k) => `\`${k}\``).join(', ')}`);
  const unjudged = [...new Set(d.requested.filter((c) => c.cannotJudge).map((c) => c.setting ?? c.path))];
  for (const key of unjudged) out.push(key === '(dialect)' ? 'cannot judge: the dialect changed' : `cannot judge: \`${key}\` changed`);
  const widened = [...new Set(d.changes.filter((c) => c.widens).map((c) => c.platform))];
  if (widened.length) out.push(`what this machine grants widens on ${widened.join(', ')}`);
  const why: Record<Unsettled['why'], string> = {
    'facts-unknown': 'no machine facts',
    'both-refused': 'both revisions refused',
    'base-refused': 'the base refused',
    'head-refused': 'the head refused',
  };
  const on = new Map<string, Platform[]>();
  for (const u of d.unsettled) on.set(why[u.why], [...(on.get(why[u.why]) ?? []), ...u.platforms]);
  if (d.requestsDiffer && d.unsettled.length)
    out.push(`this machine cannot judge the change (${[...on].map(([w, ps]) => `${w} on ${ps.join(', ')}`).join('; ')})`);
  return out;
}

/**
 * The known credential files that exist and that a principal reads on the compared platforms: the model's facts
 * (sandbox-runtime's account reads none of them), in the words of the rule that explains them (windows-open-reads).
 */
function readableCredentialsOn(model: AccessModel, platforms: readonly Platform[]): { platform: Platform; sentence: string }[] {
  return readableCredentials(model)
    .filter(({ platform, readable }) => platforms.includes(platform) && readable.credential.existence === 'exists')
    .map(({ platform, readable }) => ({ platform, sentence: `${platform}: ${explanation(readable.fact).text}` }));
}

export interface GroupedChange {
  readonly platforms: readonly Platform[];
  /** The sentence without its platform. */
  readonly what: string;
  readonly before: string;
  readonly after: string;
  readonly widens: boolean;
  readonly narrows: boolean;
}

export function groupChanges(changes: readonly AccessChange[]): GroupedChange[] {
  const groups = new Map<string, { platforms: Platform[]; what: string; c: AccessChange }>();
  for (const c of changes) {
    const what = c.sentence.slice(c.platform.length + 2);
    const key = `${c.principal}\0${c.path}\0${c.before}\0${c.after}\0${what}`;
    const g = groups.get(key);
    if (g) g.platforms.push(c.platform);
    else groups.set(key, { platforms: [c.platform], what, c });
  }
  return [...groups.values()].map(({ platforms, what, c }) => ({
    platforms,
    what,
    before: c.before,
    after: c.after,
    widens: c.widens,
    narrows: c.narrows,
  }));
}

export function isEmptyDelta(d: AccessDelta): boolean {
  return (
    !d.requested.length &&
    !d.changes.length &&
    !d.verdicts.length &&
    !d.diagnosticsAdded.length &&
    !d.diagnosticsRemoved.length &&
    !(d.requestsDiffer && d.unsettled.length)
  );
}
