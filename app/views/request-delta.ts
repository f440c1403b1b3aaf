/**
 * What two revisions ask for, compared on no machine in particular: every
 * path either names and just below it, each principal's direct network
 * exception, and (sandbox-runtime and Claude Code settings) what the
 * settings reach beyond files (settings-delta.ts). A widening here is one on
 * every machine.
 */
import { diffWords } from './delta-words.js';
import { absent, legend, type Cell } from '../../model/cell.js';
import type { AccessModel } from '../../model/model.js';
import { requestedAccess, type RequestedAccess } from '../../model/requested.js';
import { display, flags, implied, networkChange, principalIn, verb, verbs, type Flags, type RequestChange } from './delta-words.js';
import { settingsDelta } from './settings-delta.js';

const requestedLegend = (c: Cell): string => (c.kind === 'denied' ? 'deny' : legend(c));

/** "the agent now asks to write ~/project; no longer asks to read below ~/x" */
function requestSentence(subject: string, path: string, before: Flags, after: Flags): string {
  const gained = implied(verbs.filter(([k]) => after[k] && !before[k]).map(([k]) => k)).map(verb);
  const lost = implied(verbs.filter(([k]) => before[k] && !after[k]).map(([k]) => k)).map(verb);
  const parts: string[] = [];
  if (gained.length) parts.push(`now asks to ${gained.join(', ')} ${path}`);
  if (lost.length) parts.push(`no longer asks to ${lost.join(', ')} ${path}`);
  return `${subject} ${parts.join('; ')}`;
}

function requestChange(id: string, subject: string, path: string, cb: Cell, ca: Cell): RequestChange | undefined {
  if (requestedLegend(cb) === requestedLegend(ca)) return undefined;
  const fb = flags(cb);
  const fa = flags(ca);
  // A deny given up widens wherever a platform gives more than the request
  // (Windows: reads are open), and one added narrows.
  const widens = verbs.some(([k]) => fa[k] && !fb[k]) || (cb.kind === 'denied' && ca.kind !== 'denied');
  const narrows = verbs.some(([k]) => fb[k] && !fa[k]) || (ca.kind === 'denied' && cb.kind !== 'denied');
  const rights = verbs.some(([k]) => fa[k] !== fb[k]);
  const sentence = rights
    ? requestSentence(subject, path, fb, fa)
    : `${subject} ${ca.kind === 'denied' ? 'now denies' : 'no longer denies'} ${path}`;
  return { principal: id, path, before: requestedLegend(cb), after: requestedLegend(ca), widens, narrows, sentence };
}

/**
 * What the revisions ask for, compared at every path either names and just
 * below it (a `read_file` become a `read` widens below the path only), and
 * each principal's direct network exception.
 */
export function requestDelta(before: AccessModel, after: AccessModel, ids: readonly string[], home: string): RequestChange[] {
  const find = (m: AccessModel, id: string) => m.principals.find((p) => p.principal.id === id)?.principal;
  const out: RequestChange[] = [];
  // boxwright's own inputs of the command (the config, a manifest): host-trusted in either revision.
  const inputs = [
    ...new Set([before, after].flatMap((m) => m.ir.hostTrusted.paths.filter((t) => t.entry.where === 'input').map((t) => t.path))),
  ];
  const nothing: RequestedAccess = { at: () => absent, below: () => absent, paths: [] };
  for (const id of ids) {
    const pb = find(before, id);
    const pa = find(after, id);
    const subject = principalIn(pa ?? pb, id);
    // Both revisions are asked at every path either names, with the same host-trusted inputs.
    const asked = [...new Set([...(pb?.grants ?? []), ...(pa?.grants ?? [])].flatMap((g) => (g.path ? [g.path] : [])))];
    // sandbox-runtime carves no host-trusted path out of a write root: its request is its grants.
    const context = {
      home,
      asked,
      inputs,
      carvesHostTrusted: !before.ir.runtime && !after.ir.runtime,
      denyWriteCarves: !!before.ir.runtime?.codex && !!after.ir.runtime?.codex,
    };
    const rb = pb ? requestedAccess(pb, context) : nothing;
    const ra = pa ? requestedAccess(pa, context) : nothing;
    for (const path of [...new Set([...rb.paths, ...ra.paths])].sort()) {
      const shown = display(path, home);
      const here = requestChange(id, subject, shown, rb.at(path), ra.at(path));
      const under = requestChange(id, subject, `below ${shown}`, rb.below(path), ra.below(path));
      // A tree asked for or given up: one sentence for the path and what is below it.
      if (here && under && here.before === under.before && here.after === under.after) out.push(here);
      else out.push(...(here ? [here] : []), ...(under ? [under] : []));
    }
    const netBefore = !!pb?.directNetwork;
    const netAfter = !!pa?.directNetwork;
    if (netBefore !== netAfter) out.push(networkChange(id, netAfter, diffWords.askedNetwork(subject, netAfter)));
  }
  return [...out, ...settingsDelta(before.ir, after.ir)];
}
