/**
 * A Windows access check of the ACL plan, written for the tests from
 * Microsoft's documentation (test/windows/README.md cites a source for
 * each point), independent of the emitter:
 *
 * 1. A modelled profile tree: %USERPROFILE% with the DACL Windows gives a
 *    user profile (SYSTEM, Administrators and the user: full control,
 *    inherited by everything below) and no mandatory label (Medium,
 *    no-write-up), %APPDATA% and %TEMP% at their default places below it.
 * 2. The plan's steps applied in order, as apply.ps1 applies them: an
 *    allow ACE added to the object's DACL (SetNamedSecurityInfo propagates
 *    inheritable ACEs to the objects below), a mandatory label set on the
 *    object (propagated the same way), or, for a recursive step, on the
 *    object and on every object below it (directories one label, files the
 *    other).
 * 3. Inheritance by the ACE flags: OI reaches files (and, as inherit-only,
 *    the directories between), CI directories, IO keeps an ACE off the
 *    object that holds it, NP stops it after one level; an object's own
 *    label replaces an inherited one.
 * 4. The DACL checked by Samba's own access check (python3-samba's
 *    `samba.security.access_check`), once with the token's SIDs and, for
 *    the write rights, once more with its restricting SIDs (a write-
 *    restricted token: a write passes only if both checks allow it).
 * 5. Mandatory integrity: a Low token below the object's level is refused
 *    write rights (no-write-up, the default of an unlabelled object), and
 *    read or execute rights where the label says no-read-up or
 *    no-execute-up.
 */
import { spawnSync } from 'node:child_process';
import { debianPython, hasPythonModule } from '../independent/tools.js';
import { parseAce, parseSddl, type Ace } from './sddl.js';
import type { PlanPrincipal, PlanStep } from '../../targets/windows/plan.js';

/** What of a step the evaluator reads. */
export type Step = Pick<PlanStep, 'id' | 'action' | 'path' | 'sddl' | 'perFile'> & { readonly fileSddl?: string | undefined };

export const sambaAvailable = (): boolean => hasPythonModule('samba.security');

/** File access rights (winnt.h). */
export const FILE_READ_DATA = 0x1; // FILE_LIST_DIRECTORY on a directory
export const FILE_WRITE_DATA = 0x2; // FILE_ADD_FILE on a directory
export const FILE_EXECUTE = 0x20; // FILE_TRAVERSE on a directory
/** What no-write-up and a write-restricted token's second check are about: the rights FILE_GENERIC_WRITE maps to, and DELETE, WRITE_DAC, WRITE_OWNER. */
const WRITE_RIGHTS = 0x2 | 0x4 | 0x10 | 0x100 | 0x40 | 0x10000 | 0x40000 | 0x80000;
/** FILE_GENERIC_READ's specific rights (FILE_READ_DATA, FILE_READ_EA), what no-read-up refuses. */
const READ_RIGHTS = 0x1 | 0x8;
/** FILE_GENERIC_EXECUTE's specific right, what no-execute-up refuses. */
const EXECUTE_RIGHTS = 0x20;

/** The user the profile belongs to, and the token groups a restricted token keeps enabled (Administrators is deny-only under LUA). */
export const USER_SID = 'S-1-5-21-1000-2000-3000-1001';
const TOKEN_GROUPS = ['S-1-1-0', 'S-1-5-32-545', 'S-1-5-11', 'S-1-5-4', 'S-1-2-0'];
const DOMAIN = 'S-1-5-21-1000-2000-3000';
/** A principal's session SID: the plan's `*SESSION_SID_n*`, as apply.ps1 -SessionSid fills it. */
export const sessionSid = (n: number): string => `S-1-5-21-7-7-7-${1000 + n}`;

/** Integrity levels (the mandatory label's SID S-1-16-N). */
const LEVEL: Readonly<Record<string, number>> = { LW: 0x1000, ME: 0x2000, MP: 0x2100, HI: 0x3000, SI: 0x4000 };
const levelOf = (sid: string): number => LEVEL[sid] ?? Number(/^S-1-16-([0-9]+)$/.exec(sid)?.[1] ?? NaN);
const LOW = 0x1000;

/** The user profile's own DACL (a profile directory, as Windows creates it: protected, inherited below). */
const PROFILE_DACL: readonly Ace[] = parseSddl(`D:(A;OICI;0x1f01ff;;;SY)(A;OICI;0x1f01ff;;;BA)(A;OICI;0x1f01ff;;;${USER_SID})`).aces;

export interface TreeObject {
  /** Windows path relative to %USERPROFILE% (`''`, `AppData\Roaming\gnupg`). */
  readonly rel: string;
  readonly dir: boolean;
}

interface Node extends TreeObject {
  readonly parent: Node | undefined;
  readonly children: Node[];
  dacl: Ace[];
  label: Ace | undefined;
}

/** Where the plan's roots are in the modelled profile. */
const ROOTS: Readonly<Record<string, string>> = { '%USERPROFILE%': '', '%APPDATA%': 'AppData\\Roaming', '%TEMP%': 'AppData\\Local\\Temp' };

/** A plan path's place in the modelled profile. */
function relOf(planPath: string): string {
  const m = /^(%[A-Z_]+%)(.*)$/.exec(planPath);
  if (!m || !(m[1]! in ROOTS)) throw new Error(`not a plan path: ${planPath}`);
  return [ROOTS[m[1]!], m[2]!.replace(/^\\/, '')].filter(Boolean).join('\\');
}

export class ProfileTree {
  private readonly nodes = new Map<string, Node>();
  readonly root: Node;

  constructor(objects: readonly TreeObject[]) {
    this.root = { rel: '', dir: true, parent: undefined, children: [], dacl: [...PROFILE_DACL], label: undefined };
    this.nodes.set('', this.root);
    for (const r of Object.values(ROOTS)) if (r) this.add(r, true);
    for (const o of [...objects].sort((a, b) => a.rel.split('\\').length - b.rel.split('\\').length)) this.add(o.rel, o.dir);
  }

  private add(rel: string, dir: boolean): Node {
    const have = this.nodes.get(rel.toLowerCase());
    if (have) return have;
    const cut = rel.lastIndexOf('\\');
    const parent = this.add(cut < 0 ? '' : rel.slice(0, cut), true);
    const node: Node = { rel, dir, parent, children: [], dacl: [], label: undefined };
    parent.children.push(node);
    // NTFS names are case-insensitive.
    this.nodes.set(rel.toLowerCase(), node);
    return node;
  }

  /** The object a plan path names (`%USERPROFILE%\a\b`), or undefined when the tree has none there. */
  find(planPath: string): Node | undefined {
    return this.nodes.get(relOf(planPath).toLowerCase());
  }

  /** A new directory at a plan path, as New-Item makes it: no ACE or label of its own, what it inherits from its parent. */
  private make(planPath: string): void {
    this.add(relOf(planPath), true);
  }

  /**
   * Applies the plan as apply.ps1 does: each principal's private temp
   * directory made first (refused where one is there), then the steps in order.
   */
  apply(plan: { readonly steps: readonly Step[]; readonly principals?: readonly Pick<PlanPrincipal, 'privateTemp'>[] }): void {
    for (const p of plan.principals ?? []) {
      if (!p.privateTemp) continue;
      if (this.find(p.privateTemp.path)) throw new Error(`apply.ps1 refuses: ${p.privateTemp.path} already exists`);
      this.make(p.privateTemp.path);
    }
    const fill = (sddl: string): string => sddl.replace(/\*SESSION_SID_([0-9]+)\*/g, (_, n: string) => sessionSid(Number(n)));
    for (const step of plan.steps) {
      const node = this.find(step.path);
      // apply.ps1: "does not exist; nothing to change".
      if (!node) continue;
      if (step.action === 'grant-write') {
        node.dacl.push(parseAce(fill(step.sddl)));
        continue;
      }
      const label = (n: Node): Ace => {
        const text = !n.dir && step.fileSddl ? step.fileSddl : step.sddl;
        const aces = parseSddl(text).aces;
        if (aces.length !== 1 || aces[0]!.type !== 'ML') throw new Error(`${step.id}: a label step sets one mandatory label, not ${text}`);
        return aces[0]!;
      };
      const visit = (n: Node): void => {
        n.label = label(n);
        if (step.perFile) for (const c of n.children) visit(c);
      };
      visit(node);
    }
  }

  /** The object's DACL: its own ACEs, then those it inherits (the parent's, by the inheritance flags). */
  dacl(node: Node): Ace[] {
    return [...node.dacl, ...(node.parent ? inherited(this.dacl(node.parent), node.dir) : [])];
  }

  /** The mandatory label that applies to the object (its own, or the one it inherits); undefined: none, Medium. */
  label(node: Node): Ace | undefined {
    return effective(this.labels(node))[0];
  }

  /** The object's label ACEs: its own replaces what it would inherit from its parent's. */
  private labels(node: Node): Ace[] {
    if (node.label) return [node.label];
    return node.parent ? inherited(this.labels(node.parent), node.dir) : [];
  }

  /** Every object of the tree (for queries by path). */
  objects(): Node[] {
    return [...this.nodes.values()];
  }
}

/** The ACEs an object inherits from its parent's DACL (Microsoft, "ACE inheritance rules"). */
function inherited(parent: readonly Ace[], dir: boolean): Ace[] {
  const out: Ace[] = [];
  for (const a of parent) {
    const oi = a.flags.includes('OI');
    const ci = a.flags.includes('CI');
    const np = a.flags.includes('NP');
    if (!dir) {
      if (oi) out.push({ ...a, flags: ['ID'] });
      continue;
    }
    if (ci) out.push({ ...a, flags: np ? ['ID'] : [...(oi ? ['OI'] : []), 'CI', 'ID'] });
    else if (oi && !np) out.push({ ...a, flags: ['OI', 'IO', 'ID'] });
  }
  return out;
}

/** The ACEs that apply to the object itself (not inherit-only). */
const effective = (aces: readonly Ace[]): Ace[] => aces.filter((a) => !a.flags.includes('IO'));

/** An ACE in the SDDL Samba reads: numeric masks only (Samba reads `FA` with the directory service's meaning). */
function aceSddl(a: Ace): string {
  if (!('mask' in a.rights)) throw new Error(`the evaluator wants numeric access masks, not ${a.rights.codes.join('')}`);
  return `(${a.type};${a.flags.filter((f) => f !== 'ID').join('')};0x${a.rights.mask.toString(16)};;;${a.sid})`;
}

/** One question: may a token of these SIDs (and these restricting SIDs) open this object for these rights? */
export interface AccessQuery {
  readonly tree: ProfileTree;
  readonly node: Node;
  readonly mask: number;
  /** The principal's session SID: the token's restricting SID (WRITE_RESTRICTED). */
  readonly restrictingSid: string;
}

const SAMBA_CHECK = String.raw`
import json, sys
import samba.security
from samba.dcerpc import security
req = json.load(sys.stdin)
domain = security.dom_sid(req['domain'])
sds = [security.descriptor.from_sddl(s, domain) for s in req['descriptors']]
tokens = []
for sids in req['tokens']:
    t = security.token()
    t.sids = [security.dom_sid(s) for s in sids]
    t.num_sids = len(sids)
    tokens.append(t)
out = []
for d, t, mask in req['queries']:
    try:
        out.append(samba.security.access_check(sds[d], tokens[t], mask) == mask)
    except Exception:
        out.append(False)
json.dump(out, sys.stdout)
`;

/**
 * Answers the queries, of one tree or several: the DACL through Samba (one
 * Python process for all of them: it takes about half a second to start),
 * then the restricting SIDs and mandatory integrity.
 */
export function accessCheck(queries: readonly AccessQuery[]): boolean[] {
  const descriptors: string[] = [];
  const descriptorIndex = new Map<string, number>();
  const tokens: string[][] = [[USER_SID, ...TOKEN_GROUPS]];
  const tokenIndex = new Map<string, number>();
  const samba: [number, number, number][] = [];
  const sd = (tree: ProfileTree, node: Node): number => {
    const text = `O:${USER_SID}G:${USER_SID}D:${effective(tree.dacl(node)).map(aceSddl).join('')}`;
    let i = descriptorIndex.get(text);
    if (i === undefined) descriptorIndex.set(text, (i = descriptors.push(text) - 1));
    return i;
  };
  const restricting = (sid: string): number => {
    let i = tokenIndex.get(sid);
    if (i === undefined) tokenIndex.set(sid, (i = tokens.push([sid]) - 1));
    return i;
  };
  const plan = queries.map((q) => {
    const d = sd(q.tree, q.node);
    const normal = samba.push([d, 0, q.mask]) - 1;
    const writes = q.mask & WRITE_RIGHTS;
    const restricted = writes ? samba.push([d, restricting(q.restrictingSid), writes]) - 1 : -1;
    return { normal, restricted };
  });
  const r = spawnSync(debianPython, ['-c', SAMBA_CHECK], {
    input: JSON.stringify({ domain: DOMAIN, descriptors, tokens, queries: samba }),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`Samba's access check failed: ${r.stderr}`);
  const granted = JSON.parse(r.stdout) as boolean[];
  return queries.map((q, i) => {
    const { normal, restricted } = plan[i]!;
    if (!granted[normal] || (restricted >= 0 && !granted[restricted])) return false;
    // Mandatory integrity: an unlabelled object is Medium with no-write-up.
    const label = q.tree.label(q.node);
    const level = label ? levelOf(label.sid) : LEVEL.ME!;
    const policy = label && 'codes' in label.rights ? label.rights.codes : ['NW'];
    if (LOW >= level) return true;
    if (policy.includes('NW') && q.mask & WRITE_RIGHTS) return false;
    if (policy.includes('NR') && q.mask & READ_RIGHTS) return false;
    if (policy.includes('NX') && q.mask & EXECUTE_RIGHTS) return false;
    return true;
  });
}
